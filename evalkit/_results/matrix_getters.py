"""The Java getters of a confusion matrix (Deep Netts' ``ConfusionMatrix``): one class's
one-vs-rest counts by index or label, the accuracy of the whole matrix and the per-class
correlation coefficient of the protein-function study.

A mixin of ``ConfusionMatrix`` (``evalkit._results.confusion_matrix``), its public face.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

import numpy as np

from evalkit._engine._validation import check_index, show
from evalkit._engine.cells import confusion_class_cells
from evalkit.exceptions import InvalidArgumentError, NotBinaryError
from evalkit.measures import _formulas as formulas

if TYPE_CHECKING:
    from evalkit._results.tally import Tally

__all__ = ["MatrixGetters"]

class MatrixGetters:
    """One class's counts and the whole matrix's accuracy, read as Deep Netts reads them."""

    __slots__ = ()

    if TYPE_CHECKING:  # what ConfusionMatrix, which mixes this in, has
        _counts: np.ndarray
        _labels: tuple
        _lock: threading.RLock
        _tally: Tally | None

        def _current_total(self) -> int | float: ...
        def index_of(self, label: Hashable) -> int: ...
        def get_total_items(self) -> int | float: ...

    def _class_index(self, class_idx: Any, label: Hashable | None = None) -> int:
        """The index of a class given by index (an int), by label (anything else, or ``label=``
        for integer labels), or, with neither, the positive class of a two-class matrix."""
        if label is not None:
            if class_idx is not None:
                raise InvalidArgumentError("give the class by index or by 'label', not both")
            return self.index_of(label)
        if class_idx is not None:
            if isinstance(class_idx, (int, np.integer)) and not isinstance(class_idx, (bool, np.bool_)):
                return check_index("class_idx", class_idx, len(self._labels))
            return self.index_of(class_idx)
        if len(self._labels) != 2:
            raise NotBinaryError(
                f"without 'class_idx' the counts are those of the positive class (index 1) of a two-class "
                f"matrix; this matrix has {len(self._labels)} classes {show(list(self._labels))}: pass class_idx"
            )
        return 1

    def get_true_positive(self, class_idx: Any = None, *, label: Hashable | None = None) -> int | float:
        """Samples of class ``class_idx`` predicted as that class: ``x_kk`` (a float for weighted counts).

        The class is an index, a label (``cm.get_true_positive("dog")``; ``label=`` for integer labels),
        or, with neither, the positive class (index 1) of a two-class matrix.
        """
        k = self._class_index(class_idx, label)
        return self._counts[k, k].item()

    def get_false_positive(self, class_idx: Any = None, *, label: Hashable | None = None) -> int | float:
        """Samples of other classes predicted as ``class_idx``: column ``k`` without the diagonal.

        The class is an index, a label (``cm.get_false_positive("dog")``; ``label=`` for integer labels),
        or, with neither, the positive class (index 1) of a two-class matrix.
        """
        k = self._class_index(class_idx, label)
        if self._counts.dtype.kind == "f":
            return confusion_class_cells(self._counts, k, self._current_total())[1]
        return (self._counts[:, k].sum() - self._counts[k, k]).item()

    def get_false_negative(self, class_idx: Any = None, *, label: Hashable | None = None) -> int | float:
        """Samples of class ``class_idx`` predicted as another class: row ``k`` without the diagonal.

        The class is an index, a label (``cm.get_false_negative("dog")``; ``label=`` for integer labels),
        or, with neither, the positive class (index 1) of a two-class matrix.
        """
        k = self._class_index(class_idx, label)
        if self._counts.dtype.kind == "f":
            return confusion_class_cells(self._counts, k, self._current_total())[2]
        return (self._counts[k, :].sum() - self._counts[k, k]).item()

    def get_true_negative(self, class_idx: Any = None, *, label: Hashable | None = None) -> int | float:
        """Samples neither of nor predicted as ``class_idx``: every cell outside row and column ``k``
        (the class by index or label, as for ``get_true_positive``).

        (Deep Netts returns cell ``[0][0]`` for every class; this is the correct count.) Float
        (weighted) counts are summed from those cells, never as ``total - row - column + x_kk``,
        which loses a small class's count beside one of 1e16.
        """
        k = self._class_index(class_idx, label)
        x = self._counts
        if x.dtype.kind == "f":
            return confusion_class_cells(x, k, self._current_total())[3]
        return self.get_total_items() - (int(x[k, :].sum()) + int(x[:, k].sum()) - int(x[k, k]))  # (Python ints: row + column may pass 2**63)

    def get_accuracy(self) -> float:
        """Accuracy of the whole matrix: ``trace / total`` (the share of correct predictions); NaN when empty."""
        lock = self._lock
        lock.acquire()  # the trace and the total of one state of the counts (not `with`: half the cost, on every read of a stream)
        try:
            if self._tally is not None:  # a stream: its running sums
                return self._tally.accuracy()
            x = self._counts
            if x.dtype.kind == "i":  # integer counts: the trace is at most the total, which fits int64 (counting refuses more)
                return float(formulas.ratio(int(x.trace()), self._current_total()))
            return formulas.matrix_accuracy(x)
        finally:
            lock.release()

    def get_correlation_coefficient(self, class_idx: Any = None, *, label: Hashable | None = None) -> float:
        """The per-class correlation coefficient of the protein-function study's table for ``class_idx``.

        MCC with the true negatives taken as the other classes' diagonal (see
        ``evalkit.formulas.diagonal_correlation_coefficient``).
        """
        k = self._class_index(class_idx, label)
        return float(formulas.diagonal_correlation_coefficient(self._counts)[k])
