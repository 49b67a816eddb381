"""The test suite's shared Hypothesis strategies and its one closeness helper.

Every property test draws its data here, so that a kind of data (labels, label sets,
indicator or degree arrays, counts, weights, scores) is generated one way across the suite.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st

LABELS = ["ant", "bee", "cat", "dog", "eel", "fox"]


def close(actual: float, expected: float, *, rel: float = 1e-12, abs: float = 1e-13) -> bool:
    """Equal up to rounding, NaN equal to NaN (an undefined value is the same in both)."""
    actual, expected = float(actual), float(expected)
    if math.isnan(expected) or math.isnan(actual):
        return math.isnan(expected) and math.isnan(actual)
    return actual == expected or math.isclose(actual, expected, rel_tol=rel, abs_tol=abs)


# --------------------------------------------------------------------------------------------
# labels


@st.composite
def predictions(draw, min_size=1):
    """Two equal-length label lists over a random subset of LABELS (strings) or of 0..5 (ints)."""
    k = draw(st.integers(1, len(LABELS)))
    pool = draw(st.sampled_from([LABELS[:k], list(range(k))]))
    n = draw(st.integers(min_size, 80))
    y_true = draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n))
    y_pred = draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n))
    return y_true, y_pred, pool


def single_label(values, max_size=30):
    """Two equal-length lists of ``values`` (1 to ``max_size`` samples)."""
    return st.integers(1, max_size).flatmap(
        lambda n: st.tuples(st.lists(values, min_size=n, max_size=n), st.lists(values, min_size=n, max_size=n))
    )


@st.composite
def indicator_pairs(draw, max_samples=30, max_labels=5):
    """Actual and predicted 0/1 indicator arrays (samples x labels), rows of any kind (empty too)."""
    n, m = draw(st.integers(1, max_samples)), draw(st.integers(1, max_labels))
    rows = st.lists(st.lists(st.integers(0, 1), min_size=m, max_size=m), min_size=n, max_size=n)
    return np.array(draw(rows)), np.array(draw(rows))


DEGREE = st.one_of(st.sampled_from([0.0, 0.25, 0.5, 1.0]), st.floats(0, 1, allow_subnormal=False).filter(lambda value: value == 0 or value >= 1e-70))
"""A degree in [0, 1], 0 and 1 among them; none in (0, 1e-70), where the t-norm's products and
the products of their sums (MCC, kappa) underflow float64 (errors-and-limits: the number range)."""


@st.composite
def degree_pairs(draw, max_samples=20, max_labels=4):
    """Actual and predicted degrees (``DEGREE``, samples x labels)."""
    n, m = draw(st.integers(1, max_samples)), draw(st.integers(1, max_labels))
    rows = st.lists(st.lists(DEGREE, min_size=m, max_size=m), min_size=n, max_size=n)
    return np.array(draw(rows)), np.array(draw(rows))


# --------------------------------------------------------------------------------------------
# weights


weights = st.one_of(st.none(), st.sampled_from(["int", "float"]))
"""What kind of sample weights a test uses: none, integer or float."""


def make_weight(kind, n, data):
    """``n`` sample weights of a kind drawn from ``weights`` (a positive total), or None."""
    if kind is None:
        return None
    element = st.integers(0, 4) if kind == "int" else st.one_of(st.just(0.0), st.floats(0.01, 5))
    weight = data.draw(st.lists(element, min_size=n, max_size=n))
    assume(sum(weight) > 0)
    return weight


# --------------------------------------------------------------------------------------------
# counts


counts = st.integers(min_value=0, max_value=10**6)
"""One cell count."""

cells = st.fixed_dictionaries({"tp": counts, "fp": counts, "fn": counts, "tn": counts})
"""The four cells of one class, by keyword."""

count_matrices = st.integers(1, 6).flatmap(
    lambda m: st.lists(st.lists(st.integers(0, 1000), min_size=m, max_size=m), min_size=m, max_size=m)
)
"""Square confusion matrices of 1 to 6 classes."""


# --------------------------------------------------------------------------------------------
# scores


score_values = st.one_of(
    st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]),
    st.floats(-3, 3, allow_nan=False, allow_subnormal=False),
)
"""Scores: drawn from a few values they make tied blocks; from many, mostly distinct scores."""


@st.composite
def binary_case(draw, min_size=1):
    """Binary labels and one score per sample (sometimes all equal)."""
    n = draw(st.integers(min_size, 25))
    y_true = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    constant = draw(st.booleans()) and n > 1
    if constant:
        y_score = [draw(score_values)] * n
    else:
        y_score = draw(st.lists(score_values, min_size=n, max_size=n))
    return y_true, y_score


probability_values = st.one_of(
    st.sampled_from([0.0, 1.0, 0.5, 0.2, 0.3, 0.6, 0.7, 1 / 3, 2 / 3, 0.1, 14 / 15, 0.95]),  # bin edges of common bin counts
    st.floats(0, 1, allow_subnormal=False),
)
"""Probabilities: bin edges and the ends of [0, 1] often, so that ties at edges are tested."""


@st.composite
def binary_probabilities(draw, max_size=40):
    """Binary 0/1 labels and one probability of the positive class per sample."""
    n = draw(st.integers(1, max_size))
    y_true = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    y_prob = draw(st.lists(probability_values, min_size=n, max_size=n))
    return y_true, y_prob


@st.composite
def class_probabilities(draw, max_size=30, max_classes=4):
    """Labels 0..m-1 (every class present) and rows of probabilities summing to 1 (ties often)."""
    m = draw(st.integers(2, max_classes))
    n = draw(st.integers(m, max_size))
    rows = draw(st.lists(st.lists(st.sampled_from([0.0, 1.0, 2.0, 3.0]) | st.floats(0, 4, allow_subnormal=False), min_size=m, max_size=m)
                         .filter(lambda row: sum(row) > 0), min_size=n, max_size=n))  # fmt: skip
    probabilities = np.array(rows) / np.array(rows).sum(axis=1, keepdims=True)
    labels = list(range(m)) + draw(st.lists(st.integers(0, m - 1), min_size=n - m, max_size=n - m))
    return np.array(labels), probabilities


# --------------------------------------------------------------------------------------------
# numeric targets (regression)

_TARGET = st.one_of(  # squares within float64's normal range
    st.floats(-1e3, 1e3, allow_nan=False).filter(lambda value: value == 0 or abs(value) > 1e-100),
    st.sampled_from([0.0, -0.0, 0.1, 0.2, 0.3, 1e6 + 0.1, 1e-9]),
)
_EXTREME = st.one_of(_TARGET, st.sampled_from([1e100, -3e120, 1e-100, 5e-324, 2.0**-300]))  # beyond the exact float products, subnormal


@st.composite
def numeric_targets(draw, min_size=1, max_size=40, outputs=None, extreme=True):
    """True values, predictions (samples x outputs) and float weights (or None) of a regressor;
    ``extreme``: values whose squares leave float64's range too."""
    n = draw(st.integers(min_size, max_size))
    k = outputs if outputs is not None else draw(st.integers(1, 3))
    value = _EXTREME if extreme else _TARGET
    y = np.array(draw(st.lists(st.lists(value, min_size=k, max_size=k), min_size=n, max_size=n)), dtype=np.float64)
    p = np.array(draw(st.lists(st.lists(value, min_size=k, max_size=k), min_size=n, max_size=n)), dtype=np.float64)
    weights = st.sampled_from([0.0, 1.0, 0.1, 1e-90]) if extreme else st.sampled_from([0.0, 1.0, 0.1, 3.0])
    weight = draw(st.one_of(st.none(), st.lists(st.one_of(st.floats(0, 10), weights), min_size=n, max_size=n)))
    return y, p, None if weight is None else np.array(weight)
