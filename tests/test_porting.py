"""Porting from Java gives the Java numbers: every row of the porting guide's Weka, DL4J, Tribuo
and Deep Netts tables is evaluated and compared with the Java library's own number.

Weka runs for real (Debian's ``weka`` package, which ``.ci/run`` installs): a small Java program
(``tests/java/WekaReference.java``) cross-validates classifiers on the data sets Weka ships and
on generated ones and prints every prediction and every number of its ``Evaluation`` at full
precision. DL4J's and Tribuo's jars cannot be fetched here: their numbers are computed below
from the formulas their source code writes, each function citing the file and method it follows.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from evalkit import ClassificationMetrics, ConfusionMatrix, Evaluation, ThresholdCurve
from evalkit.io._report import build_report
from evalkit.measures._averaging import summarize
from evalkit.spark import area_under_pr

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "pages" / "porting-from-java.md"
WEKA_JAR = Path("/usr/share/java/weka.jar")
WEKA_DATA = Path("/usr/share/doc/weka/examples")
ROW = re.compile(r"^\| (?P<java>`[^|]*?(?:\([^|]*?\))?[^|]*?) \| `(?P<evalkit>[^`]+)` \|", re.MULTILINE)


# --------------------------------------------------------------------------------------------
# the guide's tables


def section(heading: str) -> str:
    """The text of the guide under a heading, up to the next heading."""
    text = GUIDE.read_text(encoding="utf-8")
    start = text.index(f"\n{heading}\n") + len(heading) + 2
    following = re.search(r"^#{2,3} ", text[start:], re.MULTILINE)
    return text[start : start + following.start()] if following else text[start:]


def rows(heading: str) -> list[tuple[str, str]]:
    """``(Java call, evalkit expression)`` of every row of a section's table."""
    found = [(match["java"].replace("`", "").strip(), match["evalkit"]) for match in ROW.finditer(section(heading))]
    assert found, heading
    return found


def guide_namespace(heading: str) -> dict:
    """What the section's own code blocks define (they run as the documentation shows them)."""
    namespace: dict = {"__name__": "porting_guide"}
    for block in re.findall(r"^```python\n(.*?)^```", section(heading), re.DOTALL | re.MULTILINE):
        exec(compile(block, f"porting-from-java.md:{heading}", "exec"), namespace)  # noqa: S102
    return namespace


def loop_variables(java: str, namespace: dict) -> list[dict]:
    """The values a row's Java call ranges over: a class index ``i``, a ``label`` (with its
    index), or ``(a, p)`` and ``(predicted, truth)`` pairs."""
    if not any(marker in java for marker in ("(a, p)", "(predicted, truth)", "(label)", "(i)")):
        return [{}]
    labels = list(namespace["cm"].labels)
    m = len(labels)
    if "(a, p)" in java:
        return [{"a": a, "p": p} for a in range(m) for p in range(m)]
    if "(predicted, truth)" in java:
        return [{"predicted": p, "truth": t} for p in labels for t in labels]
    if "(label)" in java:
        return [{"label": label, "i": k} for k, label in enumerate(labels)]
    if "(i)" in java:
        return [{"i": k} for k in range(m)]
    return [{}]


def same(ours, theirs, rel: float = 1e-12) -> bool:
    if isinstance(theirs, list) and len({np.shape(part) for part in theirs}) > 1:  # one array per class, of its own length
        return isinstance(ours, list) and len(ours) == len(theirs) and all(same(a, b, rel) for a, b in zip(ours, theirs))
    ours, theirs = np.asarray(ours, dtype=np.float64), np.asarray(theirs, dtype=np.float64)
    return ours.shape == theirs.shape and bool(np.allclose(ours, theirs, rtol=rel, atol=1e-12, equal_nan=True))


def check_table(heading: str, namespace: dict, reference: dict, *, rel: float = 1e-12, special: dict | None = None) -> int:
    """Evaluate every row of a table in ``namespace`` and compare with ``reference[java]`` (a
    number, or one per value of the row's loop variables); ``special`` checks rows of text."""
    special = special or {}
    checked = 0
    for java, expression in rows(heading):
        if java in special:
            special[java](eval(expression, dict(namespace)))
            checked += 1
            continue
        assert java in reference, f"the guide's row {java!r} has no Java reference value to be checked against"
        expected = reference[java]
        values = [eval(expression, {**namespace, **variables}) for variables in loop_variables(java, namespace)]
        ours = values[0] if len(values) == 1 and np.ndim(expected) == np.ndim(values[0]) else values
        assert same(ours, expected, rel), (heading, java, expression, ours, expected)
        checked += 1
    return checked


# --------------------------------------------------------------------------------------------
# Weka, for real


def weka_program(tmp_path_factory, name: str):
    """``run(*arguments)``: the JSON a program of ``tests/java`` prints, compiled against Weka
    (Weka and a JDK come from the system packages)."""
    missing = [name for name, found in (("java", shutil.which("java")), ("javac", shutil.which("javac")), (str(WEKA_JAR), WEKA_JAR.exists())) if not found]
    if missing:
        pytest.fail(f"Weka is not installed ({', '.join(missing)} missing): .ci/run installs it (apt-get install weka default-jdk-headless)")
    folder = tmp_path_factory.mktemp(name)
    sources = [str(ROOT / "tests" / "java" / f"{source}.java") for source in (name, "Json")]
    subprocess.run(["javac", "-cp", str(WEKA_JAR), "-d", str(folder), *sources], check=True, capture_output=True)

    def run(*arguments: object) -> dict:
        result = subprocess.run(["java", "-cp", f"{WEKA_JAR}:{folder}", name, *map(str, arguments)], check=True, capture_output=True, text=True)
        return json.loads(result.stdout)

    return run


@pytest.fixture(scope="module")
def weka(tmp_path_factory):
    """The compiled reference program: ``run(arff, classifier, folds, seed)``."""
    program = weka_program(tmp_path_factory, "WekaReference")

    def run(arff: Path, classifier: str, folds: int = 10, seed: int = 1) -> dict:
        return program(arff, classifier, folds, seed)

    return run


def generated_arff(folder: Path, seed: int) -> Path:
    """Four classes of unequal size, weighted instances, features that separate them partly."""
    rng = np.random.default_rng(seed)
    n = 120
    classes = rng.choice(4, size=n, p=[0.5, 0.3, 0.15, 0.05])
    features = rng.normal(classes[:, None] * 0.8, 1.0, size=(n, 3))
    weights = rng.choice([1.0, 0.5, 2.0, 3.0], size=n)
    lines = ["@relation generated", *(f"@attribute x{k} numeric" for k in range(3)), "@attribute class {a,b,c,d}", "@data"]
    lines += [",".join(f"{value:.6f}" for value in row) + f",{'abcd'[c]},{{{w}}}" for row, c, w in zip(features, classes, weights)]
    path = folder / f"generated-{seed}.arff"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def weka_namespace(run: dict) -> dict:
    """The guide's setup for Weka, from Weka's own predictions."""
    actual = np.array([p[0] for p in run["predictions"]], dtype=int)
    proba = np.array([p[2] for p in run["predictions"]], dtype=np.float64)
    weight = np.array([p[3] for p in run["predictions"]], dtype=np.float64)
    predicted = np.array([p[1] for p in run["predictions"]], dtype=int)
    m = len(run["classes"])
    cm = ConfusionMatrix.from_predictions(actual, predicted, labels=range(m), sample_weight=weight)
    curve = ThresholdCurve.from_scores(actual, proba, labels=range(m), sample_weight=weight)
    details = build_report(cm, measures=["tp_rate", "fp_rate", "precision", "recall", "f1", "roc_auc"], curve=curve, undefined="zero")
    assert np.array_equal(predicted, proba.argmax(axis=1)) or m == 2, "Weka predicts the class of highest probability"
    return {"np": np, "cm": cm, "curve": curve, "details": details, "actual": actual, "proba": proba, "weight": weight, "m": m,
            "predicted": predicted, "build_report": build_report}  # fmt: skip


def weka_text_checks(run: dict, namespace: dict) -> dict:
    """Weka's text methods: the numbers they print (three or four decimals) are evalkit's."""
    details, cm = namespace["details"], namespace["cm"]

    def class_details(text: str) -> None:
        assert isinstance(text, str) and "roc auc" in text
        lines = [line for line in run["toClassDetailsString()"].splitlines() if re.match(r"^\s*[\d.NaN?]", line) or line.startswith("Weighted Avg.")]
        expected = [details.per_class[k] for k in range(namespace["m"])] + [details.averages["weighted avg"]]
        assert len(lines) == len(expected)
        for line, values in zip(lines, expected):
            tokens = re.findall(r"-?\d+(?:\.\d+)?|NaN|\?", line.removeprefix("Weighted Avg."))[:6]
            numbers = [math.nan if token in ("?", "NaN") else float(token) for token in tokens]  # Weka prints ? for a missing value
            tp_rate, fp_rate, precision, f1, roc = values  # Weka's TP Rate and Recall are one measure: one evalkit column
            ours = [tp_rate, fp_rate, precision, tp_rate, f1, roc]
            assert np.allclose(numbers, np.asarray(ours, dtype=np.float64), rtol=0, atol=5e-4 + 1e-12, equal_nan=True), (line, values)

    def matrix(text: str) -> None:
        body = [line for line in run["toMatrixString()"].splitlines() if "|" in line]
        counts = np.array([[float(token) for token in line.split("|")[0].split()] for line in body])
        assert np.allclose(counts, cm.to_array()) and all(f"{int(c)}" in text or f"{c}" in text for c in cm.to_array().ravel())

    def summary(text: str) -> None:
        kappa = float(re.search(r"Kappa statistic\s+(-?[\d.]+)", run["toSummaryString()"])[1])
        correct = float(re.search(r"Correctly Classified Instances\s+([\d.]+)\s+([\d.]+)\s*%", run["toSummaryString()"])[2])
        assert abs(kappa - round(cm.get_cohen_kappa(), 4)) < 5e-5 and abs(correct - round(100 * cm.get_accuracy(), 4)) < 5e-5
        assert "cohen kappa" in text and "accuracy" in text

    return {"eval.toClassDetailsString()": class_details, "eval.toMatrixString()": matrix, "eval.toSummaryString()": summary}


