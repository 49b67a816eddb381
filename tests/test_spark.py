"""evalkit.spark on a real local Spark equals the evaluation of the same rows in memory, and the
porting rows for Spark MLlib's evaluators give Spark's own numbers."""

import math
import shutil

import numpy as np
import pytest

from evalkit import ConfusionMatrix, ThresholdCurve, by_group

pytestmark = pytest.mark.slow  # a Spark session takes about ten seconds to start


@pytest.fixture(scope="module")
def spark():
    """A local Spark of two cores (pyspark from the test extra; its JVM from the JDK .ci/run installs)."""
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        pytest.fail('pyspark is not installed: python -m pip install ".[test]"')
    if not shutil.which("java"):
        pytest.fail("Spark needs Java: .ci/run installs it (apt-get install default-jdk-headless)")
    session = (SparkSession.builder.master("local[2]").appName("evalkit-tests").config("spark.ui.enabled", "false")
               .config("spark.sql.shuffle.partitions", "2").config("spark.sql.execution.arrow.pyspark.enabled", "true").getOrCreate())  # fmt: skip
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def frame(spark, columns, partitions=4):
    names = list(columns)
    rows = list(zip(*(columns[name] for name in names)))
    return spark.createDataFrame(rows, names).repartition(partitions)


def test_a_confusion_matrix_of_a_dataframe_equals_the_local_one(spark):
    from evalkit import spark as evalkit_spark

    rng = np.random.default_rng(0)
    actual = rng.choice(["cat", "dog", "emu", "yak"], 3000).tolist()
    predicted = [a if rng.random() < 0.7 else str(rng.choice(["cat", "dog", "emu"])) for a in actual]
    weights = rng.integers(1, 4, 3000).astype(float).tolist()
    df = frame(spark, {"label": actual, "prediction": predicted, "w": weights})
    assert evalkit_spark.confusion_matrix(df) == ConfusionMatrix.from_predictions(actual, predicted)
    weighted = evalkit_spark.confusion_matrix(df, weight="w")
    assert weighted == ConfusionMatrix.from_predictions(actual, predicted, sample_weight=weights)
    fixed = evalkit_spark.confusion_matrix(df, labels=["yak", "emu", "dog", "cat", "owl"])
    assert fixed.labels == ("yak", "emu", "dog", "cat", "owl") and fixed.get_total_items() == 3000
    with pytest.raises(ValueError, match="no column predicted='guess'"):
        evalkit_spark.confusion_matrix(df, predicted="guess")
    with pytest.raises(ValueError, match="no rows"):
        evalkit_spark.confusion_matrix(df.limit(0))
    with pytest.raises(TypeError, match="a Spark DataFrame"):
        evalkit_spark.confusion_matrix({"label": [1]})


def test_a_curve_and_groups_of_a_dataframe_equal_the_local_ones(spark):
    from evalkit import spark as evalkit_spark

    rng = np.random.default_rng(1)
    truth = rng.integers(0, 2, 2000)
    scores = np.round(truth * 0.3 + rng.random(2000), 3)  # ties
    groups = rng.choice(["north", "south"], 2000)
    predicted = (scores > 0.6).astype(int)
    df = frame(spark, {"label": truth.tolist(), "score": scores.tolist(), "prediction": predicted.tolist(), "group": groups.tolist()}, partitions=5)
    curve = evalkit_spark.threshold_curve(df)
    local = ThresholdCurve.from_scores(truth, scores, pos_label=1)
    assert curve.roc_auc() == local.roc_auc() and curve.average_precision() == local.average_precision()
    assert all(np.array_equal(a, b) for a, b in zip(curve.score_counts(), local.score_counts()))
    grouped = evalkit_spark.by_group(df)
    again = by_group(truth, predicted, groups)
    assert grouped.keys == again.keys and all(grouped[key] == again[key] for key in again.keys)


# --------------------------------------------------------------------------------------------
# porting: Spark MLlib's MulticlassMetrics and BinaryClassificationMetrics


