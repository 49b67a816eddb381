"""The samples a window holds: its batches, each with its columns, weights, times and counted
part, read from what ``update`` is given and written as JSON (``evalkit._scale.windows``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Generic, TypeVar

import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine import serialization
from evalkit._engine._types import LabelsLike
from evalkit._engine._validation import show
from evalkit._results.counted import CountedState
from evalkit.exceptions import InputLengthError, InvalidArgumentError, InvalidTypeError

__all__ = ["Batch", "batch_arrays", "batch_document", "one_event", "read_batch", "split_columns"]

R = TypeVar("R", bound=CountedState)
"""The kind of result a window holds (its template's)."""


class Batch(Generic[R]):
    """The samples of one update still in a window: its arrays, weights, times and counted part
    (None when the result takes the samples away itself, ``revert``, or when it is counted from
    the samples as it leaves)."""

    __slots__ = ("_arrays", "_times", "_weight", "cell", "names", "part", "start")

    def __init__(self, arrays: tuple[Any, ...], weight: np.ndarray | None, times: np.ndarray | None, part: R | None,
                 cell: tuple[int, int] | None = None, names: tuple[str, ...] = ()) -> None:  # fmt: skip
        self._arrays, self._weight, self._times, self.part, self.cell = arrays, weight, times, part, cell  # cell: one event's, in a matrix
        self.names = names  # the keyword columns, the last of the arrays (a coverage's groups)
        self.start = 0  # the samples before it have left (a large batch leaving a sample at a time is not copied at every step)

    def __len__(self) -> int:
        return len(self._arrays[0]) - self.start

    def __getstate__(self) -> dict[str, object]:
        """Its slots (what pickle's protocols 0 and 1 need said: they take no slots themselves)."""
        return {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, state: dict[str, object] | tuple[dict[str, object] | None, dict[str, object]]) -> None:
        """Its slots, or a pickle of a build before ``__getstate__`` (``(None, slots)``)."""
        if isinstance(state, tuple):
            state = {**(state[0] or {}), **state[1]}
        for name, value in state.items():
            setattr(self, name, value)

    @property
    def arrays(self) -> tuple[Any, ...]:
        return tuple(values[self.start :] for values in self._arrays) if self.start else self._arrays

    @property
    def weight(self) -> np.ndarray | None:
        return None if self._weight is None else self._weight[self.start :]

    @property
    def times(self) -> np.ndarray | None:
        return None if self._times is None else self._times[self.start :]

    def counted(self, template: R) -> R:
        """The counted part of this batch's samples."""
        if self.part is not None:
            return self.part
        positional, named = split_columns(self.arrays, self.names)
        part: R = template.counted(*positional, sample_weight=self.weight, **named)
        return part

    def split(self, cut: int) -> Batch[R]:
        """Keep the samples from ``cut`` on; the first ``cut``, which leave, as a batch of their
        own. Neither keeps a counted part: each is counted from its samples when it leaves (a
        large batch leaving one sample at a time is not subtracted from at every step)."""
        start, stop = self.start, self.start + cut
        leaving: Batch[R] = Batch(tuple(values[start:stop] for values in self._arrays), None if self._weight is None else self._weight[start:stop], None, None,
                                  names=self.names)  # fmt: skip
        self.part = None
        self.start = stop
        return leaving


_NO_COLUMNS: Mapping[str, object] = {}
"""The keyword columns of a batch that has none (shared: never changed; a dict, which ``**``
unpacks fastest)."""


def split_columns(arrays: tuple[Any, ...], names: tuple[str, ...]) -> tuple[tuple[Any, ...], Mapping[str, object]]:
    """A batch's positional columns and its keyword columns (``names``: the last arrays')."""
    if not names:  # (nearly every batch: no dict made, on every event of a window)
        return arrays, _NO_COLUMNS
    cut = len(arrays) - len(names)
    return arrays[:cut], dict(zip(names, arrays[cut:]))


def batch_arrays(arrays: tuple[LabelsLike, ...], sample_weight: ArrayLike | None, time: ArrayLike | None,
                 named: dict[str, object] | None = None, spans: dict[str, float] | None = None,
                 ) -> tuple[tuple[Any, ...], tuple[str, ...], np.ndarray | None, np.ndarray | None, int]:  # fmt: skip
    """The batch's columns as arrays of one length (its keyword columns ``named`` last, which
    are not ``None``), their names, its weights and times (one per sample, or one for all;
    fine enough for ``spans``, see ``checked_times``)."""
    if not arrays:
        raise InvalidArgumentError("update takes the batch's columns (y_true and y_pred, or y_true and y_score)")
    given = {name: values for name, values in (named or {}).items() if values is not None}
    called = [*(f"columns[{k}]" for k in range(len(arrays))), *given]
    columns = tuple(_column(values, name) for name, values in zip(called, (*arrays, *given.values())))
    n = len(columns[0])
    if any(len(values) != n for values in columns):
        raise InputLengthError(f"the batch's columns have different lengths: {[len(values) for values in columns]}")
    weight = None if sample_weight is None else np.array(sample_weight)  # a copy, as the columns
    if weight is not None:  # (whole weights stay whole: their counts stay exact)
        weight = weight.astype(np.int64 if weight.dtype.kind in "biu" else np.float64, copy=False)
    if weight is not None and weight.shape != (n,):
        raise InputLengthError(f"'sample_weight' has shape {weight.shape} but the batch has {n} samples")
    return columns, tuple(given), weight, None if time is None else checked_times(time, n, spans), n


RESOLUTION = 64
"""How many of float64's steps between neighbouring times a window's ``period`` (and a table's
``step``) must span at the largest time, so that its ends are placed to 1/128 of it: at 1e18
float64 holds times only 128 apart, so a period of 5 would end where it starts
(``1e18 - 5 == 1e18``) and every sample would leave at once."""


def checked_times(time: ArrayLike, n: int, spans: dict[str, float] | None = None) -> np.ndarray:
    """The time of each of ``n`` samples (one time for all, or one each), as float64 (a copy),
    fine enough at their size to tell apart the ends of each of ``spans`` (a window's
    ``period``, a table's ``step``: at least ``RESOLUTION`` of float64's steps there).

    Raises:
        InvalidArgumentError: a time that is no finite number (NaN passes every check of order;
            an infinity would end every window at once), or times too large for a span.
    """
    if np.asarray(time).dtype.kind in "mM":  # (numpy reads datetimes as numbers of their unit: days, or nanoseconds)
        raise InvalidTypeError(f"'time' must be numbers (seconds, or any unit of 'period'), got numpy datetimes {show(time)}: "
                               "give (time - start) / np.timedelta64(1, 's'), or use over_time, which takes datetimes")
    times = np.broadcast_to(np.asarray(time, dtype=np.float64), (n,)).copy()
    if not np.isfinite(times).all():
        raise InvalidArgumentError(f"'time' must be finite numbers (seconds, or any unit of 'period'), got {show(time)}")
    if spans and n:
        largest = float(np.abs(times).max())
        gap = float(np.spacing(largest))
        for name, span in spans.items():
            if span < RESOLUTION * gap:
                raise InvalidArgumentError(f"{name!r} {span:g} is too short for times near {largest:g}: float64 holds times there only {gap:g} apart "
                                           f"(a span needs {RESOLUTION} of these steps); give the times from a nearer origin (time - time[0])")  # fmt: skip
    return times


def one_event(batch: tuple[LabelsLike, ...]) -> tuple[Any, Any] | None:
    """The two values of one event of a stream, given as two one-element lists (as River's
    ``Rolling`` takes them), or None for any other batch."""
    if len(batch) == 2:
        first, second = batch
        if type(first) is list and type(second) is list and len(first) == 1 == len(second):
            return first[0], second[0]
    return None


def _column(values: object, name: str) -> np.ndarray | list:
    """A copy of a column that slices by position (kept while its samples are in the window,
    so a caller reusing its list changes nothing here): an array as an array, a list or tuple
    as a list (a list keeps its labels' types: numpy would turn ``[1, "a"]`` into strings),
    anything else (a pandas Series) as an array."""
    if isinstance(values, np.ndarray) and values.ndim:
        return values.copy()
    if isinstance(values, (list, tuple)):
        return list(values)
    column = np.array(values)
    if not column.ndim:  # (one value, a string too: not a column of one per sample)
        raise InvalidTypeError(f"{name!r} must be a column, one value per sample, got {show(values)}")
    return column


def batch_document(batch: Batch[Any]) -> dict[str, Any]:
    """The samples of a batch still in a window (what a restored window takes away as they leave)."""
    document = {"columns": [serialization.column_document(values) for values in batch.arrays], "weight": None if batch.weight is None else batch.weight.tolist(),
                "times": None if batch.times is None else batch.times.tolist()}  # fmt: skip
    return {**document, "names": list(batch.names)} if batch.names else document


def read_batch(document: object) -> Batch[Any]:
    if not isinstance(document, dict) or not isinstance(document.get("columns"), list) or not document["columns"]:
        raise serialization.FormatError(f"a window's batch must be {{'columns': [...], 'weight': ..., 'times': ...}}, got {show(document)}")
    columns = tuple(serialization.read_column(column) for column in document["columns"])
    n = len(columns[0])
    if any(len(values) != n for values in columns):
        raise serialization.FormatError(f"a window's batch has columns of different lengths: {[len(values) for values in columns]}")
    weight, times = (None if document.get(name) is None else serialization.array(document[name], name, length=n, integral=integral, low=-np.inf)
                     for name, integral in (("weight", None), ("times", False)))  # fmt: skip
    if weight is not None and (weight < 0).any():
        raise serialization.FormatError(f"a window's batch holds a negative weight: {show(weight)}")
    names = document.get("names", [])
    if not (isinstance(names, list) and len(names) < len(columns) and all(isinstance(name, str) for name in names) and len(set(names)) == len(names)):
        raise serialization.FormatError(f"a window's batch names its keyword columns (fewer than its columns) in 'names', got {show(names)}")
    return Batch(columns, weight, times, None, names=tuple(names))
