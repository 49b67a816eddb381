"""The formulas of regression measures, one per measure, on sums per output (numpy arrays):
the one place both faces (``RegressionMetrics`` on exact sums, ``evalkit.metrics`` on the data
at hand) take their values from, and the one place outputs are combined (``combine``).

Each formula takes the sums as numpy arrays (one entry per output) or, for one output read
from a stream's running sums, as Python floats: the same IEEE operations in both, so the
values are equal bit for bit, and a float costs a few hundred nanoseconds instead of an array's
microseconds.

The sums (per output): ``weight`` ``W = Σ w``, ``sse = Σ w (y - p)²``, ``sst = Σ w (y - ȳ)²``,
``spp = Σ w (p - p̄)²``, ``syp = Σ w (y - ȳ)(p - p̄)``, ``see = Σ w (e - ē)²`` (``e = y - p``),
``abs_error = Σ w |y - p|``; ``samples`` is the number of samples ``n``.

Undefined values (a 0/0) are NaN; ``fraction_explained`` holds scikit-learn's
``force_finite`` rule for R² and the explained variance.

Examples:
    >>> import numpy as np
    >>> float(r_squared(np.array([1.5]), np.array([29.1875]))[0])
    0.9486081370449679
"""

from __future__ import annotations

import math
from typing import TypeAlias

import numpy as np

from evalkit._engine._validation import show
from evalkit.exceptions import InputShapeError, InvalidArgumentError
from evalkit.measures._arithmetic import clip, ratio_sqrt

__all__ = [
    "MULTIOUTPUT",
    "check_inputs",
    "check_multioutput",
    "combine",
    "f_statistic",
    "fraction_explained",
    "mean_of",
    "pearson_correlation",
    "r_squared",
    "residual_standard_error",
    "root",
]

Sums: TypeAlias = "np.ndarray | float"
"""Sums of each output (an array) or of one output (a float): a formula returns the same kind."""

MULTIOUTPUT = ("raw_values", "uniform_average", "variance_weighted")
"""How the values of several outputs are combined, as scikit-learn's ``multioutput``: each
output's value, their mean, or their mean weighted by each output's ``sst`` (R², explained
variance); an array gives weights of its own."""


def _divide(numerator: Sums, denominator: Sums | float) -> Sums:
    if type(numerator) is float and type(denominator) is float:  # one output: as numpy divides, without an array
        if denominator:
            return numerator / denominator
        return math.nan if numerator == 0 or math.isnan(numerator) else math.copysign(math.inf, numerator) * math.copysign(1.0, denominator)
    with np.errstate(all="ignore"):  # x/0 is a signed infinity, 0/0 NaN, beyond float64 infinite: the policy, not a warning
        return np.asarray(numerator, dtype=np.float64) / denominator


def root(values: Sums) -> Sums:
    """The square root of each (NaN for a negative value, without a warning).

    Examples:
        >>> root(2.25), root(np.array([4.0, -1.0])).tolist()
        (1.5, [2.0, nan])
    """
    if type(values) is float:
        return math.sqrt(values) if values >= 0 else math.nan
    with np.errstate(invalid="ignore"):
        return np.sqrt(values)


def _undefined(like: Sums) -> Sums:
    """NaN for each output of ``like``."""
    return math.nan if type(like) is float else np.full(np.shape(like), np.nan)


def mean_of(total: Sums, weight: Sums) -> Sums:
    """``total / W``: the weighted mean of per-sample terms (MSE, MAE, MAPE)."""
    return _divide(total, weight)


def fraction_explained(residual: Sums, total: Sums, *, force_finite: bool = False) -> Sums:
    """``1 - residual / total`` (R² from ``sse/sst``, the explained variance from ``see/sst``).

    ``force_finite=True`` is scikit-learn's rule for a constant target (``total = 0``): 1 for
    perfect predictions, 0 otherwise, instead of NaN (0/0) and -inf.

    Examples:
        >>> fraction_explained(np.array([0.0, 1.0]), np.array([0.0, 0.0]), force_finite=True).tolist()
        [1.0, 0.0]
    """
    scores = 1.0 - _divide(residual, total)
    if force_finite:
        if type(residual) is float:
            return 1.0 if residual == 0 else 0.0 if total == 0 else scores
        scores = np.where(residual == 0, 1.0, np.where(total == 0, 0.0, scores))
    return scores


def r_squared(sse: Sums, sst: Sums, *, force_finite: bool = False) -> Sums:
    """The coefficient of determination ``R² = 1 - sse / sst``."""
    return fraction_explained(sse, sst, force_finite=force_finite)


def pearson_correlation(syp: Sums | int, sst: Sums | int, spp: Sums | int) -> Sums:
    """Pearson's ``r = syp / sqrt(sst spp)`` of targets and predictions (NaN if either is
    constant), within ``[-1, 1]``. Of exact sums (Python ints on one scale, or arrays of them:
    ``RegressionMetrics.sums().numerators``) correctly rounded, as the MCC (``ratio_sqrt``): ``y``
    with itself is exactly 1, with ``-y`` exactly -1. Of floats (a bootstrap's sums) limited to
    ``[-1, 1]``, which rounding steps out of (``y`` with itself: 1.0000000000000002).

    Examples:
        >>> syp, same = np.array([6, -6], dtype=object), np.array([6, 6], dtype=object)
        >>> pearson_correlation(6, 6, 6), pearson_correlation(syp, same, same).tolist()
        (1.0, [1.0, -1.0])
    """
    if type(syp) is int:
        return ratio_sqrt(syp, sst, spp)
    if isinstance(syp, np.ndarray) and syp.dtype == object:  # each output's, as Python ints (no broadcasting: one shape)
        return np.array([ratio_sqrt(*sums) for sums in zip(syp.tolist(), np.asarray(sst).tolist(), np.asarray(spp).tolist())], dtype=np.float64)
    if type(sst) is float:
        denominator = root(sst) * root(spp)
        return clip(_divide(syp, denominator), -1.0, 1.0) if denominator != 0 else math.nan
    with np.errstate(all="ignore"):  # 0 * inf is NaN: the policy, not a warning
        denominator = root(sst) * root(spp)
        return np.where(denominator != 0, clip(_divide(syp, denominator), -1.0, 1.0), np.nan)