WEKA_RUNS = [
    *((name, "weka.classifiers.bayes.NaiveBayes") for name in ("iris", "glass", "diabetes", "soybean", "unbalanced", "contact-lenses", "breast-cancer")),
    *((name, "weka.classifiers.trees.J48") for name in ("iris", "glass", "diabetes", "breast-cancer")),
    *((name, "weka.classifiers.rules.ZeroR") for name in ("glass", "unbalanced", "contact-lenses")),  # classes never predicted: Weka's 0/0
]


@pytest.mark.slow
@pytest.mark.parametrize(("data", "classifier"), WEKA_RUNS, ids=[f"{d}-{c.rsplit('.', 1)[1]}" for d, c in WEKA_RUNS])
def test_the_weka_rows_give_wekas_numbers(weka, data, classifier):
    run = weka(WEKA_DATA / f"{data}.arff", classifier)
    namespace = weka_namespace(run)
    reference = {f"eval.{key}": value for key, value in run.items() if key.endswith(")") and not key.startswith("to")}
    assert check_table("## Weka", namespace, reference, special=weka_text_checks(run, namespace)) >= 30


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_weka_rows_give_wekas_numbers_on_weighted_generated_data(weka, tmp_path, seed):
    for classifier in ("weka.classifiers.bayes.NaiveBayes", "weka.classifiers.trees.J48"):
        run = weka(generated_arff(tmp_path, seed), classifier, folds=5, seed=seed)
        assert len({p[3] for p in run["predictions"]}) > 1, "the instances carry their weights"
        namespace = weka_namespace(run)
        reference = {f"eval.{key}": value for key, value in run.items() if key.endswith(")") and not key.startswith("to")}
        check_table("## Weka", namespace, reference, special=weka_text_checks(run, namespace))


def test_the_weka_guide_example_runs_and_matches_its_table():
    """The guide's Weka code runs, and its table's expressions evaluate on it."""
    namespace = guide_namespace("## Weka")
    for java, expression in rows("## Weka"):
        for variables in loop_variables(java, namespace):
            eval(expression, {**namespace, **variables})
    assert namespace["details"].averages["weighted avg"][2] == namespace["cm"].average("precision", "weighted", undefined="zero")


# --------------------------------------------------------------------------------------------
# DL4J, from its source's formulas


def dl4j_counts(actual: np.ndarray, predicted: np.ndarray, m: int) -> tuple[np.ndarray, ...]:
    """tp, fp, fn, tn per class as ``Evaluation.eval(INDArray, INDArray)`` increments them
    (nd4j .../evaluation/classification/Evaluation.java, the multi-class loop of ``eval``)."""
    tp, fp, fn, tn = (np.zeros(m, dtype=np.int64) for _ in range(4))
    for a, p in zip(actual.tolist(), predicted.tolist()):
        if a == p:
            tp[a] += 1
            tn[[c for c in range(m) if c != a]] += 1
        else:
            fp[p] += 1
            fn[a] += 1
            tn[[c for c in range(m) if c not in (a, p)]] += 1
    return tp, fp, fn, tn


def edge(numerator: float, other: float, value: float) -> float:
    """``EvaluationUtils.precision/recall/falsePositiveRate/falseNegativeRate``: ``value`` for 0/0."""
    return value if numerator == 0 and other == 0 else numerator / (numerator + other)


def f_beta_counts(tp: float, fp: float, fn: float) -> float:
    """``EvaluationUtils.fBeta(beta, long tp, long fp, long fn)`` with beta 1: NaN for 0/0."""
    with np.errstate(invalid="ignore", divide="ignore"):
        precision, recall = np.float64(tp) / (tp + fp), np.float64(tp) / (tp + fn)
    return f_beta(float(precision), float(recall))


def f_beta(precision: float, recall: float) -> float:
    """``EvaluationUtils.fBeta(beta, precision, recall)`` with beta 1."""
    if precision == 0.0 or recall == 0.0:
        return 0.0
    return 2 * precision * recall / (precision + recall)


def mann_whitney_auc(positive: np.ndarray, score: np.ndarray) -> float:
    """The exact ROC AUC, a tie counting one half (Mann-Whitney's U over the pairs)."""
    pos, neg = score[positive], score[~positive]
    greater = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return float(greater / (len(pos) * len(neg)))


def dl4j_exact_roc(positive: np.ndarray, score: np.ndarray) -> tuple[float, float]:
    """``ROC.calculateAUC()`` and ``calculateAUCPR()`` with ``thresholdSteps = 0`` (nd4j
    .../evaluation/classification/ROC.java, ``getRocCurve``, ``getPrecisionRecallCurve``;
    curves/BaseCurve.java ``calculateArea``): the samples in a stable sort by descending score
    (tied samples in the order they were counted, each its own point), between the points
    (threshold 1: fpr 0, tpr 0, precision 1, recall 0) and (threshold 0: fpr 1, tpr 1, precision
    P / n, recall 1), and the trapezoid under each curve."""
    order = np.argsort(-score, kind="stable")
    y = positive[order].astype(np.float64)
    tp, fp = np.cumsum(y), np.cumsum(1 - y)
    n, p, negatives = len(y), y.sum(), len(y) - y.sum()
    with np.errstate(invalid="ignore", divide="ignore"):
        fpr, tpr = np.concatenate(([0.0], fp / negatives, [1.0])), np.concatenate(([0.0], tp / p, [1.0]))
        precision = np.concatenate(([1.0], tp / np.arange(1, n + 1), [tp[-1] / n]))
        recall = np.concatenate(([0.0], tp / p, [1.0]))

    def area(x: np.ndarray, height: np.ndarray) -> float:
        return float(np.sum(np.abs(np.diff(x)) * (height[1:] + height[:-1]) / 2))

    return area(fpr, tpr), area(recall, precision)


def dl4j_reference(labels: np.ndarray, probabilities: np.ndarray) -> dict:
    """DL4J's numbers (nd4j .../evaluation/classification/Evaluation.java; EvaluationUtils.java)."""
    m = labels.shape[1]
    actual, predicted = labels.argmax(axis=1), probabilities.argmax(axis=1)
    tp, fp, fn, tn = dl4j_counts(actual, predicted, m)
    precision = [edge(tp[i], fp[i], 0.0) for i in range(m)]
    recall = [edge(tp[i], fn[i], 0.0) for i in range(m)]
    defined_p = [edge(tp[i], fp[i], -1) for i in range(m)]
    defined_r = [edge(tp[i], fn[i], -1) for i in range(m)]
    f1 = [0.0 if defined_p[i] == -1 or defined_r[i] == -1 else f_beta(defined_p[i], defined_r[i]) for i in range(m)]
    f1_macro = [f1[i] for i in range(m) if defined_p[i] != -1 and defined_r[i] != -1]
    fpr = [edge(fp[i], tn[i], 0.0) for i in range(m)]
    fnr = [edge(fn[i], tp[i], 0.0) for i in range(m)]
    with np.errstate(invalid="ignore", divide="ignore"):
        mcc = [(tp[i] * tn[i] - fp[i] * fn[i]) / math.sqrt(float((tp[i] + fp[i]) * (tp[i] + fn[i]) * (tn[i] + fp[i]) * (tn[i] + fn[i])))
               if (tp[i] + fp[i]) * (tp[i] + fn[i]) * (tn[i] + fp[i]) * (tn[i] + fn[i]) else math.nan for i in range(m)]  # fmt: skip
    truth_score = probabilities[np.arange(len(actual)), actual]
    top2 = float(np.mean((probabilities > truth_score[:, None]).sum(axis=1) < 2))
    confusion = np.zeros((m, m))
    np.add.at(confusion, (actual, predicted), 1)
    aucs = [dl4j_exact_roc(actual == i, probabilities[:, i])[0] for i in range(m)]  # (no tied scores in a class: DL4J keeps ties apart)
    return {
        "eval.accuracy()": float(np.mean(actual == predicted)),
        "eval.precision(i)": precision, "eval.recall(i)": recall, "eval.f1(i)": f1,
        "eval.falsePositiveRate(i)": fpr, "eval.falseNegativeRate(i)": fnr, "eval.matthewsCorrelation(i)": mcc,
        "eval.gMeasure(i)": [math.sqrt(p * r) for p, r in zip(precision, recall)],
        "eval.precision()": float(np.mean([p for p in defined_p if p != -1])),
        "eval.recall()": float(np.mean([r for r in defined_r if r != -1])),
        "eval.f1()": float(np.mean(f1_macro)),
        "eval.precision(EvaluationAveraging.Micro)": edge(tp.sum(), fp.sum(), 0.0),
        "eval.recall(EvaluationAveraging.Micro)": edge(tp.sum(), fn.sum(), 0.0),
        "eval.f1(EvaluationAveraging.Micro)": f_beta_counts(tp.sum(), fp.sum(), fn.sum()),
        "eval.falsePositiveRate()": float(np.mean(fpr)), "eval.falseNegativeRate()": float(np.mean(fnr)),
        "eval.falsePositiveRate(EvaluationAveraging.Micro)": edge(fp.sum(), tn.sum(), 0.0),
        "eval.falseNegativeRate(EvaluationAveraging.Micro)": edge(fn.sum(), tn.sum(), 0.0),  # falseNegativeRate(fnCount, tnCount): DL4J's own call
        "eval.falseAlarmRate()": (float(np.mean(fpr)) + float(np.mean(fnr))) / 2,
        "eval.getConfusionMatrix().getCount(a, p)": confusion.ravel().tolist(),
        "eval.classCount(i)": (tp + fn).tolist(),
        "eval.getTopNCorrectCount() / eval.getTopNTotalCount() (topN = 2)": top2,
        "new ROCMultiClass().calculateAUC(i)": aucs,
        "new ROCMultiClass().calculateAverageAUC()": float(np.mean(aucs)),
        "new ROCMultiClass().calculateAUCPR(i)": [dl4j_exact_roc(actual == i, probabilities[:, i])[1] for i in range(m)],
        "new ROCMultiClass().calculateAverageAUCPR()": float(np.mean([dl4j_exact_roc(actual == i, probabilities[:, i])[1] for i in range(m)])),
    }  # fmt: skip


