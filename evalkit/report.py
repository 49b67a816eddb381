"""Reports: the per-class table with micro, macro and weighted averages, in several formats.

A ``Report`` is built once from a ``ConfusionMatrix`` or an
``Evaluation`` and rendered as aligned text (the ``classification_report``
layout users know), Markdown, CSV, JSON or a plain dict. The Java-style ``str()`` layouts of
``ConfusionMatrix`` and ``ClassificationMetrics`` are separate and unchanged.

Examples:
    >>> from evalkit import ConfusionMatrix
    >>> cm = ConfusionMatrix.from_predictions(list("aabbb"), list("abbbb"))
    >>> print(classification_report(cm, measures=["precision", "recall"], digits=2))
                  precision  recall  support
    a                  1.00    0.50        2
    b                  0.75    1.00        3
    <BLANKLINE>
    micro avg          0.80    0.80        5
    macro avg          0.88    0.75        5
    weighted avg       0.85    0.80        5
    <BLANKLINE>
    accuracy           0.80
    cohen kappa        0.55
    mcc                0.61
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterable, Sequence
from typing import Any

import attrs
import numpy as np

from evalkit._validation import check_choice, show
from evalkit.averaging import Averaged, average_cells, check_undefined
from evalkit.exceptions import InvalidArgumentError, InvalidTypeError, UnsupportedSettingError
from evalkit.measures import MEASURES, Measure, get_measure
from evalkit.results import CellsResult

__all__ = ["DEFAULT_MEASURES", "FORMATS", "MATRIX_LIMIT", "Report", "build_report", "classification_report"]

DEFAULT_MEASURES = ("precision", "recall", "f1_score", "specificity", "matthews_correlation_coefficient")
"""The columns of a report unless others are asked for."""

FORMATS = ("text", "markdown", "csv", "json", "dict", "html")
"""The renderings of a report."""

_SHORT = {"f1_score": "f1-score", "matthews_correlation_coefficient": "mcc", "f_score": "f-score"}
_SUMMARY_TITLES = {
    "accuracy": "accuracy",
    "cohen_kappa": "cohen kappa",
    "matthews_correlation_coefficient": "mcc",
    "hamming_loss": "hamming loss",
    "coverage": "coverage",
}
_UNDEFINED = "undef"


def _header(measure: Measure) -> str:
    name = measure.name
    return _SHORT.get(name, name if len(name) <= 12 else measure.abbreviation.lower() or name)


def _cell(value: float, digits: int) -> str:
    if math.isnan(value):
        return _UNDEFINED
    text = f"{value:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text  # no "-0.000"


def _count(value: Any, digits: int | None = None) -> str:
    """A support: an integer as an integer, a weighted (float) count with ``digits`` (full
    precision without)."""
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    return repr(float(value)) if digits is None else f"{value:.{digits}f}"


@attrs.frozen
class Report:
    """The numbers of a classification report, ready to render.

    Attributes:
        measures: the measure names of the columns.
        labels: the class labels, in order.
        per_class: ``{label: [value per measure]}``.
        support: ``{label: actual count}`` (integers for unweighted or integer-weighted data).
        averages: ``{"micro avg" | "macro avg" | ...: [value per measure]}``; each value is an
            ``Averaged`` float that knows how many classes (samples) it covers and how many
            were defined.
        total: the support of the average rows: the sum of the class supports (as
            scikit-learn reports it; for multi-label data the number of actual labels).
        summary: ``{"accuracy": ..., ...}``: whole-result measures.
        confusion: the confusion matrix of small single-label results (``None`` otherwise).
        headers: the column titles, one per measure.
        undefined: the undefined-value policy of the averages.
        intervals: confidence intervals of the average rows and the summary
            (``{row name: [Interval or None per measure]}``, ``{summary name: [Interval]}``),
            when the report was built with ``confidence=``; ``None`` where the data give none.
    """

    measures: tuple[str, ...]
    labels: tuple
    per_class: dict
    support: dict
    averages: dict
    total: Any
    summary: dict
    confusion: Any = None
    headers: tuple[str, ...] = ()
    undefined: str = "exclude"
    intervals: dict = attrs.field(factory=dict)

    def titles(self) -> list[str]:
        """The column titles: the headers, or the measure names."""
        return list(self.headers) or list(self.measures)

    def row_name(self, name: str) -> str:
        """An average row's name, saying how many values it left out (under the ``"exclude"``
        policy): ``macro avg (9 of 10 classes)``."""
        values = self.averages[name]
        if self.undefined != "exclude":
            return name
        left_out = [value for value in values if isinstance(value, Averaged) and value.n_defined < value.n_values]
        if not left_out:
            return name
        fewest = min(left_out, key=lambda value: value.n_defined)
        unit = "samples" if name.startswith("samples") else "classes"
        return f"{name} ({fewest.n_defined} of {fewest.n_values} {unit})"

    def to_dict(self) -> dict[str, Any]:
        """Plain data: ``{"classes": {label: {...}}, "averages": {...}, "summary": {...}}``; an
        average row also holds ``n_defined`` (per measure) and ``n_values``."""

        def row(values: Sequence[float], support: Any) -> dict[str, Any]:
            return {**dict(zip(self.measures, map(float, values))), "support": support}

        def average_row(values: Sequence[float]) -> dict[str, Any]:
            counts = {measure: value.n_defined for measure, value in zip(self.measures, values) if isinstance(value, Averaged)}
            sizes = [value.n_values for value in values if isinstance(value, Averaged)]
            return {**row(values, self.total), "n_defined": counts, "n_values": sizes[0] if sizes else None}

        document = {
            "classes": {label: row(self.per_class[label], self.support[label]) for label in self.labels},
            "averages": {name: average_row(values) for name, values in self.averages.items()},
            "summary": dict(self.summary),
        }
        if self.intervals:
            first = next(found for row in self.intervals.values() for found in row if found is not None)
            document["intervals"] = {
                "level": first.level,
                "method": first.method,
                "rows": {name: {measure: None if found is None else [found.low, found.high] for measure, found in zip(self._row_measures(name), row)}
                         for name, row in self.intervals.items()},
            }  # fmt: skip
        return document

    def _row_measures(self, name: str) -> list[str]:
        return list(self.measures) if name in self.averages else [name]

    def interval_rows(self, digits: int = 3) -> list[tuple[str, list[str]]]:
        """The intervals as ``(row name, ["[low, high]" per measure])`` (``n/a`` where the data
        give none), for the renderings."""

        def shown(found: Any) -> str:
            return "n/a" if found is None or math.isnan(found.low) else f"[{_cell(found.low, digits)}, {_cell(found.high, digits)}]"

        return [(_SUMMARY_TITLES.get(name, name), [shown(found) for found in row]) for name, row in self.intervals.items()]

    def interval_title(self) -> str:
        """``95% confidence intervals (bca bootstrap)``, or ``""`` without intervals."""
        found = [value for row in self.intervals.values() for value in row if value is not None]
        if not found:
            return ""
        method = found[0].method
        return f"{found[0].level:.0%} confidence intervals ({method}{' bootstrap' if method in ('bca', 'percentile') else ''})"

    def _rows(self, digits: int) -> list[tuple[str, list[str]]]:
        rows = [(str(label), [_cell(v, digits) for v in self.per_class[label]] + [_count(self.support[label], digits)]) for label in self.labels]
        rows.append(("", []))
        rows += [(self.row_name(name), [_cell(v, digits) for v in values] + [_count(self.total, digits)]) for name, values in self.averages.items()]
        if self.summary:
            rows.append(("", []))
            rows += [(_SUMMARY_TITLES.get(name, name), [_cell(value, digits)]) for name, value in self.summary.items()]
        return rows

    def to_text(self, digits: int = 3) -> str:
        """The aligned ``classification_report`` table."""
        headers = [*self.titles(), "support"]
        rows = self._rows(digits)
        name_width = max(len(name) for name, _ in rows) + 2
        widths = [max(len(header), digits + 3, *(len(cells[i]) for _, cells in rows if len(cells) > i)) for i, header in enumerate(headers)]
        lines = [" " * name_width + "  ".join(f"{header:>{width}}" for header, width in zip(headers, widths))]
        for name, cells in rows:
            lines.append((f"{name:<{name_width}}" + "  ".join(f"{cell:>{width}}" for cell, width in zip(cells, widths))).rstrip())
        if self.intervals:
            rows = self.interval_rows(digits)
            name_width = max(name_width, *(len(name) + 2 for name, _ in rows))
            widths = [max(len(header), *(len(cells[i]) for _, cells in rows if len(cells) > i)) for i, header in enumerate(self.titles())]
            lines += ["", self.interval_title(), " " * name_width + "  ".join(f"{header:>{width}}" for header, width in zip(self.titles(), widths))]
            lines += [(f"{name:<{name_width}}" + "  ".join(f"{cell:>{width}}" for cell, width in zip(cells, widths))).rstrip() for name, cells in rows]
        return "\n".join(lines)

    def to_markdown(self, digits: int = 3) -> str:
        """A Markdown table of classes and averages, the summary as a second table, and the
        confusion matrix (rows actual) when the report holds one."""
        headers = ["class", *self.titles(), "support"]
        lines = ["| " + " | ".join(headers) + " |", "|" + "|".join(["---"] + ["---:"] * (len(headers) - 1)) + "|"]
        for name, cells in self._rows(digits):
            if cells and len(cells) == len(headers) - 1:
                lines.append("| " + " | ".join([_escape(name), *cells]) + " |")
        if self.summary:
            lines += ["", "| measure | value |", "|---|---:|"]
            lines += [f"| {_SUMMARY_TITLES.get(name, name)} | {_cell(value, digits)} |" for name, value in self.summary.items()]
        if self.intervals:
            lines += ["", f"{self.interval_title()}:", "", "| | " + " | ".join(self.titles()) + " |", "|---|" + "---:|" * len(self.measures)]
            lines += [f"| {_escape(name)} | " + " | ".join(cells) + " |" for name, cells in self.interval_rows(digits)]
        if self.confusion is not None:
            names = [_escape(str(label)) for label in self.confusion.labels]
            lines += ["", "Confusion matrix (rows actual, columns predicted):", "", "| actual \\ predicted | " + " | ".join(names) + " |"]
            lines.append("|---|" + "---:|" * len(names))
            for name, counts in zip(names, self.confusion.to_array().tolist()):
                lines.append(f"| {name} | " + " | ".join(_count(count, digits) for count in counts) + " |")
        return "\n".join(lines)

    def to_csv(self) -> str:
        """CSV rows ``name, kind, <measures>, support, value`` (full precision; empty = undefined;
        integer supports as integers)."""
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")

        def number(value: float) -> str:
            return "" if math.isnan(value) else repr(float(value))

        writer.writerow(["name", "kind", *self.measures, "support", "value"])
        for label in self.labels:
            writer.writerow([label, "class", *map(number, self.per_class[label]), _count(self.support[label]), ""])
        for name, values in self.averages.items():
            writer.writerow([name, "average", *map(number, values), _count(self.total), ""])
        for name, value in self.summary.items():
            writer.writerow([name, "summary", *[""] * len(self.measures), "", number(value)])
        for name, row in self.intervals.items():
            for side in ("low", "high"):
                bounds = ["" if found is None else number(getattr(found, side)) for found in row]
                if name in self.averages:
                    writer.writerow([name, f"interval {side}", *bounds, "", ""])
                else:
                    writer.writerow([name, f"interval {side}", *[""] * len(self.measures), "", bounds[0]])
        return buffer.getvalue()

    def to_json(self) -> str:
        """The dict as JSON (labels as strings, undefined values as null)."""

        def clean(value: Any) -> Any:
            if isinstance(value, dict):
                return {str(key): clean(item) for key, item in value.items()}
            if isinstance(value, float):
                return None if math.isnan(value) else value
            return value

        return json.dumps(clean(self.to_dict()), indent=2)

    def to_html(self, digits: int = 3, *, title: str = "evalkit report", subtitle: str = "", curve: Any = None) -> str:
        """One self-contained HTML page (no network, no script): the table, the summary, the
        confusion matrix as a heat map and, given a ``ThresholdCurve`` of the same data, its
        ROC and precision-recall curves as inline SVG (see ``evalkit.html``)."""
        from evalkit.html import report_page  # rendering only: not needed by the other formats

        return report_page(self, digits=digits, title=title, subtitle=subtitle, curve=curve)

    def render(self, format: str = "text", digits: int = 3) -> str | dict:
        """Render in one of ``FORMATS``."""
        check_choice("format", format, FORMATS)
        if format == "dict":
            return self.to_dict()
        if format == "html":
            return self.to_html(digits)
        if format in ("csv", "json"):
            return self.to_csv() if format == "csv" else self.to_json()
        return self.to_text(digits) if format == "text" else self.to_markdown(digits)


def _escape(text: str) -> str:
    return text.replace("|", "\\|")


MATRIX_LIMIT = 100
"""The most classes whose confusion matrix a report holds (Markdown, JSON)."""


def build_report(
    source: Any, *, measures: Sequence[Any] = DEFAULT_MEASURES, undefined: Any = "exclude", metrics_class: type[Any] | None = None,
    confidence: float | None = None, interval_method: str = "bca", n_resamples: int = 2000, random_state: Any = 0,
    sort_by: Any = None,
) -> Report:
    """Gather the numbers of a report from a ConfusionMatrix or an Evaluation.

    Averages follow ``undefined`` (see ``evalkit.averaging``); multi-label, soft and
    hierarchical evaluations get a ``samples avg`` row too. The summary holds the
    whole-result measures the data support: accuracy, Cohen's kappa and MCC for single-label
    data, exact-match accuracy and Hamming loss for multi-label data, and the coverage of a
    selective rejection.

    Args:
        source: a ``ConfusionMatrix`` or an ``Evaluation``.
        measures: the columns: measure names in any spelling (``"f1"``, ``"F1Score"``),
            getters of the metrics class, or ``Measure`` objects.
        undefined: the undefined-value policy of the averages.
        metrics_class: a ``ClassificationMetrics`` subclass to look names up in, instead of
            the source's own.
        confidence: a level such as 0.95 to add confidence intervals of the averages and of
            the summary measures (see ``evalkit.intervals``); ``None`` for none.
        interval_method: ``"bca"`` or ``"percentile"`` (the bootstrap).
        n_resamples: bootstrap resamples.
        random_state: the seed (fixed by default: the same data, the same report).
        sort_by: a measure (a column or any other): the classes from best to worst by its
            direction (highest first, or lowest first for a loss; undefined values last;
            ties in label order). ``None`` keeps the label order.

    Raises:
        InvalidArgumentError: ``sort_by`` names a measure without a direction (prevalence).
    """
    if not isinstance(source, CellsResult):
        raise InvalidTypeError(f"a report needs a ConfusionMatrix or an Evaluation, got {show(source)}")
    if isinstance(measures, (str, bytes)) or not isinstance(measures, Iterable):
        raise InvalidTypeError(f"'measures' must be a list of measure names, got {show(measures)}")
    resolved = [source.measure(name, metrics_class) for name in measures]
    if not resolved:
        raise InvalidArgumentError("'measures' is empty")
    names = tuple(measure.name for measure in resolved)
    cells = source.class_cells  # computed once for every column
    columns = [np.asarray(cells.evaluate(measure), dtype=np.float64) for measure in resolved]
    labels = tuple(source.labels) if sort_by is None else _sorted_labels(source, sort_by, metrics_class)
    positions = {label: k for k, label in enumerate(source.labels)}
    per_class = {label: [float(column[positions[label]]) for column in columns] for label in labels}
    support = {label: cells.support[positions[label] : positions[label] + 1].tolist()[0] for label in labels}
    averages = {}
    for kind in source.report_averages():
        per_sample = source.sample_cells if kind == "samples" else None
        averages[f"{kind} avg"] = [average_cells(measure, cells, kind, undefined=undefined, per_sample=per_sample) for measure in resolved]
    total = sum(support.values())
    confusion = _small_confusion(source) if len(labels) <= MATRIX_LIMIT and "samples" not in source.report_averages() else None
    headers = tuple(_header(measure) for measure in resolved)
    summary = source.whole_measures()
    intervals = {}
    if confidence is not None:
        options = {"level": confidence, "method": interval_method, "n_resamples": n_resamples, "random_state": random_state, "undefined": undefined}
        for kind in source.report_averages():
            intervals[f"{kind} avg"] = [_interval_or_none(source, measure, kind, options) for measure in resolved]
        for name in summary:  # measures of the whole result: evalkit's own, whatever the metrics class
            intervals[name] = [_interval_or_none(source, get_measure(name), None, options) if name in MEASURES else None]
    return Report(names, labels, per_class, support, averages, total, summary, confusion, headers, check_undefined(undefined), intervals)


def _sorted_labels(source: CellsResult, sort_by: Any, metrics_class: type[Any] | None) -> tuple:
    """The labels from the best class to the worst by a measure's direction, undefined last."""
    measure = source.measure(sort_by, metrics_class)
    if measure.direction not in ("higher", "lower"):
        raise InvalidArgumentError(f"sort_by={measure.name!r}: the measure has no direction (neither higher nor lower is better)")
    values = np.asarray(source.class_cells.evaluate(measure), dtype=np.float64)
    keys = np.where(np.isnan(values), np.inf, -values if measure.direction == "higher" else values)
    return tuple(source.labels[k] for k in np.argsort(keys, kind="stable"))


