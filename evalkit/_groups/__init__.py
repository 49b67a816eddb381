"""Groups: results split by a column, by raters, or by neighborhoods.

Evaluation by group (``ByGroup``, ``by_group``) and fairlearn's fairness measures of it
(``fairness``), the names this package gives; agreement among raters (``agreement``); and
neighborhood systems with absolute accuracy and relative accuracy rate (``neighborhood``).

May import: the engine, measures, results and scores.
"""

from typing import TYPE_CHECKING

from evalkit._engine import moved_names
from evalkit._groups import _by_group, fairness
from evalkit._groups._by_group import *
from evalkit._groups.fairness import *

__all__ = _by_group.__all__ + fairness.__all__


if not TYPE_CHECKING:  # the names this module gave in evalkit 0.1.0 and lost, found with a warning
    __getattr__ = moved_names.finder(__name__)
