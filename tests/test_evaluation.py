"""Evaluation: every input form, the four averages against scikit-learn, rejection, masks, errors."""



import numpy as np
import pytest
from harness import check_kind, counted_samples
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from sklearn import metrics as sk
from strategies import close

from evalkit import (
    ClassificationMetrics,
    ConfusionMatrix,
    Evaluation,
    ThresholdCurve,
    formulas,
)
from evalkit.exceptions import (
    DuplicateLabelError,
    InputLengthError,
    InputShapeError,
    InvalidArgumentError,
    InvalidTypeError,
    InvalidValueError,
    UnknownLabelError,
    UnsupportedSettingError,
)

POLICIES = [("exclude", np.nan), ("zero", 0.0), ("one", 1.0)]
AVERAGES = ["micro", "macro", "weighted", "samples"]


def random_indicators(seed, n=120, m=6):
    rng = np.random.default_rng(seed)
    actual = rng.random((n, m)) < rng.uniform(0.05, 0.5, m)
    predicted = rng.random((n, m)) < rng.uniform(0.05, 0.5, m)
    actual[:5] = False  # samples with no actual label
    predicted[3:8] = False  # and with no predicted label
    actual[:, 0] = False  # a label nobody has
    predicted[:, 1] = False  # a label nobody predicts
    return actual, predicted


def same_cells(first, second):
    for name in ("tp", "fp", "fn", "tn"):
        np.testing.assert_array_equal(getattr(first, name), getattr(second, name), err_msg=name)




# --------------------------------------------------------------------------------------------
# agreement with scikit-learn on multi-label data


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize(("undefined", "zero_division"), POLICIES)
def test_precision_recall_f_match_scikit_learn(seed, average, undefined, zero_division):
    actual, predicted = random_indicators(seed)
    ev = Evaluation.from_indicators(actual, predicted)
    for beta in (1.0, 0.5, 2.0):
        p, r, f, _ = sk.precision_recall_fscore_support(actual, predicted, beta=beta, average=average, zero_division=zero_division)
        assert close(ev.average("precision", average, undefined=undefined), p)
        assert close(ev.average("recall", average, undefined=undefined), r)
        assert close(ev.average("f_score", average, undefined=undefined, beta=beta), f)
    assert close(ev.average("f1_score", average, undefined=undefined), sk.f1_score(actual, predicted, average=average, zero_division=zero_division))


@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize(("undefined", "zero_division"), POLICIES[1:])  # jaccard_score has no NaN option
def test_jaccard_matches_scikit_learn(average, undefined, zero_division):
    actual, predicted = random_indicators(7)
    expected = sk.jaccard_score(actual, predicted, average=average, zero_division=zero_division)
    assert close(Evaluation.from_indicators(actual, predicted).average("jaccard_index", average, undefined=undefined), expected)


def test_hamming_loss_and_subset_accuracy_match_scikit_learn():
    actual, predicted = random_indicators(3)
    ev = Evaluation.from_indicators(actual, predicted)
    assert close(ev.average("error_rate", "micro"), sk.hamming_loss(actual, predicted))
    assert close(ev.average("hamming_loss", "micro"), sk.hamming_loss(actual, predicted))
    assert close(ev.get_accuracy(), sk.accuracy_score(actual, predicted))


def test_per_class_and_per_sample_vectors_match_scikit_learn():
    actual, predicted = random_indicators(4)
    ev = Evaluation.from_indicators(actual, predicted)
    p, r, _f, support = sk.precision_recall_fscore_support(actual, predicted, average=None, zero_division=np.nan)
    np.testing.assert_allclose(ev.per_class("precision"), p, equal_nan=True)
    np.testing.assert_allclose(ev.per_class("recall"), r, equal_nan=True)
    np.testing.assert_array_equal(ev.class_cells.support, support)
    tp = (actual & predicted).sum(1)
    with np.errstate(invalid="ignore", divide="ignore"):
        np.testing.assert_allclose(ev.per_sample("precision"), tp / predicted.sum(1), equal_nan=True)


def test_multilabel_confusion_matrix_of_scikit_learn_is_the_class_cells():
    actual, predicted = random_indicators(5)
    ev = Evaluation.from_indicators(actual, predicted)
    mcm = sk.multilabel_confusion_matrix(actual, predicted)  # [[tn, fp], [fn, tp]] per label
    cells = ev.class_cells
    np.testing.assert_array_equal(mcm[:, 0, 0], cells.tn)
    np.testing.assert_array_equal(mcm[:, 0, 1], cells.fp)
    np.testing.assert_array_equal(mcm[:, 1, 0], cells.fn)
    np.testing.assert_array_equal(mcm[:, 1, 1], cells.tp)


