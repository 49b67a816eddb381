"""Soft labels (t-norms), ordinal data, cost matrices and hierarchies: shared/spec/algebraic.md."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from strategies import DEGREE

from evalkit import ConfusionMatrix, CostMatrix, Evaluation, Hierarchy, tnorms
from evalkit.exceptions import InvalidArgumentError, InvalidValueError, LabelMismatchError, UnknownLabelError

degrees = hnp.arrays(np.float64, st.tuples(st.integers(1, 25), st.integers(1, 6)), elements=DEGREE)


def cells_of(ev, axis):
    cells = ev.class_cells if axis == "class" else ev.sample_cells
    return [np.asarray(getattr(cells, name), dtype=float) for name in ("tp", "fp", "fn", "tn")]


# --------------------------------------------------------------------------------------------
# soft labels


@pytest.mark.parametrize(
    ("tnorm", "expected"),
    [("product", (0.42, 0.18, 0.28, 0.12)), ("minimum", (0.6, 0.3, 0.4, 0.3)), ("lukasiewicz", (0.3, 0.0, 0.1, 0.0))],
)
def test_the_worked_soft_numbers(tnorm, expected):
    """shared/spec/algebraic.md: one entry a = 0.7, p = 0.6."""
    ev = Evaluation.from_soft([[0.7]], [[0.6]], tnorm=tnorm)
    assert [float(x[0]) for x in cells_of(ev, "class")] == pytest.approx(expected, abs=1e-12)
    assert [float(x[0]) for x in cells_of(ev, "sample")] == pytest.approx(expected, abs=1e-12)


@given(degrees, st.data())
def test_the_product_t_norm_keeps_the_marginals(actual, data):
    """TP + FN = σ(A), TP + FP = σ(P), the four cells sum to the number of entries."""
    predicted = data.draw(hnp.arrays(np.float64, actual.shape, elements=DEGREE))
    ev = Evaluation.from_soft(actual, predicted)
    for axis, sums in (("class", 0), ("sample", 1)):
        tp, fp, fn, tn = cells_of(ev, axis)
        np.testing.assert_allclose(tp + fn, actual.sum(sums), atol=1e-9)
        np.testing.assert_allclose(tp + fp, predicted.sum(sums), atol=1e-9)
        np.testing.assert_allclose(tp + fp + fn + tn, actual.shape[sums], atol=1e-9)
    inner, a, p = (actual * predicted).sum(), actual.sum(), predicted.sum()
    assert math.isclose(ev.average("precision", "micro"), inner / p, rel_tol=1e-9) if p else True
    assert math.isclose(ev.average("recall", "micro"), inner / a, rel_tol=1e-9) if a else True
    assert math.isclose(ev.average("f1_score", "micro"), 2 * inner / (a + p), rel_tol=1e-9) if a + p else True


@pytest.mark.parametrize("tnorm", ["minimum", "lukasiewicz"])
def test_the_other_t_norms_do_not_keep_the_marginals(tnorm):
    tp, fp, fn, tn = (float(x[0]) for x in cells_of(Evaluation.from_soft([[0.7]], [[0.6]], tnorm=tnorm), "class"))
    assert not (math.isclose(tp + fn, 0.7) and math.isclose(tp + fp, 0.6) and math.isclose(tp + fp + fn + tn, 1.0))


@given(hnp.arrays(bool, st.tuples(st.integers(1, 20), st.integers(1, 5))), st.data(), st.sampled_from(["product", "minimum", "lukasiewicz"]))
def test_crisp_degrees_give_the_crisp_cells_under_every_t_norm(actual, data, tnorm):
    predicted = data.draw(hnp.arrays(bool, actual.shape))
    soft = Evaluation.from_soft(actual.astype(np.float32), predicted.astype(np.float32), tnorm=tnorm)
    crisp = Evaluation.from_indicators(actual, predicted)
    for axis in ("class", "sample"):
        for got, expected in zip(cells_of(soft, axis), cells_of(crisp, axis)):
            np.testing.assert_allclose(got, expected)


def test_a_user_t_norm_is_checked_and_used():
    def hamacher(a, b):
        a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where((a == 0) & (b == 0), 0.0, a * b / (a + b - a * b))

    ev = Evaluation.from_soft([[0.7]], [[0.6]], tnorm=hamacher)
    assert float(ev.class_cells.tp[0]) == pytest.approx(0.42 / (0.7 + 0.6 - 0.42))
    with pytest.raises(InvalidArgumentError, match="not a t-norm: fails T\\(x, 1\\) = x"):
        Evaluation.from_soft([[0.7]], [[0.6]], tnorm=lambda a, b: (a + b) / 2)
    with pytest.raises(InvalidArgumentError, match="'tnorm' must be one of"):
        Evaluation.from_soft([[0.7]], [[0.6]], tnorm="drastic")
    assert tnorms.get_tnorm("product") is tnorms.product


@pytest.mark.parametrize("bad", [1.2, -0.1, np.nan])
def test_degrees_outside_the_unit_interval(bad):
    with pytest.raises(InvalidValueError, match="'y_pred' must hold degrees in \\[0, 1\\]"):
        Evaluation.from_soft([[0.5, 0.5]], [[0.5, bad]])


@pytest.mark.parametrize("tnorm", ["product", "minimum", "lukasiewicz"])
def test_a_mask_multiplies_every_soft_cell(tnorm):
    t = tnorms.get_tnorm(tnorm)
    actual, predicted, mask = [[0.9, 0.2], [0.4, 0.6]], [[0.8, 0.5], [0.1, 0.7]], [[1, 0], [1, 1]]
    ev = Evaluation.from_soft(actual, predicted, tnorm=tnorm, mask=mask)

    def cells(a, p):
        return [float(t(a, p)), float(t(1 - a, p)), float(t(a, 1 - p)), float(t(1 - a, 1 - p))]

    # label 1 is observed for sample 1 only; sample 0 is observed for label 0 only
    assert [float(getattr(ev.class_cells, name)[1]) for name in ("tp", "fp", "fn", "tn")] == pytest.approx(cells(0.6, 0.7))
    assert [float(getattr(ev.sample_cells, name)[0]) for name in ("tp", "fp", "fn", "tn")] == pytest.approx(cells(0.9, 0.8))


# --------------------------------------------------------------------------------------------
# ordinal data and cost matrices

levels_and_pairs = st.integers(2, 7).flatmap(
    lambda m: st.tuples(st.just(m), st.lists(st.tuples(st.integers(0, m - 1), st.integers(0, m - 1)), min_size=1, max_size=60))
)


@given(levels_and_pairs)
def test_cumulative_encoding_cells_equal_the_explicit_encoding(data):
    m, pairs = data
    y_true, y_pred = np.array([a for a, _ in pairs]), np.array([p for _, p in pairs])
    ev = Evaluation.from_ordinal(y_true, y_pred, list(range(m)))
    thresholds = np.arange(m - 1)
    actual, predicted = y_true[:, None] > thresholds, y_pred[:, None] > thresholds  # Z_ij = [y_i > j]
    explicit = Evaluation.from_indicators(actual, predicted)
    for name in ("tp", "fp", "fn", "tn"):
        np.testing.assert_array_equal(getattr(ev.class_cells, name), getattr(explicit.class_cells, name))
        np.testing.assert_array_equal(getattr(ev.sample_cells, name), getattr(explicit.sample_cells, name))


@given(levels_and_pairs)
def test_false_positives_plus_false_negatives_are_n_times_the_mae(data):
    m, pairs = data
    y_true, y_pred = [a for a, _ in pairs], [p for _, p in pairs]
    ev = Evaluation.from_ordinal(y_true, y_pred, list(range(m)))
    total = ev.total_cells
    mae = np.mean(np.abs(np.subtract(y_true, y_pred)))
    assert total.fp + total.fn == pytest.approx(len(pairs) * mae)


@given(levels_and_pairs)
def test_cost_matrices_give_mae_mse_and_the_error_count(data):
    """shared/spec/algebraic.md, result 4."""
    m, pairs = data
    y_true, y_pred = [a for a, _ in pairs], [p for _, p in pairs]
    levels = list(range(m))
    cm = ConfusionMatrix.from_predictions(y_true, y_pred, labels=levels)
    difference = np.subtract(y_true, y_pred)
    assert CostMatrix.absolute(levels).mean(cm) == pytest.approx(np.mean(np.abs(difference)))
    assert CostMatrix.squared(levels).mean(cm) == pytest.approx(np.mean(difference**2))
    assert CostMatrix.zero_one(levels).total(cm) == np.count_nonzero(difference)
    np.testing.assert_allclose(CostMatrix.absolute(levels).per_sample(y_true, y_pred), np.abs(difference))
    per_class = CostMatrix.squared(levels).per_class(cm)
    for level in levels:
        assert per_class[level] == pytest.approx(sum((a - p) ** 2 for a, p in pairs if a == level))


def test_ordinal_levels_of_any_kind_and_their_confusion_matrix():
    ev = Evaluation.from_ordinal(["low", "high", "mid", "mid"], ["mid", "high", "low", "mid"], ["low", "mid", "high"])
    assert ev.setting == "ordinal" and ev.labels == ("> low", "> mid")
    cm = ev.confusion_matrix()
    assert cm.labels == ("low", "mid", "high") and cm.get_total_items() == 4
    assert CostMatrix.absolute(cm.labels).total(ev) == 2
    assert ev.get_accuracy() == 0.5
    with pytest.raises(InvalidArgumentError, match="at least two levels"):
        Evaluation.from_ordinal([1], [1], [1])


def test_cost_matrix_checks():
    cm = ConfusionMatrix.from_predictions([0, 1], [1, 1])
    with pytest.raises(LabelMismatchError):
        CostMatrix.zero_one(["a", "b"]).total(cm)
    with pytest.raises(InvalidValueError):
        CostMatrix.from_array([[0, np.inf], [1, 0]])
    costs = CostMatrix.from_array([[0, 5], [1, 0]])
    assert costs.total(cm) == 5.0 and costs.labels == (0, 1)
    with pytest.raises(ValueError):
        costs.costs[0, 0] = 1  # read-only


# --------------------------------------------------------------------------------------------
# hierarchies

PARENTS = {"cat": "mammal", "dog": "mammal", "mammal": "animal", "trout": "fish", "fish": "animal", "tulip": "plant"}


def test_hierarchical_precision_recall_and_f_by_hand():
    """Closures (root 'animal' left out): cat → {cat, mammal}, dog → {dog, mammal},
    trout → {trout, fish}, tulip → {tulip, plant}."""
    ev = Evaluation.from_hierarchy(["cat", "trout", "tulip"], ["dog", "fish", "cat"], PARENTS, root="animal")
    # predicted closures: {dog, mammal}, {fish}, {cat, mammal}; overlaps: mammal, fish, none
    assert ev.average("precision", "micro") == pytest.approx(2 / 5)
    assert ev.average("recall", "micro") == pytest.approx(2 / 6)
    assert ev.average("f1_score", "micro") == pytest.approx(2 * 2 / (5 + 6))
    assert "animal" not in ev.labels and ev.setting == "hierarchical"


@given(st.lists(st.tuples(st.sampled_from(sorted(set(PARENTS) | set(PARENTS.values()) - {"animal"})),
                          st.sampled_from(sorted(set(PARENTS) | set(PARENTS.values()) - {"animal"}))), min_size=1, max_size=30))
def test_hierarchical_cells_equal_set_closures(pairs):
    taxonomy = Hierarchy(PARENTS, root="animal")

    def closure(node):
        return set(taxonomy.ancestors(node))

    actual = [closure(a) for a, _ in pairs]
    predicted = [closure(p) for _, p in pairs]
    ev = Evaluation.from_hierarchy([a for a, _ in pairs], [p for _, p in pairs], taxonomy)
    explicit = Evaluation.from_label_sets(actual, predicted, taxonomy.nodes)
    for name in ("tp", "fp", "fn", "tn"):
        np.testing.assert_array_equal(getattr(ev.class_cells, name), getattr(explicit.class_cells, name))
    sets = Evaluation.from_hierarchy([{a} for a, _ in pairs], [{p} for _, p in pairs], taxonomy)
    np.testing.assert_array_equal(sets.sample_cells.tp, ev.sample_cells.tp)


def test_hierarchy_checks():
    with pytest.raises(InvalidArgumentError, match="cycle"):
        Hierarchy({"a": "b", "b": "a"})
    with pytest.raises(UnknownLabelError):
        Evaluation.from_hierarchy(["cat"], ["whale"], PARENTS)
    assert Hierarchy(PARENTS).ancestors("cat") == ("cat", "mammal", "animal")


def test_soft_cells_derived_from_the_marginals_are_never_negative():
    """Found by Hypothesis: 1 - 0 - (1 + 1e-5) + 1e-5 rounds to -6.6e-17 in float64."""
    ev = Evaluation.from_soft(np.array([[0.0, 1.0]]), np.array([[1.0, 1e-05]]))
    for cells in (ev.class_cells, ev.sample_cells):
        for name in ("tp", "fp", "fn", "tn"):
            assert (np.asarray(getattr(cells, name)) >= 0).all()
    assert Evaluation.from_json(ev.to_json()) == ev
