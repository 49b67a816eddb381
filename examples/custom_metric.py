"""Subclassing adds a metric: one more get_* method shows up in to_dict, str and Stats.

Here a screening team wants the number needed to screen (how many samples are examined per
true positive found) next to the usual metrics, in every report, without touching evalkit.
"""

import math

from evalkit import ClassificationMetrics, ConfusionMatrix


class ScreeningMetrics(ClassificationMetrics):
    def get_number_needed_to_screen(self):
        """Samples screened per true positive found: total / tp."""
        tp = self.get_true_positive()
        return self.get_total() / tp if tp else math.nan


# three sites of a screening programme: actual (rows) healthy/ill, predicted (columns)
sites = [
    ConfusionMatrix.from_array([[900, 40], [10, 50]], ["healthy", "ill"]),
    ConfusionMatrix.from_array([[450, 30], [5, 15]], ["healthy", "ill"]),
    ConfusionMatrix.from_array([[1200, 90], [30, 80]], ["healthy", "ill"]),
]
per_site = [ScreeningMetrics(cm) for cm in sites]

print(per_site[0])  # the Java-style text, with the new metric as its last line
print()
print({name: round(value, 3) for name, value in per_site[0].to_dict().items() if isinstance(value, float)})
print()
stats = ScreeningMetrics.average(per_site)  # a Stats of every metric, the new one included
summary = stats.summary("number_needed_to_screen")
print(f"number needed to screen: mean {summary.mean:.1f}, std {summary.std:.1f}, "
      f"range {summary.min:.1f}..{summary.max:.1f} over {summary.n} sites")
assert "number_needed_to_screen" in stats.names
