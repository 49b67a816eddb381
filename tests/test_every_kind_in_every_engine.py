"""Every counted kind runs in every engine, with no code of its own there: a sliding window
holds its last samples, a tumbling window its current chunk, a faded stream counts each
sample at ``factor**age``, and a Dask fold of partitions (a Spark fold, in the slow suite)
equals the result counted at once. Results that are values (``Evaluation``, ``ThresholdCurve``,
``ByGroup``, ``Agreement``, ...) are counted through a ``Stream``; ``harness.STREAMED`` gives
the empty result of each kind of ``harness.KINDS`` and the columns of a data set."""

import json
import pickle

import numpy as np
import pytest
from harness import KINDS, STREAMED, counted_samples, rows_of, unstreamed
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalkit import Faded, Stream, Tumbling, Windowed
from evalkit.exceptions import (
    FormatError,
    InvalidArgumentError,
    InvalidTypeError,
    LabelMismatchError,
    UnsupportedSettingError,
)

ENGINE = settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _weights(data, kind):
    weight = data["weight"]
    return None if weight is None or kind == "RankedLists" else np.array(weight)  # (ranked lists count each list once)


def _counted(template, columns, weight):
    given, named = columns
    return template.counted(*given, sample_weight=weight, **named)


def _same(kind, first, second):
    """The same counts, in the form the kind's merges keep (``KINDS``)."""
    if isinstance(first, Stream) and (first._holds_nothing() or second._holds_nothing()):
        assert first == second, kind
        return
    canonical = KINDS[kind][1] or (lambda result: result)
    assert canonical(unstreamed(first)) == canonical(unstreamed(second)), kind


def _batches(n, size):
    return [slice(start, min(start + size, n)) for start in range(0, n, size)]


@pytest.mark.parametrize("kind", list(STREAMED))
@ENGINE
@given(data=counted_samples(min_size=3, max_size=14), size=st.integers(1, 5), batch=st.integers(1, 3))
def test_a_sliding_window_of_every_kind_holds_its_last_samples(kind, data, size, batch):
    template, columns_of = STREAMED[kind]
    columns, weight, n = columns_of(data), _weights(data, kind), data["n"]
    window = Windowed(template(), size=size)
    for rows in _batches(n, batch):
        given, named = rows_of(columns, rows)
        window.update(*given, sample_weight=None if weight is None else weight[rows], **named)
    last = slice(n - min(size, n), n)
    _same(kind, window.result, _counted(template(), rows_of(columns, last), None if weight is None else weight[last]))
    restored = Windowed.from_json(window.to_json())  # its batches (keyword columns too) go on leaving as they came
    for later in (window, restored):
        given, named = rows_of(columns, slice(0, 1))
        later.update(*given, sample_weight=None if weight is None else weight[:1], **named)
    _same(kind, restored.result, window.result)


@pytest.mark.parametrize("kind", list(STREAMED))
@ENGINE
@given(data=counted_samples(min_size=3, max_size=14), size=st.integers(1, 5))
def test_a_tumbling_window_of_every_kind_holds_its_chunks(kind, data, size):
    template, columns_of = STREAMED[kind]
    columns, weight, n = columns_of(data), _weights(data, kind), data["n"]
    window = Tumbling(template(), size)
    given, named = columns
    window.update(*given, sample_weight=weight, **named)
    chunks = _batches(n, size)
    closed = chunks if n % size == 0 else chunks[:-1]
    assert len(window.history) == len(closed)
    for result, rows in zip(window.history, closed):
        _same(kind, result, _counted(template(), rows_of(columns, rows), None if weight is None else weight[rows]))
    if n % size:
        _same(kind, window.result, _counted(template(), rows_of(columns, chunks[-1]), None if weight is None else weight[chunks[-1]]))
    else:
        assert window.result == template(), kind


