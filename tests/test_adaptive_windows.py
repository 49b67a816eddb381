"""ADWIN (Bifet & Gavaldà 2007) and the adaptive window over a counted result: MOA's jar (through
CapyMOA's wheel, as in ``test_porting``) gives the same widths and means after every value, and
the same accuracy as its ``AdwinClassificationPerformanceEvaluator``; the window equals the
same samples counted at once, and keeps its state through JSON and pickle."""

from __future__ import annotations

import math
import pickle
import subprocess

import numpy as np
import pytest
from test_porting import ROOT, moa, moa_jar  # noqa: F401  (moa: MOA's evaluators, a fixture)

from evalkit import ConfusionMatrix
from evalkit._scale.adwin import Adaptive, Adwin
from evalkit.exceptions import InvalidArgumentError, InvalidTypeError, InvalidValueError


@pytest.fixture(scope="module")
def moa_adwin(tmp_path_factory):
    jar, folder = moa_jar(), tmp_path_factory.mktemp("moa_adwin")
    subprocess.run(["javac", "-cp", str(jar), "-d", str(folder), str(ROOT / "tests" / "java" / "MoaAdwin.java")], check=True, capture_output=True)

    def run(values: np.ndarray, delta: float = 0.002, clock: int = 32) -> list[tuple[int, float, bool]]:
        text = "\n".join(repr(float(value)) for value in values) + "\n"
        found = subprocess.run(["java", "-cp", f"{jar}:{folder}", "MoaAdwin", repr(delta), str(clock)], input=text, check=True, capture_output=True, text=True)
        return [(int(width), float(mean), change == "true") for width, mean, change in (line.split() for line in found.stdout.splitlines())]

    return run


def _streams() -> list[tuple[np.ndarray, float, int]]:
    rng = np.random.default_rng(7)
    return [
        ((rng.random(3000) < np.where(np.arange(3000) < 1500, 0.2, 0.8)).astype(float), 0.002, 32),
        (np.concatenate([rng.normal(0, 1, 2000), rng.normal(0.5, 1, 2000)]), 0.002, 32),
        (np.concatenate([rng.uniform(0, 100, 1000), rng.uniform(20, 120, 1000)]), 0.1, 32),
        ((rng.random(2000) < np.where(np.arange(2000) < 1000, 0.1, 0.3)).astype(float), 0.002, 1),
        (np.concatenate([np.ones(100), np.zeros(100)]), 0.002, 32),
    ]


@pytest.mark.slow  # a JVM a stream
def test_adwin_keeps_the_window_moa_keeps_after_every_value(moa_adwin):
    for values, delta, clock in _streams():
        ours = Adwin(delta, clock)
        theirs = moa_adwin(values, delta, clock)
        for value, (width, mean, change) in zip(values, theirs):
            assert ours.update(value) == change
            assert ours.width == width and ours.estimation == mean  # (bit for bit: MOA's order of operations)


def test_a_change_in_the_mean_shrinks_the_window_and_no_change_keeps_it():
    """Bifet & Gavaldà's guarantee in practice: 100 ones then 100 zeros (MOA: the cut at the
    128th value, the window 112 long at the end with mean 12/112); a constant stream never cuts."""
    detector = Adwin()
    changes = [k + 1 for k, value in enumerate([1.0] * 100 + [0.0] * 100) if detector.update(value)]
    assert changes[0] == 128 and detector.width == 112 and detector.estimation == pytest.approx(12 / 112)
    steady = Adwin()
    assert not any(steady.update(0.5) for _ in range(5000)) and steady.width == 5000 and steady.variance == 0


def test_an_adaptive_window_counts_the_samples_its_adwin_keeps():
    rng = np.random.default_rng(3)
    actual = rng.integers(0, 3, 900)
    predicted = np.where(rng.random(900) < np.where(np.arange(900) < 450, 0.9, 0.4), actual, rng.integers(0, 3, 900))
    window = Adaptive(ConfusionMatrix([0, 1, 2]))
    for start in range(0, 900, 25):  # batches too
        window.update(actual[start : start + 25], predicted[start : start + 25])
    kept = len(window)
    assert kept < 900 and kept == window.adwin.width
    assert window.result == ConfusionMatrix.from_predictions(actual[-kept:], predicted[-kept:], labels=[0, 1, 2])
    assert window.get_accuracy() == pytest.approx(window.adwin.estimation, rel=1e-15)
    again = type(window).from_json(window.to_json())
    assert again.result == window.result and again.adwin.state() == window.adwin.state()
    assert pickle.loads(pickle.dumps(window)).adwin.state() == window.adwin.state()
    again.update([0], [0])
    window.update([0], [0])
    assert again.result == window.result


def test_the_adaptive_window_refuses_what_it_cannot_watch():
    with pytest.raises(InvalidArgumentError, match="'delta'"):
        Adaptive(ConfusionMatrix([0, 1]), delta=0)
    with pytest.raises(InvalidArgumentError, match="'clock'"):
        Adwin(clock=0)
    with pytest.raises(InvalidArgumentError, match="y_true, y_pred"):
        Adaptive(ConfusionMatrix([0, 1])).update([0], [1], time=[1.0])
    assert math.isnan(Adwin().estimation)


@pytest.mark.slow  # a JVM a stream
@pytest.mark.parametrize("seed", range(3))
def test_the_accuracy_is_moas_adwin_evaluators(moa, seed):  # noqa: F811
    """MOA's ``AdwinClassificationPerformanceEvaluator`` keeps an ADWIN of the correct
    predictions: its accuracy is the adaptive window's."""
    rng = np.random.default_rng(seed)
    n, classes = int(rng.integers(500, 1500)), int(rng.integers(2, 5))
    actual = rng.integers(0, classes, n)
    predicted = np.where(rng.random(n) < np.where(np.arange(n) < n // 2, 0.85, 0.45), actual, rng.integers(0, classes, n))
    found = moa(classes, 5, 0.99, actual.tolist(), predicted.tolist())["adwin"]
    window = Adaptive(ConfusionMatrix(list(range(classes))))
    for a, p in zip(actual.tolist(), predicted.tolist()):
        window.update([a], [p])
    assert found["classifications correct (percent)"] == pytest.approx(100 * window.get_accuracy(), rel=1e-12)


def test_adwin_refuses_what_is_no_number_and_a_state_of_no_buckets():
    detector = Adwin()
    for value in (None, [1, 2], 1j, "1.5", math.nan, math.inf):
        with pytest.raises((InvalidArgumentError, InvalidValueError)):
            detector.update(value)
    assert detector.width == 0
    state = Adwin().state()
    with pytest.raises(InvalidTypeError):
        Adwin.from_state({**state, "rows": []})
    with pytest.raises(InvalidTypeError):
        Adwin.from_state({**state, "width": 1, "total": 5.0, "rows": [[[4.0, 0.0]]]})


def test_an_adaptive_window_watches_predicted_labels_only():
    from evalkit import CurveCounts, RegressionMetrics

    for template in (RegressionMetrics(), CurveCounts()):
        with pytest.raises(InvalidTypeError, match="ConfusionMatrix"):
            Adaptive(template)
