"""The counting core: label sequences in, counts out, in one vectorised pass.

Every number evalkit reports is a function of the cells ``tp, fp, fn, tn`` taken through
one of three sums of an actual/predicted pair. For single-label data (one class per
sample, the one-hot case) the m x m confusion matrix ``AᵀP`` holds all of them, and it is
counted directly from the labels with ``np.bincount``; no ``n x m`` indicator array is ever
built.

How labels become counts (``confusion_counts``):

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

import numpy as np

from evalkit._labels import check_label, check_label_list, check_same_kind, describe, sorted_labels
from evalkit._validation import show
from evalkit.cells import unique_sorted
from evalkit.exceptions import (
    EmptyInputError,
    InputLengthError,
    InputShapeError,
    InvalidArgumentError,
    InvalidLabelError,
    InvalidTypeError,
    UnknownLabelError,
)

__all__ = ["confusion_counts", "encode", "encode_label_set_family", "encode_label_sets"]

_CHUNK = 1 << 16
"""Samples per chunk: small enough that the chunk's index buffer stays in cache."""

_MAX_CELLS = 1 << 31
"""The largest dense matrix (in cells) evalkit agrees to build."""

_HASH_MIN_SAMPLES = 1 << 12
"""Below this many samples the dict path is as fast as hashing fixed-width strings."""

_SMALL_TABLE = 1 << 16
"""Tables of at most this many cells are counted in chunks; larger ones in one pass."""

_SMALL_CHUNKED_TABLE = 1 << 12
"""In the single-pass integer path, tables up to this size are counted chunk by chunk."""


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
    actual = _as_labels(y_true, "y_true")
    predicted = _as_labels(y_pred, "y_pred")
    if len(actual) != len(predicted):
        raise InputLengthError(f"'y_true' has {len(actual)} samples but 'y_pred' has {len(predicted)}")
    if len(actual) == 0:
        if not fixed:
            raise EmptyInputError("'y_true' and 'y_pred' are empty and no 'labels' were given: nothing to count")
        return np.zeros((len(fixed), len(fixed)), dtype=np.int64), fixed
    counts, values, checked = _value_counts(actual, predicted)
    return _relabel(counts, values, fixed, checked)


def _as_labels(values: Any, argument: str) -> np.ndarray | list:
    """A 1-D numpy array of numbers or fixed-width strings, or a list of any other labels.

    Nothing is copied that need not be: numpy arrays and lists are used as they are; lists
    of plain ints become int64 arrays (the fast path).
    """
    if isinstance(values, (str, bytes)):
        raise InvalidTypeError(f"{argument!r} must be a sequence of labels, got the single string {show(values)}")
    if isinstance(values, (list, tuple)):
        numbers = _int_array(values)
        if numbers is not None:
            return numbers
        return values if isinstance(values, list) else list(values)
    if not isinstance(values, np.ndarray):
        if hasattr(values, "__array__"):
            values = np.asarray(values)
        elif isinstance(values, Iterable):
            return _as_labels(list(values), argument)
        else:
            raise InvalidTypeError(f"{argument!r} must be a sequence of labels, got {show(values)}")
    if values.ndim != 1:
        raise InputShapeError(
            f"{argument!r} must be 1-D (one label per sample), got shape {values.shape}; "
            "indicator rows or label sets per sample are multi-label data"
        )
    return values if values.dtype.kind in "biufUS" else values.tolist()


def _int_array(values: Sequence[Any]) -> np.ndarray | None:
    """An int64 array if every value is a plain int that fits, else None."""
    if values and type(values[0]) is int and all(type(value) is int for value in values):
        try:
            return np.array(values, dtype=np.int64)
        except OverflowError:
            return None
    return None


def _value_counts(actual: np.ndarray | list, predicted: np.ndarray | list) -> tuple[np.ndarray, list, bool]:
    """Counts over the distinct values of both inputs, those values, and whether they are
    already valid sorted labels (the numeric paths) or still to be checked and sorted."""
    kinds = "".join(x.dtype.kind if isinstance(x, np.ndarray) else "O" for x in (actual, predicted))
    if set(kinds) <= set("biu"):
        counted = _integer_value_counts(actual, predicted)
        if counted is not None:
            return (*counted, True)
    elif set(kinds) <= set("biuf"):
        return (*_float_value_counts(actual, predicted), True)
    elif kinds in ("UU", "SS") and len(actual) >= _HASH_MIN_SAMPLES:
        counted = _fixed_width_value_counts(actual, predicted)
        if counted is not None:
            return (*counted, False)
    sequences = [x.tolist() if isinstance(x, np.ndarray) else x for x in (actual, predicted)]
    return (*_hashed_value_counts(*sequences), False)


