"""Bad input ends in a clear evalkit error naming the argument and showing the value."""

import math
import warnings

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalkit import (
    ClassificationMetrics,
    ConfusionMatrix,
    Covering,
    Evaluation,
    RegressionMetrics,
    ThresholdCurve,
    exceptions,
)
from evalkit import metrics as ek
from evalkit._results import intervals, paired
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


garbage = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.just(2**70), st.floats(), st.text(max_size=3),
    st.lists(st.integers(-2, 3), max_size=5), st.lists(st.floats(), max_size=5), st.lists(st.text(max_size=2), max_size=4),
    st.lists(st.lists(st.integers(0, 1), max_size=3), max_size=4), st.just(np.zeros((2, 2, 2))), st.just(np.array([])),
    st.just({1: 2}), st.just({1, 2}), st.lists(st.one_of(st.integers(0, 2), st.text(max_size=1), st.none()), max_size=4),
    st.just(np.array([[0.2, 0.8], [0.6, 0.4]])), st.just([[1, 0], [0, 1]]), st.just([0, 1, 1, 0]), st.just([0.1, 0.9, 0.4, 0.6]),
)


def _garbage_targets():
    from evalkit import metrics

    small = ConfusionMatrix.from_predictions([0, 1, 1, 0], [0, 1, 0, 0])
    curve = ThresholdCurve.from_scores([0, 1, 1], [0.2, 0.6, 0.7])
    return {
        "ConfusionMatrix.from_predictions": lambda a, b, c: ConfusionMatrix.from_predictions(a, b, c),
        "ConfusionMatrix.from_array": lambda a, b, c: ConfusionMatrix.from_array(a, b),
        "ClassificationMetrics.from_counts": lambda a, b, c: ClassificationMetrics.from_counts(tp=a, fp=b, fn=c, tn=1),
        "ClassificationMetrics(cm)": lambda a, b, c: ClassificationMetrics(small, class_label=a, class_idx=b),
        "Evaluation.from_labels": lambda a, b, c: Evaluation.from_labels(a, b, c),
        "Evaluation.from_label_sets": lambda a, b, c: Evaluation.from_label_sets(a, b, c),
        "Evaluation.from_indicators": lambda a, b, c: Evaluation.from_indicators(a, b, c),
        "Evaluation.from_scores": lambda a, b, c: Evaluation.from_scores(a, b, threshold=c),
        "Evaluation.from_soft": lambda a, b, c: Evaluation.from_soft(a, b, c),
        "average": lambda a, b, c: small.average(a, b, undefined=c),
        "ThresholdCurve.from_scores": lambda a, b, c: ThresholdCurve.from_scores(a, b, thresholds=c),
        "ThresholdCurve.at": lambda a, b, c: curve.at(a),
        "roc_auc": lambda a, b, c: curve.roc_auc(average=a, max_fpr=b),
        "Covering": lambda a, b, c: Covering(a, b, c),
        "metrics.f1_score": lambda a, b, c: metrics.f1_score(a, b, average=c),
        "metrics.roc_auc_score": lambda a, b, c: metrics.roc_auc_score(a, b, average=c),
        "metrics.log_loss": lambda a, b, c: metrics.log_loss(a, b),
        "metrics.confusion_matrix": lambda a, b, c: metrics.confusion_matrix(a, b, labels=c),
        "metrics.top_k_accuracy_score": lambda a, b, c: metrics.top_k_accuracy_score(a, b, k=c),
        "interval": lambda a, b, c: small.interval("accuracy", method=a, level=b, n_resamples=c),
        "class_metrics": lambda a, b, c: small.class_metrics(a),
        "sample_metrics": lambda a, b, c: Evaluation.from_labels([0, 1], [0, 1]).sample_metrics(a, b),
        "ClassificationMetrics.get": lambda a, b, c: ClassificationMetrics.from_counts(tp=1, fp=1, fn=1, tn=1).get(a),
        "ClassificationMetrics.average": lambda a, b, c: ClassificationMetrics.average(a, undefined=b),
        "ThresholdCurve.evaluate": lambda a, b, c: curve.evaluate(a, b, average=c),
        "metrics.classification_report": lambda a, b, c: metrics.classification_report(a, b, digits=c),
        "metrics.cohen_kappa_score": lambda a, b, c: metrics.cohen_kappa_score(a, b, weights=c),
        "metrics.brier_score_loss": lambda a, b, c: metrics.brier_score_loss(a, b, pos_label=c),
        "metrics.average_precision_score": lambda a, b, c: metrics.average_precision_score(a, b, pos_label=c),
    }


GARBAGE_TARGETS = _garbage_targets()


