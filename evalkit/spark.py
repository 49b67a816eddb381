"""Spark DataFrames evaluated exactly, in one pass (needs ``pyspark``, with evalkit installed
on the executors).

Every evalkit count is a sum over rows, so a DataFrame is evaluated by counting each partition
where it lives (``mapInPandas``: its columns as Arrow batches, counted into an evalkit result)
and merging the results in a tree (``treeReduce``) through the counted-state protocol
(``fold``). What travels is counts, never the rows; the result is the evalkit object of the
same rows counted locally. Each function is one such fold of a kind, over columns named as
Spark names them (``label``, ``prediction``, ``probability``; the guide page "Evaluating on
Spark" lists them beside Spark's own evaluators); ``binned`` and ``area_under_pr`` give
Spark's bins and trapezoid on any curve. Every function raises ``InvalidArgumentError`` for a
column the DataFrame does not have and ``EmptyInputError`` for no rows.

For example, with a DataFrame ``df`` of columns ``label`` and ``prediction``:
``evalkit.spark.confusion_matrix(df).average("f1_score", "macro")``.
"""

from __future__ import annotations

import decimal
import functools
import pickle
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import Any, Protocol, TypeVar, cast

import numpy as np

from evalkit._engine import moved_names
from evalkit._engine._validation import show
from evalkit._groups._by_group import ByGroup
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
from evalkit._scores.calibration import Calibration
from evalkit._scores.conformal import IntervalCoverage, SetCoverage
from evalkit._scores.curves import ThresholdCurve
from evalkit._scores.ranked_lists import RankedLists
from evalkit._scores.selective import RiskCoverage
from evalkit._scores.spark_curves import area_under_pr, binned
from evalkit.exceptions import EmptyInputError, InvalidArgumentError, InvalidTypeError
from evalkit.measures._metrics_class import MetricsClass

__all__ = [
    "SparkFrame", "area_under_pr", "binned", "by_group", "calibration", "confusion_matrix", "evaluation", "fold", "interval_coverage", "ranked_lists",
    "regression_metrics", "risk_coverage", "set_coverage", "threshold_curve",
]  # fmt: skip


class SparkFrame(Protocol):
    """What evalkit reads of a ``pyspark.sql.DataFrame`` (pyspark stays an optional import)."""

    @property
    def columns(self) -> list[str]: ...

    def select(self, *columns: str) -> SparkFrame: ...

    def groupBy(self, *columns: str) -> Any: ...

    def mapInPandas(self, function: Callable[[Iterator[Any]], Iterator[Any]], schema: str) -> Any: ...

DEPTH = 2
"""The depth of the merge tree (``treeReduce``): partitions merged on the executors in rounds,
the driver merging a few results."""


def _columns(df: object, names: dict[str, str | None]) -> list[str]:
    """The columns asked for, each checked to be one of the DataFrame's."""
    if not hasattr(df, "mapInPandas") or not hasattr(df, "columns"):
        raise InvalidTypeError(f"'df' must be a Spark DataFrame, got {show(df)}")
    present = cast(SparkFrame, df).columns
    missing = [f"{argument}={column!r}" for argument, column in names.items() if column is not None and column not in present]
    if missing:
        raise InvalidArgumentError(f"the DataFrame has no column {', '.join(missing)}; it has {list(present)}")
    return [column for column in names.values() if column is not None]


CHUNK = 500_000
"""Rows of a partition counted at once (their columns held meanwhile: about 8 MB a column)."""


def _counted(rows: Any, columns: list[str], count: Callable[..., CountedState]) -> CountedState:
    return count(*(_numbers(rows[column].to_numpy()) for column in columns))


def _numbers(values: np.ndarray) -> np.ndarray:
    """A column as numpy gives it, a ``DecimalType`` column (Python ``Decimal`` objects) as floats."""
    if values.dtype == object and len(values) and isinstance(values[0], decimal.Decimal):
        try:
            return values.astype(np.float64)
        except TypeError:  # a null among them: the kind names it
            return values
    return values


def _merge(first: bytes, second: bytes) -> bytes:
    return _dumped(merged_parts([pickle.loads(first), pickle.loads(second)], "the DataFrame's columns"))  # evalkit's own results, from its own executors


def _dumped(result: CountedState) -> bytes:
    """A part's bytes, by Spark's cloudpickle: a kind defined in a notebook (or a module
    registered with ``cloudpickle.register_pickle_by_value``) travels with its class."""
    from pyspark import cloudpickle

    return cast(bytes, cloudpickle.dumps(result))


def _selected(df: SparkFrame, columns: list[str]) -> SparkFrame:
    """The columns, a vector column (``pyspark.ml.linalg``'s, as a probability column is) as an
    array column, which Arrow carries."""
    vectors = [field.name for field in cast(Any, df).schema.fields if field.name in columns and type(field.dataType).__name__ == "VectorUDT"]
    if not vectors:
        return df.select(*columns)
    from pyspark.ml.functions import vector_to_array
    from pyspark.sql import functions

    return cast(SparkFrame, cast(Any, df).select(*(vector_to_array(functions.col(c)).alias(c) if c in vectors else functions.col(c) for c in columns)))


def _matrix(values: np.ndarray) -> np.ndarray:
    """A column of score vectors (one array per row) as an ``n x m`` array; a number column as itself."""
    return np.stack(list(values)).astype(float) if values.dtype == object else values.astype(float)


def _folded(df: SparkFrame, columns: list[str], count: Callable[..., CountedState]) -> CountedState:
    """Each partition's rows counted by ``count(*columns)`` (numpy arrays), merged in a tree;
    a column named twice is selected once (Arrow refuses a name twice) and given twice."""

    def partitions(batches: Iterator[Any]) -> Iterator[Any]:  # pandas DataFrames in and out
        import pandas as pd  # on the executor, where mapInPandas runs

        parts, pending, rows = [], [], 0
        for batch in batches:  # Arrow batches of 10,000 rows, counted CHUNK rows at a time: one count's overhead per chunk
            pending.append(batch)
            rows += len(batch)
            if rows >= CHUNK:
                parts.append(_counted(pd.concat(pending), columns, count))
                pending, rows = [], 0
        if rows:
            parts.append(_counted(pd.concat(pending), columns, count))
        merged = merged_parts(parts, "the DataFrame's columns")
        if merged is not None:
            yield pd.DataFrame({"part": [_dumped(merged)]})

    counted = _selected(df, list(dict.fromkeys(columns))).mapInPandas(partitions, schema="part binary").rdd.map(lambda row: bytes(row[0]))
    try:
        result: CountedState = pickle.loads(counted.treeReduce(_merge, depth=DEPTH))
        return result
    except ValueError as error:  # treeReduce of no partition that counted anything
        if "empty" in str(error).lower():
            raise EmptyInputError("the DataFrame has no rows: nothing to count") from None
        raise


def fold(df: SparkFrame, template: Kind | BatchCount[Kind], columns: Sequence[str], *, weight: str | None = None, names: Sequence[str] = (),
         **named: str | None) -> Kind:  # fmt: skip
    """Any counted result of columns of a Spark DataFrame: each partition counted where it
    lives, ``template.counted(*columns, sample_weight=weight, **named)`` of its rows (numpy
    arrays; ``template`` a result of the kind, or the ``BatchCount`` of a kind that is a
    value), the parts merged in a tree, so the result equals the same result counted in memory.
    ``named`` gives a kind's keyword columns (``None``: not given); ``names`` names the
    columns in errors (``InvalidArgumentError`` for a name twice). Every function of this
    module is such a fold."""
    given = fold_columns(columns, names, named, weight, "weight")
    count = functools.partial(count_columns, template, [key for key, column in named.items() if column is not None], weight is not None)
    return cast(Kind, _folded(df, _columns(df, cast(dict, given)), count))


def confusion_matrix(df: SparkFrame, actual: str = "label", predicted: str = "prediction", labels: Sequence[Hashable] | None = None, *,
                     weight: str | None = None, metrics_class: MetricsClass | None = None) -> ConfusionMatrix:  # fmt: skip
    """The confusion matrix of two columns (with a weight column if given), in the label order
    of ``ConfusionMatrix.from_predictions`` (sorted, or ``labels``). Unweighted, Spark counts
    the (actual, predicted) pairs itself (one aggregation, exact integers); weighted, each
    partition is counted by evalkit, whose sums of weights are exact where Spark's round."""
    fixed = None if labels is None else tuple(labels)
    if weight is None:  # whole counts: Spark counts the pairs itself (exact integers), and the driver gets one row per pair
        _columns(df, {"actual": actual, "predicted": predicted})
        pairs = df.groupBy(actual, predicted).count().collect()
        if not pairs:
            raise EmptyInputError("the DataFrame has no rows: nothing to count")
        a, p, n = (np.array([row[k] for row in pairs]) for k in range(3))
        matrix = ConfusionMatrix.from_predictions(a, p, fixed, sample_weight=n)  # each pair once, weighted by its count
    else:
        matrix = in_label_order(fold(df, ConfusionMatrix(fixed), [actual, predicted], weight=weight, names=("actual", "predicted")), fixed, "actual/predicted")
    return matrix if metrics_class is None else matrix.with_metrics_class(metrics_class)


def threshold_curve(df: SparkFrame, actual: str = "label", score: str = "score", labels: Sequence[Hashable] | None = None, *,
                    pos_label: Hashable = 1, weight: str | None = None, thresholds: int | Sequence[float] | None = None) -> ThresholdCurve:  # fmt: skip
    """The threshold curve of a score column, exact or binned at ``thresholds``. A number column
    is a binary score of ``pos_label`` (Spark's 1 by default: a partition of one class cannot
    tell); a column of score vectors (an array, or a ``pyspark.ml`` vector such as
    ``probability``) one score per class, entry ``j`` for ``labels[j]`` (by default the label
    ``j``, Spark's convention), each a one-vs-rest curve."""
    return fold(df, BatchCount(_of_scores, {"build": ThresholdCurve.from_scores, "labels": labels, "pos_label": pos_label, "thresholds": thresholds}),
                [actual, score], weight=weight, names=("actual", "score"))  # fmt: skip


Scored = TypeVar("Scored", ThresholdCurve, Calibration)


def _of_scores(a: np.ndarray, s: np.ndarray, *, build: Callable[..., Scored], sample_weight: np.ndarray | None, labels: Sequence[Hashable] | None,
               pos_label: Hashable, **options: object) -> Scored:  # fmt: skip
    """``build(y_true, scores, ...)`` of a partition's score column: numbers are a binary score of
    ``pos_label``; vectors one score per class, entry ``j`` for ``labels[j]`` (by default the label ``j``)."""
    scores = _matrix(s)
    if scores.ndim == 1:
        return build(a, scores, pos_label=pos_label, sample_weight=sample_weight, **options)
    return build(a, scores, tuple(range(scores.shape[1])) if labels is None else tuple(labels), sample_weight=sample_weight, **options)


def calibration(df: SparkFrame, actual: str = "label", probability: str = "probability", labels: Sequence[Hashable] | None = None, *,
                pos_label: Hashable = 1, setting: str | None = None, weight: str | None = None, bins: int | None = None) -> Calibration:  # fmt: skip
    """The calibration of a probability column, read as in ``threshold_curve``: every error, the
    reliability diagram and the log loss (``setting="classwise"``: the multi-class log loss
    Spark's ``logLoss`` is)."""
    return fold(df, BatchCount(_of_scores, {"build": Calibration.from_scores, "labels": labels, "pos_label": pos_label, "setting": setting, "bins": bins}),
                [actual, probability], weight=weight, names=("actual", "probability"))  # fmt: skip


