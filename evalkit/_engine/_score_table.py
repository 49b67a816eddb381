"""Weights per distinct (score, codes): what a curve of every distinct score counts, kept sorted.

A ``ScoreTable`` holds one entry per distinct ``(score, code_1, ..., code_c)`` that occurs, with
the summed weight of its samples: whole numbers (int64) or exact float counts
(``evalkit._engine._exact.exact_counts``). The entries are sorted by score, then by each code,
and none weighs 0, so two tables of the same samples are equal entry by entry. Tables add,
take a part away and scale exactly, recode their codes when the labels of a merge join, and
write themselves into a document (each column a list under its name, the weights rounded with
their exact rests beside).

Examples:
    >>> table = ScoreTable.counted(np.array([0.9, 0.2, 0.9]), np.array([[1, 0, 1], [0, 0, 0]]), None, ("score", "actual", "predicted", "weight"))
    >>> table.score.tolist(), table.codes.tolist(), table.weight.tolist()
    ([0.2, 0.9], [[0, 1], [0, 0]], [1, 2])
    >>> table.minus(ScoreTable.counted(np.array([0.9]), np.array([[1], [0]]), None, table.names), "samples").weight.tolist()
    [1, 1]
"""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np

from evalkit._engine import serialization
from evalkit._engine._exact import (
    check_count_total,
    equal_counts,
    rounded_counts,
    same_form,
    scaled_counts,
    weighted_sum,
)
from evalkit._engine._validation import show
from evalkit.exceptions import InvalidCountsError

__all__ = ["ScoreTable"]

_MOST_KEY = 1 << 62
"""Above this, the codes of an entry and its score's rank do not pack into one int64 key."""


