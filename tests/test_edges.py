"""The edges of the number range and of the arguments: no silent wrong number.

- Uniformly scaled weights do not change a scale-free measure, from 1e-300 to 1e300 (float
  products would overflow or vanish without the rescaling by a power of two).
- Where the exact value is a rational or the square root of one, it is correctly rounded (a
  perfect matrix's MCC is 1.0, not 0.9999999999999998), and summaries keep min <= mean <= max.
- Every argument is checked: one label where one is meant, counts of proportions, flags,
  random states, options a method would ignore, non-finite labels, probabilities and scores.
"""

import math
from decimal import Decimal, getcontext
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalkit import ClassificationMetrics, ConfusionMatrix, Evaluation, Stats, intervals
from evalkit import metrics as ek
from evalkit.cli import main
from evalkit.exceptions import EvalkitError, InvalidCountsError, InvalidLabelError
from evalkit.formulas import exact_ratio_sqrt

Y_TRUE = [0, 1, 0, 1, 1, 0, 2, 2, 1, 0]
Y_PRED = [0, 1, 1, 1, 0, 0, 2, 1, 1, 2]
SCORES = [0.1, 0.9, 0.4, 0.35, 0.8, 0.6, 0.3, 0.7, 0.75, 0.2]
BINARY = [0, 1, 0, 1, 1, 0, 1, 0, 1, 0]


def scale_free_values(weight):
    """Scale-free values of every kind: curve areas, whole-matrix MCC and kappa, macro
    informedness and markedness, a getter, set-wise averages."""
    evaluation = Evaluation.from_labels(Y_TRUE, Y_PRED, sample_weight=weight)
    matrix = ConfusionMatrix.from_predictions(Y_TRUE, Y_PRED, sample_weight=weight)
    return [
        ek.roc_auc_score(BINARY, SCORES, sample_weight=weight),
        ek.average_precision_score(BINARY, SCORES, sample_weight=weight),
        ek.matthews_corrcoef(Y_TRUE, Y_PRED, sample_weight=weight),
        ek.cohen_kappa_score(Y_TRUE, Y_PRED, sample_weight=weight),
        ek.f1_score(Y_TRUE, Y_PRED, average="macro", sample_weight=weight),
        evaluation.average("informedness", "macro"),
        evaluation.average("markedness", "macro"),
        evaluation.average("matthews_correlation_coefficient", "weighted"),
        matrix.class_metrics()[1].get_matthews_correlation_coefficient(),
        matrix.class_metrics()[0].get_diagnostic_odds_ratio(),
        matrix.get_cohen_kappa(),
    ]


@settings(max_examples=80, deadline=None)
@given(st.integers(-300, 300), st.lists(st.floats(0.25, 4.0), min_size=10, max_size=10))
def test_uniformly_scaled_weights_do_not_change_a_scale_free_measure(exponent, weights):
    reference = scale_free_values(weights)
    scaled = scale_free_values([w * 10.0**exponent for w in weights])
    for ours, expected in zip(scaled, reference):
        assert math.isfinite(ours) == math.isfinite(expected) and (not math.isfinite(expected) or ours == pytest.approx(expected, rel=1e-9)), (
            exponent, ours, expected)  # fmt: skip


def test_the_examples_of_extreme_weights():
    y, s = [0, 1, 0, 1, 1, 0], [0.1, 0.9, 0.4, 0.35, 0.8, 0.6]
    for weight in (1e160, 1e-300, 1e300):
        assert ek.roc_auc_score(y, s, sample_weight=[weight] * 6) == pytest.approx(ek.roc_auc_score(y, s), rel=1e-12)
        assert ek.average_precision_score(y, s, sample_weight=[weight] * 6) == pytest.approx(ek.average_precision_score(y, s), rel=1e-12)


# --------------------------------------------------------------------------------------------
# correctly rounded where an exact answer exists


