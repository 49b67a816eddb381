"""Plots (the optional ``plot`` extra: ``pip install "evalkit[plot]"``).

matplotlib is imported when this module is, never by ``import evalkit``. The functions draw on
a given matplotlib ``Axes`` or on a new figure (made without pyplot, so no GUI backend is
needed) and return the ``Axes``; save with ``ax.figure.savefig("file.png")``.

* ``confusion_matrix``: a heatmap of counts, or of rates normalised by row (actual),
  column (predicted) or the whole matrix; labelled axes; readable for 30+ classes.
* ``per_class``: bars of chosen measures for every class.
* ``compare``: two classifiers side by side: per-class measures of two matrices or
  evaluations, or AA, RAR and the example-based measures of two neighborhood results.
* ``roc`` and ``precision_recall``: the curves of a ``ThresholdCurve``, one per class or
  averaged, the area in the legend and a chosen threshold marked.
* ``det``: detection error tradeoff curves on the normal deviate scale.
* ``measures_by_threshold``: any measures against the threshold.
* ``intervals``: confidence intervals side by side (a forest plot), e.g. of two classifiers.
* ``risk_coverage``: a selective classifier's risk (or any measure of the accepted samples)
  against its coverage, with the perfect ranking of the same samples.
* ``gains`` and ``lift``: the cumulative gains and lift curves of a ``ThresholdCurve`` (with
  the random and the perfect model), one per class.
* ``reliability``: the reliability diagram of a ``Calibration``: observed share of positives
  (of a top-label calibration: accuracy) against mean score per bin (or the binning-free isotonic diagram), the diagonal, the
  samples per bin as a histogram beneath, one line per class if asked.
* ``residuals`` and ``predicted_vs_actual``: a regressor's residuals against its predictions
  (with the zero line), and its predictions against the true values (with the diagonal).
* ``over_time``: measures per window of a stream (an ``OverTime`` table), accuracy with its
  interval as a band.
* ``critical_difference``: Demšar's diagram of a ``ModelComparison`` (average ranks, the
  critical difference, bars joining models not significantly different); ``p_values``: the
  matrix of adjusted p-values of a ``PairwiseTests``; ``posterior``: a Bayesian comparison's
  posterior in its triangle.
"""

from __future__ import annotations

import datetime
from collections.abc import Hashable, Sequence
from statistics import NormalDist
from typing import TYPE_CHECKING, Any, TypeAlias, cast

import matplotlib.dates
import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from evalkit._engine import moved_names
from evalkit._engine._labels import label_text
from evalkit._engine._types import TargetsLike
from evalkit._engine._validation import check_choice, count_text, show
from evalkit._engine.moments import target_pair
from evalkit._groups.neighborhood import NeighborhoodAccuracy
from evalkit._results.base import CellsResult
from evalkit._scores.calibration import Calibration
from evalkit._scores.curves import BestThreshold, ThresholdCurve
from evalkit._scores.operating import OperatingPoint
from evalkit._scores.selective import RiskCoverage
from evalkit.exceptions import InvalidTypeError
from evalkit.measures._formulas import get_measure

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from evalkit.comparisons._bayesian import BayesianComparison
    from evalkit.comparisons._comparison import ModelComparison, PairwiseTests
    from evalkit.io._over_time import OverTime
    from evalkit.io._report import GroupReport

__all__ = ["by_group", "compare", "confusion_matrix", "critical_difference", "det", "gains", "intervals", "lift", "measures_by_threshold", "over_time",
           "p_values", "per_class", "posterior", "precision_recall", "predicted_vs_actual", "reliability", "residuals", "risk_coverage", "roc"]

NORMALIZATIONS = (None, "true", "pred", "all")

Mark: TypeAlias = "float | ArrayLike | BestThreshold | OperatingPoint | None"
"""A threshold to mark on a curve: a number (one per class), or a chosen ``BestThreshold`` or ``OperatingPoint``."""


def _axes(ax: Axes | None, width: float, height: float) -> Axes:
    if ax is not None:
        return ax
    return Figure(figsize=(width, height), layout="constrained").add_subplot()


def _font_size(ax: Axes, count: int) -> float:
    """A tick font that fits ``count`` labels along the Axes' shorter side."""
    figure = cast(Figure, ax.figure)  # a Figure (a SubFigure has no size of its own)
    box = ax.get_position()
    side = min(figure.get_figwidth() * box.width, figure.get_figheight() * box.height) * 72
    return float(np.clip(side / max(count, 1) * 0.55, 5, 10))


