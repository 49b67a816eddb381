"""Ranked lists: how well each query's ranked items find its relevant ones (recommendation and
retrieval at a depth ``k``: Spark's ``RankingMetrics``, torchmetrics' retrieval metrics).

For a query with ranked items ``x_1, x_2, ...`` and a set ``R`` of relevant items (``|R| > 0``),
``hit_i = [x_i in R]`` and ``c_i = hit_1 + ... + hit_i``:

- precision at ``k``: ``Σ_{i <= k} hit_i / k`` (a list shorter than ``k`` still divides by ``k``);
- recall at ``k``: ``Σ_{i <= k} hit_i / |R|``;
- average precision at ``k``: ``Σ_{i <= k} hit_i c_i / i / min(|R|, k)``, and without ``k``
  ``Σ_i hit_i c_i / i / |R|`` (the mean over queries is MAP);
- nDCG at ``k`` (binary relevance): ``Σ_{i <= k} hit_i / log(i + 1)`` over its largest value
  ``Σ_{i <= min(|R|, k)} 1 / log(i + 1)``.

A query without a relevant item has none of them defined: the undefined-value policy decides
(``undefined="zero"`` counts it as 0, Spark's convention). Each measure is a mean over queries.

``RankedLists`` keeps, for every ``k`` up to its ``depth``, exact sums of these values over
the queries, so a result is a few arrays of ``depth`` sums whatever the number of queries,
merges exactly (the same sums however the queries are split) and reads any ``k <= depth``.

Examples:
    >>> lists = RankedLists.from_lists([[1, 6, 2, 7, 8], [4, 1, 5, 6, 2]], [[1, 2, 3, 4, 5], [1, 2, 3]], depth=5)
    >>> lists.precision_at(5), round(lists.ndcg_at(3), 6), lists.n_queries
    (0.4, 0.5, 2)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Iterable, Sequence
from typing import Any, ClassVar

import numpy as np

from evalkit._engine import serialization
from evalkit._engine._exact import UNIT, exact_bincount, in_units, limbs_to_ints, rounded_counts, rounded_number
from evalkit._engine._validation import show
from evalkit._results._summed import SummedState
from evalkit._results.counted import ALL_OPERATIONS
from evalkit.exceptions import InputLengthError, InvalidArgumentError, InvalidTypeError, MixedLabelTypesError
from evalkit.measures._averaging import Averaged, UndefinedPolicy, mean_of_total

__all__ = ["ItemLists", "RankedLists", "check_depth"]

ItemLists = Sequence[Iterable[Hashable]] | np.ndarray
"""One collection of items per query: lists, tuples, sets or arrays (a column of arrays)."""


def check_depth(depth: object, name: str = "depth") -> int:
    """``depth`` (or ``k``) as an int >= 1.

    Raises:
        InvalidArgumentError: anything else.
    """
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < 1:
        raise InvalidArgumentError(f"'{name}' must be a whole number >= 1, got {show(depth)}")
    return int(depth)


def _flattened(lists: ItemLists, name: str) -> tuple[np.ndarray, np.ndarray]:
    """``(lengths, items)`` of a sequence of item lists (lists, tuples, sets or arrays)."""
    if isinstance(lists, (str, bytes)) or not hasattr(lists, "__len__"):
        raise InvalidTypeError(f"'{name}' must be a sequence of item lists, got {show(lists)}")
    rows = [_items(row, name) for row in lists]
    lengths = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
    items = np.concatenate(rows) if rows and lengths.sum() else np.zeros(0)
    return lengths, items


def _items(row: Iterable[Hashable] | np.ndarray, name: str) -> np.ndarray:
    """One query's items as an array, numbers and strings never mixed (numpy would make ``1`` the string ``"1"``)."""
    if isinstance(row, np.ndarray):
        return row.ravel()
    values = list(row) if isinstance(row, (set, frozenset, list, tuple)) else row
    items = np.asarray(values).ravel()
    if items.dtype.kind in "US" and not all(isinstance(item, (str, bytes)) for item in values):
        raise MixedLabelTypesError(f"the items of '{name}' mix numbers and strings, which do not compare: {show(values)}")
    return items


