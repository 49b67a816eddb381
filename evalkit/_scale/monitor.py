"""Alarms with false-alarm control: ``Monitor`` watches a measure of a stream (accuracy, a
class's recall or precision, an F1, a macro average, ...) and fires when it has fallen below its
reference level.

A fixed-n test read after every batch, or a drop rule ("alert when the window's accuracy is
below 0.88"), fires on noise sooner or later. ``Monitor`` is an e-detector (J. Shin, A. Ramdas
and A. Rinaldo, "E-detectors: a nonparametric framework for sequential change detection",
2023): for each sample ``j`` where a change might have started and each alternative level
``q`` below the reference ``p0``, the likelihood ratio of the trials since ``j``,
``L(j, t) = Π (q/p0)^x ((1 - q)/(1 - p0))^(1 - x)``, is an e-process while the level stays at
or above ``p0``. The detector adds them up,

    D(t) = Σ_q π_q Σ_{j ≤ t} w_j L(j, t),    kept as R(t) = (R(t-1) + w_t) · LR_t for each q,

and fires when ``D(t)`` reaches its threshold, then starts again from that sample. Two
guarantees, by the weights:

* ``alpha=``: weights ``w_j = 1/(j (j + 1))`` (they sum to 1), so ``D(t) + Σ_{j > t} w_j`` is
  a nonnegative supermartingale starting at 1, and by Ville's inequality the probability of
  *any* false alarm over the whole stream, however long, is at most ``alpha`` (alarm at
  ``1/alpha``). A change after ``j`` samples is found about ``log(j² / alpha)`` divided by the
  drop's information per trial after it.
* ``arl=``: weights 1 (the Shiryaev–Roberts procedure), so ``D(t) - t`` is a martingale and the
  average number of samples to a false alarm is at least ``arl`` (alarm at ``arl``); its delay
  does not grow with the time of the change.

The alternatives ``q`` lie at odds ratios ``exp(-s)`` of the reference, ``s`` from 0.05 to 3.2
(seven levels, equal weights): drops from about 1 point to most of the way to 0. A measure
where lower is better (an error rate, the false positive rate) is watched for a rise instead.

Any other measure (an F1, a macro average, kappa, MCC, a regressor's R² or errors) has no
likelihood ratio of one trial, so it is watched by confidence sequences of segments started at
checkpoints, every ``every`` samples (``evalkit._scale.segments``), with the same guarantee on
any false alarm over the whole stream (asymptotically).

Examples:
    >>> monitor = Monitor(0.9, alpha=0.01)
    >>> rng = np.random.default_rng(0)
    >>> truth = rng.integers(0, 2, 6000)
    >>> right = rng.random(6000) < np.where(np.arange(6000) < 3000, 0.9, 0.8)   # the model drops at 3,000
    >>> monitor.update(truth, np.where(right, truth, 1 - truth))
    True
    >>> monitor.alarms[0], len(monitor.alarms)     # 412 samples after the drop; then again and again while it lasts
    (3412, 17)
"""

from __future__ import annotations

import math
import threading
from collections.abc import Hashable, Sequence
from typing import Any, ClassVar, cast

import numpy as np

from evalkit._engine import serialization
from evalkit._engine._labels import check_label, check_one_label, check_same_family, same_labels
from evalkit._engine._types import LabelsLike
from evalkit._engine._validation import check_choice, check_positive_number, show
from evalkit._engine.counting import encode
from evalkit._java.regression_metrics import RegressionMeasure, RegressionMetrics
from evalkit._results._closed_form import _proportion
from evalkit._results._sequences import DEFAULT_TUNING, check_tuning
from evalkit._results.intervals import WHOLE_MEASURES
from evalkit._scale._stream import _Locked
from evalkit._scale.segments import CHECKPOINT, Counts, Segments
from evalkit.exceptions import EmptyInputError, InvalidArgumentError, UnknownMetricError, UnsupportedSettingError
from evalkit.measures._registry import Measure, MeasureLike, resolve_measure

__all__ = ["Monitor", "resolve_watched"]

