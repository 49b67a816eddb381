"""The counting core: label sequences in, counts out, in one vectorised pass.

Every number evalkit reports is a function of the cells ``tp, fp, fn, tn`` taken through
one of three sums of an actual/predicted pair. For single-label data (one class per
sample, the one-hot case) the m x m confusion matrix ``AᵀP`` holds all of them, and it is
counted directly from the labels with ``np.bincount``; no ``n x m`` indicator array is ever
built.

How labels become counts (:func:`confusion_counts`):

* integer and boolean arrays: counted in value space, ``bincount((t - lo) * R + (p - lo))``,
  in cache-sized chunks, then the few observed values are mapped to labels;
* fixed-width string arrays (``dtype '<U…'``): hashed column-wise in numpy, each hash slot
  checked against a representative string (exact; falls back on a collision);
* float arrays: ``np.unique`` (NaN is rejected);
* anything else (lists of strings, object arrays, mixed Python values): one dict of the
  distinct labels, then codes through ``map`` at C speed.

Examples:
    >>> counts, labels = confusion_counts(["a", "b", "b", "c"], ["a", "b", "c", "c"])
    >>> labels
    ('a', 'b', 'c')
    >>> counts
    array([[1, 0, 0],
           [0, 1, 1],
           [0, 0, 1]])
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any

import attrs
import numpy as np

from evalkit._labels import check_label, check_label_list, check_same_kind, describe, sorted_labels
from evalkit._validation import show
from evalkit.exceptions import (
    EmptyInputError,
    InputLengthError,
    InputShapeError,
    InvalidArgumentError,
    InvalidLabelError,
    InvalidTypeError,
    UnknownLabelError,
)

__all__ = ["Cells", "cells_from_confusion", "confusion_counts"]

_CHUNK = 1 << 16
"""Samples per chunk: small enough that the chunk's index buffer stays in cache."""

_MAX_CELLS = 1 << 31
"""The largest dense matrix (in cells) evalkit agrees to build."""

_HASH_MIN_SAMPLES = 1 << 12
"""Below this many samples the dict path is as fast as hashing fixed-width strings."""


# --------------------------------------------------------------------------------------------
# cells


@attrs.frozen(eq=False)
class Cells:
    """The four cells ``tp, fp, fn, tn`` of many binary problems, as equal-shape arrays.

    One entry per class (the per-class sums ``σm``) or per sample (``σn``); crisp data give
    integer cells, soft data float cells.

    Examples:
        >>> cells = Cells(tp=[5, 2], fp=[2, 1], fn=[1, 2], tn=[2, 5])
        >>> cells.total().counts()
        {'tp': 7, 'fp': 3, 'fn': 3, 'tn': 7}
    """

    tp: np.ndarray = attrs.field(converter=np.asarray)
    fp: np.ndarray = attrs.field(converter=np.asarray)
    fn: np.ndarray = attrs.field(converter=np.asarray)
    tn: np.ndarray = attrs.field(converter=np.asarray)

    def counts(self) -> dict[str, Any]:
        """The cells as keyword arguments for a measure (Python numbers when 0-d)."""
        cells = {"tp": self.tp, "fp": self.fp, "fn": self.fn, "tn": self.tn}
        return {name: value.item() if value.ndim == 0 else value for name, value in cells.items()}

    def total(self) -> Cells:
        """The cells summed over all entries (``σ1``, the micro cells)."""
        return Cells(self.tp.sum(), self.fp.sum(), self.fn.sum(), self.tn.sum())

    @property
    def support(self) -> np.ndarray:
        """Actual positives per entry, ``tp + fn`` (the weights of the weighted average)."""
        return self.tp + self.fn

    def evaluate(self, measure: Any, **parameters: Any) -> Any:
        """The value of ``measure`` (a :class:`~evalkit.formulas.Measure`) for every entry."""
        return measure(**self.counts(), **parameters)


