"""The points of threshold curves: counting a score column into cumulative counts at its
distinct scores (or at given thresholds), merging the points of several curves, and the areas
under them.

The arithmetic under ``ThresholdCurve`` (``evalkit._scores.curves``), which is its public face.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from evalkit._engine._exact import weighted_bincount
from evalkit._engine._validation import (
    check_numbers,
    show,
)
from evalkit._engine.cells import Cells
from evalkit.exceptions import (
    InvalidArgumentError,
)
from evalkit.measures._arithmetic import rescaled
from evalkit.measures._registry import Measure, MeasureLike

CURVE_AVERAGES = ("micro", "macro", "weighted")
"""The averages over classes of a curve's areas and measures."""

_BLOCK = 1 << 20
"""Entries (thresholds x classes) evaluated at once when averaging at common thresholds."""



def _sorted_counts(score: np.ndarray, positive: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int]:
    """Unweighted counts by two value sorts (no argsort): all scores, and the positives' scores.
    Each large array is allocated once and reused in place: on a machine that backs fresh
    memory with huge pages, every new array of millions costs as much as a pass over it."""
    n = len(score)
    ordered = np.sort(score)
    hits = score[positive]
    hits.sort()
    last = np.empty(n, dtype=bool)  # the last of each run of equal scores
    last[-1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=last[:-1])
    ends = np.flatnonzero(last)[::-1]  # highest first: every array below is written in the curve's order
    del last
    rising = ordered[ends]
    del ordered
    fp = np.empty(len(ends), dtype=np.intp)  # scores at or above each: n - (the next lower run's end + 1)
    fp[-1] = n
    np.subtract(n - 1, ends[1:], out=fp[:-1])
    del ends
    tp = np.searchsorted(hits, rising, "left")
    np.subtract(len(hits), tp, out=tp)
    fp -= tp
    return rising, tp, fp, len(hits), n - len(hits)


def _weighted_counts(score: np.ndarray, positive: np.ndarray, weight: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, Any, Any]:
    """Weighted counts: descending order, cumulative weights at the end of each run of ties."""
    order = np.argsort(score)[::-1]
    score, positive, weight = score[order], positive[order], weight[order]
    ends = np.append(np.flatnonzero(score[1:] != score[:-1]), len(score) - 1)
    zero = weight.dtype.type(0)
    tp = np.cumsum(np.where(positive, weight, zero))[ends]
    fp = np.cumsum(np.where(positive, zero, weight))[ends]
    return score[ends], tp, fp, tp[-1].item(), fp[-1].item()


_EXACT_FLOAT_INTEGERS = 2**53
"""Integers of larger magnitude are not all floats: they keep their integer type."""


def exact_scores(score: np.ndarray) -> np.ndarray:
    """Scores as float64, or as int64 when they are integers that float64 would round.

    Examples:
        >>> exact_scores(np.array([2**53, 2**53 + 1])).dtype.name, exact_scores(np.array([1, 2])).dtype.name
        ('int64', 'float64')
    """
    if score.dtype.kind in "iu" and score.size:
        high, low = int(score.max()), int(score.min())
        if max(high, -low) > _EXACT_FLOAT_INTEGERS:  # (unsigned ones of 2**63 or more stay unsigned: int64 holds none of them)
            return score.astype(np.int64) if high < 2**63 else score.astype(np.uint64)
    return score.astype(np.float64, copy=False)


