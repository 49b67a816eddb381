"""Kinds declared as sums: a counted state that is its settings and its sums, nothing else.

A kind declares, once:

* ``SETTINGS``: the keywords of its constructor (each also an attribute of that name), which
  give the empty state, ``type(a)(**settings)``; two results with other settings do not combine
  (``MISMATCH``), unless one still lacks a setting a first batch fixes (``OPEN_SETTINGS``);
* ``LABELS``: whether its classes grow as batches and merges bring new ones (appended; the
  constructor's ``labels`` may fix them), and with ``LABELS_LEAVE`` leave with a part taken
  away that brought them;
* ``METRICS_CLASS``: whether its results carry a metrics class (merged as the more specific);
* ``SUMS``: the attributes that hold its sums, each an array of whole counts (int64) or of
  exact float counts (``evalkit._engine._exact``), or a table: sums per key (``KeyedSums``;
  ``HashedSums`` for keys that are no codes), weights per distinct score and codes
  (``ScoreTable``, whose codes are the labels' positions), or any table of sums that combines
  itself (``plus``, ``minus``, ``scaled``, ``equals``) and writes and reads its own fields of
  a document (``document``, ``read``);
* ``_count(*batch, sample_weight=...)``: the sums of one batch, in the order of ``SUMS`` (after
  the batch's labels, with ``LABELS``);

and reads its numbers from the sums (``_numbers(name)``: a field's sums as numbers). Everything
else of the counted-state protocol is derived here from that declaration, written once for
every such kind: ``update`` and ``revert`` (in place), ``counted``, ``merge``/``+``, ``-``,
``scaled``, ``empty``, ``copy``, ``==``, JSON and pickle. Sums are added, taken away and scaled
exactly (a part added and taken away again leaves no rounding), so a window of the kind is
re-summed never; a part never added is refused when taken away.

A kind's JSON document is its settings as given (with ``LABELS``: ``labels`` and ``fixed``) and
each sum under its name (without the leading underscore) as the flat list of its rounded
values, with ``exact_<name>`` holding what the rounding left out of float sums (read back to
the last bit); a table writes its own fields (a ``ScoreTable`` each of its columns under its
own name).

Examples:
    >>> import numpy as np
    >>> class Hits(SummedState):
    ...     '''How often the prediction is right: [right, samples].'''
    ...     DOCUMENT, SUMS = "Hits", ("_counts",)
    ...     def __init__(self):
    ...         self._counts = np.zeros(2, dtype=np.int64)
    ...     def _count(self, y_true, y_pred, *, sample_weight=None):
    ...         right = np.asarray(y_true) == np.asarray(y_pred)
    ...         return (np.array([right.sum(), right.size]),)
    ...     def rate(self):
    ...         right, samples = self._numbers("_counts")
    ...         return float(right / samples)
    >>> week = Hits().counted([1, 2, 3], [1, 2, 0]) + Hits().counted([1], [0])
    >>> week.rate(), Hits.from_json(week.to_json()) == week
    (0.5, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, cast

import numpy as np

from evalkit._engine import serialization
from evalkit._engine._exact import (
    added,
    difference,
    equal_counts,
    in_units,
    rounded_counts,
    same_form,
    scaled_counts,
)
from evalkit._engine._keyed import KeyedSums
from evalkit._engine._labels import (
    check_same_family,
    kind,
    label_union,
    position_of,
    positions_in,
    same_labels,
    sorted_labels,
)
from evalkit._engine._score_table import ScoreTable
from evalkit._engine._validation import show
from evalkit._results.counted import ALL_OPERATIONS, CountedState
from evalkit.exceptions import (
    EvalkitError,
    InvalidArgumentError,
    InvalidCountsError,
    InvalidTypeError,
    LabelMismatchError,
)
from evalkit.measures._metrics_class import MetricsClass, merged_metrics_class
from evalkit.measures._plugins import metrics_class_field, read_metrics_class

if TYPE_CHECKING:
    from typing_extensions import Self  # typing.Self of Python 3.11, for type checkers only

__all__ = ["SummedState", "Sums"]

Sums = np.ndarray | KeyedSums | ScoreTable
"""A field of sums: an array of whole or exact counts, or a table of sums (per key, per score)
that adds, takes away, scales and compares itself (``plus``, ``minus``, ``scaled``, ``equals``)."""


def _plus(mine: Sums, theirs: Sums) -> Sums:
    if isinstance(mine, np.ndarray):
        return added(mine, cast(np.ndarray, theirs))
    return mine.plus(theirs)  # type: ignore[arg-type]


def _without(mine: Sums, theirs: Sums, signed: bool = False) -> Sums:
    if not isinstance(mine, np.ndarray):
        return mine.minus(theirs, "counts")  # type: ignore[arg-type]
    if signed:  # sums of either sign: exact, and nothing to check
        first, second = same_form(mine, cast(np.ndarray, theirs))
        return first - second
    return difference(mine, cast(np.ndarray, theirs), "counts")


def _times(value: Sums, factor: float) -> Sums:
    return scaled_counts(value, factor) if isinstance(value, np.ndarray) else value.scaled(factor)


def _same(mine: Sums, theirs: Sums) -> bool:
    if isinstance(mine, np.ndarray):
        return isinstance(theirs, np.ndarray) and equal_counts(mine, theirs)
    return type(mine) is type(theirs) and mine.equals(theirs)  # type: ignore[arg-type]


def _laid(value: Sums, lookup: np.ndarray, size: int, axes: tuple[int, ...]) -> Sums:
    """A field of sums over ``size`` labels (or groups), where its label ``c`` is label
    ``lookup[c]``: a table's codes recoded (a ``KeyedSums``' codes of ``axes``), an array's label
    ``axes`` laid out (zeros for the labels it lacks)."""
    if isinstance(value, ScoreTable):
        return value.recoded(lookup)
    if isinstance(value, KeyedSums):
        return value.recoded(lookup if 0 in axes else None, lookup if 1 in axes else None)
    if not isinstance(value, np.ndarray) or not axes:
        return value
    shape = tuple(size if axis in axes else length for axis, length in enumerate(value.shape))
    laid = np.zeros(shape, dtype=value.dtype)
    if np.array_equal(lookup, np.arange(len(lookup))):  # labels appended: the old ones first, a slice (no fancy index)
        laid[tuple(slice(0, len(lookup)) if axis in axes else slice(None) for axis in range(value.ndim))] = value
    else:
        laid[np.ix_(*(lookup if axis in axes else np.arange(length) for axis, length in enumerate(value.shape)))] = value
    return laid


def _frozen(value: object) -> object:
    """A setting in a form that compares by value (arrays and lists as tuples)."""
    if isinstance(value, np.ndarray):
        return tuple(value.tolist())
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(item) for item in value)
    return value


def _same_setting(first: object, second: object) -> bool:
    """Whether two settings are the same: one object, or equal values of one label family
    (``True`` is not ``1``, nor ``"1"``; arrays and lists compared as tuples)."""
    if first is second:
        return True
    if type(first) is tuple and type(second) is tuple:  # labels, names, numbers: at once
        try:
            if same_labels(first, second):
                return True
        except ValueError:  # (an array inside has no truth: compared as a tuple below)
            pass
    return _same_frozen(_frozen(first), _frozen(second))


def _same_frozen(first: object, second: object) -> bool:
    if isinstance(first, tuple) and isinstance(second, tuple):
        return len(first) == len(second) and all(_same_frozen(a, b) for a, b in zip(first, second))
    return bool(first == second) and kind(first) == kind(second)


def _written(value: object) -> object:
    """A setting as JSON data: an array as a list, a tuple as the list of its values as they
    are (labels keep their types: ``1`` beside ``2.5`` is no float, ``2**63 + 1`` no int64)."""
    if isinstance(value, np.ndarray):
        return serialization.as_list(value)
    return [item.item() if isinstance(item, np.generic) else item for item in value] if isinstance(value, tuple) else value


class SummedState(CountedState):
    """A counted state declared by its ``SETTINGS``, its ``SUMS`` and how it counts a batch
    (``_count``); the protocol is derived (see the module)."""

    OPERATIONS: ClassVar[frozenset[str]] = ALL_OPERATIONS
    EXACT_SUMS = True  # whole counts, and float counts added and taken away exactly: a part taken away leaves no rounding
    SETTINGS: ClassVar[tuple[str, ...]] = ()
    """The constructor's keywords, each read back from the attribute of that name."""
    SUMS: ClassVar[tuple[str, ...]] = ()
    """The attributes that hold the sums."""
    UNSCALED: ClassVar[frozenset[str]] = frozenset()
    """Those of ``SUMS`` that count samples however much they weigh (the samples of weight 0
    holding a label, which keep it a label): scaling the weights leaves them as they are."""
    SIGNED: ClassVar[frozenset[str]] = frozenset()
    """Those of ``SUMS`` whose sums may be below 0 (a difference array's): taken away without the
    check of the others (one below 0), so what is left is checked by the kind's ``_invalid``."""
    LABELS: ClassVar[bool] = False
    """Whether the kind's classes grow: ``_labels`` (a tuple) takes the labels each batch and
    merge bring, appended, unless the constructor's ``labels`` fixed them (``_fixed``: a batch's
    other labels are then the kind's error; a merge still joins them). The codes of its tables
    (``ScoreTable``) are positions in ``_labels``, and ``_count`` gives the batch's own labels
    before its sums."""

    LEFT_CHECKED: ClassVar[bool] = True
    """Whether what a subtraction leaves is checked by ``_invalid`` too (False: a kind whose
    every sum refuses a part never added as it is taken away, and whose ``_invalid`` checks a
    document's parts against each other)."""

    LABEL_SETTINGS: ClassVar[frozenset[str]] = frozenset()
    """Those of ``SETTINGS`` that are lists of labels: a document's are read as labels are
    (``serialization.label_list``: JSON scalars, unique, within the limit of labels), or None
    where the document has none."""

    OPEN_SETTINGS: ClassVar[frozenset[str]] = frozenset()
    """Those of ``SETTINGS`` a first batch fixes (``None`` until then): a result still without one
    holds nothing, so it combines as the other's empty state."""

    MISMATCH: ClassVar[type[EvalkitError]] = LabelMismatchError
    """What two results of other settings raise when combined."""

    LABEL_AXES: ClassVar[dict[str, tuple[int, ...]]] = {}
    """With ``LABELS``: the axes of each array of ``SUMS`` that run over the labels (a per-class
    array's first, a confusion matrix's two), laid out anew as labels join."""

    LABELS_LEAVE: ClassVar[bool] = False
    """With ``LABELS`` (and labels not fixed): a label that a part taken away brought leaves with
    it when nothing of it is left (in the arrays of ``LABEL_AXES``), and two results of the
    same labels in another order are equal: what a sliding window of growing labels needs to
    equal the same samples counted afresh."""

    GROUPS: ClassVar[bool] = False
    """Whether results count per group (a ``groups=`` column of each batch): ``_groups``, the
    groups that hold something, sorted (``None``: counted without groups; a batch or a part
    with groups joins a result without only while it holds nothing), joined as batches and
    merges bring them, a group left with nothing leaving; ``_count`` gives the batch's own
    groups (sorted, or ``None``) after its labels, and the codes of ``GROUP_AXES`` are their
    positions."""

    GROUP_AXES: ClassVar[dict[str, tuple[int, ...]]] = {}
    """With ``GROUPS``: the code columns of each ``KeyedSums`` of ``SUMS`` (0 the first, 1 the
    second) that are groups."""
    _groups: tuple | None = None

    METRICS_CLASS: ClassVar[bool] = False
    """Whether results carry a metrics class (``_metrics_class``, the constructor's
    ``metrics_class``): combined results take the more specific of the two
    (``merged_metrics_class``), equal ones have the same, and a document names it."""
    _metrics_class: type | None = None

    _labels: Any = ()  # (a tuple with LABELS; a kind that grows its own way may keep None for none yet)
    _rounded_earlier = False  # sums an earlier release counted otherwise (rounded; read from its document or pickle): a window counts them again from its batches
    _fixed: bool = False

    _count: Callable[..., tuple[Any, ...]]
    """The sums of one batch (its columns, ``sample_weight=`` and the kind's options), in the
    order of ``SUMS``, with this result's settings (after the batch's labels, for ``LABELS``)."""

    def update(self, *batch: Any, **options: Any) -> None:
        """Count a batch (the arguments of the kind's ``_count``), in place.

        Raises:
            InvalidTypeError: ``_count`` gave other sums than ``SUMS`` declares (a kind's fault).
        """
        self._add_counted(tuple(self._count(*batch, **options)))

    def _add_counted(self, counted: tuple[Any, ...]) -> None:
        """Add the sums ``_count`` gave for a batch (its labels first, with ``LABELS``), in place:
        an array over the labels takes the batch's labels alone (a batch costs its own labels,
        not every label seen), unless the batch changes its form (whole counts to exact ones)."""
        lookup, brought, prefix = None, False, False
        if self.LABELS:  # the batch's own labels: new ones join these (appended, so these codes stay)
            labels, counted = counted[0], counted[1:]
        if self.GROUPS:  # the batch's own groups: both over the groups of both, sorted
            groups, counted = counted[0], counted[1:]
            joined = self._group_union(groups, theirs_empty=None)
            brought = joined is not self._groups
            if brought:
                vars(self).update(vars(self._regrouped(joined)))
            if groups is not None and not same_labels(groups, joined):
                at = positions_in(groups, cast(tuple, joined))
                counted = tuple(_laid(value, at, len(at), self.GROUP_AXES[name]) if name in self.GROUP_AXES else value for name, value in zip(self.SUMS, counted))
        if self.LABELS and not same_labels(labels, self._labels):
            if same_labels(labels, self._labels[: len(labels)]):  # the first of these labels (a batch of the classes so far): their codes as they are
                lookup, prefix = np.arange(len(labels)), True
            else:  # each looked up among these (found once), the new ones appended
                known, index = self._labels, self._label_index()
                codes = [position_of(label, index, known) for label in labels]
                new = [label for label, code in zip(labels, codes) if code is None]
                if new:  # (the labels here are of one family: the new ones are checked against one of them)
                    check_same_family(known[:1], new, ("this result", "the batch"))
                    self._appended(new)
                    index = self._label_index(index, new)
                    codes = [index[label] if code is None else code for label, code in zip(labels, codes)]
                lookup = np.array(codes, dtype=np.int64)
        mine, size = self._arrays(), len(self._labels)
        axes = [self.LABEL_AXES.get(name, ()) if lookup is not None and isinstance(value, np.ndarray) else () for name, value in zip(self.SUMS, counted)]
        given = [None if not hasattr(value, "shape") else tuple(size if axis in on else length for axis, length in enumerate(value.shape))
                 for value, on in zip(counted, axes)]  # fmt: skip
        if [getattr(values, "shape", None) for values in mine] != given:
            raise InvalidTypeError(f"{type(self).__name__}._count must give its sums {self.SUMS} in their shapes {[getattr(v, 'shape', None) for v in mine]}, got {given}")
        for name, sums, value, on in zip(self.SUMS, mine, counted, axes):
            if on and isinstance(sums, np.ndarray) and sums.dtype.kind == "O" and value.dtype.kind in "iu":
                value = in_units(value)  # (whole counts into exact ones: the batch's cells alone in units)
            if on and isinstance(sums, np.ndarray) and sums.dtype.kind == value.dtype.kind and sums.dtype.kind in "iO" and sums.flags.writeable:
                known = cast(np.ndarray, lookup)
                spots: tuple = (tuple(slice(0, len(known)) if axis in on else slice(None) for axis in range(value.ndim)) if prefix
                              else np.ix_(*(known if axis in on else np.arange(length) for axis, length in enumerate(value.shape))))  # fmt: skip
                sums[spots] += value  # (no other result shares its arrays)
                object.__setattr__(self, name, sums)
            else:  # (a new array: the room its old one had is let go)
                same_codes = lookup is None or (prefix and not isinstance(value, np.ndarray))  # (a table's codes of the first labels are theirs)
                laid = value if same_codes else _laid(value, cast(np.ndarray, lookup), size, self.LABEL_AXES.get(name, ()))
                object.__setattr__(self, name, _plus(sums, laid))
                self.__dict__.get("_room_of", {}).pop(name, None)
        if brought:  # (a group the batch brought whose samples weigh nothing holds nothing; the others hold what they held and more)
            vars(self).update(vars(self._settled_groups()))

    def _appended(self, new: Sequence) -> None:
        """Labels ``new`` joined after these, in place: each array's label axes grown by zeros (a
        table's codes, positions of the labels, stay as they are). An array over one label axis
        is a view of a buffer with room for as many labels again as it had (none for a result's
        first labels: one batch's result holds no spare room), so a stream whose batches each
        bring a new label copies its sums O(log labels) times, not at every batch."""
        known, size = len(self._labels), len(self._labels) + len(new)
        rooms = self.__dict__.setdefault("_room_of", {})  # (each result its own: no copy or pickle carries it)
        for name, axes in self.LABEL_AXES.items():
            value, room = getattr(self, name), cast("np.ndarray | None", rooms.get(name))
            if not isinstance(value, np.ndarray):
                continue  # (a table's codes, positions of the labels, stay as they are)
            if len(axes) != 1:
                object.__setattr__(self, name, _laid(value, np.arange(known), size, axes))
                continue
            lead: tuple[slice, ...] = (slice(None),) * axes[0]  # (the axes before the label axis)
            if room is None or value.base is not room or room.shape[axes[0]] < size:  # a new buffer: room for as many labels again as it had
                room = rooms[name] = np.zeros(value.shape[: axes[0]] + (size + known,) + value.shape[axes[0] + 1 :], dtype=value.dtype)
                room[lead + (slice(0, known),)] = value
            else:  # the buffer this result made: the new labels' part set to zero
                room[lead + (slice(known, size),)] = 0
            object.__setattr__(self, name, room[lead + (slice(0, size),)])
        self._labels = (*self._labels, *new)

    def _group_union(self, groups: tuple | None, theirs_empty: bool | None) -> tuple | None:
        """The groups of this result and ``groups`` (another result's, which holds nothing when
        ``theirs_empty``; a batch's: ``None``), sorted; these groups (the same object) when they
        hold those. Counts with groups and without combine where one holds nothing (it takes the
        other's form; where both do, the form with groups), a batch and a part alike.

        Raises:
            InvalidArgumentError: counts with groups and without that both hold something.
        """
        mine = self._groups
        if (mine is None) != (groups is None):
            if theirs_empty and (mine is not None or not self._holds_nothing()):
                return mine
            if self._holds_nothing():
                return groups
            raise InvalidArgumentError("'groups' must be given with every batch or with none: counts with groups and without do not combine")
        if mine is None or groups is None or same_labels(groups, mine):
            return mine
        joined = label_union(mine, groups, ("the groups counted", "groups"))
        return mine if len(joined) == len(mine) else sorted_labels(joined, "groups")

    def _regrouped(self, groups: tuple | None, at: np.ndarray | None = None) -> Self:
        """This result over ``groups`` (sorted), where its group ``g`` is ``at[g]`` (by default
        found: ``groups`` hold its own; ``None``: without groups, for a result that holds nothing)."""
        result = self._shallow()
        if self._groups and groups:
            at = positions_in(self._groups, groups) if at is None else at
            for name, axes in self.GROUP_AXES.items():
                object.__setattr__(result, name, _laid(getattr(self, name), at, len(groups), axes))
        result._groups = groups
        return result

    def _settled_groups(self) -> Self:
        """This result over the groups that hold something, sorted (as one batch of them all
        finds them): a group that a part took all of leaves."""
        if not self._groups:
            return self
        held = np.zeros(len(self._groups), dtype=bool)
        for name, axes in self.GROUP_AXES.items():
            for axis in axes:
                held[cast(KeyedSums, getattr(self, name)).codes(axis)] = True
        kept = [group for group, present in zip(self._groups, held.tolist()) if present]
        order = sorted_labels(kept, "groups")
        if same_labels(order, self._groups):
            return self
        at = np.zeros(len(self._groups), dtype=np.int64)  # (a group that holds nothing has no code to move)
        at[held] = positions_in(kept, order)
        return self._regrouped(order, at)

    def revert(self, *batch: Any, **options: Any) -> None:
        """Take away, in place, a batch counted before (the arguments of ``update``).

        Raises:
            InvalidCountsError: samples that were never counted (or of classes never counted);
                nothing is taken away then.
        """
        rest = self - self.counted(*batch, **options)
        vars(self).update(vars(rest))  # (its sums, and what they are over: a kind may settle its labels or groups anew)

    def _label_index(self, index: dict | None = None, new: Sequence = ()) -> dict:
        """Each label's position, found once for these labels (a batch's labels are looked up in
        it, so that a batch costs its own labels, not every label seen); ``index`` and ``new``:
        the index before the labels ``new`` were appended, grown in place where this result made it."""
        found = self.__dict__.get("_index_of")
        if index is not None and found is not None and found[1] is index:  # (its own: no copy or pickle carries it)
            index.update((label, code) for code, label in enumerate(new, len(self._labels) - len(new)))
        elif found is None or found[0] is not self._labels:
            index = {label: code for code, label in enumerate(self._labels)}
        else:
            return cast(dict, found[1])
        self.__dict__["_index_of"] = (self._labels, index)
        return index

    @classmethod
    def _empty_of(cls, **settings: object) -> Self:
        """The empty state of these settings: the constructor's (a kind built whole, whose
        constructor takes its sums too, makes its own)."""
        return cls(**settings)

    def _settings(self) -> dict[str, Any]:
        """The constructor's keywords that make this result's empty state."""
        return {name: getattr(self, name) for name in self.SETTINGS}

    def _setting_values(self) -> tuple:
        """The settings two results must share to combine (a kind with more than its
        constructor's keywords gives its own)."""
        return tuple(self._settings().values())

    def _same_settings(self, other: Self) -> bool:
        """Whether both have the same settings: the same objects (an empty state's, a copy's),
        or equal values (arrays and lists compared as tuples)."""
        return all(_same_setting(a, b) for a, b in zip(self._setting_values(), other._setting_values()))

    def _numbers(self, name: str) -> np.ndarray:
        """A field of sums as numbers to read: whole counts as they are, float sums each
        correctly rounded (what the reads of a kind start from)."""
        return rounded_counts(getattr(self, name))

    def _arrays(self) -> tuple[Sums, ...]:
        return tuple(getattr(self, name) for name in self.SUMS)

    def _with(self, arrays: Iterable[Sums]) -> Self:
        result = self.empty()
        for name, array in zip(self.SUMS, arrays):
            object.__setattr__(result, name, array)  # (a frozen kind's fields too)
        if self.GROUPS:
            result._groups = self._groups  # (the sums' group codes are positions in these)
        return result

    def _laid_over(self, labels: tuple, lookup: np.ndarray | None = None) -> Self:
        """This result over ``labels``, which hold its labels (in any order, more too; ``lookup``:
        the position of each there, if known): each table's codes recoded, each array's label
        axes laid out."""
        lookup = positions_in(self._labels, labels) if lookup is None else lookup
        result = self._shallow()
        for name, value in zip(self.SUMS, self._arrays()):
            object.__setattr__(result, name, _laid(value, lookup, len(labels), self.LABEL_AXES.get(name, ())))
        result._labels = labels
        return result

    def _aligned(self, other: Self, *, merging: bool = False) -> tuple[Self, Self]:
        """Both in one form to combine: the same settings (one still lacking a setting of
        ``OPEN_SETTINGS`` as the other's empty state), else refused; with ``LABELS``, both over
        the labels of both (this result's first; ``merging``: fixed labels first, in their order).

        Raises:
            LabelMismatchError: other settings (the kind's ``MISMATCH``).
        """
        if not self._same_settings(other):
            mine, theirs = self._opened(other), other._opened(self)
            if mine is not self or theirs is not other:
                return mine._aligned(theirs, merging=merging)
            raise self.MISMATCH(f"cannot combine a {type(self).__name__} of {show(self._settings())} with one of {show(other._settings())}")
        if self.GROUPS and not same_labels(self._groups, other._groups):  # (then both over the groups of both)
            groups = self._group_union(other._groups, theirs_empty=(self._groups is None) != (other._groups is None) and other._holds_nothing())
            return self._regrouped(groups)._aligned(other._regrouped(groups), merging=merging)
        if self.LABELS and not same_labels(self._labels, other._labels):
            first, second = (other, self) if merging and other._fixed and not self._fixed else (self, other)  # (fixed labels keep their order)
            labels = label_union(first._labels, second._labels, ("this result", "the other"))
            return self._laid_over(labels), other._laid_over(labels)
        return self, other

    def _opened(self, other: Self) -> Self:
        """This result, or, where it still lacks a setting of ``OPEN_SETTINGS`` that ``other``
        has, ``other``'s empty state (this one holds nothing then)."""
        settings = self._settings()
        if any(settings[name] is None and other._settings()[name] is not None for name in self.OPEN_SETTINGS):
            return other.empty()
        return self

    def merge(self, other: Self, *, grow: bool = False) -> Self:
        """The sums of both, as if counted together (also ``self + other``)."""
        self._check_kind(other, "merge")
        mine, theirs = self._held()._aligned(other._held(), merging=True)
        return self._joined(mine._with([_plus(a, b) for a, b in zip(mine._arrays(), theirs._arrays())]), other, merging=True)

    def _joined(self, result: Self, other: Self, *, merging: bool = False) -> Self:
        """``result`` with what this result and ``other`` give it together: the more specific
        metrics class (``METRICS_CLASS``); merging (``LABELS``), labels fixed where either's are,
        else this result's; the groups that hold something (``GROUPS``)."""
        if self.METRICS_CLASS:
            object.__setattr__(result, "_metrics_class", merged_metrics_class(cast(MetricsClass, self._metrics_class), cast(MetricsClass, other._metrics_class)))  # (a frozen kind's too)
        if self.LABELS:
            result._fixed = self._fixed or (merging and other._fixed)
        return result._settled_groups()  # (with GROUPS: the groups that hold something)

    def _held(self) -> Self:
        """This result as one state to read while others may count into it: itself (a kind that
        threads count into gives a copy taken under its lock)."""
        return self

    def _shallow(self) -> Self:
        """A result holding this one's fields (its arrays too, not copied): what laying its sums
        out anew starts from."""
        result = cast("Self", object.__new__(type(self)))
        state, setstate = self.__getstate__(), getattr(result, "__setstate__", None)
        if setstate is None:
            vars(result).update(state)
        else:
            setstate(state)
        return result

    def __copy__(self) -> Self:
        """``copy.copy``: an independent copy (a batch counts into a result's arrays in place)."""
        return self.copy()

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the index of its labels and the room its arrays have to grow: each
        result keeps its own (a copy that shared them would find the labels another appended)."""
        parent = getattr(super(), "__getstate__", None)
        state = (parent() if parent is not None else None) or vars(self)
        return {name: value for name, value in state.items() if name not in ("_index_of", "_room_of")}

    def _subtract(self, other: Self) -> Self:
        self, other = self._held(), other._held()  # noqa: PLW0642 (one state of each, read once)
        mine, theirs = self._aligned(other)
        if mine is not self and not mine._same_settings(self):
            if not other._holds_nothing():
                raise InvalidCountsError(f"cannot take away a part with classes or groups this {type(self).__name__} never counted")
            return self.copy()
        try:  # (a label of the part that this result lacks takes nothing away: else a count falls below zero)
            left = mine._with([_without(a, b, name in self.SIGNED) for name, a, b in zip(self.SUMS, mine._arrays(), theirs._arrays())])
        except InvalidCountsError as error:
            raise InvalidCountsError(f"cannot take away a part this {type(self).__name__} never counted: {error}") from None
        why = left._invalid() if self.LEFT_CHECKED else None  # (each sum was checked as it was taken away; what sums owe each other, here)
        if why is not None:
            raise InvalidCountsError(f"cannot take away a part this {type(self).__name__} never counted: {why}")
        if self.LABELS:  # the labels of this result, and, unless they leave (LABELS_LEAVE), those the part brought
            kept = np.zeros(len(left._labels), dtype=bool)
            kept[positions_in(self._labels, left._labels)] = True
            if self.LABELS_LEAVE and not self._fixed:
                brought = np.zeros(len(left._labels), dtype=bool)
                brought[positions_in(other._labels, left._labels)] = True
                kept &= left._labels_held() | ~brought
            if not kept.all():
                left = left._restricted(np.flatnonzero(kept))
        return self._joined(left, other)

    def _labels_held(self) -> np.ndarray:
        """Per label: whether an array of ``LABEL_AXES`` holds anything of it."""
        held = np.zeros(len(self._labels), dtype=bool)
        for name, axes in self.LABEL_AXES.items():
            table = getattr(self, name)
            if isinstance(table, KeyedSums):
                for axis in axes:
                    held[table.codes(axis)] = True
                continue
            values = np.asarray(table) != 0
            for axis in axes:
                held |= values.any(axis=tuple(other for other in range(values.ndim) if other != axis))
        return held

    def _restricted(self, kept: np.ndarray) -> Self:
        """This result over the labels at positions ``kept`` (the others hold nothing): each
        array's label axes taken, each table's codes recoded."""
        lookup = np.full(len(self._labels), -1, dtype=np.int64)
        lookup[kept] = np.arange(len(kept))
        result = self._shallow()
        for name, value in zip(self.SUMS, self._arrays()):
            if isinstance(value, (ScoreTable, KeyedSums)):
                value = _laid(value, lookup, len(kept), self.LABEL_AXES.get(name, ()))
            elif isinstance(value, np.ndarray):
                for axis in self.LABEL_AXES.get(name, ()):
                    value = np.take(value, kept, axis=axis)
            object.__setattr__(result, name, value)
        result._labels = tuple(self._labels[k] for k in kept.tolist())
        return result

    def _scaled(self, factor: float) -> Self:
        held = self._held()
        return held._with([array if name in self.UNSCALED else _times(array, factor) for name, array in zip(self.SUMS, held._arrays())])._settled_groups()  # (a sum scaled to nothing leaves)

    def empty(self) -> Self:
        """The same settings (and labels), nothing counted."""
        result = self._empty_of(**self._settings())
        if self.GROUPS:
            result._groups = None if self._groups is None else ()  # (counts with groups, none held yet)
        if self.LABELS:  # (labels checked once, when first given)
            result._fixed = self._fixed
            result = result if same_labels(result._labels, self._labels) else result._laid_over(self._labels)
        return self._joined(result, self)

    def copy(self) -> Self:
        """An independent copy."""
        held = self._held()
        return held._with([array.copy() if isinstance(array, np.ndarray) else array for array in held._arrays()])

    def __eq__(self, other: object) -> bool:
        if not self._same_kind(other):  # (a subclass's result equals its base's of the same counts, as they merge)
            return NotImplemented
        self, mine = self._held(), cast("Self", other)._held()  # noqa: PLW0642 (one state of each, read once)
        if self.LABELS_LEAVE and not (self._fixed or mine._fixed) and not same_labels(self._labels, mine._labels):  # the same labels in another order
            try:
                union = label_union(self._labels, mine._labels, ("this result", "the other"))
            except EvalkitError:
                return False
            if len(union) == len(self._labels) == len(mine._labels):
                mine = mine._laid_over(self._labels)
        return (self._same_settings(mine) and same_labels(self._labels, mine._labels) and self._metrics_class is mine._metrics_class
                and same_labels(self._groups, mine._groups)
                and all(_same(a, b) for a, b in zip(self._arrays(), mine._arrays())))  # fmt: skip

    __hash__ = None  # type: ignore[assignment]  # counted into in place

    def _document(self) -> dict[str, Any]:
        """The settings as given (and the labels), and each sum's rounded values (flat) with the
        exact rests; a table writes its own columns."""
        self = self._held()  # noqa: PLW0642 (one state, read once)
        document = {name: _written(value) for name, value in self._settings().items()}
        if self.LABELS:
            document.update(labels=serialization.as_list(self._labels), fixed=self._fixed)
        if self.GROUPS:
            document["groups"] = None if self._groups is None else serialization.as_list(self._groups)
        for name, values in zip(self.SUMS, self._arrays()):
            if not isinstance(values, np.ndarray):
                document.update(cast(Any, values).document())  # (a table writes its own fields)
                continue
            key = name.lstrip("_")
            document[key] = rounded_counts(cast(np.ndarray, values)).ravel().tolist()
            document.update(serialization.exact_rests(cast(np.ndarray, values), f"exact_{key}"))
        return {**document, **metrics_class_field(cast(MetricsClass, self._metrics_class))} if self.METRICS_CLASS else document

    @classmethod
    def _read_document(cls, document: dict[str, Any], **options: object) -> Self:
        """The result a document gives (``options``: those of ``from_json``, ``metrics_class=``
        for a kind that carries one)."""
        metrics_class = options.pop("metrics_class", None) if cls.METRICS_CLASS else None
        if options:
            raise InvalidTypeError(f"{cls.__name__}.from_json takes no options {sorted(options)}")
        settings = {name: serialization.label_list(document, name) if name in cls.LABEL_SETTINGS and document.get(name, "") is not None else document.get(name)
                    for name in cls.SETTINGS}  # fmt: skip
        labels: tuple = ()
        if cls.LABELS:
            labels, fixed = serialization.label_list(document, "labels"), serialization.field(document, "fixed")
            if not isinstance(fixed, bool):
                raise serialization.FormatError(f"field 'fixed' must be true or false, got {show(fixed)}")
            settings["labels"] = labels if fixed else None
        try:
            result = cls._empty_of(**settings)
        except (EvalkitError, TypeError, ValueError) as error:  # (a kind's own checks of its settings, whatever they raise)
            raise serialization.FormatError(f"the settings {show(settings)}: {error}") from None
        if cls.LABELS and not same_labels(result._labels, labels):
            result = result._laid_over(labels)  # (arrays as long as the labels the document gives)
        if cls.GROUPS:
            result._groups = None if document.get("groups") is None else serialization.label_list(document, "groups")
        for name, template in zip(cls.SUMS, result._arrays()):
            if not isinstance(template, np.ndarray):
                object.__setattr__(result, name, cast(Any, template).read(document, len(labels)))
                continue
            key, shape = name.lstrip("_"), cast(np.ndarray, template).shape
            floats = cast(np.ndarray, template).dtype.kind in "fO"
            signed = name in cls.SIGNED
            values = serialization.array(serialization.field(document, key), key, length=int(np.prod(shape)), integral=False if floats else None,
                                         low=-math.inf if signed else 0.0).reshape(shape)  # fmt: skip
            if values.dtype.kind != "f" and f"exact_{key}" in document:
                raise serialization.FormatError(f"field 'exact_{key}' gives the rests of float sums, but {key!r} holds whole numbers")
            object.__setattr__(result, name, serialization.exact_counts_of(document, values, f"exact_{key}", signed=signed))
        why = result._invalid()
        if why is not None:
            raise serialization.FormatError(why)
        result = result._settled_groups()  # (a document of groups in another order, or holding nothing)
        if cls.METRICS_CLASS:
            object.__setattr__(result, "_metrics_class", read_metrics_class(document, metrics_class))
        return result

    def _invalid(self) -> str | None:
        """What makes these sums ones no counting gives (a document's, or what is left after
        taking away a part never added), or None: each kind states its own rules."""
        return None
