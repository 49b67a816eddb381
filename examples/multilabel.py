"""Multi-label evaluation: label sets per sample, the four averages, per-label Java-style objects."""

from evalkit import ClassificationMetrics, Evaluation

# topics of six news articles, and what a tagger predicted
actual = [{"politics", "economy"}, {"sport"}, {"economy"}, {"sport", "health"}, {"health"}, {"politics"}]
predicted = [{"politics"}, {"sport", "health"}, {"economy", "politics"}, {"sport"}, set(), {"politics"}]

ev = Evaluation.from_label_sets(actual, predicted)
print("labels:", ev.labels)
print(f"{'':10s}{'precision':>10s}{'recall':>10s}{'F1':>10s}")
for average in ("micro", "macro", "weighted", "samples"):
    p, r, f = (ev.average(name, average) for name in ("precision", "recall", "f1_score"))
    print(f"{average:10s}{p:10.3f}{r:10.3f}{f:10.3f}")
print("Hamming loss", round(ev.average("hamming_loss", "micro"), 3), " exact match", round(ev.get_accuracy(), 3))
print()

# precision of the sample with nothing predicted is undefined: excluded by default, reported
macro = ev.average("precision", "samples")
print(f"samples precision {macro:.3f} over {macro.n_defined} of {macro.n_values} samples; "
      f"as zero: {ev.average('precision', 'samples', undefined='zero'):.3f}")

for metrics in ev.class_metrics():
    print(f"{metrics.get_class_label():9s} tp={metrics.get_true_positive()} "
          f"F1={metrics.get_f1_score():.3f} MCC={metrics.get_matthews_correlation_coefficient():.3f}")
print(ClassificationMetrics.average(ev.class_metrics()))
