"""The base of every result (evalkit.results.CellsResult): what a subclass must define, and the
older paths that still work for one release."""

import pytest

from evalkit import ClassificationMetrics, ConfusionMatrix, Evaluation, averaging, intervals
from evalkit.exceptions import InvalidTypeError
from evalkit.results import REQUIRED_MEMBERS, CellsResult


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
    with pytest.warns(DeprecationWarning, match="evalkit.results.CellsResult"):
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
