"""Reports: the per-class table with micro, macro and weighted averages, in several formats.

A ``Report`` is built once from a ``ConfusionMatrix`` or an
``Evaluation`` and rendered as aligned text (the per-class table users know from
scikit-learn's ``classification_report``, then the whole-result measures), Markdown, CSV, JSON or a plain dict. The Java-style ``str()`` layouts of
``ConfusionMatrix`` and ``ClassificationMetrics`` are separate and unchanged.

Examples:
    >>> from evalkit import ConfusionMatrix
    >>> cm = ConfusionMatrix.from_predictions(list("aabbb"), list("abbbb"))
    >>> print(classification_report(cm, measures=["precision", "recall"], digits=2))
    class         precision  recall  support
    a                  1.00    0.50        2
    b                  0.75    1.00        3
    <BLANKLINE>
    micro avg          0.80    0.80        5
    macro avg          0.88    0.75        5
    weighted avg       0.85    0.80        5
    <BLANKLINE>
    measure      value
    accuracy      0.80
    cohen kappa   0.55
    mcc           0.61
    <BLANKLINE>
    Confusion matrix (rows actual, columns predicted)
    actual \\ predicted      a      b
    a                       1      1
    b                       0      3
"""

from __future__ import annotations

import json
import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import attrs
import numpy as np

from evalkit._engine import moved_names
from evalkit._engine._labels import OVERALL, label_text
from evalkit._engine._validation import RandomState, check_choice, count_text, show
from evalkit._engine.serialization import json_safe
from evalkit._results.base import CellsResult
from evalkit._results.intervals import ratio_interval
from evalkit._results.rendering import ReportFace, renders
from evalkit._results.table import UNDEFINED, Table, Tabular, counts_table, shown
from evalkit._scores.curves import AREAS
from evalkit.exceptions import (
    EvalkitError,
    InvalidArgumentError,
    InvalidCountsError,
    InvalidTypeError,
    UnsupportedSettingError,
)
from evalkit.io._report_columns import (
    COUNTS,
    MATRIX_LIMIT,
    _columns,
    _header,
    _key_part,
    _listed,
    column_key,
)
from evalkit.measures._averaging import (
    Averaged,
    UndefinedPolicy,
    check_undefined,
)
from evalkit.measures._registry import MEASURES, Measure, MeasureLike, get_measure

if TYPE_CHECKING:
    from evalkit._groups._by_group import ByGroup
    from evalkit._results._closed_form import Interval
    from evalkit._results.confusion_matrix import ConfusionMatrix
    from evalkit._scores.calibration import Calibration, Reliability
    from evalkit._scores.curves import ThresholdCurve


class PairsKept(Protocol):
    """Counts that keep their kinds of sample for intervals (``LabelSetCounts(keep_pairs=True)``)."""

    def interval(self, measure: MeasureLike, average: str = ..., **options: Any) -> Interval: ...

__all__ = [
    "AREAS",
    "COUNTS",
    "DEFAULT_MEASURES",
    "FORMATS",
    "MATRIX_LIMIT",
    "GroupReport",
    "Report",
    "ReportFace",
    "build_report",
    "classification_report",
    "column_key",
    "group_report",
]

DEFAULT_MEASURES = ("precision", "recall", "f1_score", "specificity", "matthews_correlation_coefficient")
"""The columns of a report unless others are asked for."""

FORMATS = ("text", "markdown", "csv", "json", "dict", "html")
"""The renderings of a report."""

SHOWN_MATRIX = 30
"""The most classes whose confusion matrix a report's text and Markdown show (JSON and HTML
hold it up to ``MATRIX_LIMIT``)."""

_SUMMARY_TITLES = {
    "accuracy": "accuracy",
    "cohen_kappa": "cohen kappa",
    "matthews_correlation_coefficient": "mcc",
    "hamming_loss": "hamming loss",
    "coverage": "coverage",
}
_CALIBRATION_TITLES = {
    "expected_calibration_error": "ece",
    "maximum_calibration_error": "mce",
    "root_mean_squared_calibration_error": "rmsce",
    "debiased_mean_squared_calibration_error": "debiased msce",
    "brier_score": "brier score",
    "reliability": "reliability",
    "resolution": "resolution",
    "uncertainty": "uncertainty",
    "log_loss": "log loss",
    "top_label_log_loss": "top-label log loss",
    "spiegelhalter_p_value": "spiegelhalter p",
}


