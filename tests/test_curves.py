"""Threshold curves: scikit-learn's curves and areas to 1e-12, and independent formulations.

scikit-learn is the oracle for the functions of ``evalkit.metrics`` (Hypothesis-generated
cases with tied blocks, constant scores, a class without positives, zero weights); the
curve's own reading is checked against a brute-force count at every threshold, the
Mann-Whitney pair count for the AUC, ``Evaluation.from_scores`` at a threshold, and the
binned form against the exact one.
"""

import itertools
import math
import warnings

import numpy as np
import pytest
from harness import (
    SCORE_MEASURES,
    check_kind,
    check_score_faces,
    counted_samples,
)
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from oracle import call, compare, oracle, same
from sklearn import metrics as sk
from strategies import (
    binary_case,
    make_weight,
    score_values,
    weights,
)

from evalkit import ClassificationMetrics, Evaluation, ThresholdCurve
from evalkit import metrics as ek
from evalkit._scores.curves import one_vs_one_roc_auc
from evalkit.exceptions import (
    EmptyInputError,
    InputShapeError,
    InvalidArgumentError,
    InvalidValueError,
    LabelMismatchError,
    UnknownLabelError,
    UnknownMetricError,
    UnsupportedSettingError,
)


def weighted(data, n):
    return make_weight(data.draw(weights), n, data)


# --------------------------------------------------------------------------------------------
# scikit-learn's binary curves and areas


@given(binary_case(), st.data())
@oracle
def test_binary_curves_equal_scikit_learn(case, data):
    y_true, y_score = case
    weight = weighted(data, len(y_true))
    for drop in (True, False):
        compare("roc_curve", y_true, y_score, sample_weight=weight, drop_intermediate=drop)
        compare("precision_recall_curve", y_true, y_score, sample_weight=weight, drop_intermediate=drop)
    compare("confusion_matrix_at_thresholds", y_true, y_score, sample_weight=weight)
    if 0 < len(set(y_true)) == 2 and all(any(w > 0 for w, t in zip(weight or [1] * len(y_true), y_true) if t == c) for c in (0, 1)):
        for drop in (True, False):
            compare("det_curve", y_true, y_score, sample_weight=weight, drop_intermediate=drop)
    compare("average_precision_score", y_true, y_score, sample_weight=weight)
    if not weight or all(any(w > 0 for w, t in zip(weight, y_true) if t == c) for c in set(y_true)):
        compare("roc_auc_score", y_true, y_score, sample_weight=weight)  # zero-weight-only classes: scikit-learn divides by 0
        max_fpr = data.draw(st.sampled_from([0.1, 0.5, 0.8, 1.0]))
        compare("roc_auc_score", y_true, y_score, sample_weight=weight, max_fpr=max_fpr)


@given(binary_case(), st.data())
@oracle
def test_string_labels_and_pos_label(case, data):
    y_true, y_score = case
    names = [["no", "yes"][t] for t in y_true]
    weight = weighted(data, len(y_true))
    pos_label = data.draw(st.sampled_from(sorted(set(names))))
    compare("roc_curve", names, y_score, pos_label=pos_label, sample_weight=weight)
    compare("precision_recall_curve", np.array(names), np.array(y_score), pos_label=pos_label, sample_weight=weight)
    compare("confusion_matrix_at_thresholds", names, y_score, pos_label=pos_label)
    if len(set(names)) == 2:
        compare("average_precision_score", names, y_score, pos_label=pos_label)


def test_binary_labels_need_a_positive_class_unless_they_are_zero_one():
    for ours, theirs in ((ek.roc_curve, sk.roc_curve), (ek.precision_recall_curve, sk.precision_recall_curve)):
        ours_result, _ = call(ours, ["a", "b"], [0.1, 0.9])
        theirs_result, _ = call(theirs, ["a", "b"], [0.1, 0.9])
        assert isinstance(theirs_result, ValueError) and isinstance(ours_result, InvalidArgumentError)
    assert same(ek.roc_curve([-1, 1, 1], [0.2, 0.4, 0.9]), sk.roc_curve([-1, 1, 1], [0.2, 0.4, 0.9]))
    assert same(ek.roc_curve([False, True], [0.2, 0.4]), sk.roc_curve([False, True], [0.2, 0.4]))


@given(binary_case(), st.data())
@oracle
def test_metric_at_thresholds_reads_the_measure_from_cells(case, data):
    y_true, y_score = case
    weight = weighted(data, len(y_true))
    for name in ("accuracy_score", "f1_score", "precision_score", "recall_score", "jaccard_score", "matthews_corrcoef"):
        theirs = compare("metric_at_thresholds", y_true, y_score, getattr(sk, name), sample_weight=weight)
        ours, _ = call(ek.metric_at_thresholds, y_true, y_score, getattr(ek, name), sample_weight=weight)
        assert same(ours, theirs)
    compare("metric_at_thresholds", y_true, y_score, sk.fbeta_score, sample_weight=weight, metric_params={"beta": 2.0, "zero_division": 1})
    # any other callable is called once per threshold, as scikit-learn does
    compare("metric_at_thresholds", y_true, y_score, sk.balanced_accuracy_score, sample_weight=weight)


def test_metric_at_thresholds_reads_without_calling(monkeypatch):
    calls = []
    original = ek.f1_score
    monkeypatch.setattr(ek, "f1_score", lambda *args, **kwargs: calls.append(1) or original(*args, **kwargs))
    values, _thresholds = ek.metric_at_thresholds([0, 1, 1, 0], [0.1, 0.8, 0.4, 0.6], original)
    assert calls == [] and values.tolist() == pytest.approx([2 / 3, 0.5, 0.8, 2 / 3])


# --------------------------------------------------------------------------------------------
# multi-class and multi-label areas


@st.composite
def multiclass_case(draw):
    n = draw(st.integers(3, 25))
    m = draw(st.integers(3, 4))
    y_true = draw(st.lists(st.integers(0, m - 1), min_size=n, max_size=n))
    assume(len(set(y_true)) == m)
    raw = np.array(draw(st.lists(st.lists(st.sampled_from([1, 2, 3, 5, 8]), min_size=m, max_size=m), min_size=n, max_size=n)), dtype=float)
    return y_true, raw / raw.sum(axis=1, keepdims=True)


