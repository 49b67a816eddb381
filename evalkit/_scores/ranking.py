"""Label ranking: how well each sample's scores order its labels (multi-label ranking and DCG).

Every measure here is a value per sample from that sample's row of relevances ``y`` (0/1, or
graded gains for DCG) and scores ``s``; ``evalkit.metrics`` averages them with the sample
weights under scikit-learn's names. All rows are ranked at once: one sort of each row, then
the values at the end of each run of tied scores (a tie counts as the worse rank, as
scikit-learn's ``rankdata(..., "max")`` does), so no Python loop runs over the samples.

With ``r_j = |{k : s_k >= s_j}|`` (the rank of label ``j``) and ``L_j = |{k relevant : s_k >= s_j}|``:

- coverage: ``max_{j relevant} r_j`` (0 without a relevant label);
- label ranking average precision: ``mean_{j relevant} L_j / r_j`` (1 when no label or every
  label is relevant);
- label ranking loss: the share of (relevant, irrelevant) pairs with ``s_irrelevant >=
  s_relevant`` (0 when no label or every label is relevant);
- DCG: ``Σ_i gain_(i) / log_b(i + 1)`` over the ranks ``i`` of the labels by score (the first
  ``k`` only), a tied run of labels sharing the mean of their gains (McSherry and Najork, 2008).

Examples:
    >>> import numpy as np
    >>> y = np.array([[1, 0, 0], [0, 0, 1]])
    >>> s = np.array([[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]])
    >>> ranking_average_precision(y, s).tolist(), ranking_loss(y, s).tolist(), coverage(y, s).tolist()
    ([0.5, 0.3333333333333333], [0.5, 1.0], [2, 3])
"""

from __future__ import annotations

import numpy as np

from evalkit._engine.cells import block_rows

__all__ = ["coverage", "dcg", "ndcg", "ranking_average_precision", "ranking_loss"]


def _ranked(relevant: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each row sorted by score, highest first: ``(relevant in that order, r, L)`` where ``r``
    and ``L`` are the rank and the relevant labels at or above each position, read at the end
    of its run of tied scores."""
    n, m = scores.shape
    order = np.argsort(-scores, axis=1, kind="stable")
    ordered = np.take_along_axis(scores, order, axis=1)
    hits = np.take_along_axis(relevant, order, axis=1)
    # the end of each run of ties: the last position whose score equals this one's
    ends = np.empty((n, m), dtype=np.int64)
    ends[:, -1] = m - 1
    breaks = ordered[:, 1:] != ordered[:, :-1]
    positions = np.broadcast_to(np.arange(m - 1), (n, m - 1))
    ends[:, :-1] = np.where(breaks, positions, m)
    ends = np.minimum.accumulate(ends[:, ::-1], axis=1)[:, ::-1]
    found = np.take_along_axis(np.cumsum(hits, axis=1), ends, axis=1)
    return hits, ends + 1, found


def _by_blocks(function: object, m: int, *arrays: np.ndarray) -> np.ndarray:
    """``function`` applied to blocks of rows, so that temporaries stay a block in size."""
    n = len(arrays[0])
    step = block_rows(m, 48)
    return np.concatenate([function(*(array[start : start + step] for array in arrays)) for start in range(0, n, step)]) if n else np.zeros(0)  # type: ignore[operator]


def coverage(relevant: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """How far down each sample's ranking one must go to cover every relevant label."""
    def block(y: np.ndarray, s: np.ndarray) -> np.ndarray:
        lowest = np.where(y != 0, s, np.inf).min(axis=1)
        return np.where(np.isinf(lowest) & ~(y != 0).any(axis=1), 0, (s >= lowest[:, None]).sum(axis=1))

    return _by_blocks(block, relevant.shape[1], relevant, scores).astype(np.int64)


def ranking_average_precision(relevant: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """The mean, over each sample's relevant labels, of the share of relevant labels among
    those scored at least as high."""
    m = relevant.shape[1]

    def block(y: np.ndarray, s: np.ndarray) -> np.ndarray:
        hits, rank, found = _ranked(y != 0, s)
        count = hits.sum(axis=1)
        total = np.where(hits, found / rank, 0.0).sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            value = total / count
        return np.where((count == 0) | (count == m), 1.0, value)

    return _by_blocks(block, m, relevant, scores)


def ranking_loss(relevant: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """The share of each sample's (relevant, irrelevant) label pairs ordered wrongly (ties
    count as wrong)."""
    m = relevant.shape[1]

    def block(y: np.ndarray, s: np.ndarray) -> np.ndarray:
        hits, rank, found = _ranked(y != 0, s)
        wrong = np.where(hits, rank - found, 0).sum(axis=1)  # irrelevant labels at or above each relevant one
        count = hits.sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            value = wrong / ((m - count) * count)
        return np.where((count == 0) | (count == m), 0.0, value)

    return _by_blocks(block, m, relevant, scores)


def _discounts(m: int, k: int | None, log_base: float) -> np.ndarray:
    discount = 1 / (np.log(np.arange(m) + 2) / np.log(log_base))
    if k is not None:
        discount[k:] = 0
    return discount


def dcg(gains: np.ndarray, scores: np.ndarray, k: int | None = None, log_base: float = 2, ignore_ties: bool = False) -> np.ndarray:
    """The discounted cumulative gain of each sample's ranking (ties share their mean gain,
    unless ``ignore_ties``: then tied labels keep the order of ``np.argsort``, reversed, as in
    scikit-learn)."""
    m = gains.shape[1]
    discount = _discounts(m, k, log_base)
    if ignore_ties:
        def block(g: np.ndarray, s: np.ndarray) -> np.ndarray:
            ranking = np.argsort(s)[:, ::-1]
            return np.take_along_axis(g, ranking, axis=1) @ discount
    else:
        cumulative = np.cumsum(discount)

        def block(g: np.ndarray, s: np.ndarray) -> np.ndarray:
            order = np.argsort(-s, axis=1, kind="stable")
            ordered = np.take_along_axis(s, order, axis=1)
            gain = np.take_along_axis(g, order, axis=1).astype(np.float64)
            rows, width = gain.shape
            starts = np.ones((rows, width), dtype=bool)  # the first position of each run of ties
            starts[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
            first = np.flatnonzero(starts.ravel())
            last = np.append(first[1:], rows * width) - 1  # flat positions: runs never cross rows
            within = last % width
            before = np.where(first % width == 0, 0.0, cumulative[np.maximum(first % width - 1, 0)])
            mean = np.add.reduceat(gain.ravel(), first) / (last - first + 1)
            per_run = mean * (cumulative[within] - before)
            return np.bincount(first // width, weights=per_run, minlength=rows)

    return _by_blocks(block, m, gains, scores)


def ndcg(gains: np.ndarray, scores: np.ndarray, k: int | None = None, ignore_ties: bool = False) -> np.ndarray:
    """DCG divided by the DCG of the ideal ranking (0 where every gain is 0)."""
    gain = dcg(gains, scores, k, ignore_ties=ignore_ties)
    ideal = dcg(gains, gains, k, ignore_ties=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(ideal == 0, 0.0, gain / np.where(ideal == 0, 1.0, ideal))
