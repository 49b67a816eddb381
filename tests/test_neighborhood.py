"""Neighborhood systems, AA and RAR: every number of seed 000, and set-based = matrix-based."""

import json
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalkit import (
    ConfusionMatrix,
    Covering,
    Evaluation,
    NeighborhoodAccuracy,
    NeighborhoodSystem,
)
from evalkit._groups.neighborhood import CASES
from evalkit.exceptions import (
    DuplicateLabelError,
    EmptyInputError,
    EvalkitError,
    InvalidTypeError,
    InvalidValueError,
    LabelMismatchError,
    UnknownElementError,
    UnsupportedSettingError,
)

U = "abcdefg"
PARTITION = [{"b", "c", "d"}, {"e", "f"}, {"a", "g"}]  # the ideal partition of Examples 1 and 2
COVERING = [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "g"}]  # the ideal covering of Examples 3 to 5
METHOD_1 = [{"b", "c"}, {"e", "f"}, {"a", "d", "g"}]
METHOD_2 = [{"b", "c"}, {"e", "c", "f"}, {"a", "d", "g"}]


def evaluate(ideal, result):
    return NeighborhoodSystem(Covering(U, ideal)).evaluate(Covering(U, result))


def test_definition_3_subscripts():
    """Q_NS(a) = {2, 3}, Q_NS(c) = {1}, Q_NS(d) = {1, 3} for C = {{b,c,d},{a,e,f},{a,d,g}}."""
    c = Covering(U, [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "d", "g"}])
    assert c.subscripts("a") == {2, 3}
    assert c.subscripts("c") == {1}
    assert c.subscripts("d") == {1, 3}
    assert c.neighborhood("a") == {"a"} and c.neighborhood("b") == {"b", "c", "d"}
    assert len(c.neighborhood_system("a")) == 2


def test_example_1_partition_and_partition():
    """Seed 000, Example 1: AA = 6/7, RAR = 6/(0+0+1) = 6."""
    result = evaluate(PARTITION, METHOD_1)
    assert result.get_absolute_accuracy(exact=True) == Fraction(6, 7)
    assert result.get_relative_accuracy_rate(exact=True) == 6
    assert result.get_case() == CASES[("partition", "partition")]
    assert result.get_case_t_neg() == result.get_t_neg() == 1 == 7 - result.get_t_pos()


def test_example_2_partition_and_covering():
    """Seed 000, Example 2: AA = 6/7, RAR = 3."""
    result = evaluate(PARTITION, [{"a", "b", "c"}, {"e", "f"}, {"a", "d", "g"}])
    assert result.get_absolute_accuracy(exact=True) == Fraction(6, 7)
    assert result.get_relative_accuracy_rate(exact=True) == 3
    assert result.get_case().startswith("4.1.1 (2)")
    assert result.get_case_t_neg() == result.get_t_neg() == 2


def test_example_3_covering_and_partition():
    """Seed 000, Example 3: AA = 3/4, RAR = 3 (T_neg = Σ|P_i - P'_i| = 2)."""
    result = evaluate(COVERING, METHOD_1)
    assert result.get_absolute_accuracy(exact=True) == Fraction(3, 4)
    assert result.get_relative_accuracy_rate(exact=True) == 3
    assert result.get_case().startswith("4.1.2 (1)")
    assert result.get_case_t_neg() == result.get_t_neg() == 2


def test_example_4_covering_and_covering():
    """Seed 000, Example 4: AA = 3/4, D_P = {a}, T1' = {0,1,1,0,0,0}, T2' = {1}, RAR = 6/(2+1) = 2."""
    result = evaluate(COVERING, METHOD_2)
    assert result.get_absolute_accuracy(exact=True) == Fraction(3, 4)
    assert result.get_overlapped_elements() == {"a"}
    assert result.get_t1() == (0, 1, 1, 0, 0, 0)
    assert result.get_t2() == (1,)
    assert result.get_relative_accuracy_rate(exact=True) == 2
    assert result.get_case().startswith("4.1.2 (2)")
    assert result.get_case_t_neg() == 3


