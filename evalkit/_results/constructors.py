"""The settings of the algebraic framework: one constructor per kind of data, side by side.

Every constructor turns its data into per-class cells (``σm``) and weighted per-sample cells
(``σn``) through the counting core (``evalkit._engine.counting`` for labels and label sets,
``evalkit._engine.cells`` for indicator, soft and sparse data), and takes ``sample_weight``: one
finite weight >= 0 per sample, which makes every sum a weighted sum (integer weights keep
integer counts and equal repeating the samples; float weights give float counts), and
``metrics_class``: the ``ClassificationMetrics`` subclass whose getters (and overrides) are
the result's measures by name.

| constructor | data |
|---|---|
| ``from_labels`` | one class per sample (one-hot, counted without indicators or a dense table); optional ``none`` value for rejection and open-set data |
| ``from_label_sets`` | one set of labels per sample (multi-label) |
| ``from_indicators`` | 0/1 arrays, optional observation mask and rejected rows |
| ``from_scores`` | scores with a threshold or top-k |
| ``from_soft`` | degrees in [0, 1] under a t-norm |
| ``from_ordinal`` | ordered levels in cumulative encoding |
| ``from_hierarchy`` | labels closed under a taxonomy (hierarchical hP, hR, hF) |

``Evaluation`` inherits these constructors from ``SettingConstructors``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine._exact import weighted_sum
from evalkit._engine._labels import check_booleans_apart, check_label_list, check_one_label, column_labels
from evalkit._engine._pair_counts import PairCounts
from evalkit._engine._types import LabelSets, LabelsLike, ScoresLike
from evalkit._engine._validation import (
    check_choice,
    check_matrix,
    check_numbers,
    check_sample_weight,
    is_sparse,
    show,
)
from evalkit._engine.cells import (
    Cells,
    block_rows,
    indicator_cells,
    key_cells,
    one_hot_sample_cells,
    soft_cells,
)
from evalkit._engine.counting import encode, encode_label_sets, indicator_rows, is_label_set_data
from evalkit._engine.hierarchy import Hierarchy
from evalkit._engine.tnorms import get_tnorm
from evalkit.exceptions import (
    InputLengthError,
    InputShapeError,
    InvalidArgumentError,
    InvalidTypeError,
    InvalidValueError,
    UnsupportedSettingError,
)
from evalkit.measures._metrics_class import MetricsClass

if TYPE_CHECKING:
    from typing_extensions import Self  # Python 3.11's typing.Self, for type checkers only

__all__ = ["REJECTIONS", "SETTINGS", "SettingConstructors"]

_UNSET: Any = object()

SETTINGS = ("single-label", "multi-label", "soft", "ordinal", "hierarchical")
"""The kinds of data an Evaluation describes."""

REJECTIONS = ("miss", "selective")
"""How rejected (abstained) samples count: as misses, or left out with a coverage."""


class SettingConstructors:
    """The ``from_*`` constructors of ``Evaluation``, one per setting (see the module docstring)."""

    __slots__ = ()

    if TYPE_CHECKING:  # the class that mixes these in (Evaluation) takes its fields as arguments

        def __init__(self, *args: Any, **kwargs: Any) -> None: ...

    @classmethod
    def from_labels(
        cls,
        y_true: LabelsLike,
        y_pred: LabelsLike,
        labels: Sequence[Hashable] | None = None,
        *,
        none: Any = _UNSET,
        rejection: str = "miss",
        sample_weight: ArrayLike | None = None,
        metrics_class: MetricsClass | None = None,
    ) -> Self:
        """Single-label data: one class per sample (the one-hot case).

        Counted from label codes by weighted ``bincount``: no indicator and no dense
        ``m x m`` table, so that 20,000 classes cost memory in proportion to the classes and
        to the distinct (actual, predicted) pairs.

        Args:
            y_true: actual labels.
            y_pred: predicted labels.
            labels: the known classes, in order (default: sorted observed labels).
            none: a value meaning "none of the classes": in ``y_pred`` an abstention or a
                prediction of "unknown" (an all-zero predicted row), in ``y_true`` a sample of
                an unknown class (open set: an all-zero actual row).
            rejection: ``"miss"`` (default): a ``none`` prediction counts as a miss of the
                actual class; ``"selective"``: samples predicted ``none`` are left out and
                ``coverage`` says how much was kept.
            sample_weight: one finite weight >= 0 per sample.
            metrics_class: the ``ClassificationMetrics`` subclass whose getters are the result's measures.

        Examples:
            >>> from evalkit import Evaluation
            >>> ev = Evaluation.from_labels(["a", "b", "b", "a"], ["a", "b", "?", "?"], none="?")
            >>> ev.average("recall", "micro"), ev.coverage
            (0.5, 1.0)
            >>> selective = Evaluation.from_labels(["a", "b", "b", "a"], ["a", "b", "?", "?"], none="?",
            ...                                    rejection="selective")
            >>> selective.average("recall", "micro"), selective.coverage
            (1.0, 0.5)
            >>> Evaluation.from_labels([1, 1, 2], [1, 2, 2], sample_weight=[3, 1, 1]).average("recall", "micro")
            0.8
        """
        check_choice("rejection", rejection, REJECTIONS)
        if none is _UNSET:
            if rejection == "selective":
                raise InvalidArgumentError("rejection='selective' needs 'none', the value y_pred uses to abstain")
            actual, predicted, known, weight = encode(y_true, y_pred, labels, sample_weight=sample_weight)
            confusion_labels = known
        else:
            none = check_one_label("none", none)
            fixed = None if labels is None else (*check_label_list(labels), none)
            actual, predicted, found, weight = encode(y_true, y_pred, fixed, sample_weight=sample_weight)
            check_booleans_apart([("none", none), *(("y_true/y_pred", label) for label in found)])  # none=True is not the class 1
            known = tuple(label for label in found if label != none)
            if none in found:  # move none to the last code, m
                position = found.index(none)
                remap = np.array([*range(position), len(known), *range(position, len(known))], dtype=np.intp)
                actual, predicted = remap[actual], remap[predicted]
            confusion_labels = (*known, none)
        m, size = len(known), len(confusion_labels)
        n_rejected: float = 0
        if rejection == "selective":
            kept = predicted != m
            dropped = ~kept
            n_rejected = int(dropped.sum()) if weight is None else weighted_sum(weight[dropped], None)
            actual, predicted = actual[kept], predicted[kept]
            weight = None if weight is None else weight[kept]
        sample_cells = Cells(*one_hot_sample_cells(m).rows(), weight=weight, index=_sample_kinds(actual, predicted, m))
        confusion = PairCounts.from_codes(actual, predicted, size, weight)
        return cls(known, confusion.class_cells(m), sample_cells, "single-label", confusion, confusion_labels, n_rejected, metrics_class=metrics_class)

    @classmethod
    def from_label_sets(
        cls, y_true: LabelSets, y_pred: LabelSets, labels: Sequence[Hashable] | None = None, *, sample_weight: ArrayLike | None = None, metrics_class: MetricsClass | None = None
    ) -> Self:
        """Multi-label data as one collection of labels per sample (``[{"a", "b"}, {"c"}, set()]``).

        Counted from sparse ``(sample, label)`` keys; no ``n x m`` array is built. An empty
        predicted set is a rejection counted as misses.

        Examples:
            >>> from evalkit import Evaluation
            >>> ev = Evaluation.from_label_sets([{"a", "b"}, {"b"}], [{"a"}, {"a", "b"}])
            >>> ev.per_class("recall"), ev.per_sample("precision")
            (array([1. , 0.5]), array([1. , 0.5]))
        """
        keys_actual, keys_predicted, found, n = encode_label_sets(y_true, y_pred, labels)
        weight = check_sample_weight(sample_weight, n)
        by_class, by_sample = key_cells(keys_actual, keys_predicted, n, len(found), weight)
        return cls(found, by_class, by_sample, metrics_class=metrics_class)

    @classmethod
    def from_indicators(
        cls,
        y_true: LabelsLike,
        y_pred: LabelsLike,
        labels: Sequence[Hashable] | None = None,
        *,
        mask: ArrayLike | None = None,
        rejected: ArrayLike | None = None,
        rejection: str = "miss",
        sample_weight: ArrayLike | None = None,
        metrics_class: MetricsClass | None = None,
    ) -> Self:
        """0/1 indicator arrays, samples x labels (bool, int or float 0/1).

        Args:
            y_true: ``n x m`` actual indicators: an array, or a scipy sparse matrix (counted
                from its nonzero entries, never made dense).
            y_pred: ``n x m`` predicted indicators (dense or sparse).
            labels: the column labels (default ``0 .. m-1``).
            mask: optional ``n x m`` 0/1 observation mask; an entry with 0 (a label whose
                truth is unknown for that sample) enters no cell.
            rejected: optional boolean vector of abstained samples.
            rejection: ``"miss"`` (their predicted rows count as all 0) or ``"selective"``
                (they are left out; see ``coverage``).
            sample_weight: one finite weight >= 0 per sample (row).
            metrics_class: the ``ClassificationMetrics`` subclass whose getters are the result's measures.

        Examples:
            >>> import numpy as np
            >>> from evalkit import Evaluation
            >>> ev = Evaluation.from_indicators(np.array([[1, 0], [1, 1]]), np.array([[1, 1], [0, 1]]))
            >>> ev.average("precision", "macro")
            0.75
        """
        check_choice("rejection", rejection, REJECTIONS)
        if is_sparse(y_true) or is_sparse(y_pred):
            if mask is not None or rejected is not None:
                raise UnsupportedSettingError("'mask' and 'rejected' need dense indicator arrays, not scipy sparse matrices")
            keys_actual, shape = sparse_keys(y_true, "y_true")
            keys_predicted, other = sparse_keys(y_pred, "y_pred")
            if other != shape:
                raise InputShapeError(f"'y_pred' has shape {other} but 'y_true' has shape {shape}")
            n, m = shape
            by_class, by_sample = key_cells(keys_actual, keys_predicted, n, m, check_sample_weight(sample_weight, n))
            return cls(column_labels(labels, m), by_class, by_sample, metrics_class=metrics_class)
        a = check_matrix(y_true, "y_true")
        p = check_matrix(y_pred, "y_pred", a.shape)
        observed = None if mask is None else check_matrix(mask, "mask", a.shape)
        dropped = _rejected_rows(rejected, len(a))
        weight = check_sample_weight(sample_weight, len(a))
        dense_class, by_sample = indicator_cells(a, p, mask=observed, rejected=dropped, rejection=rejection, weight=weight)
        assert dense_class is not None  # per-label cells are asked for (labels=True)
        by_class = dense_class
        n_rejected: float = 0
        if dropped is not None and rejection == "selective":
            n_rejected = int(dropped.sum()) if weight is None else weighted_sum(weight[dropped], None)
            by_sample = by_sample[~dropped]
        return cls(column_labels(labels, a.shape[1]), by_class, by_sample, n_rejected=n_rejected, metrics_class=metrics_class)

    @classmethod
    def from_scores(
        cls,
        y_true: LabelsLike,
        y_score: ScoresLike,
        labels: Sequence[Hashable] | None = None,
        *,
        threshold: float | ArrayLike | None = None,
        top_k: int | None = None,
        mask: ArrayLike | None = None,
        sample_weight: ArrayLike | None = None,
        metrics_class: MetricsClass | None = None,
    ) -> Self:
        """ScoresLike (probabilities, logits) per sample and label, turned into predictions.

        Args:
            y_true: ``n x m`` 0/1 indicators, or one label per sample (values of ``labels``).
            y_score: ``n x m`` finite scores, column ``j`` for ``labels[j]``.
            labels: the column labels (default ``0 .. m-1``).
            threshold: predict a label when its score is ``>= threshold`` (a number, or one
                per label); 0.5 when neither ``threshold`` nor ``top_k`` is given.
            top_k: predict the ``k`` highest-scoring labels of every sample (ties go to the
                lower column).
            mask: optional observation mask (with indicator ``y_true`` only).
            sample_weight: one finite weight >= 0 per sample.
            metrics_class: the ``ClassificationMetrics`` subclass whose getters are the result's measures.

        Examples:
            >>> from evalkit import Evaluation
            >>> ev = Evaluation.from_scores(["a", "b"], [[0.9, 0.4], [0.6, 0.7]], labels=["a", "b"])
            >>> ev.per_sample("precision"), Evaluation.from_scores(["a", "b"], [[0.9, 0.4], [0.6, 0.7]],
            ...     labels=["a", "b"], top_k=1).average("recall", "micro")
            (array([1. , 0.5]), 1.0)
        """
        s = check_matrix(y_score, "y_score")
        n, m = s.shape
        predict = _predictor(threshold, top_k, m)
        found = column_labels(labels, m)
        weight = check_sample_weight(sample_weight, n)
        y_true = indicator_rows(y_true, m)  # a list of 0/1 lists is indicator rows, as elsewhere
        if is_label_set_data(y_true):
            raise InvalidTypeError("'y_true' must be 0/1 indicator rows or one label per sample, not label sets")
        if np.ndim(cast("ArrayLike", y_true)) == 2:  # label sets were refused above
            a = check_matrix(y_true, "y_true", s.shape)
            observed = None if mask is None else check_matrix(mask, "mask", s.shape)
            by_class, by_sample = indicator_cells(a, s, mask=observed, predict=predict, weight=weight)
            return cls(found, by_class, by_sample, metrics_class=metrics_class)
        if mask is not None:
            raise UnsupportedSettingError("'mask' needs indicator rows for 'y_true', not one label per sample")
        codes, _, _, _ = encode(y_true, y_true, found)
        if len(codes) != n:
            raise InputLengthError(f"'y_true' has {len(codes)} samples but 'y_score' has {n}")
        keys_actual = np.arange(n, dtype=np.int64) * m + codes
        step = block_rows(m, s.itemsize)
        keys_predicted = np.concatenate(
            [np.flatnonzero(predict(s[start : start + step])) + start * m for start in range(0, n, step)] or [np.zeros(0, int)]
        ).astype(np.int64)
        by_class, by_sample = key_cells(keys_actual, keys_predicted, n, m, weight)
        return cls(found, by_class, by_sample, metrics_class=metrics_class)

    @classmethod
    def from_soft(
        cls,
        y_true: LabelsLike,
        y_pred: LabelsLike,
        labels: Sequence[Hashable] | None = None,
        *,
        tnorm: str | Callable[[np.ndarray, np.ndarray], np.ndarray] = "product",
        mask: ArrayLike | None = None,
        sample_weight: ArrayLike | None = None,
        metrics_class: MetricsClass | None = None,
    ) -> Self:
        """Soft (probabilistic) labels: degrees in [0, 1], cells by a t-norm.

        ``TP = T(a, p)``, ``FP = T(1 - a, p)``, ``FN = T(a, 1 - p)``, ``TN = T(1 - a, 1 - p)``
        with ``tnorm`` ``"product"`` (default; the only one keeping the marginals),
        ``"minimum"``, ``"lukasiewicz"``, or a vectorised callable ``T(a, b)``. Counted in row
        blocks: no full cell matrix is built.

        Examples:
            >>> from evalkit import Evaluation
            >>> ev = Evaluation.from_soft([[0.7]], [[0.6]])
            >>> {name: round(float(value), 2) for name, value in ev.total_cells.counts().items()}
            {'tp': 0.42, 'fp': 0.18, 'fn': 0.28, 'tn': 0.12}
        """
        a = check_matrix(y_true, "y_true")
        p = check_matrix(y_pred, "y_pred", a.shape)
        observed = None if mask is None else check_matrix(mask, "mask", a.shape)
        weight = check_sample_weight(sample_weight, len(a))
        by_class, by_sample = soft_cells(a, p, get_tnorm(tnorm), mask=observed, weight=weight)
        return cls(column_labels(labels, a.shape[1]), by_class, by_sample, setting="soft", metrics_class=metrics_class)

    @classmethod
    def from_ordinal(
        cls, y_true: LabelsLike, y_pred: LabelsLike, levels: Sequence[Hashable], *, sample_weight: ArrayLike | None = None, metrics_class: MetricsClass | None = None
    ) -> Self:
        """Ordinal data in cumulative encoding: ``m`` levels give ``m - 1`` columns ``[y > level_j]``.

        A sample's two encodings differ in ``|y - ŷ|`` columns (in level steps), so
        ``σ1(FP) + σ1(FN) = n · MAE``. The class labels are ``"> level"`` for every level
        but the last; ``confusion_matrix`` keeps the levels.

        Examples:
            >>> from evalkit import Evaluation
            >>> ev = Evaluation.from_ordinal(["low", "high", "mid"], ["mid", "high", "low"], ["low", "mid", "high"])
            >>> ev.labels, ev.total_cells.counts()
            (('> low', '> mid'), {'tp': 2, 'fp': 1, 'fn': 1, 'tn': 2})
        """
        ordered = check_label_list(levels, "levels")
        if len(ordered) < 2:
            raise InvalidArgumentError(f"'levels' needs at least two levels, got {show(list(ordered))}")
        actual, predicted, _, weight = encode(y_true, y_pred, ordered, sample_weight=sample_weight)
        m = len(ordered)
        confusion = PairCounts.from_codes(actual, predicted, m, weight)
        class_cells = confusion.ordinal_cells()
        low, high = np.minimum(actual, predicted), np.maximum(actual, predicted)
        sample_cells = Cells(low, np.maximum(predicted - actual, 0), np.maximum(actual - predicted, 0), m - 1 - high, weight=weight)
        names = tuple(f"> {level}" for level in ordered[:-1])
        return cls(names, class_cells, sample_cells, setting="ordinal", confusion=confusion, confusion_labels=ordered, metrics_class=metrics_class)

    @classmethod
    def from_hierarchy(
        cls, y_true: LabelsLike, y_pred: LabelsLike, hierarchy: Hierarchy | dict, *, root: Hashable | None = None, sample_weight: ArrayLike | None = None,
        metrics_class: MetricsClass | None = None,
    ) -> Self:  # fmt: skip
        """Hierarchical data: labels (one per sample, or label sets) closed under their ancestors.

        Micro precision, recall and F1 of the result are the hierarchical hP, hR and hF.

        Args:
            y_true: actual nodes (one per sample, or a set per sample).
            y_pred: predicted nodes.
            hierarchy: a ``Hierarchy`` or its ``{child: parent}`` map.
            root: with a map, an artificial root left out of the closure.
            sample_weight: one finite weight >= 0 per sample.
            metrics_class: the ``ClassificationMetrics`` subclass whose getters are the result's measures.

        Examples:
            >>> from evalkit import Evaluation
            >>> parents = {"cat": "mammal", "dog": "mammal", "mammal": "animal", "trout": "animal"}
            >>> ev = Evaluation.from_hierarchy(["cat", "trout"], ["dog", "trout"], parents, root="animal")
            >>> ev.average("precision", "micro")  # hP: {dog, mammal} vs {cat, mammal}; trout right
            0.6666666666666666
        """
        taxonomy = hierarchy if isinstance(hierarchy, Hierarchy) else Hierarchy(hierarchy, root=root)
        k = len(taxonomy.nodes)
        if is_label_set_data(y_true):
            keys_actual, keys_predicted, _, n = encode_label_sets(y_true, cast("LabelSets", y_pred), taxonomy.nodes)  # y_pred is checked there
        else:
            actual, predicted, _, _ = encode(y_true, y_pred, taxonomy.nodes)
            n = len(actual)
            keys_actual, keys_predicted = (np.arange(n, dtype=np.int64) * k + codes for codes in (actual, predicted))
        weight = check_sample_weight(sample_weight, n)
        by_class, by_sample = key_cells(taxonomy.close(keys_actual, n), taxonomy.close(keys_predicted, n), n, k, weight)
        return cls(taxonomy.nodes, by_class, by_sample, setting="hierarchical", metrics_class=metrics_class)


# --------------------------------------------------------------------------------------------
# checks and helpers of the constructors








def sparse_keys(values: object, argument: str) -> tuple[np.ndarray, tuple[int, int]]:
    """Sorted keys ``sample * m + label`` of the nonzero entries of a 0/1 matrix (sparse, or
    dense beside a sparse one), and its shape.

    Raises:
        InvalidValueError: an entry other than 0 or 1.
    """
    if not is_sparse(values):  # a dense matrix beside a sparse one
        dense = check_matrix(values, argument)
        return np.flatnonzero(dense.ravel() != 0).astype(np.int64), dense.shape
    matrix = values.tocsr()
    matrix.sum_duplicates()
    n, m = matrix.shape
    data = np.asarray(matrix.data)
    kept = data != 0
    if not np.isin(data[kept], (1, True)).all():
        bad = data[kept][~np.isin(data[kept], (1, True))][:1]
        raise InvalidValueError(f"{argument!r} must hold only 0 and 1 (or booleans), got {bad[0]!r}")
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(matrix.indptr))
    keys = rows[kept] * m + np.asarray(matrix.indices, dtype=np.int64)[kept]
    return np.sort(keys), (n, m)


def _rejected_rows(rejected: ArrayLike | None, n: int) -> np.ndarray | None:
    if rejected is None:
        return None
    array = np.asarray(rejected)
    if array.shape != (n,) or array.dtype != np.bool_:
        raise InputShapeError(f"'rejected' must be a boolean vector of {n} samples, got {show(array)}")
    return array




def _sample_kinds(actual: np.ndarray, predicted: np.ndarray, m: int) -> np.ndarray:
    """The row of ``one_hot_sample_cells`` for each sample (codes ``m`` mean none)."""
    known_actual, known_predicted = actual < m, predicted < m
    same = actual == predicted
    kinds = np.where(same, np.where(known_actual, 0, 4), np.where(known_actual, np.where(known_predicted, 1, 2), 3))
    return kinds.astype(np.uint8)


def _predictor(threshold: float | ArrayLike | None, top_k: int | None, m: int) -> Callable[[np.ndarray], np.ndarray]:
    """A function turning a block of scores into bool predictions."""
    if threshold is not None and top_k is not None:
        raise InvalidArgumentError("give 'threshold' or 'top_k', not both")

    def finite(block: np.ndarray) -> np.ndarray:
        if not np.isfinite(block).all():
            raise InvalidValueError(f"'y_score' must be finite, got {show(block[~np.isfinite(block)][:3])}")
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
    cut = check_numbers("threshold", 0.5 if threshold is None else threshold)
    if cut.shape not in ((), (m,)) or not np.isfinite(cut).all():
        raise InvalidArgumentError(f"'threshold' must be a finite number or one per label ({m}), got {show(threshold)}")
    return lambda block: finite(block) >= cut
