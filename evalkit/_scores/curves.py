"""Threshold curves: the cells of every one-vs-rest problem at every distinct score, from one sort.

ScoresLike become predictions at a threshold ``t``: a sample is predicted positive when
``score >= t``. Sorting the scores of a class once gives, at every distinct score ``t``, the
weight of the positives and of the negatives scored at or above it, ``tp(t)`` and ``fp(t)``;
with the class sizes ``P`` and ``N`` these are the four cells ``(tp, fp, P - tp, N - fp)``.
So every measure of the formula layer (F-beta, MCC, informedness, a cost, a subclass's own
getter) can be read at every threshold, optimised, and averaged over classes; ROC,
precision-recall and DET curves and their areas are measures of the same cells.

* ``ThresholdCurve.from_scores``: binary scores, or ``n x m`` scores with one label per sample
  (multi-class, one-vs-rest) or ``n x m`` 0/1 indicators (multi-label), with sample weights.
  Exact by default: one sort per class, O(n log n) time, memory O(distinct scores); ties are
  one threshold (scikit-learn's rule), and a sample of weight 0 makes no threshold. With
  ``thresholds=`` (a number of evenly spaced thresholds in [0, 1], or the thresholds
  themselves) the counts are kept at those thresholds only: memory O(thresholds x classes)
  whatever the data, mergeable batch by batch (``+``, ``evalkit.CurveCounts``,
  ``evalkit.dask.threshold_curve``), each point exact, and the areas within bounds that
  ``area_bounds`` computes.
* Reading: ``evaluate`` (any measure at every threshold, per class or averaged at common
  thresholds), ``roc``/``roc_auc``, ``precision_recall``/``average_precision``, ``det``,
  ``best_threshold``, ``at`` (the cells at one threshold, with the averaging face of an
  ``Evaluation``), ``micro`` (the curve of all classes' cells summed).
* ``one_vs_one_roc_auc``: Hand and Till's multi-class AUC, the mean AUC over pairs of classes.

Undefined values follow the library's policy: a rate with a zero denominator is NaN (a ROC
curve of a class with no positives, its AUC and its average precision are NaN), and averages
over classes take ``undefined=`` as everywhere else.

Examples:
    >>> curve = ThresholdCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> curve.thresholds().tolist(), curve.roc_auc(), curve.average_precision()
    ([0.8, 0.4, 0.35, 0.1], 0.75, 0.8333333333333333)
    >>> curve.best_threshold("f1_score")
    BestThreshold(threshold=0.35, value=0.8, measure='f1_score')
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine import moved_names
from evalkit._engine._exact import equal_counts, weighted_sum
from evalkit._engine._labels import check_one_label, column_labels, label_position, same_labels
from evalkit._engine._pair_counts import PairCounts
from evalkit._engine._types import LabelsLike, ScoresLike
from evalkit._engine._validation import (
    FieldEquality,
    as_array,
    check_choice,
    check_matrix,
    check_numbers,
    check_sample_weight,
    made_by_constructors,
    read_only,
    same_value,
    show,
)
from evalkit._engine.cells import Cells
from evalkit._engine.counting import encode, indicator_rows, is_label_set_data
from evalkit._results.base import CellsResult
from evalkit._results.confusion_matrix import ConfusionMatrix
from evalkit._results.rendering import ReportFace
from evalkit._scores.curve_areas import CurveAreas
from evalkit._scores.curve_operating import BestThreshold, CurveOperatingPoints
from evalkit._scores.curve_points import (
    CURVE_AVERAGES,
    MAX_THRESHOLDS,
    _auc,
    _binned_column,
    _exact_column,
    _fill_union,
    _grid,
    _joined,
    _merged_runs,
    _running_sums,
    _snapped,
    _turned_round,
    _union_arrays,
    exact_scores,
)
from evalkit._scores.curve_state import CurveState
from evalkit.exceptions import (
    EmptyInputError,
    InputLengthError,
    InputShapeError,
    InvalidArgumentError,
    InvalidTypeError,
    InvalidValueError,
    LabelMismatchError,
    UnsupportedSettingError,
)
from evalkit.measures._metrics_class import (
    MetricsClass,
    check_metrics_class,
    merged_metrics_class,
    metrics_class_for,
)
from evalkit.measures._registry import Measure, MeasureLike, resolve_measure, spelling

__all__ = ["CURVE_AVERAGES", "BestThreshold", "ThresholdCells", "ThresholdCurve", "one_vs_one_roc_auc"]


AREAS = {"roc_auc": "roc auc", "average_precision": "ap"}
"""The areas of a curve that reports show as columns -> their short titles."""

AREA_SPELLINGS = {"auc": "roc_auc", "auroc": "roc_auc", "roc_area": "roc_auc", "ap": "average_precision", "prc_area": "average_precision"}
"""Other spellings of the areas (as ``spelling`` writes a name) -> their names in ``AREAS``."""


def area_key(asked: object) -> str | None:
    """The area a name stands for (``"AUC"`` is ``"roc_auc"``), or None for a name of no area.

    Examples:
        >>> area_key("AUC"), area_key("average_precision"), area_key("recall")
        ('roc_auc', 'average_precision', None)
    """
    if not isinstance(asked, str):
        return None
    key = AREA_SPELLINGS.get(spelling(asked), spelling(asked))
    return key if key in AREAS else None


# --------------------------------------------------------------------------------------------
# inputs: scores per column, and which samples are positive for each


@attrs.frozen
class ScoreColumns:
    """ScoresLike per column and the positives of each column's one-vs-rest problem."""

    scores: np.ndarray  # n x m
    labels: tuple
    weight: np.ndarray | None
    negative_label: Hashable = None
    positive: np.ndarray | None = None  # binary: the positive samples
    codes: np.ndarray | None = None  # multi-class: the class of each sample
    indicators: np.ndarray | None = None  # multi-label: n x m 0/1

    def positives(self, column: int) -> np.ndarray:
        if self.positive is not None:
            return self.positive
        if self.codes is not None:
            return self.codes == column
        assert self.indicators is not None
        return self.indicators[:, column] != 0


