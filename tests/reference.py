"""Independent reference implementations of every registered measure (the shared test harness).

Written from the textbook definitions with exact ``Fraction`` arithmetic (and 60-digit
``Decimal`` square roots), deliberately not through evalkit's formulas: where evalkit uses a
count formula, the reference uses the rate formula (F1 from precision and recall, kappa from
observed and expected agreement, ...). ``None`` means undefined.
"""

from __future__ import annotations

from decimal import Decimal, localcontext
from fractions import Fraction

Value = Fraction | Decimal | None


def ratio(numerator, denominator) -> Fraction | None:
    return None if denominator == 0 else Fraction(numerator) / Fraction(denominator)


def sqrt(value) -> Decimal | None:
    if value is None:
        return None
    with localcontext() as context:
        context.prec = 60
        value = Fraction(value)
        return (Decimal(value.numerator) / Decimal(value.denominator)).sqrt()


def both(a, b, combine):
    return None if a is None or b is None else combine(a, b)


def precision(tp, fp, fn, tn):
    return ratio(tp, tp + fp)


def recall(tp, fp, fn, tn):
    return ratio(tp, tp + fn)


def specificity(tp, fp, fn, tn):
    return ratio(tn, tn + fp)


def npv(tp, fp, fn, tn):
    return ratio(tn, tn + fn)


def f_beta(tp, fp, fn, tn, beta=1):
    beta2 = Fraction(beta) ** 2
    p, r = precision(tp, fp, fn, tn), recall(tp, fp, fn, tn)
    if p is not None and r is not None and beta2 * p + r > 0:
        return (1 + beta2) * p * r / (beta2 * p + r)
    # tp = 0: the score is 0 if anything was predicted or expected, undefined otherwise
    return None if tp + fp + fn == 0 else Fraction(0)


def mcc(tp, fp, fn, tn):
    margins = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
    if margins == 0:
        return None
    numerator = Fraction(tp * tn - fp * fn)  # counts may be fractions (weighted or soft cells)
    with localcontext() as context:
        context.prec = 60
        return Decimal(numerator.numerator) / Decimal(numerator.denominator) / sqrt(margins)


def kappa(tp, fp, fn, tn):
    n = tp + fp + fn + tn
    if n == 0:
        return None
    observed = Fraction(tp + tn, n)
    expected = Fraction((tp + fp) * (tp + fn) + (fn + tn) * (fp + tn), n * n)
    return None if expected == 1 else (observed - expected) / (1 - expected)


def positive_likelihood_ratio(tp, fp, fn, tn):
    return both(recall(tp, fp, fn, tn), specificity(tp, fp, fn, tn), lambda r, s: None if s == 1 else r / (1 - s))


def negative_likelihood_ratio(tp, fp, fn, tn):
    return both(recall(tp, fp, fn, tn), specificity(tp, fp, fn, tn), lambda r, s: None if s == 0 else (1 - r) / s)


def post_test_probability(tp, fp, fn, tn, prevalence=None):
    """Bayes' rule on odds: post-test odds = pre-test odds x LR+ (the data's prevalence by default)."""
    if prevalence is None:
        return precision(tp, fp, fn, tn)
    r, s = recall(tp, fp, fn, tn), specificity(tp, fp, fn, tn)
    if r is None or s is None:
        return None
    pi = Fraction(prevalence)
    hits, false_alarms = pi * r, (1 - pi) * (1 - s)
    return None if hits + false_alarms == 0 else hits / (hits + false_alarms)


REFERENCE = {
    "accuracy": lambda tp, fp, fn, tn: ratio(tp + tn, tp + fp + fn + tn),
    "error_rate": lambda tp, fp, fn, tn: ratio(fp + fn, tp + fp + fn + tn),
    "prevalence": lambda tp, fp, fn, tn: ratio(tp + fn, tp + fp + fn + tn),
    "recall": recall,
    "specificity": specificity,
    "false_positive_rate": lambda *c: both(specificity(*c), 0, lambda s, _: 1 - s),
    "false_negative_rate": lambda *c: both(recall(*c), 0, lambda r, _: 1 - r),
    "precision": precision,
    "negative_predictive_value": npv,
    "false_discovery_rate": lambda *c: both(precision(*c), 0, lambda p, _: 1 - p),
    "false_omission_rate": lambda *c: both(npv(*c), 0, lambda v, _: 1 - v),
    "f1_score": f_beta,
    "f_score": f_beta,
    "jaccard_index": lambda *c: both(f_beta(*c), 0, lambda f, _: f / (2 - f)),
    "fowlkes_mallows_index": lambda *c: sqrt(both(precision(*c), recall(*c), lambda p, r: p * r)),
    "balanced_accuracy": lambda *c: both(recall(*c), specificity(*c), lambda r, s: (r + s) / 2),
    "g_mean": lambda *c: sqrt(both(recall(*c), specificity(*c), lambda r, s: r * s)),
    "informedness": lambda *c: both(recall(*c), specificity(*c), lambda r, s: r + s - 1),
    "markedness": lambda *c: both(precision(*c), npv(*c), lambda p, v: p + v - 1),
    "matthews_correlation_coefficient": mcc,
    "cohen_kappa": kappa,
    "positive_likelihood_ratio": positive_likelihood_ratio,
    "negative_likelihood_ratio": negative_likelihood_ratio,
    "diagnostic_odds_ratio": lambda *c: both(recall(*c), specificity(*c), lambda r, s: None if r == 1 or s == 1 else r * s / ((1 - r) * (1 - s))),
    "number_needed_to_diagnose": lambda *c: both(recall(*c), specificity(*c), lambda r, s: None if r + s == 1 else 1 / (r + s - 1)),
    "post_test_probability": post_test_probability,
}
"""measure name -> f(tp, fp, fn, tn[, beta]) returning an exact value or None (undefined)."""


def as_float(value: Value) -> float:
    return float("nan") if value is None else float(value)
