"""scikit-learn's classification and regression metrics, computed by evalkit: change one import line.

    from sklearn.metrics import f1_score, classification_report      # before
    from evalkit.metrics import f1_score, classification_report      # after

Every function has scikit-learn's name, signature, defaults and return type, and returns
scikit-learn's number (tested on generated cases to 1e-12), but is a thin call into evalkit's
counting core: an ``Evaluation`` of the data, then its per-class cells and averages. Inputs may
be lists, numpy arrays, pandas Series or Categoricals, and scipy sparse indicator matrices
(counted from their nonzero entries, never made dense). Sample weights, label subsets,
``pos_label``, every ``average`` and every ``zero_division`` work as in scikit-learn; where
scikit-learn warns, these functions warn with ``UndefinedMetricWarning``.

Public here: the functions of ``__all__`` and ``UndefinedMetricWarning`` (the class of
``evalkit.exceptions``, importable from here as scikit-learn's tests import theirs). The
other names evalkit 0.1.0's module gave (exception classes, results, helpers it imported)
still import, with a ``DeprecationWarning`` that names their home.

What is not copied, on purpose: errors are evalkit's own exceptions (each a ``ValueError``
or ``TypeError``, as scikit-learn's), booleans mixed with numbers and ``1`` mixed with
``"1"`` are errors instead of silently merged or compared, and the rarely used ``warn_for``
argument only selects which warnings are given.

Examples:
    >>> from evalkit.metrics import f1_score, precision_recall_fscore_support
    >>> f1_score([0, 1, 1, 2], [0, 1, 2, 2], average="macro")
    0.7777777777777777
    >>> precision_recall_fscore_support(["a", "b", "b"], ["a", "b", "a"], average=None, zero_division=0)[0].tolist()
    [0.5, 1.0]
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING

from evalkit._engine import moved_names
from evalkit.exceptions import UndefinedMetricWarning
from evalkit.metrics._classification import *
from evalkit.metrics._conformal import *
from evalkit.metrics._cumulative import *
from evalkit.metrics._fairness import *
from evalkit.metrics._inputs import refusing_no_weight
from evalkit.metrics._probabilistic import *
from evalkit.metrics._ranking import *
from evalkit.metrics._regression import *

__all__ = [
    "UndefinedMetricWarning",
    "accuracy_score",
    "add_jitter",
    "auarc",
    "auc",
    "aurc",
    "auroc",
    "average_precision_score",
    "balanced_accuracy_score",
    "brier_score_decomposition",
    "brier_score_loss",
    "calibration_curve",
    "class_likelihood_ratios",
    "classification_coverage_score",
    "classification_mean_width_score",
    "classification_report",
    "classification_ssc",
    "classification_ssc_score",
    "cohen_kappa_score",
    "confusion_matrix",
    "confusion_matrix_at_thresholds",
    "coverage_error",
    "coverage_gap",
    "coverage_width_based",
    "cumulative_differences",
    "d2_absolute_error_score",
    "d2_brier_score",
    "d2_log_loss_score",
    "d2_pinball_score",
    "d2_tweedie_score",
    "dcg_score",
    "demographic_parity_difference",
    "demographic_parity_ratio",
    "det_curve",
    "equal_opportunity_difference",
    "equal_opportunity_ratio",
    "equalized_odds_difference",
    "equalized_odds_ratio",
    "excess_aurc",
    "expected_calibration_error",
    "explained_variance_score",
    "f1_score",
    "fbeta_score",
    "hamming_loss",
    "hinge_loss",
    "hsic",
    "jaccard_score",
    "kolmogorov_smirnov_cdf",
    "kolmogorov_smirnov_p_value",
    "kolmogorov_smirnov_statistic",
    "kuiper_cdf",
    "kuiper_p_value",
    "kuiper_statistic",
    "label_ranking_average_precision_score",
    "label_ranking_loss",
    "length_scale",
    "log_loss",
    "matthews_corrcoef",
    "max_error",
    "mean_absolute_error",
    "mean_absolute_percentage_error",
    "mean_gamma_deviance",
    "mean_pinball_loss",
    "mean_poisson_deviance",
    "mean_squared_error",
    "mean_squared_log_error",
    "mean_tweedie_deviance",
    "median_absolute_error",
    "metric_at_thresholds",
    "multilabel_confusion_matrix",
    "ndcg_score",
    "precision_at_fixed_recall",
    "precision_recall_curve",
    "precision_recall_fscore_support",
    "precision_score",
    "r2_score",
    "recall_at_fixed_precision",
    "recall_score",
    "regression_coverage_score",
    "regression_mean_width_score",
    "regression_mwi_score",
    "regression_ssc",
    "regression_ssc_score",
    "risk_coverage_curve",
    "roc_auc_score",
    "roc_curve",
    "root_mean_squared_error",
    "root_mean_squared_log_error",
    "sensitivity_at_specificity",
    "sort_xy_by_y",
    "specificity_at_sensitivity",
    "spiegelhalter_p_value",
    "spiegelhalter_statistic",
    "top_k_accuracy_score",
    "top_label_ece",
    "zero_one_loss",
]

FAIRLEARN = ("demographic_parity_difference", "demographic_parity_ratio", "equal_opportunity_difference", "equal_opportunity_ratio",
             "equalized_odds_difference", "equalized_odds_ratio")
"""Functions of fairlearn (``fairlearn.metrics``), with its names, signatures and numbers."""

MAPIE = ("add_jitter", "auarc", "auroc", "classification_coverage_score", "classification_mean_width_score", "classification_ssc", "classification_ssc_score",
         "coverage_gap", "coverage_width_based", "cumulative_differences", "hsic", "kolmogorov_smirnov_cdf", "kolmogorov_smirnov_p_value",
         "kolmogorov_smirnov_statistic", "kuiper_cdf", "kuiper_p_value", "kuiper_statistic", "length_scale", "regression_coverage_score",
         "regression_mean_width_score", "regression_mwi_score", "regression_ssc", "regression_ssc_score", "sort_xy_by_y", "spiegelhalter_p_value",
         "spiegelhalter_statistic", "top_label_ece")
"""Functions of MAPIE (``mapie.metrics``), with its names, signatures and numbers (and
``sample_weight=`` where a sum allows it)."""

ADDITIONS = (*FAIRLEARN, *MAPIE, "aurc", "excess_aurc", "risk_coverage_curve", "brier_score_decomposition", "expected_calibration_error", "precision_at_fixed_recall", "recall_at_fixed_precision",
             "sensitivity_at_specificity", "specificity_at_sensitivity")
"""Functions scikit-learn does not have, in its style (``calibration_curve`` is its
``sklearn.calibration.calibration_curve``)."""

for _name in __all__:  # every function with a sample_weight refuses weights that are all 0, as scikit-learn does
    if inspect.isfunction(globals()[_name]) and "sample_weight" in inspect.signature(globals()[_name]).parameters:
        globals()[_name] = refusing_no_weight(globals()[_name])

moved_names.publish(__name__, globals(), __all__)  # this package is each function's public path (pickles, help(), the API reference)

if not TYPE_CHECKING:  # the names this module gave in evalkit 0.1.0 and lost, found with a warning
    __getattr__ = moved_names.finder(__name__)