def common_scores(parts: list[np.ndarray]) -> np.dtype:
    """The one type the thresholds of several curves are merged in, the type ``exact_scores``
    gives their scores counted at once: integers (int64, or uint64) where one part holds
    integer scores beyond 2**53 and every float threshold of the others is a whole number
    within 2**53 (what ``exact_scores`` makes of smaller integer scores) that type holds; else
    numpy's promotion (float64 beside any integers), as scores mixing integers with fractions,
    or int64 with uint64, are rounded to float64 when counted at once.

    Examples:
        >>> common_scores([np.array([2**60]), np.array([2.0, 1.0])]).name, common_scores([np.array([2**60]), np.array([0.5])]).name
        ('int64', 'float64')
    """
    whole = {part.dtype for part in parts if part.dtype.kind in "iu"}
    if len(whole) != 1:
        return np.result_type(*parts)
    kind = whole.pop()
    for part in parts:
        if part.dtype.kind == "f" and part.size:
            low, high = float(part.min()), float(part.max())
            if max(-low, high) > _EXACT_FLOAT_INTEGERS or not np.array_equal(np.floor(part), part) or (kind.kind == "u" and low < 0):
                return np.result_type(*parts)
    return kind


def _merged_runs(runs: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Thresholds of several parts (each sorted, highest first) merged: ``(order, last,
    common)``: the order of every part's thresholds in the merge, highest first (one stable
    sort of ascending runs: linear time), which of them is the last of a run of equal ones, and
    the common thresholds."""
    merged = np.concatenate([thresholds[::-1] for thresholds in runs])  # ascending runs
    order = np.argsort(merged, kind="stable")[::-1]
    merged.sort(kind="stable")  # in place: the values merged[order] holds, without a second array
    merged = merged[::-1]
    last = np.ones(len(merged), dtype=bool)
    last[:-1] = merged[1:] != merged[:-1]
    return order, last, merged[last]


def _running_sums(changes: list[np.ndarray], order: np.ndarray, last: np.ndarray, start: int | np.ndarray = 0) -> np.ndarray:
    """Quantities summed over parts at every common threshold (``_merged_runs``): ``changes[k]``
    holds part ``k``'s changes of its quantities (rows) at each of its thresholds, highest first,
    and ``start`` their sum before any threshold; between two common thresholds only the parts
    owning the lower one change, so each sum is a running sum of the parts' changes, in
    threshold order (one array of all changes, summed in place). ``changes`` is emptied once
    joined: its arrays are not held beside the sums (a micro curve of millions of points)."""
    joined = np.concatenate([change[..., ::-1] for change in changes], axis=-1)
    changes.clear()
    summed = joined[..., order]
    del joined
    np.cumsum(summed, axis=-1, out=summed)
    picked = summed[..., last]
    del summed
    return picked if isinstance(start, int) and start == 0 else start + picked


def _union_size(first: np.ndarray, second: np.ndarray, dtype: np.dtype) -> int:
    """How many distinct thresholds two parts (each distinct and descending) have together: one
    stable sort of two ascending runs (linear time)."""
    merged = np.concatenate((first[::-1].astype(dtype, copy=False), second[::-1].astype(dtype, copy=False)))  # (each cast, not their promotion)
    merged.sort(kind="stable")
    return len(merged) - int(np.count_nonzero(merged[1:] == merged[:-1]))


def _union_arrays(pairs: list[tuple[tuple, tuple]], counts: np.dtype | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Zeroed ``(thresholds, tp, fp)`` for the unions of pairs of parts ``(thresholds, tp, fp)``,
    one after the other, with the offsets of each union (``_fill_union`` writes them): the common
    type of the pairs' thresholds and of their counts (or ``counts``). Sized first, so that a
    merge holds its result once, not once in parts and once joined."""
    scores = common_scores([part[0] for pair in pairs for part in pair])
    if counts is None:
        counts = np.result_type(*(count for pair in pairs for part in pair for count in part[1:]))
    offsets = np.concatenate(([0], np.cumsum([_union_size(first[0], second[0], scores) for first, second in pairs]))).astype(np.int64)
    return np.zeros(offsets[-1], dtype=scores), np.zeros(offsets[-1], dtype=counts), np.zeros(offsets[-1], dtype=counts), offsets


