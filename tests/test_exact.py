"""Counts that are exact or refused, labels that keep their identity, threads that lose nothing,
and memory bounded by counts."""

import json
import math
import subprocess
import sys
import threading
import tracemalloc
from decimal import Decimal, getcontext, localcontext
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from evalkit import ClassificationMetrics, ConfusionMatrix, Evaluation, Stats, formulas
from evalkit import metrics as ek
from evalkit.cli import main
from evalkit.exceptions import (
    CountOverflowError,
    InvalidCountsError,
    MatrixSizeError,
    MixedLabelTypesError,
)
from evalkit.formulas import exact_ratio_sqrt
from evalkit.io._report import build_report

MAX = 2**63 - 1


# --------------------------------------------------------------------------------------------
# counts near 2**63: exact or refused


def test_a_total_beyond_int64_is_refused_not_wrapped():
    with pytest.raises(CountOverflowError, match="2\\*\\*63 - 1"):
        ConfusionMatrix.from_array([[2**62] * 2] * 2)  # it reported a total of 0
    cm = ConfusionMatrix.from_array([[MAX - 1, 0], [0, 0]])
    cm.inc(1, 1)
    assert cm.get_total_items() == MAX
    with pytest.raises(CountOverflowError):
        cm.inc(0, 0)
    with pytest.raises(CountOverflowError):
        cm.update([0], [1])
    with pytest.raises(CountOverflowError):
        cm + ConfusionMatrix.from_array([[0, 1], [0, 0]])
    with pytest.raises(CountOverflowError):
        cm += ConfusionMatrix.from_array([[0, 1], [0, 0]])
    assert cm.get_total_items() == MAX and cm.to_array().tolist() == [[MAX - 1, 0], [0, 1]]  # nothing was added


@pytest.mark.parametrize("count", [10**400, 2**64, float("inf"), float("nan")])
def test_huge_or_non_finite_counts_are_clear_errors(count):
    with pytest.raises(InvalidCountsError):
        ConfusionMatrix.from_array([[1, count], [0, 1]])
    with pytest.raises(InvalidCountsError):
        ClassificationMetrics.from_counts(tp=count, fp=1, fn=1, tn=1)


def test_weights_whose_total_passes_int64_are_refused():
    with pytest.raises(CountOverflowError):
        ConfusionMatrix.from_predictions([0, 1], [0, 1], sample_weight=[2**62, 2**62])
    big = ConfusionMatrix.from_predictions([0, 1, 1], [0, 1, 1], sample_weight=[2**60, 2**60, 1])  # exact beyond 2**53
    assert big.to_array().tolist() == [[2**60, 0], [0, 2**60 + 1]]


def exact_kappa(matrix):
    """Cohen's kappa from its definition, p_o and p_e, in exact fractions."""
    x = [[Fraction(v) for v in row] for row in matrix]
    n = sum(map(sum, x))
    if n == 0:
        return None
    observed = sum(x[i][i] for i in range(len(x))) / n
    expected = sum(sum(x[i]) * sum(row[i] for row in x) for i in range(len(x))) / (n * n)
    return None if expected == 1 else (observed - expected) / (1 - expected)


def exact_mcc(matrix):
    """Gorodkin's R_K as the Pearson correlation of the one-hot indicators, with 60-digit decimals."""
    m = len(matrix)
    s = sum(map(sum, matrix))
    c = sum(matrix[i][i] for i in range(m))
    t = [sum(matrix[i]) for i in range(m)]
    p = [sum(row[i] for row in matrix) for i in range(m)]
    covariance = c * s - sum(a * b for a, b in zip(p, t))
    variance = (s * s - sum(a * a for a in p)) * (s * s - sum(a * a for a in t))
    if variance == 0:
        return None
    with localcontext() as context:
        context.prec = 60
        return Decimal(covariance) / Decimal(variance).sqrt()


