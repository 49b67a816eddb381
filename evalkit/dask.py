"""Distributed evaluation with Dask (the optional ``dask`` extra: ``pip install "evalkit[dask]"``).

Every evalkit count is a sum over samples, so a Dask collection is evaluated exactly by
counting each partition where it lives and summing the counts in a tree. What travels between
workers is counts: an ``m x m`` matrix, ``O(m)`` per-label sums and the distinct per-sample
rows, never the data. The results are the same evalkit objects as in memory.

| function | data (Dask arrays or Dask DataFrame columns) |
|---|---|
| ``confusion_matrix`` | one label per sample → ``ConfusionMatrix`` |
| ``evaluate_indicators`` | 0/1 ``n x m`` arrays → ``Evaluation`` |
| ``evaluate_soft`` | degrees in [0, 1] (t-norm) → ``Evaluation`` |
| ``evaluate_label_sets`` | label sets (or separated strings) → ``Evaluation`` |
| ``aa_rar`` | ideal and result indicators → ``NeighborhoodAccuracy`` |
| ``threshold_curve`` | labels or indicators and scores → ``ThresholdCurve`` |
| ``calibration`` | labels or indicators and probabilities → ``Calibration`` |
| ``by_group`` | labels and a group column → ``ByGroup`` |
| ``regression_metrics`` | true values and predictions → ``RegressionMetrics`` |
| ``risk_coverage`` | labels, predictions and confidences → ``RiskCoverage`` |
| ``set_coverage`` | labels and a boolean ``n x k`` membership array → ``SetCoverage`` |
| ``interval_coverage`` | true values and interval bounds → ``IntervalCoverage`` |

Evaluations come back compacted (one row per distinct per-sample cells): every average is
exact, per-sample vectors are not kept. Work runs on whatever Dask scheduler is active (a
``distributed.Client`` if one exists).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, cast

import attrs
import dask
import dask.array as da
import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine import moved_names
from evalkit._engine._labels import sorted_labels
from evalkit._engine._types import GroupsLike, LabelsLike
from evalkit._engine._validation import show
from evalkit._engine.tnorms import TNorm
from evalkit._groups._by_group import ByGroup
from evalkit._groups.neighborhood import NeighborhoodAccuracy
from evalkit._java.regression_metrics import RegressionMetrics
from evalkit._results.confusion_matrix import ConfusionMatrix
from evalkit._results.counted import BatchCount, CountedState, Kind, column_names, merged_parts
from evalkit._results.evaluation import Evaluation
from evalkit._scale.streaming import LabelSetCounts
from evalkit._scores.calibration import Calibration
from evalkit._scores.conformal import IntervalCoverage, SetCoverage
from evalkit._scores.curves import ThresholdCurve
from evalkit._scores.selective import RiskCoverage
from evalkit.exceptions import InputLengthError, InputShapeError, InvalidTypeError
from evalkit.measures._metrics_class import MetricsClass

__all__ = [
    "aa_rar", "by_group", "calibration", "confusion_matrix", "evaluate_indicators", "evaluate_label_sets", "evaluate_soft", "fold", "interval_coverage",
    "regression_metrics", "risk_coverage", "set_coverage", "threshold_curve",
]  # fmt: skip

SPLIT_EVERY = 8
"""How many partial results are merged at each node of the reduction tree."""


def _is_series(values: object) -> bool:
    return type(values).__module__.startswith("dask.dataframe") and hasattr(values, "to_delayed")


def _to_numpy(partition: Any) -> np.ndarray:
    return partition.to_numpy() if hasattr(partition, "to_numpy") else np.asarray(partition)


def _check_not_converted(values: Any, argument: str) -> None:
    """Refuse a column that Dask turned from Python objects (ints, lists, mixed values) into
    strings when the DataFrame was made from pandas (``dataframe.convert-string``, on by
    default): its labels are no longer the user's. Best effort: a Dask without these
    internals skips the check."""
    try:
        nodes = [node for node in values.expr.walk() if type(node).__name__ == "FromPandas" and node.operand("pyarrow_strings_enabled")]
        if not nodes:
            return
        import pandas as pd

        frame = nodes[0].operand("frame")._data
        column = frame[values.name] if isinstance(frame, pd.DataFrame) else frame
        if column.dtype != object:
            return
        kind = pd.api.types.infer_dtype(column, skipna=True)
    except (AttributeError, KeyError, TypeError, ValueError, ImportError):
        return
    if kind not in ("string", "empty"):
        raise InvalidTypeError(
            f"{argument!r}: Dask turned the column {values.name!r} of Python objects ({kind}) into strings, so 1 became '1' "
            "and a list its text; make the DataFrame under dask.config.set({'dataframe.convert-string': False})"
        )


def _vector_partitions(values: Any, argument: str) -> list:
    """Delayed per-partition values of a 1-D Dask array or a Dask DataFrame column."""
    if isinstance(values, da.Array):
        if values.ndim != 1:
            raise InputShapeError(f"{argument!r} must be a 1-D Dask array, got shape {values.shape}")
        return [dask.delayed(_to_numpy)(block) for block in values.to_delayed().ravel()]
    if _is_series(values):
        _check_not_converted(values, argument)
        return [dask.delayed(_to_numpy)(partition) for partition in values.to_delayed()]
    raise InvalidTypeError(f"{argument!r} must be a Dask array or a Dask DataFrame column, got {show(values)}")


def _fold(*results: Any, what: str) -> Any:
    return merged_parts(results, what)


def _reduce(parts: list, what: str) -> Any:
    """Fold delayed partial results in a tree (``SPLIT_EVERY`` a node) and compute the root."""
    if not parts:
        raise InputLengthError("the collection has no partitions: nothing to count")
    fold = functools.partial(_fold, what=what)
    while len(parts) > 1:
        parts = [dask.delayed(fold)(*parts[i : i + SPLIT_EVERY]) for i in range(0, len(parts), SPLIT_EVERY)]
    return dask.compute(parts[0])[0]


def _blocks(values: object, argument: str, rows: tuple[int, ...] | None) -> list:
    """Delayed blocks of a Dask array (rechunked to the row blocks ``rows``, whole rows) or of a
    Dask DataFrame column."""
    if isinstance(values, da.Array) and rows is not None:
        if values.ndim not in (1, 2):
            raise InputShapeError(f"{argument!r} must be a 1-D or 2-D Dask array, got shape {values.shape}")
        if values.shape[0] != sum(rows):
            raise InputLengthError(f"{argument!r} has {values.shape[0]} rows but the first column {sum(rows)}")
        return list(values.rechunk((rows, *([-1] * (values.ndim - 1)))).to_delayed().ravel())
    return _vector_partitions(values, argument)


def _count_block(template: Kind | BatchCount[Kind], names: tuple[str, ...], weighted: bool, empty: bool, *blocks: np.ndarray) -> Kind | None:
    """One partition's result; ``None`` for a partition without rows, unless ``empty`` (no
    partition has any: the result of none, as counted in memory)."""
    lengths = {len(block) for block in blocks}
    if len(lengths) > 1:
        raise InputLengthError(f"a partition holds columns of {sorted(lengths)} rows")
    if not len(blocks[0]) and not empty:
        return None
    given = len(blocks) - len(names) - weighted
    named = dict(zip(names, blocks[given : given + len(names)]))
    return template.counted(*blocks[:given], sample_weight=blocks[-1] if weighted else None, **named)


def fold(template: Kind | BatchCount[Kind], *columns: object, sample_weight: object = None, names: Sequence[str] = (), **named: object) -> Kind:
    """Any counted result of Dask collections: each partition counted where it lives,
    ``template.counted(*columns, sample_weight=sample_weight, **named)`` of its blocks (numpy
    arrays; ``template`` a result of the kind, or the ``BatchCount`` of a kind that is a
    value), the parts merged in a tree, so the result equals the same result counted in
    memory. Columns are 1-D or 2-D Dask arrays (rechunked to the first's rows, whole rows) or
    Dask DataFrame columns partitioned alike; ``named`` gives a kind's keyword columns
    (``None``: not given); ``names`` names the columns in errors. Every function of this
    module is such a fold.

    Raises:
        InvalidTypeError: not Dask collections.
        InvalidArgumentError: ``names`` that name a column twice (or a keyword column's name).
        InputLengthError, InputShapeError: columns of other lengths or partitions; no row at all.

    Examples:
        >>> import dask.array as da
        >>> from evalkit import IntervalCoverage
        >>> y, low, high = (da.from_array(values, chunks=2) for values in ([1.0, 2.0, 5.0], [0.5, 1.0, 2.0], [1.5, 3.0, 4.0]))
        >>> fold(IntervalCoverage(), y, low, high).coverage()
        0.6666666666666666
    """
    if not isinstance(template, (CountedState, BatchCount)):
        raise InvalidTypeError(f"'template' must be a counted result or a BatchCount, got {show(template)}")
    if not columns:
        raise InvalidTypeError("'columns' must hold at least one Dask collection")
    if isinstance(columns[0], da.Array) and columns[0].ndim not in (1, 2):
        raise InputShapeError(f"{(names or ['columns[0]'])[0]!r} must be a 1-D or 2-D Dask array, got shape {columns[0].shape}")
    keywords = {key: values for key, values in named.items() if values is not None}
    given = {**dict(zip(column_names(names, len(columns), keywords), columns)), **keywords}
    if sample_weight is not None:
        given["sample_weight"] = sample_weight
    tables = {argument: values.shape for argument, values in given.items() if isinstance(values, da.Array) and values.ndim == 2}
    if len({shape[1] for shape in tables.values()}) > 1:  # (found before any partition is counted, named as given)
        raise InputShapeError(f"the 2-D columns must have one column each per label, got shapes {', '.join(f'{name!r} {shape}' for name, shape in tables.items())}")
    first = columns[0]
    rows = first.rechunk((first.chunks[0], *([-1] * (first.ndim - 1)))).chunks[0] if isinstance(first, da.Array) else None
    blocks = [_blocks(values, argument, rows) for argument, values in given.items()]
    if len({len(found) for found in blocks}) > 1:
        raise InputLengthError(f"the columns have {[len(found) for found in blocks]} partitions: they must be partitioned alike")
    count = functools.partial(_count_block, template, tuple(keywords), sample_weight is not None)
    parts = list(zip(*blocks))
    result: Kind | None = _reduce([dask.delayed(count)(False, *part) for part in parts], "/".join(given))
    if result is None:  # no row at all: what counting none gives in memory (an empty result, or the kind's error)
        result = dask.compute(dask.delayed(count)(True, *parts[0]))[0]
    return cast(Kind, result)


# --------------------------------------------------------------------------------------------
# partition work (module-level functions, so that workers can import them)


def _indicators(actual: np.ndarray, predicted: np.ndarray, *, labels: tuple | None, mask: np.ndarray | None = None, sample_weight: np.ndarray | None = None,
                tnorm: str | TNorm | None = None) -> Evaluation:  # fmt: skip
    """One partition's compacted ``Evaluation`` of indicators (of degrees under ``tnorm``)."""
    if tnorm is None:
        return Evaluation.from_indicators(actual, predicted, labels, mask=mask, sample_weight=sample_weight).compact()
    return Evaluation.from_soft(actual, predicted, labels, tnorm=tnorm, mask=mask, sample_weight=sample_weight).compact()


_COLLECTION_TEXT = re.compile(r"\[.*\]|\{.*\}|\(.*\)|set\(\)|frozenset\(.*\)", re.DOTALL)
"""The text Python (and Dask's string conversion) makes of a list, set or tuple."""


def _label_sets(values: list, separator: str | None) -> list:
    if separator is None:
        for value in values:
            if isinstance(value, str) and _COLLECTION_TEXT.fullmatch(value.strip()):
                raise InvalidTypeError(
                    f"a label-set column holds the text {value!r}, not a collection: Dask turns object columns into strings "
                    "unless dask.config.set({'dataframe.convert-string': False}) is in force when the DataFrame is made; "
                    "or pass separator= for separated strings"
                )
        return [value if not isinstance(value, str) else {value} for value in values]
    return [{part.strip() for part in value.split(separator) if part.strip()} if isinstance(value, str) else value for value in values]


def _count_label_sets(actual: np.ndarray, predicted: np.ndarray, *, labels: tuple | None, separator: str | None, sample_weight: np.ndarray | None) -> LabelSetCounts:
    counts = LabelSetCounts(labels)
    counts.update(_label_sets(list(actual), separator), _label_sets(list(predicted), separator), sample_weight=sample_weight)
    return counts




# --------------------------------------------------------------------------------------------
# public functions


def confusion_matrix(
    y_true: LabelsLike, y_pred: LabelsLike, labels: Sequence[Any] | None = None, *, sample_weight: ArrayLike | None = None, metrics_class: MetricsClass | None = None
) -> ConfusionMatrix:
    """The confusion matrix of labels held in Dask arrays or Dask DataFrame columns.

    Each partition pair is counted where it lives; the ``m x m`` matrices are summed in a tree.
    The label order is that of ``ConfusionMatrix.from_predictions``: sorted, or ``labels``.
    ``sample_weight`` is a Dask array (rechunked like ``y_true``) or a Dask DataFrame column
    partitioned like the labels. ``metrics_class`` (here and in every function of this
    module) is the result's metrics class, attached to the merged result (the partitions
    never need it).

    Raises:
        InputLengthError: the two collections do not split into equal partitions.
    """
    counted = BatchCount(ConfusionMatrix.from_predictions, {"labels": None if labels is None else tuple(labels)})
    matrix = fold(counted, y_true, y_pred, sample_weight=sample_weight, names=("y_true", "y_pred"))
    if labels is None:  # the partitions' labels joined as they merged: sorted, as from_predictions sorts
        matrix = matrix.with_labels(sorted_labels(list(matrix.labels), "y_true/y_pred"))
    return _with_metrics_class(matrix, metrics_class)


def by_group(y_true: LabelsLike, y_pred: LabelsLike, groups: GroupsLike, labels: Sequence[Any] | None = None, *, sample_weight: ArrayLike | None = None,
             min_size: float | None = None) -> ByGroup:  # fmt: skip
    """Single-label predictions evaluated per group, from Dask arrays or DataFrame columns
    partitioned alike (the group column too): each partition is counted where it lives and
    the per-group matrices are merged in a tree (groups and labels first seen in a later
    partition are added).

    Raises:
        InputLengthError: the collections do not split into equal partitions.
    """
    counted = BatchCount(ByGroup.from_labels, {"labels": None if labels is None else tuple(labels)})
    result = fold(counted, y_true, y_pred, groups, sample_weight=sample_weight, names=("y_true", "y_pred", "groups"))
    return result if min_size is None else attrs.evolve(result, min_size=float(min_size))

def _with_metrics_class(result: Any, metrics_class: MetricsClass | None) -> Any:
    return result if metrics_class is None else result.with_metrics_class(metrics_class)


def evaluate_indicators(
    y_true: da.Array, y_pred: da.Array, labels: Sequence[Any] | None = None, *, mask: da.Array | None = None, sample_weight: ArrayLike | None = None,
    metrics_class: MetricsClass | None = None,
) -> Evaluation:  # fmt: skip
    """A compacted ``Evaluation`` of 0/1 indicator Dask arrays (samples x labels), optionally
    weighted by a 1-D Dask array of one weight per row."""
    return evaluate_soft(y_true, y_pred, labels, tnorm=None, mask=mask, sample_weight=sample_weight, metrics_class=metrics_class)

def evaluate_soft(
    y_true: da.Array,
    y_pred: da.Array,
    labels: Sequence[Any] | None = None,
    *,
    tnorm: str | TNorm | None = "product",
    mask: da.Array | None = None,
    sample_weight: ArrayLike | None = None,
    metrics_class: MetricsClass | None = None,
) -> Evaluation:
    """A compacted soft ``Evaluation`` of degree Dask arrays under a t-norm.

    Soft per-sample cells rarely repeat, so the compacted per-sample rows grow with the data;
    per-label sums and micro/macro/weighted averages travel as ``O(m)`` counts (``tnorm=None``:
    0/1 indicators, as ``evaluate_indicators``).
    """
    if not isinstance(y_true, da.Array) or y_true.ndim != 2:
        raise InvalidTypeError(f"'y_true' must be a 2-D Dask array (samples x labels), got {show(y_true)}")
    counted = BatchCount(_indicators, {"labels": None if labels is None else tuple(labels), "tnorm": tnorm})
    return _with_metrics_class(fold(counted, y_true, y_pred, mask=mask, sample_weight=sample_weight, names=("y_true", "y_pred")), metrics_class)

def evaluate_label_sets(
    y_true: LabelsLike, y_pred: LabelsLike, labels: Sequence[Any] | None = None, *, separator: str | None = None, sample_weight: ArrayLike | None = None,
    metrics_class: MetricsClass | None = None,
) -> Evaluation:  # fmt: skip
    """A compacted multi-label ``Evaluation`` of label sets in Dask columns.

    Values are collections of labels, or strings split at ``separator`` (a string with no
    separator given is one label). ``sample_weight``: a Dask column (or array) partitioned
    like the label sets.
    """
    counted = BatchCount(_count_label_sets, {"labels": None if labels is None else tuple(labels), "separator": separator})
    return _with_metrics_class(fold(counted, y_true, y_pred, sample_weight=sample_weight, names=("y_true", "y_pred")).to_evaluation(), metrics_class)

def aa_rar(ideal: da.Array, result: da.Array, labels: Sequence[Any] | None = None, *, sample_weight: ArrayLike | None = None) -> NeighborhoodAccuracy:
    """AA, RAR and the rest of the neighborhood-system criterion for indicator Dask arrays
    (elements x labels), optionally with a weight per element."""
    return NeighborhoodAccuracy.from_evaluation(evaluate_indicators(ideal, result, labels, sample_weight=sample_weight))


def _score_labels(y_true: da.Array, y_score: da.Array, labels: Sequence[Any] | None, name: str) -> tuple | None:
    """The column labels of 2-D scores (found in one pass first when not given)."""
    if not isinstance(y_score, da.Array) or not isinstance(y_true, da.Array):
        raise InvalidTypeError(f"'y_true' and {name!r} must be Dask arrays, got {show(y_true)} and {show(y_score)}")
    if y_score.ndim == 2 and y_true.ndim == 1 and labels is None:
        labels = sorted_labels(da.unique(y_true).compute().tolist(), "y_true")
    return None if labels is None else tuple(labels)


def threshold_curve(
    y_true: da.Array, y_score: da.Array, labels: Sequence[Any] | None = None, *, pos_label: Hashable | None = None, thresholds: int | ArrayLike | None = None,
    sample_weight: ArrayLike | None = None, metrics_class: MetricsClass | None = None,
) -> ThresholdCurve:  # fmt: skip
    """A ``ThresholdCurve`` of Dask arrays: one curve per partition, merged in a tree.

    With ``thresholds`` (a number, or the thresholds) what travels between workers is
    O(thresholds x classes) counts; without, exact curves whose size grows with the distinct
    scores. Multi-class labels are found in one pass first when ``labels`` is not given.

    Args:
        y_true: a 1-D Dask array of labels, or a 2-D one of 0/1 indicators.
        y_score: a 1-D (binary) or 2-D Dask array of scores.
        labels: the column labels of 2-D scores (as for ``ThresholdCurve.from_scores``).
        pos_label: the positive class of binary labels.
        thresholds: ``None`` for the exact curve, or a number of thresholds, or the thresholds.
        sample_weight: a 1-D Dask array of one weight per sample.
    """
    options = {"labels": _score_labels(y_true, y_score, labels, "y_score"), "pos_label": pos_label, "thresholds": thresholds}
    curve = fold(BatchCount(ThresholdCurve.from_scores, options), y_true, y_score, sample_weight=sample_weight, names=("y_true", "y_score"))
    return _with_metrics_class(curve, metrics_class)

def calibration(
    y_true: da.Array, y_prob: da.Array, labels: Sequence[Any] | None = None, *, pos_label: Hashable | None = None, setting: str | None = None,
    bins: int | None = None, sample_weight: ArrayLike | None = None,
) -> Calibration:  # fmt: skip
    """A ``Calibration`` of Dask arrays: one per partition, merged in a tree. With ``bins``
    what travels between workers is O(bins x columns) sums; without, exact counts whose
    size grows with the distinct scores. Multi-class labels are found in one pass first when
    ``labels`` is not given.

    Args:
        y_true: a 1-D Dask array of labels, or a 2-D one of 0/1 indicators.
        y_prob: a 1-D (binary) or 2-D Dask array of probabilities.
        labels: the column labels of 2-D probabilities (as for ``Calibration.from_scores``).
        pos_label: the positive class of binary labels.
        setting: ``"top_label"`` or ``"classwise"`` for ``n x m`` probabilities.
        bins: ``None`` for the exact counts, or a number of equal-width bins.
        sample_weight: a 1-D Dask array of one weight per sample.
    """
    options = {"labels": _score_labels(y_true, y_prob, labels, "y_prob"), "pos_label": pos_label, "setting": setting, "bins": bins}
    return fold(BatchCount(Calibration.from_scores, options), y_true, y_prob, sample_weight=sample_weight, names=("y_true", "y_prob"))

def regression_metrics(y_true: da.Array, y_pred: da.Array, *, sample_weight: ArrayLike | None = None) -> RegressionMetrics:
    """The ``RegressionMetrics`` of Dask arrays or DataFrame columns: each partition's exact sums,
    merged in a tree, so the result equals the one of the whole data counted at once.

    Args:
        y_true: a 1-D Dask array or DataFrame column of true values, or a 2-D Dask array (samples x outputs).
        y_pred: the predictions, of the same shape.
        sample_weight: a 1-D Dask array (or column) of one weight per sample.

    Raises:
        InvalidTypeError: not Dask collections. InputShapeError, InputLengthError: other shapes or partitions.
    """
    return fold(RegressionMetrics(), y_true, y_pred, sample_weight=sample_weight, names=("y_true", "y_pred"))


def risk_coverage(y_true: da.Array, y_pred: da.Array, confidence: da.Array, labels: Sequence[Hashable] | None = None, *, sample_weight: ArrayLike | None = None) -> RiskCoverage:
    """The ``RiskCoverage`` of Dask arrays or DataFrame columns: one per partition, merged in a
    tree (what travels is the distinct (confidence, actual, predicted) counts). The classes are
    sorted at the end unless ``labels`` fixes them.

    Raises:
        InvalidTypeError: not Dask collections. InputLengthError: other partitions, or no sample.
    """
    result = fold(RiskCoverage(labels), y_true, y_pred, confidence, sample_weight=sample_weight, names=("y_true", "y_pred", "confidence"))
    return result if labels is not None else result.with_labels(sorted_labels(list(result.labels), "y_true/y_pred"))


def set_coverage(y_true: da.Array, y_pred_set: da.Array, labels: Sequence[Hashable] | None = None, *, sample_weight: ArrayLike | None = None) -> SetCoverage:
    """The ``SetCoverage`` of a 1-D Dask array of labels and a 2-D boolean (or 0/1) Dask array
    of set membership (``labels`` are its columns; by default ``0 .. k-1``): one per partition,
    merged in a tree (what travels is ``O(k)`` counts).

    Raises:
        InvalidTypeError: not Dask arrays. InputLengthError: no sample.
    """
    if not isinstance(y_pred_set, da.Array) or y_pred_set.ndim != 2:
        raise InvalidTypeError(f"'y_pred_set' must be a 2-D Dask array (samples x classes), got {show(y_pred_set)}")
    return fold(SetCoverage(range(y_pred_set.shape[1]) if labels is None else labels), y_true, y_pred_set, sample_weight=sample_weight,
                names=("y_true", "y_pred_set"))


def interval_coverage(y_true: da.Array, lower: da.Array, upper: da.Array, *, y_pred: da.Array | None = None, edges: ArrayLike | None = None,
                      sample_weight: ArrayLike | None = None) -> IntervalCoverage:  # fmt: skip
    """The ``IntervalCoverage`` of Dask arrays or DataFrame columns (true values, lower and upper
    bounds, optionally the predictions that place samples in the bins of ``edges``): one per
    partition, merged in a tree (what travels is five sums a bin).

    Raises:
        InvalidTypeError: not Dask collections. InputLengthError: other partitions, or no sample.
    """
    return fold(IntervalCoverage(edges), y_true, lower, upper, y_pred=y_pred, sample_weight=sample_weight, names=("y_true", "lower", "upper"))

if not TYPE_CHECKING:  # the names this module gave in evalkit 0.1.0 and lost, found with a warning
    __getattr__ = moved_names.finder(__name__)
