"""Weighted true negatives (and the other cells formed from margins) against exact fractions.

``tn = total - row - column + diagonal`` cancels when the weights span many magnitudes: with
``sample_weight=[1e16, 1]`` the small class's one true negative is below the rounding of the
total, and specificity, MCC and kappa came out undefined. Every cell here is compared with
the same cell summed in ``fractions.Fraction``.
"""

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from evalkit import ConfusionMatrix, Evaluation, MajorityClass, by_group, kappa_m
from evalkit import metrics as sk_face
from evalkit.formulas import (
    diagonal_correlation_coefficient,
    matrix_cohen_kappa,
    matrix_matthews_correlation_coefficient,
)

ACCURATE = 2.0**-44
"""Relative error allowed against the exact value: a float sum of a few cells (never a
difference of sums that cancels, which is off by a factor of 1e16 or gives 0)."""


def exact_cells(y_true, y_pred, weight, m):
    """``(tp, fp, fn, tn)`` per class as Fractions, summed sample by sample."""
    cells = [[Fraction(0)] * 4 for _ in range(m)]
    for actual, predicted, w in zip(y_true, y_pred, weight):
        w = Fraction(w)
        for k in range(m):
            cells[k][_kind(actual == k, predicted == k)] += w
    return [tuple(row) for row in cells]


def _kind(is_actual, is_predicted):
    return {(True, True): 0, (False, True): 1, (True, False): 2, (False, False): 3}[(is_actual, is_predicted)]


def exact_kappa_mcc(y_true, y_pred, weight, m):
    """Cohen's kappa and the multi-class MCC of the weighted matrix, exactly (MCC as its square, signed)."""
    x = [[Fraction(0)] * m for _ in range(m)]
    for actual, predicted, w in zip(y_true, y_pred, weight):
        x[actual][predicted] += Fraction(w)
    rows, columns = [sum(row) for row in x], [sum(column) for column in zip(*x)]
    total, correct = sum(rows), sum(x[k][k] for k in range(m))
    chance = sum(a * p for a, p in zip(rows, columns))
    kappa = (total * correct - chance) / (total * total - chance) if total * total != chance else None
    left, right = total * total - sum(p * p for p in columns), total * total - sum(a * a for a in rows)
    mcc = None if not left or not right else (total * correct - chance) ** 2 / (left * right) * (1 if total * correct >= chance else -1)
    return kappa, mcc


def close_to(value, exact, tolerance=ACCURATE):
    """``value`` within ``tolerance`` of the exact number, relatively (an exact 0 read as 0)."""
    if exact == 0:
        return value == 0
    return abs(Fraction(value) - exact) <= tolerance * abs(exact)


def close_to_mcc(value, signed_square):
    return close_to(math.copysign(value * value, value), signed_square, 4 * ACCURATE)


PERFECT = ([0, 1], [0, 1], [1e16, 1.0])
"""A perfect prediction whose small class is below the rounding of the total."""


def test_a_perfect_prediction_of_weights_1e16_and_1_has_its_true_negatives():
    cm = ConfusionMatrix.from_predictions(*PERFECT[:2], sample_weight=PERFECT[2])
    assert cm.cells().tn.tolist() == [1.0, 1e16]
    assert [cm.get_true_negative(k) for k in range(2)] == [1.0, 1e16]
    assert [metrics.get_specificity() for metrics in cm.class_metrics()] == [1.0, 1.0]
    assert [metrics.get_matthews_correlation_coefficient() for metrics in cm.class_metrics()] == [1.0, 1.0]
    assert cm.per_class("specificity").tolist() == [1.0, 1.0]
    assert cm.average("specificity", "macro", undefined="nan") == 1.0
    assert cm.average("cohen_kappa", "macro", undefined="nan") == 1.0
    assert cm.get_matthews_correlation_coefficient() == 1.0
    assert cm.get_cohen_kappa() == 1.0


def test_the_scikit_learn_face_reads_the_perfect_prediction_as_perfect():
    y_true, y_pred, weight = PERFECT
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing undefined to warn about
        assert sk_face.matthews_corrcoef(y_true, y_pred, sample_weight=weight) == 1.0
        assert sk_face.cohen_kappa_score(y_true, y_pred, sample_weight=weight) == 1.0
        for weights in ("linear", "quadratic"):
            assert sk_face.cohen_kappa_score(y_true, y_pred, sample_weight=weight, weights=weights) == 1.0
        assert sk_face.multilabel_confusion_matrix(y_true, y_pred, sample_weight=weight).tolist() == [[[1.0, 0.0], [0.0, 1e16]], [[1e16, 0.0], [0.0, 1.0]]]
    evaluation = Evaluation.from_labels(y_true, y_pred, sample_weight=weight)
    assert evaluation.class_cells.tn.tolist() == [1.0, 1e16]
    assert evaluation.get_matthews_correlation_coefficient() == 1.0
    assert evaluation.get_cohen_kappa() == 1.0


