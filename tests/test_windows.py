"""Results over time: a sliding window equals the same result counted from the samples it
holds, at every step; decay equals explicit weights ``factor**age``; tumbling windows equal
the chunks of the stream; and River's rolling metrics, where they count the same thing."""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalkit import Calibration, ConfusionMatrix, Evaluation, Faded, RegressionMetrics, Tumbling, Windowed
from evalkit._scale.streaming import CurveCounts
from evalkit.exceptions import (
    EmptyInputError,
    EvalkitError,
    InvalidArgumentError,
    InvalidTypeError,
    UnsupportedSettingError,
)

LABELS = ["a", "b", "c"]
samples = st.tuples(st.sampled_from(LABELS), st.sampled_from(LABELS), st.sampled_from([1, 2, 3]))
streams = st.lists(st.lists(samples, min_size=0, max_size=7), min_size=1, max_size=12)


def matrix_of(rows, weighted):
    actual, predicted, weight = ([row[k] for row in rows] for k in range(3))
    return ConfusionMatrix.from_predictions(actual, predicted, labels=LABELS, sample_weight=weight if weighted else None)


def update(window, batch, weighted, **options):
    actual, predicted, weight = ([row[k] for row in batch] for k in range(3))
    window.update(actual, predicted, sample_weight=weight if weighted else None, **options)


def fed(view, stream, weighted):
    """The samples seen after each batch of ``stream`` is given to ``view``."""
    seen = []
    for batch in stream:
        update(view, batch, weighted)
        seen += batch
        yield seen


def fed_all(view, stream, weighted):
    """Every sample of ``stream``, after giving them all to ``view``."""
    seen = []
    for seen in fed(view, stream, weighted):  # the last value is what is wanted
        pass
    return seen


@given(streams, st.integers(1, 15), st.booleans())
def test_a_sliding_window_equals_its_last_samples_counted_again(stream, size, weighted):
    window = Windowed(ConfusionMatrix(LABELS), size=size)
    for seen in fed(window, stream, weighted):
        expected = matrix_of(seen[-size:], weighted)
        assert window.result == expected  # integer weights: exactly
        assert window.n_samples == expected.get_total_items() and len(window) == len(seen[-size:])
        assert window.get_accuracy() == pytest.approx(expected.get_accuracy(), nan_ok=True)  # a kept read, of a result re-summed now and then
        if seen[-size:]:
            assert window.average("f1_score", "macro") == pytest.approx(expected.average("f1_score", "macro"), nan_ok=True)


label_sets = st.lists(st.sampled_from(LABELS), unique=True, max_size=3)


@given(st.lists(st.lists(st.tuples(label_sets, label_sets), min_size=1, max_size=3), min_size=1, max_size=25), st.integers(1, 8), st.booleans())
def test_a_window_of_label_sets_equals_its_last_samples_counted_again(stream, size, keep_pairs):
    """Single samples of fixed labels are counted in and out in place (a stream's events);
    batches of several as parts: the window equals its last samples counted again, with the
    pairs of sets a macro interval resamples."""
    import json

    from evalkit._scale.streaming import LabelSetCounts

    def pairs(result):
        return sorted(json.dumps(pair) for pair in json.loads(result.to_json())["pairs"] or [])

    window, seen = Windowed(LabelSetCounts(LABELS, keep_pairs=keep_pairs), size=size), []
    for batch in stream:
        window.update([actual for actual, _ in batch], [predicted for _, predicted in batch])
        seen += batch
        expected = LabelSetCounts(LABELS, keep_pairs=keep_pairs).counted([a for a, _ in seen[-size:]], [p for _, p in seen[-size:]])
        assert window.result == expected and window.n_samples == len(seen[-size:]) == len(window)
        assert pairs(window.result) == pairs(expected)


def test_a_long_fade_of_weightless_samples_keeps_kish_size_and_the_intervals_in_the_weights_unit():
    """The past fading through samples of weight 0, one batch or many: Kish's size stays the
    faded weights' (that of 0.5**age, about 3) while their counts are floats (a review found it
    wrong after one long batch, the fade's square below float64's range); once they fall below
    the least float the counts are 0 and so is the size, an interval says nothing is counted
    (reviews found the unit rounded to 0, every later update raising, and intervals of 0 counts),
    and the stream goes on."""
    pair = [Faded(ConfusionMatrix([0, 1]), factor=0.5) for _ in range(2)]
    for faded in pair:
        faded.update([0, 1, 1, 0] * 25, [0, 1, 0, 0] * 25)
    pair[0].update([1] * 900, [0] * 900, sample_weight=np.zeros(900))  # one batch: a fade of 2**-900
    for _ in range(9):
        pair[1].update([1] * 100, [0] * 100, sample_weight=np.zeros(100))
    ages = [Fraction(1, 2**k) for k in range(100)]
    for faded in pair:
        assert faded.effective_size == pytest.approx(float(sum(ages) ** 2 / sum(age * age for age in ages)), rel=1e-12)
        right = [1, 1, 0, 1] * 25  # (the first batch's samples, right where actual equals predicted, the oldest first)
        assert faded.interval("accuracy").estimate == pytest.approx(float(sum(ages[99 - k] * right[k] for k in range(100)) / sum(ages)), rel=1e-12)
    faded = pair[1]
    for _ in range(4):  # 2**-1300: below the least float
        faded.update([1] * 100, [0] * 100, sample_weight=np.zeros(100))
    assert faded.effective_size == 0.0 and faded.n_samples == 0.0
    with pytest.raises(EmptyInputError, match="nothing is counted"):
        faded.interval("accuracy")
    faded.update([0], [0])
    again = Faded.from_json(faded.to_json())
    assert again.effective_size == faded.effective_size == 1.0
    for scale in (1e200, 1e-200):  # the same shares and Kish's size at any scale of the weights: the same interval
        pair = [Faded(ConfusionMatrix([0, 1]), factor=0.99) for _ in range(2)]
        for view, factor in zip(pair, (scale, 1.0)):
            view.update([0, 1, 1, 0] * 30, [0, 1, 0, 0] * 30, sample_weight=np.full(120, factor))
        big, unit = (view.interval("accuracy") for view in pair)
        assert (big.low, big.high) == pytest.approx((unit.low, unit.high), rel=1e-9) and pair[0].effective().n_samples == pytest.approx(pair[0].effective_size)


label_sets = st.frozensets(st.sampled_from("abcd"), max_size=2)


@given(st.lists(st.tuples(label_sets, label_sets, st.sampled_from([0, 0, 1, 2])), min_size=1, max_size=8), st.integers(1, 3), st.integers(1, 3))
def test_a_window_of_label_sets_keeps_the_labels_of_its_samples_of_weight_zero(rows, size, batch):
    """A label that only samples of weight 0 hold is a label of them counted afresh (as of a
    matrix), so it stays while they are in the window and leaves with them; decay leaves it as
    it is (found by a review: such a label left the window with the last weighted sample)."""
    from evalkit._scale.streaming import LabelSetCounts

    actual, predicted, weight = (list(column) for column in zip(*rows))
    window, faded = Windowed(LabelSetCounts(), size=size), Faded(LabelSetCounts(), factor=0.5)
    for start in range(0, len(rows), batch):
        for view in (window, faded):
            view.update(actual[start : start + batch], predicted[start : start + batch], sample_weight=weight[start : start + batch])
    last = slice(max(len(rows) - size, 0), len(rows))
    assert window.result == LabelSetCounts().counted(actual[last], predicted[last], sample_weight=weight[last])
    ages = 0.5 ** np.arange(len(rows) - 1, -1, -1) * np.array(weight)
    assert faded.result == LabelSetCounts().counted(actual, predicted, sample_weight=ages)
    assert LabelSetCounts.from_json(window.result.to_json()) == window.result


@given(st.lists(st.tuples(st.lists(samples, min_size=1, max_size=5), st.integers(0, 3)), min_size=1, max_size=10), st.integers(1, 6))
def test_a_time_window_holds_the_samples_within_its_period(batches, period):
    window = Windowed(ConfusionMatrix(LABELS), period=period)
    seen, now = [], 0
    for batch, gap in batches:
        now += gap
        update(window, batch, False, time=now)
        seen += [(row, now) for row in batch]
        expected = matrix_of([row for row, t in seen if t > now - period], False)
        assert window.result == expected


