"""How every benchmark times and weighs a workload: the best of some runs, and the peak of
memory one run allocates (tracemalloc)."""

from __future__ import annotations

import gc
import os
import time
import tracemalloc
from collections.abc import Callable


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


def best_times(functions: dict[str, Callable[[], object]], repeats: dict[str, int]) -> dict[str, float]:
    """The shortest run of each function, in seconds, the runs interleaved (round ``r`` runs
    every function that has more than ``r`` repeats, in order): a slow spell of the machine
    (memory being compacted, a neighbour's job) falls on every contender alike, not on the
    one timed during it."""
    best = dict.fromkeys(functions, float("inf"))
    for round_ in range(max(repeats.values(), default=0)):
        for name, function in functions.items():
            if repeats[name] > round_:
                best[name] = min(best[name], best_time(function, 1))
    return best


def peak_bytes(function: Callable[[], object]) -> int:
    """The peak of memory one run allocates, in bytes."""
    gc.collect()
    tracemalloc.start()
    function()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak
