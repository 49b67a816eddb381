"""Sample weights: equal to scikit-learn's ``sample_weight`` results, and to repeating rows.

Two independent formulations check every weighted path:
* scikit-learn (an oracle with its own code) for every measure it has, every average,
  single-label and multi-label;
* integer weights against the unweighted evaluation of the rows repeated that many times,
  for every measure of evalkit, AA and RAR included.
"""

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from sklearn import metrics as sk
from strategies import close

from evalkit import ConfusionMatrix, Covering, Evaluation, NeighborhoodAccuracy, NeighborhoodSystem, formulas
from evalkit.exceptions import (
    CountOverflowError,
    InputShapeError,
    InvalidArgumentError,
    InvalidCountsError,
    InvalidTypeError,
)

POLICIES = [("zero", 0.0), ("one", 1.0)]




def quietly(function, *args, **kwargs):
    """scikit-learn warns where a value is undefined; the tests compare the values."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def samples(n_min=1, n_max=40, classes=5):
    return st.integers(n_min, n_max).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(0, classes - 1), min_size=n, max_size=n),
            st.lists(st.integers(0, classes - 1), min_size=n, max_size=n),
        )
    )


integer_weights = st.integers(0, 6)
float_weights = st.one_of(st.just(0.0), st.floats(1e-3, 10))  # subnormal weights only test float rounding


def same_averages_as_scikit_learn(source, y_true, y_pred, weight, average, undefined, zero_division, beta):
    """Precision, recall, F-beta and Jaccard of ``source`` equal scikit-learn's, weighted alike."""
    p, r, f, _ = quietly(sk.precision_recall_fscore_support, y_true, y_pred, beta=beta, average=average,
                         sample_weight=weight, zero_division=zero_division)  # fmt: skip
    assert close(source.average("precision", average, undefined=undefined), p), (average, undefined)
    assert close(source.average("recall", average, undefined=undefined), r)
    assert close(source.average("f_score", average, undefined=undefined, beta=beta), f)
    jaccard = quietly(sk.jaccard_score, y_true, y_pred, average=average, sample_weight=weight, zero_division=zero_division)
    assert close(source.average("jaccard_index", average, undefined=undefined), jaccard)


# --------------------------------------------------------------------------------------------
# single-label data against scikit-learn


@given(samples(), st.data())
def test_single_label_weighted_measures_equal_scikit_learn(data, draw):
    y_true, y_pred = data
    weight = draw.draw(st.lists(st.one_of(integer_weights, float_weights), min_size=len(y_true), max_size=len(y_true)))
    assume(sum(weight) > 0)
    cm = ConfusionMatrix.from_predictions(y_true, y_pred, sample_weight=weight)
    ev = Evaluation.from_labels(y_true, y_pred, sample_weight=weight)
    np.testing.assert_allclose(cm.to_array(), quietly(sk.confusion_matrix, y_true, y_pred, sample_weight=weight), rtol=1e-12)
    for source in (cm, ev):
        assert close(source.get_accuracy(), sk.accuracy_score(y_true, y_pred, sample_weight=weight))
        assert close(source.get_cohen_kappa(), quietly(sk.cohen_kappa_score, y_true, y_pred, sample_weight=weight))
        mcc = source.get_matthews_correlation_coefficient()
        assert math.isnan(mcc) or close(mcc, quietly(sk.matthews_corrcoef, y_true, y_pred, sample_weight=weight), rel=1e-9)
        balanced = quietly(sk.balanced_accuracy_score, y_true, y_pred, sample_weight=weight)
        assert close(source.average("recall", "macro"), balanced)
        average = draw.draw(st.sampled_from(["micro", "macro", "weighted"]))
        same_averages_as_scikit_learn(source, y_true, y_pred, weight, average, *draw.draw(st.sampled_from(POLICIES)), beta=2.0)
    assert close(1 - cm.get_accuracy(), sk.hamming_loss(y_true, y_pred, sample_weight=weight))