@given(streams, st.sampled_from([0.5, 0.9, 0.99, 1.0]), st.booleans())
def test_decay_equals_explicit_weights_of_factor_to_the_age(stream, factor, weighted):
    faded = Faded(ConfusionMatrix(LABELS), factor=factor)
    seen = fed_all(faded, stream, weighted)
    if not seen:
        return
    ages = np.arange(len(seen) - 1, -1, -1)
    weights = factor**ages * (np.array([row[2] for row in seen]) if weighted else 1.0)
    expected = ConfusionMatrix.from_predictions([r[0] for r in seen], [r[1] for r in seen], labels=LABELS, sample_weight=weights)
    assert np.allclose(faded.result.to_array(), expected.to_array(), rtol=1e-12, atol=1e-12)
    assert faded.effective_size == pytest.approx(weights.sum() ** 2 / (weights**2).sum(), rel=1e-12)


@given(st.lists(st.tuples(st.sampled_from(LABELS), st.sampled_from(LABELS), st.sampled_from([0.5, 1.0, 3.0])), min_size=1, max_size=12),
       st.sampled_from([1e300, 1e-300, 1e-320, 1e305, 1.0]), st.integers(1, 3))
def test_kish_size_of_a_decay_does_not_depend_on_the_weights_scale(rows, scale, batch):
    """``(Σw)² / Σw²`` is the same for weights times any ``scale``: weights near float64's edges
    (1e300, subnormal 1e-320, 1e305 whose counts the lazy scale would carry past the largest
    float) give the effective size of the same weights near 1, read back from JSON, and single
    events of weight 1 after them count in the same units."""
    actual, predicted, weight = (list(column) for column in zip(*rows))
    sizes = []
    for factor in (scale, 1.0):
        faded = Faded(ConfusionMatrix(LABELS), factor=0.5)
        for start in range(0, len(rows), batch):
            faded.update(actual[start : start + batch], predicted[start : start + batch], sample_weight=np.array(weight[start : start + batch]) * factor)
        again = Faded.from_json(faded.to_json())
        assert again.effective_size == faded.effective_size
        again.update(["a"], ["b"])
        sizes.append((faded.effective_size, again.effective_size))
    ages = 0.5 ** np.arange(len(rows) - 1, -1, -1) * np.array(weight)
    assert sizes[0][0] == pytest.approx(ages.sum() ** 2 / (ages**2).sum(), rel=1e-9) and sizes[0][0] == pytest.approx(sizes[1][0], rel=1e-9)
    if scale >= 1.0:  # (a later weight of 1 beside weights of 1e300: the same, the new one negligible; beside tiny ones: one sample)
        assert sizes[0][1] == pytest.approx(sizes[0][0] if scale > 1e100 else sizes[1][1], rel=1e-9)
    else:
        assert sizes[0][1] == pytest.approx(1.0, rel=1e-9)


