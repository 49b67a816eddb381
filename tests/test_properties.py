"""Hypothesis properties over random label sequences and random count matrices."""

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from strategies import count_matrices, predictions

from evalkit import ClassificationMetrics, ConfusionMatrix, formulas


@given(predictions())
def test_cells_partition_every_sample_and_tp_sums_to_the_trace(data):
    y_true, y_pred, _ = data
    cm = ConfusionMatrix.from_predictions(y_true, y_pred)
    cells = cm.cells()
    assert cells.tp.sum() == np.trace(cm.to_array())
    np.testing.assert_array_equal(cells.tp + cells.fp + cells.fn + cells.tn, len(y_true))
    assert cells.fp.sum() == cells.fn.sum() == len(y_true) - np.trace(cm.to_array())


@given(predictions())
def test_micro_precision_recall_and_f1_equal_accuracy_on_single_label_data(data):
    y_true, y_pred, _ = data
    cm = ConfusionMatrix.from_predictions(y_true, y_pred)
    accuracy = cm.get_accuracy()
    assert accuracy == sum(a == p for a, p in zip(y_true, y_pred)) / len(y_true)
    for name in ("precision", "recall", "f1_score"):
        assert math.isclose(cm.average(name, "micro"), accuracy, rel_tol=1e-12)


@given(predictions(), st.data())
def test_merging_two_halves_gives_the_whole(data, draw):
    y_true, y_pred, pool = data
    cut = draw.draw(st.integers(0, len(y_true)))
    whole = ConfusionMatrix.from_predictions(y_true, y_pred, labels=pool)
    first = ConfusionMatrix.from_predictions(y_true[:cut], y_pred[:cut], labels=pool)
    second = ConfusionMatrix.from_predictions(y_true[cut:], y_pred[cut:], labels=pool)
    assert first + second == whole
    streamed = ConfusionMatrix(pool)
    streamed.update(y_true[:cut], y_pred[:cut])
    streamed.update(y_true[cut:], y_pred[cut:])
    assert streamed == whole


@given(predictions())
def test_inc_one_sample_at_a_time_equals_counting_at_once(data):
    y_true, y_pred, pool = data
    cm = ConfusionMatrix(pool)
    for a, p in zip(y_true, y_pred):
        cm.inc(pool.index(a), pool.index(p))
    assert cm == ConfusionMatrix.from_predictions(y_true, y_pred, labels=pool)


@given(predictions(), st.randoms())
def test_explicit_label_order_permutes_the_matrix(data, random):
    y_true, y_pred, pool = data
    order = list(pool)
    random.shuffle(order)
    natural = ConfusionMatrix.from_predictions(y_true, y_pred, labels=pool).to_array()
    permuted = ConfusionMatrix.from_predictions(y_true, y_pred, labels=order).to_array()
    index = [pool.index(label) for label in order]
    np.testing.assert_array_equal(permuted, natural[np.ix_(index, index)])


@given(predictions())
def test_string_arrays_lists_and_object_arrays_count_alike(data):
    y_true, y_pred, _ = data
    as_list = ConfusionMatrix.from_predictions(y_true, y_pred)
    assert ConfusionMatrix.from_predictions(np.array(y_true), np.array(y_pred)) == as_list
    assert ConfusionMatrix.from_predictions(np.array(y_true, dtype=object), tuple(y_pred)) == as_list


@given(count_matrices)
def test_getters_equal_the_vectorised_per_class_path(matrix):
    cm = ConfusionMatrix.from_array(matrix)
    for name in formulas.measure_names():
        vector = cm.per_class(name)
        for k in range(cm.get_class_count()):
            metrics = ClassificationMetrics(cm, class_idx=k)
            value = metrics.get_f_score(1.0) if name == "f_score" else getattr(metrics, f"get_{name}")()
            assert (math.isnan(value) and math.isnan(vector[k])) or value == vector[k]


@given(count_matrices)
def test_stats_of_per_class_objects_is_the_macro_average(matrix):
    cm = ConfusionMatrix.from_array(matrix)
    objects = [ClassificationMetrics(cm, class_idx=k) for k in range(cm.get_class_count())]
    stats = ClassificationMetrics.average(objects)
    for name in stats.names:
        macro = cm.average(name, "macro")
        assert (math.isnan(macro) and math.isnan(stats.get(name))) or math.isclose(stats.get(name), macro, rel_tol=1e-12, abs_tol=1e-15)
        assert stats.summary(name).n_defined == macro.n_defined


@given(count_matrices, st.sampled_from(["micro", "macro", "weighted", "samples"]))
def test_averages_stay_within_the_measure_bounds(matrix, average):
    cm = ConfusionMatrix.from_array(matrix)
    for name, measure in formulas.MEASURES.items():
        value = cm.average(name, average)
        low, high = measure.bounds
        assert math.isnan(value) or low - 1e-12 <= value <= high + 1e-12


@given(count_matrices)
def test_macro_lies_between_the_smallest_and_largest_class(matrix):
    cm = ConfusionMatrix.from_array(matrix)
    for name in formulas.measure_names():
        values = cm.per_class(name)
        if np.isnan(values).all():
            continue
        macro = cm.average(name, "macro")
        assert np.nanmin(values) - 1e-12 <= macro <= np.nanmax(values) + 1e-12


@given(count_matrices)
def test_micro_of_decomposable_measures_is_the_denominator_weighted_macro(matrix):
    """shared/spec/algebraic.md, result 1: M_micro = Σ <a, v_j> / Σ <b, v_j>."""
    cm = ConfusionMatrix.from_array(matrix)
    cells = cm.cells()
    v = np.stack([cells.tp, cells.fp, cells.fn, cells.tn]).astype(float)
    for name, measure in formulas.MEASURES.items():
        if not measure.decomposable or name == "f_score":
            continue
        a, b = (np.asarray(c, dtype=float) for c in measure.decomposition())
        weights = b @ v
        if weights.sum() == 0:
            continue
        expected = (a @ v).sum() / weights.sum()
        assert math.isclose(cm.average(name, "micro"), expected, rel_tol=1e-12, abs_tol=1e-15)


@given(predictions())
def test_inputs_are_never_modified(data):
    y_true, y_pred, pool = data
    arrays = np.array(y_true), np.array(y_pred)
    copies = [a.copy() for a in arrays]
    lists = list(y_true), list(y_pred)
    ConfusionMatrix.from_predictions(*arrays)
    ConfusionMatrix.from_predictions(*lists, labels=pool)
    for array, copy in zip(arrays, copies):
        np.testing.assert_array_equal(array, copy)
    assert lists == (y_true, y_pred)
