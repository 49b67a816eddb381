"""Threshold curves: the cells of every one-vs-rest problem at every distinct score, from one sort.

Scores become predictions at a threshold ``t``: a sample is predicted positive when
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
  whatever the data, mergeable batch by batch (``+``, ``evalkit.streaming.CurveCounts``,
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
from collections.abc import Hashable, Iterator, Sequence
from itertools import combinations
from typing import Any, NamedTuple

import attrs
import numpy as np

from evalkit.engine._exact import weighted_bincount, weighted_sum
from evalkit.engine._labels import check_one_label, column_labels, label_position, same_labels
from evalkit.engine._validation import (
    as_array,
    check_choice,
    check_matrix,
    check_numbers,
    check_sample_weight,
    read_only,
    same_fields,
    show,
)
from evalkit.engine.cells import Cells
from evalkit.engine.counting import PairCounts, encode, indicator_rows, is_label_set_data
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
from evalkit.measures.averaging import (
    Averaged,
    average_rows,
    check_undefined,
    mean_of,
    mean_rows,
    support_weights,
)
from evalkit.measures.formulas import rescaled
from evalkit.measures.metrics_class import (
    MetricsClass,
    check_metrics_class,
    merged_metrics_class,
    metrics_class_for,
)
from evalkit.measures.registry import Measure, check_measure_parameters, resolve_measure, spelling
from evalkit.results import intervals
from evalkit.results.base import CellsResult
from evalkit.results.confusion_matrix import ConfusionMatrix
from evalkit.results.rendering import ReportFace
from evalkit.scores import operating
from evalkit.scores.curve_state import CurveState

__all__ = ["CURVE_AVERAGES", "BestThreshold", "ThresholdCells", "ThresholdCurve", "one_vs_one_roc_auc"]

CURVE_AVERAGES = ("micro", "macro", "weighted")
"""The averages over classes of a curve's areas and measures."""

_BLOCK = 1 << 20
"""Entries (thresholds x classes) evaluated at once when averaging at common thresholds."""


AREAS = {"roc_auc": "roc auc", "average_precision": "ap"}
"""The areas of a curve that reports show as columns -> their short titles."""

AREA_SPELLINGS = {"auc": "roc_auc", "auroc": "roc_auc", "roc_area": "roc_auc", "ap": "average_precision", "prc_area": "average_precision"}
"""Other spellings of the areas (as ``spelling`` writes a name) -> their names in ``AREAS``."""


def area_key(asked: Any) -> str | None:
    """The area a name stands for (``"AUC"`` is ``"roc_auc"``), or None for a name of no area.

    Examples:
        >>> area_key("AUC"), area_key("average_precision"), area_key("recall")
        ('roc_auc', 'average_precision', None)
    """
    if not isinstance(asked, str):
        return None
    key = AREA_SPELLINGS.get(spelling(asked), spelling(asked))
    return key if key in AREAS else None


class BestThreshold(NamedTuple):
    """The threshold that optimises a measure, the value there, and the measure's name.

    Per-class results (a curve of several classes, no ``label`` or ``average``) hold one
    threshold and one value per class.
    """

    threshold: Any
    value: Any
    measure: str


# --------------------------------------------------------------------------------------------
# inputs: scores per column, and which samples are positive for each


@attrs.frozen
class ScoreColumns:
    """Scores per column and the positives of each column's one-vs-rest problem."""

    scores: np.ndarray  # n x m
    labels: tuple
    weight: np.ndarray | None
    negative_label: Any = None
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


def _score_matrix(y_score: Any, name: str = "y_score", finite: bool = True) -> np.ndarray:
    scores = as_array(y_score, name)
    if scores.dtype.kind not in "biuf":
        raise InvalidTypeError(f"{name!r} must hold numbers, got dtype {scores.dtype}: {show(scores)}")
    if scores.ndim not in (1, 2):
        raise InputShapeError(f"{name!r} must be 1-D (binary) or 2-D (samples x labels), got shape {scores.shape}")
    if finite and scores.dtype.kind == "f" and not np.isfinite(scores).all():
        raise InvalidValueError(f"{name!r} must be finite, got {show(scores[~np.isfinite(scores)][:3])}")
    return scores


def _default_negative(positive: Any) -> Any:
    """The other class of a binary problem whose data show only the positive one."""
    if isinstance(positive, (bool, np.bool_)):
        return not positive
    if isinstance(positive, (int, float, np.number)):
        return 0 if positive != 0 else 1
    return f"not {positive}" if isinstance(positive, str) else None


def _binary_classes(y_true: Any, n: int, name: str = "y_score") -> tuple[tuple, np.ndarray | None, np.ndarray | None]:
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


def _binary_columns(y_true: Any, scores: np.ndarray, pos_label: Any, weight: np.ndarray | None, name: str = "y_score") -> ScoreColumns:
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
    y_true: Any, y_score: Any, labels: Sequence[Hashable] | None, pos_label: Any, sample_weight: Any, name: str = "y_score",
    finite: bool = True,
) -> ScoreColumns:
    """Scores and positives of every one-vs-rest problem (the one entry point for score data)."""
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


def _sorted_counts(score: np.ndarray, positive: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int]:
    """Unweighted counts by two value sorts (no argsort): all scores, and the positives' scores."""
    n = len(score)
    ordered = np.sort(score)
    hits = np.sort(score[positive])
    last = np.empty(n, dtype=bool)  # the last of each run of equal scores
    last[-1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=last[:-1])
    ends = np.flatnonzero(last)
    rising = ordered[ends]
    at_or_above = n - np.concatenate(([0], ends[:-1] + 1))
    tp = len(hits) - np.searchsorted(hits, rising, "left")
    return rising[::-1], tp[::-1], (at_or_above - tp)[::-1], len(hits), n - len(hits)


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
        if max(high, -low) > _EXACT_FLOAT_INTEGERS and high < 2**63:
            return score.astype(np.int64)
    return score.astype(np.float64, copy=False)


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


