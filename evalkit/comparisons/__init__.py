"""Comparisons of many models over many data sets (Demšar 2006; García & Herrera 2008;
Benavoli et al. 2017).

``ModelComparison`` (``comparison``) holds one measure of every model on every data set and
gives ranks, omnibus tests, post-hoc tests with adjusted p-values (``PairwiseTests``),
critical differences and Bayesian comparisons. Its parts are functions of arrays: ranks and
the tests built on them (``ranks``), paired tests over data sets or folds (``paired``:
Wilcoxon, sign, the corrected resampled t-test, the 5x2cv tests) and Bayesian tests
(``bayesian``). The adjustments of p-values are in ``evalkit.results.multiplicity``.

May import: the engine, measures, results, scores and groups (the measure model reads one
number of any result). Rendering is found at run time, as for results.
"""

from evalkit.comparisons import bayesian, comparison, paired, ranks
from evalkit.comparisons.bayesian import BayesianComparison
from evalkit.comparisons.comparison import ModelComparison, PairwiseTests, measure_direction
from evalkit.comparisons.paired import (
    PairedTest,
    combined_f_test_5x2cv,
    corrected_resampled_t_test,
    paired_t_test_5x2cv,
)

__all__ = [
    "BayesianComparison",
    "ModelComparison",
    "PairedTest",
    "PairwiseTests",
    "bayesian",
    "combined_f_test_5x2cv",
    "comparison",
    "corrected_resampled_t_test",
    "measure_direction",
    "paired",
    "paired_t_test_5x2cv",
    "ranks",
]
