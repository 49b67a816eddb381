"""Results of the algebraic framework, as features: what the measure metadata makes computable."""

from typing import TYPE_CHECKING

from evalkit._engine import moved_names
from evalkit._results.theory import *
from evalkit._results.theory import __all__

moved_names.publish(__name__, globals(), __all__)

if not TYPE_CHECKING:  # the other names this path gave before it was a face, found with a warning
    __getattr__ = moved_names.finder(__name__, behind="evalkit._results.theory")