def test_kappa_and_mcc_of_a_matrix_with_large_counts_are_exact():
    matrix = [[2**53, 2], [2, 1]]  # they were 0.0: the products of float64 counts cancelled
    cm = ConfusionMatrix.from_array(matrix)
    third = Fraction(2**53 - 4, 3 * 2**53 + 6)
    assert math.isclose(cm.get_cohen_kappa(), float(third), rel_tol=1e-15)
    assert math.isclose(cm.get_matthews_correlation_coefficient(), float(third), rel_tol=1e-15)
    assert math.isclose(cm.get_cohen_kappa(), 1 / 3, rel_tol=1e-12)
    assert math.isclose(ClassificationMetrics(cm).get_matthews_correlation_coefficient(), 1 / 3, rel_tol=1e-12)
    ev = Evaluation.from_labels([0, 0, 1, 1, 0], [0, 1, 0, 1, 0], sample_weight=[2**53 - 1, 2, 2, 1, 1])
    assert math.isclose(ev.get_cohen_kappa(), float(third), rel_tol=1e-15)


large_matrices = st.integers(2, 4).flatmap(
    lambda m: hnp.arrays(np.int64, (m, m), elements=st.one_of(st.integers(0, 3), st.integers(0, 2**62 // (m * m))))
)


@given(large_matrices)
def test_whole_matrix_and_per_class_correlations_are_exact_to_1e_12_up_to_2_62(matrix):
    cm = ConfusionMatrix.from_array(matrix)
    rows = matrix.tolist()
    kappa, mcc = exact_kappa(rows), exact_mcc(rows)
    assert (kappa is None and math.isnan(cm.get_cohen_kappa())) or math.isclose(cm.get_cohen_kappa(), float(kappa), rel_tol=1e-12, abs_tol=1e-15)
    assert (mcc is None and math.isnan(cm.get_matthews_correlation_coefficient())) or math.isclose(
        cm.get_matthews_correlation_coefficient(), float(mcc), rel_tol=1e-12, abs_tol=1e-15)
    m = len(rows)
    diagonal = formulas.diagonal_correlation_coefficient(matrix)
    one_vs_rest = cm.per_class("matthews_correlation_coefficient")
    for k in range(m):
        tp = rows[k][k]
        fp = sum(rows[i][k] for i in range(m)) - tp
        fn = sum(rows[k]) - tp
        for tn, value in ((sum(rows[h][h] for h in range(m)) - tp, diagonal[k]),
                          (sum(map(sum, rows)) - tp - fp - fn, one_vs_rest[k])):  # fmt: skip
            reference = exact_mcc([[tp, fn], [fp, tn]])
            assert (reference is None and math.isnan(value)) or math.isclose(value, float(reference), rel_tol=1e-12, abs_tol=1e-15)


counts_of_every_size = st.one_of(st.just(0), st.integers(0, 5), st.integers(2**53 - 3, 2**53 + 3), st.integers(0, 2**62))


@given(st.tuples(*[counts_of_every_size for _ in range(4)]))
def test_the_scalar_getters_equal_the_vectorised_formulas_on_large_counts(counts):
    tp, fp, fn, tn = counts
    metrics = ClassificationMetrics.from_counts(tp=tp, fp=fp, fn=fn, tn=tn)
    arrays = {name: np.array([value]) for name, value in zip(("tp", "fp", "fn", "tn"), counts)}
    for name in formulas.measure_names():
        value = metrics.get_f_score(1.0) if name == "f_score" else getattr(metrics, f"get_{name}")()
        vector = formulas.get_measure(name)(**arrays)[0]
        assert (math.isnan(value) and math.isnan(vector)) or value == vector, name
        assert type(value) is float


@given(st.tuples(*[st.one_of(st.just(0.0), st.floats(0, 1e6)) for _ in range(4)]))
def test_the_scalar_getters_equal_the_vectorised_formulas_on_float_counts(counts):
    tp, fp, fn, tn = counts
    metrics = ClassificationMetrics.from_counts(tp=tp, fp=fp, fn=fn, tn=tn)
    arrays = {name: np.array([value]) for name, value in zip(("tp", "fp", "fn", "tn"), counts)}
    for name in formulas.measure_names():
        value = metrics.get_f_score(0.5) if name == "f_score" else getattr(metrics, f"get_{name}")()
        vector = formulas.get_measure(name)(**arrays, **({"beta": 0.5} if name == "f_score" else {}))[0]
        assert (math.isnan(value) and math.isnan(vector)) or value == vector, name


# --------------------------------------------------------------------------------------------
# labels keep their identity


@given(st.lists(st.tuples(st.floats(allow_nan=False, allow_infinity=False), st.integers(0, 39)), max_size=60), st.integers(0, 60),
       st.sampled_from([1, 4, 40]))  # fmt: skip
def test_float_sums_are_exact_whatever_the_magnitudes_and_the_batching(values_and_slots, cut, size):
    """Sums of floats per slot, from subnormals to 1.7e308, equal the sums of the same values as
    fractions; cut into two batches and merged they are the same limbs; read back as floats they
    are the fractions correctly rounded (inf past float64's range). One slot, a few, and many
    over a wide range of exponents (its cells counted as the exponents present, not all between)."""
    from evalkit._engine._exact import FLOAT_OFFSET, add_limbs, float_limbs, limbs_to_floats, limbs_to_ints

    values = np.array([value for value, _ in values_and_slots], dtype=np.float64)
    slots = np.array([slot % size for _, slot in values_and_slots], dtype=np.intp)
    limbs = float_limbs(slots, values, size)
    exact = [sum((Fraction(float(v)) for v, s in zip(values, slots) if s == k), Fraction(0)) for k in range(size)]
    assert limbs_to_ints(limbs) == [int(total * 2**FLOAT_OFFSET) for total in exact]
    cut = min(cut, len(values))
    merged = add_limbs(float_limbs(slots[:cut], values[:cut], size), float_limbs(slots[cut:], values[cut:], size))
    assert limbs_to_ints(merged) == limbs_to_ints(limbs)
    for got, total in zip(limbs_to_floats(limbs).tolist(), exact):
        try:
            want = float(total)
        except OverflowError:
            want = math.inf if total > 0 else -math.inf
        assert got == want, (got, total)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2), st.floats(0, 1e12, allow_subnormal=False)), min_size=1, max_size=80),
       st.integers(0, 80), st.booleans())  # fmt: skip
