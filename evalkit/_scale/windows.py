"""Results over time: the last samples of a stream, a decayed past, and one result per period.

Each takes a counted result as its template (a ``ConfusionMatrix`` with its labels, a
``LabelSetCounts``, a ``CurveCounts`` for exact ROC AUC and average precision, a
``CalibrationCounts``), counts every batch with ``template.counted(...)`` and moves the past
through the counted-state protocol alone (``+``, ``-``, ``scaled``), so a window answers
whatever its result answers: ``window.result`` is that result, and ``window.get_accuracy()``,
``window.average("f1_score", "macro")``, ``window.n_samples``, ``window.curve()`` are read from
it; ``len(window)`` is the number of samples it holds, whatever their weights.

* ``Windowed(template, size=N)``: the last ``N`` samples; a batch that crosses the edge is
  split, so the window always holds exactly the last ``N`` (River's ``Rolling``, MOA's
  ``WindowClassificationPerformanceEvaluator`` over samples). ``period=`` instead keeps the
  samples whose time (given with each batch) is within ``period`` of the latest.
* ``Faded(template, factor=f)`` or ``half_life=h``: every sample weighs ``f**age`` (age 0 for
  the newest), as MOA's fading factor; ``effective_size`` is Kish's ``(Σw)² / Σw²``.
* ``Tumbling(template, size=N)``: one result per ``N`` samples (CapyMOA's windowed evaluator):
  ``history`` holds the closed windows, ``result`` the open one, ``table(...)`` one value of
  each.

A window's result equals the same result counted from the samples it holds (integer counts
exactly; weighted counts to rounding: the kinds that keep exact sums add and take away each
part exactly, the others are re-summed from the parts once every window length so that
rounding never builds up). A window whose template was made without labels (``ConfusionMatrix()``)
takes in new classes as they come.

Every window is as thread-safe as a ``ConfusionMatrix``: an update and a read each hold the
window's lock, so threads sharing one window lose no sample and a read sees one state. Windows
write themselves as JSON (``to_json``/``from_json``, with the samples still in them) and pickle,
so a service restored from its checkpoint keeps its window.

Examples:
    >>> from evalkit import ConfusionMatrix
    >>> window = Windowed(ConfusionMatrix(["cat", "dog"]), size=3)
    >>> window.update(["cat", "dog", "dog", "cat"], ["cat", "dog", "cat", "cat"])
    >>> window.n_samples, window.get_accuracy()     # the last three: dog/dog, dog/cat, cat/cat
    (3, 0.6666666666666666)
"""

from __future__ import annotations

import collections
import contextlib
import copy
import functools
import math
import threading
import types
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, cast

import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine import moved_names, serialization
from evalkit._engine._types import LabelsLike
from evalkit._engine._validation import check_choice, check_positive_number, show
from evalkit._engine.counting import encode
from evalkit._groups._values import value_of
from evalkit._results._closed_form import Interval
from evalkit._results.confusion_matrix import ConfusionMatrix
from evalkit._results.counted import CountedState, check_factor, read_result, result_document
from evalkit._scale._batches import (
    Batch,
    batch_arrays,
    batch_document,
    checked_times,
    one_event,
    read_batch,
    split_columns,
)
from evalkit.exceptions import (
    EmptyInputError,
    EvalkitError,
    InvalidArgumentError,
    InvalidTypeError,
    UnsupportedSettingError,
)
from evalkit.measures._averaging import Averaged, UndefinedPolicy
from evalkit.measures._registry import MeasureLike

_Batch = Batch  # (the name a window's pickle of an earlier build gives its batches)

__all__ = ["Faded", "FadedPerClass", "PairCounter", "Tumbling", "Windowed", "result_of"]

R = TypeVar("R", bound=CountedState)
"""The kind of result a window holds (its template's)."""



def _fixed_time(options: Mapping[str, object]) -> None:
    """Refuse ``anytime=True`` of a window: a confidence sequence covers one stream that only
    grows, and a window's samples leave it (or fade), so its bounds would cover nothing at
    every time. The stream's own result (a ``ConfusionMatrix`` counted as it goes) gives the
    sequence."""
    if options.get("anytime"):
        raise UnsupportedSettingError("anytime=True is a confidence sequence of one stream that only grows; a window's samples leave it, "
                                      "so no sequence covers it: read interval(..., anytime=True) of the stream's own result")  # fmt: skip


class PairCounter(Protocol):
    """What counts (actual, predicted) pairs as they come: a ``ConfusionMatrix``, a stream
    counter, or a window of one."""

    def update(self, y_true: LabelsLike, y_pred: LabelsLike, /) -> None: ...


def _check_template(template: R) -> R:
    if not isinstance(template, CountedState):
        raise InvalidTypeError(f"'template' must be a counted result (a ConfusionMatrix, LabelSetCounts, CurveCounts, ...), got {show(template)}")
    template._require("count")
    return template


def _check_size(size: object, argument: str = "size") -> int:
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 1:
        raise InvalidArgumentError(f"{argument!r} must be a positive whole number of samples, got {show(size)}")
    return int(size)


_CHANGES = {
    "update_one": "",
    "inc": "count through the window, window.update([actual], [predicted]) with the labels",
    "update_indices": "count through the window, window.update(y_true, y_pred) with the labels",
    "revert": "a window takes its samples away itself as they leave",
    "reset": "make a new window",
    "set": "store the value on a copy, window.result",
}
"""The methods by which a result changes in place, which a window must not pass to its result
(samples it would not know of); ``update_one`` it counts itself: what else to do."""