@attrs.frozen
class Report(Tabular):
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
        counts: the columns that are counts (shown as whole numbers).
        calibration: the calibration numbers of the scores (``Calibration.summary``), when
            the report was built with ``calibration=``.
        calibration_title: what they are: ``calibration (top label, 15 equal-width bins)``.
        reliability: the points of the reliability diagram (``Calibration.reliability``).
        reasons: ``{measure: {label: why}}``: why a class's value is undefined, where the
            reason is not a 0/0 of its cells (an area of a class with no negative sample).
        notes: sentences the renderings add after the tables (which prediction the label
            measures use, say); ``undefined_notes`` adds those on undefined values.
    """

    measures: tuple[str, ...]
    labels: tuple
    per_class: dict
    support: dict
    averages: dict
    total: float
    summary: dict
    confusion: ConfusionMatrix | None = None
    headers: tuple[str, ...] = ()
    undefined: str = "exclude"
    intervals: dict = attrs.field(factory=dict)
    counts: tuple[str, ...] = ()
    calibration: dict = attrs.field(factory=dict)
    calibration_title: str = ""
    reliability: Reliability | None = attrs.field(default=None, eq=False)
    reasons: dict = attrs.field(factory=dict)
    notes: tuple[str, ...] = ()

    def cell(self, value: float, position: int, digits: int = 3) -> str:
        """A value of the column at ``position`` as the renderings show it: counts as
        ``count_text`` (whole ones as integers), other values with ``digits`` decimals,
        ``undef`` where undefined."""
        if self.measures[position] in self.counts and not math.isnan(value):
            return count_text(value, digits)
        return shown(value, digits)

    def titles(self) -> list[str]:
        """The column titles: the headers, or the measure names."""
        return list(self.headers) or list(self.measures)

    def summary_title(self, name: str) -> str:
        """A whole-result measure's name as every rendering shows it (``cohen kappa``)."""
        return _SUMMARY_TITLES.get(name, name.replace("_", " "))

    def calibration_name(self, name: str) -> str:
        """A calibration number's name as every rendering shows it (``ece``, ``debiased msce``)."""
        return _calibration_title(name)

    def left_out(self, name: str, position: int) -> bool:
        """Whether the average row ``name`` left undefined values out of the column at
        ``position`` (under the ``"exclude"`` policy): its cell is marked ``*``."""
        value = self.averages[name][position]
        return self.undefined == "exclude" and isinstance(value, Averaged) and 0 < value.n_values and value.n_defined < value.n_values

    def average_cell(self, name: str, position: int, digits: int = 3) -> str:
        """A cell of an average row: the value, marked ``*`` where undefined values were left out."""
        text = self.cell(self.averages[name][position], position, digits)
        return f"{text}*" if self.left_out(name, position) and text != UNDEFINED else text

    def undefined_notes(self) -> list[str]:
        """One sentence per column holding an undefined value: the classes where it is
        undefined and why (``0/0`` of the cells unless ``reasons`` says otherwise), and which
        average rows left them out (the cells marked ``*``).

        Examples:
            >>> from evalkit import ConfusionMatrix
            >>> report = build_report(ConfusionMatrix.from_predictions(list("aabbc"), list("abbba")), measures=["precision", "recall"])
            >>> report.undefined_notes()
            ['* precision is undefined for c (0/0: never predicted): the macro and weighted averages are over 2 of 3 classes']
        """
        notes = []
        for k, (measure, title) in enumerate(zip(self.measures, self.titles())):
            why = self.reasons.get(measure, {})
            undefined = [label for label in self.labels if math.isnan(self.per_class[label][k]) or label in why]
            rows = [name for name in self.averages if self.left_out(name, k)]
            if not undefined and not rows:
                continue
            parts = []
            if undefined:
                causes: dict[str, list[str]] = {}
                for label in undefined:
                    causes.setdefault(why.get(label) or "0/0", []).append(label_text(label))
                filled = "" if self.undefined in ("exclude", "nan") else f", counted as {1 if self.undefined == 'one' else 0} (undefined={self.undefined!r})"
                parts.append("; ".join(f"{title} is undefined for {_listed(labels)} ({cause}){filled}" for cause, labels in causes.items()))
            else:
                parts.append(f"{title} is undefined for some samples")
            if rows:
                counted = [(name, self.averages[name][k]) for name in rows]
                kinds = [name.removesuffix(" avg") for name, _ in counted]
                unit = "samples" if all(name.startswith("samples") for name in kinds) else "classes"
                first = counted[0][1]
                same = all((value.n_defined, value.n_values) == (first.n_defined, first.n_values) for _, value in counted)
                if same:
                    parts.append(f"the {_listed(kinds)} average{'s are' if len(kinds) > 1 else ' is'} over {first.n_defined} of {first.n_values} {unit}")
                else:
                    parts.append(", ".join(f"the {kind} average over {value.n_defined} of {value.n_values}"
                                           f" {'samples' if kind == 'samples' else 'classes'}" for kind, (_, value) in zip(kinds, counted)))  # fmt: skip
            notes.append(("* " if rows else "") + ": ".join(parts))
        return notes

    def all_notes(self) -> list[str]:
        """The notes on undefined values, then the report's own."""
        return [*self.undefined_notes(), *self.notes]

    def to_dict(self, *, strict: bool = False) -> dict[str, Any]:
        """Plain data: ``{"classes": {label: {...}}, "averages": {...}, "summary": {...}}``; an
        average row also holds ``n_defined`` (per measure) and ``n_values``;
        ``strict=True``: plain data strict JSON takes (NaN as ``None``, infinities as ``"Infinity"``; see ``serialization.json_safe``)."""

        def row(values: Sequence[float], support: float | None) -> dict[str, Any]:
            return {**dict(zip(self.measures, map(float, values))), "support": support}

        def average_row(values: Sequence[float]) -> dict[str, Any]:
            counts = {measure: value.n_defined for measure, value in zip(self.measures, values) if isinstance(value, Averaged)}
            sizes = [value.n_values for value in values if isinstance(value, Averaged)]
            return {**row(values, self.total), "n_defined": counts, "n_values": sizes[0] if sizes else None}

        document: dict[str, Any] = {
            "classes": {label: row(self.per_class[label], self.support[label]) for label in self.labels},
            "averages": {name: average_row(values) for name, values in self.averages.items()},
            "summary": dict(self.summary),
        }
        if self.calibration:
            document["calibration"] = {"title": self.calibration_title, **self.calibration}
        notes = self.all_notes()
        if notes:
            document["notes"] = notes
        if self.intervals:
            first = next(found for row in self.intervals.values() for found in row if found is not None)
            document["intervals"] = {
                "level": first.level,
                "method": first.method,
                "rows": {name: {measure: None if found is None else [found.low, found.high] for measure, found in zip(self._row_measures(name), row)}
                         for name, row in self.intervals.items()},
            }  # fmt: skip
        return json_safe(document) if strict else document

    def _row_measures(self, name: str) -> list[str]:
        return list(self.measures) if name in self.averages else [name]

    def interval_rows(self, digits: int = 3, *, summary: bool = False) -> list[tuple[str, list[str]]]:
        """The intervals as ``(row name, ["[low, high]" per measure])`` for the average rows, or
        (``summary=True``) ``(summary name, ["[low, high]"])`` for the whole-result measures;
        ``n/a`` where the data give none."""

        def bounds(found: Interval | None) -> str:
            return "n/a" if found is None or math.isnan(found.low) else f"[{shown(found.low, digits)}, {shown(found.high, digits)}]"

        return [(self.summary_title(name), [bounds(found) for found in row]) for name, row in self.intervals.items()
                if (name in self.averages) != summary]  # fmt: skip

    def interval_title(self) -> str:
        """``95% confidence intervals (bca bootstrap)``, or ``""`` without intervals."""
        found = [value for row in self.intervals.values() for value in row if value is not None]
        if not found:
            return ""
        method = found[0].method
        return f"{found[0].level:.0%} confidence intervals ({method}{' bootstrap' if method in ('bca', 'percentile', 'normal') else ''})"

    def as_tables(self, digits: int = 3, *, most_classes: int | None = SHOWN_MATRIX) -> list[Table]:
        """The classes and the averages (the notes under them), the whole-result measures with
        their intervals, the calibration, the intervals of the averages, and the confusion
        matrix (rows actual) of up to ``most_classes`` classes (``None``: any number) when the
        report holds one."""
        rows: list[list[str]] = [[label_text(label), *(self.cell(v, k, digits) for k, v in enumerate(self.per_class[label])), count_text(self.support[label], digits)]
                                 for label in self.labels]  # fmt: skip
        rows += [[], *([name, *(self.average_cell(name, k, digits) for k in range(len(values))), count_text(self.total, digits)] for name, values in self.averages.items())]
        notes = self.all_notes()
        tables = [Table(["class", *self.titles(), "support"], rows, notes=notes, role="metrics")]
        if self.summary:
            bounds = dict(self.interval_rows(digits, summary=True))
            tables.append(Table(["measure", "value", *(["interval"] if bounds else [])],
                                ([self.summary_title(name), shown(value, digits), *([bounds.get(self.summary_title(name), ["n/a"])[0]] if bounds else [])]
                                 for name, value in self.summary.items()), role="summary"))  # fmt: skip
        if self.calibration:
            tables.append(Table([self.calibration_title, "value"], ([self.calibration_name(name), shown(value, digits)] for name, value in self.calibration.items()),
                                role="calibration"))  # fmt: skip
        averages = self.interval_rows(digits)
        if averages:
            tables.append(Table(["", *self.titles()], ([name, *cells] for name, cells in averages), title=self.interval_title(), role="intervals"))
        if self.confusion is not None:
            labels = self.confusion.labels
            if most_classes is None or len(labels) <= most_classes:
                tables.append(counts_table(labels, self.confusion.to_array()))
            else:
                tables[0] = attrs.evolve(tables[0], notes=(*notes, f"the confusion matrix of the {len(labels)} classes is in the JSON and HTML reports"))
        return tables

    def _page_tables(self, digits: int) -> list[Table]:
        """The tables of the HTML page: the confusion matrix of any number of classes."""
        return self.as_tables(digits, most_classes=None)

    def _figures(self, digits: int, *, curve: ThresholdCurve | None = None) -> list[str]:
        """Given a ``ThresholdCurve`` of the same data, its ROC and precision-recall curves; the
        reliability diagram of the calibration."""
        from evalkit.io._html import (  # rendering only: not needed by the other formats
            curves_figure,
            reliability_figure,
        )

        figures = [] if curve is None else ["<h2>Scores: ROC and precision-recall</h2>" + curves_figure(curve)]
        return [*figures, reliability_figure(self.reliability, self.calibration_title)] if self.calibration else figures

    def csv_table(self) -> Table:
        """Rows ``name, kind, <measures>, support, value`` (full precision; empty = undefined;
        integer supports as integers)."""
        blank = [None] * len(self.measures)
        rows: list[list[Any]] = [[label, "class", *map(float, self.per_class[label]), count_text(self.support[label]), None] for label in self.labels]
        rows += [[name, "average", *map(float, values), count_text(self.total), None] for name, values in self.averages.items()]
        rows += [[name, "summary", *blank, None, float(value)] for name, value in self.summary.items()]
        rows += [[name, "calibration", *blank, None, float(value)] for name, value in self.calibration.items()]
        for name, row in self.intervals.items():
            for side in ("low", "high"):
                bounds = [None if found is None else getattr(found, side) for found in row]
                rows.append([name, f"interval {side}", *bounds, None, None] if name in self.averages else [name, f"interval {side}", *blank, None, bounds[0]])
        return Table(["name", "kind", *self.measures, "support", "value"], rows)

    def to_json(self) -> str:
        """The dict as strict JSON (labels as strings, undefined values as null, infinities as
        ``"Infinity"``; ``serialization.restore_numbers`` reads them back)."""
        return json.dumps(self.to_dict(strict=True), indent=2, allow_nan=False)

    def to_flat_dict(self) -> dict[str, float]:
        """Every number under a stable flat key, for experiment trackers: MLflow's
        ``log_metrics`` and W&B's ``log`` take the dict as it is.

        Keys: ``<measure>/<average>`` (``f1_score/macro``), ``<measure>/<average>/ci_low`` and
        ``/ci_high`` with intervals, ``<measure>/class/<label>`` and ``support/class/<label>``
        per class, and the summary by name (``accuracy``, ``cohen_kappa``, ...). Labels keep
        letters, digits, ``_ - .`` and spaces; anything else becomes ``_`` (MLflow refuses
        other characters, ``=`` among them).

        Raises:
            InvalidArgumentError: two labels that become the same key.

        Examples:
            >>> from evalkit import ConfusionMatrix
            >>> flat = build_report(ConfusionMatrix.from_array([[5, 1], [2, 4]], ["cat", "dog"])).to_flat_dict()
            >>> flat["f1_score/macro"], flat["precision/class/dog"], flat["support/class/cat"]
            (0.7482517482517483, 0.8, 6)
        """
        keys = {label: _key_part(label) for label in self.labels}
        if len(set(keys.values())) < len(keys):
            clash = next(label for label in self.labels if list(keys.values()).count(keys[label]) > 1)
            raise InvalidArgumentError(f"two labels become the key part {keys[clash]!r} (one is {clash!r}): rename them for a tracker")
        flat: dict[str, Any] = {}
        for label in self.labels:
            flat.update({f"{measure}/class/{keys[label]}": value for measure, value in zip(self.measures, self.per_class[label])})
            flat[f"support/class/{keys[label]}"] = self.support[label]
        for row, values in self.averages.items():
            kind = row.removesuffix(" avg")
            flat.update({f"{measure}/{kind}": float(value) for measure, value in zip(self.measures, values)})
        flat.update({name: float(value) for name, value in self.summary.items()})
        flat.update({f"calibration/{name}": float(value) for name, value in self.calibration.items()})
        for row, found in self.intervals.items():
            kind = row.removesuffix(" avg")
            for measure, interval in zip(self._row_measures(row), found):
                if interval is not None:
                    prefix = f"{measure}/{kind}" if row in self.averages else row
                    flat[f"{prefix}/ci_low"], flat[f"{prefix}/ci_high"] = interval.low, interval.high
        return flat

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


