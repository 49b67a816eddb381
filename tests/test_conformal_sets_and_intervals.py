"""Prediction sets and prediction intervals: coverage, size and the interval score, against
MAPIE's metric functions (on MAPIE's own test data and on generated data), against counting
sample by sample, and against the nominal level of their coverage intervals in simulation.

References: Angelopoulos & Bates, "A gentle introduction to conformal prediction" (2021):
coverage and size-stratified coverage; Gneiting & Raftery, "Strictly proper scoring rules,
prediction, and estimation" (2007), section 6.2: the interval score; MAPIE's tests
(mapie/tests/test_metrics.py) for the toy data and their values.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from harness import check_kind, counted_samples
from hypothesis import given
from hypothesis import strategies as st
from mapie.metrics import classification as mapie_sets
from mapie.metrics import regression as mapie_intervals
from strategies import close

from evalkit import IntervalCoverage, SetCoverage, Windowed
from evalkit import metrics as face
from evalkit._engine.serialization import FormatError
from evalkit.exceptions import (
    CountOverflowError,
    InputLengthError,
    InputShapeError,
    InvalidArgumentError,
    InvalidValueError,
    UnknownLabelError,
)

# MAPIE's toy data (mapie/tests/test_metrics.py) and the values its tests expect
Y_TOY = np.array([5, 7.5, 9.5, 10.5, 12.5])
Y_PREDS = np.array([[5, 4, 6], [7.5, 6.0, 9.0], [9.5, 9, 10.0], [10.5, 8.5, 12.5], [11.5, 10.5, 12.0]])
INTERVALS = np.array([[[4, 4], [6, 7.5]], [[6.0, 8], [9.0, 10]], [[9, 9], [10.0, 10.0]], [[8.5, 9], [12.5, 12]], [[10.5, 10.5], [12.0, 12]]])
Y_TRUE_CLASS = np.array([3, 3, 1, 2, 2])
Y_PRED_SET = np.array([[False, False, True, True], [False, True, False, True], [False, True, True, False], [False, False, True, True], [False, True, False, True]])
Y_PRED_SET_2ALPHAS = np.array([
    [[False, False], [False, True], [False, True], [False, False]],
    [[False, False], [True, True], [True, True], [True, True]],
    [[False, False], [True, False], [True, False], [False, False]],
    [[True, False], [True, False], [True, True], [True, False]],
    [[False, False], [True, True], [False, True], [True, True]],
])  # fmt: skip
SSC_CLASSIF = {  # num_bins -> MAPIE's expected size-stratified coverage of Y_PRED_SET_2ALPHAS
    2: [[1 / 3, 1.0], [1 / 3, 1.0]],
    3: [[0.0, 2 / 3, 1.0], [0.5, 2 / 3, np.nan]],
    None: [[0.0, np.nan, 0.5, 1.0, 1.0], [0.0, 1.0, 0.0, 1.0, np.nan]],
}
SSC_REG = {2: [[2 / 3, 1.0], [1 / 3, 1.0]], 3: [[0.5, 1.0, 1.0], [0.5, 0.5, 1.0]]}


def test_mapies_toy_data_give_mapies_values():
    assert face.regression_coverage_score(Y_TOY, Y_PREDS[:, 1:])[0] == 0.8
    assert face.classification_coverage_score(Y_TRUE_CLASS, Y_PRED_SET)[0] == 0.8
    np.testing.assert_allclose(face.classification_mean_width_score(Y_PRED_SET_2ALPHAS), [2.2, 1.8])
    np.testing.assert_allclose(face.regression_mean_width_score(INTERVALS), [2.3, 2.2])
    for bins, expected in SSC_CLASSIF.items():
        np.testing.assert_allclose(face.classification_ssc(Y_TRUE_CLASS, Y_PRED_SET_2ALPHAS, num_bins=bins), expected)
        np.testing.assert_allclose(face.classification_ssc_score(Y_TRUE_CLASS, Y_PRED_SET_2ALPHAS, num_bins=bins), np.nanmin(expected, axis=1))
    for bins, expected in SSC_REG.items():
        np.testing.assert_allclose(face.regression_ssc(Y_TOY, INTERVALS, num_bins=bins), expected)
        np.testing.assert_allclose(face.regression_ssc_score(Y_TOY, INTERVALS, num_bins=bins), np.min(expected, axis=1))
    # MAPIE's Winkler test: four intervals around 10, one crossed (read with its bounds swapped), alpha 0.1
    y_pis = np.array([[[5.0], [15.0]], [[15.0], [25.0]], [[12.0], [8.0]], [[-5.0], [0.0]]])
    assert face.regression_mwi_score(np.full(4, 10.0), y_pis, 0.9) == pytest.approx(mapie_intervals.regression_mwi_score(np.full(4, 10.0), y_pis, 0.9))
    assert face.regression_mwi_score(np.full(4, 10.0), y_pis, 0.9) == pytest.approx(82.25, rel=1e-2)


@st.composite
def set_cases(draw, max_size=40):
    n, k, levels = draw(st.integers(1, max_size)), draw(st.integers(1, 5)), draw(st.integers(1, 3))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    return rng.integers(0, k, n), rng.random((n, k, levels)) < draw(st.sampled_from([0.2, 0.5, 0.8]))


@given(case=set_cases())
def test_the_set_functions_equal_mapies_on_generated_sets(case):
    y_true, sets = case
    np.testing.assert_allclose(face.classification_coverage_score(y_true, sets), mapie_sets.classification_coverage_score(y_true, sets), rtol=1e-12)
    np.testing.assert_allclose(face.classification_mean_width_score(sets), mapie_sets.classification_mean_width_score(sets), rtol=1e-12)
    expected = _mapie_quietly(mapie_sets.classification_ssc, y_true, sets)
    np.testing.assert_allclose(face.classification_ssc(y_true, sets), expected, rtol=1e-12)


def _mapie_quietly(function, *args, **kwargs):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # MAPIE's mean of an empty bin
        return function(*args, **kwargs)


@st.composite
def interval_cases(draw, max_size=40):
    n, levels = draw(st.integers(1, max_size)), draw(st.integers(1, 3))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    y = np.round(rng.normal(size=n), 1)
    lower = np.round(rng.normal(size=(n, levels)) - 1, 1)
    return y, np.stack([lower, lower + np.round(rng.random((n, levels)) * 3, 1)], axis=1)


@given(case=interval_cases(), level=st.sampled_from([0.5, 0.8, 0.9, 0.95]))
def test_the_interval_functions_equal_mapies_on_generated_intervals(case, level):
    y, intervals = case
    np.testing.assert_allclose(face.regression_coverage_score(y, intervals), mapie_intervals.regression_coverage_score(y, intervals), rtol=1e-12)
    np.testing.assert_allclose(face.regression_mean_width_score(intervals), mapie_intervals.regression_mean_width_score(intervals), rtol=1e-12)
    one = intervals[:, :, :1]
    assert close(face.regression_mwi_score(y, one, level), mapie_intervals.regression_mwi_score(y, one, level), rel=1e-9, abs=1e-12)


@given(case=set_cases(max_size=25), groups=st.lists(st.sampled_from(["x", "y"]), min_size=25, max_size=25), weighted=st.booleans())
def test_every_reading_of_sets_equals_counting_sample_by_sample(case, groups, weighted):
    y_true, sets = case
    sets = sets[:, :, 0]
    n, k = sets.shape
    weight = np.arange(1, n + 1) if weighted else np.ones(n, dtype=int)
    groups = groups[:n]
    result = SetCoverage.from_sets(y_true, sets, groups=groups, sample_weight=weight if weighted else None)
    covered = sets[np.arange(n), y_true]
    sizes = sets.sum(axis=1)

    def share(mask, of=None):
        of = np.ones(n, dtype=bool) if of is None else of
        return np.nan if not weight[of].sum() else weight[mask & of].sum() / weight[of].sum()

    assert close(result.coverage(), share(covered))
    assert close(result.mean_size(), np.dot(weight, sizes) / weight.sum())
    assert close(result.singleton_rate(), share(sizes == 1)) and close(result.empty_rate(), share(sizes == 0))
    assert close(result.singleton_accuracy(), share(covered, sizes == 1))
    assert all(close(result.class_coverage()[c], share(covered, y_true == c)) for c in range(k))
    assert all(close(value, share(covered, np.array(groups) == g)) for g, value in result.group_coverage().items())
    assert all(close(value, share(covered, sizes == s)) for s, value in result.size_coverage().items())
    assert all(close(value, share(sizes == s)) for s, value in result.size_distribution().items())
    as_label_sets = [set(np.flatnonzero(row).tolist()) for row in sets]
    assert SetCoverage.from_sets(y_true.tolist(), as_label_sets, labels=range(k), groups=groups, sample_weight=weight if weighted else None) == result
    scores = np.where(sets, 0.75, 0.25)
    assert SetCoverage.from_scores(y_true, scores, 0.5, groups=groups, sample_weight=weight if weighted else None) == result


@given(case=interval_cases(max_size=30), weighted=st.booleans())
def test_every_reading_of_intervals_equals_counting_sample_by_sample(case, weighted):
    y, intervals = case
    lower, upper = intervals[:, 0, 0], intervals[:, 1, 0]
    n = len(y)
    weight = np.arange(1, n + 1, dtype=float) if weighted else np.ones(n)
    prediction = (lower + upper) / 2
    edges = [-1.0, 0.0, 1.0]
    result = IntervalCoverage.from_intervals(y, lower, upper, edges=edges, sample_weight=weight if weighted else None)
    covered = (lower <= y) & (y <= upper)
    assert close(result.coverage(), np.dot(weight, covered) / weight.sum())
    assert close(result.mean_width(), np.dot(weight, upper - lower) / weight.sum(), rel=1e-9)
    alpha = 0.1
    score = (upper - lower) + 2 / alpha * (np.maximum(lower - y, 0) + np.maximum(y - upper, 0))
    assert close(result.interval_score(1 - alpha), np.dot(weight, score) / weight.sum(), rel=1e-9)
    in_bin = np.where(prediction < 0, 0, 1)  # the edges' one inner edge, 0; outside values go to the end bins
    for b in range(2):
        mask = in_bin == b
        expected = np.nan if not mask.any() else np.dot(weight[mask], covered[mask]) / weight[mask].sum()
        assert close(result.bin_coverage()[b], expected)


def test_coverage_intervals_cover_the_true_coverage_at_their_level():
    # 2,000 simulated calibrated sets and intervals of 150 samples, true coverage 0.9: the 95%
    # Wilson interval of the empirical coverage should hold 0.9 about 95% of the time.
    rng = np.random.default_rng(11)
    held_sets = held_intervals = 0
    for _ in range(2000):
        inside = rng.random(150) < 0.9
        sets = np.stack([inside, ~inside], axis=1)
        held_sets += _holds(SetCoverage.from_sets(np.zeros(150, dtype=int), sets).coverage_interval(), 0.9)
        y = np.where(inside, 0.0, 2.0)
        held_intervals += _holds(IntervalCoverage.from_intervals(y, np.full(150, -1.0), np.ones(150)).coverage_interval(method="wilson"), 0.9)
    assert 0.93 <= held_sets / 2000 <= 0.97
    assert 0.93 <= held_intervals / 2000 <= 0.97


def _holds(interval, value):
    return interval.low <= value <= interval.high


def test_groups_are_those_that_weigh_something_sorted_however_the_parts_came():
    first = SetCoverage.from_sets([0, 1], [[0], [1]], labels=[0, 1], groups=["z", "y"])
    second = SetCoverage.from_sets([0, 1], [[0], [0]], labels=[0, 1], groups=["x", "z"])
    whole = SetCoverage.from_sets([0, 1, 0, 1], [[0], [1], [0], [0]], labels=[0, 1], groups=["z", "y", "x", "z"])
    assert (first + second).groups == (second + first).groups == whole.groups == ("x", "y", "z")
    assert first + second == second + first == whole
    assert (whole - first).groups == ("x", "z") and whole - first == second  # a group the part took all of leaves
    window = Windowed(SetCoverage([0, 1]), size=2)
    for y, sets, group in [(0, [0], "z"), (1, [1], "a"), (0, [1], "m"), (1, [0, 1], "b")]:
        window.update([y], [sets], groups=[group])
    assert window.result.groups == ("b", "m") and window.result == SetCoverage.from_sets([0, 1], [[1], [0, 1]], labels=[0, 1], groups=["m", "b"])
    weightless = SetCoverage.from_sets([0, 1], [[0], [1]], labels=[0, 1], groups=["q", "r"], sample_weight=[0, 1])
    assert weightless.groups == ("r",) and weightless.group_coverage() == {"r": 1.0}
    earlier = json.loads(whole.to_json())  # a document of groups in the order met (as earlier builds wrote it) reads as today's
    earlier["groups"] = ["z", "y", "x"]
    for rows in (earlier["by_class"], earlier["by_size"]):
        for row in rows:
            row[0] = {0: 2, 1: 1, 2: 0}[row[0]]
    assert SetCoverage.from_json(json.dumps(earlier)) == whole


def test_groups_and_classes_join_and_leave_as_parts_do():
    monday = SetCoverage.from_sets(["a", "b"], [{"a"}, {"a"}], groups=["x", "x"])
    tuesday = SetCoverage.from_sets(["c"], [{"c", "a"}], groups=["y"])
    week = monday + tuesday
    assert week.labels == ("a", "b", "c") and week.groups == ("x", "y")
    assert week.group_coverage() == {"x": 0.5, "y": 1.0}
    assert week.class_coverage() == {"a": 1.0, "b": 0.0, "c": 1.0}
    assert (week - tuesday).coverage() == monday.coverage()
    assert SetCoverage.from_json(week.to_json()) == week
    with pytest.raises(InvalidArgumentError, match="with groups and without"):
        week + SetCoverage.from_sets(["a"], [{"a"}])
    with pytest.raises(InvalidArgumentError, match="'groups' must be given with every batch or with none"):
        week.update(["a"], [{"a"}])
    ungrouped = SetCoverage.from_sets(["a"], [{"a"}])
    with pytest.raises(InvalidArgumentError, match="'groups' must be given with every batch or with none"):
        ungrouped.update(["a"], [{"a"}], groups=["x"])


def test_counts_with_groups_and_without_combine_where_one_holds_nothing():
    """An empty state takes the other's form (a merge or a part that adds nothing leaves a
    result as it was; a result that holds nothing takes a batch's form, as a window's whose
    samples all left, whatever the batch's weights); counts that both hold samples are refused."""
    ungrouped = SetCoverage.from_sets(["a", "b"], [["a"], ["b"]])
    grouped = SetCoverage.from_sets(["a", "b"], [["a"], ["b"]], groups=["x", "y"])
    nothing = grouped.empty()
    assert nothing.groups == () and SetCoverage().groups is None
    assert ungrouped + nothing == ungrouped == nothing + ungrouped and (ungrouped - nothing).groups is None
    assert grouped + SetCoverage() == grouped == grouped - SetCoverage()
    weightless = SetCoverage.from_sets([0, 1], [{0}, {1}], groups=["a", "b"], sample_weight=[0.0, 0.0])  # both hold nothing: the form with groups, either order
    assert (SetCoverage() + weightless).groups == (weightless + SetCoverage()).groups == (SetCoverage() - nothing).groups == ()
    window = Windowed(SetCoverage(), size=2)
    window.update([0, 1], [{0}, {1}], groups=["a", "b"], sample_weight=[0.0, 0.0])
    assert window.result == weightless and window.result.group_coverage() == {}
    fresh = SetCoverage()
    fresh.update(["a"], [["a"]], groups=["x"])
    assert fresh.groups == ("x",)
    nothing.update(["a"], [["a"]])
    assert nothing.groups is None and nothing == SetCoverage.from_sets(["a"], [["a"]], labels=["a", "b"])
    with pytest.raises(InvalidArgumentError, match="with groups and without do not combine"):
        grouped.update(["a"], [["a"]])
    for weight in (None, [1.0]):  # a window whose grouped samples all left takes a batch without groups, weighted or not
        window = Windowed(SetCoverage(), period=1.0)
        window.update(["a"], [["a"]], groups=["x"], time=0.0, sample_weight=weight)
        window.advance(5.0)
        window.update(["a"], [["b"]], time=6.0, sample_weight=weight)
        assert window.result.groups is None and window.result.n_samples == 1


