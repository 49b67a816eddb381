"""Calibration tested by cumulative differences (Kolmogorov–Smirnov and Kuiper on Tygert's
cumulative differences), Spiegelhalter's z, the top-label calibration error, and MAPIE's
interval and uncertainty scores (HSIC, the coverage width-based criterion, AUROC, the coverage
gap): MAPIE 1.6's own numbers, on the data of its test suite (``mapie/tests/test_metrics.py``,
values quoted from there) and, with MAPIE installed as the oracle, on generated data.
"""

from __future__ import annotations

import inspect
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mapie.metrics import calibration as mapie_calibration
from mapie.metrics import regression as mapie_regression
from mapie.metrics import uncertainty as mapie_uncertainty

from evalkit import Calibration
from evalkit import metrics as face
from evalkit.exceptions import InvalidArgumentError, InvalidValueError, UnsupportedSettingError

# MAPIE's test data: its module-level generator drawn in this order, and the two calibration cases
_prng = np.random.RandomState(1234567890)
Y_SCORE, Y_SCORES, Y_TRUE = _prng.random(51), _prng.random((51, 5)), _prng.randint(0, 2, 51)


def _calibration_case(calibrated: bool) -> tuple[np.ndarray, np.ndarray]:
    generator = np.random.RandomState(1)
    if not calibrated:
        y_true = generator.choice([0, 1], 100)
        return y_true, generator.uniform(size=100)
    y_score = generator.uniform(size=100)
    return (generator.uniform(size=100) <= y_score).astype(float), y_score


Y_TOY = np.array([5, 7.5, 9.5, 10.5, 12.5])
Y_PREDS = np.array([[5, 4, 6], [7.5, 6.0, 9.0], [9.5, 9, 10.0], [10.5, 8.5, 12.5], [11.5, 10.5, 12.0]])
INTERVALS = np.array([[[4, 4], [6, 7.5]], [[6.0, 8.0], [9.0, 10.0]], [[9.0, 9.0], [10.0, 10.0]], [[8.5, 9.0], [12.5, 12.0]], [[10.5, 10.5], [12.0, 12]]])


def test_mapies_test_values():
    """The numbers MAPIE's own tests assert, on their data."""
    uncalibrated, calibrated = _calibration_case(False), _calibration_case(True)
    assert face.length_scale(np.random.RandomState(1).uniform(size=100)) == pytest.approx(0.040389, abs=1e-6)
    assert face.kolmogorov_smirnov_statistic(*uncalibrated) == pytest.approx(5.607741, abs=1e-6)
    assert face.kuiper_statistic(*uncalibrated) == pytest.approx(5.354395, abs=1e-6)
    assert face.spiegelhalter_statistic(*uncalibrated) == pytest.approx(13.906833, abs=1e-6)
    for p_value, expected in ((face.kolmogorov_smirnov_p_value, 0.2148), (face.kuiper_p_value, 0.313006), (face.spiegelhalter_p_value, 0.174832)):
        assert p_value(*uncalibrated) == pytest.approx(0.0, abs=1e-6)
        assert p_value(*calibrated) == pytest.approx(expected, abs=1e-6)
    assert [face.kolmogorov_smirnov_cdf(x) for x in (1, 2, 3)] == pytest.approx([0.370777, 0.908999, 0.9946], abs=1e-6)
    assert [face.kuiper_cdf(x) for x in (1, 2, 3)] == pytest.approx([0.063365, 0.818506, 0.989201], abs=1e-6)
    assert round(face.top_label_ece(Y_TRUE, Y_SCORES), 4) == 0.6997
    np.testing.assert_allclose(face.hsic(Y_TOY, INTERVALS), [0.16829506, 0.3052798], rtol=1e-7)
    y, low, high = Y_PREDS[:, 0], Y_PREDS[:, 1], Y_PREDS[:, 2]
    assert face.coverage_width_based(y, low, high, eta=30, confidence_level=0.9) == pytest.approx(0.48, rel=1e-2)
    assert face.coverage_width_based(y, low, high, eta=0.01, confidence_level=0.9) == pytest.approx(0.65, rel=1e-2)
    assert face.auroc([1, 1, 0, 0], [0.9, 0.8, 0.2, 0.1]) == 1.0 and face.auroc([1, 0, 1, 0], [0.1, 0.2, 0.3, 0.4]) == 0.25


@settings(max_examples=40, deadline=None)
@given(st.integers(5, 120), st.integers(0, 2**31 - 1))
def test_the_cumulative_differences_tests_are_mapies(n, seed):
    rng = np.random.default_rng(seed)
    y_score = np.round(rng.random(n), int(rng.integers(1, 4)))  # rounded: tied scores too
    y_score = np.clip(y_score, 0.001, 0.999)
    y_true = (rng.random(n) < np.clip(y_score + rng.normal(0, 0.2), 0, 1)).astype(float)
    np.testing.assert_allclose(face.cumulative_differences(y_true, y_score), mapie_calibration.cumulative_differences(y_true, y_score), rtol=0, atol=1e-15)
    for name in ("kolmogorov_smirnov_statistic", "kuiper_statistic", "spiegelhalter_statistic", "kolmogorov_smirnov_p_value", "kuiper_p_value",
                 "spiegelhalter_p_value"):  # fmt: skip
        assert getattr(face, name)(y_true, y_score) == pytest.approx(getattr(mapie_calibration, name)(y_true, y_score), rel=1e-12, abs=1e-13), name


