"""Every mutable result stays consistent when threads update and read it together: no update is
lost, no total goes stale, and every read sees one state (never half an update)."""

import sys
import threading

import numpy as np
import pytest

from evalkit import ClassificationMetrics, ConfusionMatrix, Faded, Tumbling, Windowed
from evalkit._scale.streaming import CalibrationCounts, CurveCounts, LabelSetCounts


@pytest.fixture(autouse=True)
def often_switching_threads():
    """Switch threads every few microseconds, so that interleavings happen in a short test."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(before)


def run_together(*jobs):
    failures = []

    def guarded(job):
        try:
            job()
        except Exception as error:  # noqa: BLE001 (any failure of a thread fails the test)
            failures.append(error)

    threads = [threading.Thread(target=guarded, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures


def test_readers_never_leave_a_stale_total():
    for _ in range(30):
        matrix = ConfusionMatrix(["a", "b"])
        seen = []
        run_together(lambda matrix=matrix: [matrix.update(["a", "b"], ["a", "a"]) for _ in range(50)],
                     lambda matrix=matrix, seen=seen: [seen.append(matrix.get_total_items()) for _ in range(50)])  # fmt: skip
        assert matrix.get_total_items() == 100 == int(matrix.to_array().sum())
        assert seen == sorted(seen)  # the total only grows


def test_every_read_of_a_growing_matrix_sees_one_state():
    matrix = ConfusionMatrix(["c0"])
    rng = np.random.default_rng(0)
    batches = [([f"c{k}" for k in rng.integers(0, 5 + j // 4, 20)], [f"c{k}" for k in rng.integers(0, 5 + j // 4, 20)]) for j in range(60)]

    def write():
        for actual, predicted in batches:
            matrix.update(actual, predicted, grow=True)

    def read():
        for _ in range(150):
            cells = matrix.class_cells
            total = cells.tp.sum() + cells.fn.sum()
            assert total == cells.tp.sum() + cells.fp.sum()  # one state: rows and columns sum alike
            assert (cells.tp + cells.fp + cells.fn + cells.tn == total).all()
            metrics = matrix.class_metrics()
            assert len({m.get_total_items() if hasattr(m, "get_total_items") else m.get_true_positive() + m.get_false_positive()
                        + m.get_false_negative() + m.get_true_negative() for m in metrics}) <= 1  # fmt: skip
            first = ClassificationMetrics(matrix, "c0")
            assert first.get_true_positive() + first.get_false_negative() + first.get_false_positive() + first.get_true_negative() >= 0
            copy = 0 + matrix  # sum([...]) of matrices starts so
            assert copy.get_total_items() == int(copy.to_array().sum())

    run_together(write, read, read)
    assert matrix.get_total_items() == 20 * len(batches) == int(matrix.to_array().sum())


def test_no_update_of_a_stream_is_lost():
    curve, calibration, sets = CurveCounts(), CalibrationCounts(bins=10), LabelSetCounts()
    rng = np.random.default_rng(1)

    def write(seed):
        local = np.random.default_rng(seed)
        for _ in range(40):
            y, s = local.integers(0, 2, 25), local.random(25)
            curve.update(y, s)
            calibration.update(y, s)
            sets.update([{"a"} if k else {"b"} for k in y], [{"a", "b"} if k > 0.5 else set() for k in s])

    def read():
        for _ in range(40):
            if sets.n_samples:
                sets.to_evaluation()
            curve.curve() if curve._result is not None else None

    run_together(*(lambda seed=seed: write(seed) for seed in rng.integers(0, 2**31, 4)), read)
    assert curve.curve().n_samples == 4 * 40 * 25 == sets.n_samples == calibration.calibration().n_samples


@pytest.mark.parametrize("make", [lambda: Windowed(ConfusionMatrix([0, 1]), size=200), lambda: Windowed(LabelSetCounts(), size=200),
                                  lambda: Faded(ConfusionMatrix([0, 1]), factor=0.99), lambda: Tumbling(ConfusionMatrix([0, 1]), size=7)])  # fmt: skip
def test_a_window_shared_by_threads_loses_and_keeps_no_sample_too_many(make):
    """Four threads each give a window 600 events (one per update, as a stream does): a window of
    200 ends holding exactly 200, a faded stream has the effective size of 2,400 events, a
    tumbling window has closed every 7 of them."""
    window = make()
    single_labels = isinstance(window.result, ConfusionMatrix)
    reads = []

    def events():
        for k in range(600):
            if single_labels:
                window.update([k % 2], [0])
            else:
                window.update([{"a"}], [{"a", "b"} if k % 2 else set()])
            reads.append(len(window) if not isinstance(window, Faded) else 0)

    run_together(events, events, events, events)
    if isinstance(window, Windowed):
        assert len(window) == 200 and window.n_samples == 200 and max(reads) <= 200
    elif isinstance(window, Faded):
        alone = Faded(ConfusionMatrix([0, 1]), factor=0.99)
        for k in range(2400):
            alone.update([k % 2], [0])
        assert window.effective_size == pytest.approx(alone.effective_size, rel=1e-9)
        assert window.n_samples == pytest.approx(alone.n_samples, rel=1e-9)
    else:
        assert len(window.history) == 2400 // 7 and len(window) == 2400 % 7
        assert all(part.get_total_items() == 7 for part in window.history)


def test_threads_that_update_a_window_by_weighted_events_and_read_its_getters_keep_its_size():
    """A getter read the first time is looked up on the window's result and remembered; weighted
    one-event updates replace the result. Two readers remembering one getter made the next
    replacement forget it twice: a KeyError halfway through an update, 18 to 22 samples left in
    a window of 20."""
    for trial in range(5):
        window = Windowed(ConfusionMatrix([0, 1]), size=20)

        def events(seed, window=window):
            rng = np.random.default_rng(seed)
            for k in range(400):
                a, b = int(rng.integers(2)), int(rng.integers(2))
                window.update([a], [b], **({"sample_weight": [1.0]} if k % 2 else {}))
                if k % 5 == 0:
                    window.get_accuracy()

        run_together(*(lambda seed=10 * trial + k: events(seed) for k in range(4)))
        assert len(window) == 20 and window.get_total_items() == 20


def test_a_window_read_sees_one_state_never_half_an_update():
    """While batches of three come and push three out, a reader sees the window full (10 samples)."""
    window = Windowed(ConfusionMatrix([0, 1]), size=10)
    window.update([0] * 10, [0] * 10)
    seen = []

    def writer():
        for _ in range(300):
            window.update([1, 1, 0], [1, 0, 0])

    def reader():
        for _ in range(300):
            seen.append(window.get_total_items())

    run_together(writer, reader)
    assert set(seen) == {10}


def test_a_read_of_a_window_never_sees_the_new_event_before_the_oldest_batch_left():
    """A one-event update whose oldest sample is part of a batch (not a cell) counts the event in,
    then takes that sample away: a reader through the window's kept read waits for both."""
    window = Windowed(ConfusionMatrix(["a", "b"]), size=3)
    window.update(["a", "b", "a"], ["a", "a", "b"])  # a batch: its first sample leaves through _leave_first
    window.get_total_items()  # the read the window keeps, bound to its matrix
    seen, readers = [], []
    leave_first = Windowed._leave_first

    def observed(self, excess):
        reader = threading.Thread(target=lambda: seen.append(window.get_total_items()))
        reader.start()
        readers.append(reader)
        reader.join(0.2)  # a reader the update's locks hold back does not finish here
        leave_first(self, excess)

    Windowed._leave_first = observed
    try:
        window.update(["a"], ["a"])
    finally:
        Windowed._leave_first = leave_first
    for reader in readers:
        reader.join()
    assert seen == [3]


