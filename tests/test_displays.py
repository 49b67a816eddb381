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


# --------------------------------------------------------------------------------------------
# scikit-learn's own ways of building and drawing them


def test_the_displays_take_scikit_learns_arguments_and_keep_its_attributes(fitted):
    estimator, _, X, y = fitted
    theirs = sk.RocCurveDisplay.from_estimator(estimator, X, y)
    ours = RocCurveDisplay(fpr=theirs.fpr, tpr=theirs.tpr, roc_auc=theirs.roc_auc, name="LogisticRegression", pos_label=1).plot()
    assert np.allclose(ours.line_.get_xydata(), theirs.line_.get_xydata()) and ours.line_.get_label() == theirs.line_.get_label()
    assert ours.ax_.get_xlabel() == theirs.ax_.get_xlabel() and ours.ax_.get_ylabel() == theirs.ax_.get_ylabel()
    assert ours.ax_.get_xlim() == theirs.ax_.get_xlim() == (-0.01, 1.01)
    default = RocCurveDisplay.from_predictions(y, estimator.predict_proba(X)[:, 1], plot_chance_level=True, despine=True, alpha=0.5, color="red",
                                               curve_kwargs={"linewidth": 3})  # fmt: skip
    assert default.line_.get_label().startswith("Classifier (AUC = ") and default.line_.get_alpha() == 0.5 and default.line_.get_linewidth() == 3
    assert default.chance_level_.get_label() == "Chance level (AUC = 0.5)" and not default.ax_.spines["top"].get_visible()
    for drop in (True, False):
        mine = RocCurveDisplay.from_predictions(y, estimator.decision_function(X), drop_intermediate=drop)
        reference = sk.RocCurveDisplay.from_predictions(y, estimator.decision_function(X), drop_intermediate=drop)
        assert np.allclose(mine.fpr, reference.fpr) and np.allclose(mine.tpr, reference.tpr)
    precision = PrecisionRecallDisplay(theirs.tpr, theirs.fpr, average_precision=0.8, name="m", prevalence_pos_label=0.5).plot(plot_chance_level=True)
    assert precision.line_.get_label() == "m (AP = 0.80)" and precision.chance_level_.get_label() == "Chance level (AP = 0.50)"
    det = DetCurveDisplay(fpr=np.array([0.1, 0.5]), fnr=np.array([0.5, 0.1]), estimator_name="d").plot()
    assert det.line_.get_label() == "d" and det.ax_.get_xlabel() == "False Positive Rate"
    matrix = ConfusionMatrixDisplay(np.array([[3, 1], [0, 2]])).plot(xticks_rotation=45, values_format=".1f", colorbar=False,
                                                                       im_kw={"alpha": 0.5}, text_kw={"fontsize": 7})  # fmt: skip
    assert matrix.text_.shape == (2, 2) and matrix.text_[0, 0].get_text() == "3.0" and matrix.text_[0, 0].get_fontsize() == 7
    assert matrix.im_.get_alpha() == 0.5 and matrix.ax_.get_xticklabels()[0].get_rotation() == 45
    reference_cal = SkCalibrationDisplay.from_estimator(estimator, X, y)
    calibration = CalibrationDisplay(reference_cal.prob_true, reference_cal.prob_pred, reference_cal.y_prob, estimator_name="c").plot(ref_line=False)
    assert calibration.line_.get_label() == "c" and np.allclose(calibration.line_.get_xydata()[:, 1], reference_cal.prob_true)


def test_curves_of_cross_validation_folds_are_scikit_learns():
    from sklearn.model_selection import cross_validate

    X, y = make_classification(300, random_state=1)
    folds = cross_validate(LogisticRegression(), X, y, cv=3, return_estimator=True, return_indices=True)
    for ours, theirs, area in ((RocCurveDisplay, sk.RocCurveDisplay, "roc_auc"), (PrecisionRecallDisplay, sk.PrecisionRecallDisplay, "average_precision")):
        mine, reference = ours.from_cv_results(folds, X, y), theirs.from_cv_results(folds, X, y)
        assert np.allclose(getattr(mine, area), getattr(reference, area), atol=1e-12) and len(mine.line_) == 3
        assert mine.line_[0].get_label() == reference.line_[0].get_label()  # one legend entry: the folds' mean and spread


def test_a_regressor_gives_no_confusion_matrix():
    from sklearn.svm import SVR

    X, y = make_classification(100, random_state=2)
    with pytest.raises(EvalkitError, match="predicts continuous values"):
        ConfusionMatrixDisplay.from_estimator(SVR().fit(X, y), X, y)