def test_example_5_two_methods_and_remark_3():
    """Seed 000, Example 5: method 1 AA 3/4, T1' {0,0,1,0,0,0}, T2' {1}, RAR 3; method 2 AA 3/4, RAR 2;
    by Remark 3 method 1 is more accurate."""
    first, second = evaluate(COVERING, METHOD_1), evaluate(COVERING, METHOD_2)
    assert first.get_absolute_accuracy(exact=True) == second.get_absolute_accuracy(exact=True) == Fraction(3, 4)
    assert first.get_t1() == (0, 0, 1, 0, 0, 0) and first.get_t2() == (1,)
    assert second.get_t1() == (0, 1, 1, 0, 0, 0) and second.get_t2() == (1,)
    assert (first.get_relative_accuracy_rate(exact=True), second.get_relative_accuracy_rate(exact=True)) == (3, 2)
    assert first.compare(second, criterion="aa-rar") == "more accurate"
    assert second.compare(first, criterion="aa-rar") == "less accurate"
    assert first.is_at_least_as_accurate_as(second) and not second.is_at_least_as_accurate_as(first)


TABLE_1 = [{2, 3}, {1}, {1}, {1}, {2}, {2}, {3}]  # the ideal label sets of a..g
TABLE_1_METHOD_1 = [{3}, {1}, {1}, {3}, {2}, {2}, {3}]
TABLE_1_METHOD_2 = [{3}, {1}, {2}, {3}, {2}, {2}, {3}]  # section 5.2 (2) gives c the set {1, 2} instead


def test_table_1_example_based_measures():
    """Seed 000, section 5.2 (1): method 1 Accuracy 11/14, Precision 6/7, Recall 11/14;
    method 2: 9/14, 5/7, 9/14."""
    ideal = NeighborhoodSystem(Covering.from_label_sets(TABLE_1, universe=U))
    first = ideal.evaluate(Covering.from_label_sets(TABLE_1_METHOD_1, universe=U, labels=[1, 2, 3]))
    second = ideal.evaluate(Covering.from_label_sets(TABLE_1_METHOD_2, universe=U, labels=[1, 2, 3]))
    assert first.get_example_based_accuracy(exact=True) == Fraction(11, 14)
    assert first.get_example_based_precision(exact=True) == Fraction(6, 7)
    assert first.get_example_based_recall(exact=True) == Fraction(11, 14)
    assert second.get_example_based_accuracy(exact=True) == Fraction(9, 14)
    assert second.get_example_based_precision(exact=True) == Fraction(5, 7)
    assert second.get_example_based_recall(exact=True) == Fraction(9, 14)
    assert first.compare(second, criterion="example-based") == "more accurate"  # Remark 4


def test_table_1_aa_and_rar():
    """Seed 000, section 5.2 (2): method 1 AA 3/4, RAR 3; method 2 AA 3/4, RAR 2 (Table 1 as coverings)."""
    ideal = NeighborhoodSystem(Covering.from_label_sets(TABLE_1, universe=U))
    assert ideal.covering.to_sets() == tuple(frozenset(block) for block in COVERING)
    first, second = ideal.evaluate(Covering(U, METHOD_1)), ideal.evaluate(Covering(U, METHOD_2))
    assert (first.get_absolute_accuracy(exact=True), first.get_relative_accuracy_rate(exact=True)) == (Fraction(3, 4), 3)
    assert (second.get_absolute_accuracy(exact=True), second.get_relative_accuracy_rate(exact=True)) == (Fraction(3, 4), 2)
    assert first.compare(second) == "more accurate"


def test_floats_equal_the_fractions():
    result = evaluate(COVERING, METHOD_2)
    assert result.get_absolute_accuracy() == 0.75 and result.get_relative_accuracy_rate() == 2.0
    assert result.to_dict()["t1"] == [0, 1, 1, 0, 0, 0]
    assert str(result).splitlines()[0] == "Absolute accuracy (AA): 3/4 = 0.75"


