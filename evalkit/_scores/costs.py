"""CostMatrix: cost-sensitive evaluation, ``C_jk`` = cost of predicting ``k`` when the truth is ``j``.

The total cost of a set of predictions is the bilinear form ``σ1((A C)∘P) = Σ_jk C_jk CM_jk``
of the one-hot indicators, i.e. the cost matrix weighted by the confusion matrix. Three
standard matrices make familiar quantities:

* ``|j - k|`` (``CostMatrix.absolute``) gives ``n · MAE`` of ordinal levels,
* ``(j - k)²`` (``CostMatrix.squared``) gives ``n · MSE``,
* ``J - I`` (``CostMatrix.zero_one``) gives the number of errors.

Examples:
    >>> from evalkit import ConfusionMatrix
    >>> cm = ConfusionMatrix.from_predictions([1, 2, 3, 3], [1, 3, 1, 3])
    >>> CostMatrix.absolute([1, 2, 3]).mean(cm)  # mean absolute error: (0 + 1 + 2 + 0) / 4
    0.75
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from evalkit._engine import moved_names
from evalkit._engine._labels import check_label_list
from evalkit._engine._types import LabelsLike, ScoresLike
from evalkit._engine._validation import FieldEquality, show
from evalkit._engine.counting import encode
from evalkit._results.base import CellsResult
from evalkit.exceptions import InputShapeError, InvalidTypeError, InvalidValueError, LabelMismatchError

__all__ = ["CostMatrix"]


def _counts_of(confusion: Any) -> tuple[np.ndarray, tuple]:
    """The counts and labels of a ConfusionMatrix or of a single-label Evaluation."""
    if not isinstance(confusion, CellsResult):
        raise InvalidTypeError(f"expected a ConfusionMatrix or a single-label Evaluation, got {show(confusion)}")
    matrix = confusion.confusion_matrix()
    return matrix.to_array(), matrix.labels


@attrs.frozen(eq=False)
class CostMatrix(FieldEquality):
    """A square matrix of costs, rows actual and columns predicted, with its labels.

    Attributes:
        costs: float64 ``m x m`` costs (any finite values; negative costs are benefits).
        labels: the class labels of the rows and columns.
    """

    costs: np.ndarray = attrs.field(repr=False)
    labels: tuple = attrs.field()

    @classmethod
    def from_array(cls, costs: Any, labels: Sequence[Hashable] | None = None) -> CostMatrix:
        """A cost matrix from a square array (copied), labelled ``0 .. m-1`` by default.

        Raises:
            InputShapeError: not square, or labels of another length.
            InvalidValueError: a NaN or infinite cost.
        """
        try:
            array = np.array(costs, dtype=np.float64)
        except (TypeError, ValueError):
            raise InvalidTypeError(f"'costs' must be a square array of numbers, got {show(costs)}") from None
        if array.ndim != 2 or array.shape[0] != array.shape[1] or not array.size:
            raise InputShapeError(f"'costs' must be a non-empty square matrix, got shape {array.shape}")
        if not np.isfinite(array).all():
            raise InvalidValueError(f"'costs' must be finite, got {show(array)}")
        checked = tuple(range(len(array))) if labels is None else check_label_list(labels)
        if len(checked) != len(array):
            raise InputShapeError(f"'labels' has {len(checked)} labels but 'costs' has {len(array)} rows")
        array.flags.writeable = False
        return cls(array, checked)

    @classmethod
    def absolute(cls, levels: Sequence[Hashable]) -> CostMatrix:
        """``C_jk = |j - k|`` over ordered levels: total cost ``n · MAE`` (in level steps)."""
        positions = np.arange(len(levels), dtype=np.float64)
        return cls.from_array(np.abs(positions[:, None] - positions), levels)

    @classmethod
    def squared(cls, levels: Sequence[Hashable]) -> CostMatrix:
        """``C_jk = (j - k)²`` over ordered levels: total cost ``n · MSE`` (in level steps)."""
        positions = np.arange(len(levels), dtype=np.float64)
        return cls.from_array((positions[:, None] - positions) ** 2, levels)

    @classmethod
    def zero_one(cls, labels: Sequence[Hashable]) -> CostMatrix:
        """``C = J - I``: every error costs 1, so the total cost is the number of errors."""
        return cls.from_array(1.0 - np.eye(len(labels)), labels)

    def _aligned(self, confusion: Any) -> np.ndarray:
        counts, labels = _counts_of(confusion)
        if tuple(labels) != self.labels:
            raise LabelMismatchError(f"the confusion labels {show(list(labels))} are not the cost labels {show(list(self.labels))}")
        return counts

    def total(self, confusion: Any) -> float:
        """Total cost ``Σ_jk C_jk CM_jk`` of a ConfusionMatrix (or single-label Evaluation)."""
        return float((self.costs * self._aligned(confusion)).sum())

    def mean(self, confusion: Any) -> float:
        """Mean cost per sample (NaN for an empty matrix)."""
        counts = self._aligned(confusion)
        total = counts.sum()
        return float((self.costs * counts).sum() / total) if total else float("nan")

    def per_class(self, confusion: Any) -> np.ndarray:
        """Cost per actual class: ``Σ_k C_jk CM_jk`` for every row ``j``."""
        return (self.costs * self._aligned(confusion)).sum(axis=1)

    def per_sample(self, y_true: LabelsLike, y_pred: LabelsLike) -> np.ndarray:
        """Cost of every prediction: ``C[y_true_i, y_pred_i]``."""
        actual, predicted, _, _ = encode(y_true, y_pred, self.labels)
        return self.costs[actual, predicted]

    def expected_costs(self, probabilities: ScoresLike) -> np.ndarray:
        """The expected cost of each prediction for each sample, ``P C`` (``n x m``): row ``i``,
        column ``k`` is ``Σ_j p_ij C_jk``, the cost of predicting ``labels[k]`` when the classes
        have the sample's probabilities (columns in the order of ``labels``).

        Raises:
            InputShapeError: not ``n x m`` for the matrix's ``m`` classes.
            InvalidValueError: probabilities that are not finite numbers in [0, 1].
        """
        p = np.asarray(probabilities, dtype=np.float64)
        if p.ndim != 2 or p.shape[1] != len(self.labels):
            raise InputShapeError(f"'probabilities' must be n x {len(self.labels)} (one column per class of the costs), got shape {p.shape}")
        if p.size and not ((p >= 0) & (p <= 1)).all():
            raise InvalidValueError(f"'probabilities' must hold probabilities in [0, 1], got {show(p[~((p >= 0) & (p <= 1))][:3])}")
        return p @ self.costs

    def decide(self, probabilities: ScoresLike) -> list:
        """The Bayes decision: for every sample, the label whose expected cost under its
        probabilities is lowest, ``argmin_k Σ_j p_j C_jk`` (the first of tied labels). With
        ``CostMatrix.zero_one`` it is the most probable class.

        Examples:
            >>> costs = CostMatrix.from_array([[0, 1], [10, 0]], ["healthy", "ill"])  # missing an illness costs 10
            >>> costs.decide([[0.8, 0.2], [0.95, 0.05]])
            ['ill', 'healthy']
        """
        chosen = self.expected_costs(probabilities).argmin(axis=1)
        return [self.labels[k] for k in chosen.tolist()]


if not TYPE_CHECKING:  # the names this module gave in evalkit 0.1.0 and lost, found with a warning
    __getattr__ = moved_names.finder(__name__)
