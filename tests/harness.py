"""The shared harness: one assertion that every face of evalkit gives the reference's number.

In the style of torchmetrics' ``MetricTester``: for a measure, a setting's data, an average, an
undefined-value policy and sample weights, ``check_faces`` computes the value

* by the reference: per-class and per-sample cells counted here in plain Python (exact
  fractions, never through evalkit), each measure from its textbook definition
  (``tests/reference.py``, or the case's own), averaged by the documented rule;
* by scikit-learn, where it has the measure;
* by ``evalkit.metrics`` (the scikit-learn face);
* by ``Evaluation.average`` and, for single-label data, ``ConfusionMatrix.average``, both
  with the metrics class carried by the result and given on the call;
* by each ``ClassificationMetrics`` object's getter (per class) and by ``Stats`` of the
  objects (the macro average);
* from the same data counted in two batches and merged;
* after a JSON and a pickle round trip;

and asserts that they all agree. The cases include a getter added by a subclass, a built-in
getter overridden by one, and a registered vectorised function.

The same harness checks the other families and every result kind: ``check_score_faces``
(ROC AUC, average precision, Brier score, log loss against scikit-learn),
``check_agreement_faces`` (Fleiss' kappa and Krippendorff's alpha against statsmodels and the
``krippendorff`` package), ``check_fairness_faces`` (fairlearn's disparities), each on the object,
``evalkit.metrics``, merged parts and JSON and pickle round trips; and ``check_counted_state``,
the counted-state protocol of every kind of result.
"""

from __future__ import annotations

import math
import pickle
import warnings
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import attrs
import numpy as np
from hypothesis import strategies as st
from reference import REFERENCE, as_float, both, ratio, recall, specificity
from sklearn import metrics as sk
from strategies import close

from evalkit import (
    Agreement,
    ByGroup,
    Calibration,
    CalibrationCounts,
    ClassificationMetrics,
    ConfusionMatrix,
    CurveCounts,
    Evaluation,
    InformationScores,
    IntervalCoverage,
    LabelSetCounts,
    PredictionRecords,
    RankedLists,
    RegressionMetrics,
    RiskCoverage,
    SetCoverage,
    Stream,
    ThresholdCurve,
    measure,
)
from evalkit import metrics as ek

# --------------------------------------------------------------------------------------------
# the measures under test


class HarnessMetrics(ClassificationMetrics):
    """A subclass with an added getter and an override of a built-in one."""

    @measure(direction="lower", bounds=(0, math.inf), aliases=("miss_odds",))
    def get_misses_per_hit(self):
        """False negatives per true positive: fn / tp."""
        tp = self.get_true_positive()
        return self.get_false_negative() / tp if tp else math.nan

    def get_precision(self):
        """Laplace-smoothed precision: (tp + 1) / (tp + fp + 2)."""
        return (self.get_true_positive() + 1) / (self.get_true_positive() + self.get_false_positive() + 2)


def balanced_error_rate(*, tp, fp, fn, tn):
    """Balanced error rate, registered as a vectorised function: (fn / (tp + fn) + fp / (fp + tn)) / 2."""
    tp, fp, fn, tn = (np.asarray(count, dtype=np.float64) for count in (tp, fp, fn, tn))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where((tp + fn > 0) & (tn + fp > 0), (fn / (tp + fn) + fp / (fp + tn)) / 2, np.nan)


@attrs.frozen
class Case:
    """A measure as a user asks for it: a name, the metrics class it is looked up in, its
    parameters, its exact reference, and scikit-learn's function of it (if any)."""

    name: str
    reference: Callable[..., Any]
    metrics_class: type[ClassificationMetrics] = ClassificationMetrics
    parameters: dict[str, Any] = attrs.field(factory=dict)
    sklearn: str | None = None

    def value(self, cells: tuple) -> float:
        return as_float(self.reference(*cells, **self.parameters))


_SKLEARN = {"precision": "precision_score", "recall": "recall_score", "f1_score": "f1_score", "jaccard_index": "jaccard_score"}

CASES = [
    *(Case(name, reference, sklearn=_SKLEARN.get(name)) for name, reference in REFERENCE.items() if name not in ("f_score", "post_test_probability")),
    Case("f_score", REFERENCE["f_score"], parameters={"beta": 2}, sklearn="fbeta_score"),
    Case("post_test_probability", REFERENCE["post_test_probability"], parameters={"prevalence": 0.3}),
    Case("misses_per_hit", lambda tp, fp, fn, tn: ratio(fn, tp), HarnessMetrics),
    Case("precision", lambda tp, fp, fn, tn: Fraction(tp + 1) / Fraction(tp + fp + 2), HarnessMetrics),
    Case("balanced_error_rate", lambda *cells: both(recall(*cells), specificity(*cells), lambda r, s: 1 - (r + s) / 2)),
]
"""Every built-in measure, F-beta with beta=2, the post-test probability at prevalence 0.3, an added getter, an overridden getter and a
registered function (``balanced_error_rate``: the test registers it for the harness)."""

POLICIES = ("exclude", "zero", "one", "nan")
ZERO_DIVISION = {"exclude": np.nan, "zero": 0, "one": 1}
"""scikit-learn's ``zero_division`` of each policy (``"nan"`` has none)."""


# --------------------------------------------------------------------------------------------
# the reference: counting and averaging in plain Python


