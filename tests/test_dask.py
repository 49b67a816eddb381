"""evalkit.dask on a real dask.distributed cluster of worker processes equals the in-memory result."""


import dask.array as da
import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest

from evalkit import (
    ConfusionMatrix,
    Covering,
    Evaluation,
    NeighborhoodAccuracy,
    NeighborhoodSystem,
    ThresholdCurve,
)
from evalkit import dask as evalkit_dask
from evalkit._engine._exact import rounded_counts
from evalkit.exceptions import (
    InputLengthError,
    InputShapeError,
    InvalidArgumentError,
    InvalidTypeError,
    MixedLabelTypesError,
)

pytestmark = pytest.mark.slow  # the fast inner loop, -m 'not slow', leaves this module out


def test_the_cluster_has_worker_processes(client):
    assert len(client.scheduler_info()["workers"]) == 2


def test_confusion_matrix_of_dask_arrays(client):
    rng = np.random.default_rng(0)
    y_true, y_pred = rng.integers(0, 7, 50_000), rng.integers(0, 7, 50_000)
    y_true[-3] = 11  # a label only the last partition has
    distributed = evalkit_dask.confusion_matrix(da.from_array(y_true, chunks=6_000), da.from_array(y_pred, chunks=7_000))
    assert distributed == ConfusionMatrix.from_predictions(y_true, y_pred)
    fixed = evalkit_dask.confusion_matrix(da.from_array(y_true, chunks=9_000), da.from_array(y_pred, chunks=9_000), labels=[11, *range(7), 99])
    assert fixed == ConfusionMatrix.from_predictions(y_true, y_pred, labels=[11, *range(7), 99])


def test_confusion_matrix_of_dask_dataframe_columns(client):
    rng = np.random.default_rng(1)
    names = np.array(["cat", "dog", "bird", "fish"])
    frame = pd.DataFrame({"actual": names[rng.integers(0, 4, 20_000)], "predicted": names[rng.integers(0, 4, 20_000)]})
    distributed = evalkit_dask.confusion_matrix(*(dd.from_pandas(frame, npartitions=5)[c] for c in ("actual", "predicted")))
    assert distributed == ConfusionMatrix.from_predictions(frame["actual"].to_numpy(), frame["predicted"].to_numpy())


def test_indicator_and_soft_evaluations(client):
    rng = np.random.default_rng(2)
    actual, predicted = rng.random((30_000, 12)) < 0.2, rng.random((30_000, 12)) < 0.2
    mask = rng.random((30_000, 12)) < 0.95
    distributed = evalkit_dask.evaluate_indicators(da.from_array(actual, chunks=(4_000, 5)), da.from_array(predicted, chunks=(3_000, 12)),
                                                   mask=da.from_array(mask, chunks=2_500))  # fmt: skip
    assert distributed == Evaluation.from_indicators(actual, predicted, mask=mask).compact()
    soft_actual, soft_predicted = rng.random((5_000, 4)), rng.random((5_000, 4))
    soft = evalkit_dask.evaluate_soft(da.from_array(soft_actual, chunks=1_000), da.from_array(soft_predicted, chunks=1_000), tnorm="minimum")
    local = Evaluation.from_soft(soft_actual, soft_predicted, tnorm="minimum")
    for average in ("micro", "macro", "weighted", "samples"):
        assert soft.average("f1_score", average) == pytest.approx(local.average("f1_score", average), rel=1e-12)


def test_label_sets_in_dataframe_columns(client):
    frame = pd.DataFrame({"actual": ["a|b", "c", "", "a", "b|c"] * 400, "predicted": ["a", "c|b", "b", "a", ""] * 400})
    table = dd.from_pandas(frame, npartitions=4)
    distributed = evalkit_dask.evaluate_label_sets(table["actual"], table["predicted"], separator="|")
    split = [[{part for part in value.split("|") if part} for value in frame[column]] for column in ("actual", "predicted")]
    assert distributed == Evaluation.from_label_sets(*split).compact()