def test_bad_sets_and_intervals_are_refused_with_the_argument_named():
    with pytest.raises(InvalidValueError, match=r"'y_pred_set' must hold booleans or 0/1, got 2 at row 0, column 1"):
        SetCoverage.from_sets([0], np.array([[1, 2]]))
    with pytest.raises(InputLengthError, match="'y_pred_set' has 1 rows for 2 samples"):
        SetCoverage.from_sets([0, 1], np.array([[True, False]]))
    with pytest.raises(UnknownLabelError):
        SetCoverage.from_sets([5], np.array([[True, False]]))
    with pytest.raises(InputShapeError, match="'y_pred_set' must be"):
        face.classification_coverage_score([0], np.array([True]))
    with pytest.raises(InvalidValueError, match=r"lower bound must not exceed its upper bound, got \[3.0, 2.0\] at position 1"):
        IntervalCoverage.from_intervals([1, 2], [0, 3], [1, 2])
    with pytest.raises(InvalidValueError, match="'y_true' must be finite, got nan at position 0"):
        face.regression_coverage_score([np.nan], [[0, 1]])
    with pytest.raises(InvalidArgumentError, match="'confidence_level' must be a number in \\(0, 1\\)"):
        IntervalCoverage.from_intervals([1], [0], [2]).interval_score(1.0)
    with pytest.raises(InvalidArgumentError, match="'num_bins' must be a whole number in 1..5"):
        face.classification_ssc(Y_TRUE_CLASS, Y_PRED_SET_2ALPHAS, num_bins=10)
    with pytest.raises(InvalidArgumentError, match="'edges'"):
        IntervalCoverage(edges=[1, 0])


