"""Porting regression evaluation from Java gives the Java numbers: every row of the porting
guide's regression tables (Deep Netts' ``RegresionEvaluator``, Weka's numeric ``Evaluation``,
DL4J's ``RegressionEvaluation``) is evaluated and compared with the Java library's number, and
statsmodels' OLS gives the residual standard error and F statistic for a number of inputs.

Weka runs for real (``tests/java/WekaRegression.java``: ``LinearRegression`` and ``M5P`` on
the ``cpu`` data Weka ships, evaluated on it or on rows left out of training, and on weighted
generated data). Deep Netts' and DL4J's numbers are
computed below from the formulas their source writes, each function citing its file and method.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import statsmodels.api as sm
from test_porting import WEKA_DATA, guide_namespace, rows, same, section, weka_program

from evalkit import RegressionMetrics

ROOT = Path(__file__).resolve().parent.parent


def check_rows(heading: str, namespace: dict, reference: dict, *, rel: float, outputs: int = 1) -> int:
    """Evaluate every row of a regression table in ``namespace`` against ``reference[java]``
    (one number, or one per output ``i`` for rows taking ``(i)``)."""
    checked = 0
    for java, expression in rows(heading):
        assert java in reference, f"the guide's row {java!r} has no Java reference value to be checked against"
        ours = [eval(expression, {**namespace, "i": i}) for i in range(outputs)] if "(i)" in java else eval(expression, dict(namespace))
        assert same(ours, reference[java], rel), (heading, java, expression, ours, reference[java])
        checked += 1
    return checked


# --------------------------------------------------------------------------------------------
# Deep Netts


def deep_netts_reference(target: np.ndarray, output: np.ndarray, num_inputs: int, folds: list[tuple[np.ndarray, np.ndarray]]) -> dict:
    """deepnetts-core/src/main/java/deepnetts/eval/RegresionEvaluator.java, ``evaluate`` and
    ``averagePerformance``, with ``MeanSquaredError.add`` summing squared errors: every sum a
    Java ``float`` (single precision), the residual standard error over ``n - 2``."""
    f = np.float32

    def evaluate(t: np.ndarray, o: np.ndarray) -> dict:
        n = len(t)
        mean = f(0)
        for value in t.astype(f):
            mean = f(mean + value)
        mean = f(mean / f(n))
        rss, tss = f(0), f(0)
        for a, b in zip(t.astype(f), o.astype(f)):
            rss = f(rss + f((b - a) ** 2))
            tss = f(tss + f((a - mean) * (a - mean)))
        return {"RSE": float(np.sqrt(f(rss / f(n - 2)))), "R2": float(f(1) - rss / tss),
                "F": float(f(f(tss - rss) / f(num_inputs)) / f(rss / f(n - num_inputs - 1))), "MSE": float(f(rss / f(n)))}  # fmt: skip

    whole = evaluate(target, output)
    parts = [evaluate(t, o) for t, o in folds]
    average = {key: float(np.mean([part[key] for part in parts], dtype=f)) for key in whole}
    return {
        "evaluate(net, testSet).get(EvaluationMetrics.MEAN_SQUARED_ERROR)": whole["MSE"],
        "evaluate(net, testSet).get(EvaluationMetrics.R_SQUARED)": whole["R2"],
        "evaluate(net, testSet).get(EvaluationMetrics.RESIDUAL_STANDARD_ERROR)": whole["RSE"],
        "evaluate(net, testSet).get(EvaluationMetrics.F_STAT)": whole["F"],
        "evaluate(net, testSet).get(EvaluationMetrics.RESIDUAL_SQUARE_SUM)": float(np.sum((output - target) ** 2)),  # never set in Java: its definition
        "averagePerformance(folds).get(EvaluationMetrics.MEAN_SQUARED_ERROR)": average["MSE"],
        "averagePerformance(folds).get(EvaluationMetrics.RESIDUAL_STANDARD_ERROR)": average["R2"],  # the swap
        "averagePerformance(folds).get(EvaluationMetrics.R_SQUARED)": average["RSE"],
    }


def test_the_deep_netts_regression_rows_give_its_numbers():
    heading = "### Deep Netts' regression evaluator"
    namespace = guide_namespace(heading)
    folds = [(namespace["target"][part], namespace["output"][part]) for part in (slice(0, 4), slice(4, None))]
    reference = deep_netts_reference(namespace["target"], namespace["output"], namespace["num_inputs"], folds)
    assert check_rows(heading, namespace, reference, rel=1e-6) == 8  # single precision: Java's floats agree to 1e-6


# --------------------------------------------------------------------------------------------
# DL4J


def dl4j_reference(labels: np.ndarray, predictions: np.ndarray) -> dict:
    """nd4j-api .../org/nd4j/evaluation/regression/RegressionEvaluation.java: ``eval`` keeps per
    column the sums of labels, squared and absolute errors, products and squares and the running
    means; ``meanSquaredError``, ``meanAbsoluteError``, ``rootMeanSquaredError``,
    ``relativeSquaredError`` (``+inf`` where its denominator is at most ``Nd4j.EPS_THRESHOLD``,
    1e-5), ``pearsonCorrelation`` and ``rSquared`` from them, and the ``average*`` means over columns."""
    with np.errstate(all="ignore"):  # Java's doubles divide by zero without a word
        return _dl4j(labels, predictions)


def _dl4j(labels: np.ndarray, predictions: np.ndarray) -> dict:
    n = float(len(labels))
    error = predictions - labels
    sums = {"abs": np.abs(error).sum(0), "sq": (error * error).sum(0), "xy": (labels * predictions).sum(0), "yy": (labels * labels).sum(0),
            "pp": (predictions * predictions).sum(0), "y": labels.sum(0), "mean": labels.mean(0), "pmean": predictions.mean(0)}  # fmt: skip
    mse, mae = sums["sq"] / n, sums["abs"] / n
    denominator = sums["yy"] - n * sums["mean"] * sums["mean"]
    relative = np.where(np.abs(denominator) > 1e-5, (sums["pp"] - 2 * sums["xy"] + sums["yy"]) / denominator, np.inf)
    pearson = (sums["xy"] - n * sums["pmean"] * sums["mean"]) / (np.sqrt(denominator) * np.sqrt(sums["pp"] - n * sums["pmean"] ** 2))
    sstot = sums["yy"] + sums["mean"] * (n * sums["mean"] - 2 * sums["y"])
    r2 = (sstot - sums["sq"]) / sstot
    per = {"meanSquaredError": mse, "meanAbsoluteError": mae, "rootMeanSquaredError": np.sqrt(mse), "relativeSquaredError": relative,
           "pearsonCorrelation": pearson, "correlationR2": pearson, "rSquared": r2}  # fmt: skip
    reference = {f"eval.{name}(i)": values.tolist() for name, values in per.items()}
    averages = {"averageMeanSquaredError": mse, "averageMeanAbsoluteError": mae, "averagerootMeanSquaredError": np.sqrt(mse),
                "averagerelativeSquaredError": relative, "averagePearsonCorrelation": pearson, "averageRSquared": r2}  # fmt: skip
    reference.update({f"eval.{name}()": float(values.mean()) for name, values in averages.items()})
    return reference


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_dl4j_regression_rows_give_dl4js_numbers(seed):
    heading = "### DL4J's RegressionEvaluation"
    namespace = guide_namespace(heading)
    if seed:  # generated columns of another scale
        rng = np.random.default_rng(seed)
        labels = rng.normal(5.0, 2.0, size=(60, 3))
        namespace["labels"], namespace["predictions"] = labels, labels + rng.normal(0.0, 0.7, size=labels.shape)
        namespace["metrics"] = RegressionMetrics.from_predictions(namespace["labels"], namespace["predictions"])
        namespace["other"] = RegressionMetrics.from_predictions(namespace["labels"][:2], namespace["predictions"][:2])
    reference = dl4j_reference(namespace["labels"], namespace["predictions"])
    both = np.concatenate([namespace["labels"], namespace["labels"][:2]]), np.concatenate([namespace["predictions"], namespace["predictions"][:2]])
    reference["eval.merge(other); eval.averageMeanSquaredError()"] = dl4j_reference(*both)["eval.averageMeanSquaredError()"]
    assert check_rows(heading, namespace, reference, rel=1e-9, outputs=namespace["labels"].shape[1]) == 14


def test_dl4j_raw_moments_lose_a_large_mean_where_exact_sums_do_not():
    # y = 1e9 + (0, 1, 2, 3), p = y + (0.5, -0.5, 0.5, -0.5): RSS = 1, SST = 5, R² = 0.8, r = 0.8944...
    labels = (1e9 + np.arange(4.0))[:, None]
    predictions = labels + np.array([[0.5], [-0.5], [0.5], [-0.5]])
    dl4j = dl4j_reference(labels, predictions)
    metrics = RegressionMetrics.from_predictions(labels, predictions)
    assert metrics.get_r_squared() == 0.8 and math.isclose(metrics.get_pearson_correlation(), 2 / math.sqrt(5), rel_tol=1e-15)
    assert abs(dl4j["eval.rSquared(i)"][0] - 0.8) > 0.1  # Σy² - n ȳ² of numbers near 1e18 keeps no digit of 5


# --------------------------------------------------------------------------------------------
# Weka, for real


@pytest.fixture(scope="module")
def weka_regression(tmp_path_factory):
    """The compiled reference program: ``run(train_arff, classifier)``, evaluated on its training
    data, or ``run(train_arff, classifier, test_arff)``."""
    return weka_program(tmp_path_factory, "WekaRegression")


def cpu_rows(folder: Path, name: str, rows: slice) -> Path:
    """An ARFF file of some rows of Weka's ``cpu`` data."""
    lines = (WEKA_DATA / "cpu.arff").read_text(encoding="utf-8").splitlines()
    start = next(k for k, line in enumerate(lines) if line.strip().lower() == "@data") + 1
    data = [line for line in lines[start:] if line.strip() and not line.startswith("%")]
    path = folder / f"{name}.arff"
    path.write_text("\n".join([*lines[:start], *data[rows]]) + "\n", encoding="utf-8")
    return path


