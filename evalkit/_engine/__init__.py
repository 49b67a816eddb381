"""The engine: what every number is counted with.

Labels and their identity (``_labels``), validation at the boundary (``_validation``), exact
sums (``_exact``), the counting core (``counting``: confusion matrices by ``bincount``), the four
cells of many binary problems and their sums (``cells``), t-norms (``tnorms``), class
hierarchies (``hierarchy``) and the JSON documents of results (``serialization``).

May import: ``evalkit.exceptions`` only. Everything else in evalkit stands on this floor.
"""
