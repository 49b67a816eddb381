"""Confidence sequences: intervals that hold at every sample size at once.

A fixed-n interval (Wilson, Clopper-Pearson, the bootstrap) covers the true value with its
level at the one sample size it was planned for. Read again after every batch of a stream, it
misses the true value at some time far more often than its level says. A confidence sequence
covers the true value at all sample sizes simultaneously with its level (S. R. Howard,
A. Ramdas, J. McAuliffe and J. Sekhon, "Time-uniform, nonparametric, nonasymptotic confidence
sequences", Annals of Statistics, 2021), so it may be read as often as one likes:

* ``beta_binomial_bounds``: the conjugate beta-binomial mixture of Howard et al. (2021) for a
  proportion of whole counts (Bernoulli trials), exact at every n: the values ``p`` whose
  mixture martingale ``M(p) = B(a + S, b + F) / (B(a, b) p^S (1 - p)^F)`` stays below
  ``1/alpha``, with ``S`` successes, ``F`` failures and the beta mixture centred on ``p``
  (``a = r/(1 - p)``, ``b = r/p``); the numbers of the ``confseq`` package's
  ``bernoulli_confidence_interval``.
* ``normal_mixture_radius``: the two-sided normal mixture boundary, which with the delta-method
  standard deviation of a measure gives the asymptotic confidence sequence of I. Waudby-Smith,
  D. Arnold, J. M. Wu, J. McAuliffe and A. Ramdas, "Time-uniform central limit theory and
  asymptotic confidence sequences" (Annals of Statistics, 2024):
  ``estimate ± sigma * sqrt((n + rho) (log(1 + n/rho) + 2 log(1/alpha))) / n``.

Both are tuned by ``tuning``, the number of samples where the sequence is narrowest (``rho =
tuning / (2 log(1/alpha) + log(1 + 2 log(1/alpha)))``, Howard et al.'s choice): it is fixed
before the data are seen, never taken from them, or the sequence would lose its guarantee. The
default, ``DEFAULT_TUNING``, keeps the width within 1.8 times a fixed-n interval's from 1,000 to
100,000 samples.

Examples:
    >>> low, high = beta_binomial_bounds(850, 1000, 0.95)     # Wilson's, for this n only: [0.8265, 0.8708]
    >>> round(low, 4), round(high, 4)
    (0.812, 0.8834)
"""

from __future__ import annotations

import math

from evalkit._engine._validation import show
from evalkit.exceptions import InvalidArgumentError, InvalidTypeError, UnsupportedSettingError

__all__ = ["DEFAULT_TUNING", "FEWEST_SAMPLES", "beta_binomial_bounds", "beta_binomial_p_value", "check_tuning", "mixture_scale", "normal_mixture_p_value", "normal_mixture_radius", "sequence_bounds"]

DEFAULT_TUNING = 3000
"""The number of samples where a confidence sequence is narrowest, unless one is given."""

FEWEST_SAMPLES = 100
"""Samples an asymptotic sequence is read from first, where a stream reads it to decide (a
sequential test, a monitor): the delta method's spread of a handful of samples can be near 0,
and a decision taken on it would stand."""

MOST_TRIALS = 2**40
"""The most samples (or trials) a sequence is computed of, about 1.1e12: beyond, float64 holds
neither the beta-binomial martingale's sums of logarithms nor the jackknife's differences of
one sample to the precision the bounds need."""


def _check_size(n: float) -> None:
    if n > MOST_TRIALS:
        raise UnsupportedSettingError(f"a confidence sequence of {n:,.0f} samples is beyond the 2**40 ({MOST_TRIALS:,}) it is computed of: float64 holds "
                                      "its sums no more to the precision its bounds need; read a fixed-n interval (method='wilson')")  # fmt: skip


def check_tuning(tuning: object) -> float:
    """``tuning`` as a float, a number of samples >= 1.

    Raises:
        InvalidTypeError: not a real number.
        InvalidArgumentError: below 1, or not finite.
    """
    if isinstance(tuning, bool) or not isinstance(tuning, (int, float)) and not hasattr(tuning, "__float__"):
        raise InvalidTypeError(f"'tuning' must be a number of samples, got {show(tuning)}")
    value = float(tuning)  # type: ignore[arg-type]
    if not (1.0 <= value < math.inf):
        raise InvalidArgumentError(f"'tuning' must be a number of samples of at least 1, got {show(tuning)}")
    return value


