"""The counting core of numeric targets: the sums a regression measure is a function of,
exact, so that the same samples give the same sums however they are cut, ordered or merged.

For each output, eight sums over samples with weights ``w`` (1 without), true values ``y`` and
predictions ``p``, exact integers in units of ``2**-UNIT_BITS`` (Python ints):

| sum | of |
|---|---|
| ``weight`` | ``w`` |
| ``y``, ``p`` | ``w y``, ``w p`` |
| ``yy``, ``pp``, ``yp`` | ``w y²``, ``w p²``, ``w y p`` |
| ``abs_error`` | ``w |y - p|`` |
| ``abs_percentage`` | ``w |y - p| / max(|y|, eps)``, each term rounded to float64 (scikit-learn's MAPE term) |

so the residual sum of squares ``Σ w (y - p)² = yy - 2 yp + pp`` and the centred sums of
squares (``Σ w (y - ȳ)² = yy - y²/weight``) are exact rationals, free of the cancellation that
sums of squares in floating point suffer when the mean is far from zero. In numpy, each product
and difference is split into floats that add up to it exactly (Dekker's two-product, Knuth's
two-sum) and those are summed exactly (``ExactSums``); a few samples, and values beyond
``[2**-256, 2**256]``, are summed in Python integers. With the sums: the number of samples and
the largest ``|y - p|`` of each output.

Examples:
    >>> y, p = as_targets([3.0, -0.5, 2.0, 7.0], "y_true"), as_targets([2.5, 0.0, 2.0, 8.0], "y_pred")
    >>> [value / 2**UNIT_BITS for value in exact_sums(y, p, None)[0]]
    [4.0, 11.5, 12.5, 62.25, 74.25, 67.5, 2.0, 1.3095238095238095]
"""

from __future__ import annotations

import math

import numpy as np

from evalkit._engine._exact import FLOAT_OFFSET, ExactSums, exact_bincount, float_units, limbs_to_ints
from evalkit._engine._validation import as_array, show
from evalkit.exceptions import EmptyInputError, InputLengthError, InputShapeError, InvalidTypeError, InvalidValueError

__all__ = ["EPSILON", "SPREAD_TERMS", "SUMS", "UNIT_BITS", "as_targets", "check_pair", "exact_sums", "few_rows", "few_sums", "largest_errors", "spread_holds", "spread_sums", "target_pair"]

SUMS = ("weight", "y", "p", "yy", "pp", "yp", "abs_error", "abs_percentage")
"""The exact sums of each output, in this order (see the module)."""

_SMALLEST_SPREAD = 2.0**-240
"""The smallest magnitude of a value or error (other than 0) whose fourth power a float64 holds
to its precision (``2**-960``, above the subnormals)."""

SPREAD_TERMS = ("e4", "e2y", "e2y2", "y3", "y4", "ww")
"""The terms of each sample whose sums give the spread of one sample (``spread_sums``): ``w e⁴,
w e² y, w e² y², w y³, w y⁴, w²`` with ``e = y - p``."""

EPSILON = float(np.finfo(np.float64).eps)
"""The floor of ``|y|`` in the percentage error, as scikit-learn's ``mean_absolute_percentage_error``."""

UNIT_BITS = 3222
"""The sums are integers in units of ``2**-UNIT_BITS``: every product of three floats is a whole
number of them (each float is one of ``2**-1074``)."""

_TAME_LOW, _TAME_HIGH = 2.0**-256, 2.0**256  # products of up to three such values and their rounding errors stay exact floats
_SPLITTER = 134217729.0  # 2**27 + 1: Veltkamp's split into two 26-bit halves
_ROWS = 1 << 16  # rows per chunk of the vectorised path: memory bounded by it at any length


def as_targets(values: object, argument: str, *, finite: bool = True) -> np.ndarray:
    """Numeric targets as a 2-D float64 array, one column per output (1-D input: one output);
    ``finite=False`` leaves the check of NaN and infinities to the caller (a function whose
    result is finite only if its inputs are checks them when it is not: one pass less).

    Raises:
        InvalidTypeError: not numbers (strings, booleans are labels, not targets).
        InputShapeError: more than two dimensions.
        InvalidValueError: NaN or an infinity (the message gives the first one's position).

    Examples:
        >>> as_targets([1, 2], "y_true").shape
        (2, 1)
    """
    array = as_array(values, argument)
    if array.dtype.kind not in "iuf":
        raise InvalidTypeError(f"{argument!r} must hold numbers (a numeric target), got {show(values)}")
    if array.ndim == 0 or array.ndim > 2:
        raise InputShapeError(f"{argument!r} must be 1-D (one output) or 2-D (samples x outputs), got shape {array.shape}")
    array = array.astype(np.float64, copy=False)
    if not finite:
        return array.reshape(-1, 1) if array.ndim == 1 else array
    with np.errstate(over="ignore", invalid="ignore"):
        finite = math.isfinite(float(array.sum()))  # one pass in the usual case; the sum of huge values may overflow: look
    if not finite and not np.isfinite(array).all():
        position = tuple(int(k) for k in np.argwhere(~np.isfinite(array))[0])
        where = position[0] if array.ndim == 1 else position
        raise InvalidValueError(f"{argument!r} holds {array[position]} at {where}: targets must be finite numbers")
    return array.reshape(-1, 1) if array.ndim == 1 else array


