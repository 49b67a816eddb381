"""evalkit: classifier and regressor evaluation that is correct, fast, and measures more.

The Java-style API of Deep Netts (``ConfusionMatrix``, ``ClassificationMetrics``, ``Stats``)
on one counting core and one formula layer (``evalkit.formulas``).

Examples:
    >>> import evalkit
    >>> cm = evalkit.ConfusionMatrix.from_predictions([0, 1, 1, 0], [0, 1, 0, 0])
    >>> evalkit.ClassificationMetrics(cm).get_recall()
    0.5

Where names live: this module is the object API (results, the Java-style classes, streams,
windows, comparisons of results); the other public paths are the faces ``evalkit.metrics``
(scikit-learn's functions), ``evalkit.measures``, ``evalkit.formulas``, ``evalkit.exceptions``,
``evalkit.comparisons``, ``evalkit.io``, ``evalkit.theory``, ``evalkit.tnorms``,
``evalkit.plots``, ``evalkit.displays``, ``evalkit.datasets``, ``evalkit.dask``,
``evalkit.spark`` and ``evalkit.cli``. Every other module is private.

How names are made (one name per concept, in every face, the docs and the command line): a
measure has one registry name, spelled out in snake case (``recall``, ``f1_score``,
``matthews_correlation_coefficient``); the Java-style getter is ``get_`` and that name
(``get_recall``), the Java spelling an alias (``getRecall``); a function of the scikit-learn face
keeps scikit-learn's name and signature (``recall_score``), of fairlearn's and MAPIE's theirs;
a result is a noun for what was counted (``ConfusionMatrix``, ``ThresholdCurve``), built by
``from_<input>`` (``from_predictions``, ``from_scores``); an average is ``micro``, ``macro``,
``weighted`` or ``samples``; an undefined value follows ``undefined=``; a command-line option is
the keyword with dashes (``--metrics-class``), and one that names a column of the file is the
column's role (``--actual``, ``--predicted``, ``--weight``).
"""


from typing import TYPE_CHECKING

from evalkit import _moved

_moved.install()  # before anything else: each moved path (evalkit.curves, ...) keeps importing, old names are found

from evalkit import comparisons, exceptions, formulas, measures, theory, tnorms  # noqa: F401  (faces, attributes of evalkit)
from evalkit._engine import moved_names
from evalkit._engine.cells import Cells
from evalkit._engine.hierarchy import Hierarchy
from evalkit._groups._by_group import ByGroup, Disparity, GroupValues, by_group
from evalkit._groups.agreement import Agreement
from evalkit._groups.fairness import (
    demographic_parity_difference,
    demographic_parity_ratio,
    equal_opportunity_difference,
    equal_opportunity_ratio,
    equalized_odds_difference,
    equalized_odds_ratio,
)
from evalkit._groups.neighborhood import Covering, NeighborhoodAccuracy, NeighborhoodSystem
from evalkit._java.classification_metrics import ClassificationMetrics
from evalkit._java.evaluation_metrics import EvaluationMetrics
from evalkit._java.regression_metrics import RegressionMetrics
from evalkit._java.stats import Stats
from evalkit._results._summed import SummedState
from evalkit._results.confusion_matrix import ConfusionMatrix
from evalkit._results.counted import BatchCount, CountedState, merged_parts
from evalkit._results.evaluation import Evaluation
from evalkit._results.intervals import Interval, KappaTest, indicators_interval
from evalkit._results.paired import Comparison, compare, compare_many, compare_results
from evalkit._results.records import PredictionRecords
from evalkit._scale.adwin import Adaptive, Adwin
from evalkit._scale.baselines import MajorityClass, NoChange, kappa_m, kappa_temporal
from evalkit._scale.monitor import Monitor
from evalkit._scale.over_time import over_time
from evalkit._scale.prequential import Prequential
from evalkit._scale.running_mean import RunningMean
from evalkit._scale.sequential_test import SequentialTest
from evalkit._scale.windows import Faded, FadedPerClass, Tumbling, Windowed
from evalkit._scores.calibration import BrierDecomposition, Calibration, CalibrationTest, Reliability
from evalkit._scores.conformal import IntervalCoverage, SetCoverage
from evalkit._scores.costs import CostMatrix
from evalkit._scores.curve_operating import BestThreshold
from evalkit._scores.curves import ThresholdCells, ThresholdCurve
from evalkit._scores.information import InformationScores
from evalkit._scores.operating import OperatingInterval, OperatingPoint
from evalkit._scores.ranked_lists import RankedLists
from evalkit._scores.selective import RiskCoverage
from evalkit.comparisons import ModelComparison
from evalkit.io import (
    _html,  # noqa: F401  (registers the HTML renderings results call)
    _report,  # noqa: F401  (registers the reports results call)
    _text,  # noqa: F401  (registers the Deep Netts text of a matrix)
)
from evalkit.measures import Measure, measure
from evalkit.measures._averaging import Averaged, Summary, summarize