def test_a_float_weighted_matrix_is_the_same_however_it_is_counted(samples, cut, text):
    """Float weights counted at once, in two parts merged, by ``update`` (a table, or a few
    cells), by ``update_indices`` and from text labels give one matrix: each cell the exact sum
    of its weights correctly rounded (``math.fsum``), as scikit-learn's order of summing is not."""
    names = np.array(["a", "b", "c"])
    y, p = (np.array([sample[k] for sample in samples]) for k in (0, 1))
    w = np.array([sample[2] for sample in samples])
    cut = min(cut, len(samples))
    y_in, p_in = (names[y], names[p]) if text else (y, p)
    labels = list(names) if text else [0, 1, 2]
    whole = ConfusionMatrix.from_predictions(y_in, p_in, labels, sample_weight=w)
    parts = ConfusionMatrix.from_predictions(y_in[:cut], p_in[:cut], labels, sample_weight=w[:cut]) + ConfusionMatrix.from_predictions(
        y_in[cut:], p_in[cut:], labels, sample_weight=w[cut:])
    updated, few, indexed = ConfusionMatrix(labels), ConfusionMatrix(labels), ConfusionMatrix(labels)
    updated.update(y_in, p_in, sample_weight=w)
    for start in range(0, len(samples), 3):
        few.update(y_in[start : start + 3], p_in[start : start + 3], sample_weight=w[start : start + 3])
    indexed.update_indices(y, p, sample_weight=w)
    assert whole == parts == updated == few == indexed
    sums = [[math.fsum(w[(y == row) & (p == column)]) for column in range(3)] for row in range(3)]
    assert whole.to_array().tolist() == sums
    if w.any():  # (weights that are all 0 the face refuses, as scikit-learn does)
        assert ek.confusion_matrix(y_in, p_in, labels=labels, sample_weight=w).tolist() == sums