def _fits_narrow(positives: int, negatives: int) -> bool:
    """Whether whole counts up to these class sizes fit int32 (a stream's parts hold them so)."""
    return max(positives, negatives) <= np.iinfo(np.int32).max


def _score_matrix(y_score: ScoresLike, name: str = "y_score", finite: bool = True) -> np.ndarray:
    scores = as_array(y_score, name)
    if scores.dtype.kind not in "biuf":
        raise InvalidTypeError(f"{name!r} must hold numbers, got dtype {scores.dtype}: {show(scores)}")
    if scores.ndim not in (1, 2):
        raise InputShapeError(f"{name!r} must be 1-D (binary) or 2-D (samples x labels), got shape {scores.shape}")
    if finite and scores.dtype.kind == "f" and not np.isfinite(scores).all():
        raise InvalidValueError(f"{name!r} must be finite, got {show(scores[~np.isfinite(scores)][:3])}")
    return scores


def _default_negative(positive: Hashable) -> Hashable:
    """The other class of a binary problem whose data show only the positive one."""
    if isinstance(positive, (bool, np.bool_)):
        return not positive
    if isinstance(positive, (int, float, np.number)):
        return 0 if positive != 0 else 1
    return f"not {positive}" if isinstance(positive, str) else None


def _binary_classes(y_true: LabelsLike, n: int, name: str = "y_score") -> tuple[tuple, np.ndarray | None, np.ndarray | None]:
    """The distinct labels of binary ``y_true`` and, by the cheapest exact path, either the
    array itself (0/1, -1/1 or booleans) or label codes."""
    if isinstance(y_true, np.ndarray) and y_true.ndim == 1 and len(y_true) == n and y_true.dtype.kind in "biu" and n:
        if y_true.dtype.kind == "b":
            return tuple(value for value, seen in ((False, not y_true.all()), (True, y_true.any())) if seen), y_true, None
        low, high = int(y_true.min()), int(y_true.max())
        if -1 <= low and high <= 1:  # the labels present: the ends, and 0 between -1 and 1
            middle = (0,) if high - low == 2 and bool((y_true == 0).any()) else ()
            return tuple(sorted({low, high, *middle})), y_true, None
    if is_label_set_data(y_true):
        raise InvalidTypeError("'y_true' must hold one label per sample (or 0/1 indicator rows), not label sets")
    codes, _, found, _ = encode(y_true, y_true)
    if len(codes) != n:
        raise InputLengthError(f"'y_true' has {len(codes)} samples but {name!r} has {n}")
    return found, None, codes


def _binary_columns(y_true: LabelsLike, scores: np.ndarray, pos_label: Hashable, weight: np.ndarray | None, name: str = "y_score") -> ScoreColumns:
    found, values, codes = _binary_classes(y_true, len(scores), name)
    if pos_label is None:
        numeric = all(isinstance(label, (int, float, np.number)) for label in found)
        if not numeric or not (set(found) <= {0, 1} or set(found) <= {-1, 1}):
            raise InvalidArgumentError(
                f"'y_true' has labels {show(list(found))}: give 'pos_label', the positive class "
                "(it defaults to 1 only for 0/1, -1/1 and boolean labels)"
            )
        pos_label = True if found and isinstance(found[0], (bool, np.bool_)) else 1
    else:
        pos_label = check_one_label("pos_label", pos_label)
        if pos_label not in found and len(found) >= 2:
            raise InvalidArgumentError(f"pos_label={pos_label!r} is not a label of 'y_true', whose labels are {show(list(found))}")
    others = [label for label in found if label != pos_label]
    if values is not None:
        positive = values == pos_label
    else:
        assert codes is not None
        positive = codes == found.index(pos_label) if pos_label in found else np.zeros(len(codes), dtype=bool)
    negative = others[0] if len(others) == 1 else _default_negative(pos_label)
    return ScoreColumns(scores.reshape(-1, 1), (pos_label,), weight, negative_label=negative, positive=positive)


