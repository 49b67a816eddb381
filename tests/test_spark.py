"""evalkit.spark on a real local Spark equals the evaluation of the same rows in memory, and the
porting rows for Spark MLlib's evaluators give Spark's own numbers."""

import math

import numpy as np
import pytest

from evalkit import ConfusionMatrix, ThresholdCurve, by_group

pytestmark = pytest.mark.slow  # a Spark session takes about ten seconds to start


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
    assert spark_metrics.areaUnderROC == pytest.approx(curve.roc_auc(), abs=1e-12)  # below 2,000 distinct scores Spark does not bin
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
            "weightedTruePositiveRate": cm.average("recall", "weighted", undefined="zero"),
            "weightedFMeasure": cm.average("f1_score", "weighted", undefined="zero"),
        }
        for metric, value in expected.items():
            found = MulticlassClassificationEvaluator(metricName=metric, **options).evaluate(df)
            assert found == pytest.approx(value, abs=1e-12), (metric, weighted)
        k = cm.index_of(2.0)
        by_label = MulticlassClassificationEvaluator(metricName="fMeasureByLabel", metricLabel=2.0, beta=2.0, **options).evaluate(df)
        assert by_label == pytest.approx(cm.per_class("f_score", undefined="zero", beta=2.0)[k], abs=1e-12)
        for metric, measure in (("precisionByLabel", "precision"), ("recallByLabel", "recall"), ("truePositiveRateByLabel", "recall"),
                                ("falsePositiveRateByLabel", "false_positive_rate")):  # fmt: skip
            found = MulticlassClassificationEvaluator(metricName=metric, metricLabel=1.0, **options).evaluate(df)
            assert found == pytest.approx(cm.per_class(measure, undefined="zero")[cm.index_of(1.0)], abs=1e-12), (metric, weighted)
    truth = (actual == 2).astype(float)
    scores = np.round(rng.random(600) + truth * 0.3, 3)
    scored = frame(spark, {"label": truth.tolist(), "score": scores.tolist()}, partitions=3)
    exact = BinaryClassificationEvaluator(rawPredictionCol="score", metricName="areaUnderROC", numBins=0).evaluate(scored)
    assert exact == pytest.approx(ThresholdCurve.from_scores(truth, scores, pos_label=1.0).roc_auc(), abs=1e-12)  # numBins=0: every score


def test_binary_metrics_by_threshold_and_their_bins_port(spark):
    from pyspark.ml.evaluation import BinaryClassificationEvaluator
    from pyspark.mllib.evaluation import BinaryClassificationMetrics

    from evalkit import spark as evalkit_spark

    rng = np.random.default_rng(5)
    truth = rng.integers(0, 2, 5000).astype(float)
    scores = np.round(truth * 0.3 + rng.random(5000), 4)  # about 5,000 distinct scores: Spark bins them
    weights = rng.integers(1, 4, 5000).astype(float)
    curve = ThresholdCurve.from_scores(truth, scores, pos_label=1.0)
    one_partition = spark.sparkContext.parallelize(list(zip(scores.tolist(), truth.tolist())), 1)
    spark_metrics = BinaryClassificationMetrics(one_partition)  # pyspark's mllib class bins at numBins=1000
    thousand = evalkit_spark.binned(curve, 1000)  # 1,028 points of 4,110 distinct scores: runs of 4
    precision, thresholds = thousand.evaluate("precision")
    java = spark_metrics._java_model  # pyspark wraps no precisionByThreshold, roc() or pr(): the Scala object's
    by_threshold = [(row._1(), row._2()) for row in java.precisionByThreshold().collect()]
    assert np.array_equal([t for t, _ in by_threshold], thresholds) and np.allclose([p for _, p in by_threshold], precision, atol=1e-12)
    recall, _ = thousand.evaluate("recall")
    assert np.allclose([row._2() for row in java.recallByThreshold().collect()], recall, atol=1e-12)
    f_two, _ = thousand.evaluate("f_score", beta=2.0)
    assert np.allclose([row._2() for row in java.fMeasureByThreshold(2.0).collect()], f_two, atol=1e-12)
    fpr, _ = thousand.evaluate("false_positive_rate")
    roc = np.array([(row._1(), row._2()) for row in java.roc().collect()])  # (0, 0), every threshold, then (1, 1) again
    assert np.allclose(roc, np.vstack(([0.0, 0.0], np.column_stack((fpr, recall)), [1.0, 1.0])), atol=1e-12)
    pr = np.array([(row._1(), row._2()) for row in java.pr().collect()])  # (0, the first precision), then (recall, precision)
    assert np.allclose(pr, np.vstack(([0.0, precision[0]], np.column_stack((recall, precision)))), atol=1e-12)
    assert spark_metrics.areaUnderPR == pytest.approx(evalkit_spark.area_under_pr(thousand), abs=1e-12)
    assert spark_metrics.areaUnderROC == pytest.approx(thousand.roc_auc(), abs=1e-12)
    assert abs(thousand.roc_auc() - curve.roc_auc()) > 1e-9  # binned: not the exact area
    # numBins: the same bins on one partition, so the same binned areas
    for bins in (1000, 100, 7):
        frame_one = frame(spark, {"label": truth.tolist(), "score": scores.tolist(), "w": weights.tolist()}, partitions=1)
        for weighted in (False, True):
            options = {"weightCol": "w"} if weighted else {}
            local = ThresholdCurve.from_scores(truth, scores, pos_label=1.0, sample_weight=weights if weighted else None)
            grouped = evalkit_spark.binned(local, bins)
            assert grouped.n_points < local.n_points
            for metric, value in (("areaUnderROC", grouped.roc_auc()), ("areaUnderPR", evalkit_spark.area_under_pr(grouped))):
                found = BinaryClassificationEvaluator(rawPredictionCol="score", metricName=metric, numBins=bins, **options).evaluate(frame_one)
                assert found == pytest.approx(value, abs=1e-12), (metric, bins, weighted)
    assert evalkit_spark.binned(curve, 0) is curve and evalkit_spark.binned(curve, 4000) is curve  # below 2 scores a bin: not binned
    with pytest.raises(ValueError, match="'num_bins' must be a whole number"):
        evalkit_spark.binned(curve, -1)