def confusion_matrix(
    source: object,
    *,
    normalize: str | None = None,
    ax: Axes | None = None,
    annotate: bool | None = None,
    cmap: str = "Blues",
    title: str | None = None,
) -> Axes:
    """A heatmap of a confusion matrix (rows actual, columns predicted).

    Args:
        source: a ``ConfusionMatrix`` or a single-label/ordinal Evaluation.
        normalize: ``None`` (counts), ``"true"`` (each actual row sums to 1: recall on the
            diagonal), ``"pred"`` (each predicted column sums to 1: precision on the diagonal)
            or ``"all"``.
        ax: the Axes to draw on (a new figure, sized to the number of classes, by default).
        annotate: write the values in the cells (default: up to 25 classes).
        cmap: a matplotlib colour map name.
        title: the title (default: what is shown).
    """
    check_choice("normalize", normalize if normalize is not None else "none", ("none", "true", "pred", "all"))
    if not isinstance(source, CellsResult):
        raise InvalidTypeError(f"expected a ConfusionMatrix or a single-label Evaluation, got {show(source)}")
    matrix = source.confusion_matrix()
    counts = matrix.to_array().astype(np.float64)
    labels = [label_text(label) for label in matrix.labels]
    m = len(labels)
    with np.errstate(divide="ignore", invalid="ignore"):
        values = {
            None: counts,
            "true": counts / counts.sum(axis=1, keepdims=True),
            "pred": counts / counts.sum(axis=0, keepdims=True),
            "all": counts / counts.sum(),
        }[normalize]
    size = float(np.clip(0.35 * m + 2.5, 4.0, 24.0))
    ax = _axes(ax, size + 1.0, size)
    image = ax.imshow(np.nan_to_num(values), cmap=cmap, vmin=0, vmax=1 if normalize else None)
    ax.figure.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    font = _font_size(ax, m)
    ax.set_xticks(range(m), labels, rotation=90 if m > 8 or max(map(len, labels), default=0) > 6 else 0, fontsize=font)
    ax.set_yticks(range(m), labels, fontsize=font)
    ax.set_xlabel("predicted")
    ax.set_ylabel("actual")
    ax.set_title(title or {None: "Confusion matrix (counts)", "true": "Confusion matrix (by actual class)",
                           "pred": "Confusion matrix (by predicted class)", "all": "Confusion matrix (share of all)"}[normalize])  # fmt: skip
    if annotate if annotate is not None else m <= 25:
        threshold = np.nanmax(values) / 2 if np.isfinite(values).any() else 0
        for (i, j), value in np.ndenumerate(values):
            text = "" if np.isnan(value) else (f"{value:.2f}" if normalize else count_text(value, 2))
            ax.text(j, i, text, ha="center", va="center", fontsize=font * 0.9, color="white" if value > threshold else "black")
    return ax


def per_class(
    source: CellsResult,
    measures: Sequence[str] = ("precision", "recall", "f1_score"),
    *,
    ax: Axes | None = None,
    title: str | None = None,
) -> Axes:
    """Grouped bars: the value of each measure for each class (undefined values left out).

    Args:
        source: a ``ConfusionMatrix`` or an ``Evaluation``.
        measures: measure names.
        ax: the Axes to draw on.
        title: the title.
    """
    labels = [label_text(label) for label in source.labels]
    values = np.array([source.per_class(measure) for measure in measures])
    m = len(labels)
    ax = _axes(ax, float(np.clip(0.3 * m * len(measures) + 3, 5, 24)), 4.0)
    width = 0.8 / len(measures)
    positions = np.arange(m)
    for k, measure in enumerate(measures):
        ax.bar(positions + (k - (len(measures) - 1) / 2) * width, np.nan_to_num(values[k]), width, label=measure)
    ax.set_xticks(positions, labels, rotation=90 if m > 8 else 0, fontsize=_font_size(ax, m))
    ax.set_ylim(min(0.0, float(np.nanmin(values, initial=0.0))), max(1.0, float(np.nanmax(values, initial=1.0))))
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
    ax.set_title(title or "Per-class measures")
    return ax


def compare(
    first: CellsResult | NeighborhoodAccuracy,
    second: CellsResult | NeighborhoodAccuracy,
    *,
    measures: Sequence[str] = ("precision", "recall"),
    names: Sequence[str] = ("first", "second"),
    ax: Axes | None = None,
    title: str | None = None,
) -> Axes:
    """Two classifiers side by side.

    Two ConfusionMatrix or Evaluation objects: for every class, bars of each measure for both
    (hatched for the second). Two ``NeighborhoodAccuracy`` objects: AA and the
    example-based accuracy, precision and recall as bars, RAR in the legend.
    """
    if isinstance(first, NeighborhoodAccuracy) != isinstance(second, NeighborhoodAccuracy):
        raise InvalidTypeError(f"compare two results of one kind (two NeighborhoodAccuracy, or two matrices or evaluations), got {show(first)} "
                               f"and {show(second)}")  # fmt: skip
    if isinstance(first, NeighborhoodAccuracy) and isinstance(second, NeighborhoodAccuracy):
        getters = ("get_absolute_accuracy", "get_example_based_accuracy", "get_example_based_precision", "get_example_based_recall")
        titles = ["AA", "accuracy", "precision", "recall"]
        ax = _axes(ax, 6.0, 4.0)
        positions = np.arange(len(getters))
        for k, (result, name) in enumerate(zip((first, second), names)):
            heights = [float(getattr(result, getter)()) for getter in getters]
            rar = result.get_relative_accuracy_rate()
            ax.bar(positions + (k - 0.5) * 0.4, np.nan_to_num(heights), 0.4, label=f"{name} (RAR {rar:.3g})", hatch="//" if k else None)
        ax.set_xticks(positions, titles)
        ax.set_ylim(0, 1)
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
        ax.set_title(title or "AA, RAR and example-based measures")
        return ax
    if not (isinstance(first, CellsResult) and isinstance(second, CellsResult)):
        raise InvalidTypeError(f"compare two ConfusionMatrix or Evaluation objects, got {show(first)} and {show(second)}")
    if tuple(first.labels) != tuple(second.labels):
        raise InvalidTypeError("the two classifiers must have the same labels to be compared class by class")
    labels = [label_text(label) for label in first.labels]
    m = len(labels)
    ax = _axes(ax, float(np.clip(0.45 * m * len(measures) + 3, 6, 24)), 4.0)
    groups = [(measure, k) for measure in measures for k in range(2)]
    width = 0.8 / len(groups)
    positions = np.arange(m)
    colours = [f"C{i}" for i in range(len(measures))]
    for g, (measure, k) in enumerate(groups):
        values = (first, second)[k].per_class(measure)
        ax.bar(positions + (g - (len(groups) - 1) / 2) * width, np.nan_to_num(values), width,
               color=colours[measures.index(measure)], hatch="//" if k else None, label=f"{measure}: {names[k]}")  # fmt: skip
    ax.set_xticks(positions, labels, rotation=90 if m > 8 else 0, fontsize=_font_size(ax, m))
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
    ax.set_title(title or "Per-class comparison")
    return ax


