"""RegressionMetrics: the regression half of visrec's ``EvaluationMetrics``, as an object that
updates, merges and streams, on exact sums.

Deep Netts' ``RegresionEvaluator`` sets four of visrec's regression keys (RSE, R², F, MSE) in
single precision from the first output only; DL4J's ``RegressionEvaluation``, Spark's
``RegressionMetrics`` and Weka's numeric ``Evaluation`` each report a few more. Here every one
is a getter of one object, computed from sums that merge exactly (``evalkit._engine.moments``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from statistics import NormalDist
from typing import TYPE_CHECKING, ClassVar, NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine import serialization
from evalkit._engine._types import MultioutputLike, OutputValues, TargetsLike
from evalkit._engine._validation import RandomState, check_choice, check_sample_weight, format_number, show
from evalkit._engine.moments import (
    EPSILON,
    target_pair,
)
from evalkit._java.evaluation_metrics import EvaluationMetrics
from evalkit._java.stats import Stats
from evalkit._results._closed_form import Interval, _check_level
from evalkit._results._regression_state import RegressionState, _Sums
from evalkit._results._resampling import _bootstrap, _check_resamples, _dense_kinds, check_random_state
from evalkit._results._sequences import DEFAULT_TUNING, check_tuning, sequence_bounds
from evalkit.exceptions import (
    EmptyInputError,
    InvalidArgumentError,
    InvalidTypeError,
    UnknownMetricError,
    UnsupportedSettingError,
)
from evalkit.measures import _regression_formulas as formulas
from evalkit.measures._averaging import UndefinedPolicy
from evalkit.measures._registry import getter_metadata, spelling, unknown_name_message

if TYPE_CHECKING:
    from typing_extensions import Self  # typing.Self of Python 3.11, for type checkers only

__all__ = ["RegressionMeasure", "RegressionMetrics"]

_NEEDS_DATA = {
    "median_absolute_error": "evalkit.metrics.median_absolute_error(y_true, y_pred)",
    "d2_absolute_error_score": "evalkit.metrics.d2_absolute_error_score(y_true, y_pred)",
    "d2_pinball_score": "evalkit.metrics.d2_pinball_score(y_true, y_pred, alpha=...)",
    "mean_pinball_loss": "evalkit.metrics.mean_pinball_loss(y_true, y_pred, alpha=...)",
}
"""Measures of an order statistic (a median, a quantile) or of a loss with a parameter: no sums
give them, so a ``RegressionMetrics`` refuses them and says where they are computed from the data."""

_ALIASES = {
    "rsquared": "r_squared", "r2": "r_squared", "r2_score": "r_squared", "coefficient_of_determination": "r_squared",
    "fstatistics": "f_stat", "f_statistic": "f_stat", "mse": "mean_squared_error", "rmse": "root_mean_squared_error",
    "mae": "mean_absolute_error", "mape": "mean_absolute_percentage_error", "rss": "residual_square_sum",
    "sse": "residual_square_sum", "residual_sum_of_squares": "residual_square_sum", "rse": "residual_standard_error",
    "explained_variance_score": "explained_variance", "correlation_coefficient": "pearson_correlation",
    "correlation": "pearson_correlation", "max_absolute_error": "max_error", "rrse": "root_relative_squared_error",
    "d2_squared_error_score": "r_squared",
}  # fmt: skip
"""Other spellings users type, visrec's keys among them (``"RSquared"``, ``"FStatistics"``)."""



class RegressionMeasure(NamedTuple):
    """A measure of a regression metrics class: its getter and what ``evalkit.measure`` says of it."""

    name: str
    getter: str
    title: str
    description: str
    direction: str | None
    bounds: tuple[float, float]
    aliases: tuple[str, ...]


_BUILT_IN: dict[str, tuple[str | None, tuple[float, float], str]] = {
    "mean_absolute_error": ("lower", (0.0, math.inf), "MAE"),
    "mean_squared_error": ("lower", (0.0, math.inf), "MSE"),
    "root_mean_squared_error": ("lower", (0.0, math.inf), "RMSE"),
    "residual_square_sum": ("lower", (0.0, math.inf), "RSS"),
    "residual_standard_error": ("lower", (0.0, math.inf), "RSE"),
    "r_squared": ("higher", (-math.inf, 1.0), "R²"),
    "f_stat": ("higher", (-math.inf, math.inf), "F"),
    "explained_variance": ("higher", (-math.inf, 1.0), ""),
    "max_error": ("lower", (0.0, math.inf), ""),
    "mean_absolute_percentage_error": ("lower", (0.0, math.inf), "MAPE"),
    "pearson_correlation": ("higher", (-1.0, 1.0), "r"),
    "root_relative_squared_error": ("lower", (0.0, math.inf), "RRSE"),
    "relative_squared_error": ("lower", (0.0, math.inf), ""),
    "regression_sum_of_squares": (None, (0.0, math.inf), "SSR"),
    "total_sum_of_squares": (None, (0.0, math.inf), "SST"),
}
"""Direction, bounds and abbreviation of the built-in getters."""



