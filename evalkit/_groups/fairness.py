"""fairlearn's group fairness measures of a ByGroup: demographic parity, equal opportunity and
equalized odds, as the largest difference or the smallest ratio between groups (or to the
whole), with fairlearn's conventions for groups without positives.

evalkit._groups gives them by name; evalkit.metrics gives fairlearn's own functions.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from evalkit._engine._labels import OVERALL
from evalkit._engine._types import Count
from evalkit._engine._validation import check_choice, show
from evalkit._groups._by_group import ByGroup
from evalkit._groups._values import _disparity
from evalkit.exceptions import (
    UnknownLabelError,
)
from evalkit.measures._averaging import UndefinedPolicy, check_undefined
from evalkit.measures._registry import Measure, MeasureLike

__all__ = [
    "SELECTION_RATE",
    "demographic_parity_difference",
    "demographic_parity_ratio",
    "equal_opportunity_difference",
    "equal_opportunity_ratio",
    "equalized_odds_difference",
    "equalized_odds_ratio",
]


def _selection_rate(*, tp: Count, fp: Count, fn: Count, tn: Count) -> Any:
    with np.errstate(invalid="ignore", divide="ignore"):
        total = np.asarray(tp + fp + fn + tn, dtype=np.float64)
        return np.where(total > 0, np.asarray(tp + fp, dtype=np.float64) / np.where(total > 0, total, 1.0), np.nan)


SELECTION_RATE = Measure(name="selection_rate", function=_selection_rate, title="Selection rate",
                         description="The share of the samples predicted as the class: (tp + fp) / total.", direction=None)  # fmt: skip
"""The share of the samples predicted as a class (demographic parity compares it across groups)."""


def _rates(result: ByGroup, measure: MeasureLike, positive: Hashable, undefined: UndefinedPolicy) -> tuple[np.ndarray, float]:
    if positive not in list(result.overall.labels):
        raise UnknownLabelError(f"the positive class {positive!r} is not among the labels {show(list(result.overall.labels))}")
    policy = check_undefined(undefined)
    found = result.values(measure, label=positive, undefined=policy)
    values = np.array([_fill(found[key], policy) for key in result.keys])
    return values, _fill(found[OVERALL], policy)


def _fill(value: float, policy: str) -> float:
    return {"zero": 0.0, "one": 1.0}.get(policy, value) if math.isnan(value) else value


def _fair(result: ByGroup, kind: str, measures: Sequence[Any], positive: Hashable, relative_to: Hashable, undefined: UndefinedPolicy, agg: str = "worst_case") -> float:
    check_choice("agg", agg, ("worst_case", "mean"))
    reference = result._reference(relative_to)
    found = np.array([_disparity(kind, *_rates(result, measure, positive, undefined), reference)[0] for measure in measures])
    defined = found[~np.isnan(found)]
    if agg == "mean" and len(defined) and check_undefined(undefined) != "nan":  # an undefined part is left out, as fairlearn's (pandas') mean does
        return float(np.mean(defined))
    if len(defined) < len(found):  # the worst case of a part that is undefined is not known
        return math.nan
    return float(defined.max() if kind == "difference" else defined.min())


def demographic_parity_difference(result: ByGroup, positive: Hashable = 1, *, relative_to: Hashable = "between", undefined: UndefinedPolicy = "exclude") -> float:
    """How far apart the groups' selection rates (the share predicted ``positive``) are:
    largest minus smallest, or the largest distance from the overall rate or a group's.

    Examples:
        >>> from evalkit import by_group
        >>> result = by_group([0, 1, 1, 0], [1, 1, 0, 0], ["a", "a", "b", "b"])
        >>> demographic_parity_difference(result)
        1.0
    """
    return _fair(result, "difference", [SELECTION_RATE], positive, relative_to, undefined)


def demographic_parity_ratio(result: ByGroup, positive: Hashable = 1, *, relative_to: Hashable = "between", undefined: UndefinedPolicy = "exclude") -> float:
    """The smallest ratio of the groups' selection rates (1: the same rate everywhere)."""
    return _fair(result, "ratio", [SELECTION_RATE], positive, relative_to, undefined)


def equal_opportunity_difference(result: ByGroup, positive: Hashable = 1, *, relative_to: Hashable = "between", undefined: UndefinedPolicy = "exclude") -> float:
    """How far apart the groups' true positive rates (recall of ``positive``) are."""
    return _fair(result, "difference", ["recall"], positive, relative_to, undefined)


def equal_opportunity_ratio(result: ByGroup, positive: Hashable = 1, *, relative_to: Hashable = "between", undefined: UndefinedPolicy = "exclude") -> float:
    """The smallest ratio of the groups' true positive rates."""
    return _fair(result, "ratio", ["recall"], positive, relative_to, undefined)


def equalized_odds_difference(result: ByGroup, positive: Hashable = 1, *, relative_to: Hashable = "between", undefined: UndefinedPolicy = "exclude",
                              agg: str = "worst_case") -> float:  # fmt: skip
    """The larger (``agg="worst_case"``) or the mean of the differences of the groups' true
    positive rates and false positive rates."""
    return _fair(result, "difference", ["recall", "false_positive_rate"], positive, relative_to, undefined, agg)


def equalized_odds_ratio(result: ByGroup, positive: Hashable = 1, *, relative_to: Hashable = "between", undefined: UndefinedPolicy = "exclude",
                         agg: str = "worst_case") -> float:  # fmt: skip
    """The smaller (``agg="worst_case"``) or the mean of the ratios of the groups' true
    positive rates and false positive rates."""
    return _fair(result, "ratio", ["recall", "false_positive_rate"], positive, relative_to, undefined, agg)
