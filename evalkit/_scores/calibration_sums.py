"""The sums a calibration is read from: binning scores (equal width, equal mass), the eight sums
of each bin, calibration errors from them (binned, debiased, isotonic), the Brier score and its
decomposition.

Calibration (evalkit._scores.calibration) is their public face.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from evalkit._engine import serialization
from evalkit._engine._exact import (
    LIMBS,
    ExactSums,
    add_limbs,
    difference,
    float_limbs,
    ints_to_limbs,
    limbs_to_floats,
    limbs_to_ints,
)
from evalkit._engine._types import ScoresLike
from evalkit._engine._validation import show
from evalkit.exceptions import (
    InvalidArgumentError,
    UnsupportedSettingError,
)

DEFAULT_BINS = 15
"""The number of bins when none is given (Guo et al., 2017; torchmetrics' default)."""


MAX_BINS = 1 << 24
"""The most bins an error may be computed over (``n_bins``)."""


NORMS = ("l1", "l2", "max")


STRATEGIES = ("uniform", "quantile")


ESTIMATORS = ("binned", "debiased", "isotonic")


_ERFC = np.frompyfunc(math.erfc, 1, 1)


_EPS = float(np.finfo(np.float64).eps)  # log loss clips scores to [eps, 1 - eps], as scikit-learn's log_loss


_SUM_TOLERANCE = float(np.sqrt(np.finfo(np.float32).eps))  # rows of probabilities sum to 1 within float32 rounding


_CHUNK = 1 << 16


def _check_bins(n_bins: Any, name: str = "n_bins", most: int = MAX_BINS) -> int:
    if isinstance(n_bins, bool) or not isinstance(n_bins, (int, np.integer)) or not 1 <= n_bins <= most:
        raise InvalidArgumentError(f"{name!r} must be an integer in 1..{most:,}, got {show(n_bins)}")
    return int(n_bins)


def uniform_bins(scores: ScoresLike, n_bins: int) -> np.ndarray:
    """The equal-width bin of each score in [0, 1], ``0 .. n_bins - 1``: bin ``k`` holds
    ``(e_k, e_{k+1}]`` and the first one ``[0, e_1]``, for ``e = np.linspace(0, 1, n_bins + 1)``
    (scikit-learn's ``np.searchsorted(e[1:-1], scores)``, found without a search).

    Examples:
        >>> uniform_bins(np.array([0.0, 0.2, 0.21, 0.5, 1.0]), 5).tolist()
        [0, 0, 1, 2, 4]
    """
    scores = np.asarray(scores, dtype=np.float64)
    binner = _Binner(n_bins, len(scores))
    out = np.empty(len(scores), dtype=np.intp)
    for start in range(0, len(scores), _CHUNK):
        out[start : start + _CHUNK] = binner.keys(scores[start : start + _CHUNK], None)
    return out


class _Binner:
    """Equal-width bins of chunks of scores, in buffers reused chunk after chunk (fresh
    temporaries of every chunk would cost more in page faults than the arithmetic).

    A score's bin is ``ceil(score * M) - 1`` (right-closed); it can differ from the bin of
    numpy's ``linspace`` edges only when ``score * M`` lies within rounding (``4 eps M``) of an
    integer, and those few scores are found by a search."""

    def __init__(self, n_bins: int, size: int) -> None:
        self.n_bins = n_bins
        self.inner = np.linspace(0.0, 1.0, n_bins + 1)[1:-1]
        self.tolerance = 4 * _EPS * n_bins
        size = max(1, min(size, _CHUNK))
        self.scaled, self.distance = np.empty(size), np.empty(size)
        self.key, self.near = np.empty(size, dtype=np.intp), np.empty(size, dtype=bool)

    def keys(self, chunk: np.ndarray, hit: np.ndarray | None) -> np.ndarray:
        """The bin of each score of a chunk (at most ``_CHUNK`` long), or ``2 * bin + hit``. A
        score outside [0, 1] (NaN too) gets a key outside ``0 .. 2M - 1``: negative, or past
        the end."""
        m = len(chunk)
        scaled, distance, key, near = self.scaled[:m], self.distance[:m], self.key[:m], self.near[:m]
        with np.errstate(invalid="ignore", over="ignore"):  # NaN, infinities and huge scores become keys out of range, found by the caller
            np.multiply(chunk, self.n_bins, out=scaled)
            np.rint(scaled, out=distance)
            np.subtract(scaled, distance, out=distance)
            np.abs(distance, out=distance)
            np.less_equal(distance, self.tolerance, out=near)  # a score of 0 too: its bin is found by the search
            np.ceil(scaled, out=scaled)
            step = 1 if hit is None else 2
            if hit is not None:
                scaled *= 2
                scaled += hit
            np.copyto(key, scaled, casting="unsafe")
        key -= step
        odd = np.flatnonzero(near)
        if len(odd):
            found = np.searchsorted(self.inner, chunk[odd])
            outside = (chunk[odd] < 0) | (chunk[odd] > 1)
            key[odd] = np.where(outside, -1, step * found + (0 if hit is None else hit[odd]))
        return key


def quantile_edges(scores: ScoresLike, weights: Any, n_bins: int) -> np.ndarray:
    """Equal-mass bin edges of distinct ``scores`` (increasing) seen ``weights`` times each:
    numpy's linear percentiles ``np.percentile(samples, np.linspace(0, 1, n_bins + 1) * 100)``
    of the samples the weights repeat (scikit-learn's ``strategy="quantile"``), computed from
    the counts; a fractional weight is that share of a sample.

    Examples:
        >>> quantile_edges([0.1, 0.4, 0.9], [2, 1, 1], 2).tolist()
        [0.1, 0.25, 0.9]
    """
    scores, weights = np.asarray(scores, dtype=np.float64), np.asarray(weights, dtype=np.float64)
    if not len(scores) or not weights.sum() > 0:  # no sample that weighs anything: no edge
        return np.full(n_bins + 1, np.nan)
    q = np.true_divide(np.linspace(0, 1, n_bins + 1) * 100, 100)  # what np.percentile does with scikit-learn's argument
    ends = np.cumsum(weights)  # the samples of score j sit at positions ends[j-1] .. ends[j] - 1
    position = (ends[-1] - 1) * q
    below = np.floor(position)
    last = ends[-1] - 1
    at_end = position >= last
    low = np.where(at_end, last, np.maximum(below, 0))
    high = np.where(at_end, last, np.maximum(below + 1, 0))
    gamma = np.where(at_end | (position < 0), 0.0, position - below)
    a = scores[np.minimum(np.searchsorted(ends, low, side="right"), len(scores) - 1)]
    b = scores[np.minimum(np.searchsorted(ends, high, side="right"), len(scores) - 1)]
    difference = b - a  # numpy's _lerp: from the nearer end
    return np.where(gamma >= 0.5, b - difference * (1 - gamma), a + difference * gamma)


class _Sums(NamedTuple):
    """Sums over the samples of each group; every field is ``rows x groups``."""

    weight: np.ndarray  # Σ w
    score: np.ndarray  # Σ w c
    score_squared: np.ndarray  # Σ w c²
    hits: np.ndarray  # Σ w y
    score_hits: np.ndarray  # Σ w c y
    log_hits: np.ndarray  # Σ w y (-log c)
    log_misses: np.ndarray  # Σ w (1 - y)(-log(1 - c))
    spiegelhalter: np.ndarray  # Σ w (1 - 2c)² c (1 - c)

    @classmethod
    def of_scores(cls, scores: np.ndarray, weight: np.ndarray, hits: np.ndarray) -> _Sums:
        """The sums of groups of samples that share one score each (``weight`` and ``hits`` rows x scores)."""
        c = np.clip(scores, _EPS, 1 - _EPS)
        return cls(weight, weight * scores, weight * scores**2, hits, hits * scores, hits * -np.log(c),
                   (weight - hits) * -np.log1p(-c), weight * ((1 - 2 * scores) ** 2 * scores * (1 - scores)))  # fmt: skip

    @staticmethod
    def terms(scores: np.ndarray, positive: np.ndarray, weight: np.ndarray | None) -> tuple[np.ndarray, ...]:
        """Each sample's term of each of the eight sums."""
        w = np.ones(len(scores)) if weight is None else weight.astype(np.float64)
        y = np.where(positive, w, 0.0)
        c = np.clip(scores, _EPS, 1 - _EPS)
        return (w, w * scores, w * scores**2, y, y * scores, y * -np.log(c), (w - y) * -np.log1p(-c),
                w * ((1 - 2 * scores) ** 2 * scores * (1 - scores)))  # fmt: skip

    def grouped(self, starts: np.ndarray) -> _Sums:
        """Consecutive groups merged: group ``k`` of the result is ``starts[k] .. starts[k+1] - 1``
        (no start: no group, as for samples that all weigh 0)."""
        if not len(starts):
            return _Sums(*(np.zeros((len(field), 0)) for field in self))
        return _Sums(*(np.add.reduceat(field, starts, axis=1) for field in self))

    def row(self, r: int) -> _Sums:
        return _Sums(*(field[r : r + 1] for field in self))

    def to_array(self) -> np.ndarray:
        """The one row as an ``8 x groups`` array."""
        return np.stack([field[0] for field in self])


def _error(weight: np.ndarray, score: np.ndarray, hits: np.ndarray, norm: str, estimator: str) -> np.ndarray:
    """The calibration error of every row of bins (rows x bins: the weight, the score sum and
    the weight of the positives of each bin)."""
    total = weight.sum(axis=1)
    present = weight > 0
    size = np.where(present, weight, 1.0)
    gap = np.where(present, (hits - score) / size, 0.0)  # ȳ_b - c̄_b
    with np.errstate(invalid="ignore", divide="ignore"):
        if estimator == "binned":
            if norm == "max":
                return np.where(present.any(axis=1), np.where(present, np.abs(gap), -np.inf).max(axis=1, initial=-np.inf), np.nan)
            if norm == "l1":
                return np.abs(hits - score).sum(axis=1) / total
            return np.sqrt((weight * gap**2).sum(axis=1) / total)
        if not np.array_equal(weight, np.round(weight)):
            raise UnsupportedSettingError(
                "the debiased estimator counts samples (its noise term divides by n_b - 1): give integer sample weights "
                "(repeated samples) or none"
            )
        frequency = np.where(present, hits / size, 0.0)
        noise = frequency * (1 - frequency)
        several = weight > 1  # a bin of one sample has no estimate of its noise: it adds nothing
        if norm == "l2":
            correction = noise / np.where(several, weight - 1, 1.0)
            terms = np.where(several, weight * (gap**2 - correction), 0.0)
            squared = terms.sum(axis=1) / total
            scale = np.where(several, weight * (gap**2 + correction), 0.0).sum(axis=1) / total
            squared = np.where(np.abs(squared) <= 16 * np.finfo(np.float64).eps * scale, 0.0, squared)  # an exact 0 within its rounding is 0
            return np.sign(squared) * np.sqrt(np.abs(squared))
        spread = np.sqrt(noise / size)  # the standard deviation of ȳ_b
        noisy = spread > 0
        ratio = np.where(noisy, gap / np.where(noisy, spread, 1.0), 0.0)
        erfc = np.asarray(_ERFC(ratio / math.sqrt(2)), dtype=np.float64)  # 1 - 2Φ(-μ/σ) = 1 - erfc(μ/(σ√2))
        folded = np.where(noisy, spread * math.sqrt(2 / math.pi) * np.exp(-(ratio**2) / 2) + gap * (1 - erfc), np.abs(gap))  # E|d + Z|
        terms = np.where(several, weight * (2 * np.abs(gap) - folded), 0.0)
        return terms.sum(axis=1) / total


def _isotonic_fit(scores: np.ndarray, weight: np.ndarray, hits: np.ndarray) -> np.ndarray:
    """The pool-adjacent-violators fit of the outcomes on the (increasing) scores, per score."""
    try:
        from scipy.optimize import isotonic_regression
    except ImportError as error:  # pragma: no cover - the test extra installs scipy
        raise ImportError(f"the isotonic (binning-free) estimator needs scipy >= 1.12: pip install 'evalkit[stats]' ({error})") from None
    kept = weight > 0
    fit = np.full(len(scores), np.nan)
    if kept.any():
        fit[kept] = isotonic_regression(hits[kept] / weight[kept], weights=weight[kept]).x
    return fit


def _isotonic_error(scores: np.ndarray, sums: _Sums, norm: str) -> np.ndarray:
    out = np.empty(len(sums.weight))
    for r in range(len(out)):
        weight, hits = sums.weight[r], sums.hits[r]
        fit = _isotonic_fit(scores, weight, hits)
        kept = weight > 0
        distance = np.abs(scores[kept] - fit[kept])
        total = weight[kept].sum()
        if not total:
            out[r] = np.nan
        elif norm == "max":
            out[r] = distance.max()
        elif norm == "l1":
            out[r] = np.dot(weight[kept], distance) / total
        else:
            out[r] = math.sqrt(np.dot(weight[kept], distance**2) / total)
    return out


def _brier(sums: _Sums) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):  # no weight: undefined (NaN)
        return (sums.score_squared - 2 * sums.score_hits + sums.hits).sum(axis=1) / sums.weight.sum(axis=1)


