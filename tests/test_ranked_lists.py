"""RankedLists: precision, recall, average precision and nDCG at k of ranked item lists equal a
query-by-query reference (the loops of Spark's RankingMetrics written out), whatever the split."""

import math

import numpy as np
import pytest
from harness import check_kind, counted_samples
from hypothesis import given, settings
from hypothesis import strategies as st

from evalkit import Faded, RankedLists
from evalkit.exceptions import InputLengthError


def reference(predicted, relevant, k):
    """Per query, as Spark's RankingMetrics loops over one ranked list (None: no relevant item)."""
    wanted = set(relevant)
    if not wanted:
        return None
    hits = [item in wanted for item in predicted]
    found = np.cumsum(hits)
    precision = sum(hits[:k]) / k
    recall = sum(hits[:k]) / len(wanted)
    average_at = sum(found[i] / (i + 1) for i in range(min(k, len(hits))) if hits[i]) / min(len(wanted), k)
    average = sum(found[i] / (i + 1) for i in range(len(hits)) if hits[i]) / len(wanted)
    dcg = sum(1 / math.log(i + 2) for i in range(min(k, len(hits))) if hits[i])
    ideal = sum(1 / math.log(i + 2) for i in range(min(len(wanted), k)))
    return precision, recall, average_at, average, dcg / ideal


def means(rows, k, undefined):
    values = [reference(p, r, k) for p, r in rows]
    defined = [v for v in values if v is not None]
    if undefined == "zero":
        defined += [(0.0,) * 5] * (len(values) - len(defined))
    return np.mean(defined, axis=0) if defined else np.full(5, np.nan)


def read(lists, k, undefined):
    return np.array([lists.precision_at(k, undefined=undefined), lists.recall_at(k, undefined=undefined),
                     lists.mean_average_precision(k, undefined=undefined), lists.mean_average_precision(undefined=undefined),
                     lists.ndcg_at(k, undefined=undefined)])  # fmt: skip


queries = st.lists(st.tuples(st.lists(st.integers(0, 12), max_size=14), st.lists(st.integers(0, 12), max_size=6)), min_size=1, max_size=25)


@settings(max_examples=150, deadline=None)
@given(queries, st.integers(1, 16), st.integers(0, 25), st.sampled_from(["exclude", "zero"]))
def test_every_measure_at_every_k_equals_the_query_by_query_reference_and_parts_merge(rows, k, cut, undefined):
    predicted, relevant = [p for p, _ in rows], [r for _, r in rows]
    lists = RankedLists.from_lists(predicted, relevant, depth=16)
    assert np.allclose(read(lists, k, undefined), means(rows, k, undefined), atol=1e-12, equal_nan=True)
    parts = RankedLists.from_lists(predicted[:cut], relevant[:cut], depth=16) + RankedLists.from_lists(predicted[cut:], relevant[cut:], depth=16)
    assert parts == lists and np.array_equal(read(parts, k, undefined), read(lists, k, undefined), equal_nan=True)  # exact sums: bit for bit


def test_spark_documented_values_and_policies():
    # Spark's RankingMetricsSuite: two queries and one without relevant items, counted as 0 there
    predicted = [[1, 6, 2, 7, 8, 3, 9, 10, 4, 5], [4, 1, 5, 6, 2, 7, 3, 8, 9, 10], [1, 2, 3, 4, 5]]
    relevant = [[1, 2, 3, 4, 5], [1, 2, 3], []]
    lists = RankedLists.from_lists(predicted, relevant, depth=15)
    assert [lists.precision_at(k, undefined="zero") for k in (1, 4, 15)] == pytest.approx([1 / 3, 0.75 / 3, 8 / 45], abs=1e-15)
    assert lists.mean_average_precision(undefined="zero") == pytest.approx(0.355026, abs=1e-6)
    assert lists.ndcg_at(5, undefined="zero") == pytest.approx(0.328788, abs=1e-6) and lists.ndcg_at(10, undefined="zero") == pytest.approx(0.487913, abs=1e-6)
    kept = lists.ndcg_at(10)  # the default leaves the query without relevant items out
    assert kept == pytest.approx(0.487913 * 3 / 2, abs=1e-6) and (kept.n_values, kept.n_defined) == (3, 2)
    assert math.isnan(lists.ndcg_at(10, undefined="nan")) and lists.recall_at(15, undefined="one") == pytest.approx((1 + 1 + 1) / 3)
    words = RankedLists.from_lists([("b", "a"), ("c",)], [{"a"}, {"c", "d"}], depth=2)
    assert words.recall_at(2) == pytest.approx((1 + 0.5) / 2) and words.precision_at(1) == pytest.approx(0.5)


