"""Closed-form intervals and tests under evalkit's intervals: Wilson and Clopper-Pearson
proportions, Cohen's kappa's standard errors and test, DeLong's variance of ROC AUC, normal and
binomial p-values.

Private: evalkit._results.intervals is the public face of every one of them.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any, NamedTuple

import attrs
import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine._types import LabelsLike, ScoresLike
from evalkit._engine._validation import (
    as_array,
    check_count,
    check_matrix,
    check_numbers,
    show,
)
from evalkit._engine.serialization import json_safe
from evalkit._results.rendering import render
from evalkit.exceptions import InvalidArgumentError, InvalidCountsError, UnsupportedSettingError
from evalkit.measures._registry import Measure


def _check_level(level: object, name: str = "level") -> float:
    """A confidence level (or, ``name="alpha"``, a significance level) in (0, 1), as a float."""
    if isinstance(level, bool) or not isinstance(level, (int, float, np.floating)) or not 0 < level < 1:
        example = "0.05" if name == "alpha" else "0.95"
        raise InvalidArgumentError(f"{name!r} must be a number in (0, 1), e.g. {example}; got {show(level)}")
    return float(level)


@attrs.frozen
class Interval:
    """A confidence interval: the estimate, the bounds, the level and how they were found.

    Attributes:
        estimate: the value on the data.
        low, high: the bounds (NaN when the data define none).
        level: the confidence level, e.g. 0.95.
        method: ``"bca"``, ``"percentile"``, ``"wilson"``, ``"clopper-pearson"``,
            ``"asymptotic"``, ``"delong"`` or ``"beta-binomial"``.
        n_undefined: bootstrap resamples where the measure was undefined (left out).
        anytime: a confidence sequence: the bounds hold at every sample size at once, so they
            may be read after every batch of a stream (``interval(..., anytime=True)``).
    """

    estimate: float
    low: float
    high: float
    level: float
    method: str
    n_undefined: int = 0
    anytime: bool = False

    def __str__(self) -> str:
        return f"{self.estimate:.4g} [{self.low:.4g}, {self.high:.4g}] ({self.level:.0%} {'anytime ' if self.anytime else ''}{self.method})"

    def within(self, bounds: tuple[float, float]) -> Interval:
        """The interval cut to ``bounds``, the values the measure can take (an asymptotic
        interval may reach beyond them; no true value lies there, so the level holds).

        Examples:
            >>> print(Interval(0.9, 0.8, 1.05, 0.95, "asymptotic").within((0.0, 1.0)))
            0.9 [0.8, 1] (95% asymptotic)
        """
        low, high = bounds
        return attrs.evolve(self, low=min(max(self.low, low), high), high=max(min(self.high, high), low))

    def _repr_html_(self) -> str:
        """The interval as a one-row table in a notebook."""

        return render("html_table", f"{self.level:.0%} {'anytime ' if self.anytime else ''}{self.method} interval", ["estimate", "low", "high"], [(self.estimate, self.low, self.high)], 4)

    def to_dict(self, *, strict: bool = False) -> dict[str, Any]:
        """The fields as a plain dict; ``strict=True``: plain data strict JSON takes (NaN as ``None``, infinities as ``"Infinity"``; see ``serialization.json_safe``)."""
        return json_safe(attrs.asdict(self)) if strict else attrs.asdict(self)


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


def _proportion_counts(successes: ArrayLike, trials: ArrayLike, *, integral: bool) -> tuple[float, float]:
    """``(successes, trials)`` checked: numbers >= 0 (whole ones where ``integral``), and no
    more successes than trials."""
    k, n = check_count("successes", successes, integral=integral), check_count("trials", trials, integral=integral)
    if k > n:
        raise InvalidCountsError(f"'successes' ({show(successes)}) cannot exceed 'trials' ({show(trials)})")
    return float(k), float(n)


def wilson(successes: ArrayLike, trials: ArrayLike, level: float = 0.95) -> tuple[float, float]:
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


def clopper_pearson(successes: ArrayLike, trials: ArrayLike, level: float = 0.95) -> tuple[float, float]:
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


def _proportion(measure: Measure, parameters: dict[str, Any]) -> tuple[np.ndarray, np.ndarray] | None:
    """``(a, b)`` when the measure is ``<a, v> / <b, v>`` with 0/1 coefficients and ``a <= b``:
    a proportion of ``<b, v>`` trials; else None."""
    if not measure.decomposable:
        return None
    a, b = (np.asarray(c, dtype=np.float64) for c in measure.decomposition(**parameters))
    if not (np.isin(a, (0, 1)).all() and np.isin(b, (0, 1)).all() and (a <= b).all()):
        return None
    return a, b


def kappa_standard_error(counts: ArrayLike) -> float:
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


def kappa_test(counts: ArrayLike) -> KappaTest:
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


def delong(y_true: LabelsLike, *scores: ScoresLike) -> tuple[np.ndarray, np.ndarray]:
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


def _binomial_tail(k: int, n: int) -> tuple[float, float]:
    """``P(X <= k)`` and ``P(X = k)`` for ``X ~ Binomial(n, 1/2)`` (scipy)."""
    binom = _scipy_stats().binom
    return float(binom.cdf(k, n, 0.5)), float(binom.pmf(k, n, 0.5))
