"""What every function of the scikit-learn face reads first: the kind of target, its counts
(counted once: a ``ConfusionMatrix`` of labels, an ``Evaluation`` of indicators), the checks of
``average`` and flags, binary scores and truth, and the mean of per-sample losses.

Private: ``evalkit.metrics`` is the public path of every function of the face.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Hashable, Iterator, Sequence, Sized
from typing import Any, TypeAlias, cast

import attrs
import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine._columns import Coded, coded_column, decoded
from evalkit._engine._types import LabelsLike, ScoresLike, SparseMatrix
from evalkit._engine._validation import (
    as_array,
    check_numbers,
    check_option,
    check_ordered,
    check_sample_weight,
    column_or_1d,
    is_sparse,
    show,
)
from evalkit._engine.counting import checked_pair_counts, confusion_counts
from evalkit._results.confusion_matrix import ConfusionMatrix
from evalkit._results.evaluation import Evaluation
from evalkit._scores.curves import exact_scores
from evalkit.exceptions import EmptyInputError, InputShapeError, InvalidTypeError, InvalidValueError, MatrixSizeError
from evalkit.measures._averaging import AVERAGES

_AVERAGE_OPTIONS = (None, "binary", *AVERAGES)

_DENSE_CELLS = 1 << 16
"""Cells a dense matrix of single-label targets may have whatever the number of samples (256
classes); above, at most 16 a sample: more classes are counted per class (an ``Evaluation``)."""

TargetData: TypeAlias = "np.ndarray | list | Coded | SparseMatrix"
"""Targets as read: 1-D labels (an array, a list, a dataframe column's codes) or 2-D indicators."""

Counts = ConfusionMatrix | Evaluation
"""What a function of the face reads: a matrix of labels, an evaluation of indicators."""


@attrs.frozen
class _Targets:
    """Both targets of one call: their kind, their counts, and the data."""

    kind: str  # "binary", "multiclass" or "multilabel"
    counts: Counts  # a matrix of labels (what their averages and per-class values read), an evaluation of indicators
    y_true: Any  # by kind: a 1-D array or list of labels, or a 2-D (dense or sparse) indicator matrix
    y_pred: Any
    weight: ArrayLike | None


def _as_target(values: Any, argument: str) -> tuple[str, Any]:
    """``("labels", 1-D values)`` or ``("indicators", 2-D array or sparse matrix)``."""
    check_ordered(values, argument)
    if isinstance(values, (str, bytes)):
        raise InvalidTypeError(f"{argument!r} must be a sequence of labels, got the single string {show(values)}")
    if is_sparse(values):
        return "indicators", values
    if isinstance(values, Iterator):  # a generator's labels, read once
        values = list(values)
    if isinstance(values, (list, tuple)):
        if values and isinstance(values[0], (list, tuple, np.ndarray)):
            values = as_array(values, argument)
        else:
            listed = list(values)
            _refuse_continuous([value for value in listed if isinstance(value, (float, np.floating))], argument)
            return "labels", listed
    array = column_or_1d(as_array(values, argument))
    if array.ndim == 2:
        if array.dtype.kind == "O" or not np.isin(array, (0, 1)).all():
            raise InputShapeError(
                f"Multioutput target data is not supported: {argument!r} is 2-D but does not hold 0/1 indicators, and "
                f"multiclass-multioutput is not supported (scikit-learn: 'multiclass-multioutput format is not supported'): {show(array)}"
            )
        return "indicators", array
    if array.ndim != 1:
        got = f"the single value {show(values)}" if array.ndim == 0 else f"shape {array.shape}"
        raise InputShapeError(f"{argument!r} must be 1-D labels or a 2-D indicator matrix, got {got}")
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


def _validated(y_true: LabelsLike, y_pred: LabelsLike) -> tuple[str, TargetData, TargetData]:
    """The first stage of every function: both targets read and checked once, as
    ``("labels", 1-D labels, 1-D labels)`` (two dataframe columns of codes as their codes) or
    ``("indicators", 2-D, 2-D)``; nothing counted yet."""
    coded_true, coded_pred = coded_column(y_true, "y_true"), coded_column(y_pred, "y_pred")
    if coded_true is not None and coded_pred is not None:  # two dataframe columns of codes: counted from their codes
        for column, argument in ((coded_true, "y_true"), (coded_pred, "y_pred")):
            if any(isinstance(value, float) and not value.is_integer() for value in column.categories):  # (those that occur: a pass over the codes)
                _refuse_continuous([value for value in column.present() if isinstance(value, float)], argument)
        (kind_true, true), (kind_pred, pred) = ("labels", cast(Any, coded_true)), ("labels", cast(Any, coded_pred))
    else:  # (one column of codes beside other labels: its labels)
        (kind_true, true) = _as_target(y_true if coded_true is None else decoded(coded_true), "y_true")
        (kind_pred, pred) = _as_target(y_pred if coded_pred is None else decoded(coded_pred), "y_pred")
    if kind_true != kind_pred:
        raise InputShapeError(
            f"'y_true' holds {kind_true} but 'y_pred' holds {kind_pred}: classification metrics need one kind of target"
        )
    if (true.shape[0] if kind_true == "indicators" else len(true)) == 0:
        raise EmptyInputError("'y_true' and 'y_pred' are empty: at least one sample is needed")
    return kind_true, true, pred


def _targets(y_true: LabelsLike, y_pred: LabelsLike, sample_weight: ArrayLike | None = None) -> _Targets:
    """Both targets checked (``_validated``), then counted once (``_counted``)."""
    return _counted(*_validated(y_true, y_pred), sample_weight)


def _counted(kind: str, true: TargetData, pred: TargetData, sample_weight: ArrayLike | None) -> _Targets:
    """The second stage: checked targets counted once, as a confusion matrix of labels (an
    ``Evaluation`` counted per class where the classes are many) or an ``Evaluation`` of
    indicators."""
    actual, predicted = cast(Any, true), cast(Any, pred)  # (a dataframe column's codes are read where labels are)
    if kind == "indicators":
        return _Targets("multilabel", Evaluation.from_indicators(actual, predicted, sample_weight=sample_weight), actual, predicted, sample_weight)
    table = label_counts(actual, predicted, sample_weight)
    if table is not None:
        result: Counts = ConfusionMatrix._trusted(*table)
    else:
        result = Evaluation.from_labels(actual, predicted, sample_weight=sample_weight)
    return _Targets("binary" if len(result.labels) <= 2 else "multiclass", result, actual, predicted, sample_weight)


def label_counts(true: TargetData, pred: TargetData, sample_weight: ArrayLike | None) -> tuple[np.ndarray, tuple] | None:
    """The (actual, predicted) counts of single-label targets ``_validated`` has read, and their
    labels: a dense matrix where it is small beside the data (exact sums of float weights),
    None where the classes are too many (ids: an ``Evaluation`` counts them per class)."""
    limit = max(_DENSE_CELLS, 16 * len(cast(Sized, true)))  # (1-D labels: a column's codes or a sequence)
    try:
        if type(true) is np.ndarray and type(pred) is np.ndarray and true.dtype.kind in _READ_KINDS and pred.dtype.kind in _READ_KINDS and len(true) == len(pred):
            return checked_pair_counts(true, pred, check_sample_weight(sample_weight, len(true)), None, limit)  # (read and checked once)
        return confusion_counts(cast(LabelsLike, true), cast(LabelsLike, pred), None, sample_weight=sample_weight, max_cells=limit)
    except MatrixSizeError:
        return None


_READ_KINDS = frozenset("biufUS")
"""The dtypes of label arrays ``confusion_counts`` counts as they are (any other is read again)."""


def _check_average(average: Any) -> None:
    check_option("average", average, _AVERAGE_OPTIONS)


_ONE_CLASS = "Only one class is present in y_true. ROC AUC score is not defined in that case."


_NO_POSITIVES = "No positive class found in y_true, recall is set to one for all thresholds."


def _exact_score_array(y_score: ScoresLike) -> np.ndarray:
    """ScoresLike as numbers: float64, or int64 for integers beyond 2**53, which float64 would tie."""
    raw = as_array(y_score, "y_score")  # read once: integers keep their type, anything else is checked as numbers
    if not raw.ndim and raw.dtype.kind != "O":  # (a set or another object: check_numbers names it)
        raise InvalidTypeError(f"'y_score' must be a score per sample (or a row of scores per sample), got one value: {show(y_score)}")
    return exact_scores(raw) if raw.dtype.kind in "iu" else check_numbers("y_score", raw, booleans=True)


def _binary_scores(y_score: ScoresLike) -> np.ndarray:
    """1-D scores (an ``n x 1`` column is raveled, as scikit-learn's ``column_or_1d`` does)."""
    check_ordered(y_score, "y_score", "scores")
    scores = column_or_1d(_exact_score_array(y_score))
    if scores.ndim != 1:
        raise InputShapeError(f"'y_score' must be 1-D scores of the positive class, got shape {scores.shape}")
    return scores


def _binary_truth(y_true: LabelsLike) -> Any:
    truth = y_true if isinstance(y_true, (list, tuple)) else np.asarray(y_true)
    truth = column_or_1d(truth) if isinstance(truth, np.ndarray) else truth
    if isinstance(truth, np.ndarray) and truth.ndim != 1:
        raise InputShapeError(f"'y_true' must be 1-D labels of a binary problem, got shape {truth.shape}")
    return truth


def _is_label(codes: np.ndarray, found: tuple, label: Hashable) -> np.ndarray:
    """Whether each sample's label is ``label``, from the codes ``encode`` gave over the labels
    ``found`` (``True`` is never the class ``1``)."""
    position = next((k for k, own in enumerate(found) if own == label and isinstance(own, bool) == isinstance(label, bool)), -1)
    return codes == position


def _label_listing(labels: Sequence[Hashable]) -> str:
    """Labels as scikit-learn's messages print them (a numpy array's ``[0 1]``)."""
    return str(np.array(list(labels), dtype=object))


def _check_flag(name: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidTypeError(f"{name!r} must be True or False, got {show(value)}")
    return bool(value)


def refusing_no_weight(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function``, a face function with a ``sample_weight``, refusing weights that are all 0
    as scikit-learn does ("Sample weights must contain at least one non-zero number"): no weight
    has no measure, where an undefined average would be 0.0 or NaN by chance (evalkit's objects
    count such weights: a matrix of zeros).

    Examples:
        >>> refusing_no_weight(lambda y, *, sample_weight=None: len(y))([1], sample_weight=[0])
        Traceback (most recent call last):
        ...
        evalkit.exceptions.InvalidValueError: 'sample_weight' must hold at least one weight above 0 (scikit-learn refuses it too), got [0]
    """
    parameters = inspect.signature(function).parameters
    positional = parameters["sample_weight"].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    position = list(parameters).index("sample_weight") if positional else len(parameters)  # (keyword-only: never taken from the positions)

    @functools.wraps(function)
    def checked(*args: object, **kwargs: object) -> object:
        weight = args[position] if len(args) > position else kwargs.get("sample_weight")
        if weight is not None and not isinstance(weight, (str, bytes, dict, set)):
            try:
                array = np.asarray(weight)
            except (TypeError, ValueError):  # (the function's own check names it)
                array = None
            if array is not None and array.size and array.dtype.kind in "biuf" and not array.any():
                raise InvalidValueError(f"'sample_weight' must hold at least one weight above 0 (scikit-learn refuses it too), got {show(weight)}")
        return function(*args, **kwargs)

    return checked


def _mean_loss(losses: np.ndarray, sample_weight: ArrayLike | None, normalize: bool = True) -> float:
    normalize = _check_flag("normalize", normalize)
    weight = check_sample_weight(sample_weight, len(losses))
    if normalize:  # (some weight above 0: refusing_no_weight)
        return float(np.average(losses, weights=weight))
    return float(losses.sum() if weight is None else np.dot(losses, weight))
