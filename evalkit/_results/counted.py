"""The counted-state protocol: one set of operations for every result that is a state of sums.

Every number evalkit reports is a function of sums over samples, so every result that counts
is a state of sums, and the same operations apply to all of them, named once:

| operation | spelled | what it gives |
|---|---|---|
| merge | ``a.merge(b)``, ``a + b``, ``sum([a, b, ...])`` | the counts of both, as if counted together |
| subtract | ``a - b`` | ``a`` without ``b``, a part that was added to it (a sliding window's oldest batch) |
| scale | ``a.scaled(f)`` | every count times ``f`` > 0, as weights (a decayed past; a decayed result at its effective sample size) |
| revert | ``a.revert(*batch, sample_weight=w)`` | ``a`` without samples it counted, in place (River's ``revert``; a ``ConfusionMatrix`` takes one sample away in O(1)) |
| count | ``a.counted(*batch, sample_weight=w)`` | a new result of ``a``'s kind and settings counting one batch (what a window adds and takes away) |
| empty | ``a.empty()`` | the same settings and labels, nothing counted |
| copy | ``a.copy()`` | an independent copy (a mutable result's ``update`` leaves the copy alone) |
| equality | ``a == b`` | the same settings and the same counts |
| JSON | ``a.to_json()``, ``type(a).from_json(text)`` | a document that reads back equal |
| pickle | ``pickle.dumps(a)`` | bytes that load back equal |

Mutable kinds (``ConfusionMatrix`` and the stream counters) also count in place with
``update(...)``. A kind lists what it supports in ``OPERATIONS`` and refuses the rest with
``UnsupportedSettingError``, saying why (``REFUSED``). Distributed and streaming engines
(``evalkit._scale``) fold partitions and windows through these operations alone.

Examples:
    >>> from evalkit import ConfusionMatrix
    >>> monday = ConfusionMatrix.from_predictions(["a", "b", "b"], ["a", "b", "a"])
    >>> tuesday = ConfusionMatrix.from_predictions(["a", "b"], ["b", "b"], labels=["a", "b"])
    >>> week = monday + tuesday
    >>> (week - monday) == tuesday, week.scaled(0.5).get_total_items()
    (True, 2.5)
"""

from __future__ import annotations

import functools
import importlib
import json
import math
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, cast

import attrs
import numpy as np

from evalkit._engine import serialization
from evalkit._engine._labels import sorted_labels
from evalkit._engine._validation import show
from evalkit._engine.serialization import Document
from evalkit.exceptions import InvalidArgumentError, InvalidTypeError, MixedLabelTypesError, UnsupportedSettingError

if TYPE_CHECKING:
    from numpy.typing import ArrayLike
    from typing_extensions import Self  # typing.Self of Python 3.11, for type checkers only

__all__ = ["ALL_OPERATIONS", "FEW_SAMPLES", "BatchCount", "CountedState", "check_factor", "count_columns", "fold_columns", "in_label_order", "kinds_of_result", "merged_parts", "read_result", "result_document"]

ALL_OPERATIONS = frozenset({"update", "revert", "count", "merge", "subtract", "scale", "empty", "copy", "equality", "json", "pickle"})
"""Every operation of the protocol."""

FEW_SAMPLES = 8
"""Batches of at most this many samples (lists, unweighted) are counted one sample at a time by
the mutable kinds (a matrix's cells, an exact curve's score table), without encoding the batch:
what one event of a stream, or a sliding window's oldest, costs."""


def check_factor(factor: object, most: float = 1.0) -> float:
    """``factor`` as a float in (0, ``most``] (a decay: at most 1), finite.

    Raises:
        InvalidArgumentError: anything else (0, a negative number, above ``most``, NaN, infinity).
        InvalidTypeError: not a real number.

    Examples:
        >>> check_factor(0.5)
        0.5
    """
    span = "in (0, 1]" if most == 1.0 else "a finite number above 0"
    if isinstance(factor, bool) or not isinstance(factor, (int, float, np.integer, np.floating)):
        raise InvalidTypeError(f"'factor' must be {span}, got {show(factor)}")
    value = float(factor)
    if not (0.0 < value <= most) or not math.isfinite(value):
        raise InvalidArgumentError(f"'factor' must be {span}, got {show(factor)}")
    return value


