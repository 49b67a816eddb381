"""Plot objects with scikit-learn's habits (the optional ``plot`` extra).

``ConfusionMatrixDisplay``, ``RocCurveDisplay``, ``PrecisionRecallDisplay``,
``DetCurveDisplay`` and ``CalibrationDisplay`` take what scikit-learn's take: the arrays
(``fpr=``, ``tpr=``, ``precision=``, ``recall=``, a confusion matrix, ``prob_true``...), or
evalkit's results (a ``ThresholdCurve``, a ``ConfusionMatrix``, a ``Calibration``); they are
built from predictions (``from_predictions``), from a fitted estimator and its data
(``from_estimator``) or, for the ROC and precision-recall curves, from the folds of
``sklearn.model_selection.cross_validate`` (``from_cv_results``), and drawn with ``plot``:
``ax=``, ``name=``, ``curve_kwargs``, ``plot_chance_level``, ``chance_level_kw``,
``despine`` and matplotlib's line keywords (``alpha``, ``color``, ...), as there. After
drawing, ``ax_``, ``figure_``, ``line_`` (``im_`` and ``text_`` of a confusion matrix,
``chance_level_``) are the matplotlib objects. Every number drawn is evalkit's.

Examples:
    >>> display = RocCurveDisplay.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> round(display.roc_auc, 2), display.line_.get_label()
    (0.75, 'Classifier (AUC = 0.75)')
    >>> RocCurveDisplay(fpr=[0.0, 0.5, 1.0], tpr=[0.0, 1.0, 1.0], roc_auc=0.75).plot().ax_.get_xlabel()
    'False Positive Rate'
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from statistics import NormalDist
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from matplotlib.axes import Axes
from matplotlib.colors import Colormap
from matplotlib.figure import Figure, SubFigure
from matplotlib.lines import Line2D
from numpy.typing import ArrayLike

from evalkit._engine import moved_names
from evalkit._engine._labels import label_text
from evalkit._engine._types import LabelsLike, ScoresLike
from evalkit._engine._validation import check_choice, count_text, show
from evalkit._engine.counting import encode
from evalkit._results.confusion_matrix import ConfusionMatrix
from evalkit._scores.calibration import Calibration
from evalkit._scores.curves import ThresholdCurve
from evalkit.exceptions import InvalidArgumentError, InvalidTypeError

if TYPE_CHECKING:
    from typing_extensions import Self  # typing.Self of Python 3.11, for type checkers only

__all__ = ["CalibrationDisplay", "ConfusionMatrixDisplay", "DetCurveDisplay", "PrecisionRecallDisplay", "RocCurveDisplay"]

RESPONSE_METHODS = ("auto", "predict_proba", "decision_function")
CurveStyle = dict[str, Any] | list[dict[str, Any]] | None
"""``curve_kwargs``: matplotlib's line keywords for every curve, or one dict per curve."""

DEFAULT_NAME = "Classifier"
"""The legend name of a curve drawn from predictions (scikit-learn's)."""


def _responses(estimator: object, X: object, response_method: str, pos_label: Hashable) -> tuple[np.ndarray, Any]:
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


def _binary_curve(y_true: LabelsLike, y_score: ScoresLike, pos_label: Hashable, sample_weight: ArrayLike | None) -> ThresholdCurve:
    """The curve of a binary problem's scores (scikit-learn's displays refuse more classes)."""
    classes = encode(y_true, y_true)[2]
    if len(classes) > 2:  # a binary curve: never fold the other classes into "the rest"
        raise InvalidArgumentError(f"'y_true' holds {len(classes)} classes {show(list(classes))}: these displays draw the curve of a "
                                   "binary problem (one class against the rest: pass y_true == class)")  # fmt: skip
    return ThresholdCurve.from_scores(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)


def _scores(y_score: ScoresLike | None, y_pred: ScoresLike) -> ScoresLike:
    """``y_score``, or ``y_pred``, its older name in scikit-learn's displays."""
    if not (isinstance(y_pred, str) and y_pred == "deprecated"):
        if y_score is not None:
            raise InvalidArgumentError("give 'y_score' or its older name 'y_pred', not both")
        return y_pred
    if y_score is None:
        raise InvalidArgumentError("'y_score' is required: the scores of the positive class")
    return y_score