@renders("report")
def build_report(
    source: CellsResult, *, measures: Sequence[MeasureLike] = DEFAULT_MEASURES, undefined: UndefinedPolicy = "exclude", metrics_class: type[Any] | None = None,
    confidence: float | None = None, interval_method: str = "bca", n_resamples: int = 2000, random_state: RandomState = 0,
    sort_by: MeasureLike | None = None, curve: ThresholdCurve | None = None, calibration: Calibration | None = None, kinds: PairsKept | None = None,
    samples: Mapping[tuple[int, int, int], int] | None = None,
) -> Report:
    """Gather the numbers of a report from a ConfusionMatrix or an Evaluation.

    Averages follow ``undefined`` (see ``evalkit.measures._averaging``); multi-label, soft and
    hierarchical evaluations get a ``samples avg`` row too. The summary holds the
    whole-result measures the data support: accuracy, Cohen's kappa and MCC for single-label
    data, exact-match accuracy and Hamming loss for multi-label data, and the coverage of a
    selective rejection.

    Args:
        source: a ``ConfusionMatrix`` or an ``Evaluation``.
        measures: the columns: measure names in any spelling (``"f1"``, ``"F1Score"``),
            getters of the metrics class, ``Measure`` objects; the counts
            ``"true_positive"`` (``"tp"``), ``"false_positive"``, ``"false_negative"``,
            ``"true_negative"`` (``"support"`` is always the last column); and, given
            ``curve``, the areas ``"roc_auc"`` and ``"average_precision"`` of each class's
            scores.
        undefined: the undefined-value policy of the averages.
        metrics_class: a ``ClassificationMetrics`` subclass to look names up in, instead of
            the source's own.
        confidence: a level such as 0.95 to add confidence intervals of the averages and of
            the summary measures (see ``evalkit._results.intervals``); ``None`` for none.
        interval_method: ``"bca"`` or ``"percentile"`` (the bootstrap).
        n_resamples: bootstrap resamples.
        random_state: the seed (fixed by default: the same data, the same report).
        sort_by: a column or any other measure: the classes from best to worst by its
            direction (highest first, or lowest first for a loss; undefined values last;
            ties in label order). ``None`` keeps the label order.
        curve: a ``ThresholdCurve`` of the same data's scores (one column per class, or a
            binary curve), for the area columns.
        kinds: the kinds of sample of a result that does not keep its samples' per-class cells
            (``LabelSetCounts(keep_pairs=True)``): the intervals of macro and weighted
            averages of multi-label data resample them.
        samples: how many samples (rows) of each kind ``(|Y∩Z|, |Y|, |Z|)`` a compacted
            multi-label result stands for, whose per-sample cells hold one row per kind: the
            ``samples avg`` row then counts its defined values in samples, not in kinds.
        calibration: a ``Calibration`` of the same data's probabilities: its summary (ECE,
            MCE, RMSCE, the debiased RMSCE, the Brier score and its parts, log loss,
            Spiegelhalter's p-value) in a section of its own, and its reliability diagram in
            the HTML page.

    Raises:
        InvalidArgumentError: ``sort_by`` names a measure without a direction (prevalence);
            an area column without ``curve``.
        LabelMismatchError: a curve of other classes.

    Examples:
        >>> from evalkit import ConfusionMatrix, ThresholdCurve
        >>> y, scores = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
        >>> cm = ConfusionMatrix.from_predictions(y, [int(s >= 0.5) for s in scores])
        >>> report = build_report(cm, measures=["tp", "recall", "roc_auc"], curve=ThresholdCurve.from_scores(y, scores))
        >>> report.per_class[1], report.averages["weighted avg"][2]
        ([1.0, 0.5, 0.75], 0.75)
    """
    if not isinstance(source, CellsResult):
        raise InvalidTypeError(f"a report needs a ConfusionMatrix or an Evaluation, got {show(source)}")
    if isinstance(measures, (str, bytes)) or not isinstance(measures, Iterable):
        raise InvalidTypeError(f"'measures' must be a list of measure names, got {show(measures)}")
    columns = _columns(source, list(measures), metrics_class, curve, undefined)
    if not columns:
        raise InvalidArgumentError("'measures' is empty")
    positions = {label: k for k, label in enumerate(source.labels)}
    labels = tuple(source.labels) if sort_by is None else _sorted_labels(source, sort_by, metrics_class, curve, undefined)
    per_class = {label: [float(column.per_class[positions[label]]) for column in columns] for label in labels}
    support_row = source.class_cells.support
    support = {label: support_row[positions[label] : positions[label] + 1].tolist()[0] for label in labels}
    averages = {f"{kind} avg": [column.averages[kind] for column in columns] for kind in source.report_averages()}
    if samples is not None and "samples avg" in averages:
        averages["samples avg"] = [_in_samples(source, column.measure, value, samples) for column, value in zip(columns, averages["samples avg"])]
    total = sum(support.values())
    confusion = _small_confusion(source) if len(labels) <= MATRIX_LIMIT and "samples" not in source.report_averages() else None
    summary = source.whole_measures()
    intervals = {}
    if confidence is not None:
        options = {"level": confidence, "method": interval_method, "n_resamples": n_resamples, "random_state": random_state, "undefined": undefined}
        for kind in source.report_averages():
            intervals[f"{kind} avg"] = [(_interval_or_none(source, column.measure, kind, options) or _kinds_interval(kinds, column.measure, kind, options))
                                        if column.measure and not column.count
                                        else _area_interval_or_none(curve, column.name, kind, options) if column.name in AREAS else None
                                        for column in columns]  # fmt: skip
        for name in summary:  # measures of the whole result: evalkit's own, whatever the metrics class
            intervals[name] = [_summary_interval(source, name, options)]
    found = _calibration_section(calibration)
    notes = []
    if intervals:  # say why a column has no interval, where the table would only read n/a
        for k, column in enumerate(columns):
            if column.count or any(row[k] is not None for name, row in intervals.items() if name in (f"{kind} avg" for kind in source.report_averages())):
                continue
            why = ("the curves of several score columns keep each class's scores apart, not the samples: ThresholdCurve.interval gives "
                   "one class's" if column.name in AREAS else "the result keeps no per-sample cells of the classes")  # fmt: skip
            notes.append(f"n/a: no interval of {column.header} ({why})")
    return Report(tuple(column.name for column in columns), labels, per_class, support, averages, total, summary, confusion,
                  tuple(column.header for column in columns), check_undefined(undefined), intervals,
                  tuple(column.name for column in columns if column.count), *found,
                  {column.name: column.undefined_reasons for column in columns if column.undefined_reasons},
                  tuple(f"{' and '.join(map(repr, column.also))} are one measure ({column.name}): one column" for column in columns
                        if len(column.also) > 1) + tuple(notes))  # fmt: skip


