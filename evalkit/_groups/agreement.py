"""Agreement among raters: how much several raters (annotators, LLM judges) agree on items.

Two constructors, so that the two tables are never confused:

- ``Agreement.from_ratings(ratings)``: items x raters, one rating per cell, missing ratings
  allowed (``None`` or NaN);
- ``Agreement.from_counts(counts)``: items x categories, how many raters put each item in
  each category (statsmodels' ``fleiss_kappa`` table).

With ``n_ic`` the raters putting item ``i`` in category ``c``, ``r_i = Σ_c n_ic`` its ratings,
``P_i = Σ_c n_ic (n_ic - 1) / (r_i (r_i - 1))`` the agreement among its pairs of raters and
``P̄`` their (weighted) mean over items with two ratings or more:

- Fleiss' kappa: ``(P̄ - Σ_c p_c²) / (1 - Σ_c p_c²)``, ``p_c = Σ_i n_ic / Σ_i r_i``
  (Fleiss, 1971; with unequal numbers of ratings the items keep their own ``r_i``);
- Randolph's free-marginal kappa: ``(P̄ - 1/q) / (1 - 1/q)`` over ``q`` categories
  (Randolph, 2005);
- Gwet's AC1: ``(P̄ - P_e) / (1 - P_e)``, ``P_e = Σ_c π_c (1 - π_c) / (q - 1)``,
  ``π_c`` the mean over items of ``n_ic / r_i`` (Gwet, 2008);
- Krippendorff's alpha: ``1 - D_o / D_e`` from the coincidence matrix
  ``o_ck = Σ_i (n_ic n_ik - [c = k] n_ic) / (r_i - 1)`` and a distance ``δ²_ck`` of the level
  of measurement: nominal (``[c ≠ k]``), ordinal (the ranks between), interval
  (``(c - k)²``) or ratio (``((c - k) / (c + k))²``) (Krippendorff, 2011);
- Cohen's kappa of every pair of raters, on the items both rated (``from_ratings`` only).

Every measure is a function of weighted sums over items, so item weights (``sample_weight``)
and bootstrap intervals that resample items (``interval``) cost one matrix product; when every
item has as many ratings, the sums all follow from the q x q matrix ``Σ_i w_i n_i n_iᵀ``.

Examples:
    >>> agreement = Agreement.from_ratings([["yes", "yes", "no"], ["no", "no", "no"], ["yes", "yes", "yes"], ["no", "yes", None]])
    >>> round(agreement.get_fleiss_kappa(), 4), round(agreement.get_krippendorff_alpha(), 4)
    (0.1597, 0.3333)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, cast

import attrs
import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine import moved_names, serialization
from evalkit._engine._labels import check_label_list, label_tuple
from evalkit._engine._validation import RandomState, as_array, check_choice, check_sample_weight, show
from evalkit._engine.cells import same_array
from evalkit._engine.counting import encode, index_counts
from evalkit._results import intervals
from evalkit._results._summed import SummedState
from evalkit._results.counted import ALL_OPERATIONS
from evalkit._results.intervals import Interval, KappaTest, kappa_test
from evalkit.exceptions import (
    EmptyInputError,
    InputShapeError,
    InvalidArgumentError,
    InvalidCountsError,
    InvalidValueError,
    UnsupportedSettingError,
)

__all__ = ["LEVELS", "MEASURES", "Agreement"]

LEVELS = ("nominal", "ordinal", "interval", "ratio")
"""Levels of measurement of Krippendorff's alpha."""

MEASURES = ("fleiss_kappa", "randolph_kappa", "krippendorff_alpha", "gwet_ac1", "percent_agreement")
"""The measures ``Agreement.interval`` takes by name."""


def _missing(value: Any) -> bool:
    """A cell without a rating: ``None``, NaN, or pandas' ``NA`` (whose comparisons are neither true nor false)."""
    if value is None:
        return True
    try:
        return bool(value != value)  # noqa: PLR0124 (NaN is the one value unequal to itself)
    except TypeError:  # pandas.NA: "boolean value of NA is ambiguous"
        return True


def _present(values: np.ndarray) -> np.ndarray | None:
    """Which cells hold a rating: not ``None``, not NaN, not pandas' ``NA`` (one comparison per
    cell, in C, unless a cell is ``NA``); None when every cell does (integers, booleans)."""
    if values.dtype.kind == "f":
        return ~np.isnan(values)
    if values.dtype.kind == "O":
        try:
            return ~(np.equal(values, np.array(None, dtype=object)) | np.not_equal(values, values))
        except TypeError:  # a pandas NA among the cells: each cell asked in turn
            return ~np.frompyfunc(_missing, 1, 1)(values).astype(bool)
    return None