class _Over(serialization.Document, Generic[R]):
    """What every window shares: the template, the result so far, reading through it, a lock
    that updates and reads hold, and the JSON document of all of it."""

    _cells = False  # the default of a window pickled before windows found a matrix's cells themselves: it counts by labels
    _rounding = True  # ... and before it knew whether its counts round: re-summed as then

    def __init__(self, template: R) -> None:
        self._lock = threading.RLock()
        self._template = _check_template(template)
        self._result = template.empty()
        self._updates = template.supports("update")  # a mutable result counts a batch in place, with no part of its own
        self._reverts = template.supports("revert")  # ... and takes unweighted samples away again in place (O(1) a sample)
        self._cells = hasattr(template, "_event_cell")  # a matrix (a regression): one event is a cell (two floats), found once as it comes

    @property
    def result(self) -> R:
        """The window's result (a copy: changing it leaves the window alone)."""
        with self._lock:
            copied: R = self._result.copy()
        return copied

    @property
    def _result(self) -> R:
        """The result so far (the stream's hot paths read ``_current`` itself)."""
        return self._current

    @_result.setter
    def _result(self, result: R) -> None:
        self._current = result
        self._held = _own_lock(result)  # (found once: a lookup of a missing attribute can cost microseconds)
        for name in self.__dict__.pop("_delegated", ()):  # the reads bound to the result it replaces
            self.__dict__.pop(name, None)
        if type(self).average is _Over.average:  # (a subclass's own average stays its own)
            self._keep("average", getattr(result, "average", None))  # what a stream reads at every event: the result's, with no step between

    def _keep(self, name: str, found: object) -> object:
        """A method of the result read under the window's lock (or the result's own, which a
        window's update holds while it changes the result in more than one step), kept until
        the result is replaced, so that the next read of ``name`` finds it at once (an
        instance's attribute comes before its class's)."""
        if not isinstance(found, types.MethodType):
            return found
        own = _own_lock(found.__self__) is not _NO_LOCK  # a result that reads under its own lock, which updates hold too
        locked = found if own else _locked(found, self._lock)
        if found.__self__ is self.__dict__.get("_current"):  # (a Faded's result, made anew at every change, has none)
            self.__dict__.setdefault("_delegated", set()).add(name)  # (once, however many readers missed it at once)
            self.__dict__[name] = locked
        return locked

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        if name in _CHANGES and hasattr(self._template, name):  # a change of the result the window would not know of
            if name == "update_one":
                return self._update_one
            raise UnsupportedSettingError(f"{type(self).__name__}.{name} would change the window's result behind the window (its samples would never "
                                          f"leave it, or leave twice): {_CHANGES[name]}")  # fmt: skip
        with self._lock:
            found = getattr(self._result, name)  # a window answers what its result answers
            return self._keep(name, found)

    def _update_one(self, y_true: object, y_pred: object, /) -> None:
        """One sample counted through the window, as the result's ``update_one`` counts it:
        ``update([y_true], [y_pred])``.

        Raises:
            InvalidTypeError: a list or an array where one sample's value is wanted (a batch of one
                went through as that sample: ``[1.0]`` counted as the value 1.0).
        """
        for argument, value in (("y_true", y_true), ("y_pred", y_pred)):
            if isinstance(value, list) or (isinstance(value, np.ndarray) and value.ndim):
                raise InvalidTypeError(f"{argument!r} must be one sample's value (update_one counts one sample; update counts a batch), got {show(value)}")
        cast(Any, self).update([y_true], [y_pred])

    def __getstate__(self) -> dict[str, Any]:
        """The window's state, without the reads it keeps and its lock, its result under
        ``_result`` (as windows stored it before they kept reads)."""
        with self._lock:  # (what threads change in place, copied: a pickle is written after the lock is let go)
            state: dict[str, Any] = {name: _held_copy(value) for name, value in self.__dict__.items()}
        for name in state.pop("_delegated", ()):
            state.pop(name, None)
        state.pop("_lock", None)
        state.pop("_held", None)
        if "_current" in state:
            state["_result"] = state.pop("_current")
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        state = dict(state)
        result = state.pop("_result", None)
        self.__dict__.update(state, _lock=threading.RLock())
        if result is not None:
            self._result = result  # (the setter: the reads it keeps start again)

    def average(self, measure: MeasureLike, average: str = "macro", **options: object) -> Averaged:
        """The ``average`` of the window's result (see the result's own)."""
        with self._lock:
            return cast(Any, self._result).average(measure, average, **options)

    def interval(self, measure: MeasureLike, average: str | None = None, **options: Any) -> Interval:
        """The ``interval`` of the window's result (see the result's own), at one time.

        Raises:
            UnsupportedSettingError: ``anytime=True`` (see ``_fixed_time``).
        """
        _fixed_time(options)
        with self._lock:
            found: Interval = cast(Any, self._result).interval(measure, average, **options)
            return found

    # ----------------------------------------------------------------------------------------
    # JSON: the template, the settings and the state, each result in its own document

    def _settings_document(self) -> dict[str, Any]:
        raise NotImplementedError

    def _state_document(self) -> dict[str, Any]:
        raise NotImplementedError

    def _read_state(self, document: dict[str, Any], options: dict[str, Any]) -> None:
        raise NotImplementedError

    def _document(self) -> dict[str, Any]:
        with self._lock:
            return {"template": result_document(self._template), **self._settings_document(), **self._state_document()}

    @classmethod
    def _read_document(cls, document: dict[str, Any], **options: object) -> _Over[R]:
        """A window of a document ``to_json`` wrote (``options``, such as ``metrics_class=``,
        go to the reading of its results)."""
        template = cast(R, read_result(serialization.field(document, "template"), "template", options))
        try:
            window = cls(template, **cls._read_settings(document))
        except EvalkitError as error:
            raise serialization.FormatError(f"the window's settings: {error}") from None
        window._read_state(document, options)
        return window

    @classmethod
    def _read_settings(cls, document: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def _read_kind(self, document: object, name: str, options: dict[str, Any]) -> R:
        """A result of the document's field ``name``, of the template's kind."""
        result = read_result(document, name, options)
        if type(result) is not type(self._template):
            raise serialization.FormatError(f"field {name!r} must be a {type(self._template).__name__} as the template is, got a {type(result).__name__}")
        return cast(R, result)


_RLOCK = type(threading.RLock())


_NO_LOCK = contextlib.nullcontext()


def _own_lock(result: object) -> contextlib.AbstractContextManager[object]:
    """The lock of a result that reads under its own (a ``ConfusionMatrix``, a stream counter),
    which a window holds while it changes the result in more than one step; else a lock of no one."""
    try:
        lock = object.__getattribute__(result, "_lock")  # (not through a result's __getattr__, which may build an error to suggest a name)
    except AttributeError:
        return _NO_LOCK
    return lock if isinstance(lock, _RLOCK) else _NO_LOCK


def _locked(method: Callable[..., Any], lock: threading.RLock) -> Callable[..., Any]:
    """``method`` called under ``lock`` (a window's read of its result: one state, never half an update)."""

    @functools.wraps(method)
    def read(*args: object, **kwargs: object) -> object:
        lock.acquire()  # (not `with`: half the cost, on every read of a stream)
        try:
            return method(*args, **kwargs)
        finally:
            lock.release()

    return read


class Windowed(_Over[R]):
    """The last ``size`` samples of a stream, or those within ``period`` of the latest time.

    Args:
        template: an empty counted result with the settings of the stream (labels, bins).
        size: how many samples the window holds.
        period: instead of ``size``, how far back in time (the unit of the times given to
            ``update``) the window reaches: a sample of time ``t`` leaves once a sample of
            time ``t + period`` or later has arrived.
    """

    def __init__(self, template: R, size: int | None = None, *, period: float | None = None) -> None:
        super().__init__(template)
        if (size is None) == (period is None):
            raise InvalidArgumentError("give the window's 'size' (samples) or its 'period' (time), one of them")
        self._begin(None if size is None else _check_size(size), None if period is None else check_positive_number("period", period))

    def _begin(self, size: int | None, period: float | None) -> None:
        """An empty window of ``size`` samples, of ``period`` of time, or of neither (a subclass
        that decides itself how many samples leave: ``_excess``)."""
        self.size, self.period = size, period
        self._batches: collections.deque[Batch[R]] = collections.deque()
        self._count = 0
        self._latest = -math.inf
        self._taken = 0  # parts taken away since the result was last re-summed from the parts
        self._rounding = False  # a weighted batch came since the result was last re-summed (see _rounds)

    def __len__(self) -> int:
        """How many samples the window holds (whatever their weights)."""
        with self._lock:
            return self._count

    def update(self, *batch: LabelsLike, sample_weight: ArrayLike | None = None, time: ArrayLike | None = None, **columns: object) -> None:
        """Add a batch (the template's ``update`` arguments: ``y_true, y_pred`` or ``y_true,
        y_score``, and its keyword columns: a coverage's ``groups=``), with weights and, for a
        window of ``period``, the time of each sample (or one time for the batch; times never
        go back)."""
        lock = self._lock
        lock.acquire()  # (not `with`: half the cost, on every event of a stream)
        try:
            if sample_weight is None and time is None and not columns and self._one_event(batch):  # a stream's event: no copy, no check of lengths
                return
            with self._held:  # in and out in one change, for a reader of the result
                self._update(batch, sample_weight, time, columns)
        finally:
            lock.release()

    def _update(self, batch: tuple[LabelsLike, ...], sample_weight: ArrayLike | None, time: ArrayLike | None, columns: dict[str, object]) -> None:
        arrays, names, weight, times, n = batch_arrays(batch, sample_weight, time, columns, None if self.period is None else {"period": self.period})
        if self.period is not None:
            if times is None:
                raise InvalidArgumentError("a window of 'period' needs the time of every batch: update(..., time=t)")
            if times.size and (times.min() < self._latest or np.any(np.diff(times) < 0)):
                raise InvalidArgumentError(f"times must not go back: got {show(times)} after {self._latest}")
        if n == 0:
            return
        self._rounding = self._rounding or weight is not None
        positional, named = split_columns(arrays, names)
        if self._reverts and weight is None:
            cast(Any, self._result).update(*positional, **named)
            part = None
        else:
            part = self._template.counted(*positional, sample_weight=weight, **named)
            self._result += part  # in place for the mutable kinds
        self._batches.append(Batch(arrays, weight, times, part, names=names))
        self._count += n
        if self.period is not None:
            assert times is not None
            self._latest = float(times[-1])
            self._leave_before(self._latest - self.period)
        else:
            self._leave_first(self._excess(positional))

    def _excess(self, batch: Sequence[Any]) -> int:
        """How many of the oldest samples leave once ``batch`` (its positional columns) has joined."""
        assert self.size is not None
        return self._count - self.size

    def _one_event(self, batch: tuple[LabelsLike, ...]) -> bool:
        """Count one event of a window of ``size`` whose result takes samples away itself or
        counts an event as a cell (``_event_cell``): its two values in a one-element list each,
        as River's ``Rolling`` takes them, in O(1) (the oldest event leaves when the window is
        full). False, with nothing changed, for anything else: the general path counts it."""
        size, event = self.size, one_event(batch)
        if event is None or size is None or not (self._reverts or self._cells):
            return False
        with self._held:  # the new event in and the oldest out in one change, for a reader of the result
            actual, predicted = event
            result: Any = self._current
            batches, count = self._batches, self._count + 1
            leaving = batches[0].cell if count == size + 1 else None  # a full window's oldest event, leaving as it came (a cell), or None
            cell = result._event_cell(actual, predicted) if self._cells else None
            # a matrix's cell (a regression's two floats), found once: counted now, and taken away again when it leaves, with no second look
            if cell is not None and result._count_event(cell, 1, leaving):
                if leaving is not None:  # ... with the oldest taken away in the same change
                    batches.popleft()
                    count -= 1
            elif self._reverts:
                result.update([actual], [predicted])
                cell = None
            else:
                return False  # nothing changed: the general path counts it as a part
            batches.append(Batch(([actual], [predicted]), None, None, None, cell))  # copies: a caller reusing its lists changes nothing here
            self._count = count
            if count > size:  # the oldest did not leave with the new event: it leaves as it came (_take)
                self._leave_first(count - size)
            return True

    @property
    def latest(self) -> float:
        """The latest time a window of ``period`` has seen (``-inf`` before any)."""
        return self._latest

    def advance(self, time: float) -> None:
        """Move a window of ``period`` on to ``time`` with no new sample: the samples of time
        ``time - period`` or earlier leave (what the window holds at the end of an hour, say).

        Raises:
            InvalidArgumentError: a window of ``size``, or a time before the latest.
        """
        if self.period is None:
            raise InvalidArgumentError("advance(time) moves a window of 'period'; a window of 'size' moves with its samples")
        moment = float(checked_times(time, 1, {"period": self.period})[0])
        if moment < self._latest:
            raise InvalidArgumentError(f"times must not go back: got {show(time)} after {self._latest}")
        with self._lock, self._held:
            self._latest = moment
            self._leave_before(moment - self.period)

    def _leave_first(self, excess: int) -> None:
        """Take the oldest ``excess`` samples away. A weighted batch that only partly leaves is
        taken away whole, as it was added, and the samples that stay are counted again: its
        leaving samples counted alone would sum their weights in another order than the batch
        did, and what stays would be off by that rounding (below zero, at worst)."""
        while excess > 0:
            oldest = self._batches[0]
            if len(oldest) <= excess:
                self._batches.popleft()
                excess -= len(oldest)
                self._take(oldest)
                continue
            whole = None if oldest.weight is None else oldest.counted(self._template)  # its part as added (a restored window's: counted again, the same)
            leaving = oldest.split(excess)
            if whole is None:
                self._take(leaving)
            else:
                oldest.part = oldest.counted(self._template)
                if cast(Any, self._result)._keeps_order():  # (samples in order: those that stay before the later ones)
                    self._result = oldest.part + (self._result - whole)
                else:
                    self._result -= whole
                    self._result += oldest.part
                self._left(len(leaving))
            excess = 0

    def _leave_before(self, cutoff: float) -> None:
        """Take away the samples older than ``cutoff`` (time ``<= cutoff``): times never go back,
        so they are the oldest ones."""
        gone = 0
        for batch in self._batches:
            assert batch.times is not None
            older = int(np.searchsorted(batch.times, cutoff, side="right"))
            gone += older
            if older < len(batch):
                break
        self._leave_first(gone)

    def _take(self, batch: Batch[R]) -> None:
        result = cast(Any, self._result)
        if batch.cell is None or not result._count_event(batch.cell, -1):  # one event counted as a cell: taken away as it came, where the result can
            if batch.part is None and self._reverts and batch.weight is None:
                positional, named = split_columns(batch.arrays, batch.names)
                getattr(result, "_revert_counted", result.revert)(*positional, **named)  # samples it counted: a result may take them back unchecked
            else:
                self._result -= batch.counted(self._template)
        self._left(len(batch))

    def _left(self, n: int) -> None:
        """``n`` samples have left; once a window length of parts has left, a result whose
        counts round is summed again from its parts, so that the rounding never builds up."""
        self._count -= n
        self._taken += 1
        if self._taken >= len(self._batches):  # once a window length: the rounding of float counts never builds up
            self._taken = 0
            if _rounds(self._result, self._rounding):
                self._result = self._recounted()
                self._rounding = any(batch.weight is not None for batch in self._batches)

    DOCUMENT = "Windowed"

    def _settings_document(self) -> dict[str, Any]:
        return {"size": self.size, "period": self.period}

    @classmethod
    def _read_settings(cls, document: dict[str, Any]) -> dict[str, Any]:
        return {"size": document.get("size"), "period": document.get("period")}

    def _state_document(self) -> dict[str, Any]:
        return {"result": result_document(self._result), "latest": serialization.json_safe(self._latest), "taken": self._taken,
                "batches": [batch_document(batch) for batch in self._batches]}  # fmt: skip

    def _read_state(self, document: dict[str, Any], options: dict[str, Any]) -> None:
        self._result = self._read_kind(serialization.field(document, "result"), "result", options)
        latest = serialization.restore_numbers(document.get("latest"))
        if isinstance(latest, bool) or not isinstance(latest, (int, float)) or math.isnan(latest) or latest == math.inf:
            raise serialization.FormatError(f"field 'latest' must be a time (or -Infinity before any), got {show(document.get('latest'))}")
        batches = serialization.field(document, "batches")
        if not isinstance(batches, list):
            raise serialization.FormatError(f"field 'batches' must be a list, got {show(batches)}")
        self._batches.extend(read_batch(batch) for batch in batches)
        if any(len(batch.arrays) != len(self._batches[0].arrays) or batch.names != self._batches[0].names for batch in self._batches):
            raise serialization.FormatError("field 'batches' must hold batches of the template's columns (as many in each, and the same keyword columns)")
        self._count, self._latest = sum(len(batch) for batch in self._batches), float(latest)
        self._taken = serialization.integer(document, "taken")  # (the parts taken away since the result was last summed again)
        self._rounding = any(batch.weight is not None for batch in self._batches)
        if (self.size is not None and self._count > self.size) or (self.period is not None and any(batch.times is None for batch in self._batches)):
            raise serialization.FormatError(f"field 'batches' holds {self._count} samples, more than the window's size {self.size}, or samples without times")
        if not self._count_again():  # (a result counted again from the batches holds them)
            self._check_held()
        if self._cells:  # one event of a matrix (a regression) leaves as a cell, as it came
            for batch in self._batches:
                if len(batch) == 1 and batch.weight is None:
                    batch.cell = cast(Any, self._current)._event_cell(batch.arrays[0][0], batch.arrays[1][0])

    def _recounted(self) -> R:
        """The result of the batches held, each counted again."""
        return cast(R, sum((batch.counted(self._template) for batch in self._batches), self._template.empty()))

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        self._count_again()

    def _count_again(self) -> bool:
        """A restored result whose sums an earlier release rounded (and its batches' parts):
        counted again from the samples of the batches held, exactly; whether it was."""
        if not getattr(self._current, "_rounded_earlier", False):
            return False
        for batch in self._batches:
            batch.part = None
        self._result = self._recounted()
        return True

    def _check_held(self) -> None:
        """A restored window's result holds what its batches hold: each batch counted again
        (labels its template has) and taken away from the result leaves nothing (to the last
        bit where the counts are exact).

        Raises:
            FormatError: a batch the result cannot hold, or a result holding more or less.
        """
        try:
            rest = self._current - self._recounted()
        except EvalkitError as error:
            raise serialization.FormatError(f"field 'batches' must hold what field 'result' holds: {error}") from None
        if (rest.EXACT_SUMS or (rest.WHOLE_COUNTS and not self._rounding)) and not rest._holds_nothing():
            raise serialization.FormatError("field 'result' must hold what its batches hold, and nothing more")


def _rounds(result: CountedState, weighted: bool) -> bool:
    """Whether a result's counts may round, so that a window re-sums its parts now and then:
    never for a kind whose sums are exact whatever the weights (``EXACT_SUMS``), nor for one
    whose unweighted samples count exactly (``WHOLE_COUNTS``) when no ``weighted`` batch came,
    nor for a matrix of integer counts."""
    if result.EXACT_SUMS or (result.WHOLE_COUNTS and not weighted):
        return False
    counts = getattr(result, "to_array", None)
    return counts is None or np.asarray(counts()).dtype.kind == "f"


def _held_copy(value: object) -> object:
    """What a window holds as threads change it in place, copied (a result, its batches and
    each batch's place), for a pickle written after the lock is let go; anything else as it is."""
    if isinstance(value, collections.deque):
        return collections.deque(copy.copy(item) for item in value)
    return value.copy() if isinstance(value, (CountedState, list)) else value


_SQUARED_FADE = 2.0**-500
"""The least fade whose square float64 holds as a normal number (a fade below it is taken in powers of 2)."""


def _times_power_of_two(value: float, power: float) -> float:
    """``value * 2**power`` with no step past float64's range but the result's (``power`` any real)."""
    whole = math.floor(power)
    return math.ldexp(value * 2.0 ** (power - whole), whole) if value else 0.0


_MOST_SCALE = 1e150
"""The largest factor a lazily faded result's new samples may count by before the stored counts
are rescaled (float64 goes to 1e308: the stored sums stay far from overflow)."""


class Faded(_Over[R]):
    """A stream with the past fading: every sample weighs ``factor**age`` (age 0 for the
    newest), as MOA's fading factor; or give ``half_life`` (samples after which a weight is
    halved: ``factor = 0.5 ** (1 / half_life)``).

    ``effective_size`` is Kish's effective sample size ``(Σw)² / Σw²`` of the weights (times
    the samples' own weights), the size an interval of a decayed measure rests on.
    """

    _view: R | None  # the decayed result of the stored counts, made at the first read after a change
    _stored: R  # a mutable result fades lazily: it holds every weight times _scale, which grows instead of the past shrinking
    _scale: float  # (all three set by the _result setter, which _Over's __init__ calls)

    def __init__(self, template: R, factor: float | None = None, *, half_life: float | None = None) -> None:
        super().__init__(template)
        template._require("scale")  # (decay weighs the past: a kind without weights says why it cannot)
        if (factor is None) == (half_life is None):
            raise InvalidArgumentError("give the decay 'factor' per sample or its 'half_life' in samples, one of them")
        if half_life is not None:
            factor = 0.5 ** (1 / check_positive_number("half_life", half_life))
        self.factor = check_factor(factor)
        self._weights = 0.0  # Σw and Σw² of the decayed weights in units of _unit, for the effective size
        self._squares = 0.0

    _unit = 1.0  # the weight _weights and _squares count in (see _sums_after; 1 in documents and pickles before it)

    @property  # type: ignore[override]
    def _result(self) -> R:
        """The decayed result: the stored counts divided by their scale (once per change)."""
        if self._view is None:
            self._view = self._stored if self._scale == 1.0 else self._stored.scaled(1.0 / self._scale)
        return self._view

    @_result.setter
    def _result(self, result: R) -> None:
        self._stored, self._scale, self._view = result, 1.0, None

    def __setstate__(self, state: dict[str, Any]) -> None:
        """A pickle of a window that stored its decayed result as it is (before it faded lazily) loads too."""
        if "_stored" not in state:
            state = {**state, "_stored": state.get("_result"), "_scale": 1.0}
        state.pop("_result", None)
        self.__dict__.update(state, _view=None, _lock=threading.RLock())

    DOCUMENT = "Faded"

    def _settings_document(self) -> dict[str, Any]:
        return {"factor": self.factor}

    @classmethod
    def _read_settings(cls, document: dict[str, Any]) -> dict[str, Any]:
        return {"factor": serialization.number(serialization.field(document, "factor"), "factor")}

    def _state_document(self) -> dict[str, Any]:
        return {"stored": result_document(self._stored), "scale": self._scale, "weights": self._weights, "squares": self._squares,
                **({"unit": self._unit} if self._unit != 1.0 else {})}  # fmt: skip

    def _read_state(self, document: dict[str, Any], options: dict[str, Any]) -> None:
        self._result = self._read_kind(serialization.field(document, "stored"), "stored", options)
        scale, weights, squares = (serialization.number(serialization.field(document, name), name) for name in ("scale", "weights", "squares"))
        if not (1.0 <= scale <= _MOST_SCALE and weights >= 0 and squares >= 0):
            raise serialization.FormatError(f"fields 'scale', 'weights' and 'squares' must be a scale in [1, {_MOST_SCALE:g}] and sums >= 0, got {scale}, {weights}, {squares}")
        unit = serialization.number(document.get("unit", 1.0), "unit")
        if not 2.0**-1022 <= unit <= 2.0**1023:
            raise serialization.FormatError(f"field 'unit' must be a normal float64 above 0 (the weight the sums count in), got {unit}")
        self._scale, self._weights, self._squares, self._unit = scale, weights, squares, unit

    def update(self, *batch: LabelsLike, sample_weight: ArrayLike | None = None, **columns: object) -> None:
        """Add a batch (and its keyword columns): the past fades by ``factor`` per new sample, and the batch's own samples
        by their age within it. A mutable result is not rescaled at every sample: the new
        samples count ``factor**-t`` times more instead (``t`` samples since the last rescale,
        which comes before that factor could overflow), and reads divide once. A batch of any
        length decays so: a weight below float64's range (``0.5**1100``) is 0, and the sample
        weighs nothing."""
        lock = self._lock
        lock.acquire()  # (not `with`: half the cost, on every event of a stream)
        try:
            if sample_weight is None and not columns and self._one_event(batch):
                return
            self._update(batch, sample_weight, columns)
        finally:
            lock.release()

    def _update(self, batch: tuple[LabelsLike, ...], sample_weight: ArrayLike | None, columns: dict[str, object]) -> None:
        arrays, names, weight, _, n = batch_arrays(batch, sample_weight, None, columns)
        if n == 0:
            return
        positional, named = split_columns(arrays, names)
        ages = np.arange(n - 1, -1, -1, dtype=np.float64)
        with np.errstate(under="ignore"):  # a weight below float64's range weighs 0
            powers = self.factor**ages
            if weight is not None and powers[0] < _SQUARED_FADE:  # (the oldest's power below float64's range before its weight: in two halves)
                halves = self.factor ** (ages / 2)
                decay = halves * weight * halves
            else:
                decay = powers * (1.0 if weight is None else weight)
            fade = self.factor**n
            unit, weights, squares = self._sums_after(decay, n)
        scale = self._next_scale(fade) if self._updates else None  # (its rescaling keeps the decayed result as it is)
        if scale is not None and weights > 0.0 and math.log2(weights) + math.log2(unit) + math.log2(scale) > 1000:  # counts the scale would carry near float64's end
            scale = None
        if scale is None:  # the past faded at once, the batch counted at its own weights
            part = self._template.counted(*positional, sample_weight=decay, **named)
            self._result = self._faded(n) + part
        else:
            cast(Any, self._stored).update(*positional, sample_weight=decay * scale, **named)
            self._scale, self._view = scale, None
        self._unit, self._weights, self._squares = unit, weights, squares  # (a batch refused above leaves the past as it was: nothing faded)

    def _sums_after(self, decay: np.ndarray, n: int) -> tuple[float, float, float]:
        """``(unit, Σw, Σw²)`` once the past fades by ``factor**n`` and the weights ``decay`` join,
        the sums in units of ``unit``: this window's unit, or a power of 2 near the larger sum
        where that is 2**±300 from it, so that neither sum over- or underflows (Kish's size is a
        ratio of them, which the unit leaves alone). The fade is taken in powers of 2 where its
        square would leave float64's range; a past whose weights fell below it (its counts are 0)
        is gone."""
        unit, fade_log = self._unit, n * math.log2(self.factor)
        total = float(decay.sum())  # (beyond float64: the kind refuses the batch)
        past = self._past_after(n)
        largest = max(math.log2(total) - math.log2(unit) if 0.0 < total < math.inf else -math.inf, past)
        shift = 0
        if abs(largest) > 300 and largest > -math.inf:  # (only weights of 2**±300 move it)
            shift = max(min(round(largest), 1023 - math.frexp(unit)[1]), -1021 - math.frexp(unit)[1])  # (a unit float64 holds, 2**-1022 at the least)
            unit = math.ldexp(unit, shift)
        fade = self.factor**n
        if past == -math.inf:
            weights = squares = 0.0
        elif shift == 0 and fade > _SQUARED_FADE:  # (the common case: float steps, as one event takes them)
            weights, squares = self._weights * fade, self._squares * fade * fade
        else:
            weights, squares = _times_power_of_two(self._weights, fade_log - shift), _times_power_of_two(self._squares, 2 * (fade_log - shift))
        relative = decay if unit == 1.0 else decay / unit
        return unit, weights + (total if unit == 1.0 else float(relative.sum())), squares + float(np.dot(relative, relative))

    def _past_after(self, n: int) -> float:
        """``log2`` of the past's weights in units once it fades by ``factor**n``; ``-inf`` where
        their weight falls below float64's least number: the past is gone, its counts
        (``_faded``) and its sums (``_sums_after``) alike (no float holds any of it)."""
        if self._weights <= 0.0:
            return -math.inf
        past = math.log2(self._weights) + n * math.log2(self.factor)
        return -math.inf if past + math.log2(self._unit) < -1074 else past

    def _faded(self, n: int) -> R:
        """The decayed result, faded by ``factor**n`` more: in two halves where the fade is below
        float64's range or near it, so that the counts keep their bits (empty where the past is
        gone, ``_past_after``)."""
        result, fade = self._result, self.factor**n
        if fade == 1.0:
            return result
        if fade > _SQUARED_FADE:
            return result.scaled(fade)
        if self._past_after(n) == -math.inf:
            return result.empty()
        half = 2.0 ** (n * math.log2(self.factor) / 2)
        return result.scaled(half).scaled(half)

    def _next_scale(self, fade: float) -> float | None:
        """The scale once the past fades by ``fade`` more: the stored counts are first rescaled
        to the unit (the decayed ones again) when it would pass ``_MOST_SCALE``; None when a
        fade below ``1 / _MOST_SCALE`` would pass it even from the unit (the past is then
        faded at once)."""
        if fade * _MOST_SCALE < self._scale:
            self._result = self._result
            if fade * _MOST_SCALE < 1.0:
                return None
        return self._scale / fade

    def _one_event(self, batch: tuple[LabelsLike, ...]) -> bool:
        """Count one event of a matrix with float counts (two one-element lists, as a stream
        gives them) in its cell, by the same float steps as ``update``'s (a weight of 1, a fade
        of ``factor``) with no array; False for anything else: ``update`` counts it."""
        event = one_event(batch) if self._updates and self._cells else None
        if event is None:
            return False
        fade = self.factor
        scale = self._next_scale(fade)
        if scale is None:  # a fade too strong to count lazily: update fades the past at once
            return False
        stored: Any = self._stored
        cell = stored._event_cell(*event)
        if cell is None or not stored._count_event(cell, scale):  # integer counts (before the first weight) take update's path
            return False
        self._scale, self._view = scale, None
        if self._unit == 1.0:  # (weights of 1 in units of 1: the sums stay below 1 / (1 - factor))
            self._weights, self._squares = self._weights * fade + 1.0, self._squares * fade * fade + 1.0
        else:
            self._unit, self._weights, self._squares = self._sums_after(np.ones(1), 1)
        return True

    @property
    def effective_size(self) -> float:
        """Kish's effective sample size of the decayed weights: ``(Σw)² / Σw²`` (0 when empty)."""
        return self._weights**2 / self._squares if self._squares else 0.0

    def interval(self, measure: MeasureLike, average: str | None = None, *, method: str = "wilson", **options: Any) -> Any:
        """A confidence interval of a decayed measure, resting on Kish's effective sample size:
        a weighted share has variance ``p (1 - p) Σw² / (Σw)² = p (1 - p) / effective_size``, so
        the counts are resized to total ``effective_size`` and the result's own interval taken
        (``"wilson"``: the whole accuracy, one class with ``label=``, or a micro average; a
        bootstrap needs whole samples, which decayed counts are not). With weights ``f**age``
        the effective size is about ``(1 + f) / (1 - f)``, twice the sum of the weights: an
        interval on the sum would be too wide.

        Raises:
            EmptyInputError: nothing counted yet.

        Examples:
            >>> from evalkit import ConfusionMatrix
            >>> faded = Faded(ConfusionMatrix([0, 1]), factor=0.99)
            >>> faded.update([0, 1] * 1000, [0, 1, 0, 0] * 500)
            >>> round(faded.effective_size), round(faded.n_samples)
            (199, 100)
            >>> print(faded.interval("accuracy"))
            0.7462 [0.6815, 0.8016] (95% wilson)
        """
        _fixed_time(options)
        return cast(Any, self.effective()).interval(measure, average, method=method, **options)

    def effective(self) -> R:
        """The decayed result resized to total ``effective_size`` (the same shares, the weight
        of as many whole samples as the decayed ones are worth): what its intervals and
        ``evalkit.compare_results`` rest on.

        Raises:
            EmptyInputError: nothing counted yet.
        """
        if not self._weights:
            raise EmptyInputError("nothing is counted: a decayed result needs samples for an interval (none yet, or every weight faded below float64's range)")
        result = self._result if self._unit == 1.0 else self._result.scaled(1.0 / self._unit)  # (the weights in units of the unit their sums count in)
        resized: R = result.scaled(self.effective_size / self._weights)
        if resized._holds_nothing():
            raise EmptyInputError("the decayed counts have faded below float64's range: nothing is left for an interval")
        return resized


class FadedPerClass:
    """Per-class precision, recall and F1 faded as MOA's fading evaluator fades them: each
    class's precision over the class's own predictions (a prediction of another class does not
    age it), its recall over its own samples, ``Σ f**age · right / Σ f**age`` with the age
    counted in those alone; F1 the harmonic mean of the two, and an undefined value 0. ``Faded``
    ages every count by every sample (one decayed confusion matrix, every measure); this is for
    reading MOA's numbers.

    Examples:
        >>> moa = FadedPerClass(["a", "b"], factor=0.5)
        >>> moa.update(["a", "b", "a"], ["a", "a", "b"])   # predictions of a: right, then wrong
        >>> moa.per_class("precision").tolist()            # a: (0.5 * 1 + 0) / 1.5; b: never right
        [0.3333333333333333, 0.0]
    """

    MEASURES = ("precision", "recall", "f1_score")

    def __init__(self, labels: Sequence[Hashable], factor: float) -> None:
        self._matrix = ConfusionMatrix(labels)  # its label checks
        self.factor = check_factor(factor)
        m = len(self._matrix.labels)
        self._sums = {name: np.zeros(m) for name in ("precision", "recall")}  # Σ f**age · right, per class
        self._weights = {name: np.zeros(m) for name in ("precision", "recall")}  # Σ f**age

    @property
    def labels(self) -> tuple:
        return self._matrix.labels

    def update(self, y_true: LabelsLike, y_pred: LabelsLike) -> None:
        """The next samples: each ages only its predicted class's precision and its actual class's recall."""
        actual, predicted, _, _ = encode(y_true, y_pred, self.labels)  # codes over the labels: an unknown one is refused by name
        right = (actual == predicted).astype(np.float64)
        for name, classes in (("precision", predicted), ("recall", actual)):
            self._fade(name, classes.astype(np.intp), right)

    def _fade(self, name: str, classes: np.ndarray, right: np.ndarray) -> None:
        """Age each class's estimator by its own samples of the batch: a sample's weight is
        ``f**(later samples of its class)``, the past's ``f**(samples of its class)``."""
        m, f = len(self.labels), self.factor
        sizes = np.bincount(classes, minlength=m)
        order = np.argsort(classes, kind="stable")
        rank = np.empty(len(classes), dtype=np.intp)
        rank[order] = np.arange(len(classes)) - np.concatenate(([0], np.cumsum(sizes)[:-1]))[classes[order]]  # place among its class's samples
        weight = f ** (sizes[classes] - 1 - rank).astype(np.float64)
        past = f ** sizes.astype(np.float64)
        self._sums[name] = past * self._sums[name] + np.bincount(classes, weight * right, minlength=m)
        self._weights[name] = past * self._weights[name] + np.bincount(classes, weight, minlength=m)

    def per_class(self, measure: str) -> np.ndarray:
        """``"precision"``, ``"recall"`` or ``"f1_score"`` of every class (0 where undefined, as MOA)."""
        check_choice("measure", measure, self.MEASURES)
        if measure == "f1_score":
            p, r = self.per_class("precision"), self.per_class("recall")
            with np.errstate(invalid="ignore", divide="ignore"):
                return np.where(p + r > 0, 2 * p * r / np.where(p + r > 0, p + r, 1.0), 0.0)
        weights = self._weights[measure]
        return np.where(weights > 0, self._sums[measure] / np.where(weights > 0, weights, 1.0), 0.0)

    def average(self, measure: str) -> float:
        """The mean over every class of ``per_class(measure)`` (MOA's macro average)."""
        return float(self.per_class(measure).mean())


class Tumbling(_Over[R]):
    """One result per ``size`` samples: the open window in ``result``, the closed ones in
    ``history`` (oldest first); a batch that crosses a boundary is split."""

    def __init__(self, template: R, size: int) -> None:
        super().__init__(template)
        self.size = _check_size(size)
        self.history: list[R] = []
        self._count = 0

    def __len__(self) -> int:
        """How many samples the open window holds."""
        with self._lock:
            return self._count

    DOCUMENT = "Tumbling"

    def _settings_document(self) -> dict[str, Any]:
        return {"size": self.size}

    @classmethod
    def _read_settings(cls, document: dict[str, Any]) -> dict[str, Any]:
        return {"size": document.get("size")}

    def _state_document(self) -> dict[str, Any]:
        return {"result": result_document(self._result), "count": self._count, "history": [result_document(window) for window in self.history]}

    def _read_state(self, document: dict[str, Any], options: dict[str, Any]) -> None:
        self._result = self._read_kind(serialization.field(document, "result"), "result", options)
        self._count = serialization.integer(document, "count", high=self.size - 1)
        history = serialization.field(document, "history")
        if not isinstance(history, list):
            raise serialization.FormatError(f"field 'history' must be a list of results, got {show(history)}")
        self.history = [self._read_kind(window, "history", options) for window in history]

    def update(self, *batch: LabelsLike, sample_weight: ArrayLike | None = None, **columns: object) -> None:
        """Add a batch (and its keyword columns); every ``size`` samples the open window closes
        into ``history``."""
        with self._lock, self._held:
            self._update(batch, sample_weight, columns)

    def _update(self, batch: tuple[LabelsLike, ...], sample_weight: ArrayLike | None, columns: dict[str, object]) -> None:
        arrays, names, weight, _, n = batch_arrays(batch, sample_weight, None, columns)
        chunks: list[tuple[tuple[Any, ...], Mapping[str, object], np.ndarray | None, int]] = []
        start, count = 0, self._count
        while start < n:  # the batch cut where windows close
            stop = min(n, start + self.size - count)
            positional, named = split_columns(tuple(values[start:stop] for values in arrays), names)
            chunks.append((positional, named, None if weight is None else weight[start:stop], stop - start))
            start, count = stop, (count + stop - start) % self.size
        parts: list[R | None]
        if len(chunks) == 1 and self._updates:  # one chunk, counted into the mutable result in place (all or nothing)
            positional, named, chunk_weight, _ = chunks[0]
            cast(Any, self._result).update(*positional, sample_weight=chunk_weight, **named)
            parts = [None]
        else:  # each chunk counted before any joins: a refused batch leaves every window as it was
            parts = [self._template.counted(*positional, sample_weight=chunk_weight, **named) for positional, named, chunk_weight, _ in chunks]
        for part, (_, _, _, length) in zip(parts, chunks):
            if part is not None:
                self._result += part
            self._count += length
            if self._count == self.size:
                self.history.append(self._result)
                self._result, self._count = self._template.empty(), 0

    def table(self, measure: MeasureLike, average: str | None = None, *, label: Hashable | None = None,
              undefined: UndefinedPolicy = "exclude", **parameters: Any) -> list[float]:  # fmt: skip
        """One value of ``measure`` per closed window (an ``average``, one class's value, or a
        whole-result measure such as accuracy), oldest first."""
        return [value_of(window, measure, average, label, undefined, parameters) for window in self.history]


def result_of(view: object) -> Any:
    """The result a view holds: a window's (or ``NoChange``'s, ``Prequential``'s) result, or the
    view itself when it is a result."""
    found = getattr(view, "result", None)
    return found if found is not None else view


if not TYPE_CHECKING:  # the names this module gave before its baselines moved, found with a warning
    __getattr__ = moved_names.finder(__name__)