def cells_from_confusion(counts: np.ndarray) -> Cells:
    """Per-class one-vs-rest cells of a confusion matrix (rows actual, columns predicted).

    ``tp_j = x_jj``, ``fp_j`` = column ``j`` without the diagonal, ``fn_j`` = row ``j``
    without the diagonal, ``tn_j`` = every cell outside row ``j`` and column ``j``.

    Examples:
        >>> cells_from_confusion(np.array([[50, 10], [5, 35]])).counts()
        {'tp': array([50, 35]), 'fp': array([ 5, 10]), 'fn': array([10,  5]), 'tn': array([35, 50])}
    """
    tp = np.diagonal(counts).copy()
    fp = counts.sum(axis=0) - tp
    fn = counts.sum(axis=1) - tp
    return Cells(tp, fp, fn, counts.sum() - tp - fp - fn)


# --------------------------------------------------------------------------------------------
# labels to counts


def confusion_counts(y_true: Any, y_pred: Any, labels: Sequence[Any] | None = None) -> tuple[np.ndarray, tuple]:
    """Count (actual, predicted) label pairs into an m x m int64 matrix.

    Args:
        y_true: actual labels, one per sample (a list, tuple, numpy array or array-like).
        y_pred: predicted labels, as many as ``y_true``.
        labels: the label order; by default the sorted union of the observed labels. An
            explicit list may hold labels that never occur; a label outside it is an error.

    Returns:
        ``(counts, labels)``: rows are actual labels, columns predicted ones.

    Raises:
        InputLengthError, InputShapeError, EmptyInputError, InvalidLabelError,
        MixedLabelTypesError, UnknownLabelError, DuplicateLabelError, InvalidTypeError.
    """
    fixed = None if labels is None else check_label_list(labels)
    actual = _as_label_array(y_true, "y_true")
    predicted = _as_label_array(y_pred, "y_pred")
    if len(actual) != len(predicted):
        raise InputLengthError(f"'y_true' has {len(actual)} samples but 'y_pred' has {len(predicted)}")
    if len(actual) == 0:
        if not fixed:
            raise EmptyInputError("'y_true' and 'y_pred' are empty and no 'labels' were given: nothing to count")
        return np.zeros((len(fixed), len(fixed)), dtype=np.int64), fixed
    counts, values = _value_counts(actual, predicted)
    return _relabel(counts, values, fixed)


def _as_label_array(values: Any, argument: str) -> np.ndarray:
    """A 1-D numpy array of labels (never a copy of a 1-D array; lists are converted once)."""
    if isinstance(values, (str, bytes)):
        raise InvalidTypeError(f"{argument!r} must be a sequence of labels, got the single string {show(values)}")
    if isinstance(values, np.ndarray):
        array = values
    elif isinstance(values, (list, tuple)):
        array = _list_to_array(values)
    elif hasattr(values, "__array__"):
        array = np.asarray(values)
    elif isinstance(values, Iterable):
        array = _list_to_array(list(values))
    else:
        raise InvalidTypeError(f"{argument!r} must be a sequence of labels, got {show(values)}")
    if array.ndim != 1:
        raise InputShapeError(
            f"{argument!r} must be 1-D (one label per sample), got shape {array.shape}; "
            "indicator rows or label sets per sample are multi-label data"
        )
    if array.dtype.kind not in "biufUSO":
        array = array.astype(object)
    return array


def _list_to_array(values: Sequence[Any]) -> np.ndarray:
    """Lists of plain ints become int64 arrays (the fast path); anything else a 1-D object array."""
    if values and all(type(value) is int for value in values):
        try:
            return np.array(values, dtype=np.int64)
        except OverflowError:
            pass
    return np.fromiter(values, dtype=object, count=len(values))  # nested items stay items


def _value_counts(actual: np.ndarray, predicted: np.ndarray) -> tuple[np.ndarray, list]:
    """Counts over the distinct values of both arrays, and those values (any order)."""
    kinds = actual.dtype.kind + predicted.dtype.kind
    if set(kinds) <= set("biu"):
        return _integer_value_counts(actual, predicted)
    if kinds in ("UU", "SS") and len(actual) >= _HASH_MIN_SAMPLES:
        counted = _fixed_width_value_counts(actual, predicted)
        if counted is not None:
            return counted
    if set(kinds) <= set("biuf"):
        return _float_value_counts(actual, predicted)
    return _hashed_value_counts(actual, predicted)


