"""Agreement among raters: Fleiss' and Randolph's kappa equal statsmodels' ``fleiss_kappa``,
Krippendorff's alpha equals the ``krippendorff`` package at every level, Gwet's AC1 and the
generalised kappas equal their definitions computed item by item in exact fractions, Cohen's
kappa of each pair equals scikit-learn's; weights are repeated items; intervals resample items.
"""

import math
from fractions import Fraction

import krippendorff
import numpy as np
import pytest
from harness import (
    check_agreement_faces,
    check_fairness_faces,
    check_kind,
    counted_samples,
)
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

from evalkit import Agreement
from evalkit.exceptions import EvalkitError, UnsupportedSettingError

# Fleiss (1971) as on statsmodels' and Wikipedia's pages: 10 items, 14 raters, 5 categories
FLEISS_TABLE = np.array([[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
                         [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]])  # fmt: skip

# Krippendorff's own example (the krippendorff package's README): 3 coders, 15 units, * = missing
KRIPPENDORFF_ROWS = (
    "*    *    *    *    *    3    4    1    2    1    1    3    3    *    3",
    "1    *    2    1    3    3    4    3    *    *    *    *    *    *    *",
    "*    *    2    1    3    4    4    *    2    1    1    3    3    *    4",
)


def krippendorff_data():
    return np.array([[np.nan if value == "*" else float(value) for value in row.split()] for row in KRIPPENDORFF_ROWS])


def test_fleiss_example_equals_statsmodels_and_the_published_value():
    agreement = Agreement.from_counts(FLEISS_TABLE)
    assert agreement.get_fleiss_kappa() == pytest.approx(fleiss_kappa(FLEISS_TABLE), abs=1e-12)
    assert round(agreement.get_fleiss_kappa(), 3) == 0.210  # Fleiss (1971), as Wikipedia shows it
    assert agreement.get_randolph_kappa() == pytest.approx(fleiss_kappa(FLEISS_TABLE, method="randolph"), abs=1e-12)


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
def test_krippendorff_example_equals_the_package(level):
    data = krippendorff_data()
    agreement = Agreement.from_ratings(data.T)  # items x raters
    assert agreement.get_krippendorff_alpha(level) == pytest.approx(krippendorff.alpha(reliability_data=data, level_of_measurement=level), abs=1e-12)
    if level == "nominal":
        assert round(agreement.get_krippendorff_alpha(), 3) == 0.691  # Krippendorff's published value


@st.composite
def full_tables(draw):
    """Items x categories counts with the same number of raters on every item."""
    items, categories, raters = draw(st.integers(2, 12)), draw(st.integers(2, 5)), draw(st.integers(2, 6))
    rows = [np.bincount(draw(st.lists(st.integers(0, categories - 1), min_size=raters, max_size=raters)), minlength=categories) for _ in range(items)]
    return np.array(rows)


@settings(max_examples=150, deadline=None)
@given(full_tables())
def test_fleiss_and_randolph_equal_statsmodels(table):
    agreement = Agreement.from_counts(table)
    for method, ours in (("fleiss", agreement.get_fleiss_kappa()), ("randolph", agreement.get_randolph_kappa())):
        with np.errstate(divide="ignore", invalid="ignore"):
            theirs = fleiss_kappa(table, method=method)
        assert (math.isnan(ours) and not math.isfinite(theirs)) or ours == pytest.approx(theirs, abs=1e-12)


@st.composite
def reliability_data(draw):
    """Raters x units of small integer values, some missing."""
    raters, units = draw(st.integers(2, 5)), draw(st.integers(2, 12))
    values = draw(st.lists(st.one_of(st.none(), st.integers(1, 5)), min_size=raters * units, max_size=raters * units))
    return np.array([np.nan if value is None else float(value) for value in values]).reshape(raters, units)


@settings(max_examples=150, deadline=None)
@given(reliability_data(), st.sampled_from(["nominal", "ordinal", "interval", "ratio"]))
def test_krippendorff_alpha_equals_the_package(data, level):
    pairable = (np.sum(~np.isnan(data), axis=0) >= 2).sum()
    distinct = np.unique(data[:, np.sum(~np.isnan(data), axis=0) >= 2][~np.isnan(data[:, np.sum(~np.isnan(data), axis=0) >= 2])])
    if pairable == 0 or len(distinct) < 2 or np.isnan(data).all():
        return  # the package refuses data with fewer than two values or no pairable unit
    ours = Agreement.from_ratings(data.T).get_krippendorff_alpha(level)
    theirs = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
    assert ours == pytest.approx(theirs, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(reliability_data(), st.lists(st.integers(0, 4), min_size=12, max_size=12), st.sampled_from(["nominal", "ordinal", "interval", "ratio"]))
def test_alpha_of_the_summed_coincidences_equals_the_sum_of_every_items_part(data, weights, level):
    # the point estimate sums every item's coincidences in one product; the intervals keep each
    # item's part (sparse) to resample them: both must give one alpha, weights included
    from evalkit._groups.agreement import _product

    ratings = data.T
    if np.isnan(ratings).all():
        return  # refused: tested below
    agreement = Agreement.from_ratings(ratings, sample_weight=weights[: len(ratings)])
    features, statistic = agreement._features("krippendorff_alpha"), agreement._statistic("krippendorff_alpha", level)
    with np.errstate(divide="ignore", invalid="ignore"):
        parts = float(statistic(_product(np.array(weights[: len(ratings)], dtype=np.float64)[None, :], features))[0])
    found = agreement.get_krippendorff_alpha(level)
    assert (math.isnan(found) and math.isnan(parts)) or found == pytest.approx(parts, rel=1e-12, abs=1e-12)


def by_definition(counts, weights, measure):
    """Fleiss (items keep their own numbers of ratings), Randolph, Gwet's AC1 and the percent
    agreement, item by item in exact fractions."""
    q = len(counts[0])
    kept = [(row, w) for row, w in zip(counts, weights) if sum(row) >= 2]
    observed = sum(w * Fraction(sum(c * (c - 1) for c in row), sum(row) * (sum(row) - 1)) for row, w in kept) / sum(w for _, w in kept)
    if measure == "percent_agreement":
        return observed
    if measure == "randolph_kappa":
        chance = Fraction(1, q)
    elif measure == "fleiss_kappa":
        total = sum(w * sum(row) for row, w in zip(counts, weights))
        chance = sum((sum(w * row[c] for row, w in zip(counts, weights)) / total) ** 2 for c in range(q))
    else:
        rated = [(row, w) for row, w in zip(counts, weights) if sum(row) >= 1]
        pi = [sum(w * Fraction(row[c], sum(row)) for row, w in rated) / sum(w for _, w in rated) for c in range(q)]
        chance = sum(p * (1 - p) for p in pi) / (q - 1)
    return (observed - chance) / (1 - chance)


@settings(max_examples=150, deadline=None)
@given(reliability_data(), st.lists(st.integers(1, 4), min_size=12, max_size=12),
       st.sampled_from(["fleiss_kappa", "randolph_kappa", "gwet_ac1", "percent_agreement"]))  # fmt: skip
def test_every_kappa_equals_its_definition_with_missing_ratings_and_weights(data, weights, measure):
    ratings = data.T
    if np.isnan(ratings).all():
        return  # refused: tested below
    agreement = Agreement.from_ratings(ratings, categories=[1.0, 2.0, 3.0, 4.0, 5.0], sample_weight=weights[: len(ratings)])
    counts = agreement.counts.tolist()
    if not any(sum(row) >= 2 for row in counts):
        return
    try:
        expected = float(by_definition(counts, weights[: len(ratings)], measure))
    except ZeroDivisionError:
        expected = math.nan
    found = agreement._value(measure)
    assert (math.isnan(expected) and not math.isfinite(found)) or found == pytest.approx(expected, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(full_tables(), st.lists(st.integers(0, 4), min_size=12, max_size=12), st.booleans())
def test_items_with_as_many_ratings_read_every_measure_from_one_gram_matrix(table, weights, weighted):
    # every item rated R times: each measure's sums follow from G = Σ_i w_i n_i n_iᵀ; the same
    # sums item by item (the route of unequal numbers of ratings) must give the same values
    sample_weight = weights[: len(table)] if weighted else None
    gram, by_item = Agreement.from_counts(table, sample_weight=sample_weight), Agreement.from_counts(table, sample_weight=sample_weight)
    by_item._cache["raters each"] = None  # as if the numbers differed
    assert gram._raters_each() == table.sum(axis=1)[0]
    for measure in ("fleiss_kappa", "randolph_kappa", "gwet_ac1", "percent_agreement", "krippendorff_alpha"):
        with np.errstate(divide="ignore", invalid="ignore"):
            assert np.allclose(gram._weighted_sums(measure), by_item._weighted_sums(measure), rtol=1e-12, atol=1e-12), measure
    for level in ("nominal", "ordinal", "interval", "ratio"):
        ours, theirs = gram.get_krippendorff_alpha(level), by_item.get_krippendorff_alpha(level)
        assert (math.isnan(ours) and math.isnan(theirs)) or ours == pytest.approx(theirs, abs=1e-12), level


def test_an_integer_weight_is_an_item_repeated():
    table = FLEISS_TABLE
    weights = np.arange(1, len(table) + 1)
    weighted, repeated = Agreement.from_counts(table, sample_weight=weights), Agreement.from_counts(np.repeat(table, weights, axis=0))
    for measure in ("fleiss_kappa", "randolph_kappa", "gwet_ac1"):
        assert weighted._value(measure) == pytest.approx(repeated._value(measure), abs=1e-12)
    for level in ("nominal", "ordinal", "interval"):
        assert weighted.get_krippendorff_alpha(level) == pytest.approx(repeated.get_krippendorff_alpha(level), abs=1e-12)


def test_counts_and_ratings_give_the_same_measures():
    rng = np.random.default_rng(4)
    ratings = rng.choice(["low", "mid", "high"], size=(40, 4), p=[0.5, 0.3, 0.2])
    counts, categories = aggregate_raters(ratings)  # statsmodels' turn of ratings into counts
    from_ratings, from_counts = Agreement.from_ratings(ratings), Agreement.from_counts(counts, categories=list(categories))
    assert from_ratings.categories == tuple(categories)
    for measure in ("fleiss_kappa", "randolph_kappa", "gwet_ac1", "percent_agreement", "krippendorff_alpha"):
        assert from_ratings._value(measure) == pytest.approx(from_counts._value(measure), abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(values=st.lists(st.sampled_from([-3, -1, 0, 2, 5, 7, 1030]), min_size=1, max_size=5), items=st.integers(1, 12),
       raters=st.integers(1, 5), dtype=st.sampled_from([np.int8, np.int64, np.uint16, np.uint64]), seed=st.integers(0, 1000))  # fmt: skip
def test_integer_ratings_counted_in_place_equal_the_same_ratings_as_labels(values, items, raters, dtype, seed):
    # a full table of integers in a small range is counted in place, its categories the columns
    # counted at all (no sort); the same ratings as Python objects take the general path
    usable = [v for v in values if np.iinfo(dtype).min <= v <= np.iinfo(dtype).max] or [0]
    ratings = np.random.default_rng(seed).choice(usable, size=(items, raters)).astype(dtype)
    before = ratings.copy()
    fast, general = Agreement.from_ratings(ratings), Agreement.from_ratings(ratings.astype(object))
    assert np.array_equal(ratings, before)  # the input is not changed
    assert fast.categories == general.categories and all(type(c) is int for c in fast.categories)
    assert np.array_equal(fast.counts, general.counts) and np.array_equal(fast.codes, general.codes) and fast == general
    assert fast.counts.dtype == fast.codes.dtype == np.int64
    for measure in ("fleiss_kappa", "randolph_kappa", "gwet_ac1", "percent_agreement", "krippendorff_alpha"):
        ours, theirs = fast._value(measure), general._value(measure)
        assert (math.isnan(ours) and math.isnan(theirs)) or ours == pytest.approx(theirs, abs=1e-12), measure
    assert np.array_equal(fast.get_cohen_kappa_matrix(), general.get_cohen_kappa_matrix(), equal_nan=True)


def test_cohen_kappa_of_each_pair_equals_scikit_learns():
    rng = np.random.default_rng(5)
    ratings = rng.integers(0, 3, size=(30, 4)).astype(object)
    ratings[rng.random((30, 4)) < 0.15] = None
    agreement = Agreement.from_ratings(ratings)
    for weights in (None, "linear", "quadratic"):
        matrix = agreement.get_cohen_kappa_matrix(weights=weights)
        assert matrix.shape == (4, 4) and np.allclose(np.diag(matrix), 1) and np.allclose(matrix, matrix.T)
        for a in range(4):
            for b in range(a + 1, 4):
                both = [k for k in range(30) if ratings[k, a] is not None and ratings[k, b] is not None]
                expected = cohen_kappa_score([ratings[k, a] for k in both], [ratings[k, b] for k in both], weights=weights)
                assert matrix[a, b] == pytest.approx(expected, abs=1e-12)
    with pytest.raises(UnsupportedSettingError, match="from_ratings"):
        Agreement.from_counts(FLEISS_TABLE).get_cohen_kappa_matrix()


def test_intervals_resample_items_and_cover_the_estimate():
    agreement = Agreement.from_counts(FLEISS_TABLE)
    for measure in ("fleiss_kappa", "gwet_ac1", "krippendorff_alpha"):
        found = agreement.interval(measure, n_resamples=400, random_state=1)
        assert found.low < found.estimate < found.high and found.estimate == pytest.approx(agreement._value(measure), abs=1e-12)
    same = [agreement.interval("fleiss_kappa", method="percentile", n_resamples=300, random_state=7) for _ in range(2)]
    assert same[0] == same[1]  # one seed, one interval


def test_labels_are_nominal_by_default_and_numbers_are_needed_for_intervals():
    agreement = Agreement.from_ratings([["a", "b"], ["a", "a"], ["b", "b"]])
    assert agreement.get_krippendorff_alpha() == agreement.get_krippendorff_alpha("nominal")
    with pytest.raises(UnsupportedSettingError, match="numeric categories"):
        agreement.get_krippendorff_alpha("interval")


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Agreement.from_ratings([1, 2, 3]), "items x raters"),
        (lambda: Agreement.from_ratings([[None, None]]), "no rating"),
        (lambda: Agreement.from_counts([[1, -1]]), "whole numbers"),
        (lambda: Agreement.from_counts([[0.5, 1]]), "whole numbers"),
        (lambda: Agreement.from_counts([[1, 2]], categories=["a"]), "categories"),
        (lambda: Agreement.from_ratings([["a", "c"]], categories=["a", "b"]), "c"),
        (lambda: Agreement.from_counts([[1, 2]]).get_krippendorff_alpha("loud"), "level"),
        (lambda: Agreement.from_counts([[1, 2]]).interval("accuracy"), "measure"),
    ],
)
def test_bad_tables_are_refused_naming_the_problem(build, message):
    with pytest.raises(EvalkitError, match=message):
        build()


@pytest.mark.slow  # over a few seconds: the full run only
def test_krippendorffs_alpha_holds_the_ratings_not_items_times_categories_squared():
    """40,000 items rated on a 0-100 scale: items x q x q coincidence parts would take 3 GB;
    the item's own pairs of categories take a few MB, and alpha is krippendorff's."""
    import tracemalloc

    rng = np.random.default_rng(0)
    truth = rng.integers(0, 101, 40_000)
    ratings = np.clip(truth[:, None] + rng.integers(-5, 6, (40_000, 3)), 0, 100).astype(float)
    ratings[rng.random(ratings.shape) < 0.1] = np.nan
    agreement = Agreement.from_ratings(ratings, categories=list(range(101)))
    tracemalloc.start()
    value = agreement.get_krippendorff_alpha("interval")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 100e6, peak
    part = ratings[:4000]  # the krippendorff package takes seconds a thousand items: checked on a tenth, and on the whole once
    assert Agreement.from_ratings(part, categories=list(range(101))).get_krippendorff_alpha("interval") == pytest.approx(
        krippendorff.alpha(reliability_data=part.T, level_of_measurement="interval"), abs=1e-9)
    assert value == pytest.approx(0.988672648089203, abs=1e-12)  # krippendorff.alpha of all 40,000 items (10 s)


def test_an_agreement_without_items_reads_back_from_json_over_its_categories():
    for whole in (Agreement.from_counts([[2, 1], [0, 3]], categories=["no", "yes"]), Agreement.from_ratings([["no", "yes"], ["yes", "yes"]])):
        for nothing in (whole.empty(), whole - whole, whole[:0]):
            read = Agreement.from_json(nothing.to_json())
            assert read == nothing and read.counts.shape == (0, 2) and read + whole == whole == whole + read


def test_agreements_of_true_and_1_never_combine_and_nothing_left_is_the_empty_agreement():
    from evalkit.exceptions import LabelMismatchError

    ints, bools = Agreement.from_ratings([[0, 1], [1, 1]]), Agreement.from_ratings([[False, True], [True, True]])
    assert ints != bools  # True is not the category 1
    for combine in (lambda: ints + bools, lambda: (ints + ints) - bools):
        with pytest.raises(LabelMismatchError):
            combine()
    for whole in (ints, Agreement.from_counts([[2, 1], [0, 3]], sample_weight=[1.0, 2.5])):
        assert whole - whole == whole.empty() and (whole - whole).n_raters is None


def test_agreements_compare_by_value_and_read_back_from_json():
    ratings = Agreement.from_ratings([["a", "b"], ["b", None], ["a", "a"]], sample_weight=[1, 2, 1])
    counts = Agreement.from_counts([[2, 1], [0, 3]], categories=["x", "y"])
    for agreement in (ratings, counts):
        back = Agreement.from_json(agreement.to_json())
        assert back == agreement and back is not agreement and back.get_fleiss_kappa() == agreement.get_fleiss_kappa()
    assert Agreement.from_ratings([["a", "b"]]) == Agreement.from_ratings([["a", "b"]]) and ratings != counts


def test_cohens_kappa_of_two_raters_has_statsmodels_standard_errors_z_and_p_value():
    from statsmodels.stats.inter_rater import cohens_kappa

    rng = np.random.default_rng(3)
    truth = rng.integers(0, 3, 80)
    ratings = np.column_stack([np.where(rng.random(80) < 0.7, truth, rng.integers(0, 3, 80)) for _ in range(2)])
    found = Agreement.from_ratings(ratings).cohen_kappa_test()
    table = np.zeros((3, 3))
    np.add.at(table, (ratings[:, 0], ratings[:, 1]), 1)
    theirs = cohens_kappa(table)
    assert found.kappa == pytest.approx(theirs.kappa, abs=1e-12)
    assert found.standard_error == pytest.approx(theirs.std_kappa, abs=1e-12)
    assert found.null_standard_error == pytest.approx(theirs.std_kappa0, abs=1e-12)
    assert found.statistic == pytest.approx(theirs.z_value, abs=1e-9) and found.p_value == pytest.approx(theirs.pvalue_two_sided, rel=1e-9)
    assert found.kappa == pytest.approx(cohen_kappa_score(ratings[:, 0], ratings[:, 1]), abs=1e-12)


def test_ratings_in_a_nullable_frame_have_missing_cells():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"a": pd.array([1, 2, None], dtype="Int64"), "b": pd.array([1, None, 3], dtype="Int64")})
    agreement = Agreement.from_ratings(frame)
    assert agreement.categories == (1, 2, 3) and agreement.counts.tolist() == [[2, 0, 0], [0, 1, 0], [0, 0, 1]]