@settings(max_examples=400, deadline=None)
@given(st.integers(-(2**70), 2**70), st.integers(1, 2**80), st.integers(1, 2**80))
def test_a_ratio_to_a_square_root_is_correctly_rounded(numerator, left, right):
    getcontext().prec = 80
    exact = (Decimal(numerator * numerator) / Decimal(left * right)).sqrt()
    expected = float(exact) if numerator >= 0 else -float(exact)
    assert exact_ratio_sqrt(numerator, left, right) == expected


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(1, 10**6), min_size=2, max_size=8))
def test_a_perfect_matrix_has_an_mcc_of_exactly_one(diagonal):
    matrix = ConfusionMatrix.from_array(np.diag(diagonal))
    assert matrix.get_matthews_correlation_coefficient() == 1.0
    assert all(metrics.get_matthews_correlation_coefficient() == 1.0 for metrics in matrix.class_metrics())
    assert ek.matthews_corrcoef([k for k, count in enumerate(diagonal) for _ in range(min(count, 5))],
                                [k for k, count in enumerate(diagonal) for _ in range(min(count, 5))]) == 1.0  # fmt: skip


def test_getters_and_vectors_agree_to_the_bit_on_large_integer_counts():
    counts = {"tp": 2**61 + 3, "fp": 2**60 + 1, "fn": 2**59 + 7, "tn": 2**62 + 5}
    matrix = ConfusionMatrix.from_array(np.array([[counts["tp"], counts["fn"]], [counts["fp"], counts["tn"]]], dtype=object))
    first = matrix.class_metrics()[0]
    vector = Evaluation.from_labels([0], [0]).measure("matthews_correlation_coefficient")(
        tp=np.array([counts["tp"]], dtype=object), fp=np.array([counts["fp"]], dtype=object), fn=np.array([counts["fn"]], dtype=object),
        tn=np.array([counts["tn"]], dtype=object))  # fmt: skip
    exact = Fraction(counts["tp"] * counts["tn"] - counts["fp"] * counts["fn"]) ** 2 / (
        (counts["tp"] + counts["fp"]) * (counts["tp"] + counts["fn"]) * (counts["tn"] + counts["fp"]) * (counts["tn"] + counts["fn"]))
    getcontext().prec = 80
    expected = float((Decimal(exact.numerator) / Decimal(exact.denominator)).sqrt())
    assert first.get_matthews_correlation_coefficient() == vector[0] == expected


@settings(max_examples=200, deadline=None)
@given(st.floats(0, 1, allow_subnormal=False), st.integers(2, 9))
def test_the_mean_of_identical_values_is_that_value(value, n):
    metrics = [ClassificationMetrics(ConfusionMatrix.from_predictions([0, 1], [0, 1]), 0) for _ in range(n)]
    stats = ClassificationMetrics.average(metrics)
    assert isinstance(stats, Stats)
    summary = stats.summary("accuracy")
    assert summary.min <= summary.mean <= summary.max
    from evalkit.averaging import summarize_rows

    row = summarize_rows([[value] * n])[0]
    assert row.min == row.mean == row.max == value and row.std == 0.0


# --------------------------------------------------------------------------------------------
# every argument checked


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
        (lambda: intervals.compare([0, 1, 1, 0], [0, 1, 0, 0], [0, 1, 1, 1], random_state="x"), ValueError),
        (lambda: ConfusionMatrix.from_predictions([0, 1, 1], [0, 1, 0]).interval("f1_score", "macro", random_state=-1), ValueError),
        (lambda: intervals.compare([0, 1, 1, 0], [0.1, 0.9, 0.4, 0.3], [0.2, 0.8, 0.6, 0.1], method="delong", sample_weight=[1, 2, 1, 1]), ValueError),
        (lambda: intervals.compare([0, 1, 1, 0], [0.1, 0.9, 0.4, 0.3], [0.2, 0.8, 0.6, 0.1], method="delong", labels=[0, 1]), ValueError),
        (lambda: intervals.compare([0, 1, 1, 0], [0.1, 0.9, 0.4, 0.3], [0.2, 0.8, 0.6, 0.1], method="delong", measure="f1_score"), ValueError),
    ],
)
def test_a_bad_argument_is_refused_naming_it(call, error):
    with pytest.raises(error) as caught:
        call()
    assert isinstance(caught.value, EvalkitError)


