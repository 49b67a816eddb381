"""Measures of scores that are not read from cells: top-k hits, log loss and the Brier score.

Each function takes the classes as codes (or 0/1 indicators) and the scores as an
``n x m`` array, and returns one value per sample; ``evalkit.metrics`` averages them with the
sample weights under scikit-learn's names. Rows are processed in blocks, so no temporary grows
beyond a block of the input.

Examples:
    >>> import numpy as np
    >>> scores = np.array([[0.5, 0.3, 0.2], [0.2, 0.4, 0.4]])
    >>> top_k_hits(np.array([1, 0]), scores, 2).tolist()   # ties: the later column ranks first
    [True, False]
    >>> log_losses(np.array([[1, 0, 0], [0, 1, 0]]), scores).round(4).tolist()
    [0.6931, 0.9163]
"""

from __future__ import annotations

import numpy as np

from evalkit._engine.cells import block_rows

__all__ = ["brier_losses", "class_log_losses", "log_losses", "own_column", "own_log_losses", "row_sums", "top_k_hits"]


def top_k_hits(codes: np.ndarray, scores: np.ndarray, k: int) -> np.ndarray:
    """Whether each sample's class is among its ``k`` highest scores.

    The rank of the true class is the number of classes scored higher plus the number of tied
    classes in later columns (scikit-learn's rule: a stable sort of the scores, reversed); a
    hit is a rank below ``k``. No sort: two comparisons per score.
    """
    n, m = scores.shape
    hits = np.empty(n, dtype=bool)
    columns = np.arange(m)
    step = block_rows(m, 8)
    for start in range(0, n, step):
        block, own = scores[start : start + step], codes[start : start + step]
        truth = np.take_along_axis(block, own[:, None], axis=1)
        higher = (block > truth).sum(axis=1) + ((block == truth) & (columns > own[:, None])).sum(axis=1)
        hits[start : start + step] = higher < k
    return hits


def log_losses(truth: np.ndarray, probabilities: np.ndarray, eps: float | None = None) -> np.ndarray:
    """``-Σ_j t_j log p_j`` per sample, with ``p`` clipped to ``[eps, 1 - eps]`` (``eps`` the
    machine epsilon of float64 by default) so that a confident mistake costs a finite amount."""
    eps = float(np.finfo(np.float64).eps) if eps is None else eps
    losses = np.empty(len(truth))
    step = block_rows(truth.shape[1], 8)
    for start in range(0, len(truth), step):
        p = np.clip(probabilities[start : start + step], eps, 1 - eps)
        t = truth[start : start + step]
        losses[start : start + step] = -np.where(t != 0, t * np.log(p), 0.0).sum(axis=1)
    return losses


def class_log_losses(codes: np.ndarray, probabilities: np.ndarray, eps: float | None = None) -> np.ndarray:
    """``-log p_c`` per sample of its class ``c`` (a code), clipped as ``log_losses`` clips: the
    log loss of one-hot truth, read without building it.

    Examples:
        >>> class_log_losses(np.array([0, 1]), np.array([[0.5, 0.3, 0.2], [0.2, 0.4, 0.4]])).round(4).tolist()
        [0.6931, 0.9163]
    """
    return own_log_losses(own_column(probabilities, codes), eps)


def own_log_losses(own: np.ndarray, eps: float | None = None) -> np.ndarray:
    """``-log p`` of each probability of a sample's own class, clipped to ``[eps, 1 - eps]``
    as ``log_losses`` clips (``eps`` the machine epsilon of float64 by default).

    Examples:
        >>> own_log_losses(np.array([0.5, 1.0])).round(4).tolist()
        [0.6931, 0.0]
    """
    eps = float(np.finfo(np.float64).eps) if eps is None else eps
    return -np.log(np.clip(own, eps, 1 - eps))


def own_column(table: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """``table[i, codes[i]]`` of every row: one gather from the flat table (twice the speed of
    ``take_along_axis`` on narrow tables).

    Examples:
        >>> own_column(np.array([[0.5, 0.3, 0.2], [0.2, 0.4, 0.4]]), np.array([0, 1])).tolist()
        [0.5, 0.4]
    """
    flat = np.ascontiguousarray(table).ravel()
    n, m = table.shape
    return flat.take(np.asarray(codes, dtype=np.intp) + m * np.arange(n, dtype=np.intp))


def row_sums(table: np.ndarray) -> np.ndarray:
    """The sum of every row of a table: column by column when it is narrow (numpy's sum along a
    short axis is ten times slower), ``sum(axis=1)`` when it is wide."""
    if table.shape[1] > 16:
        return table.sum(axis=1)
    sums = table[:, 0].copy()
    for j in range(1, table.shape[1]):
        sums += table[:, j]
    return sums


def brier_losses(truth: np.ndarray, probabilities: np.ndarray) -> np.ndarray:
    """``Σ_j (t_j - p_j)²`` per sample (the multi-class Brier score of one sample)."""
    losses = np.empty(len(truth))
    step = block_rows(truth.shape[1], 8)
    for start in range(0, len(truth), step):
        losses[start : start + step] = ((truth[start : start + step] - probabilities[start : start + step]) ** 2).sum(axis=1)
    return losses
