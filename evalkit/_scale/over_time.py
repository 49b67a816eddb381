"""Measures over time: a stream of predictions into one row of measures per window.

``over_time(y_true, y_pred, window=N)`` (a sliding window of the last ``N`` samples, a row
every ``step``), ``tumbling=N`` (every ``N`` samples in turn) or ``period=P`` with ``time=``
(the samples of the last ``P`` of time, a row every ``step`` of time) gives an ``OverTime``
table: accuracy with its Wilson interval and the macro average of each measure, per window, as
text, Markdown, CSV, JSON, an HTML page or a plot (``evalkit.plots.over_time``). ``evalkit
report FILE --window N`` reads a file through the same ``OverTimeCounter``, batch by batch.

Examples:
    >>> table = over_time(["a", "a", "b", "b", "a", "b"], ["a", "a", "b", "a", "b", "a"], tumbling=3, measures=["recall"])
    >>> [(row["end"], round(row["accuracy"], 3), round(row["macro recall"], 3)) for row in table.rows]
    [(3, 1.0, 1.0), (6, 0.0, 0.0)]
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Hashable, Sequence
from typing import Any, cast

import attrs
import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine._types import LabelsLike
from evalkit._engine._validation import check_positive_number, show
from evalkit._results.confusion_matrix import ConfusionMatrix
from evalkit._scale._batches import checked_times
from evalkit._scale.monitor import Monitor
from evalkit._scale.windows import Windowed, _check_size
from evalkit.exceptions import InputLengthError, InvalidArgumentError, InvalidTypeError
from evalkit.io._over_time import OverTime
from evalkit.measures._averaging import UndefinedPolicy
from evalkit.measures._registry import MeasureLike, resolve_measure

__all__ = ["DEFAULT_MEASURES", "OverTimeCounter", "over_time"]

DEFAULT_MEASURES = ("precision", "recall", "f1_score")
"""The macro averages a table over time shows beside accuracy unless others are asked for."""


class OverTimeCounter:
    """Batches of a stream in, one row of measures per window out (see the module).

    Args:
        labels: the classes (a confusion matrix of them counts each window).
        window: the last ``window`` samples (one of ``window``, ``tumbling``, ``period``).
        tumbling: every ``tumbling`` samples in turn.
        period: the samples within ``period`` of a row's time (in the unit of the times).
        step: with ``window``, samples between rows (default ``window``); with ``period``,
            time between rows (default ``period``).
        measures: the measures whose macro averages each row shows.
        undefined: their undefined-value policy.
        level: the confidence level of the intervals.
        intervals: also a bootstrap (BCa) interval of each macro average in each window.
        n_resamples: its resamples.
        dates: the times are seconds since 1970 (UTC) and rows name their end as ISO 8601.
        kind: how the kind of window is described (default from the arguments).
        monitor: a ``Monitor`` that watches every sample too: its alarms join the table.
    """

    def __init__(self, labels: Sequence[Hashable], *, window: int | None = None, tumbling: int | None = None, period: float | None = None,
                 step: float | None = None, measures: Sequence[MeasureLike] = DEFAULT_MEASURES, undefined: UndefinedPolicy = "exclude",
                 level: float = 0.95, intervals: bool = False, n_resamples: int = 1000, dates: bool = False, kind: str | None = None,
                 monitor: Monitor | None = None) -> None:  # fmt: skip
        given = [name for name, value in (("window", window), ("tumbling", tumbling), ("period", period)) if value is not None]
        if len(given) != 1:
            raise InvalidArgumentError(f"give one kind of window, 'window', 'tumbling' or 'period', got {given or 'none'}")
        template = ConfusionMatrix(labels)
        resolved = [template.measure(measure) for measure in measures]  # an unknown name is refused before anything is counted
        self._measures = [(measure if isinstance(measure, str) else found.name, measure) for measure, found in zip(measures, resolved)]
        self._undefined, self._level, self._dates = undefined, level, dates
        self._intervals, self._resamples = bool(intervals), n_resamples
        self._tumbling = tumbling is not None
        self._period: float | None = None
        if period is not None:
            self._period = check_positive_number("period", period)
            self._every = check_positive_number("step", step) if step is not None else self._period
            self._view: Any = Windowed(template, period=self._period)
            described = f"windows of {period:g} (time), every {self._every:g}"
        else:
            size = _check_size(window if window is not None else tumbling, given[0])
            self._step = _check_size(step, "step") if step is not None and window is not None else size
            if step is not None and window is None:
                raise InvalidArgumentError("'step' goes with a sliding 'window' or a 'period'; tumbling windows follow each other")
            self._view = Windowed(template, size=size) if window is not None else template
            described = f"sliding window of {size:,} samples, every {self._step:,}" if window is not None else f"tumbling windows of {size:,} samples"
        self._kind = kind or described
        if monitor is not None and not isinstance(monitor, Monitor):
            raise InvalidTypeError(f"'monitor' must be an evalkit.Monitor, got {show(monitor)}")
        if monitor is not None and monitor.regression:
            raise InvalidArgumentError(f"a table over time is of labels; this monitor watches a regressor's {monitor.measure}")
        self._monitor, self._alarms, self._watched = monitor, cast("list[Any]", []), 0
        self._rows: list[dict[str, Any]] = []
        self._seen = 0
        self._ends: int | None = None  # the steps from time 0 to the end of the open window of a period

    def _record(self, end: Any) -> None:
        result = self._view if isinstance(self._view, ConfusionMatrix) else self._view.result
        interval = result.interval("accuracy", method="wilson", level=self._level)
        row = {"window": len(self._rows) + 1, "end": end, "samples": result.get_total_items(), "accuracy": interval.estimate,
               "accuracy_low": interval.low, "accuracy_high": interval.high}  # fmt: skip
        for name, measure in self._measures:
            column = f"macro {name}"
            if self._intervals:  # a bootstrap per window, seeded by its number: the same table every run
                found = result.interval(measure, "macro", level=self._level, n_resamples=self._resamples, random_state=len(self._rows), undefined=self._undefined)
                row[column], row[f"{column}_low"], row[f"{column}_high"] = found.estimate, found.low, found.high
            else:
                row[column] = float(result.average(measure, "macro", undefined=self._undefined))
        self._rows.append(row)

    def _end(self, seconds: float) -> Any:
        return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).isoformat().replace("+00:00", "Z") if self._dates else seconds

    def update(self, y_true: LabelsLike, y_pred: LabelsLike, *, sample_weight: ArrayLike | None = None, time: ArrayLike | None = None) -> None:
        """The next batch of the stream (with the time of each sample for a window of period;
        times never go back)."""
        actual, predicted = np.asarray(y_true), np.asarray(y_pred)
        weight = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
        if self._monitor is not None:
            self._watch(actual, predicted, sample_weight, time)
        if self._period is None:
            start = 0
            while start < len(actual):
                stop = min(len(actual), start + self._step - self._seen % self._step)
                self._view.update(actual[start:stop], predicted[start:stop], sample_weight=None if weight is None else weight[start:stop])
                self._seen += stop - start
                start = stop
                if self._seen % self._step == 0:
                    self._record(self._seen)
                    if self._tumbling:
                        self._view.reset()
            return
        if time is None:
            raise InvalidArgumentError("a window of 'period' needs the time of every sample: update(..., time=times)")
        times = checked_times(time, len(actual), {"period": self._period, "step": self._every})
        if not len(times):
            return
        ends = self._steps_to(float(times[0])) if self._ends is None else self._ends  # rows end on the steps from time 0 (whole hours of dates): the first holds the first sample
        start = 0
        while start < len(times):
            boundary = ends * self._every  # (a whole number of steps, never a sum of them: no rounding piles up)
            stop = max(start, int(np.searchsorted(times, boundary, side="right")))  # the samples up to the boundary: a window is (end - period, end]
            if stop > start:
                self._view.update(actual[start:stop], predicted[start:stop], sample_weight=None if weight is None else weight[start:stop], time=times[start:stop])
            start = stop
            if start < len(times):  # a sample past the boundary: the window up to it is done
                self._view.advance(boundary)
                if len(self._view):  # (a window that holds no sample is no row: a gap of a year in hours makes none)
                    self._record(self._end(boundary))
                ends += 1
                if not len(self._view):  # empty until the next sample: on to the first end that holds it
                    ends = self._steps_to(float(times[start]), ends)
        self._ends = ends

    def _steps_to(self, time: float, least: int | None = None) -> int:
        """The number of steps from time 0 (below 0 before it) to the first end at or after
        ``time`` (``least`` at the least)."""
        steps = math.ceil(time / self._every)
        steps += 1 if steps * self._every < time else 0  # (a quotient rounded down)
        return steps if least is None else max(least, steps)

    def _watch(self, actual: np.ndarray, predicted: np.ndarray, sample_weight: ArrayLike | None, time: ArrayLike | None) -> None:
        """The batch through the monitor; its alarms on the axis of the rows' ends (the sample
        number, or the time of the sample)."""
        monitor = cast(Monitor, self._monitor)
        before, seen = len(monitor.alarms), monitor.samples
        monitor.update(actual, predicted, sample_weight=sample_weight)
        for at in monitor.alarms[before:]:  # (the monitor's own numbers count what it watched before this table too)
            place = at - seen - 1
            self._alarms.append(self._watched + place + 1 if self._period is None else self._end(float(np.broadcast_to(np.asarray(time, dtype=np.float64), actual.shape)[place])))
        self._watched += len(actual)

    def table(self) -> OverTime:
        """The rows so far, and the window still open (shorter than a step) as the last row,
        ending at the last sample (read, not closed: more samples may come)."""
        closed = len(self._rows)
        if self._period is None and self._seen % self._step:
            self._record(self._seen)
        elif self._period is not None and len(self._view):
            self._record(self._end(self._view.latest))
        rows = tuple(self._rows)
        del self._rows[closed:]
        table = OverTime(self._kind, tuple(f"macro {name}" for name, _ in self._measures), rows, self._level)
        monitor = self._monitor
        if monitor is None:
            return table
        columns = {"accuracy": "accuracy", **{f"macro {resolve_measure(measure).name}": f"macro {name}" for name, measure in self._measures}}
        watched = monitor.measure if monitor.average is None and monitor.label is None else f"{monitor.average} {monitor.measure}"
        return attrs.evolve(table, alarms=tuple(self._alarms), monitor=monitor.description, reference=monitor.reference, monitored=columns.get(watched, ""))


def over_time(
    y_true: LabelsLike, y_pred: LabelsLike, *, window: int | None = None, tumbling: int | None = None, period: float | None = None, step: float | None = None,
    time: ArrayLike | None = None, labels: Sequence[Hashable] | None = None, measures: Sequence[MeasureLike] = DEFAULT_MEASURES,
    sample_weight: ArrayLike | None = None, undefined: UndefinedPolicy = "exclude", level: float = 0.95, intervals: bool = False,
    monitor: Monitor | None = None,
) -> OverTime:  # fmt: skip
    """The measures of a stream per window, oldest first: accuracy with its Wilson interval and
    the macro average of each of ``measures``, one row per window.

    Args:
        y_true: the stream's actual labels, in time order.
        y_pred: its predicted labels.
        window: a sliding window of the last ``window`` samples, a row every ``step``
            samples (default ``window``).
        tumbling: every ``tumbling`` samples in turn, a row each.
        period: the samples within ``period`` of each row's time, ``(end - period, end]``
            (``time`` gives every sample's, in any unit, or numpy datetimes), a row every
            ``step`` of time: rows end on whole steps from time 0, the first at or after the
            first sample; a window holding no sample is no row.
        step: samples (``window``) or time (``period``) between rows.
        time: the time of every sample, for ``period``.
        labels: the classes (default the sorted labels seen).
        measures: the measures whose macro averages each row shows (precision, recall, F1).
        sample_weight: a weight per sample.
        undefined: the undefined-value policy of the averages.
        level: the confidence level of the intervals.
        intervals: also a bootstrap (BCa) interval of each macro average in each window (the
            bands of the HTML page and the plot).
        monitor: a ``Monitor`` (fresh, or one that watched the stream before) that watches
            every sample too: its alarms in the table's ``alarms``, drawn on its charts.

    Examples:
        >>> table = over_time([0, 1, 1, 0, 1, 0, 0, 1], [0, 1, 0, 0, 1, 1, 0, 0], window=4, step=2)
        >>> [(row["end"], row["samples"], row["accuracy"]) for row in table.rows]
        [(2, 2, 1.0), (4, 4, 0.75), (6, 4, 0.5), (8, 4, 0.5)]
    """
    actual, predicted = np.asarray(y_true), np.asarray(y_pred)
    if len(actual) != len(predicted):
        raise InputLengthError(f"'y_true' has {len(actual)} values but 'y_pred' has {len(predicted)}")
    found = labels if labels is not None else sorted({*actual.tolist(), *predicted.tolist()}, key=lambda value: (str(type(value)), value))
    dates = False
    times = None
    if time is not None:
        times = np.asarray(time)
        if times.dtype.kind == "M":  # numpy datetimes: seconds since 1970
            times, dates = times.astype("datetime64[ns]").astype(np.int64) / 1e9, True
        if period is not None and np.asarray(period).dtype.kind == "m":
            period = float(np.asarray(period).astype("timedelta64[ns]").astype(np.int64) / 1e9)
            step = None if step is None else float(np.asarray(step).astype("timedelta64[ns]").astype(np.int64) / 1e9)
    elif period is not None:
        raise InvalidArgumentError(f"a window of 'period' needs the time of every sample: over_time(..., period={show(period)}, time=...)")
    counter = OverTimeCounter(list(found), window=window, tumbling=tumbling, period=period, step=step, measures=measures, undefined=undefined,
                              level=level, intervals=intervals, dates=dates, monitor=monitor)  # fmt: skip
    counter.update(actual, predicted, sample_weight=sample_weight, time=times)
    return counter.table()
