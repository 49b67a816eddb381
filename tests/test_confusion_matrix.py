"""ConfusionMatrix: construction, counting paths, per-class counts, whole-matrix measures, averages."""

import math

import numpy as np
import pytest
from harness import check_kind, counted_samples
from hypothesis import given
from hypothesis import strategies as st
from sklearn import metrics as sk

from evalkit import ConfusionMatrix, formulas
from evalkit.exceptions import (
    ClassIndexError,
    EvalkitError,
    MixedLabelTypesError,
    NotBinaryError,
    UnknownLabelError,
)

PAPER = [[110, 10, 10], [20, 40, 5], [25, 5, 50]]
"""The counterexample matrix of shared/spec/algebraic.md (result 9), rows actual."""


def expand(matrix):
    """Label vectors with the given confusion matrix (rows actual), for sklearn cross-checks."""
    matrix = np.asarray(matrix)
    pairs = [(i, j) for i in range(len(matrix)) for j in range(len(matrix)) for _ in range(matrix[i, j])]
    return np.array([i for i, _ in pairs], dtype=int), np.array([j for _, j in pairs], dtype=int)


# --------------------------------------------------------------------------------------------
# Java-style use


def test_java_style_counting_with_inc():
    cm = ConfusionMatrix(["negative", "positive"])
    for actual, predicted, times in [(0, 0, 50), (0, 1, 10), (1, 0, 5), (1, 1, 35)]:
        for _ in range(times):
            cm.inc(actual, predicted)
    assert cm.get(0, 1) == 10 and cm.get(1, 0) == 5
    assert cm.get_class_count() == 2 and cm.get_total_items() == 100
    assert cm.get_class_labels() == ["negative", "positive"]
    # binary no-argument forms: index 1 is the positive class (shared/spec/deepnetts.md)
    assert (cm.get_true_positive(), cm.get_true_negative(), cm.get_false_positive(), cm.get_false_negative()) == (35, 50, 10, 5)


def test_str_is_the_deep_netts_v4_table():
    """The exact layout of shared/spec/deepnetts.md (labels negative/positive, TN=50 FP=10 FN=5 TP=35)."""
    cm = ConfusionMatrix.from_array([[50, 10], [5, 35]], ["negative", "positive"])
    assert str(cm) == (
        "Confusion Matrix [actual, predicted]\n"
        "           |  negative |  positive |\n"
        "------------------------------------\n"
        "  negative |        50 |        10 |\n"
        "  positive |         5 |        35 |"
    )


def test_str_pads_short_labels_to_seven_characters_and_long_ones_to_their_length():
    short = str(ConfusionMatrix.from_array([[1, 0], [0, 2]], ["a", "b"])).splitlines()
    assert short[1] == " " * 9 + " |" + " " * 8 + "a |" + " " * 8 + "b |"
    assert len(short[2]) == 3 * 11
    long_label = "a-rather-long-label"
    rows = str(ConfusionMatrix.from_array([[1, 0], [0, 2]], [long_label, "b"])).splitlines()
    assert rows[3].startswith("  " + long_label + " |")


# --------------------------------------------------------------------------------------------
# per-class counts on a 3-class matrix


def test_every_per_class_count_of_a_three_class_matrix():
    """Hand-computed from PAPER (total 275): tn is everything outside row and column k."""
    cm = ConfusionMatrix.from_array(PAPER, ["a", "b", "c"])
    expected = {0: (110, 45, 20, 100), 1: (40, 15, 25, 195), 2: (50, 15, 30, 180)}
    for k, (tp, fp, fn, tn) in expected.items():
        assert cm.get_true_positive(k) == tp
        assert cm.get_false_positive(k) == fp
        assert cm.get_false_negative(k) == fn
        assert cm.get_true_negative(k) == tn  # Deep Netts returns cell [0][0] = 110 for every class
        assert tp + fp + fn + tn == cm.get_total_items() == 275
    cells = cm.cells()
    np.testing.assert_array_equal(cells.tp, [110, 40, 50])
    np.testing.assert_array_equal(cells.tn, [100, 195, 180])


