"""Calibration tested by cumulative differences (Tygert, "Cumulative differences between
subpopulations versus body weight", 2023; Arrieta-Ibarra et al., "Metrics of calibration for
probabilistic predictions", JMLR 2022) and Spiegelhalter's z, as MAPIE's calibration functions
give them, under their names and signatures.

Sort the samples by score ``s`` (each first multiplied by ``1 + 10⁻⁸ ε``, ``ε`` standard normal
from a fixed seed, so that tied scores fall in one order); the cumulative differences are
``C_k = Σ_{i ≤ k} (y_i − s_i) / n``. A calibrated model's ``C`` wanders as a Brownian motion of
scale ``σ = sqrt(Σ s (1 − s)) / n``: the Kolmogorov–Smirnov statistic ``max |C| / σ`` (ECCE-MAD)
and Kuiper's ``(max C − min C) / σ`` (ECCE-R) are compared with the laws of the maximum of
``|W|`` and of the range of ``W`` over [0, 1] (not the Brownian bridge of the classic
two-sample tests).

Private: ``evalkit.metrics`` is the public path of every function here.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine._validation import as_array, column_or_1d, show
from evalkit.exceptions import (
    EmptyInputError,
    InputLengthError,
    InputShapeError,
    InvalidArgumentError,
    InvalidValueError,
)

__all__ = [
    "add_jitter",
    "cumulative_differences",
    "kolmogorov_smirnov_cdf",
    "kolmogorov_smirnov_p_value",
    "kolmogorov_smirnov_statistic",
    "kuiper_cdf",
    "kuiper_p_value",
    "kuiper_statistic",
    "length_scale",
    "sort_xy_by_y",
    "spiegelhalter_p_value",
    "spiegelhalter_statistic",
]

LegacyRandomState = int | np.random.RandomState | None
"""What seeds MAPIE's jitter: a seed, a ``numpy.random.RandomState``, or ``None`` (numpy's global one)."""

_SERIES_TOLERANCE = 1e-8
"""Where MAPIE stops the series of the two laws (its ``EPSILON``): terms beyond it are left out,
so the values match MAPIE's to about 1e-15 (the full series differ from them by up to 3e-11)."""


def _legacy_random_state(random_state: LegacyRandomState) -> np.random.RandomState:
    """A ``numpy.random.RandomState`` as scikit-learn's ``check_random_state`` gives it (MAPIE's
    jitter draws from it): numpy's global one for ``None``, a new one for a seed, or the one given."""
    if random_state is None:
        return np.random.mtrand._rand
    if isinstance(random_state, np.random.RandomState):
        return random_state
    if isinstance(random_state, (bool, np.bool_)) or not isinstance(random_state, (int, np.integer)) or random_state < 0:
        raise InvalidArgumentError(f"'random_state' must be None, an integer >= 0 or a numpy RandomState, got {show(random_state)}")
    return np.random.RandomState(int(random_state))


