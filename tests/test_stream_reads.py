"""Reads of a stream: a matrix counted one sample at a time keeps running margins (its tally)
and reads averages from them; every read equals the same average of the same counts taken
from the table (a fresh matrix, the vectorised path), whatever came before: single samples,
batches, merges, subtractions, new labels, resets. Label sets of fixed labels keep the same
running sums per label, and their reads equal their evaluation's."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalkit import ClassificationMetrics, ConfusionMatrix
from evalkit.exceptions import EvalkitError, InvalidArgumentError
from evalkit.measures._arithmetic import reads
from evalkit.measures._averaging import average_cells, mean_by_weight, mean_of, mean_of_numbers, mean_rows
from evalkit.measures._formulas import get_measure
from evalkit.measures._matrix_formulas import margins_cohen_kappa, margins_matthews_correlation_coefficient
from evalkit.measures._registry import MEASURES

LABELS = ["a", "b", "c", "d"]
POLICIES = ("exclude", "zero", "one", "nan")
ONE = st.tuples(st.sampled_from(["one", "update_one"]), st.sampled_from(LABELS), st.sampled_from(LABELS))
OPERATIONS = st.lists(
    st.one_of(
        ONE, ONE, ONE, ONE,
        st.tuples(st.just("inc"), st.integers(0, 3), st.integers(0, 3)),
        st.tuples(st.just("batch"), st.lists(st.sampled_from(LABELS), min_size=9, max_size=20), st.integers(0, 99)),
        st.tuples(st.just("add"), st.sampled_from(LABELS), st.sampled_from(LABELS)),
        st.tuples(st.just("take"), st.integers(0, 99), st.integers(0, 99)),
        st.tuples(st.just("reset"), st.none(), st.none()),
    ),
    min_size=1, max_size=40,
)  # fmt: skip


def apply(cm, operation):
    kind, first, second = operation
    if kind == "one":
        cm.update([first], [second])
    elif kind == "update_one":
        cm.update_one(first, second)
    elif kind == "inc":
        cm.inc(first, second)
    elif kind == "batch":
        cm.update(
            first, first[second % len(first) :] + first[: second % len(first)]
        )  # a batch of more than a few: the table path
    elif kind == "add":
        cm += ConfusionMatrix.from_predictions([first], [second], labels=LABELS)
    elif kind == "take":
        counts = cm.to_array()
        cell = np.unravel_index(first % counts.size, counts.shape)
        if counts[cell]:
            part = np.zeros_like(counts)
            part[cell] = 1
            cm -= ConfusionMatrix.from_array(part, labels=LABELS)
    else:
        cm.reset()


def assert_same(found, expected):
    assert (math.isnan(found) and math.isnan(expected)) or found == pytest.approx(expected, rel=1e-12, abs=1e-15)
    assert (found.n_values, found.n_defined) == (expected.n_values, expected.n_defined)


@settings(max_examples=60)
@given(OPERATIONS, st.sampled_from(sorted(MEASURES)), st.sampled_from(POLICIES))
def test_every_read_of_a_stream_equals_the_average_of_its_table(operations, name, policy):
    cm = ConfusionMatrix(LABELS)
    for operation in operations:
        apply(cm, operation)
        table = ConfusionMatrix.from_array(cm.to_array(), labels=LABELS)  # read with its labels named: every class from the table, no tally
        assert cm.get_accuracy() == table.get_accuracy() or (
            math.isnan(cm.get_accuracy()) and math.isnan(table.get_accuracy())
        )
        for average in ("micro", "macro", "weighted"):
            parameters = {"beta": 2.0} if name == "f_score" else {}
            assert_same(
                cm.average(name, average, undefined=policy, **parameters),
                table.average(name, average, undefined=policy, labels=LABELS, **parameters),
            )


SETS = st.lists(st.sampled_from(LABELS), unique=True, max_size=3)


@settings(max_examples=60)
@given(st.lists(st.lists(st.tuples(SETS, SETS), min_size=1, max_size=4), min_size=1, max_size=30), st.integers(1, 10),
       st.sampled_from(sorted(MEASURES)), st.sampled_from(POLICIES))  # fmt: skip
def test_every_read_of_a_stream_of_label_sets_equals_the_average_of_its_evaluation(stream, size, name, policy):
    """A window of label sets of fixed labels counts single samples in place and reads micro,
    macro and weighted averages from running sums (a label's tp, fp, fn, tn as a matrix
    class's); every read equals the same average of the evaluation of the same counts."""
    from evalkit import Windowed
    from evalkit._scale.streaming import LabelSetCounts

    window = Windowed(LabelSetCounts(LABELS), size=size)
    parameters = {"beta": 2.0} if name == "f_score" else {}
    for batch in stream:
        window.update([truth for truth, _ in batch], [guess for _, guess in batch])
        evaluation = window.to_evaluation()
        for average in ("micro", "macro", "weighted"):
            assert_same(window.average(name, average, undefined=policy, **parameters),
                        evaluation.average(name, average, undefined=policy, **parameters))  # fmt: skip


def test_a_stream_of_label_sets_keeps_labels_apart_and_its_table_whole():
    """Events of text labels are remembered by their pair of sets (``np.str_`` is its text);
    numbers never are (``True == 1``, two labels); single samples counted in the tally alone reach
    the table before any batch, copy, pickle or evaluation reads it, and a window read through
    its running sums pickles (the sums pickled, not the tally: it could not be pickled)."""
    import pickle

    from evalkit import Windowed
    from evalkit._scale.streaming import LabelSetCounts
    from evalkit.exceptions import MixedLabelTypesError

    texts = Windowed(LabelSetCounts(["a", "b"]), size=3)
    for truth, guess in (({"a"}, {"a", "b"}), ({np.str_("a")}, {np.str_("b"), "a"}), (set(), {"b"})):
        texts.update([truth], [guess])
        texts.average("f1_score", "micro")  # a read keeps the tally: the next events change it alone
    expected = LabelSetCounts(["a", "b"])
    expected.update([["a"], ["a"], []], [["a", "b"], ["a", "b"], ["b"]])
    assert texts.to_evaluation() == expected.to_evaluation()
    assert pickle.loads(pickle.dumps(texts.result)).to_evaluation() == expected.to_evaluation()
    counts = texts.result
    counts.update([["b"], ["a"]], [["b"], []])  # a batch after single samples: both counted
    expected.update([["b"], ["a"]], [["b"], []])
    assert counts.to_evaluation() == expected.to_evaluation()
    assert not {"_events", "_tally", "_pending_kinds"} & set(counts.__getstate__())
    texts.update([["a"]], [["a"]])
    texts.average("f1_score", "micro")  # single samples in the tally alone: pickled with them
    loaded = pickle.loads(pickle.dumps(texts))
    assert loaded.result == texts.result and loaded.average("f1_score", "samples") == texts.to_evaluation().average("f1_score", "samples")

    numbers = Windowed(LabelSetCounts([0, 1]), size=3)
    numbers.update([{1}], [{1}])
    with pytest.raises(MixedLabelTypesError):
        numbers.update([{True}], [{1}])


def test_a_sample_of_two_empty_label_sets_changes_what_reads_true_negatives():
    from evalkit import Windowed
    from evalkit._scale.streaming import LabelSetCounts

    window = Windowed(LabelSetCounts(LABELS), size=9)
    window.update([["d", "b"], ["a", "b", "d"], ["c", "a"]], [["b"], ["b", "a"], ["a", "c"]])
    before = window.average("negative_predictive_value", "macro")
    window.update([[]], [[]])  # no label in either set: one more true negative of every label
    assert window.average("negative_predictive_value", "macro") != before
    assert_same(window.average("negative_predictive_value", "macro"), window.to_evaluation().average("negative_predictive_value", "macro"))


def test_a_stream_reads_from_its_tally_and_makes_it_again_after_a_batch():
    """One-sample changes keep the running margins; a batch counted as a table drops them (no
    work between batches of a training loop) and the next read makes them again from the table:
    every read equals a fresh matrix's."""
    cm = ConfusionMatrix(LABELS)
    cm.update(["a"], ["b"])
    assert cm._tally is not None  # a stream of one-sample changes keeps its margins
    first = cm.average("f1_score")
    cm.update(["a"] * 10, ["a"] * 10)
    assert cm._tally is None  # a batch counted as a table: made again at the next read
    assert cm.average("f1_score") != first and cm._tally is not None
    assert cm.average("f1_score") == ConfusionMatrix.from_array(cm.to_array(), labels=LABELS).average("f1_score")
    many = [f"c{k:02d}" for k in range(30)]
    wide = ConfusionMatrix(many)
    wide.update([many[0]], [many[1]])
    assert wide._tally is not None
    everyone = [(a, p) for a in many for p in many]  # 900 cells, a batch counted as a table
    wide.update([a for a, _ in everyone], [p for _, p in everyone])
    assert wide.average("f1_score") == ConfusionMatrix.from_array(wide.to_array(), labels=many).average("f1_score")
    wide.update_indices(np.arange(30), np.arange(30)[::-1])
    assert wide.average("f1_score") == ConfusionMatrix.from_array(wide.to_array(), labels=many).average("f1_score")
    wide += ConfusionMatrix.from_array(np.eye(30, dtype=np.int64), many)
    assert wide.get_accuracy() == ConfusionMatrix.from_array(wide.to_array(), labels=many).get_accuracy()
    assert wide.average("recall", "weighted") == ConfusionMatrix.from_array(wide.to_array(), labels=many).average("recall", "weighted")
    assert wide._tally is not None


@settings(max_examples=40)
@given(st.lists(st.tuples(st.sampled_from(LABELS), st.sampled_from(LABELS)), min_size=1, max_size=30), OPERATIONS, st.sampled_from(sorted(MEASURES)))
def test_a_matrix_made_whole_reads_from_margins_made_at_its_first_read_and_kept_after(pairs, operations, name):
    """A matrix counted in one batch (``from_predictions``, ``from_array``) makes its margins at
    its first read of an average or of the classes' values (a few microseconds a read after it,
    as a stream's), and every change after it keeps them or drops them: each read equals the
    table's."""
    cm = ConfusionMatrix.from_predictions([a for a, _ in pairs], [p for _, p in pairs], labels=LABELS)
    parameters = {"beta": 2.0} if name == "f_score" else {}
    for operation in [("read", None, None), *operations]:
        if operation[0] != "read":
            apply(cm, operation)
        for average in ("micro", "macro", "weighted"):
            assert_same(cm.average(name, average, **parameters), cm.average(name, average, labels=LABELS, **parameters))
        for policy in POLICIES:  # each class's value, read from the margins, is the table's
            found, expected = cm.per_class(name, undefined=policy, **parameters), cm.per_class(name, undefined=policy, labels=LABELS, **parameters)
            assert np.array_equal(np.isnan(found), np.isnan(expected)) and found == pytest.approx(expected, rel=1e-12, abs=1e-15, nan_ok=True)
        table = cm.cells_of(LABELS).counts()
        for k in range(len(LABELS)):  # a class's metrics object reads its four counts from the margins too
            assert ClassificationMetrics(cm, class_idx=k)._counts() == {name: values[k].item() for name, values in table.items()}
    assert cm._tally is not None  # the last read made the margins, or kept them


def test_every_one_event_update_keeps_the_tally():
    """``inc``, ``update``, ``update_one``, ``update_indices`` (lists or arrays of one event),
    ``revert`` and a window's update each leave reads on the tally (the O(1) path)."""
    from evalkit import Windowed

    cm = ConfusionMatrix(LABELS)
    for step in (lambda: cm.inc(0, 1), lambda: cm.update(["a"], ["c"]), lambda: cm.update_one("b", "b"),
                 lambda: cm.update_indices([2], [3]), lambda: cm.update_indices(np.array([1]), np.array([1])),
                 lambda: cm.revert(["a"], ["c"])):  # fmt: skip
        step()
        assert cm._tally is not None
        assert cm.average("f1_score", "macro") == ConfusionMatrix.from_array(cm.to_array(), labels=LABELS).average("f1_score", "macro")
    window = Windowed(ConfusionMatrix(LABELS), size=3)
    for actual, predicted in zip("abcdab", "abddba"):
        window.update([actual], [predicted])
    assert window._result._tally is not None  # the result itself: `result` is a copy
    assert window.result.to_array().sum() == 3


def test_weighted_counts_keep_no_tally():
    cm = ConfusionMatrix(LABELS)
    cm.update(["a", "b"], ["a", "a"], sample_weight=[0.5, 2.0])
    cm.update(["a"], ["b"])
    assert cm._tally is None  # running sums of floats would round differently from the table's exact sums


def test_a_measure_registered_during_a_stream_is_found(monkeypatch):
    from evalkit.measures._formulas import register, unregister

    cm = ConfusionMatrix(LABELS)
    cm.update(["a"], ["a"])
    cm.update(["b"], ["a"])

    def twice_recall(*, tp, fp, fn, tn):
        return 2 * tp / (tp + fn)

    register(twice_recall, name="twice_recall")
    try:
        assert cm.average("twice_recall", "micro") == 1.0
    finally:
        unregister("twice_recall")


@given(st.lists(st.one_of(st.floats(0, 1), st.just(math.nan)), max_size=12), st.sampled_from(POLICIES))
def test_the_mean_of_a_few_numbers_follows_the_policy_of_mean_of(values, policy):
    found, expected = mean_of_numbers(values, undefined=policy), mean_of(values, undefined=policy)
    assert_same(found, expected)


@given(st.lists(st.tuples(st.one_of(st.floats(0, 1), st.just(math.nan)), st.sampled_from([0, 0.5, 1, 3, 7])), max_size=12), st.sampled_from(POLICIES))
def test_the_weighted_mean_of_a_few_numbers_is_the_vectorised_weighted_mean(pairs, policy):
    """``mean_by_weight`` (Python floats, both sums correctly rounded) gives numpy's ``mean_rows``
    to rounding, and counts as ``mean_of`` does: an entry of weight 0 is no value at all."""
    values, weights = [value for value, _ in pairs], [weight for _, weight in pairs]
    found, expected = mean_by_weight(values, weights, undefined=policy), mean_rows([values], [weights], undefined=policy)[0]
    assert (math.isnan(found) and math.isnan(expected)) or found == pytest.approx(expected, rel=1e-12, abs=1e-15)
    kept = [value for value, weight in pairs if weight > 0]
    assert (found.n_values, found.n_defined) == (len(kept), sum(1 for value in kept if not math.isnan(value)))


@settings(max_examples=40)
@given(st.lists(st.tuples(st.sampled_from(LABELS), st.sampled_from(LABELS)), min_size=1, max_size=30), st.sampled_from(sorted(MEASURES)),
       st.sampled_from(POLICIES))  # fmt: skip
def test_a_fresh_matrix_read_from_its_margins_equals_the_averages_of_its_cells(pairs, name, policy):
    """The first reads of a matrix made whole (margins as Python integers) equal the vectorised
    path's: each average of its class cells, and kappa, kappa-M and MCC of its pair counts."""
    cm = ConfusionMatrix.from_predictions([a for a, _ in pairs], [p for _, p in pairs], labels=LABELS)
    parameters = {"beta": 2.0} if name == "f_score" else {}
    for average in ("micro", "macro", "weighted"):
        fresh = ConfusionMatrix.from_predictions([a for a, _ in pairs], [p for _, p in pairs], labels=LABELS)
        expected = average_cells(get_measure(name), cm.class_cells, average, undefined=policy, parameters=parameters)
        assert_same(fresh.average(name, average, undefined=policy, **parameters), expected)
    margins = cm.pair_counts().ratio_margins()
    assert ConfusionMatrix.from_array(cm.to_array(), LABELS).get_cohen_kappa() == pytest.approx(margins_cohen_kappa(**margins), rel=1e-15, nan_ok=True)
    mcc = margins_matthews_correlation_coefficient(**margins)
    assert ConfusionMatrix.from_array(cm.to_array(), LABELS).get_matthews_correlation_coefficient() == pytest.approx(mcc, rel=1e-15, nan_ok=True)
    largest = max(np.asarray(margins["actual"]).tolist())
    kappa_m = (margins["correct"] - largest) / (margins["total"] - largest) if margins["total"] != largest else math.nan
    assert ConfusionMatrix.from_array(cm.to_array(), LABELS).get_kappa_m() == pytest.approx(kappa_m, rel=1e-15, nan_ok=True)


def test_reading_tn_is_read_from_the_definition():
    # F1 never reads tn: one sample changes only two classes' values; accuracy per class reads it
    assert not MEASURES["f1_score"].function.reads_tn and MEASURES["accuracy"].function.reads_tn
    assert not reads(lambda tp, fp, fn, tn: tp / (tp + fp), "tn")

    def captured(tp, fp, fn, tn):
        def inner():
            return tn

        return inner()

    assert reads(captured, "tn")  # captured by a nested function
    assert reads(lambda tp, fp, fn, tn: locals()["tn"], "tn")  # read by name: counts as read


@pytest.mark.parametrize("name", ["accuracy", "f1_score"])
def test_many_classes_read_the_same_as_the_table(name):
    # above SMALL classes a measure that reads tn takes the vectorised path; one that does not stays on the tally
    rng = np.random.default_rng(3)
    labels = list(range(70))
    cm = ConfusionMatrix(labels)
    for actual, predicted in zip(rng.integers(0, 70, 300).tolist(), rng.integers(0, 70, 300).tolist()):
        cm.update([actual], [predicted])
        table = ConfusionMatrix.from_array(cm.to_array(), labels=labels)
        assert_same(cm.average(name, "macro"), table.average(name, "macro"))


SCORES = st.sampled_from([0.1, 0.25, 0.5, 0.5, 0.75, 0.9, 1.0, 0])  # repeated scores: ties


@settings(max_examples=60)
@given(st.lists(st.tuples(st.sampled_from(["yes", "no"]), SCORES), min_size=2, max_size=40), st.lists(st.booleans(), min_size=40, max_size=40))
def test_a_curve_counted_a_sample_at_a_time_reads_as_its_scores_counted_again(samples, leaves):
    from evalkit import ThresholdCurve
    from evalkit._scale.streaming import CurveCounts

    counts = CurveCounts(pos_label="yes")
    counts.update(["yes", "no"], [0.5, 0.25])  # the first batch fixes the classes
    kept = [("yes", 0.5), ("no", 0.25)]
    for (label, score), leave in zip(samples, leaves):
        counts.update([label], [score])
        kept.append((label, score))
        if leave and len(kept) > 2:
            gone = kept.pop(len(kept) // 2)
            counts.revert([gone[0]], [gone[1]])  # taken away from the middle: any sample counted before
        again = ThresholdCurve.from_scores([label for label, _ in kept], [score for _, score in kept], pos_label="yes")
        assert counts.roc_auc() == pytest.approx(again.roc_auc(), rel=1e-12, nan_ok=True)
        assert all(np.array_equal(a, b) for a, b in zip(counts.curve().score_counts(), again.score_counts()))
    with pytest.raises(EvalkitError, match="never counted"):
        counts.revert(["yes"], [0.333])


def test_a_curve_table_leaves_weights_and_other_labels_to_the_general_path():
    from evalkit._scale.streaming import CurveCounts

    counts = CurveCounts()
    counts.update([0, 1], [0.2, 0.8], sample_weight=[0.5, 2.0])
    counts.update([1], [0.4])
    assert counts._table is None  # weighted counts keep their parts
    unweighted = CurveCounts()
    unweighted.update([0, 1], [0.2, 0.8])
    unweighted.update([1], [0.4])
    assert unweighted._table is not None
    with pytest.raises(EvalkitError):
        unweighted.update([2], [0.3])  # a third class: the general path refuses it, by name
    assert unweighted.roc_auc() == 1.0 and unweighted.curve().n_samples == 3  # both positives above the negative; the refused batch left nothing


def test_one_sample_by_its_labels_is_a_batch_of_one():
    cm, again = ConfusionMatrix(["a", "b"]), ConfusionMatrix(["a", "b"])
    for actual, predicted in (("a", "b"), ("b", "b"), ("a", "a")):
        cm.update_one(actual, predicted)
        again.update([actual], [predicted])
    assert cm == again and cm.average("f1_score") == again.average("f1_score")
    with pytest.raises(EvalkitError, match="'c'"):
        cm.update_one("c", "a")
    with pytest.raises(EvalkitError):
        cm.update_one(True, "a")  # True is no label "a" matrix has, nor the class 1
    assert cm.get_total_items() == 3  # refused samples changed nothing


def test_a_stream_read_with_a_bad_undefined_policy_is_refused_by_name():
    cm = ConfusionMatrix([0, 1])
    cm.update_one(0, 1)  # a stream: reads from its running sums
    with pytest.raises(InvalidArgumentError, match="'undefined' must be one of"):
        cm.average("f1_score", "macro", undefined=[1])


@pytest.mark.parametrize("average", [np.array([]), np.array(["macro", "micro"]), ["macro"], None])
def test_a_read_with_margins_and_an_average_that_is_no_name_is_refused_by_name(average):
    cm = ConfusionMatrix.from_predictions([0, 1, 1], [0, 1, 0])
    cm.average("f1_score", "macro")  # the margins made
    with pytest.raises(EvalkitError, match="'average'"):
        cm.average("f1_score", average)