# --------------------------------------------------------------------------------------------
# every input form gives the same cells


def as_sets(matrix, labels):
    return [{labels[j] for j in np.flatnonzero(row)} for row in matrix]


@given(hnp.arrays(bool, st.tuples(st.integers(1, 40), st.integers(1, 7))), st.data())
def test_label_sets_equal_indicators(actual, data):
    predicted = data.draw(hnp.arrays(bool, actual.shape))
    labels = [f"L{j}" for j in range(actual.shape[1])]
    dense = Evaluation.from_indicators(actual, predicted, labels)
    sparse = Evaluation.from_label_sets(as_sets(actual, labels), as_sets(predicted, labels), labels)
    same_cells(dense.class_cells, sparse.class_cells)
    same_cells(dense.sample_cells, sparse.sample_cells)


@given(hnp.arrays(bool, st.tuples(st.integers(1, 40), st.integers(1, 7))), st.data())
def test_integer_float_and_bool_indicators_agree(actual, data):
    predicted = data.draw(hnp.arrays(bool, actual.shape))
    reference = Evaluation.from_indicators(actual, predicted)
    for kind in (np.int8, np.int64, np.float32, np.float64):
        other = Evaluation.from_indicators(actual.astype(kind), predicted.astype(kind))
        same_cells(reference.class_cells, other.class_cells)
        same_cells(reference.sample_cells, other.sample_cells)


def test_large_indicators_use_row_blocks_and_column_partial_sums():
    rng = np.random.default_rng(9)
    actual, predicted = rng.random((30_000, 300)) < 0.05, rng.random((30_000, 300)) < 0.05
    ev = Evaluation.from_indicators(actual, predicted)
    np.testing.assert_array_equal(ev.class_cells.tp, (actual & predicted).sum(0))
    np.testing.assert_array_equal(ev.sample_cells.fn, (actual & ~predicted).sum(1))
    np.testing.assert_array_equal(ev.class_cells.tn, (~actual & ~predicted).sum(0))


@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=60))
def test_labels_equal_one_hot_indicators(pairs):
    """from_labels counts without indicators; it must agree with the explicit one-hot matrices."""
    y_true, y_pred = [a for a, _ in pairs], [p for _, p in pairs]
    labels = sorted(set(y_true) | set(y_pred))
    one_hot = np.eye(len(labels), dtype=bool)
    index = {label: k for k, label in enumerate(labels)}
    compact = Evaluation.from_labels(y_true, y_pred)
    dense = Evaluation.from_indicators(one_hot[[index[a] for a in y_true]], one_hot[[index[p] for p in y_pred]], labels)
    same_cells(compact.class_cells, dense.class_cells)
    for name in ("precision", "recall", "f1_score", "jaccard_index", "matthews_correlation_coefficient"):
        np.testing.assert_allclose(compact.per_sample(name), dense.per_sample(name), equal_nan=True)
        for average in AVERAGES:
            assert close(compact.average(name, average), dense.average(name, average)), (name, average)
    assert close(compact.get_accuracy(), dense.get_accuracy())


@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=60))
def test_labels_agree_with_the_confusion_matrix(pairs):
    y_true, y_pred = [a for a, _ in pairs], [p for _, p in pairs]
    ev = Evaluation.from_labels(y_true, y_pred)
    cm = ConfusionMatrix.from_predictions(y_true, y_pred)
    same_cells(ev.class_cells, cm.cells())
    assert ev.confusion_matrix() == cm
    assert ev.get_accuracy() == cm.get_accuracy()
    assert close(ev.get_cohen_kappa(), cm.get_cohen_kappa())
    for average in AVERAGES:
        assert close(ev.average("f1_score", average), cm.average("f1_score", average))


def test_scores_with_a_threshold_equal_thresholded_indicators():
    rng = np.random.default_rng(11)
    actual = rng.random((80, 5)) < 0.3
    scores = rng.random((80, 5)).astype(np.float32)
    thresholds = np.array([0.2, 0.4, 0.5, 0.6, 0.8])
    for threshold in (0.5, 0.3, thresholds):
        expected = Evaluation.from_indicators(actual, scores >= threshold)
        same_cells(Evaluation.from_scores(actual, scores, threshold=threshold).class_cells, expected.class_cells)
    same_cells(Evaluation.from_scores(actual, scores).sample_cells, Evaluation.from_indicators(actual, scores >= 0.5).sample_cells)


