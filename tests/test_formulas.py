"""The formula layer: reference values, an independent implementation, metadata, undefined values."""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from reference import REFERENCE, as_float
from strategies import cells, close

from evalkit import formulas
from evalkit.exceptions import InvalidArgumentError, InvalidTypeError, UnknownMetricError

DEEP_NETTS = {"tp": 35, "fp": 10, "fn": 5, "tn": 50}
"""The binary reference case of shared/spec/deepnetts.md (TN=50, FP=10, FN=5, TP=35)."""



def test_registry_has_every_measure_of_the_issue():
    """The formula layer of issue 2 lists these measures; none may be missing."""
    required = {
        "accuracy", "error_rate", "precision", "recall", "specificity", "negative_predictive_value",
        "false_positive_rate", "false_negative_rate", "false_discovery_rate", "false_omission_rate",
        "f1_score", "f_score", "jaccard_index", "balanced_accuracy", "g_mean", "informedness",
        "markedness", "matthews_correlation_coefficient", "cohen_kappa", "fowlkes_mallows_index", "prevalence",
    }  # fmt: skip
    assert required <= set(formulas.measure_names())
    assert set(REFERENCE) == set(formulas.measure_names()), "every measure needs an independent reference"


@pytest.mark.parametrize(
    ("name", "expected"),
    [  # shared/spec/deepnetts.md, reference values for TN=50, FP=10, FN=5, TP=35
        ("accuracy", 0.85),
        ("precision", 35 / 45),
        ("recall", 0.875),
        ("specificity", 50 / 60),
        ("f1_score", 70 / 85),
        ("false_positive_rate", 10 / 60),
        ("false_negative_rate", 0.125),
        ("false_discovery_rate", 10 / 45),
        ("matthews_correlation_coefficient", 0.697518),
    ],
)
def test_deep_netts_reference_values(name, expected):
    value = formulas.get_measure(name)(**DEEP_NETTS)
    assert value == pytest.approx(expected, abs=5e-7)


@pytest.mark.parametrize("name", sorted(REFERENCE))
@given(c=cells)
def test_each_measure_matches_the_independent_reference(name, c):
    value = formulas.get_measure(name)(**c)
    assert isinstance(value, float)
    assert close(value, as_float(REFERENCE[name](c["tp"], c["fp"], c["fn"], c["tn"])))


@given(c=cells, beta=st.sampled_from([Fraction(1, 4), Fraction(1, 2), Fraction(1), Fraction(3, 2), Fraction(2), Fraction(7)]))
def test_f_score_accepts_any_positive_beta(c, beta):
    value = formulas.f_score(**c, beta=float(beta))
    assert close(value, as_float(REFERENCE["f_score"](c["tp"], c["fp"], c["fn"], c["tn"], beta)))


@pytest.mark.parametrize("beta", [-1, -math.inf, math.nan])
def test_f_score_rejects_a_negative_or_nan_beta(beta):
    with pytest.raises(InvalidArgumentError, match="'beta'"):
        formulas.f_score(**DEEP_NETTS, beta=beta)


@given(cells)
def test_beta_zero_is_precision_and_beta_infinity_is_recall_as_in_scikit_learn(c):
    for beta, twin in ((0, "precision"), (0.0, "precision"), (math.inf, "recall")):
        value, expected = formulas.f_score(**c, beta=beta), formulas.get_measure(twin)(**c)
        assert close(value, expected)
        arrays = {name: np.array([count, count]) for name, count in c.items()}
        np.testing.assert_array_equal(formulas.f_score(**arrays, beta=beta), formulas.get_measure(twin)(**arrays))
    assert formulas.get_measure("f_score").decomposition(beta=math.inf) == formulas.get_measure("recall").decomposition()


