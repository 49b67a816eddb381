"""The arithmetic measures are written in: exact ratios and square roots of counts (correctly
rounded for integers of any size), clipping and differences with one undefined-value rule,
and counts_measure, which turns a function of the four cells into a vectorised measure.

evalkit.measures._formulas uses them for every built-in measure; a registered measure may
use them too (from evalkit.measures._arithmetic import ratio).
"""

from __future__ import annotations

import dis
import functools
import math
import types
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from evalkit._engine._types import Count
from evalkit.measures._registry import (
    Coefficients,
)

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

    def scalar(tp: Count, fp: Count, fn: Count, tn: Count, **parameters: Any) -> Any:
        if type(tp) is float or type(fp) is float or type(fn) is float or type(tn) is float:
            a, b, c, d = abs(tp), abs(fp), abs(fn), abs(tn)  # (inline: the getters' path; a zero is in range, NaN is not)
            if not (max(a, b, c, d) <= _HIGH and min(a or _HIGH, b or _HIGH, c or _HIGH, d or _HIGH) >= _LOW):  # type: ignore[call-overload]
                return _extreme(plain_scalar, (tp, fp, fn, tn), parameters)
        return plain_scalar(tp, fp, fn, tn, **parameters)

    if not scale_free:
        scalar = plain_scalar  # no rescaling to do: the definition itself

    @functools.wraps(definition)
    def measure(*, tp: Count, fp: Count, fn: Count, tn: Count, **parameters: Any) -> Any:
        if type(tp) in _PLAIN and type(fp) in _PLAIN and type(fn) in _PLAIN and type(tn) in _PLAIN:
            return float(scalar(tp, fp, fn, tn, **parameters))
        counts = _count_arrays(tp, fp, fn, tn)
        if not (scale_free and counts[0].dtype.kind == "f"):
            return _result(definition(*counts, **parameters))
        scaled, spread = _scaled_entries(counts)
        values = _result(definition(*scaled, **parameters))
        if spread is not None:  # the few entries whose counts no one scale holds: each on exact integers, as the scalar path
            values = np.array(values, dtype=np.float64)
            flat, entries = values.reshape(-1), [np.broadcast_to(count, values.shape).reshape(-1) for count in counts]
            for entry in spread.tolist():
                flat[entry] = scalar(*(float(count[entry]) for count in entries), **parameters)
            return _result(values)
        return values

    measure.definition = definition  # type: ignore[attr-defined]
    measure.scalar = scalar  # type: ignore[attr-defined]
    measure.integer_scalar = plain_scalar  # type: ignore[attr-defined]  # four Python ints: nothing to rescale
    measure.scale_free = scale_free  # type: ignore[attr-defined]
    measure.reads_tn = reads(definition, "tn")  # type: ignore[attr-defined]
    return measure


def reads(definition: Callable[..., Any], name: str) -> bool:
    """Whether ``definition`` ever reads its argument ``name``: a definition that never loads
    ``tn`` gives the same value whatever ``tn`` is, so a stream recomputes only the classes whose
    ``tp``, ``fp`` or ``fn`` changed. Read from the code itself (the instructions that load the
    name, or a nested function that captures it), so the answer is exact; ``locals()`` or
    ``vars()`` count as reading everything.

    Examples:
        >>> reads(lambda tp, fp, fn, tn: tp / (tp + fn), "tn"), reads(lambda tp, fp, fn, tn: tn + tp, "tn")
        (False, True)
    """
    code = definition.__code__
    if name in code.co_cellvars or {"locals", "vars", "eval", "exec"} & set(code.co_names):
        return True
    for instruction in dis.get_instructions(code):
        argument = instruction.argval
        if instruction.opname.startswith(("LOAD_", "DELETE_")) and (argument == name or (isinstance(argument, tuple) and name in argument)):
            return True
    return False


_SAFE_FLOATS = (2.0**-200, 2.0**200)
"""Float counts whose largest lies outside this range are rescaled before a scale-free measure:
a product of four of them would overflow (``1e160`` weights) or vanish (``1e-300``)."""

_SAFE_EXPONENT = 200
"""Rescaled counts have their largest in ``[2**199, 2**200)``: the top of ``_SAFE_FLOATS``, so
that as many small counts as possible stay above float64's least (``2**-1074``)."""

_SPAN = 2.0**400
"""Nonzero counts whose largest exceeds their least this many times fit ``_SAFE_FLOATS`` under no
one scale: a scale-free measure of them is computed on exact integers (``_whole_counts``)."""


