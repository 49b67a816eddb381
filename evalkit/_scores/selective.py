"""Selective prediction: a classifier that abstains when its confidence is low, evaluated at
every coverage (Geifman & El-Yaniv, "Selective classification for deep neural networks", 2017).

A classifier accepts a sample when its confidence is at least a threshold ``t``. At each
threshold the **coverage** is the share of the samples accepted (by weight) and the
**selective risk** the error rate of the accepted ones; ``RiskCoverage`` holds the counts that
give both, and any measure of the accepted samples, at every distinct confidence (one point per
distinct confidence, so tied samples are accepted or rejected together, as a threshold does):

    coverage(t) = Σ_{c_i ≥ t} w_i / Σ w_i
    risk(t)     = Σ_{c_i ≥ t} w_i [y_i ≠ ŷ_i] / Σ_{c_i ≥ t} w_i

The **area under the risk-coverage curve** (AURC) sums each point's risk over the coverage it
adds (a step function, as average precision sums precision over recall):

    AURC = Σ_t (coverage(t) - coverage(t⁺)) · risk(t)

With distinct confidences and no weights this is Geifman et al.'s mean of the risks of the
``k`` most confident samples, ``k = 1 .. n`` (and ``1 - AURC`` is MAPIE's ``auarc``); tied
confidences count as one step, never in the arbitrary order a sort leaves them. The **excess
AURC** subtracts the AURC of a perfect ranking of the same samples (Geifman, Uziel & El-Yaniv,
"Bias-reduced uncertainty estimation for deep neural classifiers", 2019): every correct sample
first, then each wrong one on its own step (the lightest first), so a confidence that ranks
every correct sample above every wrong one, with no two wrong ones tied, has an excess of
exactly 0. Geifman et al. write that optimum in its continuous limit, ``r + (1 - r) ln(1 - r)``
at the error rate ``r`` (``oracle_aurc``), which ``n`` samples reach only as ``n`` grows: a
perfect ranking of 6 samples with 2 errors sits 0.026 above it.

Coverage and risk are ratios of the counts, each one correctly rounded division (``2 / 6`` is
``0.3333333333333333``, not ``1 - 4 / 6``). Float weights are kept as exact sums, so parts add
and are taken away exactly, and the curve reads them as whole numbers of the power of two they
share: in numpy where they fit int64, else as Python integers (full-mantissa weights over a
million samples: about a second more than float sums would take).

``RiskCoverage`` is a counted state (``evalkit._results.counted``): it updates, merges, takes a
part away, scales, and writes itself as JSON, so windows, Dask and Spark fold it like a matrix.

Examples:
    >>> curve = RiskCoverage.from_predictions(["a", "b", "b", "a"], ["a", "b", "a", "a"], [0.9, 0.8, 0.3, 0.6])
    >>> curve.coverage.tolist(), curve.risk.tolist()
    ([0.25, 0.5, 0.75, 1.0], [0.0, 0.0, 0.0, 0.25])
    >>> curve.aurc(), curve.risk_at(0.75), curve.coverage_at(0.1)
    (0.0625, 0.0, 0.75)
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import numpy as np

from evalkit._engine._exact import (
    FLOAT_OFFSET,
    common_units,
    exact_counts,
    rounded_counts,
    rounded_number,
)
from evalkit._engine._labels import check_label_list, position_of
from evalkit._engine._score_table import ScoreTable
from evalkit._engine._types import LabelsLike
from evalkit._engine._validation import as_array, check_real, check_sample_weight, show
from evalkit._engine.cells import Cells
from evalkit._engine.counting import encode
from evalkit._results._sequences import DEFAULT_TUNING
from evalkit._results._summed import SummedState
from evalkit.exceptions import (
    InputLengthError,
    InputShapeError,
    InvalidArgumentError,
    InvalidCountsError,
    InvalidTypeError,
    InvalidValueError,
    LabelMismatchError,
    UnsupportedSettingError,
)
from evalkit.measures._arithmetic import ratios
from evalkit.measures._averaging import UndefinedPolicy, average_rows
from evalkit.measures._registry import MeasureLike, resolve_measure

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from evalkit._results._closed_form import Interval

__all__ = ["RiskCoverage", "confidences", "oracle_aurc"]

def confidences(confidence: ArrayLike, n: int, argument: str = "confidence") -> np.ndarray:
    """``confidence`` as ``n`` finite float64 values, one per sample (higher: more confident).

    Raises:
        InvalidTypeError: not numbers.
        InputShapeError: not 1-D.
        InputLengthError: not ``n`` values.
        InvalidValueError: NaN or an infinity (the message shows the first and its position).
    """
    values = as_array(confidence, argument)
    if values.dtype.kind not in "biuf":
        raise InvalidTypeError(f"{argument!r} must hold numbers, got dtype {values.dtype}: {show(values)}")
    if values.ndim != 1:
        raise InputShapeError(f"{argument!r} must be 1-D (one confidence per sample), got shape {values.shape}")
    if len(values) != n:
        raise InputLengthError(f"{argument!r} has {len(values)} values for {n} samples")
    values = values.astype(np.float64, copy=False)
    finite = np.isfinite(values)
    if not finite.all():
        first = int(np.flatnonzero(~finite)[0])
        raise InvalidValueError(f"{argument!r} must be finite, got {float(values[first])!r} at position {first}")
    return values


def oracle_aurc(error_rate: float) -> float:
    """The AURC of a perfect ranking at error rate ``r`` in its continuous limit (infinitely
    many samples): ``r + (1 - r) ln(1 - r)`` (Geifman, Uziel & El-Yaniv 2019). ``n`` samples
    ranked perfectly have a larger AURC (``RiskCoverage.oracle_risk``), which tends to it.

    Examples:
        >>> round(oracle_aurc(0.2), 6), oracle_aurc(0.0), oracle_aurc(1.0)
        (0.021485, 0.0, 1.0)
    """
    r = float(error_rate)
    return r if r >= 1.0 else r + (1.0 - r) * math.log1p(-r)


_COLUMNS = ("confidence", "actual", "predicted", "weight")
"""The columns of a curve's table of counts, as its document names them."""

