"""The columns of a report: which numbers a column holds (a measure, a count, an area of
scores), how its cells are read from a result, why a cell is undefined, and how names and
cells are written.

evalkit.io._report is their public face (COUNTS, column_key, MATRIX_LIMIT).
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable, Sequence
from typing import Any

import attrs
import numpy as np

from evalkit._engine._labels import identity
from evalkit._engine._validation import show
from evalkit._results.base import CellsResult
from evalkit._scores.curves import AREA_SPELLINGS, AREAS
from evalkit.exceptions import (
    InvalidArgumentError,
    LabelMismatchError,
)
from evalkit.measures._averaging import (
    Averaged,
    UndefinedPolicy,
    average_cells,
    check_undefined,
    fill_undefined,
    mean_of,
    support_weights,
)
from evalkit.measures._registry import Measure, spelling

_SHORT = {"f1_score": "f1-score", "matthews_correlation_coefficient": "mcc", "f_score": "f-score"}


def _header(measure: Measure, asked: Any = None) -> str:
    """A column's title in every rendering: the short name of the measure, or of the alias it
    was asked for by (``tp_rate`` is headed ``tp rate``, not ``recall``)."""
    name = measure.name
    alias = spelling(asked) if isinstance(asked, str) else None
    if name not in _SHORT and alias and alias != name and alias in measure.aliases and len(alias) <= 12:
        return alias.replace("_", " ")
    return _SHORT.get(name, name if len(name) <= 12 else measure.abbreviation.lower() or name)


def _listed(items: Sequence[str], most: int = 5) -> str:
    """``a``, ``a and b``, ``a, b and c``; past ``most`` items, ``a, b, ... and 7 more``."""
    items = list(items)
    if len(items) > most:
        return f"{', '.join(items[:most])} and {len(items) - most} more"
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _key_part(label: Hashable) -> str:
    """A label as a part of a tracker's key: letters, digits, ``_ - .`` and spaces kept."""
    return re.sub(r"[^A-Za-z0-9_.\- ]", "_", str(label))


MATRIX_LIMIT = 100
"""The most classes whose confusion matrix a report holds (Markdown, JSON)."""


def _count_measure(name: str, title: str, function: Any) -> Measure:
    return Measure(name=name, function=function, title=title, direction=None, bounds=(0.0, math.inf))


COUNTS = {
    measure.name: measure
    for measure in (
        _count_measure("support", "Support", lambda *, tp, fp, fn, tn: tp + fn),
        _count_measure("true_positive", "True positives", lambda *, tp, fp, fn, tn: tp),
        _count_measure("false_positive", "False positives", lambda *, tp, fp, fn, tn: fp),
        _count_measure("false_negative", "False negatives", lambda *, tp, fp, fn, tn: fn),
        _count_measure("true_negative", "True negatives", lambda *, tp, fp, fn, tn: tn),
    )
}
"""Count columns of a report (Tribuo's and Weka's tables show them): per class the count, the
micro row the total, the macro row the mean, the weighted row the support-weighted mean."""


_COUNT_SPELLINGS = {"tp": "true_positive", "fp": "false_positive", "fn": "false_negative", "tn": "true_negative", "n": "support"}


@attrs.frozen
class _Column:
    """One column of a report: its values per class (label order) and in each average row."""

    name: str
    header: str
    per_class: np.ndarray
    averages: dict[str, Any]
    measure: Measure | None = None  # a measure of the cells (intervals and sorting read it)
    direction: str | None = "higher"
    count: bool = False
    undefined_reasons: dict = attrs.field(factory=dict)  # label: why its value is undefined, where the reason is not 0/0
    also: tuple = ()  # the names it was asked for by (two names of one measure make one column)


