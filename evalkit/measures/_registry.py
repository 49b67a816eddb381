"""Measures: what a measure is, the registry of named measures, and the one resolver.

A measure is one thing whichever way it is defined, and each way gives a ``Measure`` with a
name, the spellings users type (``aliases``), a direction (higher or lower is better, or
none), bounds, a description and a definition:

* a vectorised function of the four counts, registered with ``register`` (evalkit's own
  formulas in ``evalkit.formulas`` are registered so);
* a no-argument ``get_*`` getter of a ``ClassificationMetrics`` subclass, described by the
  ``measure`` decorator (``@evalkit.measure(direction="lower")``); its metrics class turns it
  into a ``Measure`` that calls the getter;
* a ``Measure``, or a plain function of ``tp, fp, fn, tn``, given where a measure is asked for.

``resolve_measure(name, metrics_class)`` is the one way from a name to a measure: a metrics
class answers for its getters, overrides and the registered measures; without one, the
registry answers. Every face (averages, reports, intervals, curves, comparisons, the command
line) asks it.

Examples:
    >>> from evalkit.measures._registry import get_measure
    >>> recall = get_measure("sensitivity")
    >>> recall.name, recall.direction, recall.bounds
    ('recall', 'higher', (0.0, 1.0))
"""

from __future__ import annotations

import difflib
import functools
import inspect
import math
import re
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

import attrs
import numpy as np

from evalkit._engine._types import Count
from evalkit._engine._validation import show
from evalkit.exceptions import InputShapeError, InvalidArgumentError, InvalidTypeError, UnknownMetricError
from evalkit.measures._metrics_class import MetricsClass

__all__ = [
    "COUNT_NAMES",
    "DIRECTIONS",
    "MEANINGS",
    "MEASURES",
    "Measure",
    "canonical_name",
    "check_measure_parameters",
    "get_measure",
    "measure",
    "measure_names",
    "register",
    "registry_version",
    "resolve_measure",
    "spelling",
    "unknown_name_message",
    "unregister",
]

MeasureLike: TypeAlias = "str | Measure | Callable[..., Any]"
"""A measure as a call takes it: a name (any spelling), a ``Measure``, or a function of ``tp, fp,
fn, tn`` (or a getter of a metrics class)."""

DIRECTIONS = ("higher", "lower", None)
"""What ``Measure.direction`` may say: higher is better, lower is better, or neither (prevalence)."""


def _check_direction(_: object, __: object, value: object) -> None:
    if not (value is None or (isinstance(value, str) and value in DIRECTIONS)):
        raise InvalidArgumentError(f"'direction' must be 'higher', 'lower' or None, got {show(value)}")


def _check_bounds(_: object, __: object, value: object) -> None:
    numbers = isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
    if not numbers or not isinstance(value, tuple) or math.isnan(value[0]) or math.isnan(value[1]) or value[0] > value[1]:
        raise InvalidArgumentError(f"'bounds' must be (low, high) with low <= high (math.inf for no bound), got {show(value)}")


def _check_aliases(_: object, __: object, value: object) -> None:
    if not (isinstance(value, tuple) and all(isinstance(alias, str) and alias for alias in value)):
        raise InvalidArgumentError(f"'aliases' must be a tuple of names, got {show(value)}")


def _as_tuple(value: object) -> object:
    return tuple(value) if isinstance(value, list) else value


COUNT_NAMES = ("tp", "fp", "fn", "tn")
"""The order of the coefficient vectors of decomposable measures: ``v = (tp, fp, fn, tn)``."""

Coefficients = tuple[tuple[float, float, float, float], tuple[float, float, float, float]]