def weighted_arff(folder: Path, seed: int) -> Path:
    """A numeric class of three noisy inputs, instances of unequal weight."""
    rng = np.random.default_rng(seed)
    features = rng.normal(size=(80, 3))
    target = 3.0 + features @ np.array([1.5, -2.0, 0.5]) + rng.normal(0.0, 0.8, size=80)
    weights = rng.choice([0.5, 1.0, 2.0, 3.0], size=80)
    lines = ["@relation generated", *(f"@attribute x{k} numeric" for k in range(3)), "@attribute y numeric", "@data"]
    lines += [",".join(f"{value:.6f}" for value in (*row, y)) + f",{{{w}}}" for row, y, w in zip(features, target, weights)]
    path = folder / f"regression-{seed}.arff"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def check_weka(run: dict) -> None:
    heading = "### Weka's numeric evaluation"
    blocks = __import__("re").findall(r"^```python\n(.*?)^```", section(heading), __import__("re").DOTALL | __import__("re").MULTILINE)
    namespace: dict = {}
    exec(compile(blocks[0], "porting-from-java.md", "exec"), namespace)  # noqa: S102 (the guide's own setup)
    predictions, train = np.array(run["predictions"]), np.array(run["train"])
    namespace["actual"], namespace["predicted"], namespace["weight"] = predictions[:, 0], predictions[:, 1], predictions[:, 2]
    namespace["train_actual"], namespace["train_weight"] = train[:, 0], train[:, 1]
    exec(compile(blocks[1], "porting-from-java.md", "exec"), namespace)  # noqa: S102 (the guide's prior: the training data's mean)
    reference = {f"eval.{name}": value for name, value in run.items() if name not in ("predictions", "train")}
    assert check_rows(heading, namespace, reference, rel=1e-10) == 8


