"""Metric objects in applications: training loops that count by class index, getters by label,
strict JSON, notebooks, experiment trackers, reports with counts and score areas, and the
command line's per-class score columns."""

import json
import math
import re
import threading

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn import metrics as sk
from strategies import binary_case

from evalkit import ClassificationMetrics, ConfusionMatrix, Evaluation, Stats, ThresholdCurve
from evalkit._engine.counting import index_counts
from evalkit._engine.serialization import json_safe, restore_numbers
from evalkit.cli import main
from evalkit.exceptions import (
    ClassIndexError,
    InvalidArgumentError,
    InvalidTypeError,
    LabelMismatchError,
    UnknownMetricError,
)
from evalkit.io._report import build_report

# --------------------------------------------------------------------------------------------
# a training loop


@given(st.integers(1, 6).flatmap(lambda m: st.tuples(st.just(m), st.lists(st.tuples(st.integers(0, m - 1), st.integers(0, m - 1)), max_size=60))),
       st.sampled_from([None, "int", "float"]), st.data())  # fmt: skip
def test_counting_by_class_index_equals_counting_labels(case, weights, data):
    m, pairs = case
    labels = [f"class {k}" for k in range(m)]
    actual, predicted = [a for a, _ in pairs], [p for _, p in pairs]
    weight = None
    if weights:
        element = st.integers(0, 5) if weights == "int" else st.floats(0, 5, allow_subnormal=False)
        weight = data.draw(st.lists(element, min_size=len(pairs), max_size=len(pairs)))
    by_index = ConfusionMatrix(labels)
    by_index.update_indices(actual, predicted, sample_weight=weight)
    by_label = ConfusionMatrix.from_predictions([labels[a] for a in actual], [labels[p] for p in predicted], labels, sample_weight=weight)
    assert np.allclose(by_index.to_array(), by_label.to_array()) and by_index.to_array().dtype == by_label.to_array().dtype
    assert np.array_equal(index_counts(actual, predicted, m), np.bincount(np.array(actual, dtype=int) * m + np.array(predicted, dtype=int), minlength=m * m).reshape(m, m))


def test_counting_by_class_index_refuses_what_is_not_an_index():
    cm = ConfusionMatrix(["cat", "dog"])
    with pytest.raises(ClassIndexError, match="'y_pred_idx' holds 2 at position 1: class indexes are 0..1"):
        cm.update_indices([0, 1], [0, 2])
    with pytest.raises(ClassIndexError, match="holds -1"):
        cm.update_indices([-1], [0])
    with pytest.raises(InvalidTypeError, match="integer class indexes"):
        cm.update_indices([0.0], [1.0])
    with pytest.raises(InvalidTypeError, match="integer class indexes"):
        cm.update_indices([True], [False])
    assert cm.get_total_items() == 0  # nothing of a bad batch is counted


def test_threads_counting_by_class_index_lose_nothing():
    cm = ConfusionMatrix(list("abcd"))
    rng = np.random.default_rng(0)
    batches = [(rng.integers(0, 4, 1000), rng.integers(0, 4, 1000)) for _ in range(16)]
    workers = [threading.Thread(target=cm.update_indices, args=batch) for batch in batches]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    expected = sum(index_counts(a, p, 4) for a, p in batches)
    assert np.array_equal(cm.to_array(), expected)


def test_class_getters_take_the_label_or_the_index():
    cm = ConfusionMatrix.from_array([[5, 1, 0], [2, 6, 1], [0, 1, 4]], ["cat", "dog", "eel"])
    assert cm.get_true_positive("dog") == cm.get_true_positive(1) == 6
    assert cm.get_false_positive("cat") == 2 and cm.get_false_negative("eel") == 1 and cm.get_true_negative("cat") == 12
    assert cm.get_correlation_coefficient("dog") == cm.get_correlation_coefficient(1)
    numbers = ConfusionMatrix.from_array([[5, 1], [2, 6]], [10, 20])
    assert numbers.get_true_positive(label=20) == numbers.get_true_positive(1) == 6  # an int is an index: integer labels by keyword
    with pytest.raises(InvalidArgumentError, match="not both"):
        numbers.get_true_positive(1, label=20)
    with pytest.raises(ClassIndexError):
        numbers.get_true_positive(20)


