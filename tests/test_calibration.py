"""Calibration: every estimator against a per-sample reference written from its definition,
scikit-learn's calibration_curve, log_loss and brier_score_loss, exact merges and JSON."""

from __future__ import annotations

import itertools
import math
import warnings
from statistics import NormalDist

import numpy as np
import pytest
import sklearn.calibration as skc
import sklearn.metrics as skm
from harness import (
    check_calibration_faces,
    check_kind,
    counted_samples,
    reference_calibration_error,
)
from hypothesis import assume, given
from hypothesis import strategies as st
from sklearn.isotonic import IsotonicRegression
from strategies import binary_probabilities, class_probabilities, close, make_weight

import evalkit
from evalkit import ConfusionMatrix, metrics
from evalkit._scores.calibration import DEFAULT_BINS, Calibration, quantile_edges, uniform_bins
from evalkit.exceptions import (
    FormatError,
    InvalidArgumentError,
    InvalidValueError,
    LabelMismatchError,
    UnsupportedSettingError,
)

NORMS = ("l1", "l2", "max")


# --------------------------------------------------------------------------------------------
# the reference: per-sample Python from the definitions


def reference_bins(scores, weights, n_bins, strategy):
    """scikit-learn's bins: np.searchsorted of the inner edges; equal-mass edges are numpy's
    percentiles of the samples the (integer) weights repeat."""
    scores = np.asarray(scores, dtype=float)
    if strategy == "uniform":
        edges = np.linspace(0.0, 1.0, n_bins + 1)
    else:
        edges = np.percentile(np.repeat(scores, np.asarray(weights, dtype=int)), np.linspace(0, 1, n_bins + 1) * 100)
    return np.searchsorted(edges[1:-1], scores)


def reference_groups(scores, outcomes, weights, n_bins, strategy):
    """Per non-empty bin: (weight, Σ w c, Σ w y), in Python floats, sample by sample."""
    groups: dict[int, list[float]] = {}
    for score, outcome, weight, b in zip(scores, outcomes, weights, reference_bins(scores, weights, n_bins, strategy)):
        if weight > 0:
            group = groups.setdefault(int(b), [0.0, 0.0, 0.0])
            group[0] += weight
            group[1] += weight * score
            group[2] += weight * outcome
    return [groups[b] for b in sorted(groups)]


def reference_error(scores, outcomes, weights, n_bins, strategy, norm, estimator="binned"):
    """The binned errors as Guo et al. (2017) define them and torchmetrics documents its l1, l2
    and max norms (``Σ_b p_b |acc_b - conf_b|``, ``sqrt(Σ_b p_b (acc_b - conf_b)²)``,
    ``max_b |acc_b - conf_b|``), over scikit-learn's bins; the debiased forms as Ferro and
    Fricker (l2) and Kumar et al. (l1) write them."""
    groups = reference_groups(scores, outcomes, weights, n_bins, strategy)
    total = sum(w for w, _, _ in groups)
    gaps = [(y / w - c / w, w, y / w) for w, c, y in groups]
    if estimator == "binned":
        if norm == "l1":
            return sum(abs(gap) * w for gap, w, _ in gaps) / total
        if norm == "l2":
            return math.sqrt(sum(gap**2 * w for gap, w, _ in gaps) / total)
        return max(abs(gap) for gap, _, _ in gaps)
    if norm == "l2":  # Ferro and Fricker's unbiased square, as a signed root
        square = sum(w * (gap**2 - f * (1 - f) / (w - 1)) for gap, w, f in gaps if w > 1) / total
        return math.copysign(math.sqrt(abs(square)), square)
    normal = NormalDist()
    terms = 0.0
    for gap, w, f in gaps:  # Kumar et al.: 2|d| - E|d + Z|, Z ~ N(0, f(1 - f)/n)
        if w <= 1:
            continue
        sigma = math.sqrt(f * (1 - f) / w)
        folded = abs(gap) if sigma == 0 else sigma * math.sqrt(2 / math.pi) * math.exp(-(gap**2) / (2 * sigma**2)) + gap * (1 - 2 * normal.cdf(-gap / sigma))
        terms += w * (2 * abs(gap) - folded)
    return terms / total


def top_label(labels, probabilities):
    return probabilities.max(axis=1), (probabilities.argmax(axis=1) == labels).astype(int)


def draw_weights(data, kind, n):
    return make_weight(kind, n, data) or [1] * n


# --------------------------------------------------------------------------------------------
# bins


@given(st.lists(st.floats(0, 1, allow_subnormal=False), min_size=1, max_size=60), st.integers(1, 40), st.data())
def test_equal_width_bins_are_scikit_learns(scores, n_bins, data):
    edges = np.linspace(0, 1, n_bins + 1)
    near = [float(np.nextafter(edge, direction)) for edge in edges for direction in (0.0, 1.0)]  # every edge and its neighbours
    values = np.clip(np.array(scores + list(edges) + near), 0, 1)
    assert np.array_equal(uniform_bins(values, n_bins), np.searchsorted(edges[1:-1], values))


@given(st.lists(st.tuples(st.floats(0, 1, allow_subnormal=False), st.integers(1, 4)), min_size=1, max_size=30), st.integers(1, 12))
def test_equal_mass_edges_are_numpys_percentiles_of_the_repeated_samples(pairs, n_bins):
    scores = sorted({score for score, _ in pairs})
    weights = [sum(w for s, w in pairs if s == score) for score in scores]
    expanded = np.repeat(scores, weights)
    expected = np.percentile(expanded, np.linspace(0, 1, n_bins + 1) * 100)
    assert np.array_equal(quantile_edges(scores, weights, n_bins), expected)
    assert np.array_equal(quantile_edges(scores, np.array(weights, dtype=float), n_bins), expected)


