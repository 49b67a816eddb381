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
* float arrays: ``np.unique`` (NaN and infinities are rejected);
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
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeGuard, cast

import attrs
import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine import moved_names
from evalkit._engine._columns import Coded, CodedSets, coded_column, coded_sets, decoded, label_set_rows, list_column
from evalkit._engine._exact import (
    EXACT_FLOAT_SUM,
    exact_bincount,
    rounded_counts,
    weighted_bincount,
    weighted_sum,
)
from evalkit._engine._labels import (
    check_booleans_apart,
    check_label,
    check_label_list,
    check_same_kind,
    describe,
    sorted_labels,
    unify_numbers,
)
from evalkit._engine._pair_counts import PairCounts  # noqa: F401  (where pickles of 0.1.0 find it)
from evalkit._engine._types import LabelSets, LabelsLike
from evalkit._engine._validation import check_ordered, check_sample_weight, same_value, show
from evalkit._engine.cells import unique_sorted
from evalkit.exceptions import (
    ClassIndexError,
    EmptyInputError,
    InputLengthError,
    InputShapeError,
    InvalidLabelError,
    InvalidTypeError,
    MatrixSizeError,
    MixedLabelTypesError,
    UnknownLabelError,
)

__all__ = ["agreeing_samples", "as_label_set_list", "checked_pair_counts", "confusion_counts", "encode", "encode_label_set_family", "encode_label_sets"]

_CHUNK = 1 << 16
"""Samples per chunk: small enough that the chunk's index buffer stays in cache."""

_HASH_MIN_SAMPLES = 1 << 12
"""Below this many samples the dict path is as fast as hashing fixed-width strings."""

_SMALL_TABLE = 1 << 16
"""Tables of at most this many cells are counted in chunks; larger ones in one pass."""

_EXACT_DENSE_CELLS = 1 << 12
"""Tables of float weights of at most this many cells sum every cell exactly; larger ones only
the cells that occur."""

_SMALL_CHUNKED_TABLE = 1 << 12
"""In the single-pass integer path, tables up to this size are counted chunk by chunk."""


# --------------------------------------------------------------------------------------------
# labels to counts


def confusion_counts(
    y_true: LabelsLike, y_pred: LabelsLike, labels: Sequence[Any] | None = None, *, sample_weight: ArrayLike | None = None, max_cells: int | None = None
) -> tuple[np.ndarray, tuple]:
    """Count (actual, predicted) label pairs into an m x m matrix.

    Args:
        y_true: actual labels, one per sample (a list, tuple, numpy array or array-like).
        y_pred: predicted labels, as many as ``y_true``.
        labels: the label order; by default the sorted union of the observed labels. An
            explicit list may hold labels that never occur; a label outside it is an error.
        sample_weight: one finite weight >= 0 per sample: integer weights give int64
            counts, float weights their exact sums (an object array of Python integers in
            units of ``2**-FLOAT_OFFSET``: ``evalkit._engine._exact``), which ``rounded_counts``
            reads as floats.
        max_cells: refuse (before allocating it) a matrix of more cells.

    Returns:
        ``(counts, labels)``: rows are actual labels, columns predicted ones.

    Raises:
        InputLengthError: the two inputs differ in length.
        InputShapeError: an input is not 1-D.
        EmptyInputError: no samples and no ``labels``.
        InvalidLabelError: None or NaN among the labels.
        MixedLabelTypesError: strings with non-strings, or booleans with numbers.
        UnknownLabelError: a label outside ``labels``.
        DuplicateLabelError: a label twice in ``labels``.
        InvalidTypeError: something that is not a sequence of labels.
        InvalidArgumentError: a negative or non-finite weight.
        MatrixSizeError: more than ``max_cells`` cells.
    """
    fixed = None if labels is None else check_label_list(labels)
    return checked_pair_counts(*_samples(y_true, y_pred, sample_weight), fixed, max_cells)


def checked_pair_counts(
    actual: np.ndarray | list | Coded, predicted: np.ndarray | list | Coded, weight: np.ndarray | None, fixed: tuple | None = None, max_cells: int | None = None
) -> tuple[np.ndarray, tuple]:  # fmt: skip
    """``confusion_counts`` of labels already read and checked as it reads them (two 1-D arrays
    of numbers or fixed-width strings, lists or dataframe codes of one length; checked weights;
    ``fixed``, a checked label list): nothing is checked twice."""
    if fixed is not None:
        _check_cells(len(fixed), max_cells)
    if len(actual) == 0:
        if not fixed:
            raise EmptyInputError("'y_true' and 'y_pred' are empty and no 'labels' were given: nothing to count")
        return np.zeros((len(fixed), len(fixed)), dtype=np.int64 if weight is None or weight.dtype.kind == "i" else np.float64), fixed
    if _integer_kinds(actual, predicted):
        counted = _nonnegative_pair_counts(cast(np.ndarray, actual), cast(np.ndarray, predicted), max(1 << 20, len(actual)), weight)
        if counted is not None:
            return _relabel(counted, fixed, max_cells)
    if isinstance(actual, Coded) and isinstance(predicted, Coded):
        coded = _coded_counts(actual, predicted, fixed, weight)
        if coded is not None:
            _check_cells(len(coded[1]), max_cells)
            return coded
    observed = _observe(actual, predicted)
    lookup, found = _lookup(observed, fixed, (("y_true", actual), ("y_pred", predicted)))
    _check_cells(len(found), max_cells)
    return _pair_counts(*observed.positions, lookup, len(found), weight), found


def agreeing_samples(y_true: object, y_pred: object) -> int | None:
    """How many samples have the same actual and predicted label, for two integer (or two
    boolean) arrays of one length: the diagonal of their confusion matrix without the matrix
    (an accuracy needs no more). None for anything else, which ``confusion_counts`` matches.

    Examples:
        >>> import numpy as np
        >>> agreeing_samples(np.array([0, 1, 2, 2]), np.array([0, 1, 1, 2])), agreeing_samples(["a"], ["a"])
        (3, None)
    """
    if not (_integer_kinds(y_true, y_pred) and len(cast(np.ndarray, y_true)) == len(cast(np.ndarray, y_pred))):
        return None
    return int(np.count_nonzero(cast(np.ndarray, y_true) == y_pred))


