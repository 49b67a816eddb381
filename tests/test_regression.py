"""Regression measures: ``RegressionMetrics`` (exact sums) = ``evalkit.metrics`` (the data at
hand) = the textbook definitions in exact fractions = scikit-learn, and the sums are exact:
parts merged in any order, and samples counted one at a time, equal the whole bit for bit.
"""

import math
import pickle
from decimal import Decimal, localcontext
from fractions import Fraction

import numpy as np
import pytest
from harness import check_kind, counted_samples
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as sk
from strategies import close, numeric_targets

from evalkit import EvaluationMetrics, RegressionMetrics, Windowed, measure
from evalkit import metrics as ek
from evalkit.exceptions import (
    EmptyInputError,
    InputLengthError,
    InputShapeError,
    InvalidArgumentError,
    InvalidCountsError,
    InvalidTypeError,
    InvalidValueError,
    UnknownMetricError,
    UnsupportedSettingError,
)


def _fractions(y, p, weight):
    """Per output: the exact sums of the textbook definitions (fractions of the floats given)."""
    n, k = y.shape
    w = [Fraction(1)] * n if weight is None else [Fraction(float(v)) for v in weight]
    out = []
    for j in range(k):
        ys, ps = [Fraction(float(v)) for v in y[:, j]], [Fraction(float(v)) for v in p[:, j]]
        total = sum(w)
        mean_y = sum(a * b for a, b in zip(w, ys)) / total if total else None
        mean_p = sum(a * b for a, b in zip(w, ps)) / total if total else None
        errors = [a - b for a, b in zip(ys, ps)]
        mean_e = sum(a * b for a, b in zip(w, errors)) / total if total else None
        out.append({
            "weight": total,
            "sse": sum(a * e * e for a, e in zip(w, errors)),
            "sst": sum(a * (v - mean_y) ** 2 for a, v in zip(w, ys)) if total else None,
            "spp": sum(a * (v - mean_p) ** 2 for a, v in zip(w, ps)) if total else None,
            "syp": sum(a * (u - mean_y) * (v - mean_p) for a, u, v in zip(w, ys, ps)) if total else None,
            "see": sum(a * (e - mean_e) ** 2 for a, e in zip(w, errors)) if total else None,
            "abs_error": sum(a * abs(e) for a, e in zip(w, errors)),
        })  # fmt: skip
    return out


def _ratio(numerator, denominator):
    if numerator is None or denominator is None:
        return math.nan
    if denominator == 0:
        return math.nan if numerator == 0 else math.copysign(math.inf, numerator)
    try:
        return float(Fraction(numerator) / denominator)
    except OverflowError:
        return math.copysign(math.inf, numerator * denominator)


def _reference(sums, n):
    """Each measure of one output by its definition, in exact fractions until the last step."""
    return {
        "mean_squared_error": _ratio(sums["sse"], sums["weight"]),
        "mean_absolute_error": _ratio(sums["abs_error"], sums["weight"]),
        "residual_square_sum": float(sums["sse"]),
        "r_squared": 1 - _ratio(sums["sse"], sums["sst"]) if sums["sst"] != 0 or sums["sse"] != 0 else math.nan,
        "explained_variance": 1 - _ratio(sums["see"], sums["sst"]) if sums["sst"] != 0 or sums["see"] != 0 else math.nan,
        "f_stat": _ratio((sums["sst"] - sums["sse"]) * (n - 2), sums["sse"]) if n > 2 and sums["sst"] != 0 else math.nan,  # (a constant target: no R², no F)
        "residual_standard_error": math.sqrt(_ratio(sums["sse"], n - 2)) if n > 2 else math.nan,
    }


@settings(max_examples=150, deadline=None)
@given(data=numeric_targets(extreme=False))
def test_every_measure_is_its_definition_in_exact_fractions(data):
    y, p, weight = data
    metrics = RegressionMetrics.from_predictions(y, p, sample_weight=weight)
    if weight is not None and sum(weight) == 0:
        assert math.isnan(metrics.get_mean_squared_error(multioutput="raw_values")[0])
        return
    for j, sums in enumerate(_fractions(y, p, weight)):
        for name, expected in _reference(sums, len(y)).items():
            value = getattr(metrics, f"get_{name}")(multioutput="raw_values")[j]
            near = 1e-15 if name in ("r_squared", "explained_variance") else 0.0  # 1 - ratio: float64's rounding of 1
            assert close(value, expected, rel=1e-13, abs=near) or (math.isinf(expected) and value == expected), (name, value, expected)


def test_a_mean_of_sums_below_float64_s_range_is_the_ratio_of_the_exact_sums():
    """A weight of 1e-255 and an error of 2e-65: ``Σ w e²`` (4e-385) is below float64's range,
    its mean (4.2e-130) is not. The means divide the exact sums, scaled by one power of two,
    never their rounded floats (which gave 0.0, a value Hypothesis found)."""
    error = 2.06053877e-65
    metrics = RegressionMetrics.from_predictions([0.0, 0.0], [0.0, error], sample_weight=[0.0, 9.82110854e-256])
    assert metrics.get_mean_squared_error() == float(Fraction(error) ** 2)  # one weighted sample: the means are its own values
    assert metrics.get_mean_absolute_error() == error
    assert metrics.get_mean_absolute_percentage_error() == float(Fraction(error) / Fraction(np.finfo(np.float64).eps))
    assert metrics.get_root_mean_squared_error() == pytest.approx(error, rel=1e-15)


@settings(max_examples=150, deadline=None)
@given(data=numeric_targets(), cut=numeric_targets(min_size=1, max_size=1, outputs=1))
def test_parts_merged_in_any_order_and_samples_one_at_a_time_equal_the_whole_exactly(data, cut):
    y, p, weight = data
    whole = RegressionMetrics.from_predictions(y, p, sample_weight=weight)
    k = int(abs(cut[0][0, 0])) % len(y)
    w = (None, None) if weight is None else (weight[:k], weight[k:])
    parts = [RegressionMetrics.from_predictions(y[s], p[s], sample_weight=ws) for s, ws in ((slice(0, k), w[0]), (slice(k, None), w[1])) if len(y[s])]
    assert sum(parts) == whole and sum(reversed(parts)) == whole
    one_by_one = RegressionMetrics()
    for i in range(len(y)):  # each event through the Python integers, the whole through numpy
        one_by_one.update(y[i : i + 1].tolist(), p[i : i + 1].tolist(), sample_weight=None if weight is None else weight[i : i + 1])
    assert one_by_one == whole
    assert RegressionMetrics.from_json(whole.to_json()) == whole and pickle.loads(pickle.dumps(whole)) == whole