@given(st.lists(st.tuples(st.sampled_from(LABELS), st.sampled_from(LABELS)), min_size=1, max_size=40), st.sampled_from([0.5, 0.9, 0.999]))
def test_a_decayed_stream_of_single_events_counts_as_batches_of_one(events, factor):
    """A stream's events (two one-element lists: counted in their cell, no array) and the same
    events as one-element arrays (``update``'s general path): the same float steps, so the
    same counts and effective size bit for bit, through the rescaling of a long stream."""
    streamed, batched = Faded(ConfusionMatrix(LABELS), factor=factor), Faded(ConfusionMatrix(LABELS), factor=factor)
    for actual, predicted in events * (1 + 1200 // len(events) if factor == 0.5 else 1):  # 0.5**-498 passes 1e150: a rescale or two
        streamed.update([actual], [predicted])
        batched.update(np.array([actual]), np.array([predicted]))
    assert np.array_equal(streamed.result.to_array(), batched.result.to_array())
    assert streamed.effective_size == batched.effective_size and streamed.get_accuracy() == batched.get_accuracy()


def test_a_window_reads_the_result_it_holds_now_and_pickles_without_its_kept_reads():
    import pickle

    tumbling = Tumbling(ConfusionMatrix(LABELS), size=2)
    readings = []
    for actual, predicted in zip("aabbcc", "abbbca"):
        tumbling.update([actual], [predicted])
        readings.append(tumbling.get_accuracy())  # a closed window's result is replaced by a new one: the read follows it
    assert all(math.isnan(value) for value in readings[1::2])  # each just closed: the open window is empty
    assert readings[0::2] == [1.0, 1.0, 1.0] and tumbling.table("accuracy") == [0.5, 1.0, 0.5]
    window = Windowed(ConfusionMatrix(LABELS), size=2)
    window.update(["a", "b"], ["a", "a"])
    assert window.get_accuracy() == 0.5 and "get_accuracy" in vars(window)  # kept: the next read finds it at once
    state = window.__getstate__()
    assert not {"get_accuracy", "average"} & set(state) and state["_result"] == window.result  # stored as windows stored it before
    loaded = pickle.loads(pickle.dumps(window))
    loaded.update(["b"], ["b"])
    assert loaded.get_accuracy() == 0.5 and window.get_accuracy() == 0.5  # the copy counts alone
    old = Windowed.__new__(Windowed)
    old.__setstate__(dict(state))  # a window pickled before it kept reads
    assert old.get_accuracy() == 0.5 and old.result == window.result

    class Macro(Windowed):  # a subclass's own average is never shadowed by the result's
        def average(self, measure, average="macro", **options):
            return ("mine", measure, average)

    mine = Macro(ConfusionMatrix(LABELS), size=2)
    mine.update(["a"], ["a"])
    assert mine.average("f1_score") == ("mine", "f1_score", "macro")


def test_a_window_re_sums_its_parts_only_when_weights_make_its_counts_round(monkeypatch):
    """Unweighted scores count as whole numbers (``WHOLE_COUNTS``): a window takes each away as
    it leaves and never counts its parts again (it did once a window length: a window of
    10,000 scores cost ~270 us an event instead of ~25); weighted ones are re-summed once a
    window length, so that the rounding of float counts never builds up."""
    from evalkit import ThresholdCurve
    from evalkit._scale._batches import Batch as _Batch

    recounted = []
    counted = _Batch.counted
    monkeypatch.setattr(_Batch, "counted", lambda batch, template: recounted.append(len(batch)) or counted(batch, template))
    labels, scores = [k % 2 for k in range(30)], [round(k / 7 % 1, 2) for k in range(30)]
    exact = Windowed(CurveCounts(), size=5)
    for label, score in zip(labels, scores):
        exact.update([label], [score])
    assert recounted == [] and exact.roc_auc() == ThresholdCurve.from_scores(labels[-5:], scores[-5:]).roc_auc()
    weighted = Windowed(CurveCounts(), size=5)
    for label, score in zip(labels, scores):
        weighted.update([label], [score], sample_weight=[0.1])
    assert len(recounted) > 5  # parts counted again: the re-sums of the weighted window
    assert weighted.roc_auc() == pytest.approx(ThresholdCurve.from_scores(labels[-5:], scores[-5:], sample_weight=[0.1] * 5).roc_auc())


def test_half_life_halves_a_weight_after_that_many_samples():
    faded = Faded(ConfusionMatrix(["a", "b"]), half_life=10)
    faded.update(["a"], ["a"])
    faded.update(["b"] * 10, ["b"] * 10)
    assert faded.result.to_array()[0, 0] == pytest.approx(0.5)


@given(streams, st.integers(1, 6))
def test_tumbling_windows_are_the_chunks_of_the_stream(stream, size):
    tumbling = Tumbling(ConfusionMatrix(LABELS), size=size)
    seen = fed_all(tumbling, stream, False)
    chunks = [seen[start : start + size] for start in range(0, len(seen) - len(seen) % size, size)]
    assert tumbling.history == [matrix_of(chunk, False) for chunk in chunks]
    assert tumbling.result == matrix_of(seen[len(chunks) * size :], False)
    assert tumbling.table("accuracy") == [matrix_of(chunk, False).get_accuracy() for chunk in chunks]


@given(st.lists(st.tuples(st.integers(0, 1), st.sampled_from([0.1, 0.2, 0.35, 0.5, 0.8, 0.9])), min_size=1, max_size=40), st.integers(2, 12),
       st.integers(1, 5))  # fmt: skip
def test_an_exact_curve_window_gives_the_roc_auc_of_its_samples(stream, size, batch):
    window = Windowed(CurveCounts(), size=size)
    for start in range(0, len(stream), batch):
        part = stream[start : start + batch]
        window.update([y for y, _ in part], [s for _, s in part])
        kept = stream[max(0, start + len(part) - size) : start + len(part)]
        truth = [y for y, _ in kept]
        if 0 < sum(truth) < len(truth):
            from evalkit import ThresholdCurve

            assert window.curve().roc_auc() == pytest.approx(ThresholdCurve.from_scores(truth, [s for _, s in kept]).roc_auc(), rel=1e-12)


@given(st.lists(st.tuples(st.sampled_from(["yes", "no"]), st.one_of(st.sampled_from([0.0, 0.1, 0.2, 0.35, 0.5, 1.0]), st.floats(0, 1))),
                min_size=1, max_size=40), st.integers(1, 12), st.sampled_from([None, 1, 4, 15]))  # fmt: skip
def test_a_calibration_window_of_single_events_is_its_samples_counted_again(stream, size, bins):
    """A window of a binary calibration counts its events one at a time in a table (exact: the
    distinct scores; binned: each bin's exact sums as integers) and equals, bit for bit, the
    calibration of the samples it holds, counted in one batch."""
    from evalkit._scale.streaming import CalibrationCounts

    window = Windowed(CalibrationCounts(bins=bins, pos_label="yes"), size=size)
    for end, (label, score) in enumerate(stream, 1):
        window.update([label], [score])
        held = stream[max(0, end - size) : end]
        counted = Calibration.from_scores([y for y, _ in held], [p for _, p in held], pos_label="yes", bins=bins)
        ours = window.calibration()
        assert ours == counted and ours.brier_score() == counted.brier_score()
        assert ours.error(n_bins=bins or 5) == counted.error(n_bins=bins or 5) or math.isnan(counted.error(n_bins=bins or 5))


def test_calibration_counts_take_away_what_they_counted_and_refuse_what_they_did_not():
    from evalkit._scale._score_streams import CalibrationCounts, _BinTable, _ScoreTable
    from evalkit.exceptions import InvalidCountsError

    for bins in (None, 10):
        counts = CalibrationCounts(bins=bins)
        counts.update([0, 1, 1, 0], [0.2, 0.9, 0.6, 0.2])
        counts.update([1], [0.6])  # a single event: the table
        assert isinstance(counts._table, _BinTable if bins else _ScoreTable)
        counts.revert([0, 1], [0.2, 0.6])  # a few: taken from the table
        counts.revert(np.array([1]), np.array([0.9]))  # a batch: taken away as a part
        assert counts.calibration() == Calibration.from_scores([0, 1], [0.2, 0.6], bins=bins)
        with pytest.raises(InvalidCountsError, match="never counted"):
            counts.revert([1], [0.3])
        assert counts.calibration() == Calibration.from_scores([0, 1], [0.2, 0.6], bins=bins)  # nothing changed by the refusal


@pytest.mark.parametrize("make", [lambda t: Windowed(t, size=2), lambda t: Tumbling(t, size=2), lambda t: Faded(t, factor=0.5)], ids=["Windowed", "Tumbling", "Faded"])
def test_a_window_counts_one_sample_itself_and_refuses_the_changes_it_would_not_know_of(make):
    """``update_one`` of a window counts the sample through the window (it leaves, it fades), as
    ``update([y], [p])`` does; the result's other ways to change in place are refused, since the
    window would never take those samples away."""
    for template, events in ((ConfusionMatrix(["a", "b"]), [("a", "b"), ("b", "b"), ("a", "a"), ("b", "a"), ("a", "a")]),
                             (RegressionMetrics(), [(0.0, 1.0), (1.0, 0.5), (2.0, 2.5), (3.0, 1.0), (4.0, 0.0)])):  # fmt: skip
        one, batches = make(template), make(template)
        for y, p in events:
            one.update_one(y, p)
            batches.update([y], [p])
        assert one.result == batches.result
        refused = {"revert": ([events[-1][0]], [events[-1][1]])}
        refused.update({"inc": (0, 1), "update_indices": ([0], [1]), "reset": ()} if isinstance(template, ConfusionMatrix) else {"set": ("extra", 1.0)})
        for name, arguments in refused.items():
            with pytest.raises(UnsupportedSettingError, match=rf"{type(one).__name__}\.{name} would change the window's result"):
                getattr(one, name)(*arguments)
        assert one.result == batches.result  # nothing changed by a refusal
        for batch in (([events[0][0]], events[0][1]), (events[0][0], np.array([events[0][1]]))):  # a batch of one is no sample's value
            with pytest.raises(InvalidTypeError, match="must be one sample's value"):
                one.update_one(*batch)
        assert one.result == batches.result
    assert not hasattr(make(ConfusionMatrix(["a"])), "get_r_squared")  # what the result lacks, the window lacks


def test_windows_agree_with_rivers_rolling_metrics():
    from river import metrics, utils

    rng = np.random.default_rng(4)
    actual = rng.choice(LABELS, 600, p=[0.5, 0.3, 0.2]).tolist()
    predicted = [y if rng.random() < 0.7 else str(rng.choice(LABELS)) for y in actual]
    window = Windowed(ConfusionMatrix(LABELS), size=50)
    accuracy, kappa = utils.Rolling(metrics.Accuracy, window_size=50), utils.Rolling(metrics.CohenKappa, window_size=50)
    macro_f1 = utils.Rolling(metrics.MacroF1, window_size=50)
    for y, p in zip(actual, predicted):
        window.update([y], [p])
        for metric in (accuracy, kappa, macro_f1):
            metric.update(y, p)
        assert window.get_accuracy() == pytest.approx(accuracy.get(), abs=1e-12)
        ours = window.get_cohen_kappa()
        if math.isnan(ours):  # p_e = 1 (one class in both columns): kappa is 0/0, which River reports as 0
            assert kappa.get() == 0
        else:
            assert ours == pytest.approx(kappa.get(), abs=1e-12)
        # River's macro F1 averages the classes its window has seen; a class absent from both
        # columns has F1 0/0, which evalkit's default policy leaves out of the average too
        assert window.average("f1_score", "macro") == pytest.approx(macro_f1.get(), abs=1e-12)


def test_a_window_refuses_what_it_cannot_count_and_says_why():
    with pytest.raises(UnsupportedSettingError, match="Calibration does not support count: .*CalibrationCounts"):
        Windowed(Calibration.from_scores([0, 1], [0.2, 0.8]), size=10)
    with pytest.raises(EvalkitError, match="'size' must be a positive whole number of samples, got 0"):
        Windowed(ConfusionMatrix(LABELS), size=0)
    with pytest.raises(EvalkitError, match="'size' .* or its 'period'"):
        Windowed(ConfusionMatrix(LABELS))
    timed = Windowed(ConfusionMatrix(LABELS), period=5)
    with pytest.raises(EvalkitError, match="needs the time of every batch"):
        timed.update(["a"], ["a"])
    timed.update(["a"], ["a"], time=3)
    with pytest.raises(EvalkitError, match="times must not go back"):
        timed.update(["a"], ["b"], time=2)
    with pytest.raises(EvalkitError, match="different lengths"):
        timed.update(["a", "b"], ["a"], time=4)
    with pytest.raises(EvalkitError, match="'factor' must be in \\(0, 1\\]"):
        Faded(ConfusionMatrix(LABELS), factor=1.5)
    window = Windowed(ConfusionMatrix(LABELS), size=3)
    reused = ["a", "b"]
    window.update(reused, reused)
    reused[:] = ["c", "c"]  # a caller reusing its list changes nothing in the window
    window.update(["a", "a"], ["a", "a"])  # the first sample leaves: it was ("a", "a")
    assert window.result == ConfusionMatrix.from_predictions(["b", "a", "a"], ["b", "a", "a"], labels=LABELS)
    window = Windowed(ConfusionMatrix(LABELS), size=3)
    window.update(["a"], ["a"])
    copy = window.result
    copy.inc(1, 1)
    assert window.n_samples == 1  # the result handed out is a copy
    assert math.isnan(Windowed(ConfusionMatrix(LABELS), size=3).get_accuracy())


# --------------------------------------------------------------------------------------------
# late labels


@given(st.lists(samples, min_size=1, max_size=30), st.randoms(use_true_random=False), st.integers(0, 30))
def test_late_labels_count_each_pair_once_its_label_arrives(rows, random, labelled):
    from evalkit import Prequential

    stream = Prequential(ConfusionMatrix(LABELS))
    ids = list(range(100, 100 + len(rows)))
    stream.predict(ids, [row[1] for row in rows])
    order = ids[:]
    random.shuffle(order)
    arrived = order[: min(labelled, len(order))]
    for start in range(0, len(arrived), 4):  # labels come in small batches, in any order
        part = arrived[start : start + 4]
        stream.label(part, [rows[key - 100][0] for key in part])
    known = sorted(arrived)
    assert stream.result == ConfusionMatrix.from_predictions([rows[k - 100][0] for k in known], [rows[k - 100][1] for k in known], labels=LABELS)
    assert stream.pending == len(rows) - len(known) and set(stream.pending_ids) == set(ids) - set(known)


@given(st.lists(st.lists(samples, max_size=6), min_size=1, max_size=8), st.integers(0, 10))
def test_a_known_delay_counts_all_but_the_last_samples(stream, delay):
    from evalkit import Prequential

    lagged = Prequential(ConfusionMatrix(LABELS), delay=delay)
    seen = []
    for seen in fed(lagged, stream, False):
        known = seen[: max(0, len(seen) - delay)]
        assert lagged.result == matrix_of(known, False) and lagged.pending == len(seen) - len(known)


def test_late_labels_into_a_time_window_count_at_the_time_they_arrive():
    from evalkit import Prequential

    stream = Prequential(Windowed(ConfusionMatrix(LABELS), period=10))
    stream.predict(["x", "y", "z"], ["a", "b", "c"])
    stream.label(["y"], ["a"], time=3)
    stream.label(["z", "x"], ["c", "a"], time=14)  # y, labelled at 3, is older than 14 - 10
    assert stream.result == ConfusionMatrix.from_predictions(["c", "a"], ["c", "a"], labels=LABELS)


def test_late_labels_refuse_unknown_ids_and_keep_a_refused_batch_waiting():
    from evalkit import Prequential
    from evalkit.exceptions import UnknownLabelError

    stream = Prequential(ConfusionMatrix(LABELS))
    stream.predict([1, 2], ["a", "b"])
    with pytest.raises(UnknownLabelError, match=r"no prediction waits for the ids \[3\]"):
        stream.label([1, 3], ["a", "b"])
    with pytest.raises(EvalkitError, match="given twice"):
        stream.predict([2], ["c"])
    with pytest.raises(EvalkitError, match="not a label of this matrix"):
        stream.label([1, 2], ["a", "zebra"])
    assert stream.pending == 2 and stream.result.get_total_items() == 0  # nothing of a refused batch was counted
    stream.label([2, 1], ["b", "a"])
    assert stream.pending == 0 and stream.result.get_accuracy() == 1.0
    with pytest.raises(EvalkitError, match="update\\(y_true, y_pred\\) is for a Prequential with delay"):
        stream.update(["a"], ["a"])


# --------------------------------------------------------------------------------------------
# measures of a stream


def test_kappa_m_measures_against_the_majority_class():
    # Bifet, Read, Zliobaite, Pfahringer and Holmes (2015), kappa-M = (p0 - pm) / (1 - pm):
    # 21 samples, 15 right, the largest class has 8: (15/21 - 8/21) / (1 - 8/21) = 7/13
    matrix = ConfusionMatrix.from_array([[5, 2, 0], [1, 6, 1], [0, 2, 4]])
    assert matrix.get_kappa_m() == pytest.approx(7 / 13, rel=1e-15)
    # an imbalanced stream: always "ok" is 90% right; a model 91% right has kappa-M 0.1
    always = ConfusionMatrix.from_array([[90, 0], [10, 0]], labels=["ok", "fraud"])
    model = ConfusionMatrix.from_array([[88, 2], [7, 3]], labels=["ok", "fraud"])
    assert always.get_kappa_m() == 0.0 and model.get_kappa_m() == pytest.approx(0.1, rel=1e-12)
    assert math.isnan(ConfusionMatrix.from_array([[3, 1], [0, 0]]).get_kappa_m())  # one class only: no majority to beat
    window = Windowed(ConfusionMatrix(["ok", "fraud"]), size=100)
    window.update(["fraud"] * 50 + ["ok"] * 100, ["ok"] * 150)
    assert math.isnan(window.get_kappa_m())  # the last 100 are all "ok": one class, nothing to beat
    window.update(["fraud"] * 20, ["fraud"] * 10 + ["ok"] * 10)  # now 80 "ok" (right) and 20 "fraud" (10 right)
    assert window.get_kappa_m() == pytest.approx((90 - 80) / (100 - 80), rel=1e-12)


@given(st.lists(st.lists(samples, max_size=6), min_size=1, max_size=8), st.integers(1, 20))
def test_kappa_temporal_measures_against_repeating_the_last_label(stream, size):
    # Žliobaitė et al. (2015): (p0 - pe) / (1 - pe), pe the accuracy of predicting each label as
    # the previous one's (MOA's no-change classifier, which starts at the first class)
    from evalkit import NoChange, kappa_temporal

    model = Windowed(ConfusionMatrix(LABELS), size=size)
    no_change = NoChange(Windowed(ConfusionMatrix(LABELS), size=size))
    seen = []
    for batch in stream:
        update(model, batch, False)
        no_change.update([row[0] for row in batch])
        seen += batch
        if not seen:
            continue
        labels = [row[0] for row in seen]
        previous = [LABELS[0], *labels[:-1]]
        kept = range(max(0, len(seen) - size), len(seen))
        p0 = sum(seen[i][0] == seen[i][1] for i in kept) / len(kept)
        pe = sum(labels[i] == previous[i] for i in kept) / len(kept)
        expected = math.nan if pe == 1 else (p0 - pe) / (1 - pe)
        assert kappa_temporal(model, no_change) == pytest.approx(expected, abs=1e-12, nan_ok=True)


def test_kappa_temporal_exposes_a_model_no_better_than_repeating_the_last_label():
    from evalkit import NoChange, kappa_temporal

    weather = ["calm"] * 10 + ["storm"] * 10  # long runs: repeating the last label is right 19 times of 20
    guesses = ["calm"] * 9 + ["storm"] + ["storm"] * 9 + ["calm"]  # 18 of 20: accuracy 0.9
    model = ConfusionMatrix.from_predictions(weather, guesses)
    no_change = NoChange(ConfusionMatrix(["calm", "storm"]))
    no_change.update(weather)
    assert model.get_accuracy() == 0.9 and model.get_cohen_kappa() == pytest.approx(0.8)
    assert kappa_temporal(model, no_change) == pytest.approx((18 - 19) / (20 - 19))  # -1: worse than no change
    with pytest.raises(EvalkitError, match="the same samples"):
        kappa_temporal(model, ConfusionMatrix.from_predictions(["calm"], ["calm"], labels=["calm", "storm"]))


def test_the_majority_class_classifier_predicts_the_most_frequent_label_so_far():
    from evalkit import MajorityClass, kappa_m

    stream = ["b", "a", "a", "b", "b", "c"]
    before = MajorityClass(ConfusionMatrix(["a", "b", "c"]))
    before.update(stream[:3])
    before.update(stream[3:])  # batches carry the counts on
    # predicted before each label: a (nothing seen: the first label), b, a (a and b tie: a comes first), a, a (tie), b
    assert before.result == ConfusionMatrix.from_predictions(stream, ["a", "b", "a", "a", "a", "b"], labels=["a", "b", "c"])
    moa = MajorityClass(ConfusionMatrix(["a", "b", "c"]), include_current=True)
    moa.update(stream)  # MOA counts the label first: b, a (tie), a, a (tie), b, b
    assert moa.result == ConfusionMatrix.from_predictions(stream, ["b", "a", "a", "a", "b", "b"], labels=["a", "b", "c"])
    windowed = MajorityClass(ConfusionMatrix(["a", "b", "c"]), window=2)
    windowed.update(stream)  # the last two labels before each: -, b, (b a) a, (a a) a, (a b) a, (b b) b
    assert windowed.result == ConfusionMatrix.from_predictions(stream, ["a", "b", "a", "a", "a", "b"], labels=["a", "b", "c"])
    model = ConfusionMatrix.from_predictions(stream, stream)
    assert kappa_m(model, before) == 1.0  # perfect: all that the majority got wrong, right
    with pytest.raises(EvalkitError, match="not both"):
        MajorityClass(ConfusionMatrix(["a"]), window=3, factor=0.5)
    with pytest.raises(EvalkitError, match="same samples"):
        kappa_m(ConfusionMatrix.from_predictions(["a"], ["a"]), before)


def test_a_decayed_interval_rests_on_kish_effective_size():
    from statistics import NormalDist

    faded = Faded(ConfusionMatrix(["a", "b"]), factor=0.9)
    actual, predicted = ["a", "b", "b", "a", "b"] * 8, ["a", "b", "a", "a", "b"] * 8
    weights = 0.9 ** np.arange(len(actual) - 1, -1, -1.0)
    faded.update(actual, predicted)
    n = weights.sum() ** 2 / (weights**2).sum()  # Kish (1965): (Σw)² / Σw²
    p = weights[np.array(actual) == np.array(predicted)].sum() / weights.sum()
    z = NormalDist().inv_cdf(0.975)
    centre, half = (p + z * z / (2 * n)) / (1 + z * z / n), z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))  # Wilson (1927)
    found = faded.interval("accuracy")
    assert faded.effective_size == pytest.approx(n, rel=1e-12)
    assert (found.estimate, found.low, found.high) == pytest.approx((p, centre - half, centre + half), rel=1e-9)
    with pytest.raises(EvalkitError, match="nothing is counted"):
        Faded(ConfusionMatrix(["a"]), factor=0.5).interval("accuracy")
    with pytest.raises(EvalkitError, match="bootstrap"):
        faded.interval("accuracy", method="bca")  # decayed counts are no whole samples to resample


