"""Thresholds from scores: the empirical optimum on data beside what the theory predicts.

    python examples/thresholds.py

On calibrated scores (P(y = 1 | score) = score) the decision theory of the algebraic
framework gives Bayes-optimal thresholds in closed form for measures that are ratios of
linear forms with a fixed denominator: 0.5 for accuracy, and for a cost of 1 per false
positive and 4 per false negative the threshold 1 / (1 + 4) = 0.2. F1 has no such closed form
(its denominator moves with the predictions), but its optimal threshold is half the best F1
(Lipton, Elkan and Naryanaswamy, "Optimal Thresholding of Classifiers to Maximize F1
Measure", 2014). One sort of 200,000 simulated scores gives the cells at every threshold, and
every optimum lands where the theory says.
"""

import numpy as np

from evalkit import ThresholdCurve, theory
from evalkit.exceptions import NoClosedFormError
from evalkit.formulas import Measure

rng = np.random.default_rng(0)
n = 200_000
probability = rng.beta(0.6, 1.4, n)  # calibrated scores
y = rng.random(n) < probability  # each sample is positive with the probability its score says
curve = ThresholdCurve.from_scores(y, probability)
print(curve)

best_accuracy = curve.best_threshold("accuracy")
print(f"accuracy: empirical optimum {best_accuracy.threshold:.3f}, Bayes-optimal {theory.bayes_optimal_threshold('accuracy'):.3f}")
assert abs(best_accuracy.threshold - theory.bayes_optimal_threshold("accuracy")) < 0.02


def cost(tp, fp, fn, tn):
    """Minus the average cost: 1 per false positive, 4 per false negative."""
    return -(fp + 4 * fn) / (tp + fp + fn + tn)


utility = Measure.from_function(cost, direction="higher", bounds=(-4.0, 0.0))
best_cost = curve.best_threshold(utility)
closed_form = theory.linear_utility_threshold(fp=-1, fn=-4)
print(f"cost 1 per FP, 4 per FN: empirical optimum {best_cost.threshold:.3f}, Bayes-optimal {closed_form:.3f}")
assert abs(best_cost.threshold - closed_form) < 0.02

try:
    theory.bayes_optimal_threshold("f1_score")
except NoClosedFormError as error:
    print(f"F1: {error}")
best_f1 = curve.best_threshold("f1_score")
print(f"F1: empirical optimum {best_f1.threshold:.3f}, half the best F1 {best_f1.value / 2:.3f} (F* = {best_f1.value:.3f})")
assert abs(best_f1.threshold - best_f1.value / 2) < 0.02

print(f"ROC AUC {curve.roc_auc():.4f}, average precision {curve.average_precision():.4f}")