@attrs.frozen(cache_hash=True)
class Measure:
    """A binary measure with the metadata the averages and theorems use.

    Attributes:
        name: the registry name, also the getter name without ``get_`` (``"f1_score"``).
        function: the vectorised function ``f(*, tp, fp, fn, tn, **parameters)``.
        title: a human title (``"F1 score"``).
        abbreviation: the usual short name (``"F1"``), or ``""``.
        description: one sentence saying what the value answers.
        direction: ``"higher"`` or ``"lower"`` is better, or ``None`` (prevalence).
        bounds: the smallest and largest value the measure can take.
        coefficients: for aggregation-decomposable measures, a function of the parameters
            returning ``(a, b)`` so that ``M = <a, v> / <b, v>``; ``None`` otherwise.
        skew_invariant: the measure is a function of recall and specificity only.
        depends_on_tn_at_zero_tp: with ``tp = 0`` the value still changes with ``tn``
            (such measures keep a non-trivial floor for an always-wrong one-hot classifier).
        aliases: other names accepted by ``get_measure`` (``"sensitivity"``, ``"tpr"``).
        parameters: names of the extra keyword parameters (``("beta",)`` for F-beta).
        getter: for a measure defined by a getter, ``"Class.get_name"``; else ``None``.
        scalar: the measure of four Python numbers, ``scalar(tp, fp, fn, tn)`` (a float;
            exact integer arithmetic for evalkit's own formulas).
    """

    name: str
    function: Callable[..., Any] = attrs.field(repr=False)
    title: str = ""
    abbreviation: str = ""
    description: str = ""
    direction: str | None = attrs.field(default="higher", validator=_check_direction)
    bounds: tuple[float, float] = attrs.field(default=(0.0, 1.0), converter=_as_tuple, validator=_check_bounds)
    coefficients: Callable[..., Coefficients] | None = attrs.field(default=None, repr=False)
    skew_invariant: bool = False
    depends_on_tn_at_zero_tp: bool = False
    aliases: tuple[str, ...] = attrs.field(default=(), converter=_as_tuple, validator=_check_aliases)
    parameters: tuple[str, ...] = ()
    getter: str | None = attrs.field(default=None, repr=False)
    scalar: Callable[..., float] = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        fast = getattr(self.function, "scalar", None)  # evalkit's formulas have a path for Python numbers
        object.__setattr__(self, "scalar", fast if fast is not None else self._scalar)

    def _scalar(self, tp: Count, fp: Count, fn: Count, tn: Count, **parameters: Any) -> float:
        return float(self(tp=tp, fp=fp, fn=fn, tn=tn, **parameters))

    def __call__(self, *, tp: Count, fp: Count, fn: Count, tn: Count, **parameters: Any) -> Count:
        """Evaluate the measure on counts given by keyword: one number per entry of the counts.

        Raises:
            InvalidTypeError: the function returned something that is not numbers.
            InputShapeError: it returned another shape than the counts'.
        """
        values = self.function(tp=tp, fp=fp, fn=fn, tn=tn, **parameters)
        shape = np.shape(tp)
        if type(values) is np.ndarray and values.dtype.kind == "f" and values.shape == shape:
            return values  # the usual result: nothing more to check
        if type(values) is float and shape == ():
            return values
        return self._checked(values, np.broadcast_shapes(shape, np.shape(fp), np.shape(fn), np.shape(tn)))

    def _checked(self, values: object, shape: tuple[int, ...]) -> Count:
        result = np.asarray(values)
        if result.dtype.kind not in "biuf":
            raise InvalidTypeError(f"measure {self.name!r} must return numbers, got {show(values)}")
        if result.shape != shape:
            raise InputShapeError(f"measure {self.name!r} must return one value per entry (shape {shape}), got shape {result.shape}: {show(values)}")
        return float(result) if result.ndim == 0 else result.astype(np.float64, copy=False)

    @property
    def decomposable(self) -> bool:
        """Whether ``M = <a, v> / <b, v>`` with fixed coefficient vectors (micro = weighted macro)."""
        return self.coefficients is not None

    def decomposition(self, **parameters: Any) -> Coefficients:
        """Return the coefficient vectors ``(a, b)`` over ``(tp, fp, fn, tn)``.

        Raises:
            InvalidArgumentError: the measure is not aggregation-decomposable.
        """
        if self.coefficients is None:
            raise InvalidArgumentError(f"measure {self.name!r} is not aggregation-decomposable")
        return self.coefficients(**parameters)

    @classmethod
    def from_function(cls, function: Callable[..., Any], **metadata: Any) -> Measure:
        """Wrap a vectorised function of ``tp, fp, fn, tn`` (keyword) as a measure."""
        if not callable(function):
            raise InvalidTypeError(f"a measure must be a name or a callable, got {show(function)}")
        signature = inspect.signature(function)
        missing = [name for name in COUNT_NAMES if name not in signature.parameters]
        accepts_any = any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values())
        if missing and not accepts_any:
            raise InvalidTypeError(
                f"a measure function must accept the keyword counts tp, fp, fn, tn; "
                f"{getattr(function, '__name__', function)!r} lacks {', '.join(missing)}"
            )
        parameters = tuple(
            name
            for name, p in signature.parameters.items()
            if name not in COUNT_NAMES and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)
        )
        metadata.setdefault("name", getattr(function, "__name__", "measure"))
        metadata.setdefault("title", metadata["name"].replace("_", " ").capitalize())
        metadata.setdefault("description", _first_line(function.__doc__))
        return cls(function=function, parameters=parameters, **metadata)


