"""Hostile input: every bad value ends in one evalkit exception naming the argument and the value,
no document costs unbounded memory, and frozen results cannot be changed through their arrays.

Each case asserts the exception class (an ``EvalkitError`` that is also the built-in a Python
user expects) and a message that names what was wrong. The fuzz tests at the end feed random
JSON documents to every ``from_json`` and random bytes to the command line's reader.
"""

import json
import math
import os
import re
import tempfile
import tracemalloc
import warnings
from decimal import Decimal

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalkit import (
    ClassificationMetrics,
    ConfusionMatrix,
    Covering,
    Evaluation,
    NeighborhoodAccuracy,
    NeighborhoodSystem,
    Stats,
    ThresholdCurve,
)
from evalkit import serialization as ser
from evalkit.cli import main
from evalkit.exceptions import (
    EmptyInputError,
    EvalkitError,
    FormatError,
    InputShapeError,
    InvalidArgumentError,
    InvalidLabelError,
    InvalidTypeError,
    MixedLabelTypesError,
)


def doc(kind, **fields):
    return json.dumps({"evalkit": kind, "version": 1, **fields})


def altered(text, **changes):
    document = json.loads(text)
    document.update(changes)
    return json.dumps(document)


def peak_mib(function):
    """Peak Python allocation (MiB) while ``function`` runs (and raises)."""
    tracemalloc.start()
    try:
        function()
    except EvalkitError:
        pass
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


EV = Evaluation.from_labels(["a", "b", "b", "c", "a"], ["a", "b", "c", "c", "b"])
CM = ConfusionMatrix.from_predictions(["a", "b", "b"], ["a", "b", "a"])
METRICS = ClassificationMetrics.from_counts(tp=3, fp=1, fn=2, tn=4, class_label="a")
STATS = ClassificationMetrics.average([METRICS, ClassificationMetrics.from_counts(tp=1, fp=2, fn=0, tn=5)])


# --------------------------------------------------------------------------------------------
# JSON documents that contradict themselves


def test_evaluation_cells_that_disagree_with_its_confusion_table_are_refused():
    document = json.loads(EV.to_json())
    pairs = document["confusion"]
    assert (pairs["actual"][0], pairs["predicted"][0]) == (0, 0)
    pairs["predicted"][0] = 1  # an "a" read as "b": the cells (and their sums) no longer follow from the table
    with pytest.raises(FormatError, match="'confusion' and 'class_cells' disagree: tp"):
        Evaluation.from_json(json.dumps(document))


def test_evaluation_sample_cells_that_disagree_with_its_class_cells_are_refused():
    ev = Evaluation.from_label_sets([{1, 2}, {2}], [{1}, {1, 2}])
    document = json.loads(ev.to_json())
    document["sample_cells"]["fp"][1] += 1
    with pytest.raises(FormatError, match="'class_cells' and 'sample_cells' disagree: fp"):
        Evaluation.from_json(json.dumps(document))


def test_soft_cells_beside_a_confusion_table_are_refused():
    soft = json.loads(Evaluation.from_soft([[0.2, 0.9]], [[0.6, 0.4]]).to_json())
    table = json.loads(EV.to_json())
    soft["confusion"], soft["confusion_labels"] = table["confusion"], table["confusion_labels"]
    with pytest.raises(FormatError, match="'confusion' cannot go with soft cells"):
        Evaluation.from_json(json.dumps(soft))


def test_every_setting_round_trips_through_the_agreement_checks():
    evaluations = [
        EV,
        Evaluation.from_labels([1, 2, 3, 1], [1, 9, 3, 9], none=9, rejection="selective"),
        Evaluation.from_labels([1, 2, 1], [1, 1, 2], sample_weight=[0.5, 2.0, 1.25]),
        Evaluation.from_ordinal(["lo", "hi", "mid"], ["mid", "hi", "lo"], ["lo", "mid", "hi"]),
        Evaluation.from_soft(np.random.default_rng(1).random((6, 3)), np.random.default_rng(2).random((6, 3)), tnorm="minimum"),
        Evaluation.from_hierarchy(["cat", "trout"], ["dog", "trout"], {"cat": "mammal", "dog": "mammal", "mammal": "animal", "trout": "animal"}),
        EV.compact(),
    ]
    for ev in evaluations:
        assert Evaluation.from_json(ev.to_json()) == ev


def test_stored_metric_values_cannot_shadow_the_counts():
    text = altered(METRICS.to_json(), values={"f1_score": 0.99})
    with pytest.raises(FormatError, match=r"'values.f1_score' is 0.99, but 'f1_score' is computed from the counts \(they give 0.666667\)"):
        ClassificationMetrics.from_json(text)
    extra = ClassificationMetrics.from_json(altered(METRICS.to_json(), values={"training_seconds": 12.5}))
    assert extra.get("training_seconds") == 12.5 and extra.get_f1_score() == pytest.approx(2 / 3)


def test_neighborhood_accuracy_kinds_that_the_cells_contradict_are_refused():
    accuracy = NeighborhoodSystem(Covering("abc", [{"a"}, {"b", "c"}])).evaluate(Covering("abc", [{"a", "b"}, {"b", "c"}]))
    assert (accuracy.ideal_kind, accuracy.result_kind) == ("partition", "covering")
    with pytest.raises(FormatError, match=r"'result_kind' says partition, but the cells put elements in \[1, 2\] blocks"):
        NeighborhoodAccuracy.from_json(altered(accuracy.to_json(), result_kind="partition"))
    with pytest.raises(FormatError, match=r"'ideal_kind' says covering, but the cells put elements in \[1\] blocks"):
        NeighborhoodAccuracy.from_json(altered(accuracy.to_json(), ideal_kind="covering"))
    assert NeighborhoodAccuracy.from_json(altered(accuracy.to_json(), result_kind="family")).result_kind == "family"  # an empty block