def _running_sums(changes: list[np.ndarray], order: np.ndarray, last: np.ndarray, start: Any = 0) -> np.ndarray:
    """Quantities summed over parts at every common threshold (``_merged_runs``): ``changes[k]``
    holds part ``k``'s changes of its quantities (rows) at each of its thresholds, highest first,
    and ``start`` their sum before any threshold; between two common thresholds only the parts
    owning the lower one change, so each sum is a running sum of the parts' changes, in
    threshold order (one array of all changes, summed in place)."""
    summed = np.concatenate([change[..., ::-1] for change in changes], axis=-1)[..., order]
    np.cumsum(summed, axis=-1, out=summed)
    return start + summed[..., last]


def _union_size(first: np.ndarray, second: np.ndarray, dtype: np.dtype) -> int:
    """How many distinct thresholds two parts (each distinct and descending) have together: one
    stable sort of two ascending runs (linear time)."""
    merged = np.concatenate((first[::-1], second[::-1])).astype(dtype, copy=False)
    merged.sort(kind="stable")
    return len(merged) - int(np.count_nonzero(merged[1:] == merged[:-1]))


def _union_arrays(pairs: list[tuple[tuple, tuple]]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Zeroed ``(thresholds, tp, fp)`` for the unions of pairs of parts ``(thresholds, tp, fp)``,
    one after the other, with the offsets of each union (``_fill_union`` writes them): the common
    type of the pairs' thresholds and of their counts. Sized first, so that a merge holds its
    result once, not once in parts and once joined."""
    scores = np.result_type(*(part[0] for pair in pairs for part in pair))
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
    above_first = np.cumsum(from_first)[last]  # the first part's thresholds at or above each
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


def _binned_column(score: np.ndarray, positive: np.ndarray, weight: np.ndarray | None, grid: np.ndarray) -> tuple:
    """Counts at the thresholds of ``grid`` (descending, ending with -inf) by one bucketing:
    no samples x thresholds array."""
    score = np.asarray(score, dtype=np.float64)
    rank = len(grid) - np.searchsorted(grid[::-1], score, side="right")  # the highest grid threshold <= score
    tp = np.cumsum(weighted_bincount(rank[positive], None if weight is None else weight[positive], len(grid)))
    fp = np.cumsum(weighted_bincount(rank[~positive], None if weight is None else weight[~positive], len(grid)))
    return grid, tp, fp, tp[-1].item(), fp[-1].item()


_FEW_CLASSES = 8
"""Up to this many classes an average at every threshold reads every class there; beyond, it
follows each class's changes (``_averaged_by_events``)."""

_FILL_VALUES = {"zero": 0.0, "one": 1.0}

MAX_THRESHOLDS = 1 << 24
"""The most points a binned curve may hold: thresholds times classes (its memory is O(thresholds x classes))."""


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


def _auc(tp: np.ndarray, fp: np.ndarray, positives: Any, negatives: Any) -> float:
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


def _average_precision(tp: np.ndarray, fp: np.ndarray, positives: Any) -> float:
    """``Σ (R_k - R_{k-1}) P_k`` over the thresholds (the step-wise sum, not the trapezoid)."""
    if positives == 0:
        return float("nan")
    total, scaled_positives = 0.0, positives
    for block_tp, block_fp in _blocks(tp, fp):  # scaled by the largest count, N or P, in every block alike
        block_tp, block_fp, scaled_positives, _ = rescaled(block_tp, block_fp, np.float64(positives), np.float64(fp[-1]))
        gained = np.diff(block_tp)
        with np.errstate(invalid="ignore", divide="ignore"):
            total += float(np.where(gained > 0, gained * block_tp[1:] / (block_tp[1:] + block_fp[1:]), 0.0).sum())
    return max(0.0, total / float(scaled_positives))


def _turned_round(scores: np.ndarray, score_sum: Any) -> np.ndarray:
    """``score_sum - scores`` (ascending scores give descending ones): integer scores beyond
    2**53 stay integers when ``score_sum`` is one and nothing overflows."""
    if scores.dtype.kind in "iu" and float(score_sum).is_integer() and scores.size:
        total = int(score_sum)
        if -(2**63) <= total - int(scores.max()) and total - int(scores.min()) < 2**63:
            return np.int64(total) - scores.astype(np.int64)
    return exact_scores(np.float64(score_sum) - scores.astype(np.float64))


# --------------------------------------------------------------------------------------------
# the curve


@attrs.frozen(eq=False)
class ThresholdCurve(CurveState):
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
    negative_label: Any = attrs.field(default=None, repr=False)
    metrics_class: MetricsClass = attrs.field(default=None, converter=check_metrics_class, repr=False)

    # ----------------------------------------------------------------------------------------
    # building

    @classmethod
    def from_scores(
        cls,
        y_true: Any,
        y_score: Any,
        labels: Sequence[Hashable] | None = None,
        *,
        pos_label: Any = None,
        sample_weight: Any = None,
        thresholds: Any = None,
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
    def from_score_columns(cls, columns: ScoreColumns, *, thresholds: Any = None, metrics_class: MetricsClass | None = None) -> ThresholdCurve:
        """The curve of checked score columns (``score_columns``; ``from_scores`` checks the
        inputs and calls this)."""
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
            if grid is None:
                parts.append(_exact_column(score, positive, columns.weight))
            else:
                parts.append(_binned_column(score, positive, columns.weight, grid))
        return cls._assemble(columns.labels, parts, binned=grid is not None, negative_label=columns.negative_label, metrics_class=maker)

    @classmethod
    def from_score_counts(
        cls, parts: Sequence[tuple[Any, Any, Any]], labels: Sequence[Hashable], *, negative_label: Any = None,
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
            scores = check_numbers("scores", scores)
            counts = [np.asarray(values) for values in (positives, negatives)]
            if scores.ndim != 1 or any(values.shape != scores.shape for values in counts):
                raise InvalidArgumentError(f"the part of {label!r} needs 1-D scores, positives and negatives of one length")
            if not np.isfinite(scores).all() or np.any(np.diff(scores) <= 0):
                raise InvalidArgumentError(f"the scores of {label!r} must be finite and strictly increasing, got {show(scores)}")
            if any(values.dtype.kind not in "biuf" or (values.size and values.min() < 0) for values in counts):
                raise InvalidArgumentError(f"the counts of {label!r} must be numbers >= 0, got {show(counts)}")
            tp, fp = (np.cumsum(values[::-1]) for values in counts)
            assembled.append((scores[::-1], tp, fp, tp[-1].item() if len(tp) else 0, fp[-1].item() if len(fp) else 0))
        return cls._assemble(labels, assembled, binned=False, negative_label=negative_label, metrics_class=check_metrics_class(metrics_class))

    @classmethod
    def _assemble(
        cls, labels: tuple, parts: list[tuple], *, binned: bool, negative_label: Any = None, metrics_class: Any = None
    ) -> ThresholdCurve:
        """A curve from per-class ``(thresholds, tp, fp, P, N)``."""
        lengths = [len(part[0]) for part in parts]
        counts_dtype = np.float64 if any(np.asarray(count).dtype.kind == "f" for part in parts for count in part[1:]) else np.int64
        return cls(
            tuple(labels),
            exact_scores(np.concatenate([part[0] for part in parts])),
            np.concatenate([part[1] for part in parts]).astype(counts_dtype, copy=False),
            np.concatenate([part[2] for part in parts]).astype(counts_dtype, copy=False),
            np.concatenate(([0], np.cumsum(lengths))).astype(np.int64),
            np.array([part[3] for part in parts], dtype=counts_dtype),
            np.array([part[4] for part in parts], dtype=counts_dtype),
            binned,
            negative_label,
            metrics_class,
        )

    # ----------------------------------------------------------------------------------------
    # one class

    def _class(self, label: Any) -> int:
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

    def thresholds(self, label: Any = None) -> np.ndarray:
        """The thresholds of a class's curve, highest first (its distinct scores, or the given
        thresholds of a binned curve)."""
        return self._part(self._class(label))[0]

    def score_counts(self, label: Any = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each distinct score of a class, lowest first, with the weight of the class's
        positives and of its negatives scored exactly there (a binned curve: at or above the
        threshold and below the next one).

        Examples:
            >>> ThresholdCurve.from_scores([0, 1, 1, 0], [0.2, 0.9, 0.2, 0.4]).score_counts()
            (array([0.2, 0.4, 0.9]), array([1, 0, 1]), array([1, 1, 0]))
        """
        thresholds, tp, fp = self._part(self._class(label))
        return thresholds[::-1], np.diff(tp, prepend=0)[::-1], np.diff(fp, prepend=0)[::-1]

    def cells(self, label: Any = None) -> Cells:
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

    def measure(self, measure: Any, metrics_class: type[Any] | None = None) -> Measure:
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
    # any measure at every threshold

    def evaluate(
        self,
        measure: Any,
        label: Any = None,
        *,
        average: str | None = None,
        undefined: Any = "exclude",
        metrics_class: type[Any] | None = None,
        **parameters: Any,
    ) -> tuple[np.ndarray, np.ndarray]:
        """A measure at every threshold: ``(values, thresholds)``, highest threshold first.

        Args:
            measure: a measure name (any spelling; a getter of the curve's metrics class too),
                a ``Measure``, or a vectorised function of ``tp, fp, fn, tn``.
            label: the class (needed when the curve has several and no ``average``).
            average: ``"micro"``, ``"macro"`` or ``"weighted"``: the average over classes at
                every threshold of any class (``common_thresholds``).
            undefined: the undefined-value policy of the average.
            metrics_class: a ``ClassificationMetrics`` subclass to look names up in, instead
                of the curve's own.
            **parameters: parameters of the measure (``beta=2``).

        Examples:
            >>> curve = ThresholdCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
            >>> values, thresholds = curve.evaluate("accuracy")
            >>> values.tolist()
            [0.75, 0.5, 0.75, 0.5]
        """
        resolved = self.measure(measure, metrics_class)
        check_measure_parameters(resolved, parameters)
        if average is None:
            j = self._class(label)
            return np.asarray(self._cells(j).evaluate(resolved, **parameters), dtype=np.float64), self._part(j)[0]
        if label is not None:
            raise InvalidArgumentError("give 'label' (one class) or 'average' (over all classes), not both")
        check_choice("average", average, CURVE_AVERAGES)
        m = len(self.labels)
        if m > _FEW_CLASSES and not self.binned:
            return self._averaged_by_events(resolved, average, check_undefined(undefined), parameters)
        thresholds = self.common_thresholds()
        values = np.empty(len(thresholds))
        step = max(1, _BLOCK // m)
        for start in range(0, len(thresholds), step):
            query = thresholds[start : start + step]
            counts = [self._counts_at(j, query) for j in range(m)]
            tp = np.stack([c[0] for c in counts], axis=1)
            fp = np.stack([c[1] for c in counts], axis=1)
            cells = Cells(tp, fp, self.positives - tp, self.negatives - fp)
            values[start : start + step] = average_rows(resolved, cells, average, undefined=undefined, parameters=parameters)
        return values, thresholds

    def _averaged_by_events(self, measure: Measure, average: str, policy: str, parameters: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
        """``evaluate`` with an average over many classes, in time proportional to the
        thresholds of all classes (not thresholds times classes): the sums a macro or weighted
        average needs are running sums of each class's changes (``_running_sums``); the micro
        average is the measure on ``micro()``."""
        if average == "micro":  # the one curve of every class's cells summed
            micro = self.micro()
            return np.asarray(micro._cells(0).evaluate(measure, **parameters), dtype=np.float64), micro._part(0)[0]
        positives, negatives = self.positives, self.negatives
        parts = [self._part(j) for j in range(len(self.labels))]
        states = []  # per class, rows of its quantities: before its first threshold, then after each
        for j, (_, tp, fp) in enumerate(parts):
            tp = np.concatenate(([0], tp)).astype(np.result_type(tp, positives.dtype))
            fp = np.concatenate(([0], fp)).astype(np.result_type(fp, negatives.dtype))
            value = np.asarray(Cells(tp, fp, positives[j] - tp, negatives[j] - fp).evaluate(measure, **parameters), dtype=np.float64)
            defined = ~np.isnan(value)
            filled = np.where(defined, value, _FILL_VALUES.get(policy, 0.0))
            counted = defined if policy == "exclude" else np.ones(len(value), dtype=bool)
            weight = float(positives[j])
            states.append(np.stack([counted * filled, counted * 1.0, counted * weight * filled, counted * (weight > 0) * 1.0, ~defined * 1.0,
                                    counted * weight, ~defined * (weight > 0) * 1.0]))  # fmt: skip
        order, last, thresholds = _merged_runs([part[0] for part in parts])
        sums = _running_sums([np.diff(state, axis=1) for state in states], order, last, start=np.sum([state[:, :1] for state in states], axis=0))
        total, count, weighted, supported, undefined, weights, undefined_supported = sums
        with np.errstate(divide="ignore", invalid="ignore"):
            if average == "macro":
                values = np.where(count > 0, total / count, np.nan)
            else:  # by support; equal weights where no class that counts has any (as support_weights does)
                values = np.where(supported > 0, weighted / weights, np.where(count > 0, total / count, np.nan))
        if policy == "nan":  # a weighted average leaves out classes of no support, unless no class has any
            relevant = undefined_supported if average == "weighted" and (positives > 0).any() else undefined
            values = np.where(relevant > 0, np.nan, values)
        return values, thresholds

    def best_threshold(
        self,
        measure: Any,
        label: Any = None,
        *,
        average: str | None = None,
        undefined: Any = "exclude",
        metrics_class: type[Any] | None = None,
        **parameters: Any,
    ) -> BestThreshold:
        """The threshold where a measure is best (highest, or lowest for a loss) and its value.

        Predict positive when ``score >= threshold``. Among equally good thresholds the highest
        is chosen; thresholds where the measure is undefined are skipped (NaN when it is
        undefined everywhere). A curve of several classes without ``label`` or ``average``
        gives one threshold per class (usable as ``at(thresholds)`` or
        ``Evaluation.from_scores(..., threshold=thresholds)``).

        Raises:
            InvalidArgumentError: the measure has no direction (prevalence).

        Examples:
            >>> ThresholdCurve.from_scores([0, 1, 1, 0, 1], [0.1, 0.8, 0.6, 0.7, 0.3]).best_threshold("accuracy")
            BestThreshold(threshold=0.3, value=0.8, measure='accuracy')
        """
        resolved = self.measure(measure, metrics_class)
        if resolved.direction not in ("higher", "lower"):
            raise InvalidArgumentError(f"{resolved.name!r} has no direction (neither higher nor lower is better): nothing to optimise")
        pick = np.nanargmax if resolved.direction == "higher" else np.nanargmin

        def best(values: np.ndarray, thresholds: np.ndarray) -> tuple[float, float]:
            if np.isnan(values).all():
                return float("nan"), float("nan")
            k = int(pick(values))
            return float(thresholds[k]), float(values[k])

        if label is None and average is None and len(self.labels) > 1:
            found = [best(*self.evaluate(resolved, own, **parameters)) for own in self.labels]
            return BestThreshold(np.array([f[0] for f in found]), np.array([f[1] for f in found]), resolved.name)
        values, thresholds = self.evaluate(resolved, label, average=average, undefined=undefined, **parameters)
        return BestThreshold(*best(values, thresholds), resolved.name)

    # ----------------------------------------------------------------------------------------
    # operating points: the best threshold under constraints

    def _candidate_blocks(self, label: Any, average: str | None) -> Iterator[tuple[np.ndarray, Cells]]:
        """The thresholds an operating point is chosen among, highest first, in blocks with the
        cells there (one column per class for an average): ``inf`` (nothing positive) alone,
        then every threshold of the class (or every common one, for an average). Blocks keep
        the memory of a choice over millions of scores at a block's."""
        if average is None:
            j = self._class(label)
            thresholds, tp, fp = self._part(j)
            zero = np.zeros(1, dtype=tp.dtype)
            yield np.array([np.inf]), Cells(zero, zero, self.positives[j : j + 1], self.negatives[j : j + 1])
            for start in range(0, len(thresholds), _BLOCK):
                block = slice(start, start + _BLOCK)
                yield thresholds[block], Cells(tp[block], fp[block], self.positives[j] - tp[block], self.negatives[j] - fp[block])
            return
        if label is not None:
            raise InvalidArgumentError("give 'label' (one class) or 'average' (over all classes), not both")
        check_choice("average", average, CURVE_AVERAGES)
        thresholds = np.concatenate(([np.inf], self.common_thresholds()))
        m = len(self.labels)
        step = max(1, _BLOCK // m)
        for start in range(0, len(thresholds), step):
            query = thresholds[start : start + step]
            counts = [self._counts_at(j, query) for j in range(m)]
            tp, fp = np.stack([c[0] for c in counts], axis=1), np.stack([c[1] for c in counts], axis=1)
            yield query, Cells(tp, fp, self.positives - tp, self.negatives - fp)

    def optimize(
        self, measure: Any, label: Any = None, *, subject_to: Any = None, average: str | None = None, undefined: Any = "exclude",
        metrics_class: type[Any] | None = None, **parameters: Any,
    ) -> Any:  # fmt: skip
        """The best threshold for ``measure`` (highest, or lowest for a loss) among those where
        every constraint holds: an ``OperatingPoint`` (see ``evalkit.operating``), exact over
        every distinct score and the threshold above them all.

        Args:
            measure: the measure to optimise (any name, a getter of the metrics class, a ``Measure``).
            label: one class (needed when the curve has several, unless ``average``).
            subject_to: the constraints: ``{"recall": (">=", 0.9)}``, ``"recall >= 0.9"``, or
                a list of such strings and ``(name, operator, bound)`` triples.
            average: ``"micro"``, ``"macro"`` or ``"weighted"``: one threshold for every class,
                the measure and the constraints averaged at it.
            undefined: the undefined-value policy of the averages.
            metrics_class: a ``ClassificationMetrics`` subclass to look names up in.
            **parameters: of the optimised measure (``beta=2``).

        Returns:
            An ``OperatingPoint``; for a curve of several classes without ``label`` or
            ``average``, a dict of one per class (per-class thresholds, which also maximise a
            macro average of one-vs-rest decisions).

        Raises:
            InvalidArgumentError: a measure without a direction, or a constraint that cannot be read.

        Examples:
            >>> curve = ThresholdCurve.from_scores([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.7, 0.9])
            >>> print(curve.optimize("recall", subject_to={"false_positive_rate": ("<=", 0.34)}))
            recall 0.6667 at threshold 0.8 subject to false_positive_rate <= 0.34 (false_positive_rate 0)
        """
        resolved = self.measure(measure, metrics_class)
        if resolved.direction not in ("higher", "lower"):
            raise InvalidArgumentError(f"{resolved.name!r} has no direction (neither higher nor lower is better): nothing to optimise")
        check_measure_parameters(resolved, parameters)
        constraints = operating.parse_constraints(subject_to, lambda name: self.measure(name, metrics_class))
        if label is None and average is None and len(self.labels) > 1:
            return {own: self.optimize(resolved, own, subject_to=constraints, undefined=undefined, metrics_class=metrics_class, **parameters)
                    for own in self.labels}  # fmt: skip
        texts = tuple(str(constraint) for constraint in constraints)
        own = None if average is not None else self.labels[self._class(label)]

        def values_of(chosen: Measure, cells: Cells, options: dict[str, Any]) -> np.ndarray:
            if average is None:
                return np.asarray(cells.evaluate(chosen, **options), dtype=np.float64)
            return np.asarray(average_rows(chosen, cells, average, undefined=undefined, parameters=options), dtype=np.float64)

        best: tuple[float, float, dict[str, float], Cells] | None = None
        rank: tuple[float, ...] = ()
        for thresholds, cells in self._candidate_blocks(label, average):
            values = values_of(resolved, cells, parameters)
            achieved = {constraint.measure.name: values_of(constraint.measure, cells, {}) for constraint in constraints}
            feasible = np.ones(len(thresholds), dtype=bool)
            for constraint in constraints:
                feasible &= constraint.holds(achieved[constraint.measure.name])
            pairs = [(constraint, achieved[constraint.measure.name]) for constraint in constraints]
            k = operating.undominated_index(values, feasible, resolved.direction, pairs)  # ties: the point no tie dominates
            if k < 0:
                continue
            key = operating.tie_key(float(values[k]), resolved.direction, [(constraint, float(found[k])) for constraint, found in pairs])
            if best is None or key > rank:
                best, rank = (float(thresholds[k]), float(values[k]), {name: float(found[k]) for name, found in achieved.items()}, cells[k : k + 1]), key
        if best is None:
            names = [constraint.measure.name for constraint in constraints]
            return operating.OperatingPoint(False, math.nan, math.nan, resolved.name, dict.fromkeys(names, math.nan), texts, None, own, average)
        return operating.OperatingPoint(True, best[0], best[1], resolved.name, best[2], texts, best[3], own, average)

    def operating_interval(
        self, measure: Any, label: Any = None, *, subject_to: Any = None, level: float = 0.95, n_resamples: int = 2000,
        random_state: Any = None, metrics_class: type[Any] | None = None, **parameters: Any,
    ) -> operating.OperatingInterval:  # fmt: skip
        """Percentile bootstrap intervals of an operating point of one class: of the value
        ``optimize`` achieves and of the threshold it chooses, the point chosen anew on every
        resample of the (score, class) pairs.

        Raises:
            UnsupportedSettingError: a binned curve (the bootstrap needs every distinct score).

        Examples:
            >>> rng = np.random.default_rng(0)
            >>> y = rng.random(400) < 0.4
            >>> found = ThresholdCurve.from_scores(y, rng.normal(1.2 * y, 1.0)).operating_interval(
            ...     "precision", subject_to="recall >= 0.8", random_state=0)
            >>> found.threshold.low <= found.point.threshold <= found.threshold.high
            True
        """
        if self.binned:
            raise UnsupportedSettingError("an interval needs the exact curve (every distinct score), not a binned one")
        point = self.optimize(measure, label, subject_to=subject_to, metrics_class=metrics_class, **parameters)
        resolved = self.measure(measure, metrics_class)
        constraints = operating.parse_constraints(subject_to, lambda name: self.measure(name, metrics_class))
        thresholds, tp, fp = self._part(self._class(label))
        positives_at, negatives_at = np.diff(tp, prepend=0), np.diff(fp, prepend=0)
        levels = len(thresholds)
        candidates = np.concatenate(([np.inf], thresholds))

        def statistic(drawn: np.ndarray) -> np.ndarray:
            zero = np.zeros((len(drawn), 1))
            tp_ = np.concatenate((zero, np.cumsum(drawn[:, :levels], axis=1)), axis=1)
            fp_ = np.concatenate((zero, np.cumsum(drawn[:, levels:], axis=1)), axis=1)
            cells = Cells(tp_, fp_, tp_[:, -1:] - tp_, fp_[:, -1:] - fp_)
            values = np.asarray(cells.evaluate(resolved, **parameters), dtype=np.float64)
            feasible = np.ones(values.shape, dtype=bool)
            for constraint in constraints:
                feasible &= constraint.holds(np.asarray(cells.evaluate(constraint.measure), dtype=np.float64))
            k = operating.best_index(values, feasible, resolved.direction)
            rows = np.arange(len(drawn))
            found = k >= 0
            return np.stack([np.where(found, values[rows, k], np.nan), np.where(found, candidates[k], np.nan)], axis=1)

        replicates = intervals.counts_replicates(np.concatenate([positives_at, negatives_at]), statistic, n_resamples, random_state)
        feasible = ~np.isnan(replicates[:, 0])
        bounds = [intervals.percentile_interval(replicates[feasible, column], estimate, level) for column, estimate in
                  ((0, point.value), (1, point.threshold))]  # fmt: skip
        return operating.OperatingInterval(point, bounds[0], bounds[1], int((~feasible).sum()))

    # ----------------------------------------------------------------------------------------
    # gain, lift, Kolmogorov-Smirnov

    def gains(self, label: Any = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The cumulative gains curve: at every threshold (and above them all) the share of the
        samples predicted positive and the share of the class's positives among them,
        ``(targeted, captured, thresholds)``, from ``(0, 0)`` at ``inf`` to ``(1, 1)``.

        Examples:
            >>> curve = ThresholdCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
            >>> [values.tolist() for values in curve.gains()[:2]]
            [[0.0, 0.25, 0.5, 0.75, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0]]
        """
        j = self._class(label)
        thresholds, tp, fp = self._part(j)
        total = self.positives[j] + self.negatives[j]
        with np.errstate(invalid="ignore", divide="ignore"):
            targeted = np.concatenate(([0.0], (tp + fp) / total))
            captured = np.concatenate(([0.0], tp / self.positives[j])) if self.positives[j] else np.full(len(tp) + 1, np.nan)
        return targeted.astype(np.float64), captured.astype(np.float64), np.concatenate(([np.inf], thresholds))

    def lift(self, label: Any = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The lift curve: at every threshold, the share of the samples predicted positive and
        how many times the class is more frequent among them than overall (precision /
        prevalence), ``(targeted, lift, thresholds)``; the threshold above every score is
        left out (nothing targeted: no lift).

        Examples:
            >>> curve = ThresholdCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
            >>> [values.tolist() for values in curve.lift()[:2]]
            [[0.25, 0.5, 0.75, 1.0], [2.0, 1.0, 1.3333333333333333, 1.0]]
        """
        targeted, captured, thresholds = self.gains(label)
        with np.errstate(invalid="ignore", divide="ignore"):
            return targeted[1:], captured[1:] / targeted[1:], thresholds[1:]

    def ks_statistic(self, label: Any = None) -> float:
        """The Kolmogorov-Smirnov statistic of the class's scores against the others':
        ``max_t |tpr(t) - fpr(t)|``, the largest distance between the two score
        distributions (``scipy.stats.ks_2samp``'s statistic, weighted by the sample weights);
        NaN when either side is empty. A binned curve gives a lower bound.

        Examples:
            >>> ThresholdCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).ks_statistic()
            0.5
        """
        j = self._class(label)
        positives, negatives = self.positives[j], self.negatives[j]
        if not positives or not negatives:
            return math.nan
        _, tp, fp = self._part(j)
        return float(np.max(np.abs(tp / positives - fp / negatives), initial=0.0))

    def at(self, threshold: Any) -> ThresholdCells:
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

    def _own_thresholds(self, chosen: np.ndarray, given: Any) -> np.ndarray:
        """A binned curve's own thresholds nearest to ``chosen`` (within rounding), or an error."""
        grid = self._part(0)[0]
        with np.errstate(invalid="ignore"):  # -inf - -inf is NaN, which argmin picks first: the -inf threshold
            nearest = grid[np.abs(grid[None, :] - chosen[:, None]).argmin(axis=1)]
        close = (nearest == chosen) | np.isclose(nearest, chosen, rtol=1e-9, atol=1e-12)
        if not close.all():
            raise InvalidArgumentError(f"a binned curve knows its cells at its own thresholds only; {show(given)} is not among them")
        return nearest

    @property
    def n_samples(self) -> Any:
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
    # ROC, precision-recall, DET

    def roc(self, label: Any = None, *, drop_intermediate: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The ROC curve ``(fpr, tpr, thresholds)``, from the point ``(0, 0)`` at threshold
        ``inf`` (scikit-learn's ``roc_curve``); a rate is NaN for a class with no negatives
        (FPR) or no positives (TPR).

        Args:
            label: the class.
            drop_intermediate: leave out points on a straight line between their neighbours
                (they change neither the plot nor the area).
        """
        j = self._class(label)
        thresholds, tp, fp = self._part(j)
        tp, fp = tp.astype(np.float64), fp.astype(np.float64)
        if drop_intermediate and len(fp) > 2:
            kept = np.concatenate(([True], (np.diff(fp, 2) != 0) | (np.diff(tp, 2) != 0), [True]))
            thresholds, tp, fp = thresholds[kept], tp[kept], fp[kept]
        tp, fp = np.concatenate(([0.0], tp)), np.concatenate(([0.0], fp))
        positives, negatives = float(self.positives[j]), float(self.negatives[j])
        fpr = fp / negatives if negatives > 0 else np.full(fp.shape, np.nan)
        tpr = tp / positives if positives > 0 else np.full(tp.shape, np.nan)
        return fpr, tpr, np.concatenate(([np.inf], thresholds))

    def _averaged(self, area: Any, label: Any, average: str | None, undefined: Any, micro: Any) -> Any:
        """An area of one class, of every class (``average=None``), or averaged over classes."""
        if label is not None or len(self.labels) == 1:
            return area(self._class(label))
        if average is not None:
            check_choice("average", average, CURVE_AVERAGES)
        if average == "micro":
            value = micro()
            return Averaged(value, n_values=1, n_defined=int(not math.isnan(value)))
        values = np.array([area(j) for j in range(len(self.labels))], dtype=np.float64)
        if average is None:
            return values
        policy = check_undefined(undefined)
        weights = support_weights(values, self.positives, policy) if average == "weighted" else None
        return mean_of(values, weights, undefined=policy)

    def roc_auc(self, label: Any = None, *, average: str | None = "macro", max_fpr: float | None = None, undefined: Any = "exclude") -> Any:
        """Area under the ROC curve: the probability that a random positive scores above a
        random negative (ties count one half). NaN for a class without positives or negatives.

        Args:
            label: one class (default: the only class, or an average over all).
            average: over classes: ``"macro"`` (mean), ``"weighted"`` (by positives),
                ``"micro"`` (the area of ``micro()``), or ``None`` for one value per class.
            max_fpr: the standardised partial AUC up to this false positive rate (McClish's
                correction: 0.5 for chance, 1 for a perfect ranking).
            undefined: the undefined-value policy of the average.

        Examples:
            >>> ThresholdCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).roc_auc()
            0.75
        """
        if max_fpr is not None and not (isinstance(max_fpr, (int, float, np.number)) and 0 < max_fpr <= 1):
            raise InvalidArgumentError(f"'max_fpr' must be in (0, 1], got {show(max_fpr)}")

        def area(j: int) -> float:
            if max_fpr is None or max_fpr == 1:
                return _auc(*self._part(j)[1:], self.positives[j], self.negatives[j])
            if self.positives[j] == 0 or self.negatives[j] == 0:
                return float("nan")
            fpr, tpr, _ = self.roc(self.labels[j])
            return _partial_auc(fpr, tpr, float(max_fpr))

        return self._averaged(area, label, average, undefined, lambda: self.micro().roc_auc(max_fpr=max_fpr))

    def precision_recall(self, label: Any = None, *, drop_intermediate: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The precision-recall curve ``(precision, recall, thresholds)`` in scikit-learn's
        layout: thresholds rising, and a last point (precision 1, recall 0) without threshold.
        Recall is NaN for a class with no positives; precision NaN where nothing is predicted.

        Args:
            label: the class.
            drop_intermediate: leave out thresholds where recall does not change from the
                previous and the next one.
        """
        j = self._class(label)
        thresholds, tp, fp = self._part(j)
        tp, fp = tp.astype(np.float64), fp.astype(np.float64)
        if drop_intermediate and len(tp) > 2:
            kept = np.concatenate(([True], (np.diff(tp[:-1]) != 0) | (np.diff(tp[1:]) != 0), [True]))
            thresholds, tp, fp = thresholds[kept], tp[kept], fp[kept]
        predicted = tp + fp
        with np.errstate(invalid="ignore", divide="ignore"):
            precision = np.where(predicted > 0, tp / np.where(predicted > 0, predicted, 1.0), np.nan)
        positives = float(self.positives[j])
        recall = tp / positives if positives > 0 else np.full(tp.shape, np.nan)
        return np.append(precision[::-1], 1.0), np.append(recall[::-1], 0.0), thresholds[::-1].copy()

    def average_precision(self, label: Any = None, *, average: str | None = "macro", undefined: Any = "exclude") -> Any:
        """Average precision ``Σ (R_k - R_{k-1}) P_k`` over the thresholds, highest first: the
        step-wise area under the precision-recall curve (not the trapezoid, which is
        optimistic). NaN for a class without positives.

        Args:
            label: one class (default: the only class, or an average over all).
            average: ``"macro"``, ``"weighted"``, ``"micro"`` (the area of ``micro()``), or
                ``None`` for one value per class.
            undefined: the undefined-value policy of the average.

        Examples:
            >>> round(ThresholdCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).average_precision(), 4)
            0.8333
        """

        def area(j: int) -> float:
            return _average_precision(self._part(j)[1], self._part(j)[2], self.positives[j])

        return self._averaged(area, label, average, undefined, lambda: self.micro().average_precision())

    def det(self, label: Any = None, *, drop_intermediate: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The detection error tradeoff curve ``(fpr, fnr, thresholds)`` in scikit-learn's
        layout: thresholds rising, from the last point with no false negatives to the first
        with no false positives. NaN rates for a class with no positives or negatives.

        Args:
            label: the class.
            drop_intermediate: leave out thresholds where the false negative rate does not
                change from the previous and the next one.
        """
        j = self._class(label)
        thresholds, tp, fp = self._part(j)
        tp = np.concatenate(([0.0], tp.astype(np.float64)))
        fp = np.concatenate(([0.0], fp.astype(np.float64)))
        thresholds = np.concatenate(([np.inf], thresholds))
        if drop_intermediate and len(fp) > 2:
            kept = np.concatenate(([True], (np.diff(tp[:-1]) != 0) | (np.diff(tp[1:]) != 0), [True]))
            thresholds, tp, fp = thresholds[kept], tp[kept], fp[kept]
        positives, negatives = float(self.positives[j]), float(self.negatives[j])
        start = np.searchsorted(fp, fp[0], side="right") - 1
        stop = np.searchsorted(tp, tp[-1]) + 1
        part = slice(start, stop)
        with np.errstate(invalid="ignore", divide="ignore"):
            fpr = fp[part][::-1] / negatives if negatives > 0 else np.full(len(fp[part]), np.nan)
            fnr = (positives - tp[part][::-1]) / positives if positives > 0 else np.full(len(tp[part]), np.nan)
        return fpr, fnr, thresholds[part][::-1].copy()

    def area_bounds(self, kind: str = "roc_auc", label: Any = None) -> tuple[float, float]:
        """Where the exact area can lie, given this curve's points: ``(low, high)``.

        Between two known points the exact curve is unknown but monotone. For the ROC area
        each step from ``(x0, y0)`` to ``(x1, y1)`` adds between ``y0 (x1 - x0)`` and
        ``y1 (x1 - x0)`` (the trapezoid lies halfway: its error is at most
        ``½ Σ Δfpr Δtpr``); for average precision each step's recall gain is weighted by a
        precision between ``tp0 / (tp0 + fp1)`` and ``tp1 / (tp1 + fp0)``. For an exact
        curve both bounds are the area itself.

        Args:
            kind: ``"roc_auc"`` or ``"average_precision"``.
            label: the class.

        Examples:
            >>> import numpy as np
            >>> rng = np.random.default_rng(0)
            >>> y = rng.integers(0, 2, 1000); s = np.clip(0.3 * y + rng.normal(0.35, 0.2, 1000), 0, 1)
            >>> low, high = ThresholdCurve.from_scores(y, s, thresholds=21).area_bounds()
            >>> bool(low <= ThresholdCurve.from_scores(y, s).roc_auc() <= high)
            True
        """
        check_choice("kind", kind, ("roc_auc", "average_precision"))
        j = self._class(label)
        if not self.binned:
            value = self.roc_auc(self.labels[j]) if kind == "roc_auc" else self.average_precision(self.labels[j])
            return value, value
        _, tp, fp = self._part(j)
        positives, negatives = float(self.positives[j]), float(self.negatives[j])
        tp = np.concatenate(([0.0], tp.astype(np.float64)))
        fp = np.concatenate(([0.0], fp.astype(np.float64)))
        if kind == "roc_auc":
            if positives == 0 or negatives == 0:
                return float("nan"), float("nan")
            width = np.diff(fp) / negatives
            return float(np.dot(width, tp[:-1]) / positives), float(np.dot(width, tp[1:]) / positives)
        if positives == 0:
            return float("nan"), float("nan")
        gained = np.diff(tp) / positives
        with np.errstate(invalid="ignore", divide="ignore"):
            low = np.where(tp[:-1] + fp[1:] > 0, tp[:-1] / (tp[:-1] + fp[1:]), 0.0)
            high = np.where(tp[1:] + fp[:-1] > 0, tp[1:] / (tp[1:] + fp[:-1]), 1.0)
        return float(np.dot(gained, low)), float(np.dot(gained, high))

    def interval(self, measure: str = "roc_auc", label: Any = None, *, level: float = 0.95, method: str | None = None,
                 n_resamples: int = 2000, random_state: Any = None) -> intervals.Interval:  # fmt: skip
        """A confidence interval of ``"roc_auc"`` (DeLong's, in O(distinct scores) from the
        counts, or the bootstrap) or ``"average_precision"`` (``"bca"`` or ``"percentile"``)
        of one class (see ``evalkit.intervals.area_interval``). The default method is DeLong's
        for the AUC and BCa for average precision.

        Examples:
            >>> curve = ThresholdCurve.from_scores([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
            >>> print(curve.interval())
            0.8889 [0.5809, 1] (95% delong)
        """
        check_choice("measure", measure, ("roc_auc", "average_precision"))
        if self.binned:
            raise UnsupportedSettingError("an interval needs the exact curve (every distinct score), not a binned one")
        j = self._class(label)
        _, tp, fp = self._part(j)
        own = self.labels[j]
        estimate = float(self.roc_auc(own) if measure == "roc_auc" else self.average_precision(own))
        return intervals.area_interval(tp, fp, measure, estimate, level=level, method=method, n_resamples=n_resamples, random_state=random_state)

    def binary_interval(self, measure: str = "roc_auc", average: str = "macro", *, level: float = 0.95, method: str = "bca",
                        n_resamples: int = 2000, random_state: Any = None, undefined: Any = "exclude") -> intervals.Interval:  # fmt: skip
        """A bootstrap interval of an average over both classes of an exact binary curve (the
        classes of ``one_vs_rest()``: the negative at ``1 - score``): ``"macro"``,
        ``"weighted"`` or ``"micro"`` (the pooled two columns) of ``"roc_auc"`` or
        ``"average_precision"``. The kinds are the (score, class) pairs; every resample counts
        both classes' curves and the pooled one from the same draw.

        Raises:
            UnsupportedSettingError: a binned curve, a curve of several classes, or one that
                does not know its negative class.

        Examples:
            >>> curve = ThresholdCurve.from_scores([0, 0, 1, 1, 0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.6, 0.65])
            >>> found = curve.binary_interval("average_precision", "micro", random_state=0, n_resamples=500)
            >>> bool(found.low <= found.estimate <= found.high), found.estimate == curve.one_vs_rest().average_precision(average="micro")
            (True, True)
        """
        check_choice("measure", measure, ("roc_auc", "average_precision"))
        check_choice("average", average, ("macro", "weighted", "micro"))
        if self.binned or len(self.labels) != 1 or self.negative_label is None:
            raise UnsupportedSettingError("an interval over both classes needs the exact curve of binary scores that knows its negative class")
        policy = check_undefined(undefined)
        thresholds, tp, fp = self._part(0)
        positives_at, negatives_at = np.diff(tp, prepend=0), np.diff(fp, prepend=0)
        levels = len(thresholds)
        counts = np.concatenate([positives_at, negatives_at])  # counts_interval refuses float weights that are no repeated samples
        turned = _turned_round(thresholds[::-1], 1.0)  # the negative class's scores, highest first (lowest own score first)
        runs = np.flatnonzero(np.r_[True, turned[1:] != turned[:-1]])  # scores that round to one 1 - score are one threshold
        pooled = np.unique(np.concatenate([thresholds, turned]))[::-1]
        own_point = len(pooled) - 1 - np.searchsorted(pooled[::-1], thresholds)
        turned_point = (len(pooled) - 1 - np.searchsorted(pooled[::-1], turned))[::-1]  # per kind, in the kinds' order
        area = intervals.area_rows(measure)

        def statistic(drawn: np.ndarray) -> np.ndarray:
            positive, negative = drawn[:, :levels], drawn[:, levels:]
            first = area(positive, negative)
            second = area(np.add.reduceat(negative[:, ::-1], runs, axis=1), np.add.reduceat(positive[:, ::-1], runs, axis=1))
            if average == "micro":
                hits, misses = np.zeros((len(drawn), len(pooled))), np.zeros((len(drawn), len(pooled)))
                for at, gained, lost in ((own_point, positive, negative), (turned_point, negative, positive)):
                    np.add.at(hits.T, at, gained.T)  # each kind's count into its pooled point, every resample at once
                    np.add.at(misses.T, at, lost.T)
                return area(hits, misses)
            values = np.stack([second, first], axis=1)
            weights = None if average == "macro" else support_weights(values, np.stack([negative.sum(axis=1), positive.sum(axis=1)], axis=1), policy)
            return mean_rows(values, weights, undefined=policy)

        estimate = float(statistic(counts[None, :].astype(np.float64))[0])
        return intervals.counts_interval(counts, statistic, estimate, level=level, method=method, n_resamples=n_resamples,
                                         random_state=random_state, what=f"{average} {measure.replace('_', ' ')}")  # fmt: skip

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
        # many parts: running sums of each part's changes, not one pass per part (one quantity at a time: half the memory)
        tp, fp = (_running_sums([np.diff(part[k], prepend=0) for part in own], order, last) for k in (1, 2))
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
        if self.binned:  # the same thresholds: the counts add up
            thresholds, tp, fp, offsets = self._thresholds, self._tp + other._tp, self._fp + other._fp, self._offsets
        else:
            pairs = [(self._part(j), other._part(j)) for j in range(len(self.labels))]
            thresholds, tp, fp, offsets = _union_arrays(pairs)
            for (mine, theirs), start, stop in zip(pairs, offsets[:-1], offsets[1:]):
                _fill_union(mine, theirs, (thresholds[start:stop], tp[start:stop], fp[start:stop]))
        positives = [weighted_sum(np.array(pair), None) for pair in zip(self.positives, other.positives)]  # integer totals checked for overflow
        negatives = [weighted_sum(np.array(pair), None) for pair in zip(self.negatives, other.negatives)]
        return ThresholdCurve(self.labels, exact_scores(thresholds), tp, fp, offsets, np.array(positives, dtype=tp.dtype), np.array(negatives, dtype=tp.dtype),
                              self.binned, negative_label, metrics_class)  # fmt: skip

    def _merged_negative_label(self, other: ThresholdCurve) -> Any:
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

    def __eq__(self, other: object) -> bool:
        """A copy (a JSON or pickle round trip) equals its original: every field the same in value and kind."""
        if type(other) is not type(self):
            return NotImplemented
        return same_fields(self, other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        kind = "binned" if self.binned else "exact"
        return f"ThresholdCurve({kind}, labels={list(self.labels)!r}, thresholds={len(self._thresholds)}, samples={self.n_samples})"


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
    n_samples: Any = 0
    negative_label: Any = attrs.field(default=None, repr=False)
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
    y_true: Any, y_score: Any, labels: Sequence[Hashable] | None = None, *, average: str = "macro", sample_weight: Any = None
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
