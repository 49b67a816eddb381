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

Any other measure (an F1, a macro average, kappa, MCC) has no likelihood ratio of one trial, so
it is watched by confidence sequences of segments instead: at checkpoints (batch ends at least
``CHECKPOINT`` samples apart) a segment starts, the newest counting the samples after it; the
segment started at checkpoint ``j`` is read with the asymptotic confidence sequence (Waudby-Smith
et al., 2024) at level ``1 - alpha / (j (j + 1))``, and the monitor fires when one leaves the
reference out on the worse side. The levels' misses add up to at most ``alpha`` (a union bound),
so the chance of any false alarm over the whole stream stays at most ``alpha``, asymptotically.
Segments are thinned as they age (the one started at ``j`` is kept while fewer than ``4 · 2^v``
checkpoints follow it, ``2^v`` the largest power of two dividing ``j``; the first is kept always):
about ``2 log2`` of the checkpoints are read at each, and a change is found by a segment that
starts within the first half of the time since it.

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
from evalkit._results._sequences import DEFAULT_TUNING, FEWEST_SAMPLES, check_tuning
from evalkit._results.confusion_matrix import ConfusionMatrix
from evalkit._results.counted import read_result, result_document
from evalkit._results.intervals import WHOLE_MEASURES
from evalkit.exceptions import EmptyInputError, InvalidArgumentError, UnknownMetricError, UnsupportedSettingError
from evalkit.measures._registry import Measure, MeasureLike, resolve_measure

__all__ = ["Monitor", "resolve_watched"]

_CHUNK = 4096
"""Trials watched at once in a batch: memory of ``7 x _CHUNK`` numbers, and what an alarm costs
again at the most (the rest of its chunk, watched anew)."""

Counts = ConfusionMatrix | RegressionMetrics
"""What a monitor by segments counts: a classifier's matrix, or a regressor's sums."""

CHECKPOINT = FEWEST_SAMPLES
"""The fewest samples between two checkpoints of a monitor by segments (where segments start and
are read): a batch end at least this many samples after the last checkpoint is the next."""

SHIFTS = (0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 3.2)
"""The alternatives, as log odds ratios below (or, for a measure where lower is better, above)
the reference: each has weight ``1/len(SHIFTS)`` in the detector."""


