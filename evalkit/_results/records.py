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
from evalkit._engine._labels import identity
from evalkit._engine._validation import show
from evalkit._engine.counting import encode
from evalkit._results._summed import SummedState
from evalkit._results.counted import ALL_OPERATIONS
from evalkit.exceptions import (
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
    """The records a bound of ``keep`` holds, oldest first, and how many it let go: a field of a
    declared kind that adds (the newest ``keep`` of both), takes away (a part's records, each
    the earliest of its kind; those the bound let go from ``dropped``), compares and writes itself.

    Examples:
        >>> first = KeptRecords(2, (Record("a", "a", 1), Record("a", "b", 2)))
        >>> both = first.plus(KeptRecords(2, (Record("b", "b", 3),)))
        >>> [record.id for record in both.items], both.dropped, both.minus(first, "records").items
        ([2, 3], 1, (Record(actual='b', predicted='b', id=3),))
    """

    keep: int
    items: tuple[Record, ...] = ()
    dropped: int = 0

    def plus(self, other: KeptRecords) -> KeptRecords:
        items = self.items + other.items
        cut = max(len(items) - self.keep, 0)
        return KeptRecords(self.keep, items[cut:], self.dropped + other.dropped + cut)

    def minus(self, other: KeptRecords, what: str) -> KeptRecords:
        """These records without ``other``'s, a part added to them: each of its records the
        earliest of its kind here; those not here were let go by the bound.

        Raises:
            InvalidCountsError: more records than these, kept and let go, hold.
        """
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
        return KeptRecords(self.keep, tuple(kept), self.dropped - other.dropped - missing)

    def equals(self, other: KeptRecords) -> bool:
        return self.keep == other.keep and self.dropped == other.dropped and list(map(_key, self.items)) == list(map(_key, other.items))

    def document(self) -> dict[str, object]:
        return {"records": [[record.actual, record.predicted, record.id] for record in self.items], "dropped": self.dropped}

    def read(self, document: dict[str, Any], codes_below: int) -> KeptRecords:
        """The records of a document, at most ``keep`` of them.

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
        return KeptRecords(self.keep, tuple(items), serialization.integer(document, "dropped", high=2**63 - 1))


def _is_id(value: object) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _ids(ids: object, n: int) -> list:
    """``ids`` as a list of ``n`` ids, each a whole number or a string.

    Raises:
        InvalidTypeError: not a sequence of whole numbers or strings.
        InputShapeError, InputLengthError: not one id per sample.
    """
    if isinstance(ids, (str, bytes, set, frozenset, dict)) or not hasattr(ids, "__len__"):
        raise InvalidTypeError(f"'ids' must be a sequence of ids (whole numbers or strings), one per sample, got {show(ids)}")
    array = np.asarray(ids, dtype=object) if not isinstance(ids, np.ndarray) else ids
    if array.ndim != 1:
        raise InputShapeError(f"'ids' must be 1-D (one id per sample), got shape {array.shape}")
    if len(array) != n:
        raise InputLengthError(f"'ids' has {len(array)} ids but the batch {n} samples")
    values = [value.item() if isinstance(value, np.generic) else value for value in array.tolist()]
    wrong = next((value for value in values if not _is_id(value)), None)
    if wrong is not None or (values and array.dtype.kind == "b"):
        raise InvalidTypeError(f"'ids' must hold whole numbers or strings, got {show(wrong if wrong is not None else values[0])}")
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
        if errors_only not in (True, False):
            raise InvalidTypeError(f"'errors_only' must be True or False, got {show(errors_only)}")
        self.keep, self.errors_only = int(keep), bool(errors_only)
        self._records = KeptRecords(self.keep)

    def _count(self, y_true: LabelsLike, y_pred: LabelsLike, ids: ArrayLike, *, sample_weight: ArrayLike | None = None) -> tuple[KeptRecords]:
        """The records of one batch: a sample's labels and id (``ids``, one per sample) where its
        weight is above 0 (and, with ``errors_only``, its prediction wrong), the newest ``keep``."""
        if len(y_true) == 0 == len(y_pred):  # type: ignore[arg-type]
            _ids(ids, 0)
            return (KeptRecords(self.keep),)
        actual, predicted, labels, weight = encode(y_true, y_pred, sample_weight=sample_weight)
        names = _ids(ids, len(actual))
        chosen = np.ones(len(actual), dtype=bool) if weight is None else weight > 0
        if self.errors_only:
            chosen &= actual != predicted
        rows = np.flatnonzero(chosen)
        cut = max(len(rows) - self.keep, 0)
        rows = rows[cut:]
        items = tuple(Record(labels[a], labels[p], names[k]) for a, p, k in zip(actual[rows].tolist(), predicted[rows].tolist(), rows.tolist()))
        return (KeptRecords(self.keep, items, cut),)

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
