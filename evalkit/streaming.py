"""Streaming counts of multi-label data: batch by batch, labels growing, memory bounded by counts.

Every evalkit count is a sum over samples. ``LabelSetCounts`` keeps, for a stream of
label-set batches, the per-label sums ``σm`` and the distinct per-sample rows
``(|Y∩Z|, |Y|, |Z|)`` with how often each occurred, so its memory grows with the number of
labels and of distinct rows, never with the number of samples. A label first seen late is
added, not lost; ``LabelSetCounts.to_evaluation`` then orders the labels as a one-shot
``Evaluation.from_label_sets`` would (sorted, or the
order given up front), and gives the same averages.

``CurveCounts`` does the same for scores: threshold curves of batch after batch, in memory
bounded by the thresholds when they are given.

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

from collections.abc import Hashable, Sequence
from typing import Any

from evalkit._labels import check_label_list, same_labels, sorted_labels
from evalkit._validation import as_array, show
from evalkit.classification_metrics import ClassificationMetrics, check_metrics_class, merged_metrics_class
from evalkit.counting import as_label_set_list
from evalkit.curves import ThresholdCurve
from evalkit.evaluation import Evaluation
from evalkit.exceptions import EmptyInputError, InvalidTypeError, LabelMismatchError

__all__ = ["CurveCounts", "LabelSetCounts"]


class LabelSetCounts:
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

    @property
    def labels(self) -> tuple:
        """The labels seen (or fixed) so far, in the order they were added."""
        if self._evaluation is None:
            return self._fixed or ()
        return self._evaluation.labels

    @property
    def n_samples(self) -> int:
        """The number of samples counted (the sum of their weights, when weighted)."""
        return 0 if self._evaluation is None else self._evaluation.n_samples

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
        self._evaluation = batch if self._evaluation is None else self._evaluation.merge(batch, grow=self._fixed is None)

    def merge(self, other: LabelSetCounts) -> LabelSetCounts:
        """New counts of both streams (labels of ``other`` appended if they grow)."""
        if not isinstance(other, LabelSetCounts):
            raise InvalidTypeError(f"can only merge LabelSetCounts, got {show(other)}")
        if self._fixed is not None and other._fixed is not None and self._fixed != other._fixed:
            raise LabelMismatchError(f"cannot merge counts with different fixed labels: {show(list(self._fixed))} and {show(list(other._fixed))}")
        merged = LabelSetCounts(self._fixed, metrics_class=merged_metrics_class(self._metrics_class, other._metrics_class))
        parts = [part._evaluation for part in (self, other) if part._evaluation is not None]
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
        if self._evaluation is None:
            if not self._fixed:
                raise EmptyInputError("no label sets were counted and no 'labels' were given: nothing to evaluate")
            return Evaluation.from_label_sets([], [], self._fixed, metrics_class=self._metrics_class).compact()
        labels = self._fixed if self._fixed is not None else sorted_labels(self._evaluation.labels, "labels")
        return self._evaluation.with_labels(labels).compact()

    def __repr__(self) -> str:
        return f"LabelSetCounts(labels={list(self.labels)!r}, samples={self.n_samples})"


class CurveCounts:
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
        self._metrics_class = check_metrics_class(metrics_class)
        self._thresholds = thresholds
        self._labels = None if labels is None else check_label_list(labels)
        self._pos_label = pos_label
        self._curve: ThresholdCurve | None = None

    def update(self, y_true: Any, y_score: Any, *, sample_weight: Any = None) -> None:
        """Count a batch of scores (the arguments of ``ThresholdCurve.from_scores``).

        Raises:
            LabelMismatchError: a batch whose classes differ from the first batch's.
        """
        two_dimensional = as_array(y_score, "y_score").ndim == 2
        batch = ThresholdCurve.from_scores(
            y_true, y_score, self._labels if two_dimensional else None, pos_label=None if two_dimensional else self._pos_label,
            sample_weight=sample_weight, thresholds=self._thresholds, metrics_class=self._metrics_class,
        )  # fmt: skip
        if self._curve is None:
            if two_dimensional:
                self._labels = batch.labels
            else:
                self._pos_label = batch.labels[0]
        self._curve = batch if self._curve is None else self._curve.merge(batch)

    def curve(self) -> ThresholdCurve:
        """The curve of everything counted so far.

        Raises:
            EmptyInputError: nothing was counted.
        """
        if self._curve is None:
            raise EmptyInputError("no scores were counted: nothing to read")
        return self._curve

    def merge(self, other: CurveCounts) -> CurveCounts:
        """New counts of both streams."""
        if not isinstance(other, CurveCounts):
            raise InvalidTypeError(f"can only merge CurveCounts, got {show(other)}")
        merged = CurveCounts(thresholds=self._thresholds, labels=self._labels or other._labels, pos_label=self._pos_label,
                             metrics_class=merged_metrics_class(self._metrics_class, other._metrics_class))  # fmt: skip
        parts = [part._curve for part in (self, other) if part._curve is not None]
        curve = parts[0].merge(parts[1]) if len(parts) == 2 else (parts[0] if parts else None)
        merged._curve = None if curve is None else curve.with_metrics_class(merged._metrics_class)
        return merged

    def __add__(self, other: object) -> CurveCounts:
        if not isinstance(other, CurveCounts):
            return NotImplemented
        return self.merge(other)

    def __repr__(self) -> str:
        return f"CurveCounts({self._curve!r})"
