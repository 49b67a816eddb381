"""Checks at the boundary: every public entry point validates here, the core trusts its data.

Messages follow one pattern: the argument's name in quotes, what was expected, and the value
that was received (shortened when long).
"""

from __future__ import annotations

import functools
import math
import numbers
import os
from collections.abc import Callable, Iterable
from typing import Any, BinaryIO, TypeAlias, TypeGuard, TypeVar

import attrs
import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine._columns import fixed_size_table
from evalkit._engine._exact import MAX_COUNT, weighted_sum
from evalkit._engine._types import SparseMatrix
from evalkit.exceptions import (
    ClassIndexError,
    CountOverflowError,
    InputFileError,
    InputShapeError,
    InvalidArgumentError,
    InvalidCountsError,
    InvalidTypeError,
)

RandomState: TypeAlias = "int | np.random.Generator | np.random.RandomState | None"
"""A seed, a numpy generator, or None (fresh entropy): what ``random_state=`` takes."""

Made = TypeVar("Made", bound=attrs.AttrsInstance)
"""An attrs class (``made_by_constructors``)."""

__all__ = [
    "as_count_matrix",
    "check_choice",
    "check_count",
    "check_index",
    "check_positive_number",
    "check_sample_weight",
    "show",
]

_SHOW_LIMIT = 80


def read_only(values: Any) -> np.ndarray:
    """``values`` as an array that cannot be written through (a view: nothing is copied).

    Frozen objects hold their arrays this way, so that changing one (``ev.class_cells.tp[0] =
    9``) raises instead of changing results that share it.

    Examples:
        >>> read_only([1, 2]).flags.writeable
        False
    """
    view = np.asarray(values).view()
    view.flags.writeable = False
    return view


def show(value: object) -> str:
    """Return ``repr(value)`` shortened to a readable length for an error message."""
    if isinstance(value, np.ndarray):
        text = np.array2string(value, threshold=8, edgeitems=3, separator=", ")
    else:
        text = repr(value)
    text = " ".join(text.split())  # one line, whatever the value
    return text if len(text) <= _SHOW_LIMIT else text[: _SHOW_LIMIT - 3] + "..."


def check_choice(name: str, value: object, choices: Iterable[str]) -> str:
    """Return ``value`` if it is one of ``choices``, else raise naming the allowed values."""
    choices = tuple(choices)
    if not isinstance(value, str) or value not in choices:
        allowed = ", ".join(repr(choice) for choice in choices)
        raise InvalidArgumentError(f"{name!r} must be one of {allowed}; got {show(value)}")
    return value


def is_empty(values: object) -> bool:
    """Whether ``values`` is a sequence of nothing; anything that is no sequence is not (the
    checks that follow say what it is).

    Examples:
        >>> is_empty([]), is_empty([0]), is_empty(5)
        (True, False, False)
    """
    try:
        return len(values) == 0  # type: ignore[arg-type]
    except TypeError:
        return False


def check_ordered(values: object, argument: str, what: str = "labels") -> None:
    """Samples come in order: a set or a dict of them (or a dict's keys or values) has none,
    so which sample is which cannot be known."""
    if isinstance(values, (set, frozenset, dict)) or type(values).__name__ in ("dict_keys", "dict_values", "dict_items"):
        raise InvalidTypeError(f"{argument!r} must be an ordered sequence of {what} (one per sample), got a {type(values).__name__}")


def as_array(values: Any, argument: str) -> np.ndarray:
    """``values`` as a numpy array (an array is used as it is); rows of different lengths are
    an ``InputShapeError`` naming the argument, not numpy's "inhomogeneous shape"."""
    if isinstance(values, np.ndarray):
        return values
    table = fixed_size_table(values)  # (an Arrow column of lists of one size: a table, as numpy reads a polars Array)
    if table is not None:
        return table
    try:
        return np.asarray(values)
    except ValueError:
        lengths = sorted({len(row) for row in values if hasattr(row, "__len__")}) if isinstance(values, Iterable) else []
        raise InputShapeError(f"{argument!r} has rows of different lengths {lengths[:5]}: every sample needs one value per column") from None


