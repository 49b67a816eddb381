"""Groups: results split by a column, by raters, or by neighborhoods.

Evaluation by group and fairness gaps (``ByGroup``, ``by_group`` and the fairness measures:
the names this package gives), agreement among raters (``agreement``) and neighborhood
systems with absolute accuracy and relative accuracy rate (``neighborhood``).

May import: the engine, measures, results and scores.
"""

from evalkit.groups import _by_group
from evalkit.groups._by_group import *

__all__ = _by_group.__all__
