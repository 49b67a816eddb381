"""Every face of evalkit gives the reference's number: the shared harness (``tests/harness.py``)
over single-label, multi-label and soft data, every measure (an added getter, an overridden
getter and a registered function among them), every average, every undefined-value policy, and
no, integer or float sample weights."""

import math
import warnings

import numpy as np
import pytest
from harness import (
    CASES,
    POLICIES,
    array_data,
    balanced_error_rate,
    check_faces,
    single_label_data,
)
from hypothesis import given
from hypothesis import strategies as st
from sklearn import metrics as sk
from strategies import degree_pairs, indicator_pairs, make_weight, predictions, single_label, weights

from evalkit import ClassificationMetrics, ConfusionMatrix, Evaluation, formulas
from evalkit.exceptions import UnsupportedSettingError

cases = st.sampled_from(CASES)
policies = st.sampled_from(POLICIES)


@pytest.fixture(scope="module", autouse=True)
def registered_function():
    """The registered-function case: balanced_error_rate, for this module's tests only."""
    formulas.register(balanced_error_rate, direction="lower")
    yield
    formulas.unregister("balanced_error_rate")


def cut_of(data, n):
    return data.draw(st.integers(1, n - 1)) if n > 1 else n


@given(predictions(), cases, st.sampled_from(["micro", "macro", "weighted", "samples"]), policies, weights, st.data())
def test_single_label_faces_agree(labels, case, average, policy, weight_kind, data):
    y_true, y_pred, pool = labels
    weight = make_weight(weight_kind, len(y_true), data)
    check_faces(case, single_label_data(y_true, y_pred, pool, weight), average, policy, cut_of(data, len(y_true)))


@given(indicator_pairs(), cases, st.sampled_from(["micro", "macro", "weighted", "samples"]), policies, weights, st.data())
def test_multi_label_faces_agree(arrays, case, average, policy, weight_kind, data):
    actual, predicted = arrays
    weight = make_weight(weight_kind, len(actual), data)
    check_faces(case, array_data("multi-label", actual, predicted, weight), average, policy, cut_of(data, len(actual)))


@given(degree_pairs(), cases, st.sampled_from(["micro", "macro", "weighted", "samples"]), policies, weights, st.data())
def test_soft_faces_agree(arrays, case, average, policy, weight_kind, data):
    actual, predicted = arrays
    weight = make_weight(weight_kind, len(actual), data)
    check_faces(case, array_data("soft", actual, predicted, weight), average, policy, cut_of(data, len(actual)))


def test_the_harness_covers_every_registered_measure_and_the_three_kinds_of_definition():
    names = {case.name for case in CASES}
    assert set(formulas.measure_names()) <= names
    kinds = {(case.metrics_class.measure(case.name).getter is not None, case.name in formulas.MEASURES) for case in CASES}
    assert (True, False) in kinds and (True, True) in kinds  # an added getter, an overridden built-in
    assert any(formulas.MEASURES[case.name].function is balanced_error_rate for case in CASES if case.name == "balanced_error_rate")


def test_the_harness_fails_when_a_face_is_wrong(monkeypatch):
    """The harness can fail: a JSON round trip that gave another evaluation is caught and named."""
    data = single_label_data(["a", "b", "b"], ["a", "a", "b"], ["a", "b"], None)
    case = next(case for case in CASES if case.name == "recall" and case.sklearn)
    check_faces(case, data, "macro", "exclude", 1)
    other = Evaluation.from_labels(["a", "b", "b"], ["b", "a", "b"])
    monkeypatch.setattr(Evaluation, "from_json", classmethod(lambda cls, text, **options: other))
    with pytest.raises(AssertionError, match="JSON round trip"):
        check_faces(case, data, "macro", "exclude", 1)


EDGE_PROBABILITIES = st.sampled_from([0.0, 0.1, 0.2, 0.25, 0.3, 0.5, 0.6, 0.7, 0.9, 1.0, 1 / 3, 2 / 3]) | st.floats(0.0, 1.0)
"""Probabilities on bin edges (0.1 * 3 is not 0.3: the edges are numpy's linspace) and between them."""


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
        for weighting in (None, "linear", "quadratic"):
            expected = quietly(sk.cohen_kappa_score, y_true, y_pred, weights=weighting)
            value = source.get_cohen_kappa(weighting)
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