def rescaled(*counts: Any, near: bool = False) -> Any:
    """Counts scaled by one power of two chosen from the largest, so that it lies in
    ``[2**199, 2**200)`` (the top of ``_SAFE_FLOATS``: products of four do not overflow, and a
    count ``2**1273`` times smaller is still above 0), when it lies outside ``_SAFE_FLOATS``;
    else as they are. Whole counts beside float ones are scaled alike (as floats). Scaling by a
    power of two is exact, and a scale-free measure (a ratio of terms of one degree) does not
    change. With ``near=True`` counts whose largest is inside but whose least nonzero one is
    below ``_SAFE_FLOATS`` are scaled up too (``(1, 1e-250)``: a product of the small ones
    would vanish).

    Examples:
        >>> rescaled(3e300, 1e300, 0.0, 2e300)[0] < 2.0**200, rescaled(3.0, 1.0, 0.0, 2.0)
        (True, (3.0, 1.0, 0.0, 2.0))
        >>> rescaled(2.0**600, 2.0**-600) == (2.0**199, 2.0**-1001)   # (the largest in [0.5, 1) left 2**-1201: 0)
        True
    """
    if isinstance(counts[0], np.ndarray):
        sizes = [float(np.max(np.abs(count))) for count in counts if count.dtype.kind in "fiu" and count.size]
        least = min((float(np.min(np.abs(count), where=count != 0, initial=math.inf)) for count in counts if count.dtype.kind in "fiu" and count.size),
                    default=math.inf) if near else math.inf  # fmt: skip
    else:
        sizes = [abs(count) for count in counts if type(count) is float or type(count) is int]
        least = min((size for size in sizes if size), default=math.inf) if near else math.inf
    largest = max(sizes, default=0.0)
    if largest == 0.0 or not math.isfinite(largest) or (_SAFE_FLOATS[0] <= largest <= _SAFE_FLOATS[1] and least >= _SAFE_FLOATS[0]):
        return counts
    shift = _SAFE_EXPONENT - math.frexp(largest)[1]
    if isinstance(counts[0], np.ndarray):
        return tuple(np.ldexp(count.astype(np.float64, copy=False), shift) if count.dtype.kind in "fiu" else count for count in counts)
    return tuple(math.ldexp(count, shift) if type(count) is float or type(count) is int else count for count in counts)


_LOW, _HIGH = _SAFE_FLOATS


def _extreme(definition: Callable[..., Any], counts: tuple[Any, ...], parameters: dict[str, Any]) -> Any:
    """A scale-free definition of counts some of which lie outside ``_SAFE_FLOATS``: on exact
    integers where they span more than one scale holds (``_whole_counts``), else scaled by a
    power of two into it (``rescaled``)."""
    whole, found = _whole_counts(*counts), None
    if whole is not None:
        try:
            found = definition(*whole, **parameters)
        except (ArithmeticError, TypeError, ValueError, AttributeError):
            found = None  # (a definition that takes no integers of that size: the floats, scaled)
        if found is not None and math.isfinite(found):
            return found
    scaled = definition(*rescaled(*counts, near=True), **parameters)  # (also where float coefficients times huge integers gave inf / inf)
    return scaled if found is None or not math.isnan(scaled) else found