# --------------------------------------------------------------------------------------------
# curves of scores


def _curve(source: object) -> ThresholdCurve:
    if not isinstance(source, ThresholdCurve):
        raise InvalidTypeError(f"expected a ThresholdCurve, got {show(source)}")
    return source


def _drawn(curve: ThresholdCurve, label: Hashable, average: str | None) -> list[tuple[str, ThresholdCurve, Any]]:
    """(legend name, curve, class) for every line: one class, every class, or the micro curve."""
    check_choice("average", average if average is not None else "none", ("none", "micro"))
    if average == "micro":
        return [("micro", curve.micro(), None)]
    if label is not None or len(curve.labels) == 1:
        return [(str(curve.labels[0] if label is None else label), curve, label)]
    return [(str(own), curve, own) for own in curve.labels]


def _threshold_of(mark: Mark) -> float | ArrayLike | None:
    """A threshold, or that of a ``BestThreshold`` or an ``OperatingPoint``."""
    return mark.threshold if isinstance(mark, (BestThreshold, OperatingPoint)) else mark


def _mark(ax: Axes, curve: ThresholdCurve, label: Hashable, mark: Mark, x_measure: str, y_measure: str, colour: object, annotate: bool) -> None:
    """A dot where the curve of ``label`` is at the threshold ``mark`` (its value written when
    only one curve is drawn)."""
    if mark is None:
        return
    threshold = _threshold_of(mark)
    j = 0 if label is None else curve.labels.index(label)
    value = np.broadcast_to(np.asarray(threshold, dtype=np.float64), (len(curve.labels),))[j]
    cells = curve.at(value).class_cells[j : j + 1]
    x, y = (float(np.asarray(cells.evaluate(get_measure(name)))[0]) for name in (x_measure, y_measure))
    ax.plot([x], [y], "o", color=colour, markeredgecolor="black", markersize=7, zorder=5)
    if annotate:
        ax.annotate(f"t = {value:.3g}", (x, y), textcoords="offset points", xytext=(6, -12), fontsize=8)


def _curve_lines(source: ThresholdCurve, label: Hashable, average: str | None, ax: Axes | None, mark: Mark, kind: str) -> Axes:
    """ROC (``kind="roc"``) or precision-recall lines, one per class or the micro curve, with
    the area in the legend and the threshold ``mark`` as a dot on each line."""
    curve = _curve(source)
    ax = _axes(ax, 5.5, 5.0)
    lines = _drawn(curve, label, average)
    for name, drawn, own in lines:
        if kind == "roc":
            fpr, tpr, _ = drawn.roc(own)
            line = ax.plot(fpr, tpr, label=f"{name} (AUC {drawn.roc_auc(own):.3f})")[0]
            axes_measures = ("false_positive_rate", "recall")
        else:
            precision, recall, _ = drawn.precision_recall(own)
            line = ax.plot(recall, precision, drawstyle="steps-post", label=f"{name} (AP {drawn.average_precision(own):.3f})")[0]
            axes_measures = ("recall", "precision")
        _mark(ax, drawn, own, mark, *axes_measures, line.get_color(), len(lines) == 1)
    ax.set(xlim=(-0.01, 1.01), ylim=(-0.01, 1.01))
    return ax


def roc(
    source: ThresholdCurve, label: Hashable | None = None, *, average: str | None = None, ax: Axes | None = None, mark: Mark = None, title: str | None = None
) -> Axes:
    """ROC curves with the AUC in the legend and the chance diagonal.

    Args:
        source: a ``ThresholdCurve``.
        label: one class (default: every class, one line each).
        average: ``"micro"`` for the one curve of all classes' cells summed.
        ax: the Axes to draw on.
        mark: a threshold (or a ``BestThreshold``) to mark on the curve(s).
        title: the title.
    """
    ax = _curve_lines(source, label, average, ax, mark, "roc")
    ax.plot([0, 1], [0, 1], linestyle=":", color="grey", linewidth=1)
    ax.set(xlabel="false positive rate", ylabel="true positive rate (recall)")
    ax.legend(fontsize=8, loc="lower right")
    ax.set_title(title or "ROC curve")
    return ax


def precision_recall(
    source: ThresholdCurve, label: Hashable | None = None, *, average: str | None = None, ax: Axes | None = None, mark: Mark = None, title: str | None = None
) -> Axes:
    """Precision-recall curves (steps) with the average precision in the legend.

    Args:
        source: a ``ThresholdCurve``.
        label: one class (default: every class, one line each).
        average: ``"micro"`` for the one curve of all classes' cells summed.
        ax: the Axes to draw on.
        mark: a threshold (or a ``BestThreshold``) to mark on the curve(s).
        title: the title.
    """
    ax = _curve_lines(source, label, average, ax, mark, "precision_recall")
    ax.set(xlabel="recall", ylabel="precision")
    ax.legend(fontsize=8, loc="lower left")
    ax.set_title(title or "Precision-recall curve")
    return ax