class RegressionMetrics(RegressionState, EvaluationMetrics):
    """The metrics of a regressor, from sums that merge exactly: one object per evaluation,
    updated batch by batch or one sample at a time, merged with ``+``.

    Every getter works on each output and combines them by ``multioutput`` as scikit-learn
    (``"uniform_average"`` by default, ``"raw_values"``, ``"variance_weighted"`` or weights).
    The sums are exact (``evalkit._engine.moments``), so parts merged in any order equal the whole,
    and R² is free of the cancellation of floating-point sums of squares. Undefined values (a
    constant target's R², the RSE of too few samples) are NaN.

    A stream of one output (``update([y], [p])``, one unweighted sample at a time) is counted in
    float running sums (West's update of means and co-moments of the values less a shift, so at
    any offset) in about two microseconds, and its exact sums are made of the events held, a
    batch at a time: the getters read the running sums while events are held (equal to the exact
    values to rounding, about 1e-14 relative), and ``sums()``, the correlation, merges, ``-``,
    ``scaled``, copies, ``==``, JSON and pickles count the held events in first, so they stay exact.

    Construction:
        ``RegressionMetrics()`` then ``update(y_true, y_pred, sample_weight=None)``, or
        ``RegressionMetrics.from_predictions(y_true, y_pred, sample_weight=None)``.
    visrec's keys:
        ``get_mean_absolute_error``, ``get_mean_squared_error``,
        ``get_root_mean_squared_error``, ``get_residual_square_sum``,
        ``get_residual_standard_error(n_inputs=1)``, ``get_r_squared``,
        ``get_f_stat(n_inputs=1)``; ``get(EvaluationMetrics.R_SQUARED)``.
    More:
        ``get_explained_variance``, ``get_max_error``, ``get_mean_absolute_percentage_error``,
        ``get_pearson_correlation``, ``get_root_relative_squared_error``,
        ``get_regression_sum_of_squares``, ``get_total_sum_of_squares``, ``get_samples``,
        ``get_total_weight``.
    Intervals:
        ``bootstrap(y_true, y_pred, measure)`` of the data; of the sums alone, counted with
        ``RegressionMetrics(keep_spread=True)``: ``interval(measure, anytime=False)`` (the
        delta method's, or a stream's confidence sequence) and ``sample_spread(measure)``.
    Measures by name:
        ``measure``, ``measures``, ``metric_names``, ``get``, ``to_dict``.

    A subclass adds a metric by defining one more ``get_*`` method (described, if wanted, with
    ``@evalkit.measure``); it reads the per-output sums with ``self.sums()``.

    Examples:
        >>> metrics = RegressionMetrics.from_predictions([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
        >>> metrics.get_mean_squared_error(), round(metrics.get_r_squared(), 6)
        (0.375, 0.948608)
        >>> metrics.get(EvaluationMetrics.R_SQUARED) == metrics.get_r_squared()
        True
    """


    DOCUMENT = "RegressionMetrics"
    NON_METRIC_GETTERS: ClassVar[frozenset[str]] = frozenset({"get_samples", "get_total_weight", "get_outputs"})
    """No-argument getters that are not metrics (counts)."""

    def __init__(self, outputs: int | None = None, *, keep_spread: bool = False) -> None:
        """An empty evaluation; ``outputs``: the number of outputs (else the first update's);
        ``keep_spread``: also keep the exact sums of each sample's fourth powers (``Σe⁴``,
        ``Σe²y``, ``Σe²y²``, ``Σy³``, ``Σy⁴``: about 60% more counting time), what ``interval``
        reads.

        Raises:
            InvalidTypeError: ``outputs`` not a positive integer, ``keep_spread`` not a bool.
        """
        EvaluationMetrics.__init__(self)
        RegressionState.__init__(self, outputs, keep_spread=keep_spread)

    def _opened(self, other: Self) -> Self:
        """(An empty result of no outputs yet keeps its stored values as it takes the other's outputs.)"""
        opened = super()._opened(other)
        if opened is not self:
            opened._values = dict(self._values)
        return opened

    def _with(self, arrays: Iterable[object]) -> Self:
        """(The values stored with ``set`` go with every result made of this one.)"""
        result = super()._with(arrays)  # type: ignore[arg-type]
        result._values = dict(self._values)
        return result

    def _document(self) -> dict[str, object]:
        return {**super()._document(), "values": {name: None if math.isnan(value) else value for name, value in self._values.items()}}

    @classmethod
    def _read_document(cls, document: dict, **options: object) -> Self:
        metrics = super()._read_document(document, **options)
        values = serialization.field(document, "values")
        if not isinstance(values, dict):
            raise serialization.FormatError(f"field 'values' must be an object, got {show(values)}")
        metrics._values = {str(name): serialization.number(value, f"values.{name}", nullable=True) for name, value in values.items()}
        return metrics

    # ----------------------------------------------------------------------------------------
    # the sums a measure reads

    def get_samples(self) -> int:
        """The number of samples counted."""
        return self._samples

    def get_outputs(self) -> int:
        """The number of outputs (0 before the first update)."""
        return self._outputs or 0

    def get_total_weight(self) -> float:
        """The sum of the sample weights (the number of samples without weights)."""
        return float(self.sums()["weight"][0]) if self._outputs else 0.0



    def combine_outputs(self, values: formulas.Sums, multioutput: MultioutputLike, variances: formulas.Sums | None = None) -> OutputValues:
        """One value per output, combined by ``multioutput`` (``variances``: the weights of
        ``"variance_weighted"``, each output's SST by default): what every getter returns.

        Raises:
            EmptyInputError: nothing counted yet. InvalidArgumentError, InputShapeError: a bad ``multioutput``.
        """
        if type(values) is float and type(multioutput) is str and multioutput in ("uniform_average", "variance_weighted"):
            return values  # one output read from a stream's running sums: its value, no arrays
        if variances is None and isinstance(multioutput, str) and multioutput == "variance_weighted":
            variances = self._reading()["sst"]
        if self._outputs is None:
            raise EmptyInputError("this RegressionMetrics has counted nothing yet")
        return formulas.combine(values, formulas.check_multioutput(multioutput, self._outputs), variances)

    # ----------------------------------------------------------------------------------------
    # visrec's regression keys

    def get_mean_absolute_error(self, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """``MAE = Σ w |y - p| / Σ w``."""
        return self.combine_outputs(formulas.mean_of(*self._reading().relative("abs_error", "weight")), multioutput)

    def get_mean_squared_error(self, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """``MSE = Σ w (y - p)² / Σ w``."""
        return self.combine_outputs(formulas.mean_of(*self._reading().relative("sse", "weight")), multioutput)

    def get_root_mean_squared_error(self, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """``RMSE = sqrt(MSE)`` of each output (then combined, as scikit-learn)."""
        return self.combine_outputs(formulas.root(formulas.mean_of(*self._reading().relative("sse", "weight"))), multioutput)

    def get_residual_square_sum(self, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """``RSS = Σ w (y - p)²`` (the residual sum of squares)."""
        return self.combine_outputs(self._reading()["sse"], multioutput)

    def get_residual_standard_error(self, n_inputs: int = 1, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """``RSE = sqrt(RSS / (n - k - 1))`` for a regressor of ``k = n_inputs`` inputs."""
        return self.combine_outputs(formulas.residual_standard_error(self._reading()["sse"], self._samples, n_inputs), multioutput)

    def get_r_squared(self, multioutput: MultioutputLike = "uniform_average", *, through_origin: bool = False) -> OutputValues:
        """``R² = 1 - RSS / Σ w (y - ȳ)²``; ``through_origin=True``: ``1 - RSS / Σ w y²``
        (Spark's ``RegressionMetrics(throughOrigin=true)``, a model without intercept)."""
        sums = self._reading()
        if through_origin:
            return self.combine_outputs(formulas.r_squared(*sums.relative("sse", "syy")), multioutput, sums["syy"])
        return self.combine_outputs(formulas.r_squared(*sums.relative("sse", "sst")), multioutput)  # (weighted by each output's sst)

    def get_adjusted_r_squared(self, n_inputs: int = 1, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """``R²_adj = 1 - (1 - R²) (n - 1) / (n - k - 1)`` for a regressor of ``k = n_inputs``
        inputs and an intercept, ``n`` the samples counted (Weka's ``calculateAdjRSquared(r2,
        n, k + 1)``, MOA's adjusted R² with ``numAttributes = k``); NaN unless ``n > k + 1``."""
        return self.combine_outputs(formulas.adjusted_r_squared(self.get_r_squared("raw_values"), self._samples, n_inputs), multioutput)

    def get_f_stat(self, n_inputs: int = 1, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """``F = ((SST - RSS) / k) / (RSS / (n - k - 1))`` for ``k = n_inputs`` inputs (NaN for a constant target, ``SST = 0``: no R², no F)."""
        explained, sse, sst = self._reading().relative("explained", "sse", "sst")
        return self.combine_outputs(formulas.f_statistic(explained, sse, self._samples, n_inputs, sst), multioutput)

    # ----------------------------------------------------------------------------------------
    # more measures

    def get_explained_variance(self, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """``1 - Var(y - p) / Var(y)`` (scikit-learn's ``explained_variance_score``)."""
        sums = self._reading()
        return self.combine_outputs(formulas.fraction_explained(*sums.relative("see", "sst")), multioutput, sums["sst"])

    def get_max_error(self, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """The largest ``|y - p|`` (NaN after samples were taken away)."""
        return self.combine_outputs(self._reading()["max_error"], multioutput)

    def get_mean_absolute_percentage_error(self, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """``MAPE = Σ w |y - p| / max(|y|, eps) / Σ w`` (a fraction, as scikit-learn: not in percent)."""
        return self.combine_outputs(formulas.mean_of(*self._reading().relative("abs_percentage", "weight")), multioutput)

    def get_pearson_correlation(self, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """Pearson's correlation ``r = syp / sqrt(sst spp)`` of targets and predictions (Weka's
        ``correlationCoefficient``, DL4J's ``correlationR2``), correctly rounded from the exact sums
        (a stream's held events counted in first), as the MCC: within [-1, 1], and exactly 1 of
        targets with themselves."""
        numerators = self.sums().numerators("syp", "sst", "spp")
        if len(numerators[0]) == 1 and numerators[0].dtype == object:  # one output's exact sums: Python ints, a float (no arrays)
            numerators = tuple(column[0] for column in numerators)
        return self.combine_outputs(formulas.pearson_correlation(*numerators), multioutput)

    def get_root_relative_squared_error(self, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """``sqrt(RSS / Σ w (y - ȳ)²)``: the RMSE relative to predicting the mean (Weka's root
        relative squared error over 100, when its prior is the evaluated data's mean)."""
        return self.combine_outputs(formulas.root(formulas.mean_of(*self._reading().relative("sse", "sst"))), multioutput)

    def get_relative_squared_error(self, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """``RSS / Σ w (y - ȳ)²`` (DL4J's ``relativeSquaredError``, which its ``stats()`` heads "RSE";
        visrec's RSE is the residual standard error)."""
        return self.combine_outputs(formulas.mean_of(*self._reading().relative("sse", "sst")), multioutput)

    def get_regression_sum_of_squares(self, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """``SSR = Σ w (p - ȳ)²`` (Spark's ``explainedVariance`` is ``SSR / Σ w``)."""
        return self.combine_outputs(self._reading()["ssr"], multioutput)

    def get_total_sum_of_squares(self, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """``SST = Σ w (y - ȳ)²``."""
        return self.combine_outputs(self._reading()["sst"], multioutput)

    def __getattr__(self, attribute: str) -> OutputValues:
        """Measures that need the data refuse with where to compute them."""
        name = attribute[4:] if attribute.startswith("get_") else ""
        if name in _NEEDS_DATA:
            raise UnsupportedSettingError(
                f"{name} is an order statistic or a quantile loss of the data, which no sums give: "
                f"compute it from the data with {_NEEDS_DATA[name]}"
            )
        raise self._unknown_attribute(attribute)

    # ----------------------------------------------------------------------------------------
    # uncertainty

    def f_test(self, n_inputs: int = 1, multioutput: MultioutputLike = "uniform_average") -> OutputValues:
        """The p-value of the F test that a regressor of ``n_inputs`` inputs explains nothing
        (all its coefficients 0): the chance of an F statistic at least ``get_f_stat`` under the
        F distribution of ``(k, n - k - 1)`` degrees of freedom, exact for a least-squares fit
        with normal errors (needs scipy).

        Examples:
            >>> metrics = RegressionMetrics.from_predictions([1, 2, 3, 4, 5], [1.1, 1.9, 3.2, 3.9, 5.1])
            >>> metrics.f_test() < 0.001
            True
        """
        from scipy import stats  # an optional dependency: the F distribution is scipy's

        explained, sse, sst = self._reading().relative("explained", "sse", "sst")
        k = formulas.check_inputs(n_inputs)
        statistic = formulas.f_statistic(explained, sse, self._samples, k, sst)
        values = np.where(np.isnan(statistic), np.nan, stats.f.sf(statistic, k, max(self._samples - k - 1, 1)))
        return self.combine_outputs(values, multioutput)

    @classmethod
    def bootstrap(
        cls, y_true: TargetsLike, y_pred: TargetsLike, measure: str | Callable[..., float] = "r_squared", *,
        sample_weight: ArrayLike | None = None, multioutput: MultioutputLike = "uniform_average", level: float = 0.95, method: str = "bca",
        n_resamples: int = 2000, random_state: RandomState = None, **parameters: object,
    ) -> Interval:  # fmt: skip
        """The bootstrap interval of a measure: samples drawn with replacement ``n_resamples``
        times. A measure of this class (a getter name without ``get_``, in any spelling) is read
        from the sums of every resample at once, in one matrix product (BCa, percentile or
        normal). A function of the data, such as ``evalkit.metrics.median_absolute_error``
        (an order statistic no sums give), is called on each resample (percentile or normal:
        ``method="bca"`` gives the percentile interval, as BCa's jackknife would call it once
        per sample).

        Args:
            measure: a measure name (``"r_squared"``, ``"RSquared"``, ``"rmse"``), or a function
                ``f(y_true, y_pred, sample_weight=...)`` returning a number.
            parameters: the measure's own (``n_inputs=2``), or the function's (``alpha=0.9``).

        Raises:
            UnknownMetricError: no such measure (one that needs the data names its function).
            InvalidArgumentError: a bad level, method or number of resamples.

        Examples:
            >>> import numpy as np
            >>> rng = np.random.default_rng(0)
            >>> y = rng.normal(size=200)
            >>> interval = RegressionMetrics.bootstrap(y, y + rng.normal(0, 0.5, 200), "r_squared", random_state=0)
            >>> interval.low < interval.estimate < interval.high
            True
        """
        check_choice("method", method, ("bca", "percentile", "normal"))
        y, p = target_pair(y_true, y_pred)
        weight = check_sample_weight(sample_weight, len(y))
        weight = np.ones(len(y)) if weight is None else weight.astype(np.float64)
        if callable(measure) and not isinstance(measure, str):
            return _data_interval(measure, y, p, weight if sample_weight is not None else None, parameters,
                                  level=level, method=method, n_resamples=n_resamples, random_state=random_state)  # fmt: skip
        getter = getattr(cls, cls.measure(measure).getter)
        whole = cls.from_predictions(y, p, sample_weight=weight)
        estimate = float(getter(whole, multioutput=multioutput, **parameters))
        outputs = y.shape[1]
        terms = _bootstrap_terms(y, p, weight)  # samples x (outputs * 10)
        kinds = _dense_kinds(terms, np.ones(len(y), dtype=np.int64))

        def statistic(sums: np.ndarray) -> np.ndarray:
            view = cls._view(sums.reshape(len(sums), outputs, -1), len(y))
            values = np.asarray(getter(view, multioutput="raw_values", **parameters), dtype=np.float64).reshape(outputs, len(sums))
            checked = formulas.check_multioutput(multioutput, outputs)
            return np.array([formulas.combine(values[:, row], checked, view.sums()["sst"].reshape(outputs, -1)[:, row]) for row in range(len(sums))])

        return _bootstrap(kinds, statistic, estimate, level=level, method=method, n_resamples=n_resamples, random_state=random_state)

    def sample_spread(self, name: str) -> tuple[int, float]:
        """``RegressionState.sample_spread`` of a measure named in any spelling (``"rmse"``, ``"r2"``).

        Examples:
            >>> metrics = RegressionMetrics(keep_spread=True)
            >>> metrics.update([1.0, 2.0, 3.0, 4.0], [1.5, 2.0, 2.5, 4.5])
            >>> metrics.sample_spread("MAE") == metrics.sample_spread("mean_absolute_error")
            True
        """
        return super().sample_spread(self.measure(name).name)

    def interval(self, measure: str = "r_squared", average: None = None, *, level: float = 0.95, method: str | None = None, anytime: bool = False,
                 tuning: float = DEFAULT_TUNING) -> Interval:  # fmt: skip
        """An asymptotic interval of MAE, MSE, RMSE or R² of one output from the counted sums,
        no samples kept: the estimate ± ``z σ / √n`` (the delta method, ``σ`` from
        ``sample_spread``), or with ``anytime=True`` the confidence sequence of Waudby-Smith et
        al. (2024), ``estimate ± σ · normal_mixture_radius(n)``, which holds at every sample size
        at once, so a stream may read it after every batch. Count with ``keep_spread=True``.

        Args:
            measure: ``"r_squared"`` (the default), ``"mean_squared_error"``,
                ``"root_mean_squared_error"`` or ``"mean_absolute_error"``, in any spelling.
            average: none (a regressor's measure has no average over classes; the same
                signature as the classifiers' ``interval``, which windows call).
            level: the confidence level.
            method: ``"asymptotic"``, the only one (the default).
            anytime: a confidence sequence instead of a fixed-n interval.
            tuning: with ``anytime``, the samples where the sequence is narrowest.

        Raises:
            UnsupportedSettingError: what ``sample_spread`` refuses (another measure, more
                outputs, weights, the spread not kept).
            InvalidArgumentError: an ``average``, or a ``method`` other than ``"asymptotic"``.

        Examples:
            >>> import numpy as np
            >>> rng = np.random.default_rng(0)
            >>> y = rng.normal(size=5000)
            >>> metrics = RegressionMetrics(keep_spread=True)
            >>> metrics.update(y, y + rng.normal(0, 0.5, 5000))
            >>> print(metrics.interval("r_squared", anytime=True))
            0.7473 [0.7255, 0.7691] (95% anytime asymptotic)
        """
        level, tuning = _check_level(level), check_tuning(tuning)
        if average is not None:
            raise InvalidArgumentError(f"a regressor's measure has no average over classes, got average={show(average)}")
        found = self.measure(measure)
        n, spread = self.sample_spread(found.name)  # (first: every pending event counted into the exact sums, which the estimate then reads too)
        if method not in (None, "asymptotic"):
            raise InvalidArgumentError(f"'method' of a regressor's interval from its sums must be 'asymptotic' (the delta method), got {show(method)}")
        estimate = float(getattr(self, found.getter)())
        if anytime:
            low, high = sequence_bounds(estimate, n, spread, level, tuning)
        else:
            radius = NormalDist().inv_cdf(0.5 + level / 2) * spread / math.sqrt(n) if n else math.nan
            low, high = estimate - radius, estimate + radius
        return Interval(estimate, low, high, level, "asymptotic", anytime=anytime).within(found.bounds)

    @classmethod
    def _view(cls, sums: np.ndarray, samples: int) -> RegressionMetrics:
        """A reading of float sums (resamples x outputs x terms) whose outputs are every
        (output, resample): each getter vectorised over resamples, as it is written."""
        view = cls.__new__(cls)
        EvaluationMetrics.__init__(view)
        view._samples, view._sums, view._largest, view._pending, view._running, view._spread, view.keep_spread = samples, [], [], [], None, None, False
        view._derived = _FloatSums(np.moveaxis(sums, 0, 1).reshape(-1, sums.shape[2]))
        view._outputs = len(view._derived["weight"])
        return view

    # ----------------------------------------------------------------------------------------
    # measures by name

    @classmethod
    def average(cls, results: Iterable[RegressionMetrics], *, undefined: UndefinedPolicy = "exclude") -> Stats:
        """Every metric summarized over ``results`` (the folds of a cross-validation): mean, std,
        min, max and defined count, as ``ClassificationMetrics.average`` (what Deep Netts'
        ``RegresionEvaluator.averagePerformance`` does, without its swap of R² and RSE).

        Raises:
            EmptyInputError: no results. InvalidTypeError: an element is not a RegressionMetrics.

        Examples:
            >>> folds = [RegressionMetrics.from_predictions([1, 2, 3], p) for p in ([1, 2, 4], [1, 3, 3])]
            >>> RegressionMetrics.average(folds).get("RSquared")
            0.5
        """
        listed = [results] if isinstance(results, RegressionMetrics) else list(results)
        if not listed:
            raise EmptyInputError("'results' is empty: there is nothing to average")
        for position, result in enumerate(listed):
            if not isinstance(result, RegressionMetrics):
                raise InvalidTypeError(f"'results[{position}]' must be a RegressionMetrics, got {show(result)}")
        common = set.intersection(*(set(type(result).measures()) for result in listed))
        names = [name for name in type(listed[0]).measures() if name in common]
        aliases = {**_ALIASES, **{alias: measure.name for measure in type(listed[0]).measures().values() for alias in measure.aliases}}
        return Stats.lazily(names, lambda name: [float(getattr(result, f"get_{name}")()) for result in listed], undefined=undefined,
                            aliases={alias: name for alias, name in aliases.items() if name in common})  # fmt: skip

    @classmethod
    def measures(cls) -> dict[str, RegressionMeasure]:
        """Every measure of this class by name: each ``get_*`` getter that is not a count, with
        what ``evalkit.measure`` declared (a subclass's getters included)."""
        table = cls.__dict__.get("_measure_table")
        if table is None:
            table = {}
            for klass in reversed(cls.__mro__):
                for attribute, value in list(vars(klass).items()):
                    if attribute.startswith("get_") and attribute not in cls.NON_METRIC_GETTERS and callable(value) and attribute[4:] not in table:
                        table[attribute[4:]] = _measure_of(cls, attribute[4:], getattr(cls, attribute))
            cls._measure_table = table  # type: ignore[attr-defined]  # a cache set on the class itself
        return dict(table)

    @classmethod
    def metric_names(cls) -> tuple[str, ...]:
        """The names of this class's measures, base-class getters first."""
        return tuple(cls.measures())

    @classmethod
    def measure(cls, name: str) -> RegressionMeasure:
        """The measure ``name`` (any spelling, alias or visrec key) is in this class.

        Raises:
            UnknownMetricError: no such measure; for one that needs the data, where it is.
        """
        key = cls._key(name)
        found = cls.measures().get(key)
        if found is None:
            if key in _NEEDS_DATA:
                raise UnknownMetricError(f"{name!r} needs the data, not sums: compute it with {_NEEDS_DATA[key]}")
            raise UnknownMetricError(
                f"{unknown_name_message('measure', name, list(cls.measures()))}. Looked up in {cls.__qualname__}; to add one, "
                f"define get_{spelling(name)} on a RegressionMetrics subclass"
            )
        return found

    @classmethod
    def _key(cls, name: str) -> str:
        if not isinstance(name, str):
            raise InvalidTypeError(f"a metric name must be a string, got {show(name)}")
        key = spelling(name)
        declared = {alias: measure.name for measure in cls.measures().values() for alias in measure.aliases}
        return declared.get(key) or _ALIASES.get(key, key)

    def get(self, name: str) -> float:
        """A metric by name in any spelling: a visrec key (``EvaluationMetrics.R_SQUARED``,
        ``"FStatistics"``), a getter name without ``get_``, an alias (``"rmse"``), or a value
        stored with ``set``.

        Raises:
            UnknownMetricError: (a ``KeyError``) an unknown name.
        """
        if isinstance(name, str) and name in self._values:
            return self._values[name]
        key = self._key(name)
        if f"get_{key}" in self.NON_METRIC_GETTERS:
            return getattr(self, f"get_{key}")()
        return getattr(self, self.measure(name).getter)()

    def set(self, name: str, value: float) -> None:
        """Store an extra value (a training time...) under a name that is not a metric.

        Raises:
            InvalidArgumentError: ``name`` is a metric computed from the sums.
        """
        if self._key(name) in self.measures():
            raise InvalidArgumentError(f"{name!r} is computed from the sums and cannot be set")
        super().set(name, value)

    def names(self) -> list[str]:
        """The names ``get`` answers: counts, metrics, then values stored with ``set``."""
        return ["samples", "total_weight", *self.metric_names(), *self._values]

    def to_dict(self, *, strict: bool = False) -> dict[str, object]:
        """Counts and every metric (outputs combined by their mean), then stored extras."""
        result: dict[str, object] = {"samples": self._samples, "outputs": self.get_outputs()}
        if self._outputs is not None:
            result["total_weight"] = self.get_total_weight()
            result.update({name: getattr(self, measure.getter)() for name, measure in self.measures().items()})
        result.update(self._values)
        return serialization.json_safe(result) if strict else result

    def __str__(self) -> str:
        measures = self.measures()
        lines = []
        for name, value in self.to_dict().items():
            measure = measures.get(name)
            title = measure.title if measure is not None else name.replace("_", " ").capitalize()
            lines.append(f"{title}: {format_number(value)}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(outputs={self._outputs}, samples={self._samples})"


def _measure_of(cls: type, name: str, function: Callable[..., object]) -> RegressionMeasure:
    direction, bounds, abbreviation = _BUILT_IN.get(name, ("higher", (-math.inf, math.inf), ""))
    title = name.replace("_", " ").capitalize() + (f" ({abbreviation})" if abbreviation else "")
    metadata: dict = {"title": title, "description": (function.__doc__ or "").strip().split("\n", 1)[0],
                                "direction": direction, "bounds": bounds, "aliases": ()}  # fmt: skip
    metadata.update(getter_metadata(function) or {})
    return RegressionMeasure(name=name, getter=f"get_{name}", **metadata)



_TERMS = 10
"""Float terms of a sample for the bootstrap (see ``_bootstrap_terms``)."""


def _bootstrap_terms(y: np.ndarray, p: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """Per sample and output: ``w, w y', w p', w y'², w p'², w y' p', w |e|, w |e|/max(|y|, eps),
    w e², w e`` with ``y' = y - c`` and ``p' = p - c`` around the weighted mean ``c`` of ``y``
    (float sums of centred terms keep the variances the resamples need)."""
    w = weight[:, None]
    centre = (weight @ y) / weight.sum() if weight.sum() > 0 else np.zeros(y.shape[1])
    yc, pc, error = y - centre, p - centre, y - p
    absolute = np.abs(error)
    columns = [np.broadcast_to(w, y.shape), w * yc, w * pc, w * yc * yc, w * pc * pc, w * yc * pc, w * absolute,
               w * (absolute / np.maximum(np.abs(y), EPSILON)), w * error * error, w * error]  # fmt: skip
    stacked = np.stack(columns, axis=2)  # samples x outputs x terms
    stacked[..., 0] = w
    return stacked.reshape(len(y), -1)


class _FloatSums(_Sums):
    """The sums of float terms (``_bootstrap_terms``) of many resamples, read as ``_Sums`` reads
    exact ones: ``RegressionMetrics.sums`` of a bootstrap view."""

    def __init__(self, sums: np.ndarray) -> None:
        super().__init__([], [])
        w, y, p, yy, pp, yp, absolute, percentage, ee, e = sums.T
        with np.errstate(all="ignore"):
            self.update(weight=w, sse=ee, sst=yy - y * y / w, spp=pp - p * p / w, syp=yp - y * p / w, see=ee - e * e / w,
                        ssr=pp - 2 * y * p / w + y * y / w, error_sum=e, abs_error=absolute, abs_percentage=percentage)  # fmt: skip
        self["explained"] = self["sst"] - self["sse"]

    def __missing__(self, name: str) -> np.ndarray:
        raise UnsupportedSettingError(f"the bootstrap of sums has no {name!r}: bootstrap a function of the data instead (RegressionMetrics.bootstrap(y, p, function))")

    def relative(self, *names: str) -> tuple[np.ndarray, ...]:
        """The sums as they are (floats need no common scale)."""
        return tuple(self[name] for name in names)

    numerators = relative  # float sums: the formulas' float path (a correlation limited to [-1, 1])


def _data_interval(function: Callable[..., float], y: np.ndarray, p: np.ndarray, weight: np.ndarray | None, parameters: dict, *, level: float,
                   method: str, n_resamples: int, random_state: RandomState) -> Interval:  # fmt: skip
    """The bootstrap of a function of the data: called on every resample of the samples."""
    def call(rows: np.ndarray | slice) -> float:
        extra = {} if weight is None else {"sample_weight": weight[rows]}
        target, prediction = (y[rows, 0], p[rows, 0]) if y.shape[1] == 1 else (y[rows], p[rows])
        return float(function(target, prediction, **extra, **parameters))

    estimate = call(slice(None))
    rng = np.random.default_rng(check_random_state(random_state))
    replicates = np.array([call(rng.integers(0, len(y), len(y))) for _ in range(_check_resamples(n_resamples))])
    kinds = _dense_kinds(np.zeros((len(y), 1)), np.ones(len(y), dtype=np.int64))
    chosen = "percentile" if method == "bca" else method
    return _bootstrap(kinds, lambda sums: sums[:, 0], estimate, level=level, method=chosen, n_resamples=n_resamples, random_state=None,
                      replicates=replicates)  # fmt: skip
