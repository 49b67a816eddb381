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
  (``evalkit.calibration``).
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
from collections.abc import Callable, Sequence
from itertools import combinations
from statistics import NormalDist
from typing import Any, NamedTuple

import attrs
import numpy as np

from evalkit.engine._labels import sorted_labels
from evalkit.engine._validation import (
    as_array,
    check_choice,
    check_count,
    check_matrix,
    check_numbers,
    check_sample_weight,
    show,
)
from evalkit.engine.cells import Cells
from evalkit.engine.counting import PairCounts, encode
from evalkit.engine.serialization import json_safe
from evalkit.exceptions import EvalkitWarning, InvalidArgumentError, InvalidCountsError, UnsupportedSettingError
from evalkit.measures.averaging import AVERAGES, average_rows, check_undefined, fill_undefined
from evalkit.measures.formulas import margins_cohen_kappa, margins_matthews_correlation_coefficient
from evalkit.measures.registry import Measure, check_measure_parameters, resolve_measure
from evalkit.results.rendering import render

__all__ = [
    "BOOTSTRAP_METHODS",
    "MAX_RESAMPLES",
    "METHODS",
    "Comparison",
    "Interval",
    "KappaTest",
    "area_interval",
    "area_rows",
    "binomial_interval",
    "cells_interval",
    "clopper_pearson",
    "column_sums",
    "compare",
    "compare_many",
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
    "stratified_replicates",
    "two_sided_p_value",
    "wilson",
]

BOOTSTRAP_METHODS = ("bca", "percentile", "normal")
METHODS = (*BOOTSTRAP_METHODS, "wilson", "clopper-pearson", "asymptotic", "delong", "log")
WHOLE_MEASURES = ("accuracy", "cohen_kappa", "matthews_correlation_coefficient")
"""Measures of a whole single-label result when no ``average`` or ``label`` is given."""

_BATCH_ENTRIES = 1 << 22  # resamples x kinds held at once
_MOST_JACKKNIFE_KINDS = 20_000  # a jackknife recomputing the statistic per kind costs kinds² beyond a closed form


@attrs.frozen
class Interval:
    """A confidence interval: the estimate, the bounds, the level and how they were found.

    Attributes:
        estimate: the value on the data.
        low, high: the bounds (NaN when the data define none).
        level: the confidence level, e.g. 0.95.
        method: ``"bca"``, ``"percentile"``, ``"wilson"``, ``"clopper-pearson"``,
            ``"asymptotic"`` or ``"delong"``.
        n_undefined: bootstrap resamples where the measure was undefined (left out).
    """

    estimate: float
    low: float
    high: float
    level: float
    method: str
    n_undefined: int = 0

    def __str__(self) -> str:
        return f"{self.estimate:.4g} [{self.low:.4g}, {self.high:.4g}] ({self.level:.0%} {self.method})"

    def _repr_html_(self) -> str:
        """The interval as a one-row table in a notebook."""

        return render("html_table", f"{self.level:.0%} {self.method} interval", ["estimate", "low", "high"], [(self.estimate, self.low, self.high)], 4)

    def to_dict(self, *, strict: bool = False) -> dict[str, Any]:
        """The fields as a plain dict; ``strict=True``: plain data strict JSON takes (NaN as ``None``, infinities as ``"Infinity"``; see ``serialization.json_safe``)."""
        return json_safe(attrs.asdict(self)) if strict else attrs.asdict(self)


@attrs.frozen
class Comparison:
    """A paired comparison of two classifiers on the same samples: ``first - second``.

    Attributes:
        difference: the first classifier's value minus the second's.
        low, high: the confidence interval of the difference (NaN for tests that give none).
        p_value: the p-value of "no difference" (after the correction, in ``compare_many``).
        method: ``"mcnemar"``, ``"mcnemar-midp"``, ``"delong"``, ``"bca"`` or ``"percentile"``.
        estimates: the two values.
        level: the confidence level of the interval.
        direction: the measure's direction (``"higher"`` or ``"lower"`` is better, or
            ``None``): how to read the sign of the difference.
    """

    difference: float
    low: float
    high: float
    p_value: float
    method: str
    estimates: tuple[float, float] = (math.nan, math.nan)
    level: float = 0.95
    direction: str | None = "higher"

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
        return f"difference {self.difference:.4g}{bounds}, p = {self.p_value:.4g} ({self.method})"


# --------------------------------------------------------------------------------------------
# checks


def _check_level(level: Any) -> float:
    if isinstance(level, bool) or not isinstance(level, (int, float, np.floating)) or not 0 < level < 1:
        raise InvalidArgumentError(f"'level' must be a number in (0, 1), e.g. 0.95; got {show(level)}")
    return float(level)


MAX_RESAMPLES = 10_000_000
"""The most bootstrap resamples an interval draws (their values alone take 80 MB); the
resamples themselves are drawn in batches of bounded memory."""


def _check_resamples(n_resamples: Any) -> int:
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)) or not 10 <= n_resamples <= MAX_RESAMPLES:
        raise InvalidArgumentError(f"'n_resamples' must be an integer in 10..{MAX_RESAMPLES:,}, got {show(n_resamples)}")
    return int(n_resamples)


def _integral(counts: np.ndarray, what: str) -> np.ndarray:
    """Counts of samples as int64, or an error for float (weighted) counts."""
    counts = np.asarray(counts)
    if counts.dtype.kind == "f":
        if not np.all(counts == np.round(counts)):
            raise UnsupportedSettingError(
                f"{what} needs counts of samples; these are float sample weights. A bootstrap resamples samples: "
                "evaluate with integer weights (repeated samples) or none"
            )
        counts = counts.astype(np.int64)
    if counts.dtype.kind == "O":
        counts = counts.astype(np.int64)
    return counts


# --------------------------------------------------------------------------------------------
# closed forms


def _scipy_stats() -> Any:
    """scipy.stats, the optional ``stats`` extra, with the install command if it is missing."""
    try:
        import scipy.stats
    except ImportError as error:  # pragma: no cover - the test extra installs scipy
        raise ImportError(f"this interval needs scipy's distributions: pip install 'evalkit[stats]' ({error})") from None
    return scipy.stats


def _z(level: float) -> float:
    return NormalDist().inv_cdf(0.5 + level / 2)


