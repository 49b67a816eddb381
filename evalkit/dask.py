"""Distributed evaluation with Dask (the optional ``dask`` extra: ``pip install "evalkit[dask]"``).

Every evalkit count is a sum over samples, so a Dask collection (Dask arrays or Dask DataFrame
columns partitioned alike) is evaluated exactly by counting each partition where it lives and
merging the counts in a tree (``fold``): what travels between workers is counts, never the
data, and the result is the evalkit object of the same data counted in memory. Each function
is one such fold of a kind (the guide page "Scale: streams, merges and Dask" lists them);
evaluations come back compacted (every average exact, no per-sample vectors). Work runs on
the active Dask scheduler (a ``distributed.Client`` if one exists). Every function raises
``InvalidTypeError`` for what is not a Dask collection and ``InputLengthError`` for columns
partitioned unlike or no row at all.
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
from evalkit._results.counted import (
    BatchCount,
    CountedState,
    Kind,
    count_columns,
    fold_columns,
    in_label_order,
    merged_parts,
)
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


def _count_block(template: Kind | BatchCount[Kind], keywords: tuple[str, ...], weighted: bool, empty: bool, *blocks: np.ndarray) -> Kind | None:
    """One partition's result; ``None`` for a partition without rows, unless ``empty`` (no
    partition has any: the result of none, as counted in memory)."""
    lengths = {len(block) for block in blocks}
    if len(lengths) > 1:
        raise InputLengthError(f"a partition holds columns of {sorted(lengths)} rows")
    return count_columns(template, keywords, weighted, *blocks) if len(blocks[0]) or empty else None


def fold(template: Kind | BatchCount[Kind], *columns: object, sample_weight: object = None, names: Sequence[str] = (), **named: object) -> Kind:
    """Any counted result of Dask collections: each partition counted where it lives,
    ``template.counted(*columns, sample_weight=sample_weight, **named)`` of its blocks (numpy
    arrays; ``template`` a result of the kind, or the ``BatchCount`` of a kind that is a
    value), the parts merged in a tree, so the result equals the same result counted in
    memory. Columns are 1-D or 2-D Dask arrays (rechunked to the first's rows) or Dask
    DataFrame columns partitioned alike; ``named`` gives a kind's keyword columns (``None``:
    not given); ``names`` names the columns in errors (``InvalidArgumentError`` for a name
    twice). Every function of this module is such a fold.

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
    given = fold_columns(columns, names, named, sample_weight)
    first = columns[0]
    if isinstance(first, da.Array) and first.ndim not in (1, 2):
        raise InputShapeError(f"{next(iter(given))!r} must be a 1-D or 2-D Dask array, got shape {first.shape}")
    tables = {argument: values.shape for argument, values in given.items() if isinstance(values, da.Array) and values.ndim == 2}
    if len({shape[1] for shape in tables.values()}) > 1:  # (found before any partition is counted, named as given)
        raise InputShapeError(f"the 2-D columns must have one column each per label, got shapes {', '.join(f'{name!r} {shape}' for name, shape in tables.items())}")
    rows = first.rechunk((first.chunks[0], *([-1] * (first.ndim - 1)))).chunks[0] if isinstance(first, da.Array) else None
    blocks = [_blocks(values, argument, rows) for argument, values in given.items()]
    if len({len(found) for found in blocks}) > 1:
        raise InputLengthError(f"the columns have {[len(found) for found in blocks]} partitions: they must be partitioned alike")
    count = functools.partial(_count_block, template, tuple(key for key, values in named.items() if values is not None), sample_weight is not None)
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
# one fold of each kind


def confusion_matrix(
    y_true: LabelsLike, y_pred: LabelsLike, labels: Sequence[Any] | None = None, *, sample_weight: ArrayLike | None = None, metrics_class: MetricsClass | None = None
) -> ConfusionMatrix:
    """The confusion matrix of labels in Dask arrays or DataFrame columns (``sample_weight``: one
    more, partitioned alike), in the label order of ``ConfusionMatrix.from_predictions``
    (sorted, or ``labels``). ``metrics_class``, here and below, is attached to the merged result."""
    counted = BatchCount(ConfusionMatrix.from_predictions, {"labels": None if labels is None else tuple(labels)})
    matrix = in_label_order(fold(counted, y_true, y_pred, sample_weight=sample_weight, names=("y_true", "y_pred")), labels, "y_true/y_pred")
    return _with_metrics_class(matrix, metrics_class)