@pytest.mark.parametrize("getter", ["get_true_positive", "get_false_positive", "get_false_negative", "get_true_negative"])
def test_binary_forms_refuse_a_matrix_of_three_classes(getter):
    cm = ConfusionMatrix.from_array(PAPER)
    with pytest.raises(NotBinaryError, match="3 classes"):
        getattr(cm, getter)()


# --------------------------------------------------------------------------------------------
# whole-matrix measures against scikit-learn and the seeds


def test_whole_matrix_measures_match_scikit_learn():
    y_true, y_pred = expand(PAPER)
    cm = ConfusionMatrix.from_array(PAPER)
    assert cm.get_accuracy() == pytest.approx(sk.accuracy_score(y_true, y_pred), rel=1e-14)
    assert cm.get_cohen_kappa() == pytest.approx(sk.cohen_kappa_score(y_true, y_pred), rel=1e-12)
    assert cm.get_matthews_correlation_coefficient() == pytest.approx(sk.matthews_corrcoef(y_true, y_pred), rel=1e-12)


def test_kappa_is_the_seed_003_formula():
    """Seed 003: (N Σ x_ii - Σ row_h col_h) / (N² - Σ row_h col_h), by hand for PAPER."""
    rows, cols = [130, 65, 80], [155, 55, 65]
    chance = sum(r * c for r, c in zip(rows, cols))
    expected = (275 * 200 - chance) / (275**2 - chance)
    assert ConfusionMatrix.from_array(PAPER).get_cohen_kappa() == pytest.approx(expected, rel=1e-14)


def test_correlation_coefficient_is_mcc_with_the_other_diagonal_as_true_negatives():
    """Seed 003's per-class correlation coefficient, by hand for class 0 of PAPER."""
    tp, fp, fn, tn = 110, 45, 20, 40 + 50
    expected = (tp * tn - fp * fn) / math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    cm = ConfusionMatrix.from_array(PAPER)
    assert cm.get_correlation_coefficient(0) == pytest.approx(expected, rel=1e-14)
    # it differs from the one-vs-rest MCC, which counts every cell outside row and column 0
    assert cm.per_class("matthews_correlation_coefficient")[0] != pytest.approx(expected)


def test_multi_class_mcc_of_two_classes_is_the_binary_mcc():
    cm = ConfusionMatrix.from_array([[50, 10], [5, 35]])
    binary = formulas.matthews_correlation_coefficient(tp=35, fp=10, fn=5, tn=50)
    assert cm.get_matthews_correlation_coefficient() == pytest.approx(binary, rel=1e-14)


# --------------------------------------------------------------------------------------------
# averages


@pytest.mark.parametrize("average", ["micro", "macro", "weighted"])
@pytest.mark.parametrize(("undefined", "zero_division"), [("exclude", np.nan), ("zero", 0.0), ("one", 1.0)])
def test_precision_recall_f1_averages_match_scikit_learn(average, undefined, zero_division):
    # class 3 is never predicted and class 4 never occurs: undefined precision / recall
    matrix = [[5, 1, 0, 0, 1], [2, 6, 1, 0, 0], [0, 1, 7, 0, 0], [1, 0, 2, 0, 0], [0, 0, 0, 0, 0]]
    y_true, y_pred = expand(matrix)
    cm = ConfusionMatrix.from_array(matrix)
    p, r, f, _ = sk.precision_recall_fscore_support(
        y_true, y_pred, labels=range(5), average=average, zero_division=zero_division
    )
    assert cm.average("precision", average, undefined=undefined) == pytest.approx(p, rel=1e-12)
    assert cm.average("recall", average, undefined=undefined) == pytest.approx(r, rel=1e-12)
    assert cm.average("f1_score", average, undefined=undefined) == pytest.approx(f, rel=1e-12)


@pytest.mark.parametrize("beta", [0.5, 2.0])
def test_f_beta_macro_matches_scikit_learn(beta):
    y_true, y_pred = expand(PAPER)
    expected = sk.fbeta_score(y_true, y_pred, beta=beta, average="macro")
    assert ConfusionMatrix.from_array(PAPER).average("f_score", "macro", beta=beta) == pytest.approx(expected, rel=1e-12)


def test_micro_precision_recall_f1_are_the_accuracy_on_single_label_data():
    cm = ConfusionMatrix.from_array(PAPER)
    for name in ("precision", "recall", "f1_score"):
        assert cm.average(name, "micro") == pytest.approx(cm.get_accuracy(), rel=1e-15)


