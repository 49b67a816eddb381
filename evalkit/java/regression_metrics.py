"""RegressionMetrics: the regression half of visrec's ``EvaluationMetrics``, as an object that
updates, merges and streams, on exact sums.

Deep Netts' ``RegresionEvaluator`` sets four of visrec's regression keys (RSE, R², F, MSE) in
single precision from the first output only; DL4J's ``RegressionEvaluation``, Spark's
``RegressionMetrics`` and Weka's numeric ``Evaluation`` each report a few more. Here every one
is a getter of one object, computed from sums that merge exactly (``evalkit.engine.moments``).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, NamedTuple, cast

import numpy as np
from numpy.typing import ArrayLike

from evalkit.engine import serialization
from evalkit.engine._types import MultioutputLike, OutputValues, TargetsLike
from evalkit.engine._validation import RandomState, check_choice, check_sample_weight, format_number, show
from evalkit.engine.moments import (
    EPSILON,
    SUMS,
    UNIT_BITS,
    exact_sums,
    few_rows,
    few_sums,
    largest_errors,
    target_pair,
)
from evalkit.exceptions import (
    EmptyInputError,
    InputShapeError,
    InvalidArgumentError,
    InvalidCountsError,
    InvalidTypeError,
    UnknownMetricError,
    UnsupportedSettingError,
)
from evalkit.java.evaluation_metrics import EvaluationMetrics
from evalkit.java.stats import Stats
from evalkit.measures import regression_formulas as formulas
from evalkit.measures.averaging import UndefinedPolicy
from evalkit.measures.registry import getter_metadata, spelling, unknown_name_message
from evalkit.results._closed_form import Interval
from evalkit.results._resampling import _bootstrap, _check_resamples, _dense_kinds, check_random_state
from evalkit.results.counted import CountedState

__all__ = ["RegressionMeasure", "RegressionMetrics"]

_NEEDS_DATA = {
    "median_absolute_error": "evalkit.metrics.median_absolute_error(y_true, y_pred)",
    "d2_absolute_error_score": "evalkit.metrics.d2_absolute_error_score(y_true, y_pred)",
    "d2_pinball_score": "evalkit.metrics.d2_pinball_score(y_true, y_pred, alpha=...)",
    "mean_pinball_loss": "evalkit.metrics.mean_pinball_loss(y_true, y_pred, alpha=...)",
}
"""Measures of an order statistic (a median, a quantile) or of a loss with a parameter: no sums
give them, so a ``RegressionMetrics`` refuses them and says where they are computed from the data."""

_ALIASES = {
    "rsquared": "r_squared", "r2": "r_squared", "r2_score": "r_squared", "coefficient_of_determination": "r_squared",
    "fstatistics": "f_stat", "f_statistic": "f_stat", "mse": "mean_squared_error", "rmse": "root_mean_squared_error",
    "mae": "mean_absolute_error", "mape": "mean_absolute_percentage_error", "rss": "residual_square_sum",
    "sse": "residual_square_sum", "residual_sum_of_squares": "residual_square_sum", "rse": "residual_standard_error",
    "explained_variance_score": "explained_variance", "correlation_coefficient": "pearson_correlation",
    "correlation": "pearson_correlation", "max_absolute_error": "max_error", "rrse": "root_relative_squared_error",
    "d2_squared_error_score": "r_squared",
}  # fmt: skip
"""Other spellings users type, visrec's keys among them (``"RSquared"``, ``"FStatistics"``)."""


_NONNEGATIVE = tuple(SUMS.index(name) for name in ("weight", "yy", "pp", "abs_error", "abs_percentage"))
"""The sums that are never negative: a part taken away that would leave one so was never added."""

_LARGEST_TEXT = {-math.inf: "none", math.inf: "Infinity"}
"""The largest error of an output in a document: none counted yet, or beyond float64 (NaN, unknown after a subtraction, is "unknown")."""
_LARGEST_VALUE = {"none": -math.inf, "Infinity": math.inf, "unknown": math.nan}


class RegressionMeasure(NamedTuple):
    """A measure of a regression metrics class: its getter and what ``evalkit.measure`` says of it."""

    name: str
    getter: str
    title: str
    description: str
    direction: str | None
    bounds: tuple[float, float]
    aliases: tuple[str, ...]


_BUILT_IN: dict[str, tuple[str | None, tuple[float, float], str]] = {
    "mean_absolute_error": ("lower", (0.0, math.inf), "MAE"),
    "mean_squared_error": ("lower", (0.0, math.inf), "MSE"),
    "root_mean_squared_error": ("lower", (0.0, math.inf), "RMSE"),
    "residual_square_sum": ("lower", (0.0, math.inf), "RSS"),
    "residual_standard_error": ("lower", (0.0, math.inf), "RSE"),
    "r_squared": ("higher", (-math.inf, 1.0), "R²"),
    "f_stat": ("higher", (-math.inf, math.inf), "F"),
    "explained_variance": ("higher", (-math.inf, 1.0), ""),
    "max_error": ("lower", (0.0, math.inf), ""),
    "mean_absolute_percentage_error": ("lower", (0.0, math.inf), "MAPE"),
    "pearson_correlation": ("higher", (-1.0, 1.0), "r"),
    "root_relative_squared_error": ("lower", (0.0, math.inf), "RRSE"),
    "relative_squared_error": ("lower", (0.0, math.inf), ""),
    "regression_sum_of_squares": (None, (0.0, math.inf), "SSR"),
    "total_sum_of_squares": (None, (0.0, math.inf), "SST"),
}
"""Direction, bounds and abbreviation of the built-in getters."""


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