# --------------------------------------------------------------------------------------------
# the binned and debiased errors, every setting, against the reference


@given(binary_probabilities(), st.sampled_from([None, "int", "float"]), st.integers(1, 20), st.sampled_from(["uniform", "quantile"]), st.data())
def test_binary_errors_equal_the_reference(case, weights, n_bins, strategy, data):
    y, p = case
    assume(not (strategy == "quantile" and weights == "float"))  # numpy has no linear percentiles of weighted samples
    w = draw_weights(data, weights, len(y))
    cal = Calibration.from_scores(y, p, sample_weight=None if weights is None else w)
    for norm in NORMS:
        for estimator in ("binned", "debiased"):
            if estimator == "debiased" and (norm == "max" or weights == "float"):
                continue
            expected = reference_error(p, y, w, n_bins, strategy, norm, estimator)
            found = [cal.error(norm, estimator=estimator, n_bins=n_bins, strategy=strategy)]
            if strategy == "uniform":  # the one-pass path of the function
                found.append(metrics.expected_calibration_error(y, p, n_bins=n_bins, norm=norm, estimator=estimator,
                                                                sample_weight=None if weights is None else w))  # fmt: skip
            for value in found:
                if estimator == "debiased" and norm == "l2":  # a signed root: compare the squares, where rounding is absolute
                    assert close(value * abs(value), expected * abs(expected), rel=1e-9, abs=1e-12)
                else:
                    assert close(value, expected, rel=1e-9, abs=1e-12)


@given(class_probabilities(), st.integers(1, 12), st.sampled_from([None, "int"]), st.data())
def test_top_label_errors_are_those_of_the_confidences(case, n_bins, weights, data):
    labels, probabilities = case
    w = draw_weights(data, weights, len(labels))
    confidence, correct = top_label(labels, probabilities)
    cal = Calibration.from_scores(labels, probabilities, sample_weight=None if weights is None else w)
    assert cal.setting == "top_label" and cal.labels == ("top label",)
    for norm in NORMS:
        expected = reference_error(confidence, correct, w, n_bins, "uniform", norm)
        assert close(cal.error(norm, n_bins=n_bins), expected, rel=1e-9, abs=1e-12)
        assert close(metrics.expected_calibration_error(labels, probabilities, n_bins=n_bins, norm=norm,
                                                        sample_weight=None if weights is None else w), expected, rel=1e-9, abs=1e-12)  # fmt: skip


@given(class_probabilities(), st.integers(1, 10), st.sampled_from(["uniform", "quantile"]))
def test_classwise_errors_average_the_classes_one_against_the_rest(case, n_bins, strategy):
    labels, probabilities = case
    m = probabilities.shape[1]
    ones = [1] * len(labels)
    cal = Calibration.from_scores(labels, probabilities, setting="classwise")
    per_class = [reference_error(probabilities[:, k], (labels == k).astype(int), ones, n_bins, strategy, "l1") for k in range(m)]
    assert np.allclose(cal.error(n_bins=n_bins, strategy=strategy, average=None), per_class, rtol=1e-9, atol=1e-12)
    assert close(cal.error(n_bins=n_bins, strategy=strategy), np.mean(per_class), rel=1e-9)
    support = np.bincount(labels, minlength=m)
    assert close(cal.error(n_bins=n_bins, strategy=strategy, average="weighted"), np.average(per_class, weights=support), rel=1e-9)
    pooled = reference_error(probabilities.ravel(), np.eye(m, dtype=int)[labels].ravel(), ones * m, n_bins, strategy, "l1")
    assert close(cal.error(n_bins=n_bins, strategy=strategy, average="micro"), pooled, rel=1e-9, abs=1e-12)
    assert close(cal.error(n_bins=n_bins, strategy=strategy, label=1), per_class[1], rel=1e-9, abs=1e-12)


def test_multilabel_indicators_are_each_label_one_against_the_rest():
    rng = np.random.default_rng(3)
    scores = rng.random((60, 3))
    truth = (rng.random((60, 3)) < scores).astype(int)
    cal = Calibration.from_scores(truth, scores, labels=["news", "sport", "tech"])
    assert cal.setting == "multilabel" and cal.labels == ("news", "sport", "tech")
    expected = [reference_error(scores[:, k], truth[:, k], [1] * 60, 10, "uniform", "l1") for k in range(3)]
    assert np.allclose(cal.error(n_bins=10, average=None), expected, rtol=1e-12)
    assert close(cal.error(n_bins=10, label="sport"), expected[1])
    bce = [skm.log_loss(truth[:, k], scores[:, k], labels=[0, 1]) for k in range(3)]
    assert close(cal.log_loss(), sum(bce))  # the labels' binary cross-entropies, summed per sample
    assert close(cal.brier_score(), np.mean(((truth - scores) ** 2).sum(axis=1)))


def test_a_score_of_exactly_one_is_in_the_last_bin_not_a_bin_of_its_own():
    # torchmetrics #3510: [0.95, 1.0] against [1, 0] share the last of 15 bins: |0.5 - 0.975| = 0.475
    assert metrics.expected_calibration_error([1, 0], [0.95, 1.0]) == pytest.approx(0.475, abs=1e-15)
    assert Calibration.from_scores([1, 0], [0.95, 1.0]).error() == pytest.approx(0.475, abs=1e-15)
    assert Calibration.from_scores([1, 0], [0.95, 1.0], bins=15).error() == pytest.approx(0.475, abs=1e-15)
    zero = Calibration.from_scores([0, 1], [0.0, 0.05])  # a score of 0 is in the first bin
    assert zero.reliability().weight.tolist() == [2.0] and zero.error() == pytest.approx(0.475)


