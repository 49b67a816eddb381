"""Bayesian comparisons of two models (Benavoli, Corani, Demšar & Zaffalon 2017, "Time for a
change: a tutorial for comparing multiple classifiers through Bayesian analysis", JMLR 18).

Each gives the probabilities that the first model is practically better, that the two are
practically equivalent (their difference lies within the region of practical equivalence,
``[-rope, rope]``) and that the second is better:

* Bayesian signed-rank test (Benavoli et al. 2014), over data sets: a Dirichlet process
  posterior of the differences ``d`` with a prior pseudo-observation at 0 of weight
  ``prior``; a posterior sample of weights ``w`` gives
  ``θ_second = Σ_ij w_i w_j H((d_i + d_j) / 2 - rope)`` (``H`` the step, ½ at 0), and
  likewise ``θ_first``; the probability of a region is the share of samples in which it is the
  largest of the three. Vectorised over the samples (two matrix products per chunk).
* Bayesian sign test, over data sets: a Dirichlet posterior of the counts of the three regions
  (``prior`` added to the equivalence region; every count gets ``1e-4``, as baycomp, so that a
  region never seen still has a proper posterior).
* Correlated Bayesian t-test (Corani & Benavoli 2015), over the folds of cross-validation on
  one data set: a Student posterior with mean ``mean(d)``, scale
  ``sqrt((1/n + n_test/n_train) s²)`` and ``n - 1`` degrees of freedom; the probabilities are
  its mass on each region, from the distribution function (no sampling).

Examples:
    >>> first = [0.91, 0.85, 0.77, 0.88, 0.93, 0.80, 0.86, 0.90]
    >>> second = [0.89, 0.84, 0.71, 0.85, 0.93, 0.78, 0.80, 0.86]
    >>> found = correlated_t_test(first, second, rope=0.01, folds=8)
    >>> [round(p, 3) for p in (found.first, found.equivalent, found.second)]
    [0.939, 0.057, 0.005]
"""

from __future__ import annotations

import math

import attrs
import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine._validation import RandomState, show
from evalkit._results._closed_form import _scipy_stats
from evalkit._results._resampling import check_random_state
from evalkit.comparisons._paired import _test_train_ratio, differences
from evalkit.exceptions import InvalidArgumentError

BAYESIAN_TESTS = ("signed-rank", "sign", "correlated-t")
"""The Bayesian tests: two over data sets, one over the folds of one data set."""

_CHUNK = 4096
"""Posterior samples drawn and reduced at a time (a chunk of weights stays in cache)."""

__all__ = ["BAYESIAN_TESTS", "BayesianComparison", "correlated_t_test", "sign_test", "signed_rank_test"]


@attrs.frozen
class BayesianComparison:
    """The posterior probabilities of "first better", "practically equivalent" and "second
    better" (they sum to 1).

    Attributes:
        first: the probability that the first model is practically better.
        equivalent: the probability that the two are practically equivalent.
        second: the probability that the second model is practically better.
        method: ``"signed-rank"``, ``"sign"`` or ``"correlated-t"``.
        rope: the half-width of the region of practical equivalence.
        samples: for the sampled tests, the posterior samples of ``(θ_first, θ_equivalent,
            θ_second)``, one row each (what a simplex plot draws); ``None`` otherwise.
    """

    first: float
    equivalent: float
    second: float
    method: str
    rope: float
    samples: np.ndarray | None = attrs.field(default=None, eq=False, repr=False)

    @property
    def probabilities(self) -> tuple[float, float, float]:
        """``(first, equivalent, second)``."""
        return self.first, self.equivalent, self.second

    def decision(self, threshold: float = 0.95) -> str | None:
        """``"first"``, ``"equivalent"`` or ``"second"`` when that probability reaches
        ``threshold``, else ``None`` (no decision: more data is needed).

        Examples:
            >>> BayesianComparison(0.97, 0.03, 0.0, "sign", 0.01).decision()
            'first'
        """
        for name, p in zip(("first", "equivalent", "second"), self.probabilities):
            if p >= threshold:
                return name
        return None


def _check_rope(rope: float) -> float:
    if isinstance(rope, bool) or not isinstance(rope, (int, float)) or not 0 <= rope < math.inf:
        raise InvalidArgumentError(f"'rope' must be a number >= 0, got {show(rope)}")
    return float(rope)


def _check_sampling(prior: float, n_samples: int) -> None:
    if isinstance(prior, bool) or not isinstance(prior, (int, float)) or not 0 <= prior < math.inf:
        raise InvalidArgumentError(f"'prior' must be a number >= 0, got {show(prior)}")
    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)) or n_samples < 1:
        raise InvalidArgumentError(f"'n_samples' must be a positive integer, got {show(n_samples)}")


def _winners(theta: np.ndarray, method: str, rope: float) -> BayesianComparison:
    """The share of posterior samples in which each region is the most probable."""
    counts = np.bincount(np.argmax(theta, axis=1), minlength=3) / len(theta)
    return BayesianComparison(float(counts[0]), float(counts[1]), float(counts[2]), method, rope, theta)


