"""Benchmarks: evalkit against the numpy floor and against peers, as ratios measured in one run.

Machines here are noisy, so every case times all its contenders in the same run (best of
several repeats, interleaved) and reports ratios; absolute times are shown for orientation
only. Peak extra memory is measured with tracemalloc (numpy reports its allocations there).

    python benchmarks/run.py                 # all cases, Markdown table on stdout
    python benchmarks/run.py --quick         # smaller sizes, for a smoke run
    python benchmarks/run.py --output benchmarks/results.md

Peers (scikit-learn, PyCM) come from the ``benchmark`` extra: ``pip install ".[benchmark]"``;
a missing peer is reported as missing, not silently skipped.
"""

from __future__ import annotations

import argparse
import gc
import platform
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

import evalkit
from evalkit import ConfusionMatrix, Covering, Evaluation, NeighborhoodSystem


@dataclass
class Case:
    """One workload: a floor, evalkit, and peers, all computing the same counts."""

    name: str
    input_bytes: int
    contenders: dict[str, Callable[[], object]] = field(default_factory=dict)
    targets: dict[str, str] = field(default_factory=dict)  # contender -> target text
    scale: dict[str, float] = field(default_factory=dict)  # contender timed on a slice -> n / slice
    once: set[str] = field(default_factory=set)  # slow peers: timed once, not best of several


