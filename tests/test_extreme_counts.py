"""Float counts of very different sizes (weights of 1e-300 beside 1e300): a measure whose value
is a representable number gives it, never 0/0 from counts rescaled to nothing.

A scale-free measure is the same for counts scaled by any power of two, so extreme float counts
are scaled (``rescaled``) or, where no one scale holds them all, computed on exact integers.
"""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalkit import ClassificationMetrics
from evalkit import metrics as sk_face
from evalkit.measures import get_measure
from evalkit.measures._arithmetic import rescaled

TINY, HUGE = 1e-300, 1e300


def both_paths(name, tp, fp, fn, tn):
    """The value of a measure on Python floats (the getters' path) and on arrays (per class), which must agree."""
    measure = get_measure(name)
    scalar = measure(tp=tp, fp=fp, fn=fn, tn=tn)
    array = measure(tp=np.array([tp, 1.0]), fp=np.array([fp, 1.0]), fn=np.array([fn, 1.0]), tn=np.array([tn, 1.0]))[0]
    assert scalar == array or (math.isnan(scalar) and math.isnan(array)), (scalar, array)
    return scalar


@pytest.mark.parametrize(("name", "cells", "expected"), [
    ("precision", (TINY, TINY, HUGE, 0.0), 0.5),  # tp / (tp + fp): the tiny counts alone
    ("negative_predictive_value", (HUGE, 0.0, TINY, 3 * TINY), 0.75),
    ("specificity", (HUGE, TINY, 0.0, TINY), 0.5),
    ("balanced_accuracy", (HUGE, TINY, TINY, TINY), 0.75),  # (1 + 1/2) / 2
    ("f1_score", (TINY, TINY, 0.0, HUGE), 2 / 3),
    ("jaccard_index", (TINY, 0.0, TINY, HUGE), 0.5),
    ("matthews_correlation_coefficient", (HUGE, TINY, TINY, HUGE), 1.0),  # the huge terms win, as before
    ("matthews_correlation_coefficient", (1.0, 1e-250, 0.0, 1e-250), 1 / math.sqrt(2)),  # (tn + fp)(tn + fn) is 2e-500
    ("cohen_kappa", (TINY, 0.0, 0.0, HUGE), 1.0),
    ("informedness", (TINY, 0.0, 0.0, HUGE), 1.0),
    ("diagnostic_odds_ratio", (HUGE, TINY, TINY, 2 * HUGE), math.inf),  # beyond float64: infinite, as 1 / 0.0 would be
])  # fmt: skip
def test_measures_of_counts_1e_minus_300_beside_1e300_are_their_values(name, cells, expected):
    value = both_paths(name, *cells)
    assert value == pytest.approx(expected, rel=1e-15), (name, cells, value)


def test_the_getters_read_extreme_float_counts():
    metrics = ClassificationMetrics.from_counts(tp=TINY, fp=TINY, fn=HUGE, tn=0.0)
    assert (metrics.get_precision(), metrics.get_recall()) == (0.5, 0.0)  # recall 1e-600: below every float


def test_whole_counts_beside_float_counts_are_scaled_alike():
    # (an int count was left unscaled beside floats scaled by 2**-997: precision 0.43)
    assert get_measure("precision")(tp=HUGE, fp=1, fn=0, tn=0) == 1.0
    assert ClassificationMetrics.from_counts(tp=HUGE, fp=1, fn=0, tn=2).get_precision() == 1.0
    assert get_measure("balanced_accuracy")(tp=3, fp=0, fn=1, tn=HUGE) == 0.875


def test_rescaled_keeps_every_ratio_it_can():
    big, small = rescaled(2.0**600, 2.0**-600)  # (was (0.5, 0.0))
    assert big <= 2.0**200 and Fraction(big) / Fraction(small) == 2**1200
    assert rescaled(3.0, 1.0, 0.0, 2.0) == (3.0, 1.0, 0.0, 2.0)  # nothing to do
    scaled = rescaled(np.array([2.0**900, 1.0]), np.array([2.0**-300, 0.0]))
    assert Fraction(scaled[0][0]) / Fraction(scaled[1][0]) == 2**1200


def test_average_precision_and_auc_of_weights_1e_minus_300_and_1e300():
    # the positives weigh 1e-300, the negatives 1e300: a perfect ranking (was a ZeroDivisionError)
    weights = [TINY, HUGE, TINY]
    assert sk_face.average_precision_score([1, 0, 1], [0.9, 0.1, 0.8], sample_weight=weights) == 1.0
    assert sk_face.roc_auc_score([1, 0, 1], [0.9, 0.1, 0.8], sample_weight=weights) == 1.0
    # the first positive ranked first, the second after the negative: AP = 1/2 + 1/2 · 1e-300 / (1e-300 + 1e300)
    assert sk_face.average_precision_score([1, 0, 1], [0.9, 0.5, 0.1], sample_weight=weights) == 0.5


# --------------------------------------------------------------------------------------------
# any float counts against the exact value

sizes = st.one_of(st.sampled_from([-1060, -1000, -300, -250, 0, 250, 300, 1000, 1015]), st.integers(-1060, 1015))  # binary exponents
extreme = st.one_of(st.just(0.0), st.builds(math.ldexp, st.floats(0.5, 1.0, exclude_max=True), sizes))


def exact_precision_and_specificity(tp, fp, fn, tn):
    tp, fp, fn, tn = (Fraction(value) for value in (tp, fp, fn, tn))
    return (tp / (tp + fp) if tp + fp else None), (tn / (tn + fp) if tn + fp else None)


@given(st.tuples(extreme, extreme, extreme, extreme))
def test_ratios_of_any_float_counts_are_their_values(cells):
    tp, fp, fn, tn = cells
    for name, exact in zip(("precision", "specificity"), exact_precision_and_specificity(*cells)):
        value = both_paths(name, tp, fp, fn, tn)
        if exact is None:
            assert math.isnan(value)
        else:  # a sum and a division: within two units in the last place (of a subnormal value too)
            assert abs(value - float(exact)) <= 2 * math.ulp(float(exact)), (name, cells, value, float(exact))


@given(st.tuples(extreme, extreme, extreme, extreme))
def test_mcc_of_any_float_counts_is_its_value(cells):
    tp, fp, fn, tn = (Fraction(value) for value in cells)
    left, right = (tp + fp) * (tp + fn), (tn + fp) * (tn + fn)
    value = both_paths("matthews_correlation_coefficient", *cells)
    if not left or not right:
        assert math.isnan(value)
        return
    numerator = tp * tn - fp * fn
    exact = math.sqrt(float(numerator * numerator / (left * right))) * (1 if numerator >= 0 else -1)
    assert abs(value - exact) <= 2.0**-48, (cells, value, exact)  # |tp tn| <= sqrt(left right): rounding is absolute


def test_an_f_score_of_beta_other_than_1_on_counts_of_any_sizes_is_its_value():
    """Float coefficients times huge exact integers gave inf / inf: the floats, scaled, give the value."""
    from evalkit import ClassificationMetrics, ConfusionMatrix, formulas

    assert formulas.f_score(tp=1e308, fp=0.0, fn=0.0, tn=1.0, beta=2.0) == 1.0
    assert formulas.f_score(tp=1e290, fp=0.0, fn=1.0, tn=1.0, beta=1e10) == 1.0
    cm = ConfusionMatrix.from_predictions([0, 1], [0, 1], sample_weight=[1e308, 1.0])
    assert cm.per_class("f_score", beta=2.0).tolist() == [1.0, 1.0] and ClassificationMetrics(cm, class_idx=0).get_f_score(2.0) == 1.0
