"""A measure defined once (a subclass getter, an override of a built-in getter, or a registered
function) is the same measure in every place a measure name is accepted, with its direction."""

import csv
import io
import json
import math
import pickle
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given
from strategies import binary_case, close, count_matrices

import evalkit
from evalkit import (
    ClassificationMetrics,
    ConfusionMatrix,
    Evaluation,
    Stats,
    ThresholdCurve,
    formulas,
)
from evalkit._results.paired import compare
from evalkit._scale.streaming import CurveCounts, LabelSetCounts
from evalkit.cli import main
from evalkit.exceptions import (
    FormatError,
    InputShapeError,
    InvalidArgumentError,
    InvalidTypeError,
    NoClosedFormError,
    PluginError,
    UnknownMetricError,
)
from evalkit.io._report import build_report
from evalkit.measures._plugins import find_measure, find_metrics_class
from evalkit.metrics import metric_at_thresholds


class Screening(ClassificationMetrics):
    """The custom-metrics guide's subclass: a loss-type getter with its direction."""

    @evalkit.measure(direction="lower", bounds=(1, math.inf), aliases=("nns",), abbreviation="NNS")
    def get_number_needed_to_screen(self):
        """Samples screened per true positive found: total / tp."""
        tp = self.get_true_positive()
        return self.get_total() / tp if tp else math.nan


class Cautious(ClassificationMetrics):
    """Overrides a built-in getter: precision shrunk towards 1/2 (Laplace)."""

    def get_precision(self):
        return (self.get_true_positive() + 1) / (self.get_true_positive() + self.get_false_positive() + 2)


class Unrelated(ClassificationMetrics):
    def get_twice_recall(self):
        return 2 * self.get_recall()


GETTERS = [(Screening, "number_needed_to_screen"), (Cautious, "precision")]


def getter_values(metrics_class, name, cells):
    """What the getter returns for each class's cells (the definition every place must give)."""
    return np.array([getattr(metrics_class.from_counts(tp=tp, fp=fp, fn=fn, tn=tn), f"get_{name}")()
                     for tp, fp, fn, tn in zip(*(np.asarray(row).tolist() for row in cells.rows()))])  # fmt: skip


def mean_defined(values, weights=None):
    kept = ~np.isnan(values)
    if not kept.any():
        return math.nan
    return float(np.average(values[kept], weights=None if weights is None else np.asarray(weights, dtype=float)[kept]))


# --------------------------------------------------------------------------------------------
# one measure, three definitions


def test_a_getter_an_override_and_a_registered_function_are_one_kind_of_measure():
    added, overridden = Screening.measure("nns"), Cautious.measure("ppv")
    assert isinstance(added, evalkit.Measure) and isinstance(overridden, evalkit.Measure)
    assert (added.name, added.direction, added.bounds, added.aliases) == ("number_needed_to_screen", "lower", (1, math.inf), ("nns",))
    assert added.getter == "Screening.get_number_needed_to_screen" and added.description.startswith("Samples screened")
    assert overridden.name == "precision" and overridden.getter == "Cautious.get_precision"
    assert (overridden.title, overridden.direction) == ("Precision", "higher")  # the built-in's description, kept
    assert ClassificationMetrics.measure("precision") is formulas.MEASURES["precision"]  # kept getters are the vectorised formulas
    assert Screening.measure("precision") is formulas.MEASURES["precision"]
    assert set(Screening.measures()) >= {"number_needed_to_screen", "f_score", "precision"}
    assert Screening.metric_names()[-1] == "number_needed_to_screen"


def test_a_getter_without_the_decorator_gets_the_defaults():
    measure = Unrelated.measure("twice_recall")
    assert (measure.direction, measure.bounds, measure.title, measure.description) == ("higher", (-math.inf, math.inf), "Twice recall", "")


