"""Counting into a matrix in place: the mutators users count into (Deep Netts' ``inc``, River's
``update`` and ``revert`` of one sample, a batch by labels or by class indexes), each under the
matrix's lock. ``ConfusionMatrix`` is the counts with these and its getters."""

from __future__ import annotations

import collections
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, cast

from numpy.typing import ArrayLike

from evalkit._engine._types import LabelsLike
from evalkit._engine._validation import check_index, is_empty, show
from evalkit._engine.counting import checked_index_counts, checked_indexes, encode, pair_table
from evalkit._results.counted import FEW_SAMPLES
from evalkit._results.matrix_counts import MatrixCounts, few_samples
from evalkit.exceptions import InvalidCountsError

if TYPE_CHECKING:
    from typing_extensions import Self  # typing.Self of Python 3.11, for type checkers only

__all__ = ["MatrixUpdates"]


class MatrixUpdates(MatrixCounts):
    """The in-place counting of a ``ConfusionMatrix`` (see the module)."""

    __slots__ = ()

    if TYPE_CHECKING:  # what ConfusionMatrix, which mixes this in, has
        def counted(self, *batch: Any, sample_weight: ArrayLike | None = None, **columns: Any) -> Self: ...

        def __isub__(self, other: object) -> Self: ...

    def inc(self, actual_idx: int, predicted_idx: int) -> None:
        """Add one sample of actual class ``actual_idx`` predicted as ``predicted_idx``.

        Raises:
            ClassIndexError: an index outside ``0 .. m-1`` (negative indexes never wrap).
            CountOverflowError: the total would pass 2**63 - 1.
        """
        with self._lock:
            m = len(self._labels)
            self._count_cells([(check_index("actual_idx", actual_idx, m), check_index("predicted_idx", predicted_idx, m))], 1)

    def update_one(self, actual: Hashable, predicted: Hashable) -> None:
        """Add one sample by its labels: what a stream does at every event (River's ``update``
        of one sample; ``inc`` takes class indexes, as Deep Netts does). The same as
        ``update([actual], [predicted])``, with no batch to look at.

        Raises:
            UnknownLabelError: a label this matrix does not have.
            CountOverflowError: the total would pass 2**63 - 1.

        Examples:
            >>> from evalkit import ConfusionMatrix
            >>> cm = ConfusionMatrix(["cat", "dog"])
            >>> cm.update_one("dog", "cat")
            >>> cm.to_array().tolist()
            [[0, 0], [1, 0]]
        """
        cell = self._event_cell(actual, predicted)
        if cell is None:
            self.update(cast(Any, [actual]), cast(Any, [predicted]))  # the general path says which label is unknown, or counts a label the lookup could not
            return
        lock = self._lock
        lock.acquire()  # (not `with`: half the cost, on every event of a stream)
        try:
            self._count_cell(cell[0], cell[1], 1)
        finally:
            lock.release()

    def _event_cell(self, actual: Hashable, predicted: Hashable) -> tuple[int, int] | None:
        """The cell of one sample of labels this matrix has, or None (a window of one-sample
        events finds it once, and counts it in and out with ``_count_event``)."""
        index, labels = self._index, self._labels
        try:  # position_of twice, inline: the lookup of every event of a stream
            row, column = index.get(actual), index.get(predicted)
        except TypeError:  # an unhashable label: the general path names it
            return None
        if row is None or column is None:
            return None
        if type(labels[row]) is type(actual) and type(labels[column]) is type(predicted):
            return row, column
        row, column = self._position(actual), self._position(predicted)  # a label equal to one of another type (1 and True, np.int64 and int)
        return None if row is None or column is None else (row, column)

    def _count_event(self, cell: tuple[int, int], amount: float, leaving: tuple[int, int] | None = None) -> bool:
        """Add ``amount`` (1, or -1 for a sample this matrix counted; a weight > 0 to float
        counts) to one cell, and take one sample of the cell ``leaving`` away (a full window's
        oldest, as the new one comes: one change of the counts); False, and nothing changed,
        for a float amount to integer counts."""
        with self._lock:
            if type(amount) is not int and self._counts.dtype.kind != "f":
                return False
            self._count_cell(cell[0], cell[1], amount)
            if leaving is not None:
                self._count_cell(leaving[0], leaving[1], -1)
            return True

    def update(self, y_true: LabelsLike, y_pred: LabelsLike, *, grow: bool = False, sample_weight: ArrayLike | None = None) -> None:
        """Add a batch of actual and predicted labels.

        The batch is validated and counted before anything is added, so a bad batch changes
        nothing; several threads may update (and ``inc``, ``+=``) one matrix at once.

        Args:
            y_true: actual labels.
            y_pred: predicted labels.
            grow: with False (the default) every label must be one of ``labels`` (unless the
                matrix was made without labels); with True, labels the matrix does not have
                yet are appended (sorted among themselves), so a stream can start before
                every label has been seen.
            sample_weight: one finite weight >= 0 per sample; float weights turn the counts
                into floats.

        Raises:
            UnknownLabelError: a label this matrix does not have (``grow=False``); and the
                errors of ``from_predictions``.
            CountOverflowError: the total would pass 2**63 - 1.

        Examples:
            >>> from evalkit import ConfusionMatrix
            >>> cm = ConfusionMatrix(["a"])
            >>> cm.update(["a", "c"], ["b", "c"], grow=True)
            >>> cm.labels, cm.to_array().tolist()
            (('a', 'b', 'c'), [[0, 1, 0], [0, 0, 0], [0, 0, 1]])
        """
        if few_samples(y_true, y_pred, sample_weight):
            cells = self._known_cells(y_true, y_pred)
            if cells is not None:  # a few samples of labels this matrix has: their cells, no encoding
                with self._lock:
                    self._count_cells(cells, 1)
                return
        if is_empty(y_true) and is_empty(y_pred):
            encode(y_true, y_pred, self._labels, sample_weight=sample_weight)  # an empty batch: checked, nothing added
            return
        actual, predicted, found, weight = encode(y_true, y_pred, sample_weight=sample_weight)  # the batch's own labels: no look at every class
        if not (grow or self._grows):
            self._check_known(found)
        if len(actual) * 8 >= len(found) ** 2:  # a batch as large as the table: one bincount over its cells
            batch = pair_table(actual * len(found) + predicted, weight, len(found) ** 2).reshape(len(found), len(found))
            self._add(batch, found)
        else:  # a few samples: their cells only, not a table of every class pair
            self._add_pairs(actual, predicted, weight, found)

    def revert(self, y_true: LabelsLike, y_pred: LabelsLike, *, sample_weight: ArrayLike | None = None) -> None:
        """Take away samples counted before (River's ``revert``), in place: a few unweighted
        samples cell by cell in O(1) each (a sliding window's oldest sample), any other batch as
        the part it counts (``self -= self.counted(...)``).

        Raises:
            InvalidCountsError: a sample this matrix never counted (a count would be negative);
                nothing is taken away then.
            UnknownLabelError: a label this matrix does not have.

        Examples:
            >>> from evalkit import ConfusionMatrix
            >>> cm = ConfusionMatrix.from_predictions(["a", "b", "b"], ["a", "b", "a"])
            >>> cm.revert(["b"], ["a"])
            >>> cm.to_array().tolist()
            [[1, 0], [0, 1]]
        """
        if few_samples(y_true, y_pred, sample_weight) and self._counts.dtype.kind != "f":  # (float counts: through their exact sums, below)
            cells = self._known_cells(y_true, y_pred)
            if cells is not None:
                with self._lock:
                    counts = self._counts
                    needed = {cells[0]: 1} if len(cells) == 1 else collections.Counter(cells)
                    short = [cell for cell, amount in needed.items() if counts[cell] < amount]
                    if short:
                        pairs = [(self._labels[row], self._labels[column]) for row, column in short]
                        raise InvalidCountsError(f"cannot take away samples that were never counted: (actual, predicted) {show(pairs)} would be negative")
                    self._count_cells(cells, -1)
                return
        self.__isub__(self.counted(y_true, y_pred, sample_weight=sample_weight))

    def update_indices(self, y_true_idx: Any, y_pred_idx: Any, *, sample_weight: ArrayLike | None = None) -> None:
        """Add a batch of samples given by class index (``0 .. m-1``, as a training loop holds
        them): the integer path, with no label lookup. Validated and counted before anything
        is added; safe beside other threads' updates.

        Raises:
            ClassIndexError: an index outside ``0 .. m-1`` (the first, with its position).
            InvalidTypeError: indexes that are not integers.
            InputLengthError, InputShapeError: not two 1-D inputs of one length.

        Examples:
            >>> from evalkit import ConfusionMatrix
            >>> cm = ConfusionMatrix(["cat", "dog"])
            >>> cm.update_indices([0, 1, 1], [0, 0, 1])
            >>> cm.to_array().tolist()
            [[1, 0], [1, 1]]
        """
        labels = self._labels  # labels only ever grow at the end: indexes into this tuple stay valid
        cells = self._index_cells(y_true_idx, y_pred_idx) if few_samples(y_true_idx, y_pred_idx, sample_weight) else None
        if cells is None:
            actual, predicted, weight = checked_indexes(y_true_idx, y_pred_idx, len(labels), sample_weight=sample_weight)
            if weight is None and 0 < len(actual) <= FEW_SAMPLES:  # one event as arrays: its cells, checked
                cells = list(zip(actual.tolist(), predicted.tolist()))
        if cells is not None:  # a few samples: their cells, as inc counts them
            with self._lock:
                self._count_cells(cells, 1)
            return
        if len(actual) * 8 < len(labels) ** 2:  # a few samples: their cells only, never a table of every class pair
            self._add_pairs(actual, predicted, weight, labels)
            return
        batch = checked_index_counts(actual, predicted, weight, len(labels))
        self._add(batch, labels, None if sample_weight is not None else len(actual))