def column_or_1d(array: np.ndarray) -> np.ndarray:
    """An ``n x 1`` column as its ``n`` values (scikit-learn's ``column_or_1d``); any other
    shape as it is.

    Examples:
        >>> column_or_1d(np.array([[1], [2]])).tolist(), column_or_1d(np.array([[1, 2]])).shape
        ([1, 2], (1, 2))
    """
    array = np.asarray(array)  # (an np.matrix keeps its columns 2-D)
    return array[:, 0] if array.ndim == 2 and array.shape[1] == 1 else array


def check_option(name: str, value: object, options: tuple) -> Any:
    """``value`` if it is one of ``options`` (strings, and ``None`` where allowed); never
    compared as an array."""
    if not (value is None or isinstance(value, str)) or value not in options:
        raise InvalidArgumentError(f"{name!r} must be one of {', '.join(map(repr, options))}; got {show(value)}")
    return value


def check_numbers(name: str, value: object, *, booleans: bool = False) -> np.ndarray:
    """A number or an array of numbers as float64: never strings (``"0.5"`` is not converted)
    or ragged nesting, and booleans only where they are scores (``booleans=True``)."""
    array = as_array(value, name)
    if array.dtype.kind not in ("biuf" if booleans else "iuf"):
        raise InvalidTypeError(f"{name!r} must be a number or numbers, got {show(value)}")
    return array.astype(np.float64, copy=False)


def check_positive_number(name: str, value: object) -> float:
    """Return ``value`` as a float if it is a finite number > 0."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidTypeError(f"{name!r} must be a number, got {show(value)}")
    if not math.isfinite(value) or value <= 0:
        raise InvalidArgumentError(f"{name!r} must be a finite number > 0, got {show(value)}")
    return float(value)


def check_real(name: str, value: object) -> float:
    """Return ``value`` as a float if it is a real number other than NaN (an infinity is one: a
    threshold above or below everything).

    Raises:
        InvalidArgumentError: anything else (``True`` is no number here).

    Examples:
        >>> check_real("threshold", -math.inf)
        -inf
    """
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) or math.isnan(value):
        raise InvalidArgumentError(f"{name!r} must be a number, got {show(value)}")
    return float(value)


def check_index(name: str, value: object, size: int) -> int:
    """Return ``value`` as an int in ``0 .. size - 1``; negative indexes are rejected, not wrapped."""
    if type(value) is int and 0 <= value < size:  # the common case, in a fraction of the checks below
        return value
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Integral, np.integer)):
        raise InvalidTypeError(f"{name!r} must be an integer class index, got {show(value)}")
    index = int(value)
    if not 0 <= index < size:
        raise ClassIndexError(f"{name!r} must be in 0..{size - 1}, got {index}")
    return index


def check_count(name: str, value: object, *, integral: bool) -> int | float:
    """Return one count: an ``int`` for an integer (and, with ``integral=True``, for a whole
    float), a ``float`` for a float where fractional counts are allowed.

    Counts must be finite and non-negative; with ``integral=True`` they must also be whole.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.number)):
        raise InvalidTypeError(f"{name!r} must be a number, got {show(value)}")
    if isinstance(value, (numbers.Integral, np.integer)) and abs(int(value)) > MAX_COUNT:
        raise CountOverflowError(f"{name!r} is beyond 2**63 - 1, the largest count evalkit holds exactly: {show(value)}")
    try:
        number = float(value)
    except OverflowError:
        raise CountOverflowError(f"{name!r} is too large for a count: {show(value)}") from None
    if not math.isfinite(number):
        raise InvalidCountsError(f"{name!r} must be finite, got {show(value)}")
    if number < 0:
        raise InvalidCountsError(f"{name!r} must be >= 0, got {show(value)}")
    if isinstance(value, (numbers.Integral, np.integer)):
        return int(value)
    if not integral:
        return number  # a float count stays a float (a weighted count that happens to be whole is still weighted)
    if number.is_integer():
        return int(number)
    raise InvalidCountsError(f"{name!r} must be a whole number, got {show(value)}")


