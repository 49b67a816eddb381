"""The counting core: every label-encoding path gives the counts of a plain Python loop."""

from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalkit import ConfusionMatrix
from evalkit._engine import counting


def naive(y_true, y_pred, labels):
    """The obvious loop: the reference for every fast path."""
    pairs = Counter(zip(y_true, y_pred))
    return [[pairs[(a, p)] for p in labels] for a in labels]


def check(y_true, y_pred, labels=None, expected_labels=None):
    counts, found = counting.confusion_counts(y_true, y_pred, labels)
    expected_labels = expected_labels if expected_labels is not None else sorted(set(list(y_true) + list(y_pred)))
    assert list(found) == list(expected_labels)
    assert counts.dtype == np.int64
    assert counts.tolist() == naive(list(y_true), list(y_pred), list(found))
    return counts, found


@given(st.lists(st.tuples(st.integers(-3, 12), st.integers(-3, 12)), min_size=1, max_size=300))
def test_integer_lists_and_arrays(pairs):
    y_true, y_pred = [a for a, _ in pairs], [p for _, p in pairs]
    check(y_true, y_pred)
    check(np.array(y_true, dtype=np.int16), np.array(y_pred, dtype=np.int64))


def test_integer_labels_come_back_as_python_ints():
    _, labels = counting.confusion_counts(np.array([3, 1], dtype=np.uint8), np.array([1, 1], dtype=np.uint8))
    assert labels == (1, 3) and all(type(label) is int for label in labels)


@pytest.mark.parametrize("size", [3, 20, 300])
def test_unsigned_and_signed_integers_together_are_integer_labels(size):
    """uint64 beside int64 labels are integers, however many values there are (numpy's common
    type of the two is float64: labels 0.0, 1.0, ... above 16 values before)."""
    counts, labels = counting.confusion_counts(np.arange(size, dtype=np.uint64), np.arange(size, dtype=np.int64)[::-1])
    assert labels == tuple(range(size)) and all(type(label) is int for label in labels)
    assert counts.sum() == size and np.array_equal(counts, np.eye(size, dtype=np.int64)[::-1])


def test_long_integer_arrays_use_the_chunked_path():
    rng = np.random.default_rng(1)
    n = 3 * counting._CHUNK + 17
    y_true, y_pred = rng.integers(5, 12, n), rng.integers(5, 12, n)
    counts, _labels = check(y_true, y_pred)
    assert counts.sum() == n


def test_sparse_integer_ids_are_mapped_to_dense_codes():
    y_true = np.array([10**9, 7, 10**9, 123456789])
    y_pred = np.array([7, 7, 10**9, 5])
    check(y_true, y_pred)


def test_very_sparse_integer_ids_use_unique():
    y_true = np.array([0, 2**60, 2**60])
    y_pred = np.array([2**60, 0, 2**61])
    check(y_true, y_pred)


def test_uint64_beyond_int64_range():
    y_true = np.array([2**64 - 1, 3], dtype=np.uint64)
    y_pred = np.array([3, 3], dtype=np.uint64)
    check(y_true, y_pred, expected_labels=[3, 2**64 - 1])


def test_boolean_labels():
    _counts, labels = check(np.array([True, False, True]), np.array([True, True, False]))
    assert labels == (False, True)


def test_float_labels():
    check(np.array([0.5, 1.5, 0.5]), np.array([1.5, 1.5, 0.5]))
    check([0.5, 1.5], [0.5, 2.5])


@given(st.lists(st.tuples(st.sampled_from(["a", "b", "ab", "ba", "", "é", "a b"]), st.sampled_from(["a", "b", "c", "ab"])), min_size=1, max_size=200))
def test_string_lists(pairs):
    check([a for a, _ in pairs], [p for _, p in pairs])


@pytest.mark.parametrize("dtype", ["U", "S"])
def test_fixed_width_string_arrays_use_the_hash_path_and_agree(dtype):
    rng = np.random.default_rng(2)
    words = np.array(["alpha", "beta", "gamma", "delta", "a", "b", "x" * 30], dtype=dtype)
    n = 2 * counting._HASH_MIN_SAMPLES + 5
    y_true = words[rng.integers(0, len(words), n)]
    y_pred = words[rng.integers(0, 4, n)].astype(f"{dtype}5")  # different width from y_true
    assert counting._fixed_width_positions(y_true, y_pred) is not None
    check(y_true, y_pred, expected_labels=sorted(set(y_true.tolist()) | set(y_pred.tolist())))