def test_interval_sums_beyond_float64_are_an_overflow_or_infinite_never_a_warning():
    # a weight of 1e308 times a width of 10, a width of 2e308: sums no float64 holds, refused as
    # counts are; a miss by 1e308 costs (2 / alpha) · 1e308, an infinite interval score
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for lower, upper, weight in (([0.0], [10.0], [1e308]), ([-1e308], [1e308], None)):
            with pytest.raises(CountOverflowError, match=r"the intervals' widths .* sum beyond what a float64 holds, got \[inf, 0\., 0\.\]"):
                IntervalCoverage.from_intervals([0.0], lower, upper, sample_weight=weight)
        assert IntervalCoverage.from_intervals([1e308], [0.0], [1.0]).interval_score(0.9) == np.inf


def test_where_evalkit_differs_from_mapie_on_purpose():
    # A bin count no larger than the number of distinct set sizes is refused by MAPIE; evalkit
    # answers, with NaN for the bins that hold no set (here sizes 0..4 in four bins).
    with pytest.raises(ValueError):
        mapie_sets.classification_ssc(Y_TRUE_CLASS, Y_PRED_SET_2ALPHAS, num_bins=4)
    assert face.classification_ssc(Y_TRUE_CLASS, Y_PRED_SET_2ALPHAS, num_bins=4).shape == (2, 4)
    # MAPIE's coverage and mean width take a crossed interval as it is (its width negative, or
    # absolute); evalkit refuses it, where only the Winkler score, as MAPIE's, swaps the bounds.
    crossed = np.array([[2.0, 1.0]])
    assert mapie_intervals.regression_coverage_score(np.array([1.5]), crossed)[0] == 0.0
    with pytest.raises(InvalidValueError):
        face.regression_coverage_score([1.5], crossed)