def det(source: ThresholdCurve, label: Hashable | None = None, *, ax: Axes | None = None, title: str | None = None) -> Axes:
    """Detection error tradeoff curves: false negative rate against false positive rate, both
    on the normal deviate scale (where two normal score distributions draw a straight line),
    as scikit-learn's ``DetCurveDisplay``.

    Args:
        source: a ``ThresholdCurve``.
        label: one class (default: every class, one line each).
        ax: the Axes to draw on.
        title: the title.
    """
    curve = _curve(source)
    ax = _axes(ax, 5.5, 5.0)
    deviate = NormalDist().inv_cdf
    ticks = [0.001, 0.01, 0.05, 0.2, 0.5, 0.8, 0.95, 0.99, 0.999]
    low, high = deviate(0.0005), deviate(0.9995)

    def scale(rates: np.ndarray) -> list[float]:
        return [deviate(min(max(rate, 0.0005), 0.9995)) for rate in rates.tolist()]

    for name, drawn, own in _drawn(curve, label, None):
        fpr, fnr, _ = drawn.det(own)
        ax.plot(scale(fpr), scale(fnr), label=name)
    positions = [deviate(tick) for tick in ticks]
    names = [f"{tick:.0%}" if tick >= 0.01 else f"{tick:.1%}" for tick in ticks]
    ax.set(xlim=(low, high), ylim=(low, high), xticks=positions, yticks=positions, xticklabels=names, yticklabels=names,
           xlabel="false positive rate", ylabel="false negative rate")  # fmt: skip
    ax.legend(fontsize=8, loc="upper right")
    ax.set_title(title or "Detection error tradeoff (DET) curve")
    return ax


def measures_by_threshold(
    source: ThresholdCurve,
    measures: Sequence[str] = ("precision", "recall", "f1_score"),
    label: Hashable | None = None,
    *,
    average: str | None = None,
    ax: Axes | None = None,
    mark: Mark = None,
    title: str | None = None,
) -> Axes:
    """Measures against the threshold (one class, or averaged over classes at common
    thresholds), with a chosen threshold as a vertical line.

    Args:
        source: a ``ThresholdCurve``.
        measures: measure names.
        label: the class (needed for several classes unless ``average`` is given).
        average: ``"micro"``, ``"macro"`` or ``"weighted"``.
        ax: the Axes to draw on.
        mark: a threshold (or a ``BestThreshold``) drawn as a vertical line.
        title: the title.
    """
    curve = _curve(source)
    ax = _axes(ax, 6.5, 4.0)
    for measure in measures:
        values, thresholds = curve.evaluate(measure, label, average=average)
        finite = np.isfinite(thresholds)
        ax.plot(thresholds[finite], values[finite], drawstyle="steps-post", label=measure)
    if mark is not None:
        ax.axvline(float(np.mean(np.asarray(_threshold_of(mark), dtype=np.float64))), color="black", linestyle="--", linewidth=1)
    ax.set(xlabel="threshold (predict positive when score >= threshold)", ylabel="value")
    ax.legend(fontsize=8, loc="best")
    ax.set_title(title or ("Measures by threshold" + (f" ({average} average)" if average else "")))
    return ax


def over_time(table: OverTime, measures: Sequence[str] | None = None, *, ax: Axes | None = None, title: str | None = None) -> Axes:
    """Measures per window of a stream against the end of each window: accuracy with its
    interval as a shaded band, each other measure a line; a monitor's alarms as red lines across
    (and its reference level, when it watched accuracy or a column drawn).

    Args:
        table: an ``OverTime`` (``evalkit.over_time(...)``).
        measures: the columns to draw besides accuracy (default all of the table's).
        ax: the Axes to draw on.
        title: the title (default: the kind of windows).
    """
    from evalkit.io._over_time import OverTime

    if not isinstance(table, OverTime):
        raise InvalidTypeError(f"expected an OverTime table (evalkit.over_time), got {show(table)}")
    chosen = list(table.measures if measures is None else measures)
    unknown = [name for name in chosen if name not in table.measures]
    if unknown:
        raise InvalidTypeError(f"the table has no column {unknown[0]!r}; it has {list(table.measures)}")
    ends, dates = table.ends()
    x = np.array([datetime.datetime.fromtimestamp(end, datetime.timezone.utc) for end in ends]) if dates else ends
    ax = _axes(ax, 7.0, 3.6)
    ax.fill_between(x, [row["accuracy_low"] for row in table.rows], [row["accuracy_high"] for row in table.rows], color="C0", alpha=0.2,
                    label=f"accuracy, {table.level:.0%} interval")  # fmt: skip
    ax.plot(x, [row["accuracy"] for row in table.rows], color="C0", marker="o" if len(x) <= 60 else None, markersize=3, label="accuracy")
    for k, name in enumerate(chosen, 1):
        ax.plot(x, [row[name] for row in table.rows], color=f"C{k}", linewidth=1.2, label=name)
        bounds = table.bounds(name)
        if bounds is not None:
            ax.fill_between(x, *bounds, color=f"C{k}", alpha=0.12)
    if table.reference is not None and table.monitored in ("accuracy", *chosen):
        ax.axhline(table.reference, color="tab:red", linestyle="--", linewidth=1, label=f"reference {table.reference:g} of {table.monitored}")
    alarms = table.alarm_positions()
    for k, alarm in enumerate(alarms):  # the monitor's alarms, across the plot
        ax.axvline(cast(Any, datetime.datetime.fromtimestamp(alarm, datetime.timezone.utc) if dates else alarm), color="tab:red", alpha=0.4, linewidth=0.8,
                   label="alarm" if k == 0 else None)  # fmt: skip
    if dates:
        locator = matplotlib.dates.AutoDateLocator()
        ax.xaxis.set_major_locator(locator)
        ax.xaxis.set_major_formatter(matplotlib.dates.ConciseDateFormatter(locator, tz=datetime.timezone.utc))
    ax.set(xlabel=table.axis_label(dates), ylabel="value")
    ax.legend(fontsize=8, loc="lower left")
    ax.set_title(title or table.kind.capitalize())
    return ax


