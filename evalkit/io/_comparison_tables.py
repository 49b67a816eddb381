"""Tables of comparisons of many models as text: ``ModelComparison.table()`` and
``PairwiseTests.to_text()`` give them now (the table model of every report); the functions
of this module call them, for the code that used them.

Examples:
    >>> from evalkit import ModelComparison
    >>> comparison = ModelComparison({"a": [0.9, 0.8, 0.7], "b": [0.8, 0.8, 0.6]}, datasets=["x", "y", "z"])
    >>> comparison_table(comparison, "text", 2) == comparison.table("text", 2)
    True
"""

from __future__ import annotations

from typing import Any

__all__ = ["comparison_table", "p_value_matrix"]


def comparison_table(comparison: Any, format: str, digits: int = 3) -> str:
    """The table of a ``ModelComparison`` in ``format`` (``"text"``, ``"markdown"``, ``"latex"``)."""
    return str(comparison.table(format, digits))


def p_value_matrix(tests: Any, format: str, digits: int = 4) -> str:
    """The adjusted p-values of a ``PairwiseTests``, one row and column per model."""
    return str(tests.to_markdown(digits) if format == "markdown" else tests.to_text(digits))