def test_the_decorator_checks_what_it_is_told():
    with pytest.raises(InvalidArgumentError, match="'direction' must be"):
        evalkit.measure(direction="up")
    with pytest.raises(InvalidArgumentError, match="'bounds' must be"):
        evalkit.measure(bounds=(1, 0))
    with pytest.raises(InvalidArgumentError, match="'aliases' must be"):
        evalkit.measure(aliases=("", "x"))
    with pytest.raises(InvalidTypeError, match="get_\\* method"):
        evalkit.measure(direction="lower")(lambda tp: tp)

    class Bare(ClassificationMetrics):
        @evalkit.measure
        def get_half_recall(self):
            return self.get_recall() / 2

    assert Bare.measure("half_recall").direction == "higher"


def test_a_registered_function_is_a_metric_of_every_class_with_a_getter():
    @formulas.register(name="frequency_bias", bounds=(0.0, math.inf))
    def frequency_bias(*, tp, fp, fn, tn):
        """Frequency bias: predicted positives over actual positives."""
        tp, fp, fn = (np.asarray(x, dtype=float) for x in (tp, fp, fn))
        with np.errstate(divide="ignore", invalid="ignore"):
            return (tp + fp) / (tp + fn)

    try:
        metrics = Screening.from_counts(tp=35, fp=10, fn=5, tn=50)
        assert metrics.get("frequency_bias") == metrics.get_frequency_bias() == pytest.approx(1.125)
        assert metrics.to_dict()["frequency_bias"] == pytest.approx(1.125)
        assert "Frequency bias: 1.125 (Frequency bias: predicted positives over actual positives.)" in str(metrics)
        assert Screening.average([metrics, metrics]).get("frequency_bias") == pytest.approx(1.125)
        assert "frequency_bias" in ClassificationMetrics.metric_names()
        with pytest.raises(InvalidArgumentError, match="computed from the counts"):
            metrics.set("frequency_bias", 1.0)
    finally:
        formulas.unregister("frequency_bias")
    assert "frequency_bias" not in metrics.to_dict()  # the classes see the registry change
    with pytest.raises(AttributeError):
        metrics.get_frequency_bias()


def test_an_unknown_name_says_which_class_was_searched_and_how_to_add_one():
    with pytest.raises(UnknownMetricError) as found:
        ConfusionMatrix.from_array([[1, 0], [0, 1]]).average("number_needed_to_screen")
    message = str(found.value)
    assert "Looked up in ClassificationMetrics" in message and "define get_number_needed_to_screen" in message
    assert "evalkit.formulas.register" in message and "--metrics-class" in message
    with pytest.raises(UnknownMetricError, match="Looked up in Screening"):
        ConfusionMatrix.from_array([[1, 0], [0, 1]], metrics_class=Screening).average("no_such_measure")


# --------------------------------------------------------------------------------------------
# every place gives the getter's value


