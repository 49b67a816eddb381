"""ConfusionMatrix: counts of (actual, predicted) pairs, the Deep Netts class done right."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from evalkit import formulas, serialization
from evalkit._labels import check_label_list, describe
from evalkit._validation import as_count_matrix, check_index, show
from evalkit.averaging import CellsResult
from evalkit.cells import Cells, cells_from_confusion, one_hot_sample_cells
from evalkit.counting import confusion_counts
from evalkit.exceptions import (
    EmptyInputError,
    FormatError,
    InputShapeError,
    LabelMismatchError,
    NotBinaryError,
    UnknownLabelError,
)

__all__ = ["ConfusionMatrix"]

_MIN_CELL_WIDTH = 7  # the Java table pads every cell to max(7, longest label) + 2


class ConfusionMatrix(CellsResult):
    """Counts of (actual, predicted) label pairs; rows are actual classes, columns predicted.

    Unlike the other evalkit objects a ConfusionMatrix is mutable, on purpose: like the Java
    class, it is filled as predictions arrive, one at a time with ``inc`` or in batches
    with ``update``. It is therefore not hashable.

    Construction:
        ``ConfusionMatrix(labels)`` (empty, Java style), ``from_predictions``,
        ``from_array``.
    Counting:
        ``inc``, ``update``, ``+`` / ``+=`` (merge two matrices with the same labels).
    Reading:
        ``get``, ``get_class_count``, ``get_class_labels``, ``labels``,
        ``get_total_items``, ``index_of``, ``to_array`` (read-only view).
    Per-class counts (one-vs-rest; no argument = the positive class of a two-class matrix):
        ``get_true_positive``, ``get_false_positive``, ``get_false_negative``,
        ``get_true_negative``, ``cells`` (all classes at once).
    Whole-matrix measures:
        ``get_accuracy``, ``get_cohen_kappa``,
        ``get_matthews_correlation_coefficient``, ``get_correlation_coefficient``.
    Any binary measure per class or averaged:
        ``per_class``, ``average`` (``"micro"``, ``"macro"``, ``"weighted"``,
        ``"samples"``).

    Examples:
        >>> cm = ConfusionMatrix.from_predictions(
        ...     ["cat", "cat", "dog", "dog", "dog"], ["cat", "dog", "dog", "dog", "cat"])
        >>> print(cm)
        Confusion Matrix [actual, predicted]
                  |      cat |      dog |
        ---------------------------------
              cat |        1 |        1 |
              dog |        1 |        2 |
        >>> cm.get_accuracy()
        0.6
        >>> cm.average("f1_score", "macro")
        0.5833333333333333
    """

    __slots__ = ("_counts", "_index", "_labels", "_total")
    __hash__ = None  # type: ignore[assignment]  # mutable

    def __init__(self, labels: Sequence[Hashable]) -> None:
        """An empty matrix for ``labels`` (any hashable values, kept in the given order).

        Raises:
            EmptyInputError: no labels.
            DuplicateLabelError, InvalidLabelError, MixedLabelTypesError: bad labels.
        """
        checked = check_label_list(labels)
        if not checked:
            raise EmptyInputError("'labels' is empty: a confusion matrix needs at least one class")
        self._set(np.zeros((len(checked), len(checked)), dtype=np.int64), checked)

    def _set(self, counts: np.ndarray, labels: tuple) -> None:
        self._counts = counts
        self._labels = labels
        self._index = {label: position for position, label in enumerate(labels)}
        self._total = int(counts.sum())

    @classmethod
    def _trusted(cls, counts: np.ndarray, labels: tuple) -> ConfusionMatrix:
        matrix = cls.__new__(cls)
        matrix._set(counts, labels)
        return matrix

    @classmethod
    def from_predictions(cls, y_true: Any, y_pred: Any, labels: Sequence[Hashable] | None = None) -> ConfusionMatrix:
        """Count actual and predicted labels.

        Args:
            y_true: actual labels, one per sample (list, tuple or numpy array).
            y_pred: predicted labels, as many as ``y_true``.
            labels: the label order. By default the sorted union of the observed labels; an
                explicit list fixes the order and may include labels that never occur.

        Raises:
            InputLengthError: the lengths differ.
            InputShapeError: 2-D input (indicator rows or label sets are multi-label data).
            InvalidLabelError: None or NaN among the labels.
            MixedLabelTypesError: strings mixed with non-strings (``1`` and ``"1"``).
            UnknownLabelError: a label outside an explicit ``labels`` list.
            EmptyInputError: no samples and no ``labels``.

        Examples:
            >>> ConfusionMatrix.from_predictions([1, 0, 1], [1, 1, 1], labels=[0, 1, 2]).to_array()
            array([[0, 1, 0],
                   [0, 2, 0],
                   [0, 0, 0]])
        """
        counts, checked = confusion_counts(y_true, y_pred, labels)
        return cls._trusted(counts, checked)

    @classmethod
    def from_array(cls, counts: Any, labels: Sequence[Hashable] | None = None) -> ConfusionMatrix:
        """A matrix holding a copy of ``counts`` (rows actual, columns predicted).

        Args:
            counts: a square array of non-negative whole numbers.
            labels: one label per row; by default ``0 .. m-1``.

        Raises:
            InputShapeError: not square, or ``labels`` of another length.
            InvalidCountsError: negative, fractional or non-finite counts.

        Examples:
            >>> ConfusionMatrix.from_array([[50, 10], [5, 35]], ["negative", "positive"]).get_total_items()
            100
        """
        array = as_count_matrix("counts", counts)
        if len(array) == 0:
            raise EmptyInputError("'counts' is empty: a confusion matrix needs at least one class")
        checked = tuple(range(len(array))) if labels is None else check_label_list(labels)
        if len(checked) != len(array):
            raise InputShapeError(f"'labels' has {len(checked)} labels but 'counts' has {len(array)} rows: {show(list(checked))}")
        return cls._trusted(array, checked)

    # ----------------------------------------------------------------------------------------
    # counting

    def inc(self, actual_idx: int, predicted_idx: int) -> None:
        """Add one sample of actual class ``actual_idx`` predicted as ``predicted_idx``.

        Raises:
            ClassIndexError: an index outside ``0 .. m-1`` (negative indexes never wrap).
        """
        m = len(self._labels)
        self._counts[check_index("actual_idx", actual_idx, m), check_index("predicted_idx", predicted_idx, m)] += 1
        self._total += 1

    def update(self, y_true: Any, y_pred: Any, *, grow: bool = False) -> None:
        """Add a batch of actual and predicted labels.

        The batch is validated before anything is added, so a bad batch changes nothing.

        Args:
            y_true: actual labels.
            y_pred: predicted labels.
            grow: with False (the default) every label must be one of ``labels``; with
                True, labels the matrix does not have yet are appended (sorted among
                themselves), so a stream can start before every label has been seen.

        Raises:
            UnknownLabelError: a label this matrix does not have (``grow=False``); and the
                errors of ``from_predictions``.

        Examples:
            >>> cm = ConfusionMatrix(["a"])
            >>> cm.update(["a", "c"], ["b", "c"], grow=True)
            >>> cm.labels, cm.to_array().tolist()
            (('a', 'b', 'c'), [[0, 1, 0], [0, 0, 0], [0, 0, 1]])
        """
        if not grow:
            batch, _ = confusion_counts(y_true, y_pred, self._labels)
            self._counts += batch
            self._total += int(batch.sum())
            return
        batch, found = confusion_counts(y_true, y_pred)
        new = [label for label in found if label not in self._index]
        grown = self.with_labels((*self._labels, *new)) if new else self
        positions = [grown._index[label] for label in found]
        grown._counts[np.ix_(positions, positions)] += batch
        self._set(grown._counts, grown._labels)

    def with_labels(self, labels: Sequence[Hashable]) -> ConfusionMatrix:
        """A new matrix over ``labels``: every label of this matrix, in any order, plus new
        ones (with zero counts). Two matrices with different labels merge as
        ``a.with_labels(union) + b.with_labels(union)``.

        Raises:
            UnknownLabelError: ``labels`` leaves out a label of this matrix.
        """
        checked = check_label_list(labels)
        index = {label: position for position, label in enumerate(checked)}
        missing = [label for label in self._labels if label not in index]
        if missing:
            raise UnknownLabelError(f"'labels' leaves out {describe(missing[0])}, a label of this matrix: {show(list(checked))}")
        positions = [index[label] for label in self._labels]
        counts = np.zeros((len(checked), len(checked)), dtype=np.int64)
        counts[np.ix_(positions, positions)] = self._counts
        return type(self)._trusted(counts, checked)

    def __add__(self, other: object) -> ConfusionMatrix:
        """A new matrix with the counts of both; the labels must be the same, in the same order."""
        if not isinstance(other, ConfusionMatrix):
            return NotImplemented
        self._check_same_labels(other)
        return type(self)._trusted(self._counts + other._counts, self._labels)

    def __iadd__(self, other: object) -> ConfusionMatrix:
        """Add the counts of ``other`` (same labels, same order) to this matrix."""
        if not isinstance(other, ConfusionMatrix):
            return NotImplemented
        self._check_same_labels(other)
        self._counts += other._counts
        self._total += other._total
        return self

    def _check_same_labels(self, other: ConfusionMatrix) -> None:
        if self._labels != other._labels:
            raise LabelMismatchError(
                f"cannot merge matrices with different labels: {show(list(self._labels))} and {show(list(other._labels))}"
            )

    def copy(self) -> ConfusionMatrix:
        """An independent copy."""
        return type(self)._trusted(self._counts.copy(), self._labels)

    # ----------------------------------------------------------------------------------------
    # reading

    @property
    def labels(self) -> tuple:
        """The class labels, in row (and column) order."""
        return self._labels

    def get(self, actual_idx: int, predicted_idx: int) -> int:
        """The count of samples of actual class ``actual_idx`` predicted as ``predicted_idx``."""
        m = len(self._labels)
        return int(self._counts[check_index("actual_idx", actual_idx, m), check_index("predicted_idx", predicted_idx, m)])

    def get_class_count(self) -> int:
        """The number of classes ``m``."""
        return len(self._labels)

    def get_class_labels(self) -> list:
        """The class labels as a new list (Java's ``getClassLabels``)."""
        return list(self._labels)

    def get_total_items(self) -> int:
        """The number of counted samples."""
        return self._total

    def index_of(self, label: Hashable) -> int:
        """The row (and column) index of ``label``.

        Raises:
            UnknownLabelError: the matrix has no such label.
        """
        try:
            return self._index[label]
        except (KeyError, TypeError):
            raise UnknownLabelError(f"{describe(label)} is not a label of this matrix: {show(list(self._labels))}") from None

    def to_array(self) -> np.ndarray:
        """A read-only view of the counts (int64, rows actual, columns predicted)."""
        view = self._counts.view()
        view.flags.writeable = False
        return view

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ConfusionMatrix):
            return NotImplemented
        return self._labels == other._labels and np.array_equal(self._counts, other._counts)

    # ----------------------------------------------------------------------------------------
    # per-class counts (one-vs-rest)

    def _class_index(self, class_idx: int | None) -> int:
        if class_idx is not None:
            return check_index("class_idx", class_idx, len(self._labels))
        if len(self._labels) != 2:
            raise NotBinaryError(
                f"without 'class_idx' the counts are those of the positive class (index 1) of a two-class "
                f"matrix; this matrix has {len(self._labels)} classes {show(list(self._labels))}: pass class_idx"
            )
        return 1

    def get_true_positive(self, class_idx: int | None = None) -> int:
        """Samples of class ``class_idx`` predicted as that class: ``x_kk``."""
        k = self._class_index(class_idx)
        return int(self._counts[k, k])

    def get_false_positive(self, class_idx: int | None = None) -> int:
        """Samples of other classes predicted as ``class_idx``: column ``k`` without the diagonal."""
        k = self._class_index(class_idx)
        return int(self._counts[:, k].sum() - self._counts[k, k])

    def get_false_negative(self, class_idx: int | None = None) -> int:
        """Samples of class ``class_idx`` predicted as another class: row ``k`` without the diagonal."""
        k = self._class_index(class_idx)
        return int(self._counts[k, :].sum() - self._counts[k, k])

    def get_true_negative(self, class_idx: int | None = None) -> int:
        """Samples neither of nor predicted as ``class_idx``: every cell outside row and column ``k``.

        (Deep Netts returns cell ``[0][0]`` for every class; this is the correct count.)
        """
        k = self._class_index(class_idx)
        x = self._counts
        return int(self._total - x[k, :].sum() - x[:, k].sum() + x[k, k])

    def cells(self) -> Cells:
        """The one-vs-rest cells of every class at once (``tp, fp, fn, tn`` arrays)."""
        return self.class_cells

    # ----------------------------------------------------------------------------------------
    # whole-matrix measures

    def get_accuracy(self) -> float:
        """Accuracy of the whole matrix: ``trace / total`` (the share of correct predictions); NaN when empty."""
        return formulas.matrix_accuracy(self._counts)

    def get_cohen_kappa(self) -> float:
        """Cohen's kappa of the whole matrix (see ``evalkit.formulas.matrix_cohen_kappa``)."""
        return formulas.matrix_cohen_kappa(self._counts)

    def get_matthews_correlation_coefficient(self) -> float:
        """Multi-class MCC of the whole matrix (see ``evalkit.formulas.matrix_matthews_correlation_coefficient``)."""
        return formulas.matrix_matthews_correlation_coefficient(self._counts)

    def get_correlation_coefficient(self, class_idx: int) -> float:
        """The per-class correlation coefficient of seed 003 for ``class_idx``.

        MCC with the true negatives taken as the other classes' diagonal (see
        ``evalkit.formulas.diagonal_correlation_coefficient``).
        """
        k = check_index("class_idx", class_idx, len(self._labels))
        return float(formulas.diagonal_correlation_coefficient(self._counts)[k])

    # ----------------------------------------------------------------------------------------
    # the averaging face (per_class and average come from CellsResult)

    @property
    def class_cells(self) -> Cells:
        """The one-vs-rest cells of every class (as ``cells()``)."""
        return cells_from_confusion(self._counts)

    @property
    def sample_cells(self) -> Cells:
        """Per-sample cells: right samples ``(1, 0, 0, m-1)`` and wrong ones ``(0, 1, 1, m-2)``, weighted by their counts."""
        correct = self._counts.trace()
        return Cells(*one_hot_sample_cells(len(self._labels))[:2].rows(), weight=[correct, self._total - correct])

    @property
    def n_samples(self) -> int | float:
        """The number of counted samples (``get_total_items``)."""
        return self._total

    def whole_measures(self) -> dict[str, float]:
        """Accuracy, Cohen's kappa and MCC of the whole matrix (for reports)."""
        return {
            "accuracy": self.get_accuracy(),
            "cohen_kappa": self.get_cohen_kappa(),
            "matthews_correlation_coefficient": self.get_matthews_correlation_coefficient(),
        }

    def confusion_matrix(self) -> ConfusionMatrix:
        """This matrix (every result answers ``confusion_matrix()``)."""
        return self

    # ----------------------------------------------------------------------------------------
    # JSON

    def to_json(self) -> str:
        """The matrix as an evalkit JSON document (labels and counts)."""
        return serialization.dumps("ConfusionMatrix", {"labels": list(self._labels), "counts": self._counts.tolist()})

    @classmethod
    def from_json(cls, text: str | bytes) -> ConfusionMatrix:
        """Read a matrix written by ``to_json``.

        Raises:
            FormatError: the text is no valid ConfusionMatrix document.
        """
        document = serialization.loads(text, "ConfusionMatrix")
        labels = serialization.label_list(document, "labels")
        if not labels:
            raise FormatError("field 'labels' is empty")
        counts = serialization.matrix(serialization.field(document, "counts"), "counts", rows=len(labels), columns=len(labels))
        return cls._trusted(counts, labels)

    # ----------------------------------------------------------------------------------------
    # text

    def __repr__(self) -> str:
        return f"{type(self).__name__}(labels={list(self._labels)!r}, total={self._total})"

    def __str__(self) -> str:
        """The Deep Netts v4.0 table: ``Confusion Matrix [actual, predicted]``, cells ending ``" |"``."""
        names = [str(label) for label in self._labels]
        width = max([_MIN_CELL_WIDTH, *map(len, names)]) + 2
        header = "".join(f"{cell:>{width}} |" for cell in ["", *names])
        lines = ["Confusion Matrix [actual, predicted]", header, "-" * ((len(names) + 1) * (width + 2))]
        for name, row in zip(names, self._counts.tolist()):
            lines.append("".join(f"{cell:>{width}} |" for cell in [name, *row]))
        return "\n".join(lines)
