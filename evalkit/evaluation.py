"""Evaluation: any classification result as indicator cells, every measure in every setting.

The unified algebraic framework (seed 002, ``shared/spec/algebraic.md``): actual and
predicted results are ``n x m`` indicator matrices ``A`` and ``P`` (samples x labels), the
cells are ``TP = A∘P``, ``FP = Ā∘P``, ``FN = A∘P̄``, ``TN = Ā∘P̄``, and every binary measure
``M(tp, fp, fn, tn)`` extends through three sums: ``σ1`` (micro), ``σm`` (per class: macro,
weighted) and ``σn`` (per sample: the example-based ``"samples"`` average).

An ``Evaluation`` holds the per-class and per-sample cells, whatever the input:

| constructor | data |
|---|---|
| ``from_labels`` | one class per sample (one-hot, counted without indicators); optional ``none`` value for rejection and open-set data |
| ``from_label_sets`` | one set of labels per sample (multi-label) |
| ``from_indicators`` | 0/1 arrays, optional observation mask and rejected rows |
| ``from_scores`` | scores with a threshold or top-k |
| ``from_soft`` | degrees in [0, 1] under a t-norm |
| ``from_ordinal`` | ordered levels in cumulative encoding |
| ``from_hierarchy`` | labels closed under a taxonomy (hierarchical hP, hR, hF) |

Examples:
    >>> ev = Evaluation.from_label_sets([{"a", "b"}, {"c"}, set()], [{"a"}, {"c", "b"}, {"b"}])
    >>> ev.average("f1_score", "micro"), ev.average("f1_score", "samples", undefined="zero")
    (0.5714285714285714, 0.4444444444444444)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

import attrs
import numpy as np

from evalkit import serialization
from evalkit._labels import check_label, check_label_list, describe
from evalkit._validation import check_choice, check_sample_weight, show
from evalkit.averaging import CellsResult, per_entry
from evalkit.cells import Cells, block_rows, indicator_cells, key_cells, one_hot_sample_cells, same_array, soft_cells
from evalkit.classification_metrics import ClassificationMetrics
from evalkit.confusion_matrix import ConfusionMatrix
from evalkit.counting import _SET_TYPES, encode, encode_label_sets
from evalkit.exceptions import (
    InputLengthError,
    InputShapeError,
    InvalidArgumentError,
    InvalidTypeError,
    InvalidValueError,
    LabelMismatchError,
    UnknownLabelError,
    UnsupportedSettingError,
)
from evalkit.formulas import matrix_cohen_kappa, matrix_matthews_correlation_coefficient
from evalkit.hierarchy import Hierarchy
from evalkit.theory import MicroMacroGap, micro_macro_gap
from evalkit.tnorms import get_tnorm

__all__ = ["Evaluation"]

_UNSET: Any = object()

SETTINGS = ("single-label", "multi-label", "soft", "ordinal", "hierarchical")
"""The kinds of data an Evaluation describes."""

REJECTIONS = ("miss", "selective")
"""How rejected (abstained) samples count: as misses, or left out with a coverage."""


def _matrix(values: Any, argument: str, shape: tuple | None = None) -> np.ndarray:
    """A 2-D numeric array (never copied when it already is one) of the expected shape."""
    array = values if isinstance(values, np.ndarray) else np.asarray(values)
    if array.ndim != 2:
        raise InputShapeError(f"{argument!r} must be a 2-D array (samples x labels), got shape {array.shape}")
    if array.dtype.kind not in "biuf":
        raise InvalidTypeError(f"{argument!r} must hold numbers or booleans, got dtype {array.dtype}")
    if shape is not None and array.shape != shape:
        raise InputShapeError(f"{argument!r} has shape {array.shape} but 'actual' has shape {shape}")
    return array


def _matrix_labels(labels: Sequence[Hashable] | None, m: int) -> tuple:
    checked = tuple(range(m)) if labels is None else check_label_list(labels)
    if len(checked) != m:
        raise InputShapeError(f"'labels' has {len(checked)} labels but the data have {m} columns")
    return checked


def _rejected_rows(rejected: Any, n: int) -> np.ndarray | None:
    if rejected is None:
        return None
    array = np.asarray(rejected)
    if array.shape != (n,) or array.dtype != np.bool_:
        raise InputShapeError(f"'rejected' must be a boolean vector of {n} samples, got {show(array)}")
    return array


def _is_label_set_data(values: Any) -> bool:
    first = next(iter(values), None) if not isinstance(values, np.ndarray) or values.dtype == object else None
    return isinstance(first, _SET_TYPES)


def _sample_kinds(actual: np.ndarray, predicted: np.ndarray, m: int) -> np.ndarray:
    """The row of ``one_hot_sample_cells`` for each sample (codes ``m`` mean none)."""
    known_actual, known_predicted = actual < m, predicted < m
    same = actual == predicted
    kinds = np.where(same, np.where(known_actual, 0, 4), np.where(known_actual, np.where(known_predicted, 1, 2), 3))
    return kinds.astype(np.uint8)


@attrs.frozen(eq=False)
class Evaluation(CellsResult):
    """Per-class and per-sample cells of a classification result, and every average of every measure.

    Build it with one of the ``from_*`` constructors. Then:

    Averages and vectors:
        ``average`` (``"micro"``, ``"macro"``, ``"weighted"``, ``"samples"``),
        ``per_class``, ``per_sample``, ``total_cells``.
    Java-style objects:
        ``class_metrics``, ``sample_metrics`` (``ClassificationMetrics`` objects).
    Whole-result measures:
        ``get_accuracy`` (exact match), ``get_cohen_kappa``,
        ``get_matthews_correlation_coefficient``, ``confusion_matrix`` (single-label
        and ordinal data), ``coverage`` (selective rejection).
    Theory:
        ``micro_macro_gap``.

    Attributes:
        labels: the class (column) labels.
        class_cells: per-class cells ``σm``.
        sample_cells: per-sample cells ``σn`` with how much each sample counts (its
            ``weight``); single-label samples share five distinct rows through an ``index``.
            After ``compact`` one row per distinct kind of sample, weighted by how many
            samples it stands for.
        ordered: whether ``sample_cells`` lists the samples in order (False after ``compact``).
        setting: ``"single-label"``, ``"multi-label"``, ``"soft"``, ``"ordinal"`` or
            ``"hierarchical"``.
        confusion: the counts (rows actual) of single-label and ordinal data, over
            ``confusion_labels``; ``None`` otherwise.
        n_rejected: samples left out by selective rejection.
    """

    labels: tuple
    class_cells: Cells = attrs.field(repr=False)
    sample_cells: Cells = attrs.field(repr=False)
    setting: str = "multi-label"
    confusion: np.ndarray | None = attrs.field(default=None, repr=False)
    confusion_labels: tuple | None = attrs.field(default=None, repr=False)
    n_rejected: int = 0
    ordered: bool = True

    # ----------------------------------------------------------------------------------------
    # constructors

    @classmethod
    def from_labels(
        cls,
        y_true: Any,
        y_pred: Any,
        labels: Sequence[Hashable] | None = None,
        *,
        none: Any = _UNSET,
        rejection: str = "miss",
    ) -> Evaluation:
        """Single-label data: one class per sample (the one-hot case, counted without indicators).

        Args:
            y_true: actual labels.
            y_pred: predicted labels.
            labels: the known classes, in order (default: sorted observed labels).
            none: a value meaning "none of the classes": in ``y_pred`` an abstention or a
                prediction of "unknown" (an all-zero predicted row), in ``y_true`` a sample of
                an unknown class (open set: an all-zero actual row).
            rejection: ``"miss"`` (default): a ``none`` prediction counts as a miss of the
                actual class; ``"selective"``: samples predicted ``none`` are left out and
                ``coverage`` says how many were kept.

        Examples:
            >>> ev = Evaluation.from_labels(["a", "b", "b", "a"], ["a", "b", "?", "?"], none="?")
            >>> ev.average("recall", "micro"), ev.coverage
            (0.5, 1.0)
            >>> selective = Evaluation.from_labels(["a", "b", "b", "a"], ["a", "b", "?", "?"], none="?",
            ...                                    rejection="selective")
            >>> selective.average("recall", "micro"), selective.coverage
            (1.0, 0.5)
        """
        check_choice("rejection", rejection, REJECTIONS)
        if none is _UNSET:
            if rejection == "selective":
                raise InvalidArgumentError("rejection='selective' needs 'none', the value y_pred uses to abstain")
            actual, predicted, known = encode(y_true, y_pred, labels)
            m = size = len(known)
            confusion_labels = known
        else:
            none = check_label("none", none)
            fixed = None if labels is None else (*check_label_list(labels), none)
            actual, predicted, found = encode(y_true, y_pred, fixed)
            known = tuple(label for label in found if label != none)
            m, size = len(known), len(known) + 1
            if none in found:  # move none to the last code, m
                position = found.index(none)
                remap = np.array([*range(position), m, *range(position, m)], dtype=np.intp)
                actual, predicted = remap[actual], remap[predicted]
            confusion_labels = (*known, none)
        n_rejected = 0
        if rejection == "selective":
            kept = predicted != m
            n_rejected = len(kept) - int(kept.sum())
            actual, predicted = actual[kept], predicted[kept]
        counts = np.bincount(actual * size + predicted, minlength=size * size).reshape(size, size)
        tp = np.diagonal(counts)[:m].copy()
        class_cells = Cells.from_sums(tp, counts[:m].sum(axis=1), counts[:, :m].sum(axis=0), counts.sum())
        kinds = one_hot_sample_cells(m)
        sample_cells = Cells(*kinds.rows(), index=_sample_kinds(actual, predicted, m))
        return cls(known, class_cells, sample_cells, "single-label", counts, confusion_labels, n_rejected)

    @classmethod
    def from_label_sets(
        cls, actual: Any, predicted: Any, labels: Sequence[Hashable] | None = None, *, sample_weight: Any = None
    ) -> Evaluation:
        """Multi-label data as one collection of labels per sample (``[{"a", "b"}, {"c"}, set()]``).

        Counted from sparse ``(sample, label)`` keys; no ``n x m`` array is built. An empty
        predicted set is a rejection counted as misses. ``sample_weight`` (one finite weight
        >= 0 per sample) makes every sum a weighted sum.

        Examples:
            >>> ev = Evaluation.from_label_sets([{"a", "b"}, {"b"}], [{"a"}, {"a", "b"}])
            >>> ev.per_class("recall"), ev.per_sample("precision")
            (array([1. , 0.5]), array([1. , 0.5]))
        """
        keys_actual, keys_predicted, found, n = encode_label_sets(actual, predicted, labels)
        weight = check_sample_weight(sample_weight, n)
        by_class, by_sample = key_cells(keys_actual, keys_predicted, n, len(found), weight)
        return cls(found, by_class, by_sample)

    @classmethod
    def from_indicators(
        cls,
        actual: Any,
        predicted: Any,
        labels: Sequence[Hashable] | None = None,
        *,
        mask: Any = None,
        rejected: Any = None,
        rejection: str = "miss",
    ) -> Evaluation:
        """0/1 indicator arrays, samples x labels (bool, int or float 0/1).

        Args:
            actual: ``n x m`` actual indicators.
            predicted: ``n x m`` predicted indicators.
            labels: the column labels (default ``0 .. m-1``).
            mask: optional ``n x m`` 0/1 observation mask; an entry with 0 (a label whose
                truth is unknown for that sample) enters no cell.
            rejected: optional boolean vector of abstained samples.
            rejection: ``"miss"`` (their predicted rows count as all 0) or ``"selective"``
                (they are left out; see ``coverage``).

        Examples:
            >>> import numpy as np
            >>> ev = Evaluation.from_indicators(np.array([[1, 0], [1, 1]]), np.array([[1, 1], [0, 1]]))
            >>> ev.average("precision", "macro")
            0.75
        """
        check_choice("rejection", rejection, REJECTIONS)
        a = _matrix(actual, "actual")
        p = _matrix(predicted, "predicted", a.shape)
        observed = None if mask is None else _matrix(mask, "mask", a.shape)
        dropped = _rejected_rows(rejected, len(a))
        by_class, by_sample = indicator_cells(a, p, mask=observed, rejected=dropped, rejection=rejection)
        n_rejected = 0
        if dropped is not None and rejection == "selective":
            by_sample, n_rejected = by_sample[~dropped], int(dropped.sum())
        return cls(_matrix_labels(labels, a.shape[1]), by_class, by_sample, n_rejected=n_rejected)

    @classmethod
    def from_scores(
        cls,
        actual: Any,
        scores: Any,
        labels: Sequence[Hashable] | None = None,
        *,
        threshold: Any = None,
        top_k: int | None = None,
        mask: Any = None,
    ) -> Evaluation:
        """Scores (probabilities, logits) per sample and label, turned into predictions.

        Args:
            actual: ``n x m`` 0/1 indicators, or one label per sample (values of ``labels``).
            scores: ``n x m`` finite scores, column ``j`` for ``labels[j]``.
            labels: the column labels (default ``0 .. m-1``).
            threshold: predict a label when its score is ``>= threshold`` (a number, or one
                per label); 0.5 when neither ``threshold`` nor ``top_k`` is given.
            top_k: predict the ``k`` highest-scoring labels of every sample (ties go to the
                lower column).
            mask: optional observation mask (with indicator ``actual`` only).

        Examples:
            >>> ev = Evaluation.from_scores(["a", "b"], [[0.9, 0.4], [0.6, 0.7]], labels=["a", "b"])
            >>> ev.per_sample("precision"), Evaluation.from_scores(["a", "b"], [[0.9, 0.4], [0.6, 0.7]],
            ...     labels=["a", "b"], top_k=1).average("recall", "micro")
            (array([1. , 0.5]), 1.0)
        """
        s = _matrix(scores, "scores")
        n, m = s.shape
        predict = _predictor(threshold, top_k, m)
        found = _matrix_labels(labels, m)
        if _is_label_set_data(actual):
            raise InvalidTypeError("'actual' must be 0/1 indicator rows or one label per sample, not label sets")
        if np.ndim(actual) == 2:
            a = _matrix(actual, "actual", s.shape)
            observed = None if mask is None else _matrix(mask, "mask", s.shape)
            by_class, by_sample = indicator_cells(a, s, mask=observed, predict=predict)
            return cls(found, by_class, by_sample)
        if mask is not None:
            raise UnsupportedSettingError("'mask' needs indicator rows for 'actual', not one label per sample")
        codes, _, _ = encode(actual, actual, found)
        if len(codes) != n:
            raise InputLengthError(f"'actual' has {len(codes)} samples but 'scores' has {n}")
        keys_actual = np.arange(n, dtype=np.int64) * m + codes
        step = block_rows(m, s.itemsize)
        keys_predicted = np.concatenate(
            [np.flatnonzero(predict(s[start : start + step])) + start * m for start in range(0, n, step)] or [np.zeros(0, int)]
        ).astype(np.int64)
        by_class, by_sample = key_cells(keys_actual, keys_predicted, n, m)
        return cls(found, by_class, by_sample)

    @classmethod
    def from_soft(
        cls,
        actual: Any,
        predicted: Any,
        labels: Sequence[Hashable] | None = None,
        *,
        tnorm: str | Callable[[np.ndarray, np.ndarray], np.ndarray] = "product",
        mask: Any = None,
    ) -> Evaluation:
        """Soft (probabilistic) labels: degrees in [0, 1], cells by a t-norm.

        ``TP = T(a, p)``, ``FP = T(1 - a, p)``, ``FN = T(a, 1 - p)``, ``TN = T(1 - a, 1 - p)``
        with ``tnorm`` ``"product"`` (default; the only one keeping the marginals),
        ``"minimum"``, ``"lukasiewicz"``, or a vectorised callable ``T(a, b)``. Counted in row
        blocks: no full cell matrix is built.

        Examples:
            >>> ev = Evaluation.from_soft([[0.7]], [[0.6]])
            >>> {name: round(float(value), 2) for name, value in ev.total_cells.counts().items()}
            {'tp': 0.42, 'fp': 0.18, 'fn': 0.28, 'tn': 0.12}
        """
        a = _matrix(actual, "actual")
        p = _matrix(predicted, "predicted", a.shape)
        observed = None if mask is None else _matrix(mask, "mask", a.shape)
        by_class, by_sample = soft_cells(a, p, get_tnorm(tnorm), mask=observed)
        return cls(_matrix_labels(labels, a.shape[1]), by_class, by_sample, setting="soft")

    @classmethod
    def from_ordinal(cls, y_true: Any, y_pred: Any, levels: Sequence[Hashable]) -> Evaluation:
        """Ordinal data in cumulative encoding: ``m`` levels give ``m - 1`` columns ``[y > level_j]``.

        A sample's two encodings differ in ``|y - ŷ|`` columns (in level steps), so
        ``σ1(FP) + σ1(FN) = n · MAE``. The class labels are ``"> level"`` for every level
        but the last; ``confusion_matrix`` keeps the levels.

        Examples:
            >>> ev = Evaluation.from_ordinal(["low", "high", "mid"], ["mid", "high", "low"], ["low", "mid", "high"])
            >>> ev.labels, ev.total_cells.counts()
            (('> low', '> mid'), {'tp': 2, 'fp': 1, 'fn': 1, 'tn': 2})
        """
        ordered = check_label_list(levels, "levels")
        if len(ordered) < 2:
            raise InvalidArgumentError(f"'levels' needs at least two levels, got {show(list(ordered))}")
        actual, predicted, _ = encode(y_true, y_pred, ordered)
        m = len(ordered)
        counts = np.bincount(actual * m + predicted, minlength=m * m).reshape(m, m)
        above = counts[::-1, ::-1].cumsum(axis=0).cumsum(axis=1)[::-1, ::-1]  # above[i, j] = Σ_{a>=i, b>=j}
        thresholds = np.arange(1, m)
        class_cells = Cells.from_sums(above[thresholds, thresholds], above[thresholds, 0], above[0, thresholds], counts.sum())
        low, high = np.minimum(actual, predicted), np.maximum(actual, predicted)
        sample_cells = Cells(low, np.maximum(predicted - actual, 0), np.maximum(actual - predicted, 0), m - 1 - high)
        names = tuple(f"> {level}" for level in ordered[:-1])
        return cls(names, class_cells, sample_cells, setting="ordinal", confusion=counts, confusion_labels=ordered)

    @classmethod
    def from_hierarchy(
        cls, y_true: Any, y_pred: Any, hierarchy: Hierarchy | dict, *, root: Hashable | None = None
    ) -> Evaluation:
        """Hierarchical data: labels (one per sample, or label sets) closed under their ancestors.

        Micro precision, recall and F1 of the result are the hierarchical hP, hR and hF.

        Args:
            y_true: actual nodes (one per sample, or a set per sample).
            y_pred: predicted nodes.
            hierarchy: a ``Hierarchy`` or its ``{child: parent}`` map.
            root: with a map, an artificial root left out of the closure.

        Examples:
            >>> parents = {"cat": "mammal", "dog": "mammal", "mammal": "animal", "trout": "animal"}
            >>> ev = Evaluation.from_hierarchy(["cat", "trout"], ["dog", "trout"], parents, root="animal")
            >>> ev.average("precision", "micro")  # hP: {dog, mammal} vs {cat, mammal}; trout right
            0.6666666666666666
        """
        taxonomy = hierarchy if isinstance(hierarchy, Hierarchy) else Hierarchy(hierarchy, root=root)
        k = len(taxonomy.nodes)
        if _is_label_set_data(y_true):
            keys_actual, keys_predicted, _, n = encode_label_sets(y_true, y_pred, taxonomy.nodes)
        else:
            actual, predicted, _ = encode(y_true, y_pred, taxonomy.nodes)
            n = len(actual)
            keys_actual, keys_predicted = (np.arange(n, dtype=np.int64) * k + codes for codes in (actual, predicted))
        by_class, by_sample = key_cells(taxonomy.close(keys_actual, n), taxonomy.close(keys_predicted, n), n, k)
        return cls(taxonomy.nodes, by_class, by_sample, setting="hierarchical")

    # ----------------------------------------------------------------------------------------
    # averages and vectors

    @property
    def n_samples(self) -> int:
        """The number of samples evaluated (after selective rejection)."""
        return self.sample_cells.total_weight()

    @property
    def coverage(self) -> float:
        """The share of samples kept: 1.0 unless selective rejection left some out."""
        total = self.n_samples + self.n_rejected
        return self.n_samples / total if total else float("nan")

    @property
    def total_cells(self) -> Cells:
        """The micro cells ``σ1`` (0-d)."""
        return self.class_cells.total()

    def _ordered(self, what: str) -> None:
        if not self.ordered:
            raise UnsupportedSettingError(f"{what} needs the samples in order; this evaluation was compacted")

    def per_sample(self, measure: Any, *, metrics_class: type | None = None, **parameters: Any) -> np.ndarray:
        """The value of ``measure`` for every sample (NaN where undefined)."""
        self._ordered("per_sample")
        return per_entry(self.sample_cells, measure, metrics_class, parameters)

    # ----------------------------------------------------------------------------------------
    # Java-style objects

    def class_metrics(self, metrics_class: type | None = None) -> list:
        """One ClassificationMetrics (or ``metrics_class``) object per class, labelled."""
        metrics_class = metrics_class or ClassificationMetrics
        cells = self.class_cells
        return [
            metrics_class.from_counts(tp=cells.tp[k], fp=cells.fp[k], fn=cells.fn[k], tn=cells.tn[k], class_label=label)
            for k, label in enumerate(self.labels)
        ]

    def sample_metrics(self, indices: Any = None, metrics_class: type | None = None) -> list:
        """One metrics object per sample (or for the samples at ``indices``), labelled by index."""
        self._ordered("sample_metrics")
        metrics_class = metrics_class or ClassificationMetrics
        positions = np.arange(len(self.sample_cells)) if indices is None else np.atleast_1d(np.asarray(indices))
        cells = self.sample_cells[positions].entries()
        return [
            metrics_class.from_counts(tp=cells.tp[k], fp=cells.fp[k], fn=cells.fn[k], tn=cells.tn[k], class_label=int(i))
            for k, i in enumerate(positions)
        ]

    # ----------------------------------------------------------------------------------------
    # whole-result measures

    def get_accuracy(self) -> float:
        """Exact-match (subset) accuracy: the share of samples with no false positive and no
        false negative; for single-label data ``trace / n``. NaN with no samples.

        Raises:
            UnsupportedSettingError: soft data (an exact match of degrees is meaningless).
        """
        if self.setting == "soft":
            raise UnsupportedSettingError("exact-match accuracy is not defined for soft labels; use average('accuracy')")
        exact = (self.sample_cells.fp == 0) & (self.sample_cells.fn == 0)
        n = self.n_samples
        return self.sample_cells.sum_rows(exact) / n if n else float("nan")

    def report_averages(self) -> tuple[str, ...]:
        """Single-label and ordinal reports show micro, macro and weighted; the others also samples."""
        base = super().report_averages()
        return base if self.confusion is not None else (*base, "samples")

    def whole_measures(self) -> dict[str, float]:
        """What the data support: accuracy, Cohen's kappa and MCC of single-label (and ordinal)
        data; exact-match accuracy and Hamming loss of multi-label data; and the coverage of a
        selective rejection."""
        summary: dict[str, float] = {}
        if self.confusion is not None:
            summary = {
                "accuracy": self.get_accuracy(),
                "cohen_kappa": self.get_cohen_kappa(),
                "matthews_correlation_coefficient": self.get_matthews_correlation_coefficient(),
            }
        elif self.setting != "soft":
            summary = {"accuracy": self.get_accuracy(), "hamming_loss": float(self.average("error_rate", "micro"))}
        if self.n_rejected:
            summary["coverage"] = self.coverage
        return summary

    def _confusion(self, what: str) -> np.ndarray:
        if self.confusion is None:
            raise UnsupportedSettingError(f"{what} needs single-label (or ordinal) data; this is {self.setting} data")
        return self.confusion

    def confusion_matrix(self) -> ConfusionMatrix:
        """The confusion matrix of single-label or ordinal data (with the ``none`` row and
        column when one was given)."""
        return ConfusionMatrix.from_array(self._confusion("a confusion matrix"), self.confusion_labels)

    def get_cohen_kappa(self) -> float:
        """Cohen's kappa of the whole confusion matrix (single-label or ordinal data)."""
        return matrix_cohen_kappa(self._confusion("Cohen's kappa of the whole matrix"))

    def get_matthews_correlation_coefficient(self) -> float:
        """Multi-class MCC of the whole confusion matrix (single-label or ordinal data)."""
        return matrix_matthews_correlation_coefficient(self._confusion("the multi-class MCC"))

    # ----------------------------------------------------------------------------------------
    # streaming: merge and compact

    def merge(self, other: Evaluation, *, grow: bool = False) -> Evaluation:
        """The evaluation of both batches together (also ``self + other``).

        Every count is a sum over samples, so merging batches gives exactly the one-shot
        result. Per-sample rows are concatenated in order unless either side was compacted.

        Args:
            other: another evaluation of the same setting.
            grow: with False (the default) the labels must be the same, in the same order;
                with True, labels of ``other`` that this evaluation lacks are appended (see
                ``with_labels``), so that a stream may start before every label is known.

        Raises:
            LabelMismatchError: different labels (or confusion labels) and ``grow=False``.
            UnsupportedSettingError: different settings.
        """
        if not isinstance(other, Evaluation):
            raise InvalidTypeError(f"can only merge an Evaluation, got {show(other)}")
        if self.setting != other.setting:
            raise UnsupportedSettingError(f"cannot merge {self.setting} and {other.setting} evaluations")
        if grow and self.labels != other.labels:
            union = (*self.labels, *(label for label in other.labels if label not in set(self.labels)))
            return self.with_labels(union).merge(other.with_labels(union))
        if self.labels != other.labels or self.confusion_labels != other.confusion_labels:
            first, second = self.confusion_labels or self.labels, other.confusion_labels or other.labels
            raise LabelMismatchError(f"cannot merge evaluations with different labels: {show(list(first))} and {show(list(second))}")
        confusion = None if self.confusion is None else self.confusion + other.confusion
        merged = attrs.evolve(
            self,
            class_cells=self.class_cells.plus(other.class_cells),
            sample_cells=Cells.concat([self.sample_cells, other.sample_cells]),
            confusion=confusion,
            n_rejected=self.n_rejected + other.n_rejected,
            ordered=self.ordered and other.ordered,
        )
        return merged if merged.ordered else merged.compact()

    def with_labels(self, labels: Sequence[Hashable]) -> Evaluation:
        """The same evaluation over ``labels``: every label it has, in any order, plus new labels
        that no sample has or is predicted (each sample gains true negatives for them).

        Raises:
            UnknownLabelError: ``labels`` leaves out a label of this evaluation.
            UnsupportedSettingError: ordinal data (the levels are fixed).

        Examples:
            >>> ev = Evaluation.from_label_sets([{"b"}], [{"b"}]).with_labels(["a", "b"])
            >>> ev.labels, ev.class_cells.counts()["tn"].tolist()
            (('a', 'b'), [1, 0])
        """
        if self.setting == "ordinal":
            raise UnsupportedSettingError("the levels of ordinal data are fixed: with_labels does not apply")
        checked = check_label_list(labels)
        index = {label: position for position, label in enumerate(checked)}
        missing = [label for label in self.labels if label not in index]
        if missing:
            raise UnknownLabelError(f"'labels' leaves out {describe(missing[0])}, a label of this evaluation: {show(list(checked))}")
        if checked == self.labels:
            return self
        positions = [index[label] for label in self.labels]
        total = self.n_samples
        rows = [np.zeros(len(checked), dtype=np.result_type(row, np.asarray(total))) for row in self.class_cells.rows()]
        rows[3][:] = total  # a new label: every sample is a true negative of it
        for row, own in zip(rows, self.class_cells.rows()):
            row[positions] = own
        confusion, confusion_labels = self.confusion, self.confusion_labels
        if confusion is not None and confusion_labels is not None:
            extra = confusion_labels[len(self.labels) :]  # the none value of rejection and open sets
            confusion_labels = (*checked, *extra)
            spots = positions + list(range(len(checked), len(confusion_labels)))
            confusion = np.zeros((len(confusion_labels), len(confusion_labels)), dtype=self.confusion.dtype)
            confusion[np.ix_(spots, spots)] = self.confusion
        return attrs.evolve(
            self,
            labels=checked,
            class_cells=Cells(*rows),
            sample_cells=self.sample_cells.with_negatives(len(checked) - len(self.labels)),
            confusion=confusion,
            confusion_labels=confusion_labels,
        )

    def __add__(self, other: object) -> Evaluation:
        if not isinstance(other, Evaluation):
            return NotImplemented
        return self.merge(other)

    def compact(self) -> Evaluation:
        """The same evaluation with one row per distinct per-sample cells and its weight.

        Every average stays the same, and memory is bounded by the number of distinct rows
        (at most ``(m + 1)³`` for crisp data) instead of the number of samples; the order of
        the samples (``per_sample``, ``sample_metrics``) is given up.
        """
        return attrs.evolve(self, sample_cells=self.sample_cells.compact(), ordered=False)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Evaluation):
            return NotImplemented
        return (
            (self.labels, self.setting, self.confusion_labels, self.n_rejected, self.ordered)
            == (other.labels, other.setting, other.confusion_labels, other.n_rejected, other.ordered)
            and self.class_cells.same_as(other.class_cells)
            and self.sample_cells.same_as(other.sample_cells)
            and same_array(self.confusion, other.confusion)
        )

    __hash__ = None  # type: ignore[assignment]

    # ----------------------------------------------------------------------------------------
    # JSON

    def to_json(self) -> str:
        """The evaluation (its cells, not the data) as an evalkit JSON document."""
        payload = {
            "setting": self.setting,
            "labels": list(self.labels),
            "class_cells": serialization.cells_payload(self.class_cells),
            "sample_cells": serialization.cells_payload(self.sample_cells),
            "ordered": self.ordered,
            "confusion_labels": None if self.confusion_labels is None else list(self.confusion_labels),
            "confusion": None if self.confusion is None else serialization.as_list(self.confusion),
            "n_rejected": self.n_rejected,
        }
        return serialization.dumps("Evaluation", payload)

    @classmethod
    def from_json(cls, text: str | bytes) -> Evaluation:
        """Read an evaluation written by ``to_json``.

        Raises:
            FormatError: the text is no valid Evaluation document.
        """
        document = serialization.loads(text, "Evaluation")
        setting = serialization.field(document, "setting")
        if setting not in SETTINGS:
            raise serialization.FormatError(f"field 'setting' must be one of {', '.join(SETTINGS)}, got {show(setting)}")
        labels = serialization.label_list(document, "labels")
        ordered = serialization.field(document, "ordered")
        if not isinstance(ordered, bool):
            raise serialization.FormatError(f"field 'ordered' must be true or false, got {show(ordered)}")
        confusion_labels, confusion = document.get("confusion_labels"), document.get("confusion")
        if (confusion_labels is None) != (confusion is None):
            raise serialization.FormatError("fields 'confusion' and 'confusion_labels' go together")
        if confusion is not None:
            confusion_labels = serialization.label_list(document, "confusion_labels")
            size = len(confusion_labels)
            confusion = serialization.matrix(confusion, "confusion", rows=size, columns=size)
        rejected = serialization.field(document, "n_rejected")
        return cls(
            labels,
            serialization.read_cells(serialization.field(document, "class_cells"), "class_cells", rows=len(labels)),
            serialization.read_cells(serialization.field(document, "sample_cells"), "sample_cells"),
            setting,
            confusion,
            confusion_labels,
            serialization.number(rejected, "n_rejected") if isinstance(rejected, float) else serialization.integer(document, "n_rejected"),
            ordered,
        )

    def micro_macro_gap(self, measure: Any, **parameters: Any) -> MicroMacroGap:
        """The micro-macro gap of a decomposable measure and its covariance decomposition."""
        return micro_macro_gap(self.class_cells, measure, **parameters)

    def __repr__(self) -> str:
        return f"Evaluation(setting={self.setting!r}, labels={list(self.labels)!r}, samples={self.n_samples})"


