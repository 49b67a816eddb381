"""Prediction records: which samples fell in which cell, by id (DL4J's ``Prediction`` records:
``getPredictionErrors``, ``getPredictionsByActualClass``, ``getPredictionByPredictedClass``,
``getPredictions``), bounded to the newest ``keep``.

The reference is the records listed sample by sample in plain Python: ``(actual, predicted, id)``
of each sample of weight above 0 (with ``errors_only``, of each wrong one), the last ``keep`` of
them, and how many were left out."""

import json
import pickle

import numpy as np
import pytest
from harness import check_kind, counted_samples
from hypothesis import given
from hypothesis import strategies as st

from evalkit import ConfusionMatrix, PredictionRecords, Windowed
from evalkit.exceptions import (
    FormatError,
    InputLengthError,
    InputShapeError,
    InvalidArgumentError,
    InvalidCountsError,
    InvalidTypeError,
    MixedLabelTypesError,
    UnsupportedSettingError,
)

Record = PredictionRecords.Record


def by_hand(actual, predicted, ids, weight=None, keep=1000, errors_only=False):
    """The records kept and the number left out, sample by sample."""
    rows = [(a, p, i) for k, (a, p, i) in enumerate(zip(actual, predicted, ids))
            if (weight is None or weight[k] > 0) and not (errors_only and a == p)]  # fmt: skip
    return rows[max(len(rows) - keep, 0) :], max(len(rows) - keep, 0)


def as_rows(records):
    return [tuple(record) for record in records.records()], records.dropped


samples = st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), st.sampled_from(["a", "b", "c"]), st.integers(0, 2)), min_size=1, max_size=30)


def test_the_records_of_dl4j_s_example_by_cell_by_actual_by_predicted_and_the_errors():
    """Iris-like: 3 classes, 6 examples with DL4J-style record ids; DL4J's getters read the
    records of one cell (getPredictions), one actual class (getPredictionsByActualClass), one
    predicted class (getPredictionByPredictedClass) and the wrong ones (getPredictionErrors)."""
    records = PredictionRecords()
    records.update([0, 0, 1, 1, 2, 2], [0, 1, 1, 2, 2, 0], ["r0", "r1", "r2", "r3", "r4", "r5"])
    assert records.records(actual=1) == [Record(1, 1, "r2"), Record(1, 2, "r3")]
    assert records.records(predicted=0) == [Record(0, 0, "r0"), Record(2, 0, "r5")]
    assert records.records(1, 2) == [Record(1, 2, "r3")]
    assert [record.id for record in records.errors()] == ["r1", "r3", "r5"]
    matrix = ConfusionMatrix.from_predictions([0, 0, 1, 1, 2, 2], [0, 1, 1, 2, 2, 0])
    for a in range(3):  # every cell's records are as many as the matrix counts there
        for p in range(3):
            assert len(records.records(a, p)) == matrix.to_array()[a, p]


def test_labels_keep_their_identity_in_records_and_in_what_a_read_asks_for():
    records = PredictionRecords().counted(["1", "2"], ["1", "1"], [7, 8])
    assert records.records(actual=1) == [] and records.records(actual="1") == [Record("1", "1", 7)]
    numbers = PredictionRecords().counted(np.array([1, 2]), np.array([2, 2]), np.array([5, 6]))
    assert [type(value) for value in numbers.records()[0]] == [int, int, int]  # numpy values as Python's
    flags = PredictionRecords().counted([True, False], [True, True], [1, 2])
    assert flags.records(actual=1) == [] and flags.records(actual=True) == [Record(True, True, 1)]


@given(samples, st.integers(1, 8), st.booleans(), st.booleans())
def test_a_batch_keeps_the_newest_records_as_listed_by_hand(rows, keep, errors_only, weighted):
    actual, predicted, weight = (list(column) for column in zip(*rows))
    ids = [f"id{k}" for k in range(len(rows))]
    records = PredictionRecords(keep, errors_only=errors_only)
    records.update(actual, predicted, ids, sample_weight=weight if weighted else None)
    assert as_rows(records) == by_hand(actual, predicted, ids, weight if weighted else None, keep, errors_only)


