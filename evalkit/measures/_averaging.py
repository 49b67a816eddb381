"""Averages of a measure over classes or samples, and the one undefined-value policy.

Given per-class cells (and, where they exist, per-sample cells) the four averages are

* ``"micro"``: the measure of the summed cells, ``M(Σ tp, Σ fp, Σ fn, Σ tn)``;
* ``"macro"``: the mean of the per-class values;
* ``"weighted"``: the mean of the per-class values weighted by support ``tp + fn``;
* ``"samples"``: the mean of the per-sample values (example-based).

Undefined values (a 0/0 measure is NaN) follow one policy, chosen by ``undefined``:

* ``"exclude"`` (default): leave them out, with their weights; the result reports how many
  values were defined. An average with no defined value is NaN (scikit-learn's
  ``zero_division=np.nan``).
* ``"zero"`` / ``"one"``: count them as 0 / 1 (scikit-learn's ``zero_division=0`` / ``1``).
* ``"nan"``: propagate: any undefined value makes the average NaN.

The numbers ``0``, ``1`` and ``float("nan")`` are accepted as aliases and mean what
scikit-learn's ``zero_division`` values mean (``float("nan")`` is ``"exclude"``). A
``"weighted"`` average over classes none of which has support is the plain mean,
scikit-learn's value there.

Examples:
    >>> from evalkit.measures._averaging import mean_of
    >>> result = mean_of([0.5, float("nan"), 1.0])
    >>> result, result.n_defined, result.n_values
    (0.75, 2, 3)
    >>> mean_of([0.5, float("nan"), 1.0], undefined="zero")
    0.5
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeAlias, cast

import attrs
import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine import moved_names
from evalkit._engine._exact import exact_row_sums
from evalkit._engine._validation import check_choice, show
from evalkit._engine.cells import Cells
from evalkit._engine.serialization import json_safe
from evalkit.exceptions import InvalidArgumentError
from evalkit.measures._registry import Measure, MeasureLike, check_measure_parameters, resolve_measure

UndefinedPolicy: TypeAlias = "str | float"
"""What ``undefined=`` takes: ``"exclude"``, ``"zero"``, ``"one"``, ``"nan"``, or scikit-learn's ``zero_division`` numbers (0, 1, NaN)."""

__all__ = [
    "AVERAGES",
    "UNDEFINED_POLICIES",
    "Averaged",
    "Summary",
    "average_cells",
    "average_rows",
    "check_undefined",
    "class_average",
    "fill_undefined",
    "mean_by_weight",
    "mean_of",
    "mean_of_numbers",
    "mean_of_ratios",
    "mean_of_total",
    "mean_rows",
    "per_entry",
    "ratio",
    "resolve_measure",
    "summarize",
    "summarize_rows",
    "support_weights",
]

AVERAGES = ("micro", "macro", "weighted", "samples")
"""The names accepted by ``average=``."""

UNDEFINED_POLICIES = ("exclude", "zero", "one", "nan")
"""The names accepted by ``undefined=`` (and the aliases ``0``, ``1`` and ``float("nan")``)."""


def check_undefined(undefined: UndefinedPolicy) -> str:
    """Return the policy name for ``undefined``.

    scikit-learn's ``zero_division`` values are accepted and mean what they mean there:
    ``0`` is ``"zero"``, ``1`` is ``"one"``, and ``float("nan")`` (``np.nan``) is
    ``"exclude"`` (undefined values left out of averages). Only the string ``"nan"``
    propagates.

    Examples:
        >>> check_undefined(float("nan")), check_undefined(0), check_undefined("nan")
        ('exclude', 'zero', 'nan')
    """
    if type(undefined) is str and undefined in UNDEFINED_POLICIES:
        return undefined
    if isinstance(undefined, (int, float, np.floating, np.integer)) and not isinstance(undefined, (bool, np.bool_)):
        if math.isnan(undefined):
            return "exclude"
        if undefined in (0, 1):
            return "zero" if undefined == 0 else "one"
    return check_choice("undefined", undefined, UNDEFINED_POLICIES)