MEASURES: dict[str, Measure] = {}
"""The registry: measure name -> ``Measure``, in definition order."""

_ALIASES: dict[str, str] = {}
_VERSION = [0]  # bumped by every change of the registry: metrics classes rebuild their tables


def registry_version() -> int:
    """A number that changes whenever a measure is registered or removed."""
    return _VERSION[0]


def register(
    function: Callable[..., Any] | None = None,
    /,
    *,
    name: str | None = None,
    replace: bool = False,
    **metadata: Any,
) -> Callable[..., Any]:
    """Register a vectorised measure so that every average and report knows it.

    Use as a decorator; the function is returned unchanged. ``metadata`` fills the fields of
    ``Measure`` (``title``, ``direction``, ``bounds``, ``coefficients``, ...).

    Args:
        function: ``f(*, tp, fp, fn, tn, **parameters)`` working on numpy arrays.
        name: registry name; defaults to the function's name.
        replace: allow replacing an existing measure of that name.

    Raises:
        InvalidArgumentError: the name (or an alias) is taken and ``replace`` is false.

    Examples:
        >>> from evalkit import formulas
        >>> @formulas.register(name="youden_index", bounds=(-1.0, 1.0), replace=True)
        ... def youden(*, tp, fp, fn, tn):
        ...     '''Youden's J: recall + specificity - 1.'''
        ...     return formulas.informedness(tp=tp, fp=fp, fn=fn, tn=tn)
        >>> formulas.get_measure("youden_index")(tp=35, fp=10, fn=5, tn=50)
        0.7083333333333334
        >>> formulas.unregister("youden_index")
    """

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        measure = Measure.from_function(func, name=name or func.__name__, **metadata)
        for key in (measure.name, *measure.aliases):
            owner = MEASURES.get(key) or MEASURES.get(_ALIASES.get(key, ""))
            if owner is not None and not replace:
                raise InvalidArgumentError(f"a measure named {key!r} is already registered ({owner.title})")
        MEASURES[measure.name] = measure
        _ALIASES.update({alias: measure.name for alias in measure.aliases})
        _VERSION[0] += 1
        return func

    return decorate if function is None else decorate(function)


def unregister(name: str) -> None:
    """Remove a measure (and its aliases) from the registry.

    Raises:
        UnknownMetricError: no measure has that name.
    """
    measure = get_measure(name)
    del MEASURES[measure.name]
    for alias in measure.aliases:
        _ALIASES.pop(alias, None)
    _VERSION[0] += 1


def measure_names() -> tuple[str, ...]:
    """The names of all registered measures, in registration order."""
    return tuple(MEASURES)


def get_measure(measure: str | Measure | Callable[..., Any]) -> Measure:
    """Resolve a measure given by name, alias, ``Measure`` or vectorised function.

    Raises:
        UnknownMetricError: an unknown name; the message lists the known ones.

    Examples:
        >>> get_measure("sensitivity").name
        'recall'
    """
    if isinstance(measure, Measure):
        return measure
    if isinstance(measure, str):
        key = canonical_name(measure)
        if key in MEASURES:
            return MEASURES[key]
        raise UnknownMetricError(unknown_name_message("measure", measure, list(MEASURES)))
    return Measure.from_function(measure)


_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def spelling(name: str) -> str:
    """A name as registry keys are spelled: snake case (``"F1Score"``, ``"f1-score"`` and
    ``"F1 score"`` all become ``"f1_score"``); a final ``+`` or ``-`` is ``_plus`` or
    ``_minus`` (``"LR+"``).

    Examples:
        >>> spelling("F1Score"), spelling("f1-score"), spelling("FalsePositiveRate"), spelling("F1"), spelling("LR-")
        ('f1_score', 'f1_score', 'false_positive_rate', 'f1', 'lr_minus')
    """
    if not isinstance(name, str):
        raise InvalidTypeError(f"a measure name must be a string, got {show(name)}")
    return _spelled(name)


@functools.lru_cache(maxsize=4096)
def _spelled(name: str) -> str:
    """``spelling`` of a string, kept: every read of a measure by name spells its name."""
    name = name.strip()
    if name[-1:] in ("+", "-") and len(name) > 1:
        name = name[:-1] + ("_plus" if name[-1] == "+" else "_minus")
    return re.sub(r"[\s\-]+", "_", _CAMEL_BOUNDARY.sub("_", name)).lower()