def test_multiclass_metrics_port_with_their_conventions(spark):
    from pyspark.mllib.evaluation import MulticlassMetrics

    rng = np.random.default_rng(2)
    actual = rng.integers(0, 4, 500).astype(float)
    predicted = np.where(rng.random(500) < 0.6, actual, rng.integers(0, 3, 500)).astype(float)  # class 3 is never predicted: 0/0 precision
    spark_metrics = MulticlassMetrics(spark.sparkContext.parallelize(list(zip(predicted.tolist(), actual.tolist())), 3))
    cm = ConfusionMatrix.from_predictions(actual, predicted)
    # Spark's confusionMatrix: rows actual, columns predicted, labels ascending; as to_array()
    assert np.array_equal(spark_metrics.confusionMatrix().toArray(), cm.to_array())
    assert spark_metrics.accuracy == pytest.approx(cm.get_accuracy(), abs=1e-12)
    # Spark counts 0/0 as 0 and weights by support: average(..., "weighted", undefined="zero")
    for name, measure in (("weightedPrecision", "precision"), ("weightedRecall", "recall"), ("weightedTruePositiveRate", "recall"),
                          ("weightedFalsePositiveRate", "false_positive_rate")):  # fmt: skip
        assert getattr(spark_metrics, name) == pytest.approx(cm.average(measure, "weighted", undefined="zero"), abs=1e-12), name
    assert spark_metrics.weightedFMeasure() == pytest.approx(cm.average("f1_score", "weighted", undefined="zero"), abs=1e-12)
    assert spark_metrics.weightedFMeasure(2.0) == pytest.approx(cm.average("f_score", "weighted", undefined="zero", beta=2.0), abs=1e-12)
    for label in (0.0, 1.0, 2.0, 3.0):
        k = cm.index_of(label)
        assert spark_metrics.precision(label) == pytest.approx(cm.per_class("precision", undefined="zero")[k], abs=1e-12)
        assert spark_metrics.recall(label) == pytest.approx(cm.per_class("recall")[k], abs=1e-12)
        assert spark_metrics.fMeasure(label, 0.5) == pytest.approx(cm.per_class("f_score", undefined="zero", beta=0.5)[k], abs=1e-12)
        assert spark_metrics.falsePositiveRate(label) == pytest.approx(cm.per_class("false_positive_rate")[k], abs=1e-12)


def test_binary_metrics_areas_port_exactly_on_small_data(spark):
    from pyspark.mllib.evaluation import BinaryClassificationMetrics

    rng = np.random.default_rng(3)
    truth = rng.integers(0, 2, 400).astype(float)
    scores = np.round(truth * 0.4 + rng.random(400), 2)
    spark_metrics = BinaryClassificationMetrics(spark.sparkContext.parallelize(list(zip(scores.tolist(), truth.tolist())), 2))
    curve = ThresholdCurve.from_scores(truth, scores, pos_label=1.0)
    assert spark_metrics.areaUnderROC == pytest.approx(curve.roc_auc(), abs=1e-12)  # below 1,000 distinct scores Spark does not bin
    # areaUnderPR is a trapezoid under the precision-recall points, starting at (recall 0, the first precision):
    # not average precision (the step-wise area, scikit-learn's), which evalkit gives
    cells = curve.cells()  # at every distinct score, highest first
    precision, recall = cells.tp / (cells.tp + cells.fp), cells.tp / (cells.tp + cells.fn)
    points_r, points_p = np.concatenate(([0.0], recall)), np.concatenate(([precision[0]], precision))
    trapezoid = float(np.sum((points_r[1:] - points_r[:-1]) * (points_p[1:] + points_p[:-1]) / 2))
    assert spark_metrics.areaUnderPR == pytest.approx(trapezoid, abs=1e-9)
    assert not math.isclose(spark_metrics.areaUnderPR, curve.average_precision(), abs_tol=1e-6)


def test_the_ml_evaluators_port_with_their_metric_names(spark):
    from pyspark.ml.evaluation import BinaryClassificationEvaluator, MulticlassClassificationEvaluator

    rng = np.random.default_rng(4)
    actual = rng.integers(0, 3, 600).astype(float)
    predicted = np.where(rng.random(600) < 0.65, actual, rng.integers(0, 3, 600)).astype(float)
    weights = rng.integers(1, 4, 600).astype(float)
    df = frame(spark, {"label": actual.tolist(), "prediction": predicted.tolist(), "w": weights.tolist()}, partitions=3)
    for weighted in (False, True):
        cm = ConfusionMatrix.from_predictions(actual, predicted, sample_weight=weights if weighted else None)
        options = {"weightCol": "w"} if weighted else {}
        expected = {
            "accuracy": cm.get_accuracy(),
            "f1": cm.average("f1_score", "weighted", undefined="zero"),  # Spark's "f1" is the weighted F1
            "weightedPrecision": cm.average("precision", "weighted", undefined="zero"),
            "weightedRecall": cm.average("recall", "weighted", undefined="zero"),
            "weightedFalsePositiveRate": cm.average("false_positive_rate", "weighted", undefined="zero"),
            "hammingLoss": 1 - cm.get_accuracy(),  # single-label: the share of wrong predictions
        }
        for metric, value in expected.items():
            found = MulticlassClassificationEvaluator(metricName=metric, **options).evaluate(df)
            assert found == pytest.approx(value, abs=1e-12), (metric, weighted)
        k = cm.index_of(2.0)
        by_label = MulticlassClassificationEvaluator(metricName="fMeasureByLabel", metricLabel=2.0, beta=2.0, **options).evaluate(df)
        assert by_label == pytest.approx(cm.per_class("f_score", undefined="zero", beta=2.0)[k], abs=1e-12)
    truth = (actual == 2).astype(float)
    scores = np.round(rng.random(600) + truth * 0.3, 3)
    scored = frame(spark, {"label": truth.tolist(), "score": scores.tolist()}, partitions=3)
    exact = BinaryClassificationEvaluator(rawPredictionCol="score", metricName="areaUnderROC", numBins=0).evaluate(scored)
    assert exact == pytest.approx(ThresholdCurve.from_scores(truth, scores, pos_label=1.0).roc_auc(), abs=1e-12)  # numBins=0: every score
