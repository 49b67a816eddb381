"""Streams of scores: threshold curves (``CurveCounts``) and calibrations (``CalibrationCounts``)
counted batch after batch (each a ``Stream``), in memory bounded by the thresholds or bins when
they are given (their public path is ``evalkit._scale.streaming``)."""

from __future__ import annotations

import json
import math
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast

import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine import moved_names, serialization
from evalkit._engine._exact import (
    float_units,
    limbs_to_ints,
)
from evalkit._engine._labels import check_label_list, same_labels
from evalkit._engine._types import LabelsLike, ScoresLike
from evalkit._engine._validation import as_array, show
from evalkit._results.counted import ALL_OPERATIONS, FEW_SAMPLES
from evalkit._scale._stream import Stream
from evalkit._scores.calibration import SETTINGS as CALIBRATION_SETTINGS
from evalkit._scores.calibration import Calibration
from evalkit._scores.calibration_sums import _Binner, _Sums
from evalkit._scores.curve_points import _grid
from evalkit._scores.curves import ThresholdCurve, score_columns
from evalkit.exceptions import InvalidCountsError
from evalkit.measures._metrics_class import MetricsClass, check_metrics_class, merged_metrics_class
from evalkit.measures._plugins import metrics_class_field, read_metrics_class

if TYPE_CHECKING:
    from typing_extensions import Self  # typing.Self of Python 3.11, for type checkers only


__all__ = ["CalibrationCounts", "CurveCounts"]

Scored = TypeVar("Scored", ThresholdCurve, Calibration)
"""The result a stream of scores counts: a curve or a calibration."""


_MOST_EVENTS = 4096
"""Distinct events a stream's counts remember what they add (pairs of label sets, scores of a
binned calibration), at the most."""


class _ScoreCounts(Stream[Scored]):
    """Results of batches of scores merged as they come (a ``Stream``): the shared body of
    ``CurveCounts`` and ``CalibrationCounts``. The first batch fixes the column labels of 2-D
    scores, or the positive class of 1-D ones, for the batches after it; a binary result's
    single scores are counted in and out of a table in place (a sliding window's events)."""

    OPERATIONS = ALL_OPERATIONS
    WHOLE_COUNTS = True
    _NOTHING = "no scores were counted"
    RESULT: ClassVar[type[ThresholdCurve | Calibration]]
    """The kind of result counted (``ThresholdCurve``, ``Calibration``)."""

    def __init__(self, *, labels: Sequence[Hashable] | None = None, pos_label: Hashable | None = None) -> None:
        self._labels = None if labels is None else check_label_list(labels)
        self._pos_label = pos_label
        self._start()

    def _count(self, y_true: LabelsLike, y_score: ScoresLike, labels: tuple | None, pos_label: Hashable, sample_weight: ArrayLike | None) -> Scored:
        raise NotImplementedError

    def _columns_of(self, batch: Scored) -> tuple:
        return batch.labels

    def _batch(self, y_true: LabelsLike, y_score: ScoresLike, sample_weight: ArrayLike | None = None) -> tuple[Scored, dict[str, Any]]:  # type: ignore[override]
        """A batch counted as a result of its own, over the classes fixed so far, and what it
        fixes when it is the first: the columns of 2-D scores, the positive class of 1-D ones."""
        two_dimensional = as_array(y_score, "y_score").ndim == 2
        batch = self._count(y_true, y_score, self._labels if two_dimensional else None, None if two_dimensional else self._pos_label, sample_weight)
        return batch, {"_labels": self._columns_of(batch)} if two_dimensional else {"_pos_label": batch.labels[0]}

    def _one_event(self, batch: tuple, amount: int) -> bool:
        """Count (or take away, ``amount`` -1) a few unweighted scores of a binary result in a
        table (``_new_table``: an exact curve's distinct scores, in O(log n) each, or a binned
        calibration's sums; a window's events); False when the general path must count them."""
        if len(batch) != 2 or not isinstance(batch[0], (list, tuple)) or not isinstance(batch[1], (list, tuple)):
            return False
        y_true, y_score = batch
        if not 0 < len(y_true) == len(y_score) <= FEW_SAMPLES or not all(type(score) in (float, int) and math.isfinite(score) for score in y_score):
            return False
        with self._lock:
            if self._table is None:
                result = self._result
                table = None if result is None else self._new_table(result)
                if table is None:
                    return False  # the first batch fixes the classes; multi-class, weighted and binned curves count in parts
                self._table = table
            table = self._table
            positives = [table.positive(label) for label in y_true]
            if None in positives or not all(table.accepts(score) for score in y_score):
                return False  # a label of neither class, a score out of range: the general path says what is wrong
            for score, positive in zip(y_score, positives):
                table.add(float(score), bool(positive), amount)
            return True

    def _merged_settings(self, other: Self) -> Self:
        merged = self._fresh()
        merged._labels = self._labels or other._labels
        return merged

    def _option_fields(self) -> dict[str, Any]:
        raise NotImplementedError

    def _settings(self) -> dict[str, Any]:
        """The settings, the classes fixed so far (the counts' document holds the result too)."""
        return {**self._option_fields(), "labels": None if self._labels is None else serialization.as_list(self._labels),
                "pos_label": serialization.json_safe(self._pos_label)}  # fmt: skip

    @classmethod
    def _from_settings(cls, document: dict[str, Any]) -> Self:
        counts = cls._from_options(document)
        counts._labels = None if document.get("labels") is None else serialization.label_list(document, "labels")
        pos_label = document.get("pos_label")
        counts._pos_label = None if pos_label is None else serialization.scalar_label(pos_label, "pos_label")
        return counts

    @classmethod
    def _from_options(cls, document: dict[str, Any]) -> Self:
        raise NotImplementedError

    def _read_result(self, document: dict[str, Any]) -> Scored:
        if not isinstance(document, dict):
            raise serialization.FormatError(f"field 'result' must be a {self.RESULT.__name__} document, got {show(document)}")
        return cast("Scored", self.RESULT.from_json(json.dumps(document)))  # RESULT is the Scored of its class


