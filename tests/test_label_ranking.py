"""Label ranking and losses of scores equal scikit-learn's: coverage error, label ranking average
precision and loss, DCG and NDCG (ties, k, weights), hinge loss, D² of the log loss and of the
Brier score, the area under any curve.

scikit-learn is the oracle (values, refusals and UndefinedMetricWarning, through
``oracle.compare``); each ranking measure is also checked against its definition computed one
sample and one pair of labels at a time in exact fractions.
"""

import warnings
from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from oracle import compare, oracle

from evalkit import metrics as ek
from evalkit._scores import ranking
from evalkit.exceptions import EvalkitError, UndefinedMetricWarning


@st.composite
def ranked(draw, graded=False):
    """(relevance, scores, weights): scores from a few values, so that ties are common."""
    n, m = draw(st.integers(1, 8)), draw(st.integers(2, 6))
    relevance = draw(arrays(np.int64, (n, m), elements=st.integers(0, 4 if graded else 1)))
    scores = draw(arrays(np.float64, (n, m), elements=st.sampled_from([0.0, 0.25, 0.5, 0.5, 1.0, -2.0, 3.5])))
    weight = draw(st.none() | arrays(np.float64, n, elements=st.floats(0.1, 5)))
    return relevance, scores, weight


@given(ranked())
@oracle
def test_multi_label_ranking_measures_equal_scikit_learns(case):
    relevance, scores, weight = case
    for name in ("coverage_error", "label_ranking_average_precision_score", "label_ranking_loss"):
        compare(name, relevance, scores, sample_weight=weight)
        compare(name, sp.csr_matrix(relevance), scores, sample_weight=weight) if name != "coverage_error" else None


@given(ranked(graded=True), st.sampled_from([None, 1, 2, 4]), st.booleans())
@oracle
def test_dcg_and_ndcg_equal_scikit_learns(case, k, ignore_ties):
    gains, scores, weight = case
    compare("dcg_score", gains, scores, k=k, ignore_ties=ignore_ties, sample_weight=weight)
    compare("dcg_score", gains, scores, k=k, log_base=10, ignore_ties=ignore_ties, sample_weight=weight)
    compare("ndcg_score", gains, scores, k=k, ignore_ties=ignore_ties, sample_weight=weight)


def definitions(relevant, scores):
    """Coverage, LRAP and ranking loss of one sample by their definitions, in fractions."""
    m = len(scores)
    rank = [sum(1 for k in range(m) if scores[k] >= scores[j]) for j in range(m)]
    chosen = [j for j in range(m) if relevant[j]]
    others = [j for j in range(m) if not relevant[j]]
    coverage = max((rank[j] for j in chosen), default=0)
    if not chosen or not others:
        return coverage, Fraction(1), Fraction(0)
    precision = sum(Fraction(sum(1 for k in chosen if scores[k] >= scores[j]), rank[j]) for j in chosen) / len(chosen)
    wrong = sum(1 for j in chosen for k in others if scores[k] >= scores[j])
    return coverage, precision, Fraction(wrong, len(chosen) * len(others))


@given(ranked())
def test_ranking_measures_equal_their_definitions(case):
    relevance, scores, _ = case
    found = ranking.coverage(relevance, scores), ranking.ranking_average_precision(relevance, scores), ranking.ranking_loss(relevance, scores)
    for i in range(len(relevance)):
        expected = definitions(relevance[i].tolist(), scores[i].tolist())
        assert found[0][i] == expected[0]
        assert found[1][i] == pytest.approx(float(expected[1]), abs=1e-15) and found[2][i] == pytest.approx(float(expected[2]), abs=1e-15)


def test_tie_averaged_dcg_is_the_mean_over_orderings_of_the_ties():
    """McSherry and Najork: a tied run shares the mean of its gains; equivalently, the mean DCG
    over every order of the tied labels."""
    from itertools import permutations

    gains, scores = np.array([[3, 0, 2, 1]]), np.array([[0.5, 0.5, 0.5, 0.1]])
    discount = 1 / np.log2(np.arange(4) + 2)
    orders = [[*order, 3] for order in permutations(range(3))]
    mean = np.mean([sum(gains[0, j] * discount[r] for r, j in enumerate(order)) for order in orders])
    assert ranking.dcg(gains, scores)[0] == pytest.approx(mean, rel=1e-15)


