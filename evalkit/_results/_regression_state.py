"""The counted state of a regressor: exact sums per output, a stream's running sums, and the
counted-state protocol over them (``RegressionMetrics`` reads its getters from this state).

Every sum is exact (``evalkit._engine.moments``: Python integers in a unit far below float64's
precision), so parts merged in any order equal the whole, and a part taken away leaves no
rounding. A stream of one output counted one event at a time keeps float running sums (West's
update of the values less a shift) that its reads use while events are held, and counts the
held events into the exact sums a batch at a time.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any, cast

import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine import serialization
from evalkit._engine._exact import FLOAT_OFFSET
from evalkit._engine._types import TargetsLike
from evalkit._engine._validation import check_sample_weight, show
from evalkit._engine.moments import (
    EPSILON,
    SPREAD_TERMS,
    SUMS,
    UNIT_BITS,
    exact_sums,
    few_rows,
    few_sums,
    largest_errors,
    spread_holds,
    spread_sums,
    target_pair,
)
from evalkit._results._summed import SummedState
from evalkit.exceptions import (
    InputShapeError,
    InvalidCountsError,
    InvalidTypeError,
    UnsupportedSettingError,
)

if TYPE_CHECKING:
    from typing_extensions import Self  # typing.Self of Python 3.11, for type checkers only

__all__ = ["RegressionState"]

_NONNEGATIVE = tuple(SUMS.index(name) for name in ("weight", "yy", "pp", "abs_error", "abs_percentage"))
"""The sums that are never negative: a part taken away that would leave one so was never added."""

_LARGEST_TEXT = {-math.inf: "none", math.inf: "Infinity"}
"""The largest error of an output in a document: none counted yet, or beyond float64 (NaN, unknown after a subtraction, is "unknown")."""
_LARGEST_VALUE = {"none": -math.inf, "Infinity": math.inf, "unknown": math.nan}


def _as_float(numerator: int, denominator: int) -> float:
    """An exact rational, correctly rounded (NaN for 0/0, a signed infinity for x/0)."""
    if denominator == 0:
        return math.nan if numerator == 0 else math.copysign(math.inf, numerator)
    try:
        return numerator / denominator  # int / int: correctly rounded
    except OverflowError:
        return math.inf if (numerator > 0) == (denominator > 0) else -math.inf


def _reduced(row: list[int]) -> tuple[list[int], int]:
    """One output's exact sums divided by the largest power of two that divides them all (at most
    the unit, ``2**UNIT_BITS``), and the unit they are then counted in: the same rationals, of
    integers of the data's own digits (a few hundred bits, not the unit's thousands), which a
    read multiplies in microseconds.

    Examples:
        >>> _reduced([3 << UNIT_BITS, -(1 << (UNIT_BITS - 1))])
        ([6, -1], 2)
    """
    common = 0
    for value in row:
        common |= value  # (its lowest set bit is the lowest of any, negative values too)
    low = min(UNIT_BITS, (common & -common).bit_length() - 1) if common else UNIT_BITS
    return [value >> low for value in row], 1 << (UNIT_BITS - low)


def _remainder(numerator: int, denominator: int, centre: float) -> float:
    """``numerator / denominator - centre``, exactly, then correctly rounded (a mean less its rounded float)."""
    top, bottom = centre.as_integer_ratio()
    return _as_float(numerator * bottom - top * denominator, denominator * bottom)



_SCALED_SLACK = 1 << 64
"""How many units a sum may be off by after scalings, each rounding it to the unit (half a unit
each time; far more than any number of scalings adds up to, and far below the data: a unit is
``2**-3222``)."""


class _Moments:
    """The exact sums of each output (``SUMS``: Python integers in units of ``2**-UNIT_BITS``)
    with the samples counted: a regressor's field of sums. Added and taken away exactly (a part
    never added is refused), scaled to the nearest unit (far below float64's precision), written
    as decimal integers.

    Examples:
        >>> whole = _Moments([[4, 2, 1, 0, 0, 0, 3, 1]], 2)
        >>> whole.minus(_Moments([[2, 1, 1, 0, 0, 0, 1, 1]], 1), "samples").rows
        [[2, 1, 0, 0, 0, 0, 2, 0]]
    """

    __slots__ = ("rows", "samples")

    def __init__(self, rows: list[list[int]], samples: int) -> None:
        self.rows, self.samples = rows, samples

    def plus(self, other: _Moments) -> _Moments:
        return _Moments([[a + b for a, b in zip(mine, theirs)] for mine, theirs in zip(self.rows, other.rows)], self.samples + other.samples)

    def minus(self, other: _Moments, what: str) -> _Moments:
        """These sums without ``other``'s.

        Raises:
            InvalidCountsError: more samples, or more of a sum that is never below 0, than these hold.
        """
        left = [[a - b for a, b in zip(mine, theirs)] for mine, theirs in zip(self.rows, other.rows)]
        if other.samples > self.samples or any(row[k] < 0 for row in left for k in _NONNEGATIVE):
            raise InvalidCountsError(f"cannot take away samples that were never counted ({other.samples} samples from {self.samples})")
        return _Moments(left, self.samples - other.samples)

    def scaled(self, factor: float) -> _Moments:
        """Every sum times ``factor`` (the samples' weights times it), to the nearest unit; the
        number of samples stays."""
        numerator, denominator = float(factor).as_integer_ratio()  # a power of two below
        return _Moments([[(value * numerator + denominator // 2) // denominator for value in row] for row in self.rows], self.samples)

    def equals(self, other: _Moments) -> bool:
        return self.rows == other.rows and self.samples == other.samples

    def document(self) -> dict[str, object]:
        return {"samples": self.samples, "sums": [{name: str(value) for name, value in zip(SUMS, row)} for row in self.rows]}

    def read(self, document: dict[str, object], codes_below: int) -> _Moments:
        """The sums of as many outputs as these from a document.

        Raises:
            FormatError: not one entry of integer sums per output, or sums no samples give.
        """
        samples, rows = serialization.integer(document, "samples"), serialization.field(document, "sums")
        if not isinstance(rows, list) or len(rows) != len(self.rows):
            raise serialization.FormatError(f"field 'sums' must hold one entry per output ({len(self.rows)}), got {show(rows)}")
        try:
            sums = [[_integer_text(row[name]) for name in SUMS] for row in rows]
        except (TypeError, KeyError, ValueError):
            raise serialization.FormatError(f"field 'sums' must hold the sums {', '.join(SUMS)} of each output as integers, got {show(rows)}") from None
        read = _Moments(sums, samples)
        if read.impossible():
            raise serialization.FormatError(f"field 'sums' must hold sums that samples give (weights and squares at least 0, W Σy² >= (Σy)²), got {show(rows)}")
        return read

    def impossible(self) -> bool:
        """Whether no samples give these sums: a weight or a sum of squares below 0, or ``W Σy²``
        below ``(Σy)²`` (of the targets or of the predictions) by more than sums rounded to the
        unit by scaling can be (``_SCALED_SLACK`` units each: a part never added falls short by
        far more).

        Examples:
            >>> _Moments([[2, 2, 2, 2, 2, 0, 0, 0]], 2).impossible(), _Moments([[1 << 70, 1 << 71, 0, 1 << 70, 0, 0, 0, 0]], 1).impossible()
            (False, True)
        """
        w, y, p, yy, pp = (SUMS.index(name) for name in ("weight", "y", "p", "yy", "pp"))
        if any(row[k] < 0 for row in self.rows for k in _NONNEGATIVE):
            return True
        return any(row[w] * row[squares] - row[total] ** 2 < -_SCALED_SLACK * (row[w] + row[squares] + 2 * abs(row[total]) + 1)
                   for row in self.rows for total, squares in ((y, yy), (p, pp)))  # fmt: skip


class _Largest:
    """The largest error of each output: a regressor's field of sums that is a maximum. Merged
    by the larger; unknown (NaN) once a part is taken away, since a maximum cannot be taken
    back (unless the part counted no error); kept when scaled. Written as numbers, ``"none"`` (nothing counted), ``"Infinity"`` or
    ``"unknown"``.

    Examples:
        >>> _Largest([1.0]).plus(_Largest([2.0])).values, _Largest([2.0]).minus(_Largest([1.0]), "errors").values
        ([2.0], [nan])
    """

    __slots__ = ("values",)

    def __init__(self, values: list[float]) -> None:
        self.values = values

    def plus(self, other: _Largest) -> _Largest:
        return _Largest([max(a, b) for a, b in zip(self.values, other.values)])

    def minus(self, other: _Largest, what: str) -> _Largest:
        if all(value == -math.inf for value in other.values):
            return self  # (a part that counted no error leaves the largest as it is)
        return _Largest([math.nan] * len(self.values))

    def scaled(self, factor: float) -> _Largest:
        return self

    def equals(self, other: _Largest) -> bool:
        return serialization.same_json(self.values, other.values)

    def document(self) -> dict[str, object]:
        return {"largest_error": [_LARGEST_TEXT.get(value, value) if not math.isnan(value) else "unknown" for value in self.values]}

    def read(self, document: dict[str, object], codes_below: int) -> _Largest:
        """The largest errors of as many outputs as these from a document.

        Raises:
            FormatError: not one number (or ``"none"``, ``"Infinity"``, ``"unknown"``) per output.
        """
        largest = serialization.field(document, "largest_error")
        if not isinstance(largest, list) or len(largest) != len(self.values):
            raise serialization.FormatError(f"field 'largest_error' must hold one entry per output ({len(self.values)}), got {show(largest)}")
        return _Largest([_LARGEST_VALUE[value] if isinstance(value, str) and value in _LARGEST_VALUE else serialization.number(value, "largest_error")
                         for value in largest])  # fmt: skip


_SPREAD_NONNEGATIVE = tuple(SPREAD_TERMS.index(name) for name in ("e4", "e2y2", "y4", "ww"))


def _root_above(value: Fraction) -> Fraction:
    """An upper bound of ``√value`` (``value >= 0``), within ``2**-60`` of it relatively: exact
    integer arithmetic, so values far beyond float64's range (the bound on a rounding's error)
    never overflow.

    Examples:
        >>> _root_above(Fraction(9, 4)) >= Fraction(3, 2) > _root_above(Fraction(9, 4)) * (1 - Fraction(1, 2**59))
        True
    """
    if value <= 0:
        return Fraction(0)
    shift = max(0, 64 - (value.numerator.bit_length() - value.denominator.bit_length()) // 2)
    return Fraction(math.isqrt(-(-value.numerator * 4**shift // value.denominator)) + 1, 2**shift)


def _integer_text(value: object) -> int:
    """A sum written as decimal digits (an optional minus sign), read exactly; anything else
    (a number, ``True``, spaces, underscores) is no such text.

    Raises:
        ValueError: not such a text.
    """
    if not isinstance(value, str) or not value.lstrip("-").isdigit() or not value.lstrip("-").isascii() or value.count("-") > (value[:1] == "-"):
        raise ValueError(f"not an integer written in decimal digits: {value!r}")
    return int(value)


class _Spread:
    """The exact sums of each output's terms ``SPREAD_TERMS`` (``spread_sums``), kept with
    ``keep_spread=True``, else None: a regressor's field of sums for the spread of one sample.
    Added and taken away exactly; scaled to the nearest unit (``w²`` by the factor squared);
    written as decimal integers (``"spread": null`` when not kept, as documents before it).

    Examples:
        >>> _Spread([[1, 2, 3, 4, 5, 6]]).plus(_Spread([[1, 0, 0, 0, 0, 1]])).rows, _Spread(None).plus(_Spread(None)).rows
        ([[2, 2, 3, 4, 5, 7]], None)
    """

    __slots__ = ("rows",)

    def __init__(self, rows: list[list[int]] | None) -> None:
        self.rows = rows

    def plus(self, other: _Spread) -> _Spread:
        if self.rows is None or other.rows is None:
            return _Spread(None)
        return _Spread([[a + b for a, b in zip(mine, theirs)] for mine, theirs in zip(self.rows, other.rows)])

    def minus(self, other: _Spread, what: str) -> _Spread:
        """These sums without ``other``'s.

        Raises:
            InvalidCountsError: more of a sum that is never below 0 than these hold.
        """
        if self.rows is None or other.rows is None:
            return _Spread(None)
        left = [[a - b for a, b in zip(mine, theirs)] for mine, theirs in zip(self.rows, other.rows)]
        if any(row[k] < 0 for row in left for k in _SPREAD_NONNEGATIVE):
            raise InvalidCountsError("cannot take away samples that were never counted (their fourth powers are more than these hold)")
        return _Spread(left)

    def scaled(self, factor: float) -> _Spread:
        """Every term times ``factor`` (the weights times it; ``w²`` times its square), to the nearest unit."""
        if self.rows is None:
            return self
        numerator, denominator = float(factor).as_integer_ratio()
        powers = [1] * (len(SPREAD_TERMS) - 1) + [2]
        return _Spread([[(value * numerator**k + denominator**k // 2) // denominator**k for value, k in zip(row, powers)] for row in self.rows])

    def equals(self, other: _Spread) -> bool:
        return self.rows == other.rows

    def document(self) -> dict[str, object]:
        return {"spread": None if self.rows is None else [{name: str(value) for name, value in zip(SPREAD_TERMS, row)} for row in self.rows]}

    def read(self, document: dict[str, object], codes_below: int) -> _Spread:
        """The spread sums of as many outputs as these (None: not kept, as the settings say).

        Raises:
            FormatError: sums where none are kept, none where they are, or not one entry of
                integer sums per output.
        """
        rows = document.get("spread")
        if (rows is None) != (self.rows is None):
            raise serialization.FormatError(f"field 'spread' must be {'null: keep_spread is false' if self.rows is None else 'the sums keep_spread keeps'}, got {show(rows)}")
        if rows is None or self.rows is None:
            return self
        try:
            read = [[_integer_text(row[name]) for name in SPREAD_TERMS] for row in cast(list, rows)]
        except (TypeError, KeyError, ValueError):
            read = []
        if len(read) != len(self.rows) or any(row[k] < 0 for row in read for k in _SPREAD_NONNEGATIVE):
            raise serialization.FormatError(f"field 'spread' must hold the sums {', '.join(SPREAD_TERMS)} of each output ({len(self.rows)}) as integers "
                                            f"(e4, e2y2, y4 and ww at least 0), got {show(rows)}")  # fmt: skip
        return _Spread(read)


class RegressionState(SummedState):
    """The counted state of a regressor (see the module), declared by its sums: exact sums of
    each output with the samples counted (``_Moments``) and the largest error (``_Largest``),
    counted by ``update``, ``revert`` and one event at a time; the number of outputs is fixed
    by the first batch. ``RegressionMetrics`` is this state with its getters."""

    SETTINGS = ("outputs", "keep_spread")
    OPEN_SETTINGS = frozenset({"outputs"})
    SUMS = ("_moments", "_maxima", "_spreads")
    MISMATCH = InputShapeError
    _carried = 0
    """Events counted into the exact sums by reads (``_flush``) since the running sums were seeded."""

    def __init__(self, outputs: int | None = None, *, keep_spread: bool | None = False) -> None:
        """An empty state; ``outputs``: the number of outputs (else the first update's);
        ``keep_spread``: also keep the sums of each sample's fourth powers (``spread_sums``).

        Raises:
            InvalidTypeError: ``outputs`` not a positive integer, ``keep_spread`` not a bool.
        """
        if outputs is not None and (isinstance(outputs, bool) or not isinstance(outputs, (int, np.integer)) or outputs < 1):
            raise InvalidTypeError(f"'outputs' must be a positive integer, got {show(outputs)}")
        if keep_spread not in (True, False, None):
            raise InvalidTypeError(f"'keep_spread' must be True or False, got {show(keep_spread)}")
        self.keep_spread = bool(keep_spread)
        self._spread: list[list[int]] | None = None  # with keep_spread: the exact sums of SPREAD_TERMS of each output
        self._outputs: int | None = None
        self._samples = 0
        self._sums: list[list[int]] = []
        self._largest: list[float] = []
        self._derived: _Sums | _RunningSums | None = None
        self._pending: list[float] = []  # one-output events counted since the exact sums: y, p, +1 (or -1: taken away), ...
        self._running: list[float] | None = None  # float running sums of every sample (see _RUNNING), kept by one-event updates; read while events are held
        if outputs is not None:
            self._start(int(outputs))

    @property
    def _sums(self) -> list[list[int]]:
        """The exact sums of each output, with every pending event counted in."""
        if self._pending:
            self._flush()
        return self._exact

    @_sums.setter
    def _sums(self, rows: list[list[int]]) -> None:
        self._exact = rows

    def _flush(self, *, keep: bool = False) -> None:
        """Count the pending events into the exact sums, in one vectorised pass (a few in Python
        integers, faster below ``_FEW``; those taken away by a window, ``_revert_counted``,
        subtracted). The running sums are seeded anew from them by the next event, unless ``keep``
        (a read of the exact sums: the running sums still hold every sample) and fewer than
        ``_MOST_PENDING`` events were counted in since they were seeded.

        Raises:
            InvalidCountsError: more taken away than was counted.
        """
        pending, self._pending = self._pending, []
        self._carried = carried = self._carried + len(pending) // 3 if keep else _MOST_PENDING
        if carried >= _MOST_PENDING:
            self._running = None  # seeded anew from the exact sums by the next event: no rounding carried on
        exact, spread = self._exact, self._spread
        events = np.array(pending, dtype=np.float64).reshape(-1, 3)  # (one array: not a list of rows, which cost more than the sums)
        for sign, combine in ((1, operator.add), (-1, operator.sub)):
            chosen = events[events[:, 2] == sign]
            if len(chosen):
                rows_y, rows_p = chosen[:, :1], chosen[:, 1:2]
                sums = few_sums(rows_y.tolist(), rows_p.tolist(), None) if len(chosen) < _FEW else exact_sums(rows_y, rows_p, None)
                exact = [list(map(combine, mine, theirs)) for mine, theirs in zip(exact, sums)]
                if spread is not None:
                    spread = [list(map(combine, mine, theirs)) for mine, theirs in zip(spread, spread_sums(rows_y, rows_p, None))]
        if any(row[k] < 0 for row in exact for k in _NONNEGATIVE):
            raise InvalidCountsError("cannot take away samples that were never counted")
        self._exact, self._spread = exact, spread
        self._derived = None

    def _event_cell(self, y: object, p: object) -> tuple[Any, Any] | None:
        """One event of a stream of one output, as the pair a window counts in and out with
        ``_count_event`` (as a matrix's cell; ``_count_one`` checks its values, and refuses any
        but moderate numbers: the exact path takes them); None with more outputs."""
        return (y, p) if self._outputs is None or self._outputs == 1 else None

    def _count_event(self, event: tuple[Any, Any], amount: float, leaving: tuple[Any, Any] | None = None) -> bool:
        """Count one unweighted event of one output (``amount`` 1; -1 takes one counted before
        away) in the float running sums, its exact sums pending (counted in by the next exact
        read, in a batch), and take the event ``leaving`` (counted in before, so with a sample
        to take it from) away; False, and nothing changed, where the event cannot be (a weight
        other than 1, more outputs, nothing to take away): the exact path takes it."""
        if (amount != 1 and amount != -1) or not self._count_one(event[0], event[1], 1 if amount > 0 else -1):
            return False
        if leaving is not None:
            self._count_one(leaving[0], leaving[1], -1)
        return True

    def _count_one(self, y: object, p: object, sign: int) -> bool:
        """Count one event of one output, ``y`` and ``p`` (``sign`` 1; -1 takes one away) in the
        running sums, if both are moderate numbers (``_moderate``, inline: every event of a
        stream), else False and nothing changed (see ``_count_event``)."""
        if type(y) is not float or type(p) is not float:  # an int below 2**53: its float, exactly
            if not (_moderate(y) and _moderate(p)):
                return False
            y, p = float(y), float(p)  # type: ignore[arg-type]
        elif not ((1e-100 < y < 1e100 or -1e100 < y < -1e-100 or y == 0) and (1e-100 < p < 1e100 or -1e100 < p < -1e-100 or p == 0)):
            return False  # (NaN fails every comparison)
        if self.keep_spread and not spread_holds(y, p):  # type: ignore[arg-type]
            return False  # (the batch path refuses it, before anything is kept)
        outputs = self._outputs
        if outputs != 1:
            if outputs is not None:
                return False
            self._start(1)
        if sign < 0 and self._samples < 1:
            return False
        running = self._running
        if running is None:
            seeded = self._running_sums(y, p)
            if seeded is None:
                return False  # exact sums beyond the float running sums' range (a batch of 1e200): the exact path counts it
            running = self._running = seeded
            self._removed = [0.0] * 5  # what events taken away held (see below), since the running sums were seeded
            self._derived, self._carried = None, 0
        # West's weighted update of means and co-moments for a weight of 1 (or its inverse, -1), on
        # locals, of each value less its shift (_RUNNING: the deviations and means are of the size
        # of the samples' spread, whatever their offset): a co-moment C += (x - old mean)(x' - new
        # mean), or C -= (x - new mean)(x' - old mean)
        w, mean_y, mean_p, mean_e, c_yy, c_pp, c_yp, c_ee, absolute, percentage, shift_y, shift_p, shift_e = running
        w += sign
        error = y - p  # finite: both moderate
        distance = -error if error < 0 else error
        size = -y if y < 0 else y
        share = distance / (size if size > EPSILON else EPSILON)  # noqa: FURB136 (of the percentage error; max() costs a call on every event)
        back = error - y  # Knuth's two-sum: y - p is error + (y - (error - back)) - (p + back) exactly, its rounding kept
        e = (error - shift_e) + ((y - (error - back)) - (p + back))
        cy, cp = y - shift_y, p - shift_p
        reseed = False
        if w <= 0:  # nothing left: counted in, and seeded anew by the next event
            reseed = True
        elif sign > 0:
            dy, dp, de = cy - mean_y, cp - mean_p, e - mean_e
            mean_y, mean_p, mean_e = mean_y + dy / w, mean_p + dp / w, mean_e + de / w
            running[:] = (w, mean_y, mean_p, mean_e, c_yy + dy * (cy - mean_y), c_pp + dp * (cp - mean_p), c_yp + dy * (cp - mean_p),
                          c_ee + de * (e - mean_e), absolute + distance, percentage + share, shift_y, shift_p, shift_e)  # fmt: skip
        else:  # West's update run backwards: a window's oldest event leaving
            dy, dp, de = cy - mean_y, cp - mean_p, e - mean_e
            new_y, new_p, new_e = mean_y - dy / w, mean_p - dp / w, mean_e - de / w
            c_yy, c_pp, c_yp, c_ee = c_yy - (cy - new_y) * dy, c_pp - (cp - new_p) * dp, c_yp - (cy - new_y) * dp, c_ee - (e - new_e) * de
            absolute, percentage = absolute - distance, percentage - share
            running[:] = (w, new_y, new_p, new_e, c_yy, c_pp, c_yp, c_ee, absolute, percentage, shift_y, shift_p, shift_e)
            # A subtraction rounds against what it takes away: a sum left far below what was taken
            # from it (a window after its one large value left, a constant target's) holds mostly
            # rounding; and a window's means drift from their shifts with its samples (a trend).
            # The running sums are then seeded anew from the exact ones, counted in now.
            removed = self._removed
            removed[:] = (lost_y := removed[0] + dy * dy, lost_p := removed[1] + dp * dp, lost_e := removed[2] + de * de,
                          lost_a := removed[3] + distance, lost_q := removed[4] + share)  # fmt: skip
            reseed = (c_yy < _KEPT * lost_y or c_pp < _KEPT * lost_p or c_ee < _KEPT * lost_e or absolute < _KEPT * lost_a or percentage < _KEPT * lost_q
                      or w * new_y * new_y > _DRIFT * c_yy or w * new_p * new_p > _DRIFT * c_pp or w * new_e * new_e > _DRIFT * c_ee)  # fmt: skip
        pending = self._pending
        pending += (y, p, sign)
        self._samples += sign
        largest = self._largest
        if sign < 0:
            largest[0] = math.nan  # a maximum cannot be taken back
        elif distance > largest[0]:  # (False for NaN: unknown stays unknown)
            largest[0] = distance
        if reseed or len(pending) >= 3 * _MOST_PENDING:
            self._flush()
        return True

    def _revert_counted(self, y_true: TargetsLike, y_pred: TargetsLike, /) -> None:
        """Take away samples a window knows this result counted: one event of one output in the
        running sums (the exact sums then subtract it in a batch), anything else as ``revert``."""
        if not (type(y_true) is list and type(y_pred) is list and len(y_true) == 1 == len(y_pred) and self._count_one(y_true[0], y_pred[0], -1)):
            self.revert(y_true, y_pred)

    def _running_sums(self, y: float, p: float) -> list[float] | None:
        """The float running sums (``_RUNNING``) of the samples counted exactly so far, centred on
        their means (each correctly rounded: the means less them, the exact remainders), or, with
        no weight counted, on the event ``y``, ``p`` about to be; None where a sum is beyond
        float64, or where a mean is not moderate (exact sums of values beyond ``_moderate``: the
        exact path then counts each event, and its reads are the exact ones)."""
        row, unit = _reduced(self._exact[0])
        weight = row[0]
        if not weight:  # nothing counted (or samples of weight 0 only): every sum is 0
            return [*_NOTHING[: len(_RUNNING) - 3], y, p, y - p]
        centres = [_as_float(total, weight) for total in (row[1], row[2], row[1] - row[2])]
        if not all(abs(centre) < 1e100 for centre in centres):  # (NaN fails too) a mean beyond the moderate values': their deviations from it would square beyond float64
            return None
        remainders = [_remainder(total, weight, centre) for total, centre in zip((row[1], row[2], row[1] - row[2]), centres)]
        running = [_as_float(weight, unit), *remainders, *(_as_float(*_DERIVED[name](row, unit)) for name in _RUNNING[4:-3]), *centres]
        return running if math.isfinite(sum(running)) else None

    def _reading(self) -> _Sums | _RunningSums:
        """The sums the getters read: the float running sums while events are pending (a read
        after every event of a stream in microseconds), else the exact ones (``sums``)."""
        derived = self._derived
        if self._pending:  # (moderate values: the running sums never overflow)
            if type(derived) is not _RunningSums:
                derived = self._derived = _RunningSums(cast(list, self._running), self._largest)
            return derived
        return self.sums()

    def _start(self, outputs: int) -> None:
        """Nothing counted yet, for ``outputs`` outputs (fixed by the first batch when not given)."""
        self._outputs, self._sums, self._largest = outputs, [[0] * len(SUMS) for _ in range(outputs)], [-math.inf] * outputs
        self._spread = [[0] * len(SPREAD_TERMS) for _ in range(outputs)] if self.keep_spread else None

    @classmethod
    def from_predictions(cls, y_true: TargetsLike, y_pred: TargetsLike, *, sample_weight: ArrayLike | None = None) -> Self:
        """The metrics of one batch (see ``update``).

        Examples:
            >>> from evalkit import RegressionMetrics
            >>> RegressionMetrics.from_predictions([1, 2, 3], [1, 2, 4]).get_max_error()
            1.0
        """
        metrics = cls()
        metrics.update(y_true, y_pred, sample_weight=sample_weight)
        return metrics

    # ----------------------------------------------------------------------------------------
    # counting

    def _batch(self, y_true: TargetsLike, y_pred: TargetsLike, sample_weight: ArrayLike | None) -> tuple[list[list[int]], int, list[float], list[list[int]] | None]:
        if sample_weight is None:  # one event of a stream: Python numbers, no arrays
            rows_y, rows_p = few_rows(y_true), few_rows(y_pred)
            if rows_y is not None and rows_p is not None and len(rows_y) == len(rows_p) and len(rows_y[0]) == len(rows_p[0]) == (self._outputs or len(rows_y[0])):
                largest = [max(abs(y - p) for y, p in zip(column_y, column_p)) for column_y, column_p in zip(zip(*rows_y), zip(*rows_p))]
                spread = spread_sums(np.array(rows_y), np.array(rows_p), None) if self.keep_spread else None
                return few_sums(rows_y, rows_p, None), len(rows_y), largest, spread
        y, p = target_pair(y_true, y_pred)
        if self._outputs is not None and y.shape[1] != self._outputs:
            raise InputShapeError(f"this RegressionMetrics has {self._outputs} outputs, the batch {y.shape[1]}")
        weight = check_sample_weight(sample_weight, len(y))
        return exact_sums(y, p, weight), len(y), largest_errors(y, p).tolist(), spread_sums(y, p, weight) if self.keep_spread else None

    def update(self, y_true: TargetsLike, y_pred: TargetsLike, /, *, sample_weight: ArrayLike | None = None) -> None:
        """Count a batch of true values and predictions (1-D: one output; 2-D: samples x outputs).

        Raises:
            InvalidTypeError: not numbers. InvalidValueError: NaN or infinity.
            InputLengthError, InputShapeError: targets of other lengths or outputs.
            EmptyInputError: no samples.
        """
        if sample_weight is None and type(y_true) is list and type(y_pred) is list and len(y_true) == 1 == len(y_pred) and self._count_one(y_true[0], y_pred[0], 1):
            return  # one event of a stream ([y], [p])
        super().update(y_true, y_pred, sample_weight=sample_weight)

    def update_one(self, y_true: float, y_pred: float, /) -> None:
        """Count one sample of one output, as River's ``update(y_true, y_pred)``: ``update([y_true],
        [y_pred])`` without the lists.

        Raises:
            InvalidTypeError: not one number each. InvalidValueError: NaN or infinity.
            InputShapeError: a result of more outputs.

        Examples:
            >>> from evalkit import RegressionMetrics
            >>> metrics = RegressionMetrics()
            >>> for y, p in [(3.0, 2.5), (-0.5, 0.0), (2.0, 2.0), (7.0, 8.0)]:
            ...     metrics.update_one(y, p)
            >>> round(metrics.get_r_squared(), 4)
            0.9486
        """
        if self._count_one(y_true, y_pred, 1):
            return
        for argument, value in (("y_true", y_true), ("y_pred", y_pred)):
            if isinstance(value, (str, bytes)) or np.ndim(value) != 0:  # type: ignore[arg-type]
                raise InvalidTypeError(f"{argument!r} must be one number (update_one counts one sample; update counts a batch), got {show(value)}")
        self.update([y_true], [y_pred])

    def _count(self, y_true: TargetsLike, y_pred: TargetsLike, *, sample_weight: ArrayLike | None = None) -> tuple[_Moments, _Largest, _Spread]:
        """The sums of one batch (the first fixes the number of outputs)."""
        sums, samples, largest, spread = self._batch(y_true, y_pred, sample_weight)
        if self._outputs is None:
            self._start(len(sums))
        return _Moments(sums, samples), _Largest(largest), _Spread(spread)

    def _settings(self) -> dict[str, object]:
        return {"outputs": self._outputs, "keep_spread": self.keep_spread}

    @property
    def _moments(self) -> _Moments:
        """The exact sums and the samples, every pending event counted in (a field of ``SUMS``)."""
        return _Moments(self._sums, self._samples)

    @_moments.setter
    def _moments(self, moments: _Moments) -> None:
        self._sums, self._samples = moments.rows, moments.samples
        self._derived = self._running = None

    @property
    def _spreads(self) -> _Spread:
        """The sums of each sample's fourth powers, every pending event counted in (a field of ``SUMS``)."""
        if self._pending:
            self._flush(keep=True)
        return _Spread(self._spread)

    @_spreads.setter
    def _spreads(self, spread: _Spread) -> None:
        self._spread = spread.rows

    @property
    def _maxima(self) -> _Largest:
        """The largest error of each output (a field of ``SUMS``)."""
        return _Largest(self._largest)

    @_maxima.setter
    def _maxima(self, largest: _Largest) -> None:
        self._largest = list(largest.values)
        self._derived = None

    SPREAD_MEASURES = ("mean_absolute_error", "mean_squared_error", "root_mean_squared_error", "r_squared")
    """The measures whose spread of one sample the kept sums give (``sample_spread``)."""

    def sample_spread(self, name: str) -> tuple[int, float]:
        """The samples ``n`` and the delta-method standard deviation of one sample's influence on
        a measure of ``SPREAD_MEASURES`` (one output, unweighted, ``keep_spread=True``), from the
        exact sums, with ``e = y - p``, ``A = E[e²]``, ``B = E[(y - μ)²]``:

        * MAE: ``Var|e| = A - MAE²``; MSE: ``Var e² = E[e⁴] - A²``; RMSE: ``Var e² / (4 A)``;
        * R² = 1 - A/B: ``(Var e² - 2 (A/B) Cov(e², (y - μ)²) + (A/B)² Var (y - μ)²) / B²``.

        The fourth powers are sums of terms rounded once per sample, so the raw moments they
        give lose digits where the targets lie far from 0 for their spread; NaN where a bound on
        that loss passes 1% of the variance (centre the targets), or where it is undefined.

        Raises:
            UnsupportedSettingError: another measure, more than one output, weighted samples,
                or the spread not kept.

        Examples:
            >>> from evalkit import RegressionMetrics
            >>> metrics = RegressionMetrics(keep_spread=True)
            >>> metrics.update([1.0, 2.0, 3.0, 4.0], [1.5, 2.0, 2.5, 4.5])
            >>> metrics.sample_spread("mean_absolute_error")   # |e|: 0.5, 0, 0.5, 0.5
            (4, 0.21650635094610965)
        """
        if name not in self.SPREAD_MEASURES:
            raise UnsupportedSettingError(f"the spread of one sample is known for {', '.join(self.SPREAD_MEASURES)}, not {name!r}")
        if not self.keep_spread:
            raise UnsupportedSettingError("the spread of one sample reads the sums of each sample's fourth powers: count with keep_spread=True")
        if self._outputs is None:
            return 0, math.nan  # nothing counted yet
        if self._outputs != 1:
            raise UnsupportedSettingError(f"the spread of one sample is of one output, this result has {self._outputs or 0}")
        row, spread, n = self._sums[0], cast(list, self._spread)[0], self._samples
        if n == 0:
            return 0, math.nan
        unit, float_unit = 1 << UNIT_BITS, 1 << FLOAT_OFFSET
        if row[0] != n * unit or spread[5] != n * float_unit:  # Σw = Σw² = n only when every weight is 1
            raise UnsupportedSettingError("the spread of one sample needs whole counts: samples without weights or decay (a window's, or none)")
        e4, e2y, e2y2, y3, y4 = (Fraction(value, n * float_unit) for value in spread[:5])
        a, mae = Fraction(row[3] - 2 * row[5] + row[4], n * unit), Fraction(row[6], n * unit)
        mu, yy = Fraction(row[1], n * unit), Fraction(row[3], n * unit)
        b = yy - mu * mu
        eps = 8 * Fraction(2) ** -53  # each term of the fourth powers within 8 eps of its exact value
        if name == "mean_absolute_error":
            variance, error = a - mae * mae, Fraction(0)
        elif name in ("mean_squared_error", "root_mean_squared_error"):
            variance, error = e4 - a * a, eps * e4
            if name == "root_mean_squared_error":
                variance, error = (variance / (4 * a), error / (4 * a)) if a else (Fraction(0), Fraction(0))
        elif b == 0:
            return n, math.nan  # a constant target: no R²
        else:
            ratio, size = a / b, abs(mu)
            covariance = e2y2 - 2 * mu * e2y + mu * mu * a - a * b
            fourth = y4 - 4 * mu * y3 + 6 * mu * mu * yy - 3 * mu**4 - b * b
            variance = (e4 - a * a - 2 * ratio * covariance + ratio * ratio * fourth) / (b * b)
            error = eps * (e4 + 2 * abs(ratio) * (e2y2 + 2 * size * _root_above(e4 * yy)) + ratio * ratio * (y4 + 4 * size * _root_above(y4 * _root_above(y4))))
            error /= b * b  # (Σe²|y| <= √(Σe⁴ Σy²) and Σ|y|³ <= Σy⁴^¾ n^¼: Cauchy–Schwarz and Hölder)
        if variance <= 0 or error > variance / 100:
            return n, math.nan
        return n, math.sqrt(variance)

    def _aligned(self, other: Self, *, merging: bool = False) -> tuple[Self, Self]:
        """(Both keep the spread, or neither: its sums cannot be made up for the other's samples.)"""
        if self.keep_spread != other.keep_spread:
            raise UnsupportedSettingError("cannot combine a result that keeps the spread with one that does not (keep_spread=True and False): "
                                          "count both with the same keep_spread")  # fmt: skip
        return super()._aligned(other, merging=merging)

    def _invalid(self) -> str | None:
        return "no samples give the sums left (W Σy² below (Σy)²)" if self._moments.impossible() else None

    def _holds_nothing(self) -> bool:
        """No sample counted and every sum 0 (the largest error a part took away is not kept)."""
        self._flush()
        return self._samples == 0 and not any(any(row) for row in self._sums)

    def sums(self) -> _Sums:
        """The sums of each output the formulas read (``evalkit.measures._regression_formulas``):
        ``weight``, ``sse``, ``sst``, ``spp``, ``syp``, ``see``, ``ssr``, ``syy``, ``explained`` (SST - RSS),
        ``error_sum``, ``abs_error``, ``abs_percentage``, ``max_error``, each correctly rounded
        from the exact sums.

        Examples:
            >>> from evalkit import RegressionMetrics
            >>> RegressionMetrics.from_predictions([1, 2, 3], [1, 2, 4]).sums()["sst"].tolist()
            [2.0]
        """
        if self._pending:
            self._flush(keep=True)
        if not isinstance(self._derived, _Sums):
            self._derived = _Sums(self._sums, self._largest)
        return self._derived


_DERIVED: dict[str, Callable[[list[int], int], tuple[int, int]]] = {
    # name -> (numerator, denominator) of an exact rational, from one output's sums (w, y, p, yy, pp, yp, |e|, |e|/|y|) and the unit
    "weight": lambda s, unit: (s[0], unit),
    "sse": lambda s, unit: (s[3] - 2 * s[5] + s[4], unit),
    "sst": lambda s, unit: (s[3] * s[0] - s[1] * s[1], s[0] * unit),
    "spp": lambda s, unit: (s[4] * s[0] - s[2] * s[2], s[0] * unit),
    "syp": lambda s, unit: (s[5] * s[0] - s[1] * s[2], s[0] * unit),
    "see": lambda s, unit: ((s[3] - 2 * s[5] + s[4]) * s[0] - (s[1] - s[2]) ** 2, s[0] * unit),
    "ssr": lambda s, unit: (s[4] * s[0] - 2 * s[1] * s[2] + s[1] * s[1], s[0] * unit),
    "syy": lambda s, unit: (s[3], unit),
    "explained": lambda s, unit: ((s[3] * s[0] - s[1] * s[1]) - (s[3] - 2 * s[5] + s[4]) * s[0], s[0] * unit),  # SST - RSS
    "error_sum": lambda s, unit: (s[1] - s[2], unit),
    "abs_error": lambda s, unit: (s[6], unit),
    "abs_percentage": lambda s, unit: (s[7], unit),
}  # fmt: skip
"""The sums the formulas read, as exact rationals of the exact sums: ``Σ w (y - ȳ)² = yy - y²/w`` and so on."""


class _Sums(dict):
    """The sums of each output (``RegressionMetrics.sums``), each correctly rounded from its exact
    rational when first read: a read after one event costs only the sums its measure needs."""

    def __init__(self, rows: list[list[int]], largest: list[float]) -> None:
        super().__init__()
        reduced = [_reduced(row) for row in rows]
        self._rows, self._units, self._largest = [row for row, _ in reduced], [unit for _, unit in reduced], largest

    def __missing__(self, name: str) -> np.ndarray:
        if name == "max_error":
            values = [math.nan if value == -math.inf else value for value in self._largest]
        elif name in _DERIVED:
            rule = _DERIVED[name]
            values = [_as_float(*rule(row, unit)) for row, unit in zip(self._rows, self._units)]
        else:
            raise KeyError(f"no sum {name!r}; the sums are {', '.join([*_DERIVED, 'max_error'])}")
        found = self[name] = np.array(values, dtype=np.float64)
        return found

    def relative(self, *names: str) -> tuple[np.ndarray, ...]:
        """The sums ``names`` of each output scaled by one power of two (the same for all of an
        output), each correctly rounded: their ratios are exact even where the sums themselves
        are beyond float64's range (targets of 1e-200 have squares below it)."""
        columns: list[list[float]] = [[] for _ in names]
        for row, unit in zip(self._rows, self._units):
            exact = [_DERIVED[name](row, unit) for name in names]
            sizes = [numerator.bit_length() - denominator.bit_length() for numerator, denominator in exact if numerator and denominator]
            shift = max(sizes, default=0)
            for column, (numerator, denominator) in zip(columns, exact):
                column.append(_as_float(numerator, denominator << shift) if shift >= 0 else _as_float(numerator << -shift, denominator))
        return tuple(np.array(column, dtype=np.float64) for column in columns)

    def numerators(self, *names: str) -> tuple[np.ndarray, ...]:
        """The sums ``names`` of each output as exact integers over one denominator (the same for
        all of an output; object arrays of Python ints): their ratios, and ratios to the square
        root of their products (``formulas.pearson_correlation``), are exact rationals."""
        columns: list[list[int]] = [[] for _ in names]
        for row, unit in zip(self._rows, self._units):
            exact = [_DERIVED[name](row, unit) for name in names]
            common = math.lcm(*{denominator for _, denominator in exact})  # 0 where nothing is counted: every numerator 0, undefined
            for column, (numerator, denominator) in zip(columns, exact):
                column.append(numerator if denominator == common else numerator * (common // denominator) if denominator else 0)
        return tuple(np.array(column, dtype=object) for column in columns)


_RUNNING = ("weight", "mean_y", "mean_p", "mean_error", "sst", "spp", "syp", "see", "abs_error", "abs_percentage", "shift_y", "shift_p",
            "shift_error")  # fmt: skip
"""The float running sums of a stream of one output: the weight; the means of ``y``, ``p`` and
``e = y - p`` less their shifts; the co-moments ``Σ w (y - ȳ)²``, ``Σ w (p - p̄)²``,
``Σ w (y - ȳ)(p - p̄)``, ``Σ w (e - ē)²`` (West's update of the values less their shifts); the
plain sums of ``|e|`` and ``|e| / max(|y|, eps)``; and the shifts the running sums are centred
on: the first event's values (its ``y - p`` rounded for ``e``), or the exact means, correctly
rounded, where they are seeded from the exact sums. West's update of the raw values rounds each
mean to the spacing of floats at their offset (1.5e-8 at 1e8, against a spread of 1e-3: R² 4e-6
off); of the values less their shifts, the means and deviations are of the size of the spread,
whatever the offset. Each ``e`` is ``y - p`` exactly (Knuth's two-sum: its rounding kept), less
its shift. The other sums are sums of terms of one sign of these (``sse = see + W ē²``, see
``_RunningSums``)."""

_NOTHING = (0.0,) * len(_RUNNING)
"""The running sums of no sample (centred on 0)."""


def _moderate(value: object) -> bool:
    """Whether a stream's value is a number the float running sums hold without overflow or
    underflow of its square (0, or between 1e-100 and 1e100 in size; an int below 2**53): any
    other value takes the exact path, which also names what is wrong with it."""
    if type(value) is int:
        return abs(value) < 2**53
    return type(value) is float and (value == 0 or 1e-100 < abs(value) < 1e100)


_KEPT = 2.0**-20
"""A running sum is kept while it is more than this share of what events taken away held in it
(their squared deviations from the means, their absolute and percentage errors), since it was
seeded: its rounding, a few units of 2**-52 of what was taken away, then stays near 2**-32 of it."""

_DRIFT = 2.0**8
"""A window's running sums are kept while each mean less its shift, ``m``, is within ``2**4``
spreads of its values (``W m² <= 2**8 C``, ``C`` their co-moment): each deviation ``x - m`` is
then rounded to a few units of ``2**-53`` of ``2**4`` spreads, and a window's sums stay within
about ``1e-14`` of ``W (max - min)²`` of the values it holds. A window's samples drift away from
the shift (a trend), so it is seeded anew past that (at ``2**6`` spreads a trend read ``2e-13``
of it). A stream only adds samples and is not checked: its mean stays within ``sqrt(W)`` spreads
of each sample, ``W <= _MOST_PENDING`` events until they are counted in."""

_MOST_PENDING = 4096
"""Events of a stream held for the exact sums at the most: then counted in, in one batch (and
the running sums seeded anew)."""

_FEW = 256
"""Held events fewer than this are counted into the exact sums in Python integers (about 5 µs
an event), more in numpy (a fixed 2 ms, then 0.2 µs an event)."""


def _mean_error(running: list[float]) -> float:
    """``ē``, the errors' mean: their shift and their mean less it."""
    return running[12] + running[3]


def _sse(running: list[float]) -> float:
    """``Σ w e² = Σ w (e - ē)² + W ē²``: two terms >= 0, no cancellation."""
    mean = running[12] + running[3]
    return running[7] + running[0] * mean * mean


_OF_RUNNING: dict[str, Callable[[list[float]], float]] = {
    **{name: operator.itemgetter(position) for position, name in enumerate(_RUNNING) if name in _DERIVED},
    "sse": _sse,
    "explained": lambda running: running[4] - _sse(running),  # SST - RSS
    "ssr": lambda running: running[5] + running[0] * _mean_error(running) ** 2,  # Σ w (p - ȳ)² = Σ w (p - p̄)² + W (p̄ - ȳ)², p̄ - ȳ = -ē
    "syy": lambda running: running[4] + running[0] * (running[10] + running[1]) ** 2,  # Σ w y² = Σ w (y - ȳ)² + W ȳ²
    "error_sum": lambda running: running[0] * _mean_error(running),
}
"""Each sum (as ``_Sums`` names them) of the float running sums of a stream (``_RUNNING``)."""


class _RunningSums:
    """The sums of one output (as ``_Sums`` gives them) from the float running sums of a stream
    (``_RUNNING``), as Python floats (the formulas take them as they take arrays, in nanoseconds):
    equal to the exact ones to rounding, read without converting a rational."""

    __slots__ = ("_largest", "_running")

    def __init__(self, running: list[float], largest: list[float]) -> None:
        self._running, self._largest = running, largest

    def __getitem__(self, name: str) -> float:
        rule = _OF_RUNNING.get(name)
        if rule is not None:
            return rule(self._running)
        if name == "max_error":
            return math.nan if self._largest[0] == -math.inf else self._largest[0]
        raise KeyError(f"no sum {name!r}; the sums are {', '.join([*_DERIVED, 'max_error'])}")

    def relative(self, *names: str) -> tuple[float, ...]:
        running = self._running
        try:
            return tuple([_OF_RUNNING[name](running) for name in names])
        except KeyError:  # max_error, or no such sum: as a read of it says
            return tuple(map(self.__getitem__, names))