class CountedState(Document):
    """The counted-state protocol (see the module): ``merge``/``+``, ``-``, ``scaled``,
    ``empty``, ``copy``, equality, JSON and pickle, with what a kind supports in ``OPERATIONS``.

    A kind implements ``merge``, ``empty`` and ``copy``, and where it supports them
    ``_subtract(other)`` and ``_scaled(factor)``; the checks and the operators live here.
    """

    __slots__ = ()

    OPERATIONS: ClassVar[frozenset[str]] = frozenset({"merge", "empty", "copy", "equality", "pickle"})
    """The operations of the protocol this kind supports."""

    REFUSED: ClassVar[Mapping[str, str]] = {}
    """Why this kind refuses an operation it does not support: operation -> reason."""

    EXACT_SUMS: ClassVar[bool] = False
    """The sums are exact for any weights: a part added and taken away again leaves no rounding."""

    WHOLE_COUNTS: ClassVar[bool] = False
    """Unweighted samples count as whole numbers (exactly): only weights make the counts round."""

    def supports(self, operation: str) -> bool:
        """Whether this kind supports ``operation`` (one of ``ALL_OPERATIONS``).

        Raises:
            InvalidArgumentError: not an operation of the protocol.
        """
        if operation not in ALL_OPERATIONS:
            raise InvalidArgumentError(f"'operation' must be one of {sorted(ALL_OPERATIONS)}, got {show(operation)}")
        return operation in self.OPERATIONS

    def _require(self, operation: str) -> None:
        if operation not in self.OPERATIONS:
            why = self.REFUSED.get(operation, "it is not defined for this kind")
            raise UnsupportedSettingError(f"{type(self).__name__} does not support {operation}: {why}")

    def _same_kind(self, other: object) -> bool:
        """Whether ``other`` is of this kind (this class, a subclass of it, or one it derives from)."""
        return isinstance(other, CountedState) and (isinstance(other, type(self)) or isinstance(self, type(other)))

    def _check_kind(self, other: object, operation: str) -> None:
        if not self._same_kind(other):
            raise InvalidTypeError(f"can only {operation} a {type(self).__name__}, got {show(other)}")

    def counted(self, *batch: Any, sample_weight: ArrayLike | None = None, **columns: Any) -> Self:
        """A new result of this kind and settings (labels, metrics class, bins) that counts one
        batch: what a window adds, and takes away when the batch leaves it. For the mutable
        kinds it is ``empty()`` updated with the batch.

        Raises:
            UnsupportedSettingError: this kind does not count batches (an immutable kind: its
                stream counter does).

        Examples:
            >>> from evalkit import ConfusionMatrix
            >>> ConfusionMatrix(["a", "b"]).counted(["a", "b"], ["b", "b"]).to_array().tolist()
            [[0, 1], [0, 1]]
        """
        self._require("count")
        part = self.empty()
        cast(Any, part).update(*batch, sample_weight=sample_weight, **columns)  # each mutable kind its own update (``columns``: its keyword columns)
        return part

    def revert(self, y_true: Any, y_pred: Any, /, *, sample_weight: ArrayLike | None = None) -> None:  # each kind its own inputs
        """Take away, in place, samples this result counted before (River's ``revert``): what a
        sliding window does with its oldest samples.

        Raises:
            UnsupportedSettingError: this kind does not take samples away in place (an
                immutable kind, or a stream counter: subtract a part, ``a - part``).
            InvalidCountsError: samples that were never counted; nothing is taken away then.
        """
        self._require("revert")
        raise NotImplementedError

    def merge(self, other: Self, *, grow: bool = False) -> Self:
        """The counts of both, as if counted together.

        ``grow=True`` lets labels that only ``other`` has join (``ConfusionMatrix``,
        ``Evaluation``); the labels of ``ByGroup`` and the stream counters always grow, and
        curves, calibrations and agreements need the same classes either way.
        """
        raise NotImplementedError

    def empty(self) -> Self:
        """The same settings and labels, nothing counted."""
        raise NotImplementedError

    def _keeps_order(self) -> bool:
        """Whether this result keeps its samples in the order they came (an ``Evaluation``'s
        per-sample cells): a window then counts the samples that stay of a batch that partly
        leaves before the later ones, not after them."""
        return False

    def _holds_nothing(self) -> bool:
        """Whether nothing is counted (a part taken away from what held only it): by default
        equal to ``empty()``; a kind whose empty state also reads other settings says otherwise."""
        return bool(self == self.empty())

    def copy(self) -> Self:
        """An independent copy. The immutable kinds (attrs classes) share their read-only arrays
        with it; the mutable ones (``ConfusionMatrix``, the stream counters) copy their counts."""
        return attrs.evolve(cast(Any, self))

    def _subtract(self, other: Self) -> Self:
        raise NotImplementedError

    def _scaled(self, factor: float) -> Self:
        raise NotImplementedError

    def __add__(self, other: object) -> Self:
        if not self._same_kind(other):
            return NotImplemented
        return self.merge(cast("Self", other))

    def __radd__(self, other: object) -> Self:
        """``0 + a`` is a copy of ``a``, so that ``sum([a, b, ...])`` merges."""
        if isinstance(other, int) and not isinstance(other, bool) and other == 0:
            return self.copy()
        return NotImplemented

    def __sub__(self, other: object) -> Self:
        """``a - b``: ``a`` without ``b``, a part that was added to it.

        Raises:
            UnsupportedSettingError: this kind does not subtract.
            InvalidCountsError: ``b`` holds counts that ``a`` does not (it was never added).
            LabelMismatchError: other labels.
        """
        if not isinstance(other, CountedState):
            return NotImplemented
        self._require("subtract")
        self._check_kind(other, "subtract")
        return self._subtract(cast("Self", other))

    def scaled(self, factor: float) -> Self:
        """Every count times ``factor`` > 0, as weighted counts: what decay does to the past
        (``factor`` in (0, 1]), or a decayed result resized to its effective sample size.

        Raises:
            UnsupportedSettingError: this kind does not scale.
            InvalidArgumentError: ``factor`` not a finite number above 0.
        """
        self._require("scale")
        checked = check_factor(factor, most=math.inf)
        return self.copy() if checked == 1.0 else self._scaled(checked)