@attrs.frozen
class Data:
    """One setting's data: ``y_true``/``y_pred`` as the constructor takes them, the exact
    per-class and per-sample cells, and the sample weights."""

    setting: str
    y_true: Any
    y_pred: Any
    labels: list
    weight: list | None
    class_cells: list[tuple]
    sample_cells: list[tuple]

    def constructor(self) -> Callable[..., Evaluation]:
        return {"single-label": Evaluation.from_labels, "multi-label": Evaluation.from_indicators, "soft": Evaluation.from_soft}[self.setting]

    def evaluate(self, lo: int = 0, hi: int | None = None, metrics_class: Any = None) -> Evaluation:
        part = slice(lo, hi)
        weight = None if self.weight is None else self.weight[part]
        return self.constructor()(self.y_true[part], self.y_pred[part], self.labels, sample_weight=weight, metrics_class=metrics_class)


def _exact(value: Any) -> Fraction:
    return Fraction(value) if not isinstance(value, (float, np.floating)) else Fraction(float(value))


def single_label_data(y_true: list, y_pred: list, labels: list, weight: list | None) -> Data:
    w = [Fraction(1)] * len(y_true) if weight is None else [_exact(v) for v in weight]
    m = len(labels)
    per_class = []
    for label in labels:
        tp = sum((wi for a, p, wi in zip(y_true, y_pred, w) if a == label and p == label), Fraction(0))
        fp = sum((wi for a, p, wi in zip(y_true, y_pred, w) if a != label and p == label), Fraction(0))
        fn = sum((wi for a, p, wi in zip(y_true, y_pred, w) if a == label and p != label), Fraction(0))
        per_class.append((tp, fp, fn, sum(w, Fraction(0)) - tp - fp - fn))
    per_sample = [(1, 0, 0, m - 1) if a == p else (0, 1, 1, m - 2) for a, p in zip(y_true, y_pred)]
    return Data("single-label", y_true, y_pred, labels, weight, per_class, per_sample)


def array_data(setting: str, actual: np.ndarray, predicted: np.ndarray, weight: list | None) -> Data:
    """Indicators or degrees (the product t-norm), counted exactly."""
    n, m = actual.shape
    w = [Fraction(1)] * n if weight is None else [_exact(v) for v in weight]
    a = [[_exact(v) for v in row] for row in actual.tolist()]
    p = [[_exact(v) for v in row] for row in predicted.tolist()]

    def cells(i: int, j: int) -> tuple:
        return a[i][j] * p[i][j], (1 - a[i][j]) * p[i][j], a[i][j] * (1 - p[i][j]), (1 - a[i][j]) * (1 - p[i][j])

    per_class = [tuple(sum((w[i] * cells(i, j)[k] for i in range(n)), Fraction(0)) for k in range(4)) for j in range(m)]
    per_sample = [tuple(sum((cells(i, j)[k] for j in range(m)), Fraction(0)) for k in range(4)) for i in range(n)]
    return Data(setting, actual, predicted, list(range(m)), weight, per_class, per_sample)


def _policy_mean(values: list[float], weights: list[float], policy: str) -> float:
    """The documented average: an entry of weight 0 stands for nothing; undefined (NaN) values
    are left out (``exclude``), counted as 0 or 1, or make the mean NaN (``nan``)."""
    kept = [(v, w) for v, w in zip(values, weights) if w > 0]
    if policy == "nan" and any(math.isnan(v) for v, _ in kept):
        return math.nan
    fill = {"zero": 0.0, "one": 1.0}.get(policy)
    kept = [(fill if math.isnan(v) and fill is not None else v, w) for v, w in kept]
    kept = [(v, w) for v, w in kept if not math.isnan(v)]
    total = math.fsum(w for _, w in kept)
    return math.fsum(v * w for v, w in kept) / total if total else math.nan


def reference_average(case: Case, data: Data, average: str, policy: str) -> float:
    if average == "micro":  # the measure of the summed cells, one value under the policy
        return _policy_mean([case.value(tuple(sum(cell[k] for cell in data.class_cells) for k in range(4)))], [1.0], policy)
    if average == "samples":
        weights = [1.0] * len(data.sample_cells) if data.weight is None else [float(v) for v in data.weight]
        return _policy_mean([case.value(cell) for cell in data.sample_cells], weights, policy)
    values = [case.value(cell) for cell in data.class_cells]
    if average == "macro":
        return _policy_mean(values, [1.0] * len(values), policy)
    support = [float(cell[0] + cell[2]) for cell in data.class_cells]
    counted = [not math.isnan(v) or policy != "exclude" for v in values]
    if not any(c and s > 0 for c, s in zip(counted, support)):  # no class with support: the plain mean
        support = [1.0] * len(values)
    return _policy_mean(values, support, policy)


# --------------------------------------------------------------------------------------------
# the faces