def test_delong_takes_its_own_measure_by_name():
    found = intervals.compare([0, 1, 1, 0, 1], [0.1, 0.9, 0.4, 0.3, 0.8], [0.2, 0.8, 0.6, 0.1, 0.9], method="delong", measure="roc_auc")
    assert found.method == "delong"


@pytest.mark.parametrize(
    "call",
    [
        lambda: ek.accuracy_score([0, 1], [np.inf, np.inf]),
        lambda: ek.f1_score([np.inf, 1, 2], [1, 2, 3], average="macro"),
        lambda: ek.confusion_matrix([0.0, -np.inf], [0.0, 1.0]),
        lambda: Evaluation.from_labels([1.0, float("inf")], [1.0, 1.0]),
    ],
)
def test_infinity_is_not_a_class_label(call):
    with pytest.raises(InvalidLabelError, match="inf"):
        call()


@pytest.mark.parametrize(
    "call",
    [
        lambda: ek.log_loss([0, 1], [[0.5, np.nan], [0.2, 0.8]]),
        lambda: ek.brier_score_loss([0, 1], [np.inf, 0.5]),
        lambda: ek.top_k_accuracy_score([0, 1, 2], [[0.5, np.nan, 0.2], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6]], k=1),
        lambda: ek.top_k_accuracy_score([0, 1, 2], [[0.5, np.inf, 0.2], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6]], k=1),
        lambda: ek.roc_auc_score([0, 1, 1], [0.2, np.inf, 0.5]),
    ],
)
def test_non_finite_probabilities_and_scores_are_refused(call):
    with pytest.raises(ValueError, match="NaN or infinity"):
        call()


def test_one_score_column_answers_as_scikit_learn():
    from sklearn.metrics import top_k_accuracy_score

    assert ek.top_k_accuracy_score([0, 1, 1], [0.2, 0.8, 0.6], k=1) == top_k_accuracy_score([0, 1, 1], [0.2, 0.8, 0.6], k=1)
    assert ek.top_k_accuracy_score([0, 1, 1], [[0.2], [0.8], [0.4]], k=1) == top_k_accuracy_score([0, 1, 1], [[0.2], [0.8], [0.4]], k=1)


def test_the_command_line_refuses_intervals_of_float_weights(tmp_path, capsys):
    path = tmp_path / "w.csv"
    path.write_text("actual,predicted,w\na,a,0.5\na,b,1.5\nb,b,2.25\nb,a,1\n")
    assert main(["report", str(path), "--weight", "w", "--ci"]) == 2
    assert "--ci resamples samples" in capsys.readouterr().err
    path.write_text("actual,predicted,w\na,a,1\na,b,2\nb,b,2\nb,a,1\n")
    assert main(["report", str(path), "--weight", "w", "--ci"]) == 0
    assert "n/a" not in capsys.readouterr().out


# --------------------------------------------------------------------------------------------
# scores are exact too


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 40)), min_size=2, max_size=40), st.integers(0, 2**62 - 100))
def test_integer_scores_rank_as_integers_at_any_magnitude(samples, offset):
    """Nanosecond timestamps and ids: distinct integers beyond 2**53 must not tie."""
    y = [label for label, _ in samples]
    small = np.array([score for _, score in samples], dtype=np.int64)
    if len(set(y)) < 2:
        return
    large = small + np.int64(offset)
    assert ek.roc_auc_score(y, large) == ek.roc_auc_score(y, small)
    assert ek.average_precision_score(y, large) == ek.average_precision_score(y, small)
    from evalkit import ThresholdCurve

    curve = ThresholdCurve.from_scores(y, large)
    assert len(curve.roc()[2]) == len(ThresholdCurve.from_scores(y, small).roc()[2])
    threshold = int(large[0])
    assert curve.at(threshold).per_class("recall").tolist() == ThresholdCurve.from_scores(y, small).at(int(small[0])).per_class("recall").tolist()


