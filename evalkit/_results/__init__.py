"""Results: counted evaluations and what is read from them.

The result base (``base``: ``CellsResult``, the names this package gives), evaluations of
every setting (``evaluation``, with the constructors of each setting in ``constructors``),
the single-label confusion matrix (``confusion_matrix``), intervals and comparisons
(``intervals``), the framework's identities (``theory``), the counted-state protocol
(``counted``), kinds declared as sums (``_summed``: ``evalkit.SummedState``) and a
regressor's counted state (``_regression_state``, under ``RegressionMetrics``' getters).

May import: the engine and measures. Results know no face: the default metrics class comes
from the measure registry and rendering from the report layer, both found at run time.
"""

from typing import TYPE_CHECKING

import evalkit._results.base as _base
from evalkit._engine import moved_names
from evalkit._results.base import *

__all__ = _base.__all__


if not TYPE_CHECKING:  # the names this module gave in evalkit 0.1.0 and lost, found with a warning
    __getattr__ = moved_names.finder(__name__)
