"""What a class label may be, and the one place label lists are validated and ordered.

Rules (stated in the docs, enforced here):

* a label is any hashable value except a missing value (``None``, NaN, ``Decimal("NaN")``,
  pandas' ``NA`` and ``NaT``, numpy's ``NaT``) and sequences (a list or tuple of labels per
  sample is 2-D input, which needs the multi-label API);
* numpy scalars are stored as the equal Python value (``np.int64(1)`` becomes ``1``);
* strings and non-strings are never mixed: ``1`` and ``"1"`` in one label set is an error,
  never a silent merge;
* the default order is sorted; an explicit list fixes the order and may hold unseen labels;
* a blank text is a label (``""`` is one), named by its quoted text where labels are shown
  (``label_text``).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Hashable, Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

import numpy as np

from evalkit._engine._validation import show
from evalkit.exceptions import (
    DuplicateLabelError,
    InputShapeError,
    InvalidLabelError,
    InvalidTypeError,
    MixedLabelTypesError,
    UnknownLabelError,
)

_SEQUENCE_TYPES = (list, tuple, set, frozenset, dict, np.ndarray)


def normalize(label: object) -> object:
    """Return the plain Python value of a label (numpy scalars become int, float, str, ...)."""
    return label.item() if isinstance(label, np.generic) else label


def describe(label: object) -> str:
    """Show a label with its type, so that ``1`` and ``'1'`` are told apart in messages."""
    return f"{label!r} ({type(label).__name__})"


def label_text(label: object) -> str:
    """A label as tables, pages, plots and ``str()`` name it: its text, quoted where that text
    is blank (``''``, ``' '``) or reads as a quoted blank (``"''"``), so that its row keeps a
    name of its own.

    Examples:
        >>> label_text("cat"), label_text(3), label_text(""), label_text(" ")
        ('cat', '3', "''", "' '")
        >>> print(label_text("''"))
        "''"
    """
    text = str(label)
    quoted_blank = len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"" and not text[1:-1].strip()
    return repr(text) if not text.strip() or quoted_blank else text


def kind(label: object) -> str:
    """The label family that must not be mixed: ``'str'``, ``'bytes'``, ``'bool'`` or ``'other'``.

    Booleans are a family of their own: ``True == 1`` in Python, so a bool among numbers
    would silently merge two classes.
    """
    if isinstance(label, str):
        return "str"
    if isinstance(label, bytes):
        return "bytes"
    if isinstance(label, (bool, np.bool_)):
        return "bool"
    return "other"


def identity(value: object) -> object:
    """A label's or group key's identity, to find it by in a dict: the value Python has
    (``np.str_("a")`` is ``"a"``, ``np.int64(1)`` and ``1.0`` are ``1``) with its family, so
    that ``"1"`` and ``1``, or ``True`` and ``1``, stay apart; a tuple part by part."""
    if isinstance(value, tuple):
        return tuple(identity(part) for part in value)
    value = normalize(value)
    return (kind(value), value)


def unify_numbers(values: list, inputs: Iterable[tuple[str, Iterable[object]]]) -> list:
    """Apply the number rules to the distinct labels found in ``inputs`` ((argument, values) pairs).

    The distinct labels come from a dict over the data, which merges equal values, so a
    ``True`` next to a ``1`` or a ``1.0`` next to a ``1`` may hide behind the first one seen.
    The types of all values are therefore checked (only when numbers are among the labels):

    * booleans mixed with numbers are an error (``MixedLabelTypesError``);
    * when an int occurs anywhere, integral floats become ints, so that ``1`` and ``1.0`` are
      one class labelled ``1`` whichever came first.
    """
    if not any(isinstance(value, numbers.Number) for value in values):
        return values
    seen = {argument: set(map(type, sequence)) for argument, sequence in inputs}
    boolean = [argument for argument, types in seen.items() if types & {bool, np.bool_}]
    numeric = [
        argument
        for argument, types in seen.items()
        if any(issubclass(t, numbers.Number) and not issubclass(t, (bool, np.bool_)) for t in types)
    ]
    if boolean and numeric:
        raise MixedLabelTypesError(
            f"labels mix booleans (in {boolean[0]!r}) and numbers (in {numeric[0]!r}), and True == 1 in Python; "
            "evalkit never merges them, convert the labels to one type"
        )
    if any(issubclass(t, (int, np.integer)) and not issubclass(t, (bool, np.bool_)) for types in seen.values() for t in types):
        return [int(value) if isinstance(value, float) and value.is_integer() else value for value in values]
    return values


def is_missing(label: object) -> bool:
    """Whether ``label`` stands for "no value": NaN (float or ``Decimal``), numpy's ``NaT``,
    pandas' ``NA`` and ``NaT`` (told by their type, without importing pandas)."""
    if isinstance(label, float):
        return math.isnan(label)
    if isinstance(label, Decimal):
        return label.is_nan()
    if isinstance(label, (np.datetime64, np.timedelta64)):
        return bool(np.isnat(label))
    return type(label).__name__ in ("NAType", "NaTType")