def test_the_example_of_two_adjacent_large_integers():
    assert ek.roc_auc_score([0, 1], np.array([2**53, 2**53 + 1])) == 1.0


# --------------------------------------------------------------------------------------------
# round trips lose nothing


def test_copies_equal_their_originals_and_nothing_else():
    import pickle

    from evalkit import CostMatrix, Hierarchy, ThresholdCurve
    from evalkit.streaming import CalibrationCounts, CurveCounts, LabelSetCounts

    curve = ThresholdCurve.from_scores([0, 1, 1], [0.2, 0.8, 0.6])
    assert curve == pickle.loads(pickle.dumps(curve)) == ThresholdCurve.from_scores([0, 1, 1], [0.2, 0.8, 0.6])
    assert curve != ThresholdCurve.from_scores([0, 1, 1], [0.2, 0.8, 0.5])
    costs = CostMatrix.from_array([[0, 1], [2, 0]], ["a", "b"])
    assert costs == pickle.loads(pickle.dumps(costs)) and costs != CostMatrix.from_array([[0, 1], [3, 0]], ["a", "b"])
    assert CostMatrix.from_array([[0, 1], [2, 0]], [True, False]) != CostMatrix.from_array([[0, 1], [2, 0]], [1, 0])
    tree = Hierarchy({"a": None, "b": "a", "c": "a"})
    assert tree == pickle.loads(pickle.dumps(tree)) and tree != Hierarchy({"a": None, "b": "a", "c": "b"})
    for counts, batches in ((CurveCounts(), [([0, 1], [0.2, 0.8]), ([1], [0.5])]), (CalibrationCounts(bins=5), [([0, 1], [0.2, 0.8]), ([1], [0.5])])):
        whole = type(counts)(**({"bins": 5} if isinstance(counts, CalibrationCounts) else {}))
        for y, s in batches:
            counts.update(y, s)
        whole.update([0, 1, 1], [0.2, 0.8, 0.5])
        assert counts == whole == pickle.loads(pickle.dumps(counts))
    first, second = LabelSetCounts(), LabelSetCounts()
    first.update([{"a"}], [{"a"}])
    second.update([{"a"}], [{"a"}])
    assert first == second and first != LabelSetCounts()


def test_a_weighted_evaluation_of_one_large_and_several_small_weights_reads_back():
    for weights in ([1e17, 1e-3, 0.5, 2, 3e-5], [1e-300, 1e-303, 5e-301, 2e-300, 3e-305]):
        evaluation = Evaluation.from_labels([0, 1, 1, 0, 0], [0, 1, 0, 0, 1], sample_weight=weights)
        assert Evaluation.from_json(evaluation.to_json()) == evaluation


def test_float_counts_stay_floats_through_json():
    metrics = ClassificationMetrics.from_counts(tp=2.0, fp=3.0, fn=1.0, tn=4.0)
    back = ClassificationMetrics.from_json(metrics.to_json())
    assert type(back.get_true_positive()) is float and back == metrics
    big = ClassificationMetrics.from_counts(tp=2.0**64, fp=3.0, fn=1.0, tn=4.0)
    assert ClassificationMetrics.from_json(big.to_json()) == big


