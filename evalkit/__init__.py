"""evalkit: classifier and regressor evaluation that is correct, fast, and measures more.

The Java-style API of Deep Netts (``ConfusionMatrix``, ``ClassificationMetrics``, ``Stats``)
on one counting core and one formula layer (``evalkit.formulas``).

Examples:
    >>> import evalkit
    >>> cm = evalkit.ConfusionMatrix.from_predictions([0, 1, 1, 0], [0, 1, 0, 0])
    >>> evalkit.ClassificationMetrics(cm).get_recall()
    0.5
"""

import types

from evalkit import _moved

_moved.install()  # before anything else: old module paths (evalkit.curves, ...) keep importing, old names are found

import evalkit.io.comparison_tables as _comparison_tables  # noqa: F401  (registers the tables of comparisons)
import evalkit.io.html as _html  # noqa: F401  (registers the HTML renderings results call)
import evalkit.io.report as _report  # noqa: F401  (registers the reports results call)
import evalkit.io.text as _text  # noqa: F401  (registers the Deep Netts text of a matrix)
from evalkit import comparisons, exceptions, measures, results
from evalkit.comparisons import ModelComparison
from evalkit.engine import tnorms
from evalkit.engine.hierarchy import Hierarchy
from evalkit.groups._by_group import ByGroup, by_group
from evalkit.groups.agreement import Agreement
from evalkit.groups.neighborhood import Covering, NeighborhoodAccuracy, NeighborhoodSystem
from evalkit.java.classification_metrics import ClassificationMetrics
from evalkit.java.evaluation_metrics import EvaluationMetrics
from evalkit.java.regression_metrics import RegressionMetrics
from evalkit.java.stats import Stats
from evalkit.measures import formulas
from evalkit.measures.averaging import Averaged
from evalkit.measures.registry import Measure, measure
from evalkit.results import theory
from evalkit.results._summed import SummedState
from evalkit.results.confusion_matrix import ConfusionMatrix
from evalkit.results.evaluation import Evaluation
from evalkit.results.intervals import compare, compare_results
from evalkit.scale.over_time import over_time
from evalkit.scale.prequential import Prequential
from evalkit.scale.windows import Faded, MajorityClass, NoChange, Tumbling, Windowed, kappa_m, kappa_temporal
from evalkit.scores.calibration import Calibration
from evalkit.scores.conformal import IntervalCoverage, SetCoverage
from evalkit.scores.costs import CostMatrix
from evalkit.scores.curves import ThresholdCurve
from evalkit.scores.ranked_lists import RankedLists
from evalkit.scores.selective import RiskCoverage

__all__ = [
    "Agreement",
    "Averaged",
    "ByGroup",
    "Calibration",
    "ClassificationMetrics",
    "ConfusionMatrix",
    "CostMatrix",
    "Covering",
    "Evaluation",
    "EvaluationMetrics",
    "Faded",
    "Hierarchy",
    "IntervalCoverage",
    "MajorityClass",
    "Measure",
    "ModelComparison",
    "NeighborhoodAccuracy",
    "NeighborhoodSystem",
    "NoChange",
    "Prequential",
    "RankedLists",
    "RegressionMetrics",
    "RiskCoverage",
    "SetCoverage",
    "Stats",
    "SummedState",
    "ThresholdCurve",
    "Tumbling",
    "Windowed",
    "__version__",
    "by_group",
    "compare",
    "compare_results",
    "comparisons",
    "exceptions",
    "formulas",
    "kappa_m",
    "kappa_temporal",
    "measure",
    "measures",
    "over_time",
    "results",
    "theory",
    "tnorms",
]

__version__ = "0.1.0"


def __getattr__(name: str) -> types.ModuleType:
    """``evalkit.curves``, ``evalkit.metrics``, ...: a module of an old path or a layer, imported
    on first use (``evalkit._moved.submodule``), so ``import evalkit`` stays quick."""
    return _moved.submodule(name)


def __dir__() -> list[str]:
    return sorted({*globals(), *(path.partition(".")[2] for path in _moved.OLD_PATHS), *_moved.LAYERS})