def signed_rank_test(
    first: ArrayLike, second: ArrayLike, *, rope: float = 0.0, prior: float = 0.5, n_samples: int = 50_000,
    random_state: RandomState = None, direction: str = "higher",
) -> BayesianComparison:  # fmt: skip
    """The Bayesian signed-rank test of paired scores, one per data set (Benavoli et al. 2017):
    each posterior sample draws Dirichlet weights ``w`` of the differences (and of a prior
    pseudo-observation at 0) and gives ``θ_first = Σ_ij w_i w_j H((d_i + d_j) / 2 - rope)``,
    ``H`` the step (½ at 0). With the differences sorted once, the ``j`` beyond the step of
    each ``i`` are a suffix, so a sample costs ``O(n)`` (a running sum of its weights), not the
    ``O(n²)`` of the double sum.

    Examples:
        >>> found = signed_rank_test([0.8, 0.7, 0.9, 0.75], [0.7, 0.6, 0.85, 0.7], rope=0.01, random_state=0)
        >>> found.first > 0.9
        True
    """
    rope = _check_rope(rope)
    _check_sampling(prior, n_samples)
    d = np.concatenate(([0.0], differences(first, second, direction)))  # the prior's pseudo-observation at 0
    order = np.argsort(d, kind="stable")
    d = d[order]
    sums = d[:, None] + d[None, :]  # each row ascending: float addition keeps the order
    # where each row crosses +2·rope (first better) and -2·rope (second better): before, at, after
    above_from, above_at = (sums < 2 * rope).sum(axis=1), (sums <= 2 * rope).sum(axis=1)
    below_to, below_at = (sums < -2 * rope).sum(axis=1), (sums <= -2 * rope).sum(axis=1)
    alpha = np.ones(d.size)
    alpha[np.flatnonzero(order == 0)[0]] = prior if prior > 0 else 1e-300  # no pseudo-observation: its weight vanishes
    rng = np.random.default_rng(check_random_state(random_state))
    theta = np.empty((n_samples, 3))
    running = np.zeros((d.size + 1, _CHUNK), dtype=np.float32)  # a column per sample: running sums add whole rows
    for start in range(0, n_samples, _CHUNK):
        size = min(_CHUNK, n_samples - start)
        weights = _gamma_draws(rng, alpha, size)  # Dirichlet draws before their normalisation: θ is a ratio of their sums
        sums = running[:, :size]
        for k in range(d.size):  # sums[k] = Σ_{j<k} w_j, a row at a time (several times numpy's cumsum along rows)
            np.add(sums[k], weights[k], out=sums[k + 1])
        total = sums[-1].astype(np.float64)
        # H summed over j: the weight after the crossing, and half the weight at it
        above, below = (_weighted_rows(weights, sums, before, at) for before, at in ((above_from, above_at), (below_to, below_at)))
        part = theta[start : start + size]
        part[:, 0] = 1.0 - 0.5 * above / total**2
        part[:, 2] = 0.5 * below / total**2
        part[:, 1] = 1.0 - part[:, 0] - part[:, 2]
    return _winners(theta, "signed-rank", rope)


def _weighted_rows(weights: np.ndarray, sums: np.ndarray, before: np.ndarray, at: np.ndarray) -> np.ndarray:
    """``Σ_i w_i (sums[before_i] + sums[at_i])`` of every sample (column): one gather of rows
    where no difference sits at the step (``before == at``), two where one does."""
    rows = sums[before]
    if (before == at).all():
        rows *= 2
    else:
        rows += sums[at]
    return np.einsum("ij,ij->j", weights, rows).astype(np.float64)


def _gamma_draws(rng: np.random.Generator, alpha: np.ndarray, size: int) -> np.ndarray:
    """``size`` independent gamma draws of each shape of ``alpha`` (a row each; normalised, a
    column is a Dirichlet draw), in single precision: where ``alpha`` is 1 (every data set) an
    exponential draw ``-log(1 - U)`` of a uniform ``U`` (twice as fast as numpy's ziggurat;
    single precision cuts its tail at 16.6, a probability of 6e-8); the probabilities they give
    are accurate to about 1e-7."""
    draws = rng.random((alpha.size, size), dtype=np.float32)
    np.log(np.subtract(1.0, draws, out=draws), out=draws)
    np.negative(draws, out=draws)
    for k in np.flatnonzero(alpha != 1.0):
        draws[k] = rng.standard_gamma(alpha[k], size, dtype=np.float32)
    return draws


def sign_test(
    first: ArrayLike, second: ArrayLike, *, rope: float = 0.0, prior: float = 1.0, n_samples: int = 50_000,
    random_state: RandomState = None, direction: str = "higher",
) -> BayesianComparison:  # fmt: skip
    """The Bayesian sign test of paired scores, one per data set."""
    rope = _check_rope(rope)
    _check_sampling(prior, n_samples)
    d = differences(first, second, direction)
    counts = np.array([(d > rope).sum(), 0, (d < -rope).sum()], dtype=np.float64)
    counts[1] = d.size - counts[0] - counts[2] + prior
    rng = np.random.default_rng(check_random_state(random_state))
    return _winners(rng.dirichlet(counts + 1e-4, n_samples), "sign", rope)


def correlated_t_test(
    first: ArrayLike, second: ArrayLike, *, rope: float = 0.0, folds: int | None = None, n_train: float | None = None,
    n_test: float | None = None, direction: str = "higher",
) -> BayesianComparison:  # fmt: skip
    """The correlated Bayesian t-test of per-fold scores of two models on one data set (``folds``
    of k-fold cross-validation, repeated or not, or the split sizes ``n_train`` and ``n_test``)."""
    rope = _check_rope(rope)
    d = differences(first, second, direction)
    ratio = _test_train_ratio(d.size, folds, n_train, n_test)
    mean, n = float(d.mean()), d.size
    scale = math.sqrt((1 / n + ratio) * float(np.var(d, ddof=1)))
    if scale == 0:
        first_p, second_p = float(mean > rope), float(mean < -rope)
        if rope == 0 and mean == 0:
            first_p = second_p = 0.5
    else:
        t = _scipy_stats().t
        first_p, second_p = float(t.sf(rope, n - 1, mean, scale)), float(t.cdf(-rope, n - 1, mean, scale))
    return BayesianComparison(first_p, max(0.0, 1.0 - first_p - second_p), second_p, "correlated-t", rope)
