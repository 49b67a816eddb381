"""The common path at its floor, in one run: the scikit-learn face at 100 samples beside the numpy
floor of each answer and beside scikit-learn; the first reads of a matrix made in one batch beside
the same formula in plain Python; a training loop beside a ``bincount`` accumulator.

    python benchmarks/small_calls.py                          # about a minute
    python benchmarks/small_calls.py --output benchmarks/small_calls.md

Rows: ``accuracy_score``, ``precision_score``, ``recall_score``, ``f1_score`` (macro),
``balanced_accuracy_score``, ``matthews_corrcoef``, ``cohen_kappa_score``, ``confusion_matrix``
and ``classification_report`` of 100 integer labels of 3 classes (70% right), one call each. The
floor is what the answer costs in numpy when nothing is checked: ``count_nonzero(y == p) / n``
for accuracy, ``bincount(y * m + p)`` for the matrix, for the report that ``bincount``, every
class's three scores and their averages in plain Python and its lines as f-strings, and for the
rest that ``bincount`` with a macro F1 in plain Python on its ``m x m`` counts.

Reads of a matrix made any way (``ConfusionMatrix.from_array``, a new one each call, so every read
is its first): a macro and a weighted F1, the per-class F1, one class's ``ClassificationMetrics``
and MCC, at 3 and 10 classes, beside the same number in plain Python on the matrix's nested lists
(the floor: what the formula costs), and ``ClassificationMetrics.average`` of ten objects.

A training loop: 100 batches of 256 class indexes of 10 classes counted with ``update_indices``,
beside a ``bincount`` accumulator; once with a macro F1 read at the end, once read after every
batch (the floor reads it with numpy on its counts).

Times are the least of interleaved rounds (``timing.interleaved``), in microseconds a call.
"""

from __future__ import annotations

import argparse
import math
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


def _floor_report(y: np.ndarray, p: np.ndarray) -> str:
    """One ``bincount``, each class's precision, recall and F1 and their three averages in plain
    Python, and the report's seven lines as f-strings: what a report costs when nothing is checked."""
    flat = np.bincount(y * M + p, minlength=M * M).tolist()
    rows = [flat[k * M : (k + 1) * M] for k in range(M)]
    support = [sum(row) for row in rows]
    predicted = [sum(row[k] for row in rows) for k in range(M)]
    scores = [(rows[k][k] / predicted[k], rows[k][k] / support[k], 2 * rows[k][k] / (support[k] + predicted[k])) for k in range(M)]
    n, correct = sum(support), sum(rows[k][k] for k in range(M))
    macro = [sum(score[j] for score in scores) / M for j in range(3)]
    weighted = [sum(score[j] * s for score, s in zip(scores, support)) / n for j in range(3)]
    lines = ["              precision    recall  f1-score   support\n\n"]
    lines += [f"{k:>12}  {a:>9.2f} {b:>9.2f} {c:>9.2f} {s:>9}\n" for k, (a, b, c), s in zip(range(M), scores, support)]
    lines.append(f"\n{'accuracy':>12}  {'':>9} {'':>9} {correct / n:>9.2f} {n:>9}\n")
    lines += [f"{name:>12}  {a:>9.2f} {b:>9.2f} {c:>9.2f} {n:>9}\n" for name, (a, b, c) in (("macro avg", macro), ("weighted avg", weighted))]
    return "".join(lines)


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
        "classification_report": lambda: _floor_report(y, p),
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


def _python_floor(rows: list[list[int]], what: str) -> object:
    """The read in plain Python on nested lists: the formula's cost, no checks."""
    m = len(rows)
    columns = [sum(row[k] for row in rows) for k in range(m)]
    sums = [sum(row) for row in rows]
    f1 = [2 * rows[k][k] / (sums[k] + columns[k]) if sums[k] + columns[k] else math.nan for k in range(m)]
    if what == "per class":
        return f1
    if what == "macro":
        defined = [value for value in f1 if not math.isnan(value)]
        return sum(defined) / len(defined)
    if what == "weighted":
        return sum(value * weight for value, weight in zip(f1, sums) if not math.isnan(value)) / sum(sums)
    tp = rows[1][1]
    fp, fn = columns[1] - tp, sums[1] - tp
    if what == "one class":
        return tp, fp, fn, sum(sums) - tp - fp - fn
    total, correct = sum(sums), sum(rows[k][k] for k in range(m))  # MCC
    covariance = correct * total - sum(a * b for a, b in zip(sums, columns))
    return covariance / math.sqrt((total * total - sum(b * b for b in columns)) * (total * total - sum(a * a for a in sums)))


