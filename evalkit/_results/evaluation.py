"""Evaluation: any classification result as indicator cells, every measure in every setting.

The unified algebraic framework (R. C. Prati, "A Unified Algebraic Framework for Classification
Performance Evaluation"): actual and
predicted results are ``n x m`` indicator matrices ``A`` and ``P`` (samples x labels), the
cells are ``TP = A∘P``, ``FP = Ā∘P``, ``FN = A∘P̄``, ``TN = Ā∘P̄``, and every binary measure
``M(tp, fp, fn, tn)`` extends through three sums: ``σ1`` (micro), ``σm`` (per class: macro,
weighted) and ``σn`` (per sample: the example-based ``"samples"`` average).

An ``Evaluation`` holds the per-class and per-sample cells, whatever the input; its ``from_*``
constructors, one per setting (labels, label sets, indicators, scores, soft degrees, ordinal
levels, hierarchies), live side by side in ``evalkit._results.constructors``.

Examples:
    >>> ev = Evaluation.from_label_sets([{"a", "b"}, {"c"}, set()], [{"a"}, {"c", "b"}, {"b"}])
    >>> ev.average("f1_score", "micro"), ev.average("f1_score", "samples", undefined="zero")
    (0.5714285714285714, 0.4444444444444444)
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, cast

import attrs
import numpy as np

from evalkit._engine import moved_names, serialization
from evalkit._engine._exact import difference
from evalkit._engine._labels import check_label_list, check_same_family, describe, label_tuple, label_union, same_labels
from evalkit._engine._pair_counts import PairCounts
from evalkit._engine._validation import as_array, check_choice, made_by_constructors, show
from evalkit._engine.cells import Cells
from evalkit._results._summed import SummedState
from evalkit._results.base import CellsResult
from evalkit._results.confusion_matrix import ConfusionMatrix
from evalkit._results.constructors import REJECTIONS, SETTINGS, SettingConstructors
from evalkit._results.counted import ALL_OPERATIONS
from evalkit._results.rendering import ReportFace
from evalkit._results.theory import MicroMacroGap, micro_macro_gap
from evalkit.exceptions import (
    CountOverflowError,
    InvalidArgumentError,
    LabelMismatchError,
    UnknownLabelError,
    UnsupportedSettingError,
)
from evalkit.measures._metrics_class import (
    MetricsClass,
    check_metrics_class,
    metrics_class_for,
)
from evalkit.measures._registry import MeasureLike, check_measure_parameters

__all__ = ["REJECTIONS", "SETTINGS", "Evaluation"]

DATA_SETTINGS = SETTINGS  # (within the class, SETTINGS declares its constructor's settings)


@made_by_constructors(
    "an Evaluation is made from a whole result, by Evaluation.from_labels(y_true, y_pred, labels=...) or another from_* "
    "constructor; to count batch by batch (DL4J's new Evaluation(nClasses) and eval), use ConfusionMatrix(labels) (labels=range(n) "
    "for class indexes) and its update(y_true, y_pred), evalkit.LabelSetCounts() for label sets, or add the evaluations "
    "of the batches (a + b)"
)
@attrs.frozen(eq=False)
class Evaluation(SummedState, SettingConstructors, CellsResult, ReportFace):
    """Per-class and per-sample cells of a classification result, and every average of every measure.

    Build it with one of the ``from_*`` constructors. Then:

    Averages and vectors:
        ``average`` (``"micro"``, ``"macro"``, ``"weighted"``, ``"samples"``),
        ``per_class``, ``per_sample``, ``total_cells``.
    Java-style objects:
        ``class_metrics``, ``sample_metrics`` (``ClassificationMetrics`` objects).
    Whole-result measures:
        ``get_accuracy`` (exact match), ``get_cohen_kappa``,
        ``get_matthews_correlation_coefficient``, ``confusion_matrix`` (single-label
        and ordinal data), ``coverage`` (selective rejection).
    Theory:
        ``micro_macro_gap``.

    Attributes:
        labels: the class (column) labels.
        class_cells: per-class cells ``σm``.
        sample_cells: per-sample cells ``σn`` with how much each sample counts (its
            ``weight``); single-label samples share five distinct rows through an ``index``.
            After ``compact`` one row per distinct kind of sample, weighted by how many
            samples it stands for.
        ordered: whether ``sample_cells`` lists the samples in order (False after ``compact``).
        setting: ``"single-label"``, ``"multi-label"``, ``"soft"``, ``"ordinal"`` or
            ``"hierarchical"``.
        confusion: the (actual, predicted) pair counts of single-label and ordinal data,
            kept sparse, over ``confusion_labels``; ``None`` otherwise.
        n_rejected: samples left out by selective rejection.
        metrics_class: the ``ClassificationMetrics`` class (or subclass) whose getters are
            this evaluation's measures (``metrics_class=`` of every constructor).
    """

    DOCUMENT = "Evaluation"
    SETTINGS, SUMS, METRICS_CLASS = ("labels", "setting", "confusion_labels"), ("_sums",), True
    LEFT_CHECKED = False  # (cells, samples and pairs each refuse a part never added)
    LABEL_SETTINGS = frozenset({"labels", "confusion_labels"})

    labels: tuple = attrs.field(converter=label_tuple)
    class_cells: Cells = attrs.field(repr=False)
    sample_cells: Cells = attrs.field(repr=False)
    setting: str = attrs.field(default="multi-label", validator=lambda _, __, value: check_choice("setting", value, DATA_SETTINGS))
    confusion: PairCounts | None = attrs.field(default=None, repr=False)
    confusion_labels: tuple | None = attrs.field(default=None, repr=False, converter=attrs.converters.optional(label_tuple))
    n_rejected: Any = 0  # a count, or a sum of sample weights
    ordered: bool = True
    metrics_class: MetricsClass = attrs.field(default=None, converter=check_metrics_class, repr=False)

    @classmethod
    def _empty_of(cls, **settings: object) -> Evaluation:
        """No sample counted over ``labels`` (and ``confusion_labels``, a sparse table of none)."""
        labels = label_tuple(cast(tuple, settings["labels"]))
        confusion_labels = None if settings["confusion_labels"] is None else label_tuple(cast(tuple, settings["confusion_labels"]))
        zeros, no_pair = np.zeros(len(labels), dtype=np.int64), np.zeros(0, dtype=np.int64)
        none = Cells(zeros, zeros, zeros, zeros)
        pairs = None if confusion_labels is None else PairCounts(no_pair, no_pair, no_pair, len(confusion_labels))
        return cls(labels, none, none[:0], cast(str, settings["setting"]), pairs, confusion_labels)

    @property
    def _sums(self) -> EvaluationSums:
        """The counts, the one field of ``SUMS``."""
        return EvaluationSums(self.class_cells, self.sample_cells, self.confusion, self.n_rejected, self.ordered, self.setting == "ordinal")

    @_sums.setter
    def _sums(self, sums: EvaluationSums) -> None:
        for name in ("class_cells", "sample_cells", "confusion", "n_rejected", "ordered"):  # (ordinal: the setting's)
            object.__setattr__(self, name, getattr(sums, name))

    @property
    def _metrics_class(self) -> MetricsClass:
        return self.metrics_class

    @_metrics_class.setter
    def _metrics_class(self, metrics_class: MetricsClass) -> None:
        object.__setattr__(self, "metrics_class", metrics_class)

    # ----------------------------------------------------------------------------------------
    # averages and vectors

    @property
    def n_samples(self) -> int:
        """The number of samples evaluated (after selective rejection)."""
        return self.sample_cells.total_weight()

    @property
    def coverage(self) -> float:
        """The share of samples kept: 1.0 unless selective rejection left some out."""
        total = self.n_samples + self.n_rejected
        return self.n_samples / total if total else float("nan")

    @property
    def total_cells(self) -> Cells:
        """The micro cells ``σ1`` (0-d)."""
        return self.class_cells.total()

    def _ordered(self, what: str) -> None:
        if not self.ordered:
            raise UnsupportedSettingError(f"{what} needs the samples in order; this evaluation was compacted")

    def per_sample(self, measure: MeasureLike, *, metrics_class: type[Any] | None = None, **parameters: Any) -> np.ndarray:
        """The value of ``measure`` for every sample (NaN where undefined)."""
        self._ordered("per_sample")
        resolved = self.measure(measure, metrics_class)
        check_measure_parameters(resolved, parameters)
        return np.asarray(self.sample_cells.evaluate(resolved, **parameters), dtype=np.float64)

    # ----------------------------------------------------------------------------------------
    # Java-style objects

    def sample_metrics(self, indices: Any = None, metrics_class: type[Any] | None = None) -> list:
        """One metrics object per sample (or for the samples at ``indices``), labelled by index."""
        self._ordered("sample_metrics")
        metrics_class = metrics_class_for(metrics_class, self.metrics_class)
        n = len(self.sample_cells)
        positions = np.arange(n) if indices is None else np.atleast_1d(as_array(indices, "indices"))
        if positions.ndim != 1 or positions.dtype.kind not in "iu" or (positions.size and not 0 <= positions.min() <= positions.max() < n):
            raise InvalidArgumentError(f"'indices' must be sample positions in 0..{n - 1} (negative ones never wrap), got {show(indices)}")
        cells = self.sample_cells[positions].entries()
        return [
            metrics_class.from_counts(tp=cells.tp[k], fp=cells.fp[k], fn=cells.fn[k], tn=cells.tn[k], class_label=int(i))
            for k, i in enumerate(positions)
        ]

    # ----------------------------------------------------------------------------------------
    # whole-result measures

    def get_accuracy(self) -> float:
        """Exact-match (subset) accuracy: the share of samples with no false positive and no
        false negative; for single-label data ``trace / n``. NaN with no samples.

        Raises:
            UnsupportedSettingError: soft data (an exact match of degrees is meaningless).
        """
        if self.setting == "soft":
            raise UnsupportedSettingError("exact-match accuracy is not defined for soft labels; use average('accuracy')")
        exact = (self.sample_cells.fp == 0) & (self.sample_cells.fn == 0)
        n = self.n_samples
        return self.sample_cells.sum_rows(exact) / n if n else float("nan")

    def report_averages(self) -> tuple[str, ...]:
        """Single-label and ordinal reports show micro, macro and weighted; the others also samples."""
        base = super().report_averages()
        return base if self.confusion is not None else (*base, "samples")

    def whole_measures(self) -> dict[str, float]:
        """What the data support: accuracy, Cohen's kappa and MCC of single-label (and ordinal)
        data; exact-match accuracy and Hamming loss of multi-label data; and the coverage of a
        selective rejection."""
        summary: dict[str, float] = {}
        if self.confusion is not None:
            summary = {
                "accuracy": self.get_accuracy(),
                "cohen_kappa": self.get_cohen_kappa(),
                "matthews_correlation_coefficient": self.get_matthews_correlation_coefficient(),
            }
        elif self.setting != "soft":
            summary = {"accuracy": self.get_accuracy(), "hamming_loss": float(self.average("error_rate", "micro"))}
        if self.n_rejected:
            summary["coverage"] = self.coverage
        return summary

    def _confusion(self, what: str) -> PairCounts:
        if self.confusion is None:
            raise UnsupportedSettingError(f"{what} needs single-label (or ordinal) data; this is {self.setting} data")
        return self.confusion

    def confusion_matrix(self) -> ConfusionMatrix:
        """The (dense) confusion matrix of single-label or ordinal data, with the ``none`` row
        and column when one was given.

        Raises:
            MatrixSizeError: it would exceed ``ConfusionMatrix.max_cells``.
        """
        pairs = self._confusion("a confusion matrix")
        ConfusionMatrix.check_size(pairs.size)
        return ConfusionMatrix.from_array(pairs.dense(), self.confusion_labels, metrics_class=self.metrics_class)

    def pair_counts(self) -> PairCounts:
        """The (actual, predicted) pair counts of single-label or ordinal data (over ``confusion_labels``).

        Raises:
            UnsupportedSettingError: multi-label, soft or hierarchical data.
        """
        return self._confusion("a whole-matrix measure (kappa, MCC, balanced accuracy)")

    # ----------------------------------------------------------------------------------------
    # streaming: merge and compact

    def merge(self, other: Evaluation, *, grow: bool = False) -> Evaluation:
        """The evaluation of both batches together (also ``self + other``).

        Every count is a sum over samples, so merging batches gives exactly the one-shot
        result. Per-sample rows are concatenated in order unless either side was compacted.

        Args:
            other: another evaluation of the same setting.
            grow: with False (the default) the labels must be the same, in the same order;
                with True, labels of ``other`` that this evaluation lacks are appended (see
                ``with_labels``), so that a stream may start before every label is known.

        The metrics class is the more specific of the two (``merged_metrics_class``).

        Raises:
            LabelMismatchError: different labels (or confusion labels) and ``grow=False``.
            UnsupportedSettingError: different settings.
            InvalidTypeError: unrelated metrics classes.
        """
        self._check_kind(other, "merge")
        if grow and self.setting == other.setting and not same_labels(self.labels, other.labels):
            union = label_union(self.labels, other.labels, ("this evaluation", "other"))
            return self.with_labels(union).merge(other.with_labels(union))
        self._check_same_counts(other, "merge")
        return super().merge(other)

    def with_labels(self, labels: Sequence[Hashable]) -> Evaluation:
        """The same evaluation over ``labels``: every label it has, in any order, plus new labels
        that no sample has or is predicted (each sample gains true negatives for them).

        Raises:
            UnknownLabelError: ``labels`` leaves out a label of this evaluation.
            UnsupportedSettingError: ordinal data (the levels are fixed).

        Examples:
            >>> ev = Evaluation.from_label_sets([{"b"}], [{"b"}]).with_labels(["a", "b"])
            >>> ev.labels, ev.class_cells.counts()["tn"].tolist()
            (('a', 'b'), [1, 0])
        """
        if self.setting == "ordinal":
            raise UnsupportedSettingError("the levels of ordinal data are fixed: with_labels does not apply")
        checked = check_label_list(labels)
        check_same_family(checked, self.labels, ("labels", "this evaluation"))
        index = {label: position for position, label in enumerate(checked)}
        missing = [label for label in self.labels if label not in index]
        if missing:
            raise UnknownLabelError(f"'labels' leaves out {describe(missing[0])}, a label of this evaluation: {show(list(checked))}")
        if checked == self.labels:
            return self
        positions = [index[label] for label in self.labels]
        total = self.n_samples
        rows = [np.zeros(len(checked), dtype=np.result_type(row, np.asarray(total))) for row in self.class_cells.rows()]
        rows[3][:] = total  # a new label: every sample is a true negative of it
        for row, own in zip(rows, self.class_cells.rows()):
            row[positions] = own
        confusion, confusion_labels = self.confusion, self.confusion_labels
        if confusion is not None and confusion_labels is not None:
            extra = confusion_labels[len(self.labels) :]  # the none value of rejection and open sets
            confusion_labels = check_label_list([*checked, *extra])  # (the none value is never a class)
            spots = np.array(positions + list(range(len(checked), len(confusion_labels))), dtype=np.int64)
            confusion = confusion.relabel(spots, len(confusion_labels))
        return attrs.evolve(
            self,
            labels=checked,
            class_cells=Cells(*rows),
            sample_cells=self.sample_cells.with_negatives(len(checked) - len(self.labels)),
            confusion=confusion,
            confusion_labels=confusion_labels,
        )

    def renamed(self, labels: Sequence[Hashable]) -> Evaluation:
        """The same evaluation with each label renamed: ``labels[k]`` is the new name of
        ``self.labels[k]`` (every count stays where it is).

        Raises:
            InvalidArgumentError: not one new name per label, or a name given twice.

        Examples:
            >>> ev = Evaluation.from_labels([0, 1, 1], [0, 1, 0]).renamed(["cat", "dog"])
            >>> ev.labels, ev.per_class("recall").tolist()
            (('cat', 'dog'), [1.0, 0.5])
        """
        checked = check_label_list(labels)
        if len(checked) != len(self.labels):
            raise InvalidArgumentError(f"'labels' must name each of the {len(self.labels)} labels once, got {len(checked)}: {show(list(checked))}")
        extra = () if self.confusion_labels is None else self.confusion_labels[len(self.labels) :]
        check_label_list([*checked, *extra])
        return attrs.evolve(self, labels=checked, confusion_labels=None if self.confusion_labels is None else (*checked, *extra))

    OPERATIONS: ClassVar[frozenset[str]] = ALL_OPERATIONS - {"update", "revert", "count"}
    REFUSED: ClassVar[Mapping[str, str]] = {"update": "an Evaluation is immutable: merge another batch's (or count a stream with LabelSetCounts)", "revert": "an Evaluation is immutable: merge another batch's (or count a stream with LabelSetCounts)",
                                          "count": "an Evaluation is built whole: a window counts a Stream of it (Stream(Evaluation.from_labels)) or LabelSetCounts"}

    def _check_same_counts(self, other: Evaluation, operation: str) -> None:
        if self.setting != other.setting:
            raise UnsupportedSettingError(f"cannot {operation} {self.setting} and {other.setting} evaluations")
        if not (same_labels(self.labels, other.labels) and same_labels(self.confusion_labels, other.confusion_labels)):
            first, second = self.confusion_labels or self.labels, other.confusion_labels or other.labels
            raise LabelMismatchError(f"cannot {operation} evaluations with different labels: {show(list(first))} and {show(list(second))}")

    def _subtract(self, other: Evaluation) -> Evaluation:
        """This evaluation without ``other``, a batch merged into it (``EvaluationSums.minus``);
        a part over fewer labels (a stream's batch before the rest joined) is taken away over these."""
        if (self.setting == other.setting and not same_labels(self.labels, other.labels)
                and same_labels(label_union(self.labels, other.labels, ("this evaluation", "the part")), self.labels)):  # fmt: skip
            other = other.with_labels(self.labels)
        self._check_same_counts(other, "subtract")
        return super()._subtract(other)

    def compact(self) -> Evaluation:
        """The same evaluation with one row per distinct per-sample cells and its weight.

        Every average stays the same, and memory is bounded by the number of distinct rows
        (at most ``(m + 1)³`` for crisp data) instead of the number of samples; the order of
        the samples (``per_sample``, ``sample_metrics``) is given up.
        """
        return attrs.evolve(self, sample_cells=self.sample_cells.compact(), ordered=False)

    def _keeps_order(self) -> bool:
        return self.ordered

    def _invalid(self) -> str | None:
        """A document's parts that describe different results (``_check_agreement``), or None."""
        try:
            _check_agreement(self.setting, self.labels, self.class_cells, self.sample_cells, self.confusion, self.confusion_labels)
        except (serialization.FormatError, CountOverflowError) as error:  # (cells whose sums pass float64's largest)
            return str(error)
        return None

    def micro_macro_gap(self, measure: MeasureLike, **parameters: Any) -> MicroMacroGap:
        """The micro-macro gap of a decomposable measure (looked up in the metrics class) and its
        covariance decomposition; a getter-defined measure has no decomposition and is refused."""
        return micro_macro_gap(self.class_cells, self.measure(measure), **parameters)

    def _repr_html_(self) -> str:
        """The evaluation's report in a notebook (the HTML report's table, escaped, no script)."""
        return self.report()._repr_html_()

    def __repr__(self) -> str:
        return f"Evaluation(setting={self.setting!r}, labels={list(self.labels)!r}, samples={self.n_samples})"


@attrs.frozen
class EvaluationSums:
    """The counts of an ``Evaluation``, its one field of sums: the per-class cells, the
    per-sample cells (in order unless ``ordered`` is False), the (actual, predicted) pair
    counts of single-label and ordinal data (None otherwise) and the samples rejection left
    out. Merged batch after batch (the samples in order while both are; else compacted); a part
    taken away keeps the samples in order when it was the first or the last of them (a window's
    oldest or newest batch), else compacts them; scaled in every count. Float pair counts keep
    their exact sums, and the class cells of single-label and ``ordinal`` data follow from them
    as when counted at once, so parts merged or taken away equal the samples counted at once.

    Examples:
        >>> part = Evaluation.from_labels([0, 1], [0, 0])._sums
        >>> both = part.plus(part)
        >>> len(both.sample_cells), both.minus(part, "samples").equals(part)
        (4, True)
    """

    class_cells: Cells
    sample_cells: Cells
    confusion: PairCounts | None
    n_rejected: int | float
    ordered: bool
    ordinal: bool = False

    def _cells(self, cells: Cells, confusion: PairCounts | None) -> Cells:
        """``cells``, the class cells combined; with float pair counts, those the pairs give (as
        counted at once: a result's class cells are always its pairs' own)."""
        if confusion is None or confusion.counts.dtype.kind != "f":
            return cells
        return confusion.ordinal_cells() if self.ordinal else confusion.class_cells(len(self.class_cells))

    def plus(self, other: EvaluationSums) -> EvaluationSums:
        ordered = self.ordered and other.ordered
        samples = Cells.concat([self.sample_cells, other.sample_cells])
        confusion = None if self.confusion is None or other.confusion is None else self.confusion.plus(other.confusion)
        return EvaluationSums(self._cells(self.class_cells.plus(other.class_cells), confusion), samples if ordered else samples.compact(), confusion,
                              self.n_rejected + other.n_rejected, ordered, self.ordinal)  # fmt: skip

    def minus(self, other: EvaluationSums, what: str) -> EvaluationSums:
        mine, theirs = self.sample_cells, other.sample_cells
        if self.ordered and other.ordered and mine.starts_with(theirs):
            samples, ordered = mine[len(theirs) :], True
        elif self.ordered and other.ordered and mine.ends_with(theirs):
            samples, ordered = mine[: len(mine) - len(theirs)], True
        else:
            samples, ordered = mine.without(theirs), False
        confusion = None if self.confusion is None or other.confusion is None else self.confusion.minus(other.confusion)
        return EvaluationSums(self._cells(self.class_cells.minus(other.class_cells), confusion), samples, confusion,
                              difference(self.n_rejected, other.n_rejected, "rejected samples").item(), ordered, self.ordinal)  # fmt: skip

    def scaled(self, factor: float) -> EvaluationSums:
        confusion = None if self.confusion is None else self.confusion.times(factor)
        return EvaluationSums(self._cells(self.class_cells.times(factor), confusion), self.sample_cells.scaled(factor), confusion,
                              float(self.n_rejected) * factor, self.ordered, self.ordinal)  # fmt: skip

    def equals(self, other: EvaluationSums) -> bool:
        return ((self.n_rejected, self.ordered) == (other.n_rejected, other.ordered) and self.class_cells.same_as(other.class_cells)
                and self.sample_cells.same_as(other.sample_cells) and (self.confusion is None) == (other.confusion is None)
                and (self.confusion is None or self.confusion.same_as(cast(PairCounts, other.confusion))))  # fmt: skip

    def document(self) -> dict[str, Any]:
        """The cells (not the data), the pair counts and the rejected samples."""
        return {"class_cells": serialization.cells_payload(self.class_cells), "sample_cells": serialization.cells_payload(self.sample_cells),
                "ordered": self.ordered, "confusion": None if self.confusion is None else serialization.pairs_payload(self.confusion),
                "n_rejected": self.n_rejected}  # fmt: skip

    def read(self, document: dict[str, Any], codes_below: int) -> EvaluationSums:
        """The counts a document gives, over as many classes (and pairs of labels) as these.

        Raises:
            FormatError: counts of another form, or pair counts where these have none (or none
                where these have them).
        """
        ordered, confusion = serialization.field(document, "ordered"), document.get("confusion")
        if not isinstance(ordered, bool):
            raise serialization.FormatError(f"field 'ordered' must be true or false, got {show(ordered)}")
        if (confusion is None) != (self.confusion is None):
            raise serialization.FormatError("fields 'confusion' and 'confusion_labels' go together")
        rejected = serialization.field(document, "n_rejected")
        pairs = None if self.confusion is None else serialization.read_pairs(confusion, "confusion", size=self.confusion.size)
        cells = serialization.read_cells(serialization.field(document, "class_cells"), "class_cells", rows=len(self.class_cells))
        return EvaluationSums(self._cells(cells, pairs), serialization.read_cells(serialization.field(document, "sample_cells"), "sample_cells"), pairs,
                              serialization.number(rejected, "n_rejected") if isinstance(rejected, float) else serialization.integer(document, "n_rejected"),
                              ordered, self.ordinal)  # fmt: skip  # (float pairs: the cells they give, as a 0.1.0 document's may have cancelled)


def _check_agreement(
    setting: str, labels: tuple, class_cells: Cells, sample_cells: Cells, confusion: PairCounts | None, confusion_labels: tuple | None
) -> None:
    """Refuse a document whose parts describe different results: the micro cells ``σ1`` summed
    over classes and over samples must agree, and a confusion table (single-label and ordinal
    data only) must give the per-class cells stored beside it."""
    parts = [("class_cells", "sample_cells", class_cells.total(), sample_cells.total())]
    if confusion is not None:
        assert confusion_labels is not None  # read together
        if setting == "single-label" and same_labels(confusion_labels[: len(labels)], labels) and len(confusion_labels) - len(labels) in (0, 1):
            parts.append(("confusion", "class_cells", confusion.class_cells(len(labels)), class_cells))
        elif setting == "ordinal" and len(confusion_labels) == len(labels) + 1:
            parts.append(("confusion", "class_cells", confusion.ordinal_cells(), class_cells))
        else:
            raise serialization.FormatError(
                f"field 'confusion' cannot go with {setting} cells over the labels {show(list(labels))} "
                f"(confusion_labels {show(list(confusion_labels))})"
            )
    for first, second, expected, stored in parts:
        rows = [(np.asarray(a), np.asarray(b)) for a, b in zip(expected.rows(), stored.rows())]
        # weighted or soft cells agree up to the rounding of sums of the size of the largest cell
        # (a count found by subtraction from a total of 1e17 absorbs a weight of 1e-3)
        floats = any(a.dtype.kind not in "iu" or b.dtype.kind not in "iu" for a, b in rows)
        scale = max((float(np.abs(row).max()) for pair in rows for row in pair if row.size), default=0.0) if floats else 0.0
        for name, (a, b) in zip(("tp", "fp", "fn", "tn"), rows):
            if not (np.array_equal(a, b) if not floats else np.allclose(a.astype(np.float64), b.astype(np.float64), rtol=1e-9, atol=1e-9 * scale)):
                raise serialization.FormatError(f"fields {first!r} and {second!r} disagree: {name} {show(a)} against {show(b)}")


if not TYPE_CHECKING:  # the names this module gave in evalkit 0.1.0 and lost, found with a warning
    __getattr__ = moved_names.finder(__name__)