def _quietly(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def _sklearn_has(case: Case, data: Data, average: str, policy: str) -> bool:
    """Whether scikit-learn has this measure, setting, average and policy (its Jaccard score
    has no ``zero_division=np.nan``; ``average="samples"`` is for multi-label data; it reads
    one column of indicators as binary labels)."""
    multi_label = data.setting == "multi-label"
    return (
        case.sklearn is not None and case.metrics_class is ClassificationMetrics and policy in ZERO_DIVISION and data.setting != "soft"
        and (average != "samples" or multi_label) and not (case.sklearn == "jaccard_score" and policy == "exclude")
        and not (multi_label and data.y_true.shape[1] < 2)
    )  # fmt: skip


def faces(case: Case, data: Data, average: str, policy: str, cut: int) -> dict[str, float]:
    """The value of the case's measure averaged, by every face that can compute it."""
    name, parameters, options = case.name, case.parameters, {"undefined": policy, **case.parameters}
    found: dict[str, float] = {}
    own = data.evaluate(metrics_class=case.metrics_class)
    found["Evaluation.average"] = own.average(name, average, **options)
    found["Evaluation.average(metrics_class=)"] = data.evaluate().average(name, average, metrics_class=case.metrics_class, **options)
    found["merged batches"] = (data.evaluate(0, cut, case.metrics_class) + data.evaluate(cut, None, case.metrics_class)).average(name, average, **options)
    found["JSON round trip"] = Evaluation.from_json(own.to_json()).average(name, average, **options)
    found["pickle round trip"] = pickle.loads(pickle.dumps(own)).average(name, average, **options)
    if data.setting == "single-label":
        matrix = ConfusionMatrix.from_predictions(data.y_true, data.y_pred, data.labels, sample_weight=data.weight, metrics_class=case.metrics_class)
        found["ConfusionMatrix.average"] = matrix.average(name, average, **options)
        found["ConfusionMatrix JSON"] = ConfusionMatrix.from_json(matrix.to_json()).average(name, average, **options)
    if average == "macro" and not parameters:
        objects = own.class_metrics()
        found["Stats of the objects"] = case.metrics_class.average(objects, undefined=policy).get(name)
    if _sklearn_has(case, data, average, policy):
        keywords = {"average": average, "sample_weight": data.weight, "zero_division": ZERO_DIVISION[policy], **parameters}
        if data.setting == "single-label":
            keywords["labels"] = data.labels
        found["scikit-learn"] = _quietly(getattr(sk, str(case.sklearn)), data.y_true, data.y_pred, **keywords)
        found["evalkit.metrics"] = _quietly(getattr(ek, str(case.sklearn)), data.y_true, data.y_pred, **keywords)
    return {face: float(value) for face, value in found.items()}


def check_faces(case: Case, data: Data, average: str, policy: str, cut: int) -> None:
    """Every face equals the reference (up to rounding), and every object's getter and the
    per-class vector equal the reference per class."""
    expected = reference_average(case, data, average, policy)
    for face, value in faces(case, data, average, policy, cut).items():
        assert close(value, expected, rel=1e-9, abs=1e-12), (face, case.name, case.metrics_class.__name__, average, policy, value, expected, np.asarray(data.y_true).tolist(), np.asarray(data.y_pred).tolist())
    per_class = [case.value(cell) for cell in data.class_cells]
    evaluation = data.evaluate(metrics_class=case.metrics_class)
    vector = evaluation.per_class(case.name, **case.parameters)
    objects = evaluation.class_metrics()
    for k, expected_value in enumerate(per_class):
        getter = getattr(objects[k], f"get_{case.name}")
        assert close(vector[k], expected_value, rel=1e-9, abs=1e-12), ("per_class", case.name, k, vector[k], expected_value)
        assert close(getter(**case.parameters), expected_value, rel=1e-9, abs=1e-12), ("getter", case.name, k)


# --------------------------------------------------------------------------------------------
# the counted-state protocol: one check for every kind of result


def _round_trips(result: Any) -> None:
    assert pickle.loads(pickle.dumps(result)) == result, "a pickle round trip changed the result"
    if result.supports("json"):
        assert type(result).from_json(result.to_json()) == result, "a JSON round trip changed the result"


def check_counted_state(
    first: Any, second: Any, whole: Any, *, canonical: Callable[[Any], Any] = lambda result: result,
    measure: Callable[[Any], Any] | None = None, size: Callable[[Any], Any] | None = None,
) -> None:
    """Every operation of the counted-state protocol on two parts of one data set.

    ``whole`` is the result of both parts counted at once, or None where no one-shot
    constructor exists; ``canonical`` maps a result to the form that ignores what a merge may
    legitimately change (the order of samples); ``measure`` reads a ratio of counts, which
    scaling leaves alone; ``size`` reads the amount counted, which scaling multiplies.
    """
    both = first + second
    assert canonical(first.merge(second)) == canonical(both)
    if whole is not None:
        assert canonical(both) == canonical(whole), "merged parts differ from the whole"
    assert canonical(both) == canonical(second + first), "the merge depends on its order"
    assert canonical(sum([first, second])) == canonical(both)
    assert canonical(first.empty() + first) == canonical(first), "empty + a differs from a"
    copied = both.copy()
    assert copied == both and copied is not both
    for result in (first, both, both.empty()):
        _round_trips(result)
    if both.supports("subtract"):
        assert canonical(both - second) == canonical(first), "(a + b) - b differs from a"
        assert canonical(both - first) == canonical(second), "(a + b) - a differs from b"
        _round_trips(both - second)
    if both.supports("scale"):
        half = both.scaled(0.5)
        _round_trips(half)
        assert both.scaled(1) == both
        if size is not None:
            assert math.isclose(float(size(half)), float(size(both)) / 2, rel_tol=1e-12, abs_tol=1e-12)
        if measure is not None:
            assert close(measure(half), measure(both), rel=1e-9, abs=1e-12), "scaling every count changed a ratio of counts"
    for operation in ("subtract", "scale"):
        if not both.supports(operation):
            assert operation in type(both).REFUSED, f"{type(both).__name__} refuses {operation} without saying why"


def check_interval_faces(parts: list[Any], *args: Any, others: dict[str, Any] | None = None, **options: Any) -> Any:
    """One interval read by every face of the same counts: the whole (the parts merged), the
    parts merged one by one, the result after JSON and pickle round trips, and ``others`` (an
    ``Evaluation`` of the same samples, say); returns the whole's interval. The bounds rest on
    the counts alone, so every face gives the same floats."""
    others = others or {}
    whole = sum(parts[1:], parts[0])
    found = whole.interval(*args, **options)
    running = parts[0].copy()
    for part in parts[1:]:
        running = running + part
    faces = {"merged one by one": running, "pickle": pickle.loads(pickle.dumps(whole)), "JSON": type(whole).from_json(whole.to_json()), **others}
    for name, face in faces.items():
        other = face.interval(*args, **options)
        assert (other.low, other.high, other.estimate) == (found.low, found.high, found.estimate) or (
            math.isnan(found.low) and math.isnan(other.low)), f"{name}: {other} differs from {found}"
    return found


def check_subtract_refuses_a_part_never_added(result: Any, larger: Any) -> None:
    """``a - b`` of a ``b`` that ``a`` does not hold is an error, never negative counts."""
    from evalkit.exceptions import EvalkitError

    try:
        result - larger
    except EvalkitError:
        return
    raise AssertionError(f"{type(result).__name__} - a part never added gave a result")


# --------------------------------------------------------------------------------------------
# measures of scores and probabilities: the same harness for the score families

SCORE_MEASURES = {
    # name: (scikit-learn's function, evalkit.metrics' function, the object's reading)
    "roc_auc": ("roc_auc_score", "roc_auc_score", lambda curve, calibration: curve.roc_auc()),
    "average_precision": ("average_precision_score", "average_precision_score", lambda curve, calibration: curve.average_precision()),
    "brier_score": ("brier_score_loss", "brier_score_loss", lambda curve, calibration: calibration.brier_score()),
    "log_loss": ("log_loss", "log_loss", lambda curve, calibration: calibration.log_loss()),
}
"""The ranking and probabilistic families: a measure of binary scores on every face."""


def check_score_faces(name: str, y_true: list, y_score: list, weight: list | None, cut: int) -> None:
    """One measure of binary scores agrees on every face: scikit-learn, ``evalkit.metrics``, the
    ``ThresholdCurve`` or ``Calibration`` object, the same counted in two parts and merged, and
    after a JSON and a pickle round trip."""
    from evalkit import Calibration, ThresholdCurve

    sklearn_name, face_name, read = SCORE_MEASURES[name]
    options = {"labels": [0, 1]} if name == "log_loss" else {}
    expected = getattr(sk, sklearn_name)(y_true, y_score, sample_weight=weight, **options)
    w = None if weight is None else np.asarray(weight)

    def objects(lo: int, hi: int | None) -> tuple:
        part = slice(lo, hi)
        weights = None if w is None else w[part]
        if name in ("roc_auc", "average_precision"):  # the ranking family: a curve of the scores
            return ThresholdCurve.from_scores(y_true[part], y_score[part], pos_label=1, sample_weight=weights), None
        return None, Calibration.from_scores(y_true[part], y_score[part], pos_label=1, sample_weight=weights)  # probabilities

    curve, calibration = objects(0, None)
    first, second = objects(0, cut), objects(cut, None)
    merged = tuple(None if one is None else one + other for one, other in zip(first, second))
    copies = [tuple(None if o is None else type(o).from_json(o.to_json()) for o in (curve, calibration)),
              tuple(None if o is None else pickle.loads(pickle.dumps(o)) for o in (curve, calibration))]  # fmt: skip
    values = {
        "evalkit.metrics": getattr(ek, face_name)(y_true, y_score, sample_weight=weight, **options),
        "object": read(curve, calibration),
        "merged parts": read(*merged),
        **{f"round trip {k}": read(*copy) for k, copy in enumerate(copies)},
    }
    for face, value in values.items():
        assert close(value, expected, rel=1e-9, abs=1e-12), f"{name}: {face} gives {value}, scikit-learn {expected}"


def reference_calibration_error(y_true: list, y_prob: list, weight: list | None, n_bins: int, norm: str) -> float:
    """The binned calibration error by its definition (Guo et al. 2017; Naeini et al. 2015), in
    exact fractions: equal-width bins closed on the right (``(e_b, e_b+1]``, a score of 0 in the
    first bin) at numpy's ``linspace`` edges, each bin's weight share times the gap between its
    mean probability and its share of positives; ``"l1"`` sums them (ECE), ``"max"`` takes the
    largest gap of a bin with samples (MCE)."""
    inner = np.linspace(0.0, 1.0, n_bins + 1)[1:-1]
    weights = [1] * len(y_true) if weight is None else weight
    mass, scores, hits = [Fraction(0)] * n_bins, [Fraction(0)] * n_bins, [Fraction(0)] * n_bins
    for truth, score, w in zip(y_true, y_prob, weights):
        b = int(np.searchsorted(inner, score, side="left"))
        mass[b] += w
        scores[b] += Fraction(score) * w
        hits[b] += Fraction(int(truth == 1)) * w
    gaps = [abs(s - h) / m for m, s, h in zip(mass, scores, hits) if m]
    if norm == "max":
        return float(max(gaps))
    total = sum(mass)
    return float(sum(m / total * abs(s - h) / m for m, s, h in zip(mass, scores, hits) if m))


def check_calibration_faces(norm: str, y_true: list, y_prob: list, weight: list | None, n_bins: int, cut: int) -> None:
    """A binned calibration error (ECE or MCE) agrees on every face: the definition, the fast
    path of ``evalkit.metrics.expected_calibration_error`` (straight from the samples), the
    ``Calibration`` object, the same counted in two parts and merged, and after a JSON and a
    pickle round trip."""
    from evalkit import Calibration

    expected = reference_calibration_error(y_true, y_prob, weight, n_bins, norm)
    w = None if weight is None else np.asarray(weight)

    def calibration(part: slice) -> Any:
        return Calibration.from_scores(y_true[part], y_prob[part], pos_label=1, sample_weight=None if w is None else w[part])

    whole = calibration(slice(None))
    merged = calibration(slice(0, cut)) + calibration(slice(cut, None))
    values = {
        "evalkit.metrics": ek.expected_calibration_error(y_true, y_prob, n_bins=n_bins, norm=norm, sample_weight=weight, pos_label=1),
        "object": whole.error(norm, n_bins=n_bins),
        "merged parts": merged.error(norm, n_bins=n_bins),
        "round trip JSON": Calibration.from_json(whole.to_json()).error(norm, n_bins=n_bins),
        "round trip pickle": pickle.loads(pickle.dumps(whole)).error(norm, n_bins=n_bins),
    }
    for face, value in values.items():
        assert close(value, expected, rel=1e-9, abs=1e-12), f"{norm} calibration error: {face} gives {value}, the definition {expected}"


# --------------------------------------------------------------------------------------------
# agreement among raters and fairness by group: the same harness for the last two families


def check_agreement_faces(ratings: list[list[Any]], cut: int) -> None:
    """Fleiss' kappa and Krippendorff's nominal alpha of raters' ratings (``None`` missing) agree
    on every face: statsmodels and the ``krippendorff`` package, the ``Agreement`` object, the
    items counted in two parts and merged, and after a JSON and a pickle round trip."""
    import krippendorff
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

    from evalkit import Agreement

    categories = sorted({value for row in ratings for value in row if value is not None})
    codes = np.array([[np.nan if value is None else categories.index(value) for value in row] for row in ratings])
    whole = Agreement.from_ratings(ratings, categories=categories)
    merged = Agreement.from_ratings(ratings[:cut], categories=categories) + Agreement.from_ratings(ratings[cut:], categories=categories)
    copies = [Agreement.from_json(whole.to_json()), pickle.loads(pickle.dumps(whole))]
    complete = not np.isnan(codes).any()
    references = {"krippendorff_alpha": (krippendorff.alpha(reliability_data=codes.T, level_of_measurement="nominal"),
                                         lambda result: result.get_krippendorff_alpha())}  # fmt: skip
    if complete:  # statsmodels' table wants every item rated by every rater
        references["fleiss_kappa"] = (fleiss_kappa(aggregate_raters(codes.astype(int), n_cat=len(categories))[0]), lambda result: result.get_fleiss_kappa())
    for name, (expected, read) in references.items():
        for face, result in {"object": whole, "merged parts": merged, "JSON": copies[0], "pickle": copies[1]}.items():
            assert close(read(result), expected, rel=1e-9, abs=1e-12), f"{name}: {face} gives {read(result)}, the peer {expected}"


def check_fairness_faces(y_true: list, y_pred: list, groups: list, cut: int) -> None:
    """fairlearn's demographic parity difference and equalized odds difference agree on every
    face: fairlearn, ``evalkit.metrics``, ``evalkit._groups`` on a ``ByGroup``, the groups
    counted in two parts and merged, and after a JSON and a pickle round trip."""
    import fairlearn.metrics as fm

    import evalkit as evalkit_groups
    from evalkit import ByGroup

    whole = ByGroup.from_labels(y_true, y_pred, groups)
    merged = ByGroup.from_labels(y_true[:cut], y_pred[:cut], groups[:cut]) + ByGroup.from_labels(y_true[cut:], y_pred[cut:], groups[cut:])
    copies = [ByGroup.from_json(whole.to_json()), pickle.loads(pickle.dumps(whole))]
    for name in ("demographic_parity_difference", "equalized_odds_difference"):
        expected = getattr(fm, name)(y_true, y_pred, sensitive_features=groups)
        faces = {"evalkit.metrics": getattr(ek, name)(y_true, y_pred, sensitive_features=groups)}
        undefined = "exclude" if name.startswith("demographic") else "zero"  # fairlearn's rates of a group without positives are 0
        for face, result in {"object": whole, "merged parts": merged, "JSON": copies[0], "pickle": copies[1]}.items():
            faces[face] = float(getattr(evalkit_groups, name)(result, 1, undefined=undefined))  # fairlearn's positive class
        for face, value in faces.items():
            assert close(value, expected, rel=1e-9, abs=1e-12), f"{name}: {face} gives {value}, fairlearn {expected}"


# --------------------------------------------------------------------------------------------
# today's counted kinds, each built from two parts of one drawn data set and from the whole:
# a concept's test file runs ``check_kind`` for its kinds; ``KINDS`` names every one

LABELS = ["a", "b", "c"]


@st.composite
def counted_samples(draw, min_size=2, max_size=24):
    """Labels, label sets, binary labels with scores, groups, raters' ratings and integer
    weights of ``n`` samples, and a cut point splitting them in two non-empty parts."""
    n = draw(st.integers(min_size, max_size))
    cut = draw(st.integers(1, n - 1))
    label = st.sampled_from(LABELS)
    return {
        "n": n,
        "cut": cut,
        "actual": draw(st.lists(label, min_size=n, max_size=n)),
        "predicted": draw(st.lists(label, min_size=n, max_size=n)),
        "actual_sets": draw(st.lists(st.frozensets(label), min_size=n, max_size=n)),
        "predicted_sets": draw(st.lists(st.frozensets(label), min_size=n, max_size=n)),
        "binary": draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)),
        "scores": draw(st.lists(st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.6, 0.9, 1.0]), min_size=n, max_size=n)),
        "degrees": draw(st.lists(st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0]), min_size=3, max_size=3), min_size=2 * n, max_size=2 * n)),
        "groups": draw(st.lists(st.sampled_from(["x", "y", "z"]), min_size=n, max_size=n)),
        "ratings": draw(st.lists(st.tuples(st.sampled_from(["yes", "no"]), st.sampled_from(["yes", "no", None]), st.sampled_from(["yes", "no", None])).map(list),
                                 min_size=n, max_size=n)),  # the first rater rates every item
        "weight": draw(st.one_of(st.none(), st.lists(st.integers(1, 4), min_size=n, max_size=n))),
        "targets": draw(st.lists(st.sampled_from([0.0, 0.1, 0.3, -2.5, 1e8, 7.0]), min_size=n, max_size=n)),
    }


