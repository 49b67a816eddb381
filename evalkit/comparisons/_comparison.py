"""Many models over many data sets: a table of one measure, data sets x models, and the
procedure of Demšar (2006) and García & Herrera (2008) on it.

``ModelComparison`` holds the table (numpy, a mapping, a pandas DataFrame, a CSV file, or the
evalkit results of each model on each data set, read through the measure model so that a loss
ranks the right way round) and gives the average ranks, Friedman's and Iman-Davenport's
tests, the Nemenyi and Bonferroni-Dunn critical differences, pairwise tests with their
adjusted p-values, comparisons against a control, the cliques of a critical-difference
diagram and Bayesian comparisons of two models. ``PairwiseTests`` holds the adjusted p-values
of every pair.

Examples:
    >>> table = {"C4.5": [0.763, 0.599, 0.954], "C4.5+m": [0.768, 0.591, 0.971], "C4.5+cf": [0.771, 0.590, 0.968]}
    >>> comparison = ModelComparison(table, datasets=["adult", "breast cancer", "wisconsin"])
    >>> comparison.ranks.round(3).tolist()
    [2.333, 1.667, 2.0]
    >>> comparison.best
    'C4.5+m'
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Hashable, Mapping, Sequence
from itertools import combinations
from os import PathLike
from typing import TYPE_CHECKING, Any, ClassVar

import attrs
import numpy as np

from evalkit._engine import serialization
from evalkit._engine._labels import normalize
from evalkit._engine._types import LabelsLike
from evalkit._engine._validation import RandomState, check_choice, open_input, show
from evalkit._engine.serialization import DocumentValue
from evalkit._groups._values import value_of
from evalkit._results._closed_form import _check_level, _scipy_stats
from evalkit._results.multiplicity import PAIRWISE_CORRECTIONS, adjust, adjust_pairwise
from evalkit._results.rendering import render
from evalkit._results.table import Strong, Table, Tabular, shown
from evalkit._scores.calibration import DIRECTIONS, calibration_key
from evalkit._scores.curves import area_key
from evalkit.comparisons._bayesian import BayesianComparison, sign_test, signed_rank_test
from evalkit.comparisons._paired import sign_columns, wilcoxon_columns
from evalkit.comparisons._ranks import (
    CD_TESTS,
    RankTest,
    critical_difference,
    friedman,
    iman_davenport,
    range_sf,
    rank_ranks,
    rank_z,
)
from evalkit.exceptions import (
    EmptyInputError,
    EvalkitError,
    FormatError,
    InputFileError,
    InvalidArgumentError,
    InvalidTypeError,
    UnknownLabelError,
)
from evalkit.measures._averaging import UndefinedPolicy
from evalkit.measures._metrics_class import MetricsClass
from evalkit.measures._registry import MeasureLike, resolve_measure

if TYPE_CHECKING:
    from typing_extensions import Self  # Python 3.11's typing.Self, for type checkers only

PAIRWISE_TESTS = ("nemenyi", "ranks", "wilcoxon", "sign")
"""Pairwise tests over data sets: Nemenyi's (its own family-wise p-values), the z test of
average ranks, Wilcoxon's signed-rank test and the sign test (adjusted for the pairs)."""

MISSING = ("refuse", "drop")
"""What to do with a missing cell (NaN, or a data set a model lacks): refuse it, naming the
cell, or drop the data sets that have one (listwise deletion)."""

__all__ = ["MISSING", "PAIRWISE_TESTS", "ModelComparison", "PairwiseTests", "measure_direction"]


def measure_direction(measure: MeasureLike, metrics_class: MetricsClass | None = None) -> str | None:
    """Whether higher or lower values of ``measure`` are better, from the measure model:
    the registered measures and the getters of ``metrics_class``, the areas of curves (higher)
    and the calibration measures (losses: lower, but resolution higher).

    Examples:
        >>> measure_direction("accuracy"), measure_direction("log_loss"), measure_direction("roc_auc")
        ('higher', 'lower', 'higher')
    """
    if area_key(measure) is not None:
        return "higher"
    calibration = calibration_key(measure)
    if calibration is not None:
        return DIRECTIONS[calibration]
    return resolve_measure(measure, metrics_class).direction