def _decomposition(sums: _Sums, within: bool) -> np.ndarray:
    """``(reliability, resolution, uncertainty, within_variance, within_covariance)`` per row
    (rows x 5) of grouped sums; the within terms are 0 when each group is one score."""
    total = sums.weight.sum(axis=1, keepdims=True)
    present = sums.weight > 0
    size = np.where(present, sums.weight, 1.0)
    base = sums.hits.sum(axis=1, keepdims=True) / total
    with np.errstate(invalid="ignore", divide="ignore"):
        reliability = ((sums.score - sums.hits) ** 2 / size).sum(axis=1) / total[:, 0]
        resolution = (sums.weight * (sums.hits / size - base) ** 2).sum(axis=1) / total[:, 0]
        uncertainty = (base * (1 - base))[:, 0]
        if within:
            variance = (sums.score_squared - sums.score**2 / size).sum(axis=1) / total[:, 0]
            covariance = 2 * (sums.score_hits - sums.score * sums.hits / size).sum(axis=1) / total[:, 0]
        else:
            variance = covariance = np.zeros(len(total))
    return np.stack([reliability, resolution, uncertainty, variance, covariance], axis=1)


def _exact_row(row: Any, name: str, bins: int | None) -> np.ndarray:
    """One row of exact sums written as hexadecimal integers."""
    if not isinstance(row, list) or len(row) != bins or not all(isinstance(value, str) for value in row):
        raise serialization.FormatError(f"field {name!r} must list {bins} hexadecimal sums, got {show(row)}")
    try:
        return np.array([int(value, 16) for value in row], dtype=object)
    except ValueError:
        raise serialization.FormatError(f"field {name!r} must list hexadecimal sums, got {show(row)}") from None


