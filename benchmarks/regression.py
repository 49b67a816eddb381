"""Regression measures: every function of ``evalkit.metrics`` against a numpy floor and
scikit-learn on the same arrays, the exact ``RegressionMetrics``, and one event of a stream
against River, as ratios measured in one run.

    python benchmarks/regression.py --output benchmarks/regression.md   # 10,000,000 rows (minutes)
    python benchmarks/regression.py --rows 1000000                      # quicker

The floor of a function is the shortest numpy expression of its definition (no input checks);
evalkit checks its inputs (numbers, finite, shapes) and answers scikit-learn's edge cases.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import sklearn
import sklearn.metrics as sk
from timing import best_time, best_times, peak_bytes

import evalkit
import evalkit.metrics as ek
from evalkit import RegressionMetrics

EPS = np.finfo(np.float64).eps


def _tweedie(y: np.ndarray, p: np.ndarray, power: float) -> np.ndarray:
    return 2 * (y ** (2 - power) / ((1 - power) * (2 - power)) - y * p ** (1 - power) / (1 - power) + p ** (2 - power) / (2 - power))


def floors(y: np.ndarray, p: np.ndarray) -> dict[str, tuple[Callable[[], object], dict]]:
    """function name -> (its numpy floor, the keyword arguments of the call)."""

    def pinball(alpha: float, target: np.ndarray, guess: np.ndarray | float) -> np.ndarray:
        d = target - guess
        return np.where(d >= 0, alpha * d, (alpha - 1) * d)

    return {
        "mean_absolute_error": (lambda: np.mean(np.abs(y - p)), {}),
        "mean_squared_error": (lambda: np.mean((y - p) ** 2), {}),
        "root_mean_squared_error": (lambda: np.sqrt(np.mean((y - p) ** 2)), {}),
        "mean_squared_log_error": (lambda: np.mean((np.log1p(y) - np.log1p(p)) ** 2), {}),
        "root_mean_squared_log_error": (lambda: np.sqrt(np.mean((np.log1p(y) - np.log1p(p)) ** 2)), {}),
        "median_absolute_error": (lambda: np.median(np.abs(y - p)), {}),
        "mean_absolute_percentage_error": (lambda: np.mean(np.abs(y - p) / np.maximum(np.abs(y), EPS)), {}),
        "r2_score": (lambda: 1 - np.sum((y - p) ** 2) / np.sum((y - y.mean()) ** 2), {}),
        "explained_variance_score": (lambda: 1 - np.sum(((y - p) - (y - p).mean()) ** 2) / np.sum((y - y.mean()) ** 2), {}),
        "max_error": (lambda: np.max(np.abs(y - p)), {}),
        "mean_pinball_loss": (lambda: np.mean(pinball(0.9, y, p)), {"alpha": 0.9}),
        "mean_tweedie_deviance": (lambda: np.mean(_tweedie(y, p, 1.5)), {"power": 1.5}),
        "mean_poisson_deviance": (lambda: np.mean(2 * (y * np.log(y / p) - y + p)), {}),
        "mean_gamma_deviance": (lambda: np.mean(2 * (np.log(p / y) + y / p - 1)), {}),
        "d2_absolute_error_score": (lambda: 1 - np.sum(np.abs(y - p)) / np.sum(np.abs(y - np.median(y))), {}),
        "d2_pinball_score": (lambda: 1 - np.sum(pinball(0.9, y, p)) / np.sum(pinball(0.9, y, np.quantile(y, 0.9))), {"alpha": 0.9}),
        "d2_tweedie_score": (lambda: 1 - np.mean(2 * (y * np.log(y / p) - y + p)) / np.mean(2 * (y * np.log(y / y.mean()) - y + y.mean())), {"power": 1}),
    }


def functions(rows: int, repeats: int) -> list[str]:
    rng = np.random.default_rng(0)
    y = rng.gamma(2.0, 1.0, rows) + 0.1
    p = y * rng.lognormal(0.0, 0.3, rows)
    lines = [f"| function ({rows:,} rows) | numpy floor (ms) | evalkit (ms) | scikit-learn (ms) | evalkit / floor | scikit-learn / evalkit |",
             "|---|---:|---:|---:|---:|---:|"]  # fmt: skip
    for name, (floor, options) in floors(y, p).items():
        ours, theirs = getattr(ek, name), getattr(sk, name)
        assert np.isclose(ours(y, p, **options), theirs(y, p, **options), rtol=1e-9), name
        times = {"floor": [], "evalkit": [], "scikit-learn": []}
        for _ in range(repeats):  # interleaved: the machine's noise falls on all three alike
            times["floor"].append(best_time(floor, 1))
            times["evalkit"].append(best_time(lambda ours=ours, options=options: ours(y, p, **options), 1))
            times["scikit-learn"].append(best_time(lambda theirs=theirs, options=options: theirs(y, p, **options), 1))
        best = {key: min(values) for key, values in times.items()}
        lines.append(f"| `{name}` | {best['floor'] * 1e3:.1f} | {best['evalkit'] * 1e3:.1f} | {best['scikit-learn'] * 1e3:.1f} | "
                     f"{best['evalkit'] / best['floor']:.2f} | {best['scikit-learn'] / best['evalkit']:.2f} |")  # fmt: skip
        print(f"done: {name}", file=sys.stderr)
    return lines


def exact_sums(rows: int, repeats: int) -> list[str]:
    rng = np.random.default_rng(1)
    y = rng.normal(100.0, 15.0, rows)
    p, w = y + rng.normal(0.0, 5.0, rows), rng.uniform(0.5, 2.0, rows)
    lines = [f"| the exact sums ({rows:,} rows) | time (ms) | ns per row | peak memory / input |", "|---|---:|---:|---:|"]
    cases = {
        "`RegressionMetrics.from_predictions(y, p)`": lambda: RegressionMetrics.from_predictions(y, p),
        "`RegressionMetrics.from_predictions(y, p, sample_weight=w)`": lambda: RegressionMetrics.from_predictions(y, p, sample_weight=w),
        "scikit-learn: `r2_score`, `mean_squared_error`, `mean_absolute_error` (floats, one pass each)": lambda: (
            sk.r2_score(y, p), sk.mean_squared_error(y, p), sk.mean_absolute_error(y, p)),
    }  # fmt: skip
    for name, run in cases.items():
        seconds = best_time(run, repeats)
        peak = peak_bytes(run) / (2 * y.nbytes)
        lines.append(f"| {name} | {seconds * 1e3:.0f} | {seconds / rows * 1e9:.0f} | {peak:.2f} |")
    return lines


def one_event(events: int) -> list[str]:
    from river import metrics as river

    rng = np.random.default_rng(2)
    y, p = rng.normal(size=events).tolist(), rng.normal(size=events).tolist()
    lines = [f"| one event of a stream ({events:,} events) | µs per event |", "|---|---:|"]

    def ours() -> None:
        metrics = RegressionMetrics()
        for a, b in zip(y, p):
            metrics.update([a], [b])

    def ours_read() -> None:
        metrics = RegressionMetrics()
        for a, b in zip(y, p):
            metrics.update([a], [b])
            metrics.get_r_squared()

    def ours_one() -> None:
        metrics = RegressionMetrics()
        for a, b in zip(y, p):
            metrics.update_one(a, b)

    def ours_one_read() -> None:
        metrics = RegressionMetrics()
        for a, b in zip(y, p):
            metrics.update_one(a, b)
            metrics.get_r_squared()

    def theirs() -> None:
        metric = river.R2()
        for a, b in zip(y, p):
            metric.update(a, b)

    def theirs_read() -> None:
        metric = river.R2()
        for a, b in zip(y, p):
            metric.update(a, b)
            metric.get()

    runs = {"evalkit `update([y], [p])`": ours, "evalkit `update([y], [p])` + `get_r_squared()`": ours_read, "evalkit `update_one(y, p)`": ours_one,
            "evalkit `update_one(y, p)` + `get_r_squared()`": ours_one_read, "River `R2.update(y, p)`": theirs, "River `R2.update(y, p)` + `get()`": theirs_read}
    for name, seconds in best_times(runs, dict.fromkeys(runs, 5)).items():  # (interleaved rounds: a slow spell falls on every contender)
        lines.append(f"| {name} | {seconds / events * 1e6:.1f} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--output")
    arguments = parser.parse_args()
    start = time.perf_counter()
    sections = [
        (f"evalkit {evalkit.__version__}, scikit-learn {sklearn.__version__}, numpy {np.__version__}, Python {platform.python_version()}, "
         f"{platform.machine()}, best of {arguments.repeats} (interleaved)."),
        "\n".join(functions(arguments.rows, arguments.repeats)),
        "\n".join(exact_sums(min(arguments.rows, 1_000_000), arguments.repeats)),
        "\n".join(one_event(20_000)),
        f"Whole run: {time.perf_counter() - start:.0f} s (`python benchmarks/regression.py --rows {arguments.rows}`).",
    ]
    text = "\n\n".join(sections) + "\n"
    if arguments.output:
        Path(arguments.output).write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
