"""Confidence intervals and paired comparisons against references: scipy's binomial intervals
and tests, statsmodels' kappa standard error, DeLong's pairwise definition, and the bootstrap
statistic recomputed from the resampled confusion matrix itself."""

import itertools
import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import binom, binomtest
from statsmodels.stats.inter_rater import cohens_kappa

from evalkit import (
    ClassificationMetrics,
    ConfusionMatrix,
    Covering,
    Evaluation,
    NeighborhoodSystem,
    ThresholdCurve,
    compare,
)
from evalkit._results import paired
from evalkit._results.intervals import (
    Interval,
    _pair_kinds,
    _pair_statistic,
    clopper_pearson,
    delong,
    kappa_standard_error,
    wilson,
)
from evalkit._results.paired import compare_many, mcnemar
from evalkit.cli import main
from evalkit.exceptions import (
    EvalkitWarning,
    InvalidArgumentError,
    UnsupportedSettingError,
)
from evalkit.formulas import get_measure


@given(st.integers(1, 300).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))), st.sampled_from([0.8, 0.9, 0.95, 0.99]))
def test_wilson_and_clopper_pearson_equal_scipy(case, level):
    k, n = case
    reference = binomtest(k, n)
    assert wilson(k, n, level) == pytest.approx(tuple(reference.proportion_ci(level, method="wilson")), abs=1e-9)
    assert clopper_pearson(k, n, level) == pytest.approx(tuple(reference.proportion_ci(level, method="exact")), abs=1e-9)


@given(st.integers(2, 4).flatmap(lambda m: st.lists(st.lists(st.integers(0, 30), min_size=m, max_size=m), min_size=m, max_size=m)))
def test_kappa_standard_error_equals_statsmodels(table):
    table = np.array(table)
    rows, columns = table.sum(axis=1), table.sum(axis=0)
    if table.sum() == 0 or float(rows @ columns) == table.sum() ** 2:
        assert math.isnan(kappa_standard_error(table))
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference = cohens_kappa(table)  # Fleiss, Cohen and Everitt (1969): statsmodels' std_kappa
    # compared as variances: near 0 both roots amplify rounding (statsmodels' can be the NaN root of -1e-17)
    theirs = 0.0 if math.isnan(reference.std_kappa) else reference.std_kappa**2
    assert kappa_standard_error(table) ** 2 == pytest.approx(theirs, rel=1e-9, abs=1e-13)


def pairwise_delong(y, scores):
    """DeLong's definition: the kernel psi over every (positive, negative) pair."""
    y = np.asarray(y)
    v10, v01, aucs = [], [], []
    for s in scores:
        s = np.asarray(s, dtype=float)
        x, z = s[y == 1], s[y == 0]
        psi = (x[:, None] > z[None, :]) + 0.5 * (x[:, None] == z[None, :])
        aucs.append(psi.mean())
        v10.append(psi.mean(axis=1))
        v01.append(psi.mean(axis=0))
    m, n = int((y == 1).sum()), int((y == 0).sum())
    return np.array(aucs), np.atleast_2d(np.cov(v10)) / m + np.atleast_2d(np.cov(v01)) / n


@given(st.integers(4, 40).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 1), min_size=n, max_size=n),
    st.lists(st.sampled_from([0.1, 0.2, 0.3, 0.5, 0.8]), min_size=n, max_size=n),
    st.lists(st.floats(0, 1), min_size=n, max_size=n),
)))  # fmt: skip
def test_fast_delong_equals_the_pairwise_definition_with_ties(case):
    y, first, second = case
    if sum(y) < 2 or len(y) - sum(y) < 2:
        with pytest.raises(UnsupportedSettingError):
            delong(y, first)
        return
    aucs, covariance = delong(y, first, second)
    reference_aucs, reference = pairwise_delong(y, [first, second])
    assert aucs == pytest.approx(reference_aucs, abs=1e-12)
    assert covariance == pytest.approx(reference, abs=1e-12)
    # the curve's DeLong interval, from its counts alone, has the same variance
    interval = ThresholdCurve.from_scores(y, first).interval(level=0.9)
    half = 1.6448536269514722 * math.sqrt(reference[0, 0])
    assert interval.low == pytest.approx(max(0.0, aucs[0] - half), abs=1e-9)
    assert interval.high == pytest.approx(min(1.0, aucs[0] + half), abs=1e-9)