def _checked(y_true: ArrayLike, y_score: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Labels and scores as 1-D float arrays of one length, finite."""
    columns = []
    for argument, values in (("y_true", y_true), ("y_score", y_score)):
        array = column_or_1d(as_array(values, argument))
        if array.ndim != 1 or array.dtype.kind not in "biuf":
            raise InputShapeError(f"{argument!r} must be a 1-D array of numbers, got {show(array)}")
        if not np.isfinite(array).all():
            raise InvalidValueError(f"{argument!r} must be finite numbers, got {show(array[~np.isfinite(array)][:3])}")
        columns.append(array.astype(np.float64))
    if len(columns[0]) != len(columns[1]):
        raise InputLengthError(f"'y_true' and 'y_score' must have one value per sample, got {len(columns[0])} and {len(columns[1])}")
    if not len(columns[0]):
        raise EmptyInputError("'y_true' and 'y_score' hold no sample: nothing to test")
    return columns[0], columns[1]


def add_jitter(x: ArrayLike, noise_amplitude: float = 1e-8, random_state: LegacyRandomState = None) -> np.ndarray:
    """``x · (1 + a ε)``: each value moved by a relative normal noise of amplitude ``a`` (0 stays 0).

    Examples:
        >>> add_jitter([0, 1, 2, 3, 4], random_state=1).round(8).tolist()
        [0.0, 0.99999999, 1.99999999, 2.99999997, 4.00000003]
    """
    values = np.asarray(x, dtype=np.float64)
    if values.ndim != 1:
        raise InvalidArgumentError(f"'x' must be a 1-D array of numbers, got {show(x)}")
    return values * (1 + noise_amplitude * _legacy_random_state(random_state).normal(size=len(values)))


def sort_xy_by_y(x: ArrayLike, y: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """``x`` and ``y`` in the order of increasing ``y`` (numpy's default sort, as MAPIE's: tied
    ``y`` in the order it leaves them).

    Examples:
        >>> [values.tolist() for values in sort_xy_by_y([1, 2, 3], [0.3, 0.1, 0.2])]
        [[2, 3, 1], [0.1, 0.2, 0.3]]
    """
    xs, ys = column_or_1d(np.asarray(x)), column_or_1d(np.asarray(y))
    if len(xs) != len(ys):
        raise InputLengthError(f"'x' and 'y' must have one value per sample, got {len(xs)} and {len(ys)}")
    order = np.argsort(ys)
    return xs[order], ys[order]


def cumulative_differences(y_true: ArrayLike, y_score: ArrayLike, noise_amplitude: float = 1e-8, random_state: LegacyRandomState = 1) -> np.ndarray:
    """``C_k = Σ_{i ≤ k} (y_i − s_i) / n`` of the samples sorted by their jittered scores
    (``add_jitter``; the jittered scores enter the sums), ``k = 1 .. n``.

    Examples:
        >>> cumulative_differences([1, 0, 0], [0.7, 0.3, 0.6]).round(6).tolist()
        [-0.1, -0.3, -0.2]
    """
    truth, score = _checked(y_true, y_score)
    jittered = add_jitter(score, noise_amplitude, random_state)
    truth, jittered = sort_xy_by_y(truth, jittered)
    return np.cumsum(truth - jittered) / len(truth)


def length_scale(s: ArrayLike) -> float:
    """``σ = sqrt(Σ s (1 − s)) / n``, the standard deviation of the last cumulative difference
    of a calibrated model.

    Examples:
        >>> length_scale([0.5, 0.5, 0.5, 0.5])
        0.25
    """
    scores = np.asarray(s, dtype=np.float64)
    return float(np.sqrt(np.sum(scores * (1 - scores))) / len(scores))


def kolmogorov_smirnov_statistic(y_true: ArrayLike, y_score: ArrayLike) -> float:
    """``max |C| / σ`` of the cumulative differences (ECCE-MAD); infinite when every score is 0 or 1."""
    truth, score = _checked(y_true, y_score)
    with np.errstate(divide="ignore"):
        return float(np.max(np.abs(cumulative_differences(truth, score))) / np.float64(length_scale(score)))


def kuiper_statistic(y_true: ArrayLike, y_score: ArrayLike) -> float:
    """``(max C − min C) / σ`` of the cumulative differences (ECCE-R)."""
    truth, score = _checked(y_true, y_score)
    differences = cumulative_differences(truth, score)
    with np.errstate(divide="ignore"):
        return float((np.max(differences) - np.min(differences)) / np.float64(length_scale(score)))


def _law_argument(x: float) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating)) or not math.isfinite(x) or x <= 0:
        raise InvalidArgumentError(f"'x' must be a finite number > 0 (a statistic), got {show(x)}")
    return float(x)


def kolmogorov_smirnov_cdf(x: float) -> float:
    """``P(max_{t ≤ 1} |W(t)| ≤ x)`` of a standard Brownian motion ``W``:
    ``(4/π) Σ_k (−1)^k / (2k + 1) · exp(−(2k + 1)² π² / (8 x²))``, summed as MAPIE sums it.

    Examples:
        >>> round(kolmogorov_smirnov_cdf(1.0), 12), round(kolmogorov_smirnov_cdf(2.0), 12)
        (0.3707774298, 0.908999476154)
    """
    x = _law_argument(x)
    terms = math.ceil(0.5 + x * math.sqrt(2) / math.pi * math.sqrt(math.log(4 / (math.pi * _SERIES_TOLERANCE))))
    total = 0.0
    for k in range(terms):
        total += (-1) ** k / (k + 1 / 2) * math.exp(-((k + 1 / 2) ** 2) * math.pi**2 / (2 * x**2))
    return total * 2 / math.pi


def kuiper_cdf(x: float) -> float:
    """``P(max_{t ≤ 1} W(t) − min_{t ≤ 1} W(t) ≤ x)`` of a standard Brownian motion (Feller 1951):
    ``Σ_k (8 / x² + 2 / ((k + ½)² π²)) · exp(−2 (k + ½)² π² / x²)``, summed as MAPIE sums it.

    Examples:
        >>> round(kuiper_cdf(1.0), 12), round(kuiper_cdf(2.0), 12)
        (0.06336458792, 0.818505660606)
    """
    x = _law_argument(x)
    terms = math.ceil(0.5 + x / (math.pi * math.sqrt(2)) * math.sqrt(math.log(4 / (math.sqrt(2 * math.pi) * _SERIES_TOLERANCE) * (1 / x + x / math.pi**2))))
    total = 0.0
    for k in range(terms):
        total += (8 / x**2 + 2 / ((k + 1 / 2) ** 2 * math.pi**2)) * math.exp(-2 * (k + 1 / 2) ** 2 * math.pi**2 / x**2)
    return total


def _p_value(statistic: float, law: Callable[[float], float]) -> float:
    if math.isinf(statistic):  # every score 0 or 1: no spread to compare with
        return math.nan
    return 1 - law(statistic)


def kolmogorov_smirnov_p_value(y_true: ArrayLike, y_score: ArrayLike) -> float:
    """``1 − kolmogorov_smirnov_cdf(kolmogorov_smirnov_statistic(y_true, y_score))``; NaN when every
    score is 0 or 1 (MAPIE raises an ``OverflowError`` there).

    Examples:
        >>> round(kolmogorov_smirnov_p_value([1, 0, 1, 0, 1, 0], [0.8, 0.3, 0.5, 0.5, 0.7, 0.1]), 4)
        0.7857
    """
    return _p_value(kolmogorov_smirnov_statistic(y_true, y_score), kolmogorov_smirnov_cdf)


def kuiper_p_value(y_true: ArrayLike, y_score: ArrayLike) -> float:
    """``1 − kuiper_cdf(kuiper_statistic(y_true, y_score))``; NaN when every score is 0 or 1.

    Examples:
        >>> round(kuiper_p_value([1, 0, 1, 0, 1, 0], [0.8, 0.3, 0.5, 0.5, 0.7, 0.1]), 4)
        0.9684
    """
    return _p_value(kuiper_statistic(y_true, y_score), kuiper_cdf)


def spiegelhalter_statistic(y_true: ArrayLike, y_score: ArrayLike) -> float:
    """Spiegelhalter's z (1986), ``Σ (y − s)(1 − 2s) / sqrt(Σ (1 − 2s)² s (1 − s))``, the outcomes
    ``y`` taken as numbers (as MAPIE takes them); of 0/1 outcomes, the statistic of
    ``Calibration.spiegelhalter_test()``, whose p-value is two-sided.

    Examples:
        >>> round(spiegelhalter_statistic([0, 1, 0, 1, 0], [0.1, 0.9, 0.21, 0.9, 0.5]), 3)
        -0.757
    """
    truth, score = _checked(y_true, y_score)
    with np.errstate(divide="ignore", invalid="ignore"):  # (scores all 0, 1/2 or 1: no spread, an infinite or undefined z, as MAPIE's)
        return float(np.sum((truth - score) * (1 - 2 * score)) / np.sqrt(np.sum((1 - 2 * score) ** 2 * (1 - score) * score)))


def spiegelhalter_p_value(y_true: ArrayLike, y_score: ArrayLike) -> float:
    """The one-sided p-value ``1 − Φ(z)`` of Spiegelhalter's z, as MAPIE gives it (large ``z``:
    the outcomes sit further from the scores than calibration allows);
    ``Calibration.spiegelhalter_test().p_value`` is the two-sided ``2 (1 − Φ(|z|))``.

    Examples:
        >>> round(spiegelhalter_p_value([1, 0, 1, 0, 1, 0], [0.8, 0.3, 0.5, 0.5, 0.7, 0.1]), 4)
        0.8486
    """
    from scipy import special  # the normal distribution: scipy, imported when asked for

    return float(1 - special.ndtr(spiegelhalter_statistic(y_true, y_score)))
