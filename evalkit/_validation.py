"""Checks at the boundary: every public entry point validates here, the core trusts its data.

Messages follow one pattern: the argument's name in quotes, what was expected, and the value
that was received (shortened when long).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable

import numpy as np

from evalkit.exceptions import (
    ClassIndexError,
    InputShapeError,
    InvalidArgumentError,
    InvalidCountsError,
    InvalidTypeError,
)

_SHOW_LIMIT = 80


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


def check_positive_number(name: str, value: object) -> float:
    """Return ``value`` as a float if it is a finite number > 0."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidTypeError(f"{name!r} must be a number, got {show(value)}")
    if not math.isfinite(value) or value <= 0:
        raise InvalidArgumentError(f"{name!r} must be a finite number > 0, got {show(value)}")
    return float(value)


def check_index(name: str, value: object, size: int) -> int:
    """Return ``value`` as an int in ``0 .. size - 1``; negative indexes are rejected, not wrapped."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Integral, np.integer)):
        raise InvalidTypeError(f"{name!r} must be an integer class index, got {show(value)}")
    index = int(value)
    if not 0 <= index < size:
        raise ClassIndexError(f"{name!r} must be in 0..{size - 1}, got {index}")
    return index


def check_count(name: str, value: object, *, integral: bool) -> int | float:
    """Return one count as an ``int`` (or a ``float`` for fractional counts when allowed).

    Counts must be finite and non-negative; with ``integral=True`` they must also be whole.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.number)):
        raise InvalidTypeError(f"{name!r} must be a number, got {show(value)}")
    number = float(value)
    if not math.isfinite(number):
        raise InvalidCountsError(f"{name!r} must be finite, got {show(value)}")
    if number < 0:
        raise InvalidCountsError(f"{name!r} must be >= 0, got {show(value)}")
    if isinstance(value, (numbers.Integral, np.integer)):
        return int(value)
    if number.is_integer():
        return int(number)
    if integral:
        raise InvalidCountsError(f"{name!r} must be a whole number, got {show(value)}")
    return number


def as_count_matrix(name: str, counts: object) -> np.ndarray:
    """Return a new square int64 matrix from ``counts``, rejecting anything that is not counts."""
    try:
        array = np.array(counts)  # always a copy: the caller's array is never shared or changed
    except (TypeError, ValueError) as error:
        raise InputShapeError(f"{name!r} must be a square 2-D array of counts, got {show(counts)}") from error
    if array.ndim != 2 or array.shape[0] != array.shape[1]:
        raise InputShapeError(f"{name!r} must be square, got shape {array.shape}")
    if array.dtype.kind == "b" or array.dtype.kind not in "iuf":
        raise InvalidTypeError(f"{name!r} must hold numbers, got dtype {array.dtype}: {show(counts)}")
    if array.dtype.kind == "f":
        if not np.isfinite(array).all():
            raise InvalidCountsError(f"{name!r} must be finite, got {show(array)}")
        if (array != np.round(array)).any():
            raise InvalidCountsError(f"{name!r} must hold whole numbers, got {show(array)}")
        if array.size and array.max() >= 2.0**63:
            raise InvalidCountsError(f"{name!r} holds a count too large for int64: {show(array)}")
    if array.dtype.kind == "u" and array.size and array.max() >= 2**63:
        raise InvalidCountsError(f"{name!r} holds a count too large for int64: {show(array)}")
    if array.size and array.min() < 0:
        raise InvalidCountsError(f"{name!r} must be >= 0, got {show(array)}")
    return array.astype(np.int64)