def test_multilabel_metrics_port_with_their_conventions(spark):
    from pyspark.ml.evaluation import MultilabelClassificationEvaluator
    from pyspark.mllib.evaluation import MultilabelMetrics

    from evalkit import Evaluation
    from evalkit import spark as evalkit_spark

    documented = [([0.0, 1.0], [0.0, 2.0]), ([0.0, 2.0], [0.0, 1.0]), ([], [0.0]), ([2.0], [2.0]), ([2.0, 0.0], [2.0, 0.0]),
                  ([0.0, 1.0, 2.0], [0.0, 1.0]), ([1.0], [1.0, 2.0])]  # Spark's documentation's example; fmt: skip
    rng = np.random.default_rng(6)
    generated = [(sorted(set(rng.choice(5, rng.integers(0, 4)).astype(float).tolist())), sorted(set(rng.choice(5, rng.integers(1, 4)).astype(float).tolist())))
                 for _ in range(300)]  # fmt: skip
    for rows in (documented, generated):
        predicted, actual = [p for p, _ in rows], [a for _, a in rows]
        ev = Evaluation.from_label_sets(actual, predicted)
        metrics = MultilabelMetrics(spark.sparkContext.parallelize(rows, 2))
        expected = {
            "subsetAccuracy": ev.get_accuracy(),  # exact match
            "accuracy": ev.average("jaccard_index", "samples", undefined="zero"),
            "hammingLoss": ev.average("hamming_loss", "micro"),
            "precision": ev.average("precision", "samples", undefined="zero"),
            "recall": ev.average("recall", "samples", undefined="zero"),
            "f1Measure": ev.average("f1_score", "samples", undefined="zero"),
            "microPrecision": ev.average("precision", "micro"),
            "microRecall": ev.average("recall", "micro"),
            "microF1Measure": ev.average("f1_score", "micro"),
        }
        for name, value in expected.items():
            found = getattr(metrics, name)  # precision, recall and f1Measure are methods (of an optional label) in pyspark
            assert (found() if callable(found) else found) == pytest.approx(value, abs=1e-12), name
        for label in ev.labels:
            k = ev.labels.index(label)
            assert metrics.precision(label) == pytest.approx(ev.per_class("precision", undefined="zero")[k], abs=1e-12)
            assert metrics.recall(label) == pytest.approx(ev.per_class("recall", undefined="zero")[k], abs=1e-12)
            assert metrics.f1Measure(label) == pytest.approx(ev.per_class("f1_score", undefined="zero")[k], abs=1e-12)
        df = frame(spark, {"label": actual, "prediction": predicted}, partitions=3)
        counted = evalkit_spark.evaluation(df)  # the DataFrame's label sets, counted where they live (rows in Spark's order)
        assert counted.labels == ev.labels and counted.n_samples == ev.n_samples
        for name in ("precision", "recall", "jaccard_index"):
            assert counted.average(name, "micro") == ev.average(name, "micro") and counted.average(name, "macro") == ev.average(name, "macro")
            assert counted.average(name, "samples") == pytest.approx(ev.average(name, "samples"), abs=1e-15)  # a mean over rows in another order
        for name, value in expected.items():
            assert MultilabelClassificationEvaluator(metricName=name).evaluate(df) == pytest.approx(value, abs=1e-12), name
        by_label = MultilabelClassificationEvaluator(metricName="f1MeasureByLabel", metricLabel=ev.labels[-1]).evaluate(df)
        assert by_label == pytest.approx(ev.per_class("f1_score", undefined="zero")[-1], abs=1e-12)


