"""Bad input ends in a clear evalkit error naming the argument and showing the value."""

import math

import attrs
import numpy as np
import pytest

from evalkit import ClassificationMetrics, ConfusionMatrix, Evaluation, RegressionMetrics, ThresholdCurve, exceptions
from evalkit.exceptions import (
    ClassIndexError,
    DuplicateLabelError,
    EmptyInputError,
    EvalkitError,
    InputLengthError,
    InputShapeError,
    InvalidArgumentError,
    InvalidCountsError,
    InvalidLabelError,
    InvalidTypeError,
    LabelMismatchError,
    MixedLabelTypesError,
    UnknownAttributeError,
    UnknownLabelError,
)


def test_every_exception_is_an_evalkit_error_and_a_builtin_one():
    for name in exceptions.__all__:
        error = getattr(exceptions, name)
        if issubclass(error, Warning):  # the warnings form a family of their own, under UserWarning
            assert issubclass(error, exceptions.EvalkitWarning) and issubclass(error, UserWarning), name
            continue
        assert issubclass(error, EvalkitError)
        if error is not EvalkitError:
            assert issubclass(error, (ValueError, TypeError, KeyError, AttributeError)), name


def test_lengths_that_differ():
    with pytest.raises(InputLengthError, match="'y_true' has 3 samples but 'y_pred' has 2"):
        ConfusionMatrix.from_predictions([1, 2, 3], [1, 2])


@pytest.mark.parametrize("bad", [None, math.nan, np.nan, np.float32("nan")])
def test_none_or_nan_labels(bad):
    with pytest.raises(InvalidLabelError, match="'y_pred' contains"):
        ConfusionMatrix.from_predictions(["a", "b"], ["a", bad])


def test_nan_in_a_float_array_names_the_position():
    with pytest.raises(InvalidLabelError, match="'y_true' contains NaN \\(first at position 2\\)"):
        ConfusionMatrix.from_predictions(np.array([0.0, 1.0, np.nan]), np.array([0.0, 1.0, 1.0]))


def test_labels_mixing_1_and_the_string_1_are_never_merged():
    with pytest.raises(MixedLabelTypesError, match=r"1 \(int\).*'1' \(str\)") as caught:
        ConfusionMatrix.from_predictions([1, 2], ["1", "2"])
    assert isinstance(caught.value, TypeError)
    with pytest.raises(MixedLabelTypesError):
        ConfusionMatrix.from_predictions([1, "1"], [1, 1])
    with pytest.raises(MixedLabelTypesError):
        ConfusionMatrix(["1", 1])


def test_a_label_outside_an_explicit_list_is_never_dropped():
    with pytest.raises(UnknownLabelError, match=r"'y_pred' contains 'c' \(str\), which is not in 'labels' \['a', 'b'\]"):
        ConfusionMatrix.from_predictions(["a", "b"], ["a", "c"], labels=["a", "b"])
    with pytest.raises(UnknownLabelError, match=r"'y_true' contains 7 \(int\)"):
        ConfusionMatrix.from_predictions(np.array([7, 0]), np.array([0, 0]), labels=[0, 1])
    with pytest.raises(UnknownLabelError, match=r"'1' \(str\)"):
        ConfusionMatrix.from_predictions(["1"], ["1"], labels=[1])


def test_update_rejects_unknown_labels_and_changes_nothing():
    cm = ConfusionMatrix(["a", "b"])
    cm.update(["a"], ["b"])
    with pytest.raises(UnknownLabelError):
        cm.update(["a", "b"], ["b", "z"])
    assert cm.get_total_items() == 1 and cm.to_array().tolist() == [[0, 1], [0, 0]]


@pytest.mark.parametrize("make", [
    lambda: ConfusionMatrix(["a", "b", "a"]),
    lambda: ConfusionMatrix.from_predictions([1], [1], labels=[1, 2, 1]),
    lambda: ConfusionMatrix.from_array([[1, 0], [0, 1]], labels=["x", "x"]),
])  # fmt: skip
def test_duplicate_labels(make):
    with pytest.raises(DuplicateLabelError, match="twice"):
        make()


def test_equal_labels_of_different_types_are_duplicates():
    with pytest.raises(DuplicateLabelError, match=r"1.0 \(float\), equal to 1 \(int\)"):
        ConfusionMatrix([1, 1.0])