def _fill_union(first: tuple, second: tuple, out: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
    """Write two parts' ``(thresholds, tp, fp)`` summed at the union of their thresholds
    (``_merged_runs``) into ``out`` (zeroed, of the union's length): a part's counts at a
    threshold are those at its lowest own threshold at or above it (exact counts stay exact)."""
    thresholds, tp, fp = out
    order, last, thresholds[:] = _merged_runs([part[0].astype(thresholds.dtype, copy=False) for part in (first, second)])
    from_first = order < len(first[0])
    del order
    above_first = np.cumsum(from_first, dtype=np.int32 if len(from_first) < 2**31 else np.int64)[last]  # the first part's thresholds at or above each
    del from_first
    above_second = np.flatnonzero(last)  # the second's: the rest of those at or above each
    above_second += 1
    above_second -= above_first
    for (_, own_tp, own_fp), above in ((first, above_first), (second, above_second)):
        zero = np.zeros(1, dtype=own_tp.dtype)
        tp += np.concatenate((zero, own_tp))[above]
        fp += np.concatenate((zero, own_fp))[above]


def _snapped(running: np.ndarray, total: float, terms: int) -> np.ndarray:
    """Running sums of ``terms`` float increments within their rounding bound of 0 or of
    ``total`` set to exactly that (a class with no positive left at a threshold has none,
    not 1e-15 of one)."""
    bound = 2.0 * terms * np.finfo(np.float64).eps * abs(float(total))
    return np.where(np.abs(running) <= bound, 0.0, np.where(np.abs(total - running) <= bound, total, running))


def _exact_column(score: np.ndarray, positive: np.ndarray, weight: np.ndarray | None) -> tuple:
    """Thresholds (distinct scores, descending), tp and fp at each, and the class sizes.
    Integer scores beyond 2**53 (timestamps, ids) are sorted as integers: as float64 distinct
    ones would tie."""
    score = exact_scores(np.asarray(score))
    if weight is not None and not weight.all():  # a sample of weight 0 makes no threshold
        kept = weight > 0
        score, positive, weight = score[kept], positive[kept], weight[kept]
    if len(score) == 0:
        empty = np.zeros(0, dtype=np.int64 if weight is None else weight.dtype)
        return np.zeros(0), empty, empty.copy(), 0, 0
    if weight is None:
        return _sorted_counts(score, positive)
    return _weighted_counts(score, positive, weight)


def _even_search(edges: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``np.searchsorted(edges, values, side="right")`` (how many edges are ``<= value``) for
    ascending finite edges, found by arithmetic when they are evenly spaced (a grid of
    thresholds): each value's place from its distance to the first edge, then moved by one
    where a comparison with its neighbouring edges says rounding put it off. Every edge lies
    within a quarter step of its place on the line, so no place is off by more than one. A
    search of a grid of 1,000 thresholds costs ten comparisons a value; this, two.

    Examples:
        >>> _even_search(np.array([0.0, 0.25, 0.5, 0.75, 1.0]), np.array([-1.0, 0.0, 0.3, 0.75, 2.0])).tolist()
        [0, 1, 2, 4, 5]
    """
    n = len(edges)
    step = (edges[-1] - edges[0]) / (n - 1) if n > 2 else 0.0
    if not (step > 0 and np.isfinite(step)) or np.abs(edges - (edges[0] + step * np.arange(n))).max() > step / 4 or np.isnan(values).any():
        return np.searchsorted(edges, values, side="right")
    padded = np.concatenate(([-np.inf], edges, [np.nan]))  # the place p of a value: padded[p] <= value < padded[p + 1] (NaN: none past the last)
    with np.errstate(over="ignore"):
        estimate = values - edges[0]
        estimate *= 1 / step
    np.floor(estimate, out=estimate)
    np.clip(estimate, -1, n - 1, out=estimate)
    place = estimate.astype(np.intp)
    place += 1
    place += padded[1:][place] <= values  # (padded[1:][p] is padded[p + 1])
    place -= padded[place] > values
    return place


def _binned_column(score: np.ndarray, positive: np.ndarray, weight: np.ndarray | None, grid: np.ndarray) -> tuple:
    """Counts at the thresholds of ``grid`` (descending, ending with -inf) by one bucketing:
    no samples x thresholds array."""
    score = np.asarray(score, dtype=np.float64)
    key = _even_search(grid[-2::-1], score)  # how many finite thresholds are <= score: its rank from the end (grid[-1] is -inf)
    key *= -2
    key += 2 * len(grid) - 2
    key += positive  # 2 (the highest grid threshold <= score) + positive: both classes in one count
    counts = weighted_bincount(key, weight, 2 * len(grid)).reshape(-1, 2)
    tp, fp = np.cumsum(counts[:, 1]), np.cumsum(counts[:, 0])
    return grid, tp, fp, tp[-1].item(), fp[-1].item()


_FEW_CLASSES = 8
"""Up to this many classes an average at every threshold reads every class there; beyond, it
follows each class's changes (``_averaged_by_events``)."""

_FILL_VALUES = {"zero": 0.0, "one": 1.0}

MAX_THRESHOLDS = 1 << 24
"""The most points a binned curve may hold: thresholds times classes (its memory is O(thresholds x classes))."""


def _joined(arrays: list[np.ndarray]) -> np.ndarray:
    """The parts' arrays one after the other; one part's array is kept as it is when it owns
    its memory (an array the counting made, not a view of an input): a curve of millions of
    points is not copied once more to be stored.

    Examples:
        >>> made = np.arange(3); _joined([made]) is made, _joined([made[::-1]]) is made
        (True, False)
    """
    if len(arrays) == 1 and arrays[0].base is None and arrays[0].flags.c_contiguous:
        return arrays[0]
    return np.concatenate(arrays)


def _grid(thresholds: Any) -> np.ndarray:
    """Given thresholds as a descending grid that ends with -inf (every sample predicted positive)."""
    if isinstance(thresholds, (int, np.integer)) and not isinstance(thresholds, (bool, np.bool_)):
        if not 2 <= thresholds <= MAX_THRESHOLDS:
            raise InvalidArgumentError(f"'thresholds' as a number must be in 2..{MAX_THRESHOLDS:,} (evenly spaced in [0, 1]), got {thresholds}")
        grid = np.round(np.linspace(0.0, 1.0, int(thresholds)), 12)  # 0.6, not 0.6000000000000001
    else:
        grid = check_numbers("thresholds", thresholds)
        if grid.ndim != 1 or grid.size == 0 or np.isnan(grid).any():
            raise InvalidArgumentError(f"'thresholds' must be a non-empty 1-D sequence of numbers (no NaN), got {show(thresholds)}")
    grid = np.unique(grid)
    if grid[0] != -np.inf:
        grid = np.concatenate(([-np.inf], grid))
    return grid[::-1].copy()


def _blocks(tp: np.ndarray, fp: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """tp and fp as float64 in blocks of ``_BLOCK`` points, each with the point before it in
    front (``(0, 0)`` before the first): an area is a sum over the points, and a curve of
    millions of points needs no million-point temporaries."""
    for start in range(0, len(tp), _BLOCK):
        stop = min(start + _BLOCK, len(tp))
        if start:
            yield np.asarray(tp[start - 1 : stop], dtype=np.float64), np.asarray(fp[start - 1 : stop], dtype=np.float64)
        else:
            yield np.concatenate(([0.0], np.asarray(tp[:stop], dtype=np.float64))), np.concatenate(([0.0], np.asarray(fp[:stop], dtype=np.float64)))


def _auc(tp: np.ndarray, fp: np.ndarray, positives: float, negatives: float) -> float:
    """Area under the ROC curve of the points ``(fp/N, tp/P)`` from ``(0, 0)``, by the trapezoid
    rule on the counts (one division at the end); NaN without positives or negatives."""
    if positives == 0 or negatives == 0:
        return float("nan")
    total, scaled_positives, scaled_negatives = 0.0, positives, negatives
    for block_tp, block_fp in _blocks(tp, fp):
        block_tp, scaled_positives = rescaled(block_tp, np.float64(positives))  # weights of 1e160: no overflow
        block_fp, scaled_negatives = rescaled(block_fp, np.float64(negatives))
        total += float(np.dot(np.diff(block_fp), block_tp[1:] + block_tp[:-1]))
    return total / (2.0 * float(scaled_positives) * float(scaled_negatives))


def _partial_auc(fpr: np.ndarray, tpr: np.ndarray, max_fpr: float) -> float:
    """McClish's standardised partial AUC up to ``max_fpr`` (0.5 for chance, 1 for perfection)."""
    stop = np.searchsorted(fpr, max_fpr, "right")
    tpr = np.append(tpr[:stop], np.interp(max_fpr, fpr[stop - 1 : stop + 1], tpr[stop - 1 : stop + 1]))
    fpr = np.append(fpr[:stop], max_fpr)
    area = float(np.trapezoid(tpr, fpr))
    low, high = 0.5 * max_fpr**2, max_fpr
    return 0.5 * (1 + (area - low) / (high - low))


def _average_precision(tp: np.ndarray, fp: np.ndarray, positives: float) -> float:
    """``Σ (R_k - R_{k-1}) P_k`` over the thresholds (the step-wise sum, not the trapezoid)."""
    if positives == 0:
        return float("nan")
    # no product of two counts: the precision first (a ratio of one threshold's counts), then times the recall gained, so that
    # positives of 1e-300 beside negatives of 1e300 need no common scale (one would leave the positives 0); a scale only
    # where tp + fp could overflow
    shift = -4 if max(float(positives), float(fp[-1]) if len(fp) else 0.0) > 2.0**1019 else 0
    total = 0.0
    for block_tp, block_fp in _blocks(tp, fp):
        block_tp, block_fp = np.ldexp(block_tp, shift), np.ldexp(block_fp, shift)
        gained = np.diff(block_tp)
        with np.errstate(invalid="ignore", divide="ignore"):
            precision = block_tp[1:] / (block_tp[1:] + block_fp[1:])
        total += float(np.where(gained > 0, gained * precision, 0.0).sum())
    return max(0.0, total / math.ldexp(float(positives), shift))


def _turned_round(scores: np.ndarray, score_sum: float) -> np.ndarray:
    """``score_sum - scores`` (ascending scores give descending ones): integer scores beyond
    2**53 stay integers when ``score_sum`` is one and nothing overflows."""
    if scores.dtype.kind in "iu" and float(score_sum).is_integer() and scores.size:
        total = int(score_sum)
        if -(2**63) <= total - int(scores.max()) and total - int(scores.min()) < 2**63:
            return np.int64(total) - scores.astype(np.int64)
    return exact_scores(np.float64(score_sum) - scores.astype(np.float64))


class CurveFields:
    """The fields of a ``ThresholdCurve`` and its reading of one class, which every part of
    the curve (``CurveAreas``, ``CurveOperatingPoints``) builds on; declared here for type
    checkers, defined by ``ThresholdCurve``."""

    __slots__ = ()

    if TYPE_CHECKING:
        labels: tuple
        positives: np.ndarray
        negatives: np.ndarray
        binned: bool
        negative_label: Any
        metrics_class: Any
        _thresholds: np.ndarray
        _tp: np.ndarray
        _fp: np.ndarray
        _offsets: np.ndarray

        def _class(self, label: Hashable) -> int: ...
        def _part(self, j: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...
        def _cells(self, j: int) -> Cells: ...
        def _counts_at(self, j: int, query: np.ndarray) -> tuple[np.ndarray, np.ndarray]: ...
        def common_thresholds(self) -> np.ndarray: ...
        def measure(self, measure: MeasureLike, metrics_class: type[Any] | None = None) -> Measure: ...
        def micro(self) -> Any: ...
        def score_counts(self, label: Hashable = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...
