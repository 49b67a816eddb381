"""Information scores of class probabilities against priors (``InformationScores``) and Weka's
predicted regions (``top_mass_sets``): Weka's own numbers, for real and on a hand-made case,
the regions against Weka's loop written out, and the counted-state protocol through the harness.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from harness import LABELS, check_kind, counted_samples
from hypothesis import given, settings
from hypothesis import strategies as st
from test_porting import WEKA_DATA, weka_program

from evalkit import ConfusionMatrix, InformationScores, SetCoverage, ThresholdCurve
from evalkit._scores.conformal import top_mass_sets
from evalkit.exceptions import InputShapeError, InvalidArgumentError, InvalidValueError, UnknownLabelError

# A case run through Weka 3.6.14 (Debian's jar) and Weka's development version (3.9, built from
# its repository): priors from a training set of class weights a 4, b 2, c 0.5 (+1 each), and
# eight test instances, one unclassified (all probabilities 0) and one with probability 0 for
# its class (1,074 bits). Every number below is what both printed, but where noted.
PRIORS = [5, 3, 1.5]
PROBABILITIES = [[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0, 0, 1], [0.5, 0.5, 0], [0, 0, 0], [0.3, 0.3, 0.4], [0.96, 0.04, 0], [0.2, 0.3, 0.5]]
CLASSES = ["a", "b", "a", "b", "c", "c", "a", "b"]
WEIGHTS = [1, 2, 1, 0.5, 1, 1, 3, 1]
WEKA = {
    "n_samples": 10.5, "unclassified": 1.0,
    "kb_information": 6.2564195596268375, "kb_mean_information": 0.6585704799607197,
    "sf_prior_entropy": 13.113339650032048, "sf_mean_prior_entropy": 1.2488894904792427,
    "sf_scheme_entropy": 1078.8940041188187, "sf_mean_scheme_entropy": 113.56778990724406,
    "mean_absolute_error": 0.23649122807017542, "root_mean_squared_error": 0.36704605571718635,
    "mean_prior_absolute_error": 0.3558897243107769, "root_mean_prior_squared_error": 0.4188539082916955,
    "relative_absolute_error": 0.6645070422535211, "root_relative_squared_error": 0.8763104472731112,
    "prior_entropy": 1.2488894904792427, "kb_relative_information": 0.5273248633936403,  # Weka 3.9 (3.6: see below)
    "coverage": 0.8095238095238095, "region_size": 0.634920634920635,  # Weka 3.9 (3.6 has no regions)
}  # fmt: skip


def hand_case() -> InformationScores:
    return InformationScores.from_probabilities(CLASSES, PROBABILITIES, labels=["a", "b", "c"], priors=PRIORS, sample_weight=WEIGHTS)


def test_the_scores_are_wekas_on_a_case_with_an_unclassified_sample_and_a_zero_probability():
    scores = hand_case()
    for name, expected in WEKA.items():
        found = getattr(scores, name)
        found = found() if callable(found) else found
        assert math.isclose(found, expected, rel_tol=1e-12), (name, found, expected)
    assert scores.sf_entropy_gain() == pytest.approx(13.113339650032048 - 1078.8940041188187, rel=1e-12)


WEKA_SUMMARY = """
Correctly Classified Instances           7               66.6667 %
Incorrectly Classified Instances         2.5             23.8095 %
Kappa statistic                          0.5887
K&B Relative Info Score                 52.7325 %
K&B Information Score                    6.2564 bits      0.6586 bits/instance
Class complexity | order 0              13.1133 bits      1.2489 bits/instance
Class complexity | scheme             1078.894  bits    113.5678 bits/instance
Complexity improvement     (Sf)      -1065.7807 bits   -112.1874 bits/instance
Mean absolute error                      0.2365
Root mean squared error                  0.367 
Relative absolute error                 66.4507 %
Root relative squared error             87.631  %
Coverage of cases (0.95 level)          80.9524 %
Mean rel. region size (0.95 level)      63.4921 %
UnClassified Instances                   1                9.5238 %
Total Number of Instances               10.5   
"""
"""Weka 3.9's ``toSummaryString("", true)`` of the case, regions toggled on (its last line,
"Ignored Class Unknown Instances", counts an instance without a class, which evalkit refuses)."""


def test_the_summary_is_wekas_line_for_line():
    assert hand_case().weka_summary(coverage=True) == WEKA_SUMMARY


def test_weka_3_6_divides_the_total_information_by_the_entropy_of_the_priors():
    """Weka 3.6's K&B relative information, 436.6 % here, is the total K&B information over the
    entropy of the priors: it grows with the number of test instances (the same predictions
    twice give twice the score), which Weka fixed in 2018. evalkit gives the fixed score."""
    scores = hand_case()
    priors = np.array(PRIORS) / sum(PRIORS)
    weka_3_6 = 100 * scores.kb_information() / -np.sum(priors * np.log2(priors))
    assert weka_3_6 == pytest.approx(436.60106442958715, rel=1e-12)
    doubled = scores + scores
    assert 100 * doubled.kb_information() / -np.sum(priors * np.log2(priors)) == pytest.approx(2 * weka_3_6)
    assert doubled.kb_relative_information() == pytest.approx(scores.kb_relative_information(), rel=1e-12)


@pytest.fixture(scope="module")
def weka_information(tmp_path_factory):
    return weka_program(tmp_path_factory, "WekaInformation")


@pytest.mark.slow
@pytest.mark.parametrize(("data", "classifier"), [("iris", "bayes.NaiveBayes"), ("glass", "trees.J48"), ("soybean", "bayes.NaiveBayes"),
                                                  ("breast-cancer", "trees.J48"), ("diabetes", "functions.Logistic")])  # fmt: skip
def test_every_number_is_the_one_real_weka_prints(weka_information, data, classifier):
    run = weka_information(WEKA_DATA / f"{data}.arff", f"weka.classifiers.{classifier}", 1)
    actual = np.array([row[0] for row in run["predictions"]], dtype=int)
    distributions = np.array([row[1] for row in run["predictions"]])
    weights = np.array([row[2] for row in run["predictions"]])
    m = distributions.shape[1]
    scores = InformationScores.from_probabilities(actual, distributions, labels=range(m), priors=np.array(run["train_weights"]) + 1, sample_weight=weights)
    ours = {
        "KBInformation()": scores.kb_information(), "KBMeanInformation()": scores.kb_mean_information(),
        "SFPriorEntropy()": scores.sf_prior_entropy(), "SFMeanPriorEntropy()": scores.sf_mean_prior_entropy(),
        "SFSchemeEntropy()": scores.sf_scheme_entropy(), "SFMeanSchemeEntropy()": scores.sf_mean_scheme_entropy(),
        "SFEntropyGain()": scores.sf_entropy_gain(), "SFMeanEntropyGain()": scores.sf_mean_entropy_gain(),
        "meanAbsoluteError()": scores.mean_absolute_error(), "rootMeanSquaredError()": scores.root_mean_squared_error(),
        "meanPriorAbsoluteError()": scores.mean_prior_absolute_error(), "rootMeanPriorSquaredError()": scores.root_mean_prior_squared_error(),
        "relativeAbsoluteError()": 100 * scores.relative_absolute_error(), "rootRelativeSquaredError()": 100 * scores.root_relative_squared_error(),
        "unclassified()": scores.unclassified, "numInstances()": scores.n_samples,
    }  # fmt: skip
    for name, value in ours.items():
        assert value == pytest.approx(run[name], rel=1e-9, abs=1e-12), (name, value, run[name])
    priors = (np.array(run["train_weights"]) + 1) / (np.sum(run["train_weights"]) + m)
    assert run["priorEntropy()"] == pytest.approx(-np.sum(priors * np.log2(priors)), rel=1e-12)  # Weka 3.6's: the priors' entropy
    assert run["KBRelativeInformation()"] == pytest.approx(100 * scores.kb_information() / run["priorEntropy()"], rel=1e-9)
    curve = ThresholdCurve.from_scores(actual == 0, distributions[:, 0], pos_label=True, sample_weight=weights)
    lines = np.array(run["costCurve"]).reshape(-1, 2, 3)[:-1]  # each threshold's two rows, lowest first, without Weka's closing one (all negative)
    assert np.allclose(lines[::-1, :, 1], np.stack([curve.evaluate("fp_rate")[0], curve.evaluate("fn_rate")[0]], axis=1), rtol=1e-12, atol=1e-15)
    pc, cost = curve.cost_curve()
    grid = np.linspace(0, 1, 201)
    envelope = np.min(lines[:, 1, 1, None] * grid + lines[:, 0, 1, None] * (1 - grid), axis=0)
    assert np.allclose(np.interp(grid, pc, cost), np.minimum(envelope, np.minimum(grid, 1 - grid)), rtol=1e-9, atol=1e-12)
    weka_margins = np.array([[float(value) for value in line.split()] for line in run["toCumulativeMarginDistributionString"].splitlines()])
    edges, shares = scores.margin_distribution()
    if edges[0] != -1:  # Weka starts at -1 with 0 % when no margin is that low
        edges, shares = np.concatenate(([-1.0], edges)), np.concatenate(([0.0], shares))
    assert np.allclose(weka_margins, np.stack([edges, 100 * shares], axis=1), rtol=0, atol=5.1e-4)  # (Weka prints 3 decimals)
    ours = scores.weka_summary().splitlines()
    theirs = run["toSummaryString"].splitlines()
    relative = [k for k, line in enumerate(theirs) if line.startswith("K&B Relative Info Score")]  # Weka 3.6's score: see above
    assert [line for k, line in enumerate(ours) if k not in relative] == [line for k, line in enumerate(theirs) if k not in relative]


def weka_regions(p: np.ndarray, level: float) -> np.ndarray:
    """Weka's loop, written out: the classes by probability, highest first and of equal ones
    the higher index first, each taken while the running sum is below ``level``."""
    sets = np.zeros(p.shape, dtype=bool)
    for row, probabilities in enumerate(p.tolist()):
        order = sorted(range(len(probabilities)), key=lambda j: (-probabilities[j], -j))
        total = 0.0
        for j in order:
            if total >= level:
                break
            total += probabilities[j]
            sets[row, j] = True
    return sets


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.sampled_from([0.0, 0.05, 0.1, 0.25, 0.3, 0.45, 0.5, 0.9, 1.0]), min_size=3, max_size=3), min_size=1, max_size=12),
       st.sampled_from([0.5, 0.9, 0.95, 1.0]))  # fmt: skip
def test_predicted_regions_are_wekas_loop(rows, level):
    p = np.array(rows)
    p = p / np.maximum(p.sum(axis=1, keepdims=True), 1)  # (rows of probabilities: summing to at most 1)
    assert np.array_equal(top_mass_sets(p, level), weka_regions(p, level))


def test_the_regions_feed_set_coverage_with_the_same_coverage_and_size():
    scores, p = hand_case(), np.array(PROBABILITIES[:4] + PROBABILITIES[5:])
    classified = [c for k, c in enumerate(CLASSES) if k != 4]
    weights = [w for k, w in enumerate(WEIGHTS) if k != 4]
    sets = SetCoverage.from_probabilities(classified, p, labels=["a", "b", "c"], sample_weight=weights)
    total = sum(WEIGHTS)  # Weka's shares are of every sample, the unclassified one (whose region is empty) too
    assert scores.coverage() == pytest.approx(sets.coverage() * sets.n_samples / total, rel=1e-12)
    assert scores.region_size() == pytest.approx(sets.mean_size() * sets.n_samples / total / 3, rel=1e-12)
    assert np.array_equal(top_mass_sets([[0.9, 0.05, 0.05]]), [[True, False, True]])  # of equal ones, the later class first (Weka)


@settings(max_examples=25, deadline=None)
@given(counted_samples())
def test_the_scores_follow_the_counted_state_protocol(data):
    check_kind("InformationScores", data)


def test_parts_counted_against_other_priors_merge_as_wekas_cross_validation():
    """Weka scores each fold against its training fold's priors and adds the folds' sums."""
    first = InformationScores.from_probabilities(CLASSES[:4], PROBABILITIES[:4], labels=["a", "b", "c"], priors=PRIORS)
    second = InformationScores.from_probabilities(CLASSES[4:], PROBABILITIES[4:], labels=["a", "b", "c"], priors=[1, 1, 1])
    both = first + second
    assert both.kb_information() == pytest.approx(first.kb_information() + second.kb_information(), rel=1e-12)
    assert both.priors == first.priors and (both - second) == first


@pytest.mark.parametrize(
    ("arguments", "error", "match"),
    [
        ((["a", "z"], [[0.5, 0.5, 0], [1, 0, 0]]), UnknownLabelError, "z"),
        ((["a"], [[0.5, 0.6, 0]]), InvalidValueError, "more than 1"),
        ((["a"], [[1.5, 0, 0]]), InvalidValueError, "in \\[0, 1\\]"),
        ((["a"], [[np.nan, 0.5, 0.5]]), InvalidValueError, "in \\[0, 1\\]"),
        ((["a"], [[0.5, 0.5]]), InputShapeError, "samples x 3"),
        ((["a", "b"], [[0.5, 0.5, 0]]), Exception, "one entry per sample"),
    ],
)
def test_bad_input_is_named(arguments, error, match):
    with pytest.raises(error, match=match):
        InformationScores.from_probabilities(*arguments, labels=LABELS)


@pytest.mark.parametrize(("options", "match"), [({"priors": [1, 0, 1]}, "'priors'"), ({"priors": [1, 1]}, "'priors'"), ({"level": 0}, "'level'"),
                                                ({"labels": ["a"]}, "two or more")])  # fmt: skip
def test_bad_settings_are_named(options, match):
    with pytest.raises(InvalidArgumentError, match=match):
        InformationScores(**{"labels": LABELS, **options})
    with pytest.raises(InvalidArgumentError, match="'mass'"):
        top_mass_sets([[1.0, 0.0]], 1.5)


def test_the_porting_guide_rows_give_wekas_numbers():
    """Every row of the guide's table, evaluated after its example, against Weka's numbers of
    the same case (Weka 3.9's where 3.6 differs, as the rows say)."""
    from test_porting import guide_namespace, rows

    heading = "### Weka's information scores and predicted regions"
    namespace = guide_namespace(heading)
    gain = 13.113339650032048 - 1078.8940041188187
    weka = {
        "eval.KBInformation()": 6.2564195596268375, "eval.KBMeanInformation()": 0.6585704799607197, "eval.KBRelativeInformation()": 52.73248633936403,
        "eval.priorEntropy()": 1.2488894904792427, "eval.SFPriorEntropy()": 13.113339650032048, "eval.SFMeanPriorEntropy()": 1.2488894904792427,
        "eval.SFSchemeEntropy()": 1078.8940041188187, "eval.SFMeanSchemeEntropy()": 113.56778990724406, "eval.SFEntropyGain()": gain,
        "eval.SFMeanEntropyGain()": gain / 9.5, "eval.meanAbsoluteError()": 0.23649122807017542, "eval.rootMeanSquaredError()": 0.36704605571718635,
        "eval.meanPriorAbsoluteError()": 0.3558897243107769, "eval.rootMeanPriorSquaredError()": 0.4188539082916955,
        "eval.relativeAbsoluteError()": 66.45070422535211, "eval.rootRelativeSquaredError()": 87.63104472731112,
        "eval.coverageOfTestCasesByPredictedRegions()": 80.95238095238095, "eval.sizeOfPredictedRegions()": 63.4920634920635,
        "eval.unclassified()": 1.0, "eval.numInstances()": 10.5,
    }  # fmt: skip
    text = {
        "eval.toSummaryString(true)": "".join(line + "\n" for line in WEKA_SUMMARY.splitlines() if not line.startswith(("Coverage", "Mean rel."))),
        "eval.toCumulativeMarginDistributionString()": weka_margins(PROBABILITIES, CLASSES, WEIGHTS),
    }
    found = rows(heading)
    assert [java for java, _ in found] == [*weka, *text]
    for java, expression in found:
        value = eval(expression, dict(namespace))
        if java in text:
            assert value == text[java] if isinstance(value, str) else np.allclose(value, text[java], rtol=1e-12), java
        else:
            assert value == pytest.approx(weka[java], rel=1e-12), java


def weka_margins(distributions: list, classes: list, weights: list) -> tuple[list, list]:
    """Weka's margin distribution, written out as its ``updateMargins`` keeps it: each sample's
    margin in one of 500 bins, ``(int)((margin + 1) / 2 * 500)``; the edges of the bins that
    hold one and the shares at or below."""
    counts = [0.0] * 501
    for row, label, weight in zip(distributions, classes, weights):
        k = "abc".index(label)
        others = max([0.0, *(p for j, p in enumerate(row) if j != k)])
        counts[int((row[k] - others + 1) / 2 * 500)] += weight
    total, running, edges, shares = sum(weights), 0.0, [], []
    for b, count in enumerate(counts):
        running += count
        if count:
            edges.append(b * 2 / 500 - 1)
            shares.append(running / total)
    return edges, shares


def test_taking_away_a_part_never_added_is_refused():
    """Sums no counting gives (scores left on no sample) are refused, whatever the priors."""
    from evalkit.exceptions import InvalidCountsError

    one = InformationScores.from_probabilities(["a"], [[0.2, 0.8, 0]], labels=LABELS)
    other = InformationScores.from_probabilities(["a"], [[0.9, 0.1, 0]], labels=LABELS)
    with pytest.raises(InvalidCountsError):
        one - other
    with pytest.raises(InvalidCountsError):
        InformationScores.from_probabilities(["a"], [[0.2, 0.8, 0]], labels=LABELS, priors=[1, 2, 3]) - one


@pytest.mark.parametrize(
    ("rows", "match"),
    [(np.array([[0, 1], [1, 0]], dtype=np.uint8), None), ([[True, False]], "numbers"), ([[np.nan, 0.2]], "in \\[0, 1\\]"), ([[-0.1, 0.2]], "in \\[0, 1\\]"),
     ([[0.7, 0.7]], "more than 1")],
)  # fmt: skip
def test_regions_take_probabilities_only(rows, match):
    """Unsigned integers are ordered as numbers (not wrapped round by a minus), and what is no
    row of probabilities is refused by name, as ``InformationScores`` refuses it."""
    if match is None:
        assert top_mass_sets(rows, 0.5).tolist() == [[False, True], [True, False]]
        assert SetCoverage.from_probabilities([1, 0], rows, 0.5, labels=[0, 1]).mean_size() == 1.0
        return
    with pytest.raises((InvalidValueError, InvalidArgumentError), match=match):
        SetCoverage.from_probabilities(["a"], rows, labels=["a", "b"])
    with pytest.raises((InvalidValueError, InvalidArgumentError), match=match):
        InformationScores.from_probabilities(["a"], rows, labels=["a", "b"])


def test_boolean_classes_are_not_the_numbers_0_and_1():
    from evalkit.exceptions import MixedLabelTypesError

    with pytest.raises(MixedLabelTypesError):
        InformationScores.from_probabilities([1, 0], [[0, 1], [1, 0]], labels=[False, True])


@pytest.mark.parametrize("priors", [[1e308, 1e308], [True, True]])
def test_priors_are_weights_that_sum(priors):
    """Huge weights are normalised without overflow; booleans are no weights."""
    if priors[0] is True:
        with pytest.raises(InvalidArgumentError, match="'priors'"):
            InformationScores(["a", "b"], priors=priors)
        return
    scores = InformationScores.from_probabilities(["a"], [[0.5, 0.5]], labels=["a", "b"], priors=priors)
    assert scores.kb_information() == 0.0


def test_the_curve_rows_of_the_porting_guide_give_wekas_numbers():
    """Weka 3.6.14 (its ROC area and cost curve) and Weka 3.8 (its PRC area) on the guide's six
    predictions, as they print them."""
    from test_porting import guide_namespace, rows

    heading = "### Weka's curves"
    namespace = guide_namespace(heading)
    weka_cost = np.array([[0, 1], [1, 0], [0, 2 / 3], [1, 0], [0, 2 / 3], [1, 0.25], [0, 1 / 3], [1, 0.75], [0, 0], [1, 0.75], [0, 0], [1, 1]])
    lines = weka_cost.reshape(-1, 2, 2)[:-1, :, 1][::-1]  # highest threshold first, without Weka's last line
    curve = "new ThresholdCurve().getCurve(predictions, 1)"
    weka = {f"ThresholdCurve.getROCArea({curve})": 0.5833333333333334, f"ThresholdCurve.getPRCArea({curve})": 0.7166666666666667,
            "new CostCurve().getCurve(predictions, 1)": (lines[:, 0], lines[:, 1])}  # fmt: skip
    found = rows(heading)
    assert [java for java, _ in found] == list(weka)
    for java, expression in found:
        assert np.allclose(eval(expression, dict(namespace)), weka[java], rtol=1e-12, atol=1e-15), java


def test_the_summary_counts_its_own_predictions_and_kappa():
    """The summary's correct weight and kappa are the confusion matrix's of the classified
    samples, each predicted as the first class of its highest probability (as Weka predicts)."""
    scores = hand_case()
    p = np.array(PROBABILITIES)
    kept = p.max(axis=1) > 0
    matrix = ConfusionMatrix.from_predictions(np.array(CLASSES)[kept], np.array(["a", "b", "c"])[p.argmax(axis=1)][kept], labels=["a", "b", "c"],
                                              sample_weight=np.array(WEIGHTS, dtype=float)[kept])  # fmt: skip
    lines = dict(line.split("  ", 1) for line in scores.weka_summary().splitlines() if line)
    assert float(lines["Kappa statistic"]) == pytest.approx(round(matrix.get_cohen_kappa(), 4))
    assert float(lines["Correctly Classified Instances"].split()[0]) == np.trace(matrix.to_array())


def test_the_summary_prints_wekas_kappa_of_one_class_and_huge_weights():
    """Weka's kappa is 1 when chance agreement is certain (one class only: Weka 3.6.14 prints 1);
    a weight of 1e30 prints as Java's DecimalFormat prints it."""
    scores = InformationScores.from_probabilities(["a", "a"], [[1.0, 0.0], [0.7, 0.3]], labels=["a", "b"])
    assert "Kappa statistic                          1     \n" in scores.weka_summary()
    big = InformationScores.from_probabilities(["a", "a"], [[1.0, 0.0], [0.7, 0.3]], labels=["a", "b"], sample_weight=[1e30, 1e30])
    assert "Total Number of Instances          2000000000000000000000000000000\n" in big.weka_summary(complexity=False)
    from evalkit._scores.information import _weka_number

    assert _weka_number(1e23).strip() == "100000000000000000000000" and _weka_number(0.9, 4, 2) == "0.9 "  # (Java's own digits of 1e23 end ...99990000000)