def test_bad_input_is_refused_by_name():
    with pytest.raises(ValueError, match="'k' must be at most the depth counted, 3"):
        RankedLists.from_lists([[1]], [[1]], depth=3).precision_at(4)
    with pytest.raises(ValueError, match="'depth' must be a whole number >= 1"):
        RankedLists.from_lists([[1]], [[1]], depth=0)
    with pytest.raises(ValueError, match="'predicted' has 2 queries but 'relevant' has 1"):
        RankedLists.from_lists([[1], [2]], [[1]])
    with pytest.raises(TypeError, match="'predicted' must be a sequence of item lists"):
        RankedLists.from_lists(5, [[1]])
    with pytest.raises(ValueError, match="can only merge ranked lists of one depth"):
        RankedLists.from_lists([[1]], [[1]], depth=3) + RankedLists.from_lists([[1]], [[1]], depth=4)
    for predicted, relevant in (([[1, "a"]], [[1]]), ([["1"]], [[1]])):  # never the string "1" found as the number 1
        with pytest.raises(TypeError, match="do not compare"):
            RankedLists.from_lists(predicted, relevant)
    original = [[3, 1, 2]]
    RankedLists.from_lists(original, [{1}])
    assert original == [[3, 1, 2]]


def test_ranked_lists_are_a_declared_kind_that_takes_parts_away_writes_json_and_windows():
    import json
    import pickle
    import sys
    from pathlib import Path

    from evalkit import Windowed
    from evalkit.exceptions import UnsupportedSettingError

    predicted, relevant = [[1, 6, 2, 7, 8], [4, 1, 5, 6, 2], [9]], [[1, 2, 3, 4, 5], [1, 2, 3], []]
    whole = RankedLists.from_lists(predicted, relevant, depth=5)
    first = RankedLists.from_lists(predicted[:1], relevant[:1], depth=5)
    assert whole - first == RankedLists.from_lists(predicted[1:], relevant[1:], depth=5)
    assert RankedLists.from_json(whole.to_json()) == whole and json.loads(whole.to_json())["depth"] == 5
    window = Windowed(RankedLists(depth=5), size=2)
    window.update(predicted, relevant)
    assert window.result == RankedLists.from_lists(predicted[1:], relevant[1:], depth=5)
    with pytest.raises(UnsupportedSettingError, match="each query counts once"):
        whole.scaled(0.5)
    # a pickle of the build before (attrs fields, sums as limbs) loads as the same lists
    sys.modules.pop("evalkit.scores.ranked_lists", None)
    with pytest.warns(DeprecationWarning, match="is deprecated"):  # a path of that build
        earlier = pickle.loads((Path(__file__).parent / "fixtures" / "before-declared" / "ranked_lists.pickle").read_bytes())
    assert earlier == whole and (earlier.precision_at(5), earlier.ndcg_at(3), earlier.n_queries) == (whole.precision_at(5), whole.ndcg_at(3), 3)


def test_ranked_lists_refuse_a_part_never_added_and_documents_no_counting_gives():
    import json

    from evalkit._engine.serialization import FormatError
    from evalkit.exceptions import InvalidCountsError, UnsupportedSettingError

    whole = RankedLists.from_lists([[1], [5]], [[1, 2, 3, 4, 5, 6, 7], [9]], depth=3)
    never_added = RankedLists.from_lists([[1]], [[1]], depth=3)  # as many queries and hits as whole's first, other relevant items
    with pytest.raises(InvalidCountsError, match="never counted"):
        whole - never_added
    with pytest.raises(UnsupportedSettingError, match="each query counts once"):
        Faded(RankedLists(3), factor=0.9)
    document = json.loads(RankedLists.from_lists([[1, 2, 3], [4, 5]], [[2, 3], [9]], depth=3).to_json())
    totals = document["totals"]
    for changes in ({"hits": [3, 0, 0]}, {"queries": [1, 1], "hits": [0, 0, 2]}, {"queries": [2, 0]}, {"queries": [2.0, 2.0]},
                    {"totals": [-1.0, *totals[1:]]}, {"totals": [0.0, 100.0, *totals[2:]]}, {"queries": [0, 0], "hits": [0, 0, 0]},
                    {"depth": 10**12}):  # fmt: skip
        with pytest.raises(FormatError):
            RankedLists.from_json(json.dumps({**document, **changes}))


