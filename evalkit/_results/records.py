"""Which samples fell in which cell of a confusion matrix: their records, kept by id.

DL4J's ``Evaluation``, given each example's ``RecordMetaData``, keeps a ``Prediction`` (actual
class, predicted class, record) per example and reads them back with ``getPredictionErrors()``,
``getPredictionsByActualClass(c)``, ``getPredictionByPredictedClass(c)`` and
``getPredictions(actual, predicted)``: what a user who asks *which* samples were wrong needs.
``PredictionRecords`` keeps the same records beside any count of the same samples, bounded: the
most recent ``keep`` records, in the order batches and merges bring them, and how many records
the bound let go (``dropped``). A sample of weight 0 counts for nothing and leaves no record.

It is a declared kind (``evalkit._results._summed``): it merges (``a + b``), takes away a part
merged into it (``a - part``: a sliding window's oldest batch), writes JSON, pickles and folds on
Dask and Spark as every count does. A window's records are exactly those of its samples counted
afresh when the part that leaves is its oldest (the bound keeps the newest records, so the
oldest part's are the first to go) or nothing was dropped; ``len(records) + dropped`` is always
the number of records its samples give. Records have no weights, so they do not scale (a faded
past keeps no records: count them in a ``Windowed``).

Examples:
    >>> records = PredictionRecords(keep=100)
    >>> records.update(["cat", "dog", "dog"], ["cat", "cat", "dog"], ["img-1", "img-2", "img-3"])
    >>> records.errors()
    [Record(actual='dog', predicted='cat', id='img-2')]
    >>> [record.id for record in records.records(actual="dog")]
    ['img-2', 'img-3']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

import attrs
import numpy as np

from evalkit._engine import serialization
from evalkit._engine._labels import check_same_family, identity
from evalkit._engine._validation import check_sample_weight, is_empty, show
from evalkit._engine.counting import encode
from evalkit._results._summed import SummedState
from evalkit._results.counted import ALL_OPERATIONS
from evalkit.exceptions import (
    EvalkitError,
    InputLengthError,
    InputShapeError,
    InvalidArgumentError,
    InvalidCountsError,
    InvalidTypeError,
)

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from evalkit._engine._types import LabelsLike

__all__ = ["KeptRecords", "PredictionRecords", "Record"]


class Record(NamedTuple):
    """One sample's record: its actual and predicted labels and its id (DL4J's ``Prediction``:
    ``actualClass``, ``predictedClass``, ``recordMetaData``)."""

    actual: Hashable
    predicted: Hashable
    id: int | str


Record.__qualname__ = "PredictionRecords.Record"  # (found there by pickles: PredictionRecords.Record is its public path)
_Row = Record  # (the type, where a method of PredictionRecords would find its attribute Record)


def _key(record: Record) -> tuple:
    """A record by the identity of its values (``True`` is not ``1``, nor ``"1"`` the label ``1``)."""
    return identity(record.actual), identity(record.predicted), identity(record.id)


@attrs.frozen
class KeptRecords:
    """The records a bound of ``keep`` holds, oldest first, and how many it let go (always the
    oldest): a field of a declared kind that adds (the newest ``keep`` of both), takes away (a
    part's records where they are: the oldest, else the newest, else each the earliest of its
    kind), compares and writes itself.

    Examples:
        >>> first = KeptRecords(2, (Record("a", "a", 1), Record("a", "b", 2)))
        >>> both = first.plus(KeptRecords(2, (Record("b", "b", 3),)))
        >>> [record.id for record in both.items], both.dropped, both.minus(first, "records").items
        ([2, 3], 1, (Record(actual='b', predicted='b', id=3),))
    """

    keep: int
    items: tuple[Record, ...] = ()
    dropped: int = 0
    errors_only: bool = attrs.field(default=False, kw_only=True)  # (what a document's records may be: wrong predictions only)

    def plus(self, other: KeptRecords) -> KeptRecords:
        """Both parts' records, these first, the newest ``keep`` of them.

        Raises:
            MixedLabelTypesError: labels of another family (``1`` beside ``"1"``).
        """
        if self.items and other.items:  # (each part's labels are of one family: its first stands for all)
            check_same_family([self.items[0].actual], [other.items[0].actual], ("these records", "the other"))
        items = self.items + other.items
        cut = max(len(items) - self.keep, 0)
        return attrs.evolve(self, items=items[cut:], dropped=self.dropped + other.dropped + cut)

    def minus(self, other: KeptRecords, what: str) -> KeptRecords:
        """These records without ``other``'s, a part added to them. Where its records are the
        oldest here (a window's oldest part; those the bound let go the first of them), the
        oldest go (also where they are the newest too: the same records at both ends); else
        where they are the newest (its latest batch), the newest; else each of its records, the
        earliest of its kind, those not here having been let go.

        Raises:
            InvalidCountsError: more records than these, kept and let go, hold.
        """
        taken = len(other.items) + other.dropped  # (the part's records, kept or let go)
        if taken > len(self.items) + self.dropped:
            raise InvalidCountsError(f"{what}: the part holds {taken} records, more than these {len(self.items) + self.dropped}")
        front = max(taken - self.dropped, 0)  # the part the oldest: these records' first, after those let go
        if front <= len(other.items) and _same_keys(self.items[:front], other.items[len(other.items) - front :]):
            return attrs.evolve(self, items=self.items[front:], dropped=self.dropped - (taken - front))
        if other.items and _same_keys(self.items[len(self.items) - len(other.items) :], other.items):  # the newest
            return attrs.evolve(self, items=self.items[: len(self.items) - len(other.items)], dropped=self.dropped - other.dropped)
        wanted, kept = Counter(map(_key, other.items)), []
        for record in self.items:
            key = _key(record)
            if wanted[key]:
                wanted[key] -= 1
            else:
                kept.append(record)
        missing = sum(wanted.values())
        if missing > self.dropped - other.dropped:
            raise InvalidCountsError(f"{what}: the part holds records these never counted ({missing} not kept here, {self.dropped} let go)")
        return attrs.evolve(self, items=tuple(kept), dropped=self.dropped - other.dropped - missing)

    def equals(self, other: KeptRecords) -> bool:
        return self.keep == other.keep and self.dropped == other.dropped and _same_keys(self.items, other.items)

    def document(self) -> dict[str, object]:
        return {"records": [[record.actual, record.predicted, record.id] for record in self.items], "dropped": self.dropped}

    def read(self, document: dict[str, Any], codes_below: int) -> KeptRecords:
        """The records of a document, at most ``keep`` of them, their labels of one family.

        Raises:
            FormatError: not ``[actual, predicted, id]`` rows of labels and ids, or more than ``keep``.
        """
        rows = serialization.field(document, "records")
        if not isinstance(rows, list) or len(rows) > self.keep:
            raise serialization.FormatError(f"field 'records' must list at most {self.keep} [actual, predicted, id] rows, got {show(rows)}")
        items = []
        for row in rows:
            if not isinstance(row, list) or len(row) != 3 or None in row[:2] or not _is_id(row[2]):
                raise serialization.FormatError(f"field 'records' must hold [actual label, predicted label, id (a whole number or a string)] rows, got {show(row)}")
            items.append(Record(serialization.scalar_label(row[0], "records"), serialization.scalar_label(row[1], "records"), row[2]))
        try:
            check_same_family([record.actual for record in items], [record.predicted for record in items], ("records", "records"))
        except EvalkitError as error:
            raise serialization.FormatError(f"field 'records': {error}") from None
        if self.errors_only and any(identity(record.actual) == identity(record.predicted) for record in items):
            raise serialization.FormatError("field 'records' holds a right prediction, but only errors are kept (errors_only)")
        return attrs.evolve(self, items=tuple(items), dropped=serialization.integer(document, "dropped", high=2**63 - 1))


def _same_keys(first: tuple[Record, ...], second: tuple[Record, ...]) -> bool:
    return len(first) == len(second) and all(_key(a) == _key(b) for a, b in zip(first, second))


def _is_id(value: object) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


_ID_KINDS = frozenset("iuU")
"""The dtype kinds of numpy arrays of ids: whole numbers and strings."""


def _ids(ids: object, n: int) -> np.ndarray | list:
    """``ids``, one per sample, each a whole number or a string: an array of a dtype of ids as it
    is, else a list (numpy values as Python's), checked without a Python object per id where the
    array's dtype says what they are.

    Raises:
        InvalidTypeError: not a sequence of whole numbers or strings.
        InputShapeError, InputLengthError: not one id per sample.
    """
    if isinstance(ids, (str, bytes, set, frozenset, dict)) or not hasattr(ids, "__len__"):
        raise InvalidTypeError(f"'ids' must be a sequence of ids (whole numbers or strings), one per sample, got {show(ids)}")
    array = ids if isinstance(ids, np.ndarray) else np.asarray(ids, dtype=object) if isinstance(ids, (list, tuple)) else np.asarray(ids)
    if array.ndim != 1:
        raise InputShapeError(f"'ids' must be 1-D (one id per sample), got shape {array.shape}")
    if len(array) != n:
        raise InputLengthError(f"'ids' has {len(array)} ids but the batch {n} samples")
    if array.dtype.kind in _ID_KINDS:
        return array
    values = [value.item() if isinstance(value, np.generic) else value for value in array.tolist()]
    wrong = [value for value in values if not _is_id(value)][:1]
    if wrong:
        raise InvalidTypeError(f"'ids' must hold whole numbers or strings, got {show(wrong[0])}")
    return values


class PredictionRecords(SummedState):
    """The records (actual label, predicted label, id) of the samples counted, the most recent
    ``keep`` of them (see the module).

    Args:
        keep: the most records kept (the newest; a whole number >= 1).
        errors_only: keep the records of wrong predictions only (``actual != predicted``).

    Examples:
        >>> records = PredictionRecords(errors_only=True)
        >>> records.update([0, 1, 1, 2], [0, 2, 1, 1], [10, 11, 12, 13])
        >>> records.errors(), records.dropped
        ([Record(actual=1, predicted=2, id=11), Record(actual=2, predicted=1, id=13)], 0)
    """

    DOCUMENT = "PredictionRecords"
    SETTINGS, SUMS = ("keep", "errors_only"), ("_records",)
    OPERATIONS: ClassVar[frozenset[str]] = ALL_OPERATIONS - {"scale"}
    REFUSED: ClassVar[dict[str, str]] = {"scale": "records are samples, not weights: a faded past keeps no records (count them in a Windowed)"}
    Record: ClassVar[type[Record]] = Record

    def __init__(self, keep: int = 1000, *, errors_only: bool = False) -> None:
        if isinstance(keep, bool) or not isinstance(keep, (int, np.integer)) or keep < 1:
            raise InvalidArgumentError(f"'keep' must be a whole number >= 1, got {show(keep)}")
        if not isinstance(errors_only, (bool, np.bool_)):
            raise InvalidTypeError(f"'errors_only' must be True or False, got {show(errors_only)}")
        self.keep, self.errors_only = int(keep), bool(errors_only)
        self._records = KeptRecords(self.keep, errors_only=self.errors_only)

    def _count(self, y_true: LabelsLike, y_pred: LabelsLike, ids: ArrayLike, *, sample_weight: ArrayLike | None = None) -> tuple[KeptRecords]:
        """The records of one batch: a sample's labels and id (``ids``, one per sample) where its
        weight is above 0 (and, with ``errors_only``, its prediction wrong), the newest ``keep``."""
        if is_empty(y_true) and is_empty(y_pred):  # (no labels to encode: nothing kept, the other columns checked)
            check_sample_weight(sample_weight, 0)
            _ids(ids, 0)
            return (KeptRecords(self.keep, errors_only=self.errors_only),)
        actual, predicted, labels, weight = encode(y_true, y_pred, sample_weight=sample_weight)
        names = _ids(ids, len(actual))
        chosen = np.ones(len(actual), dtype=bool) if weight is None else weight > 0
        if self.errors_only:
            chosen &= actual != predicted
        rows = np.flatnonzero(chosen)
        cut = max(len(rows) - self.keep, 0)
        rows = rows[cut:]
        kept = names[rows].tolist() if isinstance(names, np.ndarray) else [names[k] for k in rows.tolist()]  # (the ids of the records kept alone)
        items = tuple(Record(labels[a], labels[p], name) for a, p, name in zip(actual[rows].tolist(), predicted[rows].tolist(), kept))
        return (KeptRecords(self.keep, items, cut, errors_only=self.errors_only),)


    @property
    def dropped(self) -> int:
        """How many records the bound let go (0: the records are every sample's)."""
        return int(self._records.dropped)

    def records(self, actual: Hashable | None = None, predicted: Hashable | None = None) -> list[_Row]:
        """The records kept, oldest first; of one actual label, one predicted label, or both
        (one cell): DL4J's ``getPredictionsByActualClass``, ``getPredictionByPredictedClass``
        and ``getPredictions``."""
        wanted = [(position, identity(label)) for position, label in ((0, actual), (1, predicted)) if label is not None]
        return [record for record in self._records.items if all(identity(record[position]) == label for position, label in wanted)]

    def errors(self) -> list[_Row]:
        """The records of wrong predictions (``actual != predicted``), oldest first: DL4J's
        ``getPredictionErrors``."""
        return [record for record in self._records.items if identity(record.actual) != identity(record.predicted)]

    def __repr__(self) -> str:
        return f"PredictionRecords(keep={self.keep}, errors_only={self.errors_only}, records={len(self._records.items)}, dropped={self.dropped})"
