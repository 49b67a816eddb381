"""scikit-learn's classification metrics, computed by evalkit: change one import line.

    from sklearn.metrics import f1_score, classification_report      # before
    from evalkit.metrics import f1_score, classification_report      # after

Every function has scikit-learn's name, signature, defaults and return type, and returns
scikit-learn's number (tested on generated cases to 1e-12), but is a thin call into evalkit's
counting core: an ``Evaluation`` of the data, then its per-class cells and averages. Inputs may
be lists, numpy arrays, pandas Series or Categoricals, and scipy sparse indicator matrices
(counted from their nonzero entries, never made dense). Sample weights, label subsets,
``pos_label``, every ``average`` and every ``zero_division`` work as in scikit-learn; where
scikit-learn warns, these functions warn with ``evalkit.exceptions.UndefinedMetricWarning``.

What is not copied, on purpose: errors are evalkit's own exceptions (each a ``ValueError``
or ``TypeError``, as scikit-learn's), booleans mixed with numbers and ``1`` mixed with
``"1"`` are errors instead of silently merged or compared, and the rarely used ``warn_for``
argument only selects which warnings are given.

Examples:
    >>> from evalkit.metrics import f1_score, precision_recall_fscore_support
    >>> f1_score([0, 1, 1, 2], [0, 1, 2, 2], average="macro")
    0.7777777777777777
    >>> precision_recall_fscore_support(["a", "b", "b"], ["a", "b", "a"], average=None, zero_division=0)[0].tolist()
    [0.5, 1.0]
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

from evalkit.engine._labels import check_label_list, check_one_label
from evalkit.engine._validation import (
    as_array,
    check_choice,
    check_numbers,
    check_option,
    check_ordered,
    check_sample_weight,
    is_sparse,
    show,
)
from evalkit.engine.counting import encode
from evalkit.exceptions import (
    EmptyInputError,
    InputLengthError,
    InputShapeError,
    InvalidArgumentError,
    InvalidTypeError,
    InvalidValueError,
    UndefinedMetricWarning,
    UnknownLabelError,
    UnsupportedSettingError,
)
from evalkit.measures.averaging import AVERAGES, check_undefined, fill_undefined, mean_of
from evalkit.measures.formulas import Measure, check_beta, get_measure, matrix_cohen_kappa
from evalkit.results.evaluation import Evaluation
from evalkit.scores import ranking
from evalkit.scores.calibration import DEFAULT_BINS, BrierDecomposition, Calibration, error_of_scores
from evalkit.scores.curves import ThresholdCurve, exact_scores, one_vs_one_roc_auc
from evalkit.scores.scoring import brier_losses, log_losses, top_k_hits

__all__ = [
    "accuracy_score",
    "auc",
    "average_precision_score",
    "balanced_accuracy_score",
    "brier_score_decomposition",
    "brier_score_loss",
    "calibration_curve",
    "class_likelihood_ratios",
    "classification_report",
    "cohen_kappa_score",
    "confusion_matrix",
    "confusion_matrix_at_thresholds",
    "coverage_error",
    "d2_brier_score",
    "d2_log_loss_score",
    "dcg_score",
    "demographic_parity_difference",
    "demographic_parity_ratio",
    "det_curve",
    "equal_opportunity_difference",
    "equal_opportunity_ratio",
    "equalized_odds_difference",
    "equalized_odds_ratio",
    "expected_calibration_error",
    "f1_score",
    "fbeta_score",
    "hamming_loss",
    "hinge_loss",
    "jaccard_score",
    "label_ranking_average_precision_score",
    "label_ranking_loss",
    "log_loss",
    "matthews_corrcoef",
    "metric_at_thresholds",
    "multilabel_confusion_matrix",
    "ndcg_score",
    "precision_at_fixed_recall",
    "precision_recall_curve",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_at_fixed_precision",
    "recall_score",
    "roc_auc_score",
    "roc_curve",
    "sensitivity_at_specificity",
    "specificity_at_sensitivity",
    "top_k_accuracy_score",
    "zero_one_loss",
]

FAIRLEARN = ("demographic_parity_difference", "demographic_parity_ratio", "equal_opportunity_difference", "equal_opportunity_ratio",
             "equalized_odds_difference", "equalized_odds_ratio")
"""Functions of fairlearn (``fairlearn.metrics``), with its names, signatures and numbers."""

ADDITIONS = (*FAIRLEARN, "brier_score_decomposition", "expected_calibration_error", "precision_at_fixed_recall", "recall_at_fixed_precision",
             "sensitivity_at_specificity", "specificity_at_sensitivity")
"""Functions scikit-learn does not have, in its style (``calibration_curve`` is its
``sklearn.calibration.calibration_curve``)."""

_AVERAGE_OPTIONS = (None, "binary", *AVERAGES)


# --------------------------------------------------------------------------------------------
# targets: what kind of data, as one Evaluation


@attrs.frozen
class _Targets:
    """Both targets of one call: their kind, the evaluation of them, and the data."""

    kind: str  # "binary", "multiclass" or "multilabel"
    evaluation: Evaluation
    y_true: Any
    y_pred: Any
    weight: Any


def _as_target(values: Any, argument: str) -> tuple[str, Any]:
    """``("labels", 1-D values)`` or ``("indicators", 2-D array or sparse matrix)``."""
    check_ordered(values, argument)
    if is_sparse(values):
        return "indicators", values
    if isinstance(values, (list, tuple)):
        if values and isinstance(values[0], (list, tuple, np.ndarray)):
            values = as_array(values, argument)
        else:
            listed = list(values)
            _refuse_continuous([value for value in listed if isinstance(value, (float, np.floating))], argument)
            return "labels", listed
    array = as_array(values, argument)
    if array.ndim == 2 and array.shape[1] == 1:
        array = array.ravel()
    if array.ndim == 2:
        if array.dtype.kind == "O" or not np.isin(array, (0, 1)).all():
            raise InputShapeError(
                f"{argument!r} is 2-D but does not hold 0/1 indicators (multiclass-multioutput is not supported): {show(array)}"
            )
        return "indicators", array
    if array.ndim != 1:
        raise InputShapeError(f"{argument!r} must be 1-D labels or a 2-D indicator matrix, got shape {array.shape}")
    if array.dtype.kind == "f":
        _refuse_continuous(array, argument)
    return "labels", array


def _refuse_continuous(values: Any, argument: str) -> None:
    """Floats that are not whole are scores, not class labels: scikit-learn's "a mix of binary
    and continuous targets" (``accuracy_score([0, 1], [0.2, 0.8])``) is refused, as there."""
    array = np.asarray(values, dtype=np.float64)
    if array.size and not np.all(np.isnan(array) | (array == np.round(array))):
        raise InvalidValueError(
            f"{argument!r} holds non-integral floats ({show(array)}): continuous values such as probabilities "
            "are not class labels (scikit-learn refuses a mix of binary and continuous targets); threshold them first"
        )


def _targets(y_true: Any, y_pred: Any, sample_weight: Any = None) -> _Targets:
    (kind_true, true), (kind_pred, pred) = _as_target(y_true, "y_true"), _as_target(y_pred, "y_pred")
    if kind_true != kind_pred:
        raise InputShapeError(
            f"'y_true' holds {kind_true} but 'y_pred' holds {kind_pred}: classification metrics need one kind of target"
        )
    if (true.shape[0] if kind_true == "indicators" else len(true)) == 0:
        raise EmptyInputError("'y_true' and 'y_pred' are empty: at least one sample is needed")
    if kind_true == "indicators":
        evaluation = Evaluation.from_indicators(true, pred, sample_weight=sample_weight)
        return _Targets("multilabel", evaluation, true, pred, sample_weight)
    evaluation = Evaluation.from_labels(true, pred, sample_weight=sample_weight)
    return _Targets("binary" if len(evaluation.labels) <= 2 else "multiclass", evaluation, true, pred, sample_weight)


def _check_average(average: Any) -> None:
    check_option("average", average, _AVERAGE_OPTIONS)


