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

Paired comparisons (``compare``): the exact McNemar test (and its mid-p variant, which
M. W. Fagerland, S. Lydersen and P. Laake, "The McNemar test for binary matched-pairs data",
2013, recommend) for accuracy, DeLong's test for two AUCs on the same samples, and a paired
bootstrap of the difference for any measure and average. ``compare_many`` compares several
classifiers pairwise with Holm's step-down correction of the p-values.

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
from collections.abc import Callable, Hashable, Mapping, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any, Protocol, cast

import attrs
import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine import moved_names
from evalkit._engine._labels import label_position, sorted_labels
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
from evalkit._engine.counting import encode
from evalkit._results._closed_form import (
    Interval,
    KappaTest,
    _binomial_tail,
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
    _check_resamples,
    _dense_kinds,
    _group_sums,
    _integral,
    _jackknife_identity,
    _Kinds,
    _pair_kinds,
    _pair_statistic,
    _replicates,
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
    beta_binomial_p_value,
    check_tuning,
    normal_mixture_p_value,
    sequence_bounds,
)
from evalkit._results.multiplicity import PAIRWISE_CORRECTIONS, adjust_pairwise
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
    "Comparison",
    "Interval",
    "KappaTest",
    "area_interval",
    "area_rows",
    "binomial_interval",
    "cells_interval",
    "check_anytime",
    "check_method",
    "clopper_pearson",
    "column_sums",
    "compare",
    "compare_many",
    "compare_results",
    "counts_interval",
    "counts_replicates",
    "delong",
    "indicators_interval",
    "kappa_interval",
    "kappa_standard_error",
    "kappa_test",
    "log_ratio_interval",
    "mcnemar",
    "pairs_interval",
    "percentile_interval",
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