def mixture_scale(tuning: float, alpha: float) -> float:
    """``rho``, the scale of the mixture that makes the normal mixture boundary narrowest at
    ``tuning`` (in samples of variance 1): ``tuning / (2 log(1/alpha) + log(1 + 2 log(1/alpha)))``.

    Examples:
        >>> round(mixture_scale(1000, 0.05), 2)
        126.01
    """
    spread = 2 * math.log(1 / alpha)
    return tuning / (spread + math.log(1 + spread))


def normal_mixture_radius(n: float, alpha: float, tuning: float) -> float:
    """The half-width, per unit of standard deviation, of the two-sided normal mixture
    confidence sequence after ``n`` samples: ``sqrt((n + rho) (log(1 + n/rho) + 2 log(1/alpha))) / n``
    (infinite at ``n = 0``).

    Examples:
        >>> round(normal_mixture_radius(3000, 0.05, 3000) * math.sqrt(3000), 3)   # at a fixed n: 1.96
        3.035
    """
    if n <= 0:
        return math.inf
    rho = mixture_scale(tuning, alpha)
    return math.sqrt((n + rho) * (math.log1p(n / rho) + 2 * math.log(1 / alpha))) / n


def sequence_bounds(estimate: float, n: float, spread: float, level: float, tuning: float = DEFAULT_TUNING) -> tuple[float, float]:
    """The asymptotic sequence's bounds: ``estimate ± spread · normal_mixture_radius(n)``, NaN
    where the spread is 0 or undefined (no variation to grow the sequence from).

    Examples:
        >>> [round(bound, 4) for bound in sequence_bounds(0.85, 1000, 0.357, 0.95)]
        [0.8142, 0.8858]
    """
    _check_size(n)
    if not spread > 0 or math.isnan(estimate):
        return math.nan, math.nan
    radius = spread * normal_mixture_radius(n, 1 - level, tuning)
    return estimate - radius, estimate + radius


def _log_beta(a: float, b: float) -> float:
    return math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)


def _log_mixture(p: float, successes: float, failures: float, alpha: float, tuning: float) -> float:
    """``log M(p)``, the beta-binomial mixture martingale of the value ``p`` (see the module)."""
    spread = p * (1 - p)
    r = max(mixture_scale(spread * tuning, alpha) - spread, 1e-3 * spread)  # Howard et al.'s mixture, centred on p
    a, b = r / (1 - p), r / p
    return _log_beta(a + successes, b + failures) - _log_beta(a, b) - successes * math.log(p) - failures * math.log1p(-p)


_NEAR_0, _NEAR_1 = 1e-300, math.nextafter(1.0, 0.0)
"""The values nearest 0 and 1 where ``log M`` is evaluated (it is infinite at 0 and 1 but for
a weak mixture, whose limit there stays finite)."""


def _crossing(share: float, guess: float, end: float, successes: float, failures: float, alpha: float, tuning: float) -> float:
    """The value between ``share`` (where ``log M`` is at most 0) and ``end`` (0 or 1) where
    ``log M`` crosses ``log(1/alpha)``: bracketed by ``guess`` (the normal approximation's
    bound), then the Illinois variant of regula falsi, which keeps a bracket at every step and
    converges superlinearly; ``end`` itself where ``log M`` never reaches the line (a weak
    mixture, tuned at few trials)."""
    above = math.log(1 / alpha)

    def excess(p: float) -> float:
        return _log_mixture(min(max(p, _NEAR_0), _NEAR_1), successes, failures, alpha, tuning) - above

    inner, f_inner = share, excess(share)
    outer, f_outer = guess, excess(guess)
    for step in range(4):  # the bound lies beyond the guess: step out twice as far from the share, then to the end
        if f_outer > 0:
            break
        inner, f_inner = outer, f_outer
        farther = share + 2 * (outer - share)
        outer = farther if step < 3 and min(share, end) < farther < max(share, end) else (outer + end) / 2 if step < 3 else end
        f_outer = excess(outer)
    if f_outer <= 0:
        return end
    trials = successes + failures
    noise = 1e-15 * trials * (1 + math.log1p(trials)) + 1e-13  # the rounding of log M's sums of logs and lgammas
    side = 0
    for _ in range(100):
        if abs(outer - inner) <= 4e-16 * max(1.0, abs(outer)):
            break
        middle = (inner * f_outer - outer * f_inner) / (f_outer - f_inner)
        if not min(inner, outer) < middle < max(inner, outer):
            middle = (inner + outer) / 2
        value = excess(middle)
        if abs(value) <= noise:
            return middle
        if value > 0:
            outer, f_outer = middle, value
            if side == 1:
                f_inner /= 2
            side = 1
        else:
            inner, f_inner = middle, value
            if side == -1:
                f_outer /= 2
            side = -1
    return (inner + outer) / 2


