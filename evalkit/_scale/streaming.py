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

import math
import threading
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast

import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine import moved_names, serialization
from evalkit._engine._columns import list_column
from evalkit._engine._exact import UNIT, exact_bincount, exact_counts, rounded_counts, weighted_bincount
from evalkit._engine._keyed import HashedSums
from evalkit._engine._labels import check_label_list, kind, position_of, positions_in, sorted_labels
from evalkit._engine._types import LabelsLike
from evalkit._engine._validation import check_sample_weight, show
from evalkit._engine.cells import Cells
from evalkit._engine.counting import as_label_set_list, encode_label_sets
from evalkit._results._summed import SummedState
from evalkit._results.counted import ALL_OPERATIONS
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
    InvalidTypeError,
    UnknownLabelError,
    UnsupportedSettingError,
)
from evalkit.measures._averaging import Averaged, UndefinedPolicy
from evalkit.measures._metrics_class import MetricsClass, check_metrics_class
from evalkit.measures._registry import MeasureLike

if TYPE_CHECKING:
    from evalkit._results._closed_form import Interval

__all__ = ["MERGE_FACTOR", "CalibrationCounts", "CurveCounts", "LabelSetCounts", "Stream"]



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


class _SampleKinds(HashedSums):
    """How much there is of each kind of sample ``(|Y∩Z|, |Y|, |Z|)``: its labels in both sets,
    in the actual and in the predicted set."""

    FIELD = "kinds"

    @staticmethod
    def _key_row(key: Hashable) -> list:
        return list(cast(tuple, key))

    @classmethod
    def _key_of(cls, row: list) -> Hashable:
        if len(row) != 3 or any(isinstance(size, bool) or not isinstance(size, int) or size < 0 for size in row) or row[0] > min(row[1], row[2]):
            raise serialization.FormatError(f"field 'kinds' must list [in both, in the actual set, in the predicted set, amount] rows, got {show(row)}")
        return tuple(row)


class _SetPairs(HashedSums):
    """How much there is of each pair (actual set, predicted set)."""

    FIELD = "pairs"

    @staticmethod
    def _key_row(key: Hashable) -> list:
        return [serialization.as_list(sorted_labels(list(labels), "pairs")) if labels else [] for labels in cast(tuple, key)]

    @classmethod
    def _key_of(cls, row: list) -> Hashable:
        if len(row) != 2 or not all(isinstance(labels, list) for labels in row):
            raise serialization.FormatError(f"field 'pairs' must list [actual labels, predicted labels, amount] rows, got {show(row)}")
        return tuple(frozenset(serialization.scalar_label(label, "pairs") for label in labels) for labels in row)


def _sums_by(slots: np.ndarray, weight: np.ndarray | None, size: int) -> np.ndarray:
    """Per slot ``0 .. size-1``: its samples (whole counts), or their weights summed exactly."""
    if weight is None:
        return np.bincount(slots, minlength=size).astype(np.int64)
    return exact_bincount(slots, weight, size) if weight.dtype.kind == "f" else weighted_bincount(slots, weight, size)


def _of_counter(kind: type[HashedSums], amounts: Mapping[Hashable, float]) -> HashedSums:
    """A table of the amounts of a dict (counts pickled by evalkit 0.1.0)."""
    return kind.counted(list(amounts), np.array(list(amounts.values())) if amounts else np.zeros(0, dtype=np.int64))


def _from_release(document: dict[str, Any]) -> dict[str, Any]:
    """A document of evalkit 0.1.0 (the sums by name, ``fixed`` the labels or null, a total,
    ``pairs`` null without ``keep_pairs``) in today's fields."""
    sums, fixed, pairs = document["sums"], document.get("fixed"), document.get("pairs")
    rows = [serialization.field(sums, name) for name in ("both", "actual", "predicted")]
    flat = [count for row in rows for count in (row if isinstance(row, list) else [row])]
    return {**document, "fixed": fixed is not None, "keep_pairs": pairs is not None, "sums": flat, "pairs": pairs or []}