def _pair_counts(
    actual: np.ndarray, predicted: np.ndarray, low: int, size: int, codes: np.ndarray | None = None
) -> np.ndarray:
    """``bincount((actual - low) * size + (predicted - low))`` as a size x size matrix.

    With ``codes``, entries are first mapped through it (``codes[actual]``). Small tables are
    counted in cache-sized chunks through one reused buffer (no n-sized temporary); large
    tables, where the scattered increments dominate, in one pass.
    """
    cells = size * size
    if cells > _MAX_CELLS:
        raise InvalidArgumentError(f"a confusion matrix of {size} labels would need {cells} cells; too many labels")
    offset = low * (size + 1)
    n = len(actual)
    chunk = n if cells > _SMALL_TABLE else max(_CHUNK, 4 * cells)
    out = np.zeros(cells, dtype=np.int64) if chunk < n else None
    buffer = np.empty(min(chunk, n), dtype=np.intp)
    for start in range(0, n, chunk):
        stop = min(start + chunk, n)
        flat = buffer[: stop - start]
        a, p = actual[start:stop], predicted[start:stop]
        if codes is not None:
            a, p = codes[a], codes[p]
        np.multiply(a, size, out=flat, dtype=np.intp)
        np.add(flat, p, out=flat, dtype=np.intp)
        if offset:
            np.subtract(flat, offset, out=flat)
        if out is None:
            return np.bincount(flat, minlength=cells).reshape(size, size)
        out += np.bincount(flat, minlength=cells)
    return out.reshape(size, size)


def _nonnegative_pair_counts(actual: np.ndarray, predicted: np.ndarray, table_limit: int) -> np.ndarray | None:
    """Counts of non-negative integer labels in a single pass over the data.

    Each chunk's bitwise OR is checked while the chunk is in cache: a value outside the table
    so far grows the table (the counts, or the flat indexes written so far, are re-indexed).
    Small tables are counted chunk by chunk; larger ones get one ``bincount`` at the end.
    Returns None when a value is negative or the table would pass ``table_limit`` cells
    (offset or sparse labels), for the caller's exact min/max path.
    """
    n = len(actual)
    if n <= 4 * _CHUNK:  # small inputs sit in cache already: one pass, as few calls as possible
        bits = int(np.bitwise_or.reduce(actual) | np.bitwise_or.reduce(predicted))
        if bits < 0:
            return None
        size = bits + 1
        if size * size > _SMALL_CHUNKED_TABLE:  # a large table: size it exactly (two cheap reductions)
            size = int(max(actual.max(), predicted.max())) + 1
        if size * size > table_limit:
            return None
        return np.bincount(actual * size + predicted, minlength=size * size).reshape(size, size)
    chunk = _CHUNK
    head = int(np.bitwise_or.reduce(actual[:chunk]) | np.bitwise_or.reduce(predicted[:chunk]))
    whole = (head + 1) ** 2 > _SMALL_CHUNKED_TABLE  # one bincount at the end over all flat indexes
    flat_all = np.empty(n, dtype=np.intp) if whole else None
    buffer = None if whole else np.empty(chunk, dtype=np.intp)
    bound, size, high = 0, 1, 0
    out = np.zeros(1, dtype=np.int64)
    for start in range(0, n, chunk):
        stop = min(start + chunk, n)
        a, p = actual[start:stop], predicted[start:stop]
        bits = int(np.bitwise_or.reduce(a) | np.bitwise_or.reduce(p))
        if whole:  # the exact largest value, to trim the table at the end (the chunk is in cache)
            high = max(high, int(a.max()), int(p.max()))
        if bits < 0:
            return None
        if bits & ~bound:  # a value above every value seen so far: grow the table
            grown = (bound | bits) + 1
            if grown * grown > table_limit:
                return None
            if whole:
                rows, columns = np.divmod(flat_all[:start], size)
                flat_all[:start] = rows * grown + columns
            else:
                table = np.zeros((grown, grown), dtype=np.int64)
                table[:size, :size] = out.reshape(size, size)
                out = table.ravel()
            bound, size = bound | bits, grown
        flat = flat_all[start:stop] if whole else buffer[: stop - start]
        np.multiply(a, size, out=flat, dtype=np.intp)
        np.add(flat, p, out=flat, dtype=np.intp)
        if not whole:
            out += np.bincount(flat, minlength=size * size)
    if whole:
        table = np.bincount(flat_all, minlength=size * size).reshape(size, size)
        return table if high + 1 == size else np.ascontiguousarray(table[: high + 1, : high + 1])
    return out.reshape(size, size)