def intervals(found: dict[str, Any], *, ax: Axes | None = None, title: str | None = None) -> Axes:
    """Confidence intervals as points with horizontal bars, one row per entry (top to bottom in
    the order given), the level and method in the title.

    Args:
        found: ``{row name: Interval}`` (or ``Comparison``, drawn around its difference).
        ax: the Axes to draw on.
        title: the title.
    """
    from evalkit._results._closed_form import Interval
    from evalkit._results.paired import Comparison

    if not found or not all(isinstance(value, (Interval, Comparison)) for value in found.values()):
        raise InvalidTypeError(f"expected a non-empty dict of Interval or Comparison values, got {show(found)}")
    names = list(found)
    centres = [value.estimate if isinstance(value, Interval) else value.difference for value in found.values()]
    lows = [value.low for value in found.values()]
    highs = [value.high for value in found.values()]
    ax = _axes(ax, 6.5, 0.45 * len(names) + 1.4)
    positions = np.arange(len(names))[::-1]
    errors = np.array([np.subtract(centres, lows), np.subtract(highs, centres)])
    ax.errorbar(centres, positions, xerr=np.nan_to_num(errors), fmt="o", color="C0", ecolor="C0", capsize=4)
    for position, centre, low, high in zip(positions, centres, lows, highs):
        ax.annotate(f"{centre:.3f} [{low:.3f}, {high:.3f}]", (high if np.isfinite(high) else centre, position),
                    textcoords="offset points", xytext=(8, -3), fontsize=8)  # fmt: skip
    if any(isinstance(value, Comparison) for value in found.values()):
        ax.axvline(0.0, color="grey", linestyle=":", linewidth=1)
    ax.set_yticks(positions, names)
    left, right = ax.get_xlim()
    ax.set_xlim(left, right + (right - left) * 0.45)  # room for the numbers
    first = next(iter(found.values()))
    methods = {value.method for value in found.values()}
    ax.set_title(title or f"{first.level:.0%} confidence intervals" + (f" ({first.method})" if len(methods) == 1 else ""))
    return ax


def reliability(
    source: Calibration, *, n_bins: int | None = None, strategy: str = "uniform", estimator: str = "binned", per_class: bool = False,
    ax: Axes | None = None, title: str | None = None,
) -> Axes:  # fmt: skip
    """The reliability diagram of a ``Calibration``: per bin, the observed share of positives
    (of a top-label calibration: the accuracy of the top label) against the mean score (calibrated scores lie on the diagonal), the ECE in the legend, and
    beneath, the share of the samples in each bin.

    Args:
        source: a ``Calibration``.
        n_bins: the number of bins (as for ``Calibration.reliability``).
        strategy: ``"uniform"`` (equal width) or ``"quantile"`` (equal mass).
        estimator: ``"binned"``, or ``"isotonic"`` for the binning-free CORP diagram.
        per_class: one line per column of a multi-column calibration (default: the pooled columns).
        ax: the Axes to draw on.
        title: the title.
    """
    if not isinstance(source, Calibration):
        raise InvalidTypeError(f"a reliability diagram needs a Calibration (Calibration.from_scores(...)), got {show(source)}")
    ax = _axes(ax, 5.2, 5.2)
    columns = [(label_text(label), source, label) for label in source.labels] if per_class and len(source.labels) > 1 else [("", source.micro(), None)]
    options: dict[str, Any] = {"estimator": estimator} if estimator == "isotonic" else {"n_bins": n_bins, "strategy": strategy}
    histogram = ax.inset_axes((0.0, 0.0, 1.0, 0.22), sharex=ax)
    for name, calibration, label in columns:
        points = calibration.reliability(label=label, **options)
        error = calibration.error(label=label, **options)
        text = f"{name + ': ' if name else ''}ECE {error:.3f}"
        drawn = ax.plot(points.confidence, points.frequency, marker="o" if estimator == "binned" else None, markersize=3, label=text)
        if len(points.edges):
            centres = np.clip(np.searchsorted(points.edges[1:-1], points.confidence), 0, len(points.edges) - 2)
            shares = np.bincount(centres, weights=points.weight, minlength=len(points.edges) - 1) / points.weight.sum()
            histogram.stairs(shares, points.edges, fill=True, alpha=0.35, color=drawn[0].get_color())
    ax.plot([0, 1], [0, 1], linestyle=":", color="grey", linewidth=1)
    histogram.set_axis_off()
    histogram.patch.set_alpha(0.0)
    observed = "observed accuracy" if source.setting == "top_label" else "observed share of positives"  # of the top label: is it right
    ax.set(xlim=(-0.01, 1.01), ylim=(-0.01, 1.01), xlabel="mean score", ylabel=observed)
    ax.legend(fontsize=8, loc="upper left")
    ax.set_title(title or f"Reliability diagram ({source.setting.replace('_', ' ')})")
    return ax