class _Settled:
    """A field of a ``LabelSetCounts``' sums, read with the single samples of a stream counted in:
    while its tally is kept, single samples change the tally and the pending kinds and pairs
    alone (Python integers: no numpy call for each event), and a field takes them when it is
    next read (``pending``: the attribute that says it has some). Setting the label sums (a
    batch, a merge) drops the tally: the next read makes it again."""

    def __init__(self, stored: str, pending: str, what: str) -> None:
        self.stored, self.pending, self.__doc__ = stored, pending, what

    def __get__(self, counts: LabelSetCounts | None, owner: type | None = None) -> Any:
        if counts is None:
            return self
        if getattr(counts, self.pending):
            counts._settle(self.stored)
        return getattr(counts, self.stored)

    def __set__(self, counts: LabelSetCounts, value: object) -> None:
        setattr(counts, self.stored, value)
        if self.stored == "_stored":
            counts._tally = None


class LabelSetCounts(SummedState, _Locked):
    """Multi-label counts updated batch by batch (mutable, like ConfusionMatrix).

    Keeps, for every label, the (weighted) numbers of samples holding it in both, in the
    actual and in the predicted set, and, for every distinct kind of sample ``(|Y∩Z|, |Y|, |Z|)``,
    how much of it there is: a batch of labels seen before costs time in proportion to its own
    samples and labels, not to every label seen (one that brings new labels also copies the
    label sums once, longer), and memory is bounded by the labels and the kinds of sample.
    Weights are summed exactly, so a window takes a batch away to the last bit.

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
    LABELS, LABELS_LEAVE, METRICS_CLASS = True, True, True
    SETTINGS, SUMS, UNSCALED = ("keep_pairs",), ("_sums", "_kinds", "_pairs", "_idle"), frozenset({"_idle"})
    LABEL_AXES: ClassVar[dict[str, tuple[int, ...]]] = {"_sums": (1,), "_idle": (0,)}
    OPERATIONS = ALL_OPERATIONS - {"revert"}
    REFUSED: ClassVar[Mapping[str, str]] = {"revert": "its batches are taken away as parts: a - part (as a window does)"}

    def __init__(self, labels: Sequence[Hashable] | None = None, *, metrics_class: MetricsClass | None = None, keep_pairs: bool = False) -> None:
        if keep_pairs not in (True, False):
            raise InvalidTypeError(f"'keep_pairs' must be True or False, got {show(keep_pairs)}")
        self.keep_pairs = bool(keep_pairs)
        self._fixed = labels is not None
        self._labels: tuple = () if labels is None else check_label_list(labels)
        self._metrics_class = check_metrics_class(metrics_class)
        self._stored = np.zeros((3, len(self._labels)), dtype=np.int64)  # per label: in both, in the actual, in the predicted set (see _sums)
        self._stored_kinds, self._stored_pairs = _SampleKinds.empty(), _SetPairs.empty()
        self._idle = np.zeros(len(self._labels), dtype=np.int64)  # per label: the samples of weight 0 that hold it (a label still, as a matrix's)
        self._pending_kinds: dict[tuple[int, int, int], int] = {}  # a stream's single samples counted since the kinds were: kind -> net amount
        self._pending_pairs: dict[tuple[frozenset, frozenset], int] = {}  # ... and their pairs of sets (keep_pairs)
        self._lock = threading.RLock()

    _tally: SetTally | None = None  # the running sums of a stream of single samples (fixed labels), made at its first read
    _behind = False  # whether the tally holds single samples the label sums do not yet
    _events: tuple | None = None  # the labels and a memo of their events (_lookup)

    _sums = _Settled("_stored", "_behind", "per label, the samples holding it in both, in the actual and in the predicted set (3 x labels)")
    _kinds = _Settled("_stored_kinds", "_pending_kinds", "how much there is of each kind of sample")
    _pairs = _Settled("_stored_pairs", "_pending_pairs", "how much there is of each pair of sets (with keep_pairs; else none)")

    def _settle(self, field: str | None = None) -> None:
        """Count the single samples of a stream into the sums ``field`` (every one, for None):
        the tally's into the label sums, the pending kinds and pairs into their tables."""
        with self._lock:
            if self._behind and field in (None, "_stored"):
                tally = cast(SetTally, self._tally)
                self._stored, self._behind = np.array([tally.diag, tally.row, tally.col], dtype=np.int64).reshape(3, -1), False
            pending_tables: tuple[tuple[str, dict[Any, int]], ...] = (("_stored_kinds", self._pending_kinds), ("_stored_pairs", self._pending_pairs))
            for name, pending in pending_tables:
                if not pending or field not in (None, name):
                    continue
                table = getattr(self, name)
                added, taken = ([key for key, amount in pending.items() if amount * sign > 0] for sign in (1, -1))
                if added:
                    table = table.plus(type(table).counted(added, np.array([pending[key] for key in added], dtype=np.int64)))
                if taken:
                    table = table.minus(type(table).counted(taken, np.array([-pending[key] for key in taken], dtype=np.int64)), "samples")
                setattr(self, name, table)
                pending.clear()

    def _held(self) -> LabelSetCounts:
        """A copy taken under the lock, for the operations to read one state whatever other
        threads count meanwhile: the label sums copied (a batch adds into them in place), the
        tables shared (they never change)."""
        with self._lock:
            held = self._shallow()
            held._stored, held._idle = held._stored.copy(), held._idle.copy()
        return held

    def __getstate__(self) -> dict[str, Any]:
        with self._lock:  # (the arrays a batch adds into in place, copied: a pickle is written after the lock is let go)
            self._settle()
            state = {name: value for name, value in super().__getstate__().items() if name not in ("_tally", "_behind", "_events", "_pending_kinds", "_pending_pairs")}
            return {**state, "_stored": state["_stored"].copy(), "_idle": state["_idle"].copy()}

    def __setstate__(self, state: dict[str, Any]) -> None:
        if isinstance(state.get("_kinds"), dict):  # counts pickled by evalkit 0.1.0: labels, a table with room to grow, kinds and pairs in dicts
            labels, pairs, tally, table = tuple(state["_labels"]), state["_pairs"], cast(Any, state.get("_tally")), cast(Any, state.get("_table", state.get("_sums")))
            sums = np.array([tally.diag, tally.row, tally.col]) if state.get("_behind") else table[:, : len(labels)]
            state = {"keep_pairs": pairs is not None, "_fixed": state["_fixed"] is not None, "_labels": labels, "_metrics_class": state["_metrics_class"],
                     "_stored": exact_counts(sums), "_stored_kinds": _of_counter(_SampleKinds, state["_kinds"]), "_stored_pairs": _of_counter(_SetPairs, pairs or {}),
                     "_rounded_earlier": sums.dtype.kind == "f" or any(isinstance(amount, float) for amount in state["_kinds"].values())}
        idle = state.get("_idle", np.zeros(len(state["_labels"]), dtype=np.int64))  # (pickles before weightless samples kept their labels)
        super().__setstate__({**state, "_idle": idle, "_pending_kinds": {}, "_pending_pairs": {}})

    @property
    def labels(self) -> tuple:
        """The labels seen (or fixed) so far, in the order they were added."""
        return self._labels

    @property
    def n_samples(self) -> float:
        """The number of samples counted (the sum of their weights, when weighted)."""
        with self._lock:
            tally = self._tally
            if tally is not None and self._behind:
                return tally.total
            sums = self._kinds.sums
            return int(sums.sum()) if sums.dtype.kind == "i" else float(rounded_counts(np.array([sums.sum()], dtype=object))[0])

    def _lookup(self) -> tuple:
        """The labels, the code of each, and a memo of events (``_event_memo``), for these labels."""
        found = self._events
        if found is None or found[0] is not self._labels:
            found = self._events = (self._labels, _event_memo(self._labels))
        return self._labels, self._label_index(), found[1]

    def _event_cell(self, actual: object, predicted: object) -> _SetEvent | None:
        """One sample of fixed labels as what it adds (the codes of the labels in both sets, in
        the actual and in the predicted set, its kind of sample, its pair of sets): a window
        finds it once and counts it in and out with ``_count_event``; None for anything else
        (labels that grow, a label outside them, a label twice in a set): ``update`` counts it."""
        if not self._fixed or type(actual) not in _SIMPLE_SETS or type(predicted) not in _SIMPLE_SETS:
            return None
        known, index, memo = self._lookup()
        key = None
        if memo is not None:  # text labels: a pair of sets seen before is the same event
            try:
                key = (frozenset(cast(Iterable[Hashable], actual)), frozenset(cast(Iterable[Hashable], predicted)))
            except TypeError:  # an unhashable label: update names it
                return None
            event = memo.get(key)
            if event is not None:
                return event
        codes: list[set[int]] = []
        for labels in (actual, predicted):
            found = {position_of(label, index, known) for label in cast(Iterable[Hashable], labels)}
            if None in found or len(found) != len(cast(Any, labels)):
                return None
            codes.append(cast("set[int]", found))
        truth, guess = codes
        both = truth & guess
        pair = key or (frozenset(cast(Iterable[Hashable], actual)), frozenset(cast(Iterable[Hashable], predicted))) if self.keep_pairs else None
        event = (tuple(both), tuple(truth), tuple(guess)), (len(both), len(truth), len(guess)), pair
        if memo is not None and key is not None:
            if len(memo) >= _MOST_EVENTS:
                memo.clear()
            memo[key] = event
        return event

    def _count_event(self, event: _SetEvent, amount: float, leaving: _SetEvent | None = None) -> bool:
        """Add ``amount`` (1, or -1 for a sample counted before) of one sample (``_event_cell``)
        to the running sums of a stream (``SetTally``), and take the sample ``leaving`` away (a
        full window's oldest); False, and nothing changed, for an amount that is not a whole one."""
        if type(amount) is not int:
            return False
        lock = self._lock
        lock.acquire()  # (not `with`: half the cost, on every event of a stream)
        try:
            if self._tally is None:
                self._tallied()  # (else a weighted sample's share: each cell counted in place)
            self._count_one(event, amount)
            if leaving is not None:
                self._count_one(leaving, -1)
        finally:
            lock.release()
        return True

    def _tallied(self) -> bool:
        """Make the running sums of a stream from the sums (the caller holds the lock), where
        every sum is a whole number (weights whose samples left a window leave whole sums);
        False where one is not (a weighted sample's share)."""
        sums, total = self._sums, self.n_samples
        if sums.dtype.kind == "O":  # exact float counts: whole ones as int64
            values = sums.ravel().tolist()
            if any(value % UNIT or value >= UNIT << 62 for value in values):
                return False  # (a share of a weight, or sums beyond int64: each cell counted in place)
            sums = np.array([value // UNIT for value in values], dtype=np.int64).reshape(sums.shape)
        if sums.dtype.kind != "i" or not float(total).is_integer():
            return False
        self._tally = SetTally(sums, int(total))
        return True

    def _count_one(self, event: _SetEvent, amount: int) -> None:
        """``_count_event`` of one sample (the caller holds the lock): in the running sums, or,
        where a weighted sample's share keeps them from running, in each cell of the sums."""
        rows, kind, pair = event
        tally = self._tally
        if tally is not None:
            tally.change(*rows, amount)
            self._behind = True
        else:
            sums = self._sums
            step = amount * UNIT if sums.dtype.kind == "O" else amount  # (exact float counts are in units)
            for row, codes in enumerate(rows):
                for code in codes:
                    sums[row, code] += step
        _add_amount(self._pending_kinds, kind, amount)
        if pair is not None:
            _add_amount(self._pending_pairs, pair, amount)

    def update(self, y_true: LabelsLike, y_pred: LabelsLike, *, sample_weight: ArrayLike | None = None) -> None:
        """Count a batch of label sets (one collection per sample each).

        Raises:
            UnknownLabelError: with fixed labels, a label outside them; and the errors of
                ``Evaluation.from_label_sets``.
        """
        counted = self._count(y_true, y_pred, sample_weight=sample_weight)
        with self._lock:  # counted outside, added inside: no update is lost
            self._add_counted(counted)

    def _count(self, y_true: LabelsLike, y_pred: LabelsLike, *, sample_weight: ArrayLike | None = None) -> tuple:
        """The batch's labels and, per label, per kind of sample and per pair of sets (with
        ``keep_pairs``), its sums."""
        true_sets, predicted_sets = (cast(Any, values) if list_column(values) is not None else as_label_set_list(values, name)
                                     for name, values in (("y_true", y_true), ("y_pred", y_pred)))  # fmt: skip
        if not len(true_sets) and not len(predicted_sets):
            return (), np.zeros((3, 0), dtype=np.int64), _SampleKinds.empty(), _SetPairs.empty(), np.zeros(0, dtype=np.int64)  # an empty batch counts nothing
        actual, predicted, found, n = encode_label_sets(true_sets, predicted_sets)  # the batch's own labels (a column of lists: from Arrow's codes)
        if self._fixed:
            known, index, _ = self._lookup()
            outside = [label for label in found if position_of(label, index, known) is None]
            if outside:
                raise UnknownLabelError(f"labels {show(outside)} are not among the fixed labels {show(list(known))}")
        weight = check_sample_weight(sample_weight, n)
        m = max(len(found), 1)
        both = np.intersect1d(actual, predicted, assume_unique=True)
        per_label = np.stack([_sums_by(keys % m, None if weight is None else weight[keys // m], len(found)) for keys in (both, actual, predicted)])
        per_sample = [np.bincount(keys // m, minlength=n) for keys in (both, actual, predicted)]
        base = int(max(per_sample[1].max(initial=0), per_sample[2].max(initial=0))) + 1  # each sample's kind as one number (a 1-D unique, not of rows)
        if base < 1 << 20:
            packed, inverse = np.unique((per_sample[0] * base + per_sample[1]) * base + per_sample[2], return_inverse=True)
            rows = list(zip((packed // (base * base)).tolist(), (packed // base % base).tolist(), (packed % base).tolist()))
        else:  # (a set of a million labels: kinds beyond one int64)
            table, inverse = np.unique(np.stack(per_sample, axis=1), axis=0, return_inverse=True)
            rows = list(map(tuple, table.tolist()))
        kinds = _SampleKinds._kept(tuple(rows), _sums_by(inverse.ravel(), weight, len(rows)))
        pairs = _SetPairs.empty()
        if self.keep_pairs:  # the samples' own pairs of sets
            sets = list(zip(map(frozenset, as_label_set_list(true_sets, "y_true")), map(frozenset, as_label_set_list(predicted_sets, "y_pred"))))
            pairs = _SetPairs.counted(sets, np.ones(n, dtype=np.int64) if weight is None else weight)
        idle = np.zeros(len(found), dtype=np.int64)
        if weight is not None and len(weight) and weight.min() == 0:  # samples of weight 0: their labels are labels still (each sample once)
            held = np.union1d(actual, predicted)
            idle = np.bincount(held[weight[held // m] == 0] % m, minlength=len(found)).astype(np.int64)
        return found, per_label, kinds, pairs, idle

    def _invalid(self) -> str | None:
        if self._idle.dtype.kind != "i":
            return "field 'idle' must hold whole numbers of samples of weight 0"
        sums, amounts, rows = self._sums, self._kinds.sums, np.array(self._kinds.keys, dtype=np.int64).reshape(-1, 3)
        if np.any(sums[0] > sums[1]) or np.any(sums[0] > sums[2]):
            return "a label is in both sets of more samples than hold it in one"
        whole = sums.dtype.kind == amounts.dtype.kind == "i"  # (float sums: equal to their rounding, which earlier documents' sums carry)
        amounts = amounts.tolist() if whole else rounded_counts(amounts).tolist()
        for k, row in enumerate(sums.tolist() if whole else rounded_counts(sums).tolist()):  # the labels the kinds of sample hold are the labels' own
            total = sum if whole else math.fsum
            labels, held = total(row), total(amount * size for amount, size in zip(amounts, rows[:, k].tolist()))
            if (labels != held) if whole else not math.isclose(labels, held, rel_tol=1e-9, abs_tol=1e-9 * max(math.fsum(amounts), 1.0)):  # (a residue earlier sums left)
                return "the labels' sums and the kinds of sample disagree"
        return None

    @classmethod
    def _read_document(cls, document: dict[str, Any], **options: object) -> LabelSetCounts:
        labels, before_idle = document.get("labels", document.get("fixed")), "idle" not in document
        if before_idle and isinstance(labels, list):  # (documents before weightless samples kept their labels: a window counts its batches again)
            document = {**document, "idle": [0] * len(labels)}
        if not isinstance(document.get("sums"), dict):
            counts = super()._read_document(document, **options)
            counts._rounded_earlier = before_idle
            return counts
        counts = super()._read_document(_from_release(document), **options)
        counts._rounded_earlier = True  # (0.1.0's: weighted, its float sums rounded; weightless samples' labels not kept)
        return counts

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
        if labels is None and self._fixed and average in TALLIED:
            lock = self._lock
            lock.acquire()  # (not `with`: half the cost, on every read of a stream)
            try:
                found = None if self._tally is None and not self._tallied() else tallied(self._tally, measure, average, undefined, parameters, metrics_class, self._metrics_class)
            finally:
                lock.release()
            if found is not None:
                return found
        return self.to_evaluation().average(measure, average, undefined=undefined, labels=labels, metrics_class=metrics_class, **parameters)

    def interval(self, measure: MeasureLike, average: str = "macro", **options: Any) -> Interval:
        """A bootstrap interval of a ``"micro"``, ``"macro"`` or ``"weighted"`` average of the
        counts kept with ``keep_pairs=True``: the kinds are the distinct (actual set, predicted
        set) pairs (``evalkit.indicators_interval``); ``options`` as there
        (``level``, ``method``, ``n_resamples``, ``random_state``, ``undefined``).

        Raises:
            UnsupportedSettingError: the counts were made without ``keep_pairs``.
        """
        if not self.keep_pairs:
            raise UnsupportedSettingError("an interval of a per-class average needs the pairs of sets: make the counts with keep_pairs=True")
        from evalkit._results import intervals  # resampling: imported when asked for

        held = self._held()  # (one state, whatever other threads count meanwhile)
        labels, pairs = list(held.to_evaluation().labels), held._pairs
        position = {label: k for k, label in enumerate(labels)}
        actual, predicted = (np.zeros((len(pairs.keys), len(labels)), dtype=np.int8) for _ in range(2))
        for row, (truth, guess) in enumerate(pairs.keys):
            actual[row, [position[label] for label in truth]] = 1
            predicted[row, [position[label] for label in guess]] = 1
        return intervals.indicators_interval(actual, predicted, measure, average, sample_weight=rounded_counts(pairs.sums), metrics_class=self._metrics_class, **options)

    def to_evaluation(self) -> Evaluation:
        """The counts as a (compacted) ``Evaluation``: every average works;
        per-sample vectors do not (the sample order is not kept).

        Raises:
            EmptyInputError: nothing was counted and no labels were fixed.
        """
        with self._lock:
            labels, sums, kinds, total = self._labels, rounded_counts(self._sums), self._kinds, self.n_samples
        if not labels and not kinds.keys:
            raise EmptyInputError("no label sets were counted and no 'labels' were given: nothing to evaluate")
        order = list(labels) if self._fixed else list(sorted_labels(labels, "labels"))
        if not kinds.keys:  # nothing counted over the labels, or samples that weigh nothing
            return Evaluation.from_label_sets([], [], order, metrics_class=self._metrics_class).compact()
        sums = sums[:, positions_in(order, labels)]
        class_cells = Cells.from_sums(sums[0], sums[1], sums[2], total)
        rows = np.array(kinds.keys, dtype=np.int64).reshape(-1, 3)
        sample_cells = Cells.from_sums(rows[:, 0], rows[:, 1], rows[:, 2], len(order), weight=rounded_counts(kinds.sums))
        evaluation = Evaluation(tuple(order), class_cells, sample_cells, "multi-label", ordered=False, metrics_class=self._metrics_class)
        return evaluation.compact()

    def __repr__(self) -> str:
        return f"LabelSetCounts(labels={list(self.labels)!r}, samples={self.n_samples})"


if not TYPE_CHECKING:  # the names this module gave in evalkit 0.1.0 and lost, found with a warning
    __getattr__ = moved_names.finder(__name__)

moved_names.publish("evalkit", globals(), ["LabelSetCounts"])  # given by the face on first use: named so from the start (pickles, reprs)