def _best_time(function: Callable[[], object], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def _peak_bytes(function: Callable[[], object]) -> int:
    gc.collect()
    tracemalloc.start()
    function()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def _peer(module: str) -> object | None:
    try:
        return __import__(module)
    except ImportError:
        return None


def integer_labels(n: int, m: int, seed: int = 0) -> Case:
    rng = np.random.default_rng(seed)
    y_true, y_pred = rng.integers(0, m, n), rng.integers(0, m, n)
    case = Case(f"confusion matrix, {n:,} int labels, {m} classes", y_true.nbytes + y_pred.nbytes)
    case.contenders["numpy floor"] = lambda: np.bincount(y_true * m + y_pred, minlength=m * m)
    case.contenders["evalkit"] = lambda: ConfusionMatrix.from_predictions(y_true, y_pred)
    sklearn = _peer("sklearn.metrics")
    if sklearn is not None:
        from sklearn.metrics import confusion_matrix

        case.contenders["scikit-learn"] = lambda: confusion_matrix(y_true, y_pred)
    case.targets = {"evalkit": "≤ 1.3× floor; ≥ 20× faster than scikit-learn"}
    return case


def string_labels(n: int, m: int, as_array: bool, seed: int = 1) -> Case:
    rng = np.random.default_rng(seed)
    names = np.array([f"class_{k:03d}" for k in range(m)])
    y_true, y_pred = names[rng.integers(0, m, n)], names[rng.integers(0, m, n)]
    kind = "numpy str array" if as_array else "list of str"
    if not as_array:
        y_true, y_pred = y_true.tolist(), y_pred.tolist()
    size = (y_true.nbytes + y_pred.nbytes) if as_array else 2 * n * 8
    case = Case(f"confusion matrix, {n:,} string labels ({kind}), {m} classes", size)
    lookup = {name: k for k, name in enumerate(names.tolist())}

    def floor() -> object:  # the least any label path can do: one dict lookup per label
        t = np.fromiter(map(lookup.__getitem__, y_true if not as_array else y_true.tolist()), np.intp, n)
        p = np.fromiter(map(lookup.__getitem__, y_pred if not as_array else y_pred.tolist()), np.intp, n)
        return np.bincount(t * m + p, minlength=m * m)

    case.contenders["dict floor"] = floor
    case.contenders["evalkit"] = lambda: ConfusionMatrix.from_predictions(y_true, y_pred)
    if _peer("sklearn.metrics") is not None:
        from sklearn.metrics import confusion_matrix

        case.contenders["scikit-learn"] = lambda: confusion_matrix(y_true, y_pred)
    if _peer("pycm") is not None:
        from pycm import ConfusionMatrix as PycmMatrix

        part = min(n, 100_000)  # PyCM is pure Python: time a slice, extrapolate linearly
        t_part, p_part = list(y_true[:part]), list(y_pred[:part])
        name = f"PyCM (timed on {part:,}, × {n / part:g})"
        case.contenders[name] = lambda: PycmMatrix(actual_vector=t_part, predict_vector=p_part)
        case.scale[name] = n / part
    case.targets = {"evalkit": "≥ 3× faster than scikit-learn; faster than PyCM"}
    return case


AVERAGES = ("micro", "macro", "weighted", "samples")


def multilabel(n: int, m: int, seed: int = 2) -> Case:
    rng = np.random.default_rng(seed)
    actual = rng.random((n, m), dtype=np.float32) < 0.1
    predicted = rng.random((n, m), dtype=np.float32) < 0.1
    case = Case(f"multi-label F1, four averages, {n:,} x {m} bool", actual.nbytes + predicted.nbytes)

    def floor() -> object:  # one pass of column and row sums over the logical cells
        both = actual & predicted
        return [x.sum(axis) for x in (both, actual, predicted) for axis in (0, 1)]

    def ours() -> object:
        evaluation = Evaluation.from_indicators(actual, predicted)
        return [evaluation.average("f1_score", average) for average in AVERAGES]

    case.contenders["numpy floor"] = floor
    case.contenders["evalkit"] = ours
    if _peer("sklearn.metrics") is not None:
        from sklearn.metrics import precision_recall_fscore_support

        case.contenders["scikit-learn"] = lambda: [
            precision_recall_fscore_support(actual, predicted, average=average, zero_division=np.nan) for average in AVERAGES
        ]
        case.once.add("scikit-learn")
    case.targets = {"evalkit": "≤ 2× floor; ≥ 20× faster than scikit-learn"}
    return case


def soft(n: int, m: int, seed: int = 3) -> Case:
    rng = np.random.default_rng(seed)
    actual = rng.random((n, m), dtype=np.float32)
    predicted = rng.random((n, m), dtype=np.float32)
    case = Case(f"soft F1 (product t-norm), four averages, {n:,} x {m} float32", actual.nbytes + predicted.nbytes)

    def floor() -> object:
        both = actual * predicted
        return [x.sum(axis, dtype=np.float64) for x in (both, actual, predicted) for axis in (0, 1)]

    def ours() -> object:
        evaluation = Evaluation.from_soft(actual, predicted)
        return [evaluation.average("f1_score", average) for average in AVERAGES]

    case.contenders["numpy floor"] = floor
    case.contenders["evalkit"] = ours
    case.targets = {"evalkit": "peak extra memory ≤ 2× input"}
    return case


def aa_rar(n: int, m: int, with_sets: bool, seed: int = 4) -> Case:
    """AA and RAR (seed 000) of a result against the ideal, both 0/1 indicator matrices."""
    rng = np.random.default_rng(seed)
    ideal = rng.random((n, m), dtype=np.float32) < 0.1
    result = ideal ^ (rng.random((n, m), dtype=np.float32) < 0.05)
    case = Case(f"AA and RAR, {n:,} x {m} bool", ideal.nbytes + result.nbytes)

    def floor() -> object:  # one pass of row and column sums over the logical cells
        both = ideal & result
        return [x.sum(axis) for x in (both, ideal, result) for axis in (0, 1)]

    def ours() -> object:
        accuracy = NeighborhoodSystem(Covering.from_indicator(ideal)).evaluate(Covering.from_indicator(result))
        return accuracy.get_absolute_accuracy(), accuracy.get_relative_accuracy_rate()

    case.contenders["numpy floor"] = floor
    case.contenders["evalkit"] = ours
    case.targets = {"evalkit": "≤ 2× floor"}
    if with_sets:
        blocks = [set(np.flatnonzero(ideal[:, j]).tolist()) for j in range(m)]
        result_blocks = [set(np.flatnonzero(result[:, j]).tolist()) for j in range(m)]

        def straightforward() -> object:  # the paper's formulas on Python sets, Q_NS by membership
            t_pos = sum(len(p & q) for p, q in zip(blocks, result_blocks))
            t_neg = 0
            for r in range(n):
                q = {i for i, block in enumerate(blocks) if r in block}
                q_result = {i for i, block in enumerate(result_blocks) if r in block}
                t_neg += max(len(q_result - q), len(q - q_result))
            return t_pos / sum(map(len, blocks)), t_pos / t_neg

        case.contenders["set-based (paper's formulas)"] = straightforward
        case.once.add("set-based (paper's formulas)")
        case.targets["evalkit"] = "≥ 100× faster than the set-based formulas"
    return case


def run(cases: list[Case], repeats: int) -> str:
    lines = [
        f"evalkit {evalkit.__version__}, numpy {np.__version__}, Python {platform.python_version()}, "
        f"{platform.machine()}; best of {repeats}; ratio = time / evalkit time (> 1: evalkit faster)",
        "",
        "| case | contender | time (ms) | ratio to evalkit | evalkit / floor | peak extra memory / input | target |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for case in cases:
        times = {
            name: _best_time(function, 1 if name in case.scale or name in case.once else repeats) * case.scale.get(name, 1.0)
            for name, function in case.contenders.items()
        }
        floor_name = next(name for name in case.contenders if "floor" in name)
        ours = times["evalkit"]
        memory = _peak_bytes(case.contenders["evalkit"]) / case.input_bytes
        for name, seconds in times.items():
            floor_ratio = f"{ours / times[floor_name]:.2f}" if name == "evalkit" else ""
            mem = f"{memory:.2f}" if name == "evalkit" else ""
            lines.append(
                f"| {case.name} | {name} | {seconds * 1e3:.1f} | {seconds / ours:.2f} | {floor_ratio} | {mem} | "
                f"{case.targets.get(name, '')} |"
            )
        print(lines[-1], file=sys.stderr)
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--output", help="also write the table to this file")
    arguments = parser.parse_args()
    scale = 10 if arguments.quick else 1
    cases = [
        integer_labels(10_000_000 // scale, 10),
        integer_labels(10_000_000 // scale, 1000),
        integer_labels(100_000, 10),
        string_labels(1_000_000 // scale, 20, as_array=False),
        string_labels(1_000_000 // scale, 20, as_array=True),
        multilabel(1_000_000 // scale, 100),
        soft(1_000_000 // scale, 100),
        aa_rar(1_000_000 // scale, 100, with_sets=False),
        aa_rar(100_000 // scale, 100, with_sets=True),
    ]
    table = run(cases, arguments.repeats)
    print(table)
    if arguments.output:
        with open(arguments.output, "w", encoding="utf-8") as handle:
            handle.write(table + "\n")


if __name__ == "__main__":
    main()