def test_edge_cases_one_sample_empty_bins_and_ties_at_an_edge():
    one = Calibration.from_scores([1], [0.3])
    assert one.error() == pytest.approx(0.7) and one.error("max") == pytest.approx(0.7) and one.error("l2") == pytest.approx(0.7)
    assert one.error("l2", estimator="debiased") == 0.0  # a bin of one sample has no noise estimate: it adds nothing
    edge = Calibration.from_scores([1, 0, 1, 1], [0.2, 0.2, 0.2 + 1e-12, 0.9])  # 0.2 closes the first of 5 bins
    points = edge.reliability(n_bins=5)
    assert points.weight.tolist() == [2.0, 1.0, 1.0] and points.frequency.tolist() == [0.5, 1.0, 1.0]
    assert len(edge.reliability(n_bins=100).weight) == 3  # 97 empty bins are not points and add nothing
    assert close(edge.error(n_bins=100), reference_error([0.2, 0.2, 0.2 + 1e-12, 0.9], [1, 0, 1, 1], [1] * 4, 100, "uniform", "l1"))


def test_the_debiased_l2_error_is_zero_on_average_for_calibrated_scores():
    rng = np.random.default_rng(0)
    plug_in, debiased = [], []
    for _ in range(200):
        p = rng.random(200)
        y = rng.random(200) < p
        cal = Calibration.from_scores(y, p, bins=15)
        plug_in.append(cal.error())
        debiased.append(cal.error("l2", estimator="debiased"))
    assert np.mean(plug_in) > 0.07  # the plug-in ECE sees miscalibration that is not there
    assert abs(np.mean(debiased)) < 0.01


# --------------------------------------------------------------------------------------------
# binning-free


@given(binary_probabilities(), st.sampled_from([None, "int", "float"]), st.data())
def test_the_isotonic_error_is_the_distance_to_scikit_learns_isotonic_fit(case, weights, data):
    y, p = case
    w = draw_weights(data, weights, len(y))
    kept = np.array(w) > 0
    assume(kept.any())
    assume(np.all(np.diff(np.unique(np.array(p)[kept])) > 1e-12))  # scikit-learn pools scores closer than 1e-15 as ties
    fit = IsotonicRegression(increasing=True).fit(np.array(p)[kept], np.array(y)[kept], sample_weight=np.array(w, dtype=float)[kept])
    distance = np.abs(np.array(p)[kept] - fit.predict(np.array(p)[kept]))
    weight = np.array(w, dtype=float)[kept]
    cal = Calibration.from_scores(y, p, sample_weight=None if weights is None else w)
    assert close(cal.error(estimator="isotonic"), np.dot(weight, distance) / weight.sum(), rel=1e-9, abs=1e-12)
    assert close(cal.error("l2", estimator="isotonic"), math.sqrt(np.dot(weight, distance**2) / weight.sum()), rel=1e-9, abs=1e-12)
    assert close(cal.error("max", estimator="isotonic"), distance.max(), rel=1e-9, abs=1e-12)
    diagram = cal.reliability(estimator="isotonic")
    assert np.allclose(diagram.frequency, fit.predict(diagram.confidence), atol=1e-12)


# --------------------------------------------------------------------------------------------
# Brier score, decomposition, log loss, Spiegelhalter


@given(binary_probabilities(), st.sampled_from([None, "int", "float"]), st.sampled_from([None, 3, 10]), st.data())
def test_the_brier_decomposition_is_exact_and_the_scores_are_scikit_learns(case, weights, n_bins, data):
    y, p = case
    w = draw_weights(data, weights, len(y))
    sample_weight = None if weights is None else w
    cal = Calibration.from_scores(y, p, sample_weight=sample_weight)
    parts = cal.brier_decomposition(n_bins=n_bins)
    brier = skm.brier_score_loss(y, p, sample_weight=sample_weight, pos_label=1)
    assert close(parts.brier_score, brier, rel=1e-9, abs=1e-12) and close(cal.brier_score(), brier, rel=1e-9, abs=1e-12)
    identity = parts.reliability - parts.resolution + parts.uncertainty + parts.within_variance - parts.within_covariance
    assert close(identity, brier, rel=1e-9, abs=1e-12)
    total = sum(w)
    base = np.dot(w, y) / total
    assert close(parts.uncertainty, base * (1 - base), rel=1e-9, abs=1e-12)
    if n_bins is None:  # Murphy over the distinct scores, from its definition
        assert parts.within_variance == parts.within_covariance == 0
        groups = {}
        for score, outcome, weight in zip(p, y, w):
            group = groups.setdefault(score, [0.0, 0.0])
            group[0] += weight
            group[1] += weight * outcome
        reliability = sum(g[0] * (score - g[1] / g[0]) ** 2 for score, g in groups.items() if g[0] > 0) / total
        resolution = sum(g[0] * (g[1] / g[0] - base) ** 2 for g in groups.values() if g[0] > 0) / total
        assert close(parts.reliability, reliability, rel=1e-9, abs=1e-12) and close(parts.resolution, resolution, rel=1e-9, abs=1e-12)
    if len(set(y)) == 2:
        loss = skm.log_loss(y, p, sample_weight=sample_weight)
        assert close(cal.log_loss(), loss, rel=1e-9, abs=1e-12)


@given(class_probabilities())
def test_classwise_brier_score_and_log_loss_are_the_multiclass_ones(case):
    labels, probabilities = case
    cal = Calibration.from_scores(labels, probabilities, setting="classwise")
    assert close(cal.log_loss(), skm.log_loss(labels, probabilities, labels=range(probabilities.shape[1])), rel=1e-9, abs=1e-12)
    assert close(cal.brier_score(), metrics.brier_score_loss(labels, probabilities, scale_by_half=False), rel=1e-9, abs=1e-12)
    parts = metrics.brier_score_decomposition(labels, probabilities)
    assert close(parts.reliability - parts.resolution + parts.uncertainty, cal.brier_score(), rel=1e-9, abs=1e-12)


