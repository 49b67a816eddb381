"""The counted-state protocol holds for every kind of result, through one harness.

For two parts of one data set and each kind: merged parts equal the whole, the merge does not
depend on its order, ``(a + b) - b == a``, ``empty() + a == a``, ``scaled`` multiplies the
amount counted and leaves ratios alone, and JSON and pickle round trips give equal results
(``harness.check_counted_state``). Kinds that keep samples in order (an ``Evaluation``,
an ``Agreement``) are compared in a canonical form where order is what a merge changes.
"""

from collections.abc import Mapping
from typing import ClassVar

import numpy as np
import pytest
from harness import check_counted_state, check_subtract_refuses_a_part_never_added
from hypothesis import given
from hypothesis import strategies as st

from evalkit import (
    Agreement,
    ByGroup,
    Calibration,
    ConfusionMatrix,
    Evaluation,
    IntervalCoverage,
    RankedLists,
    RegressionMetrics,
    RiskCoverage,
    SetCoverage,
    ThresholdCurve,
)
from evalkit.exceptions import InvalidArgumentError, InvalidTypeError, UnsupportedSettingError
from evalkit.results.counted import ALL_OPERATIONS, CountedState
from evalkit.scale.streaming import CalibrationCounts, CurveCounts, LabelSetCounts

LABELS = ["a", "b", "c"]


@st.composite
def samples(draw, min_size=2, max_size=24):
    """Labels, label sets, binary labels with scores, groups, raters' ratings and integer
    weights of ``n`` samples, and a cut point splitting them in two non-empty parts."""
    n = draw(st.integers(min_size, max_size))
    cut = draw(st.integers(1, n - 1))
    label = st.sampled_from(LABELS)
    return {
        "n": n,
        "cut": cut,
        "actual": draw(st.lists(label, min_size=n, max_size=n)),
        "predicted": draw(st.lists(label, min_size=n, max_size=n)),
        "actual_sets": draw(st.lists(st.frozensets(label), min_size=n, max_size=n)),
        "predicted_sets": draw(st.lists(st.frozensets(label), min_size=n, max_size=n)),
        "binary": draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)),
        "scores": draw(st.lists(st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.6, 0.9, 1.0]), min_size=n, max_size=n)),
        "degrees": draw(st.lists(st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0]), min_size=3, max_size=3), min_size=2 * n, max_size=2 * n)),
        "groups": draw(st.lists(st.sampled_from(["x", "y", "z"]), min_size=n, max_size=n)),
        "ratings": draw(st.lists(st.tuples(st.sampled_from(["yes", "no"]), st.sampled_from(["yes", "no", None]), st.sampled_from(["yes", "no", None])).map(list),
                                 min_size=n, max_size=n)),  # the first rater rates every item
        "weight": draw(st.one_of(st.none(), st.lists(st.integers(1, 4), min_size=n, max_size=n))),
        "targets": draw(st.lists(st.sampled_from([0.0, 0.1, 0.3, -2.5, 1e8, 7.0]), min_size=n, max_size=n)),
    }


def _parts(data, name):
    values, cut = data[name], data["cut"]
    if name == "degrees":  # actual and predicted degrees, one row each per sample
        n = data["n"]
        return (np.array(values[:cut]), np.array(values[n : n + cut])), (np.array(values[cut:n]), np.array(values[n + cut :])), (np.array(values[:n]), np.array(values[n:]))
    return values[:cut], values[cut:], values


def _weights(data):
    weight = data["weight"]
    if weight is None:
        return None, None, None
    return np.array(weight[: data["cut"]]), np.array(weight[data["cut"] :]), np.array(weight)


def _streamed(make, update, *columns_and_weights):
    counts = make()
    update(counts, *columns_and_weights)
    return counts


def _bounds(data, k):
    """Intervals around the scores, some holding the targets: [min(s, y / 10), max(s, y / 10) + 0.3]."""
    scores, targets = np.array(_parts(data, "scores")[k]), np.array(_parts(data, "targets")[k]) / 10
    return np.minimum(scores, targets), np.maximum(scores, targets) + 0.3


