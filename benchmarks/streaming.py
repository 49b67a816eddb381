"""Metrics over time, per event: evalkit beside River, and beside the numpy floor, in one run.

    python benchmarks/streaming.py                       # about a minute
    python benchmarks/streaming.py --output benchmarks/streaming.md
    python benchmarks/streaming.py --events 5000         # a quicker, noisier run

Rows:

* a prequential loop: count one event, read accuracy and macro F1, for 3, 10 and 100 classes
  (``ConfusionMatrix.update_one(y, p)``, ``get_accuracy()``, ``average("f1_score", "macro")``
  against River's ``Accuracy`` and ``MacroF1``), and the same over a sliding window of 1,000
  events (``Windowed`` against River's ``utils.Rolling``);
* every public one-event update of a matrix (``inc``, ``update_one``, ``update``, ``update_indices``
  with a list or an array, ``revert``, a window's ``update``) followed by the same two reads, at
  10 classes: each leaves the reads on the stream's running sums, so each costs about the same;
* one read of a stream against a plain numpy formula on the same counts (``trace / total``; the
  mean of ``2 tp / (row + column)`` over the classes with any): how far above the floor a read is;
  and the same read of a matrix made in one batch (``from_predictions``), after its first;
* the other counted kinds: a decayed matrix, a window of label sets, a regressor's sums (River's
  ``R2``, and the floor of a plain Python class of four float sums called the same way) and its
  window;
* the exact ROC AUC of a sliding window of 10,000 scores, per event, once the window holds single
  events (its steady state), against recomputing it from the window's scores and against
  River's ``RollingROCAUC``;
* the calibration error of a sliding window of 1,000 scores (exact, and in 15 bins), per event,
  against counting the window's scores again (River has no calibration measure).

The events are the same for every contender (70% right, the rest uniform); times are the best of
three runs of the whole loop, per event, in microseconds, evalkit's and River's loops run in
interleaved rounds (a busy moment of the machine slows both alike).
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
import warnings
from collections.abc import Callable

import numpy as np
from timing import interleaved

from evalkit import (
    Calibration,
    CalibrationCounts,
    ConfusionMatrix,
    CurveCounts,
    LabelSetCounts,
    ThresholdCurve,
    Windowed,
)


def stream(n: int, m: int, seed: int = 0) -> tuple[list[int], list[int]]:
    rng = np.random.default_rng(seed)
    actual = rng.integers(0, m, n)
    predicted = np.where(rng.random(n) < 0.7, actual, rng.integers(0, m, n))
    return actual.tolist(), predicted.tolist()


def per_event(loop: Callable[[], object], n: int, repeats: int = 3) -> float:
    """The best time of ``loop`` (which runs ``n`` events), per event, in microseconds."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        loop()
        best = min(best, time.perf_counter() - start)
    return best / n * 1e6


def side_by_side(timed: list[Callable[[], object]], n: int, repeats: int = 3) -> list[float]:
    """``per_event`` of each loop, the loops run in interleaved rounds (a busy moment of the
    machine slows each alike): the best round of each, per event, in microseconds."""
    return interleaved([functools.partial(per_event, loop, n, 1) for loop in timed], [repeats] * len(timed))


def loops(n: int, m: int, window: int | None) -> tuple[float, float, float]:
    """evalkit's and River's time per event, and the largest difference of their macro F1."""
    from river import metrics, utils

    actual, predicted = stream(n, m)
    found: dict[str, float] = {}

    def ours() -> None:
        view = ConfusionMatrix(list(range(m))) if window is None else Windowed(ConfusionMatrix(list(range(m))), size=window)
        count = view.update_one if window is None else lambda a, p: view.update([a], [p])  # one sample by its labels; a window takes batches
        for a, p in zip(actual, predicted):
            count(a, p)
            view.get_accuracy()
            found["evalkit"] = view.average("f1_score", "macro")

    def river() -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # Rolling(instance): the spelling every River release takes
            accuracy = metrics.Accuracy() if window is None else utils.Rolling(metrics.Accuracy(), window)
            f1 = metrics.MacroF1() if window is None else utils.Rolling(metrics.MacroF1(), window)
        for a, p in zip(actual, predicted):
            accuracy.update(a, p)
            f1.update(a, p)
            accuracy.get()
            found["river"] = f1.get()

    evalkit, river_time = side_by_side([ours, river], n)
    return evalkit, river_time, abs(found["evalkit"] - found["river"])


