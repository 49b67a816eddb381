"""Selective prediction: the risk-coverage curve, AURC and excess AURC, against brute force at
every threshold, against MAPIE's ``auarc`` and Geifman et al.'s top-k mean, and against the
confusion matrices of the accepted samples.

References: Geifman & El-Yaniv, "Selective classification for deep neural networks" (NeurIPS
2017): risk and coverage of a threshold on the confidence; Geifman, Uziel & El-Yaniv,
"Bias-reduced uncertainty estimation for deep neural classifiers" (ICLR 2019): AURC as the
mean risk of the k most confident samples, and the excess AURC against r + (1 - r) ln(1 - r).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from harness import check_kind, counted_samples
from hypothesis import given, settings
from hypothesis import strategies as st
from mapie.metrics.uncertainty import auarc as mapie_auarc
from strategies import close

from evalkit import ConfusionMatrix, RiskCoverage
from evalkit._scores.selective import oracle_aurc
from evalkit.exceptions import (
    CountOverflowError,
    InputLengthError,
    InvalidArgumentError,
    InvalidCountsError,
    InvalidValueError,
    LabelMismatchError,
    UnknownLabelError,
)
from evalkit.metrics import auarc, aurc, excess_aurc, risk_coverage_curve


@st.composite
def selective_cases(draw, max_size=30):
    """Labels, predictions, confidences with ties (a few distinct values), optional integer weights."""
    n = draw(st.integers(1, max_size))
    pool = ["a", "b", "c"][: draw(st.integers(1, 3))]
    y_true = draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n))
    y_pred = draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n))
    confidence = draw(st.lists(st.sampled_from([0.0, 0.1, 0.35, 0.5, 0.7, 0.9, 1.0, -2.0]), min_size=n, max_size=n))
    weight = draw(st.one_of(st.none(), st.lists(st.integers(0, 3), min_size=n, max_size=n)))
    if weight is not None and not any(weight):
        weight[0] = 1
    return y_true, y_pred, confidence, weight


def _brute_force(y_true, y_pred, confidence, weight):
    """Each distinct threshold from the highest: the samples with confidence >= t, counted one by one."""
    w = [1] * len(y_true) if weight is None else weight
    total = sum(w)
    points = []
    for t in sorted({c for c, wi in zip(confidence, w) if wi > 0}, reverse=True):
        accepted = [i for i in range(len(y_true)) if confidence[i] >= t]
        mass = sum(w[i] for i in accepted)
        errors = sum(w[i] for i in accepted if y_true[i] != y_pred[i])
        points.append((t, mass / total, errors / mass))
    area, before = 0.0, 0.0
    for _, coverage, risk in points:
        area += (coverage - before) * risk
        before = coverage
    return points, area


@given(case=selective_cases())
def test_the_curve_and_its_area_equal_brute_force_at_every_threshold(case):
    y_true, y_pred, confidence, weight = case
    curve = RiskCoverage.from_predictions(y_true, y_pred, confidence, sample_weight=weight)
    points, area = _brute_force(y_true, y_pred, confidence, weight)
    assert curve.thresholds.tolist() == [t for t, _, _ in points]
    assert all(close(a, b) for a, b in zip(curve.coverage, [c for _, c, _ in points]))
    assert all(close(a, b) for a, b in zip(curve.risk, [r for _, _, r in points]))
    assert close(curve.aurc(), area)
    assert close(aurc(y_true, y_pred, confidence, sample_weight=weight), area)
    coverage, risk, thresholds = risk_coverage_curve(y_true, y_pred, confidence, sample_weight=weight)
    assert np.array_equal(coverage, curve.coverage) and np.array_equal(risk, curve.risk) and np.array_equal(thresholds, curve.thresholds)


@given(n=st.integers(1, 40), seed=st.integers(0, 10**6))
def test_with_distinct_confidences_aurc_is_the_mean_risk_of_the_k_most_confident(n, seed):
    # Geifman et al. 2019: AURC = (1/n) Σ_k risk of the k most confident samples.
    rng = np.random.default_rng(seed)
    correct = rng.integers(0, 2, n)
    confidence = rng.permutation(n) / n
    order = np.argsort(-confidence)
    top_k = np.cumsum(1 - correct[order]) / np.arange(1, n + 1)
    found = aurc(correct, np.ones(n, dtype=int), confidence)
    assert close(found, top_k.mean())
    assert close(auarc(correct, confidence), mapie_auarc(correct, confidence), rel=1e-12, abs=1e-12)


def test_mapie_keeps_tied_confidences_in_sort_order_where_evalkit_counts_them_as_one_step():
    # Two tied samples, one right and one wrong: MAPIE's value depends on which the sort puts first
    # (here 0.75 or 0.25 for the first accepted); a threshold accepts both at once: accuracy 1/2.
    correct, confidence = np.array([1, 0]), np.array([0.5, 0.5])
    assert auarc(correct, confidence) == 0.5
    assert mapie_auarc(correct, confidence) == pytest.approx(0.75)
    assert mapie_auarc(correct[::-1], confidence) == pytest.approx(0.25)


@settings(max_examples=40)
@given(case=selective_cases(max_size=20), measure=st.sampled_from([("recall", "macro"), ("f1_score", "micro"), ("precision", "weighted"), ("mcc", "macro")]))
def test_any_measure_at_a_threshold_is_the_measure_of_the_confusion_matrix_of_the_accepted(case, measure):
    y_true, y_pred, confidence, weight = case
    labels = ["a", "b", "c"]
    curve = RiskCoverage.from_predictions(y_true, y_pred, confidence, labels=labels, sample_weight=weight)
    values = curve.values(*measure)
    for j, threshold in enumerate(curve.thresholds):
        accepted = [i for i in range(len(y_true)) if confidence[i] >= threshold]
        matrix = ConfusionMatrix.from_predictions([y_true[i] for i in accepted], [y_pred[i] for i in accepted], labels=labels,
                                                  sample_weight=None if weight is None else [weight[i] for i in accepted])  # fmt: skip
        assert close(values[j], matrix.average(*measure))


def test_excess_aurc_subtracts_the_perfect_ranking_of_the_same_samples():
    # Geifman, Uziel & El-Yaniv 2019: E-AURC = AURC - AURC of the optimal ranking (every correct
    # sample first). Of n samples with e errors ranked so, the k-th error is accepted with
    # n - e + k samples: AURC* = (1/n) Σ_k k / (n - e + k), here (1/6)(1/5 + 2/6) = 4/45.
    y_true, y_pred = [0] * 6, [0, 0, 0, 0, 1, 1]
    curve = RiskCoverage.from_predictions(y_true, y_pred, [0.9, 0.8, 0.7, 0.6, 0.5, 0.4])  # both errors least confident
    assert curve.aurc() == pytest.approx(4 / 45, rel=1e-15)
    assert curve.excess_aurc() == 0.0  # a perfect ranking: no excess at all
    assert curve.aurc() - oracle_aurc(1 / 3) == pytest.approx(0.0259, abs=1e-4)  # where the continuous limit leaves 0.026
    worst = RiskCoverage.from_predictions(y_true, y_pred, [0.1, 0.2, 0.3, 0.4, 0.9, 0.8])
    assert worst.excess_aurc() == pytest.approx(worst.aurc() - 4 / 45, rel=1e-15) and worst.excess_aurc() > 0
    assert excess_aurc(y_true, y_pred, [0.1, 0.2, 0.3, 0.4, 0.9, 0.8]) == worst.excess_aurc()
    assert oracle_aurc(0.0) == 0.0 and oracle_aurc(1.0) == 1.0


@given(case=selective_cases())
def test_any_confidence_that_puts_every_correct_sample_first_has_no_excess(case):
    y_true, y_pred, _, weight = case
    right = [a == p for a, p in zip(y_true, y_pred)]
    order = sorted(range(len(y_true)), key=lambda i: (right[i], -(weight[i] if weight else 1)))  # wrong ones first, the heaviest first
    confidence = [0.0] * len(y_true)
    for rank, i in enumerate(order):
        confidence[i] = float(rank)  # distinct: the correct ones above every wrong one, the lightest wrong one highest among those
    curve = RiskCoverage.from_predictions(y_true, y_pred, confidence, sample_weight=weight)
    assert curve.excess_aurc() == 0.0
    coverage, risk = curve.oracle_risk()
    assert close(float(np.dot(np.diff(np.concatenate(([0.0], coverage))), risk)), curve.aurc())


@given(case=selective_cases(), reversed_=st.booleans())
def test_the_excess_is_never_below_zero(case, reversed_):
    y_true, y_pred, confidence, weight = case
    curve = RiskCoverage.from_predictions(y_true, y_pred, [-c for c in confidence] if reversed_ else confidence, sample_weight=weight)
    assert curve.excess_aurc() >= 0.0


def test_the_excess_of_a_model_wrong_on_every_sample_is_zero():
    # Hypothesis: steps of 4/6, 1/6, 1/6 against six of 1/6, all at risk 1, read -1.1e-16
    curve = RiskCoverage.from_predictions(list("abbaaa"), list("baabbb"), [0.0, 0.0, 0.0, 0.0, -0.1, -0.35])
    assert math.isclose(curve.aurc(), 1.0, rel_tol=2**-52) and curve.excess_aurc() == 0.0


def test_the_risk_is_one_division_of_the_wrong_weight_by_the_accepted():
    # 2 errors of 6: 2/6, not 1 - 4/6 = 0.33333333333333337
    curve = RiskCoverage.from_predictions([0] * 8, [0] * 4 + [1, 1, 1, 1], [9, 8, 7, 6, 5, 4, 3, 2])
    assert curve.risk.tolist()[5] == 2 / 6 and curve.error_rate == 0.5
    assert curve.coverage.tolist() == [k / 8 for k in range(1, 9)]


@given(case=selective_cases(), risk=st.sampled_from([0.0, 0.1, 0.2, 0.25, 1 / 3, 0.5, 2 / 3, 0.75, 1.0]),
       coverage=st.sampled_from([0.1, 0.25, 1 / 3, 0.5, 2 / 3, 0.75, 1.0]))  # fmt: skip
def test_coverage_at_a_risk_and_risk_at_a_coverage_equal_brute_force(case, risk, coverage):
    # Brute force: every distinct threshold, its coverage and risk as Python divisions of the counts.
    y_true, y_pred, confidence, weight = case
    curve = RiskCoverage.from_predictions(y_true, y_pred, confidence, sample_weight=weight)
    points, _ = _brute_force(y_true, y_pred, confidence, weight)
    within = [c for _, c, r in points if r <= risk]
    assert curve.coverage_at(risk) == (max(within) if within else 0.0)
    reaching = [r for _, c, r in points if c >= coverage]
    assert curve.risk_at(coverage) == reaching[0]


def test_float_weights_are_summed_exactly():
    # A weight of 1e-10 beside 1.0 stays when the 1.0 is taken away, and merged parts taken away give the other part.
    heavy = RiskCoverage.from_predictions(["a"], ["a"], [0.5], labels=["a", "b"], sample_weight=[1.0])
    light = RiskCoverage.from_predictions(["a"], ["b"], [0.5], labels=["a", "b"], sample_weight=[1e-10])
    both = heavy + light
    assert both.n_samples == 1.0000000001 and (both - heavy) == light and (both - light) == heavy
    assert (both - heavy).error_rate == 1.0 and (both - heavy).n_samples == 1e-10
    big = RiskCoverage.from_predictions(["a"], ["a"], [0.5], labels=["a", "b"], sample_weight=[1e9])
    half = RiskCoverage.from_predictions(["a"], ["a"], [0.5], labels=["a", "b"], sample_weight=[0.5])
    assert ((big + half) - big) == half and ((big + half) - big).n_samples == 0.5
    assert RiskCoverage.from_json((big + light).to_json()) - big == light


def test_weights_of_any_size_read_correctly_rounded_risks_and_areas():
    # Each risk is one correctly rounded division of exact sums, whatever the weights' sizes:
    # 0.1, 0.1, 1e-10 (a float64 running sum read 0.5000000002499999), 1e300 beside 5e-324 (whole
    # numbers of their common unit beyond float64), two of 5e-324 (the area 0.5 · 0.5: weights
    # times risks underflowed to 0). Weights summing beyond float64 are refused where given.
    for y_pred, confidence, weights in (([0, 1, 1], [3.0, 2.0, 1.0], [0.1, 0.1, 1e-10]), ([0, 1], [0.9, 0.1], [1e300, 5e-324]),
                                        ([0, 1], [0.9, 0.1], [5e-324, 5e-324]), ([0, 1], [0.9, 0.1], [1e307, 1e307])):  # fmt: skip
        curve = RiskCoverage.from_predictions([0] * len(y_pred), y_pred, confidence, sample_weight=weights)
        exact = [Fraction(w) for w in weights]
        wrong = [sum(w for w, p in zip(exact[: k + 1], y_pred[: k + 1]) if p) for k in range(len(exact))]
        assert curve.risk.tolist() == [float(e / sum(exact[: k + 1])) for k, e in enumerate(wrong)], weights
    assert RiskCoverage.from_predictions([0, 0], [0, 1], [0.9, 0.1], sample_weight=[5e-324, 5e-324]).aurc() == 0.25
    assert RiskCoverage.from_predictions([0, 0], [0, 1], [0.9, 0.1], sample_weight=[1e307, 1e307]).aurc() == 0.25
    with pytest.raises(CountOverflowError, match="'sample_weight' sums beyond"):
        RiskCoverage.from_predictions([0, 0], [0, 1], [0.9, 0.1], sample_weight=[1e308, 1e308])


def test_excess_aurc_of_a_perfect_ranking_is_zero_with_weights_of_any_size():
    # every correct sample ranked above the wrong one: the curve is the oracle's (it read 1.5e-36)
    curve = RiskCoverage.from_predictions([0, 0, 0, 0], [0, 0, 0, 1], [10.0, 11.0, 12.0, 5.0], sample_weight=[1.0, 0.1, 0.1, 1e-10])
    assert curve.excess_aurc() == 0.0 and curve.aurc() > 0.0


def test_risk_at_a_coverage_and_coverage_at_a_risk_read_the_right_point():
    curve = RiskCoverage.from_predictions([1] * 10, [1] * 7 + [0] * 3, [10, 9, 8, 7, 6, 5, 4, 3, 2, 1])  # errors at confidences 3, 2, 1
    assert curve.risk_at(0.7) == 0.0 and curve.risk_at(0.75) == pytest.approx(1 / 8) and curve.risk_at(1.0) == pytest.approx(0.3)
    assert curve.coverage_at(0.0) == pytest.approx(0.7) and curve.coverage_at(0.2) == pytest.approx(0.8) and curve.coverage_at(1.0) == 1.0
    never = RiskCoverage.from_predictions([1, 1], [0, 0], [1, 2])
    assert never.coverage_at(0.1) == 0.0
    interval = curve.risk_interval(1.0, method="clopper-pearson")
    assert interval.estimate == pytest.approx(0.3) and interval.low < 0.3 < interval.high


def test_the_interval_of_the_selective_risk_covers_its_true_value_at_its_level():
    # 2,000 simulated test sets of 200 samples whose most confident 150 err with probability 0.1:
    # the 95% Wilson interval of the risk at coverage 0.75 should hold 0.1 about 95% of the time.
    rng = np.random.default_rng(7)
    confidence = np.arange(200, 0, -1)
    held = 0
    for _ in range(2000):
        wrong = np.concatenate((rng.random(150) < 0.1, rng.random(50) < 0.5))
        curve = RiskCoverage.from_predictions(np.ones(200, dtype=int), np.where(wrong, 0, 1), confidence, labels=[0, 1])
        interval = curve.risk_interval(0.75)
        held += interval.low <= 0.1 <= interval.high
    assert 0.93 <= held / 2000 <= 0.97


def test_bad_input_is_refused_with_the_argument_named():
    with pytest.raises(InvalidValueError, match=r"'confidence' must be finite, got nan at position 1"):
        RiskCoverage.from_predictions([0, 1], [0, 1], [0.5, float("nan")])
    with pytest.raises(InputLengthError, match="'confidence' has 1 values for 2 samples"):
        RiskCoverage.from_predictions([0, 1], [0, 1], [0.5])
    with pytest.raises(UnknownLabelError):
        RiskCoverage.from_predictions([0, 2], [0, 1], [0.5, 0.2], labels=[0, 1])
    curve = RiskCoverage.from_predictions([0, 1], [0, 1], [0.5, 0.2])
    with pytest.raises(InvalidArgumentError, match="'coverage' must be a number in \\(0, 1\\], got 0"):
        curve.risk_at(0)
    with pytest.raises(InvalidArgumentError, match="'risk'"):
        curve.coverage_at(1.5)
    with pytest.raises(InvalidCountsError):
        curve - RiskCoverage.from_predictions([0], [1], [0.5])
    with pytest.raises(InvalidArgumentError, match="'correctness' must hold only 0 and 1"):
        auarc([0, 2], [0.1, 0.2])


def test_update_revert_and_merge_follow_the_stream():
    whole = RiskCoverage.from_predictions(["a", "b", "b", "c"], ["a", "a", "b", "c"], [0.2, 0.9, 0.9, 0.4])
    stream = RiskCoverage()
    stream.update(["a", "b"], ["a", "a"], [0.2, 0.9])
    stream.update(["b", "c"], ["b", "c"], [0.9, 0.4])
    assert stream == whole and stream.labels == ("a", "b", "c")
    stream.revert(["b", "c"], ["b", "c"], [0.9, 0.4])
    assert stream == RiskCoverage.from_predictions(["a", "b"], ["a", "a"], [0.2, 0.9], labels=["a", "b", "c"])
    assert RiskCoverage.from_json(whole.to_json()) == whole
    assert whole.scaled(0.5).aurc() == pytest.approx(whole.aurc()) and whole.scaled(0.5).n_samples == 2.0
    assert math.isnan(RiskCoverage().aurc())


@pytest.mark.parametrize("kind", ['RiskCoverage'])
@given(data=counted_samples())
def test_a_risk_coverage_curve_follows_the_counted_state_protocol(kind, data):
    """Merged parts equal the whole in any order, ``(a + b) - b == a``, scaling, JSON and
    pickle round trips (``harness.check_kind``)."""
    check_kind(kind, data)


def test_a_pickle_of_the_curve_before_it_was_declared_loads_and_reads_the_same():
    """evalkit 0.1.0 pickled a curve as its labels and its entries apart (confidence, actual,
    predicted, weight): such a state loads into the declared curve, equal to the curve counted
    again; reading a curve adds nothing to its pickle."""
    import pickle

    counted = RiskCoverage.from_predictions(list("abab"), list("aabb"), [0.9, 0.8, 0.7, 0.6], sample_weight=[1.0, 0.5, 2.0**-70, 3.0])
    table = counted._table
    old = RiskCoverage.__new__(RiskCoverage)
    old.__setstate__({"fixed": False, "labels": ("a", "b"), "entries": (table.score, table.codes[0], table.codes[1], table.weight)})
    assert old == counted and old.aurc() == counted.aurc()
    before = len(pickle.dumps(counted))
    counted.values("recall")
    assert len(pickle.dumps(counted)) == before and pickle.loads(pickle.dumps(counted)) == counted


def test_new_labels_that_only_equal_the_classes_counted_are_refused():
    with pytest.raises(LabelMismatchError, match="missing"):
        RiskCoverage.from_predictions([True], [True], [0.5]).with_labels([1])  # True is not the class 1
    assert RiskCoverage.from_predictions([True], [True], [0.5]).with_labels([False, True]).labels == (False, True)


def test_whole_weights_whose_total_is_beyond_int64_are_refused_not_wrapped():
    big = np.array([2**62, 2**62])
    with pytest.raises(CountOverflowError):
        RiskCoverage.from_predictions(["a", "a"], ["a", "a"], [0.5, 0.5], sample_weight=big)
    half = RiskCoverage.from_predictions(["a"], ["a"], [0.5], sample_weight=big[:1])
    with pytest.raises(CountOverflowError):
        half + half