def test_the_laws_are_mapies_series_over_their_range():
    grid = np.linspace(0.05, 12, 400)
    for name in ("kolmogorov_smirnov_cdf", "kuiper_cdf"):
        ours, theirs = (np.array([function(x) for x in grid]) for function in (getattr(face, name), getattr(mapie_calibration, name)))
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-15)


def test_the_kolmogorov_smirnov_law_is_the_reflection_sum():
    """``P(max |W| ≤ x) = Σ_k (−1)^k [Φ((2k+1)x) − Φ((2k−1)x)]`` (the reflection principle), an
    independent form: MAPIE's series stops at 1e-8, so they agree to about 1e-10."""
    from scipy.special import ndtr

    for x in (0.3, 1.0, 2.0, 5.0):
        reflection = sum((-1) ** k * (ndtr((2 * k + 1) * x) - ndtr((2 * k - 1) * x)) for k in range(-60, 61))
        assert face.kolmogorov_smirnov_cdf(x) == pytest.approx(reflection, abs=1e-10)


def test_spiegelhalter_is_the_calibrations_z_one_sided():
    y_true, y_score = _calibration_case(True)
    test = Calibration.from_scores(y_true, y_score, pos_label=1.0).spiegelhalter_test()
    assert face.spiegelhalter_statistic(y_true, y_score) == pytest.approx(test.statistic, rel=1e-15)
    one_sided = face.spiegelhalter_p_value(y_true, y_score)
    assert test.p_value == pytest.approx(2 * min(one_sided, 1 - one_sided), rel=1e-12)


@settings(max_examples=30, deadline=None)
@given(st.integers(10, 80), st.integers(0, 2**31 - 1), st.sampled_from([3, 11, 50]))
def test_the_top_label_error_is_mapies_for_scores_above_zero(n, seed, num_bins):
    """MAPIE's ``num_bins`` counts bin edges: its equal-width bins are ``num_bins - 1``."""
    rng = np.random.default_rng(seed)
    scores = rng.dirichlet(np.ones(4), n)
    y_true = rng.integers(0, 4, n)
    assert face.top_label_ece(y_true, scores, num_bins=num_bins) == pytest.approx(mapie_calibration.top_label_ece(y_true, scores, num_bins=num_bins), abs=1e-12)


