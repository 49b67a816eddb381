"""Plots of evalkit results (needs the plot extra: pip install "evalkit[plot]").

    python examples/plots.py [OUTPUT_DIRECTORY]    # default: a new temporary directory

Writes the images shown in the documentation: a confusion matrix of the bundled example,
a normalised one of 40 classes, per-class bars of a multi-label evaluation, two comparisons
(two classifiers per class; AA/RAR of two methods), and the curves of three-class scores
(ROC, precision-recall, measures against the threshold), intervals, and the reliability diagram
of a spam filter's probabilities, and Demšar's critical-difference diagram of four variants of
C4.5 on 14 data sets, the measures of a stream over time, before and after a drop, and a stream's
accuracy read after every batch with Wilson's interval and with the confidence sequence.
"""

import sys
import tempfile
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

from evalkit import (
    Calibration,
    ConfusionMatrix,
    Covering,
    Evaluation,
    NeighborhoodSystem,
    ThresholdCurve,
    by_group,
    compare,
    over_time,
    plots,
)
from evalkit.datasets import load_comparison, load_example, load_many_datasets

output = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="evalkit-plots-"))
output.mkdir(parents=True, exist_ok=True)

iris = ConfusionMatrix.from_predictions(*load_example())
plots.confusion_matrix(iris).figure.savefig(output / "confusion_matrix.png", dpi=90)

rng = np.random.default_rng(0)
names = np.array([f"class_{k:02d}" for k in range(40)])
truth = rng.integers(0, 40, 6000)
guess = np.where(rng.random(6000) < 0.75, truth, rng.integers(0, 40, 6000))
many = ConfusionMatrix.from_predictions(names[truth], names[guess])
plots.confusion_matrix(many, normalize="true").figure.savefig(output / "confusion_matrix_40.png", dpi=60)

tags = Evaluation.from_label_sets(
    [{"news", "sport"}, {"politics"}, {"economy"}, {"sport"}, {"news"}, {"economy", "politics"}],
    [{"sport"}, {"politics", "news"}, {"economy"}, {"sport"}, {"news", "sport"}, {"economy"}],
)
plots.per_class(tags, ["precision", "recall", "f1_score"]).figure.savefig(output / "per_class.png", dpi=90)

old = ConfusionMatrix.from_array([[45, 3, 2], [6, 40, 4], [3, 7, 40]], ["low", "mid", "high"])
new = ConfusionMatrix.from_array([[47, 2, 1], [4, 43, 3], [5, 4, 41]], ["low", "mid", "high"])
plots.compare(old, new, names=["old model", "new model"]).figure.savefig(output / "compare.png", dpi=90)

ideal = Covering("abcdefg", [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "g"}])
first = NeighborhoodSystem(ideal).evaluate(Covering("abcdefg", [{"b", "c"}, {"e", "f"}, {"a", "d", "g"}]))
second = NeighborhoodSystem(ideal).evaluate(Covering("abcdefg", [{"b", "c"}, {"e", "c", "f"}, {"a", "d", "g"}]))
plots.compare(first, second, names=["method 1", "method 2"]).figure.savefig(output / "aa_rar.png", dpi=90)

classes = np.array(["cat", "dog", "fox"])
truth = rng.integers(0, 3, 1500)
scores = rng.dirichlet([1, 1, 1], 1500) * 0.65 + np.eye(3)[truth] * 0.35
curve = ThresholdCurve.from_scores(classes[truth], scores)
best = curve.best_threshold("f1_score")
plots.roc(curve, mark=best).figure.savefig(output / "roc.png", dpi=80)
plots.precision_recall(curve, mark=best).figure.savefig(output / "precision_recall.png", dpi=80)
macro = curve.best_threshold("f1_score", average="macro")
plots.measures_by_threshold(curve, average="macro", mark=macro).figure.savefig(output / "measures_by_threshold.png", dpi=80)

spam = load_comparison()
found = {}
for model in ("a", "b"):
    matrix = ConfusionMatrix.from_predictions(spam["actual"], spam[f"predicted_{model}"])
    found[f"accuracy, filter {model.upper()}"] = matrix.interval("accuracy", random_state=0)
    found[f"macro F1, filter {model.upper()}"] = matrix.interval("f1_score", "macro", random_state=0)
    scores = ThresholdCurve.from_scores(spam["actual"], spam[f"score_{model}"], pos_label="spam")
    found[f"ROC AUC, filter {model.upper()}"] = scores.interval()
found = {name: found[name] for name in sorted(found, key=lambda name: (name.split(",")[0], name))}
found["macro F1, A - B (paired)"] = compare(spam["actual"], spam["predicted_a"], spam["predicted_b"], "f1_score", "macro", method="bca", random_state=0)
plots.intervals(found).figure.savefig(output / "intervals.png", dpi=80)

filter_a_curve = ThresholdCurve.from_scores(spam["actual"], spam["score_a"], pos_label="spam")
chosen = filter_a_curve.optimize("precision", subject_to="recall >= 0.9")
plots.precision_recall(filter_a_curve, mark=chosen, title="Spam filter A: precision at recall >= 0.9").figure.savefig(output / "operating_point.png", dpi=80)
plots.gains(filter_a_curve).figure.savefig(output / "gains.png", dpi=80)

region_rng = np.random.default_rng(7)
region = region_rng.choice(["north", "south", "east", "west"], 4000, p=[0.4, 0.3, 0.2, 0.1])
repaid = region_rng.random(4000) < np.select([region == "west"], [0.55], 0.7)
approved = np.where(region_rng.random(4000) < np.select([region == "east", region == "west"], [0.25, 0.3], 0.15), ~repaid, repaid)
regions = by_group(repaid, approved, region, min_size=500)
by_region = {key: regions[key].interval("recall", "macro", random_state=0) for key in regions}
plots.intervals(by_region, title="Macro recall by region").figure.savefig(output / "by_group.png", dpi=80)

filter_a = Calibration.from_scores(spam["actual"], spam["score_a"], pos_label="spam")
plots.reliability(filter_a, n_bins=10, title="Spam filter A: reliability").figure.savefig(output / "reliability.png", dpi=80)

demsar = load_many_datasets()
plots.critical_difference(demsar, 0.10).figure.savefig(output / "critical_difference.png", dpi=80)

rng = np.random.default_rng(0)  # the stream of the monitoring guide: a model that degrades after sample 3,000
stream_actual = rng.choice(["ok", "fraud"], 5000, p=[0.9, 0.1])
stream_right = rng.random(5000) < np.where(np.arange(5000) > 3000, 0.75, 0.95)
stream_predicted = np.where(stream_right, stream_actual, np.where(stream_actual == "ok", "fraud", "ok"))
table = over_time(stream_actual, stream_predicted, window=500, step=100, measures=["recall"])
plots.over_time(table, title="Accuracy and macro recall of the last 500 samples").figure.savefig(output / "over_time.png", dpi=80)

# A stream read after every batch (the anytime guide): one of the streams where Wilson's interval
# leaves the true accuracy, 0.9, out at some read, while the confidence sequence never does.
rng = np.random.default_rng(6)
stream_truth = rng.integers(0, 2, 20_000)
stream_guess = np.where(rng.random(20_000) < 0.9, stream_truth, 1 - stream_truth)
stream = ConfusionMatrix([0, 1])
reads, bands, done = np.unique(np.geomspace(20, 20_000, 300).astype(int)), [], 0
for end in reads:
    stream.update(stream_truth[done:end], stream_guess[done:end])
    done = end
    fixed, sequence = stream.interval("accuracy", method="wilson"), stream.interval("accuracy", anytime=True)
    bands.append((fixed.estimate, fixed.low, fixed.high, sequence.low, sequence.high))
estimate, fixed_low, fixed_high, sequence_low, sequence_high = np.array(bands).T
figure, axes = plt.subplots(figsize=(7, 3.6))
axes.fill_between(reads, sequence_low, sequence_high, color="tab:blue", alpha=0.2, label="95% confidence sequence (anytime=True)")
axes.fill_between(reads, fixed_low, fixed_high, color="tab:orange", alpha=0.35, label="95% Wilson interval, read every batch")
axes.plot(reads, estimate, color="black", linewidth=1, label="accuracy so far")
axes.axhline(0.9, color="tab:red", linestyle="--", linewidth=1, label="true accuracy")
missed = (fixed_low > 0.9) | (fixed_high < 0.9)
axes.scatter(reads[missed], estimate[missed], color="tab:red", s=12, zorder=3, label="reads where Wilson's misses it")
axes.set(xscale="log", xlabel="samples read", ylabel="accuracy", ylim=(0.75, 1.0), title="One stream read 300 times")
axes.legend(loc="lower right", fontsize=8)
figure.tight_layout()
figure.savefig(output / "anytime.png", dpi=80)

print("wrote", ", ".join(sorted(path.name for path in output.glob("*.png"))), "to", output)