def _names(given: Sequence[Hashable] | None, count: int, default: str, argument: str) -> tuple[Hashable, ...]:
    if given is None:
        return tuple(f"{default} {i + 1}" for i in range(count))
    names = tuple(map(normalize, given))  # (numpy scalars as Python's: a document names them)
    if len(names) != count:
        raise InvalidArgumentError(f"{argument!r} names {len(names)} but the table has {count}: {show(names)}")
    if len(set(names)) != len(names):
        raise InvalidArgumentError(f"{argument!r} names one twice: {show(names)}")
    return names


def _as_table(table: Any, models: Sequence[Hashable] | None, datasets: Sequence[Hashable] | None) -> tuple[np.ndarray, tuple, tuple]:
    """A float matrix (data sets x models) with its model and data set names, from an array,
    a DataFrame (rows data sets) or a mapping of models to their values or to ``{data set: value}``."""
    if hasattr(table, "columns") and hasattr(table, "index") and hasattr(table, "to_numpy"):  # a pandas DataFrame
        models = list(table.columns) if models is None else models
        datasets = list(table.index) if datasets is None else datasets
        table = table.to_numpy()
    elif isinstance(table, Mapping):
        models = list(table) if models is None else models
        columns = list(table.values())
        if columns and all(isinstance(column, Mapping) for column in columns):
            found = list(dict.fromkeys(name for column in columns for name in column)) if datasets is None else list(datasets)
            datasets = found
            table = [[column.get(name, math.nan) for column in columns] for name in found]
        else:
            table = np.asarray(columns, dtype=object).T if columns else np.empty((0, 0))
    try:
        values = np.asarray(table, dtype=np.float64)
    except (TypeError, ValueError):
        raise InvalidTypeError(f"'table' must hold numbers (data sets x models), got {show(table)}") from None
    if values.ndim != 2:
        raise InvalidArgumentError(f"'table' must be 2-D (data sets x models), got shape {values.shape}")
    return values, _names(models, values.shape[1], "model", "models"), _names(datasets, values.shape[0], "data set", "datasets")


