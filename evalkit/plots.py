"""Plots (the optional ``plot`` extra: ``pip install "evalkit[plot]"``).

matplotlib is imported when this module is, never by ``import evalkit``. The functions draw on
a given matplotlib ``Axes`` or on a new figure (made without pyplot, so no GUI backend is
needed) and return the ``Axes``; save with ``ax.figure.savefig("file.png")``.

* ``confusion_matrix``: a heatmap of counts, or of rates normalised by row (actual),
  column (predicted) or the whole matrix; labelled axes; readable for 30+ classes.
* ``per_class``: bars of chosen measures for every class.
* ``compare``: two classifiers side by side: per-class measures of two matrices or
  evaluations, or AA, RAR and the example-based measures of two neighborhood results.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from evalkit._validation import check_choice, show
from evalkit.averaging import CellsResult
from evalkit.exceptions import InvalidTypeError
from evalkit.neighborhood import NeighborhoodAccuracy

__all__ = ["compare", "confusion_matrix", "per_class"]

NORMALIZATIONS = (None, "true", "pred", "all")


def _axes(ax: Axes | None, width: float, height: float) -> Axes:
    if ax is not None:
        return ax
    return Figure(figsize=(width, height), layout="constrained").add_subplot()


def _font_size(ax: Axes, count: int) -> float:
    """A tick font that fits ``count`` labels along the Axes' shorter side."""
    figure = ax.figure
    box = ax.get_position()
    side = min(figure.get_figwidth() * box.width, figure.get_figheight() * box.height) * 72
    return float(np.clip(side / max(count, 1) * 0.55, 5, 10))


def confusion_matrix(
    source: Any,
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
    labels = [str(label) for label in matrix.labels]
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
            text = "" if np.isnan(value) else (f"{value:.2f}" if normalize else f"{int(value)}")
            ax.text(j, i, text, ha="center", va="center", fontsize=font * 0.9, color="white" if value > threshold else "black")
    return ax


def per_class(
    source: Any,
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
    labels = [str(label) for label in source.labels]
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
    first: Any,
    second: Any,
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
    if isinstance(first, NeighborhoodAccuracy):
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
    if tuple(first.labels) != tuple(second.labels):
        raise InvalidTypeError("the two classifiers must have the same labels to be compared class by class")
    labels = [str(label) for label in first.labels]
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