_WIDEST_RANGE = 1 << 10
"""The widest range of integer ratings counted in place (items x range counts), without a sort."""


def _integer_counts(table: np.ndarray) -> tuple[np.ndarray, np.ndarray, tuple[int, ...], np.ndarray] | None:
    """The counts (items x categories), codes (items x raters), categories and counts as floats
    (what the measures read) of a full table of integer ratings spanning a small range, by one
    ``bincount`` over the range (the categories are the columns counted at all); None for a wide
    range (a sort finds them)."""
    low, high = int(table.min()), int(table.max())
    if high - low >= _WIDEST_RANGE or min(low, -high) < -(1 << 62):
        return None
    width, items = high - low + 1, len(table)
    rows = (np.arange(items, dtype=np.int64) * width)[:, None]
    codes = np.add(table, rows - low, dtype=np.int64)  # each rating's key (item, category), then its code: one array of the table's size
    counts = np.bincount(codes.ravel(), minlength=items * width).reshape(items, width)
    codes -= rows
    floats = counts.astype(np.float64)
    seen = np.ones(items) @ floats > 0  # (a product: numpy's sum down a narrow table is ten times slower)
    if not seen.all():
        counts, codes, floats = counts[:, seen], (np.cumsum(seen) - 1)[codes], floats[:, seen]
    return counts, codes, tuple((np.flatnonzero(seen) + low).tolist()), floats


