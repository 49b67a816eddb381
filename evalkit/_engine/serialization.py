"""JSON persistence: one envelope, strict validation of everything read back.

Every evalkit object that holds counts or results writes itself as a JSON object
``{"evalkit": "<type>", "version": 1, ...}`` (``to_json``) and reads itself back
(``from_json``) so that ``X.from_json(x.to_json()) == x`` exactly. Reading trusts nothing:
wrong types, negative or fractional counts, non-finite numbers, sizes that do not match the
data, and declared sizes beyond sane limits all raise ``FormatError``
naming the field, before any large array is allocated.

Labels must be JSON scalars (strings, numbers, booleans) to be written.

What one document may hold is bounded by ``Limits`` (its length, the labels and the entries
it declares), checked before anything large is allocated; ``limits(...)`` raises them for a
block of code.

Examples:
    >>> from evalkit import ConfusionMatrix
    >>> cm = ConfusionMatrix.from_array([[5, 1], [2, 7]], ["cat", "dog"])
    >>> text = cm.to_json()
    >>> text
    '{"evalkit": "ConfusionMatrix", "version": 1, "labels": ["cat", "dog"], "counts": [[5, 1], [2, 7]]}'
    >>> ConfusionMatrix.from_json(text) == cm
    True
"""

from __future__ import annotations

import json
import math
import numbers
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, ClassVar, Literal, NoReturn, cast, overload

import attrs
import numpy as np

from evalkit._engine._exact import UNIT, exact_remainders, exact_table, float_units
from evalkit._engine._labels import check_label_list
from evalkit._engine._pair_counts import PairCounts
from evalkit._engine._validation import show
from evalkit._engine.cells import COUNT_NAMES, Cells
from evalkit.exceptions import EvalkitError, FormatError, InvalidArgumentError

if TYPE_CHECKING:
    from typing_extensions import Self  # typing.Self of Python 3.11, for type checkers only

__all__ = [
    "FORMAT_VERSION",
    "Limits",
    "current_limits",
    "dumps",
    "json_safe",
    "limits",
    "loads",
    "restore_numbers",
]

FORMAT_VERSION = 1
"""The version written into every file; files of other versions are refused."""


@attrs.frozen
class Limits:
    """What one JSON document may hold; beyond it ``from_json`` raises ``FormatError`` before
    allocating anything large.

    Attributes:
        max_bytes: the length of the text (64 MiB: parsing JSON costs about ten times its
            length in memory).
        max_labels: the labels (classes, blocks) a document may declare (65,536).
        max_entries: the entries any array may declare: samples, elements of a covering,
            cells of a confusion matrix (``2**24``, so at most 4,096 labels in a dense matrix).

    Examples:
        >>> Limits().max_labels
        65536
    """

    max_bytes: int = 1 << 26
    max_labels: int = 1 << 16
    max_entries: int = 1 << 24


_LIMITS: ContextVar[Limits] = ContextVar("evalkit_json_limits", default=Limits())  # noqa: B039 (Limits is frozen)


def current_limits() -> Limits:
    """The limits in force (the defaults of ``Limits`` unless ``limits`` changed them)."""
    return _LIMITS.get()


@contextmanager
def limits(**changes: int) -> Iterator[Limits]:
    """Other limits for the documents read in a ``with`` block (this thread or task only).

    Examples:
        >>> from evalkit import ConfusionMatrix
        >>> with limits(max_entries=1 << 26):
        ...     cm = ConfusionMatrix.from_json(ConfusionMatrix.from_array([[1]], ["a"]).to_json())
        >>> current_limits().max_entries == 1 << 24
        True
    """
    unknown = sorted(set(changes) - {field.name for field in attrs.fields(Limits)})
    if unknown:
        raise InvalidArgumentError(f"unknown limits {show(unknown)}; the limits are max_bytes, max_labels, max_entries")
    for name, value in changes.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise InvalidArgumentError(f"{name!r} must be a positive integer, got {show(value)}")
    token = _LIMITS.set(attrs.evolve(_LIMITS.get(), **changes))
    try:
        yield _LIMITS.get()
    finally:
        _LIMITS.reset(token)


def _reject_constant(name: str) -> NoReturn:
    raise FormatError(f"the file holds the non-standard JSON number {name}")