@pytest.mark.parametrize(
    ("function", "args", "kwargs"),
    [
        ("coverage_error", ([[0, 1, 2]], [[0.1, 0.2, 0.3]]), {}),  # multiclass-multioutput
        ("coverage_error", ([[0, 1]], [[0.1, 0.2, 0.3]]), {}),  # shapes
        ("label_ranking_loss", ([[0.5, 1.0]], [[0.1, 0.2]]), {}),  # continuous
        ("label_ranking_average_precision_score", ([[1, 0]], [[0.1, np.nan]]), {}),
        ("dcg_score", ([1, 0, 2], [0.1, 0.2, 0.3]), {}),  # 1-D
        ("ndcg_score", ([[1, -1, 2]], [[0.1, 0.2, 0.3]]), {}),  # negative gains
        ("ndcg_score", ([[1], [0]], [[0.1], [0.2]]), {}),  # one document
        ("dcg_score", ([[1, 0, 2]], [[0.1, 0.2, 0.3]]), {"k": 0}),
        ("hinge_loss", ([0, 1, 2], [0.1, 0.2, 0.3]), {}),  # 1-D decisions of three classes
        ("hinge_loss", ([0, 1, 2], [[0.1, 0.2], [0.3, 0.1], [0.2, 0.2]]), {}),
        ("auc", ([0.0, 1.0, 0.5], [0.0, 1.0, 1.0]), {}),  # not monotonic
        ("auc", ([0.0], [1.0]), {}),
        ("d2_log_loss_score", ([0, 1], [[0.5, 0.5]]), {}),  # lengths
    ],
)
def test_what_scikit_learn_refuses_is_refused_with_a_value_error(function, args, kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compare(function, *args, **kwargs)
        with pytest.raises(EvalkitError):
            getattr(ek, function)(*args, **kwargs)


# --------------------------------------------------------------------------------------------
# losses of scores, D², area


@given(st.integers(2, 12), st.integers(2, 4), st.integers(0, 2**32 - 1), st.booleans())
@oracle
def test_hinge_loss_and_d2_scores_equal_scikit_learns(n, m, seed, weighted):
    rng = np.random.default_rng(seed)
    weight = rng.random(n) + 0.1 if weighted else None
    y = rng.integers(0, m, n)
    decision = rng.normal(size=(n, m)) if m > 2 else rng.normal(size=n)
    compare("hinge_loss", y, decision, sample_weight=weight)
    compare("hinge_loss", y, decision, labels=list(range(m)), sample_weight=weight) if m > 2 else None
    compare("hinge_loss", np.where(y > 0, "yes", "no"), rng.normal(size=n), sample_weight=weight)
    if len(set(y.tolist())) == 1:
        return  # D² is undefined (the null model is perfect): scikit-learn gives -inf or a raw ZeroDivisionError, evalkit NaN (tested below)
    probabilities = rng.dirichlet(np.ones(m), n)
    compare("d2_log_loss_score", y, probabilities, sample_weight=weight, labels=list(range(m)))
    compare("d2_brier_score", y, probabilities, sample_weight=weight, labels=list(range(m)))
    binary = (y > 0).astype(int)
    if len(set(binary.tolist())) == 1:
        return
    compare("d2_brier_score", binary, probabilities[:, 0], sample_weight=weight)
    compare("d2_log_loss_score", binary, np.column_stack([1 - probabilities[:, 0], probabilities[:, 0]]), sample_weight=weight)


def test_d2_of_one_sample_is_nan_with_scikit_learns_warning():
    for function in (ek.d2_log_loss_score, ek.d2_brier_score):
        with pytest.warns(UndefinedMetricWarning, match="less than two samples"):
            assert np.isnan(function([1], [[0.2, 0.8]]))


def test_d2_is_undefined_when_the_null_model_is_perfect():
    with pytest.warns(UndefinedMetricWarning, match="null model is perfect"):
        assert np.isnan(ek.d2_brier_score([1, 1, 1], [0.2, 0.8, 0.9]))


@given(arrays(np.float64, st.integers(2, 20), elements=st.floats(-5, 5)), st.integers(0, 2**32 - 1))
def test_auc_equals_scikit_learns(y, seed):
    x = np.sort(np.random.default_rng(seed).random(len(y)))
    compare("auc", x, y)
    compare("auc", x[::-1], y[::-1])


def test_hamming_loss_is_the_mean_of_the_mismatches():
    """scikit-learn computes it as a mean; 1 - accuracy rounds twice."""
    assert ek.hamming_loss([0, 1, 1], [0, 0, 1]) == 1 / 3 == 0.3333333333333333
    compare("hamming_loss", [0, 1, 1], [0, 0, 1])


def test_a_dense_and_a_sparse_indicator_matrix_go_together():
    dense, sparse = np.array([[1, 0, 1], [0, 1, 0]]), sp.csr_matrix(np.array([[1, 1, 0], [0, 1, 0]]))
    for function in ("multilabel_confusion_matrix", "hamming_loss"):
        assert np.array_equal(getattr(ek, function)(dense, sparse), getattr(ek, function)(dense, sparse.toarray()))
        assert np.array_equal(getattr(ek, function)(sparse, dense), getattr(ek, function)(sparse.toarray(), dense))
    assert ek.f1_score(dense, sparse, average="micro") == ek.f1_score(dense, sparse.toarray(), average="micro")


def test_all_zero_weights_are_refused_not_divided_by():
    with pytest.raises(ValueError, match=r"'sample_weight' must hold at least one weight above 0 .* got \[0, 0\]"):
        ek.log_loss([0, 1], [0.2, 0.7], sample_weight=[0, 0])
    with pytest.raises(ValueError, match=r"'sample_weight' must hold at least one weight above 0 .* got \[0\]"):
        ek.coverage_error([[1, 0]], [[0.2, 0.7]], sample_weight=[0])