@given(st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=60))
def test_mcnemar_equals_the_binomial_test_on_discordant_pairs(pairs):
    first, second = np.array([a for a, _ in pairs]), np.array([b for _, b in pairs])
    b, c = int((first & ~second).sum()), int((~first & second).sum())
    exact, midp = mcnemar(first, second), mcnemar(first, second, midp=True)
    if b + c == 0:
        assert exact == midp == 1.0
        return
    assert exact == pytest.approx(binomtest(b, b + c, 0.5).pvalue, abs=1e-12)
    k, n = min(b, c), b + c  # mid-p (Fagerland, Lydersen and Laake 2013): 2 P(X <= k) - P(X = k)
    assert midp == pytest.approx(min(1.0, 2 * binom.cdf(k, n, 0.5) - binom.pmf(k, n, 0.5)), abs=1e-12)


@given(st.lists(st.lists(st.integers(0, 6), min_size=3, max_size=3), min_size=3, max_size=3), st.integers(0, 2**32 - 1))
def test_every_resample_is_the_measure_of_its_resampled_confusion_matrix(table, seed):
    """The vectorised statistic of a batch of drawn counts equals evalkit's value on the
    confusion matrix those counts make, one resample at a time."""
    matrix = ConfusionMatrix.from_array(table)
    pairs = matrix.pair_counts()
    if not pairs.counts.sum():
        return
    kinds = _pair_kinds(pairs, stratify=False)
    drawn = kinds.draw(np.random.default_rng(seed), 5)
    order = np.lexsort((pairs.predicted, pairs.actual))
    for measure, average in (("f1_score", "macro"), ("precision", "weighted"), ("recall", "micro"), ("cohen_kappa", None)):
        values = _pair_statistic(get_measure(measure), average, None, 3, "exclude", {})(kinds.sums(drawn))
        for row, value in zip(drawn, values):
            counts = np.zeros((3, 3), dtype=np.int64)
            counts[pairs.actual[order], pairs.predicted[order]] = row.astype(np.int64)
            resampled = ConfusionMatrix.from_array(counts)
            expected = resampled.get_cohen_kappa() if average is None else resampled.average(measure, average)
            assert (math.isnan(value) and math.isnan(expected)) or value == pytest.approx(expected, abs=1e-12)


def test_the_bootstrap_agrees_with_a_sample_level_bootstrap():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 3, 400)
    p = np.where(rng.random(400) < 0.7, y, rng.integers(0, 3, 400))
    ours = ConfusionMatrix.from_predictions(y, p).interval("f1_score", "macro", method="percentile", n_resamples=4000, random_state=1)
    naive = []
    for _ in range(4000):
        picked = rng.integers(0, 400, 400)
        naive.append(ConfusionMatrix.from_predictions(y[picked], p[picked], labels=[0, 1, 2]).average("f1_score", "macro"))
    low, high = np.quantile(naive, [0.025, 0.975])
    assert ours.low == pytest.approx(low, abs=0.012) and ours.high == pytest.approx(high, abs=0.012)