def test_f_score_and_its_average_agree_on_the_default_beta_and_names_are_suggested_by_meaning():
    cm = ConfusionMatrix.from_array([[5, 1], [2, 6]])
    metrics = ClassificationMetrics(cm)
    assert metrics.get_f_score() == metrics.get_f1_score() == cm.per_class("f_score")[1]
    assert "f_score" not in metrics.to_dict()  # F-beta with its default beta is F1, listed once
    assert metrics.get("tp") == metrics.get_true_positive() and metrics.get_support() == 8 == metrics.to_dict()["support"]
    with pytest.raises(UnknownMetricError, match="did you mean the count true_positive"):
        cm.average("tp")
    with pytest.raises(UnknownMetricError, match="did you mean roc_auc, an area of scores"):
        cm.per_class("auc")
    assert cm.measure("tp_rate").name == "recall" and cm.measure("fp_rate").name == "false_positive_rate"


def test_per_class_values_follow_the_undefined_policy():
    cm = ConfusionMatrix.from_array([[3, 0, 0], [1, 0, 0], [0, 0, 0]])
    assert np.isnan(cm.per_class("precision")[1])
    assert cm.per_class("precision", undefined="zero").tolist() == [0.75, 0.0, 0.0]
    assert cm.per_class("precision", undefined="one").tolist() == [0.75, 1.0, 1.0]
    assert np.array_equal(cm.per_class("precision", undefined="nan"), cm.per_class("precision"), equal_nan=True)


# --------------------------------------------------------------------------------------------
# strict JSON, notebooks and trackers


def test_every_plain_dict_can_be_strict_json_and_read_back():
    cm = ConfusionMatrix.from_array([[3, 0], [1, 0]], ["a", "b"])
    metrics = ClassificationMetrics(cm)
    metrics.set("odds", math.inf)
    report = build_report(cm, confidence=0.9, n_resamples=50, interval_method="percentile")
    sources = [metrics.to_dict, Stats.from_values({"x": [1.0, math.nan]}).to_dict, report.to_dict, report.intervals["macro avg"][0].to_dict,
               Evaluation.from_labels(["a"], ["b"]).report().to_dict]  # fmt: skip
    for to_dict in sources:
        loose = to_dict()
        text = json.dumps(to_dict(strict=True), allow_nan=False)
        back = restore_numbers(json.loads(text))
        assert json.dumps(json_safe(back), allow_nan=False) == text
    assert json.loads(json.dumps(metrics.to_dict(strict=True)))["odds"] == "Infinity" and math.isnan(restore_numbers(metrics.to_dict(strict=True))["precision"])
    assert math.isnan(loose["averages"]["macro avg"]["precision"]) is False and json_safe(loose) == json.loads(text)
    assert json.loads(report.to_json())["classes"]["b"]["precision"] is None


def test_notebooks_show_tables_with_every_text_escaped_and_no_script():
    cm = ConfusionMatrix.from_array([[3, 1], [0, 2]], ["<b>bold</b>", "<script>alert(1)</script>"])
    interval = cm.interval("accuracy", method="wilson")
    shown = [cm._repr_html_(), ClassificationMetrics(cm)._repr_html_(), ClassificationMetrics.average(ClassificationMetrics.create_from(cm, all_classes=True))._repr_html_(),
             Evaluation.from_labels(["<i>", "x"], ["<i>", "<i>"])._repr_html_(), build_report(cm)._repr_html_(), interval._repr_html_()]  # fmt: skip
    for page in shown:
        assert page.startswith('<div class="evalkit-result">') and "<script" not in page and "<b>bold" not in page and "<table" in page
    assert "&lt;script&gt;" in shown[0] and "undef" in shown[1] or "0.666667" in shown[1]