@pytest.mark.parametrize(
    ("summary", "message"),
    [
        ({"mean": 0.9, "std": 0.1, "min": 0.2, "max": 0.5, "n_defined": 2, "n": 2}, "min <= mean <= max"),
        ({"mean": 0.3, "std": -0.1, "min": 0.2, "max": 0.5, "n_defined": 2, "n": 2}, "0 <= std"),
        ({"mean": 0.3, "std": 0.4, "min": 0.2, "max": 0.5, "n_defined": 2, "n": 2}, r"std <= \(max - min\) / 2"),
        ({"mean": 0.3, "std": 0.1, "min": 0.2, "max": 0.5, "n_defined": 3, "n": 2}, "'n_defined' must be in 0..2"),
        ({"mean": None, "std": 0.1, "min": 0.2, "max": 0.5, "n_defined": 0, "n": 2}, "undefined \\(null\\) together"),
    ],
)
def test_stats_that_cannot_summarize_any_values_are_refused(summary, message):
    with pytest.raises(FormatError, match=message):
        Stats.from_json(doc("Stats", undefined="exclude", summaries={"accuracy": summary}))


def test_an_undefined_summary_reads_back():
    stats = ClassificationMetrics.average([ClassificationMetrics.from_counts(tp=0, fp=0, fn=0, tn=3)])
    assert Stats.from_json(stats.to_json()) == stats and math.isnan(stats.precision)


@pytest.mark.parametrize("version", [2, 99])
def test_a_newer_format_version_says_so(version):
    with pytest.raises(FormatError, match=f"format version {version} was written by a newer evalkit"):
        ConfusionMatrix.from_json(altered(CM.to_json(), version=version))


@pytest.mark.parametrize("version", [0, "1", True, None, 1.0])
def test_an_unknown_format_version_is_refused(version):
    with pytest.raises(FormatError, match="unsupported format version"):
        ConfusionMatrix.from_json(altered(CM.to_json(), version=version))


def test_duplicate_keys_are_refused_at_any_depth():
    with pytest.raises(FormatError, match="the key 'counts' appears twice"):
        ConfusionMatrix.from_json('{"evalkit": "ConfusionMatrix", "version": 1, "labels": [0], "counts": [[1]], "counts": [[2]]}')
    nested = METRICS.to_json().replace('"tp": 3', '"tp": 3, "tp": 30')
    with pytest.raises(FormatError, match="the key 'tp' appears twice"):
        ClassificationMetrics.from_json(nested)


# --------------------------------------------------------------------------------------------
# sizes: refused before any allocation, and limits the caller can raise


def test_a_huge_declared_covering_is_refused_before_allocating():
    text = doc("Covering", n_elements=2**28, universe=None, labels=["a"], blocks=[[0]])
    with pytest.raises(FormatError, match=r"'n_elements' must be in 1..16777216, got 268435456"):
        Covering.from_json(text)
    assert peak_mib(lambda: Covering.from_json(text)) < 1


def test_a_confusion_matrix_of_65536_labels_is_refused_before_allocating():
    text = doc("ConfusionMatrix", labels=list(range(65536)), counts=[])
    with pytest.raises(FormatError, match="'counts' would need 4,294,967,296 cells, more than the 16,777,216 allowed"):
        ConfusionMatrix.from_json(text)
    assert peak_mib(lambda: ConfusionMatrix.from_json(text)) < 20  # the label list itself


def test_a_document_longer_than_the_limit_is_refused_before_parsing():
    text = CM.to_json()
    with ser.limits(max_bytes=len(text) - 1), pytest.raises(FormatError, match=f"the document has {len(text)} characters, more than the {len(text) - 1} allowed"):
        ConfusionMatrix.from_json(text)
    assert ConfusionMatrix.from_json(text) == CM  # the limit is back outside the block


def test_the_default_byte_limit_bounds_the_memory_of_parsing():
    text = " " * (ser.Limits().max_bytes + 1)
    assert peak_mib(lambda: ConfusionMatrix.from_json(text)) < 1


def test_limits_can_be_raised_for_a_block():
    big = ConfusionMatrix.from_array(np.ones((100, 100), dtype=np.int64))
    with ser.limits(max_entries=100), pytest.raises(FormatError, match="more than the 100 allowed"):
        ConfusionMatrix.from_json(big.to_json())
    with ser.limits(max_entries=100), ser.limits(max_entries=10_000):
        assert ConfusionMatrix.from_json(big.to_json()) == big
    with ser.limits(max_labels=3), pytest.raises(FormatError, match="has 100 labels, more than the 3 allowed"):
        ConfusionMatrix.from_json(big.to_json())


@pytest.mark.parametrize(("changes", "message"), [({"max_files": 3}, "unknown limits"), ({"max_bytes": 0}, "'max_bytes' must be a positive integer"),
                                                  ({"max_labels": 2.5}, "'max_labels' must be a positive integer")])  # fmt: skip
def test_bad_limits_are_refused(changes, message):
    with pytest.raises(InvalidArgumentError, match=message), ser.limits(**changes):
        pass


# --------------------------------------------------------------------------------------------
# values that pass type checks but are wrong


def _grid_only(a, b):
    """The product on the 11 x 11 grid (sin(20 pi x) = 0 at x = k/10), not between."""
    return np.clip(np.multiply(a, b) + 0.05 * (np.sin(20 * np.pi * np.asarray(a)) * np.sin(20 * np.pi * np.asarray(b))) ** 2, 0, 1)


def _not_associative(a, b):
    """Half minimum, half Lukasiewicz: boundary, symmetry and monotonicity hold; associativity not."""
    return (np.minimum(a, b) + np.maximum(0.0, np.add(a, b) - 1.0)) / 2


