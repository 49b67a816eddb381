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
from collections.abc import Sequence
from typing import Any

import attrs

from evalkit import formulas
from evalkit._validation import check_choice, show
from evalkit.averaging import CellsResult, average_cells, per_entry
from evalkit.exceptions import InvalidArgumentError, InvalidTypeError

__all__ = ["DEFAULT_MEASURES", "FORMATS", "Report", "build_report", "classification_report"]

DEFAULT_MEASURES = ("precision", "recall", "f1_score", "specificity", "matthews_correlation_coefficient")
"""The columns of a report unless others are asked for."""

FORMATS = ("text", "markdown", "csv", "json", "dict")
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


def _header(name: str) -> str:
    measure = formulas.get_measure(name)
    return _SHORT.get(measure.name, measure.name if len(measure.name) <= 12 else measure.abbreviation.lower() or measure.name)


def _cell(value: float, digits: int) -> str:
    if math.isnan(value):
        return _UNDEFINED
    text = f"{value:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text  # no "-0.000"


@attrs.frozen
class Report:
    """The numbers of a classification report, ready to render.

    Attributes:
        measures: the measure names of the columns.
        labels: the class labels, in order.
        per_class: ``{label: [value per measure]}``.
        support: ``{label: actual count}``.
        averages: ``{"micro avg" | "macro avg" | ...: [value per measure]}``.
        total: the number of samples (the support of every average row).
        summary: ``{"accuracy": ..., ...}``: whole-result measures.
    """

    measures: tuple[str, ...]
    labels: tuple
    per_class: dict
    support: dict
    averages: dict
    total: float
    summary: dict

    def to_dict(self) -> dict[str, Any]:
        """Plain data: ``{"classes": {label: {...}}, "averages": {...}, "summary": {...}}``."""

        def row(values: Sequence[float], support: float) -> dict[str, Any]:
            return {**dict(zip(self.measures, values)), "support": support}

        return {
            "classes": {label: row(self.per_class[label], self.support[label]) for label in self.labels},
            "averages": {name: row(values, self.total) for name, values in self.averages.items()},
            "summary": dict(self.summary),
        }

    def _rows(self, digits: int) -> list[tuple[str, list[str]]]:
        def count(value: float) -> str:
            return str(int(value)) if float(value).is_integer() else f"{value:.{digits}f}"

        rows = [(str(label), [_cell(v, digits) for v in self.per_class[label]] + [count(self.support[label])]) for label in self.labels]
        rows.append(("", []))
        rows += [(name, [_cell(v, digits) for v in values] + [count(self.total)]) for name, values in self.averages.items()]
        if self.summary:
            rows.append(("", []))
            rows += [(_SUMMARY_TITLES.get(name, name), [_cell(value, digits)]) for name, value in self.summary.items()]
        return rows

    def to_text(self, digits: int = 3) -> str:
        """The aligned ``classification_report`` table."""
        headers = [_header(name) for name in self.measures] + ["support"]
        rows = self._rows(digits)
        name_width = max(len(name) for name, _ in rows) + 2
        widths = [max(len(header), digits + 3, *(len(cells[i]) for _, cells in rows if len(cells) > i)) for i, header in enumerate(headers)]
        lines = [" " * name_width + "  ".join(f"{header:>{width}}" for header, width in zip(headers, widths))]
        for name, cells in rows:
            lines.append((f"{name:<{name_width}}" + "  ".join(f"{cell:>{width}}" for cell, width in zip(cells, widths))).rstrip())
        return "\n".join(lines)

    def to_markdown(self, digits: int = 3) -> str:
        """A Markdown table of classes and averages, then the summary as a second table."""
        headers = ["class", *(_header(name) for name in self.measures), "support"]
        lines = ["| " + " | ".join(headers) + " |", "|" + "|".join(["---"] + ["---:"] * (len(headers) - 1)) + "|"]
        for name, cells in self._rows(digits):
            if cells and len(cells) == len(headers) - 1:
                lines.append("| " + " | ".join([name.replace("|", "\\|"), *cells]) + " |")
        if self.summary:
            lines += ["", "| measure | value |", "|---|---:|"]
            lines += [f"| {_SUMMARY_TITLES.get(name, name)} | {_cell(value, digits)} |" for name, value in self.summary.items()]
        return "\n".join(lines)

    def to_csv(self) -> str:
        """CSV rows ``name, kind, <measures>, support, value`` (full precision; empty = undefined)."""
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")

        def number(value: float) -> str:
            return "" if math.isnan(value) else repr(float(value))

        writer.writerow(["name", "kind", *self.measures, "support", "value"])
        for label in self.labels:
            writer.writerow([label, "class", *map(number, self.per_class[label]), number(self.support[label]), ""])
        for name, values in self.averages.items():
            writer.writerow([name, "average", *map(number, values), number(self.total), ""])
        for name, value in self.summary.items():
            writer.writerow([name, "summary", *[""] * len(self.measures), "", number(value)])
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

    def render(self, format: str = "text", digits: int = 3) -> str | dict:
        """Render in one of ``FORMATS``."""
        check_choice("format", format, FORMATS)
        if format == "dict":
            return self.to_dict()
        if format in ("csv", "json"):
            return self.to_csv() if format == "csv" else self.to_json()
        return self.to_text(digits) if format == "text" else self.to_markdown(digits)


def build_report(source: Any, *, measures: Sequence[str] = DEFAULT_MEASURES, undefined: Any = "exclude") -> Report:
    """Gather the numbers of a report from a ConfusionMatrix or an Evaluation.

    Averages follow ``undefined`` (see ``evalkit.averaging``); multi-label, soft and
    hierarchical evaluations get a ``samples avg`` row too. The summary holds the
    whole-result measures the data support: accuracy, Cohen's kappa and MCC for single-label
    data, exact-match accuracy and Hamming loss for multi-label data, and the coverage of a
    selective rejection.
    """
    if not isinstance(source, CellsResult):
        raise InvalidTypeError(f"a report needs a ConfusionMatrix or an Evaluation, got {show(source)}")
    names = tuple(formulas.get_measure(name).name for name in measures)
    if not names:
        raise InvalidArgumentError("'measures' is empty")
    cells = source.class_cells  # computed once for every column
    columns = [per_entry(cells, name, None, {}) for name in names]
    labels = tuple(source.labels)
    per_class = {label: [float(column[k]) for column in columns] for k, label in enumerate(labels)}
    support = {label: value for label, value in zip(labels, cells.support.tolist())}
    averages = {}
    for kind in source.report_averages():
        per_sample = source.sample_cells if kind == "samples" else None
        averages[f"{kind} avg"] = [
            float(average_cells(formulas.get_measure(name), cells, kind, undefined=undefined, per_sample=per_sample)) for name in names
        ]
    return Report(names, labels, per_class, support, averages, source.n_samples, source.whole_measures())


def classification_report(
    source: Any,
    *,
    measures: Sequence[str] = DEFAULT_MEASURES,
    digits: int = 3,
    undefined: Any = "exclude",
    format: str = "text",
) -> str | dict:
    """A per-class report of ``measures`` with support, the class averages and a summary.

    Args:
        source: a ``ConfusionMatrix`` or an ``Evaluation``.
        measures: the columns (any registered measure names or aliases).
        digits: digits after the decimal point (text and Markdown).
        undefined: the undefined-value policy of the averages.
        format: ``"text"``, ``"markdown"``, ``"csv"``, ``"json"`` or ``"dict"``.
    """
    return build_report(source, measures=measures, undefined=undefined).render(format, digits)
