"""Evaluation on a Dask cluster: partitions are counted on the workers, only counts travel.

Runs a local cluster of two worker processes (a real cluster works the same: connect a
distributed.Client to its scheduler instead).
"""

import dask.array as da
import dask.dataframe as dd
import numpy as np
import pandas as pd
from distributed import Client, LocalCluster

from evalkit import ConfusionMatrix
from evalkit import dask as evalkit_dask

if __name__ == "__main__":
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster) as client:
        print("workers:", len(client.scheduler_info()["workers"]))
        rng = da.random.default_rng(42)
        y_true = rng.integers(0, 5, 5_000_000, chunks=500_000)
        y_pred = da.where(rng.random(5_000_000, chunks=500_000) < 0.8, y_true, rng.integers(0, 5, 5_000_000, chunks=500_000))
        matrix = evalkit_dask.confusion_matrix(y_true, y_pred)
        print(matrix)
        print("accuracy", round(matrix.get_accuracy(), 4), "macro F1", round(matrix.average("f1_score", "macro"), 4))

        # columns of a Dask DataFrame, compared with the in-memory result
        frame = pd.DataFrame({"actual": np.random.default_rng(0).choice(["ham", "spam"], 100_000)})
        frame["predicted"] = np.where(np.random.default_rng(1).random(100_000) < 0.9, frame["actual"], "spam")
        table = dd.from_pandas(frame, npartitions=8)
        distributed = evalkit_dask.confusion_matrix(table["actual"], table["predicted"])
        assert distributed == ConfusionMatrix.from_predictions(frame["actual"].to_numpy(), frame["predicted"].to_numpy())
        print("DataFrame columns: same matrix as in memory:", distributed.to_array().tolist())