class CurveCounts(_ScoreCounts[ThresholdCurve]):
    """Threshold curves counted batch by batch (mutable, like ConfusionMatrix): a thin
    accumulator over ``ThresholdCurve.merge``.

    With ``thresholds`` (a number of evenly spaced thresholds in [0, 1], or the thresholds)
    memory is O(thresholds x classes) however long the stream, every point is exact and the
    areas lie within ``ThresholdCurve.area_bounds``; without, the curve is exact and grows
    with the distinct scores seen.

    Args:
        thresholds: as for ``ThresholdCurve.from_scores``.
        labels: the column labels of 2-D scores (by default those of the first batch, which
            later batches keep).
        pos_label: the positive class of binary labels (by default that of the first batch).
        metrics_class: the metrics class of the curve (see ``ThresholdCurve``).

    Examples:
        >>> counts = CurveCounts(thresholds=11)
        >>> counts.update([0, 1, 1], [0.2, 0.9, 0.6])
        >>> counts.update([0, 0], [0.7, 0.1])
        >>> curve = counts.curve()
        >>> curve.n_samples, curve.at(0.6).per_class("recall").tolist()
        (5, [1.0])
    """

    DOCUMENT = "CurveCounts"

    def __init__(
        self, *, thresholds: int | ArrayLike | None = None, labels: Sequence[Hashable] | None = None, pos_label: Hashable | None = None,
        metrics_class: MetricsClass | None = None,
    ) -> None:  # fmt: skip
        super().__init__(labels=labels, pos_label=pos_label)
        self._metrics_class = check_metrics_class(metrics_class)
        whole = isinstance(thresholds, (int, np.integer)) and not isinstance(thresholds, bool)
        if thresholds is not None:
            grid = _grid(thresholds)[::-1]  # (checked now, not at the first batch)
            if not whole:  # kept as the distinct thresholds in increasing order (-inf, always one, left out): one form however given
                thresholds = grid[grid > -np.inf] if len(grid) > 1 else grid
        self._thresholds = int(thresholds) if whole else thresholds  # type: ignore[arg-type]

    def _count(self, y_true: LabelsLike, y_score: ScoresLike, labels: tuple | None, pos_label: Hashable, sample_weight: ArrayLike | None) -> ThresholdCurve:
        return ThresholdCurve._of_columns(score_columns(y_true, y_score, labels, pos_label, sample_weight), self._thresholds, self._metrics_class,
                                          narrow=True)  # the parts keep whole counts as int32 where they fit (read back as int64)

    RESULT = ThresholdCurve

    def _option_fields(self) -> dict[str, Any]:
        thresholds = self._thresholds
        return {"thresholds": thresholds if thresholds is None or isinstance(thresholds, int) else np.asarray(thresholds, dtype=np.float64).tolist(),
                **metrics_class_field(self._metrics_class)}  # fmt: skip

    @classmethod
    def _from_options(cls, document: dict[str, Any]) -> CurveCounts:
        thresholds = document.get("thresholds")
        if thresholds is not None and not isinstance(thresholds, int):
            thresholds = serialization.array(thresholds, "thresholds", length=None, integral=False)
        return cls(thresholds=thresholds, metrics_class=read_metrics_class(document))

    def curve(self) -> ThresholdCurve:
        """The curve of everything counted so far.

        Raises:
            EmptyInputError: nothing was counted.
        """
        return self._read()

    def roc_auc(self, **options: Any) -> float | np.ndarray:
        """``curve().roc_auc(**options)``; of an exact binary curve counted a sample at a time
        (a sliding window), read from its score table without building the curve: the
        Mann-Whitney count ``Σ pos · (neg below + neg at / 2) / (P N)``, exact in integers.

        Examples:
            >>> counts = CurveCounts()
            >>> counts.update([0, 1, 1, 0], [0.1, 0.35, 0.8, 0.4])
            >>> counts.update([1], [0.4])
            >>> counts.roc_auc()
            0.75
        """
        with self._lock:
            table = self._table
            if isinstance(table, _ScoreTable) and not options:
                return table.roc_auc()
        return self._read().roc_auc(**options)

    def _read_back(self, part: ThresholdCurve) -> ThresholdCurve:
        return part._widened()

    def _new_table(self, result: ThresholdCurve) -> _ScoreTable | None:
        return _ScoreTable.of(result) if self._thresholds is None else None

    def _from_table(self, table: _ScoreTable, before: ThresholdCurve) -> ThresholdCurve:
        return table.curve(self._metrics_class)

    def _merged_settings(self, other: CurveCounts) -> CurveCounts:
        merged = super()._merged_settings(other)
        merged._metrics_class = merged_metrics_class(self._metrics_class, other._metrics_class)
        return merged

    def merge(self, other: CurveCounts, *, grow: bool = False) -> CurveCounts:
        """New counts of both streams (of the metrics class of both)."""
        merged = super().merge(other)
        if merged._result is not None:
            merged._result = merged._result.with_metrics_class(merged._metrics_class)
        return merged