def test_log_loss_ports_with_spark_clipping(spark):
    from pyspark.ml.evaluation import MulticlassClassificationEvaluator
    from pyspark.ml.linalg import Vectors

    from evalkit import metrics

    rng = np.random.default_rng(7)
    actual = rng.integers(0, 3, 400).astype(float)
    probabilities = rng.dirichlet([2, 2, 2], 400)
    weights = rng.integers(1, 4, 400).astype(float)
    predicted = probabilities.argmax(axis=1).astype(float)
    rows = [(float(a), float(p), float(w), Vectors.dense(q.tolist())) for a, p, w, q in zip(actual, predicted, weights, probabilities)]
    df = spark.createDataFrame(rows, ["label", "prediction", "w", "probability"]).repartition(3)
    for options, weight in (({}, None), ({"weightCol": "w"}, weights)):
        found = MulticlassClassificationEvaluator(metricName="logLoss", **options).evaluate(df)
        assert found == pytest.approx(metrics.log_loss(actual, probabilities, labels=[0.0, 1.0, 2.0], sample_weight=weight), abs=1e-12)


def test_ranking_metrics_port_with_their_conventions(spark):
    from pyspark.ml.evaluation import RankingEvaluator
    from pyspark.mllib.evaluation import RankingMetrics

    from evalkit import RankedLists
    from evalkit import spark as evalkit_spark

    rng = np.random.default_rng(8)
    rows = [(rng.permutation(30)[: rng.integers(0, 15)].astype(float).tolist(), rng.choice(30, rng.integers(0, 8), replace=False).astype(float).tolist())
            for _ in range(400)]  # some queries without relevant items (Spark counts them 0), some lists shorter than k; fmt: skip
    predicted, relevant = [p for p, _ in rows], [r for _, r in rows]
    lists = RankedLists.from_lists(predicted, relevant, depth=12)
    metrics = RankingMetrics(spark.sparkContext.parallelize(rows, 3))
    assert metrics.meanAveragePrecision == pytest.approx(lists.mean_average_precision(undefined="zero"), abs=1e-12)
    for k in (1, 5, 12):
        assert metrics.precisionAt(k) == pytest.approx(lists.precision_at(k, undefined="zero"), abs=1e-12)
        assert metrics.recallAt(k) == pytest.approx(lists.recall_at(k, undefined="zero"), abs=1e-12)
        assert metrics.ndcgAt(k) == pytest.approx(lists.ndcg_at(k, undefined="zero"), abs=1e-12)
        assert metrics.meanAveragePrecisionAt(k) == pytest.approx(lists.mean_average_precision(k, undefined="zero"), abs=1e-12)
    df = frame(spark, {"prediction": predicted, "label": relevant}, partitions=3)
    assert evalkit_spark.ranked_lists(df, depth=12) == lists  # exact sums: the same whatever the partitions
    for metric, value in (("meanAveragePrecision", lists.mean_average_precision(undefined="zero")),
                          ("meanAveragePrecisionAtK", lists.mean_average_precision(5, undefined="zero")),
                          ("precisionAtK", lists.precision_at(5, undefined="zero")), ("recallAtK", lists.recall_at(5, undefined="zero")),
                          ("ndcgAtK", lists.ndcg_at(5, undefined="zero"))):  # fmt: skip
        assert RankingEvaluator(metricName=metric, k=5).evaluate(df) == pytest.approx(value, abs=1e-12), metric