class Averaged(float):
    """A float average that also reports how many values it covers.

    Attributes:
        n_values: how many values (classes, samples or objects) were averaged.
        n_defined: how many of them were defined (not NaN) before the policy applied.

    Examples:
        >>> value = Averaged(0.75, n_values=3, n_defined=2)
        >>> value + 0.25, value.n_defined
        (1.0, 2)
    """

    __slots__ = ("n_defined", "n_values")  # no instance dict: a stream builds one per read
    n_values: int
    n_defined: int

    def __new__(cls, value: float, *, n_values: int, n_defined: int) -> Averaged:  # noqa: PYI034 (typing.Self needs Python 3.11)
        self = float.__new__(cls, value)
        self.n_values = n_values if type(n_values) is int else int(n_values)
        self.n_defined = n_defined if type(n_defined) is int else int(n_defined)
        return self

    def __reduce__(self) -> tuple:
        return (_rebuild_averaged, (float(self), self.n_values, self.n_defined))


def _rebuild_averaged(value: float, n_values: int, n_defined: int) -> Averaged:
    return Averaged(value, n_values=n_values, n_defined=n_defined)


_new_float = float.__new__


def _averaged(value: float, n_values: int, n_defined: int) -> Averaged:
    """``Averaged(value, n_values=..., n_defined=...)`` of two Python ints, built at C speed (a
    ``__new__`` written in Python costs a stream's read more than its arithmetic)."""
    self = _new_float(Averaged, value)
    self.n_values, self.n_defined = n_values, n_defined
    return self


_FILL = {"zero": 0, "one": 1}
"""What an undefined value counts as under the policies that fill it in."""


def fill_undefined(values: ArrayLike, undefined: UndefinedPolicy = "exclude") -> np.ndarray:
    """``values`` with the undefined ones (NaN) as the policy counts them: 0 under ``"zero"``,
    1 under ``"one"``, left NaN under ``"exclude"`` and ``"nan"``.

    Examples:
        >>> fill_undefined([0.5, float("nan")], "one").tolist(), fill_undefined([float("nan")], "exclude").tolist()
        ([0.5, 1.0], [nan])
    """
    policy = check_undefined(undefined)
    values = np.asarray(values, dtype=np.float64)
    return np.where(np.isnan(values), float(_FILL[policy]), values) if policy in _FILL else values


def _apply_policy(values: np.ndarray, defined: np.ndarray, policy: str, number: Callable[[int], Any] = float) -> tuple[np.ndarray, np.ndarray]:
    """The one place where undefined values meet the policy: the values that enter an average
    and a mask of the entries that count. ``"exclude"`` masks them out, ``"zero"`` and
    ``"one"`` fill them in (as ``number(0)`` or ``number(1)``), ``"nan"`` keeps them (NaN propagates)."""
    if policy == "exclude":
        return values, defined
    counted = np.ones(values.shape, dtype=bool)
    if policy in _FILL:
        return np.where(defined, values, number(_FILL[policy])), counted
    return values, counted


def mean_of(values: Any, weights: ArrayLike | None = None, *, undefined: UndefinedPolicy = "exclude") -> Averaged:
    """The (weighted) mean of ``values`` under the undefined-value policy.

    Args:
        values: numbers, NaN where undefined.
        weights: non-negative weights of the same length, or ``None`` for equal weights.
        undefined: the policy (see the module docstring).

    Returns:
        The mean as an ``Averaged``; NaN when nothing (or only zero weight) is left.
    """
    policy = check_undefined(undefined)
    values = np.asarray(values, dtype=np.float64).ravel()
    if weights is not None:
        weights = np.asarray(weights, dtype=np.float64).ravel()
        if weights.shape != values.shape:
            raise InvalidArgumentError(f"'weights' must have {values.size} entries, got {weights.size}")
        present = weights > 0  # an entry of weight 0 stands for nothing, not for an undefined value
        values, weights = values[present], weights[present]
    if weights is None:  # equal weights: the sum correctly rounded, as every mean of a few values (one rule for the running margins and this)
        return mean_of_numbers(values.tolist(), undefined=policy)
    n_defined = int(np.count_nonzero(~np.isnan(values)))
    mean = mean_rows(values[None, :], weights[None, :], undefined=policy)[0]
    return Averaged(mean, n_values=values.size, n_defined=n_defined)