def check_inputs(n_inputs: object) -> int:
    """``n_inputs`` (the number of inputs of a regressor) as an int >= 1."""
    if isinstance(n_inputs, bool) or not isinstance(n_inputs, (int, np.integer)) or int(n_inputs) < 1:
        raise InvalidArgumentError(f"'n_inputs' (the number of inputs of the regressor) must be an integer >= 1, got {show(n_inputs)}")
    return int(n_inputs)


def residual_standard_error(sse: Sums, samples: int, n_inputs: int = 1) -> Sums:
    """``sqrt(sse / (n - k - 1))`` for a regressor of ``k`` inputs (NaN unless ``n > k + 1``).

    Raises:
        InvalidArgumentError: ``n_inputs`` not an integer >= 1.
    """
    freedom = samples - check_inputs(n_inputs) - 1
    return root(_divide(sse, float(freedom))) if freedom > 0 else _undefined(sse)


def adjusted_r_squared(r2: Sums, samples: int, n_inputs: int = 1) -> Sums:
    """``R²_adj = 1 - (1 - R²) (n - 1) / (n - k - 1)`` for a regressor of ``k`` inputs and an
    intercept (Weka's ``calculateAdjRSquared`` with its ``k = n_inputs + 1`` coefficients; MOA's
    with ``numAttributes``); NaN unless ``n > k + 1``.

    Raises:
        InvalidArgumentError: ``n_inputs`` not an integer >= 1.

    Examples:
        >>> adjusted_r_squared(0.8, 10, 1), adjusted_r_squared(0.8, 10, 2)
        (0.775, 0.7428571428571429)
    """
    freedom = samples - check_inputs(n_inputs) - 1
    if freedom <= 0:
        return _undefined(r2)
    return 1 - _divide((1 - r2) * (samples - 1), float(freedom))


def f_statistic(explained: Sums, sse: Sums, samples: int, n_inputs: int = 1, sst: Sums | None = None) -> Sums:
    """The F statistic of the regression, ``(explained / k) / (sse / (n - k - 1))`` with
    ``explained = sst - sse`` for a regressor of ``k`` inputs (NaN unless ``n > k + 1``, and,
    given ``sst``, for a constant target, ``sst = 0``, which has no R² and so no F).

    Raises:
        InvalidArgumentError: ``n_inputs`` not an integer >= 1.

    Examples:
        >>> f_statistic(6.0, 2.0, 5), f_statistic(-2.0, 2.0, 5, sst=0.0)   # a constant target: -3 by the formula
        (9.0, nan)
    """
    k = check_inputs(n_inputs)
    freedom = samples - k - 1
    if freedom <= 0:
        return _undefined(sse)
    value = _divide(_divide(explained, float(k)), _divide(sse, float(freedom)))
    if sst is None:
        return value
    if type(value) is float:
        return math.nan if sst == 0 else value
    return np.where(np.asarray(sst) == 0, np.nan, value)


def check_multioutput(multioutput: object, outputs: int, options: tuple[str, ...] = MULTIOUTPUT) -> str | np.ndarray:
    """``multioutput`` checked: one of ``options`` or ``outputs`` weights (more than one output).

    Raises:
        InvalidArgumentError: another string; weights for one output.
        InputShapeError: another number of weights than outputs.
    """
    if isinstance(multioutput, str):
        if multioutput not in options:
            raise InvalidArgumentError(f"Allowed 'multioutput' string values are {options}. You provided multioutput={multioutput!r}")
        return multioutput
    weights = np.asarray(multioutput, dtype=np.float64)
    if weights.ndim != 1:
        raise InputShapeError(f"'multioutput' must be one of {options} or 1-D weights, got {show(multioutput)}")
    if outputs == 1:
        raise InvalidArgumentError(f"Custom weights are useful only in multi-output cases: 'multioutput' {show(multioutput)} for 1 output")
    if len(weights) != outputs:
        raise InputShapeError(f"There must be equally many custom weights ({len(weights)}) as outputs ({outputs}): 'multioutput' {show(multioutput)}")
    return weights


def combine(values: Sums, multioutput: str | np.ndarray, variances: Sums | None = None) -> float | np.ndarray:
    """The value of all outputs: each (``"raw_values"``), their mean, their mean weighted by
    ``variances`` (``"variance_weighted"``; uniform when every variance is 0), or by given weights.

    Examples:
        >>> combine(np.array([0.5, 1.0]), "uniform_average"), combine(np.array([0.5, 1.0]), np.array([3.0, 1.0]))
        (0.75, 0.625)
    """
    if not isinstance(values, np.ndarray) or not values.ndim:  # one output's value
        values = np.array([values], dtype=np.float64)
    if isinstance(multioutput, str):
        if multioutput == "raw_values":
            return values
        if len(values) == 1:
            return float(values[0])
        weights = variances if multioutput == "variance_weighted" and variances is not None and np.any(variances != 0) else None
    else:
        weights = multioutput
    return float(np.average(values, weights=weights))
