"""Prediction sets, prediction intervals and selective prediction in the function face: MAPIE's
metric functions under MAPIE's names and signatures (``classification_coverage_score``,
``regression_mwi_score``, ...), and the risk-coverage curve with its AURC.

Sets and intervals of several confidence levels come as MAPIE gives them, ``(n, k, levels)``
and ``(n, 2, levels)``, and give one value per level; each level is counted by
``evalkit._scores.conformal`` (``SetCoverage``, ``IntervalCoverage``), the objects that also
merge, window and write JSON.

Private: ``evalkit.metrics`` is the public path of every function here.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import cast

import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine._types import IntervalsLike, LabelsLike, SetsLike
from evalkit._engine._validation import as_array, check_real, check_sample_weight, column_or_1d, show
from evalkit._scores.conformal import (
    IntervalCoverage,
    SetCoverage,
    class_codes,
    covered_rows,
    interval_bounds,
    set_membership,
    size_bin_starts,
)
from evalkit._scores.curves import ThresholdCurve
from evalkit._scores.selective import RiskCoverage
from evalkit.exceptions import InputLengthError, InputShapeError, InvalidArgumentError, InvalidValueError
from evalkit.measures._arithmetic import ratio

__all__ = [
    "auarc",
    "aurc",
    "auroc",
    "classification_coverage_score",
    "classification_mean_width_score",
    "classification_ssc",
    "classification_ssc_score",
    "coverage_gap",
    "coverage_width_based",
    "excess_aurc",
    "hsic",
    "regression_coverage_score",
    "regression_mean_width_score",
    "regression_mwi_score",
    "regression_ssc",
    "regression_ssc_score",
    "risk_coverage_curve",
]


def _levels(values: SetsLike, argument: str, middle: int | None = None) -> np.ndarray:
    """``values`` as ``n x width x levels`` (a 2-D array is one level)."""
    array = as_array(values, argument)
    if array.ndim == 2:
        array = array[:, :, np.newaxis]
    if array.ndim != 3 or (middle is not None and array.shape[1] != middle):
        shape = "n x k (or n x k x levels)" if middle is None else "n x 2 (or n x 2 x levels)"
        raise InputShapeError(f"{argument!r} must be {shape}, got shape {array.shape}")
    return array


def _truth(y_true: LabelsLike) -> np.ndarray:
    return column_or_1d(np.asarray(y_true))


def _set_levels(y_true: LabelsLike, y_pred_set: SetsLike, sample_weight: ArrayLike | None) -> list[SetCoverage]:
    sets = _levels(y_pred_set, "y_pred_set")
    truth = _truth(y_true)
    return [SetCoverage.from_sets(truth, sets[:, :, level], sample_weight=sample_weight) for level in range(sets.shape[2])]


def classification_coverage_score(y_true: LabelsLike, y_pred_set: SetsLike, *, sample_weight: ArrayLike | None = None) -> np.ndarray:
    """The share of the samples whose prediction set holds the true class, one per confidence
    level (MAPIE's function): ``y_true`` are class positions ``0 .. k-1``, ``y_pred_set`` a
    boolean ``n x k`` or ``n x k x levels`` membership array.

    Examples:
        >>> import numpy as np
        >>> classification_coverage_score([0, 1, 1], np.array([[True, False], [True, False], [False, True]])).tolist()
        [0.6666666666666666]
    """
    sets = _levels(y_pred_set, "y_pred_set")
    truth = _truth(y_true)
    labels, first = set_membership(sets[:, :, 0], None, len(truth))
    codes = class_codes(truth, labels)
    weight = check_sample_weight(sample_weight, len(codes))
    coverage = []
    for level in range(sets.shape[2]):
        covered = covered_rows(first if level == 0 else set_membership(sets[:, :, level], labels, len(codes))[1], codes)
        inside, total = (int(np.count_nonzero(covered)), len(codes)) if weight is None else (float(np.dot(covered, weight)), float(weight.sum()))
        coverage.append(float(ratio(inside, total)))
    return np.array(coverage, dtype=np.float64)  # the reading of SetCoverage.coverage(), without the counts of sizes it would also keep


def classification_mean_width_score(y_pred_set: SetsLike, *, sample_weight: ArrayLike | None = None) -> float | np.ndarray:
    """The mean size of the prediction sets: a number for ``n x k`` sets, one per level for
    ``n x k x levels`` (MAPIE's function).

    Examples:
        >>> import numpy as np
        >>> classification_mean_width_score(np.array([[True, False], [True, True]]))
        1.5
    """
    given = as_array(y_pred_set, "y_pred_set")
    sets = _levels(given, "y_pred_set")
    n, k = sets.shape[:2]
    truth = np.zeros(n, dtype=np.int64)  # any class: the sizes do not depend on it
    widths = np.array([SetCoverage.from_sets(truth, sets[:, :, level], labels=range(max(k, 1)), sample_weight=sample_weight).mean_size()
                       for level in range(sets.shape[2])])  # fmt: skip
    return float(widths[0]) if given.ndim == 2 else widths


def classification_ssc(y_true: LabelsLike, y_pred_set: SetsLike, num_bins: int | None = None, *, sample_weight: ArrayLike | None = None) -> np.ndarray:
    """Size-stratified coverage (Angelopoulos & Bates 2021): the coverage of the sets in bins of
    their size, ``levels x bins`` (MAPIE's function; see ``SetCoverage.size_stratified_coverage``).

    Examples:
        >>> import numpy as np
        >>> sets = np.array([[1, 1, 1, 1], [0, 1, 0, 1], [1, 1, 1, 0], [0, 0, 1, 1], [1, 1, 0, 1]], dtype=bool)
        >>> classification_ssc([3, 3, 1, 2, 2], sets, num_bins=2).tolist()
        [[1.0, 0.6666666666666666]]
    """
    results = _set_levels(y_true, y_pred_set, sample_weight)
    size_bin_starts(len(results[0].labels), num_bins, "num_bins")
    return np.stack([result.size_stratified_coverage(num_bins) for result in results])


def classification_ssc_score(y_true: LabelsLike, y_pred_set: SetsLike, num_bins: int | None = None, *, sample_weight: ArrayLike | None = None) -> np.ndarray:
    """The lowest size-stratified coverage of each level (its empty bins left out): the worst
    violation of coverage conditional on the set size (MAPIE's function)."""
    coverage = classification_ssc(y_true, y_pred_set, num_bins, sample_weight=sample_weight)
    return np.array([row[~np.isnan(row)].min() if (~np.isnan(row)).any() else np.nan for row in coverage])


def _interval_levels(y_true: ArrayLike, y_intervals: IntervalsLike) -> tuple[np.ndarray, np.ndarray]:
    intervals = _levels(y_intervals, "y_intervals", middle=2)
    truth = column_or_1d(np.asarray(y_true, dtype=np.float64))
    if truth.ndim == 2 and truth.shape[1] != intervals.shape[2]:
        raise InputShapeError(f"'y_true' must be 1-D or one column per level ({intervals.shape[2]}), got shape {truth.shape}")
    if len(truth) != len(intervals):
        raise InputLengthError(f"'y_true' and 'y_intervals' must have one entry per sample, got {len(truth)} and {len(intervals)}")
    return truth, intervals


def _interval_results(y_true: ArrayLike, y_intervals: IntervalsLike, sample_weight: ArrayLike | None) -> list[IntervalCoverage]:
    truth, intervals = _interval_levels(y_true, y_intervals)
    return [IntervalCoverage.from_intervals(truth if truth.ndim == 1 else truth[:, level], intervals[:, 0, level], intervals[:, 1, level],
                                            sample_weight=sample_weight) for level in range(intervals.shape[2])]  # fmt: skip


def regression_coverage_score(y_true: ArrayLike, y_intervals: IntervalsLike, *, sample_weight: ArrayLike | None = None) -> np.ndarray:
    """The share of the true values inside their interval ``[lower, upper]``, one per level
    (MAPIE's function; ``y_intervals`` is ``n x 2`` or ``n x 2 x levels``).

    Raises:
        InvalidValueError: a lower bound above its upper one (a crossed interval covers nothing
            that could be meant), or a value that is NaN or infinite.

    Examples:
        >>> regression_coverage_score([5, 7.5, 9.5], [[4, 6], [6, 9], [9, 10]]).tolist()
        [1.0]
    """
    return np.array([result.coverage() for result in _interval_results(y_true, y_intervals, sample_weight)])


def regression_mean_width_score(y_intervals: IntervalsLike, *, sample_weight: ArrayLike | None = None) -> np.ndarray:
    """The mean width ``upper - lower`` of the intervals, one per level (MAPIE's function).

    Examples:
        >>> regression_mean_width_score([[4, 6], [9, 10]]).tolist()
        [1.5]
    """
    intervals = _levels(y_intervals, "y_intervals", middle=2)
    return np.array([result.mean_width() for result in _interval_results(intervals[:, 0, :], intervals, sample_weight)])


def regression_ssc(y_true: ArrayLike, y_intervals: IntervalsLike, num_bins: int = 3) -> np.ndarray:
    """Width-stratified coverage: the intervals ranked by width (narrowest first, ties in sample
    order) and cut into ``num_bins`` bins of nearly equal count (``np.array_split``), the
    coverage of each, ``levels x bins`` (MAPIE's function). A ranking, not a sum: no counted state.

    Examples:
        >>> regression_ssc([5, 7.5, 9.5], [[4, 6], [6.0, 9.0], [9, 10.0]], num_bins=2).tolist()
        [[1.0, 1.0]]
    """
    truth, intervals = _interval_levels(y_true, y_intervals)
    if isinstance(num_bins, bool) or not isinstance(num_bins, (int, np.integer)) or not 1 <= num_bins <= len(truth):
        raise InvalidArgumentError(f"'num_bins' must be a whole number in 1..{len(truth)} (the samples), got {show(num_bins)}")
    rows = []
    for level in range(intervals.shape[2]):
        y = truth if truth.ndim == 1 else truth[:, level]
        lower, upper = interval_bounds(intervals[:, :, level], len(y))
        covered = (lower <= y) & (y <= upper)
        order = np.argsort(upper - lower, kind="stable")
        rows.append([float(covered[part].mean()) for part in np.array_split(order, num_bins)])
    return np.array(rows)


def regression_ssc_score(y_true: ArrayLike, y_intervals: IntervalsLike, num_bins: int = 3) -> np.ndarray:
    """The lowest width-stratified coverage of each level (MAPIE's function)."""
    return regression_ssc(y_true, y_intervals, num_bins).min(axis=1)


def regression_mwi_score(y_true: ArrayLike, y_pis: IntervalsLike, confidence_level: float, *, sample_weight: ArrayLike | None = None) -> float:
    """The mean interval (Winkler) score at ``confidence_level`` (MAPIE's function; see
    ``IntervalCoverage.interval_score``): lower is better. As MAPIE does, a crossed interval
    (a lower quantile above the upper one) is read with its bounds swapped.

    Examples:
        >>> regression_mwi_score([1.0, 2.0, 5.0], [[0.5, 1.5], [1.0, 3.0], [2.0, 4.0]], 0.8)
        5.000000000000001
    """
    intervals = _levels(y_pis, "y_pis", middle=2)
    if intervals.shape[2] != 1:
        raise InputShapeError(f"'y_pis' must be n x 2 (or n x 2 x 1): one confidence level, got shape {intervals.shape}")
    first, second = intervals[:, 0, 0], intervals[:, 1, 0]
    truth, _ = _interval_levels(y_true, intervals)
    lower, upper = np.minimum(first, second), np.maximum(first, second)  # a crossed interval with its bounds swapped
    return IntervalCoverage.from_intervals(truth, lower, upper, sample_weight=sample_weight).interval_score(confidence_level)


def risk_coverage_curve(y_true: LabelsLike, y_pred: LabelsLike, confidence: ArrayLike, *, labels: Sequence[Hashable] | None = None,
                        sample_weight: ArrayLike | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """The risk-coverage curve (Geifman & El-Yaniv 2017): coverage, selective risk (error rate
    of the accepted samples) and the confidence threshold of each point, most confident first
    (as ``roc_curve`` returns its three arrays). See ``evalkit._scores.selective``.

    Examples:
        >>> coverage, risk, thresholds = risk_coverage_curve([0, 1, 1], [0, 1, 0], [0.9, 0.5, 0.7])
        >>> coverage.tolist(), risk.tolist(), thresholds.tolist()
        ([0.3333333333333333, 0.6666666666666666, 1.0], [0.0, 0.5, 0.3333333333333333], [0.9, 0.7, 0.5])
    """
    curve = RiskCoverage.from_predictions(y_true, y_pred, confidence, labels=labels, sample_weight=sample_weight)
    return curve.coverage, curve.risk, curve.thresholds


def aurc(y_true: LabelsLike, y_pred: LabelsLike, confidence: ArrayLike, *, sample_weight: ArrayLike | None = None) -> float:
    """The area under the risk-coverage curve (Geifman & El-Yaniv 2017): lower is better; tied
    confidences count as one step (``RiskCoverage.aurc``).

    Examples:
        >>> aurc([0, 1, 1, 0], [0, 1, 0, 0], [0.9, 0.8, 0.3, 0.6])
        0.0625
    """
    return RiskCoverage.from_predictions(y_true, y_pred, confidence, sample_weight=sample_weight).aurc()


def excess_aurc(y_true: LabelsLike, y_pred: LabelsLike, confidence: ArrayLike, *, sample_weight: ArrayLike | None = None) -> float:
    """The AURC minus that of a perfect ranking of the same samples (Geifman et al. 2019): 0
    for a confidence that ranks every correct sample above every error.

    Examples:
        >>> round(excess_aurc([0, 1, 1, 0], [0, 1, 0, 0], [0.9, 0.8, 0.6, 0.3]), 6)   # the error third of four: 7/48 - 3/48
        0.083333
    """
    return RiskCoverage.from_predictions(y_true, y_pred, confidence, sample_weight=sample_weight).excess_aurc()


def auarc(correctness: ArrayLike, confidence: ArrayLike, *, sample_weight: ArrayLike | None = None) -> float:
    """The area under the accuracy-rejection curve, ``1 - AURC`` of 0/1 correctness (MAPIE's
    function; Nadeem, Zucker & Hanczar 2009): tied confidences count as one step, where MAPIE
    keeps the order a sort leaves them in.

    Examples:
        >>> auarc([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9])   # 1 - (1/3 + 2/4) / 4
        0.7916666666666667
    """
    correct = as_array(correctness, "correctness")
    if correct.dtype.kind not in "biuf" or not np.isin(correct, (0, 1)).all():
        raise InvalidArgumentError(f"'correctness' must hold only 0 and 1 (or booleans), got {show(correctness)}")
    truth = correct.astype(bool)
    return 1.0 - RiskCoverage.from_predictions(truth, np.ones(len(truth), dtype=bool), confidence, labels=[False, True], sample_weight=sample_weight).aurc()


def auroc(correctness: ArrayLike, confidence: ArrayLike) -> float:
    """The area under the ROC curve of the confidence as a detector of the correct predictions
    (MAPIE's function): the chance that a correct prediction is more confident than a wrong one,
    ties counting one half.

    Raises:
        InvalidArgumentError: ``correctness`` other than 0 and 1, or of one value only.

    Examples:
        >>> auroc([1, 0, 1, 0], [0.1, 0.2, 0.3, 0.4])
        0.25
    """
    correct, scores = column_or_1d(as_array(correctness, "correctness")), column_or_1d(as_array(confidence, "confidence"))
    if correct.dtype.kind not in "biuf" or not np.isin(correct, (0, 1)).all():
        raise InvalidArgumentError(f"'correctness' must be a binary array of only 0 and 1, got {show(correctness)}")
    if len(correct) != len(scores):
        raise InvalidArgumentError(f"'correctness' and 'confidence' must have one value per sample, got {len(correct)} and {len(scores)}")
    if len(np.unique(correct)) < 2:
        raise InvalidArgumentError(f"'correctness' must hold both 0 and 1 to have an area under the ROC curve, got {show(correctness)}")
    return float(ThresholdCurve.from_scores(correct.astype(bool), scores, pos_label=True).roc_auc())


def _bounds_of_one_level(y_true: ArrayLike, y_intervals: IntervalsLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    truth, intervals = _interval_levels(y_true, y_intervals)
    return truth, intervals[:, 0, :], intervals[:, 1, :]


def hsic(y_true: ArrayLike, y_intervals: IntervalsLike, kernel_sizes: ArrayLike = (1, 1)) -> np.ndarray:
    """The Hilbert-Schmidt independence criterion of the intervals' widths and their coverage,
    one value per confidence level (MAPIE's function; Feldman, Bates & Romano 2021): near 0
    when whether an interval covers does not depend on how wide it is. Gaussian kernels
    ``exp(−(a − b)² / σ)`` of ``kernel_sizes = (σ_width, σ_coverage)``; ``sqrt(trace(L H K H)) / (n − 1)``
    with ``H = I − 1/n``. Memory ``n x n``.

    Raises:
        InvalidArgumentError: ``kernel_sizes`` not two numbers > 0.

    Examples:
        >>> import numpy as np
        >>> intervals = np.array([[[9, 9], [10, 10]], [[8.5, 9], [12.5, 12]], [[10.5, 10.5], [12, 12]]])
        >>> hsic([9.5, 10.5, 12.5], intervals).round(8).tolist()
        [0.31787614, 0.2962914]
    """
    sizes = as_array(kernel_sizes, "kernel_sizes")
    if sizes.shape != (2,) or sizes.dtype.kind not in "biuf" or not (sizes > 0).all():
        raise InvalidArgumentError(f"'kernel_sizes' must be two numbers > 0 (the widths' and the coverage's), got {show(kernel_sizes)}")
    truth, lower, upper = _bounds_of_one_level(y_true, y_intervals)
    n = len(truth)
    if n < 2 or not (np.isfinite(truth).all() and np.isfinite(lower).all() and np.isfinite(upper).all()):
        raise InvalidValueError(f"'y_true' and 'y_intervals' must be finite numbers of two samples or more, got {n} samples")
    centring = np.eye(n) - 1 / n * np.ones((n, n))
    values = []
    for level in range(lower.shape[1]):
        width = np.abs(upper[:, level] - lower[:, level])
        covered = ((lower[:, level] <= truth) & (truth <= upper[:, level])).astype(np.int_)
        kernels = [np.exp(-(-2 * np.matmul(v[:, None], v[None, :]) + (v**2)[:, None] + (v**2)[None, :]) / sigma)
                   for v, sigma in ((width, sizes[0]), (covered, sizes[1]))]  # (MAPIE's order of operations: its numbers to the last bits)
        product = np.matmul(kernels[1], np.matmul(centring, np.matmul(kernels[0], centring))) / (n - 1) ** 2
        with np.errstate(invalid="ignore"):  # (a trace rounded below 0: NaN, as MAPIE's)
            values.append(np.sqrt(np.trace(product)))
    return np.array(values)


def coverage_width_based(y_true: ArrayLike, y_pred_low: ArrayLike, y_pred_up: ArrayLike, eta: float, confidence_level: float) -> float:
    """The coverage width-based criterion (MAPIE's function; Khosravi et al. 2011):
    ``(1 − mean width / (max y − min y)) · exp(−η (coverage − confidence_level)²)``.

    Raises:
        InvalidArgumentError: ``confidence_level`` not in [0, 1], ``eta`` not a number.

    Examples:
        >>> round(coverage_width_based([5, 7.5, 9.5, 10.5, 12.5], [4, 6, 9, 8.5, 10.5], [6, 9, 10, 12.5, 12], 0.01, 0.9), 4)
        0.6933
    """
    for argument, value in (("eta", eta), ("confidence_level", confidence_level)):
        check_real(argument, value)
    if not 0 <= confidence_level <= 1:
        raise InvalidArgumentError(f"'confidence_level' must be in [0, 1], got {show(confidence_level)}")
    truth = np.asarray(y_true, dtype=np.float64)
    intervals = IntervalCoverage.from_intervals(truth, y_pred_low, y_pred_up)
    spread = float(np.max(truth) - np.min(truth)) if len(truth) else math.nan
    with np.errstate(divide="ignore", invalid="ignore"):
        return float((1 - np.float64(intervals.mean_width()) / spread) * math.exp(-eta * (intervals.coverage() - confidence_level) ** 2))


def coverage_gap(y: LabelsLike, groups: LabelsLike, confidence_level: float, *, y_intervals: IntervalsLike | None = None, y_sets: SetsLike | None = None,
                 weighted: bool = False) -> float:  # fmt: skip
    """How far each group's coverage is from ``confidence_level``, ``|coverage_g − level|``,
    averaged over the groups (``weighted``: by their sizes) (MAPIE's function, of covmetrics'
    ``CovGap``), of intervals or of boolean ``n x k`` sets (one level).

    Raises:
        InvalidArgumentError: neither or both of ``y_intervals`` and ``y_sets``; ``weighted`` not a boolean.

    Examples:
        >>> import numpy as np
        >>> coverage_gap([1.0, 2.0, 3.0, 4.0], [0, 0, 1, 1], 0.5, y_intervals=np.array([[0, 2], [0, 1], [2, 4], [2, 4]]))
        0.25
    """
    if (y_intervals is None) == (y_sets is None):
        raise InvalidArgumentError("give the intervals (y_intervals=) or the sets (y_sets=), one of them")
    if isinstance(confidence_level, bool) or not isinstance(confidence_level, (int, float, np.integer, np.floating)) or not 0 <= confidence_level <= 1:
        raise InvalidArgumentError(f"'confidence_level' must be a number in [0, 1], got {show(confidence_level)}")
    if not isinstance(weighted, (bool, np.bool_)):
        raise InvalidArgumentError(f"'weighted' must be True or False, got {show(weighted)}")
    if y_sets is not None:
        sets = _levels(y_sets, "y_sets")
        if sets.shape[2] != 1:
            raise InputShapeError(f"'y_sets' must hold one confidence level, got {sets.shape[2]}")
        covered = covered_rows(sets[:, :, 0].astype(bool), class_codes(_truth(y), tuple(range(sets.shape[1]))))
    else:
        truth, intervals = _interval_levels(np.asarray(y, dtype=np.float64), cast(IntervalsLike, y_intervals))
        if intervals.shape[2] != 1:
            raise InputShapeError(f"'y_intervals' must hold one confidence level, got {intervals.shape[2]}")
        covered = (intervals[:, 0, 0] <= truth) & (truth <= intervals[:, 1, 0])
    group_of = as_array(_truth(groups), "groups")
    if len(group_of) != len(covered):
        raise InputShapeError(f"'groups' must give one group per sample, got {len(group_of)} for {len(covered)} samples")
    _, index = np.unique(group_of, return_inverse=True)
    sizes = np.bincount(index.ravel())
    gaps = np.abs(np.bincount(index.ravel(), weights=covered) / sizes - float(confidence_level))
    weights = sizes if weighted else np.ones(len(gaps))
    return float(np.sum(gaps * weights) / np.sum(weights))
