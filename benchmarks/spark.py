"""evalkit.spark beside Spark's own evaluators, on a local Spark, in one run.

    python benchmarks/spark.py                    # 1e6 and 1e7 rows (a few minutes, most of it Spark's)
    python benchmarks/spark.py --rows 100000      # a quick run
    python benchmarks/spark.py --output benchmarks/spark.md

Rows: the labels of a 10-class classifier (the label measures) and a binary score (the areas),
generated in Spark (``rand``), cached and counted once before timing, in ``local[2]``. Each
contender is timed on the same cached DataFrame, best of two: evalkit's one pass gives every
measure at once, Spark's ``MulticlassClassificationEvaluator`` one metric a pass (timed for one
and for four); ``BinaryClassificationEvaluator`` bins scores into 1,000 buckets where evalkit's
curve is exact. The differences of the numbers are printed beside the times. Then the driver's
memory: the peak of the Python heap on the driver during each evalkit call (``tracemalloc``; the
executors' Python workers are other processes), beside the size of the result it returns.
"""

from __future__ import annotations

import argparse
import pickle
import time
import tracemalloc
from collections.abc import Callable
from typing import TypeVar

from pyspark.ml.evaluation import BinaryClassificationEvaluator, MulticlassClassificationEvaluator
from pyspark.sql import SparkSession
from pyspark.sql import functions as F

from evalkit import spark as evalkit_spark

T = TypeVar("T")
MEMORY: list[str] = []  # the driver's memory rows, printed after the times


def best(function: Callable[[], T], repeats: int = 2) -> tuple[float, T]:
    """The best time of ``repeats`` runs, and what the last one gave."""
    timed = []
    for _ in range(repeats):
        start = time.perf_counter()
        found = function()
        timed.append((time.perf_counter() - start, found))
    return min(time_taken for time_taken, _ in timed), timed[-1][1]


def table(spark: SparkSession, rows: int) -> list[str]:
    """The rows of one size: label measures, then the ROC AUC."""
    right = F.rand(seed=2) < 0.7
    df = (spark.range(rows).repartition(8)
          .withColumn("label", F.floor(F.rand(seed=1) * 10).cast("double"))
          .withColumn("prediction", F.when(right, F.col("label")).otherwise(F.floor(F.rand(seed=3) * 10)).cast("double"))
          .withColumn("binary", (F.col("label") < 3).cast("double"))
          .withColumn("score", F.round(F.col("binary") * 0.3 + F.rand(seed=4), 4))
          .select("label", "prediction", "binary", "score").cache())  # fmt: skip
    df.count()
    ours, matrix = best(lambda: evalkit_spark.confusion_matrix(df))
    names = ("f1", "accuracy", "weightedPrecision", "weightedRecall")
    evaluators = {name: MulticlassClassificationEvaluator(metricName=name) for name in names}
    one, _ = best(lambda: evaluators["f1"].evaluate(df))
    four, found = best(lambda: {name: evaluator.evaluate(df) for name, evaluator in evaluators.items()})
    ours_values = {"f1": matrix.average("f1_score", "weighted", undefined="zero"), "accuracy": matrix.get_accuracy(),
                   "weightedPrecision": matrix.average("precision", "weighted", undefined="zero"),
                   "weightedRecall": matrix.average("recall", "weighted", undefined="zero")}  # fmt: skip
    gap = max(abs(ours_values[name] - found[name]) for name in names)
    exact_time, curve = best(lambda: evalkit_spark.threshold_curve(df, "binary", "score", pos_label=1.0))
    binned = BinaryClassificationEvaluator(labelCol="binary", rawPredictionCol="score", metricName="areaUnderROC")
    spark_time, spark_auc = best(lambda: binned.evaluate(df))
    memory = []
    for workload, call in (("confusion matrix", lambda: evalkit_spark.confusion_matrix(df)),
                           ("exact curve", lambda: evalkit_spark.threshold_curve(df, "binary", "score", pos_label=1.0))):  # fmt: skip
        tracemalloc.start()
        result = call()
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        memory.append(f"| {rows:,} | {workload} | {peak / 2**20:.2f} | {len(pickle.dumps(result)) / 2**20:.2f} |")
    MEMORY.extend(memory)
    df.unpersist()
    return [f"| {rows:,} | label measures: weighted F1 (Spark: one pass) | {ours:.2f} | {one:.2f} | {one / ours:.2f} | {gap:.1e} |",
            f"| {rows:,} | label measures: four metrics (Spark: four passes) | {ours:.2f} | {four:.2f} | {four / ours:.2f} | {gap:.1e} |",
            (f"| {rows:,} | ROC AUC: exact (evalkit) against 1,000 bins (Spark) | {exact_time:.2f} | {spark_time:.2f} | {spark_time / exact_time:.2f} | "
             f"{abs(curve.roc_auc() - float(spark_auc)):.1e} |")]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[1_000_000, 10_000_000])
    parser.add_argument("--output")
    options = parser.parse_args()
    spark = SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "4").getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    lines = ["local[2], seconds (best of two).", "", "| rows | workload | evalkit.spark | Spark | Spark / evalkit | largest difference |",
             "|---:|---|---:|---:|---:|---:|"]  # fmt: skip
    for rows in options.rows:
        lines += table(spark, rows)
    lines += ["", "The driver's Python heap during the call (peak, MiB), and the result's pickled size (MiB):", "",
              "| rows | workload | driver peak | result |", "|---:|---|---:|---:|", *MEMORY]  # fmt: skip
    text = "\n".join(lines) + "\n"
    if options.output:
        with open(options.output, "w", encoding="utf-8") as file:
            file.write(text)
    print(text)
    spark.stop()


if __name__ == "__main__":
    main()