def by_group(y_true: LabelsLike, y_pred: LabelsLike, groups: GroupsLike, labels: Sequence[Any] | None = None, *, sample_weight: ArrayLike | None = None,
             min_size: float | None = None) -> ByGroup:  # fmt: skip
    """Single-label predictions evaluated per group (the group column partitioned like the
    labels); groups and labels first seen in a later partition join as the parts merge."""
    counted = BatchCount(ByGroup.from_labels, {"labels": None if labels is None else tuple(labels)})
    result = fold(counted, y_true, y_pred, groups, sample_weight=sample_weight, names=("y_true", "y_pred", "groups"))
    return result if min_size is None else attrs.evolve(result, min_size=float(min_size))


def _with_metrics_class(result: Kind, metrics_class: MetricsClass | None) -> Kind:
    return result if metrics_class is None else cast(Kind, cast(Any, result).with_metrics_class(metrics_class))


def evaluate_indicators(
    y_true: da.Array, y_pred: da.Array, labels: Sequence[Any] | None = None, *, mask: da.Array | None = None, sample_weight: ArrayLike | None = None,
    metrics_class: MetricsClass | None = None,
) -> Evaluation:  # fmt: skip
    """A compacted ``Evaluation`` of 0/1 indicator Dask arrays (samples x labels)."""
    return evaluate_soft(y_true, y_pred, labels, tnorm=None, mask=mask, sample_weight=sample_weight, metrics_class=metrics_class)


def evaluate_soft(
    y_true: da.Array, y_pred: da.Array, labels: Sequence[Any] | None = None, *, tnorm: str | TNorm | None = "product", mask: da.Array | None = None,
    sample_weight: ArrayLike | None = None, metrics_class: MetricsClass | None = None,
) -> Evaluation:  # fmt: skip
    """A compacted soft ``Evaluation`` of degree Dask arrays under a t-norm (``tnorm=None``: 0/1
    indicators). Soft per-sample cells rarely repeat, so the compacted rows grow with the data;
    per-label sums and the micro, macro and weighted averages travel as ``O(m)`` counts."""
    if not isinstance(y_true, da.Array) or y_true.ndim != 2:
        raise InvalidTypeError(f"'y_true' must be a 2-D Dask array (samples x labels), got {show(y_true)}")
    counted = BatchCount(_indicators, {"labels": None if labels is None else tuple(labels), "tnorm": tnorm})
    return _with_metrics_class(fold(counted, y_true, y_pred, mask=mask, sample_weight=sample_weight, names=("y_true", "y_pred")), metrics_class)


def evaluate_label_sets(
    y_true: LabelsLike, y_pred: LabelsLike, labels: Sequence[Any] | None = None, *, separator: str | None = None, sample_weight: ArrayLike | None = None,
    metrics_class: MetricsClass | None = None,
) -> Evaluation:  # fmt: skip
    """A compacted multi-label ``Evaluation`` of label sets in Dask columns: collections of
    labels, or strings split at ``separator`` (a string with no separator given is one label)."""
    counted = BatchCount(_count_label_sets, {"labels": None if labels is None else tuple(labels), "separator": separator})
    return _with_metrics_class(fold(counted, y_true, y_pred, sample_weight=sample_weight, names=("y_true", "y_pred")).to_evaluation(), metrics_class)


