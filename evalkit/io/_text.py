"""The Java-style text of results: Deep Netts' table of a confusion matrix (its ``toString``).

Registers the rendering ``"matrix_text"`` that ``str(ConfusionMatrix)`` calls.

Examples:
    >>> from evalkit import ConfusionMatrix
    >>> print(matrix_text(ConfusionMatrix.from_predictions(["a", "b"], ["a", "a"])))
    Confusion Matrix [actual, predicted]
              |        a |        b |
    ---------------------------------
            a |        1 |        0 |
            b |        1 |        0 |
"""

from __future__ import annotations

from typing import Any

from evalkit._engine._labels import label_text
from evalkit._results.confusion_matrix import MAX_LABEL_WIDTH
from evalkit._results.rendering import renders

__all__ = ["matrix_text"]

_MIN_CELL_WIDTH = 7  # the Java table pads every cell to max(7, longest label) + 2


def _shortened(name: str) -> str:
    return name if len(name) <= MAX_LABEL_WIDTH else name[: MAX_LABEL_WIDTH - 1] + "…"


@renders("matrix_text")
def matrix_text(matrix: Any) -> str:
    """The Deep Netts v4.0 table of a matrix: ``Confusion Matrix [actual, predicted]``, a header
    of the labels (shortened beyond ``MAX_LABEL_WIDTH``), one row per actual class, cells
    ending ``" |"``."""
    counts, labels = matrix._snapshot()
    names = [_shortened(label_text(label)) for label in labels]
    width = max([_MIN_CELL_WIDTH, *map(len, names)]) + 2
    header = "".join(f"{cell:>{width}} |" for cell in ["", *names])
    lines = ["Confusion Matrix [actual, predicted]", header, "-" * ((len(names) + 1) * (width + 2))]
    for name, row in zip(names, counts.tolist()):
        lines.append("".join(f"{cell:>{width}} |" for cell in [name, *row]))
    return "\n".join(lines)