def parts(data, name):
    values, cut = data[name], data["cut"]
    if name == "degrees":  # actual and predicted degrees, one row each per sample
        n = data["n"]
        return (np.array(values[:cut]), np.array(values[n : n + cut])), (np.array(values[cut:n]), np.array(values[n + cut :])), (np.array(values[:n]), np.array(values[n:]))
    return values[:cut], values[cut:], values


def part_weights(data):
    weight = data["weight"]
    if weight is None:
        return None, None, None
    return np.array(weight[: data["cut"]]), np.array(weight[data["cut"] :]), np.array(weight)


def _streamed(make, update, *columns_and_weights):
    counts = make()
    update(counts, *columns_and_weights)
    return counts


def _bounds(data, k):
    """Intervals around the scores, some holding the targets: [min(s, y / 10), max(s, y / 10) + 0.3]."""
    scores, targets = np.array(parts(data, "scores")[k]), np.array(parts(data, "targets")[k]) / 10
    return np.minimum(scores, targets), np.maximum(scores, targets) + 0.3


def _by_key(result):
    return dict(zip(result.keys, result.results)), result.overall


def _items(result):
    weight = result.weight if result.weight is not None else np.ones(len(result.counts))
    codes = result.codes if result.codes is not None else np.zeros((len(result.counts), 0))
    return sorted(zip(map(tuple, result.counts.tolist()), weight.tolist(), map(tuple, codes.tolist())))


