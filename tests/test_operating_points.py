"""Operating points, gain, lift and KS: ThresholdCurve.optimize against a brute-force search
over every threshold, written sample by sample; the scikit-learn-style functions; KS against
scipy; gains tables; the Bayes decision under a cost matrix."""

from __future__ import annotations

import math
import operator
import warnings

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy import stats
from strategies import binary_case, class_probabilities, close, make_weight

from evalkit import CostMatrix, ThresholdCurve, metrics
from evalkit._scores.gains import gains_table
from evalkit.exceptions import InvalidArgumentError, InvalidTypeError, UnsupportedSettingError
from evalkit.formulas import get_measure

COMPARE = {">=": operator.ge, "<=": operator.le, ">": operator.gt, "<": operator.lt}
OBJECTIVES = ["precision", "recall", "f1_score", "specificity", "false_positive_rate", "matthews_correlation_coefficient", "informedness"]
CONSTRAINED = ["recall", "precision", "specificity", "false_positive_rate", "negative_predictive_value"]


def cells_at(scores, positive, weights, threshold):
    """tp, fp, fn, tn when predicting positive at score >= threshold, sample by sample."""
    tp = fp = fn = tn = 0
    for score, hit, weight in zip(scores, positive, weights):
        if score >= threshold:
            tp, fp = (tp + weight, fp) if hit else (tp, fp + weight)
        else:
            fn, tn = (fn + weight, tn) if hit else (fn, tn + weight)
    return {"tp": tp, "fp": fp, "fn": fn, "tn": tn}


def _slack(op, value):
    """How far a value is on the good side of its constraint (torchmetrics' tie rule: of equal
    precision at a recall bound, the higher recall)."""
    return value if op in (">=", ">") else -value if op in ("<=", "<") else 0.0


def brute_force(scores, positive, weights, objective, constraints):
    """The best (threshold, value) over every distinct score and +inf; among ties the one
    farthest on the good side of each constraint in turn (a point no tie dominates), then the
    highest threshold; None when no threshold meets every constraint."""
    candidates = [math.inf, *sorted({s for s, w in zip(scores, weights) if w > 0}, reverse=True)]
    measure = get_measure(objective)
    best, rank = None, None
    for threshold in candidates:
        cells = cells_at(scores, positive, weights, threshold)
        achieved = [get_measure(name)(**cells) for name, _, _ in constraints]
        if not all(_holds(found, op, bound) for found, (_, op, bound) in zip(achieved, constraints)):
            continue
        value = measure(**cells)
        if math.isnan(value):
            continue
        key = (value if measure.direction == "higher" else -value, *(_slack(op, found) for found, (_, op, _) in zip(achieved, constraints)))
        if best is None or key > rank:  # candidates run from the highest threshold: a full tie keeps the higher one
            best, rank = (threshold, value), key
    return best