Kind = TypeVar("Kind", bound=CountedState)
"""A kind of counted result."""


@attrs.frozen
class BatchCount(Generic[Kind]):
    """How a kind that is a value (``Evaluation``, ``ThresholdCurve``, ``Calibration``,
    ``ByGroup``) counts one batch: its constructor of a batch, ``build``, with its settings
    ``options`` fixed. ``counted(*batch, sample_weight=w)`` is ``build(*batch, sample_weight=w,
    **options)``, as a mutable kind's ``template.counted(...)``: what the engines' folds count
    each partition with.

    Examples:
        >>> from evalkit import ThresholdCurve
        >>> count = BatchCount(ThresholdCurve.from_scores, {"pos_label": 1})
        >>> count.counted([0, 1, 1], [0.2, 0.9, 0.4]).roc_auc()
        1.0
    """

    build: Callable[..., Kind]
    options: Mapping[str, object] = attrs.field(factory=dict)

    def counted(self, *batch: Any, sample_weight: object = None, **columns: object) -> Kind:
        """The result of one batch (``columns``: its keyword columns, as a mask)."""
        return self.build(*batch, sample_weight=sample_weight, **self.options, **columns)


def fold_columns(columns: Sequence[object], names: Sequence[str], named: Mapping[str, object], weight: object, weight_name: str = "sample_weight") -> dict[str, object]:
    """How a fold lays out a part's columns, each under the name errors give it: the positional
    columns (``names`` first, then ``columns[i]``), the keyword columns given (``None``: not
    given) and the weight last, if given. ``count_columns`` reads them back in this order.

    Raises:
        InvalidArgumentError: more names than columns, a name twice, or the name of a keyword
            column or of the weight (the columns would be counted under each other's names).

    Examples:
        >>> list(fold_columns(["t", "p", "m"], ["y_true"], {"mask": "k", "edges": None}, None))
        ['y_true', 'columns[1]', 'columns[2]', 'mask']
    """
    called = [*names, *(f"columns[{i}]" for i in range(len(names), len(columns)))]
    keywords = {key: values for key, values in named.items() if values is not None}
    taken = [*called, *keywords, weight_name]
    if len(names) > len(columns) or len(set(taken)) < len(taken):
        raise InvalidArgumentError(f"'names' must name the {len(columns)} columns once each, apart from the keyword columns and {weight_name!r}, got {show(list(names))}")
    return {**dict(zip(called, columns)), **keywords, **({} if weight is None else {weight_name: weight})}