def _pair_counts(actual: np.ndarray, predicted: np.ndarray, low: int, size: int) -> np.ndarray:
    """``bincount((actual - low) * size + (predicted - low))`` as a size x size matrix, chunked.

    Each chunk's flat index is built in one reused buffer, so no n-sized temporary is made.
    """
    cells = size * size
    if cells > _MAX_CELLS:
        raise InvalidArgumentError(f"a confusion matrix of {size} labels would need {cells} cells; too many labels")
    offset = low * (size + 1)
    chunk = max(_CHUNK, 4 * cells)
    n = len(actual)
    if n <= chunk:
        flat = actual * size + predicted
        if offset:
            flat -= offset
        return np.bincount(flat, minlength=cells).reshape(size, size)
    out = np.zeros(cells, dtype=np.int64)
    buffer = np.empty(chunk, dtype=np.intp)
    for start in range(0, n, chunk):
        stop = min(start + chunk, n)
        flat = buffer[: stop - start]
        np.multiply(actual[start:stop], size, out=flat)
        np.add(flat, predicted[start:stop], out=flat)
        if offset:
            np.subtract(flat, offset, out=flat)
        out += np.bincount(flat, minlength=cells)
    return out.reshape(size, size)


def _min_max(actual: np.ndarray, predicted: np.ndarray) -> tuple[int, int]:
    """Smallest and largest value of both arrays in one chunked pass (each chunk read once)."""
    low, high = None, None
    for start in range(0, len(actual), 2 * _CHUNK):
        a, b = actual[start : start + 2 * _CHUNK], predicted[start : start + 2 * _CHUNK]
        chunk_low, chunk_high = min(a.min(), b.min()), max(a.max(), b.max())
        low = chunk_low if low is None else min(low, chunk_low)
        high = chunk_high if high is None else max(high, chunk_high)
    return int(low), int(high)


def _as_intp(array: np.ndarray) -> np.ndarray | None:
    """The array as intp without copying int64 input; None if values do not fit."""
    if array.dtype.kind == "u" and array.dtype.itemsize >= np.dtype(np.intp).itemsize:
        if array.size and array.max() > np.iinfo(np.intp).max:
            return None
    return array.astype(np.intp, copy=False)


def _integer_value_counts(actual: np.ndarray, predicted: np.ndarray) -> tuple[np.ndarray, list]:
    value_type = np.result_type(actual.dtype, predicted.dtype)
    a, p = _as_intp(actual), _as_intp(predicted)
    if a is None or p is None:
        return _hashed_value_counts(actual.astype(object), predicted.astype(object))
    low, high = _min_max(a, p)
    size = high - low + 1
    if size * size <= max(1 << 20, len(a)):
        values = np.arange(low, high + 1)
        counts = _pair_counts(a, p, low, size)
    else:  # sparse label values (ids): map them to dense codes first
        if size <= 8 * len(a):
            present = np.zeros(size, dtype=bool)
            present[a - low] = True
            present[p - low] = True
            codes = np.cumsum(present) - 1
            values = np.flatnonzero(present) + low
            a, p = codes[a - low], codes[p - low]
        else:
            values, inverse = np.unique(np.concatenate([a, p]), return_inverse=True)
            a, p = inverse[: len(actual)], inverse[len(actual) :]
        counts = _pair_counts(a, p, 0, len(values))
    return counts, values.astype(value_type).tolist()


def _float_value_counts(actual: np.ndarray, predicted: np.ndarray) -> tuple[np.ndarray, list]:
    for argument, array in (("y_true", actual), ("y_pred", predicted)):
        missing = np.flatnonzero(np.isnan(array)) if array.dtype.kind == "f" else ()
        if len(missing):
            raise InvalidLabelError(f"{argument!r} contains NaN (first at position {missing[0]}), which cannot be a label")
    values, inverse = np.unique(np.concatenate([actual, predicted]), return_inverse=True)
    n = len(actual)
    return _pair_counts(inverse[:n], inverse[n:], 0, len(values)), values.tolist()


