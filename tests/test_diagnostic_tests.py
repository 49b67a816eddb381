"""Diagnostic tests: likelihood ratios, the diagnostic odds ratio, the number needed to
diagnose and the post-test probability, against scikit-learn's class_likelihood_ratios and
the published interval formulas. (Their values against the exact reference and every face
are in the shared harness, tests/test_faces_agree.py, like every registered measure.)"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given
from hypothesis import strategies as st
from strategies import close, make_weight

from evalkit import ClassificationMetrics, ConfusionMatrix, metrics
from evalkit._results.intervals import log_ratio_interval
from evalkit.exceptions import InvalidArgumentError, InvalidValueError
from evalkit.io._report import build_report


def recorded(function, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = function(*args, **kwargs)
    return value, sorted(str(w.message) for w in caught if issubclass(w.category, UserWarning))


@given(st.integers(1, 30).flatmap(lambda n: st.tuples(st.lists(st.integers(0, 1), min_size=n, max_size=n),
                                                       st.lists(st.integers(0, 1), min_size=n, max_size=n))),
       st.sampled_from([None, "int", "float"]), st.sampled_from([np.nan, 1.0, {"LR+": 2.0, "LR-": 0.5}, {"LR+": np.inf, "LR-": np.nan}]),
       st.booleans(), st.data())  # fmt: skip
def test_class_likelihood_ratios_are_scikit_learns(case, weights, replace, as_text, data):
    y_true, y_pred = case
    if len(set(y_true) | set(y_pred)) < 2:
        return
    weight = make_weight(weights, len(y_true), data)
    if as_text:
        y_true, y_pred = [["no", "yes"][v] for v in y_true], [["no", "yes"][v] for v in y_pred]
    ours, our_warnings = recorded(metrics.class_likelihood_ratios, y_true, y_pred, sample_weight=weight, replace_undefined_by=replace)
    theirs, their_warnings = recorded(skm.class_likelihood_ratios, y_true, y_pred, sample_weight=weight, replace_undefined_by=replace)
    assert all(close(a, b) for a, b in zip(ours, theirs)), (ours, theirs)
    ours_, theirs_ = [w for w in our_warnings if "likelihood" in w], [w for w in their_warnings if "likelihood" in w]
    assert [w[:60] for w in ours_] == [w[:60] for w in theirs_]  # (scikit-learn 1.9 cuts one of its messages short)


def test_class_likelihood_ratios_errors_and_label_order():
    y_true, y_pred = ["non-cat", "cat", "non-cat", "cat", "non-cat"], ["cat", "cat", "non-cat", "non-cat", "non-cat"]
    assert metrics.class_likelihood_ratios(y_true, y_pred, labels=["non-cat", "cat"]) == (1.5, 0.75)
    assert metrics.class_likelihood_ratios(y_true, y_pred) == pytest.approx(skm.class_likelihood_ratios(y_true, y_pred))
    with pytest.raises(InvalidValueError, match="only supports binary"):
        metrics.class_likelihood_ratios([0, 1, 2], [0, 1, 2])
    with pytest.raises(InvalidArgumentError, match="replace_undefined_by"):
        metrics.class_likelihood_ratios([0, 1], [0, 1], replace_undefined_by={"LR+": 0.5, "LR-": 0.5})


def test_the_log_method_intervals_follow_simel_and_woolf():
    # one class's cells a=35 (tp), b=10 (fp), c=5 (fn), d=50 (tn); the standard errors of
    # Simel, Samsa and Matchar (1991) for the likelihood ratios and Woolf's (1955) for the odds ratio
    z = 1.959963984540054
    cases = {
        "positive_likelihood_ratio": ((35 / 40) / (10 / 60), 1 / 35 - 1 / 40 + 1 / 10 - 1 / 60),
        "negative_likelihood_ratio": ((5 / 40) / (50 / 60), 1 / 5 - 1 / 40 + 1 / 50 - 1 / 60),
        "diagnostic_odds_ratio": (35 * 50 / (10 * 5), 1 / 35 + 1 / 10 + 1 / 5 + 1 / 50),
    }
    for name, (estimate, variance) in cases.items():
        expected = (estimate * math.exp(-z * math.sqrt(variance)), estimate * math.exp(z * math.sqrt(variance)))
        found = ClassificationMetrics.from_counts(tp=35, fp=10, fn=5, tn=50).interval(name, method="log")
        assert found.estimate == pytest.approx(estimate) and (found.low, found.high) == pytest.approx(expected, rel=1e-12)
        matrix = ConfusionMatrix.from_array([[50, 10], [5, 35]])
        assert matrix.interval(name, label=1, method="log") == found
    plus = ClassificationMetrics.from_counts(tp=35, fp=10, fn=5, tn=50).interval("lr+", method="log")
    assert (plus.low, plus.high) == pytest.approx((2.9459704, 9.3560004))  # by hand: 5.25 · exp(∓1.96 · 0.294796)
    zero = log_ratio_interval(35, 0, 5, 50, "positive_likelihood_ratio", math.nan)
    assert math.isnan(zero.low) and math.isnan(zero.high)  # fp = 0: LR+ and its error are undefined
    with pytest.raises(InvalidArgumentError, match="method='log' is for"):
        ClassificationMetrics.from_counts(tp=35, fp=10, fn=5, tn=50).interval("recall", method="log")
    with pytest.raises(InvalidArgumentError, match="of one class"):
        ConfusionMatrix.from_array([[50, 10], [5, 35]]).interval("lr+", average="macro", method="log")


@given(st.integers(0, 50), st.integers(1, 50), st.integers(0, 50), st.integers(1, 50), st.floats(0.001, 0.999))
def test_post_test_odds_are_pre_test_odds_times_the_likelihood_ratio(tp, fp, fn, tn, prevalence):
    metrics_ = ClassificationMetrics.from_counts(tp=tp, fp=fp, fn=fn, tn=tn)
    post = metrics_.get_post_test_probability(prevalence=prevalence)
    ratio = metrics_.get_positive_likelihood_ratio()
    if tp + fn == 0:
        assert math.isnan(post) and math.isnan(ratio)
        return
    odds = prevalence / (1 - prevalence) * ratio
    assert close(post, odds / (1 + odds), rel=1e-9)
    assert close(metrics_.get_post_test_probability(), metrics_.get_precision())
    if fn:  # LR- > 0: the odds ratio is the ratio of the likelihood ratios
        assert close(metrics_.get_diagnostic_odds_ratio(), ratio / metrics_.get_negative_likelihood_ratio(), rel=1e-9)
    if tp * tn != fp * fn:  # better or worse than chance: the number needed is 1 / informedness
        assert close(metrics_.get_number_needed_to_diagnose(), 1 / metrics_.get_informedness(), rel=1e-9)


def test_diagnostic_measures_in_reports_and_by_their_usual_names():
    cm = ConfusionMatrix.from_array([[50, 10, 2], [5, 35, 4], [1, 3, 20]], ["healthy", "flu", "covid"])
    report = build_report(cm, measures=["LR+", "LR-", "DOR", "NND"])
    assert report.measures == ("positive_likelihood_ratio", "negative_likelihood_ratio", "diagnostic_odds_ratio", "number_needed_to_diagnose")
    assert report.per_class["flu"][0] == pytest.approx(cm.per_class("positive_likelihood_ratio")[1])
    assert cm.average("post_test_probability", "macro", prevalence=0.1) == pytest.approx(
        np.mean([ClassificationMetrics(cm, label).get_post_test_probability(0.1) for label in cm.labels])
    )
    with pytest.raises(InvalidArgumentError, match="'prevalence' must be in"):
        cm.per_class("post_test_probability", prevalence=1.5)
    with pytest.raises(InvalidArgumentError, match="no direction"):
        build_report(cm, sort_by="number_needed_to_diagnose")