def index_counts(y_true_idx: ArrayLike, y_pred_idx: ArrayLike, m: int, *, sample_weight: ArrayLike | None = None) -> np.ndarray:
    """Count (actual, predicted) pairs given as class indexes ``0 .. m-1`` into an m x m
    matrix: the integer path of ``confusion_counts`` without finding the labels.

    Raises:
        InvalidTypeError: indexes that are not integers (booleans included).
        InputShapeError, InputLengthError: not two 1-D inputs of one length.
        ClassIndexError: an index outside ``0 .. m-1`` (the first one, with its position).

    Examples:
        >>> index_counts([0, 1, 1], [0, 0, 1], 2).tolist()
        [[1, 0], [1, 1]]
    """
    return rounded_counts(checked_index_counts(*checked_indexes(y_true_idx, y_pred_idx, m, sample_weight=sample_weight), m))


def checked_index_counts(actual: np.ndarray, predicted: np.ndarray, weight: np.ndarray | None, m: int) -> np.ndarray:
    """``index_counts`` of indexes and weights ``checked_indexes`` has checked (no second check),
    float weights as their exact sums (as ``confusion_counts``)."""
    if not len(actual):
        return np.zeros((m, m), dtype=np.int64 if weight is None or weight.dtype.kind == "i" else np.float64)
    if len(actual) <= 4 * _CHUNK:  # a batch in cache: one bincount over the m x m cells
        flat = actual * m
        flat += predicted
        return (np.bincount(flat, minlength=m * m) if weight is None else pair_table(flat, weight, m * m)).reshape(m, m)
    counted = _value_space_counts(actual, predicted, 4 * m * m, weight)  # indexes below m: their bits stay below 2m
    if counted is None:  # pragma: no cover - every index is checked
        return _pair_counts(actual, predicted, np.arange(m, dtype=np.intp), m, weight)
    out = np.zeros((m, m), dtype=counted.dtype)
    size = min(len(counted), m)  # the table spans the values seen (a power-of-two bound), never an index >= m
    out[:size, :size] = counted[:size, :size]
    return out