def _interval_or_none(source: CellsResult, measure: Measure, average: str | None, options: dict[str, Any]) -> Any:
    """The interval of one report cell, or None where the data give none (a per-class average of
    multi-label data, a measure with no whole-result interval)."""
    try:
        return source.interval(measure, average, **options)
    except (UnsupportedSettingError, InvalidArgumentError):
        return None


def _small_confusion(source: CellsResult) -> Any:
    """The confusion matrix, when the result has one (one-vs-rest cells at a threshold do not)."""
    try:
        return source.confusion_matrix()
    except UnsupportedSettingError:
        return None


def classification_report(
    source: Any,
    *,
    measures: Sequence[str] = DEFAULT_MEASURES,
    digits: int = 3,
    undefined: Any = "exclude",
    format: str = "text",
    metrics_class: type[Any] | None = None,
    sort_by: Any = None,
) -> str | dict:
    """A per-class report of ``measures`` with support, the class averages and a summary.

    Args:
        source: a ``ConfusionMatrix`` or an ``Evaluation``.
        measures: the columns (any registered measure names or aliases).
        digits: digits after the decimal point (text and Markdown).
        undefined: the undefined-value policy of the averages.
        format: ``"text"``, ``"markdown"``, ``"csv"``, ``"json"``, ``"dict"`` or ``"html"``.
        metrics_class: a ``ClassificationMetrics`` subclass to look names up in, instead of
            the source's own.
        sort_by: a measure: the classes from best to worst (see ``build_report``).
    """
    return build_report(source, measures=measures, undefined=undefined, metrics_class=metrics_class, sort_by=sort_by).render(format, digits)