def test_flat_keys_are_stable_and_taken_by_trackers():
    cm = ConfusionMatrix.from_array([[5, 1, 0], [2, 6, 1], [0, 1, 4]], ["cat", "dog/puppy", "New York"])
    flat = cm.to_flat_dict(measures=["precision", "f1"], confidence=0.9, n_resamples=50)
    mlflow_name = re.compile(r"^[/\w.\- ]*$")  # MLflow's rule for metric names
    assert all(mlflow_name.fullmatch(key) for key in flat) and all(isinstance(value, (int, float)) for value in flat.values())
    assert flat["f1_score/macro"] == cm.average("f1_score", "macro")
    assert flat["precision/class/dog_puppy"] == cm.per_class("precision")[1] and flat["support/class/New York"] == 5
    assert flat["f1_score/macro/ci_low"] < flat["f1_score/macro"] < flat["f1_score/macro/ci_high"]
    assert flat["accuracy"] == cm.get_accuracy() and "accuracy/ci_low" in flat
    with pytest.raises(InvalidArgumentError, match="two labels become the key part 'a_b'"):
        ConfusionMatrix.from_array([[1, 0], [0, 1]], ["a/b", "a:b"]).to_flat_dict()


# --------------------------------------------------------------------------------------------
# reports with counts and score areas


def test_count_columns_sum_in_the_micro_row_and_average_in_the_others():
    cm = ConfusionMatrix.from_array([[5, 1, 0], [2, 6, 1], [0, 1, 4]])
    report = build_report(cm, measures=["tp", "false_positive", "fn", "true_negative", "support"])
    assert report.measures == ("true_positive", "false_positive", "false_negative", "true_negative")  # support is always the last column
    tp = cm.class_cells.tp
    assert [report.per_class[k][0] for k in range(3)] == tp.tolist()
    assert report.averages["micro avg"][0] == tp.sum() and report.averages["macro avg"][0] == tp.mean()
    assert report.averages["weighted avg"][0] == pytest.approx(np.average(tp, weights=cm.class_cells.support))
    assert "  15" in report.to_text() and "15.000" not in report.to_text()  # counts shown whole


@given(st.integers(0, 2**31 - 1))
def test_area_columns_equal_scikit_learns_per_class_areas(seed):
    rng = np.random.default_rng(seed)
    n, m = 40, 3
    actual = np.concatenate([np.arange(m), rng.integers(0, m, n - m)])
    scores = rng.dirichlet(np.ones(m), n).round(2)  # ties
    cm = ConfusionMatrix.from_predictions(actual, scores.argmax(axis=1), labels=range(m))
    curve = ThresholdCurve.from_scores(actual, scores, labels=range(m))
    report = build_report(cm, measures=["roc_auc", "ap"], curve=curve)
    for k in range(m):
        assert report.per_class[k][0] == pytest.approx(sk.roc_auc_score(actual == k, scores[:, k]), abs=1e-12)
        assert report.per_class[k][1] == pytest.approx(sk.average_precision_score(actual == k, scores[:, k]), abs=1e-12)
    aucs = [sk.roc_auc_score(actual == k, scores[:, k]) for k in range(m)]
    assert report.averages["macro avg"][0] == pytest.approx(np.mean(aucs), abs=1e-12)
    assert report.averages["weighted avg"][0] == pytest.approx(np.average(aucs, weights=np.bincount(actual, minlength=m)), abs=1e-12)
    assert report.averages["micro avg"][1] == pytest.approx(sk.average_precision_score(np.eye(m)[actual], scores, average="micro"), abs=1e-12)


@given(binary_case(min_size=2))
def test_a_binary_curve_gives_both_classes_their_areas(case):
    y_true, y_score = case
    y, s = np.array(y_true), np.array(y_score)
    if len(set(y_true)) < 2:
        return
    both = ThresholdCurve.from_scores(y, s).one_vs_rest()
    assert both.labels == (0, 1)
    assert both.roc_auc(0) == pytest.approx(sk.roc_auc_score(1 - y, 1 - s), abs=1e-12)
    if len(np.unique(1 - s)) == len(np.unique(s)):  # no two scores round to one 1 - score: the areas of a binary problem's classes agree
        assert both.roc_auc(0) == pytest.approx(both.roc_auc(1), abs=1e-12)
    assert both.average_precision(0) == pytest.approx(sk.average_precision_score(1 - y, 1 - s), abs=1e-12)
    assert both.average_precision(1) == pytest.approx(sk.average_precision_score(y, s), abs=1e-12)
    columns, indicators = np.c_[1 - s, s], np.c_[1 - y, y]  # the micro average pools both columns, as scikit-learn's of predict_proba
    assert both.roc_auc(average="micro") == pytest.approx(sk.roc_auc_score(indicators, columns, average="micro"), abs=1e-12)
    assert both.average_precision(average="micro") == pytest.approx(sk.average_precision_score(indicators, columns, average="micro"), abs=1e-12)
    assert both == ThresholdCurve.from_scores(indicators, columns, labels=[0, 1])  # the curve of the two columns, point for point
    decisions = ThresholdCurve.from_scores(y, s).one_vs_rest(score_sum=0)  # decision values: the other class at -score
    assert decisions.roc_auc(average="micro") == pytest.approx(sk.roc_auc_score(indicators, np.c_[-s, s], average="micro"), abs=1e-12)
    assert decisions.roc_auc(0) == pytest.approx(both.roc_auc(1), abs=1e-12)  # -score turns round exactly