def test_aa_rar_of_dask_arrays(client):
    rng = np.random.default_rng(3)
    ideal = rng.random((20_000, 8)) < 0.2
    result = ideal ^ (rng.random(ideal.shape) < 0.05)
    distributed = evalkit_dask.aa_rar(da.from_array(ideal, chunks=3_000), da.from_array(result, chunks=3_000))
    local = NeighborhoodSystem(Covering.from_indicators(ideal)).evaluate(Covering.from_indicators(result))
    assert isinstance(distributed, NeighborhoodAccuracy)
    assert distributed.get_absolute_accuracy(exact=True) == local.get_absolute_accuracy(exact=True)
    assert distributed.get_relative_accuracy_rate(exact=True) == local.get_relative_accuracy_rate(exact=True)
    assert distributed.get_case() == local.get_case()


def test_bad_collections_are_refused():
    with pytest.raises(InvalidTypeError, match="Dask array or a Dask DataFrame column"):
        evalkit_dask.confusion_matrix([1, 2], [1, 2])
    with pytest.raises(InputLengthError):
        evalkit_dask.confusion_matrix(da.zeros(5, chunks=2, dtype=int), da.zeros(6, chunks=2, dtype=int))
    with pytest.raises(InputShapeError):
        evalkit_dask.evaluate_indicators(da.zeros((4, 2), chunks=2, dtype=bool), da.zeros((4, 3), chunks=2, dtype=bool))


def test_weights_partitioned_like_the_data(client):
    rng = np.random.default_rng(4)
    y_true, y_pred, weight = rng.integers(0, 5, 20_000), rng.integers(0, 5, 20_000), rng.random(20_000)
    distributed = evalkit_dask.confusion_matrix(da.from_array(y_true, chunks=3_000), da.from_array(y_pred, chunks=3_000),
                                                sample_weight=da.from_array(weight, chunks=7_000))  # fmt: skip
    np.testing.assert_allclose(distributed.to_array(), ConfusionMatrix.from_predictions(y_true, y_pred, sample_weight=weight).to_array())
    actual, predicted = rng.random((10_000, 6)) < 0.3, rng.random((10_000, 6)) < 0.3
    counts = rng.integers(0, 4, 10_000)
    weighted = evalkit_dask.evaluate_indicators(da.from_array(actual, chunks=2_000), da.from_array(predicted, chunks=2_000),
                                                sample_weight=da.from_array(counts, chunks=3_000))  # fmt: skip
    assert weighted == Evaluation.from_indicators(actual, predicted, sample_weight=counts).compact()
    accuracy = evalkit_dask.aa_rar(da.from_array(actual, chunks=2_000), da.from_array(predicted, chunks=2_000),
                                   sample_weight=da.from_array(counts, chunks=2_000))  # fmt: skip
    local = NeighborhoodSystem(Covering.from_indicators(actual)).evaluate(Covering.from_indicators(predicted), sample_weight=counts)
    assert accuracy.get_relative_accuracy_rate(exact=True) == local.get_relative_accuracy_rate(exact=True)
    frame = pd.DataFrame({"actual": ["a|b", "c", "a"] * 300, "predicted": ["a", "c|b", ""] * 300, "w": [1, 2, 3] * 300})
    table = dd.from_pandas(frame, npartitions=3)
    sets = evalkit_dask.evaluate_label_sets(table["actual"], table["predicted"], separator="|", sample_weight=table["w"])
    split = [[{part for part in value.split("|") if part} for value in frame[column]] for column in ("actual", "predicted")]
    assert sets == Evaluation.from_label_sets(*split, sample_weight=frame["w"].to_numpy()).compact()


