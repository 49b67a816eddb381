"""Label measures of the scikit-learn face: precision, recall, F-scores, accuracy, kappa, MCC, the
confusion matrices and the classification report, and the targets every function reads.

Private: ``evalkit.metrics`` is the public path of every function here.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Hashable, Sequence, Sized
from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine._columns import Coded, decoded
from evalkit._engine._exact import rounded_counts
from evalkit._engine._labels import check_label_list
from evalkit._engine._types import LabelsLike
from evalkit._engine._validation import check_choice, show
from evalkit._engine.counting import agreeing_samples
from evalkit._results.confusion_matrix import ConfusionMatrix
from evalkit._results.evaluation import Evaluation
from evalkit.exceptions import InvalidArgumentError, InvalidValueError, UndefinedMetricWarning, UnsupportedSettingError
from evalkit.measures._averaging import check_undefined, class_average, fill_undefined
from evalkit.measures._formulas import check_beta, get_measure, matrix_cohen_kappa
from evalkit.metrics._inputs import (
    _AVERAGE_OPTIONS,
    Counts,
    _check_average,
    _check_flag,
    _counted,
    _label_listing,
    _Targets,
    _targets,
    _validated,
    label_counts,
)

__all__ = [
    "accuracy_score", "balanced_accuracy_score", "class_likelihood_ratios", "classification_report",
    "cohen_kappa_score", "confusion_matrix", "f1_score", "fbeta_score", "hamming_loss", "jaccard_score",
    "matthews_corrcoef", "multilabel_confusion_matrix", "precision_recall_fscore_support", "precision_score",
    "recall_score", "zero_one_loss",
]

# --------------------------------------------------------------------------------------------
# targets: what kind of data, as one Evaluation


def _set_wise(targets: _Targets, average: object, labels: Sequence[Hashable] | None, pos_label: Hashable) -> tuple[Counts, list | None]:
    """The evaluation to average and the labels to average over (scikit-learn's rules)."""
    _check_average(average)
    if labels is not None and targets.kind != "multilabel":
        check_label_list(labels)  # checked even where an average leaves it unused
    evaluation = targets.counts
    if average == "binary":
        if targets.kind != "binary":
            options = [option for option in _AVERAGE_OPTIONS if option != "binary" and (option != "samples" or targets.kind == "multilabel")]
            kind = "multilabel-indicator" if targets.kind == "multilabel" else targets.kind  # scikit-learn's type_of_target
            raise InvalidArgumentError(f"Target is {kind} but average='binary'. Please choose another average setting, one of {options!r}.")
        if pos_label not in evaluation.labels and len(evaluation.labels) >= 2:
            raise InvalidArgumentError(f"pos_label={pos_label!r} is not a valid label. It should be one of {_label_listing(evaluation.labels)}")
        return evaluation, [pos_label]
    if pos_label not in (None, 1):
        warnings.warn(
            f"Note that pos_label (set to {pos_label!r}) is ignored when average != 'binary' (got {average!r}). "
            "You may use labels=[pos_label] to specify a single positive class.",
            UserWarning,
            stacklevel=3,
        )
    if average == "samples" and targets.kind != "multilabel":
        raise UnsupportedSettingError("Samplewise metrics are not available outside of multilabel classification: "
                                      "average='samples' needs multi-label data (per-sample label sets)")
    if labels is None:
        return evaluation, None
    if targets.kind == "multilabel":  # labels are column indexes: evaluate those columns
        columns = np.asarray(labels)
        m = evaluation.class_cells.tp.shape[0]
        if columns.size and (columns.dtype.kind not in "iu" or columns.min() < 0 or columns.max() >= m):
            got = "" if columns.dtype.kind not in "iu" else f" Got {columns.max()} > {m - 1}" if columns.max() >= m else f" Got {columns.min()} < 0"
            raise InvalidArgumentError(f"All labels must be in [0, n labels) for multilabel targets.{got}: 'labels' of multi-label data must be "
                                       f"column indexes in [0, {m}), got {show(labels)}")  # fmt: skip
        subset = Evaluation.from_indicators(targets.y_true[:, columns], targets.y_pred[:, columns], sample_weight=targets.weight)
        return subset, None
    return evaluation, list(check_label_list(labels))


def _policy(zero_division: object, allow_nan: bool = True) -> str:
    """The undefined-value policy of a ``zero_division`` value (``"warn"`` fills in 0, as 0 does)."""
    if isinstance(zero_division, str) and zero_division == "warn":
        return "zero"
    number = isinstance(zero_division, (int, float, np.number)) and not isinstance(zero_division, bool)
    if number and (zero_division in (0, 1) or (allow_nan and math.isnan(float(cast(float, zero_division))))):
        return check_undefined(float(cast(float, zero_division)))
    allowed = "'warn', 0, 1" + (" or np.nan" if allow_nan else "")
    raise InvalidArgumentError(f"'zero_division' must be {allowed}; got {show(zero_division)}")


_DENOMINATOR_WORDS = {
    "precision": ("Precision", "predicted"),
    "recall": ("Recall", "true"),
    "f_score": ("F-score", "true nor predicted"),
    "f1_score": ("F-score", "true nor predicted"),
    "jaccard_index": ("Jaccard", "true or predicted"),
}


def _values(
    evaluation: Counts, measure: str, average: str | None, labels: list | None, policy: str, warn: bool, parameters: dict[str, Any],
    known: dict[str, np.ndarray] | None = None,
) -> float | np.ndarray:  # fmt: skip
    """One measure, averaged (a float) or per class (an array with undefined values filled),
    warning as scikit-learn does when ``zero_division="warn"`` replaced an undefined value.
    ``known`` keeps each measure's per-class values once read, and the support (a report reads
    them four times: its class averages are theirs)."""

    def per_class() -> np.ndarray:
        values = None if known is None else known.get(measure)
        if values is None:
            values = evaluation.per_class(measure, labels=labels, **parameters)
            if known is not None:
                known[measure] = values
        return values

    if average is None:
        values = per_class()
        result: float | np.ndarray = fill_undefined(values, policy)
        undefined, count = bool(np.isnan(values).any()), len(values)
    else:
        if known is not None and "support" in known and average in ("macro", "weighted"):  # a report's classes, read once: their average
            averaged = class_average(per_class().tolist(), known["support"].tolist(), average, policy)
        else:
            averaged = evaluation.average(measure, average, undefined=policy, labels=labels, **parameters)
        result = float(averaged)
        undefined, count = averaged.n_defined < averaged.n_values, averaged.n_values  # (macro: every class; micro: one value)
        if warn and average == "weighted":  # a class of no support is left out of the average, not out of the warning (nor its words)
            values = per_class()
            undefined, count = bool(np.isnan(values).any()), len(values)
        elif warn and average == "samples":  # a sample of weight 0 has 0/0 weighted counts in scikit-learn: undefined there too
            rows = evaluation.sample_cells
            values = np.where(rows.row_weights() > 0, rows.evaluate_rows(get_measure(measure), **parameters), np.nan)
            undefined, count = bool(np.isnan(values).any()), len(values)
    if warn and undefined:
        title, missing = _DENOMINATOR_WORDS[measure]
        things, groups = ("labels", "samples") if average == "samples" else ("samples", "labels")
        where = "due to" if count == 1 else f"in {groups} with"
        warnings.warn(
            f"{title} is ill-defined and being set to 0.0 {where} no {missing} {things}. Use `zero_division` parameter to control this behavior.",
            UndefinedMetricWarning,
            stacklevel=4,
        )
    return result


def _support(evaluation: Counts, labels: list | None, weighted: bool) -> np.ndarray:
    margins = evaluation._every_class_margins() if labels is None and isinstance(evaluation, ConfusionMatrix) else None  # whole counts: the running margins
    support = np.asarray(evaluation.cells_of(labels).support if margins is None else [tp + fn for tp, _, fn, _ in margins])
    return support.astype(np.float64) if weighted else support.astype(np.int64)


# --------------------------------------------------------------------------------------------
# precision, recall, F-beta


def precision_recall_fscore_support(
    y_true: LabelsLike,
    y_pred: LabelsLike,
    *,
    beta: float = 1.0,
    labels: Sequence[Any] | None = None,
    pos_label: Hashable = 1,
    average: str | None = None,
    warn_for: Sequence[str] = ("precision", "recall", "f-score"),
    sample_weight: ArrayLike | None = None,
    zero_division: float | str = "warn",
) -> tuple[Any, Any, Any, Any]:
    """Precision, recall, F-beta and support, as scikit-learn's function of that name.

    Returns ``(precision, recall, fbeta, support)``: floats and ``None`` for the support with
    an ``average``, one array per class (in ``labels`` order) with ``average=None``.

    Examples:
        >>> precision_recall_fscore_support([0, 1, 1, 0], [0, 1, 0, 0], average="binary")
        (1.0, 0.5, 0.6666666666666666, None)
    """
    check_beta(beta)  # (the arguments before the data, as scikit-learn checks them)
    _policy(zero_division)
    return _precision_recall_fscore(_targets(y_true, y_pred, sample_weight), beta, labels, pos_label, average, warn_for, zero_division)


def _precision_recall_fscore(targets: _Targets, beta: float, labels: Sequence[Any] | None, pos_label: Hashable, average: str | None,
                             warn_for: Sequence[str], zero_division: float | str,
                             known: dict[str, np.ndarray] | None = None) -> tuple[Any, Any, Any, Any]:  # fmt: skip
    """``precision_recall_fscore_support`` of targets counted before (a report reads them four
    times, keeping the per-class values it has read in ``known``)."""
    beta = check_beta(beta)
    policy = _policy(zero_division)
    evaluation, chosen = _set_wise(targets, average, labels, pos_label)
    kind = None if average is None else ("macro" if average == "binary" else average)
    warn = zero_division == "warn"
    warned = set(warn_for)
    f_name, f_parameters = ("f1_score", {}) if beta == 1 else ("f_score", {"beta": beta})  # (F1 is read by name, kept with the margins)
    results = [
        _values(evaluation, "precision", kind, chosen, policy, warn and "precision" in warned, {}, known),
        _values(evaluation, "recall", kind, chosen, policy, warn and "recall" in warned, {}, known),
        _values(evaluation, f_name, kind, chosen, policy, warn and "f-score" in warned and 0 < beta < math.inf, f_parameters, known),
    ]
    support = _support(evaluation, chosen, targets.weight is not None) if average is None else None
    if known is not None and support is not None:
        known["support"] = support
    return results[0], results[1], results[2], support


def _one(
    name: str, y_true: LabelsLike, y_pred: LabelsLike, labels: Sequence[Hashable] | None, pos_label: Hashable, average: str | None,
    sample_weight: ArrayLike | None, zero_division: float | str, parameters: dict[str, Any], allow_nan: bool = True,
) -> float | np.ndarray:  # fmt: skip
    """One set-wise measure of scikit-learn's functions, warning for it alone (F-beta with beta
    0 or infinity is precision or recall there, and gives no F-score warning)."""
    policy = _policy(zero_division, allow_nan)
    targets = _targets(y_true, y_pred, sample_weight)
    evaluation, chosen = _set_wise(targets, average, labels, pos_label)
    kind = None if average is None else ("macro" if average == "binary" else average)
    warn = zero_division == "warn" and parameters.get("beta", 1.0) not in (0.0, math.inf)
    return _values(evaluation, name, kind, chosen, policy, warn, parameters)


def precision_score(
    y_true: LabelsLike, y_pred: LabelsLike, *, labels: Sequence[Any] | None = None, pos_label: Hashable = 1, average: str | None = "binary",
    sample_weight: ArrayLike | None = None, zero_division: float | str = "warn",
) -> float | np.ndarray:  # fmt: skip
    """Precision ``tp / (tp + fp)``, as scikit-learn's ``precision_score``.

    Examples:
        >>> precision_score(["cat", "dog", "dog"], ["cat", "cat", "dog"], average="micro")
        0.6666666666666666
    """
    return _one("precision", y_true, y_pred, labels, pos_label, average, sample_weight, zero_division, {})


def recall_score(
    y_true: LabelsLike, y_pred: LabelsLike, *, labels: Sequence[Any] | None = None, pos_label: Hashable = 1, average: str | None = "binary",
    sample_weight: ArrayLike | None = None, zero_division: float | str = "warn",
) -> float | np.ndarray:  # fmt: skip
    """Recall ``tp / (tp + fn)``, as scikit-learn's ``recall_score``.

    Examples:
        >>> recall_score([0, 1, 1, 0], [0, 1, 0, 0])
        0.5
    """
    return _one("recall", y_true, y_pred, labels, pos_label, average, sample_weight, zero_division, {})


def fbeta_score(
    y_true: LabelsLike, y_pred: LabelsLike, *, beta: float, labels: Sequence[Any] | None = None, pos_label: Hashable = 1,
    average: str | None = "binary", sample_weight: ArrayLike | None = None, zero_division: float | str = "warn",
) -> float | np.ndarray:  # fmt: skip
    """F-beta ``(1 + b²) tp / ((1 + b²) tp + b² fn + fp)``, as scikit-learn's ``fbeta_score``
    (``beta=0`` is precision, ``beta=inf`` recall).

    Examples:
        >>> round(fbeta_score([0, 1, 1, 0], [0, 1, 0, 0], beta=2), 6)
        0.555556
    """
    return _one("f_score", y_true, y_pred, labels, pos_label, average, sample_weight, zero_division, {"beta": check_beta(beta)})


def f1_score(
    y_true: LabelsLike, y_pred: LabelsLike, *, labels: Sequence[Any] | None = None, pos_label: Hashable = 1, average: str | None = "binary",
    sample_weight: ArrayLike | None = None, zero_division: float | str = "warn",
) -> float | np.ndarray:  # fmt: skip
    """F1 ``2 tp / (2 tp + fp + fn)``, as scikit-learn's ``f1_score``.

    Examples:
        >>> f1_score([0, 1, 1, 0], [0, 1, 0, 0])
        0.6666666666666666
    """
    return _one("f1_score", y_true, y_pred, labels, pos_label, average, sample_weight, zero_division, {})


def jaccard_score(
    y_true: LabelsLike, y_pred: LabelsLike, *, labels: Sequence[Any] | None = None, pos_label: Hashable = 1, average: str | None = "binary",
    sample_weight: ArrayLike | None = None, zero_division: float | str = "warn",
) -> float | np.ndarray:  # fmt: skip
    """Jaccard index ``tp / (tp + fp + fn)``, as scikit-learn's ``jaccard_score``
    (``zero_division`` is ``"warn"``, 0 or 1 there).

    Examples:
        >>> jaccard_score([0, 1, 1, 0], [0, 1, 0, 0])
        0.5
    """
    return _one("jaccard_index", y_true, y_pred, labels, pos_label, average, sample_weight, zero_division, {}, allow_nan=False)


# --------------------------------------------------------------------------------------------
# whole-result scores


def accuracy_score(y_true: LabelsLike, y_pred: LabelsLike, *, normalize: bool = True, sample_weight: ArrayLike | None = None) -> float:
    """Accuracy (exact-match accuracy of multi-label data), as scikit-learn's ``accuracy_score``:
    the share of correct samples, or with ``normalize=False`` their (weighted) number.

    Examples:
        >>> accuracy_score([0, 1, 2, 2], [0, 1, 1, 2]), accuracy_score([0, 1, 2, 2], [0, 1, 1, 2], normalize=False)
        (0.75, 3.0)
    """
    normalize = _check_flag("normalize", normalize)
    kind, true, pred = _validated(y_true, y_pred)
    agreeing = agreeing_samples(true, pred) if kind == "labels" and sample_weight is None else None
    if agreeing is not None:  # two integer arrays: the diagonal alone (an exact count, one division)
        return agreeing / len(cast(Sized, true)) if normalize else float(agreeing)
    evaluation = _counted(kind, true, pred, sample_weight).counts
    if isinstance(evaluation, ConfusionMatrix):  # single-label: the diagonal, no per-sample cells
        if normalize:
            return float(evaluation.get_accuracy())  # (a ratio of exact sums, correctly rounded)
        correct = evaluation._right_and_wrong()[0]
    else:
        cells = evaluation.sample_cells
        correct = cells.sum_rows((cells.fp == 0) & (cells.fn == 0))
    if not normalize:
        return float(correct)
    return float(correct / evaluation.n_samples) if evaluation.n_samples else math.nan


def _likelihood_replacements(replace_undefined_by: float | dict[str, float]) -> tuple[float, float]:
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
    y_true: LabelsLike, y_pred: LabelsLike, *, labels: Sequence[Any] | None = None, sample_weight: ArrayLike | None = None, replace_undefined_by: float | dict[str, float] = math.nan
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
    counts = _confusion_matrix(y_true, y_pred, labels, sample_weight, warn_single=False)
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


def zero_one_loss(y_true: LabelsLike, y_pred: LabelsLike, *, normalize: bool = True, sample_weight: ArrayLike | None = None) -> float:
    """The share (or with ``normalize=False`` the weighted number) of wrong samples, as
    scikit-learn's ``zero_one_loss``.

    Examples:
        >>> zero_one_loss([0, 1, 2, 2], [0, 1, 1, 2])
        0.25
    """
    score = accuracy_score(y_true, y_pred, normalize=normalize, sample_weight=sample_weight)
    if normalize:
        return 1 - score
    evaluation = _targets(y_true, y_pred, sample_weight).counts
    return float(evaluation.n_samples) - score


def balanced_accuracy_score(y_true: LabelsLike, y_pred: LabelsLike, *, sample_weight: ArrayLike | None = None, adjusted: bool = False) -> float:
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
    recall = targets.counts.average("recall", "macro")  # (a class never in y_true: its recall undefined)
    if recall.n_defined < recall.n_values:
        warnings.warn("y_pred contains classes not in y_true", UserWarning, stacklevel=2)
    return targets.counts.get_balanced_accuracy(adjusted=adjusted)


def matthews_corrcoef(y_true: LabelsLike, y_pred: LabelsLike, *, sample_weight: ArrayLike | None = None) -> float:
    """Matthews correlation coefficient (multi-class: Gorodkin's R_K), as scikit-learn's
    ``matthews_corrcoef``: 0.0 where it is undefined (scikit-learn's value there).

    Examples:
        >>> round(matthews_corrcoef([0, 1, 1, 0], [0, 1, 0, 0]), 6)
        0.57735
    """
    targets = _targets(y_true, y_pred, sample_weight)
    if targets.kind == "multilabel":
        raise UnsupportedSettingError("matthews_corrcoef needs one label per sample, not multi-label indicators")
    value = targets.counts.get_matthews_correlation_coefficient()
    return 0.0 if math.isnan(value) else value


def cohen_kappa_score(
    y1: LabelsLike, y2: LabelsLike, *, labels: Sequence[Any] | None = None, weights: str | None = None, sample_weight: ArrayLike | None = None,
    replace_undefined_by: float = np.nan,
) -> float:  # fmt: skip
    """Cohen's kappa of two annotators (optionally ``"linear"`` or ``"quadratic"`` weighted),
    as scikit-learn's ``cohen_kappa_score``; ``labels`` selects the classes of the matrix.

    Examples:
        >>> round(cohen_kappa_score([0, 1, 2, 2], [0, 1, 1, 2]), 6)
        0.636364
    """
    matrix = _confusion_matrix(y1, y2, labels, sample_weight, warn_single=False,
                               missing_labels="At least one label in `labels` must be present in `y1` (even though `cohen_kappa_score` is "
                                             "otherwise agnostic to the order of `y1` and `y2`).")  # fmt: skip
    value = matrix_cohen_kappa(matrix, weights=weights)
    if math.isnan(value):  # no expected disagreement: scikit-learn's two cases, in its words
        why = ("`y2` contains no labels that are present in both `y1` and `labels`." if not matrix.any() else
               "`y1`, `y2` and `labels` have only one label in common.")  # fmt: skip
        warnings.warn(f"{why} `cohen_kappa_score` (Cohen's kappa) is undefined and set to the value defined by the `replace_undefined_by` "
                      f"param, which is set to {replace_undefined_by}.", UndefinedMetricWarning, stacklevel=2)  # fmt: skip
        return float(replace_undefined_by)
    return value


def hamming_loss(y_true: LabelsLike, y_pred: LabelsLike, *, sample_weight: ArrayLike | None = None) -> float:
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
        return float(targets.counts.average("error_rate", "micro"))
    evaluation = targets.counts
    cells = evaluation.sample_cells
    wrong = cells.sum_rows((cells.fp != 0) | (cells.fn != 0))  # the mean of the mismatches, not 1 - accuracy (one rounding)
    return float(wrong / evaluation.n_samples) if evaluation.n_samples else math.nan


# --------------------------------------------------------------------------------------------
# confusion matrices


def confusion_matrix(
    y_true: LabelsLike, y_pred: LabelsLike, *, labels: Sequence[Any] | None = None, sample_weight: ArrayLike | None = None, normalize: str | None = None,
) -> np.ndarray:  # fmt: skip
    """The confusion matrix (rows actual, columns predicted), as scikit-learn's
    ``confusion_matrix``: ``labels`` orders or selects classes (samples of other classes are
    left out), ``normalize`` is ``"true"``, ``"pred"``, ``"all"`` or ``None``.

    Examples:
        >>> confusion_matrix(["a", "b", "b"], ["a", "a", "b"]).tolist()
        [[1, 0], [1, 1]]
    """
    return _confusion_matrix(y_true, y_pred, labels, sample_weight, normalize)


def _confusion_matrix(
    y_true: LabelsLike, y_pred: LabelsLike, labels: Sequence[Any] | None, sample_weight: ArrayLike | None, normalize: str | None = None, *,
    warn_single: bool = True, missing_labels: str = "At least one label specified must be in y_true",
) -> np.ndarray:  # fmt: skip
    """``confusion_matrix``, for the functions built on it: ``warn_single`` (the warning of a
    1 x 1 matrix, which is theirs to give or not) and ``missing_labels`` (their message when no
    label of ``labels`` is in ``y_true``)."""
    if normalize is not None:
        check_choice("normalize", normalize, ("true", "pred", "all"))
    kind, checked_true, checked_pred = _validated(y_true, y_pred)
    true, pred = cast(Any, checked_true), cast(Any, checked_pred)  # (1-D labels: indicators are refused below)
    if kind == "indicators":
        raise UnsupportedSettingError("confusion_matrix needs one label per sample; use multilabel_confusion_matrix for indicators")
    table = label_counts(true, pred, sample_weight)  # (the matrix alone: no object around it)
    if table is not None:
        counts, present = rounded_counts(table[0]), table[1]
    else:
        evaluation = Evaluation.from_labels(true, pred, sample_weight=sample_weight)
        counts, present = evaluation.pair_counts().dense(), evaluation.labels
    if labels is not None:
        chosen = list(check_label_list(labels))
        if not chosen:
            raise InvalidArgumentError("'labels' should contain at least one label.")
        index = {label: position for position, label in enumerate(present)}
        positions = np.array([index.get(label, -1) for label in chosen])
        truth = decoded(true) if isinstance(true, Coded) else true
        in_y_true = set(truth.tolist() if isinstance(truth, np.ndarray) else truth)
        if not any(label in in_y_true for label in chosen):
            raise InvalidArgumentError(missing_labels)
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
            stacklevel=3,
        )
    return counts