def test_the_whole_matrix_formulas_of_a_weighted_table_do_not_cancel():
    table = np.array([[1e16, 0.0], [0.0, 1.0]])
    assert matrix_cohen_kappa(table) == 1.0
    assert matrix_matthews_correlation_coefficient(table) == 1.0
    assert diagonal_correlation_coefficient(table).tolist() == [1.0, 1.0]


def test_a_false_positive_below_the_rounding_of_its_column_is_kept():
    cm = ConfusionMatrix.from_predictions([0, 1], [0, 0], sample_weight=[1e16, 1.0])
    cells = cm.cells()
    assert (cells.fp.tolist(), cells.fn.tolist(), cells.tn.tolist()) == ([1.0, 0.0], [0.0, 1.0], [0.0, 1e16])
    assert (cm.get_false_positive(0), cm.get_false_negative(1)) == (1.0, 1.0)
    assert cm.per_class("precision").tolist()[0] == 1e16 / (1e16 + 1.0)


def test_weighted_indicators_and_label_sets_keep_the_small_labels_true_negatives():
    indicators = np.array([[1, 0], [0, 1]])
    for evaluation in (Evaluation.from_indicators(indicators, indicators, sample_weight=[1e16, 1.0]),
                       Evaluation.from_label_sets([{0}, {1}], [{0}, {1}], labels=[0, 1], sample_weight=[1e16, 1.0])):  # fmt: skip
        assert evaluation.class_cells.tn.tolist() == [1.0, 1e16]
        assert evaluation.per_class("specificity").tolist() == [1.0, 1.0]
    assert sk_face.multilabel_confusion_matrix(indicators, indicators, sample_weight=[1e16, 1.0])[0, 0, 0] == 1.0


def test_ordinal_cells_of_weights_of_many_magnitudes():
    # "> 0": the level-0 sample is its one true negative; "> 1": the levels 0 and 1 are, 1e16 + 1
    evaluation = Evaluation.from_ordinal([0, 1, 2], [0, 1, 2], [0, 1, 2], sample_weight=[1.0, 1e16, 1e16])
    cells = evaluation.class_cells
    assert (cells.tp.tolist(), cells.tn.tolist()) == ([2e16, 1e16], [1.0, 1e16])
    evaluation = Evaluation.from_ordinal([0, 2, 2], [1, 2, 2], [0, 1, 2], sample_weight=[1.0, 1e16, 1e16])
    assert evaluation.class_cells.fp.tolist() == [1.0, 0.0]


def test_groups_kappa_m_and_weighted_streams_of_weights_1e16_and_1():
    groups = by_group([0, 1, 0, 1], [0, 1, 0, 1], ["a", "a", "b", "b"], sample_weight=[1e16, 1.0, 1e16, 1.0])
    for name in ("cohen_kappa", "matthews_correlation_coefficient"):
        assert list(groups.values(name).values()) == [1.0, 1.0, 1.0]  # a, b and overall
    assert list(groups.values("specificity", label=0).values()) == [1.0, 1.0, 1.0]
    cm = ConfusionMatrix.from_predictions(*PERFECT[:2], sample_weight=PERFECT[2])
    assert cm.get_kappa_m() == 1.0  # (correct - n_m) / (n - n_m) = 1 / 1
    assert Evaluation.from_labels(*PERFECT[:2], sample_weight=PERFECT[2]).get_kappa_m() == 1.0
    majority = MajorityClass(ConfusionMatrix([0, 1]))
    majority.update([0, 1], sample_weight=[1e16, 1.0])  # wrong on the sample of weight 1 only
    assert kappa_m(cm, majority) == 1.0
    stream = ConfusionMatrix([0, 1])  # one weighted sample at a time (float counts keep no tally: every read sums the table)
    stream.update([0], [0], sample_weight=[1e16])
    stream.update([1], [1], sample_weight=[1.0])
    assert (stream.average("specificity", "macro", undefined="nan"), stream.get_matthews_correlation_coefficient()) == (1.0, 1.0)


def test_whole_counts_keep_their_exact_margins():
    # the integer paths are untouched: the tally of a stream, the matrix's margins
    cm = ConfusionMatrix([0, 1])
    for actual, predicted in [(0, 0), (1, 1), (0, 1), (1, 1)]:
        cm.update([actual], [predicted])
    assert cm.cells().tn.tolist() == [2, 1] and cm.cells().tn.dtype.kind == "i"
    assert cm.average("specificity", "macro") == (1.0 + 0.5) / 2
    big = ConfusionMatrix.from_array(np.array([[2**62, 0], [0, 1]]))  # row + column of class 0: 2**63, beyond int64
    assert [big.get_true_negative(k) for k in range(2)] == [1, 2**62] and big.get_matthews_correlation_coefficient() == 1.0


