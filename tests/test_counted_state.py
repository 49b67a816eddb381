"""The counted-state protocol itself: what every kind says it supports, and its refusals.

Each kind's own test file checks that it follows the protocol (``harness.check_kind``: for two
parts of one data set merged parts equal the whole, the merge does not depend on its order,
``(a + b) - b == a``, ``empty() + a == a``, ``scaled`` multiplies the amount counted and
leaves ratios alone, JSON and pickle round trips give equal results, a part never added is
refused); this file holds what is common to all of them (``harness.KINDS`` names every kind).
"""

from collections.abc import Mapping
from typing import ClassVar

import numpy as np
import pytest
from harness import KINDS, LABELS, counted_samples
from hypothesis import given
from hypothesis import strategies as st

from evalkit import (
    ByGroup,
    ConfusionMatrix,
    Evaluation,
    IntervalCoverage,
    RiskCoverage,
    SetCoverage,
)
from evalkit._results.counted import ALL_OPERATIONS, CountedState
from evalkit._scale.streaming import LabelSetCounts
from evalkit.exceptions import InvalidArgumentError, InvalidTypeError, UnsupportedSettingError


@given(data=counted_samples())
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


def test_a_fold_names_each_column_once():
    """The engines' folds key the columns by these names: a name twice, or a keyword column's
    name, would count one column as another."""
    from evalkit._results.counted import fold_columns

    laid_out = fold_columns(["t", "p", "x"], ["y_true", "y_pred"], {"mask": "m", "edges": None}, "w")
    assert laid_out == {"y_true": "t", "y_pred": "p", "columns[2]": "x", "mask": "m", "sample_weight": "w"}
    for names, count, keywords in ((["a", "a"], 2, []), (["a"], 2, ["a"]), (["sample_weight"], 1, []), (["a", "b"], 1, [])):
        with pytest.raises(InvalidArgumentError, match="'names' must name the"):
            fold_columns(["c"] * count, names, dict.fromkeys(keywords, "k"), None)