@settings(max_examples=100, deadline=None)
@given(data=numeric_targets(min_size=2, extreme=False))
def test_the_object_and_the_functions_give_scikit_learns_numbers(data):
    y, p, weight = data
    tame = (np.abs(y) < 1e50).all() and (np.abs(p) < 1e50).all()  # scikit-learn's float sums overflow or lose the huge values
    if not tame or (weight is not None and (weight.sum() == 0 or ((weight > 0) & (weight < 1e-3)).any())):
        return  # a weight of 1e-45 beside 3 has a variance float64's mean cannot resolve: the exact sums are tested above
    metrics = RegressionMetrics.from_predictions(y, p, sample_weight=weight)
    pairs = {
        "mean_absolute_error": "mean_absolute_error", "mean_squared_error": "mean_squared_error",
        "root_mean_squared_error": "root_mean_squared_error", "mean_absolute_percentage_error": "mean_absolute_percentage_error",
    }  # fmt: skip
    for getter, function in pairs.items():
        for multioutput in ("raw_values", "uniform_average"):
            expected = getattr(sk, function)(y, p, sample_weight=weight, multioutput=multioutput)
            ours = getattr(ek, function)(y, p, sample_weight=weight, multioutput=multioutput)
            got = getattr(metrics, f"get_{getter}")(multioutput=multioutput)
            assert np.allclose(ours, expected, rtol=1e-12, atol=1e-300) and np.allclose(got, expected, rtol=1e-9, atol=1e-300), getter
    for getter, function in (("r_squared", "r2_score"), ("explained_variance", "explained_variance_score")):
        ours = getattr(ek, function)(y, p, sample_weight=weight, multioutput="raw_values", force_finite=False)
        got = getattr(metrics, f"get_{getter}")(multioutput="raw_values")
        counted = (y if weight is None else y[weight > 0], y - p if weight is None else (y - p)[weight > 0])
        spread = np.all([np.ptp(v, axis=0) > 1e-4 * np.abs(v).max(axis=0) for v in counted], axis=0)  # where float sums see the variances
        assert np.allclose(ours[spread], got[spread], rtol=1e-7, atol=1e-9, equal_nan=True), getter
        with np.errstate(all="ignore"):  # scikit-learn divides 0 by 0 for a constant target
            expected = getattr(sk, function)(y, p, sample_weight=weight, multioutput="raw_values", force_finite=False)
        assert np.allclose(ours[spread], expected[spread], rtol=1e-7, atol=1e-9, equal_nan=True), getter
    if y.shape[1] == 1:
        assert metrics.get_max_error() == ek.max_error(y, p) == sk.max_error(y, p)