def _by_key(result):
    return dict(zip(result.keys, result.results)), result.overall


def _items(result):
    weight = result.weight if result.weight is not None else np.ones(len(result.counts))
    codes = result.codes if result.codes is not None else np.zeros((len(result.counts), 0))
    return sorted(zip(map(tuple, result.counts.tolist()), weight.tolist(), map(tuple, codes.tolist())))


# kind -> (build(data, part) where part 0 is the first part, 1 the second, 2 the whole; canonical; measure; size)
KINDS = {
    "ConfusionMatrix": (
        lambda data, k: ConfusionMatrix.from_predictions(_parts(data, "actual")[k], _parts(data, "predicted")[k], labels=LABELS, sample_weight=_weights(data)[k]),
        None, lambda result: result.average("f1_score", "macro"), lambda result: result.get_total_items(),
    ),
    "Evaluation of labels": (
        lambda data, k: Evaluation.from_labels(_parts(data, "actual")[k], _parts(data, "predicted")[k], LABELS, sample_weight=_weights(data)[k]),
        lambda result: result.compact(), lambda result: result.average("recall", "macro"), lambda result: result.n_samples,
    ),
    "Evaluation of label sets": (
        lambda data, k: Evaluation.from_label_sets(_parts(data, "actual_sets")[k], _parts(data, "predicted_sets")[k], LABELS, sample_weight=_weights(data)[k]),
        lambda result: result.compact(), lambda result: result.average("f1_score", "samples"), lambda result: result.n_samples,
    ),
    "Evaluation of degrees": (
        lambda data, k: Evaluation.from_soft(*_parts(data, "degrees")[k], LABELS, sample_weight=_weights(data)[k]),
        lambda result: result.compact(), lambda result: result.average("precision", "micro"), lambda result: result.n_samples,
    ),
    "LabelSetCounts": (
        lambda data, k: _streamed(lambda: LabelSetCounts(keep_pairs=True), lambda counts, a, p, w: counts.update(a, p, sample_weight=w),
                                  _parts(data, "actual_sets")[k], _parts(data, "predicted_sets")[k], _weights(data)[k]),
        None, None, lambda result: result.n_samples,
    ),
    "ThresholdCurve": (
        lambda data, k: ThresholdCurve.from_scores(_parts(data, "binary")[k], _parts(data, "scores")[k], pos_label=1, sample_weight=_weights(data)[k]),
        None, lambda result: result.roc_auc(), lambda result: result.n_samples,
    ),
    "ThresholdCurve, binned": (
        lambda data, k: ThresholdCurve.from_scores(_parts(data, "binary")[k], _parts(data, "scores")[k], pos_label=1, thresholds=5,
                                                   sample_weight=_weights(data)[k]),
        None, lambda result: result.at(0.5).average("recall", "micro"), lambda result: result.n_samples,
    ),
    "Calibration": (
        lambda data, k: Calibration.from_scores(_parts(data, "binary")[k], _parts(data, "scores")[k], pos_label=1, sample_weight=_weights(data)[k]),
        None, lambda result: result.brier_score(), lambda result: result.n_samples,
    ),
    "Calibration, binned": (
        lambda data, k: Calibration.from_scores(_parts(data, "binary")[k], _parts(data, "scores")[k], pos_label=1, bins=4, sample_weight=_weights(data)[k]),
        None, lambda result: result.error(), lambda result: result.n_samples,
    ),
    "ByGroup": (
        lambda data, k: ByGroup.from_labels(_parts(data, "actual")[k], _parts(data, "predicted")[k], _parts(data, "groups")[k], LABELS,
                                            sample_weight=_weights(data)[k]),
        _by_key, lambda result: result.overall.get_accuracy(), lambda result: result.overall.get_total_items(),
    ),
    "ByGroup of label sets": (
        lambda data, k: ByGroup.from_label_sets(_parts(data, "actual_sets")[k], _parts(data, "predicted_sets")[k], _parts(data, "groups")[k], LABELS),
        lambda result: {key: value.compact() for key, value in _by_key(result)[0].items()}, None, None,
    ),
    "Agreement": (
        lambda data, k: Agreement.from_ratings(_parts(data, "ratings")[k], categories=["no", "yes"], sample_weight=_weights(data)[k]),
        _items, None, None,
    ),
    "CurveCounts": (
        lambda data, k: _streamed(lambda: CurveCounts(thresholds=5), lambda counts, y, s, w: counts.update(y, s, sample_weight=w),
                                  _parts(data, "binary")[k], _parts(data, "scores")[k], _weights(data)[k]),
        None, None, lambda result: result.curve().n_samples,
    ),
    "RegressionMetrics": (
        lambda data, k: RegressionMetrics.from_predictions(_parts(data, "targets")[k], _parts(data, "scores")[k], sample_weight=_weights(data)[k]),
        lambda result: {name: value for name, value in result.to_dict(strict=True).items() if name != "max_error"},  # a subtraction forgets the maximum
        lambda result: result.get_mean_squared_error(), lambda result: result.get_total_weight(),
    ),
    "RiskCoverage": (
        lambda data, k: RiskCoverage.from_predictions(_parts(data, "actual")[k], _parts(data, "predicted")[k], _parts(data, "scores")[k], labels=LABELS,
                                                      sample_weight=_weights(data)[k]),
        None, lambda result: result.aurc(), lambda result: result.n_samples,
    ),
    "SetCoverage of label sets, by group": (
        lambda data, k: SetCoverage.from_sets(_parts(data, "actual")[k], _parts(data, "predicted_sets")[k], labels=LABELS, groups=_parts(data, "groups")[k],
                                              sample_weight=_weights(data)[k]),
        lambda result: {group: result.group(group) for group in result.groups if result.group(group).n_samples},  # a part taken away leaves its groups, empty
        lambda result: result.coverage(), lambda result: result.n_samples,
    ),
    "IntervalCoverage, in bins": (
        lambda data, k: IntervalCoverage.from_intervals(_parts(data, "targets")[k], *_bounds(data, k), y_pred=_parts(data, "scores")[k], edges=[0, 0.3, 0.7, 1],
                                                        sample_weight=_weights(data)[k]),
        None, lambda result: result.coverage(), lambda result: result.n_samples,  # (exact sums: parts merged equal the whole to the last bit)
    ),
    "RankedLists": (
        lambda data, k: RankedLists.from_lists([sorted(items) for items in _parts(data, "predicted_sets")[k]], [sorted(items) for items in _parts(data, "actual_sets")[k]],
                                               depth=3),
        None, lambda result: result.ndcg_at(2, undefined="zero"), None,
    ),
    "CalibrationCounts": (
        lambda data, k: _streamed(lambda: CalibrationCounts(bins=4), lambda counts, y, s, w: counts.update(y, s, sample_weight=w),
                                  _parts(data, "binary")[k], _parts(data, "scores")[k], _weights(data)[k]),
        None, None, lambda result: result.calibration().n_samples,
    ),
}


