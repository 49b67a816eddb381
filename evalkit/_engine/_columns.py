"""Label columns of dataframe libraries, read where they live: a column that holds its labels
as codes into a dictionary (a pandas ``category``, an Arrow ``dictionary``, a polars
``Categorical`` or ``Enum``) is counted from its codes, never decoded; a column of strings
(Arrow, polars, pandas' Arrow-backed ``str``) is dictionary-encoded by Arrow first, so no
Python string is made per sample. No dataframe library is imported here: a column is known by
its type's module and read through the library's own methods (``__arrow_array__``,
``to_arrow``, pyarrow's ``dictionary_encode``).

A column of lists (an Arrow ``list``, a polars ``List``, a pandas column of Arrow lists) is
one label set per sample: ``label_set_rows`` reads it through Arrow.

Examples:
    >>> import pandas as pd
    >>> coded = coded_column(pd.Series(["b", "a", "b"], dtype="category"), "y_true")
    >>> coded.codes.tolist(), coded.categories
    ([1, 0, 1], ['a', 'b'])
"""

from __future__ import annotations

from typing import Any, cast

import attrs
import numpy as np

from evalkit.exceptions import InvalidLabelError

__all__ = ["Coded", "CodedSets", "coded_column", "coded_sets", "decoded", "fixed_size_table", "label_set_rows", "list_column"]


@attrs.frozen(eq=False)
class Coded:
    """A column as codes (non-negative integers, one per sample) into its ``categories``
    (distinct labels; some may never occur)."""

    codes: np.ndarray
    categories: list

    def __len__(self) -> int:
        return len(self.codes)

    def occurring(self) -> np.ndarray:
        """The positions of the categories that occur (one pass over the codes)."""
        return np.flatnonzero(np.bincount(self.codes, minlength=len(self.categories)))

    def present(self) -> list:
        """The categories that occur, in the order of the dictionary."""
        return [self.categories[k] for k in self.occurring().tolist()]


def coded_column(values: object, argument: str) -> Coded | None:
    """``values`` as codes into its dictionary, if it is a dataframe library's column that has
    one or whose strings Arrow encodes; None for anything else (numpy arrays, lists, columns of
    numbers: read as they are).

    Raises:
        InvalidLabelError: a missing label (a null, or a category code of -1).
    """
    if isinstance(values, (np.ndarray, list, tuple)):  # (the common inputs: no look at their type's module)
        return None
    if isinstance(values, Coded):
        return values
    module = type(values).__module__
    if module.startswith("pandas"):
        dtype = getattr(values, "dtype", None)
        if getattr(dtype, "name", None) == "category":  # a Series (its .cat), a Categorical or a CategoricalIndex
            holder = cast(Any, getattr(values, "cat", values))
            return _checked(np.asarray(holder.codes), holder.categories.tolist(), argument)
        array = getattr(values, "array", values)
        if getattr(dtype, "name", None) in ("str", "string") and hasattr(array, "__arrow_array__"):
            try:
                return _arrow(array.__arrow_array__(), argument)
            except ImportError:  # (a Python-backed string column without pyarrow: read as objects)
                return None
        return None
    if module.startswith("polars"):
        dtype = getattr(values, "dtype", None)
        dtype_name = type(dtype).__name__
        if dtype_name in ("Categorical", "Enum"):
            coded = _polars_codes(values, dtype, argument)
            if coded is not None:
                return coded
        if dtype_name in ("Categorical", "Enum", "String", "Utf8") and hasattr(values, "to_arrow"):
            return _arrow(values.to_arrow(), argument)
        return None
    if module.startswith("pyarrow"):
        return _arrow(values, argument)
    return None


_FEW_CATEGORIES = 64
"""Up to this many categories a polars Categorical's codes index its categories as they are."""