def test_arguments_of_the_wrong_kind_name_themselves():
    from evalkit import metrics
    from evalkit._results import intervals
    from evalkit._scale import streaming

    cm = ConfusionMatrix.from_predictions([0, 1], [0, 1])
    ev = Evaluation.from_labels([0, 1, 1], [0, 1, 0])
    cases = [
        (lambda: cm.index_of(True), EvalkitError, r"True \(bool\) is not a label of this matrix"),
        (lambda: ClassificationMetrics(cm, class_label=True, class_idx=1), EvalkitError, "is not the label of 'class_idx'"),
        (lambda: ev.class_metrics(metrics_class=dict), InvalidTypeError, "'metrics_class' must be ClassificationMetrics or a subclass"),
        (lambda: ev.average("f1", "macro", metrics_class="x"), InvalidTypeError, "'metrics_class'"),
        (lambda: ev.sample_metrics([0, 5]), InvalidArgumentError, r"'indices' must be sample positions in 0..2"),
        (lambda: ev.sample_metrics([-1]), InvalidArgumentError, "negative ones never wrap"),
        (lambda: ev.sample_metrics([0.5]), InvalidArgumentError, "'indices'"),
        (lambda: metrics.classification_report([0, 1], [0, 1], digits=None), InvalidArgumentError, "'digits' must be a whole number"),
        (lambda: metrics.cohen_kappa_score([0, 1], [0, 1], weights=np.array(["linear"])), InvalidArgumentError, "'weights' must be"),
        (lambda: metrics.f1_score([0, 1], [0, 1], average=np.array(["macro"])), InvalidArgumentError, "'average' must be one of"),
        (lambda: metrics.top_k_accuracy_score([0, 1, 2], np.eye(3), k=[2]), InvalidArgumentError, "'k' must be a whole number"),
        (lambda: metrics.metric_at_thresholds([0, 1], [0.2, 0.8], 3.0), InvalidTypeError, "'metric_func' must be"),
        (lambda: metrics.average_precision_score([0, 1], [0.2, 0.8], pos_label=[1]), InvalidTypeError, "'pos_label' must be one label"),
        (lambda: metrics.confusion_matrix([0, 1], [0, 1], labels=3), InvalidTypeError, "'labels' must be a sequence"),
        (lambda: streaming.LabelSetCounts().update(5, [{1}]), InvalidTypeError, "'y_true' must be a sequence of label sets"),
        (lambda: ClassificationMetrics.from_counts(tp=1, fp=1, fn=1, tn=1).get(["f1"]), InvalidTypeError, "a metric name must be a string"),
        (lambda: ClassificationMetrics.average(3), InvalidTypeError, "'results' must be ClassificationMetrics objects"),
        (lambda: intervals.wilson({1}, 10), InvalidTypeError, "'successes'"),
        (lambda: ThresholdCurve.from_scores([0, 1, 1], [0.2, 0.6, 0.7]).evaluate("recall", [1]), InvalidTypeError, "a class must be one label"),
        (lambda: ThresholdCurve.from_scores([0, 1], [0.2, 0.8], thresholds=2**70), InvalidArgumentError, "'thresholds' as a number must be in 2.."),
        (lambda: Covering.from_indicators([[1, 0], [1]]), InputShapeError, "'matrix' has rows of different lengths"),
        (lambda: ek.top_k_accuracy_score([0], False), InvalidTypeError, "'y_score' must be a score per sample .* got one value: False"),
        (lambda: ek.roc_auc_score([0, 1], 0.5), InvalidTypeError, "'y_score' must be a score per sample .* got one value: 0.5"),
    ]
    for call, error, message in cases:
        with pytest.raises(error, match=message):
            call()


@settings(max_examples=300)
@given(st.sampled_from(sorted(GARBAGE_TARGETS)), garbage, garbage, garbage)
def test_garbage_arguments_raise_only_evalkit_errors(name, a, b, c):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            GARBAGE_TARGETS[name](a, b, c)
    except EvalkitError:
        pass


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: ek.brier_score_loss([0, 1, 1], [0.1, 0.8, 0.7], pos_label=[1]), TypeError),
        (lambda: intervals.clopper_pearson(2.9, 3.1), InvalidCountsError),
        (lambda: intervals.clopper_pearson("2", 3), TypeError),
        (lambda: intervals.wilson(5, 3), InvalidCountsError),
        (lambda: ek.top_k_accuracy_score([0, 1, 2], np.eye(3), k=1, sample_weight=[0, 0, 0]), ValueError),
        (lambda: ek.log_loss([0, 1], [0.2, 0.7], sample_weight=[0, 0]), ValueError),
        (lambda: ek.brier_score_loss([0, 1], [0.2, 0.7], sample_weight=[0, 0]), ValueError),
        (lambda: ek.accuracy_score([0, 1], [0, 1], normalize=np.array([True, False])), TypeError),
        (lambda: ek.log_loss([0, 1], [0.2, 0.7], normalize="yes"), TypeError),
        (lambda: ek.roc_curve([0, 1], [0.2, 0.7], drop_intermediate=[True]), TypeError),
        (lambda: ek.f1_score([0, 1], [0, 1], labels=True), TypeError),
        (lambda: paired.compare([0, 1, 1, 0], [0, 1, 0, 0], [0, 1, 1, 1], random_state="x"), ValueError),
        (lambda: ConfusionMatrix.from_predictions([0, 1, 1], [0, 1, 0]).interval("f1_score", "macro", random_state=-1), ValueError),
        (lambda: paired.compare([0, 1, 1, 0], [0.1, 0.9, 0.4, 0.3], [0.2, 0.8, 0.6, 0.1], method="delong", sample_weight=[1, 2, 1, 1]), ValueError),
        (lambda: paired.compare([0, 1, 1, 0], [0.1, 0.9, 0.4, 0.3], [0.2, 0.8, 0.6, 0.1], method="delong", labels=[0, 1]), ValueError),
        (lambda: paired.compare([0, 1, 1, 0], [0.1, 0.9, 0.4, 0.3], [0.2, 0.8, 0.6, 0.1], method="delong", measure="f1_score"), ValueError),
    ],
)
def test_a_bad_argument_is_refused_naming_it(call, error):
    with pytest.raises(error) as caught:
        call()
    assert isinstance(caught.value, EvalkitError)