@given(multiclass_case(), st.data())
@oracle
def test_multiclass_areas_equal_scikit_learn(case, data):
    y_true, y_score = case
    weight = weighted(data, len(y_true))
    for average in ("macro", "weighted", "micro", None):
        compare("roc_auc_score", y_true, y_score, multi_class="ovr", average=average, sample_weight=weight)
    for average in ("macro", "weighted"):
        compare("roc_auc_score", y_true, y_score, multi_class="ovo", average=average)
    for average in ("macro", "weighted", "micro", None):
        compare("average_precision_score", y_true, y_score, average=average, sample_weight=weight)
    names = [f"class {label}" for label in y_true]
    compare("roc_auc_score", names, y_score, multi_class="ovr")
    compare("roc_auc_score", y_true, y_score, multi_class="ovr", labels=list(range(len(y_score[0]))))


@given(st.data())
@oracle
def test_multilabel_areas_equal_scikit_learn(data):
    n, m = data.draw(st.integers(2, 20)), data.draw(st.integers(1, 4))
    y_true = np.array(data.draw(st.lists(st.lists(st.integers(0, 1), min_size=m, max_size=m), min_size=n, max_size=n)))
    y_score = np.array(data.draw(st.lists(st.lists(score_values, min_size=m, max_size=m), min_size=n, max_size=n)))
    weight = weighted(data, n)
    for average in ("macro", "weighted", "micro", "samples", None):
        compare("average_precision_score", y_true, y_score, average=average, sample_weight=weight)
        if weight is None or min(weight) > 0:
            compare("roc_auc_score", y_true, y_score, average=average, sample_weight=weight)


def test_a_class_without_positives_gives_nan_with_a_warning_never_a_crash():
    y_true = np.array([[0, 1], [0, 0], [0, 1]])
    y_score = np.array([[0.1, 0.5], [0.5, 0.2], [0.3, 0.3]])
    values = compare("roc_auc_score", y_true, y_score, average=None)
    assert math.isnan(values[0]) and values[1] == 1.0
    with pytest.warns(UserWarning, match="No positive class"):
        assert ek.average_precision_score(y_true, y_score, average=None).tolist() == [0.0, 1.0]
    curve = ThresholdCurve.from_scores(y_true, y_score)
    assert math.isnan(curve.roc_auc(0)) and math.isnan(curve.average_precision(0))  # the library's own policy: undefined is NaN
    assert curve.roc_auc() == 1.0 and curve.roc_auc().n_defined == 1  # and averages leave it out by default
    assert math.isnan(curve.roc_auc(undefined="nan"))


# --------------------------------------------------------------------------------------------
# top-k accuracy, log loss, Brier score


@given(st.data())
@oracle
def test_top_k_accuracy_equals_scikit_learn_with_its_tie_rule(data):
    n, m = data.draw(st.integers(1, 20)), data.draw(st.integers(3, 5))
    y_true = data.draw(st.lists(st.integers(0, m - 1), min_size=n, max_size=n))
    y_score = np.array(data.draw(st.lists(st.lists(st.sampled_from([0.1, 0.2, 0.3]), min_size=m, max_size=m), min_size=n, max_size=n)))
    weight = weighted(data, n)
    for k in (1, 2, m):
        for normalize in (True, False):
            compare("top_k_accuracy_score", y_true, y_score, k=k, normalize=normalize, sample_weight=weight, labels=list(range(m)))


def test_top_k_accuracy_of_binary_scores():
    for scores in ([0.2, 0.7, 0.5, 0.9], [-1.0, 2.0, 0.5, -0.2]):
        for k in (1, 2):
            compare("top_k_accuracy_score", [0, 1, 1, 0], scores, k=k)


@given(st.data())
@oracle
def test_log_loss_and_brier_score_equal_scikit_learn(data):
    n, m = data.draw(st.integers(2, 20)), data.draw(st.integers(2, 4))
    y_true = data.draw(st.lists(st.integers(0, m - 1), min_size=n, max_size=n))
    assume(len(set(y_true)) > 1)
    raw = np.array(data.draw(st.lists(st.lists(st.sampled_from([0.0, 1.0, 2.0, 5.0]), min_size=m, max_size=m), min_size=n, max_size=n)))
    raw[:, 0] += 0.5
    y_proba = raw / raw.sum(axis=1, keepdims=True)
    weight = weighted(data, n)
    labels = list(range(m))
    compare("log_loss", y_true, y_proba, sample_weight=weight, labels=labels)
    compare("log_loss", y_true, y_proba, normalize=False, sample_weight=weight, labels=labels)
    compare("brier_score_loss", y_true, y_proba, sample_weight=weight, labels=labels)
    compare("brier_score_loss", y_true, y_proba, sample_weight=weight, labels=labels, scale_by_half=True)
    binary = [int(label == 0) for label in y_true]
    compare("log_loss", binary, y_proba[:, 0], sample_weight=weight)
    compare("brier_score_loss", binary, y_proba[:, 0], sample_weight=weight)
    compare("brier_score_loss", ["a" if b else "b" for b in binary], y_proba[:, 0], pos_label="a")


def test_log_loss_refuses_what_scikit_learn_refuses():
    compare("log_loss", [0, 1], [[0.5, 0.5], [1.2, -0.2]])
    compare("log_loss", [1, 1], [0.5, 0.5])
    compare("log_loss", [0, 1, 2], [[0.5, 0.5], [0.5, 0.5], [0.5, 0.5]])
    with pytest.warns(UserWarning, match="do not sum to one"):
        ek.log_loss([0, 1], [[0.5, 0.4], [0.5, 0.5]])
    for name in ("log_loss", "d2_log_loss_score"):  # the older name still works, with scikit-learn 1.9's FutureWarning
        with pytest.warns(FutureWarning, match="y_proba"):
            ours = getattr(ek, name)([0, 1, 1], y_pred=[0.2, 0.7, 0.6])
        with pytest.warns(FutureWarning):
            theirs = getattr(sk, name)([0, 1, 1], y_pred=[0.2, 0.7, 0.6])
        assert ours == pytest.approx(theirs, abs=1e-12)


