"""The scikit-learn face at 100 samples: each function beside the numpy floor of its answer and
beside scikit-learn, in one run.

    python benchmarks/small_calls.py                          # about half a minute
    python benchmarks/small_calls.py --output benchmarks/small_calls.md

Rows: ``accuracy_score``, ``precision_score``, ``recall_score``, ``f1_score`` (macro),
``balanced_accuracy_score``, ``matthews_corrcoef``, ``cohen_kappa_score``, ``confusion_matrix``
and ``classification_report`` of 100 integer labels of 3 classes (70% right), one call each. The
floor is what the answer costs in numpy when nothing is checked: ``count_nonzero(y == p) / n``
for accuracy, ``bincount(y * m + p)`` for the matrix, and for the rest that ``bincount`` with a
macro F1 in plain Python on its ``m x m`` counts. Times are the
least of interleaved rounds (``timing.interleaved``), in microseconds a call.
"""

from __future__ import annotations

import argparse
import timeit
from collections.abc import Callable

import numpy as np
from timing import interleaved

import evalkit.metrics as ek

N, M = 100, 3


def _floor_matrix(y: np.ndarray, p: np.ndarray) -> np.ndarray:
    return np.bincount(y * M + p, minlength=M * M).reshape(M, M)


def _floor_f1(y: np.ndarray, p: np.ndarray) -> float:
    """One ``bincount``, then a macro F1 in plain Python on the ``m x m`` counts (numpy calls on
    3 numbers cost more than the arithmetic)."""
    flat = np.bincount(y * M + p, minlength=M * M).tolist()
    rows = [flat[k * M : (k + 1) * M] for k in range(M)]
    return sum(2 * rows[k][k] / (sum(rows[k]) + sum(row[k] for row in rows)) for k in range(M)) / M


def _per_call(function: Callable[[], object]) -> Callable[[], float]:
    """One round: the time of a call, in microseconds (enough calls for about 20 ms)."""
    number = max(1, int(0.02 / max(timeit.timeit(function, number=3) / 3, 1e-7)))
    return lambda: timeit.timeit(function, number=number) / number * 1e6


def rows(rounds: int) -> list[tuple[str, float, float, float]]:
    """(function, evalkit µs, floor µs, scikit-learn µs) for each function."""
    from sklearn import metrics as sk

    rng = np.random.default_rng(0)
    y = rng.integers(0, M, N)
    p = np.where(rng.random(N) < 0.7, y, rng.integers(0, M, N))
    floors: dict[str, Callable[[], object]] = {
        "accuracy_score": lambda: np.count_nonzero(y == p) / N,
        "confusion_matrix": lambda: _floor_matrix(y, p),
    }
    macro = {"average": "macro"}
    calls = [("accuracy_score", {}), ("precision_score", macro), ("recall_score", macro), ("f1_score", macro), ("balanced_accuracy_score", {}),
             ("matthews_corrcoef", {}), ("cohen_kappa_score", {}), ("confusion_matrix", {}), ("classification_report", {})]  # fmt: skip
    measured = []
    for name, options in calls:
        contenders = [
            _per_call(lambda name=name, options=options: getattr(ek, name)(y, p, **options)),
            _per_call(floors.get(name, lambda: _floor_f1(y, p))),
            _per_call(lambda name=name, options=options: getattr(sk, name)(y, p, **options)),
        ]
        measured.append((name, *interleaved(contenders, [rounds] * 3)))
    return measured


def table(measured: list[tuple[str, float, float, float]]) -> str:
    lines = ["| function (100 samples, 3 classes) | evalkit µs | numpy floor µs | × floor | scikit-learn µs | scikit-learn ÷ evalkit |",
             "|---|---:|---:|---:|---:|---:|"]  # fmt: skip
    for name, ours, floor, peer in measured:
        lines.append(f"| `{name}` | {ours:.1f} | {floor:.1f} | {ours / floor:.0f}× | {peer:.1f} | {peer / ours:.1f} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (the least is kept)")
    parser.add_argument("--output", help="write the table to this Markdown file")
    arguments = parser.parse_args()
    text = table(rows(arguments.rounds))
    print(text)
    if arguments.output:
        with open(arguments.output, "w", encoding="utf-8") as file:
            file.write(text)


if __name__ == "__main__":
    main()