_CHUNK = 4096
"""Trials watched at once in a batch: memory of ``7 x _CHUNK`` numbers, and what an alarm costs
again at the most (the rest of its chunk, watched anew)."""

SHIFTS = (0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 3.2)
"""The alternatives, as log odds ratios below (or, for a measure where lower is better, above)
the reference: each has weight ``1/len(SHIFTS)`` in the detector."""


class Monitor(serialization.Document, _Locked):
    """An alarm on a measure of a stream that fell below its reference level (see the module).

    Args:
        reference: the level the measure is expected to keep, inside its range (e.g. last
            month's accuracy, or what the service promises).
        measure: ``"accuracy"`` (the default), a measure of one class with ``label``, a
            per-class measure averaged with ``average``, Cohen's kappa or MCC, or a regressor's
            R², MSE, RMSE or MAE (``update(y_true, y_pred)`` of numbers then). A proportion of
            whole counts (accuracy, one class's recall, precision, specificity, ...) is watched
            sample by sample (the e-detector); any other, by segments at checkpoints.
        label: the class of a per-class measure (of the stream's kind of labels: ``1`` is not
            ``True`` nor ``"1"``; a class that never comes is watched by no trial, which
            ``trials`` shows).
        average: ``"micro"``, ``"macro"`` or ``"weighted"``: watch an average over the classes.
        alpha: the probability of any false alarm over the whole stream (0.01 unless ``arl``).
        arl: instead, the average number of samples to a false alarm (the Shiryaev–Roberts
            procedure of a proportion: no bound on the probability over an endless stream, but
            a delay that does not grow with the time of the change).
        tuning: for a measure watched by segments, the samples where each segment's sequence
            is narrowest (see ``interval(anytime=True)``).
        every: for a measure watched by segments, the samples between two checkpoints, where
            segments start and are read (100: a checkpoint costs a few milliseconds).

    Attributes:
        alarms: the sample numbers (counted from 1) where it fired, oldest first (by segments:
            checkpoints, multiples of ``every``).
        samples: the samples seen.

    Raises:
        InvalidArgumentError: a reference outside the measure's range, a per-class measure
            with neither ``label`` nor ``average`` (or both, or a whole-result measure with
            one), both ``alpha`` and ``arl``, ``arl`` of a measure watched by segments, or
            either out of range.
    """

    DOCUMENT: ClassVar[str] = "Monitor"

    def __init__(self, reference: float, measure: MeasureLike = "accuracy", *, label: Hashable | None = None, average: str | None = None,
                 alpha: float | None = None, arl: float | None = None, tuning: float = DEFAULT_TUNING, every: int = CHECKPOINT) -> None:  # fmt: skip
        resolved, self.regression, whole = resolve_watched(measure, label, average)
        coefficients = None if whole or average is not None else _proportion(cast(Measure, resolved), {})
        by_segments = self.regression or average is not None or (coefficients is None and resolved.name != "accuracy")
        low, high = (-math.inf, math.inf) if resolved.bounds is None else resolved.bounds
        low, high = (0.0, 1.0) if not by_segments else (low, high)
        if isinstance(reference, bool) or not isinstance(reference, (int, float, np.integer, np.floating)) or not low < float(reference) < high:
            raise InvalidArgumentError(f"'reference' must be a level in ({low:g}, {high:g}), the range of {resolved.name!r}, got {show(reference)}")
        if alpha is not None and arl is not None:
            raise InvalidArgumentError("give 'alpha' (a false alarm at all, over the whole stream) or 'arl' (samples to a false alarm), not both")
        if every != CHECKPOINT and not by_segments:
            raise InvalidArgumentError(f"'every' sets the checkpoints of a measure watched by segments; {resolved.name!r} is watched sample by sample")
        if arl is not None and by_segments:
            raise InvalidArgumentError(f"'arl' is the Shiryaev–Roberts procedure of a proportion's trials; {resolved.name!r}"
                                       f"{'' if average is None else f' averaged {average!r}'} is watched by confidence sequences of segments: give 'alpha'")  # fmt: skip
        self.reference = float(reference)
        self.measure, self.average = resolved.name, average
        self.label = None if label is None else check_one_label("label", label)
        self.alpha = None if arl is not None else check_positive_number("alpha", 0.01 if alpha is None else alpha)
        self.arl = None if arl is None else check_positive_number("arl", arl)
        if (self.alpha is not None and self.alpha >= 1) or (self.arl is not None and self.arl <= 1):
            raise InvalidArgumentError(f"'alpha' must be in (0, 1) and 'arl' above 1, got {show(alpha if self.arl is None else arl)}")
        self.tuning = check_tuning(tuning)
        self._coefficients = None if coefficients is None else (np.asarray(coefficients[0], dtype=bool), np.asarray(coefficients[1], dtype=bool))
        self._worse_is_lower = resolved.direction != "lower"
        self._log_ratios = np.zeros((2, len(SHIFTS)))
        if not by_segments:  # the alternatives' log likelihood ratios of a success and of a failure
            odds = math.log(self.reference / (1 - self.reference))
            alternatives = 1 / (1 + np.exp(-(odds + (-1 if self._worse_is_lower else 1) * np.array(SHIFTS))))
            self._log_ratios = np.stack([np.log(alternatives / self.reference), np.log1p(-alternatives) - math.log1p(-self.reference)])
        self._steps = self._log_ratios.tolist()
        self._lock = threading.RLock()  # (threads may feed one monitor: each batch is watched whole, in turn)
        self.samples = 0
        self.alarms: list[int] = []
        self._trials = 0  # trials since the last alarm (the detector's time)
        self._log_r = [-math.inf] * len(SHIFTS)  # log R(t) of each alternative
        self._segments = None if not by_segments else Segments(self.measure, average, self.label, self.reference, alpha=cast(float, self.alpha),
                                                                      worse_is_lower=self._worse_is_lower, tuning=self.tuning, every=every,
                                                                      regression=self.regression)  # fmt: skip

    @property
    def description(self) -> str:
        """What it watches and its guarantee, in words (``"accuracy below 0.9; a false alarm at
        most 1% over the whole stream"``)."""
        watched = f"{self.average} {self.measure}" if self.average is not None else self.measure if self.label is None else f"{self.measure} of {self.label!r}"
        side = "below" if self._worse_is_lower else "above"
        guarantee = f"a false alarm at most {self.alpha:.3g} over the whole stream" if self.alpha is not None else f"on average {self.arl:,.0f} samples to a false alarm"
        return f"{watched} {side} {self.reference:g}; {guarantee}"

    @property
    def threshold(self) -> float:
        """The level of the detector where it fires: ``1/alpha``, or ``arl``."""
        return 1 / self.alpha if self.alpha is not None else float(self.arl or 0)

    @property
    def statistic(self) -> float:
        """The detector now, ``D(t)`` (with ``alpha``, plus the weight of the samples to come):
        it fires when this reaches ``threshold``.

        Raises:
            UnsupportedSettingError: a measure watched by segments (each segment's sequence is
                read at its own level: ``segments``).
        """
        if self._segments is not None:
            raise UnsupportedSettingError(f"a monitor of {self.measure!r} reads confidence sequences of segments, each at its own level, not one "
                                          "statistic: see its segments")  # fmt: skip
        return math.exp(float(self._log_statistic(np.array(self._log_r), self._trials)))

    def _log_statistic(self, log_r: np.ndarray, trials: int | np.ndarray) -> np.ndarray:
        mixed = np.logaddexp.reduce(log_r - math.log(len(SHIFTS)), axis=0)
        return mixed if self.alpha is None else np.logaddexp(mixed, -np.log1p(trials))

    def _trials_of(self, y_true: LabelsLike, y_pred: LabelsLike) -> tuple[np.ndarray, np.ndarray, int]:
        """The batch's trials in order (True where a success), their positions among its
        samples, and its samples: every sample a trial of accuracy, right or wrong; for a
        class's measure, the samples in its denominator (a recall's: those of the class)."""
        actual, predicted, labels, _ = encode(y_true, y_pred)
        self._check_family(labels)
        if self._coefficients is None:
            return np.asarray(actual == predicted), np.arange(len(actual)), len(actual)
        position = next((k for k, own in enumerate(labels) if same_labels((own,), (self.label,))), -1)  # (-1: not in this batch)
        is_actual, is_predicted = actual == position, predicted == position
        cells = np.select([is_actual & is_predicted, ~is_actual & is_predicted, is_actual & ~is_predicted], [0, 1, 2], 3)  # tp, fp, fn, tn
        numerator, denominator = self._coefficients
        trials = np.flatnonzero(denominator[cells])
        return numerator[cells][trials], trials, len(actual)

    def _check_family(self, labels: Sequence[object]) -> None:
        """Refuse labels of a batch that mix kinds (``1`` and ``True``, ``1`` and ``"1"``), among
        themselves or with ``label`` (whose class they could never be: the monitor would watch
        nothing, and never fire)."""
        check_same_family(labels, () if self.label is None else (self.label,), ("the batch's labels", "'label'"))

    @property
    def trials(self) -> float:
        """The trials watched since the last alarm (or the start): every sample of accuracy, the
        samples of the class for its recall (0 while the class has not come: check it); by
        segments, the samples (of the class, with ``label``)."""
        return self._trials if self._segments is None else self._segments.trials

    def update(self, y_true: LabelsLike, y_pred: LabelsLike, *, sample_weight: object = None) -> bool:
        """Watch a batch, sample by sample in order; True when the detector fired in it (each
        alarm's sample in ``alarms``; it starts again after each).

        Raises:
            UnsupportedSettingError: sample weights (the guarantee is about samples, one by one).
            MixedLabelTypesError: labels of two kinds (``1`` and ``True``), or of another kind
                than ``label``; nothing is watched then.
        """
        with self._lock:
            return self._apply(*self._prepared(y_true, y_pred, sample_weight))

    def _prepared(self, y_true: LabelsLike, y_pred: LabelsLike, sample_weight: object) -> tuple[np.ndarray | bool | list[tuple[Counts, int]] | None, np.ndarray | None, int]:
        """A batch checked and read, nothing watched yet (what ``Prequential`` checks before its
        view counts the batch): its trials in order (``_trials_of``), or one event's outcome (True
        or False; None: no trial of the measure) without positions; by segments, its pieces,
        cut at the checkpoints it reaches (``Segments.pieces``)."""
        if sample_weight is not None:
            raise UnsupportedSettingError("a Monitor watches samples one by one, in order: give each sample once, without weights")
        if self._segments is not None:
            pieces = self._segments.pieces(y_true, y_pred)
            return pieces, None, sum(size for _, size in pieces)
        if type(y_true) is list and type(y_pred) is list and len(y_true) == 1 == len(y_pred):  # one event of a stream: in Python, no arrays
            return self._one_outcome(y_true[0], y_pred[0]), None, 1
        try:
            return self._trials_of(y_true, y_pred)
        except EmptyInputError:  # an empty batch: nothing to watch
            return np.zeros(0, dtype=bool), np.zeros(0, dtype=np.intp), 0

    def _apply(self, outcomes: np.ndarray | bool | list[tuple[Counts, int]] | None, positions: np.ndarray | None, size: int) -> bool:
        """Watch a batch read by ``_prepared``: a chunk of trials at a time (after an alarm the
        rest of its chunk is watched anew, so an alarm costs at most a chunk)."""
        if self._segments is not None:
            alarms = [self.samples + at for at in self._segments.apply(cast("list[tuple[Counts, int]]", outcomes))]
            self.alarms.extend(alarms)
            self.samples += size
            return bool(alarms)
        if positions is None or not isinstance(outcomes, np.ndarray):  # one event
            self.samples += 1
            return outcomes is not None and self._step(bool(outcomes))
        fired = False
        for first in range(0, len(outcomes), _CHUNK):
            chunk, start = outcomes[first : first + _CHUNK], 0
            while start < len(chunk):
                found = self._watch(chunk[start:])
                if found is None:
                    break
                self.alarms.append(self.samples + int(positions[first + start + found]) + 1)
                fired, start = True, start + found + 1
        self.samples += size
        return fired

    @property
    def segments(self) -> list[tuple[int, Counts]]:
        """By segments: the segments kept, as (checkpoint ``j`` it started at, its counts), oldest
        first; the one of ``j`` is read at level ``1 - alpha / (j (j + 1))``."""
        return [] if self._segments is None else [(start, counts.copy()) for start, counts in self._segments.segments]

    def _one_outcome(self, actual: object, predicted: object) -> bool | None:
        """One sample checked as a batch is: whether it is a success of the measure, or None
        (not one of its trials: a sample of another class, for a recall)."""
        check_label("y_true", actual)
        check_label("y_pred", predicted)
        check_same_family((actual,), (predicted,), ("y_true", "y_pred"))
        self._check_family((actual,))
        if self._coefficients is None:
            return same_labels((actual,), (predicted,))
        is_actual, is_predicted = same_labels((actual,), (self.label,)), same_labels((predicted,), (self.label,))
        cell = 0 if is_actual and is_predicted else 1 if is_predicted else 2 if is_actual else 3
        numerator, denominator = self._coefficients
        return bool(numerator[cell]) if denominator[cell] else None

    def _step(self, success: bool) -> bool:
        """One trial through the detector: the steps of ``_watch``, on Python floats; True when
        it fires (at the sample counted last)."""
        self._trials += 1
        t = self._trials
        log_w = 0.0 if self.alpha is None else -math.log(t * (t + 1.0))
        steps = self._steps[0 if success else 1]
        log_r = [step + (log_w if old == -math.inf else max(old, log_w) + math.log1p(math.exp(-abs(old - log_w)))) for step, old in zip(steps, self._log_r)]
        top = max(log_r)
        log_d = top + math.log(sum(math.exp(value - top) for value in log_r)) - math.log(len(SHIFTS))
        if self.alpha is not None:
            tail = -math.log1p(t)
            log_d = max(log_d, tail) + math.log1p(math.exp(-abs(log_d - tail)))
        if log_d >= math.log(self.threshold):
            self.alarms.append(self.samples)
            self._trials, self._log_r = 0, [-math.inf] * len(SHIFTS)
            return True
        self._log_r = log_r
        return False

    def _watch(self, outcomes: np.ndarray) -> int | None:
        """Run the detector over ``outcomes`` (trials in order): the position of the first trial
        where it fires (the detector then starts again after it), else None (the detector
        carried on to the end)."""
        n = len(outcomes)
        steps = np.where(outcomes[None, :], self._log_ratios[0][:, None], self._log_ratios[1][:, None])  # log LR of each trial, per alternative
        climbed = np.cumsum(steps, axis=1)
        before = np.concatenate([np.zeros((len(SHIFTS), 1)), climbed[:, :-1]], axis=1)
        times = self._trials + np.arange(1, n + 1)
        log_w = np.zeros(n) if self.alpha is None else -np.log(times * (times + 1.0))
        log_r = climbed + np.logaddexp.accumulate(np.concatenate([np.array(self._log_r)[:, None], log_w[None, :] - before], axis=1), axis=1)[:, 1:]
        log_d = self._log_statistic(log_r, times)
        crossed = np.flatnonzero(log_d >= math.log(self.threshold))
        if len(crossed):
            self._trials, self._log_r = 0, [-math.inf] * len(SHIFTS)
            return int(crossed[0])
        self._trials += n
        self._log_r = log_r[:, -1].tolist()
        return None

    def __repr__(self) -> str:
        guarantee = f"alpha={self.alpha}" if self.alpha is not None else f"arl={self.arl}"
        of = "" if self.label is None else f", label={self.label!r}"
        of += "" if self.average is None else f", average={self.average!r}"
        return f"Monitor({self.reference}, {self.measure!r}{of}, {guarantee}): {self.samples} samples, alarms at {self.alarms}"

    # ----------------------------------------------------------------------------------------
    # JSON: the settings and the detector's state

    def _document(self) -> dict[str, Any]:
        with self._lock:  # (one state, never half a batch)
            return {"reference": self.reference, "measure": self.measure, "label": self.label, "average": self.average, "alpha": self.alpha, "arl": self.arl,
                    "samples": self.samples, "alarms": list(self.alarms), "trials": self._trials,
                    **(self._segments.document() if self._segments is not None else {"log_r": [None if math.isinf(value) else value for value in self._log_r]})}  # fmt: skip

    @classmethod
    def _read_document(cls, document: dict[str, Any]) -> Monitor:
        try:
            monitor = cls(serialization.number(serialization.field(document, "reference"), "reference"), serialization.field(document, "measure"),
                          label=document.get("label"), average=document.get("average"), alpha=document.get("alpha"), arl=document.get("arl"),
                          tuning=document.get("tuning", DEFAULT_TUNING), every=document.get("every", CHECKPOINT))  # fmt: skip
        except (InvalidArgumentError, TypeError, ValueError) as error:
            raise serialization.FormatError(f"the settings of the monitor: {error}") from None
        monitor.samples = serialization.integer(document, "samples", high=2**62)
        monitor._trials = serialization.integer(document, "trials", high=monitor.samples)
        alarms = serialization.field(document, "alarms")
        if not isinstance(alarms, list) or any(isinstance(at, bool) or not isinstance(at, int) or not 0 < at <= monitor.samples for at in alarms):
            raise serialization.FormatError(f"field 'alarms' must list sample numbers in 1..{monitor.samples}, got {show(alarms)}")
        monitor.alarms = list(alarms)
        if monitor._segments is not None:
            monitor._segments.read(document, monitor.samples)
            return monitor
        log_r = serialization.field(document, "log_r")
        if not isinstance(log_r, list) or len(log_r) != len(SHIFTS):
            raise serialization.FormatError(f"field 'log_r' must hold {len(SHIFTS)} numbers or nulls, got {show(log_r)}")
        monitor._log_r = [-math.inf if value is None else serialization.number(value, "log_r") for value in log_r]
        return monitor