def test_refusals_of_the_areas():
    compare("roc_auc_score", [0, 1, 2], [[0.2, 0.5, 0.3]] * 3)  # multi_class must be chosen
    compare("roc_auc_score", [0, 1, 2], [[0.2, 0.5, 0.4]] * 3, multi_class="ovr")  # not probabilities
    compare("roc_auc_score", [0, 1, 2], [[0.2, 0.5, 0.3]] * 3, multi_class="ovo", average="micro")
    compare("roc_auc_score", [0, 1, 2], [[0.2, 0.5, 0.3]] * 3, multi_class="ovr", max_fpr=0.5)
    compare("roc_auc_score", [0, 1, 2], [[0.2, 0.5, 0.3]] * 3, multi_class="ovr", labels=[2, 1, 0])
    compare("average_precision_score", [0, 1, 2], [[0.2, 0.5, 0.3]] * 3, pos_label=2)
    compare("det_curve", [1, 1], [0.2, 0.3])
    with pytest.raises(InvalidValueError, match="finite"):
        ek.roc_curve([0, 1], [0.5, math.nan])


# --------------------------------------------------------------------------------------------
# the curve against independent formulations


def brute_force_cells(y_true, y_score, weight, threshold):
    w = np.ones(len(y_true)) if weight is None else np.asarray(weight, dtype=float)
    t, s = np.asarray(y_true) == 1, np.asarray(y_score) >= threshold
    return [float(np.sum(w * (t & s))), float(np.sum(w * (~t & s))), float(np.sum(w * (t & ~s))), float(np.sum(w * (~t & ~s)))]


@given(binary_case(), st.data())
def test_cells_at_every_threshold_equal_a_brute_force_count(case, data):
    y_true, y_score = case
    weight = weighted(data, len(y_true))
    curve = ThresholdCurve.from_scores(y_true, y_score, sample_weight=weight)
    cells = curve.cells()
    kept = [s for s, w in zip(y_score, weight or [1] * len(y_score)) if w > 0]
    assert curve.thresholds().tolist() == sorted(set(kept), reverse=True)
    for k, threshold in enumerate(curve.thresholds()):
        expected = brute_force_cells(y_true, y_score, weight, threshold)
        assert [float(row[k]) for row in cells.rows()] == pytest.approx(expected, abs=1e-9)
    if weight is None or all(isinstance(w, int) for w in weight):
        assert all(row.dtype == np.int64 for row in cells.rows())  # integer weights keep integer counts


@given(binary_case(), st.data())
def test_sort_path_equals_weighted_path(case, data):
    """Unweighted curves sort values only; weighted ones argsort: with unit weights they agree."""
    y_true, y_score = case
    plain = ThresholdCurve.from_scores(y_true, y_score)
    unit = ThresholdCurve.from_scores(y_true, y_score, sample_weight=[1] * len(y_true))
    assert np.array_equal(plain.thresholds(), unit.thresholds())
    assert all(np.array_equal(a, b) for a, b in zip(plain.cells().rows(), unit.cells().rows()))


@given(binary_case(), st.data())
def test_auc_is_the_mann_whitney_pair_count(case, data):
    """AUC = P(score of a positive > score of a negative) + P(tie) / 2, weighted by pairs."""
    y_true, y_score = case
    weight = weighted(data, len(y_true)) or [1] * len(y_true)
    positives = [(s, w) for s, w, t in zip(y_score, weight, y_true) if t == 1]
    negatives = [(s, w) for s, w, t in zip(y_score, weight, y_true) if t == 0]
    total = sum(wp * wn for (_, wp), (_, wn) in itertools.product(positives, negatives))
    auc = ThresholdCurve.from_scores(y_true, y_score, sample_weight=weight).roc_auc()
    if total == 0:
        assert math.isnan(auc)
        return
    wins = sum(wp * wn * (1.0 if sp > sn else 0.5 if sp == sn else 0.0) for (sp, wp), (sn, wn) in itertools.product(positives, negatives))
    assert auc == pytest.approx(wins / total, abs=1e-12)


@given(st.data())
def test_cells_at_a_threshold_equal_evaluation_from_scores(data):
    n, m = data.draw(st.integers(1, 15)), data.draw(st.integers(2, 4))
    y_true = np.array(data.draw(st.lists(st.lists(st.integers(0, 1), min_size=m, max_size=m), min_size=n, max_size=n)))
    y_score = np.array(data.draw(st.lists(st.lists(st.sampled_from([0.1, 0.3, 0.5, 0.7]), min_size=m, max_size=m), min_size=n, max_size=n)))
    weight = weighted(data, n)
    threshold = data.draw(st.sampled_from([0.05, 0.3, 0.4, 0.7, 0.9]))
    at = ThresholdCurve.from_scores(y_true, y_score, sample_weight=weight).at(threshold)
    evaluation = Evaluation.from_scores(y_true, y_score, threshold=threshold, sample_weight=weight)
    assert all(np.allclose(a, b, rtol=1e-12) for a, b in zip(at.class_cells.rows(), evaluation.class_cells.rows()))
    for average in ("micro", "macro", "weighted"):
        assert same(float(at.average("f1_score", average)), float(evaluation.average("f1_score", average)))


@given(st.data())
def test_averages_at_common_thresholds_equal_the_cells_there(data):
    n = data.draw(st.integers(2, 15))
    y_true = data.draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    assume(len(set(y_true)) == 3)
    y_score = np.array(data.draw(st.lists(st.lists(st.sampled_from([0.1, 0.2, 0.6]), min_size=3, max_size=3), min_size=n, max_size=n)))
    curve = ThresholdCurve.from_scores(y_true, y_score)
    for average in ("micro", "macro", "weighted"):
        values, thresholds = curve.evaluate("matthews_correlation_coefficient", average=average)
        for value, threshold in zip(values, thresholds):
            assert same(value, float(curve.at(threshold).average("matthews_correlation_coefficient", average)))