def score_columns(
    y_true: LabelsLike, y_score: ScoresLike, labels: Sequence[Hashable] | None, pos_label: Hashable, sample_weight: ArrayLike | None, name: str = "y_score",
    finite: bool = True,
) -> ScoreColumns:
    """ScoresLike and positives of every one-vs-rest problem (the one entry point for score data)."""
    scores = _score_matrix(y_score, name, finite)  # finite=False: the caller finds NaN and infinities itself
    n = len(scores)
    if n == 0:
        raise EmptyInputError(f"'y_true' and {name!r} are empty: at least one sample is needed")
    weight = check_sample_weight(sample_weight, n)
    if scores.ndim == 2:
        y_true = indicator_rows(y_true, scores.shape[1])  # a list of 0/1 lists is indicator rows, as elsewhere
    two_dimensional = not is_label_set_data(y_true) and as_array(y_true, "y_true").ndim == 2
    if scores.ndim == 1 or (scores.shape[1] == 1 and not two_dimensional and labels is None):
        if labels is not None:
            raise InvalidArgumentError(f"'labels' names the columns of 2-D {name!r}; with 1-D (binary) scores give 'pos_label'")
        return _binary_columns(y_true, scores.ravel(), pos_label, weight, name)
    m = scores.shape[1]
    if m == 0:
        raise InputShapeError(f"2-D {name!r} must have a column of scores per class, got shape {scores.shape}")
    if pos_label is not None:
        raise InvalidArgumentError(f"'pos_label' is for 1-D (binary) scores; with 2-D {name!r} every column is a class")
    if two_dimensional:
        indicators = check_matrix(y_true, "y_true", scores.shape)
        if not ((indicators == 0) | (indicators == 1)).all():
            raise InvalidValueError(f"2-D 'y_true' must hold 0/1 indicators, got {show(indicators)}")
        return ScoreColumns(scores, column_labels(labels, m), weight, indicators=indicators)
    if is_label_set_data(y_true):
        raise InvalidTypeError("'y_true' must hold one label per sample or 0/1 indicator rows, not label sets")
    codes, _, found, _ = encode(y_true, y_true, None if labels is None else column_labels(labels, m))
    if len(codes) != n:
        raise InputLengthError(f"'y_true' has {len(codes)} samples but {name!r} has {n}")
    if len(found) != m:
        raise InputShapeError(
            f"'y_true' has {len(found)} classes ({show(list(found))}) but {name!r} has {m} columns: "
            "give 'labels', the class of each column"
        )
    return ScoreColumns(scores, found, weight, codes=codes)


# --------------------------------------------------------------------------------------------
# counting: one sort per class


# --------------------------------------------------------------------------------------------
# the curve


@made_by_constructors(
    "a ThresholdCurve is made from scores, by ThresholdCurve.from_scores(y_true, y_score, labels=...); to count batch by batch "
    "(DL4J's new ROC() or new ROCMultiClass() and eval), use evalkit.CurveCounts() and its update(y_true, y_score) "
    "(thresholds= for memory bounded by the thresholds), or merge the curves of the batches (a + b)"
)
@attrs.frozen(eq=False)
class ThresholdCurve(FieldEquality, CurveState, CurveOperatingPoints, CurveAreas):
    """The cells of one or more one-vs-rest problems at every threshold (see the module docstring).

    Build it with ``from_scores``. A binary curve has one class, the positive one; a curve of
    ``n x m`` scores has one per column. Methods taking ``label`` need it only when the curve
    has several classes.

    Reading:
        ``thresholds``, ``cells``, ``evaluate``, ``best_threshold``, ``at``.
    Curves and areas:
        ``roc``, ``roc_auc``, ``precision_recall``, ``average_precision``, ``det``,
        ``area_bounds``, ``micro``.
    Combining:
        ``merge`` (also ``+``): the curve of two batches' scores together.

    Attributes:
        labels: the classes, one curve each (a binary curve: the positive class).
        positives: the weight of each class's positives, ``P``.
        negatives: the weight of each class's negatives, ``N``.
        binned: True when the counts are kept at given thresholds only.
        negative_label: the other class of a binary curve (for ``at(t).confusion_matrix()``).
        metrics_class: the ``ClassificationMetrics`` class (or subclass) whose getters are
            the curve's measures by name.
    """

    labels: tuple
    _thresholds: np.ndarray = attrs.field(converter=read_only, repr=False)
    _tp: np.ndarray = attrs.field(converter=read_only, repr=False)
    _fp: np.ndarray = attrs.field(converter=read_only, repr=False)
    _offsets: np.ndarray = attrs.field(converter=read_only, repr=False)
    positives: np.ndarray = attrs.field(converter=read_only, repr=False)
    negatives: np.ndarray = attrs.field(converter=read_only, repr=False)
    binned: bool = False
    negative_label: Hashable = attrs.field(default=None, repr=False)
    metrics_class: MetricsClass = attrs.field(default=None, converter=check_metrics_class, repr=False)

    # ----------------------------------------------------------------------------------------
    # building

    @classmethod
    def from_scores(
        cls,
        y_true: LabelsLike,
        y_score: ScoresLike,
        labels: Sequence[Hashable] | None = None,
        *,
        pos_label: Hashable | None = None,
        sample_weight: ArrayLike | None = None,
        thresholds: int | ArrayLike | None = None,
        metrics_class: MetricsClass | None = None,
    ) -> ThresholdCurve:
        """The cells at every threshold of scores.

        Args:
            y_true: one label per sample, or ``n x m`` 0/1 indicators (multi-label).
            y_score: finite scores: 1-D for a binary problem, or ``n x m`` (column ``j`` for
                ``labels[j]``; each column a one-vs-rest problem).
            labels: the column labels of 2-D scores (default: the sorted labels of
                ``y_true``, or ``0 .. m-1`` for indicators).
            pos_label: the positive class of binary labels (default 1 for 0/1, -1/1 and
                boolean labels).
            sample_weight: one finite weight >= 0 per sample; a sample of weight 0 makes no
                threshold.
            thresholds: ``None`` (default) for the exact curve at every distinct score; a
                number ``k`` for ``k`` evenly spaced thresholds in [0, 1], or the thresholds
                themselves: counts at those only (plus -inf, where every sample is predicted
                positive).
            metrics_class: the ``ClassificationMetrics`` subclass whose getters are the
                curve's measures by name (``evaluate``, ``best_threshold``, ``at``).

        Raises:
            InvalidArgumentError: binary labels other than 0/1, -1/1 or booleans without
                ``pos_label``; ``labels`` with 1-D scores.
            InputShapeError: 2-D ``y_true`` or ``labels`` not matching ``y_score``'s shape.
            InvalidValueError: a score that is NaN or infinite.

        Examples:
            >>> curve = ThresholdCurve.from_scores(["no", "yes", "yes"], [0.2, 0.9, 0.2], pos_label="yes")
            >>> curve.thresholds().tolist(), curve.cells().counts()["tp"].tolist()
            ([0.9, 0.2], [1, 2])
        """
        return cls.from_score_columns(score_columns(y_true, y_score, labels, pos_label, sample_weight), thresholds=thresholds,
                                      metrics_class=metrics_class)  # fmt: skip

    @classmethod
    def from_score_columns(cls, columns: ScoreColumns, *, thresholds: int | ArrayLike | None = None, metrics_class: MetricsClass | None = None) -> ThresholdCurve:
        """The curve of checked score columns (``score_columns``; ``from_scores`` checks the
        inputs and calls this)."""
        return cls._of_columns(columns, thresholds, metrics_class, narrow=False)

    @classmethod
    def _of_columns(cls, columns: ScoreColumns, thresholds: int | ArrayLike | None, metrics_class: MetricsClass | None, *, narrow: bool) -> ThresholdCurve:
        """``from_score_columns``; ``narrow``: whole counts as int32 where they fit, each class's
        as soon as it is counted (a stream's parts: 16 bytes a point, not 24; ``_widened`` reads
        them back), so that a batch never holds them wide."""
        maker = check_metrics_class(metrics_class)
        if columns.weight is not None:
            weighted_sum(columns.weight, None)  # an integer total beyond int64 is refused here
        grid = None if thresholds is None else _grid(thresholds)
        if grid is not None and len(grid) * len(columns.labels) > MAX_THRESHOLDS:
            raise InvalidArgumentError(f"{len(grid):,} thresholds for each of {len(columns.labels):,} classes make {len(grid) * len(columns.labels):,} "
                                       f"points, more than a binned curve holds ({MAX_THRESHOLDS:,} in all): give fewer thresholds")  # fmt: skip
        parts = []
        for j in range(len(columns.labels)):
            score, positive = columns.scores[:, j], columns.positives(j)
            part = _exact_column(score, positive, columns.weight) if grid is None else _binned_column(score, positive, columns.weight, grid)
            if narrow and np.asarray(part[1]).dtype == np.int64 and _fits_narrow(part[3], part[4]):
                part = (part[0], part[1].astype(np.int32), part[2].astype(np.int32), part[3], part[4])
            parts.append(part)
        return cls._assemble(columns.labels, parts, binned=grid is not None, negative_label=columns.negative_label, metrics_class=maker)

    @classmethod
    def from_score_counts(
        cls, parts: Sequence[tuple[Any, Any, Any]], labels: Sequence[Hashable], *, negative_label: Hashable = None,
        metrics_class: MetricsClass | None = None,
    ) -> ThresholdCurve:  # fmt: skip
        """The exact curve of stored counts: for each class, its distinct scores (strictly
        increasing) with the weight of its positives and negatives at each, as
        ``score_counts`` gives them.

        Raises:
            InvalidArgumentError: scores not strictly increasing and finite, counts negative or
                of other lengths, or one part per label not given.

        Examples:
            >>> curve = ThresholdCurve.from_score_counts([([0.2, 0.4, 0.9], [1, 0, 1], [1, 1, 0])], [1])
            >>> curve.thresholds().tolist(), curve.roc_auc()
            ([0.9, 0.4, 0.2], 0.625)
        """
        labels = tuple(labels)
        if len(parts) != len(labels):
            raise InvalidArgumentError(f"give one (scores, positives, negatives) part per label: {len(labels)} labels, {len(parts)} parts")
        assembled = []
        for label, (scores, positives, negatives) in zip(labels, parts):
            given = np.asarray(scores)
            scores = exact_scores(given) if given.dtype.kind in "iu" else check_numbers("scores", scores)  # (integers float64 would round: as they are)
            counts = [np.asarray(values) for values in (positives, negatives)]
            if scores.ndim != 1 or any(values.shape != scores.shape for values in counts):
                raise InvalidArgumentError(f"the part of {label!r} needs 1-D scores, positives and negatives of one length")
            if not np.isfinite(scores).all() or np.any(scores[1:] <= scores[:-1]):
                raise InvalidArgumentError(f"the scores of {label!r} must be finite and strictly increasing, got {show(scores)}")
            if any(values.dtype.kind not in "biuf" or (values.size and values.min() < 0) for values in counts):
                raise InvalidArgumentError(f"the counts of {label!r} must be numbers >= 0, got {show(counts)}")
            tp, fp = (np.cumsum(values[::-1]) for values in counts)
            assembled.append((scores[::-1], tp, fp, tp[-1].item() if len(tp) else 0, fp[-1].item() if len(fp) else 0))
        return cls._assemble(labels, assembled, binned=False, negative_label=negative_label, metrics_class=check_metrics_class(metrics_class))

    @classmethod
    def _assemble(
        cls, labels: tuple, parts: list[tuple], *, binned: bool, negative_label: Any = None, metrics_class: MetricsClass | None = None
    ) -> ThresholdCurve:
        """A curve from per-class ``(thresholds, tp, fp, P, N)``."""
        lengths = [len(part[0]) for part in parts]
        if any(np.asarray(count).dtype.kind == "f" for part in parts for count in part[1:]):
            counts_dtype: type = np.float64
        else:  # whole counts: int64, or int32 where every part holds them narrowed (``_of_columns``)
            counts_dtype = np.int32 if all(np.asarray(part[1]).dtype == np.int32 for part in parts) else np.int64
        return cls(
            tuple(labels),
            exact_scores(_joined([part[0] for part in parts])),
            _joined([part[1] for part in parts]).astype(counts_dtype, copy=False),
            _joined([part[2] for part in parts]).astype(counts_dtype, copy=False),
            np.concatenate(([0], np.cumsum(lengths))).astype(np.int64),
            np.array([part[3] for part in parts], dtype=counts_dtype),
            np.array([part[4] for part in parts], dtype=counts_dtype),
            binned,
            negative_label,
            metrics_class,
        )

    # ----------------------------------------------------------------------------------------
    # one class

    def _class(self, label: Hashable) -> int:
        if label is None:
            if len(self.labels) == 1:
                return 0
            raise InvalidArgumentError(
                f"this curve has {len(self.labels)} classes: give 'label' (one of {show(list(self.labels))}) or an average"
            )
        return label_position(self.labels, label, "this curve")

    def _part(self, j: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        part = slice(self._offsets[j], self._offsets[j + 1])
        return self._thresholds[part], self._tp[part], self._fp[part]

    def thresholds(self, label: Hashable | None = None) -> np.ndarray:
        """The thresholds of a class's curve, highest first (its distinct scores, or the given
        thresholds of a binned curve)."""
        return self._part(self._class(label))[0]

    def score_counts(self, label: Hashable | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each distinct score of a class, lowest first, with the weight of the class's
        positives and of its negatives scored exactly there (a binned curve: at or above the
        threshold and below the next one).

        Examples:
            >>> ThresholdCurve.from_scores([0, 1, 1, 0], [0.2, 0.9, 0.2, 0.4]).score_counts()
            (array([0.2, 0.4, 0.9]), array([1, 0, 1]), array([1, 1, 0]))
        """
        thresholds, tp, fp = self._part(self._class(label))
        return thresholds[::-1], np.diff(tp, prepend=0)[::-1], np.diff(fp, prepend=0)[::-1]

    def cells(self, label: Hashable | None = None) -> Cells:
        """The cells of a class at each of its thresholds, highest first:
        ``(tp, fp, P - tp, N - fp)``."""
        return self._cells(self._class(label))

    def _cells(self, j: int) -> Cells:
        _, tp, fp = self._part(j)
        return Cells(tp, fp, self.positives[j] - tp, self.negatives[j] - fp)

    def _counts_at(self, j: int, query: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """tp and fp of class ``j`` at any thresholds: the counts at its lowest own threshold at
        or above each (exact for an exact curve: no score lies in between)."""
        thresholds, tp, fp = self._part(j)
        above = len(thresholds) - np.searchsorted(thresholds[::-1], query, "left")
        zero = np.zeros(1, dtype=tp.dtype)
        return np.concatenate((zero, tp))[above], np.concatenate((zero, fp))[above]

    def measure(self, measure: MeasureLike, metrics_class: type[Any] | None = None) -> Measure:
        """The measure a name stands for on this curve: a getter, an override or a registered
        measure of ``metrics_class`` or of the curve's own metrics class (see
        ``CellsResult.measure``)."""
        return resolve_measure(measure, metrics_class_for(metrics_class, self.metrics_class))

    def with_metrics_class(self, metrics_class: MetricsClass) -> ThresholdCurve:
        """The same curve with another metrics class (whose getters become its measures)."""
        return attrs.evolve(self, metrics_class=check_metrics_class(metrics_class))

    def common_thresholds(self) -> np.ndarray:
        """Every threshold of any class, highest first (where averages over classes are read)."""
        return np.unique(self._thresholds)[::-1]

    # ----------------------------------------------------------------------------------------
    # operating points: the best threshold under constraints

    # ----------------------------------------------------------------------------------------
    # gain, lift, Kolmogorov-Smirnov

    def at(self, threshold: float | ArrayLike) -> ThresholdCells:
        """The cells of every class at one threshold (a number, or one per class).

        A binned curve knows its cells at its own thresholds only.

        Raises:
            InvalidArgumentError: a NaN threshold, the wrong number of them, or a threshold a
                binned curve does not have.

        Examples:
            >>> cells = ThresholdCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).at(0.35)
            >>> cells.per_class("precision"), cells.confusion_matrix().to_array().tolist()
            (array([0.66666667]), [[1, 1], [0, 2]])
        """
        m = len(self.labels)
        try:
            chosen = np.broadcast_to(check_numbers("threshold", threshold), (m,))
            if self._thresholds.dtype.kind == "i" and np.asarray(threshold).dtype.kind in "iu":  # integer scores beyond 2**53: compared as integers
                chosen = np.broadcast_to(np.asarray(threshold).astype(np.int64), (m,))
        except ValueError as error:
            raise InvalidArgumentError(f"'threshold' must be a number or one number per class ({m}), got {show(threshold)}") from error
        if np.isnan(chosen).any():
            raise InvalidArgumentError(f"'threshold' must not be NaN, got {show(threshold)}")
        if self.binned:
            chosen = self._own_thresholds(chosen, threshold)
        counts = [self._counts_at(j, chosen[j : j + 1]) for j in range(m)]
        tp = np.concatenate([c[0] for c in counts])
        fp = np.concatenate([c[1] for c in counts])
        cells = Cells(tp, fp, self.positives - tp, self.negatives - fp)
        return ThresholdCells(self.labels, cells, chosen.copy(), self.n_samples, self.negative_label, self.metrics_class)

    def _own_thresholds(self, chosen: np.ndarray, given: float | ArrayLike) -> np.ndarray:
        """A binned curve's own thresholds nearest to ``chosen`` (within rounding), or an error."""
        grid = self._part(0)[0]
        with np.errstate(invalid="ignore"):  # -inf - -inf is NaN, which argmin picks first: the -inf threshold
            nearest = grid[np.abs(grid[None, :] - chosen[:, None]).argmin(axis=1)]
        close = (nearest == chosen) | np.isclose(nearest, chosen, rtol=1e-9, atol=1e-12)
        if not close.all():
            raise InvalidArgumentError(f"a binned curve knows its cells at its own thresholds only; {show(given)} is not among them")
        return nearest

    @property
    def n_samples(self) -> float:
        """How much the samples weigh together (their number, when unweighted)."""
        return (self.positives[0] + self.negatives[0]).item() if len(self.labels) else 0

    @property
    def n_points(self) -> int:
        """How many points the curve keeps: the thresholds of every class (its memory is about
        24 bytes each).

        Examples:
            >>> ThresholdCurve.from_scores([0, 1, 1], [[0.2, 0.8], [0.6, 0.4], [0.2, 0.9]]).n_points  # 2 + 3 distinct scores
            5
        """
        return len(self._thresholds)

    # ----------------------------------------------------------------------------------------
    # combining

    def _summed(self, parts: list[tuple[int, ThresholdCurve]]) -> tuple:
        """``(thresholds, tp, fp, P, N)`` of several classes' curves summed at their common thresholds.

        The thresholds of each part are sorted already, so one stable sort merges them in
        linear time (runs); each part's counts at every common threshold are those at its
        lowest own threshold at or above it, summed part by part (exact counts stay exact).
        """
        own = [curve._part(j) for j, curve in parts]
        positives = weighted_sum(np.array([curve.positives[j] for j, curve in parts]), None)
        negatives = weighted_sum(np.array([curve.negatives[j] for j, curve in parts]), None)
        if len(own) == 2:
            thresholds, tp, fp, _ = _union_arrays([(own[0], own[1])])
            _fill_union(own[0], own[1], (thresholds, tp, fp))
            return thresholds, tp, fp, positives, negatives
        order, last, thresholds = _merged_runs([part[0] for part in own])
        # many parts: running sums of each part's changes, not one pass per part (one quantity at a time: half the memory);
        # whole counts whose sums fit int32 are summed as int32 (every running sum is at most the classes' total), then widened
        counts = np.result_type(*(part[k] for part in own for k in (1, 2)))
        narrow = np.dtype(np.int32) if counts.kind == "i" and _fits_narrow(positives, negatives) else counts
        tp, fp = (_running_sums([np.diff(part[k], prepend=0).astype(narrow, copy=False) for part in own], order, last).astype(counts, copy=False)
                  for k in (1, 2))  # fmt: skip
        if tp.dtype.kind == "f":  # weighted: within rounding of 0 or of the class size is that
            tp, fp = _snapped(tp, positives, len(order)), _snapped(fp, negatives, len(order))
        return thresholds, tp, fp, positives, negatives

    def one_vs_rest(self, *, score_sum: float = 1.0) -> ThresholdCurve:
        """The curve of every class of the data: a binary curve gains the curve of its negative
        class, scored ``score_sum - score`` (by default ``1 - score``, the other column of a
        probability pair as ``predict_proba`` gives it; ``score_sum=0`` for decision values,
        ``-score``), so that both classes have their one-vs-rest numbers, as Weka's and Tribuo's
        per-class tables show them; a curve of several classes is itself.

        The negative class's curve is that of ``from_scores(1 - y, score_sum - score)``, point
        for point: at its threshold ``score_sum - t_k`` it predicts ``score <= t_k``, its true
        positives are ``N - fp_{k-1}`` and its false positives ``P - tp_{k-1}``. Its areas are
        the positive class's, except where distinct scores round to one ``1 - score`` (scores
        within about 1e-16 of 0): those tie, as in the two columns ``(1 - score, score)``
        (``score_sum=0`` turns every score round exactly). The micro average pools both
        classes' scores: with ``1 - score`` it is scikit-learn's ``average="micro"`` of the two
        columns.

        Raises:
            UnsupportedSettingError: a binned binary curve (its counts at ``score <= t`` are
                not kept), or a binary curve without its negative label.

        Examples:
            >>> curve = ThresholdCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).one_vs_rest()
            >>> curve.labels, curve.roc_auc(0) == curve.roc_auc(1), float(curve.average_precision(0))
            ((0, 1), True, 0.8333333333333333)
            >>> curve.thresholds(0).round(2).tolist()  # 1 - score
            [0.9, 0.65, 0.6, 0.2]
        """
        if not isinstance(score_sum, (int, float, np.integer, np.floating)) or isinstance(score_sum, (bool, np.bool_)) or not math.isfinite(score_sum):
            raise InvalidArgumentError(f"'score_sum' must be a finite number (1 for probabilities, 0 for decision values), got {show(score_sum)}")
        if len(self.labels) != 1 or self.negative_label is None:
            if len(self.labels) == 1:
                raise UnsupportedSettingError("this curve does not know its negative class: build it from labels (pos_label=...) to get both")
            return self
        if self.binned:
            raise UnsupportedSettingError("a binned binary curve keeps counts at score >= t only: the negative class needs the exact curve")
        thresholds, tp, fp = self._part(0)
        positives, negatives = self.positives[0], self.negatives[0]
        before_tp, before_fp = np.concatenate(([0], tp[:-1])), np.concatenate(([0], fp[:-1]))
        turned = _turned_round(thresholds[::-1], score_sum)
        last = np.ones(len(turned), dtype=bool)  # of each run of scores that round to one turned score
        last[:-1] = turned[1:] != turned[:-1]
        negative = (turned[last], (negatives - before_fp)[::-1][last], (positives - before_tp)[::-1][last], negatives, positives)
        return ThresholdCurve._assemble((self.negative_label, self.labels[0]), [negative, (thresholds, tp, fp, positives, negatives)],
                                        binned=False, metrics_class=self.metrics_class)  # fmt: skip

    def micro(self) -> ThresholdCurve:
        """One curve of every class's cells summed at every threshold (the micro average's
        curve: scikit-learn's ``average="micro"`` for one-vs-rest and multi-label scores)."""
        parts = [self._summed([(j, self) for j in range(len(self.labels))])]
        return ThresholdCurve._assemble(("micro",), parts, binned=self.binned, metrics_class=self.metrics_class)

    def merge(self, other: ThresholdCurve, *, grow: bool = False) -> ThresholdCurve:
        """The curve of both batches of scores together (also ``self + other``): counts summed
        at the union of the thresholds; binned curves need the same thresholds.

        Raises:
            LabelMismatchError: other classes, or binned curves with other thresholds.
        """
        if not isinstance(other, ThresholdCurve):
            raise InvalidTypeError(f"can only merge a ThresholdCurve, got {show(other)}")
        self._check_same_points(other, "merge")
        metrics_class = merged_metrics_class(self.metrics_class, other.metrics_class)
        negative_label = self._merged_negative_label(other)
        positives = [weighted_sum(np.array(pair), None) for pair in zip(self.positives, other.positives)]  # integer totals checked for overflow
        negatives = [weighted_sum(np.array(pair), None) for pair in zip(self.negatives, other.negatives)]
        counts = np.result_type(self._tp, other._tp)
        if counts.kind == "i" and max(*positives, *negatives) > np.iinfo(counts).max:  # narrow parts (a stream's) whose sums do not fit
            counts = np.dtype(np.int64)
        if self.binned:  # the same thresholds: the counts add up
            thresholds, tp, fp, offsets = self._thresholds, self._tp.astype(counts) + other._tp, self._fp.astype(counts) + other._fp, self._offsets
        else:
            pairs = [(self._part(j), other._part(j)) for j in range(len(self.labels))]
            thresholds, tp, fp, offsets = _union_arrays(pairs, counts)
            for (mine, theirs), start, stop in zip(pairs, offsets[:-1], offsets[1:]):
                _fill_union(mine, theirs, (thresholds[start:stop], tp[start:stop], fp[start:stop]))
        return ThresholdCurve(self.labels, exact_scores(thresholds), tp, fp, offsets, np.array(positives, dtype=tp.dtype), np.array(negatives, dtype=tp.dtype),
                              self.binned, negative_label, metrics_class)  # fmt: skip

    def _widened(self) -> ThresholdCurve:
        """This curve with whole counts held as int32 (a stream's parts, see ``_of_columns``)
        back as int64, as every curve holds them."""
        if self._tp.dtype != np.int32:
            return self
        wide = np.int64
        return attrs.evolve(self, tp=self._tp.astype(wide), fp=self._fp.astype(wide), positives=self.positives.astype(wide),
                            negatives=self.negatives.astype(wide))  # fmt: skip

    def _merged_negative_label(self, other: ThresholdCurve) -> Hashable:
        """The negative class of two binary curves merged: a batch that held positives only
        named it by default (``"not yes"``, 0), so the name of a batch that saw negatives wins."""
        if same_labels((self.negative_label,), (other.negative_label,)):
            return self.negative_label
        seen = [curve.negative_label for curve in (self, other) if len(curve.labels) == 1 and curve.negatives[0] > 0]
        if len(seen) == 1:
            return seen[0]
        if not seen and len(self.labels) == 1:
            return self.negative_label
        raise LabelMismatchError(f"cannot merge binary curves of different negative classes: {self.negative_label!r} and {other.negative_label!r}")

    _COUNT_FIELDS = frozenset({"_tp", "_fp", "positives", "negatives"})

    def __eq__(self, other: object) -> bool:
        """The same classes, thresholds and settings (``same_value``), and the same counts as
        the exact numbers they are, whatever their form (as ``ConfusionMatrix`` compares them):
        whole counts (int64, a stream's int32) equal float counts of the same values, so that
        ``scaled(2)`` of an unweighted curve is the curve of weights 2; other counts differ."""
        if type(other) is not type(self):
            return NotImplemented
        return all(_same_counts(getattr(self, field.name), getattr(other, field.name)) if field.name in self._COUNT_FIELDS
                   else same_value(getattr(self, field.name), getattr(other, field.name)) for field in attrs.fields(type(self)))  # fmt: skip

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        kind = "binned" if self.binned else "exact"
        return f"ThresholdCurve({kind}, labels={list(self.labels)!r}, thresholds={len(self._thresholds)}, samples={self.n_samples})"


