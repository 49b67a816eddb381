"""The baselines of a classifier's stream: ``NoChange`` (each label predicted to be the one
before) and ``MajorityClass`` (the most frequent label so far), each counted into a view, and
the kappas of a model against them (``kappa_temporal``, ``kappa_m``), as MOA and River report
them beside a stream's accuracy.
"""

from __future__ import annotations

import collections
import math
from collections.abc import Hashable, Sequence
from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine._validation import show
from evalkit._results.counted import check_factor
from evalkit._scale.windows import PairCounter, _check_size, result_of
from evalkit.exceptions import InvalidArgumentError, InvalidTypeError
from evalkit.measures._arithmetic import difference, ratio

__all__ = ["MajorityClass", "NoChange", "kappa_m", "kappa_temporal"]


class _Baseline:
    """A classifier of a stream that predicts from the labels before each sample, counted into
    ``view`` (a ``ConfusionMatrix`` or a window of one); ``first`` is its prediction before any
    label (by default the view's first label)."""

    def __init__(self, view: PairCounter, first: Hashable | None) -> None:
        self._watch(view, "a ConfusionMatrix or a window of one")
        labels = getattr(view, "labels", None)
        self._first: Hashable = first if first is not None else (labels[0] if labels else None)
        if self._first is None:
            raise InvalidArgumentError(f"give 'first', the {self._NAME} classifier's first prediction (the view has no labels to start from)")

    _NAME = "baseline"

    def _watch(self, view: object, kinds: str) -> None:
        """Count into ``view`` (``kinds`` of it, for the error)."""
        if not callable(getattr(view, "update", None)):
            raise InvalidTypeError(f"'view' must count pairs with update(y_true, y_pred): {kinds}, got {show(view)}")
        self.view = view

    @property
    def result(self) -> Any:
        """What ``view`` has counted (a window's result, or the view itself)."""
        return result_of(self.view)

    def _count_pairs(self, actual: list[Any], predicted: list[Any], sample_weight: ArrayLike | None, time: ArrayLike | None) -> None:
        """Count its pairs into ``view``, with the weights and times the view takes."""
        options: dict[str, Any] = {} if sample_weight is None else {"sample_weight": sample_weight}
        if time is not None:
            options["time"] = time
        cast(Any, self.view).update(actual, predicted, **options)


class NoChange(_Baseline):
    """The no-change classifier of a stream, counted into ``view``: it predicts each sample's
    label to be the previous sample's (the first sample's: ``first``, by default the view's
    first label, as MOA's starts at class 0). Its accuracy is what ``kappa_temporal`` measures
    a model against.

    Examples:
        >>> from evalkit import ConfusionMatrix
        >>> no_change = NoChange(ConfusionMatrix(["calm", "storm"]))
        >>> no_change.update(["calm", "calm", "storm", "storm"])   # predicted: calm, calm, calm, storm
        >>> no_change.result.get_accuracy()
        0.75
    """

    _NAME = "no-change"

    def __init__(self, view: PairCounter, *, first: Hashable | None = None) -> None:
        super().__init__(view, first)
        self._last: Hashable = self._first

    def update(self, y_true: Sequence[Hashable] | np.ndarray, *, sample_weight: ArrayLike | None = None, time: ArrayLike | None = None) -> None:
        """The next labels of the stream (the model's ``y_true``), with the model's weights and times."""
        actual = list(y_true)
        if not actual:
            return
        self._count_pairs(actual, [self._last, *actual[:-1]], sample_weight, time)
        self._last = actual[-1]