@pytest.mark.parametrize("kind", ['RankedLists'])
@given(data=counted_samples())
def test_a_ranked_lists_follows_the_counted_state_protocol(kind, data):
    """Merged parts equal the whole in any order, ``(a + b) - b == a``, scaling, JSON and
    pickle round trips (``harness.check_kind``)."""
    check_kind(kind, data)


def test_graded_ndcg_by_hand_and_without_grades_is_the_binary_one():
    """Järvelin & Kekäläinen's gains ``2^g − 1``: items 1 (grade 3) and 2 (grade 1) ranked
    2, x, 1 give DCG_3 = 1/log 2 + 7/log 4 against the ideal 7/log 2 + 1/log 3."""
    lists = RankedLists.from_lists([[2, 9, 1]], [[1, 2]], relevance=[[3, 1]], depth=3)
    expected = (1 / math.log(2) + 7 / math.log(4)) / (7 / math.log(2) + 1 / math.log(3))
    assert lists.graded_ndcg_at(3) == pytest.approx(expected, rel=1e-12)
    plain = RankedLists.from_lists([[1, 6, 2, 7, 8], [4, 1, 5, 6, 2]], [[1, 2, 3, 4, 5], [1, 2, 3]], depth=5)
    for k in range(1, 6):
        assert plain.graded_ndcg_at(k) == pytest.approx(plain.ndcg_at(k), rel=1e-14)
    with pytest.raises(InputLengthError):
        RankedLists.from_lists([[1]], [[1, 2]], relevance=[[3]], depth=2)


def spark_graded_ndcg(predicted, relevant, grades, k):
    """Spark's ``RankingMetrics.ndcgAt`` of one (ranking, relevant items, grades) triple, its loop
    written out (mllib/evaluation/RankingMetrics.scala since Spark 3.4): the ideal DCG is that
    of the relevant items in the order given, a query of grades all 0 counts 0."""
    grade = dict(zip(relevant, grades))
    size = len(set(relevant))
    n = min(max(len(predicted), size), k)
    dcg = sum((2.0 ** grade.get(predicted[i], 0.0) - 1) / math.log(i + 2) for i in range(n) if i < len(predicted))
    best = sum((2.0 ** grade.get(relevant[i], 0.0) - 1) / math.log(i + 2) for i in range(n) if i < size)
    return dcg / best if best else 0.0


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.lists(st.integers(0, 12), max_size=10), st.dictionaries(st.integers(0, 12), st.sampled_from([0.0, 1.0, 2.0, 3.5]), min_size=1, max_size=6)),
                min_size=1, max_size=20), st.integers(1, 8))  # fmt: skip
def test_graded_ndcg_is_sparks_when_the_relevant_items_come_most_relevant_first(rows, k):
    """Spark divides by the DCG of the relevant items in the order given: given most relevant
    first, that is the ideal DCG, and its nDCG is evalkit's."""
    predicted = [p for p, _ in rows]
    relevant = [sorted(graded, key=lambda item: -graded[item]) for _, graded in rows]
    grades = [[graded[item] for item in items] for items, (_, graded) in zip(relevant, rows)]
    lists = RankedLists.from_lists(predicted, relevant, relevance=grades, depth=8)
    expected = np.mean([spark_graded_ndcg(p, r, g, k) for p, r, g in zip(predicted, relevant, grades)])
    assert lists.graded_ndcg_at(k) == pytest.approx(expected, abs=1e-12)


def test_sparks_graded_ndcg_passes_one_when_the_relevant_items_are_given_in_another_order():
    """Item 1 (grade 3) is ranked first, as it should be; given the relevant items as [2, 1],
    Spark's "ideal" ranking is 2 then 1, worse than the one evaluated."""
    assert spark_graded_ndcg([1, 2], [2, 1], [1.0, 3.0], 2) > 1
    assert RankedLists.from_lists([[1, 2]], [[2, 1]], relevance=[[1.0, 3.0]], depth=2).graded_ndcg_at(2) == pytest.approx(1.0)