def as_count_matrix(name: str, counts: object) -> np.ndarray:
    """Return a new square matrix of counts: int64 for integers, float64 for float (weighted) counts.

    Counts must be finite and non-negative; integer counts whose total passes 2**63 - 1 are
    refused (``CountOverflowError``), never wrapped.
    """
    try:
        array = np.array(counts)  # always a copy: the caller's array is never shared or changed
    except (TypeError, ValueError, OverflowError) as error:
        raise InputShapeError(f"{name!r} must be a square 2-D array of counts, got {show(counts)}") from error
    if array.ndim != 2 or array.shape[0] != array.shape[1]:
        raise InputShapeError(f"{name!r} must be square, got shape {array.shape}")
    if array.dtype == object:
        array = _object_counts(name, array)
    if array.dtype.kind == "b" or array.dtype.kind not in "iuf":
        raise InvalidTypeError(f"{name!r} must hold numbers, got dtype {array.dtype}: {show(counts)}")
    if array.dtype.kind == "f":
        if not np.isfinite(array).all():
            raise InvalidCountsError(f"{name!r} must be finite, got {show(array)}")
        array = array.astype(np.float64)
    if array.dtype.kind == "u" and array.size and array.max() > MAX_COUNT:
        raise CountOverflowError(f"{name!r} holds a count beyond 2**63 - 1: {show(array)}")
    if array.size and array.min() < 0:
        raise InvalidCountsError(f"{name!r} must be >= 0, got {show(array)}")
    if array.dtype.kind in "iu":
        array = array.astype(np.int64)
    weighted_sum(array, None)  # raises CountOverflowError when the total passes 2**63 - 1 (or float64's range)
    return array


def _object_counts(name: str, array: np.ndarray) -> np.ndarray:
    """Python numbers too large for a numpy dtype: huge ints are refused, other numbers become floats."""
    values = array.ravel().tolist()
    if all(isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)) for value in values):
        if any(abs(int(value)) > MAX_COUNT for value in values):
            raise CountOverflowError(f"{name!r} holds a count beyond 2**63 - 1: {show(array)}")
        return array.astype(np.int64)
    if all(isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_)) for value in values):
        try:
            return array.astype(np.float64)
        except OverflowError:
            raise CountOverflowError(f"{name!r} holds a count too large for a float: {show(array)}") from None
    return array


def open_input(path: str | os.PathLike[str]) -> BinaryIO:
    """An input file opened for reading bytes.

    Raises:
        InputFileError: it cannot be read (missing, a directory, no permission), named.
    """
    try:
        return open(path, "rb")
    except OSError as error:
        raise InputFileError(f"{path}: cannot read the file: {error.strerror or error}") from None


