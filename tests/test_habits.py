"""scikit-learn users' habits on the objects, one undefined-value policy, one vocabulary."""

import json
import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn import metrics as sk
from strategies import single_label

from evalkit import ClassificationMetrics, ConfusionMatrix, Evaluation, Stats
from evalkit.cli import main
from evalkit.exceptions import UnknownMetricError, UnsupportedSettingError
from evalkit.report import build_report


def quietly(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


labels_data = single_label(st.integers(0, 4))


@given(labels_data, st.lists(st.integers(0, 6), min_size=1, max_size=4, unique=True), st.sampled_from(["micro", "macro", "weighted"]))
def test_label_subsets_on_the_objects_follow_scikit_learn(pair, labels, average):
    y_true, y_pred = pair
    for source in (ConfusionMatrix.from_predictions(y_true, y_pred), Evaluation.from_labels(y_true, y_pred)):
        for undefined, zero_division in (("zero", 0), (np.nan, np.nan), ("one", 1)):
            expected = quietly(sk.precision_score, y_true, y_pred, labels=labels, average=average, zero_division=zero_division)
            value = source.average("precision", average, labels=labels, undefined=undefined)
            assert (math.isnan(value) and math.isnan(expected)) or math.isclose(value, expected, rel_tol=1e-12, abs_tol=1e-13)
        per_class = quietly(sk.recall_score, y_true, y_pred, labels=labels, average=None, zero_division=np.nan)
        np.testing.assert_allclose(source.per_class("recall", labels=labels), per_class, equal_nan=True)


@given(labels_data)
def test_weighted_kappa_and_adjusted_balanced_accuracy_on_the_objects(pair):
    y_true, y_pred = pair
    for source in (ConfusionMatrix.from_predictions(y_true, y_pred), Evaluation.from_labels(y_true, y_pred)):
        for weights in (None, "linear", "quadratic"):
            expected = quietly(sk.cohen_kappa_score, y_true, y_pred, weights=weights)
            value = source.get_cohen_kappa(weights)
            assert (math.isnan(value) and math.isnan(expected)) or math.isclose(value, expected, rel_tol=1e-12, abs_tol=1e-13)
        if len(set(y_true)) > 1:
            for adjusted in (False, True):
                expected = quietly(sk.balanced_accuracy_score, y_true, y_pred, adjusted=adjusted)
                assert math.isclose(source.get_balanced_accuracy(adjusted=adjusted), expected, rel_tol=1e-12, abs_tol=1e-13)


def test_a_samples_average_over_a_label_subset_is_refused_not_wrong():
    ev = Evaluation.from_label_sets([{"a", "b"}, {"b"}], [{"a"}, {"b", "c"}])
    with pytest.raises(UnsupportedSettingError, match="subset"):
        ev.average("f1", "samples", labels=["a"])
    assert ev.average("f1", "samples", labels=["c", "b", "a"]) == ev.average("f1", "samples")


def test_confusion_matrix_habits():
    cm = ConfusionMatrix.from_predictions([0, 0, 1, 2], [0, 1, 1, 2])
    np.testing.assert_allclose(cm.to_array(normalize="true"), sk.confusion_matrix([0, 0, 1, 2], [0, 1, 1, 2], normalize="true"))
    np.testing.assert_allclose(cm.to_array(normalize="pred"), sk.confusion_matrix([0, 0, 1, 2], [0, 1, 1, 2], normalize="pred"))
    np.testing.assert_allclose(cm.to_array(normalize="all"), sk.confusion_matrix([0, 0, 1, 2], [0, 1, 1, 2], normalize="all"))
    array = np.asarray(cm)
    array[0, 0] = 99  # np.asarray gives a copy: the matrix does not change
    assert cm.get(0, 0) == 1 and np.asarray(cm, dtype=float).dtype == np.float64
    total = sum([cm, cm, ConfusionMatrix.from_array(np.eye(3, dtype=int))])
    assert total.get(0, 0) == 3 and total.get_total_items() == 11
    cm.reset()
    assert cm.get_total_items() == 0 and cm.labels == (0, 1, 2) and not cm.to_array().any()
    cm.inc(2, 2)
    assert cm.get_total_items() == 1


def test_create_from_gives_both_classes_on_request_and_stats_read_every_measure():
    cm = ConfusionMatrix.from_array([[50, 10], [5, 35]], ["negative", "positive"])
    assert [m.get_class_label() for m in ClassificationMetrics.create_from(cm)] == ["positive"]  # Deep Netts' one object
    both = ClassificationMetrics.create_from(cm, all_classes=True)
    assert [m.get_class_label() for m in both] == ["negative", "positive"]
    stats = ClassificationMetrics.average(both)
    assert stats.f1_score == stats.get("F1Score") == stats.get("f1-score") == stats.summary("f1").mean
    assert stats.mcc == stats.matthews_correlation_coefficient
    with pytest.raises(AttributeError, match="did you mean 'specificity'"):
        _ = stats.specifcity


def test_undefined_nan_means_what_scikit_learns_zero_division_nan_means():
    cm = ConfusionMatrix.from_array([[3, 0, 0], [0, 0, 0], [1, 0, 2]])
    assert cm.average("precision", undefined=np.nan) == cm.average("precision") == 0.875  # excluded
    assert math.isnan(cm.average("precision", undefined="nan"))  # the string propagates
    stats = ClassificationMetrics.average(ClassificationMetrics.create_from(cm), undefined=float("nan"))
    assert stats.undefined == "exclude"


def test_weighted_averages_in_degenerate_cases_follow_scikit_learn():
    # labels that never occur in y_true: no class has support; the weighted average is the plain mean
    y_true, y_pred = [0, 0, 0], [0, 1, 2]
    ev = Evaluation.from_labels(y_true, y_pred)
    for zero_division, undefined in ((0, "zero"), (np.nan, "exclude"), (1, "one")):
        expected = quietly(sk.precision_score, y_true, y_pred, labels=[1, 2], average="weighted", zero_division=zero_division)
        assert ev.average("precision", "weighted", labels=[1, 2], undefined=undefined) == expected


@pytest.mark.parametrize("spelling", ["f1", "f1_score", "f1-score", "F1Score", "F1", "F1 score", "dice"])
def test_every_spelling_of_a_measure_is_the_same_measure_everywhere(spelling, tmp_path, capsys):
    cm = ConfusionMatrix.from_predictions(list("aabbc"), list("abbbc"))
    metrics = ClassificationMetrics(cm, class_label="b")
    stats = ClassificationMetrics.average(ClassificationMetrics.create_from(cm))
    assert metrics.get(spelling) == metrics.get_f1_score()
    assert stats.get(spelling) == stats.get("f1_score")
    assert cm.average(spelling) == cm.average("f1_score") and np.array_equal(cm.per_class(spelling), cm.per_class("f1_score"))
    assert build_report(cm, measures=[spelling]).measures == ("f1_score",)
    path = tmp_path / "p.csv"
    path.write_text("actual,predicted\na,a\nb,a\n", encoding="utf-8")
    assert main(["report", str(path), "--measures", spelling, "--format", "csv"]) == 0
    assert capsys.readouterr().out.startswith("name,kind,f1_score,support")


def test_an_unknown_name_suggests_the_closest_everywhere():
    cm = ConfusionMatrix.from_predictions(list("ab"), list("ab"))
    for attempt in (
        lambda: cm.average("precison"),
        lambda: cm.per_class("precison"),
        lambda: ClassificationMetrics(cm).get("precison"),
        lambda: ClassificationMetrics.average([ClassificationMetrics(cm)]).get("precison"),
        lambda: build_report(cm, measures=["precison"]),
    ):
        with pytest.raises(UnknownMetricError, match=r"'precison' \(did you mean 'precision'\?\); known"):
            attempt()


class WithDoubleRecall(ClassificationMetrics):
    def get_double_recall(self):
        """Twice the recall."""
        return 2 * self.get_recall()


def test_a_subclass_getter_is_a_measure_in_every_place():
    cm = ConfusionMatrix.from_predictions(list("aabb"), list("abbb"))
    objects = WithDoubleRecall.create_from(cm)
    assert objects[0].get("DoubleRecall") == 2 * objects[0].get_recall()
    assert WithDoubleRecall.average(objects).double_recall == 2 * ClassificationMetrics.average(objects).recall
    assert cm.average("double-recall", metrics_class=WithDoubleRecall) == 2 * cm.average("recall")
    np.testing.assert_allclose(cm.per_class("double_recall", metrics_class=WithDoubleRecall), 2 * cm.per_class("recall"))
    report = build_report(cm, measures=["precision", "double_recall"], metrics_class=WithDoubleRecall)
    assert report.measures == ("precision", "double_recall") and "double_recall" in report.to_text()


def test_report_cells_say_what_an_average_left_out():
    """Only the cells whose average left a class out are marked, and a note says which class
    and why: a whole row is not labelled "(2 of 3 classes)" when one column left one out."""
    cm = ConfusionMatrix.from_array([[3, 0, 0], [1, 0, 0], [0, 0, 2]], ["a", "b", "c"])  # b never predicted
    report = build_report(cm, measures=["precision", "recall"])
    rows = {line.split()[0] + (" " + line.split()[1] if line.split()[1] == "avg" else ""): line.split() for line in report.to_text().splitlines()
            if line.strip() and line.split()[0] in ("micro", "macro", "weighted")}  # fmt: skip
    assert rows["macro avg"][2:4] == ["0.875*", "0.667"] and rows["weighted avg"][2:4] == ["0.850*", "0.833"]  # (3/4 + 1)/2; (3 * 3/4 + 2)/5
    assert rows["micro avg"][2:4] == ["0.833", "0.833"]
    assert report.undefined_notes() == ["* precision is undefined for b (0/0: never predicted): the macro and weighted averages are over 2 of 3 classes"]
    assert "*" not in build_report(cm, measures=["recall"]).to_text()
    zero = build_report(cm, measures=["precision"], undefined="zero")
    assert "| macro avg | 0.583 |" in zero.to_markdown() and "*" not in zero.to_text().split("\n\n")[1]
    assert zero.undefined_notes() == ["precision is undefined for b (0/0: never predicted), counted as 0 (undefined='zero')"]  # the policy counted it: no cell is marked
    assert json.loads(report.to_json())["notes"] == report.undefined_notes()
    assert isinstance(Stats.from_values({"x": [1.0]}), Stats)