def update_paths(n: int, m: int = 10) -> list[tuple[str, float]]:
    """Per event: each one-event update, then ``get_accuracy()`` and a macro F1."""
    actual, predicted = stream(n, m, seed=3)
    arrays = [(np.array([a]), np.array([p])) for a, p in zip(actual, predicted)]

    def timed(step: Callable[[ConfusionMatrix, int], object], events: int = n) -> float:
        def loop() -> None:
            cm = ConfusionMatrix(list(range(m)))
            cm.update(list(range(m)), list(range(m)))  # every class once: a revert always has a sample to take
            for k in range(events):
                step(cm, k)
                cm.get_accuracy()
                cm.average("f1_score", "macro")

        return per_event(loop, events)

    def revert(cm: ConfusionMatrix, k: int) -> None:
        if k % 2:
            cm.revert([actual[k - 1]], [predicted[k - 1]])
        else:
            cm.update_one(actual[k], predicted[k])

    window = Windowed(ConfusionMatrix(list(range(m))), size=1_000)

    def windowed() -> None:
        for a, p in zip(actual, predicted):
            window.update([a], [p])
            window.get_accuracy()
            window.average("f1_score", "macro")

    return [("`inc(a, p)` (indexes)", timed(lambda cm, k: cm.inc(actual[k], predicted[k]))),
            ("`update_one(a, p)`", timed(lambda cm, k: cm.update_one(actual[k], predicted[k]))),
            ("`update([a], [p])`", timed(lambda cm, k: cm.update([actual[k]], [predicted[k]]))),
            ("`update_indices([a], [p])`", timed(lambda cm, k: cm.update_indices([actual[k]], [predicted[k]]))),
            ("`update_indices(array, array)`", timed(lambda cm, k: cm.update_indices(*arrays[k]))),
            ("`update_one` and `revert([a], [p])`, in turn", timed(revert)),
            ("`Windowed(size=1,000).update([a], [p])`", per_event(windowed, n))]  # fmt: skip


def reads(m: int, calls: int = 20_000) -> list[tuple[str, float, float]]:
    """A read of a stream's matrix against numpy on the same counts (microseconds a call)."""
    actual, predicted = stream(5_000, m, seed=1)
    cm = ConfusionMatrix(list(range(m)))
    for a, p in zip(actual, predicted):
        cm.update([a], [p])
    counts = cm.to_array()
    whole = ConfusionMatrix.from_predictions(actual, predicted, labels=list(range(m)))  # made in one batch: its margins made at its first read

    def accuracy_floor() -> float:
        return float(np.trace(counts) / counts.sum())

    def f1_floor() -> float:
        tp = np.diag(counts)
        both = counts.sum(axis=0) + counts.sum(axis=1)
        present = both > 0
        return float((2 * tp[present] / both[present]).mean())

    def timed(function: Callable[[], object]) -> float:
        return per_event(lambda: [function() for _ in range(calls)], calls)

    rows = []
    for name, ours, floor in (("get_accuracy()", cm.get_accuracy, accuracy_floor),
                              ('average("f1_score", "macro")', lambda: cm.average("f1_score", "macro"), f1_floor),
                              ('average("f1_score", "macro") of a matrix made whole', lambda: whole.average("f1_score", "macro"), f1_floor)):  # fmt: skip
        assert abs(float(ours()) - floor()) < 1e-12
        rows.append((name, timed(ours), timed(floor)))
    return rows


def steady(window: Windowed, actual: list, score: list, start: int) -> Windowed:
    """A window of scores in its steady state, as timed: a first batch of its size, then single
    events up to ``start`` (twice the size: the batch has left, one sample at a time)."""
    size = window.size
    assert size is not None
    window.update(actual[:size], score[:size])
    for k in range(size, start):
        window.update([actual[k]], [score[k]])
    return window


