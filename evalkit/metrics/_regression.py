"""scikit-learn's regression metrics: its names, signatures, defaults, numbers and refusals.

Each function reads the data at hand once, in float64 (two passes where a mean is subtracted,
as scikit-learn), and takes its value from the one formula layer of regression
(``evalkit.measures._regression_formulas``), as ``RegressionMetrics`` does on exact sums. Measures of
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

from evalkit._engine._types import MultioutputLike, OutputValues, TargetsLike
from evalkit._engine._validation import check_sample_weight, show
from evalkit._engine.moments import EPSILON, as_targets, target_pair
from evalkit.exceptions import InvalidArgumentError, InvalidTypeError, InvalidValueError, UndefinedMetricWarning
from evalkit.measures import _regression_formulas as formulas

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

_QUIET = np.errstate(all="ignore")
"""The functions that check their inputs only when their result is not finite compute quietly:
a NaN or an infinity among the inputs is then an error naming it (``_finite``), not a warning."""

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
    y, p, weight = _targets(y_true, y_pred, sample_weight, finite=True)
    if multioutput is not None:
        multioutput = formulas.check_multioutput(multioutput, y.shape[1], options)
    return ("continuous" if y.shape[1] == 1 else "continuous-multioutput"), y, p, weight, multioutput


def _targets(y_true: TargetsLike, y_pred: TargetsLike, sample_weight: ArrayLike | None, *, finite: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Both targets (2-D float64) and the weights (float64 or ``None``), checked."""
    y, p = target_pair(y_true, y_pred, finite=finite)
    weight = check_sample_weight(sample_weight, len(y))
    return y, p, None if weight is None else weight.astype(np.float64)


def _checked(
    y_true: TargetsLike, y_pred: TargetsLike, sample_weight: ArrayLike | None, multioutput: MultioutputLike,
    options: tuple[str, ...] = formulas.MULTIOUTPUT, *, finite: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, str | np.ndarray]:  # fmt: skip
    """The targets, the weights and how to combine the outputs of one call, checked; NaN and
    infinities only with ``finite=True`` (else ``_finite`` checks them if the result is not)."""
    y, p, weight = _targets(y_true, y_pred, sample_weight, finite=finite)
    return y, p, weight, formulas.check_multioutput(multioutput, y.shape[1], options)


def _finite(result: OutputValues, y: np.ndarray, p: np.ndarray) -> OutputValues:
    """``result``, once a result that is not finite has had its inputs checked (a NaN or an
    infinity among them is an error naming it; finite inputs may still overflow to infinity)."""
    if not np.all(np.isfinite(result)):
        as_targets(y, "y_true")
        as_targets(p, "y_pred")
    return result


def _mean(values: np.ndarray, weight: np.ndarray | None) -> np.ndarray:
    """The (weighted) mean of each column."""
    if weight is None:
        return values.mean(axis=0)
    return (weight @ values) / _total(weight)


def _total(weight: np.ndarray) -> float:
    total = float(weight.sum())
    if total == 0:
        raise InvalidArgumentError(f"'sample_weight' sums to 0: there is no weighted mean ({show(weight)})")
    return total


def _products(a: np.ndarray, b: np.ndarray, weight: np.ndarray | None) -> np.ndarray:
    """``Σ w a b`` of each column, by BLAS (no array of products for one output)."""
    if a.shape[1] == 1:
        left = a.ravel() if weight is None else weight * a.ravel()
        return np.array([left @ b.ravel()])
    return np.einsum("ij,ij->j", a, b) if weight is None else weight @ (a * b)


def _mean_square(values: np.ndarray, weight: np.ndarray | None) -> np.ndarray:
    """``Σ w v² / Σ w`` of each column."""
    return _products(values, values, weight) / (len(values) if weight is None else _total(weight))


