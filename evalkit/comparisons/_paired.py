"""Tests of two models from paired scores: over data sets (Wilcoxon's signed-rank test, the
sign test) and over the folds of one data set (the corrected resampled t-test, the 5x2cv
tests), computed from the scores alone: nothing is refitted.

* Wilcoxon signed-rank (Demšar 2006, section 3.1.3): scipy's ``wilcoxon`` of the differences
  (``zero_method="wilcox"`` drops zero differences, as R's ``wilcox.test``).
* Sign test (Demšar 2006, section 3.1.2): wins of one model, ties split evenly between both
  (an odd tie dropped), two-sided binomial p-value.
* Corrected resampled t-test (Nadeau & Bengio 2003; Weka's ``PairedCorrectedTTester``): over
  ``k`` folds or runs with differences ``d``, ``t = mean(d) / sqrt((1/k + n_test/n_train) s²)``
  on ``k - 1`` degrees of freedom: the ``n_test/n_train`` term accounts for the overlap of the
  training sets, which makes the naive t-test reject far too often.
* 5x2cv paired t-test (Dietterich 1998): ``t = d_11 / sqrt(Σ_i s_i² / 5)``, 5 degrees of
  freedom, with ``s_i²`` the variance of replication ``i``'s two differences.
* Combined 5x2cv F-test (Alpaydin 1999): ``F = Σ_ij d_ij² / (2 Σ_i s_i²)`` on ``(10, 5)``.

Examples:
    >>> first = [0.80, 0.82, 0.79, 0.85, 0.81, 0.83, 0.80, 0.84, 0.82, 0.81]
    >>> second = [0.78, 0.80, 0.79, 0.82, 0.80, 0.80, 0.79, 0.81, 0.80, 0.79]
    >>> found = corrected_resampled_t_test(first, second, folds=10)
    >>> round(found.statistic, 3), round(found.p_value, 4)
    (4.158, 0.0025)
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine._validation import check_choice, show
from evalkit._results._closed_form import _scipy_stats
from evalkit.exceptions import InputLengthError, InputShapeError, InvalidArgumentError

ZERO_METHODS = ("wilcox", "pratt", "zsplit")
"""scipy's treatments of zero differences in Wilcoxon's test."""

__all__ = [
    "ZERO_METHODS",
    "PairedTest",
    "combined_f_test_5x2cv",
    "corrected_resampled_t_test",
    "differences",
    "paired_t_test_5x2cv",
    "sign_columns",
    "sign_test",
    "wilcoxon_columns",
    "wilcoxon_test",
]


class PairedTest(NamedTuple):
    """A test of "two models are equal": ``mean_difference`` is first minus second (oriented
    so that a positive difference favours the first), with the statistic, its degrees of
    freedom (``None`` for a rank or count test) and the two-sided p-value."""

    method: str
    mean_difference: float
    statistic: float
    df: tuple[float, ...] | None
    p_value: float


def differences(first: ArrayLike, second: ArrayLike, direction: str = "higher") -> np.ndarray:
    """``first - second`` as floats (``second - first`` when lower is better), checked: two
    1-D arrays of the same length with finite values."""
    check_choice("direction", direction, ("higher", "lower"))
    a, b = (np.asarray(values, dtype=np.float64) for values in (first, second))
    if a.ndim != 1 or b.ndim != 1:
        raise InputShapeError(f"'first' and 'second' must be 1-D scores, got shapes {a.shape} and {b.shape}")
    if a.shape != b.shape:
        raise InputLengthError(f"'first' has {a.size} scores but 'second' has {b.size}: they must be paired")
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        raise InvalidArgumentError(f"scores must be finite, got {show(a if not np.isfinite(a).all() else b)}")
    return a - b if direction == "higher" else b - a


def wilcoxon_columns(d: np.ndarray, zero_method: str = "wilcox") -> tuple[np.ndarray, np.ndarray]:
    """Wilcoxon's statistic and two-sided p-value of every column of differences, each what scipy's
    ``wilcoxon`` gives for that column alone; a column of zeros has p-value 1.

    scipy chooses one method (exact, permutation or normal) for a whole array, by whether any
    column holds a zero or a tie, so the columns go in two calls: those with neither (the exact
    distribution, up to 50 data sets) and the others."""
    check_choice("zero_method", zero_method, ZERO_METHODS)
    statistics, p_values = np.zeros(d.shape[1]), np.ones(d.shape[1])
    varied = d.any(axis=0)
    if not varied.any():
        return statistics, p_values
    magnitudes = np.sort(np.abs(d), axis=0)
    untied = (magnitudes[0] > 0) & (np.diff(magnitudes, axis=0) > 0).all(axis=0)  # no zero difference, no two equal
    for columns in (untied, varied & ~untied):
        if columns.any():
            found = _scipy_stats().wilcoxon(d[:, columns], zero_method=zero_method, axis=0)
            statistics[columns], p_values[columns] = found.statistic, found.pvalue
    return statistics, p_values


def sign_columns(d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The sign test of every column of differences: the wins (ties split evenly, an odd one
    dropped) and the two-sided binomial p-value ``min(1, 2 min(P(X <= s), P(X >= s)))``."""
    wins, losses = (d > 0).sum(axis=0), (d < 0).sum(axis=0)
    ties = d.shape[0] - wins - losses
    successes, n = wins + ties // 2, wins + losses + 2 * (ties // 2)
    binom = _scipy_stats().binom
    p_values = np.minimum(1.0, 2 * np.minimum(binom.cdf(successes, n, 0.5), binom.sf(successes - 1, n, 0.5)))
    return successes.astype(np.float64), np.where(n == 0, 1.0, p_values)


