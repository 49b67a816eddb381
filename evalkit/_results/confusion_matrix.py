"""ConfusionMatrix: counts of (actual, predicted) pairs, the Deep Netts class done right."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike, DTypeLike

from evalkit._engine import moved_names, serialization
from evalkit._engine._exact import (
    cancels,
    difference,
    equal_counts,
    exact_remainders,
    exact_table,
    in_units,
    rounded_counts,
    weighted_sum,
)
from evalkit._engine._labels import check_label_list, check_same_family, describe, label_union, same_labels
from evalkit._engine._pair_counts import PairCounts
from evalkit._engine._types import LabelsLike
from evalkit._engine._validation import as_count_matrix, check_choice, check_index, show
from evalkit._engine.cells import Cells, cells_from_confusion, one_hot_sample_cells
from evalkit._engine.counting import confusion_counts
from evalkit._results._matrix_updates import MatrixUpdates
from evalkit._results.base import CellsResult
from evalkit._results.counted import ALL_OPERATIONS, CountedState
from evalkit._results.matrix_counts import cells_of
from evalkit._results.matrix_getters import MatrixGetters
from evalkit._results.rendering import ReportFace, render
from evalkit._results.tally import TALLIED, Tally, tallied
from evalkit.exceptions import (
    EmptyInputError,
    EvalkitError,
    FormatError,
    InputShapeError,
    LabelMismatchError,
    MatrixSizeError,
    UnknownLabelError,
)
from evalkit.measures._averaging import Averaged, UndefinedPolicy
from evalkit.measures._metrics_class import (
    MetricsClass,
    check_metrics_class,
    default_metrics_class,
    merged_metrics_class,
)
from evalkit.measures._plugins import metrics_class_field, read_metrics_class
from evalkit.measures._registry import Measure, MeasureLike

__all__ = ["ConfusionMatrix"]



class ConfusionMatrix(MatrixUpdates, CountedState, MatrixGetters, CellsResult, ReportFace):  # (the in-place counting first: its revert is this kind's)
    """Counts of (actual, predicted) label pairs; rows are actual classes, columns predicted.

    Unlike the other evalkit objects a ConfusionMatrix is mutable, on purpose: like the Java
    class, it is filled as predictions arrive, one at a time with ``inc`` or in batches
    with ``update``. It is therefore not hashable.

    Construction:
        ``ConfusionMatrix(labels)`` (empty, Java style), ``ConfusionMatrix()`` (empty, its
        labels joining as they come, as River's), ``from_predictions``, ``from_array``.
    Counting:
        ``inc``, ``update``, ``+`` / ``+=`` (merge two matrices with the same labels, in any
        order; a matrix made without labels takes in new ones).
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
        ``"samples"``), ``interval``, ``class_metrics``; names are looked up in the
        matrix's ``metrics_class`` (``ClassificationMetrics`` unless another is given), so
        a subclass's getters are measures here too.

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

    DOCUMENT = "ConfusionMatrix"

    __slots__ = ()  # the state is MatrixCounts' slots
    __hash__ = None  # type: ignore[assignment]  # mutable

    max_cells: ClassVar[int] = 1 << 26
    """The most cells (``m * m``) a dense matrix may have: 67,108,864 (512 MiB of int64 counts,
    8,192 classes). More raise ``MatrixSizeError`` before anything is allocated; set
    ``ConfusionMatrix.max_cells`` higher to allow more, or use ``Evaluation.from_labels``,
    which counts per-class cells without a dense table."""

    def __init__(self, labels: Sequence[Hashable] | None = None, *, metrics_class: MetricsClass | None = None) -> None:
        """An empty matrix for ``labels`` (any hashable values, kept in the given order), or
        with no labels yet: each label a batch or a merge brings joins it (appended, a batch's
        new labels sorted among themselves), as River's confusion matrix grows.

        Args:
            labels: the classes; ``None``: none yet, every label joins as it comes.
            metrics_class: the ``ClassificationMetrics`` subclass whose getters are this
                matrix's measures (default ``ClassificationMetrics``).

        Raises:
            EmptyInputError: an empty list of labels.
            DuplicateLabelError, InvalidLabelError, MixedLabelTypesError: bad labels.
            MatrixSizeError: more than ``max_cells`` cells.

        Examples:
            >>> cm = ConfusionMatrix()
            >>> cm.update(["cat"], ["dog"])
            >>> cm.update(["bird"], ["bird"])
            >>> cm.labels, cm.get_accuracy()
            (('cat', 'dog', 'bird'), 0.5)
        """
        checked = () if labels is None else check_label_list(labels)
        if labels is not None and not checked:
            raise EmptyInputError("'labels' is empty: a confusion matrix needs at least one class (or none given: ConfusionMatrix() takes them as they come)")
        self.check_size(len(checked))
        self._set(np.zeros((len(checked), len(checked)), dtype=np.int64), checked, check_metrics_class(metrics_class), grows=labels is None)

    @classmethod
    def _trusted(cls, counts: np.ndarray, labels: tuple, metrics_class: MetricsClass | None = None, grows: bool = False,
                 exact: dict[int, int] | None = None, low: np.ndarray | None = None) -> ConfusionMatrix:  # fmt: skip
        """A matrix of checked ``counts``: whole (int64) or float counts, and for float counts,
        ``low``, what their rounding left, and ``exact``, the exact sums of the cells whose rest
        is no float (``evalkit._engine._exact``), by key ``row << 32 | column``."""
        matrix = cls.__new__(cls)
        matrix._set(counts, labels, metrics_class or default_metrics_class(), low, exact, grows)
        return matrix

    def _like(self, counts: np.ndarray, labels: tuple, metrics_class: MetricsClass | None = None, low: np.ndarray | None = None,
              exact: dict[int, int] | None = None) -> ConfusionMatrix:  # fmt: skip
        """A matrix of ``counts`` (their rests ``low`` and ``exact`` sums) with this one's kind, metrics class and growth."""
        return type(self)._trusted(counts, labels, metrics_class or self._metrics_class, self._grows, exact, low)

    def __reduce__(self) -> tuple:
        """Pickle (and copy) as counts (with the rests of float counts), labels, metrics class
        and growth; the lock is made anew."""
        counts, low, exact, labels = self._exact_snapshot()
        return (type(self)._trusted, (counts, labels, self._metrics_class, self._grows, exact, low))

    @property
    def metrics_class(self) -> MetricsClass:
        """The ``ClassificationMetrics`` class (or subclass) whose getters are this matrix's measures."""
        return self._metrics_class

    @classmethod
    def check_size(cls, m: int) -> None:
        """Raise ``MatrixSizeError`` if an ``m x m`` matrix would exceed ``max_cells``."""
        if m * m > cls.max_cells:
            raise MatrixSizeError(
                f"a dense confusion matrix of {m} labels needs {m * m:,} cells, more than the {cls.max_cells:,} allowed "
                f"(ConfusionMatrix.max_cells); Evaluation.from_labels counts per-class cells without it"
            )

    @classmethod
    def from_predictions(
        cls, y_true: LabelsLike, y_pred: LabelsLike, labels: Sequence[Hashable] | None = None, *, sample_weight: ArrayLike | None = None,
        metrics_class: MetricsClass | None = None,
    ) -> ConfusionMatrix:  # fmt: skip
        """Count actual and predicted labels.

        Args:
            y_true: actual labels, one per sample (list, tuple or numpy array).
            y_pred: predicted labels, as many as ``y_true``.
            labels: the label order. By default the sorted union of the observed labels; an
                explicit list fixes the order and may include labels that never occur.
            sample_weight: one finite weight >= 0 per sample (scikit-learn's name): integer
                weights give integer counts (as many as repeating each sample), float
                weights float counts.
            metrics_class: the ``ClassificationMetrics`` subclass whose getters are the
                matrix's measures (default ``ClassificationMetrics``).

        Raises:
            InputLengthError: the lengths differ.
            InputShapeError: 2-D input (indicator rows or label sets are multi-label data).
            InvalidLabelError: None or NaN among the labels.
            MixedLabelTypesError: strings mixed with non-strings (``1`` and ``"1"``), or
                booleans with numbers.
            UnknownLabelError: a label outside an explicit ``labels`` list.
            EmptyInputError: no samples and no ``labels``.
            InvalidArgumentError: a negative or non-finite weight.
            MatrixSizeError: more than ``max_cells`` cells.

        Examples:
            >>> ConfusionMatrix.from_predictions([1, 0, 1], [1, 1, 1], labels=[0, 1, 2]).to_array()
            array([[0, 1, 0],
                   [0, 2, 0],
                   [0, 0, 0]])
            >>> ConfusionMatrix.from_predictions([1, 0, 1], [1, 1, 1], sample_weight=[0.5, 2, 1]).to_array()
            array([[0. , 2. ],
                   [0. , 1.5]])
        """
        maker = check_metrics_class(metrics_class)
        counts, checked = confusion_counts(y_true, y_pred, labels, sample_weight=sample_weight, max_cells=cls.max_cells)
        return cls._trusted(counts, checked, maker)

    @classmethod
    def from_array(
        cls, counts: ArrayLike, labels: Sequence[Hashable] | None = None, *, metrics_class: MetricsClass | None = None
    ) -> ConfusionMatrix:
        """A matrix holding a copy of ``counts`` (rows actual, columns predicted).

        Args:
            counts: a square array of non-negative counts: integers (exact, up to a total of
                2**63 - 1), or floats (weighted counts).
            labels: one label per row; by default ``0 .. m-1``.
            metrics_class: the ``ClassificationMetrics`` subclass whose getters are the
                matrix's measures (default ``ClassificationMetrics``).

        Raises:
            InputShapeError: not square, or ``labels`` of another length.
            InvalidCountsError: negative or non-finite counts.
            CountOverflowError: counts whose total passes 2**63 - 1 (never wrapped).

        Examples:
            >>> ConfusionMatrix.from_array([[50, 10], [5, 35]], ["negative", "positive"]).get_total_items()
            100
        """
        maker = check_metrics_class(metrics_class)
        array = as_count_matrix("counts", counts)
        if len(array) == 0:
            raise EmptyInputError("'counts' is empty: a confusion matrix needs at least one class")
        checked = tuple(range(len(array))) if labels is None else check_label_list(labels)
        if len(checked) != len(array):
            raise InputShapeError(f"'labels' has {len(checked)} labels but 'counts' has {len(array)} rows: {show(list(checked))}")
        return cls._trusted(array, checked, maker)

    # ----------------------------------------------------------------------------------------
    # counting: every change is made under the matrix's lock, so threads may count together

    def with_labels(self, labels: Sequence[Hashable]) -> ConfusionMatrix:
        """A new matrix over ``labels``: every label of this matrix, in any order, plus new
        ones (with zero counts). Two matrices with different labels merge as
        ``a.with_labels(union) + b.with_labels(union)``.

        Raises:
            UnknownLabelError: ``labels`` leaves out a label of this matrix.
            MatrixSizeError: more than ``max_cells`` cells.
        """
        checked = check_label_list(labels)
        self.check_size(len(checked))
        own, own_low, own_exact, own_labels = self._exact_snapshot()
        check_same_family(checked, own_labels, ("labels", "this matrix"))
        index = {label: position for position, label in enumerate(checked)}
        missing = [label for label in own_labels if label not in index]
        if missing:
            raise UnknownLabelError(f"'labels' leaves out {describe(missing[0])}, a label of this matrix: {show(list(checked))}")
        counts, low, exact = _laid(own, own_low, own_exact, [index[label] for label in own_labels], len(checked))
        return self._like(counts, checked, low=low, exact=exact)

    OPERATIONS = ALL_OPERATIONS
    EXACT_SUMS = True  # whole counts, and float counts added and taken away exactly: a part taken away leaves no rounding

    def merge(self, other: ConfusionMatrix, *, grow: bool = False) -> ConfusionMatrix:
        """A new matrix with the counts of both (also ``self + other``).

        Args:
            other: another matrix.
            grow: with False (the default) every label of ``other`` must be one of this
                matrix's (in any order: the result keeps this matrix's), unless this matrix was
                made without labels; with True, labels of ``other`` that this matrix lacks are
                appended.

        Raises:
            LabelMismatchError: different labels and ``grow=False``.

        Examples:
            >>> a = ConfusionMatrix.from_predictions(["x", "y"], ["x", "x"], labels=["x", "y"])
            >>> b = ConfusionMatrix.from_predictions(["y"], ["y"], labels=["y", "x"])
            >>> (a + b).labels, (a + b).to_array().tolist()
            (('x', 'y'), [[1, 0], [1, 1]])
        """
        self._check_kind(other, "merge")
        if grow and not same_labels(self.labels, other.labels):
            union = label_union(self.labels, other.labels, ("this matrix", "other"))
            return self.with_labels(union).merge(other.with_labels(union))
        result = self.copy()
        result += other
        return result

    def _subtract(self, other: ConfusionMatrix) -> ConfusionMatrix:
        """The counts of this matrix without those of ``other`` (labels that are all this
        matrix's, in any order)."""
        rest = self.copy()
        rest -= other
        return rest

    def _scaled(self, factor: float) -> ConfusionMatrix:
        """Every count as read (correctly rounded) times ``factor``, rounded: new weights, exact as floats."""
        counts, labels = self._snapshot()
        return self._like(counts * factor, labels)

    def empty(self) -> ConfusionMatrix:
        """A matrix over the same labels, with the same metrics class (and growth), and no counts."""
        return self._like(np.zeros((len(self._labels), len(self._labels)), dtype=np.int64), self._labels)

    def __isub__(self, other: object) -> ConfusionMatrix:  # noqa: PYI034 (typing.Self needs Python 3.11)
        """Take away the counts of ``other``, a part added before (same labels, same order), in
        place; a part never added is an ``InvalidCountsError`` and changes nothing."""
        if not isinstance(other, ConfusionMatrix):
            return NotImplemented
        self._require("subtract")
        theirs, their_low, their_exact = self._over_mine(other, "take away")
        with self._lock:
            if self._counts.dtype.kind != "f" and theirs.dtype.kind != "f":
                self._counts[...] = difference(self._counts, theirs, "pairs of labels")
            else:
                if self._counts.dtype.kind != "f":
                    self._grown(self._labels, floats=True)
                rows, columns = cells_of(theirs, their_exact)
                self._add_floats(rows, columns, theirs[rows, columns], None if their_low is None else their_low[rows, columns], their_exact, sign=-1)
            self._total = None
            self._tally_after_table()
            self._metrics_class = merged_metrics_class(self._metrics_class, other._metrics_class)
        return self

    def __iadd__(self, other: object) -> ConfusionMatrix:  # noqa: PYI034 (typing.Self needs Python 3.11)
        """Add the counts of ``other`` (same labels, same order) to this matrix; the metrics
        class becomes the more specific of the two (see ``merged_metrics_class``)."""
        if not isinstance(other, ConfusionMatrix):
            return NotImplemented
        counts, low, exact, labels = other._exact_snapshot()
        if not self._grows:
            self._check_labels_in(labels, self._labels, "merge")
        metrics_class = merged_metrics_class(self._metrics_class, other._metrics_class)
        self._add(counts, labels, low=low, exact=exact)
        self._metrics_class = metrics_class
        return self

    def _over_mine(self, other: ConfusionMatrix, operation: str) -> tuple[np.ndarray, np.ndarray | None, dict[int, int]]:
        """The counts of ``other``, their rests and exact sums laid over this matrix's labels,
        which must hold all of its labels."""
        counts, low, exact, labels = other._exact_snapshot()
        mine = self._labels
        if same_labels(mine, labels):
            return counts, low, exact
        self._check_labels_in(labels, mine, operation)
        index = {label: position for position, label in enumerate(mine)}
        return _laid(counts, low, exact, [index[label] for label in labels], len(mine))

    def _check_labels_in(self, labels: tuple, mine: tuple, operation: str) -> None:
        """Every one of ``labels`` is a label of this matrix (``mine``), or a
        ``LabelMismatchError`` that says how to join them."""
        if not same_labels(mine, labels) and (len(labels) > len(mine) or any(self._position(label) is None for label in labels)):
            raise LabelMismatchError(
                f"cannot {operation} matrices with different labels: {show(list(mine))} and {show(list(labels))}; "
                "a.merge(b, grow=True) joins their labels (a matrix made as ConfusionMatrix() joins them itself)"
            )

    def with_metrics_class(self, metrics_class: MetricsClass) -> ConfusionMatrix:
        """A copy of this matrix with another metrics class (whose getters become its measures)."""
        counts, low, exact, labels = self._exact_snapshot()
        return self._like(counts, labels, check_metrics_class(metrics_class), low, exact)

    def copy(self) -> ConfusionMatrix:
        """An independent copy."""
        counts, low, exact, labels = self._exact_snapshot()
        return self._like(counts, labels, low=low, exact=exact)

    # ----------------------------------------------------------------------------------------
    # reading

    @property
    def labels(self) -> tuple:
        """The class labels, in row (and column) order."""
        return self._labels

    def get(self, actual_idx: int, predicted_idx: int) -> int | float:
        """The count of samples of actual class ``actual_idx`` predicted as ``predicted_idx``
        (the sum of their weights, a float, for a weighted matrix).

        Examples:
            >>> ConfusionMatrix.from_predictions(["a", "b"], ["a", "a"], sample_weight=[0.5, 1.5]).get(1, 0)
            1.5
        """
        m = len(self._labels)
        count: int | float = self._counts[check_index("actual_idx", actual_idx, m), check_index("predicted_idx", predicted_idx, m)].item()
        return count

    def get_class_count(self) -> int:
        """The number of classes ``m``: Java's ``getClassCount``, an alias of ``len(labels)``."""
        return len(self._labels)

    def get_class_labels(self) -> list:
        """The class labels as a new list: Java's ``getClassLabels``, an alias of ``labels``."""
        return list(self._labels)

    def get_total_items(self) -> int | float:
        """The number of counted samples (the sum of their weights, for a weighted matrix):
        Java's ``getTotalItems``, whose Python name is ``n_samples``."""
        with self._lock:  # summed and kept under the lock: a reader never leaves a stale total
            return self._current_total()

    def index_of(self, label: Hashable) -> int:
        """The row (and column) index of ``label``.

        Raises:
            UnknownLabelError: the matrix has no such label.
        """
        position = self._position(label)
        if position is None:
            raise UnknownLabelError(f"{describe(label)} is not a label of this matrix: {show(list(self._labels))}")
        return position

    def to_array(self, normalize: str | None = None) -> np.ndarray:
        """The counts (rows actual, columns predicted): a read-only copy (int64, or float64 for
        weighted counts), or with ``normalize`` a new float array of rates, as scikit-learn's
        ``confusion_matrix(normalize=...)``: ``"true"`` (each actual row sums to 1),
        ``"pred"`` (each predicted column sums to 1), ``"all"`` (the whole matrix sums to 1);
        an empty row or column gives zeros.

        Examples:
            >>> ConfusionMatrix.from_array([[3, 1], [0, 0]]).to_array("true").tolist()
            [[0.75, 0.25], [0.0, 0.0]]
        """
        if normalize is None:
            counts = self._snapshot()[0]  # a copy: counts read later by another thread's update never change under it
            counts.flags.writeable = False
            return counts
        check_choice("normalize", normalize, ("true", "pred", "all"))
        counts = self._snapshot()[0].astype(np.float64)
        totals = {"true": counts.sum(axis=1, keepdims=True), "pred": counts.sum(axis=0, keepdims=True), "all": counts.sum()}[normalize]
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.nan_to_num(counts / totals, nan=0.0)

    def __array__(self, dtype: DTypeLike | None = None, copy: bool | None = None) -> np.ndarray:
        """``np.asarray(cm)``: a copy of the counts (numpy may write to what it is given)."""
        counts = self._snapshot()[0]
        return counts if dtype is None else counts.astype(dtype)

    def reset(self) -> None:
        """Set every count to zero, keeping the labels (a new epoch, the same classes)."""
        with self._lock:
            self._buffer = np.zeros((len(self._labels), len(self._labels)), dtype=np.int64)
            self._counts = self._buffer
            self._exact, self._low = {}, None
            self._total = 0
            self._tally = None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ConfusionMatrix):
            return NotImplemented
        (mine, my_low, my_exact, my_labels), (theirs, their_low, their_exact, their_labels) = self._exact_snapshot(), other._exact_snapshot()  # one lock at a time
        if mine.dtype.kind == theirs.dtype.kind:  # (float counts: to the last bit of their exact sums)
            same = np.array_equal(mine, theirs) and my_exact == their_exact and np.array_equal(_rests(my_low, mine), _rests(their_low, theirs))
        else:  # whole counts beside float counts: each as the exact number it is
            same = mine.shape == theirs.shape and equal_counts(_exact_table(mine, my_low, my_exact), _exact_table(theirs, their_low, their_exact))
        return same_labels(my_labels, their_labels) and same and self._metrics_class is other._metrics_class

    # ----------------------------------------------------------------------------------------
    # per-class counts (one-vs-rest)

    def cells(self) -> Cells:
        """The one-vs-rest cells of every class at once (``tp, fp, fn, tn`` arrays)."""
        return self.class_cells

    # ----------------------------------------------------------------------------------------
    # the averaging face (per_class and average come from CellsResult)

    @property
    def class_cells(self) -> Cells:
        """The one-vs-rest cells of every class (as ``cells()``)."""
        counts = self._counts
        return cells_from_confusion(counts, self._current_total() if counts.dtype.kind == "f" else None)

    @property
    def sample_cells(self) -> Cells:
        """Per-sample cells: right samples ``(1, 0, 0, m-1)`` and wrong ones ``(0, 1, 1, m-2)``,
        weighted by their counts (float counts: the exact sums of the diagonal and of the rest,
        each correctly rounded, so neither passes the total)."""
        return Cells(*one_hot_sample_cells(len(self._labels))[:2].rows(), weight=self._right_and_wrong())

    def _exact_counts(self) -> np.ndarray:
        """Every count as the exact number it is, from one state: whole counts as they are,
        float counts as the exact sums their rests keep (an object array, ``_exact_table``)."""
        counts, low, exact, _ = self._exact_snapshot()
        return _exact_table(counts, low, exact) if counts.dtype.kind == "f" else counts

    def _right_and_wrong(self) -> list:
        """How much the right samples (the diagonal) and the wrong ones weigh: whole counts, or
        the exact sums of float counts, each correctly rounded."""
        if self._counts.dtype.kind == "f":
            table = self._exact_counts()
            diagonal = np.trace(table)
            return rounded_counts(np.array([diagonal, table.sum() - diagonal], dtype=object)).tolist()
        correct = int(self._counts.trace())
        return [correct, self.get_total_items() - correct]

    @property
    def n_samples(self) -> int | float:
        """The number of counted samples (``get_total_items``)."""
        return self.get_total_items()

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

    def pair_counts(self) -> PairCounts:
        """The non-zero cells as (actual, predicted) pair counts."""
        return PairCounts.from_dense(self._snapshot()[0])

    # ----------------------------------------------------------------------------------------
    # JSON

    def _document(self) -> dict[str, Any]:
        """The matrix as an evalkit JSON document (labels, counts and, unless it is
        ``ClassificationMetrics``, the metrics class by name); float counts that are not their
        exact sums carry the rest in ``exact`` (``[cell, [floats]]``, cells counted row by row)."""
        payload = {"labels": list(self._labels), "counts": self._counts.tolist(), **metrics_class_field(self._metrics_class)}
        if self._grows:
            payload["grows"] = True
        if self._exact or self._low is not None:
            payload["exact"] = exact_remainders(_exact_table(self._counts, self._low, self._exact))
        return payload

    @classmethod
    def _read_document(cls, document: dict[str, Any], *, metrics_class: MetricsClass | None = None) -> ConfusionMatrix:
        maker = read_metrics_class(document, metrics_class)
        labels = serialization.label_list(document, "labels")
        grows = document.get("grows", False)
        if not isinstance(grows, bool):
            raise FormatError(f"field 'grows' must be true or false, got {show(grows)}")
        if not labels and not grows:
            raise FormatError("field 'labels' is empty")
        counts = serialization.matrix(serialization.field(document, "counts"), "counts", rows=len(labels), columns=len(labels))
        try:
            weighted_sum(counts, None)  # a total beyond 2**63 - 1 (or float64) is refused here, not wrapped later
        except EvalkitError as error:
            raise FormatError(f"field 'counts': {error}") from None
        sums = serialization.exact_sums(document, counts)
        matrix = cls._trusted(counts, labels, maker, grows)
        if sums:  # each count's exact sum, kept as the matrix keeps its sums (a rest of one float, or the sum whole)
            positions = np.fromiter(sums, dtype=np.int64, count=len(sums))
            rows, columns = positions // len(labels), positions % len(labels)
            amounts = counts[rows, columns].copy()
            matrix._counts[rows, columns] = 0.0
            matrix._add_floats(rows, columns, amounts, exact=dict(zip((rows << 32 | columns).tolist(), sums.values())))
        return matrix

    # ----------------------------------------------------------------------------------------
    # text

    def average(
        self, measure: MeasureLike, average: str = "macro", *, undefined: UndefinedPolicy = "exclude", labels: Sequence[Hashable] | None = None,
        metrics_class: type[Any] | None = None, **parameters: Any,
    ) -> Averaged:  # fmt: skip
        lock = self._lock
        lock.acquire()  # one state of the counts (not `with`: half the cost, on every read of a stream)
        try:
            if self._every_label(labels):  # the running margins: a stream's (the classes the last samples changed), or made at this first read
                tally = self._running_margins() if type(average) is str and average in TALLIED else self._tally
                found = tallied(tally, measure, average, undefined, parameters, metrics_class, self._metrics_class)
                if found is not None:
                    return found
            return super().average(measure, average, undefined=undefined, labels=labels, metrics_class=metrics_class, **parameters)
        finally:
            lock.release()

    average.__doc__ = CellsResult.average.__doc__

    def _every_label(self, labels: Sequence[Hashable] | None) -> bool:
        """Whether ``labels`` asks for every class in the matrix's order (None, or the labels
        themselves: a read of all of them, as the running margins give it)."""
        return labels is None or (isinstance(labels, (list, tuple)) and same_labels(labels, self._labels))

    def _class_margins(self, k: int) -> tuple[int, int, int, int] | None:
        """``(tp, fp, fn, tn)`` of class ``k`` from the running margins (made at the first read),
        or None for float counts, which keep none."""
        with self._lock:
            tally = self._running_margins()
            return None if tally is None else tally.cells(k)

    def _every_class_margins(self) -> list[tuple[int, int, int, int]] | None:
        """``_class_margins`` of every class, read at once (one state)."""
        with self._lock:
            tally = self._running_margins()
            return None if tally is None else [tally.cells(k) for k in range(len(self._labels))]

    def _class_values(self, measure: Measure, parameters: dict[str, Any], labels: Sequence[Hashable] | None) -> np.ndarray:
        """The values of every class read from the running margins (made at the first read, as
        ``average`` makes them) where the measure has a definition on four integers."""
        if self._every_label(labels):
            with self._lock:
                tally = self._running_margins()
                values = None if tally is None else tally.values(measure, parameters)
                if values is not None:
                    return np.array(values)  # (a copy, under the lock: the tally keeps its list)
        return super()._class_values(measure, parameters, labels)

    def _ratio_margins(self) -> dict[str, Any]:
        """The margins kappa and MCC read: the running margins' Python integers where the counts
        are whole (no table summed again), else the pair counts' (of the exact sums of float
        counts where the margins' differences cancel)."""
        with self._lock:
            tally = self._running_margins()
            if tally is not None:
                return {"correct": tally.correct, "total": tally.total, "actual": list(tally.row), "predicted": list(tally.col)}
            counts, low, exact, _ = self._exact_snapshot()
        pairs = PairCounts.from_dense(counts)
        margins = pairs.margins()
        if counts.dtype.kind != "f" or not cancels(margins):
            return margins
        exact_pairs = PairCounts.from_dense(_exact_table(counts, low, exact)) if low is not None or exact else pairs  # (a kappa near 0 feels a count's rounding)
        return exact_pairs.ratio_margins()

    def _running_margins(self) -> Tally | None:
        """The running margins of integer counts (a stream's, kept current by its changes), made
        at the first read; None for float counts, which keep none (the caller holds the lock)."""
        if self._tally is None and self._counts.dtype.kind == "i":
            self._tally = Tally(self._counts)
        return self._tally

    def _repr_html_(self) -> str:
        """The matrix as a heat map in a notebook (escaped, no script)."""
        return render("html_matrix", self)

    def __repr__(self) -> str:
        own = "" if self._metrics_class is default_metrics_class() else f", metrics_class={self._metrics_class.__qualname__}"
        return f"{type(self).__name__}(labels={list(self._labels)!r}, total={self.get_total_items()}{own})"

    def __str__(self) -> str:
        """The Deep Netts v4.0 table: ``Confusion Matrix [actual, predicted]``, cells ending ``" |"``
        (rendered by ``evalkit.io._text.matrix_text``)."""
        return str(render("matrix_text", self))