@given(st.data())
def test_micro_curve_equals_scikit_learns_raveled_curve(data):
    n, m = data.draw(st.integers(1, 12)), data.draw(st.integers(1, 3))
    y_true = np.array(data.draw(st.lists(st.lists(st.integers(0, 1), min_size=m, max_size=m), min_size=n, max_size=n)))
    y_score = np.array(data.draw(st.lists(st.lists(score_values, min_size=m, max_size=m), min_size=n, max_size=n)))
    weight = weighted(data, n)
    micro = ThresholdCurve.from_scores(y_true, y_score, sample_weight=weight).micro()
    _tn, fp, _fn, tp, thresholds = sk.confusion_matrix_at_thresholds(
        y_true.ravel(), y_score.ravel(), sample_weight=None if weight is None else np.repeat(weight, m)
    )
    assert np.array_equal(micro.thresholds(), thresholds)
    assert np.allclose(np.asarray(micro.cells().tp, dtype=float), tp) and np.allclose(np.asarray(micro.cells().fp, dtype=float), fp)


@pytest.mark.parametrize("each", [2**29, 2**30])
def test_micro_curve_of_large_whole_counts_stays_exact(each):
    """The micro curve sums whole counts as 32-bit integers while the classes' totals fit them
    (three classes of 2**29 samples each: 1.5 * 2**30), as 64-bit ones beyond (three of 2**30:
    3 * 2**30, past 2**31 - 1); either way its counts are the exact int64 sums at every threshold."""
    parts = [([0.1 * k, 0.5 + 0.1 * k], [each // 2, each // 2], [0, 0]) for k in range(3)]
    micro = ThresholdCurve.from_score_counts(parts, ["a", "b", "c"]).micro()
    assert micro._tp.dtype == np.int64
    assert micro.thresholds().tolist() == pytest.approx([0.7, 0.6, 0.5, 0.2, 0.1, 0.0])
    assert micro.cells().tp.tolist() == [each // 2 * k for k in (1, 2, 3, 4, 5, 6)]


@given(binary_case(min_size=2), st.integers(1, 4), st.data())
def test_merged_batches_equal_one_curve(case, split, data):
    y_true, y_score = case
    split = min(split, len(y_true) - 1)
    weight = weighted(data, len(y_true))
    part = (lambda w, s: None if w is None else w[s])
    whole = ThresholdCurve.from_scores(y_true, y_score, sample_weight=weight)
    first = ThresholdCurve.from_scores(y_true[:split], y_score[:split], pos_label=1, sample_weight=part(weight, slice(None, split)))
    second = ThresholdCurve.from_scores(y_true[split:], y_score[split:], pos_label=1, sample_weight=part(weight, slice(split, None)))
    merged = first + second
    # thresholds of zero-weight samples stay in a batch's curve only if that batch saw them with weight
    assert np.array_equal(merged.thresholds(), whole.thresholds())
    assert all(np.allclose(a, b) for a, b in zip(merged.cells().rows(), whole.cells().rows()))


@given(st.data())
def test_merged_batches_of_several_classes_equal_one_curve(data):
    """Merging in any grouping equals the curve of all the scores: thresholds, counts and their
    kinds (integer counts stay exact integers; huge integer scores stay integers), classes a
    batch never saw, batches that share some thresholds and not others."""
    m = data.draw(st.integers(2, 4))
    huge = data.draw(st.booleans())  # integer scores beyond 2**53: int64 thresholds
    values = st.integers(2**60, 2**60 + 6) if huge else st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0])
    batches = []
    for _ in range(data.draw(st.integers(2, 4))):
        n = data.draw(st.integers(1, 8))
        y = np.array(data.draw(st.lists(st.integers(0, m - 1), min_size=n, max_size=n)))
        s = np.array(data.draw(st.lists(st.lists(values, min_size=m, max_size=m), min_size=n, max_size=n)))
        batches.append((y, s, data.draw(st.sampled_from([None, "int", "float"]))))

    def weight_of(kind, n, k):
        return None if kind is None else (np.arange(n) % 3 + k + 1 if kind == "int" else (np.arange(n) % 3 + k + 1) * 0.1)

    if len({kind for *_, kind in batches}) > 1:  # one kind of weight per stream
        batches = [(y, s, batches[0][2]) for y, s, _ in batches]
    curves = [ThresholdCurve.from_scores(y, s, range(m), sample_weight=weight_of(kind, len(y), k)) for k, (y, s, kind) in enumerate(batches)]
    whole = ThresholdCurve.from_scores(np.concatenate([y for y, *_ in batches]), np.concatenate([s for _, s, _ in batches]), range(m),
                                       sample_weight=None if batches[0][2] is None else np.concatenate(
                                           [weight_of(kind, len(y), k) for k, (y, _, kind) in enumerate(batches)]))  # fmt: skip
    left = curves[0]
    for curve in curves[1:]:
        left = left + curve
    right = curves[-1]
    for curve in reversed(curves[:-1]):
        right = curve + right
    for merged in (left, right):
        assert merged.labels == whole.labels
        for label in range(m):
            assert np.array_equal(merged.thresholds(label), whole.thresholds(label))
            assert merged.thresholds(label).dtype == whole.thresholds(label).dtype
            mine, theirs = merged.cells(label).counts(), whole.cells(label).counts()
            for name in ("tp", "fp", "fn", "tn"):
                if batches[0][2] == "float":
                    assert np.allclose(mine[name], theirs[name])
                else:
                    assert mine[name].dtype == np.int64 and np.array_equal(mine[name], theirs[name])
        micro, expected = merged.micro(), whole.micro()
        assert np.array_equal(micro.thresholds(), expected.thresholds())
        assert np.allclose(np.asarray(micro.cells().tp, dtype=float), np.asarray(expected.cells().tp, dtype=float))


@given(binary_case(), st.data())
def test_binned_curve_points_are_exact_and_its_areas_are_bounded(case, data):
    y_true, y_score = case
    weight = weighted(data, len(y_true))
    grid = data.draw(st.one_of(st.integers(2, 12), st.lists(score_values, min_size=1, max_size=6)))
    exact = ThresholdCurve.from_scores(y_true, y_score, sample_weight=weight)
    binned = ThresholdCurve.from_scores(y_true, y_score, sample_weight=weight, thresholds=grid)
    assert binned.thresholds()[-1] == -np.inf
    for threshold in binned.thresholds():
        assert all(np.allclose(a, b) for a, b in zip(binned.at(threshold).class_cells.rows(), exact.at(threshold).class_cells.rows()))
    for kind in ("roc_auc", "average_precision"):
        value = exact.roc_auc() if kind == "roc_auc" else exact.average_precision()
        low, high = binned.area_bounds(kind)
        if math.isnan(value):
            assert math.isnan(low) and math.isnan(high)
        else:
            assert low - 1e-12 <= value <= high + 1e-12
    if not math.isnan(exact.roc_auc()):
        low, high = binned.area_bounds()
        assert low - 1e-12 <= binned.roc_auc() <= high + 1e-12  # the trapezoid lies between the bounds


@given(st.one_of(st.integers(2, 5000), st.lists(score_values, min_size=1, max_size=8)), st.data())
def test_a_grid_of_thresholds_places_each_score_as_a_search_does(thresholds, data):
    # a binned curve places each score among evenly spaced thresholds by arithmetic, corrected
    # by one comparison each way: the same place as numpy's search, at and next to every threshold
    from evalkit._scores.curve_points import _even_search, _grid

    edges = _grid(thresholds)[-2::-1]  # ascending, without the -inf every grid ends with
    near = np.concatenate([edges, np.nextafter(edges, np.inf), np.nextafter(edges, -np.inf), [0.0, -0.0, 1.0, -np.inf, np.inf, 1e308, -1e308]])
    drawn = np.array(data.draw(st.lists(st.floats(allow_nan=False), max_size=30)), dtype=np.float64)
    for values in (near, drawn, np.array([np.nan, 0.5])):
        assert np.array_equal(_even_search(edges, values), np.searchsorted(edges, values, side="right"))


def test_binned_curves_merge_batch_by_batch_in_bounded_memory():
    rng = np.random.default_rng(7)
    grid = np.linspace(0, 1, 51)
    total = None
    for _ in range(5):
        y = rng.integers(0, 3, 2000)
        s = rng.dirichlet([1, 1, 1], 2000) * 0.5 + np.eye(3)[y] * 0.5
        batch = ThresholdCurve.from_scores(y, s, thresholds=grid)
        total = batch if total is None else total + batch
    assert len(total.thresholds(0)) == 52  # the grid and -inf, whatever the number of samples
    with pytest.raises(LabelMismatchError):
        total + ThresholdCurve.from_scores(y, s, thresholds=11)


def test_a_curve_never_shares_memory_with_its_inputs():
    y, s = np.array([1, 0, 1, 0, 1]), np.array([0.9, 0.7, 0.5, 0.3, 0.1])  # distinct scores, highest first
    grid = np.array([0.8, 0.4, 0.0])
    counts = (np.array([0.1, 0.3, 0.5]), np.array([1, 0, 1]), np.array([1, 1, 0]))
    curves = [ThresholdCurve.from_scores(y, s), ThresholdCurve.from_scores(y, s, thresholds=grid),
              ThresholdCurve.from_score_counts([counts], [1])]  # fmt: skip
    before = [curve.cells().tp.copy() for curve in curves] + [curve.thresholds().copy() for curve in curves]
    for array in (y, s, grid, *counts):
        array[...] = 0
    after = [curve.cells().tp for curve in curves] + [curve.thresholds() for curve in curves]
    for old, new in zip(before, after):
        np.testing.assert_array_equal(old, new)


def test_best_threshold_is_the_brute_force_optimum():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 300)
    s = np.round(np.clip(0.25 * y + rng.normal(0.4, 0.2, 300), 0, 1), 2)
    curve = ThresholdCurve.from_scores(y, s)
    for measure in ("f1_score", "matthews_correlation_coefficient", "informedness", "error_rate"):
        best = curve.best_threshold(measure)
        values = {t: Evaluation.from_scores(y, np.column_stack([1 - s, s]), threshold=[2.0, t]).per_class(measure)[1] for t in np.unique(s)}
        values = {t: v for t, v in values.items() if not math.isnan(v)}
        target = max(values.values()) if measure != "error_rate" else min(values.values())
        assert best.value == pytest.approx(target)
        assert best.threshold == max(t for t, v in values.items() if v == pytest.approx(target))
    with pytest.raises(InvalidArgumentError, match="direction"):
        curve.best_threshold("prevalence")


def test_best_threshold_per_class_and_averaged():
    y = ["a", "b", "c", "c", "b", "a"]
    s = np.array([[0.7, 0.2, 0.1], [0.3, 0.6, 0.1], [0.2, 0.2, 0.6], [0.1, 0.5, 0.4], [0.4, 0.4, 0.2], [0.5, 0.1, 0.4]])
    curve = ThresholdCurve.from_scores(y, s, labels=["a", "b", "c"])
    per_class = curve.best_threshold("f1_score")
    assert per_class.threshold.shape == (3,)
    at = curve.at(per_class.threshold)
    assert at.per_class("f1_score").tolist() == pytest.approx(per_class.value.tolist())
    macro = curve.best_threshold("f1_score", average="macro")
    assert float(curve.at(macro.threshold).average("f1_score", "macro")) == pytest.approx(macro.value)
    assert curve.best_threshold("f1_score", "b").value == per_class.value[1]


def test_a_subclass_getter_is_read_at_every_threshold():
    class Youden(ClassificationMetrics):
        def get_youden(self) -> float:
            """Youden's J: recall + specificity - 1."""
            return self.get_recall() + self.get_specificity() - 1

    curve = ThresholdCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    values, _ = curve.evaluate("youden", metrics_class=Youden)
    assert values.tolist() == pytest.approx(curve.evaluate("informedness")[0].tolist())
    with pytest.raises(UnknownMetricError, match="f1_score"):
        curve.evaluate("f1_scor")


def test_hand_computed_reference_values():
    # Fawcett, "An introduction to ROC analysis" (2006), Fig. 3: 20 instances, 10 positives;
    # the step curve has AUC 0.68
    scores = [0.9, 0.8, 0.7, 0.6, 0.55, 0.54, 0.53, 0.52, 0.51, 0.505, 0.4, 0.39, 0.38, 0.37, 0.36, 0.35, 0.34, 0.33, 0.30, 0.1]
    classes = "ppnpppnnpnpnpnnnpnpn"
    curve = ThresholdCurve.from_scores([c == "p" for c in classes], scores)
    assert curve.roc_auc() == pytest.approx(0.68)
    # scikit-learn's documented examples: roc_curve thresholds and average precision 0.83
    fpr, tpr, thresholds = curve.roc()
    assert fpr[0] == 0 and tpr[0] == 0 and thresholds[0] == np.inf
    assert ThresholdCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).average_precision() == pytest.approx(0.8333, abs=1e-4)