def test_scores_with_top_k():
    scores = np.array([[0.1, 0.9, 0.5], [0.3, 0.3, 0.2], [0.0, 0.1, 0.2]])
    actual = np.array([[0, 1, 1], [1, 0, 0], [0, 0, 1]], dtype=bool)
    ev = Evaluation.from_scores(actual, scores, top_k=2)
    predicted = np.array([[0, 1, 1], [1, 1, 0], [0, 1, 1]], dtype=bool)  # ties go to the lower column
    same_cells(ev.sample_cells, Evaluation.from_indicators(actual, predicted).sample_cells)


def test_scores_with_one_label_per_sample_equal_one_hot_indicators():
    rng = np.random.default_rng(12)
    labels = ["x", "y", "z"]
    y_true = rng.choice(labels, 90)
    scores = rng.random((90, 3))
    one_hot = np.array([[label == name for name in labels] for label in y_true])
    for options in ({"threshold": 0.4}, {"top_k": 1}, {"top_k": 2}):
        ev = Evaluation.from_scores(y_true, scores, labels, **options)
        expected = Evaluation.from_scores(one_hot, scores, labels, **options)
        same_cells(ev.class_cells, expected.class_cells)
        same_cells(ev.sample_cells, expected.sample_cells)
    top1 = Evaluation.from_scores(y_true, scores, labels, top_k=1)
    argmax = Evaluation.from_labels(y_true, np.array(labels)[scores.argmax(1)], labels)
    assert close(top1.average("f1_score", "macro"), argmax.average("f1_score", "macro"))


# --------------------------------------------------------------------------------------------
# masks, rejection and open sets


def test_a_mask_leaves_unknown_entries_out():
    actual, predicted = random_indicators(6)
    mask = np.ones_like(actual)
    mask[:, 2] = False
    mask[10:20] = False
    ev = Evaluation.from_indicators(actual, predicted, mask=mask)
    kept = Evaluation.from_indicators(np.delete(actual[20:], 2, 1), np.delete(predicted[20:], 2, 1))
    head = Evaluation.from_indicators(np.delete(actual[:10], 2, 1), np.delete(predicted[:10], 2, 1))
    for name in ("tp", "fp", "fn", "tn"):
        by_class = getattr(ev.class_cells, name)
        assert by_class[2] == 0
        np.testing.assert_array_equal(np.delete(by_class, 2), getattr(kept.class_cells, name) + getattr(head.class_cells, name))
        np.testing.assert_array_equal(getattr(ev.sample_cells, name)[10:20], 0)
    assert ev.class_cells.tp.sum() + ev.class_cells.fp.sum() + ev.class_cells.fn.sum() + ev.class_cells.tn.sum() == mask.sum()


def test_rejection_as_miss_or_selective_on_indicators():
    actual, predicted = random_indicators(8)
    rejected = np.zeros(len(actual), dtype=bool)
    rejected[::4] = True
    miss = Evaluation.from_indicators(actual, predicted, rejected=rejected)
    blanked = predicted.copy()
    blanked[rejected] = False
    same_cells(miss.class_cells, Evaluation.from_indicators(actual, blanked).class_cells)
    selective = Evaluation.from_indicators(actual, predicted, rejected=rejected, rejection="selective")
    kept = Evaluation.from_indicators(actual[~rejected], predicted[~rejected])
    same_cells(selective.class_cells, kept.class_cells)
    same_cells(selective.sample_cells, kept.sample_cells)
    assert selective.coverage == pytest.approx(0.75) and selective.n_rejected == 30 and miss.coverage == 1.0
    assert selective.average("recall", "micro") > miss.average("recall", "micro")


