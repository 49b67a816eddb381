"""A counted kind declared in one short class (its settings, its sums, how a batch is counted,
one read) has the whole counted-state protocol, runs in every window and folds on Dask and
Spark, with no code outside the class; the kinds evalkit declares so go through the same
harness (``tests/test_counted_state.py`` holds every kind)."""

import json
import pickle
import sys

import numpy as np
import pytest
from harness import check_counted_state, check_subtract_refuses_a_part_never_added
from hypothesis import given
from hypothesis import strategies as st

from evalkit import Faded, IntervalCoverage, SetCoverage, SummedState, Tumbling, Windowed
from evalkit._engine.serialization import FormatError
from evalkit.exceptions import InvalidArgumentError, InvalidCountsError, InvalidTypeError, LabelMismatchError


class ClassHits(SummedState):
    """Per class of ``n_classes``: how much its samples weigh, and how much of it was predicted right."""

    DOCUMENT, SETTINGS, SUMS = "ClassHits", ("n_classes",), ("_counts",)

    def __init__(self, n_classes=3):
        self.n_classes = n_classes
        self._counts = np.zeros((n_classes, 2), dtype=np.int64)

    def _count(self, y_true, y_pred, *, sample_weight=None):
        actual, right = np.asarray(y_true, dtype=np.int64), np.asarray(y_true) == np.asarray(y_pred)
        weight = np.ones(len(actual), dtype=np.int64) if sample_weight is None else np.asarray(sample_weight)
        return (np.stack([np.bincount(actual, weight, self.n_classes), np.bincount(actual, weight * right, self.n_classes)], axis=1).astype(weight.dtype),)

    def accuracy(self):
        samples, right = self._numbers("_counts").sum(axis=0)
        return float(right / samples) if samples else float("nan")


def by_hand(y_true, y_pred, weight=None, n_classes=3):
    """The sums counted sample by sample in plain Python."""
    table = [[0, 0] for _ in range(n_classes)]
    for k, (actual, predicted) in enumerate(zip(y_true, y_pred)):
        w = 1 if weight is None else weight[k]
        table[actual][0] += w
        table[actual][1] += w * (actual == predicted)
    return table


samples = st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(1, 5)), min_size=2, max_size=40)


@given(samples, st.data())
def test_a_declared_kind_follows_the_whole_protocol(rows, data):
    cut = data.draw(st.integers(1, len(rows) - 1))
    y, p, w = (list(column) for column in zip(*rows))
    first, second = ClassHits().counted(y[:cut], p[:cut], sample_weight=w[:cut]), ClassHits().counted(y[cut:], p[cut:], sample_weight=w[cut:])
    whole = ClassHits().counted(y, p, sample_weight=w)
    assert whole._counts.tolist() == by_hand(y, p, w)
    check_counted_state(first, second, whole, measure=ClassHits.accuracy, size=lambda result: result._numbers("_counts")[:, 0].sum())
    check_subtract_refuses_a_part_never_added(first, whole + whole)


def test_a_declared_kind_refuses_other_settings_and_documents_no_counting_gives():
    with pytest.raises(LabelMismatchError, match="n_classes"):
        ClassHits(3) + ClassHits(4)
    document = json.loads(ClassHits().counted([0, 1], [0, 0]).to_json())
    assert document == {"evalkit": "ClassHits", "version": 1, "n_classes": 3, "counts": [1, 1, 1, 0, 0, 0]}
    with pytest.raises(FormatError, match="'counts' has 5 entries"):
        ClassHits.from_json(json.dumps({**document, "counts": [1, 1, 1, 0, 0]}))
    halved = ClassHits().counted([0, 1, 1], [0, 0, 1], sample_weight=[0.1, 1e-20, 1e9]).scaled(0.5)
    assert ClassHits.from_json(halved.to_json()) == halved == pickle.loads(pickle.dumps(halved))


def test_a_kind_whose_count_gives_other_sums_is_refused_and_keyword_columns_reach_it():
    class Broken(ClassHits):
        DOCUMENT = "BrokenHits"

        def _count(self, y_true, y_pred, *, sample_weight=None):
            return (np.array([1]),)

    with pytest.raises(InvalidTypeError, match=r"Broken._count must give its sums \('_counts',\) in their shapes \[\(3, 2\)\], got \[\(1,\)\]"):
        Broken().update([0], [0])
    y = np.arange(1.0, 7.0)
    assert IntervalCoverage([0, 3, 9]).counted(y, y - 1, y + 1, y_pred=y).bin_counts().tolist() == [2, 4]