def dumps(kind: str, payload: dict[str, Any]) -> str:
    """The JSON text of an object of type ``kind`` (no NaN or infinity: those become null)."""
    document = {"evalkit": kind, "version": FORMAT_VERSION, **payload}
    try:
        return json.dumps(document, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise FormatError(f"cannot write {kind} as JSON: {error} (labels must be strings, numbers or booleans)") from None


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    document = dict(pairs)
    if len(document) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise FormatError(f"the key {key!r} appears twice in one object")
            seen.add(key)
    return document


def loads(text: str | bytes, kind: str) -> dict[str, Any]:
    """Parse and check the envelope of a file that must hold an object of type ``kind``:
    no longer than ``max_bytes``, no key twice in an object, this format version."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise FormatError(f"expected JSON text, got {show(text)}")
    max_bytes = current_limits().max_bytes
    if len(text) > max_bytes:
        raise FormatError(f"the document has {len(text):,} characters, more than the {max_bytes:,} allowed (serialization.limits(max_bytes=...) raises it)")
    try:
        document = json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_unique_keys)
    except FormatError:
        raise
    except (ValueError, RecursionError) as error:
        raise FormatError(f"not valid JSON: {str(error)[:120]}") from None
    if not isinstance(document, dict):
        raise FormatError(f"an evalkit file is a JSON object, got {type(document).__name__}")
    if document.get("evalkit") != kind:
        raise FormatError(f"expected an evalkit {kind} file, got 'evalkit': {show(document.get('evalkit'))}")
    version = document.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > FORMAT_VERSION:
        raise FormatError(f"format version {version} was written by a newer evalkit; this one reads version {FORMAT_VERSION}")
    if type(version) is not int or version != FORMAT_VERSION:
        raise FormatError(f"unsupported format version {show(version)} (this evalkit reads version {FORMAT_VERSION})")
    return document


# --------------------------------------------------------------------------------------------
# field readers: each names the field in its error


def field(document: dict[str, Any], name: str) -> Any:
    """A required field."""
    if name not in document:
        raise FormatError(f"missing field {name!r}")
    return document[name]


@overload
def integer(document: dict[str, Any], name: str, *, low: int = 0, high: int | None = None, optional: Literal[False] = False) -> int: ...


@overload
def integer(document: dict[str, Any], name: str, *, low: int = 0, high: int | None = None, optional: bool) -> int | None: ...


def integer(document: dict[str, Any], name: str, *, low: int = 0, high: int | None = None, optional: bool = False) -> int | None:
    """An integer field in ``low .. high`` (``high`` by default the ``max_entries`` limit)."""
    value = document.get(name) if optional else field(document, name)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise FormatError(f"field {name!r} must be an integer, got {show(value)}")
    high = current_limits().max_entries if high is None else high
    if not low <= value <= high:
        raise FormatError(f"field {name!r} must be in {low}..{high}, got {value}")
    return value


def number(value: object, name: str, *, nullable: bool = False) -> float:
    """A finite number (``null`` read as NaN when ``nullable``)."""
    if value is None and nullable:
        return math.nan
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise FormatError(f"field {name!r} must be a finite number, got {show(value)}")
    return float(value)


def label_list(document: dict[str, Any], name: str, *, size: int | None = None) -> tuple:
    """A list of labels (JSON scalars), unique and of one type family."""
    values = field(document, name)
    if not isinstance(values, list):
        raise FormatError(f"field {name!r} must be a list of labels, got {show(values)}")
    max_labels = current_limits().max_labels
    if len(values) > max_labels:
        raise FormatError(f"field {name!r} has {len(values):,} labels, more than the {max_labels:,} allowed")
    for value in values:
        if isinstance(value, (list, dict)) or value is None:
            raise FormatError(f"field {name!r} must hold strings, numbers or booleans, got {show(value)}")
    try:
        labels = check_label_list(values, name)
    except EvalkitError as error:
        raise FormatError(f"field {name!r}: {error}") from None
    if size is not None and len(labels) != size:
        raise FormatError(f"field {name!r} has {len(labels)} labels but {size} were declared")
    return labels


def array(value: object, name: str, *, length: int | None, integral: bool | None = True, low: float = 0.0) -> np.ndarray:
    """A 1-D list of numbers of the given length (any length for ``None``): int64 counts,
    float64 when not ``integral``, and with ``integral=None`` int64 if every number is an
    integer, else float64 (weighted counts)."""
    if not isinstance(value, list):
        raise FormatError(f"field {name!r} must be a list, got {show(value)}")
    if length is not None and len(value) != length:
        raise FormatError(f"field {name!r} has {len(value)} entries but {length} were declared")
    if integral is None:
        integral = all(isinstance(item, int) for item in value)
    wanted = int if integral else numbers.Real
    if any(isinstance(item, bool) or not isinstance(item, wanted) for item in value):
        kind = "integers" if integral else "numbers"
        raise FormatError(f"field {name!r} must hold {kind}, got {show(value)}")
    try:
        result = np.array(value, dtype=np.int64 if integral else np.float64)
    except OverflowError:
        raise FormatError(f"field {name!r} holds a count too large for int64") from None
    if result.size and (not np.isfinite(result).all() or result.min() < low):
        raise FormatError(f"field {name!r} must hold finite values >= {low:g}, got {show(result)}")
    return result


def matrix(value: object, name: str, *, rows: int, columns: int) -> np.ndarray:
    """A list of ``rows`` lists of ``columns`` non-negative counts: int64 when every count is
    an integer, float64 (weighted counts) otherwise."""
    max_entries = current_limits().max_entries
    if rows * columns > max_entries:
        raise FormatError(f"field {name!r} would need {rows * columns:,} cells, more than the {max_entries:,} allowed")
    if not isinstance(value, list) or len(value) != rows:
        raise FormatError(f"field {name!r} must be a list of {rows} rows, got {show(value)}")
    if not rows:
        return np.zeros((0, 0), dtype=np.int64)
    integral = all(isinstance(item, int) for row in value if isinstance(row, list) for item in row)
    return np.stack([array(row, f"{name}[{i}]", length=columns, integral=integral) for i, row in enumerate(value)])


def exact_sums(document: dict[str, Any], values: np.ndarray, name: str = "exact", *, signed: bool = False) -> dict[int, int]:
    """The exact sums a document keeps of float counts that are not their floats (the optional
    field ``name``, as ``evalkit._engine._exact.exact_remainders`` writes it: ``[position,
    [floats]]`` pairs), by flat position of ``values``: each at least 0 (unless ``signed``) and
    rounding to its count, else the document is refused; ``{}`` when absent."""
    value = document.get(name)
    if value is None:
        return {}
    if not isinstance(value, list):
        raise FormatError(f"field {name!r} must be a list of [position, [numbers]] pairs, got {show(value)}")
    flat, sums = values.reshape(-1), {}
    for entry in value:
        if (not isinstance(entry, list) or len(entry) != 2 or isinstance(entry[0], bool) or not isinstance(entry[0], int)
                or not 0 <= entry[0] < len(flat) or entry[0] in sums or not isinstance(entry[1], list) or flat.dtype.kind != "f"):  # fmt: skip
            raise FormatError(f"field {name!r} must list [position, [numbers]] pairs of float counts, each position once and below {len(flat)}, got {show(entry)}")
        count = float(flat[entry[0]])
        total = float_units(count) + sum(_units(part, name) for part in entry[1])
        try:
            rounds = total / UNIT == count
        except OverflowError:  # an exact sum beyond float64's range: no count rounds to it
            rounds = False
        if (total < 0 and not signed) or not rounds:
            raise FormatError(f"field {name!r}: the exact sum at position {entry[0]} must be at least 0 and round to its count {count!r}, got {show(entry)}")
        sums[entry[0]] = total
    return sums


def _units(part: object, name: str) -> int:
    """One part of an exact rest in units of ``2**-FLOAT_OFFSET``: a float, or ``{"units":
    "0x..."}`` for what lies below the least float."""
    if isinstance(part, dict):
        units = part.get("units") if set(part) == {"units"} else None
        try:
            return int(units, 16) if isinstance(units, str) and len(units) <= 400 else int("")
        except ValueError:
            raise FormatError(f"field {name!r} must give units below the least float as {{\"units\": \"0x...\"}}, got {show(part)}") from None
    return float_units(number(part, name))


def exact_rests(values: np.ndarray, name: str = "exact") -> dict[str, list[Any]]:
    """The field ``name`` a document writes beside counts written rounded, so that they read
    back exact (``exact_counts_of``): the rest of each float count that is not its exact sum
    (``[position, [floats]]``); no field when every count is its float.

    Examples:
        >>> from evalkit._engine._exact import exact_table
        >>> exact_rests(exact_table(np.array([0.5, 1e16]), {1: 10**16 * UNIT + UNIT}))
        {'exact': [[1, [1.0]]]}
        >>> exact_rests(np.array([0.5, 2.0]))
        {}
    """
    rests = exact_remainders(values)
    return {name: rests} if rests else {}


def exact_counts_of(document: dict[str, Any], values: np.ndarray, name: str = "exact", *, signed: bool = False) -> np.ndarray:
    """Counts read from a document as exact counts: float counts with the exact sums its field
    ``name`` keeps (``exact_sums``), whole numbers as they are."""
    return exact_table(values, exact_sums(document, values, name, signed=signed)) if values.dtype.kind == "f" else values


def cells_payload(cells: Cells, *, ones_as_none: bool = False) -> dict[str, Any]:
    """The rows of a ``Cells``, with its weights and index when it has them (``ones_as_none``:
    weights that are each 1 left out, as no weight, for a value equal to the same unweighted)."""
    payload: dict[str, Any] = {name: as_list(row) for name, row in zip(COUNT_NAMES, cells.rows())}
    if cells.weight is not None and not (ones_as_none and np.all(np.asarray(cells.weight) == 1)):
        payload["weight"] = as_list(cells.weight)
    if cells.index is not None:
        payload["index"] = as_list(cells.index)
    return payload


def read_cells(value: object, name: str, *, rows: int | None = None) -> Cells:
    """A ``Cells`` written by ``cells_payload``: four rows of one length (``rows`` if given),
    non-negative counts, an optional index into the rows and optional weights per entry."""
    if not isinstance(value, dict):
        raise FormatError(f"field {name!r} must be an object with tp, fp, fn, tn")
    unknown = sorted(set(value) - {*COUNT_NAMES, "weight", "index"})
    if unknown:
        raise FormatError(f"field {name!r} has unknown entries {show(unknown)}")
    first = field(value, "tp")
    length = rows if rows is not None else len(first) if isinstance(first, list) else 0
    max_entries = current_limits().max_entries
    if length > max_entries:
        raise FormatError(f"field '{name}.tp' has {length:,} entries, more than the {max_entries:,} allowed")
    cells = [array(field(value, key), f"{name}.{key}", length=length, integral=None) for key in COUNT_NAMES]
    index = value.get("index")
    if index is not None:
        index = array(index, f"{name}.index", length=None)
        if index.size and index.max() >= length:
            raise FormatError(f"field '{name}.index' points past the {length} rows")
    weight = value.get("weight")
    if weight is not None:
        weight = array(weight, f"{name}.weight", length=length if index is None else len(index), integral=None)
    return Cells(*cells, weight=weight, index=index)


def pairs_payload(pairs: PairCounts) -> dict[str, Any]:
    """A sparse confusion matrix: the codes and counts of the pairs that occur (float counts that
    are not their exact sums with their rests, ``exact``: ``[position, [floats]]``)."""
    rests = exact_rests(pairs.units()) if pairs.low is not None or pairs.exact else {}
    return {"actual": as_list(pairs.actual), "predicted": as_list(pairs.predicted), "counts": as_list(pairs.counts), **rests}


def read_pairs(value: object, name: str, *, size: int) -> PairCounts:
    """A sparse confusion matrix over ``size`` labels written by ``pairs_payload``."""
    if not isinstance(value, dict) or set(value) - {"exact"} != {"actual", "predicted", "counts"}:
        raise FormatError(f"field {name!r} must be an object with exactly actual, predicted, counts (and optionally exact)")
    counts = array(value["counts"], f"{name}.counts", length=None, integral=None)
    if "exact" in value and counts.dtype.kind != "f":
        raise FormatError(f"field '{name}.exact' gives the rests of float counts, but '{name}.counts' holds whole numbers")
    codes = [array(value[key], f"{name}.{key}", length=len(counts)) for key in ("actual", "predicted")]
    for key, code in zip(("actual", "predicted"), codes):
        if code.size and code.max() >= size:
            raise FormatError(f"field '{name}.{key}' points past the {size} labels")
    return PairCounts.from_exact(codes[0], codes[1], size, exact_counts_of(value, counts))


def scalar_label(value: object, name: str) -> Hashable:
    """One label (or null)."""
    if value is None:
        return None
    if isinstance(value, (list, dict)):
        raise FormatError(f"field {name!r} must be a string, number or boolean, got {show(value)}")
    return value


def element(value: object, name: str) -> Hashable:
    """One element of a universe: a label, or a tuple of elements (written as a JSON array:
    a list is not hashable, so an array can only have been a tuple).

    Examples:
        >>> element([1, ["a", 2]], "universe")
        (1, ('a', 2))
    """
    if isinstance(value, list):
        return tuple(element(item, name) for item in value)
    return scalar_label(value, name)


def as_list(values: Sequence[Any] | np.ndarray) -> list:
    """Plain Python numbers for ``json.dumps``."""
    return np.asarray(values).tolist()


def json_safe(value: object) -> Any:
    """Plain data that strict JSON (``json.dumps(..., allow_nan=False)``) takes: NaN (an
    undefined value) becomes ``None`` (null), an infinity the string ``"Infinity"`` or
    ``"-Infinity"``; dict keys become strings, tuples lists, numpy numbers Python numbers.
    ``restore_numbers`` undoes it.

    Examples:
        >>> json_safe({"recall": float("nan"), "odds": float("inf"), "rows": (1, 2.5)})
        {'recall': None, 'odds': 'Infinity', 'rows': [1, 2.5]}
    """
    if isinstance(value, dict):
        return {str(key): json_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(item) for item in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float):
        if math.isnan(value):
            return None
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
    return value


def restore_numbers(value: object) -> Any:
    """The numbers ``json_safe`` wrote: ``None`` is NaN again, ``"Infinity"`` and
    ``"-Infinity"`` infinities (other values as they are).

    Examples:
        >>> restore_numbers({"recall": None, "odds": "Infinity", "rows": [1, 2.5]})
        {'recall': nan, 'odds': inf, 'rows': [1, 2.5]}
    """
    if isinstance(value, dict):
        return {key: restore_numbers(item) for key, item in value.items()}
    if isinstance(value, list):
        return [restore_numbers(item) for item in value]
    if value is None:
        return math.nan
    if value in ("Infinity", "-Infinity"):
        return math.inf if value == "Infinity" else -math.inf
    return value


def same_json(first: object, second: object) -> bool:
    """Structural equality of plain data, with NaN equal to NaN and a boolean never equal to a number."""
    if isinstance(first, float) and isinstance(second, float) and math.isnan(first) and math.isnan(second):
        return True
    if isinstance(first, _BOOLEANS) is not isinstance(second, _BOOLEANS):  # (a label True is not the label 1)
        return False
    if isinstance(first, dict) and isinstance(second, dict):
        return first.keys() == second.keys() and all(map(same_json, first.values(), (second[key] for key in first)))
    if isinstance(first, (list, tuple)) and isinstance(second, (list, tuple)):
        if len(first) != len(second):
            return False
        if first == second:  # (at C speed: what it lets through besides, a boolean equal to a number, is looked for alone)
            held = {*map(type, first), *map(type, second)}  # (the kinds of value inside: no boolean nor collection, nothing to look for)
            return not held.intersection(_NESTED) or all(map(_same_booleans, first, second))
        return all(map(same_json, first, second))
    return bool(first == second)


_BOOLEANS = (bool, np.bool_)
_NESTED = {bool, np.bool_, list, tuple, dict}


def _same_booleans(first: object, second: object) -> bool:
    """Whether two values equal by ``==`` are booleans alike, at any depth."""
    if isinstance(first, (list, tuple, dict)):
        return same_json(first, second)
    return isinstance(first, _BOOLEANS) is isinstance(second, _BOOLEANS)


def _item_document(value: object) -> object:
    """One value of a batch's column as JSON: a label (string, number, boolean) as it is, a
    label set as ``{"items": [...], "kind": "frozenset"}``."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, (set, frozenset, list, tuple)):
        return {"items": [_item_document(item) for item in value], "kind": type(value).__name__}
    return value


_COLLECTIONS: dict[str, Callable[[list], object]] = {"set": set, "frozenset": frozenset, "list": list, "tuple": tuple}


def _read_item(value: object) -> object:
    if isinstance(value, dict):
        items, kind = value.get("items"), value.get("kind")
        if not isinstance(items, list) or kind not in _COLLECTIONS:
            raise FormatError(f"a batch's label set must be {{'items': [...], 'kind': 'frozenset'}}, got {show(value)}")
        try:
            return _COLLECTIONS[cast(str, kind)]([_read_item(item) for item in items])
        except TypeError:  # a set of an unhashable value
            raise FormatError(f"a batch's label set must hold labels, got {show(value)}") from None
    if isinstance(value, list):
        raise FormatError(f"a batch's value must be a label or a label set, got {show(value)}")
    return value


def column_document(values: np.ndarray | list) -> dict[str, Any]:
    """A column of samples as JSON (a window's batch): an array with its dtype, or a list of
    labels and label sets; ``read_column`` reads it back.

    Examples:
        >>> read_column(column_document([frozenset({"a"}), "b"])), read_column(column_document(np.array([0.5, 1.0]))).tolist()
        ([frozenset({'a'}), 'b'], [0.5, 1.0])
    """
    if isinstance(values, np.ndarray) and values.dtype.kind == "O" and values.ndim > 1:  # a table of objects (raters' ratings): flat, with its shape
        return {"array": [_item_document(value) for value in values.reshape(-1).tolist()], "dtype": values.dtype.str, "shape": list(values.shape)}
    if isinstance(values, np.ndarray):
        return {"array": [_item_document(value) for value in values.tolist()] if values.dtype.kind == "O" else values.tolist(), "dtype": values.dtype.str}
    return {"list": [_item_document(value) for value in values]}


def read_column(document: object) -> np.ndarray | list:
    if isinstance(document, dict) and isinstance(document.get("list"), list):
        return [_read_item(value) for value in document["list"]]
    if isinstance(document, dict) and isinstance(document.get("array"), list) and isinstance(document.get("dtype"), str):
        try:
            dtype = np.dtype(document["dtype"])
        except TypeError:
            dtype = None
        if dtype is not None and dtype.kind in "biufUO":
            values = document["array"]
            if dtype.kind == "O":
                array = np.empty(len(values), dtype=object)
                array[:] = [_read_item(value) for value in values]
                shape = document.get("shape", [len(values)])
                if not (isinstance(shape, list) and all(isinstance(size, int) and not isinstance(size, bool) and size >= 0 for size in shape)
                        and math.prod(shape) == len(values)):  # fmt: skip
                    raise FormatError(f"a batch's column of {len(values)} values must give a shape of as many, got {show(shape)}")
                return array.reshape(shape)
            try:
                read: np.ndarray | None = np.array(values, dtype=dtype)
            except (TypeError, ValueError):
                read = None
            if read is not None and read.ndim >= 1 and read.tolist() == values:  # (no value cut or changed to fit the dtype)
                return read
    raise FormatError(f"a batch's column must be {{'list': [...]}} or {{'array': [...], 'dtype': '<f8'}}, got {show(document)}")


class Document:
    """An object written as one evalkit JSON document: ``to_json()`` writes what the class
    gives (``_document``) inside the envelope (its type, ``DOCUMENT``, and the format
    version); ``from_json(text)`` checks the envelope and reads the rest (``_read_document``).

    Examples:
        >>> from evalkit import ConfusionMatrix
        >>> matrix = ConfusionMatrix.from_predictions(["a", "b"], ["a", "a"])
        >>> ConfusionMatrix.from_json(matrix.to_json()) == matrix
        True
    """

    __slots__ = ()

    DOCUMENT: ClassVar[str] = ""
    """The type a document names (``"evalkit": "ConfusionMatrix"``): the class's, kept by subclasses."""

    def _document(self) -> dict[str, Any]:
        raise NotImplementedError

    _read_document: ClassVar[Callable[..., Any]]
    """``_read_document(document, **options)``: the object of a checked document (a class method
    of each class, with the options its ``from_json`` takes)."""

    def to_json(self) -> str:
        """This object as an evalkit JSON document (``from_json`` reads it back equal).

        Raises:
            FormatError: a label JSON cannot hold (labels are strings, numbers or booleans).
        """
        return dumps(self.DOCUMENT, self._document())

    @classmethod
    def from_json(cls, text: str | bytes, **options: Any) -> Self:
        """Read a document that ``to_json`` wrote (``options``: ``metrics_class=`` for results
        that carry one, to read a document of another metrics class).

        Raises:
            FormatError: the text is no valid document of this type: malformed, of another type
                or version, too large, or holding values no such object has.
        """
        return cast("Self", cls._read_document(loads(text, cls.DOCUMENT), **options))


class DocumentValue(Document):
    """A value written as one document (a metrics object, a summary, a comparison): equal to
    another of its type exactly when their documents are (``same_json``: NaN equals NaN,
    ``True`` is not ``1``); its ``==`` is derived, never written by hand.

    Examples:
        >>> from evalkit import ClassificationMetrics
        >>> a, b = (ClassificationMetrics.from_counts(tp=3, fp=1, fn=0, tn=4) for _ in range(2))
        >>> a == b, a == ClassificationMetrics.from_counts(tp=3, fp=1, fn=1, tn=3)
        (True, False)
    """

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return same_json(self._document(), cast(Document, other)._document())

    __hash__ = None  # type: ignore[assignment]  # equal values have equal documents, not one identity