def _classes(curve: ThresholdCurve, label: Hashable) -> list[Any]:
    labels = _curve(curve).labels
    return list(labels) if label is None else [label]


def risk_coverage(curve: RiskCoverage, measure: str | None = None, average: str = "macro", *, oracle: bool = True, ax: Axes | None = None,
                  title: str | None = None) -> Axes:  # fmt: skip
    """The risk-coverage curve of a ``RiskCoverage`` (selective risk against coverage, as steps),
    the AURC in the legend, and the perfect ranking of the same samples (``oracle``); with
    ``measure``, that measure of the accepted samples instead of the risk.

    Examples:
        >>> from evalkit import RiskCoverage
        >>> ax = risk_coverage(RiskCoverage.from_predictions([0, 1, 1], [0, 1, 0], [0.9, 0.6, 0.7]))
        >>> ax.get_xlabel(), ax.get_ylabel()
        ('coverage', 'selective risk')
    """
    if not isinstance(curve, RiskCoverage):
        raise InvalidTypeError(f"'curve' must be a RiskCoverage, got {show(curve)}")
    ax = _axes(ax, 5.0, 4.0)
    values = curve.risk if measure is None else curve.values(measure, average)
    name = "selective risk" if measure is None else f"{measure} ({average})"
    area = curve.aurc() if measure is None else curve.area(measure, average)
    ax.step(np.concatenate(([0.0], curve.coverage)), np.concatenate((values[:1], values)), where="post",
            label=f"{'AURC' if measure is None else 'area'} = {area:.4f}")  # fmt: skip
    if oracle and measure is None:
        coverage, risk = curve.oracle_risk()
        ax.step(np.concatenate(([0.0], coverage)), np.concatenate((risk[:1], risk)), where="post", linestyle="--", color="grey", label="perfect ranking")
    ax.set_xlim(0, 1)
    ax.set_xlabel("coverage")
    ax.set_ylabel(name)
    ax.legend(loc="best")
    if title:
        ax.set_title(title)
    return ax


def gains(curve: ThresholdCurve, label: Hashable | None = None, *, ax: Axes | None = None, title: str | None = None) -> Axes:
    """Cumulative gains: the share of the class's samples captured against the share of all
    samples targeted from the highest score down, with the random model (the diagonal) and
    the perfect one.

    Args:
        curve: a ``ThresholdCurve``.
        label: one class (default: every class, one line each).
        ax: the Axes to draw on.
        title: the title.
    """
    ax = _axes(ax, 5.2, 4.6)
    for own in _classes(curve, label):
        targeted, captured, _ = curve.gains(own)
        line = ax.plot(targeted, captured, label=f"{own}: KS {curve.ks_statistic(own):.3f}")[0]
        cells = curve.cells(own)
        rate = float(cells.tp[-1] + cells.fn[-1]) / float(cells.tp[-1] + cells.fp[-1] + cells.fn[-1] + cells.tn[-1])
        ax.plot([0, rate, 1], [0, 1, 1], linestyle="--", linewidth=0.8, color=line.get_color())
    ax.plot([0, 1], [0, 1], linestyle=":", color="grey", linewidth=1)
    ax.set(xlim=(-0.01, 1.01), ylim=(-0.01, 1.01), xlabel="share of samples targeted", ylabel="share of the class captured")
    ax.legend(fontsize=8, loc="lower right")
    ax.set_title(title or "Cumulative gains")
    return ax


def lift(curve: ThresholdCurve, label: Hashable | None = None, *, ax: Axes | None = None, title: str | None = None) -> Axes:
    """Lift: how many times the class is more frequent among the targeted samples than
    overall, against the share targeted (1 is the random model).

    Args:
        curve: a ``ThresholdCurve``.
        label: one class (default: every class, one line each).
        ax: the Axes to draw on.
        title: the title.
    """
    ax = _axes(ax, 5.2, 4.6)
    for own in _classes(curve, label):
        targeted, lifted, _ = curve.lift(own)
        ax.plot(targeted, lifted, label=str(own))
    ax.axhline(1.0, linestyle=":", color="grey", linewidth=1)
    ax.set(xlim=(-0.01, 1.01), xlabel="share of samples targeted", ylabel="lift")
    ax.legend(fontsize=8, loc="upper right")
    ax.set_title(title or "Lift")
    return ax