class RegressionMetrics(CountedState, EvaluationMetrics):
    """The metrics of a regressor, from sums that merge exactly: one object per evaluation,
    updated batch by batch or one sample at a time, merged with ``+``.

    Every getter works on each output and combines them by ``multioutput`` as scikit-learn
    (``"uniform_average"`` by default, ``"raw_values"``, ``"variance_weighted"`` or weights).
    The sums are exact (``evalkit.engine.moments``), so parts merged in any order equal the whole,
    and R² is free of the cancellation of floating-point sums of squares. Undefined values (a
    constant target's R², the RSE of too few samples) are NaN.

    A stream of one output (``update([y], [p])``, one unweighted sample at a time) is counted in
    float running sums (West's update of means and co-moments of the values less a shift, so at
    any offset) in about two microseconds, and its exact sums are made of the events held, a
    batch at a time: the getters read the running sums while events are held (equal to the exact
    values to rounding, about 1e-14 relative), and ``sums()``, the correlation, merges, ``-``,
    ``scaled``, copies, ``==``, JSON and pickles count the held events in first, so they stay exact.

    Construction:
        ``RegressionMetrics()`` then ``update(y_true, y_pred, sample_weight=None)``, or
        ``RegressionMetrics.from_predictions(y_true, y_pred, sample_weight=None)``.
    visrec's keys:
        ``get_mean_absolute_error``, ``get_mean_squared_error``,
        ``get_root_mean_squared_error``, ``get_residual_square_sum``,
        ``get_residual_standard_error(n_inputs=1)``, ``get_r_squared``,
        ``get_f_stat(n_inputs=1)``; ``get(EvaluationMetrics.R_SQUARED)``.
    More:
        ``get_explained_variance``, ``get_max_error``, ``get_mean_absolute_percentage_error``,
        ``get_pearson_correlation``, ``get_root_relative_squared_error``,
        ``get_regression_sum_of_squares``, ``get_total_sum_of_squares``, ``get_samples``,
        ``get_total_weight``.
    Measures by name:
        ``measure``, ``measures``, ``metric_names``, ``get``, ``to_dict``.

    A subclass adds a metric by defining one more ``get_*`` method (described, if wanted, with
    ``@evalkit.measure``); it reads the per-output sums with ``self.sums()``.

    Examples:
        >>> metrics = RegressionMetrics.from_predictions([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
        >>> metrics.get_mean_squared_error(), round(metrics.get_r_squared(), 6)
        (0.375, 0.948608)
        >>> metrics.get(EvaluationMetrics.R_SQUARED) == metrics.get_r_squared()
        True
    """

    DOCUMENT = "RegressionMetrics"
    OPERATIONS: ClassVar[frozenset[str]] = frozenset(
        {"update", "revert", "count", "merge", "subtract", "scale", "empty", "copy", "equality", "json", "pickle"}
    )
    EXACT_SUMS: ClassVar[bool] = True
    NON_METRIC_GETTERS: ClassVar[frozenset[str]] = frozenset({"get_samples", "get_total_weight", "get_outputs"})
    """No-argument getters that are not metrics (counts)."""
    _carried = 0
    """Events counted into the exact sums by reads (``_flush``) since the running sums were seeded."""

    def __init__(self, outputs: int | None = None) -> None:
        """An empty evaluation; ``outputs``: the number of outputs (else the first update's).

        Raises:
            InvalidTypeError: ``outputs`` not a positive integer.
        """
        EvaluationMetrics.__init__(self)
        if outputs is not None and (isinstance(outputs, bool) or not isinstance(outputs, (int, np.integer)) or outputs < 1):
            raise InvalidTypeError(f"'outputs' must be a positive integer, got {show(outputs)}")
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
        exact = self._exact
        for sign, combine in ((1, operator.add), (-1, operator.sub)):
            rows_y = [[y] for y, counted in zip(pending[0::3], pending[2::3]) if counted == sign]
            if rows_y:
                rows_p = [[p] for p, counted in zip(pending[1::3], pending[2::3]) if counted == sign]
                sums = few_sums(rows_y, rows_p, None) if len(rows_y) < _FEW else exact_sums(np.array(rows_y), np.array(rows_p), None)
                exact = [list(map(combine, mine, theirs)) for mine, theirs in zip(exact, sums)]
        if any(row[k] < 0 for row in exact for k in _NONNEGATIVE):
            raise InvalidCountsError("cannot take away samples that were never counted")
        self._exact = exact
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
        float64 (exact sums of values beyond ``_moderate``)."""
        row, unit = _reduced(self._exact[0])
        weight = row[0]
        if not weight:  # nothing counted (or samples of weight 0 only): every sum is 0
            return [*_NOTHING[: len(_RUNNING) - 3], y, p, y - p]
        centres = [_as_float(total, weight) for total in (row[1], row[2], row[1] - row[2])]
        if not all(map(math.isfinite, centres)):
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

    @classmethod
    def from_predictions(cls, y_true: TargetsLike, y_pred: TargetsLike, *, sample_weight: ArrayLike | None = None) -> RegressionMetrics:
        """The metrics of one batch (see ``update``).

        Examples:
            >>> RegressionMetrics.from_predictions([1, 2, 3], [1, 2, 4]).get_max_error()
            1.0
        """
        metrics = cls()
        metrics.update(y_true, y_pred, sample_weight=sample_weight)
        return metrics

    # ----------------------------------------------------------------------------------------
    # counting

    def _batch(self, y_true: TargetsLike, y_pred: TargetsLike, sample_weight: ArrayLike | None) -> tuple[list[list[int]], int, list[float]]:
        if sample_weight is None:  # one event of a stream: Python numbers, no arrays
            rows_y, rows_p = few_rows(y_true), few_rows(y_pred)
            if rows_y is not None and rows_p is not None and len(rows_y) == len(rows_p) and len(rows_y[0]) == len(rows_p[0]) == (self._outputs or len(rows_y[0])):
                largest = [max(abs(y - p) for y, p in zip(column_y, column_p)) for column_y, column_p in zip(zip(*rows_y), zip(*rows_p))]
                return few_sums(rows_y, rows_p, None), len(rows_y), largest
        y, p = target_pair(y_true, y_pred)
        if self._outputs is not None and y.shape[1] != self._outputs:
            raise InputShapeError(f"this RegressionMetrics has {self._outputs} outputs, the batch {y.shape[1]}")
        weight = check_sample_weight(sample_weight, len(y))
        return exact_sums(y, p, weight), len(y), largest_errors(y, p).tolist()

    def update(self, y_true: TargetsLike, y_pred: TargetsLike, /, *, sample_weight: ArrayLike | None = None) -> None:
        """Count a batch of true values and predictions (1-D: one output; 2-D: samples x outputs).

        Raises:
            InvalidTypeError: not numbers. InvalidValueError: NaN or infinity.
            InputLengthError, InputShapeError: targets of other lengths or outputs.
            EmptyInputError: no samples.
        """
        if sample_weight is None and type(y_true) is list and type(y_pred) is list and len(y_true) == 1 == len(y_pred) and self._count_one(y_true[0], y_pred[0], 1):
            return  # one event of a stream ([y], [p])
        sums, samples, largest = self._batch(y_true, y_pred, sample_weight)
        if self._outputs is None:
            self._start(len(sums))
        self._add(sums, samples, largest)

    def _add(self, sums: list[list[int]], samples: int, largest: list[float]) -> None:
        self._sums = [[a + b for a, b in zip(mine, theirs)] for mine, theirs in zip(self._sums, sums)]
        self._running = None
        self._samples += samples
        self._largest = [max(a, b) for a, b in zip(self._largest, largest)]
        self._derived = None

    def revert(self, y_true: TargetsLike, y_pred: TargetsLike, /, *, sample_weight: ArrayLike | None = None) -> None:
        """Take samples counted before away, in place (River's ``revert``). The largest error
        is then unknown (a maximum cannot be taken back): ``get_max_error`` is NaN.

        Raises:
            InvalidCountsError: more samples or weight than were counted; nothing is taken away.
        """
        sums, samples, _ = self._batch(y_true, y_pred, sample_weight)
        self._take(sums, samples)

    def _take(self, sums: list[list[int]], samples: int) -> None:
        left = [[a - b for a, b in zip(mine, theirs)] for mine, theirs in zip(self._sums, sums)]
        if samples > self._samples or any(row[k] < 0 for row in left for k in _NONNEGATIVE):
            raise InvalidCountsError(f"cannot take away samples that were never counted ({samples} samples from {self._samples})")
        self._sums, self._samples = left, self._samples - samples
        self._largest = [math.nan] * len(self._largest)
        self._derived = self._running = None

    # ----------------------------------------------------------------------------------------
    # the counted-state protocol

    def merge(self, other: RegressionMetrics, *, grow: bool = False) -> RegressionMetrics:
        """The metrics of both, as if counted together (``a + b``).

        Raises:
            InvalidTypeError: not a RegressionMetrics.
            InputShapeError: other numbers of outputs.
        """
        self._check_kind(other, "merge")
        base = self if isinstance(self, type(other)) else other  # the more specific class
        rest = other if base is self else self
        result = base.copy()
        if rest._outputs is None:
            return result
        if result._outputs is None:
            result._start(rest._outputs)
        if result._outputs != rest._outputs:
            raise InputShapeError(f"cannot merge RegressionMetrics of {self._outputs} and {other._outputs} outputs")
        result._add(rest._sums, rest._samples, rest._largest)
        return result

    def _subtract(self, other: RegressionMetrics) -> RegressionMetrics:
        result = self.copy()
        if other._outputs is None:  # nothing counted: nothing to take away
            return result
        if self._outputs != other._outputs:
            raise InputShapeError(f"cannot subtract RegressionMetrics of {other._outputs} outputs from one of {self._outputs}")
        result._take(other._sums, other._samples)
        return result

    def _scaled(self, factor: float) -> RegressionMetrics:
        """Every sum times ``factor`` (a decayed past: the samples' weights times the factor),
        to the nearest ``2**-UNIT_BITS``, the sums' unit: far below float64's precision, so the
        measures are those of the weights scaled; the number of samples and the largest error stay."""
        numerator, denominator = float(factor).as_integer_ratio()  # a power of two below
        result = self.copy()
        result._sums = [[(value * numerator + denominator // 2) // denominator for value in row] for row in self._sums]
        result._derived = None
        return result

    def empty(self) -> RegressionMetrics:
        """The same class and number of outputs, nothing counted."""
        return type(self)(self._outputs)

    def _holds_nothing(self) -> bool:
        """No sample counted and every sum 0 (the largest error a part took away is not kept)."""
        self._flush()
        return self._samples == 0 and not any(any(row) for row in self._sums)

    def copy(self) -> RegressionMetrics:
        """An independent copy."""
        copied = type(self).__new__(type(self))
        EvaluationMetrics.__init__(copied)
        copied._values = dict(self._values)
        copied._outputs, copied._samples = self._outputs, self._samples
        copied._sums, copied._largest = [list(row) for row in self._sums], list(self._largest)  # every pending event counted in first
        copied._derived, copied._pending, copied._running = None, [], None
        return copied

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RegressionMetrics):
            return NotImplemented
        return (
            type(self) is type(other)
            and (self._outputs, self._samples, self._sums) == (other._outputs, other._samples, other._sums)
            and serialization.same_json(self._largest, other._largest)
        )

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __getstate__(self) -> dict[str, object]:
        return {"values": self._values, "outputs": self._outputs, "samples": self._samples, "sums": self._sums, "largest": self._largest}

    def __setstate__(self, state: dict) -> None:
        self._values, self._outputs, self._samples = state["values"], state["outputs"], state["samples"]
        self._pending, self._running = [], None
        self._sums, self._largest, self._derived = state["sums"], state["largest"], None

    def _document(self) -> dict[str, object]:
        return {
            "class": type(self).__name__,
            "outputs": self._outputs,
            "samples": self._samples,
            "sums": [{name: str(value) for name, value in zip(SUMS, row)} for row in self._sums],
            "largest_error": [_LARGEST_TEXT.get(value, value) if not math.isnan(value) else "unknown" for value in self._largest],
            "values": {name: None if math.isnan(value) else value for name, value in self._values.items()},
        }

    @classmethod
    def _read_document(cls, document: dict) -> RegressionMetrics:
        outputs = serialization.integer(document, "outputs", low=1, optional=True)
        samples = serialization.integer(document, "samples")
        rows = serialization.field(document, "sums")
        largest = serialization.field(document, "largest_error")
        size = 0 if outputs is None else outputs
        if not isinstance(rows, list) or len(rows) != size or not isinstance(largest, list) or len(largest) != size:
            raise serialization.FormatError(f"fields 'sums' and 'largest_error' must hold one entry per output ({size}), got {show(rows)}")
        metrics = cls(outputs)
        try:
            metrics._sums = [[int(row[name]) for name in SUMS] for row in rows]
        except (TypeError, KeyError, ValueError):
            raise serialization.FormatError(f"field 'sums' must hold the sums {', '.join(SUMS)} of each output as integers, got {show(rows)}") from None
        metrics._samples = samples
        metrics._largest = [_LARGEST_VALUE[value] if isinstance(value, str) and value in _LARGEST_VALUE else serialization.number(value, "largest_error")
                            for value in largest]  # fmt: skip
        values = serialization.field(document, "values")
        if not isinstance(values, dict):
            raise serialization.FormatError(f"field 'values' must be an object, got {show(values)}")
        metrics._values = {str(name): serialization.number(value, f"values.{name}", nullable=True) for name, value in values.items()}
        return metrics

    # ----------------------------------------------------------------------------------------
    # the sums a measure reads

    def get_samples(self) -> int:
        """The number of samples counted."""
        return self._samples

    def get_outputs(self) -> int:
        """The number of outputs (0 before the first update)."""
        return self._outputs or 0

    def get_total_weight(self) -> float:
        """The sum of the sample weights (the number of samples without weights)."""
        return float(self.sums()["weight"][0]) if self._outputs else 0.0

    def sums(self) -> _Sums:
        """The sums of each output the formulas read (``evalkit.measures.regression_formulas``):
        ``weight``, ``sse``, ``sst``, ``spp``, ``syp``, ``see``, ``ssr``, ``syy``, ``explained`` (SST - RSS),
        ``error_sum``, ``abs_error``, ``abs_percentage``, ``max_error``, each correctly rounded
        from the exact sums.

        Examples:
            >>> RegressionMetrics.from_predictions([1, 2, 3], [1, 2, 4]).sums()["sst"].tolist()
            [2.0]
        """
        if self._pending:
            self._flush(keep=True)
        if not isinstance(self._derived, _Sums):
            self._derived = _Sums(self._sums, self._largest)
        return self._derived

    def combine_outputs(self, values: formulas.Sums, multioutput: MultioutputLike, variances: formulas.Sums | None = None) -> OutputValues:
        """One value per output, combined by ``multioutput`` (``variances``: the weights of
        ``"variance_weighted"``, each output's SST by default): what every getter returns.

        Raises:
            EmptyInputError: nothing counted yet. InvalidArgumentError, InputShapeError: a bad ``multioutput``.
        """
        if type(values) is float and type(multioutput) is str and multioutput in ("uniform_average", "variance_weighted"):
            return values  # one output read from a stream's running sums: its value, no arrays
        if variances is None and isinstance(multioutput, str) and multioutput == "variance_weighted":
            variances = self._reading()["sst"]
        if self._outputs is None:
            raise EmptyInputError("this RegressionMetrics has counted nothing yet")
        return formulas.combine(values, formulas.check_multioutput(multioutput, self._outputs), variances)

    # ----------------------------------------------------------------------------------------
    # visrec's regression keys

    def get_mean_absolute_error(self, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """``MAE = Σ w |y - p| / Σ w``."""
        return self.combine_outputs(formulas.mean_of(*self._reading().relative("abs_error", "weight")), multioutput)

    def get_mean_squared_error(self, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """``MSE = Σ w (y - p)² / Σ w``."""
        return self.combine_outputs(formulas.mean_of(*self._reading().relative("sse", "weight")), multioutput)

    def get_root_mean_squared_error(self, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """``RMSE = sqrt(MSE)`` of each output (then combined, as scikit-learn)."""
        return self.combine_outputs(formulas.root(formulas.mean_of(*self._reading().relative("sse", "weight"))), multioutput)

    def get_residual_square_sum(self, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """``RSS = Σ w (y - p)²`` (the residual sum of squares)."""
        return self.combine_outputs(self._reading()["sse"], multioutput)

    def get_residual_standard_error(self, n_inputs: int = 1, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """``RSE = sqrt(RSS / (n - k - 1))`` for a regressor of ``k = n_inputs`` inputs."""
        return self.combine_outputs(formulas.residual_standard_error(self._reading()["sse"], self._samples, n_inputs), multioutput)

    def get_r_squared(self, multioutput: MultioutputLike = "uniform_average", *, through_origin: bool = False) -> OutputValues:
        """``R² = 1 - RSS / Σ w (y - ȳ)²``; ``through_origin=True``: ``1 - RSS / Σ w y²``
        (Spark's ``RegressionMetrics(throughOrigin=true)``, a model without intercept)."""
        sums = self._reading()
        if through_origin:
            return self.combine_outputs(formulas.r_squared(*sums.relative("sse", "syy")), multioutput, sums["syy"])
        return self.combine_outputs(formulas.r_squared(*sums.relative("sse", "sst")), multioutput)  # (weighted by each output's sst)

    def get_f_stat(self, n_inputs: int = 1, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """``F = ((SST - RSS) / k) / (RSS / (n - k - 1))`` for ``k = n_inputs`` inputs."""
        explained, sse = self._reading().relative("explained", "sse")
        return self.combine_outputs(formulas.f_statistic(explained, sse, self._samples, n_inputs), multioutput)

    # ----------------------------------------------------------------------------------------
    # more measures

    def get_explained_variance(self, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """``1 - Var(y - p) / Var(y)`` (scikit-learn's ``explained_variance_score``)."""
        sums = self._reading()
        return self.combine_outputs(formulas.fraction_explained(*sums.relative("see", "sst")), multioutput, sums["sst"])

    def get_max_error(self, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """The largest ``|y - p|`` (NaN after samples were taken away)."""
        return self.combine_outputs(self._reading()["max_error"], multioutput)

    def get_mean_absolute_percentage_error(self, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """``MAPE = Σ w |y - p| / max(|y|, eps) / Σ w`` (a fraction, as scikit-learn: not in percent)."""
        return self.combine_outputs(formulas.mean_of(*self._reading().relative("abs_percentage", "weight")), multioutput)

    def get_pearson_correlation(self, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """Pearson's correlation ``r = syp / sqrt(sst spp)`` of targets and predictions (Weka's
        ``correlationCoefficient``, DL4J's ``correlationR2``), correctly rounded from the exact sums
        (a stream's held events counted in first), as the MCC: within [-1, 1], and exactly 1 of
        targets with themselves."""
        numerators = self.sums().numerators("syp", "sst", "spp")
        if len(numerators[0]) == 1 and numerators[0].dtype == object:  # one output's exact sums: Python ints, a float (no arrays)
            numerators = tuple(column[0] for column in numerators)
        return self.combine_outputs(formulas.pearson_correlation(*numerators), multioutput)

    def get_root_relative_squared_error(self, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """``sqrt(RSS / Σ w (y - ȳ)²)``: the RMSE relative to predicting the mean (Weka's root
        relative squared error over 100, when its prior is the evaluated data's mean)."""
        return self.combine_outputs(formulas.root(formulas.mean_of(*self._reading().relative("sse", "sst"))), multioutput)

    def get_relative_squared_error(self, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """``RSS / Σ w (y - ȳ)²`` (DL4J's ``relativeSquaredError``, which its ``stats()`` heads "RSE";
        visrec's RSE is the residual standard error)."""
        return self.combine_outputs(formulas.mean_of(*self._reading().relative("sse", "sst")), multioutput)

    def get_regression_sum_of_squares(self, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """``SSR = Σ w (p - ȳ)²`` (Spark's ``explainedVariance`` is ``SSR / Σ w``)."""
        return self.combine_outputs(self._reading()["ssr"], multioutput)

    def get_total_sum_of_squares(self, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """``SST = Σ w (y - ȳ)²``."""
        return self.combine_outputs(self._reading()["sst"], multioutput)

    def __getattr__(self, attribute: str) -> OutputValues:
        """Measures that need the data refuse with where to compute them."""
        name = attribute[4:] if attribute.startswith("get_") else ""
        if name in _NEEDS_DATA:
            raise UnsupportedSettingError(
                f"{name} is an order statistic or a quantile loss of the data, which no sums give: "
                f"compute it from the data with {_NEEDS_DATA[name]}"
            )
        raise self._unknown_attribute(attribute)

    # ----------------------------------------------------------------------------------------
    # uncertainty

    def f_test(self, n_inputs: int = 1, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """The p-value of the F test that a regressor of ``n_inputs`` inputs explains nothing
        (all its coefficients 0): the chance of an F statistic at least ``get_f_stat`` under the
        F distribution of ``(k, n - k - 1)`` degrees of freedom, exact for a least-squares fit
        with normal errors (needs scipy).

        Examples:
            >>> metrics = RegressionMetrics.from_predictions([1, 2, 3, 4, 5], [1.1, 1.9, 3.2, 3.9, 5.1])
            >>> metrics.f_test() < 0.001
            True
        """
        from scipy import stats  # an optional dependency: the F distribution is scipy's

        explained, sse = self._reading().relative("explained", "sse")
        k = formulas.check_inputs(n_inputs)
        statistic = formulas.f_statistic(explained, sse, self._samples, k)
        values = np.where(np.isnan(statistic), np.nan, stats.f.sf(statistic, k, max(self._samples - k - 1, 1)))
        return self.combine_outputs(values, multioutput)

    @classmethod
    def bootstrap(
        cls, y_true: TargetsLike, y_pred: TargetsLike, measure: str | Callable[..., float] = "r_squared", *,
        sample_weight: ArrayLike | None = None, multioutput: MultioutputLike = "uniform_average", level: float = 0.95, method: str = "bca",
        n_resamples: int = 2000, random_state: RandomState = None, **parameters: object,
    ) -> Interval:  # fmt: skip
        """The bootstrap interval of a measure: samples drawn with replacement ``n_resamples``
        times. A measure of this class (a getter name without ``get_``, in any spelling) is read
        from the sums of every resample at once, in one matrix product (BCa, percentile or
        normal). A function of the data, such as ``evalkit.metrics.median_absolute_error``
        (an order statistic no sums give), is called on each resample (percentile or normal:
        ``method="bca"`` gives the percentile interval, as BCa's jackknife would call it once
        per sample).

        Args:
            measure: a measure name (``"r_squared"``, ``"RSquared"``, ``"rmse"``), or a function
                ``f(y_true, y_pred, sample_weight=...)`` returning a number.
            parameters: the measure's own (``n_inputs=2``), or the function's (``alpha=0.9``).

        Raises:
            UnknownMetricError: no such measure (one that needs the data names its function).
            InvalidArgumentError: a bad level, method or number of resamples.

        Examples:
            >>> import numpy as np
            >>> rng = np.random.default_rng(0)
            >>> y = rng.normal(size=200)
            >>> interval = RegressionMetrics.bootstrap(y, y + rng.normal(0, 0.5, 200), "r_squared", random_state=0)
            >>> interval.low < interval.estimate < interval.high
            True
        """
        check_choice("method", method, ("bca", "percentile", "normal"))
        y, p = target_pair(y_true, y_pred)
        weight = check_sample_weight(sample_weight, len(y))
        weight = np.ones(len(y)) if weight is None else weight.astype(np.float64)
        if callable(measure) and not isinstance(measure, str):
            return _data_interval(measure, y, p, weight if sample_weight is not None else None, parameters,
                                  level=level, method=method, n_resamples=n_resamples, random_state=random_state)  # fmt: skip
        getter = getattr(cls, cls.measure(measure).getter)
        whole = cls.from_predictions(y, p, sample_weight=weight)
        estimate = float(getter(whole, multioutput=multioutput, **parameters))
        outputs = y.shape[1]
        terms = _bootstrap_terms(y, p, weight)  # samples x (outputs * 10)
        kinds = _dense_kinds(terms, np.ones(len(y), dtype=np.int64))

        def statistic(sums: np.ndarray) -> np.ndarray:
            view = cls._view(sums.reshape(len(sums), outputs, -1), len(y))
            values = np.asarray(getter(view, multioutput="raw_values", **parameters), dtype=np.float64).reshape(outputs, len(sums))
            checked = formulas.check_multioutput(multioutput, outputs)
            return np.array([formulas.combine(values[:, row], checked, view.sums()["sst"].reshape(outputs, -1)[:, row]) for row in range(len(sums))])

        return _bootstrap(kinds, statistic, estimate, level=level, method=method, n_resamples=n_resamples, random_state=random_state)

    @classmethod
    def _view(cls, sums: np.ndarray, samples: int) -> RegressionMetrics:
        """A reading of float sums (resamples x outputs x terms) whose outputs are every
        (output, resample): each getter vectorised over resamples, as it is written."""
        view = cls.__new__(cls)
        EvaluationMetrics.__init__(view)
        view._samples, view._sums, view._largest, view._pending, view._running = samples, [], [], [], None
        view._derived = _FloatSums(np.moveaxis(sums, 0, 1).reshape(-1, sums.shape[2]))
        view._outputs = len(view._derived["weight"])
        return view

    # ----------------------------------------------------------------------------------------
    # measures by name

    @classmethod
    def average(cls, results: Iterable[RegressionMetrics], *, undefined: UndefinedPolicy = "exclude") -> Stats:
        """Every metric summarized over ``results`` (the folds of a cross-validation): mean, std,
        min, max and defined count, as ``ClassificationMetrics.average`` (what Deep Netts'
        ``RegresionEvaluator.averagePerformance`` does, without its swap of R² and RSE).

        Raises:
            EmptyInputError: no results. InvalidTypeError: an element is not a RegressionMetrics.

        Examples:
            >>> folds = [RegressionMetrics.from_predictions([1, 2, 3], p) for p in ([1, 2, 4], [1, 3, 3])]
            >>> RegressionMetrics.average(folds).get("RSquared")
            0.5
        """
        listed = [results] if isinstance(results, RegressionMetrics) else list(results)
        if not listed:
            raise EmptyInputError("'results' is empty: there is nothing to average")
        for position, result in enumerate(listed):
            if not isinstance(result, RegressionMetrics):
                raise InvalidTypeError(f"'results[{position}]' must be a RegressionMetrics, got {show(result)}")
        common = set.intersection(*(set(type(result).measures()) for result in listed))
        names = [name for name in type(listed[0]).measures() if name in common]
        aliases = {**_ALIASES, **{alias: measure.name for measure in type(listed[0]).measures().values() for alias in measure.aliases}}
        return Stats.lazily(names, lambda name: [float(getattr(result, f"get_{name}")()) for result in listed], undefined=undefined,
                            aliases={alias: name for alias, name in aliases.items() if name in common})  # fmt: skip

    @classmethod
    def measures(cls) -> dict[str, RegressionMeasure]:
        """Every measure of this class by name: each ``get_*`` getter that is not a count, with
        what ``evalkit.measure`` declared (a subclass's getters included)."""
        table = cls.__dict__.get("_measure_table")
        if table is None:
            table = {}
            for klass in reversed(cls.__mro__):
                for attribute, value in list(vars(klass).items()):
                    if attribute.startswith("get_") and attribute not in cls.NON_METRIC_GETTERS and callable(value) and attribute[4:] not in table:
                        table[attribute[4:]] = _measure_of(cls, attribute[4:], getattr(cls, attribute))
            cls._measure_table = table  # type: ignore[attr-defined]  # a cache set on the class itself
        return dict(table)

    @classmethod
    def metric_names(cls) -> tuple[str, ...]:
        """The names of this class's measures, base-class getters first."""
        return tuple(cls.measures())

    @classmethod
    def measure(cls, name: str) -> RegressionMeasure:
        """The measure ``name`` (any spelling, alias or visrec key) is in this class.

        Raises:
            UnknownMetricError: no such measure; for one that needs the data, where it is.
        """
        key = cls._key(name)
        found = cls.measures().get(key)
        if found is None:
            if key in _NEEDS_DATA:
                raise UnknownMetricError(f"{name!r} needs the data, not sums: compute it with {_NEEDS_DATA[key]}")
            raise UnknownMetricError(
                f"{unknown_name_message('measure', name, list(cls.measures()))}. Looked up in {cls.__qualname__}; to add one, "
                f"define get_{spelling(name)} on a RegressionMetrics subclass"
            )
        return found

    @classmethod
    def _key(cls, name: str) -> str:
        if not isinstance(name, str):
            raise InvalidTypeError(f"a metric name must be a string, got {show(name)}")
        key = spelling(name)
        declared = {alias: measure.name for measure in cls.measures().values() for alias in measure.aliases}
        return declared.get(key) or _ALIASES.get(key, key)

    def get(self, name: str) -> float:
        """A metric by name in any spelling: a visrec key (``EvaluationMetrics.R_SQUARED``,
        ``"FStatistics"``), a getter name without ``get_``, an alias (``"rmse"``), or a value
        stored with ``set``.

        Raises:
            UnknownMetricError: (a ``KeyError``) an unknown name.
        """
        if isinstance(name, str) and name in self._values:
            return self._values[name]
        key = self._key(name)
        if f"get_{key}" in self.NON_METRIC_GETTERS:
            return getattr(self, f"get_{key}")()
        return getattr(self, self.measure(name).getter)()

    def set(self, name: str, value: float) -> None:
        """Store an extra value (a training time...) under a name that is not a metric.

        Raises:
            InvalidArgumentError: ``name`` is a metric computed from the sums.
        """
        if self._key(name) in self.measures():
            raise InvalidArgumentError(f"{name!r} is computed from the sums and cannot be set")
        super().set(name, value)

    def names(self) -> list[str]:
        """The names ``get`` answers: counts, metrics, then values stored with ``set``."""
        return ["samples", "total_weight", *self.metric_names(), *self._values]

    def to_dict(self, *, strict: bool = False) -> dict[str, object]:
        """Counts and every metric (outputs combined by their mean), then stored extras."""
        result: dict[str, object] = {"samples": self._samples, "outputs": self.get_outputs()}
        if self._outputs is not None:
            result["total_weight"] = self.get_total_weight()
            result.update({name: getattr(self, measure.getter)() for name, measure in self.measures().items()})
        result.update(self._values)
        return serialization.json_safe(result) if strict else result

    def __str__(self) -> str:
        measures = self.measures()
        lines = []
        for name, value in self.to_dict().items():
            measure = measures.get(name)
            title = measure.title if measure is not None else name.replace("_", " ").capitalize()
            lines.append(f"{title}: {format_number(value)}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(outputs={self._outputs}, samples={self._samples})"


def _measure_of(cls: type, name: str, function: Callable[..., object]) -> RegressionMeasure:
    direction, bounds, abbreviation = _BUILT_IN.get(name, ("higher", (-math.inf, math.inf), ""))
    title = name.replace("_", " ").capitalize() + (f" ({abbreviation})" if abbreviation else "")
    metadata: dict = {"title": title, "description": (function.__doc__ or "").strip().split("\n", 1)[0],
                                "direction": direction, "bounds": bounds, "aliases": ()}  # fmt: skip
    metadata.update(getter_metadata(function) or {})
    return RegressionMeasure(name=name, getter=f"get_{name}", **metadata)


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


_TERMS = 10
"""Float terms of a sample for the bootstrap (see ``_bootstrap_terms``)."""


def _bootstrap_terms(y: np.ndarray, p: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """Per sample and output: ``w, w y', w p', w y'², w p'², w y' p', w |e|, w |e|/max(|y|, eps),
    w e², w e`` with ``y' = y - c`` and ``p' = p - c`` around the weighted mean ``c`` of ``y``
    (float sums of centred terms keep the variances the resamples need)."""
    w = weight[:, None]
    centre = (weight @ y) / weight.sum() if weight.sum() > 0 else np.zeros(y.shape[1])
    yc, pc, error = y - centre, p - centre, y - p
    absolute = np.abs(error)
    columns = [np.broadcast_to(w, y.shape), w * yc, w * pc, w * yc * yc, w * pc * pc, w * yc * pc, w * absolute,
               w * (absolute / np.maximum(np.abs(y), EPSILON)), w * error * error, w * error]  # fmt: skip
    stacked = np.stack(columns, axis=2)  # samples x outputs x terms
    stacked[..., 0] = w
    return stacked.reshape(len(y), -1)


class _FloatSums(_Sums):
    """The sums of float terms (``_bootstrap_terms``) of many resamples, read as ``_Sums`` reads
    exact ones: ``RegressionMetrics.sums`` of a bootstrap view."""

    def __init__(self, sums: np.ndarray) -> None:
        super().__init__([], [])
        w, y, p, yy, pp, yp, absolute, percentage, ee, e = sums.T
        with np.errstate(all="ignore"):
            self.update(weight=w, sse=ee, sst=yy - y * y / w, spp=pp - p * p / w, syp=yp - y * p / w, see=ee - e * e / w,
                        ssr=pp - 2 * y * p / w + y * y / w, error_sum=e, abs_error=absolute, abs_percentage=percentage)  # fmt: skip
        self["explained"] = self["sst"] - self["sse"]

    def __missing__(self, name: str) -> np.ndarray:
        raise UnsupportedSettingError(f"the bootstrap of sums has no {name!r}: bootstrap a function of the data instead (RegressionMetrics.bootstrap(y, p, function))")

    def relative(self, *names: str) -> tuple[np.ndarray, ...]:
        """The sums as they are (floats need no common scale)."""
        return tuple(self[name] for name in names)

    numerators = relative  # float sums: the formulas' float path (a correlation limited to [-1, 1])


def _data_interval(function: Callable[..., float], y: np.ndarray, p: np.ndarray, weight: np.ndarray | None, parameters: dict, *, level: float,
                   method: str, n_resamples: int, random_state: RandomState) -> Interval:  # fmt: skip
    """The bootstrap of a function of the data: called on every resample of the samples."""
    def call(rows: np.ndarray | slice) -> float:
        extra = {} if weight is None else {"sample_weight": weight[rows]}
        target, prediction = (y[rows, 0], p[rows, 0]) if y.shape[1] == 1 else (y[rows], p[rows])
        return float(function(target, prediction, **extra, **parameters))

    estimate = call(slice(None))
    rng = np.random.default_rng(check_random_state(random_state))
    replicates = np.array([call(rng.integers(0, len(y), len(y))) for _ in range(_check_resamples(n_resamples))])
    kinds = _dense_kinds(np.zeros((len(y), 1)), np.ones(len(y), dtype=np.int64))
    chosen = "percentile" if method == "bca" else method
    return _bootstrap(kinds, lambda sums: sums[:, 0], estimate, level=level, method=chosen, n_resamples=n_resamples, random_state=None,
                      replicates=replicates)  # fmt: skip