def dl4j_binary_reference(labels: np.ndarray, probabilities: np.ndarray) -> dict:
    """DL4J with one output: ``p > 0.5`` is class 1, and ``precision()``, ``recall()`` and ``f1()``
    are class 1's (``binaryPositiveClass``; ``fBeta(beta, EvaluationAveraging)`` for two classes)."""
    predicted = (probabilities > 0.5).astype(int)
    tp, fp, fn, _ = dl4j_counts(labels, predicted, 2)
    return {
        "eval.precision() (two classes)": edge(tp[1], fp[1], 0.0),
        "eval.recall() (two classes)": edge(tp[1], fn[1], 0.0),
        "eval.f1() (two classes)": f_beta_counts(tp[1], fp[1], fn[1]),
        "eval.accuracy() (two classes)": float(np.mean(labels == predicted)),
        "new ROC().calculateAUC()": dl4j_exact_roc(labels == 1, probabilities)[0],
        "new ROC().calculateAUCPR()": dl4j_exact_roc(labels == 1, probabilities)[1],
    }


def dl4j_namespace(labels: np.ndarray, probabilities: np.ndarray, binary_labels: np.ndarray, binary_probabilities: np.ndarray) -> dict:
    """The guide's setup for DL4J (its two code blocks), from arrays."""
    namespace = guide_namespace("## DL4J")  # the helper function and the imports, as the guide writes them
    actual, predicted = labels.argmax(axis=1), probabilities.argmax(axis=1)
    m = labels.shape[1]
    namespace.update(labels=labels, probabilities=probabilities, actual=actual, predicted=predicted, m=m,
                     cm=ConfusionMatrix.from_predictions(actual, predicted, labels=range(m)),
                     curve=ThresholdCurve.from_scores(actual, probabilities, labels=range(m)),
                     binary=ConfusionMatrix.from_predictions(binary_labels, (binary_probabilities > 0.5).astype(int), labels=[0, 1]),
                     roc=ThresholdCurve.from_scores(binary_labels, binary_probabilities))  # fmt: skip
    for block in re.findall(r"^```python\n(.*?)^```", section("### DL4J's EvaluationCalibration"), re.DOTALL | re.MULTILINE):
        exec(compile(block, "porting-from-java.md:### DL4J's EvaluationCalibration", "exec"), namespace)  # noqa: S102 (on these arrays)
    return namespace


def dl4j_calibration_reference(labels: np.ndarray, probabilities: np.ndarray, bins: int = 10) -> dict:
    """DL4J's EvaluationCalibration (nd4j .../evaluation/classification/EvaluationCalibration.java,
    ``eval`` and ``getReliabilityDiagram``): bin j holds ``j * (1.0 / bins) <= p < (j + 1) * (1.0 / bins)``,
    the last one ``p <= 1``; per class the mean probability and the share of positives of the
    non-empty bins."""
    size = 1.0 / bins
    x, y = [], []
    for i in range(labels.shape[1]):
        p, positive = probabilities[:, i], labels[:, i]
        total, positives, sums = np.zeros(bins), np.zeros(bins), np.zeros(bins)
        for j in range(bins):
            inside = (p >= j * size) & ((p <= 1.0) if j == bins - 1 else (p < (j + 1) * size))
            total[j], positives[j], sums[j] = inside.sum(), positive[inside].sum(), p[inside].sum()
        kept = total != 0
        x.append(sums[kept] / total[kept])
        y.append(positives[kept] / total[kept])
    predicted = probabilities.argmax(axis=1)
    residuals = np.abs(labels - probabilities)
    return {
        "evalCal.getProbabilityHistogramAllClasses()": dl4j_histogram(probabilities.ravel()),
        "evalCal.getProbabilityHistogram(i)": [dl4j_histogram(probabilities[:, i], labels[:, i]) for i in range(labels.shape[1])],
        "evalCal.getResidualPlotAllClasses()": dl4j_histogram(residuals.ravel()),
        "evalCal.getResidualPlot(i)": [dl4j_histogram(residuals[:, i], labels[:, i]) for i in range(labels.shape[1])],
        "evalCal.getReliabilityDiagram(i).getMeanPredictedValueX()": x,
        "evalCal.getReliabilityDiagram(i).getFractionPositivesY()": y,
        "evalCal.getLabelCountsEachClass()": labels.sum(axis=0),
        "evalCal.getPredictionCountsEachClass()": np.bincount(predicted, minlength=labels.shape[1]),
    }


def dl4j_histogram(values: np.ndarray, weights: np.ndarray | None = None, bins: int = 50) -> np.ndarray:
    """``EvaluationCalibration``'s histograms (``eval``, ``getProbabilityHistogram``,
    ``getResidualPlot``): value v is in bin j when ``j * (1.0 / bins) <= v < (j + 1) * (1.0 / bins)``,
    the last bin ``<= 1``; values outside [0, 1] nowhere; per class each value weighted by its
    label, the sums truncated to integers."""
    size = 1.0 / bins
    weights = np.ones(len(values)) if weights is None else weights
    counts = [weights[(values >= j * size) & ((values <= 1.0) if j == bins - 1 else (values < (j + 1) * size))].sum() for j in range(bins)]
    return np.array(counts).astype(np.int64)


def dl4j_masked_reference(namespace: dict) -> dict:
    """DL4J's numbers of the guide's batches (``Evaluation``, ``ROCMultiClass`` and
    ``EvaluationBinary``, their ``eval(labels, predictions, mask)``: BaseEvaluation.java
    ``reshapeAndExtractNotMasked`` drops the examples of mask 0; EvaluationBinary.java multiplies
    each count by a mask of one value per output)."""
    labels, probabilities, mask = namespace["batch_labels"], namespace["batch_probabilities"], namespace["example_mask"]
    kept = mask != 0
    actual, predicted = labels[kept].argmax(axis=1), probabilities[kept].argmax(axis=1)
    tp, fp, fn, _ = dl4j_counts(actual, predicted, 3)
    defined_p, defined_r = [edge(tp[i], fp[i], -1) for i in range(3)], [edge(tp[i], fn[i], -1) for i in range(3)]
    confusion = np.zeros((3, 3))
    np.add.at(confusion, (actual, predicted), 1)
    areas = [dl4j_exact_roc(actual == i, probabilities[kept][:, i]) for i in range(3)]  # (rows in the order the batches came)
    truth, guess, cells = namespace["outputs"], namespace["output_probabilities"] > 0.5, namespace["output_mask"]
    btp, bfp = ((guess & (truth == 1)) * cells).sum(axis=0), ((guess & (truth == 0)) * cells).sum(axis=0)
    bfn, btn = ((~guess & (truth == 1)) * cells).sum(axis=0), ((~guess & (truth == 0)) * cells).sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        precision, recall = btp / (btp + bfp), btp / (btp + bfn)
        mcc = (btp * btn - bfp * bfn) / np.sqrt((btp + bfp) * (btp + bfn) * (btn + bfp) * (btn + bfn))
    f1 = [0.0 if p == 0.0 or r == 0.0 else 2 * p * r / (p + r) for p, r in zip(precision.tolist(), recall.tolist())]  # EvaluationUtils.fBeta
    return {
        "eval.accuracy() (batches, masked)": float(np.mean(actual == predicted)),
        "eval.precision() (batches, masked)": float(np.mean([p for p in defined_p if p != -1])),
        "eval.recall() (batches, masked)": float(np.mean([r for r in defined_r if r != -1])),
        "eval.getConfusionMatrix().getCount(a, p) (batches, masked)": confusion.ravel().tolist(),
        "roc.calculateAUC(i) (batches, masked)": [auc for auc, _ in areas],
        "roc.calculateAUCPR(i) (batches, masked)": [auprc for _, auprc in areas],
        "evalBinary.accuracy(i) (per-output mask)": ((btp + btn) / (btp + btn + bfp + bfn)).tolist(),
        "evalBinary.precision(i) (per-output mask)": precision.tolist(),
        "evalBinary.recall(i) (per-output mask)": recall.tolist(),
        "evalBinary.f1(i) (per-output mask)": f1,
        "evalBinary.matthewsCorrelation(i) (per-output mask)": mcc.tolist(),
        "evalBinary.truePositives(i) (per-output mask)": btp.tolist(),
    }