def _in_samples(source: CellsResult, measure: Measure | None, value: Averaged, samples: Mapping[tuple[int, int, int], int]) -> Averaged:
    """A samples average whose per-sample cells are one row per kind of sample, with its
    defined values counted in samples (``samples``: how many of each kind)."""
    if measure is None:  # an area: no per-sample value
        return value
    cells = source.sample_cells
    defined = ~np.isnan(np.asarray(cells.evaluate_rows(measure), dtype=np.float64))
    counts = np.array([samples.get(kind, 0) for kind in zip(cells.tp.tolist(), (cells.tp + cells.fn).tolist(), (cells.tp + cells.fp).tolist())],
                      dtype=np.int64)  # fmt: skip
    return Averaged(float(value), n_values=sum(samples.values()), n_defined=int(counts[np.broadcast_to(defined, counts.shape)].sum()))


def _calibration_section(calibration: Calibration | None) -> tuple[dict, str, Reliability | None]:
    """The calibration numbers, their title and the reliability diagram's points of a report."""
    if calibration is None:
        return {}, "", None
    if not callable(getattr(calibration, "report_section", None)):
        raise InvalidTypeError(f"'calibration' must be a Calibration (Calibration.from_scores(...)), got {show(calibration)}")
    return calibration.report_section()


def _sorted_labels(source: CellsResult, sort_by: MeasureLike, metrics_class: type[Any] | None, curve: ThresholdCurve | None, undefined: UndefinedPolicy) -> tuple:
    """The labels from the best class to the worst by a column's direction, undefined last (by
    ``"support"``, the last column: the most samples first)."""
    if isinstance(sort_by, str) and sort_by == "support":
        values, direction = np.asarray(source.class_cells.support, dtype=np.float64), "higher"
    else:
        found = _columns(source, [sort_by], metrics_class, curve, undefined)
        if not found:
            raise InvalidArgumentError(f"sort_by={sort_by!r} names no column of the report")
        if found[0].direction not in ("higher", "lower"):
            raise InvalidArgumentError(f"sort_by={found[0].name!r}: the measure has no direction (neither higher nor lower is better)")
        values, direction = found[0].per_class, found[0].direction
    keys = np.where(np.isnan(values), np.inf, -values if direction == "higher" else values)
    return tuple(source.labels[k] for k in np.argsort(keys, kind="stable"))


