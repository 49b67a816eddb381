"""evalkit: classifier evaluation that is correct, fast, and measures more.

The Java-style API of Deep Netts (``ConfusionMatrix``, ``ClassificationMetrics``, ``Stats``)
on one counting core and one formula layer (``evalkit.formulas``).

Examples:
    >>> import evalkit
    >>> cm = evalkit.ConfusionMatrix.from_predictions([0, 1, 1, 0], [0, 1, 0, 0])
    >>> evalkit.ClassificationMetrics(cm).get_recall()
    0.5
"""

from evalkit import exceptions, formulas, measures, results, theory, tnorms
from evalkit.agreement import Agreement
from evalkit.averaging import Averaged
from evalkit.calibration import Calibration
from evalkit.classification_metrics import ClassificationMetrics
from evalkit.confusion_matrix import ConfusionMatrix
from evalkit.costs import CostMatrix
from evalkit.curves import ThresholdCurve
from evalkit.evaluation import Evaluation
from evalkit.evaluation_metrics import EvaluationMetrics
from evalkit.groups import ByGroup, by_group
from evalkit.hierarchy import Hierarchy
from evalkit.intervals import compare
from evalkit.measures import Measure, measure
from evalkit.neighborhood import Covering, NeighborhoodAccuracy, NeighborhoodSystem
from evalkit.stats import Stats

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
    "Hierarchy",
    "Measure",
    "NeighborhoodAccuracy",
    "NeighborhoodSystem",
    "Stats",
    "ThresholdCurve",
    "__version__",
    "by_group",
    "compare",
    "exceptions",
    "formulas",
    "measure",
    "measures",
    "results",
    "theory",
    "tnorms",
]

__version__ = "0.1.0"
