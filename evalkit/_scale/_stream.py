"""A stream: any counted result counted batch after batch, in place (its public path is
``evalkit.Stream``); and the lock every stream holds.

A result that is a value (``Evaluation``, ``ThresholdCurve``, ``Calibration``, ``ByGroup``,
``Agreement``) is made whole from one batch by its constructor. ``Stream(build, **options)``
makes it the object users count into: each batch is ``build(*batch, sample_weight=w,
**options)``, merged into what was counted before (``merge(..., grow=True)``: classes a later
batch brings join), so the stream's ``result()`` equals the result of all its batches at once.
A stream is a counted result itself: it merges, subtracts, scales (as far as the result it
counts does), writes JSON, and runs in every window (``Windowed``, ``Faded``, ``Tumbling``)
and every fold (Dask, Spark).

What mutates, in evalkit: the objects users count into (a stream, a window, and the results
counted into in place as the Java libraries do: ``ConfusionMatrix``, ``RegressionMetrics``,
``RiskCoverage``, the coverages); every other result is a value, made whole and combined into
new values.

Examples:
    >>> from evalkit import Evaluation
    >>> stream = Stream(Evaluation.from_label_sets)
    >>> stream.update([{"a"}, {"a", "b"}], [{"a"}, {"b"}])
    >>> stream.update([{"c"}], [{"a", "c"}])  # "c" joins in the second batch
    >>> result = stream.result()
    >>> result.labels, round(result.average("f1_score", "micro"), 4)
    (('a', 'b', 'c'), 0.75)
"""

from __future__ import annotations

import functools
import inspect
import json
import math
import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Generic, cast

import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine import moved_names, serialization
from evalkit._engine._validation import same_value, show
from evalkit._results.counted import ALL_OPERATIONS, CountedState, Kind, kinds_of_result
from evalkit.exceptions import (
    EmptyInputError,
    EvalkitError,
    InvalidArgumentError,
    InvalidCountsError,
    InvalidTypeError,
    LabelMismatchError,
)

if TYPE_CHECKING:
    from typing_extensions import Self  # typing.Self of Python 3.11, for type checkers only

__all__ = ["MERGE_FACTOR", "Stream"]