def test_hand_and_till_on_a_worked_example():
    # three classes, each sample scored perfectly for its own class against every other: M = 1;
    # reversing one column's order for one pair lowers that pair's AUC by a half
    y = [0, 1, 2]
    perfect = [[0.8, 0.1, 0.1], [0.1, 0.8, 0.1], [0.1, 0.1, 0.8]]
    assert one_vs_one_roc_auc(y, perfect) == 1.0
    swapped = [[0.3, 0.4, 0.3], [0.4, 0.5, 0.1], [0.1, 0.1, 0.8]]  # column 0 ranks sample 1 above sample 0
    assert one_vs_one_roc_auc(y, swapped) == pytest.approx((0.5 + 1 + 1) / 3)


def test_theory_meets_data_f1_optimal_threshold_near_half_the_best_f1():
    """On calibrated scores the F1-optimal threshold is F*/2 (Lipton, Elkan and Naryanaswamy,
    "Optimal Thresholding of Classifiers to Maximize F1 Measure", 2014)."""
    rng = np.random.default_rng(11)
    probability = rng.beta(0.6, 1.4, 200_000)
    y = rng.random(200_000) < probability  # calibrated: P(y = 1 | score) = score
    best = ThresholdCurve.from_scores(y, probability).best_threshold("f1_score")
    assert best.threshold == pytest.approx(best.value / 2, abs=0.02)


