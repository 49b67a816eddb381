"""Costs that grow with the input, not with its shape: each path once at a size and at four times
that size, in one run (time and peak traced memory); the ratio should stay near 4 (at most 5),
where it was 16 or more before.

    python benchmarks/bounds.py
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import numpy as np
from timing import best_time, peak_bytes  # the timing of every benchmark

from evalkit import ConfusionMatrix, Covering, Hierarchy, NeighborhoodSystem, ThresholdCurve


def _measure(function: Callable[[], object], repeats: int = 3) -> tuple[float, float]:
    """Best time (s) and peak traced memory (MB) of ``function``."""
    return best_time(function, repeats), peak_bytes(function) / 1e6


def _reordered_universe(n: int) -> Callable[[], object]:
    rng = np.random.default_rng(n)
    blocks = [set(range(i, min(n, i + 4))) for i in range(0, n, 3)]
    ideal = Covering(range(n), blocks)
    order = rng.permutation(n).tolist()
    result = Covering(order, blocks)  # the same elements in another order
    system = NeighborhoodSystem(ideal)
    return lambda: system.evaluate(result)


def _one_neighborhood(n: int) -> Callable[[], object]:
    blocks = [set(range(i, min(n, i + 3))) for i in range(0, n, 2)]
    return lambda: Covering(range(n), blocks).neighborhood(5)


def _deep_tree(n: int) -> Callable[[], object]:
    """A tree of four children per node (depth about log4 n): the ancestor table grows as the nodes."""
    parents = {0: None, **{k: (k - 1) // 4 for k in range(1, n)}}
    return lambda: Hierarchy(parents)


def _one_sample_updates(m: int) -> Callable[[], object]:
    matrix = ConfusionMatrix(list(range(m)))  # the m x m table itself is made once, outside the timing

    def run() -> object:
        for k in range(200):
            matrix.update([k % m], [(k * 7) % m])
        return matrix

    return run


def _one_label_per_batch(batches: int) -> Callable[[], object]:
    def run() -> object:
        matrix = ConfusionMatrix([0])
        for k in range(1, batches):
            matrix.update([k], [k - 1], grow=True)
        return matrix

    return run


def _long_labels(m: int) -> Callable[[], object]:
    matrix = ConfusionMatrix.from_array(np.ones((m, m), dtype=np.int64), [f"class {k} " + "x" * 500 for k in range(m)])
    return lambda: str(matrix)


def _macro_at_every_threshold(m: int) -> Callable[[], object]:
    rng = np.random.default_rng(m)
    n = 10_000
    curve = ThresholdCurve.from_scores(rng.integers(0, m, n), rng.random((n, m)), labels=list(range(m)))
    return lambda: curve.evaluate("f1_score", average="macro")


def _label_sets_after_many_labels(labels: int) -> Callable[[], object]:
    """200 small batches after one that named every label: each costs its own labels."""
    from evalkit import LabelSetCounts

    names = [f"label {k}" for k in range(labels)]
    counts = LabelSetCounts()
    counts.update([set(names)], [set(names[:10])])

    def run() -> object:
        for k in range(200):
            counts.update([{names[k % 50]}, {names[(k * 7) % 50]}], [{names[k % 50]}, set()])
        return counts

    return run


def _label_sets_one_new_label_per_batch(batches: int) -> Callable[[], object]:
    """A stream whose every batch brings a label (a tag vocabulary that never ends)."""
    from evalkit import LabelSetCounts

    def run() -> object:
        counts = LabelSetCounts()
        for k in range(batches):
            counts.update([{f"tag {k}", "common"}], [{f"tag {k}"}])
        return counts

    return run


CASES = [
    ("NeighborhoodSystem.evaluate, the result's universe in another order", "elements", _reordered_universe, 25_000),
    ("Covering.neighborhood of one element", "elements", _one_neighborhood, 8_000),
    ("Hierarchy, four children per node", "nodes", _deep_tree, 5_000),
    ("ConfusionMatrix.update, 200 batches of one sample (to an m x m table)", "classes", _one_sample_updates, 1_000),
    ("ConfusionMatrix.update(grow=True), one new label per batch", "batches", _one_label_per_batch, 500),
    ("str() of a matrix with 500-character labels", "cells (m²)", _long_labels, 40),
    ("ThresholdCurve.evaluate(average='macro') of 10,000 samples x m scores", "classes", _macro_at_every_threshold, 15),
    ("LabelSetCounts.update, 200 small batches after every label", "labels", _label_sets_after_many_labels, 2_500),
    ("LabelSetCounts.update, one new label per batch", "batches", _label_sets_one_new_label_per_batch, 2_000),
]


def bounds() -> str:
    """The Markdown table."""
    lines = [
        ("Costs bounded by the input (`python benchmarks/bounds.py`): each path at a size and at 4x it "
        "(for the matrix text, 2x the classes: 4x the cells). Target: time and memory ratios near 4, at most 5 "
        "(quadratic paths gave 16)."),
        "",
        "| path | size | time (ms) | 4x size | time (ms) | time ratio | memory (MB) | memory ratio |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, unit, make, size in CASES:
        larger = size * 2 if unit.startswith("cells") else size * 4
        small, large = _measure(make(size)), _measure(make(larger))
        memory = f"{small[1]:.1f} → {large[1]:.1f}"
        lines.append(f"| {name} | {size:,} {unit.split()[0]} | {small[0] * 1e3:.1f} | {larger:,} | {large[0] * 1e3:.1f} | "
                     f"{large[0] / small[0]:.2f} | {memory} | {large[1] / max(small[1], 1e-9):.2f} |")  # fmt: skip
        print(f"done: bounds {name}", file=sys.stderr)
    return "\n".join(lines)


if __name__ == "__main__":
    print(bounds())
