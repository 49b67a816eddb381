"""A sparse confusion matrix: counts of (actual, predicted) code pairs, only the pairs that
occur (``PairCounts``), and the cells every measure reads from them.

Examples:
    >>> PairCounts.from_codes(np.array([0, 1, 1]), np.array([0, 1, 0]), 3, np.array([0.5, 2.0, 1.0])).counts.tolist()
    [0.5, 1.0, 2.0]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import numpy as np

from evalkit._engine._exact import (
    cancels,
    difference,
    equal_counts,
    exact_bincount,
    exact_table,
    in_units,
    same_form,
    split_exact,
    weighted_bincount,
    weighted_sum,
)
from evalkit._engine._validation import read_only
from evalkit._engine.cells import Cells, cells_from_pairs, difference_of_sums

__all__ = ["PairCounts"]


@attrs.frozen(eq=False)
class PairCounts:
    """Counts of (actual, predicted) code pairs: a confusion matrix over ``size`` labels, kept sparse.

    Only the pairs that occur are stored (sorted by actual, then predicted code), so memory
    grows with the distinct pairs, at most ``min(n, size²)``, never with ``size²``.

    Examples:
        >>> pairs = PairCounts.from_codes(np.array([0, 1, 1]), np.array([0, 1, 0]), 3)
        >>> pairs.dense().tolist(), pairs.margins()["correct"]
        ([[1, 0, 0], [1, 1, 0], [0, 0, 0]], 2)
    """

    actual: np.ndarray = attrs.field(converter=read_only)
    predicted: np.ndarray = attrs.field(converter=read_only)
    counts: np.ndarray = attrs.field(converter=read_only)
    size: int
    low: np.ndarray | None = None  # float counts: what each count's rounding left of its exact sum (None: nothing anywhere)
    exact: dict[int, int] = attrs.field(factory=dict)  # float counts: by position, the exact sums whose rest is no float (``split_exact``)

    def __getstate__(self) -> dict[str, object]:
        return {field.name: getattr(self, field.name) for field in attrs.fields(type(self))}

    def __setstate__(self, state: dict[str, object]) -> None:
        """A pickle of this release line loads, one of a build before float counts kept their
        rests too (none kept: each count its own exact sum)."""
        for name, value in {"low": None, "exact": {}, **state}.items():
            object.__setattr__(self, name, value)

    @classmethod
    def from_codes(cls, actual: np.ndarray, predicted: np.ndarray, size: int, weight: np.ndarray | None = None) -> PairCounts:
        """Count code pairs (each weighted by ``weight``); pairs of weight 0 are dropped. Float
        weights: each pair's exact sum, correctly rounded, its rest kept (as a matrix keeps its
        cells), so that counts split, merged or taken away in any order are the same to the last bit."""
        keys = np.asarray(actual, dtype=np.int64) * size + np.asarray(predicted, dtype=np.int64)
        dense = size * size <= max(1 << 16, 2 * len(keys))
        if weight is not None and np.asarray(weight).dtype.kind == "f":
            if dense:  # the pairs that occur, found by a count (no sort), then each one's exact sum
                distinct = np.flatnonzero(np.bincount(keys, minlength=size * size))
                slot = np.zeros(size * size, dtype=np.intp)
                slot[distinct] = np.arange(len(distinct))
                inverse = slot[keys]
            else:
                distinct, inverse = np.unique(keys, return_inverse=True)
            return cls._of_sums(distinct, exact_bincount(inverse.ravel(), weight, len(distinct)), size)
        if dense:
            table = weighted_bincount(keys, weight, size * size)
            present = np.flatnonzero(table)
            return cls(present // size, present % size, table[present], size)
        distinct, inverse = np.unique(keys, return_inverse=True)
        counts = weighted_bincount(inverse.ravel(), weight, len(distinct))
        kept = counts > 0
        return cls(distinct[kept] // size, distinct[kept] % size, counts[kept], size)

    @classmethod
    def from_exact(cls, actual: np.ndarray, predicted: np.ndarray, size: int, sums: np.ndarray) -> PairCounts:
        """Count code pairs of exact counts (``units()``): whole numbers as ``from_codes``, exact
        sums of float counts (Python integers in units of ``2**-FLOAT_OFFSET``) added exactly."""
        if sums.dtype.kind != "O":
            return cls.from_codes(actual, predicted, size, sums)
        keys = np.asarray(actual, dtype=np.int64) * size + np.asarray(predicted, dtype=np.int64)
        distinct, inverse = np.unique(keys, return_inverse=True)
        total = np.zeros(len(distinct), dtype=object)
        np.add.at(total, inverse.ravel(), sums)
        return cls._of_sums(distinct, total, size)

    @classmethod
    def _of_sums(cls, keys: np.ndarray, sums: np.ndarray, size: int) -> PairCounts:
        """The pairs of distinct sorted ``keys`` (``actual * size + predicted``) with exact sums
        (an object array): those not 0, each correctly rounded, with its rest."""
        present = np.flatnonzero(sums != 0)
        counts, low, exact = split_exact(sums[present])
        return cls(keys[present] // size, keys[present] % size, counts, size, low, exact)

    @classmethod
    def from_dense(cls, counts: np.ndarray) -> PairCounts:
        """The non-zero cells of a dense square matrix (exact sums of float counts, an object array: with their rests)."""
        actual, predicted = np.nonzero(counts)
        if counts.dtype.kind == "O":
            return cls._of_sums(actual.astype(np.int64) * len(counts) + predicted, counts[actual, predicted], len(counts))
        return cls(actual.astype(np.int64), predicted.astype(np.int64), counts[actual, predicted], len(counts))

    def units(self) -> np.ndarray:
        """The counts as exact numbers: whole counts as they are, float counts as their exact
        sums (``in_units``: the rounded counts with their rests)."""
        if self.counts.dtype.kind != "f":
            return self.counts
        table = exact_table(self.counts, self.exact)
        return table if self.low is None else table + in_units(self.low)  # (a pair whose exact sum is kept whole has no rest)

    def exact_dense(self) -> np.ndarray:
        """``dense()`` with float counts as their exact sums (an object array, which a
        ``ConfusionMatrix`` keeps with its rests)."""
        if self.counts.dtype.kind != "f":
            return self.dense()
        out = np.zeros((self.size, self.size), dtype=object)
        out[self.actual, self.predicted] = self.units()
        return out

    def dense(self) -> np.ndarray:
        """The ``size x size`` matrix (rows actual)."""
        out = np.zeros((self.size, self.size), dtype=self.counts.dtype)
        out[self.actual, self.predicted] = self.counts
        return out

    def plus(self, other: PairCounts) -> PairCounts:
        """The counts of both (same size), exactly."""
        mine, theirs = same_form(self.units(), other.units())
        return PairCounts.from_exact(
            np.concatenate([self.actual, other.actual]),
            np.concatenate([self.predicted, other.predicted]),
            self.size,
            np.concatenate([mine, theirs]),
        )

    def minus(self, other: PairCounts) -> PairCounts:
        """The counts of this without those of ``other``, a part of them (same size).

        Raises:
            InvalidCountsError: ``other`` holds a pair, or more of a pair, than this.
        """
        keys = [part.actual * self.size + part.predicted for part in (self, other)]
        distinct = np.union1d(keys[0], keys[1])
        amounts = same_form(self.units(), other.units())  # float counts: their exact sums, so that (a + b) - b is a to the last bit
        sizes = [np.zeros(len(distinct), dtype=amount.dtype) for amount in amounts]
        for size, key, amount in zip(sizes, keys, amounts):
            size[np.searchsorted(distinct, key)] = amount
        left = difference(sizes[0], sizes[1], "pairs of labels")
        if left.dtype.kind == "O":
            return PairCounts._of_sums(distinct, left, self.size)
        kept = left > 0
        return PairCounts(distinct[kept] // self.size, distinct[kept] % self.size, left[kept], self.size)

    def empty(self) -> PairCounts:
        """No pair counted, over the same labels."""
        none = np.zeros(0, dtype=np.int64)
        return PairCounts(none, none, np.zeros(0, dtype=self.counts.dtype), self.size)

    def times(self, factor: float) -> PairCounts:
        """Every count (as read, correctly rounded) times ``factor``: new weights, as a matrix scales."""
        return PairCounts(self.actual, self.predicted, self.counts * factor, self.size)

    def relabel(self, codes: np.ndarray, size: int) -> PairCounts:
        """The same counts with every code ``c`` renamed ``codes[c]``, over ``size`` labels (pairs renamed one added exactly)."""
        return PairCounts.from_exact(codes[self.actual], codes[self.predicted], size, self.units())

    def margins(self) -> dict[str, Any]:
        """``correct`` (the diagonal), ``total``, and the ``actual`` (row) and ``predicted`` (column) sums, exact."""
        right = self.actual == self.predicted
        return {
            "correct": weighted_sum(self.counts[right], None),
            "total": weighted_sum(self.counts, None),
            "actual": weighted_bincount(self.actual, self.counts, self.size),
            "predicted": weighted_bincount(self.predicted, self.counts, self.size),
        }

    def class_cells(self, m: int) -> Cells:
        """One-vs-rest cells of the classes with codes ``0 .. m - 1`` (a code ``m``, the
        abstention of rejected samples, is never a class): ``tp`` the diagonal, ``tp + fn``
        the row sums, ``tp + fp`` the column sums, and ``tp + fp + fn + tn`` the total.

        Examples:
            >>> PairCounts.from_codes(np.array([0, 1, 1]), np.array([0, 1, 0]), 2).class_cells(2).total().counts()
            {'tp': 2, 'fp': 1, 'fn': 1, 'tn': 2}
        """
        if self.counts.dtype.kind == "f":  # weights: each cell summed from its own pairs (a difference of margins cancels)
            cells = cells_from_pairs(np.zeros(len(self.counts), dtype=np.intp), self.actual, self.predicted, self.counts, 1, m)
            return Cells(*(row[0] for row in cells.rows()))
        right = self.actual == self.predicted
        tp = weighted_bincount(self.actual[right], self.counts[right], self.size)[:m]
        margins = self.margins()
        return Cells.from_sums(tp, margins["actual"][:m], margins["predicted"][:m], margins["total"])

    def ratio_margins(self) -> dict[str, Any]:
        """``margins()`` for measures of their ratios (kappa, MCC, kappa-M), whose differences
        ``total² - Σ actual · predicted`` and ``total - correct`` cancel in float when one class
        holds most of the total (weights of 1e16 and 1): there float counts give exact sums
        (Python integers in units of ``2**-1126``, ``evalkit._engine._exact.exact_margins``), whose
        ratios are correctly rounded; elsewhere, and for whole counts, ``margins()``.

        Examples:
            >>> margins = PairCounts.from_codes(np.array([0, 1]), np.array([0, 1]), 2, np.array([1e16, 1.0])).ratio_margins()
            >>> margins["total"] - margins["actual"][0] == margins["actual"][1] > 0
            True
        """
        margins = self.margins()
        if self.counts.dtype.kind != "f" or not cancels(margins):
            return margins
        units = in_units(self.units())  # (each pair's exact sum, not its float: a kappa near 0 amplifies a count's rounding)
        sides = []
        for codes in (self.actual, self.predicted):
            side = np.zeros(self.size, dtype=object)
            side[:] = 0
            np.add.at(side, codes, units)
            sides.append(side)
        right = self.actual == self.predicted
        return {"correct": sum(units[right].tolist()), "total": sum(units.tolist()), "actual": sides[0], "predicted": sides[1]}

    def ordinal_cells(self) -> Cells:
        """Cells of the questions "level > t" for the thresholds ``t = 1 .. size - 1`` of ordered
        codes: ``tp`` counts the pairs with both codes ``>= t``, ``tp + fn`` those with the
        actual code ``>= t``, ``tp + fp`` those with the predicted code ``>= t``.

        Examples:
            >>> PairCounts.from_codes(np.array([0, 1, 2]), np.array([2, 1, 0]), 3).ordinal_cells().total().counts()
            {'tp': 1, 'fp': 2, 'fn': 2, 'tn': 1}
        """
        def at_least(codes: np.ndarray) -> np.ndarray:  # Σ counts[code >= t] for t = 1 .. size - 1
            return np.cumsum(weighted_bincount(codes, self.counts, self.size)[::-1])[::-1][1:]

        both = at_least(np.minimum(self.actual, self.predicted))
        if self.counts.dtype.kind != "f":
            return Cells.from_sums(both, at_least(self.actual), at_least(self.predicted), weighted_sum(self.counts, None))
        # float counts: tn (both codes below t) summed upwards, fp and fn from their own pairs where a difference would cancel
        tn = np.cumsum(weighted_bincount(np.maximum(self.actual, self.predicted), self.counts, self.size))[:-1]
        levels = np.arange(1, self.size)

        def between(low: np.ndarray, high: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:  # Σ counts[low < t <= high] at the levels asked
            return lambda entries: ((low[None, :] < levels[entries, None]) & (high[None, :] >= levels[entries, None])).astype(np.float64) @ self.counts

        fp = difference_of_sums(at_least(self.predicted), both, between(self.actual, self.predicted))
        fn = difference_of_sums(at_least(self.actual), both, between(self.predicted, self.actual))
        return Cells(both, fp, fn, tn)

    def block_cells(self, count: int, m: int) -> Cells:
        """The class cells of each of ``count`` blocks of ``m`` codes (``b*m + class``: a group's
        classes), rows, and of all blocks together, the last row: whole counts from the margins,
        float counts each cell summed from its own pairs (``cells_from_pairs``).

        Examples:
            >>> pairs = PairCounts.from_codes(np.array([0, 1, 2, 3]), np.array([0, 0, 3, 3]), 4, np.array([0.5, 1.0, 1.0, 2.0]))
            >>> pairs.block_cells(2, 2).tp.tolist()
            [[0.5, 0.0], [0.0, 2.0], [0.5, 2.0]]
        """
        width = max(m, 1)
        if self.counts.dtype.kind == "f":
            block, twice = self.actual // width, np.concatenate
            return cells_from_pairs(twice([block, np.full(len(block), count)]), twice([self.actual % width] * 2), twice([self.predicted % width] * 2),
                                    twice([self.counts] * 2), count + 1, m)  # fmt: skip
        right = self.actual == self.predicted
        tp = weighted_bincount(self.actual[right], self.counts[right], count * m).reshape(count, m)
        rows, columns = (weighted_bincount(codes, self.counts, count * m).reshape(count, m) for codes in (self.actual, self.predicted))
        total = weighted_bincount(self.actual // width, self.counts, count)[:, None]
        tp, rows, columns, total = (np.concatenate([part, part.sum(axis=0, keepdims=True)]) for part in (tp, rows, columns, total))
        return Cells.from_sums(tp, rows, columns, total)

    def same_as(self, other: PairCounts) -> bool:
        """The same size and the same pair counts (float counts: to the last bit of their exact sums)."""
        return self.size == other.size and all(
            np.array_equal(getattr(self, name), getattr(other, name)) for name in ("actual", "predicted")
        ) and equal_counts(self.units(), other.units())