def test_errors_name_the_argument():
    with pytest.raises(InvalidArgumentError, match="pos_label"):
        ThresholdCurve.from_scores(["a", "b"], [0.2, 0.4])
    with pytest.raises(InputShapeError, match="columns"):
        ThresholdCurve.from_scores([0, 1, 1], [[0.2, 0.4], [0.1, 0.3], [0.3, 0.3]], labels=[0, 1, 2])
    with pytest.raises(InputShapeError, match="labels"):
        ThresholdCurve.from_scores([0, 1, 2], [[0.2, 0.4], [0.1, 0.3], [0.3, 0.3]])
    with pytest.raises(UnknownLabelError):
        ThresholdCurve.from_scores([0, 1, 5], [[0.2, 0.4], [0.1, 0.3], [0.3, 0.3]], labels=[0, 1])
    curve = ThresholdCurve.from_scores([0, 1, 2], [[0.2, 0.4, 0.4], [0.1, 0.3, 0.6], [0.3, 0.3, 0.4]])
    with pytest.raises(InvalidArgumentError, match="label"):
        curve.roc()
    with pytest.raises(UnknownLabelError):
        curve.roc(True)
    with pytest.raises(UnsupportedSettingError, match="from_scores"):
        curve.at(0.3).average("recall", "samples")
    with pytest.raises(InvalidArgumentError, match="binned"):
        ThresholdCurve.from_scores([0, 1], [0.2, 0.7], thresholds=5).at(0.3)
    with pytest.raises(InvalidArgumentError, match="thresholds"):
        ThresholdCurve.from_scores([0, 1], [0.2, 0.7], thresholds=[math.nan])


def test_inputs_are_never_mutated():
    y, s, w = np.array([0, 1, 1, 0]), np.array([0.3, 0.2, 0.9, 0.3]), np.array([1, 2, 0, 1])
    copies = y.copy(), s.copy(), w.copy()
    ThresholdCurve.from_scores(y, s, sample_weight=w).roc_auc()
    assert all(np.array_equal(a, b) for a, b in zip((y, s, w), copies))


def test_binary_cells_at_a_threshold_make_a_confusion_matrix():
    cells = ThresholdCurve.from_scores(["ham", "spam", "spam"], [0.1, 0.8, 0.4], pos_label="spam").at(0.5)
    matrix = cells.confusion_matrix()
    assert matrix.labels == ("ham", "spam") and matrix.to_array().tolist() == [[1, 0], [1, 1]]
    assert cells.whole_measures()["accuracy"] == pytest.approx(2 / 3)
    assert [metrics.get_recall() for metrics in cells.class_metrics()] == [0.5]


def test_warnings_of_the_undefined_binary_cases():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fpr, _tpr, _ = ek.roc_curve([1, 1], [0.2, 0.4])
    assert np.isnan(fpr).all() and any("No negative samples" in str(w.message) for w in caught)


def test_curve_counts_stream_equals_one_curve():
    from evalkit._scale.streaming import CurveCounts

    rng = np.random.default_rng(2)
    y = rng.choice(["a", "b", "c"], 3000)
    s = rng.dirichlet([1, 1, 1], 3000)
    for thresholds in (None, 21):
        counts, other = CurveCounts(thresholds=thresholds), CurveCounts(thresholds=thresholds)
        for start in range(0, 2000, 500):
            counts.update(y[start : start + 500], s[start : start + 500])
        other.update(y[2000:], s[2000:])
        whole = ThresholdCurve.from_scores(y, s, thresholds=thresholds)
        streamed = (counts + other).curve()
        assert streamed.labels == ("a", "b", "c")
        assert all(np.array_equal(a, b) for a, b in zip(streamed.cells("b").rows(), whole.cells("b").rows()))
    with pytest.raises(EmptyInputError, match="no scores"):
        CurveCounts().curve()
    binary = CurveCounts(thresholds=5, pos_label="yes")
    binary.update(["no", "yes"], [0.2, 0.9])
    binary.update(["yes", "yes"], [0.4, 0.5])  # a batch of one class: the positive class stays the first batch's
    assert binary.curve().positives.tolist() == [3] and binary.curve().negative_label == "no"


