"""Calibration: how far scores are from probabilities, counted like everything else.

A score ``c`` is *calibrated* when, of the samples scored ``c``, a fraction ``c`` are
positive. ``Calibration`` keeps, for each column of scores, the sums every calibration measure
needs: exactly, at every distinct score (the counts of a ``ThresholdCurve``), or in ``bins``
equal-width bins (memory O(bins) however long the stream). Both merge exactly (``+``,
``evalkit.CalibrationCounts``, ``evalkit.dask.calibration``), take sample weights
and round-trip through JSON.

Settings (``setting=``):

* ``"binary"``: 1-D scores, the probability of the positive class.
* ``"top_label"`` (the default for ``n x m`` probabilities and one label per sample): the
  confidence is a sample's highest probability, the outcome whether that class is the actual
  one (C. Guo, G. Pleiss, Y. Sun and K. Q. Weinberger, "On Calibration of Modern Neural
  Networks", 2017).
* ``"classwise"``: ``n x m`` probabilities, every class one against the rest; errors averaged
  over classes (``average="macro"``, ``"weighted"`` by support, or ``"micro"``: every
  (score, outcome) pair pooled), and the Brier score and log loss of the whole distribution.
* ``"multilabel"``: ``n x m`` 0/1 indicators and scores, every label one against the rest.

The calibration error with the ``l1`` norm (ECE), the ``l2`` norm (RMSCE) or the ``max``
norm (MCE), by three estimators (``estimator=``):

* ``"binned"``: the plug-in estimate over ``n_bins`` bins of equal width
  (``strategy="uniform"``) or equal mass (``"quantile"``):
  ``ECE = Σ_b (n_b / n) |ȳ_b - c̄_b|``, ``RMSCE = sqrt(Σ_b (n_b / n) (ȳ_b - c̄_b)²)``,
  ``MCE = max_b |ȳ_b - c̄_b|`` over non-empty bins (``ȳ_b`` the share of positives, ``c̄_b``
  the mean score of bin ``b``). Equal-width bins are right-closed, ``((k-1)/M, k/M]``, the
  first ``[0, 1/M]``: scikit-learn's ``calibration_curve`` bins, so a score of exactly 1 is
  in the last bin (torchmetrics opens a bin of its own for it) and exactly 0 in the first.
  Equal-mass edges are numpy's linear percentiles of the scores (scikit-learn's), sample
  weights counting as repeated samples. ``n_bins`` defaults to 15 (``DEFAULT_BINS``, Guo et
  al.'s and torchmetrics' choice).
* ``"debiased"``: the plug-in estimate is biased upwards: a perfectly calibrated model on 200
  samples reads an ECE near 0.09 over 15 bins. With the ``l2`` norm this is the estimate
  of ``Σ_b (n_b / n) (ȳ_b - c̄_b)²`` without bias, ``Σ_b (n_b / n) [(ȳ_b - c̄_b)² -
  ȳ_b (1 - ȳ_b) / (n_b - 1)]`` (C. A. T. Ferro and T. E. Fricker, 2012; J. Bröcker, 2012;
  used by A. Kumar, P. Liang and T. Ma, "Verified Uncertainty Calibration", 2019), returned
  as its signed square root: it is negative when the bins differ from the diagonal by less
  than their noise, and its mean on calibrated data is 0 (clip at 0 for the number of Kumar
  et al.'s code). With the ``l1`` norm, Kumar et al.'s normal-approximation correction
  ``Σ_b (n_b / n) [2 |d_b| - E|d_b + Z_b|]``, ``Z_b ~ N(0, ȳ_b (1 - ȳ_b) / n_b)``, in
  closed form: it removes only part of the bias. Bins of one sample add nothing (their
  noise cannot be estimated); sample weights must be integers (repeated samples).
* ``"isotonic"``: binning-free: the distance between the scores and their isotonic
  recalibration (the pool-adjacent-violators fit of outcomes on scores, the CORP reliability
  diagram of T. Dimitriadis, T. Gneiting and A. I. Jordan, "Stable reliability diagrams for
  probabilistic classifiers", 2021): ``Σ w |c - ĉ| / Σ w`` and its ``l2`` and ``max``
  forms. Needs the exact counts and scipy (the ``stats`` extra).

Besides the error: ``reliability`` (the points of a reliability diagram), ``brier_score``
and its decomposition (``brier_decomposition``: A. H. Murphy, "A New Vector Partition of the
Probability Score", 1973, exact over the distinct scores; over bins with the two
within-bin terms of D. B. Stephenson, C. A. S. Coelho and I. T. Jolliffe, 2008),
``log_loss``, ``spiegelhalter_test`` (D. J. Spiegelhalter, 1986: is the model calibrated?)
and ``interval`` (the bootstrap of any of these).

Sample weights count as repeated samples (a weight of 2 is two samples) where the number of
samples matters: equal-mass bins, the debiased estimator, the bootstrap.

Examples:
    >>> cal = Calibration.from_scores([1, 0], [0.95, 1.0], bins=15)   # torchmetrics #3510
    >>> round(cal.error(), 6)
    0.475
    >>> cal = Calibration.from_scores([0, 0, 1, 1, 1, 0], [0.1, 0.3, 0.35, 0.8, 0.9, 0.6])
    >>> round(cal.error(n_bins=5), 4), round(cal.brier_score(), 4)
    (0.225, 0.1554)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

import attrs
import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine import moved_names
from evalkit._engine._exact import (
    LIMBS,
    ints_to_floats,
    ints_to_limbs,
    limbs_to_floats,
    sum_limbs,
)
from evalkit._engine._labels import label_position, label_tuple, same_labels
from evalkit._engine._types import LabelsLike, ScoresLike
from evalkit._engine._validation import RandomState, check_choice, read_only, show
from evalkit._engine.serialization import json_safe
from evalkit._results import intervals
from evalkit._results._summed import SummedState
from evalkit._results.counted import ALL_OPERATIONS
from evalkit._scores.calibration_sums import (
    _CHUNK,
    _SUM_TOLERANCE,
    DEFAULT_BINS,
    ESTIMATORS,
    MAX_BINS,
    NORMS,
    STRATEGIES,
    BinSums,
    _binned_column,
    _Binner,
    _brier,
    _check_bins,
    _decomposition,
    _error,
    _exact,
    _isotonic_error,
    _isotonic_fit,
    _Sums,
    quantile_edges,
    uniform_bins,
)
from evalkit._scores.curve_state import CurveColumns
from evalkit._scores.curves import ScoreColumns, ThresholdCurve, score_columns
from evalkit.exceptions import (
    InvalidArgumentError,
    InvalidValueError,
    UnsupportedSettingError,
)
from evalkit.measures._averaging import UndefinedPolicy, check_undefined, mean_of
from evalkit.measures._registry import spelling


def error_of_scores(
    y_true: LabelsLike, y_prob: ScoresLike, labels: Sequence[Hashable] | None = None, *, n_bins: int = DEFAULT_BINS, strategy: str = "uniform",
    norm: str = "l1", estimator: str = "binned", sample_weight: ArrayLike | None = None, pos_label: Hashable | None = None, setting: str | None = None,
    average: str | None = "macro",
) -> Any:  # fmt: skip
    """The calibration error of scores in one call (``Calibration.from_scores(...).error(...)``),
    with a fast path for equal-width bins of one column: no sort, memory O(bins)."""
    check_choice("norm", norm, NORMS)
    check_choice("estimator", estimator, ESTIMATORS)
    check_choice("strategy", strategy, STRATEGIES)
    fast = strategy == "uniform" and estimator != "isotonic" and not (estimator == "debiased" and norm == "max")
    found, own, counted, _ = _checked_columns(y_true, y_prob, labels, pos_label, sample_weight, setting, ranges=not fast)
    if fast and len(own) == 1:  # (sample_error finds scores outside [0, 1] as it counts)
        return sample_error(counted.scores[:, 0], counted.positives(0), counted.weight, _check_bins(n_bins), norm, estimator)
    calibration = Calibration(found, own, None, ThresholdCurve.from_score_columns(counted))
    options: dict[str, Any] = {} if estimator == "isotonic" else {"n_bins": n_bins, "strategy": strategy}
    return calibration.error(norm, estimator=estimator, average=average, **options)


def sample_error(scores: ScoresLike, positive: ArrayLike, weight: np.ndarray | None, n_bins: int, norm: str = "l1", estimator: str = "binned") -> float:
    """The binned or debiased calibration error of samples over ``n_bins`` equal-width bins,
    straight from the samples (three sums per bin, counted in chunks that stay in cache): the
    fast path of ``evalkit.metrics.expected_calibration_error``.

    Examples:
        >>> sample_error(np.array([0.95, 1.0]), np.array([True, False]), None, 15)
        0.475
    """
    scores, positive = np.asarray(scores, dtype=np.float64), np.asarray(positive, dtype=bool)
    binner = _Binner(n_bins, len(scores))
    pairs, score_pairs = np.zeros(2 * n_bins), np.zeros(2 * n_bins)  # per (bin, outcome): weight and score sum
    for start in range(0, len(scores), _CHUNK):
        part = slice(start, start + _CHUNK)
        chunk = scores[part]
        key = binner.keys(chunk, positive[part])
        w = None if weight is None else weight[part].astype(np.float64)
        if key.size and (key.min() < 0 or key.max() >= 2 * n_bins):  # a score outside [0, 1] (or NaN): refused before counting, never a table as long as the key
            _check_range(chunk)
        found: np.ndarray = np.bincount(key, weights=w, minlength=2 * n_bins)
        pairs += found
        score_pairs += np.bincount(key, weights=chunk if w is None else w * chunk, minlength=2 * n_bins)
    per_pair, score_per_pair = pairs.reshape(n_bins, 2), score_pairs.reshape(n_bins, 2)
    totals = np.stack([per_pair.sum(axis=1), score_per_pair.sum(axis=1), per_pair[:, 1]])
    return float(_error(totals[0][None], totals[1][None], totals[2][None], norm, estimator)[0])


__all__ = [
    "DEFAULT_BINS",
    "ESTIMATORS",
    "MAX_BINS",
    "MAX_STORED_BINS",
    "MEASURES",
    "NORMS",
    "SETTINGS",
    "STRATEGIES",
    "BrierDecomposition",
    "Calibration",
    "CalibrationTest",
    "Reliability",
    "error_of_scores",
    "quantile_edges",
    "sample_error",
    "uniform_bins",
]


MAX_STORED_BINS = 10_000
"""The most equal-width bins a binned calibration keeps (``bins=``): each bin holds eight exact
sums (about 4.5 kB a bin and column), so that merging batches never changes a digit."""

SETTINGS = ("binary", "top_label", "classwise", "multilabel")
TOP_LABEL = "top label"
"""The one column of a top-label calibration."""

MEASURES: dict[str, tuple[str, str]] = {
    "expected_calibration_error": ("ECE", "the l1 calibration error: Σ_b (n_b/n)·|ȳ_b − c̄_b|"),
    "root_mean_squared_calibration_error": ("RMSCE", "the l2 calibration error: sqrt(Σ_b (n_b/n)·(ȳ_b − c̄_b)²)"),
    "maximum_calibration_error": ("MCE", "the max calibration error: max_b |ȳ_b − c̄_b|"),
    "brier_score": ("Brier", "the mean squared distance of the scores from the outcomes"),
    "reliability": ("REL", "the Brier score's calibration term: Σ_k (n_k/n)·(c̄_k − ȳ_k)²"),
    "resolution": ("RES", "the Brier score's resolution term: Σ_k (n_k/n)·(ȳ_k − ȳ)²"),
    "uncertainty": ("UNC", "the Brier score of always forecasting the base rate: ȳ·(1 − ȳ)"),
    "log_loss": ("log loss", "the mean negative log-likelihood of the outcomes (scores clipped to [eps, 1 − eps])"),
}
"""The calibration measures by name: (abbreviation, formula). All are losses: lower is
better, except ``resolution`` (higher is better) and ``uncertainty`` (a property of the data)."""

DIRECTIONS: dict[str, str | None] = {**dict.fromkeys(MEASURES, "lower"), "resolution": "higher", "uncertainty": None}
"""Which values of each calibration measure are better."""

_NORM_OF = {"expected_calibration_error": "l1", "root_mean_squared_calibration_error": "l2", "maximum_calibration_error": "max"}
_ALIASES = {"ece": "expected_calibration_error", "rmsce": "root_mean_squared_calibration_error", "mce": "maximum_calibration_error",
            "brier": "brier_score", "brier_score_loss": "brier_score", "cross_entropy": "log_loss"}  # fmt: skip


def calibration_key(asked: object) -> str | None:
    """The calibration measure a name stands for, in any spelling (``"ECE"`` is
    ``"expected_calibration_error"``, ``"Brier score"`` is ``"brier_score"``), or None.

    Examples:
        >>> calibration_key("ECE"), calibration_key("Brier score"), calibration_key("recall")
        ('expected_calibration_error', 'brier_score', None)
    """
    if not isinstance(asked, str):
        return None
    key = _ALIASES.get(spelling(asked), spelling(asked))
    return key if key in MEASURES else None


class Reliability(NamedTuple):
    """The points of a reliability diagram: per non-empty bin (or, binning-free, per distinct
    score) the mean score, the observed share of positives and the weight of the samples.

    Attributes:
        confidence: mean score per bin (the x of the diagram).
        frequency: share of positives per bin (the y): the isotonic fit for ``estimator="isotonic"``.
        weight: how much each bin weighs (its number of samples, unweighted).
        edges: the bin edges (``n_bins + 1`` of them); empty for the isotonic diagram.
    """

    confidence: np.ndarray
    frequency: np.ndarray
    weight: np.ndarray
    edges: np.ndarray


class BrierDecomposition(NamedTuple):
    """``brier_score = reliability - resolution + uncertainty + within_variance - within_covariance``.

    Over the distinct scores (Murphy, 1973) the two within-bin terms are 0; over bins they are
    ``Σ_i (c_i - c̄_b)² / n`` and ``2 Σ_i (y_i - ȳ_b)(c_i - c̄_b) / n`` (Stephenson, Coelho and
    Jolliffe, 2008), so the identity is exact either way.
    """

    brier_score: float
    reliability: float
    resolution: float
    uncertainty: float
    within_variance: float = 0.0
    within_covariance: float = 0.0


class CalibrationTest(NamedTuple):
    """A test of "the scores are calibrated": the statistic and its two-sided p-value.

    Spiegelhalter's z (1986): ``Σ (y - c)(1 - 2c) / sqrt(Σ (1 - 2c)² c (1 - c))``, standard
    normal when every score is its sample's probability.
    """

    statistic: float
    p_value: float
    method: str = "spiegelhalter"


# --------------------------------------------------------------------------------------------
# bins


# --------------------------------------------------------------------------------------------
# sums: per group of samples (a distinct score or a bin), one row per resample


# --------------------------------------------------------------------------------------------
# estimators of grouped sums (one value per row)


# --------------------------------------------------------------------------------------------
# inputs


def _check_range(scores: np.ndarray) -> None:
    if scores.size and not (scores.min() >= 0 and scores.max() <= 1):
        bad = scores[~((scores >= 0) & (scores <= 1))]
        raise InvalidValueError(f"'y_prob' must hold probabilities in [0, 1], got {show(bad[:3])}: turn scores into probabilities first")


def _probabilities(columns: ScoreColumns, setting: str, ranges: bool = True) -> None:
    scores = columns.scores
    if ranges:
        _check_range(scores)
    if setting in ("top_label", "classwise"):
        sums = scores.sum(axis=1)
        off = np.flatnonzero(np.abs(sums - 1) > _SUM_TOLERANCE)
        if len(off):
            raise InvalidValueError(
                f"row {off[0]} of 'y_prob' sums to {sums[off[0]]:.6g}, not 1: {setting} calibration needs each row to be a probability "
                "distribution over the classes (softmax the scores first; for independent labels give 0/1 indicator rows as 'y_true')"
            )


def _setting(columns: ScoreColumns, setting: Any) -> str:
    if setting is not None:
        check_choice("setting", setting, SETTINGS)
    found = "binary" if columns.positive is not None else "multilabel" if columns.indicators is not None else None
    if found is None:
        return "top_label" if setting is None else setting
    if setting is not None and setting != found and not (found == "multilabel" and setting == "classwise"):
        raise InvalidArgumentError(f"setting={setting!r} does not fit the data: they are {found} (1-D scores are binary; 0/1 indicator rows multilabel)")
    return found


def _top_label(columns: ScoreColumns) -> ScoreColumns:
    """The binary problem of the highest score: was its class the actual one?"""
    assert columns.codes is not None
    confidence = columns.scores.max(axis=1)
    correct = columns.scores.argmax(axis=1) == columns.codes
    return ScoreColumns(confidence[:, None], (True,), columns.weight, negative_label=False, positive=correct)


def _checked_columns(
    y_true: LabelsLike, y_prob: ScoresLike, labels: Any, pos_label: Hashable, sample_weight: ArrayLike | None, setting: Any, ranges: bool = True
) -> tuple[str, tuple, ScoreColumns, tuple]:  # fmt: skip
    """The setting, the column labels, the score columns to count and the classes of the
    probability columns, from checked inputs (``ranges=False``: the caller checks that the
    scores lie in [0, 1])."""
    columns = score_columns(y_true, y_prob, labels, pos_label, sample_weight, "y_prob", finite=ranges)
    found = _setting(columns, setting)
    _probabilities(columns, found, ranges=ranges or found != "binary")  # (NaN and infinities fail the range check)
    if found == "top_label":
        return found, (TOP_LABEL,), _top_label(columns), columns.labels
    return found, columns.labels, columns, columns.labels


# --------------------------------------------------------------------------------------------
# the result


def _optional_read_only(values: Any) -> Any:
    return None if values is None else read_only(values)


def _measure_options(name: str, options: dict[str, Any]) -> tuple[str, str, str, int | None]:
    """A measure's name (its aliases read) and its options ``estimator``, ``strategy`` and
    ``n_bins``, checked; ``options`` is emptied.

    Raises:
        InvalidArgumentError: an unknown measure, option or value.
    """
    name = _ALIASES.get(name, name)
    check_choice("measure", name, tuple(MEASURES))
    estimator, strategy, n_bins = options.pop("estimator", "binned"), options.pop("strategy", "uniform"), options.pop("n_bins", None)
    if options:
        raise InvalidArgumentError(f"unknown option(s) {show(sorted(options))} for {name!r}: give estimator, strategy or n_bins")
    check_choice("estimator", estimator, ESTIMATORS)
    check_choice("strategy", strategy, STRATEGIES)
    return name, estimator, strategy, n_bins


@functools.lru_cache(maxsize=64)
def _no_scores(typed_labels: tuple, top: bool) -> ThresholdCurve:
    """The exact curve of no score over the labels (each with its type: ``1`` is not ``True``)
    of a calibration, or of its top label: what an empty calibration holds (made once: curves
    are values)."""
    nothing = [(np.zeros(0), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))] * len(typed_labels)
    labels = (True,) if top else tuple(label for _, label in typed_labels)
    return ThresholdCurve.from_score_counts(nothing, labels, negative_label=False if top else None)


@attrs.frozen(eq=False)
class Calibration(SummedState):
    """The calibration of scores (see the module docstring): build it with ``from_scores``.

    Reading:
        ``error`` (ECE, RMSCE, MCE; binned, debiased or isotonic), ``reliability``,
        ``brier_score``, ``brier_decomposition``, ``log_loss``, ``spiegelhalter_test``,
        ``measure``, ``summary``, ``interval``.
    Combining:
        ``merge`` (also ``+``), ``micro``.

    Attributes:
        setting: ``"binary"``, ``"top_label"``, ``"classwise"`` or ``"multilabel"``.
        labels: the columns: the positive class, ``("top label",)``, or the classes.
        bins: the number of equal-width bins kept, or ``None`` for the exact counts.
        classes: the classes of the probability columns (the positive class of binary scores).
    """

    DOCUMENT = "Calibration"
    SETTINGS, SUMS = ("setting", "labels", "bins", "classes"), ("_counts",)

    setting: str
    labels: tuple = attrs.field(converter=label_tuple)
    bins: int | None
    _curve: ThresholdCurve | None = attrs.field(default=None, repr=False)
    _limbs: np.ndarray | None = attrs.field(default=None, repr=False, converter=_optional_read_only)  # columns x 8 x bins x LIMBS: exact sums
    classes: tuple = attrs.field(default=None, repr=False, converter=attrs.converters.optional(label_tuple))
    _rounded: np.ndarray | None = attrs.field(default=None, init=False, repr=False)  # _binned, made when first read

    def __attrs_post_init__(self) -> None:
        """Check the settings; with no counts given, nothing counted (the empty state).

        Raises:
            InvalidArgumentError: a setting no calibration has.
        """
        if self.classes is None:
            object.__setattr__(self, "classes", self.labels)
        pooled = self.labels == ("micro",) and len(self.classes) > 1  # the micro column of several (Calibration.micro)
        if self.setting not in SETTINGS or (self.setting != "top_label" and not pooled and not same_labels(self.classes, self.labels)):
            raise InvalidArgumentError(f"'setting' must be one of {SETTINGS}, with 'classes' equal to 'labels' unless top_label (or 'labels' ['micro']), "
                                       f"got {show(self.setting)} of {show(list(self.classes))} and {show(list(self.labels))}")  # fmt: skip
        if self.bins is not None:
            _check_bins(self.bins, "bins", MAX_STORED_BINS)
        if self._curve is None and self._limbs is None:
            if self.bins is None:
                object.__setattr__(self, "_curve", _no_scores(tuple((type(label), label) for label in self.labels), self.setting == "top_label"))
            else:
                object.__setattr__(self, "_limbs", read_only(np.zeros((len(self.labels), 8, self.bins, LIMBS), dtype=np.int64)))

    @property
    def _counts(self) -> CurveColumns | BinSums:
        """The counts, a field of ``SUMS``: an exact curve's columns, or the bins' sums."""
        return CurveColumns(self._curve) if self._limbs is None else BinSums(self._limbs)

    @_counts.setter
    def _counts(self, counts: CurveColumns | BinSums) -> None:
        if isinstance(counts, CurveColumns):
            object.__setattr__(self, "_curve", counts.curve)
        else:
            object.__setattr__(self, "_limbs", _optional_read_only(counts.limbs))
        object.__setattr__(self, "_rounded", None)

    @classmethod
    def _of_sums(cls, setting: str, labels: tuple, bins: int, sums: list[int], classes: tuple) -> Calibration:
        """A binned calibration of one column from its exact sums as Python integers (``8 x bins``,
        in units of ``2**-FLOAT_OFFSET``: ``limbs_to_ints`` of its limbs), rounded once from them."""
        calibration = cls(setting, labels, bins, None, ints_to_limbs(sums).reshape(1, 8, bins, -1), classes)
        object.__setattr__(calibration, "_rounded", read_only(ints_to_floats(sums).reshape(1, 8, bins)))
        return calibration

    @property
    def _binned(self) -> np.ndarray | None:
        """``columns x 8 x bins``: the exact sums, each rounded once (when first read: a window's
        calibrations in between are never read)."""
        if self._rounded is None and self._limbs is not None:
            object.__setattr__(self, "_rounded", read_only(limbs_to_floats(self._limbs)))
        return self._rounded

    # ----------------------------------------------------------------------------------------
    # building

    @classmethod
    def from_scores(
        cls, y_true: LabelsLike, y_prob: ScoresLike, labels: Sequence[Hashable] | None = None, *, pos_label: Hashable | None = None, setting: str | None = None,
        sample_weight: ArrayLike | None = None, bins: int | None = None,
    ) -> Calibration:  # fmt: skip
        """The calibration of probabilities.

        Args:
            y_true: one label per sample, or ``n x m`` 0/1 indicators (multi-label).
            y_prob: probabilities in [0, 1]: 1-D, the positive class's; or ``n x m``, one
                column per class (``labels``; default the sorted labels of ``y_true``), each
                row summing to 1 unless ``y_true`` holds indicator rows.
            labels: the column labels of 2-D probabilities.
            pos_label: the positive class of binary labels (default 1 for 0/1, -1/1 and
                boolean labels).
            setting: ``"top_label"`` (default) or ``"classwise"`` for ``n x m``
                probabilities of one class per sample; the others follow from the data.
            sample_weight: one finite weight >= 0 per sample.
            bins: ``None`` (default) to keep the exact counts at every distinct score; a
                number ``M`` to keep ``M`` equal-width bins only (memory O(M x columns); then
                errors use those bins or ``n_bins`` dividing ``M``; equal-mass bins, the
                isotonic estimator and intervals need the exact counts).

        Raises:
            InvalidValueError: a probability outside [0, 1], or a row that does not sum to 1.
            InvalidArgumentError: a ``setting`` the data do not have; the errors of
                ``ThresholdCurve.from_scores`` for the labels and shapes.
        """
        if bins is not None:
            bins = _check_bins(bins, "bins", MAX_STORED_BINS)
        found, own, counted, classes = _checked_columns(y_true, y_prob, labels, pos_label, sample_weight, setting)
        if bins is None:
            return cls(found, own, None, ThresholdCurve.from_score_columns(counted), classes=classes)
        stored = np.stack([_binned_column(counted.scores[:, j], counted.positives(j), counted.weight, bins) for j in range(len(own))])
        return cls(found, own, bins, None, stored, classes)  # exact sums: the same however the samples are batched

    # ----------------------------------------------------------------------------------------
    # the columns

    @property
    def n_samples(self) -> float:
        """How much the samples weigh together (their number, when unweighted)."""
        if self._curve is not None:
            return self._curve.n_samples
        assert self._binned is not None
        return float(self._binned[0, 0].sum())

    @property
    def n_points(self) -> int:
        """How many numbers the calibration keeps: the points of its exact curve, or its bins'
        counts (fixed by the bins and columns)."""
        if self._curve is not None:
            return self._curve.n_points
        assert self._limbs is not None
        return math.prod(self._limbs.shape[:-1])

    def _index(self, label: Hashable) -> int:
        return label_position(self.labels, label, "this calibration")

    def _column(self, j: int) -> tuple[np.ndarray | None, _Sums]:
        """The distinct scores (exact counts) and the sums of column ``j``."""
        if self._curve is not None:
            scores, positives, negatives = self._curve.score_counts(self._curve.labels[j])
            hits = positives.astype(np.float64)[None, :]
            return scores, _Sums.of_scores(scores, hits + negatives, hits)
        assert self._binned is not None
        return None, _Sums(*(row[None, :] for row in self._binned[j]))

    def _columns_of(self, label: Hashable) -> list[int]:
        return list(range(len(self.labels))) if label is None else [self._index(label)]

    def micro(self) -> Calibration:
        """One column of every column's (score, outcome) pairs pooled: the micro average's."""
        if len(self.labels) == 1:
            return self
        if self._curve is not None:
            return Calibration(self.setting, ("micro",), None, self._curve.micro(), classes=self.classes)
        assert self._limbs is not None
        return Calibration(self.setting, ("micro",), self.bins, None, sum_limbs(self._limbs, axis=0)[None], self.classes)

    # ----------------------------------------------------------------------------------------
    # grouping into bins

    def _n_bins(self, n_bins: object, strategy: str) -> int:
        if self.bins is None:
            return DEFAULT_BINS if n_bins is None else _check_bins(n_bins)
        if strategy != "uniform":
            raise UnsupportedSettingError(f"strategy={strategy!r} needs the exact counts; this calibration keeps {self.bins} equal-width bins")
        n_bins = self.bins if n_bins is None else _check_bins(n_bins)
        if self.bins % n_bins:
            raise UnsupportedSettingError(f"this calibration keeps {self.bins} equal-width bins: n_bins must divide {self.bins}, got {n_bins}")
        return n_bins

    def _bins_of(self, scores: np.ndarray | None, sums: _Sums, n_bins: int, strategy: str) -> tuple[np.ndarray, np.ndarray]:
        """The first group of each non-empty bin, the bin of each, and the edges."""
        if scores is None:
            factor = len(sums.weight[0]) // n_bins
            return np.arange(0, n_bins * factor, factor), np.linspace(0.0, 1.0, n_bins + 1)
        if strategy == "uniform":
            index, edges = uniform_bins(scores, n_bins), np.linspace(0.0, 1.0, n_bins + 1)
        else:
            edges = quantile_edges(scores, sums.weight[0], n_bins)
            index = np.searchsorted(edges[1:-1], scores, side="left")
        if not len(scores):  # every sample weighed 0: no bin holds one
            return np.zeros(0, dtype=np.intp), edges
        return np.flatnonzero(np.r_[True, index[1:] != index[:-1]]), edges

    # ----------------------------------------------------------------------------------------
    # measures of one column: f(scores, sums) -> one value per row of sums

    def _statistic(self, name: str, options: dict[str, Any]) -> Callable[[np.ndarray | None, _Sums], np.ndarray]:
        """The function computing measure ``name`` from a column's scores and sums (one value
        per row of sums: the data, or bootstrap resamples)."""
        name, estimator, strategy, n_bins = _measure_options(name, options)
        if name in _NORM_OF:
            norm = _NORM_OF[name]
            if estimator == "isotonic":
                if n_bins is not None or strategy != "uniform":
                    raise InvalidArgumentError("the isotonic estimator is binning-free: give no 'n_bins' or 'strategy'")
                if self.bins is not None:
                    raise UnsupportedSettingError("the isotonic estimator needs the exact counts; this calibration keeps bins only")
                return lambda scores, sums: _isotonic_error(_exact(scores), sums, norm)
            if estimator == "debiased" and norm == "max":
                raise UnsupportedSettingError("the debiased estimator has the l1 and l2 norms (there is no debiased maximum)")
            size = self._n_bins(n_bins, strategy)
            return self._per_bins(lambda grouped: _error(grouped.weight, grouped.score, grouped.hits, norm, estimator), size, strategy)
        if estimator != "binned":
            raise InvalidArgumentError(f"{name!r} has no estimator option (it is a mean over samples)")
        if name == "brier_score":
            return lambda scores, sums: _brier(sums)
        if name == "log_loss":
            return lambda scores, sums: self._log_loss_rows(sums)
        part = ("reliability", "resolution", "uncertainty").index(name)
        if n_bins is None and self.bins is None:
            return lambda scores, sums: _decomposition(sums, within=False)[:, part]
        size = self._n_bins(n_bins, strategy)
        return self._per_bins(lambda grouped: _decomposition(grouped, within=True)[:, part], size, strategy)

    def _per_bins(self, function: Callable[[_Sums], np.ndarray], n_bins: int, strategy: str) -> Callable[[np.ndarray | None, _Sums], np.ndarray]:
        def binned(scores: np.ndarray | None, sums: _Sums) -> np.ndarray:
            if strategy == "quantile" and len(sums.weight) > 1:  # the edges are the resample's own
                return np.concatenate([binned(scores, sums.row(r)) for r in range(len(sums.weight))])
            starts, _ = self._bins_of(scores, sums, n_bins, strategy)
            return function(sums.grouped(starts))

        return binned

    def _log_loss_rows(self, sums: _Sums) -> np.ndarray:
        hits = sums.log_hits.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):  # no weight: undefined (NaN)
            if self.setting == "classwise":  # the actual class's term only: the multi-class log loss
                return hits / sums.weight.sum(axis=1)
            return (hits + sums.log_misses.sum(axis=1)) / sums.weight.sum(axis=1)

    def _over_columns(self, name: str, options: dict[str, Any], label: Hashable, average: str | None, undefined: UndefinedPolicy) -> Any:
        """A measure of one column, of the micro column, or averaged over the columns."""
        if label is not None or len(self.labels) == 1:
            j = 0 if label is None else self._index(label)
            scores, sums = self._column(j)
            return float(self._statistic(name, dict(options))(scores, sums)[0])
        if average is not None:
            check_choice("average", average, ("macro", "weighted", "micro"))
        if average == "micro":
            return self.micro()._over_columns(name, options, None, None, undefined)
        values = np.array([self._over_columns(name, options, own, None, undefined) for own in self.labels])
        if average is None:
            return values
        weights = None if average == "macro" else np.array([self._column(j)[1].hits.sum() for j in range(len(self.labels))])
        return float(mean_of(values, weights, undefined=check_undefined(undefined)))

    # ----------------------------------------------------------------------------------------
    # reading

    def error(self, norm: str = "l1", *, estimator: str = "binned", n_bins: int | None = None, strategy: str = "uniform",
              label: Hashable | None = None, average: str | None = "macro", undefined: UndefinedPolicy = "exclude") -> Any:  # fmt: skip
        """The calibration error: ``norm="l1"`` (ECE), ``"l2"`` (RMSCE) or ``"max"`` (MCE),
        by the ``"binned"``, ``"debiased"`` or ``"isotonic"`` estimator (see the module
        docstring).

        Args:
            norm: ``"l1"``, ``"l2"`` or ``"max"``.
            estimator: ``"binned"`` (plug-in), ``"debiased"`` or ``"isotonic"`` (binning-free).
            n_bins: the number of bins (default 15; a binned calibration: its own bins).
            strategy: ``"uniform"`` (equal width) or ``"quantile"`` (equal mass).
            label: one column of a calibration of several.
            average: over several columns: ``"macro"``, ``"weighted"`` (by support),
                ``"micro"`` (pooled), or ``None`` (one value per column).
            undefined: the policy for columns without samples (see ``evalkit.measures._averaging``).

        Examples:
            >>> cal = Calibration.from_scores([0, 1, 1, 0], [0.2, 0.9, 0.6, 0.4])
            >>> round(cal.error(n_bins=2), 4), round(cal.error("max", n_bins=2), 4)
            (0.275, 0.3)
        """
        check_choice("norm", norm, NORMS)
        name = {"l1": "expected_calibration_error", "l2": "root_mean_squared_calibration_error", "max": "maximum_calibration_error"}[norm]
        return self.measure(name, estimator=estimator, n_bins=n_bins, strategy=strategy, label=label, average=average, undefined=undefined)

    def measure(self, name: str, *, label: Hashable | None = None, average: str | None = "macro", undefined: UndefinedPolicy = "exclude", **options: Any) -> Any:
        """Any calibration measure by name (``MEASURES``: ``expected_calibration_error`` or
        ``ece``, ``maximum_calibration_error``, ``root_mean_squared_calibration_error``,
        ``brier_score``, ``reliability``, ``resolution``, ``uncertainty``, ``log_loss``) with
        its options (``estimator``, ``n_bins``, ``strategy``).

        Brier score, log loss and the decomposition of several columns are of the whole
        distribution (their sum over columns; for ``"classwise"`` the log loss is the
        multi-class one), unless ``label`` picks a column.
        """
        if _ALIASES.get(name, name) in ("brier_score", "log_loss", "reliability", "resolution", "uncertainty") and label is None:
            return self._whole(name, options)
        return self._over_columns(name, options, label, average, undefined)

    def _whole(self, name: str, options: dict[str, Any]) -> float:
        """A measure of the whole distribution: the sum of its terms over the columns (which
        share their samples, so their totals)."""
        statistic = self._statistic(name, dict(options))
        return float(sum(statistic(*self._column(j))[0] for j in range(len(self.labels))))

    def reliability(self, *, n_bins: int | None = None, strategy: str = "uniform", estimator: str = "binned", label: Hashable | None = None) -> Reliability:
        """The points of a reliability diagram: mean score against the share of positives
        per non-empty bin (``estimator="binned"``), or, binning-free, every distinct score
        against its isotonic recalibration (``"isotonic"``, the CORP diagram).

        Examples:
            >>> cal = Calibration.from_scores([0, 1, 1, 0], [0.2, 0.9, 0.6, 0.4])
            >>> points = cal.reliability(n_bins=2)
            >>> points.confidence.round(12).tolist(), points.frequency.tolist(), points.weight.tolist()
            ([0.3, 0.75], [0.0, 1.0], [2.0, 2.0])
        """
        check_choice("estimator", estimator, ("binned", "isotonic"))
        check_choice("strategy", strategy, STRATEGIES)
        j = 0 if label is None and len(self.labels) == 1 else self._index(label)
        scores, sums = self._column(j)
        if estimator == "isotonic":
            if n_bins is not None or self.bins is not None:
                raise InvalidArgumentError("the isotonic diagram is binning-free and needs the exact counts: give no 'n_bins'")
            fit = _isotonic_fit(_exact(scores), sums.weight[0], sums.hits[0])
            kept = sums.weight[0] > 0
            return Reliability(_exact(scores)[kept], fit[kept], sums.weight[0][kept], np.zeros(0))
        size = self._n_bins(n_bins, strategy)
        starts, edges = self._bins_of(scores, sums, size, strategy)
        grouped = sums.grouped(starts)
        kept = grouped.weight[0] > 0
        weight = grouped.weight[0][kept]
        return Reliability(grouped.score[0][kept] / weight, grouped.hits[0][kept] / weight, weight, edges)

    def brier_score(self, *, label: Hashable | None = None) -> float:
        """The Brier score: ``Σ w (c - y)² / Σ w`` of the column, summed over the columns of
        a multi-column calibration (scikit-learn's multi-class Brier score).

        Examples:
            >>> round(Calibration.from_scores([0, 1, 1, 0], [0.2, 0.9, 0.6, 0.4]).brier_score(), 4)
            0.0925
        """
        return float(self.measure("brier_score", label=label))

    def log_loss(self, *, label: Hashable | None = None) -> float:
        """The log loss (scores clipped to ``[eps, 1 - eps]``, as scikit-learn's): binary
        cross-entropy of each column, summed over the columns; for ``"classwise"`` the
        multi-class log loss ``-Σ w log p_actual / Σ w``.

        Examples:
            >>> round(Calibration.from_scores([0, 1, 1, 0], [0.2, 0.9, 0.6, 0.4]).log_loss(), 4)
            0.3375
        """
        return float(self.measure("log_loss", label=label))

    def brier_decomposition(self, *, n_bins: int | None = None, strategy: str = "uniform", label: Hashable | None = None) -> BrierDecomposition:
        """The Brier score as ``reliability - resolution + uncertainty`` (Murphy, 1973) over
        the distinct scores (the default with exact counts), or over bins with the two
        within-bin terms that keep the identity exact (``n_bins``, or a binned calibration).
        Several columns: the terms summed over the columns (of the whole distribution).

        Examples:
            >>> parts = Calibration.from_scores([0, 1, 1, 0, 1], [0.2, 0.9, 0.6, 0.2, 0.6]).brier_decomposition()
            >>> [round(value, 4) for value in parts]
            [0.082, 0.082, 0.24, 0.24, 0.0, 0.0]
        """
        check_choice("strategy", strategy, STRATEGIES)
        within = n_bins is not None or self.bins is not None
        size = self._n_bins(n_bins, strategy) if within else 0
        total = np.zeros(5)
        brier = 0.0
        for j in self._columns_of(label):
            scores, sums = self._column(j)
            grouped = sums.grouped(self._bins_of(scores, sums, size, strategy)[0]) if within else sums
            total += _decomposition(grouped, within)[0]
            brier += float(_brier(sums)[0])
        return BrierDecomposition(brier, *(float(value) for value in total))

    def spiegelhalter_test(self, *, label: Hashable | None = None) -> CalibrationTest:
        """Spiegelhalter's z test of "every score is its sample's probability" (see
        ``CalibrationTest``), for one column.

        Examples:
            >>> test = Calibration.from_scores([0, 1, 1, 0, 1], [0.2, 0.9, 0.6, 0.2, 0.6]).spiegelhalter_test()
            >>> round(test.statistic, 4), round(test.p_value, 4)
            (-1.0954, 0.2733)
        """
        if label is None and len(self.labels) > 1:
            raise InvalidArgumentError(f"this calibration has {len(self.labels)} columns: give 'label' (one of {show(list(self.labels))})")
        _, sums = self._column(0 if label is None else self._index(label))
        a = float((sums.hits - 2 * sums.score_hits - sums.score + 2 * sums.score_squared).sum())
        variance = float(sums.spiegelhalter.sum())
        if variance <= 0:
            return CalibrationTest(math.nan, math.nan)
        z = a / math.sqrt(variance)
        return CalibrationTest(z, intervals.two_sided_p_value(z))

    def summary(self, *, n_bins: int | None = None, strategy: str = "uniform") -> dict[str, float]:
        """The calibration numbers of a report: ECE, MCE and RMSCE (binned), the debiased
        estimate of the mean squared calibration error (the square the RMSCE is the root of,
        without its bias; negative when the bins lie nearer the diagonal than their noise;
        NaN with float sample weights), the Brier score and its decomposition over the
        same bins, the log loss (of a top-label calibration: ``top_label_log_loss``, the binary
        log loss of the confidence against whether the top label was right), and, for one
        column, Spiegelhalter's p-value. Several columns: the errors are macro averages."""
        options: dict[str, Any] = {"n_bins": n_bins, "strategy": strategy}
        out = {name: self.measure(name, **options) for name in _NORM_OF}
        try:  # the estimate of the mean square itself, negative when the bins are nearer the diagonal than their noise
            root = self.measure("root_mean_squared_calibration_error", estimator="debiased", **options)
            out["debiased_mean_squared_calibration_error"] = math.copysign(root * root, root)
        except UnsupportedSettingError:  # float sample weights: no count of samples to debias with
            out["debiased_mean_squared_calibration_error"] = math.nan
        parts = self.brier_decomposition(n_bins=self._n_bins(n_bins, strategy), strategy=strategy)
        out.update(brier_score=parts.brier_score, reliability=parts.reliability, resolution=parts.resolution, uncertainty=parts.uncertainty)
        # a top-label calibration knows the confidence and whether it was right, not the actual class's probability: its log
        # loss is that of the binary question "was the top label right?", not scikit-learn's log_loss of the probabilities
        out["top_label_log_loss" if self.setting == "top_label" else "log_loss"] = self.log_loss()
        if len(self.labels) == 1:
            out["spiegelhalter_p_value"] = self.spiegelhalter_test().p_value
        return {name: float(value) for name, value in out.items()}

    def report_section(self) -> tuple[dict[str, float], str, Reliability]:
        """What a report shows of this calibration (``build_report(calibration=...)``): the
        ``summary``, its title, and the points of the reliability diagram (of the pooled
        columns, for several)."""
        title = f"calibration ({self.setting.replace('_', ' ')}, {self.bins or DEFAULT_BINS} equal-width bins)"
        return self.summary(), title, self.micro().reliability()

    def interval(self, measure: str = "expected_calibration_error", *, level: float = 0.95, method: str | None = None,
                 n_resamples: int = 2000, random_state: RandomState = None, **options: Any) -> intervals.Interval:  # fmt: skip
        """A bootstrap interval of a calibration measure of one column (the kinds of sample
        are the (score, outcome) pairs).

        The plug-in calibration errors are biased upwards, and so is their bootstrap
        distribution: their percentile interval misses the true ECE in about half the data
        sets of 200 samples. The default for the ECE and the RMSCE, ``method="debiased"``, is
        the normal interval around the debiased estimate: ``T ± z·sd(T*)``, ``T`` the debiased
        error of the data and ``sd(T*)`` its standard deviation over the resamples (for the
        RMSCE on the squared scale, the bounds then signed roots). Its ``estimate`` is ``T``,
        and its lower bound may be negative: the data are then consistent with no
        miscalibration. Other measures: ``"bca"`` (default), ``"percentile"`` or
        ``"normal"``. ``benchmarks/calibration.py`` measures the coverage.

        Args:
            measure: a calibration measure (``MEASURES``).
            level: the confidence level.
            method: ``"debiased"``, ``"bca"``, ``"percentile"`` or ``"normal"``.
            n_resamples: bootstrap resamples.
            random_state: the seed.
            **options: of the measure (``n_bins``, ``strategy``, ``estimator``).

        Raises:
            UnsupportedSettingError: a binned calibration (the bootstrap needs the scores),
                float sample weights, or a column of a multi-column calibration (its samples
                are rows over every column).

        Examples:
            >>> import numpy as np
            >>> rng = np.random.default_rng(0)
            >>> p = rng.random(300)
            >>> cal = Calibration.from_scores(rng.random(300) < p**1.5, p)
            >>> found = cal.interval(n_bins=10, random_state=0)
            >>> found.method, found.low < found.estimate < found.high, found.estimate == cal.error(n_bins=10, estimator="debiased")
            ('debiased', True, True)
        """
        if self._curve is None:
            raise UnsupportedSettingError("an interval needs the exact counts (every distinct score), not bins")
        if len(self.labels) > 1:
            raise UnsupportedSettingError(
                f"an interval of one column of a {self.setting} calibration would resample its columns apart; "
                "build the calibration of that column (binary), or a top-label one"
            )
        name = _ALIASES.get(measure, measure)
        debiased = name in ("expected_calibration_error", "root_mean_squared_calibration_error")
        method = method or ("debiased" if debiased else "bca")
        check_choice("method", method, ("debiased", *intervals.BOOTSTRAP_METHODS))
        if method == "debiased":
            if not debiased or options.get("estimator", "binned") != "binned":
                raise InvalidArgumentError("method='debiased' is for the binned ECE and RMSCE; other measures take 'bca', 'percentile' or 'normal'")
            options = {**options, "estimator": "debiased"}
        statistic = self._statistic(name, dict(options))
        squared = method == "debiased" and name == "root_mean_squared_calibration_error"
        scores, positives, negatives = self._curve.score_counts(self._curve.labels[0])
        levels = len(scores)

        def value(positive_counts: np.ndarray, negative_counts: np.ndarray) -> np.ndarray:
            found = statistic(scores, _Sums.of_scores(scores, positive_counts + negative_counts, positive_counts))
            return np.sign(found) * found**2 if squared else found

        estimate = float(value(positives.astype(np.float64)[None, :], negatives[None, :])[0])
        found = intervals.counts_interval(np.concatenate([positives, negatives]), lambda drawn: value(drawn[:, :levels], drawn[:, levels:]),
                                          estimate, level=level, method="normal" if method == "debiased" else method,
                                          n_resamples=n_resamples, random_state=random_state, what=name.replace("_", " "))  # fmt: skip
        if method != "debiased":
            return found
        signed_root = (lambda bound: math.copysign(math.sqrt(abs(bound)), bound)) if squared else (lambda bound: bound)
        return intervals.Interval(signed_root(found.estimate), signed_root(found.low), signed_root(found.high), found.level, "debiased",
                                  found.n_undefined)  # fmt: skip

    # ----------------------------------------------------------------------------------------
    # combining

    OPERATIONS: ClassVar[frozenset[str]] = ALL_OPERATIONS - {"update", "revert", "count"}
    REFUSED: ClassVar[Mapping[str, str]] = {"update": "a Calibration is immutable: merge another batch's (or count a stream with CalibrationCounts)", "revert": "a Calibration is immutable: merge another batch's (or count a stream with CalibrationCounts)",
                                          "count": "a Calibration is built whole: a window counts Stream(Calibration.from_scores) or CalibrationCounts"}

    def __repr__(self) -> str:
        kind = "exact" if self.bins is None else f"bins={self.bins}"
        return f"Calibration({self.setting}, {kind}, labels={list(self.labels)!r}, samples={self.n_samples})"

    def to_dict(self, *, strict: bool = False) -> dict[str, Any]:
        """The summary numbers (see ``summary``) with the setting and the columns;
        ``strict=True``: plain data strict JSON takes."""
        out = {"setting": self.setting, "labels": list(self.labels), "bins": self.bins, **self.summary()}
        return json_safe(out) if strict else out


if not TYPE_CHECKING:  # the names this module gave in evalkit 0.1.0 and lost, found with a warning
    __getattr__ = moved_names.finder(__name__)
