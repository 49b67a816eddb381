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
from typing import NamedTuple

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


def range_sf(q: ArrayLike, k: int) -> np.ndarray:
    """The survival function of the studentized range of ``k`` normal samples (infinite degrees
    of freedom), what Nemenyi's test takes: scipy's ``studentized_range.sf(q, k, np.inf)``,
    once for each distinct ``|q|``, so the same ``q`` has the same p-value wherever it sits.

    Examples:
        >>> round(float(range_sf([3.314493], 3)[0]), 6)  # Tukey's 5% critical value of three groups
        0.05
    """
    values = np.abs(np.asarray(q, dtype=np.float64)).ravel()
    distinct, where = np.unique(values, return_inverse=True)
    return np.clip(_scipy_stats().studentized_range.sf(distinct, k, np.inf), 0.0, 1.0)[where]


def rank_z(ranks: np.ndarray, n: int) -> np.ndarray:
    """``z_ij = (R_i - R_j) / sqrt(k (k + 1) / (6 N))`` of every pair of models."""
    k = len(ranks)
    return (ranks[:, None] - ranks[None, :]) / math.sqrt(k * (k + 1) / (6 * n))