@attrs.frozen(eq=False)
class Agreement(SummedState):
    """The ratings of several raters on items, as counts per item and category.

    Attributes:
        counts: items x categories, how many raters put each item in each category.
        categories: the category of each column (sorted unless given).
        weight: one weight per item (``None``: every item counts once).
        codes: items x raters category codes, -1 for a missing rating (``from_ratings``
            only: who rated what, for Cohen's kappa of each pair).
    """

    DOCUMENT = "Agreement"
    SETTINGS, SUMS = ("categories",), ("_ratings",)

    counts: np.ndarray = attrs.field(default=None, repr=False)
    categories: tuple = attrs.field(default=(), converter=label_tuple)
    weight: np.ndarray | None = attrs.field(default=None, repr=False)
    codes: np.ndarray | None = attrs.field(default=None, repr=False)
    _cache: dict = attrs.field(factory=dict, init=False, repr=False, eq=False)  # what every measure reads of the counts, made once

    def __attrs_post_init__(self) -> None:
        if self.counts is None:  # no item: the empty state of these categories
            object.__setattr__(self, "counts", np.zeros((0, len(self.categories)), dtype=np.int64))

    @property
    def _ratings(self) -> _Items:
        """The items, a field of ``SUMS``."""
        return _Items(self.counts, self.weight, self.codes)

    @_ratings.setter
    def _ratings(self, items: _Items) -> None:
        for name in ("counts", "weight", "codes"):
            object.__setattr__(self, name, getattr(items, name))

    # ----------------------------------------------------------------------------------------
    # constructors

    @classmethod
    def from_ratings(cls, ratings: Any, *, categories: Sequence[Hashable] | None = None, sample_weight: ArrayLike | None = None) -> Agreement:
        """Items x raters: the category each rater gave each item (``None`` or NaN: not rated).

        Args:
            ratings: a table, one row per item, one column per rater.
            categories: every possible category, in order (default: those rated, sorted);
                Randolph's kappa needs them all, the ordinal alpha their order.
            sample_weight: one weight >= 0 per item.

        Raises:
            InputShapeError: not a table of items x raters.
            UnknownLabelError: a rating outside ``categories``.

        Examples:
            >>> Agreement.from_ratings([[1, 1, 2], [2, 2, 2]]).counts.tolist()
            [[2, 1], [0, 3]]
        """
        table = as_array(ratings, "ratings")
        if table.dtype.kind in "US" and not isinstance(ratings, np.ndarray):  # numpy would turn 1 into "1": keep each value as given
            table = np.array(ratings, dtype=object)
        if table.ndim != 2:
            raise InputShapeError(f"'ratings' must be a table of items x raters, got shape {table.shape}")
        if table.size == 0:
            raise EmptyInputError(f"'ratings' holds no rating: shape {table.shape}")
        flat = table.ravel()
        present = _present(flat)
        if present is not None and not present.any():
            raise EmptyInputError("'ratings' holds no rating: every cell is missing")
        weight = check_sample_weight(sample_weight, table.shape[0])
        fixed = None if categories is None else check_label_list(categories)
        counted = _integer_counts(table) if fixed is None and present is None and table.dtype.kind in "iu" else None
        if counted is not None:  # integer ratings in a small range: their categories by the count itself, no sort
            agreement = cls(counted[0], counted[2], weight, counted[1])
            agreement._cache.update({"floats": counted[3], "raters each": float(table.shape[1])})
            return agreement
        given = flat if present is None else flat[present]
        if given.dtype.kind == "O":
            given = given.tolist()  # Python values keep their identity (1 is not "1")
        codes_given, _, found, _ = encode(given, given, fixed, names=("ratings", "ratings"))
        items, k = table.shape[0], len(found)
        if present is None:  # every cell rated: the codes are the table's, each row's keys a broadcast
            codes = codes_given.reshape(table.shape)
            keys = (np.arange(items, dtype=np.int64)[:, None] * k + codes).ravel()
        else:
            flat_codes = np.full(table.size, -1, dtype=np.int64)
            flat_codes[present] = codes_given
            codes = flat_codes.reshape(table.shape)
            keys = np.repeat(np.arange(items, dtype=np.int64), table.shape[1])[present] * k + codes_given
        agreement = cls(np.bincount(keys, minlength=items * k).reshape(items, k), tuple(found), weight, codes)
        if present is None:
            agreement._cache["raters each"] = float(table.shape[1])
        return agreement

    @classmethod
    def from_counts(cls, counts: Any, *, categories: Sequence[Hashable] | None = None, sample_weight: ArrayLike | None = None) -> Agreement:
        """Items x categories: how many raters put each item in each category (whole numbers).

        Examples:
            >>> round(Agreement.from_counts([[2, 1], [0, 3]]).get_fleiss_kappa(), 4)
            0.25
        """
        table = as_array(counts, "counts")
        if table.ndim != 2 or table.shape[1] < 1:
            raise InputShapeError(f"'counts' must be a table of items x categories, got shape {table.shape}")
        if table.dtype.kind not in "biuf" or not np.isfinite(table).all() or (table < 0).any() or (table != np.round(table)).any():
            raise InvalidValueError(f"'counts' must hold whole numbers of raters >= 0, got {show(table)}")
        if not len(table) or table.sum() == 0:
            raise EmptyInputError("'counts' holds no rating")
        found = tuple(range(table.shape[1])) if categories is None else check_label_list(categories)
        if len(found) != table.shape[1]:
            raise InputShapeError(f"'categories' names {len(found)} categories but 'counts' has {table.shape[1]} columns")
        return cls(table.astype(np.int64), found, check_sample_weight(sample_weight, len(table)))

    # ----------------------------------------------------------------------------------------
    # sizes

    @property
    def n_items(self) -> int:
        """The number of items (rows)."""
        return len(self.counts)

    @property
    def n_raters(self) -> int | None:
        """The number of raters (``from_ratings``; ``None`` from counts)."""
        return None if self.codes is None else self.codes.shape[1]

    # ----------------------------------------------------------------------------------------
    # the measures, each a function of weighted sums over items

    def _features(self, measure: str) -> list[_Block] | _Sparse:
        """Per-item features (items x p, as blocks of columns, each with a factor of every item's
        row: ``interval`` stacks them, the factor folded into the weights) whose weighted sums
        ``_statistic`` reads."""
        n, r, paired, agreeing = self._items()
        if measure == "krippendorff_alpha":
            return self._coincidences(n, r)
        if measure == "gwet_ac1":
            return [(agreeing, None), (paired, None), (n, np.divide(1.0, r, out=np.zeros_like(r), where=r > 0)), (r > 0, None)]  # shares n_ic / r_i
        return [(agreeing, None), (paired, None), (n, None), (r, None)]

    def _statistic(self, measure: str, level: str) -> Callable[[np.ndarray], np.ndarray]:
        """The measure of a batch of its features' weighted sums (batch x p)."""
        q = len(self.categories)
        if measure == "krippendorff_alpha":
            distances = self._distances(level)
            return lambda sums: _alpha(sums.reshape(len(sums), q, q), distances)
        if measure == "gwet_ac1":
            def ac1(sums: np.ndarray) -> np.ndarray:
                observed = sums[:, 0] / sums[:, 1]
                pi = sums[:, 2 : 2 + q] / sums[:, -1:]
                expected = (pi * (1 - pi)).sum(axis=1) / (q - 1) if q > 1 else np.full(len(sums), np.nan)
                return (observed - expected) / (1 - expected)

            return ac1

        def kappa(sums: np.ndarray) -> np.ndarray:
            observed = sums[:, 0] / sums[:, 1]
            if measure == "percent_agreement":
                return observed
            if measure == "randolph_kappa":
                expected = np.full(len(sums), 1 / q)
            else:
                p = sums[:, 2 : 2 + q] / sums[:, -1:]
                expected = (p * p).sum(axis=1)
            return (observed - expected) / (1 - expected)

        return kappa

    def _floats(self) -> np.ndarray:
        """The counts as floats (made once)."""
        n = self._cache.get("floats")
        if n is None:
            n = self._cache["floats"] = self.counts.astype(np.float64)
        return n

    def _items(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The counts as floats, each item's raters ``r``, whether it was rated twice, and the
        share of its pairs of raters that agree (made once, read by every measure)."""
        found = self._cache.get("items")
        if found is None:
            n = self._floats()
            r = n @ np.ones(n.shape[1])  # whole numbers: exact (and a product, where numpy's sum along a short row is slow)
            pairs = r - 1
            pairs *= r
            paired = pairs > 0
            agreeing = np.einsum("ij,ij->i", n, n)
            agreeing -= r
            np.divide(agreeing, pairs, out=agreeing, where=paired)  # Σ_c n_ic (n_ic - 1) / (r_i (r_i - 1)), in place (each item array costs its pages)
            agreeing[~paired] = 0.0
            found = self._cache["items"] = (n, r, paired, agreeing)
        return found

    def _raters_each(self) -> float | None:
        """The number of ratings of every item when they all have as many (``None`` otherwise)."""
        if "raters each" not in self._cache:
            r = self._floats() @ np.ones(len(self.categories))
            self._cache["raters each"] = float(r[0]) if len(r) and (r == r[0]).all() else None
        return self._cache["raters each"]

    def _weighted_sums(self, measure: str) -> np.ndarray:
        """The weighted sums over items of a measure's features (made once per family: the
        kappas and the percent agreement read the same).

        When every item has the same number ``R`` of ratings, they all follow from the weighted
        Gram matrix ``G = Σ_i w_i n_i n_iᵀ`` and totals ``t = Σ_i w_i n_i`` (q x q and q
        numbers, one matrix product): the agreeing pairs ``(tr G - R Σw) / (R (R - 1))``, the
        coincidences ``(G - diag t) / (R - 1)``, the shares ``t / R``; otherwise item by item."""
        family = measure if measure in ("krippendorff_alpha", "gwet_ac1") else "kappa"
        sums = self._cache.get(family)
        if sums is not None:
            return sums
        each = self._raters_each()
        if each is not None:
            gram = self._cache.get("gram")
            if gram is None:
                n = self._floats()
                gram = self._cache["gram"] = n.T @ (n if self.weight is None else n * self.weight[:, None])
            totals = gram.sum(axis=1) / each  # Σ_k G_ck = Σ_i w_i n_ic R
            total = float(len(self.counts) if self.weight is None else self.weight.sum())
            pairable = each > 1
            if family == "krippendorff_alpha":
                sums = ((gram - np.diag(totals)) / (each - 1) if pairable else np.zeros_like(gram)).ravel()
            else:
                agreeing = (np.trace(gram) - each * total) / (each * (each - 1)) if pairable else 0.0
                paired = total if pairable else 0.0
                last = [totals / each, [total]] if family == "gwet_ac1" else [totals, [each * total]]
                sums = np.concatenate([[agreeing, paired], *last])
        else:
            features, weight = self._features(measure), self._item_weights()
            if isinstance(features, _Sparse):  # the items' coincidences summed at once (their parts are for resampling)
                n, r, _, _ = self._items()
                share = r - 1
                np.divide(weight, share, out=share, where=share > 0)  # w_i / (r_i - 1), 0 for an item rated once
                share[r <= 1] = 0.0
                sums = ((n * share[:, None]).T @ n - np.diag(share @ n)).ravel()  # Σ_i w_i (n_ic n_ik - [c = k] n_ic) / (r_i - 1)
            else:  # each block's weighted column sums, unstacked
                sums = np.concatenate([np.atleast_1d((weight if scale is None else weight * scale) @ block) for block, scale in features])
        self._cache[family] = sums
        return sums

    @staticmethod
    def _coincidences(n: np.ndarray, r: np.ndarray) -> _Sparse:
        """Each item's part of the coincidence matrix, flattened (items x q²), kept sparse: an
        item rated by ``r`` raters touches at most ``r²`` of the ``q²`` cells, so memory grows
        with the ratings, not with items x q² (a 0-100 scale over 40,000 items)."""
        q = n.shape[1]
        pairable = r > 1
        scale = np.where(pairable, 1 / np.where(pairable, r - 1, 1), 0.0)
        item, category = np.nonzero(n)  # each item's categories (row by row)
        starts = np.searchsorted(item, np.arange(len(n) + 1))
        sizes = np.diff(starts)
        # every pair (c, k) of one item's categories: positions within the item's own run
        owner = np.repeat(np.arange(len(n)), sizes * sizes)
        offset = np.arange(len(owner)) - np.repeat(np.cumsum(sizes * sizes) - sizes * sizes, sizes * sizes)
        first = starts[owner] + offset // np.maximum(sizes[owner], 1)
        second = starts[owner] + offset % np.maximum(sizes[owner], 1)
        c, k = category[first], category[second]
        values = n[owner, c] * n[owner, k] - np.where(c == k, n[owner, c], 0.0)
        kept = values != 0
        return _Sparse(owner[kept], (c * q + k)[kept], (values * scale[owner])[kept], q * q)

    def _distances(self, level: str) -> Callable[[np.ndarray], np.ndarray]:
        """``δ²`` of the level of measurement, for a batch of marginals (batch x q)."""
        check_choice("level", level, LEVELS)
        q = len(self.categories)
        if level == "nominal":
            fixed = 1.0 - np.eye(q)
            return lambda marginals: np.broadcast_to(fixed, (len(marginals), q, q))
        if level == "ordinal":
            def ordinal(marginals: np.ndarray) -> np.ndarray:
                before = np.cumsum(marginals, axis=1) - marginals  # the ranks below each category
                low, high = np.minimum.outer(np.arange(q), np.arange(q)), np.maximum.outer(np.arange(q), np.arange(q))
                between = (before + marginals)[:, high] - before[:, low]  # Σ n_g for g from c to k
                return (between - (marginals[:, :, None] + marginals[:, None, :]) / 2) ** 2

            return ordinal
        values = np.array(self.categories, dtype=object)
        if not all(isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool) for value in values):
            raise UnsupportedSettingError(f"the {level} alpha needs numeric categories, got {show(list(self.categories))}")
        numbers = values.astype(np.float64)
        difference = np.subtract.outer(numbers, numbers)
        if level == "interval":
            fixed = difference**2
        else:
            total = np.add.outer(numbers, numbers)
            with np.errstate(divide="ignore", invalid="ignore"):
                fixed = np.where(total == 0, 0.0, (difference / np.where(total == 0, 1, total)) ** 2)
        return lambda marginals: np.broadcast_to(fixed, (len(marginals), q, q))

    def _value(self, measure: str, level: str = "nominal") -> float:
        with np.errstate(divide="ignore", invalid="ignore"):
            return float(self._statistic(measure, level)(self._weighted_sums(measure)[None, :])[0])

    def get_fleiss_kappa(self) -> float:
        """Fleiss' kappa: pairwise agreement beyond that of the pooled category shares (NaN when
        undefined: one category, or no item rated twice)."""
        return self._value("fleiss_kappa")

    def get_randolph_kappa(self) -> float:
        """Randolph's free-marginal kappa: agreement beyond ``1/q``, chance over ``q`` equally
        likely categories (give every possible category in ``categories``)."""
        return self._value("randolph_kappa")

    def get_gwet_ac1(self) -> float:
        """Gwet's AC1: agreement beyond a chance that is low when categories are unbalanced
        (stable where kappa paradoxically drops)."""
        return self._value("gwet_ac1")

    def get_percent_agreement(self) -> float:
        """``P̄``: the share of agreeing pairs of ratings on an item, averaged over items."""
        return self._value("percent_agreement")

    def get_krippendorff_alpha(self, level: str = "nominal") -> float:
        """Krippendorff's alpha at a level of measurement: ``"nominal"`` (the default, for
        labels), ``"ordinal"`` (categories in order), ``"interval"`` or ``"ratio"`` (numeric
        categories). Missing ratings are fine; items with one rating do not count."""
        return self._value("krippendorff_alpha", level)

    def get_cohen_kappa_matrix(self, *, weights: str | None = None) -> np.ndarray:
        """Cohen's kappa of every pair of raters on the items both rated (raters x raters, 1 on
        the diagonal, NaN for a pair without common items); ``weights``: ``None``,
        ``"linear"`` or ``"quadratic"`` for ordered categories (scikit-learn's
        ``cohen_kappa_score``).

        Raises:
            UnsupportedSettingError: built from counts (who rated what is not known).
        """
        if self.codes is None:
            raise UnsupportedSettingError("Cohen's kappa of each pair needs who rated what: build the Agreement with from_ratings")
        if weights is not None:
            check_choice("weights", weights, ("linear", "quadratic"))
        raters, q = self.codes.shape[1], len(self.categories)
        weight = self._item_weights()
        if weights is None:
            cost = 1.0 - np.eye(q)
        else:
            steps = np.abs(np.subtract.outer(np.arange(q), np.arange(q))).astype(np.float64)
            cost = steps if weights == "linear" else steps**2
        result = np.eye(raters)
        for a in range(raters):
            for b in range(a + 1, raters):
                both = (self.codes[:, a] >= 0) & (self.codes[:, b] >= 0)
                table = np.zeros((q, q))
                np.add.at(table, (self.codes[both, a], self.codes[both, b]), weight[both])
                total = table.sum()
                with np.errstate(divide="ignore", invalid="ignore"):
                    expected = np.outer(table.sum(axis=1), table.sum(axis=0)) / total
                    value = 1 - (cost * table).sum() / (cost * expected).sum()
                result[a, b] = result[b, a] = value if total > 0 else math.nan
        return result

    def cohen_kappa_test(self, first: int = 0, second: int = 1) -> KappaTest:
        """Cohen's kappa of two raters (by position) on the items both rated, with its standard
        errors, ``z`` and two-sided p-value (statsmodels' ``cohens_kappa``).

        Raises:
            UnsupportedSettingError: built from counts (who rated what is not known).

        Examples:
            >>> agreement = Agreement.from_ratings([["a", "a"], ["a", "b"], ["b", "b"], ["b", "b"], ["a", "a"], ["b", "a"]])
            >>> found = agreement.cohen_kappa_test()
            >>> round(found.kappa, 4), round(found.statistic, 4)
            (0.3333, 0.8165)
        """
        if self.codes is None:
            raise UnsupportedSettingError("Cohen's kappa of two raters needs who rated what: build the Agreement with from_ratings")
        raters = self.codes.shape[1]
        for name, rater in (("first", first), ("second", second)):
            if isinstance(rater, bool) or not isinstance(rater, (int, np.integer)) or not 0 <= rater < raters or (name == "second" and rater == first):
                raise InvalidArgumentError(f"{name!r} must be a rater's position in 0..{raters - 1}, two different ones, got {show(rater)}")
        both = (self.codes[:, first] >= 0) & (self.codes[:, second] >= 0)
        table = index_counts(self.codes[both, first], self.codes[both, second], len(self.categories),
                             sample_weight=None if self.weight is None else self.weight[both])  # fmt: skip
        return kappa_test(table)

    # ----------------------------------------------------------------------------------------
    # intervals

    def interval(self, measure: str, *, level: str = "nominal", confidence: float = 0.95, method: str = "bca", n_resamples: int = 2000,
                 random_state: RandomState = None) -> Interval:  # fmt: skip
        """A bootstrap interval of a measure that resamples items (with their weights).

        Args:
            measure: one of ``MEASURES``.
            level: the level of measurement of ``krippendorff_alpha``.
            confidence: the confidence level.
            method: ``"bca"`` (the default) or ``"percentile"``.

        Examples:
            >>> agreement = Agreement.from_counts([[3, 0], [0, 3], [2, 1], [3, 0], [1, 2], [0, 3]] * 5)
            >>> found = agreement.interval("fleiss_kappa", method="percentile", n_resamples=500, random_state=0)
            >>> found.low < agreement.get_fleiss_kappa() < found.high
            True
        """
        check_choice("measure", measure, MEASURES)
        features, statistic = self._features(measure), self._statistic(measure, level)
        weight = self._item_weights()
        weighted = (features.scaled(weight) if isinstance(features, _Sparse) else
                    np.column_stack([block if scale is None else block * (scale[:, None] if block.ndim == 2 else scale) for block, scale in features]) * weight[:, None])  # fmt: skip

        def replicates(drawn: np.ndarray) -> np.ndarray:
            with np.errstate(divide="ignore", invalid="ignore"):
                return statistic(_product(drawn, weighted))

        estimate = float(replicates(np.ones((1, self.n_items)))[0])
        return intervals.counts_interval(np.ones(self.n_items, dtype=np.int64), replicates, estimate, level=confidence, method=method,
                                         n_resamples=n_resamples, random_state=random_state, what=measure)  # fmt: skip

    # ----------------------------------------------------------------------------------------
    # equality and JSON

    OPERATIONS: ClassVar[frozenset[str]] = ALL_OPERATIONS - {"update", "revert", "count"}
    REFUSED: ClassVar[Mapping[str, str]] = {"update": "an Agreement is immutable: merge another batch of items", "revert": "an Agreement is immutable: merge another batch of items", "count": "an Agreement is built whole from items: a window counts Stream(Agreement.from_ratings)"}

    def _item_weights(self) -> np.ndarray:
        """Each item's weight (1 without weights; read-only, made once)."""
        if self.weight is not None:
            return self.weight
        ones = self._cache.get("ones")
        if ones is None:
            ones = self._cache["ones"] = np.ones(len(self.counts))
            ones.flags.writeable = False
        return ones

    def __getitem__(self, items: slice | np.ndarray) -> Agreement:
        """The ratings of some items (a slice, or a mask)."""
        chosen = self._ratings[items]
        return Agreement(chosen.counts, self.categories, chosen.weight, chosen.codes)

    def __repr__(self) -> str:
        raters = "" if self.n_raters is None else f", raters={self.n_raters}"
        return f"Agreement(items={self.n_items}{raters}, categories={list(self.categories)!r})"


@attrs.frozen(eq=False)
class _Items:
    """Items in order, a field of sums of ``Agreement``: per item its counts per category, its
    weight (``None``: every item 1) and, from ratings, who rated what (a category code per
    rater, -1 for none). Merged one batch after the other (who rated what kept when both have
    it, for the same number of raters); a part taken away leaves the rest in order (a window's
    oldest or newest batch; items from anywhere else: the first of equal ones go); scaled in
    the weights. No item has no weight and no raters.

    Examples:
        >>> first = _Items(np.array([[2, 1]]), None, None)
        >>> both = first.plus(_Items(np.array([[0, 3]]), np.array([2.0]), None))
        >>> both.weight.tolist(), both.minus(first, "items").counts.tolist()
        ([1.0, 2.0], [[0, 3]])
    """

    counts: np.ndarray
    weight: np.ndarray | None
    codes: np.ndarray | None

    def __attrs_post_init__(self) -> None:
        if not len(self.counts):  # no item: no weight and no rater either (as an empty agreement has)
            object.__setattr__(self, "weight", None)
            object.__setattr__(self, "codes", None)

    def __getitem__(self, items: slice | np.ndarray) -> _Items:
        return _Items(self.counts[items], None if self.weight is None else self.weight[items], None if self.codes is None else self.codes[items])

    def weights(self) -> np.ndarray:
        """Each item's weight (1 without weights)."""
        return np.ones(len(self.counts)) if self.weight is None else self.weight

    def plus(self, other: _Items) -> _Items:
        if not len(other.counts) or not len(self.counts):  # (no item: the other's, who rated what kept)
            return other if not len(self.counts) else self
        weight = None if self.weight is None and other.weight is None else np.concatenate([self.weights(), other.weights()])
        same_raters = self.codes is not None and other.codes is not None and self.codes.shape[1] == other.codes.shape[1]
        return _Items(np.concatenate([self.counts, other.counts]), weight, np.concatenate([self.codes, other.codes]) if same_raters else None)  # type: ignore[list-item]

    def minus(self, other: _Items, what: str) -> _Items:
        """These items without ``other``'s.

        Raises:
            InvalidCountsError: ``other`` holds an item these do not (as often).
        """
        n, k = len(self.counts), len(other.counts)
        if k <= n and self[:k]._same(other):
            return self[k:]
        if k <= n and self[n - k :]._same(other):
            return self[: n - k]
        return self[self._kept(other)]

    def scaled(self, factor: float) -> _Items:
        return _Items(self.counts, self.weights() * factor, self.codes)

    def equals(self, other: _Items) -> bool:
        """The same ratings: counts, weights and (``from_ratings``) who rated what."""
        return np.array_equal(self.counts, other.counts) and same_array(self.weight, other.weight) and same_array(self.codes, other.codes)

    def _same(self, other: _Items) -> bool:
        """The same items, each counting as much (no weight is a weight of 1)."""
        return (np.array_equal(self.counts, other.counts) and np.array_equal(self.weights(), other.weights())
                and (self.codes is None or other.codes is None or np.array_equal(self.codes, other.codes)))  # fmt: skip

    def _kept(self, part: _Items) -> np.ndarray:
        """Which items stay when ``part``'s leave: of equal items (ratings, weight and, where
        both have it, who rated what), the first ones leave, as many as ``part`` has.

        Raises:
            InvalidCountsError: ``part`` holds an item more often than these.
        """
        with_codes = self.codes is not None and part.codes is not None and self.codes.shape[1] == part.codes.shape[1]
        rows = [np.column_stack([items.counts, items.weights(), cast(np.ndarray, items.codes) if with_codes else np.zeros((len(items.counts), 0))])
                .astype(np.float64) for items in (self, part)]  # fmt: skip
        _, ids = np.unique(np.concatenate(rows), axis=0, return_inverse=True)
        ids = ids.reshape(-1)
        mine, theirs = ids[: len(self.counts)], ids[len(self.counts) :]
        leaving = np.bincount(theirs, minlength=ids.max(initial=-1) + 1)
        if np.any(leaving > np.bincount(mine, minlength=len(leaving))):
            raise InvalidCountsError("cannot take away items this agreement does not hold")
        order = np.argsort(mine, kind="stable")
        rank = np.empty(len(mine), dtype=np.int64)
        rank[order] = np.arange(len(mine)) - np.searchsorted(mine[order], mine[order])  # each item's place among the equal ones
        return rank >= leaving[mine]

    def document(self) -> dict[str, object]:
        """Who rated what (``from_ratings``: a category code per item and rater, -1 for none) or
        the counts per item and category, and the weights."""
        if self.codes is not None:
            return {"weight": None if self.weight is None else self.weight.tolist(), "codes": self.codes.tolist(), "raters": int(self.codes.shape[1])}
        return {"weight": None if self.weight is None else self.weight.tolist(), "counts": self.counts.tolist()}

    def read(self, document: dict[str, object], codes_below: int) -> _Items:
        """Items over as many categories as these from a document.

        Raises:
            FormatError: not a table of codes or counts over the categories, or weights of
                another length.
        """
        q = self.counts.shape[1]
        if "codes" in document:
            rows = serialization.field(document, "codes")
            raters = serialization.integer(document, "raters", low=1, optional=True)  # written since items could be none
            if not isinstance(rows, list) or not (rows or raters) or (rows and not isinstance(rows[0], list)):
                raise serialization.FormatError(f"field 'codes' must be a table of items x raters, got {show(rows)}")
            width = raters if raters is not None else len(rows[0])
            codes = (np.stack([serialization.array(row, f"codes[{i}]", length=width, low=-1) for i, row in enumerate(rows)]) if rows
                     else np.zeros((0, width), dtype=np.int64))  # fmt: skip
            if codes.size and codes.max() >= q:
                raise serialization.FormatError(f"field 'codes' holds a category code beyond the {q} categories")
            counts = np.zeros((len(codes), q), dtype=np.int64)
            present = codes >= 0
            np.add.at(counts, (np.nonzero(present)[0], codes[present]), 1)
        else:
            rows = serialization.field(document, "counts")
            counts = serialization.matrix(rows, "counts", rows=len(rows) if isinstance(rows, list) else -1, columns=q).astype(np.int64).reshape(-1, q)
            codes = None
        weight = document.get("weight")
        checked = None if weight is None else serialization.array(weight, "weight", length=len(counts), integral=None)
        return _Items(counts, None if checked is None else checked.astype(np.float64), codes)


_Block = tuple[np.ndarray, "np.ndarray | None"]
"""A block of per-item features (items, or items x columns) and a factor of each item's row (None: 1)."""


@attrs.frozen
class _Sparse:
    """An items x ``width`` matrix of per-item features, as its non-zero entries."""

    item: np.ndarray
    column: np.ndarray
    value: np.ndarray
    width: int

    def scaled(self, weight: np.ndarray) -> _Sparse:
        """Each item's row times its weight."""
        return _Sparse(self.item, self.column, self.value * weight[self.item], self.width)


_PRODUCT_ENTRIES = 1 << 23
"""The most temporary entries (rows of ``drawn`` times non-zero features) a sparse product holds at once."""


def _product(drawn: np.ndarray, features: np.ndarray | _Sparse) -> np.ndarray:
    """``drawn @ features`` (rows x items times items x p), for dense or sparse features; a
    sparse product runs in blocks of rows, its memory bounded by ``_PRODUCT_ENTRIES``."""
    if not isinstance(features, _Sparse):
        return drawn @ features
    out = np.zeros((len(drawn), features.width))
    block = max(1, _PRODUCT_ENTRIES // max(len(features.value), 1))
    for start in range(0, len(drawn), block):
        rows = drawn[start : start + block]
        terms = rows[:, features.item] * features.value  # rows x non-zeros
        for r in range(len(rows)):
            out[start + r] = np.bincount(features.column, weights=terms[r], minlength=features.width)
    return out


def _alpha(coincidences: np.ndarray, distances: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """Krippendorff's alpha of a batch of coincidence matrices (batch x q x q)."""
    marginals = coincidences.sum(axis=2)
    total = marginals.sum(axis=1)
    delta = distances(marginals)
    observed = (coincidences * delta).sum(axis=(1, 2))
    expected = (marginals[:, :, None] * marginals[:, None, :] * delta).sum(axis=(1, 2))
    return 1 - (total - 1) * observed / expected


if not TYPE_CHECKING:  # the names this module gave in evalkit 0.1.0 and lost, found with a warning
    __getattr__ = moved_names.finder(__name__)