@given(hnp.arrays(np.int64, st.tuples(st.integers(0, 4), st.just(70)), elements=st.integers(-(2**62), 2**62)),
       st.lists(st.integers(-(2**2238), 2**2238), max_size=5))  # fmt: skip
def test_limbs_and_integers_convert_both_ways_exactly(limbs, numbers):
    """Limbs of any int64 digits (carried or not, of any signs) read as the integer
    ``Σ limb_k 2**(32k)``; integers written as limbs read back as themselves."""
    from evalkit._engine._exact import LIMBS, ints_to_limbs, limbs_to_ints

    assert limbs.shape[1] == LIMBS
    assert limbs_to_ints(limbs) == [sum(int(limb) << (32 * k) for k, limb in enumerate(row)) for row in limbs.tolist()]
    assert limbs_to_ints(ints_to_limbs(numbers)) == numbers
    assert limbs_to_ints(ints_to_limbs(limbs_to_ints(limbs))) == limbs_to_ints(limbs)


def test_integer_ids_above_2_53_stay_distinct_everywhere(tmp_path):
    ids = [10**16, 10**16 + 1]
    for y_true, y_pred in ((ids, ids[::-1]), (np.array(ids), np.array(ids[::-1])), (np.array(ids), np.array([1e16, 1e16]))):
        cm = ConfusionMatrix.from_predictions(y_true, y_pred)
        assert cm.labels == tuple(ids) and all(type(label) is int for label in cm.labels)
        assert ConfusionMatrix.from_json(cm.to_json()).labels == tuple(ids)
        assert Evaluation.from_labels(y_true, y_pred).labels == tuple(ids)
    assert json.loads(ConfusionMatrix.from_predictions(ids, ids).to_json())["labels"] == ids
    table = tmp_path / "ids.csv"
    table.write_text(f"actual,predicted\n{ids[0]},{ids[0]}\n{ids[1]},{ids[0]}\n", encoding="utf-8")
    output = tmp_path / "report.json"
    assert main(["report", str(table), "--format", "json", "--output", str(output)]) == 0
    assert sorted(json.loads(output.read_text())["classes"]) == [str(i) for i in ids]


@pytest.mark.parametrize(("y_true", "y_pred"), [
    ([1, True], [1, 1]),
    ([True, False], [1, 0]),
    (np.array([True, False]), np.array([1, 0])),
    (np.array([True, False]), np.array([1.0, 0.0])),
    ([1.0, 2.0], [True, True]),
])  # fmt: skip
def test_booleans_mixed_with_numbers_are_an_error(y_true, y_pred):
    with pytest.raises(MixedLabelTypesError, match="booleans"):
        ConfusionMatrix.from_predictions(y_true, y_pred)
    with pytest.raises(MixedLabelTypesError):
        Evaluation.from_label_sets([{label} for label in y_true], [{label} for label in y_pred])


def test_a_boolean_label_list_never_matches_numbers():
    with pytest.raises(MixedLabelTypesError):
        ConfusionMatrix.from_predictions([1, 0], [1, 1], labels=[False, True])
    with pytest.raises(MixedLabelTypesError):
        ConfusionMatrix.from_predictions([True], [False], labels=[0, 1])