# --------------------------------------------------------------------------------------------
# set-based definition = indicator computation


def reference(ideal, result):
    """The paper's formulas, straight from the set-based API (Q_NS subscripts and blocks)."""
    blocks, result_blocks = ideal.to_sets(), result.to_sets()
    t_pos = sum(len(p & q) for p, q in zip(blocks, result_blocks))
    total = sum(len(p) for p in blocks)
    terms = [max(len(result.subscripts(r) - ideal.subscripts(r)), len(ideal.subscripts(r) - result.subscripts(r))) for r in ideal.universe]
    return t_pos, total, sum(terms), terms


families = st.integers(1, 5).flatmap(
    lambda m: st.lists(st.lists(st.booleans(), min_size=m, max_size=m), min_size=1, max_size=12)
)


@given(families, st.data())
def test_set_based_and_matrix_based_agree(ideal_rows, data):
    """On any families: not coverings, empty or duplicate blocks, the perfect result."""
    m = len(ideal_rows[0])
    result_rows = data.draw(st.one_of(st.just(ideal_rows), st.lists(st.lists(st.booleans(), min_size=m, max_size=m), min_size=len(ideal_rows), max_size=len(ideal_rows))))
    universe = [f"e{i}" for i in range(len(ideal_rows))]
    ideal = Covering.from_indicators(np.array(ideal_rows), universe=universe)
    result = Covering.from_indicators(np.array(result_rows), universe=universe)
    accuracy = NeighborhoodSystem(ideal).evaluate(result)
    t_pos, total, t_neg, terms = reference(ideal, result)
    assert (accuracy.get_t_pos(), accuracy.get_ideal_total(), accuracy.get_t_neg()) == (t_pos, total, t_neg)
    overlapped = [len(ideal.subscripts(r)) >= 2 for r in universe]
    assert accuracy.get_t1() == tuple(t for t, d in zip(terms, overlapped) if not d)
    assert accuracy.get_t2() == tuple(t for t, d in zip(terms, overlapped) if d)
    assert accuracy.get_overlapped_elements() == ideal.overlapped_elements()
    # the same through the sparse (set) representation
    sparse = NeighborhoodSystem(Covering(universe, ideal.to_sets())).evaluate(Covering(universe, result.to_sets()))
    assert (sparse.get_t_pos(), sparse.get_t_neg()) == (t_pos, t_neg)
    # AA is the micro recall of the indicator framework; T_neg the sum of per-sample max(fp, fn)
    ev = Evaluation.from_indicators(np.array(ideal_rows), np.array(result_rows))
    aa = accuracy.get_absolute_accuracy()
    assert (math.isnan(aa) and math.isnan(ev.average("recall", "micro"))) or aa == pytest.approx(ev.average("recall", "micro"))
    assert t_neg == int(np.maximum(ev.sample_cells.fp, ev.sample_cells.fn).sum())
    assert accuracy.get_example_based_precision() == pytest.approx(ev.average("precision", "samples"), nan_ok=True)


@given(families, st.data())
def test_the_case_formulas_agree_with_the_unified_one_for_coverings(ideal_rows, data):
    m = len(ideal_rows[0])
    result_rows = data.draw(st.lists(st.lists(st.booleans(), min_size=m, max_size=m), min_size=len(ideal_rows), max_size=len(ideal_rows)))
    ideal, result = Covering.from_indicators(np.array(ideal_rows)), Covering.from_indicators(np.array(result_rows))
    accuracy = NeighborhoodSystem(ideal).evaluate(result)
    assert (accuracy.get_case() is not None) == (ideal.is_covering() and result.is_covering())
    if accuracy.get_case() is not None:
        assert accuracy.get_case_t_neg() == accuracy.get_t_neg()
    else:
        assert accuracy.get_case_t_neg() is None