@given(st.integers(0, 2**70), st.integers(0, 2**70), st.integers(0, 2**70), st.sampled_from([1, 1.0, 2, 3.0]))
def test_a_whole_beta_squared_keeps_whole_counts_exact(tp, fp, fn, beta):
    """A whole beta² (F1, F2, F3) multiplies whole counts as integers: F-beta is the exact ratio
    correctly rounded at any size, and beta 1 is F1 to the bit (scalars and arrays)."""
    b2 = int(beta) ** 2
    numerator, denominator = (1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp
    expected = as_float(Fraction(numerator, denominator)) if denominator else math.nan
    found = formulas.f_score(tp=tp, fp=fp, fn=fn, tn=0, beta=beta)
    assert found == expected or (math.isnan(found) and math.isnan(expected))
    if beta == 1:
        assert found == formulas.f1_score(tp=tp, fp=fp, fn=fn, tn=0) or math.isnan(found)
    small = {"tp": np.array([tp % 2**30, 3]), "fp": np.array([fp % 2**30, 0]), "fn": np.array([fn % 2**30, 1]), "tn": np.array([0, 0])}
    if beta == 1:
        np.testing.assert_array_equal(formulas.f_score(**small, beta=beta), formulas.f1_score(**small))


def test_f_score_rejects_a_non_number_beta():
    with pytest.raises(InvalidTypeError, match="'beta'"):
        formulas.f_score(**DEEP_NETTS, beta="2")


@pytest.mark.parametrize("name", formulas.measure_names())
@given(c=cells)
def test_values_stay_within_the_declared_bounds(name, c):
    measure = formulas.MEASURES[name]
    value = measure(**c)
    low, high = measure.bounds
    assert math.isnan(value) or low <= value <= high


@pytest.mark.parametrize("name", [name for name, m in formulas.MEASURES.items() if m.decomposable])
@given(c=cells)
def test_decomposable_measures_equal_their_coefficient_form(name, c):
    """shared/spec/algebraic.md: decomposable means M = <a, v> / <b, v>."""
    measure = formulas.MEASURES[name]
    a, b = measure.decomposition()
    v = [c[key] for key in formulas.COUNT_NAMES]
    numerator, denominator = np.dot(a, v), np.dot(b, v)
    expected = math.nan if denominator == 0 else numerator / denominator
    assert close(measure(**c), expected)


def test_non_decomposable_measures_say_so():
    assert not formulas.MEASURES["matthews_correlation_coefficient"].decomposable
    with pytest.raises(InvalidArgumentError, match="not aggregation-decomposable"):
        formulas.MEASURES["balanced_accuracy"].decomposition()


@pytest.mark.parametrize("name", [name for name, m in formulas.MEASURES.items() if m.skew_invariant])
@given(c=cells, scale=st.integers(2, 50))
def test_skew_invariant_measures_ignore_the_class_ratio(name, c, scale):
    """Multiplying the negatives (fp, tn) by a constant changes no skew-invariant measure."""
    scaled = dict(c, fp=c["fp"] * scale, tn=c["tn"] * scale)
    assert close(formulas.MEASURES[name](**scaled), formulas.MEASURES[name](**c))


@pytest.mark.parametrize("name", formulas.measure_names())
def test_depends_on_tn_at_zero_tp_metadata_is_true_to_the_formula(name):
    measure = formulas.MEASURES[name]
    a = measure(tp=0, fp=3, fn=4, tn=5)
    b = measure(tp=0, fp=3, fn=4, tn=50)
    changed = not (a == b or (math.isnan(a) and math.isnan(b)))
    assert changed == measure.depends_on_tn_at_zero_tp


@pytest.mark.parametrize("name", formulas.measure_names())
def test_undefined_is_nan_never_an_exception(name):
    """With no samples at all every measure is 0/0: NaN, and no numpy warning (warnings are errors here)."""
    assert math.isnan(formulas.MEASURES[name](tp=0, fp=0, fn=0, tn=0))


@pytest.mark.parametrize("name", formulas.measure_names())
@given(rows=st.lists(cells, min_size=1, max_size=12))
def test_vectorised_call_equals_one_call_per_entry(name, rows):
    measure = formulas.MEASURES[name]
    arrays = {key: np.array([row[key] for row in rows]) for key in formulas.COUNT_NAMES}
    vector = measure(**arrays)
    assert isinstance(vector, np.ndarray) and vector.shape == (len(rows),)
    for value, row in zip(vector, rows):
        assert close(float(value), measure(**row))


def test_mcc_of_counts_of_1e10_is_exact_to_rounding():
    """int64 products would overflow at 1e20; the float64 path must stay exact to rounding."""
    c = {"tp": 7 * 10**10, "fp": 3 * 10**10 + 12345, "fn": 2 * 10**10 - 777, "tn": 9 * 10**10 + 1}
    exact = float(REFERENCE["matthews_correlation_coefficient"](*c.values()))
    assert formulas.matthews_correlation_coefficient(**c) == pytest.approx(exact, rel=1e-14)
    assert formulas.cohen_kappa(**c) == pytest.approx(float(REFERENCE["cohen_kappa"](*c.values())), rel=1e-12)


def test_counts_up_to_2_to_the_53_do_not_overflow():
    big = 2**53
    c = {"tp": big, "fp": big // 3, "fn": big // 5, "tn": big // 2}
    for name, reference in REFERENCE.items():
        assert close(formulas.get_measure(name)(**c), as_float(reference(*c.values()))), name


def test_results_are_floats_for_scalars_and_arrays_for_arrays():
    assert type(formulas.precision(**DEEP_NETTS)) is float
    out = formulas.precision(tp=np.array([1, 2]), fp=np.array([1, 0]), fn=0, tn=0)
    np.testing.assert_array_equal(out, [0.5, 1.0])


def test_aliases_resolve_to_the_registered_measure():
    assert formulas.get_measure("sensitivity") is formulas.MEASURES["recall"]
    assert formulas.get_measure("mcc") is formulas.MEASURES["matthews_correlation_coefficient"]
    assert formulas.canonical_name("hamming_loss") == "error_rate"


def test_unknown_measure_lists_the_known_ones():
    with pytest.raises(UnknownMetricError) as caught:
        formulas.get_measure("precison")
    assert isinstance(caught.value, KeyError)
    assert "'precison'" in str(caught.value) and "precision" in str(caught.value)


def test_register_and_unregister_a_user_measure():
    @formulas.register(name="frequency_bias", bounds=(0.0, math.inf), aliases=("bias_score",))
    def bias(*, tp, fp, fn, tn):
        """Frequency bias: predicted positives over actual positives."""
        tp, fp, fn = (np.asarray(x, dtype=float) for x in (tp, fp, fn))
        with np.errstate(divide="ignore", invalid="ignore"):
            return (tp + fp) / (tp + fn)

    try:
        assert formulas.get_measure("bias_score")(**DEEP_NETTS) == pytest.approx(45 / 40)
        assert formulas.MEASURES["frequency_bias"].description == "Frequency bias: predicted positives over actual positives."
        with pytest.raises(InvalidArgumentError, match="already registered"):
            formulas.register(bias, name="frequency_bias")
    finally:
        formulas.unregister("bias_score")
    assert "frequency_bias" not in formulas.MEASURES
    with pytest.raises(UnknownMetricError):
        formulas.get_measure("bias_score")


def test_a_measure_function_must_take_the_four_counts_by_keyword():
    with pytest.raises(InvalidTypeError, match="tp, fp, fn, tn"):
        formulas.get_measure(lambda tp, fp: tp / (tp + fp))


def test_unknown_parameter_of_a_measure_is_rejected():
    with pytest.raises(InvalidArgumentError, match="takes beta; got gamma"):
        formulas.check_measure_parameters(formulas.MEASURES["f_score"], {"gamma": 2})


def test_whole_matrix_measures_on_the_binary_case_equal_the_binary_formulas():
    matrix = [[50, 10], [5, 35]]  # rows actual (negative, positive)
    assert formulas.matrix_accuracy(matrix) == 0.85
    assert formulas.matrix_cohen_kappa(matrix) == pytest.approx(formulas.cohen_kappa(**DEEP_NETTS), rel=1e-14)
    mcc = formulas.matrix_matthews_correlation_coefficient(matrix)
    assert mcc == pytest.approx(formulas.matthews_correlation_coefficient(**DEEP_NETTS), rel=1e-14)


def test_whole_matrix_measures_are_nan_when_undefined():
    assert math.isnan(formulas.matrix_accuracy([[0, 0], [0, 0]]))
    assert math.isnan(formulas.matrix_cohen_kappa([[5, 0], [0, 0]]))
    assert math.isnan(formulas.matrix_matthews_correlation_coefficient([[5, 0], [0, 0]]))


@pytest.mark.parametrize("m", [3, 16, 17])
def test_the_diagonal_correlation_of_counts_beyond_int64_is_each_class_mcc_of_python_integers(m):
    """Row and column sums beyond 2**63 (int64 counts summed) stay exact integers: each class's
    value is the scalar formula's on Python integers."""
    from evalkit.measures._formulas import diagonal_correlation_coefficient

    counts = np.ones((m, m), dtype=np.int64)
    counts[0, 0] = counts[m - 1, 0] = counts[m - 2, 0] = 2**63 - 1
    table = [[int(value) for value in row] for row in counts.tolist()]
    correct = sum(table[k][k] for k in range(m))
    expected = []
    for k in range(m):  # (its "true negatives" are the other classes' correct samples)
        tp, row, column = table[k][k], sum(table[k]), sum(r[k] for r in table)
        expected.append(formulas.matthews_correlation_coefficient(tp=tp, fp=column - tp, fn=row - tp, tn=correct - tp))
    assert diagonal_correlation_coefficient(counts).tolist() == pytest.approx(expected, rel=1e-12)