def _predictor(threshold: Any, top_k: int | None, m: int) -> Callable[[np.ndarray], np.ndarray]:
    """A function turning a block of scores into bool predictions."""
    if threshold is not None and top_k is not None:
        raise InvalidArgumentError("give 'threshold' or 'top_k', not both")

    def finite(block: np.ndarray) -> np.ndarray:
        if not np.isfinite(block).all():
            raise InvalidValueError(f"'scores' must be finite, got {show(block[~np.isfinite(block)][:3])}")
        return block

    if top_k is not None:
        if isinstance(top_k, bool) or not isinstance(top_k, (int, np.integer)) or not 1 <= top_k <= m:
            raise InvalidArgumentError(f"'top_k' must be an integer in 1..{m}, got {show(top_k)}")

        def top(block: np.ndarray) -> np.ndarray:
            order = np.argsort(-finite(block).astype(np.float64), axis=1, kind="stable")[:, :top_k]
            chosen = np.zeros(block.shape, dtype=bool)
            np.put_along_axis(chosen, order, True, axis=1)
            return chosen

        return top
    cut = np.asarray(0.5 if threshold is None else threshold, dtype=np.float64)
    if cut.shape not in ((), (m,)) or not np.isfinite(cut).all():
        raise InvalidArgumentError(f"'threshold' must be a finite number or one per label ({m}), got {show(threshold)}")
    return lambda block: finite(block) >= cut

