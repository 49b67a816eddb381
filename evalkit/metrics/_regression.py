"""scikit-learn's regression metrics: its names, signatures, defaults, numbers and refusals.

Each function reads the data at hand once, in float64 (two passes where a mean is subtracted,
as scikit-learn), and takes its value from the one formula layer of regression
(``evalkit.measures.regression_formulas``), as ``RegressionMetrics`` does on exact sums. Measures of
an order statistic (``median_absolute_error``, the D² of absolute error and of pinball loss) and
the deviances are functions of the data only: they are here, not in ``RegressionMetrics``.

Where scikit-learn's float sums give a constant target a tiny nonzero variance (three times 0.1
does not average to 0.1), R² and the explained variance here see it as constant, as it is.

Private: ``evalkit.metrics`` is the public path of every function.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from numpy.typing import ArrayLike

from evalkit.engine._types import MultioutputLike, OutputValues, TargetsLike
from evalkit.engine._validation import check_sample_weight, show
from evalkit.engine.moments import EPSILON, as_targets, check_pair
from evalkit.exceptions import InvalidArgumentError, InvalidTypeError, InvalidValueError, UndefinedMetricWarning
from evalkit.measures import regression_formulas as formulas

__all__ = [
    "d2_absolute_error_score",
    "d2_pinball_score",
    "d2_tweedie_score",
    "explained_variance_score",
    "max_error",
    "mean_absolute_error",
    "mean_absolute_percentage_error",
    "mean_gamma_deviance",
    "mean_pinball_loss",
    "mean_poisson_deviance",
    "mean_squared_error",
    "mean_squared_log_error",
    "mean_tweedie_deviance",
    "median_absolute_error",
    "r2_score",
    "root_mean_squared_error",
    "root_mean_squared_log_error",
]

_MEANS = ("raw_values", "uniform_average")
"""The ``multioutput`` options of a mean of per-sample losses (no variance to weight by)."""


def check_regression_targets(
    y_true: TargetsLike, y_pred: TargetsLike, sample_weight: ArrayLike | None, multioutput: MultioutputLike | None, options: tuple[str, ...] = formulas.MULTIOUTPUT
) -> tuple[str, np.ndarray, np.ndarray, np.ndarray | None, str | np.ndarray | None]:
    """``(kind, y_true, y_pred, sample_weight, multioutput)`` of a regression call, checked:
    ``kind`` is ``"continuous"`` or ``"continuous-multioutput"``, the targets 2-D float64 arrays
    (samples x outputs), the weights float64 (or ``None``), ``multioutput`` as given or checked
    weights (``None`` stays ``None``). What scikit-learn's ``_check_reg_targets`` returns.

    Raises:
        InputLengthError, InputShapeError: targets of other lengths or outputs, weights of
            another length; weights for one output.
        InvalidTypeError, InvalidValueError: not numbers; NaN or infinity.
        InvalidArgumentError: an unknown ``multioutput``.

    Examples:
        >>> check_regression_targets([1, 2], [1, 3], None, None)[0]
        'continuous'
    """
    y, p = as_targets(y_true, "y_true"), as_targets(y_pred, "y_pred")
    check_pair(y, p)
    weight = check_sample_weight(sample_weight, len(y))
    if weight is not None:
        weight = weight.astype(np.float64)
    if multioutput is not None:
        multioutput = formulas.check_multioutput(multioutput, y.shape[1], options)
    return ("continuous" if y.shape[1] == 1 else "continuous-multioutput"), y, p, weight, multioutput


def _checked(
    y_true: TargetsLike, y_pred: TargetsLike, sample_weight: ArrayLike | None, multioutput: MultioutputLike, options: tuple[str, ...] = formulas.MULTIOUTPUT
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, str | np.ndarray]:
    """The targets, the weights and how to combine the outputs of one call, checked."""
    _, y, p, weight, _ = check_regression_targets(y_true, y_pred, sample_weight, None)
    return y, p, weight, formulas.check_multioutput(multioutput, y.shape[1], options)


def _mean(values: np.ndarray, weight: np.ndarray | None) -> np.ndarray:
    """The (weighted) mean of each column."""
    if weight is None:
        return values.mean(axis=0)
    total = weight.sum()
    if total == 0:
        raise InvalidArgumentError(f"'sample_weight' sums to 0: there is no weighted mean ({show(weight)})")
    return (weight @ values) / total


def _sum(values: np.ndarray, weight: np.ndarray | None) -> np.ndarray:
    return values.sum(axis=0) if weight is None else weight @ values


def _centered_squares(values: np.ndarray, weight: np.ndarray | None) -> np.ndarray:
    """``Σ w (v - v̄)²`` of each column, two passes; exactly 0 for a constant column (whose float
    mean may miss the constant by an ulp)."""
    mean = _mean(values, weight)
    squares = _sum((values - mean) ** 2, weight)
    total = values.shape[0] if weight is None else weight.sum()
    suspect = (squares > 0) & (squares <= total * (8 * EPSILON * np.abs(mean)) ** 2)  # within rounding of a constant
    for column in np.flatnonzero(suspect):
        present = values[:, column] if weight is None else values[weight > 0, column]
        if present.min() == present.max():
            squares[column] = 0.0
    return squares


def _single_sample(y: np.ndarray, what: str) -> bool:
    if len(y) < 2:
        warnings.warn(f"{what} score is not well-defined with less than two samples.", UndefinedMetricWarning, stacklevel=3)
        return True
    return False


def _output_means(losses: np.ndarray, weight: np.ndarray | None, multioutput: str | np.ndarray) -> OutputValues:
    return formulas.combine(_mean(losses, weight), multioutput)


def mean_absolute_error(y_true: TargetsLike, y_pred: TargetsLike, *, sample_weight: ArrayLike | None = None, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
    """``Σ w |y - p| / Σ w`` of each output, combined by ``multioutput``.

    Examples:
        >>> mean_absolute_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
        0.5
    """
    y, p, weight, how = _checked(y_true, y_pred, sample_weight, multioutput, _MEANS)
    return _output_means(np.abs(y - p), weight, how)


def mean_squared_error(y_true: TargetsLike, y_pred: TargetsLike, *, sample_weight: ArrayLike | None = None, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
    """``Σ w (y - p)² / Σ w`` of each output, combined by ``multioutput``.

    Examples:
        >>> mean_squared_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
        0.375
    """
    y, p, weight, how = _checked(y_true, y_pred, sample_weight, multioutput, _MEANS)
    return _output_means((y - p) ** 2, weight, how)


def root_mean_squared_error(y_true: TargetsLike, y_pred: TargetsLike, *, sample_weight: ArrayLike | None = None, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
    """``sqrt(MSE)`` of each output, then combined.

    Examples:
        >>> root_mean_squared_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
        0.6123724356957945
    """
    y, p, weight, how = _checked(y_true, y_pred, sample_weight, multioutput, _MEANS)
    return formulas.combine(np.sqrt(_mean((y - p) ** 2, weight)), how)


def _logs(y: np.ndarray, p: np.ndarray, name: str) -> tuple[np.ndarray, np.ndarray]:
    for argument, values in (("y_true", y), ("y_pred", p)):
        low = values <= -1
        if low.any():
            position = tuple(int(k) for k in np.argwhere(low)[0])
            raise InvalidValueError(
                f"{name} cannot be used when targets contain values less than or equal to -1: {argument!r} holds {values[position]} at {position[0]}"
            )
    return np.log1p(y), np.log1p(p)


def mean_squared_log_error(y_true: TargetsLike, y_pred: TargetsLike, *, sample_weight: ArrayLike | None = None, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
    """The MSE of ``log(1 + y)`` and ``log(1 + p)``.

    Raises:
        InvalidValueError: a target at or below -1.

    Examples:
        >>> round(mean_squared_log_error([3, 5, 2.5, 7], [2.5, 5, 4, 8]), 6)
        0.03973
    """
    y, p, weight, how = _checked(y_true, y_pred, sample_weight, multioutput, _MEANS)
    log_y, log_p = _logs(y, p, "Mean Squared Logarithmic Error")
    return _output_means((log_y - log_p) ** 2, weight, how)


def root_mean_squared_log_error(y_true: TargetsLike, y_pred: TargetsLike, *, sample_weight: ArrayLike | None = None, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
    """``sqrt`` of the MSLE of each output, then combined.

    Raises:
        InvalidValueError: a target at or below -1.

    Examples:
        >>> round(root_mean_squared_log_error([3, 5, 2.5, 7], [2.5, 5, 4, 8]), 6)
        0.199324
    """
    y, p, weight, how = _checked(y_true, y_pred, sample_weight, multioutput, _MEANS)
    log_y, log_p = _logs(y, p, "Root Mean Squared Logarithmic Error")
    return formulas.combine(np.sqrt(_mean((log_y - log_p) ** 2, weight)), how)


def mean_absolute_percentage_error(y_true: TargetsLike, y_pred: TargetsLike, *, sample_weight: ArrayLike | None = None, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
    """``Σ w |y - p| / max(|y|, eps) / Σ w``: a fraction (0.2 is 20 %), huge where ``y`` is 0.

    Examples:
        >>> round(mean_absolute_percentage_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8]), 6)
        0.327381
    """
    y, p, weight, how = _checked(y_true, y_pred, sample_weight, multioutput, _MEANS)
    return _output_means(np.abs(y - p) / np.maximum(np.abs(y), EPSILON), weight, how)


def weighted_quantile(values: np.ndarray, weight: np.ndarray | None, alpha: float) -> np.ndarray:
    """The ``alpha`` quantile of each column by the averaged inverted CDF (a weighted median for
    0.5: the mean of the two middle values when the weights split evenly), as scikit-learn's
    ``_weighted_percentile(average=True)``; samples of weight 0 are left out.

    Examples:
        >>> weighted_quantile(np.array([[1.0], [2.0], [3.0], [4.0]]), None, 0.5).tolist()
        [2.5]
    """
    n = len(values)
    weights = np.ones(n) if weight is None else weight
    result = np.empty(values.shape[1])
    for column in range(values.shape[1]):
        order = np.argsort(values[:, column], kind="stable")
        ranked, cumulative = values[order, column], np.cumsum(weights[order])
        target = (alpha * 100) / 100 * cumulative[-1]
        if target == 0:
            target = np.nextafter(0.0, 1.0)
        k = min(int(np.searchsorted(cumulative, target)), n - 1)
        if cumulative[k] - target > EPSILON:
            result[column] = ranked[k]
        else:
            after = int(np.searchsorted(cumulative, cumulative[k], side="right"))
            result[column] = (ranked[k] + ranked[after if after < n else k]) / 2
    return result


def median_absolute_error(y_true: TargetsLike, y_pred: TargetsLike, *, multioutput: MultioutputLike = "uniform_average", sample_weight: ArrayLike | None = None) -> OutputValues:
    """The (weighted) median of ``|y - p|`` of each output, then combined: robust to outliers,
    and a function of the data, not of sums (a stream cannot give it).

    Examples:
        >>> median_absolute_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
        0.5
    """
    y, p, weight, how = _checked(y_true, y_pred, sample_weight, multioutput, _MEANS)
    errors = np.abs(p - y)
    medians = np.median(errors, axis=0) if weight is None else weighted_quantile(errors, weight, 0.5)
    return formulas.combine(medians, how)


def _check_alpha(alpha: object) -> float:
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float, np.integer, np.floating)):
        raise InvalidTypeError(f"'alpha' must be a number in [0, 1], got {show(alpha)}")
    if not 0 <= float(alpha) <= 1:
        raise InvalidArgumentError(f"'alpha' must be in [0, 1], got {show(alpha)}")
    return float(alpha)


def _pinball(y: np.ndarray, p: np.ndarray, alpha: float) -> np.ndarray:
    difference = y - p
    return np.where(difference >= 0, alpha * difference, (alpha - 1) * difference)


def mean_pinball_loss(y_true: TargetsLike, y_pred: TargetsLike, *, sample_weight: ArrayLike | None = None, alpha: float = 0.5, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
    """The mean quantile loss ``alpha (y - p)`` above, ``(1 - alpha)(p - y)`` below (half the MAE at 0.5).

    Examples:
        >>> mean_pinball_loss([1, 2, 3], [0, 2, 3], alpha=0.1)
        0.03333333333333333
    """
    alpha = _check_alpha(alpha)
    y, p, weight, how = _checked(y_true, y_pred, sample_weight, multioutput, _MEANS)
    return _output_means(_pinball(y, p, alpha), weight, how)


def r2_score(
    y_true: TargetsLike, y_pred: TargetsLike, *, sample_weight: ArrayLike | None = None, multioutput: MultioutputLike = "uniform_average", force_finite: bool = True
) -> OutputValues:
    """The coefficient of determination ``1 - Σ w (y - p)² / Σ w (y - ȳ)²`` of each output,
    combined by ``multioutput`` (``"variance_weighted"`` too). ``force_finite`` (default): a
    constant target gives 1 (perfect) or 0, not NaN or -inf. NaN, with an
    ``UndefinedMetricWarning``, for fewer than two samples.

    Examples:
        >>> r2_score([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
        0.9486081370449679
    """
    y, p, weight, how = _checked(y_true, y_pred, sample_weight, multioutput)
    if _single_sample(y, "R^2"):
        return math.nan
    total = _centered_squares(y, weight)
    scores = formulas.r_squared(_sum((y - p) ** 2, weight), total, force_finite=force_finite)
    return formulas.combine(scores, how, total)


def explained_variance_score(
    y_true: TargetsLike, y_pred: TargetsLike, *, sample_weight: ArrayLike | None = None, multioutput: MultioutputLike = "uniform_average", force_finite: bool = True
) -> OutputValues:
    """``1 - Var(y - p) / Var(y)`` of each output (R² that forgives a constant bias), combined
    by ``multioutput``; ``force_finite`` as ``r2_score``.

    Examples:
        >>> round(explained_variance_score([3, -0.5, 2, 7], [2.5, 0.0, 2, 8]), 6)
        0.957173
    """
    y, p, weight, how = _checked(y_true, y_pred, sample_weight, multioutput)
    total = _centered_squares(y, weight)
    scores = formulas.fraction_explained(_centered_squares(y - p, weight), total, force_finite=force_finite)
    return formulas.combine(scores, how, total)


def max_error(y_true: TargetsLike, y_pred: TargetsLike) -> float:
    """The largest ``|y - p|`` (one output).

    Raises:
        InvalidArgumentError: several outputs.

    Examples:
        >>> max_error([3, 2, 7, 1], [4, 2, 7, 1])
        1.0
    """
    kind, y, p, _, _ = check_regression_targets(y_true, y_pred, None, None)
    if kind == "continuous-multioutput":
        raise InvalidArgumentError(f"Multioutput not supported in max_error: the targets have {y.shape[1]} outputs")
    return float(np.abs(y - p).max())


def _check_power(power: object) -> float:
    if isinstance(power, bool) or not isinstance(power, (int, float, np.integer, np.floating)):
        raise InvalidTypeError(f"'power' must be a number <= 0 or >= 1, got {show(power)}")
    value = float(power)
    if not (value <= 0 or value >= 1) or math.isnan(value):
        raise InvalidArgumentError(f"'power' of a Tweedie deviance must be <= 0 or >= 1 (no distribution has 0 < power < 1), got {show(power)}")
    return value


def _deviance_domain(y: np.ndarray, p: np.ndarray, power: float) -> None:
    message = f"Mean Tweedie deviance error with power={power} can only be used on "
    if power < 0 and np.any(p <= 0):
        raise InvalidValueError(message + "strictly positive y_pred.")
    if 1 <= power < 2 and (np.any(y < 0) or np.any(p <= 0)):
        raise InvalidValueError(message + "non-negative y and strictly positive y_pred.")
    if power >= 2 and (np.any(y <= 0) or np.any(p <= 0)):
        raise InvalidValueError(message + "strictly positive y and y_pred.")


def _x_log_y(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``x log y``, 0 where ``x`` is 0 (scipy's ``xlogy``)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(x == 0, 0.0, x * np.log(np.where(x == 0, 1.0, y)))


def tweedie_deviances(y: np.ndarray, p: np.ndarray, power: float) -> np.ndarray:
    """The unit deviance of each sample of a Tweedie distribution of ``power`` (0: normal,
    ``(y - p)²``; 1: Poisson; 2: gamma)."""
    if power == 0:
        return (y - p) ** 2
    if power == 1:
        return 2 * (_x_log_y(y, y / p) - y + p)
    if power == 2:
        return 2 * (np.log(p / y) + y / p - 1)
    base = np.where(y > 0, y, 0.0) if power < 0 else y
    return 2 * (np.power(base, 2 - power) / ((1 - power) * (2 - power)) - y * np.power(p, 1 - power) / (1 - power) + np.power(p, 2 - power) / (2 - power))


def _one_output(y_true: TargetsLike, y_pred: TargetsLike, sample_weight: ArrayLike | None, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    kind, y, p, weight, _ = check_regression_targets(y_true, y_pred, sample_weight, None)
    if kind == "continuous-multioutput":
        raise InvalidArgumentError(f"Multioutput not supported in {name}: the targets have {y.shape[1]} outputs")
    return y[:, 0], p[:, 0], weight


def _weighted_mean(values: np.ndarray, weight: np.ndarray | None) -> float:
    return float(_mean(values[:, None], weight)[0])


def mean_tweedie_deviance(y_true: TargetsLike, y_pred: TargetsLike, *, sample_weight: ArrayLike | None = None, power: float = 0) -> float:
    """The mean Tweedie deviance of ``power`` (0: the MSE; 1: Poisson; 2: gamma; one output).

    Raises:
        InvalidArgumentError: ``power`` in (0, 1); several outputs.
        InvalidValueError: targets outside the distribution's domain.

    Examples:
        >>> round(mean_tweedie_deviance([2, 0, 1, 4], [0.5, 0.5, 2.0, 2.0], power=1), 6)
        1.426015
    """
    power = _check_power(power)
    y, p, weight = _one_output(y_true, y_pred, sample_weight, "mean_tweedie_deviance")
    _deviance_domain(y, p, power)
    return _weighted_mean(tweedie_deviances(y, p, power), weight)


def mean_poisson_deviance(y_true: TargetsLike, y_pred: TargetsLike, *, sample_weight: ArrayLike | None = None) -> float:
    """The mean Poisson deviance (``mean_tweedie_deviance`` of power 1).

    Examples:
        >>> round(mean_poisson_deviance([2, 0, 1, 4], [0.5, 0.5, 2.0, 2.0]), 6)
        1.426015
    """
    return mean_tweedie_deviance(y_true, y_pred, sample_weight=sample_weight, power=1)


def mean_gamma_deviance(y_true: TargetsLike, y_pred: TargetsLike, *, sample_weight: ArrayLike | None = None) -> float:
    """The mean gamma deviance (``mean_tweedie_deviance`` of power 2).

    Examples:
        >>> round(mean_gamma_deviance([2, 0.5, 1, 4], [0.5, 0.5, 2, 2.0]), 6)
        1.056853
    """
    return mean_tweedie_deviance(y_true, y_pred, sample_weight=sample_weight, power=2)


def d2_tweedie_score(y_true: TargetsLike, y_pred: TargetsLike, *, sample_weight: ArrayLike | None = None, power: float = 0) -> float:
    """``D² = 1 - deviance(y, p) / deviance(y, ȳ)``: the share of the Tweedie deviance of
    predicting the mean that the predictions explain (R² at power 0; one output).

    Examples:
        >>> round(d2_tweedie_score([0.5, 1, 2.5, 7], [1, 1, 5, 3.5], power=1), 6)
        0.487915
    """
    power = _check_power(power)
    y, p, weight = _one_output(y_true, y_pred, sample_weight, "d2_tweedie_score")
    if _single_sample(y, "D^2"):
        return math.nan
    _deviance_domain(y, p, power)
    numerator = _weighted_mean(tweedie_deviances(y, p, power), weight)
    denominator = _weighted_mean(tweedie_deviances(y, np.full_like(y, _weighted_mean(y, weight)), power), weight)
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(1 - np.float64(numerator) / denominator)


def d2_pinball_score(y_true: TargetsLike, y_pred: TargetsLike, *, sample_weight: ArrayLike | None = None, alpha: float = 0.5, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
    """``D² = 1 - pinball(y, p) / pinball(y, q)`` with ``q`` the ``alpha`` quantile of ``y``
    (averaged inverted CDF, weighted): the share of the loss of the best constant the
    predictions explain, each output; 1 where both losses are 0, 0 where only the constant's is.

    Examples:
        >>> round(d2_pinball_score([1, 2, 3], [1, 3, 3], alpha=0.9), 6)
        0.666667
    """
    alpha = _check_alpha(alpha)
    y, p, weight, how = _checked(y_true, y_pred, sample_weight, multioutput, _MEANS)
    if _single_sample(y, "D^2"):
        return math.nan
    quantile = weighted_quantile(y, weight, alpha)
    numerator = _mean(_pinball(y, p, alpha), weight)
    denominator = _mean(_pinball(y, np.broadcast_to(quantile, y.shape), alpha), weight)
    return formulas.combine(formulas.fraction_explained(numerator, denominator, force_finite=True), how, denominator)


def d2_absolute_error_score(y_true: TargetsLike, y_pred: TargetsLike, *, sample_weight: ArrayLike | None = None, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
    """``D² = 1 - Σ w |y - p| / Σ w |y - median(y)|`` (``d2_pinball_score`` at 0.5).

    Examples:
        >>> round(d2_absolute_error_score([3, -0.5, 2, 7], [2.5, 0.0, 2, 8]), 6)
        0.764706
    """
    return d2_pinball_score(y_true, y_pred, sample_weight=sample_weight, alpha=0.5, multioutput=multioutput)