class _BinTable:
    """The exact sums of the bins of a binned binary calibration (``Calibration`` with
    ``bins``), as Python integers in units of ``2**-FLOAT_OFFSET`` (``limbs_to_ints``), kept
    current one unweighted sample at a time: its bin and its eight terms, found as a batch finds
    them (``_Binner``, ``_Sums.terms``), added exactly; the calibration is made from them when
    read. The same sums, bit for bit, as the samples counted in one batch."""

    __slots__ = ("binner", "bins", "changed", "memo", "positive_label", "sums")

    def __init__(self, calibration: Calibration) -> None:
        assert calibration._limbs is not None and calibration.bins is not None
        self.bins, self.positive_label = calibration.bins, calibration.labels[0]
        self.sums = limbs_to_ints(calibration._limbs)  # sum k of bin b at k * bins + b (one column)
        self.binner = _Binner(self.bins, 1)
        self.memo: dict[tuple[float, bool], tuple[int, list[int]]] = {}  # (score, positive) -> its bin and terms, for scores that repeat
        self.changed = False

    def positive(self, label: Hashable) -> bool | None:
        """True for the positive class, False for another label of its type (a binned
        calibration keeps no negative class), None for anything else (the general path)."""
        positive = self.positive_label
        if same_labels((label,), (positive,)):
            return True
        return False if type(label) is type(positive) and label == label else None  # noqa: PLR0124 (NaN is no label)

    @staticmethod
    def accepts(score: float) -> bool:
        """A probability: in [0, 1]."""
        return 0 <= score <= 1

    def add(self, score: float, positive: bool, amount: int) -> None:
        found = self.memo.get((score, positive))
        if found is None:
            scores = np.array([score])
            terms = _Sums.terms(scores, np.array([positive]), None)
            found = int(self.binner.keys(scores, None)[0]), [float_units(float(term[0])) for term in terms]
            if len(self.memo) >= _MOST_EVENTS:
                self.memo.clear()
            self.memo[(score, positive)] = found
        at, units = found
        sums, bins = self.sums, self.bins
        if amount < 0 and (sums[at] < units[0] or sums[3 * bins + at] < units[3]):
            raise InvalidCountsError(f"cannot take away a {'positive' if positive else 'negative'} score {score!r} that was never counted")
        for k, unit in enumerate(units):
            sums[k * bins + at] += amount * unit
        self.changed = True

    def calibration(self, before: Calibration) -> Calibration:
        return Calibration._of_sums(before.setting, before.labels, self.bins, self.sums, before.classes)  # (read, not kept)


class _ScoreTable:
    """The distinct scores of an exact binary curve, lowest first, with the count of positives
    and of negatives at each, kept current one sample at a time (a sorted insert: a binary
    search and a move of the arrays' tails); the curve is built from it when read."""

    __slots__ = ("changed", "labels", "negative_label", "negatives", "positives", "scores")
    scores: np.ndarray
    positives: np.ndarray
    negatives: np.ndarray

    def __init__(self, curve: ThresholdCurve) -> None:
        scores, positives, negatives = curve.score_counts()
        self.scores = np.array(scores, dtype=np.float64)
        self.positives, self.negatives = np.array(positives, dtype=np.int64), np.array(negatives, dtype=np.int64)
        self.labels, self.negative_label = curve.labels, curve.negative_label
        self.changed = False

    @classmethod
    def of(cls, curve: ThresholdCurve) -> _ScoreTable | None:
        """The table of an exact binary curve of whole counts, or None (multi-class, binned,
        weighted, or of integer scores beyond 2**53, which the table's float64 scores would round)."""
        return None if len(curve.labels) != 1 or curve.binned or curve.positives.dtype.kind == "f" or curve.thresholds().dtype.kind in "iu" else cls(curve)

    def positive(self, label: Hashable) -> bool | None:
        """Whether ``label`` is the positive class (True), the negative one (False), or neither (None)."""
        if same_labels((label,), self.labels[:1]):
            return True
        return False if same_labels((label,), (self.negative_label,)) else None

    @staticmethod
    def accepts(score: float) -> bool:
        """Every finite score but an integer beyond 2**53 (float64 would round it: the general
        path counts it as the integer it is)."""
        return type(score) is float or abs(score) <= 2**53

    def add(self, score: float, positive: bool, amount: int) -> None:
        counts = self.positives if positive else self.negatives
        k = int(np.searchsorted(self.scores, score))
        if k < len(self.scores) and self.scores[k] == score:
            if counts[k] + amount < 0:
                raise InvalidCountsError(f"cannot take away a {'positive' if positive else 'negative'} score {score!r} that was never counted")
            counts[k] += amount
            if not (self.positives[k] or self.negatives[k]):
                self.scores, self.positives, self.negatives = np.delete(self.scores, k), np.delete(self.positives, k), np.delete(self.negatives, k)
        elif amount < 0:
            raise InvalidCountsError(f"cannot take away a score {score!r} that was never counted")
        else:
            self.scores = np.insert(self.scores, k, score)
            self.positives = np.insert(self.positives, k, amount if positive else 0)
            self.negatives = np.insert(self.negatives, k, 0 if positive else amount)
        self.changed = True

    def roc_auc(self) -> float:
        """The Mann-Whitney count of the table, exact: ``Σ pos (2 neg_below + neg_at) / (2 P N)``."""
        positives, negatives = int(self.positives.sum()), int(self.negatives.sum())
        if not (positives and negatives):
            return math.nan
        below = np.cumsum(self.negatives) - self.negatives
        twice = int(self.positives @ (2 * below + self.negatives))  # below 2 * P * N: int64 holds it for windows of a billion
        return twice / (2 * positives * negatives)

    def curve(self, metrics_class: MetricsClass) -> ThresholdCurve:
        return ThresholdCurve.from_score_counts([(self.scores, self.positives, self.negatives)], self.labels, negative_label=self.negative_label,
                                                metrics_class=metrics_class)  # fmt: skip


