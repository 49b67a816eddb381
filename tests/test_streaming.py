"""Streaming: every count is a sum over samples, so batches merge into the one-shot result."""

import itertools
import json
import math

import numpy as np
import pytest
from harness import check_kind, counted_samples
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from evalkit import ConfusionMatrix, Evaluation, ThresholdCurve, formulas
from evalkit._scale.streaming import MERGE_FACTOR, CurveCounts
from evalkit.exceptions import (
    FormatError,
    InvalidArgumentError,
    InvalidTypeError,
    LabelMismatchError,
    UnsupportedSettingError,
)

AVERAGES = ("micro", "macro", "weighted", "samples")


def same_averages(first, second):
    for name in formulas.measure_names():
        for average in AVERAGES:
            a, b = first.average(name, average), second.average(name, average)
            assert (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12), (name, average)


@given(hnp.arrays(bool, st.tuples(st.integers(2, 40), st.integers(1, 5))), st.data())
def test_indicator_batches_merge_into_the_whole(actual, data):
    predicted = data.draw(hnp.arrays(bool, actual.shape))
    cut = data.draw(st.integers(1, len(actual) - 1))
    whole = Evaluation.from_indicators(actual, predicted)
    merged = Evaluation.from_indicators(actual[:cut], predicted[:cut]) + Evaluation.from_indicators(actual[cut:], predicted[cut:])
    assert merged == whole
    compacted = merged.compact()
    same_averages(compacted, whole)
    assert compacted.n_samples == whole.n_samples and compacted.get_accuracy() == whole.get_accuracy()


@given(st.lists(st.tuples(st.sampled_from("abc?"), st.sampled_from("abc?")), min_size=2, max_size=60), st.data())
def test_label_batches_merge_into_the_whole(pairs, data):
    cut = data.draw(st.integers(1, len(pairs) - 1))
    y_true, y_pred = [a for a, _ in pairs], [p for _, p in pairs]
    for rejection in ("miss", "selective"):
        options = {"labels": ["a", "b", "c"], "none": "?", "rejection": rejection}
        whole = Evaluation.from_labels(y_true, y_pred, **options)
        merged = Evaluation.from_labels(y_true[:cut], y_pred[:cut], **options) + Evaluation.from_labels(y_true[cut:], y_pred[cut:], **options)
        assert merged == whole
        assert merged.coverage == whole.coverage


def test_soft_batches_merge_into_the_whole_to_rounding():
    rng = np.random.default_rng(0)
    actual, predicted = rng.random((50, 4)), rng.random((50, 4))
    whole = Evaluation.from_soft(actual, predicted)
    merged = Evaluation.from_soft(actual[:20], predicted[:20]) + Evaluation.from_soft(actual[20:], predicted[20:])
    same_averages(merged, whole)
    np.testing.assert_allclose(merged.class_cells.tp, whole.class_cells.tp)


def test_compacting_keeps_the_averages_and_bounds_memory():
    rng = np.random.default_rng(1)
    actual, predicted = rng.random((5000, 3)) < 0.4, rng.random((5000, 3)) < 0.4
    ev = Evaluation.from_indicators(actual, predicted)
    compacted = ev.compact()
    assert len(compacted.sample_cells) <= 4**3 and compacted.n_samples == 5000
    same_averages(compacted, ev)
    with pytest.raises(UnsupportedSettingError, match="compacted"):
        compacted.per_sample("precision")
    assert compacted.compact() == compacted
    assert (compacted + ev) == (ev + ev).compact()


def test_merging_needs_the_same_labels_and_setting():
    a = Evaluation.from_labels([1, 2], [1, 2])
    with pytest.raises(LabelMismatchError):
        a + Evaluation.from_labels([1, 3], [1, 3])
    with pytest.raises(UnsupportedSettingError):
        Evaluation.from_indicators([[1, 0]], [[1, 0]], labels=[1, 2]) + a