def _rows(value: Any, count: int, name: str) -> list:
    if not isinstance(value, list) or len(value) != count:
        raise serialization.FormatError(f"field 'sums.{name}' must hold one row per label ({count})")
    return value


def _exact(scores: np.ndarray | None) -> np.ndarray:
    assert scores is not None  # the caller checked that the counts are exact
    return scores


def _binned_column(scores: np.ndarray, positive: np.ndarray, weight: np.ndarray | None, bins: int) -> np.ndarray:
    """The ``8 x bins`` sums of one column's samples in equal-width bins, exact (as limbs,
    ``8 x bins x LIMBS``: the same however the samples are batched), in chunks that stay in cache."""
    scores = np.asarray(scores, dtype=np.float64)
    binner = _Binner(bins, len(scores))
    total = ExactSums(8 * bins)
    whole = (0, 3) if weight is None else ()  # unweighted: the samples and the positives per bin are counts, exact in a bincount
    counted = np.zeros(8 * bins, dtype=np.int64)
    for start in range(0, len(scores), _CHUNK):
        part = slice(start, start + _CHUNK)
        chunk = scores[part]
        keys = binner.keys(chunk, None)
        terms = _Sums.terms(chunk, positive[part], None if weight is None else weight[part])
        floats = [k for k in range(len(terms)) if k not in whole]
        total.add(np.concatenate([keys + k * bins for k in floats]), np.concatenate([terms[k] for k in floats]))
        for k in whole:
            counted[k * bins : (k + 1) * bins] += np.bincount(keys, weights=terms[k], minlength=bins).astype(np.int64)
    total.add_counts(counted)
    return total.limbs().reshape(8, bins, LIMBS)


