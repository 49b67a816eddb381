"""A report as one self-contained HTML page: no network, no script, pictures inline as SVG.

The page holds the per-class table with the averages and the summary, the confusion matrix as
a heat map (each row shaded by its share of the actual class), and, given a
``ThresholdCurve``, its ROC and precision-recall curves with their areas. The charts are drawn
here as plain SVG (no plotting library needed), so ``Report.to_html`` works on a bare install.

Examples:
    >>> from evalkit import ConfusionMatrix
    >>> from evalkit.io._report import build_report
    >>> page = build_report(ConfusionMatrix.from_predictions(list("aabbb"), list("abbbb"))).to_html()
    >>> page.startswith("<!DOCTYPE html>"), "<table" in page, "http" in page
    (True, True, False)
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from evalkit._engine import moved_names
from evalkit._engine._labels import OVERALL, label_text
from evalkit._java.regression_metrics import RegressionMetrics
from evalkit._results.rendering import renders
from evalkit._results.table import UNDEFINED, Table, Tabular, counts_table

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from evalkit._results.confusion_matrix import ConfusionMatrix
    from evalkit._scores.calibration import Reliability
    from evalkit._scores.curves import ThresholdCurve
    from evalkit.comparisons._comparison import ModelComparison

__all__ = ["axis_ticks", "critical_difference_figure", "curves_figure", "dot_plots", "fragment", "matrix_fragment", "nice_ticks", "page", "regression_page",
           "reliability_figure", "round_span", "scatter_svg", "svg_chart", "table_fragment", "time_ticks"]

_STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 2rem auto; max-width: 64rem;
       color: #1b1f24; padding: 0 1rem; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.15rem; margin-top: 2rem; }
table { border-collapse: collapse; margin: 0.75rem 0 1.5rem; font-variant-numeric: tabular-nums; }
th, td { padding: 0.25rem 0.6rem; text-align: right; border-bottom: 1px solid #d0d7de; }
th:first-child, td:first-child { text-align: left; }
tbody th { font-weight: normal; }
tr.average td, tr.average th { background: #f6f8fa; font-weight: 600; }
td.undefined { color: #8c959f; }
table.heatmap td { border: 1px solid #ffffff; min-width: 2.5rem; text-align: center; }
table.heatmap th { font-weight: 500; }
caption { caption-side: bottom; text-align: left; font-size: 0.85rem; color: #57606a; padding-top: 0.3rem; }
.charts { display: flex; flex-wrap: wrap; gap: 1.5rem; }
.charts.small { gap: 0.75rem; } .charts.small figcaption { font-size: 0.8rem; }
figure { margin: 0; } figcaption { font-size: 0.9rem; color: #57606a; }
p.note { color: #57606a; font-size: 0.9rem; }
"""

_COLOURS = ("#0969da", "#cf222e", "#1a7f37", "#8250df", "#bf8700", "#1b7c83", "#a40e26", "#57606a")
_MOST_POINTS = 2000  # points per drawn curve: enough for the eye, a small page for a million scores


@renders("page")
def page(title: str, sections: Sequence[str]) -> str:
    """A self-contained HTML page of ``sections`` (HTML fragments) under ``title``: no script, no link."""
    body = "\n".join(sections)
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n{body}\n</body>\n</html>\n"
    )


def _number(value: float, digits: int) -> str:
    value = float(value)
    return "undef" if math.isnan(value) else f"{value:.{digits}f}"


def _td(text: str) -> str:
    """A table cell of a formatted number (an undefined one marked as such)."""
    return f'<td class="undefined">{text}</td>' if text == "undef" else f"<td>{html.escape(text)}</td>"


