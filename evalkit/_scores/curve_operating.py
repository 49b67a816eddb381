"""Operating points of a threshold curve: any measure at every threshold, the best threshold,
and the best one under constraints, with its interval.

A mixin of ``ThresholdCurve`` (``evalkit._scores.curves``), which is its public face.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterator
from typing import Any, NamedTuple

import numpy as np

from evalkit._engine._validation import (
    RandomState,
    check_choice,
)
from evalkit._engine.cells import Cells
from evalkit._results import intervals
from evalkit._scores import operating
from evalkit._scores.curve_points import (
    _BLOCK,
    _FEW_CLASSES,
    _FILL_VALUES,
    CURVE_AVERAGES,
    CurveFields,
    _merged_runs,
    _running_sums,
)
from evalkit.exceptions import (
    InvalidArgumentError,
    UnsupportedSettingError,
)
from evalkit.measures._averaging import (
    UndefinedPolicy,
    average_rows,
    check_undefined,
)
from evalkit.measures._registry import Measure, MeasureLike, check_measure_parameters


class BestThreshold(NamedTuple):
    """The threshold that optimises a measure, the value there, and the measure's name.

    Per-class results (a curve of several classes, no ``label`` or ``average``) hold one
    threshold and one value per class.
    """

    threshold: Any
    value: Any
    measure: str


class CurveOperatingPoints(CurveFields):
    """Operating points of a threshold curve: any measure at every threshold, the best threshold, (a part of ``ThresholdCurve``)."""

    __slots__ = ()

    def evaluate(
        self,
        measure: MeasureLike,
        label: Hashable | None = None,
        *,
        average: str | None = None,
        undefined: UndefinedPolicy = "exclude",
        metrics_class: type[Any] | None = None,
        **parameters: Any,
    ) -> tuple[np.ndarray, np.ndarray]:
        """A measure at every threshold: ``(values, thresholds)``, highest threshold first.

        Args:
            measure: a measure name (any spelling; a getter of the curve's metrics class too),
                a ``Measure``, or a vectorised function of ``tp, fp, fn, tn``.
            label: the class (needed when the curve has several and no ``average``).
            average: ``"micro"``, ``"macro"`` or ``"weighted"``: the average over classes at
                every threshold of any class (``common_thresholds``).
            undefined: the undefined-value policy of the average.
            metrics_class: a ``ClassificationMetrics`` subclass to look names up in, instead
                of the curve's own.
            **parameters: parameters of the measure (``beta=2``).

        Examples:
            >>> from evalkit import ThresholdCurve
            >>> curve = ThresholdCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
            >>> values, thresholds = curve.evaluate("accuracy")
            >>> values.tolist()
            [0.75, 0.5, 0.75, 0.5]
        """
        resolved = self.measure(measure, metrics_class)
        check_measure_parameters(resolved, parameters)
        if average is None:
            j = self._class(label)
            return np.asarray(self._cells(j).evaluate(resolved, **parameters), dtype=np.float64), self._part(j)[0]
        if label is not None:
            raise InvalidArgumentError("give 'label' (one class) or 'average' (over all classes), not both")
        check_choice("average", average, CURVE_AVERAGES)
        m = len(self.labels)
        if m > _FEW_CLASSES and not self.binned:
            return self._averaged_by_events(resolved, average, check_undefined(undefined), parameters)
        thresholds = self.common_thresholds()
        values = np.empty(len(thresholds))
        step = max(1, _BLOCK // m)
        for start in range(0, len(thresholds), step):
            query = thresholds[start : start + step]
            counts = [self._counts_at(j, query) for j in range(m)]
            tp = np.stack([c[0] for c in counts], axis=1)
            fp = np.stack([c[1] for c in counts], axis=1)
            cells = Cells(tp, fp, self.positives - tp, self.negatives - fp)
            values[start : start + step] = average_rows(resolved, cells, average, undefined=undefined, parameters=parameters)
        return values, thresholds

    def _averaged_by_events(self, measure: Measure, average: str, policy: str, parameters: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
        """``evaluate`` with an average over many classes, in time proportional to the
        thresholds of all classes (not thresholds times classes): the sums a macro or weighted
        average needs are running sums of each class's changes (``_running_sums``); the micro
        average is the measure on ``micro()``."""
        if average == "micro":  # the one curve of every class's cells summed
            micro = self.micro()
            return np.asarray(micro._cells(0).evaluate(measure, **parameters), dtype=np.float64), micro._part(0)[0]
        positives, negatives = self.positives, self.negatives
        parts = [self._part(j) for j in range(len(self.labels))]
        states = []  # per class, rows of its quantities: before its first threshold, then after each
        for j, (_, tp, fp) in enumerate(parts):
            tp = np.concatenate(([0], tp)).astype(np.result_type(tp, positives.dtype))
            fp = np.concatenate(([0], fp)).astype(np.result_type(fp, negatives.dtype))
            value = np.asarray(Cells(tp, fp, positives[j] - tp, negatives[j] - fp).evaluate(measure, **parameters), dtype=np.float64)
            defined = ~np.isnan(value)
            filled = np.where(defined, value, _FILL_VALUES.get(policy, 0.0))
            counted = defined if policy == "exclude" else np.ones(len(value), dtype=bool)
            weight = float(positives[j])
            states.append(np.stack([counted * filled, counted * 1.0, counted * weight * filled, counted * (weight > 0) * 1.0, ~defined * 1.0,
                                    counted * weight, ~defined * (weight > 0) * 1.0]))  # fmt: skip
        order, last, thresholds = _merged_runs([part[0] for part in parts])
        sums = _running_sums([np.diff(state, axis=1) for state in states], order, last, start=np.sum([state[:, :1] for state in states], axis=0))
        total, count, weighted, supported, undefined, weights, undefined_supported = sums
        with np.errstate(divide="ignore", invalid="ignore"):
            if average == "macro":
                values = np.where(count > 0, total / count, np.nan)
            else:  # by support; equal weights where no class that counts has any (as support_weights does)
                values = np.where(supported > 0, weighted / weights, np.where(count > 0, total / count, np.nan))
        if policy == "nan":  # a weighted average leaves out classes of no support, unless no class has any
            relevant = undefined_supported if average == "weighted" and (positives > 0).any() else undefined
            values = np.where(relevant > 0, np.nan, values)
        return values, thresholds

    def best_threshold(
        self,
        measure: MeasureLike,
        label: Hashable | None = None,
        *,
        average: str | None = None,
        undefined: UndefinedPolicy = "exclude",
        metrics_class: type[Any] | None = None,
        **parameters: Any,
    ) -> BestThreshold:
        """The threshold where a measure is best (highest, or lowest for a loss) and its value.

        Predict positive when ``score >= threshold``. Among equally good thresholds the highest
        is chosen; thresholds where the measure is undefined are skipped (NaN when it is
        undefined everywhere). A curve of several classes without ``label`` or ``average``
        gives one threshold per class (usable as ``at(thresholds)`` or
        ``Evaluation.from_scores(..., threshold=thresholds)``).

        Raises:
            InvalidArgumentError: the measure has no direction (prevalence).

        Examples:
            >>> from evalkit import ThresholdCurve
            >>> ThresholdCurve.from_scores([0, 1, 1, 0, 1], [0.1, 0.8, 0.6, 0.7, 0.3]).best_threshold("accuracy")
            BestThreshold(threshold=0.3, value=0.8, measure='accuracy')
        """
        resolved = self.measure(measure, metrics_class)
        if resolved.direction not in ("higher", "lower"):
            raise InvalidArgumentError(f"{resolved.name!r} has no direction (neither higher nor lower is better): nothing to optimise")
        pick = np.nanargmax if resolved.direction == "higher" else np.nanargmin

        def best(values: np.ndarray, thresholds: np.ndarray) -> tuple[float, float]:
            if np.isnan(values).all():
                return float("nan"), float("nan")
            k = int(pick(values))
            return thresholds[k].item(), float(values[k])  # (an integer score beyond 2**53 as the int it is, not rounded)

        if label is None and average is None and len(self.labels) > 1:
            found = [best(*self.evaluate(resolved, own, **parameters)) for own in self.labels]
            chosen = [f[0] for f in found]
            kind = self._thresholds.dtype if all(isinstance(value, int) for value in chosen) else np.float64
            return BestThreshold(np.array(chosen, dtype=kind), np.array([f[1] for f in found]), resolved.name)
        values, thresholds = self.evaluate(resolved, label, average=average, undefined=undefined, **parameters)
        return BestThreshold(*best(values, thresholds), resolved.name)

    def _candidate_blocks(self, label: Hashable, average: str | None) -> Iterator[tuple[np.ndarray, Cells]]:
        """The thresholds an operating point is chosen among, highest first, in blocks with the
        cells there (one column per class for an average): ``inf`` (nothing positive) alone,
        then every threshold of the class (or every common one, for an average). Blocks keep
        the memory of a choice over millions of scores at a block's."""
        if average is None:
            j = self._class(label)
            thresholds, tp, fp = self._part(j)
            zero = np.zeros(1, dtype=tp.dtype)
            yield np.array([np.inf]), Cells(zero, zero, self.positives[j : j + 1], self.negatives[j : j + 1])
            for start in range(0, len(thresholds), _BLOCK):
                block = slice(start, start + _BLOCK)
                yield thresholds[block], Cells(tp[block], fp[block], self.positives[j] - tp[block], self.negatives[j] - fp[block])
            return
        if label is not None:
            raise InvalidArgumentError("give 'label' (one class) or 'average' (over all classes), not both")
        check_choice("average", average, CURVE_AVERAGES)
        thresholds = np.concatenate(([np.inf], self.common_thresholds()))
        m = len(self.labels)
        step = max(1, _BLOCK // m)
        for start in range(0, len(thresholds), step):
            query = thresholds[start : start + step]
            counts = [self._counts_at(j, query) for j in range(m)]
            tp, fp = np.stack([c[0] for c in counts], axis=1), np.stack([c[1] for c in counts], axis=1)
            yield query, Cells(tp, fp, self.positives - tp, self.negatives - fp)

    def optimize(
        self, measure: MeasureLike, label: Hashable | None = None, *, subject_to: Any = None, average: str | None = None, undefined: UndefinedPolicy = "exclude",
        metrics_class: type[Any] | None = None, **parameters: Any,
    ) -> Any:  # fmt: skip
        """The best threshold for ``measure`` (highest, or lowest for a loss) among those where
        every constraint holds: an ``OperatingPoint`` (see ``evalkit._scores.operating``), exact over
        every distinct score and the threshold above them all.

        Args:
            measure: the measure to optimise (any name, a getter of the metrics class, a ``Measure``).
            label: one class (needed when the curve has several, unless ``average``).
            subject_to: the constraints: ``{"recall": (">=", 0.9)}``, ``"recall >= 0.9"``, or
                a list of such strings and ``(name, operator, bound)`` triples.
            average: ``"micro"``, ``"macro"`` or ``"weighted"``: one threshold for every class,
                the measure and the constraints averaged at it.
            undefined: the undefined-value policy of the averages.
            metrics_class: a ``ClassificationMetrics`` subclass to look names up in.
            **parameters: of the optimised measure (``beta=2``).

        Returns:
            An ``OperatingPoint``; for a curve of several classes without ``label`` or
            ``average``, a dict of one per class (per-class thresholds, which also maximise a
            macro average of one-vs-rest decisions).

        Raises:
            InvalidArgumentError: a measure without a direction, or a constraint that cannot be read.

        Examples:
            >>> from evalkit import ThresholdCurve
            >>> curve = ThresholdCurve.from_scores([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.7, 0.9])
            >>> print(curve.optimize("recall", subject_to={"false_positive_rate": ("<=", 0.34)}))
            recall 0.6667 at threshold 0.8 subject to false_positive_rate <= 0.34 (false_positive_rate 0)
        """
        resolved = self.measure(measure, metrics_class)
        if resolved.direction not in ("higher", "lower"):
            raise InvalidArgumentError(f"{resolved.name!r} has no direction (neither higher nor lower is better): nothing to optimise")
        check_measure_parameters(resolved, parameters)
        constraints = operating.parse_constraints(subject_to, lambda name: self.measure(name, metrics_class))
        if label is None and average is None and len(self.labels) > 1:
            return {own: self.optimize(resolved, own, subject_to=constraints, undefined=undefined, metrics_class=metrics_class, **parameters)
                    for own in self.labels}  # fmt: skip
        texts = tuple(str(constraint) for constraint in constraints)
        own = None if average is not None else self.labels[self._class(label)]

        def values_of(chosen: Measure, cells: Cells, options: dict[str, Any]) -> np.ndarray:
            if average is None:
                return np.asarray(cells.evaluate(chosen, **options), dtype=np.float64)
            return np.asarray(average_rows(chosen, cells, average, undefined=undefined, parameters=options), dtype=np.float64)

        best: tuple[float, float, dict[str, float], Cells] | None = None
        rank: tuple[float, ...] = ()
        for thresholds, cells in self._candidate_blocks(label, average):
            achieved = {constraint.measure.name: values_of(constraint.measure, cells, {}) for constraint in constraints}
            feasible = np.ones(len(thresholds), dtype=bool)
            for constraint in constraints:
                feasible &= constraint.holds(achieved[constraint.measure.name])
            if not feasible.any():
                continue  # no threshold of the block meets the constraints: its measure is not read
            if not feasible.all() and average is None:  # the measure read where the constraints hold only
                rows = np.flatnonzero(feasible)
                thresholds, cells, feasible = thresholds[rows], cells[rows], feasible[rows]
                achieved = {name: found[rows] for name, found in achieved.items()}
            values = values_of(resolved, cells, parameters)
            pairs = [(constraint, achieved[constraint.measure.name]) for constraint in constraints]
            k = operating.undominated_index(values, feasible, resolved.direction, pairs)  # ties: the point no tie dominates
            if k < 0:
                continue
            key = operating.tie_key(float(values[k]), resolved.direction, [(constraint, float(found[k])) for constraint, found in pairs])
            if best is None or key > rank:
                best, rank = (thresholds[k].item(), float(values[k]), {name: float(found[k]) for name, found in achieved.items()}, cells[k : k + 1]), key
        if best is None:
            names = [constraint.measure.name for constraint in constraints]
            return operating.OperatingPoint(False, math.nan, math.nan, resolved.name, dict.fromkeys(names, math.nan), texts, None, own, average)
        return operating.OperatingPoint(True, best[0], best[1], resolved.name, best[2], texts, best[3], own, average)

    def operating_interval(
        self, measure: MeasureLike, label: Hashable | None = None, *, subject_to: Any = None, level: float = 0.95, n_resamples: int = 2000,
        random_state: RandomState = None, metrics_class: type[Any] | None = None, **parameters: Any,
    ) -> operating.OperatingInterval:  # fmt: skip
        """Percentile bootstrap intervals of an operating point of one class: of the value
        ``optimize`` achieves and of the threshold it chooses, the point chosen anew on every
        resample of the (score, class) pairs.

        Raises:
            UnsupportedSettingError: a binned curve (the bootstrap needs every distinct score).

        Examples:
            >>> from evalkit import ThresholdCurve
            >>> rng = np.random.default_rng(0)
            >>> y = rng.random(400) < 0.4
            >>> found = ThresholdCurve.from_scores(y, rng.normal(1.2 * y, 1.0)).operating_interval(
            ...     "precision", subject_to="recall >= 0.8", random_state=0)
            >>> found.threshold.low <= found.point.threshold <= found.threshold.high
            True
        """
        if self.binned:
            raise UnsupportedSettingError("an interval needs the exact curve (every distinct score), not a binned one")
        point = self.optimize(measure, label, subject_to=subject_to, metrics_class=metrics_class, **parameters)
        resolved = self.measure(measure, metrics_class)
        constraints = operating.parse_constraints(subject_to, lambda name: self.measure(name, metrics_class))
        thresholds, tp, fp = self._part(self._class(label))
        positives_at, negatives_at = np.diff(tp, prepend=0), np.diff(fp, prepend=0)
        levels = len(thresholds)
        candidates = np.concatenate(([np.inf], thresholds))

        def statistic(drawn: np.ndarray) -> np.ndarray:
            zero = np.zeros((len(drawn), 1))
            tp_ = np.concatenate((zero, np.cumsum(drawn[:, :levels], axis=1)), axis=1)
            fp_ = np.concatenate((zero, np.cumsum(drawn[:, levels:], axis=1)), axis=1)
            cells = Cells(tp_, fp_, tp_[:, -1:] - tp_, fp_[:, -1:] - fp_)
            values = np.asarray(cells.evaluate(resolved, **parameters), dtype=np.float64)
            feasible = np.ones(values.shape, dtype=bool)
            for constraint in constraints:
                feasible &= constraint.holds(np.asarray(cells.evaluate(constraint.measure), dtype=np.float64))
            k = operating.best_index(values, feasible, resolved.direction)
            rows = np.arange(len(drawn))
            found = k >= 0
            return np.stack([np.where(found, values[rows, k], np.nan), np.where(found, candidates[k], np.nan)], axis=1)

        replicates = intervals.counts_replicates(np.concatenate([positives_at, negatives_at]), statistic, n_resamples, random_state)
        feasible = ~np.isnan(replicates[:, 0])
        bounds = [intervals.percentile_interval(replicates[feasible, column], estimate, level) for column, estimate in
                  ((0, point.value), (1, point.threshold))]  # fmt: skip
        return operating.OperatingInterval(point, bounds[0], bounds[1], int((~feasible).sum()))
