"""Results of the algebraic framework, as features: what the measure metadata makes computable.

* ``micro_macro_gap``: for an aggregation-decomposable measure ``M = <a, v> / <b, v>``,
  micro is the macro average weighted by the denominators ``w_j = <b, v_j>``, and
  ``micro - macro = Cov_j(w_j, M_j) / mean(w)`` (population covariance over the classes where
  ``M_j`` is defined).
* ``bayes_optimal_threshold``: a measure with a linear numerator and a denominator that
  does not depend on the predictions is maximised by predicting positive iff
  ``P(y = 1 | x) > (β + δ) / (α + β + γ + δ)`` for ``M ∝ α tp - β fp - γ fn + δ tn``.
  Precision, F-beta and Jaccard have no such closed form (their denominator moves with the
  predictions): ``NoClosedFormError``.
* ``pareto_compare``: one classifier dominates another when none of its ``m(m-1)``
  off-diagonal error rates is higher and one is lower; otherwise they are incomparable.
* ``free_rates`` / ``confusion_from_rates``: with class sizes fixed an ``m x m``
  confusion matrix has exactly ``m(m-1)`` free rates.

Examples:
    >>> bayes_optimal_threshold("accuracy"), linear_utility_threshold(fp=-1, fn=-4)
    (0.5, 0.2)
"""

from __future__ import annotations

import math
from typing import Any

import attrs
import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine.cells import Cells
from evalkit._results.base import CellsResult
from evalkit.exceptions import InputShapeError, LabelMismatchError, NoClosedFormError
from evalkit.measures._formulas import COUNT_NAMES, get_measure
from evalkit.measures._registry import MeasureLike

__all__ = [
    "MicroMacroGap",
    "bayes_optimal_threshold",
    "confusion_from_rates",
    "free_rates",
    "linear_utility_threshold",
    "micro_macro_gap",
    "pareto_compare",
]


@attrs.frozen
class MicroMacroGap:
    """The micro-macro gap of a decomposable measure and its covariance decomposition.

    Attributes:
        measure: the measure's name.
        micro: ``Σ_j <a, v_j> / Σ_j <b, v_j>``.
        macro: the mean of the defined per-class values.
        weighted_macro: the per-class values weighted by their denominators ``w_j`` (= micro).
        covariance: the population covariance ``Cov_j(w_j, M_j)`` over the defined classes.
        mean_weight: the mean denominator ``mean(w_j)`` over the defined classes.
        n_defined: how many classes have a defined value (``w_j > 0``).
    """

    measure: str
    micro: float
    macro: float
    weighted_macro: float
    covariance: float
    mean_weight: float
    n_defined: int

    @property
    def gap(self) -> float:
        """``micro - macro``, equal to ``covariance / mean_weight``."""
        return self.micro - self.macro


def micro_macro_gap(cells: Cells, measure: MeasureLike, **parameters: Any) -> MicroMacroGap:
    """Decompose the micro-macro gap of a decomposable measure over per-class ``cells``.

    Raises:
        NoClosedFormError: the measure is not aggregation-decomposable (MCC, balanced
            accuracy, ...): its micro value is not a weighted mean of the class values and can
            even leave their range.

    Examples:
        >>> from evalkit import ConfusionMatrix
        >>> gap = micro_macro_gap(ConfusionMatrix.from_array([[8, 2], [10, 30]]).cells(), "precision")
        >>> round(gap.gap, 6) == round(gap.covariance / gap.mean_weight, 6)
        True
    """
    resolved = get_measure(measure)
    if not resolved.decomposable:
        raise NoClosedFormError(f"{resolved.name!r} is not aggregation-decomposable: micro is no weighted macro of it")
    a, b = (np.asarray(vector, dtype=np.float64) for vector in resolved.decomposition(**parameters))
    v = np.stack([np.asarray(getattr(cells, name), dtype=np.float64).ravel() for name in COUNT_NAMES])
    weights, numerators = b @ v, a @ v
    defined = weights > 0
    values = numerators[defined] / weights[defined]
    w = weights[defined]
    micro = numerators.sum() / weights.sum() if weights.sum() > 0 else math.nan
    if not defined.any():
        return MicroMacroGap(resolved.name, micro, math.nan, math.nan, math.nan, math.nan, 0)
    covariance = float(np.mean((w - w.mean()) * (values - values.mean())))
    return MicroMacroGap(
        resolved.name, float(micro), float(values.mean()), float((w * values).sum() / w.sum()),
        covariance, float(w.mean()), int(defined.sum()),
    )  # fmt: skip


def linear_utility_threshold(*, tp: float = 0.0, fp: float = 0.0, fn: float = 0.0, tn: float = 0.0) -> float:
    """Bayes-optimal probability threshold for the per-sample utility ``tp·u_tp + fp·u_fp + fn·u_fn + tn·u_tn``.

    Predicting positive for a sample with ``P(y = 1 | x) = q`` earns ``q u_tp + (1 - q) u_fp``,
    predicting negative ``q u_fn + (1 - q) u_tn``; positive wins iff
    ``q > (u_tn - u_fp) / (u_tp - u_fp - u_fn + u_tn)``.

    Raises:
        NoClosedFormError: the utility does not prefer correct decisions
            (``u_tp - u_fp - u_fn + u_tn <= 0``).

    Examples:
        >>> linear_utility_threshold(tp=1, tn=1)  # accuracy
        0.5
        >>> linear_utility_threshold(fp=-1, fn=-4)  # a false negative costs four false positives
        0.2
    """
    denominator = tp - fp - fn + tn
    if denominator <= 0:
        raise NoClosedFormError(
            f"the utility (tp={tp}, fp={fp}, fn={fn}, tn={tn}) does not reward correct decisions over wrong ones"
        )
    return float((tn - fp) / denominator)


