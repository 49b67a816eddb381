"""The counted state of a threshold curve: the counts at each score (or threshold), merged,
taken away, scaled and written as JSON (the counted-state protocol of ``evalkit._results.counted``).

An exact curve is its per-class counts at each distinct score (``score_counts``); a binned one
its cumulative counts at fixed thresholds. Either is a sum over samples, so both subtract a
part that was added and scale by a factor, exactly as the samples' weights would.

Examples:
    >>> from evalkit import ThresholdCurve
    >>> first = ThresholdCurve.from_scores([0, 1, 1], [0.2, 0.9, 0.4])
    >>> second = ThresholdCurve.from_scores([0, 1], [0.4, 0.7])
    >>> ((first + second) - second) == first, (first + second).scaled(0.5).n_samples
    (True, 2.5)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, cast

import attrs
import numpy as np

from evalkit._engine import serialization
from evalkit._engine._exact import difference
from evalkit._engine._labels import same_labels
from evalkit._engine._validation import show
from evalkit._results.counted import ALL_OPERATIONS, CountedState
from evalkit._scores.curve_points import CurveFields, common_scores, exact_scores
from evalkit.exceptions import InvalidCountsError, LabelMismatchError
from evalkit.measures._metrics_class import MetricsClass, merged_metrics_class
from evalkit.measures._plugins import metrics_class_field, read_metrics_class

if TYPE_CHECKING:
    from typing_extensions import Self  # typing.Self of Python 3.11, for type checkers only

__all__ = ["CurveColumns", "CurveState", "read_score_columns", "score_columns_payload"]


def score_columns_payload(parts: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> list[dict[str, list]]:
    """Per column its distinct scores with the weight of its positives and negatives at each."""
    return [{"scores": scores.tolist(), "positives": positives.tolist(), "negatives": negatives.tolist()} for scores, positives, negatives in parts]


def read_score_columns(columns: Any, count: int, *, probabilities: bool) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The columns ``score_columns_payload`` wrote: ``count`` of them, scores increasing (and in
    [0, 1] for ``probabilities``), counts non-negative.

    Raises:
        FormatError: anything else.
    """
    if not isinstance(columns, list) or len(columns) != count:
        raise serialization.FormatError(f"field 'columns' must list one column per label ({count})")
    parts = []
    for k, column in enumerate(columns):
        if not isinstance(column, dict):
            raise serialization.FormatError(f"field 'columns[{k}]' must be an object, got {show(column)}")
        written = serialization.field(column, "scores")
        scores = serialization.array(written, f"columns[{k}].scores", length=None, integral=False, low=-np.inf)
        if scores.size and all(type(value) is int for value in written) and float(np.abs(scores).max()) > 2.0**53:  # integers float64 would round: as written
            whole = np.array(written)
            scores = exact_scores(whole) if whole.dtype.kind in "iu" else scores
        counts = [serialization.array(serialization.field(column, name), f"columns[{k}].{name}", length=len(scores), integral=None)
                  for name in ("positives", "negatives")]  # fmt: skip
        if np.any(scores[1:] <= scores[:-1]) or (probabilities and scores.size and (scores.max() > 1 or scores.min() < 0)):
            raise serialization.FormatError(f"field 'columns[{k}].scores' must be increasing {'probabilities in [0, 1]' if probabilities else 'scores'}")
        parts.append((scores, counts[0], counts[1]))
    return parts


