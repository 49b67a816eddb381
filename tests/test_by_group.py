"""Evaluation by group: every group's result equals evaluating that group alone; disparities
against their definitions and fairlearn; intervals resample within groups; JSON, merges,
reports and the command line."""

from __future__ import annotations

import csv
import io
import json
import math
import warnings

import fairlearn.metrics as fm
import numpy as np
import pandas as pd
import pytest
import sklearn.metrics as skm
from harness import (
    check_fairness_faces,
    check_kind,
    counted_samples,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import close, make_weight

from evalkit import (
    ByGroup,
    Calibration,
    ConfusionMatrix,
    Evaluation,
    SetCoverage,
    ThresholdCurve,
    by_group,
    metrics,
)
from evalkit._groups import OVERALL, demographic_parity_difference, equalized_odds_difference
from evalkit.exceptions import (
    EvalkitWarning,
    InvalidArgumentError,
    InvalidLabelError,
    InvalidTypeError,
    UnknownLabelError,
    UnsupportedSettingError,
)

CLASSES = ["cat", "dog", "fox"]


@st.composite
def grouped(draw, max_size=40):
    n = draw(st.integers(1, max_size))
    y_true = draw(st.lists(st.sampled_from(CLASSES), min_size=n, max_size=n))
    y_pred = draw(st.lists(st.sampled_from(CLASSES), min_size=n, max_size=n))
    groups = draw(st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=n, max_size=n))
    return y_true, y_pred, groups


@given(grouped(), st.sampled_from([None, "int", "float"]), st.data())
def test_every_group_is_its_samples_evaluated_alone(case, weights, data):
    y_true, y_pred, groups = case
    w = make_weight(weights, len(y_true), data)
    result = by_group(y_true, y_pred, groups, sample_weight=w)
    labels = sorted(set(y_true) | set(y_pred))
    assert result.keys == tuple(sorted(set(groups)))
    for key in result:
        rows = [i for i, g in enumerate(groups) if g == key]
        alone = ConfusionMatrix.from_predictions([y_true[i] for i in rows], [y_pred[i] for i in rows], labels,
                                                 sample_weight=None if w is None else [w[i] for i in rows])  # fmt: skip
        assert np.allclose(result[key].to_array(), alone.to_array()) and result[key].labels == tuple(labels)
        assert close(result.support()[key], alone.get_total_items())
    whole = ConfusionMatrix.from_predictions(y_true, y_pred, labels, sample_weight=w)
    assert np.allclose(result.overall.to_array(), whole.to_array())
    for name in ("recall", "f1_score", "matthews_correlation_coefficient"):
        for average in ("micro", "macro", "weighted"):  # every group at once equals each group's own average
            values = result.values(name, average)
            assert all(close(values[key], result[key].average(name, average)) for key in result), (name, average)
            assert close(values["overall"], whole.average(name, average))
    assert all(close(result.values("precision", label="dog")[key], result[key].per_class("precision")[labels.index("dog")]) for key in result
               if "dog" in labels)  # fmt: skip


def test_integer_arrays_take_the_fast_path_to_the_same_result():
    rng = np.random.default_rng(4)
    y_true, y_pred, groups = rng.integers(-2, 3, 500), rng.integers(-2, 3, 500), rng.integers(5, 9, 500)
    fast = by_group(y_true, y_pred, groups)
    assert fast == by_group(y_true.tolist(), y_pred.tolist(), groups.tolist())
    assert fast.overall.labels == (-2, -1, 0, 1, 2) and fast.keys == (5, 6, 7, 8)
    assert by_group(y_true, y_pred, {"a": groups % 2, "b": groups}).keys == ((0, 6), (0, 8), (1, 5), (1, 7))
    sparse = by_group(np.array([0, 7, 7]), np.array([3, 7, 0]), np.array([10, 40, 10]))  # values missing from the range
    assert sparse == by_group([0, 7, 7], [3, 7, 0], [10, 40, 10]) and sparse.overall.labels == (0, 3, 7) and sparse.keys == (10, 40)
    original = y_true.copy()
    by_group(y_true, y_pred, groups)
    assert np.array_equal(y_true, original)  # inputs are never changed


