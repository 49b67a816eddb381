"""Plots (the optional ``plot`` extra: ``pip install "evalkit[plot]"``)."""

from typing import TYPE_CHECKING

from evalkit._engine import moved_names
from evalkit.io._plots import *
from evalkit.io._plots import __all__  # noqa: F401  (this face's names)

if not TYPE_CHECKING:  # the other names this path gave before it was a face, found with a warning
    __getattr__ = moved_names.finder(__name__, behind="evalkit.io._plots")