def _integer_value_counts(actual: np.ndarray, predicted: np.ndarray) -> tuple[np.ndarray, list] | None:
    """Counts in value space; None when values do not fit intp (huge uint64)."""
    value_type = np.result_type(actual.dtype, predicted.dtype)
    if value_type.kind == "u" and value_type.itemsize >= 8 and max(actual.max(), predicted.max()) > np.iinfo(np.intp).max:
        return None
    a, p = actual.astype(np.intp, copy=False), predicted.astype(np.intp, copy=False)
    table_limit = max(1 << 20, len(a))
    counts = _nonnegative_pair_counts(a, p, table_limit)
    if counts is not None:
        return counts, np.arange(len(counts)).astype(value_type).tolist()
    low = int(min(a.min(), p.min()))
    size = int(max(a.max(), p.max())) - low + 1
    if size * size <= table_limit:  # negative or offset labels in a small range
        values = np.arange(low, low + size)
        counts = _pair_counts(a, p, low, size)
    elif size <= 8 * len(a):  # sparse label values (ids): dense codes through a lookup table
        present = np.zeros(size, dtype=bool)
        present[a - low] = True
        present[p - low] = True
        values = np.flatnonzero(present) + low
        codes = np.cumsum(present) - 1
        counts = _pair_counts(a - low, p - low, 0, len(values), codes)
    else:
        values, inverse = np.unique(np.concatenate([a, p]), return_inverse=True)
        counts = _pair_counts(inverse[: len(a)], inverse[len(a) :], 0, len(values))
    return counts, values.astype(value_type).tolist()


def _float_value_counts(actual: np.ndarray, predicted: np.ndarray) -> tuple[np.ndarray, list]:
    for argument, array in (("y_true", actual), ("y_pred", predicted)):
        missing = np.flatnonzero(np.isnan(array)) if array.dtype.kind == "f" else ()
        if len(missing):
            raise InvalidLabelError(f"{argument!r} contains NaN (first at position {missing[0]}), which cannot be a label")
    values, inverse = np.unique(np.concatenate([actual, predicted]), return_inverse=True)
    n = len(actual)
    return _pair_counts(inverse[:n], inverse[n:], 0, len(values)), values.tolist()


def _hashed_value_counts(actual: list, predicted: list) -> tuple[np.ndarray, list]:
    """The general path: one dict pass per input at C speed, then counts through a code table.

    ``index.setdefault(label, position)`` keeps the position of each label's first
    occurrence, so each input is encoded in a single ``map``; a small table then turns first
    positions into dense codes inside the chunked count.
    """
    n = len(actual)
    position_type = np.int32 if 2 * n < 2**31 else np.int64  # half the memory for the usual sizes
    index: dict[Any, int] = {}
    try:
        first = [
            np.fromiter(map(index.setdefault, sequence, itertools.count(offset)), dtype=position_type, count=n)
            for sequence, offset in ((actual, 0), (predicted, n))
        ]
    except TypeError:
        for argument, sequence in (("y_true", actual), ("y_pred", predicted)):
            for label in sequence:
                check_label(argument, label)  # raises on the first unhashable label
        raise  # pragma: no cover - check_label always raises first
    positions = np.fromiter(index.values(), dtype=np.int64, count=len(index))
    codes = np.zeros(2 * n, dtype=position_type)
    codes[positions] = np.arange(len(positions))
    return _pair_counts(first[0], first[1], 0, len(positions), codes), list(index)