@given(samples, st.integers(1, 12))
def test_a_declared_kind_runs_in_every_window(rows, size):
    y, p, w = (list(column) for column in zip(*rows))
    window, decayed, tumbling = Windowed(ClassHits(), size=size), Faded(ClassHits(), factor=0.5), Tumbling(ClassHits(), size=size)
    for start in range(0, len(y), 3):
        batch = (y[start : start + 3], p[start : start + 3])
        for kept in (window, decayed, tumbling):
            kept.update(*batch, sample_weight=w[start : start + 3])
    assert window.result == ClassHits().counted(y[-size:], p[-size:], sample_weight=w[-size:])
    ages = np.arange(len(y))[::-1]
    assert np.allclose(decayed.result._numbers("_counts"), by_hand(y, p, [w[k] * 0.5 ** ages[k] for k in range(len(y))]), rtol=1e-12)
    closed = [ClassHits().counted(y[k : k + size], p[k : k + size], sample_weight=w[k : k + size]) for k in range(0, len(y) - len(y) % size, size)]
    assert list(tumbling.history) == closed
    assert Windowed.from_json(window.to_json()).result == window.result


def _columns(n=3_000, seed=7):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 3, n), rng.integers(0, 3, n), rng.integers(1, 4, n)


@pytest.mark.slow
def test_a_declared_kind_folds_on_dask(client):
    import cloudpickle
    import dask.array as da

    from evalkit import dask as evalkit_dask

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers cannot import this test module: the kind travels by value
    y, p, w = _columns()
    found = evalkit_dask.fold(ClassHits(), *(da.from_array(column, chunks=700) for column in (y, p)), sample_weight=da.from_array(w, chunks=500))
    assert found == ClassHits().counted(y, p, sample_weight=w)
    grown = evalkit_dask.fold(LabelHits(), *(da.from_array(column, chunks=700) for column in (y, p)), sample_weight=da.from_array(w, chunks=500))
    assert grown.per_class() == LabelHits().counted(y, p, sample_weight=w).per_class()  # (classes joined as the partitions merged)


@pytest.mark.slow
def test_a_declared_kind_folds_on_spark(spark):
    from pyspark import cloudpickle

    from evalkit import spark as evalkit_spark

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the executors cannot import this test module: the kind travels by value
    y, p, w = _columns()
    df = spark.createDataFrame([(int(a), int(b), int(c)) for a, b, c in zip(y, p, w)], ["y", "p", "w"]).repartition(4)
    assert evalkit_spark.fold(df, ClassHits(), ["y", "p"], weight="w") == ClassHits().counted(y, p, sample_weight=w)
    assert evalkit_spark.fold(df, LabelHits(), ["y", "p"], weight="w").per_class() == LabelHits().counted(y, p, sample_weight=w).per_class()
    with pytest.raises(InvalidArgumentError, match="'names' must name the 2 columns once each"):  # one column would be counted as the other
        evalkit_spark.fold(df, ClassHits(), ["y", "p"], weight="w", names=("actual", "actual"))


@given(samples, st.data())
def test_a_declared_kind_reverts_a_batch_it_counted_and_refuses_one_it_did_not(rows, data):
    """Counted and taken away again: the state before; a batch never counted is refused and
    changes nothing (also where only the sums' relations would show it: a set coverage whose
    class would cover more than it counts)."""
    cut = data.draw(st.integers(1, len(rows) - 1))
    y, p, w = (list(column) for column in zip(*rows))
    kept = ClassHits().counted(y[:cut], p[:cut], sample_weight=w[:cut])
    stream = kept.copy()
    stream.update(y[cut:], p[cut:], sample_weight=w[cut:])
    stream.revert(y[cut:], p[cut:], sample_weight=w[cut:])
    assert stream == kept and stream.supports("revert")
    with pytest.raises(InvalidCountsError):
        stream.revert(y, p, sample_weight=[weight + 1 for weight in w])
    assert stream == kept  # nothing taken away
    sets = SetCoverage().counted(["a", "b"], [["a"], ["a", "b"]])
    with pytest.raises(InvalidCountsError, match="cover more samples than it counts"):
        sets.revert(["a"], [["b"]])  # class a counted covered, the part not: no counting gives what would be left
    assert sets == SetCoverage().counted(["a", "b"], [["a"], ["a", "b"]])


@given(st.lists(st.tuples(st.sampled_from([0.1, 0.5, 0.9, -2.0]), st.integers(0, 3), st.integers(0, 3), st.integers(1, 4)), min_size=1, max_size=30),
       st.data())