def test_the_same_seed_gives_the_same_interval_however_the_data_were_counted():
    rng = np.random.default_rng(2)
    y, p = rng.integers(0, 4, 3000), rng.integers(0, 4, 3000)
    whole = ConfusionMatrix.from_predictions(y, p)
    parts = ConfusionMatrix.from_predictions(y[:1000], p[:1000], labels=[0, 1, 2, 3]) + ConfusionMatrix.from_predictions(y[1000:], p[1000:], labels=[0, 1, 2, 3])
    streamed = Evaluation.from_labels(y[2000:], p[2000:]).merge(Evaluation.from_labels(y[:2000], p[:2000]))
    results = {str(source.interval("mcc", random_state=7)) for source in (whole, parts, streamed)}
    assert len(results) == 1
    assert whole.interval("f1", "macro", random_state=3) == whole.interval("f1", "macro", random_state=3)
    assert whole.interval("f1", "macro", random_state=3) != whole.interval("f1", "macro", random_state=4)


def test_closed_forms_on_the_objects_equal_the_functions():
    matrix = ConfusionMatrix.from_array([[40, 10, 0], [5, 45, 5], [0, 5, 40]], ["a", "b", "c"])
    accuracy = matrix.interval("accuracy", method="wilson")
    assert (accuracy.low, accuracy.high) == wilson(125, 150)
    recall = matrix.interval("recall", label="b", method="clopper-pearson")
    assert (recall.low, recall.high) == clopper_pearson(45, 55)
    micro = matrix.interval("precision", "micro", method="wilson")
    assert (micro.low, micro.high) == wilson(125, 150)
    per_class = ClassificationMetrics.create_from(matrix)[1].interval("precision", method="wilson")
    assert (per_class.low, per_class.high) == wilson(45, 60)
    kappa = matrix.interval("cohen_kappa", method="asymptotic")
    error = kappa_standard_error(matrix.to_array())
    assert kappa.high - kappa.low == pytest.approx(2 * 1.959963984540054 * error)
    with pytest.raises(InvalidArgumentError, match="proportion"):
        matrix.interval("f1_score", label="a", method="wilson")
    with pytest.raises(InvalidArgumentError, match="average"):
        matrix.interval("f1_score")


def test_degenerate_cases_are_decided_once():
    tiny = ConfusionMatrix.from_array([[1, 0], [0, 0]])  # class 1 never occurs: its recall is undefined in every resample
    interval = tiny.interval("recall", label=1, random_state=0)
    assert math.isnan(interval.estimate) and math.isnan(interval.low) and interval.n_undefined == 2000
    macro = ConfusionMatrix.from_array([[3, 1], [0, 1]]).interval("precision", "macro", random_state=0)
    assert macro.n_undefined == 0 and 0 <= macro.low <= macro.high <= 1  # an absent class is left out per resample
    with pytest.warns(EvalkitWarning, match="percentile"):
        constant = ConfusionMatrix.from_array([[5, 0], [0, 5]]).interval("accuracy", random_state=0)
    assert (constant.low, constant.high, constant.method) == (1.0, 1.0, "percentile")
    empty = ConfusionMatrix([0, 1]).interval("accuracy", random_state=0)
    assert math.isnan(empty.estimate) and math.isnan(empty.low)
    weighted = ConfusionMatrix.from_predictions([0, 1, 1], [0, 1, 0], sample_weight=[0.5, 1.5, 1.0])
    with pytest.raises(UnsupportedSettingError, match="float sample weights"):
        weighted.interval("accuracy")
    stratified = ConfusionMatrix.from_array([[30, 5], [10, 5]]).interval("recall", "macro", stratify=True, random_state=0)
    assert stratified.low < stratified.estimate < stratified.high


def test_multi_label_micro_and_samples_and_the_limits():
    rng = np.random.default_rng(4)
    evaluation = Evaluation.from_indicators(rng.integers(0, 2, (500, 4)), rng.integers(0, 2, (500, 4)))
    micro = evaluation.interval("f1_score", "micro", random_state=0)
    samples = evaluation.interval("f1_score", "samples", random_state=0)
    assert micro.low < micro.estimate < micro.high and samples.low < samples.estimate < samples.high
    with pytest.raises(UnsupportedSettingError, match="per-class cells"):
        evaluation.interval("f1_score", "macro")