def _centered_squares(values: np.ndarray, weight: np.ndarray | None, *, own: bool = False) -> np.ndarray:
    """``Σ w (v - v̄)²`` of each column, two passes; exactly 0 for a constant column (whose float
    mean may miss the constant by an ulp). ``own``: ``values`` is a temporary, centred in place."""
    mean = _mean(values, weight)
    centred = np.subtract(values, mean, out=values if own else None)
    squares = _products(centred, centred, weight)
    total = values.shape[0] if weight is None else weight.sum()
    suspect = (squares > 0) & (squares <= total * (8 * EPSILON * np.abs(mean)) ** 2)  # within rounding of a constant
    for column in np.flatnonzero(suspect):
        present = centred[:, column] if weight is None else centred[weight > 0, column]
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


def _absolute_errors(y: np.ndarray, p: np.ndarray) -> np.ndarray:
    errors = np.subtract(y, p)
    return np.abs(errors, out=errors)


@_QUIET
def mean_absolute_error(y_true: TargetsLike, y_pred: TargetsLike, *, sample_weight: ArrayLike | None = None, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
    """``Σ w |y - p| / Σ w`` of each output, combined by ``multioutput``.

    Examples:
        >>> mean_absolute_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
        0.5
    """
    y, p, weight, how = _checked(y_true, y_pred, sample_weight, multioutput, _MEANS)
    return _finite(_output_means(_absolute_errors(y, p), weight, how), y, p)


@_QUIET
def mean_squared_error(y_true: TargetsLike, y_pred: TargetsLike, *, sample_weight: ArrayLike | None = None, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
    """``Σ w (y - p)² / Σ w`` of each output, combined by ``multioutput``.

    Examples:
        >>> mean_squared_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
        0.375
    """
    y, p, weight, how = _checked(y_true, y_pred, sample_weight, multioutput, _MEANS)
    return _finite(formulas.combine(_mean_square(y - p, weight), how), y, p)


@_QUIET
def root_mean_squared_error(y_true: TargetsLike, y_pred: TargetsLike, *, sample_weight: ArrayLike | None = None, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
    """``sqrt(MSE)`` of each output, then combined.

    Examples:
        >>> root_mean_squared_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
        0.6123724356957945
    """
    y, p, weight, how = _checked(y_true, y_pred, sample_weight, multioutput, _MEANS)
    return _finite(formulas.combine(np.sqrt(_mean_square(y - p, weight)), how), y, p)


def _log_errors(y: np.ndarray, p: np.ndarray, name: str) -> np.ndarray:
    """``log(1 + y) - log(1 + p)``, refused for a target at or below -1."""
    with np.errstate(invalid="ignore", divide="ignore"):
        logs = np.log1p(y)
        logs -= np.log1p(p)
    if not np.isfinite(logs).all():
        for argument, values in (("y_true", as_targets(y, "y_true")), ("y_pred", as_targets(p, "y_pred"))):
            low = values <= -1
            if low.any():
                position = tuple(int(k) for k in np.argwhere(low)[0])
                raise InvalidValueError(
                    f"{name} cannot be used when targets contain values less than or equal to -1: {argument!r} holds {values[position]} at {position[0]}"
                )
    return logs


def _squared_log_errors(y_true: TargetsLike, y_pred: TargetsLike, sample_weight: ArrayLike | None, multioutput: MultioutputLike, *, root: bool) -> OutputValues:
    """The MSLE of each output (its square root with ``root``), combined."""
    y, p, weight, how = _checked(y_true, y_pred, sample_weight, multioutput, _MEANS)
    means = _mean_square(_log_errors(y, p, "Root Mean Squared Logarithmic Error" if root else "Mean Squared Logarithmic Error"), weight)
    return formulas.combine(np.sqrt(means) if root else means, how)


@_QUIET
def mean_squared_log_error(y_true: TargetsLike, y_pred: TargetsLike, *, sample_weight: ArrayLike | None = None, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
    """The MSE of ``log(1 + y)`` and ``log(1 + p)``.

    Raises:
        InvalidValueError: a target at or below -1.

    Examples:
        >>> round(mean_squared_log_error([3, 5, 2.5, 7], [2.5, 5, 4, 8]), 6)
        0.03973
    """
    return _squared_log_errors(y_true, y_pred, sample_weight, multioutput, root=False)


@_QUIET
def root_mean_squared_log_error(y_true: TargetsLike, y_pred: TargetsLike, *, sample_weight: ArrayLike | None = None, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
    """``sqrt`` of the MSLE of each output, then combined.

    Raises:
        InvalidValueError: a target at or below -1.

    Examples:
        >>> round(root_mean_squared_log_error([3, 5, 2.5, 7], [2.5, 5, 4, 8]), 6)
        0.199324
    """
    return _squared_log_errors(y_true, y_pred, sample_weight, multioutput, root=True)


@_QUIET
def mean_absolute_percentage_error(y_true: TargetsLike, y_pred: TargetsLike, *, sample_weight: ArrayLike | None = None, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
    """``Σ w |y - p| / max(|y|, eps) / Σ w``: a fraction (0.2 is 20 %), huge where ``y`` is 0.

    Examples:
        >>> round(mean_absolute_percentage_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8]), 6)
        0.327381
    """
    y, p, weight, how = _checked(y_true, y_pred, sample_weight, multioutput, _MEANS)
    errors = _absolute_errors(y, p)
    scale = np.abs(y)
    errors /= np.maximum(scale, EPSILON, out=scale)
    return _finite(_output_means(errors, weight, how), y, p)


def weighted_quantile(values: np.ndarray, weight: np.ndarray | None, alpha: float) -> np.ndarray:
    """The ``alpha`` quantile of each column by the averaged inverted CDF (a weighted median for
    0.5: the mean of the two middle values when the weights split evenly), as scikit-learn's
    ``_weighted_percentile(average=True)``; samples of weight 0 are left out.

    Examples:
        >>> weighted_quantile(np.array([[1.0], [2.0], [3.0], [4.0]]), None, 0.5).tolist()
        [2.5]
    """
    if weight is None:  # numpy's own averaged inverted CDF (a partition, not a sort), at scikit-learn's rank, alpha * 100 / 100
        return np.asarray(np.quantile(values, (alpha * 100) / 100, axis=0, method="averaged_inverted_cdf"), dtype=np.float64)
    n = len(values)
    weights = weight
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
    y, p, weight, how = _checked(y_true, y_pred, sample_weight, multioutput, _MEANS, finite=True)  # a median may hide an infinity
    errors = _absolute_errors(y, p)
    medians = np.median(errors, axis=0, overwrite_input=True) if weight is None else weighted_quantile(errors, weight, 0.5)
    return formulas.combine(medians, how)


def _check_alpha(alpha: object) -> float:
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float, np.integer, np.floating)):
        raise InvalidTypeError(f"'alpha' must be a number in [0, 1], got {show(alpha)}")
    if not 0 <= float(alpha) <= 1:
        raise InvalidArgumentError(f"'alpha' must be in [0, 1], got {show(alpha)}")
    return float(alpha)


def _pinball(y: np.ndarray, p: np.ndarray | float, alpha: float) -> np.ndarray:
    """``alpha (y - p)`` above the prediction, ``(alpha - 1)(y - p)`` below: one array."""
    difference = np.subtract(y, p)
    if alpha == 0.5:  # half the absolute error, bit for bit the same as the two branches
        np.abs(difference, out=difference)
        difference *= 0.5
    else:
        difference *= np.where(difference >= 0, alpha, alpha - 1.0)
    return difference


@_QUIET
def mean_pinball_loss(y_true: TargetsLike, y_pred: TargetsLike, *, sample_weight: ArrayLike | None = None, alpha: float = 0.5, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
    """The mean quantile loss ``alpha (y - p)`` above, ``(1 - alpha)(p - y)`` below (half the MAE at 0.5).

    Examples:
        >>> mean_pinball_loss([1, 2, 3], [0, 2, 3], alpha=0.1)
        0.03333333333333333
    """
    alpha = _check_alpha(alpha)
    y, p, weight, how = _checked(y_true, y_pred, sample_weight, multioutput, _MEANS)
    return _finite(_output_means(_pinball(y, p, alpha), weight, how), y, p)


@_QUIET
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
    errors = y - p
    total = _centered_squares(y, weight)
    residual = _products(errors, errors, weight)
    _finite(residual + total, y, p)  # finite sums of squares: finite inputs
    return formulas.combine(formulas.r_squared(residual, total, force_finite=force_finite), how, total)


@_QUIET
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
    residual = _centered_squares(y - p, weight, own=True)
    _finite(residual + total, y, p)
    return formulas.combine(formulas.fraction_explained(residual, total, force_finite=force_finite), how, total)


@_QUIET
def max_error(y_true: TargetsLike, y_pred: TargetsLike) -> float:
    """The largest ``|y - p|`` (one output).

    Raises:
        InvalidArgumentError: several outputs.

    Examples:
        >>> max_error([3, 2, 7, 1], [4, 2, 7, 1])
        1.0
    """
    y, p, _, _ = _checked(y_true, y_pred, None, "uniform_average")
    if y.shape[1] > 1:
        raise InvalidArgumentError(f"Multioutput not supported in max_error: the targets have {y.shape[1]} outputs")
    errors = y - p
    return float(_finite(max(float(errors.max()), -float(errors.min())), y, p))


def _check_power(power: object) -> float:
    if isinstance(power, bool) or not isinstance(power, (int, float, np.integer, np.floating)):
        raise InvalidTypeError(f"'power' must be a number <= 0 or >= 1, got {show(power)}")
    value = float(power)
    if not (value <= 0 or value >= 1) or math.isnan(value):
        raise InvalidArgumentError(f"'power' of a Tweedie deviance must be <= 0 or >= 1 (no distribution has 0 < power < 1), got {show(power)}")
    return value


def _deviance_domain(y: np.ndarray, p: np.ndarray, power: float) -> None:
    """Targets checked finite (one pass each, their smallest values, which a NaN makes NaN) and
    within the distribution's domain, with scikit-learn's messages."""
    low_y, low_p = float(y.min()), float(p.min())
    if not (math.isfinite(low_y) and math.isfinite(low_p)):  # NaN or -inf; +inf makes the deviance infinite or NaN: the callers _finite names it
        _finite(math.nan, y, p)
    message = f"Mean Tweedie deviance error with power={power} can only be used on "
    if power < 0 and low_p <= 0:
        raise InvalidValueError(message + "strictly positive y_pred.")
    if 1 <= power < 2 and (low_y < 0 or low_p <= 0):
        raise InvalidValueError(message + "non-negative y and strictly positive y_pred.")
    if power >= 2 and (low_y <= 0 or low_p <= 0):
        raise InvalidValueError(message + "strictly positive y and y_pred.")


def tweedie_deviances(y: np.ndarray, p: np.ndarray | float, power: float) -> np.ndarray:
    """The unit deviance of each sample of a Tweedie distribution of ``power`` (0: normal,
    ``(y - p)²``; 1: Poisson, ``2 (y log(y / p) - y + p)`` with ``0 log 0 = 0``; 2: gamma,
    ``2 (log(p / y) + y / p - 1)``), in place in one array where it can."""
    if power == 0:
        deviance = np.subtract(y, p)
        return np.square(deviance, out=deviance)
    if power == 1:
        deviance = np.divide(y, p)
        positive = y > 0
        if positive.all():
            np.log(deviance, out=deviance)
        else:  # scipy's xlogy: 0 log 0 is 0
            np.log(deviance, out=deviance, where=positive)
            deviance[~positive] = 0.0
        deviance *= y
        deviance -= y
        deviance += p
        deviance *= 2
        return deviance
    if power == 2:  # 2 (log(p / y) + y / p - 1) = 2 (r - 1 - log r), r = y / p: one division
        ratio = np.divide(y, p)
        logs = np.log(ratio)
        ratio -= 1
        ratio -= logs
        ratio *= 2
        return ratio
    base = np.maximum(y, 0.0) if power < 0 else y
    deviance = _power(base, 2 - power)
    deviance /= (1 - power) * (2 - power)
    shared = _power(p, 1 - power)  # p ** (2 - power) is this times p: two powers, not three
    term = np.multiply(y, shared)
    term /= 1 - power
    deviance -= term
    shared *= p
    shared /= 2 - power
    deviance += shared
    deviance *= 2
    return deviance


def _power(values: np.ndarray | float, exponent: float) -> np.ndarray:
    """``values ** exponent`` (values >= 0); for a multiple of 1/2 up to 4 (the powers 1.5, 2.5, 3,
    -1, ... of the Tweedie family), by square roots and products, four times faster than ``pow``."""
    twice = 2 * exponent
    if not (isinstance(values, np.ndarray) and float(twice).is_integer() and 0 < abs(twice) <= 8):
        return np.asarray(np.power(values, exponent))
    steps = abs(int(twice))
    root = values if steps % 2 == 0 else np.sqrt(values)
    factor, count = (values, steps // 2) if steps % 2 == 0 else (root, steps)
    result = np.array(factor, dtype=np.float64)
    for _ in range(count - 1):
        result *= factor
    return np.reciprocal(result, out=result) if twice < 0 else result


def _one_output(y_true: TargetsLike, y_pred: TargetsLike, sample_weight: ArrayLike | None, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    y, p, weight, _ = _checked(y_true, y_pred, sample_weight, "uniform_average")
    if y.shape[1] > 1:
        raise InvalidArgumentError(f"Multioutput not supported in {name}: the targets have {y.shape[1]} outputs")
    return y[:, 0], p[:, 0], weight


def _weighted_mean(values: np.ndarray, weight: np.ndarray | None) -> float:
    return float(values.mean() if weight is None else (weight @ values) / _total(weight))


@_QUIET
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
    return float(_finite(_weighted_mean(tweedie_deviances(y, p, power), weight), y, p))


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


@_QUIET
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
    numerator = _finite(_weighted_mean(tweedie_deviances(y, p, power), weight), y, p)
    denominator = _weighted_mean(tweedie_deviances(y, _weighted_mean(y, weight), power), weight)
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
    y, p, weight, how = _checked(y_true, y_pred, sample_weight, multioutput, _MEANS, finite=True)  # a quantile may hide an infinity
    if _single_sample(y, "D^2"):
        return math.nan
    quantile = np.median(y, axis=0) if alpha == 0.5 and weight is None else weighted_quantile(y, weight, alpha)  # the median: numpy's own
    numerator = _mean(_pinball(y, p, alpha), weight)
    denominator = _mean(_pinball(y, quantile, alpha), weight)
    return formulas.combine(formulas.fraction_explained(numerator, denominator, force_finite=True), how, denominator)


def d2_absolute_error_score(y_true: TargetsLike, y_pred: TargetsLike, *, sample_weight: ArrayLike | None = None, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
    """``D² = 1 - Σ w |y - p| / Σ w |y - median(y)|`` (``d2_pinball_score`` at 0.5).

    Examples:
        >>> round(d2_absolute_error_score([3, -0.5, 2, 7], [2.5, 0.0, 2, 8]), 6)
        0.764706
    """
    return d2_pinball_score(y_true, y_pred, sample_weight=sample_weight, alpha=0.5, multioutput=multioutput)
