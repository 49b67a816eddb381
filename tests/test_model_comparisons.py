"""Comparisons of many models over many data sets: Demšar's worked example, the peers
(scikit-posthocs, autorank, baycomp, scipy, statsmodels) where they are right, and where they
differ the value by its definition."""

import csv
import io
import json
import math
import re
import warnings
from itertools import combinations, product

import numpy as np
import pandas as pd
import pytest
import scipy.stats as ss
from hypothesis import given, settings
from hypothesis import strategies as st

from evalkit import ConfusionMatrix, ModelComparison
from evalkit._results.multiplicity import adjust, adjust_pairwise
from evalkit.comparisons import PairwiseTests
from evalkit.comparisons import _bayesian as bayesian
from evalkit.comparisons import _paired as paired
from evalkit.exceptions import EvalkitError, InputFileError, UnsupportedSettingError

# Demšar (2006), Table 6: AUC of four variants of C4.5 on 14 data sets
MODELS = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
DATASETS = ["adult (sample)", "breast cancer", "breast cancer wisconsin", "cmc", "ionosphere", "iris", "liver disorders",
            "lung cancer", "lymphography", "mushroom", "primary tumor", "rheum", "voting", "wine"]  # fmt: skip
TABLE = np.array([
    [0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569], [0.954, 0.971, 0.968, 0.967], [0.628, 0.661, 0.654, 0.657],
    [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931], [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625],
    [0.775, 0.838, 0.866, 0.875], [1.000, 1.000, 1.000, 1.000], [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
    [0.972, 0.981, 0.975, 0.975], [0.957, 0.978, 0.946, 0.970],
])  # fmt: skip
PAPER = TABLE.copy()
PAPER[12, 2] = 0.9751  # the paper ranks C4.5+cf above C4.5+m+cf on voting; the printed table rounds both to 0.975


def demsar(table=PAPER) -> ModelComparison:
    return ModelComparison(table, models=MODELS, datasets=DATASETS, measure="roc_auc")


def test_demsars_worked_example_gives_his_numbers():
    comparison = demsar()
    assert comparison.ranks.round(3).tolist() == [3.143, 2.000, 2.893, 1.964]
    assert round(comparison.friedman().statistic, 2) == 9.28
    found = comparison.iman_davenport()
    assert round(found.statistic, 2) == 3.69 and found.df == (3, 39)
    assert round(float(ss.f.isf(0.05, 3, 39)), 2) == 2.85 and found.p_value < 0.05  # F_F exceeds the critical F(3, 39)
    assert [round(comparison.critical_difference(alpha), 2) for alpha in (0.05, 0.10)] == [1.25, 1.12]
    assert [round(comparison.critical_difference(alpha, "bonferroni-dunn"), 2) for alpha in (0.05, 0.10)] == [1.17, 1.04]
    nemenyi = comparison.pairwise("nemenyi")
    assert nemenyi.significant(0.05) == []  # no pair: the largest gap is 3.143 - 1.964 = 1.179 < 1.25
    assert round(comparison.ranks.max() - comparison.ranks.min(), 3) == 1.179
    assert comparison.best == "C4.5+m+cf"


def test_the_printed_table_ties_on_voting_and_gives_other_ranks():
    # as printed (both 0.975) the two share rank 2.5 on voting: 2.929 and 1.929 instead of 2.893 and 1.964
    assert demsar(TABLE).ranks.round(3).tolist() == [3.143, 2.000, 2.929, 1.929]


def test_the_critical_difference_comes_from_the_distribution_for_any_number_of_models():
    # Demšar's Table 5 (q_0.05 for k = 2..10), and beyond the tables that stop near 20 models
    from evalkit.comparisons._ranks import critical_difference

    table5 = {2: 1.960, 3: 2.343, 4: 2.569, 5: 2.728, 6: 2.850, 7: 2.949, 8: 3.031, 9: 3.102, 10: 3.164}
    for k, q_alpha in table5.items():
        assert critical_difference(k, 6, 0.05) / math.sqrt(k * (k + 1) / 36) == pytest.approx(q_alpha, abs=1e-3)
    assert critical_difference(50, 30, 0.05) > critical_difference(20, 30, 0.05) > 0
    # jMetalPy's Nemenyi takes k(N - 1) degrees of freedom: 1.295 on Demšar's example instead of 1.254
    assert round(critical_difference(4, 14, 0.05), 3) == 1.254
    jmetal = float(ss.studentized_range.isf(0.05, 4, 4 * 13)) / math.sqrt(2) * math.sqrt(20 / 84)
    assert round(jmetal, 3) == 1.295


def test_nemenyi_p_values_agree_with_scikit_posthocs():
    import scikit_posthocs as sp

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = sp.posthoc_nemenyi_friedman(PAPER).to_numpy()
    assert np.allclose(demsar().pairwise("nemenyi").p_values, expected, rtol=1e-9, atol=1e-12)


def test_nemenyi_p_values_do_not_depend_on_where_a_pair_sits():
    # the same gap of average ranks is the same p-value: in any position of the array of q,
    # for any order of the models, and as scikit-posthocs (scipy's studentized range) gives it
    import scikit_posthocs as sp

    from evalkit.comparisons._ranks import range_sf

    table = np.tile(np.arange(3.0), (10, 1))  # every data set ranks the three models alike: two pairs one rank apart
    p = ModelComparison(table).pairwise("nemenyi").p_values
    assert p[0, 1] == p[1, 2]
    rng = np.random.default_rng(3)
    table = rng.integers(0, 4, (9, 6)).astype(float)  # ties: many pairs share a gap
    found = ModelComparison(table).pairwise("nemenyi").p_values
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = sp.posthoc_nemenyi_friedman(table).to_numpy()
    assert np.allclose(found, expected, rtol=1e-12, atol=1e-15)
    for _ in range(20):
        order = rng.permutation(6)
        assert np.array_equal(ModelComparison(table[:, order]).pairwise("nemenyi").p_values, found[np.ix_(order, order)])
    q = np.linspace(0, 6, 31)
    alone = [range_sf([value], 5)[0] for value in q]
    assert np.array_equal(range_sf(q, 5), alone) and np.array_equal(range_sf(q[::-1], 5), alone[::-1])
    assert np.array_equal(range_sf(np.tile(q, 5), 5), np.tile(alone, 5))  # more than 64 values: one computation still


def test_ranks_and_critical_difference_agree_with_autorank():
    from autorank import autorank

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = autorank(pd.DataFrame(PAPER, columns=MODELS), alpha=0.05, verbose=False, force_mode="nonparametric")
    # autorank takes q from statsmodels' qsturng, an approximation good to about 1e-5: its CD
    # 1.2535513 against 1.2535591, whose q has the studentized range's tail probability 0.05 exactly
    cd = demsar().critical_difference(0.05)
    assert found.cd == pytest.approx(cd, rel=1e-5) and found.cd != pytest.approx(cd, rel=1e-7)
    q = cd / math.sqrt(4 * 5 / (6 * 14)) * math.sqrt(2)
    assert float(ss.studentized_range.sf(q, 4, np.inf)) == pytest.approx(0.05, rel=1e-12)
    assert {model: found.rankdf.meanrank[model] for model in MODELS} == pytest.approx(dict(zip(MODELS, demsar().ranks)), rel=1e-12)


def test_friedman_is_demsars_statistic_and_scipys_only_without_ties():
    # scipy's friedmanchisquare corrects for ties (mushroom ties all four): 10.95 against the plain 9.86
    plain = demsar(TABLE).friedman().statistic
    assert round(plain, 3) == 9.857 and round(float(ss.friedmanchisquare(*TABLE.T).statistic), 3) == 10.952
    rng = np.random.default_rng(3)
    untied = rng.random((12, 5))
    assert ModelComparison(untied).friedman().statistic == pytest.approx(float(ss.friedmanchisquare(*untied.T).statistic), rel=1e-12)
    assert ModelComparison(untied).friedman().p_value == pytest.approx(float(ss.friedmanchisquare(*untied.T).pvalue), rel=1e-9)


# --------------------------------------------------------------------------------------------
# adjusted p-values


def _exhaustive_by_labels(k):
    """Exhaustive sets of pairwise hypotheses, built another way: every labelling of the models
    by group numbers (duplicates removed), the pairs inside a group."""
    pairs = list(combinations(range(k), 2))
    found = set()
    for labels in product(range(k), repeat=k):
        chosen = frozenset(index for index, (a, b) in enumerate(pairs) if labels[a] == labels[b])
        if chosen:
            found.add(chosen)
    return found


def _bergmann_hommel_by_definition(p, k):
    return [min(1.0, max(len(s) * min(p[j] for j in s) for s in _exhaustive_by_labels(k) if i in s)) for i in range(len(p))]


def _shaffer_by_definition(p, k):
    from itertools import combinations as pairs_of

    m = len(p)
    possible = set()
    for labels in product(range(k), repeat=k):  # the numbers of true hypotheses of every labelling
        possible.add(sum(labels[a] == labels[b] for a, b in pairs_of(range(k), 2)))
    order = np.argsort(p, kind="stable")
    adjusted, running = np.empty(m), 0.0
    for step, index in enumerate(order):
        running = max(running, max(s for s in possible if s <= m - step) * p[index])
        adjusted[index] = min(1.0, running)
    return adjusted.tolist()


@given(st.integers(3, 5).flatmap(lambda k: st.tuples(st.just(k), st.lists(st.floats(0, 1), min_size=k * (k - 1) // 2, max_size=k * (k - 1) // 2))))
def test_shaffer_and_bergmann_hommel_follow_their_definitions_and_order(case):
    k, p = case
    shaffer, hommel, holm = (adjust_pairwise(p, k, method) for method in ("shaffer", "bergmann-hommel", "holm"))
    assert shaffer.tolist() == pytest.approx(_shaffer_by_definition(p, k), abs=1e-15)
    assert hommel.tolist() == pytest.approx(_bergmann_hommel_by_definition(p, k), abs=1e-15)
    assert np.all(hommel <= shaffer + 1e-15) and np.all(shaffer <= holm + 1e-15) and np.all(np.asarray(p) <= hommel + 1e-15)


def test_shaffers_factors_for_four_models_are_garcia_and_herreras():
    # 6 hypotheses: after the first rejection at most 3 can be true (García & Herrera 2008, section 3)
    p = [0.001, 0.002, 0.003, 0.004, 0.005, 0.006]
    assert adjust_pairwise(p, 4, "shaffer").tolist() == pytest.approx([0.006, 0.006, 0.009, 0.012, 0.012, 0.012])


def test_holm_and_bonferroni_agree_with_statsmodels():
    from statsmodels.stats.multitest import multipletests

    p = [0.01, 0.04, 0.03, 0.005, 0.2, 0.5]
    for method in ("holm", "bonferroni"):
        assert adjust(p, method).tolist() == pytest.approx(multipletests(p, method=method)[1].tolist(), abs=1e-15)


def test_bergmann_hommel_above_nine_models_is_refused_with_the_alternative():
    with pytest.raises(UnsupportedSettingError, match="up to 9 models .*10 given.*'shaffer'"):
        adjust_pairwise(np.full(45, 0.01), 10, "bergmann-hommel")
    assert adjust_pairwise(np.full(36, 0.01), 9, "bergmann-hommel").max() <= 0.36


def test_pairwise_wilcoxon_agrees_with_scipy_and_holm():
    comparison = demsar()
    found = comparison.pairwise("wilcoxon", "holm")
    raw = [float(ss.wilcoxon(PAPER[:, i] - PAPER[:, j]).pvalue) for i, j in combinations(range(4), 2)]
    assert [found.raw_p_values[i, j] for i, j in combinations(range(4), 2)] == pytest.approx(raw, rel=1e-12)
    assert [found.p_values[i, j] for i, j in combinations(range(4), 2)] == pytest.approx(adjust(raw, "holm").tolist(), rel=1e-12)
    assert found.p_value("C4.5", "C4.5+m+cf") == found.p_value("C4.5+m+cf", "C4.5")


@pytest.mark.parametrize("n", [8, 23])
def test_each_pairs_wilcoxon_is_its_own_whatever_the_other_pairs(n):
    # a - b has no tie and no zero (scipy's exact distribution); c - d has a tie and a - e a zero (a permutation
    # test up to 13 data sets, the normal approximation above): the pair (a, b) keeps its exact p-value in a table
    # of five, and every pair's is scipy's of that pair alone, whatever the other pairs hold (one 2-D call gave all
    # of them one method)
    rng = np.random.default_rng(3)
    a, c = (rng.integers(150, 230, n) / 256 for _ in range(2))
    b = a - rng.permutation(np.arange(1, n + 1) * np.where(np.arange(n) < n // 3, -1, 1)) / 256  # a third of the ranks negative
    d = c - np.array([*range(1, n), 5]) * rng.choice([-1, 1], n) / 256  # |5| twice: a tie
    e = b.copy()
    e[0] = a[0]  # a zero difference
    columns = [a, b, c, d, e]
    comparison = ModelComparison(np.c_[a, b, c, d, e], models="abcde")
    for zero_method in paired.ZERO_METHODS:
        found = comparison.pairwise("wilcoxon", zero_method=zero_method)
        for i, j in combinations(range(5), 2):
            alone = ss.wilcoxon(columns[i] - columns[j], zero_method=zero_method)
            assert found.raw_p_values[i, j] == pytest.approx(alone.pvalue, rel=1e-12), ("abcde"[i], "abcde"[j], zero_method)
            assert abs(found.statistics[i, j]) == pytest.approx(alone.statistic, rel=1e-12)
    exact, normal = (float(ss.wilcoxon(a - b, method=method).pvalue) for method in ("exact", "asymptotic"))
    assert comparison.pairwise("wilcoxon").raw_p_values[0, 1] == pytest.approx(exact, rel=1e-12) and abs(exact - normal) > 0.05 * exact
    assert comparison.against("a", test="wilcoxon", correction="none")["b"] == pytest.approx(exact, rel=1e-12)
    assert paired.wilcoxon_test(a, b).p_value == pytest.approx(exact, rel=1e-12)


def test_against_a_control_is_bonferroni_dunn_or_holm_of_rank_z_tests():
    comparison = demsar()
    se = math.sqrt(4 * 5 / (6 * 14))
    z = [(comparison.ranks[j] - comparison.ranks[3]) / se for j in range(3)]
    raw = [2 * ss.norm.sf(abs(value)) for value in z]
    assert list(comparison.against(correction="bonferroni").values()) == pytest.approx([min(1, 3 * p) for p in raw], rel=1e-9)
    assert list(comparison.against().values()) == pytest.approx(adjust(raw, "holm").tolist(), rel=1e-9)
    # a model's gap to the control beyond the Bonferroni-Dunn CD is significant, and only then
    significant = [model for model, p in comparison.against(correction="bonferroni").items() if p <= 0.05]
    cd = comparison.critical_difference(0.05, "bonferroni-dunn")
    assert significant == [MODELS[j] for j in range(3) if comparison.ranks[j] - comparison.ranks[3] > cd] == ["C4.5"]


def test_cliques_join_models_closer_than_the_critical_difference():
    comparison = demsar()
    assert comparison.cliques(0.05) == [("C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5")]  # all within 1.25
    # at 0.10 (CD 1.12) C4.5 is 1.143 behind C4.5+m: two bars
    assert comparison.cliques(0.10) == [("C4.5+m+cf", "C4.5+m", "C4.5+cf"), ("C4.5+cf", "C4.5")]


# --------------------------------------------------------------------------------------------
# tests over the folds of one data set

FIRST = [0.80, 0.82, 0.79, 0.85, 0.81, 0.83, 0.80, 0.84, 0.82, 0.81]
SECOND = [0.78, 0.80, 0.79, 0.82, 0.80, 0.80, 0.79, 0.81, 0.80, 0.79]


def test_the_corrected_resampled_t_test_is_nadeau_and_bengios_formula():
    d = np.subtract(FIRST, SECOND)
    t = d.mean() / math.sqrt((1 / 10 + 1 / 9) * d.var(ddof=1))  # 10-fold: n_test / n_train = 1/9
    found = paired.corrected_resampled_t_test(FIRST, SECOND, folds=10)
    assert found.statistic == pytest.approx(t, rel=1e-12) and found.df == (9,)
    assert found.p_value == pytest.approx(2 * ss.t.sf(t, 9), rel=1e-12)
    # a hold-out of 66% repeated 10 times, as Weka's Experimenter runs it (train percentage 66)
    held = paired.corrected_resampled_t_test(FIRST, SECOND, n_train=66, n_test=34)
    assert held.statistic == pytest.approx(d.mean() / math.sqrt((1 / 10 + 34 / 66) * d.var(ddof=1)), rel=1e-12)
    # without the overlap term it is the naive paired t-test (scipy's ttest_rel)
    naive = paired.corrected_resampled_t_test(FIRST, SECOND, n_train=1e300, n_test=1e-300)
    assert naive.statistic == pytest.approx(float(ss.ttest_rel(FIRST, SECOND).statistic), rel=1e-12)


def test_the_5x2cv_tests_are_dietterichs_and_alpaydins_formulas():
    rng = np.random.default_rng(7)
    a, b = rng.uniform(0.7, 0.9, (5, 2)), rng.uniform(0.7, 0.9, (5, 2))
    d = a - b
    s2 = ((d - d.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    t = paired.paired_t_test_5x2cv(a, b)
    assert t.statistic == pytest.approx(d[0, 0] / math.sqrt(s2.sum() / 5), rel=1e-12) and t.df == (5,)
    f = paired.combined_f_test_5x2cv(a, b)
    assert f.statistic == pytest.approx((d**2).sum() / (2 * s2.sum()), rel=1e-12)
    assert f.p_value == pytest.approx(float(ss.f.sf(f.statistic, 10, 5)), rel=1e-12)
    with pytest.raises(EvalkitError, match=r"shape \(5, 2\)"):
        paired.paired_t_test_5x2cv(a.ravel(), b.ravel())


def test_the_sign_test_splits_ties_as_demsar():
    # 9 wins, one tie (dropped: odd), so 9 of 9: p = 2 / 2**9
    assert paired.sign_test(FIRST, SECOND).p_value == pytest.approx(2 / 512)
    # 2 ties split evenly: 9 + 1 successes of 11
    assert paired.sign_test([*FIRST, 0.5], [*SECOND, 0.5]).p_value == pytest.approx(float(ss.binomtest(10, 11).pvalue))


# --------------------------------------------------------------------------------------------
# Bayesian comparisons


def test_the_correlated_bayesian_t_test_agrees_with_baycomp():
    import baycomp

    for rope in (0.0, 0.01):
        found = bayesian.correlated_t_test(FIRST, SECOND, rope=rope, folds=10)
        expected = baycomp.CorrelatedTTest.probs(np.array(SECOND), np.array(FIRST), rope=rope, runs=1)  # baycomp: left = its first better
        if rope == 0:
            assert (found.second, found.first) == pytest.approx(tuple(map(float, expected)), rel=1e-12)
        else:
            assert (found.second, found.equivalent, found.first) == pytest.approx(tuple(map(float, expected)), rel=1e-12)


@pytest.mark.parametrize("test", ["signed-rank", "sign"])
def test_bayesian_tests_over_data_sets_agree_with_baycomp_to_sampling_error(test):
    import baycomp

    rng = np.random.default_rng(11)
    a = rng.uniform(0.6, 0.9, 30)
    b = a + rng.normal(0.006, 0.015, 30)
    ours = ModelComparison(np.column_stack([a, b]), models=["a", "b"]).bayesian("a", "b", test, rope=0.005, random_state=1)
    peer = (baycomp.SignedRankTest if test == "signed-rank" else baycomp.SignTest).probs(b, a, rope=0.005, random_state=1)
    assert (ours.second, ours.equivalent, ours.first) == pytest.approx(tuple(map(float, peer)), abs=0.015)  # 50,000 samples each
    assert math.isclose(sum(ours.probabilities), 1.0)
    assert ours.samples.shape == (50_000, 3)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([-0.02, -0.01, -0.005, 0.0, 0.005, 0.01, 0.015, 0.03]), min_size=1, max_size=12),
       st.sampled_from([0.0, 0.005, 0.01]), st.sampled_from([0.0, 0.5, 1.0]))  # fmt: skip
def test_the_signed_rank_posterior_equals_the_double_sum_of_every_sample(differences, rope, prior):
    # Benavoli et al. (2017): θ_first = Σ_ij w_i w_j H((d_i + d_j) / 2 - rope), H(0) = 1/2; the
    # sorted suffix sums must give the double sum of the same weights (ties at the step included)
    drawn = []

    def recorded(rng, alpha, size):
        weights = original(rng, alpha, size)
        drawn.append(weights.T / weights.sum(axis=0)[:, None])  # a sample a row, normalised: its Dirichlet weights
        return weights

    original = bayesian._gamma_draws
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bayesian, "_gamma_draws", recorded)
        found = bayesian.signed_rank_test(np.array(differences), np.zeros(len(differences)), rope=rope, prior=prior, n_samples=50,
                                          random_state=0)  # fmt: skip
    d = np.sort(np.concatenate(([0.0], differences)), kind="stable")
    sums = d[:, None] + d[None, :]
    weights = np.concatenate(drawn)
    first = np.einsum("si,ij,sj->s", weights, (sums > 2 * rope) + 0.5 * (sums == 2 * rope), weights)
    second = np.einsum("si,ij,sj->s", weights, (-sums > 2 * rope) + 0.5 * (-sums == 2 * rope), weights)
    assert np.allclose(found.samples[:, 0], first, atol=1e-6) and np.allclose(found.samples[:, 2], second, atol=1e-6)  # single precision
    pseudo = int(np.flatnonzero(np.argsort(np.concatenate(([0.0], differences)), kind="stable") == 0)[0])  # the prior's place, sorted
    assert (weights[:, pseudo] == 0).all() if prior == 0 else (weights[:, pseudo] >= 0).all() and weights[:, pseudo].any()


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 120), st.lists(st.floats(0, 20), min_size=1, max_size=150))
def test_the_studentized_range_tail_is_scipys(k, q):
    # Nemenyi's p-values: scipy's adaptive integration, each distinct q once
    from evalkit.comparisons._ranks import range_sf

    assert np.array_equal(range_sf(q, k), ss.studentized_range.sf(q, k, np.inf))


def test_a_lower_is_better_measure_ranks_the_right_way_round():
    results = {
        "good": [ConfusionMatrix.from_predictions([0, 1, 1, 0], [0, 1, 1, 0]), ConfusionMatrix.from_predictions([0, 1, 1], [0, 1, 0])],
        "bad": [ConfusionMatrix.from_predictions([0, 1, 1, 0], [1, 1, 0, 0]), ConfusionMatrix.from_predictions([0, 1, 1], [1, 0, 0])],
    }
    errors = ModelComparison.from_results(results, "error_rate", "micro")
    accuracies = ModelComparison.from_results(results, "accuracy", "micro")
    assert errors.direction == "lower" and accuracies.direction == "higher"
    assert errors.ranks.tolist() == accuracies.ranks.tolist() == [1.0, 2.0]
    assert ModelComparison([[0.2, 0.3], [0.1, 0.4]], measure="log_loss").ranks.tolist() == [1.0, 2.0]


# --------------------------------------------------------------------------------------------
# tables of every kind, missing cells, documents


def test_a_table_reads_from_arrays_mappings_dataframes_and_csv(tmp_path):
    frame = pd.DataFrame(PAPER, columns=MODELS, index=DATASETS)
    mapping = {model: dict(zip(DATASETS, PAPER[:, j])) for j, model in enumerate(MODELS)}
    path = tmp_path / "results.csv"
    path.write_text("data set," + ",".join(MODELS) + "\n" + "".join(f"{name}," + ",".join(repr(float(v)) for v in row) + "\n"
                                                                     for name, row in zip(DATASETS, PAPER)))  # fmt: skip
    for made in (ModelComparison(frame), ModelComparison(mapping), ModelComparison.from_csv(path),
                 ModelComparison({model: PAPER[:, j].tolist() for j, model in enumerate(MODELS)}, datasets=DATASETS)):  # fmt: skip
        assert made.models == tuple(MODELS) and made.datasets == tuple(DATASETS)
        assert np.array_equal(made.values, PAPER)


def test_a_missing_cell_is_refused_by_name_or_dropped(tmp_path):
    mapping = {"a": {"x": 0.9, "y": 0.8, "z": 0.7}, "b": {"x": 0.8, "z": 0.6}}
    with pytest.raises(EvalkitError, match="model 'b' has no value on data set 'y'.*missing='drop'"):
        ModelComparison(mapping)
    dropped = ModelComparison(mapping, missing="drop")
    assert dropped.datasets == ("x", "z") and dropped.dropped == ("y",)
    assert "left out (a missing cell): y" in dropped.to_text()
    path = tmp_path / "bad.csv"
    path.write_text("data set,a,b\nx,0.9,oops\n")
    with pytest.raises(InputFileError, match="line 2: a value that is no number"):
        ModelComparison.from_csv(path)
    latin = tmp_path / "latin.csv"
    latin.write_bytes(b"data set,a,b\ncaf\xe9,0.1,0.2\ny,0.3,0.1\n")
    for unreadable, message in ((tmp_path / "none.csv", "none.csv: cannot read the file: No such file"), (tmp_path, "cannot read the file: Is a directory"),
                                (latin, "latin.csv:2: the text is not UTF-8")):  # (tracebacks of the command line's compare before)
        with pytest.raises(InputFileError, match=message):
            ModelComparison.from_csv(unreadable)


def test_text_markdown_and_latex_mark_the_best_and_show_the_ranks():
    comparison = ModelComparison({"a_1": [0.9, 0.8], "b&c": [0.8, 0.8]}, datasets=["x", "y"])
    text, markdown, latex = comparison.to_text(2), comparison.to_markdown(2), comparison.to_latex(2)
    assert "0.90 (1.0) *" in text and "0.80 (1.5) *" in text and "avg rank" in text
    assert "| x | **0.90 (1.0)** | 0.80 (2.0) |" in markdown
    assert r"a\_1 & b\&c" in latex and r"\textbf{0.90 (1.0)}" in latex and r"\end{tabular}" in latex
    assert "<table>" in comparison._repr_html_()


def test_the_comparison_round_trips_through_json():
    comparison = demsar()
    again = ModelComparison.from_json(comparison.to_json())
    assert again == comparison and again.measure == "roc_auc"
    assert json.loads(comparison.to_json())["evalkit"] == "ModelComparison"
    numbered = ModelComparison([[0.9, 0.8], [0.7, 0.75], [0.6, 0.65]], models=np.array([1, 2]), datasets=np.array(["x", "y", "z"]))  # numpy names
    assert numbered.models == (1, 2) and type(numbered.models[0]) is int and ModelComparison.from_json(numbered.to_json()) == numbered


@given(st.integers(2, 6).flatmap(lambda k: st.lists(st.lists(st.integers(0, 5), min_size=k, max_size=k), min_size=2, max_size=12)))
def test_ranks_sum_to_their_total_and_direction_mirrors(rows):
    table = np.array(rows, dtype=float)
    k = table.shape[1]
    comparison = ModelComparison(table)
    assert comparison.ranks.sum() == pytest.approx(k * (k + 1) / 2)
    mirrored = ModelComparison(-table, direction="lower")
    assert np.array_equal(mirrored.ranks, comparison.ranks)
    assert mirrored.friedman() == comparison.friedman()
    permutation = np.roll(np.arange(k), 1)
    assert np.allclose(ModelComparison(table[:, permutation]).ranks, comparison.ranks[permutation])


# --------------------------------------------------------------------------------------------
# many models on one test set, the command line, the plots


def test_models_on_one_test_set_are_compared_in_pairs_and_ranked():
    from evalkit._results.paired import compare, compare_many
    from evalkit.comparisons import PairwiseTests

    y = [0, 1, 1, 0, 1, 0, 1, 1, 0, 1, 1, 0]
    predictions = {"a": [0, 1, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1], "b": [0, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 0], "c": y}
    found = PairwiseTests.from_predictions(y, predictions, correction="shaffer")
    raw = [compare(y, predictions[a], predictions[b]).p_value for a, b in combinations("abc", 2)]
    assert [found.raw_p_values[i, j] for i, j in combinations(range(3), 2)] == pytest.approx(raw)
    assert [found.p_values[i, j] for i, j in combinations(range(3), 2)] == pytest.approx(adjust_pairwise(raw, 3, "shaffer").tolist())
    holm = compare_many(y, predictions, correction="holm")
    assert [p.p_value for p in holm.values()] == pytest.approx(adjust(raw, "holm").tolist())
    assert [model for model, _ in found.ranked()] == ["c", "a", "b"]
    assert found.ranked()[0][1] == 1.0 and "mcnemar p-values (shaffer-adjusted)" in found.to_text()


def test_the_command_line_compares_a_table_and_prediction_files(tmp_path, capsys):
    from evalkit.cli import main

    table = tmp_path / "results.csv"
    table.write_text("data set," + ",".join(MODELS) + "\n" + "".join(f"{name}," + ",".join(str(float(v)) for v in row) + "\n"
                                                                      for name, row in zip(DATASETS, PAPER)))  # fmt: skip
    assert main(["compare", str(table), "--plot", str(tmp_path / "cd.png")]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^avg rank +3\.14 +2\.00 +2\.89 +1\.96$", out, re.MULTILINE)
    assert "Friedman chi2_F = 9.279" in out and "Nemenyi 1.254, Bonferroni-Dunn 1.168" in out
    assert (tmp_path / "cd.png").stat().st_size > 0
    assert main(["compare", str(table), "--format", "document"]) == 0
    assert ModelComparison.from_json(capsys.readouterr().out) == ModelComparison.from_csv(table)
    comparison = ModelComparison.from_csv(table)
    assert main(["compare", str(table), "--format", "json", "--test", "wilcoxon", "--alpha", "0.1"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["average_ranks"] == dict(zip(MODELS, comparison.ranks.tolist())) and found["ranked"][0] == comparison.best
    assert round(found["friedman"]["statistic"], 3) == 9.279 and found["friedman"]["df"] == [3]  # Demšar (2006), section 3.2.2
    assert found["iman_davenport"]["p_value"] == comparison.iman_davenport().p_value
    assert found["critical_difference"] == {"nemenyi": comparison.critical_difference(0.1), "bonferroni-dunn": comparison.critical_difference(0.1, "bonferroni-dunn")}
    assert found["cliques"] == [list(clique) for clique in comparison.cliques(0.1)]
    wilcoxon = comparison.pairwise("wilcoxon")
    assert [(pair["first"], pair["second"], pair["p_value"], pair["significant"]) for pair in found["pairwise"]["pairs"]] == [
        (first, second, wilcoxon.p_value(first, second), wilcoxon.p_value(first, second) <= 0.1) for first, second in combinations(MODELS, 2)]
    assert found["pairwise"]["correction"] == "holm" and found["alpha"] == 0.1
    assert main(["compare", str(table), "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert {row["model"]: float(row["value"]) for row in rows if row["quantity"] == "average_rank"} == found["average_ranks"]
    assert float(next(row["value"] for row in rows if row["quantity"] == "friedman_p_value")) == comparison.friedman().p_value
    nemenyi = comparison.pairwise()
    assert [(row["model"], row["other"], float(row["value"])) for row in rows if row["quantity"] == "p_value"] == [
        (first, second, nemenyi.p_value(first, second)) for first, second in combinations(MODELS, 2)]
    files = []
    for name, guesses in {"a": "0110100", "b": "1010001", "c": "0110111"}.items():
        path = tmp_path / f"{name}.csv"
        path.write_text("actual,predicted\n" + "".join(f"{t},{p}\n" for t, p in zip("0110111", guesses)))
        files.append(str(path))
    assert main(["compare", *files]) == 0
    out = capsys.readouterr().out
    assert "1. c  1.000" in out and "mcnemar p-values (holm-adjusted)" in out
    assert main(["compare", *files, "--format", "json"]) == 0
    found = json.loads(capsys.readouterr().out)
    tests = PairwiseTests.from_predictions(list("0110111"), {"a": list("0110100"), "b": list("1010001"), "c": list("0110111")})
    assert found["ranked"] == ["c", "a", "b"] and found["estimates"] == dict(zip("abc", tests.estimates.tolist()))
    assert [pair["p_value"] for pair in found["pairs"]] == [tests.p_value(a, b) for a, b in combinations("abc", 2)]
    assert main(["compare", *files, "--format", "document"]) == 2
    assert "prediction files give json or csv" in capsys.readouterr().err
    for arguments, message in (([*files, "--html", str(tmp_path / "p.html")], "--html applies to a table of results"), ([*files, "--lower"], "--lower applies"),
                               ([*files, "--test", "wilcoxon"], "--test applies"), ([str(table), "--method", "bca"], "--method applies to prediction files"),
                               ([str(table), "--actual", "y"], "--actual applies to prediction files")):  # fmt: skip
        assert main(["compare", *arguments]) == 2, arguments  # (each was ignored: no page written, the default test run)
        assert message in capsys.readouterr().err
    assert not (tmp_path / "p.html").exists()
    assert main(["compare", files[0], str(table)]) == 2
    assert "no column" in capsys.readouterr().err


def test_the_diagram_the_p_value_matrix_and_the_posterior_draw():
    from evalkit import plots

    comparison = demsar()
    ax = plots.critical_difference(comparison, 0.10)
    assert ax.get_title() == "Nemenyi critical difference 1.12 at alpha 0.1 (14 data sets)"
    bars = [line for line in ax.collections if line.get_linewidth()[0] == 3]
    assert len(bars) == len(comparison.cliques(0.10)) == 2  # one thick bar per clique
    assert "C4.5+m+cf (1.96)" in [text.get_text() for text in ax.texts]
    matrix = plots.p_values(comparison.pairwise("wilcoxon", "holm"))
    assert len([text for text in matrix.texts if text.get_text()]) == 12  # every pair, both sides
    posterior = plots.posterior(comparison.bayesian("C4.5+m+cf", "C4.5", rope=0.01, random_state=0, n_samples=2000))
    assert posterior.get_title() == "Bayesian signed-rank test, rope 0.01"
    with pytest.raises(EvalkitError, match="sampled BayesianComparison"):
        plots.posterior(bayesian.correlated_t_test(FIRST, SECOND, folds=10))


def test_the_html_page_holds_the_table_the_diagram_and_the_p_values():
    comparison = ModelComparison({"<a>": [0.9, 0.8, 0.7], "b": [0.8, 0.8, 0.6], "c": [0.5, 0.6, 0.4]}, datasets=["x", "y", "z"])
    page = comparison.to_html(title="three <models>")
    assert page.startswith("<!DOCTYPE html>") and "http" not in page and "<script" not in page
    assert "<title>three &lt;models&gt;</title>" in page and "<th scope=\"col\">&lt;a&gt;</th>" in page
    assert "<td><b>0.900 (1.0)</b></td>" in page and "<td>0.800 (2.0)</td>" in page  # the best cell bold, as Markdown and LaTeX bold it
    assert page.count("<svg") == 1 and "CD = " in page and "Nemenyi p-values" in page
    assert page.count('stroke="#cf222e"') == len(comparison.cliques(0.05))


def test_a_document_that_is_no_comparison_is_a_format_error():
    from evalkit.exceptions import FormatError

    document = json.loads(demsar().to_json())
    broken = [{key: value for key, value in document.items() if key != "models"}, dict(document, values="x"),
              dict(document, values=[[1, 2, 3, "a"]] * 14), dict(document, models=[[1]] * 4), dict(document, direction="up"),
              dict(document, models=["only one"], values=[[0.5]] * 14), dict(document, dropped=[{}])]  # fmt: skip
    for bad in broken:
        with pytest.raises(FormatError):
            ModelComparison.from_json(json.dumps(bad))