def _polars_codes(column: object, kind: object, argument: str) -> Coded | None:
    """A polars ``Enum`` or ``Categorical`` series as its physical codes into its categories,
    with no dictionary built (Arrow's costs a pass over the column): an Enum's own categories;
    the categories of a Categorical's codes ``0 .. max``, read from polars for those codes alone
    (its categories are shared by the whole process; codes far apart in a large one are
    renumbered in order). None where polars cannot say (polars 1): the caller reads the column
    through Arrow.

    Raises:
        InvalidLabelError: a missing label (a null).
    """
    import polars  # (the column is polars': polars is there)

    values, dtype = cast(Any, column), cast(Any, kind)
    if values.null_count():
        first = int(values.is_null().arg_true()[0])
        raise InvalidLabelError(f"{argument!r} contains a missing value (null), which cannot be a class label (first at position {first})")
    codes = values.to_physical().to_numpy()
    if type(dtype).__name__ == "Enum":
        return _checked(codes, dtype.categories.to_list(), argument)
    top = int(codes.max()) + 1 if len(codes) else 0
    wanted = np.arange(top, dtype=np.uint32)
    if top > _FEW_CATEGORIES:  # a large process-wide dictionary: the codes present alone, if they are few
        present = np.unique(codes) if top > 4 * len(codes) else np.flatnonzero(np.bincount(codes, minlength=top)).astype(np.uint32)
        wanted = wanted if 2 * len(present) >= top else present
    try:
        categories = polars.Series(wanted).cat.to(dtype).cast(polars.String).to_list()
    except (AttributeError, polars.exceptions.PolarsError):  # (polars 1 has no such cast)
        return None
    return _checked(codes if len(wanted) == top else np.searchsorted(wanted, codes), categories, argument)


def _arrow(column: object, argument: str, *, numbers: bool = False) -> Coded | None:
    """An Arrow array or chunked array of dictionary-encoded labels or of strings as codes (and,
    with ``numbers``, of any labels Arrow hashes: a column of lists' labels).

    Raises:
        pyarrow.ArrowNotImplementedError: ``numbers``, and values Arrow does not hash (lists).
    """
    import pyarrow  # (the column is Arrow's: pyarrow is there)
    import pyarrow.compute

    values = cast(Any, column)
    kind = getattr(values, "type", None)
    if kind is None:
        return None
    if numbers or pyarrow.types.is_string(kind) or pyarrow.types.is_large_string(kind) or str(kind) == "string_view":
        if not pyarrow.types.is_dictionary(kind):
            values = pyarrow.compute.dictionary_encode(values)  # Arrow's hashing: no Python value per sample
    elif not pyarrow.types.is_dictionary(kind):
        return None  # (numbers and others: numpy reads them)
    if isinstance(values, pyarrow.ChunkedArray):
        values = values.unify_dictionaries().combine_chunks() if values.num_chunks else pyarrow.array([], type=values.type)
    if values.null_count:
        raise InvalidLabelError(f"{argument!r} contains a missing value (null), which cannot be a class label (first at position {_first_null(values)})")
    return _checked(values.indices.to_numpy(zero_copy_only=False), values.dictionary.to_pylist(), argument)


def _first_null(values: Any) -> int:
    """The position of the first null of an Arrow array."""
    return int(np.flatnonzero(np.asarray(values.is_null()))[0])


def _checked(codes: np.ndarray, categories: list, argument: str) -> Coded:
    if len(codes) and codes.min() < 0:  # pandas' code of a missing value
        first = int(np.flatnonzero(codes < 0)[0])
        raise InvalidLabelError(f"{argument!r} contains a missing value (NaN), which cannot be a class label (first at position {first})")
    return Coded(codes, categories)


def decoded(column: Coded) -> np.ndarray:
    """The labels of a coded column as a numpy array (strings as fixed-width strings, numbers
    as numbers, anything else as objects): what a column beside one that is not coded is read as.

    Examples:
        >>> decoded(Coded(np.array([1, 0, 1]), ["a", "b"])).tolist()
        ['b', 'a', 'b']
    """
    kinds = {type(category) for category in column.categories}
    if kinds <= {str} or kinds <= {int} or kinds <= {float}:
        table = np.array(column.categories) if column.categories else np.zeros(0, dtype=np.int64)
    else:
        table = np.empty(len(column.categories), dtype=object)
        table[:] = column.categories
    return table[column.codes]


def list_column(values: object, *, fixed_size: bool = False) -> object | None:
    """``values`` as an Arrow array (or chunked array) of lists, if it is a dataframe library's
    column of lists of any length: an Arrow ``list`` or ``large_list`` column, a polars ``List``
    series, a pandas column of Arrow lists; None for anything else. A column of lists of one
    fixed size (an Arrow ``fixed_size_list``, a polars ``Array``) is a table, of indicator rows,
    unless ``fixed_size`` (label sets asked for by name)."""
    if isinstance(values, (np.ndarray, list, tuple)):
        return None
    module = type(values).__module__
    if module.startswith("polars"):
        if type(getattr(values, "dtype", None)).__name__ in (("List", "Array") if fixed_size else ("List",)) and hasattr(values, "to_arrow"):
            return cast(Any, values).to_arrow()
        return None
    if module.startswith("pandas"):
        array = getattr(values, "array", None)
        if "list" not in str(getattr(values, "dtype", "")) or not hasattr(array, "__arrow_array__"):
            return None
        values = cast(Any, array).__arrow_array__()
    elif not module.startswith("pyarrow"):
        return None
    import pyarrow  # (the column is Arrow's: pyarrow is there)

    if not isinstance(values, (pyarrow.Array, pyarrow.ChunkedArray)):
        return None  # (a scalar: no column)
    listed = pyarrow.types.is_list(values.type) or pyarrow.types.is_large_list(values.type) or (fixed_size and pyarrow.types.is_fixed_size_list(values.type))
    return values if listed else None