def test_hash_path_falls_back_on_a_slot_collision(monkeypatch):
    """A constant hash puts every string in one slot: the check must catch it and fall back."""
    monkeypatch.setattr(counting, "_string_hash", lambda strings: np.zeros(len(strings), dtype=np.uint64))
    y_true = np.array(["x", "y"] * counting._HASH_MIN_SAMPLES)
    y_pred = np.array(["y", "y"] * counting._HASH_MIN_SAMPLES)
    assert counting._fixed_width_positions(y_true, y_pred) is None
    check(y_true, y_pred)


def test_object_arrays_and_other_iterables():
    check(np.array(["b", "a"], dtype=object), ("a", "a"))
    counts, labels = counting.confusion_counts(iter([1, 2, 2]), range(3))  # one-shot iterators too
    assert labels == (0, 1, 2) and counts.tolist() == [[0, 0, 0], [1, 0, 0], [0, 1, 1]]


def test_numpy_scalars_are_stored_as_python_values():
    _, labels = counting.confusion_counts(np.array([np.int64(2), 1], dtype=object), [1, 2])
    assert labels == (1, 2) and all(type(label) is int for label in labels)


def test_explicit_labels_fix_the_order_and_may_include_unseen_labels():
    counts, _labels = check(["b", "a"], ["a", "a"], labels=["c", "b", "a"], expected_labels=["c", "b", "a"])
    assert counts.tolist() == [[0, 0, 0], [0, 0, 1], [0, 0, 1]]
    counts, _labels = check(np.array([2, 0]), np.array([0, 0]), labels=[2, 1, 0], expected_labels=[2, 1, 0])
    assert counts.tolist() == [[0, 0, 1], [0, 0, 0], [0, 0, 1]]


def test_explicit_labels_allow_empty_input():
    counts, labels = counting.confusion_counts([], [], labels=["a", "b"])
    assert counts.tolist() == [[0, 0], [0, 0]] and labels == ("a", "b")


def test_unorderable_labels_need_an_explicit_order():
    class Tag:
        def __init__(self, name):
            self.name = name

    a, b = Tag("a"), Tag("b")
    with pytest.raises(TypeError, match="cannot be sorted"):
        counting.confusion_counts([a, b], [b, b])
    counts, _labels = counting.confusion_counts([a, b], [b, b], labels=[b, a])
    assert counts.tolist() == [[1, 0], [1, 0]]


def test_large_label_counts_still_count_exactly():
    rng = np.random.default_rng(3)
    y_true, y_pred = rng.integers(0, 1500, 20000), rng.integers(0, 1500, 20000)
    cm = ConfusionMatrix.from_predictions(y_true, y_pred)
    assert cm.get_total_items() == 20000
    dense = np.zeros((1500, 1500), dtype=np.int64)
    np.add.at(dense, (y_true, y_pred), 1)
    present = np.flatnonzero(dense.sum(0) + dense.sum(1))
    np.testing.assert_array_equal(cm.to_array(), dense[np.ix_(present, present)])


@pytest.mark.parametrize("first_high", [3, 200])  # a small chunked table, and the one-bincount table
@pytest.mark.parametrize("late", [50, 900, -4, 10**6])
def test_a_label_first_seen_in_a_late_chunk_grows_the_table(first_high, late):
    """The single-pass integer path sizes its table from the values seen so far; a larger
    (or negative, or far away) value in a later chunk must still be counted exactly."""
    rng = np.random.default_rng(4)
    n = 3 * counting._CHUNK
    y_true, y_pred = rng.integers(0, first_high + 1, n), rng.integers(0, first_high + 1, n)
    y_true[2 * counting._CHUNK + 5] = late
    y_pred[-1] = late
    check(y_true, y_pred)


@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=40), st.sampled_from([np.int8, np.int32, np.intp]))
def test_codes_of_labels_that_are_codes_already_are_copies(pairs, dtype):
    # labels 0..k-1 are their own codes (no gather): the codes equal the labels' positions among
    # the sorted labels, as intp, and never share memory with the input (which stays as given)
    y_true, y_pred = (np.array(column, dtype=dtype) for column in zip(*pairs))
    before = y_true.copy()
    codes_true, codes_pred, labels, _ = counting.encode(y_true, y_pred)
    position = {label: k for k, label in enumerate(labels)}
    assert codes_true.dtype == np.intp and codes_true.tolist() == [position[v] for v in y_true.tolist()]
    assert codes_pred.tolist() == [position[v] for v in y_pred.tolist()]
    assert not np.shares_memory(codes_true, y_true) and not np.shares_memory(codes_pred, y_pred)
    codes_true[:] = -1
    assert np.array_equal(y_true, before)