@pytest.mark.parametrize("kind", sorted(KINDS))
@given(data=samples())
def test_every_kind_follows_the_protocol(kind, data):
    build, canonical, measure, size = KINDS[kind]
    first, second, whole = (build(data, k) for k in range(3))
    check_counted_state(first, second, whole, canonical=canonical or (lambda result: result), measure=measure, size=size)


@pytest.mark.parametrize("kind", sorted(KINDS))
@given(data=samples())
def test_taking_away_a_part_never_added_is_an_error(kind, data):
    build = KINDS[kind][0]
    first, second = build(data, 0), build(data, 1)
    if first.supports("subtract"):
        check_subtract_refuses_a_part_never_added(first, first + second + second)


@given(data=samples())
def test_every_kind_is_a_counted_state_and_says_what_it_supports(data):
    for kind, (build, *_) in KINDS.items():
        result = build(data, 2)
        assert isinstance(result, CountedState), kind
        assert result.OPERATIONS <= ALL_OPERATIONS, kind
        assert {"merge", "empty", "copy", "equality", "pickle"} <= result.OPERATIONS, kind
        assert all(operation in type(result).REFUSED for operation in ALL_OPERATIONS - result.OPERATIONS), kind


def test_a_factor_outside_zero_to_one_and_an_unknown_operation_are_refused():
    matrix = ConfusionMatrix.from_predictions(["a", "b"], ["a", "a"])
    for factor, error in ((0, InvalidArgumentError), (-1.5, InvalidArgumentError), (float("inf"), InvalidArgumentError), (float("nan"), InvalidArgumentError), ("half", InvalidTypeError)):
        with pytest.raises(error, match="'factor'"):
            matrix.scaled(factor)
    with pytest.raises(InvalidArgumentError, match="'operation'"):
        matrix.supports("rewind")


