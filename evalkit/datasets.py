"""The small example data set bundled with evalkit (used by the ``evalkit`` command)."""

from __future__ import annotations

import csv
from importlib import resources
from pathlib import Path

__all__ = ["EXAMPLE_NAME", "NEIGHBORHOOD_EXAMPLE_NAME", "example_path", "load_example"]

EXAMPLE_NAME = "iris_predictions.csv"
"""A prediction log over the three iris classes: 150 samples, columns sample, actual, predicted.

It is illustrative (the predictions were written to show a realistic confusion between
versicolor and virginica), not the output of a published model.
"""


NEIGHBORHOOD_EXAMPLE_NAME = "neighborhood_table1.csv"
"""Table 1 of the neighborhood-system paper ("New perspective on the classification accuracy
based on neighborhood system") as label sets (``|``-separated): columns element, ideal, method_1, method_2."""


def example_path(name: str = EXAMPLE_NAME) -> Path:
    """The path of a bundled example file (by default the iris prediction log)."""
    return Path(str(resources.files("evalkit") / "data" / name))


def load_example() -> tuple[list[str], list[str]]:
    """The bundled example as ``(actual, predicted)`` label lists.

    Examples:
        >>> actual, predicted = load_example()
        >>> len(actual), sorted(set(actual))
        (150, ['setosa', 'versicolor', 'virginica'])
    """
    with example_path().open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return [row["actual"] for row in rows], [row["predicted"] for row in rows]