def test_a_score_table_adds_takes_away_and_recodes_like_its_samples_counted_by_hand(rows, data):
    from evalkit._engine._score_table import ScoreTable

    names = ("score", "actual", "predicted", "weight")

    def table(part, weighted=True):
        score, actual, predicted, weight = (np.array(column) for column in zip(*part)) if part else (np.zeros(0), *(np.zeros(0, dtype=np.int64),) * 3)
        return ScoreTable.counted(score.astype(float), np.stack([actual, predicted]).astype(np.int64), weight if weighted else None, names)

    def by_hand(part):
        sums = {}
        for score, actual, predicted, weight in part:
            sums[(score, actual, predicted)] = sums.get((score, actual, predicted), 0) + weight
        return sorted(sums.items())

    cut = data.draw(st.integers(0, len(rows)))
    whole, first, second = table(rows), table(rows[:cut]), table(rows[cut:])
    read = list(zip(zip(whole.score.tolist(), *whole.codes.tolist()), whole.weight.tolist()))
    assert read == by_hand(rows)
    assert first.plus(second).equals(whole) and whole.minus(second, "samples").equals(first)
    assert table(rows, weighted=False).equals(table([(*row[:3], 1) for row in rows]))
    lookup = np.array([3, 2, 1, 0])
    assert whole.recoded(lookup).equals(table([(s, 3 - a, 3 - b, w) for s, a, b, w in rows]))
    with pytest.raises(InvalidCountsError):
        first.minus(whole.plus(whole), "samples")


class LabelHits(SummedState):
    """Per class, the classes growing as they come: how much its samples weigh, and how much of it was predicted right."""

    DOCUMENT, LABELS, SUMS, LABEL_AXES = "LabelHits", True, ("_counts",), {"_counts": (0,)}

    def __init__(self, labels=None):
        self._fixed, self._labels = labels is not None, tuple(labels or ())
        self._counts = np.zeros((len(self._labels), 2), dtype=np.int64)

    def _count(self, y_true, y_pred, *, sample_weight=None):
        labels = self._labels if self._fixed else tuple(sorted(set(y_true)))
        codes = np.array([labels.index(label) for label in y_true], dtype=np.int64)
        weight = np.ones(len(codes), dtype=np.int64) if sample_weight is None else np.asarray(sample_weight)
        right = np.asarray(y_true) == np.asarray(y_pred)
        return labels, np.stack([np.bincount(codes, weight, len(labels)), np.bincount(codes, weight * right, len(labels))], axis=1).astype(weight.dtype)

    def per_class(self):
        return {label: tuple(row) for label, row in zip(self._labels, self._numbers("_counts").tolist())}


def hits_by_hand(y_true, y_pred, weight):
    table = {}
    for actual, predicted, w in zip(y_true, y_pred, weight):
        samples, right = table.get(actual, (0, 0))
        table[actual] = (samples + w, right + w * (actual == predicted))
    return table


labelled = st.lists(st.tuples(st.sampled_from("abcde"), st.sampled_from("abcde"), st.integers(1, 5)), min_size=2, max_size=40)


@given(labelled, st.data())
def test_a_declared_kind_whose_classes_grow_merges_counts_and_windows_them(rows, data):
    """A per-class array over labels that grow (LABELS, LABEL_AXES): batches and merges bring
    classes in any order, and every route gives the counts by hand."""
    y, p, w = (list(column) for column in zip(*rows))
    cut = data.draw(st.integers(1, len(rows) - 1))
    first, second = LabelHits().counted(y[:cut], p[:cut], sample_weight=w[:cut]), LabelHits().counted(y[cut:], p[cut:], sample_weight=w[cut:])
    stream = LabelHits()
    for start in range(0, len(y), 3):
        stream.update(y[start : start + 3], p[start : start + 3], sample_weight=w[start : start + 3])
    expected = hits_by_hand(y, p, w)
    for result in (stream, first + second, second + first, sum([second, first])):
        assert result.per_class() == expected
    assert ((first + second) - second).per_class() == {**dict.fromkeys((first + second)._labels, (0, 0)), **hits_by_hand(y[:cut], p[:cut], w[:cut])}
    assert LabelHits.from_json(stream.to_json()) == stream == pickle.loads(pickle.dumps(stream)) and stream.copy() == stream
    assert stream.empty().per_class() == dict.fromkeys(stream._labels, (0, 0))
    window = Windowed(LabelHits(), size=4)
    for start in range(0, len(y), 2):
        window.update(y[start : start + 2], p[start : start + 2], sample_weight=w[start : start + 2])
    assert {k: v for k, v in window.result.per_class().items() if v != (0, 0)} == hits_by_hand(y[-4:], p[-4:], w[-4:])  # the last 4 samples