def test_an_operation_a_kind_refuses_names_the_kind_and_why():
    class Frozen(ConfusionMatrix):
        OPERATIONS = ConfusionMatrix.OPERATIONS - {"subtract"}
        REFUSED: ClassVar[Mapping[str, str]] = {"subtract": "a frozen matrix keeps every count"}

    frozen = Frozen(["a", "b"])
    with pytest.raises(UnsupportedSettingError, match="Frozen does not support subtract: a frozen matrix keeps every count"):
        frozen - frozen


def test_an_evaluation_in_order_keeps_its_order_when_its_first_or_last_batch_leaves():
    monday = Evaluation.from_labels(["a", "b", "b"], ["a", "b", "a"], LABELS)
    tuesday = Evaluation.from_labels(["c", "a"], ["c", "c"], LABELS)
    week = monday + tuesday
    assert (week - monday).ordered and (week - monday) == tuesday
    assert (week - tuesday).ordered and (week - tuesday) == monday
    middle = Evaluation.from_labels(["b", "a"], ["a", "b"], LABELS)  # two errors: neither the first samples nor the last
    three = monday + middle + tuesday
    assert not (three - middle).ordered and (three - middle) == week.compact()


def test_a_decayed_matrix_holds_weighted_counts():
    # decay by 1/2 a day: Monday's 3 samples weigh 0.75 on Wednesday, Tuesday's 2 weigh 1
    monday = ConfusionMatrix.from_predictions(["a", "b", "b"], ["a", "b", "a"], labels=["a", "b"])
    tuesday = ConfusionMatrix.from_predictions(["a", "b"], ["b", "b"], labels=["a", "b"])
    wednesday = (monday.scaled(0.5) + tuesday).scaled(0.5)
    assert wednesday.to_array().tolist() == [[0.25 + 0, 0.5], [0.25, 0.25 + 0.5]]
    assert wednesday.get_total_items() == 1.75


def test_a_label_seen_only_with_weight_zero_survives_copies_and_round_trips():
    counts = LabelSetCounts()
    counts.update([{"a"}, {"z"}], [{"a"}, {"z"}], sample_weight=[1, 0])
    later = LabelSetCounts()
    later.update([{"q"}], [{"a"}])
    for same in (counts.copy(), counts.scaled(0.5), LabelSetCounts.from_json(counts.to_json()), (counts + later) - later):
        assert same.labels == ("a", "z")
    assert (counts + later) - later == counts


def test_a_group_of_weight_zero_survives_taking_away_another_part():
    counts = ByGroup.from_labels([1, 0, 1], [1, 1, 0], ["x", "y", "z"], sample_weight=[1, 1, 0])
    later = ByGroup.from_labels([0], [0], ["w"], labels=[0, 1])
    assert ((counts + later) - later).keys == ("x", "y", "z") and (counts + later) - later == counts


