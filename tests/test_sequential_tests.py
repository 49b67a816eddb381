"""Tests decided as a stream comes (``SequentialTest``): a model against a target, two models on
the same samples. The p-value after each batch is the sequence's own (the beta-binomial
martingale of the counts, ``compare(..., anytime=True)`` of everything so far), its running
minimum decides, and in simulation a true null is rejected in at most ``1 - level`` of streams
however often it is read.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from evalkit import ConfusionMatrix, RegressionMetrics, SequentialTest, compare
from evalkit._results._sequences import beta_binomial_p_value
from evalkit.exceptions import (
    InputShapeError,
    InvalidArgumentError,
    InvalidLabelError,
    InvalidTypeError,
    MixedLabelTypesError,
)


def _stream(seed: int, n: int, right: float, k: int = 3) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    actual = rng.integers(0, k, n)
    return actual, np.where(rng.random(n) < right, actual, (actual + rng.integers(1, k, n)) % k)


def test_a_target_is_decided_where_the_sequence_leaves_it_behind():
    actual, predicted = _stream(1, 6000, 0.95)
    test = SequentialTest("recall", label=1, target=0.9, level=0.99)
    matrix, smallest, decided = ConfusionMatrix([0, 1, 2]), 1.0, None
    for start in range(0, 6000, 250):
        batch = slice(start, start + 250)
        test.update(actual[batch], predicted[batch])
        matrix.update(actual[batch], predicted[batch])
        sequence = matrix.interval("recall", label=1, anytime=True, level=0.99)
        tp, fn = (int(value) for value in (matrix.to_array()[1, 1], matrix.to_array()[1].sum() - matrix.to_array()[1, 1]))
        if sequence.estimate > 0.9:
            smallest = min(smallest, beta_binomial_p_value(tp, tp + fn, 0.9, 0.01))
        if decided is None and sequence.low > 0.9:  # the sequence leaves the target behind exactly where the p-value falls below 1%
            decided = start + 250
        assert test.p_value == pytest.approx(smallest, rel=1e-12) and test.result == sequence
    assert test.decided_at == decided is not None and test.decision == "above"


@pytest.mark.parametrize(("measure", "options", "target"), [
    ("f1_score", {"average": "macro"}, 0.9),
    ("f1_score", {"label": 2}, 0.9),
    ("cohen_kappa", {}, 0.87),
    ("r_squared", {}, 0.7),
    ("root_mean_squared_error", {}, 0.52),
])  # fmt: skip
def test_a_target_of_any_measure_is_decided_where_its_asymptotic_sequence_leaves_it_behind(measure, options, target):
    """The normal mixture's p-value of the jackknife's (or the sums') spread falls below 1 - level
    exactly where the sequence, read as an interval of the same counts, leaves the target out;
    from 100 samples on."""
    regression = measure in ("r_squared", "root_mean_squared_error")
    if regression:
        rng = np.random.default_rng(3)
        actual = rng.normal(size=6000)
        predicted = actual + rng.normal(0, 0.45, 6000)
    else:
        actual, predicted = _stream(2, 6000, 0.95)
    test = SequentialTest(measure, target=target, alternative="either", level=0.99, **options)
    decided = None
    for start in range(0, 6000, 50):
        test.update(actual[start : start + 50], predicted[start : start + 50])
        counts = RegressionMetrics(keep_spread=True) if regression else ConfusionMatrix()
        counts.update(actual[: start + 50], predicted[: start + 50])
        sequence = counts.interval(measure, anytime=True, level=0.99, **options)
        assert test.result == sequence
        if decided is None and start + 50 >= 100 and not sequence.low <= target <= sequence.high:
            decided = start + 50
    assert test.decided_at == decided is not None and test.decision == ("below" if measure == "root_mean_squared_error" else "above")


def test_two_models_are_decided_by_the_sequential_comparison_of_everything_counted():
    rng = np.random.default_rng(2)
    actual = rng.integers(0, 3, 12_000)
    first = np.where(rng.random(12_000) < 0.9, actual, rng.integers(0, 3, 12_000))
    second = np.where(rng.random(12_000) < 0.86, actual, rng.integers(0, 3, 12_000))
    for measure, average in (("accuracy", None), ("f1_score", "macro")):
        test, smallest = SequentialTest(measure, average), 1.0
        for start in range(0, 12_000, 1000):
            decided_now = test.update(actual[start : start + 1000], first[start : start + 1000], second[start : start + 1000])
            whole = compare(actual[: start + 1000], first[: start + 1000], second[: start + 1000], measure, average, anytime=True)
            smallest = min(smallest, whole.p_value)
            assert test.p_value == pytest.approx(smallest, rel=1e-9) and test.result.difference == pytest.approx(whole.difference)
            assert decided_now == (test.decided_at == start + 1000)
        assert test.decided_at is not None and test.decision == "first"


def test_what_a_sequential_test_cannot_decide_is_refused_with_the_reason():
    for arguments, options, message in [
        (("f1_score",), {"label": 1, "average": "macro", "target": 0.9}, "give 'label' .one class. or 'average'"),
        (("recall",), {"target": 0.9}, "give 'label' .one class. or 'average'"),
        (("mcc",), {"label": 1, "target": 0.5}, "give 'label' .one class. or 'average'"),
        ((), {"target": 1.0}, "'target' must be a level in \\(0, 1\\)"),
        (("r2",), {"target": 1.5}, "'target' must be a level in \\(-inf, 1\\)"),
        (("max_error",), {"target": 1.5}, "a regressor is watched by"),
        ((), {"target": 0.9, "alternative": "greater"}, "'alternative' must be one of"),
        (("recall",), {"label": 1}, "'label' goes with a target"),
    ]:
        with pytest.raises(InvalidArgumentError, match=message):
            SequentialTest(*arguments, **options)
    with pytest.raises(InvalidArgumentError, match="update\\(y_true, first, second\\)"):
        SequentialTest().update([0, 1], [0, 1])
    with pytest.raises(InvalidArgumentError, match="one model's predictions"):
        SequentialTest(target=0.8).update([0, 1], [0, 1], [1, 1])
    assert SequentialTest(target=0.8).update([], []) is False
    pair = SequentialTest()
    pair.update([0, 1, 1], [0, 1, 0], [0, 0, 1])
    refused = [(([1], [True], [1]), MixedLabelTypesError), (([True], [True], [False]), MixedLabelTypesError), (([0, None], [0, 1], [0, 1]), InvalidLabelError),
               (([[0, 1]], [[0, 1]], [[0, 1]]), InvalidTypeError), ((3, 3, 3), InvalidTypeError), (([0, 1, [2]], [0, 1, 2], [0, 1, 2]), InputShapeError)]  # fmt: skip
    for batch, error in refused:
        with pytest.raises(error):  # a batch refused leaves the test as it was: nothing of it counted
            pair.update(*batch)
    assert pair.samples == 3 and pair.update([1, 0], [1, 0], [0, 0]) is False and pair.samples == 5 and sum(pair._triples.values()) == 5
    for options, message in (({"measure": "f1_score"}, "two models compare an average"), ({"measure": "recall", "average": "bogus"}, "'average' must be one of"),
                             ({"measure": "f1_score", "average": "macro", "alternative": "above"}, "'alternative' goes with a target")):  # fmt: skip
        with pytest.raises(InvalidArgumentError, match=message):
            SequentialTest(**options)
    with pytest.raises(MixedLabelTypesError):  # a target's class of another kind than the stream's labels would never be met
        SequentialTest("recall", label=1, target=0.5).update([True, False] * 100, [True, True] * 100)


def test_two_models_are_not_decided_on_the_spread_of_a_handful_of_samples():
    """Five samples where two equally good models differ once: the delta method's spread of so
    few is near 0 and its p-value near 0; the test reads the asymptotic p-value from 100 samples on."""
    test = SequentialTest("matthews_correlation_coefficient")
    test.update([0, 0, 1, 0, 0], [0, 0, 0, 1, 0], [0, 0, 1, 0, 0])
    assert test.decided_at is None and test.p_value == 1.0


@pytest.mark.slow
def test_a_true_null_is_rejected_in_at_most_one_stream_in_twenty_however_often_it_is_read():
    """300 streams of 8,000 samples read every 100: a model exactly at the target (0.9: its
    accuracy, and its macro F1, the asymptotic test), and two equally good models (0.9 each,
    right on different samples); at the 95% level none is decided in more than 5% of streams
    (and its sampling error)."""
    wrong_target = wrong_pair = wrong_f1 = 0
    for seed in range(300):
        rng = np.random.default_rng(seed)
        actual = rng.integers(0, 3, 8000)
        first, second = (np.where(rng.random(8000) < 0.9, actual, (actual + rng.integers(1, 3, 8000)) % 3) for _ in range(2))
        target, pair, f1 = SequentialTest(target=0.9, alternative="either"), SequentialTest(), SequentialTest("f1_score", "macro", target=0.9, alternative="either")
        for start in range(0, 8000, 100):
            batch = slice(start, start + 100)
            target.update(actual[batch], first[batch])
            pair.update(actual[batch], first[batch], second[batch])
            f1.update(actual[batch], first[batch])
        wrong_target += target.decided_at is not None
        wrong_pair += pair.decided_at is not None
        wrong_f1 += f1.decided_at is not None
    bound = 0.05 + 3 * math.sqrt(0.05 * 0.95 / 300)
    assert wrong_target / 300 <= bound and wrong_pair / 300 <= bound and wrong_f1 / 300 <= bound, (wrong_target, wrong_pair, wrong_f1)