@given(st.integers(1, 400), st.integers(0, 400), st.integers(1, 400), st.integers(0, 400))
def test_two_results_compare_as_statsmodels_compares_two_proportions(n1, k1, n2, k2):
    from statsmodels.stats.proportion import confint_proportions_2indep, proportions_ztest

    from evalkit import compare_results

    k1, k2 = min(k1, n1), min(k2, n2)
    first, second = (ConfusionMatrix.from_array([[k, n - k], [0, 0]]) for k, n in ((k1, n1), (k2, n2)))  # accuracy k / n
    found = compare_results(first, second)
    low, high = confint_proportions_2indep(k1, n1, k2, n2, method="newcomb", compare="diff")  # Newcombe (1998), method 10
    assert (found.difference, found.low, found.high) == pytest.approx((k1 / n1 - k2 / n2, low, high), rel=1e-9, abs=1e-12)
    if 0 < k1 + k2 < n1 + n2:
        assert found.p_value == pytest.approx(proportions_ztest([k1, k2], [n1, n2])[1], rel=1e-9)


def test_a_window_compares_with_a_reference_window():
    from evalkit import compare_results

    rng = np.random.default_rng(5)
    actual = rng.integers(0, 3, 4000)
    predicted = np.where(rng.random(4000) < np.r_[np.full(3000, 0.9), np.full(1000, 0.75)], actual, (actual + 1) % 3)  # a drop at 3,000
    reference, current = Windowed(ConfusionMatrix([0, 1, 2]), size=2000), Windowed(ConfusionMatrix([0, 1, 2]), size=500)
    reference.update(actual[1000:3000], predicted[1000:3000])
    current.update(actual, predicted)
    drop = compare_results(current, reference)
    assert drop.difference == pytest.approx(current.get_accuracy() - reference.get_accuracy())
    assert drop.high < 0 and drop.p_value < 1e-6 and drop.better == "second"
    f1 = compare_results(current, reference, "f1_score", "macro", method="percentile", random_state=0)
    assert f1.low < f1.difference < f1.high < 0  # a bootstrap of each window on its own
    faded = Faded(ConfusionMatrix([0, 1, 2]), half_life=200)
    faded.update(actual, predicted)
    resized = faded.effective()
    assert resized.get_total_items() == pytest.approx(faded.effective_size) and resized.get_accuracy() == pytest.approx(faded.get_accuracy())
    assert compare_results(faded, reference).estimates[0] == pytest.approx(faded.get_accuracy())
    with pytest.raises(EvalkitError, match="no proportion|is none"):
        compare_results(current, reference, "f1_score", "macro")