def test_rejection_on_labels_counts_a_miss_or_leaves_the_sample_out():
    y_true = ["a", "a", "b", "b", "c"]
    y_pred = ["a", "-", "b", "-", "a"]
    miss = Evaluation.from_labels(y_true, y_pred, none="-")
    assert miss.labels == ("a", "b", "c")
    np.testing.assert_array_equal(miss.class_cells.tp, [1, 1, 0])
    np.testing.assert_array_equal(miss.class_cells.tn, [2, 3, 4])
    np.testing.assert_array_equal(miss.class_cells.fn, [1, 1, 1])
    np.testing.assert_array_equal(miss.class_cells.fp, [1, 0, 0])
    assert miss.average("recall", "micro") == pytest.approx(2 / 5)
    selective = Evaluation.from_labels(y_true, y_pred, none="-", rejection="selective")
    assert selective.coverage == pytest.approx(3 / 5)
    assert selective.average("recall", "micro") == pytest.approx(2 / 3)
    assert selective.confusion_matrix().labels == ("a", "b", "c", "-")


def test_open_set_unknown_actual_samples_are_all_zero_rows():
    """An unknown-class sample predicted as a known class is a false positive and nothing else."""
    y_true = ["a", "?", "?", "b"]
    y_pred = ["a", "a", "?", "b"]
    ev = Evaluation.from_labels(y_true, y_pred, none="?")
    np.testing.assert_array_equal(ev.class_cells.fp, [1, 0])
    np.testing.assert_array_equal(ev.class_cells.fn, [0, 0])
    np.testing.assert_array_equal(ev.class_cells.tn, [2, 3])
    np.testing.assert_array_equal(ev.per_sample("false_positive_rate"), [0, 0.5, 0, 0])
    assert ev.get_accuracy() == 0.75  # correctly rejecting the unknown counts as right
    actual = np.array([[1, 0], [0, 0], [0, 0], [0, 1]], dtype=bool)
    predicted = np.array([[1, 0], [1, 0], [0, 0], [0, 1]], dtype=bool)
    same_cells(ev.class_cells, Evaluation.from_indicators(actual, predicted, ["a", "b"]).class_cells)


def test_none_in_explicit_labels_is_rejected_and_selective_needs_none():
    with pytest.raises(InvalidArgumentError, match="needs 'none'"):
        Evaluation.from_labels([1], [1], rejection="selective")
    with pytest.raises(InvalidArgumentError, match="'rejection'"):
        Evaluation.from_labels([1], [1], rejection="drop")


# --------------------------------------------------------------------------------------------
# Java-style objects and whole-result measures


def test_class_metrics_objects_hold_the_class_cells():
    actual, predicted = random_indicators(10)
    ev = Evaluation.from_indicators(actual, predicted, list("abcdef"))
    objects = ev.class_metrics()
    assert [m.get_class_label() for m in objects] == list("abcdef")
    for k, metrics in enumerate(objects):
        assert metrics.get_true_negative() == ev.class_cells.tn[k]
        assert close(metrics.get_f1_score(), ev.per_class("f1_score")[k])
    stats = ClassificationMetrics.average(objects)
    assert close(stats.get("precision"), ev.average("precision", "macro"))


def test_sample_metrics_objects_hold_the_sample_cells():
    ev = Evaluation.from_labels(["a", "b", "b"], ["a", "a", "b"])
    objects = ev.sample_metrics()
    assert [m.get_class_label() for m in objects] == [0, 1, 2]
    assert [m.get_precision() for m in objects] == [1.0, 0.0, 1.0]
    assert [m.get_true_negative() for m in ev.sample_metrics([1])] == [0]


def test_whole_matrix_measures_need_single_label_data():
    actual, predicted = random_indicators(1)
    ev = Evaluation.from_indicators(actual, predicted)
    for method in ("get_cohen_kappa", "get_matthews_correlation_coefficient", "confusion_matrix"):
        with pytest.raises(UnsupportedSettingError, match="single-label"):
            getattr(ev, method)()
    with pytest.raises(UnsupportedSettingError):
        Evaluation.from_soft([[0.5]], [[0.5]]).get_accuracy()


def test_a_subclass_getter_averages_over_samples_too():
    class WithYouden(ClassificationMetrics):
        def get_youden(self):
            return self.get_recall() + self.get_specificity() - 1

    actual, predicted = random_indicators(2, n=30)
    ev = Evaluation.from_indicators(actual, predicted)
    for average in AVERAGES:
        assert close(ev.average("youden", average, metrics_class=WithYouden), ev.average("informedness", average))


def test_repr():
    assert repr(Evaluation.from_labels([1, 2], [1, 1])) == "Evaluation(setting='single-label', labels=[1, 2], samples=2)"


# --------------------------------------------------------------------------------------------
# bad input


