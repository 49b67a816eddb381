"""Adjusted p-values of a family of tests: the chance of one false rejection among them all.

``adjust(p_values, correction)`` for any family: ``"bonferroni"`` (``m p``), ``"holm"`` (Holm
1979: step-down, ``max_{j<=i} (m - j + 1) p_(j)``) or ``"none"``. For the ``k (k - 1) / 2``
pairwise comparisons of ``k`` models two procedures use the logic of the family (García &
Herrera 2008, "An extension on 'Statistical comparisons of classifiers over multiple data sets'
for all pairwise comparisons"): ``"shaffer"`` (Shaffer 1986, static: the step-down factor is
the largest number of hypotheses that can still be true) and ``"bergmann-hommel"`` (Bergmann &
Hommel 1988: the maximum of ``|I| min_{j in I} p_j`` over every exhaustive set ``I`` holding the
hypothesis: the sets of equal pairs of a partition of the models; exhaustive up to
``BERGMANN_HOMMEL_MODELS`` models). Every adjusted p-value is at most 1.

Examples:
    >>> adjust([0.01, 0.04, 0.03], "holm").round(4).tolist()
    [0.03, 0.06, 0.06]
    >>> adjust_pairwise([0.01, 0.04, 0.03], 3, "shaffer").round(4).tolist()  # 3 models: pairs ab, ac, bc
    [0.03, 0.04, 0.03]
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from itertools import combinations

import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine._validation import check_choice, show
from evalkit.exceptions import InvalidArgumentError, UnsupportedSettingError

CORRECTIONS = ("holm", "bonferroni", "none")
"""The adjustments of any family of tests."""

PAIRWISE_CORRECTIONS = (*CORRECTIONS, "shaffer", "bergmann-hommel")
"""The adjustments of all pairwise comparisons of several models."""

BERGMANN_HOMMEL_MODELS = 9
"""Bergmann-Hommel looks at every partition of the models: 21,147 of 9 models, 115,975 of 10."""

__all__ = ["BERGMANN_HOMMEL_MODELS", "CORRECTIONS", "PAIRWISE_CORRECTIONS", "adjust", "adjust_pairwise"]


def _checked(p_values: ArrayLike) -> np.ndarray:
    p = np.asarray(p_values, dtype=np.float64).ravel()
    if p.size and (np.isnan(p).any() or p.min() < 0 or p.max() > 1):
        raise InvalidArgumentError(f"'p_values' must lie in [0, 1], got {show(p)}")
    return p


def _step_down(p: np.ndarray, factors: np.ndarray) -> np.ndarray:
    """``max_{j<=i} factor_j p_(j)`` over the p-values in increasing order, at most 1."""
    order = np.argsort(p, kind="stable")
    stepped = np.minimum(1.0, np.maximum.accumulate(p[order] * factors))
    adjusted = np.empty_like(p)
    adjusted[order] = stepped
    return adjusted


def adjust(p_values: ArrayLike, correction: str = "holm") -> np.ndarray:
    """The p-values adjusted for their number ``m``: Holm's step-down, Bonferroni or none.

    Examples:
        >>> adjust([0.01, 0.02], "bonferroni").tolist()
        [0.02, 0.04]
    """
    check_choice("correction", correction, CORRECTIONS)
    p = _checked(p_values)
    m = p.size
    if correction == "bonferroni":
        return np.minimum(1.0, p * m)
    if correction == "holm":
        return _step_down(p, m - np.arange(m, dtype=np.float64))
    return p.copy()


@functools.cache
def _possible_true_counts(k: int) -> frozenset[int]:
    """How many of the pairwise hypotheses of ``k`` models can be true at once (Shaffer 1986):
    ``S(k) = ∪_{j=1..k} {C(j, 2) + x : x in S(k - j)}``, ``S(0) = S(1) = {0}``."""
    if k <= 1:
        return frozenset({0})
    return frozenset(j * (j - 1) // 2 + x for j in range(1, k + 1) for x in _possible_true_counts(k - j))


@functools.cache
def _shaffer_factors(k: int) -> np.ndarray:
    """At step ``j`` (``j - 1`` hypotheses rejected) the largest possible number of true ones."""
    m = k * (k - 1) // 2
    possible = np.array(sorted(_possible_true_counts(k)), dtype=np.float64)
    factors = possible[np.searchsorted(possible, m - np.arange(m), side="right") - 1]
    factors.flags.writeable = False
    return factors


def _partitions(items: Sequence[int]) -> list[list[list[int]]]:
    if not items:
        return [[]]
    first, rest = items[0], items[1:]
    found = []
    for partition in _partitions(rest):
        found.append([[first], *partition])
        for i in range(len(partition)):
            found.append([*partition[:i], [first, *partition[i]], *partition[i + 1 :]])
    return found


@functools.cache
def _exhaustive_sets(k: int) -> np.ndarray:
    """Every exhaustive set of the pairwise hypotheses of ``k`` models, as a boolean matrix
    (one row per partition of the models with a block of two or more; a column per pair)."""
    pairs = {pair: column for column, pair in enumerate(combinations(range(k), 2))}
    rows = []
    for partition in _partitions(list(range(k))):
        row = np.zeros(len(pairs), dtype=bool)
        for block in partition:
            for pair in combinations(sorted(block), 2):
                row[pairs[pair]] = True
        if row.any():
            rows.append(row)
    return np.array(rows).reshape(len(rows), len(pairs))


def adjust_pairwise(p_values: ArrayLike, k: int, correction: str = "holm") -> np.ndarray:
    """The p-values of the ``k (k - 1) / 2`` pairs of ``k`` models (in the order of
    ``itertools.combinations(range(k), 2)``), adjusted by ``correction``: one of
    ``PAIRWISE_CORRECTIONS``.

    Raises:
        UnsupportedSettingError: Bergmann-Hommel for more than ``BERGMANN_HOMMEL_MODELS`` models.
    """
    check_choice("correction", correction, PAIRWISE_CORRECTIONS)
    p = _checked(p_values)
    if p.size != k * (k - 1) // 2:
        raise InvalidArgumentError(f"{k} models have {k * (k - 1) // 2} pairs, got {p.size} p-values")
    if correction in CORRECTIONS:
        return adjust(p, correction)
    if correction == "shaffer":
        return _step_down(p, _shaffer_factors(k))
    if k > BERGMANN_HOMMEL_MODELS:
        raise UnsupportedSettingError(
            f"Bergmann-Hommel's procedure looks at every partition of the models, exhaustively up to {BERGMANN_HOMMEL_MODELS} "
            f"models ({k} given); use 'shaffer', nearly as powerful"
        )
    sets = _exhaustive_sets(k)
    value = sets.sum(axis=1) * np.where(sets, p, np.inf).min(axis=1)  # |I| min_{j in I} p_j of every set
    return np.minimum(1.0, np.where(sets, value[:, None], 0.0).max(axis=0))