def test_threshold_curves_of_dask_arrays(client):
    rng = np.random.default_rng(5)
    y = rng.integers(0, 3, 30_000)
    scores = rng.dirichlet([1, 1, 1], 30_000) * 0.6 + np.eye(3)[y] * 0.4
    weight = rng.integers(0, 4, 30_000)

    exact = evalkit_dask.threshold_curve(da.from_array(y, chunks=7_000), da.from_array(scores, chunks=(4_000, 2)), sample_weight=da.from_array(weight, chunks=5_000))
    local = ThresholdCurve.from_scores(y, scores, sample_weight=weight)
    assert exact.labels == local.labels and exact.roc_auc() == pytest.approx(local.roc_auc(), abs=1e-12)
    assert all(np.array_equal(a, b) for a, b in zip(exact.cells(2).rows(), local.cells(2).rows()))
    binned = evalkit_dask.threshold_curve(da.from_array(y == 1, chunks=6_000), da.from_array(scores[:, 1], chunks=6_000), thresholds=101)
    assert all(np.array_equal(a, b) for a, b in zip(binned.cells().rows(), ThresholdCurve.from_scores(y == 1, scores[:, 1], thresholds=101).cells().rows()))
    with pytest.raises(InvalidTypeError):
        evalkit_dask.threshold_curve(y, scores)


def test_calibration_of_dask_arrays_equals_the_one_in_memory(client):
    from evalkit import Calibration

    rng = np.random.default_rng(6)
    y = rng.integers(0, 3, 20_000)
    probabilities = rng.dirichlet([1, 1, 1], 20_000) * 0.7 + np.eye(3)[y] * 0.3
    weight = rng.integers(0, 3, 20_000)
    chunks = (da.from_array(y, chunks=6_000), da.from_array(probabilities, chunks=(5_000, 3)))
    top = evalkit_dask.calibration(*chunks, sample_weight=da.from_array(weight, chunks=4_000))
    assert top == Calibration.from_scores(y, probabilities, sample_weight=weight)  # exact counts: exactly
    binned = evalkit_dask.calibration(*chunks, setting="classwise", bins=20)
    local = Calibration.from_scores(y, probabilities, setting="classwise", bins=20)
    assert binned.classes == local.classes == (0, 1, 2)
    assert binned.error() == pytest.approx(local.error(), abs=1e-12) and binned.brier_score() == pytest.approx(local.brier_score(), abs=1e-12)
    with pytest.raises(InvalidTypeError, match="'y_prob'"):
        evalkit_dask.calibration(y, probabilities)


def test_by_group_of_dask_columns_equals_the_one_in_memory(client):
    from evalkit import by_group

    rng = np.random.default_rng(7)
    frame = pd.DataFrame({"y": rng.integers(0, 3, 9_000), "p": rng.integers(0, 3, 9_000), "region": rng.choice(["n", "s", "e"], 9_000)})
    table = dd.from_pandas(frame, npartitions=4)
    found = evalkit_dask.by_group(table["y"], table["p"], table["region"], min_size=10)
    assert found == by_group(frame["y"].to_numpy(), frame["p"].to_numpy(), frame["region"].to_numpy())
    assert found.min_size == 10.0


def test_a_column_given_twice_counts_as_the_same_column_in_memory(client):
    # the Spark fold once selected a column named twice (Arrow refused it); a Dask fold takes
    # collections, not names, so the same column twice is two 1-D blocks of each partition
    from evalkit import RegressionMetrics

    frame = pd.DataFrame({"label": ["a", "b", "a", "c", "b", "a", "c", "a"] * 50, "w": [1.0, 2.0, 3.0, 1.0, 1.0, 2.0, 0.5, 4.0] * 50})
    table = dd.from_pandas(frame, npartitions=3)
    label, value = frame["label"].to_numpy(), frame["w"].to_numpy()
    assert evalkit_dask.confusion_matrix(table["label"], table["label"], sample_weight=table["w"]) == ConfusionMatrix.from_predictions(label, label, sample_weight=value)
    assert evalkit_dask.fold(ConfusionMatrix(["a", "b", "c"]), table["label"], table["label"]) == ConfusionMatrix.from_predictions(label, label, ["a", "b", "c"])
    values = da.from_array(value, chunks=150)
    assert evalkit_dask.regression_metrics(values, values, sample_weight=values) == RegressionMetrics.from_predictions(value, value, sample_weight=value)


