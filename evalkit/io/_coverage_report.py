"""Reports of predictions that abstain or give sets or intervals: a ``RiskCoverage``, a
``SetCoverage`` or an ``IntervalCoverage`` as a table of readings (and tables per class, per
size, per bin), in text, Markdown, JSON, CSV and a self-contained HTML page with the
risk-coverage curve.

Examples:
    >>> from evalkit import SetCoverage
    >>> report = CoverageReport.of_sets(SetCoverage.from_sets(["a", "b"], [{"a"}, {"a", "b"}]))
    >>> report.to_text(3).splitlines()[:2]
    ['reading              value', 'coverage             1.000']
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Sequence

import attrs
import numpy as np

from evalkit._engine import moved_names
from evalkit._engine._labels import label_text
from evalkit._engine.serialization import json_safe
from evalkit._results._closed_form import _check_level
from evalkit._results.table import Table, Tabular
from evalkit._scores.conformal import IntervalCoverage, SetCoverage
from evalkit._scores.selective import RiskCoverage
from evalkit.exceptions import EvalkitError
from evalkit.io._html import round_span, svg_chart

__all__ = ["COVERAGES", "RISKS", "CoverageReport"]

COVERAGES = (0.5, 0.8, 0.9, 0.95, 1.0)
"""The coverages at which a risk-coverage report reads the selective risk."""

RISKS = (0.01, 0.02, 0.05, 0.1)
"""The risks at which a risk-coverage report reads the largest coverage."""


@attrs.frozen
class CoverageReport(Tabular):
    """Readings (name -> value) and tables (caption, headers, rows) of one result, and the
    risk-coverage curve to draw (``curve``)."""

    readings: dict[str, float]
    tables: tuple[tuple[str, tuple[str, ...], tuple[tuple[object, ...], ...]], ...] = ()
    curve: RiskCoverage | None = None

    @classmethod
    def of_risk_coverage(cls, curve: RiskCoverage, *, level: float = 0.95) -> CoverageReport:
        """Samples, error rate, AURC, excess AURC, the risk at ``COVERAGES`` (with Wilson
        intervals at ``level`` for whole counts) and the coverage at ``RISKS``."""
        level = _check_level(level)
        readings: dict[str, float] = {"samples": curve.n_samples, "error rate": curve.error_rate, "AURC": curve.aurc(), "excess AURC": curve.excess_aurc()}
        low: float
        high: float
        rows = []
        for coverage in COVERAGES:
            risk = curve.risk_at(coverage)
            readings[f"risk at {coverage:.0%} coverage"] = risk
            try:
                interval = curve.risk_interval(coverage, level=level)
                low, high = interval.low, interval.high
            except EvalkitError:  # weighted counts: no binomial interval
                low = high = math.nan
            rows.append((f"{coverage:.0%}", risk, low, high))
        for risk in RISKS:
            readings[f"coverage at {risk:.0%} risk"] = curve.coverage_at(risk)
        table = (f"Selective risk at a coverage ({level:.0%} Wilson intervals)", ("coverage", "risk", "low", "high"), tuple(rows))
        return cls(readings, (table,), curve)

    @classmethod
    def of_sets(cls, result: SetCoverage, *, level: float = 0.95) -> CoverageReport:
        """Coverage (with its interval), mean size, singletons and empty sets, and the coverage
        per class and per set size."""
        readings = _coverage_readings(result, level)
        readings |= {"mean set size": result.mean_size(), "singleton rate": result.singleton_rate(), "singleton accuracy": result.singleton_accuracy(),
                     "empty set rate": result.empty_rate(), "samples": result.n_samples}  # fmt: skip
        classes = tuple((label_text(label), value) for label, value in result.class_coverage().items())
        shares = result.size_distribution()
        sizes = tuple((size, shares[size], value) for size, value in result.size_coverage().items())
        tables = [("Coverage per class", ("class", "coverage"), classes), ("Coverage per set size", ("size", "share of sets", "coverage"), sizes)]
        if result.groups is not None:
            tables.append(("Coverage per group", ("group", "coverage"), tuple((str(g), v) for g, v in result.group_coverage().items())))
        return cls(readings, tuple(tables))

    @classmethod
    def of_intervals(cls, result: IntervalCoverage, *, confidence_level: float = 0.9, level: float = 0.95) -> CoverageReport:
        """Coverage (with its interval), mean width, the interval score at ``confidence_level``
        and, with bins, the coverage per bin of the prediction."""
        readings = _coverage_readings(result, level)
        readings |= {"mean width": result.mean_width(), f"interval score at {confidence_level:g}": result.interval_score(confidence_level),
                     "samples": result.n_samples}  # fmt: skip
        tables = []
        if result.edges is not None:
            names = _bin_names(result.edges.tolist())
            rows = tuple((name, count, value) for name, count, value in zip(names, result.bin_counts().tolist(), result.bin_coverage().tolist()))
            tables.append(("Coverage per bin of the prediction", ("bin", "samples", "coverage"), rows))
        return cls(readings, tuple(tables))

    # ----------------------------------------------------------------------------------------
    # rendering

    def as_tables(self, digits: int = 3) -> list[Table]:
        """The readings, then each table."""
        return [Table(("reading", "value"), self.readings.items()), *(Table(headers, rows, title=caption) for caption, headers, rows in self.tables)]

    def to_dict(self) -> dict[str, object]:
        """Readings and tables as plain data (strict JSON: NaN as null)."""
        return json_safe({"readings": dict(self.readings), "tables": [{"caption": c, "columns": list(h), "rows": [list(r) for r in rows]} for c, h, rows in self.tables]})

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)

    def csv_table(self) -> Table:
        """Long form: ``table,row,column,value`` (the readings are the table ``readings``)."""
        rows: list[tuple[object, ...]] = [("readings", name, "value", value) for name, value in self.readings.items()]
        rows += [(caption, row[0], header, cell) for caption, headers, table in self.tables for row in table for header, cell in zip(headers[1:], row[1:])]
        return Table(("table", "row", "column", "value"), rows)

    def _figures(self, digits: int) -> list[str]:
        """Of a risk-coverage report, the curve of the selective risk against the coverage."""
        if self.curve is None or not len(self.curve.coverage):
            return []
        series = _risk_series(self.curve)
        highest = max((float(np.nanmax(y)) for _, _, y in series if np.isfinite(y).any()), default=0.0)
        chart = svg_chart(series, x_label="coverage", y_label="selective risk", steps=True, y_span=round_span(0.0, highest, digits=digits), digits=digits)
        return [f"<figure>{chart}<figcaption>Risk-coverage curve (AURC {self.curve.aurc():.{digits}f})</figcaption></figure>"]


def _bin_names(edges: list[float]) -> list[str]:
    """What each bin of ``IntervalCoverage`` holds: the end bins take the predictions beyond
    the edges, so the first is ``< e1`` and the last ``>= e(n-1)``; the others ``[e(j), e(j+1))``.

    Examples:
        >>> _bin_names([0, 2, 5, 9]), _bin_names([0, 9])
        (['< 2', '[2, 5)', '>= 5'], ['all'])
    """
    if len(edges) == 2:
        return ["all"]
    inner = [f"[{low:g}, {high:g})" for low, high in itertools.pairwise(edges[1:-1])]
    return [f"< {edges[1]:g}", *inner, f">= {edges[-2]:g}"]


def _coverage_readings(result: SetCoverage | IntervalCoverage, level: float) -> dict[str, float]:
    """The coverage, and its Wilson interval at ``level`` where the counts are of samples.

    Raises:
        InvalidArgumentError: ``level`` not in (0, 1) (weights are no error: no interval).
    """
    level = _check_level(level)
    readings: dict[str, float] = {"coverage": result.coverage()}
    try:
        interval = result.coverage_interval(level=level)
    except EvalkitError:  # weighted counts: no binomial interval
        return readings
    readings[f"coverage, {level:.0%} low"], readings[f"coverage, {level:.0%} high"] = interval.low, interval.high
    return readings


def _risk_series(curve: RiskCoverage) -> Sequence[tuple[str, np.ndarray, np.ndarray]]:
    """The curve, and the perfect ranking of its samples (every correct sample first)."""
    return [("model", curve.coverage, curve.risk), ("perfect ranking", *curve.oracle_risk())]

moved_names.publish("evalkit.io", globals(), ["CoverageReport"])  # given by the face on first use: named so from the start (pickles, reprs)