def test_the_mapie_functions_keep_mapies_signatures():
    import inspect

    from mapie.metrics import calibration as mapie_calibration
    from mapie.metrics import uncertainty as mapie_uncertainty

    modules = (mapie_sets, mapie_intervals, mapie_uncertainty, mapie_calibration)
    for name in face.MAPIE:
        if name == "coverage_gap":  # (mapie.metrics.conditional imports covmetrics, which needs torch: its signature by hand)
            assert str(inspect.signature(face.coverage_gap)).startswith("(y: 'LabelsLike', groups: 'LabelsLike', confidence_level: 'float', *, y_intervals")
            continue
        theirs = inspect.signature(next(getattr(module, name) for module in modules if hasattr(module, name)))
        ours = inspect.signature(getattr(face, name))
        shared = [p for p in ours.parameters.values() if p.name != "sample_weight"]
        assert [(p.name, p.default) for p in shared] == [(p.name, p.default) for p in theirs.parameters.values()], name


def test_every_row_of_the_mapie_porting_table_gives_mapies_number():
    import re
    from pathlib import Path

    from mapie.metrics import uncertainty as mapie_uncertainty

    from evalkit import RiskCoverage

    guide = (Path(__file__).resolve().parent.parent / "docs" / "pages" / "guide" / "selective-and-conformal.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z_]+)\((.*?)\)` \| `(.*?)` \|$", guide, re.MULTILINE)
    assert len(rows) == 8
    rng = np.random.default_rng(3)
    y_true, y_pred_set = rng.integers(0, 4, 200), rng.random((200, 4)) < 0.4
    y_regression, lower = rng.normal(size=200), rng.normal(size=200) - 1
    upper = lower + rng.random(200) * 3
    correctness, confidence = rng.integers(0, 2, 200), rng.permutation(200) / 200  # distinct confidences: no tie to order
    names = {"y_true": y_true, "y_pred_set": y_pred_set, "num_bins": 3, "y_intervals": np.stack([lower, upper], axis=1)[:, :, None],
             "y_pis": np.stack([lower, upper], axis=1)[:, :, None], "confidence_level": 0.9, "correctness": correctness, "confidence": confidence,
             "lower": lower, "upper": upper, "ones": np.ones(200, dtype=int), "np": np, "SetCoverage": SetCoverage,
             "IntervalCoverage": IntervalCoverage, "RiskCoverage": RiskCoverage}  # fmt: skip
    for function, arguments, ours in rows:
        module = next(m for m in (mapie_sets, mapie_intervals, mapie_uncertainty) if hasattr(m, function))
        names["y_true"] = y_regression if function.startswith("regression") else y_true
        theirs = _mapie_quietly(eval, f"module.{function}({arguments})", {**names, "module": module})
        found = eval(ours, names)
        np.testing.assert_allclose(np.ravel(found), np.ravel(theirs), rtol=1e-9, err_msg=function)