def _sum(values: list[float]) -> float:
    """The sum correctly rounded (``math.fsum``); with infinities of both signs NaN, beyond float's
    range an infinity (what ``fsum`` raises for, a plain sum gives)."""
    try:
        return math.fsum(values)
    except (OverflowError, ValueError):
        return sum(values)


def mean_of_numbers(values: list[float], *, undefined: UndefinedPolicy = "exclude") -> Averaged:
    """``mean_of`` of a few Python floats, equal weights, without numpy (what one read of a
    stream costs): the same policy, the sum correctly rounded (``math.fsum``).

    Examples:
        >>> mean = mean_of_numbers([0.5, float("nan"), 1.0])
        >>> mean, mean.n_defined, float(mean_of_numbers([0.5, float("nan")], undefined="zero"))
        (0.75, 2, 0.25)
    """
    if len(values) == 1 and type(undefined) is str and undefined == "exclude":  # one value (a micro average) under the default policy: itself
        value = values[0]
        return _averaged(value, 1, 1) if value == value else _averaged(math.nan, 1, 0)  # noqa: PLR0124
    defined = [value for value in values if value == value]  # noqa: PLR0124 (NaN is the one value unequal to itself: faster than isnan)
    total = _sum(defined)
    if type(undefined) is str and undefined == "exclude":  # the default policy, without its general path (every read of a stream)
        return _averaged(total / len(defined) if defined else math.nan, len(values), len(defined))
    return mean_of_total(total, len(values), len(defined), undefined=undefined)


_FEW_VALUES = 64
"""Up to this many classes are averaged in Python (``class_average``), more by numpy."""


def mean_by_weight(values: list[float], weights: list[float], *, undefined: UndefinedPolicy = "exclude") -> Averaged:
    """``mean_of`` of a few Python floats with weights, without numpy: an entry of weight 0 is
    left out, the policy applies, and ``Σ w·v / Σ w`` has both sums correctly rounded
    (``math.fsum``); NaN when no weight is left.

    Examples:
        >>> mean = mean_by_weight([0.5, float("nan"), 1.0], [1, 5, 3])
        >>> mean, mean.n_defined, float(mean_by_weight([0.5, float("nan")], [1, 1], undefined="one"))
        (0.875, 2, 0.75)
    """
    policy = undefined if type(undefined) is str and undefined == "exclude" else check_undefined(undefined)
    kept = [(value, weight) for value, weight in zip(values, weights) if weight > 0]  # weight 0 stands for nothing, not for an undefined value
    n_defined = sum(1 for value, _ in kept if value == value)  # noqa: PLR0124 (NaN is unequal to itself)
    n_values = len(kept)
    if policy == "exclude":
        kept = [(value, weight) for value, weight in kept if value == value]  # noqa: PLR0124
    elif policy in _FILL and n_defined < n_values:
        fill = float(_FILL[policy])
        kept = [(value if value == value else fill, weight) for value, weight in kept]  # noqa: PLR0124
    total = _sum([weight for _, weight in kept])
    return _averaged(_sum([value * weight for value, weight in kept]) / total if total > 0 else math.nan, n_values, n_defined)


def mean_of_total(total: float, n_values: int, n_defined: int, *, undefined: UndefinedPolicy = "exclude") -> Averaged:
    """The mean of ``n_values`` values of which ``n_defined`` are defined and sum to ``total``,
    under the policy: ``total / n_defined`` (exclude), ``(total + fill · undefined) / n_values``
    (zero, one), NaN when one is undefined (nan); what a result keeping only sums reads.

    Examples:
        >>> mean_of_total(1.5, 3, 2), float(mean_of_total(1.5, 3, 2, undefined="one"))
        (0.75, 0.8333333333333334)
    """
    policy = check_undefined(undefined)
    missing = n_values - n_defined
    if policy in _FILL:
        total, count = (math.fsum((total, float(_FILL[policy] * missing))) if missing else total), n_values
    elif policy == "nan" and missing:
        total, count = math.nan, n_values
    else:
        count = n_defined
    return _averaged(total / count if count else math.nan, n_values, n_defined)


