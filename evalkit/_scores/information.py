"""How much a classifier's class probabilities tell beyond the class priors: the information
scores of Kononenko & Bratko (1991), the entropy (Sf) scores, the errors of the class
distributions against the priors' and the coverage of predicted regions, as Weka's
``Evaluation`` reports them, kept as exact sums (a counted state).

Per classified sample (weight ``w``, true class ``c``, probabilities ``p``, priors ``π``;
``q = p_c`` and ``r = π_c``, each at least the smallest float, so a probability of 0 costs 1,074
bits):

* K&B information ``w (log₂ q − log₂ r)`` where ``q ≥ r``, else ``w (log₂(1 − r) − log₂(1 − q))``;
* scheme and prior entropy ``−w log₂ q`` and ``−w log₂ r``;
* the absolute and squared errors ``w Σ_j |p_j − [j = c]| / m`` (and of ``π``), Weka's MAE and
  RMSE of a nominal class;
* whether ``c`` is in the predicted region (``evalkit._scores.conformal.top_mass_sets``) and its size over ``m``.

A sample whose probabilities are all 0 is unclassified: it weighs in the total, nothing else.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from decimal import ROUND_HALF_UP, Decimal, localcontext
from typing import TYPE_CHECKING

import numpy as np

from evalkit._engine._exact import exact_bincount, in_units, rounded_counts
from evalkit._engine._labels import check_label_list
from evalkit._engine._validation import as_array, check_sample_weight, show
from evalkit._results._summed import SummedState
from evalkit._scores.conformal import class_codes, probability_rows, top_mass_rows
from evalkit.exceptions import InputLengthError, InputShapeError, InvalidArgumentError
from evalkit.measures._arithmetic import ratio
from evalkit.measures._matrix_formulas import margins_cohen_kappa

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from evalkit._engine._types import LabelsLike

__all__ = ["InformationScores"]

_SMALLEST = 5e-324
"""The smallest probability taken (Java's ``Double.MIN_VALUE``): ``log₂`` of it is −1,074."""

MARGIN_BINS = 500
"""The bins of the margin ``p_c − max_(j≠c) p_j`` over [−1, 1] (Weka's resolution)."""

_FIELDS = ("samples", "unclassified", "scheme_entropy", "prior_entropy", "absolute_error", "squared_error", "prior_absolute_error",
           "prior_squared_error", "covered", "region_size")  # fmt: skip
"""The non-negative sums, in the order of ``_counts``."""


def _weka_number(value: float, width: int = 12, decimals: int = 4) -> str:
    """A number as Weka 3.8's ``Utils.doubleToString(value, width, decimals)`` prints it: rounded
    half up on its exact binary value, trailing zeros dropped, the whole part right-aligned in
    ``width - decimals - 1`` and the decimals left-aligned (a number too wide as it is)."""
    if math.isnan(value) or math.isinf(value):
        text = "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    else:
        with localcontext() as context:
            context.prec = 400  # (every double's whole part fits: quantize never runs out of digits)
            exact = Decimal(value) if abs(value) < 1e17 else Decimal(repr(value))  # (beyond 17 digits Java prints a double's shortest digits, not its binary value)
            rounded = exact.quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_UP)
        text = format(rounded, "f").rstrip("0").rstrip(".") if "." in format(rounded, "f") else format(rounded, "f")
        text = "-0" if text in ("0", "-0") and (value < 0 or math.copysign(1, value) < 0) else text
    whole, point, fraction = text.partition(".")
    if len(whole) > width - decimals - 1:
        return text
    return whole.rjust(width - decimals - 1) + ("." + fraction.ljust(decimals) if point else " " * (decimals + 1))