def by_group(report: GroupReport, *, title: str | None = None) -> Figure:
    """Each column of a ``GroupReport`` as a dot per group (its interval as a bar, when the
    report has them), the overall value as a dashed line: one panel per measure, in a Figure.

    Args:
        report: a ``GroupReport`` (``ByGroup.report(...)``).
        title: the figure's title.
    """
    from evalkit._engine._labels import OVERALL

    if not (hasattr(report, "groups") and hasattr(report, "values") and hasattr(report, "titles")):
        raise InvalidTypeError(f"expected a GroupReport (ByGroup.report(...)), got {show(report)}")
    groups = [key for key in report.groups if key is not OVERALL]
    figure = Figure(figsize=(3.2 * len(report.measures) + 1.2, 0.32 * len(groups) + 1.6), layout="constrained")
    axes = figure.subplots(1, len(report.measures), sharey=True, squeeze=False)[0]
    positions = np.arange(len(groups))[::-1]
    for k, (ax, name) in enumerate(zip(axes, report.titles())):
        values = np.array([report.values[key][k] for key in groups], dtype=np.float64)
        found = [report.intervals[key][k] if report.intervals else None for key in groups]
        lows = np.array([np.nan if item is None else item.low for item in found])
        highs = np.array([np.nan if item is None else item.high for item in found])
        small = np.array([key in report.small for key in groups])
        if np.isfinite(lows).any():
            ax.hlines(positions, lows, highs, color="C0", linewidth=2)
        ax.scatter(values[~small], positions[~small], color="C0", zorder=3)
        ax.scatter(values[small], positions[small], facecolor="white", edgecolor="C0", zorder=3, label="small group" if small.any() else None)
        overall = report.values[OVERALL][k]
        if np.isfinite(overall):
            ax.axvline(overall, color="grey", linestyle="--", linewidth=1, label="overall")
        ax.set_title(name)
        ax.margins(x=0.15)
        ax.grid(axis="x", alpha=0.3)
    axes[0].set_yticks(positions, [report._label(key) for key in groups])
    axes[0].legend(fontsize=8, loc="best")
    figure.suptitle(title or f"by {' × '.join(report.names)}")
    return figure


