"""The counts of a ``ConfusionMatrix`` as they change: a table that grows, an exact total, a
lock, and a stream's tally.

Every change of the counts lands here, in one of three ways, all under the matrix's lock:

* ``_count_cells``: a few samples, one cell each, +1 or -1 (``inc``, ``update_one``, a few
  samples' ``update``, ``update_indices`` and ``revert``): what one event of a stream costs;
* ``_add_pairs``: samples given as codes, only the cells they fall in;
* ``_add``: a table of counts over some labels (a batch as large as the table, ``+=``).

Weighted (float) counts are kept exact as well: each cell is its float (the count correctly
rounded: what every read uses) plus a float ``_low`` of what that rounding left (None while
every sum is exact: weights of 0.5, 1, 2, ...), summed as two floats each, in numpy
(``evalkit._engine._exact.exact_cells``); the few cells whose rest is no float (weights of very
different sizes) keep their exact sums in ``_exact`` (Python integers in units of
``2**-1126``, by the cell's key ``row << 32 | column``). Adding and taking away parts never
rounds, and ``(a + b) - a`` is ``b`` whatever the sizes of the weights.

Each keeps the total exact (Python integers, never wrapped past 2**63 - 1) and ends in
``_tally_after``, the one rule for the stream's running sums (``evalkit._results.tally``): a
change of a few cells keeps the tally current (or starts it), so reads after any one-event
update are O(1); a table of changes (a batch, ``+=``) adds its margins to a tally at once, and
without one a change as large as the table starts none (the next small change does); weighted
(float) counts keep none.

A base of ``ConfusionMatrix`` (``evalkit._results.confusion_matrix``): it holds the matrix's state.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, ClassVar, cast

import numpy as np

from evalkit._engine._exact import (
    EXACT_FLOAT_SUM,
    MAX_COUNT,
    check_count_total,
    double_sum,
    exact_bincount,
    exact_cells,
    float_units,
    rounded_number,
    split_exact,
    weighted_bincount,
    weighted_sum,
)
from evalkit._engine._labels import check_label_list, check_same_family, describe, position_of
from evalkit._engine._types import LabelsLike
from evalkit._engine._validation import show
from evalkit._results.counted import FEW_SAMPLES
from evalkit._results.tally import Tally, few_cells
from evalkit.exceptions import CountOverflowError, UnknownLabelError

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from evalkit.measures._metrics_class import MetricsClass

__all__ = ["MatrixCounts", "cells_of", "few_samples"]


_FLOAT_MAX = float(np.finfo(np.float64).max)


def _float_total(counts: np.ndarray) -> float:
    """The sum of float counts, correctly rounded (``math.fsum``).

    Raises:
        CountOverflowError: a sum beyond what a float64 holds.
    """
    try:
        return float(check_count_total(math.fsum(counts.ravel().tolist())))
    except OverflowError:
        raise CountOverflowError("the counts sum beyond what a float64 holds") from None


def cells_of(table: np.ndarray, exact: dict[int, int] | None) -> tuple[np.ndarray, np.ndarray]:
    """The rows and columns of a table's non-zero counts (and of those it keeps exact sums of)."""
    rows, columns = np.nonzero(table)
    if exact:
        keys = np.union1d(rows.astype(np.int64) << 32 | columns, np.fromiter(exact, dtype=np.int64, count=len(exact)))
        rows, columns = keys >> 32, keys & 0xFFFFFFFF
    return rows, columns