@pytest.mark.parametrize("fixed", [None, ["a", "b", "c", "d"]])
def test_label_set_counts_copied_merged_and_written_while_counted_are_one_state(fixed):
    """Threads counting label sets (new labels in each batch, or fixed ones) while another copies,
    merges and writes the counts: every copy, merge and document is one state, its label sums
    and kinds of sample agreeing, and reads back."""
    counts = LabelSetCounts(fixed)

    def write(seed):
        for k in range(150):
            if fixed is None:
                counts.update([{f"x{seed}-{k}"}, {"a"}], [{"a"}, set()])
            else:
                counts.update([{"b"}, {"c"}] if k % 2 else [{"b"}], [{"b"}, {"c"}] if k % 2 else [set()])

    def read():
        for _ in range(60):
            for result in (counts.copy(), counts + LabelSetCounts(), LabelSetCounts.from_json(counts.to_json())):
                assert result._invalid() is None and len(result._sums[0]) == len(result.labels)

    run_together(lambda: write(1), lambda: write(2), read)
    assert counts.n_samples == 2 * (300 if fixed is None else 225)


def test_a_pickle_taken_while_another_thread_counts_holds_one_state():
    """A window's batches and result, and label-set counts' arrays, are copied under the lock:
    a pickle is written after it is let go, while another thread goes on counting (reviews
    found 'deque mutated during iteration' in most pickles of a window, and counts torn
    between two batches)."""
    import pickle

    window, counts = Windowed(LabelSetCounts(), size=50), LabelSetCounts()
    done = threading.Event()

    def count():
        k = 0
        while not done.is_set():
            window.update([["a"], ["b"]], [["a"], ["c"]], sample_weight=[1, k % 2])
            counts.update([["a"], ["b"]], [["a"], ["c"]], sample_weight=[1, k % 2])
            k += 1

    def read():
        try:
            for _ in range(60):
                restored, copied = pickle.loads(pickle.dumps(window)), pickle.loads(pickle.dumps(counts))
                assert restored.result == restored._recounted()  # its result holds what its batches hold
                assert copied._sums[1].sum() == copied.n_samples  # every sample holds one actual label: its weight in both
        finally:
            done.set()

    run_together(count, read)