def _interval_or_none(source: CellsResult, measure: Measure, average: str | None, options: dict[str, Any]) -> Interval | None:
    """The interval of one report cell, or None where the data give none (a per-class average of
    multi-label data, a measure with no whole-result interval)."""
    try:
        return source.interval(measure, average, **options)
    except (UnsupportedSettingError, InvalidArgumentError):
        return None


def _kinds_interval(kinds: PairsKept | None, measure: Measure, average: str, options: dict[str, Any]) -> Interval | None:
    """The interval of a per-class average from the kinds of sample kept beside a result that
    lacks them (``LabelSetCounts(keep_pairs=True)``), or None."""
    if kinds is None or average not in ("micro", "macro", "weighted"):
        return None
    try:
        return kinds.interval(measure, average, **options)
    except (UnsupportedSettingError, InvalidArgumentError, InvalidCountsError):
        return None


def _summary_interval(source: CellsResult, name: str, options: dict[str, Any]) -> Interval | None:
    """The interval of a whole-result measure: of single-label data by the pairs' bootstrap; of
    per-sample data (multi-label), exact-match accuracy from the samples' rows (the share with
    no error) and the Hamming loss as the micro error rate; None where none is defined."""
    pairs = _interval_or_none(source, get_measure(name), None, options) if name in MEASURES else None
    if pairs is not None or "samples" not in source.report_averages():
        return pairs
    if name == "hamming_loss":
        return _interval_or_none(source, get_measure("error_rate"), "micro", options)
    if name == "accuracy":
        rows = source.sample_cells
        exact = ((np.asarray(rows.fp) == 0) & (np.asarray(rows.fn) == 0)).astype(np.float64)
        try:
            return ratio_interval(exact, np.ones(len(exact)), rows.row_weights(), float(source.whole_measures()["accuracy"]), level=options["level"],
                                  method=options["method"], n_resamples=options["n_resamples"], random_state=options["random_state"])  # fmt: skip
        except (UnsupportedSettingError, InvalidArgumentError, InvalidCountsError):
            return None
    return None


