"""The base of every result (evalkit._results.CellsResult): what a subclass must define, and the
older paths that still work for one release."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalkit import (
    ClassificationMetrics,
    ConfusionMatrix,
    Covering,
    Evaluation,
    Stats,
    ThresholdCurve,
)
from evalkit._results import REQUIRED_MEMBERS, CellsResult, intervals
from evalkit.exceptions import (
    EvalkitError,
    InvalidTypeError,
)
from evalkit.io._report import build_report
from evalkit.measures import _averaging as averaging


def test_a_result_that_lacks_a_member_is_refused_when_it_is_defined():
    with pytest.raises(InvalidTypeError, match="Partial derives from CellsResult but does not define .*sample_cells.*metrics_class"):

        class Partial(CellsResult):
            labels = ("a",)

            @property
            def class_cells(self):
                return None

    assert set(REQUIRED_MEMBERS) >= {"labels", "class_cells", "sample_cells", "metrics_class", "pair_counts"}
    assert all(issubclass(kind, CellsResult) for kind in (ConfusionMatrix, Evaluation))


def test_the_old_paths_work_with_a_deprecation_warning():
    with pytest.warns(DeprecationWarning, match="evalkit.averaging.CellsResult is no longer a name of evalkit.averaging: it is private now"):
        assert averaging.CellsResult is CellsResult
    cm = ConfusionMatrix.from_array([[40, 10], [5, 45]])
    with pytest.warns(DeprecationWarning, match="result.interval"):
        old = intervals.result_interval(cm, "accuracy", method="wilson")
    assert old == cm.interval("accuracy", method="wilson")
    assert ClassificationMetrics.as_measure("recall") is ClassificationMetrics.measure("recall")
    with pytest.raises(AttributeError):
        averaging.no_such_name  # noqa: B018


def test_metrics_objects_read_any_result_with_per_class_cells():
    evaluation = Evaluation.from_labels(["a", "b", "b", "c"], ["a", "b", "c", "c"])
    from_evaluation = ClassificationMetrics(evaluation, class_label="b")
    from_matrix = ClassificationMetrics(evaluation.confusion_matrix(), class_label="b")
    assert from_evaluation.to_dict() == {**from_matrix.to_dict(), "class_idx": 1}
    assert from_evaluation.get_confusion_matrix() is evaluation
    with pytest.raises(InvalidTypeError, match="'confusion_matrix' must be a ConfusionMatrix"):
        ClassificationMetrics([[1, 0], [0, 1]])


def test_label_subsets_are_public_cells():
    cm = ConfusionMatrix.from_array([[2, 1], [0, 3]], ["a", "b"])
    subset = cm.cells_of(["b", "z"])
    assert subset.counts()["tp"].tolist() == [3, 0] and subset.counts()["tn"].tolist() == [2, 6]


EV = Evaluation.from_labels(["a", "b", "b", "c", "a"], ["a", "b", "c", "c", "b"])


def _arrays(obj):
    for name in ("class_cells", "sample_cells"):
        try:
            cells = getattr(obj, name, None)
        except EvalkitError:  # the cells of a curve at a threshold have no samples
            continue
        if cells is not None:
            yield from (array for array in (*cells.rows(), cells.weight, cells.index) if array is not None)
    confusion = getattr(obj, "confusion", None)
    if confusion is not None:
        yield from (confusion.actual, confusion.predicted, confusion.counts)


@pytest.mark.parametrize("make", [lambda: EV, lambda: EV.compact(), lambda: EV + EV, lambda: Evaluation.from_label_sets([{1}, {2}], [{1}, {1, 2}]),
                                  lambda: Evaluation.from_soft([[0.2, 0.3]], [[0.5, 0.5]]), lambda: Evaluation.from_json(EV.to_json()),
                                  lambda: ThresholdCurve.from_scores([0, 1, 1], [0.1, 0.5, 0.7]).at(0.5)], ids=range(7))  # fmt: skip
def test_arrays_held_by_frozen_results_are_read_only(make):
    obj = make()
    before = obj.average("f1_score", "macro")
    arrays = list(_arrays(obj))
    assert arrays
    for array in arrays:
        assert not array.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            array[...] = 7
    assert obj.average("f1_score", "macro") == before


def test_a_compacted_result_cannot_change_its_source():
    source = Evaluation.from_labels(["a", "b", "b"], ["a", "a", "b"])
    compact = source.compact()
    with pytest.raises(ValueError, match="read-only"):
        compact.class_cells.tp[0] = 100
    assert source.class_cells.tp.tolist() == [1, 1]


def test_curve_and_covering_arrays_are_read_only():
    curve = ThresholdCurve.from_scores([0, 1, 1], [0.1, 0.5, 0.7])
    assert not curve.positives.flags.writeable and not curve.at(0.5).thresholds.flags.writeable
    covering = Covering("abc", [{"a"}, {"b", "c"}])
    assert not covering._keys.flags.writeable
    dense = Covering.from_indicators([[1, 0], [0, 1]])
    assert not dense._dense.flags.writeable and dense.to_indicators().flags.writeable  # a copy is the caller's


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


@settings(max_examples=40, deadline=None)
@given(st.integers(9, 14), st.integers(20, 120), st.integers(0, 2**31 - 1), st.booleans(),
       st.sampled_from(["macro", "weighted", "micro"]), st.sampled_from(["exclude", "zero", "one", "nan"]))  # fmt: skip
def test_averages_over_many_classes_equal_reading_every_class(m, n, seed, weighted, average, undefined):
    from evalkit import ThresholdCurve
    from evalkit._scores import curve_operating  # where a curve's measures at every threshold are averaged

    rng = np.random.default_rng(seed)
    y, s = rng.integers(0, m, n), np.round(rng.random((n, m)), 1)
    curve = ThresholdCurve.from_scores(y, s, labels=list(range(m)), sample_weight=rng.integers(0, 3, n) if weighted else None)
    floats = ThresholdCurve.from_scores(y, s, labels=list(range(m)), sample_weight=rng.random(n) * 10.0 ** rng.integers(-3, 4))
    for measure in ("f1_score", "precision", "matthews_correlation_coefficient"):
        fast, thresholds = curve.evaluate(measure, average=average, undefined=undefined)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(curve_operating, "_FEW_CLASSES", 10**9)  # every class read at every threshold
            slow, same = curve.evaluate(measure, average=average, undefined=undefined)
        assert np.array_equal(thresholds, same) and np.allclose(fast, slow, rtol=1e-12, atol=1e-14, equal_nan=True)
        fast, thresholds = floats.evaluate(measure, average=average, undefined=undefined)  # float weights: running float sums
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(curve_operating, "_FEW_CLASSES", 10**9)
            slow, same = floats.evaluate(measure, average=average, undefined=undefined)
        assert np.array_equal(thresholds, same) and np.allclose(fast, slow, rtol=1e-9, atol=1e-12, equal_nan=True), (measure, average)
    from sklearn.metrics import roc_auc_score

    if not weighted and 0 < len(set(y.tolist())) < m:
        assert curve.roc_auc(average="micro") == pytest.approx(roc_auc_score(np.eye(m, dtype=int)[y], s, average="micro"), abs=1e-12)