class MajorityClass(_Baseline):
    """The majority-class classifier of a stream, counted into ``view``: it predicts each sample's
    label to be the most frequent label so far (ties to the label first in the view's order),
    the classifier ``kappa_m`` measures a model against.

    Args:
        view: where its pairs are counted (a ``ConfusionMatrix`` or a window of one, of the same
            samples as the model's).
        window: count the labels of only the last ``window`` samples (MOA's windowed evaluator).
        factor: instead, fade the label counts by ``factor`` per sample (MOA's fading evaluator).
        include_current: count each sample's own label before choosing, as MOA does (its kappa-M
            then credits the majority with a label it could not have known); by default the
            majority is that of the labels before the sample, a classifier that could run.
        first: the prediction before any label has been seen (default the view's first label).

    Examples:
        >>> from evalkit import ConfusionMatrix
        >>> majority = MajorityClass(ConfusionMatrix(["calm", "storm"]))
        >>> majority.update(["calm", "storm", "storm", "storm"])   # predicted: calm, calm, calm, storm
        >>> majority.result.get_accuracy()
        0.5
    """

    def __init__(self, view: PairCounter, *, window: int | None = None, factor: float | None = None, include_current: bool = False,
                 first: Hashable | None = None) -> None:  # fmt: skip
        if window is not None and factor is not None:
            raise InvalidArgumentError("give the label counts a 'window' or a fading 'factor', not both")
        super().__init__(view, first)
        self.window = None if window is None else _check_size(window, "window")
        self.factor = None if factor is None else check_factor(factor)
        self.include_current = bool(include_current)
        self._order: dict[Hashable, int] = {label: k for k, label in enumerate(getattr(view, "labels", None) or ())}
        self._counts: dict[Hashable, float] = {}
        self._recent: collections.deque[Hashable] = collections.deque()

    _NAME = "majority"

    def _majority(self) -> Hashable:
        if not self._counts:
            return self._first
        order = self._order
        return min(self._counts.items(), key=lambda item: (-item[1], order.get(item[0], len(order))))[0]  # most counted, then first in order

    def _count(self, label: Hashable) -> None:
        counts = self._counts
        if self.factor is not None:
            for known in counts:
                counts[known] *= self.factor
        counts[label] = counts.get(label, 0) + 1
        if self.window is not None:
            self._recent.append(label)
            if len(self._recent) > self.window:
                old = self._recent.popleft()
                counts[old] -= 1
                if not counts[old]:
                    del counts[old]

    def update(self, y_true: Sequence[Hashable] | np.ndarray, *, sample_weight: ArrayLike | None = None, time: ArrayLike | None = None) -> None:
        """The next labels of the stream (the model's ``y_true``), with the model's weights and times."""
        actual = list(y_true)
        if not actual:
            return
        predictions = []
        for label in actual:  # each prediction depends on the labels before it: one at a time
            if self.include_current:
                self._count(label)
                predictions.append(self._majority())
            else:
                predictions.append(self._majority())
                self._count(label)
        self._count_pairs(actual, predictions, sample_weight, time)


def kappa_m(result: object, majority: object) -> float:
    """Kappa-M (Bifet, de Francisci Morales, Read, Holmes and Pfahringer 2015; MOA's Kappa M): a
    model's accuracy measured against the majority-class classifier's on the same samples,
    ``(p_0 - p_m) / (1 - p_m)``. On a stream where one class dominates, a model can have a good
    accuracy and still do no better than always predicting that class.

    Args:
        result: the model's result (or window) over some samples.
        majority: a ``MajorityClass`` (or its result) over the same samples.

    Examples:
        >>> from evalkit import ConfusionMatrix
        >>> model = ConfusionMatrix.from_predictions(["calm", "storm", "storm", "storm"], ["calm", "storm", "calm", "storm"])
        >>> majority = MajorityClass(ConfusionMatrix(["calm", "storm"]))
        >>> majority.update(["calm", "storm", "storm", "storm"])
        >>> kappa_m(model, majority)   # 3 of 4 right against 2 of 4
        0.5
    """
    return _kappa_against(result, majority, "majority-class")


def kappa_temporal(result: object, no_change: object) -> float:
    """Kappa-temporal (Žliobaitė, Bifet, Read, Pfahringer and Holmes 2015; MOA's kappa temporal):
    a model's accuracy measured against the no-change classifier's on the same samples,
    ``(p_0 - p_e) / (1 - p_e)``. Below 0 a model does worse than repeating the last label, which
    on a stream with long runs of one class can happen with a good accuracy and kappa.

    Args:
        result: the model's result (or window) over some samples.
        no_change: a ``NoChange`` (or its result) over the same samples.

    Examples:
        >>> from evalkit import ConfusionMatrix
        >>> model = ConfusionMatrix.from_predictions(["calm", "calm", "storm", "storm"], ["calm", "storm", "storm", "storm"])
        >>> no_change = NoChange(ConfusionMatrix(["calm", "storm"]))
        >>> no_change.update(["calm", "calm", "storm", "storm"])
        >>> kappa_temporal(model, no_change)   # both 3 of 4 right
        0.0
    """
    return _kappa_against(result, no_change, "no-change")


def _kappa_against(result: object, baseline: object, name: str) -> float:
    """``(p_0 - p_b) / (1 - p_b)``: a model's accuracy against a baseline classifier's on the same samples."""
    pairs = [result_of(view).pair_counts() for view in (result, baseline)]
    mine, theirs = (part.margins() for part in pairs)
    if mine["total"] != theirs["total"] and not (isinstance(mine["total"], float) and math.isclose(mine["total"], theirs["total"], rel_tol=1e-9)):
        raise InvalidArgumentError(f"the model and the {name} classifier must count the same samples: {mine['total']} and {theirs['total']}")
    if any(part.counts.dtype.kind == "f" for part in pairs):  # weights: (wrong_b - wrong) / wrong_b, the wrong ones summed themselves (n - correct_b cancels)
        wrong, wrong_b = (float(np.sum(part.counts[part.actual != part.predicted])) for part in pairs)
        return float(ratio(difference(wrong_b, wrong), wrong_b))
    # (p_0 - p_b) / (1 - p_b) = (correct - correct_b) / (n - correct_b): exact for integer counts, NaN when the baseline is never wrong
    return float(ratio(difference(mine["correct"], theirs["correct"]), difference(mine["total"], theirs["correct"])))
