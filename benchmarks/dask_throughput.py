"""Throughput of evalkit.dask on a local cluster of worker processes (this machine).

    python benchmarks/dask_throughput.py [--workers 2] [--samples 100000000]

Times the confusion matrix of integer labels, and the multi-label evaluation of 0/1
indicators, held in Dask arrays generated and persisted in the workers' memory first (so that
only evalkit's counting is timed and the data never pass through this process), and prints
samples per second for the cluster and for evalkit in one process.
"""

import argparse
import time

import dask.array as da
import numpy as np
from distributed import Client, LocalCluster, wait

from evalkit import ConfusionMatrix, Evaluation
from evalkit import dask as evalkit_dask


def timed(function):
    start = time.perf_counter()
    result = function()
    return time.perf_counter() - start, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--samples", type=int, default=100_000_000)
    parser.add_argument("--chunk", type=int, default=5_000_000)
    arguments = parser.parse_args()
    n, chunk = arguments.samples, arguments.chunk
    with LocalCluster(n_workers=arguments.workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster) as client:
        rng = da.random.default_rng(0)
        y_true, y_pred = client.persist([rng.integers(0, 10, n, chunks=chunk), rng.integers(0, 10, n, chunks=chunk)])
        wait([y_true, y_pred])
        floor, _ = timed(lambda: (y_true * 10 + y_pred).sum().compute())  # one numpy pass over the same partitions
        seconds, _matrix = timed(lambda: evalkit_dask.confusion_matrix(y_true, y_pred))
        print(f"confusion matrix: {n:,} labels, {arguments.workers} workers: {seconds:.2f} s "
              f"({n / seconds / 1e6:.0f} M samples/s; one numpy pass y*10+p summed: {floor:.2f} s)")
        rows = n // 100
        actual, predicted = client.persist([rng.random((rows, 100), chunks=(chunk // 100, 100)) < 0.1,
                                            rng.random((rows, 100), chunks=(chunk // 100, 100)) < 0.1])  # fmt: skip
        wait([actual, predicted])
        seconds, evaluation = timed(lambda: evalkit_dask.evaluate_indicators(actual, predicted))
        print(f"multi-label: {rows:,} x 100 indicators, {arguments.workers} workers: {seconds:.2f} s "
              f"({rows / seconds / 1e6:.2f} M samples/s); micro F1 {evaluation.average('f1_score', 'micro'):.4f}")
    local = np.random.default_rng(0)
    size = min(n, 20_000_000)
    t, p = local.integers(0, 10, size), local.integers(0, 10, size)
    seconds, _ = timed(lambda: ConfusionMatrix.from_predictions(t, p))
    print(f"in one process: confusion matrix of {size:,} labels: {seconds:.3f} s ({size / seconds / 1e6:.0f} M samples/s)")
    a, b = local.random((size // 100, 100)) < 0.1, local.random((size // 100, 100)) < 0.1
    seconds, _ = timed(lambda: Evaluation.from_indicators(a, b))
    print(f"in one process: {size // 100:,} x 100 indicators: {seconds:.3f} s ({size / 100 / seconds / 1e6:.2f} M samples/s)")


if __name__ == "__main__":
    main()