def by_group(df: SparkFrame, actual: str = "label", predicted: str = "prediction", group: str = "group", labels: Sequence[Hashable] | None = None, *,
             weight: str | None = None) -> ByGroup:  # fmt: skip
    """Predictions per group of a column: a confusion matrix per group and overall (``ByGroup``)."""
    return fold(df, BatchCount(ByGroup.from_labels, {"labels": None if labels is None else tuple(labels)}), [actual, predicted, group], weight=weight, names=("actual", "predicted", "group"))


def evaluation(df: SparkFrame, actual: str = "label", predicted: str = "prediction", labels: Sequence[Hashable] | None = None, *,
               weight: str | None = None) -> Evaluation:  # fmt: skip
    """The multi-label evaluation of two array columns of label sets, as Spark's
    ``MultilabelClassificationEvaluator`` reads them (an empty predicted set counts as misses);
    the label order sorted, or ``labels``."""
    fixed = None if labels is None else tuple(labels)
    counted = BatchCount(Evaluation.from_label_sets, {"labels": fixed})  # (each row's array a set of labels)
    return in_label_order(fold(df, counted, [actual, predicted], weight=weight, names=("actual", "predicted")), fixed, "actual/predicted")


def ranked_lists(df: SparkFrame, predicted: str = "prediction", actual: str = "label", *, depth: int = 10) -> RankedLists:
    """Ranking measures of two array columns, as Spark's ``RankingEvaluator`` reads them: each
    row's ranked items and its relevant items, kept for every ``k`` up to ``depth``; exact
    sums, so any partitioning gives the same numbers."""
    return fold(df, RankedLists(depth), [predicted, actual], names=("predicted", "actual"))  # (the depth checked on the driver, before any partition is counted)


def regression_metrics(df: SparkFrame, label: str = "label", prediction: str = "prediction", *, weight: str | None = None,
                       keep_spread: bool = False) -> RegressionMetrics:  # fmt: skip
    """The ``RegressionMetrics`` of two number columns: exact sums, so the numbers do not depend
    on the partitioning (Spark's sums of doubles do, in their last bits); ``keep_spread``: with
    the sums of fourth powers its ``interval`` reads."""
    return fold(df, RegressionMetrics(keep_spread=keep_spread), [label, prediction], weight=weight, names=("label", "prediction"))


def risk_coverage(df: SparkFrame, actual: str = "label", predicted: str = "prediction", confidence: str = "confidence",
                  labels: Sequence[Hashable] | None = None, *, weight: str | None = None) -> RiskCoverage:  # fmt: skip
    """The risk-coverage curve of a prediction and its confidence column (selective prediction);
    the classes sorted unless ``labels`` fixes them."""
    result = fold(df, RiskCoverage(labels), [actual, predicted, confidence], weight=weight, names=("actual", "predicted", "confidence"))
    return in_label_order(result, labels, "actual/predicted")


def set_coverage(df: SparkFrame, actual: str = "label", sets: str = "prediction_set", labels: Sequence[Hashable] | None = None, *,
                 weight: str | None = None) -> SetCoverage:  # fmt: skip
    """The coverage and sizes of prediction sets (an array column of the labels in each row's
    set); the classes ``labels``, or those seen, in the order the partitions merged them."""
    return fold(df, BatchCount(SetCoverage.from_sets, {"labels": None if labels is None else tuple(labels)}), [actual, sets], weight=weight, names=("actual", "sets"))


def interval_coverage(df: SparkFrame, label: str = "label", lower: str = "lower", upper: str = "upper", *, prediction: str | None = None,
                      edges: Sequence[float] | None = None, weight: str | None = None) -> IntervalCoverage:  # fmt: skip
    """The coverage, mean width and interval score of prediction intervals (two number columns),
    in bins of ``edges`` of the ``prediction`` column (or of each midpoint) if given."""
    return fold(df, IntervalCoverage(edges), [label, lower, upper], y_pred=prediction, weight=weight, names=("label", "lower", "upper"))


moved_names.publish(__name__, globals(), ["area_under_pr", "binned"])  # Spark's conventions, defined beside the curves: named by this face
