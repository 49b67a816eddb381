"""Probability measures of the scikit-learn face: log loss, Brier score, hinge loss, the D²
scores and calibration.

Private: ``evalkit.metrics`` is the public path of every function here.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Hashable, Sequence
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine._labels import check_label_list, check_one_label
from evalkit._engine._types import LabelsLike, ScoresLike
from evalkit._engine._validation import (
    as_array,
    check_numbers,
    check_ordered,
    check_sample_weight,
    column_or_1d,
    is_sparse,
    show,
)
from evalkit._engine.counting import encode
from evalkit._results.evaluation import Evaluation
from evalkit._scores.calibration import DEFAULT_BINS, BrierDecomposition, Calibration, error_of_scores
from evalkit._scores.scoring import brier_losses, class_log_losses, log_losses, own_column, own_log_losses, row_sums
from evalkit.exceptions import (
    EmptyInputError,
    InputLengthError,
    InputShapeError,
    InvalidArgumentError,
    InvalidValueError,
    UndefinedMetricWarning,
    UnknownLabelError,
    UnsupportedSettingError,
)
from evalkit.metrics._inputs import _as_target, _binary_scores, _binary_truth, _is_label, _label_listing, _mean_loss

__all__ = [
    "brier_score_decomposition", "brier_score_loss", "calibration_curve", "d2_brier_score", "d2_log_loss_score",
    "expected_calibration_error", "hinge_loss", "log_loss", "top_label_ece",
]


def _probability_array(y_proba: ScoresLike) -> tuple[np.ndarray, float, float]:
    """Probabilities as float64, 1-D (the positive class's) or ``n x m``, in sample order, and
    their smallest and largest value (NaN and infinities refused: they show in either)."""
    check_ordered(y_proba, "y_proba", "probabilities")
    probabilities = check_numbers("y_proba", y_proba, booleans=True)
    lo, hi = (float(probabilities.min()), float(probabilities.max())) if probabilities.size else (0.0, 0.0)
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise InvalidValueError(f"'y_proba' holds NaN or infinity: {show(probabilities)}")
    if probabilities.ndim not in (1, 2):
        raise InputShapeError(f"'y_proba' must be 1-D (the positive class) or n x m probabilities, got shape {probabilities.shape}")
    return probabilities, lo, hi


class _Classes(NamedTuple):
    """The truth of samples and their class probabilities (``n x m``, over the sorted classes):
    each sample's class (``codes``), or 0/1 indicator rows of several (``indicators``); of two
    classes given as the positive one's probabilities, those (``positive``: ``n x 2`` is then
    never built)."""

    codes: np.ndarray | None
    indicators: np.ndarray | None
    table: np.ndarray | None
    positive: np.ndarray | None = None

    @property
    def n_classes(self) -> int:
        return 2 if self.table is None else self.table.shape[1]

    @property
    def n_samples(self) -> int:
        return len(self.codes) if self.codes is not None else len(self.probabilities)

    @property
    def probabilities(self) -> np.ndarray:
        """``n x m``: every class's probability."""
        if self.table is not None:
            return self.table
        assert self.positive is not None
        return np.stack([1 - self.positive, self.positive], axis=1)

    def totals(self, weight: np.ndarray | None) -> tuple[np.ndarray, float]:
        """The (weighted) number of samples of each class, and of all."""
        m = self.n_classes
        if self.codes is not None:
            counts = np.bincount(self.codes, weight, minlength=m).astype(np.float64)
        else:
            assert self.indicators is not None
            counts = self.indicators.sum(axis=0) if weight is None else weight @ self.indicators
        return counts, float(self.n_samples if weight is None else weight.sum())

    def losses(self, kind: str) -> np.ndarray:
        """Each sample's log loss (``kind="log"``) or multi-class Brier score (``"brier"``): of
        one class, ``-log p_c`` and ``Σ_j p_j² - 2 p_c + 1``, with no one-hot rows."""
        if self.codes is None:
            assert self.indicators is not None
            return (log_losses if kind == "log" else brier_losses)(self.indicators, self.probabilities)
        if self.positive is not None:  # two classes: (1 - p - (1 - t))² + (p - t)² = 2 (p - t)²
            if kind == "log":
                return own_log_losses(np.where(self.codes == 1, self.positive, 1 - self.positive))
            gap = self.positive - self.codes
            return 2 * gap * gap
        table = self.probabilities
        if kind == "log":
            return class_log_losses(self.codes, table)
        return row_sums(table * table) - 2 * own_column(table, self.codes) + 1

    def null_total(self, kind: str, weight: np.ndarray | None) -> float:
        """``Σ_i w_i loss_i`` of the null model, which gives every sample the (weighted) share
        ``π_j = T_j / W`` of each class (from the class totals ``T``): each sample's loss by the
        same arithmetic as a model's, so that a model predicting ``π`` scores exactly as the
        null model does (its D² is 0, not a rounding away from it)."""
        counts, whole = self.totals(weight)
        shares = counts / whole if whole else np.zeros_like(counts)
        n = self.n_samples
        if self.positive is not None:
            null = self._replace(positive=np.full(n, shares[1]))
        else:
            null = self._replace(table=np.broadcast_to(shares, (n, len(shares))))
        return float(null.losses(kind).sum() if weight is None else np.dot(null.losses(kind), weight))


