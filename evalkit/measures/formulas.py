"""Every binary measure, once, as a vectorised function of the four cell counts.

Each function takes the counts by keyword (``tp=, fp=, fn=, tn=``: Java, scikit-learn and
Tribuo order them differently, so evalkit never takes them by position), accepts Python
numbers or numpy arrays of any broadcastable shape, computes in float64 (exact for counts up
to 2**53, no integer overflow) and returns a ``float`` for scalar input or a float64 array.

Undefined values: a measure whose denominator is 0 returns NaN. Measures built from other
measures (balanced accuracy, G-mean, informedness, markedness, Fowlkes-Mallows) are NaN when a
part they need is NaN. Averages decide what to do with NaN through one policy
(``evalkit.averaging``).

Each measure is registered with metadata in ``MEASURES`` (see ``Measure``): its
direction, its bounds, and, for aggregation-decomposable measures, the coefficient vectors
``a, b`` with ``M = <a, v> / <b, v>`` over ``v = (tp, fp, fn, tn)``. Users add measures with
``register``; a registered measure takes part in every average.

Examples:
    >>> from evalkit import formulas
    >>> formulas.precision(tp=35, fp=10, fn=5, tn=50)
    0.7777777777777778
    >>> formulas.recall(tp=[35, 0], fp=[10, 0], fn=[5, 0], tn=[50, 9])
    array([0.875,   nan])
"""

from __future__ import annotations

import functools
import math
import types
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from evalkit.engine._exact import MAX_COUNT, exact_row_sums
from evalkit.engine._validation import show
from evalkit.exceptions import InvalidArgumentError, InvalidTypeError
from evalkit.measures.registry import (
    COUNT_NAMES,
    MEASURES,
    Coefficients,
    Measure,
    canonical_name,
    check_measure_parameters,
    get_measure,
    measure_names,
    register,
    spelling,
    unknown_name_message,
    unregister,
)

__all__ = [
    "COUNT_NAMES",
    "KAPPA_WEIGHTS",
    "MEASURES",
    "Measure",
    "accuracy",
    "balanced_accuracy",
    "canonical_name",
    "check_beta",
    "check_measure_parameters",
    "cohen_kappa",
    "diagonal_correlation_coefficient",
    "error_rate",
    "f1_score",
    "f_score",
    "false_discovery_rate",
    "false_negative_rate",
    "false_omission_rate",
    "false_positive_rate",
    "fowlkes_mallows_index",
    "g_mean",
    "get_measure",
    "informedness",
    "jaccard_index",
    "margins_cohen_kappa",
    "margins_matthews_correlation_coefficient",
    "markedness",
    "matrix_accuracy",
    "matrix_cohen_kappa",
    "matrix_matthews_correlation_coefficient",
    "matthews_correlation_coefficient",
    "measure_names",
    "negative_predictive_value",
    "pairs_cohen_kappa",
    "precision",
    "prevalence",
    "recall",
    "register",
    "specificity",
    "spelling",
    "unknown_name_message",
    "unregister",
]

# --------------------------------------------------------------------------------------------
# helpers



_PLAIN = (int, float)
"""Counts of these types take the scalar path: Python arithmetic, exact for ints."""

_EXACT_INT64 = 2**30
"""Integer counts below this keep int64 arithmetic (every product of two sums fits int64)."""


def counts_measure(definition: Callable[..., Any]) -> Callable[..., Any]:
    """Make a measure from its one definition on four counts ``(tp, fp, fn, tn)``.

    The definition is written with ``+ - * /`` and the helpers ``ratio``, ``ratio_sqrt``,
    ``sqrt`` and ``clip``, so that it runs unchanged on two kinds of operands:

    * Python numbers (the getters of ``ClassificationMetrics``): plain Python arithmetic,
      about a microsecond, and exact for ints (products of counts of any size, then one
      correctly rounded division);
    * arrays (per class, per sample): vectorised; integer counts keep int64 arithmetic while
      every product fits (counts below 2**30) and Python integers beyond, so products of
      large counts are exact too; float counts are computed in float64.

    The result is a ``float`` for scalar input and a float64 array otherwise.
    """

    plain_scalar = _with_helpers(definition, _SCALAR_HELPERS)
    scale_free = _scale_free(plain_scalar)

    def scalar(tp: Any, fp: Any, fn: Any, tn: Any, **parameters: Any) -> Any:
        if type(tp) is float or type(fp) is float or type(fn) is float or type(tn) is float:
            tp, fp, fn, tn = rescaled(tp, fp, fn, tn)
        return plain_scalar(tp, fp, fn, tn, **parameters)

    if not scale_free:
        scalar = plain_scalar  # no rescaling to do: the definition itself

    @functools.wraps(definition)
    def measure(*, tp: Any, fp: Any, fn: Any, tn: Any, **parameters: Any) -> Any:
        if type(tp) in _PLAIN and type(fp) in _PLAIN and type(fn) in _PLAIN and type(tn) in _PLAIN:
            return float(scalar(tp, fp, fn, tn, **parameters))
        counts = _count_arrays(tp, fp, fn, tn)
        if scale_free and counts[0].dtype.kind == "f":
            counts = rescaled(*counts)
        return _result(definition(*counts, **parameters))

    measure.definition = definition  # type: ignore[attr-defined]
    measure.scalar = scalar  # type: ignore[attr-defined]
    measure.integer_scalar = plain_scalar  # type: ignore[attr-defined]  # four Python ints: nothing to rescale
    measure.scale_free = scale_free  # type: ignore[attr-defined]
    return measure


_SAFE_FLOATS = (2.0**-200, 2.0**200)
"""Float counts whose largest lies outside this range are rescaled before a scale-free measure:
a product of four of them would overflow (``1e160`` weights) or vanish (``1e-300``)."""


def rescaled(*counts: Any) -> Any:
    """Float counts scaled by one power of two so that the largest lies in ``[0.5, 1)``, when
    it lies outside ``_SAFE_FLOATS``; else (and for integers) as they are. Scaling by a power
    of two is exact, and a scale-free measure (a ratio of terms of one degree) does not change.

    Examples:
        >>> rescaled(3e300, 1e300, 0.0, 2e300)[0] < 1, rescaled(3.0, 1.0, 0.0, 2.0)
        (True, (3.0, 1.0, 0.0, 2.0))
    """
    if isinstance(counts[0], np.ndarray):
        sizes = [float(np.max(np.abs(count))) for count in counts if count.dtype.kind == "f" and count.size]
    else:
        sizes = [abs(count) for count in counts if type(count) is float]
    largest = max(sizes, default=0.0)
    if largest == 0.0 or _SAFE_FLOATS[0] <= largest <= _SAFE_FLOATS[1] or not math.isfinite(largest):
        return counts
    shift = -math.frexp(largest)[1]
    if isinstance(counts[0], np.ndarray):
        return tuple(np.ldexp(count, shift) if count.dtype.kind == "f" else count for count in counts)
    return tuple(math.ldexp(count, shift) if type(count) is float else count for count in counts)