MEANINGS = {
    "tp": "the count true_positive (a report column; ClassificationMetrics.get_true_positive())",
    "fp": "the count false_positive (a report column; ClassificationMetrics.get_false_positive())",
    "fn": "the count false_negative (a report column; ClassificationMetrics.get_false_negative())",
    "tn": "the count true_negative (a report column; ClassificationMetrics.get_true_negative())",
    "support": "the count support (a report column; ClassificationMetrics.get_support())",
    "auc": "roc_auc, an area of scores (ThresholdCurve.roc_auc; a report column given curve=)",
    "roc_auc": "an area of scores (ThresholdCurve.roc_auc; a report column given curve=)",
    "auroc": "roc_auc, an area of scores (ThresholdCurve.roc_auc; a report column given curve=)",
    "ap": "average_precision, an area of scores (ThresholdCurve.average_precision; a report column given curve=)",
    "average_precision": "an area of scores (ThresholdCurve.average_precision; a report column given curve=)",
    "pr_auc": "average_precision, an area of scores (ThresholdCurve.average_precision)",
    "sensitivity_at_specificity": "a constrained operating point (ThresholdCurve.best_threshold and evaluate)",
    "balanced_error_rate": "1 - balanced_accuracy (CellsResult.get_balanced_accuracy, or average('balanced_accuracy'))",
    "ber": "balanced_error_rate: 1 - balanced_accuracy",
    "hamming": "hamming_loss, the micro error_rate",
    "top_k_accuracy": "evalkit.metrics.top_k_accuracy_score (scores, not cells)",
    "log_loss": "evalkit.metrics.log_loss (probabilities, not cells)",
    "brier": "evalkit.metrics.brier_score_loss (probabilities, not cells)",
}
"""Names users type for things that are not measures of the four cells, and what they mean
(the suggestion of an unknown name by meaning, before the one by spelling)."""


def unknown_name_message(kind: str, name: str, known: list[str]) -> str:
    """``unknown <kind> 'x' (did you mean 'y'?); known <kind>s: ...``: the suggestion is by
    meaning when the name means something evalkit has elsewhere (``tp`` is the count
    ``true_positive``), else the closest known name by spelling, if any.

    Examples:
        >>> print(unknown_name_message("measure", "TP", ["precision"]).split("; known")[0])
        unknown measure 'TP' (did you mean the count true_positive (a report column; ClassificationMetrics.get_true_positive())?)
    """
    known = list(dict.fromkeys(known))
    key = spelling(name) if isinstance(name, str) else str(name)
    if key in MEANINGS:
        hint = f" (did you mean {MEANINGS[key]}?)"
    else:
        close = difflib.get_close_matches(key, [*known, *_ALIASES], n=1, cutoff=0.6)
        hint = f" (did you mean {canonical_name(close[0])!r}?)" if close else ""
    return f"unknown {kind} {name!r}{hint}; known {kind}s: {', '.join(known)}"




def _first_line(text: str | None) -> str:
    return (text or "").strip().split("\n", 1)[0]




def check_measure_parameters(measure: Measure, parameters: dict[str, Any]) -> None:
    """Raise if ``parameters`` holds a keyword the measure does not take."""
    unknown = sorted(set(parameters) - set(measure.parameters))
    if unknown:
        takes = ", ".join(measure.parameters) or "no parameters"
        raise InvalidArgumentError(f"measure {measure.name!r} takes {takes}; got {', '.join(unknown)}")



def canonical_name(name: str) -> str:
    """The registry name for a measure name or alias in any spelling (``"F1"``, ``"f1-score"``,
    ``"F1Score"``, ``"tpr"``); unknown names come back in snake case.

    Examples:
        >>> canonical_name("tpr"), canonical_name("F1Score"), canonical_name("no_such_measure")
        ('recall', 'f1_score', 'no_such_measure')
    """
    key = spelling(name)
    return _ALIASES.get(key, key)


# --------------------------------------------------------------------------------------------
# getters: the decorator, and the one resolver


class _Unset:
    """The default of ``measure``'s arguments: not given (``None`` is a direction)."""


_UNSET = _Unset()
GETTER_METADATA = "__evalkit_measure__"
"""The attribute where ``measure`` keeps a getter's metadata."""