__all__ = [
    "Adaptive",
    "Adwin",
    "Agreement",
    "Averaged",
    "BatchCount",
    "BestThreshold",
    "BrierDecomposition",
    "ByGroup",
    "Calibration",
    "CalibrationCounts",
    "CalibrationTest",
    "Cells",
    "ClassificationMetrics",
    "Comparison",
    "ConfusionMatrix",
    "CostMatrix",
    "CountedState",
    "Covering",
    "CurveCounts",
    "Disparity",
    "Evaluation",
    "EvaluationMetrics",
    "Faded",
    "FadedPerClass",
    "GainsTable",
    "GroupValues",
    "Hierarchy",
    "InformationScores",
    "Interval",
    "IntervalCoverage",
    "KappaTest",
    "LabelSetCounts",
    "MajorityClass",
    "Measure",
    "ModelComparison",
    "Monitor",
    "NeighborhoodAccuracy",
    "NeighborhoodSystem",
    "NoChange",
    "OperatingInterval",
    "OperatingPoint",
    "PredictionRecords",
    "Prequential",
    "RankedLists",
    "RegressionMetrics",
    "Reliability",
    "RiskCoverage",
    "RunningMean",
    "SequentialTest",
    "SetCoverage",
    "Stats",
    "Stream",
    "Summary",
    "SummedState",
    "ThresholdCells",
    "ThresholdCurve",
    "Tumbling",
    "Windowed",
    "__version__",
    "by_group",
    "compare",
    "compare_many",
    "compare_results",
    "demographic_parity_difference",
    "demographic_parity_ratio",
    "equal_opportunity_difference",
    "equal_opportunity_ratio",
    "equalized_odds_difference",
    "equalized_odds_ratio",
    "gains_table",
    "indicators_interval",
    "kappa_m",
    "kappa_temporal",
    "measure",
    "merged_parts",
    "over_time",
    "summarize",
]

__version__ = "0.2.0.dev0"

if TYPE_CHECKING:  # imported on first use (_LAZY); named here for type checkers and the API reference
    from evalkit._scale.streaming import CalibrationCounts, CurveCounts, LabelSetCounts, Stream
    from evalkit._scores.gains import GainsTable, gains_table

_LAZY = {
    "CalibrationCounts": "evalkit._scale.streaming",
    "CurveCounts": "evalkit._scale.streaming",
    "LabelSetCounts": "evalkit._scale.streaming",
    "Stream": "evalkit._scale.streaming",
    "GainsTable": "evalkit._scores.gains",
    "gains_table": "evalkit._scores.gains",
}
"""Public names imported on first use: their modules are not needed by ``import evalkit``."""

moved_names.publish(__name__, globals(), [name for name in __all__ if name not in _LAZY])
_lazy_names = moved_names.finder(__name__, lazy=_LAZY)


def __getattr__(name: str) -> object:
    """``evalkit.metrics``, ``evalkit.plots``, ...: a face, and the streams and
    ``gains_table``, imported on first use (``evalkit._moved.submodule``), so ``import evalkit``
    stays quick; a moved path (``evalkit.curves``) with a ``DeprecationWarning``."""
    return _lazy_names(name) if name in _LAZY else _moved.submodule(name)


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY, *(face.partition(".")[2] for face in _moved.FACES if "." in face)})