def beta_binomial_bounds(successes: float, trials: float, level: float, tuning: float = DEFAULT_TUNING) -> tuple[float, float]:
    """The beta-binomial confidence sequence of a proportion after ``successes`` out of
    ``trials`` whole counts, at ``level``, narrowest at ``tuning`` trials: the values ``p`` with
    ``M(p) < 1/(1 - level)`` (see the module). ``(0, 1)`` before any trial.

    Examples:
        >>> low, high = beta_binomial_bounds(0, 1000, 0.95)
        >>> low, round(high, 4)
        (0.0, 0.0058)
    """
    alpha = 1 - level
    _check_size(trials)
    if trials <= 0:
        return 0.0, 1.0
    failures = trials - successes
    share = successes / trials
    width = math.sqrt(max(share * (1 - share), 1 / trials)) * normal_mixture_radius(trials, alpha, tuning)  # the asymptotic sequence's
    low = 0.0 if successes <= 0 else _crossing(share, max(share - width, share / 2), 0.0, successes, failures, alpha, tuning)
    high = 1.0 if failures <= 0 else _crossing(share, min(share + width, (1 + share) / 2), 1.0, successes, failures, alpha, tuning)
    return low, high


def beta_binomial_p_value(successes: float, trials: float, p: float, alpha: float, tuning: float = DEFAULT_TUNING) -> float:
    """The anytime-valid p-value of "the proportion is ``p``": ``min(1, 1/M(p))``, the mixture
    martingale of the beta-binomial sequence (tuned at ``tuning`` trials for the level ``1 -
    alpha``). By Ville's inequality it falls below ``alpha`` at some time with probability at
    most ``alpha`` when the proportion is ``p``, however often it is read; it is below
    ``alpha`` exactly where the sequence leaves ``p`` out.

    Examples:
        >>> round(beta_binomial_p_value(70, 100, 0.5, 0.05, tuning=100), 4)   # 70 of 100 discordant pairs for the first
        0.0019
    """
    _check_size(trials)
    if trials <= 0:
        return 1.0
    return min(1.0, math.exp(-_log_mixture(p, successes, trials - successes, alpha, tuning)))


def normal_mixture_p_value(difference: float, spread: float, n: float, alpha: float, tuning: float = DEFAULT_TUNING) -> float:
    """The anytime-valid p-value of "the value is ``estimate - difference``" from the
    two-sided normal mixture of the asymptotic sequence: ``1/E`` with ``log E = (n d/sigma)² /
    (2 (n + rho)) - log(1 + n/rho) / 2`` (``rho`` of ``tuning`` at the level ``1 - alpha``, so
    the p-value of the same data moves with the level: the mixture is tuned to it): below
    ``alpha`` exactly where the sequence leaves that value out; NaN with no spread (a sequence
    without bounds) unless the difference is 0.

    Examples:
        >>> round(normal_mixture_p_value(0.03, 0.4, 3000, 0.05), 4)
        0.0017
    """
    _check_size(n)
    if not (n > 0 and spread > 0) or math.isnan(difference):  # no spread: no evidence of a difference of 0 (1), none of another (NaN)
        return 1.0 if difference == 0 else math.nan
    rho = mixture_scale(tuning, alpha)
    log_e = (n * difference / spread) ** 2 / (2 * (n + rho)) - math.log1p(n / rho) / 2
    return min(1.0, math.exp(-log_e))