def _codes(items: np.ndarray) -> np.ndarray:
    """Items as codes ``0 .. u-1``: whole numbers of a moderate range by their offset (no sort), others by ``np.unique``."""
    if items.dtype.kind in "iu" and items.size:
        low, high = int(items.min()), int(items.max())
        if high - low < 1 << 31:
            return (items - low).astype(np.int64)
    try:
        return np.unique(items, return_inverse=True)[1].ravel().astype(np.int64)
    except TypeError:
        raise MixedLabelTypesError(f"the items do not compare with each other (numbers and strings?): {show(items)}") from None


class _Slots:
    """The positions of the exact sums of a depth ``K``: recall by position (``K``), the two
    difference arrays of average precision and of nDCG (``K + 2`` each), and MAP (1)."""

    def __init__(self, depth: int) -> None:
        self.recall = 0
        self.precision_within, self.precision_beyond = depth, 2 * depth + 2  # average precision: k <= |R|, k > |R|
        self.gain_within, self.gain_beyond = 3 * depth + 4, 4 * depth + 6  # nDCG likewise
        self.mean_average_precision = 5 * depth + 8
        self.size = 5 * depth + 9


def _ideal(depth: int) -> list[float]:
    """``G(k) = Σ_{i <= k} 1 / log(i + 1)`` for ``k = 0 .. depth`` (the largest DCG of ``k`` hits)."""
    return [0.0, *itertools.accumulate(1.0 / math.log(i + 2) for i in range(depth))]


def _graded_sums(relevance: ItemLists | None, sizes: np.ndarray, relevant_keys: np.ndarray, keys: np.ndarray, position: np.ndarray, query: np.ndarray,
                 width: int, n: int, depth: int) -> np.ndarray:  # fmt: skip
    """At each ``k <= depth``, the exact sum over the queries with relevant items of how far the
    nDCG of their grades is from their nDCG of binary relevance (an item relevant twice takes its
    last grade, as Spark's map of them does; all grades 0: an nDCG of 0). Without ``relevance``
    (every grade 1) nothing: 0 at every ``k``."""
    if relevance is None:
        return in_units(np.zeros(depth))
    counts, grades = _flattened(relevance, "relevance")
    if not np.array_equal(counts, sizes) or (len(grades) and grades.dtype.kind not in "biuf"):
        raise InputLengthError("'relevance' must give one number per relevant item of each query")
    grades = grades.astype(np.float64)
    if not np.isfinite(grades).all():
        raise InvalidArgumentError(f"'relevance' must hold finite numbers, got {show(grades[~np.isfinite(grades)][:3])}")
    return exact_bincount(np.tile(np.arange(depth), n), (_ndcg(grades, relevant_keys, keys, position, query, width, n, depth)
                                                        - _ndcg(np.ones(len(grades)), relevant_keys, keys, position, query, width, n, depth)).ravel(), depth)  # fmt: skip


