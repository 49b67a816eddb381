"""T-norms: the fuzzy AND that turns soft (probability) labels into soft cells."""

from typing import TYPE_CHECKING

from evalkit._engine import moved_names
from evalkit._engine.tnorms import *
from evalkit._engine.tnorms import __all__

moved_names.publish(__name__, globals(), __all__)

if not TYPE_CHECKING:  # the other names this path gave before it was a face, found with a warning
    __getattr__ = moved_names.finder(__name__, behind="evalkit._engine.tnorms")
