"""Streaming counts of multi-label data: batch by batch, labels growing, memory bounded by counts.

Every evalkit count is a sum over samples. ``LabelSetCounts`` keeps, for a stream of
label-set batches, the per-label sums ``σm`` and the distinct per-sample rows
``(|Y∩Z|, |Y|, |Z|)`` with how often each occurred, so its memory grows with the number of
labels and of distinct rows, never with the number of samples. A label first seen late is
added, not lost; ``LabelSetCounts.to_evaluation`` then orders the labels as a one-shot
``Evaluation.from_label_sets`` would (sorted, or the
order given up front), and gives the same averages.

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

from collections import Counter
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from evalkit._labels import check_label_list, check_same_kind, sorted_labels
from evalkit._validation import show
from evalkit.cells import Cells
from evalkit.counting import encode_label_sets
from evalkit.evaluation import Evaluation
from evalkit.exceptions import InvalidTypeError, LabelMismatchError

__all__ = ["LabelSetCounts"]


class LabelSetCounts:
    """Multi-label counts updated batch by batch (mutable, like ConfusionMatrix).

    Args:
        labels: fix the labels and their order up front (a label outside them is an error);
            by default labels grow as they appear and are sorted in ``to_evaluation``.
    """

    def __init__(self, labels: Sequence[Hashable] | None = None) -> None:
        self._fixed = labels is not None
        self._labels: list = list(check_label_list(labels)) if labels is not None else []
        self._index = {label: position for position, label in enumerate(self._labels)}
        self._sums = np.zeros((3, len(self._labels)), dtype=np.int64)  # σm of A∘P, A, P
        self._rows: Counter = Counter()  # (|Y∩Z|, |Y|, |Z|) -> samples
        self._n = 0

    @property
    def labels(self) -> tuple:
        """The labels seen (or fixed) so far, in the order they were added."""
        return tuple(self._labels)

    @property
    def n_samples(self) -> int:
        """The number of samples counted."""
        return self._n

    def update(self, actual: Any, predicted: Any) -> None:
        """Count a batch of label sets (one collection per sample each).

        Raises:
            UnknownLabelError: with fixed labels, a label outside them; and the errors of
                ``Evaluation.from_label_sets``.
        """
        actual, predicted = list(actual), list(predicted)
        if not actual and not predicted:
            return  # an empty batch counts nothing
        keys_actual, keys_predicted, found, n = encode_label_sets(actual, predicted, self._labels if self._fixed else None)
        if not self._fixed:
            new = [label for label in found if label not in self._index]
            if new:
                check_same_kind(("labels", label) for label in (*self._labels[:1], *new))
                self._labels.extend(new)
                self._index.update({label: len(self._index) + k for k, label in enumerate(new)})
                self._sums = np.pad(self._sums, ((0, 0), (0, len(new))))
        m = len(found)
        positions = np.array([self._index[label] for label in found], dtype=np.intp)
        both = np.intersect1d(keys_actual, keys_predicted, assume_unique=True)
        for row, keys in enumerate((both, keys_actual, keys_predicted)):
            np.add.at(self._sums[row], positions, np.bincount(keys % m, minlength=m) if m else np.zeros(0, np.int64))
        per_sample = np.stack([np.bincount(keys // max(m, 1), minlength=n) for keys in (both, keys_actual, keys_predicted)], axis=1)
        rows, counts = np.unique(per_sample, axis=0, return_counts=True) if n else (np.zeros((0, 3), int), [])
        self._rows.update({tuple(row): int(count) for row, count in zip(rows.tolist(), np.asarray(counts).tolist())})
        self._n += n

    def merge(self, other: LabelSetCounts) -> LabelSetCounts:
        """New counts of both streams (labels of ``other`` appended if they grow)."""
        if not isinstance(other, LabelSetCounts):
            raise InvalidTypeError(f"can only merge LabelSetCounts, got {show(other)}")
        if self._fixed and other._fixed and self._labels != other._labels:
            raise LabelMismatchError(f"cannot merge counts with different fixed labels: {show(self._labels)} and {show(other._labels)}")
        merged = LabelSetCounts(self._labels if self._fixed else None)
        for source in (self, other):
            new = [label for label in source._labels if label not in merged._index]
            if new and merged._fixed:
                raise LabelMismatchError(f"labels {show(new)} are not among the fixed labels {show(merged._labels)}")
            merged._labels.extend(new)
            merged._index.update({label: len(merged._index) + k for k, label in enumerate(new)})
            merged._sums = np.pad(merged._sums, ((0, 0), (0, len(new))))
            merged._sums[:, [merged._index[label] for label in source._labels]] += source._sums
            merged._rows.update(source._rows)
            merged._n += source._n
        return merged

    def __add__(self, other: object) -> LabelSetCounts:
        if not isinstance(other, LabelSetCounts):
            return NotImplemented
        return self.merge(other)

    def to_evaluation(self) -> Evaluation:
        """The counts as a (compacted) ``Evaluation``: every average works;
        per-sample vectors do not (the sample order is not kept)."""
        labels = self._labels if self._fixed else list(sorted_labels(self._labels, "labels"))
        order = [self._index[label] for label in labels]
        both, actual, predicted = self._sums[:, order]
        rows = np.array(sorted(self._rows), dtype=np.int64).reshape(-1, 3)
        weights = np.array([self._rows[tuple(row)] for row in rows.tolist()], dtype=np.int64)
        m = len(labels)
        evaluation = Evaluation(
            tuple(labels),
            Cells.from_sums(both, actual, predicted, self._n),
            Cells.from_sums(rows[:, 0], rows[:, 1], rows[:, 2], m),
            sample_weights=weights,
        )
        return evaluation.compact()  # the canonical row order of compacted evaluations

    def __repr__(self) -> str:
        return f"LabelSetCounts(labels={self._labels!r}, samples={self._n})"