def ks_2samp(first, second):
    """scipy's two-sample KS statistic (its p-value, which warns on tiny samples, is not needed)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return stats.ks_2samp(first, second, method="asymp").statistic


def _holds(value, op, bound):
    return not math.isnan(value) and COMPARE[op](value, bound)


constraint = st.tuples(st.sampled_from(CONSTRAINED), st.sampled_from([">=", "<=", ">", "<"]), st.sampled_from([0.0, 0.25, 0.5, 0.75, 0.9, 1.0]))


@given(binary_case(), st.sampled_from([None, "int", "float"]), st.sampled_from(OBJECTIVES), st.lists(constraint, max_size=2), st.data())
def test_optimize_equals_a_brute_force_search(case, weights, objective, constraints, data):
    y, scores = case
    w = make_weight(weights, len(y), data) or [1] * len(y)
    positive = [v == 1 for v in y]
    assume(any(w_ > 0 and p for w_, p in zip(w, positive)) and any(w_ > 0 and not p for w_, p in zip(w, positive)))
    curve = ThresholdCurve.from_scores(y, scores, sample_weight=None if weights is None else w)
    point = curve.optimize(objective, subject_to=[f"{name} {op} {bound}" for name, op, bound in constraints])
    expected = brute_force(scores, positive, w, objective, constraints)
    assert point.feasible == (expected is not None)
    if expected is None:
        assert math.isnan(point.threshold) and math.isnan(point.value) and point.cells is None
        return
    assert point.threshold == expected[0] and close(point.value, expected[1], rel=1e-9, abs=1e-12), (point, expected)
    for name, op, bound in constraints:  # the achieved values meet the constraints, and are the cells' values
        achieved = point.achieved[get_measure(name).name]
        assert _holds(achieved, op, bound)
        assert close(achieved, get_measure(name)(**cells_at(scores, positive, w, point.threshold)), rel=1e-9, abs=1e-12)


@given(class_probabilities(max_size=20, max_classes=3), st.sampled_from(["macro", "micro", "weighted"]), st.sampled_from([0.0, 0.5, 0.8]))
def test_an_averaged_operating_point_is_one_threshold_for_every_class(case, average, bound):
    labels, probabilities = case
    m = probabilities.shape[1]
    curve = ThresholdCurve.from_scores(labels, probabilities)
    point = curve.optimize("f1_score", subject_to={"recall": (">=", bound)}, average=average)
    candidates = [math.inf, *sorted(set(probabilities.ravel().tolist()), reverse=True)]
    best = None
    for threshold in candidates:  # every class's cells at one threshold, averaged by the curve's own averaging
        values = []
        for name in ("f1_score", "recall"):
            per_class = [cells_at(probabilities[:, k], labels == k, [1] * len(labels), threshold) for k in range(m)]
            values.append(_average(name, per_class, average))
        if _holds(values[1], ">=", bound) and not math.isnan(values[0]) and (best is None or (values[0], values[1]) > best[1:]):
            best = (threshold, values[0], values[1])  # ties: the higher recall
    assert point.feasible == (best is not None)
    if best is not None:
        assert point.threshold == best[0] and close(point.value, best[1], rel=1e-9, abs=1e-12)


def _average(name, per_class, average):
    measure = get_measure(name)
    if average == "micro":
        return measure(**{key: sum(cells[key] for cells in per_class) for key in ("tp", "fp", "fn", "tn")})
    values = np.array([measure(**cells) for cells in per_class])
    weights = np.ones(len(values)) if average == "macro" else np.array([cells["tp"] + cells["fn"] for cells in per_class], dtype=float)
    kept = ~np.isnan(values)
    return float(np.average(values[kept], weights=weights[kept])) if kept.any() and weights[kept].sum() > 0 else math.nan


def test_operating_points_at_the_extremes_and_per_class():
    curve = ThresholdCurve.from_scores([0, 1, 0, 1], [0.9, 0.8, 0.3, 0.2])
    nothing = curve.optimize("recall", subject_to="false_positive_rate <= 0")  # only above every score: nothing predicted positive
    assert (nothing.feasible, nothing.threshold, nothing.value) == (True, math.inf, 0.0)
    everything = curve.optimize("specificity", subject_to="recall >= 1")  # only at the lowest score
    assert (everything.threshold, everything.value) == (0.2, 0.0)
    impossible = curve.optimize("recall", subject_to="precision > 0.99")
    assert not impossible.feasible and str(impossible).startswith("no threshold meets")
    per_class = ThresholdCurve.from_scores([0, 1, 2, 1], np.eye(3)[[0, 1, 2, 0]]).optimize("recall", subject_to="precision >= 0.5")
    assert list(per_class) == [0, 1, 2] and per_class[2].threshold == 1.0 and (per_class[1].threshold, per_class[1].value) == (0.0, 1.0)
    with pytest.raises(InvalidArgumentError, match="cannot read the constraint"):
        curve.optimize("recall", subject_to="recall is high")
    with pytest.raises(InvalidArgumentError, match="operator"):
        curve.optimize("recall", subject_to={"precision": ("=", 0.5)})
    with pytest.raises(InvalidArgumentError, match="no direction"):
        curve.optimize("prevalence")
    with pytest.raises(InvalidTypeError, match="subject_to"):
        curve.optimize("recall", subject_to=0.5)


def test_the_tie_rule_is_the_highest_threshold():
    curve = ThresholdCurve.from_scores([1, 1, 0, 0], [0.9, 0.8, 0.4, 0.1])
    assert curve.optimize("precision").threshold == 0.9  # precision 1 at 0.9 and 0.8: the highest threshold
    assert curve.optimize("accuracy").threshold == 0.8


@given(binary_case(min_size=2), st.sampled_from([0.0, 0.5, 0.8, 1.0]))
def test_the_fixed_value_functions_are_their_optimisations(case, bound):
    y, scores = case
    assume(0 < sum(y) < len(y))
    positive, ones = [v == 1 for v in y], [1] * len(y)
    for function, objective, constrained, keyword in (
        (metrics.precision_at_fixed_recall, "precision", "recall", "min_recall"),
        (metrics.recall_at_fixed_precision, "recall", "precision", "min_precision"),
        (metrics.sensitivity_at_specificity, "recall", "specificity", "min_specificity"),
        (metrics.specificity_at_sensitivity, "specificity", "recall", "min_sensitivity"),
    ):
        value, threshold = function(y, scores, **{keyword: bound})
        expected = brute_force(scores, positive, ones, objective, [(constrained, ">=", bound)])
        if expected is None:
            assert math.isnan(value) and math.isnan(threshold)
        else:
            assert threshold == expected[0] and close(value, expected[1])


def test_the_fixed_value_functions_per_class_and_their_errors():
    y = np.array([0, 1, 2, 2, 1, 0])
    scores = np.eye(3)[[0, 1, 2, 1, 1, 2]] * 0.6 + 0.2
    values, thresholds = metrics.precision_at_fixed_recall(y, scores / scores.sum(axis=1, keepdims=True), min_recall=0.5)
    assert values.shape == thresholds.shape == (3,)
    rng = np.random.default_rng(3)
    indicators = (rng.random((40, 3)) < 0.4).astype(int)
    label_scores = rng.random((40, 3))
    values, thresholds = metrics.sensitivity_at_specificity(indicators, label_scores, min_specificity=0.8)  # multi-label: per label
    for k in range(3):
        expected = brute_force(label_scores[:, k], indicators[:, k] == 1, [1] * 40, "recall", [("specificity", ">=", 0.8)])
        assert (thresholds[k], values[k]) == pytest.approx(expected)
    micro = ThresholdCurve.from_scores(indicators, label_scores).micro()
    pooled = ks_2samp(label_scores[indicators == 1], label_scores[indicators == 0])
    assert micro.ks_statistic() == pytest.approx(pooled)  # KS of every (score, label) pair pooled
    with pytest.raises(InvalidArgumentError, match="minimum recall must be a number in"):
        metrics.precision_at_fixed_recall([0, 1], [0.2, 0.7], min_recall=1.5)


# --------------------------------------------------------------------------------------------
# intervals of an operating point


def test_an_operating_point_has_intervals_of_its_value_and_threshold():
    rng = np.random.default_rng(1)
    y = rng.random(300) < 0.4
    curve = ThresholdCurve.from_scores(y, rng.normal(1.5 * y, 1.0))
    found = curve.operating_interval("precision", subject_to="recall >= 0.8", random_state=0, n_resamples=300)
    assert found.point == curve.optimize("precision", subject_to="recall >= 0.8")
    assert found.value.low <= found.point.value <= found.value.high and found.threshold.low <= found.point.threshold <= found.threshold.high
    assert found.n_infeasible == 0 and found.value.method == "percentile"
    best = curve.optimize("precision", subject_to="recall >= 0.5").value  # the data just reach it: some resamples do not
    hard = curve.operating_interval("recall", subject_to=f"precision >= {best!r} and recall >= 0.5", random_state=0, n_resamples=200)
    assert hard.point.feasible and 0 < hard.n_infeasible < 200 and hard.value.n_undefined == 0
    with pytest.raises(UnsupportedSettingError, match="exact curve"):
        ThresholdCurve.from_scores(y, rng.random(300), thresholds=11).operating_interval("recall")


# --------------------------------------------------------------------------------------------
# gain, lift, KS


@given(binary_case(min_size=2), st.sampled_from([None, "int", "float"]), st.data())
def test_gains_lift_and_ks_from_their_definitions(case, weights, data):
    y, scores = case
    w = make_weight(weights, len(y), data) or [1] * len(y)
    positive = [v == 1 for v in y]
    total, hits = sum(w), sum(x for x, p in zip(w, positive) if p)
    misses = sum(x for x, p in zip(w, positive) if not p)  # not total - hits, which cancels when the negatives weigh little
    assume(hits > 0 and misses > 0)
    curve = ThresholdCurve.from_scores(y, scores, sample_weight=None if weights is None else w)
    targeted, captured, thresholds = curve.gains()
    for share, gain, threshold in zip(targeted, captured, thresholds):
        cells = cells_at(scores, positive, w, threshold)
        assert close(share, (cells["tp"] + cells["fp"]) / total) and close(gain, cells["tp"] / hits)
    shares, lifted, _ = curve.lift()
    assert np.array_equal(shares, targeted[1:]) and np.allclose(lifted, captured[1:] / targeted[1:], equal_nan=True)
    distances = [abs(cells_at(scores, positive, w, t)["tp"] / hits - cells_at(scores, positive, w, t)["fp"] / misses) for t in thresholds]
    assert close(curve.ks_statistic(), max(distances))
    if weights is None:
        s = np.array(scores)
        assert close(curve.ks_statistic(), ks_2samp(s[np.array(positive)], s[~np.array(positive)]))


def test_a_gains_table_cuts_at_the_first_threshold_reaching_each_share():
    rng = np.random.default_rng(2)
    y = rng.random(500) < 0.2
    scores = np.round(rng.normal(y * 1.0, 1.0), 1)  # many ties
    curve = ThresholdCurve.from_scores(y, scores)
    table = gains_table(curve)
    targeted, _, thresholds = curve.gains()
    assert len(table.rows) == 10 and table.base_rate == pytest.approx(y.mean())
    for (group, threshold, share, samples, positives, gain, response, lift), k in zip(table.rows, range(1, 11)):
        assert group == k
        first = int(np.argmax(targeted >= k / 10 - 1e-12))
        assert threshold == thresholds[first] and share == targeted[first] >= k / 10 - 1e-12
        assert samples == int((scores >= threshold).sum()) and positives == int((y & (scores >= threshold)).sum())
        assert gain == pytest.approx(positives / y.sum()) and lift == pytest.approx(response / y.mean())
    assert table.rows[-1][2] == 1.0 and "lift" in table.to_text() and table.to_csv().startswith("group,threshold")
    assert table.to_dict(strict=True)["rows"][0]["group"] == 1 and "| group |" in table.to_markdown()
    with pytest.raises(InvalidArgumentError, match="'groups'"):
        gains_table(curve, groups=0)


# --------------------------------------------------------------------------------------------
# the Bayes decision under costs


@given(class_probabilities(max_classes=4), st.data())
def test_the_bayes_decision_minimises_the_expected_cost(case, data):
    _, probabilities = case
    m = probabilities.shape[1]
    costs = np.array(data.draw(st.lists(st.lists(st.integers(0, 9), min_size=m, max_size=m), min_size=m, max_size=m)), dtype=float)
    matrix = CostMatrix.from_array(costs, [f"c{k}" for k in range(m)])
    decided = matrix.decide(probabilities)
    for row, label in zip(probabilities, decided):
        expected = [math.fsum(row[j] * costs[j, k] for j in range(m)) for k in range(m)]
        cheapest = min(expected)
        assert expected[int(label[1:])] <= cheapest + 1e-12  # the cheapest (up to the last bit of a sum)
    ordered = np.sort(probabilities, axis=1)
    clear = ordered[:, -1] - ordered[:, -2] > 1e-9  # (equal probabilities may differ in the last bit of their expected costs)
    chosen = np.array(CostMatrix.zero_one(list(range(m))).decide(probabilities))
    assert np.array_equal(chosen[clear], probabilities.argmax(axis=1)[clear])  # zero-one costs: the most probable class
    assert CostMatrix.zero_one(["a", "b"]).decide([[0.5, 0.5]]) == ["a"]  # ties: the first label


def test_ties_at_the_best_value_give_the_point_no_tie_dominates():
    """Precision 1.0 is reached at 0.99 (recall 1/3) and at 0.97 (recall 2/3): the second is
    the answer (torchmetrics' ``max((precision, recall, threshold))``), not the highest
    threshold of the tie; the siblings alike."""
    y, scores = [1, 1, 1, 0, 0], [0.99, 0.97, 0.4, 0.5, 0.1]
    assert metrics.precision_at_fixed_recall(y, scores, min_recall=0.0) == (1.0, 0.97)
    assert metrics.specificity_at_sensitivity(y, scores, min_sensitivity=0.0) == (1.0, 0.97)  # specificity 1 at 0.99 and 0.97: recall decides
    assert metrics.recall_at_fixed_precision([1, 1, 0, 0], [0.9, 0.8, 0.3, 0.3], min_precision=0.5) == (1.0, 0.8)  # recall 1 at 0.8 and 0.3
    curve = ThresholdCurve.from_scores(y, scores)
    point = curve.optimize("precision", subject_to="false_positive_rate <= 0.5")
    assert point.threshold == 0.99 and point.achieved["false_positive_rate"] == 0.0  # a tie on the constraint too: the highest threshold