def test_a_worked_example_by_hand():
    # y = (3, -0.5, 2, 7), p = (2.5, 0, 2, 8): errors (0.5, -0.5, 0, -1), RSS = 1.5, mean y = 2.875,
    # SST = 0.015625 + 11.390625 + 0.765625 + 17.015625 = 29.1875 (scikit-learn's r2_score example: 0.948...)
    metrics = RegressionMetrics.from_predictions([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
    assert metrics.get_residual_square_sum() == 1.5
    assert metrics.get_mean_squared_error() == 0.375 and metrics.get_mean_absolute_error() == 0.5
    assert metrics.get_total_sum_of_squares() == 29.1875
    assert metrics.get_r_squared() == 1 - 1.5 / 29.1875
    assert metrics.get_residual_standard_error() == math.sqrt(1.5 / 2)  # n - k - 1 = 2
    assert metrics.get_f_stat() == (29.1875 - 1.5) / (1.5 / 2)
    assert metrics.get_f_stat(n_inputs=2) == ((29.1875 - 1.5) / 2) / 1.5
    assert math.isnan(metrics.get_f_stat(n_inputs=3))  # no degrees of freedom left
    assert metrics.get(EvaluationMetrics.R_SQUARED) == metrics.get("r2") == metrics.get_r_squared()
    assert metrics.get(EvaluationMetrics.F_STAT) == metrics.get_f_stat()
    for key in ("MEAN_ABSOLUTE_ERROR", "MEAN_SQUARED_ERROR", "ROOT_MEAN_SQUARED_ERROR", "RESIDUAL_SQUARE_SUM", "RESIDUAL_STANDARD_ERROR"):
        assert metrics.get(getattr(EvaluationMetrics, key)) == metrics.to_dict()[metrics.measure(getattr(EvaluationMetrics, key)).name]


def test_a_constant_target_has_no_variance_where_float_sums_see_one():
    # the mean of three 0.1 is 0.10000000000000002 in float64: scikit-learn's two-pass sum of
    # squares is then 5.8e-34, not 0, and R² of a near-perfect prediction comes out as -1.7e31
    y, p = [0.1, 0.1, 0.1], [0.1, 0.1, 0.2]
    assert sk.r2_score(y, p) < -1e30
    assert ek.r2_score(y, p) == 0.0  # force_finite: a constant target, predictions not perfect
    assert ek.r2_score(y, p, force_finite=False) == -math.inf
    assert RegressionMetrics.from_predictions(y, p).get_r_squared() == -math.inf
    assert RegressionMetrics.from_predictions(y, y).get_total_sum_of_squares() == 0.0
    assert ek.explained_variance_score(y, [0.3, 0.3, 0.3]) == 1.0  # a constant bias is forgiven


def test_r_squared_of_targets_far_from_zero_is_exact():
    # y = 1e8 + (0, 1, 2, 3), p = y + 0.5: RSS = 1, SST = 5, R² = 0.8 exactly. Sums of squares in
    # float64 (Σy² - (Σy)²/n) lose every digit here; the exact sums do not.
    y = 1e8 + np.array([0.0, 1.0, 2.0, 3.0])
    metrics = RegressionMetrics.from_predictions(y, y + 0.5)
    naive = 1 - 1.0 / (np.sum(y * y) - np.sum(y) ** 2 / 4)
    assert metrics.get_r_squared() == 0.8 and naive != 0.8
    parts = [RegressionMetrics.from_predictions(y[i : i + 1], y[i : i + 1] + 0.5) for i in range(4)]
    assert sum(parts).get_r_squared() == 0.8


def test_multioutput_as_scikit_learn():
    y, p = [[0.5, 1], [-1, 1], [7, -6]], [[0, 2], [-1, 2], [8, -5]]
    metrics = RegressionMetrics.from_predictions(y, p)
    for multioutput in ("raw_values", "uniform_average", "variance_weighted", [0.3, 0.7]):
        assert np.allclose(metrics.get_r_squared(multioutput=multioutput), sk.r2_score(y, p, multioutput=multioutput), rtol=1e-14)
        assert np.allclose(metrics.get_explained_variance(multioutput=multioutput), sk.explained_variance_score(y, p, multioutput=multioutput), rtol=1e-14)
    assert np.allclose(metrics.get_mean_absolute_error(multioutput=[0.3, 0.7]), 0.85)
    with pytest.raises(InvalidArgumentError, match="multioutput"):
        metrics.get_mean_squared_error(multioutput="weighted")
    with pytest.raises(InputShapeError, match="equally many"):
        metrics.get_mean_squared_error(multioutput=[1, 2, 3])


def test_measures_that_need_the_data_are_refused_with_where_to_compute_them():
    metrics = RegressionMetrics.from_predictions([1, 2, 3], [1, 2, 4])
    with pytest.raises(UnsupportedSettingError, match=r"evalkit\.metrics\.median_absolute_error"):
        metrics.get_median_absolute_error()
    with pytest.raises(UnknownMetricError, match="needs the data"):
        metrics.get("d2_absolute_error_score")
    assert metrics.scaled(0.5).get_total_weight() == 1.5 and metrics.scaled(0.5).get_r_squared() == metrics.get_r_squared()


def test_taking_samples_away_and_what_it_leaves_unknown():
    y, p = [1.0, 2.0, 4.0, 8.0], [1.5, 2.0, 3.0, 9.0]
    metrics = RegressionMetrics.from_predictions(y, p)
    metrics.revert(y[:2], p[:2])
    later = RegressionMetrics.from_predictions(y[2:], p[2:])
    assert metrics.get_r_squared() == later.get_r_squared() and metrics.sums()["sse"] == later.sums()["sse"]
    assert math.isnan(metrics.get_max_error())  # a maximum cannot be taken back
    with pytest.raises(InvalidCountsError):
        metrics.revert(y, p)
    assert metrics.get_samples() == 2  # nothing was taken away


def test_an_empty_part_with_or_without_outputs_changes_nothing_and_other_outputs_are_refused():
    metrics = RegressionMetrics.from_predictions([1.0, 2.0, 4.0], [1.5, 2.0, 3.0])
    for nothing in (RegressionMetrics(), RegressionMetrics(1)):  # outputs not yet fixed, or fixed
        assert metrics + nothing == metrics == nothing + metrics
        assert metrics - nothing == metrics and (metrics - nothing).get_max_error() == 1.0  # nothing taken: the largest stays known
    assert (RegressionMetrics() + RegressionMetrics(2)).get_outputs() == 2
    with pytest.raises(InputShapeError, match="outputs"):
        metrics + RegressionMetrics.from_predictions(np.ones((2, 2)), np.ones((2, 2)))
    with pytest.raises(InvalidCountsError, match=r"never counted \(2 samples from 3\)"):
        metrics - RegressionMetrics.from_predictions([1.0, 9.0], [1.0, 2.0])


def test_a_part_never_added_is_refused_even_where_every_sum_keeps_its_sign():
    whole = RegressionMetrics.from_predictions([1.0, -1.0], [1.0, -1.0])
    with pytest.raises(InvalidCountsError, match="never counted"):
        whole - RegressionMetrics.from_predictions([1.2], [1.2])  # W Σy² below (Σy)²: no samples give what is left


def test_values_stored_with_set_go_with_every_result_made_of_one():
    metrics = RegressionMetrics.from_predictions([1.0, 2.0, 4.0], [1.5, 2.0, 3.0])
    metrics.set("cost", 2.5)
    part = RegressionMetrics.from_predictions([1.0], [1.5])
    for made in (metrics.copy(), metrics + part, metrics - part, metrics.scaled(0.5), RegressionMetrics.from_json(metrics.to_json())):
        assert made.get("cost") == 2.5
    nothing = RegressionMetrics()  # its number of outputs not yet fixed
    nothing.set("cost", 4.0)
    assert (nothing + part).get("cost") == 4.0 == (nothing - RegressionMetrics(1)).get("cost")


def test_a_subclass_adds_a_measure_that_every_reading_knows():
    class Forecast(RegressionMetrics):
        @measure(direction="lower", bounds=(0, math.inf), aliases=("nrmse",))
        def get_normalised_rmse(self, multioutput="uniform_average"):
            """RMSE over the standard deviation of the target: sqrt(RSS / SST)."""
            sums = self.sums()
            return self.combine_outputs(np.sqrt(sums["sse"] / sums["sst"]), multioutput)

    metrics = Forecast.from_predictions([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
    assert metrics.get("nrmse") == metrics.to_dict()["normalised_rmse"] == math.sqrt(1.5 / 29.1875)
    assert Forecast.measure("NRMSE").direction == "lower" and "normalised_rmse" not in RegressionMetrics.metric_names()
    assert type(metrics + RegressionMetrics.from_predictions([1], [2])) is Forecast
    assert "Normalised rmse" in str(metrics)


def test_bad_input_is_a_clear_error_and_inputs_are_not_changed():
    y = np.array([1.0, 2.0, 3.0])
    with pytest.raises(InvalidValueError, match=r"'y_pred' holds nan at 1"):
        RegressionMetrics.from_predictions(y, [1.0, math.nan, 2.0])
    with pytest.raises(InvalidTypeError, match="numbers"):
        ek.mean_squared_error(["a", "b"], ["a", "b"])
    with pytest.raises(InputLengthError):
        ek.r2_score(y, [1.0, 2.0])
    with pytest.raises(InputShapeError, match="outputs"):
        RegressionMetrics.from_predictions(y, y).update([[1.0, 2.0]], [[1.0, 2.0]])
    with pytest.raises(EmptyInputError):
        RegressionMetrics().get_r_squared()
    huge = RegressionMetrics.from_predictions([1e200, 0.0], [-1e200, 0.0])  # exact sums: only the mean of squares is beyond float64
    assert huge.get_mean_squared_error() == math.inf and huge.get_mean_absolute_error() == 1e200 and huge.get_max_error() == 2e200
    with pytest.raises(InvalidValueError, match="percentage error"):
        RegressionMetrics.from_predictions([0.0, 1.0], [1e300, 1.0])
    with pytest.raises(InvalidArgumentError, match="n_inputs"):
        RegressionMetrics.from_predictions(y, y).get_f_stat(n_inputs=0)
    with pytest.raises(ValueError, match="at least one weight above 0"):  # as scikit-learn refuses them
        ek.mean_squared_error(y, y, sample_weight=[0, 0, 0])
    with pytest.raises(InvalidArgumentError, match="power"):
        ek.mean_tweedie_deviance(y, y, power=0.5)
    before = y.copy()
    RegressionMetrics.from_predictions(y, y[::-1])
    ek.median_absolute_error(y, y[::-1], sample_weight=[1.0, 2.0, 3.0])
    assert np.array_equal(y, before)


def test_weighted_quantiles_are_scikit_learns():
    rng = np.random.default_rng(3)
    for _ in range(30):
        n = int(rng.integers(2, 30))
        y, p = rng.integers(0, 5, size=(n, 2)).astype(float), rng.normal(size=(n, 2))
        weight = rng.integers(0, 4, size=n).astype(float)
        weight[0] += 1
        for alpha in (0.1, 0.25, 0.5, 0.9):
            assert np.allclose(ek.d2_pinball_score(y, p, sample_weight=weight, alpha=alpha, multioutput="raw_values"),
                               sk.d2_pinball_score(y, p, sample_weight=weight, alpha=alpha, multioutput="raw_values"), rtol=1e-12)  # fmt: skip
            assert np.allclose(ek.d2_pinball_score(y, p, alpha=alpha, multioutput="raw_values"),
                               sk.d2_pinball_score(y, p, alpha=alpha, multioutput="raw_values"), rtol=1e-12)  # fmt: skip
        assert np.allclose(ek.median_absolute_error(y, p, sample_weight=weight, multioutput="raw_values"),
                           sk.median_absolute_error(y, p, sample_weight=weight, multioutput="raw_values"), rtol=1e-12)  # fmt: skip


def test_deviances_are_scikit_learns():
    rng = np.random.default_rng(4)
    y, p, weight = rng.gamma(2.0, size=200), rng.gamma(2.0, size=200), rng.random(200)
    for power in (-1.5, 0, 1, 1.5, 2, 3):
        assert close(ek.mean_tweedie_deviance(y, p, power=power, sample_weight=weight), sk.mean_tweedie_deviance(y, p, power=power, sample_weight=weight))
        assert close(ek.d2_tweedie_score(y, p, power=power, sample_weight=weight), sk.d2_tweedie_score(y, p, power=power, sample_weight=weight))
    assert close(ek.mean_poisson_deviance(y, p), sk.mean_poisson_deviance(y, p))
    assert close(ek.mean_gamma_deviance(y, p), sk.mean_gamma_deviance(y, p))
    assert close(ek.mean_squared_log_error(y, p), sk.mean_squared_log_error(y, p))
    assert close(ek.root_mean_squared_log_error(y, p, sample_weight=weight), sk.root_mean_squared_log_error(y, p, sample_weight=weight))


@pytest.mark.parametrize("measure", ["r_squared", "root_mean_squared_error", "pearson_correlation", "explained_variance", "mean_absolute_percentage_error"])
def test_the_bootstrap_reads_each_resample_as_the_object_counts_it(measure):
    # the percentile interval is the quantiles of the measure of resamples: here each resample is
    # drawn as the bootstrap draws it (one multinomial of counts) and counted as weights, the slow way
    rng = np.random.default_rng(5)
    y = rng.normal(3.0, 2.0, size=(60, 2))
    p, weight = y + rng.normal(0.0, 1.0, size=y.shape), rng.uniform(0.5, 2.0, size=60)
    interval = RegressionMetrics.bootstrap(y, p, measure, sample_weight=weight, method="percentile", n_resamples=200, random_state=3)
    counts = np.random.default_rng(3).multinomial(60, np.full(60, 1 / 60), size=200)
    values = [getattr(RegressionMetrics.from_predictions(y, p, sample_weight=weight * row), f"get_{measure}")() for row in counts]
    low, high = np.quantile(values, [0.025, 0.975])
    assert close(interval.low, low, rel=1e-9) and close(interval.high, high, rel=1e-9)
    assert interval.estimate == getattr(RegressionMetrics.from_predictions(y, p, sample_weight=weight), f"get_{measure}")()
    assert RegressionMetrics.bootstrap(y, p, measure, sample_weight=weight, random_state=3, n_resamples=200).method == "bca"


def test_the_bootstrap_of_a_function_of_the_data_and_the_f_test():
    rng = np.random.default_rng(6)
    y = rng.normal(size=80)
    p = y + rng.normal(0.0, 0.5, size=80)
    interval = RegressionMetrics.bootstrap(y, p, ek.median_absolute_error, n_resamples=300, random_state=1)
    assert interval.method == "percentile" and interval.low < ek.median_absolute_error(y, p) == interval.estimate < interval.high
    pinball = RegressionMetrics.bootstrap(y, p, ek.mean_pinball_loss, alpha=0.9, n_resamples=100, random_state=1)
    assert pinball.estimate == ek.mean_pinball_loss(y, p, alpha=0.9)
    with pytest.raises(UnknownMetricError, match="needs the data"):
        RegressionMetrics.bootstrap(y, p, "median_absolute_error")
    import statsmodels.api as sm

    x = rng.normal(size=(80, 2))
    target = x @ np.array([0.3, -0.2]) + rng.normal(size=80)
    model = sm.OLS(target, sm.add_constant(x)).fit()
    metrics = RegressionMetrics.from_predictions(target, model.fittedvalues)
    assert math.isclose(metrics.f_test(n_inputs=2), model.f_pvalue, rel_tol=1e-9)


def test_windows_of_a_stream_equal_the_samples_they_hold():
    from evalkit import Faded, Tumbling, Windowed

    rng = np.random.default_rng(11)
    y = 50.0 + rng.normal(size=400)
    p = y + rng.normal(0.0, 0.4, size=400)
    sliding, one_by_one, tumbling = Windowed(RegressionMetrics(), size=90), Windowed(RegressionMetrics(), size=90), Tumbling(RegressionMetrics(), size=100)
    for start in range(0, 400, 7):
        sliding.update(y[start : start + 7], p[start : start + 7])
        tumbling.update(y[start : start + 7], p[start : start + 7])
    for i in range(400):
        one_by_one.update([float(y[i])], [float(p[i])])
    last = RegressionMetrics.from_predictions(y[-90:], p[-90:])
    assert sliding.result.sums()["sse"] == last.sums()["sse"]
    assert [window.get_r_squared() for window in tumbling.history] == [
        RegressionMetrics.from_predictions(y[k : k + 100], p[k : k + 100]).get_r_squared() for k in range(0, 400, 100)]
    assert {name: value for name, value in one_by_one.result.to_dict().items() if name != "max_error"} == {
        name: value for name, value in last.to_dict().items() if name != "max_error"}  # exact sums: the window is the samples it holds
    faded = Faded(RegressionMetrics(), factor=0.98)
    for i in range(400):
        faded.update([float(y[i])], [float(p[i])])
    decayed = RegressionMetrics.from_predictions(y, p, sample_weight=0.98 ** np.arange(399, -1, -1))
    assert close(faded.result.get_r_squared(), decayed.get_r_squared(), rel=1e-12)
    assert close(faded.result.get_mean_squared_error(), decayed.get_mean_squared_error(), rel=1e-12)


_FUNCTIONS = ["mean_absolute_error", "mean_squared_error", "root_mean_squared_error", "mean_squared_log_error", "root_mean_squared_log_error",
              "median_absolute_error", "mean_absolute_percentage_error", "r2_score", "explained_variance_score", "max_error", "mean_pinball_loss",
              "mean_tweedie_deviance", "mean_poisson_deviance", "mean_gamma_deviance", "d2_absolute_error_score", "d2_pinball_score",
              "d2_tweedie_score"]  # fmt: skip


@pytest.mark.parametrize("name", _FUNCTIONS)
@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_every_function_refuses_nan_and_infinities_by_name_and_place(name, bad):
    # the functions check finiteness only when their result is not finite (a pass less); a median
    # or a quantile may hide an infinity, so those check first: either way the error names the value
    y, p = [1.0, 2.0, 3.0, 4.0], [1.5, 2.0, 2.5, 4.5]
    function = getattr(ek, name)
    for arguments, where in (((y, [1.5, bad, 2.5, 4.5]), "'y_pred'"), (([1.0, 2.0, 3.0, bad], p), "'y_true'")):
        with pytest.raises(InvalidValueError, match=rf"{where} holds {bad} at"):
            function(*arguments)
    assert math.isfinite(function(y, p))


@settings(max_examples=100, deadline=None)
@given(data=numeric_targets(min_size=1, outputs=1, extreme=False), cut=st.integers(0, 40))
def test_a_stream_reads_its_running_sums_to_rounding_and_stays_exact(data, cut):
    y, p, _ = data
    y, p = y[:, 0] if y.ndim == 2 else y, p[:, 0] if p.ndim == 2 else p
    k = cut % len(y)
    stream = RegressionMetrics.from_predictions(y[:k], p[:k]) if k else RegressionMetrics()
    for a, b in zip(y[k:].tolist(), p[k:].tolist()):  # one event at a time: the running sums, the exact ones held
        stream.update([a], [b])
    whole = RegressionMetrics.from_predictions(y, p)
    for name in ("mean_absolute_error", "mean_squared_error", "r_squared", "explained_variance", "max_error", "mean_absolute_percentage_error",
                 "pearson_correlation", "regression_sum_of_squares", "total_sum_of_squares"):  # fmt: skip
        ours, exact = getattr(stream, f"get_{name}")(), getattr(whole, f"get_{name}")()
        scale = max(abs(exact), float(np.abs(y).max(initial=0)) ** 2 * len(y), 1.0) if name in ("r_squared", "explained_variance", "pearson_correlation") else abs(exact)
        assert close(ours, exact, rel=1e-9, abs=1e-9 * scale) or (math.isnan(ours) and math.isnan(exact)) or abs(ours - exact) <= 1e-6, (name, ours, exact)
    assert stream == whole  # the held events counted in: the exact sums, bit for bit
    assert RegressionMetrics.from_json(stream.to_json()) == whole
    stream.update([1.5], [2.5])
    copied = pickle.loads(pickle.dumps(stream))
    rest = stream - RegressionMetrics.from_predictions([1.5], [2.5])  # a subtraction forgets the largest error: the rest compared
    assert copied == stream and {k: v for k, v in rest.to_dict(strict=True).items() if k != "max_error"} == {
        k: v for k, v in whole.to_dict(strict=True).items() if k != "max_error"}


@settings(max_examples=40, deadline=None)
@given(data=numeric_targets(min_size=1, outputs=1, extreme=False))
def test_one_sample_at_a_time_is_a_batch_of_one(data):
    y, p, _ = data
    y, p = (y[:, 0] if y.ndim == 2 else y).tolist(), (p[:, 0] if p.ndim == 2 else p).tolist()
    one, lists = RegressionMetrics(), RegressionMetrics()
    for a, b in zip(y, p):
        one.update_one(a, b)
        lists.update([a], [b])
        assert one.get_r_squared() == lists.get_r_squared() or math.isnan(one.get_r_squared())
    assert one == lists == RegressionMetrics.from_predictions(y, p)


def test_one_sample_at_a_time_agrees_with_rivers_r2_and_its_rolling_window():
    from river import metrics, utils

    rng = np.random.default_rng(8)
    y = (rng.normal(size=400) * 3 + 10).tolist()
    p = (np.array(y) + rng.normal(scale=0.5, size=400)).tolist()
    stream, window = RegressionMetrics(), Windowed(RegressionMetrics(), size=60)
    theirs, rolling = metrics.R2(), utils.Rolling(metrics.R2, window_size=60)
    for k, (a, b) in enumerate(zip(y, p)):
        stream.update_one(a, b)
        window.update([a], [b])
        theirs.update(a, b)
        rolling.update(a, b)
        if k:
            assert stream.get_r_squared() == pytest.approx(theirs.get(), rel=1e-9)
            assert window.get_r_squared() == pytest.approx(rolling.get(), rel=1e-9)
        else:  # one sample has no variance: River reports 0, evalkit 1 - RSS/0 (-inf; NaN for a perfect prediction)
            assert stream.get_r_squared() == -math.inf and theirs.get() == 0


def test_a_stream_after_one_huge_value_reads_its_exact_numbers():
    """A mean beyond the moderate values' (1e155 among values near 1) would put squares beyond
    float64 into the running sums (NaN and inf read for thousands of events): such a stream is
    counted on the exact path, and a window's again on running sums once the value left."""
    rng = np.random.default_rng(9)
    y, p = [1e155, *rng.normal(size=60).tolist()], [0.0, *rng.normal(size=60).tolist()]
    stream, window = RegressionMetrics(), Windowed(RegressionMetrics(), size=20)
    for k, (a, b) in enumerate(zip(y, p), 1):
        stream.update_one(a, b)
        window.update([a], [b])
        if k % 10 == 0:
            for ours, exact in ((stream, RegressionMetrics.from_predictions(y[:k], p[:k])), (window, RegressionMetrics.from_predictions(y[max(0, k - 20) : k], p[max(0, k - 20) : k]))):
                for name in ("get_r_squared", "get_mean_squared_error", "get_mean_absolute_error"):
                    assert getattr(ours, name)() == pytest.approx(getattr(exact, name)(), rel=1e-9), (k, name)


def test_a_constant_target_has_no_f_statistic_as_it_has_no_r_squared():
    constant = RegressionMetrics.from_predictions([1, 1, 1], [2, 3, 1])  # the formula gives (0 - RSS) / (RSS / 1) = -1 (the command line printed it)
    assert constant.get_r_squared() == -math.inf and math.isnan(constant.get_f_stat())
    both = RegressionMetrics.from_predictions([[1, 0], [1, 1], [1, 3], [1, 2]], [[2, 0], [3, 1], [1, 2], [1, 2]])
    f = both.get_f_stat(multioutput="raw_values")
    assert math.isnan(f[0]) and f[1] == pytest.approx(((5 - 1) / 1) / (1 / 2))  # the second: SST 5, RSS 1, n 4


def test_one_sample_is_one_number_each():
    metrics = RegressionMetrics()
    metrics.update_one(3, 2.5)  # an int: its float
    metrics.update_one(np.float32(1.5), 2)  # numpy numbers: the exact path
    assert metrics == RegressionMetrics.from_predictions([3.0, 1.5], [2.5, 2.0])
    for bad, argument in ((([1.0, 2.0], 1.0), "'y_true'"), ((1.0, "2"), "'y_pred'"), ((1.0, np.array([2.0])), "'y_pred'")):
        with pytest.raises(InvalidTypeError, match=f"{argument} must be one number"):
            metrics.update_one(*bad)
    with pytest.raises(InvalidValueError, match="'y_pred'"):
        metrics.update_one(1.0, math.nan)
    with pytest.raises(InputShapeError):
        RegressionMetrics.from_predictions([[1.0, 2.0]], [[1.0, 2.0]]).update_one(1.0, 1.0)
    assert metrics == RegressionMetrics.from_predictions([3.0, 1.5], [2.5, 2.0])  # nothing counted by a refusal


def test_a_long_window_counts_its_held_events_in_batches_of_both_signs():
    """Past a few hundred held events the exact sums count them in numpy, those taken away
    subtracted: the window's sums equal those of its last samples counted afresh, bit for bit (its
    largest error is unknown once one left)."""
    rng = np.random.default_rng(7)
    y, p = rng.normal(size=900).tolist(), rng.normal(size=900).tolist()
    window = Windowed(RegressionMetrics(), size=50)
    for a, b in zip(y, p):
        window.update([a], [b])
    held, fresh = window.result.to_dict(strict=True), RegressionMetrics.from_predictions(y[-50:], p[-50:]).to_dict(strict=True)
    assert held.pop("max_error") is None and held == {name: value for name, value in fresh.items() if name != "max_error"}


@settings(max_examples=60, deadline=None)
@given(data=numeric_targets(min_size=2, outputs=1, extreme=False), size=st.integers(1, 12))
def test_a_window_of_a_stream_reads_its_running_sums_to_rounding(data, size):
    # events leave a full window one at a time (West's update run backwards; seeded anew from the
    # exact sums where what is left is far below what left): every read, through_origin's Σ y²
    # too, is the exact value of the samples held to rounding
    from evalkit import Windowed

    y, p, _ = data
    y, p = y[:, 0] if y.ndim == 2 else y, p[:, 0] if p.ndim == 2 else p
    window = Windowed(RegressionMetrics(), size=size)
    for a, b in zip(y.tolist(), p.tolist()):
        window.update([a], [b])
    held = RegressionMetrics.from_predictions(y[-size:], p[-size:])
    scale = float(np.abs(y).max()) ** 2 * len(y) + float(np.abs(p).max()) ** 2 * len(y) + 1.0  # what a running sum rounds against
    for name, options in (("mean_absolute_error", {}), ("mean_squared_error", {}), ("r_squared", {}), ("r_squared", {"through_origin": True}),
                          ("explained_variance", {}), ("mean_absolute_percentage_error", {}), ("regression_sum_of_squares", {}),
                          ("total_sum_of_squares", {}), ("residual_square_sum", {})):  # fmt: skip
        ours, exact = getattr(window, f"get_{name}")(**options), getattr(held, f"get_{name}")(**options)
        tolerance = 1e-9 * (scale if name in ("r_squared", "explained_variance") else max(abs(exact), 1.0) * len(y))
        assert close(ours, exact, rel=1e-9, abs=tolerance) or (math.isnan(ours) and math.isnan(exact)) or abs(ours - exact) <= 1e-6, (name, ours, exact)
    exact = window.result  # the held events counted in: the exact sums (a maximum that left is unknown)
    assert exact._sums == held._sums and {k: v for k, v in exact.to_dict(strict=True).items() if k != "max_error"} == {
        k: v for k, v in held.to_dict(strict=True).items() if k != "max_error"}


def test_a_stream_whose_errors_round_to_one_value_keeps_their_rounding():
    # y = (0, 7e-76), p = (1, 1): the errors -1 and -1 + 7e-76 are both -1.0 as floats, so their
    # spread is lost; exactly e - ē = y - ȳ, the explained variance 1 - Var(e) / Var(y) is 0.
    # scikit-learn subtracts in floats and says 1.0; the running sums keep each y - p's rounding
    # (Knuth's two-sum), and read 0 as the exact sums do
    from sklearn.metrics import explained_variance_score

    y, p = [0.0, 6.9650633e-76], [1.0, 1.0]
    stream = RegressionMetrics()
    for a, b in zip(y, p):
        stream.update([a], [b])
    assert stream.get_explained_variance() == 0.0 == RegressionMetrics.from_predictions(y, p).get_explained_variance()
    assert explained_variance_score(y, p) == 1.0  # the rounded errors' variance, 0


def test_a_window_after_its_large_value_left_reads_the_samples_it_holds():
    # [0.3, -2.5] predicted [0.3, 0.1]: SST = 2 * 1.4² = 3.92, RSS = 2.6² = 6.76, R² = 1 - 6.76 / 3.92;
    # West's update run backwards past 1e6 left about 1e-4 of rounding in the running sums
    # (R² -0.72461), which are seeded anew from the exact sums when so little is left of them
    from evalkit import Windowed

    window = Windowed(RegressionMetrics(), size=2)
    for y, p in ((1e6, 0.3), (0.3, 0.3), (-2.5, 0.1)):
        window.update([y], [p])
    assert window.get_r_squared() == 1 - 6.76 / 3.92 == RegressionMetrics.from_predictions([0.3, -2.5], [0.3, 0.1]).get_r_squared()
    assert window.get_total_sum_of_squares() == 3.92 and window.get_residual_square_sum() == 6.76


@pytest.mark.parametrize("shape", ["stationary", "random walk", "trend"])
@pytest.mark.parametrize("size", [10, 50])
def test_a_window_at_an_offset_reads_its_sums_to_rounding_of_the_values_it_holds(shape, size):
    # targets 1e8 + a shape + N(0, 1e-3), predictions the targets + N(0, 1e-3): every read of the
    # window's total and residual sums of squares is within about 1e-14 (at most 2e-14) of
    # n (max - min)² of the n targets it holds (exact sums in fractions). A window whose means
    # drift from the running sums' shift (a random walk, a trend) reseeds them: kept to 2**6
    # spreads, a trend read 2e-13
    from fractions import Fraction

    from evalkit import Windowed

    rng, n = np.random.default_rng(1), 3000
    offset = {"stationary": np.zeros(n), "random walk": np.cumsum(rng.normal(0, 1e-3, n)), "trend": np.arange(n) * 1e-4}[shape]
    y = 1e8 + offset + rng.normal(0, 1e-3, n)
    p = y + rng.normal(0, 1e-3, n)
    window, worst = Windowed(RegressionMetrics(), size=size), Fraction(0)
    for i, (a, b) in enumerate(zip(y.tolist(), p.tolist())):
        window.update([a], [b])
        if i % 97 == 0 and i >= size:
            held_y, held_p = [Fraction(v) for v in y[i + 1 - size : i + 1].tolist()], [Fraction(v) for v in p[i + 1 - size : i + 1].tolist()]
            mean = sum(held_y) / size
            total, residual = sum((v - mean) ** 2 for v in held_y), sum((v - w) ** 2 for v, w in zip(held_y, held_p))
            scale = size * (max(held_y) - min(held_y)) ** 2
            worst = max(worst, abs(Fraction(window.get_total_sum_of_squares()) - total) / scale, abs(Fraction(window.get_residual_square_sum()) - residual) / scale)
    assert worst < Fraction(2, 10**14), float(worst)


_SUM = st.one_of(st.sampled_from([0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan, 1e-300, 1e300]),
                 st.floats(allow_nan=True, allow_infinity=True, width=64))  # fmt: skip


def _same(a: object, b: object) -> bool:
    """Bit for bit, as floats: the same value and sign of zero, or both NaN."""
    a, b = float(a), float(b)  # type: ignore[arg-type]
    return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1.0, a) == math.copysign(1.0, b))


@settings(max_examples=300, deadline=None)
@given(a=_SUM, b=_SUM, c=_SUM, samples=st.integers(0, 6), n_inputs=st.integers(1, 3))
def test_the_formulas_give_a_stream_s_floats_what_they_give_arrays(a, b, c, samples, n_inputs):
    # a stream of one output reads its running sums as Python floats (no arrays, a read in about a
    # microsecond): every formula must give them exactly what it gives the same sums as arrays,
    # NaN, infinities and the sign of zero included
    from evalkit.measures import _regression_formulas as formulas

    cases = [(formulas.mean_of, (a, b), {}), (formulas.r_squared, (a, b), {}), (formulas.r_squared, (a, b), {"force_finite": True}),
             (formulas.fraction_explained, (a, b), {"force_finite": True}), (formulas.pearson_correlation, (a, b, c), {}),
             (formulas.root, (a,), {}), (formulas.residual_standard_error, (a, samples, n_inputs), {}),
             (formulas.f_statistic, (a, b, samples, n_inputs), {}), (formulas.f_statistic, (a, b, samples, n_inputs, c), {})]  # fmt: skip
    for formula, arguments, options in cases:
        as_floats = formula(*arguments, **options)
        as_arrays = formula(*(np.array([x]) if type(x) is float else x for x in arguments), **options)
        assert type(as_floats) is float and as_arrays.shape == (1,), formula.__name__
        assert _same(as_floats, as_arrays[0]), (formula.__name__, arguments, as_floats, as_arrays)
    for multioutput in ("uniform_average", "variance_weighted"):
        assert _same(formulas.combine(a, multioutput, b), formulas.combine(np.array([a]), multioutput, np.array([b])))
    assert formulas.combine(a, "raw_values").shape == (1,)


def test_a_stream_s_reads_take_every_multioutput_and_parameter():
    rng = np.random.default_rng(5)
    y, p = rng.normal(size=30), rng.normal(size=30)
    stream, whole = RegressionMetrics(), RegressionMetrics.from_predictions(y, p)
    for a, b in zip(y.tolist(), p.tolist()):
        stream.update([a], [b])
    assert stream._pending  # read from the running sums
    for name in ("r_squared", "mean_squared_error", "residual_standard_error", "f_stat", "explained_variance", "root_mean_squared_error"):
        for multioutput in ("uniform_average", "variance_weighted", "raw_values"):
            ours, exact = getattr(stream, f"get_{name}")(multioutput=multioutput), getattr(whole, f"get_{name}")(multioutput=multioutput)
            assert type(ours) is type(exact) and np.allclose(ours, exact, rtol=1e-12), (name, multioutput, ours, exact)
    assert close(stream.get_f_stat(n_inputs=3), whole.get_f_stat(n_inputs=3), rel=1e-12)
    assert close(stream.f_test(n_inputs=2), whole.f_test(n_inputs=2), rel=1e-9)
    assert math.isnan(stream.get_residual_standard_error(n_inputs=29)) and math.isnan(whole.get_residual_standard_error(n_inputs=29))
    with pytest.raises(InvalidArgumentError, match="multioutput"):
        stream.get_r_squared(multioutput="mean")
    with pytest.raises(InvalidArgumentError, match="Custom weights"):
        stream.get_r_squared(multioutput=[1.0])


def test_a_stream_of_extreme_values_takes_the_exact_path():
    stream = RegressionMetrics()
    for a, b in ((1e200, 1e200 + 1e185), (2e200, 1.5e200), (0.0, 1e-320)):
        stream.update([a], [b])
    whole = RegressionMetrics.from_predictions([1e200, 2e200, 0.0], [1e200 + 1e185, 1.5e200, 1e-320])
    assert stream.get_r_squared() == whole.get_r_squared() and stream.get_mean_absolute_error() == whole.get_mean_absolute_error()


# --------------------------------------------------------------------------------------------
# a stream far from zero, and correlations within [-1, 1]


def _stream(y, p, size=None):
    """``y`` and ``p`` counted one event at a time (the running sums: no read counts them in),
    in a ``Windowed`` of ``size`` if given."""
    from evalkit import Windowed

    view = RegressionMetrics() if size is None else Windowed(RegressionMetrics(), size=size)
    for a, b in zip(y, p):
        view.update([a], [b])
    return view


def _within(y, p, size, relative):
    """The measures of ``y`` and ``p`` counted one event at a time (the running sums), in a window
    of ``size`` if given, against the exact sums of the samples held (``_fractions``): each sum
    within ``relative`` of itself, and a window's also of what its subtractions round against,
    ``n (max - min)²`` of the values it is of (the ``n`` events seen, at any offset); R² and the
    explained variance ``1 - a / b`` by the same of ``a / b``."""
    view = _stream(y.tolist(), p.tolist(), size)
    held = slice(None) if size is None else slice(-size, None)
    sums = _fractions(y[held, None], p[held, None], None)[0]
    spread = {name: 0.0 if size is None else len(y) * float(np.ptp(values)) ** 2 for name, values in (("y", y), ("p", p), ("e", y - p))}
    weight = sums["weight"]
    expected = {"total_sum_of_squares": (sums["sst"], spread["y"]), "residual_square_sum": (sums["sse"], spread["e"]),
                "mean_squared_error": (sums["sse"] / weight, spread["e"] / float(weight)),
                "mean_absolute_error": (sums["abs_error"] / weight, 0.0 if size is None else len(y) * float(np.abs(y - p).max()) / float(weight)),
                "regression_sum_of_squares": (sums["spp"] + sums["sse"] - sums["see"], spread["p"] + spread["e"])}  # Σ (p - ȳ)² = Σ (p - p̄)² + W ē²  # fmt: skip
    for name, (value, scale) in expected.items():
        ours = getattr(view, f"get_{name}")()
        assert abs(ours - float(value)) <= relative * (abs(float(value)) + scale), (name, ours, float(value))
    for name, part in (("r_squared", "sse"), ("explained_variance", "see")):
        ours, share = getattr(view, f"get_{name}")(), _ratio(sums[part], sums["sst"])
        if math.isnan(share) or math.isinf(share):
            assert ours == 1 - share or (math.isnan(ours) and math.isnan(share)), (name, ours, 1 - share)
            continue
        bound = relative * ((float(sums[part]) + spread["e"]) + share * (float(sums["sst"]) + spread["y"])) / float(sums["sst"])
        assert abs((1 - ours) - share) <= bound + 2**-53, (name, ours, 1 - share)  # (1 - ours: exact, float64 rounded 1 - a / b)


def test_a_stream_far_from_zero_reads_its_measures_to_rounding():
    # y = 1e8 + N(0, 1e-3), p = y + N(0, 1e-3), one event at a time: West's update of the raw
    # means rounded each mean to the spacing of floats at 1e8 (1.5e-8, 1e-5 of the samples' spread),
    # and R² read -0.1072633 for -0.1072637 (3.7e-6 relative; a window of 50: -0.119377 for
    # -0.119448, 5.9e-4). The exact values: the textbook sums in fractions of the floats (_fractions)
    rng = np.random.default_rng(7)
    y = 1e8 + rng.normal(0.0, 1e-3, 400)
    p = y + rng.normal(0.0, 1e-3, 400)
    for size in (None, 50):
        _within(y, p, size, 1e-14)


def test_a_stream_read_for_its_correlation_at_every_event_keeps_its_running_sums():
    # a read of the correlation counts the held events into the exact sums; the running sums go on
    # (seeded anew once 4,096 events were counted in since they were seeded): every correlation is
    # the batch's, and the next event's R² and SST are read from the running sums to rounding
    rng = np.random.default_rng(8)
    y = 1e8 + rng.normal(0.0, 1e-3, 5_000)
    p = y + rng.normal(0.0, 1e-3, 5_000)
    stream = RegressionMetrics()
    for k, (a, b) in enumerate(zip(y.tolist(), p.tolist())):
        stream.update([a], [b])
        correlation = stream.get_pearson_correlation()
        if k in (10, 4_095, 4_999):
            assert correlation == RegressionMetrics.from_predictions(y[: k + 1], p[: k + 1]).get_pearson_correlation()
    stream.update([float(y[0])], [float(p[1])])
    assert stream._pending  # read from the running sums
    whole = RegressionMetrics.from_predictions([*y, y[0]], [*p, p[1]])
    assert close(stream.get_total_sum_of_squares(), whole.get_total_sum_of_squares(), rel=1e-14, abs=0.0)
    assert close(stream.get_residual_square_sum(), whole.get_residual_square_sum(), rel=1e-14, abs=0.0)


@st.composite
def _offset_stream(draw):
    """A regressor's stream: ``y = offset + scale z``, ``p = y + scale (bias + noise z')`` (``z``,
    ``z'`` normal), any offset (0, or 1 to 1e15 in size) and scale (1e-6 to 1e6), the predictions
    biased and noisy (a good predictor to none), and a window of 2 to 20 events or none."""
    n = draw(st.integers(2, 80))
    offset = draw(st.sampled_from([0.0, 1.0, -1.0])) * 10.0 ** draw(st.floats(0, 15))
    scale, noise = 10.0 ** draw(st.floats(-6, 6)), 10.0 ** draw(st.floats(-4, 2))
    bias = draw(st.one_of(st.just(0.0), st.floats(-1e3, 1e3)))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    y = offset + scale * rng.normal(size=n)
    p = y + scale * (bias + noise * rng.normal(size=n))
    return y, p, draw(st.one_of(st.none(), st.integers(2, 20)))


@settings(max_examples=300, deadline=None)
@given(case=_offset_stream())
def test_a_stream_reads_every_measure_to_rounding_at_any_offset_and_scale(case):
    _within(*case, 1e-14)


def _correlation(sums):
    """Pearson's r of one output's exact sums (``_fractions``), correctly rounded: the sign of
    ``syp`` times the square root of ``syp² / (sst spp)`` to 80 digits (``decimal``), rounded once to
    float64 (NaN if either is constant)."""
    if not sums["sst"] or not sums["spp"]:
        return math.nan
    square = sums["syp"] ** 2 / (sums["sst"] * sums["spp"])
    with localcontext() as context:
        context.prec = 80
        root = float((Decimal(square.numerator) / Decimal(square.denominator)).sqrt())
    return math.copysign(root, sums["syp"]) if sums["syp"] else 0.0


def test_the_correlation_of_targets_with_themselves_is_exactly_one():
    # syp = sst = spp: syp / (sqrt(sst) sqrt(spp)) rounds three times, and read 1.0000000000000002
    # for [0.1, 0.2, 0.4] (1,461 of 3,000 random samples read other than 1); the exact ratio to the
    # square root is 1 (and -1 of y with -y), as a perfect matrix's MCC
    y = [0.1, 0.2, 0.4]
    negated = [-value for value in y]
    for view in (RegressionMetrics.from_predictions(y, y), _stream(y, y), _stream([5.0, *y], [5.0, *y], size=3)):
        assert view.get_pearson_correlation() == 1.0
    for view in (RegressionMetrics.from_predictions(y, negated), _stream(y, negated), _stream([5.0, *y], [-5.0, *negated], size=3)):
        assert view.get_pearson_correlation() == -1.0
    # a bootstrap reads every resample's float sums at once (their correlations rounded, read
    # 1.0000000000000002): limited to [-1, 1]
    interval = RegressionMetrics.bootstrap([*y, 0.3, 0.7, 0.9, 1.3], [*y, 0.3, 0.7, 0.9, 1.3], "pearson_correlation", n_resamples=300,
                                           random_state=0, method="percentile")  # fmt: skip
    assert interval.estimate == 1.0 and -1.0 <= interval.low <= interval.high <= 1.0


@settings(max_examples=200, deadline=None)
@given(data=numeric_targets())
def test_a_correlation_is_the_exact_one_correctly_rounded(data):
    y, p, weight = data
    exact = _fractions(y, p, weight)
    for ours, sums in zip(RegressionMetrics.from_predictions(y, p, sample_weight=weight).get_pearson_correlation(multioutput="raw_values"), exact):
        assert _same(ours, _correlation(sums)), (ours, _correlation(sums))
    for target, sign in ((y, 1.0), (-y, -1.0)):  # y with itself (with -y): exactly 1 (-1), or undefined for a constant y
        for ours, sums in zip(RegressionMetrics.from_predictions(y, target, sample_weight=weight).get_pearson_correlation(multioutput="raw_values"), exact):
            assert ours == sign or (math.isnan(ours) and not sums["sst"]), (ours, sign)


@settings(max_examples=150, deadline=None)
@given(data=numeric_targets(min_size=2, outputs=1, extreme=False), size=st.one_of(st.none(), st.integers(1, 12)))
def test_a_stream_s_correlation_is_the_exact_one_correctly_rounded(data, size):
    # one event at a time (and in a window): the correlation is read from the exact sums, the held
    # events counted in, so it is the batch's value, and 1 (-1) of y with itself (with -y)
    y, p = (values[:, 0] for values in data[:2])
    held = slice(None) if size is None else slice(-size, None)
    exact = _fractions(y[held, None], p[held, None], None)[0]
    assert _same(_stream(y.tolist(), p.tolist(), size).get_pearson_correlation(), _correlation(exact))
    for target, sign in ((y, 1.0), (-y, -1.0)):
        ours = _stream(y.tolist(), target.tolist(), size).get_pearson_correlation()
        assert ours == sign or (math.isnan(ours) and not exact["sst"]), (ours, sign)


def test_a_document_with_sums_no_samples_give_is_refused():
    import json

    from evalkit._engine.serialization import FormatError

    document = json.loads(RegressionMetrics.from_predictions([1.0, 2.0, 4.0], [1.0, 3.0, 3.0]).to_json())
    for name, value in (("weight", "-3"), ("yy", "0")):  # a negative weight; Σy² below (Σy)² / W
        changed = {**document, "sums": [{**document["sums"][0], name: value}]}
        with pytest.raises(FormatError, match="sums that samples give"):
            RegressionMetrics.from_json(json.dumps(changed))


@pytest.mark.parametrize("kind", ['RegressionMetrics'])
@given(data=counted_samples())
def test_a_regressor_follows_the_counted_state_protocol(kind, data):
    """Merged parts equal the whole in any order, ``(a + b) - b == a``, scaling, JSON and
    pickle round trips (``harness.check_kind``)."""
    check_kind(kind, data)


def test_a_part_taken_from_sums_scaled_to_the_last_unit_is_still_taken():
    tiny = RegressionMetrics.from_predictions([5e-324], [0.0], sample_weight=[5e-324]).scaled(1e-300)  # sums rounded to the unit by scaling
    assert tiny - RegressionMetrics(1) == tiny and RegressionMetrics.from_json(tiny.to_json()) == tiny


@pytest.mark.parametrize(("r2", "n", "k", "weka"), [(0.8, 10, 2, 0.775), (0.8, 10, 3, 0.7428571428571429), (0.123456, 57, 6, 0.03752031372549025)])
def test_adjusted_r_squared_is_wekas(r2, n, k, weka):
    """Weka 3.8's ``RegressionAnalysis.calculateAdjRSquared(r2, n, k)`` (its source, compiled and
    run), whose ``k`` counts the intercept: ``n_inputs = k - 1`` here."""
    from evalkit.measures._regression_formulas import adjusted_r_squared

    assert adjusted_r_squared(r2, n, k - 1) == pytest.approx(weka, rel=1e-15)


def test_adjusted_r_squared_of_the_object_by_hand_and_where_it_is_undefined():
    y, p = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [1.1, 1.9, 3.2, 3.8, 5.3, 5.9]
    metrics = RegressionMetrics.from_predictions(y, p)
    r2 = 1 - sum((a - b) ** 2 for a, b in zip(y, p)) / sum((a - 3.5) ** 2 for a in y)
    assert metrics.get_adjusted_r_squared(2) == pytest.approx(1 - (1 - r2) * 5 / 3, rel=1e-12)
    assert math.isnan(metrics.get_adjusted_r_squared(5)) and math.isnan(RegressionMetrics.from_predictions([1.0, 2.0], [1.0, 2.0]).get_adjusted_r_squared())
    two = RegressionMetrics.from_predictions(np.column_stack([y, y[::-1]]), np.column_stack([p, p[::-1]]))
    assert two.get_adjusted_r_squared(2, "raw_values") == pytest.approx([1 - (1 - r2) * 5 / 3] * 2, rel=1e-12)