# --------------------------------------------------------------------------------------------
# every cell of any weighted matrix against fractions

magnitudes = st.builds(lambda mantissa, exponent: math.ldexp(mantissa, exponent), st.floats(0.5, 1.0, exclude_max=True), st.integers(-40, 60))
weighted_samples = st.integers(1, 12).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 3), min_size=n, max_size=n), st.lists(st.integers(0, 3), min_size=n, max_size=n), st.lists(magnitudes, min_size=n, max_size=n)
    )
)


@given(weighted_samples)
@example(([0, 0, 0, 0, 1, 0, 0, 0, 2, 0], [1, 0, 0, 0, 0, 0, 0, 0, 2, 0], [1413.719852220239, 0.5, 0.5, 0.5, 1408.0, 0.5, 0.5, 0.5, 1408.0, 0.5]))
@example(([1, 0, 2, 0, 1, 0], [2, 1, 2, 1, 2, 1], [4096.0, 0.5, 4096.0, 0.5, 0.8734291693840905, 0.5]))
def test_weighted_cells_of_mixed_magnitudes_equal_their_exact_sums(data):
    """(The examples, which fresh runs of Hypothesis found: an agreement so near chance that
    kappa's float numerator cancelled, off in its 13th digit, though no class holds half of the
    total; and a kappa of -4e-8 read from a cell's rounded sum, 4096 + 0.873..., where the
    exact sum of its weights gives the kappa to its last bit.)"""
    y_true, y_pred, weight = data
    m = 4
    exact = exact_cells(y_true, y_pred, weight, m)
    cm = ConfusionMatrix.from_predictions(y_true, y_pred, labels=range(m), sample_weight=weight)
    evaluation = Evaluation.from_labels(y_true, y_pred, labels=range(m), sample_weight=weight)
    for cells in (cm.cells(), evaluation.class_cells):
        for k in range(m):
            got = tuple(float(getattr(cells, name)[k]) for name in ("tp", "fp", "fn", "tn"))
            assert all(close_to(value, reference) for value, reference in zip(got, exact[k])), (k, got, [float(v) for v in exact[k]])
    for k in range(m):
        assert close_to(cm.get_true_negative(k), exact[k][3])
        assert close_to(cm.get_false_positive(k), exact[k][1])
        assert close_to(cm.get_false_negative(k), exact[k][2])
    kappa, mcc = exact_kappa_mcc(y_true, y_pred, weight, m)
    for source in (cm, evaluation):
        assert math.isnan(source.get_cohen_kappa()) if kappa is None else close_to(source.get_cohen_kappa(), kappa)
        assert math.isnan(source.get_matthews_correlation_coefficient()) if mcc is None else close_to_mcc(source.get_matthews_correlation_coefficient(), mcc)


@given(weighted_samples)
def test_weighted_indicator_cells_of_mixed_magnitudes_equal_their_exact_sums(data):
    y_true, y_pred, weight = data
    m = 4
    actual, predicted = np.eye(m, dtype=int)[y_true], np.eye(m, dtype=int)[y_pred]
    exact = exact_cells(y_true, y_pred, weight, m)
    sets = [{label} for label in y_true], [{label} for label in y_pred]
    for evaluation in (Evaluation.from_indicators(actual, predicted, sample_weight=weight),
                       Evaluation.from_label_sets(*sets, labels=range(m), sample_weight=weight)):  # fmt: skip
        cells = evaluation.class_cells
        for k in range(m):
            got = tuple(float(getattr(cells, name)[k]) for name in ("tp", "fp", "fn", "tn"))
            assert all(close_to(value, reference) for value, reference in zip(got, exact[k])), (k, got)


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_weighted_kappa_of_a_matrix_one_class_dominates_is_its_exact_value(weights):
    """Float counts one class dominates take exact sums (N² - Σ r c cancels there in floats);
    the others keep float sums, as fast as before. Reference: the definition in fractions."""
    y, p, w = [0, 0, 1, 1, 2, 2], [0, 1, 1, 2, 2, 0], [1e16, 1.0, 3.0, 0.5, 2.0, 0.25]
    cm = ConfusionMatrix.from_predictions(y, p, sample_weight=w)
    counts = [[Fraction(0)] * 3 for _ in range(3)]
    for a, b, weight in zip(y, p, w):
        counts[a][b] += Fraction(weight)
    rows, columns = [sum(row) for row in counts], [sum(counts[i][j] for i in range(3)) for j in range(3)]
    total = sum(rows)

    def cost(i, j):
        return (i != j) if weights is None else abs(i - j) if weights == "linear" else (i - j) ** 2

    observed = sum(cost(i, j) * counts[i][j] for i in range(3) for j in range(3))
    expected = sum(cost(i, j) * rows[i] * columns[j] for i in range(3) for j in range(3))
    assert cm.get_cohen_kappa(weights=weights) == pytest.approx(float(1 - total * observed / expected), rel=1e-14)
