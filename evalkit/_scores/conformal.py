"""Prediction sets and prediction intervals: what conformal predictors (and quantile
regressors) give instead of one answer, evaluated by their coverage and their size.

* ``SetCoverage``: a classifier's prediction sets (a boolean membership matrix, label sets, or
  scores with a threshold): the **coverage** ``Σ w [y ∈ S] / Σ w`` marginally, per class, per
  group and per set size (size-stratified, Angelopoulos & Bates, "A gentle introduction to
  conformal prediction", 2021), the mean size and the distribution of sizes, the singleton
  rate and the accuracy of singletons, and the empty sets.
* ``IntervalCoverage``: a regressor's intervals ``[l, u]``: coverage ``Σ w [l ≤ y ≤ u] / Σ w``,
  mean width ``Σ w (u - l) / Σ w``, the interval (Winkler) score at a level ``1 - α``
  (Winkler 1972; Gneiting & Raftery 2007, section 6.2)

      S_α = mean of (u - l) + (2/α)(l - y)·[y < l] + (2/α)(y - u)·[y > u]

  and coverage in bins of the prediction (conditional coverage along the predicted value).

Both are sums over samples, so both are counted states (``evalkit._results.counted``): merge,
take a part away, scale, empty, copy, JSON and pickle, and windows, Dask and Spark fold them.
Unweighted counts are whole numbers (exact); weighted counts and the widths are float sums, so
merged parts equal the whole to rounding. Coverage intervals (Wilson, Clopper-Pearson) treat
the samples as independent draws, as a conformal guarantee does marginally.

Examples:
    >>> sets = SetCoverage.from_sets(["a", "b", "c"], [{"a"}, {"a", "b"}, set()], labels=["a", "b", "c"])
    >>> sets.coverage(), sets.mean_size(), sets.singleton_rate(), sets.empty_rate()
    (0.6666666666666666, 1.0, 0.3333333333333333, 0.3333333333333333)
    >>> intervals = IntervalCoverage.from_intervals([1.0, 2.0, 5.0], [0.5, 1.0, 2.0], [1.5, 3.0, 4.0])
    >>> intervals.coverage(), intervals.mean_width(), intervals.interval_score(0.8)
    (0.6666666666666666, 1.6666666666666667, 5.000000000000001)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn, TypeGuard, cast

import numpy as np

from evalkit._engine import serialization
from evalkit._engine._columns import list_column
from evalkit._engine._exact import (
    equal_counts,
    exact_bincount,
    in_units,
    rounded_counts,
    weighted_bincount,
)
from evalkit._engine._keyed import KeyedSums
from evalkit._engine._labels import (
    check_label_list,
    column_labels,
    label_union,
    position_of,
    positions_in,
    same_labels,
    sorted_labels,
)
from evalkit._engine._types import Count, IntervalsLike, LabelSets, LabelsLike, SetsLike
from evalkit._engine._validation import as_array, check_real, check_sample_weight, show
from evalkit._engine.counting import encode, encode_label_set_family, is_label_set_data
from evalkit._results._sequences import DEFAULT_TUNING
from evalkit._results._summed import SummedState
from evalkit._scores.calibration_sums import _SUM_TOLERANCE
from evalkit.exceptions import (
    CountOverflowError,
    InputLengthError,
    InputShapeError,
    InvalidArgumentError,
    InvalidTypeError,
    InvalidValueError,
)
from evalkit.measures._arithmetic import ratio, ratios

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from evalkit._results._closed_form import Interval

__all__ = ["IntervalCoverage", "SetCoverage", "class_codes", "covered_rows", "crossed_bound", "interval_bounds", "probability_rows", "set_membership", "size_bin_starts", "top_mass_rows", "top_mass_sets"]


def _summed(keys: np.ndarray, weight: np.ndarray, size: int) -> np.ndarray:
    """``Σ weight`` per key ``0 .. size-1``: int64 for integer weights (exact), else float64."""
    sums = np.bincount(keys, weights=weight, minlength=size)
    return sums.astype(np.int64) if weight.dtype.kind in "iu" else sums


# --------------------------------------------------------------------------------------------
# prediction sets


def _label_sets(y_sets: SetsLike) -> TypeGuard[LabelSets]:
    """Whether prediction sets are label sets (a sequence of collections, or a 1-D array of
    them: a dataframe column of lists) rather than a membership matrix (any other array)."""
    if list_column(y_sets) is not None:  # a dataframe column of lists
        return True
    objects = getattr(y_sets, "dtype", None) == object and getattr(y_sets, "ndim", 0) == 1
    return (objects or not hasattr(y_sets, "shape")) and is_label_set_data(list(cast(np.ndarray, y_sets)) if objects else y_sets)


def set_membership(y_sets: SetsLike, labels: Sequence[Hashable] | None, n: int, argument: str = "y_pred_set") -> tuple[tuple, Any]:
    """The labels and a reader of each sample's set: ``(labels, sets)`` where ``sets`` is a
    boolean ``n x k`` matrix (from a 0/1 or boolean array, columns in the order of ``labels``,
    by default ``0 .. k-1``) or ``(keys, m)`` sparse keys ``sample * m + code`` of label sets
    (a sequence of collections of labels: anything without a ``shape``).

    Raises:
        InputShapeError: a matrix that is not 2-D.
        InputLengthError: not ``n`` sets.
        InvalidValueError: a matrix entry other than 0 or 1.
    """
    if _label_sets(y_sets):
        keys, found, count = encode_label_set_family(y_sets, labels, argument)
        if count != n:
            raise InputLengthError(f"{argument!r} has {count} sets for {n} samples")
        return found, (keys, len(found))
    matrix = as_array(y_sets, argument)
    if matrix.ndim != 2:
        raise InputShapeError(f"{argument!r} must be a samples x classes membership matrix or one label set per sample, got shape {matrix.shape}")
    if len(matrix) != n:
        raise InputLengthError(f"{argument!r} has {len(matrix)} rows for {n} samples")
    if matrix.dtype.kind != "b":
        if matrix.dtype.kind not in "iuf":
            raise InvalidTypeError(f"{argument!r} must hold booleans or 0/1, got dtype {matrix.dtype}")
        odd = (matrix != 0) & (matrix != 1)
        if odd.any():
            row, column = np.argwhere(odd)[0]
            raise InvalidValueError(f"{argument!r} must hold booleans or 0/1, got {matrix[row, column].item()!r} at row {row}, column {column}")
        matrix = matrix != 0
    return column_labels(labels, matrix.shape[1]), np.ascontiguousarray(matrix)


def _set_rows(y_true: LabelsLike, y_sets: SetsLike, labels: Sequence[Hashable] | None) -> tuple[tuple, np.ndarray, np.ndarray, np.ndarray]:
    """The labels, each sample's class code, whether its set holds its class, and its set's size."""
    truth: np.ndarray | list = list(cast(Any, y_true)) if not isinstance(y_true, np.ndarray) else y_true
    n = len(truth)
    if labels is None and _label_sets(y_sets):  # the classes: every one in a set or a true label
        seen = encode(truth, truth, None, names=("y_true", "y_true"))[2] if n else ()
        found = encode_label_set_family(y_sets, None, "y_pred_set")[1]
        labels = sorted_labels(label_union(found, seen, ("y_pred_set", "y_true")))
    found, sets = set_membership(y_sets, labels, n)
    codes = class_codes(truth, found)
    if isinstance(sets, tuple):
        keys, m = sets
        sizes = np.bincount(keys // m, minlength=n) if m else np.zeros(n, dtype=np.int64)
    else:
        sizes = np.einsum("ij->i", sets.view(np.uint8)).astype(np.intp) if sets.shape[1] else np.zeros(n, dtype=np.intp)
    return found, codes, covered_rows(sets, codes), sizes


def covered_rows(sets: np.ndarray | tuple[np.ndarray, int], codes: np.ndarray) -> np.ndarray:
    """Whether each sample's set holds its class (``codes``): ``sets`` a boolean ``n x k``
    matrix or ``(keys, m)`` sparse keys ``sample * m + code``, as ``set_membership`` gives them."""
    n = len(codes)
    if isinstance(sets, tuple):
        keys, m = sets
        wanted = np.arange(n, dtype=np.int64) * m + codes
        spot = np.minimum(np.searchsorted(keys, wanted), max(len(keys) - 1, 0))
        return (keys[spot] == wanted) if len(keys) else np.zeros(n, dtype=bool)
    k = sets.shape[1]
    return sets.reshape(-1)[np.arange(n, dtype=np.intp) * k + codes] if k else np.zeros(n, dtype=bool)


def class_codes(truth: np.ndarray | list, labels: tuple) -> np.ndarray:
    """Each true label's position in ``labels``: an integer array over the classes ``0 .. k-1``
    is its own code (checked to lie there), anything else is encoded."""
    k = len(labels)
    if isinstance(truth, np.ndarray) and truth.dtype.kind in "iu" and truth.ndim == 1 and same_labels(labels, tuple(range(k))):
        if not len(truth):
            return np.zeros(0, dtype=np.int64)
        if truth.min() >= 0 and truth.max() < k:
            return truth.astype(np.int64, copy=False)
    if not len(truth):
        return np.zeros(0, dtype=np.int64)
    return encode(truth, truth, labels, names=("y_true", "y_true"))[0].astype(np.int64)


def probability_rows(y_prob: ArrayLike, argument: str = "y_prob") -> np.ndarray:
    """A row of class probabilities per sample as an ``n x m`` float64 matrix (a column of rows,
    as a dataframe's array column, stacked): numbers in [0, 1], each row summing to at most 1
    (below is allowed: a row of zeros predicts nothing).

    Raises:
        InvalidArgumentError: not a matrix of numbers (booleans are not probabilities).
        InvalidValueError: a value outside [0, 1] or NaN, or a row summing to more than 1.
    """
    rows = as_array(y_prob, argument)
    if rows.dtype.kind == "O" and rows.ndim == 1 and len(rows) and len({np.shape(row) for row in rows}) == 1:
        rows = np.stack(list(rows))  # (a column of rows: a dataframe's or Spark's array column)
    if rows.dtype.kind not in "iuf" or rows.ndim != 2:
        raise InvalidArgumentError(f"{argument!r} must be a samples x classes matrix of numbers (probabilities), got {show(rows)}")
    rows = rows.astype(np.float64)
    if not (np.all(rows >= 0) and np.all(rows <= 1)):
        raise InvalidValueError(f"{argument!r} must hold probabilities in [0, 1], got {show(rows[~((rows >= 0) & (rows <= 1))][:3])}")
    over = np.flatnonzero(rows.sum(axis=1) > 1 + _SUM_TOLERANCE)
    if len(over):
        raise InvalidValueError(f"row {over[0]} of {argument!r} sums to {rows[over[0]].sum():.6g}, more than 1: give each sample's class probabilities")
    return rows


def top_mass_sets(y_prob: ArrayLike, mass: float = 0.95, argument: str = "y_prob") -> np.ndarray:
    """The smallest set of top-probability classes of each row whose probabilities reach
    ``mass`` (an ``n x m`` boolean matrix): classes taken from the most probable down (of equal
    probabilities the later column first), each while the ones before it sum to less than
    ``mass``; a row summing to less takes every class. Weka's predicted regions
    (``coverageOfTestCasesByPredictedRegions``, ``sizeOfPredictedRegions``) and the adaptive
    prediction sets of Romano, Sesia & Candès (2020) without their randomisation.

    Raises:
        InvalidArgumentError: ``mass`` not in (0, 1]; and the errors of ``probability_rows``.

    Examples:
        >>> top_mass_sets([[0.9, 0.05, 0.05], [0.5, 0.3, 0.2]]).tolist()
        [[True, False, True], [True, True, True]]
    """
    if isinstance(mass, bool) or not isinstance(mass, (int, float, np.integer, np.floating)) or not 0 < mass <= 1:
        raise InvalidArgumentError(f"'mass' must be a number in (0, 1], e.g. 0.95; got {show(mass)}")
    return top_mass_rows(probability_rows(y_prob, argument), float(mass))


def top_mass_rows(scores: np.ndarray, mass: float) -> np.ndarray:
    """``top_mass_sets`` of rows of probabilities ``probability_rows`` has checked (and a checked ``mass``)."""
    m = scores.shape[1]
    order = m - 1 - np.argsort(-scores[:, ::-1], axis=1, kind="stable")  # most probable first; of equal ones the later column first
    ranked = np.take_along_axis(scores, order, axis=1)
    before = np.zeros_like(ranked)
    np.cumsum(ranked[:, :-1], axis=1, out=before[:, 1:])  # what the classes before each sum to, added in turn
    sets = np.zeros(scores.shape, dtype=bool)
    np.put_along_axis(sets, order, before < mass, axis=1)
    return sets


def size_bin_starts(k: int, n_bins: int | None, argument: str = "n_bins") -> np.ndarray:
    """The smallest set size of each bin of the sizes ``0 .. k``: every size (``None``), or
    ``n_bins`` runs of consecutive sizes as ``np.array_split`` cuts them.

    Raises:
        InvalidArgumentError: ``n_bins`` not a whole number in ``1 .. k + 1``.
    """
    if n_bins is None:
        return np.arange(k + 1)
    if isinstance(n_bins, bool) or not isinstance(n_bins, (int, np.integer)) or not 1 <= n_bins <= k + 1:
        raise InvalidArgumentError(f"{argument!r} must be a whole number in 1..{k + 1} (the set sizes 0..{k}), got {show(n_bins)}")
    return np.array([part[0] for part in np.array_split(np.arange(k + 1), n_bins)])


class _Sums(SummedState):
    """What set and interval coverage share: a proportion's interval of whole counts."""

    def _interval(self, successes: Count, trials: Count, level: float, method: str | None, anytime: bool, tuning: float) -> Interval:
        from evalkit._results.intervals import sample_proportion_interval

        successes, trials = rounded_counts(np.array([successes, trials])).tolist()
        return sample_proportion_interval(successes, trials, level=level, method=method, anytime=anytime, tuning=tuning)


def _weighted_rows(covered: np.ndarray, weight: np.ndarray | None) -> np.ndarray:
    """Per sample: its weight and its weight if covered (whole numbers or floats, which
    ``KeyedSums`` sums exactly)."""
    if weight is None:  # (each sample counts once: booleans, which KeyedSums counts)
        return np.stack([np.ones(len(covered), dtype=bool), covered.astype(bool)], axis=1)
    return np.stack([weight, np.where(covered, weight, 0)], axis=1)


class _ByClass(KeyedSums):
    """Weights per (group, true class): every sample's, and those covered."""

    FIELD = "by_class"


class _BySize(KeyedSums):
    """Weights per (group, set size): every sample's, and those covered."""

    FIELD = "by_size"


def _group_codes(groups: LabelsLike, n: int, known: tuple | None) -> tuple[np.ndarray, tuple]:
    """Each sample's group as a position in ``known`` (the groups counted so far) when it holds
    them all, else in the batch's groups, sorted."""
    if isinstance(groups, (str, bytes)):
        raise InvalidTypeError(f"'groups' must be a sequence of groups, one per sample, got the single string {show(groups)}")
    values: np.ndarray | list = list(cast(Any, groups)) if not isinstance(groups, np.ndarray) else groups
    if len(values) != n:
        raise InputLengthError(f"'groups' has {len(values)} values for {n} samples")
    codes, _, found, _ = encode(values, values, None, names=("groups", "groups"))
    if known and len(found) <= len(known):
        index = {group: k for k, group in enumerate(known)}
        spots = [position_of(group, index, known) for group in found]
        if None not in spots:  # (a stream's batch of groups met before: its codes are theirs, nothing to join)
            return np.array(spots, dtype=np.int64)[codes], known
    order = sorted_labels(found, "groups")
    return (codes if same_labels(order, found) else positions_in(found, order)[codes]), order


class SetCoverage(_Sums):
    """The coverage and size of prediction sets, marginally, per class, per group and per size.

    Reading: ``coverage()``, ``class_coverage()``, ``group_coverage()``, ``size_coverage()``,
    ``size_stratified_coverage(n_bins)``, ``mean_size()``, ``size_distribution()``,
    ``singleton_rate()``, ``singleton_accuracy()``, ``empty_rate()``,
    ``coverage_interval(level)``, ``group(name)``, ``labels``, ``groups``, ``n_samples``.
    Counting (a counted state): ``update``, ``+``, ``-``, ``scaled``, ``empty``, ``copy``,
    ``==``, ``to_json``/``from_json``, pickle.

    The counts are kept per (group, class) and (group, set size) that occur, so memory and
    time grow with the pairs present, not with every group times every class; float weights
    are summed exactly.

    Args:
        labels: the classes (the columns of a membership matrix), in order: a label outside
            them is an error. By default the columns' positions ``0 .. k-1``, or the labels
            seen in label sets and ``y_true``, which grow as batches bring new ones.

    Examples:
        >>> import numpy as np
        >>> sets = SetCoverage.from_sets([0, 1, 1], np.array([[1, 0], [1, 1], [0, 1]]))
        >>> sets.class_coverage(), sets.size_distribution()
        ({0: 1.0, 1: 1.0}, {1: 0.6666666666666666, 2: 0.3333333333333333})
    """

    DOCUMENT = "SetCoverage"
    SUMS = ("_by_class", "_by_size")
    LABELS, GROUPS = True, True
    LABEL_AXES: ClassVar[dict[str, tuple[int, ...]]] = {"_by_class": (1,)}
    GROUP_AXES: ClassVar[dict[str, tuple[int, ...]]] = {"_by_class": (0,), "_by_size": (0,)}

    def __init__(self, labels: Sequence[Hashable] | None = None) -> None:
        self._fixed = labels is not None
        self._labels = () if labels is None else check_label_list(labels)
        self._groups = None
        self._by_class = _ByClass.empty(2)  # per (group, true class): weight, weight covered
        self._by_size = _BySize.empty(2)  # per (group, set size): weight, weight covered

    @classmethod
    def from_sets(cls, y_true: LabelsLike, y_pred_set: SetsLike, *, labels: Sequence[Hashable] | None = None, groups: LabelsLike | None = None,
                  sample_weight: ArrayLike | None = None) -> SetCoverage:  # fmt: skip
        """The coverage of one batch of prediction sets: a boolean (or 0/1) ``samples x classes``
        membership array, or a sequence of label collections (one per sample; any sequence
        without a ``shape`` is read as label sets, so give a membership matrix as an array).

        Raises:
            UnknownLabelError: a true label that is no class.
            InputLengthError: inputs of different lengths.
        """
        result = cls(labels)
        result.update(y_true, y_pred_set, groups=groups, sample_weight=sample_weight)
        return result

    @classmethod
    def from_scores(cls, y_true: LabelsLike, y_score: ArrayLike, threshold: float, *, labels: Sequence[Hashable] | None = None,
                    groups: LabelsLike | None = None, sample_weight: ArrayLike | None = None) -> SetCoverage:  # fmt: skip
        """The sets ``{c : score_c ≥ threshold}`` of a ``samples x classes`` score matrix (a
        conformal threshold on the classes' scores; for non-conformity scores ``s`` and a
        quantile ``q``, pass ``-s`` and ``-q``).

        Examples:
            >>> SetCoverage.from_scores([0, 1], [[0.7, 0.3], [0.55, 0.45]], 0.4).size_coverage()
            {1: 1.0, 2: 1.0}
        """
        scores = as_array(y_score, "y_score")
        if scores.dtype.kind not in "biuf" or scores.ndim != 2:
            raise InvalidArgumentError(f"'y_score' must be a samples x classes matrix of numbers, got {show(scores)}")
        check_real("threshold", threshold)
        if np.isnan(scores).any():
            raise InvalidValueError(f"'y_score' must not hold NaN, got {show(scores)}")
        return cls.from_sets(y_true, scores >= threshold, labels=labels, groups=groups, sample_weight=sample_weight)

    @classmethod
    def from_probabilities(cls, y_true: LabelsLike, y_prob: ArrayLike, mass: float = 0.95, *, labels: Sequence[Hashable] | None = None,
                           groups: LabelsLike | None = None, sample_weight: ArrayLike | None = None) -> SetCoverage:  # fmt: skip
        """The sets of the most probable classes whose probabilities reach ``mass``
        (``top_mass_sets``): Weka's predicted regions, whose coverage and mean size at 0.95
        ``coverageOfTestCasesByPredictedRegions`` and ``sizeOfPredictedRegions`` report (in
        percent, the size over the number of classes).

        Examples:
            >>> sets = SetCoverage.from_probabilities(["a", "b"], [[0.9, 0.05, 0.05], [0.9, 0.05, 0.05]], labels=["a", "b", "c"])
            >>> sets.coverage(), sets.mean_size()
            (0.5, 2.0)
        """
        return cls.from_sets(y_true, top_mass_sets(y_prob, mass), labels=labels, groups=groups, sample_weight=sample_weight)

    @property
    def labels(self) -> tuple:
        """The classes, in order."""
        return self._labels or ()

    @property
    def groups(self) -> tuple | None:
        """The groups whose samples weigh something, sorted (``None``: counted without groups)."""
        return self._groups

    def update(self, y_true: LabelsLike, y_pred_set: SetsLike, /, *, groups: LabelsLike | None = None, sample_weight: ArrayLike | None = None) -> None:
        """Count a batch of prediction sets (in place); ``groups`` gives each sample's group.
        Without ``labels`` given at construction, classes new to this result join it, as a
        merge joins them."""
        super().update(y_true, y_pred_set, groups=groups, sample_weight=sample_weight)

    def _count(self, y_true: LabelsLike, y_pred_set: SetsLike, /, *, groups: LabelsLike | None = None,
               sample_weight: ArrayLike | None = None) -> tuple:  # fmt: skip
        """The batch's classes and groups, and its weights per (group, class) and (group, set size)."""
        fixed = (self._labels or None) if self._fixed or not _label_sets(y_pred_set) else None  # (a membership matrix's columns are the classes so far)
        labels, codes, covered, sizes = _set_rows(y_true, y_pred_set, fixed)
        n = len(codes)
        weight = check_sample_weight(sample_weight, n)
        group, found = (np.zeros(n, dtype=np.int64), None) if groups is None else _group_codes(groups, n, self._groups)
        rows = _weighted_rows(covered, weight)
        return labels, found, _ByClass.counted(group, codes, rows), _BySize.counted(group, sizes, rows)

    # ----------------------------------------------------------------------------------------
    # reading

    def _total(self) -> np.ndarray:
        """The weight of every sample and of those covered (whole or exact counts)."""
        return self._by_class.total()

    @property
    def n_samples(self) -> float:
        """How much the counted samples weigh together (their number, without weights)."""
        return rounded_counts(self._total()[:1])[0].item()

    def coverage(self) -> float:
        """The share of the samples whose set holds their class (NaN when none was counted)."""
        weight, covered = self._total()
        return float(ratio(covered, weight))

    def class_coverage(self) -> dict[Hashable, float]:
        """The coverage of the samples of each class (NaN for a class with no sample)."""
        sums = self._by_class.by(1, len(self.labels))
        return dict(zip(self.labels, ratios(sums[:, 1], sums[:, 0]).tolist()))

    def group_coverage(self) -> dict[Hashable, float]:
        """The coverage of each group's samples.

        Raises:
            InvalidArgumentError: counted without groups.
        """
        if self._groups is None:
            raise InvalidArgumentError("this result was counted without 'groups'")
        sums = self._by_class.by(0, len(self._groups))
        return dict(zip(self._groups, ratios(sums[:, 1], sums[:, 0]).tolist()))

    def group(self, name: Hashable) -> SetCoverage:
        """The counts of one group's samples.

        Raises:
            InvalidArgumentError: counted without groups, or no such group.
        """
        j = None if self._groups is None else position_of(name, {group: k for k, group in enumerate(self._groups)}, self._groups)
        if j is None:
            raise InvalidArgumentError(f"'name' must be one of the groups {show(list(self._groups or ()))}, got {show(name)}")
        result = self._regrouped(None)  # (its tables replaced below: every sample in group 0, none named)
        to_zero = np.zeros(len(self._groups or ()), dtype=np.int64)
        result._by_class, result._by_size = self._by_class.where(0, j).recoded(to_zero, None), self._by_size.where(0, j).recoded(to_zero, None)
        return result

    def _sizes(self) -> np.ndarray:
        """Per set size ``0 .. k``: the weight of the sets and of those covering."""
        return self._by_size.by(1, len(self.labels) + 1)

    def size_coverage(self) -> dict[int, float]:
        """The coverage of the sets of each size that occurs."""
        sizes = self._sizes()
        present = np.flatnonzero(sizes[:, 0] != 0)
        return dict(zip(present.tolist(), ratios(sizes[present, 1], sizes[present, 0]).tolist()))

    def size_stratified_coverage(self, n_bins: int | None = None) -> np.ndarray:
        """The coverage of the sets in bins of their size (Angelopoulos & Bates 2021): one per
        size ``0 .. k`` by default, or ``n_bins`` bins of consecutive sizes (as
        ``np.array_split(range(k + 1), n_bins)``, MAPIE's bins); NaN for a bin with no set. Its
        minimum is MAPIE's size-stratified coverage score.

        Examples:
            >>> import numpy as np
            >>> sets = np.array([[1, 1, 1, 1], [0, 1, 0, 1], [1, 1, 1, 0], [0, 0, 1, 1], [1, 1, 0, 1]])
            >>> SetCoverage.from_sets([3, 3, 1, 2, 2], sets).size_stratified_coverage(2).tolist()
            [1.0, 0.6666666666666666]
        """
        sizes = self._sizes()
        summed = np.add.reduceat(sizes, size_bin_starts(len(sizes) - 1, n_bins), axis=0)
        return ratios(summed[:, 1], summed[:, 0])

    def mean_size(self) -> float:
        """The mean number of labels in a set (MAPIE's mean width of classification sets)."""
        sizes = self._sizes()[:, 0]
        return float(ratio(np.dot(np.arange(len(sizes)), sizes), np.add.reduce(sizes)))

    def size_distribution(self) -> dict[int, float]:
        """The share of the sets of each size that occurs."""
        sizes = self._sizes()[:, 0]
        present = np.flatnonzero(sizes != 0)
        return dict(zip(present.tolist(), ratios(sizes[present], np.add.reduce(sizes)).tolist()))

    def _of_size(self, size: int) -> tuple[Any, Any]:
        sizes = self._sizes()
        return (sizes[size, 0], sizes[size, 1]) if size < len(sizes) else (0, 0)

    def singleton_rate(self) -> float:
        """The share of the sets that hold exactly one label."""
        return float(ratio(self._of_size(1)[0], self._total()[0]))

    def singleton_accuracy(self) -> float:
        """The accuracy of the singleton sets (the share of them that hold the true class)."""
        weight, covered = self._of_size(1)
        return float(ratio(covered, weight))

    def empty_rate(self) -> float:
        """The share of the sets that are empty (they never cover)."""
        return float(ratio(self._of_size(0)[0], self._total()[0]))

    def coverage_interval(self, *, level: float = 0.95, method: str | None = None, anytime: bool = False, tuning: float = DEFAULT_TUNING) -> Interval:
        """Wilson's (the default) or Clopper-Pearson's interval of the marginal coverage (whole
        counts); ``anytime=True``: its confidence sequence (``"beta-binomial"``, or
        ``"asymptotic"``), for a stream read after every batch.

        Examples:
            >>> import numpy as np
            >>> print(SetCoverage.from_sets([0] * 100, np.array([[1, 0]] * 90 + [[0, 1]] * 10)).coverage_interval())
            0.9 [0.8256, 0.9448] (95% wilson)
        """
        weight, covered = self._total()
        return self._interval(covered, weight, level, method, anytime, tuning)

    @classmethod
    def _read_document(cls, document: dict[str, Any], **options: object) -> SetCoverage:
        """A document of this release, or of an earlier build (no ``fixed``: fixed classes;
        dense ``groups x classes`` tables)."""
        labels = serialization.label_list(document, "labels")
        g = max(len(document.get("groups") or ()), 1)
        document = {"fixed": True, **document}
        for name, high in (("by_class", len(labels)), ("by_size", len(labels) + 1)):
            rows = document.get(name)
            if isinstance(rows, list) and rows and all(not isinstance(row, list) for row in rows):  # the dense tables an earlier build wrote
                dense = serialization.array(rows, name, length=g * high * 2, integral=None).reshape(g, high, 2)
                document[name] = [[group, code, *dense[group, code].tolist()] for group, code in zip(*(part.tolist() for part in np.nonzero(dense.any(axis=2))))]
        return cast(SetCoverage, super()._read_document(document, **options))

    def _invalid(self) -> str | None:
        """Counts no prediction sets give: a group, class or size beyond these, a key covering
        more than it weighs, or the classes and the set sizes of a group weighing apart."""
        g, k = max(len(self._groups or ()), 1), len(self.labels)
        if any(len(table.keys) and (table.codes(0).max() >= g or table.codes(1).max() >= high) for table, high in ((self._by_class, k), (self._by_size, k + 1))):
            return "a table holds a group or class position beyond the groups and classes"
        if any(np.any(table.sums[:, 1] > table.sums[:, 0]) for table in (self._by_class, self._by_size)):
            return "a class or set size would cover more samples than it counts"
        g = max(len(self._groups or ()), 1)
        if not equal_counts(self._by_class.by(0, g), self._by_size.by(0, g)):
            return "the classes and the set sizes of a group would count other samples"
        return None

    def __setstate__(self, state: dict[str, Any]) -> None:
        """A pickle of an earlier build loads too: dense groups x classes tables (whose classes
        were fixed), no classes yet as ``None``, groups kept that held nothing (an empty result's)."""
        earlier = not isinstance(state.get("_by_class"), _ByClass)
        for name, table_type in (("_by_class", _ByClass), ("_by_size", _BySize)):
            table = state.get(name)
            if isinstance(table, np.ndarray):
                groups, codes = np.nonzero(table.any(axis=2))
                table = KeyedSums.counted(groups, codes, table[groups, codes])
            state = {**state, name: table if isinstance(table, table_type) or table is None else table_type(table.keys, table.sums)}
        self.__dict__.update({"_fixed": True, **state, "_labels": state.get("_labels") or ()})
        if earlier:  # (a pickle of this release holds its groups settled: its _shallow copies come back here)
            self.__dict__.update(vars(self._settled_groups()))

    def __repr__(self) -> str:
        return f"SetCoverage(labels={list(self.labels)!r}, n_samples={self.n_samples}, coverage={self.coverage():.4g}, mean_size={self.mean_size():.4g})"


# --------------------------------------------------------------------------------------------
# prediction intervals


def interval_bounds(y_intervals: IntervalsLike, n: int | None = None, argument: str = "y_intervals") -> tuple[np.ndarray, np.ndarray]:
    """The lower and upper bounds of ``n x 2`` intervals (MAPIE's ``(n, 2)`` or ``(n, 2, 1)``).

    Raises:
        InputShapeError: another shape.
        InvalidValueError: a bound that is NaN or infinite, or a lower bound above its upper one.
    """
    values = as_array(y_intervals, argument)
    if values.ndim == 3 and values.shape[2] == 1:
        values = values[:, :, 0]
    if values.ndim != 2 or values.shape[1] != 2 or values.dtype.kind not in "biuf":
        raise InputShapeError(f"{argument!r} must be n x 2 numbers (lower, upper), got shape {values.shape}")
    if n is not None and len(values) != n:
        raise InputLengthError(f"{argument!r} has {len(values)} intervals for {n} samples")
    values = values.astype(np.float64, copy=False)
    return _checked_bounds(values[:, 0], values[:, 1])


def _finite(values: ArrayLike, argument: str, n: int | None = None, *, check: bool = True) -> np.ndarray:
    """``values`` as a 1-D float64 array of ``n`` numbers, finite (``check=False``: the caller
    checks that, ``_interval_sums`` as it reads them)."""
    array = as_array(values, argument)
    if array.dtype.kind not in "biuf" or array.ndim != 1:
        raise InvalidArgumentError(f"{argument!r} must be a 1-D array of numbers, got {show(array)}")
    if n is not None and len(array) != n:
        raise InputLengthError(f"{argument!r} has {len(array)} values for {n} samples")
    array = array.astype(np.float64, copy=False)
    if not check:
        return array
    bad = ~np.isfinite(array)
    if bad.any():
        first = int(np.flatnonzero(bad)[0])
        raise InvalidValueError(f"{argument!r} must be finite, got {float(array[first])!r} at position {first}")
    return array


def crossed_bound(lower: np.ndarray, upper: np.ndarray) -> tuple[int, str] | None:
    """The position of the first interval whose lower bound exceeds its upper one, and what is
    wrong with it, or None: the caller names the place its own way (a position, a file's line)."""
    crossed = np.flatnonzero(lower > upper)
    if not len(crossed):
        return None
    first = int(crossed[0])
    return first, f"an interval's lower bound must not exceed its upper bound, got [{float(lower[first])!r}, {float(upper[first])!r}]"


def _checked_bounds(lower: np.ndarray, upper: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    lower, upper = _finite(lower, "lower"), _finite(upper, "upper", len(lower))
    crossed = crossed_bound(lower, upper)
    if crossed is not None:
        raise InvalidValueError(f"{crossed[1]} at position {crossed[0]}")
    return lower, upper


_CHUNK = 1 << 15
"""Samples read at once by ``_interval_sums``: their temporaries stay in cache."""


def _interval_sums(y: np.ndarray, low: np.ndarray, high: np.ndarray, weight: np.ndarray | None, key: np.ndarray | None, bins: int) -> tuple[np.ndarray, np.ndarray]:
    """Per bin: the weight and the weight covered (``bins x 2``: whole counts, or exact sums of
    float weights), and ``Σ w (u - l)``, ``Σ w (l - y)⁺``, ``Σ w (y - u)⁺`` (``bins x 3``,
    exact sums of each sample's float term), read chunk by chunk: the same sums however the
    samples are split into batches, so a part added and taken away again leaves nothing.

    Raises:
        InvalidValueError: a value that is NaN or infinite, or a lower bound above its upper one.
        CountOverflowError: a weighted width or distance beyond float64's range (sums beyond it
            are refused where they are read, however the batches came).
    """
    floats = weight is not None and weight.dtype.kind == "f"
    counts = np.zeros((bins, 2), dtype=np.int64)
    sums: np.ndarray = np.zeros(bins * (5 if floats else 3), dtype=object)  # per bin: Σ w (u - l), Σ w (l - y)⁺, Σ w (y - u)⁺ (then, float weights: Σ w, Σ w covered)
    for start in range(0, len(y), _CHUNK):
        part = slice(start, start + _CHUNK)
        yy, ll, hh = y[part], low[part], high[part]
        with np.errstate(invalid="ignore", over="ignore"):  # a NaN or an infinity reaches one of the three sums: checked below
            below, above, width = ll - yy, yy - hh, hh - ll
            covered = (below <= 0) & (above <= 0)
            np.maximum(below, 0.0, out=below)
            np.maximum(above, 0.0, out=above)
            terms = np.stack([width, below, above], axis=1)
            if weight is not None:
                terms *= weight[part, None].astype(np.float64)
        if not (np.isfinite(terms).all() and width.min(initial=0.0) >= 0):  # find the first bad value, for its position
            _checked_bounds(_finite(low, "lower"), _finite(high, "upper"))
            _finite(y, "y_true")
            with np.errstate(invalid="ignore", over="ignore"):
                _overflow(terms.sum(axis=0))
        kk = np.zeros(len(yy), dtype=np.intp) if key is None else key[part]
        slots, values = (kk[:, None] * 3 + np.arange(3)).ravel(), terms.ravel()
        if floats:
            ww = cast(np.ndarray, weight)[part]
            slots, values = np.concatenate((slots, 3 * bins + kk, 4 * bins + kk[covered])), np.concatenate((values, ww, ww[covered]))
        else:  # whole counts (no weights, or whole ones)
            whole = None if weight is None else weight[part]
            counts[:, 0] += weighted_bincount(kk, whole, bins)
            counts[:, 1] += weighted_bincount(kk[covered], None if whole is None else whole[covered], bins)
        sums += exact_bincount(slots, values, len(sums))
    if floats:
        counts = sums[3 * bins :].reshape(2, bins).T.copy()
    return counts, sums[: 3 * bins].reshape(bins, 3)  # (sums beyond float64 are refused where they are read, however the batches came)


def _overflow(totals: np.ndarray) -> NoReturn:
    raise CountOverflowError(f"the intervals' widths and distances outside them (weighted) sum beyond what a float64 holds, got {show(totals)} (width, below, above)")


class IntervalCoverage(_Sums):
    """The coverage, width and interval (Winkler) score of a regressor's prediction intervals,
    overall and in bins of the prediction.

    Reading: ``coverage()``, ``mean_width()``, ``interval_score(confidence_level)``,
    ``bin_coverage()``, ``bin_counts()``, ``coverage_interval(level)``, ``edges``,
    ``n_samples``. Counting (a counted state): ``update``, ``+``, ``-``, ``scaled``,
    ``empty``, ``copy``, ``==``, ``to_json``/``from_json``, pickle.

    Args:
        edges: increasing bin edges of the prediction (``y_pred``, or each interval's midpoint
            when none is given): bin ``j`` holds ``[edges[j], edges[j+1])``, the last one its
            right edge too, and predictions outside the edges count in the end bins. ``None``:
            one bin.

    Examples:
        >>> intervals = IntervalCoverage(edges=[0, 2, 4])
        >>> intervals.update([1.0, 2.0, 5.0], [0.5, 1.0, 2.0], [1.5, 3.0, 4.0])
        >>> intervals.bin_coverage().tolist(), intervals.bin_counts().tolist()
        ([1.0, 0.5], [1, 2])
    """

    DOCUMENT = "IntervalCoverage"
    SETTINGS, SUMS = ("edges",), ("_counts", "_sums")

    def __init__(self, edges: ArrayLike | None = None) -> None:
        self._edges = None if edges is None else self._check_edges(edges)
        bins = 1 if self._edges is None else len(self._edges) - 1
        self._counts = np.zeros((bins, 2), dtype=np.int64)  # per bin: weight, weight covered (whole or exact counts)
        self._sums = in_units(np.zeros((bins, 3)))  # per bin: Σ w (u - l), Σ w (l - y)⁺, Σ w (y - u)⁺ (exact sums)

    @staticmethod
    def _check_edges(edges: ArrayLike) -> np.ndarray:
        values = as_array(edges, "edges")
        if values.ndim != 1 or len(values) < 2 or values.dtype.kind not in "iuf" or not np.isfinite(values).all() or np.any(np.diff(values) <= 0):
            raise InvalidArgumentError(f"'edges' must be two or more increasing finite numbers, got {show(edges)}")
        return values.astype(np.float64)

    @classmethod
    def from_intervals(cls, y_true: ArrayLike, lower: ArrayLike, upper: ArrayLike, *, y_pred: ArrayLike | None = None, edges: ArrayLike | None = None,
                       sample_weight: ArrayLike | None = None) -> IntervalCoverage:  # fmt: skip
        """The coverage of one batch of intervals ``[lower, upper]``.

        Raises:
            InvalidValueError: a value that is NaN or infinite, or a lower bound above its upper one.
            InputLengthError: inputs of different lengths.
        """
        result = cls(edges)
        result.update(y_true, lower, upper, y_pred=y_pred, sample_weight=sample_weight)
        return result

    @property
    def edges(self) -> np.ndarray | None:
        """The bin edges of the prediction (``None``: one bin)."""
        return self._edges

    def update(self, y_true: ArrayLike, lower: ArrayLike, upper: ArrayLike, /, *, y_pred: ArrayLike | None = None, sample_weight: ArrayLike | None = None) -> None:
        """Count a batch of intervals (in place); ``y_pred`` places each in its bin."""
        super().update(y_true, lower, upper, y_pred=y_pred, sample_weight=sample_weight)

    def _count(self, y_true: ArrayLike, lower: ArrayLike, upper: ArrayLike, /, *, y_pred: ArrayLike | None = None,
               sample_weight: ArrayLike | None = None) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
        y, low, high = _finite(y_true, "y_true", check=False), _finite(lower, "lower", check=False), _finite(upper, "upper", check=False)
        if not len(low) == len(high) == len(y):
            raise InputLengthError(f"'y_true', 'lower' and 'upper' must have one value per sample, got {len(y)}, {len(low)} and {len(high)}")
        weight = check_sample_weight(sample_weight, len(y))
        bins = len(self._counts)
        key = None
        if bins > 1:
            where = (low + high) / 2 if y_pred is None else _finite(y_pred, "y_pred", len(y))
            key = np.searchsorted(self._edges[1:-1], where, side="right")  # type: ignore[index]
        return _interval_sums(y, low, high, weight, key, bins)

    @property
    def n_samples(self) -> float:
        """How much the counted samples weigh together (their number, without weights)."""
        return rounded_counts(np.add.reduce(self._counts[:, :1], axis=0))[0].item()

    def coverage(self) -> float:
        """The share of the samples whose interval holds the true value (NaN when none was counted)."""
        weight, covered = np.add.reduce(self._counts, axis=0)
        return float(ratio(covered, weight))

    def mean_width(self) -> float:
        """The mean width ``Σ w (u - l) / Σ w`` of the intervals."""
        with np.errstate(over="ignore"):  # a width beyond float64's range is infinite
            return float(ratio(rounded_counts(self._sums).sum(axis=0)[0], self.n_samples))

    def interval_score(self, confidence_level: float) -> float:
        """The interval (Winkler) score of intervals meant to cover ``confidence_level`` (``1 - α``):
        the mean width plus ``2/α`` times the mean distance of a true value outside its interval
        (lower is better; Gneiting & Raftery 2007). MAPIE's ``regression_mwi_score``.

        Raises:
            InvalidArgumentError: ``confidence_level`` not in (0, 1).
        """
        if isinstance(confidence_level, bool) or not isinstance(confidence_level, (int, float, np.floating)) or not 0 < confidence_level < 1:
            raise InvalidArgumentError(f"'confidence_level' must be a number in (0, 1), e.g. 0.9; got {show(confidence_level)}")
        with np.errstate(over="ignore"):  # a score beyond float64's range is infinite
            width, below, above = rounded_counts(self._sums).sum(axis=0)
            return float(ratio(width + (below + above) * 2 / (1 - confidence_level), self.n_samples))

    def bin_counts(self) -> np.ndarray:
        """How much the samples of each bin weigh."""
        return rounded_counts(self._counts[:, 0]).copy()

    def bin_coverage(self) -> np.ndarray:
        """The coverage in each bin of the prediction (NaN for an empty bin)."""
        return ratios(self._counts[:, 1], self._counts[:, 0])

    def coverage_interval(self, *, level: float = 0.95, method: str | None = None, anytime: bool = False, tuning: float = DEFAULT_TUNING) -> Interval:
        """Wilson's (the default) or Clopper-Pearson's interval of the coverage (whole counts);
        ``anytime=True``: its confidence sequence (see ``SetCoverage.coverage_interval``)."""
        weight, covered = np.add.reduce(self._counts, axis=0)
        return self._interval(covered, weight, level, method, anytime, tuning)

    def _invalid(self) -> str | None:
        weight, covered = (np.asarray(self._counts[:, k]) for k in (0, 1))  # (exact: whole counts, or Python integers)
        sums = np.asarray(self._sums)
        if np.any(covered > weight):
            return "field 'counts' must not cover more than it counts"
        if np.any((weight == 0) & (sums != 0).any(axis=1)) or np.any((covered == weight) & (sums[:, 1:] != 0).any(axis=1)):
            return "field 'sums' must hold widths of samples counted, and distances outside only where a sample is not covered"
        try:
            self.n_samples  # noqa: B018  (the weight counted in float64's range)
        except CountOverflowError as error:
            return f"fields 'counts' and 'sums': {error}"
        return None

    def __repr__(self) -> str:
        return f"IntervalCoverage(n_samples={self.n_samples}, coverage={self.coverage():.4g}, mean_width={self.mean_width():.4g})"