def _hashed_value_counts(actual: np.ndarray, predicted: np.ndarray) -> tuple[np.ndarray, list]:
    """The general path: a dict of the distinct labels, then integer codes via ``map``."""
    sequences = [actual.tolist(), predicted.tolist()]
    try:
        values = list(dict.fromkeys(itertools.chain(*sequences)))
    except TypeError:
        for argument, sequence in zip(("y_true", "y_pred"), sequences):
            for label in sequence:
                check_label(argument, label)  # raises on the first unhashable label
        raise  # pragma: no cover - check_label always raises first
    index = {value: code for code, value in enumerate(values)}
    a, p = (np.fromiter(map(index.__getitem__, s), dtype=np.intp, count=len(s)) for s in sequences)
    return _pair_counts(a, p, 0, len(values)), values


def _fixed_width_value_counts(actual: np.ndarray, predicted: np.ndarray) -> tuple[np.ndarray, list] | None:
    """Count numpy string arrays without creating Python strings per sample.

    Each string is hashed from its code units, hashes are put in slots of a table, and one
    representative per slot is compared with every string of that slot. Exact: on any
    collision it returns None and the caller takes the dict path.
    """
    common = np.result_type(actual.dtype, predicted.dtype)
    strings = np.concatenate([actual.astype(common, copy=False), predicted.astype(common, copy=False)])
    hashes = _string_hash(strings)
    if hashes is None:
        return None
    n = len(actual)
    table = 1 << max(16, min(24, (2 * n - 1).bit_length()))
    slots = (hashes & np.uint64(table - 1)).astype(np.intp)
    representative = np.zeros(table, dtype=np.intp)
    representative[slots] = np.arange(2 * n)
    if not np.array_equal(strings[representative[slots]], strings):
        return None
    used = np.flatnonzero(np.bincount(slots, minlength=table))
    code = np.zeros(table, dtype=np.intp)
    code[used] = np.arange(len(used))
    codes = code[slots]
    values = strings[representative[used]].tolist()
    return _pair_counts(codes[:n], codes[n:], 0, len(values)), values


_HASH_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)


def _string_hash(array: np.ndarray) -> np.ndarray | None:
    """A 64-bit polynomial hash per string of a contiguous fixed-width numpy string array."""
    unit = np.uint32 if array.dtype.kind == "U" else np.uint8
    width = array.dtype.itemsize // np.dtype(unit).itemsize
    if width == 0 or width > 64:
        return None
    units = np.ascontiguousarray(array).view(unit).reshape(len(array), width)
    hashed = np.zeros(len(array), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for column in range(width):
            hashed *= _HASH_MULTIPLIER
            hashed += units[:, column]
            hashed ^= hashed >> np.uint64(29)
    return hashed


def _relabel(counts: np.ndarray, values: list, fixed: tuple | None) -> tuple[np.ndarray, tuple]:
    """Turn counts over observed values into counts over the final labels, validating them."""
    in_actual = counts.sum(axis=1) > 0
    present = np.flatnonzero(in_actual | (counts.sum(axis=0) > 0))
    arguments = ["y_true" if in_actual[i] else "y_pred" for i in present]
    observed = [check_label(argument, values[i]) for argument, i in zip(arguments, present)]
    check_same_kind(zip(arguments, observed))
    if fixed is None:
        try:
            order = sorted(range(len(observed)), key=observed.__getitem__)
        except TypeError:
            sorted_labels(observed, "y_true/y_pred")  # raises with the readable message
            raise  # pragma: no cover
        chosen = present[order]
        return counts[np.ix_(chosen, chosen)], tuple(observed[i] for i in order)
    index = {label: position for position, label in enumerate(fixed)}
    target = []
    for argument, label in zip(arguments, observed):
        if label not in index:
            raise UnknownLabelError(f"{argument!r} contains {describe(label)}, which is not in 'labels' {show(list(fixed))}")
        target.append(index[label])
    result = np.zeros((len(fixed), len(fixed)), dtype=np.int64)
    result[np.ix_(target, target)] = counts[np.ix_(present, present)]
    return result, fixed