# kind -> (build(data, part) where part 0 is the first part, 1 the second, 2 the whole; canonical; measure; size)
def _ids(data):
    """Each sample's id (its position), by part as ``parts``."""
    ids, cut = list(range(data["n"])), data["cut"]
    return ids[:cut], ids[cut:], ids


def _records_in_any_order(result):
    """The records as a multiset (a merge's order puts one part's first; Spark merges in any
    order), and how many the bound let go (none, below its 1,000)."""
    return sorted(map(repr, result.records())), result.dropped


KINDS = {
    "ConfusionMatrix": (
        lambda data, k: ConfusionMatrix.from_predictions(parts(data, "actual")[k], parts(data, "predicted")[k], labels=LABELS, sample_weight=part_weights(data)[k]),
        None, lambda result: result.average("f1_score", "macro"), lambda result: result.get_total_items(),
    ),
    "Evaluation of labels": (
        lambda data, k: Evaluation.from_labels(parts(data, "actual")[k], parts(data, "predicted")[k], LABELS, sample_weight=part_weights(data)[k]),
        lambda result: result.compact(), lambda result: result.average("recall", "macro"), lambda result: result.n_samples,
    ),
    "Evaluation of label sets": (
        lambda data, k: Evaluation.from_label_sets(parts(data, "actual_sets")[k], parts(data, "predicted_sets")[k], LABELS, sample_weight=part_weights(data)[k]),
        lambda result: result.compact(), lambda result: result.average("f1_score", "samples"), lambda result: result.n_samples,
    ),
    "Evaluation of degrees": (
        lambda data, k: Evaluation.from_soft(*parts(data, "degrees")[k], LABELS, sample_weight=part_weights(data)[k]),
        lambda result: result.compact(), lambda result: result.average("precision", "micro"), lambda result: result.n_samples,
    ),
    "LabelSetCounts": (
        lambda data, k: _streamed(lambda: LabelSetCounts(keep_pairs=True), lambda counts, a, p, w: counts.update(a, p, sample_weight=w),
                                  parts(data, "actual_sets")[k], parts(data, "predicted_sets")[k], part_weights(data)[k]),
        None, None, lambda result: result.n_samples,
    ),
    "ThresholdCurve": (
        lambda data, k: ThresholdCurve.from_scores(parts(data, "binary")[k], parts(data, "scores")[k], pos_label=1, sample_weight=part_weights(data)[k]),
        None, lambda result: result.roc_auc(), lambda result: result.n_samples,
    ),
    "ThresholdCurve, binned": (
        lambda data, k: ThresholdCurve.from_scores(parts(data, "binary")[k], parts(data, "scores")[k], pos_label=1, thresholds=5,
                                                   sample_weight=part_weights(data)[k]),
        None, lambda result: result.at(0.5).average("recall", "micro"), lambda result: result.n_samples,
    ),
    "Calibration": (
        lambda data, k: Calibration.from_scores(parts(data, "binary")[k], parts(data, "scores")[k], pos_label=1, sample_weight=part_weights(data)[k]),
        None, lambda result: result.brier_score(), lambda result: result.n_samples,
    ),
    "Calibration, binned": (
        lambda data, k: Calibration.from_scores(parts(data, "binary")[k], parts(data, "scores")[k], pos_label=1, bins=4, sample_weight=part_weights(data)[k]),
        None, lambda result: result.error(), lambda result: result.n_samples,
    ),
    "ByGroup": (
        lambda data, k: ByGroup.from_labels(parts(data, "actual")[k], parts(data, "predicted")[k], parts(data, "groups")[k], LABELS,
                                            sample_weight=part_weights(data)[k]),
        _by_key, lambda result: result.overall.get_accuracy(), lambda result: result.overall.get_total_items(),
    ),
    "ByGroup of label sets": (
        lambda data, k: ByGroup.from_label_sets(parts(data, "actual_sets")[k], parts(data, "predicted_sets")[k], parts(data, "groups")[k], LABELS),
        lambda result: {key: value.compact() for key, value in _by_key(result)[0].items()}, None, None,
    ),
    "Agreement": (
        lambda data, k: Agreement.from_ratings(parts(data, "ratings")[k], categories=["no", "yes"], sample_weight=part_weights(data)[k]),
        _items, None, None,
    ),
    "CurveCounts": (
        lambda data, k: _streamed(lambda: CurveCounts(thresholds=5), lambda counts, y, s, w: counts.update(y, s, sample_weight=w),
                                  parts(data, "binary")[k], parts(data, "scores")[k], part_weights(data)[k]),
        None, None, lambda result: result.curve().n_samples,
    ),
    "RegressionMetrics": (
        lambda data, k: RegressionMetrics.from_predictions(parts(data, "targets")[k], parts(data, "scores")[k], sample_weight=part_weights(data)[k]),
        lambda result: {name: value for name, value in result.to_dict(strict=True).items() if name != "max_error"},  # a subtraction forgets the maximum
        lambda result: result.get_mean_squared_error(), lambda result: result.get_total_weight(),
    ),
    "RiskCoverage": (
        lambda data, k: RiskCoverage.from_predictions(parts(data, "actual")[k], parts(data, "predicted")[k], parts(data, "scores")[k], labels=LABELS,
                                                      sample_weight=part_weights(data)[k]),
        None, lambda result: result.aurc(), lambda result: result.n_samples,
    ),
    "SetCoverage of label sets, by group": (
        lambda data, k: SetCoverage.from_sets(parts(data, "actual")[k], parts(data, "predicted_sets")[k], labels=LABELS, groups=parts(data, "groups")[k],
                                              sample_weight=part_weights(data)[k]),
        None,  # (its groups those that weigh something, sorted: the same state however the parts came)
        lambda result: result.coverage(), lambda result: result.n_samples,
    ),
    "IntervalCoverage, in bins": (
        lambda data, k: IntervalCoverage.from_intervals(parts(data, "targets")[k], *_bounds(data, k), y_pred=parts(data, "scores")[k], edges=[0, 0.3, 0.7, 1],
                                                        sample_weight=part_weights(data)[k]),
        None, lambda result: result.coverage(), lambda result: result.n_samples,  # (exact sums: parts merged equal the whole to the last bit)
    ),
    "RankedLists": (
        lambda data, k: RankedLists.from_lists([sorted(items) for items in parts(data, "predicted_sets")[k]], [sorted(items) for items in parts(data, "actual_sets")[k]],
                                               depth=3),
        None, lambda result: result.ndcg_at(2, undefined="zero"), None,
    ),
    "InformationScores": (
        lambda data, k: InformationScores.from_probabilities(parts(data, "actual")[k], _distributions(data)[k], labels=LABELS, priors=[3, 2, 1.5],
                                                              sample_weight=part_weights(data)[k]),
        None, lambda result: result.kb_relative_information(), lambda result: result.n_samples,  # (exact sums: parts merged equal the whole to the last bit)
    ),
    "PredictionRecords": (
        lambda data, k: PredictionRecords().counted(parts(data, "actual")[k], parts(data, "predicted")[k], _ids(data)[k], sample_weight=part_weights(data)[k]),
        _records_in_any_order, None, lambda result: len(result.records()),
    ),
    "CalibrationCounts": (
        lambda data, k: _streamed(lambda: CalibrationCounts(bins=4), lambda counts, y, s, w: counts.update(y, s, sample_weight=w),
                                  parts(data, "binary")[k], parts(data, "scores")[k], part_weights(data)[k]),
        None, None, lambda result: result.calibration().n_samples,
    ),
}




