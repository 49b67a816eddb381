"""The Java-style face: the objects Deep Netts users know, with ``get_*`` getters.

``ClassificationMetrics`` (one class's metrics, ``create_from``, ``average``), ``Stats`` (the
summary of many) and ``EvaluationMetrics`` (a named bag of values). Importing this package
registers ``ClassificationMetrics`` as the default metrics class of every result.

May import: the engine, measures, results, scores and groups.
"""
