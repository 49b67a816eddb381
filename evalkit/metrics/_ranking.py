"""Score measures of the scikit-learn face: threshold curves and their areas, measures at
thresholds, top-k accuracy, label ranking, DCG and operating points at a fixed rate.

Private: ``evalkit.metrics`` is the public path of every function here.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Hashable, Iterable, Sequence
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine._labels import check_one_label
from evalkit._engine._types import LabelsLike, ScoresLike
from evalkit._engine._validation import (
    as_array,
    check_choice,
    check_numbers,
    check_option,
    check_ordered,
    check_sample_weight,
    column_or_1d,
    is_sparse,
    show,
)
from evalkit._engine.counting import encode
from evalkit._scores import ranking
from evalkit._scores.curves import ThresholdCurve, one_vs_one_roc_auc
from evalkit._scores.scoring import top_k_hits
from evalkit.exceptions import (
    EmptyInputError,
    InputLengthError,
    InputShapeError,
    InvalidArgumentError,
    InvalidTypeError,
    InvalidValueError,
    UndefinedMetricWarning,
    UnsupportedSettingError,
)
from evalkit.measures._averaging import AVERAGES, mean_of
from evalkit.measures._formulas import Measure, check_beta
from evalkit.metrics._inputs import (
    _NO_POSITIVES,
    _ONE_CLASS,
    _as_target,
    _binary_scores,
    _binary_truth,
    _check_flag,
    _exact_score_array,
    _label_listing,
    _mean_loss,
)

__all__ = [
    "auc", "average_precision_score", "confusion_matrix_at_thresholds", "coverage_error", "dcg_score",
    "det_curve", "label_ranking_average_precision_score", "label_ranking_loss", "metric_at_thresholds",
    "ndcg_score", "precision_at_fixed_recall", "precision_recall_curve", "recall_at_fixed_precision",
    "roc_auc_score", "roc_curve", "sensitivity_at_specificity", "specificity_at_sensitivity",
    "top_k_accuracy_score",
]


def _binary_curve(y_true: LabelsLike, y_score: ScoresLike, pos_label: Hashable, sample_weight: ArrayLike | None) -> ThresholdCurve:
    return ThresholdCurve.from_scores(_binary_truth(y_true), _binary_scores(y_score), pos_label=pos_label, sample_weight=sample_weight)


def confusion_matrix_at_thresholds(
    y_true: LabelsLike, y_score: ScoresLike, *, pos_label: Hashable | None = None, sample_weight: ArrayLike | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(tns, fps, fns, tps, thresholds)`` at every distinct score, highest first, as
    scikit-learn's ``confusion_matrix_at_thresholds`` (float counts; integer counts and any
    measure of them come from ``evalkit.ThresholdCurve``).

    Examples:
        >>> tns, fps, fns, tps, thresholds = confusion_matrix_at_thresholds([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> tps.tolist(), thresholds.tolist()
        ([1.0, 1.0, 2.0, 2.0], [0.8, 0.4, 0.35, 0.1])
    """
    curve = _binary_curve(y_true, y_score, pos_label, sample_weight)
    tp, fp, fn, tn = (np.asarray(row, dtype=np.float64) for row in curve.cells().rows())
    return tn, fp, fn, tp, curve.thresholds().copy()