def _columns(source: CellsResult, measures: Sequence[Any], metrics_class: type[Any] | None, curve: Any, undefined: UndefinedPolicy) -> list[_Column]:
    kinds = source.report_averages()
    cells = source.class_cells  # computed once for every column
    curves: dict[str, Any] = {}  # the curve of every class and its micro curve, built once for every area column
    columns: list[_Column] = []
    for asked in measures:
        key = column_key(asked)
        if key == "support":  # every report ends with the support column
            continue
        if key in AREAS:
            if not any(column.name == key for column in columns):
                columns.append(_area_column(source, key, curve, kinds, undefined, curves))
            continue
        measure: Measure = COUNTS[key] if key in COUNTS else source.measure(asked, metrics_class)
        twice = next((column for column in columns if column.measure is not None and column.measure.name == measure.name
                      and column.measure.function is measure.function), None)  # fmt: skip
        if twice is not None:  # one measure asked for by two names: one column, and a note says so
            object.__setattr__(twice, "also", (*twice.also, asked if isinstance(asked, str) else measure.name))
            continue
        per_sample = source.sample_cells if "samples" in kinds else None
        averages = {kind: average_cells(measure, cells, kind, undefined=undefined, per_sample=per_sample) for kind in kinds}
        values = cells.evaluate(measure)
        per_class = fill_undefined(values, undefined)  # the policy's 0 or 1 shows in the class rows too
        columns.append(_Column(measure.name, _header(measure, asked), per_class, averages, measure, measure.direction, key in COUNTS,
                               _reasons(source.labels, np.isnan(values), cells), (asked if isinstance(asked, str) else measure.name,)))  # fmt: skip
    return columns


def _reasons(labels: Sequence[Any], undefined: np.ndarray, cells: Any) -> dict[Any, str]:
    """Why each undefined value of a column is undefined: its class has no actual sample or is
    never predicted (a 0/0 of the cells either way)."""
    reasons = {}
    for k in np.flatnonzero(undefined).tolist():
        actual, predicted = cells.tp[k] + cells.fn[k], cells.tp[k] + cells.fp[k]
        reasons[labels[k]] = "0/0: no actual sample" if actual == 0 else "0/0: never predicted" if predicted == 0 else "0/0"
    return reasons


def column_key(asked: Any) -> str:
    """A column's name as ``COUNTS`` and ``AREAS`` spell it (``"tp"`` is ``"true_positive"``,
    ``"auc"`` is ``"roc_auc"``); other names come back spelled as measure names are.

    Examples:
        >>> column_key("TP"), column_key("AUC"), column_key("F1Score")
        ('true_positive', 'roc_auc', 'f1_score')
    """
    if not isinstance(asked, str):
        return ""
    key = spelling(asked)
    return AREA_SPELLINGS.get(key, _COUNT_SPELLINGS.get(key, key))


def _area_column(source: CellsResult, name: str, curve: Any, kinds: tuple[str, ...], undefined: UndefinedPolicy, curves: dict[str, Any]) -> _Column:
    """ROC AUC or average precision of every class, from the curve of the source's scores
    (``curves`` keeps the curve of every class and the micro curve for the next area column).
    The curve may know a class the report does not show (the negative class of binary scores
    whose data hold positives only); the macro and weighted rows average the report's classes."""
    if curve is None:
        raise InvalidArgumentError(f"the column {name!r} is an area of scores: give the report curve=ThresholdCurve.from_scores(...) of the same data")
    classes = curves["classes"] = curves.get("classes") or curve.one_vs_rest()
    labels = tuple(source.labels)
    known = {identity(label): k for k, label in enumerate(classes.labels)}
    positions = [known.get(identity(label), -1) for label in labels]
    if -1 in positions:
        raise LabelMismatchError(f"the curve's classes {show(list(classes.labels))} are not the report's {show(list(labels))}")
    area = classes.roc_auc if name == "roc_auc" else classes.average_precision
    per_class = np.asarray(area(average=None) if len(classes.labels) > 1 else [area()], dtype=np.float64)[positions]
    positives, negatives = classes.positives[positions], classes.negatives[positions]
    averages = {}
    policy = check_undefined(undefined)
    for kind in kinds:
        if kind == "samples":  # an area per sample over its labels is not kept by a curve
            averages[kind] = Averaged(math.nan, n_values=0, n_defined=0)
        elif kind == "micro":
            micro = curves["micro"] = curves.get("micro") or classes.micro()
            value = float((micro.roc_auc if name == "roc_auc" else micro.average_precision)())
            averages[kind] = Averaged(value, n_values=1, n_defined=int(not math.isnan(value)))
        else:
            weights = support_weights(per_class, positives, policy) if kind == "weighted" else None
            averages[kind] = mean_of(per_class, weights, undefined=policy)
    reasons = {label: "no actual sample" if p == 0 else "every sample is of the class: no negative" if n == 0 and name == "roc_auc" else ""
               for label, p, n in zip(labels, positives, negatives)}  # fmt: skip
    return _Column(name, AREAS[name], per_class, averages, undefined_reasons={label: why for label, why in reasons.items() if why})