@pytest.mark.parametrize(
    ("tnorm", "error", "message"),
    [
        (lambda a, b: "x", InvalidTypeError, "must return numbers, got 'x'"),
        (lambda a, b: np.ravel(a)[:1], InvalidArgumentError, r"returned shape \(1,\) for inputs of shape \(11, 11\)"),
        (np.maximum, InvalidArgumentError, "is not a t-norm: fails T\\(x, 1\\) = x"),
        (lambda a, b: np.multiply(a, b) * 1.5, InvalidArgumentError, r"finite degrees in \[0, 1\]"),
        (_grid_only, InvalidArgumentError, "'_grid_only' is not a t-norm"),
        (_not_associative, InvalidArgumentError, r"fails T\(a, T\(b, c\)\) = T\(T\(a, b\), c\)"),
    ],
)
def test_a_custom_tnorm_that_is_not_one_is_refused(tnorm, error, message):
    with pytest.raises(error, match=message):
        Evaluation.from_soft([[0.2, 0.9]], [[0.6, 0.4]], tnorm=tnorm)


def test_a_custom_tnorm_is_checked_on_the_data_too():
    calls: list = []

    def product_then_garbage(a, b):  # right on the probe points, wrong on the data (3 x 2)
        calls.append(np.shape(a))
        return np.multiply(a, b)[..., :1] if np.shape(a) == (3, 2) else np.multiply(a, b)

    with pytest.raises(InvalidArgumentError, match="returned shape"):
        Evaluation.from_soft(np.full((3, 2), 0.5), np.full((3, 2), 0.5), tnorm=product_then_garbage)


def test_a_true_custom_tnorm_gives_its_cells():
    def hamacher(a, b):
        a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        denominator = a + b - a * b
        return np.divide(a * b, denominator, out=np.zeros(np.broadcast(a, b).shape), where=denominator > 0)

    actual, predicted = np.random.default_rng(3).random((20, 3)), np.random.default_rng(4).random((20, 3))
    ev = Evaluation.from_soft(actual, predicted, tnorm=hamacher)
    np.testing.assert_allclose(ev.class_cells.tp, hamacher(actual, predicted).sum(axis=0), rtol=1e-12)
    np.testing.assert_allclose(ev.class_cells.fn, hamacher(actual, 1 - predicted).sum(axis=0), rtol=1e-12)


@pytest.mark.parametrize(
    ("measure", "error", "message"),
    [
        (lambda tp, fp, fn, tn: np.array([1.0, 2.0]), InputShapeError, r"one value per entry \(shape \(3,\)\), got shape \(2,\)"),
        (lambda tp, fp, fn, tn: "x", InvalidTypeError, "must return numbers, got 'x'"),
        (lambda tp, fp, fn, tn: None, InvalidTypeError, "must return numbers, got None"),
        (lambda tp, fp, fn, tn: 0.5, InputShapeError, r"got shape \(\)"),
    ],
)
def test_a_custom_measure_of_the_wrong_shape_or_type_is_refused(measure, error, message):
    ev = Evaluation.from_labels([1, 2, 3, 1], [1, 1, 3, 2])
    with pytest.raises(error, match=message):
        ev.average(measure, "macro")
    with pytest.raises(error, match=message):
        ev.per_class(measure)


def test_a_custom_measure_of_the_right_shape_agrees_with_the_registry():
    ev = Evaluation.from_labels([1, 2, 3, 1], [1, 1, 3, 2])
    assert ev.average(lambda tp, fp, fn, tn: tp / (tp + fn), "macro") == ev.average("recall", "macro")


@pytest.mark.parametrize("label", [np.array([1]), [1], (1,), {1}])
def test_a_class_label_that_is_a_collection_is_refused(label):
    with pytest.raises(InvalidTypeError, match="'class_label' must be one label"):
        ClassificationMetrics.from_counts(tp=1, fp=1, fn=1, tn=1, class_label=label)
    with pytest.raises(InvalidTypeError, match="'class_label' must be one label"):
        ClassificationMetrics(ConfusionMatrix.from_predictions([1, 2], [1, 1]), class_label=label)


def test_a_pos_label_or_none_that_is_a_collection_is_refused():
    with pytest.raises(InvalidTypeError, match="'pos_label' must be one label"):
        ThresholdCurve.from_scores([0, 1], [0.2, 0.7], pos_label=[1])
    with pytest.raises(InvalidTypeError, match="'none' must be one label"):
        Evaluation.from_labels([1, 2], [1, 2], none=np.array([0]))


MISSING = [pd.NA, pd.NaT, np.datetime64("NaT"), Decimal("NaN"), Decimal("sNaN"), float("nan"), None]


@pytest.mark.parametrize("missing", MISSING, ids=repr)
def test_missing_values_among_labels_are_refused_with_their_position(missing):
    with pytest.raises(InvalidLabelError, match=r"'y_true' contains .* which cannot be a class label.*position 1|'y_true' contains NaN \(first at position 1\)"):
        ConfusionMatrix.from_predictions(["a", missing, "b"], ["a", "a", "b"])


@pytest.mark.parametrize("missing", MISSING, ids=repr)
def test_missing_values_in_labels_are_refused(missing):
    with pytest.raises(InvalidLabelError, match="'labels' contains"):
        ConfusionMatrix.from_predictions(["a", "b"], ["a", "b"], labels=["a", "b", missing])


def test_pandas_extension_arrays_with_missing_values_are_refused():
    for series in (pd.Series(["a", None, "b"], dtype="string"), pd.Series([True, None, False], dtype="boolean"),
                   pd.Series([1, None, 2], dtype="Int64")):  # fmt: skip
        with pytest.raises(InvalidLabelError, match="'y_true' contains .*position 1"):
            ConfusionMatrix.from_predictions(series, series.fillna(series.iloc[0]))


