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

import threading
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast

import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine import moved_names, serialization
from evalkit._engine._columns import list_column
from evalkit._engine._exact import (
    difference,
    weighted_bincount,
    weighted_sum,
)
from evalkit._engine._labels import check_label_list, check_same_family, kind, position_of, same_labels, sorted_labels
from evalkit._engine._types import LabelsLike
from evalkit._engine._validation import check_sample_weight, same_value, show
from evalkit._engine.cells import Cells
from evalkit._engine.counting import as_label_set_list, encode_label_sets
from evalkit._results.counted import ALL_OPERATIONS, CountedState
from evalkit._results.evaluation import Evaluation
from evalkit._results.tally import TALLIED, SetTally, tallied
from evalkit._scale._score_streams import (  # (the streams of scores: public here)
    _MOST_EVENTS,
    CalibrationCounts,
    CurveCounts,
)
from evalkit._scale._stream import MERGE_FACTOR, Stream, _Locked
from evalkit.exceptions import (
    EmptyInputError,
    InvalidCountsError,
    InvalidTypeError,
    LabelMismatchError,
    UnknownLabelError,
    UnsupportedSettingError,
)
from evalkit.measures._averaging import Averaged, UndefinedPolicy
from evalkit.measures._metrics_class import MetricsClass, check_metrics_class, merged_metrics_class
from evalkit.measures._plugins import metrics_class_field, read_metrics_class
from evalkit.measures._registry import MeasureLike

if TYPE_CHECKING:
    from evalkit._results._closed_form import Interval

__all__ = ["MERGE_FACTOR", "CalibrationCounts", "CurveCounts", "LabelSetCounts", "Stream"]



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
        true_sets, predicted_sets = (cast(Any, values) if list_column(values) is not None else as_label_set_list(values, name)
                                     for name, values in (("y_true", y_true), ("y_pred", y_pred)))  # fmt: skip
        if not len(true_sets) and not len(predicted_sets):
            return  # an empty batch counts nothing
        actual, predicted, found, n = encode_label_sets(true_sets, predicted_sets)  # the batch's own labels (a column of lists: from Arrow's codes)
        weight = check_sample_weight(sample_weight, n)
        m = len(found)
        both = np.intersect1d(actual, predicted, assume_unique=True)
        per_label = [weighted_bincount(keys % max(m, 1), None if weight is None else weight[keys // max(m, 1)], m) for keys in (both, actual, predicted)]
        per_sample = [np.bincount(keys // max(m, 1), minlength=n) for keys in (both, actual, predicted)]
        rows, inverse = np.unique(np.stack(per_sample, axis=1), axis=0, return_inverse=True)
        amounts = weighted_bincount(inverse.ravel(), weight, len(rows))
        pairs: Counter[tuple[frozenset, frozenset]] = Counter()
        if self._pairs is not None:  # the samples' own pairs of sets (asked for with keep_pairs)
            sets = zip(map(frozenset, as_label_set_list(true_sets, "y_true")), map(frozenset, as_label_set_list(predicted_sets, "y_pred")))
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
                found = tallied(self._tally, measure, average, undefined, parameters, metrics_class, self._metrics_class)
            finally:
                lock.release()
            if found is not None:
                return found
        return self.to_evaluation().average(measure, average, undefined=undefined, labels=labels, metrics_class=metrics_class, **parameters)

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
        held = np.flatnonzero(np.any(their_sums != 0, axis=0))  # (a label of the part that weighs nothing takes nothing away)
        their_labels, their_sums = [their_labels[k] for k in held.tolist()], their_sums[:, held]
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
        set) pairs (``evalkit.indicators_interval``); ``options`` as there
        (``level``, ``method``, ``n_resamples``, ``random_state``, ``undefined``).

        Raises:
            UnsupportedSettingError: the counts were made without ``keep_pairs``.
        """
        if self._pairs is None:
            raise UnsupportedSettingError("an interval of a per-class average needs the pairs of sets: make the counts with keep_pairs=True")
        from evalkit._results import intervals  # resampling: imported when asked for

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


if not TYPE_CHECKING:  # the names this module gave in evalkit 0.1.0 and lost, found with a warning
    __getattr__ = moved_names.finder(__name__)

moved_names.publish("evalkit", globals(), ["LabelSetCounts"])  # given by the face on first use: named so from the start (pickles, reprs)
