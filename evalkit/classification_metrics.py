"""ClassificationMetrics: the metrics of one class, with the getters Deep Netts users know."""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Hashable, Iterable
from typing import Any, NamedTuple

import numpy as np

from evalkit import formulas, serialization
from evalkit import stats as _stats
from evalkit._labels import check_one_label, same_labels
from evalkit._validation import check_count, format_number, show
from evalkit.confusion_matrix import ConfusionMatrix
from evalkit.evaluation_metrics import EvaluationMetrics, metric_key
from evalkit.exceptions import (
    EmptyInputError,
    EvalkitError,
    InvalidArgumentError,
    InvalidTypeError,
    LabelMismatchError,
    NotBinaryError,
    UnknownMetricError,
)
from evalkit.stats import Stats

__all__ = ["ClassificationMetrics"]

_COUNT_TEXT = {
    "true_positive": ("True positive", "samples of the class predicted as the class"),
    "true_negative": ("True negative", "samples of other classes predicted as another class"),
    "false_positive": ("False positive", "samples of other classes predicted as the class"),
    "false_negative": ("False negative", "samples of the class predicted as another class"),
}


_COUNT_GETTERS = ("get_total", *(f"get_{name}" for name in _COUNT_TEXT))
_HEAD_LAYOUT = "\n".join(["Class: %s", "Total items: %s", *(f"{title}: %s ({description})" for title, description in _COUNT_TEXT.values())])
"""The first lines of ``str``: the class, the total and the four counts."""


class _MetricLine(NamedTuple):
    """One metric of a class: its getter, its title and description for ``str``, and, when the
    getter is the base class's own, the scalar path of its measure (what that getter runs)."""

    getter: str
    title: str
    description: str  # " (...)" or ""
    direct: Callable[..., Any] | None


