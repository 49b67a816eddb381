"""Spark DataFrames evaluated exactly, in one pass (needs ``pyspark``, with evalkit installed
on the executors).

Every evalkit count is a sum over rows, so a DataFrame is evaluated by counting each partition
where it lives (``mapInPandas``: the partition's columns as Arrow batches, counted into an
evalkit result) and merging the results on the executors and then the driver in a tree
(``treeReduce``) through the counted-state protocol. What travels is counts (an ``m x m``
matrix, a curve's distinct scores), never the rows; the result is the evalkit object a local
evaluation gives, equal to it.

| function | columns | result |
|---|---|---|
| ``confusion_matrix`` | actual and predicted labels, weights | ``ConfusionMatrix`` |
| ``threshold_curve`` | actual labels and a score or score vectors, weights | an exact (or binned, ``thresholds=``) ``ThresholdCurve`` |
| ``calibration`` | actual labels and a probability or probability vectors, weights | ``Calibration`` |
| ``by_group`` | actual and predicted labels, a group column, weights | ``ByGroup`` |
| ``evaluation`` | actual and predicted label sets (array columns), weights | ``Evaluation`` (multi-label) |
| ``ranked_lists`` | ranked items and relevant items (array columns) | ``RankedLists`` |
| ``regression_metrics`` | true values and predictions (numbers), weights | ``RegressionMetrics`` (exact sums) |
| ``risk_coverage`` | actual and predicted labels, a confidence, weights | ``RiskCoverage`` |
| ``set_coverage`` | actual labels and prediction sets (an array column of labels), weights | ``SetCoverage`` |
| ``interval_coverage`` | true values, lower and upper bounds (numbers), weights | ``IntervalCoverage`` |

Two functions reproduce conventions of Spark's ``BinaryClassificationMetrics`` on any curve:
``binned(curve, num_bins)`` (its bins) and ``area_under_pr(curve)`` (its trapezoid).

Spark's ``BinaryClassificationEvaluator`` bins scores into ``numBins`` (1,000) buckets; the
curve here is exact (its areas are those of scikit-learn), or binned at the thresholds asked
for, with memory bounded by them.

For example, with a session ``spark`` and a DataFrame ``df`` of columns ``label`` and
``prediction``: ``evalkit.spark.confusion_matrix(df).average("f1_score", "macro")`` (the guide
page "Evaluating on Spark" runs it on a local Spark).
"""

from __future__ import annotations

import decimal
import pickle
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import Any, Protocol, TypeVar, cast

import numpy as np

from evalkit._engine._labels import sorted_labels
from evalkit._engine._validation import show
from evalkit._groups._by_group import ByGroup
from evalkit._java.regression_metrics import RegressionMetrics
from evalkit._results.confusion_matrix import ConfusionMatrix
from evalkit._results.counted import BatchCount, CountedState, Kind, column_names, merged_parts
from evalkit._results.evaluation import Evaluation
from evalkit._scores.calibration import Calibration
from evalkit._scores.conformal import IntervalCoverage, SetCoverage
from evalkit._scores.curves import ThresholdCurve
from evalkit._scores.ranked_lists import RankedLists
from evalkit._scores.selective import RiskCoverage
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


Labelled = TypeVar("Labelled", ConfusionMatrix, Evaluation, RiskCoverage)


