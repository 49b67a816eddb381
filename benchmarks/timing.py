"""How every benchmark times and weighs a workload: the best of some runs, and the peak of
memory one run allocates (tracemalloc)."""

from __future__ import annotations

import functools
import gc
import os
import time
import tracemalloc
from collections.abc import Callable, Sequence
from typing import TypeVar

Result = TypeVar("Result", float, tuple[float, float])  # a time, or a time and a memory


def without_huge_pages() -> None:
    """Turn numpy's requests for transparent huge pages off (``NUMPY_MADVISE_HUGEPAGE=0``), in this
    process and in the ones it starts, for every contender alike. Where Linux compacts memory on
    such a request (``/sys/kernel/mm/transparent_hugepage/defrag`` set to ``madvise``), a large
    new array may stall while it does: after a process had freed much memory, the same call took
    1 to 3.5 times as long at random on the machine of the tables."""
    os.environ["NUMPY_MADVISE_HUGEPAGE"] = "0"
    try:
        from numpy._core.multiarray import _set_madvise_hugepage  # type: ignore[attr-defined]
    except ImportError:  # numpy 1.x
        from numpy.core.multiarray import _set_madvise_hugepage  # type: ignore[attr-defined,no-redef]
    _set_madvise_hugepage(False)


def best_time(function: Callable[[], object], repeats: int) -> float:
    """The shortest of ``repeats`` runs, in seconds (garbage collected before each)."""
    best = float("inf")
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def interleaved(measurements: Sequence[Callable[[], Result]], repeats: Sequence[int]) -> list[Result]:
    """The least result of each measurement (a time, or a time and a memory), the runs
    interleaved: round ``r`` runs every measurement that has more than ``r`` repeats, in order,
    so that a slow spell of the machine (memory being compacted, a neighbour's job) falls on
    every contender alike, not on the one timed during it."""
    found: list[list[Result]] = [[] for _ in measurements]
    for round_ in range(max(repeats, default=0)):
        for results, measure, wanted in zip(found, measurements, repeats):
            if wanted > round_:
                results.append(measure())
    return [min(results) for results in found]


def best_times(functions: dict[str, Callable[[], object]], repeats: dict[str, int]) -> dict[str, float]:
    """The shortest run of each function, in seconds, in interleaved rounds (``interleaved``)."""
    timed = [functools.partial(best_time, function, 1) for function in functions.values()]
    return dict(zip(functions, interleaved(timed, [repeats[name] for name in functions])))


def peak_bytes(function: Callable[[], object]) -> int:
    """The peak of memory one run allocates, in bytes."""
    gc.collect()
    tracemalloc.start()
    function()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak
