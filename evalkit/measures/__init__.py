"""Measures: every measure defined once, by name, and the decorator that adds one.

The registry gives each measure's name, aliases, direction, bounds and formula (``Measure``);
``measure`` turns a getter of a ``ClassificationMetrics`` subclass into a measure every face
knows by name, ``register`` adds one without a class. The formulas of the four cells are
``evalkit.formulas``.

Examples:
    >>> from evalkit.measures import get_measure
    >>> get_measure("sensitivity").name, get_measure("f1").direction
    ('recall', 'higher')

Inside (private): the registry (``_registry``), the formulas (``_formulas``), the micro, macro,
weighted and example-based averages and the undefined-value policy (``_averaging``), and
measures added by other packages (``_plugins``).

May import: the engine.
"""

from typing import TYPE_CHECKING

from evalkit._engine import moved_names
from evalkit.measures._registry import (
    MEASURES,
    Measure,
    canonical_name,
    get_measure,
    measure,
    measure_names,
    register,
    resolve_measure,
    unregister,
)

__all__ = ["MEASURES", "Measure", "canonical_name", "get_measure", "measure", "measure_names", "register", "resolve_measure", "unregister"]

moved_names.publish(__name__, globals(), __all__)

if not TYPE_CHECKING:  # the other names the registry gives, and those this path gave in 0.1.0, found with a warning
    __getattr__ = moved_names.finder(__name__, behind="evalkit.measures._registry")