def _fixed_width_value_counts(actual: np.ndarray, predicted: np.ndarray) -> tuple[np.ndarray, list] | None:
    """Count numpy string arrays without creating a Python string per sample.

    Each string is hashed from its code units, the hashes pick slots of a table, and every
    string is compared with its slot's representative while the pairs are counted. Exact:
    on any collision it returns None and the caller takes the dict path.
    """
    common = np.result_type(actual.dtype, predicted.dtype)
    arrays = [actual.astype(common, copy=False), predicted.astype(common, copy=False)]
    n = len(actual)
    table = 1 << max(16, min(22, (2 * n - 1).bit_length()))
    slots = []
    for array in arrays:
        hashed = _string_hash(array)
        if hashed is None:
            return None
        slots.append((hashed & np.uint64(table - 1)).astype(np.intp))
    seen = np.zeros(table, dtype=bool)
    representative = np.zeros(table, dtype=np.intp)
    for offset, slot in enumerate(slots):
        representative[slot] = np.arange(n) + offset * n  # a position in actual, then predicted
        seen[slot] = True
    used = np.flatnonzero(seen)
    where = representative[used]
    values = np.where(where < n, arrays[0][np.minimum(where, n - 1)], arrays[1][np.maximum(where - n, 0)])
    codes = np.zeros(table, dtype=np.intp)
    codes[used] = np.arange(len(used))
    size = len(used)
    out = np.zeros(size * size, dtype=np.int64)
    for start in range(0, n, _CHUNK):
        stop = min(start + _CHUNK, n)
        a, p = codes[slots[0][start:stop]], codes[slots[1][start:stop]]
        if not (np.array_equal(values[a], arrays[0][start:stop]) and np.array_equal(values[p], arrays[1][start:stop])):
            return None
        out += np.bincount(a * size + p, minlength=size * size)
    return out.reshape(size, size), values.tolist()


_HASH_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)


def _string_hash(array: np.ndarray) -> np.ndarray | None:
    """A 64-bit polynomial hash per string of a fixed-width numpy string array."""
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


def _relabel(counts: np.ndarray, values: list, fixed: tuple | None, checked: bool) -> tuple[np.ndarray, tuple]:
    """Turn counts over observed values into counts over the final labels.

    ``checked`` values (from the numeric paths) are valid labels in sorted order already;
    others are validated (None, NaN, nested sequences, mixed types) and sorted here.
    """
    in_actual = counts.any(axis=1)
    present = np.flatnonzero(in_actual | counts.any(axis=0))
    if fixed is None and checked:
        if len(present) == len(values):
            return counts, tuple(values)
        return counts.take(present, axis=0).take(present, axis=1), tuple([values[i] for i in present])
    arguments = ["y_true" if in_actual[i] else "y_pred" for i in present]
    if checked:
        observed = [values[i] for i in present]
    else:
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


# --------------------------------------------------------------------------------------------
# labels to codes


def encode(y_true: Any, y_pred: Any, labels: Sequence[Any] | None = None) -> tuple[np.ndarray, np.ndarray, tuple]:
    """Codes (positions in the label order) of actual and predicted labels, and the labels.

    Validation and the label order are those of ``confusion_counts``.

    Examples:
        >>> codes_true, codes_pred, labels = encode(["b", "a", "c"], ["a", "a", "b"])
        >>> codes_true.tolist(), codes_pred.tolist(), labels
        ([1, 0, 2], [0, 0, 1], ('a', 'b', 'c'))
    """
    _, found = confusion_counts(y_true, y_pred, labels)
    return _codes(_as_labels(y_true, "y_true"), found), _codes(_as_labels(y_pred, "y_pred"), found), found


def _codes(values: np.ndarray | list, labels: tuple) -> np.ndarray:
    """Positions of known-valid labels: a sorted search for numpy arrays, a dict otherwise."""
    if isinstance(values, np.ndarray):
        table = np.array(labels)
        if table.dtype.kind in "biufUS":
            order = np.argsort(table, kind="stable")
            return order[np.searchsorted(table[order], values)]
        values = values.tolist()
    index = {label: code for code, label in enumerate(labels)}
    return np.fromiter(map(index.__getitem__, values), dtype=np.intp, count=len(values))


_SET_TYPES = (set, frozenset, list, tuple, np.ndarray)


