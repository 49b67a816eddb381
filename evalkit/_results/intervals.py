"""Confidence intervals for every measure, and paired comparisons of classifiers.

Every number evalkit reports is a function of sums over samples, so a bootstrap never needs
the samples themselves: it redraws how many samples of each *kind* there are. Single-label
results are kinds of (actual, predicted) pairs, drawn from their multinomial; one class's
cells are four kinds; per-sample results (multi-label, soft, example-based, AA and RAR) are
their distinct per-sample rows; a threshold curve's kinds are (score, class) pairs. A batch of
resamples is one matrix of counts, and every statistic is computed for the whole batch at once
by the same vectorised formulas (no Python loop per resample).

Methods (``method=``):

* ``"bca"`` (default) and ``"percentile"``: the bootstrap (B. Efron and R. J. Tibshirani,
  "An Introduction to the Bootstrap", 1993), for every measure and every average. BCa's
  acceleration comes from the jackknife, computed from the same sums. ``"normal"``: the
  estimate plus or minus ``z`` bootstrap standard deviations (Efron and Tibshirani's standard
  interval), for (nearly) unbiased estimates such as the debiased calibration errors
  (``evalkit._scores.calibration``).
* ``"wilson"`` and ``"clopper-pearson"``: closed forms for proportions (accuracy, precision,
  recall, specificity and every measure ``successes / trials`` of integer counts).
* ``"asymptotic"``: Cohen's kappa with the large-sample standard error of J. L. Fleiss,
  J. Cohen and B. S. Everitt, "Large sample standard errors of kappa and weighted kappa"
  (1969), the one statsmodels reports as ``std_kappa``.
* ``"log"``: the likelihood ratios and the diagnostic odds ratio, ``exp(ln(ratio) ± z·SE)``
  with the standard errors of D. L. Simel, G. P. Samsa and D. B. Matchar, "Likelihood
  ratios with confidence: sample size estimation for diagnostic test studies" (1991), and
  B. Woolf (1955) for the odds ratio; NaN bounds when a count in the error is 0.
* ``"delong"``: ROC AUC with DeLong's variance (E. R. DeLong, D. M. DeLong and
  D. L. Clarke-Pearson, 1988), computed in O(n log n) with ties from midranks (X. Sun and
  W. Xu, "Fast Implementation of DeLong's Algorithm", 2014).

Degenerate cases, decided once: a resample where the measure is undefined (a class absent)
gives NaN for that resample under the undefined-value policy, and the interval is taken over
the defined resamples (``Interval.n_undefined`` says how many were not); with no defined
resample the bounds are NaN. BCa of a statistic that does not vary falls back to the
percentile interval ``[x, x]`` with a warning. ``stratify=True`` keeps each actual class's size
in every resample. Bootstraps resample samples, so they need counts of samples: results with
float sample weights are refused (integer weights count as repeated samples).

Paired comparisons of classifiers (``compare``, ``compare_many``) live beside, in
``evalkit._results.paired``, on the same kinds and the same bootstrap.

Quantiles of the normal distribution come from ``statistics.NormalDist``; the binomial and beta
distributions (Clopper-Pearson, exact McNemar) from scipy, imported when used (the ``stats``
extra: ``pip install "evalkit[stats]"``).

Examples:
    >>> from evalkit import ConfusionMatrix
    >>> cm = ConfusionMatrix.from_array([[40, 10], [5, 45]])
    >>> print(cm.interval("accuracy", method="wilson"))
    0.85 [0.7672, 0.9069] (95% wilson)
    >>> cm.interval("f1_score", "macro", random_state=0).method
    'bca'
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, cast

import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine import moved_names
from evalkit._engine._pair_counts import PairCounts
from evalkit._engine._types import Count, LabelsLike
from evalkit._engine._validation import (
    RandomState,
    check_choice,
    check_matrix,
    check_sample_weight,
    show,
)
from evalkit._engine.cells import Cells
from evalkit._results._closed_form import (
    Interval,
    KappaTest,
    _check_level,
    _curve_placements,
    _grouped_variance,
    _proportion,
    _z,
    clopper_pearson,
    delong,
    kappa_standard_error,
    kappa_test,
    two_sided_p_value,
    wilson,
)
from evalkit._results._resampling import (
    _MOST_JACKKNIFE_KINDS,
    MAX_RESAMPLES,
    _bootstrap,
    _dense_kinds,
    _integral,
    _jackknife_identity,
    _Kinds,
    _pair_kinds,
    _pair_statistic,
    _row_kinds,
    check_random_state,
    column_sums,
    counts_replicates,
    jackknife_spread,
    percentile_interval,
    stratified_replicates,
)
from evalkit._results._sequences import (
    DEFAULT_TUNING,
    beta_binomial_bounds,
    check_tuning,
    sequence_bounds,
)
from evalkit.exceptions import EvalkitWarning, InvalidArgumentError, InvalidTypeError, UnsupportedSettingError
from evalkit.measures._averaging import AVERAGES, UndefinedPolicy, average_rows, check_undefined, fill_undefined
from evalkit.measures._registry import Measure, MeasureLike, check_measure_parameters, resolve_measure


class _HasInterval(Protocol):
    def interval(self, measure: MeasureLike, average: str | None = ..., **options: Any) -> Interval: ...

__all__ = [
    "ANYTIME_METHODS",
    "BOOTSTRAP_METHODS",
    "KINDS_METHODS",
    "MAX_RESAMPLES",
    "METHODS",
    "PROPORTION_METHODS",
    "Interval",
    "KappaTest",
    "area_interval",
    "area_rows",
    "binomial_interval",
    "cells_interval",
    "check_anytime",
    "check_method",
    "check_random_state",
    "clopper_pearson",
    "column_sums",
    "counts_interval",
    "counts_replicates",
    "delong",
    "indicators_interval",
    "kappa_interval",
    "kappa_standard_error",
    "kappa_test",
    "log_ratio_interval",
    "pairs_interval",
    "pairs_spread",
    "percentile_interval",
    "proportion_counts",
    "proportion_interval",
    "ratio_interval",
    "rows_interval",
    "sequence_method",
    "stratified_replicates",
    "two_sided_p_value",
    "wilson",
]

BOOTSTRAP_METHODS = ("bca", "percentile", "normal")
METHODS = (*BOOTSTRAP_METHODS, "wilson", "clopper-pearson", "asymptotic", "delong", "log")
ANYTIME_METHODS = ("beta-binomial", "asymptotic")
"""The methods of confidence sequences (``anytime=True``): exact for proportions, asymptotic (the
delta method) for every measure."""
KINDS_METHODS = (*BOOTSTRAP_METHODS, "anytime")
"""What an interval over kinds of sample takes: a bootstrap, or (``"anytime"``) the asymptotic
confidence sequence from the same kinds."""
PROPORTION_METHODS = ("wilson", "clopper-pearson", "beta-binomial")
"""The intervals of a proportion of whole counts: Wilson's, Clopper-Pearson's, and the
beta-binomial confidence sequence (``evalkit._results._sequences``)."""
WHOLE_MEASURES = ("accuracy", "cohen_kappa", "matthews_correlation_coefficient")
"""Measures of a whole single-label result when no ``average`` or ``label`` is given."""


# --------------------------------------------------------------------------------------------
# checks


# --------------------------------------------------------------------------------------------
# closed forms


# --------------------------------------------------------------------------------------------
# DeLong


# --------------------------------------------------------------------------------------------
# the bootstrap engine


# --------------------------------------------------------------------------------------------
# statistics of single-label results: kinds are (actual, predicted) pairs


# --------------------------------------------------------------------------------------------
# statistics of per-sample rows (multi-label, soft, example-based, AA and RAR)


# --------------------------------------------------------------------------------------------
# intervals from counts and estimates (the results' ``interval`` methods hand these the numbers)


def check_anytime(anytime: object) -> bool:
    """``anytime`` checked: True or False.

    Raises:
        InvalidTypeError: anything else (a truthy number too: the guarantee is asked for by name).
    """
    if not isinstance(anytime, bool):
        raise InvalidTypeError(f"'anytime' must be True or False, got {show(anytime)}")
    return anytime


def check_method(method: object, anytime: object) -> str | None:
    """``method`` checked: one of ``METHODS`` (``None``: BCa), or, with ``anytime``, one of
    ``ANYTIME_METHODS`` (``None``: the measure's, ``sequence_method``).

    Raises:
        InvalidArgumentError: another method.
        InvalidTypeError: ``anytime`` not True or False.
    """
    if check_anytime(anytime):
        if method is not None:
            check_choice("method", method, ANYTIME_METHODS)
        return cast("str | None", method)
    method = "bca" if method is None else method
    check_choice("method", method, METHODS)
    return cast(str, method)


def sequence_method(method: str | None, proportion: bool, measure: str) -> str:
    """The confidence sequence of a measure: the beta-binomial one of a ``proportion`` whose
    trials are samples (its default), else the asymptotic one, found from the bootstrap's kinds
    (``"anytime"``).

    Raises:
        InvalidArgumentError: ``"beta-binomial"`` of a measure that is no such proportion.
    """
    if method is None:
        method = "beta-binomial" if proportion else "asymptotic"
    if method == "beta-binomial" and not proportion:
        raise InvalidArgumentError(f"method='beta-binomial' is for proportions whose trials are samples, each at most one (the whole accuracy, one "
                                   f"class's recall or precision, a micro average of single-label data); {measure!r} here is none (a multi-label "
                                   "sample adds a trial per label, and those are not independent): use method='asymptotic'")  # fmt: skip
    return method if method == "beta-binomial" else "anytime"


def _resolve(measure: MeasureLike, metrics_class: type[Any] | None, parameters: dict[str, Any]) -> Measure:
    resolved = resolve_measure(measure, metrics_class)
    check_measure_parameters(resolved, parameters)
    return resolved


def pairs_interval(
    pairs: PairCounts, m: int, measure: Measure, estimate: float, *, average: str | None = None, position: int | None = None,
    level: float = 0.95, method: str = "bca", n_resamples: int = 2000, random_state: RandomState = None, stratify: bool = False,
    undefined: UndefinedPolicy = "exclude", parameters: dict[str, Any] | None = None, tuning: float = DEFAULT_TUNING,
) -> Interval:  # fmt: skip
    """The bootstrap interval (or, ``method="anytime"``, the asymptotic confidence sequence,
    narrowest at ``tuning`` samples) of a single-label result from its (actual, predicted) pair
    counts: of one class (``position``), of an ``average`` over the first ``m`` codes, or, with
    neither, of the whole result's accuracy, Cohen's kappa or MCC (``measure.name``).

    Examples:
        >>> from evalkit._engine._pair_counts import PairCounts
        >>> from evalkit.measures._registry import get_measure
        >>> pairs = PairCounts.from_dense(np.array([[40, 10], [5, 45]]))
        >>> pairs_interval(pairs, 2, get_measure("accuracy"), 0.85, random_state=0).method
        'bca'
    """
    check_choice("method", method, KINDS_METHODS)
    if average == "samples":
        raise UnsupportedSettingError("average='samples' of single-label data is the micro average of accuracy-like counts: use 'micro'")
    if average is None and position is None and measure.name not in WHOLE_MEASURES:
        raise InvalidArgumentError(f"give an 'average' or a class for {measure.name!r}; a whole-result interval is of {', '.join(WHOLE_MEASURES)}")
    statistic = _pair_statistic(measure, average, position, m, check_undefined(undefined), dict(parameters or {}))
    return _bootstrap(_pair_kinds(pairs, stratify), statistic, estimate, level=level, method=method,
                      n_resamples=n_resamples, random_state=random_state, tuning=tuning)  # fmt: skip


def pairs_spread(pairs: PairCounts, m: int, measure: Measure, estimate: float, *, average: str | None = None, position: int | None = None,
                 undefined: UndefinedPolicy = "exclude", parameters: dict[str, Any] | None = None) -> tuple[float, float]:  # fmt: skip
    """The samples and the delta-method spread of one sample of what ``pairs_interval`` reads
    (the jackknife of the same kinds): what the asymptotic sequence grows from, and its p-value
    (``normal_mixture_p_value``) reads.

    Examples:
        >>> from evalkit._engine._pair_counts import PairCounts
        >>> from evalkit.measures._registry import get_measure
        >>> n, spread = pairs_spread(PairCounts.from_dense(np.array([[40, 10], [5, 45]])), 2, get_measure("accuracy"), 0.85)
        >>> n, round(spread, 4)    # sqrt(n p (1 - p) / (n - 1)): a proportion's
        (100.0, 0.3589)
    """
    statistic = _pair_statistic(measure, average, position, m, check_undefined(undefined), dict(parameters or {}))
    return jackknife_spread(_pair_kinds(pairs, False), statistic, estimate)


def proportion_interval(
    measure: Measure, cells: Cells, estimate: float, *, level: float = 0.95, method: str = "wilson", parameters: dict[str, Any] | None = None,
    tuning: float = DEFAULT_TUNING,
) -> Interval:
    """Wilson's or Clopper-Pearson's interval (or the beta-binomial confidence sequence) of a
    measure that is a proportion of the summed ``cells`` (``<a, v> / <b, v>`` with 0/1
    coefficients: accuracy, precision, recall, ...).

    Raises:
        InvalidArgumentError: the measure is no proportion.
        UnsupportedSettingError: float (weighted) counts.

    Examples:
        >>> from evalkit.measures._registry import get_measure
        >>> print(proportion_interval(get_measure("recall"), Cells(45, 10, 5, 40), 0.9, method="wilson"))
        0.9 [0.7864, 0.9565] (95% wilson)
    """
    check_choice("method", method, PROPORTION_METHODS)
    found = proportion_counts(measure, cells, parameters)
    if found is None:
        raise InvalidArgumentError(f"method={method!r} is for proportions (successes / trials); {measure.name!r} is none: use 'bca' or 'percentile'")
    _integral(np.array(found), f"method={method!r}")
    return binomial_interval(*found, estimate, level=level, method=method, tuning=tuning)


def proportion_counts(measure: Measure, cells: Cells, parameters: dict[str, Any] | None = None) -> tuple[float, float] | None:
    """The successes and trials of a measure that is a proportion of the summed ``cells``
    (``<a, v> / <b, v>``, ``v`` the four cells' totals), or None for a measure that is none.

    Examples:
        >>> from evalkit.measures._registry import get_measure
        >>> proportion_counts(get_measure("recall"), Cells(45, 10, 5, 40))
        (45.0, 50.0)
    """
    coefficients = _proportion(measure, dict(parameters or {}))
    if coefficients is None:
        return None
    values = np.array([float(np.asarray(row).sum()) for row in cells.rows()])
    a, b = coefficients
    return float(a @ values), float(b @ values)


def binomial_interval(successes: ArrayLike, trials: ArrayLike, estimate: float, *, level: float = 0.95, method: str = "wilson",
                      tuning: float = DEFAULT_TUNING) -> Interval:  # fmt: skip
    """Wilson's or Clopper-Pearson's interval of ``successes`` out of ``trials`` (whole counts),
    or their beta-binomial confidence sequence, narrowest at ``tuning`` trials (``[0, 1]``
    before any).

    Examples:
        >>> print(binomial_interval(85, 100, 0.85, method="wilson"))
        0.85 [0.7672, 0.9069] (95% wilson)
        >>> print(binomial_interval(850, 1000, 0.85, method="beta-binomial"))
        0.85 [0.812, 0.8834] (95% anytime beta-binomial)
    """
    check_choice("method", method, PROPORTION_METHODS)
    if method == "beta-binomial":
        level, tuning = _check_level(level), check_tuning(tuning)
        whole = _integral(np.array([successes, trials], dtype=np.float64), "method='beta-binomial'")
        low, high = beta_binomial_bounds(float(whole[0]), float(whole[1]), level, tuning)
        return Interval(estimate, low, high, level, method, anytime=True)
    low, high = (wilson if method == "wilson" else clopper_pearson)(successes, trials, level)
    return Interval(estimate, low, high, level, method)


def sample_proportion_interval(successes: Count, trials: Count, *, level: float = 0.95, method: str | None = None, anytime: bool = False,
                               tuning: float = DEFAULT_TUNING) -> Interval:  # fmt: skip
    """``binomial_interval`` of counts of samples: the estimate ``successes / trials`` (NaN of
    no trial), refused for weights that are not whole numbers (they are no counts of samples).
    ``method``: ``"wilson"`` (the default) or ``"clopper-pearson"``; with ``anytime`` the
    confidence sequence, ``"beta-binomial"`` (the default) or ``"asymptotic"`` (the normal
    mixture with the spread of a proportion, ``sqrt(n p (1 - p) / (n - 1))``).

    Raises:
        UnsupportedSettingError: counts that are not whole numbers.

    Examples:
        >>> print(sample_proportion_interval(9, 10))
        0.9 [0.5958, 0.9821] (95% wilson)
        >>> print(sample_proportion_interval(900, 1000, anytime=True))
        0.9 [0.8673, 0.9274] (95% anytime beta-binomial)
    """
    if check_anytime(anytime):
        method = "beta-binomial" if method is None else method
        check_choice("method", method, ANYTIME_METHODS)
    else:
        method = "wilson" if method is None else method
        check_choice("method", method, ("wilson", "clopper-pearson"))
    for count in (successes, trials):
        if not float(count).is_integer():
            raise UnsupportedSettingError(f"method={method!r} counts samples, and these counts ({show(count)}) are weights that are not whole numbers: "
                                          "count with integer weights (repeated samples) or none")  # fmt: skip
    n = float(trials)
    estimate = float(successes) / n if n else math.nan
    if method == "asymptotic":
        level, tuning = _check_level(level), check_tuning(tuning)
        spread = math.sqrt(n * estimate * (1 - estimate) / (n - 1)) if n > 1 else math.nan
        return Interval(estimate, *sequence_bounds(estimate, n, spread, level, tuning), level, method, anytime=True).within((0.0, 1.0))
    return binomial_interval(successes, trials, estimate, level=level, method=method, tuning=tuning)


def kappa_interval(table: ArrayLike, estimate: float, *, level: float = 0.95) -> Interval:
    """The asymptotic interval of Cohen's kappa of a confusion matrix (``kappa_standard_error``).

    Examples:
        >>> print(kappa_interval([[40, 10], [5, 45]], 0.7))
        0.7 [0.5607, 0.8393] (95% asymptotic)
    """
    error = kappa_standard_error(_integral(np.asarray(table), "the asymptotic interval"))
    z = _z(_check_level(level))
    return Interval(estimate, estimate - z * error, estimate + z * error, level, "asymptotic")


LOG_MEASURES = ("positive_likelihood_ratio", "negative_likelihood_ratio", "diagnostic_odds_ratio")
"""The measures with a log-method interval (``method="log"``)."""


def log_ratio_interval(tp: float, fp: float, fn: float, tn: float, measure: str, estimate: float, *, level: float = 0.95) -> Interval:
    """The log-method interval of a likelihood ratio or the diagnostic odds ratio of one
    class's cells: ``exp(ln(estimate) ± z·SE)`` with

    * LR+: ``SE² = 1/tp - 1/(tp + fn) + 1/fp - 1/(fp + tn)`` (Simel, Samsa and Matchar, 1991),
    * LR-: ``SE² = 1/fn - 1/(tp + fn) + 1/tn - 1/(fp + tn)`` (the same),
    * DOR: ``SE² = 1/tp + 1/fp + 1/fn + 1/tn`` (Woolf, 1955).

    The bounds are NaN when a count in ``SE²`` is 0 (no continuity correction is added).

    Examples:
        >>> print(log_ratio_interval(35, 10, 5, 50, "positive_likelihood_ratio", 5.25))
        5.25 [2.946, 9.356] (95% log)
    """
    check_choice("measure", measure, LOG_MEASURES)
    tp, fp, fn, tn = (float(value) for value in _integral(np.array([tp, fp, fn, tn]), "the log-method interval"))
    level = _check_level(level)
    needed = {"positive_likelihood_ratio": (tp, fp), "negative_likelihood_ratio": (fn, tn), "diagnostic_odds_ratio": (tp, fp, fn, tn)}[measure]
    if min(needed) == 0 or not estimate > 0:
        return Interval(estimate, math.nan, math.nan, level, "log")
    if measure == "positive_likelihood_ratio":
        variance = 1 / tp - 1 / (tp + fn) + 1 / fp - 1 / (fp + tn)
    elif measure == "negative_likelihood_ratio":
        variance = 1 / fn - 1 / (tp + fn) + 1 / tn - 1 / (fp + tn)
    else:
        variance = 1 / tp + 1 / fp + 1 / fn + 1 / tn
    spread = _z(level) * math.sqrt(max(variance, 0.0))
    return Interval(estimate, estimate * math.exp(-spread), estimate * math.exp(spread), level, "log")


def rows_interval(
    rows: Cells, measure: Measure, average: str, estimate: float, *, level: float = 0.95, method: str = "bca",
    n_resamples: int = 2000, random_state: RandomState = None, undefined: UndefinedPolicy = "exclude", parameters: dict[str, Any] | None = None,
    tuning: float = DEFAULT_TUNING,
) -> Interval:  # fmt: skip
    """The bootstrap interval (or, ``method="anytime"``, the asymptotic confidence sequence) of
    the ``"micro"`` or ``"samples"`` average of per-sample cells (multi-label, soft and
    hierarchical results): kinds are the stored rows.

    Examples:
        >>> from evalkit.measures._registry import get_measure
        >>> rows = Cells(tp=[1, 0, 2], fp=[0, 1, 0], fn=[1, 0, 0], tn=[2, 3, 2], weight=[30, 20, 50])
        >>> rows_interval(rows, get_measure("recall"), "micro", 0.8, random_state=0).low < 0.8
        True
    """
    check_choice("method", method, KINDS_METHODS)
    check_choice("average", average, ("micro", "samples"))
    parameters = dict(parameters or {})
    if average == "micro":
        kinds = _row_kinds(rows)

        def micro(sums: np.ndarray) -> np.ndarray:
            return np.asarray(measure(tp=sums[:, 0], fp=sums[:, 1], fn=sums[:, 2], tn=sums[:, 3], **parameters), dtype=np.float64)

        return _bootstrap(kinds, micro, estimate, level=level, method=method, n_resamples=n_resamples, random_state=random_state, tuning=tuning)
    values = np.asarray(rows.evaluate_rows(measure, **parameters), dtype=np.float64)
    if check_undefined(undefined) == "nan" and np.isnan(values).any():
        return Interval(estimate, math.nan, math.nan, level, "asymptotic" if method == "anytime" else method, anytime=method == "anytime")
    filled = fill_undefined(values, undefined)
    defined = ~np.isnan(filled)
    return ratio_interval(np.where(defined, filled, 0.0), defined, rows.row_weights(), estimate, level=level, method=method,
                          n_resamples=n_resamples, random_state=random_state, tuning=tuning)  # fmt: skip


def ratio_interval(
    numerators: ArrayLike, denominators: ArrayLike, counts: ArrayLike | None, estimate: float, *, level: float = 0.95, method: str = "bca",
    n_resamples: int = 2000, random_state: RandomState = None, tuning: float = DEFAULT_TUNING,
) -> Interval:  # fmt: skip
    """The bootstrap interval (or, ``method="anytime"``, the asymptotic confidence sequence) of
    ``Σ numerator / Σ denominator`` over kinds of sample, each kind adding its ``numerators[k]``
    and ``denominators[k]`` once per sample (``counts[k]`` samples): a mean of per-sample
    values, AA and RAR of neighborhood systems.

    Examples:
        >>> ratio_interval([1, 0], [1, 1], [70, 30], 0.7, random_state=0).low < 0.7
        True
    """
    check_choice("method", method, KINDS_METHODS)
    columns = np.stack([np.asarray(numerators, dtype=np.float64), np.asarray(denominators, dtype=np.float64)], axis=1)
    kinds = _dense_kinds(columns, _integral(np.asarray(counts), "a bootstrap"))

    def statistic(sums: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(sums[:, 1] > 0, sums[:, 0] / np.where(sums[:, 1] > 0, sums[:, 1], 1.0), np.nan)

    return _bootstrap(kinds, statistic, estimate, level=level, method=method, n_resamples=n_resamples, random_state=random_state, tuning=tuning)


def indicators_interval(
    y_true: LabelsLike, y_pred: LabelsLike, measure: MeasureLike, average: str | None = "macro", *, label: int | None = None, tnorm: str | Callable[[np.ndarray, np.ndarray], np.ndarray] = "product",
    level: float = 0.95, method: str | None = None, n_resamples: int = 2000, random_state: RandomState = None, sample_weight: ArrayLike | None = None,
    undefined: UndefinedPolicy = "exclude", metrics_class: type[Any] | None = None, anytime: bool = False, tuning: float = DEFAULT_TUNING,
    **parameters: Any,
) -> Interval:  # fmt: skip
    """A bootstrap interval of any measure and average of multi-label 0/1 indicators or soft
    degrees (samples x labels), from the data: what an ``Evaluation`` cannot give for macro and
    weighted averages, because it keeps no per-sample per-class cells. With ``anytime``, the
    confidence sequence instead (see ``CellsResult.interval``): the beta-binomial one of a
    proportion of 0/1 indicators (one column, or the micro average), the asymptotic one,
    from the same kinds, of the rest.

    Kinds are the distinct (actual row, predicted row) pairs; one sample of a kind adds its
    per-class cells (under the t-norm, for degrees) to the sums, so memory is
    ``distinct rows x 4m`` numbers.

    Args:
        y_true: ``n x m`` actual 0/1 indicators or degrees in [0, 1].
        y_pred: ``n x m`` predicted indicators or degrees.
        measure: the measure.
        average: ``"micro"``, ``"macro"`` or ``"weighted"`` (``None`` with ``label``).
        label: one column (an index).
        tnorm: the t-norm of soft degrees (as for ``Evaluation.from_soft``).
        level: the confidence level.
        method: ``"bca"`` (the default) or ``"percentile"``; with ``anytime``,
            ``"beta-binomial"`` or ``"asymptotic"`` (each the default where it applies).
        n_resamples: bootstrap resamples.
        random_state: the seed.
        sample_weight: integer weights (repeated samples).
        undefined: the undefined-value policy of the averages.
        metrics_class: a ``ClassificationMetrics`` subclass whose getter is the measure.
        anytime: a confidence sequence, valid at every sample size at once.
        tuning: with ``anytime``, the sample size where it is narrowest.
        **parameters: of the measure.

    Examples:
        >>> import numpy as np
        >>> rng = np.random.default_rng(0)
        >>> interval = indicators_interval(rng.integers(0, 2, (300, 4)), rng.integers(0, 2, (300, 4)), "f1_score", random_state=0)
        >>> interval.low < interval.estimate < interval.high
        True
    """
    from evalkit._engine.tnorms import get_tnorm

    method = check_method(method, anytime)
    if not anytime:
        check_choice("method", method, BOOTSTRAP_METHODS)
    if (average is None) == (label is None):
        raise InvalidArgumentError("give 'average' ('micro', 'macro' or 'weighted') or 'label' (a column index), one of them")
    if average is not None:
        check_choice("average", average, AVERAGES[:3])
    actual = check_matrix(y_true, "y_true")
    predicted = check_matrix(y_pred, "y_pred", actual.shape)
    for name, values in (("y_true", actual), ("y_pred", predicted)):
        if not ((values >= 0) & (values <= 1)).all():
            raise InvalidArgumentError(f"{name!r} must hold 0/1 indicators or degrees in [0, 1], got {show(values)}")
    n, m = actual.shape
    if label is not None and not (isinstance(label, (int, np.integer)) and 0 <= label < m):
        raise InvalidArgumentError(f"'label' must be a column index in [0, {m}), got {show(label)}")
    weight = check_sample_weight(sample_weight, n)
    distinct, inverse = np.unique(np.concatenate([actual, predicted], axis=1), axis=0, return_inverse=True)
    counts = _integral(np.bincount(inverse.ravel(), weights=weight, minlength=len(distinct)), "an interval over samples (a bootstrap, an anytime sequence)")
    a, p = distinct[:, :m].astype(np.float64), distinct[:, m:].astype(np.float64)
    t = get_tnorm(tnorm)
    contributions = np.concatenate([t(a, p), t(1 - a, p), t(a, 1 - p), t(1 - a, 1 - p)], axis=1)
    resolved = _resolve(measure, metrics_class, parameters)
    policy = check_undefined(undefined)

    def statistic(sums: np.ndarray) -> np.ndarray:
        cells = Cells(*(sums[:, k * m : (k + 1) * m] for k in range(4)))
        if label is not None:
            return np.asarray(cells.evaluate(resolved, **parameters), dtype=np.float64)[:, label]
        assert average is not None  # one of label and average is given, checked above
        return average_rows(resolved, cells, average, undefined=policy, parameters=parameters)

    kinds = _dense_kinds(contributions, counts)
    totals = counts.astype(np.float64) @ contributions
    estimate = float(statistic(totals[None, :])[0])
    if anytime:  # a proportion of 0/1 indicators: the beta-binomial sequence by default, as a result's
        coefficients = _proportion(resolved, parameters)
        per_sample = contributions.reshape(len(contributions), 4, m)[:, :, slice(label, label + 1) if label is not None else slice(None)].sum(axis=2)
        proportion = average in (None, "micro") and coefficients is not None and bool(np.all(per_sample @ np.asarray(coefficients[1], dtype=np.float64) <= 1))
        crisp = all(bool(np.all((values == 0) | (values == 1))) for values in (a, p))
        method = sequence_method(method if method is not None or crisp else "asymptotic", proportion, resolved.name)
        if method == "beta-binomial":  # a proportion of the column's cells, or of every column's
            columns = slice(label, label + 1) if label is not None else slice(None)
            cells = Cells(*(np.array([totals[k * m : (k + 1) * m][columns].sum()]) for k in range(4)))
            return proportion_interval(resolved, cells, estimate, level=level, method=method, parameters=parameters, tuning=tuning)
    found = _bootstrap(kinds, statistic, estimate, level=level, method=cast(str, method), n_resamples=n_resamples, random_state=random_state, tuning=tuning)
    return found.within(resolved.bounds) if anytime else found


def cells_interval(
    tp: float, fp: float, fn: float, tn: float, measure: MeasureLike, *, level: float = 0.95, method: str | None = None, n_resamples: int = 2000,
    random_state: RandomState = None, metrics_class: type[Any] | None = None, anytime: bool = False, tuning: float = DEFAULT_TUNING, **parameters: Any,
) -> Interval:  # fmt: skip
    """The interval of a measure of one class's cells (``ClassificationMetrics.interval``):
    closed forms for proportions, or the bootstrap of the four cells' multinomial; with
    ``anytime``, the confidence sequence (see ``CellsResult.interval``).

    Examples:
        >>> print(cells_interval(45, 10, 5, 40, "recall", method="clopper-pearson"))
        0.9 [0.7819, 0.9667] (95% clopper-pearson)
        >>> print(cells_interval(45, 10, 5, 40, "recall", anytime=True, tuning=100))
        0.9 [0.7259, 0.9858] (95% anytime beta-binomial)
    """
    method = check_method(method, anytime)
    resolved = _resolve(measure, metrics_class, parameters)
    if anytime:
        method = sequence_method(method, _proportion(resolved, parameters) is not None, resolved.name)
    cells = Cells(*(np.array([value]) for value in (tp, fp, fn, tn)))
    estimate = float(np.asarray(cells.evaluate(resolved, **parameters))[0])
    if method in PROPORTION_METHODS:
        return proportion_interval(resolved, cells, estimate, level=level, method=cast(str, method), parameters=parameters, tuning=tuning)
    if method == "log":
        if resolved.name not in LOG_MEASURES:
            raise InvalidArgumentError(f"method='log' is for {', '.join(LOG_MEASURES)}; {resolved.name!r} takes 'bca' or 'percentile'")
        return log_ratio_interval(tp, fp, fn, tn, resolved.name, estimate, level=level)
    if method not in KINDS_METHODS:
        raise InvalidArgumentError(f"method={method!r} does not apply to one class's cells: use 'bca', 'percentile', 'wilson' or 'clopper-pearson'")
    counts = _integral(np.array([tp, fp, fn, tn]), "an interval over samples (a bootstrap, an anytime sequence)")
    kinds = _dense_kinds(np.eye(4), counts)

    def statistic(sums: np.ndarray) -> np.ndarray:
        return np.asarray(resolved(tp=sums[:, 0], fp=sums[:, 1], fn=sums[:, 2], tn=sums[:, 3], **parameters), dtype=np.float64)

    found = _bootstrap(kinds, statistic, estimate, level=level, method=cast(str, method), n_resamples=n_resamples, random_state=random_state, tuning=tuning)
    return found.within(resolved.bounds) if anytime else found


def area_interval(
    tp: np.ndarray, fp: np.ndarray, measure: str, estimate: float, *, level: float = 0.95, method: str | None = None, n_resamples: int = 2000,
    random_state: RandomState = None, anytime: bool = False, tuning: float = DEFAULT_TUNING,
) -> Interval:  # fmt: skip
    """ROC AUC (DeLong's interval or the bootstrap) or average precision (the bootstrap) of one
    exact curve, from its cumulative ``tp`` and ``fp`` at each distinct score (highest first),
    as ``ThresholdCurve.cells`` gives them; with ``anytime``, the asymptotic confidence
    sequence (``method="asymptotic"``) from the jackknife of the same kinds.

    Examples:
        >>> print(area_interval([1, 2, 2, 3, 3, 3], [0, 0, 1, 1, 2, 3], "roc_auc", 0.8889))
        0.8889 [0.5809, 1] (95% delong)
    """
    check_choice("measure", measure, ("roc_auc", "average_precision"))
    if check_anytime(anytime):
        check_choice("method", "asymptotic" if method is None else method, ("asymptotic",))
        method = "anytime"
    method = method or ("delong" if measure == "roc_auc" else "bca")
    check_choice("method", method, ("delong", *KINDS_METHODS))
    tp, fp = _integral(np.asarray(tp), "an interval of a curve"), _integral(np.asarray(fp), "an interval of a curve")
    level = _check_level(level)
    if method == "delong":
        if measure != "roc_auc":
            raise InvalidArgumentError("method='delong' is for ROC AUC; average precision takes 'bca' or 'percentile'")
        positives_at, negatives_at, v10, v01 = _curve_placements(tp, fp)
        m, n = positives_at.sum(), negatives_at.sum()
        if m < 2 or n < 2:
            return Interval(estimate, math.nan, math.nan, level, method)
        variance = _grouped_variance(v10, positives_at) / m + _grouped_variance(v01, negatives_at) / n
        z = _z(level)
        error = math.sqrt(max(variance, 0.0))
        return Interval(estimate, max(0.0, estimate - z * error), min(1.0, estimate + z * error), level, method)
    positives_at, negatives_at = np.diff(tp, prepend=0), np.diff(fp, prepend=0)
    levels = len(tp)
    area = area_rows(measure)
    closed = None
    if measure == "roc_auc":  # leave one sample out: the AUC moves by its placement value
        _, _, v10, v01 = _curve_placements(tp, fp)
        m, n = float(tp[-1]), float(fp[-1])
        with np.errstate(invalid="ignore", divide="ignore"):
            left_out = np.concatenate([(m * estimate - v10) / (m - 1), (n * estimate - v01) / (n - 1)])
        closed = lambda rows: left_out[rows]
    found = counts_interval(np.concatenate([positives_at, negatives_at]), lambda drawn: area(drawn[:, :levels], drawn[:, levels:]), estimate,
                            level=level, method=method, n_resamples=n_resamples, random_state=random_state, jackknife_values=closed,
                            what=measure.replace("_", " "), tuning=tuning)  # fmt: skip
    return found.within((0.0, 1.0)) if anytime else found


def counts_interval(
    counts: ArrayLike, statistic: Callable[[np.ndarray], np.ndarray], estimate: float, *, level: float = 0.95, method: str = "bca",
    n_resamples: int = 2000, random_state: RandomState = None, jackknife_values: Callable[[np.ndarray], np.ndarray] | None = None,
    what: str = "the statistic", tuning: float = DEFAULT_TUNING,
) -> Interval:  # fmt: skip
    """The bootstrap interval of any statistic of counts of sample kinds: every resample draws
    the counts from their multinomial and ``statistic`` maps a batch of them (resamples x
    kinds) to one value per resample. BCa's jackknife leaves one sample of each kind out
    (``jackknife_values``: a closed form of those values, when one exists); beyond
    20,000 kinds without one, the percentile interval is given, with a warning.
    ``method="anytime"``: the asymptotic confidence sequence from the same jackknife
    (``jackknife_spread``, which refuses beyond 20,000 kinds without a closed form).

    Examples:
        >>> share = lambda drawn: drawn[:, 1] / drawn.sum(axis=1)   # the share of the second kind
        >>> print(counts_interval([30, 70], share, 0.7, method="percentile", random_state=0))
        0.7 [0.61, 0.79] (95% percentile)
    """
    check_choice("method", method, KINDS_METHODS)
    counts = _integral(np.asarray(counts), "an interval over samples (a bootstrap, an anytime sequence)")
    if method == "bca" and jackknife_values is None and len(counts) > _MOST_JACKKNIFE_KINDS:
        warnings.warn(f"BCa of {what} over {len(counts):,} kinds of sample needs a jackknife too large to run: the percentile interval is given",
                      EvalkitWarning, stacklevel=3)  # fmt: skip
        method = "percentile"
    kinds = _Kinds(counts, lambda drawn: drawn, lambda rows: _jackknife_identity(counts, rows), jackknife_values=jackknife_values)
    return _bootstrap(kinds, statistic, estimate, level=level, method=method, n_resamples=n_resamples, random_state=random_state, tuning=tuning)


def area_rows(measure: str) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """ROC AUC or average precision of many curves at once, from positives and negatives per
    distinct score (rows x levels, highest score first)."""

    def area(positives_at: np.ndarray, negatives_at: np.ndarray) -> np.ndarray:
        tp, fp = np.cumsum(positives_at, axis=1), np.cumsum(negatives_at, axis=1)
        m, n = tp[:, -1], fp[:, -1]
        with np.errstate(invalid="ignore", divide="ignore"):
            if measure == "roc_auc":
                previous = tp - positives_at
                value = (negatives_at * (tp + previous)).sum(axis=1) / (2 * m * n)
                return np.where((m > 0) & (n > 0), value, np.nan)
            precision = np.where(tp + fp > 0, tp / np.where(tp + fp > 0, tp + fp, 1), 0.0)
            return np.where(m > 0, (positives_at * precision).sum(axis=1) / np.where(m > 0, m, 1), np.nan)

    return area


# --------------------------------------------------------------------------------------------
# paired comparisons


def result_interval(result: _HasInterval, measure: MeasureLike, average: str | None = None, **options: Any) -> Interval:
    """``result.interval(measure, average, **options)``: the older spelling, kept for one release."""
    warnings.warn("evalkit._results.intervals.result_interval(result, ...) is now result.interval(...)", DeprecationWarning, stacklevel=2)
    interval: Interval = result.interval(measure, average, **options)
    return interval


if not TYPE_CHECKING:  # the names this module gave in evalkit 0.1.0 and lost, found with a warning
    __getattr__ = moved_names.finder(__name__)