@settings(max_examples=30, deadline=None)
@given(st.integers(4, 40), st.integers(0, 2**31 - 1))
def test_the_interval_and_uncertainty_scores_are_mapies(n, seed):
    rng = np.random.default_rng(seed)
    y = rng.normal(size=n)
    low = y[:, None] - rng.random((n, 2)) * 2 + 0.5
    intervals = np.stack([low, low + rng.random((n, 2)) * 2], axis=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        np.testing.assert_allclose(face.hsic(y, intervals), mapie_regression.hsic(y, intervals), rtol=1e-9, atol=1e-7)  # (a square root near 0 magnifies the last bits)
    assert face.coverage_width_based(y, intervals[:, 0, 0], intervals[:, 1, 0], 2.0, 0.8) == pytest.approx(
        mapie_regression.coverage_width_based(y, intervals[:, 0, 0], intervals[:, 1, 0], 2.0, 0.8), rel=1e-12)
    correct, confidence = rng.integers(0, 2, n), np.round(rng.random(n), 1)
    if 0 < correct.sum() < n:
        assert face.auroc(correct, confidence) == pytest.approx(mapie_uncertainty.auroc(correct, confidence), abs=1e-15)


def test_the_coverage_gap_is_the_mean_distance_of_the_groups_coverage():
    """covmetrics' ``CovGap`` (MAPIE's ``coverage_gap`` docstring: 0.25), by hand: groups 0 and 1
    cover 1/2 and 1 of their samples; at 0.5, gaps 0 and 1/2."""
    y, groups = [1.0, 2.0, 3.0, 4.0], [0, 0, 1, 1]
    intervals = np.array([[0, 2], [0, 1], [2, 4], [2, 4]])
    assert face.coverage_gap(y, groups, 0.5, y_intervals=intervals) == 0.25
    assert face.coverage_gap(y, [0, 1, 1, 1], 0.5, y_intervals=intervals, weighted=True) == pytest.approx((1 * 0.5 + 3 * (2 / 3 - 0.5)) / 4)
    sets = np.array([[True, False], [False, False], [False, True], [True, True]])
    assert face.coverage_gap([0, 0, 1, 1], groups, 0.5, y_sets=sets) == 0.25
    with pytest.raises(InvalidArgumentError, match="one of them"):
        face.coverage_gap(y, groups, 0.5)
    with pytest.raises(InvalidArgumentError, match="one of them"):
        face.coverage_gap(y, groups, 0.5, y_intervals=intervals, y_sets=sets)


def test_the_new_functions_keep_mapies_signatures():
    modules = (mapie_calibration, mapie_regression, mapie_uncertainty)
    for name in ("add_jitter", "sort_xy_by_y", "cumulative_differences", "length_scale", "kolmogorov_smirnov_statistic", "kolmogorov_smirnov_cdf",
                 "kolmogorov_smirnov_p_value", "kuiper_statistic", "kuiper_cdf", "kuiper_p_value", "spiegelhalter_statistic", "spiegelhalter_p_value",
                 "top_label_ece", "hsic", "coverage_width_based", "auroc"):  # fmt: skip
        theirs = inspect.signature(next(getattr(module, name) for module in modules if hasattr(module, name)))
        assert [(p.name, p.default) for p in inspect.signature(getattr(face, name)).parameters.values()] == [
            (p.name, p.default) for p in theirs.parameters.values()], name


def test_where_evalkit_refuses_what_mapie_answers_or_crashes_on():
    """A statistic of scores all 0 or 1 is infinite: MAPIE's p-value raises an OverflowError,
    evalkit's is NaN; a non-uniform top-label split is not MAPIE's binning in evalkit, so refused;
    a law at 0 or below has no value (MAPIE: a ZeroDivisionError, or 0)."""
    assert math.isnan(face.kolmogorov_smirnov_p_value([1, 0, 1], [1.0, 0.0, 1.0]))
    with pytest.raises(OverflowError), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        mapie_calibration.kolmogorov_smirnov_p_value(np.array([1, 0, 1]), np.array([1.0, 0.0, 1.0]))
    with pytest.raises(UnsupportedSettingError, match="quantile"):
        face.top_label_ece(Y_TRUE, Y_SCORES, split_strategy="quantile")
    for x in (0, -1.0, math.nan):
        with pytest.raises(InvalidArgumentError, match="'x'"):
            face.kuiper_cdf(x)
    with pytest.raises(InvalidValueError, match="finite"):
        face.kuiper_statistic([1, 0], [np.nan, 0.5])
    with pytest.raises(InvalidArgumentError, match="'correctness'"):
        face.auroc([1, 1], [0.2, 0.3])
    with pytest.raises(InvalidArgumentError, match="'kernel_sizes'"):
        face.hsic(Y_TOY, INTERVALS, kernel_sizes=(1, -1))


def test_spiegelhalter_takes_the_outcomes_as_numbers():
    """MAPIE's formula reads ``y`` as a number: 1/2 outcomes and -1/1 are not recoded to 0/1."""
    for y_true in (np.array([1, 2, 2, 1]), np.array([-1, 1, 1, -1])):
        y_score = np.array([0.2, 0.7, 0.4, 0.9])
        assert face.spiegelhalter_statistic(y_true, y_score) == pytest.approx(mapie_calibration.spiegelhalter_statistic(y_true, y_score), rel=1e-12)


def test_two_dimensional_columns_of_one_value_are_columns():
    x, y = face.sort_xy_by_y([[1], [2], [3]], [[0.3], [0.1], [0.2]])
    assert x.tolist() == [2, 3, 1] and y.tolist() == [0.1, 0.2, 0.3]


@pytest.mark.parametrize("level", [1.5, -3, True, "0.5", math.nan])
def test_the_coverage_gap_refuses_a_level_no_coverage_has(level):
    with pytest.raises(InvalidArgumentError, match="'confidence_level'"):
        face.coverage_gap([1.0, 2.0], [0, 1], level, y_intervals=np.array([[0, 2], [0, 3]]))


def test_bad_inputs_of_the_new_functions_are_named():
    from evalkit.exceptions import EvalkitError

    cases = [
        (face.kolmogorov_smirnov_statistic, ([], [])), (face.kuiper_statistic, ([], [])),
        (face.hsic, (Y_TOY[:3], INTERVALS)), (face.hsic, (Y_TOY, np.where(INTERVALS == 4, np.inf, INTERVALS))),
        (face.top_label_ece, (Y_TRUE[:10], Y_SCORES)), (face.top_label_ece, (Y_TRUE, Y_SCORES[:, 0], Y_TRUE[:10])),
        (face.top_label_ece, (Y_TRUE, Y_SCORES, None, 50, None, [0, 1])), (face.add_jitter, (3.0,)),
    ]  # fmt: skip
    for function, arguments in cases:
        with pytest.raises(EvalkitError):
            function(*arguments)
    assert face.auroc(np.array([[1], [0], [1]]), [0.9, 0.1, 0.8]) == 1.0
    with pytest.raises(InvalidArgumentError, match="'correctness'"):
        face.auroc([1, 0, 1], [0.9, 0.1])