def test_evaluations_compare_by_value_whatever_holds_their_weights():
    weighted = Evaluation.from_labels(["a", "b"], ["a", "b"], LABELS, sample_weight=[1, 0])
    later = Evaluation.from_labels(["a"], ["b"], LABELS)
    assert (weighted + later) - weighted == later  # the rest carries weights of 1; later has none
    assert Evaluation.from_labels(["a", "b"], ["b", "b"], LABELS, sample_weight=[1, 1]) == Evaluation.from_labels(["a", "b"], ["b", "b"], LABELS)
    assert Evaluation.from_labels(["a", "b"], ["b", "b"], LABELS, sample_weight=[1, 2]) != Evaluation.from_labels(["a", "b"], ["b", "b"], LABELS)


# --------------------------------------------------------------------------------------------
# exact subtraction: the kinds that keep exact sums take a part away to the last bit

WIDE = st.sampled_from([1e-10, 2.0**-60, 0.1, 0.2, 0.3, 0.5, 1.0, 3.7, 1e9, 1e17, 2.0**70])


def _exact_kinds(actual, predicted, scores, groups, weight):
    """Every kind that keeps exact sums, of one part of the data with float weights."""
    targets = np.array(scores) * 10
    return {
        "ConfusionMatrix": ConfusionMatrix.from_predictions(actual, predicted, labels=LABELS, sample_weight=weight),
        "RiskCoverage": RiskCoverage.from_predictions(actual, predicted, scores, labels=LABELS, sample_weight=weight),
        "SetCoverage": SetCoverage.from_sets(actual, [{p} for p in predicted], labels=LABELS, groups=groups, sample_weight=weight),
        "IntervalCoverage": IntervalCoverage.from_intervals(targets, targets - np.array(weight) % 1, targets + 0.5, edges=[0, 3, 10], sample_weight=weight),
    }


@given(data=st.data(), n=st.integers(1, 12), m=st.integers(1, 12))
def test_taking_away_a_part_with_float_weights_of_any_size_leaves_the_other_part_exactly(data, n, m):
    """``(a + b) - a == b`` and ``(a + b) - b == a`` to the last bit, with weights from 1e-10 to
    2**70 side by side (a relative tolerance zeroed 0.5 beside 1e9, 1e-10 beside 1.0); JSON
    keeps the exact sums, so a part takes away from a restored result as from the original."""
    def part(size):
        return _exact_kinds(data.draw(st.lists(st.sampled_from(LABELS), min_size=size, max_size=size)),
                            data.draw(st.lists(st.sampled_from(LABELS), min_size=size, max_size=size)),
                            data.draw(st.lists(st.sampled_from([0.1, 0.4, 0.5, 0.9]), min_size=size, max_size=size)),
                            data.draw(st.lists(st.sampled_from(["x", "y"]), min_size=size, max_size=size)),
                            data.draw(st.lists(WIDE, min_size=size, max_size=size)))  # fmt: skip

    def canonical(result):  # groups stay once met (as labels do), empty when their part is taken away
        return {group: result.group(group) for group in result.groups if result.group(group).n_samples} if isinstance(result, SetCoverage) else result

    firsts, seconds = part(n), part(m)
    for name, first in firsts.items():
        second = seconds[name]
        both = first + second
        assert canonical(both - first) == canonical(second) and canonical(both - second) == canonical(first), name
        restored = type(both).from_json(both.to_json())
        assert restored == both and canonical(restored - first) == canonical(second), name
        assert (both - first - second).n_samples == 0, name


@pytest.mark.parametrize("kind", ["ConfusionMatrix", "RiskCoverage", "SetCoverage", "IntervalCoverage"])
def test_half_beside_a_billion_is_half_once_the_billion_is_taken_away(kind):
    def one(weight):
        return _exact_kinds(["a"], ["a"], [0.5], ["x"], [weight])[kind]

    for big, small in ((1e9, 0.5), (1.0, 1e-10)):
        rest = (one(big) + one(small)) - one(big)
        assert rest == one(small) and rest.n_samples == small