class CurveColumns:
    """An exact curve's counts (per column its distinct scores, with the weight of its positives
    and of its negatives at each), a field of sums of a kind that keeps an exact curve (an exact
    ``Calibration``): merged, taken away and scaled as the curve is, written as its columns
    (``score_columns_payload``) with the negative class. A part that holds no score adds nothing,
    whatever its negative class.

    Examples:
        >>> from evalkit import ThresholdCurve
        >>> columns = CurveColumns(ThresholdCurve.from_scores([0, 1], [0.2, 0.9]))
        >>> columns.plus(columns).minus(columns, "scores").equals(columns)
        True
    """

    __slots__ = ("curve",)

    def __init__(self, curve: object) -> None:
        self.curve = cast(Any, curve)  # (a ThresholdCurve, which mixes CurveState in)

    def _parts(self) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        return [self.curve.score_counts(label) for label in self.curve.labels]

    def _holds_nothing(self) -> bool:
        return not self.curve.n_points  # (no distinct score in any column)

    def plus(self, other: CurveColumns) -> CurveColumns:
        if other._holds_nothing() or self._holds_nothing():
            return other if self._holds_nothing() else self
        return CurveColumns(self.curve.merge(other.curve))

    def minus(self, other: CurveColumns, what: str) -> CurveColumns:
        return CurveColumns(self.curve - other.curve)

    def scaled(self, factor: float) -> CurveColumns:
        return CurveColumns(self.curve.scaled(factor))

    def equals(self, other: CurveColumns) -> bool:
        return all(all(np.array_equal(a, b) for a, b in zip(mine, theirs)) for mine, theirs in zip(self._parts(), other._parts()))

    def document(self) -> dict[str, object]:
        return {"negative_label": serialization.json_safe(self.curve.negative_label), "columns": score_columns_payload(self._parts())}

    def read(self, document: dict[str, object], codes_below: int) -> CurveColumns:
        """Columns of probabilities over this curve's labels from a document, with the negative
        class this curve has (a top-label calibration's ``False``) or else the document's.

        Raises:
            FormatError: not one column of increasing probabilities per label.
        """
        parts = read_score_columns(serialization.field(document, "columns"), len(self.curve.labels), probabilities=True)
        negative = self.curve.negative_label
        if negative is None:
            given = document.get("negative_label")
            negative = None if given is None else serialization.scalar_label(given, "negative_label")
        return CurveColumns(type(self.curve).from_score_counts(parts, self.curve.labels, negative_label=negative))


