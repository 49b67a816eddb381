"""Cells: ``tp, fp, fn, tn`` of many binary problems, and their sums over indicator data.

With actual and predicted ``n x m`` indicator matrices ``A``, ``P`` (samples x labels) the cells
are ``TP = A∘P``, ``FP = Ā∘P``, ``FN = A∘P̄``, ``TN = Ā∘P̄``, and every evalkit number is a
function of their sums: ``σ1`` (all entries, the micro cells), ``σm`` (per label, one value
per column) and ``σn`` (per sample, one value per row). Because the crisp cells partition the
matrix, three sums suffice: with ``s = σ(A∘P)``, ``a = σ(A)``, ``p = σ(P)`` and ``o`` the
number of (observed) entries, ``tp = s``, ``fp = p - s``, ``fn = a - s``, ``tn = o - a - p + s``.
That is exact for whole counts; float (weighted) counts of very different sizes would cancel
in it (``1e16 + 1 - 1e16`` is 0), so their cells are summed from the entries they count
(``difference_of_sums`` where a difference is still the cheaper way).

This module computes ``σm`` and ``σn`` of the cells for

* one-hot data (a confusion matrix: ``cells_from_confusion``; no indicator is built),
* 0/1 indicator arrays, optionally masked (``indicator_cells``),
* soft arrays under a t-norm (``soft_cells``),
* sparse ``(sample, label)`` keys, as label sets give them (``key_cells``).

Dense inputs are read in row blocks of about a megabyte: each block's cells are summed while
it is in cache, and no ``n x m`` temporary is ever made.

Examples:
    >>> import numpy as np
    >>> actual = np.array([[1, 1, 0], [0, 0, 1]], dtype=bool)
    >>> predicted = np.array([[1, 0, 0], [0, 1, 1]], dtype=bool)
    >>> by_label, by_sample = indicator_cells(actual, predicted)
    >>> by_label.counts()
    {'tp': array([1, 0, 1]), 'fp': array([0, 1, 0]), 'fn': array([0, 1, 0]), 'tn': array([1, 0, 1])}
    >>> by_sample.counts()
    {'tp': array([1, 1]), 'fp': array([0, 1]), 'fn': array([1, 0]), 'tn': array([1, 1])}
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs
import numpy as np

from evalkit._engine._exact import EXACT_FLOAT_SUM, difference, weighted_bincount, weighted_sum
from evalkit._engine._types import Count
from evalkit._engine._validation import read_only
from evalkit._engine.tnorms import product
from evalkit.exceptions import InvalidValueError

__all__ = [
    "Cells",
    "block_rows",
    "cells_from_confusion",
    "cells_from_pairs",
    "column_sums",
    "confusion_class_cells",
    "difference_of_sums",
    "indicator_cells",
    "key_cells",
    "one_hot_sample_cells",
    "outside",
    "outside_sums",
    "row_sums",
    "same_array",
    "soft_cells",
    "unique_sorted",
]

_BLOCK_BYTES = 1 << 20
"""Bytes of one row block: small enough to stay in cache while its sums are taken."""

_UINT8_ROWS = 255
"""Rows whose 0/1 values can be summed in uint8 without overflow."""


_ROUNDING = 64 * np.finfo(np.float64).eps
"""A difference of float sums this small relative to the sums is their rounding error: zero."""


@attrs.frozen(eq=False)
class Cells:
    """The four cells ``tp, fp, fn, tn`` of many binary problems, and how much each one counts.

    One entry per class (the per-class sums ``σm``) or per sample (``σn``); crisp data give
    integer cells, soft or weighted data float cells. Two optional fields make this the one
    representation of "how much each row counts":

    * ``weight``: one weight per entry (a user's ``sample_weight``, or how many samples a row
      stands for after ``compact``); ``None`` means every entry counts once.
    * ``index``: when many entries share a few distinct rows (single-label samples are of
      five kinds), ``tp, fp, fn, tn`` hold the distinct rows and ``index`` gives each entry's
      row; ``None`` means the rows are the entries.

    Every sum (``total``, ``sum_rows``, ``total_weight``) is a weighted sum over entries, exact
    for integer cells and weights.

    Examples:
        >>> cells = Cells(tp=[5, 2], fp=[2, 1], fn=[1, 2], tn=[2, 5])
        >>> cells.total().counts()
        {'tp': 7, 'fp': 3, 'fn': 3, 'tn': 7}
        >>> kinds = Cells(tp=[1, 0], fp=[0, 1], fn=[0, 1], tn=[2, 1], index=[0, 1, 0], weight=[1, 2, 3])
        >>> kinds.row_weights().tolist(), kinds.total().counts()
        ([4, 2], {'tp': 4, 'fp': 2, 'fn': 2, 'tn': 10})
    """

    tp: np.ndarray = attrs.field(converter=read_only)
    fp: np.ndarray = attrs.field(converter=read_only)
    fn: np.ndarray = attrs.field(converter=read_only)
    tn: np.ndarray = attrs.field(converter=read_only)
    weight: np.ndarray | None = attrs.field(default=None, converter=attrs.converters.optional(read_only), kw_only=True)
    index: np.ndarray | None = attrs.field(default=None, converter=attrs.converters.optional(read_only), kw_only=True)

    def rows(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The stored rows ``(tp, fp, fn, tn)`` (the distinct rows when ``index`` is set)."""
        return self.tp, self.fp, self.fn, self.tn

    def counts(self) -> dict[str, Any]:
        """The cells of every entry as keyword arguments for a measure (Python numbers when 0-d)."""
        cells = dict(zip(COUNT_NAMES, self.rows() if self.index is None else (row[self.index] for row in self.rows())))
        return {name: value.item() if value.ndim == 0 else value for name, value in cells.items()}

    def evaluate(self, measure: Callable[..., Count], **parameters: Any) -> Count:
        """The value of ``measure`` (a ``Measure``) for every entry (computed once per distinct row)."""
        values = measure(**dict(zip(COUNT_NAMES, self.rows())), **parameters)
        return values if self.index is None else np.asarray(values)[self.index]

    def evaluate_rows(self, measure: Callable[..., Count], **parameters: Any) -> Count:
        """The value of ``measure`` for every stored row (pair it with ``row_weights``)."""
        return measure(**dict(zip(COUNT_NAMES, self.rows())), **parameters)

    # ----------------------------------------------------------------------------------------
    # weights and sums

    def row_weights(self) -> np.ndarray:
        """How much each stored row counts: the weights of the entries that use it."""
        if self.index is None:
            return np.ones(len(self.tp), dtype=np.int64) if self.weight is None else self.weight
        return weighted_bincount(self.index, self.weight, len(self.tp))

    def sum_rows(self, values: Any) -> Any:
        """``Σ_entries weight · value`` for a value per stored row: exact for integers.

        Examples:
            >>> import numpy as np
            >>> Cells(tp=[1, 0], fp=[0, 1], fn=[0, 1], tn=[0, 0], weight=[3, 2]).sum_rows(np.array([1, 1]))
            5
        """
        return weighted_sum(values, self.row_weights() if (self.index is not None or self.weight is not None) else None)

    def total(self) -> Cells:
        """The cells summed over all entries, each counted by its weight (``σ1``, the micro cells)."""
        return Cells(*(self.sum_rows(row) for row in self.rows()))

    def total_weight(self) -> Any:
        """How much all entries count together: their number, or the sum of their weights."""
        if self.weight is None:
            return len(self)
        return weighted_sum(self.weight, None)

    @property
    def support(self) -> np.ndarray:
        """Actual positives per row, ``tp + fn`` (the weights of the weighted average)."""
        return self.tp + self.fn

    # ----------------------------------------------------------------------------------------
    # building and reshaping

    @classmethod
    def from_sums(cls, both: Count, actual: Count, predicted: Count, entries: Count, **fields: Any) -> Cells:
        """Cells from ``σ(A∘P)``, ``σ(A)``, ``σ(P)`` and the number of entries they range over.

        With float sums (float sample weights) a cell that is a difference of sums and lies
        within their rounding error of zero is zero: below that size the difference is rounding
        noise, and an exact 0 (weights of samples that are all right) comes out as 0, never as
        ``1e-17``, whose square root in G-mean or MCC would be ``3e-9``.

        Examples:
            >>> Cells.from_sums(both=3, actual=5, predicted=4, entries=10).counts()
            {'tp': 3, 'fp': 1, 'fn': 2, 'tn': 4}
            >>> float(Cells.from_sums(both=0.13295222, actual=0.13295222, predicted=2.0, entries=2.0).tn)
            0.0
        """
        cells = [both, predicted - both, actual - both, entries - actual - predicted + both]
        if any(np.asarray(cell).dtype.kind == "f" for cell in cells):
            scales = [both, predicted + both, actual + both, entries + actual + predicted + both]
            cells = [np.maximum(cell if k == 0 else np.where(cell > _ROUNDING * scale, cell, 0.0), 0.0)[()]  # [()]: 0-d stays a scalar
                     for k, (cell, scale) in enumerate(zip(cells, scales))]  # fmt: skip
        return cls(*cells, **fields)

    def entries(self) -> Cells:
        """The same cells with one row per entry (``index`` resolved), weights kept."""
        if self.index is None:
            return self
        return Cells(*(row[self.index] for row in self.rows()), weight=self.weight)

    def __len__(self) -> int:
        return len(self.tp) if self.index is None else len(self.index)

    def __getitem__(self, selection: int | slice | np.ndarray) -> Cells:
        """The cells of some entries (an index, a slice, a mask or an index array), weights kept."""
        weight = None if self.weight is None else self.weight[selection]
        if self.index is not None:
            return Cells(*self.rows(), weight=weight, index=self.index[selection])
        return Cells(*(row[selection] for row in self.rows()), weight=weight)

    def compact(self) -> Cells:
        """One row per distinct cells, weighted by how much its entries count (zero-weight rows
        dropped; rows sorted). Every weighted sum stays the same; the order of the entries is
        given up.

        Examples:
            >>> Cells(tp=[1, 0, 1], fp=[0, 1, 0], fn=[0, 0, 0], tn=[1, 1, 1]).compact().weight.tolist()
            [1, 2]
        """
        stacked = np.stack([np.asarray(row) for row in self.rows()], axis=1)
        distinct, inverse = _distinct_rows(stacked)
        weights = weighted_bincount(inverse, self.row_weights() if self.index is not None or self.weight is not None else None, len(distinct))
        kept = weights > 0
        return Cells(*(distinct[kept, k] for k in range(4)), weight=weights[kept])

    def with_negatives(self, extra: int) -> Cells:
        """Every entry with ``extra`` more true negatives (labels that no entry has or predicts)."""
        return attrs.evolve(self, tn=self.tn + extra)

    def plus(self, other: Cells) -> Cells:
        """Entry-by-entry sums of two unweighted cells of the same length (per-class cells of two batches)."""
        return Cells(*(np.add(mine, theirs) for mine, theirs in zip(self.rows(), other.rows())))

    @staticmethod
    def concat(parts: Sequence[Cells]) -> Cells:
        """The entries of several cells one after the other, with their weights (and indexes).

        Indexed parts with the same distinct rows share them; otherwise the rows are stacked
        and the indexes shifted.
        """
        weights = None
        if any(part.weight is not None for part in parts):
            weights = np.concatenate([part.weight if part.weight is not None else np.ones(len(part), dtype=np.int64) for part in parts])
        if all(part.index is None for part in parts):
            return Cells(*(np.concatenate([part.rows()[k] for part in parts]) for k in range(4)), weight=weights)
        first = parts[0]
        if all(part.index is not None and _same_rows(part, first) for part in parts):
            return Cells(*first.rows(), weight=weights, index=np.concatenate([part.index for part in parts]))
        indexes, offset = [], 0
        for part in parts:
            own = part.index if part.index is not None else np.arange(len(part.tp))
            indexes.append(own + offset)
            offset += len(part.tp)
        rows = (np.concatenate([part.rows()[k] for part in parts]) for k in range(4))
        return Cells(*rows, weight=weights, index=np.concatenate(indexes))

    def minus(self, other: Cells) -> Cells:
        """Entry-by-entry differences of two unweighted cells of the same length: the per-class
        cells of a batch taken away (refused where a cell would fall below zero).

        Raises:
            InvalidCountsError: ``other`` holds more of a cell than this.
        """
        return Cells(*(difference(mine, theirs, "cells") for mine, theirs in zip(self.rows(), other.rows())))

    def without(self, other: Cells) -> Cells:
        """These entries without those of ``other``, a part of them: the distinct rows of both
        with this one's weights less ``other``'s (compacted; rows left with no weight dropped).

        Raises:
            InvalidCountsError: ``other`` holds a row, or more of a row, than this.

        Examples:
            >>> both = Cells(tp=[1, 0, 1], fp=[0, 1, 0], fn=[0, 0, 0], tn=[1, 1, 1])
            >>> both.without(Cells(tp=[1], fp=[0], fn=[0], tn=[1])).weight.tolist()
            [1, 1]
        """
        mine, theirs = self.compact(), other.compact()
        stacked = np.concatenate([np.stack([np.asarray(row) for row in part.rows()], axis=1) for part in (mine, theirs)])
        distinct, inverse = _distinct_rows(stacked)
        sizes = [weighted_bincount(inverse[: len(mine)], mine.weight, len(distinct)), weighted_bincount(inverse[len(mine) :], theirs.weight, len(distinct))]
        weights = difference(sizes[0], sizes[1], "samples")
        kept = weights > 0
        return Cells(*(distinct[kept, k] for k in range(4)), weight=weights[kept])

    def scaled(self, factor: float) -> Cells:
        """Every entry counting ``factor`` times as much (its weight times ``factor``)."""
        weight = self.weight if self.weight is not None else np.ones(len(self), dtype=np.int64)
        return attrs.evolve(self, weight=weight * factor)

    def times(self, factor: float) -> Cells:
        """Every cell times ``factor`` (per-class sums of weights that decay)."""
        return Cells(*(np.multiply(row, factor) for row in self.rows()), weight=self.weight, index=self.index)

    def starts_with(self, other: Cells) -> bool:
        """Whether the first entries are ``other``'s (the same cells and weights, in order)."""
        return len(other) <= len(self) and _same_entries(self[: len(other)], other)

    def ends_with(self, other: Cells) -> bool:
        """Whether the last entries are ``other``'s (the same cells and weights, in order)."""
        return len(other) <= len(self) and _same_entries(self[len(self) - len(other) :], other)

    def same_as(self, other: Cells) -> bool:
        """The same entries, each counting as much (array equality; Cells compare by identity
        otherwise), whatever their layout (distinct rows and an index, or a row each); no weight
        is a weight of 1 for every entry.

        Examples:
            >>> kinds = Cells(tp=[1, 0], fp=[0, 1], fn=[0, 0], tn=[1, 1], index=[1, 0, 1])
            >>> kinds.same_as(kinds.entries()), kinds[:0].same_as(Cells(*[[]] * 4))
            (True, True)
        """
        if len(self) != len(other):
            return False
        if (self.index is None) == (other.index is None) and _same_rows(self, other):  # one layout: rows, weights, index
            return np.array_equal(_entry_weights(self), _entry_weights(other)) and same_array(self.index, other.index)
        return _same_entries(self, other)