@pytest.mark.parametrize("classifier", ["weka.classifiers.functions.LinearRegression", "weka.classifiers.trees.M5P"])
def test_the_weka_numeric_rows_give_wekas_numbers(weka_regression, classifier):
    check_weka(weka_regression(WEKA_DATA / "cpu.arff", classifier))


@pytest.mark.parametrize("seed", [3, 4])
def test_the_weka_numeric_rows_give_wekas_numbers_on_weighted_data(weka_regression, tmp_path, seed):
    check_weka(weka_regression(weighted_arff(tmp_path, seed), "weka.classifiers.functions.LinearRegression"))


@pytest.mark.parametrize("classifier", ["weka.classifiers.functions.LinearRegression", "weka.classifiers.trees.M5P"])
def test_the_weka_numeric_rows_take_the_training_data_mean_as_the_prior(weka_regression, tmp_path, classifier):
    # the guide's example: trained on every tenth row of cpu from the seventh, tested on the first six
    train, test = cpu_rows(tmp_path, "train", slice(6, None, 10)), cpu_rows(tmp_path, "test", slice(0, 6))
    run = weka_regression(train, classifier, test)
    check_weka(run)
    actual = np.array(run["predictions"])[:, 0]
    assert abs(np.mean(np.array(run["train"])[:, 0]) - actual.mean()) > 50  # the two means differ: the prior matters here
    if classifier.endswith("M5P"):  # the numbers the guide prints, from its rounded predictions
        namespace = guide_namespace("### Weka's numeric evaluation")
        assert namespace["actual"].tolist() == actual.tolist() and namespace["predicted"] == pytest.approx(np.array(run["predictions"])[:, 1], abs=5e-5)
        assert namespace["prior"] == np.mean(np.array(run["train"])[:, 0]) == 121.0
        assert round(run["relativeAbsoluteError()"], 4) == 57.8177 and round(run["rootRelativeSquaredError()"], 4) == 60.3303
        test_mean = np.average(actual, weights=namespace["weight"])  # what the prior is not: the relative error would be 110.52 %
        assert round(100 * namespace["metrics"].get_mean_absolute_error() / np.mean(np.abs(actual - test_mean)), 2) == 110.52