class CurveState(CountedState, CurveFields):
    """What makes a ``ThresholdCurve`` a counted state: ``-``, ``scaled``, ``empty``, ``copy``
    and JSON (``merge`` is the curve's own)."""

    DOCUMENT = "ThresholdCurve"

    __slots__ = ()

    if TYPE_CHECKING:  # what ThresholdCurve, which mixes this in, defines

        def __init__(self, *args: Any, **kwargs: Any) -> None: ...

        @classmethod
        def from_score_counts(cls, parts: Sequence[tuple[Any, Any, Any]], labels: Sequence[Any], *, negative_label: Any = None,
                              metrics_class: MetricsClass | None = None) -> Self: ...  # fmt: skip

    OPERATIONS: ClassVar[frozenset[str]] = ALL_OPERATIONS - {"update", "revert", "count"}
    REFUSED: ClassVar[Mapping[str, str]] = {"update": "a ThresholdCurve is immutable: merge another batch's (or count a stream with CurveCounts)", "revert": "a ThresholdCurve is immutable: merge another batch's (or count a stream with CurveCounts)",
                                          "count": "a ThresholdCurve is built whole: a window counts Stream(ThresholdCurve.from_scores) or CurveCounts"}

    def _check_same_points(self, other: CurveFields, operation: str) -> None:
        if not same_labels(self.labels, other.labels):
            raise LabelMismatchError(f"cannot {operation} curves of different classes: {show(list(self.labels))} and {show(list(other.labels))}")
        if self.binned != other.binned or (self.binned and not np.array_equal(self._thresholds, other._thresholds)):
            raise LabelMismatchError(f"cannot {operation} a binned curve and an exact one, or binned curves with different thresholds")

    def _subtract(self, other: Any) -> Any:
        """This curve without ``other``'s counts, a batch merged into it: every score of
        ``other`` must be one of this curve's, with no more weight there."""
        self._check_same_points(other, "subtract")
        metrics_class = merged_metrics_class(self.metrics_class, other.metrics_class)
        if self.binned:
            return attrs.evolve(cast(Any, self), tp=difference(self._tp, other._tp, "counts"), fp=difference(self._fp, other._fp, "counts"),
                                positives=difference(self.positives, other.positives, "positives"),
                                negatives=difference(self.negatives, other.negatives, "negatives"), metrics_class=metrics_class)  # fmt: skip
        parts = []
        for label in self.labels:
            scores, positives, negatives = self.score_counts(label)
            their_scores, their_positives, their_negatives = other.score_counts(label)
            common = common_scores([scores, their_scores])  # (int64 scores beside whole float ones: compared as integers)
            mine, their_scores = scores.astype(common, copy=False), their_scores.astype(common, copy=False)
            spots = np.searchsorted(mine, their_scores)
            if np.any(spots >= len(mine)) or np.any(mine[np.minimum(spots, len(mine) - 1)] != their_scores):
                raise InvalidCountsError(f"cannot take away scores of class {label!r} that this curve never had")
            positives, negatives = positives.astype(np.result_type(positives, their_positives)), negatives.astype(np.result_type(negatives, their_negatives))
            positives[spots] = difference(positives[spots], their_positives, "positives")
            negatives[spots] = difference(negatives[spots], their_negatives, "negatives")
            kept = (positives > 0) | (negatives > 0)
            parts.append((scores[kept], positives[kept], negatives[kept]))
        return type(self).from_score_counts(parts, self.labels, negative_label=self.negative_label, metrics_class=metrics_class)

    def _scaled(self, factor: float) -> Any:
        return attrs.evolve(cast(Any, self), tp=self._tp * factor, fp=self._fp * factor, positives=self.positives * factor, negatives=self.negatives * factor)

    def empty(self) -> Any:
        """The same classes (and thresholds of a binned curve), no score counted."""
        if self.binned:
            zeros = np.zeros_like(self._tp)
            return attrs.evolve(cast(Any, self), tp=zeros, fp=zeros, positives=np.zeros_like(self.positives), negatives=np.zeros_like(self.negatives))
        nothing = np.zeros(0, dtype=np.float64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        return type(self).from_score_counts([nothing] * len(self.labels), self.labels, negative_label=self.negative_label, metrics_class=self.metrics_class)

    def _document(self) -> dict[str, Any]:
        """The curve as an evalkit JSON document: per class its distinct scores with the weight
        of its positives and negatives at each, or, binned, the thresholds and the counts at them."""
        payload: dict[str, Any] = {"labels": serialization.as_list(self.labels), "negative_label": serialization.json_safe(self.negative_label),
                                   "binned": self.binned, **metrics_class_field(self.metrics_class)}  # fmt: skip
        if self.binned:
            payload["thresholds"] = serialization.json_safe(self._thresholds.tolist())  # the first may be infinite
            payload["offsets"] = self._offsets.tolist()
            payload.update(tp=self._tp.tolist(), fp=self._fp.tolist(), positives=self.positives.tolist(), negatives=self.negatives.tolist())
        else:
            payload["columns"] = score_columns_payload([self.score_counts(label) for label in self.labels])
        return payload

    @classmethod
    def _read_document(cls, document: dict[str, Any], *, metrics_class: MetricsClass | None = None) -> Self:
        labels = serialization.label_list(document, "labels")
        negative = document.get("negative_label")
        negative = None if negative is None else serialization.scalar_label(negative, "negative_label")
        chosen = read_metrics_class(document, metrics_class)
        if serialization.field(document, "binned") is not True:
            parts = read_score_columns(serialization.field(document, "columns"), len(labels), probabilities=False)
            return cls.from_score_counts(parts, labels, negative_label=negative, metrics_class=chosen)
        offsets = serialization.array(serialization.field(document, "offsets"), "offsets", length=len(labels) + 1)
        size = int(offsets[-1]) if offsets.size else 0
        if offsets[0] != 0 or np.any(np.diff(offsets) < 0):
            raise serialization.FormatError(f"field 'offsets' must start at 0 and never fall, got {show(offsets.tolist())}")
        thresholds = serialization.field(document, "thresholds")
        if not isinstance(thresholds, list) or len(thresholds) != size:
            raise serialization.FormatError(f"field 'thresholds' must list {size} thresholds, got {show(thresholds)}")
        if any(value not in ("Infinity", "-Infinity") and (isinstance(value, bool) or not isinstance(value, (int, float))) for value in thresholds):
            raise serialization.FormatError(f"field 'thresholds' must hold numbers (or infinities), got {show(thresholds)}")
        thresholds = np.array(serialization.restore_numbers(thresholds), dtype=np.float64)
        tp, fp = (serialization.array(serialization.field(document, name), name, length=size, integral=None) for name in ("tp", "fp"))
        positives, negatives = (serialization.array(serialization.field(document, name), name, length=len(labels), integral=None)
                                for name in ("positives", "negatives"))  # fmt: skip
        return cls(labels, thresholds, tp, fp, offsets, positives, negatives, True, negative, chosen)