def _probabilities(y_true: LabelsLike, y_proba: ScoresLike, labels: Any) -> _Classes:
    """scikit-learn's checks of class probabilities: the truth and the ``n x m`` probabilities
    over the sorted classes (1-D probabilities are the positive class's of two)."""
    probabilities, lo, hi = _probability_array(y_proba)
    if hi > 1:
        raise InvalidValueError(f"y_prob contains values greater than 1: 'y_proba' holds {hi}")
    if lo < 0:
        raise InvalidValueError(f"y_prob contains values less than 0: 'y_proba' holds {lo}")
    if probabilities.ndim == 1:
        probabilities = probabilities[:, None]
    if probabilities.shape[1] == 1:
        probabilities = np.concatenate([1 - probabilities, probabilities], axis=1)
    kind, truth = _as_target(y_true, "y_true")
    _check_lengths(truth.shape[0] if kind == "indicators" else len(truth), len(probabilities))
    if kind == "indicators":
        truth = np.asarray(truth.toarray() if is_sparse(truth) else truth)
        if truth.shape != probabilities.shape:
            raise InputShapeError(f"'y_proba' has shape {probabilities.shape} but 'y_true' has shape {truth.shape}")
        return _Classes(None, truth.astype(np.float64), probabilities)
    codes, _, observed, _ = encode(truth, truth)
    if labels is None:
        classes = observed
        if len(classes) == 1:
            raise InvalidArgumentError(f"y_true contains only one label ({classes[0]}). Please provide the list of all expected class labels "
                                       "explicitly through the labels argument.")
    else:
        labels = check_label_list(labels)
        classes = tuple(sorted(labels))
        if len(classes) < 2:
            raise InvalidArgumentError(f"The labels array needs to contain at least two labels, got 'labels' {show(list(labels))}")
        if classes != tuple(labels):
            warnings.warn(
                f"Labels passed were {list(labels)}. But this function assumes labels are ordered lexicographically. "
                f"Pass the ordered labels={list(classes)} and ensure that the columns of y_prob correspond to this ordering.",
                UserWarning,
                stacklevel=3,
            )
        extra = [label for label in observed if label not in classes]
        if extra:
            raise UnknownLabelError(f"y_true contains values {set(extra)!r} not belonging to the passed labels {list(classes)!r}.")
    if len(classes) != probabilities.shape[1]:
        if labels is not None:
            raise InputShapeError(f"The number of classes in labels is different from that in y_prob. Classes found in labels: "
                                  f"{_label_listing(classes)} ('labels' has {len(classes)} classes, 'y_proba' {probabilities.shape[1]} columns)")
        raise InputShapeError(
            f"y_true and y_prob contain different number of classes: {len(classes)} vs {probabilities.shape[1]}. Please provide the true "
            f"labels explicitly through the labels argument. Classes found in y_true: {_label_listing(classes)}"
        )
    if tuple(observed) != tuple(classes):  # the observed labels are a sorted part of the classes: their positions there
        position = {label: k for k, label in enumerate(classes)}
        codes = np.array([position[label] for label in observed], dtype=np.intp)[codes]
    sums = row_sums(probabilities)
    sums -= 1
    if probabilities.size and np.abs(sums, out=sums).max() > 1e-8 + np.sqrt(np.finfo(np.float64).eps):  # numpy's allclose(sums, 1, rtol)
        warnings.warn("The y_prob values do not sum to one. Make sure to pass probabilities.", UserWarning, stacklevel=3)
    return _Classes(np.asarray(codes, dtype=np.intp), None, probabilities)