def _as_label_set_list(values: Any, argument: str) -> list:
    """A list with one label collection per sample (set, frozenset, list, tuple or 1-D array)."""
    if isinstance(values, np.ndarray) and values.ndim == 2 and values.dtype != object:
        raise InputShapeError(f"{argument!r} is a 2-D array {values.shape}: for 0/1 indicator rows use from_indicators")
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise InvalidTypeError(f"{argument!r} must be a sequence of label sets, got {show(values)}")
    sets = list(values)
    for kind in set(map(type, sets)):
        if not issubclass(kind, _SET_TYPES):
            position, example = next((i, v) for i, v in enumerate(sets) if type(v) is kind)
            raise InvalidTypeError(
                f"{argument!r} must hold one label set per sample (a set, list or tuple); "
                f"element {position} is a {kind.__name__}: {show(example)}"
            )
    return sets


def encode_label_sets(actual: Any, predicted: Any, labels: Sequence[Any] | None = None) -> tuple[np.ndarray, np.ndarray, tuple, int]:
    """Sparse keys ``sample * m + label`` of label sets per sample.

    Args:
        actual: one collection of actual labels per sample (empty allowed).
        predicted: one collection of predicted labels per sample.
        labels: the label order; by default the sorted union of all labels seen.

    Returns:
        ``(actual_keys, predicted_keys, labels, n)``: sorted unique int64 keys, the labels,
        and the number of samples. A label repeated within one sample counts once.

    Examples:
        >>> keys_a, keys_p, labels, n = encode_label_sets([{"x", "y"}, set()], [{"y"}, {"z"}])
        >>> keys_a.tolist(), keys_p.tolist(), labels
        ([0, 1], [1, 5], ('x', 'y', 'z'))
    """
    (keys_actual, keys_predicted), found, n = _label_set_keys({"actual": actual, "predicted": predicted}, labels)
    return keys_actual, keys_predicted, found, n


def encode_label_set_family(label_sets: Any, labels: Sequence[Any] | None = None, argument: str = "label_sets") -> tuple[np.ndarray, tuple, int]:
    """Sparse keys of one family of label sets: ``(keys, labels, n)`` (see ``encode_label_sets``)."""
    (keys,), found, n = _label_set_keys({argument: label_sets}, labels)
    return keys, found, n


def _label_set_keys(families: dict[str, Any], labels: Sequence[Any] | None) -> tuple[list[np.ndarray], tuple, int]:
    fixed = None if labels is None else check_label_list(labels)
    sets = {argument: _as_label_set_list(values, argument) for argument, values in families.items()}
    lengths = {argument: len(collection) for argument, collection in sets.items()}
    n = next(iter(lengths.values()))
    for argument, length in lengths.items():
        if length != n:
            first = next(iter(lengths))
            raise InputLengthError(f"{first!r} has {n} samples but {argument!r} has {length}")
    flats = {argument: list(itertools.chain.from_iterable(collection)) for argument, collection in sets.items()}
    observed: dict[Any, str] = {}
    for argument, flat in flats.items():
        try:
            values = dict.fromkeys(flat)
        except TypeError:
            for label in flat:
                check_label(argument, label)  # raises on the first unhashable label
            raise  # pragma: no cover
        for value in values:
            observed.setdefault(value, argument)
    checked = {check_label(argument, value): argument for value, argument in observed.items()}
    check_same_kind((argument, label) for label, argument in checked.items())
    if fixed is None:
        if not checked and n == 0:
            raise EmptyInputError(f"{', '.join(map(repr, families))} are empty and no 'labels' were given: nothing to count")
        found = sorted_labels(list(checked), "/".join(families))
    else:
        for label, argument in checked.items():
            if label not in fixed:
                raise UnknownLabelError(f"{argument!r} contains {describe(label)}, which is not in 'labels' {show(list(fixed))}")
        found = fixed
    index = {label: code for code, label in enumerate(found)}
    m = len(found)
    keys = []
    for argument, collection in sets.items():
        counts = np.fromiter(map(len, collection), dtype=np.int64, count=n)
        codes = np.fromiter(map(index.__getitem__, flats[argument]), dtype=np.int64, count=len(flats[argument]))
        keys.append(unique_sorted(np.repeat(np.arange(n, dtype=np.int64), counts) * m + codes))
    return keys, found, n
