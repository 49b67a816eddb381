"""The small example data sets bundled with evalkit (the first is used by the ``evalkit`` command)."""

from typing import TYPE_CHECKING

from evalkit._engine import moved_names
from evalkit.io._datasets import (  # noqa: F401  (the file names)
    COMPARISON_EXAMPLE_NAME,
    EXAMPLE_NAME,
    MANY_DATASETS_EXAMPLE_NAME,
    NEIGHBORHOOD_EXAMPLE_NAME,
    example_path,
    load_comparison,
    load_example,
    load_many_datasets,
)

__all__ = ["example_path", "load_comparison", "load_example", "load_many_datasets"]

if not TYPE_CHECKING:  # the other names this path gave before it was a face, found with a warning
    __getattr__ = moved_names.finder(__name__, behind="evalkit.io._datasets")