class _Locked:
    """A lock that writers hold while they change the counts and readers while they read, so
    that threads may update and read one accumulator together; pickled without it."""

    _lock: threading.RLock

    def __getstate__(self) -> dict[str, Any]:
        with self._lock:
            return {name: value for name, value in vars(self).items() if name != "_lock"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        vars(self).update(state)
        self._lock = threading.RLock()


MERGE_FACTOR = 4
"""Pending parts of a stream are merged while the one before is at most this many times the
size of the last (its ``n_points``, for the kinds that say how many points they keep; the
others merge each batch at once): parts take about ``MERGE_FACTOR / (MERGE_FACTOR - 1)`` times
the largest one's memory, at a few merges of each point."""

_BY_PART = frozenset({"subtract", "scale"})
"""The operations a stream has when the result it counts has them."""


def _plain(value: object) -> object:
    """An option as plain data, as JSON reads it back (arrays and tuples as lists)."""
    if isinstance(value, (np.ndarray, tuple, list)):
        return [_plain(item) for item in (value.tolist() if isinstance(value, np.ndarray) else value)]
    return value.item() if isinstance(value, np.generic) else value


def _is_data(value: object) -> bool:
    """Whether an option is JSON data (what a document can name, read back as it was)."""
    if isinstance(value, list):
        return all(_is_data(item) for item in value)
    return value is None or isinstance(value, (bool, int, str)) or (isinstance(value, float) and math.isfinite(value))


class Stream(CountedState, _Locked, Generic[Kind]):
    """A counted result made batch after batch (mutable): each batch counted by ``build``, a
    result's constructor of one batch, with ``options``, and merged into the rest.

    Args:
        build: a constructor of a counted result from one batch, a class method such as
            ``Evaluation.from_label_sets``, ``ThresholdCurve.from_scores`` or
            ``ByGroup.from_labels``.
        options: its keyword arguments for every batch (``labels=``, ``thresholds=``, ...).

    Raises:
        InvalidTypeError: ``build`` is no class method of a counted result.
        InvalidArgumentError: an option ``build`` does not take.
    """

    DOCUMENT = "Stream"
    REFUSED: ClassVar[Mapping[str, str]] = {
        operation: f"the result it counts does not {'take a part away' if operation in ('subtract', 'revert') else 'scale'}"
        for operation in ("subtract", "revert", "scale")
    } | {"json": "an option is no JSON data (a class or an object): give it by name"}
    _NOTHING: ClassVar[str] = "nothing was counted"
    _table: Any = None  # a table that counts single events in place (a kind of stream's hook, _new_table), or None

    def __init__(self, build: Callable[..., Kind], /, **options: object) -> None:
        kind = getattr(build, "__self__", None)
        if not (isinstance(kind, type) and issubclass(kind, CountedState) and getattr(kind, "DOCUMENT", None)):
            raise InvalidTypeError(f"'build' must be a class method of a counted result (as Evaluation.from_label_sets), got {show(build)}")
        signature = inspect.signature(build)
        columns = [name for name in options if name == "sample_weight" or (name in signature.parameters and signature.parameters[name].default is inspect.Parameter.empty)]
        try:
            signature.bind_partial(**options)
            if columns:
                raise TypeError(f"{columns[0]!r} is a batch's column, given to update")
        except TypeError as error:
            raise InvalidArgumentError(f"'options' must be keywords {kind.__name__}.{build.__name__} takes: {error}") from None
        self._kind, self._name = kind, build.__name__  # (the class and the name: a pickled method may come back as another function object)
        self._options = {name: _plain(value) for name, value in options.items()}
        operations = (ALL_OPERATIONS - _BY_PART - {"revert", "json"}) | (kind.OPERATIONS & _BY_PART)
        operations |= {"revert"} if "subtract" in kind.OPERATIONS else set()
        operations |= {"json"} if all(_is_data(value) for value in self._options.values()) else set()
        self.OPERATIONS = frozenset(operations)  # type: ignore[misc]  # (this stream's own: what the result it counts supports)
        self._start()

    @property
    def _build(self) -> Callable[..., Kind]:
        """The constructor of a batch's result."""
        return cast("Callable[..., Kind]", getattr(self._kind, self._name))

    def _start(self) -> None:
        self._parts: list[Kind] = []  # results, each over MERGE_FACTOR times the size of the next
        self._lock = threading.RLock()

    # ----------------------------------------------------------------------------------------
    # counting

    def update(self, *batch: object, sample_weight: ArrayLike | None = None, **columns: object) -> None:
        """Count a batch (the arguments of ``build``, after its options).

        Raises:
            EvalkitError: what ``build`` raises for the batch, or its result's ``merge`` (a
                batch of classes the counts cannot take); nothing is counted then.
        """
        if sample_weight is None and not columns and self._one_event(batch, 1):
            return
        self._add_batch(*self._batch(*batch, sample_weight=sample_weight, **columns))

    def revert(self, *batch: object, sample_weight: ArrayLike | None = None, **columns: object) -> None:
        """Take away, in place, a batch counted before (a sliding window's oldest).

        Raises:
            UnsupportedSettingError: the result counted does not take parts away.
            InvalidCountsError: samples that were never counted; nothing is taken away then.
        """
        if sample_weight is None and not columns and self._one_event(batch, -1):
            return
        self._require("revert")
        part, _ = self._batch(*batch, sample_weight=sample_weight, **columns)
        with self._lock:
            self._result = self._read() - part

    def result(self) -> Kind:
        """The result of everything counted so far (a copy, for a result counted into in place).

        Raises:
            EmptyInputError: nothing was counted.
        """
        found = self._read()
        return found.copy() if found.supports("update") else found

    def _batch(self, *batch: object, sample_weight: ArrayLike | None = None, **columns: object) -> tuple[Kind, dict[str, Any]]:
        """A batch counted as a result of its own (outside the lock), and the settings it fixes
        when it is the first (a kind of stream's: the classes of later batches)."""
        build = self._build
        if sample_weight is None:  # (a constructor of unweighted batches takes no weights at all)
            return build(*batch, **self._options, **columns), {}
        if "sample_weight" not in inspect.signature(build).parameters:
            raise InvalidArgumentError(f"'sample_weight' given, but {self._kind.__name__}.{self._name} takes none: count its batches unweighted")
        return build(*batch, sample_weight=sample_weight, **self._options, **columns), {}

    def _counted_batch(self, *batch: object, sample_weight: ArrayLike | None = None) -> Callable[[], None]:
        """A batch counted as a result of its own now, and what merges it into the counts later
        (a reader lets go of a chunk's rows in between)."""
        return functools.partial(self._add_batch, *self._batch(*batch, sample_weight=sample_weight))

    def _add_batch(self, batch: Kind, first: dict[str, Any]) -> None:
        """Merge a batch counted as a result of its own into the counts (``first``: the settings
        it fixes when nothing was counted before)."""
        with self._lock:  # counted outside, merged inside: no update is lost
            self._settle()
            self._table = None
            if not self._parts:
                vars(self).update(first)
            self._parts.append(batch)
            try:
                self._merge_parts()
            except EvalkitError:
                self._parts.pop()  # the batch that does not merge: counted as if never given
                raise

    def _one_event(self, batch: tuple, amount: int) -> bool:
        """Count (``amount`` 1) or take away (-1) a few unweighted samples in place, in a table
        of the kind of stream (``_new_table``: a sliding window's events); False when the general
        path must count them (the default: every batch is counted by ``build``)."""
        return False

    def _new_table(self, result: Kind) -> Any:
        """A table of ``result`` that counts single events in place, or None (the default)."""
        return None

    def _from_table(self, table: Any, before: Kind) -> Kind:
        """The result of a table's counts (``before``: the result it was made from)."""
        raise NotImplementedError

    @staticmethod
    def _size(part: CountedState) -> int:
        """What a part keeps: its points (a curve's, a calibration's), or its items (rows kept in
        order, an agreement's); 0 for a kind of fixed size (each batch merged at once)."""
        return cast(int, getattr(part, "n_points", None) or getattr(part, "n_items", 0))

    def _merge_parts(self, *, everything: bool = False) -> None:
        """Merge the rightmost parts: all of them, or while the one before is at most
        ``MERGE_FACTOR`` times the size of the last. The sizes then fall by more than that
        factor from each part to the next, so the parts hold little more than the largest one
        (however much the batches repeat each other's points), and each point is merged a
        logarithmic number of times."""
        parts = self._parts
        while len(parts) > 1 and (everything or self._size(parts[-2]) <= MERGE_FACTOR * max(self._size(parts[-1]), 1)):
            parts[-2:] = [parts[-2].merge(parts[-1], grow=True)]  # replaced once merged: a merge that fails loses no part

    def _settle(self) -> None:
        """The result of the table, when events changed it since it was last read (the caller
        holds the lock)."""
        table = self._table
        if table is not None and table.changed:
            self._parts = [self._from_table(table, self._parts[0])]
            table.changed = False

    @property
    def _result(self) -> Kind | None:
        """Everything counted so far, as one result (the pending parts merged)."""
        with self._lock:
            self._settle()
            if not self._parts:
                return None
            self._merge_parts(everything=True)
            whole = self._parts[0] = self._read_back(self._parts[0])
            return whole

    @_result.setter
    def _result(self, result: Kind | None) -> None:
        with self._lock:
            self._table = None
            self._parts = [] if result is None else [result]

    def _read_back(self, part: Kind) -> Kind:
        """A part as every result of its kind is (a kind of stream may keep narrower parts)."""
        return part

    def _read(self) -> Kind:
        result = self._result
        if result is None:
            raise EmptyInputError(f"{self._NOTHING}: nothing to read")
        return result

    @property
    def n_points(self) -> int:
        """How many points the counted parts keep, for results that say (a curve's thresholds
        of every class, a calibration's bins): the memory of the counts."""
        with self._lock:
            return sum(self._size(part) for part in self._parts)

    # ----------------------------------------------------------------------------------------
    # the counted-state protocol: the result counted, and the settings

    def _fresh(self) -> Self:
        """Counts of these settings, nothing counted."""
        fresh = cast("Self", object.__new__(type(self)))
        vars(fresh).update({name: value for name, value in vars(self).items() if name not in ("_parts", "_lock", "_table")})
        fresh._start()
        return fresh

    def _with_result(self, result: Kind | None) -> Self:
        counts = self._fresh()
        counts._result = result
        return counts

    def merge(self, other: Self, *, grow: bool = False) -> Self:
        """New counts of both streams (one that counted nothing adds nothing).

        Raises:
            InvalidTypeError: not a stream of this kind.
            LabelMismatchError: a stream of other settings.
        """
        if type(other) is not type(self):
            raise InvalidTypeError(f"can only merge a {type(self).__name__}, got {show(other)}")
        merged = self._merged_settings(other)
        parts = [result for result in (self._result, other._result) if result is not None]  # each collapsed once
        merged._result = parts[0].merge(parts[1], grow=True) if len(parts) == 2 else (parts[0] if parts else None)
        return merged

    def _merged_settings(self, other: Self) -> Self:
        """Empty counts of the settings of both (a kind of stream may join what each fixed).

        Raises:
            LabelMismatchError: other settings.
        """
        if not self._same_settings(other):
            raise LabelMismatchError(f"cannot merge a {type(self).__name__} of {self._kind.__name__}.{self._name}, {show(self._options)} "
                                     f"with one of {other._kind.__name__}.{other._name}, {show(other._options)}")
        return self._fresh()

    def _subtract(self, other: Self) -> Self:
        """These counts without ``other``'s, a stream merged into them."""
        mine, theirs = self._result, other._result
        if theirs is None:
            return self.copy()
        if mine is None:
            raise InvalidCountsError("cannot take away counts from counts of nothing")
        return self._with_result(mine - theirs)

    def _scaled(self, factor: float) -> Self:
        result = self._result
        return self._with_result(None if result is None else result.scaled(factor))

    def empty(self) -> Self:
        """Counts with the same settings, nothing counted."""
        return self._fresh()

    def _keeps_order(self) -> bool:
        result = self._result
        return result is not None and result._keeps_order()

    def _holds_nothing(self) -> bool:
        """No result counted, or one that holds nothing (a part taken away from what held only it)."""
        result = self._result
        return result is None or result._holds_nothing()

    def copy(self) -> Self:
        """An independent copy (the counts so far, merged into one part)."""
        result = self._result
        return self._with_result(result.copy() if result is not None and result.supports("update") else result)

    def _same_settings(self, other: Self) -> bool:
        names = [name for name in vars(self) if name not in ("_parts", "_lock", "_table")]
        return all(same_value(getattr(self, name), getattr(other, name)) or getattr(self, name) is getattr(other, name) for name in names)

    def __eq__(self, other: object) -> bool:
        """The same counts: settings and everything counted (however batched)."""
        if type(other) is not type(self):
            return NotImplemented
        return self._same_settings(cast("Self", other)) and self._result == cast("Self", other)._result

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._result!r})"

    def _settings(self) -> dict[str, Any]:
        """The settings as JSON data."""
        self._require("json")
        return {"build": f"{self._kind.__name__}.{self._name}", "kind": self._kind.DOCUMENT, "options": self._options}

    @classmethod
    def _from_settings(cls, document: dict[str, Any]) -> Self:
        kind_name, build = serialization.field(document, "kind"), serialization.field(document, "build")
        class_name, _, name = build.rpartition(".") if isinstance(build, str) else ("", "", "")
        kinds = [kind for kind in kinds_of_result() if kind.__name__ == class_name and getattr(kind, "DOCUMENT", None) == kind_name]
        method = getattr(kinds[0], name, None) if kinds and name.startswith("from_") and name != "from_json" else None
        if method is None or getattr(method, "__self__", None) is not kinds[0]:
            raise serialization.FormatError(f"fields 'kind' and 'build' must name a counted result and its constructor, got {show(kind_name)} and {show(build)}")
        options = serialization.field(document, "options")
        if not isinstance(options, dict):
            raise serialization.FormatError(f"field 'options' must be an object, got {show(options)}")
        try:
            return cls(method, **options)
        except EvalkitError as error:
            raise serialization.FormatError(f"field 'options': {error}") from None

    def _document(self) -> dict[str, Any]:
        """The settings and the result counted (its own document), or null before the first batch."""
        result = self._result
        return {**self._settings(), "result": None if result is None else json.loads(result.to_json())}

    @classmethod
    def _read_document(cls, document: dict[str, Any], **options: object) -> Self:
        counts = cls._from_settings(document)
        result = document.get("result")
        if result is not None and not isinstance(result, dict):
            raise serialization.FormatError(f"field 'result' must be the document of a result, got {show(result)}")
        counts._result = None if result is None else counts._read_result(result)
        return counts

    def _read_result(self, document: dict[str, Any]) -> Kind:
        return cast(Kind, self._kind.from_json(json.dumps(document)))


moved_names.publish("evalkit", globals(), ["Stream"])  # given by the face on first use: named so from the start (pickles, reprs)