def multilabel_confusion_matrix(
    y_true: LabelsLike, y_pred: LabelsLike, *, sample_weight: ArrayLike | None = None, labels: Sequence[Any] | None = None, samplewise: bool = False
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
            raise UnsupportedSettingError("Samplewise metrics are not available outside of multilabel classification: samplewise=True needs multi-label data")
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
    y_true: LabelsLike, y_pred: LabelsLike, *, labels: Sequence[Any] | None = None, target_names: Sequence[str] | None = None,
    sample_weight: ArrayLike | None = None, digits: int = 2, output_dict: bool = False, zero_division: float | str = "warn",
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
    chosen = list(targets.counts.labels if targets.kind != "multilabel" else range(targets.counts.class_cells.tp.shape[0]))
    if labels is not None:
        chosen = list(check_label_list(labels))
    micro_is_accuracy = targets.kind != "multilabel" and (not labels_given or set(chosen) >= set(targets.counts.labels))
    if target_names is not None and len(chosen) != len(target_names):
        if not labels_given:
            raise InvalidArgumentError(
                f"Number of classes, {len(chosen)}, does not match size of target_names, {len(target_names)}. Try specifying the labels parameter"
            )
        warnings.warn(f"labels size, {len(chosen)}, does not match size of target_names, {len(target_names)}", UserWarning, stacklevel=2)
    names = [f"{label}" for label in chosen] if target_names is None else list(target_names)
    warn_for = ("precision", "recall", "f-score")
    read = chosen if labels_given else None  # (every class in the counts' order: read without checking labels again)
    known: dict[str, np.ndarray] = {}
    precision, recall, f1, support = _precision_recall_fscore(targets, 1.0, read, 1, None, warn_for, zero_division, known)
    total = support.sum()
    rows = {name: [p, r, f, s] for name, p, r, f, s in zip(names, precision.tolist(), recall.tolist(), f1.tolist(), support.tolist())}  # (Python numbers format faster)
    averages = {}
    for average in ("micro", "macro", "weighted", *(("samples",) if targets.kind == "multilabel" else ())):
        heading = "accuracy" if average == "micro" and micro_is_accuracy else f"{average} avg"
        scores = _precision_recall_fscore(targets, 1.0, read, 1, average, warn_for, zero_division, known)[:3]
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
# scores: curves, areas and thresholds (from evalkit._scores.curves)
