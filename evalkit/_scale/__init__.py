"""Scale: results counted as data arrive or where data live.

Stream counters that update batch by batch and merge across threads (``streaming``), results
over time (``windows``: sliding and time windows, decay, tumbling windows; ``prequential``:
predictions counted when their late labels arrive) and distributed
evaluation with Dask (``dask``, the optional ``dask`` extra).

May import: every layer below: engine, measures, results, scores, groups, the faces and io.
"""