def _same_counts(mine: np.ndarray, theirs: np.ndarray) -> bool:
    """Count arrays holding the same numbers: of one kind compared as they are, whole beside
    float counts each as its exact value (``equal_counts``)."""
    if mine.shape != theirs.shape:
        return False
    if mine.dtype.kind == theirs.dtype.kind:
        return bool(np.array_equal(mine, theirs))
    return equal_counts(mine, theirs)


# --------------------------------------------------------------------------------------------
# the cells at one threshold


@attrs.frozen(eq=False)
class ThresholdCells(CellsResult, ReportFace):
    """The cells of every class of a curve at one threshold: ``per_class``, ``average``
    (micro, macro, weighted), ``class_metrics`` and reports, as for an ``Evaluation``.

    The per-sample cells (``average="samples"``) need the samples themselves:
    ``Evaluation.from_scores(y_true, y_score, threshold=t)`` gives them.

    Attributes:
        labels: the classes.
        class_cells: their cells at the threshold.
        thresholds: the threshold of each class.
        n_samples: how much the samples weigh together.
        negative_label: the other class of a binary curve.
        metrics_class: the curve's metrics class.
    """

    labels: tuple
    class_cells: Cells = attrs.field(repr=False)
    thresholds: np.ndarray = attrs.field(repr=False, converter=read_only)
    n_samples: float = 0
    negative_label: Hashable = attrs.field(default=None, repr=False)
    metrics_class: MetricsClass = attrs.field(default=None, converter=check_metrics_class, repr=False)

    @property
    def sample_cells(self) -> Cells:
        """Not available: the cells at a threshold are per class."""
        raise UnsupportedSettingError(
            "the cells of a curve at a threshold are per class; per-sample cells (average='samples') "
            "need the samples: Evaluation.from_scores(y_true, y_score, threshold=t)"
        )

    def whole_measures(self) -> dict[str, float]:
        """Accuracy, Cohen's kappa and MCC of a binary curve's confusion matrix; nothing for
        one-vs-rest classes (their cells do not make one confusion matrix)."""
        return self.confusion_matrix().whole_measures() if len(self.labels) == 1 else {}

    def confusion_matrix(self) -> ConfusionMatrix:
        """The 2 x 2 confusion matrix of a binary curve, classes ``(negative, positive)``.

        Raises:
            UnsupportedSettingError: one-vs-rest classes of ``n x m`` scores.
        """
        if len(self.labels) != 1 or self.negative_label is None:
            raise UnsupportedSettingError(
                "one-vs-rest cells at a threshold make no confusion matrix across classes; "
                "use Evaluation.from_scores(..., threshold=t) or per_class/average"
            )
        tp, fp, fn, tn = (row[0] for row in self.class_cells.rows())
        return ConfusionMatrix.from_array([[tn, fp], [fn, tp]], [self.negative_label, self.labels[0]], metrics_class=self.metrics_class)

    def pair_counts(self) -> PairCounts:
        """The pair counts of a binary curve's confusion matrix."""
        return self.confusion_matrix().pair_counts()

    def __repr__(self) -> str:
        return f"ThresholdCells(labels={list(self.labels)!r}, thresholds={self.thresholds.tolist()!r}, samples={self.n_samples})"