@pytest.mark.parametrize(("metrics_class", "name"), GETTERS)
@given(count_matrices.filter(lambda rows: len(rows) >= 2 and sum(map(sum, rows)) > 0))
def test_every_place_gives_the_getters_value(metrics_class, name, rows):
    """Hypothesis over random matrices: objects, get(), to_dict(), Stats, per_class, every
    average, reports (every format), intervals, JSON and pickle give the getter's number, for an
    added getter and for an override of a built-in one."""
    cm = ConfusionMatrix.from_array(rows, [f"c{k}" for k in range(len(rows))], metrics_class=metrics_class)
    cells = cm.class_cells
    expected = getter_values(metrics_class, name, cells)
    micro = getter_values(metrics_class, name, cells.total().__class__(*(np.atleast_1d(row) for row in cells.total().rows())))[0]
    macro, weighted = mean_defined(expected), mean_defined(expected, cells.support)
    weighted = weighted if cells.support[~np.isnan(expected)].sum() > 0 else macro
    assert all(close(a, b) for a, b in zip(cm.per_class(name), expected))
    assert close(cm.average(name, "micro"), micro) and close(cm.average(name, "macro"), macro) and close(cm.average(name, "weighted"), weighted)
    plain = ConfusionMatrix.from_array(rows, cm.labels)  # metrics_class= on the call instead of on the result
    assert close(plain.average(name, "macro", metrics_class=metrics_class), macro)
    objects = metrics_class.create_from(cm, all_classes=True)
    assert all(close(o.get(name), e) and close(o.to_dict()[name], e) for o, e in zip(objects, expected))
    assert all(close(o.interval(name, method="percentile", n_resamples=50, random_state=0).estimate, e) for o, e in zip(objects, expected))
    assert close(metrics_class.average(objects).get(name), macro)
    assert [close(o.get(name), e) for o, e in zip(cm.class_metrics(), expected)] == [True] * len(rows)
    report = build_report(cm, measures=[name])
    assert all(close(report.per_class[label][0], e) for label, e in zip(cm.labels, expected))
    assert close(report.averages["macro avg"][0], macro)
    table = list(csv.DictReader(io.StringIO(report.to_csv())))
    assert all(close(float(row[name] or "nan"), e) for row, e in zip(table, expected))
    document = json.loads(report.to_json())
    assert all(close(document["classes"][label][name] if document["classes"][label][name] is not None else math.nan, e)
               for label, e in zip(cm.labels, expected))  # fmt: skip
    assert name in report.to_text() or (report.headers[0] in report.to_text())
    interval = cm.interval(name, "macro", method="percentile", n_resamples=50, random_state=0)
    assert close(interval.estimate, macro)
    for copy in (ConfusionMatrix.from_json(cm.to_json()), pickle.loads(pickle.dumps(cm)), cm.copy(), cm + plain):
        assert copy.metrics_class is metrics_class
    assert all(close(a, b) for a, b in zip(ConfusionMatrix.from_json(cm.to_json()).per_class(name), expected))