def _scale_free(scalar: Callable[..., Any]) -> bool:
    """Whether a definition's value is the same when every count is scaled by ``2**40`` (a
    ratio of terms of one degree): only then may float counts be rescaled before it."""
    probes = [(3.0, 5.0, 7.0, 11.0), (1.0, 0.0, 2.0, 9.0), (8.0, 2.0, 0.0, 0.0)]
    for probe in probes:
        try:
            plain, scaled = float(scalar(*probe)), float(scalar(*(math.ldexp(count, 40) for count in probe)))
        except (TypeError, ArithmeticError):  # a measure needing parameters, or undefined on a probe
            return False
        if not (plain == scaled or (math.isnan(plain) and math.isnan(scaled))):
            return False
    return True


def _with_helpers(definition: Callable[..., Any], helpers: dict[str, Any]) -> Callable[..., Any]:
    """The same code as ``definition`` (one formula), with the helpers it calls bound to other
    implementations: the scalar path runs the definition with Python-number helpers that need
    no type checks, about twice as fast."""
    function = types.FunctionType(
        definition.__code__, {**definition.__globals__, **helpers}, definition.__name__, definition.__defaults__, definition.__closure__
    )
    function.__kwdefaults__ = definition.__kwdefaults__
    return function


def _scalar_ratio(numerator: Any, denominator: Any) -> float:
    # Python divides integers of any size correctly rounded, and an int by a float as float(int) / float
    return numerator / denominator if denominator else math.nan


def _scalar_ratio_sqrt(numerator: Any, left: Any, right: Any) -> float:
    """``numerator / sqrt(left · right)`` of Python numbers; of ints correctly rounded, by a
    float guess checked exactly: ``y = sqrt(p / q)`` rounds twice, but it is the correctly
    rounded value exactly when ``p / q`` lies strictly between the squares of the midpoints
    around ``y``, ``|4 (b² p - t² q) - q| < 4 t q`` for ``y = t / b``, ``t`` its 53-bit mantissa (integer arithmetic, no
    integer square root); else, and for products that are not floats, the exact root decides."""
    if not left or not right:
        return math.nan
    if type(numerator) is int and type(left) is int and type(right) is int:
        p, q = numerator * numerator, left * right
        if not numerator or p >= _EXACT_FLOATS or q >= _EXACT_FLOATS or q <= 0:
            return exact_ratio_sqrt(numerator, left, right)
        guess = math.sqrt(p / q)
        fraction, exponent = math.frexp(guess)
        top, shift = int(fraction * 9007199254740992.0), 53 - exponent  # guess = top / 2**shift, top of 53 bits: its ulp is 2**-shift
        if top != 1 << 52 and shift >= 0 and abs(4 * ((p << (2 * shift)) - top * top * q) - q) < 4 * top * q:  # (a power of two: its lower gap is half)
            return guess if numerator > 0 else -guess
        return exact_ratio_sqrt(numerator, left, right)
    return float(numerator) / (math.sqrt(float(left)) * math.sqrt(float(right)))


