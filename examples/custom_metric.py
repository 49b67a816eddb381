"""A metric defined once is used everywhere: one more get_* method on a subclass.

Here a screening team wants the number needed to screen (how many samples are examined per
true positive found) next to the usual metrics. Lower is better, so the getter says so with
@evalkit.measure; the class is the metrics class of the results, and the measure then appears in
the objects, Stats, averages, reports, intervals and threshold curves, without touching evalkit.
"""

import math

import numpy as np

import evalkit
from evalkit import ClassificationMetrics, ConfusionMatrix, ThresholdCurve


class ScreeningMetrics(ClassificationMetrics):
    @evalkit.measure(direction="lower", bounds=(1, math.inf), aliases=("nns",), abbreviation="NNS")
    def get_number_needed_to_screen(self):
        """Samples screened per true positive found: total / tp."""
        tp = self.get_true_positive()
        return self.get_total() / tp if tp else math.nan


# three sites of a screening programme: actual (rows) healthy/ill, predicted (columns)
sites = [
    ConfusionMatrix.from_array([[900, 40], [10, 50]], ["healthy", "ill"], metrics_class=ScreeningMetrics),
    ConfusionMatrix.from_array([[450, 30], [5, 15]], ["healthy", "ill"], metrics_class=ScreeningMetrics),
    ConfusionMatrix.from_array([[1200, 90], [30, 80]], ["healthy", "ill"], metrics_class=ScreeningMetrics),
]
per_site = [ScreeningMetrics(cm) for cm in sites]

print(per_site[0])  # the Java-style text, with the new metric as its last line
print()
stats = ScreeningMetrics.average(per_site)  # a Stats of every metric, the new one included
summary = stats.summary("nns")
print(f"number needed to screen: mean {summary.mean:.1f}, std {summary.std:.1f}, "
      f"range {summary.min:.1f}..{summary.max:.1f} over {summary.n} sites")

# the three sites counted together: a report with the new column, sorted best first, and an interval
together = sum(sites)
print()
print(together.report(measures=["recall", "precision", "nns"], sort_by="nns").to_text())
print()
print("number needed to screen of the ill class:", together.interval("nns", label="ill", random_state=0))

# scores: the threshold where the fewest samples are screened per case found (lowest, not highest)
rng = np.random.default_rng(0)
y = rng.integers(0, 2, 400)
scores = np.clip(y * 0.3 + rng.random(400) * 0.7, 0, 1)
best = ThresholdCurve.from_scores(y, scores, metrics_class=ScreeningMetrics).best_threshold("nns")
print(f"best threshold {best.threshold:.3f}: {best.value:.2f} samples screened per case found")
assert best.value < 2