def count_columns(template: Kind | BatchCount[Kind], keywords: Sequence[str], weighted: bool, *arrays: object) -> Kind:
    """``template.counted`` of one part's arrays laid out by ``fold_columns``: the positional
    columns, then the keyword columns ``keywords``, then the weight if ``weighted``."""
    given = len(arrays) - len(keywords) - weighted
    named = dict(zip(keywords, arrays[given : given + len(keywords)]))
    return template.counted(*arrays[:given], sample_weight=cast(Any, arrays[-1]) if weighted else None, **named)


def in_label_order(result: Kind, fixed: Sequence[Hashable] | None, what: str) -> Kind:
    """A fold's result (of a kind with ``labels`` and ``with_labels``) in the label order of
    counting it at once: ``fixed`` as given, or sorted (the parts' labels joined in the order
    they merged)."""
    return result if fixed is not None else cast(Kind, cast(Any, result).with_labels(sorted_labels(list(cast(Any, result).labels), what)))


def merged_parts(results: Any, what: str) -> Any:
    """The merge of partitions' results through the protocol alone, for every kind
    (``merge(..., grow=True)``: labels one partition lacks join), what distributed engines fold
    (Dask, Spark); an empty partition's ``None`` adds nothing, and no result at all is
    ``None``. ``what`` names the columns in an error.

    Examples:
        >>> from evalkit import ConfusionMatrix
        >>> parts = [ConfusionMatrix.from_predictions(["a"], ["a"]), None, ConfusionMatrix.from_predictions(["b"], ["a"])]
        >>> merged_parts(parts, "y_true/y_pred").labels
        ('a', 'b')
    """
    present = [result for result in results if result is not None]
    try:
        return functools.reduce(lambda total, part: total.merge(part, grow=True), present) if present else None
    except MixedLabelTypesError as error:
        raise MixedLabelTypesError(f"a partition of {what} does not merge with another: {error}") from None


def result_document(result: CountedState) -> dict[str, Any]:
    """A result's own JSON document, as a value inside another document (a window's)."""
    document: dict[str, Any] = json.loads(result.to_json())
    return document


def kinds_of_result(base: type[CountedState] | None = None) -> Iterator[type[CountedState]]:
    """Every kind of counted result (imported so far), ``base``'s subclasses and theirs."""
    for kind in (base or CountedState).__subclasses__():
        yield kind
        yield from kinds_of_result(kind)


def read_result(document: object, name: str, options: dict[str, Any]) -> CountedState:
    """The counted result of a document inside another (its kind named by its ``evalkit``
    field; ``options`` go to the kind's ``from_json``).

    Examples:
        >>> from evalkit import ConfusionMatrix
        >>> read_result(result_document(ConfusionMatrix(["a", "b"])), "result", {}).labels
        ('a', 'b')
    """
    kind_name = document.get("evalkit") if isinstance(document, dict) else None

    def named() -> list[type[CountedState]]:
        return [kind for kind in kinds_of_result() if kind.__dict__.get("DOCUMENT") == kind_name]

    kinds = named()
    if not kinds and isinstance(kind_name, str):  # a kind the package gives on first use (its module not imported yet)
        face = importlib.import_module("evalkit")
        if kind_name in face.__all__:
            getattr(face, kind_name)
            kinds = named()
    if not kinds:
        raise serialization.FormatError(f"field {name!r} must be the document of a counted result, got {show(document)}")
    found: CountedState = kinds[0].from_json(json.dumps(document), **options)
    return found