def float_cells(sums: np.ndarray) -> tuple[np.ndarray, np.ndarray | None, dict[int, int]]:
    """A table of exact sums (float weights counted: an object array, ``split_exact``) as a
    matrix keeps float counts: each correctly rounded, the rests, and the exact sums whose rest
    is no float by cell key (``row << 32 | column``)."""
    counts, low, exact = split_exact(sums)
    width = sums.shape[1]
    return counts, low, {(spot // width) << 32 | spot % width: number for spot, number in exact.items()}


def few_samples(y_true: object, y_pred: object, sample_weight: ArrayLike | None) -> bool:
    """Whether a batch is a few unweighted samples in lists or tuples: one event of a stream,
    counted sample by sample with no encoding."""
    return (sample_weight is None and isinstance(y_true, (list, tuple)) and isinstance(y_pred, (list, tuple))
            and 0 < len(y_true) == len(y_pred) <= FEW_SAMPLES)  # fmt: skip


class MatrixCounts:
    """The changing counts of a matrix (see the module)."""

    __slots__ = ("_buffer", "_counts", "_exact", "_grows", "_index", "_labels", "_lock", "_low", "_metrics_class", "_tally", "_total")
    _buffer: np.ndarray
    _counts: np.ndarray
    _exact: dict[int, int]
    _low: np.ndarray | None
    _grows: bool
    _index: dict[Hashable, int]
    _labels: tuple
    _lock: threading.RLock
    _metrics_class: MetricsClass
    _tally: Tally | None
    _total: int | float | None

    if TYPE_CHECKING:  # what ConfusionMatrix, which mixes this in, has
        max_cells: ClassVar[int]

        @classmethod
        def check_size(cls, m: int) -> None: ...

    def _set(self, counts: np.ndarray, labels: tuple, metrics_class: MetricsClass, low: np.ndarray | None = None, exact: dict[int, int] | None = None,
             grows: bool = False) -> None:  # fmt: skip
        """The state of ``counts`` (float counts: ``low``, what their rounding left, and
        ``exact``, the exact sums of the cells whose rest is no float); ``grows``: labels new to
        the matrix join it as they come."""
        if counts.dtype.kind == "O":  # float weights counted: their exact sums
            counts, low, exact = float_cells(counts)
        floats = counts.dtype.kind == "f"
        self._grows = grows
        self._buffer = counts  # room for labels to come: the counts are its top-left corner
        self._counts = counts
        self._low = low if floats and low is not None and low.any() else None  # the rest of each float count (None: none)
        self._exact = exact if floats and exact else {}  # cell key -> the exact sum of a float count whose rest is no float
        self._labels = labels
        self._metrics_class = metrics_class
        self._index = {label: position for position, label in enumerate(labels)}
        self._total = None  # summed when first needed (exact; see get_total_items)
        self._tally = None  # the running margins of a stream of one-sample changes (evalkit._results.tally)
        self._lock = threading.RLock()  # writers hold it while they change the counts, readers while they read

    def _snapshot(self) -> tuple[np.ndarray, tuple]:
        """A consistent copy of the counts and labels, read under the lock."""
        with self._lock:
            return self._counts.copy(), self._labels

    def _exact_snapshot(self) -> tuple[np.ndarray, np.ndarray | None, dict[int, int], tuple]:
        """A consistent copy of the counts, the rests of float counts and the exact sums of the
        cells whose rest is no float, and the labels, read under the lock."""
        with self._lock:
            return self._counts.copy(), None if self._low is None else self._low.copy(), dict(self._exact), self._labels

    def _current_total(self) -> int | float:
        """The total, summed once (the caller holds the lock): exact, correctly rounded."""
        if self._total is None:
            counts = self._counts
            if counts.dtype.kind != "f":
                self._total = weighted_sum(counts, None)
            elif self._low is None and not self._exact:
                self._total = _float_total(counts)
            else:  # the floats' exact sum with their rests, and what the cells whose rest is no float add
                floats = counts.ravel() if self._low is None else np.concatenate((counts.ravel(), self._low.ravel()))
                rest = sum(number - float_units(float(counts[key >> 32, key & 0xFFFFFFFF])) for key, number in self._exact.items())
                self._total = check_count_total(rounded_number(int(exact_bincount(np.zeros(floats.size, dtype=np.intp), floats, 1)[0]) + rest))
        return self._total

    # ----------------------------------------------------------------------------------------
    # labels

    def _position(self, label: object) -> int | None:
        """The index of ``label`` if it is a label of this matrix (``True`` is not the class
        ``1``, nor ``"1"`` the class ``1``), else None (an unhashable label too)."""
        return position_of(label, self._index, self._labels)

    def _known_cells(self, y_true: LabelsLike, y_pred: LabelsLike) -> list[tuple[int, int]] | None:
        """The cells of a few samples (lists) whose labels are all labels of this matrix, or
        None: the general path then says what is wrong, if anything."""
        assert isinstance(y_true, (list, tuple)) and isinstance(y_pred, (list, tuple))
        if len(y_true) == 1:  # one event of a stream
            row, column = self._position(y_true[0]), self._position(y_pred[0])
            return None if row is None or column is None else [(row, column)]
        cells = []
        for actual, predicted in zip(y_true, y_pred):
            row, column = self._position(actual), self._position(predicted)
            if row is None or column is None:
                return None
            cells.append((row, column))
        return cells

    def _index_cells(self, y_true_idx: Sequence[object], y_pred_idx: Sequence[object]) -> list[tuple[int, int]] | None:
        """The cells of a few samples given by class index, if every index is a plain int in
        range, else None (the general path checks them and says what is wrong)."""
        m = len(self._labels)
        cells = [(row, column) for row, column in zip(y_true_idx, y_pred_idx)
                 if type(row) is int and type(column) is int and 0 <= row < m and 0 <= column < m]  # fmt: skip
        return cells if len(cells) == len(y_true_idx) else None

    def _check_known(self, found: tuple) -> None:
        """Every label of a batch is a label of this matrix."""
        labels = self._labels
        for label in found:
            if self._position(label) is None:
                raise UnknownLabelError(f"y_true/y_pred hold {describe(label)}, which is not a label of this matrix {show(list(labels))}: "
                                        "pass grow=True to add labels")  # fmt: skip

    def _grown(self, found: tuple, floats: bool) -> np.ndarray:
        """The positions of ``found`` among the labels, new labels appended (the caller holds
        the lock). The counts live in the corner of a buffer that doubles when full, so a
        stream adding one label per batch copies the table a logarithmic number of times."""
        index = self._index
        new = [] if found is self._labels else [label for label in found if self._position(label) is None]
        if new:
            checked = check_label_list(new)  # the new labels alone: the old ones were checked when they came
            check_same_family(checked, self._labels[:1], ("new labels", "this matrix"))  # one type family: no 1 next to "1"
            labels = (*self._labels, *checked)
            self.check_size(len(labels))
            m = len(labels)
            if m > len(self._buffer):
                size = min(max(m, 2 * len(self._buffer)), max(m, math.isqrt(self.max_cells)))
                buffer = np.zeros((size, size), dtype=self._buffer.dtype)
                buffer[: len(self._counts), : len(self._counts)] = self._counts
                self._buffer = buffer
            if self._low is not None:
                low = np.zeros((m, m))
                low[: len(self._low), : len(self._low)] = self._low
                self._low = low
            index.update((label, position) for position, label in enumerate(checked, len(self._labels)))  # in place: readers wait on the lock
            self._labels = labels
            self._counts = self._buffer[:m, :m]
        if floats and self._buffer.dtype.kind != "f":
            whole = self._counts
            self._buffer = self._buffer.astype(np.float64)
            self._counts = self._buffer[: len(self._labels), : len(self._labels)]
            for row, column in zip(*(cells.tolist() for cells in np.nonzero(whole >= EXACT_FLOAT_SUM))):  # whole counts no float holds: their rests kept
                self._lows()[row, column] = int(whole[row, column]) - int(self._counts[row, column])  # (a few units: one float)
        if found == self._labels:
            return np.arange(len(found))
        return np.array([self._index[label] for label in found], dtype=np.intp)

    # ----------------------------------------------------------------------------------------
    # changes

    def _count_cell(self, row: int, column: int, amount: float) -> None:
        """Add ``amount`` (1, or -1 to take a sample away; a weight to float counts) to one
        cell: one event of a stream, the hot path (the caller holds the lock and has checked
        the cell)."""
        tally = self._tally
        if tally is None and self._counts.dtype.kind == "f":  # float counts (which keep no tally): summed as two floats, exactly
            key, low = row << 32 | column, self._low
            mine, rest = float(self._counts[row, column]), 0.0 if low is None else float(low[row, column])
            top, left, fits = double_sum(mine, rest, float(amount), 0.0)
            if key in self._exact or not fits or not math.isfinite(top):
                self._add_floats(np.array([row]), np.array([column]), np.array([float(amount)]))
                return
            self._counts[row, column] = top
            if left or low is not None:
                self._lows()[row, column] = left
            self._total = None
            return
        total = (self._total if self._total is not None else self._current_total()) + amount  # (_total_after inline: every event of a stream)
        self._total = total if type(total) is int and total <= MAX_COUNT else check_count_total(total)
        self._counts[row, column] += amount
        if tally is not None:  # whole counts: a whole amount
            tally.add(row, column, cast(int, amount))
        else:
            self._tally_after(((row, column, cast(int, amount)),), 1, grew=False)

    def _count_cells(self, cells: Sequence[tuple[int, int]], amount: int) -> None:
        """Add ``amount`` (1, or -1 to take a sample away) to each of a few cells (the caller
        holds the lock and has checked the cells)."""
        if len(cells) == 1 or self._counts.dtype.kind == "f":
            for row, column in cells:
                self._count_cell(row, column, amount)
            return
        self._total = self._total_after(False, amount * len(cells))
        counts = self._counts
        for cell in cells:
            counts[cell] += amount
        self._tally_after(((row, column, amount) for row, column in cells), len(cells), grew=False)

    def _add_pairs(self, actual: np.ndarray, predicted: np.ndarray, weight: np.ndarray | None, found: tuple) -> None:
        """Add samples given as codes over ``found``: only the cells they fall in (no table of
        every class pair), exactly, under the lock."""
        keys, inverse = np.unique(actual * len(found) + predicted, return_inverse=True)
        low: np.ndarray | None = None
        exact: dict[int, int] = {}
        if weight is not None and weight.dtype.kind == "f":  # float weights: each cell's exact sum (by its position among the keys)
            amounts, low, exact = split_exact(exact_bincount(inverse, weight, len(keys)))
        else:
            amounts = weighted_bincount(inverse, weight, len(keys))
        with self._lock:
            floats = amounts.dtype.kind == "f"
            total = self._total_after(floats, amounts)
            before = len(self._labels)
            positions = self._grown(found, floats)
            rows, columns = positions[keys // len(found)], positions[keys % len(found)]
            if self._counts.dtype.kind == "f":  # the keys are distinct: no cell twice
                self._add_floats(rows, columns, amounts, low, {int(rows[spot]) << 32 | int(columns[spot]): number for spot, number in exact.items()} or None)
            else:
                self._counts[rows, columns] += amounts
            self._total = total
            self._tally_after(zip(rows.tolist(), columns.tolist(), amounts.tolist()), len(keys), grew=len(self._labels) != before)

    def _add(self, batch: np.ndarray, found: tuple, batch_total: int | None = None, low: np.ndarray | None = None, exact: dict[int, int] | None = None) -> None:
        """Add counts over labels ``found`` (new labels are appended), exactly, under the lock
        (``batch_total``: the sum of ``batch``, when the caller knows it; ``low`` and ``exact``:
        another matrix's rests of float counts, its exact sums by key over ``found``; a batch of
        exact sums, float weights counted, gives its own)."""
        if batch.dtype.kind == "O":
            batch, low, exact = float_cells(batch)
        with self._lock:
            floats = batch.dtype.kind == "f"
            total = self._total_after(floats, batch if batch_total is None else batch_total)
            same = found is self._labels  # (a batch over this matrix's own labels: the whole table, in order)
            if same and not floats and self._counts.dtype.kind != "f":  # whole counts into whole counts: the table added as it is (a training loop's batch)
                self._counts += batch
                self._total = total
                self._tally_after_table()
                return
            positions = self._grown(found, floats)
            if self._counts.dtype.kind == "f":  # the cells the batch has
                rows, columns = cells_of(batch, exact)
                self._add_floats(positions[rows], positions[columns], batch[rows, columns], None if low is None else low[rows, columns],
                                 None if not exact else {int(positions[key >> 32]) << 32 | int(positions[key & 0xFFFFFFFF]): number for key, number in exact.items()})  # fmt: skip
            else:
                whole = same or (len(positions) == len(self._labels) and bool((positions == np.arange(len(positions))).all()))
                self._counts[... if whole else np.ix_(positions, positions)] += batch
            self._total = total
            self._tally_after_table()

    def _total_after(self, floats: bool, added: float | np.ndarray) -> int | None:
        """The exact total once whole counts ``added`` (their sum, or a table of them) join whole
        counts (checked: never past 2**63 - 1); None for float counts, which the next read sums
        (``_current_total``)."""
        if floats or self._counts.dtype.kind == "f":
            return None
        total = (self._total if self._total is not None else self._current_total()) + (weighted_sum(added, None) if isinstance(added, np.ndarray) else added)
        return total if type(total) is int and total <= MAX_COUNT else check_count_total(total)

    def _add_floats(self, rows: np.ndarray, columns: np.ndarray, amounts: np.ndarray, low: np.ndarray | None = None, exact: dict[int, int] | None = None,
                    sign: int = 1) -> None:  # fmt: skip
        """Add (``sign`` -1: take away) float or whole ``amounts`` to the float counts of the
        cells ``rows, columns`` (distinct), exactly (``evalkit._engine._exact.exact_cells``;
        ``low``: the amounts' rests, ``exact``: the exact sums of those whose rest is no float,
        by cell key), all or nothing.

        Raises:
            InvalidCountsError: an amount taken away above its count.
            CountOverflowError: a count beyond what a float64 holds.
        """
        rows, columns = rows.astype(np.int64), columns.astype(np.int64)
        mine = None if self._low is None else self._low[rows, columns]
        values, rests, changes = exact_cells(self._counts[rows, columns], mine, rows << 32 | columns, self._exact, amounts, low, exact, sign=sign,
                                             what="pairs of labels")  # fmt: skip
        if values.size and float(values.max()) > _FLOAT_MAX / self._counts.size:  # counts that may sum beyond float64: their total checked first
            trial = self._counts.copy()
            trial[rows, columns] = values
            _float_total(trial)
        self._counts[rows, columns] = values
        if self._low is not None or rests.any():
            self._lows()[rows, columns] = rests
        self._keep_exact(changes)
        self._total = None

    def _lows(self) -> np.ndarray:
        """The rests of the float counts, made (zeros) at the first one."""
        if self._low is None:
            self._low = np.zeros(self._counts.shape)
        return self._low

    def _keep_exact(self, changes: dict[int, int | None]) -> None:
        """Keep the new exact sums of the cells whose floats rounded; forget those exact again."""
        exact = self._exact
        for key, number in changes.items():
            if number is None:
                exact.pop(key, None)
            else:
                exact[key] = number

    def _tally_after_table(self) -> None:
        """After a table of changes (a batch, a part added or taken away) the running margins
        are made again at the next read: as cheap as adding the table's margins to them, and
        nothing at all where no read comes between batches (a training loop)."""
        self._tally = None

    def _tally_after(self, cells: Iterable[tuple[int, int, int]], n_cells: int, *, grew: bool) -> None:
        """The stream's tally after ``n_cells`` cells changed by the amounts of ``cells`` (see the
        module): kept current, started, or dropped."""
        tally = self._tally
        if self._counts.dtype.kind == "f" or n_cells > few_cells(len(self._labels)):
            self._tally = None  # float counts keep no running sums, whose rounding would build up; a large change: the next small one starts it
        elif tally is None or grew:
            self._tally = Tally(self._counts)
        else:
            for row, column, amount in cells:
                tally.add(row, column, amount)