_POINTS: weakref.WeakKeyDictionary[ScoreTable, _Points] = weakref.WeakKeyDictionary()
"""The points of each table of counts read so far (kept while the table lives, never pickled)."""


def _area(added: np.ndarray, values: np.ndarray) -> float:
    """``Σ added · values / Σ added``: the area under a curve of steps that add ``added`` (whole
    numbers of one unit) at ``values``, as the share of each step (one correctly rounded
    division: no weight is too small or too large for it) times its value, summed without the
    steps of no weight or a value of 0 (so that a curve and the perfect ranking's, alike but for
    such steps, sum alike to the last bit)."""
    steps = added != 0  # (the value of a step of no weight, undefined or not, adds nothing)
    products = ratios(added[steps], np.add.reduce(added, keepdims=True)) * values[steps]
    return float(products[products != 0].sum())


class _Points(NamedTuple):
    """A risk-coverage curve's points, highest confidence first, in whole numbers of one unit
    (``2**exponent``: 1 for whole counts, a power of two that float weights share), so that
    running sums and their ratios are exact and each ratio one correctly rounded division
    (in numpy where the sums fit int64, else Python integers). The thresholds, the
    weight accepted down to each and of the wrong ones among it (cumulative), the weight each
    point adds, where each point's entries start (lowest first), each entry's weight, and the
    coverage and risk."""

    thresholds: np.ndarray
    accepted: np.ndarray
    wrong: np.ndarray
    added: np.ndarray
    starts: np.ndarray
    weight: np.ndarray
    exponent: int
    coverage: np.ndarray
    risk: np.ndarray

    @classmethod
    def of(cls, score: np.ndarray, wrong: np.ndarray, weight: np.ndarray) -> _Points:
        """The points of entries sorted by score (their wrong ones, their whole or exact weights)."""
        whole, exponent = common_units(weight)
        starts = np.flatnonzero(np.concatenate(([True], score[1:] != score[:-1]))) if len(score) else np.zeros(0, dtype=np.intp)
        added = np.add.reduceat(whole, starts)[::-1] if len(starts) else whole[:0]
        errors = np.add.reduceat(np.where(wrong, whole, 0), starts)[::-1] if len(starts) else whole[:0]
        accepted, wrong_so_far = np.cumsum(added), np.cumsum(errors)
        return cls(score[starts][::-1], accepted, wrong_so_far, added, starts, whole, exponent, ratios(accepted, accepted[-1:]), ratios(wrong_so_far, accepted))

    def floats(self, whole: np.ndarray) -> np.ndarray:
        """Whole numbers of the curve's unit as the numbers they are (float64, or whole counts as they are)."""
        if not self.exponent:
            return whole
        if whole.dtype.kind == "O":  # (Python integers past int64: each correctly rounded, never past float64's range)
            return rounded_counts(whole * (1 << (self.exponent + FLOAT_OFFSET)))
        return np.ldexp(whole.astype(np.float64), self.exponent)

    def value(self, whole: int | np.integer) -> float:
        """One whole number of the curve's unit as the number it is."""
        if not self.exponent:
            return whole.item() if isinstance(whole, np.generic) else whole
        return rounded_number(int(whole) << (self.exponent + FLOAT_OFFSET))