def target_pair(y_true: object, y_pred: object, *, finite: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Both targets of a call, as ``as_targets`` gives them, checked to match (``check_pair``)."""
    y, p = as_targets(y_true, "y_true", finite=finite), as_targets(y_pred, "y_pred", finite=finite)
    check_pair(y, p)
    return y, p


def check_pair(y_true: np.ndarray, y_pred: np.ndarray) -> None:
    """Raise unless both targets have the same samples and outputs (and at least one sample)."""
    if len(y_true) != len(y_pred):
        raise InputLengthError(f"'y_true' has {len(y_true)} samples but 'y_pred' has {len(y_pred)}")
    if y_true.shape[1] != y_pred.shape[1]:
        raise InputShapeError(f"'y_true' and 'y_pred' have different numbers of outputs ({y_true.shape[1]} != {y_pred.shape[1]})")
    if len(y_true) == 0:
        raise EmptyInputError("'y_true' and 'y_pred' are empty: there is nothing to evaluate")


def largest_errors(y_true: np.ndarray, y_pred: np.ndarray) -> np.ndarray:
    """The largest ``|y - p|`` of each output (``-inf`` for no samples)."""
    if len(y_true) == 0:
        return np.full(y_true.shape[1], -math.inf)
    with np.errstate(over="ignore"):  # a difference beyond float64 is an infinite error
        return np.abs(y_true - y_pred).max(axis=0)


def exact_sums(y_true: np.ndarray, y_pred: np.ndarray, weight: np.ndarray | None) -> list[list[int]]:
    """The eight exact sums (``SUMS``, in units of ``2**-UNIT_BITS``) of each output of
    checked targets (``as_targets``) and weights: ``result[output][sum]``.

    Samples whose values are all 0 or of a magnitude in ``[2**-256, 2**256]`` are summed in
    numpy (each product and difference split into floats that add up to it exactly, summed by
    ``ExactSums``); a few samples, and the rare ones beyond, in Python integers. Both give the
    same integers.

    Raises:
        InvalidValueError: a percentage error beyond float64 (``|y - p| / eps`` of a huge
            prediction of a zero target).
    """
    n, outputs = y_true.shape
    if n * outputs <= 8:
        return few_sums(y_true.tolist(), y_pred.tolist(), None if weight is None else [float(w) for w in weight.tolist()])
    w = None if weight is None else weight.astype(np.float64)
    tame = _tame(y_true).all(axis=1) & _tame(y_pred).all(axis=1) & (True if w is None else _tame(w))
    result = _vector_sums(y_true[tame], y_pred[tame], None if w is None else w[tame]) if tame.any() else [[0] * len(SUMS) for _ in range(outputs)]
    if not tame.all():  # values beyond the exact products of floats (rare): each in Python integers
        rest = ~tame
        other = few_sums(y_true[rest].tolist(), y_pred[rest].tolist(), None if w is None else w[rest].tolist())
        result = [[a + b for a, b in zip(mine, theirs)] for mine, theirs in zip(result, other)]
    return result


def _vector_sums(y_true: np.ndarray, y_pred: np.ndarray, weight: np.ndarray | None) -> list[list[int]]:
    n, outputs = y_true.shape
    sums = ExactSums(outputs * len(SUMS))
    slots = np.arange(outputs) * len(SUMS)
    counts = np.zeros(outputs * len(SUMS), dtype=np.int64)
    slot_rows = {k: np.broadcast_to(slots + k, (min(n, _ROWS), outputs)).ravel() for k in range(len(SUMS))}  # made once, read by every chunk
    for start in range(0, n, _ROWS):
        part = slice(start, start + _ROWS)
        w = None if weight is None else weight[part][:, None]
        values, offsets = _terms(y_true[part], y_pred[part], w)
        for value, k in zip(values, offsets):  # one sum at a time: no copy of the terms into one array
            sums.add(slot_rows[k][: value.size], np.ravel(value))
        if w is None:
            counts[slots] += len(y_true[part])
    sums.add_counts(counts)
    shift = UNIT_BITS - FLOAT_OFFSET
    flat = [value << shift for value in limbs_to_ints(sums.limbs())]
    return [flat[j * len(SUMS) : (j + 1) * len(SUMS)] for j in range(outputs)]


def spread_sums(y_true: np.ndarray, y_pred: np.ndarray, weight: np.ndarray | None) -> list[list[int]]:
    """The exact sums (Python integers in units of ``2**-FLOAT_OFFSET``) of each output's terms
    ``SPREAD_TERMS``, each term rounded once per sample as written (``e = y - p``, ``e² = e·e``,
    ``e⁴ = e²·e²``, ``y⁴ = (y·y)²``, then times ``w``): the same integers however the samples are
    split or ordered, and for one event as for a batch. What a confidence sequence of MSE, RMSE
    or R² reads (a relative error of at most ``8 eps`` per term, which the reading bounds).

    Raises:
        InvalidValueError: a value or error whose fourth power float64 cannot hold to its
            precision: of a magnitude below ``2**-240`` (about ``5.7e-73``; 0 is fine) or
            beyond about ``1e76``.

    Examples:
        >>> rows = spread_sums(np.array([[2.0], [1.0]]), np.array([[1.0], [1.0]]), None)
        >>> [value / 2**FLOAT_OFFSET for value in rows[0]]   # e⁴, e²y, e²y², y³, y⁴, w²
        [1.0, 2.0, 4.0, 9.0, 17.0, 2.0]
    """
    n, outputs = y_true.shape
    size = len(SPREAD_TERMS)
    total = np.zeros(outputs * size, dtype=object)
    slots = np.broadcast_to(np.arange(outputs * size).reshape(outputs, size), (min(n, _ROWS), outputs, size))
    for start in range(0, n, _ROWS):
        y, p = y_true[start : start + _ROWS], y_pred[start : start + _ROWS]
        with np.errstate(over="ignore", invalid="ignore"):
            error = y - p
            squared, square = error * error, y * y
            terms = [squared * squared, squared * y, squared * square, square * y, square * square]
            if weight is not None:
                w = weight[start : start + _ROWS, None].astype(np.float64)
                terms = [w * term for term in terms]
            ww = np.broadcast_to(1.0 if weight is None else w * w, y.shape)
            stacked = np.stack([*terms, ww], axis=2)
        sizes = np.abs(np.concatenate([y, error], axis=1))
        if not np.isfinite(stacked).all() or ((sizes > 0) & (sizes < _SMALLEST_SPREAD)).any():
            raise InvalidValueError(f"the fourth powers of the values kept for the spread are beyond what float64 holds (y_true {show(y)}, y_pred {show(p)}): "
                                    "keep_spread needs each value and error 0 or of a magnitude between about 5.7e-73 and 1e76")  # fmt: skip
        total += exact_bincount(slots[: len(y)].ravel(), stacked.ravel(), outputs * size)
    return [[int(value) for value in total[j * size : (j + 1) * size]] for j in range(outputs)]


def spread_holds(y: float, p: float) -> bool:
    """Whether ``spread_sums`` takes one event: its terms finite and ``y`` and ``y - p`` each 0 or
    of a magnitude from ``2**-240`` (what the one-event path checks; the batch path refuses the
    rest, naming them).

    Examples:
        >>> spread_holds(2.0, 1.0), spread_holds(1e-80, 0.0), spread_holds(1e80, 1.0)
        (True, False, False)
    """
    error = y - p
    squared, square = error * error, y * y
    small = (y != 0 and abs(y) < _SMALLEST_SPREAD) or (error != 0 and abs(error) < _SMALLEST_SPREAD)
    return not small and math.isfinite(squared * squared + abs(squared * y) + squared * square + abs(square * y) + square * square)


def _terms(y: np.ndarray, p: np.ndarray, w: np.ndarray | None) -> tuple[list[np.ndarray], list[int]]:
    """Float64 arrays whose exact sums are the sums, and the index in ``SUMS`` of each (values
    in ``[2**-256, 2**256]`` or 0: every product and difference below is exact)."""
    error, error_low = _difference(y, p)  # |y - p| = error + error_low, exactly
    percentage = error / np.maximum(np.abs(y), EPSILON)
    values: list[np.ndarray] = []
    offsets: list[int] = []
    if w is None:
        for k, (a, b) in ((3, (y, y)), (4, (p, p)), (5, (y, p))):
            values.extend(_product(a, b))
            offsets.extend((k, k))
        values.extend((y, p, error, error_low, percentage))
        offsets.extend((1, 2, 6, 6, 7))
    else:
        wy, wp = _product(w, y), _product(w, p)
        for k, parts, other in ((3, wy, y), (4, wp, p), (5, wy, p)):
            for part in parts:
                values.extend(_product(part, other))
                offsets.extend((k, k))
        values.extend((np.broadcast_to(w, y.shape), *wy, *wp, *_product(w, error), *_product(w, error_low), w * percentage))
        offsets.extend((0, 1, 1, 2, 2, 6, 6, 6, 6, 7))
    if not np.isfinite(values[-1]).all():
        _refuse_percentage(y, p)
    return values, offsets


def _refuse_percentage(y: object, p: object) -> None:
    raise InvalidValueError(f"a percentage error |y - p| / max(|y|, eps) is beyond float64 (y_true {show(y)}, y_pred {show(p)})")


def _tame(values: np.ndarray) -> np.ndarray:
    """Where products are exact: 0, or a magnitude in ``[2**-256, 2**256]``."""
    size = np.abs(values)
    return (size == 0) | ((size >= _TAME_LOW) & (size <= _TAME_HIGH))


def _difference(y: np.ndarray, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(high, low)`` with ``high + low = |y - p|`` exactly (Knuth's two-sum, signed to the
    rounded difference: ``high`` is ``|y - p|`` rounded)."""
    rounded = y - p
    back = rounded - y
    low = (y - (rounded - back)) + (-p - back)
    sign = np.where(rounded < 0, -1.0, 1.0)
    return np.abs(rounded), sign * low


def _product(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(product, error)``, two floats whose sum is ``a * b`` exactly (Dekker's two-product
    with Veltkamp's split; exact for values of the ranges above)."""
    product = a * b
    a_high = _SPLITTER * a
    a_high = a_high - (a_high - a)
    b_high = _SPLITTER * b
    b_high = b_high - (b_high - b)
    a_low, b_low = a - a_high, b - b_high
    return product, ((a_high * b_high - product) + a_high * b_low + a_low * b_high) + a_low * b_low


def few_sums(rows_y: list[list[float]], rows_p: list[list[float]], weights: list[float] | None) -> list[list[int]]:
    """The sums (``SUMS``) of a few samples, rows of floats, in Python integers: one event of a
    stream in microseconds, and the same integers as the vectorised path."""
    outputs = len(rows_y[0])
    result = [[0] * len(SUMS) for _ in range(outputs)]
    for i, (row_y, row_p) in enumerate(zip(rows_y, rows_p)):
        w = 1.0 if weights is None else weights[i]
        nw, ew = _mantissa(w)
        for j in range(outputs):
            y, p = row_y[j], row_p[j]
            ny, ey = _mantissa(y)
            np_, ep = _mantissa(p)
            sums = result[j]
            # a float is n / 2**e: a product of three is a whole number of units, 2**-UNIT_BITS, once shifted
            sums[0] += nw << (UNIT_BITS - ew)
            sums[1] += (nw * ny) << (UNIT_BITS - ew - ey)
            sums[2] += (nw * np_) << (UNIT_BITS - ew - ep)
            sums[3] += (nw * ny * ny) << (UNIT_BITS - ew - 2 * ey)
            sums[4] += (nw * np_ * np_) << (UNIT_BITS - ew - 2 * ep)
            sums[5] += (nw * ny * np_) << (UNIT_BITS - ew - ey - ep)
            common = max(ey, ep)
            sums[6] += (nw * abs((ny << (common - ey)) - (np_ << (common - ep)))) << (UNIT_BITS - ew - common)
            percentage = abs(y - p) / max(abs(y), EPSILON)
            term = percentage if weights is None else w * percentage
            if math.isinf(term):
                _refuse_percentage(y, p)
            sums[7] += _units(term)
    return result


def _mantissa(value: float) -> tuple[int, int]:
    """``(n, e)`` with ``value = n / 2**e`` exactly."""
    numerator, denominator = value.as_integer_ratio()
    return numerator, denominator.bit_length() - 1


def few_rows(values: object) -> list[list[float]] | None:
    """A short list of numbers (or of rows of numbers) as rows of floats, checked finite; ``None``
    for anything else (the array path takes it)."""
    if type(values) is not list or not 0 < len(values) <= 8:
        return None
    first = values[0]
    if type(first) is list:
        rows = values
        if any(type(row) is not list or len(row) != len(first) for row in rows) or not first:
            return None
    else:
        rows = [[value] for value in values]
    out = []
    for row in rows:
        floats = []
        for value in row:
            if type(value) is float:
                if not math.isfinite(value):
                    return None  # the array path names it
                floats.append(value)
            elif type(value) is int and abs(value) < 2**53:
                floats.append(float(value))
            else:
                return None
        out.append(floats)
    return out


def _units(value: float) -> int:
    """A float64 in units of ``2**-UNIT_BITS``, exactly."""
    return float_units(value, UNIT_BITS)
