"""Paired comparisons of two classifiers on the same samples, and of several, pairwise.

``compare``: the exact McNemar test (and its mid-p variant, which M. W. Fagerland, S. Lydersen
and P. Laake, "The McNemar test for binary matched-pairs data", 2013, recommend) for accuracy,
DeLong's test for two AUCs on the same samples, and a paired bootstrap of the difference for
any measure and average; with ``anytime=True``, McNemar's test made sequential (exact) or the
asymptotic confidence sequence of the difference, valid however often a stream compares.
``compare_many`` compares several classifiers pairwise with Holm's step-down correction of the
p-values; ``compare_results`` two results counted apart (unpaired).

Examples:
    >>> y = [0, 1, 1, 0, 1, 0, 1, 1]
    >>> round(compare(y, [0, 1, 1, 0, 1, 0, 1, 0], [0, 0, 1, 1, 0, 0, 1, 0]).p_value, 3)
    0.25
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from itertools import combinations
from typing import Any, cast

import attrs
import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine._labels import label_position, sorted_labels
from evalkit._engine._types import LabelsLike
from evalkit._engine._validation import RandomState, check_choice
from evalkit._engine.counting import encode
from evalkit._results._closed_form import (
    Interval,
    _binomial_tail,
    _check_level,
    _proportion,
    _z,
    delong,
    two_sided_p_value,
    wilson,
)
from evalkit._results._resampling import (
    _bootstrap,
    _check_resamples,
    _group_sums,
    _integral,
    _jackknife_identity,
    _Kinds,
    _pair_kinds,
    _pair_statistic,
    _replicates,
    check_random_state,
    jackknife_spread,
    percentile_interval,
)
from evalkit._results._sequences import (
    DEFAULT_TUNING,
    beta_binomial_p_value,
    check_tuning,
    normal_mixture_p_value,
    sequence_bounds,
)
from evalkit._results.intervals import (
    BOOTSTRAP_METHODS,
    WHOLE_MEASURES,
    _resolve,
    check_anytime,
    check_method,
    sequence_method,
)
from evalkit._results.multiplicity import PAIRWISE_CORRECTIONS, adjust_pairwise
from evalkit.exceptions import InvalidArgumentError
from evalkit.measures._averaging import UndefinedPolicy, check_undefined
from evalkit.measures._registry import Measure, MeasureLike, check_measure_parameters, resolve_measure

__all__ = ["Comparison", "compare", "compare_many", "compare_results", "mcnemar"]


@attrs.frozen
class Comparison:
    """A paired comparison of two classifiers on the same samples: ``first - second``.

    Attributes:
        difference: the first classifier's value minus the second's.
        low, high: the confidence interval of the difference (NaN for tests that give none).
        p_value: the p-value of "no difference" (after the correction, in ``compare_many``).
        method: ``"mcnemar"``, ``"mcnemar-midp"``, ``"delong"``, ``"bca"`` or ``"percentile"``;
            anytime: ``"beta-binomial"`` or ``"asymptotic"``.
        estimates: the two values.
        level: the confidence level of the interval.
        direction: the measure's direction (``"higher"`` or ``"lower"`` is better, or
            ``None``): how to read the sign of the difference.
        anytime: a sequential comparison: the interval is a confidence sequence and the p-value
            anytime-valid, so a stream may compare after every batch and stop as soon as the
            p-value falls below its alpha (``compare(..., anytime=True)``).
    """

    difference: float
    low: float
    high: float
    p_value: float
    method: str
    estimates: tuple[float, float] = (math.nan, math.nan)
    level: float = 0.95
    direction: str | None = "higher"
    anytime: bool = False

    @property
    def better(self) -> str | None:
        """``"first"`` or ``"second"``: which classifier the difference favours, by the
        measure's direction (for a loss, a negative difference favours the first); ``None``
        when they tie or the measure has no direction. Read it with the p-value: it says which
        is better on these samples, not whether the difference is significant.

        Examples:
            >>> Comparison(-0.1, -0.2, 0.0, 0.04, "bca", (0.2, 0.3), direction="lower").better
            'first'
        """
        if self.direction not in ("higher", "lower") or not self.difference or math.isnan(self.difference):
            return None
        return "first" if (self.difference > 0) == (self.direction == "higher") else "second"

    def __str__(self) -> str:
        bounds = "" if math.isnan(self.low) else f" [{self.low:.4g}, {self.high:.4g}]"
        return f"difference {self.difference:.4g}{bounds}, p = {self.p_value:.4g} ({'anytime ' if self.anytime else ''}{self.method})"


def mcnemar(first_right: ArrayLike, second_right: ArrayLike, *, midp: bool = False, sample_weight: ArrayLike | None = None) -> float:
    """The exact McNemar p-value of two classifiers' right/wrong on the same samples: a
    two-sided binomial test on the discordant pairs ``b`` (first right only) and ``c``
    (second right only); the mid-p variant subtracts ``P(X = min(b, c))`` (Fagerland, Lydersen
    and Laake, 2013). No discordant pair gives p = 1.

    Examples:
        >>> round(mcnemar([1, 1, 1, 1, 1, 1, 0, 0], [0, 0, 0, 0, 0, 1, 0, 0]), 4)
        0.0625
    """
    b, c = _discordant(first_right, second_right, sample_weight)
    n = b + c
    if n == 0:
        return 1.0
    tail, point = _binomial_tail(min(b, c), n)
    p_value = 2 * tail - (point if midp else 0.0)
    return float(min(1.0, p_value))


def _discordant(first_right: ArrayLike, second_right: ArrayLike, sample_weight: ArrayLike | None) -> tuple[int, int]:
    """McNemar's discordant samples: ``b`` where only the first is right, ``c`` where only the
    second is (integer weights count as repeated samples)."""
    first, second = np.asarray(first_right, dtype=bool), np.asarray(second_right, dtype=bool)
    weight = np.ones(len(first), dtype=np.int64) if sample_weight is None else _integral(np.asarray(sample_weight), "McNemar's test")
    return int(weight[first & ~second].sum()), int(weight[~first & second].sum())


def compare(
    y_true: LabelsLike, first: LabelsLike, second: LabelsLike, measure: MeasureLike = "accuracy", average: str | None = None, *, method: str | None = None,
    labels: Sequence[Any] | None = None, level: float = 0.95, n_resamples: int = 2000, random_state: RandomState = None,
    sample_weight: ArrayLike | None = None, undefined: UndefinedPolicy = "exclude", metrics_class: type[Any] | None = None, anytime: bool = False,
    tuning: float = DEFAULT_TUNING, **parameters: Any,
) -> Comparison:  # fmt: skip
    """Compare two classifiers on the same samples: ``first - second``; ``Comparison.better``
    reads the sign by the measure's direction (for a loss, lower is better).

    Args:
        y_true: the actual labels.
        first: the first classifier's predicted labels, or (``method="delong"``) its scores
            of the positive class (``y_true`` then 0/1).
        second: the second classifier's, likewise.
        measure: the measure (``"accuracy"`` for McNemar; ``"roc_auc"`` for DeLong; any
            measure for the bootstrap).
        average: for the bootstrap of a per-class measure: ``"micro"``, ``"macro"`` or
            ``"weighted"`` (or ``None`` for accuracy, kappa and MCC of the whole result).
        method: ``"mcnemar"`` (the default), ``"mcnemar-midp"``, ``"delong"``, ``"bca"`` or
            ``"percentile"`` (a paired bootstrap: the same resamples for both). With
            ``anytime``: ``"beta-binomial"`` (accuracy: McNemar's discordant pairs, exact; the
            default for it) or ``"asymptotic"`` (any measure: the default for the rest).
        labels: the classes (default: the sorted labels seen).
        level: the confidence level of the interval of the difference.
        n_resamples: bootstrap resamples.
        random_state: the bootstrap's seed.
        sample_weight: integer weights (repeated samples).
        undefined: the undefined-value policy of averages.
        metrics_class: a ``ClassificationMetrics`` subclass whose getters (and overrides) are
            measures by name (the bootstrap).
        anytime: a sequential comparison of two classifiers on one stream, valid however often
            it is read (see ``Comparison.anytime``): the p-value falls below ``1 - level`` at
            some time with probability at most ``1 - level`` when they are equally good.
        tuning: with ``anytime``, the sample size where it is most powerful (see
            ``CellsResult.interval``); for McNemar's, in discordant samples.
        **parameters: of the measure (``beta=2``).

    Examples:
        >>> y = [0, 1, 1, 0, 1, 0, 1, 1]
        >>> result = compare(y, [0, 1, 1, 0, 1, 0, 1, 0], [0, 0, 1, 1, 0, 0, 1, 0])
        >>> round(result.difference, 3), round(result.p_value, 3), result.method
        (0.375, 0.25, 'mcnemar')
        >>> print(compare(y * 5, [0, 1, 1, 0, 1, 0, 1, 0] * 5, [0, 0, 1, 1, 0, 0, 1, 0] * 5, anytime=True, tuning=100))
        difference 0.375, p = 0.01415 (anytime beta-binomial)
    """
    if check_anytime(anytime):
        return _paired_sequence(y_true, first, second, measure, average, method, labels, level, sample_weight, undefined, metrics_class, tuning, parameters)
    method = "mcnemar" if method is None else method
    check_choice("method", method, ("mcnemar", "mcnemar-midp", "delong", *BOOTSTRAP_METHODS))
    check_random_state(random_state)
    if method == "delong":
        ignored = [name for name, value, default in (("measure", measure, "accuracy"), ("average", average, None), ("labels", labels, None),
                                                     ("sample_weight", sample_weight, None), ("metrics_class", metrics_class, None))
                   if not (value is default or (isinstance(value, str) and value in (default, "roc_auc")))] + sorted(parameters)  # fmt: skip
        if ignored:
            raise InvalidArgumentError(f"DeLong's test compares the ROC AUCs of two binary scores, unweighted: it takes no {', '.join(ignored)}; "
                                       "use a bootstrap (method='bca', measure=...) for weights, labels or other measures")  # fmt: skip
        aucs, covariance = delong(y_true, cast("ArrayLike", first), cast("ArrayLike", second))  # scores
        difference = float(aucs[0] - aucs[1])
        variance = float(covariance[0, 0] + covariance[1, 1] - 2 * covariance[0, 1])
        z = _z(_check_level(level))
        error = math.sqrt(max(variance, 0.0))
        p_value = 1.0 if error == 0 else two_sided_p_value(difference / error)
        return Comparison(difference, difference - z * error, difference + z * error, p_value, method, (float(aucs[0]), float(aucs[1])), level)
    codes, labels, weight = _three_codes(y_true, first, second, labels, sample_weight)
    if method in ("mcnemar", "mcnemar-midp"):
        resolved = resolve_measure(measure, metrics_class)
        if resolved.name != "accuracy" or resolved.getter is not None or average is not None:
            raise InvalidArgumentError(
                "McNemar's test compares accuracies (the shares of right samples): measure='accuracy' and no average; "
                "use a bootstrap (method='bca') for other measures and for getters"
            )
        actual, one, two = codes
        p_value = mcnemar(one == actual, two == actual, midp=method == "mcnemar-midp", sample_weight=weight)
        total = len(actual) if weight is None else float(weight.sum())
        first_share, second_share = (float((right if weight is None else right * weight).sum() / total) for right in (one == actual, two == actual))
        estimates = (first_share, second_share)
        return Comparison(estimates[0] - estimates[1], math.nan, math.nan, p_value, method, estimates, level)
    resolved = _resolve(measure, metrics_class, parameters)
    return _paired_bootstrap(codes, len(labels), weight, resolved, average, method, level, n_resamples, random_state, undefined, parameters)


def _three_codes(y_true: LabelsLike, first: LabelsLike, second: LabelsLike, labels: Sequence[Hashable] | None, sample_weight: ArrayLike | None) -> tuple[tuple[np.ndarray, ...], tuple, np.ndarray | None]:
    """Codes of the actual and both predicted labels over one label order (the given labels,
    or every label seen, sorted), and the checked weights."""
    if labels is None:
        seen = [found for values in (y_true, first, second) for found in encode(values, values)[2]]
        labels = sorted_labels(list(dict.fromkeys(seen)), "labels")
    actual, one, known, weight = encode(y_true, first, labels, sample_weight=sample_weight)
    _, two, _, _ = encode(y_true, second, known)
    return (actual, one, two), known, weight


def _paired_sequence(y_true: LabelsLike, first: LabelsLike, second: LabelsLike, measure: MeasureLike, average: str | None, method: str | None,
                     labels: Sequence[Any] | None, level: float, sample_weight: ArrayLike | None, undefined: UndefinedPolicy,
                     metrics_class: type[Any] | None, tuning: float, parameters: dict[str, Any]) -> Comparison:  # fmt: skip
    """``compare(..., anytime=True)``: ``"beta-binomial"``, McNemar's test made sequential (the
    anytime-valid p-value of "the first is right in half of the discordant pairs", exact; no
    interval, as McNemar's); ``"asymptotic"``, the confidence sequence of the difference (from
    the paired jackknife) and the p-value of the same normal mixture (below ``1 - level``
    exactly where the sequence leaves 0 out)."""
    checked = check_method(method, True)
    level, tuning = _check_level(level), check_tuning(tuning)
    codes, found_labels, weight = _three_codes(y_true, first, second, labels, sample_weight)
    resolved = _resolve(measure, metrics_class, parameters)
    discordant = resolved.name == "accuracy" and resolved.getter is None and average is None
    chosen = sequence_method(checked, discordant, resolved.name)
    kinds, gap, estimates = _paired_kinds(codes, len(found_labels), weight, resolved, average, undefined, parameters)
    difference = estimates[0] - estimates[1]
    if chosen == "beta-binomial":
        actual, one, two = codes
        b, c = _discordant(one == actual, two == actual, weight)
        return Comparison(difference, math.nan, math.nan, beta_binomial_p_value(b, b + c, 0.5, 1 - level, tuning), chosen, estimates, level, anytime=True)
    n, spread = jackknife_spread(kinds, gap, difference)
    span = resolved.bounds[1] - resolved.bounds[0]
    cut = Interval(difference, *sequence_bounds(difference, n, spread, level, tuning), level, "asymptotic").within((-span, span))
    p_value = normal_mixture_p_value(difference, spread, n, 1 - level, tuning)
    return Comparison(difference, cut.low, cut.high, p_value, "asymptotic", estimates, level, resolved.direction, anytime=True)


def _paired_kinds(codes: tuple[np.ndarray, ...], m: int, weight: np.ndarray | None, measure: Measure, average: str | None, undefined: UndefinedPolicy,
                  parameters: dict[str, Any]) -> tuple[_Kinds, Callable[[np.ndarray], np.ndarray], tuple[float, float]]:  # fmt: skip
    """Kinds of (actual, first, second) triples, the difference of the measure of both on a
    draw of them, and the two values on the samples: each resample counts both classifiers on
    the same samples."""
    actual, one, two = (code.astype(np.int64) for code in codes)
    distinct, inverse = np.unique((actual * m + one) * m + two, return_inverse=True)
    counts = _integral(np.bincount(inverse.ravel(), weights=weight, minlength=len(distinct)), "a paired comparison (a bootstrap, an anytime sequence)")
    kind_actual, kind_first, kind_second = distinct // (m * m), (distinct // m) % m, distinct % m
    resolved = measure
    if average is None and resolved.name not in WHOLE_MEASURES:
        raise InvalidArgumentError(f"give an 'average' for {resolved.name!r} (or compare accuracy, cohen_kappa or MCC)")
    statistic = _pair_statistic(resolved, average, None, m, check_undefined(undefined), parameters)

    def value_of(predicted: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
        diagonal = kind_actual == predicted
        return lambda drawn: statistic(
            (_group_sums(drawn[:, diagonal], kind_actual[diagonal], m), _group_sums(drawn, kind_actual, m), _group_sums(drawn, predicted, m))
        )

    first_value, second_value = value_of(kind_first), value_of(kind_second)
    whole = counts[None, :].astype(np.float64)
    estimates = (float(first_value(whole)[0]), float(second_value(whole)[0]))
    kinds = _Kinds(counts, lambda drawn: drawn, lambda rows: _jackknife_identity(counts, rows))

    def gap(drawn: np.ndarray) -> np.ndarray:
        return first_value(drawn) - second_value(drawn)

    return kinds, gap, estimates


def _paired_bootstrap(codes: tuple[np.ndarray, ...], m: int, weight: np.ndarray | None, measure: Measure, average: str | None, method: str,
                      level: float, n_resamples: int, random_state: RandomState, undefined: UndefinedPolicy, parameters: dict[str, Any]) -> Comparison:  # fmt: skip
    """The paired bootstrap of ``compare``: both classifiers counted on the same resamples."""
    kinds, gap, estimates = _paired_kinds(codes, m, weight, measure, average, undefined, parameters)
    difference = estimates[0] - estimates[1]
    replicates = _replicates(kinds, gap, _check_resamples(n_resamples), random_state)
    interval = _bootstrap(kinds, gap, difference, level=level, method=method, n_resamples=n_resamples, random_state=random_state, replicates=replicates)
    return Comparison(difference, interval.low, interval.high, _p_value(replicates, difference), interval.method, estimates, interval.level,
                      measure.direction)  # fmt: skip


def _p_value(replicates: np.ndarray, difference: float) -> float:
    """Two-sided bootstrap p-value of "no difference": the share of centred replicates at least
    as far from 0 as the observed difference (with the observed one counted)."""
    replicates = replicates[~np.isnan(replicates)]
    if not len(replicates) or math.isnan(difference):
        return math.nan
    centred = replicates - replicates.mean()
    return float(min(1.0, (np.count_nonzero(np.abs(centred) >= abs(difference)) + 1) / (len(centred) + 1)))


def compare_results(
    first: Any, second: Any, measure: MeasureLike = "accuracy", average: str | None = None, *, label: Hashable | None = None,
    method: str = "newcombe", level: float = 0.95, n_resamples: int = 2000, random_state: RandomState = None,
    undefined: UndefinedPolicy = "exclude", metrics_class: type[Any] | None = None, **parameters: Any,
) -> Comparison:  # fmt: skip
    """Compare one measure of two results over different samples (this week's window against
    last month's, one site against another): ``first - second`` with a two-sample interval of
    the difference, so a drop is a number with its uncertainty. ``evalkit.compare`` is the paired
    comparison of two classifiers on the same samples.

    * ``"newcombe"`` (default): Newcombe's hybrid score interval (1998, method 10) from the two
      Wilson intervals, ``d - sqrt((p1 - l1)² + (u2 - p2)²)`` to ``d + sqrt((u1 - p1)² +
      (p2 - l2)²)``, with the pooled two-proportion z-test's p-value: for proportions (the whole
      accuracy, one class's recall or precision with ``label=``, a micro average);
    * ``"percentile"``: each result resampled on its own (single-label results), the
      percentile interval of the differences and the bootstrap p-value: any measure or average.

    A window is compared through its result (``window.result``); a decayed one at its
    effective sample size (``Faded.effective()``), which views give by themselves here.

    Raises:
        InvalidArgumentError: ``"newcombe"`` for a measure that is no proportion, or both
            ``label`` and ``average``.

    Examples:
        >>> from evalkit import ConfusionMatrix
        >>> reference = ConfusionMatrix.from_array([[450, 50], [40, 460]])   # last month: 91% right
        >>> current = ConfusionMatrix.from_array([[80, 20], [15, 85]])       # this week: 82.5%
        >>> print(compare_results(current, reference))
        difference -0.085 [-0.1458, -0.03473], p = 0.0003278 (newcombe)
    """
    check_choice("method", method, ("newcombe", "percentile"))
    if label is not None and average is not None:
        raise InvalidArgumentError("give 'label' (one class) or 'average' (over all classes), not both")
    results = [_comparable(result) for result in (first, second)]
    resolved = results[0].measure(measure, metrics_class)
    check_measure_parameters(resolved, parameters)
    policy = check_undefined(undefined)
    if label is None and average is None and resolved.name not in WHOLE_MEASURES:
        raise InvalidArgumentError(f"give an 'average' or a 'label' for {resolved.name!r}; a whole result compares by {', '.join(WHOLE_MEASURES)}")

    def estimate(result: Any) -> float:
        if label is not None:
            return float(result.per_class(resolved, **parameters)[label_position(result.labels, label)])
        if average is not None:
            return float(result.average(resolved, average, undefined=policy, **parameters))
        return float(result._whole_value(resolved.name))

    estimates = (estimate(results[0]), estimate(results[1]))
    difference = estimates[0] - estimates[1]
    if method == "newcombe":
        shares = [_successes(result, resolved, average, label, parameters) for result in results]
        (k1, n1), (k2, n2) = shares
        (l1, u1), (l2, u2) = (wilson(k, n, level) for k, n in shares)
        p1, p2 = k1 / n1, k2 / n2
        low, high = difference - math.hypot(p1 - l1, u2 - p2), difference + math.hypot(u1 - p1, p2 - l2)
        pooled = (k1 + k2) / (n1 + n2)
        spread = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
        p_value = two_sided_p_value(difference / spread) if spread else (1.0 if difference == 0 else 0.0)
        return Comparison(difference, low, high, p_value, method, estimates, _check_level(level), resolved.direction)
    rng = np.random.default_rng(check_random_state(random_state))
    n = _check_resamples(n_resamples)
    replicates = []
    for result in results:
        position = None if label is None else label_position(result.labels, label)
        statistic = _pair_statistic(resolved, average, position, len(result.labels), policy, parameters)
        replicates.append(_replicates(_pair_kinds(result.pair_counts(), False), statistic, n, rng))  # one generator: independent draws
    gaps = replicates[0] - replicates[1]
    defined = gaps[~np.isnan(gaps)]
    interval = percentile_interval(defined, difference, level, len(gaps) - len(defined))
    return Comparison(difference, interval.low, interval.high, _p_value(gaps, difference), method, estimates, interval.level, resolved.direction)


def _comparable(view: object) -> Any:
    """The result a view stands for in a comparison: a decayed view at its effective size, a
    window's result, or the result itself."""
    effective = getattr(view, "effective", None)
    if callable(effective):
        return effective()
    found = getattr(view, "result", None)
    return found if found is not None and hasattr(found, "measure") else view


def _successes(result: Any, measure: Measure, average: str | None, label: Hashable | None, parameters: dict[str, Any]) -> tuple[float, float]:
    """``(successes, trials)`` of a proportion measure of a result (whole accuracy, one class, micro)."""
    if label is None and average is None:
        if measure.name != "accuracy":
            raise InvalidArgumentError(f"method='newcombe' compares proportions; the whole {measure.name!r} is none: use method='percentile'")
        margins = result.pair_counts().margins()
        return float(margins["correct"]), float(margins["total"])
    if average not in (None, "micro"):
        raise InvalidArgumentError(f"method='newcombe' compares proportions; a {average} average is none: use method='percentile'")
    coefficients = _proportion(measure, parameters)
    if coefficients is None:
        raise InvalidArgumentError(f"method='newcombe' compares proportions (successes / trials); {measure.name!r} is none: use method='percentile'")
    cells = result.class_cells
    if label is not None:
        position = label_position(result.labels, label)
        cells = cells[position : position + 1]
    values = np.array([float(np.asarray(row).sum()) for row in cells.rows()])
    a, b = coefficients
    return float(a @ values), float(b @ values)


def compare_many(
    y_true: LabelsLike, predictions: Mapping[Hashable, Any], measure: MeasureLike = "accuracy", average: str | None = None, *, method: str = "mcnemar",
    correction: str = "holm", **options: Any,
) -> dict[tuple[Hashable, Hashable], Comparison]:  # fmt: skip
    """Every pair of several classifiers, with the p-values corrected for the number of pairs:
    ``"holm"`` (Holm's step-down, 1979: controls the family-wise error rate, never less
    powerful than Bonferroni), ``"shaffer"`` or ``"bergmann-hommel"`` (which use the logic of
    pairwise hypotheses; see ``evalkit._results.multiplicity``), ``"bonferroni"`` or ``"none"``.

    Examples:
        >>> y = [0, 1, 1, 0, 1, 0, 1, 1]
        >>> found = compare_many(y, {"a": [0, 1, 1, 0, 1, 0, 1, 0], "b": [0, 0, 1, 1, 0, 0, 1, 0], "c": y})
        >>> [(pair, round(result.p_value, 3)) for pair, result in found.items()]
        [(('a', 'b'), 0.5), (('a', 'c'), 1.0), (('b', 'c'), 0.375)]
    """
    check_choice("correction", correction, PAIRWISE_CORRECTIONS)
    if len(predictions) < 2:
        raise InvalidArgumentError(f"'predictions' must hold at least two classifiers, got {len(predictions)}")
    found = {(a, b): compare(y_true, predictions[a], predictions[b], measure, average, method=method, **options) for a, b in combinations(predictions, 2)}
    adjusted = adjust_pairwise([result.p_value for result in found.values()], len(predictions), correction)
    return {pair: attrs.evolve(result, p_value=float(p)) for (pair, result), p in zip(found.items(), adjusted)}