def resolve_watched(measure: MeasureLike, label: Hashable | None, average: str | None) -> tuple[Measure | RegressionMeasure, bool, bool]:
    """A measure a stream is watched or tested by: a classifier's, or a regressor's whose spread
    of one sample its sums give; whether it is a regressor's, and whether it is of the whole
    result (neither ``label`` nor ``average``: accuracy, kappa, MCC, a regressor's).

    Raises:
        UnknownMetricError: a name of neither (the classifier's message).
        InvalidArgumentError: a regressor's measure without a known spread; a per-class measure
            with neither ``label`` nor ``average``, or both, or a whole-result one with one.
    """
    try:
        resolved: Measure | RegressionMeasure = resolve_measure(measure)
        regression = False
    except UnknownMetricError as unknown:  # a regressor's measure, or none (the classifier's message, then)
        if not isinstance(measure, str):
            raise
        try:
            resolved, regression = RegressionMetrics.measure(measure), True
        except UnknownMetricError:
            raise unknown from None
        if resolved.name not in RegressionMetrics.SPREAD_MEASURES:
            raise InvalidArgumentError(f"a regressor is watched by {', '.join(RegressionMetrics.SPREAD_MEASURES)}, not {resolved.name!r}") from None
    whole = regression or (resolved.name in WHOLE_MEASURES and average is None)
    if average is not None:
        check_choice("average", average, ("micro", "macro", "weighted"))
    given = (label is not None) + (average is not None)
    if given > 1 or (given == 0) != whole:
        raise InvalidArgumentError(f"give 'label' (one class) or 'average' (over the classes) for a per-class measure, and neither for the whole "
                                   f"result's {', '.join(WHOLE_MEASURES)} or a regressor's measure; got measure {resolved.name!r}, label {show(label)}, "
                                   f"average {show(average)}")  # fmt: skip
    return resolved, regression, whole