def test_area_columns_need_the_curve_of_the_same_classes():
    cm = ConfusionMatrix.from_array([[2, 1], [0, 3]], ["a", "b"])
    with pytest.raises(InvalidArgumentError, match="give the report curve="):
        build_report(cm, measures=["roc_auc"])
    with pytest.raises(LabelMismatchError, match="curve's classes"):
        build_report(cm, measures=["roc_auc"], curve=ThresholdCurve.from_scores([0, 1, 2], np.eye(3)))
    binary = ThresholdCurve.from_scores(["a", "b", "b"], [0.2, 0.7, 0.9], pos_label="b")
    assert build_report(cm, measures=["auc"], curve=binary).per_class["a"][0] == 1.0


# --------------------------------------------------------------------------------------------
# the command line's per-class score columns


def test_the_command_line_reads_one_score_column_per_class(tmp_path, capsys):
    rng = np.random.default_rng(0)
    classes = ["setosa", "versicolor", "virginica"]
    actual = np.concatenate([np.arange(3), rng.integers(0, 3, 57)])
    scores = rng.dirichlet(np.ones(3), 60)
    body = [f"{classes[a]}," + ",".join(f"{x:.6f}" for x in row) for a, row in zip(actual, scores)]
    path, named = tmp_path / "scores.csv", tmp_path / "named.csv"
    path.write_text("\n".join(["actual,p_setosa,p_versicolor,p_virginica", *body]) + "\n", encoding="utf-8")
    named.write_text("\n".join(["actual,setosa,versicolor,virginica", *body]) + "\n", encoding="utf-8")
    read = np.array([[float(f"{x:.6f}") for x in row] for row in scores])
    for file, option in ((path, "p_*"), (named, "setosa,versicolor,virginica")):
        assert main(["report", str(file), "--scores", option, "--measures", "recall,roc_auc,ap", "--format", "json"]) == 0
        document = json.loads(capsys.readouterr().out)
        assert document["classes"]["versicolor"]["roc_auc"] == pytest.approx(sk.roc_auc_score(actual == 1, read[:, 1]), abs=1e-12)
        assert document["classes"]["virginica"]["average_precision"] == pytest.approx(sk.average_precision_score(actual == 2, read[:, 2]), abs=1e-12)
        predicted = read.argmax(axis=1)
        assert document["classes"]["setosa"]["recall"] == pytest.approx(np.mean(predicted[actual == 0] == 0))
    assert main(["report", str(path), "--scores", "p_*", "--score", "p_setosa"]) == 2
    assert "neither --score" in capsys.readouterr().err
    assert main(["report", str(path), "--scores", "q_*"]) == 2
    assert "needs at least two columns starting with 'q_'" in capsys.readouterr().err
    assert main(["report", str(path), "--measures", "roc_auc"]) == 2
    assert "give --score COLUMN or --scores COLUMNS" in capsys.readouterr().err
    bad = tmp_path / "bad.csv"
    bad.write_text("actual,p_a,p_b\na,0.2,0.8\nc,0.5,0.5\n", encoding="utf-8")
    assert main(["report", str(bad), "--scores", "p_*"]) == 2
    assert f"{bad}:3: label 'c' is not in --scores" in capsys.readouterr().err