@attrs.frozen
class PairwiseTests(Tabular):
    """Every pair of models tested, with the p-values adjusted for their number.

    Attributes:
        models: the models, in the order of the matrices.
        p_values: ``k x k``, symmetric, the adjusted p-value of each pair (1 on the diagonal).
        raw_p_values: the same before the correction.
        statistics: ``k x k``, the statistic of each pair (row model against column model).
        test: the test (``PAIRWISE_TESTS``, or a test of one test set: ``"mcnemar"``, ...).
        correction: ``"holm"``, ``"shaffer"``, ``"bergmann-hommel"``, ``"bonferroni"`` or
            ``"none"`` (Nemenyi's p-values are family-wise themselves: ``"nemenyi"``).
        estimates: each model's average rank (over data sets) or value (on one test set).
        direction: which estimates are better: ``"lower"`` for average ranks.
    """

    models: tuple[Hashable, ...]
    p_values: np.ndarray = attrs.field(eq=attrs.cmp_using(eq=np.array_equal))
    raw_p_values: np.ndarray = attrs.field(eq=attrs.cmp_using(eq=np.array_equal))
    statistics: np.ndarray = attrs.field(eq=attrs.cmp_using(eq=np.array_equal))
    test: str
    correction: str
    estimates: np.ndarray = attrs.field(eq=attrs.cmp_using(eq=np.array_equal))
    direction: str = "lower"

    DIGITS: ClassVar[int] = 4

    @classmethod
    def from_predictions(
        cls, y_true: LabelsLike, predictions: Mapping[Hashable, Any], measure: MeasureLike = "accuracy", average: str | None = None, *,
        method: str = "mcnemar", correction: str = "holm", **options: Any,
    ) -> PairwiseTests:  # fmt: skip
        """Several models on one test set: every pair compared by the paired test ``method``
        (``evalkit.compare``: McNemar's, DeLong's for scores, a paired bootstrap for any
        measure) and the p-values adjusted by ``correction``; ``estimates`` are each model's
        value of the measure and ``ranked()`` orders the models by it.

        Examples:
            >>> y = [0, 1, 1, 0, 1, 0, 1, 1]
            >>> found = PairwiseTests.from_predictions(y, {"a": [0, 1, 1, 0, 1, 0, 1, 0], "b": [0, 0, 1, 1, 0, 0, 1, 0], "c": y})
            >>> found.ranked(), round(found.p_value("b", "c"), 3)
            ([('c', 1.0), ('a', 0.875), ('b', 0.5)], 0.375)
        """
        from evalkit._results.paired import compare_many

        check_choice("correction", correction, PAIRWISE_CORRECTIONS)
        models, k = tuple(predictions), len(predictions)
        found = compare_many(y_true, predictions, measure, average, method=method, correction="none", **options)
        estimates = np.full(k, math.nan)
        for (a, b), result in found.items():
            estimates[models.index(a)], estimates[models.index(b)] = result.estimates
        raw = np.array([result.p_value for result in found.values()])
        differences = np.array([result.difference for result in found.values()])
        return cls(models, _square(adjust_pairwise(raw, k, correction), k, 1.0), _square(raw, k, 1.0), _square(differences, k, 0.0) * _sign_matrix(k),
                   method, correction, estimates, measure_direction(measure, options.get("metrics_class")) or "higher")  # fmt: skip

    def ranked(self) -> list[tuple[Hashable, float]]:
        """The models from best to worst by their estimates (average ranks over data sets: lowest
        first; values on one test set: by the measure's direction)."""
        key = self.estimates if self.direction == "lower" else -self.estimates
        return [(self.models[j], float(self.estimates[j])) for j in np.argsort(key, kind="stable")]

    def p_value(self, first: Hashable, second: Hashable) -> float:
        """The adjusted p-value of one pair."""
        return float(self.p_values[_index(self.models, first), _index(self.models, second)])

    def significant(self, alpha: float = 0.05) -> list[tuple[Hashable, Hashable]]:
        """The pairs whose adjusted p-value is at most ``alpha``, in the models' order."""
        alpha = _check_level(alpha, "alpha")
        k = len(self.models)
        return [(self.models[i], self.models[j]) for i, j in combinations(range(k), 2) if self.p_values[i, j] <= alpha]

    def to_dict(self) -> dict[tuple[Hashable, Hashable], float]:
        """``{(first, second): adjusted p-value}`` of every pair."""
        return {(self.models[i], self.models[j]): float(self.p_values[i, j]) for i, j in combinations(range(len(self.models)), 2)}

    def summary(self, alpha: float = 0.05) -> dict[str, Any]:
        """What the tests found, as plain data a script reads (``json.dumps`` takes it): the
        models from best to worst with their estimates, and every pair's statistic, raw and
        adjusted p-values and whether it differs at ``alpha``.

        Examples:
            >>> y = [0, 1, 1, 0, 1, 0, 1, 1]
            >>> found = PairwiseTests.from_predictions(y, {"a": [0, 1, 1, 0, 1, 0, 1, 0], "c": y}).summary()
            >>> found["ranked"], found["pairs"][0]["p_value"], found["pairs"][0]["significant"]
            (['c', 'a'], 1.0, False)
        """
        alpha = _check_level(alpha, "alpha")
        first, second = _pairs(len(self.models))
        pairs = [{"first": self.models[i], "second": self.models[j], "statistic": float(self.statistics[i, j]),
                  "raw_p_value": float(self.raw_p_values[i, j]), "p_value": float(self.p_values[i, j]),
                  "significant": bool(self.p_values[i, j] <= alpha)} for i, j in zip(first.tolist(), second.tolist())]  # fmt: skip
        return {"test": self.test, "correction": self.correction, "alpha": alpha, "direction": self.direction,
                "estimates": dict(zip(self.models, self.estimates.tolist())), "ranked": [model for model, _ in self.ranked()],
                "pairs": pairs}  # fmt: skip

    def as_tables(self, digits: int = 4) -> list[Table]:
        """The matrix of adjusted p-values, one row and column per model (``to_text``,
        ``to_markdown``, ``to_csv``)."""
        title = f"{self.test} p-values" + ("" if self.correction in ("nemenyi", "none") else f" ({self.correction}-adjusted)")
        names = [str(model) for model in self.models]
        rows = [[name, *(None if i == j else float(self.p_values[i, j]) for j in range(len(names)))] for i, name in enumerate(names)]
        return [Table(["", *names], rows, title=title)]

    def csv_table(self) -> Table:
        return self.as_tables()[0]


