"""Confidence sequences of segments: how a ``Monitor`` watches a measure that is no proportion
(an F1, a macro average, kappa, MCC, a regressor's R² or errors).

At checkpoints, every ``every`` samples of the stream (wherever its batches end), a segment
starts: it counts the samples after it. The segment started at checkpoint ``j`` is read with
the asymptotic confidence sequence (Waudby-Smith et al., 2024) at level
``1 - alpha / (j (j + 1))``; the monitor fires when one leaves the reference out on the worse
side. The levels' misses add up to at most ``alpha`` (a union bound), so the chance of any false
alarm over the whole stream stays at most ``alpha``, asymptotically: a segment is read only once
it holds ``FEWEST_SAMPLES`` samples and, for a classifier, ``FEWEST_PER_CLASS`` samples of every
class it holds as actual or predicted (of the class watched, with ``label``), where the delta
method holds. (A class the model predicts and the stream never shows keeps segments unread.)
Segments are thinned as they age (the one started at ``j`` is kept while fewer than
``4 · 2^v`` checkpoints follow it, ``2^v`` the largest power of two dividing ``j``; the first is
kept always): about ``2 log2`` of the checkpoints are read at each, and a change is found by a
segment that starts within the first half of the time since it.

Examples:
    >>> import numpy as np
    >>> watch = Segments("f1_score", "macro", None, 0.9, alpha=0.01)
    >>> rng = np.random.default_rng(0)
    >>> actual = rng.integers(0, 3, 6000)
    >>> right = rng.random(6000) < np.where(np.arange(6000) < 3000, 0.93, 0.75)
    >>> watch.apply(watch.pieces(actual, np.where(right, actual, (actual + 1) % 3)))[:4]   # where it fired in the batch: checkpoints
    [3400, 3700, 4000, 4200]
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from typing import Any, cast

import numpy as np

from evalkit._engine import serialization
from evalkit._engine._labels import check_same_family, position_of
from evalkit._engine._types import LabelsLike
from evalkit._engine._validation import show
from evalkit._engine.counting import encode
from evalkit._engine.moments import target_pair
from evalkit._java.regression_metrics import RegressionMetrics
from evalkit._results._sequences import DEFAULT_TUNING, FEWEST_SAMPLES
from evalkit._results.confusion_matrix import ConfusionMatrix
from evalkit._results.counted import read_result, result_document
from evalkit.exceptions import EmptyInputError, InputShapeError, InvalidArgumentError

__all__ = ["CHECKPOINT", "FEWEST_PER_CLASS", "Segments", "counted_piece", "watched_columns"]

Counts = ConfusionMatrix | RegressionMetrics
"""What a segment counts: a classifier's matrix, or a regressor's sums (with their spread)."""

CHECKPOINT = 100
"""Samples between two checkpoints unless ``every`` says otherwise."""

FEWEST_PER_CLASS = 20
"""Samples of each class (each of its classes, or the one watched) a classifier's segment holds
before it is read: a rare class with a handful of samples in a young segment makes the
delta method's spread far too small (a macro F1 with a class of 2% read from 100 samples on
fired falsely in most streams)."""


class Segments:
    """The segments of a monitor (see the module): ``pieces`` checks a batch and cuts it at the
    checkpoints it reaches, nothing kept; ``apply`` counts the pieces and reads the segments at
    each checkpoint, and says where it fired.

    Args:
        measure: the measure's name (a classifier's, or a regressor's: ``regression``).
        average: the average of a per-class measure, or None.
        label: the class of a per-class measure, or None.
        reference: the level the measure keeps.
        alpha: the chance of any false alarm over the whole stream.
        worse_is_lower: whether a fall (not a rise) is what fires.
        tuning: the samples where each segment's sequence is narrowest.
        every: the samples between two checkpoints.
        regression: whether it watches a regressor.
    """

    def __init__(self, measure: str, average: str | None, label: Hashable | None, reference: float, *, alpha: float, worse_is_lower: bool = True,
                 tuning: float = DEFAULT_TUNING, every: int = CHECKPOINT, regression: bool = False) -> None:  # fmt: skip
        if isinstance(every, bool) or not isinstance(every, (int, np.integer)) or every < 1:
            raise InvalidArgumentError(f"'every' must be a whole number of samples >= 1, got {show(every)}")
        self.measure, self.average, self.label, self.reference = measure, average, label, reference
        self.alpha, self.worse_is_lower, self.tuning, self.every, self.regression = alpha, worse_is_lower, tuning, int(every), regression
        self.restart()
        self.pending: Counts | None = None  # the samples since the last checkpoint
        self.since = 0  # their number

    def new_counts(self) -> Counts:
        """The counts of a segment before its first sample."""
        return RegressionMetrics(keep_spread=True) if self.regression else ConfusionMatrix()

    def restart(self) -> None:
        """The segments after an alarm (or at the start): one, from checkpoint 1."""
        self.segments: list[tuple[int, Counts]] = [(1, self.new_counts())]

    @property
    def trials(self) -> float:
        """The samples the measure reads since the last alarm: every sample, or with ``label``
        those of its class (0 while the class has not come)."""
        counts = self.segments[0][1] if self.pending is None else self.segments[0][1].merge(self.pending, grow=True)  # type: ignore[arg-type]
        if isinstance(counts, RegressionMetrics):
            return counts.get_samples()
        if self.label is None:
            return counts.get_total_items()
        code = position_of(self.label, {label: k for k, label in enumerate(counts.labels)}, counts.labels)
        return 0 if code is None else counts.to_array()[code].sum().item()

    def pieces(self, y_true: LabelsLike, y_pred: LabelsLike) -> list[tuple[Counts, int]]:
        """A batch checked and counted, cut where it reaches a checkpoint: its pieces' counts and
        sizes, in order; nothing kept yet.

        Raises:
            InputShapeError: a regressor's batch of more than one output.
            MixedLabelTypesError: labels of another kind than those before, or than ``label``.
        """
        seen = self.segments[0][1] if self.pending is None else self.pending
        try:
            columns = watched_columns(y_true, y_pred, seen, self.label, "a monitor")
        except EmptyInputError:
            return []
        n = len(columns[0])
        cuts = [0, *range(self.every - self.since, n, self.every), n]
        return [(counted_piece(columns, start, end), end - start) for start, end in itertools.pairwise(cuts) if end > start]

    def apply(self, pieces: list[tuple[Counts, int]]) -> list[int]:
        """Count the pieces of a batch (``pieces``), reading the segments at each checkpoint
        reached: the samples of the batch (counted from 1) where it fired."""
        fired, seen = [], 0
        for counts, size in pieces:
            self.pending = counts if self.pending is None else self.pending.merge(counts, grow=True)  # type: ignore[arg-type]
            self.since, seen = self.since + size, seen + size
            if self.since >= self.every and self._checkpoint():
                fired.append(seen)
        return fired

    def _checkpoint(self) -> bool:
        """Count what was kept into every segment and read them (nothing changed if a read
        fails), then start the next segment, or start again after an alarm; True when it fired."""
        pending = cast(Counts, self.pending)
        grown = [(start, counts.merge(pending, grow=True)) for start, counts in self.segments]  # type: ignore[arg-type]
        left_behind = any(self._left_behind(start, counts) for start, counts in grown)
        self.pending, self.since = None, 0
        if left_behind:
            self.restart()
            return True
        newest = grown[-1][0] + 1
        self.segments = [(start, counts) for start, counts in grown if start == 1 or newest - start < 4 * (start & -start)]
        self.segments.append((newest, self.new_counts()))
        return False

    def _left_behind(self, start: int, counts: Counts) -> bool:
        """Whether the sequence of a segment (started at checkpoint ``start``) at its level leaves
        the reference out on the worse side; a segment not yet ready (see the module), or whose
        level rounds to 1 (after some 10**7 checkpoints), is not read."""
        level = 1 - self.alpha / (start * (start + 1.0))
        if level >= 1 or not self._ready(counts):
            return False
        options = {} if self.label is None else {"label": self.label}
        found = counts.interval(self.measure, self.average, anytime=True, level=level, tuning=self.tuning, **options)  # type: ignore[arg-type]
        return bool(found.high < self.reference if self.worse_is_lower else found.low > self.reference)

    def _ready(self, counts: Counts) -> bool:
        """Whether a segment holds enough to be read: ``FEWEST_SAMPLES`` samples, and, for a
        classifier, ``FEWEST_PER_CLASS`` samples of each class it holds, as actual or predicted
        (of the class watched, with ``label``)."""
        if isinstance(counts, RegressionMetrics):
            return counts.get_samples() >= FEWEST_SAMPLES
        per_class = dict(zip(counts.labels, counts.to_array().sum(axis=1).tolist()))  # (one kind of labels: checked with each batch)
        return counts.get_total_items() >= FEWEST_SAMPLES and all(per_class.get(label, 0) >= FEWEST_PER_CLASS for label in (counts.labels if self.label is None else (self.label,)))

    # ----------------------------------------------------------------------------------------
    # JSON

    def document(self) -> dict[str, Any]:
        return {"tuning": self.tuning, "every": self.every, "since": self.since, "pending": None if self.pending is None else result_document(self.pending),
                "segments": [[start, result_document(counts)] for start, counts in self.segments]}  # fmt: skip

    def read(self, document: dict[str, Any], samples: int) -> None:
        """The segments of a document: each (checkpoint, counts), checkpoints rising from 1, and
        the samples kept since the last checkpoint (at most ``samples``).

        Raises:
            FormatError: anything else.
        """
        self.since = serialization.integer(document, "since", high=min(samples, self.every - 1))
        segments = serialization.field(document, "segments")
        starts = [row[0] for row in segments if isinstance(row, list) and len(row) == 2] if isinstance(segments, list) else []
        if (not segments or len(starts) != len(segments) or starts[0] != 1 or any(isinstance(at, bool) or not isinstance(at, int) for at in starts)
                or starts != sorted(set(starts))):  # fmt: skip
            raise serialization.FormatError(f"field 'segments' must list [checkpoint, counts] rows from checkpoint 1 up, got {show(segments)}")
        kind = type(self.new_counts())
        self.segments = [(start, _read_counts(counts, "segments", kind)) for start, counts in segments]
        pending = document.get("pending")
        self.pending = None if pending is None else _read_counts(pending, "pending", kind)


def watched_columns(y_true: LabelsLike, y_pred: LabelsLike, seen: Counts, label: Hashable | None, what: str) -> tuple[Any, ...]:
    """A batch for what watches a stream counted as ``seen`` (``what``: a monitor, a test), checked
    before anything is kept, as arrays to cut: a regressor's targets (one output), or a
    classifier's codes and labels (of the kind of those ``seen`` and of ``label``).

    Raises:
        EmptyInputError: no sample.
        InputShapeError: a regressor's batch of more than one output.
        MixedLabelTypesError: labels of another kind than those before, or than ``label``.
    """
    if isinstance(seen, RegressionMetrics):
        y, p = target_pair(y_true, y_pred)
        if y.shape[1] != 1:
            raise InputShapeError(f"{what} watches one output, the batch has {y.shape[1]}")
        return y, p
    actual, predicted, labels, _ = encode(y_true, y_pred)
    check_same_family(labels, (*seen.labels[:1], *(() if label is None else (label,))), ("the batch's labels", "the labels before and 'label'"))
    return actual, predicted, labels


def counted_piece(columns: tuple[Any, ...], start: int, end: int) -> Counts:
    """The counts of the samples ``start:end`` of a batch's ``watched_columns``: a regressor's
    sums with their spread, or the matrix of the classes those samples hold (however the batches
    were cut, a segment then holds the classes of its own samples)."""
    if len(columns) == 2:
        return RegressionMetrics(keep_spread=True).counted(columns[0][start:end], columns[1][start:end])
    actual, predicted, labels = columns[0][start:end], columns[1][start:end], columns[2]
    present = np.union1d(actual, predicted)
    m = len(labels)
    table = np.bincount(actual * m + predicted, minlength=m * m).reshape(m, m)[np.ix_(present, present)]
    return ConfusionMatrix.from_array(table, [labels[k] for k in present.tolist()])


def _read_counts(document: object, name: str, kind: type[Counts]) -> Counts:
    """The counts of a segment from a monitor's document, of the monitor's kind."""
    found = read_result(document, name, {})
    if not isinstance(found, kind):
        raise serialization.FormatError(f"field {name!r} must hold the counts of a {kind.__name__}, got a {type(found).__name__}")
    return found