def check_sample_weight(sample_weight: ArrayLike | None, n: int, argument: str = "sample_weight") -> np.ndarray | None:
    """Return ``sample_weight`` as a read-only 1-D array of ``n`` finite, non-negative weights.

    Integer weights (ints, bools, integer arrays) become int64, so counts stay exact
    integers; anything else float64, giving float counts. ``None`` stays ``None`` (every
    sample counts once). A numpy array of the right type is not copied: the result is a
    read-only view of it, so nothing evalkit does can change the caller's weights.

    Raises:
        InputShapeError: not 1-D, or not ``n`` weights.
        InvalidTypeError: not numbers.
        InvalidArgumentError: a negative, NaN or infinite weight (the message names the first
            one and its position).

    Examples:
        >>> check_sample_weight([1, 2, 0], 3).dtype.name, check_sample_weight([0.5, 1.0], 2).dtype.name
        ('int64', 'float64')
    """
    if sample_weight is None:
        return None
    if isinstance(sample_weight, (str, bytes, set, frozenset, dict)):
        raise InvalidTypeError(f"{argument!r} must be a sequence of numbers, one per sample, got {show(sample_weight)}")
    try:
        array = np.asarray(sample_weight)
    except (TypeError, ValueError) as error:
        raise InvalidTypeError(f"{argument!r} must be a sequence of numbers, one per sample, got {show(sample_weight)}") from error
    if array.dtype == object:
        try:
            array = array.astype(np.int64) if all(isinstance(value, (int, np.integer)) for value in array.ravel()) else array.astype(np.float64)
        except (TypeError, ValueError, OverflowError) as error:
            raise InvalidTypeError(f"{argument!r} must hold numbers that fit a float64, got {show(sample_weight)}") from error
    if array.ndim == 0:
        raise InputShapeError(f"{argument!r} must hold one weight per sample (a 1-D sequence), got the single value {show(sample_weight)}")
    if array.ndim != 1:
        raise InputShapeError(f"Sample weights must be 1D array or scalar: {argument!r} must be 1-D (one weight per sample), got shape {array.shape}")
    if len(array) != n:
        raise InputShapeError(f"Found input variables with inconsistent numbers of samples: {argument!r} has {len(array)} weights but there are {n} samples")
    if array.dtype.kind == "b":
        array = array.astype(np.int64)
    elif array.dtype.kind == "u":
        if array.size and array.max() > np.iinfo(np.int64).max:
            raise InvalidArgumentError(f"{argument!r} holds a weight too large for int64: {show(array)}")
        array = array.astype(np.int64)
    elif array.dtype.kind in "if":
        array = array.astype(np.int64 if array.dtype.kind == "i" else np.float64, copy=False)
        # two reductions find every bad weight: NaN fails >= 0, and an infinity makes the sum infinite
        with np.errstate(over="ignore"):  # (finite weights whose sum overflows: refused below)
            suspect = array.size and not (array.min() >= 0 and (array.dtype.kind == "i" or np.isfinite(array.sum())))
        if suspect:
            bad = np.flatnonzero(~(array >= 0) | ~np.isfinite(array))
            if len(bad):
                raise InvalidArgumentError(
                    f"{argument!r} must hold finite weights >= 0; position {bad[0]} holds {array[bad[0]].item()!r}"
                )
            raise CountOverflowError(f"{argument!r} sums beyond what a float64 holds (every count it makes would), got {show(array)}")
    else:
        raise InvalidTypeError(f"{argument!r} must hold real numbers, got dtype {array.dtype}: {show(sample_weight)}")
    return read_only(array)

def check_matrix(values: Any, argument: str, shape: tuple | None = None) -> np.ndarray:
    """A 2-D numeric array (never copied when it already is one) of the expected shape."""
    check_ordered(values, argument, "rows")
    array = as_array(values, argument)
    if array.ndim != 2:
        raise InputShapeError(f"{argument!r} must be a 2-D array (samples x labels), got shape {array.shape}")
    if array.dtype.kind not in "biuf":
        raise InvalidTypeError(f"{argument!r} must hold numbers or booleans, got dtype {array.dtype}")
    if shape is not None and array.shape != shape:
        raise InputShapeError(f"{argument!r} has shape {array.shape} but 'y_true' has shape {shape}")
    return array


def is_sparse(values: object) -> TypeGuard[SparseMatrix]:
    """A scipy sparse matrix or array (scipy is never imported for this check)."""
    return type(values).__module__.startswith("scipy.sparse") and hasattr(values, "tocsr")


def format_number(value: object) -> str:
    """Six significant digits for floats, NaN spelled out as undefined; anything else as str."""
    if isinstance(value, float):
        return f"{value:.6g}" if value == value else "NaN (undefined)"  # noqa: PLR0124 (NaN is the one float unequal to itself)
    return str(value)


SCIENTIFIC_FROM = 1e16
"""Floats this large in size print in scientific notation, as Python and numpy print them:
their fixed-point digits (up to 309) are mostly the binary value's rounding."""


def decimal_text(number: float, digits: int) -> str:
    """A finite float with ``digits`` decimals, or in scientific notation (``digits`` decimals
    of the mantissa) from ``SCIENTIFIC_FROM`` on.

    Examples:
        >>> decimal_text(2.5, 2), decimal_text(1e300, 3)
        ('2.50', '1.000e+300')
    """
    return f"{number:.{digits}e}" if abs(number) >= SCIENTIFIC_FROM else f"{number:.{digits}f}"


