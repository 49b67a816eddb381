"""Coverage of evalkit's confidence intervals, measured by simulation.

    python benchmarks/coverage.py                  # 1,000 simulated data sets per cell (a few minutes)
    python benchmarks/coverage.py --datasets 200   # a quicker, noisier run

For classifiers whose true accuracy, macro F1, MCC and ROC AUC are known, draw many data sets
of n = 200 and n = 5,000 samples, compute the nominal 95% interval on each, and count how often
it holds the true value. A well-calibrated interval covers it in about 95% of data sets (with
1,000 data sets the count itself varies by about ±1.4 points).

The single-label classifier: three classes with a fixed joint probability of (actual, predicted)
pairs, so its true measures are the measures of that table. The scorer: binormal scores,
negatives N(0, 1) and positives N(1.2, 1), so its true AUC is Φ(1.2 / √2).
"""

from __future__ import annotations

import argparse
import sys
import time
from statistics import NormalDist

import numpy as np

from evalkit import ConfusionMatrix, ThresholdCurve

JOINT = np.array([[0.30, 0.04, 0.02], [0.05, 0.22, 0.05], [0.02, 0.06, 0.24]])
"""P(actual = i, predicted = j) of the simulated three-class classifier."""

TRUE_AUC = NormalDist().cdf(1.2 / 2**0.5)


def truths() -> dict[str, float]:
    population = ConfusionMatrix.from_array(JOINT * 1_000_000)  # the measures of the joint table itself
    return {
        "accuracy": population.get_accuracy(),
        "macro F1": float(population.average("f1_score", "macro")),
        "MCC": population.get_matthews_correlation_coefficient(),
    }


def coverage(datasets: int, sizes: tuple[int, ...] = (200, 5000), n_resamples: int = 2000) -> str:
    truth = truths()
    rng = np.random.default_rng(2024)
    cases = {  # name -> (method, interval of one data set)
        "accuracy": ("bca", lambda cm, seed: cm.interval("accuracy", random_state=seed, n_resamples=n_resamples)),
        "accuracy ": ("wilson", lambda cm, seed: cm.interval("accuracy", method="wilson")),
        "macro F1": ("bca", lambda cm, seed: cm.interval("f1_score", "macro", random_state=seed, n_resamples=n_resamples)),
        "MCC": ("bca", lambda cm, seed: cm.interval("mcc", random_state=seed, n_resamples=n_resamples)),
    }
    lines = ["| measure | method | n | coverage of the nominal 95% interval | mean width |", "|---|---|---:|---:|---:|"]
    for n in sizes:
        hits: dict[str, list[bool]] = {name: [] for name in [*cases, "ROC AUC"]}
        widths: dict[str, list[float]] = {name: [] for name in hits}
        for k in range(datasets):
            counts = rng.multinomial(n, JOINT.ravel()).reshape(3, 3)
            matrix = ConfusionMatrix.from_array(counts)
            for name, (_, make) in cases.items():
                found = make(matrix, k)
                hits[name].append(found.low <= truth[name.strip()] <= found.high)
                widths[name].append(found.high - found.low)
            y = rng.random(n) < 0.4
            scores = rng.normal(1.2 * y, 1.0)
            found = ThresholdCurve.from_scores(y, scores).interval()
            hits["ROC AUC"].append(found.low <= TRUE_AUC <= found.high)
            widths["ROC AUC"].append(found.high - found.low)
        for name, covered in hits.items():
            method = cases[name][0] if name in cases else "delong"
            lines.append(f"| {name.strip()} | {method} | {n:,} | {np.mean(covered):.1%} | {np.mean(widths[name]):.3f} |")
        print(f"done: n = {n}", file=sys.stderr)
    return "\n".join(lines)


def stream_coverage(datasets: int, n: int = 5_000, accuracy: float = 0.8) -> str:
    """Intervals of accuracy over time on a stationary stream (true accuracy ``accuracy``): a
    sliding window of the last 500 samples (Wilson on its 500), and a decayed stream with a half
    life of 200 samples, Wilson on Kish's effective size (``Faded.interval``) and, naively, on the
    sum of the weights."""
    from evalkit import Faded, Windowed

    rng = np.random.default_rng(7)
    rows = {"sliding window of 500": [], "decayed, half life 200: effective size": [], "decayed, half life 200: sum of the weights": []}
    widths: dict[str, list[float]] = {name: [] for name in rows}
    for _ in range(datasets):
        actual = rng.integers(0, 3, n)
        predicted = np.where(rng.random(n) < accuracy, actual, (actual + rng.integers(1, 3, n)) % 3)
        window, faded = Windowed(ConfusionMatrix([0, 1, 2]), size=500), Faded(ConfusionMatrix([0, 1, 2]), half_life=200)
        window.update(actual, predicted)
        faded.update(actual, predicted)
        found = [window.interval("accuracy", method="wilson"), faded.interval("accuracy"), faded.result.interval("accuracy", method="wilson")]
        for name, interval in zip(rows, found):
            rows[name].append(interval.low <= accuracy <= interval.high)
            widths[name].append(interval.high - interval.low)
    lines = ["| accuracy over time | coverage of the nominal 95% interval | mean width |", "|---|---:|---:|"]
    lines += [f"| {name} | {np.mean(hits):.1%} | {np.mean(widths[name]):.3f} |" for name, hits in rows.items()]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--datasets", type=int, default=1000, help="simulated data sets per measure and size (default 1000)")
    arguments = parser.parse_args()
    started = time.perf_counter()
    table = coverage(arguments.datasets)
    over_time = stream_coverage(arguments.datasets)
    print(f"{table}\n\n{over_time}\n\n{arguments.datasets:,} simulated data sets per row; {time.perf_counter() - started:.0f} s (`python benchmarks/coverage.py`).")


if __name__ == "__main__":
    main()