def test_neighborhood_accuracy_and_curves():
    rng = np.random.default_rng(8)
    ideal = Covering.from_indicators(rng.random((300, 6)) < 0.3)
    result = Covering.from_indicators(rng.random((300, 6)) < 0.3)
    accuracy = NeighborhoodSystem(ideal).evaluate(result)
    for measure in ("absolute_accuracy", "relative_accuracy_rate"):
        interval = accuracy.interval(measure, random_state=0)
        assert interval.low <= interval.estimate <= interval.high
    y = rng.integers(0, 2, 400)
    s = np.round(np.clip(0.3 * y + rng.normal(0.35, 0.2, 400), 0, 1), 2)
    curve = ThresholdCurve.from_scores(y, s)
    delong_interval = curve.interval()
    bootstrap = curve.interval(method="percentile", n_resamples=3000, random_state=0)
    assert bootstrap.low == pytest.approx(delong_interval.low, abs=0.02) and bootstrap.high == pytest.approx(delong_interval.high, abs=0.02)
    ap = curve.interval("average_precision", random_state=0)
    assert ap.low < ap.estimate < ap.high
    with pytest.raises(InvalidArgumentError, match="delong"):
        curve.interval("average_precision", method="delong")


def test_paired_comparisons():
    rng = np.random.default_rng(9)
    y = rng.integers(0, 3, 300)
    good = np.where(rng.random(300) < 0.8, y, rng.integers(0, 3, 300))
    bad = np.where(rng.random(300) < 0.6, y, rng.integers(0, 3, 300))
    exact = compare(y, good, bad)
    right_a, right_b = good == y, bad == y
    assert exact.p_value == pytest.approx(binomtest(int((right_a & ~right_b).sum()), int((right_a != right_b).sum())).pvalue)
    assert exact.difference == pytest.approx(right_a.mean() - right_b.mean())
    assert compare(y, good, good).p_value == 1.0  # no discordant pairs
    paired = compare(y, good, bad, "f1_score", "macro", method="bca", random_state=0)
    assert paired.low < paired.difference < paired.high and paired.p_value < 0.01
    same = compare(y, good, good, "f1_score", "macro", method="percentile", random_state=0)
    assert same.difference == same.low == same.high == 0.0
    truth = rng.integers(0, 2, 200)
    first, second = truth * 0.3 + rng.random(200), truth * 0.1 + rng.random(200)
    auc = compare(truth, first, second, "roc_auc", method="delong")
    aucs, covariance = pairwise_delong(truth, [first, second])
    z = (aucs[0] - aucs[1]) / math.sqrt(covariance[0, 0] + covariance[1, 1] - 2 * covariance[0, 1])
    assert auc.p_value == pytest.approx(math.erfc(abs(z) / math.sqrt(2)), rel=1e-9)


def test_many_classifiers_with_holms_correction():
    rng = np.random.default_rng(10)
    y = rng.integers(0, 2, 200)
    predictions = {name: np.where(rng.random(200) < accuracy, y, 1 - y) for name, accuracy in (("a", 0.9), ("b", 0.75), ("c", 0.7))}
    raw = {pair: compare(y, predictions[pair[0]], predictions[pair[1]]).p_value for pair in itertools.combinations(predictions, 2)}
    corrected = compare_many(y, predictions)
    ordered = sorted(raw, key=raw.get)
    running = 0.0
    for rank, pair in enumerate(ordered):
        running = max(running, min(1.0, raw[pair] * (len(raw) - rank)))
        assert corrected[pair].p_value == pytest.approx(running)
    bonferroni = compare_many(y, predictions, correction="bonferroni")
    assert all(bonferroni[pair].p_value == pytest.approx(min(1.0, 3 * raw[pair])) for pair in raw)


def test_an_interval_prints_and_converts():
    interval = Interval(0.8123, 0.7712, 0.8511, 0.95, "bca")
    assert str(interval) == "0.8123 [0.7712, 0.8511] (95% bca)"
    assert interval.to_dict()["method"] == "bca"


