"""Every mutable result stays consistent when threads update and read it together: no update is
lost, no total goes stale, and every read sees one state (never half an update)."""

import sys
import threading

import numpy as np
import pytest

from evalkit import ClassificationMetrics, ConfusionMatrix
from evalkit.streaming import CalibrationCounts, CurveCounts, LabelSetCounts


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