@given(binary_probabilities(), st.sampled_from([None, "int"]), st.data())
def test_spiegelhalters_z_from_its_definition(case, weights, data):
    y, p = case
    w = np.array(draw_weights(data, weights, len(y)), dtype=float)
    p, y = np.array(p), np.array(y)
    variance = np.dot(w, (1 - 2 * p) ** 2 * p * (1 - p))
    test = Calibration.from_scores(y, p, sample_weight=None if weights is None else w).spiegelhalter_test()
    if variance <= 1e-12:
        return
    z = np.dot(w, (y - p) * (1 - 2 * p)) / math.sqrt(variance)
    assert close(test.statistic, z, rel=1e-7, abs=1e-9)
    assert close(test.p_value, 2 * (1 - NormalDist().cdf(abs(z))), rel=1e-7, abs=1e-9)


# --------------------------------------------------------------------------------------------
# scikit-learn's calibration_curve


@given(binary_probabilities(), st.integers(1, 12), st.sampled_from(["uniform", "quantile"]))
def test_calibration_curve_is_scikit_learns(case, n_bins, strategy):
    y, p = case
    assume(len(set(y)) == 2)
    expected = skc.calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
    found = metrics.calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
    for mine, theirs in zip(found, expected):
        assert mine.shape == theirs.shape and np.allclose(mine, theirs, rtol=1e-12, atol=1e-12)


def test_calibration_curve_with_text_labels_and_its_errors():
    y = ["spam", "ham", "spam", "ham", "spam"]
    p = [0.9, 0.2, 0.6, 0.4, 0.7]
    for mine, theirs in zip(metrics.calibration_curve(y, p, pos_label="spam", n_bins=2), skc.calibration_curve(y, p, pos_label="spam", n_bins=2)):
        assert np.allclose(mine, theirs)
    with pytest.raises(InvalidValueError, match="Only binary"):
        metrics.calibration_curve([0, 1, 2], [0.1, 0.5, 0.9])
    with pytest.raises(InvalidValueError, match=r"probabilities in \[0, 1\]"):
        metrics.calibration_curve([0, 1], [0.1, 1.5])
    with pytest.raises(InvalidArgumentError, match="strategy"):
        metrics.calibration_curve([0, 1], [0.1, 0.5], strategy="kmeans")


# --------------------------------------------------------------------------------------------
# counts kept: exact and binned, merged, read back


@given(binary_probabilities(max_size=60), st.integers(1, 59), st.sampled_from([None, "int", "float"]), st.data())
def test_parts_merged_equal_the_whole(case, cut, weights, data):
    y, p = case
    w = draw_weights(data, weights, len(y))
    cut = min(cut, len(y) - 1)
    assume(cut >= 1)
    sample_weight = None if weights is None else w
    whole = Calibration.from_scores(y, p, sample_weight=sample_weight)
    first = Calibration.from_scores(y[:cut], p[:cut], sample_weight=None if weights is None else w[:cut])
    second = Calibration.from_scores(y[cut:], p[cut:], sample_weight=None if weights is None else w[cut:])
    assume(first.n_samples > 0 and second.n_samples > 0)
    if weights != "float":
        assert first + second == whole  # counts of samples: exactly
    merged = first + second
    for norm in NORMS:
        assert close(merged.error(norm), whole.error(norm), rel=1e-9, abs=1e-12)
    binned = Calibration.from_scores(y, p, sample_weight=sample_weight, bins=30)
    parts = Calibration.from_scores(y[:cut], p[:cut], sample_weight=None if weights is None else w[:cut], bins=30) + Calibration.from_scores(
        y[cut:], p[cut:], sample_weight=None if weights is None else w[cut:], bins=30
    )
    assert parts == binned and np.array_equal(parts._binned, binned._binned)  # exact sums: the same to the bit however batched
    for n_bins in (30, 10, 5):  # a binned calibration reads its bins and bins that divide them, as the exact counts do
        for norm in NORMS:
            assert close(binned.error(norm, n_bins=n_bins), whole.error(norm, n_bins=n_bins), rel=1e-9, abs=1e-12)
    assert close(binned.brier_score(), whole.brier_score(), rel=1e-9, abs=1e-12)
    assert close(binned.log_loss(), whole.log_loss(), rel=1e-9, abs=1e-12)
    exact_parts, binned_parts = whole.brier_decomposition(n_bins=30), binned.brier_decomposition()
    assert all(close(a, b, rel=1e-9, abs=1e-12) for a, b in zip(exact_parts, binned_parts))


@pytest.mark.parametrize("bins", [None, 20])
def test_json_round_trip_of_every_setting(bins):
    rng = np.random.default_rng(1)
    p = rng.dirichlet(np.ones(3), 50)
    labels = rng.integers(0, 3, 50)
    found = [
        Calibration.from_scores(["yes" if v else "no" for v in rng.random(50) < p[:, 0]], p[:, 0], pos_label="yes", bins=bins),
        Calibration.from_scores(labels, p, labels=["a", "b", "c"] if False else None, bins=bins),
        Calibration.from_scores(labels, p, setting="classwise", bins=bins, sample_weight=rng.random(50)),
        Calibration.from_scores((rng.random((50, 3)) < p).astype(int), p, bins=bins),
    ]
    for cal in found:
        back = Calibration.from_json(cal.to_json())
        assert back == cal and back.summary() == cal.summary()
    with pytest.raises(FormatError, match="setting"):
        Calibration.from_json(found[0].to_json().replace('"binary"', '"tertiary"'))