def _distributions(data):
    """A row of class probabilities per sample (the first degrees, over their sum where it is
    above 1; some rows all 0, unclassified), by part as ``parts``."""
    rows, cut, n = np.array(data["degrees"][: data["n"]]), data["cut"], data["n"]
    rows = rows / np.maximum(rows.sum(axis=1, keepdims=True), 1)
    return rows[:cut], rows[cut:n], rows


def _ragged(rows):
    """Rows of any length as a 1-D column of objects (what a Dask array of lists is)."""
    column = np.empty(len(rows), dtype=object)
    column[:] = [list(row) for row in rows]
    return column


def _bounds_of(data):
    scores, targets = np.array(data["scores"]), np.array(data["targets"]) / 10
    return np.minimum(scores, targets), np.maximum(scores, targets) + 0.3


def _degree_columns(data):
    values, n = np.array(data["degrees"]), data["n"]
    return values[:n], values[n:]


# kind (a name of ``KINDS``) -> (an empty result to count into: the kind, or its Stream; the
# columns of all the samples of a data set and its keyword columns)
STREAMED = {
    "ConfusionMatrix": (lambda: ConfusionMatrix(LABELS), lambda data: ([data["actual"], data["predicted"]], {})),
    "Evaluation of labels": (lambda: Stream(Evaluation.from_labels, labels=LABELS), lambda data: ([data["actual"], data["predicted"]], {})),
    "Evaluation of label sets": (lambda: Stream(Evaluation.from_label_sets, labels=LABELS),
                                 lambda data: ([_ragged(data["actual_sets"]), _ragged(data["predicted_sets"])], {})),
    "Evaluation of degrees": (lambda: Stream(Evaluation.from_soft, labels=LABELS), lambda data: (list(_degree_columns(data)), {})),
    "LabelSetCounts": (lambda: LabelSetCounts(LABELS, keep_pairs=True), lambda data: ([_ragged(data["actual_sets"]), _ragged(data["predicted_sets"])], {})),
    "ThresholdCurve": (lambda: Stream(ThresholdCurve.from_scores, pos_label=1), lambda data: ([data["binary"], data["scores"]], {})),
    "ThresholdCurve, binned": (lambda: Stream(ThresholdCurve.from_scores, pos_label=1, thresholds=5), lambda data: ([data["binary"], data["scores"]], {})),
    "Calibration": (lambda: Stream(Calibration.from_scores, pos_label=1), lambda data: ([data["binary"], data["scores"]], {})),
    "Calibration, binned": (lambda: Stream(Calibration.from_scores, pos_label=1, bins=4), lambda data: ([data["binary"], data["scores"]], {})),
    "ByGroup": (lambda: Stream(ByGroup.from_labels, labels=LABELS), lambda data: ([data["actual"], data["predicted"], data["groups"]], {})),
    "ByGroup of label sets": (lambda: Stream(ByGroup.from_label_sets, labels=LABELS),
                              lambda data: ([_ragged(data["actual_sets"]), _ragged(data["predicted_sets"]), data["groups"]], {})),
    "Agreement": (lambda: Stream(Agreement.from_ratings, categories=["no", "yes"]), lambda data: ([np.array(data["ratings"], dtype=object)], {})),
    "CurveCounts": (lambda: CurveCounts(thresholds=5), lambda data: ([data["binary"], data["scores"]], {})),
    "RegressionMetrics": (RegressionMetrics, lambda data: ([data["targets"], data["scores"]], {})),
    "RiskCoverage": (lambda: RiskCoverage(LABELS), lambda data: ([data["actual"], data["predicted"], data["scores"]], {})),
    "SetCoverage of label sets, by group": (lambda: SetCoverage(LABELS),
                                            lambda data: ([data["actual"], _ragged(data["predicted_sets"])], {"groups": data["groups"]})),
    "IntervalCoverage, in bins": (lambda: IntervalCoverage([0, 0.3, 0.7, 1]), lambda data: ([data["targets"], *_bounds_of(data)], {"y_pred": data["scores"]})),
    "RankedLists": (lambda: RankedLists(3), lambda data: ([_ragged([sorted(items) for items in data["predicted_sets"]]),
                                                           _ragged([sorted(items) for items in data["actual_sets"]])], {})),
    "InformationScores": (lambda: InformationScores(LABELS, priors=[3, 2, 1.5]), lambda data: ([data["actual"], _distributions(data)[2]], {})),
    "CalibrationCounts": (lambda: CalibrationCounts(bins=4), lambda data: ([data["binary"], data["scores"]], {})),
    "PredictionRecords": (PredictionRecords, lambda data: ([data["actual"], data["predicted"], np.arange(data["n"])], {})),
}