@pytest.mark.parametrize("kind", ['Agreement'])
@given(data=counted_samples())
def test_a_agreement_follows_the_counted_state_protocol(kind, data):
    """Merged parts equal the whole in any order, ``(a + b) - b == a``, scaling, JSON and
    pickle round trips (``harness.check_kind``)."""
    check_kind(kind, data)


@given(st.lists(st.lists(st.sampled_from(["yes", "no", "maybe"]), min_size=3, max_size=3), min_size=3, max_size=15), st.data())
def test_agreement_measures_agree_on_every_face(ratings, data):
    if len({value for row in ratings for value in row}) < 2:
        ratings = [["yes", "no", "yes"], *ratings[1:]]  # two categories at least: alpha is defined
    if data.draw(st.booleans()):
        ratings = [[None if (i + j) % 4 == 0 else value for j, value in enumerate(row)] for i, row in enumerate(ratings)]
        ratings = [row if sum(value is not None for value in row) >= 2 else row[:1] * 3 for row in ratings]
    assume(len({value for row in ratings for value in row if value is not None}) >= 2)  # alpha needs two categories seen
    check_agreement_faces(ratings, data.draw(st.integers(1, len(ratings) - 1)))


def test_the_agreement_and_fairness_harness_fail_when_a_face_is_wrong(monkeypatch):
    from evalkit import Agreement
    from evalkit._groups import fairness

    ratings = [["yes", "no", "yes"], ["no", "no", "no"], ["yes", "yes", "no"], ["no", "yes", "yes"]]
    check_agreement_faces(ratings, 2)
    monkeypatch.setattr(Agreement, "get_krippendorff_alpha", lambda self: 0.5)
    with pytest.raises(AssertionError, match="krippendorff_alpha: object gives 0.5"):
        check_agreement_faces(ratings, 2)
    y_true, y_pred, groups = [0, 1, 1, 0, 1, 0], [1, 0, 1, 0, 1, 1], ["a", "a", "b", "b", "c", "c"]
    check_fairness_faces(y_true, y_pred, groups, 3)
    monkeypatch.setattr(fairness, "demographic_parity_difference", lambda *args, **kwargs: 0.123)
    with pytest.raises(AssertionError, match="demographic_parity_difference: .* gives 0.123"):
        check_fairness_faces(y_true, y_pred, groups, 3)
