"""Exact counts: integer sums that never wrap, decided in one place.

Counts are int64 while every total fits (up to 2**63 - 1) and are refused beyond with
``CountOverflowError``; ``np.bincount`` and BLAS accumulate in float64, which is exact for
integers only below 2**53, so integer weights above that take an exact (slower) path.
Products of large counts (kappa, MCC, correlation) are computed in exact integer arithmetic
by the formula layer.

Examples:
    >>> weighted_sum(np.array([2**62, 2**62 - 1]), None)
    9223372036854775807
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from evalkit.exceptions import CountOverflowError

__all__ = ["EXACT_FLOAT_SUM", "MAX_COUNT", "check_count_total", "exact_row_sums", "weighted_bincount", "weighted_sum"]


EXACT_FLOAT_SUM = 2**53
"""Integer sums below this are exact in float64 (``np.bincount`` and BLAS accumulate in float64)."""

MAX_COUNT = 2**63 - 1
"""The largest count evalkit holds in int64; totals beyond it are refused, never wrapped."""


def weighted_sum(values: Any, weights: np.ndarray | None) -> Any:
    """``Σ values`` or ``Σ values · weights``: a Python int for integer input (exact, never
    wrapped), a float otherwise.

    Raises:
        CountOverflowError: an integer sum beyond ``MAX_COUNT``.
    """
    values = np.asarray(values).ravel()
    if weights is not None:
        weights = np.asarray(weights).ravel()
    integral = values.dtype.kind in "biu" and (weights is None or weights.dtype.kind in "biu")
    if not integral:
        with np.errstate(over="ignore", invalid="ignore"):
            total = float(values.sum() if weights is None else np.dot(values.astype(np.float64), weights.astype(np.float64)))
        return check_count_total(total)
    values = values.astype(np.int64, copy=False)
    high = int(np.abs(values).max()) if values.size else 0
    if weights is not None:
        high *= int(weights.max()) if weights.size else 0
    if high * max(len(values), 1) <= MAX_COUNT:  # no partial sum can wrap
        total = int(values.sum() if weights is None else np.dot(values, weights.astype(np.int64, copy=False)))
    else:
        total = sum(values.tolist()) if weights is None else sum(v * w for v, w in zip(values.tolist(), weights.tolist()))
    return check_count_total(total)


def check_count_total(total: Any, what: str = "the counts") -> Any:
    """Return an exact integer total if int64 holds it (a float total if it is finite), else
    raise ``CountOverflowError``."""
    if isinstance(total, float) and not math.isfinite(total):
        raise CountOverflowError(f"{what} sum to {total}, beyond what a float64 holds")
    if isinstance(total, (int, np.integer)) and abs(int(total)) > MAX_COUNT:
        raise CountOverflowError(f"{what} sum to {int(total)}, beyond the {MAX_COUNT} (2**63 - 1) that evalkit counts exactly")
    return int(total) if isinstance(total, (int, np.integer)) else total


def weighted_bincount(index: np.ndarray, weights: np.ndarray | None, length: int) -> np.ndarray:
    """``np.bincount(index, weights, minlength=length)``, exact: int64 for integer (or no)
    weights, float64 for float weights.

    ``np.bincount`` sums weights in float64, exact for integers while every sum stays below
    2**53; larger integer totals take an exact (slower) int64 path, and totals beyond
    2**63 - 1 raise ``CountOverflowError``.

    Examples:
        >>> weighted_bincount(np.array([0, 2, 2]), np.array([1, 2, 3]), 4).tolist()
        [1, 0, 5, 0]
    """
    if weights is None:
        return np.bincount(index, minlength=length)
    if weights.dtype.kind == "f":  # (numpy gives int64 zeros for no entries: float counts stay float)
        return np.bincount(index, weights=weights, minlength=length).astype(np.float64, copy=False)
    total = weighted_sum(weights, None)
    if total < EXACT_FLOAT_SUM:
        return np.bincount(index, weights=weights, minlength=length).astype(np.int64)
    out = np.zeros(length, dtype=np.int64)
    np.add.at(out, index, weights.astype(np.int64, copy=False))
    return out




def exact_row_sums(values: np.ndarray) -> np.ndarray:
    """Row sums of a 2-D array of counts that never wrap: int64 while every sum fits, exact
    Python integers (an object array) beyond; float rows sum in float64.

    Examples:
        >>> exact_row_sums(np.array([[2**62, 2**62], [1, 2]])).tolist()
        [9223372036854775808, 3]
    """
    if values.dtype.kind not in "biu":
        return values.sum(axis=1)
    values = values.astype(np.int64, copy=False)
    high = int(np.abs(values).max()) if values.size else 0
    if high * max(values.shape[1], 1) <= MAX_COUNT:
        return values.sum(axis=1)
    return np.array([sum(row) for row in values.tolist()], dtype=object)
