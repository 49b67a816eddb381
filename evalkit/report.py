"""Text reports: a per-class table with micro, macro and weighted averages."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from evalkit import formulas
from evalkit.confusion_matrix import ConfusionMatrix

__all__ = ["DEFAULT_MEASURES", "classification_report"]

DEFAULT_MEASURES = ("precision", "recall", "f1_score", "specificity", "matthews_correlation_coefficient")
"""The columns of a report unless others are asked for."""

_UNDEFINED = "undef"


def _header(name: str) -> str:
    measure = formulas.get_measure(name)
    short = {"f1_score": "f1-score", "matthews_correlation_coefficient": "mcc"}
    return short.get(measure.name, measure.abbreviation.lower() if len(measure.name) > 12 else measure.name)


def _cell(value: float, digits: int) -> str:
    return _UNDEFINED if math.isnan(value) else f"{value:.{digits}f}"


def classification_report(
    matrix: ConfusionMatrix,
    *,
    measures: Sequence[str] = DEFAULT_MEASURES,
    digits: int = 3,
    undefined: Any = "exclude",
) -> str:
    """A per-class table of ``measures`` with support, the three class averages, and the
    whole-matrix accuracy, Cohen's kappa and multi-class MCC.

    Undefined values show as ``undef``; averages follow ``undefined`` (see
    :mod:`evalkit.averaging`).

    Examples:
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
    headers = [_header(name) for name in measures] + ["support"]
    support = matrix.cells().support.tolist()
    rows: list[tuple[str, list[str]]] = []
    columns = [matrix.per_class(name) for name in measures]
    for k, label in enumerate(matrix.labels):
        rows.append((str(label), [_cell(column[k], digits) for column in columns] + [str(support[k])]))
    rows.append(("", []))
    total = str(matrix.get_total_items())
    for average in ("micro", "macro", "weighted"):
        values = [_cell(matrix.average(name, average, undefined=undefined), digits) for name in measures]
        rows.append((f"{average} avg", values + [total]))
    rows.append(("", []))
    rows.append(("accuracy", [_cell(matrix.get_accuracy(), digits)]))
    rows.append(("cohen kappa", [_cell(matrix.get_cohen_kappa(), digits)]))
    rows.append(("mcc", [_cell(matrix.get_matthews_correlation_coefficient(), digits)]))

    name_width = max(len(name) for name, _ in rows) + 2
    widths = [max(len(header), digits + 3, *(len(cells[i]) for _, cells in rows if len(cells) > i)) for i, header in enumerate(headers)]
    lines = [" " * name_width + "  ".join(f"{header:>{width}}" for header, width in zip(headers, widths))]
    for name, cells in rows:
        line = f"{name:<{name_width}}" + "  ".join(f"{cell:>{width}}" for cell, width in zip(cells, widths))
        lines.append(line.rstrip())
    return "\n".join(lines)