def test_scores_of_no_class_are_refused_naming_the_shape():
    """Hypothesis found 3 x 0 indicator rows and scores, which reached numpy's concatenate."""
    from evalkit import metrics
    from evalkit.exceptions import InputShapeError

    for function in (metrics.roc_auc_score, metrics.average_precision_score):
        with pytest.raises(InputShapeError, match=r"got shape \(3, 0\)"):
            function([[], [], []], [[], [], []])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 40)), min_size=2, max_size=40), st.integers(0, 2**62 - 100))
def test_integer_scores_rank_as_integers_at_any_magnitude(samples, offset):
    """Nanosecond timestamps and ids: distinct integers beyond 2**53 must not tie."""
    y = [label for label, _ in samples]
    small = np.array([score for _, score in samples], dtype=np.int64)
    if len(set(y)) < 2:
        return
    large = small + np.int64(offset)
    assert ek.roc_auc_score(y, large) == ek.roc_auc_score(y, small)
    assert ek.average_precision_score(y, large) == ek.average_precision_score(y, small)
    from evalkit import ThresholdCurve

    curve = ThresholdCurve.from_scores(y, large)
    assert len(curve.roc()[2]) == len(ThresholdCurve.from_scores(y, small).roc()[2])
    threshold = int(large[0])
    assert curve.at(threshold).per_class("recall").tolist() == ThresholdCurve.from_scores(y, small).at(int(small[0])).per_class("recall").tolist()


def test_the_example_of_two_adjacent_large_integers():
    assert ek.roc_auc_score([0, 1], np.array([2**53, 2**53 + 1])) == 1.0


@pytest.mark.parametrize("scores", [np.array([2**63, 2**63 + 1, 2**64 - 2, 2**64 - 1], dtype=np.uint64), np.array([2**53, 2**53 + 1, 2**53 + 2, 2**53 + 3])])
def test_integer_scores_beyond_float64_keep_their_order_and_their_values_in_json(scores):
    """Unsigned scores of 2**63 or more (which int64 cannot hold: they were rounded to float64
    and tied) rank as scikit-learn ranks them; a curve of integer scores beyond 2**53 reads back
    from its JSON document with the same scores (the reader rounded them, then refused them as
    not increasing)."""
    from evalkit import ThresholdCurve

    y = [0, 1, 0, 1]
    assert ek.roc_auc_score(y, scores) == sk.roc_auc_score(y, scores) == 0.75
    assert ek.average_precision_score(y, scores) == pytest.approx(sk.average_precision_score(y, scores))
    curve = ThresholdCurve.from_scores(y, scores)
    again = ThresholdCurve.from_json(curve.to_json())
    assert again == curve and again.thresholds().tolist() == curve.thresholds().tolist() == sorted(scores.tolist(), reverse=True)


@pytest.mark.parametrize("kind", ['ThresholdCurve', 'ThresholdCurve, binned'])
@given(data=counted_samples())
def test_a_threshold_curve_follows_the_counted_state_protocol(kind, data):
    """Merged parts equal the whole in any order, ``(a + b) - b == a``, scaling, JSON and
    pickle round trips (``harness.check_kind``)."""
    check_kind(kind, data)


@given(binary_case(min_size=2), st.sampled_from(sorted(SCORE_MEASURES)), st.booleans(), st.data())
def test_score_measures_agree_on_every_face(case, name, weighted, data):
    y_true, y_score = case
    if len(set(y_true)) < 2:
        y_true = [0, 1, *y_true[2:]]  # both classes: every area is defined
    if name in ("brier_score", "log_loss"):
        y_score = [min(max(abs(score) / 3, 0.0), 1.0) for score in y_score]  # probabilities
    weight = data.draw(st.lists(st.integers(1, 4), min_size=len(y_true), max_size=len(y_true))) if weighted else None
    cut = data.draw(st.integers(1, len(y_true) - 1))
    check_score_faces(name, y_true, y_score, weight, cut)


def test_the_score_harness_fails_when_a_face_is_wrong(monkeypatch):
    from evalkit import ThresholdCurve

    y_true, y_score = [0, 1, 1, 0, 1], [0.1, 0.8, 0.4, 0.35, 0.9]
    check_score_faces("roc_auc", y_true, y_score, None, 2)
    original = ThresholdCurve.roc_auc
    monkeypatch.setattr(ThresholdCurve, "roc_auc", lambda self, *args, **kwargs: original(self, *args, **kwargs) + 1e-6)
    with pytest.raises(AssertionError, match="roc_auc: .* gives 1.000001"):
        check_score_faces("roc_auc", y_true, y_score, None, 2)


@pytest.mark.parametrize(
    ("y_true", "scores", "weights", "weka"),
    [
        ([1, 0, 0, 1], [0.5] * 4, None, 0.5),
        ([1, 1, 0, 0], [0.9, 0.8, 0.3, 0.2], None, 1.0),
        ([0, 0, 1, 1], [0.9, 0.8, 0.3, 0.2], None, 0.41666666666666663),
        ([1, 0, 1, 0, 1, 0], [0.9, 0.8, 0.7, 0.7, 0.4, 0.1], [1, 1, 2, 1, 1, 1], 0.7166666666666667),
    ],
)
def test_average_precision_is_wekas_prc_area(y_true, scores, weights, weka):
    """Weka 3.8's ``ThresholdCurve.getPRCArea`` (its source, compiled and run on these cases) is
    step-wise average precision, ties one step (the trapezoid under the same points would give
    0.75 for the first case, 0.2917 for the third)."""
    curve = ThresholdCurve.from_scores(y_true, scores, pos_label=1, sample_weight=weights)
    assert curve.average_precision() == pytest.approx(weka, abs=1e-15)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.sampled_from([0.1, 0.2, 0.35, 0.5, 0.8, 0.9]), st.integers(1, 3)), min_size=2, max_size=30),
       st.sampled_from([2, 3, 11, 101]))  # fmt: skip
