"""Confidence sequences against fixed-n intervals read after every event, in one run.

    python benchmarks/sequences.py [--streams 2000] [--events 10000]

Prints Markdown tables (benchmarks/sequences.md keeps the last run's):

* how often a 95% interval, read after every event of a stream, leaves the true value out at
  some time: the beta-binomial sequence (``interval(..., anytime=True)``) and Wilson's fixed-n
  interval, for the recall of one of 2, 5 and 10 classes (streams of Bernoulli trials);
* the same for the asymptotic sequence of a macro F1 (read at 40 times spaced evenly in log n,
  from 100 samples on: reading every event costs a jackknife each) beside the fixed-n
  percentile bootstrap (400 resamples) read at the same times;
* the width of each sequence over the fixed-n interval's, from 1,000 to 100,000 samples;
* ``Monitor``'s alarms on a model whose accuracy drops from 0.9 to 0.85: how often one fires
  before the drop, and the delay after it (``alpha=0.01`` and ``arl=10,000``);
* what a read costs: ``interval("accuracy", anytime=True)`` beside ``method="wilson"``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np
from scipy import special
from statsmodels.stats.proportion import proportion_confint

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from evalkit import ConfusionMatrix, Monitor, RegressionMetrics
from evalkit._results._sequences import DEFAULT_TUNING, beta_binomial_bounds, mixture_scale, normal_mixture_radius


def _excluded(successes: np.ndarray, trials: np.ndarray, p: float) -> np.ndarray:
    """Where the 95% beta-binomial sequence leaves ``p`` out: its mixture martingale at ``p`` at
    or above 20 (the sequence is exactly the values below it)."""
    spread = p * (1 - p)
    r = max(mixture_scale(spread * DEFAULT_TUNING, 0.05) - spread, 1e-3 * spread)
    a, b = r / (1 - p), r / p
    failures = trials - successes
    log_m = special.betaln(a + successes, b + failures) - special.betaln(a, b) - successes * math.log(p) - failures * math.log1p(-p)
    return (log_m >= math.log(20)) & (trials > 0)


def proportions(streams: int, events: int) -> list[str]:
    lines = ["| recall of one of | true recall | streams | events | 95% sequence misses at some time | Wilson read every event misses |", "|---:|---:|---:|---:|---:|---:|"]
    rng = np.random.default_rng(0)
    for k, p in ((2, 0.5), (5, 0.8), (10, 0.95)):
        sequence = fixed = 0
        for start in range(0, streams, 200):
            size = min(200, streams - start)
            of_class = rng.random((size, events)) < 1 / k
            right = (rng.random((size, events)) < p) & of_class
            trials, successes = np.cumsum(of_class, axis=1), np.cumsum(right, axis=1)
            sequence += int(np.count_nonzero(np.any(_excluded(successes, trials, p), axis=1)))
            seen = trials > 0
            low, high = proportion_confint(successes[seen], trials[seen], alpha=0.05, method="wilson")
            outside = np.zeros_like(seen)
            outside[seen] = (p < low) | (p > high)
            fixed += int(np.count_nonzero(np.any(outside, axis=1)))
        lines.append(f"| {k} classes | {p} | {streams:,} | {events:,} | {sequence / streams:.1%} | {fixed / streams:.1%} |")
    return lines


def macro_f1(streams: int, events: int) -> list[str]:
    """Streams of k classes (a right prediction with probability 0.8, else a uniform guess); the
    true macro F1 is that of the expected confusion matrix."""
    lines = ["| classes | streams | reads (log-spaced, from 100) | 95% asymptotic sequence misses | fixed-n bootstrap misses |", "|---:|---:|---:|---:|---:|"]
    rng = np.random.default_rng(1)
    times = np.unique(np.geomspace(100, events, 40).astype(int))
    for k in (2, 5, 10):
        expected = np.full((k, k), 0.2 / k / k) + np.eye(k) * 0.8 / k
        truth = ConfusionMatrix.from_array(expected * 1e6, labels=list(range(k))).average("f1_score", "macro")
        sequence = fixed = 0
        for _ in range(streams):
            actual = rng.integers(0, k, events)
            predicted = np.where(rng.random(events) < 0.8, actual, rng.integers(0, k, events))
            missed_sequence = missed_fixed = False
            cm = ConfusionMatrix(list(range(k)))
            done = 0
            for end in times:
                cm.update(actual[done:end], predicted[done:end])
                done = end
                found = cm.interval("f1_score", "macro", anytime=True)
                missed_sequence |= not found.low <= truth <= found.high
                fixed_n = cm.interval("f1_score", "macro", method="percentile", n_resamples=400, random_state=int(end))
                missed_fixed |= not fixed_n.low <= truth <= fixed_n.high
            sequence += missed_sequence
            fixed += missed_fixed
        lines.append(f"| {k} | {streams:,} | {len(times)} | {sequence / streams:.1%} | {fixed / streams:.1%} |")
    return lines


def alarms(streams: int, segment_streams: int) -> list[str]:
    """``Monitor`` of a 3-class model right 0.9 of the time (wrong evenly: its accuracy and its
    macro F1 are 0.9) that drops to 0.85 after ``change`` samples: the share of streams with an
    alarm before the drop, and the delay after it. Accuracy is watched in one batch, sample by
    sample; the macro F1, by segments, in batches of 200 (``segment_streams`` streams)."""
    lines = ["| watched | guarantee | drop after | streams | an alarm before the drop | delay: median | 90% | 95% |", "|---|---|---:|---:|---:|---:|---:|---:|"]
    settings = [("accuracy", {"alpha": 0.01}, streams), ("accuracy", {"arl": 10_000}, streams), ("macro F1, batches of 200", {"alpha": 0.01}, segment_streams)]
    for watched, guarantee, count in settings:
        for change in (1000, 5000, 20_000):
            delays, early = [], 0
            for seed in range(count):
                rng = np.random.default_rng(seed + 7)
                actual = rng.integers(0, 3, change + 6000)
                right = rng.random(change + 6000) < np.where(np.arange(change + 6000) < change, 0.9, 0.85)
                predicted = np.where(right, actual, (actual + rng.integers(1, 3, change + 6000)) % 3)
                if watched == "accuracy":
                    monitor = Monitor(0.9, **guarantee)
                    monitor.update(actual, predicted)
                else:
                    monitor = Monitor(0.9, "f1_score", average="macro", **guarantee)
                    for start in range(0, change + 6000, 200):
                        monitor.update(actual[start : start + 200], predicted[start : start + 200])
                early += any(at <= change for at in monitor.alarms)
                after = [at for at in monitor.alarms if at > change]
                delays.append(after[0] - change if after else math.inf)
            name = ", ".join(f"{key}={value:,}" if value >= 1 else f"{key}={value}" for key, value in guarantee.items())
            lines.append(f"| {watched} | {name} | {change:,} | {count:,} | {early / count:.1%} | " + " | ".join(f"{np.quantile(delays, q):,.0f}" for q in (0.5, 0.9, 0.95)) + " |")
    return lines


def regression(streams: int, events: int) -> list[str]:
    """A regressor's R² and RMSE from its sums (``RegressionMetrics(keep_spread=True)``), read
    every 100 samples from 200 on: how often the 95% sequence and the fixed-n interval leave the
    true value (of 2,000,000 samples) out at some time. Targets of Student's t(5), noise with
    t(3) tails: fourth moments that matter."""
    def draw(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
        y = rng.standard_t(5, n)
        return y, y + rng.normal(0, 0.5, n) + 0.1 * rng.standard_t(3, n)

    truth_y, truth_p = draw(np.random.default_rng(0), 2_000_000)
    lines = ["| measure | streams | samples | 95% sequence misses at some time | fixed-n interval read so misses |", "|---|---:|---:|---:|---:|"]
    for name in ("r_squared", "root_mean_squared_error"):
        getter = RegressionMetrics.measure(name).getter
        truth = getattr(RegressionMetrics.from_predictions(truth_y, truth_p), getter)()
        sequence = fixed = 0
        for seed in range(streams):
            y, p = draw(np.random.default_rng(seed + 10), events)
            metrics, missed_sequence, missed_fixed = RegressionMetrics(keep_spread=True), False, False
            for start in range(0, events, 100):
                metrics.update(y[start : start + 100], p[start : start + 100])
                if start >= 100:
                    anytime, once = metrics.interval(name, anytime=True), metrics.interval(name)
                    missed_sequence |= not anytime.low <= truth <= anytime.high
                    missed_fixed |= not once.low <= truth <= once.high
            sequence += missed_sequence
            fixed += missed_fixed
        lines.append(f"| {name} | {streams:,} | {events:,} | {sequence / streams:.1%} | {fixed / streams:.1%} |")
    return lines


def widths() -> list[str]:
    sizes = (1000, 3000, 10_000, 30_000, 100_000)
    lines = ["| width over the fixed-n interval's, at n = | " + " | ".join(f"{n:,}" for n in sizes) + " |", "|---|" + "---:|" * len(sizes)]
    for tuning in (1000, DEFAULT_TUNING, 10_000):
        ratios = []
        for n in sizes:
            low, high = beta_binomial_bounds(round(0.9 * n), n, 0.95, tuning)
            fixed_low, fixed_high = proportion_confint(round(0.9 * n), n, alpha=0.05, method="wilson")
            ratios.append((high - low) / (fixed_high - fixed_low))
        lines.append(f"| beta-binomial (a proportion of 0.9), tuning {tuning:,} | " + " | ".join(f"{r:.2f}" for r in ratios) + " |")
        lines.append(f"| asymptotic, tuning {tuning:,} | " + " | ".join(f"{normal_mixture_radius(n, 0.05, tuning) * math.sqrt(n) / 1.959963984540054:.2f}" for n in sizes) + " |")
    return lines


def reads() -> list[str]:
    cm = ConfusionMatrix.from_array([[4000, 600, 400], [300, 4500, 200], [500, 500, 4000]], labels=[0, 1, 2])
    rows = [("`interval(\"accuracy\", method=\"wilson\")`", lambda: cm.interval("accuracy", method="wilson")),
            ("`interval(\"accuracy\", anytime=True)` (beta-binomial)", lambda: cm.interval("accuracy", anytime=True)),
            ("`interval(\"f1_score\", \"macro\", anytime=True)` (asymptotic)", lambda: cm.interval("f1_score", "macro", anytime=True)),
            ("`interval(\"f1_score\", \"macro\")` (BCa, 2,000 resamples)", lambda: cm.interval("f1_score", "macro", random_state=0))]  # fmt: skip
    lines = ["| one read of a stream's matrix (3 classes, 15,000 samples) | µs |", "|---|---:|"]
    for name, read in rows:
        best = math.inf
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(20):
                read()
            best = min(best, (time.perf_counter() - start) / 20)
        lines.append(f"| {name} | {best * 1e6:.0f} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=2000)
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--f1-streams", type=int, default=500)
    parser.add_argument("--alarm-streams", type=int, default=300)
    parser.add_argument("--segment-streams", type=int, default=100)
    parser.add_argument("--regression-streams", type=int, default=300)
    parser.add_argument("--only", choices=["proportions", "macro_f1", "alarms", "regression", "widths", "reads"], action="append")
    arguments = parser.parse_args()
    tables = {"proportions": lambda: proportions(arguments.streams, arguments.events), "macro_f1": lambda: macro_f1(arguments.f1_streams, arguments.events),
              "alarms": lambda: alarms(arguments.alarm_streams, arguments.segment_streams),
              "regression": lambda: regression(arguments.regression_streams, arguments.events), "widths": widths, "reads": reads}
    chosen = [tables[name]() for name in (arguments.only or tables)]
    print(f"Python {sys.version.split()[0]}; tuning {DEFAULT_TUNING:,} samples; 95% level.\n")
    print("\n\n".join("\n".join(table) for table in chosen))


if __name__ == "__main__":
    main()
