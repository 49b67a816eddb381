"""Sums by key, kept only for the keys present: what a result counted per (group, class) or
per (group, set size) holds, in memory and time proportional to the pairs that occur, never to
every group times every class.

A ``KeyedSums`` is a table of distinct keys, each a pair of codes ``(first, second)`` packed in
one int64 (``first << 32 | second``), sorted, with a row of sums per key: whole numbers
(int64), or exact float counts (``evalkit._engine._exact.exact_counts``). It adds, takes away and
scales exactly, recodes its keys when the codes of a merge change, and sums its rows by either
code.

Examples:
    >>> table = KeyedSums.counted(np.array([3, 0, 3]), np.array([1, 7, 1]), np.array([[1, 1], [1, 0], [1, 0]]))
    >>> table.codes(0).tolist(), table.codes(1).tolist(), table.sums.tolist()
    ([0, 3], [7, 1], [[1, 0], [2, 1]])
    >>> table.by(1, 8).tolist()[7], table.total().tolist()
    ([1, 0], [3, 1])
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import attrs
import numpy as np

from evalkit._engine import serialization
from evalkit._engine._exact import (
    difference,
    equal_counts,
    exact_bincount,
    rounded_counts,
    same_form,
    scaled_counts,
    weighted_bincount,
)
from evalkit._engine._validation import show
from evalkit.exceptions import InvalidCountsError

if TYPE_CHECKING:
    from typing_extensions import Self  # typing.Self of Python 3.11, for type checkers only

__all__ = ["HashedSums", "KeyedSums"]

_SHIFT = 32
_LOW = (1 << _SHIFT) - 1


def _packed(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    return (np.asarray(first, dtype=np.int64) << _SHIFT) | np.asarray(second, dtype=np.int64)


@attrs.frozen(eq=False)
class KeyedSums:
    """Sums per key for the keys present (see the module): ``keys`` sorted and distinct,
    ``sums`` one row of ``columns`` sums per key."""

    keys: np.ndarray
    sums: np.ndarray

    FIELD: ClassVar[str] = "sums"
    """The field of a document that holds the table: one ``[first, second, *sums]`` row per key."""

    @classmethod
    def empty(cls, columns: int) -> Self:
        """No key."""
        return cls(np.zeros(0, dtype=np.int64), np.zeros((0, columns), dtype=np.int64))

    @classmethod
    def counted(cls, first: np.ndarray, second: np.ndarray, values: np.ndarray) -> Self:
        """The sums of ``values`` (one row per sample: booleans, whole numbers, floats, or exact
        float counts) per distinct pair of codes ``(first, second)`` (each below ``2**32``), exactly
        (float sums as exact float counts); keys whose sums are all 0 are left out."""
        return cls._summed(_packed(first, second), np.asarray(values))

    @classmethod
    def _summed(cls, keys: np.ndarray, values: np.ndarray) -> Self:
        if not len(keys):
            return cls(keys.astype(np.int64), values.reshape(0, values.shape[1]))
        if values.dtype.kind in "biu":  # whole numbers over few distinct codes: counted in a table of the codes present, no sort
            first, second = keys >> _SHIFT, keys & _LOW
            width = int(second.max()) + 1
            size = (int(first.max()) + 1) * width
            if size <= max(4 * len(keys), 1024):
                spot = first * width + second
                sums = np.stack([np.bincount(spot[values[:, column]], minlength=size) if values.dtype.kind == "b" else weighted_bincount(spot, values[:, column], size)
                                 for column in range(values.shape[1])], axis=1)  # fmt: skip
                present = np.flatnonzero(np.any(sums != 0, axis=1))
                return cls(_packed(present // width, present % width), sums[present])
        if values.dtype.kind == "f":  # float weights: each key's sums exact, as Python integers in units of 2**-1126
            present, inverse = np.unique(keys, return_inverse=True)
            columns = values.shape[1]
            exact = exact_bincount((inverse.reshape(-1, 1) * columns + np.arange(columns)).ravel(), values.ravel(), len(present) * columns)
            exact = exact.reshape(len(present), columns)
            kept = np.any(exact != 0, axis=1)
            return cls(present[kept], exact[kept])
        if values.dtype.kind == "b":
            values = values.astype(np.int64)
        order = np.argsort(keys, kind="stable")
        keys, values = keys[order], values[order]
        starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
        sums = np.add.reduceat(values, starts, axis=0)
        kept = np.any(sums != 0, axis=1)
        return cls(keys[starts][kept], sums[kept])

    def codes(self, column: int) -> np.ndarray:
        """The first (``column`` 0) or second (1) code of each key."""
        return self.keys >> _SHIFT if column == 0 else self.keys & _LOW

    def recoded(self, first: np.ndarray | None, second: np.ndarray | None) -> Self:
        """The same sums with each first code ``c`` renamed ``first[c]`` and each second code
        ``second[c]`` (``None``: kept), as when the codes of two tables are joined."""
        if first is None and second is None:
            return self
        keys = _packed(self.codes(0) if first is None else first[self.codes(0)], self.codes(1) if second is None else second[self.codes(1)])
        if all(lookup is None or bool(np.all(lookup[1:] > lookup[:-1])) for lookup in (first, second)):  # order kept: the keys stay sorted and distinct
            return type(self)(keys, self.sums)
        return self._summed(keys, self.sums)

    def plus(self, other: KeyedSums) -> Self:
        """The sums of both, exactly (keys of the same codes)."""
        if not len(other.keys):
            return self
        if not len(self.keys):
            return other if type(other) is type(self) else type(self)(other.keys, other.sums)  # type: ignore[return-value]
        first, second = same_form(self.sums, other.sums)
        return self._summed(np.concatenate((self.keys, other.keys)), np.concatenate((first, second)))

    def minus(self, other: KeyedSums, what: str) -> Self:
        """These sums without ``other``'s, a part of them, exactly; keys left with nothing go.

        Raises:
            InvalidCountsError: ``other`` holds a key, or more of a key, than this.
        """
        if not len(other.keys):
            return self
        spots = np.searchsorted(self.keys, other.keys)
        inside = spots < len(self.keys)
        if not inside.all() or np.any(self.keys[spots[inside]] != other.keys[inside]):
            raise InvalidCountsError(f"cannot take away {what} that were never added: a key this table does not hold")
        mine, theirs = same_form(self.sums, other.sums)
        left = np.array(mine, copy=True)
        left[spots] = difference(left[spots], theirs, what)
        kept = np.any(left != 0, axis=1)
        return type(self)(self.keys[kept], left[kept])

    def scaled(self, factor: float) -> Self:
        """Every sum times ``factor`` (exact float counts, each product rounded once)."""
        sums = scaled_counts(self.sums, factor)
        kept = np.any(sums != 0, axis=1)
        return type(self)(self.keys[kept], sums[kept])

    def total(self) -> np.ndarray:
        """The sums of every key."""
        return np.add.reduce(self.sums, axis=0) if len(self.keys) else np.zeros(self.sums.shape[1], dtype=np.int64)

    def by(self, column: int, size: int) -> np.ndarray:
        """The sums per code ``0 .. size-1`` of the first (``column`` 0) or second (1) code:
        ``size x columns``, zero where no key has the code."""
        out = np.zeros((size, self.sums.shape[1]), dtype=np.int64).astype(self.sums.dtype)
        np.add.at(out, self.codes(column), self.sums)
        return out

    def where(self, column: int, code: int) -> Self:
        """The keys whose first (``column`` 0) or second (1) code is ``code``."""
        chosen = self.codes(column) == code
        return type(self)(self.keys[chosen], self.sums[chosen])

    def equals(self, other: KeyedSums) -> bool:
        """The same keys with the same sums, to the last bit of their exact values."""
        return np.array_equal(self.keys, other.keys) and equal_counts(self.sums, other.sums)

    def document(self) -> dict[str, Any]:
        """The rows ``[first, second, *sums]`` (the sums rounded), with the exact rests of float sums."""
        rows = [[*key, *sums] for key, sums in zip(zip(self.codes(0).tolist(), self.codes(1).tolist()), rounded_counts(self.sums).tolist())]
        return {self.FIELD: rows, **serialization.exact_rests(self.sums, f"exact_{self.FIELD}")}

    def read(self, document: dict[str, Any], labels: int) -> Self:
        """The table of a document's rows (see ``document``), as many sums a row as this table's;
        the codes are checked by the kind that holds the table (what they count over).

        Raises:
            FormatError: rows that are no codes and sums, sums below zero, or a key twice.
        """
        cls, columns = type(self), self.sums.shape[1]
        rows = serialization.field(document, cls.FIELD)
        if not isinstance(rows, list) or any(not isinstance(row, list) or len(row) != 2 + columns for row in rows):
            raise serialization.FormatError(f"field {cls.FIELD!r} must list [code, code, {', '.join(['sum'] * columns)}] rows, got {show(rows)}")
        codes = [serialization.array([row[k] for row in rows], cls.FIELD, length=None) for k in (0, 1)]
        if any(len(found) and found.max() > _LOW for found in codes):
            raise serialization.FormatError(f"field {cls.FIELD!r} holds a code beyond {_LOW}")
        sums = serialization.array([value for row in rows for value in row[2:]], cls.FIELD, length=None, integral=None)
        table = cls.counted(codes[0], codes[1], serialization.exact_counts_of(document, sums, f"exact_{cls.FIELD}").reshape(len(rows), columns))
        if len(table.keys) != len(rows):
            raise serialization.FormatError(f"field {cls.FIELD!r} must list distinct keys, each with a sum")
        return table

    def __repr__(self) -> str:
        return f"KeyedSums(keys={len(self.keys)}, sums={show(self.sums)})"


@attrs.frozen(eq=False)
class HashedSums:
    """One sum per key for the keys present, whatever the keys are (a kind of sample, a pair of
    label sets): ``keys`` distinct, ``sums`` one whole (int64) or exact float count
    (``exact_counts``) each. It adds, takes away and scales exactly, as ``KeyedSums`` does for
    keys that are codes. A kind's table names its JSON field (``FIELD``) and writes each key as
    a list (``_key_row``, read back by ``_key_of``).

    Examples:
        >>> table = HashedSums.counted([("a",), ("b",), ("a",)], np.array([1, 2, 3]))
        >>> dict(zip(table.keys, table.sums.tolist())), table.minus(table, "samples").keys
        ({('a',): 4, ('b',): 2}, ())
    """

    keys: tuple
    sums: np.ndarray

    FIELD: ClassVar[str] = "sums"
    """The field of a document that holds the table: one ``[*key, sum]`` row per key."""

    @classmethod
    def empty(cls) -> Self:
        """No key."""
        return cls((), np.zeros(0, dtype=np.int64))

    @classmethod
    def counted(cls, keys: Sequence[Hashable], values: np.ndarray) -> Self:
        """The sums of ``values`` (whole numbers, floats summed exactly, or exact counts) per
        distinct key of ``keys`` (one per value); keys whose sum is 0 are left out."""
        index: dict[Hashable, int] = {}
        slots = np.fromiter((index.setdefault(key, len(index)) for key in keys), dtype=np.intp, count=len(keys))
        values = np.asarray(values)
        if values.dtype.kind == "f":
            sums = exact_bincount(slots, values, len(index))
        else:
            sums = np.zeros(len(index), dtype=np.int64 if values.dtype.kind in "biu" else object)
            np.add.at(sums, slots, values.astype(sums.dtype) if values.dtype.kind == "b" else values)
        return cls._kept(tuple(index), sums)

    @classmethod
    def _kept(cls, keys: tuple, sums: np.ndarray) -> Self:
        held = sums != 0
        return cls(keys, sums) if held.all() else cls(tuple(key for key, kept in zip(keys, held.tolist()) if kept), sums[held])

    def _over(self, keys: Sequence[Hashable]) -> tuple[tuple, np.ndarray, np.ndarray]:
        """The keys of both (these first) and the positions of ``keys`` among them."""
        index = {key: k for k, key in enumerate(self.keys)}
        spots = [index.setdefault(key, len(index)) for key in keys]
        return tuple(index), np.array(spots, dtype=np.intp), np.zeros(len(index), dtype=self.sums.dtype)

    def plus(self, other: HashedSums) -> Self:
        """The sums of both, exactly."""
        if not other.keys:
            return self
        keys, spots, zeros = self._over(other.keys)
        mine, theirs = same_form(np.concatenate((self.sums, zeros[len(self.keys):])), other.sums)
        mine = np.array(mine, copy=True)
        mine[spots] += theirs
        return self._kept(keys, mine)

    def minus(self, other: HashedSums, what: str) -> Self:
        """These sums without ``other``'s, a part of them, exactly; keys left with nothing go.

        Raises:
            InvalidCountsError: ``other`` holds a key, or more of a key, than this.
        """
        if not other.keys:
            return self
        keys, spots, _ = self._over(other.keys)
        if len(keys) > len(self.keys):
            raise InvalidCountsError(f"cannot take away {what} that were never added: {show(list(keys[len(self.keys):]))}")
        mine, theirs = same_form(self.sums, other.sums)
        left = np.array(mine, copy=True)
        left[spots] = difference(left[spots], theirs, what)
        return self._kept(self.keys, left)

    def scaled(self, factor: float) -> Self:
        """Every sum times ``factor`` (exact float counts, each product rounded once)."""
        return self._kept(self.keys, scaled_counts(self.sums, factor))

    def equals(self, other: HashedSums) -> bool:
        """The same keys with the same sums, in any order."""
        if len(self.keys) != len(other.keys):
            return False
        keys, spots, _ = self._over(other.keys)
        return len(keys) == len(self.keys) and equal_counts(self.sums[spots], other.sums)

    def amounts(self) -> dict:
        """Each key's sum, correctly rounded."""
        return dict(zip(self.keys, rounded_counts(self.sums).tolist()))

    def document(self) -> dict[str, Any]:
        """The rows ``[*key, sum]`` (the sums rounded), with the exact rests of float sums."""
        rows = [[*self._key_row(key), amount] for key, amount in zip(self.keys, rounded_counts(self.sums).tolist())]
        return {self.FIELD: rows, **serialization.exact_rests(self.sums, f"exact_{self.FIELD}")}

    @classmethod
    def read(cls, document: dict[str, Any], labels: int) -> Self:
        """The table of a document's rows (see ``document``).

        Raises:
            FormatError: rows that are no keys and sums, or sums below zero.
        """
        rows = serialization.field(document, cls.FIELD)
        if not isinstance(rows, list) or any(not isinstance(row, list) or not row for row in rows):
            raise serialization.FormatError(f"field {cls.FIELD!r} must list rows of a key and its sum, got {show(rows)}")
        values = serialization.array([row[-1] for row in rows], cls.FIELD, length=None, integral=None)
        keys = [cls._key_of(row[:-1]) for row in rows]
        if len(set(keys)) < len(keys):
            raise serialization.FormatError(f"field {cls.FIELD!r} names a key twice")
        return cls._kept(tuple(keys), serialization.exact_counts_of(document, values, f"exact_{cls.FIELD}"))

    @staticmethod
    def _key_row(key: Hashable) -> list:
        return [key]

    @classmethod
    def _key_of(cls, row: list) -> Hashable:
        if len(row) != 1 or isinstance(row[0], (list, dict)):
            raise serialization.FormatError(f"field {cls.FIELD!r} must hold one key a row, got {show(row)}")
        return row[0]

    def __repr__(self) -> str:
        return f"{type(self).__name__}(keys={len(self.keys)}, sums={show(self.sums)})"