def wilcoxon_test(first: ArrayLike, second: ArrayLike, *, direction: str = "higher", zero_method: str = "wilcox") -> PairedTest:
    """Wilcoxon's signed-rank test of paired scores (one per data set). A p-value of 1 when
    every difference is zero."""
    d = differences(first, second, direction)
    statistics, p_values = wilcoxon_columns(d[:, None], zero_method)
    return PairedTest("wilcoxon", float(d.mean()) if d.size else math.nan, float(statistics[0]), None, float(p_values[0]))


def sign_test(first: ArrayLike, second: ArrayLike, *, direction: str = "higher") -> PairedTest:
    """The sign test: the first model's wins (ties split evenly, an odd one dropped) against a
    fair coin. The statistic is the number of wins so counted."""
    d = differences(first, second, direction)
    statistics, p_values = sign_columns(d[:, None])
    return PairedTest("sign", float(d.mean()) if d.size else math.nan, float(statistics[0]), None, float(p_values[0]))


def _t(method: str, mean: float, standard_error: float, df: float) -> PairedTest:
    if standard_error == 0:
        statistic = 0.0 if mean == 0 else math.copysign(math.inf, mean)
        return PairedTest(method, mean, statistic, (df,), 1.0 if mean == 0 else 0.0)
    statistic = mean / standard_error
    return PairedTest(method, mean, statistic, (df,), float(2 * _scipy_stats().t.sf(abs(statistic), df)))


def corrected_resampled_t_test(
    first: ArrayLike, second: ArrayLike, *, folds: int | None = None, n_train: float | None = None, n_test: float | None = None,
    direction: str = "higher",
) -> PairedTest:  # fmt: skip
    """The Nadeau-Bengio corrected resampled t-test of per-fold (or per-run) scores of two
    models on one data set: give ``folds`` for k-fold cross-validation (repeated or not:
    ``n_test / n_train = 1 / (folds - 1)``), or the sizes ``n_train`` and ``n_test`` of each
    split (a hold-out repeated ``k`` times; Weka's train percentage ``p`` is
    ``n_train = p, n_test = 100 - p``)."""
    d = differences(first, second, direction)
    k = d.size
    ratio = _test_train_ratio(k, folds, n_train, n_test)
    variance = float(np.var(d, ddof=1))
    return _t("corrected resampled t", float(d.mean()), math.sqrt((1 / k + ratio) * variance), k - 1)


def _test_train_ratio(k: int, folds: int | None, n_train: float | None, n_test: float | None) -> float:
    """``n_test / n_train`` of the splits of ``k`` paired scores: ``1 / (folds - 1)`` for k-fold
    cross-validation, or the given sizes' ratio."""
    if k < 2:
        raise InvalidArgumentError(f"a test over folds needs at least 2 folds or runs, got {k}")
    if (folds is None) == (n_train is None and n_test is None):
        raise InvalidArgumentError("give 'folds' (k-fold cross-validation) or both 'n_train' and 'n_test' (the split sizes), not both")
    if folds is not None:
        if isinstance(folds, bool) or not isinstance(folds, (int, np.integer)) or folds < 2:
            raise InvalidArgumentError(f"'folds' must be an integer >= 2, got {show(folds)}")
        return 1 / (folds - 1)
    if n_train is None or n_test is None or not n_train > 0 or not n_test > 0:
        raise InvalidArgumentError(f"'n_train' and 'n_test' must both be positive, got {show(n_train)} and {show(n_test)}")
    return n_test / n_train


def _five_by_two(first: ArrayLike, second: ArrayLike, direction: str) -> tuple[np.ndarray, np.ndarray]:
    a, b = (np.asarray(values, dtype=np.float64) for values in (first, second))
    if a.shape != (5, 2) or b.shape != (5, 2):
        raise InputShapeError(f"5x2cv scores are 5 replications x 2 folds: shape (5, 2), got {a.shape} and {b.shape}")
    d = differences(a.ravel(), b.ravel(), direction).reshape(5, 2)
    return d, ((d - d.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)


def paired_t_test_5x2cv(first: ArrayLike, second: ArrayLike, *, direction: str = "higher") -> PairedTest:
    """Dietterich's 5x2cv paired t-test of scores of shape (5 replications, 2 folds)."""
    d, variances = _five_by_two(first, second, direction)
    return _t("5x2cv t", float(d[0, 0]), math.sqrt(variances.sum() / 5), 5)


def combined_f_test_5x2cv(first: ArrayLike, second: ArrayLike, *, direction: str = "higher") -> PairedTest:
    """Alpaydin's combined 5x2cv F-test of scores of shape (5 replications, 2 folds)."""
    d, variances = _five_by_two(first, second, direction)
    denominator = 2 * variances.sum()
    mean = float(d.mean())
    if denominator == 0:
        equal = not d.any()
        return PairedTest("5x2cv F", mean, 0.0 if equal else math.inf, (10, 5), 1.0 if equal else 0.0)
    statistic = float((d**2).sum() / denominator)
    return PairedTest("5x2cv F", mean, statistic, (10, 5), float(_scipy_stats().f.sf(statistic, 10, 5)))