def _aggregated(score: np.ndarray, codes: np.ndarray, weight: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Equal (score, codes) as one entry with their summed weight (``None``: each weighs 1),
    sorted by score, then by each code (``codes``: one row per code column); entries that weigh
    nothing dropped. One sort of the scores; a second, of the ties only, where there are ties."""
    n = len(score)
    if n < 2:  # (one sample of a stream: nothing to sort)
        kept = slice(None) if weight is None or weight.all() else slice(0)
        return score[kept], codes[:, kept], np.ones(n, dtype=np.int64)[kept] if weight is None else weight[kept]
    order = np.argsort(score)
    score, codes = score[order], codes.take(order, axis=1)  # (take: a 2-D fancy index is 4x slower)
    weight = None if weight is None else weight[order]
    new_score = score[1:] != score[:-1]
    if new_score.all():  # distinct scores: each sample its own entry
        if weight is None:
            return score, codes, np.ones(n, dtype=np.int64)
        kept = weight != 0
        return score[kept], codes.compress(kept, axis=1), weight[kept]
    group = np.zeros(n, dtype=np.int64)
    np.cumsum(new_score, out=group[1:])
    k = int(codes.max()) + 1 if codes.size else 1
    if (int(group[-1]) + 1) * k ** len(codes) < _MOST_KEY:
        key = group
        for column in codes:
            key = key * k + column
        within = np.argsort(key, kind="stable") if np.any(key[1:] < key[:-1]) else None  # (runs already sorted: timsort merges them)
    else:  # too many codes to pack: sorted column by column
        key, within = None, np.lexsort((*codes[::-1], group))
    if within is not None:
        score, codes, group = score[within], codes.take(within, axis=1), group[within]
        weight = None if weight is None else weight[within]
        key = None if key is None else key[within]
    new = np.any(codes[:, 1:] != codes[:, :-1], axis=0) | (group[1:] != group[:-1]) if key is None else key[1:] != key[:-1]
    starts = np.flatnonzero(np.concatenate(([True], new)))
    summed = np.diff(np.append(starts, n)).astype(np.int64) if weight is None else np.add.reduceat(weight, starts)
    kept = starts[summed != 0]
    return score[kept], codes.take(kept, axis=1), summed[summed != 0]


@attrs.frozen(eq=False)
class ScoreTable:
    """Weights per distinct ``(score, codes)``, sorted (see the module): ``codes`` holds one
    row per code column. ``names``: the document's name of the scores, of each code column and
    of the weights."""

    score: np.ndarray
    codes: np.ndarray
    weight: np.ndarray
    names: tuple[str, ...]

    @classmethod
    def empty(cls, names: tuple[str, ...]) -> ScoreTable:
        """No entry."""
        return cls(np.zeros(0), np.zeros((len(names) - 2, 0), dtype=np.int64), np.zeros(0, dtype=np.int64), names)

    @classmethod
    def counted(cls, score: np.ndarray, codes: np.ndarray, weight: np.ndarray | None, names: tuple[str, ...]) -> ScoreTable:
        """The table of samples: their scores, codes (``columns x samples``) and weights (whole
        or exact counts; ``None``: each weighs 1)."""
        if weight is not None and weight.dtype.kind in "iu":
            weighted_sum(weight, None)  # whole weights beyond int64 in total are refused, not wrapped
        return cls(*_aggregated(score, codes.reshape(len(names) - 2, len(score)), weight), names)

    def _joined(self, other: ScoreTable, sign: int) -> ScoreTable:
        if not len(other.score):
            return self
        if not len(self.score) and sign > 0:
            return other
        mine, theirs = same_form(self.weight, other.weight)
        if sign > 0 and mine.dtype.kind == "i":
            check_count_total(weighted_sum(mine, None) + weighted_sum(theirs, None))  # (whole weights: a total beyond int64 refused)
        weight = np.concatenate((mine, theirs if sign > 0 else -theirs))
        return ScoreTable(*_aggregated(np.concatenate((self.score, other.score)), np.concatenate((self.codes, other.codes), axis=1), weight), self.names)

    def plus(self, other: ScoreTable) -> ScoreTable:
        """The entries of both, exactly."""
        return self._joined(other, 1)

    def minus(self, other: ScoreTable, what: str) -> ScoreTable:
        """These entries without ``other``'s, a part of them, exactly; entries left with nothing go.

        Raises:
            InvalidCountsError: ``other`` holds an entry, or more of one, than this.
        """
        left = self._joined(other, -1)
        if np.any(left.weight < 0):
            raise InvalidCountsError(f"cannot take away {what} that were never added: a count would be negative")
        return left

    def scaled(self, factor: float) -> ScoreTable:
        """Every weight times ``factor`` (exact float counts, each product rounded once);
        weights below float64's range weigh nothing and go."""
        weight = scaled_counts(self.weight, factor)
        kept = weight != 0
        return ScoreTable(self.score[kept], self.codes.compress(kept, axis=1), weight[kept], self.names)

    def recoded(self, lookup: np.ndarray) -> ScoreTable:
        """The same weights with every code ``c`` renamed ``lookup[c]`` (labels joined)."""
        if np.array_equal(lookup, np.arange(len(lookup))):
            return self
        return ScoreTable.counted(self.score, lookup[self.codes], self.weight, self.names)

    def equals(self, other: ScoreTable) -> bool:
        """The same entries with the same weights, to the last bit of their exact values."""
        return np.array_equal(self.score, other.score) and np.array_equal(self.codes, other.codes) and equal_counts(self.weight, other.weight)

    def document(self) -> dict[str, Any]:
        """Each column a list under its name; the weights rounded, their exact rests beside (``exact``)."""
        *codes, weight = self.names[1:]
        return {self.names[0]: self.score.tolist(), **{name: self.codes[k].tolist() for k, name in enumerate(codes)},
                weight: rounded_counts(self.weight).tolist(), **serialization.exact_rests(self.weight)}  # fmt: skip

    def read(self, document: dict[str, Any], codes_below: int) -> ScoreTable:
        """A table of this one's names from a document (``document``), its codes below ``codes_below``.

        Raises:
            FormatError: lists of other lengths, codes out of range, entries not distinct and
                sorted, or one weighing nothing.
        """
        names = self.names
        score = serialization.array(serialization.field(document, names[0]), names[0], length=None, integral=False, low=-np.inf)
        n = len(score)
        columns = [serialization.array(serialization.field(document, name), name, length=n) for name in names[1:-1]]
        codes = np.stack(columns) if n else np.zeros((len(columns), 0), dtype=np.int64)
        weight = serialization.exact_counts_of(document, serialization.array(serialization.field(document, names[-1]), names[-1], length=n, integral=None))
        if codes.size and codes.max() >= codes_below:
            raise serialization.FormatError(f"fields {show(list(names[1:-1]))} must be class positions below {codes_below}")
        table = ScoreTable.counted(score, codes, weight, names)
        if len(table.score) != n or not np.array_equal(table.score, score) or not np.array_equal(table.codes, codes):
            raise serialization.FormatError(f"fields {show(list(names[:-1]))} must list distinct entries in order, each weighing more than 0")
        return table

    def __repr__(self) -> str:
        return f"ScoreTable(entries={len(self.score)}, weight={show(self.weight)})"