def count_number(value: float) -> int | float:
    """A count as the number a report shows: an integer when it is whole (a weighted count of
    51.0 is ``51``; below ``SCIENTIFIC_FROM``), else the float.

    Examples:
        >>> count_number(51.0), count_number(2.5), count_number(np.int64(7)), count_number(1e300)
        (51, 2.5, 7, 1e+300)
    """
    if isinstance(value, (int, np.integer)):
        return int(value)
    number = float(value)
    return int(number) if number.is_integer() and abs(number) < SCIENTIFIC_FROM else number


def count_text(value: float, digits: int | None = None) -> str:
    """A count as reports print it (``count_number``): an integer as it is, another float count
    with ``digits`` (``decimal_text``; full precision without).

    Examples:
        >>> count_text(51.0), count_text(2.5, 2), count_text(np.int64(7)), count_text(1e300, 2)
        ('51', '2.50', '7', '1.00e+300')
    """
    number = count_number(value)
    if isinstance(number, int):
        return str(number)
    return repr(number) if digits is None else decimal_text(number, digits)


def same_value(first: Any, second: Any) -> bool:
    """Equal in value and kind: arrays of one kind holding equal numbers (NaN equal to NaN),
    sequences and dicts item by item, and otherwise the same type and ``==`` (``True`` is
    not ``1``, ``1`` is not ``1.0``), so that a copy equals its original and nothing else does.

    Examples:
        >>> same_value((1, np.array([0.5, np.nan])), (1, np.array([0.5, np.nan]))), same_value((True,), (1,))
        (True, False)
    """
    if isinstance(first, np.ndarray) or isinstance(second, np.ndarray):
        if not (isinstance(first, np.ndarray) and isinstance(second, np.ndarray)) or first.shape != second.shape:
            return False
        if first.dtype.kind != second.dtype.kind:
            return False
        return bool(np.array_equal(first, second, equal_nan=first.dtype.kind in "fc"))
    if isinstance(first, (tuple, list)) and isinstance(second, (tuple, list)):
        return type(first) is type(second) and len(first) == len(second) and all(same_value(a, b) for a, b in zip(first, second))
    if isinstance(first, dict) and isinstance(second, dict):
        return first.keys() == second.keys() and all(same_value(first[key], second[key]) for key in first)
    if type(first) is not type(second):
        return False
    if isinstance(first, float) and math.isnan(first):
        return math.isnan(second)
    return bool(first == second)


def same_fields(first: Any, second: Any) -> bool:
    """Two attrs objects of one class with ``same_value`` in every field."""
    return type(first) is type(second) and all(same_value(getattr(first, field.name), getattr(second, field.name)) for field in attrs.fields(type(first)))


class FieldEquality:
    """Equality of an attrs class by its fields, declared once (``same_fields``): a copy, or a
    JSON or pickle round trip, equals its original; arrays compare by value and kind, NaN
    equals NaN. Unhashable, as a value that may hold arrays."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return same_fields(self, other)

    __hash__ = None  # type: ignore[assignment]


def made_by_constructors(use: str) -> Callable[[type[Made]], type[Made]]:
    """A class decorator for an attrs result made by its ``from_*`` constructors: a call that
    leaves out a field without a default (``Evaluation(4)``, as Java's ``new Evaluation(nClasses)``
    starts an accumulator) raises ``InvalidTypeError`` with the call as typed and what to ``use``,
    not the raw ``TypeError`` that names the fields."""

    def decorate(cls: type[Made]) -> type[Made]:
        required = [field.alias for field in attrs.fields(cls) if field.init and field.default is attrs.NOTHING]
        rest = [frozenset(required[given:]) for given in range(len(required))]  # the fields to name, after so many positional ones
        made: Callable[..., None] = cls.__init__

        @functools.wraps(made)  # attrs' __init__ (its signature, for help), after the check
        def __init__(self: Made, *fields: object, **named: object) -> None:
            if len(fields) < len(rest) and not named.keys() >= rest[len(fields)]:
                arguments = [*(show(value) for value in fields), *(f"{name}={show(value)}" for name, value in named.items())]
                raise InvalidTypeError(f"{type(self).__name__}({', '.join(arguments)}) has nothing counted: {use}")
            made(self, *fields, **named)

        type.__setattr__(cls, "__init__", __init__)
        return cls

    return decorate