@pytest.mark.parametrize(("metrics_class", "name"), GETTERS)
@given(binary_case(min_size=2))
def test_curves_and_the_scikit_learn_face_give_the_getters_value_at_every_threshold(metrics_class, name, case):
    y_true, y_score = case
    curve = ThresholdCurve.from_scores(y_true, y_score, metrics_class=metrics_class)
    values, thresholds = curve.evaluate(name)
    expected = getter_values(metrics_class, name, curve.cells())
    assert all(close(a, b) for a, b in zip(values, expected))
    assert all(close(a, b) for a, b in zip(ThresholdCurve.from_scores(y_true, y_score).evaluate(name, metrics_class=metrics_class)[0], expected))
    read, read_thresholds = metric_at_thresholds(y_true, y_score, name, metrics_class=metrics_class)
    assert np.array_equal(read_thresholds, thresholds) and all(close(a, b) for a, b in zip(read, expected))
    at = curve.at(thresholds[len(thresholds) // 2])
    assert close(at.per_class(name)[0], expected[len(thresholds) // 2])
    best = curve.best_threshold(name)
    if not np.isnan(expected).all():
        pick = np.nanargmin if metrics_class.measure(name).direction == "lower" else np.nanargmax
        assert close(best.value, expected[pick(expected)]) and best.threshold == thresholds[pick(expected)]


def test_best_threshold_of_a_loss_type_getter_is_the_lowest_value():
    """The custom-metrics guide's number needed to screen: the best threshold is where it is
    lowest, not where it is highest."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 400)
    s = np.clip(y * 0.3 + rng.random(400) * 0.7, 0, 1)
    curve = ThresholdCurve.from_scores(y, s, metrics_class=Screening)
    best = curve.best_threshold("nns")
    values, _ = curve.evaluate("nns")
    assert best.value == np.nanmin(values) and best.value < 2 < np.nanmax(values)


def test_compare_reads_the_sign_by_the_direction():
    y = [0, 1, 1, 0, 1, 0, 1, 1, 0, 1] * 5
    good = [0, 1, 1, 0, 1, 0, 1, 0, 0, 1] * 5
    bad = [1, 1, 0, 0, 1, 1, 0, 0, 0, 1] * 5
    higher = compare(y, good, bad, "recall", "macro", method="percentile", n_resamples=200, random_state=0)
    lower = compare(y, good, bad, "false_negative_rate", "macro", method="percentile", n_resamples=200, random_state=0)
    assert higher.difference > 0 and higher.better == "first" and higher.direction == "higher"
    assert lower.difference < 0 and lower.better == "first" and lower.direction == "lower"
    nns = compare(y, good, bad, "nns", "macro", method="percentile", n_resamples=200, random_state=0, metrics_class=Screening)
    expected = [Evaluation.from_labels(y, p, metrics_class=Screening).average("nns", "macro") for p in (good, bad)]
    assert nns.estimates == pytest.approx(expected) and nns.better == "first"
    with pytest.raises(InvalidArgumentError, match="McNemar"):
        compare(y, good, bad, "accuracy", metrics_class=type("Odd", (ClassificationMetrics,), {"get_accuracy": lambda self: 0.5}))


def test_a_report_sorts_classes_by_a_measures_direction():
    cm = ConfusionMatrix.from_array([[8, 1, 1], [4, 5, 1], [0, 0, 10]], ["a", "b", "c"], metrics_class=Screening)
    recall = cm.per_class("recall")
    assert build_report(cm, sort_by="recall").labels == tuple(np.array(cm.labels)[np.argsort(-recall, kind="stable")])
    nns = cm.per_class("nns")
    assert build_report(cm, sort_by="nns").labels == tuple(np.array(cm.labels)[np.argsort(nns, kind="stable")])
    with pytest.raises(InvalidArgumentError, match="no direction"):
        build_report(cm, sort_by="prevalence")
    by_support = ConfusionMatrix.from_array([[1, 1], [4, 5]], ["a", "b"])  # support, the last column (an IndexError before): the most samples first
    assert build_report(by_support, sort_by="support").labels == ("b", "a") and build_report(cm, sort_by="support").labels == ("a", "b", "c")  # (ties: label order)


def test_a_whole_result_interval_is_never_a_getter_of_one_class():
    class Halved(ClassificationMetrics):
        def get_accuracy(self):
            return super().get_accuracy() / 2

    cm = ConfusionMatrix.from_array([[40, 10], [5, 45]], metrics_class=Halved)
    with pytest.raises(InvalidArgumentError, match="Halved.get_accuracy"):
        cm.interval("accuracy", method="wilson")
    assert cm.interval(formulas.get_measure("accuracy"), method="wilson").estimate == 0.85
    assert cm.interval("accuracy", "macro", random_state=0).estimate == pytest.approx(np.mean([0.85, 0.85]) / 2)
    assert build_report(cm, confidence=0.9, n_resamples=50).intervals["accuracy"][0].estimate == 0.85


def test_an_overridden_measure_has_no_micro_macro_decomposition():
    evaluation = Evaluation.from_labels([0, 1, 1, 2], [0, 1, 2, 2], metrics_class=Cautious)
    with pytest.raises(NoClosedFormError, match="'precision' is not aggregation-decomposable"):
        evaluation.micro_macro_gap("precision")
    assert evaluation.with_metrics_class(ClassificationMetrics).micro_macro_gap("precision").gap == pytest.approx(-1 / 12)


# --------------------------------------------------------------------------------------------
# results remember their metrics class


def test_every_constructor_and_combination_keeps_the_metrics_class():
    made = [
        ConfusionMatrix(["a", "b"], metrics_class=Screening),
        ConfusionMatrix.from_predictions(["a", "b"], ["a", "a"], metrics_class=Screening),
        Evaluation.from_labels(["a", "b"], ["a", "a"], metrics_class=Screening),
        Evaluation.from_label_sets([{"a"}, {"b"}], [{"a"}, set()], metrics_class=Screening),
        Evaluation.from_indicators([[1, 0]], [[1, 1]], metrics_class=Screening),
        Evaluation.from_scores(np.array([[1, 0]]), np.array([[0.8, 0.1]]), metrics_class=Screening),
        Evaluation.from_soft([[1.0, 0.2]], [[0.7, 0.1]], metrics_class=Screening),
        Evaluation.from_ordinal([0, 1, 2], [0, 2, 2], [0, 1, 2], metrics_class=Screening),
        Evaluation.from_hierarchy(["b"], ["c"], {"b": "a", "c": "a"}, metrics_class=Screening),
        ThresholdCurve.from_scores([0, 1, 1], [0.2, 0.7, 0.4], metrics_class=Screening),
    ]
    for result in made:
        assert result.metrics_class is Screening, result
        assert type(result).from_json(result.to_json()).metrics_class is Screening if hasattr(result, "to_json") else True
        assert pickle.loads(pickle.dumps(result)).metrics_class is Screening
    evaluation = made[2]
    assert (evaluation + evaluation).metrics_class is Screening and evaluation.compact().metrics_class is Screening
    assert evaluation.with_labels(["a", "b", "z"]).metrics_class is Screening
    assert evaluation.confusion_matrix().metrics_class is Screening
    assert made[-1].at(0.5).metrics_class is Screening and (made[-1] + made[-1]).metrics_class is Screening
    assert made[-1].at(0.5).confusion_matrix().metrics_class is Screening
    assert all(isinstance(o, Screening) for o in evaluation.class_metrics()) and all(isinstance(o, Screening) for o in evaluation.sample_metrics())


def test_merging_keeps_the_more_specific_class_and_refuses_unrelated_ones():
    default = Evaluation.from_labels(["a", "b"], ["a", "a"])
    screening = default.with_metrics_class(Screening)
    assert (default + screening).metrics_class is Screening and (screening + default).metrics_class is Screening
    with pytest.raises(InvalidTypeError, match="different metrics classes, Screening and Unrelated"):
        screening + default.with_metrics_class(Unrelated)
    matrix = ConfusionMatrix(["a", "b"])
    matrix += ConfusionMatrix(["a", "b"], metrics_class=Screening)
    assert matrix.metrics_class is Screening
    assert ConfusionMatrix(["a", "b"]) != ConfusionMatrix(["a", "b"], metrics_class=Screening)


def test_streams_keep_the_metrics_class():
    sets = LabelSetCounts(metrics_class=Screening)
    sets.update([{"a"}, {"b"}], [{"a"}, {"a"}])
    assert sets.to_evaluation().metrics_class is Screening and (sets + LabelSetCounts()).to_evaluation().metrics_class is Screening
    assert LabelSetCounts(["a"], metrics_class=Screening).to_evaluation().metrics_class is Screening
    curves = CurveCounts(metrics_class=Screening)
    curves.update([0, 1, 1], [0.2, 0.7, 0.4])
    assert curves.curve().metrics_class is Screening and (CurveCounts() + curves).curve().metrics_class is Screening


def test_a_document_never_imports_the_class_it_names(tmp_path):
    text = Evaluation.from_labels([0, 1], [0, 0], metrics_class=Screening).to_json()
    foreign = text.replace(f"{__name__}:Screening", "os:system")
    with pytest.raises(FormatError, match="not a ClassificationMetrics subclass"):
        Evaluation.from_json(foreign)
    missing = text.replace(f"{__name__}:Screening", "no_such_module_anywhere:Screening")
    with pytest.raises(FormatError, match="is not loaded: import no_such_module_anywhere first, or pass metrics_class="):
        Evaluation.from_json(missing)
    assert Evaluation.from_json(missing, metrics_class=Unrelated).metrics_class is Unrelated
    with pytest.raises(InvalidTypeError, match="'metrics_class' must be"):
        Evaluation.from_json(missing, metrics_class=dict)


def test_stats_know_the_spellings_a_class_declares():
    objects = Screening.create_from(ConfusionMatrix.from_array([[8, 2], [1, 9]]), all_classes=True)
    stats = Screening.average(objects)
    assert stats.get("nns") == stats.get("number_needed_to_screen") == pytest.approx(np.mean([o.get("nns") for o in objects]))
    assert Stats.from_json(stats.to_json()).get("nns") == stats.get("nns")


# --------------------------------------------------------------------------------------------
# the command line and plugins


SCREENING_MODULE = '''
    import math
    import evalkit

    class Screening(evalkit.ClassificationMetrics):
        @evalkit.measure(direction="lower", aliases=("nns",))
        def get_number_needed_to_screen(self):
            """Samples screened per true positive found: total / tp."""
            tp = self.get_true_positive()
            return self.get_total() / tp if tp else math.nan

    class Cautious(evalkit.ClassificationMetrics):
        def get_precision(self):
            return (self.get_true_positive() + 1) / (self.get_true_positive() + self.get_false_positive() + 2)
'''


def plugin(tmp_path, monkeypatch, entries, module=SCREENING_MODULE, name="screening_metrics"):
    """An installed package as importlib.metadata sees one: a module and a dist-info folder
    naming entry points of the evalkit.measures group."""
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(module), encoding="utf-8")
    info = tmp_path / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[evalkit.measures]\n" + "".join(f"{k} = {v}\n" for k, v in entries.items()), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, name, raising=False)  # each test installs its own version of the package


def report_of(capsys, *argv):
    status = main(["report", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_command_line_takes_a_metrics_class_by_module_path(tmp_path, monkeypatch, capsys):
    (tmp_path / "my_metrics.py").write_text(textwrap.dedent(SCREENING_MODULE), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    status, out, _ = report_of(capsys, "--metrics-class", "my_metrics:Screening", "--measures", "recall,nns", "--format", "json")
    assert status == 0
    document = json.loads(out)
    cm = ConfusionMatrix.from_predictions(*_iris(), metrics_class=find_metrics_class("my_metrics:Screening"))
    assert document["classes"]["versicolor"]["number_needed_to_screen"] == pytest.approx(cm.per_class("nns")[1])
    status, out, _ = report_of(capsys, "--metrics-class", "my_metrics:Cautious", "--measures", "precision", "--format", "json")
    assert json.loads(out)["classes"]["setosa"]["precision"] == pytest.approx(51 / 52)  # the override, not 1.0
    status, _, err = report_of(capsys, "--metrics-class", "my_metrics:Nothing")
    assert status == 2 and "has no 'Nothing'" in err
    status, _, err = report_of(capsys, "--metrics-class", "json:JSONDecoder")
    assert status == 2 and "not a ClassificationMetrics subclass" in err


def test_installed_plugins_publish_measures_by_name(tmp_path, monkeypatch, capsys):
    plugin(tmp_path, monkeypatch, {"screening": "screening_metrics:Screening", "cautious": "screening_metrics:Cautious"})
    status, out, err = report_of(capsys, "--measures", "recall,number_needed_to_screen", "--sort-by", "nns", "--format", "json")
    assert status == 0, err
    assert list(json.loads(out)["classes"]) == ["setosa", "virginica", "versicolor"]  # fewest screened per hit first
    status, out, _ = report_of(capsys, "--metrics-class", "cautious", "--measures", "precision", "--format", "json")
    assert json.loads(out)["classes"]["setosa"]["precision"] == pytest.approx(51 / 52)
    status, out, _ = report_of(capsys, "--measures", "precision", "--format", "json")
    assert json.loads(out)["classes"]["setosa"]["precision"] == 1.0  # a plugin's override applies only when chosen
    assert find_measure("nns").getter.endswith("Screening.get_number_needed_to_screen")


def test_a_broken_plugin_is_a_clear_error_naming_it(tmp_path, monkeypatch, capsys):
    plugin(tmp_path, monkeypatch, {"broken": "screening_metrics:Screening"}, module="raise RuntimeError('half-installed')\n")
    status, _, err = report_of(capsys, "--measures", "number_needed_to_screen")
    assert status == 2 and "the evalkit plugin 'broken' (screening_metrics:Screening, from the package screening_metrics 1.0) cannot be loaded" in err
    assert "RuntimeError: half-installed" in err and "Traceback" not in err
    status, _, err = report_of(capsys, "--measures", "recall")  # plugins are loaded only for names evalkit lacks
    assert status == 0


def test_two_plugins_with_one_name_must_be_chosen_between(tmp_path, monkeypatch):
    plugin(tmp_path, monkeypatch, {"one": "screening_metrics:Screening", "two": "screening_metrics:Screening", "bad": "json:JSONDecoder"})
    with pytest.raises(PluginError, match="'bad' .* is <class 'json.decoder.JSONDecoder'>, not a ClassificationMetrics subclass"):
        find_measure("nns")
    with pytest.raises(PluginError, match="no evalkit plugin is named 'three'"):
        find_metrics_class("three")


def test_two_plugins_defining_one_measure_are_refused(tmp_path, monkeypatch):
    plugin(tmp_path, monkeypatch, {"one": "screening_metrics:Screening", "two": "screening_metrics:Screening"})
    with pytest.raises(PluginError, match="the plugins one and two both define the measure 'nns'"):
        find_measure("nns")


def _iris():
    from evalkit.datasets import load_example

    return load_example()


class WithDoubleRecall(ClassificationMetrics):
    def get_double_recall(self):
        """Twice the recall."""
        return 2 * self.get_recall()


@pytest.mark.parametrize(
    ("measure", "error", "message"),
    [
        (lambda tp, fp, fn, tn: np.array([1.0, 2.0]), InputShapeError, r"one value per entry \(shape \(3,\)\), got shape \(2,\)"),
        (lambda tp, fp, fn, tn: "x", InvalidTypeError, "must return numbers, got 'x'"),
        (lambda tp, fp, fn, tn: None, InvalidTypeError, "must return numbers, got None"),
        (lambda tp, fp, fn, tn: 0.5, InputShapeError, r"got shape \(\)"),
    ],
)
def test_a_custom_measure_of_the_wrong_shape_or_type_is_refused(measure, error, message):
    ev = Evaluation.from_labels([1, 2, 3, 1], [1, 1, 3, 2])
    with pytest.raises(error, match=message):
        ev.average(measure, "macro")
    with pytest.raises(error, match=message):
        ev.per_class(measure)


def test_a_custom_measure_of_the_right_shape_agrees_with_the_registry():
    ev = Evaluation.from_labels([1, 2, 3, 1], [1, 1, 3, 2])
    assert ev.average(lambda tp, fp, fn, tn: tp / (tp + fn), "macro") == ev.average("recall", "macro")


def test_a_subclass_getter_is_a_measure_in_every_place():
    cm = ConfusionMatrix.from_predictions(list("aabb"), list("abbb"))
    objects = WithDoubleRecall.create_from(cm)
    assert objects[0].get("DoubleRecall") == 2 * objects[0].get_recall()
    assert WithDoubleRecall.average(objects).double_recall == 2 * ClassificationMetrics.average(objects).recall
    assert cm.average("double-recall", metrics_class=WithDoubleRecall) == 2 * cm.average("recall")
    np.testing.assert_allclose(cm.per_class("double_recall", metrics_class=WithDoubleRecall), 2 * cm.per_class("recall"))
    report = build_report(cm, measures=["precision", "double_recall"], metrics_class=WithDoubleRecall)
    assert report.measures == ("precision", "double_recall") and "double_recall" in report.to_text()
