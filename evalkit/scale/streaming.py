"""Streaming counts of multi-label data: batch by batch, labels growing, memory bounded by counts.

Every evalkit count is a sum over samples. ``LabelSetCounts`` keeps, for a stream of
label-set batches, the per-label sums ``σm`` and the distinct per-sample rows
``(|Y∩Z|, |Y|, |Z|)`` with how often each occurred, so its memory grows with the number of
labels and of distinct rows, never with the number of samples. A label first seen late is
added, not lost; ``LabelSetCounts.to_evaluation`` then orders the labels as a one-shot
``Evaluation.from_label_sets`` would (sorted, or the
order given up front), and gives the same averages.

``CurveCounts`` does the same for scores: threshold curves of batch after batch, in memory
bounded by the thresholds when they are given; ``CalibrationCounts`` the calibration of
probabilities, in memory bounded by the bins when they are given.

(Single-label streams use ``ConfusionMatrix.update``
with ``grow=True``; fixed-label batches of any kind merge with ``Evaluation + Evaluation``.)

Examples:
    >>> counts = LabelSetCounts()
    >>> counts.update([{"a"}, {"a", "b"}], [{"a"}, {"b"}])
    >>> counts.update([{"c"}], [{"a", "c"}])  # "c" first seen in the second batch
    >>> ev = counts.to_evaluation()
    >>> ev.labels, ev.n_samples, round(ev.average("f1_score", "micro"), 4)
    (('a', 'b', 'c'), 3, 0.75)
"""

from __future__ import annotations

import functools
import json
import math
import threading
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, cast

import numpy as np
from numpy.typing import ArrayLike

from evalkit.engine import moved_names, serialization
from evalkit.engine._exact import (
    difference,
    float_units,
    limbs_to_ints,
    weighted_bincount,
    weighted_sum,
)
from evalkit.engine._labels import check_label_list, check_same_family, kind, position_of, same_labels, sorted_labels
from evalkit.engine._types import LabelsLike, ScoresLike
from evalkit.engine._validation import as_array, check_sample_weight, same_value, show
from evalkit.engine.cells import Cells
from evalkit.engine.counting import as_label_set_list, encode_label_sets
from evalkit.exceptions import (
    EmptyInputError,
    EvalkitError,
    InvalidCountsError,
    InvalidTypeError,
    LabelMismatchError,
    UnknownLabelError,
    UnsupportedSettingError,
)
from evalkit.measures.averaging import Averaged, UndefinedPolicy
from evalkit.measures.metrics_class import MetricsClass, check_metrics_class, merged_metrics_class, metrics_class_for
from evalkit.measures.plugins import metrics_class_field, read_metrics_class
from evalkit.measures.registry import Measure, MeasureLike, resolve_measure
from evalkit.results.counted import ALL_OPERATIONS, FEW_SAMPLES, CountedState
from evalkit.results.evaluation import Evaluation
from evalkit.results.tally import TALLIED, SetTally, tallied
from evalkit.scores.calibration import SETTINGS as CALIBRATION_SETTINGS
from evalkit.scores.calibration import Calibration
from evalkit.scores.calibration_sums import _Binner, _Sums
from evalkit.scores.curves import ThresholdCurve, score_columns

if TYPE_CHECKING:
    from typing_extensions import Self  # typing.Self of Python 3.11, for type checkers only

    from evalkit.results._closed_form import Interval

__all__ = ["CalibrationCounts", "CurveCounts", "LabelSetCounts"]


Scored = TypeVar("Scored", ThresholdCurve, Calibration)
"""The result a stream of scores counts: a curve or a calibration."""


class _Locked:
    """A lock that writers hold while they change the counts and readers while they read, so
    that threads may update and read one accumulator together; pickled without it."""

    _lock: threading.RLock

    def __getstate__(self) -> dict[str, Any]:
        with self._lock:
            return {name: value for name, value in vars(self).items() if name != "_lock"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        vars(self).update(state)
        self._lock = threading.RLock()


def _amount(value: object, name: str) -> float:
    """A count read from JSON: a non-negative int (exact) or float."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0 or value == float("inf"):
        raise serialization.FormatError(f"field {name!r} must hold non-negative finite counts, got {show(value)}")
    return value  # type: ignore[return-value]  # an int or a float, checked above


_SIMPLE_SETS = (list, tuple, set, frozenset)
"""The collections a window's one sample of label sets is counted from directly."""

_SetEvent = tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], tuple[int, int, int], "tuple[frozenset, frozenset] | None"]
"""One sample of label sets (``LabelSetCounts._event_cell``): label codes (in both, in the
actual, in the predicted set), its kind ``(|Y∩Z|, |Y|, |Z|)`` and its pair of sets."""


_Key = TypeVar("_Key")


def _add_amount(counts: dict[_Key, Any], key: _Key, amount: int) -> None:
    """``counts[key] += amount``, the key dropped when none of it is left."""
    left = counts.get(key, 0) + amount
    if left:
        counts[key] = left
    else:
        counts.pop(key, None)


_MOST_EVENTS = 4096
"""Distinct events a stream's counts remember what they add (pairs of label sets, scores of a
binned calibration), at the most."""


def _event_memo(fixed: Sequence[Hashable] | None) -> dict[tuple[frozenset, frozenset], _SetEvent] | None:
    """A memo of the events of fixed text labels (a pair of sets equal to one seen before is that
    event: a text equals only a text), or None: numbers and booleans are equal across types
    (``True == 1``) that must stay apart, so each of their events is looked up label by label."""
    return {} if fixed and kind(fixed[0]) == "str" else None


