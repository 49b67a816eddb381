"""The running-mean regressor of a stream (``RunningMean``), MOA's baseline of its prequential
regression measures: each row of the porting guide's table is MOA's number after every sample
of streams MOA's jar evaluates (through CapyMOA's wheel, as in ``test_porting``)."""

from __future__ import annotations

import math
import subprocess

import numpy as np
import pytest
from test_porting import ROOT, guide_namespace, moa_jar, rows

from evalkit import RegressionMetrics, RunningMean, Windowed
from evalkit.exceptions import InvalidArgumentError, InvalidTypeError, InvalidValueError

HEADING = "### MOA's regression evaluator"


@pytest.fixture(scope="module")
def moa_regression(tmp_path_factory):
    jar, folder = moa_jar(), tmp_path_factory.mktemp("moa_regression")
    subprocess.run(["javac", "-cp", str(jar), "-d", str(folder), str(ROOT / "tests" / "java" / "MoaRegression.java")], check=True, capture_output=True)

    def run(targets: np.ndarray, predictions: np.ndarray, inputs: int) -> list[dict[str, float]]:
        text = "".join(f"{y!r} {p!r} 1.0\n" for y, p in zip(targets.tolist(), predictions.tolist()))
        found = subprocess.run(["java", "-cp", f"{jar}:{folder}", "MoaRegression", str(inputs)], input=text, check=True, capture_output=True, text=True)
        return [{name: float(value) for name, value in (field.split("=") for field in line.split("\t"))} for line in found.stdout.splitlines()]

    return run


@pytest.mark.slow  # a JVM a stream
@pytest.mark.parametrize("seed", range(3))
def test_every_row_of_the_guide_is_moas_number_after_every_sample(moa_regression, seed):
    rng = np.random.default_rng(seed)
    n, inputs = int(rng.integers(20, 120)), int(rng.integers(0, 6))
    targets = np.round(rng.normal(10, 3, n), 3)
    predictions = np.round(targets + rng.normal(0, 1.5, n), 3)
    expected = moa_regression(targets, predictions, inputs)
    namespace = guide_namespace(HEADING)
    model, baseline = RegressionMetrics(), RunningMean(RegressionMetrics())
    for k in range(n):
        model.update(targets[k : k + 1], predictions[k : k + 1])
        baseline.update(targets[k : k + 1])
        r2 = 1 - model.get_mean_squared_error() / baseline.result.get_mean_squared_error()
        variables = {**namespace, "model": model, "baseline": baseline, "r2": r2, "n": model.get_total_weight(), "p": inputs + 1}
        for java, expression in rows(HEADING):
            theirs = expected[k][java.strip("`")]
            try:
                ours = float(eval(expression, variables))
            except ZeroDivisionError:  # n = p + 1: no degree of freedom (MOA: an infinity)
                assert math.isinf(theirs)
                continue
            assert ours == pytest.approx(theirs, rel=1e-12, abs=1e-12), (k, java, ours, theirs)


def test_the_guide_example_is_moas_printout():
    """MOA's jar on the guide's six samples (3 inputs and the target): R² 0.8617382243714766,
    adjusted 0.3086911218573831."""
    namespace = guide_namespace(HEADING)
    r2, n, p = namespace["r2"], namespace["n"], namespace["p"]
    assert r2 == pytest.approx(0.8617382243714766, rel=1e-15)
    assert 1 - (1 - r2) * (n - 1) / (n - p - 1) == pytest.approx(0.3086911218573831, rel=1e-15)
    assert namespace["model"].get_adjusted_r_squared(n_inputs=p, multioutput="uniform_average") != pytest.approx(0.3086911218573831)  # (its own R², not the prequential one)


def test_the_running_mean_predicts_the_mean_of_the_targets_before_each():
    baseline = RunningMean(RegressionMetrics(), first=1.0)
    baseline.update([3.0, 5.0], sample_weight=[1.0, 3.0])
    baseline.update([2.0])
    by_hand = RegressionMetrics.from_predictions([3.0, 5.0, 2.0], [1.0, 3.0, (3 + 15) / 4], sample_weight=[1.0, 3.0, 1.0])
    assert baseline.result == by_hand
    windowed = RunningMean(Windowed(RegressionMetrics(), size=2), first=3.0)
    windowed.update([3.0, 5.0, 2.0])
    kept = RegressionMetrics.from_predictions([5.0, 2.0], [3.0, 4.0])  # (a window knows no largest error once one left)
    assert windowed.result.get_mean_squared_error() == kept.get_mean_squared_error() and windowed.result.get_samples() == 2


def test_bad_targets_and_views_are_refused():
    with pytest.raises(InvalidTypeError, match="'view'"):
        RunningMean(object())
    with pytest.raises(InvalidArgumentError, match="'first'"):
        RunningMean(RegressionMetrics(), first=math.nan)
    with pytest.raises(InvalidValueError, match="'y_true'"):
        RunningMean(RegressionMetrics()).update([1.0, math.inf])