@given(samples, st.integers(1, 8), st.data())
def test_batches_and_merges_keep_what_one_batch_of_them_all_keeps(rows, keep, data):
    """The bound keeps the newest records, so batch after batch, merged parts and one batch of
    every sample keep the same records; kept and let go always sum to the records the samples
    give; and the newest batch taken away again (``revert``) leaves what was there before it."""
    actual, predicted, ids = (list(column) for column in zip(*rows))
    cuts = sorted(data.draw(st.lists(st.integers(0, len(rows)), max_size=3)))
    pieces = [slice(start, stop) for start, stop in zip([0, *cuts], [*cuts, len(rows)])]
    stream, merged = PredictionRecords(keep), PredictionRecords(keep)
    for piece in pieces:
        stream.update(actual[piece], predicted[piece], ids[piece])
        merged = merged + PredictionRecords(keep).counted(actual[piece], predicted[piece], ids[piece])
    whole = PredictionRecords(keep).counted(actual, predicted, ids)
    assert stream == merged == whole and as_rows(whole) == by_hand(actual, predicted, ids, keep=keep)
    assert len(whole.records()) + whole.dropped == len(rows)
    last = pieces[-1]
    before = PredictionRecords(keep).counted(actual[: last.start], predicted[: last.start], ids[: last.start])
    stream.revert(actual[last], predicted[last], ids[last])
    if last.stop - last.start + before.dropped + len(before.records()) <= keep:  # (nothing let go: the records before it)
        part = [tuple(record) for record in PredictionRecords(keep).counted(actual[last], predicted[last], ids[last]).records()]
        assert sorted(stream.records()) == sorted(before.records()) and stream.dropped == 0
        if as_rows(whole)[0][: len(part)] != part:  # in their order, unless the same records also begin them (then the oldest leave, as a window's)
            assert stream == before
    assert len(stream.records()) + stream.dropped == last.start


@given(samples, st.integers(1, 6), st.integers(1, 6), st.integers(1, 4))
def test_a_sliding_window_keeps_the_records_of_its_samples_counted_afresh_past_the_bound(rows, keep, size, batch):
    """Its oldest batch leaves first, and the bound let go the oldest records first: what is left
    is exactly the newest records of the window's samples, whatever the bound dropped before."""
    actual, predicted, ids = (list(column) for column in zip(*rows))  # (ids 0 to 2: the same record again and again, as a validation set each epoch)
    window = Windowed(PredictionRecords(keep), size=size)
    for start in range(0, len(rows), batch):
        window.update(actual[start : start + batch], predicted[start : start + batch], ids[start : start + batch])
    last = slice(max(len(rows) - size, 0), len(rows))
    assert window.result == PredictionRecords(keep).counted(actual[last], predicted[last], ids[last])


@given(data=counted_samples())
def test_records_follow_the_counted_state_protocol(data):
    check_kind("PredictionRecords", data)


def test_the_same_record_again_leaves_with_its_own_part():
    """A validation set scored each epoch gives the same records again: the part that leaves
    takes its own place (the oldest records, those the bound let go first), not the first equal
    records found (found by a review: the window lost a record it held and said it let it go)."""
    y, ids = ["cat", "dog", "cat", "dog"], ["v0", "v1", "v2", "v3"]
    window = Windowed(PredictionRecords(keep=2), size=4)
    for predicted in (["cat", "cat", "dog", "dog"], ["cat", "cat", "cat", "dog"]):
        window.update(y, predicted, ids)
    assert window.result == PredictionRecords(keep=2).counted(y, predicted, ids) and window.result.dropped == 2
    first, later = PredictionRecords().counted(["x", "z"], ["y", "z"], [1, 2]), PredictionRecords().counted(["w"], ["w"], [3])
    assert (first + later) - later == first and (first + later) - first == later  # the newest, then the oldest, leaves
    again = PredictionRecords().counted(["x"], ["y"], [1])  # the oldest record and the newest alike: the oldest leaves, as a window's
    assert as_rows((first + again) - again) == ([("z", "z", 2), ("x", "y", 1)], 0)


