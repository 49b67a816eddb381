"""scikit-learn's own test files of its metrics, read with their imports rebound to evalkit.

``rebound_source("test_regression.py", [(old, new), ...])`` gives the installed file's path and
its text with each ``old`` replaced once by ``new``; a rebinding whose ``old`` text the file no
longer has is an error, so that a new scikit-learn release cannot silently test its own
functions instead of evalkit's.
"""

from __future__ import annotations

import os

import sklearn


def rebound_source(name: str, rebindings: list[tuple[str, str]]) -> tuple[str, str]:
    """The path of ``sklearn/metrics/tests/<name>`` and its text, rebound."""
    path = os.path.join(os.path.dirname(sklearn.__file__), "metrics", "tests", name)
    with open(path, encoding="utf-8") as file:
        source = file.read()
    for old, new in rebindings:
        assert old in source, f"scikit-learn's {name} no longer has {old!r}: update the rebinding"
        source = source.replace(old, new, 1)
    return path, source