class CalibrationCounts(_ScoreCounts[Calibration]):
    """A calibration counted batch by batch (mutable): a thin accumulator over
    ``Calibration.merge``. With ``bins`` memory is O(bins x columns) however long the stream;
    without, the counts are exact and grow with the distinct scores seen. ``revert`` takes
    scores counted before away; a binary stream's single scores are counted in and out of a
    table in place (a sliding window's events).

    Args:
        bins: as for ``Calibration.from_scores`` (``None``: exact).
        setting: as for ``Calibration.from_scores``.
        labels: the column labels of 2-D probabilities (by default those of the first batch).
        pos_label: the positive class of binary labels (by default that of the first batch).

    Examples:
        >>> counts = CalibrationCounts(bins=10)
        >>> counts.update([0, 1, 1], [0.2, 0.9, 0.6])
        >>> counts.update([0, 0], [0.7, 0.1])
        >>> round(counts.calibration().error(), 4)
        0.3
        >>> counts.revert([0], [0.7])
        >>> counts.calibration().n_samples
        4.0
    """

    DOCUMENT = "CalibrationCounts"

    def __init__(self, *, bins: int | None = None, setting: str | None = None, labels: Sequence[Hashable] | None = None,
                 pos_label: Hashable | None = None) -> None:  # fmt: skip
        super().__init__(labels=labels, pos_label=pos_label)
        self._bins, self._setting = bins, setting

    def _count(self, y_true: LabelsLike, y_score: ScoresLike, labels: tuple | None, pos_label: Hashable, sample_weight: ArrayLike | None) -> Calibration:
        return Calibration.from_scores(y_true, y_score, labels, pos_label=pos_label, setting=self._setting, sample_weight=sample_weight, bins=self._bins)

    def _columns_of(self, batch: Calibration) -> tuple:
        return batch.classes

    def _new_table(self, result: Calibration) -> _ScoreTable | _BinTable | None:
        if result.setting != "binary":
            return None
        curve = result._curve  # an exact binary calibration is its curve's scores
        return _BinTable(result) if curve is None else _ScoreTable.of(curve)

    def _from_table(self, table: Any, before: Calibration) -> Calibration:
        if isinstance(table, _BinTable):
            return table.calibration(before)
        curve = before._curve
        assert curve is not None
        return Calibration(before.setting, before.labels, None, table.curve(curve.metrics_class), classes=before.classes)

    RESULT = Calibration

    def _option_fields(self) -> dict[str, Any]:
        return {"bins": self._bins, "setting": self._setting}

    @classmethod
    def _from_options(cls, document: dict[str, Any]) -> CalibrationCounts:
        setting = document.get("setting")
        if setting is not None and setting not in CALIBRATION_SETTINGS:
            raise serialization.FormatError(f"field 'setting' must be one of {CALIBRATION_SETTINGS} or null, got {show(setting)}")
        return cls(bins=serialization.integer(document, "bins", low=1, optional=True), setting=setting)

    def calibration(self) -> Calibration:
        """The calibration of everything counted so far.

        Raises:
            EmptyInputError: nothing was counted.
        """
        return self._read()

moved_names.publish("evalkit", globals(), ["CurveCounts", "CalibrationCounts"])  # given by the face on first use: named so from the start (pickles, reprs)
