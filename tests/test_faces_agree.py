"""Every face of evalkit gives the reference's number: the shared harness (``tests/harness.py``)
over single-label, multi-label and soft data, every measure (an added getter, an overridden
getter and a registered function among them), every average, every undefined-value policy, and
no, integer or float sample weights."""

import pytest
from harness import (
    CASES,
    POLICIES,
    SCORE_MEASURES,
    array_data,
    balanced_error_rate,
    check_agreement_faces,
    check_calibration_faces,
    check_faces,
    check_fairness_faces,
    check_score_faces,
    reference_calibration_error,
    single_label_data,
)
from hypothesis import assume, given
from hypothesis import strategies as st
from strategies import binary_case, degree_pairs, indicator_pairs, make_weight, predictions, weights

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


@given(binary_case(min_size=2), st.sampled_from(sorted(SCORE_MEASURES)), st.booleans(), st.data())
def test_score_measures_agree_on_every_face(case, name, weighted, data):
    y_true, y_score = case
    if len(set(y_true)) < 2:
        y_true = [0, 1, *y_true[2:]]  # both classes: every area is defined
    if name in ("brier_score", "log_loss"):
        y_score = [min(max(abs(score) / 3, 0.0), 1.0) for score in y_score]  # probabilities
    weight = data.draw(st.lists(st.integers(1, 4), min_size=len(y_true), max_size=len(y_true))) if weighted else None
    cut = data.draw(st.integers(1, len(y_true) - 1))
    check_score_faces(name, y_true, y_score, weight, cut)


def test_the_score_harness_fails_when_a_face_is_wrong(monkeypatch):
    from evalkit import ThresholdCurve

    y_true, y_score = [0, 1, 1, 0, 1], [0.1, 0.8, 0.4, 0.35, 0.9]
    check_score_faces("roc_auc", y_true, y_score, None, 2)
    original = ThresholdCurve.roc_auc
    monkeypatch.setattr(ThresholdCurve, "roc_auc", lambda self, *args, **kwargs: original(self, *args, **kwargs) + 1e-6)
    with pytest.raises(AssertionError, match="roc_auc: .* gives 1.000001"):
        check_score_faces("roc_auc", y_true, y_score, None, 2)


EDGE_PROBABILITIES = st.sampled_from([0.0, 0.1, 0.2, 0.25, 0.3, 0.5, 0.6, 0.7, 0.9, 1.0, 1 / 3, 2 / 3]) | st.floats(0.0, 1.0)
"""Probabilities on bin edges (0.1 * 3 is not 0.3: the edges are numpy's linspace) and between them."""


@given(st.integers(2, 30).flatmap(lambda n: st.tuples(st.lists(st.integers(0, 1), min_size=n, max_size=n),
                                                      st.lists(EDGE_PROBABILITIES, min_size=n, max_size=n))),
       st.sampled_from(["l1", "max"]), st.sampled_from([1, 2, 3, 5, 10, 15]), st.booleans(), st.data())  # fmt: skip
def test_calibration_errors_agree_on_every_face(columns, norm, n_bins, weighted, data):
    y_true, y_prob = (list(column) for column in columns)
    weight = data.draw(st.lists(st.integers(1, 4), min_size=len(y_true), max_size=len(y_true))) if weighted else None
    check_calibration_faces(norm, y_true, y_prob, weight, n_bins, data.draw(st.integers(1, len(y_true) - 1)))


def test_the_calibration_reference_gives_the_hand_computed_errors():
    # two bins, (0, 0.5] holds 0.2 and 0.4 (no positive: gap 0.3), (0.5, 1] holds 0.9 and 0.6 (both
    # positive: gap 0.25); ECE = 0.5 * 0.3 + 0.5 * 0.25 = 0.275, MCE = 0.3
    y_true, y_prob = [0, 1, 1, 0], [0.2, 0.9, 0.6, 0.4]
    assert reference_calibration_error(y_true, y_prob, None, 2, "l1") == pytest.approx(0.275)
    assert reference_calibration_error(y_true, y_prob, None, 2, "max") == pytest.approx(0.3)
    # 0.5 lies on the edge: right-closed bins put it in the first bin (gap |0.5 - 0| = 0.5, alone)
    assert reference_calibration_error([0, 1], [0.5, 1.0], None, 2, "max") == pytest.approx(0.5)
    check_calibration_faces("l1", y_true, y_prob, None, 2, 2)


def test_the_calibration_harness_fails_when_a_face_is_wrong(monkeypatch):
    from evalkit import Calibration

    original = Calibration.error
    monkeypatch.setattr(Calibration, "error", lambda self, *args, **kwargs: original(self, *args, **kwargs) + 1e-6)
    with pytest.raises(AssertionError, match="l1 calibration error: object gives"):
        check_calibration_faces("l1", [0, 1, 1, 0], [0.2, 0.9, 0.6, 0.4], None, 2, 2)


@given(st.lists(st.lists(st.sampled_from(["yes", "no", "maybe"]), min_size=3, max_size=3), min_size=3, max_size=15), st.data())
def test_agreement_measures_agree_on_every_face(ratings, data):
    if len({value for row in ratings for value in row}) < 2:
        ratings = [["yes", "no", "yes"], *ratings[1:]]  # two categories at least: alpha is defined
    if data.draw(st.booleans()):
        ratings = [[None if (i + j) % 4 == 0 else value for j, value in enumerate(row)] for i, row in enumerate(ratings)]
        ratings = [row if sum(value is not None for value in row) >= 2 else row[:1] * 3 for row in ratings]
    assume(len({value for row in ratings for value in row if value is not None}) >= 2)  # alpha needs two categories seen
    check_agreement_faces(ratings, data.draw(st.integers(1, len(ratings) - 1)))


@given(st.integers(4, 30).flatmap(lambda n: st.tuples(*(st.lists(values, min_size=n, max_size=n) for values in
                                                        (st.integers(0, 1), st.integers(0, 1), st.sampled_from(["a", "b", "c"]))))),
       st.data())  # fmt: skip
def test_fairness_measures_agree_on_every_face(columns, data):
    y_true, y_pred, groups = (list(column) for column in columns)
    y_true[:2], y_pred[:2] = [0, 1], [1, 0]  # both classes in the labels and the predictions
    check_fairness_faces(y_true, y_pred, groups, data.draw(st.integers(2, len(y_true) - 1)))


def test_the_agreement_and_fairness_harness_fail_when_a_face_is_wrong(monkeypatch):
    from evalkit import Agreement
    from evalkit.groups import fairness

    ratings = [["yes", "no", "yes"], ["no", "no", "no"], ["yes", "yes", "no"], ["no", "yes", "yes"]]
    check_agreement_faces(ratings, 2)
    monkeypatch.setattr(Agreement, "get_krippendorff_alpha", lambda self: 0.5)
    with pytest.raises(AssertionError, match="krippendorff_alpha: object gives 0.5"):
        check_agreement_faces(ratings, 2)
    y_true, y_pred, groups = [0, 1, 1, 0, 1, 0], [1, 0, 1, 0, 1, 1], ["a", "a", "b", "b", "c", "c"]
    check_fairness_faces(y_true, y_pred, groups, 3)
    monkeypatch.setattr(fairness, "demographic_parity_difference", lambda *args, **kwargs: 0.123)
    with pytest.raises(AssertionError, match="demographic_parity_difference: .* gives 0.123"):
        check_fairness_faces(y_true, y_pred, groups, 3)