def test_the_summary_and_strict_dict():
    rng = np.random.default_rng(2)
    p = rng.random(100)
    cal = Calibration.from_scores(rng.random(100) < p, p)
    summary = cal.summary()
    assert summary["expected_calibration_error"] == cal.error(n_bins=DEFAULT_BINS)
    root = cal.error("l2", estimator="debiased")
    assert summary["debiased_mean_squared_calibration_error"] == math.copysign(root * root, root)
    assert 0 < summary["spiegelhalter_p_value"] <= 1
    assert set(cal.to_dict(strict=True)) >= {"setting", "labels", "brier_score", "log_loss"}


# --------------------------------------------------------------------------------------------
# intervals


def test_intervals_of_calibration_measures():
    rng = np.random.default_rng(0)
    p = rng.random(300)
    y = rng.random(300) < p**1.5
    cal = Calibration.from_scores(y, p)
    for measure, method in (("ece", "debiased"), ("rmsce", "debiased"), ("maximum_calibration_error", "bca"), ("brier_score", "bca"),
                            ("log_loss", "bca"), ("reliability", "bca")):  # fmt: skip
        options = {"n_bins": 10} if "calibration" in measure or measure in ("ece", "rmsce") else {}
        found = cal.interval(measure, random_state=0, n_resamples=400, **options)
        assert found.method == method and found.low <= found.estimate <= found.high, (measure, found)
        estimator = {"estimator": "debiased"} if method == "debiased" else {}
        assert found.estimate == cal.measure(measure, **options, **estimator)
    quantile = cal.interval("ece", n_bins=5, strategy="quantile", n_resamples=200, random_state=0)
    assert quantile.estimate == cal.error(n_bins=5, strategy="quantile", estimator="debiased") and quantile.low < quantile.high
    isotonic = cal.interval("ece", estimator="isotonic", method="percentile", n_resamples=50, random_state=0)
    assert isotonic.estimate == cal.error(estimator="isotonic") and isotonic.low < isotonic.high


def test_the_debiased_interval_is_the_normal_interval_around_the_debiased_estimate():
    rng = np.random.default_rng(1)
    p = rng.random(200)
    cal = Calibration.from_scores(rng.random(200) < p, p)
    z = NormalDist().inv_cdf(0.975)
    found = cal.interval("ece", random_state=3, n_resamples=300)
    spread = z * np.std(_replicates_of(cal, "ece", 3, 300))  # the same resamples the interval draws
    estimate = cal.error(estimator="debiased")
    assert (found.estimate, found.low, found.high) == pytest.approx((estimate, estimate - spread, estimate + spread))
    squared = cal.interval("rmsce", random_state=3, n_resamples=300)
    replicates = _replicates_of(cal, "rmsce", 3, 300)
    centre, spread = np.sign(d := cal.error("l2", estimator="debiased")) * d**2, z * np.std(np.sign(replicates) * replicates**2)
    signed_root = lambda x: math.copysign(math.sqrt(abs(x)), x)
    assert (squared.low, squared.high) == pytest.approx((signed_root(centre - spread), signed_root(centre + spread)))
    percentile = cal.interval("ece", estimator="debiased", method="percentile", random_state=3, n_resamples=300)
    assert (percentile.low, percentile.high) == pytest.approx(tuple(np.quantile(_replicates_of(cal, "ece", 3, 300), [0.025, 0.975])))
    same = Calibration.from_scores([1, 1, 1, 1], [1.0, 1.0, 1.0, 1.0]).interval(method="percentile", random_state=0)
    assert (same.low, same.high) == (0.0, 0.0)
    with pytest.raises(InvalidArgumentError, match="method='debiased' is for the binned ECE and RMSCE"):
        cal.interval("brier_score", method="debiased")
    with pytest.raises(UnsupportedSettingError, match="exact counts"):
        Calibration.from_scores([0, 1], [0.3, 0.6], bins=10).interval()
    with pytest.raises(UnsupportedSettingError, match="resample its columns apart"):
        Calibration.from_scores(rng.integers(0, 2, 200), np.stack([1 - p, p], axis=1), setting="classwise").interval()


def _replicates_of(cal, measure, seed, n_resamples):
    """The debiased estimate on the resamples the intervals draw (the same multinomial draws)."""
    from evalkit._scores.calibration_sums import _Sums  # the sums of a bin

    scores, positives, negatives = cal._curve.score_counts(cal._curve.labels[0])
    counts = np.concatenate([positives, negatives]).astype(np.float64)
    drawn = np.random.default_rng(seed).multinomial(int(counts.sum()), counts / counts.sum(), size=n_resamples)
    levels = len(scores)
    statistic = cal._statistic(measure, {"estimator": "debiased"})
    return statistic(scores, _Sums.of_scores(scores, drawn[:, :levels] + drawn[:, levels:], drawn[:, :levels].astype(np.float64)))


# --------------------------------------------------------------------------------------------
# bad input


def test_calibrations_of_true_and_1_never_combine():
    ints, bools = (Calibration.from_scores(truth, [0.2, 0.8, 0.6, 0.3], bins=5) for truth in ([0, 1, 1, 0], [False, True, True, False]))
    assert ints != bools  # the positive class True is not the class 1
    with pytest.raises(LabelMismatchError):
        ints + bools