def _check_lengths(n: int, rows: int) -> None:
    """``y_true`` and ``y_proba`` have one length (scikit-learn's message, then evalkit's)."""
    if n != rows:
        raise InputLengthError(f"Found input variables with inconsistent numbers of samples: [{rows}, {n}] ('y_proba' has {rows}, 'y_true' {n})")


def _renamed_probabilities(y_proba: ScoresLike | None, y_pred: ScoresLike) -> ScoresLike:
    """``y_proba``, or ``y_pred``, its older name (scikit-learn renamed it in 1.9)."""
    if not (isinstance(y_pred, str) and y_pred == "deprecated"):
        if y_proba is not None:
            raise InvalidArgumentError("Cannot use both `y_pred` and `y_proba`. `y_pred` is deprecated, use `y_proba` instead.")
        warnings.warn("`y_pred` was renamed to `y_proba` in version 1.9 and will be removed in 1.11 (scikit-learn's versions, whose names "
                      "evalkit.metrics follows): pass y_proba=", FutureWarning, stacklevel=3)  # fmt: skip
        y_proba = y_pred
    if y_proba is None:
        raise InvalidArgumentError("'y_proba' is required: the predicted probabilities")
    return y_proba


def log_loss(
    y_true: LabelsLike, y_proba: ScoresLike | None = None, *, normalize: bool = True, sample_weight: ArrayLike | None = None, labels: Sequence[Any] | None = None,
    y_pred: ScoresLike = "deprecated",
) -> float:  # fmt: skip
    """Log loss (cross-entropy) ``-mean Σ_j t_j log p_j`` of class probabilities, as
    scikit-learn's ``log_loss`` (probabilities clipped to ``[eps, 1 - eps]``; columns in
    sorted label order; 1-D probabilities are the positive class's). ``y_pred`` is the older
    name of ``y_proba`` and still accepted.

    Examples:
        >>> round(log_loss(["spam", "ham", "ham", "spam"], [[0.1, 0.9], [0.9, 0.1], [0.8, 0.2], [0.35, 0.65]]), 6)
        0.216162
    """
    y_proba = _renamed_probabilities(y_proba, y_pred)
    return _mean_loss(_probabilities(y_true, y_proba, labels).losses("log"), sample_weight, normalize)


def _any_probabilities(y_true: LabelsLike, y_proba: ScoresLike, pos_label: Hashable, labels: Any) -> _Classes:
    """The truth and the ``n x m`` probabilities: of the positive class against the other when
    ``y_proba`` is 1-D (``pos_label`` as scikit-learn infers it), else of every class."""
    scores, lo, hi = _probability_array(y_proba)
    if column_or_1d(scores).ndim != 1:
        return _probabilities(y_true, scores, labels)
    scores = column_or_1d(scores)
    if pos_label is not None:
        pos_label = check_one_label("pos_label", pos_label)
    truth = _binary_truth(y_true)
    codes, _, observed, _ = encode(truth, truth)
    if len(observed) > 2:
        raise InvalidValueError(f"The type of the target inferred from y_true is multiclass but should be binary according to the shape of y_prob. "
                                f"'y_true' has {len(observed)} classes but 'y_proba' is 1-D (binary): give one column per class")
    if pos_label is None:
        if any(isinstance(label, str) for label in observed):
            raise InvalidArgumentError(f"pos_label is not specified: 'y_true' has labels {show(list(observed))}; give 'pos_label', the positive class")
        pos_label = observed[-1] if not (set(observed) <= {0, 1} or set(observed) <= {-1, 1}) else 1
    if hi > 1 or lo < 0:
        side = "greater than 1" if hi > 1 else "less than 0"
        raise InvalidValueError(f"y_prob contains values {side}: 'y_proba' must hold probabilities in [0, 1], got {show(scores)}")
    positive = _is_label(codes, observed, pos_label)
    _check_lengths(len(positive), len(scores))
    return _Classes(positive.astype(np.intp), None, None, scores)


def _null_ratio(kind: str, classes: _Classes, sample_weight: ArrayLike | None) -> float:
    """``D² = 1 - loss / loss of the null model``, which predicts the (weighted) share of each
    class for every sample (Nagelkerke's and the Brier skill score's reference)."""
    weight = check_sample_weight(sample_weight, classes.n_samples)
    ours = _mean_loss(classes.losses(kind), sample_weight, normalize=False)
    theirs = classes.null_total(kind, weight)
    if theirs == 0:
        warnings.warn("D^2 score is undefined: the null model is perfect (every sample is of one class)", UndefinedMetricWarning, stacklevel=3)
        return math.nan
    return float(1 - ours / theirs)


