"""The shapes of data that annotations share, named once: labels, scores and counts.

``LabelsLike`` is what ``y_true`` and ``y_pred`` take (a list, numpy array, pandas Series, a
2-D indicator matrix, a scipy sparse matrix, or label sets); ``ScoresLike`` what ``y_score`` and
probabilities take; ``Count`` what the formulas compute on and give back (a Python number for
scalar counts, a float64 array for arrays of them).

Examples:
    >>> from evalkit._engine._types import Count
    >>> def share(part: Count, whole: Count) -> Count:
    ...     return part / whole
    >>> share(1, 4)
    0.25
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Mapping
from typing import Any, Protocol, TypeAlias, runtime_checkable

import numpy as np
from numpy.typing import ArrayLike


@runtime_checkable
class SparseMatrix(Protocol):
    """A scipy sparse matrix or array, as far as evalkit reads it (scipy is never imported for it)."""

    shape: tuple[int, ...]

    def toarray(self) -> np.ndarray: ...

    def tocsr(self) -> CompressedRows: ...


class CompressedRows(SparseMatrix, Protocol):
    """A sparse matrix in compressed-row form (what ``tocsr()`` gives)."""

    data: np.ndarray
    indices: np.ndarray
    indptr: np.ndarray

    def sum_duplicates(self) -> None: ...


LabelSets: TypeAlias = "Iterable[Collection[Hashable]]"
"""One collection of labels per sample (multi-label data as sets)."""

LabelsLike: TypeAlias = "ArrayLike | SparseMatrix | LabelSets"
"""Labels of samples: values, a 2-D indicator matrix (dense or sparse), or one label set per sample."""

ScoresLike: TypeAlias = ArrayLike
"""ScoresLike or probabilities of samples: a 1-D array, or 2-D with one column per class."""

GroupsLike: TypeAlias = "ArrayLike | Mapping[Any, ArrayLike]"
"""The group of every sample: one column (values), several (a 2-D array, a DataFrame, a list of
columns) or named columns (``{"region": [...], "age": [...]}``)."""

Count: TypeAlias = "float | np.ndarray"
"""A cell count or sum of weights (a Python number, exact for ints), or an array of them."""

TargetsLike: TypeAlias = ArrayLike
"""Numeric targets of a regressor: 1-D (one output), or 2-D with one column per output."""

MultioutputLike: TypeAlias = "str | ArrayLike"
"""How the outputs of a regressor are combined: ``"raw_values"``, ``"uniform_average"``,
``"variance_weighted"``, or one weight per output (scikit-learn's ``multioutput``)."""

OutputValues: TypeAlias = "float | np.ndarray"
"""A measure of a regressor: one number, or one per output (``multioutput="raw_values"``)."""

SetsLike: TypeAlias = "ArrayLike | LabelSets"
"""Prediction sets: a boolean (or 0/1) ``samples x classes`` membership array, one per
confidence level as ``samples x classes x levels`` where a function says so, or one collection
of labels per sample."""

IntervalsLike: TypeAlias = ArrayLike
"""Prediction intervals: ``samples x 2`` numbers (lower, upper), ``samples x 2 x levels`` where a
function says so (MAPIE's layout)."""

__all__ = [
    "CompressedRows", "Count", "GroupsLike", "IntervalsLike", "LabelSets", "LabelsLike", "MultioutputLike", "OutputValues", "ScoresLike", "SetsLike",
    "SparseMatrix", "TargetsLike",
]