def test_bad_input_is_refused_with_the_argument_named():
    with pytest.raises(InvalidValueError, match=r"row 1 of 'y_prob' sums to 1.5"):
        Calibration.from_scores([0, 1], [[0.5, 0.5], [0.5, 1.0]])
    with pytest.raises(InvalidValueError, match=r"\[0, 1\]"):
        Calibration.from_scores([0, 1], [-0.1, 0.5])
    with pytest.raises(InvalidArgumentError, match="'n_bins' must be an integer"):
        Calibration.from_scores([0, 1], [0.2, 0.7]).error(n_bins=0)
    with pytest.raises(InvalidArgumentError, match="'bins' must be an integer"):
        Calibration.from_scores([0, 1], [0.2, 0.7], bins=2.5)
    binned = Calibration.from_scores([0, 1], [0.2, 0.7], bins=10)
    with pytest.raises(UnsupportedSettingError, match="n_bins must divide 10"):
        binned.error(n_bins=3)
    with pytest.raises(UnsupportedSettingError, match="needs the exact counts"):
        binned.error(strategy="quantile")
    with pytest.raises(UnsupportedSettingError, match="exact counts"):
        binned.error(estimator="isotonic")
    with pytest.raises(UnsupportedSettingError, match="no debiased maximum"):
        binned.error("max", estimator="debiased")
    with pytest.raises(UnsupportedSettingError, match="integer sample weights"):
        Calibration.from_scores([0, 1, 1], [0.2, 0.7, 0.8], sample_weight=[0.5, 1.5, 2.5]).error(estimator="debiased")
    with pytest.raises(InvalidArgumentError, match="binning-free"):
        Calibration.from_scores([0, 1], [0.2, 0.7]).error(estimator="isotonic", n_bins=5)
    with pytest.raises(InvalidArgumentError, match="setting='top_label' does not fit"):
        Calibration.from_scores([0, 1], [0.2, 0.7], setting="top_label")
    with pytest.raises(LabelMismatchError, match="'bins': 10, .* with one of .*'bins': None"):
        binned + Calibration.from_scores([0, 1], [0.2, 0.7])
    with pytest.raises(InvalidArgumentError, match="give 'label'"):
        Calibration.from_scores([0, 1, 2], np.eye(3), setting="classwise").spiegelhalter_test()


def test_calibration_is_exported():
    assert evalkit.Calibration is Calibration


def test_a_stream_of_batches_equals_the_whole():
    from evalkit._scale.streaming import CalibrationCounts

    rng = np.random.default_rng(4)
    y = rng.integers(0, 3, 900)
    probabilities = rng.dirichlet(np.ones(3), 900)
    for bins in (None, 25):
        stream, empty = CalibrationCounts(bins=bins), CalibrationCounts(bins=bins)
        for start in range(0, 900, 300):
            stream.update(y[start : start + 300], probabilities[start : start + 300])
        whole = Calibration.from_scores(y, probabilities, bins=bins)
        assert close(stream.calibration().error(), whole.error()) and stream.calibration().classes == (0, 1, 2)
        assert (stream + empty).calibration() == stream.calibration() == (empty + stream).calibration()  # an empty side adds nothing
    with pytest.raises(evalkit.exceptions.EmptyInputError):
        CalibrationCounts().calibration()
    binary = CalibrationCounts()
    binary.update([True, False], [0.8, 0.3])
    binary.update([False], [0.4])  # the positive class of the first batch is kept
    assert binary.calibration().labels == (True,) and binary.calibration().n_samples == 3
    binary = CalibrationCounts(pos_label="yes")
    binary.update(["yes", "no"], [0.8, 0.3])
    binary.update(["no"], [0.4])
    assert binary.calibration().labels == ("yes",) and binary.calibration().n_samples == 3


# --------------------------------------------------------------------------------------------
# seen: reports, the HTML page, plots, the command line


def test_reports_carry_the_calibration_in_every_format(tmp_path, capsys):
    import json

    from evalkit.cli import main
    from evalkit.io._report import build_report

    rng = np.random.default_rng(7)
    y = rng.integers(0, 3, 120)
    probabilities = rng.dirichlet(np.ones(3), 120)
    cal = Calibration.from_scores(y, probabilities)
    report = build_report(ConfusionMatrix.from_predictions(y, probabilities.argmax(axis=1)), calibration=cal)
    assert report.calibration == cal.summary() and report.calibration_title == "calibration (top label, 15 equal-width bins)"
    assert "ece" in report.to_text() and "| ece |" in report.to_markdown()
    assert json.loads(report.to_json())["calibration"]["expected_calibration_error"] == pytest.approx(cal.error())
    assert "expected_calibration_error,calibration" in report.to_csv()
    assert report.to_flat_dict()["calibration/brier_score"] == pytest.approx(cal.brier_score())
    page = report.to_html()
    assert "Reliability diagram" in page and page.count("<circle") == len(cal.reliability().weight) and "<script" not in page
    assert "Reliability diagram" in report._repr_html_()
    with pytest.raises(evalkit.exceptions.InvalidTypeError, match="'calibration' must be a Calibration"):
        build_report(ConfusionMatrix.from_predictions(y, y), calibration="ece")
    classes = ["cat", "dog", "bird"]
    path = tmp_path / "scores.csv"
    rows = [f"{classes[a]}," + ",".join(f"{x:.6f}" for x in row) for a, row in zip(y, probabilities)]
    path.write_text("\n".join(["actual,p_cat,p_dog,p_bird", *rows]) + "\n", encoding="utf-8")
    read = np.array([[float(f"{x:.6f}") for x in row] for row in probabilities])
    labels = np.array([classes[a] for a in y])
    for setting in ("top_label", "classwise"):
        assert main(["report", str(path), "--scores", "p_*", "--calibration", setting, "--bins", "10", "--format", "json"]) == 0
        document = json.loads(capsys.readouterr().out)["calibration"]
        expected = Calibration.from_scores(labels, read, labels=classes, setting=setting, bins=10)
        assert document["expected_calibration_error"] == pytest.approx(expected.error(), abs=1e-12)
        order = np.argsort(classes)  # scikit-learn reads the columns in sorted label order
        with warnings.catch_warnings():  # rows rounded to 6 decimals sum to 1 within 1e-6 only: scikit-learn warns
            warnings.simplefilter("ignore", UserWarning)
            theirs = skm.log_loss(labels, read[:, order], labels=sorted(classes))
        assert document["log_loss"] == pytest.approx(theirs, abs=1e-12)  # of the probabilities
        if setting == "top_label":  # the top-label question's own log loss, under its own name
            assert document["top_label_log_loss"] == pytest.approx(expected.log_loss(), abs=1e-12) != document["log_loss"]
        else:
            assert document["log_loss"] == pytest.approx(expected.log_loss(), abs=1e-12)
    binary = tmp_path / "binary.csv"
    binary.write_text("actual,probability\n1,0.91\n0,0.40\n1,0.35\n0,0.72\n1,0.8\n", encoding="utf-8")
    html = tmp_path / "page.html"
    assert main(["report", str(binary), "--score", "probability", "--calibration", "--html", str(html)]) == 0
    assert "spiegelhalter p" in capsys.readouterr().out and "Reliability diagram" in html.read_text(encoding="utf-8")
    for wrong, message in ((["--calibration"], "give --score COLUMN"), (["--score", "probability", "--bins", "5"], "--bins applies with --calibration"),
                           (["--score", "probability", "--calibration", "classwise"], "classwise is for --scores")):  # fmt: skip
        assert main(["report", str(binary), *wrong]) == 2
        assert message in capsys.readouterr().err