def _too_few_for_d2(y_true: LabelsLike, y_proba: ScoresLike) -> bool:
    n, rows = len(as_array(y_true, "y_true")), len(as_array(y_proba, "y_proba"))
    _check_lengths(n, rows)
    if rows < 2:
        warnings.warn("D^2 score is not well-defined with less than two samples.", UndefinedMetricWarning, stacklevel=3)
        return True
    return False


def d2_log_loss_score(
    y_true: LabelsLike, y_proba: ScoresLike | None = None, *, sample_weight: ArrayLike | None = None, labels: Sequence[Any] | None = None, y_pred: ScoresLike = "deprecated"
) -> float:
    """The share of log loss explained, ``D² = 1 - log_loss / log_loss(null)``, as
    scikit-learn's ``d2_log_loss_score``: the null model predicts the (weighted) share of
    each class for every sample, so it scores 0 and a perfect model 1. NaN with a warning for
    fewer than two samples.

    Examples:
        >>> round(d2_log_loss_score([0, 1, 1, 0], [[0.8, 0.2], [0.3, 0.7], [0.1, 0.9], [0.6, 0.4]]), 6)
        0.568633
    """
    y_proba = _renamed_probabilities(y_proba, y_pred)
    if _too_few_for_d2(y_true, y_proba):
        return math.nan
    return _null_ratio("log", _probabilities(y_true, y_proba, labels), sample_weight)


def d2_brier_score(y_true: LabelsLike, y_proba: ScoresLike, *, sample_weight: ArrayLike | None = None, pos_label: Hashable | None = None, labels: Sequence[Any] | None = None) -> float:
    """The share of the Brier score explained (the Brier skill score), ``1 - Brier / Brier(null)``,
    as scikit-learn's ``d2_brier_score``. NaN with a warning for fewer than two samples.

    Examples:
        >>> round(d2_brier_score([0, 1, 1, 0], [0.2, 0.7, 0.9, 0.4]), 6)
        0.7
    """
    if _too_few_for_d2(y_true, y_proba):
        return math.nan
    return _null_ratio("brier", _any_probabilities(y_true, y_proba, pos_label, labels), sample_weight)


def hinge_loss(y_true: LabelsLike, pred_decision: Any, *, labels: Sequence[Any] | None = None, sample_weight: ArrayLike | None = None) -> float:
    """The mean hinge loss ``max(0, 1 - margin)`` of decision values, as scikit-learn's
    ``hinge_loss``: for two classes the margin is ``y · d`` with the greater label ``+1`` and
    the other ``-1``; for more (Crammer and Singer) it is the true class's decision minus the
    highest other one, over the classes of ``labels`` (default: those of ``y_true``) in sorted
    order.

    Examples:
        >>> hinge_loss([-1, 1, 1], [-2.2, 0.3, 1.6])
        0.2333333333333333
        >>> round(hinge_loss([0, 1, 2], [[1.0, 0.2, 0.1], [0.1, 0.5, 0.9], [0.0, 0.1, 2.0]]), 6)
        0.533333
    """
    decision = check_numbers("pred_decision", pred_decision)
    if not np.isfinite(decision).all():  # scikit-learn's check_array: a decision value must be a finite number
        raise InvalidValueError(f"'pred_decision' must be finite, got {show(decision[~np.isfinite(decision)][:3])}")
    truth = _binary_truth(y_true)
    n = len(truth)
    if len(decision) != n:
        raise InputLengthError(f"'y_true' has {n} samples but 'pred_decision' has {len(decision)}")
    if not n:
        raise EmptyInputError("'y_true' is empty: at least one sample is needed")
    observed_codes, _, observed, _ = encode(truth, truth)
    classes = observed if labels is None else tuple(sorted(set(check_label_list(labels))))
    if len(classes) > 2:
        if decision.ndim != 2 or decision.shape[1] != len(classes):
            if decision.ndim == 2 and labels is None:
                raise InputShapeError(f"'pred_decision' has {decision.shape[1]} columns but 'y_true' has {len(classes)} classes: "
                                      "Please include all labels in y_true or pass labels as third argument")  # fmt: skip
            problem = ("cannot be 1d array with a multiclass target. " if decision.ndim == 1 else
                       "is not consistent with the number of classes. With a multiclass target, ")  # fmt: skip
            raise InputShapeError(f"The shape of pred_decision {problem}pred_decision shape must be (n_samples, n_classes), "
                                  f"that is ({n}, {len(classes)}). Got: {decision.shape}")  # fmt: skip
        codes, _, _, _ = encode(truth, truth, classes)
        own = decision[np.arange(n), codes]
        others = decision.copy()
        others[np.arange(n), codes] = -np.inf
        margin = own - others.max(axis=1)
    else:
        decision = column_or_1d(decision)
        if decision.ndim != 1:
            raise InputShapeError(f"with two classes 'pred_decision' must be 1-D, one decision per sample, got shape {decision.shape}")
        sign = np.where((observed_codes == len(observed) - 1) & (len(observed) == 2), 1.0, -1.0)  # the greater label is +1
        margin = sign * decision
    return _mean_loss(np.maximum(1 - margin, 0), sample_weight)