def test_a_confusion_matrix_streams_with_growing_labels():
    rng = np.random.default_rng(2)
    y_true, y_pred = rng.integers(0, 6, 1000), rng.integers(0, 6, 1000)
    y_true[900] = 9  # a label first seen late
    streamed = ConfusionMatrix([0])
    for start in range(0, 1000, 128):
        streamed.update(y_true[start : start + 128], y_pred[start : start + 128], grow=True)
    whole = ConfusionMatrix.from_predictions(y_true, y_pred)
    assert streamed.with_labels(whole.labels) == whole


label_set_data = st.lists(
    st.tuples(st.frozensets(st.sampled_from("abcde"), max_size=3), st.frozensets(st.sampled_from("abcde"), max_size=3)),
    min_size=1, max_size=40,
)  # fmt: skip


@given(label_set_data, st.data())
def test_label_set_streams_give_the_one_shot_averages(pairs, data):
    from evalkit._scale.streaming import LabelSetCounts

    actual, predicted = [a for a, _ in pairs], [p for _, p in pairs]
    cuts = sorted(data.draw(st.lists(st.integers(0, len(pairs)), max_size=3)))
    counts = LabelSetCounts()
    for start, stop in zip([0, *cuts], [*cuts, len(pairs)]):
        counts.update(actual[start:stop], predicted[start:stop])
    if not counts.labels:
        return
    streamed = counts.to_evaluation()
    whole = Evaluation.from_label_sets(actual, predicted)
    assert streamed.labels == whole.labels and streamed.n_samples == len(pairs)
    assert streamed == whole.compact()
    same_averages(streamed, whole)
    halves = LabelSetCounts()
    halves.update(actual[: len(pairs) // 2], predicted[: len(pairs) // 2])
    rest = LabelSetCounts()
    rest.update(actual[len(pairs) // 2 :], predicted[len(pairs) // 2 :])
    assert (halves + rest).to_evaluation() == streamed


def test_label_set_streams_with_fixed_labels_refuse_others():
    from evalkit._scale.streaming import LabelSetCounts
    from evalkit.exceptions import UnknownLabelError

    counts = LabelSetCounts(["x", "y"])
    counts.update([{"x"}], [{"y"}])
    with pytest.raises(UnknownLabelError, match="'z'"):
        counts.update([{"z"}], [set()])
    assert counts.to_evaluation().labels == ("x", "y") and counts.n_samples == 1


@given(st.lists(st.tuples(st.integers(1, 60), st.integers(2, 40)), min_size=1, max_size=40))
def test_score_streams_keep_few_pending_parts(batches):
    """Pending parts fall in size by more than ``MERGE_FACTOR`` from each to the next, so they hold
    less than ``MERGE_FACTOR / (MERGE_FACTOR - 1)`` times the largest, however much the batches
    repeat each other's scores; and the stream's curve is the one-shot curve."""
    rng = np.random.default_rng(len(batches))
    counts, seen_y, seen_s = CurveCounts(labels=[0, 1]), [], []
    for n, distinct in batches:
        y, s = rng.integers(0, 2, n), rng.integers(0, distinct, (n, 2)) / distinct  # few distinct scores: batches repeat them
        counts.update(y, s)
        seen_y.append(y)
        seen_s.append(s)
        sizes = [part.n_points for part in counts._parts]
        assert all(before > MERGE_FACTOR * max(after, 1) for before, after in itertools.pairwise(sizes))
        assert sum(sizes) < MERGE_FACTOR / (MERGE_FACTOR - 1) * max(sizes)
    whole = ThresholdCurve.from_scores(np.concatenate(seen_y), np.concatenate(seen_s), [0, 1])
    assert counts.curve() == whole


def test_score_streams_keep_whole_counts_narrow_and_read_them_wide():
    """A stream's pending curves hold their whole counts as int32 (two thirds of a point's
    bytes); what is read is int64, as every curve is, and equal to the one-shot curve. Parts
    whose merged counts pass int32's top merge as int64: 3 * 2**30 positives, not a wrapped sum."""
    counts, scores = CurveCounts(labels=["a", "b"]), [[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.4, 0.6], [0.7, 0.3]]
    counts.update(["a", "b", "a"], scores[:3])
    counts.update(["b", "a"], scores[3:])
    assert {part._tp.dtype for part in counts._parts} == {np.dtype(np.int32)}
    whole = counts.curve()
    assert whole == ThresholdCurve.from_scores(["a", "b", "a", "b", "a"], scores, ["a", "b"]) and whole._tp.dtype == np.int64
    heavy, big = CurveCounts(), 2**30
    heavy.update([1, 1, 0], [0.8, 0.3, 0.5], sample_weight=[big, big // 2, 1])  # 1.5 * 2**30 positives: narrowed
    assert [part._tp.dtype for part in heavy._parts] == [np.dtype(np.int32)]
    heavy.update([1, 0], [0.8, 0.1], sample_weight=[big + big // 2, 1])  # narrowed, and merged with the first as int64
    assert [part._tp.dtype for part in heavy._parts] == [np.dtype(np.int64)]
    merged = heavy.curve()
    assert merged.positives.tolist() == [3 * big] and merged._part(0)[1].max() == 3 * big
    assert merged == ThresholdCurve.from_scores([1, 1, 0, 1, 0], [0.8, 0.3, 0.5, 0.8, 0.1], sample_weight=[big, big // 2, 1, big + big // 2, 1])
    wide = CurveCounts(labels=["a", "b"])
    wide.update(["a", "b"], [[0.9, 0.1], [0.3, 0.7]], sample_weight=[3 * big, 1])  # a class of 3 * 2**30: its batch is counted wide
    assert [part._tp.dtype for part in wide._parts] == [np.dtype(np.int64)] and wide.curve().positives.tolist() == [3 * big, 1]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**31 - 1), st.sampled_from(["none", "integer", "float"]), st.booleans())
def test_label_set_counts_in_batches_equal_one_evaluation(seed, weighting, fixed):
    """Counts kept per label and per kind of sample (a batch costs its own labels, not every
    label seen) give the one-shot evaluation, merged or streamed."""
    import pickle

    from evalkit._scale.streaming import LabelSetCounts

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


@pytest.mark.parametrize("kind", ['LabelSetCounts', 'CurveCounts', 'CalibrationCounts'])
@given(data=counted_samples())
def test_a_stream_counter_follows_the_counted_state_protocol(kind, data):
    """Merged parts equal the whole in any order, ``(a + b) - b == a``, scaling, JSON and
    pickle round trips (``harness.check_kind``)."""
    check_kind(kind, data)


def test_curve_counts_of_thresholds_given_any_way_are_one_stream_and_read_back_equal():
    given = [[0.2, 0.5, 0.8], (0.2, 0.5, 0.8), np.array([0.2, 0.5, 0.8])]
    streams = [CurveCounts(thresholds=thresholds) for thresholds in given]
    for stream in streams:
        stream.update([0, 1, 1], [0.1, 0.6, 0.9])
    assert streams[0] == streams[1] == streams[2]
    for stream in (*streams, streams[0].empty(), CurveCounts(thresholds=np.int64(5))):
        assert CurveCounts.from_json(stream.to_json()) == stream
    for bad, error in (("x", InvalidTypeError), (1, InvalidArgumentError), ([], InvalidArgumentError), ([float("nan")], InvalidArgumentError)):
        with pytest.raises(error, match="'thresholds'"):  # refused when made, not at the first batch
            CurveCounts(thresholds=bad)


def test_curve_counts_keep_one_form_of_their_thresholds_and_no_link_to_the_callers_array():
    def counted(thresholds):
        stream = CurveCounts(thresholds=thresholds)
        stream.update([0, 1, 1, 0], [0.1, 0.6, 0.8, 0.4])
        return stream

    assert counted([0.7, 0.5, 0.2]) == counted([0.2, 0.5, 0.7]) == counted([0.2, 0.5, 0.5, 0.7]) == counted([0.2, 0.5, 0.7, -np.inf])
    assert counted([0.7, 0.5, 0.2]).to_json() == counted([0.2, 0.5, 0.7]).to_json()
    given = np.array([0.2, 0.5])
    stream = CurveCounts(thresholds=given)
    given[0] = np.nan  # (the caller's array changed later: the stream's thresholds do not)
    stream.update([0, 1], [0.1, 0.9])
    expected = CurveCounts(thresholds=[0.2, 0.5])
    expected.update([0, 1], [0.1, 0.9])
    assert stream == expected


def test_a_window_of_label_sets_takes_away_a_batch_whose_labels_weigh_nothing():
    import numpy as np

    from evalkit import LabelSetCounts, Windowed

    window = Windowed(LabelSetCounts(), size=2)
    window.update([["b"]], [[]])
    window.update([["b"]], [["b"]], sample_weight=np.array([0.0]))  # "b" held by a sample of weight 0 only
    window.update([["a"], ["a"]], [["a"], ["a"]])
    expected = LabelSetCounts()
    expected.update([["a"], ["a"]], [["a"], ["a"]])
    assert window.result.to_evaluation().average("f1_score", "micro") == expected.to_evaluation().average("f1_score", "micro") == 1.0
    document = json.loads(LabelSetCounts().counted([["a"], ["b"]], [["a"], ["b"]], sample_weight=[1, 0]).to_json())
    assert document["idle"] == [0, 1]
    for idle in ([0.5, 1], [0, 1e300]):  # samples of weight 0 are whole numbers of samples
        with pytest.raises(FormatError, match="'idle' must hold whole numbers"):
            LabelSetCounts.from_json(json.dumps({**document, "idle": idle}))


def test_label_set_counts_of_fixed_labels_keep_their_order_and_merge_alike_both_ways():
    """Counts of fixed labels merged with growing ones keep the fixed order and stay fixed, in
    either order; fixed labels in another order are other counts; a batch whose samples weigh
    nothing reads undefined averages, as an evaluation of it does."""
    from evalkit import LabelSetCounts

    growing, fixed = LabelSetCounts(), LabelSetCounts(["z", "a"])
    growing.update([{"a"}], [{"z"}])
    fixed.update([{"a"}], [{"a"}])
    for merged in (growing + fixed, fixed + growing):
        assert merged.labels == ("z", "a") and merged._fixed and merged.to_evaluation().labels == ("z", "a")
    assert growing + fixed == fixed + growing
    reordered = LabelSetCounts(["a", "z"])
    reordered.update([{"a"}], [{"a"}])
    assert fixed != reordered and fixed == LabelSetCounts(["z", "a"]) + reordered
    nothing = LabelSetCounts()
    nothing.update([{"x"}], [{"x"}], sample_weight=[0.0])
    expected = Evaluation.from_label_sets([{"x"}], [{"x"}], sample_weight=[0.0])
    assert nothing.labels == ("x",) and math.isnan(nothing.average("f1_score", "micro")) and math.isnan(expected.average("f1_score", "micro"))


def test_label_set_counts_whose_samples_hold_no_label_read_as_their_evaluation():
    """A window of growing labels whose samples left it with their labels, and the samples it
    holds name none: its counts read what the evaluation of those samples reads (NaN), not an
    error about nothing counted."""
    from evalkit import LabelSetCounts, Windowed

    window = Windowed(LabelSetCounts(), size=1)
    window.update([{"a"}], [{"b"}])
    window.update([set()], [set()])
    expected = Evaluation.from_label_sets([set()], [set()])
    assert window.result.labels == () and window.n_samples == 1
    for average in ("micro", "macro", "samples"):
        assert math.isnan(window.average("f1_score", average)) and math.isnan(expected.average("f1_score", average))


def test_label_set_counts_of_huge_whole_weights_read_and_count_single_samples():
    """Whole sums beyond int64 (a weight of 1e20) keep a stream's single samples counted cell by
    cell, and every read equals the evaluation's."""
    from evalkit import LabelSetCounts, Windowed

    counts = LabelSetCounts(["a", "b"])
    counts.update([{"a"}], [{"a"}], sample_weight=[1e19])
    assert counts.average("f1_score", "micro") == counts.to_evaluation().average("f1_score", "micro") == 1.0
    window = Windowed(LabelSetCounts(["a", "b"]), size=3)
    window.update([{"a"}], [{"b"}], sample_weight=[1e20])
    window.update([{"a"}], [{"a"}])
    expected = Evaluation.from_label_sets([{"a"}, {"a"}], [{"b"}, {"a"}], ["a", "b"], sample_weight=[1e20, 1.0])
    for average in ("micro", "macro", "samples"):
        assert math.isclose(window.average("f1_score", average), expected.average("f1_score", average), rel_tol=1e-12)


def test_a_window_of_stream_counters_reads_back_in_a_new_process(tmp_path):
    """A window's document names its template's kind (a LabelSetCounts, a CurveCounts): a new
    process that imports only ``Windowed`` reads it."""
    import subprocess
    import sys

    from evalkit import CurveCounts, LabelSetCounts, Windowed

    sets, curves = Windowed(LabelSetCounts(["a"]), size=2), Windowed(CurveCounts(), size=2)
    sets.update([{"a"}], [{"a"}])
    curves.update([0, 1], [0.2, 0.7])
    for window in (sets, curves):
        path = tmp_path / "window.json"
        path.write_text(window.to_json())
        code = f"from evalkit import Windowed; print(Windowed.from_json(open({str(path)!r}).read()).result.to_json())"
        found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
        assert found.returncode == 0 and found.stdout.strip() == window.result.to_json(), found.stderr


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.sets(st.integers(0, 40), max_size=3), st.sets(st.integers(0, 40), max_size=3)), min_size=1, max_size=30),
       st.integers(0, 29))  # fmt: skip
def test_label_set_counts_grown_a_label_at_a_time_stay_independent_of_their_copies(pairs, cut):
    """Sums grown a label at a time (into a buffer with room to spare) equal the batch counted at
    once; a copy or pickle taken midway holds what was counted then, whatever the original and
    the copy count afterwards."""
    import copy
    import pickle

    from evalkit import LabelSetCounts

    stream, cut = LabelSetCounts(), min(cut, len(pairs))
    for y, p in pairs[:cut]:
        stream.update([y], [p])
    taken, pickled = copy.copy(stream), pickle.dumps(stream)
    for y, p in pairs[cut:]:
        stream.update([y], [p])
        taken.update([p], [y])  # the copy counts other batches into its own arrays
    whole = LabelSetCounts()
    whole.update([y for y, _ in pairs], [p for _, p in pairs])
    assert stream == whole
    assert pickle.loads(pickled) == LabelSetCounts().counted([y for y, _ in pairs[:cut]], [p for _, p in pairs[:cut]])
    expected = LabelSetCounts()
    expected.update([y for y, _ in pairs[:cut]] + [p for _, p in pairs[cut:]], [p for _, p in pairs[:cut]] + [y for y, _ in pairs[cut:]])
    assert taken == expected


def test_label_set_counts_of_one_batch_hold_no_spare_room():
    """Room to grow is made when labels join a result that has some (a stream), never for a
    result's first labels: a window holding one result per batch holds no spare memory."""
    from evalkit import LabelSetCounts

    names = [f"label {k}" for k in range(500)]
    part = LabelSetCounts().counted([set(names)], [set(names[:10])])
    assert part._sums.base is None or part._sums.base.nbytes == part._sums.nbytes
    part.update([{"new"}], [set()])  # a stream from here: room for as many labels again
    assert part._sums.shape == (3, 501) and part._sums.base is not None and part._sums.base.shape == (3, 1001)
