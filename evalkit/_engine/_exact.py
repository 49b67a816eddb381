"""Exact counts: integer sums that never wrap, decided in one place.

Counts are int64 while every total fits (up to 2**63 - 1) and are refused beyond with
``CountOverflowError``; ``np.bincount`` and BLAS accumulate in float64, which is exact for
integers only below 2**53, so integer weights above that take an exact (slower) path.
Products of large counts (kappa, MCC, correlation) are computed in exact integer arithmetic
by the formula layer.

Examples:
    >>> weighted_sum(np.array([2**62, 2**62 - 1]), None)
    9223372036854775807
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike

from evalkit.exceptions import CountOverflowError, InvalidCountsError

__all__ = [
    "EXACT_FLOAT_SUM",
    "FLOAT_OFFSET",
    "LIMBS",
    "MAX_COUNT",
    "UNIT",
    "ExactSums",
    "add_limbs",
    "added",
    "cancels",
    "check_count_total",
    "common_units",
    "difference",
    "dominant",
    "double_sum",
    "equal_counts",
    "exact_cells",
    "exact_counts",
    "exact_margins",
    "exact_remainders",
    "exact_row_sums",
    "exact_table",
    "float_limbs",
    "float_rest",
    "float_units",
    "in_units",
    "ints_to_floats",
    "ints_to_limbs",
    "limbs_to_floats",
    "limbs_to_ints",
    "rounded_counts",
    "rounded_number",
    "same_form",
    "scaled_counts",
    "split_exact",
    "sum_limbs",
    "two_sum",
    "weighted_bincount",
    "weighted_sum",
]


EXACT_FLOAT_SUM = 2**53
"""Integer sums below this are exact in float64 (``np.bincount`` and BLAS accumulate in float64)."""

MAX_COUNT = 2**63 - 1
"""The largest count evalkit holds in int64; totals beyond it are refused, never wrapped."""


_FEW_SUMMED = 256
"""Whole numbers summed as Python integers below this many (a small matrix's cells)."""


def weighted_sum(values: Any, weights: np.ndarray | None) -> Any:
    """``Σ values`` or ``Σ values · weights``: a Python int for integer input (exact, never
    wrapped), a float otherwise.

    Raises:
        CountOverflowError: an integer sum beyond ``MAX_COUNT``.
    """
    values = np.asarray(values).ravel()
    if weights is None and values.size <= _FEW_SUMMED and values.dtype.kind in "biu":
        return check_count_total(sum(values.tolist()))  # (a few whole numbers: Python integers, exact, in one call)
    if weights is not None:
        weights = np.asarray(weights).ravel()
    integral = values.dtype.kind in "biu" and (weights is None or weights.dtype.kind in "biu")
    if not integral:
        with np.errstate(over="ignore", invalid="ignore"):
            total = float(values.sum() if weights is None else np.dot(values.astype(np.float64), weights.astype(np.float64)))
        return check_count_total(total)
    values = values.astype(np.int64, copy=False)
    high = int(np.abs(values).max()) if values.size else 0
    if weights is not None:
        high *= int(weights.max()) if weights.size else 0
    if high * max(len(values), 1) <= MAX_COUNT:  # no partial sum can wrap
        total = int(values.sum() if weights is None else np.dot(values, weights.astype(np.int64, copy=False)))
    else:
        total = sum(values.tolist()) if weights is None else sum(v * w for v, w in zip(values.tolist(), weights.tolist()))
    return check_count_total(total)


def check_count_total(total: Any, what: str = "the counts") -> Any:
    """Return an exact integer total if int64 holds it (a float total if it is finite), else
    raise ``CountOverflowError``."""
    if isinstance(total, float) and not math.isfinite(total):
        raise CountOverflowError(f"{what} sum to {total}, beyond what a float64 holds")
    if isinstance(total, (int, np.integer)) and abs(int(total)) > MAX_COUNT:
        raise CountOverflowError(f"{what} sum to {int(total)}, beyond the {MAX_COUNT} (2**63 - 1) that evalkit counts exactly")
    return int(total) if isinstance(total, (int, np.integer)) else total


def weighted_bincount(index: np.ndarray, weights: np.ndarray | None, length: int) -> np.ndarray:
    """``np.bincount(index, weights, minlength=length)``, exact: int64 for integer (or no)
    weights, float64 for float weights.

    ``np.bincount`` sums weights in float64, exact for integers while every sum stays below
    2**53; larger integer totals take an exact (slower) int64 path, and totals beyond
    2**63 - 1 raise ``CountOverflowError``.

    Examples:
        >>> weighted_bincount(np.array([0, 2, 2]), np.array([1, 2, 3]), 4).tolist()
        [1, 0, 5, 0]
    """
    if weights is None:
        return np.bincount(index, minlength=length)
    if weights.dtype.kind == "f":  # (numpy gives int64 zeros for no entries: float counts stay float)
        return np.bincount(index, weights=weights, minlength=length).astype(np.float64, copy=False)
    total = weighted_sum(weights, None)
    if total < EXACT_FLOAT_SUM:
        return np.bincount(index, weights=weights, minlength=length).astype(np.int64)
    out = np.zeros(length, dtype=np.int64)
    np.add.at(out, index, weights.astype(np.int64, copy=False))
    return out




def exact_row_sums(values: np.ndarray) -> np.ndarray:
    """Row sums of a 2-D array of counts that never wrap: int64 while every sum fits, exact
    Python integers (an object array) beyond; float rows sum in float64.

    Examples:
        >>> exact_row_sums(np.array([[2**62, 2**62], [1, 2]])).tolist()
        [9223372036854775808, 3]
    """
    if values.dtype.kind not in "biu":
        return values.sum(axis=1)
    values = values.astype(np.int64, copy=False)
    high = int(np.abs(values).max()) if values.size else 0
    if high * max(values.shape[1], 1) <= MAX_COUNT:
        return values.sum(axis=1)
    return np.array([sum(row) for row in values.tolist()], dtype=object)


_FEW_CLASSES = 16
"""Up to this many classes the margins of a table are summed in Python (``table_margins``)."""


def table_margins(counts: np.ndarray) -> tuple[list[int], list[int], list[int]]:
    """The diagonal, the row sums and the column sums of a square table of whole counts, as
    Python integers (exact at any size): summed in Python up to a few classes (three numpy calls
    cost more), by ``exact_row_sums`` above.

    Examples:
        >>> table_margins(np.array([[3, 1], [0, 2]]))
        ([3, 2], [4, 2], [3, 3])
    """
    if len(counts) <= _FEW_CLASSES:
        listed = counts.tolist()
        return [listed[k][k] for k in range(len(listed))], list(map(sum, listed)), list(map(sum, zip(*listed)))
    return np.diagonal(counts).tolist(), exact_row_sums(counts).tolist(), exact_row_sums(counts.T).tolist()


# --------------------------------------------------------------------------------------------
# exact sums of floats: the same total however the values are split, ordered or merged

FLOAT_OFFSET = 1126
"""Every finite float64 is an integer multiple of ``2**-FLOAT_OFFSET`` (the subnormal ``2**-1074``
has a 53-bit mantissa below it), so a sum of floats is that integer's sum, exactly."""

LIMBS = 70
"""32-bit limbs of an exact float sum: bits ``0 .. 2240`` of the scaled integer (every float
sum up to beyond ``2**1024``)."""

_MASK = (1 << 32) - 1
_PER_CALL = 1 << 20  # values per bincount: 2**20 values of 27 bits at one quantum sum exactly in its float64
_TOP_BITS = -(1 << 26)  # sign, exponent and the top 26 stored mantissa bits of a float64's bit pattern
_LARGE = 1900  # biased exponents above it (values beyond 2**825) are summed scaled by 2**-512
_DENSE_CELLS = 1 << 14  # (exponent, slot) cells of every exponent from the least to the greatest of a chunk, counted without ranking them
_MOST_CELLS = 1 << 22  # (exponent, slot) cells counted densely: 32 MiB of sums; beyond, only those present
_CARRY_EVERY = 1 << 12  # batches between carries: a batch adds below 2 * 2048 * 3 * 2**33 < 2**47 to a limb, 2**12 of them below 2**59


class ExactSums:
    """Exact sums of float64 values per slot, accumulated batch by batch: order, batching and
    merging never change them, unlike a float sum's last bit. ``limbs()`` gives them as
    ``size x LIMBS`` int64 limbs (``limb_k * 2**(32k - FLOAT_OFFSET)``).

    The values of one slot and one binary exponent are multiples of one quantum: each is cut
    into its top 27 significant bits and the rest (both exact floats), whose sums per slot and
    exponent ``np.bincount`` finds exactly in float64; only those few sums are spread into
    limbs, and the limbs are carried only now and then (each batch adds below ``2**47`` to a
    limb), so a batch costs what its values cost, not what the slots do.

    Examples:
        >>> sums = ExactSums(1)
        >>> sums.add(np.zeros(3, dtype=np.intp), np.array([0.1, 0.2, -0.3]))
        >>> limbs_to_floats(sums.limbs()).tolist(), 0.1 + 0.2 - 0.3
        ([2.7755575615628914e-17], 5.551115123125783e-17)
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._limbs = np.zeros((size, LIMBS), dtype=np.int64)
        self._counts = np.zeros(size, dtype=np.int64)  # whole numbers added apart (bincounts of samples), spread once at the end
        self._uncarried = 0

    def add(self, slots: np.ndarray, values: np.ndarray) -> None:
        """Add finite float64 ``values`` to their ``slots`` (``0 .. size-1``)."""
        values = np.ascontiguousarray(values, dtype=np.float64)
        slots = np.asarray(slots, dtype=np.int64)
        size = self.size
        for start in range(0, len(values), _PER_CALL):
            chunk = values[start : start + _PER_CALL]
            exponent = (chunk.view(np.int64) >> 52) & 2047  # the biased binary exponent (0: zeros and subnormals)
            high = (chunk.view(np.int64) & _TOP_BITS).view(np.float64)  # the value cut to 27 significant bits
            low = chunk - high  # the other 26, exactly
            top, bottom = int(exponent.max()), int(exponent.min())
            if top > _LARGE:  # near float64's top: sums scaled down by 2**-512 (exact), so none overflows
                scale = np.where(exponent > _LARGE, 2.0**-512, 1.0)
                high, low = high * scale, low * scale
            if (top - bottom + 1) * size <= _DENSE_CELLS:  # the exponents between the least and the greatest, each a row of slots
                exponents = np.arange(bottom, top + 1)
                exponent -= bottom
            else:  # the few present, ranked: no sort of the values
                exponents = np.flatnonzero(np.bincount(exponent, minlength=2048))
                rank = np.zeros(2048, dtype=np.int64)
                rank[exponents] = np.arange(len(exponents))
                exponent = rank[exponent]
            key = exponent * size + slots[start : start + _PER_CALL] if size > 1 else exponent  # exponent-major: a chunk's few exponents keep the counts close
            length = len(exponents) * size
            present = None
            if length > _MOST_CELLS:  # very many slots and exponents: only the keys present
                present, key = np.unique(key, return_inverse=True)
                length = len(present)
            high_sums = np.bincount(key, weights=high, minlength=length)  # below 2**20 values of one quantum and 27 bits: exact
            low_sums = np.bincount(key, weights=low, minlength=length)
            keys = np.arange(length) if present is None else present
            used = (high_sums != 0) | (low_sums != 0)
            keys, high_sums, low_sums = keys[used], high_sums[used], low_sums[used]
            slot, biased = keys % size, np.maximum(exponents[keys // size], 1)
            position = biased + (FLOAT_OFFSET - 1075)  # a quantum 2**(biased - 1075) is 2**position limb units
            quantum = biased - 1075 - np.where(biased > _LARGE, 512, 0)  # the sums' own unit, after the scaling
            numbers = np.concatenate((np.ldexp(high_sums, -(quantum + 26)), np.ldexp(low_sums, -quantum))).astype(np.int64)  # whole, |n| < 2**53
            self._spread(np.concatenate((slot, slot)), numbers, np.concatenate((position + 26, position)))

    def add_counts(self, counts: np.ndarray) -> None:
        """Add whole numbers, one per slot (int64, as ``np.bincount`` of samples gives them),
        without splitting each into its bits."""
        self._counts += np.asarray(counts, dtype=np.int64)

    def limbs(self) -> np.ndarray:
        """The sums so far, as carried limbs (``size x LIMBS``)."""
        out = self._limbs.copy()
        if self._counts.any():
            self._spread(np.arange(self.size), self._counts, np.full(self.size, FLOAT_OFFSET, dtype=np.int64), out)
        return _carried(out)

    def _spread(self, slots: np.ndarray, numbers: np.ndarray, positions: np.ndarray, out: np.ndarray | None = None) -> None:
        """Add int64 ``numbers`` times ``2**positions`` into the limbs of their slots (``out``, or the running sums)."""
        target = self._limbs if out is None else out
        limb, shift = positions >> 5, positions & 31
        sign = np.where(numbers < 0, -1, 1)
        numbers = np.abs(numbers)
        low = (numbers & _MASK) << shift  # < 2**63
        high = (numbers >> 32) << shift  # < 2**52
        index = slots * LIMBS + limb
        flat = target.reshape(-1)
        for offset, part in ((0, low & _MASK), (1, (low >> 32) + (high & _MASK)), (2, high >> 32)):
            np.add.at(flat, np.minimum(index + offset, self.size * LIMBS - 1), sign * part)
        if out is None:
            self._uncarried += 1
            if self._uncarried >= _CARRY_EVERY:
                _carried(self._limbs)
                self._uncarried = 0


_FEW_VALUES = 512
"""Values summed exactly as Python integers (``exact_bincount``), below ``ExactSums``' fixed cost."""


def exact_bincount(slots: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    """Exact sums per slot ``0 .. size-1`` of finite float64 ``values``: Python integers in
    units of ``2**-FLOAT_OFFSET`` (an object array, as ``exact_counts``), the same however the
    values are split or ordered. A few values are summed as integers, more by ``ExactSums``.

    Examples:
        >>> sums = exact_bincount(np.array([0, 0, 0, 1]), np.array([1e16, 1.0, 1.0, 0.5]), 2)
        >>> rounded_counts(sums).tolist(), 1e16 + 1.0 + 1.0
        ([1.0000000000000002e+16, 0.5], 1e+16)
    """
    values = np.asarray(values, dtype=np.float64)
    if not np.isfinite(values).all():
        raise CountOverflowError(f"values summed exactly must be finite numbers, got {values[~np.isfinite(values)][:3].tolist()}")
    if len(values) <= _FEW_VALUES:
        out = np.zeros(size, dtype=object)
        np.add.at(out, np.asarray(slots, dtype=np.intp), exact_counts(values))
        return out
    return np.array(limbs_to_ints(float_limbs(slots, values, size)), dtype=object)


def split_exact(sums: np.ndarray) -> tuple[np.ndarray, np.ndarray | None, dict[int, int]]:
    """Exact sums (an object array, as ``exact_bincount`` gives them) as float counts keep them
    (a matrix's cells): each correctly rounded; what that rounding left, as a float (None where
    nothing is left anywhere); and, by flat position, the exact sums whose rest no float holds.

    Examples:
        >>> counts, low, exact = split_exact(exact_bincount(np.array([0, 0, 1]), np.array([1e17, 0.5, 2.0]), 2))
        >>> counts.tolist(), low.tolist(), exact
        ([1e+17, 2.0], [0.5, 0.0], {})
    """
    flat = sums.reshape(-1)
    present = np.flatnonzero(flat != 0)  # (a large table is mostly empty cells: only the others are read)
    rounded = np.zeros(flat.size)
    rounded[present] = rounded_counts(flat[present])
    left = present[flat[present] - exact_counts(rounded[present]) != 0].tolist()
    if not left:
        return rounded.reshape(sums.shape), None, {}
    low, exact = np.zeros(flat.size), {}
    for spot in left:
        rest = float_rest(int(flat[spot]), float(rounded[spot]))
        if rest is None:
            exact[spot] = int(flat[spot])
        else:
            low[spot] = rest
    return rounded.reshape(sums.shape), low.reshape(sums.shape), exact


def dominant(margins: dict[str, Any]) -> bool:
    """Whether a class holds more than half of the total as actual or as predicted class: only
    then do the float differences of margins (``total² - Σ actual · predicted`` is at least half
    of ``total²`` otherwise) lose more than a bit.

    Examples:
        >>> dominant({"total": 4.0, "actual": np.array([3.0, 1.0]), "predicted": np.array([2.0, 2.0])})
        True
    """
    half = 0.5 * float(margins["total"])
    return any(float(np.max(margins[side], initial=0.0)) > half for side in ("actual", "predicted"))


def cancels(margins: dict[str, Any]) -> bool:
    """Whether the float differences of a matrix's margins (``correct``, ``total``, ``actual``,
    ``predicted``) that kappa and MCC divide lose more than a few bits: where a class holds more
    than half of the total (``dominant``), or where the agreement is so near chance that
    ``correct · total - Σ actual · predicted`` keeps less than 1/64 of its terms (a kappa near 0
    of float weights was off in its 13th digit).

    Examples:
        >>> cancels({"correct": 2.0, "total": 4.0, "actual": np.array([2.0, 2.0]), "predicted": np.array([2.0, 2.0])})
        True
    """
    if dominant(margins):
        return True
    total = float(margins["total"])
    if not 0.0 < total < math.inf:
        return False
    agreement = float(margins["correct"]) / total  # (shares: no product of sums overflows)
    chance = float(np.dot(np.asarray(margins["actual"], dtype=np.float64) / total, np.asarray(margins["predicted"], dtype=np.float64) / total))
    return abs(agreement - chance) < 2.0**-6 * max(agreement, chance)


def exact_margins(actual: np.ndarray, predicted: np.ndarray, values: np.ndarray, size: int) -> dict[str, Any]:
    """The margins of float (actual, predicted) pair counts as exact sums (``exact_bincount``,
    one pass): ``correct`` (the diagonal), ``total``, and the ``actual`` and ``predicted`` sums
    (object arrays), all Python integers in units of ``2**-FLOAT_OFFSET``. Their differences
    (``total - correct``, ``total² - Σ actual · predicted``) are exact; a ratio of them is
    correctly rounded whatever the sizes of the weights.

    Examples:
        >>> margins = exact_margins(np.array([0, 1]), np.array([0, 1]), np.array([1e16, 1.0]), 2)
        >>> (margins["total"] - margins["actual"][0]) / UNIT, margins["total"] == margins["correct"]
        (1.0, True)
    """
    right = actual == predicted
    slots = np.concatenate((actual, size + np.asarray(predicted), np.full(int(right.sum()), 2 * size)))
    sums = exact_bincount(slots, np.concatenate((values, values, values[right])), 2 * size + 1)
    return {"correct": int(sums[-1]), "total": sum(sums[:size].tolist()), "actual": sums[:size], "predicted": sums[size : 2 * size]}


def float_limbs(slots: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    """Exact sums of ``values`` (finite float64) per slot, as ``size x LIMBS`` limbs (see ``ExactSums``)."""
    sums = ExactSums(size)
    sums.add(slots, values)
    return sums.limbs()


def _carried(limbs: np.ndarray) -> np.ndarray:
    """One pass of carries from each limb to the next (in place): every limb but the top one
    back below ``2**33`` in size, so that sums of limbs never overflow int64."""
    carry = limbs[..., :-1] >> 32
    limbs[..., :-1] -= carry << 32
    limbs[..., 1:] += carry
    return limbs


def add_limbs(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """The exact sums of two limb arrays of one shape (a merge)."""
    return _carried(first + second)


def sum_limbs(limbs: np.ndarray, axis: int) -> np.ndarray:
    """The exact sums of limb arrays along an axis (not the limbs' own, the last)."""
    return _carried(limbs.sum(axis=axis))


def limbs_to_ints(limbs: np.ndarray) -> list[int]:
    """The exact sums as Python integers (in units of ``2**-FLOAT_OFFSET``), one per slot of
    the last axis but one (flattened).

    Each int64 limb is ``low + 2**32 (middle - 2**32 negative)`` (its low 32 bits, the low 32
    bits of the rest, and whether the rest is negative), so a number is three runs of 32-bit
    digits read by ``int.from_bytes``: ``low + middle << 32 - negative << 64``.

    Examples:
        >>> limbs_to_ints(np.array([[5, -1] + [0] * (LIMBS - 2)]))
        [-4294967291]
    """
    rows = np.ascontiguousarray(limbs, dtype=np.int64).reshape(-1, LIMBS)
    rest = rows >> 32  # |rest| < 2**31: its low 32 bits and its sign give it
    low, middle, negative = (memoryview(np.ascontiguousarray(digits, dtype="<u4").tobytes()) for digits in (rows & _MASK, rest & _MASK, rest < 0))
    size = 4 * LIMBS
    read = int.from_bytes
    return [read(low[start : start + size], "little") + (read(middle[start : start + size], "little") << 32)
            - (read(negative[start : start + size], "little") << 64) for start in range(0, len(rows) * size, size)]  # fmt: skip


def ints_to_limbs(numbers: list[int]) -> np.ndarray:
    """Limbs of exact sums given as Python integers (``limbs_to_ints``' inverse): each number's
    two's complement in 32-bit digits, the top one signed.

    Examples:
        >>> limbs_to_ints(ints_to_limbs([-(2**100) - 7, 3]))
        [-1267650600228229401496703205383, 3]
    """
    size = 4 * LIMBS
    try:
        data = b"".join([number.to_bytes(size, "little", signed=True) for number in numbers])
    except OverflowError:  # beyond 2**2239 (never a sum of floats): the top limb takes what is left
        return np.array([_wide_limbs(number) for number in numbers], dtype=np.int64).reshape(len(numbers), LIMBS)
    out = np.frombuffer(data, dtype="<u4").astype(np.int64).reshape(len(numbers), LIMBS)
    top = out[:, -1]
    top[top >= 1 << 31] -= 1 << 32  # the top digit carries the sign
    return out


def _wide_limbs(number: int) -> list[int]:
    """The limbs of one number of any size: sign and magnitude, the top limb holding the rest."""
    negative, number = number < 0, abs(number)
    limbs = []
    for _ in range(LIMBS - 1):
        limbs.append(number & _MASK)
        number >>= 32
    limbs.append(number)
    return [-limb for limb in limbs] if negative else limbs


def float_units(value: float, bits: int = FLOAT_OFFSET) -> int:
    """A float64 in units of ``2**-bits`` (``bits`` >= 1074: every float is a whole number of
    them), exactly.

    Examples:
        >>> float_units(0.75, 2), float_units(-1.5) == -3 << (FLOAT_OFFSET - 1)
        (3, True)
    """
    numerator, denominator = value.as_integer_ratio()
    return numerator << (bits - denominator.bit_length() + 1)


def limbs_to_floats(limbs: np.ndarray) -> np.ndarray:
    """The exact sums, each correctly rounded to float64 (``inf`` beyond its range); the
    limbs' leading axes kept."""
    return ints_to_floats(limbs_to_ints(limbs)).reshape(limbs.shape[:-1])


def ints_to_floats(numbers: list[int]) -> np.ndarray:
    """Exact sums given as Python integers (in units of ``2**-FLOAT_OFFSET``), each correctly
    rounded to float64 (``inf`` beyond its range)."""
    unit = 1 << FLOAT_OFFSET
    values = []
    for number in numbers:
        try:
            values.append(number / unit)  # int / int: correctly rounded
        except OverflowError:
            values.append(math.inf if number > 0 else -math.inf)  # (copysign would convert the int and overflow again)
    return np.array(values, dtype=np.float64)


# --------------------------------------------------------------------------------------------
# exact counts: whole numbers as int64, float sums as Python integers (units of 2**-FLOAT_OFFSET)

FloatsLike = float | np.ndarray
"""A float or an array of them."""

Remainder = list  # [position, [floats]]: what a document adds to a rounded count (``exact_remainders``)

UNIT = 1 << FLOAT_OFFSET
"""An exact float count ``n`` (a Python integer) is the number ``n / UNIT``."""



def exact_counts(counts: ArrayLike) -> np.ndarray:
    """Counts as exact numbers, the form in which they are added and taken away: whole numbers
    (int64) as they are, float counts as Python integers in units of ``2**-FLOAT_OFFSET`` (an
    object array), so that ``(a + b) - a`` is ``b`` to the last bit, whatever their sizes.
    Counts of the two forms combine through ``added`` and ``difference``.

    Examples:
        >>> big, small = exact_counts(np.array([1e9])), exact_counts(np.array([0.5]))
        >>> rounded_counts(difference(added(big, small), big, "counts")).tolist()
        [0.5]
    """
    array = np.asarray(counts)
    if array.dtype.kind in "iuO":
        return array
    if array.dtype.kind == "b":
        return array.astype(np.int64)
    floats = array.astype(np.float64, copy=False)
    if not np.isfinite(floats).all():
        raise CountOverflowError(f"counts must be finite numbers, got {floats[~np.isfinite(floats)][:3].tolist()} (beyond what a float64 holds)")
    mantissa, exponent = np.frexp(floats)  # each float: its 53-bit mantissa, an integer, times a power of two
    whole = (mantissa * 9007199254740992.0).astype(np.int64)
    return whole.astype(object) << (exponent.astype(np.int64) + (FLOAT_OFFSET - 53)).astype(object)  # (every shift >= 0: floats are multiples of 2**-1074)


def in_units(counts: ArrayLike) -> np.ndarray:
    """Counts of any form (whole, float, exact) as Python integers in units of ``2**-FLOAT_OFFSET``."""
    array = np.asarray(counts)
    if array.dtype.kind == "O":
        return array
    if array.dtype.kind in "biu":
        return array.astype(object) * UNIT
    return exact_counts(array)


def same_form(first: ArrayLike, second: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Two count arrays in one form, to combine: both whole numbers as they are, else both as
    exact counts (``in_units``)."""
    first, second = np.asarray(first), np.asarray(second)
    if first.dtype.kind in "biu" and second.dtype.kind in "biu":
        return first, second
    return in_units(first), in_units(second)


def added(mine: ArrayLike, theirs: ArrayLike) -> np.ndarray:
    """``mine + theirs`` of counts, exactly: whole numbers as int64, anything with a float
    count as exact counts (see ``exact_counts``).

    Examples:
        >>> rounded_counts(added(np.array([1]), exact_counts(np.array([1e-20])))).tolist()
        [1.0]
    """
    first, second = same_form(mine, theirs)
    return first + second


def common_units(counts: np.ndarray) -> tuple[np.ndarray, int]:
    """Counts as whole numbers of the largest power of two they share: ``(whole, exponent)``
    with every count ``whole · 2**exponent``, exactly. Whole counts (int64) are their own
    (exponent 0); exact float counts (``exact_counts``) lose the trailing zeros of their units,
    and are int64 where every sum of them fits (what keeps a curve's running sums and their
    ratios in numpy), else Python integers.

    Examples:
        >>> whole, exponent = common_units(exact_counts(np.array([0.5, 1.25, 3.0])))
        >>> whole.tolist(), exponent, whole.dtype.kind
        ([2, 5, 12], -2, 'i')
    """
    if counts.dtype.kind != "O":
        return counts, 0
    numbers = counts.reshape(-1).tolist()
    present = [number for number in numbers if number]
    if not present:
        return np.zeros(counts.shape, dtype=np.int64), 0
    shift = min((number & -number).bit_length() for number in present) - 1  # the trailing zeros they share
    whole = [number >> shift for number in numbers]
    fits = sum(abs(number) for number in whole).bit_length() < 63
    return np.array(whole, dtype=np.int64 if fits else object).reshape(counts.shape), shift - FLOAT_OFFSET


def equal_counts(first: ArrayLike, second: ArrayLike) -> bool:
    """Whether two count arrays hold the same numbers to the last bit of their exact values,
    whatever their forms (whole, float or exact counts).

    Examples:
        >>> equal_counts(np.array([2]), exact_counts(np.array([2.0]))), equal_counts(np.array([0.1 + 0.2]), np.array([0.3]))
        (True, False)
    """
    first, second = same_form(first, second)
    return first.shape == second.shape and bool(np.array_equal(first, second))


def rounded_counts(counts: ArrayLike) -> np.ndarray:
    """Exact counts as numbers to read: an exact (object) array as float64, each count
    correctly rounded; whole (int64) and float counts as they are."""
    array = np.asarray(counts)
    if array.dtype.kind != "O":
        return array
    if not array.size:
        return np.zeros(array.shape, dtype=np.float64)
    return np.asarray(_rounded(array), dtype=np.float64).reshape(array.shape)


def scaled_counts(counts: ArrayLike, factor: float) -> np.ndarray:
    """Counts times ``factor``, as exact float counts: exact where every product lies on the
    grid of exact sums (``2**-FLOAT_OFFSET``: nearly always, for sums far above the smallest
    floats), else each product correctly rounded to a float (a new weight of the samples), and
    exact from there on.

    Examples:
        >>> rounded_counts(scaled_counts(np.array([3]), 0.5)).tolist()
        [1.5]
    """
    array = np.asarray(counts)
    if array.dtype.kind == "O":
        numerator, denominator = float(factor).as_integer_ratio()  # (the denominator a power of two, the numerator odd)
        flat, fine = array.reshape(-1).tolist(), denominator - 1
        if not any(number & fine for number in flat):  # every product on the grid: no rounding
            shift = denominator.bit_length() - 1
            return np.array([(number >> shift) * numerator for number in flat] or np.zeros(0), dtype=object).reshape(array.shape)
        scale = denominator * UNIT
        products = np.frompyfunc(lambda number: number * numerator / scale, 1, 1)(array) if array.size else array
        return exact_counts(np.asarray(products, dtype=np.float64).reshape(array.shape))
    return exact_counts(array * float(factor))


def exact_remainders(counts: np.ndarray) -> list[Remainder]:
    """What the rounded counts of an exact (object) array leave out, for a document:
    ``[position, [r1, r2, ...]]`` for each count (flattened) that is not a float, the floats
    ``r`` summing exactly to the rest, the last one ``{"units": "0x..."}`` where what is left
    lies below the least float (``serialization.exact_sums`` reads them back); none otherwise.

    Examples:
        >>> exact = exact_counts(np.array([1.0, 2.0 ** -80])).sum(keepdims=True)
        >>> rounded_counts(exact).tolist(), exact_remainders(exact)
        ([1.0], [[0, [8.271806125530277e-25]]])
    """
    if counts.dtype.kind != "O":
        return []
    flat = counts.reshape(-1)
    left = flat - exact_counts(rounded_counts(flat))
    found = []
    for position in np.flatnonzero(left != 0).tolist():
        rest, parts = int(left[position]), cast("list[float | dict[str, str]]", [])
        while rest:
            part = rest / UNIT
            if part == 0.0:  # below the least float (a sum scaled far down): its units, written whole
                parts.append({"units": hex(rest)})
                break
            parts.append(part)
            rest -= float_units(part)
        found.append([position, parts])
    return found


def exact_table(values: np.ndarray, sums: Mapping[int, int]) -> np.ndarray:
    """Counts as exact numbers (``in_units``), those at the flat positions of ``sums`` being
    the exact sums given there (what their floats round).

    Examples:
        >>> table = exact_table(np.array([1.0, 2.0]), {0: float_units(1.0) + 1})
        >>> (table[0] - float_units(1.0), table[1] == float_units(2.0))
        (1, True)
    """
    table = in_units(values).copy()
    flat = table.reshape(-1)
    for position, number in sums.items():
        flat[position] = number
    return table


def _units_of(value: float) -> int:
    """One count (a float, or a whole number) in units of ``2**-FLOAT_OFFSET``, exactly."""
    if isinstance(value, (int, np.integer)):
        return int(value) * UNIT
    if not math.isfinite(value):
        raise CountOverflowError(f"a count of {value} is beyond what a float64 holds")
    return float_units(float(value))


def rounded_number(number: int) -> float:
    """An exact sum (a Python integer in units of ``2**-FLOAT_OFFSET``), correctly rounded.

    Raises:
        CountOverflowError: beyond what a float64 holds.
    """
    try:
        return number / UNIT
    except OverflowError:
        raise CountOverflowError("the counts sum beyond what a float64 holds") from None


_rounded = np.frompyfunc(rounded_number, 1, 1)


def float_rest(number: int, rounded: float) -> float | None:
    """What ``rounded``, an exact sum ``number`` (in units of ``2**-FLOAT_OFFSET``) correctly
    rounded, leaves of it, as one float, or None where no float holds the rest.

    Examples:
        >>> float_rest(float_units(1e17) + float_units(0.5), 1e17), float_rest(float_units(1e17) + float_units(0.5) + 1, 1e17)
        (0.5, None)
    """
    left = number - float_units(rounded)
    rest = left / UNIT  # (a rest below an ulp of the sum: never beyond float64's range)
    return rest if float_units(rest) == left else None


def two_sum(first: FloatsLike, second: FloatsLike) -> tuple[FloatsLike, FloatsLike]:
    """``(total, error)``: the float sum of two floats and what it rounded away, exactly
    ``first + second == total + error`` (Knuth's two-sum; element by element for arrays).

    Examples:
        >>> two_sum(1e17, 0.5), two_sum(1e9, 0.5)
        ((1e+17, 0.5), (1000000000.5, 0.0))
    """
    total = first + second
    back = total - first
    return total, (first - (total - back)) + (second - back)


def double_sum(high: FloatsLike, low: FloatsLike, other_high: FloatsLike, other_low: FloatsLike) -> tuple[FloatsLike, FloatsLike, FloatsLike]:
    """The exact sum of two numbers each kept as two floats (``high + low`` exactly, ``high``
    the number correctly rounded): ``(top, rest, fits)``, ``top`` the sum correctly rounded and
    ``rest`` what it leaves, exactly, where that rest is one float (``fits``; the few sums of
    weights of very different sizes that need more take Python integers,
    ``exact_cells``). Seven two-sums: for arrays, a handful of numpy operations.

    Examples:
        >>> double_sum(1e17, 0.5, 3.0, 0.25), double_sum(1e17, 0.5, 3.0, 2.0**-60)[2]   # 1e17 + 3.75; 3.5 + 2**-60 is no float
        ((1e+17, 3.75, True), False)
    """
    total, error = two_sum(high, other_high)
    lows, low_error = two_sum(low, other_low)
    middle, small = two_sum(error, lows)
    smaller, smallest = two_sum(small, low_error)
    head, tail = two_sum(total, middle)
    tail, lost = two_sum(tail, smaller)
    tail, lost_too = two_sum(tail, smallest)
    top, rest = two_sum(head, tail)
    return top, rest, (lost == 0) & (lost_too == 0)


def exact_cells(values: np.ndarray, lows: np.ndarray | None, keys: np.ndarray, exact: Mapping[int, int], amounts: np.ndarray,
                amount_lows: np.ndarray | None = None, amount_exact: Mapping[int, int] | None = None, *, sign: int = 1,
                what: str = "counts") -> tuple[np.ndarray, np.ndarray, dict[int, int | None]]:  # fmt: skip
    """``values + sign · amounts`` of float counts kept exactly, entry by entry: each entry
    (named by ``keys``, int64) is its float plus the float ``lows`` (the exact rest, None: 0),
    or, where that rest is no float (a sum of weights of very different sizes), the exact sum
    in ``exact`` (Python integers in units of ``2**-FLOAT_OFFSET``; ``amount_lows`` and
    ``amount_exact`` likewise for ``amounts``). The floats are summed exactly as two floats
    each (``double_sum``); the few that need more, as integers. Returns the new counts (each
    correctly rounded), their rests, and the changes of the exact sums (a key's new one, or None
    where two floats hold it again). Nothing is changed in place.

    Raises:
        InvalidCountsError: ``sign`` -1 and an amount above its count (never added).
        CountOverflowError: a count beyond what a float64 holds.

    Examples:
        >>> values, lows, changes = exact_cells(np.array([1e17, 3.0]), None, np.array([7, 8]), {}, np.array([0.5, 0.5]))
        >>> values.tolist(), lows.tolist(), changes
        ([1e+17, 3.5], [0.5, 0.0], {})
        >>> exact_cells(values, lows, np.array([7, 8]), {}, np.array([1e17, 0.0]), sign=-1)[0].tolist()
        [0.5, 3.5]
    """
    whole = amounts.dtype.kind in "iu"
    floats = amounts.astype(np.float64) if whole else amounts
    zeros = np.zeros(len(values))
    low, their_low = (zeros if lows is None else lows), (zeros if amount_lows is None else amount_lows)
    with np.errstate(over="ignore", invalid="ignore"):
        sums = double_sum(values, low, floats if sign > 0 else -floats, their_low if sign > 0 else -their_low)
        top, rest = np.asarray(sums[0], dtype=np.float64), np.asarray(sums[1], dtype=np.float64)
        slow = ~(np.asarray(sums[2]) & np.isfinite(top) & np.isfinite(rest))
    if whole:
        slow |= np.abs(amounts) >= EXACT_FLOAT_SUM  # whole numbers no float holds
    for table in (exact, amount_exact):
        if table:
            slow |= np.isin(keys, np.fromiter(table, dtype=np.int64, count=len(table)))
    if sign < 0 and np.any(top[~slow] < 0):  # (the rounding keeps the sign of the exact sum)
        raise InvalidCountsError(f"cannot take away {what} that were never added: a count would be negative ({top[~slow & (top < 0)][:3].tolist()})")
    changes: dict[int, int | None] = {}
    top, rest = np.where(slow, 0.0, top), np.where(slow, 0.0, rest)
    for spot in np.flatnonzero(slow).tolist():
        key = int(keys[spot])
        mine, theirs = exact.get(key), None if amount_exact is None else amount_exact.get(key)
        if mine is None:
            mine = _units_of(values[spot]) + _units_of(low[spot])
        if theirs is None:
            theirs = _units_of(amounts[spot].item()) + _units_of(their_low[spot])
        number = mine + sign * theirs
        if number < 0:
            raise InvalidCountsError(f"cannot take away {what} that were never added: a count would be negative")
        rounded = top[spot] = rounded_number(number)
        left = float_rest(number, rounded)
        if left is None:
            changes[key] = number
        else:
            rest[spot], changes[key] = left, None
    return top, rest, changes


_FLOAT_ROUNDING = 1e-9
"""A count of float64 sums (a kind that keeps no exact sums) that a subtraction leaves this
share of what it is taken from below zero is 0: the rounding of its sums, not a part never added."""


def difference(mine: ArrayLike, theirs: ArrayLike, what: str) -> np.ndarray:
    """``mine - theirs`` of count arrays, refused where a count would fall below zero: what is
    taken away must have been added. Whole (int64) and exact float counts (``exact_counts``)
    are subtracted exactly; a count left above zero is never changed. Plain float64 sums (of
    kinds that keep no exact sums) round: there a count below zero within the rounding of
    what it is taken from is 0.

    Raises:
        InvalidCountsError: a count of ``theirs`` exceeds the same count of ``mine``.

    Examples:
        >>> difference(np.array([3, 2]), np.array([1, 2]), "counts").tolist()
        [2, 0]
        >>> rounded_counts(difference(exact_counts(np.array([1e9 + 0.5])), exact_counts(np.array([1e9])), "counts")).tolist()
        [0.5]
    """
    mine, theirs = np.asarray(mine), np.asarray(theirs)
    if mine.dtype.kind == "O" or theirs.dtype.kind == "O":
        result = in_units(mine) - in_units(theirs)
    else:
        result = np.subtract(mine, theirs)
        if result.dtype.kind == "f":
            rounding = (result < 0) & (result >= -_FLOAT_ROUNDING * np.maximum(np.abs(mine), np.abs(theirs)))
            result = np.where(rounding, 0.0, result)
    negative = result < 0
    if np.any(negative):
        raise InvalidCountsError(f"cannot take away {what} that were never added: a count would be negative ({rounded_counts(result[negative][:3]).tolist()})")
    return result