def _laid(counts: np.ndarray, low: np.ndarray | None, exact: dict[int, int], positions: list[int], m: int) -> tuple[np.ndarray, np.ndarray | None, dict[int, int]]:
    """Counts (their rests and the exact sums of the cells whose rest is no float) laid into an
    ``m x m`` table at ``positions``, zeros elsewhere."""
    cells = np.ix_(positions, positions)
    laid = np.zeros((m, m), dtype=counts.dtype)
    laid[cells] = counts
    laid_low = None
    if low is not None:
        laid_low = np.zeros((m, m))
        laid_low[cells] = low
    return laid, laid_low, {positions[key >> 32] << 32 | positions[key & 0xFFFFFFFF]: number for key, number in exact.items()}


def _rests(low: np.ndarray | None, counts: np.ndarray) -> np.ndarray:
    return np.zeros(counts.shape) if low is None else low


def _exact_table(counts: np.ndarray, low: np.ndarray | None, exact: dict[int, int]) -> np.ndarray:
    """Every count as the exact number it is (``evalkit._engine._exact.exact_table``)."""
    table = exact_table(counts, {(key >> 32) * len(counts) + (key & 0xFFFFFFFF): number for key, number in exact.items()})
    return table if low is None else table + in_units(low)  # (a cell whose exact sum is kept whole has no rest)


