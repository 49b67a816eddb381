"""Prediction sets, prediction intervals and selective prediction: evalkit's functions beside
MAPIE's (the same numbers) and beside their numpy floor, on 1,000,000 samples, in one run.

    python benchmarks/conformal.py                          # prints the table
    python benchmarks/conformal.py --output benchmarks/conformal.md

Each row times evalkit's function (which counts the result the object keeps: a set's size and
its coverage per class and size, an interval's three sums, the risk-coverage counts) against
MAPIE's function of the same name and the shortest numpy expression of the one number asked for.
Sets: 10 classes, each label in a set with probability 0.5; intervals: normal targets, widths
up to 2; confidences: 1,000,000 distinct values.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from timing import best_time

from evalkit import metrics as ours


def rows(n: int) -> list[str]:
    from mapie.metrics import classification as mapie_sets
    from mapie.metrics import regression as mapie_intervals
    from mapie.metrics import uncertainty as mapie_uncertainty

    rng = np.random.default_rng(0)
    k = 10
    y = rng.integers(0, k, n)
    sets = rng.random((n, k)) < 0.5
    target = rng.normal(size=n)
    lower = target - rng.random(n) * 2
    intervals = np.stack([lower, lower + 2], axis=1)
    correct, confidence = rng.integers(0, 2, n), rng.random(n)
    workloads = [
        ("coverage of sets", "classification_coverage_score", (y, sets), lambda: sets[np.arange(n), y].mean()),
        ("mean set size", "classification_mean_width_score", (sets[:, :, None],), lambda: sets.sum(axis=1).mean()),
        ("size-stratified coverage", "classification_ssc", (y, sets), None),
        ("coverage of intervals", "regression_coverage_score", (target, intervals), lambda: ((intervals[:, 0] <= target) & (target <= intervals[:, 1])).mean()),
        ("mean interval width", "regression_mean_width_score", (intervals[:, :, None],), lambda: (intervals[:, 1] - intervals[:, 0]).mean()),
        ("interval (Winkler) score", "regression_mwi_score", (target, intervals[:, :, None], 0.9), None),
        ("area under the accuracy-rejection curve", "auarc", (correct, confidence), lambda: np.argsort(-confidence)),
    ]
    modules = (mapie_sets, mapie_intervals, mapie_uncertainty)
    lines = ["| workload (1,000,000 samples) | evalkit | MAPIE | evalkit / MAPIE | numpy floor | evalkit / floor | largest difference |",
             "|---|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
    for name, function, arguments, floor in workloads:
        theirs_function, our_function = next(getattr(m, function) for m in modules if hasattr(m, function)), getattr(ours, function)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # MAPIE's mean of an empty bin
            mine, theirs = our_function(*arguments), theirs_function(*arguments)
            time_theirs = best_time(lambda f=theirs_function, a=arguments: f(*a), 5)
        time_mine = best_time(lambda f=our_function, a=arguments: f(*a), 5)
        gap = float(np.nanmax(np.abs(np.asarray(mine, dtype=float) - np.asarray(theirs, dtype=float))))
        floor_cell = ratio_cell = "n/a"
        if floor is not None:
            time_floor = best_time(floor, 5)
            floor_cell, ratio_cell = f"{time_floor * 1e3:.1f} ms", f"{time_mine / time_floor:.2f}x"
        lines.append(f"| {name} (`{function}`) | {time_mine * 1e3:.1f} ms | {time_theirs * 1e3:.1f} ms | {time_mine / time_theirs:.2f}x | "
                     f"{floor_cell} | {ratio_cell} | {gap:.1e} |")  # fmt: skip
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=1_000_000)
    parser.add_argument("--output", help="also write the table to this Markdown file")
    arguments = parser.parse_args()
    started = time.perf_counter()
    text = "\n".join(rows(arguments.samples))
    text += (f"\n\nThe floor of the accuracy-rejection curve is the one sort of the confidences it needs. Best of 5 runs each; "
             f"{time.perf_counter() - started:.0f} s (`python benchmarks/conformal.py`).")  # fmt: skip
    print(text)
    if arguments.output:
        with open(arguments.output, "w", encoding="utf-8") as handle:
            handle.write("# Prediction sets, intervals and selective prediction: evalkit beside MAPIE\n\n" + text + "\n")


if __name__ == "__main__":
    main()
