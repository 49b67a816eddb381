"""Comparisons of many models over many data sets (Demšar 2006; García & Herrera 2008;
Benavoli et al. 2017).

``ModelComparison`` holds one measure of every model on every data set and gives ranks,
omnibus tests, post-hoc tests with adjusted p-values (``PairwiseTests``), critical differences
and Bayesian comparisons (``BayesianComparison``). Its parts are functions of arrays, given
here too: the critical difference of average ranks (``critical_difference``), paired tests over data sets or folds
(``wilcoxon_test``, ``sign_test``, ``corrected_resampled_t_test``, the 5x2cv tests) and the
Bayesian correlated t-test (``correlated_t_test``).

Examples:
    >>> from evalkit.comparisons import critical_difference
    >>> round(critical_difference(4, 14, 0.05, "nemenyi"), 3)
    1.254

May import: the engine, measures, results, scores and groups (the measure model reads one
number of any result). Rendering is found at run time, as for results.
"""

from typing import TYPE_CHECKING

from evalkit._engine import moved_names
from evalkit.comparisons._bayesian import BayesianComparison, correlated_t_test
from evalkit.comparisons._comparison import ModelComparison, PairwiseTests, measure_direction
from evalkit.comparisons._paired import (
    PairedTest,
    combined_f_test_5x2cv,
    corrected_resampled_t_test,
    paired_t_test_5x2cv,
    sign_test,
    wilcoxon_test,
)
from evalkit.comparisons._ranks import RankTest, critical_difference

__all__ = [
    "BayesianComparison",
    "ModelComparison",
    "PairedTest",
    "PairwiseTests",
    "RankTest",
    "combined_f_test_5x2cv",
    "corrected_resampled_t_test",
    "correlated_t_test",
    "critical_difference",
    "measure_direction",
    "paired_t_test_5x2cv",
    "sign_test",
    "wilcoxon_test",
]

moved_names.publish(__name__, globals(), __all__)

if not TYPE_CHECKING:  # evalkit.comparisons.paired and the other modules of 0.1.0, found with a warning
    __getattr__ = moved_names.finder(__name__)
