"""The metrics class of a result: the class whose getters are the result's measures.

Every result holds one (``metrics_class=``) and looks measure names up in it. Results never
import the face that defines the default: the Java-style face registers
``ClassificationMetrics`` here when it is imported (``import evalkit`` imports it), and
results ask ``default_metrics_class()``.

Examples:
    >>> from evalkit import ClassificationMetrics
    >>> default_metrics_class() is ClassificationMetrics
    True
"""

from __future__ import annotations

from typing import Any, TypeAlias

from evalkit._engine._validation import show
from evalkit.exceptions import InvalidTypeError

MetricsClass: TypeAlias = "type[Any]"
"""A metrics class: ``ClassificationMetrics`` or a subclass of it."""

_DEFAULT: list[type] = []


def set_default_metrics_class(metrics_class: type) -> None:
    """Register the default metrics class (done once, by ``evalkit._java``)."""
    _DEFAULT[:] = [metrics_class]


def default_metrics_class() -> MetricsClass:
    """The metrics class of a result made without ``metrics_class=``."""
    if not _DEFAULT:
        raise RuntimeError("no default metrics class is registered: evalkit._java registers it when evalkit is imported")
    return _DEFAULT[0]


def check_metrics_class(metrics_class: Any) -> MetricsClass:
    """``metrics_class`` if it is the default metrics class or a subclass (``None``: the default).

    Raises:
        InvalidTypeError: anything else.
    """
    default = default_metrics_class()
    if metrics_class is None:
        return default
    if not (isinstance(metrics_class, type) and issubclass(metrics_class, default)):
        raise InvalidTypeError(f"'metrics_class' must be {default.__qualname__} or a subclass of it, got {show(metrics_class)}")
    return metrics_class


def metrics_class_for(metrics_class: Any, default: MetricsClass | None) -> MetricsClass:
    """The metrics class a call uses: ``metrics_class`` when given (checked), else ``default``
    (a result's own), else the default metrics class."""
    return check_metrics_class(metrics_class if metrics_class is not None else default)


def merged_metrics_class(first: MetricsClass, second: MetricsClass) -> MetricsClass:
    """The metrics class of two results counted together: the same class, or the more specific
    of two where one derives from the other (a default result merges into a subclass's).

    Raises:
        InvalidTypeError: two unrelated classes (their measures may differ).
    """
    if issubclass(first, second):
        return first
    if issubclass(second, first):
        return second
    raise InvalidTypeError(
        f"cannot merge results of different metrics classes, {first.__qualname__} and {second.__qualname__}: "
        "give both the same metrics_class"
    )
