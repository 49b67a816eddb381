"""Neighborhood systems: absolute accuracy (AA) and relative accuracy rate (RAR).

The neighborhood-system paper ("New perspective on the classification accuracy based on neighborhood system")
judges a classification result ``P' = (P'_1, …, P'_m)`` against the ideal one
``P = (P_1, …, P_m)``, both families of subsets of one universe ``U`` (block ``i`` holds the
samples with label ``i``), so that single-label (partition) and multi-label (covering) results
are measured alike:

* ``T_pos = Σ_i |P_i ∩ P'_i|``, the correct sample-label assignments;
* ``AA = T_pos / Σ_i |P_i|`` (for a partition ``Σ_i |P_i| = |U|``);
* ``RAR = T_pos / T_neg`` with ``T_neg = Σ_{r∈U} max(|Q'(r) - Q(r)|, |Q(r) - Q'(r)|)``, where
  ``Q(r)`` are the subscripts of the ideal blocks containing ``r`` (``Q_NS(r)``) and ``Q'(r)``
  the result's.

In indicator form (samples x labels) ``T_pos = σ1(A∘P)`` and ``Σ|P_i| = σ1(A)``, so AA is the
micro recall; ``|Q'(r) - Q(r)|`` is row ``r``'s false positives and ``|Q(r) - Q'(r)|`` its
false negatives, so ``T_neg = Σ_r max(fp_r, fn_r)``. evalkit computes them that way, on the
counting core of ``Evaluation`` (row blocks for dense indicators, sparse keys for
sets), and keeps the paper's set-based API on top.

Examples:
    >>> ideal = Covering("abcdefg", [{"b", "c", "d"}, {"e", "f"}, {"a", "g"}])
    >>> result = Covering("abcdefg", [{"b", "c"}, {"e", "f"}, {"a", "d", "g"}])
    >>> accuracy = NeighborhoodSystem(ideal).evaluate(result)  # the paper's Example 1
    >>> accuracy.get_absolute_accuracy(exact=True), accuracy.get_relative_accuracy_rate(exact=True)
    (Fraction(6, 7), Fraction(6, 1))
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from fractions import Fraction
from functools import cached_property
from typing import Any

import attrs
import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine import serialization
from evalkit._engine._labels import check_label_list, describe, same_labels
from evalkit._engine._types import LabelSets
from evalkit._engine._validation import (
    RandomState,
    as_array,
    check_choice,
    check_ordered,
    check_sample_weight,
    read_only,
    show,
)
from evalkit._engine.cells import Cells, indicator_cells, key_cells, row_sums, unique_sorted
from evalkit._engine.counting import encode_label_set_family
from evalkit._engine.serialization import DocumentValue
from evalkit._results import intervals
from evalkit._results.evaluation import Evaluation
from evalkit.exceptions import (
    DuplicateLabelError,
    EmptyInputError,
    EvalkitError,
    InputShapeError,
    InvalidTypeError,
    InvalidValueError,
    LabelMismatchError,
    UnknownElementError,
    UnsupportedSettingError,
)
from evalkit.measures._averaging import UndefinedPolicy, mean_of_ratios, ratio

__all__ = ["Covering", "NeighborhoodAccuracy", "NeighborhoodSystem"]

CASES = {
    ("partition", "partition"): "4.1.1 (1): the ideal is a partition, the result a partition",
    ("partition", "covering"): "4.1.1 (2): the ideal is a partition, the result a covering",
    ("covering", "partition"): "4.1.2 (1): the ideal is a covering, the result a partition",
    ("covering", "covering"): "4.1.2 (2): the ideal is a covering, the result a covering",
}
"""The four conditions of section 4.1, by (ideal kind, result kind)."""


def _element(element: Any) -> Any:
    """A universe element: any hashable value but NaN (which equals nothing, itself included)."""
    try:
        hash(element)
    except TypeError:
        raise InvalidTypeError(f"'universe' elements must be hashable, got {show(element)}") from None
    if isinstance(element, float) and math.isnan(element):
        raise InvalidValueError("'universe' contains NaN, which cannot be told apart from itself")
    return element.item() if isinstance(element, np.generic) else element


def _same_universe(first: Sequence, second: Sequence) -> bool:
    """The same elements in the same order (a range and a tuple may be equal)."""
    return first == second if type(first) is type(second) else tuple(first) == tuple(second)


def _written_universe(universe: Sequence) -> list | None:
    """A universe as a document lists it: ``None`` for the elements ``0 .. n-1`` (implied),
    whether a range or a tuple holds them."""
    if isinstance(universe, range) and universe.start == 0 and universe.step == 1:
        return None
    elements = list(universe)
    return None if all(not isinstance(element, bool) and element == k for k, element in enumerate(elements)) else elements


def _not_in(element: object, index: dict) -> bool:
    try:
        return element not in index
    except TypeError:  # unhashable: certainly not an element
        return True


def _nonempty(values: Sequence, message: str) -> None:
    """A family has elements and blocks: an empty universe or no block at all is refused the
    same way by every constructor (and by ``from_json``)."""
    if len(values) == 0:
        raise EmptyInputError(message)


def _universe(universe: object) -> tuple:
    if isinstance(universe, (str, bytes)):
        universe = tuple(universe)  # "abcdefg" is the paper's shorthand for seven one-letter elements
    if not isinstance(universe, Iterable):
        raise InvalidTypeError(f"'universe' must be a collection of hashable elements, got {show(universe)}")
    elements = tuple(_element(element) for element in universe)
    if not elements:
        raise EmptyInputError("'universe' is empty: a neighborhood system needs a non-empty universe")
    if len(set(elements)) != len(elements):
        seen: set = set()
        for element in elements:
            if element in seen:
                raise DuplicateLabelError(f"'universe' contains {describe(element)} twice")
            seen.add(element)
    return elements


@attrs.frozen(eq=False, init=False)
class Covering(DocumentValue):
    """A universe ``U`` and a family of labelled blocks (subsets of ``U``), in block order.

    It is a *covering* when every block is non-empty and their union is ``U``, and a
    *partition* when the blocks are moreover pairwise disjoint. A classifier's result need
    not be either (a sample may get no label, a label may be given to nobody), and such
    families are represented and measured too.

    Args:
        universe: the elements (any hashable values; a string stands for its characters).
        blocks: one collection of elements per block.
        labels: the block labels; by default the paper's numbering ``1 .. m``.

    Raises:
        EmptyInputError: an empty universe.
        UnknownElementError: a block element outside the universe.
        DuplicateLabelError: an element or a block label given twice.
        InvalidTypeError: unhashable elements, or a block that is not a collection.

    Examples:
        >>> c = Covering("abcdefg", [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "d", "g"}])
        >>> sorted(c.subscripts("a")), sorted(c.subscripts("d")), sorted(c.neighborhood("d"))
        ([2, 3], [1, 3], ['d'])
        >>> c.is_covering(), c.is_partition(), sorted(c.overlapped_elements())
        (True, False, ['a', 'd'])
    """

    DOCUMENT = "Covering"

    universe: Sequence = attrs.field(validator=lambda _, __, value: _nonempty(value, "'universe' is empty: a neighborhood system needs a non-empty universe"))
    labels: tuple = attrs.field(validator=lambda _, __, value: _nonempty(value, "there are no blocks: a family of sets needs at least one block (label)"))
    _dense: np.ndarray | None = attrs.field(repr=False, converter=attrs.converters.optional(read_only))
    _keys: np.ndarray | None = attrs.field(repr=False, converter=attrs.converters.optional(read_only))
    _memo: dict = attrs.field(init=False, factory=dict, repr=False)  # derived data, found when first needed

    def __init__(self, universe: Iterable[Hashable], blocks: Sequence[Iterable[Hashable]], labels: Sequence[Hashable] | None = None) -> None:
        elements = _universe(universe)
        if isinstance(blocks, (str, bytes)) or not isinstance(blocks, Iterable):
            raise InvalidTypeError(f"'blocks' must be a sequence of collections of elements, got {show(blocks)}")
        blocks = list(blocks)
        for position, block in enumerate(blocks):
            if isinstance(block, (str, bytes)) or not isinstance(block, Iterable):
                raise InvalidTypeError(f"'blocks[{position}]' must be a collection of elements, got {show(block)}")
        names = _block_labels(labels, len(blocks))
        index = {element: i for i, element in enumerate(elements)}
        m = len(blocks)
        keys = [np.zeros(0, dtype=np.int64)]
        for j, block in enumerate(blocks):
            members = list(block)
            try:
                positions = np.fromiter(map(index.__getitem__, members), dtype=np.int64, count=len(members))
            except (KeyError, TypeError):
                outside = next(element for element in members if _not_in(element, index))
                raise UnknownElementError(
                    f"'blocks[{j}]' contains {describe(outside)}, which is not in 'universe' {show(list(elements))}"
                ) from None
            keys.append(positions * m + j)
        self.__attrs_init__(elements, names, None, unique_sorted(np.concatenate(keys)))

    # ----------------------------------------------------------------------------------------
    # other constructors and conversions

    @classmethod
    def _build(cls, universe: Sequence, labels: tuple, dense: np.ndarray | None, keys: np.ndarray | None) -> Covering:
        covering = cls.__new__(cls)
        covering.__attrs_init__(universe, labels, dense, keys)
        return covering

    @classmethod
    def from_labels(cls, labels_per_element: Any, *, universe: Iterable[Hashable] | None = None, labels: Sequence[Hashable] | None = None) -> Covering:
        """A partition (single-label data): ``labels_per_element[i]`` is the label of element ``i``.

        Blocks are the labels (sorted, or ``labels`` in order); ``universe`` defaults to
        ``0 .. n-1``.

        Examples:
            >>> Covering.from_labels(["x", "y", "x"]).to_sets()
            (frozenset({0, 2}), frozenset({1}))
        """
        check_ordered(labels_per_element, "labels_per_element")
        values = list(labels_per_element) if not isinstance(labels_per_element, np.ndarray) else labels_per_element.tolist()
        return cls.from_label_sets([(value,) for value in values], universe=universe, labels=labels)

    @classmethod
    def from_label_sets(cls, label_sets: LabelSets, *, universe: Iterable[Hashable] | None = None, labels: Sequence[Hashable] | None = None) -> Covering:
        """A family from one label set per element (multi-label data, like Table 1 of the neighborhood-system paper).

        Examples:
            >>> table_1 = [{2, 3}, {1}, {1}, {1}, {2}, {2}, {3}]
            >>> Covering.from_label_sets(table_1, universe="abcdefg").to_sets()[1] == frozenset("aef")
            True
        """
        keys, found, n = encode_label_set_family(label_sets, labels)
        elements = range(n) if universe is None else _universe(universe)
        if len(elements) != n:
            raise InputShapeError(f"'universe' has {len(elements)} elements but there are {n} label sets")
        return cls._build(elements, found, None, keys)

    @classmethod
    def from_indicators(cls, matrix: ArrayLike, universe: Iterable[Hashable] | None = None, labels: Sequence[Hashable] | None = None) -> Covering:
        """A family from a 0/1 indicator matrix (elements x blocks), without building sets.

        Blocks are labelled by their columns, ``0 .. m-1``, as ``Evaluation.from_indicators``
        labels its columns (the paper's numbering from 1 is the default of ``Covering(universe,
        blocks)``). A bool matrix is used as it is, through a read-only view (not copied: a large
        indicator is not duplicated, so do not change it while the covering is in use); other
        dtypes are checked to hold only 0 and 1 and converted.

        Examples:
            >>> sorted(Covering.from_indicators([[1, 0], [1, 1]], universe="pq", labels=["x", "y"]).subscripts("q"))
            ['x', 'y']
        """
        array = as_array(matrix, "matrix")
        if array.ndim != 2:
            raise InputShapeError(f"'matrix' must be 2-D (elements x blocks), got shape {array.shape}")
        if array.dtype != np.bool_ and (array.dtype.kind not in "iuf" or not ((array == 0) | (array == 1)).all()):
            bad = array[(array != 0) & (array != 1)].ravel()[:1].tolist() if array.dtype.kind in "iuf" else [array.dtype]
            raise InvalidValueError(f"'matrix' must hold only 0 and 1 (or booleans), got {bad[0]!r}")
        dense = array.view() if array.dtype == np.bool_ else array != 0  # bool input is used as it is: not copied
        dense.flags.writeable = False
        n, m = dense.shape
        elements = range(n) if universe is None else _universe(universe)
        if len(elements) != n:
            raise InputShapeError(f"'universe' has {len(elements)} elements but 'matrix' has {n} rows")
        if n == 0:
            raise EmptyInputError("'matrix' has no rows: a neighborhood system needs a non-empty universe")
        return cls._build(elements, _block_labels(labels, m, first=0), dense, None)

    @property
    def _sparse_keys(self) -> np.ndarray:
        """The sorted keys ``element * blocks + block`` of a family stored sparse."""
        assert self._keys is not None, "a dense family has no keys"
        return self._keys

    def to_indicators(self) -> np.ndarray:
        """The family as a new bool matrix (elements x blocks)."""
        if self._dense is not None:
            return self._dense.copy()
        out = np.zeros((len(self.universe), len(self.labels)), dtype=bool)
        m = len(self.labels)
        out[self._sparse_keys // m, self._sparse_keys % m] = True
        return out

    def to_sets(self) -> tuple[frozenset, ...]:
        """The blocks as frozensets of elements, in block order (made once, then shared)."""
        if "sets" not in self._memo:
            rows, columns = self._entries()
            order = np.argsort(columns, kind="stable")
            bounds = np.searchsorted(columns[order], np.arange(len(self.labels) + 1))
            elements = _object_vector(self.universe) if not isinstance(self.universe, range) else None
            members = rows[order]
            self._memo["sets"] = tuple(
                frozenset(members[low:high].tolist() if elements is None else elements[members[low:high]].tolist())
                for low, high in itertools.pairwise(bounds)
            )
        return self._memo["sets"]

    def to_label_sets(self) -> list[frozenset]:
        """One frozenset of block labels per element, in universe order."""
        rows, columns = self._entries()
        sets: list[list] = [[] for _ in self.universe]
        for row, column in zip(rows.tolist(), columns.tolist()):
            sets[row].append(self.labels[column])
        return [frozenset(labels) for labels in sets]

    def _entries(self) -> tuple[np.ndarray, np.ndarray]:
        if self._dense is not None:
            rows, columns = np.nonzero(self._dense)
            return rows, columns
        m = len(self.labels)
        return self._sparse_keys // m, self._sparse_keys % m

    # ----------------------------------------------------------------------------------------
    # the paper's set-based notions

    def _position(self, element: Hashable) -> int:
        """The position of ``element`` in the universe (a dict made once: O(1) per element)."""
        if "positions" not in self._memo:
            self._memo["positions"] = {value: i for i, value in enumerate(self.universe)}
        try:
            return self._memo["positions"][element]
        except (KeyError, TypeError):
            raise UnknownElementError(f"{describe(element)} is not in the universe {show(list(self.universe))}") from None

    def _row(self, element: Hashable) -> np.ndarray:
        """Block indexes of the blocks containing ``element``."""
        i = self._position(element)
        if self._dense is not None:
            return np.flatnonzero(self._dense[i])
        m = len(self.labels)
        low, high = np.searchsorted(self._sparse_keys, [i * m, (i + 1) * m])
        return self._sparse_keys[low:high] - i * m

    def neighborhood_system(self, element: Hashable) -> tuple[frozenset, ...]:
        """``NS(p)``: the blocks containing ``element`` (Definition 3), in block order."""
        blocks = self.to_sets()
        return tuple(blocks[j] for j in self._row(element))

    def subscripts(self, element: Hashable) -> frozenset:
        """``Q_NS(p)``: the subscripts (block labels) of the blocks containing ``element``."""
        return frozenset(self.labels[j] for j in self._row(element))

    def neighborhood(self, element: Hashable) -> frozenset:
        """``N(p)``: the intersection of the blocks containing ``element`` (Definition 2).

        For an element in no block the intersection of no sets is taken to be the universe.
        Elements in the same blocks share one neighborhood, computed once: asking for every
        element costs one intersection per distinct set of blocks.
        """
        signatures, rows = self._signatures()
        signature = signatures[self._position(element)]
        found = self._memo.setdefault("neighborhoods", {})
        if signature in found or "bits" in self._memo or len(found) >= _FEW_NEIGHBORHOODS:
            return self._neighborhood_of(signature, rows)  # many asked for: the bitsets of the blocks pay off
        # a few elements: the elements in every block that holds one, from the entries (no bitset of every block)
        elements, blocks = self._entries()
        chosen = rows[signature]
        if not len(chosen):
            members = np.arange(len(self.universe))
        else:
            hits = np.bincount(elements[np.isin(blocks, chosen)], minlength=len(self.universe))
            members = np.flatnonzero(hits == len(chosen))
        found[signature] = frozenset(members.tolist() if isinstance(self.universe, range) else [self.universe[i] for i in members.tolist()])
        return found[signature]

    def _signatures(self) -> tuple[np.ndarray, list[np.ndarray]]:
        """For every element the number of its distinct set of blocks, and those sets (as
        block indexes), numbered in order of first element."""
        if "signatures" not in self._memo:
            _, columns = self._entries()  # grouped by element, elements in order
            rows = np.split(columns, np.cumsum(self._row_counts())[:-1])
            index: dict[bytes, int] = {}
            signatures = np.fromiter((index.setdefault(row.tobytes(), len(index)) for row in rows), dtype=np.intp, count=len(rows))
            distinct = [rows[i] for i in np.unique(signatures, return_index=True)[1]]
            self._memo["signatures"] = (signatures, distinct)
        return self._memo["signatures"]

    def _neighborhood_of(self, signature: int, rows: list[np.ndarray]) -> frozenset:
        """The intersection of a set of blocks, as one AND of the blocks' bitsets (Python ints
        with bit ``i`` for element ``i``): a few microseconds, however large the blocks."""
        found = self._memo.setdefault("neighborhoods", {})
        if signature not in found:
            n = len(self.universe)
            bits = self._block_bits()
            common = (1 << n) - 1
            for j in rows[signature].tolist():
                common &= bits[j]
            positions = np.flatnonzero(np.unpackbits(np.frombuffer(common.to_bytes((n + 7) // 8, "little"), dtype=np.uint8), count=n, bitorder="little"))
            found[signature] = frozenset(positions.tolist() if isinstance(self.universe, range) else [self.universe[i] for i in positions.tolist()])
        return found[signature]

    def _block_bits(self) -> list[int]:
        """Every block as a bitset over the elements (made once)."""
        if "bits" not in self._memo:
            rows, columns = self._entries()
            n = len(self.universe)
            order = np.argsort(columns, kind="stable")
            bounds = np.searchsorted(columns[order], np.arange(len(self.labels) + 1))
            members = rows[order]
            bits = []
            for low, high in itertools.pairwise(bounds.tolist()):  # one block at a time: memory of one bitset, not of the whole table
                flags = np.zeros(n, dtype=bool)
                flags[members[low:high]] = True
                bits.append(int.from_bytes(np.packbits(flags, bitorder="little").tobytes(), "little"))
            self._memo["bits"] = bits
        return self._memo["bits"]

    def derived_covering(self) -> tuple[frozenset, ...]:
        """``cov(C) = {N(p) | p ∈ U}`` (Definition 4): the distinct neighborhoods, in order of first element."""
        _, rows = self._signatures()
        return tuple(dict.fromkeys(self._neighborhood_of(signature, rows) for signature in range(len(rows))))

    def _row_counts(self) -> np.ndarray:
        """How many blocks contain each element."""
        if self._dense is not None:
            return row_sums(self._dense)
        return np.bincount(self._sparse_keys // len(self.labels), minlength=len(self.universe))

    def overlapped_elements(self) -> frozenset:
        """``D``: the elements that lie in two or more blocks."""
        return frozenset(self.universe[i] for i in np.flatnonzero(self._row_counts() >= 2).tolist())

    def theorem_overlapped_elements(self) -> frozenset:
        """``D`` built as the paper's Theorem does: ``∪{Y ∈ cov(C) | Y ⊂ K for some K ∈ C}``.

        ``⊂`` is a proper subset (with ``⊆`` every neighborhood would qualify). It equals
        ``overlapped_elements`` unless two blocks are equal as sets: an element whose
        blocks are all copies of one set lies in two blocks, but its neighborhood is no proper
        subset of any block (tested in ``tests/test_neighborhood.py``).
        """
        blocks = self.to_sets()
        chosen = [y for y in self.derived_covering() if any(y < block for block in blocks)]
        return frozenset().union(*chosen)

    def is_covering(self) -> bool:
        """Every block is non-empty and every element lies in some block."""
        return self.kind() != "family"

    def is_partition(self) -> bool:
        """A covering whose blocks are pairwise disjoint: every element in exactly one block."""
        return self.kind() == "partition"

    def kind(self) -> str:
        """``"partition"``, ``"covering"`` or ``"family"`` (neither)."""
        return _kind(self._row_counts(), self._nonempty_blocks())

    def __len__(self) -> int:
        return len(self.labels)

    def _payload(self) -> dict[str, Any]:
        rows, columns = self._entries()  # (row by row: a stable sort by block keeps each block's elements in order)
        order = np.argsort(columns, kind="stable")
        members = [part.tolist() for part in np.split(rows[order], np.searchsorted(columns[order], np.arange(1, len(self.labels))))]
        return {"n_elements": len(self.universe), "universe": _written_universe(self.universe), "labels": list(self.labels), "blocks": members}

    @classmethod
    def _from_payload(cls, document: dict[str, Any], name: str) -> Covering:
        if not isinstance(document, dict):
            raise serialization.FormatError(f"field {name!r} must be an object")
        n = serialization.integer(document, "n_elements", low=1)
        universe = document.get("universe")
        if universe is None:
            elements: Sequence = range(n)
        else:
            if not isinstance(universe, list) or len(universe) != n:
                raise serialization.FormatError(f"field '{name}.universe' must list the {n} declared elements")
            try:
                elements = _universe([serialization.element(value, f"{name}.universe") for value in universe])
            except EvalkitError as error:
                raise serialization.FormatError(f"field '{name}.universe': {error}") from None
        labels = serialization.label_list(document, "labels")
        blocks = serialization.field(document, "blocks")
        if not isinstance(blocks, list) or len(blocks) != len(labels):
            raise serialization.FormatError(f"field '{name}.blocks' must hold one list per label ({len(labels)})")
        keys = []
        for j, block in enumerate(blocks):
            if not isinstance(block, list):
                raise serialization.FormatError(f"field '{name}.blocks[{j}]' must be a list of element positions")
            rows = serialization.array(block, f"{name}.blocks[{j}]", length=len(block))
            if rows.size and rows.max() >= n:
                raise serialization.FormatError(f"field '{name}.blocks[{j}]' points past the {n} elements")
            keys.append(rows * len(labels) + j)
        return cls._build(elements, labels, None, unique_sorted(np.concatenate(keys or [np.zeros(0, np.int64)])))

    def _document(self) -> dict[str, Any]:
        """The family's document: universe, labels, element positions per block."""
        return self._payload()

    @classmethod
    def _read_document(cls, document: dict[str, Any]) -> Covering:
        return cls._from_payload(document, "covering")


    def _cells(self, result: Covering) -> Cells:
        """Per-element cells of ``result`` (predicted) against this family (actual)."""
        n, m = len(self.universe), len(self.labels)
        if self._keys is not None and result._keys is not None:
            return key_cells(self._keys, result._keys, n, m)[1]
        dense = [family._dense if family._dense is not None else family.to_indicators() for family in (self, result)]
        return indicator_cells(*dense, labels=False)[1]

    def _nonempty_blocks(self) -> np.ndarray:
        """Whether each block holds some element."""
        if self._dense is not None:
            return np.asarray(self._dense.any(axis=0))
        return np.bincount(self._sparse_keys % len(self.labels), minlength=len(self.labels)) > 0


