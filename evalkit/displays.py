"""Plot objects with scikit-learn's habits (the optional ``plot`` extra).

``ConfusionMatrixDisplay``, ``RocCurveDisplay``, ``PrecisionRecallDisplay``,
``DetCurveDisplay`` and ``CalibrationDisplay`` are built, as in ``sklearn.metrics`` and
``sklearn.calibration``, from predictions (``from_predictions``) or from a fitted estimator and
its data (``from_estimator``), and drawn with ``plot(ax=...)``, which returns the display; after
drawing, ``ax_`` and ``figure_`` are the matplotlib Axes and Figure. They hold evalkit's
results (``confusion_matrix``, ``curve``, ``calibration``) and draw through
``evalkit.plots``, so every number shown is evalkit's.

Examples:
    >>> display = RocCurveDisplay.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> round(display.roc_auc, 2), display.ax_.get_title()
    (0.75, 'ROC curve')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from matplotlib.axes import Axes

from evalkit import plots
from evalkit._validation import check_choice, show
from evalkit.calibration import Calibration
from evalkit.confusion_matrix import ConfusionMatrix
from evalkit.counting import encode
from evalkit.curves import ThresholdCurve
from evalkit.exceptions import InvalidArgumentError, InvalidTypeError

__all__ = ["CalibrationDisplay", "ConfusionMatrixDisplay", "DetCurveDisplay", "PrecisionRecallDisplay", "RocCurveDisplay"]

RESPONSE_METHODS = ("auto", "predict_proba", "decision_function")


def _responses(estimator: Any, X: Any, response_method: str, pos_label: Any) -> tuple[np.ndarray, Any]:
    """The scores of the positive class from a fitted binary estimator, and that class: the
    column of ``pos_label`` (default the second of ``classes_``) of ``predict_proba``, or
    ``decision_function`` (turned round when ``pos_label`` is the first class), as
    scikit-learn's displays take them."""
    check_choice("response_method", response_method, RESPONSE_METHODS)
    names = ("predict_proba", "decision_function") if response_method == "auto" else (response_method,)
    method = next((name for name in names if hasattr(estimator, name)), None)
    if method is None:
        raise InvalidArgumentError(f"the estimator {show(estimator)} has none of {', '.join(names)}: is it a fitted classifier?")
    classes = list(getattr(estimator, "classes_", [0, 1]))
    if len(classes) != 2:
        raise InvalidArgumentError(f"these displays take a binary classifier, got classes {show(classes)}")
    positive = classes[1] if pos_label is None else pos_label
    if positive not in classes:
        raise InvalidArgumentError(f"'pos_label' {show(positive)} is not one of the estimator's classes {show(classes)}")
    scores = np.asarray(getattr(estimator, method)(X), dtype=np.float64)
    if method == "predict_proba":
        return scores[:, classes.index(positive)], positive
    return (scores if positive == classes[1] else -scores).ravel(), positive


class _Display:
    """Drawn by ``plot``, which keeps the Axes (``ax_``) and the Figure (``figure_``)."""

    ax_: Axes
    figure_: Any

    def _draw(self, ax: Axes | None, options: dict[str, Any]) -> Axes:
        raise NotImplementedError

    def plot(self, *, ax: Axes | None = None, **options: Any) -> Any:
        """Draw on ``ax`` (default: a new figure; ``title=`` and, for the confusion matrix,
        ``include_values``, ``cmap`` and ``normalize``); returns the display."""
        self.ax_ = self._draw(ax, options)
        self.figure_ = self.ax_.figure
        return self