def test_several_group_columns_are_their_intersections():
    y_true, y_pred = [0, 1, 1, 0, 1, 0], [0, 1, 0, 0, 1, 1]
    frame = pd.DataFrame({"sex": ["f", "m", "f", "m", "f", "m"], "age": ["<30", "<30", "<30", "30+", "30+", "30+"]})
    result = by_group(y_true, y_pred, frame)
    assert result.names == ("sex", "age") and result.keys == (("f", "30+"), ("f", "<30"), ("m", "30+"), ("m", "<30"))
    assert result[("f", "<30")].to_array().tolist() == [[1, 0], [1, 0]]
    assert by_group(y_true, y_pred, {"sex": frame["sex"], "age": frame["age"]}).keys == result.keys
    with pytest.raises(InvalidArgumentError, match="the group column 'group' holds a value that cannot be a group"):
        by_group([0, 1], [0, 1], ["a", None])
    for groups in ([1.0, float("nan")], np.array([1.0, np.nan])):  # the column is named where the value is, never 'y_true'
        with pytest.raises(InvalidArgumentError, match="cannot be a group: 'group' contains NaN"):
            by_group([0, 1], [0, 1], groups)
        with pytest.raises(InvalidLabelError, match="^'groups' contains NaN"):
            SetCoverage.from_sets(["a", "b"], [["a"], ["b"]], groups=groups)
    with pytest.raises(InvalidArgumentError, match="cannot be a group: 'group' must hold one label per sample"):  # (an unhashable value too)
        by_group([0, 1], [0, 1], ["g", {"k": 1}])
    for flags in ([True, 1], [np.True_, 1, 2]):  # True is not the group 1 (a list made an array of ints merged them)
        with pytest.raises(InvalidArgumentError, match="labels mix"):
            by_group([0] * len(flags), [0] * len(flags), flags)
    with pytest.raises(InvalidTypeError, match="'groups' must be a sequence of groups"):  # a string is not two groups
        SetCoverage.from_sets(["a", "b"], [["a"], ["b"]], groups="ab")
    with pytest.raises(UnknownLabelError, match="no group"):
        result["x"]


def test_multi_label_label_sets_and_scores_by_group():
    rng = np.random.default_rng(0)
    truth, guess, groups = rng.integers(0, 2, (60, 3)), rng.integers(0, 2, (60, 3)), rng.choice(["a", "b"], 60)
    result = by_group(truth, guess, groups)
    for key in result:
        alone = Evaluation.from_indicators(truth[groups == key], guess[groups == key])
        assert result[key].average("f1_score", "samples") == pytest.approx(alone.average("f1_score", "samples"))
    sets = by_group([{"x"}, {"y"}, {"x", "y"}], [{"x"}, set(), {"y"}], ["a", "b", "a"])
    assert sets["b"].labels == ("x", "y") and sets["a"].n_samples == 2
    scores = rng.random(60)
    curves = ByGroup.from_scores(truth[:, 0], scores, groups)
    assert isinstance(curves["a"], ThresholdCurve)
    assert curves.values("roc_auc")["a"] == pytest.approx(skm.roc_auc_score(truth[groups == "a", 0], scores[groups == "a"]))


# --------------------------------------------------------------------------------------------
# disparities


@given(grouped(), st.sampled_from(["between", "overall", "a"]))
def test_differences_and_ratios_follow_their_definitions(case, relative_to):
    y_true, y_pred, groups = case
    result = by_group(y_true, y_pred, groups)
    if relative_to == "a" and "a" not in result.keys:
        return
    values = result.values("recall", "macro")
    per_group = {key: values[key] for key in result if not math.isnan(values[key])}
    difference, ratio = result.difference("recall", "macro", relative_to=relative_to), result.ratio("recall", "macro", relative_to=relative_to)
    if relative_to == "between":
        high, low = (max(per_group.values()), min(per_group.values())) if per_group else (math.nan, math.nan)
        expected = (high - low, low / high if high else math.nan) if per_group else None
    else:
        base = values["overall"] if relative_to == "overall" else values["a"]
        others = {k: v for k, v in per_group.items() if relative_to != k}
        expected = None if not others or math.isnan(base) else (
            max(abs(v - base) for v in others.values()),
            min(min(v / base, base / v) if v and base else (0.0 if v or base else math.nan) for v in others.values()),
        )
    if expected is None:
        assert math.isnan(difference.value)
        return
    assert close(difference.value, expected[0])
    if not math.isnan(expected[1]):
        assert close(ratio.value, expected[1])


def test_disparity_intervals_resample_within_groups():
    rng = np.random.default_rng(1)
    n = 600
    groups = rng.choice(["north", "south", "east"], n, p=[0.5, 0.3, 0.2])
    y_true = rng.integers(0, 2, n)
    noise = np.where(groups == "east", 0.35, 0.15)  # east is served worse
    y_pred = np.where(rng.random(n) < noise, 1 - y_true, y_true)
    result = by_group(y_true, y_pred, groups)
    found = result.difference("recall", "macro", confidence=0.95, n_resamples=300)
    assert found.interval.low <= found.value <= found.interval.high and found.extremes[1] == "east"
    assert found.interval.method == "percentile" and found.interval.n_undefined == 0
    tiny = by_group([0, 1, 0, 1, 1], [0, 1, 1, 1, 1], ["a", "a", "a", "b", "b"])  # group b has no negatives: its specificity is undefined
    undefined = tiny.difference("specificity", label=1, confidence=0.9, n_resamples=50)
    assert undefined.value == 0.0 and undefined.n_undefined_groups == 1  # one defined group: no disparity to see (fairlearn's 0)
    with pytest.raises(UnsupportedSettingError, match="single-label"):
        by_group(rng.integers(0, 2, (10, 2)), rng.integers(0, 2, (10, 2)), ["a", "b"] * 5).difference("recall", "macro", confidence=0.9)