def _kind(rows: np.ndarray, nonempty: np.ndarray) -> str:
    """The kind of a family from how many blocks hold each element and which blocks are non-empty."""
    if not (np.asarray(rows) >= 1).all() or not np.asarray(nonempty).all():
        return "family"
    return "partition" if (rows == 1).all() else "covering"


def _block_labels(labels: Sequence[Hashable] | None, m: int, first: int = 1) -> tuple:
    names = tuple(range(first, first + m)) if labels is None else check_label_list(labels)
    if len(names) != m:
        raise InputShapeError(f"'labels' has {len(names)} labels but there are {m} blocks")
    return names


@attrs.frozen(eq=False, init=False)
class NeighborhoodSystem:
    """``(U, NS(U))``: a universe with the neighborhood system of a family of blocks.

    Per-element access: ``ns[p]`` is ``NS(p)``; iterating yields ``(p, NS(p))`` in universe
    order. ``evaluate`` measures a classification result against this (ideal) one.

    Examples:
        >>> ns = NeighborhoodSystem(Covering("abcdefg", [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "d", "g"}]))
        >>> [sorted(block) for block in ns["a"]]
        [['a', 'e', 'f'], ['a', 'd', 'g']]
    """

    covering: Covering

    def __init__(self, covering: Covering) -> None:
        if not isinstance(covering, Covering):
            raise InvalidTypeError(f"'covering' must be a Covering, got {show(covering)}")
        self.__attrs_init__(covering)

    @property
    def universe(self) -> Sequence:
        """``U``."""
        return self.covering.universe

    def __getitem__(self, element: Hashable) -> tuple[frozenset, ...]:
        return self.covering.neighborhood_system(element)

    def __iter__(self) -> Iterator[tuple[Hashable, tuple[frozenset, ...]]]:
        blocks = self.covering.to_sets()
        for element in self.universe:
            yield element, tuple(blocks[j] for j in self.covering._row(element))

    def __len__(self) -> int:
        return len(self.universe)

    def evaluate(self, result: Covering, *, sample_weight: ArrayLike | None = None) -> NeighborhoodAccuracy:
        """AA, RAR and the rest of the neighborhood-system criterion for ``result`` against this ideal family.

        Args:
            result: the classification result, a family over the same universe and labels.
            sample_weight: one finite weight >= 0 per element, in the ideal's universe order;
                every sum (``T_pos``, ``T_neg``, ``Σ|P_i|``) and example-based mean is then
                weighted, and an element of integer weight ``w`` counts as ``w`` copies of it.

        Raises:
            LabelMismatchError: the result's universe or labels differ from the ideal's.
            InvalidArgumentError, InputShapeError: bad weights.

        Examples:
            >>> ideal = NeighborhoodSystem(Covering("abc", [{"a", "b"}, {"c"}]))
            >>> accuracy = ideal.evaluate(Covering("abc", [{"a"}, {"b", "c"}]), sample_weight=[1, 3, 1])
            >>> accuracy.get_absolute_accuracy(exact=True), accuracy.get_relative_accuracy_rate(exact=True)
            (Fraction(2, 5), Fraction(2, 3))
        """
        ideal = self.covering
        if not isinstance(result, Covering):
            raise InvalidTypeError(f"'result' must be a Covering, got {show(result)}")
        if not same_labels(result.labels, ideal.labels):
            raise LabelMismatchError(f"the result's labels {show(list(result.labels))} differ from the ideal's {show(list(ideal.labels))}")
        if not _same_universe(result.universe, ideal.universe):
            if set(result.universe) != set(ideal.universe):
                raise LabelMismatchError(
                    f"the result's universe {show(list(result.universe))} differs from the ideal's {show(list(ideal.universe))}"
                )
            position = {element: k for k, element in enumerate(ideal.universe)}  # one lookup per element, not a search
            moved = np.fromiter((position[element] for element in result.universe), dtype=np.int64, count=len(result.universe))
            elements, blocks = result._entries()
            m = len(result.labels)
            result = Covering._build(ideal.universe, result.labels, None, unique_sorted(moved[elements] * m + blocks))  # the entries, not a table
        weight = check_sample_weight(sample_weight, len(ideal.universe))
        cells = ideal._cells(result)
        if weight is not None:
            cells = attrs.evolve(cells, weight=weight)

        # the kinds are not needed for AA and RAR: found when first asked for (a partial, so that the result pickles)
        return NeighborhoodAccuracy(cells, functools.partial(_kinds_of, cells, ideal, result), ideal.universe)


