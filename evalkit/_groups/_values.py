"""Reading one number of any result by a measure's name (``value_of``: what windows, groups and
reports read), and disparities between groups' values."""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Any

import numpy as np

from evalkit._engine._pair_counts import PairCounts
from evalkit._engine._validation import check_choice, show
from evalkit._scores.curves import ThresholdCurve, area_key
from evalkit.exceptions import (
    InvalidArgumentError,
    UnknownLabelError,
)
from evalkit.measures._averaging import AVERAGES, UndefinedPolicy, ratio
from evalkit.measures._formulas import margins_cohen_kappa, margins_matthews_correlation_coefficient
from evalkit.measures._registry import MeasureLike


def _min_size(min_size: object) -> float | None:
    if min_size is None:
        return None
    if isinstance(min_size, bool) or not isinstance(min_size, (int, float, np.integer, np.floating)) or not min_size >= 0:
        raise InvalidArgumentError(f"'min_size' must be a number >= 0 (a group's support), got {show(min_size)}")
    return float(min_size)


def _size(result: object) -> float | None:
    size = getattr(result, "n_samples", None)
    if size is None and hasattr(result, "get_total_items"):
        size = result.get_total_items()
    return size


def _area_name(measure: MeasureLike) -> str:
    """The area a name stands for on a curve, as report columns spell it (``"auc"`` is ``"roc_auc"``)."""
    key = area_key(measure)
    if key is None:
        raise InvalidArgumentError(f"groups of scores have the measures 'roc_auc' and 'average_precision', got {show(measure)}")
    return key


def _is_calibration(result: object) -> bool:
    return type(result).__name__ == "Calibration" and hasattr(result, "brier_score")


def _calibration_name(measure: MeasureLike) -> str:
    """The calibration measure a name stands for (``"ece"`` is ``"expected_calibration_error"``)."""
    from evalkit._scores.calibration import MEASURES, calibration_key

    key = calibration_key(measure)
    if key is None:
        raise InvalidArgumentError(f"groups of probabilities have the calibration measures {', '.join(MEASURES)}, got {show(measure)}")
    return key


def value_of(result: Any, measure: MeasureLike, average: str | None, label: Hashable, undefined: UndefinedPolicy, parameters: dict[str, Any]) -> float:
    """One number of a result: an average, a class's value, or a whole-result measure."""
    if _is_calibration(result):
        return float(result.measure(_calibration_name(measure), label=label, average=average or "macro", undefined=undefined, **parameters))
    if isinstance(result, ThresholdCurve):
        measure = _area_name(measure)
        area = result.roc_auc if measure == "roc_auc" else result.average_precision
        if average is not None:
            check_choice("average", average, AVERAGES)
        unknown = sorted(set(parameters) - ({"max_fpr"} if measure == "roc_auc" else set()))
        if unknown:  # (ignored before: a partial AUC read as the whole one)
            whose = " (max_fpr is roc_auc's)" if unknown[0] == "max_fpr" else ""
            raise InvalidArgumentError(f"{measure} takes no parameter {unknown[0]!r}{whose}")
        if label is None and len(result.labels) > 1 and average is None:
            average = "macro"
        return float(area(label, average=None if label is not None or len(result.labels) == 1 else average, undefined=undefined, **parameters))
    if label is not None:
        position = list(result.labels).index(label) if label in list(result.labels) else None
        if position is None:
            raise UnknownLabelError(f"no class {label!r}; the classes are {show(list(result.labels))}")
        return float(result.per_class(measure, **parameters)[position])
    if average is not None:
        check_choice("average", average, AVERAGES)
        return float(result.average(measure, average, undefined=undefined, **parameters))
    whole = result.whole_measures()
    name = result.measure(measure).name
    _refuse_part_measure(name, whole)
    return float(whole[name])


def _whole_of_margins(name: str, margins: dict[str, np.ndarray]) -> np.ndarray:
    """Accuracy, Cohen's kappa or MCC of many confusion matrices at once from their margins
    (``correct`` and ``total`` of any shape, ``actual`` and ``predicted`` one class axis more)."""
    shape = margins["correct"].shape
    flat = {key: np.asarray(value, dtype=np.float64).reshape(-1, *value.shape[len(shape):]) for key, value in margins.items()}
    if name == "accuracy":
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(flat["total"] > 0, flat["correct"] / np.where(flat["total"] > 0, flat["total"], 1.0), np.nan).reshape(shape)
    found = margins_cohen_kappa(**flat) if name == "cohen_kappa" else margins_matthews_correlation_coefficient(**flat)
    return np.asarray(found, dtype=np.float64).reshape(shape)


def _refuse_part_measure(name: str, whole: dict[str, float]) -> None:
    """A measure of the classes asked without an ``average`` or a ``label``: refused, naming
    the measures of a whole result (``whole``: its ``whole_measures()``)."""
    if name not in whole:
        raise InvalidArgumentError(f"give an 'average' or a 'label' for {name!r}: only {', '.join(whole)} are measures of a whole result")


def _whole_value(pairs: PairCounts, name: str) -> float:
    """Accuracy, Cohen's kappa or MCC of one group's counts (what its matrix would give)."""
    if name == "accuracy":
        margins = pairs.margins()
        return float(ratio(margins["correct"], margins["total"]))
    margins = pairs.ratio_margins()  # kappa and MCC: exact sums where their differences would cancel
    if name == "cohen_kappa":
        return float(margins_cohen_kappa(**margins))
    return float(margins_matthews_correlation_coefficient(**margins))


def _disparity(kind: str, values: np.ndarray, overall: float, reference: int | None) -> tuple[float, tuple[int, int] | None]:
    """The difference or ratio of defined values (NaN with too few), and the positions it comes
    from (-1: the overall value)."""
    defined = np.flatnonzero(~np.isnan(values))
    if reference is None:  # one defined group: no disparity (0, or a ratio of 1), as fairlearn has it
        if not len(defined):
            return math.nan, None
        high, low = int(defined[np.argmax(values[defined])]), int(defined[np.argmin(values[defined])])
        if kind == "difference":
            return float(values[high] - values[low]), (high, low)
        return (float(values[low] / values[high]) if values[high] else math.nan), (low, high)
    base = overall if reference < 0 else values[reference]
    others = defined if reference < 0 else defined[defined != reference]
    if math.isnan(base) or not len(others):
        return math.nan, None
    if kind == "difference":
        gaps = np.abs(values[others] - base)
        k = int(others[np.argmax(gaps)])
        return float(gaps.max()), (k, reference)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios = np.minimum(values[others] / base, base / values[others])
    if np.isnan(ratios).all():
        return math.nan, None
    k = int(others[np.nanargmin(ratios)])
    return float(np.nanmin(ratios)), (k, reference)