def test_a_covering_of_tuples_reads_back_and_its_result_pickles():
    import pickle

    from evalkit import Covering, NeighborhoodSystem

    covering = Covering([(1, 2), (3, 4), (5, 6)], [{(1, 2), (3, 4)}, {(5, 6)}])
    assert Covering.from_json(covering.to_json()) == covering
    assert covering.to_sets() == (frozenset({(1, 2), (3, 4)}), frozenset({(5, 6)})) and covering.neighborhood((5, 6)) == frozenset({(5, 6)})
    result = NeighborhoodSystem(covering).evaluate(Covering([(5, 6), (1, 2), (3, 4)], [{(1, 2)}, {(3, 4), (5, 6)}]))
    copy = pickle.loads(pickle.dumps(result))
    assert copy.get_absolute_accuracy() == result.get_absolute_accuracy() and copy.ideal_kind == result.ideal_kind


def test_a_list_of_0_1_lists_is_indicator_rows_everywhere():
    from evalkit import ThresholdCurve

    y, s = [[0, 1], [1, 0], [1, 1]], [[0.2, 0.8], [0.6, 0.4], [0.7, 0.9]]
    assert Evaluation.from_scores(y, s) == Evaluation.from_scores(np.array(y), s)
    assert ThresholdCurve.from_scores(y, s) == ThresholdCurve.from_scores(np.array(y), s)
    assert Evaluation.from_indicators(y, [[0, 1], [1, 1], [0, 1]]) == Evaluation.from_indicators(np.array(y), np.array([[0, 1], [1, 1], [0, 1]]))


# --------------------------------------------------------------------------------------------
# time bounded by the input: averages over many classes follow each class's changes


@settings(max_examples=40, deadline=None)
@given(st.integers(9, 14), st.integers(20, 120), st.integers(0, 2**31 - 1), st.booleans(),
       st.sampled_from(["macro", "weighted", "micro"]), st.sampled_from(["exclude", "zero", "one", "nan"]))  # fmt: skip
def test_averages_over_many_classes_equal_reading_every_class(m, n, seed, weighted, average, undefined):
    from evalkit import ThresholdCurve
    from evalkit.scores import curve_operating  # where a curve's measures at every threshold are averaged

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


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**31 - 1), st.sampled_from(["none", "integer", "float"]), st.booleans())
def test_label_set_counts_in_batches_equal_one_evaluation(seed, weighting, fixed):
    """Counts kept per label and per kind of sample (a batch costs its own labels, not every
    label seen) give the one-shot evaluation, merged or streamed."""
    import pickle

    from evalkit.streaming import LabelSetCounts

    rng = np.random.default_rng(seed)
    n, labels = int(rng.integers(1, 40)), [f"l{k}" for k in range(int(rng.integers(1, 12)))]
    y_true = [set(rng.choice(labels, size=rng.integers(0, 4)).tolist()) for _ in range(n)]
    y_pred = [set(rng.choice(labels, size=rng.integers(0, 4)).tolist()) for _ in range(n)]
    weight = None if weighting == "none" else rng.integers(0, 4, n) if weighting == "integer" else rng.random(n)
    seen = sorted({label for row in (*y_true, *y_pred) for label in row})
    if not seen and not fixed:
        return
    order = labels if fixed else None
    streamed, halves = LabelSetCounts(order), [LabelSetCounts(order), LabelSetCounts(order)]
    cut = int(rng.integers(0, n + 1))
    for part, (low, high) in zip(halves, ((0, cut), (cut, n))):
        for counts in (streamed, part):
            counts.update(y_true[low:high], y_pred[low:high], sample_weight=None if weight is None else weight[low:high])
    expected = Evaluation.from_label_sets(y_true, y_pred, order, sample_weight=weight).compact()
    for counts in (streamed, halves[0] + halves[1], pickle.loads(pickle.dumps(streamed))):
        found = counts.to_evaluation()
        assert found.labels == expected.labels
        for measure in ("f1_score", "precision", "jaccard_index"):
            for average in ("micro", "macro", "samples"):
                assert found.average(measure, average) == pytest.approx(expected.average(measure, average), rel=1e-12, nan_ok=True)