def test_the_case_formula_can_differ_when_the_result_is_no_covering():
    """An unlabelled element (Q' empty) adds 1 to the unified T_neg but nothing to Σ|P'_i - P_i|."""
    ideal = Covering("abc", [{"a"}, {"b", "c"}])
    result = Covering("abc", [{"a"}, {"b"}])  # c gets no label
    accuracy = NeighborhoodSystem(ideal).evaluate(result)
    assert accuracy.get_case() is None and accuracy.get_t_neg() == 1
    assert accuracy.result_kind == "family"


@given(families)
def test_the_theorem_construction_of_d_and_its_relation_to_the_overlapped_elements(rows):
    """Theorem D equals the overlapped elements, minus those whose blocks are all one set repeated."""
    covering = Covering.from_indicators(np.array(rows), universe=[f"e{i}" for i in range(len(rows))])
    blocks = covering.to_sets()
    repeated = {r for r in covering.universe if len(covering.subscripts(r)) >= 2 and len({blocks[j] for j in covering.subscripts(r)}) == 1}  # labels are the columns 0 .. m-1
    assert covering.theorem_overlapped_elements() == covering.overlapped_elements() - repeated


def test_duplicate_blocks_are_where_the_theorem_differs():
    covering = Covering("ab", [{"a", "b"}, {"a", "b"}])
    assert covering.overlapped_elements() == {"a", "b"} and covering.theorem_overlapped_elements() == frozenset()


def test_derived_covering_and_kinds():
    c = Covering(U, COVERING)
    # N(b) = N(c) = N(d) = {b,c,d}; N(a) = {a,e,f} ∩ {a,g} = {a}; N(e) = N(f) = {a,e,f}; N(g) = {a,g}
    assert set(c.derived_covering()) == {frozenset("bcd"), frozenset("a"), frozenset("aef"), frozenset("ag")}
    assert c.theorem_overlapped_elements() == c.overlapped_elements() == {"a"}  # D_P = {a} (Example 4)
    assert c.kind() == "covering" and Covering(U, PARTITION).kind() == "partition"
    assert Covering(U, [set(), set(U)]).kind() == "family"  # an empty block
    assert Covering("ab", [{"a"}]).neighborhood("b") == {"a", "b"}  # in no block: the universe


# --------------------------------------------------------------------------------------------
# representations and conversions


def test_conversions_round_trip():
    c = Covering(U, COVERING, labels=["x", "y", "z"])
    assert Covering.from_indicators(c.to_indicators(), universe=U, labels=["x", "y", "z"]) == c
    assert Covering.from_label_sets(c.to_label_sets(), universe=U, labels=["x", "y", "z"]) == c
    assert c.to_label_sets()[0] == {"y", "z"}  # a is in blocks y and z
    partition = Covering.from_labels(["p", "q", "p"])
    assert partition.is_partition() and partition.labels == ("p", "q")


def test_universe_order_of_the_result_does_not_matter():
    ideal = Covering(U, COVERING)
    result = Covering(tuple(reversed(U)), METHOD_2)
    assert NeighborhoodSystem(ideal).evaluate(result).get_relative_accuracy_rate(exact=True) == 2


def test_neighborhood_system_gives_access_per_element():
    ns = NeighborhoodSystem(Covering(U, COVERING))
    assert len(ns) == 7 and ns.universe == tuple(U)
    assert dict(ns)["a"] == (frozenset("aef"), frozenset("ag"))


# --------------------------------------------------------------------------------------------
# documented values and errors