MAX_LABEL_WIDTH = 24
"""Labels longer than this are shortened in ``str()`` of a matrix (its text then grows with the
cells, not with the cells times the longest label)."""



def _consistent(method: Any) -> Any:
    """``method`` run under the matrix's lock: it reads one state, never half an update."""

    @functools.wraps(method)
    def locked(self: ConfusionMatrix, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            return method(self, *args, **kwargs)

    return locked


_WRITERS = {"inc", "update", "update_one", "revert", "update_indices", "reset", "get_accuracy", "average"}
"""Public methods that lock for themselves (the binary ones, ``+`` and ``==``, read each
matrix once, one lock at a time, and are left alone like every other underscore name)."""

_PRIVATE_READERS = {"__str__", "__repr__", "_repr_html_", "__array__", "_class_index"}
"""Underscore methods that read the counts."""

for _name in dir(ConfusionMatrix):
    _member = inspect.getattr_static(ConfusionMatrix, _name)
    if _name in _WRITERS or (_name.startswith("_") and _name not in _PRIVATE_READERS):
        continue
    if isinstance(_member, property) and _member.fget is not None:
        setattr(ConfusionMatrix, _name, property(_consistent(_member.fget), doc=_member.__doc__))
    elif inspect.isfunction(_member):
        setattr(ConfusionMatrix, _name, _consistent(_member))


if not TYPE_CHECKING:  # the names this module gave in evalkit 0.1.0 and lost, found with a warning
    __getattr__ = moved_names.finder(__name__)