@pytest.mark.parametrize("kind", [kind for kind in STREAMED if STREAMED[kind][0]().supports("scale")])
@ENGINE
@given(data=counted_samples(min_size=2, max_size=10), batch=st.integers(1, 3))
def test_a_faded_stream_of_every_kind_weighs_each_sample_by_factor_to_its_age(kind, data, batch):
    template, columns_of = STREAMED[kind]
    columns, weight, n = columns_of(data), _weights(data, kind), data["n"]
    faded = Faded(template(), 0.5)
    for rows in _batches(n, batch):
        given, named = rows_of(columns, rows)
        faded.update(*given, sample_weight=None if weight is None else weight[rows], **named)
    ages = 0.5 ** np.arange(n - 1, -1, -1, dtype=float)
    _same(kind, faded.result, _counted(template(), columns, ages * (1 if weight is None else weight)))


@pytest.mark.parametrize("kind", list(STREAMED))
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=counted_samples(min_size=2, max_size=12), chunk=st.integers(1, 5))
def test_a_dask_fold_of_every_kind_equals_the_result_counted_at_once(kind, data, chunk):
    import dask
    import dask.array as da

    from evalkit.dask import fold

    template, columns_of = STREAMED[kind]
    (given, named), weight = columns_of(data), _weights(data, kind)

    def collection(values):
        array = values if isinstance(values, np.ndarray) else np.array(values, dtype=object if isinstance(values[0], str) else None)
        return da.from_array(array, chunks=(chunk, *array.shape[1:]))

    with dask.config.set(scheduler="synchronous"):
        folded = fold(template(), *map(collection, given), sample_weight=None if weight is None else collection(weight),
                      **{name: collection(values) for name, values in named.items()})
    _same(kind, folded, _counted(template(), (given, named), weight))


def test_a_stream_counts_any_result_batch_after_batch_and_reads_back_from_json():
    from evalkit import ByGroup, Calibration, ConfusionMatrix, Evaluation, ThresholdCurve

    stream = Stream(Evaluation.from_label_sets)
    stream.update([{"a"}, {"a", "b"}], [{"a"}, {"b"}])
    stream.update([{"c"}], [{"a", "c"}])  # a label of a later batch joins
    whole = Evaluation.from_label_sets([{"a"}, {"a", "b"}, {"c"}], [{"a"}, {"b"}, {"a", "c"}])
    assert stream.result() == whole.with_labels(["a", "b", "c"])
    assert Stream.from_json(stream.to_json()) == stream
    assert (pickle.loads(pickle.dumps(stream)) + stream).result().n_samples == 6  # (a pickled stream's settings are the same: an executor's merges)
    curves = Stream(ThresholdCurve.from_scores, pos_label=1, thresholds=5)
    curves.update([0, 1], [0.2, 0.8])
    curves.update([1], [0.6])
    assert curves.result() == ThresholdCurve.from_scores([0, 1, 1], [0.2, 0.8, 0.6], pos_label=1, thresholds=5)
    assert Stream.from_json(curves.to_json()) == curves  # (a kind found by its class's name: ThresholdCurve's document is its base's)
    options = Stream(Calibration.from_scores, bins=None, labels=["Infinity", "x"], pos_label="x")
    assert Stream.from_json(options.to_json()) == options  # options read back as written
    counted = Stream(ConfusionMatrix.from_predictions)
    counted.update([0, 1], [0, 0])
    counted.result().update([1], [1])  # a result counted into in place is read as a copy
    copied = counted.copy()
    counted.update([1], [1])
    assert counted.result().get_total_items() == 3 and copied.result().get_total_items() == 2
    groups = Stream(ByGroup.from_labels, labels=[0, 1])
    groups.update([0, 1], [1, 1], ["x", "y"])
    groups.revert([0], [1], ["x"])
    assert groups.result()["y"].to_array().tolist() == [[0, 0], [0, 1]]


