"""Stats: every metric of several metrics objects summarized (mean, std, min, max, defined count)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from evalkit._engine import moved_names, serialization
from evalkit._engine._validation import format_number, show
from evalkit._engine.serialization import DocumentValue
from evalkit._java.evaluation_metrics import metric_key
from evalkit._results.rendering import render
from evalkit.exceptions import EvalkitError, UnknownAttributeError, UnknownMetricError
from evalkit.measures._averaging import Summary, UndefinedPolicy, check_undefined, summarize_rows
from evalkit.measures._registry import spelling, unknown_name_message

__all__ = ["Stats"]


class LazySummaries(Mapping[str, Summary]):
    """Summaries of named metric values, computed when first read and kept.

    ``row(name)`` gives one value per object. Reading one metric (``stats.accuracy``)
    computes that metric only; reading them all (``to_dict``, ``str``) computes the rest in
    one vectorised pass.
    """

    __slots__ = ("_cache", "_names", "_row", "_undefined")

    def __init__(self, names: Sequence[str], row: Callable[[str], list[float]], undefined: str) -> None:
        self._names, self._row, self._undefined = tuple(names), row, undefined
        self._cache: dict[str, Summary] = {}

    def __getitem__(self, name: str) -> Summary:
        if name not in self._cache:
            if name not in self._names:
                raise KeyError(name)
            self._cache[name] = summarize_rows([self._row(name)], undefined=self._undefined)[0]
        return self._cache[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __contains__(self, name: object) -> bool:
        return name in self._names

    def computed(self) -> dict[str, Summary]:
        """Every summary, the missing ones computed together."""
        missing = [name for name in self._names if name not in self._cache]
        if missing:
            self._cache.update(zip(missing, summarize_rows([self._row(name) for name in missing], undefined=self._undefined)))
        return {name: self._cache[name] for name in self._names}


def _consistent(summary: Summary, name: str) -> Summary:
    """A summary read from a document, refused when its numbers cannot come from one set of
    values: ``min <= mean <= max`` and ``0 <= std <= (max - min) / 2`` (population std), all
    four undefined together."""
    mean, std, low, high = summary.mean, summary.std, summary.min, summary.max
    undefined = [math.isnan(value) for value in (mean, std, low, high)]
    if any(undefined):
        if not all(undefined):
            raise serialization.FormatError(f"field {name!r}: mean, std, min and max are undefined (null) together, got {summary.to_dict()}")
        return summary
    slack = 1e-9 * max(1.0, abs(low), abs(high))  # the rounding of a mean of n floats
    if not (low - slack <= mean <= high + slack and 0 <= std <= (high - low) / 2 + slack):
        raise serialization.FormatError(
            f"field {name!r} cannot summarize any values: it needs min <= mean <= max and 0 <= std <= (max - min) / 2, got {summary.to_dict()}"
        )
    return summary


def _aliases(value: Mapping[str, str]) -> dict[str, str]:
    return dict(value)


def _summaries(value: Mapping[str, Summary]) -> Mapping[str, Summary]:
    return value if isinstance(value, LazySummaries) else dict(value)


def _computed(summaries: Mapping[str, Summary]) -> Mapping[str, Summary]:
    """Every summary as a plain mapping (a lazy one's computed together)."""
    return summaries.computed() if isinstance(summaries, LazySummaries) else summaries


_JAVA_FIELDS = {"f_score": "f_score", "fscore": "f_score"}
"""Deep Netts' Stats fields whose spelling is not a metric's: ``fScore`` is the mean F1 (``f_score``)."""

_UNFILLED_JAVA_FIELDS = {"mserror": "error_rate", "ms_error": "error_rate", "correlation_coefficient": "matthews_correlation_coefficient"}
"""Deep Netts' Stats fields that Java never fills, and what evalkit gives instead."""


@attrs.frozen(eq=False)
class Stats(DocumentValue):
    """Summary of each metric over several results (classes of one matrix, or folds).

    Made by ``ClassificationMetrics.average``:
    averaging the per-class objects of one matrix gives macro averages; averaging the same
    class over cross-validation folds gives the mean and spread across folds. The mean
    divides by the number of objects averaged (Deep Netts divided by the number of distinct
    class labels). Undefined values follow the policy ``undefined`` (see
    ``evalkit.measures._averaging``); each summary reports how many values were defined.

    Attributes:
        summaries: metric name -> ``Summary``, in getter order.
        undefined: the undefined-value policy used.
        aliases: spellings a metrics class declared for its getters (``evalkit.measure``)
            -> metric name.

    Examples:
        >>> from evalkit import ClassificationMetrics
        >>> folds = [ClassificationMetrics.from_counts(tp=8, fp=2, fn=2, tn=8),
        ...          ClassificationMetrics.from_counts(tp=6, fp=4, fn=0, tn=10)]
        >>> stats = ClassificationMetrics.average(folds)
        >>> stats.accuracy, stats.get("Precision"), stats.summary("recall").max
        (0.8, 0.7, 1.0)
    """

    DOCUMENT = "Stats"

    summaries: Mapping[str, Summary] = attrs.field(converter=_summaries, repr=lambda summaries: repr(dict(_computed(summaries))))
    undefined: str = attrs.field(default="exclude", converter=check_undefined)
    aliases: Mapping[str, str] = attrs.field(factory=dict, converter=_aliases)

    @classmethod
    def from_values(cls, values: Mapping[str, Sequence[float]], *, undefined: UndefinedPolicy = "exclude") -> Stats:
        """Summarize ``{metric name: one value per result}`` under the policy ``undefined``."""
        policy = check_undefined(undefined)
        names = list(values)
        return cls(dict(zip(names, summarize_rows([values[name] for name in names], undefined=policy))) if names else {}, policy)

    @classmethod
    def lazily(
        cls, names: Sequence[str], row: Callable[[str], list[float]], *, undefined: UndefinedPolicy = "exclude", aliases: Mapping[str, str] | None = None
    ) -> Stats:
        """Summaries of ``row(name)`` (one value per result) for every name, computed when first read."""
        policy = check_undefined(undefined)
        return cls(LazySummaries(names, row, policy), policy, aliases or {})

    def _all(self) -> Mapping[str, Summary]:
        return _computed(self.summaries)

    def __reduce__(self) -> tuple:
        """A pickle holds the summaries computed (a lazy ``Stats`` reads its results first)."""
        return (type(self), (dict(self._all()), self.undefined, dict(self.aliases)))

    @property
    def names(self) -> tuple[str, ...]:
        """The metric names, in getter order."""
        return tuple(self.summaries)

    def _key(self, name: str) -> str:
        """The metric a name means: a spelling the metrics class declared, else the registry's name."""
        return self.aliases.get(spelling(name)) or metric_key(name)

    def summary(self, name: str) -> Summary:
        """The full summary of one metric: the name as stored, or any spelling of the same metric
        (``"F1Score"``, ``"f1_score"``, ``"f1"``), whatever spelling it was stored under."""
        key, summaries = self._key(name), self.summaries
        for stored in (name, key):
            if stored in summaries:
                return summaries[stored]
        for stored in summaries:  # stored under another spelling ("f1" for "f1_score")
            if isinstance(stored, str) and self._key(stored) == key:
                return summaries[stored]
        raise UnknownMetricError(unknown_name_message("metric", name, list(summaries)))

    def get(self, name: str) -> float:
        """The mean of one metric."""
        return self.summary(name).mean

    def __getattr__(self, name: str) -> float:
        """Every metric's mean as an attribute, in any spelling (``stats.f1_score``, ``stats.mcc``)."""
        if name.startswith("_"):
            raise UnknownAttributeError(name, name=name)
        key = spelling(name)
        if key in _JAVA_FIELDS:  # Deep Netts' field names (``fScore``) are the properties of the same meaning
            return getattr(self, _JAVA_FIELDS[key])
        if key in _UNFILLED_JAVA_FIELDS:
            raise UnknownAttributeError(f"{name!r}: Deep Netts' Stats declares it but never fills it; evalkit's Stats has "
                                        f"{_UNFILLED_JAVA_FIELDS[key]!r} (stats.get({_UNFILLED_JAVA_FIELDS[key]!r}))", name=name)  # fmt: skip
        try:
            return self.get(name)
        except UnknownMetricError as error:
            raise UnknownAttributeError(str(error), name=name) from None

    @property
    def accuracy(self) -> float:
        """Mean accuracy (the Java field ``accuracy``): the mean of the objects' accuracies.

        For the per-class objects of one matrix that is the mean one-vs-rest (label) accuracy,
        as in Deep Netts, not the share of correct samples (``ConfusionMatrix.get_accuracy``).
        """
        return self.get("accuracy")

    @property
    def precision(self) -> float:
        """Mean precision (the Java field ``precision``)."""
        return self.get("precision")

    @property
    def recall(self) -> float:
        """Mean recall (the Java field ``recall``)."""
        return self.get("recall")

    @property
    def f_score(self) -> float:
        """Mean F1 score (the Java field ``fScore``)."""
        return self.get("f1_score")

    def to_dict(self, *, strict: bool = False) -> dict[str, dict[str, Any]]:
        """``{metric: {"mean", "std", "min", "max", "n_defined", "n"}}``; ``strict=True``: plain data strict JSON takes (NaN as ``None``, infinities as ``"Infinity"``; see ``serialization.json_safe``)."""
        return {name: summary.to_dict(strict=strict) for name, summary in self._all().items()}

    def _document(self) -> dict[str, Any]:
        """The summaries as an evalkit JSON document (NaN written as null)."""
        summaries = {
            name: {key: None if isinstance(value, float) and math.isnan(value) else value for key, value in summary.to_dict().items()}
            for name, summary in self._all().items()
        }
        aliases = {"aliases": dict(self.aliases)} if self.aliases else {}
        return {"undefined": self.undefined, "summaries": summaries, **aliases}

    @classmethod
    def _read_document(cls, document: dict[str, Any]) -> Stats:
        summaries = serialization.field(document, "summaries")
        if not isinstance(summaries, dict):
            raise serialization.FormatError(f"field 'summaries' must be an object, got {summaries!r:.60}")
        read = {}
        for name, summary in summaries.items():
            if not isinstance(summary, dict) or set(summary) != {"mean", "std", "min", "max", "n_defined", "n"}:
                raise serialization.FormatError(f"field 'summaries.{name}' must hold mean, std, min, max, n_defined, n")
            floats = [serialization.number(summary[key], f"summaries.{name}.{key}", nullable=True) for key in ("mean", "std", "min", "max")]
            n = serialization.integer(summary, "n")
            n_defined = serialization.integer(summary, "n_defined", high=n)
            mean, std, low, high = floats
            read[name] = _consistent(Summary(mean, std, low, high, n_defined, n), f"summaries.{name}")
        aliases = document.get("aliases", {})
        if not (isinstance(aliases, dict) and all(isinstance(value, str) and value in read for value in aliases.values())):
            raise serialization.FormatError(f"field 'aliases' must map spellings to names of 'summaries', got {show(aliases)}")
        try:
            return cls(read, serialization.field(document, "undefined"), aliases)
        except EvalkitError as error:
            raise serialization.FormatError(f"field 'undefined': {error}") from None


    def _repr_html_(self) -> str:
        """The summaries as a table in a notebook (escaped, no script)."""
        rows = [(name, s.mean, s.std, s.min, s.max, f"{s.n_defined} of {s.n}") for name, s in self._all().items()]
        return render("html_table", f"Stats (undefined: {self.undefined})", ["metric", "mean", "std", "min", "max", "defined"], rows)

    def __str__(self) -> str:
        means = ", ".join(f"{name}={format_number(summary.mean)}" for name, summary in self._all().items())
        return f"Stats{{{means}}}"


if not TYPE_CHECKING:  # the names this module gave in evalkit 0.1.0 and lost, found with a warning
    __getattr__ = moved_names.finder(__name__)