def test_the_coverage_function_of_no_sample_is_undefined_as_the_object_says_and_no_weight_is_refused():
    empty, weightless = np.zeros((0, 2), dtype=bool), np.array([[True, False], [False, True]])
    assert np.isnan(face.classification_coverage_score([], empty)).all()
    with pytest.raises(ValueError, match="at least one weight above 0"):  # the face's one rule, scikit-learn's
        face.classification_coverage_score([0, 1], weightless, sample_weight=[0, 0])
    assert np.isnan(SetCoverage.from_sets([0, 1], weightless, sample_weight=[0, 0]).coverage())


@pytest.mark.slow
def test_sets_of_many_groups_and_classes_cost_what_occurs():
    """4,000 samples, each of its own group and class: the counts are kept per (group, class)
    and (group, size) that occur, not as groups x classes tables (which took 288 MB at 3,000
    and a MemoryError under 1 GiB at 4,000), and every reading still equals counting them."""
    import tracemalloc

    n = 4000
    y_true = [f"class {k}" for k in range(n)]
    sets = [{f"class {k}", f"class {(k + 1) % n}"} if k % 3 else {f"class {(k + 1) % n}"} for k in range(n)]
    tracemalloc.start()
    result = SetCoverage.from_sets(y_true, sets, groups=[f"group {k}" for k in range(n)])
    merged = result + SetCoverage.from_sets(y_true[:10], sets[:10], groups=["group 0"] * 10)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 64 * 2**20, f"{peak / 2**20:.0f} MB"
    covered = [k % 3 != 0 for k in range(n)]
    assert result.coverage() == sum(covered) / n and result.group_coverage()["group 3"] == 0.0 and result.group_coverage()["group 4"] == 1.0
    assert result.size_distribution() == {1: (n + 2) // 3 / n, 2: (n - (n + 2) // 3) / n}
    assert merged.group_coverage()["group 0"] == sum(covered[:10]) / 11 and merged.n_samples == n + 10


def test_a_sets_document_of_dense_tables_still_loads():
    """The layout an earlier build wrote: per group and class (and set size) a dense table of
    (weight, covered); read into the counts of what occurs."""
    old = ('{"evalkit": "SetCoverage", "version": 1, "labels": ["a", "b"], "groups": null, '
           '"by_class": [1, 1, 1, 1], "by_size": [0, 0, 1, 1, 1, 1]}')  # fmt: skip
    loaded = SetCoverage.from_json(old)
    assert loaded == SetCoverage.from_sets(["a", "b"], [{"a"}, {"a", "b"}])
    empty = SetCoverage.from_sets(["a"], [{"a"}], groups=["x"]).empty()  # (no entries: today's layout, not the dense one)
    assert SetCoverage.from_json(empty.to_json()) == empty
    assert loaded.class_coverage() == {"a": 1.0, "b": 1.0} and loaded.size_distribution() == {1: 0.5, 2: 0.5}


@given(st.lists(st.tuples(st.floats(-10, 10), st.floats(0, 2), st.floats(0, 2), st.floats(1e-3, 1e16)), min_size=2, max_size=30), st.data())
def test_interval_sums_are_exact_within_a_batch_so_any_split_gives_the_whole(rows, data):
    # each sample's weighted width and distances are summed exactly, so batches split anywhere
    # merge to the whole and a window takes a part away (a float sum per batch broke both)
    y, below, above, w = (np.array(column) for column in zip(*rows))
    low, high = y - below, y + above - 1.0
    high = np.maximum(high, low)
    cut = data.draw(st.integers(1, len(y) - 1))
    whole = IntervalCoverage.from_intervals(y, low, high, sample_weight=w)
    parts = [IntervalCoverage.from_intervals(y[s], low[s], high[s], sample_weight=w[s]) for s in (slice(None, cut), slice(cut, None))]
    assert parts[0] + parts[1] == whole and whole - parts[0] == parts[1]
    window = Windowed(IntervalCoverage(), size=1)
    window.update(y, low, high)
    window.update(y[:2], low[:2], high[:2])
    assert window.result == IntervalCoverage.from_intervals(y[1:2], low[1:2], high[1:2])
    assert Windowed.from_json(window.to_json()).result == window.result


def test_a_heavy_weight_beside_light_ones_reads_the_exact_coverage():
    found = IntervalCoverage.from_intervals([5.0, 0.0, 0.0], [0.0, 0.0, 0.0], [1.0, 1.0, 1.0], sample_weight=[1e16, 1.0, 1.0])
    assert found.n_samples == 1e16 + 2 and found.coverage() == 2 / (1e16 + 2)


def test_set_coverage_without_labels_reads_back_as_it_was_and_its_window_goes_on():
    sets = np.array([[1, 0, 0], [0, 1, 1], [1, 1, 0]], dtype=bool)
    assert SetCoverage.from_json(SetCoverage().to_json()) == SetCoverage()
    window = Windowed(SetCoverage(), size=2)
    window.update([0, 1, 1], sets)
    restored = Windowed.from_json(window.to_json())
    restored.update([2], np.array([[0, 0, 1]], dtype=bool))
    window.update([2], np.array([[0, 0, 1]], dtype=bool))
    assert restored.result == window.result


@pytest.mark.parametrize(("changes", "message"), [
    ({"counts": [1, 1], "sums": [1.0, 1.0, 0.0]}, "distances outside only where a sample is not covered"),  # all covered, yet one below
    ({"counts": [0, 0], "sums": [5.0, 0.0, 0.0]}, "widths of samples counted"),
    ({"counts": [1.0, 1.0], "exact_counts": [[0, [1e308, 1e308]]]}, "exact_counts"),  # an exact sum beyond float64
    ({"counts": [1, 1], "exact_counts": [[0, [0.5]]]}, "holds whole numbers"),
])  # fmt: skip
def test_an_interval_document_no_counting_gives_is_refused(changes, message):
    document = json.loads(IntervalCoverage.from_intervals([0.0], [-1.0], [1.0]).to_json())
    with pytest.raises(FormatError, match=message):
        IntervalCoverage.from_json(json.dumps({**document, **changes}))


def test_a_set_document_whose_tables_count_other_samples_is_refused():
    document = json.loads(SetCoverage.from_sets([0, 1, 1], np.array([[1, 0], [0, 1], [1, 1]])).to_json())
    document["by_size"] = [[0, 1, 100, 100]]
    with pytest.raises(FormatError, match="would count other samples"):
        SetCoverage.from_json(json.dumps(document))


def test_widths_beyond_float64_are_refused_where_read_however_the_batches_came():
    whole = IntervalCoverage.from_intervals([0.0, 0.0], [-8e307, -8e307], [8e307, 8e307])
    split = IntervalCoverage.from_intervals([0.0], [-8e307], [8e307]) + IntervalCoverage.from_intervals([0.0], [-8e307], [8e307])
    assert whole == split and whole.coverage() == 1.0
    for result in (whole, split):
        with pytest.raises(CountOverflowError):
            result.mean_width()
        with pytest.raises(CountOverflowError):
            result.to_json()


@pytest.mark.parametrize("kind", ['SetCoverage of label sets, by group', 'IntervalCoverage, in bins'])
@given(data=counted_samples())
def test_a_coverage_follows_the_counted_state_protocol(kind, data):
    """Merged parts equal the whole in any order, ``(a + b) - b == a``, scaling, JSON and
    pickle round trips (``harness.check_kind``)."""
    check_kind(kind, data)


def test_a_group_that_one_table_still_holds_after_scaling_keeps_its_counts():
    """Scaled sums far below the smallest float can vanish from one table and not the other: the
    group stays (its counts never move to another group's)."""
    sets = np.array([[1, 0], [0, 1], [1, 0], [1, 0]])
    tiny = SetCoverage.from_sets([0, 1, 0, 0], sets, groups=["a", "a", "b", "c"], sample_weight=[5e-324, 5e-324, 1.0, 1.0]).scaled(2.0**-53)
    tiny.update([0], np.array([[1, 0]]), groups=["c"], sample_weight=[0.0])
    assert tiny.groups == ("a", "b", "c")
    assert tiny.group("b").size_distribution() == {1: 1.0}
