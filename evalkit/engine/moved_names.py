"""Names a module gave in an earlier release that live in another module now.

A module that lost names ends with ``__getattr__ = moved_names.finder(__name__)``: a name it
no longer has is then looked up in a table of homes, imported from there when first asked for,
and given with a ``DeprecationWarning`` that names its home. The table is written once, at the
top of the package (``evalkit._moved``, which may name every layer), and given to this module
by ``register``: this floor names no module above it.

Examples:
    >>> register("example.old", {"moved_function": "evalkit.engine._validation.show"})
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     show = finder("example.old")("moved_function")
    >>> show.__name__, str(caught[0].message)
    ('show', 'example.old.moved_function is no longer a name of example.old: import evalkit.engine._validation.show')
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Mapping

__all__ = ["finder", "register"]

_HOMES: dict[str, tuple[str, dict[str, str]]] = {}
"""Module -> (the path users knew it by, {a name it lost: the dotted path of its home})."""


def register(module: str, homes: Mapping[str, str], *, known_as: str | None = None) -> None:
    """Record where the names ``module`` lost live now (``{name: "evalkit.x.y.name"}``; a home
    that is a module, ``"evalkit.x.y"``, is that module); ``known_as``: the module's path in
    the release that had the names, if it moved since."""
    _HOMES[module] = (known_as or module, {**_HOMES.get(module, ("", {}))[1], **homes})


def finder(module: str) -> Callable[[str], object]:
    """A module ``__getattr__`` for ``module`` that finds the names it lost (see the module)."""

    def __getattr__(name: str) -> object:
        known_as, homes = _HOMES.get(module, (module, {}))
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        warnings.warn(f"{known_as}.{name} is no longer a name of {known_as}: import {home}", DeprecationWarning, stacklevel=2)
        parent, _, attribute = home.rpartition(".")
        found = importlib.import_module(parent)
        return getattr(found, attribute) if hasattr(found, attribute) else importlib.import_module(home)

    return __getattr__