def auc_window(n: int, size: int = 10_000) -> tuple[float, float, float]:
    """Per event: a window's exact ROC AUC, recomputing it from the window's scores, River's."""
    from river import metrics

    rng = np.random.default_rng(2)
    start = 2 * size  # timed from here: the window holds single events (the first batch has left, one sample at a time)
    labels = rng.integers(0, 2, start + n)
    scores = np.round(labels * 0.3 + rng.random(start + n), 3)  # rounded: ties, as scores of a model often have
    actual, score = labels.tolist(), scores.tolist()

    window = steady(Windowed(CurveCounts(), size=size), actual, score, start)

    def ours() -> None:
        for k in range(start, start + n):
            window.update([actual[k]], [score[k]])
            window.roc_auc()

    def again() -> None:
        for k in range(start, start + n // 20):
            ThresholdCurve.from_scores(actual[k - size + 1 : k + 1], score[k - size + 1 : k + 1]).roc_auc()

    rolling = metrics.RollingROCAUC(window_size=size)
    for k in range(start):
        rolling.update(actual[k], score[k])

    def river() -> None:
        for k in range(start, start + n):
            rolling.update(actual[k], score[k])
            rolling.get()

    return per_event(ours, n, 1), per_event(again, n // 20, 1), per_event(river, n, 1)


def other_kinds(n: int) -> list[tuple[str, float, str]]:
    """Per event, the other counted kinds of a stream: a decayed matrix, a window of label sets
    (with River's rolling micro F1), a regressor's sums (with River's ``R2`` and its ``Rolling``
    beside them)."""
    from river import metrics, utils

    from evalkit import Faded, RegressionMetrics

    actual, predicted = stream(n, 10, seed=5)
    rng = np.random.default_rng(6)
    y = rng.normal(size=n).tolist()
    p = (np.array(y) + rng.normal(scale=0.3, size=n)).tolist()

    def faded() -> None:
        view = Faded(ConfusionMatrix(list(range(10))), factor=0.999)
        for a, b in zip(actual, predicted):
            view.update([a], [b])
            view.get_accuracy()

    def regression(window: int | None) -> Callable[[], None]:
        def loop() -> None:
            if window is None:
                metrics = RegressionMetrics()
                for a, b in zip(y, p):
                    metrics.update_one(a, b)
                    metrics.get_r_squared()
                return
            view = Windowed(RegressionMetrics(), size=window)
            for a, b in zip(y, p):
                view.update([a], [b])
                view.get_r_squared()

        return loop

    class FourSums:
        """The floor of a stream's R² in plain Python: four float sums, called as evalkit is."""

        def __init__(self) -> None:
            self.n = self.y = self.yy = self.ee = 0.0

        def update_one(self, y: float, p: float) -> None:
            self.n += 1
            self.y += y
            self.yy += y * y
            self.ee += (y - p) * (y - p)

        def get_r_squared(self) -> float:
            sst = self.yy - self.y * self.y / self.n
            return 1.0 - self.ee / sst if sst else float("nan")

    def floor() -> None:
        view = FourSums()
        for a, b in zip(y, p):
            view.update_one(a, b)
            view.get_r_squared()

    def river(window: int | None) -> Callable[[], None]:
        def loop() -> None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                metric = metrics.R2() if window is None else utils.Rolling(metrics.R2(), window)
            for a, b in zip(y, p):
                metric.update(a, b)
                metric.get()

        return loop

    sets = [({"a", "b", "c"} & set(rng.choice(["a", "b", "c", "d"], 2).tolist()), {"a", "b", "c"} & set(rng.choice(["a", "b", "c", "d"], 2).tolist()))
            for _ in range(n)]  # fmt: skip

    def label_sets() -> None:
        view = Windowed(LabelSetCounts(["a", "b", "c"]), size=1_000)
        for truth, guess in sets:
            view.update([truth], [guess])
            view.average("f1_score", "micro")

    def river_sets() -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            metric = utils.Rolling(metrics.multioutput.MicroAverage(metrics.F1()), 1_000)
        for truth, guess in sets:
            metric.update({label: label in truth for label in "abc"}, {label: label in guess for label in "abc"})
            metric.get()

    sets_ours, sets_river = side_by_side([label_sets, river_sets], n)
    one_ours, one_river, one_floor = side_by_side([regression(None), river(None), floor], n)
    window_ours, window_river = side_by_side([regression(1_000), river(1_000)], n)
    return [("`Faded(factor=0.999)` of a matrix (10 classes): update, `get_accuracy()`", per_event(faded, n), "n/a"),
            ("`Windowed(LabelSetCounts(3 labels), size=1,000)`: update, micro F1", sets_ours, f"{sets_river:.1f} (`Rolling(MicroAverage(F1()), 1000)`)"),
            ("`RegressionMetrics`: `update_one(y, p)`, `get_r_squared()`", one_ours, f"{one_river:.1f} (`R2`)"),
            ("the floor of that loop: a plain Python class of four float sums, `update_one(y, p)`, its R²", one_floor, ""),
            ("`Windowed(RegressionMetrics(), size=1,000)`: update, `get_r_squared()`", window_ours, f"{window_river:.1f} (`Rolling(R2(), 1000)`)")]  # fmt: skip


def calibration_windows(n: int, size: int = 1_000) -> list[tuple[str, float, float]]:
    """Per event: a window's calibration error, and the calibration of its samples counted
    again at every event (River has no calibration measure)."""
    rng = np.random.default_rng(4)
    start = 2 * size
    scores = np.round(rng.random(start + n), 3)
    labels = (rng.random(start + n) < scores).astype(int)
    actual, score = labels.tolist(), scores.tolist()
    rows = []
    for bins in (None, 15):
        window = steady(Windowed(CalibrationCounts(bins=bins), size=size), actual, score, start)

        def ours(window: Windowed = window) -> None:
            for k in range(start, start + n):
                window.update([actual[k]], [score[k]])
                window.calibration().error()

        def again(bins: int | None = bins) -> None:
            for k in range(start, start + n // 5):
                Calibration.from_scores(actual[k - size + 1 : k + 1], score[k - size + 1 : k + 1], bins=bins).error()

        kind = "exact" if bins is None else f"{bins} bins"
        rows.append((kind, per_event(ours, n, 1), per_event(again, n // 5, 1)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--output")
    options = parser.parse_args()
    n = options.events
    loops(2_000, 3, None)  # a warm-up of both contenders: the first row is not timed on a cold interpreter
    lines = [f"Per event, microseconds; {n:,} events; Python {sys.version.split()[0]}.", "",
             "| loop | classes | evalkit | River | River / evalkit | largest difference of macro F1 |", "|---|---:|---:|---:|---:|---:|"]  # fmt: skip
    for window in (None, 1_000):
        for m in (3, 10, 100):
            ours, river, difference = loops(n, m, window)
            name = "prequential" if window is None else f"sliding window of {window:,}"
            lines.append(f"| {name} | {m} | {ours:.1f} | {river:.1f} | {river / ours:.2f} | {difference:.1e} |")
    lines += ["", "| one-event update, then `get_accuracy()` and a macro F1 (10 classes) | evalkit |", "|---|---:|"]
    lines += [f"| {name} | {ours:.1f} |" for name, ours in update_paths(n)]
    lines += ["", "| read of a stream's matrix | classes | evalkit | numpy floor | evalkit / floor |", "|---|---:|---:|---:|---:|"]
    for m in (3, 10, 100):
        for name, ours, floor in reads(m):
            lines.append(f"| `{name}` | {m} | {ours:.2f} | {floor:.2f} | {ours / floor:.2f} |")
    lines += ["", "| other counted kinds, per event | evalkit | River |", "|---|---:|---:|"]
    lines += [f"| {name} | {ours:.1f} | {theirs} |" for name, ours, theirs in other_kinds(n // 4)]
    ours, again, river = auc_window(max(200, n // 40))
    lines += ["", "| exact ROC AUC of a window of 10,000, per event | evalkit `Windowed` | recomputed | River `RollingROCAUC` | recomputed / evalkit |",
              "|---|---:|---:|---:|---:|", f"| one new score, one read | {ours:.0f} | {again:.0f} | {river:.0f} | {again / ours:.1f} |"]  # fmt: skip
    lines += ["", "| calibration of a window of 1,000, per event: one new score, its error read | evalkit `Windowed` | recomputed | recomputed / evalkit |",
              "|---|---:|---:|---:|"]  # fmt: skip
    lines += [f"| `CalibrationCounts`, {kind} | {ours:.0f} | {again:.0f} | {again / ours:.1f} |" for kind, ours, again in calibration_windows(max(200, n // 40))]
    text = "\n".join(lines) + "\n"
    if options.output:
        with open(options.output, "w", encoding="utf-8") as file:
            file.write(text)
    print(text)


if __name__ == "__main__":
    main()