def test_dl4j_fed_batch_by_batch_with_masks_gives_dl4js_numbers():
    """The guide's loop over batches (a mask per example), its sum of batch curves and its
    evaluation of outputs with a mask per (example, output) give DL4J's numbers."""
    namespace = guide_namespace("## DL4J")
    for block in re.findall(r"^```python\n(.*?)^```", section("### DL4J batch by batch, with masks"), re.DOTALL | re.MULTILINE):
        exec(compile(block, "porting-from-java.md:### DL4J batch by batch", "exec"), namespace)  # noqa: S102
    namespace["cm"] = namespace["streamed"]  # (the rows' loops run over its classes)
    reference = dl4j_masked_reference(namespace)
    assert check_table("### DL4J batch by batch, with masks", namespace, reference) == 12
    assert np.isnan(reference["evalBinary.precision(i) (per-output mask)"][2])  # an output of no positive left by its mask: NaN in both


def dl4j_record_cells(namespace: dict) -> dict:
    """DL4J's records of the guide's batches: Evaluation.java ``eval(labels, predictions,
    recordMetaData)`` adds each example's record to the list of its (actual, predicted) pair
    (``addToMetaConfusionMatrix``), in the order examples come; the guide gives the records of
    the examples its mask kept."""
    labels, probabilities, mask, ids = namespace["batch_labels"], namespace["batch_probabilities"], namespace["example_mask"], namespace["example_ids"]
    cells: dict = {}
    for k in np.flatnonzero(mask != 0).tolist():
        cells.setdefault((int(labels[k].argmax()), int(probabilities[k].argmax())), []).append(str(ids[k]))
    return cells


def test_dl4j_s_records_of_the_examples_are_dl4js_by_cell_by_class_and_the_errors():
    """Each row of the guide's records table against DL4J's map of records: one cell's in the
    order they came (getPredictions), one class's and the errors as DL4J's lists of cells give
    them (a HashMap's order: compared as the same records)."""
    namespace = guide_namespace("## DL4J")
    for heading in ("### DL4J batch by batch, with masks", "### DL4J's records of the examples"):
        for block in re.findall(r"^```python\n(.*?)^```", section(heading), re.DOTALL | re.MULTILINE):
            exec(compile(block, f"porting-from-java.md:{heading}", "exec"), namespace)  # noqa: S102
    cells = dl4j_record_cells(namespace)

    def dl4j(keep) -> list:  # the (actual, predicted, record) of every cell ``keep`` takes
        return sorted((a, p, meta) for (a, p), metas in cells.items() if keep(a, p) for meta in metas)

    checks = {
        "eval.getPredictionErrors()": lambda rows: sorted(rows) == dl4j(lambda a, p: a != p),
        "eval.getPredictionsByActualClass(a)": lambda rows, a: sorted(rows) == dl4j(lambda actual, p: actual == a),
        "eval.getPredictionByPredictedClass(p)": lambda rows, p: sorted(rows) == dl4j(lambda a, predicted: predicted == p),
        "eval.getPredictions(a, p)": lambda rows, a, p: [meta for _, _, meta in rows] == cells.get((a, p), []),
    }
    assert [java for java, _ in rows("### DL4J's records of the examples")] == list(checks)
    for java, expression in rows("### DL4J's records of the examples"):
        names = [name for found in re.findall(r"\((\w)(?:, (\w))?\)", java) for name in found if name]  # (a), (p), (a, p) or none
        for values in itertools.product(range(3), repeat=len(names)):
            variables = dict(zip(names, values))
            found = [tuple(record) for record in eval(expression, {**namespace, **variables})]
            assert checks[java](found, *values), (java, variables, found)
    assert sum(len(metas) for metas in cells.values()) == len(namespace["records"].records()) == namespace["streamed"].get_total_items()


def test_dl4js_own_numbers_from_its_source_and_tests():
    """Numbers read from DL4J's source (and asserted by its tests: ROCTest.testRocAucExact,
    testAUCPrecisionRecall; EvaluationBinaryTest.testEvaluationBinaryPerOutputMasking), computed
    by hand, against the guide's rows."""
    curve = ThresholdCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    assert area_under_pr(curve) == pytest.approx(0.7916666666666666, abs=1e-15) and curve.roc_auc() == 0.75  # (average precision 0.8333)
    assert area_under_pr(ThresholdCurve.from_scores([1, 0, 1], [0.33, 0.5, 0.66])) == pytest.approx(0.7916666666667, abs=1e-8)
    mask = np.array([[1, 1, 0], [1, 0, 0], [1, 1, 0], [1, 0, 0], [1, 1, 1]])
    truth = np.array([[1, 1, 1], [0, 0, 0], [1, 1, 1], [0, 1, 1], [1, 0, 1]])
    scores = np.repeat(np.array([0.9, 0.7, 0.6, 0.4, 0.1])[:, None], 3, axis=1)
    outputs = Evaluation.from_indicators(truth, scores > 0.5, mask=mask)
    assert outputs.per_class("accuracy").tolist() == [0.6, 1.0, 0.0]
    assert [outputs.class_cells.tp.tolist(), outputs.class_cells.tn.tolist(), outputs.class_cells.fp.tolist(), outputs.class_cells.fn.tolist()] == [
        [2, 2, 0], [1, 1, 0], [1, 0, 0], [1, 0, 1]]  # fmt: skip
    labels, probabilities = np.array([[1, 0], [0, 1], [0, 1]]), np.array([[0.7, 0.3], [0.45, 0.55], [0.2, 0.8]])
    five = {"bins": 5, "range": (0, 1)}  # EvaluationCalibration(5, 5): values off the edges DL4J's products move
    assert np.histogram(np.abs(labels - probabilities), **five)[0].tolist() == [1, 3, 2, 0, 0]
    assert np.histogram(probabilities, **five)[0].tolist() == [0, 2, 2, 1, 1]
    assert np.histogram(1 - probabilities[labels[:, 1] == 1, 1], **five)[0].tolist() == [1, 0, 1, 0, 0]
    edges = np.concatenate([np.arange(51) / 50, np.arange(51) * (1.0 / 50), [0.7, 0.3, 0.19999999999999996, 1.0]])  # values on the edges
    assert np.array_equal(np.histogram(edges, bins=50, range=(0, 1))[0], dl4j_histogram(edges)) and dl4j_histogram(np.array([0.7]))[34] == 1


def random_dl4j_data(seed: int) -> tuple[np.ndarray, ...]:
    """Four classes, one the model never predicts; no tied scores."""
    rng = np.random.default_rng(seed)
    n = 60
    actual = np.concatenate([np.arange(4), rng.choice(4, size=n - 4, p=[0.4, 0.3, 0.2, 0.1])])
    logits = rng.normal(size=(n, 4))
    logits[np.arange(n), actual] += rng.uniform(0, 2.5, n)
    logits[:, 2] -= 4  # class 2 is never the highest: never predicted
    probabilities = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    binary_labels = rng.integers(0, 2, 40)
    binary_probabilities = np.clip(binary_labels * 0.3 + rng.random(40) * 0.7, 0, 1)
    return np.eye(4)[actual], probabilities, binary_labels, binary_probabilities


def test_dl4js_micro_false_negative_rate_divides_by_the_true_negatives():
    """``falseNegativeRate(EvaluationAveraging.Micro)`` calls ``EvaluationUtils.falseNegativeRate(fnCount,
    tnCount, ...)``, whose second argument is the true positives: Σfn / (Σfn + Σtn), the micro false
    omission rate, which the guide's row reads and its text names."""
    guide = guide_namespace("## DL4J")
    tp, _, fn, tn = dl4j_counts(guide["actual"], guide["predicted"], guide["m"])
    found = eval(dict(rows("## DL4J"))["eval.falseNegativeRate(EvaluationAveraging.Micro)"], dict(guide))
    assert found == fn.sum() / (fn.sum() + tn.sum()) and abs(found - fn.sum() / (fn.sum() + tp.sum())) > 0.1
    assert "Σfn / (Σfn + Σtn)" in section("## DL4J") and 'cm.average("fnr", "micro")' in section("## DL4J")


