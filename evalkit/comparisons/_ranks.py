"""Ranks of models over data sets and the tests built on them (Demšar 2006, "Statistical
comparisons of classifiers over multiple data sets", JMLR 7).

On ``N`` data sets and ``k`` models each data set ranks the models (1 the best, ties sharing
the mean of their ranks); ``R_j`` is model ``j``'s average rank.

* Friedman: ``χ²_F = 12 N / (k (k + 1)) [Σ_j R_j² - k (k + 1)² / 4]``, ``k - 1`` degrees of
  freedom (the plain statistic, as Demšar; without the tie correction scipy's
  ``friedmanchisquare`` applies).
* Iman-Davenport: ``F_F = (N - 1) χ²_F / (N (k - 1) - χ²_F)``, on ``k - 1`` and
  ``(k - 1)(N - 1)`` degrees of freedom.
* Critical differences: ``CD = q_α sqrt(k (k + 1) / (6 N))``, with ``q_α`` the studentized
  range quantile over ``√2`` for Nemenyi (all pairs) and the normal quantile
  ``z_{1 - α / (2 (k - 1))}`` for Bonferroni-Dunn (against one control): computed for any ``k``
  and ``α``, not looked up in a table.
* Pairs from ranks: ``z = (R_i - R_j) / sqrt(k (k + 1) / (6 N))``; Nemenyi's p-value from the
  studentized range of ``√2 |z|``, the others from the normal distribution (to be adjusted).

Examples:
    >>> table = np.array([[0.9, 0.8, 0.7], [0.6, 0.7, 0.5], [0.8, 0.8, 0.6]])
    >>> average_ranks(table).tolist()
    [1.5, 1.5, 3.0]
    >>> round(critical_difference(3, 3, 0.05, "nemenyi"), 4)
    1.9136
"""

from __future__ import annotations

import functools
import math
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine._validation import check_choice
from evalkit._results._closed_form import _check_level, _scipy_stats

CD_TESTS = ("nemenyi", "bonferroni-dunn")
"""The critical differences of ranks: all pairs, or every model against one control."""

__all__ = ["CD_TESTS", "RankTest", "average_ranks", "critical_difference", "friedman", "iman_davenport", "rank_ranks", "rank_z"]


class RankTest(NamedTuple):
    """An omnibus test of "all models are equal": its statistic, degrees of freedom and p-value."""

    statistic: float
    df: tuple[float, ...]
    p_value: float


def rank_ranks(table: np.ndarray) -> np.ndarray:
    """The rank of every model on every data set (rows), 1 the highest value, ties sharing
    the mean of their ranks: one sort of each row, ties found by comparing neighbours.

    Examples:
        >>> rank_ranks(np.array([[0.9, 0.7, 0.9]])).tolist()
        [[1.5, 3.0, 1.5]]
    """
    n, k = table.shape
    order = np.argsort(-table, axis=1, kind="stable")
    ordered = np.take_along_axis(table, order, axis=1)
    starts = np.ones((n, k), dtype=bool)
    starts[:, 1:] = ordered[:, 1:] != ordered[:, :-1]  # the first of each run of equal values
    position = np.broadcast_to(np.arange(k, dtype=np.float64), (n, k))
    first = np.maximum.accumulate(np.where(starts, position, 0.0), axis=1)  # where each value's run starts
    ends = np.ones((n, k), dtype=bool)
    ends[:, :-1] = starts[:, 1:]
    last = np.minimum.accumulate(np.where(ends, position, k - 1.0)[:, ::-1], axis=1)[:, ::-1]  # where it ends
    ranks = np.empty((n, k))
    np.put_along_axis(ranks, order, (first + last) / 2 + 1, axis=1)
    return ranks


def average_ranks(table: np.ndarray) -> np.ndarray:
    """``R_j``: each model's rank averaged over the data sets."""
    return rank_ranks(table).mean(axis=0)


def friedman(ranks: np.ndarray, n: int) -> RankTest:
    """Friedman's ``χ²_F`` of the average ranks of ``k`` models over ``n`` data sets."""
    k = len(ranks)
    statistic = 12 * n / (k * (k + 1)) * (float(np.sum(ranks**2)) - k * (k + 1) ** 2 / 4)
    return RankTest(statistic, (k - 1,), float(_scipy_stats().chi2.sf(statistic, k - 1)))


def iman_davenport(ranks: np.ndarray, n: int) -> RankTest:
    """Iman and Davenport's ``F_F`` (less conservative than ``χ²_F``). Infinite, with p-value
    0, when every data set ranks the models alike."""
    k = len(ranks)
    chi2 = friedman(ranks, n).statistic
    df = (k - 1, (k - 1) * (n - 1))
    denominator = n * (k - 1) - chi2
    statistic = math.inf if denominator <= 0 else (n - 1) * chi2 / denominator
    return RankTest(statistic, df, 0.0 if math.isinf(statistic) else float(_scipy_stats().f.sf(statistic, *df)))


def critical_difference(k: int, n: int, alpha: float = 0.05, test: str = "nemenyi") -> float:
    """The smallest difference of average ranks that is significant at ``alpha``.

    Examples:
        >>> round(critical_difference(4, 14, 0.05, "nemenyi"), 3), round(critical_difference(4, 14, 0.05, "bonferroni-dunn"), 3)
        (1.254, 1.168)
    """
    check_choice("test", test, CD_TESTS)
    return _critical_quantile(k, _check_level(alpha, "alpha"), test) * math.sqrt(k * (k + 1) / (6 * n))