def test_decimal_labels_that_are_numbers_still_count():
    cm = ConfusionMatrix.from_predictions([Decimal("1.5"), Decimal(2)], [Decimal("1.5"), Decimal("1.5")])
    assert cm.labels == (Decimal("1.5"), Decimal(2)) and cm.get_total_items() == 2


@pytest.mark.parametrize("threshold", ["0.5", b"0.5", [["0.5"]], True])
def test_a_threshold_given_as_text_or_boolean_is_refused(threshold):
    with pytest.raises(InvalidTypeError, match="'threshold' must be a number or numbers"):
        Evaluation.from_scores([[1], [0]], [[0.2], [0.8]], threshold=threshold)
    with pytest.raises(InvalidTypeError, match="'threshold' must be a number or numbers"):
        ThresholdCurve.from_scores([1, 0], [0.2, 0.8]).at(threshold)


def test_thresholds_given_as_text_are_refused():
    with pytest.raises(InvalidTypeError, match="'thresholds' must be a number or numbers"):
        ThresholdCurve.from_scores([1, 0], [0.2, 0.8], thresholds=["0.1", "0.5"])


def test_ragged_indicator_rows_are_refused():
    with pytest.raises(InputShapeError, match=r"'y_true' has rows of different lengths \[1, 2\]"):
        Evaluation.from_indicators([[1, 0], [1]], [[1, 0], [0, 1]])
    with pytest.raises(InputShapeError, match="'y_pred' has rows of different lengths"):
        Evaluation.from_soft([[0.1, 0.2]], [[0.1], [0.2, 0.3]])


@pytest.mark.parametrize("unordered", [{1, 2}, frozenset({1, 2}), {1: 1, 2: 2}, {1: 1, 2: 2}.keys(), {1: 1, 2: 2}.values()], ids=lambda v: type(v).__name__)
def test_an_unordered_collection_of_samples_is_refused(unordered):
    with pytest.raises(InvalidTypeError, match="'y_true' must be an ordered sequence of labels"):
        ConfusionMatrix.from_predictions(unordered, [1, 2])
    with pytest.raises(InvalidTypeError, match="'y_pred' must be an ordered sequence of labels"):
        Evaluation.from_labels([1, 2], unordered)


def test_an_unordered_collection_of_label_sets_or_rows_is_refused():
    with pytest.raises(InvalidTypeError, match="'y_true' must be an ordered sequence of label sets"):
        Evaluation.from_label_sets({frozenset({1}), frozenset({2})}, [{1}, {2}])
    with pytest.raises(InvalidTypeError, match="'y_true' must be an ordered sequence of rows"):
        Evaluation.from_indicators({(1, 0), (0, 1)}, [[1, 0], [0, 1]])


def test_the_scikit_learn_face_refuses_unordered_samples_and_text_scores():
    from evalkit import metrics

    with pytest.raises(InvalidTypeError, match="'y_true' must be an ordered sequence of labels"):
        metrics.f1_score({0, 1}, [0, 1])
    with pytest.raises(InvalidTypeError, match=r"'y_score' must be (an ordered sequence of scores|a number or numbers, got \{0.2, 0.5\})"):
        metrics.roc_auc_score([0, 1], {0.2, 0.5})
    with pytest.raises(InvalidTypeError, match="'y_proba' must be a number or numbers"):
        metrics.log_loss([0, 1], ["0.2", "0.8"])
    with pytest.raises(InvalidTypeError, match="'y_proba' must be a number or numbers"):
        metrics.brier_score_loss([0, 1], ["0.2", "0.8"])
    with pytest.raises(InvalidTypeError, match="'labels_per_element' must be an ordered sequence"):
        Covering.from_labels({"x", "y"})
    assert metrics.roc_auc_score([0, 1, 1], [False, True, False]) == 0.75  # booleans are scores, as in scikit-learn


def test_none_equal_to_a_class_after_coercion_is_refused():
    with pytest.raises(MixedLabelTypesError, match="True \\(bool\\) in 'none'"):
        Evaluation.from_labels([1, 0, 1], [1, 0, 1], none=True)  # True == 1: class 1 would become the abstention
    with pytest.raises(MixedLabelTypesError):
        Evaluation.from_labels([True, False], [True, True], none=1)
    kept = Evaluation.from_labels([1, 0, 2], [1, 0, 9], none=9)
    assert kept.labels == (0, 1, 2) and kept.confusion_labels == (0, 1, 2, 9)


def test_booleans_and_ints_never_merge_when_results_are_joined():
    booleans = ConfusionMatrix.from_predictions([True, False], [True, True])
    ints = ConfusionMatrix.from_predictions([1, 0], [1, 1])
    assert booleans.labels == ints.labels  # (False, True) == (0, 1) in Python
    with pytest.raises(EvalkitError, match="different labels"):
        booleans + ints
    assert booleans != ints
    with pytest.raises(MixedLabelTypesError):
        ints.with_labels([False, True])
    ev_bool, ev_int = (Evaluation.from_labels(y, y) for y in ([True, False], [1, 0]))
    with pytest.raises(EvalkitError, match="different labels"):
        ev_bool.merge(ev_int)
    with pytest.raises(MixedLabelTypesError):
        ev_bool.merge(ev_int, grow=True)
    with pytest.raises(MixedLabelTypesError):
        Evaluation.from_labels(["a"], ["a"]).merge(Evaluation.from_labels([1], [1]), grow=True)


