"""CellsResult: the base of every classification result held as per-class and per-sample cells.

``ConfusionMatrix``, ``Evaluation`` and the cells of a curve at a threshold
(``ThresholdCells``) derive from it, so what every result answers is written once: any
measure per class (``per_class``) and averaged (``average``), the Java-style objects of its
classes (``class_metrics``), whole-result kappa, MCC and balanced accuracy, and confidence
intervals (``interval``).

A result remembers its **metrics class** (``ClassificationMetrics`` or a subclass): a measure
name is looked up there, so a subclass's getter, and its override of a built-in getter, is
the measure everywhere the result is used; ``metrics_class=`` on a call wins.

A subclass provides ``labels``, ``class_cells`` (``σm``), ``sample_cells`` (``σn``,
weighted rows), ``n_samples``, ``metrics_class``, ``whole_measures``,
``confusion_matrix`` and ``pair_counts``; a class that lacks one is refused when it is
defined, not when a report first needs it.

Examples:
    >>> from evalkit import ConfusionMatrix, Evaluation
    >>> isinstance(ConfusionMatrix([0, 1]), CellsResult), issubclass(Evaluation, CellsResult)
    (True, True)
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, cast

import attrs
import numpy as np

from evalkit._engine._labels import check_label_list, label_position
from evalkit._engine._pair_counts import PairCounts
from evalkit._engine._validation import RandomState, check_choice
from evalkit._engine.cells import Cells
from evalkit._results._closed_form import _proportion
from evalkit._results._sequences import DEFAULT_TUNING
from evalkit._results.intervals import (
    KINDS_METHODS,
    LOG_MEASURES,
    WHOLE_MEASURES,
    Interval,
    binomial_interval,
    check_method,
    kappa_interval,
    log_ratio_interval,
    pairs_interval,
    proportion_interval,
    rows_interval,
    sequence_method,
)
from evalkit.exceptions import InvalidArgumentError, InvalidTypeError, UnsupportedSettingError
from evalkit.measures._arithmetic import difference
from evalkit.measures._averaging import (
    AVERAGES,
    Averaged,
    UndefinedPolicy,
    average_cells,
    check_undefined,
    fill_undefined,
    mean_of_numbers,
    ratio,
)
from evalkit.measures._formulas import margins_cohen_kappa, margins_matthews_correlation_coefficient, pairs_cohen_kappa
from evalkit.measures._metrics_class import MetricsClass, check_metrics_class, metrics_class_for
from evalkit.measures._registry import Measure, MeasureLike, check_measure_parameters, get_measure, resolve_measure

if TYPE_CHECKING:
    from typing_extensions import Self  # typing.Self of Python 3.11, for type checkers only

__all__ = ["REQUIRED_MEMBERS", "CellsResult"]

REQUIRED_MEMBERS = (
    "labels",
    "class_cells",
    "sample_cells",
    "n_samples",
    "metrics_class",
    "whole_measures",
    "confusion_matrix",
    "pair_counts",
)
"""What a subclass of ``CellsResult`` must define (a method, a property or an attrs field)."""


def _defines(cls: type, name: str) -> bool:
    """Whether a class other than CellsResult in ``cls``'s hierarchy defines ``name`` (attrs
    fields are annotations before attrs turns them into slots)."""
    for klass in cls.__mro__:
        if klass is CellsResult or klass is object:
            continue
        if name in vars(klass) or name in vars(klass).get("__annotations__", {}):
            return True
    return False


class CellsResult:
    """Any classification result held as per-class and per-sample cells: the one averaging face
    (see the module docstring)."""

    __slots__ = ()

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        missing = [name for name in REQUIRED_MEMBERS if not _defines(cls, name)]
        if missing:
            raise InvalidTypeError(f"{cls.__name__} derives from CellsResult but does not define {', '.join(missing)}")

    if TYPE_CHECKING:  # what a subclass defines (declared for type checkers; __init_subclass__ checks them)

        @property
        def labels(self) -> tuple:
            """The class labels."""

        @property
        def class_cells(self) -> Cells:
            """Per-class one-vs-rest cells ``σm``."""

        @property
        def sample_cells(self) -> Cells:
            """Per-sample cells ``σn``, each row weighted by how much its samples count."""

        @property
        def n_samples(self) -> float:
            """How many samples were evaluated (the sum of their weights, when weighted)."""

        @property
        def metrics_class(self) -> MetricsClass:
            """The metrics class whose getters are the result's measures."""

    def whole_measures(self) -> dict[str, float]:
        """The measures of the whole result that the data support (for reports)."""
        raise NotImplementedError  # pragma: no cover - every subclass defines it (checked at class definition)

    def confusion_matrix(self) -> Any:  # a ConfusionMatrix (evalkit._results.confusion_matrix, built on this module)
        """The confusion matrix (single-label data)."""
        raise NotImplementedError  # pragma: no cover - as above

    def pair_counts(self) -> PairCounts:
        """The (actual, predicted) pair counts of single-label data (a sparse confusion matrix).

        Raises:
            UnsupportedSettingError: the data are not single-label (or ordinal).
        """
        raise NotImplementedError  # pragma: no cover - as above

    def report_averages(self) -> tuple[str, ...]:
        """The averages a report shows for this kind of result."""
        return ("micro", "macro", "weighted")

    # ----------------------------------------------------------------------------------------
    # measures by name

    def measure(self, measure: MeasureLike, metrics_class: type[Any] | None = None) -> Measure:
        """The measure a name stands for here: a getter, an override or a registered measure of
        ``metrics_class``, or of the result's own metrics class; a ``Measure`` or a function
        as given.

        Raises:
            UnknownMetricError: an unknown name (the message names the metrics class searched).

        Examples:
            >>> from evalkit import ConfusionMatrix
            >>> ConfusionMatrix([0, 1]).measure("fpr").direction
            'lower'
        """
        return resolve_measure(measure, metrics_class_for(metrics_class, self.metrics_class))

    def with_metrics_class(self, metrics_class: type[Any]) -> Self:
        """The same result (the same counts) with another metrics class: its getters and
        overrides become the measures by name.

        Examples:
            >>> from evalkit import ClassificationMetrics, Evaluation
            >>> class Halved(ClassificationMetrics):
            ...     def get_recall(self):
            ...         return super().get_recall() / 2
            >>> ev = Evaluation.from_labels([0, 1, 1], [0, 1, 0])
            >>> ev.average("recall"), ev.with_metrics_class(Halved).average("recall")
            (0.75, 0.375)
        """
        return attrs.evolve(cast(Any, self), metrics_class=check_metrics_class(metrics_class))  # the attrs results; ConfusionMatrix overrides

    # ----------------------------------------------------------------------------------------
    # whole-result measures of single-label data, from the pair counts

    def get_cohen_kappa(self, weights: str | None = None) -> float:
        """Cohen's kappa of the whole confusion matrix; ``weights="linear"`` or ``"quadratic"``
        weigh a disagreement by its distance in label order (ordered classes). Exact to rounding
        for integer counts; NaN when the expected disagreement is 0.

        Examples:
            >>> from evalkit import ConfusionMatrix
            >>> cm = ConfusionMatrix.from_array([[5, 2, 0], [1, 6, 1], [0, 2, 4]])
            >>> round(cm.get_cohen_kappa(), 4), round(cm.get_cohen_kappa("quadratic"), 4)
            (0.564, 0.749)
        """
        if weights is None:
            return float(margins_cohen_kappa(**self._ratio_margins()))
        pairs = self.pair_counts()
        return pairs_cohen_kappa(pairs.actual, pairs.predicted, pairs.counts, pairs.size, weights=weights)

    def get_kappa_m(self) -> float:
        """Kappa-M (Bifet et al. 2015; MOA's kappa M): accuracy measured against the classifier
        that always predicts the majority class, ``(p_0 - p_m) / (1 - p_m)`` with ``p_m`` the
        largest class's share of the actual labels, that is ``(correct - n_m) / (n - n_m)``.
        0 for the majority classifier, negative below it (where Cohen's kappa can still look
        good on an imbalanced stream); NaN when every sample is of one class.

        Examples:
            >>> from evalkit import ConfusionMatrix
            >>> round(ConfusionMatrix.from_array([[5, 2, 0], [1, 6, 1], [0, 2, 4]]).get_kappa_m(), 4)  # (15 - 8) / (21 - 8)
            0.5385
        """
        margins = self._ratio_margins()  # (n - n_m of weights of 1e16 and 1: exact)
        largest = max(np.asarray(margins["actual"]).tolist(), default=0)
        return float(ratio(difference(margins["correct"], largest), difference(margins["total"], largest)))

    def get_matthews_correlation_coefficient(self) -> float:
        """Multi-class MCC of the whole confusion matrix (Gorodkin's R_K), exact to rounding;
        NaN when undefined (see ``evalkit.formulas.margins_matthews_correlation_coefficient``)."""
        return float(margins_matthews_correlation_coefficient(**self._ratio_margins()))

    def _ratio_margins(self) -> dict[str, Any]:
        """``correct``, ``total`` and the ``actual`` and ``predicted`` sums that kappa and MCC
        read: exact sums where their differences would cancel (``PairCounts.ratio_margins``)."""
        return self.pair_counts().ratio_margins()

    def get_balanced_accuracy(self, adjusted: bool = False) -> float:
        """Balanced accuracy of the whole result: the mean recall over the classes that occur
        (scikit-learn's ``balanced_accuracy_score``); with ``adjusted=True`` rescaled so that
        chance scores 0 and perfection 1: ``(score - 1/k) / (1 - 1/k)`` over ``k`` classes.

        For two classes it is the binary balanced accuracy ``(recall + specificity) / 2``; for
        more it differs from ``average("balanced_accuracy", "macro")``, the mean of the
        one-vs-rest values. A measure of the whole result: a metrics class's getters do not
        change it.

        Examples:
            >>> from evalkit import ConfusionMatrix
            >>> cm = ConfusionMatrix.from_array([[3, 1], [0, 0]])   # class 1 never occurs: left out
            >>> cm.get_balanced_accuracy()
            0.75
        """
        mean = mean_of_numbers(self.per_class(get_measure("recall")).tolist())  # the mean of the defined recalls, the sum correctly rounded
        if not mean.n_defined:
            return math.nan
        score = float(mean)
        if adjusted:
            chance = 1 / mean.n_defined
            score = (score - chance) / (1 - chance) if chance < 1 else math.nan
        return score

    def class_metrics(self, metrics_class: type[Any] | None = None) -> list:
        """One metrics object per class (of ``metrics_class``, or of the result's own), labelled."""
        maker = metrics_class_for(metrics_class, self.metrics_class)
        cells = self.class_cells
        return [
            maker.from_counts(tp=cells.tp[k], fp=cells.fp[k], fn=cells.fn[k], tn=cells.tn[k], class_label=label)
            for k, label in enumerate(self.labels)
        ]

    # ----------------------------------------------------------------------------------------
    # any measure per class and averaged

    def cells_of(self, labels: Sequence[Hashable] | None = None) -> Cells:
        """The class cells of ``labels``, in that order (scikit-learn's label subsets): a label
        the result lacks has no positives (``tp = fp = fn = 0``, every sample a true negative).

        Examples:
            >>> from evalkit import ConfusionMatrix
            >>> ConfusionMatrix.from_array([[2, 1], [0, 3]], ["a", "b"]).cells_of(["b", "z"]).counts()["tn"].tolist()
            [2, 6]
        """
        cells = self.class_cells
        if labels is None:
            return cells
        chosen = check_label_list(labels, "labels")
        if not chosen:
            raise InvalidArgumentError("'labels' is empty: there is no class to average")
        index = {label: position for position, label in enumerate(self.labels)}
        positions = np.array([index.get(label, len(self.labels)) for label in chosen], dtype=np.intp)
        total = self.n_samples
        rows = [np.append(row, fill) for row, fill in zip(cells.rows(), (0, 0, 0, total))]
        return Cells(*(row[positions] for row in rows))

    def per_class(
        self, measure: MeasureLike, *, labels: Sequence[Hashable] | None = None, undefined: UndefinedPolicy = "exclude", metrics_class: type[Any] | None = None, **parameters: Any
    ) -> np.ndarray:
        """The one-vs-rest value of ``measure`` for every class, in label order: NaN where
        undefined, or 0 or 1 under ``undefined="zero"`` / ``"one"`` (the convention of Weka,
        Tribuo and scikit-learn's ``zero_division``).

        Args:
            measure: a measure name (``"precision"``, ``"f_score"``, an alias such as
                ``"sensitivity"``; any spelling: ``"F1"``, ``"f1-score"``), a getter of the
                metrics class, a ``Measure``, or a vectorised function of ``tp, fp, fn, tn``.
            labels: the classes, in the order wanted (default: every class). A label the
                result does not have counts no positives.
            undefined: ``"exclude"`` or ``"nan"`` (default: undefined values are NaN),
                ``"zero"`` or ``"one"`` (they are 0 or 1).
            metrics_class: a ``ClassificationMetrics`` subclass to look names up in, instead
                of the result's own.
            **parameters: parameters of the measure (``beta=2`` for ``"f_score"``).

        Examples:
            >>> from evalkit import ConfusionMatrix
            >>> cm = ConfusionMatrix.from_array([[50, 10], [5, 35]], ["negative", "positive"])
            >>> cm.per_class("recall")
            array([0.83333333, 0.875     ])
            >>> ConfusionMatrix.from_array([[3, 0], [1, 0]]).per_class("precision", undefined="zero")
            array([0.75, 0.  ])
        """
        resolved = self.measure(measure, metrics_class)
        check_measure_parameters(resolved, parameters)
        return fill_undefined(self._class_values(resolved, parameters, labels), undefined)

    def _class_values(self, measure: Measure, parameters: dict[str, Any], labels: Sequence[Hashable] | None) -> np.ndarray:
        """The value of ``measure`` for each class of ``labels`` (NaN where undefined): from the
        cells, unless a kind reads them faster."""
        return np.asarray(self.cells_of(labels).evaluate(measure, **parameters))

    def average(
        self,
        measure: MeasureLike,
        average: str = "macro",
        *,
        undefined: UndefinedPolicy = "exclude",
        labels: Sequence[Hashable] | None = None,
        metrics_class: type[Any] | None = None,
        **parameters: Any,
    ) -> Averaged:
        """Average a binary measure: ``"micro"``, ``"macro"``, ``"weighted"`` or ``"samples"``.

        ``"micro"`` applies the measure to the summed cells; ``"macro"`` is the mean of the
        per-class values; ``"weighted"`` weights them by support (actual count);
        ``"samples"`` is the mean over samples of the per-sample value (for single-label
        data a correct sample has cells ``(1, 0, 0, m-1)``, a wrong one ``(0, 1, 1, m-2)``).
        With sample weights every sum and mean is weighted.

        Undefined values follow ``undefined`` (``"exclude"`` by default, or ``"zero"``,
        ``"one"``, ``"nan"``; see ``evalkit.measures._averaging``). The result is a float that also
        carries ``n_values`` and ``n_defined``.

        Args:
            measure: as for ``per_class``.
            average: ``"micro"``, ``"macro"``, ``"weighted"`` or ``"samples"``.
            undefined: the undefined-value policy.
            labels: average over these classes only (scikit-learn's ``labels``): every
                sample still counts, and a label the result lacks counts no positives. Not
                with ``"samples"``, whose per-sample cells span every class.
            metrics_class: as for ``per_class``.
            **parameters: parameters of the measure (``beta=2``).

        Examples:
            >>> from evalkit import ConfusionMatrix
            >>> cm = ConfusionMatrix.from_array([[3, 0, 0], [0, 0, 0], [1, 0, 2]])
            >>> macro = cm.average("precision")  # class 1 is never predicted: undefined
            >>> macro, macro.n_defined, macro.n_values
            (0.875, 2, 3)
            >>> cm.average("precision", "micro") == cm.get_accuracy()
            True
        """
        resolved = self.measure(measure, metrics_class)
        check_choice("average", average, AVERAGES)  # (before it is compared with a name)
        per_sample = self.sample_cells if average == "samples" else None
        if average == "samples" and labels is not None and set(labels) != set(self.labels):
            raise UnsupportedSettingError(
                "average='samples' over a subset of the labels needs per-sample cells of that subset: "
                "evaluate those columns (Evaluation.from_indicators on them, or evalkit.metrics with labels=)"
            )
        return average_cells(resolved, self.cells_of(labels), average, undefined=undefined, per_sample=per_sample, parameters=parameters)

    # ----------------------------------------------------------------------------------------
    # confidence intervals

    def interval(
        self, measure: MeasureLike, average: str | None = None, *, label: Hashable | None = None, level: float = 0.95, method: str | None = None,
        n_resamples: int = 2000, random_state: RandomState = None, stratify: bool = False, undefined: UndefinedPolicy = "exclude",
        metrics_class: type[Any] | None = None, anytime: bool = False, tuning: float = DEFAULT_TUNING, **parameters: Any,
    ) -> Interval:  # fmt: skip
        """A confidence interval of a measure: of the whole result (``"accuracy"``,
        ``"cohen_kappa"``, ``"matthews_correlation_coefficient"`` with neither ``average`` nor
        ``label``), of one class (``label=``), or of an average (``average=``).

        Args:
            measure: a measure name (any spelling), a getter of the metrics class, or a ``Measure``.
            average: ``"micro"``, ``"macro"``, ``"weighted"`` or ``"samples"``.
            label: one class.
            level: the confidence level (0.95).
            method: ``"bca"`` (default) or ``"percentile"`` (the bootstrap, for every measure
                and average); ``"wilson"`` or ``"clopper-pearson"`` (proportions: the whole
                accuracy, one class, or a micro average); ``"asymptotic"`` (Cohen's kappa).
                With ``anytime=True``: ``"beta-binomial"`` (proportions, exact: the default for
                them) or ``"asymptotic"`` (every measure and average: the default for the rest).
            n_resamples: bootstrap resamples (2000).
            random_state: a seed or ``numpy.random.Generator``: the same seed, the same interval.
            stratify: keep every actual class's size in each resample (single-label data).
            undefined: the undefined-value policy of averages (per resample, too).
            metrics_class: a ``ClassificationMetrics`` subclass to look names up in, instead
                of the result's own.
            anytime: a confidence sequence: bounds that hold at every sample size at once,
                so that a stream may read them after every batch and still miss the true value
                with probability at most ``1 - level`` over the whole stream (a fixed-n
                interval read so misses far more often). Needs whole counts (no weights).
            tuning: with ``anytime``, the number of samples where the sequence is narrowest
                (3,000: within 1.8 times the fixed-n width from 1,000 to 100,000 samples). Fix
                it before the data are seen.
            **parameters: of the measure (``beta=2``).

        Returns:
            An ``evalkit.Interval`` (``estimate``, ``low``, ``high``, ``level``, ``method``,
            ``anytime``).

        Raises:
            InvalidArgumentError: a whole-result measure asked for by a name whose getter the
                metrics class overrides (a getter is a measure of one class: give ``average``
                or ``label``), or a method that does not apply.

        Examples:
            >>> from evalkit import ConfusionMatrix
            >>> cm = ConfusionMatrix.from_array([[40, 10], [5, 45]])
            >>> print(cm.interval("accuracy", method="clopper-pearson"))
            0.85 [0.7647, 0.9135] (95% clopper-pearson)
            >>> print(cm.interval("accuracy", anytime=True))
            0.85 [0.5846, 0.9646] (95% anytime beta-binomial)
        """
        method = check_method(method, anytime)
        if average is not None:
            check_choice("average", average, AVERAGES)
            if label is not None:
                raise InvalidArgumentError("give 'label' (one class) or 'average' (over all classes), not both")
        resolved = self.measure(measure, metrics_class)
        check_measure_parameters(resolved, parameters)
        policy = check_undefined(undefined)
        try:
            pairs: PairCounts | None = self.pair_counts()  # single-label data: kinds are (actual, predicted) pairs
        except UnsupportedSettingError:
            pairs = None
        whole = average is None and label is None
        if whole:
            self._check_whole(measure, resolved, pairs is not None)
        position = None if label is None else label_position(self.labels, label)
        if anytime:  # a proportion's exact sequence by default, the asymptotic one of the rest (from the bootstrap's kinds)
            method = sequence_method(method, self._sample_trials(resolved, whole, average, parameters), resolved.name if average in (None, "micro") else f"the {average} {resolved.name}")
        method = cast(str, method)
        estimate = float(
            self._whole_value(resolved.name) if whole
            else self.per_class(resolved, **parameters)[position] if position is not None
            else self.average(resolved, average or "macro", undefined=policy, **parameters)
        )  # fmt: skip
        if method in KINDS_METHODS:
            if pairs is not None:
                found = pairs_interval(pairs, len(self.labels), resolved, estimate, average=average, position=position, level=level,
                                       method=method, n_resamples=n_resamples, random_state=random_state, stratify=stratify,
                                       undefined=policy, parameters=parameters, tuning=tuning)  # fmt: skip
            else:
                self._check_rows(position, average)
                found = rows_interval(self.sample_cells, resolved, average or "micro", estimate, level=level, method=method,
                                      n_resamples=n_resamples, random_state=random_state, undefined=policy, parameters=parameters, tuning=tuning)  # fmt: skip
            return found.within(resolved.bounds) if anytime else found
        if method == "asymptotic":
            if resolved.name != "cohen_kappa" or not whole:
                raise InvalidArgumentError("method='asymptotic' is the interval of Cohen's kappa of the whole result")
            return kappa_interval(self.confusion_matrix().to_array(), estimate, level=level)
        if method == "delong":
            raise InvalidArgumentError("method='delong' is for ROC AUC: ThresholdCurve.interval('roc_auc', method='delong')")
        if method == "log":
            if whole or average not in (None, "micro") or resolved.name not in LOG_MEASURES:
                raise InvalidArgumentError(f"method='log' is the interval of {', '.join(LOG_MEASURES)} of one class (label=) "
                                           "or of the micro average: use 'bca' otherwise")  # fmt: skip
            cells = self.class_cells if position is None else self.class_cells[position : position + 1]
            total = cells.total()
            tp, fp, fn, tn = (float(np.sum(getattr(total, name))) for name in ("tp", "fp", "fn", "tn"))
            return log_ratio_interval(tp, fp, fn, tn, resolved.name, estimate, level=level)
        if whole:  # the whole accuracy: the share of samples on the diagonal
            if resolved.name != "accuracy":
                raise InvalidArgumentError(f"method={method!r} is for proportions; {resolved.name!r} is none: use 'bca' or 'percentile'")
            margins = self.pair_counts().margins()
            return binomial_interval(margins["correct"], margins["total"], estimate, level=level, method=method, tuning=tuning)
        if pairs is None and position is not None:
            self._check_rows(position, average)
        if average not in (None, "micro"):
            raise InvalidArgumentError(f"method={method!r} has a closed form for one class or the micro average, not {average!r}: use 'bca'")
        cells = self.class_cells if position is None else self.class_cells[position : position + 1]
        return proportion_interval(resolved, cells.total(), estimate, level=level, method=method, parameters=parameters, tuning=tuning)

    def _sample_trials(self, resolved: Measure, whole: bool, average: str | None, parameters: dict[str, Any]) -> bool:
        """Whether a measure is a proportion whose trials are samples, each at most one (the
        beta-binomial sequence's Bernoulli trials): the whole accuracy, a measure of one class,
        or a micro average where no sample adds two trials (one per label of a multi-label
        sample would be trials that are not independent)."""
        if whole:
            return resolved.name == "accuracy"
        coefficients = _proportion(resolved, parameters)
        if coefficients is None or average not in (None, "micro"):
            return False
        if average is None:  # one class: each sample is one of its four cells
            return True
        try:  # a micro average of single-label data: a sample's cells are (1, 0, 0, m-1) or (0, 1, 1, m-2), whatever the data
            self.pair_counts()
        except UnsupportedSettingError:  # multi-label or soft: a sample adds a trial per label (decided by the setting, never by the rows so far)
            return False
        m = len(self.labels)
        return bool(np.all(np.array([[1, 0, 0, m - 1], [0, 1, 1, m - 2]]) @ np.asarray(coefficients[1], dtype=np.float64) <= 1))

    def _check_whole(self, asked: MeasureLike, resolved: Measure, single: bool) -> None:
        """A whole-result interval is of accuracy, kappa or MCC of single-label data, asked for by
        evalkit's own measure (a getter that overrides it is a measure of one class)."""
        if not single or resolved.name not in WHOLE_MEASURES:
            raise InvalidArgumentError(
                f"give an 'average' ({', '.join(AVERAGES)}) or a 'label' for {resolved.name!r}; without them only "
                f"{', '.join(WHOLE_MEASURES)} of a single-label result have a whole-result value"
            )
        if resolved.getter is not None:
            raise InvalidArgumentError(
                f"{asked!r} without 'average' or 'label' is the {resolved.name} of the whole result, which {resolved.getter} "
                f"(a measure of one class) does not define: give average= or label= to use the getter, "
                f"or evalkit.measures.get_measure({resolved.name!r}) for the whole result's"
            )

    def _whole_value(self, name: str) -> float:
        """Accuracy, Cohen's kappa or MCC of the whole (single-label) result, from its pair counts."""
        if name == "accuracy":
            margins = self.pair_counts().margins()
            return float(ratio(margins["correct"], margins["total"]))
        margins = self._ratio_margins()
        if name == "cohen_kappa":
            return float(margins_cohen_kappa(**margins))
        return float(margins_matthews_correlation_coefficient(**margins))

    def _check_rows(self, position: int | None, average: str | None) -> None:
        """Per-sample rows carry the micro cells and the example-based values only."""
        if position is not None or average in ("macro", "weighted"):
            setting = getattr(self, "setting", "this")
            raise UnsupportedSettingError(
                f"an interval of {'one class' if position is not None else f'{average} averages'} of {setting} data needs "
                "each sample's per-class cells, which an Evaluation does not keep: use average='micro' or 'samples', "
                "or evalkit.indicators_interval(y_true, y_pred, ...) on the indicator (or degree) arrays"
            )