@attrs.frozen
class Comparison:
    """A paired comparison of two classifiers on the same samples: ``first - second``.

    Attributes:
        difference: the first classifier's value minus the second's.
        low, high: the confidence interval of the difference (NaN for tests that give none).
        p_value: the p-value of "no difference" (after the correction, in ``compare_many``).
        method: ``"mcnemar"``, ``"mcnemar-midp"``, ``"delong"``, ``"bca"`` or ``"percentile"``;
            anytime: ``"beta-binomial"`` or ``"asymptotic"``.
        estimates: the two values.
        level: the confidence level of the interval.
        direction: the measure's direction (``"higher"`` or ``"lower"`` is better, or
            ``None``): how to read the sign of the difference.
        anytime: a sequential comparison: the interval is a confidence sequence and the p-value
            anytime-valid, so a stream may compare after every batch and stop as soon as the
            p-value falls below its alpha (``compare(..., anytime=True)``).
    """

    difference: float
    low: float
    high: float
    p_value: float
    method: str
    estimates: tuple[float, float] = (math.nan, math.nan)
    level: float = 0.95
    direction: str | None = "higher"
    anytime: bool = False

    @property
    def better(self) -> str | None:
        """``"first"`` or ``"second"``: which classifier the difference favours, by the
        measure's direction (for a loss, a negative difference favours the first); ``None``
        when they tie or the measure has no direction. Read it with the p-value: it says which
        is better on these samples, not whether the difference is significant.

        Examples:
            >>> Comparison(-0.1, -0.2, 0.0, 0.04, "bca", (0.2, 0.3), direction="lower").better
            'first'
        """
        if self.direction not in ("higher", "lower") or not self.difference or math.isnan(self.difference):
            return None
        return "first" if (self.difference > 0) == (self.direction == "higher") else "second"

    def __str__(self) -> str:
        bounds = "" if math.isnan(self.low) else f" [{self.low:.4g}, {self.high:.4g}]"
        return f"difference {self.difference:.4g}{bounds}, p = {self.p_value:.4g} ({'anytime ' if self.anytime else ''}{self.method})"


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
    coefficients = _proportion(measure, dict(parameters or {}))
    if coefficients is None:
        raise InvalidArgumentError(f"method={method!r} is for proportions (successes / trials); {measure.name!r} is none: use 'bca' or 'percentile'")
    values = np.array([float(np.asarray(row).sum()) for row in cells.rows()])
    _integral(values, f"method={method!r}")
    a, b = coefficients
    return binomial_interval(float(a @ values), float(b @ values), estimate, level=level, method=method, tuning=tuning)


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
    ``method="anytime"``: the asymptotic confidence sequence from the same jackknife.

    Raises:
        UnsupportedSettingError: ``"anytime"`` beyond 20,000 kinds without a closed form of
            the jackknife (it would run the statistic once per kind).

    Examples:
        >>> share = lambda drawn: drawn[:, 1] / drawn.sum(axis=1)   # the share of the second kind
        >>> print(counts_interval([30, 70], share, 0.7, method="percentile", random_state=0))
        0.7 [0.61, 0.79] (95% percentile)
    """
    check_choice("method", method, KINDS_METHODS)
    counts = _integral(np.asarray(counts), "an interval over samples (a bootstrap, an anytime sequence)")
    if method == "anytime" and jackknife_values is None and len(counts) > _MOST_JACKKNIFE_KINDS:
        raise UnsupportedSettingError(f"an anytime sequence of {what} over {len(counts):,} kinds of sample needs a jackknife too large to run")
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


def mcnemar(first_right: ArrayLike, second_right: ArrayLike, *, midp: bool = False, sample_weight: ArrayLike | None = None) -> float:
    """The exact McNemar p-value of two classifiers' right/wrong on the same samples: a
    two-sided binomial test on the discordant pairs ``b`` (first right only) and ``c``
    (second right only); the mid-p variant subtracts ``P(X = min(b, c))`` (Fagerland, Lydersen
    and Laake, 2013). No discordant pair gives p = 1.

    Examples:
        >>> round(mcnemar([1, 1, 1, 1, 1, 1, 0, 0], [0, 0, 0, 0, 0, 1, 0, 0]), 4)
        0.0625
    """
    first, second = np.asarray(first_right, dtype=bool), np.asarray(second_right, dtype=bool)
    weight = np.ones(len(first), dtype=np.int64) if sample_weight is None else _integral(np.asarray(sample_weight), "McNemar's test")
    b, c = int(weight[first & ~second].sum()), int(weight[~first & second].sum())
    n = b + c
    if n == 0:
        return 1.0
    tail, point = _binomial_tail(min(b, c), n)
    p_value = 2 * tail - (point if midp else 0.0)
    return float(min(1.0, p_value))


def compare(
    y_true: LabelsLike, first: LabelsLike, second: LabelsLike, measure: MeasureLike = "accuracy", average: str | None = None, *, method: str | None = None,
    labels: Sequence[Any] | None = None, level: float = 0.95, n_resamples: int = 2000, random_state: RandomState = None,
    sample_weight: ArrayLike | None = None, undefined: UndefinedPolicy = "exclude", metrics_class: type[Any] | None = None, anytime: bool = False,
    tuning: float = DEFAULT_TUNING, **parameters: Any,
) -> Comparison:  # fmt: skip
    """Compare two classifiers on the same samples: ``first - second``; ``Comparison.better``
    reads the sign by the measure's direction (for a loss, lower is better).

    Args:
        y_true: the actual labels.
        first: the first classifier's predicted labels, or (``method="delong"``) its scores
            of the positive class (``y_true`` then 0/1).
        second: the second classifier's, likewise.
        measure: the measure (``"accuracy"`` for McNemar; ``"roc_auc"`` for DeLong; any
            measure for the bootstrap).
        average: for the bootstrap of a per-class measure: ``"micro"``, ``"macro"`` or
            ``"weighted"`` (or ``None`` for accuracy, kappa and MCC of the whole result).
        method: ``"mcnemar"`` (the default), ``"mcnemar-midp"``, ``"delong"``, ``"bca"`` or
            ``"percentile"`` (a paired bootstrap: the same resamples for both). With
            ``anytime``: ``"beta-binomial"`` (accuracy: McNemar's discordant pairs, exact; the
            default for it) or ``"asymptotic"`` (any measure: the default for the rest).
        labels: the classes (default: the sorted labels seen).
        level: the confidence level of the interval of the difference.
        n_resamples: bootstrap resamples.
        random_state: the bootstrap's seed.
        sample_weight: integer weights (repeated samples).
        undefined: the undefined-value policy of averages.
        metrics_class: a ``ClassificationMetrics`` subclass whose getters (and overrides) are
            measures by name (the bootstrap).
        anytime: a sequential comparison of two classifiers on one stream, valid however often
            it is read (see ``Comparison.anytime``): the p-value falls below ``1 - level`` at
            some time with probability at most ``1 - level`` when they are equally good.
        tuning: with ``anytime``, the sample size where it is most powerful (see
            ``CellsResult.interval``); for McNemar's, in discordant samples.
        **parameters: of the measure (``beta=2``).

    Examples:
        >>> y = [0, 1, 1, 0, 1, 0, 1, 1]
        >>> result = compare(y, [0, 1, 1, 0, 1, 0, 1, 0], [0, 0, 1, 1, 0, 0, 1, 0])
        >>> round(result.difference, 3), round(result.p_value, 3), result.method
        (0.375, 0.25, 'mcnemar')
        >>> print(compare(y * 5, [0, 1, 1, 0, 1, 0, 1, 0] * 5, [0, 0, 1, 1, 0, 0, 1, 0] * 5, anytime=True, tuning=100))
        difference 0.375, p = 0.01415 (anytime beta-binomial)
    """
    if check_anytime(anytime):
        return _paired_sequence(y_true, first, second, measure, average, method, labels, level, sample_weight, undefined, metrics_class, tuning, parameters)
    method = "mcnemar" if method is None else method
    check_choice("method", method, ("mcnemar", "mcnemar-midp", "delong", *BOOTSTRAP_METHODS))
    check_random_state(random_state)
    if method == "delong":
        ignored = [name for name, value, default in (("measure", measure, "accuracy"), ("average", average, None), ("labels", labels, None),
                                                     ("sample_weight", sample_weight, None), ("metrics_class", metrics_class, None))
                   if not (value is default or (isinstance(value, str) and value in (default, "roc_auc")))] + sorted(parameters)  # fmt: skip
        if ignored:
            raise InvalidArgumentError(f"DeLong's test compares the ROC AUCs of two binary scores, unweighted: it takes no {', '.join(ignored)}; "
                                       "use a bootstrap (method='bca', measure=...) for weights, labels or other measures")  # fmt: skip
        aucs, covariance = delong(y_true, cast("ArrayLike", first), cast("ArrayLike", second))  # scores
        difference = float(aucs[0] - aucs[1])
        variance = float(covariance[0, 0] + covariance[1, 1] - 2 * covariance[0, 1])
        z = _z(_check_level(level))
        error = math.sqrt(max(variance, 0.0))
        p_value = 1.0 if error == 0 else two_sided_p_value(difference / error)
        return Comparison(difference, difference - z * error, difference + z * error, p_value, method, (float(aucs[0]), float(aucs[1])), level)
    codes, labels, weight = _three_codes(y_true, first, second, labels, sample_weight)
    if method in ("mcnemar", "mcnemar-midp"):
        resolved = resolve_measure(measure, metrics_class)
        if resolved.name != "accuracy" or resolved.getter is not None or average is not None:
            raise InvalidArgumentError(
                "McNemar's test compares accuracies (the shares of right samples): measure='accuracy' and no average; "
                "use a bootstrap (method='bca') for other measures and for getters"
            )
        actual, one, two = codes
        p_value = mcnemar(one == actual, two == actual, midp=method == "mcnemar-midp", sample_weight=weight)
        total = len(actual) if weight is None else float(weight.sum())
        first_share, second_share = (float((right if weight is None else right * weight).sum() / total) for right in (one == actual, two == actual))
        estimates = (first_share, second_share)
        return Comparison(estimates[0] - estimates[1], math.nan, math.nan, p_value, method, estimates, level)
    resolved = _resolve(measure, metrics_class, parameters)
    return _paired_bootstrap(codes, len(labels), weight, resolved, average, method, level, n_resamples, random_state, undefined, parameters)


def _three_codes(y_true: LabelsLike, first: LabelsLike, second: LabelsLike, labels: Sequence[Hashable] | None, sample_weight: ArrayLike | None) -> tuple[tuple[np.ndarray, ...], tuple, np.ndarray | None]:
    """Codes of the actual and both predicted labels over one label order (the given labels,
    or every label seen, sorted), and the checked weights."""
    if labels is None:
        seen = [found for values in (y_true, first, second) for found in encode(values, values)[2]]
        labels = sorted_labels(list(dict.fromkeys(seen)), "labels")
    actual, one, known, weight = encode(y_true, first, labels, sample_weight=sample_weight)
    _, two, _, _ = encode(y_true, second, known)
    return (actual, one, two), known, weight


def _paired_sequence(y_true: LabelsLike, first: LabelsLike, second: LabelsLike, measure: MeasureLike, average: str | None, method: str | None,
                     labels: Sequence[Any] | None, level: float, sample_weight: ArrayLike | None, undefined: UndefinedPolicy,
                     metrics_class: type[Any] | None, tuning: float, parameters: dict[str, Any]) -> Comparison:  # fmt: skip
    """``compare(..., anytime=True)``: ``"beta-binomial"``, McNemar's test made sequential (the
    anytime-valid p-value of "the first is right in half of the discordant pairs", exact; no
    interval, as McNemar's); ``"asymptotic"``, the confidence sequence of the difference (from
    the paired jackknife) and the p-value of the same normal mixture (below ``1 - level``
    exactly where the sequence leaves 0 out)."""
    checked = check_method(method, True)
    level, tuning = _check_level(level), check_tuning(tuning)
    codes, found_labels, weight = _three_codes(y_true, first, second, labels, sample_weight)
    resolved = _resolve(measure, metrics_class, parameters)
    discordant = resolved.name == "accuracy" and resolved.getter is None and average is None
    chosen = sequence_method(checked, discordant, resolved.name)
    kinds, gap, estimates = _paired_kinds(codes, len(found_labels), weight, resolved, average, undefined, parameters)
    difference = estimates[0] - estimates[1]
    if chosen == "beta-binomial":
        actual, one, two = codes
        counts = np.ones(len(actual), dtype=np.int64) if weight is None else _integral(weight, "McNemar's test")
        b, c = (int(counts[mask].sum()) for mask in ((one == actual) & (two != actual), (one != actual) & (two == actual)))
        return Comparison(difference, math.nan, math.nan, beta_binomial_p_value(b, b + c, 0.5, 1 - level, tuning), chosen, estimates, level, anytime=True)
    n, spread = jackknife_spread(kinds, gap, difference)
    span = resolved.bounds[1] - resolved.bounds[0]
    cut = Interval(difference, *sequence_bounds(difference, n, spread, level, tuning), level, "asymptotic").within((-span, span))
    p_value = normal_mixture_p_value(difference, spread, n, 1 - level, tuning)
    return Comparison(difference, cut.low, cut.high, p_value, "asymptotic", estimates, level, resolved.direction, anytime=True)


def _paired_kinds(codes: tuple[np.ndarray, ...], m: int, weight: np.ndarray | None, measure: Measure, average: str | None, undefined: UndefinedPolicy,
                  parameters: dict[str, Any]) -> tuple[_Kinds, Callable[[np.ndarray], np.ndarray], tuple[float, float]]:  # fmt: skip
    """Kinds of (actual, first, second) triples, the difference of the measure of both on a
    draw of them, and the two values on the samples: each resample counts both classifiers on
    the same samples."""
    actual, one, two = (code.astype(np.int64) for code in codes)
    distinct, inverse = np.unique((actual * m + one) * m + two, return_inverse=True)
    counts = _integral(np.bincount(inverse.ravel(), weights=weight, minlength=len(distinct)), "a paired comparison (a bootstrap, an anytime sequence)")
    kind_actual, kind_first, kind_second = distinct // (m * m), (distinct // m) % m, distinct % m
    resolved = measure
    if average is None and resolved.name not in WHOLE_MEASURES:
        raise InvalidArgumentError(f"give an 'average' for {resolved.name!r} (or compare accuracy, cohen_kappa or MCC)")
    statistic = _pair_statistic(resolved, average, None, m, check_undefined(undefined), parameters)

    def value_of(predicted: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
        diagonal = kind_actual == predicted
        return lambda drawn: statistic(
            (_group_sums(drawn[:, diagonal], kind_actual[diagonal], m), _group_sums(drawn, kind_actual, m), _group_sums(drawn, predicted, m))
        )

    first_value, second_value = value_of(kind_first), value_of(kind_second)
    whole = counts[None, :].astype(np.float64)
    estimates = (float(first_value(whole)[0]), float(second_value(whole)[0]))
    kinds = _Kinds(counts, lambda drawn: drawn, lambda rows: _jackknife_identity(counts, rows))

    def gap(drawn: np.ndarray) -> np.ndarray:
        return first_value(drawn) - second_value(drawn)

    return kinds, gap, estimates


def _paired_bootstrap(codes: tuple[np.ndarray, ...], m: int, weight: np.ndarray | None, measure: Measure, average: str | None, method: str,
                      level: float, n_resamples: int, random_state: RandomState, undefined: UndefinedPolicy, parameters: dict[str, Any]) -> Comparison:  # fmt: skip
    """The paired bootstrap of ``compare``: both classifiers counted on the same resamples."""
    kinds, gap, estimates = _paired_kinds(codes, m, weight, measure, average, undefined, parameters)
    difference = estimates[0] - estimates[1]
    replicates = _replicates(kinds, gap, _check_resamples(n_resamples), random_state)
    interval = _bootstrap(kinds, gap, difference, level=level, method=method, n_resamples=n_resamples, random_state=random_state, replicates=replicates)
    return Comparison(difference, interval.low, interval.high, _p_value(replicates, difference), interval.method, estimates, interval.level,
                      measure.direction)  # fmt: skip


def _p_value(replicates: np.ndarray, difference: float) -> float:
    """Two-sided bootstrap p-value of "no difference": the share of centred replicates at least
    as far from 0 as the observed difference (with the observed one counted)."""
    replicates = replicates[~np.isnan(replicates)]
    if not len(replicates) or math.isnan(difference):
        return math.nan
    centred = replicates - replicates.mean()
    return float(min(1.0, (np.count_nonzero(np.abs(centred) >= abs(difference)) + 1) / (len(centred) + 1)))


def compare_results(
    first: Any, second: Any, measure: MeasureLike = "accuracy", average: str | None = None, *, label: Hashable | None = None,
    method: str = "newcombe", level: float = 0.95, n_resamples: int = 2000, random_state: RandomState = None,
    undefined: UndefinedPolicy = "exclude", metrics_class: type[Any] | None = None, **parameters: Any,
) -> Comparison:  # fmt: skip
    """Compare one measure of two results over different samples (this week's window against
    last month's, one site against another): ``first - second`` with a two-sample interval of
    the difference, so a drop is a number with its uncertainty. ``evalkit.compare`` is the paired
    comparison of two classifiers on the same samples.

    * ``"newcombe"`` (default): Newcombe's hybrid score interval (1998, method 10) from the two
      Wilson intervals, ``d - sqrt((p1 - l1)² + (u2 - p2)²)`` to ``d + sqrt((u1 - p1)² +
      (p2 - l2)²)``, with the pooled two-proportion z-test's p-value: for proportions (the whole
      accuracy, one class's recall or precision with ``label=``, a micro average);
    * ``"percentile"``: each result resampled on its own (single-label results), the
      percentile interval of the differences and the bootstrap p-value: any measure or average.

    A window is compared through its result (``window.result``); a decayed one at its
    effective sample size (``Faded.effective()``), which views give by themselves here.

    Raises:
        InvalidArgumentError: ``"newcombe"`` for a measure that is no proportion, or both
            ``label`` and ``average``.

    Examples:
        >>> from evalkit import ConfusionMatrix
        >>> reference = ConfusionMatrix.from_array([[450, 50], [40, 460]])   # last month: 91% right
        >>> current = ConfusionMatrix.from_array([[80, 20], [15, 85]])       # this week: 82.5%
        >>> print(compare_results(current, reference))
        difference -0.085 [-0.1458, -0.03473], p = 0.0003278 (newcombe)
    """
    check_choice("method", method, ("newcombe", "percentile"))
    if label is not None and average is not None:
        raise InvalidArgumentError("give 'label' (one class) or 'average' (over all classes), not both")
    results = [_comparable(result) for result in (first, second)]
    resolved = results[0].measure(measure, metrics_class)
    check_measure_parameters(resolved, parameters)
    policy = check_undefined(undefined)
    if label is None and average is None and resolved.name not in WHOLE_MEASURES:
        raise InvalidArgumentError(f"give an 'average' or a 'label' for {resolved.name!r}; a whole result compares by {', '.join(WHOLE_MEASURES)}")

    def estimate(result: Any) -> float:
        if label is not None:
            return float(result.per_class(resolved, **parameters)[label_position(result.labels, label)])
        if average is not None:
            return float(result.average(resolved, average, undefined=policy, **parameters))
        return float(result._whole_value(resolved.name))

    estimates = (estimate(results[0]), estimate(results[1]))
    difference = estimates[0] - estimates[1]
    if method == "newcombe":
        shares = [_successes(result, resolved, average, label, parameters) for result in results]
        (k1, n1), (k2, n2) = shares
        (l1, u1), (l2, u2) = (wilson(k, n, level) for k, n in shares)
        p1, p2 = k1 / n1, k2 / n2
        low, high = difference - math.hypot(p1 - l1, u2 - p2), difference + math.hypot(u1 - p1, p2 - l2)
        pooled = (k1 + k2) / (n1 + n2)
        spread = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
        p_value = two_sided_p_value(difference / spread) if spread else (1.0 if difference == 0 else 0.0)
        return Comparison(difference, low, high, p_value, method, estimates, _check_level(level), resolved.direction)
    rng = np.random.default_rng(check_random_state(random_state))
    n = _check_resamples(n_resamples)
    replicates = []
    for result in results:
        position = None if label is None else label_position(result.labels, label)
        statistic = _pair_statistic(resolved, average, position, len(result.labels), policy, parameters)
        replicates.append(_replicates(_pair_kinds(result.pair_counts(), False), statistic, n, rng))  # one generator: independent draws
    gaps = replicates[0] - replicates[1]
    defined = gaps[~np.isnan(gaps)]
    interval = percentile_interval(defined, difference, level, len(gaps) - len(defined))
    return Comparison(difference, interval.low, interval.high, _p_value(gaps, difference), method, estimates, interval.level, resolved.direction)


def _comparable(view: object) -> Any:
    """The result a view stands for in a comparison: a decayed view at its effective size, a
    window's result, or the result itself."""
    effective = getattr(view, "effective", None)
    if callable(effective):
        return effective()
    found = getattr(view, "result", None)
    return found if found is not None and hasattr(found, "measure") else view


def _successes(result: Any, measure: Measure, average: str | None, label: Hashable | None, parameters: dict[str, Any]) -> tuple[float, float]:
    """``(successes, trials)`` of a proportion measure of a result (whole accuracy, one class, micro)."""
    if label is None and average is None:
        if measure.name != "accuracy":
            raise InvalidArgumentError(f"method='newcombe' compares proportions; the whole {measure.name!r} is none: use method='percentile'")
        margins = result.pair_counts().margins()
        return float(margins["correct"]), float(margins["total"])
    if average not in (None, "micro"):
        raise InvalidArgumentError(f"method='newcombe' compares proportions; a {average} average is none: use method='percentile'")
    coefficients = _proportion(measure, parameters)
    if coefficients is None:
        raise InvalidArgumentError(f"method='newcombe' compares proportions (successes / trials); {measure.name!r} is none: use method='percentile'")
    cells = result.class_cells
    if label is not None:
        position = label_position(result.labels, label)
        cells = cells[position : position + 1]
    values = np.array([float(np.asarray(row).sum()) for row in cells.rows()])
    a, b = coefficients
    return float(a @ values), float(b @ values)


def compare_many(
    y_true: LabelsLike, predictions: Mapping[Hashable, Any], measure: MeasureLike = "accuracy", average: str | None = None, *, method: str = "mcnemar",
    correction: str = "holm", **options: Any,
) -> dict[tuple[Hashable, Hashable], Comparison]:  # fmt: skip
    """Every pair of several classifiers, with the p-values corrected for the number of pairs:
    ``"holm"`` (Holm's step-down, 1979: controls the family-wise error rate, never less
    powerful than Bonferroni), ``"shaffer"`` or ``"bergmann-hommel"`` (which use the logic of
    pairwise hypotheses; see ``evalkit._results.multiplicity``), ``"bonferroni"`` or ``"none"``.

    Examples:
        >>> y = [0, 1, 1, 0, 1, 0, 1, 1]
        >>> found = compare_many(y, {"a": [0, 1, 1, 0, 1, 0, 1, 0], "b": [0, 0, 1, 1, 0, 0, 1, 0], "c": y})
        >>> [(pair, round(result.p_value, 3)) for pair, result in found.items()]
        [(('a', 'b'), 0.5), (('a', 'c'), 1.0), (('b', 'c'), 0.375)]
    """
    check_choice("correction", correction, PAIRWISE_CORRECTIONS)
    if len(predictions) < 2:
        raise InvalidArgumentError(f"'predictions' must hold at least two classifiers, got {len(predictions)}")
    found = {(a, b): compare(y_true, predictions[a], predictions[b], measure, average, method=method, **options) for a, b in combinations(predictions, 2)}
    adjusted = adjust_pairwise([result.p_value for result in found.values()], len(predictions), correction)
    return {pair: attrs.evolve(result, p_value=float(p)) for (pair, result), p in zip(found.items(), adjusted)}


def result_interval(result: _HasInterval, measure: MeasureLike, average: str | None = None, **options: Any) -> Interval:
    """``result.interval(measure, average, **options)``: the older spelling, kept for one release."""
    warnings.warn("evalkit._results.intervals.result_interval(result, ...) is now result.interval(...)", DeprecationWarning, stacklevel=2)
    interval: Interval = result.interval(measure, average, **options)
    return interval


if not TYPE_CHECKING:  # the names this module gave in evalkit 0.1.0 and lost, found with a warning
    __getattr__ = moved_names.finder(__name__)