def test_a_perfect_result_has_undefined_rar_yet_ranks_first_and_an_empty_ideal_undefined_aa():
    perfect = evaluate(COVERING, COVERING)
    # T_neg = 0: RAR = T_pos / 0 is undefined (NaN), as every x/0 in evalkit; AA = 1 says it is perfect
    assert perfect.get_absolute_accuracy(exact=True) == 1 and math.isnan(perfect.get_relative_accuracy_rate())
    assert math.isnan(perfect.get_relative_accuracy_rate(exact=True))
    imperfect = evaluate(COVERING, METHOD_1)
    assert perfect.compare(imperfect, criterion="aa-rar") == "more accurate"
    assert imperfect.compare(perfect, criterion="aa-rar") == "less accurate"
    assert perfect.compare(perfect, criterion="aa-rar") == "as accurate"
    empty = NeighborhoodSystem(Covering("ab", [set()])).evaluate(Covering("ab", [set()]))
    assert math.isnan(empty.get_absolute_accuracy()) and math.isnan(empty.get_relative_accuracy_rate())


def test_example_based_measures_with_empty_sets_follow_the_policy():
    ideal = NeighborhoodSystem(Covering.from_label_sets([{1}, set()], labels=[1, 2]))
    result = ideal.evaluate(Covering.from_label_sets([{1}, set()], labels=[1, 2]))
    assert result.get_example_based_accuracy(exact=True) == 1  # the empty/empty sample is excluded
    assert result.get_example_based_accuracy(exact=True, undefined="zero") == Fraction(1, 2)
    assert result.get_example_based_accuracy(undefined="one") == 1.0
    assert math.isnan(result.get_example_based_precision(undefined="nan"))


def test_errors_name_what_is_wrong():
    with pytest.raises(UnknownElementError, match="'blocks\\[1\\]' contains 'z'"):
        Covering("abc", [{"a"}, {"z"}])
    with pytest.raises(EmptyInputError):
        Covering([], [])
    with pytest.raises(InvalidTypeError):
        Covering([["a"], ["b"]], [])
    with pytest.raises(DuplicateLabelError):
        Covering("aab", [{"a"}])
    with pytest.raises(UnknownElementError):
        Covering(U, COVERING).subscripts("z")
    ideal = NeighborhoodSystem(Covering(U, COVERING))
    with pytest.raises(LabelMismatchError, match="labels"):
        ideal.evaluate(Covering(U, METHOD_1, labels=["x", "y", "z"]))
    with pytest.raises(LabelMismatchError, match="universe"):
        ideal.evaluate(Covering("abcdefh", METHOD_1[:2] + [{"a"}]))
    with pytest.raises(InvalidValueError):
        Covering.from_indicators([[0, 2]])
    with pytest.raises(InvalidTypeError):
        ideal.evaluate([{"a"}])


def test_the_two_criteria_can_order_two_methods_in_opposite_ways():
    """Method A labels the four-label sample perfectly and nothing else; method B the three
    one-label samples. AA and RAR pool sample-label assignments (A: 4/7, 4/3; B: 3/7, 3/4), the
    example-based measures weigh samples equally (accuracy A 1/4, B 3/4)."""
    ideal = NeighborhoodSystem(Covering.from_label_sets([{1, 2, 3, 4}, {1}, {2}, {3}], universe="pqrs"))
    a = ideal.evaluate(Covering.from_label_sets([{1, 2, 3, 4}, set(), set(), set()], universe="pqrs", labels=[1, 2, 3, 4]))
    b = ideal.evaluate(Covering.from_label_sets([set(), {1}, {2}, {3}], universe="pqrs", labels=[1, 2, 3, 4]))
    assert (a.get_absolute_accuracy(exact=True), a.get_relative_accuracy_rate(exact=True)) == (Fraction(4, 7), Fraction(4, 3))
    assert (b.get_absolute_accuracy(exact=True), b.get_relative_accuracy_rate(exact=True)) == (Fraction(3, 7), Fraction(3, 4))
    assert a.compare(b, criterion="aa-rar") == "more accurate"
    assert a.compare(b, criterion="example-based") == "less accurate"
    assert a.compare(b) == b.compare(a) == "conflicting"
    assert a.is_at_least_as_accurate_as(b) and b.is_at_least_as_accurate_as(a)  # Remark 4, literally
    assert not a.is_at_least_as_accurate_as(b, criterion="example-based")


