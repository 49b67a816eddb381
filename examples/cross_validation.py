"""Cross-validation: average the same class over folds with Stats (mean and spread)."""

import numpy as np

from evalkit import ClassificationMetrics, ConfusionMatrix

rng = np.random.default_rng(7)
labels = ["negative", "positive"]
folds = []
for _ in range(5):  # five folds
    y_true = rng.integers(0, 2, 200)
    # a classifier that is right 85% of the time
    y_pred = np.where(rng.random(200) < 0.85, y_true, 1 - y_true)
    cm = ConfusionMatrix.from_predictions(y_true, y_pred, labels=[0, 1])
    folds.append(ClassificationMetrics(cm))

stats = ClassificationMetrics.average(folds)
for name in ("accuracy", "precision", "recall", "f1_score", "matthews_correlation_coefficient"):
    s = stats.summary(name)
    print(f"{name:34s} {s.mean:.3f} ± {s.std:.3f}  [{s.min:.3f}, {s.max:.3f}]")
print(stats)  # Java's Stats{...} layout, every metric's mean
