"""Measures over time: one row per window of a stream (``evalkit report FILE --window N``), as
text, Markdown, CSV, JSON and an HTML page with a line chart per measure, accuracy drawn with
its interval band.

Examples:
    >>> table = OverTime("tumbling windows of 2 samples", ("macro f1_score",),
    ...                  ({"window": 1, "end": 2, "samples": 2, "accuracy": 1.0, "accuracy_low": 0.34, "accuracy_high": 1.0, "macro f1_score": 1.0},))
    >>> print(table.to_text(2))
    tumbling windows of 2 samples: accuracy with its 95% Wilson interval
    window    end  samples  accuracy    low   high  macro f1_score
    1           2        2      1.00   0.34   1.00            1.00
"""

from __future__ import annotations

import json
import math
from typing import Any

import attrs
import numpy as np

from evalkit._results.table import Table, Tabular
from evalkit.io._html import svg_chart, time_ticks

__all__ = ["OverTime"]

_FIXED = ("window", "end", "samples", "accuracy", "accuracy_low", "accuracy_high")
_HEADINGS = {"accuracy_low": "low", "accuracy_high": "high"}


@attrs.frozen
class OverTime(Tabular):
    """Measures per window of a stream, oldest first.

    Attributes:
        kind: what the windows are (``"sliding window of 1,000 samples, every 100"``).
        measures: the names of the columns after accuracy and its interval (macro averages).
        rows: one mapping per window: ``window`` (1, 2, ...), ``end`` (the sample number or
            the time the window ends at), ``samples`` (how many it holds: their weight when
            weighted), ``accuracy`` with ``accuracy_low`` and ``accuracy_high`` (Wilson), and
            one value per measure.
        level: the confidence level of the accuracy interval.
        axis: what ``end`` counts: ``"sample"``, or the time column of windows of time.
        alarms: where a ``Monitor`` watching the stream fired, on the axis of ``end``.
        monitor: what it watched (``"accuracy below 0.9, false alarms at most 1%"``); empty
            for none.
        reference: its reference level, drawn on the chart of ``monitored``.
        monitored: the column it watched (``"accuracy"``, ``"macro f1_score"``), or empty (a
            class's measure, or an average the table does not show).
    """

    kind: str
    measures: tuple[str, ...]
    rows: tuple[dict[str, Any], ...]
    level: float = 0.95
    axis: str = "sample"
    alarms: tuple[Any, ...] = ()
    monitor: str = ""
    reference: float | None = None
    monitored: str = ""

    def ends(self) -> tuple[np.ndarray, bool]:
        """Where each window ends, as numbers (ISO 8601 times as seconds since 1970, UTC), and
        whether they are dates and times."""
        import datetime

        ends = [row["end"] for row in self.rows]
        if all(isinstance(end, (int, float)) for end in ends):
            return np.array(ends, dtype=np.float64), False
        moments = [datetime.datetime.fromisoformat(str(end).replace("Z", "+00:00")) for end in ends]
        return np.array([(moment if moment.tzinfo else moment.replace(tzinfo=datetime.timezone.utc)).timestamp() for moment in moments]), True

    def axis_label(self, dates: bool) -> str:
        """The x-axis title of a chart over the windows."""
        return f"{self.axis} (end of the window{', UTC' if dates else ''})"

    @property
    def columns(self) -> tuple[str, ...]:
        """Every column of a row: the fixed ones, then each measure (with its bounds, when the
        rows have intervals of the measures)."""
        bounded = self._measures_bounded
        return (*_FIXED, *(column for name in self.measures for column in ((name, f"{name}_low", f"{name}_high") if bounded else (name,))))

    @property
    def _measures_bounded(self) -> bool:
        """Whether the rows have intervals of the measures (not only of accuracy)."""
        return bool(self.measures) and bool(self.rows) and f"{self.measures[0]}_low" in self.rows[0]

    def bounds(self, measure: str) -> tuple[np.ndarray, np.ndarray] | None:
        """The interval of ``measure`` in every row (``"accuracy"`` or a measure column), or None."""
        if not self.rows or f"{measure}_low" not in self.rows[0]:
            return None
        return (np.array([float(row[f"{measure}_low"]) for row in self.rows]), np.array([float(row[f"{measure}_high"]) for row in self.rows]))

    def _headings(self) -> list[str]:
        return [_HEADINGS.get(column, "low" if column.endswith("_low") else "high" if column.endswith("_high") else column) for column in self.columns]

    def _title(self) -> str:
        others = f", the averages with their {self.level:.0%} bootstrap (BCa) intervals" if self._measures_bounded else ""
        return f"{self.kind}: accuracy with its {self.level:.0%} Wilson interval{others}"

    def as_tables(self, digits: int = 3) -> list[Table]:
        """One row per window, under the kind of windows; the monitor's alarms in a note."""
        return [Table(self._headings(), ([row[column] for column in self.columns] for row in self.rows), title=self._title(), notes=self._alarm_notes())]

    def _alarm_notes(self) -> tuple[str, ...]:
        if not self.monitor:
            return ()
        shown = [f"{end:,}" if isinstance(end, int) else str(end) for end in self.alarms]
        if len(shown) > 8:  # a level that stays below alarms again and again: the first ones and the last
            shown = [*shown[:6], "...", shown[-1]]
        found = f"{len(self.alarms)}, at {', '.join(shown)}" if self.alarms else "none"
        return (f"alarms ({self.monitor}): {found}",)

    def csv_table(self) -> Table:
        """One row per window at full precision, the columns by their names."""
        return Table(self.columns, ([row[column] for column in self.columns] for row in self.rows))

    def to_json(self) -> str:
        """A JSON document: the kind of windows, the level and the rows (NaN as null)."""

        def plain(value: Any) -> Any:
            return None if isinstance(value, float) and math.isnan(value) else value

        rows = [{column: plain(row[column]) for column in self.columns} for row in self.rows]
        watched = {"monitor": {"watched": self.monitor, "reference": self.reference, "alarms": list(self.alarms)}} if self.monitor else {}
        return json.dumps({"windows": self.kind, "level": self.level, "measures": ["accuracy", *self.measures], "rows": rows, **watched}, indent=2)

    HTML_TITLE = "evalkit report over time"

    def alarm_positions(self) -> np.ndarray:
        """The alarms as numbers on the axis of ``ends`` (times as seconds since 1970, UTC)."""
        return OverTime("", (), tuple({"end": end} for end in self.alarms)).ends()[0] if self.alarms else np.zeros(0)

    def _figures(self, digits: int) -> list[str]:
        """One line chart per measure over the windows (accuracy with its interval band), the
        monitor's alarms as red lines across each and its reference level on the chart of the
        measure it watched."""
        ends, dates = self.ends()
        span = (float(ends.min()), float(ends.max())) if len(ends) else (0.0, 1.0)
        ticks = time_ticks(*span) if dates else None
        alarms = self.alarm_positions()
        charts = []
        for measure in ("accuracy", *self.measures):
            values = np.array([float(row[measure]) for row in self.rows])
            band = self.bounds(measure)
            charts.append(svg_chart([(measure, ends, values)], x_label=self.axis_label(dates), y_label=measure, markers=len(ends) <= 60,
                                    x_span=span, x_ticks=ticks, band=band, legend=False, alarms=alarms,
                                    level=self.reference if measure == self.monitored else None))  # fmt: skip
        return ['<div class="charts">' + "".join(charts) + "</div>"]