def test_reports_carry_the_intervals_in_every_format(tmp_path):
    import json

    from evalkit.datasets import load_example
    from evalkit.io._report import build_report

    matrix = ConfusionMatrix.from_predictions(*load_example())
    report = build_report(matrix, measures=["precision", "f1_score"], confidence=0.9, random_state=3)
    expected = matrix.interval("f1_score", "macro", level=0.9, random_state=3)
    assert report.intervals["macro avg"][1] == expected
    assert report.intervals["cohen_kappa"][0] == matrix.interval("cohen_kappa", level=0.9, random_state=3)
    assert "90% confidence intervals (bca bootstrap)" in report.to_text()
    assert f"[{expected.low:.3f}, {expected.high:.3f}]" in report.to_markdown()
    rows = [line.split(",") for line in report.to_csv().splitlines()]
    assert ["macro avg", "interval low", repr(report.intervals["macro avg"][0].low), repr(expected.low), "", ""] in rows
    assert json.loads(report.to_json())["intervals"]["rows"]["macro avg"]["f1_score"] == [expected.low, expected.high]
    assert 'class="intervals"' in report.to_html()
    tags = Evaluation.from_label_sets([{"a", "b"}, {"c"}, {"a"}, {"b", "c"}] * 10, [{"a"}, {"c"}, {"a", "b"}, {"c"}] * 10)
    multi = build_report(tags, measures=["f1_score"], confidence=0.95)
    assert multi.intervals["macro avg"] == [None] and multi.intervals["micro avg"][0] is not None
    assert "n/a" in multi.to_text()
    output = tmp_path / "report.json"
    assert main(["report", "--ci", "--format", "json", "--output", str(output)]) == 0
    assert json.loads(output.read_text(encoding="utf-8"))["intervals"]["level"] == 0.95
    assert main(["report", "--ci-level", "1.5"]) == 2


def test_multi_label_macro_intervals_from_the_indicators():
    from evalkit._results.intervals import indicators_interval

    rng = np.random.default_rng(12)
    actual = rng.integers(0, 2, (600, 5))
    predicted = np.where(rng.random((600, 5)) < 0.75, actual, 1 - actual)
    evaluation = Evaluation.from_indicators(actual, predicted)
    for average in ("micro", "macro", "weighted"):
        found = indicators_interval(actual, predicted, "f1_score", average, random_state=0)
        assert found.estimate == pytest.approx(float(evaluation.average("f1_score", average)), abs=1e-12)
        assert found.low < found.estimate < found.high
    by_rows = evaluation.interval("f1_score", "micro", method="percentile", n_resamples=4000, random_state=1)
    by_pairs = indicators_interval(actual, predicted, "f1_score", "micro", method="percentile", n_resamples=4000, random_state=2)
    assert by_pairs.low == pytest.approx(by_rows.low, abs=0.01) and by_pairs.high == pytest.approx(by_rows.high, abs=0.01)
    one = indicators_interval(actual, predicted, "recall", average=None, label=2, random_state=0)
    assert one.estimate == pytest.approx(evaluation.per_class("recall")[2])
    with pytest.raises(InvalidArgumentError, match="one of them"):
        indicators_interval(actual, predicted, "recall", average=None)
    degrees_true, degrees_pred = rng.random((300, 4)), rng.random((300, 4))
    for tnorm in ("product", "minimum"):
        soft = indicators_interval(degrees_true, degrees_pred, "precision", "macro", tnorm=tnorm, random_state=0)
        assert soft.estimate == pytest.approx(float(Evaluation.from_soft(degrees_true, degrees_pred, tnorm=tnorm).average("precision", "macro")))
        assert soft.low < soft.estimate < soft.high


def test_delong_takes_its_own_measure_by_name():
    found = paired.compare([0, 1, 1, 0, 1], [0.1, 0.9, 0.4, 0.3, 0.8], [0.2, 0.8, 0.6, 0.1, 0.9], method="delong", measure="roc_auc")
    assert found.method == "delong"