def aa_rar(ideal: da.Array, result: da.Array, labels: Sequence[Any] | None = None, *, sample_weight: ArrayLike | None = None) -> NeighborhoodAccuracy:
    """AA, RAR and the rest of the neighborhood-system criterion of indicator Dask arrays (elements x labels)."""
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
    """A ``ThresholdCurve`` of Dask arrays, the arguments of ``ThresholdCurve.from_scores``: 1-D
    labels or 2-D indicators, 1-D (binary) or 2-D scores. With ``thresholds`` (a number, or
    the thresholds) what travels is ``O(thresholds x classes)`` counts; without, exact curves
    that grow with the distinct scores. The classes of 2-D scores are found in one pass first
    when ``labels`` is not given."""
    options = {"labels": _score_labels(y_true, y_score, labels, "y_score"), "pos_label": pos_label, "thresholds": thresholds}
    curve = fold(BatchCount(ThresholdCurve.from_scores, options), y_true, y_score, sample_weight=sample_weight, names=("y_true", "y_score"))
    return _with_metrics_class(curve, metrics_class)


def calibration(
    y_true: da.Array, y_prob: da.Array, labels: Sequence[Any] | None = None, *, pos_label: Hashable | None = None, setting: str | None = None,
    bins: int | None = None, sample_weight: ArrayLike | None = None,
) -> Calibration:  # fmt: skip
    """A ``Calibration`` of Dask arrays, the arguments of ``Calibration.from_scores``. With
    ``bins`` (equal width) what travels is ``O(bins x columns)`` sums; without, exact counts
    that grow with the distinct scores; the classes as in ``threshold_curve``."""
    options = {"labels": _score_labels(y_true, y_prob, labels, "y_prob"), "pos_label": pos_label, "setting": setting, "bins": bins}
    return fold(BatchCount(Calibration.from_scores, options), y_true, y_prob, sample_weight=sample_weight, names=("y_true", "y_prob"))


def regression_metrics(y_true: da.Array, y_pred: da.Array, *, sample_weight: ArrayLike | None = None, keep_spread: bool = False) -> RegressionMetrics:
    """The ``RegressionMetrics`` of true values and predictions (1-D, or 2-D samples x outputs):
    exact sums, so the result equals the whole data's counted at once (``keep_spread``: with the
    sums of fourth powers its ``interval`` reads)."""
    return fold(RegressionMetrics(keep_spread=keep_spread), y_true, y_pred, sample_weight=sample_weight, names=("y_true", "y_pred"))


def risk_coverage(y_true: da.Array, y_pred: da.Array, confidence: da.Array, labels: Sequence[Hashable] | None = None, *, sample_weight: ArrayLike | None = None) -> RiskCoverage:
    """The ``RiskCoverage`` of labels, predictions and confidences (what travels is the distinct
    (confidence, actual, predicted) counts); the classes sorted unless ``labels`` fixes them."""
    result = fold(RiskCoverage(labels), y_true, y_pred, confidence, sample_weight=sample_weight, names=("y_true", "y_pred", "confidence"))
    return in_label_order(result, labels, "y_true/y_pred")


def set_coverage(y_true: da.Array, y_pred_set: da.Array, labels: Sequence[Hashable] | None = None, *, sample_weight: ArrayLike | None = None) -> SetCoverage:
    """The ``SetCoverage`` of labels and a 2-D boolean (or 0/1) array of set membership, whose
    columns are ``labels`` (by default ``0 .. k-1``); what travels is ``O(k)`` counts."""
    if not isinstance(y_pred_set, da.Array) or y_pred_set.ndim != 2:
        raise InvalidTypeError(f"'y_pred_set' must be a 2-D Dask array (samples x classes), got {show(y_pred_set)}")
    return fold(SetCoverage(range(y_pred_set.shape[1]) if labels is None else labels), y_true, y_pred_set, sample_weight=sample_weight,
                names=("y_true", "y_pred_set"))


def interval_coverage(y_true: da.Array, lower: da.Array, upper: da.Array, *, y_pred: da.Array | None = None, edges: ArrayLike | None = None,
                      sample_weight: ArrayLike | None = None) -> IntervalCoverage:  # fmt: skip
    """The ``IntervalCoverage`` of true values and interval bounds (with ``y_pred``, the
    predictions that place samples in the bins of ``edges``): five sums a bin travel."""
    return fold(IntervalCoverage(edges), y_true, lower, upper, y_pred=y_pred, sample_weight=sample_weight, names=("y_true", "lower", "upper"))


if not TYPE_CHECKING:  # the names this module gave in evalkit 0.1.0 and lost, found with a warning
    __getattr__ = moved_names.finder(__name__)