def test_shapes_must_match():
    with pytest.raises(InputShapeError, match="'y_pred' has shape \\(2, 3\\) but 'y_true' has shape \\(2, 2\\)"):
        Evaluation.from_indicators(np.zeros((2, 2)), np.zeros((2, 3)))
    with pytest.raises(InputShapeError, match="2-D"):
        Evaluation.from_indicators([0, 1], [0, 1])
    with pytest.raises(InputShapeError, match="'labels' has 1 labels but the data have 2 columns"):
        Evaluation.from_indicators(np.zeros((2, 2)), np.zeros((2, 2)), labels=["a"])
    with pytest.raises(InputShapeError, match="'mask'"):
        Evaluation.from_indicators(np.zeros((2, 2)), np.zeros((2, 2)), mask=np.ones((2, 3)))
    with pytest.raises(InputShapeError, match="'rejected'"):
        Evaluation.from_indicators(np.zeros((2, 2)), np.zeros((2, 2)), rejected=[True])


def test_indicators_must_be_zero_or_one():
    with pytest.raises(InvalidValueError, match="'y_pred' must hold only 0 and 1"):
        Evaluation.from_indicators(np.zeros((2, 2)), np.array([[0, 2], [1, 0]]))
    with pytest.raises(InvalidValueError, match="'y_true'"):
        Evaluation.from_indicators(np.array([[0.5, 1.0]]), np.zeros((1, 2)))


def test_label_sets_must_be_collections_and_of_equal_length():
    with pytest.raises(InvalidTypeError, match="element 1 is a str"):
        Evaluation.from_label_sets([{"a"}, "ab"], [{"a"}, {"b"}])
    with pytest.raises(InputLengthError):
        Evaluation.from_label_sets([{"a"}], [{"a"}, set()])
    with pytest.raises(UnknownLabelError, match="'y_pred' contains 'z'"):
        Evaluation.from_label_sets([{"a"}], [{"z"}], labels=["a"])
    with pytest.raises(InputShapeError, match="from_indicators"):
        Evaluation.from_label_sets(np.zeros((2, 2)), np.zeros((2, 2)))


def test_bad_scores_thresholds_and_top_k():
    actual = np.zeros((2, 2), dtype=bool)
    with pytest.raises(InvalidValueError, match="'y_score' must be finite"):
        Evaluation.from_scores(actual, [[0.1, np.nan], [0.2, 0.3]])
    with pytest.raises(InvalidArgumentError, match="not both"):
        Evaluation.from_scores(actual, np.zeros((2, 2)), threshold=0.5, top_k=1)
    with pytest.raises(InvalidArgumentError, match="'top_k' must be an integer in 1..2"):
        Evaluation.from_scores(actual, np.zeros((2, 2)), top_k=3)
    with pytest.raises(InvalidArgumentError, match="'threshold'"):
        Evaluation.from_scores(actual, np.zeros((2, 2)), threshold=[0.1, 0.2, 0.3])
    with pytest.raises(InputLengthError):
        Evaluation.from_scores([0, 1, 1], np.zeros((2, 2)))
    with pytest.raises(UnknownLabelError):
        Evaluation.from_scores(["a", "q"], np.zeros((2, 2)), labels=["a", "b"])


def test_inputs_are_never_modified():
    actual, predicted = random_indicators(13)
    copies = actual.copy(), predicted.copy()
    rejected = np.zeros(len(actual), dtype=bool)
    rejected[:3] = True
    Evaluation.from_indicators(actual, predicted, rejected=rejected)
    Evaluation.from_indicators(actual, predicted, rejected=rejected, rejection="selective")
    Evaluation.from_scores(actual, predicted.astype(float), top_k=2)
    np.testing.assert_array_equal(actual, copies[0])
    np.testing.assert_array_equal(predicted, copies[1])


def test_measures_are_resolved_once_for_every_average():
    actual, predicted = random_indicators(14)
    ev = Evaluation.from_indicators(actual, predicted)
    for name in formulas.measure_names():
        for average in AVERAGES:
            assert isinstance(ev.average(name, average), float)


def test_vectors_check_the_parameters_of_the_measure_like_averages_do():
    ev = Evaluation.from_label_sets([{"a"}], [{"a"}])
    for method in (ev.per_class, ev.per_sample):
        with pytest.raises(InvalidArgumentError, match="takes beta; got gamma"):
            method("f_score", gamma=2)
    assert ev.per_class("f_score", beta=2)[0] == 1.0