def test_integer_weights_keep_integer_counts_and_float_weights_give_floats():
    exact = ConfusionMatrix.from_predictions([0, 1, 1], [0, 1, 0], sample_weight=[2, 3, 4])
    assert exact.to_array().dtype == np.int64 and exact.get_true_positive() == 3 and type(exact.get_true_positive()) is int
    weighted = ConfusionMatrix.from_predictions([0, 1, 1], [0, 1, 0], sample_weight=[0.5, 3, 4])
    assert weighted.to_array().dtype == np.float64 and type(weighted.get_true_positive()) is float
    assert weighted.get_total_items() == 7.5 and ConfusionMatrix.from_json(weighted.to_json()) == weighted
    merged = exact + ConfusionMatrix.from_predictions([0, 1, 1], [0, 1, 0], sample_weight=[0.5, 0.5, 0.5])
    assert merged.to_array().dtype == np.float64 and merged.get_total_items() == 10.5


def test_update_with_weights_equals_one_weighted_count():
    rng = np.random.default_rng(3)
    y_true, y_pred, weight = rng.integers(0, 4, 500), rng.integers(0, 4, 500), rng.random(500)
    streamed = ConfusionMatrix(range(4))
    for start in range(0, 500, 64):
        streamed.update(y_true[start : start + 64], y_pred[start : start + 64], sample_weight=weight[start : start + 64])
    np.testing.assert_allclose(streamed.to_array(), ConfusionMatrix.from_predictions(y_true, y_pred, sample_weight=weight).to_array())


# --------------------------------------------------------------------------------------------
# multi-label data against scikit-learn


def indicators(seed, n=80, m=5):
    rng = np.random.default_rng(seed)
    actual = rng.random((n, m)) < rng.uniform(0.05, 0.5, m)
    predicted = rng.random((n, m)) < rng.uniform(0.05, 0.5, m)
    actual[:4], predicted[2:6], actual[:, 0], predicted[:, 1] = False, False, False, False  # undefined cases
    return actual, predicted


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("kind", ["int", "float"])
def test_multi_label_weighted_measures_equal_scikit_learn(seed, kind):
    actual, predicted = indicators(seed)
    rng = np.random.default_rng(seed + 10)
    weight = rng.integers(0, 5, len(actual)) if kind == "int" else rng.random(len(actual)) * 3
    sets = [{j for j in np.flatnonzero(row)} for row in actual], [{j for j in np.flatnonzero(row)} for row in predicted]
    for ev in (Evaluation.from_indicators(actual, predicted, sample_weight=weight),
               Evaluation.from_label_sets(*sets, labels=range(actual.shape[1]), sample_weight=weight)):  # fmt: skip
        for average in ("micro", "macro", "weighted", "samples"):
            for undefined, zero_division in POLICIES:
                same_averages_as_scikit_learn(ev, actual, predicted, weight, average, undefined, zero_division, beta=0.5)
        assert close(ev.average("error_rate", "micro"), sk.hamming_loss(actual, predicted, sample_weight=weight))
        assert close(ev.get_accuracy(), sk.accuracy_score(actual, predicted, sample_weight=weight))
        np.testing.assert_allclose(ev.class_cells.tp, quietly(sk.multilabel_confusion_matrix, actual, predicted, sample_weight=weight)[:, 1, 1])


# --------------------------------------------------------------------------------------------
# integer weights equal repeated rows, for every measure and every setting


def same_everywhere(weighted, repeated):
    """The same cells (once compacted) and the same value of every measure and average."""
    assert weighted.compact() == repeated.compact()
    for name in formulas.measure_names():
        for average in ("micro", "macro", "weighted", "samples"):
            assert close(weighted.average(name, average), repeated.average(name, average)), (name, average)


@pytest.mark.slow
@given(samples(), st.data())
def test_integer_weights_equal_repeated_single_label_rows(data, draw):
    y_true, y_pred = data
    weight = draw.draw(st.lists(integer_weights, min_size=len(y_true), max_size=len(y_true)))
    labels = sorted(set(y_true) | set(y_pred))
    repeated = np.repeat(y_true, weight), np.repeat(y_pred, weight)
    assert ConfusionMatrix.from_predictions(y_true, y_pred, labels, sample_weight=weight) == ConfusionMatrix.from_predictions(*repeated, labels)
    for known, options in ((labels, {}), ([1, 2, 3, 4], {"none": 0}), ([1, 2, 3, 4], {"none": 0, "rejection": "selective"})):
        weighted = Evaluation.from_labels(y_true, y_pred, known, sample_weight=weight, **options)
        once = Evaluation.from_labels(*repeated, known, **options)
        same_everywhere(weighted, once)
        assert weighted.coverage == once.coverage or (math.isnan(weighted.coverage) and math.isnan(once.coverage))
        for getter in ("get_accuracy", "get_cohen_kappa", "get_matthews_correlation_coefficient"):
            assert close(getattr(weighted, getter)(), getattr(once, getter)())