class ConfusionMatrixDisplay(_Display):
    """A confusion matrix heatmap.

    Args:
        confusion_matrix: a ``ConfusionMatrix``, or counts (rows actual, columns predicted).
        display_labels: the class names (default: the matrix's labels).
    """

    def __init__(self, confusion_matrix: Any, *, display_labels: Sequence[Any] | None = None) -> None:
        if not isinstance(confusion_matrix, ConfusionMatrix):
            counts = np.asarray(confusion_matrix)
            confusion_matrix = ConfusionMatrix.from_array(counts, display_labels if display_labels is not None else list(range(len(counts))))
        elif display_labels is not None:
            confusion_matrix = ConfusionMatrix.from_array(confusion_matrix.to_array(), display_labels)
        self.confusion_matrix = confusion_matrix
        self.display_labels = confusion_matrix.labels

    def _draw(self, ax: Axes | None, options: dict[str, Any]) -> Axes:
        return plots.confusion_matrix(self.confusion_matrix, normalize=options.get("normalize"), ax=ax, annotate=options.get("include_values", True),
                                      cmap=options.get("cmap", "viridis"), title=options.get("title"))  # fmt: skip

    @classmethod
    def from_predictions(
        cls, y_true: Any, y_pred: Any, *, labels: Sequence[Any] | None = None, sample_weight: Any = None, normalize: str | None = None,
        display_labels: Sequence[Any] | None = None, include_values: bool = True, cmap: str = "viridis", ax: Axes | None = None,
    ) -> ConfusionMatrixDisplay:  # fmt: skip
        """Count and draw (``normalize``: ``"true"``, ``"pred"`` or ``"all"`` draws rates)."""
        matrix = ConfusionMatrix.from_predictions(y_true, y_pred, labels, sample_weight=sample_weight)
        return cls(matrix, display_labels=display_labels).plot(ax=ax, include_values=include_values, cmap=cmap, normalize=normalize)

    @classmethod
    def from_estimator(cls, estimator: Any, X: Any, y: Any, **options: Any) -> ConfusionMatrixDisplay:
        """``from_predictions(y, estimator.predict(X), ...)``."""
        if not hasattr(estimator, "predict"):
            raise InvalidTypeError(f"expected a fitted estimator with predict, got {show(estimator)}")
        return cls.from_predictions(y, estimator.predict(X), **options)


