"""Names a module gave in an earlier release that live in another module now.

A module that lost names ends with ``__getattr__ = moved_names.finder(__name__)``: a name it
no longer has is then looked up in a table of homes, imported from there when first asked for,
and given with a ``DeprecationWarning`` that names its home. The table is written once, at the
top of the package (``evalkit._moved``, which may name every layer), and given to this module
by ``register``: this floor names no module above it.

Examples:
    >>> register("example.old", {"moved_function": "evalkit._engine._validation.show", "matrix": "evalkit._results.confusion_matrix.ConfusionMatrix"})
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     show = finder("example.old")("moved_function")
    >>> show.__name__, str(caught[0].message)
    ('show', 'example.old.moved_function is no longer a name of example.old: it is private now, and goes in the next release')
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = finder("example.old")("matrix")
    >>> str(caught[0].message)
    'example.old.matrix is no longer a name of example.old: import ConfusionMatrix from evalkit'
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
import typing
import warnings
from collections.abc import Callable, Mapping

__all__ = ["finder", "publish", "register"]

_HOMES: dict[str, tuple[str, dict[str, str]]] = {}
"""Module -> (the path users knew it by, {a name it lost: the dotted path of its home})."""


def register(module: str, homes: Mapping[str, str], *, known_as: str | None = None) -> None:
    """Record where the names ``module`` lost live now (``{name: "evalkit.x.y.name"}``; a home
    that is a module, ``"evalkit.x.y"``, is that module); ``known_as``: the module's path in
    the release that had the names, if it moved since."""
    _HOMES[module] = (known_as or module, {**_HOMES.get(module, ("", {}))[1], **homes})


def finder(module: str, behind: str | None = None, lazy: Mapping[str, str] | None = None) -> Callable[[str], object]:
    """A module ``__getattr__`` for ``module`` that finds the names it lost (see the module).

    For a face: ``lazy`` maps a public name to the private module that defines it, imported on
    first use (so ``import evalkit`` stays quick; that module ``publish``-es it under the face);
    ``behind`` is the private module whose public names it gives: the other names that module
    has (its helpers, which the face's path gave before it was a face) are found there, with a
    warning.
    """

    def __getattr__(name: str) -> object:
        if lazy is not None and name in lazy:
            found = vars(importlib.import_module(module))[name] = getattr(importlib.import_module(lazy[name]), name)  # found once: the face holds it now
            return found
        known_as, homes = _HOMES.get(module, (module, {}))
        home = homes.get(name)
        if home is None and behind is not None and not name.startswith("_") and hasattr(importlib.import_module(behind), name):
            home = f"{behind}.{name}"
        if home is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        parent, _, attribute = home.rpartition(".")
        found = vars(importlib.import_module(parent)).get(attribute)  # (not getattr: a face's own finder would warn as well)
        if found is None:
            found = importlib.import_module(home) if importlib.util.find_spec(home) is not None else getattr(importlib.import_module(parent), attribute)
        warnings.warn(f"{known_as}.{name} is no longer a name of {known_as}: {_where(found, attribute, home)}", DeprecationWarning, stacklevel=2)
        return found

    return __getattr__


def _where(found: object, name: str, home: str) -> str:
    """Where a lost name is now, for its warning: the face that gives it, or that it is private."""
    if isinstance(found, types.ModuleType):
        return "it is private now, and goes in the next release"
    module = getattr(found, "__module__", None)
    if isinstance(module, str) and not _private(module) and vars(importlib.import_module(module)).get(name) is found:
        return f"import {name} from {module}"
    return f"import {home}" if not _private(home) else "it is private now, and goes in the next release"


def publish(face: str, namespace: Mapping[str, object], names: list[str]) -> None:
    """Give the public path ``face`` as ``__module__`` to the classes and functions of ``names``
    that a private module defines (``evalkit._results.confusion_matrix``): pickles, ``help()``,
    reprs and the API reference then name the face, and doctest finds a class's examples there.
    An object already given a face keeps it (``evalkit`` is imported first, so it wins).

    Examples:
        >>> import types
        >>> def f(): ...
        >>> f.__module__ = "evalkit._example"
        >>> publish("evalkit.example", {"f": f}, ["f"])
        >>> f.__module__
        'evalkit.example'
    """
    for name in names:
        found = namespace[name]
        module = getattr(found, "__module__", None)
        if not (isinstance(found, type) or callable(found)) or not isinstance(module, str) or not _private(module):
            continue
        if isinstance(found, type):
            _resolve_annotations(found)
            for member in _members(found):
                if getattr(member, "__module__", None) == module:
                    member.__module__ = face
        found.__module__ = face  # type: ignore[union-attr]


def _resolve_annotations(cls: type) -> None:
    """Evaluate the class's own string annotations in the module that defines it, while its
    ``__module__`` still names that module: ``typing.get_type_hints`` and
    ``attrs.resolve_types`` look names up in ``sys.modules[cls.__module__]``, the face after
    ``publish``. An annotation of a name only type checkers import stays a string, as before."""
    namespace = vars(sys.modules[cls.__module__])
    annotations = dict(vars(cls).get("__annotations__", {}))
    for name, annotation in annotations.items():
        try:
            while isinstance(annotation, (str, typing.ForwardRef)):  # (a quoted annotation is a string of a string; a NamedTuple's, a ForwardRef)
                annotation = eval(annotation if isinstance(annotation, str) else annotation.__forward_arg__, dict(namespace), dict(vars(cls)))  # evalkit's own annotations, as typing.get_type_hints evaluates them
            annotations[name] = annotation
        except Exception:  # noqa: BLE001, S110  (a name imported for type checkers only: left as text)
            pass
    if annotations:
        cls.__annotations__ = annotations


def _private(module: str) -> bool:
    return module.startswith("evalkit.") and any(part.startswith("_") for part in module.split("."))


def _members(cls: type) -> list[object]:
    """The functions and classes ``cls`` defines itself, unwrapped from ``classmethod``,
    ``staticmethod`` and ``property`` (doctest looks for examples in them by their module)."""
    found: list[object] = []
    for value in vars(cls).values():
        if isinstance(value, (classmethod, staticmethod)):
            value = value.__func__
        if isinstance(value, property):
            found += [f for f in (value.fget, value.fset, value.fdel) if f is not None]
        elif isinstance(value, type) and value.__qualname__.startswith(f"{cls.__qualname__}."):
            found += [value, *_members(value)]
        elif callable(value) and hasattr(value, "__module__"):
            found.append(value)
    return found