@given(st.integers(1, 30).flatmap(lambda n: st.tuples(
    st.lists(st.lists(st.booleans(), min_size=4, max_size=4), min_size=n, max_size=n),
    st.lists(st.lists(st.booleans(), min_size=4, max_size=4), min_size=n, max_size=n),
    st.lists(integer_weights, min_size=n, max_size=n))))  # fmt: skip
@pytest.mark.slow
def test_integer_weights_equal_repeated_rows_in_every_setting(data):
    actual, predicted, weight = (np.array(part) for part in data)
    rows = np.repeat(np.arange(len(actual)), weight)
    soft_actual, soft_predicted = actual * 0.75 + 0.1, predicted * 0.5 + 0.25
    pairs = [
        (Evaluation.from_indicators(actual, predicted, sample_weight=weight), Evaluation.from_indicators(actual[rows], predicted[rows])),
        (Evaluation.from_label_sets([set(np.flatnonzero(r)) for r in actual], [set(np.flatnonzero(r)) for r in predicted],
                                    labels=range(4), sample_weight=weight),
         Evaluation.from_label_sets([set(np.flatnonzero(r)) for r in actual[rows]], [set(np.flatnonzero(r)) for r in predicted[rows]],
                                    labels=range(4))),
        (Evaluation.from_scores(actual, predicted * 0.9, threshold=0.5, sample_weight=weight),
         Evaluation.from_scores(actual[rows], predicted[rows] * 0.9, threshold=0.5)),
        (Evaluation.from_soft(soft_actual, soft_predicted, tnorm="minimum", sample_weight=weight),
         Evaluation.from_soft(soft_actual[rows], soft_predicted[rows], tnorm="minimum")),
    ]  # fmt: skip
    for weighted, repeated in pairs:
        for name in formulas.measure_names():
            for average in ("micro", "macro", "weighted", "samples"):
                assert close(weighted.average(name, average), repeated.average(name, average), rel=1e-9), (name, average)
    for weighted, repeated in pairs[:2]:
        assert weighted.compact() == repeated.compact()
        accuracy, once = NeighborhoodAccuracy.from_evaluation(weighted), NeighborhoodAccuracy.from_evaluation(repeated)
        assert accuracy.get_absolute_accuracy(exact=True) == once.get_absolute_accuracy(exact=True) or (
            math.isnan(accuracy.get_absolute_accuracy()) and math.isnan(once.get_absolute_accuracy()))
        assert accuracy.get_t_pos() == once.get_t_pos() and accuracy.get_t_neg() == once.get_t_neg()
        assert close(accuracy.get_example_based_accuracy(), once.get_example_based_accuracy())


@pytest.mark.slow
@given(st.lists(st.tuples(st.sampled_from("abc"), st.sampled_from("abc"), st.integers(0, 3)), min_size=1, max_size=30))
def test_ordinal_and_hierarchical_weights_equal_repeated_rows(rows):
    y_true, y_pred, weight = ([row[k] for row in rows] for k in range(3))
    repeated = [value for value, w in zip(y_true, weight) for _ in range(w)], [value for value, w in zip(y_pred, weight) for _ in range(w)]
    assume(repeated[0])
    levels = ["a", "b", "c"]
    same_everywhere(Evaluation.from_ordinal(y_true, y_pred, levels, sample_weight=weight), Evaluation.from_ordinal(*repeated, levels))
    parents = {"a": "ab", "b": "ab", "c": None}
    same_everywhere(Evaluation.from_hierarchy(y_true, y_pred, parents, sample_weight=weight), Evaluation.from_hierarchy(*repeated, parents))


