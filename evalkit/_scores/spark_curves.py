"""Spark's conventions on any ``ThresholdCurve`` (no pyspark needed): the bins of its
``BinaryClassificationMetrics(numBins=)`` and the trapezoid of its ``areaUnderPR``;
``evalkit.spark`` gives both."""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np

from evalkit._engine._validation import show
from evalkit._scores.curves import ThresholdCurve
from evalkit.exceptions import InvalidArgumentError


def binned(curve: ThresholdCurve, num_bins: int = 1000, label: Hashable | None = None) -> ThresholdCurve:
    """The curve at the bins of Spark's ``BinaryClassificationMetrics(numBins=)`` (and
    ``BinaryClassificationEvaluator``'s ``numBins``, 1,000 by default) on one partition: with
    ``d`` distinct scores, each run of ``d // num_bins`` consecutive distinct scores from the
    highest is one point at its lowest score (so the point is the exact curve's there: a
    score at or above it is predicted positive); with fewer than ``2 * num_bins`` distinct scores, or ``num_bins=0``, the curve
    itself. Its ``roc_auc()`` is Spark's binned ``areaUnderROC``, ``area_under_pr`` of it
    Spark's binned ``areaUnderPR``. (With several partitions Spark bins each partition of its
    sorted scores apart, so its bins move with the partitioning; the exact curve does not.)

    Raises:
        InvalidArgumentError: ``num_bins`` not a whole number >= 0.

    Examples:
        >>> from evalkit import ThresholdCurve
        >>> curve = ThresholdCurve.from_scores([0, 1, 0, 1, 1, 0], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
        >>> binned(curve, 3).thresholds().tolist()
        [0.5, 0.3, 0.1]
    """
    if isinstance(num_bins, bool) or not isinstance(num_bins, (int, np.integer)) or num_bins < 0:
        raise InvalidArgumentError(f"'num_bins' must be a whole number >= 0, got {show(num_bins)}")
    scores, positives, negatives = (values[::-1] for values in curve.score_counts(label))  # highest first
    grouping = len(scores) // int(num_bins) if num_bins else 0
    if grouping < 2:
        return curve
    starts = np.arange(0, len(scores), grouping)
    lowest = np.minimum(starts + grouping, len(scores)) - 1
    part = (scores[lowest][::-1], np.add.reduceat(positives, starts)[::-1], np.add.reduceat(negatives, starts)[::-1])
    one = curve.labels[0] if label is None else label
    return ThresholdCurve.from_score_counts([part], [one], negative_label=curve.negative_label, metrics_class=curve.metrics_class)


def area_under_pr(curve: ThresholdCurve, label: Hashable | None = None) -> float:
    """Spark's ``areaUnderPR``: the trapezoid under the points (recall, precision) at every
    threshold, highest first, from (0, the first point's precision). Not average precision
    (``curve.average_precision()``, the step-wise sum ``Σ (R_k - R_(k-1)) P_k`` of
    scikit-learn), which the trapezoid overstates between distant points.

    Examples:
        >>> from evalkit import ThresholdCurve
        >>> curve = ThresholdCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> area_under_pr(curve), round(curve.average_precision(), 4)
        (0.7916666666666666, 0.8333)
    """
    precision, _ = curve.evaluate("precision", label)
    recall, _ = curve.evaluate("recall", label)
    points_recall, points_precision = np.concatenate(([0.0], recall)), np.concatenate((precision[:1], precision))
    return float(np.sum(np.diff(points_recall) * (points_precision[1:] + points_precision[:-1]) / 2))