_FEW_NEIGHBORHOODS = 8
"""Neighborhoods asked for before the bitsets of every block are made (one bit per element and block)."""


def _object_vector(values: Sequence) -> np.ndarray:
    """A 1-D object array of the values (``np.array`` would turn equal-length tuples into rows)."""
    vector = np.empty(len(values), dtype=object)
    vector[:] = list(values)
    return vector


def _kinds_of(cells: Cells, ideal: Covering, result: Covering) -> tuple[str, str]:
    """Whether the ideal and the result are partitions or coverings."""
    return _kind(cells.tp + cells.fn, ideal._nonempty_blocks()), _kind(cells.tp + cells.fp, result._nonempty_blocks())


@attrs.frozen(eq=False, slots=False)
class NeighborhoodAccuracy(DocumentValue):
    """The accuracy of a result against the ideal one, by the neighborhood-system criterion, with getters.

    Made by ``NeighborhoodSystem.evaluate``, or from the counts of an
    ``Evaluation`` (``from_evaluation``: streamed or distributed data). Per
    element ``r`` the cells give ``|Q(r) ∩ Q'(r)|`` (tp), ``|Q'(r) - Q(r)|`` (fp) and
    ``|Q(r) - Q'(r)|`` (fn); every number below is a sum over elements.

    Undefined values follow evalkit's one rule, a ratio with denominator 0 is NaN: AA is NaN
    when the ideal assigns no label at all, RAR is NaN for a perfect result (``T_neg = 0``; its
    AA is 1). ``compare`` still ranks a perfect result above every other. With ``exact=True``
    the getters return a ``fractions.Fraction`` where the value is defined.

    Element weights (``sample_weight``) make every sum a weighted sum: an element of integer
    weight ``w`` counts as ``w`` copies of itself.

    Attributes:
        cells: per-element cells and how much each element counts (their ``weight``), in
            universe order; or, when only counts are known, one row per distinct kind of
            element weighted by how many elements it stands for.
        kinds: ``(ideal kind, result kind)``, each ``"partition"``, ``"covering"`` or
            ``"family"`` (or a function giving them, called when first needed).
        universe: the elements, in order (``None`` when only counts are known: no
            ``T_1``/``T_2`` lists then).
    """

    DOCUMENT = "NeighborhoodAccuracy"

    cells: Cells = attrs.field(repr=False)
    kinds: tuple[str, str] | Callable[[], tuple[str, str]] = attrs.field(repr=False)
    universe: Sequence | None = attrs.field(default=None, repr=False)

    @cached_property
    def _kinds(self) -> tuple[str, str]:
        if callable(self.kinds):
            return self.kinds()
        actual, predicted = self.kinds
        return actual, predicted

    @property
    def ideal_kind(self) -> str:
        """``"partition"``, ``"covering"`` or ``"family"`` (found when first asked for)."""
        return self._kinds[0]

    @property
    def result_kind(self) -> str:
        """``"partition"``, ``"covering"`` or ``"family"`` (found when first asked for)."""
        return self._kinds[1]

    @classmethod
    def from_evaluation(cls, evaluation: Evaluation) -> NeighborhoodAccuracy:
        """AA, RAR and the rest from the cells of an ``Evaluation`` (actual = ideal).

        Label sets, indicators or streamed and merged counts give the same numbers as
        ``NeighborhoodSystem.evaluate`` on the equivalent families.
        """
        cells = evaluation.sample_cells
        used = cells.row_weights() > 0
        tp, fp, fn = cells.tp[used], cells.fp[used], cells.fn[used]
        by_class = evaluation.class_cells
        kinds = (_kind(tp + fn, by_class.tp + by_class.fn > 0), _kind(tp + fp, by_class.tp + by_class.fp > 0))
        return cls(cells, kinds, range(len(cells)) if evaluation.ordered else None)

    def _sum(self, values: np.ndarray) -> Any:
        """``Σ_r w_r · value_r`` over the elements, for one value per row of ``cells``."""
        return self.cells.sum_rows(values)

    def _ordered(self, what: str) -> Sequence:
        """The universe in order; an error for accuracies built from counts alone."""
        if self.universe is None:
            raise UnsupportedSettingError(f"{what} needs the elements in order; these accuracies come from counts")
        return self.universe

    # ----------------------------------------------------------------------------------------
    # the counts

    def get_t_pos(self) -> int:
        """``T_pos = Σ_i |P_i ∩ P'_i|``, the correct sample-label assignments."""
        return self._sum(self.cells.tp)

    def get_ideal_total(self) -> int:
        """``Σ_i |P_i|``, the sample-label assignments of the ideal result."""
        return self._sum(self.cells.tp + self.cells.fn)

    def _terms(self) -> np.ndarray:
        return np.maximum(self.cells.fp, self.cells.fn)

    def _overlapped(self) -> np.ndarray:
        return (self.cells.tp + self.cells.fn) >= 2

    def get_t_neg(self) -> int:
        """``T_neg = Σ_r max(|Q'(r) - Q(r)|, |Q(r) - Q'(r)|)`` (the unified form of section 4.2)."""
        return self._sum(self._terms())

    def _element_values(self, rows: np.ndarray, what: str) -> np.ndarray:
        """One value per element, in universe order, from one value per row of ``cells``."""
        self._ordered(what)
        return rows if self.cells.index is None else rows[self.cells.index]

    def get_t1(self) -> tuple[int, ...]:
        """The terms of ``T_neg`` for the elements outside ``D_P``, in universe order (unweighted)."""
        terms, overlapped = (self._element_values(rows, "T_1") for rows in (self._terms(), self._overlapped()))
        return tuple(terms[~overlapped].tolist())

    def get_t2(self) -> tuple[int, ...]:
        """The terms of ``T_neg`` for the elements of ``D_P`` (in two or more ideal blocks)."""
        terms, overlapped = (self._element_values(rows, "T_2") for rows in (self._terms(), self._overlapped()))
        return tuple(terms[overlapped].tolist())

    def get_overlapped_elements(self) -> frozenset:
        """``D_P``: the elements in two or more blocks of the ideal result."""
        overlapped = self._element_values(self._overlapped(), "D_P")
        universe = self._ordered("D_P")
        return frozenset(universe[i] for i in np.flatnonzero(overlapped).tolist())

    # ----------------------------------------------------------------------------------------
    # AA and RAR

    def get_absolute_accuracy(self, exact: bool = False) -> float | Fraction:
        """``AA = T_pos / Σ_i |P_i|`` (the micro recall); NaN when the ideal has no assignment."""
        return ratio(self.get_t_pos(), self.get_ideal_total(), exact=exact)

    def interval(self, measure: str = "absolute_accuracy", *, level: float = 0.95, method: str = "bca", n_resamples: int = 2000,
                 random_state: RandomState = None) -> intervals.Interval:  # fmt: skip
        """A bootstrap confidence interval of ``"absolute_accuracy"`` or
        ``"relative_accuracy_rate"``, resampling the elements: each element adds its ``tp`` and
        its denominator (``tp + fn`` for AA, ``max(fp, fn)`` for RAR) to the two sums (see
        ``evalkit._results.intervals.ratio_interval``)."""
        check_choice("measure", measure, ("absolute_accuracy", "relative_accuracy_rate"))
        cells = self.cells
        absolute = measure == "absolute_accuracy"
        denominator = cells.tp + cells.fn if absolute else np.maximum(cells.fp, cells.fn)
        estimate = float(self.get_absolute_accuracy() if absolute else self.get_relative_accuracy_rate())
        return intervals.ratio_interval(cells.tp, denominator, cells.row_weights(), estimate, level=level, method=method,
                                        n_resamples=n_resamples, random_state=random_state)  # fmt: skip

    def get_relative_accuracy_rate(self, exact: bool = False) -> float | Fraction:
        """``RAR = T_pos / T_neg``; NaN when ``T_neg = 0`` (a perfect result, whose AA is 1)."""
        return ratio(self.get_t_pos(), self.get_t_neg(), exact=exact)

    # ----------------------------------------------------------------------------------------
    # the four cases of section 4.1

    def get_case(self) -> str | None:
        """Which condition of section 4.1 applies, or None when either family is no covering."""
        return CASES.get((self.ideal_kind, self.result_kind))

    def get_case_t_neg(self) -> int | None:
        """``T_neg`` by the case-specific formula of section 4.1 (None outside the four cases).

        4.1.1: ``Σ_i |P'_i - P_i|`` (the result's false positives); 4.1.2 (1):
        ``Σ_i |P_i - P'_i|`` (false negatives); 4.1.2 (2): ``|Q'(r) - Q(r)|`` outside
        ``D_P`` and the max inside it. All four equal the unified ``get_t_neg`` whenever
        both families are coverings, which is what the cases assume.
        """
        fp, fn = self.cells.fp, self.cells.fn
        if self.get_case() is None:
            return None
        if self.ideal_kind == "partition":
            return self._sum(fp)
        if self.result_kind == "partition":
            return self._sum(fn)
        return self._sum(np.where(self._overlapped(), np.maximum(fp, fn), fp))

    # ----------------------------------------------------------------------------------------
    # the example-based measures of section 5.1

    def _example_based(self, denominator: str, exact: bool, undefined: UndefinedPolicy) -> float | Fraction:
        """The mean over elements of ``|Y ∩ Z| / denominator`` under the undefined-value policy."""
        tp, fp, fn = self.cells.tp, self.cells.fp, self.cells.fn
        denominators = {"union": tp + fp + fn, "predicted": tp + fp, "actual": tp + fn}[denominator]
        return mean_of_ratios(tp, denominators, self.cells.row_weights(), undefined=undefined, exact=exact)

    def get_example_based_accuracy(self, exact: bool = False, undefined: UndefinedPolicy = "exclude") -> float | Fraction:
        """``Accuracy = mean_r |Y_r ∩ Z_r| / |Y_r ∪ Z_r|`` (Godbole and Sarawagi).

        A sample with no label in both sets is 0/0: it follows ``undefined`` (``"exclude"``
        by default: the mean is over the defined samples; ``"zero"``/``"one"`` count it and
        divide by ``|U|``, as the paper's formula does).
        """
        return self._example_based("union", exact, undefined)

    def get_example_based_precision(self, exact: bool = False, undefined: UndefinedPolicy = "exclude") -> float | Fraction:
        """``Precision = mean_r |Y_r ∩ Z_r| / |Z_r|``; a sample with no predicted label is 0/0."""
        return self._example_based("predicted", exact, undefined)

    def get_example_based_recall(self, exact: bool = False, undefined: UndefinedPolicy = "exclude") -> float | Fraction:
        """``Recall = mean_r |Y_r ∩ Z_r| / |Y_r|``; a sample with no actual label is 0/0."""
        return self._example_based("actual", exact, undefined)

    # ----------------------------------------------------------------------------------------
    # comparison (Remarks 3 and 4)

    def compare(self, other: NeighborhoodAccuracy, *, criterion: str = "auto") -> str:
        """Compare two methods on the same ideal result (Remarks 3 and 4 of the neighborhood-system paper).

        By one criterion: ``"more accurate"`` when none of its measures is lower and one is
        higher, ``"as accurate"`` when all are equal, ``"less accurate"`` the other way round,
        and ``"incomparable"`` otherwise (the criterion forces no order).

        Args:
            other: the other method's result on the same ideal.
            criterion: ``"aa-rar"`` (AA and RAR, Remark 3), ``"example-based"`` (Accuracy,
                Precision and Recall), or ``"auto"``: AA and RAR, and for a multi-label ideal
                (a covering that is no partition) also the example-based measures (Remark 4).
                When the two criteria order the methods in opposite ways the answer is
                ``"conflicting"``; when one of them is undecided the other decides.
        """
        check_choice("criterion", criterion, ("auto", "aa-rar", "example-based"))
        verdicts = self._verdicts(other, criterion)
        decided = [verdict for verdict in verdicts if verdict != "incomparable"]
        strict = {verdict for verdict in decided if verdict != "as accurate"}
        if not decided:
            return "incomparable"
        if len(strict) == 2:
            return "conflicting"
        return strict.pop() if strict else "as accurate"

    def is_at_least_as_accurate_as(self, other: NeighborhoodAccuracy, *, criterion: str = "auto") -> bool:
        """Remark 3/4 literally: True when some criterion in use finds this method not less
        accurate on every one of its measures."""
        check_choice("criterion", criterion, ("auto", "aa-rar", "example-based"))
        return any(verdict in ("more accurate", "as accurate") for verdict in self._verdicts(other, criterion))

    def _verdicts(self, other: NeighborhoodAccuracy, criterion: str) -> list[str]:
        if not isinstance(other, NeighborhoodAccuracy):
            raise InvalidTypeError(f"'other' must be a NeighborhoodAccuracy, got {show(other)}")
        if self.universe is not None and other.universe is not None and not _same_universe(other.universe, self.universe):
            raise LabelMismatchError("the two results were measured on different universes")
        verdicts = []
        if criterion in ("auto", "aa-rar"):
            verdicts.append(_order(self._aa_rar(), other._aa_rar()))
        if criterion == "example-based" or (criterion == "auto" and self.ideal_kind == "covering"):
            verdicts.append(_order(self._example_triple(), other._example_triple()))
        return verdicts

    def _aa_rar(self) -> tuple:
        """AA and RAR for ordering: a perfect result's RAR (undefined, ``T_neg = 0``) ranks above every other."""
        rar = self.get_relative_accuracy_rate(exact=True)
        if _is_nan(rar) and self.get_t_pos() > 0:
            rar = math.inf
        return self.get_absolute_accuracy(exact=True), rar

    def _example_triple(self) -> tuple:
        return tuple(
            getter(exact=True)
            for getter in (self.get_example_based_accuracy, self.get_example_based_precision, self.get_example_based_recall)
        )

    # ----------------------------------------------------------------------------------------
    # JSON, dict and text

    def _document(self) -> dict[str, Any]:
        """The document of the per-element cells, kinds and universe."""
        payload = {
            "cells": serialization.cells_payload(self.cells, ones_as_none=True),
            "ideal_kind": self.ideal_kind,
            "result_kind": self.result_kind,
            "ordered": self.universe is not None,
            "universe": None if self.universe is None else _written_universe(self.universe),
        }
        return payload

    @classmethod
    def _read_document(cls, document: dict[str, Any]) -> NeighborhoodAccuracy:
        cells = serialization.read_cells(serialization.field(document, "cells"), "cells")
        rows = len(cells)
        kinds = [serialization.field(document, name) for name in ("ideal_kind", "result_kind")]
        for name, kind, (first, second) in zip(("ideal_kind", "result_kind"), kinds, (("tp", "fn"), ("tp", "fp"))):
            if kind not in ("partition", "covering", "family"):
                raise serialization.FormatError(f"field {name!r} must be partition, covering or family, got {show(kind)}")
            held = getattr(cells, first) + getattr(cells, second)  # how many blocks hold each element
            found = _kind(held, np.ones(1, dtype=bool))  # (empty blocks are not in per-element cells: "family" may still be right)
            if kind != "family" and found != kind:
                raise serialization.FormatError(f"field {name!r} says {kind}, but the cells put elements in {show(sorted(set(held.tolist())))} blocks")
        ordered, universe = serialization.field(document, "ordered"), document.get("universe")
        if not isinstance(ordered, bool):
            raise serialization.FormatError(f"field 'ordered' must be true or false, got {show(ordered)}")
        if ordered:
            if universe is None:
                universe = range(rows)
            elif not isinstance(universe, list) or len(universe) != rows:
                raise serialization.FormatError(f"field 'universe' must list the {rows} elements")
            else:
                try:
                    universe = _universe([serialization.element(value, "universe") for value in universe])
                except EvalkitError as error:
                    raise serialization.FormatError(f"field 'universe': {error}") from None
        return cls(cells, tuple(kinds), universe if ordered else None)


    def to_dict(self, *, strict: bool = False) -> dict[str, Any]:
        """AA, RAR, the counts, the case and the example-based measures (and ``T_1``, ``T_2``
        when the element order is known); ``strict=True``: plain data strict JSON takes (NaN as ``None``, infinities as ``"Infinity"``; see ``serialization.json_safe``)."""
        result: dict[str, Any] = {
            "absolute_accuracy": self.get_absolute_accuracy(),
            "relative_accuracy_rate": self.get_relative_accuracy_rate(),
            "t_pos": self.get_t_pos(),
            "t_neg": self.get_t_neg(),
            "ideal_total": self.get_ideal_total(),
            "case": self.get_case(),
            "case_t_neg": self.get_case_t_neg(),
            "example_based_accuracy": self.get_example_based_accuracy(),
            "example_based_precision": self.get_example_based_precision(),
            "example_based_recall": self.get_example_based_recall(),
        }
        if self.universe is not None:
            result["t1"], result["t2"] = list(self.get_t1()), list(self.get_t2())
        return serialization.json_safe(result) if strict else result

    def __str__(self) -> str:
        def shown(value: float | Fraction) -> str:
            return f"{value} = {float(value):.6g}" if isinstance(value, Fraction) else str(value)

        lines = [
            f"Absolute accuracy (AA): {shown(self.get_absolute_accuracy(exact=True))}",
            f"Relative accuracy rate (RAR): {shown(self.get_relative_accuracy_rate(exact=True))}",
            f"T_pos: {self.get_t_pos()}  T_neg: {self.get_t_neg()}  sum |P_i|: {self.get_ideal_total()}",
            f"Case: {self.get_case() or 'none (a family is not a covering)'}",
        ]
        return "\n".join(lines)


def _order(mine: tuple, theirs: tuple) -> str:
    """How one tuple of measures compares with another, each measure higher-is-better."""
    pairs = list(zip(mine, theirs))
    if all(a == b or (_is_nan(a) and _is_nan(b)) for a, b in pairs):
        return "as accurate"
    if any(_is_nan(a) or _is_nan(b) for a, b in pairs):
        return "incomparable"
    if all(a >= b for a, b in pairs):
        return "more accurate"
    if all(a <= b for a, b in pairs):
        return "less accurate"
    return "incomparable"


def _is_nan(value: object) -> bool:
    return isinstance(value, float) and math.isnan(value)