@given(st.lists(st.tuples(st.frozensets(st.integers(0, 2)), st.frozensets(st.integers(0, 2)), st.integers(0, 4)), min_size=1, max_size=12))
def test_element_weights_of_aa_and_rar_equal_repeated_elements(rows):
    ideal, result, weight = ([row[k] for row in rows] for k in range(3))
    weighted = NeighborhoodSystem(Covering.from_label_sets(ideal, labels=[0, 1, 2])).evaluate(
        Covering.from_label_sets(result, labels=[0, 1, 2]), sample_weight=weight
    )
    copies = [(i, k) for i, w in enumerate(weight) for k in range(w)]  # distinct ids for the copies
    assume(copies)
    repeated = NeighborhoodSystem(Covering.from_label_sets([ideal[i] for i, _ in copies], universe=copies, labels=[0, 1, 2])).evaluate(
        Covering.from_label_sets([result[i] for i, _ in copies], universe=copies, labels=[0, 1, 2])
    )
    for getter in ("get_absolute_accuracy", "get_relative_accuracy_rate", "get_example_based_accuracy",
                   "get_example_based_precision", "get_example_based_recall"):  # fmt: skip
        a, b = getattr(weighted, getter)(exact=True), getattr(repeated, getter)(exact=True)
        assert a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b)), getter
    assert (weighted.get_t_pos(), weighted.get_t_neg(), weighted.get_ideal_total()) == (
        repeated.get_t_pos(), repeated.get_t_neg(), repeated.get_ideal_total())


def test_weighted_evaluations_merge_and_round_trip_through_json():
    rng = np.random.default_rng(5)
    y_true, y_pred, weight = rng.integers(0, 3, 200), rng.integers(0, 3, 200), rng.random(200)
    whole = Evaluation.from_labels(y_true, y_pred, sample_weight=weight)
    merged = Evaluation.from_labels(y_true[:90], y_pred[:90], sample_weight=weight[:90]) + Evaluation.from_labels(
        y_true[90:], y_pred[90:], sample_weight=weight[90:]
    )
    for name in ("precision", "recall", "f1_score", "matthews_correlation_coefficient"):
        for average in ("micro", "macro", "weighted", "samples"):
            assert close(merged.average(name, average), whole.average(name, average), rel=1e-9)
    assert Evaluation.from_json(whole.to_json()) == whole
    assert math.isclose(whole.n_samples, weight.sum())


# --------------------------------------------------------------------------------------------
# bad weights


@pytest.mark.parametrize(("weight", "error", "message"), [
    ([1, -1, 2], InvalidArgumentError, "position 1 holds -1"),
    ([1.0, np.nan, 2], InvalidArgumentError, "position 1 holds nan"),
    ([1.0, 2.0, np.inf], InvalidArgumentError, "position 2 holds inf"),
    ([1, 2], InputShapeError, "has 2 weights but there are 3 samples"),
    ([[1, 2, 3]], InputShapeError, "must be 1-D"),
    (["1", "2", "3"], InvalidTypeError, "real numbers"),
    ("123", InvalidTypeError, "sequence of numbers"),
    ({1, 2, 3}, InvalidTypeError, "sequence of numbers"),
])  # fmt: skip
def test_bad_weights_name_the_argument_and_the_first_bad_position(weight, error, message):
    for make in (
        lambda: ConfusionMatrix.from_predictions([0, 1, 1], [0, 1, 0], sample_weight=weight),
        lambda: Evaluation.from_labels([0, 1, 1], [0, 1, 0], sample_weight=weight),
        lambda: Evaluation.from_indicators([[1], [0], [1]], [[1], [1], [0]], sample_weight=weight),
        lambda: Evaluation.from_label_sets([{1}, set(), {1}], [{1}, {1}, set()], sample_weight=weight),
    ):
        with pytest.raises(error, match=message) as caught:
            make()
        assert "'sample_weight'" in str(caught.value)


def test_the_callers_weights_are_never_changed():
    weight = np.array([3, 1, 2])
    before = weight.copy()
    ConfusionMatrix.from_predictions([0, 1, 1], [0, 1, 0], sample_weight=weight)
    Evaluation.from_indicators([[1], [0], [1]], [[1], [1], [0]], sample_weight=weight)
    np.testing.assert_array_equal(weight, before)


# --------------------------------------------------------------------------------------------
# float counts kept exactly: the edges