@pytest.mark.parametrize("seed", [None, 0, 1, 2, 3, 4])
def test_the_dl4j_rows_give_dl4js_numbers(seed):
    if seed is None:  # the guide's own example data
        guide = guide_namespace("## DL4J")
        data = (guide["labels"], guide["probabilities"], *_guide_binary())
    else:
        data = random_dl4j_data(seed)
    namespace = dl4j_namespace(*data)
    assert check_table("## DL4J", namespace, dl4j_reference(*data[:2])) >= 20
    assert check_table("### DL4J with two classes", namespace, dl4j_binary_reference(*data[2:])) == 6
    if seed is not None:  # the guide's example holds probabilities on bin edges (0.1, 0.2, ...), where DL4J's left-closed bins differ
        assert check_table("### DL4J's EvaluationCalibration", namespace, dl4j_calibration_reference(*data[:2])) == 8


def _guide_binary() -> tuple[np.ndarray, np.ndarray]:
    namespace: dict = {"np": np, "ConfusionMatrix": ConfusionMatrix, "ThresholdCurve": ThresholdCurve}
    for block in re.findall(r"^```python\n(.*?)^```", section("### DL4J with two classes"), re.DOTALL | re.MULTILINE):
        exec(compile(block, "porting-from-java.md:DL4J two classes", "exec"), namespace)  # noqa: S102
    return namespace["binary_labels"], namespace["binary_probabilities"]


def test_the_guide_shows_the_dl4j_conventions_on_a_real_snippet():
    """The issue's numbers: DL4J's binary precision is the positive class's, and its macro F1
    leaves out the classes with 0/0 precision or recall."""
    labels, probabilities = np.array([1, 0, 1, 1, 0, 1]), np.array([0.9, 0.7, 0.3, 0.8, 0.2, 0.6])
    cm = ConfusionMatrix.from_predictions(labels, (probabilities > 0.5).astype(int), labels=[0, 1])
    positive = dl4j_binary_reference(labels, probabilities)["eval.precision() (two classes)"]
    assert cm.per_class("precision", undefined="zero")[1] == positive != cm.average("precision", "macro")


# --------------------------------------------------------------------------------------------
# Tribuo, from its source's formulas


def tribuo_reference(truth: np.ndarray, scores: np.ndarray, names: list[str], folds: list[ConfusionMatrix]) -> dict:
    """Tribuo's numbers (tribuo Classification/Core/.../evaluation/ConfusionMetrics.java: 0 for
    0/0 in precision, recall and F-score, macro = mean over the domain, micro from summed counts;
    LabelConfusionMatrix.java: ``cm[predicted][true]``; LabelEvaluationUtil.java:
    ``averagedPrecision`` from ``generatePRCurve``; DescriptiveStats.java: the sample standard
    deviation)."""
    predicted = np.array(names)[scores.argmax(axis=1)]
    m = len(names)
    tp = np.array([np.sum((truth == c) & (predicted == c)) for c in names], dtype=float)
    fp = np.array([np.sum((truth != c) & (predicted == c)) for c in names], dtype=float)
    fn = np.array([np.sum((truth == c) & (predicted != c)) for c in names], dtype=float)
    support = tp + fn

    def ratio(a: float, b: float) -> float:
        return 0.0 if a + b == 0 else a / (a + b)

    def fscore(t: float, p: float, n: float) -> float:
        precision, recall = ratio(t, p), ratio(t, n)
        return 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)

    precision = [ratio(tp[i], fp[i]) for i in range(m)]
    recall = [ratio(tp[i], fn[i]) for i in range(m)]
    f1 = [fscore(tp[i], fp[i], fn[i]) for i in range(m)]
    aucs = [mann_whitney_auc(truth == c, scores[:, k]) for k, c in enumerate(names)]
    accuracies = [np.mean(fold.to_array().trace() / fold.get_total_items()) for fold in folds]
    return {
        "evaluation.accuracy()": tp.sum() / len(truth),
        "evaluation.accuracy(label)": [tp[i] / support[i] if support[i] else math.nan for i in range(m)],
        "evaluation.precision(label)": precision, "evaluation.recall(label)": recall, "evaluation.f1(label)": f1,
        "evaluation.tp(label)": tp.tolist(), "evaluation.tp()": tp.sum(), "evaluation.macroTP()": tp.mean(),
        "evaluation.macroAveragedPrecision()": np.mean(precision), "evaluation.macroAveragedRecall()": np.mean(recall),
        "evaluation.macroAveragedF1()": np.mean(f1),
        "evaluation.microAveragedPrecision()": ratio(tp.sum(), fp.sum()), "evaluation.microAveragedRecall()": ratio(tp.sum(), fn.sum()),
        "evaluation.microAveragedF1()": fscore(tp.sum(), fp.sum(), fn.sum()),
        "evaluation.balancedErrorRate()": 1 - np.mean(recall),
        "evaluation.confusion(predicted, truth)": [float(np.sum((predicted == p) & (truth == t))) for p in names for t in names],
        "evaluation.AUCROC(label)": aucs, "evaluation.averageAUCROC(false)": np.mean(aucs),
        "evaluation.averageAUCROC(true)": np.average(aucs, weights=support),
        "evaluation.averagedPrecision(label)": [tribuo_averaged_precision(truth == c, scores[:, k]) for k, c in enumerate(names)],
        "EvaluationAggregator.summarize(folds, LabelEvaluation::accuracy).getMean()": np.mean(accuracies),
        "EvaluationAggregator.summarize(folds, LabelEvaluation::accuracy).getStandardDeviation()": np.std(accuracies, ddof=1),
    }  # fmt: skip


def tribuo_averaged_precision(positive: np.ndarray, score: np.ndarray) -> float:
    """``LabelEvaluationUtil.averagedPrecision``: ``generatePRCurve`` then the sum of
    ``(recall[i+1] - recall[i]) * precision[i]``, negated."""
    order = np.argsort(-score, kind="stable")
    sorted_score, sorted_positive = score[order], positive[order]
    distinct = np.append(np.flatnonzero(np.diff(sorted_score)), len(score) - 1)
    true_sum = np.cumsum(sorted_positive)
    total = int(positive.sum())
    precisions, recalls = [], []
    for index in distinct:
        true_positive, false_positive = true_sum[index], 1 + index - true_sum[index]
        precisions.append(true_positive / (true_positive + false_positive) if true_positive else 0.0)
        recalls.append(true_positive / total if true_positive else 0.0)
        if true_positive == total:
            break
    precisions, recalls = [*precisions[::-1], 1.0], [*recalls[::-1], 0.0]
    return -sum((recalls[i + 1] - recalls[i]) * precisions[i] for i in range(len(precisions) - 1))


def tribuo_namespace(truth: np.ndarray, scores: np.ndarray, names: list[str]) -> dict:
    """The guide's setup for Tribuo, from arrays."""
    namespace = {"np": np, "summarize": summarize, "build_report": build_report}
    predicted = np.array(names)[scores.argmax(axis=1)]
    cm = ConfusionMatrix.from_predictions(truth, predicted, labels=names)
    folds = [cm, ConfusionMatrix.from_predictions(truth[:5], predicted[:5], labels=names)]
    namespace.update(truth=truth, scores=scores, names=names, predicted=predicted, cm=cm, folds=folds,
                     curve=ThresholdCurve.from_scores(truth, scores, labels=names))  # fmt: skip
    return namespace


@pytest.mark.parametrize("seed", [None, 0, 1, 2, 3])
def test_the_tribuo_rows_give_tribuos_numbers(seed):
    if seed is None:
        guide = guide_namespace("## Tribuo")
        truth, scores, names = guide["truth"], guide["scores"], guide["names"]
    else:
        rng = np.random.default_rng(seed)
        names = ["bird", "cat", "dog", "eel"]
        truth = np.concatenate([names, rng.choice(names, size=36, p=[0.1, 0.2, 0.3, 0.4])])
        scores = rng.dirichlet(np.ones(4), size=40)
        scores[:, 0] *= 0.1  # bird is rarely (or never) the highest score
    namespace = tribuo_namespace(truth, scores, names)
    assert check_table("## Tribuo", namespace, tribuo_reference(truth, scores, names, namespace["folds"])) >= 20


def tribuo_regression_reference(truth: np.ndarray, predicted: np.ndarray, weights: np.ndarray | None = None) -> dict:
    """Tribuo's regression numbers per dimension (tribuo Regression/Core/.../evaluation/
    RegressionMetrics.java: MAE ``Σ w |r| / Σ w``, RMSE the root of ``Σ w r² / Σ w``, R²
    ``1 - SSE / Σ w (y - ȳ_w)²``, explained variance ``1 - Σ w (r - r̄_w)² / Σ w (y - ȳ_w)²``;
    the averages plain means over the dimensions)."""
    w = np.ones(len(truth)) if weights is None else weights
    residual = truth - predicted
    total = w.sum()
    mean_y, mean_r = (w[:, None] * truth).sum(axis=0) / total, (w[:, None] * residual).sum(axis=0) / total
    sst = (w[:, None] * (truth - mean_y) ** 2).sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        values = {"mae": (w[:, None] * np.abs(residual)).sum(axis=0) / total, "rmse": np.sqrt((w[:, None] * residual**2).sum(axis=0) / total),
                  "r2": 1 - (w[:, None] * residual**2).sum(axis=0) / sst, "ev": 1 - (w[:, None] * (residual - mean_r) ** 2).sum(axis=0) / sst}  # fmt: skip
    return values