def measure(
    getter: Callable[..., Any] | None = None,
    /,
    *,
    direction: str | None | _Unset = _UNSET,
    bounds: tuple[float, float] | _Unset = _UNSET,
    aliases: Sequence[str] | _Unset = _UNSET,
    title: str | _Unset = _UNSET,
    abbreviation: str | _Unset = _UNSET,
    description: str | _Unset = _UNSET,
) -> Callable[..., Any]:
    """Describe the measure a ``get_*`` getter of a ``ClassificationMetrics`` subclass defines.

    The getter's name without ``get_`` is the measure's name; the decorator adds what a name
    alone cannot say: which direction is better (used wherever "best" is chosen: best
    thresholds, sorted reports, comparisons), the bounds, other spellings, a title and a
    description (the first line of the docstring by default). A getter without it counts as
    ``direction="higher"``; one that overrides a built-in getter keeps the built-in's
    description unless it has its own.

    Args:
        getter: the method (the decorator may be used bare, ``@measure``).
        direction: ``"higher"`` (default) or ``"lower"`` is better, or ``None``.
        bounds: the smallest and largest value (default: unknown, ``(-math.inf, math.inf)``).
        aliases: other names users may type (``("nns",)``).
        title: the title shown by ``str()`` (default: the name in words).
        abbreviation: a short name (``"NNS"``).
        description: one sentence (default: the docstring's first line).

    Raises:
        InvalidTypeError: the decorated function is not a ``get_*`` method.
        InvalidArgumentError: a bad direction, bounds or aliases.

    Examples:
        >>> import math
        >>> from evalkit import ClassificationMetrics
        >>> class Screening(ClassificationMetrics):
        ...     @measure(direction="lower", bounds=(1, math.inf), aliases=("nns",))
        ...     def get_number_needed_to_screen(self):
        ...         '''Samples screened per true positive found: total / tp.'''
        ...         return self.get_total() / self.get_true_positive()
        >>> Screening.measure("nns").direction
        'lower'
    """
    named = {"direction": direction, "bounds": bounds, "aliases": aliases, "title": title, "abbreviation": abbreviation, "description": description}
    given: dict[str, Any] = {key: _as_tuple(value) for key, value in named.items() if value is not _UNSET}
    _check_direction(None, None, given.get("direction"))
    _check_bounds(None, None, given.get("bounds", (0, 0)))
    _check_aliases(None, None, given.get("aliases", ()))
    for key in ("title", "abbreviation", "description"):
        if key in given and not isinstance(given[key], str):
            raise InvalidArgumentError(f"{key!r} must be a string, got {show(given[key])}")
    if "aliases" in given:
        given["aliases"] = tuple(spelling(alias) for alias in given["aliases"])

    def decorate(function: Callable[..., Any]) -> Callable[..., Any]:
        if not (inspect.isfunction(function) and function.__name__.startswith("get_")):
            raise InvalidTypeError(
                f"@evalkit.measure describes a get_* method of a ClassificationMetrics subclass, got {show(function)}; "
                "a function of tp, fp, fn, tn is registered with evalkit.formulas.register"
            )
        setattr(function, GETTER_METADATA, dict(given))
        return function

    return decorate if getter is None else decorate(getter)


def getter_metadata(function: object) -> dict[str, Any] | None:
    """What ``measure`` declared for a getter, or ``None``."""
    return getattr(function, GETTER_METADATA, None)


def resolve_measure(measure: MeasureLike, metrics_class: MetricsClass | None = None) -> Measure:
    """The measure that ``measure`` stands for: a ``Measure`` or a function as given; a name
    (any spelling or alias) as ``metrics_class`` knows it (its getters, overrides and the
    registered measures), or as the registry knows it when no class is given.

    Raises:
        UnknownMetricError: an unknown name; the message says where it was looked for and
            how to add a measure.
        InvalidTypeError: ``metrics_class`` is not a metrics class.

    Examples:
        >>> resolve_measure("TPR").name
        'recall'
    """
    if not isinstance(measure, str):
        return get_measure(measure)
    if metrics_class is not None and not isinstance(metrics_class, type):
        raise InvalidTypeError(f"'metrics_class' must be ClassificationMetrics or a subclass of it, got {show(metrics_class)}")
    if _RESOLVED_AT[0] != _VERSION[0]:  # a measure registered or removed: names may mean other measures now
        _RESOLVED.clear()
        _RESOLVED_AT[0] = _VERSION[0]
    key = (measure, metrics_class)
    found = _RESOLVED.get(key)
    if found is None:
        if metrics_class is None:
            found = get_measure(measure)
        else:
            finder = getattr(metrics_class, "measure", None)
            if not callable(finder):
                raise InvalidTypeError(f"'metrics_class' must be ClassificationMetrics or a subclass of it, got {show(metrics_class)}")
            found = finder(measure)
        _RESOLVED[key] = found
    return found


_RESOLVED: dict[tuple[str, Any], Measure] = {}
"""The names resolved so far, as given, with their metrics class -> their measure: every face asks
for a name at every call (a stream at every read), and the registry's version clears it."""
_RESOLVED_AT = [-1]