def exact_ratio_sqrt(numerator: int, left: int, right: int) -> float:
    """``numerator / sqrt(left · right)`` of integers, correctly rounded: ``±sqrt(p / q)`` with
    ``p = numerator²`` and ``q = left · right`` from an integer square root of ``p · 4^k / q``
    carrying at least 56 bits (the true root lies strictly between two integers there, so
    their midpoint rounds as it does). A perfect matrix's MCC is exactly 1.

    Examples:
        >>> exact_ratio_sqrt(6, 6, 6), exact_ratio_sqrt(-1, 2, 8), exact_ratio_sqrt(1, 2, 1)
        (1.0, -0.25, 0.7071067811865476)
    """
    if not numerator:
        return 0.0
    p, q = numerator * numerator, left * right
    k = max(0, (114 - (p.bit_length() - q.bit_length())) // 2 + 1)
    quotient, remainder = divmod(p << (2 * k), q)
    root = math.isqrt(quotient)
    if remainder == 0 and root * root == quotient:
        value = math.ldexp(float(root), -k) if root.bit_length() <= 53 else float(Fraction(root, 1 << k))
    else:
        value = math.ldexp(float(2 * root + 1), -(k + 1))  # float(int) rounds correctly; the power of two is exact
    return value if numerator > 0 else -value


def _scalar_clip(value: float, low: float, high: float) -> float:
    if value < low:  # comparisons, not min/max: the getters' hot path (NaN compares false: it stays NaN)
        return low
    return high if value > high else value  # noqa: FURB136 (min() costs a builtin call; NaN must stay NaN)


_ROUNDING = 8 * float(np.finfo(np.float64).eps)  # a difference of float products within this share of their size is rounding


def _scalar_difference(first: Any, second: Any) -> Any:
    difference = first - second
    if isinstance(difference, float) and abs(difference) <= _ROUNDING * max(abs(first), abs(second)):
        return 0.0
    return difference


_SCALAR_HELPERS: dict[str, Any] = {"ratio": _scalar_ratio, "ratio_sqrt": _scalar_ratio_sqrt, "sqrt": math.sqrt, "clip": _scalar_clip,
                                   "difference": _scalar_difference}  # fmt: skip
"""What the helpers of a definition are on its scalar path."""


def _count_arrays(*counts: Any) -> list[np.ndarray]:
    """The counts as arrays for a definition: int64 when exact products fit, Python ints
    (object arrays) for larger integers, float64 otherwise."""
    arrays = [np.asarray(count.item() if isinstance(count, np.generic) else count) for count in counts]
    kinds = {array.dtype.kind for array in arrays}
    if kinds <= set("iuO"):
        try:
            high = max((int(np.abs(array).max()) if array.size else 0) for array in arrays)
        except TypeError:
            high = None  # an object array of something else than ints
        if high is not None and all(
            array.dtype.kind != "O" or all(isinstance(value, int) for value in array.ravel().tolist()) for array in arrays
        ):
            if high < _EXACT_INT64:
                return [array.astype(np.int64) for array in arrays]
            return [array.astype(object) for array in arrays]
    return [np.asarray(array, dtype=np.float64) for array in arrays]


def _result(value: Any) -> Any:
    """A Python float for a 0-d result, a float64 array otherwise."""
    if np.ndim(value) == 0:
        return float(value)
    return np.asarray(value, dtype=np.float64)


_EXACT_FLOATS = 2**53
"""Integers of larger magnitude are not all float64s."""


def _floats(value: Any) -> np.ndarray:
    return np.asarray(value, dtype=np.float64)


def ratio(numerator: Any, denominator: Any) -> Any:
    """``numerator / denominator``, NaN where the denominator is 0 (the one undefined rule).

    Both are rounded to float64 once, then divided, in the same way on Python numbers (giving
    a float) and on arrays (giving a float64 array), so that the two paths agree to the bit.
    The numerator and denominator themselves are exact (integer arithmetic for integer counts).

    Examples:
        >>> ratio(1, 3), ratio(1, 0), ratio(np.array([1, 0]), np.array([2, 0]))
        (0.3333333333333333, nan, array([0.5, nan]))
    """
    if isinstance(numerator, np.ndarray) or isinstance(denominator, np.ndarray):
        if np.asarray(numerator).dtype.kind == "O" or np.asarray(denominator).dtype.kind == "O":  # Python integers: divided as the scalar path does
            n, d = np.broadcast_arrays(np.asarray(numerator, dtype=object), np.asarray(denominator, dtype=object))
            return np.array([_scalar_ratio(a, b) for a, b in zip(n.ravel().tolist(), d.ravel().tolist())], dtype=np.float64).reshape(n.shape)
        n, d = np.broadcast_arrays(_floats(numerator), _floats(denominator))
        out = np.full(n.shape, np.nan)
        with np.errstate(over="ignore"):  # a ratio beyond the float range is infinite, as on Python numbers
            np.divide(n, d, out=out, where=d != 0)
        if np.asarray(numerator).dtype.kind in "iu" and np.asarray(denominator).dtype.kind in "iu":
            wide = (np.abs(n) > _EXACT_FLOATS) | (np.abs(d) > _EXACT_FLOATS)  # float64 rounds them: divide those as the scalar path does
            if wide.any():
                exact_n, exact_d = np.broadcast_arrays(np.asarray(numerator), np.asarray(denominator))
                out[wide] = [_scalar_ratio(a, b) for a, b in zip(exact_n[wide].tolist(), exact_d[wide].tolist())]
        return out
    return _scalar_ratio(numerator, denominator)


def ratio_sqrt(numerator: Any, left: Any, right: Any) -> Any:
    """``numerator / sqrt(left · right)``, NaN where ``left`` or ``right`` is 0.

    The square root is split in two (``sqrt(left) · sqrt(right)``: no overflow of the
    product), and Python numbers and arrays are computed alike, to the bit.
    """
    if isinstance(numerator, np.ndarray) or isinstance(left, np.ndarray) or isinstance(right, np.ndarray):
        if all(np.asarray(value).dtype.kind in "iuO" for value in (numerator, left, right)):  # exact, as the scalar path
            n, l, r = np.broadcast_arrays(*(np.asarray(value, dtype=object) for value in (numerator, left, right)))
            return np.array([_scalar_ratio_sqrt(int(a), int(b), int(c)) for a, b, c in zip(n.ravel(), l.ravel(), r.ravel())],
                            dtype=np.float64).reshape(n.shape)  # fmt: skip
        n, l, r = np.broadcast_arrays(_floats(numerator), _floats(left), _floats(right))
        out = np.full(n.shape, np.nan)
        with np.errstate(invalid="ignore"):
            np.divide(n, np.sqrt(l) * np.sqrt(r), out=out, where=(l != 0) & (r != 0))
        return out
    return _scalar_ratio_sqrt(numerator, left, right)


def sqrt(value: Any) -> Any:
    """The square root of a Python number (NaN stays NaN) or of an array."""
    return np.sqrt(value) if isinstance(value, np.ndarray) else math.sqrt(value)


def clip(value: Any, low: float, high: float) -> Any:
    """``value`` limited to ``[low, high]`` (rounding may step out of a measure's bounds); NaN stays NaN."""
    if isinstance(value, np.ndarray):
        return np.clip(value, low, high)
    return _scalar_clip(value, low, high)


def difference(first: Any, second: Any) -> Any:
    """``first - second`` of two products of counts: exact for integer counts; for float counts
    (weights, soft degrees) 0 where it is within rounding of their size, so that a quantity
    divided by it (1 / informedness) is undefined, not 1e16.

    Examples:
        >>> difference(6, 6), difference(0.1 * 3, 0.3), difference(np.array([0.1 * 3, 1.0]), np.array([0.3, 0.5])).tolist()
        (0, 0.0, [0.0, 0.5])
    """
    if isinstance(first, np.ndarray) or isinstance(second, np.ndarray):
        first, second = np.broadcast_arrays(first, second)
        result = first - second
        if result.dtype.kind == "f":
            result = np.where(np.abs(result) <= _ROUNDING * np.maximum(np.abs(first), np.abs(second)), 0.0, result)
        return result
    return _scalar_difference(first, second)


def _fixed(a: tuple[float, ...], b: tuple[float, ...]) -> Callable[..., Coefficients]:
    return lambda: (a, b)  # type: ignore[return-value]


# --------------------------------------------------------------------------------------------
# rates of the whole population


@register(
    title="Accuracy",
    abbreviation="ACC",
    description="How often the classifier is right, positives and negatives together.",
    coefficients=_fixed((1, 0, 0, 1), (1, 1, 1, 1)),
    depends_on_tn_at_zero_tp=True,
    aliases=("label_accuracy",),
)
@counts_measure
def accuracy(tp: Any, fp: Any, fn: Any, tn: Any) -> Any:
    """Accuracy: the share of correct decisions.

    ``(tp + tn) / (tp + fp + fn + tn)``; NaN when there are no samples.

    Examples:
        >>> accuracy(tp=35, fp=10, fn=5, tn=50)
        0.85
    """
    return ratio(tp + tn, tp + fp + fn + tn)


@register(
    title="Error rate",
    abbreviation="ERR",
    description="How often the classifier is wrong (1 - accuracy; Hamming loss on label data).",
    direction="lower",
    coefficients=_fixed((0, 1, 1, 0), (1, 1, 1, 1)),
    depends_on_tn_at_zero_tp=True,
    aliases=("hamming_loss",),
)
@counts_measure
def error_rate(tp: Any, fp: Any, fn: Any, tn: Any) -> Any:
    """Error rate: the share of wrong decisions.

    ``(fp + fn) / (tp + fp + fn + tn)``; NaN when there are no samples.

    Examples:
        >>> error_rate(tp=35, fp=10, fn=5, tn=50)
        0.15
    """
    return ratio(fp + fn, tp + fp + fn + tn)


@register(
    title="Prevalence",
    description="How often the positive class actually occurs.",
    direction=None,
    coefficients=_fixed((1, 0, 1, 0), (1, 1, 1, 1)),
    depends_on_tn_at_zero_tp=True,
    aliases=("positive_frequency",),
)
@counts_measure
def prevalence(tp: Any, fp: Any, fn: Any, tn: Any) -> Any:
    """Prevalence: the share of actual positives.

    ``(tp + fn) / (tp + fp + fn + tn)``; NaN when there are no samples.

    Examples:
        >>> prevalence(tp=35, fp=10, fn=5, tn=50)
        0.4
    """
    return ratio(tp + fn, tp + fp + fn + tn)


# --------------------------------------------------------------------------------------------
# rates of the actual classes (skew invariant)


@register(
    title="Recall",
    abbreviation="TPR",
    description="When the class is actually positive, how often the classifier says so.",
    coefficients=_fixed((1, 0, 0, 0), (1, 0, 1, 0)),
    skew_invariant=True,
    aliases=("sensitivity", "true_positive_rate", "tpr", "tp_rate", "hit_rate"),
)
@counts_measure
def recall(tp: Any, fp: Any, fn: Any, tn: Any) -> Any:
    """Recall (sensitivity, true positive rate).

    ``tp / (tp + fn)``; NaN when there are no actual positives.

    Examples:
        >>> recall(tp=35, fp=10, fn=5, tn=50)
        0.875
    """
    return ratio(tp, tp + fn)


@register(
    title="Specificity",
    abbreviation="TNR",
    description="When the class is actually negative, how often the classifier says so.",
    coefficients=_fixed((0, 0, 0, 1), (0, 1, 0, 1)),
    skew_invariant=True,
    depends_on_tn_at_zero_tp=True,
    aliases=("true_negative_rate", "tnr", "tn_rate", "selectivity"),
)
@counts_measure
def specificity(tp: Any, fp: Any, fn: Any, tn: Any) -> Any:
    """Specificity (true negative rate).

    ``tn / (tn + fp)``; NaN when there are no actual negatives.

    Examples:
        >>> specificity(tp=35, fp=10, fn=5, tn=50)
        0.8333333333333334
    """
    return ratio(tn, tn + fp)


@register(
    title="False positive rate",
    abbreviation="FPR",
    description="When the class is actually negative, how often the classifier says positive (fall-out).",
    direction="lower",
    coefficients=_fixed((0, 1, 0, 0), (0, 1, 0, 1)),
    skew_invariant=True,
    depends_on_tn_at_zero_tp=True,
    aliases=("fall_out", "fpr", "fp_rate"),
)
@counts_measure
def false_positive_rate(tp: Any, fp: Any, fn: Any, tn: Any) -> Any:
    """False positive rate (fall-out), ``1 - specificity``.

    ``fp / (fp + tn)``; NaN when there are no actual negatives.

    Examples:
        >>> false_positive_rate(tp=35, fp=10, fn=5, tn=50)
        0.16666666666666666
    """
    return ratio(fp, fp + tn)


@register(
    title="False negative rate",
    abbreviation="FNR",
    description="When the class is actually positive, how often the classifier misses it (miss rate).",
    direction="lower",
    coefficients=_fixed((0, 0, 1, 0), (1, 0, 1, 0)),
    skew_invariant=True,
    aliases=("miss_rate", "fnr", "fn_rate"),
)
@counts_measure
def false_negative_rate(tp: Any, fp: Any, fn: Any, tn: Any) -> Any:
    """False negative rate (miss rate), ``1 - recall``.

    ``fn / (fn + tp)``; NaN when there are no actual positives.

    Examples:
        >>> false_negative_rate(tp=35, fp=10, fn=5, tn=50)
        0.125
    """
    return ratio(fn, fn + tp)


# --------------------------------------------------------------------------------------------
# rates of the predicted classes


@register(
    title="Precision",
    abbreviation="PPV",
    description="When the classifier says positive, how often it is right.",
    coefficients=_fixed((1, 0, 0, 0), (1, 1, 0, 0)),
    aliases=("positive_predictive_value", "ppv"),
)
@counts_measure
def precision(tp: Any, fp: Any, fn: Any, tn: Any) -> Any:
    """Precision (positive predictive value).

    ``tp / (tp + fp)``; NaN when nothing is predicted positive.

    Examples:
        >>> precision(tp=35, fp=10, fn=5, tn=50)
        0.7777777777777778
    """
    return ratio(tp, tp + fp)


@register(
    title="Negative predictive value",
    abbreviation="NPV",
    description="When the classifier says negative, how often it is right.",
    coefficients=_fixed((0, 0, 0, 1), (0, 0, 1, 1)),
    depends_on_tn_at_zero_tp=True,
    aliases=("npv",),
)
@counts_measure
def negative_predictive_value(tp: Any, fp: Any, fn: Any, tn: Any) -> Any:
    """Negative predictive value.

    ``tn / (tn + fn)``; NaN when nothing is predicted negative.

    Examples:
        >>> negative_predictive_value(tp=35, fp=10, fn=5, tn=50)
        0.9090909090909091
    """
    return ratio(tn, tn + fn)


@register(
    title="False discovery rate",
    abbreviation="FDR",
    description="When the classifier says positive, how often it is wrong.",
    direction="lower",
    coefficients=_fixed((0, 1, 0, 0), (1, 1, 0, 0)),
    aliases=("fdr",),
)
@counts_measure
def false_discovery_rate(tp: Any, fp: Any, fn: Any, tn: Any) -> Any:
    """False discovery rate, ``1 - precision``.

    ``fp / (fp + tp)``; NaN when nothing is predicted positive.

    Examples:
        >>> false_discovery_rate(tp=35, fp=10, fn=5, tn=50)
        0.2222222222222222
    """
    return ratio(fp, fp + tp)


@register(
    title="False omission rate",
    abbreviation="FOR",
    description="When the classifier says negative, how often it is wrong.",
    direction="lower",
    coefficients=_fixed((0, 0, 1, 0), (0, 0, 1, 1)),
    depends_on_tn_at_zero_tp=True,
    aliases=("for",),
)
@counts_measure
def false_omission_rate(tp: Any, fp: Any, fn: Any, tn: Any) -> Any:
    """False omission rate, ``1 - NPV``.

    ``fn / (fn + tn)``; NaN when nothing is predicted negative.

    Examples:
        >>> false_omission_rate(tp=35, fp=10, fn=5, tn=50)
        0.09090909090909091
    """
    return ratio(fn, fn + tn)


# --------------------------------------------------------------------------------------------
# combinations of precision and recall


@register(
    title="F1 score",
    abbreviation="F1",
    description="Harmonic mean of precision and recall.",
    coefficients=_fixed((2, 0, 0, 0), (2, 1, 1, 0)),
    aliases=("f1", "dice", "f_measure"),
)
@counts_measure
def f1_score(tp: Any, fp: Any, fn: Any, tn: Any) -> Any:
    """F1 score, the harmonic mean of precision and recall.

    ``2 tp / (2 tp + fp + fn)``; NaN when there are no positives, actual or predicted
    (then precision and recall are both undefined). Computed from counts, not from the
    rounded rates, so it never divides 0 by 0 where the counts are defined.

    Examples:
        >>> f1_score(tp=35, fp=10, fn=5, tn=50)
        0.8235294117647058
    """
    return ratio(2 * tp, 2 * tp + fp + fn)


def check_beta(beta: Any) -> float:
    """Return ``beta`` as a float in ``[0, inf]``: 0 gives precision, infinity recall (as in scikit-learn)."""
    if isinstance(beta, bool) or not isinstance(beta, (int, float, np.integer, np.floating)):
        raise InvalidTypeError(f"'beta' must be a number, got {show(beta)}")
    if not beta >= 0:  # NaN fails too
        raise InvalidArgumentError(f"'beta' must be >= 0 (0: precision, inf: recall), got {show(beta)}")
    return float(beta)


def _f_score_coefficients(beta: float = 1.0) -> Coefficients:
    if check_beta(beta) == math.inf:
        return (1, 0, 0, 0), (1, 0, 1, 0)  # recall
    b2 = float(beta) ** 2
    return (1 + b2, 0, 0, 0), (1 + b2, 1, b2, 0)


@register(
    title="F-beta score",
    abbreviation="Fβ",
    description="Weighted harmonic mean of precision and recall; recall counts beta times as much.",
    coefficients=_f_score_coefficients,
    aliases=("f_beta", "fbeta_score"),
)
@counts_measure
def f_score(tp: Any, fp: Any, fn: Any, tn: Any, beta: float = 1.0) -> Any:
    """F-beta score for any ``beta >= 0``.

    ``(1 + b²) tp / ((1 + b²) tp + b² fn + fp)``, equal to
    ``(1 + b²) P R / (b² P + R)``; NaN when there are no positives, actual or predicted.
    ``beta = 0`` is precision and ``beta = inf`` recall, as in scikit-learn.

    Raises:
        InvalidArgumentError: ``beta`` is negative or NaN.

    Examples:
        >>> f_score(tp=35, fp=10, fn=5, tn=50, beta=2)
        0.8536585365853658
        >>> f_score(tp=35, fp=10, fn=5, tn=50, beta=0.5)
        0.7954545454545454
    """
    if check_beta(beta) == math.inf:
        return ratio(tp, tp + fn)
    b2 = float(beta) ** 2
    return ratio((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp)


@register(
    title="Jaccard index",
    abbreviation="IoU",
    description="Overlap of predicted and actual positives over their union (critical success index).",
    coefficients=_fixed((1, 0, 0, 0), (1, 1, 1, 0)),
    aliases=("jaccard", "iou", "threat_score", "critical_success_index"),
)
@counts_measure
def jaccard_index(tp: Any, fp: Any, fn: Any, tn: Any) -> Any:
    """Jaccard index (intersection over union).

    ``tp / (tp + fp + fn)``; NaN when there are no positives, actual or predicted.

    Examples:
        >>> jaccard_index(tp=35, fp=10, fn=5, tn=50)
        0.7
    """
    return ratio(tp, tp + fp + fn)


@register(
    title="Fowlkes-Mallows index",
    abbreviation="FM",
    description="Geometric mean of precision and recall.",
    aliases=("fowlkes_mallows",),
)
@counts_measure
def fowlkes_mallows_index(tp: Any, fp: Any, fn: Any, tn: Any) -> Any:
    """Fowlkes-Mallows index, the geometric mean of precision and recall.

    ``tp / sqrt((tp + fp)(tp + fn))``; NaN when precision or recall is undefined.

    Examples:
        >>> round(fowlkes_mallows_index(tp=35, fp=10, fn=5, tn=50), 6)
        0.824958
    """
    return clip(ratio_sqrt(tp, tp + fp, tp + fn), 0.0, 1.0)


# --------------------------------------------------------------------------------------------
# combinations of recall and specificity, and of the predictive values


@register(
    title="Balanced accuracy",
    abbreviation="BA",
    description="Mean of recall and specificity: accuracy as if both classes were equally frequent.",
    skew_invariant=True,
    depends_on_tn_at_zero_tp=True,
)
@counts_measure
def balanced_accuracy(tp: Any, fp: Any, fn: Any, tn: Any) -> Any:
    """Balanced accuracy, the mean of recall and specificity.

    ``(tp / (tp + fn) + tn / (tn + fp)) / 2``; NaN when either class is absent (Deep Netts
    falls back to the defined side instead; evalkit keeps one undefined-value policy).

    Examples:
        >>> balanced_accuracy(tp=35, fp=10, fn=5, tn=50)
        0.8541666666666667
    """
    return (ratio(tp, tp + fn) + ratio(tn, tn + fp)) / 2


@register(
    title="G-mean",
    abbreviation="GM",
    description="Geometric mean of recall and specificity.",
    skew_invariant=True,
    aliases=("geometric_mean",),
)
@counts_measure
def g_mean(tp: Any, fp: Any, fn: Any, tn: Any) -> Any:
    """G-mean, the geometric mean of recall and specificity.

    ``sqrt(tp / (tp + fn) * tn / (tn + fp))``; NaN when either class is absent.

    Examples:
        >>> round(g_mean(tp=35, fp=10, fn=5, tn=50), 6)
        0.853913
    """
    return sqrt(ratio(tp, tp + fn) * ratio(tn, tn + fp))


@register(
    title="Informedness",
    abbreviation="BM",
    description="Recall + specificity - 1 (Youden's J, bookmaker informedness).",
    bounds=(-1.0, 1.0),
    skew_invariant=True,
    depends_on_tn_at_zero_tp=True,
    aliases=("youden_j", "bookmaker_informedness"),
)
@counts_measure
def informedness(tp: Any, fp: Any, fn: Any, tn: Any) -> Any:
    """Informedness (Youden's J), recall + specificity - 1.

    ``(tp tn - fp fn) / ((tp + fn)(tn + fp))``, the same value with a single rounding;
    NaN when either class is absent.

    Examples:
        >>> informedness(tp=35, fp=10, fn=5, tn=50)
        0.7083333333333334
    """
    return ratio(tp * tn - fp * fn, (tp + fn) * (tn + fp))


@register(
    title="Markedness",
    abbreviation="MK",
    description="Precision + negative predictive value - 1.",
    bounds=(-1.0, 1.0),
    depends_on_tn_at_zero_tp=True,
)
@counts_measure
def markedness(tp: Any, fp: Any, fn: Any, tn: Any) -> Any:
    """Markedness, precision + NPV - 1.

    ``(tp tn - fp fn) / ((tp + fp)(tn + fn))``, the same value with a single rounding;
    NaN when either prediction is never made.

    Examples:
        >>> markedness(tp=35, fp=10, fn=5, tn=50)
        0.6868686868686869
    """
    return ratio(tp * tn - fp * fn, (tp + fp) * (tn + fn))


@register(
    title="Matthews correlation coefficient",
    abbreviation="MCC",
    description="Correlation between actual and predicted class: 1 perfect, 0 chance, -1 always wrong.",
    bounds=(-1.0, 1.0),
    depends_on_tn_at_zero_tp=True,
    aliases=("mcc", "phi_coefficient"),
)
@counts_measure
def matthews_correlation_coefficient(tp: Any, fp: Any, fn: Any, tn: Any) -> Any:
    """Matthews correlation coefficient (phi).

    ``(tp tn - fp fn) / sqrt((tp + fp)(tp + fn)(tn + fp)(tn + fn))``; NaN when any of the
    four margins is 0 (scikit-learn returns 0 there; evalkit keeps one undefined policy).
    The numerator is computed exactly (integer arithmetic for integer counts), so the value
    is exact to rounding for counts up to 2**62 and beyond.

    Examples:
        >>> round(matthews_correlation_coefficient(tp=35, fp=10, fn=5, tn=50), 6)
        0.697518
    """
    return clip(ratio_sqrt(tp * tn - fp * fn, (tp + fp) * (tp + fn), (tn + fp) * (tn + fn)), -1.0, 1.0)


@register(
    title="Cohen's kappa",
    abbreviation="κ",
    description="Agreement between actual and predicted class beyond chance.",
    bounds=(-1.0, 1.0),
    depends_on_tn_at_zero_tp=True,
    aliases=("kappa",),
)
@counts_measure
def cohen_kappa(tp: Any, fp: Any, fn: Any, tn: Any) -> Any:
    """Cohen's kappa of a two-class table.

    ``2 (tp tn - fn fp) / ((tp + fp)(fp + tn) + (tp + fn)(fn + tn))``; NaN when the
    denominator is 0 (all samples in one cell of the diagonal).

    Examples:
        >>> round(cohen_kappa(tp=35, fp=10, fn=5, tn=50), 6)
        0.693878
    """
    return ratio(2 * (tp * tn - fn * fp), (tp + fp) * (fp + tn) + (tp + fn) * (fn + tn))


# --------------------------------------------------------------------------------------------
# diagnostic tests: how a prediction changes the odds of the class


@register(
    title="Positive likelihood ratio",
    abbreviation="LR+",
    description="How many times a positive prediction multiplies the odds of the class: recall / false positive rate.",
    bounds=(0.0, math.inf),
    skew_invariant=True,
    aliases=("lr_plus", "lr_positive", "plr"),
)
@counts_measure
def positive_likelihood_ratio(tp: Any, fp: Any, fn: Any, tn: Any) -> Any:
    """Positive likelihood ratio, recall / false positive rate.

    ``tp (fp + tn) / (fp (tp + fn))``; NaN when ``fp = 0`` or the class is absent (as
    scikit-learn's ``class_likelihood_ratios``). 1 is a useless test.

    Examples:
        >>> positive_likelihood_ratio(tp=35, fp=10, fn=5, tn=50)
        5.25
    """
    return ratio(tp * (fp + tn), fp * (tp + fn))


@register(
    title="Negative likelihood ratio",
    abbreviation="LR-",
    description="How many times a negative prediction multiplies the odds of the class: false negative rate / specificity.",
    direction="lower",
    bounds=(0.0, math.inf),
    skew_invariant=True,
    depends_on_tn_at_zero_tp=True,
    aliases=("lr_minus", "lr_negative", "nlr"),
)
@counts_measure
def negative_likelihood_ratio(tp: Any, fp: Any, fn: Any, tn: Any) -> Any:
    """Negative likelihood ratio, false negative rate / specificity.

    ``fn (fp + tn) / (tn (tp + fn))``; NaN when ``tn = 0`` or the class is absent. Lower is
    better; 1 is a useless test.

    Examples:
        >>> round(negative_likelihood_ratio(tp=35, fp=10, fn=5, tn=50), 6)
        0.15
    """
    return ratio(fn * (fp + tn), tn * (tp + fn))


@register(
    title="Diagnostic odds ratio",
    abbreviation="DOR",
    description="The odds of a positive prediction for the class over those for the others: LR+ / LR-.",
    bounds=(0.0, math.inf),
    skew_invariant=True,
    aliases=("dor", "odds_ratio"),
)
@counts_measure
def diagnostic_odds_ratio(tp: Any, fp: Any, fn: Any, tn: Any) -> Any:
    """Diagnostic odds ratio, ``tp tn / (fp fn)`` (LR+ / LR-); NaN when ``fp`` or ``fn`` is 0.

    Examples:
        >>> diagnostic_odds_ratio(tp=35, fp=10, fn=5, tn=50)
        35.0
    """
    return ratio(tp * tn, fp * fn)


@register(
    title="Number needed to diagnose",
    abbreviation="NND",
    description="How many samples must be tested to find one more of the class than chance would: 1 / informedness.",
    direction=None,
    bounds=(-math.inf, math.inf),
    skew_invariant=True,
    depends_on_tn_at_zero_tp=True,
    aliases=("nnd",),
)
@counts_measure
def number_needed_to_diagnose(tp: Any, fp: Any, fn: Any, tn: Any) -> Any:
    """Number needed to diagnose, 1 / informedness = ``(tp + fn)(tn + fp) / (tp tn - fp fn)``.

    Between 1 (a perfect test) and infinity for a test better than chance; negative for one
    worse than chance (so it has no direction: optimise informedness instead); NaN at chance.

    Examples:
        >>> round(number_needed_to_diagnose(tp=35, fp=10, fn=5, tn=50), 6)
        1.411765
    """
    return ratio((tp + fn) * (tn + fp), difference(tp * tn, fp * fn))


def check_prevalence(prevalence: Any) -> float | None:
    """``None`` (the data's own prevalence) or a number in [0, 1]."""
    if prevalence is None:
        return None
    if isinstance(prevalence, bool) or not isinstance(prevalence, (int, float, np.integer, np.floating)):
        raise InvalidTypeError(f"'prevalence' must be a number in [0, 1] or None, got {show(prevalence)}")
    if not 0 <= prevalence <= 1:
        raise InvalidArgumentError(f"'prevalence' must be in [0, 1] (the pre-test probability of the class), got {show(prevalence)}")
    return float(prevalence)


@register(
    title="Post-test probability",
    abbreviation="PPV@π",
    description="The probability of the class after a positive prediction, at a given prevalence (pre-test probability).",
)
@counts_measure
def post_test_probability(tp: Any, fp: Any, fn: Any, tn: Any, prevalence: float | None = None) -> Any:
    """The probability of the class after a positive prediction when the class has
    prevalence ``π`` (Bayes' rule with the likelihood ratio: post-test odds = pre-test odds ·
    LR+): ``π recall / (π recall + (1 - π) fpr)``. Without ``prevalence`` the data's own, which
    makes it the precision. NaN when nothing would be predicted positive.

    Raises:
        InvalidArgumentError: ``prevalence`` outside [0, 1].

    Examples:
        >>> round(post_test_probability(tp=35, fp=10, fn=5, tn=50, prevalence=0.02), 6)
        0.096774
        >>> post_test_probability(tp=35, fp=10, fn=5, tn=50) == precision(tp=35, fp=10, fn=5, tn=50)
        True
    """
    chosen = check_prevalence(prevalence)
    if chosen is None:
        return ratio(tp, tp + fp)
    hits = chosen * (tp * (fp + tn))
    return ratio(hits, hits + (1 - chosen) * (fp * (tp + fn)))


# --------------------------------------------------------------------------------------------
# whole-matrix measures of an m x m confusion matrix (rows actual, columns predicted)


def _matrix(counts: Any) -> np.ndarray:
    array = np.asarray(counts)
    if array.ndim != 2 or array.shape[0] != array.shape[1]:
        raise InvalidArgumentError(f"'counts' must be a square matrix, got shape {array.shape}")
    if array.dtype.kind not in "iuf" and not (array.dtype.kind == "O" and all(isinstance(v, int) for v in array.ravel().tolist())):
        array = array.astype(np.float64)
    return array


def _sum(values: Any) -> Any:
    """An exact sum: a Python int for integer values (never wrapped), else a float."""
    values = np.asarray(values)
    if values.dtype.kind in "iuO":
        return sum(int(value) for value in values.ravel().tolist()) if values.size > 64 and values.dtype.kind == "O" else int(
            values.sum() if values.dtype.kind != "O" and _fits(values, values.size) else sum(values.ravel().tolist())
        )
    return float(values.sum())


def _fits(values: np.ndarray, terms: int) -> bool:
    """Whether a sum of ``terms`` products of two of these integers stays in int64."""
    high = int(np.abs(values).max()) if values.size else 0
    return high * high * max(terms, 1) < 2**63


def _dot(first: Any, second: Any) -> Any:
    """``Σ first_k · second_k``: exact (a Python int) for integers, else a float; for 2-D
    float rows (a batch of margins, as a bootstrap draws them) one sum per row."""
    first, second = np.asarray(first), np.asarray(second)
    if first.ndim == 2:
        return np.einsum("ij,ij->i", first.astype(np.float64), second.astype(np.float64))
    if first.dtype.kind in "iuO" and second.dtype.kind in "iuO":
        if first.dtype.kind != "O" and second.dtype.kind != "O" and _fits(np.concatenate([first, second]), len(first)):
            return int(np.dot(first.astype(np.int64), second.astype(np.int64)))
        return sum(int(a) * int(b) for a, b in zip(first.tolist(), second.tolist()))
    return float(np.dot(first.astype(np.float64), second.astype(np.float64)))


def _margins(counts: Any) -> dict[str, Any]:
    x = _matrix(counts)
    exact = x.dtype.kind in "iuO"
    if x.dtype.kind == "i" or (x.dtype.kind == "u" and (not x.size or int(x.max()) <= MAX_COUNT)):  # one numpy sum each way, exact beyond int64
        rows, columns = exact_row_sums(x).tolist(), exact_row_sums(x.T).tolist()
    else:
        rows = [_sum(row) for row in x] if exact else x.sum(axis=1)
        columns = [_sum(column) for column in x.T] if exact else x.sum(axis=0)
    actual = np.array(rows, dtype=object if exact else np.float64)
    predicted = np.array(columns, dtype=object if exact else np.float64)
    return {"correct": _sum(np.diagonal(x)), "total": _sum(actual), "actual": actual, "predicted": predicted}


def _plain(value: Any) -> Any:
    if isinstance(value, np.ndarray) and value.ndim:
        return value.astype(np.float64)  # a batch: one value per row
    return value if type(value) in _PLAIN else (int(value) if isinstance(value, (int, np.integer)) else float(value))


def matrix_accuracy(counts: Any) -> float:
    """Accuracy of a multi-class confusion matrix: ``trace / total``; NaN when empty.

    Examples:
        >>> matrix_accuracy([[5, 1], [2, 2]])
        0.7
    """
    margins = _margins(counts)
    return float(ratio(margins["correct"], margins["total"]))


def _rescaled_margins(correct: Any, total: Any, actual: Any, predicted: Any) -> tuple[Any, Any, Any, Any]:
    """Float margins scaled by one power of two of the total (per row of a batch) when it lies
    outside ``_SAFE_FLOATS``: kappa and MCC square the total, which overflows from 1e155."""
    totals = np.asarray(total)
    if totals.dtype.kind != "f" or not totals.size:
        return correct, total, actual, predicted
    largest = float(np.max(np.abs(totals)))
    if largest == 0.0 or _SAFE_FLOATS[0] <= largest <= _SAFE_FLOATS[1] or not math.isfinite(largest):
        return correct, total, actual, predicted
    shift = -np.frexp(totals)[1]
    column = shift[:, None] if totals.ndim else shift
    scaled = (np.ldexp(correct, shift), np.ldexp(totals, shift), np.ldexp(np.asarray(actual, dtype=np.float64), column),
              np.ldexp(np.asarray(predicted, dtype=np.float64), column))  # fmt: skip
    return tuple(value if np.ndim(value) else float(value) for value in scaled)  # type: ignore[return-value]


def margins_cohen_kappa(*, correct: Any, total: Any, actual: Any, predicted: Any) -> float:
    """Cohen's kappa from the margins of a multi-class confusion matrix.

    ``(N c - Σ_h a_h p_h) / (N² - Σ_h a_h p_h)`` with ``c`` the correct (diagonal) count,
    ``N`` the total, ``a_h`` the actual (row) and ``p_h`` the predicted (column) sums. Integer
    counts are combined exactly, then divided once; NaN when the denominator is 0. Given a batch
    (one row of margins per confusion matrix, float) it gives one value per row.

    Examples:
        >>> margins_cohen_kappa(correct=2**53 + 1, total=2**53 + 5, actual=[2**53 + 2, 3], predicted=[2**53 + 2, 3])
        0.3333333333333331
    """
    correct, total, actual, predicted = _rescaled_margins(correct, total, actual, predicted)
    correct, total, chance = _plain(correct), _plain(total), _dot(actual, predicted)
    return _result(ratio(total * correct - chance, total * total - chance))


def margins_matthews_correlation_coefficient(*, correct: Any, total: Any, actual: Any, predicted: Any) -> float:
    """Multi-class MCC (Gorodkin's R_K) from the margins of a confusion matrix.

    ``(c s - Σ_k p_k t_k) / sqrt((s² - Σ p_k²)(s² - Σ t_k²))`` with ``c`` the correct count,
    ``s`` the total, ``t_k`` the actual and ``p_k`` the predicted sums; exact for integer
    counts up to the last rounding; NaN when a denominator factor is 0. Given a batch (one row
    of margins per confusion matrix, float) it gives one value per row.
    """
    correct, total, actual, predicted = _rescaled_margins(correct, total, actual, predicted)
    c, s = _plain(correct), _plain(total)
    numerator = c * s - _dot(predicted, actual)
    return _result(clip(ratio_sqrt(numerator, s * s - _dot(predicted, predicted), s * s - _dot(actual, actual)), -1.0, 1.0))


KAPPA_WEIGHTS = (None, "linear", "quadratic")
"""The disagreement weights of Cohen's kappa: none (every error counts 1), ``|i - j|`` or ``(i - j)²``."""


def matrix_cohen_kappa(counts: Any, weights: str | None = None) -> float:
    """Cohen's kappa of a multi-class confusion matrix (the protein-function study's table).

    ``(N Σ x_ii - Σ_h row_h col_h) / (N² - Σ_h row_h col_h)``; NaN when the denominator is 0.
    With ``weights="linear"`` or ``"quadratic"`` the weighted kappa of ordered classes (see
    ``pairs_cohen_kappa``). Exact to the last rounding for integer counts of any size.

    Examples:
        >>> round(matrix_cohen_kappa([[50, 10], [5, 35]]), 6)
        0.693878
        >>> matrix_cohen_kappa([[2**53, 2], [2, 1]])  # (2**53 - 4) / (3 * 2**53 + 6), exactly rounded
        0.3333333333333331
        >>> round(matrix_cohen_kappa([[5, 2, 0], [1, 6, 1], [0, 2, 4]], weights="quadratic"), 6)
        0.749004
    """
    if weights is None:
        return margins_cohen_kappa(**_margins(counts))
    x = _matrix(counts)
    actual, predicted = np.nonzero(x)
    return pairs_cohen_kappa(actual, predicted, x[actual, predicted], len(x), weights=weights)


def pairs_cohen_kappa(actual: Any, predicted: Any, counts: Any, size: int, *, weights: str | None = None) -> float:
    """Cohen's kappa from the (actual, predicted) code pairs of a confusion matrix, optionally weighted.

    ``kappa = 1 - N Σ_ij w_ij x_ij / Σ_ij w_ij r_i c_j`` with disagreement weights ``w``:
    ``1`` off the diagonal (plain kappa), ``|i - j|`` (``"linear"``) or ``(i - j)²``
    (``"quadratic"``, for ordered classes), ``r`` and ``c`` the row and column sums. The
    expected disagreement is found in ``O(m)`` from prefix sums and moments, and integer
    counts are combined exactly, then divided once. NaN when it is 0.

    Examples:
        >>> pairs_cohen_kappa([0, 1, 1], [0, 1, 0], [5, 4, 1], 2)
        0.8
    """
    if not (weights is None or isinstance(weights, str)) or weights not in KAPPA_WEIGHTS:
        raise InvalidArgumentError(f"'weights' must be None, 'linear' or 'quadratic', got {show(weights)}")
    actual, predicted = np.asarray(actual, dtype=np.int64), np.asarray(predicted, dtype=np.int64)
    counts = np.asarray(counts)
    exact = counts.dtype.kind in "iuO"
    number = (lambda value: int(value)) if exact else float
    rows = np.zeros(size, dtype=object if exact else np.float64)
    columns = np.zeros(size, dtype=object if exact else np.float64)
    np.add.at(rows, actual, counts.astype(object) if exact else counts)
    np.add.at(columns, predicted, counts.astype(object) if exact else counts)
    total = number(rows.sum()) if size else 0
    steps = (actual - predicted).astype(object if exact else np.float64)
    if weights is None:
        disagreement = number((counts.astype(object) if exact else counts)[actual != predicted].sum())
        expected = total * total - _dot(rows.tolist() if exact else rows, columns.tolist() if exact else columns)
    elif weights == "linear":
        disagreement = number(np.abs(steps * (counts.astype(object) if exact else counts)).sum()) if len(counts) else 0
        expected = _linear_expected(rows, columns)
    else:
        disagreement = number((steps * steps * (counts.astype(object) if exact else counts)).sum()) if len(counts) else 0
        expected = _quadratic_expected(rows, columns)
    return float(1.0 - ratio(total * disagreement, expected)) if expected else math.nan


def _linear_expected(rows: np.ndarray, columns: np.ndarray) -> Any:
    """``Σ_ij |i - j| r_i c_j`` in O(m): for each ``i`` the columns below and above it."""
    positions = np.arange(len(rows), dtype=object if rows.dtype == object else np.float64)
    below_count = np.cumsum(columns) - columns  # Σ_{j<i} c_j
    below_moment = np.cumsum(positions * columns) - positions * columns  # Σ_{j<i} j c_j
    above_count = columns.sum() - below_count - columns
    above_moment = (positions * columns).sum() - below_moment - positions * columns
    per_row = positions * below_count - below_moment + above_moment - positions * above_count
    return (rows * per_row).sum()


def _quadratic_expected(rows: np.ndarray, columns: np.ndarray) -> Any:
    """``Σ_ij (i - j)² r_i c_j = Σr_i i² Σc + Σr Σc_j j² - 2 Σr_i i Σc_j j`` in O(m)."""
    positions = np.arange(len(rows), dtype=object if rows.dtype == object else np.float64)
    return (rows * positions * positions).sum() * columns.sum() + rows.sum() * (columns * positions * positions).sum() - 2 * (
        rows * positions
    ).sum() * (columns * positions).sum()


def matrix_matthews_correlation_coefficient(counts: Any) -> float:
    """Matthews correlation coefficient of a multi-class confusion matrix (Gorodkin's R_K).

    ``(c s - Σ_k p_k t_k) / sqrt((s² - Σ p_k²)(s² - Σ t_k²))`` with ``c`` the trace, ``s``
    the total, ``t_k`` the row (actual) and ``p_k`` the column (predicted) sums; equals the
    binary MCC for two classes; NaN when a denominator factor is 0. Exact to the last
    rounding for integer counts of any size.

    Examples:
        >>> round(matrix_matthews_correlation_coefficient([[50, 10], [5, 35]]), 6)
        0.697518
        >>> round(matrix_matthews_correlation_coefficient([[2**53, 2], [2, 1]]), 14)  # (2**53 - 4) / (3 * 2**53 + 6)
        0.33333333333333
    """
    return margins_matthews_correlation_coefficient(**_margins(counts))


def diagonal_correlation_coefficient(counts: Any) -> np.ndarray:
    """Per-class correlation coefficient of the protein-function study's table (one value per class).

    The MCC formula with ``tp = x_ii``, ``fp`` the rest of column ``i``, ``fn`` the rest of
    row ``i``, and the true negatives taken as the *other classes' diagonal*
    ``Σ_{h≠i} x_hh`` (the one-vs-rest MCC counts every cell outside row and column ``i``
    instead). NaN where a margin is 0; exact to rounding for integer counts.

    Examples:
        >>> diagonal_correlation_coefficient([[50, 10], [5, 35]]).round(6)
        array([0.697518, 0.697518])
    """
    margins = _margins(counts)
    x = _matrix(counts)
    tp = np.array([_plain(value) for value in np.diagonal(x).tolist()], dtype=object if x.dtype.kind in "iuO" else np.float64)
    correct = margins["correct"]
    return matthews_correlation_coefficient(tp=tp, fp=margins["predicted"] - tp, fn=margins["actual"] - tp, tn=correct - tp)