def _whole_counts(*counts: Any) -> tuple[int, ...] | None:
    """Float (and whole) counts as exact integers of one unit (a power of two: a scale-free
    measure does not change), when their nonzero sizes span more than ``_SPAN``: no one scale
    keeps ``1e-300`` and ``1e300`` within ``_SAFE_FLOATS``, and the integer path of the helpers
    (``ratio``, ``ratio_sqrt``, ``difference``) is exact for integers of any size. None otherwise.

    Examples:
        >>> _whole_counts(1e300, 1e-300, 0.0, 1.0) is None, _whole_counts(3.0, 1.0, 0.0, 0.5)
        (False, None)
    """
    high, low = 0.0, math.inf
    for count in counts:
        size = abs(count)
        if size:
            high, low = max(high, size), min(low, size)
    if not high or not high < math.inf or high <= low * _SPAN:
        return None
    pairs = [count.as_integer_ratio() for count in counts]  # (every finite float is a fraction of a power of two)
    unit = max(denominator for _, denominator in pairs)
    return tuple(numerator * (unit // denominator) for numerator, denominator in pairs)


def _scaled_entries(counts: list[np.ndarray]) -> tuple[list[np.ndarray], np.ndarray | None]:
    """Float count arrays for a scale-free definition (entry by entry, as the scalar path): as
    they are when every nonzero count lies within ``_SAFE_FLOATS``; else each entry scaled by a
    power of two of its own largest, and the entries whose counts span more than ``_SPAN``
    returned apart (their flat positions), for the exact path."""
    flat = np.abs(np.concatenate([np.ravel(count) for count in counts]))  # one pass for the largest, one for the least nonzero
    largest = float(flat.max()) if flat.size else 0.0
    if largest == 0.0 or not math.isfinite(largest) or (largest <= _HIGH and float(np.min(flat, where=flat != 0, initial=math.inf)) >= _LOW):
        return counts, None
    counts = [np.asarray(count) for count in np.broadcast_arrays(*counts)]
    sizes = [np.abs(count) for count in counts]
    high = np.maximum.reduce(sizes)
    low = np.minimum.reduce([np.where(size != 0, size, math.inf) for size in sizes])
    away = (high > _SAFE_FLOATS[1]) | (low < _SAFE_FLOATS[0])
    shift = np.where(away & (high > 0) & np.isfinite(high), _SAFE_EXPONENT - np.frexp(high)[1], 0)
    with np.errstate(over="ignore"):
        spread = np.flatnonzero(away & (high > low * _SPAN) & np.isfinite(high))
    return [np.ldexp(count, shift) for count in counts], (spread if spread.size else None)


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


def _scalar_ratio(numerator: float, denominator: float) -> float:
    # Python divides integers of any size correctly rounded, and an int by a float as float(int) / float
    if not denominator:
        return math.nan
    try:
        return numerator / denominator
    except OverflowError:  # integers whose ratio is beyond float64 (exact counts of 1e300 and 1e-300): infinite, as for floats
        return math.inf if (numerator > 0) == (denominator > 0) else -math.inf


def _scalar_ratio_sqrt(numerator: float, left: float, right: float) -> float:
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


def _scalar_difference(first: float, second: float) -> float:
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


def _result(value: Count) -> Count:
    """A Python float for a 0-d result, a float64 array otherwise."""
    if np.ndim(value) == 0:
        return float(value)
    return np.asarray(value, dtype=np.float64)


_EXACT_FLOATS = 2**53
"""Integers of larger magnitude are not all float64s."""


def _floats(value: Count) -> np.ndarray:
    return np.asarray(value, dtype=np.float64)


def _beyond_exact_floats(*arrays: np.ndarray) -> bool:
    """Whether any value is beyond 2**53 in magnitude (four reductions, no temporary array)."""
    return any(array.size and max(-float(array.min()), float(array.max())) > _EXACT_FLOATS for array in arrays)


def ratio(numerator: Count, denominator: Count) -> Count:
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
        if np.asarray(numerator).dtype.kind in "iu" and np.asarray(denominator).dtype.kind in "iu" and _beyond_exact_floats(n, d):
            wide = (np.abs(n) > _EXACT_FLOATS) | (np.abs(d) > _EXACT_FLOATS)  # float64 rounds them: divide those as the scalar path does
            if wide.any():
                exact_n, exact_d = np.broadcast_arrays(np.asarray(numerator), np.asarray(denominator))
                out[wide] = [_scalar_ratio(a, b) for a, b in zip(exact_n[wide].tolist(), exact_d[wide].tolist())]
        return out
    return _scalar_ratio(numerator, denominator)


def ratios(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """``ratio`` of arrays (whole, float or exact counts) as a float64 array: each one correctly
    rounded division, NaN where the denominator is 0.

    Examples:
        >>> ratios(np.array([2, 1]), np.array([6, 0])).tolist()
        [0.3333333333333333, nan]
    """
    return np.asarray(ratio(numerator, denominator), dtype=np.float64)


def ratio_sqrt(numerator: Count, left: Count, right: Count) -> Count:
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


def sqrt(value: Count) -> Count:
    """The square root of a Python number (NaN stays NaN) or of an array."""
    return np.sqrt(value) if isinstance(value, np.ndarray) else math.sqrt(value)


def clip(value: Count, low: float, high: float) -> Count:
    """``value`` limited to ``[low, high]`` (rounding may step out of a measure's bounds); NaN stays NaN."""
    if isinstance(value, np.ndarray):
        return np.clip(value, low, high)
    return _scalar_clip(value, low, high)


def difference(first: Count, second: Count) -> Count:
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
