"""Metrics classes by name: ``package.module:Class``, and plugins published by installed packages.

A package publishes measures by naming a ``ClassificationMetrics`` subclass in the entry-point
group ``evalkit.measures`` (the Python packaging convention for plugins), for example in its
``pyproject.toml``::

    [project.entry-points."evalkit.measures"]
    screening = "screening_metrics:ScreeningMetrics"

Once the package is installed, ``evalkit report --measures number_needed_to_screen`` finds the
measure by name, and ``--metrics-class screening`` makes that class the report's metrics
class. A plugin that cannot be loaded is a ``PluginError`` naming it, never a traceback.

Results written to JSON name their metrics class (``package.module:Class``); reading a document
looks the class up among the modules already imported and the installed plugins: a document
never makes evalkit import a module.

Examples:
    >>> from evalkit import ClassificationMetrics
    >>> find_metrics_class("evalkit:ClassificationMetrics") is ClassificationMetrics
    True
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any

from evalkit._engine import moved_names
from evalkit._engine._validation import show
from evalkit.exceptions import FormatError, PluginError, UnknownMetricError
from evalkit.measures._metrics_class import MetricsClass, check_metrics_class, default_metrics_class
from evalkit.measures._registry import Measure

__all__ = [
    "ENTRY_POINT_GROUP",
    "find_measure",
    "find_metrics_class",
    "metrics_class_field",
    "metrics_class_name",
    "metrics_classes",
    "read_metrics_class",
]

ENTRY_POINT_GROUP = "evalkit.measures"
"""The entry-point group where packages name their ``ClassificationMetrics`` subclasses."""


def metrics_class_name(metrics_class: type) -> str:
    """``package.module:Class``, the name a document or the command line gives a class."""
    return f"{metrics_class.__module__}:{metrics_class.__qualname__}"


def metrics_classes() -> dict[str, MetricsClass]:
    """The metrics classes installed packages publish, by entry-point name, loaded.

    Raises:
        PluginError: a plugin cannot be imported, or names something that is not a
            ``ClassificationMetrics`` subclass.
    """
    return {entry.name: _load(entry) for entry in _entry_points()}


def _load(entry: Any) -> MetricsClass:
    source = f"the evalkit plugin {entry.name!r} ({entry.value}{_distribution(entry)})"
    try:
        loaded = entry.load()
    except Exception as error:  # noqa: BLE001 (whatever a broken plugin raises on import is reported as its fault, by name)
        raise PluginError(f"{source} cannot be loaded: {type(error).__name__}: {error}") from None
    return _checked(loaded, source)


def _distribution(entry: Any) -> str:
    dist = getattr(entry, "dist", None)
    return f", from the package {dist.name} {dist.version}" if dist is not None else ""


def _checked(found: Any, source: str) -> MetricsClass:
    if not (isinstance(found, type) and issubclass(found, default_metrics_class())):
        raise PluginError(f"{source} is {show(found)}, not a {default_metrics_class().__qualname__} subclass")
    return found


def find_metrics_class(spec: str, *, import_module: bool = True) -> MetricsClass:
    """The metrics class ``spec`` names: ``package.module:Class`` (the module is imported unless
    ``import_module=False``, which only looks among the modules already imported and the
    plugins), or the entry-point name of an installed plugin.

    Raises:
        PluginError: no such class, a module that cannot be imported, or something that is
            not a ``ClassificationMetrics`` subclass.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise PluginError(f"a metrics class is named 'package.module:Class' or by a plugin's name, got {show(spec)}")
    if ":" not in spec:
        entries = _entry_points()
        named = [entry for entry in entries if entry.name == spec]
        if named:
            return _load(named[0])
        known = ", ".join(entry.name for entry in entries) or "none is installed"
        raise PluginError(f"no evalkit plugin is named {spec!r} (plugins: {known}); a class is named 'package.module:Class'")
    module_name, _, qualname = spec.partition(":")
    module = sys.modules.get(module_name)
    if module is None:
        published = [entry for entry in _entry_points() if entry.value.replace(" ", "") == spec]
        if published:
            return _load(published[0])
        if not import_module:
            raise PluginError(f"the metrics class {spec!r} is not loaded: import {module_name} first, or pass metrics_class=")
        try:
            module = importlib.import_module(module_name)
        except Exception as error:  # noqa: BLE001 (a module that fails to import is reported by name)
            raise PluginError(f"the metrics class {spec!r} cannot be loaded: {type(error).__name__}: {error}") from None
    found: Any = module
    for part in qualname.split("."):
        found = getattr(found, part, None)
        if found is None:
            raise PluginError(f"the module {module_name} has no {qualname!r} (from {spec!r})")
    return _checked(found, f"the metrics class {spec!r}")


def metrics_class_field(metrics_class: type) -> dict[str, str]:
    """The JSON field naming a result's metrics class: none for ``ClassificationMetrics``."""
    return {} if metrics_class is default_metrics_class() else {"metrics_class": metrics_class_name(metrics_class)}


def read_metrics_class(document: dict[str, Any], given: Any = None) -> MetricsClass:
    """The metrics class of a result read from JSON: ``given`` when passed, else the one the
    document names (never importing a module), else ``ClassificationMetrics``.

    Raises:
        FormatError: the document names a class that is not loaded, or not a metrics class.
    """
    if given is not None:
        return check_metrics_class(given)
    name = document.get("metrics_class")
    if name is None:
        return default_metrics_class()
    if not isinstance(name, str):
        raise FormatError(f"field 'metrics_class' must be 'package.module:Class', got {show(name)}")
    try:
        return find_metrics_class(name, import_module=False)
    except PluginError as error:
        where = ("it was defined in a script (__main__), which another run does not have: " if name.startswith("__main__:") else
                 "its module is not imported: ")  # fmt: skip
        raise FormatError(f"field 'metrics_class': {error}; {where}pass the class itself, "
                          f"from_json(..., metrics_class={name.rsplit(':', 1)[-1]}), or import its module first") from None


def find_measure(name: str, metrics_class: MetricsClass | None = None) -> Measure:
    """A measure by name, as the command line finds it: in ``metrics_class`` when given; else
    evalkit's own (and the registered formulas), then the measures installed plugins publish.

    Raises:
        UnknownMetricError: no such measure anywhere (the message names the plugins searched).
        PluginError: a plugin cannot be loaded, or two plugins define the name.

    Examples:
        >>> find_measure("f1").name
        'f1_score'
    """
    if metrics_class is not None:
        return check_metrics_class(metrics_class).measure(name)
    try:
        return default_metrics_class().measure(name)
    except UnknownMetricError as unknown:
        plugins = metrics_classes()
        found = {}
        for plugin, published in plugins.items():
            try:
                found[plugin] = published.measure(name)
            except UnknownMetricError:
                continue
        if len(found) > 1:
            raise PluginError(f"the plugins {' and '.join(found)} both define the measure {name!r}: choose one with --metrics-class") from None
        if not found:
            searched = f"the installed plugins ({', '.join(plugins)})" if plugins else "no evalkit plugin is installed"
            raise UnknownMetricError(f"{unknown}; {searched}") from None
        return next(iter(found.values()))


def _entry_points() -> Any:
    """The installed plugins' entry points (``importlib.metadata`` is imported here, when a
    plugin is first looked for: it costs a third of ``import evalkit``)."""
    import importlib.metadata

    return importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)


if not TYPE_CHECKING:  # the names this module gave in evalkit 0.1.0 and lost, found with a warning
    __getattr__ = moved_names.finder(__name__)
