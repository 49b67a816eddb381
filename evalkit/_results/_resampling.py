"""The bootstrap under evalkit's intervals: kinds of sample drawn with replacement, replicates of
sums, percentile and BCa quantiles, jackknife accelerations.

Private: evalkit._results.intervals is the public face of every interval.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from statistics import NormalDist
from typing import Any

import attrs
import numpy as np

from evalkit._engine._pair_counts import PairCounts
from evalkit._engine._validation import (
    RandomState,
    show,
)
from evalkit._engine.cells import Cells
from evalkit._results._closed_form import Interval, _check_level, _z
from evalkit._results._sequences import DEFAULT_TUNING, check_tuning, sequence_bounds
from evalkit.exceptions import EvalkitWarning, InvalidArgumentError, UnsupportedSettingError
from evalkit.measures._averaging import UndefinedPolicy, average_rows
from evalkit.measures._formulas import margins_cohen_kappa, margins_matthews_correlation_coefficient
from evalkit.measures._registry import Measure

_BATCH_ENTRIES = 1 << 22  # resamples x kinds held at once


_MOST_JACKKNIFE_KINDS = 20_000  # a jackknife recomputing the statistic per kind costs kinds² beyond a closed form


MAX_RESAMPLES = 10_000_000
"""The most bootstrap resamples an interval draws (their values alone take 80 MB); the
resamples themselves are drawn in batches of bounded memory."""


def _check_resamples(n_resamples: Any) -> int:
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)) or not 10 <= n_resamples <= MAX_RESAMPLES:
        raise InvalidArgumentError(f"'n_resamples' must be an integer in 10..{MAX_RESAMPLES:,}, got {show(n_resamples)}")
    return int(n_resamples)


def _integral(counts: np.ndarray, what: str) -> np.ndarray:
    """Counts of samples as int64, or an error for float (weighted) counts."""
    counts = np.asarray(counts)
    if counts.dtype.kind == "f":
        if not np.all(counts == np.round(counts)):
            raise UnsupportedSettingError(
                f"{what} needs counts of samples; these are float sample weights: evaluate with integer weights (repeated samples) or none"
            )
        counts = counts.astype(np.int64)
    if counts.dtype.kind == "O":
        counts = counts.astype(np.int64)
    return counts


@attrs.frozen
class _Kinds:
    """What a bootstrap draws: kinds of sample and how many samples of each, optionally in
    strata whose sizes every resample keeps. ``sums(K)`` maps counts (resamples x kinds) to
    the linear sums a statistic needs; ``jackknife(rows)`` gives those sums with one sample of
    each kind in ``rows`` left out."""

    counts: np.ndarray
    sums: Callable[[np.ndarray], Any]
    jackknife: Callable[[np.ndarray], Any]
    strata: np.ndarray | None = None
    jackknife_values: Callable[[np.ndarray], np.ndarray] | None = None  # a closed form, when one exists

    def draw(self, rng: np.random.Generator, size: int) -> np.ndarray:
        groups = [np.arange(len(self.counts))] if self.strata is None else [np.flatnonzero(self.strata == s) for s in np.unique(self.strata)]
        drawn = np.zeros((size, len(self.counts)))
        for members in groups:
            total = int(self.counts[members].sum())
            if total:
                drawn[:, members] = rng.multinomial(total, self.counts[members] / total, size=size)
        return drawn


def _dense_kinds(contributions: np.ndarray, counts: np.ndarray, strata: np.ndarray | None = None) -> _Kinds:
    """Kinds whose one sample adds a row of ``contributions`` (kinds x sums) to the sums."""
    total = counts.astype(np.float64) @ contributions
    return _Kinds(counts, lambda drawn: drawn @ contributions, lambda rows: total[None, :] - contributions[rows], strata)


def check_random_state(random_state: RandomState) -> Any:
    """``random_state`` if numpy can seed with it: ``None``, an integer >= 0, a
    ``numpy.random.Generator`` or a ``SeedSequence``."""
    if random_state is None or isinstance(random_state, (np.random.Generator, np.random.SeedSequence, np.random.BitGenerator)):
        return random_state
    if isinstance(random_state, (bool, np.bool_)) or not isinstance(random_state, (int, np.integer)) or random_state < 0:
        raise InvalidArgumentError(f"'random_state' must be None, an integer >= 0 or a numpy Generator, got {show(random_state)}")
    return random_state


def _replicates(kinds: _Kinds, value: Callable[[Any], np.ndarray], n_resamples: int, random_state: RandomState) -> np.ndarray:
    """``value`` of every resample, drawn in batches (one matrix of counts per batch)."""
    rng = np.random.default_rng(check_random_state(random_state))
    step = max(1, _BATCH_ENTRIES // max(1, len(kinds.counts)))
    batches = range(0, n_resamples, step)
    return np.concatenate([value(kinds.sums(kinds.draw(rng, min(step, n_resamples - start)))) for start in batches])


def _bootstrap(kinds: _Kinds, value: Callable[[Any], np.ndarray], estimate: float, *, level: float, method: str,
               n_resamples: int, random_state: RandomState, replicates: np.ndarray | None = None, tuning: float = DEFAULT_TUNING) -> Interval:  # fmt: skip
    """The percentile, normal or BCa interval of ``value(sums)`` over resamples of ``kinds``;
    ``method="anytime"``: its asymptotic confidence sequence instead (``sequence_interval``)."""
    if method == "anytime":
        return sequence_interval(kinds, value, estimate, level=level, tuning=tuning)
    level, n_resamples = _check_level(level), _check_resamples(n_resamples)
    if replicates is None:
        replicates = _replicates(kinds, value, n_resamples, random_state)
    defined = replicates[~np.isnan(replicates)]
    n_undefined = len(replicates) - len(defined)
    if not len(defined) or math.isnan(estimate):
        return Interval(estimate, math.nan, math.nan, level, method, n_undefined)
    alpha = (1 - level) / 2
    quantiles = [alpha, 1 - alpha]
    if method == "normal":
        spread = _z(level) * float(np.std(defined))
        return Interval(estimate, estimate - spread, estimate + spread, level, method, n_undefined)
    if method == "bca":
        if np.all(defined == defined[0]):
            warnings.warn("the statistic does not vary over the resamples: BCa falls back to the percentile interval", EvalkitWarning, stacklevel=4)
            return Interval(estimate, float(defined[0]), float(defined[0]), level, "percentile", n_undefined)
        quantiles = _bca_quantiles(kinds, value, estimate, defined, alpha)
    low, high = np.quantile(defined, quantiles)
    return Interval(estimate, float(low), float(high), level, method, n_undefined)


def _bca_quantiles(kinds: _Kinds, value: Callable[[Any], np.ndarray], estimate: float, defined: np.ndarray, alpha: float) -> list[float]:
    """Efron's bias-corrected and accelerated quantiles; the acceleration from the jackknife
    (one sample of each kind left out, weighted by how many samples the kind has)."""
    normal = NormalDist()
    share = (np.count_nonzero(defined < estimate) + 0.5 * np.count_nonzero(defined == estimate)) / len(defined)
    bias = normal.inv_cdf(min(max(share, 1e-12), 1 - 1e-12))
    jack, weights = _jackknife(kinds, value)
    acceleration = 0.0
    if len(jack):
        centre = np.dot(jack, weights) / weights.sum()
        spread = np.dot(weights, (centre - jack) ** 2)
        acceleration = float(np.dot(weights, (centre - jack) ** 3) / (6 * spread**1.5)) if spread > 0 else 0.0
    out = []
    for tail in (alpha, 1 - alpha):
        z = normal.inv_cdf(tail)
        out.append(normal.cdf(bias + (bias + z) / (1 - acceleration * (bias + z))))
    return out


def _jackknife(kinds: _Kinds, value: Callable[[Any], np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """``value`` with one sample of each kind left out, and how many samples each kind has
    (kinds where the value is undefined left out)."""
    present = np.flatnonzero(kinds.counts > 0)
    step = max(1, _BATCH_ENTRIES // max(1, len(kinds.counts)))
    if kinds.jackknife_values is not None:
        jack = kinds.jackknife_values(present)
    else:
        jack = np.concatenate([value(kinds.jackknife(present[start : start + step])) for start in range(0, len(present), step)])
    weights = kinds.counts[present].astype(np.float64)
    kept = ~np.isnan(jack)
    return jack[kept], weights[kept]


def jackknife_spread(kinds: _Kinds, value: Callable[[Any], np.ndarray], estimate: float) -> tuple[float, float]:
    """The samples ``n`` and the delta-method standard deviation of one sample of ``value(sums)``,
    by the jackknife of the kinds: ``sqrt((n - 1) Σ c_k (θ_k - θ̄)²)`` (0 where it is undefined).

    Raises:
        UnsupportedSettingError: float (weighted) counts; more than ``_MOST_JACKKNIFE_KINDS``
            kinds without a closed form of the jackknife (it would read the value once per
            kind, each over every kind).
    """
    counts = _integral(kinds.counts, "an anytime interval")
    present = int(np.count_nonzero(counts))
    if kinds.jackknife_values is None and present > _MOST_JACKKNIFE_KINDS:
        raise UnsupportedSettingError(f"an anytime sequence over {present:,} kinds of sample needs a jackknife too large to run "
                                      f"(at most {_MOST_JACKKNIFE_KINDS:,} kinds: fewer classes, or the sequence of a proportion)")  # fmt: skip
    n = float(counts.sum())
    jack, weights = _jackknife(kinds, value) if n >= 2 and not math.isnan(estimate) else (np.zeros(0), np.zeros(0))
    if not len(jack) or len(jack) < present:  # a sample whose leaving makes the value undefined: too few samples for the delta method
        return n, 0.0
    centre = np.dot(jack, weights) / weights.sum()
    return n, math.sqrt((n - 1) * float(np.dot(weights, (jack - centre) ** 2)))


def sequence_interval(kinds: _Kinds, value: Callable[[Any], np.ndarray], estimate: float, *, level: float, tuning: float = DEFAULT_TUNING) -> Interval:
    """The asymptotic confidence sequence of ``value(sums)`` (Waudby-Smith et al., 2024): the
    estimate ± ``sigma · normal_mixture_radius(n)``, holding at every sample size at once, with
    ``sigma²`` the delta-method variance of one sample, found by the jackknife of the kinds:
    ``(n - 1) Σ c_k (θ_k - θ̄)²``, ``θ_k`` the value without one sample of kind ``k``, ``c_k``
    its samples. NaN bounds where the value is undefined, or does not vary when a sample is left
    out (every sample right: the sequence needs a spread to grow from; a proportion has the
    exact beta-binomial sequence).

    Examples:
        >>> kinds = _dense_kinds(np.array([[1.0, 1.0], [0.0, 1.0]]), np.array([850, 150]))
        >>> print(sequence_interval(kinds, lambda sums: sums[:, 0] / sums[:, 1], 0.85, level=0.95))
        0.85 [0.8142, 0.8858] (95% anytime asymptotic)
    """
    level, tuning = _check_level(level), check_tuning(tuning)
    low, high = sequence_bounds(estimate, *jackknife_spread(kinds, value, estimate), level, tuning)
    return Interval(estimate, low, high, level, "asymptotic", anytime=True)


def column_sums(drawn: np.ndarray, keys: np.ndarray, size: int) -> np.ndarray:
    """``out[b, k] = Σ_{r: keys[r] = k} drawn[b, r]``: the columns of a batch of drawn counts
    summed by key (no dense one-hot).

    Examples:
        >>> column_sums(np.array([[1, 2, 3]]), np.array([0, 1, 0]), 2).tolist()
        [[4.0, 2.0]]
    """
    return _group_sums(drawn, keys, size)


def stratified_replicates(counts: Any, strata: Any, statistic: Callable[[np.ndarray], np.ndarray], n_resamples: int = 2000,
                          random_state: RandomState = None) -> np.ndarray:  # fmt: skip
    """``statistic`` over bootstrap resamples drawn within strata: every stratum (a group of
    kinds) keeps its number of samples, as resampling within groups does.

    Examples:
        >>> found = stratified_replicates([5, 5, 10], [0, 0, 1], lambda drawn: drawn[:, 2], 20, 0)
        >>> bool((found == 10).all())
        True
    """
    kinds = _Kinds(_integral(np.asarray(counts), "a bootstrap"), lambda drawn: drawn, lambda rows: rows, np.asarray(strata))
    return _replicates(kinds, statistic, _check_resamples(n_resamples), random_state)


def _group_sums(drawn: np.ndarray, keys: np.ndarray, size: int) -> np.ndarray:
    """``out[b, k] = Σ_{r: keys[r] = k} drawn[b, r]``: column sums by key, no dense one-hot."""
    out = np.zeros((drawn.shape[0], size))
    if len(keys) == 0:
        return out
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    out[:, ordered[starts]] = np.add.reduceat(drawn[:, order], starts, axis=1)
    return out


def _pair_kinds(pairs: PairCounts, stratify: bool) -> _Kinds:
    """Kinds of a single-label result; the sums are ``(correct, actual, predicted)`` per code."""
    order = np.lexsort((pairs.predicted, pairs.actual))  # one order whatever the batches counted: the same draws
    counts = _integral(pairs.counts[order], "an interval over samples (a bootstrap, an anytime sequence)")
    actual, predicted, size = pairs.actual[order], pairs.predicted[order], pairs.size
    diagonal = actual == predicted

    def sums(drawn: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return (_group_sums(drawn[:, diagonal], actual[diagonal], size), _group_sums(drawn, actual, size), _group_sums(drawn, predicted, size))

    totals = sums(counts[None, :].astype(np.float64))

    def jackknife(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        correct, by_actual, by_predicted = (np.repeat(total, len(rows), axis=0) for total in totals)
        place = np.arange(len(rows))
        correct[place[diagonal[rows]], actual[rows][diagonal[rows]]] -= 1
        by_actual[place, actual[rows]] -= 1
        by_predicted[place, predicted[rows]] -= 1
        return correct, by_actual, by_predicted

    return _Kinds(counts, sums, jackknife, actual if stratify else None)


def _pair_statistic(measure: Measure, average: str | None, position: int | None, m: int, undefined: UndefinedPolicy, parameters: dict[str, Any]) -> Callable[[Any], np.ndarray]:
    """A batch statistic of ``(correct, actual, predicted)`` sums over the ``m`` classes."""

    def cells(sums: Any) -> Cells:
        correct, by_actual, by_predicted = sums
        total = by_actual.sum(axis=1, keepdims=True)
        return Cells.from_sums(correct[:, :m], by_actual[:, :m], by_predicted[:, :m], total)

    if average is None and position is None:
        name = measure.name

        def whole(sums: Any) -> np.ndarray:
            correct, by_actual, by_predicted = sums
            margins = {"correct": correct[:, :m].sum(axis=1), "total": by_actual.sum(axis=1), "actual": by_actual, "predicted": by_predicted}
            if name == "accuracy":
                with np.errstate(invalid="ignore", divide="ignore"):
                    return np.where(margins["total"] > 0, margins["correct"] / np.where(margins["total"] > 0, margins["total"], 1), np.nan)
            if name == "cohen_kappa":
                return np.asarray(margins_cohen_kappa(**margins), dtype=np.float64)
            return np.asarray(margins_matthews_correlation_coefficient(**margins), dtype=np.float64)

        return whole
    if position is not None:
        return lambda sums: np.asarray(cells(sums).evaluate(measure, **parameters), dtype=np.float64)[:, position]
    assert average is not None  # whole-result and one-class statistics are returned above
    return lambda sums: average_rows(measure, cells(sums), average, undefined=undefined, parameters=parameters)


def _row_kinds(cells: Cells) -> _Kinds:
    """Kinds = the distinct rows of per-sample cells (``Cells.compact``), with how many samples
    each stands for; the sums are the four cells."""
    cells = cells.compact()  # (a jackknife reads each kind over every kind: distinct rows, not samples)
    counts = _integral(cells.row_weights(), "an interval over samples (a bootstrap, an anytime sequence)")
    return _dense_kinds(np.stack([np.asarray(row, dtype=np.float64) for row in cells.rows()], axis=1), counts)


def counts_replicates(counts: Any, statistic: Callable[[np.ndarray], np.ndarray], n_resamples: int = 2000, random_state: RandomState = None) -> np.ndarray:
    """``statistic`` (of a batch of drawn counts, resamples x kinds, giving one row per
    resample) over bootstrap resamples of counts of sample kinds: for statistics of several
    numbers at once, whose intervals the caller takes (``percentile_interval``).

    Examples:
        >>> counts_replicates([30, 70], lambda drawn: drawn / drawn.sum(axis=1, keepdims=True), 50, 0).shape
        (50, 2)
    """
    kinds = _Kinds(_integral(np.asarray(counts), "a bootstrap"), lambda drawn: drawn, lambda rows: rows)
    return _replicates(kinds, statistic, _check_resamples(n_resamples), random_state)


def percentile_interval(replicates: Any, estimate: float, level: float = 0.95, n_undefined: int = 0) -> Interval:
    """The percentile interval of bootstrap replicates (NaN bounds without any).

    Examples:
        >>> print(percentile_interval(np.arange(101) / 100, 0.5))
        0.5 [0.025, 0.975] (95% percentile)
    """
    level = _check_level(level)
    replicates = np.asarray(replicates, dtype=np.float64)
    if not len(replicates):
        return Interval(estimate, math.nan, math.nan, level, "percentile", n_undefined)
    low, high = np.quantile(replicates, [(1 - level) / 2, (1 + level) / 2])
    return Interval(estimate, float(low), float(high), level, "percentile", n_undefined)


def _jackknife_identity(counts: np.ndarray, rows: np.ndarray) -> np.ndarray:
    out = np.repeat(counts[None, :].astype(np.float64), len(rows), axis=0)
    out[np.arange(len(rows)), rows] -= 1
    return out