def test_micro_balanced_accuracy_exceeds_every_class_on_the_papers_counterexample():
    """shared/spec/algebraic.md, result 9."""
    cm = ConfusionMatrix.from_array(PAPER)
    per_class = cm.per_class("balanced_accuracy")
    assert cm.average("balanced_accuracy", "micro") > per_class.max()


def test_macro_balanced_accuracy_of_recall_is_sklearns_balanced_accuracy():
    y_true, y_pred = expand(PAPER)
    cm = ConfusionMatrix.from_array(PAPER)
    assert cm.average("recall", "macro") == pytest.approx(sk.balanced_accuracy_score(y_true, y_pred), rel=1e-12)


def test_samples_average_is_the_mean_over_samples_of_one_hot_rows():
    """Each sample's row cells: correct (1, 0, 0, m-1), wrong (0, 1, 1, m-2); check by brute force."""
    y_true, y_pred = expand(PAPER)
    m = 3
    actual = np.eye(m, dtype=int)[y_true]
    predicted = np.eye(m, dtype=int)[y_pred]
    tp = (actual & predicted).sum(1)
    fp = ((1 - actual) & predicted).sum(1)
    fn = (actual & (1 - predicted)).sum(1)
    tn = ((1 - actual) & (1 - predicted)).sum(1)
    cm = ConfusionMatrix.from_array(PAPER)
    for name in ("precision", "jaccard_index", "accuracy", "matthews_correlation_coefficient"):
        per_sample = formulas.get_measure(name)(tp=tp, fp=fp, fn=fn, tn=tn)
        assert cm.average(name, "samples") == pytest.approx(np.nanmean(per_sample), rel=1e-12), name
    assert cm.average("f1_score", "samples") == pytest.approx(
        sk.f1_score(actual, predicted, average="samples"), rel=1e-12
    )


def test_average_reports_how_many_values_were_defined():
    cm = ConfusionMatrix.from_array([[3, 0, 0], [0, 0, 0], [1, 0, 2]])
    value = cm.average("precision")
    assert (value.n_values, value.n_defined) == (3, 2)
    assert value == pytest.approx((3 / 4 + 1) / 2)
    assert math.isnan(cm.average("precision", undefined="nan"))
    assert cm.average("precision", undefined="zero") == pytest.approx((3 / 4 + 0 + 1) / 3)
    assert cm.average("precision", undefined="one") == pytest.approx((3 / 4 + 1 + 1) / 3)


def test_weighted_average_weights_by_support():
    cm = ConfusionMatrix.from_array(PAPER)
    support = np.array([130, 65, 80])
    expected = (cm.per_class("recall") * support).sum() / support.sum()
    assert cm.average("recall", "weighted") == pytest.approx(expected, rel=1e-14)


def test_every_registered_measure_averages_every_way():
    cm = ConfusionMatrix.from_array(PAPER)
    for name in formulas.measure_names():
        for average in ("micro", "macro", "weighted", "samples"):
            assert isinstance(cm.average(name, average), float)


def test_average_accepts_a_vectorised_function():
    def youden(*, tp, fp, fn, tn):
        return formulas.recall(tp=tp, fp=fp, fn=fn, tn=tn) + formulas.specificity(tp=tp, fp=fp, fn=fn, tn=tn) - 1

    cm = ConfusionMatrix.from_array(PAPER)
    assert cm.average(youden, "macro") == pytest.approx(cm.average("informedness", "macro"), rel=1e-12)


# --------------------------------------------------------------------------------------------
# merge, equality, copies


def test_merge_and_equality():
    a = ConfusionMatrix.from_predictions([0, 1, 1], [0, 1, 0], labels=[0, 1])
    b = ConfusionMatrix.from_predictions([1, 0], [1, 1], labels=[0, 1])
    merged = a + b
    assert merged == ConfusionMatrix.from_predictions([0, 1, 1, 1, 0], [0, 1, 0, 1, 1], labels=[0, 1])
    assert merged != a and a.get_total_items() == 3  # + made a new matrix
    a += b
    assert a == merged and a.get_total_items() == 5