@pytest.mark.parametrize("y_true", [[1, 2.0, 1.0], [1.0, 2, 1], [2.0, 1.0, 1]])
def test_one_and_one_point_zero_are_one_class_labelled_one_whichever_comes_first(y_true):
    cm = ConfusionMatrix.from_predictions(y_true, [1, 1, 2])
    assert cm.labels == (1, 2) and all(type(label) is int for label in cm.labels)
    assert cm.to_array().tolist() == [[1, 1], [1, 0]]
    assert Evaluation.from_label_sets([{v} for v in y_true], [{1}, {1}, {2}]).labels == (1, 2)


def test_floats_alone_stay_floats():
    assert ConfusionMatrix.from_predictions([0.0, 1.0], [1.0, 1.0]).labels == (0.0, 1.0)
    assert all(type(label) is float for label in ConfusionMatrix.from_predictions(np.array([0.5, 1.0]), np.array([1.0, 1.0])).labels)


# --------------------------------------------------------------------------------------------
# concurrency


def test_eight_threads_counting_into_one_matrix_lose_nothing():
    cm = ConfusionMatrix(range(3))
    rng = np.random.default_rng(0)
    batches = [(rng.integers(0, 3, 200), rng.integers(0, 3, 200)) for _ in range(8)]
    fixed = ConfusionMatrix(range(3))  # merged into with += by half of the threads
    other = ConfusionMatrix.from_array(np.ones((3, 3), dtype=np.int64))

    def work(k):
        for _ in range(300):
            cm.inc(k % 3, (k + 1) % 3)
        for y_true, y_pred in [batches[k]] * 20:
            cm.update(y_true, y_pred)
        for _ in range(20):
            cm.update([5 + k], [5 + k], grow=True)  # a new label per thread, growing the table meanwhile
        if k % 2:
            for _ in range(10):
                fixed.__iadd__(other)  # what ``fixed += other`` does, on the matrix all threads share

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    expected = 8 * 300 + 8 * 20 * 200 + 8 * 20
    assert cm.get_total_items() == expected == int(cm.to_array().sum())
    assert fixed.to_array().tolist() == [[40] * 3] * 3
    assert sorted(cm.labels) == [0, 1, 2, *range(5, 13)]
    for k in range(8):
        assert cm.get(cm.index_of(5 + k), cm.index_of(5 + k)) == 20


# --------------------------------------------------------------------------------------------
# memory bounded by counts


