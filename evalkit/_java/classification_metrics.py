"""ClassificationMetrics: the metrics of one class, with the getters Deep Netts users know.

It is also where a measure gets its name: every ``get_*`` getter of a ``ClassificationMetrics``
subclass, every override of a built-in getter and every registered formula is a measure of that
class (``measure``, ``measures``), and results, reports, intervals, curves and the command line
look names up there.
"""

from __future__ import annotations

import functools
import inspect
import math
from collections.abc import Hashable, Iterable
from typing import TYPE_CHECKING, Any, cast

from evalkit._engine import moved_names, serialization
from evalkit._engine._labels import check_one_label, label_position, same_labels
from evalkit._engine._validation import RandomState, check_count, check_index, format_number, show
from evalkit._engine.serialization import DocumentValue
from evalkit._java.evaluation_metrics import EvaluationMetrics, metric_key
from evalkit._java.metric_table import _INTEGER_SCALARS, _SCALARS, MetricTable, _no_nan
from evalkit._java.stats import Stats
from evalkit._results import intervals
from evalkit._results._sequences import DEFAULT_TUNING
from evalkit._results.base import CellsResult
from evalkit._results.rendering import render
from evalkit.exceptions import (
    EmptyInputError,
    EvalkitError,
    InvalidArgumentError,
    InvalidTypeError,
    LabelMismatchError,
    NotBinaryError,
    UnknownMetricError,
)
from evalkit.measures._averaging import UndefinedPolicy
from evalkit.measures._metrics_class import (
    check_metrics_class,
    merged_metrics_class,
    metrics_class_for,
    set_default_metrics_class,
)
from evalkit.measures._registry import (
    COUNT_NAMES,
    MEASURES,
    MeasureLike,
    spelling,
    unknown_name_message,
)

__all__ = ["ClassificationMetrics", "check_metrics_class", "merged_metrics_class", "metrics_class_for"]

_COUNT_TEXT = {
    "true_positive": ("True positive", "samples of the class predicted as the class"),
    "true_negative": ("True negative", "samples of other classes predicted as another class"),
    "false_positive": ("False positive", "samples of other classes predicted as the class"),
    "false_negative": ("False negative", "samples of the class predicted as another class"),
}


_COUNT_GETTERS = ("get_total", *(f"get_{name}" for name in _COUNT_TEXT))
_COUNT_SPELLINGS = {"tp": "true_positive", "fp": "false_positive", "fn": "false_negative", "tn": "true_negative"}
"""Short names of the counts that ``get`` answers too (``get("tp")``)."""
_HEAD_LAYOUT = "\n".join(["Class: %s", "Total items: %s", *(f"{title}: %s ({description})" for title, description in _COUNT_TEXT.values())])
"""The first lines of ``str``: the class, the total and the four counts."""


_Stats = Stats  # the class attribute ClassificationMetrics.Stats shadows the name inside the class