def brier_score_loss(
    y_true: LabelsLike, y_proba: ScoresLike, *, sample_weight: ArrayLike | None = None, pos_label: Hashable | None = None, labels: Sequence[Any] | None = None,
    scale_by_half: Any = "auto",
) -> float:  # fmt: skip
    """The Brier score: the mean squared difference between probabilities and outcomes, as
    scikit-learn's ``brier_score_loss`` (halved for two classes by default, so that binary
    scores are ``mean (y - p)²``).

    Examples:
        >>> round(brier_score_loss([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3]), 4)
        0.0375
    """
    classes = _any_probabilities(y_true, y_proba, pos_label, labels)
    losses, m = classes.losses("brier"), classes.n_classes
    if scale_by_half == "auto":
        scale_by_half = m < 3
    return _mean_loss(losses, sample_weight) * (0.5 if scale_by_half else 1.0)


# --------------------------------------------------------------------------------------------
# label ranking (see evalkit._scores.ranking) and the area under any curve

def calibration_curve(
    y_true: LabelsLike, y_prob: ScoresLike, *, pos_label: Hashable | None = None, n_bins: int = 5, strategy: str = "uniform", sample_weight: ArrayLike | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """scikit-learn's ``calibration_curve`` (``sklearn.calibration``): for every non-empty
    bin, the share of positives and the mean probability, ``(prob_true, prob_pred)``. Bins of
    equal width, right-closed (``strategy="uniform"``), or of equal mass (``"quantile"``:
    percentiles of the probabilities). ``sample_weight`` is evalkit's addition.

    Examples:
        >>> y = [0, 0, 0, 0, 1, 1, 1, 1, 1]
        >>> p = [0.1, 0.2, 0.3, 0.4, 0.65, 0.7, 0.8, 0.9, 1.0]
        >>> [values.round(3).tolist() for values in calibration_curve(y, p, n_bins=3)]
        [[0.0, 0.5, 1.0], [0.2, 0.525, 0.85]]
    """
    truth = _binary_truth(y_true)
    observed = Evaluation.from_labels(truth, truth).labels
    if len(observed) > 2:
        raise InvalidValueError(f"Only binary classification is supported. Provided labels {show(list(observed))}.")
    calibration = Calibration.from_scores(truth, _binary_scores(y_prob), pos_label=pos_label, sample_weight=sample_weight)
    points = calibration.reliability(n_bins=n_bins, strategy=strategy)
    return points.frequency, points.confidence


def expected_calibration_error(
    y_true: LabelsLike, y_prob: ScoresLike, *, n_bins: int = DEFAULT_BINS, strategy: str = "uniform", norm: str = "l1", estimator: str = "binned",
    sample_weight: ArrayLike | None = None, pos_label: Hashable | None = None, labels: Sequence[Any] | None = None, setting: str | None = None,
    average: str | None = "macro",
) -> Any:  # fmt: skip
    """The calibration error (ECE with ``norm="l1"``, RMSCE with ``"l2"``, MCE with ``"max"``)
    of probabilities: 1-D the positive class's, or ``n x m`` (top-label by default,
    ``setting="classwise"`` for every class one against the rest, averaged by ``average``).
    ``estimator="debiased"`` or ``"isotonic"`` (binning-free) as in ``evalkit._scores.calibration``.

    Examples:
        >>> expected_calibration_error([1, 0], [0.95, 1.0])   # torchmetrics reads 0.525 (issue #3510)
        0.475
    """
    return error_of_scores(y_true, y_prob, labels, n_bins=n_bins, strategy=strategy, norm=norm, estimator=estimator,
                           sample_weight=sample_weight, pos_label=pos_label, setting=setting, average=average)  # fmt: skip


def brier_score_decomposition(
    y_true: LabelsLike, y_prob: ScoresLike, *, n_bins: int | None = None, strategy: str = "uniform", sample_weight: ArrayLike | None = None, pos_label: Hashable | None = None,
    labels: Sequence[Any] | None = None,
) -> BrierDecomposition:  # fmt: skip
    """The Brier score as ``reliability - resolution + uncertainty`` (Murphy, 1973): over the
    distinct probabilities by default (exact), or over ``n_bins`` bins with the two
    within-bin terms that keep the identity exact. ``n x m`` probabilities: every class one
    against the rest, the terms summed (the multi-class Brier score, unhalved).

    Examples:
        >>> parts = brier_score_decomposition([0, 1, 1, 0, 1], [0.2, 0.9, 0.6, 0.2, 0.6])
        >>> round(parts.reliability, 4), round(parts.resolution, 4), round(parts.uncertainty, 4), round(parts.brier_score, 4)
        (0.082, 0.24, 0.24, 0.082)
    """
    probabilities, _, _ = _probability_array(y_prob)
    setting = "classwise" if probabilities.ndim == 2 and probabilities.shape[1] > 1 else None
    calibration = Calibration.from_scores(y_true, probabilities, labels, pos_label=pos_label, setting=setting, sample_weight=sample_weight)
    return calibration.brier_decomposition(n_bins=n_bins, strategy=strategy)


# --------------------------------------------------------------------------------------------
# operating points (see ThresholdCurve.optimize)


def top_label_ece(y_true: LabelsLike, y_scores: ScoresLike, y_score_arg: ArrayLike | None = None, num_bins: int = 50, split_strategy: str | None = None,
                  classes: Sequence[Any] | None = None) -> float:  # fmt: skip
    """The top-label calibration error (MAPIE's function; Gupta & Ramdas 2022): for each
    predicted class, the calibration error of the top score as the chance that the class is
    right, averaged over the predicted classes. ``y_scores`` ``n x m`` (the top score and its
    column, named by ``classes``), or the top scores with ``y_score_arg``, their classes.
    ``num_bins`` counts MAPIE's bin edges: equal-width bins ``num_bins - 1`` (evalkit's
    ``n_bins``).

    Raises:
        UnsupportedSettingError: a ``split_strategy`` other than ``"uniform"``.
        InvalidArgumentError: ``num_bins`` not a whole number >= 2.

    Examples:
        >>> import numpy as np
        >>> round(top_label_ece(np.array([0, 1, 1]), np.array([[0.8, 0.2], [0.3, 0.7], [0.6, 0.4]]), num_bins=11), 4)
        0.35
    """
    if split_strategy not in (None, "uniform"):
        raise UnsupportedSettingError(f"split_strategy={split_strategy!r}: MAPIE's quantile and array-split bins are not evalkit's; "
                                      "expected_calibration_error(strategy='quantile') gives equal-mass bins")  # fmt: skip
    if isinstance(num_bins, bool) or not isinstance(num_bins, (int, np.integer)) or num_bins < 2:
        raise InvalidArgumentError(f"'num_bins' must be a whole number >= 2 (MAPIE's bin edges), got {show(num_bins)}")
    scores, truth = np.asarray(y_scores, dtype=np.float64), np.asarray(y_true)
    if y_score_arg is None:
        if scores.ndim != 2 or np.isnan(scores).all(axis=1).any():
            raise InputShapeError(f"'y_scores' must be n x m scores (a number in every row) without 'y_score_arg', got {show(scores)}")
        if classes is not None and len(classes) != scores.shape[1]:
            raise InputShapeError(f"'classes' must name the {scores.shape[1]} columns of 'y_scores', got {show(classes)}")
        top, column = np.nanmax(scores, axis=1), np.nanargmax(scores, axis=1)
        predicted = column if classes is None else np.asarray(classes)[column]
    else:
        top, predicted = scores.ravel(), np.asarray(y_score_arg).ravel()
    if not len(truth) == len(top) == len(predicted):
        raise InputLengthError(f"'y_true', 'y_scores' (and 'y_score_arg') must have one entry per sample, got {len(truth)}, {len(top)} and {len(predicted)}")
    errors = [expected_calibration_error((truth[predicted == label] == label).astype(int), top[predicted == label], n_bins=int(num_bins) - 1, pos_label=1)
              for label in np.unique(predicted)]  # fmt: skip
    return float(np.mean(errors))