def test_to_array_is_a_read_only_snapshot():
    cm = ConfusionMatrix(["x", "y"])
    snapshot = cm.to_array()
    with pytest.raises(ValueError):
        snapshot[0, 0] = 3
    cm.inc(0, 0)
    assert snapshot[0, 0] == 0 and cm.to_array()[0, 0] == 1  # a snapshot: another thread's update never changes it


def test_copy_is_independent():
    cm = ConfusionMatrix.from_array([[1, 2], [3, 4]])
    other = cm.copy()
    other.inc(0, 0)
    assert cm.get(0, 0) == 1 and other.get(0, 0) == 2


def test_update_adds_a_batch_with_the_fixed_labels():
    cm = ConfusionMatrix(["a", "b", "c"])
    cm.update(["a", "b"], ["a", "c"])
    cm.update(np.array(["c"]), np.array(["c"]))
    assert cm.to_array().tolist() == [[1, 0, 0], [0, 0, 1], [0, 0, 1]]
    assert cm.get_total_items() == 3


def test_unhashable_matrix():
    with pytest.raises(TypeError):
        hash(ConfusionMatrix(["a"]))


def test_repr_names_labels_and_total():
    assert repr(ConfusionMatrix.from_array([[1, 2], [3, 4]], ["a", "b"])) == "ConfusionMatrix(labels=['a', 'b'], total=10)"


def test_update_can_grow_the_labels_of_a_stream():
    cm = ConfusionMatrix([1, 3])
    cm.update([1, 3], [3, 3])
    cm.update([2, 1], [5, 1], grow=True)  # 2 and 5 are new: appended, sorted among themselves
    assert cm.labels == (1, 3, 2, 5)
    assert cm == ConfusionMatrix.from_predictions([1, 3, 2, 1], [3, 3, 5, 1], labels=[1, 3, 2, 5])
    with pytest.raises(MixedLabelTypesError, match="mix types"):
        cm.update(["a"], ["a"], grow=True)
    assert cm.get_total_items() == 4


def test_with_labels_reorders_and_extends():
    cm = ConfusionMatrix.from_array([[1, 2], [3, 4]], ["a", "b"])
    wider = cm.with_labels(["c", "b", "a"])
    assert wider.to_array().tolist() == [[0, 0, 0], [0, 4, 3], [0, 2, 1]]
    assert wider + ConfusionMatrix.from_array(np.eye(3, dtype=int), ["c", "b", "a"]) != wider
    with pytest.raises(UnknownLabelError, match="leaves out 'a'"):
        cm.with_labels(["b"])


def test_kinds_of_sample_that_never_occur_do_not_enter_the_samples_average():
    """A one-class matrix has no wrong samples: their (impossible) row must not make the average NaN."""
    cm = ConfusionMatrix.from_array([[3]])
    assert cm.average("precision", "samples", undefined="nan") == 1.0
    assert cm.average("matthews_correlation_coefficient", "samples").n_values == 1


def test_numpy_boolean_labels_are_counted_as_booleans():
    """A numpy bool array once indexed as a mask in the integer fast path."""
    cm = ConfusionMatrix.from_predictions(np.array([True, False, True, True]), np.array([True, True, False, True]))
    assert cm.labels == (False, True) and cm.to_array().tolist() == [[0, 1], [1, 2]]


def test_one_sample_by_index_touches_its_cell_not_a_table_of_every_class_pair():
    """update_indices of one sample at 6,000 classes: a batch table would be 288 MB."""
    import tracemalloc

    cm = ConfusionMatrix(list(range(6000)))
    cm.update_indices([0], [1])  # the first update sums the (empty) table once
    tracemalloc.start()
    for k in range(20):
        cm.update_indices([k], [k + 1], sample_weight=None if k % 2 else [2])
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 5e6, peak
    assert cm.get(3, 4) == 1 and cm.get(4, 5) == 2 and cm.get_total_items() == 1 + 10 + 2 * 10
    with pytest.raises(ClassIndexError, match="'y_true_idx' holds 6000 at position 0"):
        cm.update_indices([6000], [0])