def check_label(argument: str, label: object) -> object:
    """Return the normalized label, or raise if it can never be a class label."""
    if label is None:
        raise InvalidLabelError(f"{argument!r} contains None, which cannot be a class label")
    if is_missing(label):
        shown = "NaN," if isinstance(label, float) else f"{label!r}, a missing value,"
        raise InvalidLabelError(f"{argument!r} contains {shown} which cannot be a class label")
    if isinstance(label, _SEQUENCE_TYPES):
        raise InputShapeError(
            f"{argument!r} must hold one label per sample (1-D), got an element {show(label)}; "
            "label sets or indicator rows are multi-label data"
        )
    if not isinstance(label, Hashable):
        raise InvalidTypeError(f"{argument!r} contains an unhashable label {show(label)}")
    label = normalize(label)
    if isinstance(label, float) and not math.isfinite(label):  # a numpy NaN or infinity, now a float
        shown = "NaN" if math.isnan(label) else repr(label)
        raise InvalidLabelError(f"{argument!r} contains {shown}, which cannot be a class label")
    return label


def check_one_label(argument: str, label: object) -> object:
    """A single label given as an argument (``class_label``, ``pos_label``, ``none``): never a
    sequence or an array, and a valid label."""
    if isinstance(label, _SEQUENCE_TYPES):
        raise InvalidTypeError(f"{argument!r} must be one label (a string, number, boolean...), got {show(label)}")
    return check_label(argument, label)


def check_same_kind(labels: Iterable[tuple[str, object]]) -> None:
    """Raise if the (argument, label) pairs mix strings with non-strings."""
    first: dict[str, tuple[str, object]] = {}
    for argument, label in labels:
        first.setdefault(kind(label), (argument, label))
    if len(first) > 1:
        (arg_a, a), (arg_b, b) = list(first.values())[:2]
        raise MixedLabelTypesError(
            f"labels mix types: {describe(a)} in {arg_a!r} and {describe(b)} in {arg_b!r}; "
            "evalkit never merges them, convert the labels to one type"
        )


def same_labels(first: Sequence[object] | None, second: Sequence[object] | None) -> bool:
    """The same labels in the same order, ``True`` never the same as ``1`` (nor ``"1"`` as ``1``).

    Examples:
        >>> (False, True) == (0, 1), same_labels((False, True), (0, 1)), same_labels((0, 1), (0.0, 1.0))
        (True, False, True)
    """
    if first is second:  # one tuple, shared by a matrix and the parts counted from it
        return True
    if first is None or second is None or len(first) != len(second):
        return False
    if type(first) is tuple and type(second) is tuple and list(map(type, first)) == list(map(type, second)):  # (one type each: one family)
        return first == second
    return all(a == b and kind(a) == kind(b) for a, b in zip(first, second))


def position_of(label: object, index: Mapping[Any, int], labels: Sequence[object]) -> int | None:
    """The position of ``label`` among ``labels`` (``index`` maps each to its position), or None
    for another label: ``True`` is not the label ``1``, nor ``"1"`` the label ``1``; an
    unhashable label is none of them.

    Examples:
        >>> position_of(1, {True: 0, "b": 1}, (True, "b")), position_of("b", {True: 0, "b": 1}, (True, "b"))
        (None, 1)
    """
    try:
        position = index.get(label)
    except TypeError:
        return None
    if position is None:
        return None
    stored = labels[position]
    return position if type(stored) is type(label) or same_labels((stored,), (label,)) else None


def positions_in(labels: Sequence[object], into: Sequence[object]) -> np.ndarray:
    """The position in ``into`` of each of ``labels`` (every one there): the codes of one label
    list recoded as positions in a longer one (a union).

    Examples:
        >>> positions_in(("c", "a"), ("a", "b", "c")).tolist()
        [2, 0]
    """
    index = {label: position for position, label in enumerate(into)}
    return np.array([position_of(label, index, into) for label in labels], dtype=np.int64)