def mean_rows(values: ArrayLike, weights: ArrayLike | None = None, *, undefined: UndefinedPolicy = "exclude") -> np.ndarray:
    """``mean_of`` for every row of a 2-D array at once: one mean per row.

    Args:
        values: ``rows x entries``, NaN where undefined.
        weights: one weight per entry (``rows x entries``, or one row for all rows); an entry
            of weight 0 is left out; ``None`` for equal weights.
        undefined: the policy.

    Examples:
        >>> mean_rows([[0.5, float("nan")], [1.0, 0.0]], [1, 3]).tolist()
        [0.5, 0.25]
    """
    policy = check_undefined(undefined)
    values = np.asarray(values, dtype=np.float64)
    filled, counted = _apply_policy(values, ~np.isnan(values), policy)
    if weights is None:
        weights = np.ones(values.shape)
    else:
        weights = np.broadcast_to(np.asarray(weights, dtype=np.float64), values.shape)
        counted = counted & (weights > 0)
    total = np.where(counted, weights, 0.0).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        sums = np.where(counted, filled * weights, 0.0).sum(axis=1)
        return np.where(total > 0, sums / np.where(total > 0, total, 1.0), np.nan)


def support_weights(values: np.ndarray | list[float], support: np.ndarray | list, policy: str) -> np.ndarray | list:
    """The weights of a ``"weighted"`` average: the support of each class, or equal weights in a
    row where no class that counts under the policy has support (scikit-learn's plain mean
    there, not NaN by accident). Rows of an array give an array; a list of Python floats (one
    row) gives a list."""
    if isinstance(values, list):  # a few classes' values as Python floats (a tally's): the support, or equal weights
        counts = (lambda value: value == value) if policy == "exclude" else (lambda value: True)  # noqa: PLR0124
        return support if any(weight > 0 and counts(value) for value, weight in zip(values, support)) else [1] * len(values)
    support = np.broadcast_to(np.asarray(support, dtype=np.float64), values.shape)
    _, counted = _apply_policy(values, ~np.isnan(values), policy)
    unsupported = ~np.any(counted & (support > 0), axis=-1, keepdims=True)
    return np.where(unsupported, 1.0, support)


def ratio(numerator: Any, denominator: Any, *, exact: bool = False) -> float | Fraction:
    """``numerator / denominator`` of two exact sums: NaN when the denominator is 0 (as for
    every measure of ``evalkit.formulas``), a ``Fraction`` with ``exact=True``.

    Examples:
        >>> ratio(6, 7, exact=True), ratio(6, 0)
        (Fraction(6, 7), nan)
    """
    if denominator == 0:
        return math.nan
    if exact:
        return Fraction(numerator) / Fraction(denominator)
    return float(numerator / denominator)  # ints divide correctly rounded, however large


def mean_of_ratios(
    numerators: ArrayLike, denominators: ArrayLike, weights: ArrayLike | None = None, *, undefined: UndefinedPolicy = "exclude", exact: bool = False
) -> float | Fraction:
    """The (weighted) mean of ``numerators / denominators`` under the undefined-value policy
    (a ratio with denominator 0 is undefined); a ``Fraction`` with ``exact=True``.

    Examples:
        >>> mean_of_ratios([1, 1, 0], [2, 1, 0], exact=True), mean_of_ratios([1, 1, 0], [2, 1, 0], undefined="zero", exact=True)
        (Fraction(3, 4), Fraction(1, 2))
    """
    numerators, denominators = np.asarray(numerators), np.asarray(denominators)
    if not exact:
        with np.errstate(divide="ignore", invalid="ignore"):
            values = np.where(denominators == 0, np.nan, numerators / np.where(denominators == 0, 1, denominators))
        return float(mean_of(values, weights, undefined=undefined))
    policy = check_undefined(undefined)
    defined = denominators != 0
    fractions = np.array([Fraction(t) / Fraction(d) if d else Fraction(0) for t, d in zip(numerators.tolist(), denominators.tolist())], dtype=object)
    counted = np.ones(len(fractions), dtype=np.int64) if weights is None else np.asarray(weights)
    present = counted > 0
    fractions, defined, counted = fractions[present], defined[present], counted[present]
    if policy == "nan" and not defined.all():
        return math.nan
    filled, included = _apply_policy(fractions, defined, policy, Fraction)
    kept, kept_weights = filled[included], counted[included]
    total = sum((Fraction(w) for w in kept_weights.tolist()), Fraction(0))
    return sum((v * Fraction(w) for v, w in zip(kept.tolist(), kept_weights.tolist())), Fraction(0)) / total if total else math.nan