def peak_bytes(work):
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.slow
def test_a_single_label_evaluation_and_report_of_20000_classes_stay_small(tmp_path):
    rng = np.random.default_rng(1)
    y_true = rng.integers(0, 20_000, 200_000)
    y_pred = np.where(rng.random(200_000) < 0.7, y_true, rng.integers(0, 20_000, 200_000))

    def evaluate():
        ev = Evaluation.from_labels(y_true, y_pred)
        build_report(ev).to_text()
        ev.get_cohen_kappa()

    assert peak_bytes(evaluate) < 100 * 2**20  # a dense table alone would be 3.2 GB
    table = tmp_path / "many.csv"
    table.write_text("actual,predicted\n" + "\n".join(f"c{a},c{p}" for a, p in zip(y_true, y_pred)), encoding="utf-8")
    out = tmp_path / "report.txt"
    script = (  # the command in a process of its own, which reports its peak resident memory (interpreter included)
        "import re; from evalkit.cli import main; "
        f"status = main(['report', {str(table)!r}, '--output', {str(out)!r}]); "
        # the process's own peak (VmHWM): ru_maxrss would keep the peak of the forked copy of this test process, before exec
        "print(status, re.search(r'VmHWM:\\s*(\\d+)', open('/proc/self/status').read())[1])"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    status, kilobytes = map(int, result.stdout.split())
    assert status == 0 and kilobytes < 500 * 1024  # it took 6.3 GB with a dense table
    assert "20000 classes" in out.read_text(encoding="utf-8")


def test_a_dense_matrix_beyond_its_size_limit_is_refused_before_allocation():
    labels = np.arange(20_000)
    peak = peak_bytes(lambda: pytest.raises(MatrixSizeError, ConfusionMatrix.from_predictions, labels, labels))
    assert peak < 10 * 2**20
    with pytest.raises(MatrixSizeError, match=r"400,000,000 cells.*Evaluation.from_labels"):
        ConfusionMatrix.from_predictions([str(label) for label in labels], [str(label) for label in labels])
    with pytest.raises(MatrixSizeError):
        ConfusionMatrix(range(10_000))
    limit = ConfusionMatrix.max_cells
    try:
        ConfusionMatrix.max_cells = 10_001**2  # the caller may raise the limit
        assert ConfusionMatrix(range(10_000)).get_class_count() == 10_000
    finally:
        ConfusionMatrix.max_cells = limit


@pytest.mark.parametrize("n", [3, 600])  # the Python-integer path and ExactSums'
def test_exact_sums_per_slot_refuse_values_that_are_not_finite(n):
    from evalkit._engine._exact import exact_bincount

    values = np.ones(n)
    values[1] = np.nan
    with pytest.raises(CountOverflowError, match="finite"):
        exact_bincount(np.zeros(n, dtype=np.intp), values, 1)


Y_TRUE = [0, 1, 0, 1, 1, 0, 2, 2, 1, 0]


Y_PRED = [0, 1, 1, 1, 0, 0, 2, 1, 1, 2]


SCORES = [0.1, 0.9, 0.4, 0.35, 0.8, 0.6, 0.3, 0.7, 0.75, 0.2]


BINARY = [0, 1, 0, 1, 1, 0, 1, 0, 1, 0]


def scale_free_values(weight):
    """Scale-free values of every kind: curve areas, whole-matrix MCC and kappa, macro
    informedness and markedness, a getter, set-wise averages."""
    evaluation = Evaluation.from_labels(Y_TRUE, Y_PRED, sample_weight=weight)
    matrix = ConfusionMatrix.from_predictions(Y_TRUE, Y_PRED, sample_weight=weight)
    return [
        ek.roc_auc_score(BINARY, SCORES, sample_weight=weight),
        ek.average_precision_score(BINARY, SCORES, sample_weight=weight),
        ek.matthews_corrcoef(Y_TRUE, Y_PRED, sample_weight=weight),
        ek.cohen_kappa_score(Y_TRUE, Y_PRED, sample_weight=weight),
        ek.f1_score(Y_TRUE, Y_PRED, average="macro", sample_weight=weight),
        evaluation.average("informedness", "macro"),
        evaluation.average("markedness", "macro"),
        evaluation.average("matthews_correlation_coefficient", "weighted"),
        matrix.class_metrics()[1].get_matthews_correlation_coefficient(),
        matrix.class_metrics()[0].get_diagnostic_odds_ratio(),
        matrix.get_cohen_kappa(),
    ]


@settings(max_examples=80, deadline=None)
@given(st.integers(-300, 300), st.lists(st.floats(0.25, 4.0), min_size=10, max_size=10))
def test_uniformly_scaled_weights_do_not_change_a_scale_free_measure(exponent, weights):
    reference = scale_free_values(weights)
    scaled = scale_free_values([w * 10.0**exponent for w in weights])
    for ours, expected in zip(scaled, reference):
        assert math.isfinite(ours) == math.isfinite(expected) and (not math.isfinite(expected) or ours == pytest.approx(expected, rel=1e-9)), (
            exponent, ours, expected)  # fmt: skip


def test_the_examples_of_extreme_weights():
    y, s = [0, 1, 0, 1, 1, 0], [0.1, 0.9, 0.4, 0.35, 0.8, 0.6]
    for weight in (1e160, 1e-300, 1e300):
        assert ek.roc_auc_score(y, s, sample_weight=[weight] * 6) == pytest.approx(ek.roc_auc_score(y, s), rel=1e-12)
        assert ek.average_precision_score(y, s, sample_weight=[weight] * 6) == pytest.approx(ek.average_precision_score(y, s), rel=1e-12)


@settings(max_examples=400, deadline=None)
@given(st.integers(-(2**70), 2**70), st.integers(1, 2**80), st.integers(1, 2**80))
def test_a_ratio_to_a_square_root_is_correctly_rounded(numerator, left, right):
    getcontext().prec = 80
    exact = (Decimal(numerator * numerator) / Decimal(left * right)).sqrt()
    expected = float(exact) if numerator >= 0 else -float(exact)
    assert exact_ratio_sqrt(numerator, left, right) == expected


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(1, 10**6), min_size=2, max_size=8))
def test_a_perfect_matrix_has_an_mcc_of_exactly_one(diagonal):
    matrix = ConfusionMatrix.from_array(np.diag(diagonal))
    assert matrix.get_matthews_correlation_coefficient() == 1.0
    assert all(metrics.get_matthews_correlation_coefficient() == 1.0 for metrics in matrix.class_metrics())
    assert ek.matthews_corrcoef([k for k, count in enumerate(diagonal) for _ in range(min(count, 5))],
                                [k for k, count in enumerate(diagonal) for _ in range(min(count, 5))]) == 1.0  # fmt: skip