COUNT_NAMES = ("tp", "fp", "fn", "tn")


def same_array(first: Any, second: Any) -> bool:
    """Equal arrays, or both None (for optional array fields)."""
    if first is None or second is None:
        return first is None and second is None
    return np.array_equal(first, second)


def _entry_weights(cells: Cells) -> np.ndarray:
    """How much each entry counts (no weight is a weight of 1)."""
    return cells.weight if cells.weight is not None else np.ones(len(cells), dtype=np.int64)


def _same_entries(first: Cells, second: Cells) -> bool:
    """The same cells entry by entry, each counting as much."""
    mine, theirs = first.entries(), second.entries()
    return _same_rows(mine, theirs) and np.array_equal(_entry_weights(mine), _entry_weights(theirs))


def _same_rows(first: Cells, second: Cells) -> bool:
    return all(np.array_equal(a, b) for a, b in zip(first.rows(), second.rows()))


def _distinct_rows(stacked: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of a 2-D array (sorted) and, for each row, the index of its distinct row.

    Small non-negative integer rows are packed into one int64 key each and sorted as a vector,
    which is many times faster than ``np.unique(axis=0)``; other rows take that route.
    """
    if len(stacked) and stacked.dtype.kind in "iu" and stacked.min() >= 0:
        base = int(stacked.max()) + 1
        if base ** stacked.shape[1] < 2**62:
            keys = np.zeros(len(stacked), dtype=np.int64)
            for column in stacked.T:
                keys = keys * base + column
            _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
            return stacked[first], inverse.ravel()
    rows, inverse = np.unique(stacked, axis=0, return_inverse=True)
    return rows, inverse.ravel()


def cells_from_confusion(counts: np.ndarray, total: float | None = None) -> Cells:
    """Per-class one-vs-rest cells of a confusion matrix (rows actual, columns predicted).

    ``tp_j = x_jj``, ``fp_j`` = column ``j`` without the diagonal, ``fn_j`` = row ``j``
    without the diagonal, ``tn_j`` = every cell outside row ``j`` and column ``j``. Whole
    counts come from the margins (``tn = total - row - column + tp``, exact); float counts
    would cancel in that (weights of 1e16 and 1: the small class's true negative is 0), so
    ``fp`` and ``fn`` are the sums of the cells off the diagonal, and ``tn = total - (tp + fp
    + fn)`` is summed from the cells themselves where that difference would lose digits
    (``difference_of_sums``: a few classes at most). ``total``: the sum of float counts, when
    the caller has it correctly rounded.

    Examples:
        >>> cells_from_confusion(np.array([[50, 10], [5, 35]])).counts()
        {'tp': array([50, 35]), 'fp': array([ 5, 10]), 'fn': array([10,  5]), 'tn': array([35, 50])}
        >>> cells_from_confusion(np.array([[1e16, 0.0], [0.0, 1.0]])).tn.tolist()
        [1.0, 1e+16]
    """
    tp = np.diagonal(counts).copy()
    if counts.dtype.kind != "f":  # whole counts: the margins' differences are exact
        return Cells.from_sums(tp, counts.sum(axis=1), counts.sum(axis=0), counts.sum())
    off = counts.copy()
    np.fill_diagonal(off, 0.0)
    fp, fn = off.sum(axis=0), off.sum(axis=1)
    whole = np.full(len(counts), float(counts.sum()) if total is None else float(total))
    return Cells(tp, fp, fn, difference_of_sums(whole, tp + fp + fn, lambda classes: np.array([outside(counts, k) for k in classes.tolist()])))


def outside(counts: np.ndarray, k: int) -> float:
    """The sum of a matrix's cells outside row ``k`` and column ``k`` (class ``k``'s true
    negatives, summed from its cells).

    Examples:
        >>> outside(np.array([[1e16, 2.0], [3.0, 1.0]]), 0)
        1.0
    """
    return float(np.delete(np.delete(counts, k, axis=0), k, axis=1).sum())


def confusion_class_cells(counts: np.ndarray, k: int, total: float) -> tuple[float, float, float, float]:
    """``(tp, fp, fn, tn)`` of class ``k`` of a float matrix whose counts sum to ``total``, as
    ``cells_from_confusion`` finds them: ``O(m)``, and ``O(m²)`` only where its ``tn`` is summed
    from the cells.

    Examples:
        >>> confusion_class_cells(np.array([[1e16, 0.0], [0.0, 1.0]]), 0, 1e16)
        (1e+16, 0.0, 0.0, 1.0)
    """
    tp = float(counts[k, k])
    column, row = counts[:, k].copy(), counts[k, :].copy()
    column[k] = row[k] = 0.0
    fp, fn = float(column.sum()), float(row.sum())
    tn = difference_of_sums(np.array([float(total)]), np.array([tp + fp + fn]), lambda _: np.array([outside(counts, k)]))
    return tp, fp, fn, float(tn[0])


def cells_from_pairs(group: np.ndarray, actual: np.ndarray, predicted: np.ndarray, weight: np.ndarray, n_groups: int, m: int) -> Cells:
    """One-vs-rest cells of float (weighted) pair counts, one row of ``m`` classes per group:
    ``tp`` the pairs on the diagonal, ``fp`` and ``fn`` the others by predicted and by actual
    class, each summed from its own pairs, and ``tn = total - (tp + fp + fn)`` of the group
    (``difference_of_sums``: summed directly where that difference would cancel). Codes
    ``>= m`` (an abstention) count in the total only.

    Examples:
        >>> cells = cells_from_pairs(np.zeros(2, dtype=int), np.array([0, 1]), np.array([0, 1]), np.array([1e16, 1.0]), 1, 2)
        >>> cells.tn.tolist()  # 1e16 + 1 - 1e16 - 1e16 + 1e16 would be 0
        [[1.0, 1e+16]]
    """
    size = n_groups * m
    right, wrong = actual == predicted, actual != predicted

    def by(codes: np.ndarray, chosen: np.ndarray) -> np.ndarray:
        inside = chosen & (codes < m)
        return np.bincount(group[inside] * m + codes[inside], weights=weight[inside], minlength=size).astype(np.float64).reshape(n_groups, m)

    tp, fp, fn = by(actual, right), by(predicted, wrong), by(actual, wrong)
    total = np.bincount(group, weights=weight, minlength=n_groups).astype(np.float64)[:, None]

    def directly(entries: np.ndarray) -> np.ndarray:
        return outside_sums(group, actual, predicted, weight, entries // m, entries % m, n_groups)

    tn = difference_of_sums(np.broadcast_to(total, tp.shape), tp + fp + fn, directly)
    return Cells(tp, fp, fn, tn)


_DIRECT = 0.5
"""A difference of float sums kept where it is at least this share of what it is taken from:
there it loses at most a bit of the sums' precision; below, its terms are summed directly."""


def difference_of_sums(whole: np.ndarray, part: np.ndarray, direct: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """``whole - part`` of float sums of non-negative counts, ``part`` a share of ``whole``,
    without cancellation: where the difference is below ``_DIRECT · whole`` (``1e16 + 1 - 1e16``)
    those entries (flat positions) are ``direct(entries)``, the sums of their own terms.

    A confusion matrix has at most three classes whose row and column hold more than half of
    its total (every cell lies in at most two of them), so few entries take the direct sums.

    Examples:
        >>> difference_of_sums(np.array([1e16, 1e16]), np.array([1e16, 1.0]), lambda entries: np.array([1.0])).tolist()
        [1.0, 1e+16]
    """
    left = np.maximum(whole - part, 0.0)
    loose = np.flatnonzero(left < _DIRECT * whole)
    if loose.size:
        left.reshape(-1)[loose] = direct(loose)
    return left


def outside_sums(group: np.ndarray, actual: np.ndarray, predicted: np.ndarray, weight: np.ndarray, rows: np.ndarray, classes: np.ndarray,
                 n_groups: int) -> np.ndarray:  # fmt: skip
    """For each entry ``(rows[e], classes[e])``: ``Σ weight`` of the pairs of group ``rows[e]``
    whose actual and predicted codes both differ from ``classes[e]`` (a true negative summed
    from its own pairs). Vectorised over the pairs: each pair is tested against the few entries
    of its group.

    Examples:
        >>> codes = np.array([0, 1, 2])
        >>> outside_sums(np.zeros(3, dtype=int), codes, codes, np.array([1e16, 1.0, 2.0]), np.array([0, 0]), np.array([0, 2]), 1).tolist()
        [3.0, 1e+16]
    """
    rows, classes = np.asarray(rows, dtype=np.intp), np.asarray(classes, dtype=np.intp)
    order = np.argsort(rows, kind="stable")
    place = np.empty(len(rows), dtype=np.intp)  # each entry's place among its group's entries
    starts = np.searchsorted(rows[order], rows[order])
    place[order] = np.arange(len(rows)) - starts
    width = int(place.max()) + 1 if len(rows) else 1
    table = np.full((n_groups, width), -1, dtype=np.intp)
    table[rows, place] = classes
    tested = table[group]  # pairs x width: the classes each pair is tested against
    take = (tested >= 0) & (actual[:, None] != tested) & (predicted[:, None] != tested)
    slots = group[:, None] * width + np.arange(width)
    sums = np.bincount(slots[take], weights=np.broadcast_to(weight[:, None], take.shape)[take], minlength=n_groups * width)
    return sums[rows * width + place].astype(np.float64)


def one_hot_sample_cells(m: int) -> Cells:
    """The cells of the five kinds of single-label sample, over ``m`` known classes.

    Rows: right (1, 0, 0, m-1), wrong (0, 1, 1, m-2), missed: predicted none (0, 0, 1, m-1),
    false alarm: actual none (0, 1, 0, m-1), none for none (0, 0, 0, m). A single-label result
    is these rows weighted by how often each kind occurs, so its per-sample ("samples")
    averages need no per-sample data.
    """
    return Cells(tp=[1, 0, 0, 0, 0], fp=[0, 1, 0, 1, 0], fn=[0, 1, 1, 0, 0], tn=[m - 1, max(m - 2, 0), m - 1, m - 1, m])


# --------------------------------------------------------------------------------------------
# dense indicator and soft arrays, in row blocks


def block_rows(m: int, itemsize: int) -> int:
    """Rows per block: about ``_BLOCK_BYTES`` of input, a multiple of 255 rows."""
    return max(_UINT8_ROWS, _BLOCK_BYTES // max(1, m * itemsize) // _UINT8_ROWS * _UINT8_ROWS)


def _bits(block: np.ndarray, argument: str) -> np.ndarray:
    """A 0/1 block as uint8 (a view for bool input); anything but 0 and 1 is an error."""
    if block.dtype == np.bool_:
        return block.view(np.uint8)
    if block.size:
        if block.dtype.kind in "iu":
            ok = block.min() >= 0 and block.max() <= 1
        else:
            ok = bool(((block == 0) | (block == 1)).all())
        if not ok:
            bad = block[(block != 0) & (block != 1)].ravel()[:1]
            raise InvalidValueError(f"{argument!r} must hold only 0 and 1 (or booleans), got {bad[0]!r}")
    return (block != 0).view(np.uint8)


def unique_sorted(values: np.ndarray) -> np.ndarray:
    """The distinct values of an integer array, sorted (a sort and one comparison pass).

    ``np.unique`` takes a hashing route for unsorted integers that is several times slower
    on large key arrays.
    """
    ordered = np.sort(values)
    if len(ordered) < 2:
        return ordered
    keep = np.empty(len(ordered), dtype=bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


def column_sums(bits: np.ndarray) -> np.ndarray:
    """Column sums (int64) of a 0/1 bool or uint8 matrix, in exact uint8 partial sums of 255 rows."""
    block = bits.view(np.uint8)
    rows, m = block.shape
    full = rows // _UINT8_ROWS * _UINT8_ROWS
    total = np.zeros(m, dtype=np.int64)
    if full:
        total += block[:full].reshape(-1, _UINT8_ROWS, m).sum(axis=1, dtype=np.uint8).sum(axis=0, dtype=np.int64)
    if full < rows:
        total += block[full:].sum(axis=0, dtype=np.int64)
    return total


def row_sums(bits: np.ndarray) -> np.ndarray:
    """Row sums of a 0/1 bool or uint8 matrix, in the narrowest integer type that is exact."""
    m = bits.shape[1]
    return bits.view(np.uint8).sum(axis=1, dtype=np.uint8 if m <= 255 else np.uint16 if m <= 65535 else np.int64)


def indicator_cells(
    actual: np.ndarray,
    predicted: np.ndarray,
    *,
    mask: np.ndarray | None = None,
    predict: Callable[[np.ndarray], np.ndarray] | None = None,
    rejected: np.ndarray | None = None,
    rejection: str = "miss",
    labels: bool = True,
    weight: np.ndarray | None = None,
) -> tuple[Cells | None, Cells]:
    """Per-label and per-sample cells of 0/1 indicator matrices (samples x labels).

    Args:
        actual: ``n x m`` array of 0/1 (bool, int or float).
        predicted: ``n x m`` array of 0/1, or of scores when ``predict`` is given.
        mask: optional ``n x m`` 0/1 observation mask; entries with 0 are unknown and enter
            no cell.
        predict: turns a block of ``predicted`` into a bool block (thresholds, top-k).
        rejected: optional bool vector of rejected (abstained) samples. With
            ``rejection="miss"`` their predicted rows count as all 0 (every actual label
            missed); with ``"selective"`` their rows are left out entirely (their per-sample
            cells are all 0).
        labels: with False the per-label sums are skipped (and ``None`` returned for them).
        weight: optional weight per sample: per-label cells become weighted sums (exact for
            integer weights; float weights sum each of the four cells itself, none a
            difference of sums that would cancel), per-sample cells carry the weights.

    Returns:
        ``(per_label, per_sample)`` cells.

    Raises:
        InvalidValueError: a value other than 0 or 1.
    """
    n, m = actual.shape
    float_weights = weight is not None and weight.dtype.kind == "f"
    exact_float = weight is not None and not float_weights and weighted_sum(weight, None) < EXACT_FLOAT_SUM
    by_label = np.zeros((4, m), dtype=np.float64 if float_weights or exact_float else np.int64)
    by_sample = np.empty((4, n), dtype=np.int64)
    summed = labels and float_weights  # each cell of a label summed itself: (tp, fp, fn, tn) in by_label
    step = block_rows(m, max(actual.itemsize, predicted.itemsize))
    for start in range(0, n, step):
        stop = min(start + step, n)
        a = _bits(actual[start:stop], "y_true")
        p = predict(predicted[start:stop]).view(np.uint8) if predict else _bits(predicted[start:stop], "y_pred")
        observed = None if mask is None else _bits(mask[start:stop], "mask")
        if rejected is not None:
            keep = (~rejected[start:stop]).view(np.uint8)[:, None]
            if rejection == "miss":
                p = p * keep
            else:
                observed = np.broadcast_to(keep, a.shape) if observed is None else observed & keep
        blocks = [a & p, a, p]
        if observed is not None:
            blocks = [block & observed for block in blocks] + [observed]
        for k, block in enumerate(blocks):
            if labels and not summed:
                by_label[k] += column_sums(block) if weight is None else _weighted_column_sums(block, weight[start:stop], by_label.dtype)
            by_sample[k, start:stop] = row_sums(block)
        if summed:
            assert weight is not None
            not_a, not_p = a ^ 1, p ^ 1
            for k, cell in enumerate((blocks[0], not_a & p, a & not_p, not_a & not_p)):
                by_label[k] += _weighted_column_sums(cell if observed is None else cell & observed, weight[start:stop], by_label.dtype)
    if by_label.dtype.kind == "f" and not float_weights:
        by_label = by_label.astype(np.int64)  # integer weights, summed exactly below 2**53
    observed_everything = mask is None and (rejected is None or rejection == "miss")
    label_entries = (n if weight is None else weighted_sum(weight, None)) if observed_everything else by_label[3]
    sample_entries = m if observed_everything else by_sample[3]
    if summed:
        per_label: Cells | None = Cells(*by_label)
    else:
        per_label = Cells.from_sums(by_label[0], by_label[1], by_label[2], label_entries) if labels else None
    return per_label, Cells.from_sums(by_sample[0], by_sample[1], by_sample[2], sample_entries, weight=weight)


def _weighted_column_sums(bits: np.ndarray, weight: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """``Σ_i weight_i · bits_ij`` for every column (float64 BLAS, or exact int64)."""
    if dtype == np.float64:
        return weight.astype(np.float64, copy=False) @ bits.view(np.uint8).astype(np.float64)
    return weight @ bits.view(np.uint8).astype(np.int64)


def _unit_interval(block: np.ndarray, argument: str) -> np.ndarray:
    """A block of degrees in [0, 1] as floats; NaN or values outside [0, 1] are an error."""
    if block.dtype.kind == "b":
        return block.astype(np.float64)
    if block.dtype.kind not in "iuf":
        raise InvalidValueError(f"{argument!r} must hold numbers in [0, 1], got dtype {block.dtype}")
    if block.size and not (block.min() >= 0 and block.max() <= 1):  # NaN fails both comparisons
        bad = block[~((block >= 0) & (block <= 1))].ravel()[:1]
        raise InvalidValueError(f"{argument!r} must hold degrees in [0, 1], got {bad[0]!r}")
    return block


def soft_cells(
    actual: np.ndarray,
    predicted: np.ndarray,
    tnorm: Callable[[np.ndarray, np.ndarray], np.ndarray] = product,
    *,
    mask: np.ndarray | None = None,
    weight: np.ndarray | None = None,
) -> tuple[Cells, Cells]:
    """Per-label and per-sample soft cells of degrees in [0, 1] under a t-norm.

    ``TP = T(a, p)``, ``FP = T(1 - a, p)``, ``FN = T(a, 1 - p)``, ``TN = T(1 - a, 1 - p)``,
    each multiplied by the mask if given, every cell computed from the degrees themselves (never
    as a difference of sums, whose rounding would turn an exact 0 into ``1e-17`` or lose a
    ``1e-16`` that is really there); sums are accumulated in float64, per label weighted by
    ``weight`` when given (the per-sample cells carry the weights).

    Raises:
        InvalidValueError: a degree outside [0, 1] or NaN.
    """
    n, m = actual.shape
    by_label = np.zeros((4, m), dtype=np.float64)
    by_sample = np.empty((4, n), dtype=np.float64)
    step = block_rows(m, 8)
    for start in range(0, n, step):
        stop = min(start + step, n)
        a = _unit_interval(actual[start:stop], "y_true").astype(np.float64, copy=False)
        p = _unit_interval(predicted[start:stop], "y_pred").astype(np.float64, copy=False)
        observed = None if mask is None else _bits(mask[start:stop], "mask")
        not_a, not_p = 1 - a, 1 - p
        blocks = [tnorm(a, p), tnorm(not_a, p), tnorm(a, not_p), tnorm(not_a, not_p)]
        for k, block in enumerate(blocks):
            block = np.asarray(block, dtype=np.float64) if observed is None else np.asarray(block, dtype=np.float64) * observed
            if weight is None:
                by_label[k] += block.sum(axis=0)
            else:
                by_label[k] += weight[start:stop].astype(np.float64) @ block
            by_sample[k, start:stop] = block.sum(axis=1)
    return Cells(*by_label), Cells(*by_sample, weight=weight)


# --------------------------------------------------------------------------------------------
# sparse (sample, label) keys


def key_cells(actual: np.ndarray, predicted: np.ndarray, n: int, m: int, weight: np.ndarray | None = None) -> tuple[Cells, Cells]:
    """Per-label and per-sample cells of sparse indicator data.

    Args:
        actual: sorted unique int64 keys ``sample * m + label`` of the actual 1-entries.
        predicted: the same for the predicted 1-entries.
        n: number of samples; m: number of labels.
        weight: optional weight per sample: the per-label cells become weighted sums, and the
            per-sample cells carry the weights.

    Examples:
        >>> by_label, by_sample = key_cells(np.array([0, 1, 5]), np.array([0, 4, 5]), 2, 3)
        >>> by_sample.counts()
        {'tp': array([1, 1]), 'fp': array([0, 1]), 'fn': array([1, 0]), 'tn': array([1, 1])}
    """
    both = np.intersect1d(actual, predicted, assume_unique=True)

    def per_label(keys: np.ndarray) -> np.ndarray:
        return weighted_bincount(keys % m if m else keys, None if weight is None else weight[keys // m], m)

    def per_sample(keys: np.ndarray) -> np.ndarray:
        return np.bincount(keys // m if m else keys, minlength=n)

    total = n if weight is None else weighted_sum(weight, None)
    if weight is not None and weight.dtype.kind == "f":
        by_label = _weighted_key_cells(actual, predicted, both, n, m, weight, float(total), per_label)
    else:
        by_label = Cells.from_sums(per_label(both), per_label(actual), per_label(predicted), total)
    by_sample = Cells.from_sums(per_sample(both), per_sample(actual), per_sample(predicted), m, weight=weight)
    return by_label, by_sample


def _weighted_key_cells(actual: np.ndarray, predicted: np.ndarray, both: np.ndarray, n: int, m: int, weight: np.ndarray, total: float,
                        per_label: Callable[[np.ndarray], np.ndarray]) -> Cells:  # fmt: skip
    """Per-label cells of sparse keys under float weights: ``tp``, ``fp`` and ``fn`` each summed
    from its own keys, ``tn`` the rest of the total weight (``difference_of_sums``: the weights
    of the samples without the label, summed directly, where that difference would cancel)."""
    tp = per_label(both)
    fp, fn = per_label(np.setdiff1d(predicted, both, assume_unique=True)), per_label(np.setdiff1d(actual, both, assume_unique=True))
    either = np.union1d(actual, predicted)

    def without(labels: np.ndarray) -> np.ndarray:  # Σ weight of the samples without each label, a block of labels at a time
        sums = []
        step = max(1, _BLOCK_BYTES // 8 // max(n, 1))
        for start in range(0, len(labels), step):
            block = labels[start : start + step]
            column = np.full(m, -1, dtype=np.intp)
            column[block] = np.arange(len(block))
            keys = either[column[either % m] >= 0]
            lacks = np.ones((n, len(block)))
            lacks[keys // m, column[keys % m]] = 0.0
            sums.append(weight.astype(np.float64) @ lacks)
        return np.concatenate(sums)

    return Cells(tp, fp, fn, difference_of_sums(np.full(m, total), tp + fp + fn, without))