@attrs.frozen
class Summary:
    """Mean, spread and range of one metric over several results, under one policy.

    ``std`` is the population standard deviation (``ddof=0``, numpy's default).
    """

    mean: float
    std: float
    min: float
    max: float
    n_defined: int
    n: int

    def to_dict(self, *, strict: bool = False) -> dict[str, Any]:
        """The fields as a plain dict; ``strict=True``: plain data strict JSON takes (NaN as ``None``, infinities as ``"Infinity"``; see ``serialization.json_safe``)."""
        fields = {"mean": self.mean, "std": self.std, "min": self.min, "max": self.max, "n_defined": self.n_defined, "n": self.n}
        return json_safe(fields) if strict else fields


def summarize(values: ArrayLike, *, undefined: UndefinedPolicy = "exclude") -> Summary:
    """Summarize values (NaN = undefined) with mean, std, min and max under the policy.

    Examples:
        >>> summarize([0.5, float("nan"), 1.0])
        Summary(mean=0.75, std=0.25, min=0.5, max=1.0, n_defined=2, n=3)
    """
    return summarize_rows(np.asarray(values, dtype=np.float64).reshape(1, -1), undefined=undefined)[0]


def summarize_rows(values: ArrayLike, *, undefined: UndefinedPolicy = "exclude") -> list[Summary]:
    """One ``Summary`` per row of a 2-D array (NaN = undefined), all rows at once.

    Examples:
        >>> [row.mean for row in summarize_rows([[1.0, 3.0], [float("nan"), 2.0]])]
        [2.0, 2.0]
    """
    policy = check_undefined(undefined)
    values = np.asarray(values, dtype=np.float64)
    defined = ~np.isnan(values)
    filled, counted = _apply_policy(values, defined, policy)
    count = counted.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.array([_sum(row) for row in np.where(counted, filled, 0.0).tolist()], dtype=np.float64).reshape(-1) / count  # each sum correctly rounded, as every mean
        std = np.sqrt(np.where(counted, (filled - mean[:, None]) ** 2, 0.0).sum(axis=1) / count)
    low = np.where(counted, filled, np.inf).min(axis=1, initial=np.inf)
    high = np.where(counted, filled, -np.inf).max(axis=1, initial=-np.inf)
    if policy == "nan":  # min and max of values with a NaN are NaN, like the mean
        low, high = np.where(np.isnan(mean), np.nan, low), np.where(np.isnan(mean), np.nan, high)
    low, high = np.where(count > 0, low, np.nan), np.where(count > 0, high, np.nan)
    mean = np.where(count > 0, np.clip(mean, low, high), mean)  # a rounded sum can step out: min <= mean <= max always
    std = np.where(low == high, 0.0, std)  # identical values spread by nothing, whatever the rounding
    n_defined, n = defined.sum(axis=1).tolist(), values.shape[1]
    return [Summary(*row, d, n) for row, d in zip(zip(mean.tolist(), std.tolist(), low.tolist(), high.tolist()), n_defined)]


