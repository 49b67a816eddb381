"""Evaluation by group: every measure per segment (country, device, age band, ...) and the
disparities between segments, with intervals.

Every evalkit count is a sum over samples, so a group is one more key of the count: the
confusion matrices of every group come from one ``bincount`` of ``(group, actual,
predicted)``, and the whole is their sum. A ``ByGroup`` holds the usual result of each group
(a ``ConfusionMatrix``, an ``Evaluation`` or a ``ThresholdCurve``: every measure, average,
report, interval and curve of it) and the overall one, each group's support, and which groups
are smaller than a size you set (shown as such, never dropped).

Disparities (``difference`` and ``ratio``) compare any measure and average across groups:
between groups (largest minus smallest, or smallest over largest), against the overall value,
or against a reference group; their bootstrap intervals resample within each group (the
groups keep their sizes) and say how many resamples left a group's value undefined.

Several group columns make intersections (sex x age band): ``groups={"sex": ..., "age":
...}``, keys ``("f", "30-40")``.

Examples:
    >>> result = by_group(["a", "b", "a", "b", "a"], ["a", "b", "b", "b", "a"], ["x", "x", "y", "y", "y"])
    >>> result.keys, result["y"].get_accuracy(), result.overall.get_accuracy()
    (('x', 'y'), 0.6666666666666666, 0.8)
    >>> result.difference("accuracy").value
    0.33333333333333337
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence, Sized
from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias, cast

import attrs
import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine import serialization
from evalkit._engine._exact import in_units, weighted_bincount
from evalkit._engine._labels import OVERALL, identity, same_labels, sorted_labels
from evalkit._engine._pair_counts import PairCounts
from evalkit._engine._types import GroupsLike, LabelSets, LabelsLike, ScoresLike
from evalkit._engine._validation import RandomState, as_array, check_sample_weight, show
from evalkit._engine.cells import Cells
from evalkit._engine.counting import as_label_set_list, encode, is_label_set_data
from evalkit._groups._values import (
    _area_name,
    _calibration_name,
    _disparity,
    _is_calibration,
    _min_size,
    _refuse_part_measure,
    _size,
    _whole_of_margins,
    _whole_value,
    value_of,
)
from evalkit._results import intervals
from evalkit._results.confusion_matrix import ConfusionMatrix
from evalkit._results.counted import ALL_OPERATIONS, CountedState
from evalkit._results.evaluation import Evaluation
from evalkit._results.rendering import render
from evalkit._scores.curves import ThresholdCurve
from evalkit.exceptions import (
    EmptyInputError,
    EvalkitError,
    InputLengthError,
    InvalidArgumentError,
    InvalidCountsError,
    InvalidTypeError,
    LabelMismatchError,
    UnknownLabelError,
    UnsupportedSettingError,
)
from evalkit.measures._averaging import UndefinedPolicy, average_rows, check_undefined
from evalkit.measures._metrics_class import MetricsClass, check_metrics_class
from evalkit.measures._registry import Measure, MeasureLike

if TYPE_CHECKING:
    from evalkit._scores.calibration import Calibration

GroupResult: TypeAlias = "ConfusionMatrix | Evaluation | ThresholdCurve | Calibration"
"""The result of one group: of labels, indicators or label sets, scores, or probabilities."""

__all__ = [
    "OVERALL",
    "RELATIVE_TO",
    "ByGroup",
    "Disparity",
    "GroupValues",
    "by_group",
]

RELATIVE_TO = ("between", "overall")
"""How a disparity compares groups (besides a reference group's key)."""


class GroupValues(dict):
    """Each group's value by its key, and the whole's under ``OVERALL`` (also found as
    ``"overall"`` when no group is named so)."""

    def __missing__(self, key: Hashable) -> float:
        if isinstance(key, str) and key == "overall" and OVERALL in self:
            return self[OVERALL]
        raise KeyError(key)


@attrs.frozen
class Disparity:
    """How far apart the groups are on one measure (``ByGroup.difference``/``ratio``).

    Attributes:
        value: the difference (``>= 0``) or ratio (``<= 1``); NaN when no group's value is defined.
        kind: ``"difference"`` or ``"ratio"``.
        measure: the measure's name (and average).
        relative_to: ``"between"``, ``"overall"`` or the reference group.
        values: each group's value (NaN where undefined), and the whole's (key ``OVERALL``).
        extremes: the two groups the value comes from.
        interval: a bootstrap ``Interval`` of the value (``confidence=``), else ``None``.
        n_undefined_groups: groups whose value is undefined (left out).
    """

    value: float
    kind: str
    measure: str
    relative_to: Hashable
    values: dict
    extremes: tuple
    interval: intervals.Interval | None = None
    n_undefined_groups: int = 0

    def __str__(self) -> str:
        """``recall (macro) difference 0.5 ('a' vs 'b')``; ``undefined`` (and why) when too few
        groups have a defined value."""
        if math.isnan(self.value) or len(self.extremes) < 2:
            groups = len(self.values) - 1
            defined = groups - self.n_undefined_groups
            why = f"{defined} of {groups} groups have a defined value"
            if defined >= 2 or (defined and self.relative_to != "between"):  # (values enough: the disparity of them is what is undefined)
                why = "a ratio of 0 to 0" if self.kind == "ratio" else "the values give no finite difference"
            return f"{self.measure} {self.kind} undefined ({why})"
        shown = f"{self.measure} {self.kind} {self.value:.4g} ({self.extremes[0]!r} vs {self.extremes[1]!r})"
        if self.interval is None:
            return shown
        if math.isnan(self.interval.low):
            return f"{shown}, {self.interval.level:.0%} interval undefined"
        return f"{shown}, {self.interval.level:.0%} interval [{self.interval.low:.4g}, {self.interval.high:.4g}]"


# --------------------------------------------------------------------------------------------
# group columns


_BOOLEANS = frozenset({bool, np.bool_})


def _group_codes(groups: Any, n: int) -> tuple[np.ndarray, tuple, tuple[str, ...]]:
    """The group of every sample (codes ``0 .. G-1``), the group keys (sorted; tuples for
    several columns) and the columns' names."""
    if isinstance(groups, Mapping):
        names, columns = tuple(str(name) for name in groups), list(groups.values())
    elif hasattr(groups, "columns") and hasattr(groups, "iloc"):  # a pandas DataFrame: one group column each
        names, columns = tuple(str(name) for name in groups.columns), [groups[name].to_numpy() for name in groups.columns]
    elif isinstance(groups, np.ndarray) and groups.ndim == 2:
        names, columns = tuple(f"group {k}" for k in range(groups.shape[1])), [groups[:, k] for k in range(groups.shape[1])]
    elif isinstance(groups, (list, tuple)) and groups and all(isinstance(c, (list, tuple, np.ndarray)) and len(c) == n for c in groups) and n != len(groups):
        names, columns = tuple(f"group {k}" for k in range(len(groups))), list(groups)
    else:
        names, columns = ("group",), [groups]
    if not columns:
        raise InvalidArgumentError("'groups' names no group column")
    names, columns = _split_columns(names, columns, n)
    codes, values = [], []
    for name, column in zip(names, columns):
        array = as_array(column, "groups")
        if array.ndim != 1 or len(array) != n:
            raise InputLengthError(f"the group column {name!r} has {len(array) if array.ndim else 0} entries but there are {n} samples")
        mixed = isinstance(column, list) and bool(_BOOLEANS & (kinds := set(map(type, column)))) and len(kinds) > 1  # (numpy makes True the number 1: encoding refuses them)
        fast = None if mixed else _small_integer_codes(array)
        if fast is None:
            given = column if isinstance(column, list) else array  # a list keeps "1" and 1 apart, which numpy would make one string
            try:
                own, _, found, _ = encode(given, given, names=(name, name))
            except EvalkitError as error:
                raise InvalidArgumentError(f"the group column {name!r} holds a value that cannot be a group: {error}") from None
            fast = own, list(found)
        codes.append(fast[0])
        values.append(fast[1])
    if len(codes) == 1:  # every code 0 .. G-1 occurs: the groups are the column's values
        return codes[0], tuple(values[0]), names
    sizes = [len(v) for v in values]
    combined = np.ravel_multi_index(codes, sizes)
    if math.prod(sizes) <= 1 << 24:  # the intersections present, without a sort
        seen = np.bincount(combined, minlength=math.prod(sizes)) > 0
        present, inverse = np.flatnonzero(seen), (np.cumsum(seen) - 1)[combined]
    else:
        present, inverse = np.unique(combined, return_inverse=True)
    keys = tuple(tuple(values[c][k] for c, k in enumerate(index)) for index in zip(*np.unravel_index(present, sizes)))
    return inverse.astype(np.intp), keys, names


def _split_columns(names: tuple[str, ...], columns: list[Any], n: int) -> tuple[tuple[str, ...], list[Any]]:
    """Group columns whose entries are tuples (or a 2-D column: one row per sample) split into
    one column per part: their keys are the tuples of the parts."""
    split_names, split = [], []
    for name, column in zip(names, columns):
        parts: list[Any] | None = None
        if isinstance(column, np.ndarray) and column.ndim == 2 and len(column) == n:
            parts = [column[:, k] for k in range(column.shape[1])]
        elif isinstance(column, (list, tuple)) and column and all(isinstance(entry, tuple) for entry in column):
            widths = {len(entry) for entry in column}
            if len(widths) != 1 or not next(iter(widths)):
                raise InvalidArgumentError(f"the group column {name!r} holds tuples of different lengths {sorted(widths)[:5]}: "
                                           "every sample needs one value per part")  # fmt: skip
            parts = [list(part) for part in zip(*column)]
        if parts is None:
            split_names.append(name)
            split.append(list(column) if isinstance(column, tuple) else column)
        else:
            split_names += [f"{name} {k}" for k in range(len(parts))]
            split += parts
    return tuple(split_names), split


def _scored(y_true: LabelsLike, y_score: ScoresLike, labels: Any, name: str) -> tuple[np.ndarray, Any, Any]:
    """ScoresLike (or probabilities) by group: the array, the actual values, and the classes of
    2-D scores fixed from all the data (a group that lacks a class still has its column)."""
    scores = as_array(y_score, name)
    truth = y_true if is_label_set_data(y_true) else as_array(y_true, "y_true")
    if len(cast(Sized, truth)) != len(scores):  # (a longer y_true was cut to the scores, a shorter one raised IndexError)
        raise InputLengthError(f"'y_true' has {len(cast(Sized, truth))} samples but {name!r} has {len(scores)}")
    if scores.ndim == 2 and labels is None and np.ndim(cast("ArrayLike", truth)) == 1:
        labels = sorted_labels(list(dict.fromkeys(np.asarray(truth).tolist())), "y_true")
    return scores, truth, labels


def _whole_matrix(pairs: PairCounts, labels: Sequence[Hashable], metrics_class: MetricsClass) -> ConfusionMatrix:
    """The confusion matrix of every group's samples together (codes ``g*m + class``): float
    counts the exact sums of all the groups' pairs, as one matrix of every sample counts them."""
    m = len(labels)
    return _matrix(pairs.relabel(np.arange(pairs.size, dtype=np.int64) % max(m, 1), m), labels, metrics_class)


def _matrix(pairs: PairCounts, labels: Sequence[Hashable], metrics_class: MetricsClass) -> ConfusionMatrix:
    """The confusion matrix of (actual, predicted) pairs over ``labels``; float counts keep the
    rests of their exact sums (``ConfusionMatrix``'s own exact cells)."""
    if pairs.counts.dtype.kind != "f":
        return ConfusionMatrix.from_array(pairs.dense(), labels, metrics_class=metrics_class)
    return ConfusionMatrix._trusted(pairs.exact_dense(), tuple(labels), metrics_class)


def _group_matrices_pairs(results: Sequence[ConfusionMatrix], overall: ConfusionMatrix) -> PairCounts:
    """The matrices of groups (over ``overall``'s labels) as the one sparse count of (group,
    actual, predicted) that ``from_labels`` keeps: group ``g``'s classes are codes ``g*m ..``."""
    m = len(overall.labels)
    parts = [PairCounts.from_dense(result._exact_counts()) for result in results]  # (float counts: their exact sums)
    none = [np.zeros(0, dtype=np.int64)]  # a ByGroup with no group (an empty one)
    units = [part.units() for part in parts]
    exact = any(unit.dtype.kind == "O" for unit in units) or overall.to_array().dtype.kind == "f"
    return PairCounts.from_exact(np.concatenate(none + [part.actual + g * m for g, part in enumerate(parts)]),
                                 np.concatenate(none + [part.predicted + g * m for g, part in enumerate(parts)]), len(parts) * m,
                                 np.concatenate([np.zeros(0, dtype=object if exact else np.int64)] + [in_units(unit) if exact else unit for unit in units]))  # fmt: skip


def _group_pairs(pairs: PairCounts, g: int, m: int) -> PairCounts:
    """The (actual, predicted) counts of group ``g`` alone (the kinds are sorted by group)."""
    start, stop = np.searchsorted(pairs.actual, [g * m, (g + 1) * m])
    low = None if pairs.low is None else pairs.low[start:stop]
    exact = {spot - start: number for spot, number in pairs.exact.items() if start <= spot < stop}
    return PairCounts(pairs.actual[start:stop] - g * m, pairs.predicted[start:stop] - g * m, pairs.counts[start:stop], m, low, exact)


def _distinct(values: Sequence[Any], what: str) -> tuple:
    """Values once each (one per identity: ``1`` and ``1.0`` once, ``"1"`` and ``1`` apart), sorted."""
    return tuple(sorted_labels(list({identity(value): value for value in values}.values()), what))


def _regrouped(result: ByGroup, keys: tuple, labels: tuple, own_keys: Sequence[Any] | None = None,
               own_labels: Sequence[Hashable] | None = None) -> PairCounts:  # fmt: skip
    """The kinds of a result's groups over other group keys and labels: group ``k`` goes to
    the key ``own_keys[k]`` (its own key unless given) and class ``c`` to ``own_labels[c]``;
    several going to one are added (a merge's union, a renaming)."""
    assert result._pairs is not None
    size = len(labels)
    positions = {identity(key): k for k, key in enumerate(keys)}
    groups = np.array([positions[identity(key)] for key in (result.keys if own_keys is None else own_keys)], dtype=np.int64)
    codes = {identity(label): k for k, label in enumerate(labels)}
    classes = np.array([codes[identity(label)] for label in (result.overall.labels if own_labels is None else own_labels)], dtype=np.int64)
    mapping = (groups[:, None] * size + classes[None, :]).ravel()  # old code g*m + a -> new code
    return result._pairs.relabel(mapping, len(keys) * size)


def _samples_over(result: ByGroup, keys: tuple, own_keys: Sequence[Any] | None = None) -> np.ndarray | None:
    """Each of ``keys``' number of samples in ``result`` (its group ``k`` under ``own_keys[k]``,
    several going to one added; 0 where it has none), or None where ``result`` keeps no count."""
    if result._samples is None:
        return None
    positions = {identity(key): k for k, key in enumerate(keys)}
    out = np.zeros(len(keys), dtype=np.int64)
    np.add.at(out, np.array([positions[identity(key)] for key in (result.keys if own_keys is None else own_keys)], dtype=np.intp), result._samples)
    return out


def _group_sizes(pairs: PairCounts, count: int, m: int) -> np.ndarray:
    """Each group's number of samples (its kinds' counts added)."""
    return weighted_bincount(pairs.actual // max(m, 1), pairs.counts, count)


def _small_integer_labels(y_true: LabelsLike, y_pred: LabelsLike) -> tuple[np.ndarray, np.ndarray, tuple] | None:
    """Codes of two 1-D integer arrays of one length over their sorted union, or None."""
    if not (isinstance(y_true, np.ndarray) and isinstance(y_pred, np.ndarray) and y_true.ndim == y_pred.ndim == 1):
        return None
    if len(y_true) != len(y_pred):
        return None
    found = _dense_codes([y_true, y_pred])
    if found is None:
        return None
    (actual, predicted), labels = found
    return actual, predicted, tuple(labels)


def _small_integer_codes(array: np.ndarray) -> tuple[np.ndarray, list] | None:
    """Codes of an integer column spanning a small range, by one ``bincount`` (no sort), or None."""
    found = _dense_codes([array])
    return None if found is None else (found[0][0], found[1])


def _dense_codes(arrays: list[np.ndarray]) -> tuple[list[np.ndarray], list] | None:
    """Codes of integer arrays over the sorted values they hold, when those span a small range:
    presence by ``bincount``, and no lookup at all when every value of the range occurs."""
    if any(array.dtype.kind not in "iu" or not len(array) for array in arrays):
        return None
    low, high = min(int(array.min()) for array in arrays), max(int(array.max()) for array in arrays)
    if high - low > 1 << 20:
        return None
    shifted = [array.astype(np.intp, copy=False) if low == 0 else (array - low).astype(np.intp, copy=False) for array in arrays]
    seen = np.zeros(high - low + 1, dtype=bool)
    for values in shifted:
        seen |= np.bincount(values, minlength=len(seen)) > 0
    if not seen.all():
        table = np.cumsum(seen) - 1
        shifted = [table[values] for values in shifted]
    return shifted, (np.flatnonzero(seen) + low).tolist()


def _slices(codes: np.ndarray, count: int) -> list[np.ndarray]:
    """The samples of each group (one stable sort)."""
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(count + 1))
    return [order[bounds[g] : bounds[g + 1]] for g in range(count)]


def _take(values: Any, rows: np.ndarray) -> np.ndarray | list:
    if isinstance(values, np.ndarray):
        return values[rows]
    listed = values if isinstance(values, list) else list(values)
    return [listed[i] for i in rows.tolist()]


# --------------------------------------------------------------------------------------------
# the result


@attrs.frozen(eq=False)
class ByGroup(CountedState):
    """A result per group and the overall one (see the module docstring). Build it with
    ``by_group`` or ``ByGroup.from_labels`` / ``from_indicators`` / ``from_label_sets`` /
    ``from_scores``.

    Attributes:
        keys: the groups, sorted (tuples of values for several group columns).
        names: the group columns' names.
        results: the result of each group, in the order of ``keys``.
        overall: the result of all samples.
        min_size: groups whose support is below it are ``small()`` (``None``: none is).
    """

    DOCUMENT = "ByGroup"

    keys: tuple
    names: tuple
    _results: tuple | None = attrs.field(repr=False)
    overall: Any = attrs.field(repr=False)
    min_size: float | None = None
    _pairs: PairCounts | None = attrs.field(default=None, repr=False)  # single-label: (group, actual, predicted) kinds, sparse
    _samples: np.ndarray | None = attrs.field(default=None, repr=False)  # each group's number of samples, unweighted (None: not known, a document of an older release)
    _cells: list = attrs.field(factory=list, init=False, repr=False, eq=False)  # single-label: every group's class cells and the whole's last, once read
    _built: dict = attrs.field(factory=dict, init=False, repr=False, eq=False)  # single-label: the groups' matrices read so far
    _index: dict = attrs.field(factory=dict, init=False, repr=False, eq=False)  # a group's key -> its position

    def __attrs_post_init__(self) -> None:
        self._index.update((identity(key), k) for k, key in enumerate(self.keys))

    _STATE = ("keys", "names", "_results", "overall", "min_size", "_pairs", "_samples")
    """What a pickle holds: the counts, not the caches of what was read."""

    def __getstate__(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self._STATE}

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Load a pickle of this release, or of one before the groups' counts were sparse (each
        group's matrix and a dense ``groups x labels x labels`` table): its matrices become the
        sparse count. Pickles are for one release line; JSON (``to_json``) is the stable format.

        Raises:
            FormatError: a pickle of a layout this release does not know.
        """
        if "_counts" in state and "results" in state:  # before the sparse rewrite
            results = state["results"]
            dense = state["_counts"] is not None
            state = {**state, "_results": None if dense else results, "_pairs": _group_matrices_pairs(results, state["overall"]) if dense else None}
        if not all(name in state for name in self._STATE[:4]):
            raise serialization.FormatError(
                f"this ByGroup was pickled by an evalkit release whose layout this one does not read (fields {show(sorted(state))}): "
                "pickles load within a minor release; JSON documents (to_json, from_json) load in every later release"
            )
        for name in self._STATE:
            object.__setattr__(self, name, state.get(name))
        for name, empty in (("_cells", []), ("_built", {}), ("_index", {})):
            object.__setattr__(self, name, empty)
        self.__attrs_post_init__()

    @property
    def results(self) -> tuple:
        """The result of each group, in the order of ``keys`` (single-label groups' matrices
        are built when first read: ``result[key]`` builds one)."""
        if self._results is not None:
            return self._results
        return tuple(self[key] for key in self.keys)

    # ----------------------------------------------------------------------------------------
    # building

    @classmethod
    def from_labels(
        cls, y_true: LabelsLike, y_pred: LabelsLike, groups: GroupsLike, labels: Sequence[Hashable] | None = None, *, sample_weight: ArrayLike | None = None,
        min_size: float | None = None, metrics_class: MetricsClass | None = None,
    ) -> ByGroup:  # fmt: skip
        """One label per sample: a ``ConfusionMatrix`` per group over the same labels, from one
        ``bincount`` of (group, actual, predicted).

        Examples:
            >>> ByGroup.from_labels([0, 1, 1], [0, 1, 0], ["a", "a", "b"])["b"].to_array().tolist()
            [[0, 0], [1, 0]]
        """
        maker = check_metrics_class(metrics_class)
        joint = _small_integer_labels(y_true, y_pred) if labels is None else None
        if joint is not None:  # integer labels in a small range: codes by one bincount, as encode would give them
            actual, predicted, found = joint
            weight = check_sample_weight(sample_weight, len(actual))
        else:
            actual, predicted, found, weight = encode(y_true, y_pred, labels, sample_weight=sample_weight)
        codes, keys, names = _group_codes(groups, len(actual))
        m = len(found)
        offset = codes.astype(np.int64) * m  # a group's classes are codes g*m .. g*m + m-1: one sparse count of (group, actual, predicted)
        pairs = PairCounts.from_codes(offset + actual, offset + predicted, len(keys) * m, weight)
        samples = (_group_sizes(pairs, len(keys), m) if weight is None else np.bincount(codes, minlength=len(keys))).astype(np.int64)  # a group of samples that weigh 0 is a group: kept while it has samples
        return cls(keys, names, None, _whole_matrix(pairs, found, maker), _min_size(min_size), pairs, samples)

    @classmethod
    def from_indicators(
        cls, y_true: LabelsLike, y_pred: LabelsLike, groups: GroupsLike, labels: Sequence[Hashable] | None = None, *, sample_weight: ArrayLike | None = None,
        min_size: float | None = None, metrics_class: MetricsClass | None = None,
    ) -> ByGroup:  # fmt: skip
        """Multi-label 0/1 indicators (samples x labels): an ``Evaluation`` per group."""
        actual, predicted = as_array(y_true, "y_true"), as_array(y_pred, "y_pred")
        return cls._sliced(len(actual), groups, sample_weight, min_size,
                           lambda rows, weight: Evaluation.from_indicators(actual[rows], predicted[rows], labels, sample_weight=weight,
                                                                           metrics_class=metrics_class))  # fmt: skip

    @classmethod
    def from_label_sets(
        cls, y_true: LabelSets, y_pred: LabelSets, groups: GroupsLike, labels: Sequence[Hashable] | None = None, *, sample_weight: ArrayLike | None = None,
        min_size: float | None = None, metrics_class: MetricsClass | None = None,
    ) -> ByGroup:  # fmt: skip
        """Label sets (one collection of labels per sample): an ``Evaluation`` per group, over
        the labels of all the data (a group that lacks a label still has its row)."""
        actual, predicted = as_label_set_list(y_true, "y_true"), as_label_set_list(y_pred, "y_pred")
        if len(actual) != len(predicted):
            raise InputLengthError(f"'y_true' has {len(actual)} samples but 'y_pred' has {len(predicted)}")
        if labels is None:
            labels = sorted_labels(list({label for row in (*actual, *predicted) for label in row}), "labels")
        return cls._sliced(len(actual), groups, sample_weight, min_size,
                           lambda rows, weight: Evaluation.from_label_sets(_take(actual, rows), _take(predicted, rows), labels,
                                                                           sample_weight=weight, metrics_class=metrics_class))  # fmt: skip

    @classmethod
    def from_scores(
        cls, y_true: LabelsLike, y_score: ScoresLike, groups: GroupsLike, labels: Sequence[Hashable] | None = None, *, pos_label: Hashable | None = None,
        sample_weight: ArrayLike | None = None, min_size: float | None = None, thresholds: Any = None,
    ) -> ByGroup:  # fmt: skip
        """ScoresLike: a ``ThresholdCurve`` per group (areas, operating points, measures at every
        threshold of each group). Multi-class labels are fixed from all the data."""
        scores, truth, labels = _scored(y_true, y_score, labels, "y_score")
        return cls._sliced(len(scores), groups, sample_weight, min_size,
                           lambda rows, weight: ThresholdCurve.from_scores(_take(truth, rows), scores[rows], labels, pos_label=pos_label,
                                                                           sample_weight=weight, thresholds=thresholds))  # fmt: skip

    @classmethod
    def from_probabilities(
        cls, y_true: LabelsLike, y_prob: ScoresLike, groups: GroupsLike, labels: Sequence[Hashable] | None = None, *, pos_label: Hashable | None = None,
        setting: str | None = None, sample_weight: ArrayLike | None = None, min_size: float | None = None, bins: int | None = None,
    ) -> ByGroup:  # fmt: skip
        """Probabilities: a ``Calibration`` per group (ECE, Brier score, log loss, ... of each
        group: ``values("ece")``, ``difference("brier_score")``). Multi-class labels are fixed
        from all the data.

        Examples:
            >>> result = ByGroup.from_probabilities([0, 1, 1, 0], [0.2, 0.9, 0.6, 0.4], ["a", "a", "b", "b"])
            >>> {key: round(value, 3) for key, value in result.values("brier_score").items()}
            {'a': 0.025, 'b': 0.16, 'overall': 0.093}
        """
        from evalkit._scores.calibration import Calibration  # probabilities by group: imported when asked for

        probabilities, truth, labels = _scored(y_true, y_prob, labels, "y_prob")
        return cls._sliced(len(probabilities), groups, sample_weight, min_size,
                           lambda rows, weight: Calibration.from_scores(_take(truth, rows), probabilities[rows], labels, pos_label=pos_label,
                                                                        setting=setting, sample_weight=weight, bins=bins))  # fmt: skip

    @classmethod
    def _sliced(cls, n: int, groups: GroupsLike, sample_weight: ArrayLike | None, min_size: float | None,
                make: Callable[[np.ndarray, np.ndarray | None], GroupResult]) -> ByGroup:  # fmt: skip
        """Results of each group's samples (one stable sort by group); the overall one of all."""
        if n == 0:
            raise EmptyInputError("no samples: at least one is needed")
        weight = check_sample_weight(sample_weight, n)
        codes, keys, names = _group_codes(groups, n)
        slices = _slices(codes, len(keys))
        results = tuple(make(rows, None if weight is None else weight[rows]) for rows in slices)
        overall = make(np.arange(n), weight)
        return cls(keys, names, results, overall, _min_size(min_size), None, np.array([len(rows) for rows in slices], dtype=np.int64))

    # ----------------------------------------------------------------------------------------
    # reading

    def __getitem__(self, key: Any) -> Any:
        return self._result(self._position(key))

    def _result(self, k: int) -> Any:
        """The result of the group at position ``k`` (a single-label group's matrix is built once, when first read)."""
        if self._results is not None:
            return self._results[k]
        found = self._built.get(k)
        if found is None:
            assert self._pairs is not None
            found = self._built[k] = _matrix(_group_pairs(self._pairs, k, len(self.overall.labels)), self.overall.labels, self.overall.metrics_class)
        return found

    def _position(self, key: Hashable) -> int:
        """The position of a group (a value as Python has it: ``np.str_("a")`` is ``"a"``,
        ``np.int64(1)`` is ``1``, ``"1"`` is not ``1``, ``True`` is not ``1``), found in O(1)."""
        try:
            return self._index[identity(key)]
        except (KeyError, TypeError):
            raise UnknownLabelError(f"no group {key!r}; the groups are {show(list(self.keys))}") from None

    def __len__(self) -> int:
        return len(self.keys)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.keys)

    def items(self) -> list[tuple[Any, Any]]:
        """``(group, result)`` pairs, in group order."""
        return list(zip(self.keys, self.results))

    def support(self) -> dict:
        """How much each group weighs (its number of samples, unweighted)."""
        if self._pairs is not None:
            return dict(zip(self.keys, _group_sizes(self._pairs, len(self.keys), len(self.overall.labels)).tolist()))
        return {key: _size(result) for key, result in self.items()}

    def small(self) -> tuple:
        """The groups smaller than ``min_size`` (marked in reports, never dropped)."""
        if self.min_size is None:
            return ()
        return tuple(key for key, size in self.support().items() if size < self.min_size)

    def values(self, measure: MeasureLike, average: str | None = None, *, label: Hashable | None = None, undefined: UndefinedPolicy = "exclude", **parameters: Any) -> dict:
        """A measure of every group and of the whole (key ``OVERALL``, also ``"overall"``): an ``average``, a
        class's value (``label``), or a whole-result measure (accuracy, kappa, MCC, or a
        curve's ``roc_auc``/``average_precision``) without either.

        Examples:
            >>> result = by_group([0, 1, 1, 0], [0, 1, 0, 0], ["a", "a", "b", "b"])
            >>> result.values("recall", "macro")
            {'a': 1.0, 'b': 0.5, 'overall': 0.75}

        Raises:
            InvalidArgumentError: both an ``average`` and a ``label`` (the label's value was read,
                under the average's name).
        """
        if average is not None and label is not None:
            raise InvalidArgumentError(f"give an 'average' or a 'label', not both: average={average!r}, label={label!r}")
        if self._pairs is not None and (average in ("micro", "macro", "weighted") or label is not None):
            values = self._stacked(measure, average, label, undefined, parameters)  # every group at once, and the whole last
            found = GroupValues(zip(self.keys, values[:-1].tolist()))
            found[OVERALL] = float(values[-1])
            return found
        if self._pairs is not None and average is None and label is None:  # a whole-result measure of every group, from its own counts
            name = self.overall.measure(measure).name
            _refuse_part_measure(name, self.overall.whole_measures())
            m = len(self.overall.labels)
            found = GroupValues((key, _whole_value(_group_pairs(self._pairs, k, m), name)) for k, key in enumerate(self.keys))
        else:
            found = GroupValues((key, value_of(self._result(k), measure, average, label, undefined, parameters)) for k, key in enumerate(self.keys))
        found[OVERALL] = value_of(self.overall, measure, average, label, undefined, parameters)
        return found

    def _stacked(self, measure: MeasureLike, average: str | None, label: Hashable, undefined: UndefinedPolicy, parameters: dict[str, Any]) -> np.ndarray:
        """A measure of every group and of the whole (last) from the groups' confusion matrices
        stacked: one vectorised call for all (single-label results)."""
        assert self._pairs is not None
        resolved = self.overall.measure(measure)
        if not self._cells:  # groups x classes cells: built when a per-class measure is first asked
            self._cells.append(self._pairs.block_cells(len(self.keys), len(self.overall.labels)))
        cells = self._cells[0]
        if label is not None:
            labels = list(self.overall.labels)
            if label not in labels:
                raise UnknownLabelError(f"no class {label!r}; the classes are {show(labels)}")
            return np.asarray(cells.evaluate(resolved, **parameters), dtype=np.float64)[:, labels.index(label)]
        assert average is not None
        return np.asarray(average_rows(resolved, cells, average, undefined=check_undefined(undefined), parameters=parameters), dtype=np.float64)

    def difference(self, measure: MeasureLike, average: str | None = None, *, label: Hashable | None = None, relative_to: Hashable = "between",
                   undefined: UndefinedPolicy = "exclude", confidence: float | None = None, n_resamples: int = 2000, random_state: RandomState = 0,
                   **parameters: Any) -> Disparity:  # fmt: skip
        """How far apart the groups are on a measure: between groups the largest value minus
        the smallest; ``relative_to="overall"`` the largest distance of a group from the
        overall value; ``relative_to=<group>`` the largest distance from that group's. With
        ``confidence`` (e.g. 0.95) a bootstrap interval that resamples within every group
        (single-label results).

        Examples:
            >>> result = by_group([0, 1, 1, 0, 1, 0], [0, 1, 0, 0, 1, 1], ["a", "a", "b", "b", "c", "c"])
            >>> print(result.difference("recall", "macro"))
            recall (macro) difference 0.5 ('a' vs 'b')
        """
        return self._disparity("difference", measure, average, label, relative_to, undefined, confidence, n_resamples, random_state, parameters)

    def ratio(self, measure: MeasureLike, average: str | None = None, *, label: Hashable | None = None, relative_to: Hashable = "between", undefined: UndefinedPolicy = "exclude",
              confidence: float | None = None, n_resamples: int = 2000, random_state: RandomState = 0, **parameters: Any) -> Disparity:  # fmt: skip
        """The smallest ratio of groups' values (1: no disparity): between groups the smallest
        value over the largest; against the overall value or a reference group the smallest of
        ``min(g / r, r / g)``. Intervals as for ``difference``."""
        return self._disparity("ratio", measure, average, label, relative_to, undefined, confidence, n_resamples, random_state, parameters)

    def _disparity(self, kind: str, measure: MeasureLike, average: str | None, label: Hashable, relative_to: Hashable, undefined: UndefinedPolicy, confidence: Any,
                   n_resamples: int, random_state: RandomState, parameters: dict[str, Any]) -> Disparity:  # fmt: skip
        reference = self._reference(relative_to)
        values = self.values(measure, average, label=label, undefined=undefined, **parameters)
        per_group = np.array([values[key] for key in self.keys], dtype=np.float64)
        value, pair = _disparity(kind, per_group, values[OVERALL], reference)
        extremes = tuple(OVERALL if k < 0 else self.keys[k] for k in pair) if pair else ()
        name = self._name(measure) + (f" ({average})" if average else f" of {label!r}" if label is not None else "")
        found = None
        if confidence is not None:
            found = self._interval(kind, measure, average, label, reference, undefined, value, confidence, n_resamples, random_state, parameters)
        return Disparity(value, kind, name, relative_to, values, extremes, found, int(np.isnan(per_group).sum()))

    def _name(self, measure: MeasureLike) -> str:
        if isinstance(self.overall, ThresholdCurve):  # groups of scores: their measures are the areas
            return _area_name(measure)
        if _is_calibration(self.overall):
            return _calibration_name(measure)
        resolver = getattr(self.overall, "measure", None)
        return resolver(measure).name if resolver is not None and not isinstance(measure, Measure) else getattr(measure, "name", str(measure))

    def _reference(self, relative_to: Hashable) -> int | None:
        """``None`` between groups, -1 for the overall value, else the reference group's position."""
        if isinstance(relative_to, str) and relative_to in RELATIVE_TO:
            return None if relative_to == "between" else -1
        try:
            return self._position(relative_to)
        except UnknownLabelError:
            raise InvalidArgumentError(f"relative_to must be 'between', 'overall' or a group ({show(list(self.keys))}), got {relative_to!r}") from None

    def _interval(self, kind: str, measure: MeasureLike, average: str | None, label: Hashable, reference: int | None, undefined: UndefinedPolicy, estimate: float,
                  level: float, n_resamples: int, random_state: RandomState, parameters: dict[str, Any]) -> intervals.Interval:  # fmt: skip
        """The percentile bootstrap of a disparity of single-label results: the kinds are the
        (group, actual, predicted) triples, drawn within every group."""
        if self._pairs is None:
            raise UnsupportedSettingError("disparity intervals are for single-label results (ByGroup.from_labels)")
        resolved = self.overall.measure(measure)
        if label is None and average is None:
            _refuse_part_measure(resolved.name, self.overall.whole_measures())
        policy = check_undefined(undefined)
        count, m = len(self.keys), len(self.overall.labels)
        group, actual = np.divmod(self._pairs.actual, m)
        predicted = self._pairs.predicted % m
        position = None if label is None else list(self.overall.labels).index(label)

        def statistic(drawn: np.ndarray) -> np.ndarray:
            rows = len(drawn)
            correct = intervals.column_sums(drawn[:, actual == predicted], (group * m + actual)[actual == predicted], count * m)
            by_actual = intervals.column_sums(drawn, group * m + actual, count * m)
            by_predicted = intervals.column_sums(drawn, group * m + predicted, count * m)
            totals = intervals.column_sums(drawn, group, count)
            n = np.repeat(totals, m, axis=1)
            cells = Cells(correct, by_predicted - correct, by_actual - correct, n - by_actual - by_predicted + correct)
            shaped = Cells(*(getattr(cells, name).reshape(rows * count, m) for name in ("tp", "fp", "fn", "tn")))
            if position is None and average is None:  # a whole-result measure of each group (and of the whole) from its margins
                diagonal = correct.reshape(rows, count, m).sum(axis=2)
                margins = {"correct": diagonal, "total": totals, "actual": by_actual.reshape(rows, count, m), "predicted": by_predicted.reshape(rows, count, m)}
                values = _whole_of_margins(resolved.name, margins).reshape(rows, count)
                overall = _whole_of_margins(resolved.name, {key: value.sum(axis=1) for key, value in margins.items()})
                return np.array([_disparity(kind, row, total, reference)[0] for row, total in zip(values, overall)])
            if position is not None:
                values = np.asarray(shaped.evaluate(resolved, **parameters), dtype=np.float64)[:, position]
            else:
                values = np.asarray(average_rows(resolved, shaped, average or "macro", undefined=policy, parameters=parameters), dtype=np.float64)
            values = values.reshape(rows, count)
            whole = Cells(*(getattr(cells, name).reshape(rows, count, m).sum(axis=1) for name in ("tp", "fp", "fn", "tn")))
            if position is not None:
                overall = np.asarray(whole.evaluate(resolved, **parameters), dtype=np.float64)[:, position]
            else:
                overall = np.asarray(average_rows(resolved, whole, average or "macro", undefined=policy, parameters=parameters), dtype=np.float64)
            return np.array([_disparity(kind, row, total, reference)[0] for row, total in zip(values, overall)])

        replicates = intervals.stratified_replicates(self._pairs.counts, group, statistic, n_resamples, random_state)
        defined = replicates[~np.isnan(replicates)]
        return intervals.percentile_interval(defined, estimate, level, len(replicates) - len(defined))

    # ----------------------------------------------------------------------------------------
    # combining and reading back

    def merge(self, other: ByGroup, *, grow: bool = False) -> ByGroup:
        """The groups of both batches together (a group in one only keeps its result).

        Raises:
            LabelMismatchError: other group columns, or results that do not merge.
        """
        if not isinstance(other, ByGroup):
            raise InvalidTypeError(f"can only merge a ByGroup, got {show(other)}")
        if self.names != other.names:
            raise LabelMismatchError(f"cannot merge groups of the columns {list(self.names)} and {list(other.names)}")
        keys = _distinct((*self.keys, *other.keys), "groups")
        mine_n, theirs_n = _samples_over(self, keys), _samples_over(other, keys)
        samples = None if mine_n is None or theirs_n is None else mine_n + theirs_n
        if self._pairs is not None and other._pairs is not None:  # the sparse counts of both, over the union of groups and of labels
            labels = self.overall.labels
            if not same_labels(self.overall.labels, other.overall.labels):
                labels = tuple(sorted_labels(list(dict.fromkeys([*self.overall.labels, *other.overall.labels])), "labels"))
            pairs = _regrouped(self, keys, labels).plus(_regrouped(other, keys, labels))
            return ByGroup(keys, self.names, None, self.overall.with_labels(labels) + other.overall.with_labels(labels), self.min_size, pairs, samples)
        mine, theirs = dict(self.items()), dict(other.items())
        results = tuple(mine[key] + theirs[key] if key in mine and key in theirs else mine[key] if key in mine else theirs[key] for key in keys)
        return ByGroup(keys, self.names, results, self.overall + other.overall, self.min_size, None, samples)

    def renamed(self, keys: Sequence[Any], labels: Sequence[Hashable] | None = None) -> ByGroup:
        """The same counts under other names: ``keys[k]`` for the group at position ``k`` and,
        for single-label results, ``labels[c]`` for the class ``overall.labels[c]``; groups or
        classes given one name are one (their counts added). The command line names a CSV
        file's groups and labels by value this way once it has read every row.

        Examples:
            >>> result = by_group([1, 0, 1], [1, 1, 1], ["1", "1.0", "2"]).renamed([1, 1, 2])
            >>> result.keys, result.values("accuracy")[1]
            ((1, 2), 0.5)
        """
        if len(keys) != len(self.keys):
            raise InvalidArgumentError(f"'keys' must name each of the {len(self.keys)} groups, got {len(keys)} names")
        distinct = _distinct(keys, "groups")
        if self._pairs is None:
            if labels is not None:
                raise UnsupportedSettingError("only single-label groups (ByGroup.from_labels) rename their classes")
            merged: dict[Any, Any] = {}
            for key, result in zip(map(identity, keys), self.results):
                merged[key] = result if key not in merged else merged[key] + result
            return ByGroup(distinct, self.names, tuple(merged[identity(key)] for key in distinct), self.overall, self.min_size, None,
                           _samples_over(self, distinct, keys))  # fmt: skip
        if labels is not None and len(labels) != len(self.overall.labels):
            raise InvalidArgumentError(f"'labels' must name each of the {len(self.overall.labels)} classes, got {len(labels)} names")
        found = _distinct(self.overall.labels if labels is None else labels, "labels")
        pairs = _regrouped(self, distinct, found, keys, labels)
        return ByGroup(distinct, self.names, None, _whole_matrix(pairs, found, self.overall.metrics_class), self.min_size, pairs,
                       _samples_over(self, distinct, keys))  # fmt: skip

    OPERATIONS: ClassVar[frozenset[str]] = ALL_OPERATIONS - {"update", "revert"}
    REFUSED: ClassVar[Mapping[str, str]] = {"update": "a ByGroup is immutable: merge another batch's", "revert": "a ByGroup is immutable: subtract a batch's (a - part)"}

    def counted(self, *batch: Any, sample_weight: ArrayLike | None = None, **columns: object) -> ByGroup:
        """The groups of one batch ``(y_true, y_pred, groups)``, with these settings (the group columns, the labels, the
        metrics class, ``min_size``): what a window of groups adds, and takes away when the
        batch leaves it. Labels (a matrix per group) and indicators or label sets (an
        evaluation per group); groups of scores are counted whole.

        Raises:
            UnsupportedSettingError: groups of scores (curves, calibrations).
            LabelMismatchError: the batch's group columns are not these.

        Examples:
            >>> template = by_group(["a"], ["a"], ["north"], labels=["a", "b"]).empty()
            >>> part = template.counted(["a", "b"], ["b", "b"], ["south", "north"])
            >>> part.keys, part["north"].to_array().tolist()
            (('north', 'south'), [[0, 0], [0, 1]])
        """
        if len(batch) != 3 or columns:
            raise InvalidArgumentError(f"a batch of groups has three columns, y_true, y_pred and groups; got {len(batch)}{f' and {sorted(columns)}' if columns else ''}")
        y_true, y_pred, groups = batch
        overall = self.overall
        if not isinstance(overall, (ConfusionMatrix, Evaluation)):
            raise UnsupportedSettingError(f"a ByGroup of {type(overall).__name__} results is built whole: a window counts groups of labels, "
                                          "indicators or label sets")  # fmt: skip
        part = by_group(y_true, y_pred, groups, overall.labels, sample_weight=sample_weight, min_size=self.min_size, metrics_class=overall.metrics_class)
        if part.names != self.names:
            raise LabelMismatchError(f"the batch's group columns {list(part.names)} are not these groups' {list(self.names)}")
        return part

    def _subtract(self, other: ByGroup) -> ByGroup:
        """These groups without ``other``'s, a batch merged into them; a group of ``other`` left
        with no sample is dropped, one left with samples that weigh 0 kept, as ``by_group`` of the
        samples left keeps it (where either side keeps no sample counts, a document of an older
        release: a group left with no weight is dropped). The subtraction of a group's result:
        see its kind."""
        if self.names != other.names:
            raise LabelMismatchError(f"cannot subtract groups of the columns {list(other.names)} from {list(self.names)}")
        unknown = [key for key in other.keys if identity(key) not in self._index]
        if unknown:
            raise InvalidCountsError(f"cannot take away groups these never had: {show(unknown)}")
        theirs_n = _samples_over(other, self.keys)
        samples = None if self._samples is None or theirs_n is None else self._samples - theirs_n
        if samples is not None and bool((samples < 0).any()):
            raise InvalidCountsError(f"cannot take away samples these groups never had: {show([key for key, n in zip(self.keys, samples) if n < 0])}")
        overall = self.overall
        if self._pairs is not None and other._pairs is not None:
            labels = tuple(overall.labels)
            known = {identity(label) for label in labels}
            if any(identity(label) not in known for label in other.overall.labels):
                raise InvalidCountsError(f"cannot take away classes these groups never had: {show(list(other.overall.labels))}")
            pairs = self._pairs.minus(_regrouped(other, self.keys, labels))
            m = len(labels)
            brought = np.array([identity(key) in other._index for key in self.keys], dtype=bool)
            present = (_group_sizes(pairs, len(self.keys), m) > 0) if samples is None else samples > 0
            kept = np.flatnonzero(present | ~brought)
            keys = tuple(self.keys[k] for k in kept)
            if len(keys) < len(self.keys):  # renumber the groups left (a dropped group has no kinds left to move)
                position = np.zeros(len(self.keys), dtype=np.int64)
                position[kept] = np.arange(len(kept))
                pairs = pairs.relabel((position[:, None] * m + np.arange(m)[None, :]).ravel(), len(keys) * m)
            return ByGroup(keys, self.names, None, overall - other.overall.with_labels(labels), self.min_size, pairs, None if samples is None else samples[kept])
        theirs = dict(other.items())
        left = [(k, key, result - theirs[key] if key in theirs else result) for k, (key, result) in enumerate(self.items())]
        left = [(k, key, result) for k, key, result in left if key not in theirs or (result.n_samples > 0 if samples is None else samples[k] > 0)]
        return ByGroup(tuple(key for _, key, _ in left), self.names, tuple(result for _, _, result in left), overall - other.overall, self.min_size, None,
                       None if samples is None else samples[[k for k, _, _ in left]])  # fmt: skip

    def _scaled(self, factor: float) -> ByGroup:
        if self._pairs is not None:
            return ByGroup(self.keys, self.names, None, self.overall.scaled(factor), self.min_size, self._pairs.times(factor), self._samples)
        return ByGroup(self.keys, self.names, tuple(result.scaled(factor) for result in self.results), self.overall.scaled(factor), self.min_size, None,
                       self._samples)  # fmt: skip

    def empty(self) -> ByGroup:
        """The same group columns and classes, no group and nothing counted."""
        pairs = None if self._pairs is None else attrs.evolve(self._pairs.empty(), size=0)  # no group: codes g*m + class range over nothing
        return ByGroup((), self.names, None if pairs is not None else (), self.overall.empty(), self.min_size, pairs, np.zeros(0, dtype=np.int64))

    def _document(self) -> dict[str, Any]:
        """The groups and their results as an evalkit JSON document (confusion matrices and
        evaluations; curves have no JSON form)."""
        if not isinstance(self.overall, (ConfusionMatrix, Evaluation)):  # (curves and calibrations have JSON of their own, but a document of groups holds matrices or evaluations)
            raise UnsupportedSettingError(f"groups of scores ({type(self.overall).__name__} results) have no JSON form; save the scores")
        import json

        payload = {"names": list(self.names), "keys": [list(key) if isinstance(key, tuple) else key for key in self.keys],
                   "min_size": self.min_size, "kind": type(self.overall).__name__,
                   "results": [json.loads(result.to_json()) for result in self.results], "overall": json.loads(self.overall.to_json())}  # fmt: skip
        if self._samples is not None:  # each group's number of samples (a group of samples that weigh 0 stays one)
            payload["samples"] = self._samples.tolist()
        return payload

    @classmethod
    def _read_document(cls, document: dict[str, Any]) -> ByGroup:
        import json

        kind = serialization.field(document, "kind")
        reader: type[ConfusionMatrix | Evaluation] | None = {"ConfusionMatrix": ConfusionMatrix, "Evaluation": Evaluation}.get(kind)
        if reader is None:
            raise serialization.FormatError(f"field 'kind' must be ConfusionMatrix or Evaluation, got {show(kind)}")
        names = serialization.field(document, "names")
        keys = serialization.field(document, "keys")
        found = serialization.field(document, "results")
        if not isinstance(names, list) or not isinstance(keys, list) or not isinstance(found, list) or len(keys) != len(found):
            raise serialization.FormatError("fields 'names', 'keys' and 'results' must be lists, one result per key")
        results: tuple | None = tuple(reader.from_json(json.dumps(item)) for item in found)
        overall = reader.from_json(json.dumps(serialization.field(document, "overall")))
        pairs = None
        if reader is ConfusionMatrix:  # the groups' matrices as one sparse count, as from_labels keeps them
            pairs, results = _group_matrices_pairs(results or (), cast(ConfusionMatrix, overall)), None
        min_size = document.get("min_size")
        samples = document.get("samples")
        if samples is not None:
            samples = serialization.array(samples, "samples", length=len(keys))
        return cls(tuple(tuple(key) if isinstance(key, list) else key for key in keys), tuple(names), results, overall,
                   None if min_size is None else serialization.number(min_size, "min_size"), pairs, samples)  # fmt: skip

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ByGroup):
            return NotImplemented
        if not (same_labels(self.keys, other.keys) and self.names == other.names and self.overall == other.overall):
            return False
        if self._pairs is not None and other._pairs is not None:
            return self._pairs.same_as(other._pairs)
        return all(a == b for a, b in zip(self.results, other.results))

    __hash__ = None  # type: ignore[assignment]

    def report(self, measures: Sequence[MeasureLike] = ("accuracy", "f1_score"), average: str = "macro", *, confidence: float | None = None,
               undefined: UndefinedPolicy = "exclude", random_state: RandomState = 0, n_resamples: int = 2000, scored: Sequence[ByGroup] = (),
               sort_by: MeasureLike | None = None, label: Hashable | None = None) -> Any:  # fmt: skip  # a GroupReport (evalkit.io._report), rendered above this layer
        """The by-group table (``evalkit.io.GroupReport``): a row per group and the overall
        one, a column per measure (the ``average`` of each, or a whole-result measure), each
        group's support and whether it is small, with ``confidence`` each value's interval, and
        below the groups each column's difference and ratio between them. ``scored``: results of
        the same groups' scores (``from_scores``: the areas) or probabilities
        (``from_probabilities``: the calibration measures), whose columns the names of their
        measures ask for; ``sort_by``: a column, the groups from best to worst by it; ``label``:
        a class (the positive one of binary data), whose values the columns show instead of the
        ``average``."""

        for other in scored:
            if not isinstance(other, ByGroup) or not same_labels(tuple(map(identity, other.keys)), tuple(map(identity, self.keys))):
                raise LabelMismatchError(f"'scored' must hold results by the same groups {show(list(self.keys))}, got {show(other)}")
        return render("group_report", self, list(measures), average, confidence=confidence, undefined=undefined, random_state=random_state,
                            n_resamples=n_resamples, scored=tuple(scored), sort_by=sort_by, label=label)  # fmt: skip

    def __repr__(self) -> str:
        return f"ByGroup({type(self.overall).__name__}, groups={list(self.keys)!r}, samples={_size(self.overall)})"


