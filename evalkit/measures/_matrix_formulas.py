"""Measures of a whole confusion matrix: accuracy, Cohen's kappa (unweighted, linear and
quadratic weights; from margins or sparse pairs) and the multi-class Matthews correlation
coefficient, exact for integer counts.

evalkit.measures._formulas gives them under its name as well.
"""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine._exact import MAX_COUNT, cancels, dominant, exact_counts, exact_margins, table_margins
from evalkit._engine._types import Count
from evalkit._engine._validation import show
from evalkit.exceptions import InvalidArgumentError
from evalkit.measures._arithmetic import _PLAIN, _SAFE_FLOATS, _result, clip, ratio, ratio_sqrt


def _matrix(counts: ArrayLike) -> np.ndarray:
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
    if type(first) is list and type(second) is list:  # Python integers (a tally's margins): exact, no numpy call
        return sum(map(operator.mul, first, second))
    first, second = np.asarray(first), np.asarray(second)
    if first.ndim == 2:
        return np.einsum("ij,ij->i", first.astype(np.float64), second.astype(np.float64))
    if first.dtype.kind in "iuO" and second.dtype.kind in "iuO":
        if first.dtype.kind != "O" and second.dtype.kind != "O" and _fits(np.concatenate([first, second]), len(first)):
            return int(np.dot(first.astype(np.int64), second.astype(np.int64)))
        return sum(int(a) * int(b) for a, b in zip(first.tolist(), second.tolist()))
    return float(np.dot(first.astype(np.float64), second.astype(np.float64)))


def _margins(counts: ArrayLike) -> dict[str, Any]:
    """``correct``, ``total`` and the ``actual`` and ``predicted`` sums of a matrix, for measures
    of their ratios: exact integers for whole counts; float sums for float counts, or exact
    sums (Python integers in units of ``2**-1126``) where a class holds more than half of the
    total, so that ``total² - Σ actual · predicted`` never cancels."""
    x = _matrix(counts)
    if x.dtype.kind == "i" or (x.dtype.kind == "u" and (not x.size or int(x.max()) <= MAX_COUNT)):  # whole counts: Python integers, exact beyond int64
        diagonal, rows, columns = table_margins(x)
        return {"correct": sum(diagonal), "total": sum(rows), "actual": rows, "predicted": columns}
    exact = x.dtype.kind in "uO"  # (unsigned beyond int64, or Python integers)
    rows = [_sum(row) for row in x] if exact else x.sum(axis=1)
    columns = [_sum(column) for column in x.T] if exact else x.sum(axis=0)
    actual = np.array(rows, dtype=object if exact else np.float64)
    predicted = np.array(columns, dtype=object if exact else np.float64)
    margins = {"correct": _sum(np.diagonal(x)), "total": _sum(actual), "actual": actual, "predicted": predicted}
    return _exact_margins(x) if x.dtype.kind == "f" and cancels(margins) else margins


def _exact_margins(x: np.ndarray) -> dict[str, Any]:
    """The margins of a float matrix as exact sums (see ``_margins``).

    Examples:
        >>> margins = _exact_margins(np.array([[1e16, 0.0], [0.0, 1.0]]))
        >>> margins["total"] - margins["correct"], margins["total"] - margins["actual"][0] == margins["actual"][1]
        (0, True)
    """
    rows, columns = np.nonzero(x)
    return exact_margins(rows, columns, x[rows, columns], len(x))


def _plain(value: Any) -> Any:
    if isinstance(value, np.ndarray) and value.ndim:
        return value.astype(np.float64)  # a batch: one value per row
    return value if type(value) in _PLAIN else (int(value) if isinstance(value, (int, np.integer)) else float(value))


def matrix_accuracy(counts: ArrayLike) -> float:
    """Accuracy of a multi-class confusion matrix: ``trace / total``; NaN when empty.

    Examples:
        >>> matrix_accuracy([[5, 1], [2, 2]])
        0.7
    """
    x = _matrix(counts)
    if x.dtype.kind == "f":  # the two sums _margins would take (the total as the sum of the row sums), and no other
        return float(ratio(float(np.diagonal(x).sum()), float(x.sum(axis=1).sum())))
    margins = _margins(x)
    return float(ratio(margins["correct"], margins["total"]))


def _rescaled_margins(correct: Count, total: Count, actual: Count, predicted: Count) -> tuple[Any, Any, Any, Any]:
    """Float margins scaled by one power of two of the total (per row of a batch) when it lies
    outside ``_SAFE_FLOATS``: kappa and MCC square the total, which overflows from 1e155."""
    if type(total) is int:  # whole counts: nothing to rescale
        return correct, total, actual, predicted
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


def margins_cohen_kappa(*, correct: Count, total: Count, actual: Count, predicted: Count) -> Count:
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


def margins_matthews_correlation_coefficient(*, correct: Count, total: Count, actual: Count, predicted: Count) -> Count:
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


def matrix_cohen_kappa(counts: ArrayLike, weights: str | None = None) -> float:
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
        return float(margins_cohen_kappa(**_margins(counts)))
    x = _matrix(counts)
    actual, predicted = np.nonzero(x)
    return pairs_cohen_kappa(actual, predicted, x[actual, predicted], len(x), weights=weights)


def pairs_cohen_kappa(actual: np.ndarray, predicted: np.ndarray, counts: np.ndarray, size: int, *, weights: str | None = None) -> float:
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
    if counts.dtype.kind == "f" and dominant({"total": counts.sum(), "actual": np.bincount(actual, counts, size), "predicted": np.bincount(predicted, counts, size)}):
        # exact sums (the unit drops out): N² - Σ r c cancels no more
        counts = exact_counts(counts)
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


def matrix_matthews_correlation_coefficient(counts: ArrayLike) -> float:
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
    return float(margins_matthews_correlation_coefficient(**_margins(counts)))