@given(st.lists(st.tuples(st.sampled_from(LABELS), st.sampled_from(LABELS)), min_size=1, max_size=60), st.integers(1, 20), st.integers(1, 20),
       st.booleans())  # fmt: skip
def test_a_table_over_time_holds_each_window_counted_again(stream, size, step, tumbling):
    from evalkit import over_time

    actual, predicted = [a for a, _ in stream], [p for _, p in stream]
    options = {"tumbling": size} if tumbling else {"window": size, "step": step}
    table = over_time(actual, predicted, labels=LABELS, measures=["f1_score"], **options)
    every = size if tumbling else step
    assert [row["end"] for row in table.rows] == [*range(every, len(stream) + 1, every), *([len(stream)] if len(stream) % every else [])]
    for row in table.rows:
        start = (row["end"] - 1) // size * size if tumbling else max(0, row["end"] - size)
        again = ConfusionMatrix.from_predictions(actual[start : row["end"]], predicted[start : row["end"]], labels=LABELS)
        assert (row["samples"], row["accuracy"]) == (row["end"] - start, again.get_accuracy())
        assert row["macro f1_score"] == pytest.approx(again.average("f1_score", "macro"), nan_ok=True)


def test_a_table_over_time_refuses_what_it_cannot_window():
    from evalkit import over_time

    with pytest.raises(EvalkitError, match="one kind of window"):
        over_time(["a"], ["a"], window=3, tumbling=2)
    with pytest.raises(EvalkitError, match="needs the time of every sample"):
        over_time(["a"], ["a"], period=3)
    with pytest.raises(EvalkitError, match="'step' goes with"):
        over_time(["a"], ["a"], tumbling=3, step=1)
    with pytest.raises(EvalkitError, match="'y_true' has 1 values but 'y_pred' has 2"):
        over_time(["a"], ["a", "b"], window=2)
    for bad in (math.nan, math.inf):  # NaN passed every check of order, infinity ended windows without end
        with pytest.raises(InvalidArgumentError, match=r"'time' must be finite numbers .* got \[ 0., (nan|inf)\]"):
            over_time(["a", "b"], ["a", "b"], period=1, time=[0.0, bad])


def test_every_sample_of_a_stream_in_time_is_in_a_row_and_no_row_is_empty():
    """Rows end on whole steps from time 0, the first at or after the first sample, so that the
    first sample is in a window ((end - period, end]); a window holding no sample is no row, so a
    gap of a billion periods costs nothing."""
    from evalkit import over_time

    table = over_time(["a"] * 6, ["a", "b", "a", "a", "b", "b"], period=2, time=[0.0, 0.5, 1.0, 3.0, 1e9, 1e9 + 0.5])
    assert [(row["end"], row["samples"]) for row in table.rows] == [(0.0, 1), (2.0, 2), (4.0, 1), (1e9, 1), (1e9 + 0.5, 2)]
    tumbling = over_time(["a"] * 7, ["a"] * 7, period=3, time=[1, 2, 3, 4, 5, 6, 7]).rows  # (0, 3], (3, 6], and the open window (4, 7] read at the end
    assert [(row["end"], row["samples"]) for row in tumbling] == [(3.0, 3), (6.0, 3), (7.0, 3)]


def test_times_too_coarse_for_a_period_are_refused_not_dropped():
    """float64 holds times near 1e18 only 128 apart: a window of period 5 there ended where it
    started (1e18 - 5 == 1e18), so its samples left as they came and the table lost them
    silently. The span must cover 64 such steps; far from 0, rows still end on whole steps."""
    from evalkit import over_time

    for times in ([0.0, 1e18], [1e18, 1e18 + 1024]):
        with pytest.raises(InvalidArgumentError, match=r"'period' 5 is too short for times near 1e\+18: float64 holds times there only 128 apart"):
            over_time(["a", "b"], ["a", "b"], period=5, time=times)
    with pytest.raises(InvalidArgumentError, match=r"'step' 1 is too short"):
        over_time(["a"], ["a"], period=1e9, step=1, time=[1e18])
    window = Windowed(ConfusionMatrix(["a"]), period=5)
    for move in (lambda: window.update(["a"], ["a"], time=1e18), lambda: window.advance(1e18)):
        with pytest.raises(InvalidArgumentError, match="'period' 5 is too short"):
            move()
    far = over_time(["a"] * 3, ["a", "b", "a"], period=10_000, time=[1e18, 1e18 + 1024, 1e18 + 20480])
    assert [(row["end"], row["samples"]) for row in far.rows] == [(1e18, 1), (1e18 + 10_000, 1), (1e18 + 20_480, 1)]


@given(st.lists(st.lists(st.tuples(st.sampled_from(LABELS), st.sampled_from(LABELS), st.sampled_from(["north", "south", "east"])),
                         min_size=0, max_size=6), min_size=1, max_size=10), st.integers(1, 12))  # fmt: skip