def _axes(ax: Axes | None) -> Axes:
    return ax if ax is not None else Figure(layout="constrained").add_subplot()


def _despine(ax: Axes) -> None:
    """The top and right spines hidden and the others cut to the data's range (scikit-learn's ``despine``)."""
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    for side in ("bottom", "left"):
        ax.spines[side].set_bounds(0, 1)


def _line_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """matplotlib line keywords with their aliases spelled out (``c`` is ``color``), so that
    a caller's keyword replaces a default of the same meaning."""
    from matplotlib.cbook import normalize_kwargs
    from matplotlib.lines import Line2D

    return dict(normalize_kwargs(options or {}, Line2D))


def _positive_text(pos_label: Hashable) -> str:
    return "" if pos_label is None else f" (Positive label: {pos_label})"


def _listed(value: object, count: int) -> list[Any]:
    """One entry per curve: a list as given, anything else repeated."""
    return list(value) if isinstance(value, (list, tuple)) else [value] * count


class _Display:
    """Drawn by ``plot``, which keeps the Axes (``ax_``) and the Figure (``figure_``)."""

    ax_: Axes
    figure_: Figure | SubFigure

    def _kept(self, ax: Axes) -> Self:
        self.ax_, self.figure_ = ax, ax.figure
        return self


class _CurveDisplay(_Display):
    """Curves of one or more binary problems (several: the folds of ``from_cv_results``):
    ``x`` and ``y`` arrays, an area per curve, names; drawn with scikit-learn's axes."""

    _x: str
    _y: str
    name: object
    pos_label: Hashable
    curve: ThresholdCurve | list[ThresholdCurve | None] | None
    prevalence_pos_label: float | list[float | None] | None = None
    _area_name = ""
    _x_title = ""
    _y_title = ""
    _steps = False

    def _curves(self) -> list[tuple[np.ndarray, np.ndarray]]:
        xs, ys = getattr(self, self._x), getattr(self, self._y)
        if isinstance(xs, list):
            return [(np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)) for x, y in zip(xs, ys)]
        return [(np.asarray(xs, dtype=np.float64), np.asarray(ys, dtype=np.float64))]

    def _area(self) -> object:
        return getattr(self, self._area_name, None) if self._area_name else None

    def _labels(self, names: list[Any], areas: list[Any]) -> list[str | None]:
        short = {"roc_auc": "AUC", "average_precision": "AP"}.get(self._area_name, "")
        if len(names) > 1 and len({name for name in names}) == 1:  # folds of one model: one legend entry, the areas' mean and spread
            known = [float(area) for area in areas if area is not None]
            spread = f"{short} = {np.mean(known):0.2f} +/- {np.std(known):0.2f}" if short and known else ""
            first = f"{names[0]} ({spread})" if names[0] and spread else names[0] or spread or None
            return [first, *[None] * (len(names) - 1)]
        labels = []
        for name, area in zip(names, areas):
            value = f"{short} = {area:0.2f}" if short and area is not None else ""
            labels.append(f"{name} ({value})" if name and value else name or value or None)
        return labels

    def _transform(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return x, y

    def _chance(self, ax: Axes, options: dict[str, Any]) -> Line2D | list[Line2D] | None:
        return None

    def plot(self, ax: Axes | None = None, *, name: object = None, curve_kwargs: CurveStyle = None, plot_chance_level: bool = False,
             chance_level_kw: dict[str, Any] | None = None, despine: bool = False, title: str | None = None, **kwargs: object) -> Self:  # fmt: skip
        """Draw on ``ax`` (default: a new figure) and return the display: one line per curve
        (``line_``; a list for several), named ``name`` (default the display's), styled by
        ``curve_kwargs`` (a dict, or one per curve) and matplotlib's keywords; with
        ``plot_chance_level`` the chance line (``chance_level_``, styled by
        ``chance_level_kw``); ``despine`` hides the top and right spines."""
        ax = _axes(ax)
        curves = self._curves()
        names = _listed(name if name is not None else self.name, len(curves))
        labels = self._labels(names, _listed(self._area(), len(curves)))
        for what, given in (("curve_kwargs", curve_kwargs), ("name", name)):
            if isinstance(given, (list, tuple)) and len(given) != len(curves):
                raise InvalidArgumentError(f"{what!r} holds {len(given)} entries but there are {len(curves)} curves: give one per curve, or one for all")
        styles = _listed(curve_kwargs, len(curves))
        lines = []
        for (x, y), label, style in zip(curves, labels, styles):
            x, y = self._transform(x, y)
            options = {"label": label, **_line_options(style), **_line_options(kwargs)}
            if self._steps:
                options.setdefault("drawstyle", "steps-post")
            (line,) = ax.plot(x, y, **options)
            lines.append(line)
        self.line_ = lines[0] if len(lines) == 1 else lines
        self.chance_level_ = self._chance(ax, chance_level_kw or {}) if plot_chance_level else None
        positive = self.pos_label if not isinstance(self.pos_label, list) else self.pos_label[0]
        ax.set(xlabel=self._x_title + _positive_text(positive), ylabel=self._y_title + _positive_text(positive))
        self._frame(ax)
        if despine:
            _despine(ax)
        if any(label for label in labels) or plot_chance_level:
            ax.legend(loc=self._legend_place)
        if title is not None:
            ax.set_title(title)
        return self._kept(ax)

    _legend_place: Literal["lower right", "lower left", "upper right"] = "lower right"

    def _frame(self, ax: Axes) -> None:
        ax.set(xlim=(-0.01, 1.01), ylim=(-0.01, 1.01), aspect="equal")

    @classmethod
    def _from_curve(cls, curve: ThresholdCurve, name: object, drop_intermediate: bool) -> Self:
        raise NotImplementedError

    @classmethod
    def from_predictions(cls, y_true: LabelsLike, y_score: ScoresLike | None = None, *, sample_weight: ArrayLike | None = None, drop_intermediate: bool | None = None,
                         pos_label: Hashable | None = None, name: str | None = None, ax: Axes | None = None, curve_kwargs: CurveStyle = None,
                         plot_chance_level: bool = False, chance_level_kw: dict[str, Any] | None = None, despine: bool = False,
                         y_pred: ScoresLike = "deprecated", **kwargs: Any) -> Self:  # fmt: skip
        """The curve of scores of the positive class (``pos_label``, as scikit-learn infers it),
        drawn; named ``"Classifier"`` unless ``name`` is given."""
        curve = _binary_curve(y_true, _scores(y_score, y_pred), pos_label, sample_weight)
        display = cls._from_curve(curve, name or DEFAULT_NAME, cls._drop_default if drop_intermediate is None else drop_intermediate)
        return display._drawn(ax, curve_kwargs, plot_chance_level, chance_level_kw, despine, kwargs)

    _drop_default = True

    def _drawn(self, ax: Axes | None, curve_kwargs: CurveStyle, plot_chance_level: bool, chance_level_kw: dict[str, Any] | None, despine: bool,
               kwargs: dict[str, Any]) -> Self:  # fmt: skip
        return self.plot(ax=ax, curve_kwargs=curve_kwargs, plot_chance_level=plot_chance_level, chance_level_kw=chance_level_kw, despine=despine,
                         **kwargs)  # fmt: skip

    @classmethod
    def from_estimator(cls, estimator: object, X: object, y: LabelsLike, *, sample_weight: ArrayLike | None = None, drop_intermediate: bool | None = None,
                       response_method: str = "auto", pos_label: Hashable | None = None, name: str | None = None, ax: Axes | None = None,
                       curve_kwargs: CurveStyle = None, plot_chance_level: bool = False, chance_level_kw: dict[str, Any] | None = None,
                       despine: bool = False, **kwargs: Any) -> Self:  # fmt: skip
        """The curve of a fitted binary classifier's scores on ``X`` (``predict_proba``, else
        ``decision_function``), named after the estimator."""
        scores, positive = _responses(estimator, X, response_method, pos_label)
        return cls.from_predictions(y, scores, sample_weight=sample_weight, drop_intermediate=drop_intermediate, pos_label=positive,
                                    name=name or type(estimator).__name__, ax=ax, curve_kwargs=curve_kwargs, plot_chance_level=plot_chance_level,
                                    chance_level_kw=chance_level_kw, despine=despine, **kwargs)  # fmt: skip

    @classmethod
    def from_cv_results(cls, cv_results: dict[str, Any], X: ArrayLike, y: ArrayLike, *, sample_weight: ArrayLike | None = None, drop_intermediate: bool = True,
                        response_method: str = "auto", pos_label: Hashable | None = None, name: object = None, ax: Axes | None = None,
                        curve_kwargs: CurveStyle = None, plot_chance_level: bool = False, chance_level_kwargs: dict[str, Any] | None = None,
                        despine: bool = False) -> Self:  # fmt: skip
        """One curve per fold of ``sklearn.model_selection.cross_validate(...,
        return_estimator=True, return_indices=True)``: each fold's estimator scores its own
        test samples; the curves are named ``Fold k`` (or by ``name``, a list)."""
        if not isinstance(cv_results, dict) or "estimator" not in cv_results or "indices" not in cv_results:
            raise InvalidArgumentError("'cv_results' must come from cross_validate(..., return_estimator=True, return_indices=True)")
        X, y = np.asarray(X), np.asarray(y)
        weight = None if sample_weight is None else np.asarray(sample_weight)
        displays = []
        for estimator, rows in zip(cv_results["estimator"], cv_results["indices"]["test"]):
            scores, positive = _responses(estimator, X[rows], response_method, pos_label)
            curve = _binary_curve(y[rows], scores, positive, None if weight is None else weight[rows])
            displays.append(cls._from_curve(curve, None, drop_intermediate))
        names = name if isinstance(name, (list, tuple)) else [None if name is None else f"{name} (Fold {k})" for k in range(len(displays))]
        folded = cls._joined(displays, list(names))
        return folded.plot(ax=ax, curve_kwargs=curve_kwargs, plot_chance_level=plot_chance_level, chance_level_kw=chance_level_kwargs, despine=despine)

    @classmethod
    def _joined(cls, displays: list[Any], names: list[Any]) -> Self:
        """One display of several curves (lists of arrays, one area and one name each)."""
        joined = cls.__new__(cls)
        for attribute in (cls._x, cls._y, *(["thresholds"] if hasattr(displays[0], "thresholds") else [])):
            setattr(joined, attribute, [getattr(display, attribute) for display in displays])
        if cls._area_name:
            setattr(joined, cls._area_name, [getattr(display, cls._area_name) for display in displays])
        joined.name = None if all(name is None for name in names) else names  # none given: the folds are named when drawn
        joined.pos_label, joined.curve = displays[0].pos_label, [display.curve for display in displays]
        joined.prevalence_pos_label = [getattr(display, "prevalence_pos_label", None) for display in displays]
        return joined


class RocCurveDisplay(_CurveDisplay):
    """The ROC curve with its AUC: ``RocCurveDisplay(fpr=..., tpr=..., roc_auc=..., name=...)``
    as scikit-learn's, or of a ``ThresholdCurve``; attributes ``fpr``, ``tpr``, ``thresholds``
    (from a curve) and ``roc_auc``."""

    _x, _y, _area_name = "fpr", "tpr", "roc_auc"
    fpr: ArrayLike
    tpr: ArrayLike
    roc_auc: float | None
    _x_title, _y_title = "False Positive Rate", "True Positive Rate"

    def __init__(self, curve: ThresholdCurve | None = None, *, fpr: ArrayLike | None = None, tpr: ArrayLike | None = None, roc_auc: float | None = None,
                 name: object = None, pos_label: Hashable | None = None, estimator_name: object = None, drop_intermediate: bool = True) -> None:  # fmt: skip
        self.curve, self.name = curve, name if name is not None else estimator_name
        if curve is not None:
            if not isinstance(curve, ThresholdCurve):
                raise InvalidTypeError(f"expected a ThresholdCurve (or fpr= and tpr=), got {show(curve)}")
            self.fpr, self.tpr, self.thresholds = curve.roc(drop_intermediate=drop_intermediate)
            self.roc_auc, self.pos_label = float(curve.roc_auc()), curve.labels[0]
        else:
            if fpr is None or tpr is None:
                raise InvalidArgumentError("give a ThresholdCurve, or fpr= and tpr= (the points of the ROC curve)")
            self.fpr, self.tpr, self.roc_auc, self.pos_label = fpr, tpr, roc_auc, pos_label

    @classmethod
    def _from_curve(cls, curve: ThresholdCurve, name: object, drop_intermediate: bool) -> RocCurveDisplay:
        return cls(curve, name=name, drop_intermediate=drop_intermediate)

    def _chance(self, ax: Axes, options: dict[str, Any]) -> Line2D:
        (line,) = ax.plot([0, 1], [0, 1], **{"label": "Chance level (AUC = 0.5)", "color": "k", "linestyle": "--", **_line_options(options)})
        return line


class PrecisionRecallDisplay(_CurveDisplay):
    """The precision-recall curve with its average precision:
    ``PrecisionRecallDisplay(precision, recall, average_precision=..., name=...)`` as
    scikit-learn's, or of a ``ThresholdCurve``; ``prevalence_pos_label`` is the chance level."""

    _x, _y, _area_name = "recall", "precision", "average_precision"
    precision: ArrayLike
    recall: ArrayLike
    average_precision: float | None
    _x_title, _y_title = "Recall", "Precision"
    _steps = True
    _drop_default = False
    _legend_place = "lower left"

    def __init__(self, precision: ThresholdCurve | ArrayLike | None = None, recall: ArrayLike | None = None, *, average_precision: float | None = None,
                 name: object = None, pos_label: Hashable | None = None, prevalence_pos_label: float | list[float | None] | None = None,
                 estimator_name: object = None, curve: ThresholdCurve | None = None,
                 drop_intermediate: bool = False) -> None:  # fmt: skip
        if isinstance(precision, ThresholdCurve):
            curve, precision = precision, None
        self.curve, self.name = curve, name if name is not None else estimator_name
        if curve is not None:
            self.precision, self.recall, self.thresholds = curve.precision_recall(drop_intermediate=drop_intermediate)
            self.average_precision, self.pos_label = float(curve.average_precision()), curve.labels[0]
            self.prevalence_pos_label = float(curve.positives[0] / curve.n_samples) if curve.n_samples else None
        else:
            if precision is None or recall is None:
                raise InvalidArgumentError("give a ThresholdCurve, or precision and recall (the points of the curve)")
            self.precision, self.recall, self.average_precision, self.pos_label = precision, recall, average_precision, pos_label
            self.prevalence_pos_label = prevalence_pos_label

    @classmethod
    def _from_curve(cls, curve: ThresholdCurve, name: object, drop_intermediate: bool) -> PrecisionRecallDisplay:
        return cls(curve=curve, name=name, drop_intermediate=drop_intermediate)

    def _chance(self, ax: Axes, options: dict[str, Any]) -> Line2D | list[Line2D]:
        """The chance level of each curve: its prevalence (one line per fold of ``from_cv_results``)."""
        given = self.prevalence_pos_label if isinstance(self.prevalence_pos_label, list) else [self.prevalence_pos_label]
        prevalences = [prevalence for prevalence in given if prevalence is not None]
        if len(prevalences) < len(given):
            raise InvalidArgumentError("the chance level of a precision-recall curve is the prevalence: give prevalence_pos_label")
        lines = []
        for k, prevalence in enumerate(prevalences):
            label = f"Chance level (AP = {prevalence:0.2f})" if k == 0 else None
            (line,) = ax.plot([0, 1], [prevalence, prevalence], **{"label": label, "color": "k", "linestyle": "--", **_line_options(options)})
            lines.append(line)
        return lines[0] if len(lines) == 1 else lines


_NORMAL = NormalDist()
_DET_TICKS = (0.001, 0.01, 0.05, 0.2, 0.5, 0.8, 0.95, 0.99, 0.999)


def _deviates(rates: np.ndarray) -> np.ndarray:
    """Rates on the normal deviate scale of a DET plot (0 and 1 kept just inside the plot)."""
    clipped = np.clip(rates, 1e-4, 1 - 1e-4)
    return np.array([_NORMAL.inv_cdf(float(rate)) for rate in clipped])


class DetCurveDisplay(_CurveDisplay):
    """The detection error tradeoff curve on normal deviate scales:
    ``DetCurveDisplay(fpr=..., fnr=..., estimator_name=...)`` as scikit-learn's, or of a
    ``ThresholdCurve`` (without the points that change neither rate's corner, as
    scikit-learn's display)."""

    _x, _y = "fpr", "fnr"
    fpr: ArrayLike
    fnr: ArrayLike
    _x_title, _y_title = "False Positive Rate", "False Negative Rate"
    _legend_place = "upper right"

    def __init__(self, curve: ThresholdCurve | None = None, *, fpr: ArrayLike | None = None, fnr: ArrayLike | None = None, estimator_name: object = None,
                 pos_label: Hashable | None = None, name: object = None, drop_intermediate: bool = True) -> None:  # fmt: skip
        self.curve, self.name = curve, name if name is not None else estimator_name
        self.estimator_name = self.name  # scikit-learn's DetCurveDisplay names it so
        if curve is not None:
            if not isinstance(curve, ThresholdCurve):
                raise InvalidTypeError(f"expected a ThresholdCurve (or fpr= and fnr=), got {show(curve)}")
            self.fpr, self.fnr, self.thresholds = curve.det(drop_intermediate=drop_intermediate)
            self.pos_label = curve.labels[0]
        else:
            if fpr is None or fnr is None:
                raise InvalidArgumentError("give a ThresholdCurve, or fpr= and fnr= (the points of the DET curve)")
            self.fpr, self.fnr, self.pos_label = fpr, fnr, pos_label

    @classmethod
    def _from_curve(cls, curve: ThresholdCurve, name: object, drop_intermediate: bool) -> DetCurveDisplay:
        return cls(curve, name=name, drop_intermediate=drop_intermediate)

    def _transform(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return _deviates(x), _deviates(y)

    def _frame(self, ax: Axes) -> None:
        positions = _deviates(np.array(_DET_TICKS))
        labels = [f"{100 * tick:g}%" if tick >= 0.01 else f"{100 * tick:.1f}%" for tick in _DET_TICKS]
        ax.set_xticks(positions, labels)
        ax.set_yticks(positions, labels)
        ax.set(xlim=(positions[0], positions[-1]), ylim=(positions[0], positions[-1]))


class ConfusionMatrixDisplay(_Display):
    """A confusion matrix heatmap: ``ConfusionMatrixDisplay(confusion_matrix,
    display_labels=...)`` with counts (rows actual, columns predicted) as scikit-learn's, or an
    evalkit ``ConfusionMatrix``."""

    def __init__(self, confusion_matrix: ConfusionMatrix | ArrayLike, *, display_labels: Sequence[Hashable] | None = None) -> None:
        if not isinstance(confusion_matrix, ConfusionMatrix):
            counts = np.asarray(confusion_matrix)
            confusion_matrix = ConfusionMatrix.from_array(counts, display_labels if display_labels is not None else list(range(len(counts))))
        elif display_labels is not None:
            confusion_matrix = ConfusionMatrix.from_array(confusion_matrix.to_array(), display_labels)
        self.confusion_matrix = confusion_matrix
        self.display_labels = confusion_matrix.labels

    def plot(self, *, include_values: bool = True, cmap: str | Colormap = "viridis", xticks_rotation: float | str = "horizontal", values_format: str | None = None,
             ax: Axes | None = None, colorbar: bool = True, im_kw: dict[str, Any] | None = None, text_kw: dict[str, Any] | None = None,
             normalize: str | None = None, title: str | None = None) -> ConfusionMatrixDisplay:  # fmt: skip
        """Draw on ``ax`` and return the display: the cells as an image (``im_``, styled by
        ``im_kw``), their values as text (``text_``, one per cell, styled by ``text_kw``;
        ``values_format`` a format spec), a colour bar, the predicted labels rotated by
        ``xticks_rotation``; ``normalize`` (``"true"``, ``"pred"``, ``"all"``) draws rates."""
        counts = self.confusion_matrix.to_array(normalize) if normalize else self.confusion_matrix.to_array()
        values = np.asarray(counts, dtype=np.float64)
        ax = _axes(ax)
        self.im_ = ax.imshow(values, **{"interpolation": "nearest", "cmap": cmap, **(im_kw or {})})
        self.text_ = None
        if include_values:
            self.text_ = np.empty(values.shape, dtype=object)
            middle = (np.nanmax(values) + np.nanmin(values)) / 2 if values.size else 0.0
            low, high = self.im_.cmap(0), self.im_.cmap(1.0)
            for (i, j), value in np.ndenumerate(values):
                shown = format(value, values_format) if values_format else (f"{value:.2g}" if normalize or not float(value).is_integer() else count_text(value))
                options = {"ha": "center", "va": "center", "color": high if value < middle else low, **(text_kw or {})}
                self.text_[i, j] = ax.text(j, i, shown, **options)
        if colorbar:
            ax.figure.colorbar(self.im_, ax=ax)
        labels = [label_text(label) for label in self.display_labels]
        ax.set(xticks=np.arange(len(labels)), yticks=np.arange(len(labels)), xticklabels=labels, yticklabels=labels,
               ylabel="True label", xlabel="Predicted label")  # fmt: skip
        ax.set_ylim((len(labels) - 0.5, -0.5))
        for tick in ax.get_xticklabels():
            tick.set(rotation=xticks_rotation)  # a number, or "horizontal" / "vertical"
        if title is not None:
            ax.set_title(title)
        return self._kept(ax)

    @classmethod
    def from_predictions(
        cls, y_true: LabelsLike, y_pred: LabelsLike, *, labels: Sequence[Any] | None = None, sample_weight: ArrayLike | None = None, normalize: str | None = None,
        display_labels: Sequence[Hashable] | None = None, include_values: bool = True, xticks_rotation: float | str = "horizontal",
        values_format: str | None = None, cmap: str | Colormap = "viridis", ax: Axes | None = None, colorbar: bool = True,
        im_kw: dict[str, Any] | None = None, text_kw: dict[str, Any] | None = None,
    ) -> ConfusionMatrixDisplay:  # fmt: skip
        """Count and draw (``normalize``: ``"true"``, ``"pred"`` or ``"all"`` draws rates)."""
        matrix = ConfusionMatrix.from_predictions(y_true, y_pred, labels, sample_weight=sample_weight)
        return cls(matrix, display_labels=display_labels).plot(include_values=include_values, cmap=cmap, xticks_rotation=xticks_rotation,
                                                               values_format=values_format, ax=ax, colorbar=colorbar, im_kw=im_kw,
                                                               text_kw=text_kw, normalize=normalize)  # fmt: skip

    @classmethod
    def from_estimator(cls, estimator: object, X: object, y: LabelsLike, **options: Any) -> ConfusionMatrixDisplay:
        """``from_predictions(y, estimator.predict(X), ...)``: a classifier's labels (scores of a
        regressor are refused, as scikit-learn refuses a mix of classes and continuous values)."""
        if not hasattr(estimator, "predict"):
            raise InvalidTypeError(f"expected a fitted estimator with predict, got {show(estimator)}")
        predicted = np.asarray(estimator.predict(X))
        if predicted.dtype.kind == "f" and predicted.size and not np.all(np.isnan(predicted) | (predicted == np.round(predicted))):
            raise InvalidArgumentError(f"the estimator {show(estimator)} predicts continuous values ({show(predicted[:5])}), not classes: "
                                       "a confusion matrix needs a classifier")  # fmt: skip
        return cls.from_predictions(y, predicted, **options)


class CalibrationDisplay(_Display):
    """The reliability diagram of probabilities of the positive class:
    ``CalibrationDisplay(prob_true, prob_pred, y_prob, estimator_name=...)`` as
    scikit-learn's, or of a binary ``Calibration`` (with ``n_bins`` and ``strategy``)."""

    prob_true: ArrayLike
    prob_pred: ArrayLike
    y_prob: ScoresLike | None
    calibration: Calibration | None

    def __init__(self, prob_true: Calibration | ArrayLike, prob_pred: ArrayLike | None = None, y_prob: ScoresLike | None = None, *,
                 estimator_name: object = None, pos_label: Hashable | None = None, n_bins: int = 5, strategy: str = "uniform", name: object = None) -> None:  # fmt: skip
        self.estimator_name = name if name is not None else estimator_name
        self.calibration, self.n_bins, self.strategy = None, n_bins, strategy
        if isinstance(prob_true, Calibration):
            self.calibration = prob_true
            points = prob_true.reliability(n_bins=n_bins, strategy=strategy)
            self.prob_true, self.prob_pred, self.y_prob, self.pos_label = points.frequency, points.confidence, None, prob_true.labels[0]
        elif prob_pred is None:
            raise InvalidArgumentError("give a Calibration, or prob_true, prob_pred and y_prob (scikit-learn's calibration_curve)")
        else:
            self.prob_true, self.prob_pred, self.y_prob, self.pos_label = prob_true, prob_pred, y_prob, pos_label

    @property
    def name(self) -> object:
        return self.estimator_name

    def plot(self, *, ax: Axes | None = None, name: str | None = None, ref_line: bool = True, title: str | None = None, **kwargs: Any) -> CalibrationDisplay:
        """Draw the diagram (``line_``, matplotlib's keywords), the diagonal of calibrated
        scores with ``ref_line``, and return the display."""
        ax = _axes(ax)
        label = name if name is not None else self.estimator_name
        (self.line_,) = ax.plot(self.prob_pred, self.prob_true, **{"marker": "s", "linestyle": "-", **({"label": label} if label else {}), **kwargs})
        if ref_line:
            ax.plot([0, 1], [0, 1], "k:", label="Perfectly calibrated")
        positive = "" if self.pos_label is None else f" (Positive class: {self.pos_label})"
        ax.set(xlabel=f"Mean predicted probability{positive}", ylabel=f"Fraction of positives{positive}", xlim=(-0.05, 1.05), ylim=(-0.05, 1.05))
        if label or ref_line:
            ax.legend(loc="lower right")
        if title is not None:
            ax.set_title(title)
        return self._kept(ax)

    @classmethod
    def from_predictions(cls, y_true: LabelsLike, y_prob: ScoresLike, *, n_bins: int = 5, strategy: str = "uniform", pos_label: Hashable | None = None, name: str | None = None,
                         ax: Axes | None = None, ref_line: bool = True, sample_weight: ArrayLike | None = None, **kwargs: Any) -> CalibrationDisplay:  # fmt: skip
        """The calibration of probabilities of the positive class, drawn."""
        calibration = Calibration.from_scores(y_true, y_prob, pos_label=pos_label, sample_weight=sample_weight)
        display = cls(calibration, n_bins=n_bins, strategy=strategy, name=name)
        display.y_prob = np.asarray(y_prob, dtype=np.float64)
        return display.plot(ax=ax, ref_line=ref_line, **kwargs)

    @classmethod
    def from_estimator(cls, estimator: object, X: object, y: LabelsLike, *, n_bins: int = 5, strategy: str = "uniform", pos_label: Hashable | None = None,
                       name: str | None = None, ax: Axes | None = None, ref_line: bool = True, **kwargs: Any) -> CalibrationDisplay:  # fmt: skip
        """The calibration of a fitted binary classifier's ``predict_proba`` on ``X``."""
        scores, positive = _responses(estimator, X, "predict_proba", pos_label)
        return cls.from_predictions(y, scores, n_bins=n_bins, strategy=strategy, pos_label=positive, name=name or type(estimator).__name__, ax=ax,
                                    ref_line=ref_line, **kwargs)  # fmt: skip


moved_names.publish("evalkit.displays", globals(), __all__)  # the face that gives these names, named so where they are defined
