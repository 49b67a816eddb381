"""The running-mean regressor of a stream, the baseline prequential regression measures compare a
model with (MOA's relative errors and coefficient of determination), as ``NoChange`` and
``MajorityClass`` are the baselines of the kappas of a classifier's stream."""

from __future__ import annotations

import math
from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine._validation import check_sample_weight, show
from evalkit._scale.baselines import _Baseline
from evalkit.exceptions import InputShapeError, InvalidArgumentError, InvalidValueError

__all__ = ["RunningMean"]


class RunningMean(_Baseline):
    """The regressor that predicts each target by the mean of the targets before it (the first
    one by ``first``, 0 by default, as MOA's), counted into ``view``: a ``RegressionMetrics`` or
    a window of one, updated with the model's targets and weights. Against it, a model's
    prequential relative errors are ``MAE / MAE_baseline`` and ``RMSE / RMSE_baseline``, and its
    coefficient of determination ``1 − MSE / MSE_baseline`` (MOA's regression evaluator).

    Examples:
        >>> from evalkit import RegressionMetrics
        >>> baseline = RunningMean(RegressionMetrics())
        >>> baseline.update([3.0, 5.0, 2.0])        # predicted: 0, 3, 4
        >>> baseline.result.get_mean_absolute_error()
        2.3333333333333335
    """

    def __init__(self, view: object, *, first: float = 0.0) -> None:  # (not _Baseline's: its first prediction is a number, not a label)
        self._watch(view, "a RegressionMetrics or a window of one")
        if isinstance(first, bool) or not isinstance(first, (int, float, np.integer, np.floating)) or not math.isfinite(first):
            raise InvalidArgumentError(f"'first' must be a finite number (the prediction before any target), got {show(first)}")
        self.first = float(first)
        self._weight, self._total = 0.0, 0.0  # the targets so far: their weight and weighted sum

    def update(self, y_true: ArrayLike, *, sample_weight: ArrayLike | None = None) -> None:
        """The next targets of the stream (the model's ``y_true``), with the model's weights."""
        targets = np.asarray(y_true, dtype=np.float64)
        if targets.ndim != 1:
            raise InputShapeError(f"'y_true' must be 1-D, one target per sample, got shape {targets.shape}")
        if not np.isfinite(targets).all():
            raise InvalidValueError(f"'y_true' must be finite numbers, got {show(targets[~np.isfinite(targets)][:3])}")
        if not len(targets):
            return
        weight = check_sample_weight(sample_weight, len(targets))
        w = np.ones(len(targets)) if weight is None else weight.astype(np.float64)
        before_weight = self._weight + np.concatenate(([0.0], np.cumsum(w)[:-1]))
        before_total = self._total + np.concatenate(([0.0], np.cumsum(w * targets)[:-1]))
        with np.errstate(invalid="ignore", divide="ignore"):
            predicted = np.where(before_weight > 0, before_total / np.where(before_weight > 0, before_weight, 1.0), self.first)
        self._count_pairs(cast(Any, targets), cast(Any, predicted), sample_weight, None)
        self._weight, self._total = float(before_weight[-1] + w[-1]), float(before_total[-1] + w[-1] * targets[-1])

    def __repr__(self) -> str:
        return f"RunningMean(view={type(self.view).__name__}, targets weighing {self._weight:g})"
