"""fairlearn's group measures, in the scikit-learn face: demographic parity, equal opportunity
and equalized odds, as differences and ratios.

Private: ``evalkit.metrics`` is the public path of every function here.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine._types import GroupsLike, LabelsLike
from evalkit._engine._validation import check_choice, show
from evalkit.exceptions import InvalidArgumentError

__all__ = [
    "demographic_parity_difference", "demographic_parity_ratio", "equal_opportunity_difference",
    "equal_opportunity_ratio", "equalized_odds_difference", "equalized_odds_ratio",
]

_FAIRLEARN_METHODS = {"between_groups": "between", "to_overall": "overall"}


def _fairlearn(function: Any, y_true: LabelsLike, y_pred: LabelsLike, sensitive_features: GroupsLike, method: str, sample_weight: ArrayLike | None, positive: Hashable,
               **options: Any) -> float:  # fmt: skip
    check_choice("method", method, tuple(_FAIRLEARN_METHODS))
    from evalkit._groups import ByGroup, fairness  # counting by group: imported when a fairness measure is asked for

    result = ByGroup.from_labels(y_true, y_pred, sensitive_features, sample_weight=sample_weight)
    chosen = _fairlearn_positive(result.overall.labels) if positive is None else positive
    if chosen not in result.overall.labels:
        return 0.0 if "difference" in function.__name__ else math.nan  # nothing is ever predicted as fairlearn's positive 1
    # fairlearn's rates of a group without positives (or negatives) are 0; its selection rate of a group of no weight is left out
    undefined = "exclude" if function.__name__.startswith("demographic") else "zero"
    return float(getattr(fairness, function.__name__)(result, chosen, relative_to=_FAIRLEARN_METHODS[method], undefined=undefined, **options))


def _fairlearn_positive(labels: tuple) -> Any:
    """fairlearn's positive class of its rates: 1 for labels among 0/1 or -1/1 (even when 1 never
    occurs); of two other labels, the larger."""
    if all(isinstance(label, (int, np.integer)) and not isinstance(label, (bool, np.bool_)) for label in labels) and (
            set(labels) <= {0, 1} or set(labels) <= {-1, 1}):  # fmt: skip
        return 1
    if len(labels) == 2:
        return labels[-1]
    raise InvalidArgumentError(f"the labels {show(list(labels))} are not 0/1 or -1/1: fairlearn's rates need a positive class among two labels")


def demographic_parity_difference(y_true: LabelsLike, y_pred: LabelsLike, *, sensitive_features: GroupsLike, method: str = "between_groups",
                                  sample_weight: ArrayLike | None = None) -> float:  # fmt: skip
    """fairlearn's ``demographic_parity_difference``: the largest difference of the groups'
    selection rates (the share predicted 1), between groups or to the overall rate.

    Examples:
        >>> demographic_parity_difference([0, 1, 1, 0], [1, 1, 0, 0], sensitive_features=["a", "a", "b", "b"])
        1.0
    """
    return _fairlearn(demographic_parity_difference, y_true, y_pred, sensitive_features, method, sample_weight, 1)


def demographic_parity_ratio(y_true: LabelsLike, y_pred: LabelsLike, *, sensitive_features: GroupsLike, method: str = "between_groups",
                             sample_weight: ArrayLike | None = None) -> float:  # fmt: skip
    """fairlearn's ``demographic_parity_ratio``: the smallest ratio of the groups' selection rates."""
    return _fairlearn(demographic_parity_ratio, y_true, y_pred, sensitive_features, method, sample_weight, 1)


def equal_opportunity_difference(y_true: LabelsLike, y_pred: LabelsLike, *, sensitive_features: GroupsLike, method: str = "between_groups",
                                 sample_weight: ArrayLike | None = None) -> float:  # fmt: skip
    """fairlearn's ``equal_opportunity_difference``: the largest difference of the groups'
    true positive rates (1 is positive for 0/1 and -1/1 labels, as in fairlearn, else the larger
    of two labels; an undefined rate counts 0)."""
    return _fairlearn(equal_opportunity_difference, y_true, y_pred, sensitive_features, method, sample_weight, None)


def equal_opportunity_ratio(y_true: LabelsLike, y_pred: LabelsLike, *, sensitive_features: GroupsLike, method: str = "between_groups",
                            sample_weight: ArrayLike | None = None) -> float:  # fmt: skip
    """fairlearn's ``equal_opportunity_ratio``: the smallest ratio of the groups' true positive rates."""
    return _fairlearn(equal_opportunity_ratio, y_true, y_pred, sensitive_features, method, sample_weight, None)


def equalized_odds_difference(y_true: LabelsLike, y_pred: LabelsLike, *, sensitive_features: GroupsLike, method: str = "between_groups", sample_weight: ArrayLike | None = None,
                              agg: str = "worst_case") -> float:  # fmt: skip
    """fairlearn's ``equalized_odds_difference``: the larger (or, ``agg="mean"``, the mean) of
    the true positive rate difference and the false positive rate difference.

    Examples:
        >>> equalized_odds_difference([0, 1, 1, 0, 1, 0], [0, 1, 0, 1, 1, 0], sensitive_features=list("aaabbb"))
        0.5
    """
    return _fairlearn(equalized_odds_difference, y_true, y_pred, sensitive_features, method, sample_weight, None, agg=agg)


def equalized_odds_ratio(y_true: LabelsLike, y_pred: LabelsLike, *, sensitive_features: GroupsLike, method: str = "between_groups", sample_weight: ArrayLike | None = None,
                         agg: str = "worst_case") -> float:  # fmt: skip
    """fairlearn's ``equalized_odds_ratio``: the smaller (or the mean) of the true positive
    rate ratio and the false positive rate ratio."""
    return _fairlearn(equalized_odds_ratio, y_true, y_pred, sensitive_features, method, sample_weight, None, agg=agg)