def by_group(y_true: LabelsLike, y_pred: LabelsLike, groups: GroupsLike, labels: Sequence[Hashable] | None = None, *, sample_weight: ArrayLike | None = None,
             min_size: float | None = None, metrics_class: MetricsClass | None = None) -> ByGroup:  # fmt: skip
    """Evaluate predictions per group: one label per sample (``ConfusionMatrix`` per group),
    ``n x m`` 0/1 indicators or label sets (``Evaluation`` per group). For scores use
    ``ByGroup.from_scores``.

    Args:
        y_true: actual labels, indicator rows or label sets.
        y_pred: predicted ones, of the same kind.
        groups: the group of every sample; or several columns (a dict name -> column, a 2-D
            array, or a list of columns) whose intersections are the groups.
        labels: the label order.
        sample_weight: one weight per sample.
        min_size: groups that weigh less are marked ``small``.
        metrics_class: the metrics class of the results.
    """
    if is_label_set_data(y_true):
        return ByGroup.from_label_sets(y_true, cast("LabelSets", y_pred), groups, labels, sample_weight=sample_weight, min_size=min_size, metrics_class=metrics_class)
    actual = as_array(y_true, "y_true")
    if actual.ndim == 2:
        return ByGroup.from_indicators(y_true, y_pred, groups, labels, sample_weight=sample_weight, min_size=min_size, metrics_class=metrics_class)
    return ByGroup.from_labels(y_true, y_pred, groups, labels, sample_weight=sample_weight, min_size=min_size, metrics_class=metrics_class)