def test_small_groups_are_marked_not_dropped():
    result = by_group([0, 1, 1, 0, 1], [0, 1, 0, 0, 1], ["big", "big", "big", "big", "small"], min_size=2)
    assert result.small() == ("small",) and result.support() == {"big": 4, "small": 1}
    report = result.report(["recall"])
    assert "small (small)" in report.to_text() and report.to_dict()["groups"][1] == {"group": {"group": "small"}, "recall": 1.0, "support": 1, "small": True}
    with pytest.raises(InvalidArgumentError, match="'min_size'"):
        by_group([0], [0], ["a"], min_size=-1)


# --------------------------------------------------------------------------------------------
# fairlearn


@settings(max_examples=25)  # fairlearn's MetricFrame takes tens of milliseconds a call
@given(st.integers(2, 40).flatmap(lambda n: st.tuples(st.lists(st.integers(0, 1), min_size=n, max_size=n),
                                                       st.lists(st.integers(0, 1), min_size=n, max_size=n),
                                                       st.lists(st.sampled_from(["p", "q", "r"]), min_size=n, max_size=n))),
       st.sampled_from([None, "int", "float"]), st.sampled_from(["between_groups", "to_overall"]), st.data())  # fmt: skip
@pytest.mark.slow  # over a few seconds: the full run only
def test_the_fairness_functions_are_fairlearns(case, weights, method, data):
    y_true, y_pred, groups = case
    if len(set(y_true) | set(y_pred)) < 2:
        return
    w = make_weight(weights, len(y_true), data)
    options = {"sensitive_features": groups, "method": method, "sample_weight": None if w is None else np.array(w, dtype=float)}
    for name in metrics.FAIRLEARN:
        with warnings.catch_warnings():  # fairlearn divides by a zero total weight and warns; evalkit does not
            warnings.simplefilter("ignore", RuntimeWarning)
            try:
                theirs = getattr(fm, name)(y_true, y_pred, **options)
            except ValueError:  # a group whose weights are all 0: scikit-learn refuses it inside fairlearn
                return
        ours = getattr(metrics, name)(y_true, y_pred, **options)
        if name == "equalized_odds_ratio" and _undefined_part(y_true, y_pred, groups, options, method):
            # fairlearn takes Python's min of [tpr ratio, fpr ratio]: a NaN first gives NaN, a NaN second is skipped;
            # evalkit's worst case of a part that is undefined is undefined, whichever part it is
            assert math.isnan(ours), (name, ours, theirs)
            continue
        assert close(ours, theirs, rel=1e-9, abs=1e-12), (name, ours, theirs)
    for agg in ("worst_case", "mean"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            theirs = fm.equalized_odds_difference(y_true, y_pred, agg=agg, **options)
        assert close(metrics.equalized_odds_difference(y_true, y_pred, agg=agg, **options), theirs)


def _undefined_part(y_true, y_pred, groups, options, method):
    """Whether fairlearn's true or false positive rate ratio of the groups is undefined (NaN)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        weight = {"sample_weight": options["sample_weight"]}
        frame = fm.MetricFrame(metrics={"tpr": fm.true_positive_rate, "fpr": fm.false_positive_rate}, y_true=y_true, y_pred=y_pred,
                               sensitive_features=groups, sample_params={"tpr": weight, "fpr": weight})  # fmt: skip
        return bool(frame.ratio(method=method).isna().any())


def test_fairness_functions_follow_fairlearns_positive_class_and_mean():
    """With every label 0 fairlearn's positive class is still 1 (never predicted: the ratios are
    undefined, the differences 0), and its agg="mean" leaves an undefined ratio out."""
    options = {"sensitive_features": ["a", "a", "b", "b"]}
    for name in ("equal_opportunity_ratio", "equalized_odds_ratio"):
        assert math.isnan(getattr(metrics, name)([0, 0, 0, 0], [0, 1, 0, 1], **options))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            assert math.isnan(getattr(fm, name)([0, 0, 0, 0], [0, 1, 0, 1], **options))
    assert metrics.equal_opportunity_difference([0, 0, 0, 0], [0, 1, 0, 1], **options) == 0.0
    y_true, y_pred, groups = [1, 1, 0, 0, 1, 0], [1, 0, 0, 0, 1, 0], ["a", "a", "a", "b", "b", "b"]  # the fpr ratio is 0/0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        theirs = fm.equalized_odds_ratio(y_true, y_pred, sensitive_features=groups, agg="mean")
    assert metrics.equalized_odds_ratio(y_true, y_pred, sensitive_features=groups, agg="mean") == theirs == 0.5
    with pytest.raises(InvalidArgumentError, match="not 0/1 or -1/1"):
        metrics.equal_opportunity_ratio([0, 1, 2], [0, 1, 2], sensitive_features=["a", "b", "a"])


def test_per_group_values_are_metricframes():
    rng = np.random.default_rng(2)
    y_true, y_pred, groups = rng.integers(0, 3, 300), rng.integers(0, 3, 300), rng.choice(["a", "b", "c"], 300)
    frame = fm.MetricFrame(metrics={"recall": lambda t, p: skm.recall_score(t, p, average="macro"), "accuracy": skm.accuracy_score},
                           y_true=y_true, y_pred=y_pred, sensitive_features=groups)  # fmt: skip
    result = by_group(y_true, y_pred, groups)
    for key in result:
        assert result.values("recall", "macro")[key] == pytest.approx(frame.by_group.loc[key, "recall"], abs=1e-12)
        assert result.values("accuracy")[key] == pytest.approx(frame.by_group.loc[key, "accuracy"], abs=1e-12)
    assert result.difference("accuracy").value == pytest.approx(frame.difference()["accuracy"], abs=1e-12)
    assert result.ratio("recall", "macro", relative_to="overall").value == pytest.approx(frame.ratio(method="to_overall")["recall"], abs=1e-12)


def test_the_fairness_functions_over_a_result_follow_evalkits_policy():
    result = by_group([0, 1, 1, 0, 0, 0], [1, 1, 0, 0, 0, 1], ["a", "a", "b", "b", "c", "c"])
    assert demographic_parity_difference(result) == pytest.approx(1.0)  # selection rates 1, 0, 0.5
    assert equalized_odds_difference(result) == pytest.approx(1.0)  # group c has no positives: its recall is left out, not 0
    with pytest.raises(UnknownLabelError, match="positive class"):
        demographic_parity_difference(result, positive="yes")


# --------------------------------------------------------------------------------------------
# combining, reading back, reports, the command line


def test_merges_json_and_reports(tmp_path, capsys):
    from evalkit.cli import main

    y_true, y_pred, groups = ["a", "b", "a", "c", "b", "a"], ["a", "b", "b", "c", "b", "a"], ["x", "y", "x", "z", "y", "z"]
    whole = by_group(y_true, y_pred, groups)
    parts = by_group(y_true[:3], y_pred[:3], groups[:3]) + by_group(y_true[3:], y_pred[3:], groups[3:])  # labels and groups first seen later
    assert parts == whole
    assert ByGroup.from_json(whole.to_json()) == whole
    sets = by_group([{"x"}, {"y"}], [{"x"}, {"x"}], ["a", "b"])
    assert ByGroup.from_json(sets.to_json()) == sets
    with warnings.catch_warnings():  # so few samples that some statistics never vary (BCa says so)
        warnings.simplefilter("ignore", EvalkitWarning)
        report = whole.report(["recall", "precision"], confidence=0.9, n_resamples=50)
    assert report.groups == ("x", "y", "z", OVERALL) and report.to_dict(strict=True)["groups"][0]["intervals"]["recall"] is not None
    page = report.to_html()
    defined = sum(not math.isnan(value) for key in ("x", "y", "z") for value in report.values[key])
    assert page.count("<circle") == defined and "<script" not in page  # a dot per defined value of each group
    assert "recall low" in report.to_csv() and "| x |" in report.to_markdown()
    path = tmp_path / "predictions.csv"
    path.write_text("actual,predicted,region\n" + "\n".join(f"{a},{p},{g}" for a, p, g in zip(y_true, y_pred, groups)) + "\n", encoding="utf-8")
    assert main(["report", str(path), "--group", "region", "--measures", "recall", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["groups"][2]["group"] == {"region": "z"} and document["groups"][2]["recall"] == pytest.approx(whole.values("recall", "macro")["z"])
    assert main(["report", str(path), "--group", "region", "--multi-label"]) == 2
    assert "it does not go with --multi-label" in capsys.readouterr().err


# --------------------------------------------------------------------------------------------
# keys: names that could collide stay apart, and structured


def test_a_group_named_overall_is_a_group_like_any_other():
    y_true, y_pred = [1, 1, 1, 1, 0, 0], [1, 1, 0, 0, 0, 0]
    result = by_group(y_true, y_pred, ["overall", "overall", "b", "b", "b", "b"])
    values = result.values("accuracy")
    assert values["overall"] == 1.0 and values[OVERALL] == pytest.approx(4 / 6) and values["b"] == 0.5  # the group, not the whole
    assert result.difference("accuracy").value == 0.5  # 1.0 - 0.5; the whole (2/3) never overwrites the group
    assert by_group([0, 1], [0, 1], ["a", "b"]).values("accuracy")["overall"] == 1.0  # no such group: "overall" is the whole
    report = result.report(["accuracy"])
    rows = report.to_text().splitlines()
    assert any(line.startswith("overall ") for line in rows) and any(line.startswith("overall (all samples)") for line in rows)
    document = report.to_dict()
    assert document["groups"][1]["group"] == {"group": "overall"} and document["groups"][1]["accuracy"] == 1.0
    assert document["overall"]["accuracy"] == pytest.approx(4 / 6)


def test_intersection_keys_stay_structured_in_every_format(tmp_path, capsys):
    from evalkit.cli import main

    y_true, y_pred = [0, 1, 1, 0], [0, 1, 0, 0]
    first, second = ["a x", "a", "a x", "a"], ["b", "x b", "b", "x b"]  # joined by " x " both would read "a x x b"
    result = by_group(y_true, y_pred, {"first": first, "second": second})
    assert result.keys == (("a", "x b"), ("a x", "b"))
    document = result.report(["accuracy"]).to_dict()
    assert [row["group"] for row in document["groups"]] == [{"first": "a", "second": "x b"}, {"first": "a x", "second": "b"}]
    rows = list(csv.reader(io.StringIO(result.report(["accuracy"]).to_csv())))
    assert rows[0][:3] == ["row", "first", "second"] and rows[1][:3] == ["group", "a", "x b"] and rows[2][:3] == ["group", "a x", "b"]
    assert rows[3][:3] == ["overall", "", ""]
    path = tmp_path / "g.csv"
    path.write_text("actual,predicted,first,second\n" + "".join(f"{a},{p},{f},{s}\n" for a, p, f, s in zip(y_true, y_pred, first, second)),
                    encoding="utf-8")  # fmt: skip
    assert main(["report", str(path), "--group", "first,second", "--measures", "recall", "--format", "json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["groups"]) == 2


def test_a_group_column_named_as_a_measure_keeps_its_own_csv_column():
    """A group column called accuracy wrote the header row,accuracy,accuracy,...: a CSV reader
    took one for the other (pandas' accuracy.1). It is written as 'group accuracy'."""
    result = by_group([0, 1, 1], [0, 1, 0], {"accuracy": ["x", "y", "x"], "support": ["a", "a", "b"]})
    rows = list(csv.reader(io.StringIO(result.report(["accuracy"]).to_csv())))
    assert rows[0] == ["row", "group accuracy", "group support", "accuracy", "support", "small", "average", "class"]
    assert len(set(rows[0])) == len(rows[0]) and rows[1][:4] == ["group", "x", "a", "1.0"]
    named = by_group([0, 1, 1], [0, 1, 0], {"accuracy": ["x", "y", "x"], "group accuracy": ["a", "a", "b"]})
    header = next(csv.reader(io.StringIO(named.report(["accuracy"]).to_csv())))
    assert header[:4] == ["row", "group group accuracy", "group accuracy", "accuracy"] and len(set(header)) == len(header)


def test_tuple_and_two_dimensional_group_columns_are_intersections():
    y_true, y_pred = [0, 1, 1, 0], [0, 1, 0, 0]
    tuples = by_group(y_true, y_pred, [("f", 1), ("m", 2), ("f", 1), ("m", 1)])
    assert tuples.keys == (("f", 1), ("m", 1), ("m", 2)) and tuples[("f", 1)].get_total_items() == 2
    table = by_group(y_true, y_pred, {"who": np.array([["f", "x"], ["m", "y"], ["f", "x"], ["m", "x"]])})
    assert table.names == ("who 0", "who 1") and table.keys == (("f", "x"), ("m", "x"), ("m", "y"))
    with pytest.raises(InvalidArgumentError, match="tuples of different lengths"):
        by_group(y_true, y_pred, [("f", 1), ("m",), ("f", 1), ("m", 1)])


def test_an_undefined_disparity_prints():
    result = by_group([0, 0, 0, 0], [0, 0, 1, 1], ["a", "a", "b", "b"])
    disparity = result.difference("recall", label=1)  # no group has a positive: no recall is defined
    assert math.isnan(disparity.value) and str(disparity) == "recall of 1 difference undefined (0 of 2 groups have a defined value)"


def test_memory_grows_with_the_samples_not_with_groups_times_labels_squared():
    """1,000 groups and 1,000 labels over 3,000 samples: a dense groups x labels x labels table
    would take 8 GB; the kinds of (group, actual, predicted) take a few MB."""
    import tracemalloc

    rng = np.random.default_rng(0)
    n = 3000
    y_true, y_pred, groups = rng.integers(0, 1000, n), rng.integers(0, 1000, n), rng.integers(0, 1000, n)
    tracemalloc.start()
    result = by_group(y_true, y_pred, groups)
    values = result.values("recall", "macro")
    one = result[int(groups[0])]
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 200e6, peak
    rows = groups == groups[0]
    alone = ConfusionMatrix.from_predictions(y_true[rows], y_pred[rows], result.overall.labels)
    assert np.array_equal(one.to_array(), alone.to_array()) and close(values[int(groups[0])], alone.average("recall", "macro"))
    assert close(values[OVERALL], ConfusionMatrix.from_predictions(y_true, y_pred).average("recall", "macro"))


def test_whole_result_measures_of_every_group_read_each_group_once(monkeypatch):
    """Accuracy, kappa and MCC of 300 groups over 300 labels: each group's value from its own
    counts (as its matrix gives it), the whole result's measures computed once, not per group."""
    rng = np.random.default_rng(3)
    y_true, y_pred, groups = rng.integers(0, 300, 2000), rng.integers(0, 300, 2000), rng.integers(0, 300, 2000)
    y_pred[::2] = y_true[::2]
    result = by_group(y_true, y_pred, groups)
    calls = []
    original = ConfusionMatrix.whole_measures
    monkeypatch.setattr(ConfusionMatrix, "whole_measures", lambda self: calls.append(1) or original(self))
    values = {name: result.values(name) for name in ("accuracy", "cohen_kappa", "matthews_correlation_coefficient")}
    assert len(calls) <= 2 * len(values), len(calls)  # the refusal's check and the overall value, per measure
    for key in rng.choice(result.keys, 5):
        alone = ConfusionMatrix.from_predictions(y_true[groups == key], y_pred[groups == key], result.overall.labels)
        assert all(close(values[name][key], original(alone)[name]) for name in values), key


def test_disparities_of_scores_and_of_whole_result_measures_are_answers():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    s = np.clip(0.3 * y + rng.random(300) * 0.7, 0, 1)
    groups = rng.choice(["a", "b", "c"], 300)
    scored = ByGroup.from_scores(y, s, groups)
    aucs = {key: skm.roc_auc_score(y[groups == key], s[groups == key]) for key in ("a", "b", "c")}
    assert scored.difference("roc_auc").value == pytest.approx(max(aucs.values()) - min(aucs.values()), abs=1e-12)
    assert scored.ratio("auc").value == pytest.approx(min(aucs.values()) / max(aucs.values()), abs=1e-12)
    assert "roc auc" in scored.report(["roc_auc", "average_precision"]).to_text()
    with pytest.raises(InvalidArgumentError, match="'roc_auc' and 'average_precision'"):
        scored.difference("recall")
    labelled = by_group(y, (s > 0.5).astype(int), groups)
    accuracy = labelled.difference("accuracy", confidence=0.9, n_resamples=400)  # a whole-result measure needs no average
    assert accuracy.interval.low <= accuracy.value <= accuracy.interval.high
    kappa = labelled.difference("cohen_kappa", confidence=0.9, n_resamples=400)
    per_group = [skm.cohen_kappa_score(y[groups == key], (s[groups == key] > 0.5).astype(int)) for key in ("a", "b", "c")]
    assert kappa.value == pytest.approx(max(per_group) - min(per_group), abs=1e-12) and kappa.interval.low <= kappa.value
    with pytest.raises(InvalidArgumentError, match="give an 'average' or a 'label' for 'recall'"):
        labelled.difference("recall", confidence=0.9)


def test_the_command_line_reports_scores_calibration_and_disparities_by_group(tmp_path, capsys):
    """--group with --score: the label measures of the thresholded scores, the areas of each
    group's curve and its calibration, sorted by a column, drawn, and the disparities below."""
    from evalkit.cli import main

    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    p = np.clip(0.3 * y + rng.random(300) * 0.7, 0, 1).round(4)
    region = rng.choice(["north", "south", "east"], 300)
    path = tmp_path / "scores.csv"
    path.write_text("actual,p,region\n" + "".join(f"{a},{s},{r}\n" for a, s, r in zip(y, p, region)), encoding="utf-8")
    picture = tmp_path / "groups.png"
    assert main(["report", str(path), "--group", "region", "--score", "p", "--measures", "recall,roc_auc,ap", "--calibration", "--bins", "10",
                 "--sort-by", "roc_auc", "--plot", str(picture), "--format", "json"]) == 0  # fmt: skip
    document = json.loads(capsys.readouterr().out)
    aucs = {key: skm.roc_auc_score(y[region == key], p[region == key]) for key in ("north", "south", "east")}
    rows = {row["group"]["region"]: row for row in document["groups"]}
    assert [row["group"]["region"] for row in document["groups"]] == sorted(aucs, key=aucs.get, reverse=True)  # best first
    for key, auc in aucs.items():
        assert rows[key]["roc_auc"] == pytest.approx(auc, abs=1e-12)
        assert rows[key]["recall"] == pytest.approx(skm.recall_score(y[region == key], (p[region == key] >= 0.5).astype(int)))  # the positive class's
        ece = Calibration.from_scores(y[region == key], p[region == key], bins=10).error()
        assert rows[key]["expected_calibration_error"] == pytest.approx(ece, abs=1e-12)
    assert document["disparities"]["roc_auc"]["difference"]["value"] == pytest.approx(max(aucs.values()) - min(aucs.values()), abs=1e-12)
    assert document["disparities"]["roc_auc"]["difference"]["between"] == [{"region": max(aucs, key=aucs.get)}, {"region": min(aucs, key=aucs.get)}]
    assert picture.stat().st_size > 1000
    assert main(["report", str(path), "--group", "region", "--score", "p", "--measures", "recall"]) == 0
    text = capsys.readouterr().out
    assert "difference" in text and "ratio" in text and "difference and ratio between the groups" in text


def test_renaming_groups_and_classes_merges_their_counts():
    """Groups or classes given one name are one: the same result as counting the renamed values,
    for single-label groups and for groups of scores."""
    rng = np.random.default_rng(5)
    y_true, y_pred, groups = rng.integers(0, 4, 300), rng.integers(0, 4, 300), rng.choice(["a", "b", "c", "d"], 300)
    key_of, label_of = {"a": "x", "b": "y", "c": "x", "d": "z"}, {0: "n", 1: "n", 2: "p", 3: "q"}
    result = by_group(y_true, y_pred, groups).renamed([key_of[key] for key in ("a", "b", "c", "d")], [label_of[c] for c in range(4)])
    want = by_group([label_of[v] for v in y_true], [label_of[v] for v in y_pred], [key_of[g] for g in groups])
    assert result.keys == want.keys == ("x", "y", "z") and result.overall.labels == want.overall.labels
    assert all(np.array_equal(result[key].to_array(), want[key].to_array()) for key in want.keys)
    assert result.values("f1_score", "macro") == want.values("f1_score", "macro")
    binary, scores = y_true % 2, rng.random(300)
    scored = ByGroup.from_scores(binary, scores, groups).renamed([key_of[key] for key in ("a", "b", "c", "d")])
    alone = ByGroup.from_scores(binary, scores, [key_of[g] for g in groups])
    assert scored.values("roc_auc") == pytest.approx(alone.values("roc_auc"), abs=1e-12)
    with pytest.raises(InvalidArgumentError, match="'keys' must name each of the 4 groups"):
        by_group(y_true, y_pred, groups).renamed(["x"])


@pytest.mark.parametrize("kind", ['ByGroup', 'ByGroup of label sets'])
@given(data=counted_samples())
def test_a_result_by_group_follows_the_counted_state_protocol(kind, data):
    """Merged parts equal the whole in any order, ``(a + b) - b == a``, scaling, JSON and
    pickle round trips (``harness.check_kind``)."""
    check_kind(kind, data)


@given(st.integers(4, 30).flatmap(lambda n: st.tuples(*(st.lists(values, min_size=n, max_size=n) for values in
                                                        (st.integers(0, 1), st.integers(0, 1), st.sampled_from(["a", "b", "c"]))))),
       st.data())  # fmt: skip
def test_fairness_measures_agree_on_every_face(columns, data):
    y_true, y_pred, groups = (list(column) for column in columns)
    y_true[:2], y_pred[:2] = [0, 1], [1, 0]  # both classes in the labels and the predictions
    check_fairness_faces(y_true, y_pred, groups, data.draw(st.integers(2, len(y_true) - 1)))


def test_areas_per_group_take_their_parameters_and_refuse_others():
    """``values("roc_auc", max_fpr=...)`` of groups of scores is each group's partial AUC (the
    keyword was dropped: every group read its whole AUC), and what an area does not take is refused."""
    from sklearn import metrics as sk

    from evalkit import ByGroup
    from evalkit.exceptions import InvalidArgumentError

    y, s, g = np.array([0, 1, 1, 0, 1, 0, 1, 0]), np.array([0.1, 0.4, 0.35, 0.8, 0.9, 0.2, 0.3, 0.5]), np.array(list("aaaabbbb"))
    result = ByGroup.from_scores(y, s, g)
    values = result.values("roc_auc", max_fpr=0.5)
    assert values["a"] == pytest.approx(sk.roc_auc_score(y[:4], s[:4], max_fpr=0.5)) and values["b"] == pytest.approx(sk.roc_auc_score(y[4:], s[4:], max_fpr=0.5))
    assert values["a"] != pytest.approx(result.values("roc_auc")["a"])
    for call, message in ((lambda: result.values("roc_auc", "bogus"), "'average' must be one of"), (lambda: result.values("roc_auc", nonsense=1), "roc_auc takes no parameter 'nonsense'"),
                          (lambda: result.values("average_precision", max_fpr=0.5), "average_precision takes no parameter 'max_fpr'")):  # fmt: skip
        with pytest.raises(InvalidArgumentError, match=message):
            call()


def test_groups_of_scores_check_their_lengths_and_refuse_a_json_form_they_cannot_read():
    from evalkit import ByGroup
    from evalkit.exceptions import InputLengthError, UnsupportedSettingError

    for truth in ([0, 1, 0, 1], [0, 1]):  # a longer y_true was cut to the scores, a shorter one raised IndexError
        for build in (ByGroup.from_scores, ByGroup.from_probabilities):
            with pytest.raises(InputLengthError, match=f"'y_true' has {len(truth)} samples but 'y_(score|prob)' has 3"):
                build(truth, [0.1, 0.5, 0.3], ["a"] * 3)
    for build in (ByGroup.from_scores, ByGroup.from_probabilities):  # to_json wrote a document from_json refused
        with pytest.raises(UnsupportedSettingError, match="have no JSON form"):
            build([0, 1, 1, 0], [0.1, 0.9, 0.4, 0.3], list("aabb")).to_json()


def test_an_average_and_a_label_together_are_refused():
    """``difference("recall", "macro", label=1)`` read class 1's recall and named it the macro
    average's ("recall (macro) difference 1" where the macro difference is 0.5)."""
    from evalkit.exceptions import InvalidArgumentError

    result = by_group([0, 1, 1, 0, 1], [0, 1, 0, 0, 1], list("aabbc"))
    for call in (lambda: result.values("recall", "macro", label=1), lambda: result.difference("recall", "macro", label=1), lambda: result.ratio("recall", "micro", label=0)):
        with pytest.raises(InvalidArgumentError, match="give an 'average' or a 'label', not both"):
            call()
    assert result.difference("recall", "macro").value == pytest.approx(0.5)


def test_an_undefined_disparity_says_why():
    """Two groups whose recall is 0 each: the ratio is 0/0, which the text called "2 of 2 groups
    have a defined value" as if that made it undefined."""
    both_zero = by_group([1, 1, 1, 1], [0, 0, 0, 0], list("aabb")).ratio("recall", label=1)
    assert math.isnan(both_zero.value) and str(both_zero) == "recall of 1 ratio undefined (a ratio of 0 to 0)"
    none_defined = by_group([0, 0, 0, 0], [1, 0, 0, 1], list("aabb")).difference("recall", label=1)
    assert str(none_defined) == "recall of 1 difference undefined (0 of 2 groups have a defined value)"


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0, 1]), st.sampled_from([0, 1]), st.sampled_from(["a", "b"]),
                          st.sampled_from([0.0, 0.1, 0.2, 0.3, 1.0, 1e16, 1e-300])), min_size=1, max_size=12),
       st.integers(0, 12))  # fmt: skip
