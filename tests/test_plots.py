"""Plots render real images (Agg, no screen) and matplotlib is imported only when they are used."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from matplotlib.image import imread

from evalkit import ConfusionMatrix, Covering, Evaluation, NeighborhoodSystem, plots
from evalkit.exceptions import InvalidArgumentError, InvalidTypeError

ROOT = Path(__file__).resolve().parent.parent


def saved(ax, tmp_path, name="plot.png"):
    path = tmp_path / name
    ax.figure.savefig(path, dpi=60)
    image = imread(path)
    return path, image


def assert_real_image(path, image, min_side=150):
    assert path.stat().st_size > 3000
    height, width = image.shape[:2]
    assert min(height, width) >= min_side
    gray = image[..., :3].mean(axis=2)
    assert gray.std() > 0.05  # not blank
    assert (gray < 0.5).mean() > 0.005  # some ink


@pytest.mark.parametrize("normalize", [None, "true", "pred", "all"])
def test_confusion_matrix_heatmap(tmp_path, normalize):
    cm = ConfusionMatrix.from_predictions(list("aabbccc"), list("abbbcca"))
    ax = plots.confusion_matrix(cm, normalize=normalize)
    assert ax.get_xlabel() == "predicted" and ax.get_ylabel() == "actual"
    assert [tick.get_text() for tick in ax.get_xticklabels()] == ["a", "b", "c"]
    assert len(ax.texts) == 9  # annotated
    assert_real_image(*saved(ax, tmp_path))


def test_heatmap_cells_show_weighted_counts_as_reports_do():
    # a weighted count of 2.5 is not 2; a count of 1e300 not its 301 digits (as the displays too)
    from evalkit.displays import ConfusionMatrixDisplay

    cm = ConfusionMatrix.from_predictions([0, 1, 1], [0, 1, 0], sample_weight=[1e300, 1, 2.5])
    assert [text.get_text() for text in plots.confusion_matrix(cm).texts] == ["1.00e+300", "0", "2.50", "1"]
    assert [text.get_text() for text in ConfusionMatrixDisplay(cm).plot(colorbar=False).text_.ravel()] == ["1e+300", "0", "2.5", "1"]


def test_a_heatmap_of_forty_classes_stays_readable(tmp_path):
    rng = np.random.default_rng(0)
    labels = np.array([f"class_{i:02d}" for i in range(40)])
    truth = rng.integers(0, 40, 4000)
    guess = np.where(rng.random(4000) < 0.7, truth, rng.integers(0, 40, 4000))
    ax = plots.confusion_matrix(ConfusionMatrix.from_predictions(labels[truth], labels[guess]), normalize="true")
    assert len(ax.get_yticklabels()) == 40 and not ax.texts  # no cell annotations at this size
    assert ax.get_yticklabels()[0].get_fontsize() >= 6
    path, image = saved(ax, tmp_path)
    assert_real_image(path, image, min_side=500)


def test_per_class_bars_and_comparisons(tmp_path):
    ev = Evaluation.from_label_sets([{"a", "b"}, {"c"}, {"a"}], [{"a"}, {"c", "b"}, {"a"}])
    ax = plots.per_class(ev, ["precision", "recall", "f1_score"])
    assert len(ax.patches) == 9
    assert_real_image(*saved(ax, tmp_path, "bars.png"))
    first = ConfusionMatrix.from_predictions(list("aabbcc"), list("aabbca"))
    second = ConfusionMatrix.from_predictions(list("aabbcc"), list("abbbcc"))
    ax = plots.compare(first, second, names=["old", "new"])
    assert len(ax.patches) == 12
    assert_real_image(*saved(ax, tmp_path, "compare.png"))
    ideal = Covering("abcdefg", [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "g"}])
    one = NeighborhoodSystem(ideal).evaluate(Covering("abcdefg", [{"b", "c"}, {"e", "f"}, {"a", "d", "g"}]))
    two = NeighborhoodSystem(ideal).evaluate(Covering("abcdefg", [{"b", "c"}, {"e", "c", "f"}, {"a", "d", "g"}]))
    ax = plots.compare(one, two, names=["method 1", "method 2"])
    assert "RAR 3" in ax.get_legend().get_texts()[0].get_text()
    assert_real_image(*saved(ax, tmp_path, "aa.png"))


def test_plot_arguments_are_checked():
    cm = ConfusionMatrix.from_predictions([0, 1], [0, 1])
    with pytest.raises(InvalidArgumentError, match="'normalize'"):
        plots.confusion_matrix(cm, normalize="rows")
    with pytest.raises(InvalidTypeError):
        plots.confusion_matrix([[1, 2], [3, 4]])
    with pytest.raises(InvalidTypeError, match="same labels"):
        plots.compare(cm, ConfusionMatrix.from_predictions([0, 2], [0, 2]))


def test_importing_evalkit_imports_no_optional_package():
    code = "import sys, evalkit; print(sorted(m for m in ('matplotlib', 'sklearn', 'scipy', 'dask', 'pandas') if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, check=False, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert result.stdout.strip() == "[]"


def three_class_curve():
    from evalkit import ThresholdCurve

    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 600)
    scores = rng.dirichlet([1, 1, 1], 600) * 0.6 + np.eye(3)[y] * 0.4
    return ThresholdCurve.from_scores(np.array(["cat", "dog", "fox"])[y], scores)


def test_roc_curves_one_per_class_with_the_auc_and_the_threshold_marked(tmp_path):
    curve = three_class_curve()
    best = curve.best_threshold("f1_score")
    ax = plots.roc(curve, mark=best)
    legend = [text.get_text() for text in ax.get_legend().get_texts()]
    assert legend == [f"{label} (AUC {curve.roc_auc(label):.3f})" for label in curve.labels]
    lines = ax.get_lines()
    fpr, tpr, _ = curve.roc("dog")
    assert np.allclose(lines[2].get_xdata(), fpr) and np.allclose(lines[2].get_ydata(), tpr)  # line, marker, line, ...
    marker = lines[3]
    cells = curve.at(best.threshold).class_cells
    assert marker.get_ydata()[0] == pytest.approx(cells.tp[1] / (cells.tp[1] + cells.fn[1]))
    assert_real_image(*saved(ax, tmp_path))


def test_precision_recall_micro_curve_and_measures_by_threshold(tmp_path):
    curve = three_class_curve()
    ax = plots.precision_recall(curve, average="micro", mark=0.5)
    assert [text.get_text() for text in ax.get_legend().get_texts()] == [f"micro (AP {curve.micro().average_precision():.3f})"]
    assert any(text.get_text() == "t = 0.5" for text in ax.texts)
    assert_real_image(*saved(ax, tmp_path, "pr.png"))
    ax = plots.measures_by_threshold(curve, ["precision", "recall"], average="macro", mark=curve.best_threshold("f1_score", average="macro"))
    values, _thresholds = curve.evaluate("recall", average="macro")
    assert np.allclose(ax.get_lines()[1].get_ydata(), values)
    assert_real_image(*saved(ax, tmp_path, "by_threshold.png"))
    with pytest.raises(InvalidArgumentError, match="label"):
        plots.measures_by_threshold(curve)  # three classes: a label or an average
    with pytest.raises(InvalidTypeError):
        plots.roc(ConfusionMatrix([0, 1]))


def test_intervals_side_by_side(tmp_path):
    from evalkit import compare

    matrix = ConfusionMatrix.from_array([[40, 10], [5, 45]])
    found = {"accuracy": matrix.interval("accuracy", method="wilson"), "macro F1": matrix.interval("f1_score", "macro", random_state=0)}
    found["A - B"] = compare([0, 1, 1, 0, 1] * 20, [0, 1, 1, 0, 0] * 20, [0, 1, 0, 0, 0] * 20)
    ax = plots.intervals(found)
    assert [tick.get_text() for tick in ax.get_yticklabels()] == ["accuracy", "macro F1", "A - B"]
    assert ax.get_title() == "95% confidence intervals"
    assert_real_image(*saved(ax, tmp_path))
    with pytest.raises(InvalidTypeError):
        plots.intervals({"x": 0.5})


def test_measures_over_time_with_the_accuracy_band(tmp_path):
    from evalkit import over_time

    rng = np.random.default_rng(0)
    actual = rng.integers(0, 3, 600)
    predicted = np.where(rng.random(600) < 0.8, actual, (actual + 1) % 3)
    table = over_time(actual, predicted, window=100, step=50, measures=["recall", "f1_score"])
    ax = plots.over_time(table, ["macro recall"])
    assert [line.get_label() for line in ax.get_lines()] == ["accuracy", "macro recall"]
    assert len(ax.collections) == 1  # the band of accuracy's interval
    assert_real_image(*saved(ax, tmp_path))
    with pytest.raises(InvalidTypeError, match="no column 'macro precision'"):
        plots.over_time(table, ["macro precision"])
    with pytest.raises(InvalidTypeError, match="OverTime"):
        plots.over_time(ConfusionMatrix(["a"]))


def test_residuals_and_predicted_against_actual(tmp_path):
    from evalkit.exceptions import InputLengthError, InvalidValueError

    rng = np.random.default_rng(0)
    y = rng.normal(10.0, 3.0, size=(300, 2))
    p = y + rng.normal(0.0, 1.0, size=y.shape)
    ax = plots.residuals(y, p)
    offsets = ax.collections[0].get_offsets()
    assert np.allclose(offsets[:, 0], p[:, 0]) and np.allclose(offsets[:, 1], y[:, 0] - p[:, 0])
    assert_real_image(*saved(ax, tmp_path, "residuals.png"))
    ax = plots.predicted_vs_actual(y[:, 0], p[:, 0])
    r2 = 1 - np.sum((y[:, 0] - p[:, 0]) ** 2) / np.sum((y[:, 0] - y[:, 0].mean()) ** 2)
    assert ax.get_legend().get_texts()[0].get_text() == f"R² {r2:.3f}"
    assert_real_image(*saved(ax, tmp_path, "predicted.png"))
    with pytest.raises(InputLengthError):
        plots.residuals([1.0, 2.0], [1.0])
    with pytest.raises(InvalidValueError):
        plots.predicted_vs_actual([1.0, np.nan], [1.0, 2.0])


def test_windows_of_time_are_drawn_at_their_end_times_and_top_label_reliability_reads_accuracy(tmp_path):
    import datetime

    from evalkit import Calibration
    from evalkit.io._over_time import OverTime

    rows = tuple({"window": k, "end": f"2024-03-0{k}T00:00:00Z", "samples": 10, "accuracy": 0.8, "accuracy_low": 0.5, "accuracy_high": 0.9}
                 for k in (1, 2, 3))  # fmt: skip
    ax = plots.over_time(OverTime("windows of 1d by t, every 1d", (), rows, axis="t"))
    drawn = ax.get_lines()[0].get_xdata()
    assert [np.datetime64(value, "s") if not isinstance(value, datetime.datetime) else np.datetime64(value.replace(tzinfo=None), "s") for value in drawn] == [
        np.datetime64(f"2024-03-0{k}T00:00:00") for k in (1, 2, 3)]  # fmt: skip
    assert ax.get_xlabel() == "t (end of the window, UTC)"
    assert_real_image(*saved(ax, tmp_path))
    probabilities = np.array([[0.7, 0.2, 0.1], [0.3, 0.6, 0.1], [0.2, 0.2, 0.6], [0.5, 0.4, 0.1]])
    assert plots.reliability(Calibration.from_scores([0, 1, 1, 0], probabilities, labels=[0, 1, 2])).get_ylabel() == "observed accuracy"
    assert plots.reliability(Calibration.from_scores([0, 1, 1, 0], [0.2, 0.9, 0.4, 0.3])).get_ylabel() == "observed share of positives"
