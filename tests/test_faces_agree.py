"""Every face of evalkit gives the reference's number: the shared harness (``tests/harness.py``)
over single-label, multi-label and soft data, every measure (an added getter, an overridden
getter and a registered function among them), every average, every undefined-value policy, and
no, integer or float sample weights."""

import pytest
from harness import CASES, POLICIES, array_data, balanced_error_rate, check_faces, single_label_data
from hypothesis import given
from hypothesis import strategies as st
from strategies import degree_pairs, indicator_pairs, make_weight, predictions, weights

from evalkit import Evaluation, formulas

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