def tribuo_multilabel_reference(true_sets: list[set], predicted_sets: list[set], domain: list[str]) -> dict:
    """Tribuo's multi-label numbers (tribuo MultiLabel/Core/.../evaluation/MultiLabelConfusionMatrix.java
    ``tabulate``; Classification/Core/.../evaluation/ConfusionMetrics.java: 0 for 0/0, F1 from
    the zeroed precision and recall, macro over the domain, micro NaN when no label is true;
    MultiLabelMetrics.java ``JACCARD_SCORE``: the mean over examples of |Y ∩ P| / |Y ∪ P|)."""
    tp = np.array([sum(label in y and label in p for y, p in zip(true_sets, predicted_sets)) for label in domain], dtype=float)
    fp = np.array([sum(label not in y and label in p for y, p in zip(true_sets, predicted_sets)) for label in domain], dtype=float)
    fn = np.array([sum(label in y and label not in p for y, p in zip(true_sets, predicted_sets)) for label in domain], dtype=float)

    def zeroed(numerator: float, denominator: float) -> float:
        return numerator / denominator if denominator else 0.0

    precision = [zeroed(tp[k], tp[k] + fp[k]) for k in range(len(domain))]
    recall = [zeroed(tp[k], tp[k] + fn[k]) for k in range(len(domain))]
    f1 = [zeroed(2 * p * r, p + r) for p, r in zip(precision, recall)]
    support = (tp + fn).sum()
    micro_p, micro_r = (zeroed(tp.sum(), tp.sum() + fp.sum()), zeroed(tp.sum(), tp.sum() + fn.sum())) if support else (math.nan, math.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        jaccard = np.mean([np.float64(len(y & p)) / len(y | p) for y, p in zip(true_sets, predicted_sets)])
    return {
        "evaluation.tp(label)": tp.tolist(), "evaluation.precision(label)": precision, "evaluation.recall(label)": recall, "evaluation.f1(label)": f1,
        "evaluation.macroAveragedPrecision()": float(np.mean(precision)), "evaluation.macroAveragedRecall()": float(np.mean(recall)),
        "evaluation.macroAveragedF1()": float(np.mean(f1)),
        "evaluation.microAveragedPrecision()": micro_p, "evaluation.microAveragedRecall()": micro_r,
        "evaluation.microAveragedF1()": zeroed(2 * micro_p * micro_r, micro_p + micro_r) if support else math.nan,
        "evaluation.balancedErrorRate()": 1 - float(np.mean(recall)), "evaluation.jaccardScore()": float(jaccard),
    }  # fmt: skip


def _tribuo_section(heading: str, **arrays: object) -> dict:
    """The namespace of a Tribuo subsection's code block (its arrays replaced by ``arrays``)."""
    namespace = guide_namespace("## Tribuo")
    for block in re.findall(r"^```python\n(.*?)^```", section(heading), re.DOTALL | re.MULTILINE):
        for name, value in arrays.items():
            block = re.sub(rf"^{name} = .*$", f"{name} = _{name}", block, flags=re.MULTILINE)
            namespace[f"_{name}"] = value
        exec(compile(block, f"porting-from-java.md:{heading}", "exec"), namespace)  # noqa: S102
    return namespace


@pytest.mark.parametrize("seed", [None, 0, 1, 2])
def test_the_tribuo_regression_rows_give_tribuos_numbers(seed):
    rng = np.random.default_rng(seed)
    arrays = {} if seed is None else {"regression_truth": rng.normal(size=(30, 3)), "regression_predicted": rng.normal(size=(30, 3)),
                                      "example_weights": rng.uniform(0, 2, 30)}  # fmt: skip
    namespace = _tribuo_section("### Tribuo's RegressionEvaluation", **arrays)
    truth, predicted, weights = namespace["regression_truth"], namespace["regression_predicted"], namespace["example_weights"]
    plain, weighted = tribuo_regression_reference(truth, predicted), tribuo_regression_reference(truth, predicted, weights)
    keys = {"mae": "evaluation.mae", "rmse": "evaluation.rmse", "r2": "evaluation.r2", "ev": "evaluation.explainedVariance"}
    found = dict(rows("### Tribuo's RegressionEvaluation"))
    for key, java in keys.items():
        assert same([eval(found[f"{java}(dimension)"], {**namespace, "d": d}) for d in range(truth.shape[1])], plain[key]), java
    averages = {"evaluation.averageMAE()": "mae", "evaluation.averageRMSE()": "rmse", "evaluation.averageR2()": "r2", "evaluation.averagedExplainedVariance()": "ev"}
    for java, key in averages.items():
        assert same(eval(found[java], namespace), np.mean(plain[key])), java
    assert same([eval(found["evaluation.r2(dimension) (RegressionEvaluator(true))"], {**namespace, "d": d}) for d in range(truth.shape[1])], weighted["r2"])
    assert same(eval(found["evaluation.averageMAE() (RegressionEvaluator(true))"], namespace), np.mean(weighted["mae"]))


def test_tribuos_regression_numbers_from_its_tests_and_source():
    """Tribuo's RegressionEvaluatorTest (a constant prediction of 0) and hand-computed cases:
    a weighted one, and a constant target (R² -inf with an error, NaN without)."""
    from evalkit import RegressionMetrics

    tested = RegressionMetrics.from_predictions(np.array([5.1, 10, 20, 50]), np.zeros(4))
    assert tested.get_mean_absolute_error() == pytest.approx(21.275) and tested.get_root_mean_squared_error() == pytest.approx(27.504590525946757)
    assert tested.get_r_squared() == pytest.approx(-1.4895033555942687) and tested.get_explained_variance() == pytest.approx(0.0, abs=1e-15)
    weighted = RegressionMetrics.from_predictions(np.array([1.0, 2, 3, 4]), np.array([1.5, 2, 2, 5]), sample_weight=np.array([2.0, 1, 1, 0]))
    assert weighted.get_mean_absolute_error() == 0.5 and weighted.get_r_squared() == pytest.approx(5 / 11) and weighted.get_explained_variance() == pytest.approx(5 / 11)
    constant = RegressionMetrics.from_predictions(np.array([[0.0, 5], [2, 5]]), np.array([[1.0, 5], [1, 6]]))
    assert constant.get_r_squared(multioutput="raw_values").tolist() == [0.0, -math.inf] and constant.get_root_mean_squared_error() == pytest.approx(0.8535533905932737)
    perfect = RegressionMetrics.from_predictions(np.array([[0.0, 5], [2, 5]]), np.array([[1.0, 5], [1, 5]]))
    assert math.isnan(perfect.get_r_squared(multioutput="raw_values")[1])


@pytest.mark.parametrize("seed", [None, 0, 1, 2])
def test_the_tribuo_multilabel_rows_give_tribuos_numbers(seed):
    rng = np.random.default_rng(seed)
    domain = ["a", "b", "c", "d", "e"]

    def random_sets() -> list[set]:  # ("e" never occurs)
        return [set(rng.choice(domain[:4], size=rng.integers(0, 3), replace=False).tolist()) for _ in range(25)]

    arrays = {} if seed is None else {"domain": domain, "true_sets": [s | {"a"} for s in random_sets()], "predicted_sets": random_sets()}
    namespace = _tribuo_section("### Tribuo's MultiLabelEvaluation", **arrays)
    reference = tribuo_multilabel_reference(namespace["true_sets"], namespace["predicted_sets"], namespace["domain"])
    namespace["cm"] = ConfusionMatrix(namespace["domain"])  # (the rows' loops run over the domain)
    assert check_table("### Tribuo's MultiLabelEvaluation", namespace, reference) == 12


def test_tribuos_multilabel_numbers_from_its_source_worked_by_hand():
    """Three cases read from Tribuo's code: a label of the domain the data never hold counts 0
    in the macro averages; two empty sets make the Jaccard score NaN; no true label at all makes
    the micro values NaN in Tribuo (evalkit's micro precision is the 0 of one false positive)."""
    basic = Evaluation.from_label_sets([{"a", "b"}, {"b"}, {"c"}], [{"a"}, {"b", "c"}, set()], labels=["a", "b", "c"])
    assert basic.average("f1_score", "macro", undefined="zero") == pytest.approx(0.5555555555555555)
    assert basic.average("f1_score", "micro") == pytest.approx(4 / 7) and basic.average("jaccard_index", "samples", undefined="nan") == pytest.approx(1 / 3)
    unseen = Evaluation.from_label_sets([{"x"}, {"y"}, set()], [{"x"}, {"x"}, set()], labels=["x", "y", "z"])
    assert unseen.average("precision", "macro", undefined="zero") == pytest.approx(1 / 6) and unseen.average("f1_score", "macro", undefined="zero") == pytest.approx(2 / 9)
    assert math.isnan(unseen.average("jaccard_index", "samples", undefined="nan")) and 1 - unseen.average("recall", "macro", undefined="zero") == pytest.approx(2 / 3)
    none_true = tribuo_multilabel_reference([set()], [{"a"}], ["a"])
    assert math.isnan(none_true["evaluation.microAveragedPrecision()"]) and none_true["evaluation.balancedErrorRate()"] == 1.0


# --------------------------------------------------------------------------------------------
# Deep Netts' evaluators


def deep_netts_reference(target, output, targets, outputs) -> dict:
    """``ClassifierEvaluator.evaluate`` (deepnetts.eval.ClassifierEvaluator.java) in Java's 32-bit
    floats: one output predicts positive at ``output >= 0.5``; several predict the highest output
    of those ``>= 0.5``, else none; the multi-class result is the mean over the classes of
    ``ClassificationMetrics``' precision, recall and F1 (NaN for 0/0 propagates)."""
    f = np.float32
    positive = output >= f(0.5)
    tp, fp = int(np.sum(positive & (target == 1))), int(np.sum(positive & (target == 0)))
    fn, tn = int(np.sum(~positive & (target == 1))), int(np.sum(~positive & (target == 0)))
    with np.errstate(invalid="ignore", divide="ignore"):
        precision, recall = f(tp) / f(tp + fp), f(tp) / f(tp + fn)
        reference = {
            'ClassifierEvaluator.evaluate(net, testSet).get("Accuracy") (one output)': f(tp + tn) / f(tp + tn + fp + fn),
            'ClassifierEvaluator.evaluate(net, testSet).get("Precision") (one output)': precision,
            'ClassifierEvaluator.evaluate(net, testSet).get("Recall") (one output)': recall,
            'ClassifierEvaluator.evaluate(net, testSet).get("F1Score") (one output)': f(2) * precision * recall / (precision + recall),
        }
        actual = targets.argmax(axis=1)
        above = np.where(outputs >= f(0.5), outputs, -np.inf)
        predicted = np.where(np.isfinite(above.max(axis=1)), above.argmax(axis=1), -1)
        per_class = []
        for c in range(targets.shape[1]):
            t = f(np.sum((actual == c) & (predicted == c)))
            p_all, a_all = f(np.sum(predicted == c)), f(np.sum(actual == c))
            p, r = t / p_all, t / a_all
            per_class.append((p, r, f(2) * p * r / (p + r)))
    for k, name in enumerate(("Precision", "Recall", "F1Score")):
        reference[f'ClassifierEvaluator.evaluate(net, testSet).get("{name}") (several outputs)'] = np.mean([row[k] for row in per_class])
    matrix = np.zeros((targets.shape[1] + 1, targets.shape[1] + 1))
    np.add.at(matrix, (actual, np.where(predicted == -1, targets.shape[1], predicted)), 1)
    reference["ClassifierEvaluator.getConfusionMatrix()"] = matrix
    return reference


def test_the_deep_netts_evaluator_rows_give_its_numbers():
    namespace = guide_namespace("### Deep Netts' evaluators")
    reference = deep_netts_reference(namespace["target"], namespace["output"], namespace["targets"], namespace["outputs"])
    checked = check_table("### Deep Netts' evaluators", namespace, reference, rel=1e-6,
                          special={"ClassifierEvaluator.getConfusionMatrix()":
                                   lambda matrix: same(matrix.to_array(), reference["ClassifierEvaluator.getConfusionMatrix()"])})  # fmt: skip
    assert checked == 8
    assert ClassificationMetrics.create_from(namespace["evaluation"].confusion_matrix())  # Neuroph's createFromMatrix


def test_every_library_has_its_section():
    text = GUIDE.read_text(encoding="utf-8")
    for heading in ("## Deep Netts names", "### Deep Netts' evaluators", "## Weka", "## DL4J", "### DL4J with two classes", "## Tribuo", "## MOA"):
        assert f"\n{heading}\n" in text, heading
    assert "Evaluators.evaluateClassifier" in text and "createFromMatrix" in text


def test_create_from_honours_the_matrix_metrics_class_and_stats_read_javas_field_names():
    from evalkit import ClassificationMetrics, ConfusionMatrix

    class Doubled(ClassificationMetrics):
        def get_doubled_recall(self):
            return 2 * self.get_recall()

    cm = ConfusionMatrix.from_predictions(list("aabbc"), list("abbbc"), metrics_class=Doubled)
    objects = ClassificationMetrics.create_from(cm)  # as cm.class_metrics(): the matrix's own class
    assert all(type(found) is Doubled for found in objects) and [type(found) for found in cm.class_metrics()] == [Doubled] * 3
    assert all(type(found) is ClassificationMetrics for found in ClassificationMetrics.create_from(ConfusionMatrix.from_predictions(["a", "b"], ["a", "b"])))
    stats = ClassificationMetrics.average(objects)
    assert stats.fScore == stats.f_score == stats.f1_score  # Deep Netts' field name is the documented property
    with pytest.raises(AttributeError, match="never fills it"):
        getattr(stats, "correlationCoefficient")  # noqa: B009 (the Java field name, as Java code reads it)


def test_the_weka_class_details_port_heads_its_columns_as_asked_and_counts_whole():
    from evalkit import ConfusionMatrix
    from evalkit.io._report import build_report

    cm = ConfusionMatrix.from_predictions([0, 0, 1, 1], [0, 1, 1, 1], sample_weight=[1.0, 50.0, 20.5, 49.5])
    report = build_report(cm, measures=["tp_rate", "fp_rate", "precision", "recall", "f1"], undefined="zero")
    header = report.to_text().splitlines()[0].split()
    assert header == ["class", "tp", "rate", "fp", "rate", "precision", "f1-score", "support"]  # tp rate and recall: one measure, one column
    assert "'tp_rate' and 'recall' are one measure (recall): one column" in report.to_text()
    supports = [line.split()[-1] for line in report.to_text().splitlines()[1:3]]
    assert supports == ["51", "70"]  # weighted counts that are whole print as whole numbers, not 51.000


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_corrected_resampled_t_test_gives_wekas_experimenter_numbers(weka, tmp_path, seed):
    """Weka's Experimenter compares two schemes by ``PairedCorrectedTTester``, whose core is
    ``PairedStatsCorrected``: run for real on per-run scores of a 66% hold-out repeated 10 times
    (test/train ratio 34/66) and of 10-fold cross-validation (1/9)."""
    from evalkit.comparisons._paired import corrected_resampled_t_test

    subprocess.run(["javac", "-cp", str(WEKA_JAR), "-d", str(tmp_path), str(ROOT / "tests" / "java" / "WekaPairedTest.java")],
                   check=True, capture_output=True)  # fmt: skip
    rng = np.random.default_rng(seed)
    first = rng.uniform(0.7, 0.9, 10).round(4)
    second = (first - rng.normal(0.01, 0.02, 10)).round(4)
    for ratio, options in ((34 / 66, {"n_train": 66, "n_test": 34}), (1 / 9, {"folds": 10})):
        pairs = [f"{a!r},{b!r}" for a, b in zip(first.tolist(), second.tolist())]
        result = subprocess.run(["java", "-cp", f"{WEKA_JAR}:{tmp_path}", "WekaPairedTest", repr(ratio), "0.05", *pairs],
                                check=True, capture_output=True, text=True)  # fmt: skip
        weka_found = json.loads(result.stdout)
        ours = corrected_resampled_t_test(first, second, **options)
        assert ours.mean_difference == pytest.approx(weka_found["mean"], rel=1e-12)
        assert ours.p_value == pytest.approx(weka_found["p"], rel=1e-6)  # Weka's F distribution is a series good to about 1e-8
        assert weka_found["significance"] == (0 if ours.p_value > 0.05 else (1 if ours.mean_difference > 0 else -1))


# --------------------------------------------------------------------------------------------
# MOA, for real: its evaluators, from the moa.jar that CapyMOA's wheel ships

MOA_WHEEL = "capymoa==0.15.1"  # its jar: MOA's BasicClassificationPerformanceEvaluator and its windowed and fading kin


def moa_jar() -> Path:
    """MOA's jar: CapyMOA's, when CapyMOA is installed, else taken once from its wheel on PyPI
    (its Python dependencies pin pandas below 3, so the test extra does not install it whole)."""
    import importlib.util
    import sys
    import tempfile
    import zipfile

    spec = importlib.util.find_spec("capymoa")
    if spec is not None and spec.origin is not None and (Path(spec.origin).parent / "jar" / "moa.jar").exists():
        return Path(spec.origin).parent / "jar" / "moa.jar"
    cached = Path.home() / ".cache" / "evalkit-tests" / f"moa-{MOA_WHEEL.split('==')[1]}.jar"
    if not cached.exists():
        with tempfile.TemporaryDirectory() as folder:
            fetched = subprocess.run([sys.executable, "-m", "pip", "download", MOA_WHEEL, "--no-deps", "--quiet", "-d", folder], check=False, capture_output=True, text=True)
            if fetched.returncode:
                pytest.fail(f"MOA's jar could not be fetched from PyPI ({MOA_WHEEL}): {fetched.stderr[-500:]}")
            wheel = next(Path(folder).glob("capymoa-*.whl"))
            cached.parent.mkdir(parents=True, exist_ok=True)
            with zipfile.ZipFile(wheel) as archive:
                cached.write_bytes(archive.read("capymoa/jar/moa.jar"))
    return cached


@pytest.fixture(scope="module")
def moa(tmp_path_factory):
    """MOA's three classification evaluators (basic, windowed, fading) on a stream: ``{evaluator: {measure: value}}``."""
    missing = [name for name in ("java", "javac") if not shutil.which(name)]
    if missing:
        pytest.fail(f"a JDK is not installed ({', '.join(missing)} missing): .ci/run installs it (apt-get install default-jdk-headless)")
    jar = moa_jar()
    folder = tmp_path_factory.mktemp("moa")
    subprocess.run(["javac", "-cp", str(jar), "-d", str(folder), str(ROOT / "tests" / "java" / "MoaEvaluators.java")], check=True, capture_output=True)

    def run(classes: int, width: int, alpha: float, actual: list[int], predicted: list[int]) -> dict:
        pairs = [f"{a}:{p}" for a, p in zip(actual, predicted)]
        result = subprocess.run(["java", "-cp", f"{jar}:{folder}", "MoaEvaluators", str(classes), str(width), repr(alpha), *pairs],
                                check=True, capture_output=True, text=True)  # fmt: skip
        found: dict[str, dict[str, float]] = {}
        for line in result.stdout.splitlines():
            evaluator, measurement = line.split(" ", 1)
            name, value = measurement.rsplit("=", 1)
            found.setdefault(evaluator, {})[name] = float(value)
        return found

    return run


@pytest.mark.parametrize("seed", range(4))
def test_moa_evaluators_agree_with_windows_and_decay(moa, seed):
    from evalkit import Faded, MajorityClass, NoChange, Windowed, kappa_m, kappa_temporal
    from evalkit._scale.windows import FadedPerClass

    rng = np.random.default_rng(seed)
    classes, width, alpha, n = int(rng.integers(2, 5)), int(rng.integers(5, 40)), float(rng.choice([0.9, 0.99, 0.999])), int(rng.integers(30, 300))
    runs = np.repeat(rng.integers(0, classes, n), rng.integers(1, 6, n))[:n]  # runs of one class: no-change is a real rival
    actual = runs.tolist()
    predicted = np.where(rng.random(n) < 0.7, runs, rng.integers(0, classes, n)).tolist()
    found = moa(classes, width, alpha, actual, predicted)
    labels = list(range(classes))
    views = {"basic": (lambda: ConfusionMatrix(labels), {}), "window": (lambda: Windowed(ConfusionMatrix(labels), size=width), {"window": width}),
             "fading": (lambda: Faded(ConfusionMatrix(labels), factor=alpha), {"factor": alpha})}  # fmt: skip
    for evaluator, (make, counts) in views.items():
        model, no_change = make(), NoChange(make())
        majority = MajorityClass(make(), include_current=True, **counts)  # MOA counts each sample's own label before choosing the majority
        model.update(actual, predicted)
        no_change.update(actual)
        majority.update(actual)
        moa_found = found[evaluator]
        assert moa_found["classifications correct (percent)"] == pytest.approx(100 * model.get_accuracy(), rel=1e-9)
        assert moa_found["Kappa Statistic (percent)"] == pytest.approx(100 * model.get_cohen_kappa(), rel=1e-9, abs=1e-9)
        assert moa_found["Kappa Temporal Statistic (percent)"] == pytest.approx(100 * kappa_temporal(model, no_change), rel=1e-9, abs=1e-9)
        assert moa_found["Kappa M Statistic (percent)"] == pytest.approx(100 * kappa_m(model, majority), rel=1e-9, abs=1e-9)
        # per class: MOA keeps one window per quantity, each of the last N samples (a sample that is no prediction of the class
        # fills its precision's slot with nothing), so they are the last N samples' values; an undefined one counts 0 (undefined="zero")
        # fading: each per-class estimator ages with its own samples alone (MOA-parity: FadedPerClass)
        per_class = FadedPerClass(labels, factor=alpha) if evaluator == "fading" else None
        if per_class is not None:
            per_class.update(actual, predicted)
        for name, moa_name in (("precision", "Precision"), ("recall", "Recall"), ("f1_score", "F1 Score")):
            values = model.per_class(name, undefined="zero") if per_class is None else per_class.per_class(name)
            macro = model.average(name, "macro", undefined="zero") if per_class is None else per_class.average(name)
            assert [moa_found[f"{moa_name} for class {k} (percent)"] for k in labels] == pytest.approx(100 * values, rel=1e-9, abs=1e-9), (evaluator, name)
            assert moa_found[f"{moa_name} macro (percent)"] == pytest.approx(100 * macro, rel=1e-9, abs=1e-9), (evaluator, name)


def moa_namespace(labels: list[int], actual: list[int], predicted: list[int]) -> dict:
    """The guide's MOA setup (its first code block) on a stream of its own."""
    block = re.findall(r"^```python\n(.*?)^```", section("## MOA"), re.DOTALL | re.MULTILINE)[0]
    namespace: dict = {"__name__": "porting_guide", "labels": labels, "actual": actual, "predicted": predicted}
    exec(compile(re.sub(r"^(labels|actual|predicted) = .*\n", "", block, flags=re.MULTILINE), "porting-from-java.md:## MOA", "exec"), namespace)  # noqa: S102
    return namespace


@pytest.mark.parametrize("seed", [None, 0, 1, 2])
def test_the_moa_rows_give_moas_numbers(moa, seed):
    if seed is None:  # the guide's own stream
        guide = guide_namespace("## MOA")
        labels, actual, predicted = guide["labels"], guide["actual"], guide["predicted"]
    else:
        rng = np.random.default_rng(seed)
        labels, n = list(range(int(rng.integers(2, 5)))), int(rng.integers(20, 200))
        actual = rng.integers(0, len(labels), n).tolist()
        predicted = np.where(rng.random(n) < 0.6, actual, rng.integers(0, len(labels), n)).tolist()
    namespace = moa_namespace(labels, actual, predicted)
    found = moa(len(labels), 5, 0.99, actual, predicted)["basic"]
    checked = 0
    for java, expression in rows("## MOA"):
        for k in labels if " class k " in java else [None]:
            name = java.replace(" class k ", f" class {k} ")
            assert eval(expression, {**namespace, "k": k}) == pytest.approx(found[name], rel=1e-9, abs=1e-9), (java, k)
        checked += 1
    assert checked == 11


def moa_release_f1(actual: list[int], predicted: list[int], m: int) -> tuple[float, float, float]:
    """MOA's macro precision, recall and "F1 Score" as Waikato's release computes them
    (moa/src/main/java/moa/evaluation/BasicClassificationPerformanceEvaluator.java, ``addResult``,
    ``getPrecisionStatistic``, ``getRecallStatistic``, ``getF1Statistic``): per class, an estimator
    of the right predictions among the class's predictions (recall: among its samples; a
    ``BasicEstimator`` skips the NaN added for the others, so 0/0 is NaN); the means over classes
    keep a NaN; F1 is ``2PR / (P + R)`` of the two means."""
    with np.errstate(invalid="ignore"):
        a, p = np.asarray(actual), np.asarray(predicted)
        precision = [np.float64(np.sum((p == i) & (a == i))) / np.sum(p == i) for i in range(m)]
        recall = [np.float64(np.sum((p == i) & (a == i))) / np.sum(a == i) for i in range(m)]
        macro_p, macro_r = sum(precision) / m, sum(recall) / m
        return float(macro_p), float(macro_r), float(2 * ((macro_p * macro_r) / (macro_p + macro_r)))


@pytest.mark.parametrize("seed", [None, 0, 1, 2, 3])
def test_moas_f1_is_the_harmonic_mean_of_its_macro_precision_and_recall(seed):
    guide = guide_namespace("## MOA")
    blocks = re.findall(r"^```python\n(.*?)^```", section("## MOA"), re.DOTALL | re.MULTILINE)
    if seed is None:
        namespace, m = guide, len(guide["labels"])
    else:
        rng = np.random.default_rng(seed)
        m, n = int(rng.integers(2, 6)), int(rng.integers(5, 60))
        actual = rng.integers(0, m, n).tolist()
        namespace = moa_namespace(list(range(m)), actual, np.where(rng.random(n) < 0.5, actual, rng.integers(0, m, n)).tolist())
        exec(compile(blocks[1], "porting-from-java.md:## MOA", "exec"), namespace)  # noqa: S102
    precision, recall, f1 = moa_release_f1(namespace["actual"], namespace["predicted"], m)
    assert same([namespace["p"], namespace["r"]], [precision, recall], 1e-12)
    ours = 2 * namespace["p"] * namespace["r"] / (namespace["p"] + namespace["r"])
    assert same(ours, f1, 1e-12)
    macro_f1 = namespace["basic"].average("f1_score", "macro", undefined="zero")
    assert math.isnan(f1) or f1 >= macro_f1 - 1e-12  # the F1 of the averages is never below the average F1
    if seed is None:
        assert round(100 * f1, 2) == 66.94 and round(100 * macro_f1, 2) == 66.27  # what the guide prints