def reads(rounds: int) -> list[tuple[str, float, float]]:
    """(read, evalkit µs, floor µs) of a matrix made in one batch, each read its first."""
    from evalkit import ClassificationMetrics, ConfusionMatrix

    measured = []
    names = {"macro": '`average("f1_score", "macro")`', "weighted": '`average("f1_score", "weighted")`', "per class": '`per_class("f1_score")`',
             "one class": "`ClassificationMetrics(cm, 1).get_f1_score()`", "mcc": "`get_matthews_correlation_coefficient()`"}  # fmt: skip
    for m in (3, 10):
        rng = np.random.default_rng(m)
        counts = np.bincount(rng.integers(0, m, 1000) * m + rng.integers(0, m, 1000), minlength=m * m).reshape(m, m)
        calls = {
            "macro": lambda counts=counts: ConfusionMatrix.from_array(counts).average("f1_score", "macro"),
            "weighted": lambda counts=counts: ConfusionMatrix.from_array(counts).average("f1_score", "weighted"),
            "per class": lambda counts=counts: ConfusionMatrix.from_array(counts).per_class("f1_score"),
            "one class": lambda counts=counts: ClassificationMetrics(ConfusionMatrix.from_array(counts), 1).get_f1_score(),
            "mcc": lambda counts=counts: ConfusionMatrix.from_array(counts).get_matthews_correlation_coefficient(),
        }
        base, listed = _per_call(lambda counts=counts: ConfusionMatrix.from_array(counts)), counts.tolist()
        for what, call in calls.items():
            floor = _per_call(lambda what=what, listed=listed: _python_floor(listed, what))
            made, ours, least = interleaved([base, _per_call(call), floor], [rounds] * 3)
            measured.append((f"{names[what]}, {m} classes", ours - made, least))
    objects = [ClassificationMetrics.from_counts(tp=5 + k, fp=10 - k, fn=k, tn=50) for k in range(10)]
    ours, floor = interleaved([_per_call(lambda: ClassificationMetrics.average(objects).f1_score),
                               _per_call(lambda: sum(o.get_f1_score() for o in objects) / 10)], [rounds] * 2)  # fmt: skip
    measured.append(("`ClassificationMetrics.average` of 10 objects, its F1", ours, floor))
    return measured


def training_loop(rounds: int) -> list[tuple[str, float, float]]:
    """(loop, evalkit µs, floor µs) of 100 batches of 256 class indexes, 10 classes."""
    from evalkit import ConfusionMatrix

    m = 10
    rng = np.random.default_rng(1)
    batches = list(zip(rng.integers(0, m, (100, 256)), rng.integers(0, m, (100, 256))))

    def floor(every: bool) -> object:
        counts = np.zeros(m * m, dtype=np.int64)
        value = None
        for actual, predicted in batches:
            counts += np.bincount(actual * m + predicted, minlength=m * m)
            if every or actual is batches[-1][0]:
                table = counts.reshape(m, m)
                value = np.nanmean(2 * np.diagonal(table) / (table.sum(axis=0) + table.sum(axis=1)))
        return value

    def ours(every: bool) -> object:
        cm = ConfusionMatrix(list(range(m)))
        for actual, predicted in batches:
            cm.update_indices(actual, predicted)
            if every:
                cm.average("f1_score", "macro")
        return cm.average("f1_score", "macro")

    measured = []
    for every, name in ((False, "a macro F1 at the end"), (True, "a macro F1 after every batch")):
        found = interleaved([_per_call(lambda every=every: ours(every)), _per_call(lambda every=every: floor(every))], [rounds] * 2)
        measured.append((f"100 batches of 256 indexes, 10 classes, `update_indices`, {name}", *found))
    return measured


def table(measured: list[tuple[str, float, float, float]]) -> str:
    lines = ["| function (100 samples, 3 classes) | evalkit µs | numpy floor µs | × floor | scikit-learn µs | scikit-learn ÷ evalkit |",
             "|---|---:|---:|---:|---:|---:|"]  # fmt: skip
    for name, ours, floor, peer in measured:
        lines.append(f"| `{name}` | {ours:.1f} | {floor:.1f} | {ours / floor:.0f}× | {peer:.1f} | {peer / ours:.1f} |")
    return "\n".join(lines) + "\n"


def floor_table(title: str, measured: list[tuple[str, float, float]]) -> str:
    lines = [f"| {title} | evalkit µs | floor µs | × floor |", "|---|---:|---:|---:|"]
    lines += [f"| {name} | {ours:.1f} | {floor:.1f} | {ours / floor:.1f}× |" for name, ours, floor in measured]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (the least is kept)")
    parser.add_argument("--output", help="write the table to this Markdown file")
    arguments = parser.parse_args()
    text = "\n".join([table(rows(arguments.rounds)),
                      floor_table("first read of a matrix made in one batch (`from_array`)", reads(arguments.rounds)),
                      floor_table("training loop (per loop)", training_loop(arguments.rounds))])  # fmt: skip
    print(text)
    if arguments.output:
        with open(arguments.output, "w", encoding="utf-8") as file:
            file.write(text)


if __name__ == "__main__":
    main()