def test_a_window_of_groups_equals_its_last_samples_grouped_again(stream, size):
    from evalkit import by_group

    window = Windowed(by_group(["a"], ["a"], ["north"], labels=LABELS).empty(), size=size)
    seen = []
    for batch in stream:
        window.update([a for a, _, _ in batch], [p for _, p, _ in batch], [g for _, _, g in batch])
        seen += batch
        kept = seen[-size:]
        if kept:
            again = by_group([a for a, _, _ in kept], [p for _, p, _ in kept], [g for _, _, g in kept], labels=LABELS)
            assert window.result.keys == again.keys
            assert window.values("accuracy") == pytest.approx(again.values("accuracy"), nan_ok=True)
            assert all(window.result[key] == again[key] for key in again.keys)


def test_groups_of_scores_are_counted_whole():
    from evalkit._groups._by_group import ByGroup

    scores = ByGroup.from_scores([0, 1, 1], [0.2, 0.7, 0.4], ["a", "b", "a"])
    with pytest.raises(UnsupportedSettingError, match="built whole"):
        Windowed(scores.empty(), size=3).update([0], [0.3], ["a"])


def test_time_windows_and_the_exact_window_auc_agree_with_river():
    import datetime

    from river import metrics, utils
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(8)
    start = datetime.datetime(2026, 1, 1)
    seconds = np.cumsum(rng.integers(0, 4, 300)).tolist()  # ties in time too
    actual = rng.choice(LABELS, 300).tolist()
    predicted = [y if rng.random() < 0.6 else str(rng.choice(LABELS)) for y in actual]
    timed = Windowed(ConfusionMatrix(LABELS), period=20)
    rolling = utils.TimeRolling(metrics.Accuracy, period=datetime.timedelta(seconds=20))
    for y, p, t in zip(actual, predicted, seconds):
        timed.update([y], [p], time=t)
        rolling.update(y, p, t=start + datetime.timedelta(seconds=t))
        assert timed.get_accuracy() == pytest.approx(rolling.get(), abs=1e-12)  # both keep the samples newer than t - period
    truth = (rng.random(400) < 0.4).tolist()
    for decimals in (None, 2):  # distinct scores, then rounded ones: ties
        raw = rng.random(400) * 0.6 + np.array(truth) * 0.3
        scores = (raw if decimals is None else np.round(raw, decimals)).tolist()
        window, river_auc = Windowed(CurveCounts(), size=64), metrics.RollingROCAUC(window_size=64)
        river_off = 0.0
        for k, (y, s) in enumerate(zip(truth, scores)):
            window.update([y], [s])
            river_auc.update(y, s)
            kept = slice(max(0, k - 63), k + 1)
            if 0 < sum(truth[kept]) < len(truth[kept]):
                ours = window.roc_auc()
                assert ours == pytest.approx(roc_auc_score(truth[kept], scores[kept]), abs=1e-12)
                river_off = max(river_off, abs(ours - river_auc.get()))
        if decimals is None:
            assert river_off < 1e-12  # distinct scores: River's RollingROCAUC is exact
        else:
            assert river_off > 1e-3  # tied scores: River does not count a tied pair as one half (scikit-learn and evalkit do)


# --------------------------------------------------------------------------------------------
# the edges: float weights of any size, batches of any length, labels that come late, checkpoints

wide_weights = st.sampled_from([1e-10, 2.0**-60, 0.1, 0.5, 1.0, 3.7, 1e9, 1e17])
weighted_batches = st.lists(st.lists(st.tuples(st.sampled_from(LABELS), st.sampled_from(LABELS), wide_weights), min_size=1, max_size=6),
                            min_size=1, max_size=10)  # fmt: skip


@given(weighted_batches, st.integers(1, 12))
def test_a_window_of_float_weights_holds_exactly_the_parts_of_its_samples(stream, size):
    """Weights from 1e-10 to 1e17 side by side: the window never refuses a sample it holds, and
    its counts are, to the last bit, the exact sums of the batches (or the part of a batch)
    still in it, each counted alone: nothing taken away leaves a rounding behind."""
    window = Windowed(ConfusionMatrix(LABELS), size=size)
    held = []
    for batch in stream:
        update(window, batch, weighted=True)
        held.append(batch)
        while sum(map(len, held)) > size:  # the oldest leave: a whole batch, or the first samples of one
            excess = sum(map(len, held)) - size
            held[0] = held[0][excess:] if len(held[0]) > excess else []
            held = [part for part in held if part]
        expected = sum((matrix_of(part, weighted=True) for part in held), ConfusionMatrix(LABELS))
        assert window.result == expected


def test_a_window_after_its_heaviest_sample_left_reads_the_rest():
    window = Windowed(ConfusionMatrix([0, 1]), size=2)
    window.update([0], [0], sample_weight=[1e9])
    window.update([0], [0], sample_weight=[0.5])
    window.update([1], [0], sample_weight=[0.5])  # the 1e9 leaves: one right, one wrong of 0.5 each
    assert window.get_accuracy() == 0.5 and window.result.to_array().tolist() == [[0.5, 0.0], [0.5, 0.0]]
    window.update([1], [1], sample_weight=[1.0])  # the right 0.5 leaves (it was never refused)
    assert window.result.to_array().tolist() == [[0.0, 0.0], [0.5, 1.0]] and window.get_accuracy() == 1 / 1.5


def _mean_absolute_error(pairs):
    return float(sum(abs(Fraction(y) - Fraction(p)) for y, p in pairs) / len(pairs))


@pytest.mark.parametrize("batch", [[1e200], [1e200, 2.0]])
def test_a_regression_window_takes_events_away_after_a_value_its_running_sums_cannot_hold(batch):
    """A sample of 1e200 (beyond the running sums' range) in the window: the events that leave
    after it are taken away from the exact sums (an event stayed, three samples in a window of 2)."""
    window = Windowed(RegressionMetrics(), size=2)
    window.update([1.0], [1.0])
    window.update(np.array(batch), np.array([0.0, 2.0][: len(batch)]))
    for y in (3.0, 5.0):
        window.update([y], [0.0])
    assert window.get_mean_absolute_error() == _mean_absolute_error([(3.0, 0.0), (5.0, 0.0)]) and window.result.get_total_weight() == 2


def test_a_restored_regression_window_of_one_takes_its_one_sample_batches_away():
    # the restored batch holds numpy floats, which the running sums refused (its sample stayed)
    window = Windowed(RegressionMetrics(), size=1)
    window.update(np.array([0.0, 0.0]), np.array([1.0, 0.0]))
    restored = Windowed.from_json(window.to_json())
    for view in (window, restored):
        view.update(np.array([1.0, 1.0]), np.array([0.0, 0.0]))
        assert view.get_mean_absolute_error() == 1.0 and view.result.get_total_weight() == 1


def test_a_window_keeps_integer_weights_exact():
    # whole weights count as integers in a window as they do outside it (2**53 + 1 read 2**53)
    window = Windowed(ConfusionMatrix([0, 1]), size=3)
    for _ in range(2):
        window.update([0], [0], sample_weight=[2**53 + 1])
    assert window.get_total_items() == 2**54 + 2 == ConfusionMatrix.from_predictions([0, 0], [0, 0], labels=[0, 1], sample_weight=[2**53 + 1] * 2).get_total_items()
    assert window.result == Windowed.from_json(window.to_json()).result


@given(st.integers(1, 3000), st.sampled_from([0.5, 0.9, 0.999, 1e-310, 0.5 ** (1 / 100)]))
def test_a_batch_of_any_length_decays_as_its_weights_say(n, factor):
    """``Faded`` with one batch of ``n`` samples: each weighs ``factor**age`` (0 below float64's
    range), summed in its cell; ``0.5**1100``, a half-life of 100 over 120,000 samples or a
    factor of 1e-310 are no error."""
    faded = Faded(ConfusionMatrix(["a", "b"]), factor=factor)
    actual = ["a" if k % 3 else "b" for k in range(n)]
    faded.update(actual, ["a"] * n)
    faded.update(["b"], ["b"])  # and one more after it
    with np.errstate(under="ignore"):
        weights = factor ** np.arange(n, -1, -1, dtype=np.float64)
    expected = ConfusionMatrix.from_predictions([*actual, "b"], ["a"] * n + ["b"], labels=["a", "b"], sample_weight=weights)
    assert np.allclose(faded.result.to_array(), expected.to_array(), rtol=1e-12, atol=0)
    assert faded.effective_size == pytest.approx(weights.sum() ** 2 / (weights**2).sum(), rel=1e-12)