class InformationScores(SummedState):
    """The information and entropy scores of class probabilities against class priors, their
    errors against the priors' and the coverage of predicted regions (Weka's ``Evaluation``:
    ``KBInformation``, ``SFSchemeEntropy``, ``relativeAbsoluteError``, ...).

    Reading (each a ratio, where Weka prints a percentage): ``kb_information()``,
    ``kb_mean_information()``, ``kb_relative_information()``, ``sf_prior_entropy()``,
    ``sf_mean_prior_entropy()``, ``sf_scheme_entropy()``, ``sf_mean_scheme_entropy()``,
    ``sf_entropy_gain()``, ``sf_mean_entropy_gain()``, ``prior_entropy()``,
    ``mean_absolute_error()``, ``root_mean_squared_error()``, ``mean_prior_absolute_error()``,
    ``root_mean_prior_squared_error()``, ``relative_absolute_error()``,
    ``root_relative_squared_error()``, ``coverage()``, ``region_size()``, ``unclassified``,
    ``n_samples``. Counting (a counted state): ``update``, ``+``, ``-``, ``scaled``, ``empty``,
    ``copy``, ``==``, ``to_json``/``from_json``, pickle.

    Args:
        labels: the classes, one per column of the probabilities.
        priors: how much each class weighs before the classifier is asked (normalised to the
            priors ``π``): Weka's are the training set's class weights plus 1 each
            (``np.bincount(train, minlength=m) + 1``); ``None``: uniform (Weka's
            ``new Evaluation(header)`` without training data).
        level: the probability mass of a predicted region (Weka: 0.95).

    Parts counted against other priors merge (each sample keeps the priors it was scored
    against, as Weka's cross-validation scores each fold against its training fold's); the
    result counts further against the first part's priors.

    Examples:
        >>> scores = InformationScores.from_probabilities(["a", "b", "b"], [[0.8, 0.2], [0.3, 0.7], [0.6, 0.4]], labels=["a", "b"], priors=[2, 3])
        >>> round(scores.kb_information(), 4), round(scores.relative_absolute_error(), 4)
        (0.6374, 0.7857)
    """

    DOCUMENT = "InformationScores"
    SETTINGS, SUMS, SIGNED = ("labels", "priors", "level"), ("_counts", "_kb", "_margins", "_classes"), frozenset({"_kb"})

    def __init__(self, labels: Sequence[Hashable], *, priors: ArrayLike | None = None, level: float = 0.95) -> None:
        self.labels = check_label_list(labels)
        m = len(self.labels)
        if m < 2:
            raise InvalidArgumentError(f"'labels' must name two or more classes, got {show(labels)}")
        if priors is None:
            self.priors: tuple[float, ...] | None = None
        else:
            weights = as_array(priors, "priors")
            if weights.shape != (m,) or weights.dtype.kind not in "iuf" or not (np.isfinite(weights).all() and (weights > 0).all()):
                raise InvalidArgumentError(f"'priors' must be {m} finite weights > 0, one per class, got {show(priors)}")
            self.priors = tuple(float(weight) for weight in weights)
        if isinstance(level, bool) or not isinstance(level, (int, float, np.integer, np.floating)) or not 0 < level <= 1:
            raise InvalidArgumentError(f"'level' must be a number in (0, 1], e.g. 0.95; got {show(level)}")
        self.level = float(level)
        self._counts = in_units(np.zeros(len(_FIELDS)))
        self._kb = in_units(np.zeros(1))
        self._margins = in_units(np.zeros(MARGIN_BINS + 1))  # the weight of the samples in each bin of the margin (Weka's 500)
        self._classes = in_units(np.zeros((3, m)))  # per class, of the classified samples: the weight of its samples, of its predictions, of its right ones

    @classmethod
    def from_probabilities(cls, y_true: LabelsLike, y_prob: ArrayLike, *, labels: Sequence[Hashable], priors: ArrayLike | None = None,
                           level: float = 0.95, sample_weight: ArrayLike | None = None) -> InformationScores:  # fmt: skip
        """The scores of one batch: a true class and a row of class probabilities per sample."""
        result = cls(labels, priors=priors, level=level)
        result.update(y_true, y_prob, sample_weight=sample_weight)
        return result

    def update(self, y_true: LabelsLike, y_prob: ArrayLike, /, *, sample_weight: ArrayLike | None = None) -> None:
        """Count a batch (in place).

        Raises:
            InvalidValueError: a probability outside [0, 1] (or NaN), or a row summing to more than 1.
            InputShapeError, InputLengthError: not one row of ``len(labels)`` probabilities per sample.
            UnknownLabelError: a true class outside ``labels``.
        """
        super().update(y_true, y_prob, sample_weight=sample_weight)

    def _setting_values(self) -> tuple:
        return (self.labels, self.level)  # (the priors say how samples are scored, not what their sums are)

    def _count(self, y_true: LabelsLike, y_prob: ArrayLike, /, *, sample_weight: ArrayLike | None = None) -> tuple[np.ndarray, ...]:
        p, m = probability_rows(y_prob), len(self.labels)
        if p.shape[1] != m:
            raise InputShapeError(f"'y_prob' must be a samples x {m} matrix of probabilities (one column per label), got {show(p)}")
        truth = as_array(y_true, "y_true")
        if len(truth) != len(p):
            raise InputLengthError(f"'y_true' and 'y_prob' must have one entry per sample, got {len(truth)} and {len(p)}")
        codes = class_codes(truth, self.labels)
        weight = check_sample_weight(sample_weight, len(p))
        w = np.ones(len(p)) if weight is None else weight.astype(np.float64)
        priors = np.full(m, 1.0) if self.priors is None else np.array(self.priors) / max(self.priors)  # (huge weights: no overflow)
        priors = priors / math.fsum(priors)
        rows = np.arange(len(p))
        q, r = np.maximum(p[rows, codes], _SMALLEST), np.maximum(priors[codes], _SMALLEST)
        with np.errstate(divide="ignore", invalid="ignore"):  # (log₂(1 − q) of q = 1: the branch not taken)
            kb = np.where(q >= r, np.log2(q) - np.log2(r), np.log2(1 - r) - np.log2(1 - q))
        truth_rows = np.zeros((len(p), m))
        truth_rows[rows, codes] = 1.0
        errors, prior_errors = p - truth_rows, priors - truth_rows
        sets = top_mass_rows(p, self.level)  # (the rows checked once, above)
        classified = (p > 0).any(axis=1)
        terms = np.stack([np.ones(len(p)), ~classified, -np.log2(q), -np.log2(r), np.abs(errors).sum(axis=1) / m, (errors**2).sum(axis=1) / m,
                          np.abs(prior_errors).sum(axis=1) / m, (prior_errors**2).sum(axis=1) / m, sets[rows, codes], sets.sum(axis=1) / m], axis=1)  # fmt: skip
        terms[~classified, 2:] = 0.0  # an unclassified sample weighs in the total alone
        terms *= w[:, None]
        slots = np.empty(terms.shape, dtype=np.intp)
        slots[:] = np.arange(len(_FIELDS))  # (each row's sums in their slots, without np.tile's copy)
        counts = exact_bincount(slots.ravel(), terms.ravel(), len(_FIELDS))
        others = np.where(truth_rows > 0, -np.inf, p).max(axis=1, initial=0.0)  # (the highest probability of another class, at least 0)
        bins = np.floor((p[rows, codes] - others + 1) / 2 * MARGIN_BINS).astype(np.intp)  # (Weka truncates so: ((margin + 1) / 2) * 500)
        predicted, kept = np.argmax(p, axis=1), w * classified  # (Weka predicts the first class of the highest probability; a row of zeros nothing)
        slots = np.concatenate((codes, m + predicted, 2 * m + codes))
        classes = exact_bincount(slots, np.concatenate((kept, kept, np.where(predicted == codes, kept, 0.0))), 3 * m).reshape(3, m)
        return (counts, exact_bincount(np.zeros(len(p), dtype=np.intp), np.where(classified, kb, 0.0) * w, 1), exact_bincount(bins, w, MARGIN_BINS + 1),
                classes)  # fmt: skip

    def _invalid(self) -> str | None:
        """Sums no counting gives: one below 0, or more than the classified samples can carry
        (per classified sample: covered and region size at most 1, each error at most ``2/m``
        and a little (rows may sum a rounding above 1),
        each entropy and ``|K&B|`` at most 1,074 bits), as a part never added leaves them."""
        sums = dict(zip(_FIELDS, rounded_counts(self._counts).tolist()))
        classified, m = sums["samples"] - sums["unclassified"], len(self.labels)
        slack = 1e-9 * max(sums["samples"], 1.0)  # (scaled sums round)
        bounds = {"covered": 1.0, "region_size": 1.0, **dict.fromkeys(("absolute_error", "squared_error", "prior_absolute_error", "prior_squared_error"), 2.01 / m),
                  **dict.fromkeys(("scheme_entropy", "prior_entropy"), 1074.0)}  # fmt: skip
        kb = float(rounded_counts(self._kb)[0])
        classes = rounded_counts(self._classes)
        actual, predicted, right = classes
        if np.any(classes < 0) or np.any(right > np.minimum(actual, predicted) + slack) or not (
                abs(actual.sum() - classified) <= slack and abs(predicted.sum() - classified) <= slack):  # fmt: skip
            return "these sums are not a count of samples: the classes' sums do not add up to the classified samples"
        if any(value < 0 for value in sums.values()) or classified < -slack or abs(kb) > 1074.0 * classified + slack or any(
                sums[name] > bound * classified + slack for name, bound in bounds.items()):  # fmt: skip
            return "these sums are not a count of samples: a sum below 0, or more than the classified samples carry"
        return None

    def _sum(self, name: str) -> float:
        return float(self._numbers("_counts")[_FIELDS.index(name)])

    @property
    def n_samples(self) -> float:
        """How much the counted samples weigh (Weka's ``numInstances``)."""
        return self._sum("samples")

    @property
    def unclassified(self) -> float:
        """How much the samples weigh whose probabilities are all 0 (Weka's ``unclassified``)."""
        return self._sum("unclassified")

    def _classified(self) -> float:
        return self.n_samples - self.unclassified

    def kb_information(self) -> float:
        """The K&B information score in bits, summed over the samples (``KBInformation``)."""
        return float(self._numbers("_kb")[0])

    def kb_mean_information(self) -> float:
        """The K&B information per classified sample (``KBMeanInformation``)."""
        return float(ratio(self.kb_information(), self._classified()))

    def kb_relative_information(self) -> float:
        """The mean K&B information over the mean prior entropy, ``kb_mean_information() /
        prior_entropy()`` (Weka 3.8's ``KBRelativeInformation`` / 100; Weka 3.6 divides the
        total K&B information by the entropy of the priors, a number that grows with the data)."""
        return float(ratio(self.kb_mean_information(), self.prior_entropy()))

    def sf_prior_entropy(self) -> float:
        """The bits needed to code the true classes with the priors (``SFPriorEntropy``)."""
        return self._sum("prior_entropy")

    def sf_mean_prior_entropy(self) -> float:
        """``sf_prior_entropy()`` per sample (``SFMeanPriorEntropy``)."""
        return float(ratio(self._sum("prior_entropy"), self.n_samples))

    def prior_entropy(self) -> float:
        """The mean prior entropy (Weka 3.8's ``priorEntropy``; Weka 3.6's is the entropy
        ``−Σ π_k log₂ π_k`` of the priors themselves)."""
        return self.sf_mean_prior_entropy()

    def sf_scheme_entropy(self) -> float:
        """The bits needed to code the true classes with the classifier's probabilities: the log
        loss in bits, summed (``SFSchemeEntropy``)."""
        return self._sum("scheme_entropy")

    def sf_mean_scheme_entropy(self) -> float:
        """``sf_scheme_entropy()`` per classified sample (``SFMeanSchemeEntropy``)."""
        return float(ratio(self._sum("scheme_entropy"), self._classified()))

    def sf_entropy_gain(self) -> float:
        """The bits the classifier saves over the priors (``SFEntropyGain``)."""
        return self.sf_prior_entropy() - self.sf_scheme_entropy()

    def sf_mean_entropy_gain(self) -> float:
        """``sf_entropy_gain()`` per classified sample (``SFMeanEntropyGain``)."""
        return float(ratio(self.sf_entropy_gain(), self._classified()))

    def mean_absolute_error(self) -> float:
        """The mean of ``Σ_j |p_j − [j = c]| / m`` over the classified samples (``meanAbsoluteError``)."""
        return float(ratio(self._sum("absolute_error"), self._classified()))

    def root_mean_squared_error(self) -> float:
        """The root of the mean of ``Σ_j (p_j − [j = c])² / m`` over the classified samples
        (``rootMeanSquaredError``: the root of the Brier score over ``m``)."""
        return math.sqrt(ratio(self._sum("squared_error"), self._classified()))

    def mean_prior_absolute_error(self) -> float:
        """The absolute error of the priors, per sample (``meanPriorAbsoluteError``)."""
        return float(ratio(self._sum("prior_absolute_error"), self.n_samples))

    def root_mean_prior_squared_error(self) -> float:
        """The root mean squared error of the priors (``rootMeanPriorSquaredError``)."""
        return math.sqrt(ratio(self._sum("prior_squared_error"), self.n_samples))

    def relative_absolute_error(self) -> float:
        """``mean_absolute_error() / mean_prior_absolute_error()`` (``relativeAbsoluteError`` / 100)."""
        return float(ratio(self.mean_absolute_error(), self.mean_prior_absolute_error()))

    def root_relative_squared_error(self) -> float:
        """``root_mean_squared_error() / root_mean_prior_squared_error()`` (``rootRelativeSquaredError`` / 100)."""
        return float(ratio(self.root_mean_squared_error(), self.root_mean_prior_squared_error()))

    def coverage(self) -> float:
        """The share of the samples whose predicted region holds their class
        (``coverageOfTestCasesByPredictedRegions`` / 100); ``SetCoverage.from_probabilities``
        gives the regions' every other measure."""
        return float(ratio(self._sum("covered"), self.n_samples))

    def region_size(self) -> float:
        """The mean size of the predicted regions over the number of classes (``sizeOfPredictedRegions`` / 100)."""
        return float(ratio(self._sum("region_size"), self.n_samples))

    def margin_distribution(self) -> tuple[np.ndarray, np.ndarray]:
        """The cumulative distribution of the margins ``p_c − max_(j≠c) p_j`` (every sample, the
        unclassified ones too), in ``MARGIN_BINS`` bins over [−1, 1]: the lower edge of each bin
        that holds a sample and the share of the samples at or below it (Weka's
        ``toCumulativeMarginDistributionString``, in percent there; Schapire et al. 1998).

        Examples:
            >>> scores = InformationScores.from_probabilities(["a", "b"], [[0.9, 0.1], [0.6, 0.4]], labels=["a", "b"])
            >>> [values.tolist() for values in scores.margin_distribution()]
            [[-0.2, 0.8], [0.5, 1.0]]
        """
        weights = self._numbers("_margins")
        held = np.flatnonzero(weights > 0)
        return (2 * held - MARGIN_BINS) / MARGIN_BINS, np.cumsum(weights)[held] / self.n_samples

    def weka_summary(self, *, complexity: bool = True, coverage: bool = False, title: str = "") -> str:
        """Weka's ``toSummaryString(title, complexity)`` line for line: correct and incorrect
        weight (each sample predicted as the first class of its highest probability; percent of
        every sample), Weka's kappa of the classified samples, the K&B and entropy lines
        (``complexity``), the errors, the regions' coverage and size (``coverage``: Weka 3.8's
        ``-toggle``), the unclassified and the total. Numbers as Weka 3.8 prints them (12 wide,
        4 decimals, half up); its K&B relative score.

        Examples:
            >>> scores = InformationScores.from_probabilities(["a", "b"], [[0.9, 0.1], [0.6, 0.4]], labels=["a", "b"])
            >>> print(scores.weka_summary(complexity=False))
            <BLANKLINE>
            Correctly Classified Instances           1               50      %
            Incorrectly Classified Instances         1               50      %
            Kappa statistic                          0     
            Mean absolute error                      0.35  
            Root mean squared error                  0.4301
            Relative absolute error                 70      %
            Root relative squared error             86.0233 %
            Total Number of Instances                2     
            <BLANKLINE>
        """
        total, classified = self.n_samples, self.n_samples - self.unclassified
        actual, predicted, right = in_units(self._classes)  # (exact: the kappa of the margins combines them before it divides)
        correct = float(rounded_counts(np.array([right.sum()], dtype=object))[0])
        kappa = float(margins_cohen_kappa(correct=right.sum(), total=actual.sum(), actual=actual, predicted=predicted))
        if math.isnan(kappa) and classified > 0:  # chance agreement certain (one class only): Weka's kappa is 1
            kappa = 1.0

        def share(amount: float) -> str:
            return f"{_weka_number(amount)}     {_weka_number(100 * amount / total)} %"

        def bits(name: str) -> str:
            return f"{_weka_number(getattr(self, name)())} bits{_weka_number(getattr(self, name.replace('_', '_mean_', 1))())} bits/instance"

        lines = []
        if total > 0:  # (Weka prints the total alone for nothing counted)
            lines += [("Correctly Classified Instances", share(correct)), ("Incorrectly Classified Instances", share(classified - correct)),
                      ("Kappa statistic", _weka_number(kappa))]  # fmt: skip
            if complexity:
                lines += [("K&B Relative Info Score", f"{_weka_number(100 * self.kb_relative_information())} %"), ("K&B Information Score", bits("kb_information")),
                          ("Class complexity | order 0", bits("sf_prior_entropy")), ("Class complexity | scheme", bits("sf_scheme_entropy")),
                          ("Complexity improvement     (Sf)", bits("sf_entropy_gain"))]  # fmt: skip
            lines += [("Mean absolute error", _weka_number(self.mean_absolute_error())), ("Root mean squared error", _weka_number(self.root_mean_squared_error())),
                      ("Relative absolute error", f"{_weka_number(100 * self.relative_absolute_error())} %"),
                      ("Root relative squared error", f"{_weka_number(100 * self.root_relative_squared_error())} %")]  # fmt: skip
            if coverage:
                level = _weka_number(self.level, 4, 2).strip()
                lines += [(f"Coverage of cases ({level} level)", f"{_weka_number(100 * self.coverage())} %"),
                          (f"Mean rel. region size ({level} level)", f"{_weka_number(100 * self.region_size())} %")]  # fmt: skip
        if self.unclassified > 1e-6:
            lines.append(("UnClassified Instances", share(self.unclassified)))
        lines.append(("Total Number of Instances", _weka_number(total)))
        return title + "\n" + "".join(f"{label:<35}{value}\n" for label, value in lines)

    def __repr__(self) -> str:
        return f"InformationScores(labels={list(self.labels)!r}, samples={self.n_samples})"