@pytest.mark.parametrize(("counts", "message"), [
    ([[1, -1], [0, 2]], "must be >= 0"),
    ([[1, np.inf], [0, 2]], "finite"),
    ([[1, np.nan], [0, 2]], "finite"),
    ([[1, float("inf")], [0, 2]], "finite"),
    ([[1, 10**400], [0, 2]], "beyond 2\\*\\*63 - 1"),
    ([[1, 1e300 * 1e10], [0, 2]], "finite"),
    ([[2**62, 2**62], [2**62, 2**62]], "beyond the 9223372036854775807"),
    (np.array([[2**63, 0], [0, 0]], dtype=np.uint64), "beyond 2\\*\\*63 - 1"),
])  # fmt: skip
def test_negative_non_finite_or_overflowing_counts(counts, message):
    with pytest.raises(InvalidCountsError, match=message):
        ConfusionMatrix.from_array(counts)


def test_fractional_counts_are_weighted_counts():
    cm = ConfusionMatrix.from_array([[1, 0.5], [0, 2]])
    assert cm.to_array().dtype == np.float64 and cm.get_total_items() == 3.5 and cm.get_false_positive() == 0.5


@pytest.mark.parametrize("counts", [[[1, 2, 3], [4, 5, 6]], [1, 2, 3], [[[1]]]])
def test_a_non_square_counts_array(counts):
    with pytest.raises(InputShapeError, match="'counts' must be square, got shape"):
        ConfusionMatrix.from_array(counts)


def test_counts_that_are_not_numbers():
    with pytest.raises(InvalidTypeError, match="'counts' must hold numbers"):
        ConfusionMatrix.from_array([["a", "b"], ["c", "d"]])
    with pytest.raises(InvalidTypeError):
        ConfusionMatrix.from_array([[True, False], [False, True]])


def test_labels_of_the_wrong_length_for_the_counts():
    with pytest.raises(InputShapeError, match="'labels' has 3 labels but 'counts' has 2 rows"):
        ConfusionMatrix.from_array([[1, 0], [0, 1]], ["a", "b", "c"])


@pytest.mark.parametrize("method", ["inc", "get"])
@pytest.mark.parametrize(("actual", "predicted", "argument"), [(2, 0, "actual_idx"), (0, -1, "predicted_idx")])
def test_index_out_of_range(method, actual, predicted, argument):
    cm = ConfusionMatrix(["a", "b"])
    with pytest.raises(ClassIndexError, match=f"'{argument}' must be in 0..1") as caught:
        getattr(cm, method)(actual, predicted)
    assert isinstance(caught.value, IndexError) and isinstance(caught.value, ValueError)
    assert cm.get_total_items() == 0


def test_index_of_the_wrong_type():
    with pytest.raises(InvalidTypeError, match="'actual_idx' must be an integer"):
        ConfusionMatrix(["a", "b"]).inc("a", 0)
    with pytest.raises(InvalidTypeError):
        ConfusionMatrix(["a", "b"]).get(True, 0)


def test_merging_matrices_with_different_labels_says_how_to_join_them():
    cm = ConfusionMatrix(["a", "b"])
    with pytest.raises(LabelMismatchError, match=r"\['a', 'b'\] and \['a', 'c'\]; a.merge\(b, grow=True\) joins their labels"):
        cm += ConfusionMatrix(["a", "c"])
    with pytest.raises(LabelMismatchError, match="grow=True"):
        ConfusionMatrix(["a"]) + ConfusionMatrix(["a", "b"])


def test_matrices_with_the_same_labels_in_another_order_merge_in_the_first_ones_order():
    ab = ConfusionMatrix.from_predictions(["a", "b", "b"], ["a", "a", "b"], labels=["a", "b"])
    ba = ConfusionMatrix.from_predictions(["b", "a"], ["a", "a"], labels=["b", "a"])
    both = ab + ba
    assert both.labels == ("a", "b") and both.to_array().tolist() == [[2, 0], [2, 1]]  # (actual, predicted): a/a twice, b/a twice, b/b once
    assert both - ba == ab and (both - ab).to_array().tolist() == [[1, 0], [1, 0]]


@pytest.mark.parametrize("two_d", [np.eye(3, dtype=int), [[0, 1], [1, 0]], [("a", "b"), ("c",)], [{"a"}, {"b"}]])
def test_two_dimensional_input_where_labels_are_expected(two_d):
    with pytest.raises(InputShapeError, match="'y_true'|1-D"):
        ConfusionMatrix.from_predictions(two_d, [0] * len(two_d))