def test_arguments_of_the_wrong_kind_name_themselves():
    from evalkit import intervals, metrics, streaming

    cm = ConfusionMatrix.from_predictions([0, 1], [0, 1])
    ev = Evaluation.from_labels([0, 1, 1], [0, 1, 0])
    cases = [
        (lambda: cm.index_of(True), EvalkitError, r"True \(bool\) is not a label of this matrix"),
        (lambda: ClassificationMetrics(cm, class_label=True, class_idx=1), EvalkitError, "is not the label of 'class_idx'"),
        (lambda: ev.class_metrics(metrics_class=dict), InvalidTypeError, "'metrics_class' must be ClassificationMetrics or a subclass"),
        (lambda: ev.average("f1", "macro", metrics_class="x"), InvalidTypeError, "'metrics_class'"),
        (lambda: ev.sample_metrics([0, 5]), InvalidArgumentError, r"'indices' must be sample positions in 0..2"),
        (lambda: ev.sample_metrics([-1]), InvalidArgumentError, "negative ones never wrap"),
        (lambda: ev.sample_metrics([0.5]), InvalidArgumentError, "'indices'"),
        (lambda: metrics.classification_report([0, 1], [0, 1], digits=None), InvalidArgumentError, "'digits' must be a whole number"),
        (lambda: metrics.cohen_kappa_score([0, 1], [0, 1], weights=np.array(["linear"])), InvalidArgumentError, "'weights' must be"),
        (lambda: metrics.f1_score([0, 1], [0, 1], average=np.array(["macro"])), InvalidArgumentError, "'average' must be one of"),
        (lambda: metrics.top_k_accuracy_score([0, 1, 2], np.eye(3), k=[2]), InvalidArgumentError, "'k' must be a whole number"),
        (lambda: metrics.metric_at_thresholds([0, 1], [0.2, 0.8], 3.0), InvalidTypeError, "'metric_func' must be"),
        (lambda: metrics.average_precision_score([0, 1], [0.2, 0.8], pos_label=[1]), InvalidTypeError, "'pos_label' must be one label"),
        (lambda: metrics.confusion_matrix([0, 1], [0, 1], labels=3), InvalidTypeError, "'labels' must be a sequence"),
        (lambda: streaming.LabelSetCounts().update(5, [{1}]), InvalidTypeError, "'y_true' must be a sequence of label sets"),
        (lambda: ClassificationMetrics.from_counts(tp=1, fp=1, fn=1, tn=1).get(["f1"]), InvalidTypeError, "a metric name must be a string"),
        (lambda: ClassificationMetrics.average(3), InvalidTypeError, "'results' must be ClassificationMetrics objects"),
        (lambda: intervals.wilson({1}, 10), InvalidTypeError, "'successes'"),
        (lambda: ThresholdCurve.from_scores([0, 1, 1], [0.2, 0.6, 0.7]).evaluate("recall", [1]), InvalidTypeError, "a class must be one label"),
        (lambda: ThresholdCurve.from_scores([0, 1], [0.2, 0.8], thresholds=2**70), InvalidArgumentError, "'thresholds' as a number must be in 2.."),
        (lambda: Covering.from_indicators([[1, 0], [1]]), InputShapeError, "'matrix' has rows of different lengths"),
    ]
    for call, error, message in cases:
        with pytest.raises(error, match=message):
            call()


# --------------------------------------------------------------------------------------------
# immutable means immutable


def _arrays(obj):
    for name in ("class_cells", "sample_cells"):
        try:
            cells = getattr(obj, name, None)
        except EvalkitError:  # the cells of a curve at a threshold have no samples
            continue
        if cells is not None:
            yield from (array for array in (*cells.rows(), cells.weight, cells.index) if array is not None)
    confusion = getattr(obj, "confusion", None)
    if confusion is not None:
        yield from (confusion.actual, confusion.predicted, confusion.counts)


@pytest.mark.parametrize("make", [lambda: EV, lambda: EV.compact(), lambda: EV + EV, lambda: Evaluation.from_label_sets([{1}, {2}], [{1}, {1, 2}]),
                                  lambda: Evaluation.from_soft([[0.2, 0.3]], [[0.5, 0.5]]), lambda: Evaluation.from_json(EV.to_json()),
                                  lambda: ThresholdCurve.from_scores([0, 1, 1], [0.1, 0.5, 0.7]).at(0.5)], ids=range(7))  # fmt: skip
def test_arrays_held_by_frozen_results_are_read_only(make):
    obj = make()
    before = obj.average("f1_score", "macro")
    arrays = list(_arrays(obj))
    assert arrays
    for array in arrays:
        assert not array.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            array[...] = 7
    assert obj.average("f1_score", "macro") == before


def test_a_compacted_result_cannot_change_its_source():
    source = Evaluation.from_labels(["a", "b", "b"], ["a", "a", "b"])
    compact = source.compact()
    with pytest.raises(ValueError, match="read-only"):
        compact.class_cells.tp[0] = 100
    assert source.class_cells.tp.tolist() == [1, 1]


def test_curve_and_covering_arrays_are_read_only():
    curve = ThresholdCurve.from_scores([0, 1, 1], [0.1, 0.5, 0.7])
    assert not curve.positives.flags.writeable and not curve.at(0.5).thresholds.flags.writeable
    covering = Covering("abc", [{"a"}, {"b", "c"}])
    assert not covering._keys.flags.writeable
    dense = Covering.from_indicators([[1, 0], [0, 1]])
    assert not dense._dense.flags.writeable and dense.to_indicators().flags.writeable  # a copy is the caller's


# --------------------------------------------------------------------------------------------
# empty universes: one rule everywhere


@pytest.mark.parametrize(
    "make",
    [
        lambda: Covering.from_label_sets([], labels=[1]),
        lambda: Covering("", []),
        lambda: Covering([], [], labels=[]),
        lambda: Covering.from_indicators(np.zeros((0, 2))),
        lambda: Covering.from_labels([], labels=["x"]),
        lambda: Covering.from_json(doc("Covering", n_elements=0, universe=None, labels=["a"], blocks=[[]])),
    ],
    ids=range(6),
)
def test_an_empty_universe_is_refused_everywhere(make):
    with pytest.raises(EvalkitError, match="universe|elements|n_elements|nothing to count"):
        make()


