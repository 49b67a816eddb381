"""Prequential evaluation with late labels: predictions are counted once their labels arrive.

A model in production predicts now and learns the truth later (a loan repaid months on, a
fraud reported next week). ``Prequential(view)`` takes predictions as they are made, with an
id, and labels when they arrive, and counts each pair into ``view`` (a ``ConfusionMatrix``, a
stream counter, or a ``Windowed``, ``Faded`` or ``Tumbling`` view) once both are known; what
is still waiting is visible (``pending``). With ``delay=k`` instead of ids, every sample's
label is known ``k`` samples after it, as River's ``progressive_val_score(delay=...)``
simulates it: ``update(y_true, y_pred)`` gives them together and the last ``k`` wait.

Examples:
    >>> from evalkit import ConfusionMatrix
    >>> stream = Prequential(ConfusionMatrix(["ok", "fraud"]))
    >>> stream.predict([101, 102, 103], ["ok", "ok", "fraud"])
    >>> stream.label([102, 101], ["fraud", "ok"])      # in any order; 103 is still waiting
    >>> stream.result.get_accuracy(), stream.pending
    (0.5, 1)
"""

from __future__ import annotations

import collections
from collections.abc import Hashable, Sequence
from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine._validation import show
from evalkit._java.regression_metrics import RegressionMetrics
from evalkit._results.confusion_matrix import ConfusionMatrix
from evalkit._scale.monitor import Monitor
from evalkit._scale.windows import PairCounter, result_of
from evalkit.exceptions import (
    InputLengthError,
    InvalidArgumentError,
    InvalidTypeError,
    UnknownLabelError,
    UnsupportedSettingError,
)

__all__ = ["Prequential"]