def test_probability_vectors_of_a_dataframe_give_the_local_curve_and_calibration(spark):
    from pyspark.ml.evaluation import MulticlassClassificationEvaluator
    from pyspark.ml.linalg import Vectors

    from evalkit import Calibration
    from evalkit import spark as evalkit_spark

    rng = np.random.default_rng(9)
    actual = rng.integers(0, 3, 900).astype(float)
    probabilities = np.round(rng.dirichlet([2, 2, 2], 900), 3)
    probabilities[:, 2] = 1 - probabilities[:, 0] - probabilities[:, 1]  # rows sum to 1 after rounding
    rows = [(float(a), Vectors.dense(p.tolist()), p.tolist(), float(p[1])) for a, p in zip(actual, probabilities)]
    df = spark.createDataFrame(rows, ["label", "probability", "scores", "score"]).repartition(3)
    local_curve = ThresholdCurve.from_scores(actual, probabilities, [0, 1, 2])
    for column in ("probability", "scores"):  # a pyspark.ml vector and an array column
        curve = evalkit_spark.threshold_curve(df, "label", column)
        assert curve.labels == (0, 1, 2) and curve.roc_auc(average=None).tolist() == local_curve.roc_auc(average=None).tolist()
    calibrated = evalkit_spark.calibration(df, "label", "probability", setting="classwise")
    local = Calibration.from_scores(actual, probabilities, [0, 1, 2], setting="classwise")
    assert calibrated.log_loss() == pytest.approx(local.log_loss(), abs=1e-12)
    assert calibrated.error() == pytest.approx(local.error(), abs=1e-12)  # the expected calibration error
    spark_loss = MulticlassClassificationEvaluator(metricName="logLoss").evaluate(df.withColumn("prediction", df.label))
    assert calibrated.log_loss() == pytest.approx(spark_loss, abs=1e-12)  # Spark's logLoss of the same vectors
    binary = evalkit_spark.calibration(df.withColumn("one", (df.label == 1.0).cast("double")), "one", "score")
    assert binary.brier_score() == pytest.approx(Calibration.from_scores((actual == 1).astype(float), probabilities[:, 1]).brier_score(), abs=1e-12)


def test_regression_metrics_of_a_dataframe_are_sparks_and_equal_the_local_ones(spark):
    from pyspark.ml.evaluation import RegressionEvaluator
    from pyspark.mllib.evaluation import RegressionMetrics as SparkRegressionMetrics

    from evalkit import RegressionMetrics
    from evalkit import spark as evalkit_spark
    from evalkit.exceptions import InvalidArgumentError

    rng = np.random.default_rng(8)
    label = rng.normal(50.0, 10.0, size=3_000)
    prediction, weight = label + rng.normal(0.0, 4.0, size=3_000), rng.uniform(0.5, 2.0, size=3_000)
    df = frame(spark, {"label": label.tolist(), "prediction": prediction.tolist(), "w": weight.tolist()})
    metrics = evalkit_spark.regression_metrics(df)
    assert metrics == RegressionMetrics.from_predictions(label, prediction)
    weighted = evalkit_spark.regression_metrics(df, weight="w")
    assert weighted == RegressionMetrics.from_predictions(label, prediction, sample_weight=weight)
    pairs = spark.sparkContext.parallelize(list(zip(prediction.tolist(), label.tolist())), 3)
    theirs = SparkRegressionMetrics(pairs)
    assert math.isclose(metrics.get_r_squared(), theirs.r2, rel_tol=1e-10)
    through_origin = RegressionEvaluator(metricName="r2", throughOrigin=True)
    assert math.isclose(metrics.get_r_squared(through_origin=True), through_origin.evaluate(df), rel_tol=1e-10)
    assert math.isclose(metrics.get_mean_squared_error(), theirs.meanSquaredError, rel_tol=1e-10)
    assert math.isclose(metrics.get_root_mean_squared_error(), theirs.rootMeanSquaredError, rel_tol=1e-10)
    assert math.isclose(metrics.get_mean_absolute_error(), theirs.meanAbsoluteError, rel_tol=1e-10)
    assert math.isclose(metrics.get_regression_sum_of_squares() / metrics.get_total_weight(), theirs.explainedVariance, rel_tol=1e-10)
    readings = {"rmse": "get_root_mean_squared_error", "mse": "get_mean_squared_error", "r2": "get_r_squared", "mae": "get_mean_absolute_error"}
    for name, getter in readings.items():
        for result, weight_column in ((metrics, None), (weighted, "w")):
            evaluator = RegressionEvaluator(metricName=name, **({"weightCol": weight_column} if weight_column else {}))
            ours = getattr(result, getter)()
            if name == "r2" and weight_column:
                # Spark's weighted SStot is its unbiased weighted variance times (W - 1), not Σ w (y - ȳ)²
                # (scikit-learn's and statsmodels' WLS, evalkit's): with weights of 1 the two agree
                total_weight = weight.sum()
                spark_total = weighted.get_total_sum_of_squares() / (total_weight - (weight**2).sum() / total_weight) * (total_weight - 1)
                ours = 1 - weighted.get_residual_square_sum() / spark_total
            assert math.isclose(ours, evaluator.evaluate(df), rel_tol=1e-10), (name, weight_column)
    evaluator = RegressionEvaluator(metricName="var", weightCol="w")
    assert math.isclose(weighted.get_regression_sum_of_squares() / weighted.get_total_weight(), evaluator.evaluate(df), rel_tol=1e-10)
    with pytest.raises(InvalidArgumentError):
        evalkit_spark.regression_metrics(df, prediction="guess")