def test_a_part_taken_away_leaves_its_records_and_one_never_counted_is_refused():
    monday = PredictionRecords(3).counted(["a", "b"], ["a", "a"], [1, 2])
    tuesday = PredictionRecords(3).counted(["b", "b"], ["b", "a"], [3, 4])
    week = monday + tuesday  # four records, the bound keeps three: Monday's first let go
    assert as_rows(week) == ([("b", "a", 2), ("b", "b", 3), ("b", "a", 4)], 1)
    assert (week - monday) == tuesday  # the oldest part leaves: exactly the rest counted afresh
    assert as_rows(week - tuesday) == ([("b", "a", 2)], 1)  # the newest leaves: Monday's record the bound let go stays let go
    with pytest.raises(InvalidCountsError, match="never counted"):
        week - PredictionRecords(3).counted(["c", "c"], ["c", "c"], [9, 10])  # two records, one let go at most
    stream = week.copy()
    stream.revert(["b", "b"], ["b", "a"], [3, 4])
    assert as_rows(stream) == ([("b", "a", 2)], 1)


def test_json_and_pickle_keep_every_record_and_a_document_is_checked():
    records = PredictionRecords(2, errors_only=True).counted(["x", "y", "y", "x"], ["y", "y", "x", "y"], ["a", "b", "c", "d"])
    document = json.loads(records.to_json())
    assert document["records"] == [["y", "x", "c"], ["x", "y", "d"]] and document["dropped"] == 1 and document["errors_only"] is True
    assert PredictionRecords.from_json(records.to_json()) == records == pickle.loads(pickle.dumps(records))
    assert pickle.loads(pickle.dumps(records.records()[0])) == Record("y", "x", "c")
    for change, message in (({"records": [["x", "y"]]}, "rows"), ({"records": [["x", None, 1]]}, "rows"), ({"records": [["x", "y", 1.5]]}, "rows"),
                            ({"records": [["x", "y", None]]}, "rows"), ({"records": [["x", "y", 1]] * 3}, "at most 2"), ({"dropped": -1}, "dropped"),
                            ({"keep": 0}, "keep"), ({"records": [["x", "x", "a"]]}, "right prediction"), ({"records": [["x", 1, "a"]]}, "mix types"),
                            ({"errors_only": 1}, "errors_only")):  # fmt: skip
        with pytest.raises(FormatError, match=message):
            PredictionRecords.from_json(json.dumps({**document, **change}))


def test_bad_ids_and_settings_are_refused_naming_the_argument():
    records = PredictionRecords()
    for ids, error, message in (("ab", InvalidTypeError, "'ids' must be a sequence"), ([1.5, 2], InvalidTypeError, "whole numbers or strings, got 1.5"),
                                ([True, False], InvalidTypeError, "got True"), (np.array([True, False]), InvalidTypeError, "got True"),
                                ([1], InputLengthError, "'ids' has 1 ids"), ([[1], [2]], InputShapeError, "'ids' must be 1-D"),
                                ([None, 5], InvalidTypeError, "got None"), (np.array([1.0, 2.0]), InvalidTypeError, "got 1.0"),
                                (np.array([b"a", b"b"]), InvalidTypeError, "got b'a'")):  # fmt: skip
        with pytest.raises(error, match=message):
            records.update(["a", "b"], ["a", "b"], ids)
    assert records == PredictionRecords()  # nothing counted by a refused batch
    assert PredictionRecords().counted(["a", "b"], ["a", "b"], np.array(["x", "y"])).records()[0] == Record("a", "a", "x")  # an array of strings as it is
    for keep in (0, -1, 2.5, True):
        with pytest.raises(InvalidArgumentError, match="'keep'"):
            PredictionRecords(keep)
    for flag in ("yes", 1, 1.0):
        with pytest.raises(InvalidTypeError, match="'errors_only'"):
            PredictionRecords(errors_only=flag)
    with pytest.raises(InputShapeError, match="sample_weight"):  # an empty batch's other columns checked too
        records.update([], [], [], sample_weight=[1, 2])
    with pytest.raises(InvalidTypeError):
        records.update(5, 5, [1])
    records.update(["a"], ["a"], [1])
    with pytest.raises(MixedLabelTypesError, match="mix types"):  # as the matrix beside them refuses it
        records.update([1], [1], [2])
    with pytest.raises(MixedLabelTypesError):
        records + PredictionRecords().counted([1], [1], [2])
    with pytest.raises(UnsupportedSettingError, match="records are samples, not weights"):
        records.scaled(0.5)
    with pytest.raises(InvalidArgumentError, match="sample_weight"):
        records.update(["a"], ["a"], [1], sample_weight=[-1])