@pytest.mark.parametrize("make", [lambda: Covering("ab", []), lambda: Covering.from_label_sets([set(), set()]),
                                  lambda: Covering.from_indicators(np.zeros((2, 0)))], ids=range(3))  # fmt: skip
def test_a_family_without_blocks_is_refused(make):
    with pytest.raises(EmptyInputError, match="there are no blocks"):
        make()


def test_an_evaluation_needs_samples_or_labels_and_is_otherwise_an_empty_result():
    with pytest.raises(EmptyInputError, match="no 'labels' were given"):
        Evaluation.from_labels([], [])
    with pytest.raises(EmptyInputError, match="no 'labels' were given"):
        Evaluation.from_label_sets([], [])
    empty = Evaluation.from_labels([], [], labels=["a", "b"])  # no samples: zero counts, undefined measures
    assert empty.n_samples == 0 and math.isnan(empty.average("f1_score", "macro"))
    assert ConfusionMatrix.from_predictions([], [], labels=["a"]).get_total_items() == 0
    for unlabelled in (Evaluation.from_label_sets([set(), set()], [set(), set()]), Evaluation.from_indicators(np.zeros((2, 0)), np.zeros((2, 0)))):
        assert unlabelled.labels == () and unlabelled.n_samples == 2  # samples without labels: every average undefined
        assert math.isnan(unlabelled.average("f1_score", "micro")) and math.isnan(unlabelled.average("f1_score", "macro"))


def test_the_accuracy_of_an_empty_family_is_never_computed():
    ideal = Covering("ab", [{"a", "b"}])
    with pytest.raises(EmptyInputError):
        NeighborhoodSystem(ideal).evaluate(Covering("ab", []))


# --------------------------------------------------------------------------------------------
# the command line


def cli(tmp_path, capsys, name, content, *options):
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    status = main(["report", str(path), *options])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("q.csv", 'actual,predicted\na,b\n"a,b\nc,c\n', r"q.csv:3: a quoted field that starts on this line never ends"),
        ("n.csv", 'actual,predicted\na,b\n"x\ny",b\nc,c\n', r"n.csv:3: a quoted field spans lines 3 to 4"),
        ("r.csv", "actual,predicted\na,b\rb,b\n", r"r.csv:2: a carriage return"),
        ("mac.csv", "actual,predicted\ra,b\rb,b\r", r"mac.csv:1: a carriage return"),
        ("h.csv", "actual,predicted,actual\na,b,c\n", r"h.csv:1: the column 'actual' appears twice in the header \(columns 1 and 3\)"),
        ("na.csv", "actual,predicted\na,a\nb,<NA>\n", r"na.csv:3: '<NA>' is a missing value as pandas writes it"),
        ("nan.csv", "actual,predicted\nnan,a\nb,b\n", r"nan.csv:2: 'nan' is a missing value"),
        ("e.csv", "actual,predicted\na,\n", r"e.csv:2: empty label"),
        ("g.csv", 'actual,predicted\n"a"x,b\n', r"g.csv:2: "),
        ("d.jsonl", '{"actual": "a", "predicted": "a", "predicted": "b"}\n', r"d.jsonl:1: the key 'predicted' appears twice"),
        ("m.jsonl", '{"actual": "a", "predicted": 1}\n{"actual": "a", "predicted": "1"}\n', r"m.jsonl:2: the field 'predicted' is a string here but a number on line 1"),
        ("b.jsonl", '{"actual": "a", "predicted": "x\\ny"}\n', r"b.jsonl:1: the label 'x\\ny' holds a line break"),
    ],
)
def test_bad_files_end_in_one_line_naming_the_line(tmp_path, capsys, name, content, message):
    status, out, err = cli(tmp_path, capsys, name, content)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("evalkit: error: ") and re.search(message, err), err


def test_an_endless_line_is_refused_with_bounded_memory(tmp_path, capsys):
    from evalkit.readers import MAX_LINE_BYTES

    path = tmp_path / "endless.csv"
    path.write_bytes(b"actual,predicted\n" + b"a" * (2 * MAX_LINE_BYTES))
    statuses = []
    peak = peak_mib(lambda: statuses.append(main(["report", str(path)])))
    _, err = capsys.readouterr()
    assert statuses == [2] and peak < 8 and f"endless.csv:2: the line is longer than {MAX_LINE_BYTES:,} bytes" in err


def test_crlf_files_and_quoted_commas_still_read(tmp_path, capsys):
    status, out, _ = cli(tmp_path, capsys, "ok.csv", 'actual,predicted\r\n"a,1",b\r\nb,b\r\n', "--format", "json")
    assert status == 0 and json.loads(out)["samples"] == 2


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--score", "s", "--multi-label"], "--score .* cannot go with --multi-label"),
        (["--score", "s", "--predicted", "predicted"], "give --score or --predicted, not both"),
        (["--threshold", "0.3"], "--threshold applies with --score only"),
        (["--positive", "a"], "--positive applies with --score or --group only"),
        (["--negative", "a"], "--negative applies with --score only"),
        (["--separator", ";"], "--separator applies with --multi-label only"),
        (["--ci-level", "0.9"], "--ci-level applies with --ci only"),
        (["--score", "s", "--positive", "a", "--negative", "a"], "--positive and --negative must differ"),
        (["--output", "{data}"], "is an input file: writing it would destroy the data"),
        (["--html", "{tmp}/x", "--output", "{tmp}/x"], "--output and --html name the same file"),
        (["--plot", "{tmp}/x.png", "--html", "{tmp}/x.png"], "--html and --plot name the same file"),
        (["--score", "s", "--threshold", "2"], r"--threshold must be in \[0, 1\]"),
        (["--ci", "--ci-level", "95"], r"--ci-level must be a confidence level in \(0, 1\)"),
    ],
)
def test_contradictory_options_are_one_line_errors_with_exit_2(tmp_path, capsys, options, message):
    data = tmp_path / "data.csv"
    data.write_text("actual,predicted,s\na,b,0.3\nb,b,0.9\n")
    options = [option.format(data=data, tmp=tmp_path) for option in options]
    status = main(["report", str(data), *options])
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and err.count("\n") == 1
    assert re.search(message, err), err
    assert data.read_text() == "actual,predicted,s\na,b,0.3\nb,b,0.9\n"  # never overwritten


