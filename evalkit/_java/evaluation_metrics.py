"""EvaluationMetrics: the string-keyed base class of visrec's ``javax.visrec.ml.eval``."""

from __future__ import annotations

import difflib
import numbers
from typing import Any

from evalkit._engine._validation import format_number, show
from evalkit._engine.serialization import json_safe
from evalkit.exceptions import EvalkitError, InvalidTypeError, UnknownAttributeError, UnknownMetricError
from evalkit.measures import _formulas as formulas

__all__ = ["EvaluationMetrics", "metric_key"]

def metric_key(name: str) -> str:
    """The snake-case registry name for a metric name in any accepted spelling.

    Java/visrec keys (``"F1Score"``, ``"FalsePositiveRate"``), getter names without ``get_``
    (``"f1_score"``) and measure aliases (``"sensitivity"``) all map to one key.

    Examples:
        >>> metric_key("F1Score"), metric_key("FalsePositiveRate"), metric_key("sensitivity")
        ('f1_score', 'false_positive_rate', 'recall')
    """
    if not isinstance(name, str):
        raise InvalidTypeError(f"a metric name must be a string, got {show(name)}")
    return formulas.canonical_name(name)


class EvaluationMetrics:
    """A named set of metric values, with the visrec key constants.

    The base class is a plain string-keyed map of floats (``get`` / ``set``), as in visrec.
    Subclasses such as ``ClassificationMetrics`` answer ``get`` from their
    getters, so ``metrics.get(EvaluationMetrics.ACCURACY)`` returns the accuracy.

    Examples:
        >>> metrics = EvaluationMetrics()
        >>> metrics.set(EvaluationMetrics.MEAN_SQUARED_ERROR, 0.25)
        >>> metrics.get("MeanSquaredError")
        0.25
    """

    ACCURACY = "Accuracy"
    PRECISION = "Precision"
    RECALL = "Recall"
    F1SCORE = "F1Score"
    MEAN_ABSOLUTE_ERROR = "MeanAbsoluteError"
    MEAN_SQUARED_ERROR = "MeanSquaredError"
    ROOT_MEAN_SQUARED_ERROR = "RootMeanSquaredError"
    RESIDUAL_SQUARE_SUM = "ResidualSquareSum"
    RESIDUAL_STANDARD_ERROR = "ResidualStandardError"
    R_SQUARED = "RSquared"
    F_STAT = "FStatistics"

    def __init__(self) -> None:
        self._values: dict[str, float] = {}

    def get(self, name: str) -> float:
        """The value stored under ``name``.

        Raises:
            UnknownMetricError: (a ``KeyError``) no such name; the message lists the known names.
        """
        if name in self._values:
            return self._values[name]
        raise UnknownMetricError(f"unknown metric {name!r}; known metrics: {', '.join(self.names()) or 'none'}")

    def set(self, name: str, value: float) -> None:
        """Store ``value`` (a real number, NaN allowed) under ``name``."""
        if not isinstance(name, str):
            raise InvalidTypeError(f"a metric name must be a string, got {show(name)}")
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise InvalidTypeError(f"the value of {name!r} must be a number, got {show(value)}")
        self._values[name] = float(value)

    def names(self) -> list[str]:
        """The names ``get`` answers."""
        return list(self._values)

    def to_dict(self, *, strict: bool = False) -> dict[str, Any]:
        """The values as a plain dict; ``strict=True``: plain data strict JSON takes (NaN as ``None``, infinities as ``"Infinity"``; see ``serialization.json_safe``)."""
        return json_safe(self._values) if strict else dict(self._values)

    def __str__(self) -> str:
        return "\n".join(f"{name}: {format_number(value)}" for name, value in self.to_dict().items())

    def _unknown_attribute(self, attribute: str) -> UnknownAttributeError:
        """The error of an attribute this object lacks (what a subclass's ``__getattr__`` raises at
        last), suggesting the getter of the measure a name or alias means in this class (``get_mcc``
        or ``mcc``: ``get_matthews_correlation_coefficient``), else the closest public attribute by
        spelling."""
        if attribute.startswith("_"):  # private and special names are Python's own lookups: no suggestion
            return UnknownAttributeError(f"{type(self).__name__!r} object has no attribute {attribute!r}", name=attribute)
        meant = None
        finder = getattr(type(self), "measure", None)  # the class's resolver of measure names and aliases
        try:
            meant = None if finder is None else f"get_{finder(attribute.removeprefix('get_')).name}"
        except EvalkitError:  # no measure of that name
            pass
        if meant is None:
            close = difflib.get_close_matches(attribute, [name for name in dir(type(self)) if not name.startswith("_")], n=1, cutoff=0.6)
            meant = close[0] if close else None
        hint = f" (did you mean {meant!r}?)" if meant and meant != attribute else ""
        return UnknownAttributeError(f"{type(self).__name__!r} object has no attribute {attribute!r}{hint}", name=attribute)