class Monitor(serialization.Document):
    """An alarm on a measure of a stream that fell below its reference level (see the module).

    Args:
        reference: the level the measure is expected to keep, inside its range (e.g. last
            month's accuracy, or what the service promises).
        measure: ``"accuracy"`` (the default), a measure of one class with ``label``, a
            per-class measure averaged with ``average``, or Cohen's kappa or MCC. A proportion
            of whole counts (accuracy, one class's recall, precision, specificity, ...) is
            watched sample by sample (the e-detector); any other, by segments at checkpoints.
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

    Attributes:
        alarms: the sample numbers (counted from 1) where it fired, oldest first (by segments:
            the checkpoint's last sample).
        samples: the samples seen.

    Raises:
        InvalidArgumentError: a reference outside the measure's range, a per-class measure
            with neither ``label`` nor ``average`` (or both, or a whole-result measure with
            one), both ``alpha`` and ``arl``, ``arl`` of a measure watched by segments, or
            either out of range.
    """

    DOCUMENT: ClassVar[str] = "Monitor"

    def __init__(self, reference: float, measure: MeasureLike = "accuracy", *, label: Hashable | None = None, average: str | None = None,
                 alpha: float | None = None, arl: float | None = None, tuning: float = DEFAULT_TUNING) -> None:  # fmt: skip
        resolved, self.regression, whole = resolve_watched(measure, label, average)
        coefficients = None if whole or average is not None else _proportion(cast(Measure, resolved), {})
        self._by_segments = self.regression or average is not None or (coefficients is None and resolved.name != "accuracy")
        low, high = (-math.inf, math.inf) if resolved.bounds is None else resolved.bounds
        low, high = (0.0, 1.0) if not self._by_segments else (low, high)
        if isinstance(reference, bool) or not isinstance(reference, (int, float, np.integer, np.floating)) or not low < float(reference) < high:
            raise InvalidArgumentError(f"'reference' must be a level in ({low:g}, {high:g}), the range of {resolved.name!r}, got {show(reference)}")
        if alpha is not None and arl is not None:
            raise InvalidArgumentError("give 'alpha' (a false alarm at all, over the whole stream) or 'arl' (samples to a false alarm), not both")
        if arl is not None and self._by_segments:
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
        if not self._by_segments:  # the alternatives' log likelihood ratios of a success and of a failure
            odds = math.log(self.reference / (1 - self.reference))
            alternatives = 1 / (1 + np.exp(-(odds + (-1 if self._worse_is_lower else 1) * np.array(SHIFTS))))
            self._log_ratios = np.stack([np.log(alternatives / self.reference), np.log1p(-alternatives) - math.log1p(-self.reference)])
        self._steps = self._log_ratios.tolist()
        self.samples = 0
        self.alarms: list[int] = []
        self._trials = 0  # trials since the last alarm (the detector's time)
        self._log_r = [-math.inf] * len(SHIFTS)  # log R(t) of each alternative
        self._restart_segments()
        self._pending: Counts | None = None  # by segments: the samples since the last checkpoint
        self._since = 0  # their number

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
        if self._by_segments:
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
    def trials(self) -> int:
        """The trials watched since the last alarm (or the start): every sample of accuracy, the
        samples of the class for its recall (0 while the class has not come: check it)."""
        return self._trials

    def update(self, y_true: LabelsLike, y_pred: LabelsLike, *, sample_weight: object = None) -> bool:
        """Watch a batch, sample by sample in order; True when the detector fired in it (each
        alarm's sample in ``alarms``; it starts again after each).

        Raises:
            UnsupportedSettingError: sample weights (the guarantee is about samples, one by one).
            MixedLabelTypesError: labels of two kinds (``1`` and ``True``), or of another kind
                than ``label``; nothing is watched then.
        """
        return self._apply(*self._prepared(y_true, y_pred, sample_weight))

    def _prepared(self, y_true: LabelsLike, y_pred: LabelsLike, sample_weight: object) -> tuple[np.ndarray | bool | Counts | None, np.ndarray | None, int]:
        """A batch checked and read, nothing watched yet (what ``Prequential`` checks before its
        view counts the batch): its trials in order (``_trials_of``), or one event's outcome (True
        or False; None: no trial of the measure) without positions; by segments, its matrix."""
        if sample_weight is not None:
            raise UnsupportedSettingError("a Monitor watches samples one by one, in order: give each sample once, without weights")
        if self._by_segments:
            return self._batch_matrix(y_true, y_pred)
        if type(y_true) is list and type(y_pred) is list and len(y_true) == 1 == len(y_pred):  # one event of a stream: in Python, no arrays
            return self._one_outcome(y_true[0], y_pred[0]), None, 1
        try:
            return self._trials_of(y_true, y_pred)
        except EmptyInputError:  # an empty batch: nothing to watch
            return np.zeros(0, dtype=bool), np.zeros(0, dtype=np.intp), 0

    def _apply(self, outcomes: np.ndarray | bool | Counts | None, positions: np.ndarray | None, size: int) -> bool:
        """Watch a batch read by ``_prepared``: a chunk of trials at a time (after an alarm the
        rest of its chunk is watched anew, so an alarm costs at most a chunk)."""
        if self._by_segments:
            return self._checkpoint(cast("Counts | None", outcomes), size)
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

    # ----------------------------------------------------------------------------------------
    # by segments: confidence sequences of the samples since each checkpoint

    @property
    def segments(self) -> list[tuple[int, Counts]]:
        """By segments: the segments kept, as (checkpoint ``j`` it started at, its counts), oldest
        first; the one of ``j`` is read at level ``1 - alpha / (j (j + 1))``."""
        return [(start, counts.copy()) for start, counts in self._segments]

    def _empty(self) -> Counts:
        """The counts of a segment before its first sample."""
        return RegressionMetrics(keep_spread=True) if self.regression else ConfusionMatrix()

    def _restart_segments(self) -> None:
        """The segments after an alarm (or at the start): one, from checkpoint 1."""
        self._segments: list[tuple[int, Counts]] = [(1, self._empty())]

    def _batch_matrix(self, y_true: LabelsLike, y_pred: LabelsLike) -> tuple[Counts | None, None, int]:
        """A batch counted for the segments, its labels checked against those seen and ``label``."""
        batch = self._empty()
        try:
            cast(Any, batch).update(y_true, y_pred)  # (labels, or targets: what the kind counts)
        except EmptyInputError:
            return None, None, 0
        if isinstance(batch, RegressionMetrics):
            return batch, None, batch.get_samples()
        seen = cast(ConfusionMatrix, self._pending if self._pending is not None else self._segments[0][1])
        check_same_family(batch.labels, (*seen.labels[:1], *(() if self.label is None else (self.label,))), ("the batch's labels", "the labels before"))
        return batch, None, int(batch.get_total_items())

    def _checkpoint(self, batch: Counts | None, size: int) -> bool:
        """Keep a batch; at a checkpoint (``CHECKPOINT`` samples since the last), count what was
        kept into every segment, read them, and start the next segment (or start again after
        an alarm); True when it fired."""
        if batch is not None:
            self._pending = batch if self._pending is None else self._pending.merge(batch, grow=True)  # type: ignore[arg-type]
        self.samples, self._since, self._trials = self.samples + size, self._since + size, self._trials + size
        if self._since < CHECKPOINT or self._pending is None:
            return False
        pending, self._pending, self._since = self._pending, None, 0
        self._segments = [(start, counts.merge(pending, grow=True)) for start, counts in self._segments]  # type: ignore[arg-type]
        if any(self._left_behind(start, counts) for start, counts in self._segments):
            self.alarms.append(self.samples)
            self._restart_segments()
            self._trials = 0
            return True
        newest = self._segments[-1][0] + 1
        self._segments = [(start, counts) for start, counts in self._segments if start == 1 or newest - start < 4 * (start & -start)]
        self._segments.append((newest, self._empty()))
        return False

    def _left_behind(self, start: int, counts: Counts) -> bool:
        """Whether the sequence of a segment (started at checkpoint ``start``) at its level leaves
        the reference out on the worse side; a segment of fewer than ``FEWEST_SAMPLES`` samples,
        or without the class watched, is not read."""
        level = 1 - cast(float, self.alpha) / (start * (start + 1.0))
        if isinstance(counts, RegressionMetrics):
            if counts.get_samples() < FEWEST_SAMPLES:
                return False
            found = counts.interval(self.measure, anytime=True, level=level, tuning=self.tuning)
        else:
            if counts.get_total_items() < FEWEST_SAMPLES or (self.label is not None and not any(same_labels((own,), (self.label,)) for own in counts.labels)):
                return False
            found = counts.interval(self.measure, self.average, label=self.label, anytime=True, level=level, tuning=self.tuning)
        return bool(found.high < self.reference if self._worse_is_lower else found.low > self.reference)

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
        segments = {"tuning": self.tuning, "since": self._since, "pending": None if self._pending is None else result_document(self._pending),
                    "segments": [[start, result_document(matrix)] for start, matrix in self._segments]}  # fmt: skip
        return {"reference": self.reference, "measure": self.measure, "label": self.label, "average": self.average, "alpha": self.alpha, "arl": self.arl,
                "samples": self.samples, "alarms": list(self.alarms), "trials": self._trials,
                **(segments if self._by_segments else {"log_r": [None if math.isinf(value) else value for value in self._log_r]})}  # fmt: skip

    @classmethod
    def _read_document(cls, document: dict[str, Any]) -> Monitor:
        try:
            monitor = cls(serialization.number(serialization.field(document, "reference"), "reference"), serialization.field(document, "measure"),
                          label=document.get("label"), average=document.get("average"), alpha=document.get("alpha"), arl=document.get("arl"),
                          tuning=document.get("tuning", DEFAULT_TUNING))  # fmt: skip
        except (InvalidArgumentError, TypeError, ValueError) as error:
            raise serialization.FormatError(f"the settings of the monitor: {error}") from None
        monitor.samples = serialization.integer(document, "samples", high=2**62)
        monitor._trials = serialization.integer(document, "trials", high=monitor.samples)
        alarms = serialization.field(document, "alarms")
        if not isinstance(alarms, list) or any(isinstance(at, bool) or not isinstance(at, int) or not 0 < at <= monitor.samples for at in alarms):
            raise serialization.FormatError(f"field 'alarms' must list sample numbers in 1..{monitor.samples}, got {show(alarms)}")
        monitor.alarms = list(alarms)
        if monitor._by_segments:
            monitor._read_segments(document)
            return monitor
        log_r = serialization.field(document, "log_r")
        if not isinstance(log_r, list) or len(log_r) != len(SHIFTS):
            raise serialization.FormatError(f"field 'log_r' must hold {len(SHIFTS)} numbers or nulls, got {show(log_r)}")
        monitor._log_r = [-math.inf if value is None else serialization.number(value, "log_r") for value in log_r]
        return monitor

    def _read_segments(self, document: dict[str, Any]) -> None:
        """The segments of a document: each (checkpoint, counts), checkpoints rising from 1, and
        the samples kept since the last checkpoint."""
        self._since = serialization.integer(document, "since", high=self._trials)
        segments = serialization.field(document, "segments")
        starts = [row[0] for row in segments if isinstance(row, list) and len(row) == 2] if isinstance(segments, list) else []
        if (not segments or len(starts) != len(segments) or starts[0] != 1 or any(isinstance(at, bool) or not isinstance(at, int) for at in starts)
                or starts != sorted(set(starts))):  # fmt: skip
            raise serialization.FormatError(f"field 'segments' must list [checkpoint, counts] rows from checkpoint 1 up, got {show(segments)}")
        kind = type(self._empty())
        self._segments = [(start, _read_counts(counts, "segments", kind)) for start, counts in segments]
        pending = document.get("pending")
        self._pending = None if pending is None else _read_counts(pending, "pending", kind)


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
        raise InvalidArgumentError(f"give 'label' (one class) or 'average' (over the classes) for a per-class measure, and neither for "
                                   f"{', '.join(WHOLE_MEASURES)} or a regressor's; got measure {resolved.name!r}, label {show(label)}, average {show(average)}")  # fmt: skip
    return resolved, regression, whole


def _read_counts(document: object, name: str, kind: type[Counts]) -> Counts:
    """The counts of a segment from a monitor's document, of the monitor's kind."""
    found = read_result(document, name, {})
    if not isinstance(found, kind):
        raise serialization.FormatError(f"field {name!r} must hold the counts of a {kind.__name__}, got a {type(found).__name__}")
    return found
