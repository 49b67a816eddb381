"""Operating points: the threshold that is best for one measure under constraints on others.

Applications deploy one threshold, and the question is constrained: the highest precision at
recall >= 0.9, the sensitivity at specificity >= 0.95, the lowest cost with a false positive
rate <= 1%. ``ThresholdCurve.optimize`` answers it exactly, over every distinct score of the
curve and the threshold above every score (nothing predicted positive, as in scikit-learn's
``roc_curve``): the measure is maximised (or minimised, for a loss) over the thresholds where
every constraint holds.

Decided once:

* A constraint whose measure is undefined at a threshold (NaN: precision where nothing is
  predicted positive) does not hold there.
* When no threshold meets the constraints the result says so, ``feasible=False``, with NaN
  threshold and value: never a sentinel threshold.
* Among equally good thresholds the highest is chosen (the fewest positive predictions),
  as ``best_threshold`` does.
* Constraints compare the values as computed (no tolerance): recall 9/10 is 0.9.

Constraints are written ``{"recall": (">=", 0.9)}``, ``"recall >= 0.9"``, or a list of such
strings or ``(name, operator, bound)`` triples; the operators are ``>=``, ``<=``, ``>`` and
``<``, and a name is any measure of the curve (a registered formula or a getter of its
metrics class).

Examples:
    >>> from evalkit import ThresholdCurve
    >>> curve = ThresholdCurve.from_scores([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.7, 0.9])
    >>> point = curve.optimize("precision", subject_to="recall >= 0.6")
    >>> point.feasible, point.threshold, point.value, point.achieved
    (True, 0.8, 1.0, {'recall': 0.6666666666666666})
    >>> curve.optimize("precision", subject_to="recall >= 0.99").threshold
    0.35
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Hashable, Mapping
from typing import Any

import attrs
import numpy as np

from evalkit._engine._validation import show
from evalkit._engine.cells import Cells
from evalkit.exceptions import InvalidArgumentError, InvalidTypeError
from evalkit.measures._registry import Measure

__all__ = ["OPERATORS", "Constraint", "OperatingInterval", "OperatingPoint", "best_index", "parse_constraints"]

OPERATORS: dict[str, Callable[[Any, Any], Any]] = {">=": np.greater_equal, "<=": np.less_equal, ">": np.greater, "<": np.less}
"""The comparisons a constraint may make."""

_TEXT = re.compile(r"^\s*([A-Za-z_][\w\- +]*?)\s*(>=|<=|>|<)\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*$")


@attrs.frozen
class Constraint:
    """One constraint: ``measure operator bound``."""

    measure: Measure
    operator: str
    bound: float

    def holds(self, values: np.ndarray) -> np.ndarray:
        """Where the measure's ``values`` meet the constraint (never where they are NaN)."""
        with np.errstate(invalid="ignore"):
            return np.asarray(OPERATORS[self.operator](values, self.bound)) & ~np.isnan(values)

    def __str__(self) -> str:
        return f"{self.measure.name} {self.operator} {self.bound:g}"


def _constraint(name: Any, operator: Any, bound: Any, resolve: Callable[[Any], Measure]) -> Constraint:
    if operator not in OPERATORS:
        raise InvalidArgumentError(f"a constraint's operator must be one of {', '.join(OPERATORS)}, got {show(operator)}")
    if isinstance(bound, bool) or not isinstance(bound, (int, float, np.integer, np.floating)) or math.isnan(bound):
        raise InvalidArgumentError(f"the bound of the constraint on {name!r} must be a number, got {show(bound)}")
    return Constraint(resolve(name), operator, float(bound))


def parse_constraints(subject_to: Any, resolve: Callable[[Any], Measure]) -> tuple[Constraint, ...]:
    """Constraints from ``{"recall": (">=", 0.9)}``, ``"recall >= 0.9"`` (several joined by
    ``and``), or a list of strings and ``(name, operator, bound)`` triples; ``resolve`` turns a
    name into a measure.

    Raises:
        InvalidArgumentError: a constraint that is not one of those forms, an unknown operator
            or a bound that is not a number.

    Examples:
        >>> from evalkit.measures._registry import get_measure
        >>> [str(c) for c in parse_constraints("recall >= 0.9 and fpr <= 0.01", get_measure)]
        ['recall >= 0.9', 'false_positive_rate <= 0.01']
    """
    if subject_to is None:
        return ()
    if isinstance(subject_to, Mapping):
        found = []
        for name, rule in subject_to.items():
            if not (isinstance(rule, (tuple, list)) and len(rule) == 2):
                raise InvalidArgumentError(f"the constraint on {name!r} must be (operator, bound), e.g. ('>=', 0.9); got {show(rule)}")
            found.append(_constraint(name, rule[0], rule[1], resolve))
        return tuple(found)
    if isinstance(subject_to, str):
        subject_to = [part for part in re.split(r"\s+and\s+", subject_to.strip()) if part]
    if not isinstance(subject_to, (list, tuple)):
        raise InvalidTypeError(f"'subject_to' must be a dict, a string such as 'recall >= 0.9', or a list of them; got {show(subject_to)}")
    found = []
    for item in subject_to:
        if isinstance(item, Constraint):
            found.append(item)
        elif isinstance(item, str):
            match = _TEXT.match(item)
            if match is None:
                raise InvalidArgumentError(f"cannot read the constraint {item!r}: write 'measure >= number' (or <=, >, <)")
            found.append(_constraint(match[1].strip(), match[2], float(match[3]), resolve))
        elif isinstance(item, (tuple, list)) and len(item) == 3:
            found.append(_constraint(item[0], item[1], item[2], resolve))
        else:
            raise InvalidArgumentError(f"a constraint must be a string such as 'recall >= 0.9' or (name, operator, bound); got {show(item)}")
    return tuple(found)