def _thinned(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    keep = np.isfinite(x) & np.isfinite(y)
    x, y = x[keep], y[keep]
    if len(x) > _MOST_POINTS:
        chosen = np.unique(np.linspace(0, len(x) - 1, _MOST_POINTS).round().astype(int))
        x, y = x[chosen], y[chosen]
    return x, y


def nice_step(low: float, high: float, most: int = 6) -> float:
    """The round step (1, 2 or 5 times a power of ten) of at most ``most`` ticks over ``[low, high]``."""
    raw = (high - low) / max(most - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    return next(factor * power for factor in (1, 2, 5, 10) if factor * power >= raw)


def nice_ticks(low: float, high: float, most: int = 6) -> list[float]:
    """Round tick values (steps of 1, 2 or 5 times a power of ten) covering ``[low, high]``.

    Examples:
        >>> nice_ticks(0.927, 0.963)
        [0.93, 0.94, 0.95, 0.96]
        >>> nice_ticks(0.0, 1.0)
        [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    """
    if not (math.isfinite(low) and math.isfinite(high)) or high <= low:
        return [low] if math.isfinite(low) else []
    return _multiples(low, high, nice_step(low, high, most))


def _multiples(low: float, high: float, step: float) -> list[float]:
    """The multiples of ``step`` within ``[low, high]``."""
    return [round(float(k * step), 12) for k in range(math.ceil(low / step - 1e-9), math.floor(high / step + 1e-9) + 1)]


def axis_ticks(low: float, high: float, most: int = 5, digits: int | None = None) -> list[tuple[float, str]]:
    """Round ticks within ``[low, high]`` and their labels, all in one format: the decimals the
    step needs (``digits`` when given, the step then no finer than ``10**-digits``), thousands
    grouped.

    Examples:
        >>> axis_ticks(5750, 20500)
        [(10000.0, '10,000'), (15000.0, '15,000'), (20000.0, '20,000')]
        >>> axis_ticks(0.0, 0.3, digits=3)
        [(0.0, '0.000'), (0.1, '0.100'), (0.2, '0.200'), (0.3, '0.300')]
    """
    if not (math.isfinite(low) and math.isfinite(high)) or high <= low:
        return [(low, f"{low:,.{digits or 0}f}")] if math.isfinite(low) else []
    step = _step(low, high, most, digits)
    decimals = max(0, -math.floor(math.log10(step) + 1e-9)) if digits is None else digits
    return [(tick, f"{tick:,.{decimals}f}") for tick in _multiples(low, high, step)]


def _step(low: float, high: float, most: int, digits: int | None) -> float:
    """The round step of an axis, no finer than ``10**-digits`` when given."""
    step = nice_step(low, high, most)
    return step if digits is None else max(step, 10.0**-digits)


def round_span(low: float, high: float, most: int = 5, digits: int | None = None) -> tuple[float, float]:
    """``[low, high]`` widened to multiples of its axis's round step (``axis_ticks``), so that
    ticks stand at both ends.

    Examples:
        >>> round_span(0.0, 0.137), round_span(0.0, 0.0123, digits=1)
        ((0.0, 0.15), (0.0, 0.1))
    """
    if not (math.isfinite(low) and math.isfinite(high)) or high <= low:
        return (0.0, 1.0)
    step = _step(low, high, most, digits)
    return (round(math.floor(low / step + 1e-9) * step, 12), round(math.ceil(high / step - 1e-9) * step, 12))


_TIME_STEPS = (60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86_400, 2 * 86_400, 7 * 86_400, 14 * 86_400, 28 * 86_400)
"""Round steps between the ticks of a time axis, in seconds: minutes to four weeks."""


def time_ticks(low: float, high: float, most: int = 4) -> list[tuple[float, str]]:
    """Ticks of a time axis (seconds since 1970, UTC) at round steps within ``[low, high]``,
    labelled as dates, with the time of day when the step is under a day.

    Examples:
        >>> time_ticks(1709251200.0, 1709337600.0)
        [(1709251200, '03-01 00:00'), (1709294400, '03-01 12:00'), (1709337600, '03-02 00:00')]
    """
    import datetime

    span = max(high - low, 0.0)
    step = next((step for step in _TIME_STEPS if step * (most - 1) >= span), None) or 86_400 * math.ceil(nice_step(0.0, span / 86_400, most))
    found = range(math.ceil(low / step), math.floor(high / step) + 1)
    shape = "%m-%d %H:%M" if step < 86_400 else "%Y-%m-%d"
    return [(k * step, datetime.datetime.fromtimestamp(k * step, datetime.timezone.utc).strftime(shape)) for k in found]


def svg_chart(series: Sequence[tuple[str, np.ndarray, np.ndarray]], *, x_label: str, y_label: str, diagonal: bool = False, steps: bool = False,
              markers: bool = False, histogram: tuple[np.ndarray, np.ndarray] | None = None, width: int = 380, legend: bool = True,
              x_span: tuple[float, float] | None = None, band: tuple[np.ndarray, np.ndarray] | None = None,
              x_ticks: Sequence[tuple[float, str]] | None = None, y_span: tuple[float, float] | None = None, digits: int | None = None,
              alarms: ArrayLike = (), level: float | None = None) -> str:  # fmt: skip
    """A line chart of ``(name, x, y)`` series on the unit square, as an SVG element, with its
    legend below the plot (never cut at its edge) (``markers``: a dot at every point;
    ``histogram``: ``(edges, counts)``, grey bars along the bottom with an axis of their own on
    the right, the tallest a quarter of the plot; ``x_span``: x runs from ``low`` to ``high``
    instead of 0 to 1, with round ticks in one format (``axis_ticks``) or ``x_ticks``
    (``(value, label)`` pairs: ``time_ticks``); ``y_span``: y likewise, its ticks with
    ``digits`` decimals; ``band``: ``(low, high)`` at the first series' x, shaded behind it:
    an interval; ``alarms``: x values drawn as red lines across the plot; ``level``: a y value
    drawn as a dashed line, a reference level). Values outside the spans are drawn at their
    edge; tick labels stay inside the chart.

    Examples:
        >>> svg_chart([("a", np.array([0.0, 1.0]), np.array([0.0, 1.0]))], x_label="x", y_label="y").startswith("<svg")
        True
    """
    right = 44 if histogram is not None else 14
    left, top, bottom = 52, 14, 46
    plot_w = width - left - right
    plot_h = plot_w - 36
    rows = len(series) if legend else 0
    height = top + plot_h + bottom + 16 * rows

    def px(value: float) -> float:
        return left + value * plot_w

    def py(value: float) -> float:
        return top + (1 - value) * plot_h

    def scale(span: tuple[float, float] | None) -> Callable[[ArrayLike], np.ndarray]:
        low, high = span if span is not None else (0.0, 1.0)
        return lambda values: (np.asarray(values, dtype=np.float64) - low) / (high - low) if high > low else np.full(np.shape(values), 0.5)

    unit, unit_y = scale(x_span), scale(y_span)
    unit_ticks = [(tick, f"{tick:g}") for tick in (0.0, 0.25, 0.5, 0.75, 1.0)]
    shown_x = unit_ticks if x_span is None else x_ticks if x_ticks is not None else axis_ticks(*x_span)
    shown_y = [(tick, f"{tick:.{digits}f}" if digits is not None else label) for tick, label in unit_ticks] if y_span is None else axis_ticks(*y_span, digits=digits)
    parts = [f'<svg width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img">']
    parts.append(f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="#ffffff" stroke="#8c959f"/>')
    for value, label in shown_x:
        at = px(float(unit(value)))
        half = 3.2 * len(label)  # about half the label's width at font size 11: kept inside the chart
        parts.append(f'<line x1="{at:.1f}" y1="{top}" x2="{at:.1f}" y2="{top + plot_h}" stroke="#eaeef2"/>')
        parts.append(f'<text x="{min(max(at, half + 1), width - half - 1):.1f}" y="{top + plot_h + 16}" font-size="11" text-anchor="middle">{label}</text>')
    for value, label in shown_y:
        at = py(float(unit_y(value)))
        parts.append(f'<line x1="{left}" y1="{at:.1f}" x2="{left + plot_w}" y2="{at:.1f}" stroke="#eaeef2"/>')
        parts.append(f'<text x="{left - 6}" y="{at + 4:.1f}" font-size="11" text-anchor="end">{label}</text>')
    if histogram is not None:
        edges, counts = (np.asarray(values, dtype=np.float64) for values in histogram)
        tallest = counts.max() if counts.size and counts.max() > 0 else 1.0
        for low, high, count in zip(edges[:-1], edges[1:], counts):
            bar = 0.25 * count / tallest
            parts.append(f'<rect x="{px(low):.1f}" y="{py(bar):.1f}" width="{max(px(high) - px(low) - 1, 0.5):.1f}" '
                         f'height="{py(0) - py(bar):.1f}" fill="#d0d7de"><title>{count:g} samples</title></rect>')  # fmt: skip
        for count in nice_ticks(0.0, float(tallest), 3):  # the bars' own axis: counts, on the right
            parts.append(f'<text x="{left + plot_w + 6}" y="{py(0.25 * count / tallest) + 4:.1f}" font-size="10" fill="#57606a">{count:g}</text>')
        parts.append(f'<text x="{left + plot_w + 30}" y="{py(0.125):.1f}" font-size="10" fill="#57606a" text-anchor="middle" '
                     f'transform="rotate(90 {left + plot_w + 30} {py(0.125):.1f})">samples</text>')  # fmt: skip
    if diagonal:
        parts.append(f'<line x1="{px(0)}" y1="{py(0)}" x2="{px(1)}" y2="{py(1)}" stroke="#8c959f" stroke-dasharray="4 4"/>')
    if level is not None:
        at = py(float(np.clip(unit_y(level), 0.0, 1.0)))
        parts.append(f'<line x1="{left}" y1="{at:.1f}" x2="{left + plot_w}" y2="{at:.1f}" stroke="#cf222e" stroke-dasharray="5 3"><title>reference {level:g}</title></line>')
    for alarm in np.clip(unit(np.asarray(alarms, dtype=np.float64)), 0.0, 1.0):
        parts.append(f'<line x1="{px(alarm):.1f}" y1="{top}" x2="{px(alarm):.1f}" y2="{top + plot_h}" stroke="#cf222e" stroke-opacity="0.6"><title>alarm</title></line>')
    if band is not None and series:
        x = unit(series[0][1])
        low, high = (np.clip(unit_y(bound), 0.0, 1.0) for bound in band)
        shown = ~(np.isnan(low) | np.isnan(high))
        outline = [*zip(x[shown], low[shown]), *reversed(list(zip(x[shown], high[shown])))]
        points = " ".join(f"{px(a):.1f},{py(b):.1f}" for a, b in outline)
        parts.append(f'<polygon points="{points}" fill="{_COLOURS[0]}" fill-opacity="0.18" stroke="none"><title>interval</title></polygon>')
    for k, (name, x, y) in enumerate(series):
        x, y = _thinned(unit(x), np.clip(unit_y(y), 0.0, 1.0))
        if steps and len(x) > 1:  # hold each value until the next point (a step curve)
            x, y = np.repeat(x, 2)[1:], np.repeat(y, 2)[:-1]
        points = " ".join(f"{px(a):.1f},{py(b):.1f}" for a, b in zip(x, y))
        colour = _COLOURS[k % len(_COLOURS)]
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.8" points="{points}"><title>{html.escape(name)}</title></polyline>')
        if markers:
            parts += [f'<circle cx="{px(a):.1f}" cy="{py(b):.1f}" r="3" fill="{colour}"/>' for a, b in zip(x, y)]
        if legend:
            legend_y = top + plot_h + bottom + 16 * k + 4
            parts.append(f'<line x1="{left}" y1="{legend_y - 4}" x2="{left + 18}" y2="{legend_y - 4}" stroke="{colour}" stroke-width="2"/>')
            parts.append(f'<text x="{left + 24}" y="{legend_y}" font-size="11">{html.escape(name)}</text>')
    parts.append(f'<text x="{left + plot_w / 2}" y="{top + plot_h + 36}" font-size="12" text-anchor="middle">{html.escape(x_label)}</text>')
    parts.append(
        f'<text x="14" y="{top + plot_h / 2}" font-size="12" text-anchor="middle" transform="rotate(-90 14 {top + plot_h / 2})">{html.escape(y_label)}</text>'
    )
    parts.append("</svg>")
    return "".join(parts)


_MOST_PANELS = 60
"""The most classes a page draws a small ROC and precision-recall chart of (beyond: the first ones, and a note)."""


def curves_figure(curve: ThresholdCurve) -> str:
    """The ROC and precision-recall curves: every class in one chart when they are few; with
    more, the micro average in one chart and every class in a small chart of its own (small
    multiples)."""
    labels = list(curve.labels)  # a binary curve: the positive class's alone (the negative's is its mirror image)
    few = len(labels) <= len(_COLOURS)
    drawn = [(label_text(label), curve, label) for label in labels] if few else [("micro average", curve.micro(), None)]
    roc, pr = [], []
    for name, source, label in drawn:
        fpr, tpr, _ = source.roc(label)
        precision, recall, _ = source.precision_recall(label)
        roc.append((f"{name}: AUC {_number(source.roc_auc(label), 3)}", fpr, tpr))
        pr.append((f"{name}: AP {_number(source.average_precision(label), 3)}", recall, precision))
    charts = (
        '<div class="charts">'
        f'<figure>{svg_chart(roc, x_label="false positive rate", y_label="true positive rate", diagonal=True)}'
        "<figcaption>ROC curve</figcaption></figure>"
        f'<figure>{svg_chart(pr, x_label="recall", y_label="precision", steps=True)}'
        "<figcaption>Precision-recall curve (average precision: the step-wise area)</figcaption></figure>"
        "</div>"
    )
    if few:
        return charts
    panels = []
    for label in labels[:_MOST_PANELS]:
        fpr, tpr, _ = curve.roc(label)
        precision, recall, _ = curve.precision_recall(label)
        pair = (svg_chart([("ROC", fpr, tpr)], x_label="fpr", y_label="tpr", diagonal=True, width=200, legend=False)
                + svg_chart([("PR", recall, precision)], x_label="recall", y_label="precision", steps=True, width=200, legend=False))  # fmt: skip
        panels.append(f"<figure>{pair}<figcaption>{html.escape(label_text(label))}: AUC {_number(curve.roc_auc(label), 3)}, "
                      f"AP {_number(curve.average_precision(label), 3)}</figcaption></figure>")  # fmt: skip
    more = len(labels) - _MOST_PANELS
    note = f'<p class="note">The first {_MOST_PANELS} of {len(labels)} classes; the table has every one.</p>' if more > 0 else ""
    return f'{charts}<h3>Each class</h3><div class="charts small">{"".join(panels)}</div>{note}'


def reliability_figure(points: Reliability | None, title: str) -> str:
    """The reliability diagram of a report's calibration (its ``reliability`` and
    ``calibration_title``; "" without points)."""
    if points is None or not len(points.weight):
        return ""
    histogram = None
    if len(points.edges):  # the samples in each bin, along the bottom, on an axis of their own
        counts = np.zeros(len(points.edges) - 1)
        bins = np.clip(np.searchsorted(points.edges[1:-1], points.confidence), 0, len(counts) - 1)
        np.add.at(counts, bins, points.weight)
        histogram = (points.edges, counts)
    observed = "accuracy" if title.startswith("calibration (top label") else "share of positives"  # of the top label: is it right
    chart = svg_chart([("observed", points.confidence, points.frequency)], x_label="mean score in the bin",
                      y_label=observed, diagonal=True, markers=True, histogram=histogram, legend=False)  # fmt: skip
    return (f'<div class="charts"><figure>{chart}<figcaption>Reliability diagram: calibrated scores lie on the diagonal; '
            "bars: the samples in each bin (their axis on the right)</figcaption></figure></div>")  # fmt: skip


def _dot_plot(report: Any, k: int, digits: int) -> str:
    """One measure of every group as a dot (and its interval as a line), the overall value as
    a dashed line; small groups hollow."""
    groups = [key for key in report.groups if key is not OVERALL]
    values = [report.values[key][k] for key in groups]
    bounds = [report.intervals[key][k] if report.intervals else None for key in groups]
    finite = [v for v in values if not math.isnan(v)] + [b.low for b in bounds if b is not None and not math.isnan(b.low)]
    finite += [b.high for b in bounds if b is not None and not math.isnan(b.high)]
    low, high = (min(finite), max(finite)) if finite else (0.0, 1.0)
    if high - low < 1e-9:
        low, high = low - 0.5, high + 0.5
    ticks, step = nice_ticks(low, high, 5), nice_step(low, high, 5)
    if low < ticks[0]:  # the axis runs between round values around every dot
        ticks.insert(0, round(ticks[0] - step, 12))
    if high > ticks[-1]:
        ticks.append(round(ticks[-1] + step, 12))
    low, high = ticks[0], ticks[-1]
    left, width, row = 150, 280, 22
    height = row * len(groups) + 30

    def px(value: float) -> float:
        return left + (value - low) / (high - low) * width

    parts = [f'<svg width="{left + width + 20}" height="{height}" viewBox="0 0 {left + width + 20} {height}" role="img">']
    for tick in ticks:  # round values, not the extremes' odd ones; the grid beneath the dots
        parts.append(f'<line x1="{px(tick):.1f}" y1="4" x2="{px(tick):.1f}" y2="{height - 24}" stroke="#eaeef2"/>')
        parts.append(f'<text x="{px(tick):.1f}" y="{height - 8}" font-size="10" text-anchor="middle">{tick:g}</text>')
    overall = report.values[OVERALL][k]
    if not math.isnan(overall):
        parts.append(f'<line x1="{px(overall):.1f}" y1="4" x2="{px(overall):.1f}" y2="{height - 24}" stroke="#8c959f" stroke-dasharray="4 4">'
                     f"<title>overall {_number(overall, digits)}</title></line>")  # fmt: skip
    for i, (key, value, bound) in enumerate(zip(groups, values, bounds)):
        y = 14 + i * row
        name = report._label(key)
        parts.append(f'<text x="{left - 8}" y="{y + 4}" font-size="11" text-anchor="end">{html.escape(name)}</text>')
        if bound is not None and not math.isnan(bound.low):
            parts.append(f'<line x1="{px(bound.low):.1f}" y1="{y}" x2="{px(bound.high):.1f}" y2="{y}" stroke="#0969da" stroke-width="2"/>')
        if not math.isnan(value):
            fill = "#ffffff" if key in report.small else "#0969da"
            parts.append(f'<circle cx="{px(value):.1f}" cy="{y}" r="4" fill="{fill}" stroke="#0969da"><title>{html.escape(name)}: '
                         f"{_number(value, digits)}</title></circle>")  # fmt: skip
    parts.append("</svg>")
    return "".join(parts)


def scatter_svg(x: np.ndarray, y: np.ndarray, *, x_label: str, y_label: str, diagonal: bool = False, zero: bool = False, width: int = 380) -> str:
    """A scatter plot of points as an SVG element, axes scaled to the data with round ticks
    (``diagonal``: the line y = x; ``zero``: the line y = 0).

    Examples:
        >>> scatter_svg(np.array([0.0, 2.0]), np.array([1.0, -1.0]), x_label="x", y_label="y", zero=True).count("<circle")
        2
    """
    left, top, bottom, right = 58, 14, 46, 14
    plot_w = width - left - right
    plot_h = plot_w - 36
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    spans = []
    for values, extra in ((x, y if diagonal else None), (y, x if diagonal else None)):
        low, high = (float(values.min()), float(values.max())) if values.size else (0.0, 1.0)
        if extra is not None and extra.size:
            low, high = min(low, float(extra.min())), max(high, float(extra.max()))
        if zero:
            low, high = (min(low, 0.0), max(high, 0.0)) if values is y else (low, high)
        ticks = nice_ticks(low, high) if high > low else [low - 1, low, low + 1]
        spans.append((min(ticks[0], low), max(ticks[-1], high), ticks))
    (x_low, x_high, x_ticks), (y_low, y_high, y_ticks) = spans

    def px(value: float) -> float:
        return left + (value - x_low) / (x_high - x_low) * plot_w

    def py(value: float) -> float:
        return top + (1 - (value - y_low) / (y_high - y_low)) * plot_h

    parts = [f'<svg width="{width}" height="{top + plot_h + bottom}" viewBox="0 0 {width} {top + plot_h + bottom}" role="img">',
             f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="#ffffff" stroke="#8c959f"/>']  # fmt: skip
    for tick in x_ticks:
        parts.append(f'<line x1="{px(tick):.1f}" y1="{top}" x2="{px(tick):.1f}" y2="{top + plot_h}" stroke="#eaeef2"/>')
        parts.append(f'<text x="{px(tick):.1f}" y="{top + plot_h + 16}" font-size="11" text-anchor="middle">{tick:,.4g}</text>')
    for tick in y_ticks:
        parts.append(f'<line x1="{left}" y1="{py(tick):.1f}" x2="{left + plot_w}" y2="{py(tick):.1f}" stroke="#eaeef2"/>')
        parts.append(f'<text x="{left - 6}" y="{py(tick) + 4:.1f}" font-size="11" text-anchor="end">{tick:,.4g}</text>')
    if diagonal:
        low, high = max(x_low, y_low), min(x_high, y_high)
        parts.append(f'<line x1="{px(low):.1f}" y1="{py(low):.1f}" x2="{px(high):.1f}" y2="{py(high):.1f}" stroke="#8c959f" stroke-dasharray="4 4"/>')
    if zero:
        parts.append(f'<line x1="{left}" y1="{py(0.0):.1f}" x2="{left + plot_w}" y2="{py(0.0):.1f}" stroke="#8c959f" stroke-dasharray="4 4"/>')
    parts += [f'<circle cx="{px(a):.1f}" cy="{py(b):.1f}" r="2" fill="{_COLOURS[0]}" fill-opacity="0.5"/>' for a, b in zip(x.tolist(), y.tolist())]
    parts.append(f'<text x="{left + plot_w / 2}" y="{top + plot_h + 36}" font-size="12" text-anchor="middle">{html.escape(x_label)}</text>')
    parts.append(f'<text x="14" y="{top + plot_h / 2}" font-size="12" text-anchor="middle" transform="rotate(-90 14 {top + plot_h / 2})">{html.escape(y_label)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _figure(svg: str, caption: str) -> str:
    return f"<figure>{svg}<figcaption>{html.escape(caption)}</figcaption></figure>"


def regression_page(metrics: RegressionMetrics, y_true: np.ndarray, y_pred: np.ndarray, *, digits: int = 3, title: str = "evalkit regression report",
                    subtitle: str = "") -> str:  # fmt: skip
    """The HTML page of a ``RegressionMetrics``: its measures, and the residuals against the
    predictions and the predictions against the true values of the points given (a sample)."""
    rows = "".join(f"<tr><td>{html.escape(name)}</td>{_td(_number(cast(float, value), digits))}</tr>" for name, value in metrics.to_dict().items())
    sections = [f"<h1>{html.escape(title)}</h1>"]
    if subtitle:
        sections.append(f'<p class="note">{html.escape(subtitle)}</p>')
    sections += ["<h2>Measures</h2>", f"<table><thead><tr><th>measure</th><th>value</th></tr></thead><tbody>{rows}</tbody></table>"]
    if len(y_true):
        sections += [
            "<h2>Residuals and predictions</h2>",
            f'<p class="note">{len(y_true)} points drawn, a uniform sample of the rows.</p>',
            _figure(scatter_svg(y_pred, y_true - y_pred, x_label="predicted", y_label="residual (true - predicted)", zero=True), "Residuals against predictions"),
            _figure(scatter_svg(y_true, y_pred, x_label="true value", y_label="predicted", diagonal=True), "Predicted against true values"),
        ]
    return page(title, sections)


def dot_plots(report: Any, digits: int) -> list[str]:
    """A report by group's dot plot of each measure (each group's value and interval, the
    overall value as a line)."""
    return [f"<h2>{html.escape(name)} by group</h2><figure>{_dot_plot(report, k, digits)}"
            "<figcaption>dots: each group's value; lines: intervals; dashed: the overall value</figcaption></figure>" for k, name in enumerate(report.titles())]  # fmt: skip


def _critical_difference_svg(comparison: ModelComparison, alpha: float) -> str:
    """Demšar's diagram as plain SVG: the rank axis (1, the best, on the left), each model's
    rank with its name, the critical difference, and bars joining the cliques."""
    k = len(comparison.models)
    order = np.argsort(comparison.ranks, kind="stable")
    cd, cliques = comparison.critical_difference(alpha), comparison.cliques(alpha)
    left, width, label, row = 170, 360, 170, 20
    half = (k + 1) // 2
    height = 70 + row * half + 12 * len(cliques)

    def px(rank: float) -> float:
        return left + (rank - 1) / max(k - 1, 1) * width

    parts = [f'<svg width="{left + width + label}" height="{height}" viewBox="0 0 {left + width + label} {height}" role="img">',
             f'<line x1="{px(1):.1f}" y1="40" x2="{px(k):.1f}" y2="40" stroke="#1b1f24"/>']  # fmt: skip
    for tick in range(1, k + 1):
        parts.append(f'<line x1="{px(tick):.1f}" y1="34" x2="{px(tick):.1f}" y2="40" stroke="#1b1f24"/>'
                     f'<text x="{px(tick):.1f}" y="30" font-size="10" text-anchor="middle">{tick}</text>')  # fmt: skip
    parts.append(f'<line x1="{px(1):.1f}" y1="12" x2="{px(1 + cd):.1f}" y2="12" stroke="#1b1f24" stroke-width="2"/>'
                 f'<text x="{px(1 + cd / 2):.1f}" y="9" font-size="10" text-anchor="middle">CD = {cd:.2f}</text>')  # fmt: skip
    for position, index in enumerate(order):
        rank = float(comparison.ranks[index])
        on_left = position < half
        y = 62 + row * (position if on_left else k - 1 - position)
        end = px(1) - 10 if on_left else px(k) + 10
        name = html.escape(f"{comparison.models[index]} ({rank:.2f})")
        parts.append(f'<polyline points="{px(rank):.1f},40 {px(rank):.1f},{y} {end:.1f},{y}" fill="none" stroke="#57606a"/>'
                     f'<text x="{end + (-4 if on_left else 4):.1f}" y="{y + 4}" font-size="11" text-anchor="{"end" if on_left else "start"}">'
                     f"{name}</text>")  # fmt: skip
    for depth, clique in enumerate(cliques):
        ranks = [float(comparison.ranks[comparison.models.index(model)]) for model in clique]
        y = 46 + 5 * depth
        parts.append(f'<line x1="{px(min(ranks)) - 3:.1f}" y1="{y}" x2="{px(max(ranks)) + 3:.1f}" y2="{y}" stroke="#cf222e" stroke-width="3">'
                     f"<title>not significantly different: {html.escape(', '.join(map(str, clique)))}</title></line>")  # fmt: skip
    parts.append("</svg>")
    return "".join(parts)


@renders("critical_difference_figure")
def critical_difference_figure(comparison: ModelComparison, alpha: float) -> str:
    """Demšar's critical-difference diagram of a comparison, with its caption."""
    return (f"<h2>Critical difference (Nemenyi, alpha {alpha:g})</h2><figure>{_critical_difference_svg(comparison, alpha)}"
            "<figcaption>average ranks, 1 the best; red bars join models not significantly different</figcaption></figure>")


# --------------------------------------------------------------------------------------------
# fragments: what notebooks show (``_repr_html_``)

_FRAGMENT_STYLE = """
.evalkit-result table { border-collapse: collapse; margin: 0.5rem 0; font-variant-numeric: tabular-nums; }
.evalkit-result th, .evalkit-result td { padding: 0.25rem 0.6rem; text-align: right; border-bottom: 1px solid #d0d7de; }
.evalkit-result th:first-child, .evalkit-result td:first-child { text-align: left; }
.evalkit-result tbody th { font-weight: normal; }
.evalkit-result tr.average td, .evalkit-result tr.average th { background: #f6f8fa; font-weight: 600; }
.evalkit-result td.undefined { color: #8c959f; }
.evalkit-result table.heatmap td { border: 1px solid #ffffff; min-width: 2.5rem; text-align: center; }
.evalkit-result caption { caption-side: bottom; text-align: left; font-size: 0.85rem; color: #57606a; padding-top: 0.3rem; }
"""
"""The page's table rules, scoped to a notebook block (``_STYLE`` is the page's)."""


def _fragment(*parts: str) -> str:
    """A block of HTML for a notebook: the report's look, scoped to the block, no script."""
    return f'<div class="evalkit-result"><style>{_FRAGMENT_STYLE}</style>{"".join(parts)}</div>'


@renders("html_fragment")
def fragment(body: str) -> str:
    """HTML (a table model's tables) as a notebook shows it: the page's look, scoped to the
    block, no script.

    Examples:
        >>> from evalkit import ConfusionMatrix
        >>> "<script" in ConfusionMatrix.from_array([[1, 0], [0, 1]], ["<b>", "ok"])._repr_html_()
        False
    """
    return _fragment(body)


@renders("html_matrix")
def matrix_fragment(matrix: ConfusionMatrix, digits: int = 3) -> str:
    """A confusion matrix as a notebook shows it: a heat map (each count shaded by its share of the row)."""
    return _fragment(counts_table(matrix.labels, matrix.to_array()).to_html(digits))


@renders("html_table")
def table_fragment(caption: str, headers: Sequence[str], rows: Sequence[Sequence[Any]], digits: int = 6) -> str:
    """A titled table of names and numbers (floats to ``digits`` significant digits: a notebook's
    quick look at values of any size) as a notebook shows it, every text escaped."""
    cells = [[UNDEFINED if isinstance(value, float) and math.isnan(value) else f"{value:.{digits}g}" if isinstance(value, (float, np.floating)) else value
              for value in row] for row in rows]  # fmt: skip
    return _fragment(Table(headers, cells, title=caption).to_html(digits))


# --------------------------------------------------------------------------------------------
# the page functions of evalkit 0.1.0 (``evalkit.html``): each report writes its own page now


def report_page(report: Tabular, *, digits: int = 3, title: str = "evalkit report", subtitle: str = "", curve: ThresholdCurve | None = None) -> str:
    """``report.to_html(...)`` (evalkit 0.1.0's name of the report page)."""
    return report.to_html(digits, title=title, subtitle=subtitle, curve=curve)


def group_page(report: Tabular, *, digits: int = 3, title: str = "evalkit report by group") -> str:
    """``report.to_html(...)`` of a report by group (evalkit 0.1.0's name)."""
    return report.to_html(digits, title=title)


def comparison_page(comparison: Tabular, *, digits: int = 3, title: str = "evalkit comparison", alpha: float = 0.05) -> str:
    """``comparison.to_html(...)`` (the name of the comparison page before 0.2.0)."""
    return comparison.to_html(digits, title=title, alpha=alpha)


def report_fragment(report: Tabular, digits: int = 3) -> str:
    """The notebook view of a report with ``digits`` decimals (evalkit 0.1.0's name)."""
    return _fragment(report._html_body(digits))


if not TYPE_CHECKING:  # the names this module gave in evalkit 0.1.0 and lost, found with a warning
    __getattr__ = moved_names.finder(__name__)
