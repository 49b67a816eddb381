"""How every benchmark times and weighs a workload: the best of some runs, and the peak of
memory one run allocates (tracemalloc)."""

from __future__ import annotations

import gc
import time
import tracemalloc
from collections.abc import Callable


def best_time(function: Callable[[], object], repeats: int) -> float:
    """The shortest of ``repeats`` runs, in seconds (garbage collected before each)."""
    best = float("inf")
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def peak_bytes(function: Callable[[], object]) -> int:
    """The peak of memory one run allocates, in bytes."""
    gc.collect()
    tracemalloc.start()
    function()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak
