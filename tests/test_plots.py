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
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert result.stdout.strip() == "[]"