def _grid_only(a, b):
    """The product on the 11 x 11 grid (sin(20 pi x) = 0 at x = k/10), not between."""
    return np.clip(np.multiply(a, b) + 0.05 * (np.sin(20 * np.pi * np.asarray(a)) * np.sin(20 * np.pi * np.asarray(b))) ** 2, 0, 1)


def _not_associative(a, b):
    """Half minimum, half Lukasiewicz: boundary, symmetry and monotonicity hold; associativity not."""
    return (np.minimum(a, b) + np.maximum(0.0, np.add(a, b) - 1.0)) / 2


@pytest.mark.parametrize(
    ("tnorm", "error", "message"),
    [
        (lambda a, b: "x", InvalidTypeError, "must return numbers, got 'x'"),
        (lambda a, b: np.ravel(a)[:1], InvalidArgumentError, r"returned shape \(1,\) for inputs of shape \(11, 11\)"),
        (np.maximum, InvalidArgumentError, "is not a t-norm: fails T\\(x, 1\\) = x"),
        (lambda a, b: np.multiply(a, b) * 1.5, InvalidArgumentError, r"finite degrees in \[0, 1\]"),
        (_grid_only, InvalidArgumentError, "'_grid_only' is not a t-norm"),
        (_not_associative, InvalidArgumentError, r"fails T\(a, T\(b, c\)\) = T\(T\(a, b\), c\)"),
    ],
)
def test_a_custom_tnorm_that_is_not_one_is_refused(tnorm, error, message):
    with pytest.raises(error, match=message):
        Evaluation.from_soft([[0.2, 0.9]], [[0.6, 0.4]], tnorm=tnorm)


def test_a_custom_tnorm_is_checked_on_the_data_too():
    calls: list = []

    def product_then_garbage(a, b):  # right on the probe points, wrong on the data (3 x 2)
        calls.append(np.shape(a))
        return np.multiply(a, b)[..., :1] if np.shape(a) == (3, 2) else np.multiply(a, b)

    with pytest.raises(InvalidArgumentError, match="returned shape"):
        Evaluation.from_soft(np.full((3, 2), 0.5), np.full((3, 2), 0.5), tnorm=product_then_garbage)


def test_a_true_custom_tnorm_gives_its_cells():
    def hamacher(a, b):
        a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        denominator = a + b - a * b
        return np.divide(a * b, denominator, out=np.zeros(np.broadcast(a, b).shape), where=denominator > 0)

    actual, predicted = np.random.default_rng(3).random((20, 3)), np.random.default_rng(4).random((20, 3))
    ev = Evaluation.from_soft(actual, predicted, tnorm=hamacher)
    np.testing.assert_allclose(ev.class_cells.tp, hamacher(actual, predicted).sum(axis=0), rtol=1e-12)
    np.testing.assert_allclose(ev.class_cells.fn, hamacher(actual, 1 - predicted).sum(axis=0), rtol=1e-12)


def test_a_list_of_0_1_lists_is_indicator_rows_everywhere():

    y, s = [[0, 1], [1, 0], [1, 1]], [[0.2, 0.8], [0.6, 0.4], [0.7, 0.9]]
    assert Evaluation.from_scores(y, s) == Evaluation.from_scores(np.array(y), s)
    assert ThresholdCurve.from_scores(y, s) == ThresholdCurve.from_scores(np.array(y), s)
    assert Evaluation.from_indicators(y, [[0, 1], [1, 1], [0, 1]]) == Evaluation.from_indicators(np.array(y), np.array([[0, 1], [1, 1], [0, 1]]))


@pytest.mark.parametrize("kind", ['Evaluation of labels', 'Evaluation of label sets', 'Evaluation of degrees'])
@given(data=counted_samples())
def test_a_evaluation_follows_the_counted_state_protocol(kind, data):
    """Merged parts equal the whole in any order, ``(a + b) - b == a``, scaling, JSON and
    pickle round trips (``harness.check_kind``)."""
    check_kind(kind, data)