def test_regression_metrics_of_dask_collections_equal_the_ones_in_memory_exactly(client):
    from evalkit import RegressionMetrics

    rng = np.random.default_rng(7)
    y = 1e6 + rng.normal(size=(40_000, 2))  # a mean far from zero: float sums would differ by partitioning, exact ones do not
    p, w = y + rng.normal(0.0, 0.3, size=y.shape), rng.uniform(0.0, 2.0, size=40_000)
    local = RegressionMetrics.from_predictions(y, p, sample_weight=w)
    assert evalkit_dask.regression_metrics(da.from_array(y, chunks=(7_000, 1)), da.from_array(p, chunks=(5_000, 2)),
                                           sample_weight=da.from_array(w, chunks=3_000)) == local  # fmt: skip
    frame = pd.DataFrame({"y": y[:, 0], "p": p[:, 0]})
    columns = dd.from_pandas(frame, npartitions=6)
    assert evalkit_dask.regression_metrics(columns["y"], columns["p"]) == RegressionMetrics.from_predictions(y[:, 0], p[:, 0])
    with pytest.raises(InvalidTypeError):
        evalkit_dask.regression_metrics(y[:, 0], p[:, 0])


def test_selective_and_conformal_results_of_dask_collections_equal_the_local_ones(client):
    from evalkit import IntervalCoverage, RiskCoverage, SetCoverage

    rng = np.random.default_rng(5)
    n = 2_000
    y, p, c, w = rng.integers(0, 3, n), rng.integers(0, 3, n), np.round(rng.random(n), 2), rng.integers(1, 4, n)
    chunks = 450
    risk = evalkit_dask.risk_coverage(da.from_array(y, chunks=chunks), da.from_array(p, chunks=chunks), da.from_array(c, chunks=chunks),
                                      sample_weight=da.from_array(w, chunks=chunks))  # fmt: skip
    assert risk == RiskCoverage.from_predictions(y, p, c, sample_weight=w)
    frame = dd.from_pandas(pd.DataFrame({"y": y, "p": p, "c": c}), npartitions=3)
    assert evalkit_dask.risk_coverage(frame["y"], frame["p"], frame["c"]).aurc() == RiskCoverage.from_predictions(y, p, c).aurc()
    sets = rng.random((n, 3)) < 0.5
    assert evalkit_dask.set_coverage(da.from_array(y, chunks=chunks), da.from_array(sets, chunks=(chunks, 3))) == SetCoverage.from_sets(y, sets)
    target, lower = rng.normal(size=n), rng.normal(size=n)
    found = evalkit_dask.interval_coverage(da.from_array(target, chunks=chunks), da.from_array(lower, chunks=chunks), da.from_array(lower + 1, chunks=chunks),
                                           edges=[-1, 0, 1])  # fmt: skip
    local = IntervalCoverage.from_intervals(target, lower, lower + 1, edges=[-1, 0, 1])
    assert found.bin_counts().tolist() == local.bin_counts().tolist() and np.allclose(rounded_counts(found._sums), rounded_counts(local._sums), rtol=1e-12)
    with pytest.raises(InputLengthError, match="'lower' has 10 rows but the first column 2000"):
        evalkit_dask.interval_coverage(da.from_array(target, chunks=chunks), da.from_array(lower[:10], chunks=5), da.from_array(lower + 1, chunks=chunks))