def average_cells(
    measure: Measure,
    per_class: Cells,
    average: str,
    *,
    undefined: UndefinedPolicy = "exclude",
    per_sample: Cells | None = None,
    parameters: dict[str, Any] | None = None,
) -> Averaged:
    """Average ``measure`` over classes or samples (see the module docstring).

    Args:
        measure: the resolved measure.
        per_class: per-class cells (``σm``).
        average: ``"micro"``, ``"macro"``, ``"weighted"`` or ``"samples"``.
        undefined: the undefined-value policy.
        per_sample: per-sample cells (``σn``, each row counted by its weight), needed for
            ``"samples"``.
        parameters: extra keyword parameters of the measure (``beta``).
    """
    parameters = dict(parameters or {})
    check_measure_parameters(measure, parameters)
    check_choice("average", average, AVERAGES)
    if average == "micro":
        return mean_of([per_class.total().evaluate(measure, **parameters)], undefined=undefined)
    if average == "samples":
        if per_sample is None:
            raise InvalidArgumentError(f"average='samples' needs per-sample counts, which {show(per_class)} lacks")
        return mean_of(per_sample.evaluate_rows(measure, **parameters), per_sample.row_weights(), undefined=undefined)
    return class_average(np.asarray(per_class.evaluate(measure, **parameters), dtype=np.float64), per_class.support, average, undefined)


def class_average(values: np.ndarray | list[float], support: np.ndarray | list, average: str, undefined: UndefinedPolicy = "exclude") -> Averaged:
    """The ``"macro"`` (plain) or ``"weighted"`` (by ``support``) mean of per-class values under
    the policy: what every class average is, whoever read the values (a table's cells, a
    stream's margins, a report). Lists of Python numbers stay in Python.

    Examples:
        >>> class_average([0.5, float("nan"), 1.0], [2, 0, 6], "weighted"), class_average([0.5, 1.0], [2, 6], "macro")
        (0.875, 0.75)
    """
    policy = check_undefined(undefined)
    if len(values) <= _FEW_VALUES:  # a few classes (a table's, a stream's margins, a report's): in Python, the sums correctly rounded
        listed = values if type(values) is list else cast(np.ndarray, values).tolist()
        if average != "weighted":
            return mean_of_numbers(listed, undefined=policy)
        weights = support if type(support) is list else np.broadcast_to(np.asarray(support, dtype=np.float64), (len(listed),)).tolist()
        return mean_by_weight(listed, cast(list, support_weights(listed, weights, policy)), undefined=policy)
    return mean_of(values, support_weights(values, support, policy) if average == "weighted" else None, undefined=policy)


def average_rows(
    measure: Measure, cells: Cells, average: str, *, undefined: UndefinedPolicy = "exclude", parameters: dict[str, Any] | None = None
) -> np.ndarray:
    """``average_cells`` for many rows of class cells at once (cells of shape ``rows x classes``,
    such as every class at every threshold of a curve): one micro, macro or weighted average
    per row, exact sums for integer cells.

    Examples:
        >>> from evalkit.measures._formulas import get_measure
        >>> cells = Cells(tp=[[1, 0], [2, 1]], fp=[[0, 1], [1, 1]], fn=[[1, 1], [0, 0]], tn=[[2, 2], [1, 2]])
        >>> average_rows(get_measure("recall"), cells, "micro").tolist()
        [0.3333333333333333, 1.0]
    """
    parameters = dict(parameters or {})
    check_measure_parameters(measure, parameters)
    check_choice("average", average, AVERAGES[:3])
    if average == "micro":
        totals = Cells(*(exact_row_sums(np.asarray(row)) for row in cells.rows()))
        return np.asarray(totals.evaluate(measure, **parameters), dtype=np.float64)
    policy = check_undefined(undefined)
    values = np.asarray(cells.evaluate(measure, **parameters), dtype=np.float64)
    weights = support_weights(values, cells.support, policy) if average == "weighted" else None
    return mean_rows(values, weights, undefined=policy)


def per_entry(cells: Cells, measure: MeasureLike, metrics_class: type[Any] | None, parameters: dict[str, Any]) -> np.ndarray:
    """The value of a measure (name, Measure, function or getter of ``metrics_class``) for every
    entry of ``cells``, as float64 (NaN where undefined)."""
    resolved = resolve_measure(measure, metrics_class)
    check_measure_parameters(resolved, parameters)
    return np.asarray(cells.evaluate(resolved, **parameters), dtype=np.float64)


if not TYPE_CHECKING:  # the names this module gave in evalkit 0.1.0 and lost, found with a warning
    __getattr__ = moved_names.finder(__name__)