def _in_label_order(result: Labelled, fixed: tuple[Hashable, ...] | None) -> Labelled:
    """The labels given, or sorted (the partitions' labels joined in the order they merged)."""
    return result if fixed is not None else result.with_labels(sorted_labels(list(result.labels), "actual/predicted"))


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
    columns in errors. Every function of this module is such a fold.

    Raises:
        InvalidArgumentError: a column the DataFrame does not have; ``names`` that name a
            column twice (or a keyword column's name).
        EmptyInputError: no rows.
    """
    keywords = {key: column for key, column in named.items() if column is not None}
    positions = dict(zip(column_names(names, len(columns), keywords, "weight"), columns))
    selected = _columns(df, {**positions, **keywords, "weight": weight})
    first, keys = len(columns), list(keywords)

    def count(*arrays: np.ndarray) -> CountedState:
        given = dict(zip(keys, arrays[first : first + len(keys)]))
        return template.counted(*arrays[:first], sample_weight=arrays[-1] if weight is not None else None, **given)

    return cast(Kind, _folded(df, selected, count))


def confusion_matrix(df: SparkFrame, actual: str = "label", predicted: str = "prediction", labels: Sequence[Hashable] | None = None, *,
                     weight: str | None = None, metrics_class: MetricsClass | None = None) -> ConfusionMatrix:  # fmt: skip
    """The confusion matrix of two columns of a Spark DataFrame (Spark's defaults: ``label`` and
    ``prediction``), with a weight column if given; the label order of
    ``ConfusionMatrix.from_predictions`` (sorted, or ``labels``). Unweighted, Spark counts the
    (actual, predicted) pairs itself (one aggregation, exact integers); weighted, each partition
    is counted by evalkit, whose sums of weights are exact where Spark's sum of doubles rounds.

    Raises:
        InvalidArgumentError: a column the DataFrame does not have.
        EmptyInputError: no rows.
    """
    fixed = None if labels is None else tuple(labels)
    if weight is None:  # whole counts: Spark counts the pairs itself (exact integers), and the driver gets one row per pair
        _columns(df, {"actual": actual, "predicted": predicted})
        pairs = df.groupBy(actual, predicted).count().collect()
        if not pairs:
            raise EmptyInputError("the DataFrame has no rows: nothing to count")
        a, p, n = (np.array([row[k] for row in pairs]) for k in range(3))
        matrix = ConfusionMatrix.from_predictions(a, p, fixed, sample_weight=n)  # each pair once, weighted by its count
    else:  # weights summed exactly: each partition counted by evalkit
        matrix = fold(df, ConfusionMatrix(fixed), [actual, predicted], weight=weight, names=("actual", "predicted"))
    matrix = _in_label_order(matrix, fixed)
    return matrix if metrics_class is None else matrix.with_metrics_class(metrics_class)


def threshold_curve(df: SparkFrame, actual: str = "label", score: str = "score", labels: Sequence[Hashable] | None = None, *,
                    pos_label: Hashable = 1, weight: str | None = None, thresholds: int | Sequence[float] | None = None) -> ThresholdCurve:  # fmt: skip
    """The threshold curve of a score column (exact at every distinct score, or binned at
    ``thresholds``): ROC AUC, average precision and every measure at every threshold. A number
    column is a binary score of the class ``pos_label`` (Spark's 1 by default: a partition that
    holds one class alone cannot tell); a column of score vectors (an array, or a
    ``pyspark.ml`` vector such as ``probability``) has one score per class, entry ``j`` for
    ``labels[j]`` (Spark's convention by default: the label ``j``), each a one-vs-rest curve.

    Raises:
        InvalidArgumentError: a column the DataFrame does not have.
        EmptyInputError: no rows.
    """
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
    """The calibration of a probability column: a number column is the probability of the
    class ``pos_label``; a vector column (Spark's ``probability``) one per class, entry ``j``
    for ``labels[j]`` (by default the label ``j``). Every error, the reliability diagram and
    the log loss (``setting="classwise"``: the multi-class log loss Spark's ``logLoss`` is).

    Raises:
        InvalidArgumentError: a column the DataFrame does not have.
        EmptyInputError: no rows.
    """
    return fold(df, BatchCount(_of_scores, {"build": Calibration.from_scores, "labels": labels, "pos_label": pos_label, "setting": setting, "bins": bins}),
                [actual, probability], weight=weight, names=("actual", "probability"))  # fmt: skip

def by_group(df: SparkFrame, actual: str = "label", predicted: str = "prediction", group: str = "group", labels: Sequence[Hashable] | None = None, *,
             weight: str | None = None) -> ByGroup:  # fmt: skip
    """Predictions per group of a column: a confusion matrix per group and overall (``ByGroup``).

    Raises:
        InvalidArgumentError: a column the DataFrame does not have.
        EmptyInputError: no rows.
    """
    return fold(df, BatchCount(ByGroup.from_labels, {"labels": None if labels is None else tuple(labels)}), [actual, predicted, group], weight=weight, names=("actual", "predicted", "group"))

def evaluation(df: SparkFrame, actual: str = "label", predicted: str = "prediction", labels: Sequence[Hashable] | None = None, *,
               weight: str | None = None) -> Evaluation:  # fmt: skip
    """The multi-label evaluation of two array columns of label sets (Spark's
    ``MultilabelClassificationEvaluator`` reads ``label`` and ``prediction`` so): per-label,
    micro, macro and example-based (``"samples"``) measures, subset accuracy and the Hamming
    loss; an empty predicted set counts as misses. The label order is sorted, or ``labels``.

    Raises:
        InvalidArgumentError: a column the DataFrame does not have.
        EmptyInputError: no rows.
    """
    fixed = None if labels is None else tuple(labels)
    return _in_label_order(fold(df, BatchCount(_label_sets, {"labels": fixed}), [actual, predicted], weight=weight, names=("actual", "predicted")), fixed)


def _label_sets(a: np.ndarray, p: np.ndarray, *, labels: tuple | None, sample_weight: np.ndarray | None) -> Evaluation:
    """The ``Evaluation`` of a partition's array columns, each row's array a set of labels."""
    return Evaluation.from_label_sets([set(row) for row in a], [set(row) for row in p], labels, sample_weight=sample_weight)


def _prediction_sets(a: np.ndarray, s: np.ndarray, *, labels: tuple | None, sample_weight: np.ndarray | None) -> SetCoverage:
    """The ``SetCoverage`` of a partition's labels and array column of prediction sets."""
    return SetCoverage.from_sets(a.tolist(), [set(row) for row in s], labels=labels, sample_weight=sample_weight)

def ranked_lists(df: SparkFrame, predicted: str = "prediction", actual: str = "label", *, depth: int = 10) -> RankedLists:
    """Ranking measures of two array columns, as Spark's ``RankingEvaluator`` reads them: the
    ranked items of each row (``prediction``) and its relevant items (``label``), kept for every
    ``k`` up to ``depth`` (``precision_at``, ``recall_at``, ``mean_average_precision``,
    ``ndcg_at``); exact sums, so any partitioning gives the same numbers.

    Raises:
        InvalidArgumentError: a column the DataFrame does not have; ``depth`` below 1.
        EmptyInputError: no rows.
    """
    return fold(df, RankedLists(depth), [predicted, actual], names=("predicted", "actual"))  # (the depth checked on the driver, before any partition is counted)


# --------------------------------------------------------------------------------------------
# Spark's conventions, on any curve


def regression_metrics(df: SparkFrame, label: str = "label", prediction: str = "prediction", *, weight: str | None = None) -> RegressionMetrics:
    """The ``RegressionMetrics`` of two numeric columns of a Spark DataFrame (Spark's defaults,
    ``label`` and ``prediction``), with a weight column if given: each partition's exact sums,
    merged in a tree, so the numbers do not depend on the partitioning (Spark's sums of doubles
    do, in their last bits). Spark's ``RegressionMetrics`` and ``RegressionEvaluator`` read from
    it: see the guide page "Evaluating on Spark".

    Raises:
        InvalidArgumentError: a column the DataFrame does not have.
        EmptyInputError: no rows.
    """
    return fold(df, RegressionMetrics(), [label, prediction], weight=weight, names=("label", "prediction"))


def risk_coverage(df: SparkFrame, actual: str = "label", predicted: str = "prediction", confidence: str = "confidence",
                  labels: Sequence[Hashable] | None = None, *, weight: str | None = None) -> RiskCoverage:  # fmt: skip
    """The risk-coverage curve of a prediction and its confidence column (selective prediction):
    AURC, the risk at any coverage and any measure of the accepted rows. The classes are sorted
    unless ``labels`` fixes them.

    Raises:
        InvalidArgumentError: a column the DataFrame does not have.
        EmptyInputError: no rows.
    """
    return _in_label_order(fold(df, RiskCoverage(labels), [actual, predicted, confidence], weight=weight, names=("actual", "predicted", "confidence")),
                           None if labels is None else tuple(labels))


def set_coverage(df: SparkFrame, actual: str = "label", sets: str = "prediction_set", labels: Sequence[Hashable] | None = None, *,
                 weight: str | None = None) -> SetCoverage:  # fmt: skip
    """The coverage and sizes of prediction sets: an array column of the labels in each row's set.
    The classes are ``labels``, or those seen (in the order the partitions merged them).

    Raises:
        InvalidArgumentError: a column the DataFrame does not have.
        EmptyInputError: no rows.
    """
    return fold(df, BatchCount(_prediction_sets, {"labels": None if labels is None else tuple(labels)}), [actual, sets], weight=weight, names=("actual", "sets"))

def interval_coverage(df: SparkFrame, label: str = "label", lower: str = "lower", upper: str = "upper", *, prediction: str | None = None,
                      edges: Sequence[float] | None = None, weight: str | None = None) -> IntervalCoverage:  # fmt: skip
    """The coverage, mean width and interval score of prediction intervals (two number columns),
    in bins of ``edges`` of the ``prediction`` column (or of each interval's midpoint) if given.

    Raises:
        InvalidArgumentError: a column the DataFrame does not have.
        EmptyInputError: no rows.
    """
    return fold(df, IntervalCoverage(edges), [label, lower, upper], y_pred=prediction, weight=weight, names=("label", "lower", "upper"))


def binned(curve: ThresholdCurve, num_bins: int = 1000, label: Hashable | None = None) -> ThresholdCurve:
    """The curve at the bins of Spark's ``BinaryClassificationMetrics(numBins=)`` (and
    ``BinaryClassificationEvaluator``'s ``numBins``, 1,000 by default) on one partition: with
    ``d`` distinct scores, each run of ``d // num_bins`` consecutive distinct scores from the
    highest is one point at its lowest score (so the point is the exact curve's there: a
    score at or above it is predicted positive); with fewer than ``2 * num_bins`` distinct scores, or ``num_bins=0``, the curve
    itself. Its ``roc_auc()`` is Spark's binned ``areaUnderROC``, ``area_under_pr`` of it
    Spark's binned ``areaUnderPR``. (With several partitions Spark bins each partition of its
    sorted scores apart, so its bins move with the partitioning; the exact curve does not.)

    Raises:
        InvalidArgumentError: ``num_bins`` not a whole number >= 0.

    Examples:
        >>> from evalkit import ThresholdCurve
        >>> curve = ThresholdCurve.from_scores([0, 1, 0, 1, 1, 0], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
        >>> binned(curve, 3).thresholds().tolist()
        [0.5, 0.3, 0.1]
    """
    if isinstance(num_bins, bool) or not isinstance(num_bins, (int, np.integer)) or num_bins < 0:
        raise InvalidArgumentError(f"'num_bins' must be a whole number >= 0, got {show(num_bins)}")
    scores, positives, negatives = (values[::-1] for values in curve.score_counts(label))  # highest first
    grouping = len(scores) // int(num_bins) if num_bins else 0
    if grouping < 2:
        return curve
    starts = np.arange(0, len(scores), grouping)
    lowest = np.minimum(starts + grouping, len(scores)) - 1
    part = (scores[lowest][::-1], np.add.reduceat(positives, starts)[::-1], np.add.reduceat(negatives, starts)[::-1])
    one = curve.labels[0] if label is None else label
    return ThresholdCurve.from_score_counts([part], [one], negative_label=curve.negative_label, metrics_class=curve.metrics_class)


def area_under_pr(curve: ThresholdCurve, label: Hashable | None = None) -> float:
    """Spark's ``areaUnderPR``: the trapezoid under the points (recall, precision) at every
    threshold, highest first, from (0, the first point's precision). Not average precision
    (``curve.average_precision()``, the step-wise sum ``Σ (R_k - R_(k-1)) P_k`` of
    scikit-learn), which the trapezoid overstates between distant points.

    Examples:
        >>> from evalkit import ThresholdCurve
        >>> curve = ThresholdCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> area_under_pr(curve), round(curve.average_precision(), 4)
        (0.7916666666666666, 0.8333)
    """
    precision, _ = curve.evaluate("precision", label)
    recall, _ = curve.evaluate("recall", label)
    points_recall, points_precision = np.concatenate(([0.0], recall)), np.concatenate((precision[:1], precision))
    return float(np.sum(np.diff(points_recall) * (points_precision[1:] + points_precision[:-1]) / 2))