# --------------------------------------------------------------------------------------------
# one-vs-one


def one_vs_one_roc_auc(
    y_true: LabelsLike, y_score: ScoresLike, labels: Sequence[Hashable] | None = None, *, average: str = "macro", sample_weight: ArrayLike | None = None
) -> float:
    """Hand and Till's multi-class AUC: the mean over pairs of classes ``(a, b)`` of
    ``(A(a|b) + A(b|a)) / 2``, where ``A(a|b)`` is the AUC of column ``a``'s scores separating
    the samples of class ``a`` from those of ``b`` (D. J. Hand and R. J. Till, "A Simple
    Generalisation of the Area Under the ROC Curve for Multiple Class Classification
    Problems", 2001). Pairs range over the classes present in ``y_true``.

    Args:
        y_true: one label per sample.
        y_score: ``n x m`` scores, column ``j`` for ``labels[j]``.
        labels: the column labels (default: the sorted labels of ``y_true``).
        average: ``"macro"`` (the plain mean over pairs, Hand and Till's M) or
            ``"weighted"`` (weighted by each pair's share of the samples).
        sample_weight: one finite weight >= 0 per sample (an extension: each pair's AUC and
            share are weighted).

    Examples:
        >>> one_vs_one_roc_auc([0, 1, 2, 2], [[0.8, 0.1, 0.1], [0.3, 0.4, 0.3], [0.1, 0.2, 0.7], [0.2, 0.5, 0.3]])
        0.875
    """
    check_choice("average", average, ("macro", "weighted"))
    columns = score_columns(y_true, y_score, labels, None, sample_weight)
    if columns.codes is None:
        raise UnsupportedSettingError("one-vs-one AUC needs one label per sample and n x m scores (multi-class data)")
    codes, scores, weight = columns.codes, columns.scores, columns.weight
    mass = np.ones(len(codes)) if weight is None else weight.astype(np.float64)
    present = np.flatnonzero(np.bincount(codes, weights=mass, minlength=len(columns.labels)) > 0)
    pair_values, shares = [], []
    for a, b in combinations(present.tolist(), 2):
        pair = (codes == a) | (codes == b)
        own = None if weight is None else weight[pair]
        areas = []
        for column in (a, b):
            _, tp, fp, positives, negatives = _exact_column(scores[pair, column], codes[pair] == column, own)
            areas.append(_auc(tp, fp, positives, negatives))
        pair_values.append((areas[0] + areas[1]) / 2)
        shares.append(mass[pair].sum())
    if not pair_values:
        return float("nan")
    return float(np.average(pair_values, weights=shares if average == "weighted" else None))


if not TYPE_CHECKING:  # the names this module gave in evalkit 0.1.0 and lost, found with a warning
    __getattr__ = moved_names.finder(__name__)
