"""Measures: every measure defined once, and the averages that extend it.

The registry (``registry``: ``Measure``, ``measure``, ``register``; the names this package
gives), the formulas of the four cells (``formulas``), the micro, macro, weighted and
example-based averages and the undefined-value policy (``averaging``), and measures added by
other packages (``plugins``).

May import: the engine.
"""

from typing import TYPE_CHECKING

import evalkit.measures.registry as _registry
from evalkit.engine import moved_names
from evalkit.measures.registry import *
from evalkit.measures.registry import GETTER_METADATA, Coefficients, getter_metadata  # noqa: F401  (public there before, outside __all__)

__all__ = _registry.__all__


if not TYPE_CHECKING:  # the names this module gave in evalkit 0.1.0 and lost, found with a warning
    __getattr__ = moved_names.finder(__name__)