def two_sided_p_value(z: float) -> float:
    """The two-sided p-value of a standard normal statistic, ``2 (1 - Φ(|z|))``, as
    ``erfc(|z| / √2)``: no cancellation in ``1 - Φ`` (``z = 10.5`` gives ``8.6e-26``, not 0).

    Examples:
        >>> round(two_sided_p_value(1.959963984540054), 6), two_sided_p_value(10.5) > 0
        (0.05, True)
    """
    return math.erfc(abs(z) / math.sqrt(2))


def _proportion_counts(successes: Any, trials: Any, *, integral: bool) -> tuple[float, float]:
    """``(successes, trials)`` checked: numbers >= 0 (whole ones where ``integral``), and no
    more successes than trials."""
    k, n = check_count("successes", successes, integral=integral), check_count("trials", trials, integral=integral)
    if k > n:
        raise InvalidCountsError(f"'successes' ({show(successes)}) cannot exceed 'trials' ({show(trials)})")
    return float(k), float(n)


def wilson(successes: Any, trials: Any, level: float = 0.95) -> tuple[float, float]:
    """Wilson's score interval of a proportion ``successes / trials`` (E. B. Wilson, 1927).

    Examples:
        >>> [round(bound, 4) for bound in wilson(85, 100)]
        [0.7672, 0.9069]
    """
    level = _check_level(level)
    k, n = _proportion_counts(successes, trials, integral=False)
    if n <= 0:
        return math.nan, math.nan
    z, p = _z(level), k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def clopper_pearson(successes: Any, trials: Any, level: float = 0.95) -> tuple[float, float]:
    """The exact (Clopper-Pearson, 1934) interval of a proportion, from beta quantiles (scipy).

    Examples:
        >>> [round(bound, 4) for bound in clopper_pearson(85, 100)]
        [0.7647, 0.9135]
    """
    level = _check_level(level)
    k, n = (int(count) for count in _proportion_counts(successes, trials, integral=True))
    beta = _scipy_stats().beta
    if n <= 0:
        return math.nan, math.nan
    alpha = 1 - level
    low = 0.0 if k == 0 else float(beta.ppf(alpha / 2, k, n - k + 1))
    high = 1.0 if k == n else float(beta.ppf(1 - alpha / 2, k + 1, n - k))
    return low, high


def _proportion(measure: Any, parameters: dict[str, Any]) -> tuple[np.ndarray, np.ndarray] | None:
    """``(a, b)`` when the measure is ``<a, v> / <b, v>`` with 0/1 coefficients and ``a <= b``:
    a proportion of ``<b, v>`` trials; else None."""
    if not measure.decomposable:
        return None
    a, b = (np.asarray(c, dtype=np.float64) for c in measure.decomposition(**parameters))
    if not (np.isin(a, (0, 1)).all() and np.isin(b, (0, 1)).all() and (a <= b).all()):
        return None
    return a, b


def kappa_standard_error(counts: Any) -> float:
    """The large-sample standard error of Cohen's kappa of a confusion matrix (Fleiss, Cohen and
    Everitt, 1969): ``sqrt((A + B - C) / (n (1 - p_e)²))`` with
    ``A = Σ_i p_ii (1 - (p_i. + p_.i)(1 - κ))²``, ``B = (1 - κ)² Σ_{i≠j} p_ij (p_.i + p_j.)²``
    and ``C = (κ - p_e (1 - κ))²``.

    Examples:
        >>> round(kappa_standard_error([[40, 10], [5, 45]]), 6)
        0.071056
    """
    table = np.asarray(counts, dtype=np.float64)
    n = table.sum()
    if n <= 0:
        return math.nan
    p = table / n
    rows, columns = p.sum(axis=1), p.sum(axis=0)
    observed, expected = np.trace(p), float(rows @ columns)
    if expected == 1:
        return math.nan
    kappa = (observed - expected) / (1 - expected)
    a = float((np.diag(p) * (1 - (rows + columns) * (1 - kappa)) ** 2).sum())
    off = p * (columns[:, None] + rows[None, :]) ** 2  # p_ij (p_.i + p_j.)²
    b = (1 - kappa) ** 2 * float(off.sum() - np.trace(off))
    c = (kappa - expected * (1 - kappa)) ** 2
    return math.sqrt(max(a + b - c, 0.0) / ((1 - expected) ** 2 * n))


class KappaTest(NamedTuple):
    """Cohen's kappa of a table with its large-sample standard errors and the z test of
    "agreement is chance" (J. L. Fleiss, J. Cohen and B. S. Everitt, 1969; statsmodels'
    ``cohens_kappa``: ``std_kappa``, ``std_kappa0``, ``z_value``, ``pvalue_two_sided``)."""

    kappa: float
    standard_error: float  # of the estimate (ASE)
    null_standard_error: float  # under kappa = 0
    statistic: float  # z = kappa / null_standard_error
    p_value: float  # two-sided


def kappa_test(counts: Any) -> KappaTest:
    """Cohen's kappa, its standard errors and the two-sided z test of ``kappa = 0``; the null
    standard error is ``sqrt((p_e + p_e² - Σ_i p_i. p_.i (p_i. + p_.i)) / (n (1 - p_e)²))``.

    Examples:
        >>> found = kappa_test([[20, 5], [10, 15]])
        >>> round(found.kappa, 4), round(found.standard_error, 4), round(found.null_standard_error, 4), round(found.p_value, 4)
        (0.4, 0.127, 0.1386, 0.0039)
    """
    table = check_matrix(counts, "counts")
    n = float(table.sum())
    if table.shape[0] != table.shape[1] or n <= 0:
        raise InvalidCountsError(f"'counts' must be a square table of counts with a positive total, got {show(table)}")
    p = table / n
    rows, columns = p.sum(axis=1), p.sum(axis=0)
    observed, expected = float(np.trace(p)), float(rows @ columns)
    if expected == 1:
        return KappaTest(math.nan, math.nan, math.nan, math.nan, math.nan)
    kappa = (observed - expected) / (1 - expected)
    null = math.sqrt(max(expected + expected**2 - float((rows * columns * (rows + columns)).sum()), 0.0) / (n * (1 - expected) ** 2))
    z = kappa / null if null > 0 else math.nan
    return KappaTest(kappa, kappa_standard_error(table), null, z, two_sided_p_value(z) if null > 0 else math.nan)