def test_zero_samples_with_no_labels():
    with pytest.raises(EmptyInputError, match="nothing to count"):
        ConfusionMatrix.from_predictions([], [])
    with pytest.raises(EmptyInputError):
        ConfusionMatrix([])
    with pytest.raises(EmptyInputError):
        ConfusionMatrix.from_array(np.zeros((0, 0)))


def test_a_single_string_is_not_a_label_sequence():
    with pytest.raises(InvalidTypeError, match="single string"):
        ConfusionMatrix.from_predictions("abc", "abd")


def test_unhashable_labels():
    with pytest.raises((InvalidTypeError, InputShapeError)):
        ConfusionMatrix.from_predictions([{"a": 1}], [{"a": 1}])
    with pytest.raises(InvalidTypeError, match="unhashable"):
        ConfusionMatrix.from_predictions([bytearray(b"a")], [bytearray(b"a")])


def test_unknown_average_and_policy():
    cm = ConfusionMatrix.from_array([[1, 0], [0, 1]])
    with pytest.raises(InvalidArgumentError, match="'average' must be one of 'micro', 'macro', 'weighted', 'samples'; got 'mean'"):
        cm.average("precision", "mean")
    with pytest.raises(InvalidArgumentError, match="'undefined'"):
        cm.average("precision", undefined="skip")
    with pytest.raises(InvalidArgumentError, match="takes beta; got alpha"):
        cm.average("f_score", alpha=2)


def test_from_array_never_shares_or_changes_its_input():
    counts = np.array([[1, 2], [3, 4]])
    cm = ConfusionMatrix.from_array(counts)
    cm.inc(0, 0)
    assert counts[0, 0] == 1


def test_metrics_of_a_matrix_is_a_snapshot():
    cm = ConfusionMatrix.from_array([[1, 0], [0, 1]])
    metrics = ClassificationMetrics(cm)
    cm.inc(1, 1)
    assert metrics.get_true_positive() == 1


# --------------------------------------------------------------------------------------------
# what the peers refuse, refused here too (with evalkit's own message)


def test_scores_are_not_class_labels_in_the_scikit_learn_face():
    from evalkit import metrics as ek

    for y_pred in ([0.2, 0.8, 1.0, 0.0], np.array([0.2, 0.8, 1.0, 0.0])):
        with pytest.raises(exceptions.InvalidValueError, match="non-integral floats"):
            ek.accuracy_score([0, 1, 1, 0], y_pred)
    assert ek.accuracy_score([0, 1, 1, 0], [0.0, 1.0, 1.0, 0.0]) == 1.0  # whole floats are the classes 0 and 1


def test_a_decision_value_must_be_finite_and_labels_a_sequence():
    from evalkit import metrics as ek

    for bad in (math.nan, math.inf):
        with pytest.raises(exceptions.InvalidValueError, match="'pred_decision' must be finite"):
            ek.hinge_loss([0, 1], [bad, 1.0])
    for labels in (True, "ab", 3):
        with pytest.raises(InvalidTypeError, match="'labels' must be a sequence of labels"):
            ek.log_loss([0, 1], [0.2, 0.7], labels=labels)
        with pytest.raises(InvalidTypeError, match="'labels' must be a sequence of labels"):
            ek.roc_auc_score([0, 1, 2], np.eye(3), multi_class="ovr", labels=labels)


def test_a_binary_curve_display_refuses_three_classes():
    pytest.importorskip("matplotlib")
    from evalkit.displays import DetCurveDisplay, PrecisionRecallDisplay, RocCurveDisplay

    for display in (RocCurveDisplay, PrecisionRecallDisplay, DetCurveDisplay):
        with pytest.raises(InvalidArgumentError, match="'y_true' holds 3 classes"):
            display.from_predictions([0, 1, 2, 1], [0.1, 0.5, 0.9, 0.4])


def test_deep_netts_four_count_constructor_points_at_from_counts():
    with pytest.raises(InvalidTypeError, match=r"not 4 counts \[50, 10, 5, 35\].*from_counts\(tp=\.\.\., fp=\.\.\., fn=\.\.\., tn=\.\.\.\)"):
        ClassificationMetrics(50, 10, 5, 35)
    with pytest.raises(InvalidTypeError, match="from_counts"):
        ClassificationMetrics(50, 10, 5)


