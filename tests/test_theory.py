"""The framework's results (shared/spec/algebraic.md, "Results a test can check"), one by one."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from evalkit import ConfusionMatrix, Evaluation, formulas, theory
from evalkit.exceptions import NoClosedFormError

DECOMPOSABLE = [name for name, measure in formulas.MEASURES.items() if measure.decomposable]
indicator_pairs = hnp.arrays(bool, st.tuples(st.integers(1, 30), st.integers(1, 6))).flatmap(
    lambda a: st.tuples(st.just(a), hnp.arrays(bool, a.shape))
)


# 1. micro = denominator-weighted macro; gap = Cov(w, M) / mean(w)
@pytest.mark.parametrize("name", DECOMPOSABLE)
@given(indicator_pairs)
def test_micro_is_the_denominator_weighted_macro_and_the_gap_is_a_covariance(name, data):
    actual, predicted = data
    ev = Evaluation.from_indicators(actual, predicted)
    gap = ev.micro_macro_gap(name)
    micro = ev.average(name, "micro")
    if math.isnan(micro):
        return
    assert math.isclose(gap.micro, micro, rel_tol=1e-12, abs_tol=1e-12)
    assert math.isclose(gap.weighted_macro, micro, rel_tol=1e-12, abs_tol=1e-12)
    assert math.isclose(gap.macro, ev.average(name, "macro"), rel_tol=1e-12, abs_tol=1e-12)
    assert math.isclose(gap.gap, gap.covariance / gap.mean_weight, rel_tol=1e-9, abs_tol=1e-12)


def test_the_gap_needs_a_decomposable_measure():
    with pytest.raises(NoClosedFormError, match="'matthews_correlation_coefficient' is not aggregation-decomposable"):
        Evaluation.from_labels([0, 1], [1, 1]).micro_macro_gap("mcc")


# 2. one-hot: micro precision = micro recall = micro F1 = accuracy
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=80))
def test_one_hot_micro_precision_recall_f1_collapse_to_accuracy(pairs):
    ev = Evaluation.from_labels([a for a, _ in pairs], [p for _, p in pairs])
    for name in ("precision", "recall", "f1_score"):
        assert math.isclose(ev.average(name, "micro"), ev.get_accuracy(), rel_tol=1e-12)


# 3. product t-norm marginals: tests/test_settings.py; 4. MAE / MSE cost matrices: tests/test_settings.py


# 5. one-hot floors of an always-wrong classifier
@pytest.mark.parametrize("m", [3, 4, 10])
def test_one_hot_floors_when_every_prediction_is_wrong(m):
    y_true = np.repeat(np.arange(m), 7)
    y_pred = (y_true + 1 + np.arange(len(y_true)) % (m - 1)) % m  # always another class
    assert (y_true != y_pred).all()
    ev = Evaluation.from_labels(y_true, y_pred)
    assert ev.average("accuracy", "micro") == pytest.approx((m - 2) / m)
    assert ev.average("specificity", "micro") == pytest.approx((m - 2) / (m - 1))
    assert ev.average("matthews_correlation_coefficient", "micro") == pytest.approx(-1 / (m - 1))
    assert ev.average("f1_score", "micro") == 0
    assert ev.get_accuracy() == 0
    for name, measure in formulas.MEASURES.items():  # the metadata names exactly the measures with a floor
        value = ev.average(name, "micro")
        at_zero = measure(tp=0, fp=1, fn=1, tn=m - 2)
        assert math.isclose(value, at_zero, rel_tol=1e-12) or (math.isnan(value) and math.isnan(at_zero))


# 6. Bayes-optimal thresholds
def test_bayes_optimal_thresholds_of_the_spec():
    assert theory.bayes_optimal_threshold("accuracy") == 0.5
    assert theory.linear_utility_threshold(fp=-1, fn=-4) == 0.2
    assert theory.bayes_optimal_threshold("error_rate") == 0.5
    assert theory.bayes_optimal_threshold("recall") == 0.0
    assert theory.bayes_optimal_threshold("specificity") == 1.0
    for name in ("precision", "f1_score", "jaccard_index"):
        with pytest.raises(NoClosedFormError, match="depends on the predictions"):
            theory.bayes_optimal_threshold(name)
    with pytest.raises(NoClosedFormError, match="depends on the predictions"):
        theory.bayes_optimal_threshold("f_score", beta=2)
    for name in ("matthews_correlation_coefficient", "balanced_accuracy"):
        with pytest.raises(NoClosedFormError, match="not a ratio of linear forms"):
            theory.bayes_optimal_threshold(name)
    with pytest.raises(NoClosedFormError):
        theory.bayes_optimal_threshold("prevalence")
    with pytest.raises(NoClosedFormError):
        theory.linear_utility_threshold(tp=-1, tn=-1)


def test_the_closed_form_threshold_maximises_the_expected_utility():
    """With calibrated probabilities, thresholding at the closed form beats every other threshold."""
    rng = np.random.default_rng(0)
    probability = rng.random(400_000)
    y = rng.random(len(probability)) < probability
    utility = {"tp": 0.0, "fp": -1.0, "fn": -4.0, "tn": 0.0}

    def expected_utility(threshold):
        positive = probability > threshold
        tp, fp = (positive & y).sum(), (positive & ~y).sum()
        fn, tn = (~positive & y).sum(), (~positive & ~y).sum()
        return utility["tp"] * tp + utility["fp"] * fp + utility["fn"] * fn + utility["tn"] * tn

    best = theory.linear_utility_threshold(**utility)
    for other in (0.05, 0.1, 0.15, 0.3, 0.5, 0.7):
        assert expected_utility(best) > expected_utility(other)


# 7. degrees of freedom
@given(st.integers(2, 6).flatmap(lambda m: hnp.arrays(np.int64, (m, m), elements=st.integers(0, 50))))
def test_a_confusion_matrix_has_m_times_m_minus_one_free_rates(matrix):
    matrix[np.diag_indices(len(matrix))] += 1  # every class present
    rates = theory.free_rates(matrix)
    m = len(matrix)
    assert rates.shape == (m * (m - 1),)
    np.testing.assert_allclose(theory.confusion_from_rates(rates, matrix.sum(1)), matrix, atol=1e-9)


# 8. skew invariance
def test_skew_invariant_measures_ignore_label_priors_in_multi_label_data():
    rng = np.random.default_rng(5)
    actual, predicted = rng.random((200, 4)) < 0.3, rng.random((200, 4)) < 0.3
    negatives = ~actual[:, 2]  # replicate the samples negative for label 2: its prior falls
    more_actual = np.concatenate([actual, np.repeat(actual[negatives], 3, axis=0)])
    more_predicted = np.concatenate([predicted, np.repeat(predicted[negatives], 3, axis=0)])
    before, after = Evaluation.from_indicators(actual, predicted), Evaluation.from_indicators(more_actual, more_predicted)
    for name, measure in formulas.MEASURES.items():
        if measure.skew_invariant:
            assert after.per_class(name)[2] == pytest.approx(before.per_class(name)[2]), name
    assert after.per_class("precision")[2] != pytest.approx(before.per_class("precision")[2])


def test_in_one_vs_rest_multi_class_recall_is_prior_free_but_specificity_is_not():
    """Changing the prior of class 2 mixes the negatives of class 0 differently."""
    cm = np.array([[8, 2, 0], [1, 7, 2], [0, 5, 5]])
    skewed = cm * np.array([[1], [1], [4]])  # four times as many samples of class 2
    before, after = ConfusionMatrix.from_array(cm), ConfusionMatrix.from_array(skewed)
    np.testing.assert_allclose(after.per_class("recall"), before.per_class("recall"))
    assert after.per_class("specificity")[0] != pytest.approx(before.per_class("specificity")[0])


# 9. the paper's counterexample
def test_micro_balanced_accuracy_leaves_the_range_of_the_class_values():
    matrix = np.array([[110, 10, 10], [20, 40, 5], [25, 5, 50]])  # rows actual
    rows, cols = np.indices(matrix.shape)
    y_true, y_pred = np.repeat(rows.ravel(), matrix.ravel()), np.repeat(cols.ravel(), matrix.ravel())
    ev = Evaluation.from_labels(y_true, y_pred)
    np.testing.assert_array_equal(ev.confusion.dense(), matrix)
    assert ev.average("balanced_accuracy", "micro") > ev.per_class("balanced_accuracy").max()


# Pareto dominance
def test_pareto_dominance_by_hand():
    assert theory.pareto_compare([[9, 1], [2, 8]], [[8, 2], [2, 8]]) == "dominates"
    assert theory.pareto_compare([[8, 2], [2, 8]], [[9, 1], [2, 8]]) == "dominated"
    assert theory.pareto_compare([[9, 1], [3, 7]], [[8, 2], [2, 8]]) == "incomparable"
    assert theory.pareto_compare([[18, 2], [4, 16]], [[9, 1], [2, 8]]) == "equal"  # the same rates
    a = ConfusionMatrix.from_array([[5, 0, 0], [1, 4, 0], [0, 0, 5]], list("xyz"))
    b = ConfusionMatrix.from_array([[5, 0, 0], [1, 4, 0], [1, 0, 4]], list("xyz"))
    assert theory.pareto_compare(a, b) == "dominates"


@given(st.integers(2, 4).flatmap(lambda m: st.tuples(*[hnp.arrays(np.int64, (m, m), elements=st.integers(0, 9))] * 2)))
def test_pareto_dominance_is_antisymmetric(pair):
    first, second = pair
    forward, backward = theory.pareto_compare(first, second), theory.pareto_compare(second, first)
    assert (forward, backward) in {("dominates", "dominated"), ("dominated", "dominates"), ("equal", "equal"), ("incomparable", "incomparable")}
    if forward == "dominates":  # no error rate is higher: every per-class recall is at least as high
        both = (first.sum(1) > 0) & (second.sum(1) > 0)
        recall_a = np.diag(first)[both] / first.sum(1)[both]
        recall_b = np.diag(second)[both] / second.sum(1)[both]
        assert (recall_a >= recall_b - 1e-12).all()