def test_getters_and_vectors_agree_to_the_bit_on_large_integer_counts():
    counts = {"tp": 2**61 + 3, "fp": 2**60 + 1, "fn": 2**59 + 7, "tn": 2**62 + 5}
    matrix = ConfusionMatrix.from_array(np.array([[counts["tp"], counts["fn"]], [counts["fp"], counts["tn"]]], dtype=object))
    first = matrix.class_metrics()[0]
    vector = Evaluation.from_labels([0], [0]).measure("matthews_correlation_coefficient")(
        tp=np.array([counts["tp"]], dtype=object), fp=np.array([counts["fp"]], dtype=object), fn=np.array([counts["fn"]], dtype=object),
        tn=np.array([counts["tn"]], dtype=object))  # fmt: skip
    exact = Fraction(counts["tp"] * counts["tn"] - counts["fp"] * counts["fn"]) ** 2 / (
        (counts["tp"] + counts["fp"]) * (counts["tp"] + counts["fn"]) * (counts["tn"] + counts["fp"]) * (counts["tn"] + counts["fn"]))
    getcontext().prec = 80
    expected = float((Decimal(exact.numerator) / Decimal(exact.denominator)).sqrt())
    assert first.get_matthews_correlation_coefficient() == vector[0] == expected


@settings(max_examples=200, deadline=None)
@given(st.floats(0, 1, allow_subnormal=False), st.integers(2, 9))
def test_the_mean_of_identical_values_is_that_value(value, n):
    metrics = [ClassificationMetrics(ConfusionMatrix.from_predictions([0, 1], [0, 1]), 0) for _ in range(n)]
    stats = ClassificationMetrics.average(metrics)
    assert isinstance(stats, Stats)
    summary = stats.summary("accuracy")
    assert summary.min <= summary.mean <= summary.max
    from evalkit.measures._averaging import summarize_rows

    row = summarize_rows([[value] * n])[0]
    assert row.min == row.mean == row.max == value and row.std == 0.0


def test_float_weights_over_a_thousand_classes_sum_only_the_cells_that_occur():
    """Exact float sums are made for the cells that occur, not for every one of a million cells."""
    from harness import peak_mib

    labels = np.random.default_rng(0).integers(0, 1000, 5000)
    weight = np.random.default_rng(1).random(5000)
    assert peak_mib(lambda: ConfusionMatrix.from_predictions(labels, np.roll(labels, 1), sample_weight=weight)) < 100
    matrix = ConfusionMatrix.from_predictions(labels, np.roll(labels, 1), sample_weight=weight)
    row, column = int(labels[7]), int(labels[6])
    chosen = (labels == row) & (np.roll(labels, 1) == column)
    assert matrix.to_array()[matrix.index_of(row), matrix.index_of(column)] == math.fsum(weight[chosen])