def test_float_weighted_groups_merged_and_taken_away_equal_them_counted_at_once(samples, cut):
    """Each group's counts are exact sums, as one matrix of the same samples keeps them: with
    weights 0.1, 0.2, 0.3 a group read 0.6000000000000001 where its matrix reads 0.6, and with
    1e16 among ones the parts merged differed from the whole (A + B != R)."""
    y, p, g, w = (list(column) for column in zip(*samples))
    cut = min(cut, len(samples))
    whole = by_group(y, p, g, labels=[0, 1], sample_weight=w)
    first = by_group(y[:cut], p[:cut], g[:cut], labels=[0, 1], sample_weight=w[:cut]) if cut else whole.empty()
    second = by_group(y[cut:], p[cut:], g[cut:], labels=[0, 1], sample_weight=w[cut:]) if cut < len(samples) else whole.empty()
    assert first + second == whole and second + first == whole
    assert (first + second) - second == first and whole - first == second
    for key in whole.keys:
        rows = [k for k, group in enumerate(g) if group == key]
        assert whole[key] == ConfusionMatrix.from_predictions([y[k] for k in rows], [p[k] for k in rows], [0, 1], sample_weight=[w[k] for k in rows])
    assert ByGroup.from_json(whole.to_json()) == whole


def test_a_group_of_samples_that_weigh_nothing_stays_a_group_when_a_part_is_taken_away():
    """by_group keeps a group whose samples all weigh 0; taking away a part that brought some
    of its samples dropped it while it still held samples (the rule looked at weight, not at
    samples), so (A + B) - B was not A."""
    first = by_group([0, 1, 0], [0, 1, 0], ["a", "a", "z"], sample_weight=[1.0, 2.0, 0.0])
    second = by_group([1], [1], ["z"], sample_weight=[0.5])
    assert first.keys == ("a", "z") and ((first + second) - second).keys == ("a", "z") and (first + second) - second == first
    assert (first + by_group([1], [1], ["z"], sample_weight=[0.0])) - by_group([1], [1], ["z"], sample_weight=[0.0]) == first