def fixed_size_table(values: object) -> np.ndarray | None:
    """An Arrow column of lists of one fixed size (``fixed_size_list``, with no null list) as a
    2-D numpy array, one row per list: a table; None for anything else.

    Examples:
        >>> import pyarrow as pa
        >>> fixed_size_table(pa.FixedSizeListArray.from_arrays(pa.array([1, 0, 0, 1]), 2)).tolist()
        [[1, 0], [0, 1]]
    """
    if not type(values).__module__.startswith("pyarrow"):
        return None
    import pyarrow

    column = cast(Any, values)
    if not (isinstance(column, (pyarrow.Array, pyarrow.ChunkedArray)) and pyarrow.types.is_fixed_size_list(column.type)):
        return None
    if isinstance(column, pyarrow.ChunkedArray):
        column = column.combine_chunks() if column.num_chunks else pyarrow.array([], type=column.type)
    if column.null_count:
        return None  # (a null row: read as objects, and refused where it is read)
    return np.asarray(column.flatten()).reshape(len(column), column.type.list_size)


@attrs.frozen(eq=False)
class CodedSets:
    """A column of label sets as codes: for each label held, the sample that holds it (``rows``)
    and its code (``labels``: a column of every label held, as codes); ``n`` samples."""

    rows: np.ndarray
    labels: Coded
    n: int

    def __len__(self) -> int:
        return self.n


def _checked_lists(values: object, argument: str) -> tuple[Any, Any] | None:
    """A column of lists (``list_column``) as one Arrow array, with its labels flattened (one
    array); None for anything else.

    Raises:
        InvalidLabelError: a missing sample (a null list) or a missing label (a null in a list).
    """
    column = list_column(values, fixed_size=True)
    if column is None:
        return None
    import pyarrow
    import pyarrow.compute

    listed = cast(Any, column)
    if isinstance(listed, pyarrow.ChunkedArray):
        listed = listed.combine_chunks() if listed.num_chunks else pyarrow.array([], type=listed.type)
    if listed.null_count:
        raise InvalidLabelError(f"{argument!r} contains a missing sample (a null instead of a label set) at position {_first_null(listed)}")
    labels = pyarrow.compute.list_flatten(listed)
    if labels.null_count:
        owner = np.asarray(pyarrow.compute.list_parent_indices(listed))[_first_null(labels)]
        raise InvalidLabelError(f"{argument!r} contains a missing value (null), which cannot be a class label, in the label set at position {owner}")
    return listed, labels


def coded_sets(values: object, argument: str) -> CodedSets | None:
    """A column of lists as codes, by Arrow's hashing of its labels (no Python value per label);
    None for anything else, or labels Arrow does not encode (lists inside the lists).

    Raises:
        InvalidLabelError: a missing sample or label (see ``label_set_rows``).

    Examples:
        >>> import pyarrow as pa
        >>> sets = coded_sets(pa.array([["b"], [], ["a", "b"]]), "y_true")
        >>> sets.rows.tolist(), [sets.labels.categories[code] for code in sets.labels.codes], sets.n
        ([0, 2, 2], ['b', 'a', 'b'], 3)
    """
    checked = _checked_lists(values, argument)
    if checked is None:
        return None
    import pyarrow
    import pyarrow.compute

    listed, labels = checked
    try:
        coded = cast(Coded, _arrow(labels, argument, numbers=True))
    except pyarrow.ArrowNotImplementedError:  # (lists of lists: read as Python values, where they are refused by name)
        return None
    return CodedSets(np.asarray(pyarrow.compute.list_parent_indices(listed), dtype=np.int64), coded, len(listed))


def label_set_rows(values: object, argument: str) -> list | None:
    """A column of lists (``list_column``) as one list of labels per sample, made by Arrow; None
    for anything else.

    Raises:
        InvalidLabelError: a missing sample (a null list) or a missing label (a null in a list).

    Examples:
        >>> import pyarrow as pa
        >>> label_set_rows(pa.array([["a"], [], ["a", "b"]]), "y_true")
        [['a'], [], ['a', 'b']]
    """
    checked = _checked_lists(values, argument)
    return None if checked is None else cast(list, checked[0].to_pylist())