def critical_difference(comparison: ModelComparison, alpha: float = 0.05, test: str = "nemenyi", *, ax: Axes | None = None,
                        title: str | None = None) -> Axes:  # fmt: skip
    """Demšar's critical-difference diagram of a ``ModelComparison``: the models on an axis of
    average ranks (1, the best, on the left), a bar of the critical difference above, and thick
    bars joining the models not significantly different (``ModelComparison.cliques``).

    Examples:
        >>> from evalkit import ModelComparison
        >>> comparison = ModelComparison([[0.9, 0.8, 0.7], [0.8, 0.7, 0.6], [0.7, 0.8, 0.5]], models=["a", "b", "c"])
        >>> critical_difference(comparison).get_title()
        'Nemenyi critical difference 1.91 at alpha 0.05 (3 data sets)'
    """
    from evalkit.comparisons._comparison import ModelComparison

    if not isinstance(comparison, ModelComparison):
        raise InvalidTypeError(f"expected a ModelComparison, got {show(comparison)}")
    cd = comparison.critical_difference(alpha, test)
    order = np.argsort(comparison.ranks, kind="stable")
    ranks, k = comparison.ranks[order], len(order)
    cliques = comparison.cliques(alpha, test)
    ax = _axes(ax, 7.0, 1.6 + 0.28 * k)
    low, high = 1, k
    ax.set_xlim(low - 0.6, high + 0.6)
    ax.set_ylim(-(k // 2 + 1.5) - 0.3 * len(cliques), 1.4)
    ax.hlines(0, low, high, color="k", linewidth=1)
    for tick in range(low, high + 1):
        ax.vlines(tick, 0, 0.12, color="k", linewidth=1)
        ax.annotate(str(tick), (tick, 0.2), ha="center", fontsize=8)
    ax.hlines(1.0, low, low + cd, color="k", linewidth=1.5)  # the critical difference
    ax.annotate(f"CD = {cd:.2f}", (low + cd / 2, 1.1), ha="center", fontsize=8)
    half = (k + 1) // 2
    for position, (index, rank) in enumerate(zip(order, ranks)):
        left = position < half
        row = -(position + 1) if left else -(k - position)
        end = low - 0.4 if left else high + 0.4
        ax.plot([rank, rank, end], [0, row, row], color="k", linewidth=0.8)
        ax.annotate(f"{comparison.models[index]} ({rank:.2f})", (end, row), ha="right" if left else "left", va="center",
                    xytext=(-3 if left else 3, 0), textcoords="offset points", fontsize=8)  # fmt: skip
    for depth, clique in enumerate(cliques):
        positions = [float(comparison.ranks[comparison.models.index(model)]) for model in clique]
        ax.hlines(-0.35 - 0.25 * depth, min(positions) - 0.03, max(positions) + 0.03, color="C3", linewidth=3)
    ax.axis("off")
    name = {"nemenyi": "Nemenyi", "bonferroni-dunn": "Bonferroni-Dunn"}[test]
    ax.set_title(title or f"{name} critical difference {cd:.2f} at alpha {alpha:g} ({len(comparison.datasets)} data sets)")
    return ax


def p_values(tests: PairwiseTests, *, ax: Axes | None = None, alpha: float = 0.05, title: str | None = None) -> Axes:
    """The matrix of adjusted p-values of a ``PairwiseTests`` as a heat map, each cell written,
    the significant ones (at most ``alpha``) in bold."""
    from evalkit.comparisons._comparison import PairwiseTests

    if not isinstance(tests, PairwiseTests):
        raise InvalidTypeError(f"expected a PairwiseTests, got {show(tests)}")
    k = len(tests.models)
    ax = _axes(ax, 1.1 * k + 2.0, 1.0 * k + 1.2)
    shown = np.where(np.eye(k, dtype=bool), np.nan, tests.p_values)
    image = ax.imshow(shown, cmap="viridis_r", vmin=0.0, vmax=1.0)
    ax.figure.colorbar(image, ax=ax, label="adjusted p-value")
    names = [str(model) for model in tests.models]
    ax.set_xticks(range(k), names, rotation=45, ha="right", fontsize=_font_size(ax, k))
    ax.set_yticks(range(k), names, fontsize=_font_size(ax, k))
    for i in range(k):
        for j in range(k):
            if i != j:
                ax.annotate(f"{tests.p_values[i, j]:.3f}", (j, i), ha="center", va="center", fontsize=8,
                            fontweight="bold" if tests.p_values[i, j] <= alpha else "normal",
                            color="white" if tests.p_values[i, j] > 0.5 else "black")  # fmt: skip
    ax.set_title(title or f"{tests.test} ({tests.correction})")
    return ax


def posterior(found: BayesianComparison, *, names: Sequence[str] = ("first", "second"), ax: Axes | None = None, title: str | None = None) -> Axes:
    """The posterior of a sampled ``BayesianComparison`` (signed-rank or sign test) in the
    triangle of ``(θ_first, θ_equivalent, θ_second)`` (Benavoli et al. 2017, figure 5): each
    corner is a region certain, the lines split the triangle where one region is the largest."""
    from evalkit.comparisons._bayesian import BayesianComparison

    if not isinstance(found, BayesianComparison) or found.samples is None:
        raise InvalidTypeError(f"expected a sampled BayesianComparison (signed-rank or sign test), got {show(found)}")
    corners = np.array([[0.0, 0.0], [0.5, np.sqrt(3) / 2], [1.0, 0.0]])  # first, equivalent, second
    points = found.samples[:, :3] @ corners
    ax = _axes(ax, 5.0, 4.6)
    ax.plot(*np.vstack([corners, corners[:1]]).T, color="k", linewidth=1)
    centre = corners.mean(axis=0)
    for a, b in ((0, 1), (1, 2), (0, 2)):
        ax.plot(*np.array([centre, (corners[a] + corners[b]) / 2]).T, color="grey", linewidth=0.8, linestyle=":")
    shown = points[:: max(1, len(points) // 5000)]
    ax.scatter(shown[:, 0], shown[:, 1], s=2, alpha=0.3, color="C0", rasterized=True)
    labels = [f"{names[0]} better\n{found.first:.3f}", f"equivalent\n{found.equivalent:.3f}", f"{names[1]} better\n{found.second:.3f}"]
    for corner, label, offset in zip(corners, labels, ((-10, -22), (0, 8), (10, -22))):
        ax.annotate(label, corner, textcoords="offset points", xytext=offset, ha="center", fontsize=8)
    ax.set_aspect("equal")
    ax.set_xlim(-0.15, 1.15)
    ax.set_ylim(-0.15, 1.05)  # room for the corners' labels under the title
    ax.axis("off")
    ax.set_title(title or f"Bayesian {found.method} test, rope {found.rope:g}")
    return ax


def residuals(y_true: TargetsLike, y_pred: TargetsLike, *, ax: Axes | None = None, title: str | None = None) -> Axes:
    """A regressor's residuals ``y - p`` against its predictions ``p``, one colour per output,
    with the zero line: a pattern (a funnel, a curve) is what the model misses.

    Raises:
        InvalidTypeError, InvalidValueError: targets that are not finite numbers.
        InputLengthError, InputShapeError: targets of other lengths or outputs.
    """
    y, p = target_pair(y_true, y_pred)
    ax = _axes(ax, 5.6, 4.2)
    for j in range(y.shape[1]):
        ax.scatter(p[:, j], y[:, j] - p[:, j], s=8, alpha=0.5, label=f"output {j}" if y.shape[1] > 1 else None)
    ax.axhline(0.0, color="grey", linestyle=":", linewidth=1)
    ax.set(xlabel="predicted", ylabel="residual (true - predicted)")
    if y.shape[1] > 1:
        ax.legend(fontsize=8)
    ax.set_title(title or "Residuals against predictions")
    return ax


def predicted_vs_actual(y_true: TargetsLike, y_pred: TargetsLike, *, ax: Axes | None = None, title: str | None = None) -> Axes:
    """A regressor's predictions against the true values, one colour per output, with the
    diagonal of perfect predictions and R² in the legend.

    Raises:
        InvalidTypeError, InvalidValueError: targets that are not finite numbers.
        InputLengthError, InputShapeError: targets of other lengths or outputs.
    """
    y, p = target_pair(y_true, y_pred)
    ax = _axes(ax, 5.2, 5.2)
    for j in range(y.shape[1]):
        total = float(np.sum((y[:, j] - y[:, j].mean()) ** 2))
        r2 = 1 - float(np.sum((y[:, j] - p[:, j]) ** 2)) / total if total else float("nan")
        ax.scatter(y[:, j], p[:, j], s=8, alpha=0.5, label=f"{f'output {j}: ' if y.shape[1] > 1 else ''}R² {r2:.3f}")
    low, high = float(min(y.min(), p.min())), float(max(y.max(), p.max()))
    ax.plot([low, high], [low, high], linestyle=":", color="grey", linewidth=1)
    ax.set(xlabel="true value", ylabel="predicted")
    ax.legend(fontsize=8, loc="upper left")
    ax.set_title(title or "Predicted against true values")
    return ax


moved_names.publish("evalkit.plots", globals(), __all__)  # the face that gives these names, named so where they are defined
