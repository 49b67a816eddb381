"""The small example data sets bundled with evalkit (the first is used by the ``evalkit`` command)."""

from __future__ import annotations

import csv
from importlib import resources
from pathlib import Path

from evalkit._engine import moved_names
from evalkit.comparisons._comparison import ModelComparison

__all__ = [
    "COMPARISON_EXAMPLE_NAME",
    "EXAMPLE_NAME",
    "MANY_DATASETS_EXAMPLE_NAME",
    "NEIGHBORHOOD_EXAMPLE_NAME",
    "example_path",
    "load_comparison",
    "load_example",
    "load_many_datasets",
]

EXAMPLE_NAME = "iris_predictions.csv"
"""A prediction log over the three iris classes: 150 samples, columns sample, actual, predicted.

It is illustrative (the predictions were written to show a realistic confusion between
versicolor and virginica), not the output of a published model.
"""


NEIGHBORHOOD_EXAMPLE_NAME = "neighborhood_table1.csv"
"""Table 1 of the neighborhood-system paper ("New perspective on the classification accuracy
based on neighborhood system") as label sets (``|``-separated): columns element, ideal, method_1, method_2."""


COMPARISON_EXAMPLE_NAME = "spam_two_models.csv"
"""Two spam filters on the same 400 messages: columns message, actual, predicted_a,
predicted_b, score_a, score_b (``spam`` or ``ham``; scores are the probability of spam, and
each prediction is its score thresholded at 0.5). Simulated, for comparing classifiers."""


MANY_DATASETS_EXAMPLE_NAME = "demsar_auc.csv"
"""Table 6 of Demšar (2006), "Statistical comparisons of classifiers over multiple data sets":
the AUC of four variants of C4.5 (C4.5, C4.5+m, C4.5+cf, C4.5+m+cf) on 14 UCI data sets, as
printed (three decimals; on voting the paper ranks C4.5+cf above C4.5+m+cf, which the printed
0.975 and 0.975 tie)."""


def example_path(name: str = EXAMPLE_NAME) -> Path:
    """The path of a bundled example file (by default the iris prediction log)."""
    return Path(str(resources.files("evalkit.io") / "data" / name))


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


def load_comparison() -> dict[str, list]:
    """The bundled comparison of two spam filters as columns: ``actual``, ``predicted_a``,
    ``predicted_b`` (labels) and ``score_a``, ``score_b`` (floats).

    Examples:
        >>> data = load_comparison()
        >>> len(data["actual"]), data["predicted_a"][:2], data["score_b"][:2]
        (400, ['ham', 'spam'], [0.4754, 0.6904])
    """
    with example_path(COMPARISON_EXAMPLE_NAME).open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    columns: dict[str, list] = {name: [row[name] for row in rows] for name in ("actual", "predicted_a", "predicted_b")}
    for name in ("score_a", "score_b"):
        columns[name] = [float(row[name]) for row in rows]
    return columns


def load_many_datasets() -> ModelComparison:
    """Demšar's table as a ``ModelComparison`` (AUC: higher is better).

    Examples:
        >>> comparison = load_many_datasets()
        >>> comparison.models, len(comparison.datasets), comparison.ranks.round(3).tolist()
        (('C4.5', 'C4.5+m', 'C4.5+cf', 'C4.5+m+cf'), 14, [3.143, 2.0, 2.929, 1.929])
    """
    return ModelComparison.from_csv(example_path(MANY_DATASETS_EXAMPLE_NAME), measure="roc_auc")


moved_names.publish("evalkit.datasets", globals(), __all__)  # the face that gives these names, named so where they are defined
