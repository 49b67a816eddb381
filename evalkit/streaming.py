"""Streaming counts of multi-label data: batch by batch, labels growing, memory bounded by counts.

Every evalkit count is a sum over samples. ``LabelSetCounts`` keeps, for a stream of
label-set batches, the per-label sums ``σm`` and the distinct per-sample rows
``(|Y∩Z|, |Y|, |Z|)`` with how often each occurred, so its memory grows with the number of
labels and of distinct rows, never with the number of samples. A label first seen late is
added, not lost; ``LabelSetCounts.to_evaluation`` then orders the labels as a one-shot
``Evaluation.from_label_sets`` would (sorted, or the
order given up front), and gives the same averages.

``CurveCounts`` does the same for scores: threshold curves of batch after batch, in memory
bounded by the thresholds when they are given; ``CalibrationCounts`` the calibration of
probabilities, in memory bounded by the bins when they are given.

(Single-label streams use ``ConfusionMatrix.update``
with ``grow=True``; fixed-label batches of any kind merge with ``Evaluation + Evaluation``.)

Examples:
    >>> counts = LabelSetCounts()
    >>> counts.update([{"a"}, {"a", "b"}], [{"a"}, {"b"}])
    >>> counts.update([{"c"}], [{"a", "c"}])  # "c" first seen in the second batch
    >>> ev = counts.to_evaluation()
    >>> ev.labels, ev.n_samples, round(ev.average("f1_score", "micro"), 4)
    (('a', 'b', 'c'), 3, 0.75)
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Sequence
from typing import Any

from evalkit._labels import check_label_list, same_labels, sorted_labels
from evalkit._validation import as_array, same_value, show
from evalkit.calibration import Calibration
from evalkit.classification_metrics import ClassificationMetrics, check_metrics_class, merged_metrics_class
from evalkit.counting import as_label_set_list
from evalkit.curves import ThresholdCurve
from evalkit.evaluation import Evaluation
from evalkit.exceptions import EmptyInputError, InvalidTypeError, LabelMismatchError

__all__ = ["CalibrationCounts", "CurveCounts", "LabelSetCounts"]


class _Locked:
    """A lock that writers hold while they change the counts and readers while they read, so
    that threads may update and read one accumulator together; pickled without it."""

    _lock: threading.RLock

    def __getstate__(self) -> dict[str, Any]:
        with self._lock:
            return {name: value for name, value in vars(self).items() if name != "_lock"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        vars(self).update(state)
        self._lock = threading.RLock()


class LabelSetCounts(_Locked):
    """Multi-label counts updated batch by batch (mutable, like ConfusionMatrix).

    A thin accumulator over ``Evaluation.merge(..., grow=True)``: each batch is counted,
    compacted and merged, so memory is bounded by the labels and the distinct kinds of sample.

    Args:
        labels: fix the labels and their order up front (a label outside them is an error);
            by default labels grow as they appear and are sorted in ``to_evaluation``.
        metrics_class: the metrics class of the evaluation (see ``Evaluation``).
    """

    def __init__(self, labels: Sequence[Hashable] | None = None, *, metrics_class: type[ClassificationMetrics] | None = None) -> None:
        self._fixed = None if labels is None else check_label_list(labels)
        self._metrics_class = check_metrics_class(metrics_class)
        self._evaluation: Evaluation | None = None
        self._lock = threading.RLock()

    def _counted(self) -> Evaluation | None:
        """Everything counted so far (an immutable Evaluation), read under the lock."""
        with self._lock:
            return self._evaluation

    @property
    def labels(self) -> tuple:
        """The labels seen (or fixed) so far, in the order they were added."""
        evaluation = self._counted()
        return (self._fixed or ()) if evaluation is None else evaluation.labels

    @property
    def n_samples(self) -> int:
        """The number of samples counted (the sum of their weights, when weighted)."""
        evaluation = self._counted()
        return 0 if evaluation is None else evaluation.n_samples

    def update(self, y_true: Any, y_pred: Any, *, sample_weight: Any = None) -> None:
        """Count a batch of label sets (one collection per sample each).

        Raises:
            UnknownLabelError: with fixed labels, a label outside them; and the errors of
                ``Evaluation.from_label_sets``.
        """
        y_true, y_pred = as_label_set_list(y_true, "y_true"), as_label_set_list(y_pred, "y_pred")
        if not y_true and not y_pred:
            return  # an empty batch counts nothing
        batch = Evaluation.from_label_sets(y_true, y_pred, self._fixed, sample_weight=sample_weight, metrics_class=self._metrics_class).compact()
        with self._lock:  # counted outside, merged inside: no update is lost
            self._evaluation = batch if self._evaluation is None else self._evaluation.merge(batch, grow=self._fixed is None)

    def merge(self, other: LabelSetCounts) -> LabelSetCounts:
        """New counts of both streams (labels of ``other`` appended if they grow)."""
        if not isinstance(other, LabelSetCounts):
            raise InvalidTypeError(f"can only merge LabelSetCounts, got {show(other)}")
        if self._fixed is not None and other._fixed is not None and self._fixed != other._fixed:
            raise LabelMismatchError(f"cannot merge counts with different fixed labels: {show(list(self._fixed))} and {show(list(other._fixed))}")
        merged = LabelSetCounts(self._fixed, metrics_class=merged_metrics_class(self._metrics_class, other._metrics_class))
        parts = [counted for counted in (self._counted(), other._counted()) if counted is not None]
        if parts:
            if merged._fixed is not None and any(not same_labels(part.labels, merged._fixed) for part in parts):
                new = [label for part in parts for label in part.labels if label not in merged._fixed]
                raise LabelMismatchError(f"labels {show(new)} are not among the fixed labels {show(list(merged._fixed))}")
            merged._evaluation = (parts[0] if len(parts) == 1 else parts[0].merge(parts[1], grow=True)).with_metrics_class(merged._metrics_class)
        return merged

    def __add__(self, other: object) -> LabelSetCounts:
        if not isinstance(other, LabelSetCounts):
            return NotImplemented
        return self.merge(other)

    def to_evaluation(self) -> Evaluation:
        """The counts as a (compacted) ``Evaluation``: every average works;
        per-sample vectors do not (the sample order is not kept).

        Raises:
            EmptyInputError: nothing was counted and no labels were fixed.
        """
        evaluation = self._counted()
        if evaluation is None:
            if not self._fixed:
                raise EmptyInputError("no label sets were counted and no 'labels' were given: nothing to evaluate")
            return Evaluation.from_label_sets([], [], self._fixed, metrics_class=self._metrics_class).compact()
        labels = self._fixed if self._fixed is not None else sorted_labels(evaluation.labels, "labels")
        return evaluation.with_labels(labels).compact()

    def __eq__(self, other: object) -> bool:
        """The same counts: labels, metrics class and everything counted."""
        if type(other) is not type(self):
            return NotImplemented
        return same_value(self._fixed, other._fixed) and self._metrics_class is other._metrics_class and self._counted() == other._counted()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LabelSetCounts(labels={list(self.labels)!r}, samples={self.n_samples})"


class _ScoreCounts(_Locked):
    """Results of batches of scores merged as they come (mutable, like ConfusionMatrix): the
    shared body of ``CurveCounts`` and ``CalibrationCounts``. The first batch fixes the column
    labels of 2-D scores, or the positive class of 1-D ones, for the batches after it."""

    def __init__(self, *, labels: Sequence[Hashable] | None = None, pos_label: Any = None) -> None:
        self._labels = None if labels is None else check_label_list(labels)
        self._pos_label = pos_label
        self._parts: list[tuple[int, Any]] = []  # (batches, result), fewer batches further right
        self._lock = threading.RLock()

    @property
    def _result(self) -> Any:
        """Everything counted so far, as one result (the pending parts merged)."""
        with self._lock:
            if not self._parts:
                return None
            self._merge_parts(everything=True)
            return self._parts[0][1]

    @_result.setter
    def _result(self, result: Any) -> None:
        with self._lock:
            self._parts = [] if result is None else [(1, result)]

    def _merge_parts(self, *, everything: bool = False) -> None:
        """Merge the rightmost parts: all of them, or (as a binary counter does) while the one
        before holds no more batches than the last, so that every sample is merged about
        log2(batches) times, not once for every batch after it."""
        while len(self._parts) > 1 and (everything or self._parts[-2][0] <= self._parts[-1][0]):
            right = self._parts.pop()
            batches, left = self._parts.pop()
            self._parts.append((batches + right[0], left.merge(right[1])))

    def _count(self, y_true: Any, y_score: Any, labels: tuple | None, pos_label: Any, sample_weight: Any) -> Any:
        raise NotImplementedError

    def _columns_of(self, batch: Any) -> tuple:
        return batch.labels

    def _copy(self) -> Any:
        raise NotImplementedError

    def update(self, y_true: Any, y_score: Any, *, sample_weight: Any = None) -> None:
        """Count a batch (the arguments of the result's ``from_scores``).

        Raises:
            LabelMismatchError: a batch whose classes differ from the first batch's.
        """
        two_dimensional = as_array(y_score, "y_score").ndim == 2
        batch = self._count(y_true, y_score, self._labels if two_dimensional else None, None if two_dimensional else self._pos_label, sample_weight)
        with self._lock:  # counted outside, merged inside: no update is lost
            if not self._parts:
                if two_dimensional:
                    self._labels = self._columns_of(batch)
                else:
                    self._pos_label = batch.labels[0]
            self._parts.append((1, batch))
            self._merge_parts()

    def _merged(self, other: Any) -> Any:
        if type(other) is not type(self):
            raise InvalidTypeError(f"can only merge {type(self).__name__}, got {show(other)}")
        merged = self._copy()
        merged._labels, merged._pos_label = self._labels or other._labels, self._pos_label
        parts = [part._result for part in (self, other) if part._result is not None]
        merged._result = parts[0].merge(parts[1]) if len(parts) == 2 else (parts[0] if parts else None)
        return merged

    def _read(self) -> Any:
        if self._result is None:
            raise EmptyInputError("no scores were counted: nothing to read")
        return self._result

    def __add__(self, other: object) -> Any:
        if type(other) is not type(self):
            return NotImplemented
        return self.merge(other)  # type: ignore[attr-defined]

    def __eq__(self, other: object) -> bool:
        """The same counts: settings, classes and everything counted (however batched)."""
        if type(other) is not type(self):
            return NotImplemented
        settings = [name for name in vars(self) if name not in ("_parts", "_lock")]
        return all(same_value(getattr(self, name), getattr(other, name)) or getattr(self, name) is getattr(other, name) for name in settings) and (
            self._result == other._result)  # fmt: skip

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._result!r})"


class CurveCounts(_ScoreCounts):
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

    def __init__(
        self, *, thresholds: Any = None, labels: Sequence[Hashable] | None = None, pos_label: Any = None,
        metrics_class: type[ClassificationMetrics] | None = None,
    ) -> None:  # fmt: skip
        super().__init__(labels=labels, pos_label=pos_label)
        self._metrics_class = check_metrics_class(metrics_class)
        self._thresholds = thresholds

    def _count(self, y_true: Any, y_score: Any, labels: tuple | None, pos_label: Any, sample_weight: Any) -> ThresholdCurve:
        return ThresholdCurve.from_scores(y_true, y_score, labels, pos_label=pos_label, sample_weight=sample_weight, thresholds=self._thresholds,
                                          metrics_class=self._metrics_class)  # fmt: skip

    def _copy(self) -> CurveCounts:
        return CurveCounts(thresholds=self._thresholds, metrics_class=self._metrics_class)

    def curve(self) -> ThresholdCurve:
        """The curve of everything counted so far.

        Raises:
            EmptyInputError: nothing was counted.
        """
        return self._read()

    def merge(self, other: CurveCounts) -> CurveCounts:
        """New counts of both streams."""
        merged = self._merged(other)
        merged._metrics_class = merged_metrics_class(self._metrics_class, other._metrics_class)
        if merged._result is not None:
            merged._result = merged._result.with_metrics_class(merged._metrics_class)
        return merged


class CalibrationCounts(_ScoreCounts):
    """A calibration counted batch by batch (mutable): a thin accumulator over
    ``Calibration.merge``. With ``bins`` memory is O(bins x columns) however long the stream;
    without, the counts are exact and grow with the distinct scores seen.

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
    """

    def __init__(self, *, bins: int | None = None, setting: str | None = None, labels: Sequence[Hashable] | None = None,
                 pos_label: Any = None) -> None:  # fmt: skip
        super().__init__(labels=labels, pos_label=pos_label)
        self._bins, self._setting = bins, setting

    def _count(self, y_true: Any, y_score: Any, labels: tuple | None, pos_label: Any, sample_weight: Any) -> Calibration:
        return Calibration.from_scores(y_true, y_score, labels, pos_label=pos_label, setting=self._setting, sample_weight=sample_weight, bins=self._bins)

    def _columns_of(self, batch: Calibration) -> tuple:
        return batch.classes

    def _copy(self) -> CalibrationCounts:
        return CalibrationCounts(bins=self._bins, setting=self._setting)

    def calibration(self) -> Calibration:
        """The calibration of everything counted so far.

        Raises:
            EmptyInputError: nothing was counted.
        """
        return self._read()

    def merge(self, other: CalibrationCounts) -> CalibrationCounts:
        """New counts of both streams (one that counted nothing adds nothing)."""
        return self._merged(other)