def test_an_evaluation_that_holds_nothing_equals_its_empty_state_and_scaling_keeps_its_cells_its_pairs():
    """c - c held the indexed sample cells of its batch, the empty state plain ones: they were
    unequal, so a result holding nothing did not know it. A scaled float-weighted result's
    class cells are those its scaled pairs give, so merging it with nothing leaves it as it is."""
    counted = Evaluation.from_labels(["a", "b"], ["a", "a"])
    assert counted - counted == counted.empty() and Evaluation.from_json((counted - counted).to_json()) == counted.empty()
    for build in (Evaluation.from_labels, lambda y, p, **weights: Evaluation.from_ordinal(y, p, ["a", "b", "c"], **weights)):
        scaled = build(["c", "b", "a"], ["a", "a", "b"], sample_weight=[0.7, 5.0, 0.1]).scaled(0.1)
        nothing = scaled.empty()
        assert scaled + nothing == scaled and nothing + scaled == scaled and scaled - nothing == scaled
        assert (scaled + nothing).average("specificity", "micro") == scaled.average("specificity", "micro")


def test_a_pickle_of_pair_counts_from_before_their_rests_loads():
    """Pair counts pickled before float counts kept their rests (no low, no exact) load, and
    read as their counts."""
    from evalkit._engine._pair_counts import PairCounts

    pairs = PairCounts.from_codes(np.array([0, 1, 1]), np.array([0, 1, 0]), 2, np.array([0.1, 0.2, 0.3]))
    state = {name: value for name, value in pairs.__getstate__().items() if name not in ("low", "exact")}
    earlier = object.__new__(PairCounts)
    earlier.__setstate__(state)
    assert earlier.low is None and earlier.exact == {} and earlier.plus(earlier).counts.tolist() == (pairs.counts * 2).tolist()


def test_a_subclass_evaluation_equals_its_base_and_a_document_of_0_1_0_reads_its_pairs_cells():
    """A subclass's evaluation equals the base's of the same counts (they merge; the declared
    equality had asked for one type). evalkit 0.1.0 wrote a float-weighted evaluation's class
    cells as its cancelling sums gave them (fn 0 for a miss of weight 2.5 beside 1e16): read
    back, the cells are those its pairs give, so merging it with nothing leaves it as it is.
    with_labels never makes the none value a class."""

    class Sub(Evaluation):
        pass

    sub, base = Sub.from_labels(["a"], ["a"]), Evaluation.from_labels(["a"], ["a"])
    assert sub == base and base == sub and Evaluation.from_json(sub.to_json()) == sub
    written_by_0_1_0 = (
        '{"evalkit": "Evaluation", "version": 1, "setting": "single-label", "labels": ["b", "c"], "class_cells": {"tp": [1e+16, 0.0], "fp": [0.0, 2.5], '
        '"fn": [0.0, 0.0], "tn": [0.0, 1e+16]}, "sample_cells": {"tp": [1, 0, 0, 0, 0], "fp": [0, 1, 0, 1, 0], "fn": [0, 1, 1, 0, 0], "tn": [1, 0, 1, 1, 2], '
        '"weight": [1e+16, 2.5], "index": [0, 1]}, "ordered": true, "confusion_labels": ["b", "c"], "confusion": {"actual": [0, 0], "predicted": [0, 1], '
        '"counts": [1e+16, 2.5]}, "n_rejected": 0}'
    )
    read = Evaluation.from_json(written_by_0_1_0)
    assert read == Evaluation.from_labels(["b", "b"], ["b", "c"], sample_weight=[1e16, 2.5]) and read + read.empty() == read
    assert read.class_cells.fn.tolist() == [2.5, 0.0]
    with pytest.raises(DuplicateLabelError, match="'labels' contains '\\?' \\(str\\) twice"):
        Evaluation.from_labels(["a", "b"], ["a", "?"], none="?").with_labels(["a", "b", "?"])


def test_a_window_of_evaluations_pickles_at_every_protocol():
    """A window's batches have slots, which pickle's protocols 0 and 1 took only with their own
    state; a batch pickled before (None, its slots) still loads."""
    import pickle

    from evalkit import Stream, Windowed
    from evalkit._scale._batches import Batch

    for template in (Stream(Evaluation.from_labels), ConfusionMatrix(["a", "b"])):
        window = Windowed(template, size=3)
        window.update(["a", "b"], ["a", "a"])
        assert all(pickle.loads(pickle.dumps(window, protocol=protocol)).result == window.result for protocol in range(pickle.HIGHEST_PROTOCOL + 1))
    earlier = object.__new__(Batch)
    earlier.__setstate__((None, {"_arrays": ([1],), "_times": None, "_weight": None, "cell": None, "names": (), "part": None, "start": 0}))
    assert len(earlier) == 1