@given(st.lists(st.tuples(st.sampled_from([0, 1, 2, True, 1.0, "1", None]), st.sampled_from([0, 1, 2, False, 2.0, "2"])), min_size=1, max_size=8))
def test_a_few_samples_counted_at_once_follow_the_general_path(pairs):
    """Batches of up to eight labels take a path of their own (their cells, no encoding): the
    same counts and the same refusals as the general path (True is not the class 1, None is no
    label, a label outside the matrix is unknown)."""
    actual, predicted = [a for a, _ in pairs], [p for _, p in pairs]
    fast, general = ConfusionMatrix([0, 1, 2]), ConfusionMatrix([0, 1, 2])
    try:
        general.update(np.array(actual, dtype=object), np.array(predicted, dtype=object))
    except EvalkitError as error:
        with pytest.raises(type(error)):
            fast.update(actual, predicted)
        assert fast.get_total_items() == 0
        return
    fast.update(actual, predicted)
    assert fast == general and fast.get_total_items() == len(pairs)


def test_subtracting_in_place_equals_subtracting_and_refuses_a_part_never_added():
    week = ConfusionMatrix.from_predictions(["a", "b", "b", "a"], ["a", "b", "a", "a"], labels=["a", "b"])
    monday = ConfusionMatrix.from_predictions(["a", "b"], ["a", "a"], labels=["a", "b"])
    expected = week - monday
    week -= monday
    assert week == expected and week.get_total_items() == 2
    with pytest.raises(EvalkitError, match="pairs of labels"):
        week -= ConfusionMatrix.from_predictions(["b", "b", "b"], ["b", "b", "b"], labels=["a", "b"])
    assert week == expected  # a refused subtraction changes nothing


def test_a_matrix_made_without_labels_takes_them_in_as_they_come():
    """``ConfusionMatrix()`` starts with no class (as River's): updates, merges and parts taken
    away bring theirs; a matrix made with labels still refuses a label it does not have."""
    from evalkit.exceptions import UnknownLabelError

    growing = ConfusionMatrix()
    assert growing.labels == () and growing.get_total_items() == 0
    growing.update(["cat"], ["dog"])
    growing.update(["bird", "cat"], ["bird", "cat"])
    assert growing.labels == ("cat", "dog", "bird") and growing.get_accuracy() == 2 / 3
    part = ConfusionMatrix.from_predictions(["fish"], ["cat"])
    growing += part
    assert growing.labels == ("cat", "dog", "bird", "fish") and growing.get_total_items() == 4
    growing -= part
    assert growing.get_total_items() == 3 and growing.labels[-1] == "fish"
    restored = ConfusionMatrix.from_json(growing.to_json())
    restored.update(["eel"], ["eel"])
    assert restored.labels[-1] == "eel" and growing.empty().labels == growing.labels
    with pytest.raises(UnknownLabelError):
        ConfusionMatrix(["cat"]).update(["dog"], ["dog"])


def test_confusion_matrix_habits():
    cm = ConfusionMatrix.from_predictions([0, 0, 1, 2], [0, 1, 1, 2])
    np.testing.assert_allclose(cm.to_array(normalize="true"), sk.confusion_matrix([0, 0, 1, 2], [0, 1, 1, 2], normalize="true"))
    np.testing.assert_allclose(cm.to_array(normalize="pred"), sk.confusion_matrix([0, 0, 1, 2], [0, 1, 1, 2], normalize="pred"))
    np.testing.assert_allclose(cm.to_array(normalize="all"), sk.confusion_matrix([0, 0, 1, 2], [0, 1, 1, 2], normalize="all"))
    array = np.asarray(cm)
    array[0, 0] = 99  # np.asarray gives a copy: the matrix does not change
    assert cm.get(0, 0) == 1 and np.asarray(cm, dtype=float).dtype == np.float64
    total = sum([cm, cm, ConfusionMatrix.from_array(np.eye(3, dtype=int))])
    assert total.get(0, 0) == 3 and total.get_total_items() == 11
    cm.reset()
    assert cm.get_total_items() == 0 and cm.labels == (0, 1, 2) and not cm.to_array().any()
    cm.inc(2, 2)
    assert cm.get_total_items() == 1


@pytest.mark.parametrize("kind", ['ConfusionMatrix'])
@given(data=counted_samples())
def test_a_confusion_matrix_follows_the_counted_state_protocol(kind, data):
    """Merged parts equal the whole in any order, ``(a + b) - b == a``, scaling, JSON and
    pickle round trips (``harness.check_kind``)."""
    check_kind(kind, data)