def best_index(values: np.ndarray, feasible: np.ndarray, direction: str | None) -> np.ndarray:
    """Per row of ``values`` (candidates highest threshold first), the position of the best
    feasible defined value (the first, so the highest threshold, among ties), or -1 where none
    is feasible."""
    values = np.atleast_2d(values)
    usable = np.atleast_2d(feasible) & ~np.isnan(values)
    worst = -np.inf if direction == "higher" else np.inf
    masked = np.where(usable, values, worst)
    chosen = np.argmax(masked, axis=1) if direction == "higher" else np.argmin(masked, axis=1)
    return np.where(usable.any(axis=1), chosen, -1)


def _slack(constraint: Constraint, values: np.ndarray) -> np.ndarray:
    """How far each value is on the good side of a constraint's measure (larger is better):
    recall at ``>=`` the more the better, a false positive rate at ``<=`` the less."""
    if constraint.operator in (">=", ">"):
        return values
    if constraint.operator in ("<=", "<"):
        return -values
    return np.zeros(len(values))


def undominated_index(values: np.ndarray, feasible: np.ndarray, direction: str, achieved: list[tuple[Constraint, np.ndarray]]) -> int:
    """The position of the best feasible value (candidates highest threshold first) that no
    tied candidate dominates: among thresholds of equal value, the one farthest on the good
    side of each constraint in turn (the highest recall at a fixed recall bound, as
    torchmetrics' ``max((p, r, t))``), then the highest threshold; -1 if none is feasible."""
    k = int(best_index(values, feasible, direction)[0])
    if k < 0 or not achieved:
        return k
    tied = feasible & (values == values[k])
    for constraint, found in achieved:
        slack = np.where(tied & ~np.isnan(found), _slack(constraint, found), -np.inf)
        tied &= slack == slack.max()
    return int(np.argmax(tied))


def tie_key(value: float, direction: str, achieved: list[tuple[Constraint, float]]) -> tuple[float, ...]:
    """A candidate's rank across blocks of thresholds: its value, then its slack on each constraint."""
    return (value if direction == "higher" else -value, *(float(_slack(constraint, np.array([found]))[0]) for constraint, found in achieved))


@attrs.frozen
class OperatingPoint:
    """The best threshold under constraints (``ThresholdCurve.optimize``).

    Attributes:
        feasible: whether some threshold meets every constraint.
        threshold: the threshold (predict positive at ``score >= threshold``; ``inf``: nothing
            positive), NaN when infeasible.
        value: the measure there, NaN when infeasible.
        measure: the measure's name.
        achieved: the constrained measures' values there (NaN when infeasible).
        constraints: the constraints, as text.
        cells: the cells there: ``tp, fp, fn, tn`` of the class (or of every class, for an
            average); ``None`` when infeasible.
        label: the class, or ``None`` for an average.
        average: the average over classes, or ``None``.
    """

    feasible: bool
    threshold: float
    value: float
    measure: str
    achieved: dict[str, float]
    constraints: tuple[str, ...] = ()
    cells: Cells | None = attrs.field(default=None, eq=False, repr=False)
    label: Hashable | None = None
    average: str | None = None

    def __str__(self) -> str:
        given = f" subject to {' and '.join(self.constraints)}" if self.constraints else ""
        if not self.feasible:
            return f"no threshold meets{given or ' the constraints'}"
        achieved = ", ".join(f"{name} {value:.4g}" for name, value in self.achieved.items())
        return f"{self.measure} {self.value:.4g} at threshold {self.threshold:.4g}{given}{' (' + achieved + ')' if achieved else ''}"


@attrs.frozen
class OperatingInterval:
    """Bootstrap intervals of an operating point (``ThresholdCurve.operating_interval``): of
    the value it achieves and of the threshold itself (how stable the choice is), over the
    resamples where the constraints could be met.

    Attributes:
        point: the operating point of the data.
        value: the percentile interval of the optimised measure.
        threshold: the percentile interval of the chosen threshold.
        n_infeasible: resamples where no threshold met the constraints (left out).
    """

    point: OperatingPoint
    value: Any
    threshold: Any
    n_infeasible: int = 0

    def __str__(self) -> str:
        return f"{self.point}\n  value {self.value}\n  threshold {self.threshold}"
