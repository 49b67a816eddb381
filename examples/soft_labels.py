"""Soft labels: annotator agreement against predicted probabilities, under three t-norms."""

import numpy as np

from evalkit import Evaluation

rng = np.random.default_rng(3)
# five annotators per image and label: the actual degree is the share who said yes
actual = rng.integers(0, 6, size=(200, 4)) / 5
# a model's probabilities, correlated with the annotators
predicted = np.clip(actual + rng.normal(0, 0.2, actual.shape), 0, 1)

for tnorm in ("product", "minimum", "lukasiewicz"):
    ev = Evaluation.from_soft(actual, predicted, labels=["cat", "dog", "car", "tree"], tnorm=tnorm)
    print(f"{tnorm:12s} micro F1 {ev.average('f1_score', 'micro'):.3f}  macro F1 {ev.average('f1_score', 'macro'):.3f}  "
          f"samples F1 {ev.average('f1_score', 'samples'):.3f}")

# with the product t-norm micro F1 has a closed form: 2<A, P> / (σ1(A) + σ1(P))
product = Evaluation.from_soft(actual, predicted)
closed_form = 2 * (actual * predicted).sum() / (actual.sum() + predicted.sum())
print("closed form", round(closed_form, 6), "evalkit", round(product.average("f1_score", "micro"), 6))