# --------------------------------------------------------------------------------------------
# statsmodels: the residual standard error and F statistic of a model of k inputs


@pytest.mark.parametrize("k", [1, 2, 5])
@pytest.mark.parametrize("weighted", [False, True])
def test_residual_standard_error_and_f_statistic_are_statsmodels_ols(k, weighted):
    rng = np.random.default_rng(10 * k + weighted)
    x = rng.normal(size=(50, k))
    y = 2.0 + x @ rng.normal(size=k) + rng.normal(0.0, 0.5, size=50)
    weight = rng.uniform(0.5, 3.0, size=50) if weighted else None
    design = sm.add_constant(x)
    model = (sm.WLS(y, design, weights=weight) if weighted else sm.OLS(y, design)).fit()
    metrics = RegressionMetrics.from_predictions(y, model.fittedvalues, sample_weight=weight)
    assert math.isclose(metrics.get_residual_standard_error(n_inputs=k), math.sqrt(model.scale), rel_tol=1e-10)
    assert math.isclose(metrics.get_f_stat(n_inputs=k), model.fvalue, rel_tol=1e-9)
    assert math.isclose(metrics.get_r_squared(), model.rsquared, rel_tol=1e-10)
    assert math.isclose(metrics.get_residual_square_sum(), model.ssr, rel_tol=1e-10)