class Prequential:
    """Predictions now, labels later: each pair is counted into ``view`` when its label arrives.

    Args:
        view: where pairs are counted: anything with ``update(y_true, y_pred, ...)`` (a
            ``ConfusionMatrix``, ``LabelSetCounts``, ``CurveCounts`` with scores as
            predictions, or a ``Windowed``, ``Faded`` or ``Tumbling`` view).
        delay: instead of ids, the number of samples after which a sample's label is known.
        monitor: a ``Monitor`` that watches every pair too, in the order they are counted
            (``monitor.alarms``: the pairs where it fired, counted from the first).
    """

    def __init__(self, view: PairCounter, *, delay: int | None = None, monitor: Monitor | None = None) -> None:
        if not callable(getattr(view, "update", None)):
            raise InvalidArgumentError(f"'view' must count pairs with update(y_true, y_pred): a ConfusionMatrix, a stream counter or a window, got {show(view)}")
        if delay is not None and (isinstance(delay, bool) or not isinstance(delay, (int, np.integer)) or delay < 0):
            raise InvalidArgumentError(f"'delay' must be a whole number of samples >= 0, got {show(delay)}")
        if monitor is not None and not isinstance(monitor, Monitor):
            raise InvalidTypeError(f"'monitor' must be an evalkit.Monitor, got {show(monitor)}")
        counted = RegressionMetrics if monitor is not None and monitor.regression else ConfusionMatrix
        if monitor is not None and not isinstance(view, Monitor) and not isinstance(result_of(view), counted):
            raise UnsupportedSettingError(f"a monitor watches what a {counted.__name__} counts; this view counts {type(result_of(view)).__name__}: "
                                          "watch its pairs with a Monitor as a view of its own")  # fmt: skip
        self.view = view
        self.delay = None if delay is None else int(delay)
        self.monitor = monitor
        self._waiting: dict[Hashable, Any] = {}  # id -> prediction
        self._lagged: collections.deque[tuple[Any, Any, Any]] = collections.deque()  # delay: (actual, predicted, weight) not yet known

    @property
    def result(self) -> Any:
        """What ``view`` has counted (a window's result, or the view itself)."""
        return result_of(self.view)

    @property
    def pending(self) -> int:
        """How many predictions wait for their label."""
        return len(self._waiting) if self.delay is None else len(self._lagged)

    @property
    def pending_ids(self) -> list[Hashable]:
        """The ids of the predictions still waiting, oldest first."""
        return list(self._waiting)

    def predict(self, ids: Sequence[Hashable], y_pred: Sequence[Any] | np.ndarray) -> None:
        """Record predictions (or scores) by id.

        Raises:
            InvalidArgumentError: an id given twice, or already waiting.
        """
        self._require_ids("predict")
        ids, predictions = list(ids), list(y_pred) if not isinstance(y_pred, np.ndarray) else y_pred
        if len(ids) != len(predictions):
            raise InputLengthError(f"'ids' has {len(ids)} values but 'y_pred' has {len(predictions)}")
        repeated = [key for key in ids if key in self._waiting]
        if repeated or len(set(ids)) != len(ids):
            raise InvalidArgumentError(f"each prediction needs its own id: {show(repeated or [key for key in ids if ids.count(key) > 1])} given twice")
        self._waiting.update(zip(ids, predictions))

    def label(self, ids: Sequence[Hashable], y_true: Sequence[Hashable] | np.ndarray, *, sample_weight: ArrayLike | None = None, time: ArrayLike | None = None) -> None:
        """The labels of predictions made before: each pair is counted now (into a time window
        at ``time``, when the labels arrive).

        Raises:
            UnknownLabelError: an id that no prediction waits for (never predicted, or labelled
                already); nothing of the batch is counted then.
        """
        self._require_ids("label")
        ids, actual = list(ids), list(y_true)
        if len(ids) != len(actual):
            raise InputLengthError(f"'ids' has {len(ids)} values but 'y_true' has {len(actual)}")
        unknown = [key for key in ids if key not in self._waiting]
        if unknown:
            raise UnknownLabelError(f"no prediction waits for the ids {show(unknown)}: label each prediction once, after it was made")
        predicted = [self._waiting[key] for key in ids]
        options: dict[str, Any] = {} if sample_weight is None else {"sample_weight": sample_weight}
        if time is not None:
            options["time"] = time
        self._count(actual, predicted, options)  # counted first: a batch the view refuses stays waiting
        for key in ids:
            del self._waiting[key]

    def _count(self, actual: list, predicted: list, options: dict[str, Any]) -> None:
        """Pairs whose labels are known into the view, and through the monitor: the batch is
        checked by both before either keeps it (a batch one refuses is kept by neither)."""
        if self.monitor is None:
            cast(Any, self.view).update(actual, predicted, **options)
            return
        if "sample_weight" in options:
            raise UnsupportedSettingError("a Prequential with a monitor counts samples one by one, without weights (the monitor's guarantee is about samples)")
        prepared = self.monitor._prepared(actual, predicted, None)
        cast(Any, self.view).update(actual, predicted, **options)
        self.monitor._apply(*prepared)

    def update(self, y_true: Sequence[Hashable] | np.ndarray, y_pred: Sequence[Any] | np.ndarray, *, sample_weight: ArrayLike | None = None) -> None:
        """With ``delay=k``: samples with their labels, of which the last ``k`` are not known yet;
        the ones that become known are counted."""
        if self.delay is None:
            raise InvalidArgumentError("update(y_true, y_pred) is for a Prequential with delay=k; with ids, use predict and label")
        weights = [None] * len(y_true) if sample_weight is None else list(np.asarray(sample_weight, dtype=np.float64))
        if len(y_true) != len(y_pred) or len(weights) != len(y_true):
            raise InputLengthError(f"'y_true', 'y_pred' and 'sample_weight' must have one length, got {len(y_true)}, {len(y_pred)}, {len(weights)}")
        self._lagged.extend(zip(y_true, y_pred, weights))
        known = len(self._lagged) - self.delay
        if known > 0:
            batch = [self._lagged.popleft() for _ in range(known)]
            options = {} if sample_weight is None else {"sample_weight": [row[2] for row in batch]}
            self._count([row[0] for row in batch], [row[1] for row in batch], options)

    def _require_ids(self, method: str) -> None:
        if self.delay is not None:
            raise InvalidArgumentError(f"{method} takes ids; a Prequential with delay=k takes update(y_true, y_pred)")
