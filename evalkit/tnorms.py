"""T-norms: the fuzzy AND that turns soft (probability) labels into soft cells.

For actual and predicted degrees ``a, p`` in [0, 1] a t-norm ``T`` gives the cells
``TP = T(a, p)``, ``FP = T(1 - a, p)``, ``FN = T(a, 1 - p)``, ``TN = T(1 - a, 1 - p)``.
Three are built in:

* ``"product"``: ``T(a, b) = a b``. The only one of the three that keeps the marginals:
  ``TP + FN = a``, ``TP + FP = p`` and the four cells sum to 1, so soft micro precision is
  ``<A, P> / σ1(P)``, recall ``<A, P> / σ1(A)`` and F1 ``2<A, P> / (σ1(A) + σ1(P))``.
* ``"minimum"`` (Gödel): ``T(a, b) = min(a, b)``.
* ``"lukasiewicz"``: ``T(a, b) = max(0, a + b - 1)``.

Any vectorised callable ``T(a, b)`` works too; it is checked on a grid for the t-norm
boundary (``T(x, 1) = x``, ``T(x, 0) = 0``), commutativity and monotonicity.

Examples:
    >>> cells = [round(float(product(a, b)), 2) for a, b in ((0.7, 0.6), (0.3, 0.6), (0.7, 0.4), (0.3, 0.4))]
    >>> cells  # TP, FP, FN, TN for a = 0.7, p = 0.6
    [0.42, 0.18, 0.28, 0.12]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from evalkit._validation import show
from evalkit.exceptions import InvalidArgumentError, InvalidTypeError

__all__ = ["TNORMS", "get_tnorm", "lukasiewicz", "minimum", "product"]

TNorm = Callable[[np.ndarray, np.ndarray], np.ndarray]


def product(a: Any, b: Any) -> Any:
    """Product t-norm ``a b`` (probabilistic AND; keeps the marginals)."""
    return np.multiply(a, b)


def minimum(a: Any, b: Any) -> Any:
    """Minimum (Gödel) t-norm ``min(a, b)``."""
    return np.minimum(a, b)


def lukasiewicz(a: Any, b: Any) -> Any:
    """Łukasiewicz t-norm ``max(0, a + b - 1)``."""
    return np.maximum(0.0, np.add(a, b) - 1.0)


TNORMS: dict[str, TNorm] = {"product": product, "minimum": minimum, "lukasiewicz": lukasiewicz}
"""The built-in t-norms by name."""

_GRID = np.linspace(0.0, 1.0, 11)


def get_tnorm(tnorm: str | TNorm) -> TNorm:
    """Resolve a t-norm given by name or as a vectorised callable ``T(a, b)``.

    Raises:
        InvalidArgumentError: an unknown name, or a callable that is not a t-norm on the
            probe grid (boundary, commutativity, monotonicity).
    """
    if isinstance(tnorm, str):
        if tnorm not in TNORMS:
            raise InvalidArgumentError(f"'tnorm' must be one of {', '.join(map(repr, TNORMS))} or a callable; got {tnorm!r}")
        return TNORMS[tnorm]
    if not callable(tnorm):
        raise InvalidTypeError(f"'tnorm' must be a name or a callable T(a, b), got {show(tnorm)}")
    a, b = np.meshgrid(_GRID, _GRID, indexing="ij")
    values = np.asarray(tnorm(a, b), dtype=np.float64)
    checks = {
        "T(x, 1) = x": np.allclose(np.asarray(tnorm(_GRID, np.ones_like(_GRID)), dtype=float), _GRID),
        "T(x, 0) = 0": np.allclose(np.asarray(tnorm(_GRID, np.zeros_like(_GRID)), dtype=float), 0.0),
        "T(a, b) = T(b, a)": values.shape == a.shape and np.allclose(values, values.T),
        "monotone": values.shape == a.shape and bool((np.diff(values, axis=0) >= -1e-12).all()),
    }
    failed = [name for name, ok in checks.items() if not ok]
    if failed:
        raise InvalidArgumentError(f"'tnorm' {getattr(tnorm, '__name__', tnorm)!r} is not a t-norm: fails {', '.join(failed)}")
    return tnorm
