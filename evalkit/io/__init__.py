"""Files in and reports out: the readers the command line uses, and the report objects.

Readers of CSV, JSON Lines and Parquet files in batches (``read_batches``, ``read_labels``),
``restore_numbers`` for strict JSON read back, the limits of the JSON documents read
(``limits``, ``current_limits``), and the reports every result gives, each written by one table model (``Table``) (``Report`` of one result, ``GroupReport`` of a result by
group, ``CoverageReport`` of coverage, ``OverTime`` of a window's history), each rendered as
text (``classification_report``), Markdown, CSV, JSON and HTML. Plots, displays and the bundled data sets have their own
faces (``evalkit.plots``, ``evalkit.displays``, ``evalkit.datasets``).

Examples:
    >>> import evalkit
    >>> from evalkit.io import build_report
    >>> cm = evalkit.ConfusionMatrix.from_predictions([0, 1, 1, 0], [0, 1, 0, 0])
    >>> build_report(cm, measures=["recall"]).to_dict()["classes"][1]
    {'recall': 0.5, 'support': 2}

May import: every layer below the faces' users: engine, measures, results, scores, groups and
the two faces. Importing ``_report`` registers the renderings that results delegate ``str()``,
``_repr_html_`` and ``report()`` to.
"""

from typing import TYPE_CHECKING

from evalkit._engine import moved_names
from evalkit._engine.serialization import Limits, current_limits, limits, restore_numbers
from evalkit._results.table import Table
from evalkit.io._over_time import OverTime
from evalkit.io._report import GroupReport, Report, build_report, classification_report, group_report

__all__ = [
    "Batch",
    "CoverageReport",
    "GroupReport",
    "Labels",
    "Limits",
    "OverTime",
    "Report",
    "Table",
    "build_report",
    "classification_report",
    "current_limits",
    "group_report",
    "limits",
    "read_batches",
    "read_labels",
    "restore_numbers",
]

if TYPE_CHECKING:  # imported on first use (_LAZY); named here for type checkers and the API reference
    from evalkit.io._coverage_report import CoverageReport
    from evalkit.io._readers import Batch, Labels, read_batches, read_labels

_LAZY = {"Batch": "evalkit.io._readers", "CoverageReport": "evalkit.io._coverage_report", "Labels": "evalkit.io._readers",
         "read_batches": "evalkit.io._readers", "read_labels": "evalkit.io._readers"}
"""Public names imported on first use: ``import evalkit`` does not read files."""

moved_names.publish(__name__, globals(), [name for name in __all__ if name not in _LAZY])

if not TYPE_CHECKING:  # the readers on first use; evalkit.io.readers and the other modules of 0.1.0, found with a warning
    __getattr__ = moved_names.finder(__name__, lazy=_LAZY)


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