def test_a_stream_refuses_what_it_cannot_count_and_says_why():
    from evalkit import ClassificationMetrics, Evaluation, RankedLists, ThresholdCurve
    from evalkit.exceptions import EmptyInputError

    with pytest.raises(InvalidTypeError, match="'build' must be a class method of a counted result"):
        Stream(len)
    with pytest.raises(InvalidArgumentError, match="'options' must be keywords Evaluation.from_labels takes"):
        Stream(Evaluation.from_labels, bins=3)
    with pytest.raises(LabelMismatchError, match="cannot merge a Stream"):
        Stream(Evaluation.from_labels, labels=["a"]) + Stream(Evaluation.from_labels, labels=["b"])
    with pytest.raises(UnsupportedSettingError, match="does not support json: an option is no JSON data"):
        Stream(Evaluation.from_labels, metrics_class=type("Mine", (ClassificationMetrics,), {})).to_json()  # a class: no JSON data
    lists = Stream(RankedLists.from_lists, depth=3)
    lists.update([[1, 2, 3]], [[2, 5]])  # a constructor without weights: a batch without weights counts
    with pytest.raises(InvalidArgumentError, match="'sample_weight'.*RankedLists.from_lists takes none"):
        lists.update([[1, 2]], [[2]], sample_weight=[2.0])
    assert not lists.supports("scale") and lists.supports("subtract")
    with pytest.raises(UnsupportedSettingError, match="the result it counts does not scale"):
        lists.scaled(0.5)
    with pytest.raises(InvalidArgumentError, match="'sample_weight' is a batch's column"):
        Stream(Evaluation.from_labels, sample_weight=[1, 2])
    with pytest.raises(InvalidArgumentError, match="'y_true' is a batch's column"):
        Stream(Evaluation.from_labels, y_true=[1, 2])
    document = json.loads(Stream(Evaluation.from_labels).to_json())
    for build in ("Nonsense.from_labels", "Evaluation.from_json", "Evaluation.with_labels", None):
        with pytest.raises(FormatError, match="must name a counted result and its constructor"):
            Stream.from_json(json.dumps({**document, "build": build}))
    empty = Stream(ThresholdCurve.from_scores)
    with pytest.raises(EmptyInputError, match="nothing was counted"):
        empty.result()


def _spark_value(value):
    """A value as a Spark row holds it (sets as sorted lists; numpy numbers as Python's)."""
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if isinstance(value, np.ndarray):
        return [_spark_value(item) for item in value.tolist()]
    if isinstance(value, list):
        return [_spark_value(item) for item in value]
    return value.item() if isinstance(value, np.generic) else value


SPARK_VECTORS = {"Evaluation of degrees", "Agreement"}
"""Kinds that count a vector per row (degrees, raters' ratings): a Spark array column arrives as
a column of arrays, which their constructors do not stack (``evalkit.spark``'s own functions do,
for scores)."""


@pytest.mark.slow  # a Spark session takes seconds to start
def test_a_spark_fold_of_every_kind_equals_the_result_counted_at_once(spark):
    """One data set, every kind: the rows in three partitions, counted where they live
    (array columns arrive as numpy arrays of lists, as Spark gives them)."""
    from harness import SAMPLE_DATA

    from evalkit.spark import fold

    data = SAMPLE_DATA
    for kind, (template, columns_of) in STREAMED.items():
        if kind in SPARK_VECTORS:
            continue
        (given, named), weight = columns_of(data), _weights(data, kind)
        names = [f"c{k}" for k in range(len(given))] + list(named)
        weights = [] if weight is None else [weight.astype(float)]
        rows = [[_spark_value(column[i]) for column in [*given, *named.values(), *weights]] for i in range(data["n"])]
        frame = spark.createDataFrame(rows, [*names, *(["w"] if weights else [])]).repartition(3)
        folded = fold(frame, template(), names[: len(given)], weight=None if weight is None else "w", **{name: name for name in named})
        _same(kind, folded, _counted(template(), (given, named), None if weight is None else weight.astype(float)))