def test_n_point_precision_is_the_highest_precision_at_each_recall_level(rows, n):
    """The textbook definition (Manning, Raghavan & Schütze 2008, §8.4) on scikit-learn's
    precision-recall points (its thresholds'): at each of ``n`` recall levels, the highest
    precision of the points at that recall or above."""
    y, score, weight = (list(column) for column in zip(*rows))
    assume(0 < sum(y) < len(y))
    precision, recall, _ = sk.precision_recall_curve(y, score, sample_weight=weight)
    precision, recall = precision[:-1], recall[:-1]  # (scikit-learn's closing point, recall 0 at precision 1: no threshold's)
    expected = np.mean([max((p for p, r in zip(precision, recall) if r >= level - 1e-12), default=0.0) for level in np.linspace(0, 1, n)])
    curve = ThresholdCurve.from_scores(y, score, pos_label=1, sample_weight=weight)
    assert curve.n_point_precision(n) == pytest.approx(expected, abs=1e-12)


def test_n_point_precision_of_a_ranking_by_hand_and_its_refusals():
    """Positives at ranks 1 and 3 of 4: precision 1 at recall 1/2, 2/3 at recall 1; the three
    levels 0, 1/2, 1 read 1, 1 and 2/3."""
    curve = ThresholdCurve.from_scores([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    assert curve.n_point_precision(3) == pytest.approx((1 + 1 + 2 / 3) / 3)
    assert math.isnan(ThresholdCurve.from_scores([0, 0], [0.2, 0.4], pos_label=1).n_point_precision())
    for n in (1, 2.5, True):
        with pytest.raises(InvalidArgumentError, match="'n'"):
            curve.n_point_precision(n)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.sampled_from([0.1, 0.2, 0.35, 0.5, 0.8, 0.9]), st.integers(0, 3)), min_size=2, max_size=30))
def test_the_cost_curve_is_the_lower_envelope_of_the_thresholds_cost_lines(rows):
    """Drummond & Holte (2006): at every probability cost, the least normalised expected cost
    of any threshold, ``FNR · pc + FPR · (1 − pc)``, read from the corners by linear interpolation."""
    y, score, weight = (list(column) for column in zip(*rows))
    assume(sum(w for label, w in zip(y, weight) if label) > 0 and sum(w for label, w in zip(y, weight) if not label) > 0)
    curve = ThresholdCurve.from_scores(y, score, pos_label=1, sample_weight=weight)
    fpr, tpr, _ = curve.roc(drop_intermediate=False)
    grid = np.linspace(0, 1, 257)
    envelope = np.min((1 - tpr)[:, None] * grid + fpr[:, None] * (1 - grid), axis=0)
    pc, cost = curve.cost_curve()
    assert np.all(np.diff(pc) > 0) and pc[0] == 0 and pc[-1] == 1
    assert np.allclose(np.interp(grid, pc, cost), envelope, atol=1e-12)


def test_a_cost_curve_of_one_class_is_undefined():
    pc, cost = ThresholdCurve.from_scores([1, 1], [0.2, 0.4], pos_label=1).cost_curve()
    assert pc.tolist() == [0.0, 1.0] and np.isnan(cost).all()


def test_n_point_precision_does_not_count_a_point_no_threshold_gives():
    """The precision-recall curve's closing point (recall 0, precision 1) is scikit-learn's
    drawing aid, no threshold's: one positive ranked last reads precision 1/2 at every level."""
    curve = ThresholdCurve.from_scores([0, 1], [0.9, 0.1])
    assert curve.n_point_precision(11) == pytest.approx(0.5) and curve.n_point_precision(2) == pytest.approx(0.5)


def test_the_cost_curve_has_no_corner_twice():
    y = [0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 0, 0, 1, 1, 0, 1]
    s = [3, 1, 2, 2, 0, 1, 1, 1, 0, 4, 1, 1, 2, 0, 3, 1, 3, 3]
    pc, _ = ThresholdCurve.from_scores(y, s, pos_label=1).cost_curve()
    assert np.all(np.diff(pc) > 0)


def test_curves_of_equal_counts_are_equal_whatever_the_type_of_the_counts():
    """Whole counts (int64) and float counts of the same values compare as the numbers they are."""
    from evalkit import ThresholdCurve

    y, s = [0, 1, 1, 0, 1], [0.2, 0.9, 0.4, 0.4, 0.7]
    scaled = ThresholdCurve.from_scores(y, s).scaled(2)
    assert scaled == ThresholdCurve.from_scores(y, s, sample_weight=[2] * 5) == ThresholdCurve.from_scores(y, s, sample_weight=[2.0] * 5)
    assert ThresholdCurve.from_scores(y, s) == ThresholdCurve.from_scores(y, s, sample_weight=[1.0] * 5)
    assert scaled != ThresholdCurve.from_scores(y, s, sample_weight=[2, 2, 2, 2, 3])
    assert ThresholdCurve.from_scores([1], [0.5], sample_weight=[3]) != ThresholdCurve.from_scores([1], [0.5], sample_weight=[0.1 + 0.2]).scaled(10)


def test_merged_integer_scores_beyond_2_53_stay_integers_as_counted_at_once():
    """A curve of integer scores beyond 2**53 merged with one of smaller integer scores is the
    curve of both batches counted at once (int64), in any order; with fractions both round to
    float64; a stream's single scores beyond 2**53 are not rounded; best thresholds are ints."""
    from evalkit import CurveCounts, ThresholdCurve

    big, small = np.array([2**60, 2**60 + 1]), np.array([1, 2])
    a, b = ThresholdCurve.from_scores([0, 1], big), ThresholdCurve.from_scores([0, 1], small)
    whole = ThresholdCurve.from_scores([0, 1, 0, 1], np.concatenate([big, small]))
    assert a + b == b + a == whole and (a + b).thresholds().dtype == np.int64 and (a + b) - b == a and (a + b) - a == b
    halves = ThresholdCurve.from_scores([0, 1], [0.25, 0.75])
    assert a + halves == ThresholdCurve.from_scores([0, 1, 0, 1], [*big.tolist(), 0.25, 0.75])  # (float64, as numpy reads the mix)
    counts = CurveCounts()
    counts.update([0, 1], big.tolist())
    counts.update([1], [2**60 + 2])
    assert counts.curve() == ThresholdCurve.from_scores([0, 1, 1], [2**60, 2**60 + 1, 2**60 + 2])
    found = a.best_threshold("f1_score").threshold
    assert type(found) is int and found == 2**60 + 1