def test_selective_and_conformal_results_of_a_dataframe_equal_the_local_ones(spark):
    from evalkit import IntervalCoverage, RiskCoverage, SetCoverage
    from evalkit import spark as evalkit_spark

    rng = np.random.default_rng(9)
    n = 2_000
    actual, predicted = rng.choice(["cat", "dog", "emu"], n).tolist(), rng.choice(["cat", "dog", "emu"], n).tolist()
    confidence = np.round(rng.random(n), 2).tolist()
    sets = [sorted({a, p}) for a, p in zip(actual, rng.choice(["cat", "dog", "emu"], n).tolist())]
    target, lower = rng.normal(size=n), rng.normal(size=n)
    df = frame(spark, {"label": actual, "prediction": predicted, "confidence": confidence, "prediction_set": sets,
                       "y": target.tolist(), "lower": lower.tolist(), "upper": (lower + 1).tolist()})  # fmt: skip
    assert evalkit_spark.risk_coverage(df) == RiskCoverage.from_predictions(actual, predicted, confidence)
    found = evalkit_spark.set_coverage(df, labels=["cat", "dog", "emu"])
    assert found == SetCoverage.from_sets(actual, sets, labels=["cat", "dog", "emu"])
    intervals = evalkit_spark.interval_coverage(df, "y", edges=[-1, 0, 1])
    local = IntervalCoverage.from_intervals(target, lower, lower + 1, edges=[-1, 0, 1])
    assert intervals.bin_counts().tolist() == local.bin_counts().tolist() and math.isclose(intervals.interval_score(0.9), local.interval_score(0.9), rel_tol=1e-12)


def test_decimal_columns_count_as_numbers_and_a_missing_column_is_named_by_its_argument(spark):

    from evalkit import RegressionMetrics
    from evalkit import spark as evalkit_spark
    from evalkit.exceptions import InvalidArgumentError

    y, p = [1.0, 2.5, 4.0, 3.25], [1.5, 2.0, 4.0, 3.0]
    df = spark.sql("SELECT CAST(y AS DECIMAL(10, 2)) AS y, CAST(p AS DECIMAL(10, 2)) AS p FROM VALUES " + ", ".join(f"({a}, {b})" for a, b in zip(y, p)) + " AS t(y, p)")
    assert evalkit_spark.regression_metrics(df, "y", "p") == RegressionMetrics.from_predictions(y, p)
    kept = evalkit_spark.regression_metrics(df, "y", "p", keep_spread=True)
    assert kept == RegressionMetrics(keep_spread=True).counted(y, p) and kept.interval("mae") == RegressionMetrics(keep_spread=True).counted(y, p).interval("mae")
    with pytest.raises(InvalidArgumentError, match="label='nope'"):
        evalkit_spark.regression_metrics(df, "nope", "p")


def test_a_column_given_twice_counts_as_the_same_column_in_memory(spark):
    # y_true and y_pred both "label" (or the weight a value column): each partition reads the
    # column once and counts it under both arguments, as from_predictions(col, col) does
    from evalkit import RegressionMetrics
    from evalkit import spark as evalkit_spark

    label = ["a", "b", "a", "c", "b", "a", "c", "a"]
    value = [1.0, 2.0, 3.0, 1.0, 1.0, 2.0, 0.5, 4.0]
    df = frame(spark, {"label": label, "w": value}, partitions=3)
    assert evalkit_spark.confusion_matrix(df, "label", "label") == ConfusionMatrix.from_predictions(label, label)
    assert evalkit_spark.confusion_matrix(df, "label", "label", weight="w") == ConfusionMatrix.from_predictions(label, label, sample_weight=value)
    assert evalkit_spark.fold(df, ConfusionMatrix(["a", "b", "c"]), ["label", "label"]) == ConfusionMatrix.from_predictions(label, label, ["a", "b", "c"])
    assert evalkit_spark.regression_metrics(df, "w", "w", weight="w") == RegressionMetrics.from_predictions(value, value, sample_weight=value)