class RiskCoverage(SummedState):
    """The risk-coverage curve of a selective classifier: counts of (confidence, actual,
    predicted), read as coverage, selective risk and any measure of the accepted samples at
    every distinct confidence.

    Reading:
        ``thresholds``, ``coverage``, ``risk`` (one per point, most confident first),
        ``values(measure, average)``, ``aurc()``, ``excess_aurc()``, ``area(measure)``,
        ``risk_at(coverage)``, ``coverage_at(risk)``, ``risk_interval(coverage)``,
        ``coverage_interval(risk)``, ``error_rate``, ``n_samples``, ``labels``.
    Counting (a counted state): ``update``, ``revert``, ``+``, ``-``, ``scaled``, ``empty``,
    ``copy``, ``==``, ``to_json``/``from_json``, pickle.

    Args:
        labels: the classes, in order (default: those seen, in the order met).

    Examples:
        >>> curve = RiskCoverage(["cat", "dog"])
        >>> curve.update(["cat", "dog"], ["cat", "cat"], [0.9, 0.4])
        >>> curve.risk.tolist(), curve.excess_aurc()    # the wrong one least confident: a perfect ranking
        ([0.0, 0.5], 0.0)
    """

    DOCUMENT = "RiskCoverage"
    LABELS = True
    SUMS = ("_table",)

    def __init__(self, labels: Sequence[Hashable] | None = None) -> None:
        self._fixed = labels is not None
        self._labels: tuple = () if labels is None else check_label_list(labels)
        self._table = ScoreTable.empty(_COLUMNS)  # per distinct (confidence, actual, predicted): its weight

    @classmethod
    def from_predictions(cls, y_true: LabelsLike, y_pred: LabelsLike, confidence: ArrayLike, *, labels: Sequence[Hashable] | None = None,
                         sample_weight: ArrayLike | None = None) -> RiskCoverage:  # fmt: skip
        """The curve of one batch of predictions with their confidences.

        Raises:
            InputLengthError: inputs of different lengths.
            InvalidValueError: a confidence that is NaN or infinite.
            UnknownLabelError: a label outside ``labels``.
        """
        curve = cls(labels)
        curve.update(y_true, y_pred, confidence, sample_weight=sample_weight)
        return curve

    # ----------------------------------------------------------------------------------------
    # counting (the rest of the counted-state protocol comes from the declaration: SummedState)

    @property
    def labels(self) -> tuple:
        """The classes, in order."""
        return self._labels

    def update(self, y_true: LabelsLike, y_pred: LabelsLike, confidence: ArrayLike, /, *, sample_weight: ArrayLike | None = None) -> None:
        """Count a batch of predictions with their confidences (in place); ``revert`` with the
        same arguments takes it away again."""
        super().update(y_true, y_pred, confidence, sample_weight=sample_weight)

    def _count(self, y_true: LabelsLike, y_pred: LabelsLike, confidence: ArrayLike, *, sample_weight: ArrayLike | None = None) -> tuple[tuple, ScoreTable]:
        actual, predicted, found, _ = encode(y_true, y_pred, self._labels if self._fixed else None)
        n = len(actual)
        score = confidences(confidence, n)
        weight = check_sample_weight(sample_weight, n)
        codes = np.stack((actual, predicted)).astype(np.int64, copy=False)
        table = ScoreTable.counted(score, codes, None if weight is None else exact_counts(weight), _COLUMNS)
        return self._labels if self._fixed else found, table  # (fixed labels: the codes are their positions)

    def with_labels(self, labels: Sequence[Hashable]) -> RiskCoverage:
        """The same counts with the classes in the order of ``labels`` (which may add classes).

        Raises:
            LabelMismatchError: a counted class missing from ``labels``.

        Examples:
            >>> RiskCoverage.from_predictions(["b", "a"], ["b", "b"], [0.5, 0.4]).with_labels(["b", "a", "c"]).labels
            ('b', 'a', 'c')
        """
        order = check_label_list(labels)
        index = {label: position for position, label in enumerate(order)}
        missing = [label for label in self._labels if position_of(label, index, order) is None]  # (True is not the class 1)
        if missing:
            raise LabelMismatchError(f"'labels' must hold every class counted, missing {show(missing)}")
        result = self._laid_over(order)  # (the declaration's recoding, as a merge joins classes)
        result._fixed = True
        return result

    def renamed(self, labels: Sequence[Hashable]) -> RiskCoverage:
        """The same counts with each class renamed: ``labels[k]`` is the new name of
        ``self.labels[k]``.

        Raises:
            InvalidArgumentError: not one new name per class.

        Examples:
            >>> RiskCoverage.from_predictions([0, 1], [0, 0], [0.5, 0.4]).renamed(["cat", "dog"]).labels
            ('cat', 'dog')
        """
        checked = check_label_list(labels)
        if len(checked) != len(self._labels):
            raise InvalidArgumentError(f"'labels' must name each of the {len(self._labels)} classes once, got {show(list(checked))}")
        result = type(self)(checked if self._fixed else None)
        result._labels, result._table = checked, self._table
        return result

    # ----------------------------------------------------------------------------------------
    # the curve

    def _curve(self) -> _Points:
        """The curve's points (see ``_Points``), counted once for each table of counts."""
        points = _POINTS.get(self._table)
        if points is None:
            table = self._table
            points = _POINTS[table] = _Points.of(table.score, table.codes[0] != table.codes[1], table.weight)
        return points

    def __setstate__(self, state: dict[str, Any]) -> None:
        """A pickle of evalkit 0.1.0, whose curve held its entries apart, loads too."""
        if "entries" in state:
            score, actual, predicted, weight = state["entries"]
            state = {"_fixed": state["fixed"], "_labels": state["labels"], "_table": ScoreTable(score, np.stack((actual, predicted)), weight, _COLUMNS)}
        self.__dict__.update(state)

    @property
    def n_samples(self) -> float:
        """How much every sample counted weighs together (their number, without weights)."""
        points = self._curve()
        return points.value(points.accepted[-1]) if len(points.accepted) else 0

    @property
    def thresholds(self) -> np.ndarray:
        """The distinct confidences, highest first: point ``j`` accepts the samples whose
        confidence is at least ``thresholds[j]``."""
        return self._curve().thresholds.copy()

    @property
    def coverage(self) -> np.ndarray:
        """The share of the samples (by weight) accepted at each threshold."""
        return self._curve().coverage.copy()

    @property
    def risk(self) -> np.ndarray:
        """The selective risk (error rate of the accepted samples) at each threshold: the
        weight of the wrong ones over the weight accepted, one correctly rounded division."""
        return self._curve().risk.copy()

    @property
    def error_rate(self) -> float:
        """The error rate of every sample (the risk at full coverage); NaN when nothing was counted."""
        risk = self._curve().risk
        return float(risk[-1]) if len(risk) else math.nan

    def values(self, measure: MeasureLike, average: str = "macro", *, undefined: UndefinedPolicy = "exclude", **parameters: float) -> np.ndarray:
        """Any measure of the accepted samples at each threshold: ``average`` (``"micro"``,
        ``"macro"`` or ``"weighted"``) of the per-class cells of the samples accepted there.

        Examples:
            >>> curve = RiskCoverage.from_predictions([0, 1, 1, 0], [0, 1, 0, 0], [0.9, 0.8, 0.3, 0.6])
            >>> curve.values("recall", "macro").tolist()
            [1.0, 1.0, 1.0, 0.75]
        """
        resolved = resolve_measure(measure)
        points = self._curve()
        starts = points.starts
        first = np.zeros(len(self._table.score), dtype=np.int64)
        actual_codes, predicted_codes = self._table.codes
        first[starts[1:]] = 1
        group = len(starts) - 1 - np.cumsum(first)  # each entry's point: the highest confidence is point 0
        k, n_points = len(self._labels), len(points.accepted)
        weight = points.floats(points.weight)
        both = np.bincount(group * k + actual_codes, weights=np.where(actual_codes == predicted_codes, weight, 0), minlength=n_points * k)
        actual = np.bincount(group * k + actual_codes, weights=weight, minlength=n_points * k)
        predicted = np.bincount(group * k + predicted_codes, weights=weight, minlength=n_points * k)
        sums = [np.cumsum(part.reshape(n_points, k), axis=0) for part in (both, actual, predicted)]
        if weight.dtype.kind in "iu":
            sums = [part.astype(np.int64) for part in sums]
        accepted = points.floats(points.accepted)
        cells = Cells.from_sums(sums[0], sums[1], sums[2], np.broadcast_to(accepted[:, None], (n_points, k)))
        return average_rows(resolved, cells, average, undefined=undefined, parameters=parameters)

    def area(self, measure: MeasureLike | None = None, average: str = "macro", *, undefined: UndefinedPolicy = "exclude", **parameters: float) -> float:
        """The area under a measure-coverage curve: ``Σ_t Δcoverage(t) · value(t)``; with no
        ``measure``, of the selective risk (the AURC). NaN when a point's value is undefined
        (choose ``undefined="zero"`` to count such points as 0).

        Examples:
            >>> RiskCoverage.from_predictions([0, 1, 1, 0], [0, 1, 0, 0], [0.9, 0.8, 0.3, 0.6]).area("accuracy", "micro")
            0.9375
        """
        points = self._curve()
        if not len(points.added):
            return math.nan
        values = points.risk if measure is None else self.values(measure, average, undefined=undefined, **parameters)
        return _area(points.added, values)

    def _oracle(self) -> tuple[np.ndarray, np.ndarray]:
        """The weight each step of a perfect ranking adds (whole numbers of the curve's unit)
        and its risk: every correct sample first (one step: their risk is 0 in any order), then
        each wrong one, the lightest first."""
        points, wrong = self._curve(), self._table.codes[0] != self._table.codes[1]
        errors = np.sort(points.weight[wrong])
        right = [np.add.reduce(points.weight[~wrong], keepdims=True)] if not wrong.all() else []  # (no step for no correct sample)
        added = np.concatenate([*right, errors])
        return added, ratios(np.cumsum(np.concatenate([*(step * 0 for step in right), errors])), np.cumsum(added))

    def oracle_risk(self) -> tuple[np.ndarray, np.ndarray]:
        """The risk-coverage curve of a perfect ranking of these samples (every correct sample
        first, then each wrong one on its own step, the lightest first): the coverage and risk
        at each step, whose area is the AURC ``excess_aurc`` subtracts; what a plot draws
        beside the curve.

        Examples:
            >>> RiskCoverage.from_predictions([0, 1, 1], [0, 0, 1], [0.9, 0.1, 0.5]).oracle_risk()[1].tolist()
            [0.0, 0.3333333333333333]
        """
        added, risk = self._oracle()
        accepted = np.cumsum(added)
        return ratios(accepted, accepted[-1:]), risk

    def aurc(self) -> float:
        """The area under the risk-coverage curve (see the module): lower is better; NaN when
        nothing was counted."""
        return self.area()

    def excess_aurc(self) -> float:
        """The AURC minus that of a perfect ranking of the same samples (see the module):
        exactly 0 for a confidence that ranks every correct sample above every wrong one, no
        two wrong ones tied and, with weights, the lighter wrong ones more confident; never below
        0 (the difference of two areas, each a correctly rounded share per step, is 0 where it
        would round below); NaN when nothing was counted.

        Examples:
            >>> RiskCoverage.from_predictions([0] * 6, [0, 0, 0, 0, 1, 1], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4]).excess_aurc()
            0.0
        """
        if not len(self._curve().added):
            return math.nan
        return max(0.0, self.aurc() - _area(*self._oracle()))  # (no ranking's area is below the perfect one's: a rounding below 0 is 0)

    def _point_at_coverage(self, coverage: float) -> int:
        if isinstance(coverage, bool) or not isinstance(coverage, (int, float, np.integer, np.floating)) or not 0 < coverage <= 1:
            raise InvalidArgumentError(f"'coverage' must be a number in (0, 1], got {show(coverage)}")
        shares = self._curve().coverage
        if not len(shares):
            raise InvalidCountsError("no sample was counted: there is no coverage to read")
        return min(int(np.searchsorted(shares, coverage, side="left")), len(shares) - 1)

    def risk_at(self, coverage: float) -> float:
        """The selective risk at the highest threshold that accepts at least ``coverage`` of the
        samples.

        Raises:
            InvalidArgumentError: ``coverage`` not in (0, 1].
        """
        return float(self._curve().risk[self._point_at_coverage(coverage)])

    def _point_at_risk(self, risk: float) -> int | None:
        if isinstance(risk, bool) or not isinstance(risk, (int, float, np.integer, np.floating)) or not 0 <= risk <= 1:
            raise InvalidArgumentError(f"'risk' must be a number in [0, 1], got {show(risk)}")
        within = np.flatnonzero(self._curve().risk <= risk)
        return int(within[-1]) if len(within) else None

    def coverage_at(self, risk: float) -> float:
        """The largest coverage whose selective risk is at most ``risk``; 0.0 when no threshold
        reaches it (accepting nothing).

        Raises:
            InvalidArgumentError: ``risk`` not in [0, 1].
        """
        point = self._point_at_risk(risk)
        return 0.0 if point is None else float(self._curve().coverage[point])

    def risk_interval(self, coverage: float | None = None, *, threshold: float | None = None, level: float = 0.95, method: str | None = None,
                      anytime: bool = False, tuning: float = DEFAULT_TUNING) -> Interval:  # fmt: skip
        """Wilson's (the default) or Clopper-Pearson's interval of the selective risk at
        ``coverage``, or at a ``threshold`` fixed in advance: the errors out of the accepted
        samples there (whole counts: unweighted samples), the threshold taken as given.

        With ``anytime=True`` (a ``threshold`` only), the beta-binomial confidence sequence of
        that proportion (``method="beta-binomial"``, or ``"asymptotic"``; see
        ``interval(anytime=True)``), which a stream may read after every batch.

        Raises:
            InvalidArgumentError: neither or both of ``coverage`` and ``threshold``.
            UnsupportedSettingError: ``anytime=True`` at a coverage: the threshold is chosen from
                the data at every read, so no sequence of one value covers it.

        Examples:
            >>> curve = RiskCoverage.from_predictions([0] * 10, [0] * 8 + [1] * 2, range(10))
            >>> print(curve.risk_interval(1.0))
            0.2 [0.05668, 0.5098] (95% wilson)
            >>> print(curve.risk_interval(threshold=5, anytime=True, tuning=10))   # confidences 5 to 9: the two wrong ones among them
            0.4 [0.000938, 0.9707] (95% anytime beta-binomial)
        """
        from evalkit._results.intervals import sample_proportion_interval

        points = self._curve()
        j = self._point_of(coverage, threshold, anytime, "coverage")
        wrong, accepted = (0, 0) if j is None else (points.value(points.wrong[j]), points.value(points.accepted[j]))
        return sample_proportion_interval(wrong, accepted, level=level, method=method, anytime=anytime, tuning=tuning)

    def coverage_interval(self, risk: float | None = None, *, threshold: float | None = None, level: float = 0.95, method: str | None = None,
                          anytime: bool = False, tuning: float = DEFAULT_TUNING) -> Interval:  # fmt: skip
        """Wilson's (the default) or Clopper-Pearson's interval of the coverage at ``risk`` (the
        share of the samples the chosen threshold accepts; the threshold itself is taken as
        given), or at a ``threshold`` fixed in advance; ``anytime`` at a threshold only (see
        ``risk_interval``)."""
        from evalkit._results.intervals import sample_proportion_interval

        points = self._curve()
        point = self._point_of(risk, threshold, anytime, "risk")
        accepted = 0 if point is None else points.value(points.accepted[point])
        return sample_proportion_interval(accepted, self.n_samples, level=level, method=method, anytime=anytime, tuning=tuning)

    def _point_of(self, target: float | None, threshold: float | None, anytime: object, name: str) -> int | None:
        """The point read at a ``target`` coverage or risk (``name``), or at a fixed ``threshold``
        (the last whose confidence is at least it; None: nothing accepted)."""
        from evalkit._results.intervals import check_anytime

        if (target is None) == (threshold is None):
            raise InvalidArgumentError(f"give {name!r} (the threshold chosen from the data) or 'threshold' (fixed in advance), one of them; "
                                       f"got {name}={show(target)}, threshold={show(threshold)}")  # fmt: skip
        if threshold is None:
            if check_anytime(anytime):
                raise UnsupportedSettingError(f"anytime=True needs one value read over and over; at a {name} the threshold is chosen from the data at "
                                              "every read, so no sequence covers what is read: fix the threshold (threshold=)")  # fmt: skip
            return self._point_at_coverage(cast(float, target)) if name == "coverage" else self._point_at_risk(cast(float, target))
        above = int(np.count_nonzero(self._curve().thresholds >= check_real("threshold", threshold)))
        return above - 1 if above else None

    def __repr__(self) -> str:
        return f"RiskCoverage(labels={list(self._labels)!r}, n_samples={self.n_samples}, points={len(self.thresholds)})"
