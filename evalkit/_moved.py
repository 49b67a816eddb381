"""The module paths of evalkit 0.1.0's flat layout, kept importable after the layers got folders.

``import evalkit.curves`` (or a pickle that names ``evalkit.curves.ThresholdCurve``) gives the
module that now lives at ``evalkit.scores.curves``: the same module object under its old name,
so its classes, functions and module-level state are the same objects. Nothing here is
imported by evalkit's own code, which uses the new paths.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
import warnings
from typing import Any

OLD_PATHS = {
    "evalkit._exact": "evalkit.engine._exact",
    "evalkit._labels": "evalkit.engine._labels",
    "evalkit._validation": "evalkit.engine._validation",
    "evalkit.agreement": "evalkit.groups.agreement",
    "evalkit.averaging": "evalkit.measures.averaging",
    "evalkit.calibration": "evalkit.scores.calibration",
    "evalkit.cells": "evalkit.engine.cells",
    "evalkit.classification_metrics": "evalkit.java.classification_metrics",
    "evalkit.confusion_matrix": "evalkit.results.confusion_matrix",
    "evalkit.costs": "evalkit.scores.costs",
    "evalkit.counting": "evalkit.engine.counting",
    "evalkit.curves": "evalkit.scores.curves",
    "evalkit.dask": "evalkit.scale.dask",
    "evalkit.spark": "evalkit.scale.spark",
    "evalkit.datasets": "evalkit.io.datasets",
    "evalkit.displays": "evalkit.io.displays",
    "evalkit.evaluation": "evalkit.results.evaluation",
    "evalkit.evaluation_metrics": "evalkit.java.evaluation_metrics",
    "evalkit.formulas": "evalkit.measures.formulas",
    "evalkit.gains": "evalkit.scores.gains",
    "evalkit.hierarchy": "evalkit.engine.hierarchy",
    "evalkit.html": "evalkit.io.html",
    "evalkit.intervals": "evalkit.results.intervals",
    "evalkit.neighborhood": "evalkit.groups.neighborhood",
    "evalkit.operating": "evalkit.scores.operating",
    "evalkit.plots": "evalkit.io.plots",
    "evalkit.plugins": "evalkit.measures.plugins",
    "evalkit.ranking": "evalkit.scores.ranking",
    "evalkit.readers": "evalkit.io.readers",
    "evalkit.report": "evalkit.io.report",
    "evalkit.scoring": "evalkit.scores.scoring",
    "evalkit.serialization": "evalkit.engine.serialization",
    "evalkit.settings": "evalkit.results.constructors",
    "evalkit.stats": "evalkit.java.stats",
    "evalkit.streaming": "evalkit.scale.streaming",
    "evalkit.theory": "evalkit.results.theory",
    "evalkit.tnorms": "evalkit.engine.tnorms",
}
"""Old module path -> where that module lives now. ``evalkit.measures``, ``evalkit.results``,
``evalkit.groups`` and ``evalkit.metrics`` kept their paths: they are packages now, whose
``__init__`` gives the names the old module gave."""


class OldPaths(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old module path and loads it as the module at its new path."""

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        return importlib.util.spec_from_loader(fullname, self) if fullname in OLD_PATHS else None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        module = importlib.import_module(OLD_PATHS[spec.name])
        spec.loader_state = module.__spec__  # the import system sets __spec__ to the old path's: put it back
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        """The module ran when it was imported at its new path; only its own spec is restored."""
        if module.__spec__ is not None and module.__spec__.loader_state is not None:
            module.__spec__ = module.__spec__.loader_state


def install() -> None:
    """Put the finder of old paths on ``sys.meta_path`` (once)."""
    if not any(isinstance(finder, OldPaths) for finder in sys.meta_path):
        sys.meta_path.append(OldPaths())


OLD_NAMES = {("evalkit.measures.averaging", "CellsResult"): "evalkit.results"}
"""Names that left a module: (module, name) -> the module that has the name now."""


def _old_names(module_name: str) -> Any:
    old_path = {new: old for old, new in OLD_PATHS.items()}.get(module_name, module_name)

    def __getattr__(name: str) -> Any:
        home = OLD_NAMES.get((module_name, name))
        if home is None:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        warnings.warn(f"{old_path}.{name} is now {home}.{name}", DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(home), name)

    return __getattr__


def install_old_names() -> None:
    """Give each module that lost a name a module ``__getattr__`` that finds it, with a warning."""
    for module_name in {module for module, _ in OLD_NAMES}:
        vars(importlib.import_module(module_name))["__getattr__"] = _old_names(module_name)
