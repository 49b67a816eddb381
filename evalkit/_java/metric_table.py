"""The measures of a metrics class, found once per class: every getter that needs no argument
and every registered formula, with its title, its description, its direct scalar path and its
vectorised measure, kept on the class itself (a subclass finds its own getters).

A mixin of ``ClassificationMetrics`` (``evalkit._java.classification_metrics``), its public face.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from evalkit._engine._types import Count
from evalkit._engine._validation import show
from evalkit._java.evaluation_metrics import metric_key
from evalkit.exceptions import (
    InvalidTypeError,
    UnknownMetricError,
)
from evalkit.measures._registry import (
    MEASURES,
    Measure,
    getter_metadata,
    registry_version,
    spelling,
    unknown_name_message,
)


class _MetricLine(NamedTuple):
    """One listed metric of a class (a measure that needs no argument): its getter, its title
    and description for ``str``, and, when the value is the registered measure's own (a getter
    kept from the base class, or a registered formula), its scalar path."""

    getter: str
    title: str
    description: str  # " (...)" or ""
    direct: Callable[..., Any] | None


class _Table(NamedTuple):
    """What a metrics class knows, found once per class (and again when the registry changes)."""

    version: int
    measures: dict[str, Measure]  # every measure: getters, overrides, registered formulas
    lines: dict[str, _MetricLine]  # the metrics of to_dict, str and Stats, in order
    aliases: dict[str, str]  # spellings declared with evalkit.measure -> name
    all_direct: tuple[Callable[..., Any], ...] | None  # every line's scalar path, when each has one


def _no_nan(values: list[float]) -> bool:
    """Whether no value is NaN (``str`` spells NaN out as undefined)."""
    try:
        return not math.isnan(math.fsum(values))
    except (OverflowError, ValueError):  # infinities of both signs: look one by one
        return not any(math.isnan(value) for value in values)


def _takes_no_arguments(value: object) -> bool:
    parameters = list(inspect.signature(value).parameters.values())[1:]  # type: ignore[arg-type]  # a function, checked by the caller
    return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in parameters)


def _keyword_parameters(function: Callable[..., Any]) -> tuple[str, ...]:
    """The parameters a getter takes besides ``self`` (passed to it by keyword)."""
    parameters = list(inspect.signature(function).parameters.values())[1:]
    return tuple(p.name for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))


def _title(measure: Measure) -> str:
    return f"{measure.title} ({measure.abbreviation})" if measure.abbreviation else measure.title


def _build_table(cls: type[Any]) -> _Table:
    """Every measure of ``cls``: its getters in the order they were first defined, base class
    first, then the registered formulas that have none."""
    base: Any = next(klass for klass in reversed(cls.__mro__) if "_value" in vars(klass))  # ClassificationMetrics itself
    own_value = cls._value is base._value
    names: dict[str, None] = {}
    for klass in reversed(cls.__mro__):
        for attribute, value in list(vars(klass).items()):  # a copy: another thread may be caching on the class
            if attribute.startswith("get_") and attribute not in cls.NON_METRIC_GETTERS and inspect.isfunction(value):
                names[attribute[4:]] = None
    measures: dict[str, Measure] = {}
    lines: dict[str, _MetricLine] = {}
    aliases: dict[str, str] = {}
    for name in names:
        attribute = f"get_{name}"
        function = getattr(cls, attribute)
        registered = MEASURES.get(name)
        kept = own_value and registered is not None and function is vars(base).get(attribute)
        measure = registered if kept and registered is not None else _getter_measure(cls, name, function, registered)
        measures[name] = measure
        aliases.update(dict.fromkeys(measure.aliases, name) if measure.getter else {})
        if _takes_no_arguments(function) and not (kept and measure.parameters):  # F-beta's default beta is F1, listed already
            lines[name] = _MetricLine(attribute, _title(measure), f" ({measure.description})" if measure.description else "",
                                      measure.scalar if kept else None)  # fmt: skip
    for name, registered in MEASURES.items():
        if name not in measures:
            measures[name] = registered
            if not registered.parameters:
                description = f" ({registered.description})" if registered.description else ""
                lines[name] = _MetricLine(f"get_{name}", _title(registered), description, registered.scalar if own_value else None)
    directs = [line.direct for line in lines.values()]
    all_direct = tuple(direct for direct in directs if direct is not None) if all(directs) else None
    return _Table(registry_version(), measures, lines, aliases, all_direct)


def _getter_measure(cls: type[Any], name: str, function: Callable[..., Any], registered: Measure | None) -> Measure:
    """A getter as a measure: vectorised by calling it once per distinct entry of the counts.

    Its metadata is what ``evalkit.measure`` declared, else the built-in measure's it overrides,
    else the defaults (higher is better, bounds unknown, the docstring's first line)."""
    attribute = f"get_{name}"
    metadata: dict[str, Any] = {"title": name.replace("_", " ").capitalize(), "description": _first_line(function.__doc__),
                                "direction": "higher", "bounds": (-math.inf, math.inf)}  # fmt: skip
    if registered is not None:
        metadata.update(title=registered.title, abbreviation=registered.abbreviation, description=registered.description,
                        direction=registered.direction, bounds=registered.bounds)  # fmt: skip
    metadata.update(getter_metadata(function) or {})

    def by_getter(*, tp: Count, fp: Count, fn: Count, tn: Count, **parameters: Any) -> Any:
        return _per_distinct_entry(cls, attribute, (tp, fp, fn, tn), parameters)

    by_getter.__name__ = name
    return Measure(name=name, function=by_getter, parameters=_keyword_parameters(function), getter=f"{cls.__qualname__}.{attribute}", **metadata)


def _per_distinct_entry(cls: type[Any], attribute: str, counts: tuple[Any, ...], parameters: dict[str, Any]) -> Any:
    """The getter ``attribute`` of an object of ``cls`` made from each distinct entry of the
    counts (Python numbers: ints stay exact), spread back to every entry."""
    arrays = [array.ravel() for array in np.broadcast_arrays(*(np.asarray(count) for count in counts))]
    shape = np.broadcast_shapes(*(np.shape(count) for count in counts))
    if arrays[0].size > 1 and all(array.dtype.kind in "biuf" for array in arrays):
        rows, spread = _distinct_rows(arrays)
    else:  # one entry, or exact Python integers beyond int64
        found: dict[tuple, int] = {}
        spread = np.array([found.setdefault(row, len(found)) for row in zip(*(array.tolist() for array in arrays))], dtype=np.intp)
        rows = [list(row) for row in found]
    values = []
    for tp, fp, fn, tn in rows:
        metrics = cls._build(tp=tp, fp=fp, fn=fn, tn=tn, class_label=None, class_idx=None, confusion_matrix=None)
        values.append(getattr(metrics, attribute)(**parameters))
    try:
        numbers = np.array(values, dtype=np.float64)
    except (TypeError, ValueError):
        numbers = None
    if numbers is None or numbers.shape != (len(rows),) or any(isinstance(value, (str, bytes)) for value in values):
        bad = next((value for value in values if not isinstance(value, (int, float, np.integer, np.floating))), values[:1])
        raise InvalidTypeError(f"{cls.__qualname__}.{attribute} must return a number, got {show(bad)}")
    result = numbers[spread].reshape(shape) if rows else np.empty(shape)
    return float(result) if result.ndim == 0 else result


def _distinct_rows(arrays: list[np.ndarray]) -> tuple[list[list[Any]], np.ndarray]:
    """The distinct ``(tp, fp, fn, tn)`` rows (Python numbers) and where each entry's row is:
    small integer counts as one integer key each (a 1-D sort), others row by row."""
    if all(array.dtype.kind in "biu" for array in arrays):
        high = [int(array.max()) + 1 for array in arrays]
        if min(int(array.min()) for array in arrays) >= 0 and math.prod(high) < 2**62:
            keys = np.zeros(arrays[0].shape, dtype=np.int64)
            for array, base in zip(arrays, high):
                keys = keys * base + array.astype(np.int64)
            distinct, spread = np.unique(keys, return_inverse=True)
            rows = np.empty((len(distinct), 4), dtype=np.int64)
            for k in range(3, -1, -1):
                distinct, rows[:, k] = np.divmod(distinct, high[k])
            return rows.tolist(), spread.ravel()
    distinct, spread = np.unique(np.stack(arrays, axis=1), axis=0, return_inverse=True)
    return distinct.tolist(), spread.ravel()


def _first_line(text: str | None) -> str:
    return (text or "").strip().split("\n", 1)[0]


class _Scalars(dict):
    """The scalar path of each registered measure by name, found once (the getters' lookup);
    ``integers``: the path for four Python ints (a definition on counts needs no rescaling)."""

    def __init__(self, integers: bool) -> None:
        super().__init__()
        self.integers = integers

    def __reduce__(self) -> str:
        return "_INTEGER_SCALARS" if self.integers else "_SCALARS"  # pickled as the module's own

    def __missing__(self, name: str) -> Any:
        measure = MEASURES[name]
        found = self[name] = getattr(measure.function, "integer_scalar", measure.scalar) if self.integers else measure.scalar
        return found


_SCALARS = _Scalars(integers=False)


_INTEGER_SCALARS = _Scalars(integers=True)


class MetricTable:
    """The class-level table of a metrics class's measures (see the module)."""

    __slots__ = ()

    @classmethod
    def metric_names(cls) -> tuple[str, ...]:
        """The metrics of this class: every ``get_*`` method needing no argument that is not in
        ``NON_METRIC_GETTERS``, named without ``get_``, base-class getters first, then the
        registered formulas that have no getter.

        Found once per class and kept on the class itself, so every subclass finds its own
        getters, added ones included.
        """
        return tuple(cls._table().lines)

    @classmethod
    def measures(cls) -> dict[str, Measure]:
        """Every measure of this class by name: its getters (as ``Measure`` objects that call
        them, with what ``evalkit.measure`` declared), overrides of built-in getters, and the
        registered formulas (getters kept from ``ClassificationMetrics`` are the formulas
        themselves, vectorised).

        Examples:
            >>> from evalkit import ClassificationMetrics
            >>> ClassificationMetrics.measures()["recall"].function.__name__
            'recall'
        """
        return dict(cls._table().measures)

    @classmethod
    def measure(cls, name: str) -> Measure:
        """The measure ``name`` (any spelling, alias or declared spelling) is in this class.

        Raises:
            UnknownMetricError: this class has no such measure; the message names the class
                and says how to add one.

        Examples:
            >>> from evalkit import ClassificationMetrics
            >>> ClassificationMetrics.measure("TPR").name
            'recall'
        """
        table = cls._table()
        key = table.aliases.get(spelling(name)) or metric_key(name)
        found = table.measures.get(key)
        if found is None:
            message = unknown_name_message("measure", name, list(table.measures))
            raise UnknownMetricError(
                f"{message}. Looked up in {cls.__qualname__}. To add one, define get_{spelling(name)} on a ClassificationMetrics "
                "subclass and use that class (metrics_class=..., or --metrics-class on the command line), or register a "
                "function of tp, fp, fn, tn with evalkit.formulas.register"
            )
        return found

    @classmethod
    def as_measure(cls, name: str) -> Measure:
        """The measure ``name`` of this class (an older name of ``measure``)."""
        return cls.measure(name)

    @classmethod
    def _metric_table(cls) -> dict[str, _MetricLine]:
        """``{metric name: _MetricLine}`` of the listed metrics of this class."""
        return cls._table().lines

    @classmethod
    def _table(cls) -> _Table:
        """What this class knows, kept on the class itself (never a base class's) and found
        again when a measure is registered or removed.

        A getter of this base class is its registered measure on the four counts (``_value``;
        a test checks every one), so where a subclass keeps it (and ``_value``), the measure is
        the vectorised formula and ``str`` and ``to_dict`` read its scalar path directly; an
        overridden or added getter is a measure that calls the getter.
        """
        table = cls.__dict__.get("_metric_lines")
        if table is None or table.version != registry_version():
            table = _build_table(cls)
            cls._metric_lines = table  # type: ignore[attr-defined]  # a cache set on the class itself
            cls._metric_text = None  # type: ignore[attr-defined]
        return table

    @classmethod
    def _text_layout(cls) -> str:
        """The metric lines of ``str`` as one ``%`` format, ``%.6g`` per value (made once per class)."""
        lines = cls._table().lines
        layout = cls.__dict__.get("_metric_text")
        if layout is None:
            escaped = ((line.title.replace("%", "%%"), line.description.replace("%", "%%")) for line in lines.values())
            layout = "\n".join(f"{title}: %.6g{description}" for title, description in escaped)
            cls._metric_text = layout  # type: ignore[attr-defined]  # a cache set on the class itself
        return layout
