"""Hierarchy: a class taxonomy given by a parent map, and the ancestor closure of labels.

Hierarchical evaluation compares label sets *closed upwards*: a sample labelled ``"cat"`` in a
taxonomy ``cat -> mammal -> animal`` counts as ``{cat, mammal, animal}``. In matrix form the
closure is ``A↑ = min(1, A H)`` with ``H_jk = 1`` iff ``k = j`` or ``k`` is an ancestor of
``j``; micro precision, recall and F1 of the closures are the hierarchical hP, hR, hF
(Kiritchenko et al.). A predicted sibling then earns partial credit for the shared ancestors.

Examples:
    >>> taxonomy = Hierarchy({"cat": "mammal", "dog": "mammal", "mammal": "animal", "trout": "fish", "fish": "animal"},
    ...                      root="animal")
    >>> taxonomy.ancestors("cat")
    ('cat', 'mammal')
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from evalkit._engine import moved_names
from evalkit._engine._labels import check_one_label, check_same_kind, describe, sorted_labels
from evalkit._engine._validation import FieldEquality, show
from evalkit._engine.cells import unique_sorted
from evalkit.exceptions import InvalidArgumentError, InvalidTypeError, UnknownLabelError

__all__ = ["Hierarchy"]


def _ancestor_table(parents: dict[Any, Any], nodes: tuple, root: Any) -> tuple[np.ndarray, np.ndarray]:
    """CSR arrays ``(pointers, codes)``: the codes of every node's ancestors-or-self, root left
    out. A node's chain is itself and its parent's chain, found once: time in proportion to
    the table, however deep the tree."""
    index = {node: code for code, node in enumerate(nodes)}
    chains: dict[Any, list[int]] = {}
    for node in nodes:
        path, on_path, current = [], set(), node  # walk up to a node whose chain is known
        while current is not None and current != root and current not in chains:
            if current in on_path:
                raise InvalidArgumentError(f"'parents' has a cycle through {describe(current)}")
            path.append(current)
            on_path.add(current)
            current = parents.get(current)
        known = [] if current is None or current == root else chains[current]
        for member in reversed(path):
            known = [index[member], *known]
            chains[member] = known
    lengths = [len(chains[node]) for node in nodes]
    pointers = np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)
    codes = np.fromiter((code for node in nodes for code in chains[node]), dtype=np.int64, count=int(pointers[-1]))
    return pointers, codes


@attrs.frozen(eq=False, init=False)
class Hierarchy(FieldEquality):
    """A taxonomy: ``parents`` maps each node to its parent (``None`` or absent for a top node).

    Args:
        parents: ``{child: parent}``. Every parent is a node too.
        root: an artificial root every sample belongs to; it is left out of the closure
            (counting it would give every prediction a free correct label).

    Attributes:
        nodes: the labels of the closure (all nodes but ``root``), sorted.

    Raises:
        InvalidArgumentError: a cycle.
    """

    parents: dict = attrs.field()
    root: Any = attrs.field()
    nodes: tuple = attrs.field()
    _pointers: np.ndarray = attrs.field(repr=False)
    _codes: np.ndarray = attrs.field(repr=False)

    def __init__(self, parents: Mapping[Hashable, Hashable | None], root: Hashable | None = None) -> None:
        if not isinstance(parents, Mapping):
            raise InvalidTypeError(f"'parents' must be a mapping child -> parent, got {show(parents)}")
        checked = {check_one_label("parents", child): (None if parent is None else check_one_label("parents", parent))
                   for child, parent in parents.items()}  # fmt: skip
        names = set(checked) | {parent for parent in checked.values() if parent is not None}
        if root is not None:
            names.discard(check_one_label("root", root))
        check_same_kind(("parents", name) for name in names)
        nodes = sorted_labels(list(names), "parents")
        pointers, codes = _ancestor_table(checked, nodes, root)
        self.__attrs_init__(checked, root, nodes, pointers, codes)

    def ancestors(self, node: Hashable) -> tuple:
        """The node and its ancestors, nearest first (the root left out)."""
        code = self.code(node)
        return tuple(self.nodes[k] for k in self._codes[self._pointers[code] : self._pointers[code + 1]])

    def code(self, node: Hashable) -> int:
        """The position of ``node`` in ``nodes``."""
        try:
            return self.nodes.index(node)
        except ValueError:
            raise UnknownLabelError(f"{describe(node)} is not a node of the hierarchy: {show(list(self.nodes))}") from None

    def close(self, keys: np.ndarray, n: int) -> np.ndarray:
        """Close sparse keys ``sample * k + node`` (k = number of nodes) under ancestors.

        Returns sorted unique keys of the closure.
        """
        k = len(self.nodes)
        rows, codes = keys // k, keys % k
        lengths = np.diff(self._pointers)[codes]
        starts = np.repeat(self._pointers[codes], lengths)
        offsets = np.arange(lengths.sum()) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        closed = np.repeat(rows, lengths) * k + self._codes[starts + offsets]
        return unique_sorted(closed)


if not TYPE_CHECKING:  # the names this module gave in evalkit 0.1.0 and lost, found with a warning
    __getattr__ = moved_names.finder(__name__)
