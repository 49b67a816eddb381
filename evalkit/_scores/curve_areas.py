"""Areas and ranking summaries of a threshold curve: ROC, precision-recall and DET curves, their
areas with bounds and intervals, gains, lift and the Kolmogorov-Smirnov statistic.

A mixin of ``ThresholdCurve`` (``evalkit._scores.curves``), which is its public face.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Any

import numpy as np

from evalkit._engine._validation import (
    RandomState,
    check_choice,
    show,
)
from evalkit._results import intervals
from evalkit._results._sequences import DEFAULT_TUNING
from evalkit._scores.curve_points import (
    CURVE_AVERAGES,
    CurveFields,
    _auc,
    _average_precision,
    _partial_auc,
    _turned_round,
)
from evalkit.exceptions import (
    InvalidArgumentError,
    UnsupportedSettingError,
)
from evalkit.measures._averaging import (
    Averaged,
    UndefinedPolicy,
    check_undefined,
    mean_of,
    mean_rows,
    support_weights,
)


class CurveAreas(CurveFields):
    """Areas and ranking summaries of a threshold curve: ROC, precision-recall and DET curves, their (a part of ``ThresholdCurve``)."""

    __slots__ = ()

    def gains(self, label: Hashable | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The cumulative gains curve: at every threshold (and above them all) the share of the
        samples predicted positive and the share of the class's positives among them,
        ``(targeted, captured, thresholds)``, from ``(0, 0)`` at ``inf`` to ``(1, 1)``.

        Examples:
            >>> from evalkit import ThresholdCurve
            >>> curve = ThresholdCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
            >>> [values.tolist() for values in curve.gains()[:2]]
            [[0.0, 0.25, 0.5, 0.75, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0]]
        """
        j = self._class(label)
        thresholds, tp, fp = self._part(j)
        total = self.positives[j] + self.negatives[j]
        with np.errstate(invalid="ignore", divide="ignore"):
            targeted = np.concatenate(([0.0], (tp + fp) / total))
            captured = np.concatenate(([0.0], tp / self.positives[j])) if self.positives[j] else np.full(len(tp) + 1, np.nan)
        return targeted.astype(np.float64), captured.astype(np.float64), np.concatenate(([np.inf], thresholds))

    def lift(self, label: Hashable | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The lift curve: at every threshold, the share of the samples predicted positive and
        how many times the class is more frequent among them than overall (precision /
        prevalence), ``(targeted, lift, thresholds)``; the threshold above every score is
        left out (nothing targeted: no lift).

        Examples:
            >>> from evalkit import ThresholdCurve
            >>> curve = ThresholdCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
            >>> [values.tolist() for values in curve.lift()[:2]]
            [[0.25, 0.5, 0.75, 1.0], [2.0, 1.0, 1.3333333333333333, 1.0]]
        """
        targeted, captured, thresholds = self.gains(label)
        with np.errstate(invalid="ignore", divide="ignore"):
            return targeted[1:], captured[1:] / targeted[1:], thresholds[1:]

    def ks_statistic(self, label: Hashable | None = None) -> float:
        """The Kolmogorov-Smirnov statistic of the class's scores against the others':
        ``max_t |tpr(t) - fpr(t)|``, the largest distance between the two score
        distributions (``scipy.stats.ks_2samp``'s statistic, weighted by the sample weights);
        NaN when either side is empty. A binned curve gives a lower bound.

        Examples:
            >>> from evalkit import ThresholdCurve
            >>> ThresholdCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).ks_statistic()
            0.5
        """
        j = self._class(label)
        positives, negatives = self.positives[j], self.negatives[j]
        if not positives or not negatives:
            return math.nan
        _, tp, fp = self._part(j)
        return float(np.max(np.abs(tp / positives - fp / negatives), initial=0.0))

    def roc(self, label: Hashable | None = None, *, drop_intermediate: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The ROC curve ``(fpr, tpr, thresholds)``, from the point ``(0, 0)`` at threshold
        ``inf`` (scikit-learn's ``roc_curve``); a rate is NaN for a class with no negatives
        (FPR) or no positives (TPR).

        Args:
            label: the class.
            drop_intermediate: leave out points on a straight line between their neighbours
                (they change neither the plot nor the area).
        """
        j = self._class(label)
        thresholds, tp, fp = self._part(j)
        tp, fp = tp.astype(np.float64), fp.astype(np.float64)
        if drop_intermediate and len(fp) > 2:
            kept = np.concatenate(([True], (np.diff(fp, 2) != 0) | (np.diff(tp, 2) != 0), [True]))
            thresholds, tp, fp = thresholds[kept], tp[kept], fp[kept]
        tp, fp = np.concatenate(([0.0], tp)), np.concatenate(([0.0], fp))
        positives, negatives = float(self.positives[j]), float(self.negatives[j])
        fpr = fp / negatives if negatives > 0 else np.full(fp.shape, np.nan)
        tpr = tp / positives if positives > 0 else np.full(tp.shape, np.nan)
        return fpr, tpr, np.concatenate(([np.inf], thresholds))

    def _averaged(self, area: Any, label: Hashable, average: str | None, undefined: UndefinedPolicy, micro: Any) -> Any:
        """An area of one class, of every class (``average=None``), or averaged over classes."""
        if label is not None or len(self.labels) == 1:
            return area(self._class(label))
        if average is not None:
            check_choice("average", average, CURVE_AVERAGES)
        if average == "micro":
            value = micro()
            return Averaged(value, n_values=1, n_defined=int(not math.isnan(value)))
        values = np.array([area(j) for j in range(len(self.labels))], dtype=np.float64)
        if average is None:
            return values
        policy = check_undefined(undefined)
        weights = support_weights(values, self.positives, policy) if average == "weighted" else None
        return mean_of(values, weights, undefined=policy)

    def roc_auc(self, label: Hashable | None = None, *, average: str | None = "macro", max_fpr: float | None = None, undefined: UndefinedPolicy = "exclude") -> Any:
        """Area under the ROC curve: the probability that a random positive scores above a
        random negative (ties count one half). NaN for a class without positives or negatives.

        Args:
            label: one class (default: the only class, or an average over all).
            average: over classes: ``"macro"`` (mean), ``"weighted"`` (by positives),
                ``"micro"`` (the area of ``micro()``), or ``None`` for one value per class.
            max_fpr: the standardised partial AUC up to this false positive rate (McClish's
                correction: 0.5 for chance, 1 for a perfect ranking).
            undefined: the undefined-value policy of the average.

        Examples:
            >>> from evalkit import ThresholdCurve
            >>> ThresholdCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).roc_auc()
            0.75
        """
        if max_fpr is not None and not (isinstance(max_fpr, (int, float, np.number)) and 0 < max_fpr <= 1):
            raise InvalidArgumentError(f"'max_fpr' must be in (0, 1], got {show(max_fpr)}")

        def area(j: int) -> float:
            if max_fpr is None or max_fpr == 1:
                return _auc(*self._part(j)[1:], self.positives[j], self.negatives[j])
            if self.positives[j] == 0 or self.negatives[j] == 0:
                return float("nan")
            fpr, tpr, _ = self.roc(self.labels[j])
            return _partial_auc(fpr, tpr, float(max_fpr))

        return self._averaged(area, label, average, undefined, lambda: self.micro().roc_auc(max_fpr=max_fpr))

    def precision_recall(self, label: Hashable | None = None, *, drop_intermediate: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The precision-recall curve ``(precision, recall, thresholds)`` in scikit-learn's
        layout: thresholds rising, and a last point (precision 1, recall 0) without threshold.
        Recall is NaN for a class with no positives; precision NaN where nothing is predicted.

        Args:
            label: the class.
            drop_intermediate: leave out thresholds where recall does not change from the
                previous and the next one.
        """
        j = self._class(label)
        thresholds, tp, fp = self._part(j)
        tp, fp = tp.astype(np.float64), fp.astype(np.float64)
        if drop_intermediate and len(tp) > 2:
            kept = np.concatenate(([True], (np.diff(tp[:-1]) != 0) | (np.diff(tp[1:]) != 0), [True]))
            thresholds, tp, fp = thresholds[kept], tp[kept], fp[kept]
        predicted = tp + fp
        with np.errstate(invalid="ignore", divide="ignore"):
            precision = np.where(predicted > 0, tp / np.where(predicted > 0, predicted, 1.0), np.nan)
        positives = float(self.positives[j])
        recall = tp / positives if positives > 0 else np.full(tp.shape, np.nan)
        return np.append(precision[::-1], 1.0), np.append(recall[::-1], 0.0), thresholds[::-1].copy()

    def average_precision(self, label: Hashable | None = None, *, average: str | None = "macro", undefined: UndefinedPolicy = "exclude") -> Any:
        """Average precision ``Σ (R_k - R_{k-1}) P_k`` over the thresholds, highest first: the
        step-wise area under the precision-recall curve (not the trapezoid, which is
        optimistic). NaN for a class without positives.

        Args:
            label: one class (default: the only class, or an average over all).
            average: ``"macro"``, ``"weighted"``, ``"micro"`` (the area of ``micro()``), or
                ``None`` for one value per class.
            undefined: the undefined-value policy of the average.

        Examples:
            >>> from evalkit import ThresholdCurve
            >>> round(ThresholdCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).average_precision(), 4)
            0.8333
        """

        def area(j: int) -> float:
            return _average_precision(self._part(j)[1], self._part(j)[2], self.positives[j])

        return self._averaged(area, label, average, undefined, lambda: self.micro().average_precision())

    def n_point_precision(self, n: int = 11, label: Hashable | None = None) -> float:
        """The ``n``-point interpolated average precision: the mean over the recall levels
        ``0, 1/(n-1), ..., 1`` of the interpolated precision, the highest precision at that
        recall or above (Manning, Raghavan & Schütze 2008, §8.4; ``n = 11``: TREC's 11-point
        average). NaN for a class with no positives.

        Weka's ``getNPointPrecision`` interpolates linearly between the rows of its curve in the
        order its unstable sort leaves rows of equal recall in, so its number changes with that
        order (and is NaN in Weka 3.8 once a threshold predicts nothing): a number no other
        library gives, not ported.

        Raises:
            InvalidArgumentError: ``n`` not a whole number >= 2.

        Examples:
            >>> from evalkit import ThresholdCurve
            >>> ThresholdCurve.from_scores([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1]).n_point_precision(3)
            0.8888888888888888
        """
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
            raise InvalidArgumentError(f"'n' must be a whole number >= 2, got {show(n)}")
        precision, recall, _ = self.precision_recall(label)
        precision, recall = precision[:-1], recall[:-1]  # (the closing point, recall 0 at precision 1, is a drawing aid, no threshold's)
        if np.isnan(recall).any():
            return math.nan
        best = np.fmax.accumulate(np.nan_to_num(precision, nan=0.0))  # the highest precision at this recall or above (recall falls along the arrays)
        levels = np.linspace(0.0, 1.0, int(n)) - 1e-12  # (a recall of 3/10 reaches the level 0.30000000000000004)
        at = np.searchsorted(-recall, -levels, side="right") - 1  # the last point whose recall reaches each level
        return float(np.mean(np.where(at >= 0, best[np.maximum(at, 0)], 0.0)))

    def det(self, label: Hashable | None = None, *, drop_intermediate: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The detection error tradeoff curve ``(fpr, fnr, thresholds)`` in scikit-learn's
        layout: thresholds rising, from the last point with no false negatives to the first
        with no false positives. NaN rates for a class with no positives or negatives.

        Args:
            label: the class.
            drop_intermediate: leave out thresholds where the false negative rate does not
                change from the previous and the next one.
        """
        j = self._class(label)
        thresholds, tp, fp = self._part(j)
        tp = np.concatenate(([0.0], tp.astype(np.float64)))
        fp = np.concatenate(([0.0], fp.astype(np.float64)))
        thresholds = np.concatenate(([np.inf], thresholds))
        if drop_intermediate and len(fp) > 2:
            kept = np.concatenate(([True], (np.diff(tp[:-1]) != 0) | (np.diff(tp[1:]) != 0), [True]))
            thresholds, tp, fp = thresholds[kept], tp[kept], fp[kept]
        positives, negatives = float(self.positives[j]), float(self.negatives[j])
        start = np.searchsorted(fp, fp[0], side="right") - 1
        stop = np.searchsorted(tp, tp[-1]) + 1
        part = slice(start, stop)
        with np.errstate(invalid="ignore", divide="ignore"):
            fpr = fp[part][::-1] / negatives if negatives > 0 else np.full(len(fp[part]), np.nan)
            fnr = (positives - tp[part][::-1]) / positives if positives > 0 else np.full(len(tp[part]), np.nan)
        return fpr, fnr, thresholds[part][::-1].copy()

    def cost_curve(self, label: Hashable | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The cost curve of Drummond & Holte (2006) ``(probability_cost, expected_cost)``: each
        threshold is the line ``NEC(pc) = FNR · pc + FPR · (1 − pc)`` of the normalised expected
        cost over the probability cost ``pc = p(+) C(−|+) / (p(+) C(−|+) + p(−) C(+|−))``, and
        the curve is their lower envelope (the best threshold at every cost), given by its
        corners from ``pc = 0`` to ``pc = 1`` (the dual of the ROC convex hull). Weka's
        ``CostCurve`` gives the lines, two rows a threshold: ``(0, FPR)`` and ``(1, FNR)``,
        ``evaluate("fp_rate")`` and ``evaluate("fn_rate")`` here. NaN costs for a class with no
        positives or no negatives.

        Examples:
            >>> from evalkit import ThresholdCurve
            >>> pc, cost = ThresholdCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).cost_curve()
            >>> pc.tolist(), cost.tolist()
            ([0.0, 0.5, 1.0], [0.0, 0.25, 0.0])
        """
        fpr, tpr, _ = self.roc(label, drop_intermediate=False)
        if np.isnan(fpr).any() or np.isnan(tpr).any():
            return np.array([0.0, 1.0]), np.full(2, np.nan)
        xs, ys = fpr.tolist(), tpr.tolist()  # (Python floats: the loop below reads them one at a time)
        hull = [0]  # the ROC convex hull from (0, 0) to (1, 1): its segments' slopes fall
        for k in range(1, len(xs)):  # (the points in order of falling threshold: fpr and tpr rise)
            while len(hull) > 1 and (xs[hull[-1]] - xs[hull[-2]]) * (ys[k] - ys[hull[-2]]) >= (ys[hull[-1]] - ys[hull[-2]]) * (xs[k] - xs[hull[-2]]):
                hull.pop()
            hull.append(k)
        x, y = fpr[hull], tpr[hull]
        dx, dy = np.diff(x), np.diff(y)
        with np.errstate(invalid="ignore"):  # (a point twice: no corner)
            corners = dx / (dx + dy)  # where the lines of two neighbours on the hull cross
        inner = np.isfinite(corners) & (corners > 0) & (corners < 1)  # (a first vertical or last level segment crosses at an end)
        corners, cost = corners[inner], ((1 - y[:-1]) * corners + x[:-1] * (1 - corners))[inner]
        pc, cost = np.concatenate(([0.0], corners, [1.0])), np.concatenate(([0.0], cost, [0.0]))
        rising = np.concatenate(([True], np.diff(pc) > 0))  # (points on one line, as rounded, cross at one corner)
        return pc[rising], cost[rising]

    def area_bounds(self, kind: str = "roc_auc", label: Hashable | None = None) -> tuple[float, float]:
        """Where the exact area can lie, given this curve's points: ``(low, high)``.

        Between two known points the exact curve is unknown but monotone. For the ROC area
        each step from ``(x0, y0)`` to ``(x1, y1)`` adds between ``y0 (x1 - x0)`` and
        ``y1 (x1 - x0)`` (the trapezoid lies halfway: its error is at most
        ``½ Σ Δfpr Δtpr``); for average precision each step's recall gain is weighted by a
        precision between ``tp0 / (tp0 + fp1)`` and ``tp1 / (tp1 + fp0)``. For an exact
        curve both bounds are the area itself.

        Args:
            kind: ``"roc_auc"`` or ``"average_precision"``.
            label: the class.

        Examples:
            >>> from evalkit import ThresholdCurve
            >>> import numpy as np
            >>> rng = np.random.default_rng(0)
            >>> y = rng.integers(0, 2, 1000); s = np.clip(0.3 * y + rng.normal(0.35, 0.2, 1000), 0, 1)
            >>> low, high = ThresholdCurve.from_scores(y, s, thresholds=21).area_bounds()
            >>> bool(low <= ThresholdCurve.from_scores(y, s).roc_auc() <= high)
            True
        """
        check_choice("kind", kind, ("roc_auc", "average_precision"))
        j = self._class(label)
        if not self.binned:
            value = self.roc_auc(self.labels[j]) if kind == "roc_auc" else self.average_precision(self.labels[j])
            return value, value
        _, tp, fp = self._part(j)
        positives, negatives = float(self.positives[j]), float(self.negatives[j])
        tp = np.concatenate(([0.0], tp.astype(np.float64)))
        fp = np.concatenate(([0.0], fp.astype(np.float64)))
        if kind == "roc_auc":
            if positives == 0 or negatives == 0:
                return float("nan"), float("nan")
            width = np.diff(fp) / negatives
            return float(np.dot(width, tp[:-1]) / positives), float(np.dot(width, tp[1:]) / positives)
        if positives == 0:
            return float("nan"), float("nan")
        gained = np.diff(tp) / positives
        with np.errstate(invalid="ignore", divide="ignore"):
            low = np.where(tp[:-1] + fp[1:] > 0, tp[:-1] / (tp[:-1] + fp[1:]), 0.0)
            high = np.where(tp[1:] + fp[:-1] > 0, tp[1:] / (tp[1:] + fp[:-1]), 1.0)
        return float(np.dot(gained, low)), float(np.dot(gained, high))

    def interval(self, measure: str = "roc_auc", label: Hashable | None = None, *, level: float = 0.95, method: str | None = None,
                 n_resamples: int = 2000, random_state: RandomState = None, anytime: bool = False, tuning: float = DEFAULT_TUNING) -> intervals.Interval:  # fmt: skip
        """A confidence interval of ``"roc_auc"`` (DeLong's, in O(distinct scores) from the
        counts, or the bootstrap) or ``"average_precision"`` (``"bca"`` or ``"percentile"``)
        of one class (see ``evalkit._results.intervals.area_interval``). The default method is DeLong's
        for the AUC and BCa for average precision. ``anytime=True``: the asymptotic confidence
        sequence (valid at every sample size at once: a stream's curve read after every batch),
        narrowest at ``tuning`` samples.

        Examples:
            >>> from evalkit import ThresholdCurve
            >>> curve = ThresholdCurve.from_scores([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
            >>> print(curve.interval())
            0.8889 [0.5809, 1] (95% delong)
        """
        check_choice("measure", measure, ("roc_auc", "average_precision"))
        if self.binned:
            raise UnsupportedSettingError("an interval needs the exact curve (every distinct score), not a binned one")
        j = self._class(label)
        _, tp, fp = self._part(j)
        own = self.labels[j]
        estimate = float(self.roc_auc(own) if measure == "roc_auc" else self.average_precision(own))
        return intervals.area_interval(tp, fp, measure, estimate, level=level, method=method, n_resamples=n_resamples, random_state=random_state,
                                       anytime=anytime, tuning=tuning)  # fmt: skip

    def binary_interval(self, measure: str = "roc_auc", average: str = "macro", *, level: float = 0.95, method: str = "bca",
                        n_resamples: int = 2000, random_state: RandomState = None, undefined: UndefinedPolicy = "exclude") -> intervals.Interval:  # fmt: skip
        """A bootstrap interval of an average over both classes of an exact binary curve (the
        classes of ``one_vs_rest()``: the negative at ``1 - score``): ``"macro"``,
        ``"weighted"`` or ``"micro"`` (the pooled two columns) of ``"roc_auc"`` or
        ``"average_precision"``. The kinds are the (score, class) pairs; every resample counts
        both classes' curves and the pooled one from the same draw.

        Raises:
            UnsupportedSettingError: a binned curve, a curve of several classes, or one that
                does not know its negative class.

        Examples:
            >>> from evalkit import ThresholdCurve
            >>> curve = ThresholdCurve.from_scores([0, 0, 1, 1, 0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.6, 0.65])
            >>> found = curve.binary_interval("average_precision", "micro", random_state=0, n_resamples=500)
            >>> bool(found.low <= found.estimate <= found.high), found.estimate == curve.one_vs_rest().average_precision(average="micro")
            (True, True)
        """
        check_choice("measure", measure, ("roc_auc", "average_precision"))
        check_choice("average", average, ("macro", "weighted", "micro"))
        if self.binned or len(self.labels) != 1 or self.negative_label is None:
            raise UnsupportedSettingError("an interval over both classes needs the exact curve of binary scores that knows its negative class")
        policy = check_undefined(undefined)
        thresholds, tp, fp = self._part(0)
        positives_at, negatives_at = np.diff(tp, prepend=0), np.diff(fp, prepend=0)
        levels = len(thresholds)
        counts = np.concatenate([positives_at, negatives_at])  # counts_interval refuses float weights that are no repeated samples
        turned = _turned_round(thresholds[::-1], 1.0)  # the negative class's scores, highest first (lowest own score first)
        runs = np.flatnonzero(np.r_[True, turned[1:] != turned[:-1]])  # scores that round to one 1 - score are one threshold
        pooled = np.unique(np.concatenate([thresholds, turned]))[::-1]
        own_point = len(pooled) - 1 - np.searchsorted(pooled[::-1], thresholds)
        turned_point = (len(pooled) - 1 - np.searchsorted(pooled[::-1], turned))[::-1]  # per kind, in the kinds' order
        area = intervals.area_rows(measure)

        def statistic(drawn: np.ndarray) -> np.ndarray:
            positive, negative = drawn[:, :levels], drawn[:, levels:]
            first = area(positive, negative)
            second = area(np.add.reduceat(negative[:, ::-1], runs, axis=1), np.add.reduceat(positive[:, ::-1], runs, axis=1))
            if average == "micro":
                hits, misses = np.zeros((len(drawn), len(pooled))), np.zeros((len(drawn), len(pooled)))
                for at, gained, lost in ((own_point, positive, negative), (turned_point, negative, positive)):
                    np.add.at(hits.T, at, gained.T)  # each kind's count into its pooled point, every resample at once
                    np.add.at(misses.T, at, lost.T)
                return area(hits, misses)
            values = np.stack([second, first], axis=1)
            weights = None if average == "macro" else support_weights(values, np.stack([negative.sum(axis=1), positive.sum(axis=1)], axis=1), policy)
            return mean_rows(values, weights, undefined=policy)

        estimate = float(statistic(counts[None, :].astype(np.float64))[0])
        return intervals.counts_interval(counts, statistic, estimate, level=level, method=method, n_resamples=n_resamples,
                                         random_state=random_state, what=f"{average} {measure.replace('_', ' ')}")  # fmt: skip