# --------------------------------------------------------------------------------------------
# DeLong


def _midranks(values: np.ndarray) -> np.ndarray:
    """Ranks 1..n of ``values`` with ties given their mean rank."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    ends = np.r_[starts[1:], len(values)]
    ranks = np.empty(len(values))
    ranks[order] = np.repeat((starts + ends + 1) / 2.0, ends - starts)
    return ranks


def _placements(positive_scores: np.ndarray, negative_scores: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """AUC and DeLong's placement values: for each positive the share of negatives it beats
    (ties a half), for each negative the share of positives that beat it (Sun and Xu's midrank form)."""
    m, n = len(positive_scores), len(negative_scores)
    combined = _midranks(np.concatenate([positive_scores, negative_scores]))
    within_positive, within_negative = _midranks(positive_scores), _midranks(negative_scores)
    v10 = (combined[:m] - within_positive) / n
    v01 = 1.0 - (combined[m:] - within_negative) / m
    return float(v10.mean()), v10, v01


def delong(y_true: Any, *scores: Any) -> tuple[np.ndarray, np.ndarray]:
    """AUCs of one or more score arrays on the same binary samples and their DeLong covariance.

    Args:
        y_true: 0/1 (or boolean) labels, 1 positive.
        *scores: one or more arrays of scores.

    Returns:
        ``(aucs, covariance)``: one AUC per score array and their ``k x k`` covariance.

    Examples:
        >>> aucs, covariance = delong([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> float(aucs[0]), float(covariance[0, 0])
        (0.75, 0.125)
    """
    truth = as_array(y_true, "y_true")
    if truth.dtype.kind not in "biu" or not np.isin(truth, (0, 1)).all():
        raise InvalidArgumentError(f"'y_true' must hold 0/1 labels for DeLong's method, got {show(truth)}")
    positive = truth.astype(bool)
    m, n = int(positive.sum()), int((~positive).sum())
    if m < 2 or n < 2:
        raise UnsupportedSettingError(f"DeLong's variance needs at least two positives and two negatives, got {m} and {n}")
    aucs, v10, v01 = [], [], []
    for score in scores:
        s = check_numbers("scores", score, booleans=True)
        if s.shape != truth.shape:
            raise InvalidArgumentError(f"every score array must have the shape of 'y_true' {truth.shape}, got {s.shape}")
        auc, ten, one = _placements(s[positive], s[~positive])
        aucs.append(auc)
        v10.append(ten)
        v01.append(one)
    covariance = np.atleast_2d(np.cov(np.array(v10))) / m + np.atleast_2d(np.cov(np.array(v01))) / n
    return np.array(aucs), covariance


def _curve_placements(tp: np.ndarray, fp: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """DeLong's placement values of a curve's kinds: for each distinct score (highest first) the
    positives and negatives there, and their placements (from the counts alone)."""
    tp, fp = np.asarray(tp, dtype=np.float64), np.asarray(fp, dtype=np.float64)
    positives_at, negatives_at = np.diff(tp, prepend=0.0), np.diff(fp, prepend=0.0)
    m, n = tp[-1], fp[-1]
    negatives_below = n - fp  # negatives scored strictly lower
    positives_above = tp - positives_at  # positives scored strictly higher
    v10 = (negatives_below + negatives_at / 2) / n
    v01 = (positives_above + positives_at / 2) / m
    return positives_at, negatives_at, v10, v01


def _grouped_variance(values: np.ndarray, counts: np.ndarray) -> float:
    total = counts.sum()
    mean = float(np.dot(values, counts) / total)
    return float(np.dot((values - mean) ** 2, counts) / (total - 1))


# --------------------------------------------------------------------------------------------
# the bootstrap engine


@attrs.frozen
class _Kinds:
    """What a bootstrap draws: kinds of sample and how many samples of each, optionally in
    strata whose sizes every resample keeps. ``sums(K)`` maps counts (resamples x kinds) to
    the linear sums a statistic needs; ``jackknife(rows)`` gives those sums with one sample of
    each kind in ``rows`` left out."""

    counts: np.ndarray
    sums: Callable[[np.ndarray], Any]
    jackknife: Callable[[np.ndarray], Any]
    strata: np.ndarray | None = None
    jackknife_values: Callable[[np.ndarray], np.ndarray] | None = None  # a closed form, when one exists

    def draw(self, rng: np.random.Generator, size: int) -> np.ndarray:
        groups = [np.arange(len(self.counts))] if self.strata is None else [np.flatnonzero(self.strata == s) for s in np.unique(self.strata)]
        drawn = np.zeros((size, len(self.counts)))
        for members in groups:
            total = int(self.counts[members].sum())
            if total:
                drawn[:, members] = rng.multinomial(total, self.counts[members] / total, size=size)
        return drawn


def _dense_kinds(contributions: np.ndarray, counts: np.ndarray, strata: np.ndarray | None = None) -> _Kinds:
    """Kinds whose one sample adds a row of ``contributions`` (kinds x sums) to the sums."""
    total = counts.astype(np.float64) @ contributions
    return _Kinds(counts, lambda drawn: drawn @ contributions, lambda rows: total[None, :] - contributions[rows], strata)


def check_random_state(random_state: Any) -> Any:
    """``random_state`` if numpy can seed with it: ``None``, an integer >= 0, a
    ``numpy.random.Generator`` or a ``SeedSequence``."""
    if random_state is None or isinstance(random_state, (np.random.Generator, np.random.SeedSequence, np.random.BitGenerator)):
        return random_state
    if isinstance(random_state, (bool, np.bool_)) or not isinstance(random_state, (int, np.integer)) or random_state < 0:
        raise InvalidArgumentError(f"'random_state' must be None, an integer >= 0 or a numpy Generator, got {show(random_state)}")
    return random_state


def _replicates(kinds: _Kinds, value: Callable[[Any], np.ndarray], n_resamples: int, random_state: Any) -> np.ndarray:
    """``value`` of every resample, drawn in batches (one matrix of counts per batch)."""
    rng = np.random.default_rng(check_random_state(random_state))
    step = max(1, _BATCH_ENTRIES // max(1, len(kinds.counts)))
    batches = range(0, n_resamples, step)
    return np.concatenate([value(kinds.sums(kinds.draw(rng, min(step, n_resamples - start)))) for start in batches])


def _bootstrap(kinds: _Kinds, value: Callable[[Any], np.ndarray], estimate: float, *, level: float, method: str,
               n_resamples: int, random_state: Any, replicates: np.ndarray | None = None) -> Interval:  # fmt: skip
    """The percentile, normal or BCa interval of ``value(sums)`` over resamples of ``kinds``."""
    level, n_resamples = _check_level(level), _check_resamples(n_resamples)
    if replicates is None:
        replicates = _replicates(kinds, value, n_resamples, random_state)
    defined = replicates[~np.isnan(replicates)]
    n_undefined = len(replicates) - len(defined)
    if not len(defined) or math.isnan(estimate):
        return Interval(estimate, math.nan, math.nan, level, method, n_undefined)
    alpha = (1 - level) / 2
    quantiles = [alpha, 1 - alpha]
    if method == "normal":
        spread = _z(level) * float(np.std(defined))
        return Interval(estimate, estimate - spread, estimate + spread, level, method, n_undefined)
    if method == "bca":
        if np.all(defined == defined[0]):
            warnings.warn("the statistic does not vary over the resamples: BCa falls back to the percentile interval", EvalkitWarning, stacklevel=4)
            return Interval(estimate, float(defined[0]), float(defined[0]), level, "percentile", n_undefined)
        quantiles = _bca_quantiles(kinds, value, estimate, defined, alpha)
    low, high = np.quantile(defined, quantiles)
    return Interval(estimate, float(low), float(high), level, method, n_undefined)


def _bca_quantiles(kinds: _Kinds, value: Callable[[Any], np.ndarray], estimate: float, defined: np.ndarray, alpha: float) -> list[float]:
    """Efron's bias-corrected and accelerated quantiles; the acceleration from the jackknife
    (one sample of each kind left out, weighted by how many samples the kind has)."""
    normal = NormalDist()
    share = (np.count_nonzero(defined < estimate) + 0.5 * np.count_nonzero(defined == estimate)) / len(defined)
    bias = normal.inv_cdf(min(max(share, 1e-12), 1 - 1e-12))
    present = np.flatnonzero(kinds.counts > 0)
    step = max(1, _BATCH_ENTRIES // max(1, len(kinds.counts)))
    if kinds.jackknife_values is not None:
        jack = kinds.jackknife_values(present)
    else:
        jack = np.concatenate([value(kinds.jackknife(present[start : start + step])) for start in range(0, len(present), step)])
    weights = kinds.counts[present].astype(np.float64)
    kept = ~np.isnan(jack)
    jack, weights = jack[kept], weights[kept]
    acceleration = 0.0
    if len(jack):
        centre = np.dot(jack, weights) / weights.sum()
        spread = np.dot(weights, (centre - jack) ** 2)
        acceleration = float(np.dot(weights, (centre - jack) ** 3) / (6 * spread**1.5)) if spread > 0 else 0.0
    out = []
    for tail in (alpha, 1 - alpha):
        z = normal.inv_cdf(tail)
        out.append(normal.cdf(bias + (bias + z) / (1 - acceleration * (bias + z))))
    return out


# --------------------------------------------------------------------------------------------
# statistics of single-label results: kinds are (actual, predicted) pairs


def column_sums(drawn: np.ndarray, keys: np.ndarray, size: int) -> np.ndarray:
    """``out[b, k] = Σ_{r: keys[r] = k} drawn[b, r]``: the columns of a batch of drawn counts
    summed by key (no dense one-hot).

    Examples:
        >>> column_sums(np.array([[1, 2, 3]]), np.array([0, 1, 0]), 2).tolist()
        [[4.0, 2.0]]
    """
    return _group_sums(drawn, keys, size)


def stratified_replicates(counts: Any, strata: Any, statistic: Callable[[np.ndarray], np.ndarray], n_resamples: int = 2000,
                          random_state: Any = None) -> np.ndarray:  # fmt: skip
    """``statistic`` over bootstrap resamples drawn within strata: every stratum (a group of
    kinds) keeps its number of samples, as resampling within groups does.

    Examples:
        >>> found = stratified_replicates([5, 5, 10], [0, 0, 1], lambda drawn: drawn[:, 2], 20, 0)
        >>> bool((found == 10).all())
        True
    """
    kinds = _Kinds(_integral(np.asarray(counts), "a bootstrap"), lambda drawn: drawn, lambda rows: rows, np.asarray(strata))
    return _replicates(kinds, statistic, _check_resamples(n_resamples), random_state)


def _group_sums(drawn: np.ndarray, keys: np.ndarray, size: int) -> np.ndarray:
    """``out[b, k] = Σ_{r: keys[r] = k} drawn[b, r]``: column sums by key, no dense one-hot."""
    out = np.zeros((drawn.shape[0], size))
    if len(keys) == 0:
        return out
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    out[:, ordered[starts]] = np.add.reduceat(drawn[:, order], starts, axis=1)
    return out


def _pair_kinds(pairs: PairCounts, stratify: bool) -> _Kinds:
    """Kinds of a single-label result; the sums are ``(correct, actual, predicted)`` per code."""
    order = np.lexsort((pairs.predicted, pairs.actual))  # one order whatever the batches counted: the same draws
    counts = _integral(pairs.counts[order], "a bootstrap")
    actual, predicted, size = pairs.actual[order], pairs.predicted[order], pairs.size
    diagonal = actual == predicted

    def sums(drawn: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return (_group_sums(drawn[:, diagonal], actual[diagonal], size), _group_sums(drawn, actual, size), _group_sums(drawn, predicted, size))

    totals = sums(counts[None, :].astype(np.float64))

    def jackknife(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        correct, by_actual, by_predicted = (np.repeat(total, len(rows), axis=0) for total in totals)
        place = np.arange(len(rows))
        correct[place[diagonal[rows]], actual[rows][diagonal[rows]]] -= 1
        by_actual[place, actual[rows]] -= 1
        by_predicted[place, predicted[rows]] -= 1
        return correct, by_actual, by_predicted

    return _Kinds(counts, sums, jackknife, actual if stratify else None)


def _pair_statistic(measure: Any, average: str | None, position: int | None, m: int, undefined: Any, parameters: dict[str, Any]) -> Callable[[Any], np.ndarray]:
    """A batch statistic of ``(correct, actual, predicted)`` sums over the ``m`` classes."""

    def cells(sums: Any) -> Cells:
        correct, by_actual, by_predicted = sums
        total = by_actual.sum(axis=1, keepdims=True)
        return Cells.from_sums(correct[:, :m], by_actual[:, :m], by_predicted[:, :m], total)

    if average is None and position is None:
        name = measure.name

        def whole(sums: Any) -> np.ndarray:
            correct, by_actual, by_predicted = sums
            margins = {"correct": correct[:, :m].sum(axis=1), "total": by_actual.sum(axis=1), "actual": by_actual, "predicted": by_predicted}
            if name == "accuracy":
                with np.errstate(invalid="ignore", divide="ignore"):
                    return np.where(margins["total"] > 0, margins["correct"] / np.where(margins["total"] > 0, margins["total"], 1), np.nan)
            if name == "cohen_kappa":
                return np.asarray(margins_cohen_kappa(**margins), dtype=np.float64)
            return np.asarray(margins_matthews_correlation_coefficient(**margins), dtype=np.float64)

        return whole
    if position is not None:
        return lambda sums: np.asarray(cells(sums).evaluate(measure, **parameters), dtype=np.float64)[:, position]
    assert average is not None  # whole-result and one-class statistics are returned above
    return lambda sums: average_rows(measure, cells(sums), average, undefined=undefined, parameters=parameters)


# --------------------------------------------------------------------------------------------
# statistics of per-sample rows (multi-label, soft, example-based, AA and RAR)


def _row_kinds(cells: Cells) -> _Kinds:
    """Kinds = the stored rows of per-sample cells, with how many samples each stands for; the
    sums are the four cells."""
    counts = _integral(cells.row_weights(), "a bootstrap")
    return _dense_kinds(np.stack([np.asarray(row, dtype=np.float64) for row in cells.rows()], axis=1), counts)


# --------------------------------------------------------------------------------------------
# intervals from counts and estimates (the results' ``interval`` methods hand these the numbers)


def _resolve(measure: Any, metrics_class: type[Any] | None, parameters: dict[str, Any]) -> Measure:
    resolved = resolve_measure(measure, metrics_class)
    check_measure_parameters(resolved, parameters)
    return resolved


def pairs_interval(
    pairs: PairCounts, m: int, measure: Measure, estimate: float, *, average: str | None = None, position: int | None = None,
    level: float = 0.95, method: str = "bca", n_resamples: int = 2000, random_state: Any = None, stratify: bool = False,
    undefined: Any = "exclude", parameters: dict[str, Any] | None = None,
) -> Interval:  # fmt: skip
    """The bootstrap interval of a single-label result from its (actual, predicted) pair counts:
    of one class (``position``), of an ``average`` over the first ``m`` codes, or, with
    neither, of the whole result's accuracy, Cohen's kappa or MCC (``measure.name``).

    Examples:
        >>> from evalkit.engine.counting import PairCounts
        >>> from evalkit.measures.registry import get_measure
        >>> pairs = PairCounts.from_dense(np.array([[40, 10], [5, 45]]))
        >>> pairs_interval(pairs, 2, get_measure("accuracy"), 0.85, random_state=0).method
        'bca'
    """
    check_choice("method", method, BOOTSTRAP_METHODS)
    if average == "samples":
        raise UnsupportedSettingError("average='samples' of single-label data is the micro average of accuracy-like counts: use 'micro'")
    if average is None and position is None and measure.name not in WHOLE_MEASURES:
        raise InvalidArgumentError(f"give an 'average' or a class for {measure.name!r}; a whole-result interval is of {', '.join(WHOLE_MEASURES)}")
    statistic = _pair_statistic(measure, average, position, m, check_undefined(undefined), dict(parameters or {}))
    return _bootstrap(_pair_kinds(pairs, stratify), statistic, estimate, level=level, method=method,
                      n_resamples=n_resamples, random_state=random_state)  # fmt: skip


def proportion_interval(
    measure: Measure, cells: Cells, estimate: float, *, level: float = 0.95, method: str = "wilson", parameters: dict[str, Any] | None = None
) -> Interval:
    """Wilson's or Clopper-Pearson's interval of a measure that is a proportion of the summed
    ``cells`` (``<a, v> / <b, v>`` with 0/1 coefficients: accuracy, precision, recall, ...).

    Raises:
        InvalidArgumentError: the measure is no proportion.
        UnsupportedSettingError: float (weighted) counts.

    Examples:
        >>> from evalkit.measures.registry import get_measure
        >>> print(proportion_interval(get_measure("recall"), Cells(45, 10, 5, 40), 0.9, method="wilson"))
        0.9 [0.7864, 0.9565] (95% wilson)
    """
    check_choice("method", method, ("wilson", "clopper-pearson"))
    coefficients = _proportion(measure, dict(parameters or {}))
    if coefficients is None:
        raise InvalidArgumentError(f"method={method!r} is for proportions (successes / trials); {measure.name!r} is none: use 'bca' or 'percentile'")
    values = np.array([float(np.asarray(row).sum()) for row in cells.rows()])
    _integral(values, f"method={method!r}")
    a, b = coefficients
    return binomial_interval(float(a @ values), float(b @ values), estimate, level=level, method=method)


def binomial_interval(successes: Any, trials: Any, estimate: float, *, level: float = 0.95, method: str = "wilson") -> Interval:
    """Wilson's or Clopper-Pearson's interval of ``successes`` out of ``trials`` (whole counts).

    Examples:
        >>> print(binomial_interval(85, 100, 0.85, method="wilson"))
        0.85 [0.7672, 0.9069] (95% wilson)
    """
    check_choice("method", method, ("wilson", "clopper-pearson"))
    low, high = (wilson if method == "wilson" else clopper_pearson)(successes, trials, level)
    return Interval(estimate, low, high, level, method)


def kappa_interval(table: Any, estimate: float, *, level: float = 0.95) -> Interval:
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


def log_ratio_interval(tp: Any, fp: Any, fn: Any, tn: Any, measure: str, estimate: float, *, level: float = 0.95) -> Interval:
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
    n_resamples: int = 2000, random_state: Any = None, undefined: Any = "exclude", parameters: dict[str, Any] | None = None,
) -> Interval:  # fmt: skip
    """The bootstrap interval of the ``"micro"`` or ``"samples"`` average of per-sample cells
    (multi-label, soft and hierarchical results): kinds are the stored rows.

    Examples:
        >>> from evalkit.measures.registry import get_measure
        >>> rows = Cells(tp=[1, 0, 2], fp=[0, 1, 0], fn=[1, 0, 0], tn=[2, 3, 2], weight=[30, 20, 50])
        >>> rows_interval(rows, get_measure("recall"), "micro", 0.8, random_state=0).low < 0.8
        True
    """
    check_choice("method", method, BOOTSTRAP_METHODS)
    check_choice("average", average, ("micro", "samples"))
    parameters = dict(parameters or {})
    if average == "micro":
        kinds = _row_kinds(rows)

        def micro(sums: np.ndarray) -> np.ndarray:
            return np.asarray(measure(tp=sums[:, 0], fp=sums[:, 1], fn=sums[:, 2], tn=sums[:, 3], **parameters), dtype=np.float64)

        return _bootstrap(kinds, micro, estimate, level=level, method=method, n_resamples=n_resamples, random_state=random_state)
    values = np.asarray(rows.evaluate_rows(measure, **parameters), dtype=np.float64)
    if check_undefined(undefined) == "nan" and np.isnan(values).any():
        return Interval(estimate, math.nan, math.nan, level, method)
    filled = fill_undefined(values, undefined)
    defined = ~np.isnan(filled)
    return ratio_interval(np.where(defined, filled, 0.0), defined, rows.row_weights(), estimate, level=level, method=method,
                          n_resamples=n_resamples, random_state=random_state)  # fmt: skip


def ratio_interval(
    numerators: Any, denominators: Any, counts: Any, estimate: float, *, level: float = 0.95, method: str = "bca",
    n_resamples: int = 2000, random_state: Any = None,
) -> Interval:  # fmt: skip
    """The bootstrap interval of ``Σ numerator / Σ denominator`` over kinds of sample, each kind
    adding its ``numerators[k]`` and ``denominators[k]`` once per sample (``counts[k]``
    samples): a mean of per-sample values, AA and RAR of neighborhood systems.

    Examples:
        >>> ratio_interval([1, 0], [1, 1], [70, 30], 0.7, random_state=0).low < 0.7
        True
    """
    check_choice("method", method, BOOTSTRAP_METHODS)
    columns = np.stack([np.asarray(numerators, dtype=np.float64), np.asarray(denominators, dtype=np.float64)], axis=1)
    kinds = _dense_kinds(columns, _integral(np.asarray(counts), "a bootstrap"))

    def statistic(sums: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(sums[:, 1] > 0, sums[:, 0] / np.where(sums[:, 1] > 0, sums[:, 1], 1.0), np.nan)

    return _bootstrap(kinds, statistic, estimate, level=level, method=method, n_resamples=n_resamples, random_state=random_state)


def indicators_interval(
    y_true: Any, y_pred: Any, measure: Any, average: str | None = "macro", *, label: int | None = None, tnorm: Any = "product",
    level: float = 0.95, method: str = "bca", n_resamples: int = 2000, random_state: Any = None, sample_weight: Any = None,
    undefined: Any = "exclude", metrics_class: type[Any] | None = None, **parameters: Any,
) -> Interval:  # fmt: skip
    """A bootstrap interval of any measure and average of multi-label 0/1 indicators or soft
    degrees (samples x labels), from the data: what an ``Evaluation`` cannot give for macro and
    weighted averages, because it keeps no per-sample per-class cells.

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
        method: ``"bca"`` or ``"percentile"``.
        n_resamples: bootstrap resamples.
        random_state: the seed.
        sample_weight: integer weights (repeated samples).
        undefined: the undefined-value policy of the averages.
        metrics_class: a ``ClassificationMetrics`` subclass whose getter is the measure.
        **parameters: of the measure.

    Examples:
        >>> import numpy as np
        >>> rng = np.random.default_rng(0)
        >>> interval = indicators_interval(rng.integers(0, 2, (300, 4)), rng.integers(0, 2, (300, 4)), "f1_score", random_state=0)
        >>> interval.low < interval.estimate < interval.high
        True
    """
    from evalkit.engine.tnorms import get_tnorm

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
    counts = _integral(np.bincount(inverse.ravel(), weights=weight, minlength=len(distinct)), "a bootstrap")
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
    estimate = float(statistic((counts.astype(np.float64) @ contributions)[None, :])[0])
    return _bootstrap(kinds, statistic, estimate, level=level, method=method, n_resamples=n_resamples, random_state=random_state)


def cells_interval(
    tp: Any, fp: Any, fn: Any, tn: Any, measure: Any, *, level: float = 0.95, method: str = "bca", n_resamples: int = 2000,
    random_state: Any = None, metrics_class: type[Any] | None = None, **parameters: Any,
) -> Interval:  # fmt: skip
    """The interval of a measure of one class's cells (``ClassificationMetrics.interval``):
    closed forms for proportions, or the bootstrap of the four cells' multinomial.

    Examples:
        >>> print(cells_interval(45, 10, 5, 40, "recall", method="clopper-pearson"))
        0.9 [0.7819, 0.9667] (95% clopper-pearson)
    """
    check_choice("method", method, METHODS)
    resolved = _resolve(measure, metrics_class, parameters)
    cells = Cells(*(np.array([value]) for value in (tp, fp, fn, tn)))
    estimate = float(np.asarray(cells.evaluate(resolved, **parameters))[0])
    if method in ("wilson", "clopper-pearson"):
        return proportion_interval(resolved, cells, estimate, level=level, method=method, parameters=parameters)
    if method == "log":
        if resolved.name not in LOG_MEASURES:
            raise InvalidArgumentError(f"method='log' is for {', '.join(LOG_MEASURES)}; {resolved.name!r} takes 'bca' or 'percentile'")
        return log_ratio_interval(tp, fp, fn, tn, resolved.name, estimate, level=level)
    if method not in BOOTSTRAP_METHODS:
        raise InvalidArgumentError(f"method={method!r} does not apply to one class's cells: use 'bca', 'percentile', 'wilson' or 'clopper-pearson'")
    counts = _integral(np.array([tp, fp, fn, tn]), "a bootstrap")
    kinds = _dense_kinds(np.eye(4), counts)

    def statistic(sums: np.ndarray) -> np.ndarray:
        return np.asarray(resolved(tp=sums[:, 0], fp=sums[:, 1], fn=sums[:, 2], tn=sums[:, 3], **parameters), dtype=np.float64)

    return _bootstrap(kinds, statistic, estimate, level=level, method=method, n_resamples=n_resamples, random_state=random_state)


def area_interval(
    tp: Any, fp: Any, measure: str, estimate: float, *, level: float = 0.95, method: str | None = None, n_resamples: int = 2000,
    random_state: Any = None,
) -> Interval:  # fmt: skip
    """ROC AUC (DeLong's interval or the bootstrap) or average precision (the bootstrap) of one
    exact curve, from its cumulative ``tp`` and ``fp`` at each distinct score (highest first),
    as ``ThresholdCurve.cells`` gives them.

    Examples:
        >>> print(area_interval([1, 2, 2, 3, 3, 3], [0, 0, 1, 1, 2, 3], "roc_auc", 0.8889))
        0.8889 [0.5809, 1] (95% delong)
    """
    check_choice("measure", measure, ("roc_auc", "average_precision"))
    method = method or ("delong" if measure == "roc_auc" else "bca")
    check_choice("method", method, ("delong", *BOOTSTRAP_METHODS))
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
    return counts_interval(np.concatenate([positives_at, negatives_at]), lambda drawn: area(drawn[:, :levels], drawn[:, levels:]), estimate,
                           level=level, method=method, n_resamples=n_resamples, random_state=random_state, jackknife_values=closed,
                           what=measure.replace("_", " "))  # fmt: skip


def counts_replicates(counts: Any, statistic: Callable[[np.ndarray], np.ndarray], n_resamples: int = 2000, random_state: Any = None) -> np.ndarray:
    """``statistic`` (of a batch of drawn counts, resamples x kinds, giving one row per
    resample) over bootstrap resamples of counts of sample kinds: for statistics of several
    numbers at once, whose intervals the caller takes (``percentile_interval``).

    Examples:
        >>> counts_replicates([30, 70], lambda drawn: drawn / drawn.sum(axis=1, keepdims=True), 50, 0).shape
        (50, 2)
    """
    kinds = _Kinds(_integral(np.asarray(counts), "a bootstrap"), lambda drawn: drawn, lambda rows: rows)
    return _replicates(kinds, statistic, _check_resamples(n_resamples), random_state)


def percentile_interval(replicates: Any, estimate: float, level: float = 0.95, n_undefined: int = 0) -> Interval:
    """The percentile interval of bootstrap replicates (NaN bounds without any).

    Examples:
        >>> print(percentile_interval(np.arange(101) / 100, 0.5))
        0.5 [0.025, 0.975] (95% percentile)
    """
    level = _check_level(level)
    replicates = np.asarray(replicates, dtype=np.float64)
    if not len(replicates):
        return Interval(estimate, math.nan, math.nan, level, "percentile", n_undefined)
    low, high = np.quantile(replicates, [(1 - level) / 2, (1 + level) / 2])
    return Interval(estimate, float(low), float(high), level, "percentile", n_undefined)


def counts_interval(
    counts: Any, statistic: Callable[[np.ndarray], np.ndarray], estimate: float, *, level: float = 0.95, method: str = "bca",
    n_resamples: int = 2000, random_state: Any = None, jackknife_values: Callable[[np.ndarray], np.ndarray] | None = None,
    what: str = "the statistic",
) -> Interval:  # fmt: skip
    """The bootstrap interval of any statistic of counts of sample kinds: every resample draws
    the counts from their multinomial and ``statistic`` maps a batch of them (resamples x
    kinds) to one value per resample. BCa's jackknife leaves one sample of each kind out
    (``jackknife_values``: a closed form of those values, when one exists); beyond
    20,000 kinds without one, the percentile interval is given, with a warning.

    Examples:
        >>> share = lambda drawn: drawn[:, 1] / drawn.sum(axis=1)   # the share of the second kind
        >>> print(counts_interval([30, 70], share, 0.7, method="percentile", random_state=0))
        0.7 [0.61, 0.79] (95% percentile)
    """
    check_choice("method", method, BOOTSTRAP_METHODS)
    counts = _integral(np.asarray(counts), "a bootstrap")
    if method == "bca" and jackknife_values is None and len(counts) > _MOST_JACKKNIFE_KINDS:
        warnings.warn(f"BCa of {what} over {len(counts):,} kinds of sample needs a jackknife too large to run: the percentile interval is given",
                      EvalkitWarning, stacklevel=3)  # fmt: skip
        method = "percentile"
    kinds = _Kinds(counts, lambda drawn: drawn, lambda rows: _jackknife_identity(counts, rows), jackknife_values=jackknife_values)
    return _bootstrap(kinds, statistic, estimate, level=level, method=method, n_resamples=n_resamples, random_state=random_state)


def _jackknife_identity(counts: np.ndarray, rows: np.ndarray) -> np.ndarray:
    out = np.repeat(counts[None, :].astype(np.float64), len(rows), axis=0)
    out[np.arange(len(rows)), rows] -= 1
    return out


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


def _binomial_tail(k: int, n: int) -> tuple[float, float]:
    """``P(X <= k)`` and ``P(X = k)`` for ``X ~ Binomial(n, 1/2)`` (scipy)."""
    binom = _scipy_stats().binom
    return float(binom.cdf(k, n, 0.5)), float(binom.pmf(k, n, 0.5))


def mcnemar(first_right: Any, second_right: Any, *, midp: bool = False, sample_weight: Any = None) -> float:
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
    y_true: Any, first: Any, second: Any, measure: Any = "accuracy", average: str | None = None, *, method: str = "mcnemar",
    labels: Sequence[Any] | None = None, level: float = 0.95, n_resamples: int = 2000, random_state: Any = None,
    sample_weight: Any = None, undefined: Any = "exclude", metrics_class: type[Any] | None = None, **parameters: Any,
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
        method: ``"mcnemar"``, ``"mcnemar-midp"``, ``"delong"``, ``"bca"`` or
            ``"percentile"`` (a paired bootstrap: the same resamples for both).
        labels: the classes (default: the sorted labels seen).
        level: the confidence level of the interval of the difference.
        n_resamples: bootstrap resamples.
        random_state: the bootstrap's seed.
        sample_weight: integer weights (repeated samples).
        undefined: the undefined-value policy of averages.
        metrics_class: a ``ClassificationMetrics`` subclass whose getters (and overrides) are
            measures by name (the bootstrap).
        **parameters: of the measure (``beta=2``).

    Examples:
        >>> y = [0, 1, 1, 0, 1, 0, 1, 1]
        >>> result = compare(y, [0, 1, 1, 0, 1, 0, 1, 0], [0, 0, 1, 1, 0, 0, 1, 0])
        >>> round(result.difference, 3), round(result.p_value, 3), result.method
        (0.375, 0.25, 'mcnemar')
    """
    check_choice("method", method, ("mcnemar", "mcnemar-midp", "delong", *BOOTSTRAP_METHODS))
    check_random_state(random_state)
    if method == "delong":
        ignored = [name for name, value, default in (("measure", measure, "accuracy"), ("average", average, None), ("labels", labels, None),
                                                     ("sample_weight", sample_weight, None), ("metrics_class", metrics_class, None))
                   if not (value is default or (isinstance(value, str) and value in (default, "roc_auc")))] + sorted(parameters)  # fmt: skip
        if ignored:
            raise InvalidArgumentError(f"DeLong's test compares the ROC AUCs of two binary scores, unweighted: it takes no {', '.join(ignored)}; "
                                       "use a bootstrap (method='bca', measure=...) for weights, labels or other measures")  # fmt: skip
        aucs, covariance = delong(y_true, first, second)
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


def _three_codes(y_true: Any, first: Any, second: Any, labels: Any, sample_weight: Any) -> tuple[tuple[np.ndarray, ...], tuple, np.ndarray | None]:
    """Codes of the actual and both predicted labels over one label order (the given labels,
    or every label seen, sorted), and the checked weights."""
    if labels is None:
        seen = [found for values in (y_true, first, second) for found in encode(values, values)[2]]
        labels = sorted_labels(list(dict.fromkeys(seen)), "labels")
    actual, one, known, weight = encode(y_true, first, labels, sample_weight=sample_weight)
    _, two, _, _ = encode(y_true, second, known)
    return (actual, one, two), known, weight


def _paired_bootstrap(codes: tuple[np.ndarray, ...], m: int, weight: np.ndarray | None, measure: Any, average: str | None, method: str,
                      level: float, n_resamples: int, random_state: Any, undefined: Any, parameters: dict[str, Any]) -> Comparison:  # fmt: skip
    """Kinds are (actual, first, second) triples: each resample counts both classifiers on the
    same samples."""
    actual, one, two = (code.astype(np.int64) for code in codes)
    distinct, inverse = np.unique((actual * m + one) * m + two, return_inverse=True)
    counts = _integral(np.bincount(inverse.ravel(), weights=weight, minlength=len(distinct)), "a paired bootstrap")
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
    difference = estimates[0] - estimates[1]
    kinds = _Kinds(counts, lambda drawn: drawn, lambda rows: _jackknife_identity(counts, rows))

    def gap(drawn: np.ndarray) -> np.ndarray:
        return first_value(drawn) - second_value(drawn)

    replicates = _replicates(kinds, gap, _check_resamples(n_resamples), random_state)
    interval = _bootstrap(kinds, gap, difference, level=level, method=method, n_resamples=n_resamples, random_state=random_state, replicates=replicates)
    return Comparison(difference, interval.low, interval.high, _p_value(replicates, difference), interval.method, estimates, interval.level,
                      resolved.direction)  # fmt: skip


def _p_value(replicates: np.ndarray, difference: float) -> float:
    """Two-sided bootstrap p-value of "no difference": the share of centred replicates at least
    as far from 0 as the observed difference (with the observed one counted)."""
    replicates = replicates[~np.isnan(replicates)]
    if not len(replicates) or math.isnan(difference):
        return math.nan
    centred = replicates - replicates.mean()
    return float(min(1.0, (np.count_nonzero(np.abs(centred) >= abs(difference)) + 1) / (len(centred) + 1)))


def compare_many(
    y_true: Any, predictions: dict[str, Any], measure: Any = "accuracy", average: str | None = None, *, method: str = "mcnemar",
    correction: str = "holm", **options: Any,
) -> dict[tuple[str, str], Comparison]:  # fmt: skip
    """Every pair of several classifiers, with the p-values corrected for the number of pairs:
    ``"holm"`` (Holm's step-down, 1979: controls the family-wise error rate, never less
    powerful than Bonferroni), ``"bonferroni"`` or ``"none"``.

    Examples:
        >>> y = [0, 1, 1, 0, 1, 0, 1, 1]
        >>> found = compare_many(y, {"a": [0, 1, 1, 0, 1, 0, 1, 0], "b": [0, 0, 1, 1, 0, 0, 1, 0], "c": y})
        >>> [(pair, round(result.p_value, 3)) for pair, result in found.items()]
        [(('a', 'b'), 0.5), (('a', 'c'), 1.0), (('b', 'c'), 0.375)]
    """
    check_choice("correction", correction, ("holm", "bonferroni", "none"))
    if len(predictions) < 2:
        raise InvalidArgumentError(f"'predictions' must hold at least two classifiers, got {len(predictions)}")
    found = {(a, b): compare(y_true, predictions[a], predictions[b], measure, average, method=method, **options) for a, b in combinations(predictions, 2)}
    p_values = np.array([result.p_value for result in found.values()])
    k = len(p_values)
    if correction == "bonferroni":
        adjusted = np.minimum(1.0, p_values * k)
    elif correction == "holm":
        order = np.argsort(p_values, kind="stable")
        stepped = np.maximum.accumulate(p_values[order] * (k - np.arange(k)))
        adjusted = np.empty(k)
        adjusted[order] = np.minimum(1.0, stepped)
    else:
        adjusted = p_values
    return {pair: attrs.evolve(result, p_value=float(p)) for (pair, result), p in zip(found.items(), adjusted)}


def result_interval(result: Any, measure: Any, average: str | None = None, **options: Any) -> Interval:
    """``result.interval(measure, average, **options)``: the older spelling, kept for one release."""
    warnings.warn("evalkit.intervals.result_interval(result, ...) is now result.interval(...)", DeprecationWarning, stacklevel=2)
    interval: Interval = result.interval(measure, average, **options)
    return interval