def check_same_family(first: Iterable[object], second: Iterable[object], names: tuple[str, str]) -> None:
    """Raise if two label lists about to be joined hold different kinds (``1`` and ``"1"``,
    or ``True`` and ``1``, which a union would silently merge)."""
    check_same_kind([*((names[0], label) for label in first), *((names[1], label) for label in second)])


def label_union(first: Sequence[object], second: Sequence[object], names: tuple[str, str]) -> tuple:
    """``first``'s labels, then those of ``second`` it lacks (two results joined with
    ``grow=True``), refused when the two mix kinds (``check_same_family``).

    Examples:
        >>> label_union(("b", "a"), ("c", "a"), ("this", "other"))
        ('b', 'a', 'c')
    """
    check_same_family(first, second, names)
    known = set(first)
    return (*first, *(label for label in second if label not in known))


def check_booleans_apart(labels: Iterable[tuple[str, object]]) -> None:
    """Raise if the (argument, label) pairs put booleans next to other labels: ``True == 1``,
    so a fixed label list of one and data of the other would silently merge classes."""
    pairs = list(labels)
    if any(kind(label) == "bool" for _, label in pairs):
        check_same_kind(pairs)


def check_label_list(labels: Sequence[object], argument: str = "labels") -> tuple:
    """Validate an explicit label list: valid labels, one type family, no duplicates."""
    if isinstance(labels, (str, bytes)) or not isinstance(labels, Iterable):
        raise InvalidTypeError(f"{argument!r} must be a sequence of labels, got {show(labels)}")
    checked = tuple(check_label(argument, label) for label in labels)
    check_same_kind((argument, label) for label in checked)
    seen: dict[object, object] = {}
    for label in checked:
        if label in seen:
            earlier = seen[label]
            same = type(earlier) is type(label) and earlier == label
            what = f"{describe(label)} twice" if same else f"{describe(label)}, equal to {describe(earlier)}"
            raise DuplicateLabelError(f"{argument!r} contains {what}: {show(list(checked))}")
        seen[label] = label
    return checked


def label_tuple(labels: Sequence[object]) -> tuple:
    """Labels as a result keeps them: a tuple as it is (the constructors check labels as they
    find them, and a result made of another shares its tuple), anything else (a document's list)
    checked by ``check_label_list``.

    Examples:
        >>> label_tuple(["a", "b"]), label_tuple(("a",))
        (('a', 'b'), ('a',))
    """
    return labels if type(labels) is tuple else check_label_list(labels)


def sorted_labels(labels: Sequence[object], argument: str = "labels") -> tuple:
    """Return validated labels in sorted order (the default label order)."""
    try:
        return tuple(sorted(labels))
    except TypeError:
        raise InvalidTypeError(
            f"the labels in {argument!r} cannot be sorted ({show(list(labels))}); pass labels=[...] to fix their order"
        ) from None


def label_position(labels: Sequence[object], label: object, what: str = "this result") -> int:
    """The position of ``label`` among ``labels`` (``True`` is not ``1`` here).

    Raises:
        UnknownLabelError: ``label`` is not one of them.
    """
    if isinstance(label, _SEQUENCE_TYPES):
        raise InvalidTypeError(f"a class must be one label, got {show(label)}")
    for position, own in enumerate(labels):
        if own == label and isinstance(own, (bool, np.bool_)) == isinstance(label, (bool, np.bool_)):
            return position
    raise UnknownLabelError(f"{describe(label)} is not a class of {what}: {show(list(labels))}")

def column_labels(labels: Sequence[Hashable] | None, m: int) -> tuple:
    """The labels of ``m`` columns: ``0 .. m-1`` by default, else ``labels`` checked, one per column."""
    checked = tuple(range(m)) if labels is None else check_label_list(labels)
    if len(checked) != m:
        raise InputShapeError(f"'labels' has {len(checked)} labels but the data have {m} columns")
    return checked


class _Overall:
    """The key of the whole data beside the groups' keys: never equal to a group's key, so a
    group named ``"overall"`` keeps its own value."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "'overall'"

    def __str__(self) -> str:
        return "overall"

    def __reduce__(self) -> str:
        return "OVERALL"


OVERALL = _Overall()
"""The key of the whole data in ``ByGroup.values`` and a ``GroupReport`` (``values[OVERALL]``;
``values["overall"]`` too, unless a group is named ``"overall"``)."""