def test_delimiter_does_not_apply_to_json_lines(tmp_path, capsys):
    status, _, err = cli(tmp_path, capsys, "x.jsonl", '{"actual": "a", "predicted": "a"}\n', "--delimiter", ";")
    assert status == 2 and "--delimiter applies to CSV and TSV tables only" in err


# --------------------------------------------------------------------------------------------
# Dask: partitions that disagree, and columns Dask converted


@pytest.fixture
def dask_objects():
    import dask

    with dask.config.set({"scheduler": "synchronous", "dataframe.convert-string": False}):
        yield


def _frame(columns, partitions=2):
    import dask.dataframe as dd

    return dd.from_pandas(pd.DataFrame(columns), npartitions=partitions)


def test_dask_mixed_label_types_across_partitions_are_an_error(dask_objects):
    from evalkit import dask as edask

    for column in ([1, 2, "1", "2"], [True, False, 1, 0]):
        frame = _frame({"a": pd.Series(column, dtype=object), "p": pd.Series(column, dtype=object)})
        with pytest.raises(MixedLabelTypesError, match="a partition of y_true/y_pred"):
            edask.confusion_matrix(frame["a"], frame["p"])


def test_dask_list_columns_stay_sets_and_object_ints_stay_ints(dask_objects):
    from evalkit import dask as edask

    actual, predicted = [["x", "y"], ["x"], ["y"], []], [["x"], ["x", "y"], ["y"], ["x"]]
    frame = _frame({"a": actual, "p": predicted})
    result = edask.evaluate_label_sets(frame["a"], frame["p"]).average("f1_score", "micro")
    assert result == pytest.approx(2 / 3) == Evaluation.from_label_sets(actual, predicted).average("f1_score", "micro")
    ints = _frame({"a": pd.Series([1, 2, 1, 2], dtype=object), "p": pd.Series([1, 1, 2, 2], dtype=object)})
    assert edask.confusion_matrix(ints["a"], ints["p"]).labels == (1, 2)


def test_dask_columns_turned_into_strings_are_refused():
    import dask

    from evalkit import dask as edask

    with dask.config.set({"scheduler": "synchronous", "dataframe.convert-string": True}):
        lists = _frame({"a": [["x", "y"], ["x"], ["y"], []], "p": [["x"], ["x", "y"], ["y"], ["x"]]})
        with pytest.raises(InvalidTypeError, match="dataframe.convert-string"):
            edask.evaluate_label_sets(lists["a"], lists["p"])
        ints = _frame({"a": pd.Series([1, 2, 1, 2], dtype=object), "p": pd.Series([1, 1, 2, 2], dtype=object)})
        with pytest.raises(InvalidTypeError, match=r"'y_true': Dask turned the column 'a' of Python objects \(integer\) into strings"):
            edask.confusion_matrix(ints["a"], ints["p"])
        text = _frame({"a": ["x", "y", "x", "y"], "p": ["x", "x", "y", "y"]})
        assert edask.confusion_matrix(text["a"], text["p"]).labels == ("x", "y")  # strings were strings


def test_dask_text_of_a_list_is_never_one_label(dask_objects):
    from evalkit import dask as edask

    frame = _frame({"a": ["['x', 'y']", "['x']"], "p": ["['x']", "['y']"]}, partitions=1)
    with pytest.raises(InvalidTypeError, match="holds the text"):
        edask.evaluate_label_sets(frame["a"], frame["p"])


# --------------------------------------------------------------------------------------------
# fuzz: random documents and random bytes let only evalkit exceptions escape

READERS = [ConfusionMatrix, ClassificationMetrics, Evaluation, Stats, Covering, NeighborhoodAccuracy]
VALID = {
    ConfusionMatrix: CM.to_json(),
    ClassificationMetrics: METRICS.to_json(),
    Evaluation: EV.to_json(),
    Stats: STATS.to_json(),
    Covering: Covering("abc", [{"a"}, {"b", "c"}]).to_json(),
    NeighborhoodAccuracy: NeighborhoodSystem(Covering("abc", [{"a"}, {"b", "c"}])).evaluate(Covering("abc", [{"a", "b"}, {"c"}])).to_json(),
}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=6) | st.dictionaries(st.text(max_size=8), children, max_size=6),
    max_leaves=30,
)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _paths(child, (*prefix, index))


def _replace(document, path, value):
    if not path:
        return value
    target = document
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return document


def _read(reader, text):
    try:
        reader.from_json(text)
    except EvalkitError:
        pass


@settings(max_examples=150)
@given(st.sampled_from(READERS), st.data(), json_values)
def test_fuzzed_documents_raise_only_evalkit_errors(reader, data, value):
    document = json.loads(VALID[reader])
    path = data.draw(st.sampled_from(list(_paths(document))))
    text = json.dumps(_replace(document, path, value))
    with ser.limits(max_entries=1 << 16):
        assert peak_mib(lambda: _read(reader, text)) < 64


@given(st.sampled_from(READERS), json_values)
def test_random_json_raises_only_evalkit_errors(reader, value):
    _read(reader, json.dumps(value))
    _read(reader, json.dumps({"evalkit": reader.__name__, "version": 1, "payload": value}))


@given(st.sampled_from(READERS), st.binary(max_size=200))
def test_random_bytes_raise_only_evalkit_errors(reader, raw):
    _read(reader, raw)