@pytest.mark.parametrize(
    ("call", "shown", "use"),
    [
        (lambda: Evaluation(4), r"Evaluation\(4\)", r"Evaluation\.from_labels\(.*ConfusionMatrix\(labels\) \(labels=range\(n\) for class indexes\) and its update"),
        (lambda: Evaluation(("a", "b"), setting="single-label"), r"Evaluation\(\('a', 'b'\), setting='single-label'\)",
         r"ConfusionMatrix\(labels\).*LabelSetCounts"),
        (lambda: Evaluation(), r"Evaluation\(\)", r"from_\* constructor"),
        (lambda: ThresholdCurve(["a", "b"]), r"ThresholdCurve\(\['a', 'b'\]\)", r"from_scores\(.*CurveCounts\(\) and its update"),
        (lambda: ThresholdCurve(labels=(1,)), r"ThresholdCurve\(labels=\(1,\)\)", r"new ROC\(\)"),
    ],
    ids=["Evaluation(4)", "Evaluation(labels, setting=...)", "Evaluation()", "ThresholdCurve(labels)", "ThresholdCurve(labels=...)"],
)  # fmt: skip
def test_a_java_accumulator_started_empty_points_at_the_constructors_and_the_stream_counters(call, shown, use):
    # DL4J starts an accumulator empty (new Evaluation(nClasses), new ROC()); evalkit's results are counted, never changed
    with pytest.raises(InvalidTypeError, match=shown) as caught:
        call()
    assert isinstance(caught.value, TypeError) and "class_cells" not in str(caught.value) and "positional" not in str(caught.value)
    assert caught.match(use)


def test_the_fields_given_whole_still_make_the_result():
    evaluation = Evaluation.from_labels([0, 1, 1], [0, 1, 0])
    assert Evaluation(*(getattr(evaluation, name) for name in ("labels", "class_cells", "sample_cells", "setting"))).n_samples == 3
    assert attrs.evolve(evaluation, n_rejected=1).coverage == 0.75
    curve = ThresholdCurve.from_scores([0, 1, 1], [0.2, 0.9, 0.4])
    assert (curve + curve).roc_auc() == curve.roc_auc() == 1.0


@pytest.mark.parametrize(
    ("make", "attribute", "meant"),
    [
        (lambda: ClassificationMetrics(ConfusionMatrix.from_array([[5, 1], [2, 3]]), 1), "get_mcc", "get_matthews_correlation_coefficient"),
        (lambda: ClassificationMetrics.from_counts(tp=3, fp=1, fn=2, tn=5), "get_fdr", "get_false_discovery_rate"),
        (lambda: ClassificationMetrics.from_counts(tp=3, fp=1, fn=2, tn=5), "get_f1", "get_f1_score"),
        (lambda: ClassificationMetrics.from_counts(tp=3, fp=1, fn=2, tn=5), "mcc", "get_matthews_correlation_coefficient"),
        (lambda: ClassificationMetrics.from_counts(tp=3, fp=1, fn=2, tn=5), "get_precison", "get_precision"),
        (lambda: RegressionMetrics.from_predictions([1, 2, 3], [1, 2, 2]), "get_mse", "get_mean_squared_error"),
        (lambda: RegressionMetrics.from_predictions([1, 2, 3], [1, 2, 2]), "get_r2", "get_r_squared"),
        (lambda: RegressionMetrics.from_predictions([1, 2, 3], [1, 2, 2]), "get_mean_sqared_error", "get_mean_squared_error"),
    ],
)  # fmt: skip
def test_a_getter_by_an_abbreviation_or_misspelt_suggests_the_one_meant(make, attribute, meant):
    metrics = make()
    with pytest.raises(UnknownAttributeError, match=rf"object has no attribute '{attribute}' \(did you mean '{meant}'\?\)") as caught:
        getattr(metrics, attribute)
    assert isinstance(caught.value, AttributeError) and caught.value.name == attribute
    assert not hasattr(metrics, attribute) and getattr(metrics, attribute, None) is None  # still an AttributeError to Python
    assert callable(getattr(metrics, meant))


def test_an_attribute_nothing_is_close_to_has_no_suggestion():
    metrics = ClassificationMetrics.from_counts(tp=3, fp=1, fn=2, tn=5)
    for attribute in ("xyz", "_private"):
        with pytest.raises(UnknownAttributeError, match=rf"^'ClassificationMetrics' object has no attribute '{attribute}'$"):
            getattr(metrics, attribute)
    with pytest.raises(UnknownAttributeError, match="never fills it"):
        ClassificationMetrics.average([metrics]).mserror  # noqa: B018 (the read raises)