def bayes_optimal_threshold(measure: MeasureLike, **parameters: Any) -> float:
    """The probability threshold that maximises ``measure`` in expectation, if a closed form exists.

    It exists when the measure is ``<a, v> / <b, v>`` with a denominator fixed by the class
    sizes (``b_tp = b_fn`` and ``b_fp = b_tn``): accuracy 0.5, recall 0 (predict everything
    positive), specificity 1; for lower-is-better measures the numerator is minimised.

    Raises:
        NoClosedFormError: no closed form (precision, F-beta, Jaccard: the denominator moves
            with the predictions; MCC, balanced accuracy...: not a ratio of linear forms), or
            the measure does not depend on the predictions (prevalence).

    Examples:
        >>> bayes_optimal_threshold("error_rate")
        0.5
        >>> bayes_optimal_threshold("precision")
        Traceback (most recent call last):
        ...
        evalkit.exceptions.NoClosedFormError: no closed-form Bayes-optimal threshold for 'precision': its denominator (tp + fp) depends on the predictions
    """
    resolved = get_measure(measure)
    if not resolved.decomposable:
        raise NoClosedFormError(f"no closed-form Bayes-optimal threshold for {resolved.name!r}: it is not a ratio of linear forms")
    a, b = resolved.decomposition(**parameters)
    if b[0] != b[2] or b[1] != b[3]:
        terms = " + ".join(f"{'' if c == 1 else f'{c:g} '}{name}" for c, name in zip(b, COUNT_NAMES) if c)
        raise NoClosedFormError(
            f"no closed-form Bayes-optimal threshold for {resolved.name!r}: its denominator ({terms}) depends on the predictions"
        )
    if resolved.direction is None:
        raise NoClosedFormError(f"{resolved.name!r} has no direction to optimise")
    sign = 1.0 if resolved.direction == "higher" else -1.0
    try:
        return linear_utility_threshold(**{name: sign * c for name, c in zip(COUNT_NAMES, a)})
    except NoClosedFormError:
        raise NoClosedFormError(f"{resolved.name!r} does not depend on the predictions") from None


def _rates(counts: np.ndarray) -> np.ndarray:
    sizes = counts.sum(axis=1, keepdims=True).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(sizes > 0, counts / sizes, np.nan)


def _matrix(confusion: object) -> tuple[np.ndarray, tuple | None]:
    if isinstance(confusion, CellsResult):
        matrix = confusion.confusion_matrix()
        return np.asarray(matrix.to_array()), tuple(matrix.labels)
    counts = np.asarray(confusion)
    if counts.ndim != 2 or counts.shape[0] != counts.shape[1]:
        raise InputShapeError(f"a confusion matrix must be square, got shape {counts.shape}")
    return counts, None


def free_rates(confusion: object) -> np.ndarray:
    """The ``m(m-1)`` off-diagonal error rates ``x_jk / n_j`` (row-major, diagonal left out).

    With the class sizes ``n_j`` fixed they determine the matrix (the diagonal is
    ``n_j`` minus the rest of the row): the degrees of freedom of a confusion matrix.
    """
    counts, _ = _matrix(confusion)
    m = len(counts)
    return _rates(counts)[~np.eye(m, dtype=bool)]


def confusion_from_rates(rates: ArrayLike, class_sizes: ArrayLike) -> np.ndarray:
    """The confusion matrix with the given off-diagonal rates (as ``free_rates`` lists them)
    and class sizes."""
    sizes = np.asarray(class_sizes, dtype=np.float64)
    m = len(sizes)
    rates = np.asarray(rates, dtype=np.float64)
    if rates.shape != (m * (m - 1),):
        raise InputShapeError(f"'rates' must hold m(m-1) = {m * (m - 1)} values, got shape {rates.shape}")
    matrix = np.zeros((m, m))
    matrix[~np.eye(m, dtype=bool)] = rates
    matrix *= sizes[:, None]
    matrix[np.diag_indices(m)] = sizes - matrix.sum(axis=1)
    return matrix


def pareto_compare(first: ArrayLike, second: ArrayLike) -> str:
    """Compare two classifiers by their off-diagonal error rates (rows actual).

    Returns ``"dominates"`` (no rate of ``first`` is higher and one is lower),
    ``"dominated"``, ``"equal"`` or ``"incomparable"``. Classes absent from either test set
    are left out. Both arguments are ConfusionMatrix objects with the same labels, or square
    count arrays of one size.

    Examples:
        >>> pareto_compare([[9, 1], [2, 8]], [[8, 2], [2, 8]])
        'dominates'
        >>> pareto_compare([[9, 1], [3, 7]], [[8, 2], [2, 8]])
        'incomparable'
    """
    a, labels_a = _matrix(first)
    b, labels_b = _matrix(second)
    if a.shape != b.shape or (labels_a is not None and labels_b is not None and labels_a != labels_b):
        raise LabelMismatchError(f"cannot compare classifiers on different classes: {labels_a or a.shape} and {labels_b or b.shape}")
    # compare a_jk / n_j with b_jk / n'_j exactly, by cross-multiplying with the class sizes
    sizes_a = a.sum(axis=1, keepdims=True).astype(np.float64)
    sizes_b = b.sum(axis=1, keepdims=True).astype(np.float64)
    off = ~np.eye(len(a), dtype=bool) & ((sizes_a > 0) & (sizes_b > 0))
    left, right = (a * sizes_b)[off], (b * sizes_a)[off]
    no_worse, no_better = bool((left <= right).all()), bool((left >= right).all())
    if no_worse and no_better:
        return "equal"
    if no_worse:
        return "dominates"
    return "dominated" if no_better else "incomparable"