def checked_indexes(y_true_idx: ArrayLike, y_pred_idx: ArrayLike, m: int, *, sample_weight: ArrayLike | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Class indexes ``0 .. m-1`` of actual and predicted samples, checked (``index_counts``'
    refusals), as intp arrays, with the checked sample weights."""
    actual, predicted = _index_array(y_true_idx, "y_true_idx"), _index_array(y_pred_idx, "y_pred_idx")
    n = len(actual)
    if n != len(predicted):
        raise InputLengthError(f"'y_true_idx' has {n} samples but 'y_pred_idx' has {len(predicted)}")
    # the largest of both, seen as unsigned (negatives are huge): one reduction shows both below m
    if n and int(np.maximum.reduce(np.maximum(_as_unsigned(actual), _as_unsigned(predicted)))) >= m:
        for argument, array in (("y_true_idx", actual), ("y_pred_idx", predicted)):
            outside = np.flatnonzero((array < 0) | (array >= m))
            if len(outside):
                raise ClassIndexError(f"{argument!r} holds {array[outside[0]]} at position {outside[0]}: class indexes are 0..{m - 1}")
    if actual.dtype != _INTP:
        actual = actual.astype(np.intp)
    if predicted.dtype != _INTP:
        predicted = predicted.astype(np.intp)
    return actual, predicted, None if sample_weight is None else check_sample_weight(sample_weight, n)


def _index_array(values: ArrayLike, argument: str) -> np.ndarray:
    """``values`` as a 1-D array of integer class indexes (not yet range-checked)."""
    if type(values) is np.ndarray and values.ndim == 1 and values.dtype.kind in "iu":  # (a training loop's batch: as it is)
        return values
    if type(values) is not np.ndarray:  # (an array is ordered: the check is for sets and dicts)
        check_ordered(values, argument, "class indexes")
    array = np.asarray(values)
    if array.ndim != 1:
        raise InputShapeError(f"{argument!r} must be 1-D (one class index per sample), got shape {array.shape}")
    if array.size and array.dtype.kind not in "iu":
        raise InvalidTypeError(f"{argument!r} must hold integer class indexes, got dtype {array.dtype}: {show(values)}")
    return array


_UNSIGNED = {np.dtype(f"i{size}"): np.dtype(f"u{size}") for size in (1, 2, 4, 8)}
_INTP = np.dtype(np.intp)


def _as_unsigned(array: np.ndarray) -> np.ndarray:
    """The integers of ``array`` seen as unsigned (no copy for native signed integers): a
    negative value becomes larger than every non-negative one."""
    unsigned = _UNSIGNED.get(array.dtype)
    if unsigned is not None:
        return array.view(unsigned)
    return array if array.dtype.kind == "u" else np.where(array < 0, np.iinfo(np.uint64).max, array).astype(np.uint64)


def _samples(y_true: LabelsLike, y_pred: LabelsLike, sample_weight: ArrayLike | None, names: tuple[str, str] = ("y_true", "y_pred")
             ) -> tuple[np.ndarray | list | Coded, np.ndarray | list | Coded, np.ndarray | None]:  # fmt: skip
    """Both label sequences (see ``_as_labels``; two dataframe columns of codes as their codes,
    ``Coded``) of equal length, and the checked weights; ``names``: the arguments messages name."""
    actual: np.ndarray | list | Coded | None = coded_column(y_true, names[0])
    predicted: np.ndarray | list | Coded | None = coded_column(y_pred, names[1])
    if (actual is None) != (predicted is None):  # one column of codes beside other labels: its labels
        actual, predicted = (decoded(found) if isinstance(found, Coded) else found for found in (actual, predicted))
    actual = _as_labels(y_true, names[0]) if actual is None else actual
    predicted = _as_labels(y_pred, names[1]) if predicted is None else predicted
    if len(actual) != len(predicted):
        raise InputLengthError(f"{names[0]!r} has {len(actual)} samples but {names[1]!r} has {len(predicted)}")
    return actual, predicted, check_sample_weight(sample_weight, len(actual))


def _check_cells(m: int, max_cells: int | None) -> None:
    if max_cells is not None and m * m > max_cells:
        raise MatrixSizeError(
            f"a dense confusion matrix of {m} labels needs {m * m:,} cells, more than the {max_cells:,} allowed "
            f"(ConfusionMatrix.max_cells); Evaluation.from_labels counts per-class cells without it"
        )


def _integer_kinds(actual: object, predicted: object) -> bool:
    """Both numpy arrays of integers, or both of booleans."""
    if not (isinstance(actual, np.ndarray) and isinstance(predicted, np.ndarray)):
        return False
    first, second = actual.dtype.kind, predicted.dtype.kind
    return (first in "iu" and second in "iu") or first == second == "b"


def _as_labels(values: Any, argument: str) -> np.ndarray | list:
    """A 1-D numpy array of numbers or fixed-width strings, or a list of any other labels.

    Nothing is copied that need not be: numpy arrays and lists are used as they are; lists
    of plain ints or plain floats become numpy arrays (the fast paths).
    """
    if isinstance(values, (str, bytes)):
        raise InvalidTypeError(f"{argument!r} must be a sequence of labels, got the single string {show(values)}")
    check_ordered(values, argument, "labels")
    if isinstance(values, (list, tuple)):
        numbers = _number_array(values)
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


def _number_array(values: Sequence[Any]) -> np.ndarray | None:
    """An int64 array if every value is a plain int that fits, a float64 array if every value
    is a plain float; else None. (One C-speed pass finds the types: a bool among ints, which
    numpy would turn into 1, keeps the list on the general path, where it is an error.)"""
    if not values:
        return None
    types = set(map(type, values))
    if types == {int}:
        try:
            return np.fromiter(values, dtype=np.int64, count=len(values))
        except OverflowError:
            return None
    if types == {float}:
        return np.fromiter(values, dtype=np.float64, count=len(values))
    return None


_FEW_VALUES = 16
"""Tables of at most this many values a side (unweighted) find the labels present in Python."""


def _nonnegative_pair_counts(
    actual: np.ndarray, predicted: np.ndarray, table_limit: int, weight: np.ndarray | None
) -> tuple[np.ndarray, list] | None:
    """Counts of non-negative integer labels in value space, in a single pass over the data.

    Returns ``(counts, values)`` over the values ``0 .. R-1`` (rows and columns of values
    that never occur are dropped), or None when a value is negative or the table would pass
    ``table_limit`` cells (offset or sparse labels), for the caller's general path.

    Each chunk's bitwise OR is checked while the chunk is in cache: a value outside the table
    so far grows the table (the counts, or the flat indexes written so far, are re-indexed).
    Small tables are counted chunk by chunk; larger ones get one ``bincount`` at the end.
    """
    wide = [x for x in (actual, predicted) if x.dtype.kind == "u" and x.dtype.itemsize >= 8]  # (uint64: values beyond intp take the general path)
    if wide and max(int(x.max()) for x in wide) > np.iinfo(np.intp).max:
        return None
    booleans = actual.dtype.kind == "b"  # (both, or neither: _integer_kinds)
    actual, predicted = actual.astype(np.intp, copy=False), predicted.astype(np.intp, copy=False)
    counts = _value_space_counts(actual, predicted, table_limit, weight)
    if counts is None:
        return None
    size = len(counts)
    if weight is None and size <= _FEW_VALUES:  # a few values: the labels present read in Python, no numpy call for each step
        listed = counts.tolist()
        in_rows, in_columns = list(map(any, listed)), list(map(any, zip(*listed)))
        found = [k for k in range(size) if in_rows[k] or in_columns[k]]
        if len(found) < size:
            counts = np.ascontiguousarray(counts[: len(found), : len(found)]) if found[-1] == len(found) - 1 else counts[np.ix_(found, found)]
        return counts, [bool(k) for k in found] if booleans else found
    if size * size > 2 * len(actual):  # a large table: the labels present, from the data (two cheap passes)
        seen = (np.bincount(actual, minlength=size) > 0) | (np.bincount(predicted, minlength=size) > 0)
    else:
        seen = np.asarray(counts.any(axis=0) | counts.any(axis=1))
        if weight is not None and not seen.all() and weight.min() == 0:  # a label of zero-weight samples only is still a label
            seen = seen | (np.bincount(actual, minlength=size) > 0) | (np.bincount(predicted, minlength=size) > 0)
    present = np.flatnonzero(seen)
    if len(present) < len(counts):  # (labels 0 .. k-1, the common case: a slice, no gather)
        counts = np.ascontiguousarray(counts[: len(present), : len(present)]) if not len(present) or present[-1] == len(present) - 1 else counts[np.ix_(present, present)]
    return counts, [bool(k) for k in present.tolist()] if booleans else present.tolist()


def _value_space_counts(actual: np.ndarray, predicted: np.ndarray, table_limit: int, weight: np.ndarray | None) -> np.ndarray | None:
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
        return pair_table(actual * size + predicted, weight, size * size).reshape(size, size)
    chunk = _CHUNK
    head = int(np.bitwise_or.reduce(actual[:chunk]) | np.bitwise_or.reduce(predicted[:chunk]))
    whole = (head + 1) ** 2 > _SMALL_CHUNKED_TABLE or _float_weights(weight)  # one bincount at the end over all flat indexes (float weights: summed exactly)
    flat_all: Any = np.empty(n, dtype=np.intp) if whole else None
    buffer: Any = None if whole else np.empty(chunk, dtype=np.intp)
    exact_float = weight is not None and weight.dtype.kind == "i" and weighted_sum(weight, None) < EXACT_FLOAT_SUM
    accumulator = np.float64 if weight is not None and (weight.dtype.kind == "f" or exact_float) else np.int64
    bound, size, high = 0, 1, 0
    out = np.zeros(1, dtype=accumulator)
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
                table = np.zeros((grown, grown), dtype=accumulator)
                table[:size, :size] = out.reshape(size, size)
                out = table.ravel()
            bound, size = bound | bits, grown
        flat = flat_all[start:stop] if whole else buffer[: stop - start]
        np.multiply(a, size, out=flat, dtype=np.intp)
        np.add(flat, p, out=flat, dtype=np.intp)
        if not whole:
            if weight is None:
                out += np.bincount(flat, minlength=size * size)
            elif accumulator is np.float64:
                out += np.bincount(flat, weights=weight[start:stop], minlength=size * size)
            else:
                np.add.at(out, flat, weight[start:stop])
    if whole:
        table = pair_table(flat_all, weight, size * size).reshape(size, size)
        return table if high + 1 == size else np.ascontiguousarray(table[: high + 1, : high + 1])
    if weight is not None and weight.dtype.kind == "i":
        out = out.astype(np.int64)
    return out.reshape(size, size)


def _relabel(counted: tuple[np.ndarray, list], fixed: tuple | None, max_cells: int | None) -> tuple[np.ndarray, tuple]:
    """Counts over observed integer values as counts over the final labels (sorted, or ``fixed``)."""
    counts, values = counted
    if fixed is None:
        _check_cells(len(values), max_cells)
        return counts, tuple(values)
    in_actual = np.asarray(counts.any(axis=1))
    check_booleans_apart([*(("labels", label) for label in fixed), *(("y_true" if in_actual[0] else "y_pred", value) for value in values[:1])])
    index = {label: position for position, label in enumerate(fixed)}
    target = []
    for k, value in enumerate(values):
        if value not in index:
            argument = "y_true" if in_actual[k] else "y_pred"
            raise UnknownLabelError(f"{argument!r} contains {describe(value)}, which is not in 'labels' {show(list(fixed))}")
        target.append(index[value])
    result = np.zeros((len(fixed), len(fixed)), dtype=counts.dtype)
    result[np.ix_(target, target)] = counts
    return result, fixed


# --------------------------------------------------------------------------------------------
# labels to codes


def encode(
    y_true: LabelsLike, y_pred: LabelsLike, labels: Sequence[Any] | None = None, *, sample_weight: ArrayLike | None = None, names: tuple[str, str] = ("y_true", "y_pred")
) -> tuple[np.ndarray, np.ndarray, tuple, np.ndarray | None]:
    """Codes (positions in the label order) of actual and predicted labels, the labels, and the
    checked sample weights (``None`` when none were given); ``names`` are the arguments that
    messages name.

    Validation and the label order are those of ``confusion_counts``; no table is counted.

    Examples:
        >>> codes_true, codes_pred, labels, _ = encode(["b", "a", "c"], ["a", "a", "b"])
        >>> codes_true.tolist(), codes_pred.tolist(), labels
        ([1, 0, 2], [0, 0, 1], ('a', 'b', 'c'))
    """
    fixed = None if labels is None else check_label_list(labels)
    actual, predicted, weight = _samples(y_true, y_pred, sample_weight, names)
    if len(actual) == 0:
        if not fixed:
            raise EmptyInputError(f"{names[0]!r} and {names[1]!r} are empty and no 'labels' were given: nothing to count")
        empty = np.zeros(0, dtype=np.intp)
        return empty, empty.copy(), fixed, weight
    observed = _observe(actual, predicted, names)
    lookup, found = _lookup(observed, fixed, ((names[0], actual), (names[1], predicted)))
    if fixed is None and observed.positions_are_codes():  # labels 0, 1, ..., k - 1: their codes copied, no gather
        codes_true, codes_pred = (positions.astype(np.intp) for positions in observed.positions)
    else:
        codes_true, codes_pred = (lookup[positions] for positions in observed.positions)
    return codes_true, codes_pred, found, weight


@attrs.frozen
class _Observed:
    """Where each sample's label is among the distinct observed values of two inputs.

    ``table[positions[k][i]]`` is the index in ``values`` of sample ``i``'s label in input
    ``k`` (``positions`` themselves when ``table`` is None). ``in_actual`` tells which values
    occur in ``y_true`` (for error messages; computed when first asked for).
    """

    positions: tuple[np.ndarray, np.ndarray]
    table: np.ndarray | None
    values: list
    checked: bool  # values are valid, unified labels in sorted order already (numeric paths)
    actual_values: Callable[[], np.ndarray]

    def in_actual(self) -> np.ndarray:
        return self.actual_values()

    def positions_are_codes(self) -> bool:
        """Whether ``positions`` are the sorted labels' codes already (with no fixed labels):
        checked values with no table, or a table of as many entries as values (a checked
        table follows the values' order onto every value, so it is then the identity)."""
        return self.checked and (self.table is None or len(self.table) == len(self.values))


def _observe(actual: np.ndarray | list | Coded, predicted: np.ndarray | list | Coded, names: tuple[str, str] = ("y_true", "y_pred")) -> _Observed:
    """The distinct labels of both inputs, by the fastest exact path for their types (``names``:
    the arguments messages name)."""
    if isinstance(actual, Coded) and isinstance(predicted, Coded):
        return _coded_positions(actual, predicted)
    kinds = "".join(x.dtype.kind if isinstance(x, np.ndarray) else "O" for x in (actual, predicted))
    if "b" in kinds and kinds != "bb" and set(kinds) <= set("biuf"):
        boolean, other = names if kinds[0] == "b" else names[::-1]
        raise MixedLabelTypesError(
            f"labels mix booleans (in {boolean!r}) and numbers (in {other!r}), and True == 1 in Python; "
            "evalkit never merges them, convert the labels to one type"
        )
    if "O" not in kinds:  # both are arrays
        arrays = cast(np.ndarray, actual), cast(np.ndarray, predicted)
        if set(kinds) <= set("biu"):
            return _integer_positions(*arrays)
        if set(kinds) <= set("iuf"):
            return _number_positions(*arrays, names)
        if kinds in ("UU", "SS") and len(actual) >= _HASH_MIN_SAMPLES:
            observed = _fixed_width_positions(*arrays)
            if observed is not None:
                return observed
    sequences = [x.tolist() if isinstance(x, np.ndarray) else cast(list, x) for x in (actual, predicted)]  # (two columns of codes or none: _samples)
    return _hashed_positions(sequences[0], sequences[1], names)


def _dictionary_ids(actual: Coded, predicted: Coded) -> tuple[list, np.ndarray, np.ndarray]:
    """The labels of both columns' dictionaries, once each, and each dictionary's entries'
    positions among them (an Arrow dictionary may hold a value twice: both entries are one label)."""
    shared = actual.categories is predicted.categories or same_value(actual.categories, predicted.categories)
    if shared and len(set(actual.categories)) == len(actual.categories):
        return actual.categories, np.arange(len(actual.categories)), np.arange(len(actual.categories))
    index: dict[Any, int] = {}
    first, second = (np.array([index.setdefault(label, len(index)) for label in column.categories], dtype=np.intp) for column in (actual, predicted))
    return list(index), first, second


def _common_dictionary(actual: Coded, predicted: Coded) -> tuple[list, np.ndarray, np.ndarray]:
    """The labels of both dictionaries and each column's codes into them (as they are where
    the dictionaries are one; through a table of a dictionary otherwise: one pass over its codes)."""
    categories, *ids = _dictionary_ids(actual, predicted)
    first, second = (column.codes if np.array_equal(table, np.arange(len(table))) else table[column.codes] for table, column in zip(ids, (actual, predicted)))
    return categories, first, second


def _coded_positions(actual: Coded, predicted: Coded) -> _Observed:
    """Two columns of codes: positions are their codes into both dictionaries, and the distinct
    labels those that occur."""
    categories, first, second = _common_dictionary(actual, predicted)
    seen = [np.bincount(codes, minlength=len(categories)) > 0 for codes in (first, second)]
    present = np.flatnonzero(seen[0] | seen[1])
    table = np.zeros(len(categories), dtype=np.intp)
    table[present] = np.arange(len(present))
    in_actual = seen[0][present]
    return _Observed((first, second), table, [categories[spot] for spot in present.tolist()], False, lambda: in_actual)


def _coded_counts(actual: Coded, predicted: Coded, fixed: tuple | None, weight: np.ndarray | None) -> tuple[np.ndarray, tuple] | None:
    """``confusion_counts`` of two columns of codes, by one ``bincount`` of the codes over every
    pair of their dictionaries' labels (those that occur kept); None for dictionaries too large
    for such a table beside the data."""
    first, second = actual.codes, predicted.codes
    rows, columns = len(actual.categories), len(predicted.categories)
    if rows * columns > max(1 << 20, 4 * len(first)):
        return None
    counted = pair_table(first.astype(np.intp) * columns + second, weight, rows * columns).reshape(rows, columns)  # over each column's own dictionary
    categories, row_ids, column_ids = _dictionary_ids(actual, predicted)
    k = len(categories)
    table = np.zeros((k, k), dtype=counted.dtype)
    np.add.at(table, (row_ids[:, None], column_ids[None, :]), counted)  # (two entries of one label add up)
    nonzero = np.asarray(table != 0)  # (exact sums of float weights too)
    in_actual: np.ndarray = np.asarray(nonzero.any(axis=1))
    seen = in_actual | nonzero.any(axis=0)
    if weight is not None and not seen.all() and weight.min() == 0:  # a label of zero-weight samples only is still a label
        np.logical_or.at(in_actual, row_ids, np.bincount(first, minlength=rows) > 0)
        np.logical_or.at(seen, column_ids, np.bincount(second, minlength=columns) > 0)
        seen |= in_actual
    present = np.flatnonzero(seen)
    observed = _Observed((first, second), None, [categories[spot] for spot in present.tolist()], False, lambda: in_actual[present])
    lookup, found = _lookup(observed, fixed, (("y_true", actual), ("y_pred", predicted)))
    counts = np.zeros((len(found), len(found)), dtype=table.dtype)
    counts[np.ix_(lookup, lookup)] = table[np.ix_(present, present)]
    return counts, found


def _unique_positions(arrays: list[np.ndarray], values: Callable[[np.ndarray], list]) -> _Observed:
    """Positions by ``np.unique`` of both inputs together (sorted values)."""
    together = np.concatenate(arrays)
    if together.dtype.kind == "f" and all(array.dtype.kind in "iu" for array in arrays):  # int64 beside uint64: numpy's common type is float64, Python's ints are exact
        together = np.concatenate([array.astype(object) for array in arrays])
    distinct, inverse = np.unique(together, return_inverse=True)
    inverse = inverse.ravel().astype(np.intp)
    n = len(arrays[0])

    def in_actual() -> np.ndarray:
        seen = np.zeros(len(distinct), dtype=bool)
        seen[inverse[:n]] = True
        return seen

    return _Observed((inverse[:n], inverse[n:]), None, values(distinct), True, in_actual)


def _integer_positions(actual: np.ndarray, predicted: np.ndarray) -> _Observed:
    """Integer (or boolean) labels: a presence table over a small value range, else ``np.unique``."""
    arrays = [actual, predicted]
    low = min(int(array.min()) for array in arrays if array.size)
    high = max(int(array.max()) for array in arrays if array.size)
    as_values = (lambda distinct: [bool(v) for v in distinct.tolist()]) if actual.dtype.kind == "b" else (lambda d: d.tolist())
    limit = max(1 << 20, 4 * sum(map(len, arrays)))
    if high - min(low, 0) < limit:
        start = min(low, 0)  # small non-negative labels index the table as they are: no shifted copy of the data
    elif high - low < limit:
        start = low
    else:
        return _unique_positions(arrays, as_values)
    # booleans index as 0/1 through a uint8 view (a bool array would index as a mask)
    arrays = [array.view(np.uint8) if array.dtype.kind == "b" else array for array in arrays]
    positions = [array.astype(np.intp, copy=False) - start if start else array for array in arrays]
    seen = [np.zeros(high - start + 1, dtype=bool) for _ in arrays]
    for flags, where in zip(seen, positions):
        flags[where] = True
    present = seen[0] | seen[1]
    table = np.cumsum(present, dtype=np.intp) - 1
    kept = np.flatnonzero(present)
    in_actual = seen[0][kept]
    return _Observed((positions[0], positions[1]), table, as_values(kept + start), True, lambda: in_actual)


def _number_positions(actual: np.ndarray, predicted: np.ndarray, names: tuple[str, str]) -> _Observed:
    """Numeric arrays with floats among them: NaN rejected, and integers kept exact.

    An int64 id above 2**53 stays itself (never rounded to a float); with ints present,
    integral floats are those ints (``1.0`` is the class ``1``).
    """
    for argument, array in zip(names, (actual, predicted)):
        missing = np.flatnonzero(~np.isfinite(array)) if array.dtype.kind == "f" else np.empty(0, dtype=np.intp)
        if len(missing):
            shown = "NaN" if np.isnan(array[missing[0]]) else repr(float(array[missing[0]]))
            raise InvalidLabelError(f"{argument!r} contains {shown} (first at position {missing[0]}), which cannot be a label (as scikit-learn refuses it)")
    if actual.dtype.kind == "f" and predicted.dtype.kind == "f":
        return _unique_positions([actual, predicted], lambda distinct: distinct.tolist())
    parts = []
    for array in (actual, predicted):
        distinct, inverse = np.unique(array, return_inverse=True)
        values = distinct.tolist()
        if array.dtype.kind == "f":
            values = [int(value) if value.is_integer() else value for value in values]
        parts.append((inverse.ravel().astype(np.intp), values))
    union = sorted(set(parts[0][1]) | set(parts[1][1]))
    index = {value: code for code, value in enumerate(union)}
    codes = [np.array([index[value] for value in values], dtype=np.intp)[inverse] for inverse, values in parts]
    in_actual = np.zeros(len(union), dtype=bool)
    in_actual[[index[value] for value in parts[0][1]]] = True
    return _Observed((codes[0], codes[1]), None, union, True, lambda: in_actual)


def _hashed_positions(actual: list, predicted: list, names: tuple[str, str] = ("y_true", "y_pred")) -> _Observed:
    """The general path: one dict pass per input at C speed.

    ``index.setdefault(label, position)`` keeps the position of each label's first
    occurrence, so each input is encoded in a single ``map``; a table of the distinct labels'
    first positions then turns positions into dense codes. A label first seen at a position
    below ``n`` occurs in ``y_true``; one first seen later does not.
    """
    n = len(actual)
    position_type = np.int32 if 2 * n < 2**31 else np.int64  # half the memory for the usual sizes
    index: dict[Any, int] = {}
    try:
        first = [
            np.fromiter(map(index.setdefault, sequence, itertools.count(offset)), dtype=position_type, count=len(sequence))
            for sequence, offset in ((actual, 0), (predicted, n))
        ]
    except TypeError:
        _raise_at_first_invalid(((names[0], actual), (names[1], predicted)))  # the first unhashable label
        raise  # pragma: no cover - the search above raises
    positions = np.fromiter(index.values(), dtype=np.int64, count=len(index))
    table = np.zeros(2 * n, dtype=np.intp)
    table[positions] = np.arange(len(positions))
    return _Observed((first[0], first[1]), table, list(index), False, lambda: positions < n)


def _fixed_width_positions(actual: np.ndarray, predicted: np.ndarray) -> _Observed | None:
    """Numpy string arrays without a Python string per sample.

    Each string is hashed from its code units, the hashes pick slots of a table, and every
    string is compared with its slot's representative. Exact: on any collision it returns
    None and the caller takes the dict path.
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
    for offset, slot in ((1, slots[1]), (0, slots[0])):  # y_true last: its positions win where both have a value
        representative[slot] = np.arange(n) + offset * n
        seen[slot] = True
    used = np.flatnonzero(seen)
    where = representative[used]
    values = np.where(where < n, arrays[0][np.minimum(where, n - 1)], arrays[1][np.maximum(where - n, 0)])
    codes = np.zeros(table, dtype=np.intp)
    codes[used] = np.arange(len(used))
    for array, slot in zip(arrays, slots):
        for start in range(0, n, _CHUNK):
            if not np.array_equal(values[codes[slot[start : start + _CHUNK]]], array[start : start + _CHUNK]):
                return None
    return _Observed((slots[0], slots[1]), codes, values.tolist(), False, lambda: where < n)


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


def _raise_at_first_invalid(inputs: tuple[tuple[str, Any], ...]) -> None:
    """The error of the first value that cannot be a label (None, NaN, a missing value, an
    unhashable value), with its position: the data are searched again, which only an error
    pays for."""
    for argument, sequence in inputs:
        for position, value in enumerate(decoded(sequence) if isinstance(sequence, Coded) else sequence):
            try:
                check_label(argument, value)
            except (InvalidLabelError, InvalidTypeError, InputShapeError) as error:
                raise type(error)(f"{error} (first at position {position})") from None


def _lookup(observed: _Observed, fixed: tuple | None, inputs: tuple[tuple[str, Any], ...]) -> tuple[np.ndarray, tuple]:
    """A table from positions to final codes (sorted labels, or ``fixed``), and the labels.

    Values of the general paths are validated here (None, NaN, nested sequences, mixed
    types, booleans among numbers) and sorted; those of the numeric paths are valid and sorted
    already.
    """
    values = observed.values
    k = len(values)
    if observed.checked:
        observed_labels, arguments = values, None
    else:
        in_actual = observed.in_actual()
        arguments = [inputs[0][0] if in_actual[i] else inputs[1][0] for i in range(k)]
        try:
            observed_labels = [check_label(argument, value) for argument, value in zip(arguments, values)]
        except InvalidLabelError:
            _raise_at_first_invalid(inputs)
            raise  # pragma: no cover - the search above raises
        check_same_kind(zip(arguments, observed_labels))
        observed_labels = unify_numbers(observed_labels, ((argument, x.present() if isinstance(x, Coded) else x.tolist() if isinstance(x, np.ndarray) else x)
                                                          for argument, x in inputs))  # fmt: skip  (read only where numbers are labels)
    if fixed is None:
        if observed.checked:
            target, found = None, tuple(observed_labels)
        else:
            try:
                order = sorted(range(k), key=observed_labels.__getitem__)
            except TypeError:
                sorted_labels(observed_labels, f"{inputs[0][0]}/{inputs[1][0]}" if inputs[0][0] != inputs[1][0] else inputs[0][0])  # raises, readably
                raise  # pragma: no cover
            target = np.empty(k, dtype=np.intp)
            target[order] = np.arange(k)
            found = tuple(observed_labels[i] for i in order)
    else:
        if arguments is None:
            in_actual = observed.in_actual()
            arguments = [inputs[0][0] if in_actual[i] else inputs[1][0] for i in range(k)]
        check_booleans_apart([*(("labels", label) for label in fixed), *zip(arguments, observed_labels)])
        index = {label: position for position, label in enumerate(fixed)}
        target = np.empty(k, dtype=np.intp)
        for i, (argument, label) in enumerate(zip(arguments, observed_labels)):
            if label not in index:
                raise UnknownLabelError(f"{argument!r} contains {describe(label)}, which is not in 'labels' {show(list(fixed))}")
            target[i] = index[label]
        found = fixed
    if observed.table is None:
        return (np.arange(k, dtype=np.intp) if target is None else target), found
    return (observed.table if target is None else target[observed.table]), found


def _float_weights(weight: np.ndarray | None) -> bool:
    return weight is not None and weight.dtype.kind == "f"


def pair_table(flat: np.ndarray, weight: np.ndarray | None, cells: int) -> np.ndarray:
    """The counts of flat cell indexes: whole (int64), or for float weights their exact sums (an
    object array, ``exact_bincount``), which parts merged in any order give to the last bit."""
    if weight is None or not _float_weights(weight):
        return weighted_bincount(flat, weight, cells)
    if cells <= _EXACT_DENSE_CELLS:
        return exact_bincount(flat, weight, cells)
    keys, inverse = np.unique(flat, return_inverse=True)  # a large table: only the cells that occur are summed
    table = np.zeros(cells, dtype=object)
    table[keys] = exact_bincount(inverse.ravel(), weight, len(keys))
    return table


def _pair_counts(actual: np.ndarray, predicted: np.ndarray, lookup: np.ndarray, size: int, weight: np.ndarray | None) -> np.ndarray:
    """``bincount(lookup[actual] * size + lookup[predicted])`` as a size x size matrix, weighted.

    Small tables are counted in cache-sized chunks through one reused buffer (no n-sized
    temporary); large tables, where the scattered increments dominate, in one pass. Integer
    weights are summed exactly (see ``evalkit._engine._exact``).
    """
    cells, n = size * size, len(actual)
    if _float_weights(weight) or weight is not None and weighted_sum(weight, None) >= EXACT_FLOAT_SUM:
        return pair_table(lookup[actual] * size + lookup[predicted], weight, cells).reshape(size, size)  # the exact, slower path
    chunk = n if cells > _SMALL_TABLE else max(_CHUNK, 4 * cells)
    out = np.zeros(cells, dtype=np.int64 if weight is None else np.float64)
    buffer = np.empty(min(chunk, n), dtype=np.intp)
    for start in range(0, n, chunk):
        stop = min(start + chunk, n)
        flat = buffer[: stop - start]
        np.multiply(lookup[actual[start:stop]], size, out=flat, dtype=np.intp)
        np.add(flat, lookup[predicted[start:stop]], out=flat, dtype=np.intp)
        out += np.bincount(flat, minlength=cells) if weight is None else np.bincount(flat, weights=weight[start:stop], minlength=cells)
    if weight is not None and weight.dtype.kind == "i":
        out = out.astype(np.int64)  # integer weights summed below 2**53: exact
    return out.reshape(size, size)


_SET_TYPES = (set, frozenset, list, tuple, np.ndarray)


def is_label_set_data(values: object) -> TypeGuard[LabelSets]:
    """Whether ``values`` look like one label collection per sample (judged by the first), or
    are a dataframe column of lists."""
    if list_column(values) is not None:
        return True
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        return False  # (the constructors say what is wrong with it)
    first = next(iter(values), None) if not isinstance(values, np.ndarray) or values.dtype == object else None
    return isinstance(first, _SET_TYPES)


def indicator_rows(values: Any, m: int) -> Any:
    """``values`` as an ``n x m`` array when it is a list of equal-length lists of 0/1 (indicator
    rows, as scikit-learn reads them), else ``values`` unchanged: a list of lists is not label
    sets where the scores have ``m`` columns and every row has ``m`` 0/1 entries.

    Examples:
        >>> indicator_rows([[0, 1], [1, 0]], 2).tolist(), indicator_rows([["a"], ["b", "c"]], 2)
        ([[0, 1], [1, 0]], [['a'], ['b', 'c']])
    """
    if not isinstance(values, (list, tuple)) or not values or not all(type(row) in (list, tuple) and len(row) == m for row in values):
        return values
    if not all(type(entry) in (int, bool) and entry in (0, 1) for row in values for entry in row):
        return values
    return np.array(values, dtype=np.int64)


def as_label_set_list(values: Any, argument: str) -> list:
    """A list with one label collection per sample (set, frozenset, list, tuple or 1-D array;
    a dataframe column of lists, read by Arrow)."""
    rows = label_set_rows(values, argument)
    if rows is not None:
        return rows
    if isinstance(values, np.ndarray) and values.ndim == 2 and values.dtype != object:
        raise InputShapeError(f"{argument!r} is a 2-D array {values.shape}: for 0/1 indicator rows use from_indicators")
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise InvalidTypeError(f"{argument!r} must be a sequence of label sets, got {show(values)}")
    check_ordered(values, argument, "label sets")
    sets = list(values)
    for kind in set(map(type, sets)):
        if not issubclass(kind, _SET_TYPES):
            position, example = next((i, v) for i, v in enumerate(sets) if type(v) is kind)
            raise InvalidTypeError(
                f"{argument!r} must hold one label set per sample (a set, list or tuple); "
                f"element {position} is a {kind.__name__}: {show(example)}"
            )
    return sets


def encode_label_sets(actual: LabelSets, predicted: LabelSets, labels: Sequence[Any] | None = None) -> tuple[np.ndarray, np.ndarray, tuple, int]:
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
    (keys_actual, keys_predicted), found, n = _label_set_keys({"y_true": actual, "y_pred": predicted}, labels)
    return keys_actual, keys_predicted, found, n


def encode_label_set_family(label_sets: LabelSets, labels: Sequence[Any] | None = None, argument: str = "label_sets") -> tuple[np.ndarray, tuple, int]:
    """Sparse keys of one family of label sets: ``(keys, labels, n)`` (see ``encode_label_sets``)."""
    (keys,), found, n = _label_set_keys({argument: label_sets}, labels)
    return keys, found, n


def _label_set_keys(families: dict[str, Any], labels: Sequence[Any] | None) -> tuple[list[np.ndarray], tuple, int]:
    """Keys of every family in one pass over its labels: ``index.setdefault`` keeps each
    label's first position (as in ``_hashed_positions``), and a table of those positions turns
    them into codes in the final label order."""
    fixed = None if labels is None else check_label_list(labels)
    sets: dict[str, list | CodedSets] = {argument: coded_sets(values, argument) or as_label_set_list(values, argument) for argument, values in families.items()}
    lengths = {argument: len(collection) for argument, collection in sets.items()}
    n = next(iter(lengths.values()))
    for argument, length in lengths.items():
        if length != n:
            first = next(iter(lengths))
            raise InputLengthError(f"{first!r} has {n} samples but {argument!r} has {length}")
    index: dict[Any, int] = {}
    samples, positions, starts = {}, {}, [0]
    given: dict[str, Iterable[object]] = {}  # each family's labels, for the number rules
    for argument, collection in sets.items():
        if isinstance(collection, CodedSets):  # a column of lists: its categories that occur, each once, and the codes' positions
            coded = collection.labels
            present = coded.occurring()
            given[argument] = [coded.categories[k] for k in present.tolist()]
            spots = np.zeros(len(coded.categories), dtype=np.int64)
            spots[present] = np.fromiter(map(index.setdefault, given[argument], itertools.count(starts[-1])), dtype=np.int64, count=len(present))
            samples[argument], positions[argument] = collection.rows, spots[coded.codes]
            starts.append(starts[-1] + len(present))
            continue
        sizes = np.fromiter(map(len, collection), dtype=np.int64, count=n)
        total = int(sizes.sum())
        given[argument] = itertools.chain.from_iterable(collection)
        try:
            positions[argument] = np.fromiter(map(index.setdefault, itertools.chain.from_iterable(collection), itertools.count(starts[-1])), dtype=np.int64, count=total)
        except TypeError:
            for label in itertools.chain.from_iterable(collection):
                check_label(argument, label)  # raises on the first unhashable label
            raise  # pragma: no cover
        samples[argument] = np.repeat(np.arange(n, dtype=np.int64), sizes)
        starts.append(starts[-1] + total)
    first_positions = np.fromiter(index.values(), dtype=np.int64, count=len(index))
    owners = np.searchsorted(starts[1:], first_positions, side="right")  # the family each label was first seen in
    arguments = [list(sets)[k] for k in owners.tolist()]
    observed = [check_label(argument, value) for argument, value in zip(arguments, index)]
    check_same_kind(zip(arguments, observed))
    observed = unify_numbers(observed, list(given.items()))
    if fixed is None:
        if not observed and n == 0:
            raise EmptyInputError(f"{', '.join(map(repr, families))} are empty and no 'labels' were given: nothing to count")
        found = sorted_labels(observed, "/".join(families))
    else:
        check_booleans_apart([*(("labels", label) for label in fixed), *zip(arguments, observed)])
        known = set(fixed)
        for argument, label in zip(arguments, observed):
            if label not in known:
                raise UnknownLabelError(f"{argument!r} contains {describe(label)}, which is not in 'labels' {show(list(fixed))}")
        found = fixed
    code_of = {label: code for code, label in enumerate(found)}
    table = np.zeros(starts[-1], dtype=np.int64)
    table[first_positions] = [code_of[label] for label in observed]
    m = len(found)
    keys = [unique_sorted(samples[argument] * m + table[positions[argument]]) for argument in sets]
    return keys, found, n


if not TYPE_CHECKING:  # the names this module gave in evalkit 0.1.0 and lost, found with a warning
    __getattr__ = moved_names.finder(__name__)