def test_long_batches_and_tiny_factors_decay_without_error():
    for faded, n in ((Faded(ConfusionMatrix([0, 1]), factor=0.5), 1100), (Faded(ConfusionMatrix([0, 1]), half_life=100), 120_000),
                     (Faded(ConfusionMatrix([0, 1]), factor=0.5), 1050), (Faded(ConfusionMatrix([0, 1]), factor=1e-310), 3)):  # fmt: skip
        faded.update([0] * n, [0] * n)
        faded.update([1], [1])
        assert faded.get_accuracy() == 1.0 and faded.result.to_array()[1, 1] == 1.0
        assert faded.n_samples == pytest.approx(sum(faded.factor**age for age in range(n + 1)), rel=1e-12)


@given(st.lists(st.tuples(st.sampled_from(["cat", "dog", "bird", "fish"]), st.sampled_from(["cat", "dog", "bird", "fish"])), min_size=1, max_size=30),
       st.integers(1, 8), st.integers(1, 4))  # fmt: skip
def test_a_window_takes_in_labels_as_they_come(events, size, batch):
    """A template made without labels (``ConfusionMatrix()``, as River's metrics start): every
    class joins as it comes, and the window equals its last samples counted again."""
    window, tumbling = Windowed(ConfusionMatrix(), size=size), Tumbling(ConfusionMatrix(), size=size)
    for start in range(0, len(events), batch):
        chunk = events[start : start + batch]
        for view in (window, tumbling):
            view.update([actual for actual, _ in chunk], [predicted for _, predicted in chunk])
    seen = [label for event in events for label in event]
    assert set(window.labels) == set(seen)
    last = events[-size:]
    expected = ConfusionMatrix.from_predictions([a for a, _ in last], [p for _, p in last], labels=window.labels)
    assert window.result == expected.with_labels(window.labels) or window.result.to_array().tolist() == expected.to_array().tolist()
    assert sum(part.get_total_items() for part in tumbling.history) + len(tumbling) == len(events)


def test_sets_take_in_new_classes_in_later_batches_and_windows():
    from evalkit import SetCoverage

    sets = SetCoverage()
    sets.update(["a"], [{"a"}])
    sets.update(["b", "c"], [{"b"}, {"a"}])  # new classes in a second batch
    assert sets.labels == ("a", "b", "c") and sets.class_coverage() == {"a": 1.0, "b": 1.0, "c": 0.0}
    tumbling = Tumbling(SetCoverage(), size=2)
    tumbling.update(["a", "b"], [{"a"}, {"a", "b"}])
    tumbling.update(["c"], [{"c"}])
    assert [part.coverage() for part in tumbling.history] == [1.0] and tumbling.result.labels == ("c",)
    window = Windowed(SetCoverage(), size=2)
    for truth, found in (("a", {"a"}), ("b", {"c"}), ("d", {"d", "a"})):
        window.update([truth], [found])
    assert window.coverage() == 0.5 and window.n_samples == 2


def _checkpoint_cases():
    from evalkit import RegressionMetrics, RiskCoverage
    from evalkit._scale.streaming import LabelSetCounts

    return [
        (lambda: ConfusionMatrix(LABELS), lambda k: ((LABELS[k % 3], LABELS[k * 7 % 3]), {"sample_weight": [0.1 * (k % 4)] if k % 5 == 0 else None})),
        (lambda: ConfusionMatrix(), lambda k: ((f"class {k % 4}", f"class {k % 3}"), {})),
        (lambda: LabelSetCounts(), lambda k: (([frozenset(LABELS[: k % 3])], [frozenset(LABELS[k % 2 :])]), {})),
        (lambda: RiskCoverage(), lambda k: ((LABELS[k % 3], LABELS[k % 2], k / 10), {})),
        (lambda: CurveCounts(), lambda k: ((k % 2, (k * 37 % 100) / 100), {})),
        (lambda: RegressionMetrics(), lambda k: ((k / 3, k / 3 + (-1) ** k), {})),
    ]


@pytest.mark.parametrize("case", range(6))
@pytest.mark.parametrize("window", ["Windowed", "period", "Faded", "Tumbling"])
def test_a_window_restored_from_json_or_a_pickle_goes_on_as_the_window_it_was(case, window):
    """A service checkpoints its window (``to_json``, pickle) and restores it: the restored one
    holds the same result and the same samples, so the same samples leave it later."""
    import pickle

    template, event = _checkpoint_cases()[case]
    views = {"Windowed": lambda: Windowed(template(), size=7), "period": lambda: Windowed(template(), period=5.0),
             "Faded": lambda: Faded(template(), factor=0.8), "Tumbling": lambda: Tumbling(template(), size=4)}  # fmt: skip

    def feed(view, first, last):
        for k in range(first, last):
            columns, options = event(k)
            columns = [value if isinstance(value, list) else [value] for value in columns]
            if window == "period":
                options = {**options, "time": float(k)}
            view.update(*columns, **{name: value for name, value in options.items() if value is not None})

    original = views[window]()
    feed(original, 0, 11)
    restored = type(original).from_json(original.to_json())
    pickled = pickle.loads(pickle.dumps(original))
    assert restored.result == original.result and pickled.result == original.result
    if window != "Faded":
        assert len(restored) == len(original)
    for view in (original, restored, pickled):
        feed(view, 11, 25)
    assert restored.result == original.result and pickled.result == original.result
    if window == "Tumbling":
        assert [part == mine for part, mine in zip(restored.history, original.history)] == [True] * len(original.history)


def test_a_window_document_of_another_kind_or_with_too_many_samples_is_refused():
    from evalkit._engine.serialization import FormatError

    window = Windowed(ConfusionMatrix(["a", "b"]), size=2)
    window.update(["a", "b"], ["a", "a"])
    document = window.to_json()
    with pytest.raises(FormatError):
        Faded.from_json(document)
    with pytest.raises(FormatError, match="more than the window's size"):
        Windowed.from_json(document.replace('"size": 2', '"size": 1'))
    with pytest.raises(FormatError, match="template"):
        Windowed.from_json(document.replace('"template": {"evalkit": "ConfusionMatrix"', '"template": {"evalkit": "Nothing"'))


@pytest.mark.parametrize("change", ["a label the template lacks", "a result its batches do not hold"])
def test_a_window_document_is_checked_against_its_batches(change):
    """A document whose batches do not add up to its result loaded silently and failed at an
    unrelated update later (an unknown label, a count gone negative): it is a FormatError."""
    import json

    from evalkit._engine.serialization import FormatError

    window = Windowed(ConfusionMatrix([0, 1]), size=3)
    window.update([0, 1], [0, 0])
    window.update([1], [1])
    document = json.loads(window.to_json())
    if change == "a label the template lacks":
        document["batches"][0]["columns"] = [{"list": [7, 7]}, {"list": [0, 0]}]
    else:
        document["result"]["counts"] = [[0, 0], [0, 0]]
    with pytest.raises(FormatError):
        Windowed.from_json(json.dumps(document))


def test_a_window_restored_from_json_takes_a_weighted_batch_away_as_it_added_it():
    """The batch's cell sums to 2**53 (float64 rounds 2**53 + 1): when its first sample leaves,
    the restored window, like the original, takes the batch away whole and counts what stays."""
    window = Windowed(ConfusionMatrix(["a", "b"]), size=2)
    window.update(["a", "a"], ["a", "a"], sample_weight=[2.0**53, 1.0])
    restored = Windowed.from_json(window.to_json())
    for view in (window, restored):
        view.update(["a"], ["a"], sample_weight=[1.0])
    assert window.get_total_items() == restored.get_total_items() == 2.0 and restored.result == window.result


@pytest.mark.parametrize("change", ["int dtype of strings", "strings cut by their dtype", "ragged floats", "set of a list", "one column", "result of another kind"])
def test_a_malformed_window_document_is_a_format_error(change):
    import json

    from evalkit import RiskCoverage
    from evalkit._engine.serialization import FormatError

    window = Windowed(ConfusionMatrix(["a", "bb"]), size=4)
    window.update(np.array(["a", "bb"]), np.array(["a", "a"]))
    window.update(["bb"], ["bb"])
    document = json.loads(window.to_json())
    columns = document["batches"][0]["columns"]
    if change == "int dtype of strings":
        columns[0]["dtype"] = "<i8"
    elif change == "strings cut by their dtype":
        columns[0]["dtype"] = "<U1"
    elif change == "ragged floats":
        columns[0].update(array=[[1, 2], [3]], dtype="<f8")
    elif change == "set of a list":
        document["batches"][1]["columns"][0] = {"list": [{"items": [{"items": [1], "kind": "list"}], "kind": "frozenset"}]}
    elif change == "one column":
        document["batches"][1]["columns"].pop()
    else:
        document["result"] = json.loads(RiskCoverage(["a", "bb"]).to_json())
    with pytest.raises(FormatError):
        Windowed.from_json(json.dumps(document))