def test_a_sample_taken_away_from_float_counts_is_refused_once_nothing_of_it_is_left():
    """revert of float counts reads the exact sums: after 1 - 2**-60 is left, a whole sample is
    more than the cell holds (a float count read 1.0, and went to -8.7e-19)."""
    cm = ConfusionMatrix(["a", "b"])
    cm.update(["a"], ["a"], sample_weight=[1.0])
    cm.revert(["a"], ["a"], sample_weight=[2.0**-60])
    with pytest.raises(InvalidCountsError):
        cm.revert(["a"], ["a"])
    assert cm.get_true_positive("a") == 1.0 and cm.get_total_items() == 1.0


@pytest.mark.parametrize("batches", [[[1e308, 1e308]], [[1e308], [1e308]]])
def test_float_counts_beyond_float64_are_a_count_overflow(batches):
    cm = ConfusionMatrix(["a", "b"])
    with pytest.raises(CountOverflowError):
        for weights in batches:
            cm.update(["a"] * len(weights), ["a"] * len(weights), sample_weight=weights)
        cm.get_total_items()


def test_float_cells_whose_total_is_beyond_float64_are_a_count_overflow():
    # each cell of 1e308 is a float64, their total is not: refused where the counts are given
    # (from_array, from_predictions, the update that makes it), the matrix left as it was
    with pytest.raises(CountOverflowError, match="beyond what a float64 holds"):
        ConfusionMatrix.from_array([[1e308, 0.0], [0.0, 1e308]])
    with pytest.raises(CountOverflowError, match="'sample_weight' sums beyond"):
        ConfusionMatrix.from_predictions([0, 1], [0, 1], sample_weight=[1e308, 1e308])
    cm = ConfusionMatrix([0, 1])
    cm.update([0], [0], sample_weight=[1e308])
    with pytest.raises(CountOverflowError):
        cm.update([1], [1], sample_weight=[1e308])
    assert cm.get_total_items() == 1e308 and cm.get_true_positive(1) == 0.0


def test_a_whole_count_at_the_int64_limit_beside_a_float_count_reads_their_rounded_sum():
    # 2**63 - 1 + 0.5 (the whole part's int64 conversion of the float table overflowed)
    whole = ConfusionMatrix.from_array([[2**63 - 1, 0], [0, 0]])
    half = ConfusionMatrix.from_predictions([0], [0], labels=[0, 1], sample_weight=[0.5])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        merged = whole + half
        assert merged.get_total_items() == float(Fraction(2**63 - 1) + Fraction(1, 2))
        assert merged - half == whole


def test_whole_counts_beyond_2_53_beside_float_counts_stay_exact():
    big = ConfusionMatrix.from_array([[2**53 + 1, 0], [0, 0]])
    half = ConfusionMatrix.from_array([[0.5, 0], [0, 0]])
    assert ((big + half) - big).to_array()[0, 0] == 0.5 and ((big + half) - big) == half
    assert (big - ConfusionMatrix.from_array([[1.0, 0], [0, 0]])).to_array()[0, 0] == 2.0**53
    other = ConfusionMatrix.from_array([[0.0, 0.5], [0, 0]])
    assert ((other + big) - other) == big and ((other + big) - other) != ConfusionMatrix.from_array([[float(2**53), 0], [0, 0]])
    assert ConfusionMatrix.from_array([[2**53 + 1]]) != ConfusionMatrix.from_array([[2.0**53]])


def test_a_matrix_of_many_classes_keeps_its_exact_sums_as_floats():
    """One cell of a 1,000-class matrix whose sum rounds: its rest kept as one float beside the
    counts (no table of a million Python integers, which took 4.6 s and 119 MB), and a sum
    whose rest is no float as the one exact integer."""
    labels = list(range(1000))
    cm = ConfusionMatrix.from_predictions(labels, labels, labels=labels, sample_weight=[0.5] * 1000)
    cm.update([0], [0], sample_weight=[2.0**-70])
    merged = cm + cm
    assert cm._exact == {} and np.count_nonzero(cm._low) == 1 and merged._exact == {}
    assert (merged - cm) == cm and merged.get_true_positive(0) == 1.0
    cm.update([1], [1], sample_weight=[1e17])
    cm.update([1], [1], sample_weight=[2.0**-60])  # 1e17 + 0.5 + 2**-60: a rest of two floats
    assert list(cm._exact) == [1 << 32 | 1] and ((cm + merged) - merged) == cm