def test_the_reliability_plot_draws_the_diagram():
    from evalkit import plots

    rng = np.random.default_rng(8)
    y = rng.integers(0, 3, 300)
    probabilities = rng.dirichlet(np.ones(3), 300)
    ax = plots.reliability(Calibration.from_scores(y, probabilities, setting="classwise"), per_class=True, n_bins=10)
    points = Calibration.from_scores(y, probabilities, setting="classwise").reliability(label=2, n_bins=10)
    assert len(ax.lines) == 4 and np.allclose(ax.lines[2].get_xdata(), points.confidence)  # three classes and the diagonal
    assert "ECE" in ax.get_legend().get_texts()[0].get_text()
    isotonic = plots.reliability(Calibration.from_scores(y == 1, probabilities[:, 1]), estimator="isotonic")
    assert len(isotonic.lines) == 2
    with pytest.raises(evalkit.exceptions.InvalidTypeError):
        plots.reliability([0.1, 0.2])


@given(binary_probabilities(), st.one_of(st.floats(allow_nan=True).filter(lambda x: not 0 <= x <= 1), st.sampled_from([-0.0 - 1e-300, 1 + 2.3e-16])),
       st.integers(1, 30))  # fmt: skip
def test_the_one_pass_path_refuses_every_score_outside_0_1(case, bad, n_bins):
    y, p = case
    with pytest.raises(InvalidValueError, match=r"probabilities in \[0, 1\]"):
        metrics.expected_calibration_error([*y, 1], [*p, bad], n_bins=n_bins)
    with pytest.raises(InvalidValueError, match=r"probabilities in \[0, 1\]|'y_prob' must be finite"):
        Calibration.from_scores([*y, 0], [*p, bad], bins=n_bins)


# --------------------------------------------------------------------------------------------
# edges: exact where an exact answer exists, an answer where the data have none


@given(binary_probabilities(max_size=80), st.lists(st.integers(1, 79), max_size=6), st.sampled_from([None, "int", "float"]),
       st.sampled_from([None, 7, 15]), st.data())  # fmt: skip
def test_a_calibration_does_not_depend_on_how_its_samples_were_batched(case, cuts, weights, bins, data):
    """Sums kept exactly (binned: exact float sums; exact counts: integers): any batching gives
    the same calibration, equal as objects and in every number to the bit, and its JSON too."""
    from evalkit._scale.streaming import CalibrationCounts

    y, p = case
    w = draw_weights(data, weights, len(y))
    if bins is None and weights == "float":
        return  # float weights of one score are summed in float64 by an exact curve (the documented limit)
    bounds = sorted({0, len(y), *(min(cut, len(y)) for cut in cuts)})
    stream = CalibrationCounts(bins=bins)
    for start, stop in itertools.pairwise(bounds):
        stream.update(y[start:stop], p[start:stop], sample_weight=None if weights is None else w[start:stop])
    whole = Calibration.from_scores(y, p, sample_weight=None if weights is None else w, bins=bins)
    batched = stream.calibration()
    assert batched == whole
    assert batched.summary() == whole.summary() or all(
        (math.isnan(a) and math.isnan(b)) or a == b for a, b in zip(batched.summary().values(), whole.summary().values()))
    assert Calibration.from_json(batched.to_json()) == whole


def test_the_brier_score_of_eight_rows_is_the_same_for_every_block_size(tmp_path, capsys):
    from evalkit.cli import main

    scores = [0.91, 0.13, 0.57, 0.08, 0.66, 0.34, 0.99, 0.45]
    path = tmp_path / "eight.csv"
    path.write_text("actual,p\n" + "".join(f"{k % 2},{s}\n" for k, s in enumerate(scores)), encoding="utf-8")
    documents = []
    for size in ("1", "3", "8"):
        assert main(["report", str(path), "--score", "p", "--calibration", "--batch-size", size, "--format", "json"]) == 0
        documents.append(capsys.readouterr().out)
    assert documents[0] == documents[1] == documents[2]