def roc_curve(
    y_true: LabelsLike, y_score: ScoresLike, *, pos_label: Hashable | None = None, sample_weight: ArrayLike | None = None, drop_intermediate: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(fpr, tpr, thresholds)`` from the point ``(0, 0)`` at threshold ``inf``, as
    scikit-learn's ``roc_curve``.

    Examples:
        >>> fpr, tpr, thresholds = roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> fpr.tolist(), tpr.tolist()
        ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    """
    drop_intermediate = _check_flag("drop_intermediate", drop_intermediate)
    curve = _binary_curve(y_true, y_score, pos_label, sample_weight)
    if curve.negatives[0] <= 0:
        warnings.warn("No negative samples in y_true, false positive value should be meaningless", UndefinedMetricWarning, stacklevel=2)
    if curve.positives[0] <= 0:
        warnings.warn("No positive samples in y_true, true positive value should be meaningless", UndefinedMetricWarning, stacklevel=2)
    return curve.roc(drop_intermediate=drop_intermediate)


def precision_recall_curve(
    y_true: LabelsLike, y_score: ScoresLike, *, pos_label: Hashable | None = None, sample_weight: ArrayLike | None = None, drop_intermediate: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(precision, recall, thresholds)`` with thresholds rising and a last point (1, 0), as
    scikit-learn's ``precision_recall_curve`` (recall 1 with a warning when there is no
    positive sample).

    Examples:
        >>> precision, recall, thresholds = precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> precision.round(3).tolist(), recall.tolist()
        ([0.5, 0.667, 0.5, 1.0, 1.0], [1.0, 1.0, 0.5, 0.5, 0.0])
    """
    drop_intermediate = _check_flag("drop_intermediate", drop_intermediate)
    curve = _binary_curve(y_true, y_score, pos_label, sample_weight)
    precision, recall, thresholds = curve.precision_recall(drop_intermediate=drop_intermediate)
    if curve.positives[0] <= 0:
        warnings.warn(_NO_POSITIVES, UserWarning, stacklevel=2)
        recall[:-1] = 1.0
    return np.nan_to_num(precision, nan=0.0), recall, thresholds


def det_curve(
    y_true: LabelsLike, y_score: ScoresLike, pos_label: Hashable | None = None, sample_weight: ArrayLike | None = None, drop_intermediate: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(fpr, fnr, thresholds)`` of the detection error tradeoff, as scikit-learn's ``det_curve``.

    Raises:
        InvalidValueError: ``y_true`` has one class only.

    Examples:
        >>> fpr, fnr, thresholds = det_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> fpr.tolist(), fnr.tolist(), thresholds.tolist()
        ([0.5, 0.5, 0.0], [0.0, 0.5, 0.5], [0.35, 0.4, 0.8])
    """
    drop_intermediate = _check_flag("drop_intermediate", drop_intermediate)
    curve = _binary_curve(y_true, y_score, pos_label, sample_weight)
    if curve.positives[0] <= 0 or curve.negatives[0] <= 0:
        raise InvalidValueError("Only one class is present in y_true. Detection error tradeoff curve is not defined in that case.")
    return curve.det(drop_intermediate=drop_intermediate)


def _score_target(y_true: LabelsLike, y_score: ScoresLike) -> tuple[str, Any, np.ndarray, tuple]:
    """``(kind, truth, scores, classes)``: kind ``"binary"``, ``"multiclass"`` or ``"multilabel"``
    as scikit-learn's ``type_of_target`` says; classes are the sorted labels of label data."""
    kind, truth = _as_target(y_true, "y_true")
    scores = _exact_score_array(y_score)
    if not np.isfinite(scores).all():
        raise InvalidValueError(f"'y_score' holds NaN or infinity (scikit-learn refuses them too): {show(scores)}")
    if kind == "indicators":
        if is_sparse(truth):
            truth = np.asarray(truth.toarray())
        if scores.shape != truth.shape:
            raise InputShapeError(f"'y_score' has shape {scores.shape} but 'y_true' has shape {truth.shape}")
        return "multilabel", truth, scores, ()
    if len(truth) == 0:
        raise EmptyInputError("'y_true' and 'y_score' are empty: at least one sample is needed")
    if len(scores) != len(truth):
        raise InputLengthError(f"'y_true' has {len(truth)} samples but 'y_score' has {len(scores)}")
    classes = encode(truth, truth, names=("y_true", "y_true"))[2]  # (the sorted labels: no matrix, no per-sample cells)
    return ("binary" if len(classes) <= 2 else "multiclass"), truth, scores, classes


def _sklearn_average(curve: ThresholdCurve, values: np.ndarray, average: str | None, sample_weight: ArrayLike | None) -> float | np.ndarray:
    """Per-class areas averaged as scikit-learn does: NaN propagates; a class of no support
    counts nothing in ``"weighted"``, which is 0 when no class has support."""
    if average is None:
        return values
    if average == "weighted":
        if not np.any(curve.positives > 0):
            return 0.0
        return float(mean_of(values, curve.positives, undefined="nan"))
    return float(mean_of(values, undefined="nan"))


def _per_class_areas(curve: ThresholdCurve, area: str, max_fpr: float | None) -> np.ndarray:
    """Each class's ROC AUC (NaN and a warning for a class of one kind of sample) or average
    precision (0 and a warning for a class without positives), as scikit-learn gives them."""
    if area == "roc_auc":
        values = np.asarray(curve.roc_auc(average=None, max_fpr=max_fpr), dtype=np.float64).reshape(-1)
        if np.any((curve.positives <= 0) | (curve.negatives <= 0)):
            warnings.warn(_ONE_CLASS, UndefinedMetricWarning, stacklevel=4)
        return values
    values = np.asarray(curve.average_precision(average=None), dtype=np.float64).reshape(-1)
    if np.any(curve.positives <= 0):
        warnings.warn(_NO_POSITIVES, UserWarning, stacklevel=4)
    return np.where(curve.positives <= 0, 0.0, values)


def _indicator_area(truth: np.ndarray, scores: np.ndarray, area: str, average: str | None, sample_weight: ArrayLike | None, max_fpr: float | None = None) -> float | np.ndarray:
    """An area of multi-label (or binarised multi-class) data under every scikit-learn average."""
    if average == "samples":  # one curve per sample over its labels, averaged with the sample weights
        by_sample = ThresholdCurve.from_scores(truth.T, scores.T)
        values = _per_class_areas(by_sample, area, max_fpr)
        weight = None if sample_weight is None else check_sample_weight(sample_weight, len(truth))
        return float(mean_of(values, weight, undefined="nan"))
    curve = ThresholdCurve.from_scores(truth, scores, sample_weight=sample_weight)
    if average == "micro":
        return _per_class_areas(curve.micro(), area, max_fpr)[0]
    if average == "weighted" and not np.any(curve.positives > 0):
        return 0.0
    return _sklearn_average(curve, _per_class_areas(curve, area, max_fpr), average, sample_weight)


def roc_auc_score(
    y_true: LabelsLike, y_score: ScoresLike, *, average: str | None = "macro", sample_weight: ArrayLike | None = None, max_fpr: float | None = None,
    multi_class: str = "raise", labels: Sequence[Any] | None = None,
) -> float | np.ndarray:  # fmt: skip
    """Area under the ROC curve, as scikit-learn's ``roc_auc_score``: binary scores,
    multi-label indicators (every ``average``), or multi-class probabilities with
    ``multi_class="ovr"`` (one-vs-rest; ``"micro"``, ``"macro"``, ``"weighted"``) or ``"ovo"``
    (Hand and Till; ``"macro"``, ``"weighted"``). ``max_fpr`` gives McClish's standardised
    partial AUC (binary only). A class with one kind of sample gives NaN and a warning.

    Unlike scikit-learn, ``multi_class="ovo"`` accepts ``sample_weight``.

    Examples:
        >>> roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        0.75
        >>> roc_auc_score([0, 1, 2, 2], [[0.8, 0.1, 0.1], [0.3, 0.4, 0.3], [0.1, 0.2, 0.7], [0.2, 0.5, 0.3]], multi_class="ovr")
        0.8472222222222222
    """
    check_option("average", average, (None, *AVERAGES))
    kind, truth, scores, classes = _score_target(y_true, y_score)
    multiclass = kind == "multiclass" or (kind == "binary" and scores.ndim == 2 and scores.shape[1] > 2)
    if multiclass:
        return _multiclass_roc_auc(truth, scores, labels, multi_class, average, sample_weight, max_fpr)
    if kind == "multilabel":
        return _indicator_area(truth, scores, "roc_auc", average, sample_weight, max_fpr)
    if len(classes) != 2:
        warnings.warn(_ONE_CLASS, UndefinedMetricWarning, stacklevel=2)
        return float("nan")
    return _binary_curve(truth, scores, classes[-1], sample_weight).roc_auc(max_fpr=max_fpr)


def _column_order(labels: object) -> tuple:
    """scikit-learn's rule for the labels of score columns: unique and sorted."""
    if isinstance(labels, (str, bytes, bool, int, float)) or not isinstance(labels, Iterable):
        raise InvalidTypeError(f"'labels' must be a sequence of labels, got {show(labels)}")
    checked: list[Any] = list(labels)
    if len(set(checked)) != len(checked):
        raise InvalidArgumentError(f"'labels' must be unique, got {show(checked)}")
    if checked != sorted(checked):
        raise InvalidArgumentError(f"'labels' must be ordered (the column order of 'y_score'), got {show(checked)}")
    return tuple(checked)


def _multiclass_roc_auc(truth: LabelsLike, scores: np.ndarray, labels: Sequence[Hashable] | None, multi_class: str, average: str | None,
                        sample_weight: ArrayLike | None, max_fpr: float | None) -> float | np.ndarray:  # fmt: skip
    if max_fpr is not None and max_fpr != 1:
        raise InvalidArgumentError(f"partial AUC is not available for multi-class scores: 'max_fpr' must be None, got {show(max_fpr)}")
    check_choice("multi_class", multi_class, ("ovr", "ovo"))  # the default "raise" asks for a choice
    if scores.ndim != 2:
        raise InputShapeError(f"'y_score' must be n x m (one column per class) for multi-class 'y_true', got shape {scores.shape}")
    if not np.allclose(1, scores.sum(axis=1)):
        raise InvalidValueError("multi-class ROC AUC needs probabilities: every row of 'y_score' must sum to 1")
    options = ("micro", "macro", "weighted", None) if multi_class == "ovr" else ("macro", "weighted")
    check_option("average", average, options)
    if labels is not None:
        _column_order(labels)
    if multi_class == "ovo":
        return one_vs_one_roc_auc(truth, scores, labels, average=str(average), sample_weight=sample_weight)  # checked: macro or weighted
    curve = ThresholdCurve.from_scores(truth, scores, labels, sample_weight=sample_weight)
    if average == "micro":
        return _per_class_areas(curve.micro(), "roc_auc", None)[0]
    return _sklearn_average(curve, _per_class_areas(curve, "roc_auc", None), average, sample_weight)


def average_precision_score(
    y_true: LabelsLike, y_score: ScoresLike, *, average: str | None = "macro", pos_label: Hashable = 1, sample_weight: ArrayLike | None = None
) -> float | np.ndarray:
    """Average precision ``Σ (R_k - R_{k-1}) P_k`` (the step-wise sum, not the trapezoid), as
    scikit-learn's ``average_precision_score``: binary, multi-class (one-vs-rest over the
    labels of ``y_true``) or multi-label scores, every ``average``. A class without positives
    scores 0 with a warning, as there.

    Examples:
        >>> round(average_precision_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 4)
        0.8333
    """
    check_option("average", average, (None, *AVERAGES))
    pos_label = check_one_label("pos_label", pos_label)
    kind, truth, scores, classes = _score_target(y_true, y_score)
    if kind == "binary":
        if len(classes) == 2 and pos_label not in classes:
            raise InvalidArgumentError(f"pos_label={pos_label!r} is not a valid label. It should be one of {_label_listing(classes)}")
        curve = ThresholdCurve.from_scores(
            _binary_truth(truth), _binary_scores(scores), pos_label=pos_label if pos_label in classes else classes[0],
            sample_weight=sample_weight,
        )  # fmt: skip
        if pos_label not in classes:  # a class that never occurs: no positives
            warnings.warn(_NO_POSITIVES, UserWarning, stacklevel=2)
            return 0.0
        return float(_per_class_areas(curve, "average_precision", None)[0])
    if pos_label != 1:
        raise InvalidArgumentError(f"pos_label is fixed to 1 for {kind} 'y_true'; do not set it (got {show(pos_label)})")
    if kind == "multiclass":
        if scores.ndim != 2 or scores.shape[1] != len(classes):
            raise InputShapeError(f"'y_score' must have shape (n_samples, {len(classes)}) for the classes of 'y_true', got {scores.shape}")
        codes, _, _, _ = encode(truth, truth, classes)
        truth = np.eye(len(classes), dtype=np.int8)[codes]
    return _indicator_area(truth, scores, "average_precision", average, sample_weight)


def metric_at_thresholds(
    y_true: LabelsLike, y_score: ScoresLike, metric_func: Any, *, sample_weight: ArrayLike | None = None, metric_params: dict[str, Any] | None = None,
    metrics_class: type[Any] | None = None,
) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """``(metric_values, thresholds)``: a metric of ``y_pred = (y_score >= threshold)`` at every
    distinct score, highest first, as scikit-learn's ``metric_at_thresholds``.

    scikit-learn calls the metric once per threshold (n x thresholds work). Here a measure
    name, or one of these functions of evalkit or scikit-learn with their default
    ``average="binary"`` (``accuracy_score``, ``precision_score``, ``recall_score``,
    ``f1_score``, ``fbeta_score``, ``jaccard_score``, ``matthews_corrcoef``), is read from the
    cells at every threshold in one pass; any other callable is called once per threshold.
    A name may be a getter of ``metrics_class`` (an evalkit extension: a
    ``ClassificationMetrics`` subclass whose getters and overrides are measures).

    Examples:
        >>> from evalkit.metrics import accuracy_score
        >>> values, thresholds = metric_at_thresholds([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], accuracy_score)
        >>> values.tolist(), thresholds.tolist()
        ([0.75, 0.5, 0.75, 0.5], [0.8, 0.4, 0.35, 0.1])
        >>> metric_at_thresholds([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], "f1_score")[0].round(3).tolist()
        [0.667, 0.5, 0.8, 0.667]
    """
    if not (callable(metric_func) or isinstance(metric_func, str)):
        raise InvalidTypeError(f"'metric_func' must be a metric function or a measure name, got {show(metric_func)}")
    params = dict(metric_params or {})
    truth, scores = _binary_truth(y_true), _binary_scores(y_score)
    read = _readable_measure(metric_func, params, truth)
    if read is not None:
        measure, parameters, fill = read
        curve = ThresholdCurve.from_scores(truth, scores, pos_label=1, sample_weight=sample_weight, metrics_class=metrics_class)
        values, thresholds = curve.evaluate(measure, **parameters)
        name = getattr(measure, "name", measure)
        if fill is not None and np.isnan(values).any():
            if fill == "warn":
                warnings.warn(f"{name} is ill-defined at some thresholds and is set to 0.0 there", UndefinedMetricWarning, stacklevel=2)
            values = np.where(np.isnan(values), 0.0 if fill == "warn" else float(fill), values)
        return values, thresholds.copy()
    return _called_at_thresholds(truth, scores, metric_func, sample_weight, params)


_READABLE = {
    "accuracy_score": ("accuracy", ()),
    "precision_score": ("precision", ("zero_division",)),
    "recall_score": ("recall", ("zero_division",)),
    "f1_score": ("f1_score", ("zero_division",)),
    "fbeta_score": ("f_score", ("zero_division", "beta")),
    "jaccard_score": ("jaccard_index", ("zero_division",)),
    "matthews_corrcoef": ("matthews_correlation_coefficient", ()),
}


def _readable_measure(metric_func: Any, params: dict[str, Any], truth: Any) -> tuple[str | Measure, dict[str, Any], Any] | None:
    """``(measure, parameters, undefined fill)`` when the metric can be read from cells, else None."""
    if isinstance(metric_func, (str, Measure)):
        return metric_func, params, None
    name = getattr(metric_func, "__name__", None)
    module = getattr(metric_func, "__module__", "") or ""
    if name not in _READABLE or not (module in (__name__, "evalkit.metrics") or module.startswith("sklearn.metrics")):
        return None
    measure, allowed = _READABLE[name]
    if set(params) - set(allowed) or not set(np.unique(np.asarray(truth)).tolist()) <= {0, 1}:
        return None
    parameters = {"beta": check_beta(params["beta"])} if "beta" in params else {}
    if measure == "matthews_correlation_coefficient":
        return measure, parameters, 0.0  # scikit-learn's MCC is 0 where undefined, without a warning
    if measure == "accuracy":
        return measure, parameters, None
    return measure, parameters, params.get("zero_division", "warn")


def _called_at_thresholds(truth: Any, scores: np.ndarray, metric_func: Any, sample_weight: ArrayLike | None, params: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """scikit-learn's way: sort, then call the metric on ``y_score >= t`` for every distinct score."""
    truth = np.asarray(truth)
    if len(truth) != len(scores):
        raise InputLengthError(f"'y_true' has {len(truth)} samples but 'y_score' has {len(scores)}")
    weight = check_sample_weight(sample_weight, len(scores))
    if weight is not None:
        kept = weight != 0
        truth, scores, weight = truth[kept], scores[kept], weight[kept]
        params["sample_weight"] = weight
    order = np.argsort(scores, kind="stable")[::-1]
    truth, scores = truth[order], scores[order]
    if weight is not None:
        params["sample_weight"] = weight[order]
    thresholds = scores[np.append(np.flatnonzero(np.diff(scores)), len(scores) - 1)] if len(scores) else scores
    values = [metric_func(truth, (scores >= threshold).astype(np.int32), **params) for threshold in thresholds]
    return np.asarray(values), thresholds


def top_k_accuracy_score(
    y_true: LabelsLike, y_score: ScoresLike, *, k: int = 2, normalize: bool = True, sample_weight: ArrayLike | None = None, labels: Sequence[Any] | None = None
) -> float:
    """The share of samples whose class is among their ``k`` highest scores, as scikit-learn's
    ``top_k_accuracy_score`` (of tied scores the later column ranks first; binary scores are
    the positive class's, thresholded at 0.5 for probabilities and 0 otherwise when ``k=1``).

    Examples:
        >>> top_k_accuracy_score([0, 1, 2, 2], [[0.5, 0.2, 0.2], [0.3, 0.4, 0.2], [0.2, 0.4, 0.3], [0.7, 0.2, 0.1]])
        0.75
    """
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise InvalidArgumentError(f"'k' must be a whole number >= 1, got {show(k)}")
    kind, truth, scores, classes = _score_target(y_true, y_score)
    if kind == "multilabel":
        raise UnsupportedSettingError("top_k_accuracy_score needs one label per sample, not multi-label indicators")
    scores = column_or_1d(scores)  # one column: the positive class's scores, as scikit-learn reads them
    if kind == "binary" and labels is not None and len(labels) > 2:
        kind = "multiclass"
    if kind == "binary" and scores.ndim == 2 and scores.shape[1] != 1:
        raise InputShapeError(
            f"'y_true' is binary but 'y_score' has {scores.shape[1]} columns; if 'y_true' lacks some classes give 'labels'"
        )
    if kind == "multiclass" and scores.ndim != 2:
        raise InputShapeError(f"'y_score' must be n x m (one column per class) for multi-class 'y_true', got shape {scores.shape}")
    n_columns = scores.shape[1] if scores.ndim == 2 else 2
    if labels is not None:
        classes = _column_order(labels)
    if len(classes) != n_columns:
        raise InputShapeError(
            f"'y_true' has {len(classes)} classes but 'y_score' has {n_columns}; give 'labels', every known class in column order"
        )
    if k >= len(classes):
        warnings.warn(
            f"'k' ({k}) greater than or equal to 'n_classes' ({len(classes)}) will result in a perfect score and is therefore meaningless.",
            UndefinedMetricWarning,
            stacklevel=2,
        )
    codes, _, _, weight = encode(truth, truth, classes, sample_weight=sample_weight)
    if kind == "binary":
        scores = scores.ravel()
        if k == 1:
            cut = 0.5 if scores.min() >= 0 and scores.max() <= 1 else 0
            hits = (scores > cut).astype(np.intp) == codes
        else:
            hits = np.ones(len(codes), dtype=bool)
    else:
        hits = top_k_hits(codes, scores, k)
    return _mean_loss(hits.astype(np.float64), weight, normalize)

def _kind_of_2d(values: np.ndarray) -> str:
    """scikit-learn's name (``type_of_target``) for a 2-D numeric target."""
    distinct = np.unique(values)
    integral = values.dtype.kind in "biu" or bool(np.all(distinct == np.round(distinct)))
    if values.shape[1] > 1:
        if len(distinct) < 3 and integral:
            return "multilabel-indicator"
        return "multiclass-multioutput" if integral else "continuous-multioutput"
    if not integral:
        return "continuous"
    return "binary" if len(distinct) <= 2 else "multiclass"


def _ranking_arrays(y_true: LabelsLike, y_score: ScoresLike, kinds: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """``(y_true, y_score)`` as ``n x m`` float arrays, with scikit-learn's checks: finite
    numbers, the same shape, a target of one of ``kinds``."""
    check_ordered(y_true, "y_true")
    raw = y_true.toarray() if is_sparse(y_true) else as_array(y_true, "y_true")
    if raw.dtype.kind not in "biuf":
        raise InvalidValueError(f"'y_true' must hold relevance numbers (0/1 indicators or gains), got {show(raw)}")
    truth = check_numbers("y_true", raw, booleans=True)
    scores = check_numbers("y_score", y_score, booleans=True)
    for name, array in (("y_true", truth), ("y_score", scores)):
        if array.ndim != 2:
            raise InputShapeError(f"{name!r} must be 2-D (samples x labels), got shape {array.shape}")
        if not len(array):
            raise EmptyInputError(f"{name!r} is empty: at least one sample is needed")
        if not np.isfinite(array).all():
            raise InvalidValueError(f"{name!r} holds NaN or infinity: {show(array)}")
    if truth.shape != scores.shape:
        raise InputShapeError(f"'y_true' and 'y_score' have different shapes: {truth.shape} and {scores.shape}")
    kind = _kind_of_2d(truth)
    if kind not in kinds:
        raise InvalidValueError(f"'y_true' is {kind}: this format is not supported (only {', '.join(kinds)})")
    return truth, scores


def coverage_error(y_true: LabelsLike, y_score: ScoresLike, *, sample_weight: ArrayLike | None = None) -> float:
    """How far down the ranking of labels by score one must go, on average, to cover every
    relevant label, as scikit-learn's ``coverage_error`` (ties count as the worse rank; a
    sample without relevant labels counts 0). Best value: the mean number of relevant labels.

    Examples:
        >>> coverage_error([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]])
        2.5
    """
    truth, scores = _ranking_arrays(y_true, y_score, ("multilabel-indicator",))
    return _mean_loss(ranking.coverage(truth, scores).astype(np.float64), sample_weight)


def label_ranking_average_precision_score(y_true: LabelsLike, y_score: ScoresLike, *, sample_weight: ArrayLike | None = None) -> float:
    """Label ranking average precision, as scikit-learn's: for each relevant label, the share
    of relevant labels among those scored at least as high, averaged per sample (1 for a
    sample whose labels are all relevant or all irrelevant), then over samples.

    Examples:
        >>> round(label_ranking_average_precision_score([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]]), 6)
        0.416667
    """
    truth, scores = _ranking_arrays(y_true, y_score, ("multilabel-indicator", "binary"))
    return _mean_loss(ranking.ranking_average_precision(truth, scores), sample_weight)


def label_ranking_loss(y_true: LabelsLike, y_score: ScoresLike, *, sample_weight: ArrayLike | None = None) -> float:
    """The share of (relevant, irrelevant) label pairs ordered wrongly, averaged over samples,
    as scikit-learn's ``label_ranking_loss`` (a tie is wrong; 0 for a sample whose labels are
    all relevant or all irrelevant).

    Examples:
        >>> label_ranking_loss([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]])
        0.75
    """
    truth, scores = _ranking_arrays(y_true, y_score, ("multilabel-indicator",))
    return _mean_loss(ranking.ranking_loss(truth, scores), sample_weight)


_DCG_KINDS = ("multilabel-indicator", "continuous-multioutput", "multiclass-multioutput")


AtFixed: TypeAlias = "tuple[float, float] | tuple[np.ndarray, np.ndarray]"
"""``(value, threshold)`` of a binary problem, or ``(values, thresholds)`` per class."""


def _check_k(k: object) -> int | None:
    if k is None:
        return None
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise InvalidArgumentError(f"'k' must be an integer >= 1 or None, got {show(k)}")
    return int(k)


def dcg_score(
    y_true: LabelsLike, y_score: ScoresLike, *, k: int | None = None, log_base: float = 2, sample_weight: ArrayLike | None = None, ignore_ties: bool = False
) -> float:
    """Discounted cumulative gain, as scikit-learn's ``dcg_score``: the gains ``y_true`` summed
    in the order of ``y_score`` with the discount ``1 / log_base(rank + 1)`` (the first ``k``
    ranks only), tied scores sharing the mean of their gains unless ``ignore_ties``.

    Examples:
        >>> round(dcg_score([[10, 0, 0, 1, 5]], [[0.1, 0.2, 0.3, 4, 70]]), 6)
        9.499458
    """
    ignore_ties = _check_flag("ignore_ties", ignore_ties)
    if isinstance(log_base, bool) or not isinstance(log_base, (int, float, np.number)) or not 0 < log_base < math.inf or log_base == 1:
        raise InvalidArgumentError(f"'log_base' must be a number > 0 other than 1, got {show(log_base)}")
    truth, scores = _ranking_arrays(y_true, y_score, _DCG_KINDS)
    return _mean_loss(ranking.dcg(truth, scores, _check_k(k), float(log_base), ignore_ties), sample_weight)


def ndcg_score(y_true: LabelsLike, y_score: ScoresLike, *, k: int | None = None, sample_weight: ArrayLike | None = None, ignore_ties: bool = False) -> float:
    """Normalized DCG, as scikit-learn's ``ndcg_score``: each sample's DCG divided by that of
    its ideal ranking (0 where every gain is 0), in [0, 1].

    Examples:
        >>> round(ndcg_score([[10, 0, 0, 1, 5]], [[0.1, 0.2, 0.3, 4, 70]]), 6)
        0.695694
    """
    ignore_ties = _check_flag("ignore_ties", ignore_ties)
    truth, scores = _ranking_arrays(y_true, y_score, _DCG_KINDS)
    if truth.min() < 0:
        raise InvalidValueError(f"ndcg_score should not be used on negative y_true values: {show(truth)}")
    if truth.shape[1] <= 1:
        raise InputShapeError(f"Computing NDCG is only meaningful when there is more than 1 document. Got {truth.shape[1]} instead.")
    return _mean_loss(ranking.ndcg(truth, scores, _check_k(k), ignore_ties), sample_weight)


def auc(x: ArrayLike, y: ArrayLike) -> float:
    """The area under any curve of points ``(x, y)`` by the trapezoidal rule, as scikit-learn's
    ``auc``: ``x`` must be increasing or decreasing (then the area is still positive).

    Examples:
        >>> auc([0.0, 0.5, 1.0], [0.0, 0.75, 1.0])
        0.625
    """
    points_x, points_y = check_numbers("x", x).ravel(), check_numbers("y", y).ravel()
    if len(points_x) != len(points_y):
        raise InputLengthError(f"'x' has {len(points_x)} points but 'y' has {len(points_y)}")
    if len(points_x) < 2:
        raise InputShapeError(f"At least 2 points are needed to compute area under curve, but x.shape = {points_x.shape}")
    steps = np.diff(points_x)
    direction = 1.0
    if (steps < 0).any():
        if not (steps <= 0).all():
            raise InvalidValueError(f"x is neither increasing nor decreasing : {points_x}.")
        direction = -1.0
    return float(direction * np.trapezoid(points_y, points_x))


# --------------------------------------------------------------------------------------------
# calibration (see evalkit._scores.calibration)

def _at_fixed(y_true: LabelsLike, y_score: ScoresLike, objective: str, constraint: str, bound: object, pos_label: Hashable, sample_weight: ArrayLike | None,
              labels: Sequence[Hashable] | None) -> AtFixed:  # fmt: skip
    """The best ``objective`` where ``constraint >= bound``: ``(value, threshold)`` of a
    binary problem, or ``(values, thresholds)`` per class of ``n x m`` scores (one-vs-rest,
    or the labels of indicator rows); NaN where no threshold meets the bound."""
    if isinstance(bound, bool) or not isinstance(bound, (int, float, np.integer, np.floating)) or not 0 <= bound <= 1:
        raise InvalidArgumentError(f"the minimum {constraint.replace('_', ' ')} must be a number in [0, 1], got {show(bound)}")
    curve = ThresholdCurve.from_scores(y_true, y_score, labels, pos_label=pos_label, sample_weight=sample_weight)
    found = curve.optimize(objective, subject_to={constraint: (">=", float(bound))})
    if isinstance(found, dict):
        points = list(found.values())
        return np.array([point.value for point in points]), np.array([point.threshold for point in points])
    return found.value, found.threshold


def precision_at_fixed_recall(
    y_true: LabelsLike, y_score: ScoresLike, *, min_recall: float, pos_label: Hashable | None = None, sample_weight: ArrayLike | None = None, labels: Sequence[Any] | None = None
) -> AtFixed:  # fmt: skip
    """The highest precision at recall >= ``min_recall`` and the threshold giving it:
    ``(precision, threshold)`` (torchmetrics' ``binary_precision_at_fixed_recall``; for
    ``n x m`` scores one of each per class, one-vs-rest). NaN for both when no threshold
    reaches the recall (never a sentinel threshold); of thresholds of equal precision, the one of
    the highest recall (a point no other dominates, torchmetrics' choice), then the highest. See
    ``ThresholdCurve.optimize`` for any measure under any constraints.

    Examples:
        >>> precision_at_fixed_recall([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.7, 0.9], min_recall=0.6)
        (1.0, 0.8)
    """
    return _at_fixed(y_true, y_score, "precision", "recall", min_recall, pos_label, sample_weight, labels)


def recall_at_fixed_precision(
    y_true: LabelsLike, y_score: ScoresLike, *, min_precision: float, pos_label: Hashable | None = None, sample_weight: ArrayLike | None = None, labels: Sequence[Any] | None = None
) -> AtFixed:  # fmt: skip
    """The highest recall at precision >= ``min_precision`` and its threshold (torchmetrics'
    ``binary_recall_at_fixed_precision``); NaN when unreachable.

    Examples:
        >>> recall_at_fixed_precision([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.7, 0.9], min_precision=0.7)
        (0.6666666666666666, 0.8)
    """
    return _at_fixed(y_true, y_score, "recall", "precision", min_precision, pos_label, sample_weight, labels)


def sensitivity_at_specificity(
    y_true: LabelsLike, y_score: ScoresLike, *, min_specificity: float, pos_label: Hashable | None = None, sample_weight: ArrayLike | None = None, labels: Sequence[Any] | None = None
) -> AtFixed:  # fmt: skip
    """The highest sensitivity (recall) at specificity >= ``min_specificity`` and its
    threshold (torchmetrics' ``binary_sensitivity_at_specificity``); NaN when unreachable.

    Examples:
        >>> sensitivity_at_specificity([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.7, 0.9], min_specificity=0.6)
        (0.6666666666666666, 0.8)
    """
    return _at_fixed(y_true, y_score, "recall", "specificity", min_specificity, pos_label, sample_weight, labels)


def specificity_at_sensitivity(
    y_true: LabelsLike, y_score: ScoresLike, *, min_sensitivity: float, pos_label: Hashable | None = None, sample_weight: ArrayLike | None = None, labels: Sequence[Any] | None = None
) -> AtFixed:  # fmt: skip
    """The highest specificity at sensitivity (recall) >= ``min_sensitivity`` and its
    threshold (torchmetrics' ``binary_specificity_at_sensitivity``); NaN when unreachable.

    Examples:
        >>> specificity_at_sensitivity([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.7, 0.9], min_sensitivity=0.9)
        (0.3333333333333333, 0.35)
    """
    return _at_fixed(y_true, y_score, "specificity", "recall", min_sensitivity, pos_label, sample_weight, labels)


# --------------------------------------------------------------------------------------------
# fairlearn's disparities (see evalkit._groups)
