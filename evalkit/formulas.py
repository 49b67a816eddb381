"""Every binary measure, once, as a vectorised function of the four cell counts."""

from typing import TYPE_CHECKING

from evalkit._engine import moved_names
from evalkit.measures._formulas import *
from evalkit.measures._formulas import (
    diagnostic_odds_ratio,
    negative_likelihood_ratio,
    number_needed_to_diagnose,
    positive_likelihood_ratio,
    post_test_probability,
)

__all__ = [
    "accuracy",
    "balanced_accuracy",
    "cohen_kappa",
    "diagnostic_odds_ratio",
    "diagonal_correlation_coefficient",
    "error_rate",
    "f1_score",
    "f_score",
    "false_discovery_rate",
    "false_negative_rate",
    "false_omission_rate",
    "false_positive_rate",
    "fowlkes_mallows_index",
    "g_mean",
    "informedness",
    "jaccard_index",
    "markedness",
    "matrix_accuracy",
    "matrix_cohen_kappa",
    "matrix_matthews_correlation_coefficient",
    "matthews_correlation_coefficient",
    "negative_likelihood_ratio",
    "negative_predictive_value",
    "number_needed_to_diagnose",
    "positive_likelihood_ratio",
    "post_test_probability",
    "precision",
    "prevalence",
    "recall",
    "specificity",
]

moved_names.publish(__name__, globals(), __all__)

if not TYPE_CHECKING:  # the other names this path gave before it was a face, found with a warning
    __getattr__ = moved_names.finder(__name__, behind="evalkit.measures._formulas")