def test_a_few_float_weighted_samples_among_many_classes_add_their_cells_exactly():
    """A batch far smaller than the table adds only the cells it falls in (no table of every
    class pair): each cell is still the exact sum of its weights."""
    rng = np.random.default_rng(0)
    matrix, samples = ConfusionMatrix(list(range(100))), []
    for _ in range(50):
        batch = rng.integers(0, 100, 5), rng.integers(0, 100, 5), rng.random(5) * 10 ** rng.uniform(-20, 20, 5)
        matrix.update(*batch[:2], sample_weight=batch[2])
        samples += zip(*batch)
    assert matrix == ConfusionMatrix.from_predictions([s[0] for s in samples], [s[1] for s in samples], list(range(100)), sample_weight=[s[2] for s in samples])
    for actual, predicted, _ in samples[:10]:
        assert matrix.to_array()[actual, predicted] == math.fsum(w for a, p, w in samples if (a, p) == (actual, predicted))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(0, 3), st.floats(0, 4)), max_size=30),
       st.lists(st.integers(0, 3), min_size=6, max_size=6), st.lists(st.integers(0, 3), min_size=6, max_size=6), st.booleans())  # fmt: skip
def test_sums_per_key_recoded_equal_the_sums_of_the_recoded_keys(rows, first_steps, second_steps, weighted):
    """Codes renamed (a merge's or a batch's groups and classes joined) give the sums of the
    renamed keys counted afresh, whether the renaming keeps their order (increasing: the keys
    stay sorted, nothing summed again) or joins some; JSON rows read back the same table."""
    from evalkit._engine._keyed import KeyedSums

    first, second = np.array([r[0] for r in rows], dtype=np.int64), np.array([r[1] for r in rows], dtype=np.int64)
    values = np.array([[r[2], r[3] if weighted else r[2]] for r in rows], dtype=np.float64 if weighted else np.int64).reshape(-1, 2)
    table = KeyedSums.counted(first, second, values)
    for one, two in ((np.cumsum(first_steps) + np.arange(6), None), (None, np.cumsum(second_steps)), (np.cumsum(first_steps), np.cumsum(second_steps) + np.arange(6))):
        again = KeyedSums.counted(first if one is None else one[first], second if two is None else two[second], values)
        assert table.recoded(one, two).equals(again)
    assert table.read(table.document(), 0).equals(table)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2), st.sampled_from([0.0, 0.1, 0.2, 0.3, 1.0, 1e16])), min_size=1, max_size=20),
       st.integers(0, 20), st.booleans())  # fmt: skip
@example([(0, 0, 0.2), (0, 0, 0.0), (0, 0, 0.2)], 2, False)  # (the part taken away also begins the samples)
def test_float_weighted_single_label_and_ordinal_evaluations_merge_to_the_whole(samples, cut, ordinal):
    """The class cells of float-weighted single-label and ordinal evaluations follow from the
    exact sums of their pairs, as when counted at once: merged parts summed the parts' rounded
    cells, so A + B differed from the evaluation of both batches counted at once."""
    y, p, w = (np.array([sample[k] for sample in samples]) for k in range(3))
    cut = min(cut, len(samples))

    def make(rows: slice) -> Evaluation:
        build = Evaluation.from_ordinal if ordinal else Evaluation.from_labels
        return build(y[rows], p[rows], [0, 1, 2], sample_weight=w[rows])

    whole, first, second = make(slice(None)), make(slice(0, cut)), make(slice(cut, None))
    # (a part that also begins the samples takes the oldest away, as a window's oldest batch: what is left is the later samples)
    left = make(slice(len(samples) - cut, None)) if whole.sample_cells.starts_with(second.sample_cells) else first
    assert first + second == whole and (first + second) - second == left and Evaluation.from_json(whole.to_json()) == whole
    if not ordinal:
        tp = [math.fsum(w[(y == k) & (p == k)]) for k in range(3)]
        assert whole.class_cells.tp.tolist() == tp
