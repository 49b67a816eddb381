"""How far a spam filter's probabilities are from the truth, and whether it matters.

    python examples/calibration.py

The bundled comparison holds two filters' probabilities of spam on the same 400 messages.
Each is summarised by its calibration errors, its Brier score and that score's parts, and
the ECE's confidence interval; the reliability diagram shows where filter A is wrong.
"""

from evalkit import Calibration
from evalkit.datasets import load_comparison
from evalkit.metrics import expected_calibration_error

spam = load_comparison()
for model in ("a", "b"):
    calibration = Calibration.from_scores(spam["actual"], spam[f"score_{model}"], pos_label="spam")
    numbers = calibration.summary(n_bins=10)
    interval = calibration.interval("ece", n_bins=10, random_state=0)
    print(f"filter {model.upper()}: ECE {numbers['expected_calibration_error']:.3f} "
          f"(95% interval {interval.low:.3f} to {interval.high:.3f}), debiased MSCE {numbers['debiased_mean_squared_calibration_error']:.4f}, "
          f"Brier {numbers['brier_score']:.3f} = reliability {numbers['reliability']:.3f} - resolution {numbers['resolution']:.3f} "
          f"+ uncertainty {numbers['uncertainty']:.3f} (+ within-bin terms), Spiegelhalter p = {numbers['spiegelhalter_p_value']:.2g}")

    points = calibration.reliability(n_bins=10)
    for score, share, weight in zip(points.confidence, points.frequency, points.weight):
        print(f"    mean probability {score:.2f}: {share:.0%} spam of {weight:.0f} messages")

# the one-line function, scikit-learn style
assert abs(expected_calibration_error(spam["actual"], spam["score_a"], pos_label="spam", n_bins=10) - 0.1008) < 1e-3