def test_folds_take_keyword_columns_count_nothing_as_memory_does_and_refuse_scalars(client):
    from evalkit import IntervalCoverage

    y = np.arange(1.0, 7.0)
    column = lambda values: da.from_array(values, chunks=2)
    found = evalkit_dask.interval_coverage(column(y), column(y - 1), column(y + 1), y_pred=column(y), edges=[0, 3, 9])
    assert found == IntervalCoverage.from_intervals(y, y - 1, y + 1, y_pred=y, edges=[0, 3, 9])
    none = np.array([], dtype=int)
    assert evalkit_dask.confusion_matrix(column(none), column(none), labels=[0, 1]) == ConfusionMatrix.from_predictions(none, none, labels=[0, 1])
    assert evalkit_dask.evaluate_indicators(column(np.zeros((0, 3))), column(np.zeros((0, 3)))).n_samples == 0
    with pytest.raises(InputShapeError, match="'y_true' must be a 1-D or 2-D Dask array, got shape"):
        evalkit_dask.confusion_matrix(da.from_array(np.array(1)), da.from_array(np.array(1)))
    with pytest.raises(InvalidTypeError, match="'template' must be a counted result"):
        evalkit_dask.fold(object(), column(y))
    with pytest.raises(InputShapeError, match=r"'y_true' \(4, 2\), 'y_pred' \(4, 3\)"):  # named as given, before any partition is counted
        evalkit_dask.evaluate_indicators(da.zeros((4, 2), chunks=2, dtype=bool), da.zeros((4, 3), chunks=2, dtype=bool))
    for names, keywords in ((("y", "y", "y"), {}), (("y", "low", "y_pred"), {"y_pred": column(y)})):  # a column twice would be dropped
        with pytest.raises(InvalidArgumentError, match="'names' must name the 3 columns once each"):
            evalkit_dask.fold(IntervalCoverage(), column(y), column(y - 1), column(y + 1), names=names, **keywords)


@pytest.fixture
def dask_objects():
    import dask

    with dask.config.set({"scheduler": "synchronous", "dataframe.convert-string": False}):
        yield


def _frame(columns, partitions=2):
    import dask.dataframe as dd

    return dd.from_pandas(pd.DataFrame(columns), npartitions=partitions)


def test_dask_mixed_label_types_across_partitions_are_an_error(dask_objects):
    from evalkit import dask as edask

    for column in ([1, 2, "1", "2"], [True, False, 1, 0]):
        frame = _frame({"a": pd.Series(column, dtype=object), "p": pd.Series(column, dtype=object)})
        with pytest.raises(MixedLabelTypesError, match="a partition of y_true/y_pred"):
            edask.confusion_matrix(frame["a"], frame["p"])


def test_dask_list_columns_stay_sets_and_object_ints_stay_ints(dask_objects):
    from evalkit import dask as edask

    actual, predicted = [["x", "y"], ["x"], ["y"], []], [["x"], ["x", "y"], ["y"], ["x"]]
    frame = _frame({"a": actual, "p": predicted})
    result = edask.evaluate_label_sets(frame["a"], frame["p"]).average("f1_score", "micro")
    assert result == pytest.approx(2 / 3) == Evaluation.from_label_sets(actual, predicted).average("f1_score", "micro")
    ints = _frame({"a": pd.Series([1, 2, 1, 2], dtype=object), "p": pd.Series([1, 1, 2, 2], dtype=object)})
    assert edask.confusion_matrix(ints["a"], ints["p"]).labels == (1, 2)


def test_dask_columns_turned_into_strings_are_refused():
    import dask

    from evalkit import dask as edask

    with dask.config.set({"scheduler": "synchronous", "dataframe.convert-string": True}):
        lists = _frame({"a": [["x", "y"], ["x"], ["y"], []], "p": [["x"], ["x", "y"], ["y"], ["x"]]})
        with pytest.raises(InvalidTypeError, match="dataframe.convert-string"):
            edask.evaluate_label_sets(lists["a"], lists["p"])
        ints = _frame({"a": pd.Series([1, 2, 1, 2], dtype=object), "p": pd.Series([1, 1, 2, 2], dtype=object)})
        with pytest.raises(InvalidTypeError, match=r"'y_true': Dask turned the column 'a' of Python objects \(integer\) into strings"):
            edask.confusion_matrix(ints["a"], ints["p"])
        text = _frame({"a": ["x", "y", "x", "y"], "p": ["x", "x", "y", "y"]})
        assert edask.confusion_matrix(text["a"], text["p"]).labels == ("x", "y")  # strings were strings


def test_dask_text_of_a_list_is_never_one_label(dask_objects):
    from evalkit import dask as edask

    frame = _frame({"a": ["['x', 'y']", "['x']"], "p": ["['x']", "['y']"]}, partitions=1)
    with pytest.raises(InvalidTypeError, match="holds the text"):
        edask.evaluate_label_sets(frame["a"], frame["p"])