def _ndcg(grades: np.ndarray, relevant_keys: np.ndarray, keys: np.ndarray, position: np.ndarray, query: np.ndarray, width: int, n: int,
          depth: int) -> np.ndarray:  # fmt: skip
    """Each query's nDCG at ``k = 1 .. depth`` of ``grades`` (``n x depth``; 0 for a query without relevant items)."""
    order = np.argsort(relevant_keys, kind="stable")
    ordered, ordered_grades = relevant_keys[order], grades[order]
    last = np.concatenate((ordered[1:] != ordered[:-1], [True])) if len(ordered) else np.zeros(0, dtype=bool)  # each item's last grade
    items, item_grades = ordered[last], ordered_grades[last]
    gained, ideal = np.zeros((n, depth)), np.zeros((n, depth))
    if len(items) and len(keys):
        spot = np.minimum(np.searchsorted(items, keys), len(items) - 1)
        found = (items[spot] == keys) & (position < depth)
        np.add.at(gained, (query[found], position[found]), (2.0 ** item_grades[spot[found]] - 1) / np.log(position[found] + 2.0))
    owner = items // width
    best = np.lexsort((-item_grades, owner))  # each query's items, highest grade first
    rank = np.arange(len(items)) - np.searchsorted(owner[best], owner[best])
    kept = rank < depth
    np.add.at(ideal, (owner[best][kept], rank[kept]), (2.0 ** item_grades[best][kept] - 1) / np.log(rank[kept] + 2.0))
    dcg, idcg = np.cumsum(gained, axis=1), np.cumsum(ideal, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(idcg > 0, dcg / np.where(idcg > 0, idcg, 1.0), 0.0)


class RankedLists(SummedState):
    """Ranking measures at every depth ``k <= depth`` of ranked item lists against sets of
    relevant items, one pair per query (see the module for the formulas): a counted kind of
    exact sums, so it merges, takes a part away, writes JSON and counts in windows and folds.

    Args:
        depth: the largest ``k`` the sums are kept for.

    Attributes:
        n_queries: the queries counted.
        n_relevant_queries: those with at least one relevant item (where the measures are defined).
    """

    DOCUMENT = "RankedLists"
    SETTINGS, SUMS, SIGNED = ("depth",), ("_queries", "_hits", "_totals", "_graded"), frozenset({"_totals", "_graded"})  # (difference arrays: sums of either sign)

    def __init__(self, depth: int = 10) -> None:
        self.depth = check_depth(depth)
        self._queries = np.zeros(2, dtype=np.int64)  # the queries, and those with a relevant item
        self._hits = np.zeros(self.depth, dtype=np.int64)  # hits at each position
        self._totals = in_units(np.zeros(_Slots(self.depth).size))  # the exact sums (``_Slots``)
        self._graded = in_units(np.zeros(self.depth))  # at each k, the sum of how far the queries' nDCG of their grades is from the binary one

    OPERATIONS: ClassVar[frozenset[str]] = ALL_OPERATIONS - {"revert", "scale"}
    REFUSED: ClassVar[dict[str, str]] = {"revert": "take a part away instead: a - a.counted(...)",
                                         "scale": "each query counts once: ranked lists have no weights to scale (a window of the last queries has)"}  # fmt: skip

    @property
    def n_queries(self) -> int:
        """The queries counted."""
        return int(self._queries[0])

    @property
    def n_relevant_queries(self) -> int:
        """The queries with at least one relevant item."""
        return int(self._queries[1])

    @classmethod
    def from_lists(cls, predicted: ItemLists, relevant: ItemLists, *, depth: int = 10, relevance: ItemLists | None = None) -> RankedLists:
        """Count queries: ``predicted[q]`` the ranked items of query ``q`` (best first; an
        item may repeat, each time a hit), ``relevant[q]`` its relevant items (a set: repeats
        count once) and, for ``graded_ndcg_at``, ``relevance[q]`` their grades, one number
        each (by default 1). Vectorised over all the queries' items at once.

        Raises:
            InputLengthError: other numbers of queries in ``predicted`` and ``relevant``.
            InvalidArgumentError: ``depth`` not a whole number >= 1.
            MixedLabelTypesError: items that do not compare (numbers and strings).
        """
        lists = cls(depth)
        lists.update(predicted, relevant, relevance=relevance)
        return lists

    def _count(self, predicted: ItemLists, relevant: ItemLists, *, sample_weight: object = None, relevance: ItemLists | None = None) -> tuple[np.ndarray, ...]:
        """The sums of a batch of queries (each counts once: no weights)."""
        if sample_weight is not None:
            raise InvalidArgumentError(f"ranked lists count each query once: 'sample_weight' must be None, got {show(sample_weight)}")
        depth = self.depth
        lengths, items = _flattened(predicted, "predicted")
        sizes, wanted = _flattened(relevant, "relevant")
        n = len(lengths)
        if len(sizes) != n:
            raise InputLengthError(f"'predicted' has {n} queries but 'relevant' has {len(sizes)}")
        if items.size and wanted.size and (items.dtype.kind in "US") != (wanted.dtype.kind in "US"):
            raise MixedLabelTypesError(f"'predicted' holds {items.dtype} items and 'relevant' {wanted.dtype} ones, which do not compare")
        codes = _codes(np.concatenate((items, wanted)))
        width = int(codes.max()) + 1 if codes.size else 1
        query = np.repeat(np.arange(n, dtype=np.int64), lengths)
        truth = np.sort(np.repeat(np.arange(n, dtype=np.int64), sizes) * width + codes[len(items) :])
        truth = truth[np.concatenate(([True], truth[1:] != truth[:-1]))] if len(truth) else truth  # each (query, item) once
        n_relevant = np.bincount(truth // width, minlength=n)  # |R| of each query
        keys = query * width + codes[: len(items)]
        hit = truth[np.minimum(np.searchsorted(truth, keys), max(len(truth) - 1, 0))] == keys if len(truth) else np.zeros(len(keys), dtype=bool)
        starts = np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.int64)
        running = np.concatenate(([0], np.cumsum(hit)))
        position = np.arange(len(items)) - starts[query]  # 0-based
        found = (running[1:] - running[starts[query]])[hit]  # c_i at each hit
        at, owner = position[hit], query[hit]
        size = n_relevant[owner].astype(np.float64)
        precision = found / (at + 1.0)
        gain = 1.0 / np.log(at + 2.0)
        slots, values = _Slots(depth), []
        shallow = at < depth
        values.append((slots.recall + at[shallow], 1.0 / size[shallow]))
        values.append((np.full(len(at), slots.mean_average_precision), precision / size))
        ideal = np.array(_ideal(depth))
        for (within, beyond), value, scale in (
            ((slots.precision_within, slots.precision_beyond), precision, size),
            ((slots.gain_within, slots.gain_beyond), gain, ideal[np.minimum(n_relevant[owner], depth)]),
        ):
            first, last = at + 1, np.minimum(n_relevant[owner], depth)  # k in [i + 1, |R|]: divided by k (by G(k)) when read
            inside = first <= last
            values.append((within + first[inside], value[inside]))
            values.append((within + last[inside] + 1, -value[inside]))
            after = np.maximum(at, n_relevant[owner]) + 1  # k > |R|: divided by |R| (by G(|R|)) now
            deep = after <= depth
            values.append((beyond + after[deep], value[deep] / scale[deep]))
        index = np.concatenate([slot for slot, _ in values]).astype(np.int64)
        totals = exact_bincount(index, np.concatenate([value for _, value in values]).astype(np.float64), slots.size)
        hits = np.bincount(at[shallow], minlength=depth).astype(np.int64)
        graded = _graded_sums(relevance, sizes, np.repeat(np.arange(n, dtype=np.int64), sizes) * width + codes[len(items) :], keys, position, query, width, n, depth)
        return np.array([n, np.count_nonzero(n_relevant)], dtype=np.int64), hits, totals, graded

    # ----------------------------------------------------------------------------------------
    # reading

    def _sums(self, start: int, k: int) -> float:
        """The exact sum of slots ``start .. start + k`` (a difference array's value at ``k``,
        or recall's first ``k`` positions), rounded once."""
        return float(rounded_number(sum(self._totals[start : start + k + 1].tolist())))

    def _mean(self, total: float, undefined: UndefinedPolicy) -> Averaged:
        return mean_of_total(total, self.n_queries, self.n_relevant_queries, undefined=undefined)

    def _k(self, k: object) -> int:
        k = check_depth(k, "k")
        if k > self.depth:
            raise InvalidArgumentError(f"'k' must be at most the depth counted, {self.depth}, got {show(k)}: count with depth={k}")
        return k

    def precision_at(self, k: int, *, undefined: UndefinedPolicy = "exclude") -> Averaged:
        """Precision at ``k``: the mean share of relevant items among each query's first ``k``."""
        k = self._k(k)
        return self._mean(float(self._numbers("_hits")[:k].sum()) / k, undefined)

    def recall_at(self, k: int, *, undefined: UndefinedPolicy = "exclude") -> Averaged:
        """Recall at ``k``: the mean share of each query's relevant items among its first ``k``."""
        k = self._k(k)
        return self._mean(self._sums(_Slots(self.depth).recall, k - 1), undefined)

    def mean_average_precision(self, k: int | None = None, *, undefined: UndefinedPolicy = "exclude") -> Averaged:
        """MAP: the mean average precision of the whole lists, or at ``k``."""
        slots = _Slots(self.depth)
        if k is None:
            return self._mean(self._sums(slots.mean_average_precision, 0), undefined)
        k = self._k(k)
        return self._mean(self._sums(slots.precision_within, k) / k + self._sums(slots.precision_beyond, k), undefined)

    def graded_ndcg_at(self, k: int, *, undefined: UndefinedPolicy = "exclude") -> Averaged:
        """nDCG at ``k`` of graded relevance (Järvelin & Kekäläinen 2002): ``Σ_{i <= k} (2^{g_i} − 1) / log(i + 1)``
        over the same sum of the relevant items sorted by grade; a query whose grades are all 0
        counts 0. Spark's ``RankingMetrics.ndcgAt`` with relevance values divides by the DCG of
        the relevant items in the order given, the same when they come most relevant first.
        Without grades, ``ndcg_at``."""
        k = self._k(k)
        return self._mean(self._binary_ndcg_sum(k) + float(self._numbers("_graded")[k - 1]), undefined)

    def ndcg_at(self, k: int, *, undefined: UndefinedPolicy = "exclude") -> Averaged:
        """nDCG at ``k`` of binary relevance (natural logarithms; the ratio does not depend on the base)."""
        return self._mean(self._binary_ndcg_sum(self._k(k)), undefined)

    # ----------------------------------------------------------------------------------------
    # the counted-state protocol (derived from the declaration, SummedState)

    def _aligned(self, other: RankedLists, *, merging: bool = False) -> tuple[RankedLists, RankedLists]:
        if other.depth != self.depth:
            raise InvalidArgumentError(f"can only merge ranked lists of one depth: {self.depth} and {other.depth}")
        return self, other

    @classmethod
    def _read_document(cls, document: dict[str, Any], **options: object) -> RankedLists:
        hits = document.get("hits")
        if not isinstance(hits, list) or document.get("depth") != len(hits):
            raise serialization.FormatError(f"field 'depth' must be the length of 'hits', got {show(document.get('depth'))} and {show(hits)}")
        return super()._read_document(document if "graded" in document else {**document, "graded": [0] * len(hits)}, **options)  # (a build before grades: every grade 1)

    def _binary_ndcg_sum(self, k: int) -> float:
        """The sum over the queries of the nDCG at ``k`` of binary relevance."""
        slots = _Slots(self.depth)
        return self._sums(slots.gain_within, k) / _ideal(k)[k] + self._sums(slots.gain_beyond, k)

    def _invalid(self) -> str | None:
        """Queries and hits are whole numbers, a position hits at most once a query with relevant
        items; recall by position and MAP sum at most 1 a query, and every value of the
        difference arrays (their sums from the first position) is at least 0; no relevant
        query, no sum."""
        if self._queries.dtype.kind != "i" or self._hits.dtype.kind != "i":
            return "fields 'queries' and 'hits' must hold whole numbers"
        queries, relevant = self._queries.tolist()
        slots, unit, totals = _Slots(self.depth), UNIT, self._totals.tolist()
        recall = totals[slots.recall : slots.recall + self.depth]
        if not 0 <= relevant <= queries or self._hits.min(initial=0) < 0 or self._hits.max(initial=0) > relevant:
            return f"fields 'queries' and 'hits' must count hits of queries with relevant items, got {queries} queries, {relevant} relevant, hits {self._hits.tolist()}"
        if any(not 0 <= value <= relevant * unit for value in (*recall, totals[slots.mean_average_precision])):
            return "field 'totals' must hold recall and average precision of at most 1 a query with relevant items, and none below 0"
        for start in (slots.precision_within, slots.precision_beyond, slots.gain_within, slots.gain_beyond):
            if any(value < 0 for value in itertools.accumulate(totals[start : start + self.depth + 2])):
                return "field 'totals' must hold difference arrays whose values are never below 0"
        if not relevant and any(totals):
            return "field 'totals' must be 0 without a query with relevant items"
        graded = rounded_counts(self._graded).tolist()
        if any(not -1e-9 * (relevant + 1) <= self._binary_ndcg_sum(k) + graded[k - 1] <= relevant * (1 + 1e-9) + 1e-9 for k in range(1, self.depth + 1)):
            return "field 'graded' must hold sums of the queries' graded nDCG, each in [0, 1]"
        return None

    def __setstate__(self, state: dict[str, Any]) -> None:
        """A pickle of an earlier build (its sums as limbs, its counts as fields) loads too."""
        if "_limbs" in state:
            state = {"depth": state["depth"], "_queries": np.array([state["n_queries"], state["n_relevant_queries"]], dtype=np.int64),
                     "_hits": state["_hits"], "_totals": np.array(limbs_to_ints(state["_limbs"]), dtype=object)}  # fmt: skip
        self.__dict__.update(state)
        if "_graded" not in state:  # a pickle of a build before graded relevance: every grade 1, nothing from the binary nDCG
            self._graded = in_units(np.zeros(self.depth))

    def __repr__(self) -> str:
        return f"RankedLists(depth={self.depth}, queries={self.n_queries})"