def _areas_of_rules(positive: np.ndarray, predicted_at: list[np.ndarray]) -> tuple[float, float]:
    """ROC AUC and average precision from the points of given decision rules, loosest last (the
    definitions, one rule at a time): the trapezoids between the ROC points from (0, 0), and
    the sum of recall gains times precision."""
    auc = ap = tpr_before = fpr_before = 0.0
    for predicted in predicted_at:
        tp, fp = np.sum(predicted & positive), np.sum(predicted & ~positive)
        tpr, fpr = tp / positive.sum(), fp / (~positive).sum()
        auc += (fpr - fpr_before) * (tpr + tpr_before) / 2
        if tp + fp:
            ap += (tpr - tpr_before) * tp / (tp + fp)
        tpr_before, fpr_before = tpr, fpr
    return auc, ap


def test_the_command_line_counts_curves_at_given_thresholds(tmp_path, capsys):
    """--thresholds N: the areas of curves binned at N evenly spaced thresholds ``t``, each point
    a decision rule counted exactly (the positive class of binary scores predicted at
    ``score >= t``, the negative class at ``1 - score >= t``). Scores on the grid make every
    distinct score a threshold, so the binned areas are then scikit-learn's exact ones, the
    micro average too (over the two columns ``(1 - score, score)``)."""
    rng = np.random.default_rng(5)
    actual = np.concatenate([[0, 1], rng.integers(0, 2, 198)])
    on_grid = np.clip(np.round(0.3 + 0.4 * actual + rng.normal(0, 0.25, 200), 1), 0, 1)
    off_grid = np.clip(0.3 + 0.4 * actual + rng.normal(0, 0.25, 200), 0, 1).round(4)
    for name, scores, n in (("on", on_grid, 11), ("off", off_grid, 6)):
        path = tmp_path / f"{name}.csv"
        path.write_text("actual,p\n" + "".join(f"{a},{p}\n" for a, p in zip(actual, scores)), encoding="utf-8")
        assert main(["report", str(path), "--score", "p", "--measures", "roc_auc,ap", "--thresholds", str(n), "--format", "json"]) == 0
        whole = json.loads(capsys.readouterr().out)
        document = whole["classes"]
        grid = np.round(np.linspace(0, 1, n), 12)[::-1]
        everything = np.ones(len(scores), dtype=bool)
        for label, rules in (("1", [scores >= t for t in grid]), ("0", [1 - scores >= t for t in grid])):
            auc, ap = _areas_of_rules(actual == int(label), [*rules, everything])
            assert document[label]["roc_auc"] == pytest.approx(auc, abs=1e-12)
            assert document[label]["average_precision"] == pytest.approx(ap, abs=1e-12)
        pooled = [np.concatenate((scores >= t, 1 - scores >= t)) for t in grid]  # the micro average: both columns' decisions
        auc, ap = _areas_of_rules(np.concatenate((actual == 1, actual == 0)), [*pooled, np.ones(2 * len(scores), dtype=bool)])
        assert whole["averages"]["micro avg"]["roc_auc"] == pytest.approx(auc, abs=1e-12)
        assert whole["averages"]["micro avg"]["average_precision"] == pytest.approx(ap, abs=1e-12)
        assert document["1"]["roc_auc"] == pytest.approx(ThresholdCurve.from_scores(actual, scores, thresholds=n).roc_auc(), abs=1e-12)
        if name == "on":
            assert document["1"]["roc_auc"] == pytest.approx(sk.roc_auc_score(actual, scores), abs=1e-12)
            assert document["1"]["average_precision"] == pytest.approx(sk.average_precision_score(actual, scores), abs=1e-12)
            assert document["0"]["average_precision"] == pytest.approx(sk.average_precision_score(1 - actual, -scores), abs=1e-12)
    classes = np.array(["a", "b", "c"])
    labels = rng.integers(0, 3, 150)
    table = np.round(rng.dirichlet(np.ones(3), 150), 1)
    path = tmp_path / "three.csv"
    path.write_text("actual,p_a,p_b,p_c\n" + "".join(f"{classes[a]},{r[0]},{r[1]},{r[2]}\n" for a, r in zip(labels, table)), encoding="utf-8")
    assert main(["report", str(path), "--scores", "p_*", "--measures", "roc_auc,ap", "--thresholds", "11", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    for k, label in enumerate(classes):
        assert document["classes"][label]["roc_auc"] == pytest.approx(sk.roc_auc_score(labels == k, table[:, k]), abs=1e-12)
        assert document["classes"][label]["average_precision"] == pytest.approx(sk.average_precision_score(labels == k, table[:, k]), abs=1e-12)
    mixed = tmp_path / "mixed.csv"
    mixed.write_text("actual,p\na,0.2\nb,0.7\nc,0.4\n", encoding="utf-8")
    for binned in ([], ["--thresholds", "5"]):
        assert main(["report", str(mixed), "--score", "p", "--positive", "b", "--negative", "a", "--measures", "roc_auc", *binned]) == 2
        assert f"{mixed}:4: label 'c' is neither --positive 'b' nor --negative 'a'" in capsys.readouterr().err
    for refused, message in ((["--thresholds", "5"], "--thresholds applies with --score or --scores only"),
                             (["--scores", "p_*", "--thresholds", "1"], "--thresholds must be a number of thresholds in 2..1000000, got 1")):  # fmt: skip
        assert main(["report", str(path), *refused]) == 2
        assert message in capsys.readouterr().err


def test_the_command_line_counts_a_curve_only_for_a_report_that_shows_it(tmp_path, capsys, monkeypatch):
    """The exact curve's memory grows with the distinct scores: it is counted for area columns
    (or --sort-by one) and the HTML page's curves only, and the rest of the report is the same."""
    from evalkit.cli import _files as files  # where a file is streamed into its results

    counted = []

    class Recording(files.CurveCounts):
        def _add_batch(self, *args, **kwargs):  # (where every batch a reader or update counts is merged)
            counted.append(1)
            super()._add_batch(*args, **kwargs)

    monkeypatch.setattr(files, "CurveCounts", Recording)
    path = tmp_path / "scores.csv"
    path.write_text("actual,p_a,p_b\na,0.2,0.8\nb,0.4,0.6\na,0.7,0.3\n", encoding="utf-8")
    shown = {}
    for options, wanted in ((["--measures", "recall"], False), (["--measures", "recall,roc_auc"], True),
                            (["--measures", "recall", "--sort-by", "ap"], True), (["--measures", "recall", "--html", str(tmp_path / "r.html")], True)):  # fmt: skip
        counted.clear()
        assert main(["report", str(path), "--scores", "p_*", *options, "--format", "json"]) == 0
        shown[tuple(options)] = json.loads(capsys.readouterr().out)["classes"]["a"]["recall"]
        assert bool(counted) == wanted
    assert len(set(shown.values())) == 1


def test_the_report_of_one_score_column_gives_scikit_learns_micro_average(tmp_path, capsys):
    """--score p: the micro average of an area pools the two columns (1 - p, p), as
    scikit-learn's average="micro" of predict_proba; --scores p_0,p_1 of the same file gives the
    same report; a file sorted by label (its first batch all positive) and a file of one class
    give answers, the undefined area with its reason."""
    rng = np.random.default_rng(3)
    actual = rng.integers(0, 2, 300)
    p = np.clip(0.25 + 0.5 * actual + rng.normal(0, 0.2, 300), 0, 1).round(5)
    order = np.argsort(-actual, kind="stable")  # positives first
    path = tmp_path / "sorted.csv"
    path.write_text("actual,p,p_0,p_1\n" + "".join(f"{a},{s},{1 - s},{s}\n" for a, s in zip(actual[order], p[order])), encoding="utf-8")
    columns, indicators = np.c_[1 - p, p], np.c_[1 - actual, actual]
    documents = []
    for options in (["--score", "p"], ["--scores", "p_*"]):
        assert main(["report", str(path), *options, "--measures", "roc_auc,ap", "--batch-size", "50", "--format", "json"]) == 0
        documents.append(json.loads(capsys.readouterr().out))
    for document in documents:
        micro = document["averages"]["micro avg"]
        assert micro["roc_auc"] == pytest.approx(sk.roc_auc_score(indicators, columns, average="micro"), abs=1e-12)
        assert micro["average_precision"] == pytest.approx(sk.average_precision_score(indicators, columns, average="micro"), abs=1e-12)
        assert document["classes"]["0"]["roc_auc"] == pytest.approx(sk.roc_auc_score(1 - actual, 1 - p), abs=1e-12)
    assert documents[0]["averages"] == documents[1]["averages"] and documents[0]["classes"] == documents[1]["classes"]
    ones = tmp_path / "ones.csv"
    ones.write_text("actual,p\n" + "".join(f"1,{s}\n" for s in p[:40]), encoding="utf-8")
    assert main(["report", str(ones), "--score", "p", "--measures", "recall,roc_auc,ap", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["classes"]["1"]["roc_auc"] is None and document["classes"]["1"]["average_precision"] == 1.0
    assert "roc auc is undefined for 1 (every sample is of the class: no negative)" in " ".join(document["notes"])
    assert main(["report", str(ones), "--score", "p", "--measures", "roc_auc"]) == 0
    assert "roc auc is undefined for 1 (every sample is of the class: no negative)" in capsys.readouterr().out


@pytest.mark.slow  # over a few seconds: the full run only
def test_confidence_intervals_of_areas_and_of_multi_label_averages(tmp_path, capsys):
    """--ci: the areas of one score column have intervals in every average (the (score, class)
    pairs give both classes and the pooled columns in each resample), multi-label macro and
    weighted averages resample the pairs of sets, exact-match accuracy and Hamming loss the
    samples' rows; what has none says why."""
    from evalkit._results import intervals

    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 300)
    s = np.clip(0.3 * y + rng.random(300) * 0.7, 0, 1).round(3)
    path = tmp_path / "binary.csv"
    path.write_text("actual,p\n" + "".join(f"{a},{b}\n" for a, b in zip(y, s)), encoding="utf-8")
    assert main(["report", str(path), "--score", "p", "--measures", "roc_auc,ap", "--ci", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    rows = document["intervals"]["rows"]
    curve = ThresholdCurve.from_scores(y, s)
    draws = np.random.default_rng(7).integers(0, 300, (2000, 300))  # a brute-force percentile bootstrap of the samples
    for average in ("micro", "macro", "weighted"):
        low, high = rows[f"{average} avg"]["roc_auc"]
        assert low < document["averages"][f"{average} avg"]["roc_auc"] < high
    micro = [sk.roc_auc_score(np.c_[1 - y[d], y[d]], np.c_[1 - s[d], s[d]], average="micro") for d in draws]
    low, high = rows["micro avg"]["roc_auc"]
    assert abs(low - np.quantile(micro, 0.025)) < 0.02 and abs(high - np.quantile(micro, 0.975)) < 0.02
    found = curve.binary_interval("average_precision", "macro", random_state=0)
    assert found.estimate == pytest.approx(curve.one_vs_rest().average_precision(average="macro"), abs=1e-12)

    actual = [set(rng.choice(list("abc"), rng.integers(1, 3), replace=False)) for _ in range(120)]
    predicted = [set(labels) if rng.random() < 0.6 else {"a"} for labels in actual]
    sets = tmp_path / "sets.csv"
    sets.write_text("actual,predicted\n" + "".join(f"{'|'.join(sorted(a))},{'|'.join(sorted(p))}\n" for a, p in zip(actual, predicted)),
                    encoding="utf-8")  # fmt: skip
    assert main(["report", str(sets), "--multi-label", "--measures", "precision,f1", "--ci", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    truth = np.array([[label in row for label in "abc"] for row in actual], dtype=int)
    guess = np.array([[label in row for label in "abc"] for row in predicted], dtype=int)
    for average in ("macro", "weighted"):
        expected = intervals.indicators_interval(truth, guess, "f1_score", average, random_state=0)
        assert document["intervals"]["rows"][f"{average} avg"]["f1_score"] == pytest.approx([expected.low, expected.high], abs=1e-12)
    exact = np.mean(np.all(truth == guess, axis=1))
    low, high = document["intervals"]["rows"]["accuracy"]["accuracy"]
    assert low < exact < high and document["summary"]["accuracy"] == pytest.approx(exact)
    assert all(value is not None for value in document["intervals"]["rows"]["hamming_loss"]["hamming_loss"])