class ClassificationMetrics(EvaluationMetrics):
    """The metrics of one class (one-vs-rest) or of a two-class problem.

    Every getter is one line over the formula layer (``evalkit.formulas``) and returns
    NaN when its value is undefined (a 0/0 ratio).

    Construction:
        ``ClassificationMetrics(cm)`` (the positive class, index 1, of a two-class matrix),
        ``ClassificationMetrics(cm, class_label=..., class_idx=...)`` (one class of any
        matrix), ``from_counts`` (keyword-only counts), ``create_from`` (one object
        per class).
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

    A subclass adds a metric by defining one more no-argument ``get_*`` method: it appears in
    ``to_dict``, in ``str()``, in ``get`` and in ``average`` with no other code
    (see ``examples/custom_metric.py``). Objects are also made by ``from_counts`` and
    ``create_from``, so a subclass adds getters rather than constructor arguments.

    Examples:
        >>> cm = ConfusionMatrix.from_array([[50, 10], [5, 35]], ["negative", "positive"])
        >>> metrics = ClassificationMetrics(cm)
        >>> metrics.get_class_label(), metrics.get_precision(), metrics.get_recall()
        ('positive', 0.7777777777777778, 0.875)
        >>> metrics.get(ClassificationMetrics.ACCURACY)
        0.85
    """

    NON_METRIC_GETTERS = frozenset(
        {
            "get_class_label",
            "get_class_idx",
            "get_confusion_matrix",
            "get_total",
            "get_true_positive",
            "get_false_positive",
            "get_false_negative",
            "get_true_negative",
        }
    )
    """No-argument getters that are not metrics (identity and counts): not averaged by Stats."""

    Stats = Stats  # Java users know it as ClassificationMetrics.Stats

    def __init__(
        self,
        confusion_matrix: ConfusionMatrix,
        class_label: Hashable | None = None,
        class_idx: int | None = None,
    ) -> None:
        """Metrics of one class of ``confusion_matrix``.

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
        if not isinstance(confusion_matrix, ConfusionMatrix):
            raise InvalidTypeError(
                f"'confusion_matrix' must be a ConfusionMatrix, got {show(confusion_matrix)}; for counts use "
                "ClassificationMetrics.from_counts(tp=..., fp=..., fn=..., tn=...) (Java's order was TN, FP, FN, TP)"
            )
        labels = confusion_matrix.labels
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
            class_idx = confusion_matrix.index_of(class_label)
        else:
            class_idx = confusion_matrix._class_index(class_idx)
            if class_label is not None and not same_labels((labels[class_idx],), (class_label,)):
                raise LabelMismatchError(
                    f"'class_label' {class_label!r} is not the label of 'class_idx' {class_idx} ({labels[class_idx]!r})"
                )
        self._assign(
            tp=confusion_matrix.get_true_positive(class_idx),
            fp=confusion_matrix.get_false_positive(class_idx),
            fn=confusion_matrix.get_false_negative(class_idx),
            tn=confusion_matrix.get_true_negative(class_idx),
            class_label=labels[class_idx],
            class_idx=class_idx,
            confusion_matrix=confusion_matrix,
        )

    def _assign(self, *, tp: Any, fp: Any, fn: Any, tn: Any, class_label: Any, class_idx: Any, confusion_matrix: Any) -> None:
        self._tp, self._fp, self._fn, self._tn = tp, fp, fn, tn
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
    def create_from(cls, confusion_matrix: ConfusionMatrix, *, all_classes: bool = False) -> list[ClassificationMetrics]:
        """Metrics objects of a matrix: for two classes one object, for the positive class
        (index 1) and labelled with its own label (as Deep Netts; ``all_classes=True`` gives
        both); otherwise one object per class, in label order. Called on a subclass, it makes
        instances of that subclass.

        Examples:
            >>> cm = ConfusionMatrix.from_predictions(list("aabbcc"), list("abbbcc"))
            >>> [m.get_class_label() for m in ClassificationMetrics.create_from(cm)]
            ['a', 'b', 'c']
        """
        if not isinstance(confusion_matrix, ConfusionMatrix):
            raise InvalidTypeError(f"'confusion_matrix' must be a ConfusionMatrix, got {show(confusion_matrix)}")
        if confusion_matrix.get_class_count() == 2 and not all_classes:
            return [cls(confusion_matrix)]
        cells = {name: values.tolist() for name, values in confusion_matrix.cells().counts().items()}  # Python numbers
        return [
            cls._build(
                **{name: values[k] for name, values in cells.items()},
                class_label=label,
                class_idx=k,
                confusion_matrix=confusion_matrix,
            )
            for k, label in enumerate(confusion_matrix.labels)
        ]

    @classmethod
    def average(cls, results: Iterable[ClassificationMetrics], *, undefined: Any = "exclude") -> _stats.Stats:
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
        names = [name for name in type(results[0])._metric_table() if name in common]
        getters = {name: f"get_{name}" for name in names}
        return Stats.lazily(names, lambda name: [getattr(result, getters[name])() for result in results], undefined=undefined)

    @classmethod
    def metric_names(cls) -> tuple[str, ...]:
        """The metrics of this class: every no-argument ``get_*`` method not in
        ``NON_METRIC_GETTERS``, named without ``get_``, base-class getters first.

        Found once per class and kept on the class itself (``_metric_table``), so every
        subclass finds its own getters, added ones included.
        """
        return tuple(cls._metric_table())

    @classmethod
    def _metric_table(cls) -> dict[str, _MetricLine]:
        """``{metric name: _MetricLine}`` of this class, found once per class.

        A getter of this base class is its measure on the four counts (``_value``; a test
        checks every one), so where a subclass keeps it, ``str`` and ``to_dict`` read the
        measure's scalar path directly; an overridden or added getter is always called.
        """
        table = cls.__dict__.get("_metric_lines")  # this class's own, never a base class's
        if table is None:
            names: dict[str, None] = {}
            for klass in reversed(cls.__mro__):
                for attribute, value in vars(klass).items():
                    if attribute.startswith("get_") and attribute not in cls.NON_METRIC_GETTERS and _takes_no_arguments(value):
                        names[attribute[4:]] = None
            own_value = cls._value is ClassificationMetrics._value
            table = {}
            for name in names:
                getter = f"get_{name}"
                title, description = _describe_metric(cls, name)
                inherited = own_value and name in formulas.MEASURES and getattr(cls, getter) is vars(ClassificationMetrics).get(getter)
                direct = getattr(formulas.MEASURES[name].function, "scalar", None) if inherited else None
                table[name] = _MetricLine(getter, title, f" ({description})" if description else "", direct)
            cls._metric_lines = table  # type: ignore[attr-defined]  # a cache set on the class itself
            directs = [line.direct for line in table.values()]
            cls._all_direct = tuple(directs) if all(directs) else None  # type: ignore[attr-defined]
        return table

    def _metric_values(self) -> list[Any]:
        """Every metric's value, as its getter returns it, in table order (floats when every
        getter is the base class's own)."""
        table = self._metric_table()
        tp, fp, fn, tn = self._tp, self._fp, self._fn, self._tn
        directs = type(self).__dict__["_all_direct"]
        if directs is not None:
            return [direct(tp, fp, fn, tn) for direct in directs]
        return [line.direct(tp, fp, fn, tn) if line.direct else getattr(self, line.getter)() for line in table.values()]

    @classmethod
    def _text_layout(cls) -> str:
        """The metric lines of ``str`` as one ``%`` format, ``%.6g`` per value (made once per class)."""
        layout = cls.__dict__.get("_metric_text")
        if layout is None:
            escaped = ((line.title.replace("%", "%%"), line.description.replace("%", "%%")) for line in cls._metric_table().values())
            layout = "\n".join(f"{title}: %.6g{description}" for title, description in escaped)
            cls._metric_text = layout  # type: ignore[attr-defined]  # a cache set on the class itself
        return layout

    @classmethod
    def as_measure(cls, name: str) -> formulas.Measure:
        """The getter ``get_<name>`` of this class as a measure that averages can use.

        It evaluates one object per entry (class or sample), so it is slower than a
        registered vectorised formula; register one (``evalkit.formulas.register``) for
        large per-sample averages.
        """
        if name not in cls._metric_table():
            raise UnknownMetricError(f"{cls.__name__} has no metric {name!r}; its metrics: {', '.join(cls.metric_names())}")

        def function(*, tp: Any, fp: Any, fn: Any, tn: Any) -> Any:
            arrays = np.broadcast_arrays(*(np.asarray(count, dtype=np.float64) for count in (tp, fp, fn, tn)))
            values = [
                getattr(cls.from_counts(tp=a, fp=b, fn=c, tn=d), f"get_{name}")()
                for a, b, c, d in zip(*(array.ravel().tolist() for array in arrays))
            ]
            result = np.array(values, dtype=np.float64).reshape(arrays[0].shape)
            return float(result) if result.ndim == 0 else result

        return formulas.Measure(name=name, function=function, title=cls._metric_table()[name].title, description=_describe_metric(cls, name)[1])

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

    def get_confusion_matrix(self) -> ConfusionMatrix | None:
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

    def _counts(self) -> dict[str, Any]:
        return {"tp": self._tp, "fp": self._fp, "fn": self._fn, "tn": self._tn}

    def _value(self, measure: Any, **parameters: Any) -> float:
        """A measure of these counts, by the scalar path of its one definition (the counts are
        Python numbers: exact integer arithmetic, about a microsecond)."""
        return measure.scalar(self._tp, self._fp, self._fn, self._tn, **parameters)

    def interval(self, measure: Any, *, level: float = 0.95, method: str = "bca", n_resamples: int = 2000,
                 random_state: Any = None, **parameters: Any) -> Any:  # fmt: skip
        """A confidence interval of one of this class's measures (any registered name, or a getter
        of this class): ``"wilson"`` or ``"clopper-pearson"`` for proportions (recall,
        precision, specificity, ...), or the bootstrap (``"bca"``, ``"percentile"``) of the
        four cells' multinomial. See ``evalkit.intervals``.

        Examples:
            >>> from evalkit import ClassificationMetrics
            >>> print(ClassificationMetrics.from_counts(tp=45, fp=10, fn=5, tn=40).interval("recall", method="wilson"))
            0.9 [0.7864, 0.9565] (95% wilson)
        """
        from evalkit.intervals import cells_interval  # intervals sit above the objects

        return cells_interval(self._tp, self._fp, self._fn, self._tn, measure, level=level, method=method, n_resamples=n_resamples,
                              random_state=random_state, metrics_class=type(self), **parameters)  # fmt: skip

    def positive_frequency(self) -> float:
        """How often the class actually occurs: (tp + fn) / total (Java's ``positiveFreqency``)."""
        return self._value(formulas.prevalence)

    def negative_frequency(self) -> float:
        """How often other classes actually occur: (tn + fp) / total, the prevalence of the negative side."""
        return formulas.prevalence.scalar(self._tn, self._fn, self._fp, self._tp)

    # ----------------------------------------------------------------------------------------
    # metrics: one line each over the formula layer (NaN when undefined)

    def get_accuracy(self) -> float:
        """Accuracy: (tp + tn) / total."""
        return self._value(formulas.accuracy)

    def get_error_rate(self) -> float:
        """Error rate: (fp + fn) / total."""
        return self._value(formulas.error_rate)

    def get_precision(self) -> float:
        """Precision (PPV): tp / (tp + fp)."""
        return self._value(formulas.precision)

    def get_recall(self) -> float:
        """Recall (sensitivity, TPR): tp / (tp + fn)."""
        return self._value(formulas.recall)

    def get_specificity(self) -> float:
        """Specificity (TNR): tn / (tn + fp)."""
        return self._value(formulas.specificity)

    def get_negative_predictive_value(self) -> float:
        """Negative predictive value: tn / (tn + fn)."""
        return self._value(formulas.negative_predictive_value)

    def get_false_positive_rate(self) -> float:
        """False positive rate (fall-out): fp / (fp + tn)."""
        return self._value(formulas.false_positive_rate)

    def get_false_negative_rate(self) -> float:
        """False negative rate (miss rate): fn / (fn + tp)."""
        return self._value(formulas.false_negative_rate)

    def get_false_discovery_rate(self) -> float:
        """False discovery rate: fp / (fp + tp)."""
        return self._value(formulas.false_discovery_rate)

    def get_false_omission_rate(self) -> float:
        """False omission rate: fn / (fn + tn)."""
        return self._value(formulas.false_omission_rate)

    def get_f1_score(self) -> float:
        """F1 score: 2 tp / (2 tp + fp + fn)."""
        return self._value(formulas.f1_score)

    def get_f_score(self, beta: float) -> float:
        """F-beta score for any beta > 0: (1 + b²) tp / ((1 + b²) tp + b² fn + fp)."""
        return self._value(formulas.f_score, beta=beta)

    def get_jaccard_index(self) -> float:
        """Jaccard index (IoU): tp / (tp + fp + fn)."""
        return self._value(formulas.jaccard_index)

    def get_balanced_accuracy(self) -> float:
        """Balanced accuracy: (recall + specificity) / 2."""
        return self._value(formulas.balanced_accuracy)

    def get_g_mean(self) -> float:
        """G-mean: sqrt(recall * specificity)."""
        return self._value(formulas.g_mean)

    def get_informedness(self) -> float:
        """Informedness (Youden's J): recall + specificity - 1."""
        return self._value(formulas.informedness)

    def get_markedness(self) -> float:
        """Markedness: precision + NPV - 1."""
        return self._value(formulas.markedness)

    def get_matthews_correlation_coefficient(self) -> float:
        """Matthews correlation coefficient: (tp tn - fp fn) / sqrt of the four margins' product."""
        return self._value(formulas.matthews_correlation_coefficient)

    def get_cohen_kappa(self) -> float:
        """Cohen's kappa of the two-class table of this class."""
        return self._value(formulas.cohen_kappa)

    def get_fowlkes_mallows_index(self) -> float:
        """Fowlkes-Mallows index: sqrt(precision * recall)."""
        return self._value(formulas.fowlkes_mallows_index)

    def get_prevalence(self) -> float:
        """Prevalence: (tp + fn) / total."""
        return self._value(formulas.prevalence)

    # ----------------------------------------------------------------------------------------
    # string keys, dict and text

    def _getter(self, name: str) -> Any:
        key = metric_key(name)
        if key in self._metric_table() or f"get_{key}" in self.NON_METRIC_GETTERS - {"get_confusion_matrix"}:
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
            raise UnknownMetricError(formulas.unknown_name_message("metric", name, self.names()))
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
        return [*_COUNT_TEXT, "total", *self.metric_names(), *self._values]

    def to_dict(self) -> dict[str, Any]:
        """Label, index, counts and every metric (NaN where undefined), then stored extras."""
        result: dict[str, Any] = {"class_label": self._class_label, "class_idx": self._class_idx}
        result.update({name: getattr(self, f"get_{name}")() for name in [*_COUNT_TEXT, "total"]})
        result.update(zip(self._metric_table(), self._metric_values()))
        result.update(self._values)
        return result

    def __str__(self) -> str:
        """The Java layout: ``Class: …``, ``Total items: …``, the counts, then one line per metric."""
        counts = [format_number(getattr(self, getter)()) for getter in _COUNT_GETTERS]
        lines = [_HEAD_LAYOUT % (self._class_label, *counts)]
        values = self._metric_values()
        floats = type(self).__dict__["_all_direct"] is not None or set(map(type, values)) == {float}
        if floats and _no_nan(values):  # the usual case: every line in one C-level format
            lines.append(self._text_layout() % tuple(values))
        else:
            lines.extend(f"{line.title}: {format_number(value)}{line.description}" for line, value in zip(self._metric_table().values(), values))
        lines.extend(f"{name}: {format_number(value)}" for name, value in self._values.items())
        return "\n".join(lines)

    def to_json(self) -> str:
        """The counts, label, index and stored extras as an evalkit JSON document (not the matrix)."""
        payload = {
            "class": type(self).__name__,
            "class_label": self._class_label,
            "class_idx": self._class_idx,
            "counts": self._counts(),
            "values": {name: None if math.isnan(value) else value for name, value in self._values.items()},
        }
        return serialization.dumps("ClassificationMetrics", payload)

    @classmethod
    def from_json(cls, text: str | bytes) -> ClassificationMetrics:
        """Read metrics written by ``to_json`` (as an instance of ``cls``).

        Raises:
            FormatError: the text is no valid ClassificationMetrics document.
        """
        document = serialization.loads(text, "ClassificationMetrics")
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

    def __repr__(self) -> str:
        counts = ", ".join(f"{name}={value!r}" for name, value in self._counts().items())
        return f"{type(self).__name__}(class_label={self._class_label!r}, {counts})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ClassificationMetrics):
            return NotImplemented
        return (
            type(self) is type(other)
            and self._counts() == other._counts()
            and self._class_label == other._class_label
            and self._class_idx == other._class_idx
            and serialization.same_json(self._values, other._values)
        )

    __hash__ = None  # type: ignore[assignment]  # the label can be changed


def _no_nan(values: list[float]) -> bool:
    """Whether no value is NaN (``str`` spells NaN out as undefined)."""
    try:
        return not math.isnan(math.fsum(values))
    except (OverflowError, ValueError):  # infinities of both signs: look one by one
        return not any(math.isnan(value) for value in values)


def _takes_no_arguments(value: object) -> bool:
    if not inspect.isfunction(value):
        return False
    parameters = list(inspect.signature(value).parameters.values())[1:]
    return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in parameters)


def _describe_metric(cls: type, name: str) -> tuple[str, str]:
    """Title (with abbreviation) and description of a metric, from the registry or the getter."""
    measure = formulas.MEASURES.get(name)
    if measure is not None:
        title = f"{measure.title} ({measure.abbreviation})" if measure.abbreviation else measure.title
        return title, measure.description
    doc = inspect.getdoc(getattr(cls, f"get_{name}")) or ""
    return name.replace("_", " ").capitalize(), doc.split("\n", 1)[0]