@pytest.mark.parametrize("kind", ["ConfusionMatrix", "SetCoverage"])
def test_a_refused_batch_leaves_every_window_as_it_was(kind):
    """A batch the kind refuses (a label outside fixed labels) changes nothing: the faded past
    does not fade (its weights and effective size stay), and a tumbling window that the batch
    would have closed stays open, holding what it held (the batch's first samples are not kept)."""
    from evalkit import SetCoverage

    template = ConfusionMatrix(["a", "b"]) if kind == "ConfusionMatrix" else SetCoverage(labels=["a", "b"])
    good, bad = ((["a"], ["a"]), (["a", "a", "zzz"], ["a", "a", "a"])) if kind == "ConfusionMatrix" else ((["a"], [["a"]]), (["a", "a", "zzz"], [["a"], ["a"], ["a"]]))
    faded, tumbling = Faded(template, 0.5), Tumbling(template, size=2)
    for window in (faded, tumbling):
        window.update(*good)
    before = (faded.result == template.counted(*good), faded.effective_size, faded.to_json(), tumbling.to_json())
    for window in (faded, tumbling):
        with pytest.raises(EvalkitError, match="zzz"):
            window.update(*bad)
    assert (faded.result == template.counted(*good), faded.effective_size, faded.to_json(), tumbling.to_json()) == before
    assert len(tumbling.history) == 0 and len(tumbling.result.labels) == 2


def test_a_window_refuses_a_column_that_is_one_value_and_a_unit_no_float64_holds():
    """A keyword column given as one string (or number) is no column of one value per sample (a
    review found a bare TypeError); a decayed window's ``unit`` is a normal float64."""
    import json

    from evalkit import SetCoverage
    from evalkit.exceptions import FormatError, InvalidTypeError

    for groups in ("ab", 5, np.array("ab")):
        with pytest.raises(InvalidTypeError, match="'groups' must be a column, one value per sample"):
            Windowed(SetCoverage(), size=3).update(["a", "b"], [["a"], ["b"]], groups=groups)
    with pytest.raises(InvalidTypeError, match=r"'columns\[0\]' must be a column"):
        Windowed(ConfusionMatrix([0, 1]), size=3).update(1, [1])
    faded = Faded(ConfusionMatrix([0, 1]), factor=0.5)
    faded.update([0, 1], [0, 1], sample_weight=[1e300, 1e300])
    document = json.loads(faded.to_json())
    assert document["unit"] != 1.0 and Faded.from_json(faded.to_json()).effective_size == faded.effective_size
    for unit in (1e-310, 5e-324, 0.0, -1.0):
        with pytest.raises(FormatError, match="'unit'"):
            Faded.from_json(json.dumps({**document, "unit": unit}))


def test_a_decay_counts_and_sizes_its_past_alike_however_its_samples_are_batched():
    """The counts fade by the rule the sums of Kish's size fade by (a fade below float64's range
    in two halves; a past below its least normal number gone from both), and a batch's own
    weights take their age's power in halves where that power alone would underflow: one long
    batch, many short ones and one batch of everything give the same size, shares and interval
    (a review found a ZeroDivisionError, an accuracy of 0 for 1 and counts of a few bits)."""
    def faded(batches):
        view = Faded(ConfusionMatrix([0, 1]), factor=0.5)
        view.update([0] * 10, [0] * 10, sample_weight=np.full(10, 1e300))
        for size in batches:
            view.update([1] * size, [0] * size, sample_weight=np.full(size, 1e-300))
        return view

    one = Faded(ConfusionMatrix([0, 1]), factor=0.5)  # everything in one update: 1e300 then 1e-300 weights
    one.update([0] * 10 + [1] * 1100, [0] * 10 + [0] * 1100, sample_weight=np.concatenate([np.full(10, 1e300), np.full(1100, 1e-300)]))
    views = [faded([1100]), faded([100] * 11), one]
    ages = [Fraction(1, 2 ** (1100 + k)) * Fraction(10**300) for k in range(10)]  # the 1e-300 samples weigh nothing beside them
    for view in views:
        assert view.effective_size == pytest.approx(float(sum(ages) ** 2 / sum(a * a for a in ages)), rel=1e-9) and view.get_accuracy() == 1.0
        low, high = view.interval("accuracy").low, view.interval("accuracy").high
        assert (low, high) == pytest.approx((views[1].interval("accuracy").low, views[1].interval("accuracy").high), rel=1e-9)
    plain = [Faded(ConfusionMatrix([0, 1]), factor=0.9) for _ in range(2)]
    plain[0].update([0, 1] * 3500, [0, 0] * 3500)  # a fade of 0.9**7000, subnormal as one float
    for _ in range(7):
        plain[1].update([0, 1] * 500, [0, 0] * 500)
    assert plain[0].get_accuracy() == pytest.approx(plain[1].get_accuracy(), rel=1e-12)
    assert plain[0].effective().n_samples == pytest.approx(plain[1].effective_size, rel=1e-12)


def test_a_window_state_taken_under_its_lock_is_not_changed_by_a_later_batch():
    """A pickle is written after the lock is let go: the batches it holds are copies, each with
    its own place (a review found a batch split by a later update inside the pickle)."""
    import pickle

    window = Windowed(ConfusionMatrix([0, 1]), size=8)
    window.update([1, 1, 1], [1, 1, 1])
    window.update([1, 1, 1], [1, 1, 1])
    state = window.__getstate__()
    window.update([0, 0, 0], [0, 0, 0])  # the oldest batch splits: two of its samples leave
    restored = Windowed.__new__(Windowed)
    restored.__setstate__(pickle.loads(pickle.dumps(state)))
    assert restored.result.to_array().tolist() == [[0, 0], [0, 6]] and restored.result == restored._recounted()


def test_rows_of_negative_times_and_of_numpy_datetimes():
    """Rows end on whole steps from time 0 before it too (dates before 1970): the first row
    ended at 0 or later, so every row before it was lost. A window of period takes times as
    numbers: numpy datetimes, which numpy reads as days or nanoseconds, are refused."""
    from evalkit import over_time

    table = over_time([0, 1, 1, 0, 1, 0], [0, 1, 0, 0, 0, 0], period=10, step=10, time=[-45.0, -35, -25, -15, -5, 5])
    assert [(row["end"], row["samples"]) for row in table.rows] == [(-40.0, 1), (-30.0, 1), (-20.0, 1), (-10.0, 1), (0.0, 1), (5.0, 1)]
    window = Windowed(ConfusionMatrix(["a"]), period=5)
    for move in (lambda: window.update(["a"], ["a"], time=np.array(["2024-01-01"], dtype="datetime64[D]")), lambda: window.advance(np.datetime64("2024-01-01"))):
        with pytest.raises(InvalidTypeError, match="'time' must be numbers .* numpy datetimes"):
            move()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.tuples(st.sampled_from(["a", "b"]), st.sampled_from(["a", "b"]), st.sampled_from([1, 2, 0.5])), min_size=1, max_size=4),
                min_size=1, max_size=8), st.integers(1, 5))  # fmt: skip
def test_a_window_of_weighted_evaluations_keeps_its_samples_in_order(stream, size):
    """A weighted batch that partly leaves is taken away whole and its staying samples counted
    again: they went to the end, so per_sample read them out of order while the evaluation
    still said its samples were in order. They now come before the later ones."""
    from evalkit import Stream

    window = Windowed(Stream(Evaluation.from_labels, labels=["a", "b"]), size=size)
    seen: list = []
    for batch in stream:
        window.update([a for a, _, _ in batch], [p for _, p, _ in batch], sample_weight=[w for _, _, w in batch])
        seen += batch
        kept = seen[-size:]
        fresh = Evaluation.from_labels([a for a, _, _ in kept], [p for _, p, _ in kept], labels=["a", "b"], sample_weight=[w for _, _, w in kept])
        found = window.result.result()
        assert found.ordered and found.per_sample("accuracy").tolist() == fresh.per_sample("accuracy").tolist()