@given(families, st.data())
def test_the_counts_of_an_evaluation_give_the_same_accuracy(ideal_rows, data):
    """Streamed, merged and compacted counts measure what the families measure."""
    m = len(ideal_rows[0])
    result_rows = data.draw(st.lists(st.lists(st.booleans(), min_size=m, max_size=m), min_size=len(ideal_rows), max_size=len(ideal_rows)))
    ideal, result = np.array(ideal_rows), np.array(result_rows)
    direct = NeighborhoodSystem(Covering.from_indicators(ideal)).evaluate(Covering.from_indicators(result))
    cut = len(ideal) // 2
    streamed = Evaluation.from_indicators(ideal[:cut], result[:cut]) + Evaluation.from_indicators(ideal[cut:], result[cut:])
    for evaluation in (Evaluation.from_indicators(ideal, result), streamed, streamed.compact()):
        counted = NeighborhoodAccuracy.from_evaluation(evaluation)
        assert (counted.get_t_pos(), counted.get_t_neg(), counted.get_ideal_total()) == (direct.get_t_pos(), direct.get_t_neg(), direct.get_ideal_total())
        assert (counted.ideal_kind, counted.result_kind, counted.get_case_t_neg()) == (direct.ideal_kind, direct.result_kind, direct.get_case_t_neg())
        for getter in ("get_example_based_accuracy", "get_example_based_precision", "get_example_based_recall"):
            assert getattr(counted, getter)(exact=True) == getattr(direct, getter)(exact=True) or (
                math.isnan(getattr(counted, getter)(exact=True)) and math.isnan(getattr(direct, getter)(exact=True))
            )
        assert NeighborhoodAccuracy.from_json(counted.to_json()) == counted
    compacted = NeighborhoodAccuracy.from_evaluation(streamed.compact())
    with pytest.raises(UnsupportedSettingError, match="in order"):
        compacted.get_t1()
    assert NeighborhoodAccuracy.from_evaluation(streamed).get_t1() == direct.get_t1()


def test_a_bool_indicator_is_used_without_a_copy_and_never_changed():
    matrix = np.array([[True, False], [False, True]])
    covering = Covering.from_indicators(matrix)
    assert np.shares_memory(covering._dense, matrix) and matrix.flags.writeable
    with pytest.raises(ValueError):
        covering._dense[0, 0] = False


@given(st.lists(st.frozensets(st.integers(0, 5), max_size=4), min_size=1, max_size=40))
def test_every_per_element_notion_equals_its_set_definition(label_sets):
    covering = Covering.from_label_sets(label_sets, labels=range(6), universe=[f"e{i}" for i in range(len(label_sets))])
    blocks = covering.to_sets()
    for element, labels in zip(covering.universe, label_sets):
        containing = [blocks[j] for j in sorted(labels)]
        assert covering.neighborhood_system(element) == tuple(containing)
        assert covering.subscripts(element) == labels
        assert covering.neighborhood(element) == (frozenset.intersection(*containing) if containing else frozenset(covering.universe))
    assert set(covering.derived_covering()) == {covering.neighborhood(element) for element in covering.universe}


def test_all_neighborhoods_of_16000_elements_are_fast_and_shared():
    rng = np.random.default_rng(0)
    label_sets = [set(rng.choice(20, size=rng.integers(1, 4), replace=False).tolist()) for _ in range(16_000)]
    covering = Covering.from_label_sets(label_sets)
    neighborhoods = [covering.neighborhood(element) for element in covering.universe]  # took minutes: O(n) per element
    assert len({id(n) for n in neighborhoods}) == len(covering.derived_covering()) <= 20 + 190 + 1140
    blocks = covering.to_sets()
    for k in (0, 1, 4_999, 15_999):
        assert neighborhoods[k] == frozenset.intersection(*(blocks[j] for j in label_sets[k]))


def doc(kind, **fields):
    return json.dumps({"evalkit": kind, "version": 1, **fields})


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