def _set_wise(targets: _Targets, average: Any, labels: Any, pos_label: Any) -> tuple[Evaluation, list | None]:
    """The evaluation to average and the labels to average over (scikit-learn's rules)."""
    _check_average(average)
    if labels is not None and targets.kind != "multilabel":
        check_label_list(labels)  # checked even where an average leaves it unused
    evaluation = targets.evaluation
    if average == "binary":
        if targets.kind != "binary":
            options = [option for option in _AVERAGE_OPTIONS if option != "binary" and (option != "samples" or targets.kind == "multilabel")]
            raise InvalidArgumentError(f"the targets are {targets.kind} but average='binary'; choose another average, one of {options!r}")
        if pos_label not in evaluation.labels and len(evaluation.labels) >= 2:
            raise InvalidArgumentError(f"pos_label={pos_label!r} is not a valid label: it should be one of {list(evaluation.labels)!r}")
        return evaluation, [pos_label]
    if pos_label not in (None, 1):
        warnings.warn(
            f"pos_label (set to {pos_label!r}) is ignored when average != 'binary' (got {average!r}); "
            "use labels=[pos_label] to specify a single positive class",
            UserWarning,
            stacklevel=3,
        )
    if average == "samples" and targets.kind != "multilabel":
        raise UnsupportedSettingError("average='samples' needs multi-label data (per-sample label sets)")
    if labels is None:
        return evaluation, None
    if targets.kind == "multilabel":  # labels are column indexes: evaluate those columns
        columns = np.asarray(labels)
        m = evaluation.class_cells.tp.shape[0]
        if columns.size and (columns.dtype.kind not in "iu" or columns.min() < 0 or columns.max() >= m):
            raise InvalidArgumentError(f"'labels' of multi-label data must be column indexes in [0, {m}), got {show(labels)}")
        subset = Evaluation.from_indicators(targets.y_true[:, columns], targets.y_pred[:, columns], sample_weight=targets.weight)
        return subset, None
    return evaluation, list(check_label_list(labels))


def _policy(zero_division: Any, allow_nan: bool = True) -> str:
    """The undefined-value policy of a ``zero_division`` value (``"warn"`` fills in 0, as 0 does)."""
    if isinstance(zero_division, str) and zero_division == "warn":
        return "zero"
    number = isinstance(zero_division, (int, float, np.number)) and not isinstance(zero_division, bool)
    if number and (zero_division in (0, 1) or (allow_nan and math.isnan(zero_division))):
        return check_undefined(zero_division)
    allowed = "'warn', 0, 1" + (" or np.nan" if allow_nan else "")
    raise InvalidArgumentError(f"'zero_division' must be {allowed}; got {show(zero_division)}")


_DENOMINATOR_WORDS = {
    "precision": ("Precision", "predicted"),
    "recall": ("Recall", "true"),
    "f_score": ("F-score", "true nor predicted"),
    "jaccard_index": ("Jaccard", "true or predicted"),
}


def _values(
    evaluation: Evaluation, measure: str, average: Any, labels: list | None, policy: str, warn: bool, parameters: dict[str, Any]
) -> Any:
    """One measure, averaged (a float) or per class (an array with undefined values filled),
    warning as scikit-learn does when ``zero_division="warn"`` replaced an undefined value."""
    if average is None:
        values = evaluation.per_class(measure, labels=labels, **parameters)
        result: Any = fill_undefined(values, policy)
    else:
        result = float(evaluation.average(measure, average, undefined=policy, labels=labels, **parameters))
        if average == "micro":
            values = np.array([evaluation.average(measure, "micro", undefined="nan", labels=labels, **parameters)])
        elif average == "samples":  # a sample of weight 0 has 0/0 weighted counts in scikit-learn: undefined there too
            rows = evaluation.sample_cells
            values = np.where(rows.row_weights() > 0, rows.evaluate_rows(get_measure(measure), **parameters), np.nan)
        else:
            values = evaluation.per_class(measure, labels=labels, **parameters)
    if warn and np.isnan(values).any():
        title, missing = _DENOMINATOR_WORDS[measure]
        things, groups = ("labels", "samples") if average == "samples" else ("samples", "labels")
        where = "due to" if len(values) == 1 else f"in {groups} with"
        warnings.warn(
            f"{title} is ill-defined and being set to 0.0 {where} no {missing} {things}. Use `zero_division` parameter to control this behavior.",
            UndefinedMetricWarning,
            stacklevel=4,
        )
    return result


def _support(evaluation: Evaluation, labels: list | None, weighted: bool) -> np.ndarray:
    support = np.asarray(evaluation.cells_of(labels).support)
    return support.astype(np.float64) if weighted else support.astype(np.int64)


# --------------------------------------------------------------------------------------------
# precision, recall, F-beta


def precision_recall_fscore_support(
    y_true: Any,
    y_pred: Any,
    *,
    beta: float = 1.0,
    labels: Sequence[Any] | None = None,
    pos_label: Any = 1,
    average: str | None = None,
    warn_for: Sequence[str] = ("precision", "recall", "f-score"),
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> tuple[Any, Any, Any, Any]:
    """Precision, recall, F-beta and support, as scikit-learn's function of that name.

    Returns ``(precision, recall, fbeta, support)``: floats and ``None`` for the support with
    an ``average``, one array per class (in ``labels`` order) with ``average=None``.

    Examples:
        >>> precision_recall_fscore_support([0, 1, 1, 0], [0, 1, 0, 0], average="binary")
        (1.0, 0.5, 0.6666666666666666, None)
    """
    beta = check_beta(beta)
    policy = _policy(zero_division)
    targets = _targets(y_true, y_pred, sample_weight)
    evaluation, chosen = _set_wise(targets, average, labels, pos_label)
    kind = None if average is None else ("macro" if average == "binary" else average)
    warn = zero_division == "warn"
    warned = set(warn_for)
    results = [
        _values(evaluation, "precision", kind, chosen, policy, warn and "precision" in warned, {}),
        _values(evaluation, "recall", kind, chosen, policy, warn and "recall" in warned, {}),
        _values(evaluation, "f_score", kind, chosen, policy, warn and "f-score" in warned and 0 < beta < math.inf, {"beta": beta}),
    ]
    support = _support(evaluation, chosen, sample_weight is not None) if average is None else None
    return results[0], results[1], results[2], support


def _one(
    name: str, y_true: Any, y_pred: Any, labels: Any, pos_label: Any, average: Any, sample_weight: Any, zero_division: Any,
    parameters: dict[str, Any], allow_nan: bool = True,
) -> Any:  # fmt: skip
    """One set-wise measure of scikit-learn's functions, warning for it alone (F-beta with beta
    0 or infinity is precision or recall there, and gives no F-score warning)."""
    policy = _policy(zero_division, allow_nan)
    targets = _targets(y_true, y_pred, sample_weight)
    evaluation, chosen = _set_wise(targets, average, labels, pos_label)
    kind = None if average is None else ("macro" if average == "binary" else average)
    warn = zero_division == "warn" and parameters.get("beta", 1.0) not in (0.0, math.inf)
    return _values(evaluation, name, kind, chosen, policy, warn, parameters)


def precision_score(
    y_true: Any, y_pred: Any, *, labels: Sequence[Any] | None = None, pos_label: Any = 1, average: str | None = "binary",
    sample_weight: Any = None, zero_division: Any = "warn",
) -> Any:  # fmt: skip
    """Precision ``tp / (tp + fp)``, as scikit-learn's ``precision_score``.

    Examples:
        >>> precision_score(["cat", "dog", "dog"], ["cat", "cat", "dog"], average="micro")
        0.6666666666666666
    """
    return _one("precision", y_true, y_pred, labels, pos_label, average, sample_weight, zero_division, {})


def recall_score(
    y_true: Any, y_pred: Any, *, labels: Sequence[Any] | None = None, pos_label: Any = 1, average: str | None = "binary",
    sample_weight: Any = None, zero_division: Any = "warn",
) -> Any:  # fmt: skip
    """Recall ``tp / (tp + fn)``, as scikit-learn's ``recall_score``.

    Examples:
        >>> recall_score([0, 1, 1, 0], [0, 1, 0, 0])
        0.5
    """
    return _one("recall", y_true, y_pred, labels, pos_label, average, sample_weight, zero_division, {})


def fbeta_score(
    y_true: Any, y_pred: Any, *, beta: float, labels: Sequence[Any] | None = None, pos_label: Any = 1,
    average: str | None = "binary", sample_weight: Any = None, zero_division: Any = "warn",
) -> Any:  # fmt: skip
    """F-beta ``(1 + b²) tp / ((1 + b²) tp + b² fn + fp)``, as scikit-learn's ``fbeta_score``
    (``beta=0`` is precision, ``beta=inf`` recall).

    Examples:
        >>> round(fbeta_score([0, 1, 1, 0], [0, 1, 0, 0], beta=2), 6)
        0.555556
    """
    return _one("f_score", y_true, y_pred, labels, pos_label, average, sample_weight, zero_division, {"beta": check_beta(beta)})


def f1_score(
    y_true: Any, y_pred: Any, *, labels: Sequence[Any] | None = None, pos_label: Any = 1, average: str | None = "binary",
    sample_weight: Any = None, zero_division: Any = "warn",
) -> Any:  # fmt: skip
    """F1 ``2 tp / (2 tp + fp + fn)``, as scikit-learn's ``f1_score``.

    Examples:
        >>> f1_score([0, 1, 1, 0], [0, 1, 0, 0])
        0.6666666666666666
    """
    return _one("f_score", y_true, y_pred, labels, pos_label, average, sample_weight, zero_division, {"beta": 1.0})


def jaccard_score(
    y_true: Any, y_pred: Any, *, labels: Sequence[Any] | None = None, pos_label: Any = 1, average: str | None = "binary",
    sample_weight: Any = None, zero_division: Any = "warn",
) -> Any:  # fmt: skip
    """Jaccard index ``tp / (tp + fp + fn)``, as scikit-learn's ``jaccard_score``
    (``zero_division`` is ``"warn"``, 0 or 1 there).

    Examples:
        >>> jaccard_score([0, 1, 1, 0], [0, 1, 0, 0])
        0.5
    """
    return _one("jaccard_index", y_true, y_pred, labels, pos_label, average, sample_weight, zero_division, {}, allow_nan=False)


# --------------------------------------------------------------------------------------------
# whole-result scores


def accuracy_score(y_true: Any, y_pred: Any, *, normalize: bool = True, sample_weight: Any = None) -> float:
    """Accuracy (exact-match accuracy of multi-label data), as scikit-learn's ``accuracy_score``:
    the share of correct samples, or with ``normalize=False`` their (weighted) number.

    Examples:
        >>> accuracy_score([0, 1, 2, 2], [0, 1, 1, 2]), accuracy_score([0, 1, 2, 2], [0, 1, 1, 2], normalize=False)
        (0.75, 3.0)
    """
    normalize = _check_flag("normalize", normalize)
    evaluation = _targets(y_true, y_pred, sample_weight).evaluation
    cells = evaluation.sample_cells
    correct = cells.sum_rows((cells.fp == 0) & (cells.fn == 0))
    if not normalize:
        return float(correct)
    return float(correct / evaluation.n_samples) if evaluation.n_samples else math.nan


def _likelihood_replacements(replace_undefined_by: Any) -> tuple[float, float]:
    """scikit-learn's ``replace_undefined_by`` of ``class_likelihood_ratios``: NaN, 1.0 (both
    ratios 1: a useless test), or ``{"LR+": value in [1, inf] or NaN, "LR-": value in [0, 1] or NaN}``."""
    if isinstance(replace_undefined_by, float) and math.isnan(replace_undefined_by):
        return math.nan, math.nan
    if isinstance(replace_undefined_by, (int, float)) and not isinstance(replace_undefined_by, bool) and replace_undefined_by == 1.0:
        return 1.0, 1.0
    if isinstance(replace_undefined_by, dict) and {"LR+", "LR-"} <= set(replace_undefined_by):
        plus, minus = replace_undefined_by["LR+"], replace_undefined_by["LR-"]
        numbers = all(isinstance(value, (int, float)) and not isinstance(value, bool) for value in (plus, minus))
        if numbers and (math.isnan(plus) or plus >= 1.0) and (math.isnan(minus) or 0.0 <= minus <= 1.0):
            return float(plus), float(minus)
    raise InvalidArgumentError(
        "The dictionary passed as `replace_undefined_by` needs to be in the form `{'LR+': `value_1`, 'LR-': `value_2`}` where the "
        "value for `LR+` ranges from `1.0` to `np.inf` or is `np.nan` and the value for `LR-` ranges from `0.0` to `1.0` or is "
        f"`np.nan`; got `{replace_undefined_by}`."
    )


def class_likelihood_ratios(
    y_true: Any, y_pred: Any, *, labels: Sequence[Any] | None = None, sample_weight: Any = None, replace_undefined_by: Any = math.nan
) -> tuple[float, float]:
    """The positive and negative likelihood ratios ``(LR+, LR-)`` of a binary problem, as
    scikit-learn's ``class_likelihood_ratios``: the positive class is the second of ``labels``
    (by default of the sorted labels); an undefined ratio warns and is NaN, or what
    ``replace_undefined_by`` says. Every average and interval of the two (and the diagnostic
    odds ratio, the post-test probability) are measures of evalkit's results too.

    Examples:
        >>> class_likelihood_ratios([0, 1, 0, 1, 0], [1, 1, 0, 0, 0])
        (1.5, 0.75)
    """
    targets = _targets(y_true, y_pred, sample_weight)
    if targets.kind != "binary":
        raise InvalidValueError(f"class_likelihood_ratios only supports binary classification problems, got targets of type: {targets.kind}")
    replace_plus, replace_minus = _likelihood_replacements(replace_undefined_by)
    counts = confusion_matrix(y_true, y_pred, labels=labels, sample_weight=sample_weight, warn_single=False)
    if counts.shape != (2, 2):
        raise InvalidArgumentError(f"'y_true' and 'y_pred' hold one class only: give labels=[negative, positive] (got {show(counts.tolist())})")
    (tn, fp), (fn, tp) = counts.tolist()
    cells = {"tp": tp, "fp": fp, "fn": fn, "tn": tn}
    plus, minus = get_measure("positive_likelihood_ratio")(**cells), get_measure("negative_likelihood_ratio")(**cells)
    advice = ("Use the `replace_undefined_by` param to control this behavior. To suppress this warning or turn it into an error, "
              "see Python's `warnings` module and `warnings.catch_warnings()`.")  # fmt: skip
    if tp + fn == 0:
        warnings.warn("No samples of the positive class are present in `y_true`. `positive_likelihood_ratio` and "
                      f"`negative_likelihood_ratio` are both set to `np.nan`. {advice}", UndefinedMetricWarning, stacklevel=2)  # fmt: skip
    if fp == 0:
        start = "No samples were predicted for the positive class and `positive_likelihood_ratio` is " if tp == 0 else (
            "`positive_likelihood_ratio` is ill-defined and ")  # fmt: skip
        warnings.warn(f"{start}set to `np.nan`. {advice}", UndefinedMetricWarning, stacklevel=2)
        plus = replace_plus
    if tn == 0:
        warnings.warn(f"`negative_likelihood_ratio` is ill-defined and set to `np.nan`. {advice}", UndefinedMetricWarning, stacklevel=2)
        minus = replace_minus
    return float(plus), float(minus)


def zero_one_loss(y_true: Any, y_pred: Any, *, normalize: bool = True, sample_weight: Any = None) -> float:
    """The share (or with ``normalize=False`` the weighted number) of wrong samples, as
    scikit-learn's ``zero_one_loss``.

    Examples:
        >>> zero_one_loss([0, 1, 2, 2], [0, 1, 1, 2])
        0.25
    """
    score = accuracy_score(y_true, y_pred, normalize=normalize, sample_weight=sample_weight)
    if normalize:
        return 1 - score
    evaluation = _targets(y_true, y_pred, sample_weight).evaluation
    return float(evaluation.n_samples) - score


def balanced_accuracy_score(y_true: Any, y_pred: Any, *, sample_weight: Any = None, adjusted: bool = False) -> float:
    """Balanced accuracy, the mean recall over the classes that occur in ``y_true``, as
    scikit-learn's ``balanced_accuracy_score`` (with ``adjusted=True``, chance scores 0).

    Examples:
        >>> balanced_accuracy_score([0, 1, 1, 1], [0, 1, 0, 1])
        0.8333333333333333
    """
    adjusted = _check_flag("adjusted", adjusted)
    targets = _targets(y_true, y_pred, sample_weight)
    if targets.kind == "multilabel":
        raise UnsupportedSettingError("balanced_accuracy_score needs one label per sample, not multi-label indicators")
    if np.isnan(targets.evaluation.per_class("recall")).any():
        warnings.warn("y_pred contains classes not in y_true", UserWarning, stacklevel=2)
    return targets.evaluation.get_balanced_accuracy(adjusted=adjusted)


def matthews_corrcoef(y_true: Any, y_pred: Any, *, sample_weight: Any = None) -> float:
    """Matthews correlation coefficient (multi-class: Gorodkin's R_K), as scikit-learn's
    ``matthews_corrcoef``: 0.0 where it is undefined (scikit-learn's value there).

    Examples:
        >>> round(matthews_corrcoef([0, 1, 1, 0], [0, 1, 0, 0]), 6)
        0.57735
    """
    targets = _targets(y_true, y_pred, sample_weight)
    if targets.kind == "multilabel":
        raise UnsupportedSettingError("matthews_corrcoef needs one label per sample, not multi-label indicators")
    value = targets.evaluation.get_matthews_correlation_coefficient()
    return 0.0 if math.isnan(value) else value


def cohen_kappa_score(
    y1: Any, y2: Any, *, labels: Sequence[Any] | None = None, weights: str | None = None, sample_weight: Any = None,
    replace_undefined_by: float = np.nan,
) -> float:  # fmt: skip
    """Cohen's kappa of two annotators (optionally ``"linear"`` or ``"quadratic"`` weighted),
    as scikit-learn's ``cohen_kappa_score``; ``labels`` selects the classes of the matrix.

    Examples:
        >>> round(cohen_kappa_score([0, 1, 2, 2], [0, 1, 1, 2]), 6)
        0.636364
    """
    matrix = confusion_matrix(y1, y2, labels=labels, sample_weight=sample_weight, warn_single=False)
    value = matrix_cohen_kappa(matrix, weights=weights)
    if math.isnan(value):
        warnings.warn(
            f"Cohen's kappa is undefined (no expected disagreement): it is set to replace_undefined_by={replace_undefined_by}",
            UndefinedMetricWarning,
            stacklevel=2,
        )
        return float(replace_undefined_by)
    return value


def hamming_loss(y_true: Any, y_pred: Any, *, sample_weight: Any = None) -> float:
    """The share of wrong labels, as scikit-learn's ``hamming_loss``.

    For multi-label data it is the framework's micro ``error_rate``; for single-label data it is
    the share of wrong *samples* (the mean of the mismatches), not ``average("error_rate", "micro")``,
    which counts every wrong sample twice over ``m`` one-vs-rest labels.

    Examples:
        >>> hamming_loss([0, 1, 2, 2], [0, 1, 1, 2])
        0.25
    """
    targets = _targets(y_true, y_pred, sample_weight)
    if targets.kind == "multilabel":
        return float(targets.evaluation.average("error_rate", "micro"))
    evaluation = targets.evaluation
    cells = evaluation.sample_cells
    wrong = cells.sum_rows((cells.fp != 0) | (cells.fn != 0))  # the mean of the mismatches, not 1 - accuracy (one rounding)
    return float(wrong / evaluation.n_samples) if evaluation.n_samples else math.nan


# --------------------------------------------------------------------------------------------
# confusion matrices


def confusion_matrix(
    y_true: Any, y_pred: Any, *, labels: Sequence[Any] | None = None, sample_weight: Any = None, normalize: str | None = None,
    warn_single: bool = True,
) -> np.ndarray:  # fmt: skip
    """The confusion matrix (rows actual, columns predicted), as scikit-learn's
    ``confusion_matrix``: ``labels`` orders or selects classes (samples of other classes are
    left out), ``normalize`` is ``"true"``, ``"pred"``, ``"all"`` or ``None``.

    Examples:
        >>> confusion_matrix(["a", "b", "b"], ["a", "a", "b"]).tolist()
        [[1, 0], [1, 1]]
    """
    if normalize is not None:
        check_choice("normalize", normalize, ("true", "pred", "all"))
    targets = _targets(y_true, y_pred, sample_weight)
    if targets.kind == "multilabel":
        raise UnsupportedSettingError("confusion_matrix needs one label per sample; use multilabel_confusion_matrix for indicators")
    pairs = targets.evaluation.pair_counts()
    present = targets.evaluation.labels
    counts = pairs.dense()
    if labels is not None:
        chosen = list(check_label_list(labels))
        if not chosen:
            raise InvalidArgumentError("'labels' should contain at least one label")
        index = {label: position for position, label in enumerate(present)}
        positions = np.array([index.get(label, -1) for label in chosen])
        in_y_true = set(targets.y_true.tolist() if isinstance(targets.y_true, np.ndarray) else targets.y_true)
        if not any(label in in_y_true for label in chosen):
            raise InvalidArgumentError("at least one label specified must be in y_true")
        padded = np.zeros((len(present) + 1, len(present) + 1), dtype=counts.dtype)
        padded[: len(present), : len(present)] = counts
        counts = padded[np.ix_(positions, positions)]  # -1: the zero row and column of an absent label
    if normalize is not None:
        totals = {"true": counts.sum(axis=1, keepdims=True), "pred": counts.sum(axis=0, keepdims=True), "all": counts.sum()}[normalize]
        with np.errstate(divide="ignore", invalid="ignore"):
            counts = np.nan_to_num(counts / totals, nan=0.0)
    if warn_single and counts.shape == (1, 1):
        warnings.warn(
            "A single label was found in 'y_true' and 'y_pred'. For the confusion matrix to have the correct shape, "
            "use the 'labels' parameter to pass all known labels.",
            UserWarning,
            stacklevel=2,
        )
    return counts


def multilabel_confusion_matrix(
    y_true: Any, y_pred: Any, *, sample_weight: Any = None, labels: Sequence[Any] | None = None, samplewise: bool = False
) -> np.ndarray:
    """One ``[[tn, fp], [fn, tp]]`` table per label (or per sample with ``samplewise=True``),
    as scikit-learn's ``multilabel_confusion_matrix``: the one-vs-rest cells.

    Examples:
        >>> multilabel_confusion_matrix([0, 1, 1], [0, 1, 0]).tolist()
        [[[1, 1], [0, 1]], [[1, 0], [1, 1]]]
    """
    samplewise = _check_flag("samplewise", samplewise)
    targets = _targets(y_true, y_pred, sample_weight)
    if samplewise:
        if targets.kind != "multilabel":
            raise UnsupportedSettingError("samplewise tables need multi-label data")
        evaluation, _ = _set_wise(targets, "samples", labels, None)
        cells = evaluation.sample_cells.entries()
        weight = 1 if cells.weight is None else cells.weight
        rows = [row * weight for row in cells.rows()]
    else:
        evaluation, chosen = _set_wise(targets, None, labels, None)
        rows = list(evaluation.cells_of(chosen).rows())
    tp, fp, fn, tn = rows
    tables = np.stack([tn, fp, fn, tp], axis=-1).reshape(-1, 2, 2)
    return tables.astype(np.float64) if sample_weight is not None else tables.astype(np.int64)


# --------------------------------------------------------------------------------------------
# the report


def classification_report(
    y_true: Any, y_pred: Any, *, labels: Sequence[Any] | None = None, target_names: Sequence[str] | None = None,
    sample_weight: Any = None, digits: int = 2, output_dict: bool = False, zero_division: Any = "warn",
) -> str | dict[str, Any]:  # fmt: skip
    """Per-class precision, recall, F1 and support with their averages, in scikit-learn's
    ``classification_report`` layout (text) or as its dict (``output_dict=True``).

    Examples:
        >>> print(classification_report([0, 1, 1, 0], [0, 1, 0, 0]))
                      precision    recall  f1-score   support
        <BLANKLINE>
                   0       0.67      1.00      0.80         2
                   1       1.00      0.50      0.67         2
        <BLANKLINE>
            accuracy                           0.75         4
           macro avg       0.83      0.75      0.73         4
        weighted avg       0.83      0.75      0.73         4
        <BLANKLINE>
    """
    output_dict = _check_flag("output_dict", output_dict)
    if isinstance(digits, bool) or not isinstance(digits, (int, np.integer)) or not 0 <= digits <= 15:
        raise InvalidArgumentError(f"'digits' must be a whole number in 0..15, got {show(digits)}")
    targets = _targets(y_true, y_pred, sample_weight)
    labels_given = labels is not None
    chosen = list(targets.evaluation.labels if targets.kind != "multilabel" else range(targets.evaluation.class_cells.tp.shape[0]))
    if labels is not None:
        chosen = list(check_label_list(labels))
    micro_is_accuracy = targets.kind != "multilabel" and (not labels_given or set(chosen) >= set(targets.evaluation.labels))
    if target_names is not None and len(chosen) != len(target_names):
        if not labels_given:
            raise InvalidArgumentError(
                f"the number of classes, {len(chosen)}, does not match the size of target_names, {len(target_names)}; try specifying labels"
            )
        warnings.warn(f"labels size, {len(chosen)}, does not match size of target_names, {len(target_names)}", UserWarning, stacklevel=2)
    names = [f"{label}" for label in chosen] if target_names is None else list(target_names)
    options = {"labels": chosen, "sample_weight": sample_weight, "zero_division": zero_division}
    precision, recall, f1, support = precision_recall_fscore_support(y_true, y_pred, average=None, **options)
    total = support.sum()
    rows = {name: [p, r, f, s] for name, p, r, f, s in zip(names, precision, recall, f1, support)}
    averages = {}
    for average in ("micro", "macro", "weighted", *(("samples",) if targets.kind == "multilabel" else ())):
        heading = "accuracy" if average == "micro" and micro_is_accuracy else f"{average} avg"
        scores = precision_recall_fscore_support(y_true, y_pred, average=average, **options)[:3]
        averages[heading] = [*scores, total]
    headers = ["precision", "recall", "f1-score", "support"]
    if output_dict:
        report: dict[str, Any] = {name: dict(zip(headers, map(float, values))) for name, values in rows.items()}
        report.update({heading: dict(zip(headers, map(float, values))) for heading, values in averages.items()})
        if "accuracy" in report:
            report["accuracy"] = report["accuracy"]["precision"]
        return report
    width = max(max(map(len, names)), len("weighted avg"), digits)
    text = "{:>{width}s} ".format("", width=width) + "".join(f" {header:>9}" for header in headers) + "\n\n"
    row_format = "{:>{width}s} " + " {:>9.{digits}f}" * 3 + " {:>9}\n"
    for name, values in rows.items():
        text += row_format.format(name, *values, width=width, digits=digits)
    text += "\n"
    for heading, values in averages.items():
        if heading == "accuracy":
            text += ("{:>{width}s} " + " {:>9.{digits}}" * 2 + " {:>9.{digits}f}" + " {:>9}\n").format(
                heading, "", "", values[2], values[3], width=width, digits=digits
            )
        else:
            text += row_format.format(heading, *values, width=width, digits=digits)
    return text



# --------------------------------------------------------------------------------------------
# scores: curves, areas and thresholds (from evalkit.curves)

_ONE_CLASS = "Only one class is present in y_true. ROC AUC score is not defined in that case."
_NO_POSITIVES = "No positive class found in y_true, recall is set to one for all thresholds."


def _exact_score_array(y_score: Any) -> np.ndarray:
    """Scores as numbers: float64, or int64 for integers beyond 2**53, which float64 would tie."""
    raw = as_array(y_score, "y_score")  # read once: integers keep their type, anything else is checked as numbers
    return exact_scores(raw) if raw.dtype.kind in "iu" else check_numbers("y_score", raw, booleans=True)


def _binary_scores(y_score: Any) -> np.ndarray:
    """1-D scores (an ``n x 1`` column is raveled, as scikit-learn's ``column_or_1d`` does)."""
    check_ordered(y_score, "y_score", "scores")
    scores = _exact_score_array(y_score)
    if scores.ndim == 2 and scores.shape[1] == 1:
        scores = scores.ravel()
    if scores.ndim != 1:
        raise InputShapeError(f"'y_score' must be 1-D scores of the positive class, got shape {scores.shape}")
    return scores


def _binary_truth(y_true: Any) -> Any:
    truth = y_true if isinstance(y_true, (list, tuple)) else np.asarray(y_true)
    if isinstance(truth, np.ndarray) and truth.ndim == 2 and truth.shape[1] == 1:
        truth = truth.ravel()
    if isinstance(truth, np.ndarray) and truth.ndim != 1:
        raise InputShapeError(f"'y_true' must be 1-D labels of a binary problem, got shape {truth.shape}")
    return truth


def _is_label(codes: np.ndarray, found: tuple, label: Any) -> np.ndarray:
    """Whether each sample's label is ``label``, from the codes ``encode`` gave over the labels
    ``found`` (``True`` is never the class ``1``)."""
    position = next((k for k, own in enumerate(found) if own == label and isinstance(own, bool) == isinstance(label, bool)), -1)
    return codes == position


def _binary_curve(y_true: Any, y_score: Any, pos_label: Any, sample_weight: Any) -> ThresholdCurve:
    return ThresholdCurve.from_scores(_binary_truth(y_true), _binary_scores(y_score), pos_label=pos_label, sample_weight=sample_weight)


def confusion_matrix_at_thresholds(
    y_true: Any, y_score: Any, *, pos_label: Any = None, sample_weight: Any = None
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
    y_true: Any, y_score: Any, *, pos_label: Any = None, sample_weight: Any = None, drop_intermediate: bool = True
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
    y_true: Any, y_score: Any, *, pos_label: Any = None, sample_weight: Any = None, drop_intermediate: bool = False
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
    y_true: Any, y_score: Any, pos_label: Any = None, sample_weight: Any = None, drop_intermediate: bool = False
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


def _score_target(y_true: Any, y_score: Any) -> tuple[str, Any, np.ndarray, tuple]:
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
    classes = Evaluation.from_labels(truth, truth).labels
    return ("binary" if len(classes) <= 2 else "multiclass"), truth, scores, classes


def _sklearn_average(curve: ThresholdCurve, values: np.ndarray, average: Any, sample_weight: Any) -> Any:
    """Per-class areas averaged as scikit-learn does: NaN propagates; a class of no support
    counts nothing in ``"weighted"``, which is 0 when no class has support."""
    if average is None:
        return values
    if average == "weighted":
        if not np.any(curve.positives > 0):
            return 0.0
        return float(mean_of(values, curve.positives, undefined="nan"))
    return float(mean_of(values, undefined="nan"))


def _per_class_areas(curve: ThresholdCurve, area: str, max_fpr: Any) -> np.ndarray:
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


def _indicator_area(truth: np.ndarray, scores: np.ndarray, area: str, average: Any, sample_weight: Any, max_fpr: Any = None) -> Any:
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
    y_true: Any, y_score: Any, *, average: str | None = "macro", sample_weight: Any = None, max_fpr: float | None = None,
    multi_class: str = "raise", labels: Sequence[Any] | None = None,
) -> Any:  # fmt: skip
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


def _column_order(labels: Any) -> tuple:
    """scikit-learn's rule for the labels of score columns: unique and sorted."""
    if isinstance(labels, (str, bytes, bool, int, float)) or not hasattr(labels, "__iter__"):
        raise InvalidTypeError(f"'labels' must be a sequence of labels, got {show(labels)}")
    checked = list(labels)
    if len(set(checked)) != len(checked):
        raise InvalidArgumentError(f"'labels' must be unique, got {show(checked)}")
    if checked != sorted(checked):
        raise InvalidArgumentError(f"'labels' must be ordered (the column order of 'y_score'), got {show(checked)}")
    return tuple(checked)


def _multiclass_roc_auc(truth: Any, scores: np.ndarray, labels: Any, multi_class: str, average: Any, sample_weight: Any, max_fpr: Any) -> Any:
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
        return one_vs_one_roc_auc(truth, scores, labels, average=average, sample_weight=sample_weight)
    curve = ThresholdCurve.from_scores(truth, scores, labels, sample_weight=sample_weight)
    if average == "micro":
        return _per_class_areas(curve.micro(), "roc_auc", None)[0]
    return _sklearn_average(curve, _per_class_areas(curve, "roc_auc", None), average, sample_weight)


def average_precision_score(
    y_true: Any, y_score: Any, *, average: str | None = "macro", pos_label: Any = 1, sample_weight: Any = None
) -> Any:
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
            raise InvalidArgumentError(f"pos_label={pos_label!r} is not a valid label: it should be one of {list(classes)!r}")
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
    y_true: Any, y_score: Any, metric_func: Any, *, sample_weight: Any = None, metric_params: dict[str, Any] | None = None,
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
    if name not in _READABLE or not (module == __name__ or module.startswith("sklearn.metrics")):
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


def _called_at_thresholds(truth: Any, scores: np.ndarray, metric_func: Any, sample_weight: Any, params: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
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
    y_true: Any, y_score: Any, *, k: int = 2, normalize: bool = True, sample_weight: Any = None, labels: Sequence[Any] | None = None
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
    if scores.ndim == 2 and scores.shape[1] == 1:
        scores = scores.ravel()  # one column: the positive class's scores, as scikit-learn reads them
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


def _probability_array(y_proba: Any) -> np.ndarray:
    """Probabilities as float64: 1-D (the positive class's) or ``n x m``, in sample order."""
    check_ordered(y_proba, "y_proba", "probabilities")
    probabilities = check_numbers("y_proba", y_proba, booleans=True)
    if not np.isfinite(probabilities).all():
        raise InvalidValueError(f"'y_proba' holds NaN or infinity: {show(probabilities)}")
    if probabilities.ndim not in (1, 2):
        raise InputShapeError(f"'y_proba' must be 1-D (the positive class) or n x m probabilities, got shape {probabilities.shape}")
    return probabilities


def _probabilities(y_true: Any, y_proba: Any, labels: Any) -> tuple[np.ndarray, np.ndarray]:
    """scikit-learn's checks of class probabilities: ``(0/1 truth, probabilities)``, both ``n x m``
    over the sorted classes (1-D probabilities are the positive class's of two)."""
    probabilities = _probability_array(y_proba)
    if probabilities.size and probabilities.max() > 1:
        raise InvalidValueError(f"'y_proba' holds values greater than 1: {probabilities.max()}")
    if probabilities.size and probabilities.min() < 0:
        raise InvalidValueError(f"'y_proba' holds values lower than 0: {probabilities.min()}")
    if probabilities.ndim == 1:
        probabilities = probabilities[:, None]
    if probabilities.shape[1] == 1:
        probabilities = np.concatenate([1 - probabilities, probabilities], axis=1)
    kind, truth = _as_target(y_true, "y_true")
    if kind == "indicators":
        truth = np.asarray(truth.toarray() if is_sparse(truth) else truth)
        if truth.shape != probabilities.shape:
            raise InputShapeError(f"'y_proba' has shape {probabilities.shape} but 'y_true' has shape {truth.shape}")
        return truth.astype(np.float64), probabilities
    observed = Evaluation.from_labels(truth, truth).labels
    if labels is None:
        classes = observed
        if len(classes) == 1:
            raise InvalidArgumentError(f"'y_true' holds one label ({classes[0]!r}): give 'labels', every expected class")
    else:
        labels = check_label_list(labels)
        classes = tuple(sorted(labels))
        if len(classes) < 2:
            raise InvalidArgumentError(f"'labels' must hold at least two classes, got {show(list(labels))}")
        if classes != tuple(labels):
            warnings.warn(
                f"Labels passed were {list(labels)}. But this function assumes labels are ordered lexicographically. "
                f"Pass the ordered labels={list(classes)} and ensure that the columns of y_prob correspond to this ordering.",
                UserWarning,
                stacklevel=3,
            )
        extra = [label for label in observed if label not in classes]
        if extra:
            raise UnknownLabelError(f"'y_true' holds {show(extra)}, not among the given labels {show(list(classes))}")
    if len(classes) != probabilities.shape[1]:
        raise InputShapeError(
            f"'y_true' has {len(classes)} classes but 'y_proba' has {probabilities.shape[1]} columns; give 'labels', every class in column order"
        )
    codes, _, _, _ = encode(truth, truth, classes)
    if len(codes) != len(probabilities):
        raise InputLengthError(f"'y_true' has {len(codes)} samples but 'y_proba' has {len(probabilities)}")
    sums = probabilities.sum(axis=1)
    if not np.allclose(sums, 1, rtol=np.sqrt(np.finfo(np.float64).eps)):
        warnings.warn("The y_prob values do not sum to one. Make sure to pass probabilities.", UserWarning, stacklevel=3)
    return np.eye(len(classes))[codes], probabilities


def _mean_loss(losses: np.ndarray, sample_weight: Any, normalize: bool = True) -> float:
    normalize = _check_flag("normalize", normalize)
    weight = check_sample_weight(sample_weight, len(losses))
    if normalize:
        if weight is not None and not weight.sum() > 0:
            raise InvalidValueError(f"'sample_weight' sums to 0: a weighted mean needs some weight, got {show(sample_weight)}")
        return float(np.average(losses, weights=weight))
    return float(losses.sum() if weight is None else np.dot(losses, weight))


def _renamed_probabilities(y_proba: Any, y_pred: Any) -> Any:
    """``y_proba``, or ``y_pred``, its older name (scikit-learn renamed it in 1.9)."""
    if not (isinstance(y_pred, str) and y_pred == "deprecated"):
        if y_proba is not None:
            raise InvalidArgumentError("give 'y_proba' or its older name 'y_pred', not both")
        warnings.warn("'y_pred' is the older name of 'y_proba' (renamed in scikit-learn 1.9, which warns alike): pass y_proba=",
                      FutureWarning, stacklevel=3)  # fmt: skip
        y_proba = y_pred
    if y_proba is None:
        raise InvalidArgumentError("'y_proba' is required: the predicted probabilities")
    return y_proba


def log_loss(
    y_true: Any, y_proba: Any = None, *, normalize: bool = True, sample_weight: Any = None, labels: Sequence[Any] | None = None,
    y_pred: Any = "deprecated",
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
    truth, probabilities = _probabilities(y_true, y_proba, labels)
    return _mean_loss(log_losses(truth, probabilities), sample_weight, normalize)


def _any_probabilities(y_true: Any, y_proba: Any, pos_label: Any, labels: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(0/1 truth, probabilities)``, both ``n x m``: of the positive class against the other
    when ``y_proba`` is 1-D (``pos_label`` as scikit-learn infers it), else of every class."""
    scores = _probability_array(y_proba)
    if not (scores.ndim == 1 or (scores.ndim == 2 and scores.shape[1] == 1)):
        return _probabilities(y_true, scores, labels)
    scores = scores.ravel()
    if pos_label is not None:
        pos_label = check_one_label("pos_label", pos_label)
    truth = _binary_truth(y_true)
    codes, _, observed, _ = encode(truth, truth)
    if len(observed) > 2:
        raise InvalidValueError(f"'y_true' has {len(observed)} classes but 'y_proba' is 1-D (binary): give one column per class")
    if pos_label is None:
        if any(isinstance(label, str) for label in observed):
            raise InvalidArgumentError(f"'y_true' has labels {show(list(observed))}: give 'pos_label', the positive class")
        pos_label = observed[-1] if not (set(observed) <= {0, 1} or set(observed) <= {-1, 1}) else 1
    if scores.size and (scores.max() > 1 or scores.min() < 0):
        raise InvalidValueError(f"'y_proba' must hold probabilities in [0, 1], got {show(scores)}")
    curve_truth = _is_label(codes, observed, pos_label)
    if len(curve_truth) != len(scores):
        raise InputLengthError(f"'y_true' has {len(curve_truth)} samples but 'y_proba' has {len(scores)}")
    return np.stack([~curve_truth, curve_truth], axis=1).astype(np.float64), np.stack([1 - scores, scores], axis=1)


def _null_ratio(losses: Any, truth: np.ndarray, probabilities: np.ndarray, sample_weight: Any) -> float:
    """``D² = 1 - loss / loss of the null model``, which predicts the (weighted) share of each
    class for every sample (Nagelkerke's and the Brier skill score's reference)."""
    weight = check_sample_weight(sample_weight, len(truth))
    null = np.broadcast_to(np.average(truth, axis=0, weights=weight), truth.shape)
    ours, theirs = (_mean_loss(losses(truth, p), sample_weight, normalize=False) for p in (probabilities, null))
    if theirs == 0:
        warnings.warn("D^2 score is undefined: the null model is perfect (every sample is of one class)", UndefinedMetricWarning, stacklevel=3)
        return math.nan
    return float(1 - ours / theirs)


def _too_few_for_d2(y_true: Any, y_proba: Any) -> bool:
    n, rows = len(as_array(y_true, "y_true")), len(as_array(y_proba, "y_proba"))
    if n != rows:
        raise InputLengthError(f"'y_true' has {n} samples but 'y_proba' has {rows}")
    if rows < 2:
        warnings.warn("D^2 score is not well-defined with less than two samples.", UndefinedMetricWarning, stacklevel=3)
        return True
    return False


def d2_log_loss_score(
    y_true: Any, y_proba: Any = None, *, sample_weight: Any = None, labels: Sequence[Any] | None = None, y_pred: Any = "deprecated"
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
    truth, probabilities = _probabilities(y_true, y_proba, labels)
    return _null_ratio(log_losses, truth, probabilities, sample_weight)


def d2_brier_score(y_true: Any, y_proba: Any, *, sample_weight: Any = None, pos_label: Any = None, labels: Sequence[Any] | None = None) -> float:
    """The share of the Brier score explained (the Brier skill score), ``1 - Brier / Brier(null)``,
    as scikit-learn's ``d2_brier_score``. NaN with a warning for fewer than two samples.

    Examples:
        >>> round(d2_brier_score([0, 1, 1, 0], [0.2, 0.7, 0.9, 0.4]), 6)
        0.7
    """
    if _too_few_for_d2(y_true, y_proba):
        return math.nan
    truth, probabilities = _any_probabilities(y_true, y_proba, pos_label, labels)
    return _null_ratio(brier_losses, truth, probabilities, sample_weight)


def hinge_loss(y_true: Any, pred_decision: Any, *, labels: Sequence[Any] | None = None, sample_weight: Any = None) -> float:
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
                                      "include every class in 'y_true' or pass 'labels'")  # fmt: skip
            raise InputShapeError(f"with {len(classes)} classes 'pred_decision' must have shape ({n}, {len(classes)}), got {decision.shape}")
        codes, _, _, _ = encode(truth, truth, classes)
        own = decision[np.arange(n), codes]
        others = decision.copy()
        others[np.arange(n), codes] = -np.inf
        margin = own - others.max(axis=1)
    else:
        if decision.ndim == 2 and decision.shape[1] == 1:
            decision = decision.ravel()
        if decision.ndim != 1:
            raise InputShapeError(f"with two classes 'pred_decision' must be 1-D, one decision per sample, got shape {decision.shape}")
        sign = np.where((observed_codes == len(observed) - 1) & (len(observed) == 2), 1.0, -1.0)  # the greater label is +1
        margin = sign * decision
    return _mean_loss(np.maximum(1 - margin, 0), sample_weight)


def brier_score_loss(
    y_true: Any, y_proba: Any, *, sample_weight: Any = None, pos_label: Any = None, labels: Sequence[Any] | None = None,
    scale_by_half: Any = "auto",
) -> float:  # fmt: skip
    """The Brier score: the mean squared difference between probabilities and outcomes, as
    scikit-learn's ``brier_score_loss`` (halved for two classes by default, so that binary
    scores are ``mean (y - p)²``).

    Examples:
        >>> round(brier_score_loss([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3]), 4)
        0.0375
    """
    onehot, probabilities = _any_probabilities(y_true, y_proba, pos_label, labels)
    losses, m = brier_losses(onehot, probabilities), probabilities.shape[1]
    if scale_by_half == "auto":
        scale_by_half = m < 3
    return _mean_loss(losses, sample_weight) * (0.5 if scale_by_half else 1.0)


# --------------------------------------------------------------------------------------------
# label ranking (see evalkit.ranking) and the area under any curve


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


def _ranking_arrays(y_true: Any, y_score: Any, kinds: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
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


def coverage_error(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> float:
    """How far down the ranking of labels by score one must go, on average, to cover every
    relevant label, as scikit-learn's ``coverage_error`` (ties count as the worse rank; a
    sample without relevant labels counts 0). Best value: the mean number of relevant labels.

    Examples:
        >>> coverage_error([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]])
        2.5
    """
    truth, scores = _ranking_arrays(y_true, y_score, ("multilabel-indicator",))
    return _mean_loss(ranking.coverage(truth, scores).astype(np.float64), sample_weight)


def label_ranking_average_precision_score(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> float:
    """Label ranking average precision, as scikit-learn's: for each relevant label, the share
    of relevant labels among those scored at least as high, averaged per sample (1 for a
    sample whose labels are all relevant or all irrelevant), then over samples.

    Examples:
        >>> round(label_ranking_average_precision_score([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]]), 6)
        0.416667
    """
    truth, scores = _ranking_arrays(y_true, y_score, ("multilabel-indicator", "binary"))
    return _mean_loss(ranking.ranking_average_precision(truth, scores), sample_weight)


def label_ranking_loss(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> float:
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


def _check_flag(name: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidTypeError(f"{name!r} must be True or False, got {show(value)}")
    return bool(value)


def _check_k(k: Any) -> int | None:
    if k is None:
        return None
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise InvalidArgumentError(f"'k' must be an integer >= 1 or None, got {show(k)}")
    return int(k)


def dcg_score(
    y_true: Any, y_score: Any, *, k: int | None = None, log_base: float = 2, sample_weight: Any = None, ignore_ties: bool = False
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


def ndcg_score(y_true: Any, y_score: Any, *, k: int | None = None, sample_weight: Any = None, ignore_ties: bool = False) -> float:
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


def auc(x: Any, y: Any) -> float:
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
# calibration (see evalkit.calibration)


def calibration_curve(
    y_true: Any, y_prob: Any, *, pos_label: Any = None, n_bins: int = 5, strategy: str = "uniform", sample_weight: Any = None
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
    y_true: Any, y_prob: Any, *, n_bins: int = DEFAULT_BINS, strategy: str = "uniform", norm: str = "l1", estimator: str = "binned",
    sample_weight: Any = None, pos_label: Any = None, labels: Sequence[Any] | None = None, setting: str | None = None,
    average: str | None = "macro",
) -> Any:  # fmt: skip
    """The calibration error (ECE with ``norm="l1"``, RMSCE with ``"l2"``, MCE with ``"max"``)
    of probabilities: 1-D the positive class's, or ``n x m`` (top-label by default,
    ``setting="classwise"`` for every class one against the rest, averaged by ``average``).
    ``estimator="debiased"`` or ``"isotonic"`` (binning-free) as in ``evalkit.calibration``.

    Examples:
        >>> expected_calibration_error([1, 0], [0.95, 1.0])   # torchmetrics reads 0.525 (issue #3510)
        0.475
    """
    return error_of_scores(y_true, y_prob, labels, n_bins=n_bins, strategy=strategy, norm=norm, estimator=estimator,
                           sample_weight=sample_weight, pos_label=pos_label, setting=setting, average=average)  # fmt: skip


def brier_score_decomposition(
    y_true: Any, y_prob: Any, *, n_bins: int | None = None, strategy: str = "uniform", sample_weight: Any = None, pos_label: Any = None,
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
    probabilities = _probability_array(y_prob)
    setting = "classwise" if probabilities.ndim == 2 and probabilities.shape[1] > 1 else None
    calibration = Calibration.from_scores(y_true, probabilities, labels, pos_label=pos_label, setting=setting, sample_weight=sample_weight)
    return calibration.brier_decomposition(n_bins=n_bins, strategy=strategy)


# --------------------------------------------------------------------------------------------
# operating points (see ThresholdCurve.optimize)


def _at_fixed(y_true: Any, y_score: Any, objective: str, constraint: str, bound: Any, pos_label: Any, sample_weight: Any, labels: Any) -> Any:
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
    y_true: Any, y_score: Any, *, min_recall: float, pos_label: Any = None, sample_weight: Any = None, labels: Sequence[Any] | None = None
) -> Any:  # fmt: skip
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
    y_true: Any, y_score: Any, *, min_precision: float, pos_label: Any = None, sample_weight: Any = None, labels: Sequence[Any] | None = None
) -> Any:  # fmt: skip
    """The highest recall at precision >= ``min_precision`` and its threshold (torchmetrics'
    ``binary_recall_at_fixed_precision``); NaN when unreachable.

    Examples:
        >>> recall_at_fixed_precision([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.7, 0.9], min_precision=0.7)
        (0.6666666666666666, 0.8)
    """
    return _at_fixed(y_true, y_score, "recall", "precision", min_precision, pos_label, sample_weight, labels)


def sensitivity_at_specificity(
    y_true: Any, y_score: Any, *, min_specificity: float, pos_label: Any = None, sample_weight: Any = None, labels: Sequence[Any] | None = None
) -> Any:  # fmt: skip
    """The highest sensitivity (recall) at specificity >= ``min_specificity`` and its
    threshold (torchmetrics' ``binary_sensitivity_at_specificity``); NaN when unreachable.

    Examples:
        >>> sensitivity_at_specificity([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.7, 0.9], min_specificity=0.6)
        (0.6666666666666666, 0.8)
    """
    return _at_fixed(y_true, y_score, "recall", "specificity", min_specificity, pos_label, sample_weight, labels)


def specificity_at_sensitivity(
    y_true: Any, y_score: Any, *, min_sensitivity: float, pos_label: Any = None, sample_weight: Any = None, labels: Sequence[Any] | None = None
) -> Any:  # fmt: skip
    """The highest specificity at sensitivity (recall) >= ``min_sensitivity`` and its
    threshold (torchmetrics' ``binary_specificity_at_sensitivity``); NaN when unreachable.

    Examples:
        >>> specificity_at_sensitivity([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.7, 0.9], min_sensitivity=0.9)
        (0.3333333333333333, 0.35)
    """
    return _at_fixed(y_true, y_score, "specificity", "recall", min_sensitivity, pos_label, sample_weight, labels)


# --------------------------------------------------------------------------------------------
# fairlearn's disparities (see evalkit.groups)

_FAIRLEARN_METHODS = {"between_groups": "between", "to_overall": "overall"}


def _fairlearn(function: Any, y_true: Any, y_pred: Any, sensitive_features: Any, method: str, sample_weight: Any, positive: Any,
               **options: Any) -> float:  # fmt: skip
    check_choice("method", method, tuple(_FAIRLEARN_METHODS))
    import evalkit.groups._by_group as groups  # counting by group: imported when a fairness measure is asked for

    result = groups.ByGroup.from_labels(y_true, y_pred, sensitive_features, sample_weight=sample_weight)
    chosen = _fairlearn_positive(result.overall.labels) if positive is None else positive
    if chosen not in result.overall.labels:
        return 0.0 if "difference" in function.__name__ else math.nan  # nothing is ever predicted as fairlearn's positive 1
    # fairlearn's rates of a group without positives (or negatives) are 0; its selection rate of a group of no weight is left out
    undefined = "exclude" if function.__name__.startswith("demographic") else "zero"
    return float(getattr(groups, function.__name__)(result, chosen, relative_to=_FAIRLEARN_METHODS[method], undefined=undefined, **options))


def _fairlearn_positive(labels: tuple) -> Any:
    """fairlearn's positive class of its rates: 1 for labels among 0/1 or -1/1 (even when 1 never
    occurs); of two other labels, the larger."""
    if all(isinstance(label, (int, np.integer)) and not isinstance(label, (bool, np.bool_)) for label in labels) and (
            set(labels) <= {0, 1} or set(labels) <= {-1, 1}):  # fmt: skip
        return 1
    if len(labels) == 2:
        return labels[-1]
    raise InvalidArgumentError(f"the labels {show(list(labels))} are not 0/1 or -1/1: fairlearn's rates need a positive class among two labels")


def demographic_parity_difference(y_true: Any, y_pred: Any, *, sensitive_features: Any, method: str = "between_groups",
                                  sample_weight: Any = None) -> float:  # fmt: skip
    """fairlearn's ``demographic_parity_difference``: the largest difference of the groups'
    selection rates (the share predicted 1), between groups or to the overall rate.

    Examples:
        >>> demographic_parity_difference([0, 1, 1, 0], [1, 1, 0, 0], sensitive_features=["a", "a", "b", "b"])
        1.0
    """
    return _fairlearn(demographic_parity_difference, y_true, y_pred, sensitive_features, method, sample_weight, 1)


def demographic_parity_ratio(y_true: Any, y_pred: Any, *, sensitive_features: Any, method: str = "between_groups",
                             sample_weight: Any = None) -> float:  # fmt: skip
    """fairlearn's ``demographic_parity_ratio``: the smallest ratio of the groups' selection rates."""
    return _fairlearn(demographic_parity_ratio, y_true, y_pred, sensitive_features, method, sample_weight, 1)


def equal_opportunity_difference(y_true: Any, y_pred: Any, *, sensitive_features: Any, method: str = "between_groups",
                                 sample_weight: Any = None) -> float:  # fmt: skip
    """fairlearn's ``equal_opportunity_difference``: the largest difference of the groups'
    true positive rates (1 is positive for 0/1 and -1/1 labels, as in fairlearn, else the larger
    of two labels; an undefined rate counts 0)."""
    return _fairlearn(equal_opportunity_difference, y_true, y_pred, sensitive_features, method, sample_weight, None)


def equal_opportunity_ratio(y_true: Any, y_pred: Any, *, sensitive_features: Any, method: str = "between_groups",
                            sample_weight: Any = None) -> float:  # fmt: skip
    """fairlearn's ``equal_opportunity_ratio``: the smallest ratio of the groups' true positive rates."""
    return _fairlearn(equal_opportunity_ratio, y_true, y_pred, sensitive_features, method, sample_weight, None)


def equalized_odds_difference(y_true: Any, y_pred: Any, *, sensitive_features: Any, method: str = "between_groups", sample_weight: Any = None,
                              agg: str = "worst_case") -> float:  # fmt: skip
    """fairlearn's ``equalized_odds_difference``: the larger (or, ``agg="mean"``, the mean) of
    the true positive rate difference and the false positive rate difference.

    Examples:
        >>> equalized_odds_difference([0, 1, 1, 0, 1, 0], [0, 1, 0, 1, 1, 0], sensitive_features=list("aaabbb"))
        0.5
    """
    return _fairlearn(equalized_odds_difference, y_true, y_pred, sensitive_features, method, sample_weight, None, agg=agg)


def equalized_odds_ratio(y_true: Any, y_pred: Any, *, sensitive_features: Any, method: str = "between_groups", sample_weight: Any = None,
                         agg: str = "worst_case") -> float:  # fmt: skip
    """fairlearn's ``equalized_odds_ratio``: the smaller (or the mean) of the true positive
    rate ratio and the false positive rate ratio."""
    return _fairlearn(equalized_odds_ratio, y_true, y_pred, sensitive_features, method, sample_weight, None, agg=agg)