def _area_interval_or_none(curve: ThresholdCurve | None, name: str, average: str, options: dict[str, Any]) -> Interval | None:
    """The interval of an area's average: from a binary curve's (score, class) pairs, which
    give both classes and their pooled curve in every resample; None for the curves of several
    score columns, which keep each class's scores apart (no resample of whole samples)."""
    if curve is None or average not in ("macro", "weighted", "micro") or len(curve.labels) != 1 or curve.binned:
        return None
    return curve.binary_interval(name, average, level=options["level"], method=options["method"], n_resamples=options["n_resamples"],
                                 random_state=options["random_state"], undefined=options["undefined"])  # fmt: skip


def _small_confusion(source: CellsResult) -> ConfusionMatrix | None:
    """The confusion matrix, when the result has one (one-vs-rest cells at a threshold do not)."""
    try:
        return source.confusion_matrix()
    except UnsupportedSettingError:
        return None


def classification_report(
    source: CellsResult,
    *,
    measures: Sequence[str] = DEFAULT_MEASURES,
    digits: int = 3,
    undefined: UndefinedPolicy = "exclude",
    format: str = "text",
    metrics_class: type[Any] | None = None,
    sort_by: MeasureLike | None = None,
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


# --------------------------------------------------------------------------------------------
# by group


@attrs.frozen
class GroupReport(Tabular):
    """The by-group table of a ``ByGroup``: a row per group and the overall one.

    Attributes:
        measures: the measure names of the columns.
        average: the average of each measure (whole-result measures have none).
        groups: the group keys, then ``OVERALL`` (the whole).
        values: ``{group: [value per measure]}``.
        support: ``{group: support}``.
        small: the groups below the ``min_size`` of the ``ByGroup``.
        intervals: ``{group: [Interval per measure]}`` when built with ``confidence``.
        names: the group columns' names.
        label: the class whose values the label measures' columns show (the positive class
            of binary data), or None: their ``average``.
        per_class: the columns of label measures (an average, or the class's value).
    """

    measures: tuple[str, ...]
    average: str
    groups: tuple
    values: dict
    support: dict
    small: tuple = ()
    intervals: dict = attrs.field(factory=dict)
    names: tuple = ("group",)
    headers: tuple = ()
    disparities: dict = attrs.field(factory=dict)  # measure: (difference, ratio) between the groups
    label: Hashable | None = None
    per_class: tuple[str, ...] = ()

    def basis(self) -> str:
        """What the label measures' columns are: ``macro averages`` or ``class 1``."""
        return f"{self.average} averages" if self.label is None else f"class {self.label}"

    def basis_note(self) -> str:
        """Which columns are label measures and of what (the average over the classes, or one class)."""
        shown = [title for title, name in zip(self.titles(), self.measures) if name in self.per_class]
        if not shown:
            return ""
        of = f"the {self.average} average over the classes" if self.label is None else f"of the class {self.label} alone"
        return f"{_listed(shown)}: {of}"

    def _notes(self) -> list[str]:
        """The notes below the table: what the columns are, and between which groups the disparities lie."""
        return [note for note in (self.basis_note(), self.disparity_note()) if note]

    def titles(self) -> list[str]:
        """The column titles the text, Markdown and HTML renderings show (``f1-score``, as a
        ``Report`` heads the measure); JSON and CSV use the measure names."""
        return list(self.headers) or [name.replace("_", " ") for name in self.measures]

    def _label(self, key: Hashable) -> str:
        """A row's name: the group's values joined by ``×``; the whole is ``overall`` (``overall
        (all samples)`` when a group is named ``overall``)."""
        if key is OVERALL:
            return "overall (all samples)" if any(self._label(group) == "overall" for group in self.groups if group is not OVERALL) else "overall"
        text = " × ".join(map(label_text, key)) if isinstance(key, tuple) else label_text(key)
        return f"{text} (small)" if key in self.small else text

    def _parts(self, key: Hashable) -> list[Any]:
        """A group's value in each group column (the whole: empty)."""
        if key is OVERALL:
            return [""] * len(self.names)
        return list(key) if isinstance(key, tuple) else [key]

    def _cells(self, key: Hashable, digits: int) -> list[str]:
        cells = [shown(value, digits) for value in self.values[key]]
        for k, found in enumerate(self.intervals.get(key, ())):
            if found is not None and not math.isnan(found.low):
                cells[k] += f" [{shown(found.low, digits)}, {shown(found.high, digits)}]"
        return cells

    def disparity_rows(self, digits: int = 3) -> list[tuple[str, list[str]]]:
        """``("difference", [...])`` and ``("ratio", [...])``: each column's largest minus
        smallest group value and smallest over largest (``undef`` without two defined groups)."""
        if not self.disparities:
            return []
        return [(which, [shown(self.disparities[name][k].value, digits) for name in self.measures]) for k, which in enumerate(("difference", "ratio"))]

    def disparity_note(self) -> str:
        """Which groups each column's difference lies between."""
        parts = []
        for title, name in zip(self.titles(), self.measures):
            extremes: tuple = self.disparities[name][0].extremes if name in self.disparities else ()
            if len(extremes) == 2 and extremes[0] is not extremes[1] and extremes[0] != extremes[1]:
                parts.append(f"{title} {self._label(extremes[0])} vs {self._label(extremes[1])}")
        return ("difference and ratio between the groups: " + "; ".join(parts)) if parts else ""

    def as_tables(self, digits: int = 3) -> list[Table]:
        """The table (intervals in brackets, small groups marked), the disparities of each
        column between the groups below it, the notes under it."""
        def row(key: Hashable) -> list[str]:
            return [self._label(key), *self._cells(key, digits), count_text(self.support[key], digits)]

        rows = [row(key) for key in self.groups if key is not OVERALL]
        rows += [[], *(row(key) for key in self.groups if key is OVERALL)]  # below the blank row: the whole, and how far apart the groups are
        rows += [[which, *cells, ""] for which, cells in self.disparity_rows(digits)]
        return [Table([" × ".join(self.names), *self.titles(), "support"], rows, notes=self._notes(), role="groups")]

    def csv_table(self) -> Table:
        """Rows ``row, <one column per group column>, <measures>, support, small, average,
        class``: ``row`` is ``group`` or ``overall`` (the whole, its group columns empty); full
        precision; with intervals, a ``low`` and ``high`` column after each measure; ``average``
        (``macro``) or ``class`` (``1``) says what the label measures' columns are. A group
        column named as another column (``accuracy``) is ``group accuracy``."""
        bounds = bool(self.intervals)
        measures: list[str] = []
        for name in self.measures:
            measures += [name, f"{name} low", f"{name} high"] if bounds else [name]
        others, names, groups = {"row", *measures, "support", "small", "average", "class"}, list(map(str, self.names)), []
        for name in names:
            final = name
            while final in others or final in groups or (final != name and final in names):  # (another column's name: "group NAME", as often as it takes)
                final = f"group {final}"
            groups.append(final)
        header = ["row", *groups, *measures]
        basis = ["", str(self.label)] if self.label is not None else [self.average, ""]
        rows: list[list[Any]] = []
        for key in self.groups:
            row: list[Any] = ["overall" if key is OVERALL else "group", *self._parts(key)]
            for k, value in enumerate(self.values[key]):
                row.append(float(value))
                if bounds:
                    found = self.intervals[key][k]
                    row += [None, None] if found is None or math.isnan(found.low) else [found.low, found.high]
            rows.append([*row, count_text(self.support[key]), "yes" if key in self.small else "", *basis])
        for k, which in enumerate(("difference", "ratio") if self.disparities else ()):
            row = [which, *[""] * len(self.names)]
            for name in self.measures:
                row += [float(self.disparities[name][k].value)] + ([None, None] if bounds else [])
            rows.append([*row, "", "", *basis])
        return Table([*header, "support", "small", "average", "class"], rows)

    def to_dict(self, *, strict: bool = False) -> dict[str, Any]:
        """``{"names": [...], "average": ..., "class": ..., "measures_of": {...}, "groups":
        [{"group": {column: value}, <measure>: value, ..., "support": ..., "small": ...}],
        "overall": {<measure>: value, ...}}``: each group's key as its values by group column
        (never a joined string); ``average`` (None with a ``class``) or ``class`` (None with an
        average) says what the label measures are, ``measures_of`` says it of each column."""
        def row(key: Hashable) -> dict[str, Any]:
            found: dict[str, Any] = dict(zip(self.measures, map(float, self.values[key])))
            if self.intervals:
                found["intervals"] = {m: None if i is None else [i.low, i.high] for m, i in zip(self.measures, self.intervals[key])}
            return {**found, "support": self.support[key], "small": key in self.small}

        groups = [{"group": dict(zip(self.names, self._parts(key))), **row(key)} for key in self.groups if key is not OVERALL]
        of = {name: (self.basis() if name in self.per_class else "the whole") for name in self.measures}
        document: dict[str, Any] = {"names": list(self.names), "average": None if self.label is not None else self.average, "class": self.label,
                                    "measures_of": of, "groups": groups, "overall": row(OVERALL)}  # fmt: skip
        if self.disparities:
            document["disparities"] = {name: {which: {"value": found.value, "between": [dict(zip(self.names, self._parts(key))) for key in found.extremes]}
                                              for which, found in zip(("difference", "ratio"), pair)} for name, pair in self.disparities.items()}  # fmt: skip
        return json_safe(document) if strict else document

    def to_json(self) -> str:
        """The dict as strict JSON."""
        return json.dumps(self.to_dict(strict=True), indent=2, allow_nan=False)

    HTML_TITLE = "evalkit report by group"

    def _figures(self, digits: int) -> list[str]:
        """A dot plot of each measure: each group's value and interval, the overall value as a line."""
        from evalkit.io._html import dot_plots  # rendering only

        small = ['<p class="note">(small): fewer samples than the size set; hollow dots in the plots.</p>'] if self.small else []
        return [*small, *dot_plots(self, digits)]


@renders("group_report")
def group_report(result: ByGroup, measures: list[MeasureLike], average: str = "macro", *, confidence: float | None = None, undefined: UndefinedPolicy = "exclude",
                 random_state: RandomState = 0, n_resamples: int = 2000, scored: Sequence[ByGroup] = (), sort_by: MeasureLike | None = None,
                 label: Hashable | None = None) -> GroupReport:  # fmt: skip
    """The by-group table of a ``ByGroup`` (see ``ByGroup.report``). A whole-result measure
    (accuracy, kappa, MCC) is read as such; any other as its ``average``, or as the value of
    the class ``label`` when given. ``scored``: results
    by group over the same groups whose measures are not the labels' (the areas of threshold
    curves, the calibration errors of probabilities): a column asked for by one of their names
    is read there. ``sort_by``: a column, the groups from best to worst by it. Below the groups,
    the disparity of each column between them (difference and ratio)."""
    names, columns, headers, sources, per_class = [], [], [], [], []
    for asked in measures:
        source = next((other for other in scored if _knows(other, asked)), result)
        whole = set(source.overall.whole_measures()) if hasattr(source.overall, "whole_measures") else set()
        name = source._name(asked)
        resolved = source.overall.measure(asked) if isinstance(source.overall, CellsResult) else None
        kind = None if name in whole or resolved is None else average  # an area, a calibration measure or a whole-result one: no average
        own = None if kind is None else label
        if kind is not None:
            per_class.append(name)
        kind = None if own is not None else kind
        names.append(name)
        headers.append(_header(resolved, asked) if resolved is not None else AREAS.get(name) or _calibration_title(name))
        columns.append(source.values(asked, kind, label=own, undefined=undefined))
        sources.append((source, kind, resolved, own))
    keys = list(result.keys)
    if sort_by is not None:
        sort_name = next((source._name(sort_by) for source in (*scored, result) if _knows(source, sort_by)), None)
        k = names.index(sort_name) if sort_name in names else None
        if k is None:
            raise InvalidArgumentError(f"sort_by={sort_by!r} is not a column of the report ({', '.join(names)})")
        lower = _is_loss(names[k], sources[k][2])
        keys.sort(key=lambda key: (math.isnan(columns[k][key]), columns[k][key] if lower else -columns[k][key]))
    groups = (*keys, OVERALL)
    values = {key: [column[key] for column in columns] for key in groups}
    support = {**result.support(), OVERALL: getattr(result.overall, "n_samples", None) or result.overall.get_total_items()}
    found: dict = {}
    if confidence is not None:
        for key in groups:
            found[key] = []
            for name, (source, kind, _, own_label) in zip(names, sources):
                own = source.overall if key is OVERALL else source[key]
                found[key].append(_interval_or_none(own, own.measure(name), kind, {"level": confidence, "method": "bca", "n_resamples": n_resamples,
                                  "random_state": random_state, "undefined": undefined, "label": own_label}) if isinstance(own, CellsResult) else None)  # fmt: skip
    disparities = {name: (source.difference(name, kind, label=own, undefined=undefined), source.ratio(name, kind, label=own, undefined=undefined))
                   for name, (source, kind, _, own) in zip(names, sources)} if len(result.keys) > 1 else {}  # fmt: skip
    return GroupReport(tuple(names), average, groups, values, support, result.small(), found, tuple(result.names), tuple(headers), disparities,
                       label if per_class else None, tuple(per_class))  # fmt: skip


def _knows(result: ByGroup, asked: MeasureLike) -> bool:
    """Whether a result by group has the measure ``asked`` (an area of curves, a calibration measure)."""
    try:
        result._name(asked)
    except EvalkitError:
        return False
    return True


def _calibration_title(name: str) -> str:
    """A calibration measure's name as every rendering shows it (``ece``, ``debiased msce``)."""
    return _CALIBRATION_TITLES.get(name, name.replace("_", " "))


def _is_loss(name: str, measure: Measure | None) -> bool:
    """Whether lower is better: a measure's direction, or a calibration error (every one but resolution)."""
    if measure is not None:
        return measure.direction == "lower"
    return name in _CALIBRATION_TITLES and name != "resolution"


if not TYPE_CHECKING:  # the names this module gave in evalkit 0.1.0 and lost, found with a warning
    __getattr__ = moved_names.finder(__name__)
