"""Every binary measure, once, as a vectorised function of the four cell counts.

Each function takes the counts by keyword (``tp=, fp=, fn=, tn=``: Java, scikit-learn and
Tribuo order them differently, so evalkit never takes them by position), accepts Python
numbers or numpy arrays of any broadcastable shape, computes in float64 (exact for counts up
to 2**53, no integer overflow) and returns a ``float`` for scalar input or a float64 array.

Undefined values: a measure whose denominator is 0 returns NaN. Measures built from other
measures (balanced accuracy, G-mean, informedness, markedness, Fowlkes-Mallows) are NaN when a
part they need is NaN. Averages decide what to do with NaN through one policy
(``evalkit.measures._averaging``).

Each measure is registered with metadata in ``MEASURES`` (see ``Measure``): its
direction, its bounds, and, for aggregation-decomposable measures, the coefficient vectors
``a, b`` with ``M = <a, v> / <b, v>`` over ``v = (tp, fp, fn, tn)``. Users add measures with
``register``; a registered measure takes part in every average.

Examples:
    >>> from evalkit import formulas
    >>> formulas.precision(tp=35, fp=10, fn=5, tn=50)
    0.7777777777777778
    >>> formulas.recall(tp=[35, 0], fp=[10, 0], fn=[5, 0], tn=[50, 9])
    array([0.875,   nan])
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from evalkit._engine import moved_names
from evalkit._engine._exact import exact_counts
from evalkit._engine._types import Count
from evalkit._engine._validation import show
from evalkit.exceptions import InvalidArgumentError, InvalidTypeError
from evalkit.measures._arithmetic import (
    _fixed,
    clip,
    counts_measure,
    difference,
    exact_ratio_sqrt,
    ratio,
    ratio_sqrt,
    rescaled,
    sqrt,
)
from evalkit.measures._matrix_formulas import (
    KAPPA_WEIGHTS,
    _exact_margins,
    _margins,
    _matrix,
    _plain,
    margins_cohen_kappa,
    margins_matthews_correlation_coefficient,
    matrix_accuracy,
    matrix_cohen_kappa,
    matrix_matthews_correlation_coefficient,
    pairs_cohen_kappa,
)
from evalkit.measures._registry import (
    COUNT_NAMES,
    MEASURES,
    Coefficients,
    Measure,
    canonical_name,
    check_measure_parameters,
    get_measure,
    measure_names,
    register,
    spelling,
    unknown_name_message,
    unregister,
)


def diagonal_correlation_coefficient(counts: Any) -> np.ndarray:
    """Per-class correlation coefficient of the protein-function study's table (one value per class).

    The MCC formula with ``tp = x_ii``, ``fp`` the rest of column ``i``, ``fn`` the rest of
    row ``i``, and the true negatives taken as the *other classes' diagonal*
    ``Σ_{h≠i} x_hh`` (the one-vs-rest MCC counts every cell outside row and column ``i``
    instead). NaN where a margin is 0; exact to rounding for integer counts.

    Examples:
        >>> diagonal_correlation_coefficient([[50, 10], [5, 35]]).round(6)
        array([0.697518, 0.697518])
    """
    x = _matrix(counts)
    if x.dtype.kind == "f":  # exact sums (a ratio: their unit drops out), whose differences (fp = column - tp) never cancel
        margins, tp = _exact_margins(x), exact_counts(np.diagonal(x))
    else:
        margins, tp = _margins(x), np.array([_plain(value) for value in np.diagonal(x).tolist()], dtype=object)
    predicted, actual = (np.asarray(margins[name], dtype=object) if x.dtype.kind != "f" else margins[name] for name in ("predicted", "actual"))  # (Python integers: a list beyond int64 would become floats)
    return matthews_correlation_coefficient(tp=tp, fp=predicted - tp, fn=actual - tp, tn=margins["correct"] - tp)


__all__ = [  # with the helpers of evalkit.measures._arithmetic that had this path before
    "COUNT_NAMES",
    "KAPPA_WEIGHTS",
    "MEASURES",
    "Measure",
    "accuracy",
    "balanced_accuracy",
    "canonical_name",
    "check_beta",
    "check_measure_parameters",
    "cohen_kappa",
    "diagonal_correlation_coefficient",
    "error_rate",
    "exact_ratio_sqrt",
    "f1_score",
    "f_score",
    "false_discovery_rate",
    "false_negative_rate",
    "false_omission_rate",
    "false_positive_rate",
    "fowlkes_mallows_index",
    "g_mean",
    "get_measure",
    "informedness",
    "jaccard_index",
    "margins_cohen_kappa",
    "margins_matthews_correlation_coefficient",
    "markedness",
    "matrix_accuracy",
    "matrix_cohen_kappa",
    "matrix_matthews_correlation_coefficient",
    "matthews_correlation_coefficient",
    "measure_names",
    "negative_predictive_value",
    "pairs_cohen_kappa",
    "precision",
    "prevalence",
    "recall",
    "register",
    "rescaled",
    "specificity",
    "spelling",
    "unknown_name_message",
    "unregister",
]

# --------------------------------------------------------------------------------------------
# helpers


# --------------------------------------------------------------------------------------------
# rates of the whole population


@register(
    title="Accuracy",
    abbreviation="ACC",
    description="How often the classifier is right, positives and negatives together.",
    coefficients=_fixed((1, 0, 0, 1), (1, 1, 1, 1)),
    depends_on_tn_at_zero_tp=True,
    aliases=("label_accuracy",),
)
@counts_measure
def accuracy(tp: Count, fp: Count, fn: Count, tn: Count) -> Count:
    """Accuracy: the share of correct decisions.

    ``(tp + tn) / (tp + fp + fn + tn)``; NaN when there are no samples.

    Examples:
        >>> accuracy(tp=35, fp=10, fn=5, tn=50)
        0.85
    """
    return ratio(tp + tn, tp + fp + fn + tn)


@register(
    title="Error rate",
    abbreviation="ERR",
    description="How often the classifier is wrong (1 - accuracy; Hamming loss on label data).",
    direction="lower",
    coefficients=_fixed((0, 1, 1, 0), (1, 1, 1, 1)),
    depends_on_tn_at_zero_tp=True,
    aliases=("hamming_loss",),
)
@counts_measure
def error_rate(tp: Count, fp: Count, fn: Count, tn: Count) -> Count:
    """Error rate: the share of wrong decisions.

    ``(fp + fn) / (tp + fp + fn + tn)``; NaN when there are no samples.

    Examples:
        >>> error_rate(tp=35, fp=10, fn=5, tn=50)
        0.15
    """
    return ratio(fp + fn, tp + fp + fn + tn)


@register(
    title="Prevalence",
    description="How often the positive class actually occurs.",
    direction=None,
    coefficients=_fixed((1, 0, 1, 0), (1, 1, 1, 1)),
    depends_on_tn_at_zero_tp=True,
    aliases=("positive_frequency",),
)
@counts_measure
def prevalence(tp: Count, fp: Count, fn: Count, tn: Count) -> Count:
    """Prevalence: the share of actual positives.

    ``(tp + fn) / (tp + fp + fn + tn)``; NaN when there are no samples.

    Examples:
        >>> prevalence(tp=35, fp=10, fn=5, tn=50)
        0.4
    """
    return ratio(tp + fn, tp + fp + fn + tn)


# --------------------------------------------------------------------------------------------
# rates of the actual classes (skew invariant)


@register(
    title="Recall",
    abbreviation="TPR",
    description="When the class is actually positive, how often the classifier says so.",
    coefficients=_fixed((1, 0, 0, 0), (1, 0, 1, 0)),
    skew_invariant=True,
    aliases=("sensitivity", "true_positive_rate", "tpr", "tp_rate", "hit_rate"),
)
@counts_measure
def recall(tp: Count, fp: Count, fn: Count, tn: Count) -> Count:
    """Recall (sensitivity, true positive rate).

    ``tp / (tp + fn)``; NaN when there are no actual positives.

    Examples:
        >>> recall(tp=35, fp=10, fn=5, tn=50)
        0.875
    """
    return ratio(tp, tp + fn)


@register(
    title="Specificity",
    abbreviation="TNR",
    description="When the class is actually negative, how often the classifier says so.",
    coefficients=_fixed((0, 0, 0, 1), (0, 1, 0, 1)),
    skew_invariant=True,
    depends_on_tn_at_zero_tp=True,
    aliases=("true_negative_rate", "tnr", "tn_rate", "selectivity"),
)
@counts_measure
def specificity(tp: Count, fp: Count, fn: Count, tn: Count) -> Count:
    """Specificity (true negative rate).

    ``tn / (tn + fp)``; NaN when there are no actual negatives.

    Examples:
        >>> specificity(tp=35, fp=10, fn=5, tn=50)
        0.8333333333333334
    """
    return ratio(tn, tn + fp)


@register(
    title="False positive rate",
    abbreviation="FPR",
    description="When the class is actually negative, how often the classifier says positive (fall-out).",
    direction="lower",
    coefficients=_fixed((0, 1, 0, 0), (0, 1, 0, 1)),
    skew_invariant=True,
    depends_on_tn_at_zero_tp=True,
    aliases=("fall_out", "fpr", "fp_rate"),
)
@counts_measure
def false_positive_rate(tp: Count, fp: Count, fn: Count, tn: Count) -> Count:
    """False positive rate (fall-out), ``1 - specificity``.

    ``fp / (fp + tn)``; NaN when there are no actual negatives.

    Examples:
        >>> false_positive_rate(tp=35, fp=10, fn=5, tn=50)
        0.16666666666666666
    """
    return ratio(fp, fp + tn)


@register(
    title="False negative rate",
    abbreviation="FNR",
    description="When the class is actually positive, how often the classifier misses it (miss rate).",
    direction="lower",
    coefficients=_fixed((0, 0, 1, 0), (1, 0, 1, 0)),
    skew_invariant=True,
    aliases=("miss_rate", "fnr", "fn_rate"),
)
@counts_measure
def false_negative_rate(tp: Count, fp: Count, fn: Count, tn: Count) -> Count:
    """False negative rate (miss rate), ``1 - recall``.

    ``fn / (fn + tp)``; NaN when there are no actual positives.

    Examples:
        >>> false_negative_rate(tp=35, fp=10, fn=5, tn=50)
        0.125
    """
    return ratio(fn, fn + tp)


# --------------------------------------------------------------------------------------------
# rates of the predicted classes


@register(
    title="Precision",
    abbreviation="PPV",
    description="When the classifier says positive, how often it is right.",
    coefficients=_fixed((1, 0, 0, 0), (1, 1, 0, 0)),
    aliases=("positive_predictive_value", "ppv"),
)
@counts_measure
def precision(tp: Count, fp: Count, fn: Count, tn: Count) -> Count:
    """Precision (positive predictive value).

    ``tp / (tp + fp)``; NaN when nothing is predicted positive.

    Examples:
        >>> precision(tp=35, fp=10, fn=5, tn=50)
        0.7777777777777778
    """
    return ratio(tp, tp + fp)


@register(
    title="Negative predictive value",
    abbreviation="NPV",
    description="When the classifier says negative, how often it is right.",
    coefficients=_fixed((0, 0, 0, 1), (0, 0, 1, 1)),
    depends_on_tn_at_zero_tp=True,
    aliases=("npv",),
)
@counts_measure
def negative_predictive_value(tp: Count, fp: Count, fn: Count, tn: Count) -> Count:
    """Negative predictive value.

    ``tn / (tn + fn)``; NaN when nothing is predicted negative.

    Examples:
        >>> negative_predictive_value(tp=35, fp=10, fn=5, tn=50)
        0.9090909090909091
    """
    return ratio(tn, tn + fn)


@register(
    title="False discovery rate",
    abbreviation="FDR",
    description="When the classifier says positive, how often it is wrong.",
    direction="lower",
    coefficients=_fixed((0, 1, 0, 0), (1, 1, 0, 0)),
    aliases=("fdr",),
)
@counts_measure
def false_discovery_rate(tp: Count, fp: Count, fn: Count, tn: Count) -> Count:
    """False discovery rate, ``1 - precision``.

    ``fp / (fp + tp)``; NaN when nothing is predicted positive.

    Examples:
        >>> false_discovery_rate(tp=35, fp=10, fn=5, tn=50)
        0.2222222222222222
    """
    return ratio(fp, fp + tp)


@register(
    title="False omission rate",
    abbreviation="FOR",
    description="When the classifier says negative, how often it is wrong.",
    direction="lower",
    coefficients=_fixed((0, 0, 1, 0), (0, 0, 1, 1)),
    depends_on_tn_at_zero_tp=True,
    aliases=("for",),
)
@counts_measure
def false_omission_rate(tp: Count, fp: Count, fn: Count, tn: Count) -> Count:
    """False omission rate, ``1 - NPV``.

    ``fn / (fn + tn)``; NaN when nothing is predicted negative.

    Examples:
        >>> false_omission_rate(tp=35, fp=10, fn=5, tn=50)
        0.09090909090909091
    """
    return ratio(fn, fn + tn)


# --------------------------------------------------------------------------------------------
# combinations of precision and recall


@register(
    title="F1 score",
    abbreviation="F1",
    description="Harmonic mean of precision and recall.",
    coefficients=_fixed((2, 0, 0, 0), (2, 1, 1, 0)),
    aliases=("f1", "dice", "f_measure"),
)
@counts_measure
def f1_score(tp: Count, fp: Count, fn: Count, tn: Count) -> Count:
    """F1 score, the harmonic mean of precision and recall.

    ``2 tp / (2 tp + fp + fn)``; NaN when there are no positives, actual or predicted
    (then precision and recall are both undefined). Computed from counts, not from the
    rounded rates, so it never divides 0 by 0 where the counts are defined.

    Examples:
        >>> f1_score(tp=35, fp=10, fn=5, tn=50)
        0.8235294117647058
    """
    return ratio(2 * tp, 2 * tp + fp + fn)


def check_beta(beta: Any) -> float:
    """Return ``beta`` as a float in ``[0, inf]``: 0 gives precision, infinity recall (as in scikit-learn)."""
    if isinstance(beta, bool) or not isinstance(beta, (int, float, np.integer, np.floating)):
        raise InvalidTypeError(f"'beta' must be a number, got {show(beta)}")
    if not beta >= 0:  # NaN fails too
        raise InvalidArgumentError(f"'beta' must be >= 0 (0: precision, inf: recall), got {show(beta)}")
    return float(beta)


def _f_score_coefficients(beta: float = 1.0) -> Coefficients:
    if check_beta(beta) == math.inf:
        return (1, 0, 0, 0), (1, 0, 1, 0)  # recall
    b2 = float(beta) ** 2
    return (1 + b2, 0, 0, 0), (1 + b2, 1, b2, 0)


@register(
    title="F-beta score",
    abbreviation="Fβ",
    description="Weighted harmonic mean of precision and recall; recall counts beta times as much.",
    coefficients=_f_score_coefficients,
    aliases=("f_beta", "fbeta_score"),
)
@counts_measure
def f_score(tp: Count, fp: Count, fn: Count, tn: Count, beta: float = 1.0) -> Count:
    """F-beta score for any ``beta >= 0``.

    ``(1 + b²) tp / ((1 + b²) tp + b² fn + fp)``, equal to
    ``(1 + b²) P R / (b² P + R)``; NaN when there are no positives, actual or predicted.
    ``beta = 0`` is precision and ``beta = inf`` recall, as in scikit-learn.

    Raises:
        InvalidArgumentError: ``beta`` is negative or NaN.

    Examples:
        >>> f_score(tp=35, fp=10, fn=5, tn=50, beta=2)
        0.8536585365853658
        >>> f_score(tp=35, fp=10, fn=5, tn=50, beta=0.5)
        0.7954545454545454
    """
    if check_beta(beta) == math.inf:
        return ratio(tp, tp + fn)
    square = float(beta) ** 2
    b2 = int(square) if square.is_integer() and square <= 2**20 else square  # a small whole weight (F1, F2) keeps whole counts exact (products stay in int64): F-beta of beta 1 is F1 to the bit
    return ratio((1 + b2) * tp, (1 + b2) * tp + fp + b2 * fn)  # (F1's order of the terms: float counts give F1's bits at beta 1)


@register(
    title="Jaccard index",
    abbreviation="IoU",
    description="Overlap of predicted and actual positives over their union (critical success index).",
    coefficients=_fixed((1, 0, 0, 0), (1, 1, 1, 0)),
    aliases=("jaccard", "iou", "threat_score", "critical_success_index"),
)
@counts_measure
def jaccard_index(tp: Count, fp: Count, fn: Count, tn: Count) -> Count:
    """Jaccard index (intersection over union).

    ``tp / (tp + fp + fn)``; NaN when there are no positives, actual or predicted.

    Examples:
        >>> jaccard_index(tp=35, fp=10, fn=5, tn=50)
        0.7
    """
    return ratio(tp, tp + fp + fn)


@register(
    title="Fowlkes-Mallows index",
    abbreviation="FM",
    description="Geometric mean of precision and recall.",
    aliases=("fowlkes_mallows",),
)
@counts_measure
def fowlkes_mallows_index(tp: Count, fp: Count, fn: Count, tn: Count) -> Count:
    """Fowlkes-Mallows index, the geometric mean of precision and recall.

    ``tp / sqrt((tp + fp)(tp + fn))``; NaN when precision or recall is undefined.

    Examples:
        >>> round(fowlkes_mallows_index(tp=35, fp=10, fn=5, tn=50), 6)
        0.824958
    """
    return clip(ratio_sqrt(tp, tp + fp, tp + fn), 0.0, 1.0)


# --------------------------------------------------------------------------------------------
# combinations of recall and specificity, and of the predictive values


@register(
    title="Balanced accuracy",
    abbreviation="BA",
    description="Mean of recall and specificity: accuracy as if both classes were equally frequent.",
    skew_invariant=True,
    depends_on_tn_at_zero_tp=True,
)
@counts_measure
def balanced_accuracy(tp: Count, fp: Count, fn: Count, tn: Count) -> Count:
    """Balanced accuracy, the mean of recall and specificity.

    ``(tp / (tp + fn) + tn / (tn + fp)) / 2``; NaN when either class is absent (Deep Netts
    falls back to the defined side instead; evalkit keeps one undefined-value policy).

    Examples:
        >>> balanced_accuracy(tp=35, fp=10, fn=5, tn=50)
        0.8541666666666667
    """
    return (ratio(tp, tp + fn) + ratio(tn, tn + fp)) / 2


@register(
    title="G-mean",
    abbreviation="GM",
    description="Geometric mean of recall and specificity.",
    skew_invariant=True,
    aliases=("geometric_mean",),
)
@counts_measure
def g_mean(tp: Count, fp: Count, fn: Count, tn: Count) -> Count:
    """G-mean, the geometric mean of recall and specificity.

    ``sqrt(tp / (tp + fn) * tn / (tn + fp))``; NaN when either class is absent.

    Examples:
        >>> round(g_mean(tp=35, fp=10, fn=5, tn=50), 6)
        0.853913
    """
    return sqrt(ratio(tp, tp + fn) * ratio(tn, tn + fp))


@register(
    title="Informedness",
    abbreviation="BM",
    description="Recall + specificity - 1 (Youden's J, bookmaker informedness).",
    bounds=(-1.0, 1.0),
    skew_invariant=True,
    depends_on_tn_at_zero_tp=True,
    aliases=("youden_j", "bookmaker_informedness"),
)
@counts_measure
def informedness(tp: Count, fp: Count, fn: Count, tn: Count) -> Count:
    """Informedness (Youden's J), recall + specificity - 1.

    ``(tp tn - fp fn) / ((tp + fn)(tn + fp))``, the same value with a single rounding;
    NaN when either class is absent.

    Examples:
        >>> informedness(tp=35, fp=10, fn=5, tn=50)
        0.7083333333333334
    """
    return ratio(tp * tn - fp * fn, (tp + fn) * (tn + fp))


@register(
    title="Markedness",
    abbreviation="MK",
    description="Precision + negative predictive value - 1.",
    bounds=(-1.0, 1.0),
    depends_on_tn_at_zero_tp=True,
)
@counts_measure
def markedness(tp: Count, fp: Count, fn: Count, tn: Count) -> Count:
    """Markedness, precision + NPV - 1.

    ``(tp tn - fp fn) / ((tp + fp)(tn + fn))``, the same value with a single rounding;
    NaN when either prediction is never made.

    Examples:
        >>> markedness(tp=35, fp=10, fn=5, tn=50)
        0.6868686868686869
    """
    return ratio(tp * tn - fp * fn, (tp + fp) * (tn + fn))


@register(
    title="Matthews correlation coefficient",
    abbreviation="MCC",
    description="Correlation between actual and predicted class: 1 perfect, 0 chance, -1 always wrong.",
    bounds=(-1.0, 1.0),
    depends_on_tn_at_zero_tp=True,
    aliases=("mcc", "phi_coefficient"),
)
@counts_measure
def matthews_correlation_coefficient(tp: Count, fp: Count, fn: Count, tn: Count) -> Count:
    """Matthews correlation coefficient (phi).

    ``(tp tn - fp fn) / sqrt((tp + fp)(tp + fn)(tn + fp)(tn + fn))``; NaN when any of the
    four margins is 0 (scikit-learn returns 0 there; evalkit keeps one undefined policy).
    The numerator is computed exactly (integer arithmetic for integer counts), so the value
    is exact to rounding for counts up to 2**62 and beyond.

    Examples:
        >>> round(matthews_correlation_coefficient(tp=35, fp=10, fn=5, tn=50), 6)
        0.697518
    """
    return clip(ratio_sqrt(tp * tn - fp * fn, (tp + fp) * (tp + fn), (tn + fp) * (tn + fn)), -1.0, 1.0)


@register(
    title="Cohen's kappa",
    abbreviation="κ",
    description="Agreement between actual and predicted class beyond chance.",
    bounds=(-1.0, 1.0),
    depends_on_tn_at_zero_tp=True,
    aliases=("kappa",),
)
@counts_measure
def cohen_kappa(tp: Count, fp: Count, fn: Count, tn: Count) -> Count:
    """Cohen's kappa of a two-class table.

    ``2 (tp tn - fn fp) / ((tp + fp)(fp + tn) + (tp + fn)(fn + tn))``; NaN when the
    denominator is 0 (all samples in one cell of the diagonal).

    Examples:
        >>> round(cohen_kappa(tp=35, fp=10, fn=5, tn=50), 6)
        0.693878
    """
    return ratio(2 * (tp * tn - fn * fp), (tp + fp) * (fp + tn) + (tp + fn) * (fn + tn))


# --------------------------------------------------------------------------------------------
# diagnostic tests: how a prediction changes the odds of the class


@register(
    title="Positive likelihood ratio",
    abbreviation="LR+",
    description="How many times a positive prediction multiplies the odds of the class: recall / false positive rate.",
    bounds=(0.0, math.inf),
    skew_invariant=True,
    aliases=("lr_plus", "lr_positive", "plr"),
)
@counts_measure
def positive_likelihood_ratio(tp: Count, fp: Count, fn: Count, tn: Count) -> Count:
    """Positive likelihood ratio, recall / false positive rate.

    ``tp (fp + tn) / (fp (tp + fn))``; NaN when ``fp = 0`` or the class is absent (as
    scikit-learn's ``class_likelihood_ratios``). 1 is a useless test.

    Examples:
        >>> positive_likelihood_ratio(tp=35, fp=10, fn=5, tn=50)
        5.25
    """
    return ratio(tp * (fp + tn), fp * (tp + fn))


@register(
    title="Negative likelihood ratio",
    abbreviation="LR-",
    description="How many times a negative prediction multiplies the odds of the class: false negative rate / specificity.",
    direction="lower",
    bounds=(0.0, math.inf),
    skew_invariant=True,
    depends_on_tn_at_zero_tp=True,
    aliases=("lr_minus", "lr_negative", "nlr"),
)
@counts_measure
def negative_likelihood_ratio(tp: Count, fp: Count, fn: Count, tn: Count) -> Count:
    """Negative likelihood ratio, false negative rate / specificity.

    ``fn (fp + tn) / (tn (tp + fn))``; NaN when ``tn = 0`` or the class is absent. Lower is
    better; 1 is a useless test.

    Examples:
        >>> round(negative_likelihood_ratio(tp=35, fp=10, fn=5, tn=50), 6)
        0.15
    """
    return ratio(fn * (fp + tn), tn * (tp + fn))


@register(
    title="Diagnostic odds ratio",
    abbreviation="DOR",
    description="The odds of a positive prediction for the class over those for the others: LR+ / LR-.",
    bounds=(0.0, math.inf),
    skew_invariant=True,
    aliases=("dor", "odds_ratio"),
)
@counts_measure
def diagnostic_odds_ratio(tp: Count, fp: Count, fn: Count, tn: Count) -> Count:
    """Diagnostic odds ratio, ``tp tn / (fp fn)`` (LR+ / LR-); NaN when ``fp`` or ``fn`` is 0.

    Examples:
        >>> diagnostic_odds_ratio(tp=35, fp=10, fn=5, tn=50)
        35.0
    """
    return ratio(tp * tn, fp * fn)


@register(
    title="Number needed to diagnose",
    abbreviation="NND",
    description="How many samples must be tested to find one more of the class than chance would: 1 / informedness.",
    direction=None,
    bounds=(-math.inf, math.inf),
    skew_invariant=True,
    depends_on_tn_at_zero_tp=True,
    aliases=("nnd",),
)
@counts_measure
def number_needed_to_diagnose(tp: Count, fp: Count, fn: Count, tn: Count) -> Count:
    """Number needed to diagnose, 1 / informedness = ``(tp + fn)(tn + fp) / (tp tn - fp fn)``.

    Between 1 (a perfect test) and infinity for a test better than chance; negative for one
    worse than chance (so it has no direction: optimise informedness instead); NaN at chance.

    Examples:
        >>> round(number_needed_to_diagnose(tp=35, fp=10, fn=5, tn=50), 6)
        1.411765
    """
    return ratio((tp + fn) * (tn + fp), difference(tp * tn, fp * fn))


def check_prevalence(prevalence: Any) -> float | None:
    """``None`` (the data's own prevalence) or a number in [0, 1]."""
    if prevalence is None:
        return None
    if isinstance(prevalence, bool) or not isinstance(prevalence, (int, float, np.integer, np.floating)):
        raise InvalidTypeError(f"'prevalence' must be a number in [0, 1] or None, got {show(prevalence)}")
    if not 0 <= prevalence <= 1:
        raise InvalidArgumentError(f"'prevalence' must be in [0, 1] (the pre-test probability of the class), got {show(prevalence)}")
    return float(prevalence)


@register(
    title="Post-test probability",
    abbreviation="PPV@π",
    description="The probability of the class after a positive prediction, at a given prevalence (pre-test probability).",
)
@counts_measure
def post_test_probability(tp: Count, fp: Count, fn: Count, tn: Count, prevalence: float | None = None) -> Count:
    """The probability of the class after a positive prediction when the class has
    prevalence ``π`` (Bayes' rule with the likelihood ratio: post-test odds = pre-test odds ·
    LR+): ``π recall / (π recall + (1 - π) fpr)``. Without ``prevalence`` the data's own, which
    makes it the precision. NaN when nothing would be predicted positive.

    Raises:
        InvalidArgumentError: ``prevalence`` outside [0, 1].

    Examples:
        >>> round(post_test_probability(tp=35, fp=10, fn=5, tn=50, prevalence=0.02), 6)
        0.096774
        >>> post_test_probability(tp=35, fp=10, fn=5, tn=50) == precision(tp=35, fp=10, fn=5, tn=50)
        True
    """
    chosen = check_prevalence(prevalence)
    if chosen is None:
        return ratio(tp, tp + fp)
    hits = chosen * (tp * (fp + tn))
    return ratio(hits, hits + (1 - chosen) * (fp * (tp + fn)))


# --------------------------------------------------------------------------------------------
# whole-matrix measures of an m x m confusion matrix (rows actual, columns predicted)


if not TYPE_CHECKING:  # the names this module gave in evalkit 0.1.0 and lost, found with a warning
    __getattr__ = moved_names.finder(__name__)