@functools.lru_cache(maxsize=256)
def _critical_quantile(k: int, alpha: float, test: str) -> float:
    """``q_α`` of ``k`` models: a root of scipy's studentized range (about a millisecond), so kept."""
    stats = _scipy_stats()
    if test == "nemenyi":
        return float(stats.studentized_range.isf(alpha, k, np.inf)) / math.sqrt(2)
    return float(stats.norm.isf(alpha / (2 * (k - 1))))


RANGE_PANELS, RANGE_NODES = 16, 20
"""The quadrature of ``range_sf``: Gauss-Legendre of ``RANGE_NODES`` points on each of
``RANGE_PANELS`` equal panels of ``z`` in [-9, 9], where the normal density is above 1e-18."""

RANGE_TABLE_Q = 16.0
"""``range_sf`` interpolates on [0, ``RANGE_TABLE_Q``]: beyond, the tail is below 1e-16 for any
number of models up to thousands (computed directly there, whatever it is)."""


@functools.lru_cache(maxsize=1)
def _range_quadrature() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The nodes ``z``, the weights times the normal density ``φ(z)``, and ``Φ(z)``."""
    special = _scipy_special()
    x, w = np.polynomial.legendre.leggauss(RANGE_NODES)
    edges = np.linspace(-9.0, 9.0, RANGE_PANELS + 1)
    half = np.diff(edges) / 2
    z = ((x[None, :] + 1) * half[:, None] + edges[:-1, None]).ravel()
    weights = (w[None, :] * half[:, None]).ravel() * np.exp(-z * z / 2) / math.sqrt(2 * math.pi)
    return z, weights, special.ndtr(z)


def _range_sf_direct(q: np.ndarray, k: int) -> np.ndarray:
    """``1 - k ∫ φ(z) [Φ(z) - Φ(z - q)]^(k - 1) dz`` at every ``q``, by the fixed quadrature."""
    z, weights, below = _range_quadrature()
    special = _scipy_special()
    found = np.empty(len(q))
    for start in range(0, len(q), 512):  # a block of q at a time: (block x nodes) stays small
        part = q[start : start + 512]
        inner = np.clip(below[None, :] - special.ndtr(z[None, :] - part[:, None]), 0.0, 1.0)
        found[start : start + len(part)] = 1.0 - k * (inner ** (k - 1)) @ weights
    return np.clip(found, 0.0, 1.0)


@functools.lru_cache(maxsize=64)
def _range_sf_table(k: int) -> np.polynomial.Chebyshev | None:
    """A Chebyshev interpolant of ``_range_sf_direct`` on [0, ``RANGE_TABLE_Q``] for ``k``
    models, checked against the quadrature between its nodes; None where it is not within 1e-12."""
    for degree in (64, 128, 256):
        table = np.polynomial.Chebyshev.interpolate(lambda q: _range_sf_direct(np.asarray(q), k), degree, domain=[0.0, RANGE_TABLE_Q])
        probes = np.linspace(0.0, RANGE_TABLE_Q, 4 * degree + 1)[1::2]  # midway between grid points, off the interpolation nodes
        if np.abs(table(probes) - _range_sf_direct(probes, k)).max() <= 1e-12:
            return table
    return None


def range_sf(q: ArrayLike, k: int) -> np.ndarray:
    """The survival function of the studentized range of ``k`` normal samples (infinite degrees
    of freedom): ``P(Q > q) = 1 - k ∫ φ(z) [Φ(z) - Φ(z - q)]^(k - 1) dz`` (Lund and Lund 1983),
    what Nemenyi's test takes, as scipy's ``studentized_range.sf(q, k, np.inf)`` gives it (to
    1e-12; tested), by a fixed Gauss-Legendre quadrature of scipy's normal distribution
    vectorised over every ``q``, and for many ``q`` a Chebyshev interpolant of it per ``k``
    (kept): microseconds for a thousand pairs where scipy integrates each adaptively.

    Examples:
        >>> round(float(range_sf([3.314493], 3)[0]), 6)  # Tukey's 5% critical value of three groups
        0.05
    """
    values = np.abs(np.asarray(q, dtype=np.float64)).ravel()
    table = _range_sf_table(k) if values.size > 64 and k >= 2 else None
    if table is None:
        return _range_sf_direct(values, k)
    found = np.clip(table(np.minimum(values, RANGE_TABLE_Q)), 0.0, 1.0)
    beyond = values > RANGE_TABLE_Q
    if beyond.any():
        found[beyond] = _range_sf_direct(values[beyond], k)
    return found


def _scipy_special() -> Any:
    """scipy.special (with scipy.stats: the optional ``stats`` extra)."""
    _scipy_stats()  # the install hint, if scipy is missing
    import scipy.special

    return scipy.special


def rank_z(ranks: np.ndarray, n: int) -> np.ndarray:
    """``z_ij = (R_i - R_j) / sqrt(k (k + 1) / (6 N))`` of every pair of models."""
    k = len(ranks)
    return (ranks[:, None] - ranks[None, :]) / math.sqrt(k * (k + 1) / (6 * n))