def test_a_declared_kind_with_fixed_classes_refuses_a_part_of_classes_it_never_counted():
    fixed = LabelHits(["a", "b"]).counted(["a", "b"], ["a", "a"])
    assert fixed.per_class() == {"a": (1, 1), "b": (1, 0)} and LabelHits.from_json(fixed.to_json()) == fixed
    with pytest.raises(InvalidCountsError, match="never counted"):
        fixed - LabelHits().counted(["c"], ["c"])
    with pytest.raises(InvalidCountsError):
        fixed - LabelHits().counted(["a", "a"], ["a", "a"])
    grown = fixed + LabelHits().counted(["c"], ["c"])
    assert grown._labels == ("a", "b", "c") and grown.per_class()["c"] == (1, 1)


def test_a_growing_kind_counts_a_batch_into_its_own_arrays_alone():
    """A batch adds in place at its own labels' positions, and new labels are looked up in an
    index each result keeps: copies, merges and pickles made before a batch, whose labels then
    grow apart, keep their own counts and find their own labels."""
    import copy

    first = LabelHits().counted(["a", "b"], ["a", "a"])
    total, shallow, exact = first + LabelHits().counted(["c"], ["c"]), copy.copy(first), first.copy()
    pickled = pickle.loads(pickle.dumps(first))
    first.update(["b", "d"], ["b", "d"])
    shallow.update(["e", "a"], ["e", "e"])
    assert first.per_class() == {"a": (1, 1), "b": (2, 1), "d": (1, 1)}
    assert shallow.per_class() == {"a": (2, 1), "b": (1, 0), "e": (1, 1)}
    assert exact.per_class() == pickled.per_class() == {"a": (1, 1), "b": (1, 0)}
    assert total.per_class() == {"a": (1, 1), "b": (1, 0), "c": (1, 1)}
    first.update(["e", "a"], ["e", "e"])  # (a label another result appended at the same position)
    assert first.per_class() == {"a": (2, 1), "b": (2, 1), "d": (1, 1), "e": (1, 1)}


def test_a_shallow_copy_of_a_declared_kind_is_its_own():
    """``copy.copy`` gives an independent copy (a batch adds into a result's arrays in place), and
    neither a copy nor a pickle carries the index of labels a result keeps, so a result made later
    in the freed memory of another (the same ``id``) never finds labels the other appended."""
    import copy

    from evalkit import RiskCoverage

    first = LabelHits().counted(["a", "b"], ["a", "a"])
    shallow = copy.copy(first)
    first.update(["a"], ["a"])
    assert shallow.per_class() == {"a": (1, 1), "b": (1, 0)} and first.per_class()["a"] == (2, 2)
    for _ in range(300):
        grown = RiskCoverage()
        grown.update(["x"], ["x"], [0.9])
        snapshot = copy.copy(grown)
        grown.update(["y"], ["y"], [0.8])  # its labels grow in place: ('x', 'y')
        address = id(grown)
        del grown
        later = pickle.loads(pickle.dumps(snapshot))
        if id(later) == address:
            break
    later.update(["z"], ["z"], [0.7])
    later.update(["y"], ["x"], [0.6])
    expected = RiskCoverage()
    expected.update(["x", "z", "y"], ["x", "z", "x"], [0.9, 0.7, 0.6])
    assert later.labels == ("x", "z", "y") and later == expected.with_labels(("x", "z", "y"))


def test_a_part_of_fixed_labels_taken_from_a_result_of_growing_ones_leaves_its_own_form():
    """Taking away a part whose labels were fixed (in another order, with labels this result
    lacks) leaves this result's labels and form: a merge puts fixed labels first, a subtraction
    keeps the result's own; what is left reads as the samples left, counted afresh."""
    from evalkit import LabelSetCounts, RiskCoverage

    sets = LabelSetCounts()
    sets.update([{"c"}, {"d"}], [{"c"}, {"d"}])
    left = sets - LabelSetCounts(["a", "b", "c"]).counted([{"c"}], [{"c"}])
    assert left == LabelSetCounts().counted([{"d"}], [{"d"}]) and not left._fixed
    assert LabelSetCounts.from_json(left.to_json()) == left and left.average("f1_score", "micro") == 1.0
    risks = RiskCoverage()
    risks.update(["c", "d"], ["c", "d"], [0.9, 0.8])
    part = RiskCoverage(["a", "b", "c"])
    part.update(["c"], ["c"], [0.9])
    rest = risks - part
    expected = RiskCoverage()
    expected.update(["c", "d"], ["c", "d"], [0.9, 0.8])
    expected = expected - RiskCoverage().counted(["c"], ["c"], [0.9])
    assert rest == expected and RiskCoverage.from_json(rest.to_json()) == rest and rest.n_samples == 1