SAMPLE_DATA = {
    "n": 8, "cut": 3,
    "actual": ["a", "b", "c", "a", "b", "c", "a", "b"], "predicted": ["a", "c", "c", "b", "b", "a", "a", "a"],
    "actual_sets": [frozenset("a"), frozenset("bc"), frozenset(), frozenset("c"), frozenset("ab"), frozenset("a"), frozenset("bc"), frozenset("c")],
    "predicted_sets": [frozenset("a"), frozenset("b"), frozenset("c"), frozenset(), frozenset("abc"), frozenset("b"), frozenset("c"), frozenset("c")],
    "binary": [0, 1, 1, 0, 1, 0, 0, 1], "scores": [0.1, 0.9, 0.6, 0.6, 0.25, 0.5, 0.0, 1.0],
    "degrees": [[0.0, 0.25, 1.0], [0.5, 0.5, 0.0], [1.0, 0.0, 0.0], [0.25, 0.25, 0.5]] * 4,
    "groups": ["x", "y", "x", "z", "y", "x", "z", "x"],
    "ratings": [["yes", "no", None], ["no", "no", "no"], ["yes", "yes", None], ["no", None, "yes"]] * 2,
    "weight": [1, 2, 1, 3, 1, 1, 4, 2], "targets": [0.0, 0.1, 0.3, -2.5, 1e8, 7.0, 0.1, 0.3],
}  # fmt: skip
"""One data set of eight samples with every column ``counted_samples`` draws (for the slow engines)."""


def unstreamed(result: Any) -> Any:
    """The result a ``Stream`` counted, or the result itself."""
    return result.result() if isinstance(result, Stream) else result


def rows_of(columns: tuple[list, dict], rows: slice) -> tuple[list, dict]:
    """Some samples' columns (a slice of every column and keyword column)."""
    given, named = columns
    return [values[rows] for values in given], {name: values[rows] for name, values in named.items()}


def check_kind(kind: str, data: dict) -> None:
    """``kind`` (a name of ``KINDS``) follows the counted-state protocol on ``data`` (from
    ``counted_samples()``) and, where it subtracts, refuses a part never added."""
    build, canonical, measure, size = KINDS[kind]
    first, second, whole = (build(data, k) for k in range(3))
    check_counted_state(first, second, whole, canonical=canonical or (lambda result: result), measure=measure, size=size)
    if first.supports("subtract"):
        check_subtract_refuses_a_part_never_added(first, first + second + second)


def peak_mib(function: Callable[[], Any]) -> float:
    """Peak Python allocation (MiB) while ``function`` runs (and raises an evalkit error)."""
    import tracemalloc

    from evalkit.exceptions import EvalkitError

    tracemalloc.start()
    try:
        function()
    except EvalkitError:
        pass
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20
