"""Tests decided as a stream comes: a model against a target ("recall is at least 0.9"), or two
models on the same samples, with a p-value that stays valid however often it is read and the
sample where the question was settled.

``SequentialTest`` counts each batch and reads, after it, the anytime-valid p-value of its null
hypothesis; the running minimum of those p-values is itself anytime-valid (each is one of a
test martingale's, by Ville's inequality), so the test may stop at the first batch where it
falls below ``1 - level``, and the chance of deciding wrongly is at most ``1 - level`` however
the stream is watched.

* A target (``target=0.9``) of a proportion (accuracy, one class's recall, precision, ...): the
  beta-binomial mixture martingale ``M(target)`` of the counts (``interval(...,
  anytime=True)``'s), its p-value ``1/M`` while the estimate is on the side claimed. Exact.
* Two models (``update(y_true, first, second)``): ``compare(..., anytime=True)`` of the
  distinct (actual, first, second) triples counted so far: McNemar's test made sequential for
  accuracy (exact), the normal mixture of the asymptotic sequence for other measures.

Examples:
    >>> import numpy as np
    >>> rng = np.random.default_rng(1)
    >>> actual = rng.integers(0, 2, 5000)
    >>> predicted = np.where(rng.random(5000) < 0.94, actual, 1 - actual)
    >>> test = SequentialTest(target=0.92)          # "the accuracy is above 0.92"
    >>> for start in range(0, 5000, 100):
    ...     if test.update(actual[start : start + 100], predicted[start : start + 100]):
    ...         break
    >>> test.decided_at, test.decision, test.p_value < 0.05
    (1900, 'above', True)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable
from typing import Any, cast

import numpy as np

from evalkit._engine._labels import check_label, check_same_family, label_position
from evalkit._engine._types import LabelsLike
from evalkit._engine._validation import check_choice, show
from evalkit._java.regression_metrics import RegressionMeasure, RegressionMetrics
from evalkit._results._closed_form import Interval, _check_level, _proportion
from evalkit._results._sequences import (
    DEFAULT_TUNING,
    FEWEST_SAMPLES,
    beta_binomial_p_value,
    check_tuning,
    normal_mixture_p_value,
)
from evalkit._results.confusion_matrix import ConfusionMatrix
from evalkit._results.intervals import WHOLE_MEASURES, pairs_spread, proportion_counts
from evalkit._results.paired import Comparison, compare
from evalkit._scale.monitor import resolve_watched
from evalkit._scale.segments import counted_piece, watched_columns
from evalkit.exceptions import (
    EmptyInputError,
    InvalidArgumentError,
    InvalidTypeError,
    UnknownLabelError,
)
from evalkit.measures._registry import Measure, MeasureLike, resolve_measure

__all__ = ["SequentialTest"]

ALTERNATIVES = ("above", "below", "either")
"""What a test against a target claims: the measure is above it, below it, or either."""


class SequentialTest:
    """A test decided as a stream comes (see the module).

    Args:
        measure: against a target, any measure: ``"accuracy"`` (the default), a measure of one
            class with ``label``, an average with ``average``, kappa or MCC, or a regressor's
            R², MSE, RMSE or MAE (``update(y_true, y_pred)`` of numbers then); of two models, any
            classifier's measure (with ``average`` for a per-class one).
        average: the average of a per-class measure.
        label: the class of a per-class measure against a target.
        target: the level to test against; none: two models (``update(y_true, first, second)``).
        alternative: against a target, what is claimed: the measure is ``"above"`` it (the
            default), ``"below"`` it, or ``"either"``.
        level: the confidence: a wrong decision at most ``1 - level`` of the time.
        tuning: the sample size where the test is most powerful (see ``interval(anytime=True)``).

    Attributes:
        p_value: the smallest anytime-valid p-value read so far (1 before any).
        decided_at: the samples counted when ``p_value`` first fell below ``1 - level``, or None.
        decision: what was decided: ``"above"`` or ``"below"`` the target, or ``"first"`` or
            ``"second"`` (the better model); None while undecided.
        samples: the samples counted.
    """

    def __init__(self, measure: MeasureLike = "accuracy", average: str | None = None, *, label: Hashable | None = None, target: float | None = None,
                 alternative: str | None = None, level: float = 0.95, tuning: float = DEFAULT_TUNING) -> None:  # fmt: skip
        self.level, self.tuning = _check_level(level), check_tuning(tuning)
        if target is None and alternative is not None:
            raise InvalidArgumentError("'alternative' goes with a target; two models are compared both ways (the better one is the decision)")
        if target is None and label is not None:
            raise InvalidArgumentError("'label' goes with a target; two models compare an average (average=) or a whole-result measure")
        alternative = "above" if alternative is None else alternative
        check_choice("alternative", alternative, ALTERNATIVES)
        resolved = resolve_measure(measure) if target is None else resolve_watched(measure, label, average)[0]
        if target is None and (average is None) != (resolved.name in WHOLE_MEASURES):
            raise InvalidArgumentError(f"two models compare an average of {resolved.name!r} (average='macro', ...) or a whole-result measure "
                                       f"({', '.join(WHOLE_MEASURES)}) without one; got average={show(average)}")  # fmt: skip
        if average is not None:
            check_choice("average", average, ("micro", "macro", "weighted"))
        self.measure, self.average, self.label, self.alternative = resolved.name, average, label, alternative
        self.target: float | None = None
        self._proportion = False  # against a target: whether the measure is a proportion of samples (the exact beta-binomial test)
        self._matrix: ConfusionMatrix | RegressionMetrics | None = None
        if target is not None:
            low, high = resolved.bounds
            if isinstance(target, bool) or not isinstance(target, (int, float, np.integer, np.floating)) or not low < float(target) < high:
                raise InvalidArgumentError(f"'target' must be a level in ({low:g}, {high:g}), the range of {resolved.name!r}, got {show(target)}")
            regression = isinstance(resolved, RegressionMeasure)
            self._proportion = not regression and average is None and (resolved.name == "accuracy" or (label is not None and _proportion(cast(Measure, resolved), {}) is not None))
            self.target = float(target)
            self._matrix = RegressionMetrics(keep_spread=True) if regression else ConfusionMatrix()
        self._triples: Counter[tuple[Any, Any, Any]] = Counter()
        self.p_value, self.samples = 1.0, 0
        self.decided_at: int | None = None
        self.decision: str | None = None
        self._last: Interval | Comparison | None = None

    @property
    def paired(self) -> bool:
        """Whether it compares two models (no target)."""
        return self.target is None

    @property
    def result(self) -> Interval | Comparison | None:
        """What the last read gave: against a target, the confidence sequence of the measure
        (``Interval``); of two models, the sequential comparison (``Comparison``)."""
        return self._last

    def update(self, y_true: LabelsLike, y_pred: LabelsLike, second: LabelsLike | None = None) -> bool:
        """Count a batch (with ``second``, the second model's predictions of the same samples)
        and read the test after it; True when it was decided in this batch.

        Raises:
            InvalidArgumentError: ``second`` given to a test against a target, or missing for two
                models.
        """
        if self.paired != (second is not None):
            raise InvalidArgumentError("two models are compared with update(y_true, first, second); a target with update(y_true, y_pred)"
                                       if self.paired else "a test against a target takes update(y_true, y_pred): one model's predictions")  # fmt: skip
        before = self.decided_at
        if self._matrix is not None:
            size = self._count_target(y_true, y_pred)
        else:
            size = self._count_pair(y_true, y_pred, second)
        self.samples += size
        if size and self.decided_at is None and self.p_value <= 1 - self.level:
            self.decided_at = self.samples
        return before is None and self.decided_at is not None

    def _count_target(self, y_true: LabelsLike, y_pred: LabelsLike) -> int:
        """Count a batch against the target and read the p-value after it: a proportion's exact
        beta-binomial one, or the normal mixture's of the asymptotic sequence (from
        ``FEWEST_SAMPLES`` samples on)."""
        assert self._matrix is not None and self.target is not None
        try:
            columns = watched_columns(y_true, y_pred, self._matrix, self.label, "a test against a target")
        except EmptyInputError:  # an empty batch: nothing to count
            return 0
        batch = counted_piece(columns, 0, len(columns[0]))
        counts = self._matrix = self._matrix.merge(batch, grow=True)  # type: ignore[arg-type]
        size = int(_samples(batch))
        position = None
        if isinstance(counts, ConfusionMatrix) and self.label is not None:
            try:
                position = label_position(counts.labels, self.label)
            except UnknownLabelError:  # a class not met yet: nothing of its measure to read
                return size
        options = {} if self.label is None else {"label": self.label}
        found = counts.interval(self.measure, self.average, anytime=True, level=self.level, tuning=self.tuning, **options)  # type: ignore[arg-type]
        self._last = found
        side = "above" if found.estimate > self.target else "below" if found.estimate < self.target else None
        if side is None or self.alternative not in (side, "either") or (not self._proportion and _samples(counts) < FEWEST_SAMPLES):
            return size
        if self._proportion:
            successes, trials = self._counts(cast(ConfusionMatrix, counts), position)
            p_value = beta_binomial_p_value(successes, trials, self.target, 1 - self.level, self.tuning)
        else:
            n, spread = (counts.sample_spread(self.measure) if isinstance(counts, RegressionMetrics)
                         else pairs_spread(counts.pair_counts(), len(counts.labels), resolve_measure(self.measure), found.estimate, average=self.average,
                                           position=position))  # fmt: skip
            p_value = normal_mixture_p_value(found.estimate - self.target, spread, n, 1 - self.level, self.tuning)
        if p_value < self.p_value:
            self.p_value = p_value
            if self.decision is None and p_value <= 1 - self.level:
                self.decision = side
        return size

    def _counts(self, matrix: ConfusionMatrix, position: int | None) -> tuple[float, float]:
        """The successes and trials of the proportion tested (of the class at ``position``)."""
        if position is None:
            margins = matrix.pair_counts().margins()
            return float(margins["correct"]), float(margins["total"])
        return cast("tuple[float, float]", proportion_counts(resolve_measure(self.measure), matrix.class_cells[position : position + 1]))

    def _count_pair(self, y_true: LabelsLike, first: LabelsLike, second: LabelsLike | None) -> int:
        columns = [_column(values, name) for values, name in ((y_true, "y_true"), (first, "y_pred"), (second, "second"))]
        if len({len(column) for column in columns}) > 1:
            raise InvalidArgumentError(f"'y_true', 'y_pred' and 'second' must have one length, got {[len(column) for column in columns]}")
        if not len(columns[0]):
            return 0
        seen = next(iter(self._triples), ())
        check_same_family([label for column in columns for label in column], seen, ("the batch's labels", "the labels counted before"))
        rows = list(zip(*columns))
        triples = self._triples + Counter(rows)  # (kept once the comparison of all of them is read: a batch it refuses leaves the test as it was)
        kinds = list(triples.items())
        actual, one, two = (np.array([kind[k] for kind, _ in kinds], dtype=object) for k in range(3))
        counts = np.array([amount for _, amount in kinds], dtype=np.int64)
        found = compare(actual, one, two, self.measure, self.average, anytime=True, level=self.level, tuning=self.tuning, sample_weight=counts)
        self._triples, self._last = triples, found
        if found.method == "asymptotic" and self.samples + len(rows) < FEWEST_SAMPLES:  # (the delta method on a handful of samples: not read yet)
            return len(rows)
        if found.p_value < self.p_value:
            self.p_value = found.p_value
            if self.decision is None and found.p_value <= 1 - self.level and not math.isnan(found.difference):
                self.decision = found.better or ("first" if found.difference > 0 else "second")
        return len(rows)

    def __repr__(self) -> str:
        measure = f"{self.average} {self.measure}" if self.average is not None else self.measure if self.label is None else f"{self.measure} of {self.label!r}"
        about = f"{measure} {self.alternative} {self.target:g}" if self.target is not None else f"{measure} of two models"
        state = f"decided at {self.decided_at}: {self.decision}" if self.decided_at is not None else "undecided"
        return f"SequentialTest({about}): {self.samples} samples, p = {self.p_value:.4g}, {state}"


def _samples(counts: ConfusionMatrix | RegressionMetrics) -> float:
    """The samples counted so far."""
    return counts.get_samples() if isinstance(counts, RegressionMetrics) else counts.get_total_items()


def _column(values: object, name: str) -> list:
    """One column of labels as a list, each checked (one label per sample, never None)."""
    found = np.asarray(values, dtype=object)
    if found.ndim != 1:
        raise InvalidTypeError(f"{name!r} must be one label per sample (a 1-D column), got {show(values)}")
    return [check_label(name, label) for label in found.tolist()]