class ClassificationMetrics(MetricTable, DocumentValue, EvaluationMetrics):
    """The metrics of one class (one-vs-rest) or of a two-class problem.

    Every getter is one line over the formula layer (``evalkit.formulas``) and returns
    NaN when its value is undefined (a 0/0 ratio).

    Construction:
        ``ClassificationMetrics(cm)`` (the positive class, index 1, of a two-class matrix),
        ``ClassificationMetrics(cm, class_label=..., class_idx=...)`` (one class of any
        matrix, or of any result with per-class cells), ``from_counts`` (keyword-only
        counts), ``create_from`` (one object per class).
    Identity:
        ``get_class_label``, ``set_class_label``, ``get_class_idx``,
        ``get_confusion_matrix``.
    Counts:
        ``get_true_positive``, ``get_false_positive``, ``get_false_negative``,
        ``get_true_negative``, ``get_total``, ``positive_frequency``,
        ``negative_frequency``.
    Rates of actual classes:
        ``get_recall``, ``get_specificity``, ``get_false_negative_rate``,
        ``get_false_positive_rate``, ``get_balanced_accuracy``, ``get_g_mean``,
        ``get_informedness``.
    Rates of predictions:
        ``get_precision``, ``get_negative_predictive_value``,
        ``get_false_discovery_rate``, ``get_false_omission_rate``,
        ``get_markedness``.
    Whole-table scores:
        ``get_accuracy``, ``get_error_rate``, ``get_f1_score``,
        ``get_f_score``, ``get_jaccard_index``, ``get_fowlkes_mallows_index``,
        ``get_matthews_correlation_coefficient``, ``get_cohen_kappa``,
        ``get_prevalence``.
    Many objects:
        ``average`` (a ``Stats``), ``metric_names``, ``to_dict``.
    Measures by name:
        ``measure``, ``measures``, ``get``.

    A subclass adds a metric by defining one more ``get_*`` method (described, if wanted,
    with ``@evalkit.measure(direction=..., bounds=..., aliases=...)``): it appears in
    ``to_dict``, in ``str()``, in ``get`` and in ``average``, and, wherever this class is the
    metrics class of a result, in its averages, reports, intervals, curves and comparisons.
    Overriding a built-in getter changes that measure everywhere likewise. A formula
    registered with ``evalkit.formulas.register`` is a metric of every class, with a getter
    (``get_<name>()``) of its own. See ``examples/custom_metric.py``.

    Examples:
        >>> from evalkit import ConfusionMatrix
        >>> cm = ConfusionMatrix.from_array([[50, 10], [5, 35]], ["negative", "positive"])
        >>> metrics = ClassificationMetrics(cm)
        >>> metrics.get_class_label(), metrics.get_precision(), metrics.get_recall()
        ('positive', 0.7777777777777778, 0.875)
        >>> metrics.get(ClassificationMetrics.ACCURACY)
        0.85
    """

    DOCUMENT = "ClassificationMetrics"

    NON_METRIC_GETTERS = frozenset(
        {
            "get_class_label",
            "get_class_idx",
            "get_confusion_matrix",
            "get_total",
            "get_support",
            "get_true_positive",
            "get_false_positive",
            "get_false_negative",
            "get_true_negative",
        }
    )
    """No-argument getters that are not metrics (identity and counts): not averaged by Stats."""

    Stats = Stats  # Java users know it as ClassificationMetrics.Stats

    def __init__(self, confusion_matrix: Any, class_label: Hashable | None = None, class_idx: int | None = None, *counts: Any) -> None:
        """Metrics of one class of ``confusion_matrix`` (or of any result with per-class cells:
        an ``Evaluation``, the cells of a curve at a threshold).

        Args:
            confusion_matrix: the matrix to read.
            class_label: the class, by label; with neither argument the matrix must have two
                classes and the positive class (index 1) is used.
            class_idx: the class, by index; if both are given they must agree.

        Raises:
            NotBinaryError: no class given and the matrix does not have two classes.
            LabelMismatchError: ``class_label`` and ``class_idx`` name different classes.
            UnknownLabelError, ClassIndexError: no such class.
        """
        super().__init__()
        if counts:  # Deep Netts' four-count constructor, ClassificationMetrics(tn, fp, fn, tp) in Java: counts go by keyword here
            raise InvalidTypeError(
                f"ClassificationMetrics(...) reads a result, not {3 + len(counts)} counts {show([confusion_matrix, class_label, class_idx, *counts])}; "
                "for counts use ClassificationMetrics.from_counts(tp=..., fp=..., fn=..., tn=...) (Java's order was TN, FP, FN, TP)"
            )
        labels = _result_labels(confusion_matrix, "confusion_matrix")
        if class_label is not None:
            class_label = check_one_label("class_label", class_label)
        if class_idx is None and class_label is None:
            if len(labels) != 2:
                raise NotBinaryError(
                    f"ClassificationMetrics(cm) reads the positive class of a two-class matrix; this one has "
                    f"{len(labels)} classes {show(list(labels))}: pass class_label= or class_idx=, or use create_from(cm)"
                )
            class_idx = 1
        elif class_idx is None:
            class_idx = label_position(labels, class_label, "this matrix")
        else:
            class_idx = check_index("class_idx", class_idx, len(labels))
            if class_label is not None and not same_labels((labels[class_idx],), (class_label,)):
                raise LabelMismatchError(
                    f"'class_label' {class_label!r} is not the label of 'class_idx' {class_idx} ({labels[class_idx]!r})"
                )
        self._assign(**_class_counts(confusion_matrix, class_idx), class_label=labels[class_idx], class_idx=class_idx, confusion_matrix=confusion_matrix)

    def _assign(self, *, tp: float, fp: float, fn: float, tn: float, class_label: Any, class_idx: Any, confusion_matrix: Any) -> None:
        self._tp, self._fp, self._fn, self._tn = tp, fp, fn, tn
        # integer counts take each definition itself (nothing to rescale): the getters' fastest path
        self._scalars = _INTEGER_SCALARS if type(tp) is int and type(fp) is int and type(fn) is int and type(tn) is int else _SCALARS
        self._memo: dict[str, float] = {}  # the counts never change: each measure is computed once
        self._class_label = class_label
        self._class_idx = class_idx
        self._confusion_matrix = confusion_matrix

    @classmethod
    def _build(cls, **fields: Any) -> ClassificationMetrics:
        metrics = cls.__new__(cls)
        EvaluationMetrics.__init__(metrics)
        metrics._assign(**fields)
        return metrics

    @classmethod
    def from_counts(
        cls, *, tp: float, fp: float, fn: float, tn: float, class_label: Hashable | None = None
    ) -> ClassificationMetrics:
        """Metrics from the four counts, given by keyword (never by position).

        Counts must be finite and non-negative; fractional counts are accepted (soft or
        weighted data) and whole floats become ints.

        Raises:
            InvalidCountsError: a negative or non-finite count.

        Examples:
            >>> ClassificationMetrics.from_counts(tp=35, fp=10, fn=5, tn=50).get_f1_score()
            0.8235294117647058
        """
        counts = {name: check_count(name, value, integral=False) for name, value in {"tp": tp, "fp": fp, "fn": fn, "tn": tn}.items()}
        label = None if class_label is None else check_one_label("class_label", class_label)
        return cls._build(**counts, class_label=label, class_idx=None, confusion_matrix=None)

    @classmethod
    def create_from(cls, confusion_matrix: Any, *, all_classes: bool = False) -> list[ClassificationMetrics]:
        """Metrics objects of a matrix: for two classes one object, for the positive class
        (index 1) and labelled with its own label (as Deep Netts; ``all_classes=True`` gives
        both); otherwise one object per class, in label order. Called on a subclass, it makes
        instances of that subclass; called on ``ClassificationMetrics`` itself, instances of
        the matrix's own metrics class (as ``cm.class_metrics()``).

        Examples:
            >>> from evalkit import ConfusionMatrix
            >>> cm = ConfusionMatrix.from_predictions(list("aabbcc"), list("abbbcc"))
            >>> [m.get_class_label() for m in ClassificationMetrics.create_from(cm)]
            ['a', 'b', 'c']
        """
        labels = _result_labels(confusion_matrix, "confusion_matrix")
        own = getattr(confusion_matrix, "metrics_class", None)
        if cls is ClassificationMetrics and isinstance(own, type) and issubclass(own, ClassificationMetrics):
            cls = own  # noqa: PLW0642 (the matrix's metrics class, unless a subclass was asked for)
        if len(labels) == 2 and not all_classes:
            return [cls(confusion_matrix)]
        return [cls._build(**counts, class_label=label, class_idx=k, confusion_matrix=confusion_matrix)
                for k, (label, counts) in enumerate(zip(labels, _every_class_counts(confusion_matrix)))]  # fmt: skip

    @classmethod
    def average(cls, results: Iterable[ClassificationMetrics], *, undefined: UndefinedPolicy = "exclude") -> _Stats:
        """Summarize every metric over ``results``: mean, std, min, max and defined count.

        The metrics are those of the objects' class (a subclass's extra getters included;
        for mixed classes, the metrics they all have). The mean divides by the number of
        objects. Undefined values follow ``undefined`` (``"exclude"``, ``"zero"``, ``"one"``,
        ``"nan"``). Each metric is summarized when first read (reading all of them, as
        ``to_dict`` does, computes them together); the objects' counts never change, so the
        result does not depend on when it is read.

        Raises:
            EmptyInputError: ``results`` is empty.
            InvalidTypeError: an element is not a ClassificationMetrics.
        """
        if not isinstance(results, (ClassificationMetrics, Iterable)) or isinstance(results, (str, bytes)):
            raise InvalidTypeError(f"'results' must be ClassificationMetrics objects, got {show(results)}")
        results = list(results) if not isinstance(results, ClassificationMetrics) else [results]
        if not results:
            raise EmptyInputError("'results' is empty: there is nothing to average")
        for position, result in enumerate(results):
            if not isinstance(result, ClassificationMetrics):
                raise InvalidTypeError(f"'results[{position}]' must be a ClassificationMetrics, got {show(result)}")
        kinds = {type(result) for result in results}
        common = set.intersection(*(set(kind._metric_table()) for kind in kinds))
        first = type(results[0])._table()
        names = [name for name in first.lines if name in common]
        getters = {name: first.lines[name].getter for name in names}
        aliases = {alias: name for alias, name in first.aliases.items() if name in common}
        return Stats.lazily(names, lambda name: [getattr(result, getters[name])() for result in results], undefined=undefined, aliases=aliases)

    # ----------------------------------------------------------------------------------------
    # the measures of a class

    def _metric_values(self) -> list[Any]:
        """Every metric's value, as its getter returns it, in table order (floats when every
        value is a registered formula's own)."""
        table = self._table()
        tp, fp, fn, tn = self._tp, self._fp, self._fn, self._tn
        if table.all_direct is not None:
            return [direct(tp, fp, fn, tn) for direct in table.all_direct]
        return [line.direct(tp, fp, fn, tn) if line.direct else getattr(self, line.getter)() for line in table.lines.values()]

    def __getattr__(self, attribute: str) -> Any:
        """``get_<name>()`` of a registered formula that has no getter of its own."""
        if attribute.startswith("get_") and not attribute.startswith("get__"):
            measure = type(self)._table().measures.get(attribute[4:])
            if measure is not None and measure.getter is None:
                return functools.partial(self._value, measure.name)
        raise self._unknown_attribute(attribute)

    # ----------------------------------------------------------------------------------------
    # identity

    def get_class_label(self) -> Hashable | None:
        """The label of the class these metrics describe (None for unlabelled counts)."""
        return self._class_label

    def set_class_label(self, class_label: Hashable) -> None:
        """Relabel these metrics (the counts do not change)."""
        self._class_label = check_one_label("class_label", class_label)

    def get_class_idx(self) -> int | None:
        """The index of the class in its confusion matrix (None for metrics made from counts)."""
        return self._class_idx

    def get_confusion_matrix(self) -> CellsResult | None:
        """The matrix these metrics were read from (None for metrics made from counts).

        The counts were read when the object was made; later changes to the matrix do not
        change these metrics.
        """
        return self._confusion_matrix

    # ----------------------------------------------------------------------------------------
    # counts

    def get_true_positive(self) -> int | float:
        """tp: samples of the class predicted as the class."""
        return self._tp

    def get_false_positive(self) -> int | float:
        """fp: samples of other classes predicted as the class."""
        return self._fp

    def get_false_negative(self) -> int | float:
        """fn: samples of the class predicted as another class."""
        return self._fn

    def get_true_negative(self) -> int | float:
        """tn: samples of other classes predicted as another class."""
        return self._tn

    def get_total(self) -> int | float:
        """tp + fp + fn + tn."""
        return self._tp + self._fp + self._fn + self._tn

    def get_support(self) -> int | float:
        """Support: tp + fn, how many samples actually belong to the class (Tribuo's
        ``support(label)``, DL4J's ``classCount``)."""
        return self._tp + self._fn

    def _counts(self) -> dict[str, Any]:
        return {"tp": self._tp, "fp": self._fp, "fn": self._fn, "tn": self._tn}

    def _value(self, measure: str) -> float:
        """The registered measure ``measure`` (a name) of these counts, by the scalar path of its
        one definition (the counts are Python numbers: exact integer arithmetic, well under a
        microsecond: the getters' hot path), kept: the counts of an object never change, so a
        getter read again is a lookup."""
        found = self._memo.get(measure)
        if found is None:
            found = self._memo[measure] = self._scalars[measure](self._tp, self._fp, self._fn, self._tn)
        return found

    def _value_with(self, measure: str, **parameters: Any) -> float:
        """``_value`` of a measure with parameters (``beta``, ``prevalence``)."""
        return MEASURES[measure].scalar(self._tp, self._fp, self._fn, self._tn, **parameters)

    def interval(self, measure: MeasureLike, *, level: float = 0.95, method: str | None = None, n_resamples: int = 2000,
                 random_state: RandomState = None, anytime: bool = False, tuning: float = DEFAULT_TUNING, **parameters: Any) -> intervals.Interval:  # fmt: skip
        """A confidence interval of one of this class's measures (any registered name, or a getter
        of this class, overridden ones included): ``"wilson"`` or ``"clopper-pearson"`` for
        proportions (recall, precision, specificity, ...), or the bootstrap (``"bca"``, the
        default, ``"percentile"``) of the four cells' multinomial; ``anytime=True``: the
        confidence sequence of a stream read after every batch (``"beta-binomial"`` of a
        proportion, ``"asymptotic"``), narrowest at ``tuning`` samples. See
        ``evalkit._results.intervals`` and ``evalkit._results._sequences``.

        Examples:
            >>> from evalkit import ClassificationMetrics
            >>> print(ClassificationMetrics.from_counts(tp=45, fp=10, fn=5, tn=40).interval("recall", method="wilson"))
            0.9 [0.7864, 0.9565] (95% wilson)
        """
        return intervals.cells_interval(self._tp, self._fp, self._fn, self._tn, measure, level=level, method=method, n_resamples=n_resamples,
                                        random_state=random_state, metrics_class=type(self), anytime=anytime, tuning=tuning, **parameters)  # fmt: skip

    def positive_frequency(self) -> float:
        """How often the class actually occurs: (tp + fn) / total (Java's ``positiveFreqency``)."""
        return self._value("prevalence")

    def negative_frequency(self) -> float:
        """How often other classes actually occur: (tn + fp) / total, the prevalence of the negative side."""
        return MEASURES["prevalence"].scalar(self._tn, self._fn, self._fp, self._tp)

    # ----------------------------------------------------------------------------------------
    # metrics: one line each over the formula layer (NaN when undefined)

    def get_accuracy(self) -> float:
        """Accuracy: (tp + tn) / total."""
        return self._value("accuracy")

    def get_error_rate(self) -> float:
        """Error rate: (fp + fn) / total."""
        return self._value("error_rate")

    def get_precision(self) -> float:
        """Precision (PPV): tp / (tp + fp)."""
        return self._value("precision")

    def get_recall(self) -> float:
        """Recall (sensitivity, TPR): tp / (tp + fn)."""
        return self._value("recall")

    def get_specificity(self) -> float:
        """Specificity (TNR): tn / (tn + fp)."""
        return self._value("specificity")

    def get_negative_predictive_value(self) -> float:
        """Negative predictive value: tn / (tn + fn)."""
        return self._value("negative_predictive_value")

    def get_false_positive_rate(self) -> float:
        """False positive rate (fall-out): fp / (fp + tn)."""
        return self._value("false_positive_rate")

    def get_false_negative_rate(self) -> float:
        """False negative rate (miss rate): fn / (fn + tp)."""
        return self._value("false_negative_rate")

    def get_false_discovery_rate(self) -> float:
        """False discovery rate: fp / (fp + tp)."""
        return self._value("false_discovery_rate")

    def get_false_omission_rate(self) -> float:
        """False omission rate: fn / (fn + tn)."""
        return self._value("false_omission_rate")

    def get_f1_score(self) -> float:
        """F1 score: 2 tp / (2 tp + fp + fn)."""
        return self._value("f1_score")

    def get_f_score(self, beta: float = 1.0) -> float:
        """F-beta score for any beta >= 0 (1 by default, as ``average("f_score")``):
        (1 + b²) tp / ((1 + b²) tp + b² fn + fp)."""
        return self._value_with("f_score", beta=beta)

    def get_jaccard_index(self) -> float:
        """Jaccard index (IoU): tp / (tp + fp + fn)."""
        return self._value("jaccard_index")

    def get_balanced_accuracy(self) -> float:
        """Balanced accuracy: (recall + specificity) / 2."""
        return self._value("balanced_accuracy")

    def get_g_mean(self) -> float:
        """G-mean: sqrt(recall * specificity)."""
        return self._value("g_mean")

    def get_informedness(self) -> float:
        """Informedness (Youden's J): recall + specificity - 1."""
        return self._value("informedness")

    def get_markedness(self) -> float:
        """Markedness: precision + NPV - 1."""
        return self._value("markedness")

    def get_matthews_correlation_coefficient(self) -> float:
        """Matthews correlation coefficient: (tp tn - fp fn) / sqrt of the four margins' product."""
        return self._value("matthews_correlation_coefficient")

    def get_cohen_kappa(self) -> float:
        """Cohen's kappa of the two-class table of this class."""
        return self._value("cohen_kappa")

    def get_fowlkes_mallows_index(self) -> float:
        """Fowlkes-Mallows index: sqrt(precision * recall)."""
        return self._value("fowlkes_mallows_index")

    def get_prevalence(self) -> float:
        """Prevalence: (tp + fn) / total."""
        return self._value("prevalence")

    def get_positive_likelihood_ratio(self) -> float:
        """Positive likelihood ratio (LR+): recall / false positive rate."""
        return self._value("positive_likelihood_ratio")

    def get_negative_likelihood_ratio(self) -> float:
        """Negative likelihood ratio (LR-): false negative rate / specificity."""
        return self._value("negative_likelihood_ratio")

    def get_diagnostic_odds_ratio(self) -> float:
        """Diagnostic odds ratio: tp tn / (fp fn) = LR+ / LR-."""
        return self._value("diagnostic_odds_ratio")

    def get_number_needed_to_diagnose(self) -> float:
        """Number needed to diagnose: 1 / informedness."""
        return self._value("number_needed_to_diagnose")

    def get_post_test_probability(self, prevalence: float | None = None) -> float:
        """The probability of the class after a positive prediction at a given prevalence
        (the data's own by default, which is the precision): π recall / (π recall + (1 - π) fpr)."""
        return self._value_with("post_test_probability", prevalence=prevalence)

    # ----------------------------------------------------------------------------------------
    # string keys, dict and text

    def _getter(self, name: str) -> Any:
        table = self._table()
        key = table.aliases.get(spelling(name)) or _COUNT_SPELLINGS.get(spelling(name)) or metric_key(name)
        if key in table.lines or f"get_{key}" in self.NON_METRIC_GETTERS - {"get_confusion_matrix"}:
            return getattr(self, f"get_{key}")
        return None

    def get(self, name: str) -> Any:
        """A metric by name in any spelling: a visrec key (``ACCURACY``, ``"F1Score"``), a getter
        name without ``get_`` (``"f1_score"``), an alias (``"sensitivity"``), or a name stored
        with ``set``.

        Raises:
            UnknownMetricError: (a ``KeyError``) an unknown name; the message lists the known ones.
        """
        if not isinstance(name, str):
            raise InvalidTypeError(f"a metric name must be a string, got {show(name)}")
        if name in self._values:
            return self._values[name]
        getter = self._getter(name)
        if getter is None:
            raise UnknownMetricError(unknown_name_message("metric", name, self.names()))
        return getter()

    def set(self, name: str, value: float) -> None:
        """Store an extra value (a training time, a threshold...) under a name that is not a metric.

        Raises:
            InvalidArgumentError: ``name`` is a metric computed from the counts.
        """
        if self._getter(name) is not None:
            raise InvalidArgumentError(f"{name!r} is computed from the counts and cannot be set")
        super().set(name, value)

    def names(self) -> list[str]:
        """The names ``get`` answers: counts, metrics, then values stored with ``set``."""
        return [*_COUNT_TEXT, "total", "support", *self.metric_names(), *self._values]

    def to_dict(self, *, strict: bool = False) -> dict[str, Any]:
        """Label, index, counts and every metric (NaN where undefined), then stored extras;
        ``strict=True``: plain data strict JSON takes (NaN as ``None``, infinities as ``"Infinity"``; see ``serialization.json_safe``).

        Examples:
            >>> import json
            >>> metrics = ClassificationMetrics.from_counts(tp=0, fp=0, fn=2, tn=8)
            >>> metrics.to_dict()["precision"], json.dumps(metrics.to_dict(strict=True)["precision"], allow_nan=False)
            (nan, 'null')
        """
        result: dict[str, Any] = {"class_label": self._class_label, "class_idx": self._class_idx}
        result.update({name: getattr(self, f"get_{name}")() for name in [*_COUNT_TEXT, "total", "support"]})
        result.update(zip(self._metric_table(), self._metric_values()))
        result.update(self._values)
        return serialization.json_safe(result) if strict else result

    def __str__(self) -> str:
        """The Java layout: ``Class: …``, ``Total items: …``, the counts, then one line per metric."""
        counts = [format_number(getattr(self, getter)()) for getter in _COUNT_GETTERS]
        lines = [_HEAD_LAYOUT % (self._class_label, *counts)]
        values = self._metric_values()
        floats = self._table().all_direct is not None or set(map(type, values)) == {float}
        if floats and _no_nan(values):  # the usual case: every line in one C-level format
            lines.append(self._text_layout() % tuple(values))
        else:
            lines.extend(f"{line.title}: {format_number(value)}{line.description}" for line, value in zip(self._metric_table().values(), values))
        lines.extend(f"{name}: {format_number(value)}" for name, value in self._values.items())
        return "\n".join(lines)

    def _document(self) -> dict[str, Any]:
        """The counts, label, index and stored extras as an evalkit JSON document (not the matrix)."""
        payload = {
            "class": type(self).__name__,
            "class_label": self._class_label,
            "class_idx": self._class_idx,
            "counts": self._counts(),
            "values": {name: None if math.isnan(value) else value for name, value in self._values.items()},
        }
        return payload

    @classmethod
    def _read_document(cls, document: dict[str, Any]) -> ClassificationMetrics:
        counts = serialization.field(document, "counts")
        if not isinstance(counts, dict) or set(counts) != {"tp", "fp", "fn", "tn"}:
            raise serialization.FormatError(f"field 'counts' must hold exactly tp, fp, fn, tn, got {show(counts)}")
        for name, value in counts.items():
            serialization.number(value, f"counts.{name}")
        values = serialization.field(document, "values")
        if not isinstance(values, dict):
            raise serialization.FormatError(f"field 'values' must be an object, got {show(values)}")
        try:
            metrics = cls.from_counts(**counts, class_label=serialization.scalar_label(document.get("class_label"), "class_label"))
        except EvalkitError as error:
            raise serialization.FormatError(f"field 'counts': {error}") from None
        metrics._class_idx = serialization.integer(document, "class_idx", optional=True, high=serialization.current_limits().max_labels)
        for name, value in values.items():
            stored = serialization.number(value, f"values.{name}", nullable=True)
            if metrics._getter(name) is not None:  # the rule of ``set``: a computed metric is never stored
                raise serialization.FormatError(
                    f"field 'values.{name}' is {format_number(stored)}, but {name!r} is computed from the counts "
                    f"(they give {format_number(metrics.get(name))}): a document stores extras only"
                )
            metrics._values[str(name)] = stored
        return metrics

    def _repr_html_(self) -> str:
        """The metrics as a table in a notebook (escaped, no script)."""
        rows = [(name, value) for name, value in self.to_dict().items() if name not in ("class_label", "class_idx")]
        return render("html_table", f"{type(self).__name__} of class {self._class_label!r}", ["metric", "value"], rows)

    def __repr__(self) -> str:
        counts = ", ".join(f"{name}={value!r}" for name, value in self._counts().items())
        return f"{type(self).__name__}(class_label={self._class_label!r}, {counts})"