class LabelSetCounts(CountedState, _Locked):
    """Multi-label counts updated batch by batch (mutable, like ConfusionMatrix).

    Keeps, for every label, the (weighted) numbers of samples holding it in both, in the
    actual and in the predicted set, and, for every distinct kind of sample ``(|Y∩Z|, |Y|, |Z|)``,
    how much of it there is: a batch costs time in proportion to its own samples and labels,
    never to every label seen, and memory is bounded by the labels and the kinds of sample.

    Args:
        labels: fix the labels and their order up front (a label outside them is an error);
            by default labels grow as they appear and are sorted in ``to_evaluation``.
        metrics_class: the metrics class of the evaluation (see ``Evaluation``).
        keep_pairs: also keep every distinct (actual set, predicted set) pair and how much of
            it there is (memory grows with the distinct pairs): what ``interval`` of a macro or
            weighted average resamples.
    """

    DOCUMENT = "LabelSetCounts"
    WHOLE_COUNTS = True

    def __init__(self, labels: Sequence[Hashable] | None = None, *, metrics_class: MetricsClass | None = None,
                 keep_pairs: bool = False) -> None:  # fmt: skip
        self._pairs: Counter[tuple[frozenset, frozenset]] | None = Counter() if keep_pairs else None  # (actual set, predicted set) -> how much
        self._fixed = None if labels is None else check_label_list(labels)
        self._metrics_class = check_metrics_class(metrics_class)
        self._labels: list = list(self._fixed or ())
        self._index: dict = {label: code for code, label in enumerate(self._labels)}
        self._table = np.zeros((3, max(len(self._labels), 8)), dtype=np.int64)  # per label: in both, in the actual, in the predicted set (see _sums)
        self._kinds: dict[tuple[int, int, int], float] = {}  # (|Y∩Z|, |Y|, |Z|) -> how much of it
        self._total: float = 0
        self._tally = None  # the running sums of a stream of single samples (fixed labels), made at its first read
        self._events = _event_memo(self._fixed)
        self._lock = threading.RLock()

    _tally: SetTally | None = None  # (the default of counts pickled before they kept one)
    _behind = False  # whether the stream's tally holds single samples the table does not yet

    @property
    def _sums(self) -> np.ndarray:
        """Per label, the samples holding it in both, in the actual and in the predicted set (a
        buffer: labels to come have room at its end). While a stream's tally is kept, single
        samples change the tally alone (Python integers: no numpy call for each event), and the
        table takes the tally's sums when it is next read."""
        if self._behind:
            tally = cast(SetTally, self._tally)
            table, m = self._table, len(tally.row)
            table[0, :m], table[1, :m], table[2, :m] = tally.diag, tally.row, tally.col
            self._behind = False
        return self._table

    @_sums.setter
    def _sums(self, table: np.ndarray) -> None:
        self._table, self._behind = table, False

    def __getstate__(self) -> dict[str, Any]:
        return {name: value for name, value in super().__getstate__().items() if name != "_events"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        if "_sums" in state:  # counts pickled before the table was named so
            state = {("_table" if name == "_sums" else name): value for name, value in state.items()}
        super().__setstate__(state)
        self._events = _event_memo(self._fixed)

    @property
    def labels(self) -> tuple:
        """The labels seen (or fixed) so far, in the order they were added."""
        with self._lock:
            return tuple(self._labels)

    @property
    def n_samples(self) -> float:
        """The number of samples counted (the sum of their weights, when weighted)."""
        with self._lock:
            return self._total

    def _code(self, label: Hashable) -> int | None:
        """The code of a label seen before (``True`` is not the label ``1``), or None."""
        return position_of(label, self._index, self._labels)

    def _event_cell(self, actual: object, predicted: object) -> _SetEvent | None:
        """One sample of fixed labels as what it adds (the codes of the labels in both sets, in
        the actual and in the predicted set, its kind of sample, its pair of sets): a window
        finds it once and counts it in and out with ``_count_event``; None for anything else
        (labels that grow, a label outside them, a label twice in a set): ``update`` counts it."""
        if self._fixed is None or type(actual) not in _SIMPLE_SETS or type(predicted) not in _SIMPLE_SETS:
            return None
        memo, key = self._events, None
        if memo is not None:  # text labels: a pair of sets seen before is the same event
            try:
                key = (frozenset(cast(Iterable[Hashable], actual)), frozenset(cast(Iterable[Hashable], predicted)))
            except TypeError:  # an unhashable label: update names it
                return None
            event = memo.get(key)
            if event is not None:
                return event
        index, known = self._index, self._labels
        codes: list[set[int]] = []
        for labels in (actual, predicted):
            found = {position_of(label, index, known) for label in cast(Iterable[Hashable], labels)}
            if None in found or len(found) != len(cast(Any, labels)):
                return None
            codes.append(cast("set[int]", found))
        truth, guess = codes
        both = truth & guess
        pair = None if self._pairs is None else key or (frozenset(cast(Iterable[Hashable], actual)), frozenset(cast(Iterable[Hashable], predicted)))
        event = (tuple(both), tuple(truth), tuple(guess)), (len(both), len(truth), len(guess)), pair
        if memo is not None and key is not None:
            if len(memo) >= _MOST_EVENTS:
                memo.clear()
            memo[key] = event
        return event

    def _count_event(self, event: _SetEvent, amount: float, leaving: _SetEvent | None = None) -> bool:
        """Add ``amount`` (1, or -1 for a sample counted before) of one sample (``_event_cell``),
        and take the sample ``leaving`` away (a full window's oldest); False, and nothing
        changed, for an amount that is not a whole one."""
        if type(amount) is not int:
            return False
        lock = self._lock
        lock.acquire()  # (not `with`: half the cost, on every event of a stream)
        try:
            self._count_one(event, amount)
            if leaving is not None:
                self._count_one(leaving, -1)
        finally:
            lock.release()
        return True

    def _count_one(self, event: _SetEvent, amount: int) -> None:
        """``_count_event`` of one sample (the caller holds the lock): a kind or pair that none
        is left of is dropped, as a part taken away drops it."""
        rows, kind, pair = event
        tally = self._tally
        if tally is not None:  # the table takes the tally's sums when next read (_sums)
            tally.change(*rows, amount)
            self._behind = True
        else:
            sums = self._sums
            for row, codes in enumerate(rows):
                for code in codes:
                    sums[row, code] += amount
        _add_amount(self._kinds, kind, amount)
        if self._pairs is not None and pair is not None:
            _add_amount(self._pairs, pair, amount)
        self._total = self._total + amount

    def update(self, y_true: LabelsLike, y_pred: LabelsLike, *, sample_weight: ArrayLike | None = None) -> None:
        """Count a batch of label sets (one collection per sample each).

        Raises:
            UnknownLabelError: with fixed labels, a label outside them; and the errors of
                ``Evaluation.from_label_sets``.
        """
        y_true, y_pred = as_label_set_list(y_true, "y_true"), as_label_set_list(y_pred, "y_pred")
        if not y_true and not y_pred:
            return  # an empty batch counts nothing
        actual, predicted, found, n = encode_label_sets(y_true, y_pred)  # the batch's own labels
        weight = check_sample_weight(sample_weight, n)
        m = len(found)
        both = np.intersect1d(actual, predicted, assume_unique=True)
        per_label = [weighted_bincount(keys % max(m, 1), None if weight is None else weight[keys // max(m, 1)], m) for keys in (both, actual, predicted)]
        per_sample = [np.bincount(keys // max(m, 1), minlength=n) for keys in (both, actual, predicted)]
        rows, inverse = np.unique(np.stack(per_sample, axis=1), axis=0, return_inverse=True)
        amounts = weighted_bincount(inverse.ravel(), weight, len(rows))
        pairs: Counter[tuple[frozenset, frozenset]] = Counter()
        if self._pairs is not None:  # the samples' own pairs of sets (asked for with keep_pairs)
            sets = zip(map(frozenset, y_true), map(frozenset, y_pred))
            if weight is None:
                pairs.update(sets)
            else:
                for pair, amount in zip(sets, weight.tolist()):
                    pairs[pair] += amount
        with self._lock:  # counted outside, added inside: no update is lost
            self._add(found, np.stack(per_label), zip(map(tuple, rows.tolist()), amounts.tolist()), weighted_sum(amounts, None), UnknownLabelError)
            if self._pairs is not None:
                self._pairs.update(pairs)

    def _add(self, labels: Sequence, sums: np.ndarray, kinds: Iterable[tuple[tuple[int, int, int], float]], total: float,
             outside: type[Exception]) -> None:  # fmt: skip
        """Add per-label sums over ``labels`` (new labels appended, in a buffer that doubles), kinds
        of sample and their total (the caller holds the lock); with fixed labels, another label
        is an ``outside`` error."""
        new = [label for label in labels if self._code(label) is None]
        if new and self._fixed is not None:
            raise outside(f"labels {show(new)} are not among the fixed labels {show(list(self._fixed))}")
        if new:
            checked = check_label_list(new)
            check_same_family(checked, self._labels[:1], ("new labels", "these counts"))
            self._index.update((label, code) for code, label in enumerate(checked, len(self._labels)))
            self._labels.extend(checked)
        table = self._sums  # (with the single samples the tally holds)
        self._tally = None  # a batch: the next read makes the running sums again
        if len(self._labels) > table.shape[1] or (sums.dtype.kind == "f" and table.dtype.kind != "f"):
            grown = np.zeros((3, max(len(self._labels), 2 * table.shape[1])), dtype=np.result_type(table, sums))
            grown[:, : table.shape[1]] = table
            self._sums = table = grown
        table[:, np.array([self._code(label) for label in labels], dtype=np.intp)] += sums
        for row, amount in kinds:
            self._kinds[row] = self._kinds.get(row, 0) + amount
        self._total = self._total + total

    def average(self, measure: MeasureLike, average: str = "macro", *, undefined: UndefinedPolicy = "exclude",
                labels: Sequence[Hashable] | None = None, metrics_class: type[Any] | None = None, **parameters: Any) -> Averaged:  # fmt: skip
        """``to_evaluation().average(...)`` (see ``Evaluation.average``). Counts of fixed labels
        read a micro, macro or weighted average from running sums kept by a stream of single
        samples (a window's events): microseconds, not an evaluation made at every read.

        Examples:
            >>> counts = LabelSetCounts(["a", "b"])
            >>> counts.update([["a"], ["a", "b"]], [["a", "b"], ["b"]])
            >>> counts.average("f1_score", "micro")     # tp 2, fp 1, fn 1: 2·2 / (2·2 + 1 + 1)
            0.6666666666666666
        """
        if labels is None and self._fixed is not None and average in TALLIED:
            lock = self._lock
            lock.acquire()  # (not `with`: half the cost, on every read of a stream)
            try:
                if self._tally is None and self._sums.dtype.kind == "i":
                    self._tally = SetTally(self._sums[:, : len(self._labels)], int(self._total))
                found = tallied(self._tally, measure, average, undefined, parameters, metrics_class, self._metrics_class, self._measure)
            finally:
                lock.release()
            if found is not None:
                return found
        return self.to_evaluation().average(measure, average, undefined=undefined, labels=labels, metrics_class=metrics_class, **parameters)

    def _measure(self, measure: MeasureLike, metrics_class: type[Any] | None) -> Measure:
        return resolve_measure(measure, metrics_class_for(metrics_class, self._metrics_class))

    def _copy_state(self) -> tuple:
        with self._lock:
            return list(self._labels), self._sums[:, : len(self._labels)].copy(), dict(self._kinds), self._total

    def merge(self, other: LabelSetCounts, *, grow: bool = False) -> LabelSetCounts:
        """New counts of both streams (labels of ``other`` appended if they grow)."""
        if not isinstance(other, LabelSetCounts):
            raise InvalidTypeError(f"can only merge LabelSetCounts, got {show(other)}")
        if self._fixed is not None and other._fixed is not None and self._fixed != other._fixed:
            raise LabelMismatchError(f"cannot merge counts with different fixed labels: {show(list(self._fixed))} and {show(list(other._fixed))}")
        fixed = self._fixed if self._fixed is not None else other._fixed
        keep = self._pairs is not None and other._pairs is not None
        merged = LabelSetCounts(fixed, metrics_class=merged_metrics_class(self._metrics_class, other._metrics_class), keep_pairs=keep)
        for part in (self, other):
            labels, sums, kinds, total = part._copy_state()
            merged._add(labels, sums, kinds.items(), total, LabelMismatchError)
            if merged._pairs is not None and part._pairs is not None:
                with part._lock:
                    merged._pairs.update(part._pairs)
        return merged

    OPERATIONS = ALL_OPERATIONS - {"revert"}
    REFUSED: ClassVar[Mapping[str, str]] = {"revert": "its batches are taken away as parts: a - part (as a window does)"}

    def _state(self) -> tuple[list, np.ndarray, dict, Any, Counter | None]:
        """Everything counted, copied under the lock: labels, per-label sums, kinds, total, pairs."""
        with self._lock:
            labels, sums, kinds, total = self._copy_state()
            return labels, sums, kinds, total, None if self._pairs is None else Counter(self._pairs)

    def _rebuilt(self, labels: list, sums: np.ndarray, kinds: dict, total: float, pairs: Counter | None, metrics_class: MetricsClass,
                 taken: Sequence = ()) -> LabelSetCounts:  # fmt: skip
        """Counts holding exactly this state; a label of ``taken`` (the labels of a part taken away)
        left with nothing counted is dropped, unless it is fixed."""
        result = LabelSetCounts(self._fixed, metrics_class=metrics_class, keep_pairs=pairs is not None)
        gone = {label for label in taken if self._fixed is None or label not in self._fixed}
        kept = [k for k, label in enumerate(labels) if not (label in gone and np.all(sums[:, k] == 0))]
        result._labels = [labels[k] for k in kept]
        result._index = {label: code for code, label in enumerate(result._labels)}
        result._sums = np.zeros((3, max(len(kept), 8)), dtype=sums.dtype)
        result._sums[:, : len(kept)] = sums[:, kept]
        result._kinds = {kind: amount for kind, amount in kinds.items() if amount != 0}
        result._total = total
        if pairs is not None:
            result._pairs = Counter({pair: amount for pair, amount in pairs.items() if amount != 0})
        return result

    def _subtract(self, other: LabelSetCounts) -> LabelSetCounts:
        """These counts without ``other``'s, a stream merged into them (its labels must be here)."""
        labels, sums, kinds, total, pairs = self._state()
        their_labels, their_sums, their_kinds, their_total, their_pairs = other._state()
        index = {label: code for code, label in enumerate(labels)}
        unknown = [label for label in their_labels if label not in index or not same_labels((labels[index[label]],), (label,))]
        if unknown:
            raise InvalidCountsError(f"cannot take away counts of labels these counts never had: {show(unknown)}")
        positions = np.array([index[label] for label in their_labels], dtype=np.intp)
        left = sums.astype(np.result_type(sums, their_sums), copy=True)
        left[:, positions] = difference(sums[:, positions], their_sums, "label counts")
        amounts = [kinds.get(kind, 0) for kind in their_kinds]
        remaining = difference(np.array(amounts), np.array(list(their_kinds.values())), "kinds of sample") if their_kinds else np.zeros(0)
        kinds = {**kinds, **dict(zip(their_kinds, remaining.tolist()))}
        if pairs is not None and their_pairs is not None:
            taken = difference(np.array([pairs.get(pair, 0) for pair in their_pairs]), np.array(list(their_pairs.values())), "pairs of sets")
            pairs = Counter({**pairs, **dict(zip(their_pairs, taken.tolist()))})
        else:
            pairs = None
        total = difference(np.asarray(total), np.asarray(their_total), "samples")[()].item()
        return self._rebuilt(labels, left, kinds, total, pairs, merged_metrics_class(self._metrics_class, other._metrics_class), their_labels)

    def _scaled(self, factor: float) -> LabelSetCounts:
        labels, sums, kinds, total, pairs = self._state()
        scaled_pairs = None if pairs is None else Counter({pair: amount * factor for pair, amount in pairs.items()})
        return self._rebuilt(labels, sums * factor, {kind: amount * factor for kind, amount in kinds.items()}, total * factor, scaled_pairs,
                             self._metrics_class)  # fmt: skip

    def empty(self) -> LabelSetCounts:
        """Counts with the same settings (fixed labels, metrics class, ``keep_pairs``) and nothing counted."""
        return LabelSetCounts(self._fixed, metrics_class=self._metrics_class, keep_pairs=self._pairs is not None)

    def copy(self) -> LabelSetCounts:
        """An independent copy."""
        return self._rebuilt(*self._state(), self._metrics_class)

    def _document(self) -> dict[str, Any]:
        """The counts as an evalkit JSON document: the labels, their sums, the kinds of sample
        and (with ``keep_pairs``) the pairs of sets."""
        labels, sums, kinds, total, pairs = self._state()
        payload: dict[str, Any] = {
            "fixed": None if self._fixed is None else serialization.as_list(self._fixed),
            "labels": serialization.as_list(labels),
            "sums": {name: sums[k].tolist() for k, name in enumerate(("both", "actual", "predicted"))},
            "kinds": [[*kind, amount] for kind, amount in kinds.items()],
            "total": total,
            "pairs": None if pairs is None else [[serialization.as_list(sorted_labels(list(truth), "pairs")) if truth else [],
                                                  serialization.as_list(sorted_labels(list(guess), "pairs")) if guess else [], amount]
                                                 for (truth, guess), amount in pairs.items()],
            **metrics_class_field(self._metrics_class),
        }  # fmt: skip
        return payload

    @classmethod
    def _read_document(cls, document: dict[str, Any], *, metrics_class: MetricsClass | None = None) -> LabelSetCounts:
        fixed = None if document.get("fixed") is None else serialization.label_list(document, "fixed")
        labels = list(serialization.label_list(document, "labels"))
        sums_field = serialization.field(document, "sums")
        if not isinstance(sums_field, dict):
            raise serialization.FormatError(f"field 'sums' must be an object, got {show(sums_field)}")
        sums = np.stack([serialization.array(serialization.field(sums_field, name), f"sums.{name}", length=len(labels), integral=None)
                         for name in ("both", "actual", "predicted")]) if labels else np.zeros((3, 0), dtype=np.int64)  # fmt: skip
        kinds_field = serialization.field(document, "kinds")
        if not isinstance(kinds_field, list) or any(not isinstance(row, list) or len(row) != 4 for row in kinds_field):
            raise serialization.FormatError("field 'kinds' must list [in both, in the actual set, in the predicted set, amount] rows")
        kinds = {(int(both), int(actual), int(predicted)): _amount(amount, "kinds") for both, actual, predicted, amount in kinds_field}
        total = _amount(serialization.field(document, "total"), "total")
        pairs_field = document.get("pairs")
        pairs = None
        if pairs_field is not None:
            if not isinstance(pairs_field, list) or any(not isinstance(row, list) or len(row) != 3 for row in pairs_field):
                raise serialization.FormatError("field 'pairs' must list [actual labels, predicted labels, amount] rows")
            pairs = Counter({(frozenset(serialization.scalar_label(label, "pairs") for label in truth),
                              frozenset(serialization.scalar_label(label, "pairs") for label in guess)): _amount(amount, "pairs")
                             for truth, guess, amount in pairs_field})  # fmt: skip
        counts = cls(fixed, metrics_class=read_metrics_class(document, metrics_class), keep_pairs=pairs is not None)
        return counts._rebuilt(labels, sums, kinds, total, pairs, counts._metrics_class)

    def interval(self, measure: MeasureLike, average: str = "macro", **options: Any) -> Interval:
        """A bootstrap interval of a ``"micro"``, ``"macro"`` or ``"weighted"`` average of the
        counts kept with ``keep_pairs=True``: the kinds are the distinct (actual set, predicted
        set) pairs (``evalkit.intervals.indicators_interval``); ``options`` as there
        (``level``, ``method``, ``n_resamples``, ``random_state``, ``undefined``).

        Raises:
            UnsupportedSettingError: the counts were made without ``keep_pairs``.
        """
        if self._pairs is None:
            raise UnsupportedSettingError("an interval of a per-class average needs the pairs of sets: make the counts with keep_pairs=True")
        from evalkit.results import intervals  # resampling: imported when asked for

        labels = list(self.to_evaluation().labels)
        with self._lock:
            pairs = list(self._pairs.items())
        position = {label: k for k, label in enumerate(labels)}
        actual, predicted = (np.zeros((len(pairs), len(labels)), dtype=np.int8) for _ in range(2))
        for row, ((truth, guess), _) in enumerate(pairs):
            actual[row, [position[label] for label in truth]] = 1
            predicted[row, [position[label] for label in guess]] = 1
        amounts = np.array([amount for _, amount in pairs])
        return intervals.indicators_interval(actual, predicted, measure, average, sample_weight=amounts, metrics_class=self._metrics_class, **options)

    def to_evaluation(self) -> Evaluation:
        """The counts as a (compacted) ``Evaluation``: every average works;
        per-sample vectors do not (the sample order is not kept).

        Raises:
            EmptyInputError: nothing was counted and no labels were fixed.
        """
        labels, sums, kinds, total = self._copy_state()
        if not kinds:
            if not self._fixed:
                raise EmptyInputError("no label sets were counted and no 'labels' were given: nothing to evaluate")
            return Evaluation.from_label_sets([], [], self._fixed, metrics_class=self._metrics_class).compact()
        order = list(self._fixed) if self._fixed is not None else list(sorted_labels(labels, "labels"))
        position = {label: code for code, label in enumerate(labels)}
        sums = sums[:, [position[label] for label in order]]
        m = len(order)
        class_cells = Cells.from_sums(sums[0], sums[1], sums[2], total)
        rows = np.array(list(kinds), dtype=np.int64).reshape(-1, 3)
        amounts = np.array(list(kinds.values()))
        sample_cells = Cells.from_sums(rows[:, 0], rows[:, 1], rows[:, 2], m, weight=amounts)
        evaluation = Evaluation(tuple(order), class_cells, sample_cells, "multi-label", ordered=False, metrics_class=self._metrics_class)
        return evaluation.compact()

    def __eq__(self, other: object) -> bool:
        """The same counts: labels, metrics class and everything counted."""
        if type(other) is not type(self):
            return NotImplemented
        if not (same_value(self._fixed, other._fixed) and self._metrics_class is other._metrics_class):
            return False
        if not self._copy_state()[2] and not other._copy_state()[2]:
            return True
        try:
            return self.to_evaluation() == other.to_evaluation()
        except EmptyInputError:
            return False

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LabelSetCounts(labels={list(self.labels)!r}, samples={self.n_samples})"


MERGE_FACTOR = 4
"""Pending parts of a stream of scores are merged while the one before is at most this many
times the size of the last: parts take about ``MERGE_FACTOR / (MERGE_FACTOR - 1)`` times the
largest one's memory, at a few merges of each point."""


class _ScoreCounts(CountedState, _Locked, Generic[Scored]):
    """Results of batches of scores merged as they come (mutable, like ConfusionMatrix): the
    shared body of ``CurveCounts`` and ``CalibrationCounts``. The first batch fixes the column
    labels of 2-D scores, or the positive class of 1-D ones, for the batches after it."""

    WHOLE_COUNTS = True

    def __init__(self, *, labels: Sequence[Hashable] | None = None, pos_label: Hashable | None = None) -> None:
        self._labels = None if labels is None else check_label_list(labels)
        self._pos_label = pos_label
        self._parts: list[Scored] = []  # results, each over MERGE_FACTOR times the size of the next
        self._lock = threading.RLock()

    _table: _ScoreTable | _BinTable | None = None  # a binary stream's result counted a sample at a time (see _few)

    @property
    def _result(self) -> Scored | None:
        """Everything counted so far, as one result (the pending parts merged)."""
        with self._lock:
            self._settle()
            if not self._parts:
                return None
            self._merge_parts(everything=True)
            whole = self._parts[0] = self._read_back(self._parts[0])
            return whole

    @_result.setter
    def _result(self, result: Scored | None) -> None:
        with self._lock:
            self._table = None
            self._parts = [] if result is None else [result]

    @property
    def n_points(self) -> int:
        """How many points the counted parts keep (a curve's thresholds of every class, a
        calibration's bins): the memory of the counts, about 24 bytes a point (16 for a curve's
        parts whose whole counts fit 32-bit integers)."""
        with self._lock:
            return sum(part.n_points for part in self._parts)

    def _settle(self) -> None:
        """The result of the score table, when samples changed it since it was last read (the
        caller holds the lock)."""
        table = self._table
        if table is not None and table.changed:
            self._parts = [self._from_table(table, self._parts[0])]
            table.changed = False

    def _merge_parts(self, *, everything: bool = False) -> None:
        """Merge the rightmost parts: all of them, or while the one before is at most
        ``MERGE_FACTOR`` times the size of the last (``n_points``). The sizes then fall by more
        than that factor from each part to the next, so the parts hold little more than the
        largest one (however much the batches repeat each other's scores), and each point is
        merged a logarithmic number of times."""
        while len(self._parts) > 1 and (everything or self._parts[-2].n_points <= MERGE_FACTOR * max(self._parts[-1].n_points, 1)):
            self._parts[-2:] = [self._parts[-2].merge(self._parts[-1])]  # replaced once merged: a merge that fails loses no part

    def _count(self, y_true: LabelsLike, y_score: ScoresLike, labels: tuple | None, pos_label: Hashable, sample_weight: ArrayLike | None) -> Scored:
        raise NotImplementedError

    def _columns_of(self, batch: Scored) -> tuple:
        return batch.labels

    def _copy(self) -> Self:
        raise NotImplementedError

    def _read_back(self, part: Scored) -> Scored:
        """A part as every result of its kind is (a curve's counts, which ``_count`` narrows, widened)."""
        return part

    def _new_table(self, result: Scored) -> _ScoreTable | _BinTable | None:
        """A table of ``result`` that counts a binary stream's scores one at a time, or None."""
        raise NotImplementedError

    def _from_table(self, table: Any, before: Scored) -> Scored:
        """The result of a table's counts (``before``: the result the table was made from, its
        settings kept)."""
        raise NotImplementedError

    def _few(self, y_true: LabelsLike, y_score: ScoresLike, amount: int) -> bool:
        """Count (or take away, ``amount`` -1) a few unweighted scores of a binary result in a
        table (``_new_table``: an exact curve's distinct scores, in O(log n) each, or a binned
        calibration's sums; a window's events); False when the general path must count them."""
        if not isinstance(y_true, (list, tuple)) or not isinstance(y_score, (list, tuple)):
            return False
        if not 0 < len(y_true) == len(y_score) <= FEW_SAMPLES or not all(type(score) in (float, int) and math.isfinite(score) for score in y_score):
            return False
        with self._lock:
            if self._table is None:
                result = self._result
                table = None if result is None else self._new_table(result)
                if table is None:
                    return False  # the first batch fixes the classes; multi-class, weighted and binned curves count in parts
                self._table = table
            table = self._table
            positives = [table.positive(label) for label in y_true]
            if None in positives or not all(table.accepts(score) for score in y_score):
                return False  # a label of neither class, a score out of range: the general path says what is wrong
            for score, positive in zip(y_score, positives):
                table.add(float(score), bool(positive), amount)
            return True

    def revert(self, y_true: LabelsLike, y_score: ScoresLike, /, *, sample_weight: ArrayLike | None = None) -> None:
        """Take away scores counted before: a few unweighted ones of a binary result in its table
        (a sliding window's oldest; see ``_few``), any other batch as the result it counts.

        Raises:
            InvalidCountsError: a score that was never counted (for its class).
        """
        if sample_weight is None and self._few(y_true, y_score, -1):
            return
        part, _ = self._batch(y_true, y_score, sample_weight)
        with self._lock:
            self._result = self._read() - part

    def update(self, y_true: LabelsLike, y_score: ScoresLike, *, sample_weight: ArrayLike | None = None) -> None:
        """Count a batch (the arguments of the result's ``from_scores``).

        Raises:
            LabelMismatchError: a batch whose classes differ from the first batch's.
        """
        if sample_weight is None and self._few(y_true, y_score, 1):
            return
        self._add_batch(*self._batch(y_true, y_score, sample_weight))

    def _counted_batch(self, y_true: LabelsLike, y_score: ScoresLike, sample_weight: ArrayLike | None) -> Callable[[], None]:
        """A batch counted as a result of its own now, and what merges it into the counts later
        (a reader lets go of a chunk's scores in between)."""
        return functools.partial(self._add_batch, *self._batch(y_true, y_score, sample_weight))

    def _add_batch(self, batch: Scored, two_dimensional: bool) -> None:
        """Merge a batch counted as a result of its own (``_batch``) into the counts."""
        with self._lock:  # counted outside, merged inside: no update is lost
            self._settle()
            self._table = None
            if not self._parts:
                if two_dimensional:
                    self._labels = self._columns_of(batch)
                else:
                    self._pos_label = batch.labels[0]
            self._parts.append(batch)
            try:
                self._merge_parts()
            except EvalkitError:
                self._parts.pop()  # the batch that does not merge: counted as if never given
                raise

    def _batch(self, y_true: LabelsLike, y_score: ScoresLike, sample_weight: ArrayLike | None) -> tuple[Scored, bool]:
        """A batch counted as a result of its own, over the classes fixed so far, and whether its
        scores are 2-D (one column per class)."""
        two_dimensional = as_array(y_score, "y_score").ndim == 2
        batch = self._count(y_true, y_score, self._labels if two_dimensional else None, None if two_dimensional else self._pos_label, sample_weight)
        return batch, two_dimensional

    def _merged(self, other: object) -> Self:
        if type(other) is not type(self):
            raise InvalidTypeError(f"can only merge {type(self).__name__}, got {show(other)}")
        merged = self._copy()
        merged._labels, merged._pos_label = self._labels or other._labels, self._pos_label
        parts = [result for result in (self._result, other._result) if result is not None]  # each collapsed once
        merged._result = parts[0].merge(parts[1]) if len(parts) == 2 else (parts[0] if parts else None)
        return merged

    def _read(self) -> Scored:
        if self._result is None:
            raise EmptyInputError("no scores were counted: nothing to read")
        return self._result

    OPERATIONS = ALL_OPERATIONS
    RESULT: ClassVar[type[ThresholdCurve | Calibration]]
    """The kind of result counted (``ThresholdCurve``, ``Calibration``)."""

    def _with_result(self, result: Scored | None) -> Self:
        """Counts with these settings (and classes fixed so far) holding ``result``."""
        counts = self._copy()
        counts._labels, counts._pos_label = self._labels, self._pos_label
        counts._result = result
        return counts

    def _subtract(self, other: Self) -> Self:
        """These counts without ``other``'s, a stream merged into them."""
        mine, theirs = self._result, other._result
        if theirs is None:
            return self.copy()
        if mine is None:
            raise InvalidCountsError("cannot take away counts from counts of nothing")
        return self._with_result(mine - theirs)

    def _scaled(self, factor: float) -> Self:
        result = self._result
        return self._with_result(None if result is None else result.scaled(factor))

    def empty(self) -> Self:
        """Counts with the same settings (and the classes the first batch fixed), nothing counted."""
        return self._with_result(None)

    def _holds_nothing(self) -> bool:
        """No result counted, or one that holds nothing (a part taken away from what held only it)."""
        result = self._result
        return result is None or result._holds_nothing()

    def copy(self) -> Self:
        """An independent copy (the counts so far, merged into one part)."""
        return self._with_result(self._result)

    def _settings(self) -> dict[str, Any]:
        raise NotImplementedError

    def _document(self) -> dict[str, Any]:
        """The counts as an evalkit JSON document: the settings, the classes fixed so far and
        the result counted (its own document), or null before the first batch."""
        result = self._result
        payload = {**self._settings(), "labels": None if self._labels is None else serialization.as_list(self._labels),
                   "pos_label": serialization.json_safe(self._pos_label), "result": None if result is None else json.loads(result.to_json())}  # fmt: skip
        return payload

    @classmethod
    def _read_document(cls, document: dict[str, Any], **options: object) -> Self:
        counts = cls._from_settings(document)
        counts._labels = None if document.get("labels") is None else serialization.label_list(document, "labels")
        pos_label = document.get("pos_label")
        counts._pos_label = None if pos_label is None else serialization.scalar_label(pos_label, "pos_label")
        result = document.get("result")
        if result is not None and not isinstance(result, dict):
            raise serialization.FormatError(f"field 'result' must be a {cls.RESULT.__name__} document, got {show(result)}")
        counts._result = None if result is None else cast("Scored", cls.RESULT.from_json(json.dumps(result)))  # RESULT is the Scored of cls
        return counts

    @classmethod
    def _from_settings(cls, document: dict[str, Any]) -> Self:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        """The same counts: settings, classes and everything counted (however batched)."""
        if type(other) is not type(self):
            return NotImplemented
        settings = [name for name in vars(self) if name not in ("_parts", "_lock", "_table")]
        return all(same_value(getattr(self, name), getattr(other, name)) or getattr(self, name) is getattr(other, name) for name in settings) and (
            self._result == other._result)  # fmt: skip

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._result!r})"


class CurveCounts(_ScoreCounts[ThresholdCurve]):
    """Threshold curves counted batch by batch (mutable, like ConfusionMatrix): a thin
    accumulator over ``ThresholdCurve.merge``.

    With ``thresholds`` (a number of evenly spaced thresholds in [0, 1], or the thresholds)
    memory is O(thresholds x classes) however long the stream, every point is exact and the
    areas lie within ``ThresholdCurve.area_bounds``; without, the curve is exact and grows
    with the distinct scores seen.

    Args:
        thresholds: as for ``ThresholdCurve.from_scores``.
        labels: the column labels of 2-D scores (by default those of the first batch, which
            later batches keep).
        pos_label: the positive class of binary labels (by default that of the first batch).
        metrics_class: the metrics class of the curve (see ``ThresholdCurve``).

    Examples:
        >>> counts = CurveCounts(thresholds=11)
        >>> counts.update([0, 1, 1], [0.2, 0.9, 0.6])
        >>> counts.update([0, 0], [0.7, 0.1])
        >>> curve = counts.curve()
        >>> curve.n_samples, curve.at(0.6).per_class("recall").tolist()
        (5, [1.0])
    """

    DOCUMENT = "CurveCounts"

    def __init__(
        self, *, thresholds: int | ArrayLike | None = None, labels: Sequence[Hashable] | None = None, pos_label: Hashable | None = None,
        metrics_class: MetricsClass | None = None,
    ) -> None:  # fmt: skip
        super().__init__(labels=labels, pos_label=pos_label)
        self._metrics_class = check_metrics_class(metrics_class)
        self._thresholds = thresholds

    def _count(self, y_true: LabelsLike, y_score: ScoresLike, labels: tuple | None, pos_label: Hashable, sample_weight: ArrayLike | None) -> ThresholdCurve:
        return ThresholdCurve._of_columns(score_columns(y_true, y_score, labels, pos_label, sample_weight), self._thresholds, self._metrics_class,
                                          narrow=True)  # the parts keep whole counts as int32 where they fit (read back as int64)

    RESULT = ThresholdCurve

    def _copy(self) -> CurveCounts:
        return CurveCounts(thresholds=self._thresholds, metrics_class=self._metrics_class)

    def _settings(self) -> dict[str, Any]:
        thresholds = self._thresholds
        return {"thresholds": thresholds if thresholds is None or isinstance(thresholds, int) else np.asarray(thresholds, dtype=np.float64).tolist(),
                **metrics_class_field(self._metrics_class)}  # fmt: skip

    @classmethod
    def _from_settings(cls, document: dict[str, Any]) -> CurveCounts:
        thresholds = document.get("thresholds")
        if thresholds is not None and not isinstance(thresholds, int):
            thresholds = serialization.array(thresholds, "thresholds", length=None, integral=False)
        return cls(thresholds=thresholds, metrics_class=read_metrics_class(document))

    def curve(self) -> ThresholdCurve:
        """The curve of everything counted so far.

        Raises:
            EmptyInputError: nothing was counted.
        """
        return self._read()

    def roc_auc(self, **options: Any) -> float | np.ndarray:
        """``curve().roc_auc(**options)``; of an exact binary curve counted a sample at a time
        (a sliding window), read from its score table without building the curve: the
        Mann-Whitney count ``Σ pos · (neg below + neg at / 2) / (P N)``, exact in integers.

        Examples:
            >>> counts = CurveCounts()
            >>> counts.update([0, 1, 1, 0], [0.1, 0.35, 0.8, 0.4])
            >>> counts.update([1], [0.4])
            >>> counts.roc_auc()
            0.75
        """
        with self._lock:
            table = self._table
            if isinstance(table, _ScoreTable) and not options:
                return table.roc_auc()
        return self._read().roc_auc(**options)

    def _read_back(self, part: ThresholdCurve) -> ThresholdCurve:
        return part._widened()

    def _new_table(self, result: ThresholdCurve) -> _ScoreTable | None:
        return _ScoreTable.of(result) if self._thresholds is None else None

    def _from_table(self, table: _ScoreTable, before: ThresholdCurve) -> ThresholdCurve:
        return table.curve(self._metrics_class)

    def merge(self, other: CurveCounts, *, grow: bool = False) -> CurveCounts:
        """New counts of both streams."""
        merged = self._merged(other)
        merged._metrics_class = merged_metrics_class(self._metrics_class, other._metrics_class)
        if merged._result is not None:
            merged._result = merged._result.with_metrics_class(merged._metrics_class)
        return merged




class _BinTable:
    """The exact sums of the bins of a binned binary calibration (``Calibration`` with
    ``bins``), as Python integers in units of ``2**-FLOAT_OFFSET`` (``limbs_to_ints``), kept
    current one unweighted sample at a time: its bin and its eight terms, found as a batch finds
    them (``_Binner``, ``_Sums.terms``), added exactly; the calibration is made from them when
    read. The same sums, bit for bit, as the samples counted in one batch."""

    __slots__ = ("binner", "bins", "changed", "memo", "positive_label", "sums")

    def __init__(self, calibration: Calibration) -> None:
        assert calibration._limbs is not None and calibration.bins is not None
        self.bins, self.positive_label = calibration.bins, calibration.labels[0]
        self.sums = limbs_to_ints(calibration._limbs)  # sum k of bin b at k * bins + b (one column)
        self.binner = _Binner(self.bins, 1)
        self.memo: dict[tuple[float, bool], tuple[int, list[int]]] = {}  # (score, positive) -> its bin and terms, for scores that repeat
        self.changed = False

    def positive(self, label: Hashable) -> bool | None:
        """True for the positive class, False for another label of its type (a binned
        calibration keeps no negative class), None for anything else (the general path)."""
        positive = self.positive_label
        if same_labels((label,), (positive,)):
            return True
        return False if type(label) is type(positive) and label == label else None  # noqa: PLR0124 (NaN is no label)

    @staticmethod
    def accepts(score: float) -> bool:
        """A probability: in [0, 1]."""
        return 0 <= score <= 1

    def add(self, score: float, positive: bool, amount: int) -> None:
        found = self.memo.get((score, positive))
        if found is None:
            scores = np.array([score])
            terms = _Sums.terms(scores, np.array([positive]), None)
            found = int(self.binner.keys(scores, None)[0]), [float_units(float(term[0])) for term in terms]
            if len(self.memo) >= _MOST_EVENTS:
                self.memo.clear()
            self.memo[(score, positive)] = found
        at, units = found
        sums, bins = self.sums, self.bins
        if amount < 0 and (sums[at] < units[0] or sums[3 * bins + at] < units[3]):
            raise InvalidCountsError(f"cannot take away a {'positive' if positive else 'negative'} score {score!r} that was never counted")
        for k, unit in enumerate(units):
            sums[k * bins + at] += amount * unit
        self.changed = True

    def calibration(self, before: Calibration) -> Calibration:
        return Calibration._of_sums(before.setting, before.labels, self.bins, self.sums, before.classes)  # (read, not kept)


class _ScoreTable:
    """The distinct scores of an exact binary curve, lowest first, with the count of positives
    and of negatives at each, kept current one sample at a time (a sorted insert: a binary
    search and a move of the arrays' tails); the curve is built from it when read."""

    __slots__ = ("changed", "labels", "negative_label", "negatives", "positives", "scores")
    scores: np.ndarray
    positives: np.ndarray
    negatives: np.ndarray

    def __init__(self, curve: ThresholdCurve) -> None:
        scores, positives, negatives = curve.score_counts()
        self.scores = np.array(scores, dtype=np.float64)
        self.positives, self.negatives = np.array(positives, dtype=np.int64), np.array(negatives, dtype=np.int64)
        self.labels, self.negative_label = curve.labels, curve.negative_label
        self.changed = False

    @classmethod
    def of(cls, curve: ThresholdCurve) -> _ScoreTable | None:
        """The table of an exact binary curve of whole counts, or None (multi-class, binned, weighted)."""
        return None if len(curve.labels) != 1 or curve.binned or curve.positives.dtype.kind == "f" else cls(curve)

    def positive(self, label: Hashable) -> bool | None:
        """Whether ``label`` is the positive class (True), the negative one (False), or neither (None)."""
        if same_labels((label,), self.labels[:1]):
            return True
        return False if same_labels((label,), (self.negative_label,)) else None

    @staticmethod
    def accepts(score: float) -> bool:
        """Every finite score has its place on a curve."""
        return True

    def add(self, score: float, positive: bool, amount: int) -> None:
        counts = self.positives if positive else self.negatives
        k = int(np.searchsorted(self.scores, score))
        if k < len(self.scores) and self.scores[k] == score:
            if counts[k] + amount < 0:
                raise InvalidCountsError(f"cannot take away a {'positive' if positive else 'negative'} score {score!r} that was never counted")
            counts[k] += amount
            if not (self.positives[k] or self.negatives[k]):
                self.scores, self.positives, self.negatives = np.delete(self.scores, k), np.delete(self.positives, k), np.delete(self.negatives, k)
        elif amount < 0:
            raise InvalidCountsError(f"cannot take away a score {score!r} that was never counted")
        else:
            self.scores = np.insert(self.scores, k, score)
            self.positives = np.insert(self.positives, k, amount if positive else 0)
            self.negatives = np.insert(self.negatives, k, 0 if positive else amount)
        self.changed = True

    def roc_auc(self) -> float:
        """The Mann-Whitney count of the table, exact: ``Σ pos (2 neg_below + neg_at) / (2 P N)``."""
        positives, negatives = int(self.positives.sum()), int(self.negatives.sum())
        if not (positives and negatives):
            return math.nan
        below = np.cumsum(self.negatives) - self.negatives
        twice = int(self.positives @ (2 * below + self.negatives))  # below 2 * P * N: int64 holds it for windows of a billion
        return twice / (2 * positives * negatives)

    def curve(self, metrics_class: MetricsClass) -> ThresholdCurve:
        return ThresholdCurve.from_score_counts([(self.scores, self.positives, self.negatives)], self.labels, negative_label=self.negative_label,
                                                metrics_class=metrics_class)  # fmt: skip


class CalibrationCounts(_ScoreCounts[Calibration]):
    """A calibration counted batch by batch (mutable): a thin accumulator over
    ``Calibration.merge``. With ``bins`` memory is O(bins x columns) however long the stream;
    without, the counts are exact and grow with the distinct scores seen. ``revert`` takes
    scores counted before away; a binary stream's single scores are counted in and out of a
    table in place (a sliding window's events).

    Args:
        bins: as for ``Calibration.from_scores`` (``None``: exact).
        setting: as for ``Calibration.from_scores``.
        labels: the column labels of 2-D probabilities (by default those of the first batch).
        pos_label: the positive class of binary labels (by default that of the first batch).

    Examples:
        >>> counts = CalibrationCounts(bins=10)
        >>> counts.update([0, 1, 1], [0.2, 0.9, 0.6])
        >>> counts.update([0, 0], [0.7, 0.1])
        >>> round(counts.calibration().error(), 4)
        0.3
        >>> counts.revert([0], [0.7])
        >>> counts.calibration().n_samples
        4.0
    """

    DOCUMENT = "CalibrationCounts"

    def __init__(self, *, bins: int | None = None, setting: str | None = None, labels: Sequence[Hashable] | None = None,
                 pos_label: Hashable | None = None) -> None:  # fmt: skip
        super().__init__(labels=labels, pos_label=pos_label)
        self._bins, self._setting = bins, setting

    def _count(self, y_true: LabelsLike, y_score: ScoresLike, labels: tuple | None, pos_label: Hashable, sample_weight: ArrayLike | None) -> Calibration:
        return Calibration.from_scores(y_true, y_score, labels, pos_label=pos_label, setting=self._setting, sample_weight=sample_weight, bins=self._bins)

    def _columns_of(self, batch: Calibration) -> tuple:
        return batch.classes

    def _new_table(self, result: Calibration) -> _ScoreTable | _BinTable | None:
        if result.setting != "binary":
            return None
        curve = result._curve  # an exact binary calibration is its curve's scores
        return _BinTable(result) if curve is None else _ScoreTable.of(curve)

    def _from_table(self, table: Any, before: Calibration) -> Calibration:
        if isinstance(table, _BinTable):
            return table.calibration(before)
        curve = before._curve
        assert curve is not None
        return Calibration(before.setting, before.labels, None, table.curve(curve.metrics_class), classes=before.classes)

    RESULT = Calibration

    def _copy(self) -> CalibrationCounts:
        return CalibrationCounts(bins=self._bins, setting=self._setting)

    def _settings(self) -> dict[str, Any]:
        return {"bins": self._bins, "setting": self._setting}

    @classmethod
    def _from_settings(cls, document: dict[str, Any]) -> CalibrationCounts:
        setting = document.get("setting")
        if setting is not None and setting not in CALIBRATION_SETTINGS:
            raise serialization.FormatError(f"field 'setting' must be one of {CALIBRATION_SETTINGS} or null, got {show(setting)}")
        return cls(bins=serialization.integer(document, "bins", low=1, optional=True), setting=setting)

    def calibration(self) -> Calibration:
        """The calibration of everything counted so far.

        Raises:
            EmptyInputError: nothing was counted.
        """
        return self._read()

    def merge(self, other: CalibrationCounts, *, grow: bool = False) -> CalibrationCounts:
        """New counts of both streams (one that counted nothing adds nothing)."""
        return self._merged(other)


if not TYPE_CHECKING:  # the names this module gave in evalkit 0.1.0 and lost, found with a warning
    __getattr__ = moved_names.finder(__name__)