class BinSums:
    """The exact sums of a binned calibration's bins (``columns x 8 x bins``, as limbs of
    integers in units of ``2**-FLOAT_OFFSET``), a field of sums: added and taken away exactly
    (a part never added is refused), scaled to the grid they are kept on (each sum rounded once,
    half to even), written rounded under ``sums`` with the exact ones (hexadecimal) under
    ``exact_sums``.

    Examples:
        >>> one = BinSums(float_limbs(np.arange(8), np.full(8, 0.5), 8).reshape(1, 8, 1, -1))
        >>> limbs_to_floats(one.plus(one).minus(one, "sums").limbs).ravel().tolist() == [0.5] * 8
        True
    """

    __slots__ = ("limbs",)

    def __init__(self, limbs: np.ndarray) -> None:
        self.limbs = limbs

    def plus(self, other: BinSums) -> BinSums:
        return BinSums(add_limbs(self.limbs, other.limbs))

    def minus(self, other: BinSums, what: str) -> BinSums:
        """These sums without ``other``'s.

        Raises:
            InvalidCountsError: a sum of ``other`` above this one (where it must not be).
        """
        left = difference(np.array(limbs_to_ints(self.limbs), dtype=object), np.array(limbs_to_ints(other.limbs), dtype=object), "sums of a bin")
        return BinSums(ints_to_limbs(left.tolist()).reshape(self.limbs.shape))

    def scaled(self, factor: float) -> BinSums:
        numerator, denominator = factor.as_integer_ratio()
        scaled = []
        for number in limbs_to_ints(self.limbs):
            quotient, remainder = divmod(number * numerator, denominator)
            scaled.append(quotient + (2 * remainder > denominator or (2 * remainder == denominator and quotient % 2 == 1)))
        return BinSums(ints_to_limbs(scaled).reshape(self.limbs.shape))

    def equals(self, other: BinSums) -> bool:
        return limbs_to_ints(self.limbs) == limbs_to_ints(other.limbs)

    def document(self) -> dict[str, object]:
        rounded = limbs_to_floats(self.limbs)
        exact = np.array(limbs_to_ints(self.limbs), dtype=object).reshape(rounded.shape)
        return {"sums": {name: rounded[:, k, :].tolist() for k, name in enumerate(_Sums._fields)},  # each exact sum rounded
                "exact_sums": {name: [[hex(value) for value in row] for row in exact[:, k, :].tolist()] for k, name in enumerate(_Sums._fields)}}  # fmt: skip

    def read(self, document: dict[str, object], codes_below: int) -> BinSums:
        """Sums of as many columns and bins as these from a document: the exact ones
        (``exact_sums``), else the rounded ones (a document written before they were kept).

        Raises:
            FormatError: not one row of sums per column, of one sum per bin.
        """
        columns, _, bins = self.limbs.shape[:3]
        exact = document.get("exact_sums")
        if exact is not None:  # the exact sums (hexadecimal multiples of 2**-FLOAT_OFFSET)
            if not isinstance(exact, dict) or set(exact) != set(_Sums._fields):
                raise serialization.FormatError(f"field 'exact_sums' must hold {list(_Sums._fields)}")
            numbers = np.stack([np.stack([_exact_row(row, f"exact_sums.{name}[{j}]", bins) for j, row in enumerate(_rows(exact[name], columns, name))])
                                for name in _Sums._fields], axis=1)  # fmt: skip
            return BinSums(ints_to_limbs(numbers.ravel().tolist()).reshape((*numbers.shape, -1)))
        sums = serialization.field(document, "sums")
        if not isinstance(sums, dict) or set(sums) != set(_Sums._fields):
            raise serialization.FormatError(f"field 'sums' must hold {list(_Sums._fields)}")
        rounded = np.stack([np.stack([serialization.array(row, f"sums.{name}[{j}]", length=bins, integral=False)
                                      for j, row in enumerate(_rows(sums[name], columns, name))])
                            for name in _Sums._fields], axis=1)  # fmt: skip
        return BinSums(float_limbs(np.arange(rounded.size), rounded.ravel(), rounded.size).reshape((*rounded.shape, -1)))