def _class_counts(result: Any, k: int) -> dict[str, Any]:
    """``tp, fp, fn, tn`` of class ``k`` of a result, as Python numbers: a matrix's from its
    running margins (four integers, no table of every class), any other's from its class cells."""
    margins = getattr(result, "_class_margins", None)
    found = None if margins is None else margins(k)
    if found is not None:
        return dict(zip(COUNT_NAMES, found))
    return {name: row[k : k + 1].tolist()[0] for name, row in zip(COUNT_NAMES, result.class_cells.rows())}


def _every_class_counts(result: object) -> list[dict[str, Any]]:
    """``_class_counts`` of every class of a result, read at once."""
    margins = getattr(result, "_every_class_margins", None)
    found = None if margins is None else margins()
    if found is not None:
        return [dict(zip(COUNT_NAMES, cells)) for cells in found]
    cells = {name: values.tolist() for name, values in cast(Any, result).class_cells.counts().items()}  # Python numbers
    return [dict(zip(cells, row)) for row in zip(*cells.values())]


def _result_labels(result: object, argument: str) -> tuple:
    """The labels of a result with per-class cells (a confusion matrix, an evaluation, the cells
    of a curve at a threshold): what a metrics object reads."""
    kind = type(result)
    if kind in _READ_KINDS and hasattr(result, "labels"):
        return tuple(cast(Any, result).labels)
    if not (hasattr(result, "labels") and inspect.getattr_static(result, "class_cells", None) is not None) or isinstance(result, type):  # (static: the cells are read once, after)
        raise InvalidTypeError(
            f"{argument!r} must be a ConfusionMatrix (or another result with per-class cells), got {show(result)}; for counts use "
            "ClassificationMetrics.from_counts(tp=..., fp=..., fn=..., tn=...) (Java's order was TN, FP, FN, TP)"
        )
    if inspect.getattr_static(kind, "class_cells", None) is not None:
        _READ_KINDS.add(kind)
    return tuple(cast(Any, result).labels)


_READ_KINDS: set[type] = set()
"""The classes of results read before (their class has per-class cells): read again without the static look."""


set_default_metrics_class(ClassificationMetrics)


if not TYPE_CHECKING:  # the names this module gave in evalkit 0.1.0 and lost, found with a warning
    __getattr__ = moved_names.finder(__name__)
