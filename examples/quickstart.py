"""Quickstart: a confusion matrix, per-class metrics and averages from labels."""

from evalkit import ClassificationMetrics, ConfusionMatrix

y_true = ["cat", "cat", "cat", "dog", "dog", "dog", "bird", "bird"]
y_pred = ["cat", "cat", "dog", "dog", "dog", "cat", "bird", "dog"]

cm = ConfusionMatrix.from_predictions(y_true, y_pred)
print(cm)
print()

for metrics in ClassificationMetrics.create_from(cm):
    print(f"{metrics.get_class_label():>5}: precision {metrics.get_precision():.3f}  "
          f"recall {metrics.get_recall():.3f}  F1 {metrics.get_f1_score():.3f}")

print()
print("accuracy      ", round(cm.get_accuracy(), 4))
print("macro F1      ", round(cm.average("f1_score", "macro"), 4))
print("weighted F1   ", round(cm.average("f1_score", "weighted"), 4))
print("Cohen's kappa ", round(cm.get_cohen_kappa(), 4))
print("MCC           ", round(cm.get_matthews_correlation_coefficient(), 4))
