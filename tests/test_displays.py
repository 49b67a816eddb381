"""Plot objects with scikit-learn's habits hold the numbers scikit-learn's displays hold, from
predictions and from a fitted estimator, and draw on the Axes they are given."""

import numpy as np
import pytest
from matplotlib.figure import Figure
from sklearn import metrics as sk
from sklearn.calibration import CalibrationDisplay as SkCalibrationDisplay
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.svm import LinearSVC

from evalkit import ConfusionMatrix
from evalkit.displays import (
    CalibrationDisplay,
    ConfusionMatrixDisplay,
    DetCurveDisplay,
    PrecisionRecallDisplay,
    RocCurveDisplay,
)
from evalkit.exceptions import EvalkitError


@pytest.fixture(scope="module")
def fitted():
    X, y = make_classification(400, random_state=0)
    return LogisticRegression().fit(X, y), LinearSVC().fit(X, y), X, y


CURVES = [
    (RocCurveDisplay, sk.RocCurveDisplay, ("fpr", "tpr"), "roc_auc"),
    (PrecisionRecallDisplay, sk.PrecisionRecallDisplay, ("precision", "recall"), "average_precision"),
    (DetCurveDisplay, sk.DetCurveDisplay, ("fpr", "fnr"), None),
]


@pytest.mark.parametrize(("ours", "theirs", "arrays", "area"), CURVES)
def test_curve_displays_hold_scikit_learns_numbers(fitted, ours, theirs, arrays, area):
    probabilistic, decision, X, y = fitted
    for estimator in (probabilistic, decision):  # predict_proba, then decision_function
        mine, reference = ours.from_estimator(estimator, X, y), theirs.from_estimator(estimator, X, y)
        for name in arrays:
            assert np.allclose(getattr(mine, name), getattr(reference, name), rtol=1e-12, atol=1e-13), name
        if area:
            assert getattr(mine, area) == pytest.approx(getattr(reference, area), abs=1e-12)
        assert mine.ax_.figure is mine.figure_ and type(estimator).__name__ in mine.ax_.get_legend().get_texts()[0].get_text()
    scores = probabilistic.predict_proba(X)[:, 0]
    mine = ours.from_predictions(y, scores, pos_label=0)  # the other class as the positive one
    reference = theirs.from_predictions(y, scores, pos_label=0)
    assert np.allclose(getattr(mine, arrays[0]), getattr(reference, arrays[0]))


def test_calibration_and_confusion_displays_hold_scikit_learns_numbers(fitted):
    estimator, _, X, y = fitted
    for strategy in ("uniform", "quantile"):
        mine, reference = CalibrationDisplay.from_estimator(estimator, X, y, n_bins=7, strategy=strategy), SkCalibrationDisplay.from_estimator(
            estimator, X, y, n_bins=7, strategy=strategy)  # fmt: skip
        assert np.allclose(mine.prob_true, reference.prob_true) and np.allclose(mine.prob_pred, reference.prob_pred)
    mine, reference = ConfusionMatrixDisplay.from_estimator(estimator, X, y), sk.ConfusionMatrixDisplay.from_estimator(estimator, X, y)
    assert np.array_equal(mine.confusion_matrix.to_array(), reference.confusion_matrix)


def test_plot_draws_on_the_given_axes_and_returns_the_display():
    ax = Figure().add_subplot()
    display = RocCurveDisplay.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    assert display.plot(ax=ax, title="mine") is display and display.ax_ is ax and ax.get_title() == "mine"
    matrix = ConfusionMatrixDisplay([[3, 1], [0, 2]], display_labels=["cat", "dog"]).plot(normalize="true", include_values=False)
    assert matrix.display_labels == ("cat", "dog") and not matrix.ax_.texts
    named = ConfusionMatrixDisplay(ConfusionMatrix.from_predictions([0, 1], [0, 1]), display_labels=["no", "yes"])
    assert named.confusion_matrix.labels == ("no", "yes")


def test_estimators_that_are_not_binary_classifiers_are_refused(fitted):
    _, _, X, y = fitted
    with pytest.raises(EvalkitError, match="binary"):
        RocCurveDisplay.from_estimator(LogisticRegression().fit(X, np.arange(len(y)) % 3), X, y)
    with pytest.raises(EvalkitError, match="predict_proba"):
        CalibrationDisplay.from_estimator(LinearSVC().fit(X, y), X, y)
    with pytest.raises(EvalkitError, match="pos_label"):
        RocCurveDisplay.from_estimator(LogisticRegression().fit(X, y), X, y, pos_label=7)