class _CurveDisplay(_Display):
    """A binary curve from a ``ThresholdCurve`` of the positive class's scores."""

    def __init__(self, curve: ThresholdCurve, *, name: str | None = None) -> None:
        if not isinstance(curve, ThresholdCurve):
            raise InvalidTypeError(f"expected a ThresholdCurve, got {show(curve)}")
        self.curve, self.name = curve, name
        self.pos_label = curve.labels[0]

    @classmethod
    def from_predictions(cls, y_true: Any, y_score: Any, *, sample_weight: Any = None, pos_label: Any = None, name: str | None = None,
                         ax: Axes | None = None) -> Any:  # fmt: skip
        """The curve of scores of the positive class (``pos_label``, as scikit-learn infers it), drawn."""
        classes = encode(y_true, y_true)[2]
        if len(classes) > 2:  # a binary curve: scikit-learn's displays refuse more classes, never fold them into "the rest"
            raise InvalidArgumentError(f"'y_true' holds {len(classes)} classes {show(list(classes))}: these displays draw the curve of a "
                                       "binary problem (one class against the rest: pass y_true == class)")  # fmt: skip
        curve = ThresholdCurve.from_scores(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
        return cls(curve, name=name).plot(ax=ax)

    @classmethod
    def from_estimator(cls, estimator: Any, X: Any, y: Any, *, sample_weight: Any = None, response_method: str = "auto", pos_label: Any = None,
                       name: str | None = None, ax: Axes | None = None) -> Any:  # fmt: skip
        """The curve of a fitted binary classifier's scores on ``X`` (``predict_proba``, else
        ``decision_function``), named after the estimator."""
        scores, positive = _responses(estimator, X, response_method, pos_label)
        return cls.from_predictions(y, scores, sample_weight=sample_weight, pos_label=positive, name=name or type(estimator).__name__, ax=ax)

    def _named(self, ax: Axes) -> Axes:
        if self.name:
            for line in ax.get_lines()[: len(self.curve.labels)]:
                line.set_label(f"{self.name}: {line.get_label()}")
            ax.legend(fontsize=8)
        return ax


class RocCurveDisplay(_CurveDisplay):
    """The ROC curve with its AUC; ``fpr``, ``tpr``, ``thresholds`` and ``roc_auc`` as
    scikit-learn's display has them."""

    def __init__(self, curve: ThresholdCurve, *, name: str | None = None) -> None:
        super().__init__(curve, name=name)
        self.fpr, self.tpr, self.thresholds = curve.roc()
        self.roc_auc = float(curve.roc_auc(self.pos_label))

    def _draw(self, ax: Axes | None, options: dict[str, Any]) -> Axes:
        return self._named(plots.roc(self.curve, ax=ax, title=options.get("title")))


class PrecisionRecallDisplay(_CurveDisplay):
    """The precision-recall curve with its average precision; ``precision``, ``recall``,
    ``thresholds`` and ``average_precision``."""

    def __init__(self, curve: ThresholdCurve, *, name: str | None = None) -> None:
        super().__init__(curve, name=name)
        self.precision, self.recall, self.thresholds = curve.precision_recall()
        self.average_precision = float(curve.average_precision(self.pos_label))

    def _draw(self, ax: Axes | None, options: dict[str, Any]) -> Axes:
        return self._named(plots.precision_recall(self.curve, ax=ax, title=options.get("title")))


class DetCurveDisplay(_CurveDisplay):
    """The detection error tradeoff curve on normal deviate scales; ``fpr``, ``fnr`` and
    ``thresholds`` (without the points that change neither rate's corner, as scikit-learn's
    display)."""

    def __init__(self, curve: ThresholdCurve, *, name: str | None = None) -> None:
        super().__init__(curve, name=name)
        self.fpr, self.fnr, self.thresholds = curve.det(drop_intermediate=True)  # as scikit-learn's display

    def _draw(self, ax: Axes | None, options: dict[str, Any]) -> Axes:
        return self._named(plots.det(self.curve, ax=ax, title=options.get("title")))


class CalibrationDisplay(_Display):
    """The reliability diagram of probabilities of the positive class; ``prob_true`` and
    ``prob_pred`` per non-empty bin, as scikit-learn's ``CalibrationDisplay``.

    Args:
        calibration: a binary ``Calibration``.
        n_bins: the number of bins (default 5, as scikit-learn's).
        strategy: ``"uniform"`` (equal width) or ``"quantile"`` (equal mass).
    """

    def __init__(self, calibration: Calibration, *, n_bins: int = 5, strategy: str = "uniform", name: str | None = None) -> None:
        if not isinstance(calibration, Calibration):
            raise InvalidTypeError(f"expected a Calibration, got {show(calibration)}")
        self.calibration, self.n_bins, self.strategy, self.name = calibration, n_bins, strategy, name
        points = calibration.reliability(n_bins=n_bins, strategy=strategy)
        self.prob_true, self.prob_pred = points.frequency, points.confidence

    def _draw(self, ax: Axes | None, options: dict[str, Any]) -> Axes:
        return plots.reliability(self.calibration, n_bins=self.n_bins, strategy=self.strategy, ax=ax, title=options.get("title"))

    @classmethod
    def from_predictions(cls, y_true: Any, y_prob: Any, *, n_bins: int = 5, strategy: str = "uniform", pos_label: Any = None,
                         sample_weight: Any = None, name: str | None = None, ax: Axes | None = None) -> CalibrationDisplay:  # fmt: skip
        """The calibration of probabilities of the positive class, drawn."""
        calibration = Calibration.from_scores(y_true, y_prob, pos_label=pos_label, sample_weight=sample_weight)
        return cls(calibration, n_bins=n_bins, strategy=strategy, name=name).plot(ax=ax)

    @classmethod
    def from_estimator(cls, estimator: Any, X: Any, y: Any, *, n_bins: int = 5, strategy: str = "uniform", pos_label: Any = None,
                       name: str | None = None, ax: Axes | None = None) -> CalibrationDisplay:  # fmt: skip
        """The calibration of a fitted binary classifier's ``predict_proba`` on ``X``."""
        scores, positive = _responses(estimator, X, "predict_proba", pos_label)
        return cls.from_predictions(y, scores, n_bins=n_bins, strategy=strategy, pos_label=positive, name=name or type(estimator).__name__, ax=ax)