def test_spiegelhalters_p_value_far_in_the_tail_is_not_zero():
    """2 (1 - Φ(z)) cancels to 0 for z > 8.3; the complementary error function keeps it."""
    cal = Calibration.from_scores(np.ones(28, dtype=int), np.full(28, 0.2))  # 28 positives scored 0.2: z = 2 sqrt(28) = 10.58
    test = cal.spiegelhalter_test()
    assert test.statistic == pytest.approx(2 * math.sqrt(28)) and 1e-27 < test.p_value < 1e-25 and test.p_value == pytest.approx(math.erfc(abs(test.statistic) / math.sqrt(2)), rel=1e-15)
    scipy = pytest.importorskip("scipy.stats")
    assert test.p_value == pytest.approx(2 * scipy.norm.sf(abs(test.statistic)), rel=1e-12)


def test_a_debiased_error_that_is_exactly_zero_is_zero():
    """One bin of three samples, one positive, each scored 2/3: (1/3 - 2/3)² - (1/3)(2/3)/2 = 0
    exactly; in floats the difference is 1.4e-17, whose root would read 3.7e-9."""
    cal = Calibration.from_scores([1, 0, 0], [2 / 3] * 3)
    assert cal.error("l2", estimator="debiased", n_bins=1) == 0.0


@pytest.mark.parametrize("bins", [None, 10])
def test_samples_that_all_weigh_nothing_give_undefined_numbers_not_tracebacks(bins):
    cal = Calibration.from_scores([0, 1, 1, 0], [0.2, 0.7, 0.9, 0.4], sample_weight=[0, 0, 0, 0], bins=bins)
    for value in (cal.error(), cal.error("max"), cal.error("l2"), cal.brier_score(), cal.log_loss()):
        assert math.isnan(value)
    assert len(cal.reliability().weight) == 0
    if bins is None:
        assert math.isnan(cal.error(strategy="quantile")) and len(cal.reliability(strategy="quantile").weight) == 0
        with pytest.raises(InvalidValueError, match="at least one weight above 0"):  # the face refuses them, as scikit-learn's functions do
            metrics.calibration_curve([0, 1, 1, 0], [0.2, 0.7, 0.9, 0.4], sample_weight=[0, 0, 0, 0])
        with pytest.raises(InvalidValueError, match="at least one weight above 0"):
            metrics.expected_calibration_error([0, 1], [0.2, 0.7], sample_weight=[0, 0], strategy="quantile")


@pytest.mark.parametrize("bins", [None, 12])
def test_the_micro_column_of_several_reads_back_from_json(bins):
    rng = np.random.default_rng(5)
    labels = rng.integers(0, 3, 60)
    p = rng.dirichlet(np.ones(3), 60)
    for cal in (Calibration.from_scores(labels, p, setting="classwise", bins=bins),
                Calibration.from_scores((rng.random((60, 3)) < p).astype(int), p, bins=bins)):  # fmt: skip
        micro = cal.micro()
        back = Calibration.from_json(micro.to_json())
        assert back == micro and back.labels == ("micro",) and back.error() == micro.error()


@pytest.mark.parametrize("kind", ['Calibration', 'Calibration, binned'])
@given(data=counted_samples())
def test_a_calibration_follows_the_counted_state_protocol(kind, data):
    """Merged parts equal the whole in any order, ``(a + b) - b == a``, scaling, JSON and
    pickle round trips (``harness.check_kind``)."""
    check_kind(kind, data)


EDGE_PROBABILITIES = st.sampled_from([0.0, 0.1, 0.2, 0.25, 0.3, 0.5, 0.6, 0.7, 0.9, 1.0, 1 / 3, 2 / 3]) | st.floats(0.0, 1.0)


@given(st.integers(2, 30).flatmap(lambda n: st.tuples(st.lists(st.integers(0, 1), min_size=n, max_size=n),
                                                      st.lists(EDGE_PROBABILITIES, min_size=n, max_size=n))),
       st.sampled_from(["l1", "max"]), st.sampled_from([1, 2, 3, 5, 10, 15]), st.booleans(), st.data())  # fmt: skip
def test_calibration_errors_agree_on_every_face(columns, norm, n_bins, weighted, data):
    y_true, y_prob = (list(column) for column in columns)
    weight = data.draw(st.lists(st.integers(1, 4), min_size=len(y_true), max_size=len(y_true))) if weighted else None
    check_calibration_faces(norm, y_true, y_prob, weight, n_bins, data.draw(st.integers(1, len(y_true) - 1)))


def test_the_calibration_reference_gives_the_hand_computed_errors():
    # two bins, (0, 0.5] holds 0.2 and 0.4 (no positive: gap 0.3), (0.5, 1] holds 0.9 and 0.6 (both
    # positive: gap 0.25); ECE = 0.5 * 0.3 + 0.5 * 0.25 = 0.275, MCE = 0.3
    y_true, y_prob = [0, 1, 1, 0], [0.2, 0.9, 0.6, 0.4]
    assert reference_calibration_error(y_true, y_prob, None, 2, "l1") == pytest.approx(0.275)
    assert reference_calibration_error(y_true, y_prob, None, 2, "max") == pytest.approx(0.3)
    # 0.5 lies on the edge: right-closed bins put it in the first bin (gap |0.5 - 0| = 0.5, alone)
    assert reference_calibration_error([0, 1], [0.5, 1.0], None, 2, "max") == pytest.approx(0.5)
    check_calibration_faces("l1", y_true, y_prob, None, 2, 2)


def test_the_calibration_harness_fails_when_a_face_is_wrong(monkeypatch):
    from evalkit import Calibration

    original = Calibration.error
    monkeypatch.setattr(Calibration, "error", lambda self, *args, **kwargs: original(self, *args, **kwargs) + 1e-6)
    with pytest.raises(AssertionError, match="l1 calibration error: object gives"):
        check_calibration_faces("l1", [0, 1, 1, 0], [0.2, 0.9, 0.6, 0.4], None, 2, 2)