garbage = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.just(2**70), st.floats(), st.text(max_size=3),
    st.lists(st.integers(-2, 3), max_size=5), st.lists(st.floats(), max_size=5), st.lists(st.text(max_size=2), max_size=4),
    st.lists(st.lists(st.integers(0, 1), max_size=3), max_size=4), st.just(np.zeros((2, 2, 2))), st.just(np.array([])),
    st.just({1: 2}), st.just({1, 2}), st.lists(st.one_of(st.integers(0, 2), st.text(max_size=1), st.none()), max_size=4),
    st.just(np.array([[0.2, 0.8], [0.6, 0.4]])), st.just([[1, 0], [0, 1]]), st.just([0, 1, 1, 0]), st.just([0.1, 0.9, 0.4, 0.6]),
)


def _garbage_targets():
    from evalkit import metrics

    small = ConfusionMatrix.from_predictions([0, 1, 1, 0], [0, 1, 0, 0])
    curve = ThresholdCurve.from_scores([0, 1, 1], [0.2, 0.6, 0.7])
    return {
        "ConfusionMatrix.from_predictions": lambda a, b, c: ConfusionMatrix.from_predictions(a, b, c),
        "ConfusionMatrix.from_array": lambda a, b, c: ConfusionMatrix.from_array(a, b),
        "ClassificationMetrics.from_counts": lambda a, b, c: ClassificationMetrics.from_counts(tp=a, fp=b, fn=c, tn=1),
        "ClassificationMetrics(cm)": lambda a, b, c: ClassificationMetrics(small, class_label=a, class_idx=b),
        "Evaluation.from_labels": lambda a, b, c: Evaluation.from_labels(a, b, c),
        "Evaluation.from_label_sets": lambda a, b, c: Evaluation.from_label_sets(a, b, c),
        "Evaluation.from_indicators": lambda a, b, c: Evaluation.from_indicators(a, b, c),
        "Evaluation.from_scores": lambda a, b, c: Evaluation.from_scores(a, b, threshold=c),
        "Evaluation.from_soft": lambda a, b, c: Evaluation.from_soft(a, b, c),
        "average": lambda a, b, c: small.average(a, b, undefined=c),
        "ThresholdCurve.from_scores": lambda a, b, c: ThresholdCurve.from_scores(a, b, thresholds=c),
        "ThresholdCurve.at": lambda a, b, c: curve.at(a),
        "roc_auc": lambda a, b, c: curve.roc_auc(average=a, max_fpr=b),
        "Covering": lambda a, b, c: Covering(a, b, c),
        "metrics.f1_score": lambda a, b, c: metrics.f1_score(a, b, average=c),
        "metrics.roc_auc_score": lambda a, b, c: metrics.roc_auc_score(a, b, average=c),
        "metrics.log_loss": lambda a, b, c: metrics.log_loss(a, b),
        "metrics.confusion_matrix": lambda a, b, c: metrics.confusion_matrix(a, b, labels=c),
        "metrics.top_k_accuracy_score": lambda a, b, c: metrics.top_k_accuracy_score(a, b, k=c),
        "interval": lambda a, b, c: small.interval("accuracy", method=a, level=b, n_resamples=c),
        "class_metrics": lambda a, b, c: small.class_metrics(a),
        "sample_metrics": lambda a, b, c: Evaluation.from_labels([0, 1], [0, 1]).sample_metrics(a, b),
        "ClassificationMetrics.get": lambda a, b, c: ClassificationMetrics.from_counts(tp=1, fp=1, fn=1, tn=1).get(a),
        "ClassificationMetrics.average": lambda a, b, c: ClassificationMetrics.average(a, undefined=b),
        "ThresholdCurve.evaluate": lambda a, b, c: curve.evaluate(a, b, average=c),
        "metrics.classification_report": lambda a, b, c: metrics.classification_report(a, b, digits=c),
        "metrics.cohen_kappa_score": lambda a, b, c: metrics.cohen_kappa_score(a, b, weights=c),
        "metrics.brier_score_loss": lambda a, b, c: metrics.brier_score_loss(a, b, pos_label=c),
        "metrics.average_precision_score": lambda a, b, c: metrics.average_precision_score(a, b, pos_label=c),
    }


GARBAGE_TARGETS = _garbage_targets()


@settings(max_examples=300)
@given(st.sampled_from(sorted(GARBAGE_TARGETS)), garbage, garbage, garbage)
def test_garbage_arguments_raise_only_evalkit_errors(name, a, b, c):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            GARBAGE_TARGETS[name](a, b, c)
    except EvalkitError:
        pass


csv_bytes = st.lists(
    st.sampled_from([b"a", b"b", b"1", b"0.5", b",", b"\n", b"\r\n", b"\r", b'"', b" ", b"", b"\xff", b"<NA>", b"{", b"}", b":", b"\t", b"|"]),
    max_size=40,
).map(b"".join)


@settings(max_examples=100)
@given(st.sampled_from([".csv", ".jsonl", ".tsv"]), st.sampled_from([[], ["--multi-label"], ["--score", "predicted"]]), csv_bytes, st.binary(max_size=60))
def test_random_files_end_in_a_report_or_one_line_error(suffix, options, body, noise):
    header = b'{"actual": "a", "predicted": "b"}\n' if suffix == ".jsonl" else b"actual,predicted\n" if suffix == ".csv" else b"actual\tpredicted\n"
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "data" + suffix)
        with open(path, "wb") as handle:
            handle.write(header + body + noise)
        output = os.path.join(folder, "out.txt")
        statuses = []
        peak = peak_mib(lambda: statuses.append(main(["report", path, "--output", output, *options])))  # anything but an EvalkitError escapes
    assert statuses[0] in (0, 2) and peak < 64