def _index(models: tuple[Hashable, ...], model: Hashable) -> int:
    if model not in models:
        raise UnknownLabelError(f"no model {model!r}; the models are {show(list(models))}")
    return models.index(model)


def _pairs(k: int) -> tuple[np.ndarray, np.ndarray]:
    first, second = np.triu_indices(k, 1)  # the order of itertools.combinations(range(k), 2)
    return first, second


def _square(values: np.ndarray, k: int, diagonal: float) -> np.ndarray:
    matrix = np.full((k, k), diagonal)
    first, second = _pairs(k)
    matrix[first, second] = matrix[second, first] = values
    return matrix


@attrs.frozen(eq=False, init=False)
class ModelComparison(Tabular, DocumentValue):
    """One measure of ``k`` models on ``N`` data sets, and the tests of Demšar's procedure.

    Args:
        table: data sets x models: a 2-D array, a pandas DataFrame (rows data sets, columns
            models), ``{model: [value per data set]}`` or ``{model: {data set: value}}``.
        models: the models' names (default: the DataFrame's or mapping's, or numbered).
        datasets: the data sets' names, likewise.
        direction: ``"higher"`` or ``"lower"`` values are better (default: the measure's
            direction when ``measure`` is given, else higher).
        measure: the measure's name, for the direction and the reports.
        missing: ``"refuse"`` (a missing cell is an error that names it) or ``"drop"``
            (the data sets with a missing cell are left out, and listed in ``dropped``).
    """

    values: np.ndarray
    models: tuple[Hashable, ...]
    datasets: tuple[Hashable, ...]
    direction: str
    measure: str | None
    dropped: tuple[Hashable, ...]
    rank_table: np.ndarray = attrs.field(init=False, repr=False)
    """The rank of every model on every data set (1 the best, ties sharing their mean)."""
    ranks: np.ndarray = attrs.field(init=False, repr=False)
    """Each model's average rank."""

    DOCUMENT: ClassVar[str] = "ModelComparison"

    def __init__(
        self, table: Any, *, models: Sequence[Hashable] | None = None, datasets: Sequence[Hashable] | None = None,
        direction: str | None = None, measure: str | None = None, missing: str = "refuse",
    ) -> None:  # fmt: skip
        check_choice("missing", missing, MISSING)
        values, model_names, dataset_names = _as_table(table, models, datasets)
        if direction is None:
            direction = (measure_direction(measure) if measure is not None else None) or "higher"
        check_choice("direction", direction, ("higher", "lower"))
        absent = np.isnan(values)
        dropped: tuple[Hashable, ...] = ()
        if absent.any():
            if missing == "refuse":
                row, column = (int(index[0]) for index in np.nonzero(absent))
                raise InvalidArgumentError(
                    f"model {model_names[column]!r} has no value on data set {dataset_names[row]!r} ({int(absent.sum())} cells missing): "
                    "give every cell, or missing='drop' to leave out the data sets with a missing cell"
                )
            keep = ~absent.any(axis=1)
            dropped = tuple(name for name, kept in zip(dataset_names, keep) if not kept)
            values, dataset_names = values[keep], tuple(name for name, kept in zip(dataset_names, keep) if kept)
        if np.isinf(values).any():
            raise InvalidArgumentError(f"'table' must hold finite values, got {show(values[np.isinf(values)])}")
        if values.shape[1] < 2:
            raise InvalidArgumentError(f"a comparison needs at least two models, got {values.shape[1]}")
        if values.shape[0] < 2:
            raise EmptyInputError(f"a comparison over data sets needs at least two data sets, got {values.shape[0]}")
        values = values.copy()
        values.flags.writeable = False
        self.__attrs_init__(values, model_names, dataset_names, direction, measure, dropped)
        table = rank_ranks(values if direction == "higher" else -values)
        ranks = table.mean(axis=0)
        table.flags.writeable = ranks.flags.writeable = False
        object.__setattr__(self, "rank_table", table)
        object.__setattr__(self, "ranks", ranks)

    # ------------------------------------------------------------------------------------
    # constructors

    @classmethod
    def from_csv(cls, path: str | PathLike[str], *, direction: str | None = None, measure: str | None = None, missing: str = "refuse",
                 delimiter: str = ",") -> Self:  # fmt: skip
        """A table from a CSV file: a header row (the first cell names the data set column, the
        others the models), then one row per data set; an empty cell is missing.

        Raises:
            InputFileError: a cell that is no number, or a row of another length (named by its line).
        """
        with open_input(path) as handle:
            raw = handle.read()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            line = raw[: error.start].count(b"\n") + 1
            raise InputFileError(f"{path}:{line}: the text is not UTF-8") from None
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
        if len(rows) < 2 or len(rows[0]) < 3:
            raise InputFileError(f"{path}: a comparison table has a header row (data set, then two models or more) and rows of data sets")
        header, values, names = rows[0], [], []
        for line, row in enumerate(rows[1:], start=2):
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(header):
                raise InputFileError(f"{path}, line {line}: {len(row)} cells, but the header has {len(header)}")
            try:
                values.append([float(cell) if cell.strip() else math.nan for cell in row[1:]])
            except ValueError:
                raise InputFileError(f"{path}, line {line}: a value that is no number in {show(row[1:])}") from None
            names.append(row[0])
        return cls(np.array(values), models=header[1:], datasets=names, direction=direction, measure=measure, missing=missing)

    @classmethod
    def from_results(
        cls, results: Mapping[Hashable, Sequence[Any] | Mapping[Hashable, Any]], measure: MeasureLike, average: str | None = None, *,
        label: Hashable | None = None, datasets: Sequence[Hashable] | None = None, undefined: UndefinedPolicy = "exclude",
        missing: str = "refuse", **parameters: Any,
    ) -> Self:  # fmt: skip
        """The table of evalkit results of each model on each data set (``{model: [result per
        data set]}`` or ``{model: {data set: result}}``: evaluations, confusion matrices, curves,
        calibrations), read as one number each: ``average`` of ``measure`` (or a whole-result
        measure: accuracy, kappa, MCC), or the value of one class ``label``. The measure model
        says whether higher or lower is better.

        Examples:
            >>> from evalkit import ConfusionMatrix
            >>> matrix = ConfusionMatrix.from_predictions
            >>> results = {"a": [matrix([0, 1, 1], [0, 1, 0]), matrix([1, 0], [1, 0])],
            ...            "b": [matrix([0, 1, 1], [1, 1, 0]), matrix([1, 0], [0, 0])]}
            >>> ModelComparison.from_results(results, "error_rate", "micro").values.round(3).tolist()
            [[0.333, 0.667], [0.0, 0.5]]
        """
        table = {
            model: {name: value_of(result, measure, average, label, undefined, parameters) for name, result in found.items()}
            if isinstance(found, Mapping) else [value_of(result, measure, average, label, undefined, parameters) for result in found]
            for model, found in results.items()
        }  # fmt: skip
        name = measure if isinstance(measure, str) else getattr(measure, "name", None)
        return cls(table, datasets=datasets, measure=name, direction=measure_direction(measure) or "higher", missing=missing)

    # ------------------------------------------------------------------------------------
    # ranks and omnibus tests

    @property
    def _oriented(self) -> np.ndarray:
        """The values with higher better."""
        return self.values if self.direction == "higher" else -self.values

    @property
    def best(self) -> Hashable:
        """The model of the best (lowest) average rank (the first of a tie)."""
        return self.models[int(np.argmin(self.ranks))]

    def friedman(self) -> RankTest:
        """Friedman's test of "every model ranks alike" (``χ²_F``, ``k - 1`` degrees of freedom)."""
        return friedman(self.ranks, len(self.datasets))

    def iman_davenport(self) -> RankTest:
        """Iman and Davenport's ``F_F`` of the same hypothesis (less conservative)."""
        return iman_davenport(self.ranks, len(self.datasets))

    def critical_difference(self, alpha: float = 0.05, test: str = "nemenyi") -> float:
        """The difference of average ranks significant at ``alpha``: ``"nemenyi"`` (all pairs) or
        ``"bonferroni-dunn"`` (against one control)."""
        return critical_difference(len(self.models), len(self.datasets), alpha, test)

    def cliques(self, alpha: float = 0.05, test: str = "nemenyi") -> list[tuple[Hashable, ...]]:
        """The groups of models whose average ranks differ by less than the critical difference
        (the bars of Demšar's diagram): maximal runs of the models in rank order, two or more.

        Examples:
            >>> comparison = ModelComparison([[1, 2, 3, 4]] * 6, models="abcd")  # d ranks first on all six
            >>> round(comparison.critical_difference(), 3), comparison.cliques()
            (1.915, [('d', 'c'), ('c', 'b'), ('b', 'a')])
        """
        check_choice("test", test, CD_TESTS)
        cd = self.critical_difference(alpha, test)
        order = np.argsort(self.ranks, kind="stable")
        ranks = self.ranks[order]
        runs, last = [], -1
        for i in range(len(order)):
            j = int(np.searchsorted(ranks, ranks[i] + cd, side="left")) - 1  # the last within less than CD
            if j > i and j > last:
                runs.append(tuple(self.models[index] for index in order[i : j + 1]))
                last = j
        return runs

    # ------------------------------------------------------------------------------------
    # post-hoc tests

    def pairwise(self, test: str = "nemenyi", correction: str | None = None, *, zero_method: str = "wilcox") -> PairwiseTests:
        """Every pair of models: ``"nemenyi"`` (studentized range of the ranks: family-wise
        p-values, no further correction), or ``"ranks"`` (the z test of average ranks),
        ``"wilcoxon"`` or ``"sign"`` with the p-values adjusted by ``correction`` (default
        ``"holm"``; ``"shaffer"`` and ``"bergmann-hommel"`` use the logic of pairwise
        hypotheses, García & Herrera 2008)."""
        check_choice("test", test, PAIRWISE_TESTS)
        k, n = len(self.models), len(self.datasets)
        first, second = _pairs(k)
        if test == "nemenyi":
            if correction not in (None, "none", "nemenyi"):
                raise InvalidArgumentError(f"Nemenyi's p-values are family-wise already: they take no correction, got {show(correction)}")
            z = rank_z(self.ranks, n)[first, second]
            raw = np.minimum(1.0, range_sf(np.abs(z) * math.sqrt(2), k))
            return PairwiseTests(self.models, _square(raw, k, 1.0), _square(raw, k, 1.0), _square(z, k, 0.0) * _sign_matrix(k), test,
                                 "nemenyi", self.ranks)  # fmt: skip
        correction = "holm" if correction is None else correction
        check_choice("correction", correction, PAIRWISE_CORRECTIONS)
        if test == "ranks":
            statistics = rank_z(self.ranks, n)[first, second]
            raw = _two_sided(statistics)
        else:
            statistics, raw = self._paired(test, first, second, zero_method)
        adjusted = adjust_pairwise(raw, k, correction)
        return PairwiseTests(self.models, _square(adjusted, k, 1.0), _square(raw, k, 1.0), _square(statistics, k, 0.0) * _sign_matrix(k),
                             test, correction, self.ranks)  # fmt: skip

    def _paired(self, test: str, first: np.ndarray, second: np.ndarray, zero_method: str) -> tuple[np.ndarray, np.ndarray]:
        """Wilcoxon's or the sign test of the pairs (``first[p]``, ``second[p]``), each pair's test its own."""
        d = self._oriented[:, first] - self._oriented[:, second]
        return wilcoxon_columns(d, zero_method) if test == "wilcoxon" else sign_columns(d)

    def against(self, control: Hashable | None = None, test: str = "ranks", correction: str = "holm") -> dict[Hashable, float]:
        """Every other model against one ``control`` (default: the best), ``{model: adjusted
        p-value}``: the z test of average ranks (Bonferroni-Dunn with
        ``correction="bonferroni"``; Holm's step-down by default), Wilcoxon's or the sign test."""
        check_choice("test", test, ("ranks", "wilcoxon", "sign"))
        check_choice("correction", correction, ("holm", "bonferroni", "none"))
        c = _index(self.models, self.best if control is None else control)
        others = [j for j in range(len(self.models)) if j != c]
        if test == "ranks":
            raw = _two_sided(rank_z(self.ranks, len(self.datasets))[c, others])
        else:
            raw = self._paired(test, np.full(len(others), c), np.array(others), "wilcox")[1]
        return {self.models[j]: float(p) for j, p in zip(others, adjust(raw, correction))}

    def bayesian(
        self, first: Hashable, second: Hashable, test: str = "signed-rank", *, rope: float = 0.01, prior: float | None = None,
        n_samples: int = 50_000, random_state: RandomState = None,
    ) -> BayesianComparison:  # fmt: skip
        """A Bayesian comparison of two models over the data sets (Benavoli et al. 2017):
        ``"signed-rank"`` or ``"sign"``, with a region of practical equivalence ``rope`` (in
        the measure's units)."""
        check_choice("test", test, ("signed-rank", "sign"))
        a, b = (self._oriented[:, _index(self.models, model)] for model in (first, second))
        options: dict[str, Any] = {"rope": rope, "n_samples": n_samples, "random_state": random_state}
        if prior is not None:
            options["prior"] = prior
        return (signed_rank_test if test == "signed-rank" else sign_test)(a, b, **options)

    # ------------------------------------------------------------------------------------
    # reports and documents

    def summary(self, alpha: float = 0.05, test: str = "nemenyi", correction: str | None = None) -> dict[str, Any]:
        """Demšar's procedure on this table as plain data a script reads (``json.dumps`` takes
        it; ``evalkit compare --format json``): the average ranks and the models from best to
        worst, Friedman's and Iman-Davenport's tests, the Nemenyi and Bonferroni-Dunn critical
        differences at ``alpha`` and the cliques within Nemenyi's, and the pairwise ``test``
        (``PairwiseTests.summary``). The table itself is ``to_json()``'s document.

        Examples:
            >>> comparison = ModelComparison({"a": [0.9, 0.8, 0.7], "b": [0.8, 0.8, 0.6]}, datasets=["x", "y", "z"])
            >>> found = comparison.summary()
            >>> found["ranked"], round(found["friedman"]["p_value"], 4), round(found["critical_difference"]["nemenyi"], 3)
            (['a', 'b'], 0.2482, 1.132)
        """
        alpha = _check_level(alpha, "alpha")
        tests = self.pairwise(test, correction).summary(alpha)
        del tests["estimates"], tests["ranked"], tests["direction"], tests["alpha"]  # the ranks, below, once
        return {
            "measure": self.measure, "direction": self.direction, "models": list(self.models), "datasets": list(self.datasets),
            "dropped": list(self.dropped), "average_ranks": dict(zip(self.models, self.ranks.tolist())),
            "ranked": [self.models[j] for j in np.argsort(self.ranks, kind="stable")],
            "friedman": _plain(self.friedman()), "iman_davenport": _plain(self.iman_davenport()), "alpha": alpha,
            "critical_difference": {name: self.critical_difference(alpha, name) for name in CD_TESTS},
            "cliques": [list(clique) for clique in self.cliques(alpha)], "pairwise": tests,
        }  # fmt: skip

    def as_tables(self, digits: int = 3) -> list[Table]:
        """The table of values with each model's rank beside it, the best of each data set
        marked (``*`` in text, bold in Markdown and LaTeX), the average ranks in the last row,
        and Friedman's and Iman-Davenport's tests and the critical differences below."""
        ranks, best = self.rank_table, self.rank_table == self.rank_table.min(axis=1, keepdims=True)
        rows: list[list[Any]] = [[str(name), *((Strong if best[i, j] else str)(f"{shown(float(self.values[i, j]), digits)} ({ranks[i, j]:.1f})") for j in range(len(self.models)))]
                                 for i, name in enumerate(self.datasets)]  # fmt: skip
        notes = self.test_lines()
        if self.dropped:
            notes.append(f"left out (a missing cell): {', '.join(str(name) for name in self.dropped)}")
        return [Table(["data set", *map(str, self.models)], [*rows, [], ["avg rank", *(f"{rank:.2f}" for rank in self.ranks)]], notes=notes)]

    def csv_table(self) -> Table:
        """The values of each data set and the average ranks, at full precision."""
        rows = [[str(name), *map(float, self.values[i])] for i, name in enumerate(self.datasets)]
        return Table(["data set", *map(str, self.models)], [*rows, ["avg rank", *map(float, self.ranks)]])

    def test_lines(self) -> list[str]:
        """Friedman's and Iman-Davenport's tests and the critical differences, one line each."""
        chi2, f = self.friedman(), self.iman_davenport()
        nemenyi, dunn = self.critical_difference(0.05, "nemenyi"), self.critical_difference(0.05, "bonferroni-dunn")
        return [
            f"Friedman chi2_F = {chi2.statistic:.3f}, df {chi2.df[0]:g}, p = {chi2.p_value:.4g}; "  # noqa: ISC004 (one line of text)
            f"Iman-Davenport F_F = {f.statistic:.3f}, df ({f.df[0]:g}, {f.df[1]:g}), p = {f.p_value:.4g}",
            f"critical difference at alpha 0.05: Nemenyi {nemenyi:.3f}, Bonferroni-Dunn {dunn:.3f}",
        ]

    def table(self, format: str = "text", digits: int = 3) -> str:
        """The table in ``format``: ``"text"``, ``"markdown"`` or ``"latex"`` (see ``tables``)."""
        check_choice("format", format, ("text", "markdown", "latex"))
        return str(getattr(self.as_tables(digits)[0], f"to_{format}")(digits))

    def to_latex(self, digits: int = 3) -> str:
        """The table as a LaTeX ``tabular``."""
        return self.table("latex", digits)

    HTML_TITLE = "evalkit comparison"

    def _page_tables(self, digits: int) -> list[Table]:
        """The table under what it compares."""
        measure = f" ({self.measure}, {self.direction} is better)" if self.measure else ""
        return [attrs.evolve(self.as_tables(digits)[0], title=f"{len(self.models)} models on {len(self.datasets)} data sets{measure}")]

    def _figures(self, digits: int, *, alpha: float = 0.05) -> list[str]:
        """The critical-difference diagram (inline SVG) and Nemenyi's p-values."""
        return [str(render("critical_difference_figure", self, alpha)), "<h2>Nemenyi p-values</h2>" + self.pairwise("nemenyi").as_tables()[0].to_html(4)]

    def _repr_html_(self) -> str:
        headers = ["model", "average rank", f"mean {self.measure or 'value'}"]
        rows = [(str(self.models[j]), float(self.ranks[j]), float(self.values[:, j].mean())) for j in np.argsort(self.ranks, kind="stable")]
        return str(render("html_table", f"{len(self.models)} models on {len(self.datasets)} data sets", headers, rows, 4))


    def _document(self) -> dict[str, Any]:
        return {"models": list(self.models), "datasets": list(self.datasets), "values": self.values.tolist(), "direction": self.direction,
                "measure": self.measure, "dropped": list(self.dropped)}  # fmt: skip

    @classmethod
    def _read_document(cls, document: dict[str, Any]) -> Self:
        models, datasets = serialization.label_list(document, "models"), serialization.label_list(document, "datasets")
        rows = serialization.field(document, "values")
        if not isinstance(rows, list) or len(rows) != len(datasets):
            raise FormatError(f"field 'values' must be a list of {len(datasets)} rows, got {show(rows)}")
        values = np.stack([serialization.array(row, f"values[{i}]", length=len(models), integral=False, low=-math.inf)
                           for i, row in enumerate(rows)]) if rows else np.zeros((0, len(models)))  # fmt: skip
        direction, measure = serialization.field(document, "direction"), document.get("measure")
        if direction not in ("higher", "lower") or not (measure is None or isinstance(measure, str)):
            raise FormatError(f"fields 'direction' and 'measure' must be 'higher' or 'lower' and a name, got {show(direction)} and {show(measure)}")
        dropped = document.get("dropped", [])
        if not isinstance(dropped, list) or any(isinstance(name, (list, dict)) for name in dropped):
            raise FormatError(f"field 'dropped' must be a list of data set names, got {show(dropped)}")
        try:
            found = cls(values, models=models, datasets=datasets, direction=direction, measure=measure)
        except EvalkitError as error:  # fewer than two models or data sets: no comparison
            raise FormatError(f"not a comparison: {error}") from None
        object.__setattr__(found, "dropped", tuple(dropped))
        return found


def _plain(test: RankTest) -> dict[str, Any]:
    return {"statistic": test.statistic, "df": list(test.df), "p_value": test.p_value}


def _two_sided(z: np.ndarray) -> np.ndarray:
    """``2 (1 - Φ(|z|))`` of every statistic, from the normal tail (no cancellation)."""
    return np.asarray(2 * _scipy_stats().norm.sf(np.abs(z)), dtype=np.float64)


def _sign_matrix(k: int) -> np.ndarray:
    """+1 above the diagonal, -1 below: a pair's statistic read from the other side changes sign."""
    return np.triu(np.ones((k, k)), 1) - np.tril(np.ones((k, k)), -1)
