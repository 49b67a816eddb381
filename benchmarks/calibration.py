"""Bias of the calibration-error estimators and coverage of their intervals, by simulation.

    python benchmarks/calibration.py --output benchmarks/calibration.md   # 1,000 data sets of 200 samples, 300 of 1,000 (minutes)
    python benchmarks/calibration.py --datasets 200                       # quicker, noisier

Bias: scores drawn uniformly in [0, 1] and outcomes drawn with exactly those probabilities (a
perfectly calibrated model: every calibration error is 0). The mean estimate over the data sets
is the estimator's bias at that size.

Coverage: the same scores, outcomes drawn with probability ``p ** 1.5`` (the model is
over-confident), whose true calibration errors over 15 equal-width bins are known in closed
form: bin ``[a, b]`` has mean score ``(a + b) / 2`` and share of positives
``(b ** 2.5 - a ** 2.5) / (2.5 (b - a))``. The true Brier score is ``∫ (p² - 2 p^2.5 + p^1.5) dp``.
A nominal 95% interval should hold the true value in about 95% of data sets (with 1,000 data
sets the count itself varies by about ±1.4 points).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from evalkit import Calibration

BINS = 15
EDGES = np.linspace(0.0, 1.0, BINS + 1)
GAPS = (EDGES[1:] ** 2.5 - EDGES[:-1] ** 2.5) / (2.5 / BINS) - (EDGES[1:] + EDGES[:-1]) / 2
TRUE = {
    "ECE": float(np.abs(GAPS).mean()),
    "RMSCE": float(np.sqrt((GAPS**2).mean())),
    "Brier score": 1 / 3 - 2 / 3.5 + 1 / 2.5,
}


def bias(datasets: int, n: int = 200) -> str:
    rng = np.random.default_rng(2026)
    estimators = {
        "ECE, 15 equal-width bins (plug-in)": lambda cal: cal.error(),
        "ECE, 15 equal-mass bins (plug-in)": lambda cal: cal.error(strategy="quantile"),
        "ECE, debiased (Kumar et al.'s normal correction)": lambda cal: cal.error(estimator="debiased"),
        "RMSCE, 15 equal-width bins (plug-in)": lambda cal: cal.error("l2"),
        "RMSCE, debiased (Ferro-Fricker, signed root)": lambda cal: cal.error("l2", estimator="debiased"),
        "ECE, isotonic (binning-free, CORP)": lambda cal: cal.error(estimator="isotonic"),
    }
    found: dict[str, list[float]] = {name: [] for name in estimators}
    for _ in range(datasets):
        p = rng.random(n)
        cal = Calibration.from_scores(rng.random(n) < p, p)
        for name, estimate in estimators.items():
            found[name].append(estimate(cal))
    lines = [f"| estimator (perfectly calibrated scores, n = {n}) | mean | standard deviation |", "|---|---:|---:|"]
    lines += [f"| {name} | {np.mean(values):.4f} | {np.std(values):.4f} |" for name, values in found.items()]
    return "\n".join(lines)


def coverage(datasets: int, large: int, n_resamples: int = 1000) -> str:
    rng = np.random.default_rng(2027)
    cases = {  # name -> (true value, interval of one calibration)
        "ECE (debiased: normal around the debiased estimate, the default)": ("ECE", lambda cal, seed: cal.interval("ece", random_state=seed, n_resamples=n_resamples)),
        "ECE (percentile bootstrap)": ("ECE", lambda cal, seed: cal.interval("ece", method="percentile", random_state=seed, n_resamples=n_resamples)),
        "RMSCE (debiased, the default)": ("RMSCE", lambda cal, seed: cal.interval("rmsce", random_state=seed, n_resamples=n_resamples)),
        "Brier score (BCa)": ("Brier score", lambda cal, seed: cal.interval("brier_score", random_state=seed, n_resamples=n_resamples)),
    }
    lines = ["| interval | n | coverage of the nominal 95% interval | mean width |", "|---|---:|---:|---:|"]
    for n, count in ((200, datasets), (1000, large)):
        hits: dict[str, list[bool]] = {name: [] for name in cases}
        widths: dict[str, list[float]] = {name: [] for name in cases}
        for k in range(count):
            p = rng.random(n)
            cal = Calibration.from_scores(rng.random(n) < p**1.5, p)
            for name, (truth, make) in cases.items():
                found = make(cal, k)
                hits[name].append(found.low <= TRUE[truth] <= found.high)
                widths[name].append(found.high - found.low)
        lines += [f"| {name} | {n:,} ({count:,} data sets) | {np.mean(hits[name]):.1%} | {np.mean(widths[name]):.3f} |" for name in cases]
        print(f"done: n = {n}", file=sys.stderr)
    return "\n".join(lines)


def report(datasets: int, large: int) -> str:
    truths = ", ".join(f"{name} {value:.4f}" for name, value in TRUE.items())
    return f"{bias(datasets)}\n\nTrue values of the over-confident model: {truths}.\n\n{coverage(datasets, large)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--datasets", type=int, default=1000, help="simulated data sets of 200 samples (default 1000)")
    parser.add_argument("--large", type=int, default=300, help="simulated data sets of 1,000 samples (default 300)")
    parser.add_argument("--output", help="also write the tables to this file")
    arguments = parser.parse_args()
    started = time.perf_counter()
    text = report(arguments.datasets, arguments.large)
    text = f"{text}\n\nWhole run: {time.perf_counter() - started:.0f} s (`python benchmarks/calibration.py`)."
    print(text)
    if arguments.output:
        Path(arguments.output).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
