"""ClassificationMetrics, EvaluationMetrics and Stats: the Deep Netts API with its bugs fixed."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from reference import REFERENCE, as_float

from evalkit import ClassificationMetrics, ConfusionMatrix, EvaluationMetrics, Stats, formulas
from evalkit.exceptions import (
    ClassIndexError,
    EmptyInputError,
    InvalidArgumentError,
    InvalidCountsError,
    InvalidTypeError,
    LabelMismatchError,
    NotBinaryError,
    UnknownLabelError,
    UnknownMetricError,
)

BINARY = ConfusionMatrix.from_array([[50, 10], [5, 35]], ["negative", "positive"])
PAPER = ConfusionMatrix.from_array([[110, 10, 10], [20, 40, 5], [25, 5, 50]], ["a", "b", "c"])


# --------------------------------------------------------------------------------------------
# construction


def test_binary_matrix_gives_the_positive_class():
    metrics = ClassificationMetrics(BINARY)
    assert metrics.get_class_label() == "positive" and metrics.get_class_idx() == 1
    assert (metrics.get_true_positive(), metrics.get_false_positive(), metrics.get_false_negative(), metrics.get_true_negative()) == (35, 10, 5, 50)
    assert metrics.get_confusion_matrix() is BINARY


def test_reference_values_of_the_binary_case():
    """shared/spec/deepnetts.md: accuracy 0.85, precision 0.7777…, recall 0.875, specificity 0.8333…,
    F1 0.8235…, FPR 0.1666…, FNR 0.125, FDR 0.2222…, MCC 0.697518…"""
    m = ClassificationMetrics(BINARY)
    assert m.get_accuracy() == pytest.approx(0.85)
    assert m.get_precision() == pytest.approx(0.7777777777777778)
    assert m.get_recall() == pytest.approx(0.875)  # Deep Netts 1.13 returned the precision here
    assert m.get_specificity() == pytest.approx(0.8333333333333334)  # 1.13 divided by tn + fn
    assert m.get_f1_score() == pytest.approx(0.8235294117647058)
    assert m.get_false_positive_rate() == pytest.approx(0.16666666666666666)
    assert m.get_false_negative_rate() == pytest.approx(0.125)
    assert m.get_false_discovery_rate() == pytest.approx(0.2222222222222222)
    assert m.get_matthews_correlation_coefficient() == pytest.approx(0.697518, abs=5e-7)
    assert m.get_total() == 100
    assert m.positive_frequency() == pytest.approx(0.4) and m.negative_frequency() == pytest.approx(0.6)
    assert m.get_f_score(1) == m.get_f1_score()


def test_one_class_of_a_larger_matrix_by_label_or_index():
    by_label = ClassificationMetrics(PAPER, class_label="b")
    by_index = ClassificationMetrics(PAPER, class_idx=1)
    both = ClassificationMetrics(PAPER, class_label="b", class_idx=1)
    assert by_label == by_index == both
    assert (by_label.get_true_positive(), by_label.get_false_positive(), by_label.get_false_negative(), by_label.get_true_negative()) == (40, 15, 25, 195)


def test_class_label_and_index_must_agree():
    with pytest.raises(LabelMismatchError, match="'class_label' 'a' is not the label of 'class_idx' 1"):
        ClassificationMetrics(PAPER, class_label="a", class_idx=1)
    with pytest.raises(UnknownLabelError):
        ClassificationMetrics(PAPER, class_label="z")
    with pytest.raises(ClassIndexError):
        ClassificationMetrics(PAPER, class_idx=3)


def test_a_larger_matrix_needs_a_class():
    with pytest.raises(NotBinaryError, match="3 classes"):
        ClassificationMetrics(PAPER)


def test_from_counts_is_keyword_only():
    metrics = ClassificationMetrics.from_counts(tp=35, fp=10, fn=5, tn=50, class_label="yes")
    assert metrics.get_class_label() == "yes" and metrics.get_class_idx() is None
    assert metrics.get_confusion_matrix() is None
    with pytest.raises(TypeError):
        ClassificationMetrics.from_counts(50, 10, 5, 35)  # Java's positional TN, FP, FN, TP order


def test_positional_counts_in_the_constructor_are_explained():
    with pytest.raises(InvalidTypeError, match=r"from_counts\(tp=..., fp=..., fn=..., tn=...\)"):
        ClassificationMetrics(50)
    with pytest.raises(TypeError):  # Java's four-int constructor has no Python twin
        ClassificationMetrics(50, 10, 5, 35)


def test_from_counts_accepts_fractional_counts_and_rejects_bad_ones():
    soft = ClassificationMetrics.from_counts(tp=0.42, fp=0.18, fn=0.28, tn=0.12)
    assert soft.get_precision() == pytest.approx(0.42 / 0.60)
    assert type(ClassificationMetrics.from_counts(tp=2.0, fp=0, fn=0, tn=0).get_true_positive()) is float  # a weighted count stays one
    assert type(ClassificationMetrics.from_counts(tp=2, fp=0, fn=0, tn=0).get_true_positive()) is int
    for bad in (-1, math.nan, math.inf):
        with pytest.raises(InvalidCountsError, match="'fp'"):
            ClassificationMetrics.from_counts(tp=1, fp=bad, fn=0, tn=0)
    with pytest.raises(InvalidTypeError, match="'tn'"):
        ClassificationMetrics.from_counts(tp=1, fp=1, fn=0, tn="3")


# --------------------------------------------------------------------------------------------
# create_from


def test_create_from_two_classes_gives_the_positive_class_with_its_own_label():
    """Deep Netts labels this object with the negative label; evalkit with its own."""
    (metrics,) = ClassificationMetrics.create_from(BINARY)
    assert metrics.get_class_label() == "positive" and metrics.get_class_idx() == 1
    assert metrics.get_true_positive() == 35


def test_create_from_many_classes_gives_one_object_per_class_in_label_order():
    objects = ClassificationMetrics.create_from(PAPER)
    assert [m.get_class_label() for m in objects] == ["a", "b", "c"]
    assert [m.get_class_idx() for m in objects] == [0, 1, 2]
    assert [m.get_true_negative() for m in objects] == [100, 195, 180]
    assert objects == [ClassificationMetrics(PAPER, class_idx=k) for k in range(3)]


def test_create_from_is_a_classmethod_that_makes_the_subclass():
    class Mine(ClassificationMetrics):
        pass

    assert all(type(m) is Mine for m in Mine.create_from(PAPER))
    assert type(Mine.from_counts(tp=1, fp=0, fn=0, tn=1)) is Mine


# --------------------------------------------------------------------------------------------
# getters = formulas = independent reference


@pytest.mark.parametrize("name", formulas.measure_names())
@pytest.mark.parametrize("counts", [(35, 10, 5, 50), (0, 0, 3, 9), (7, 0, 0, 0), (0, 0, 0, 0), (12, 30, 1, 4)])
def test_each_getter_equals_the_formula_and_the_reference(name, counts):
    tp, fp, fn, tn = counts
    metrics = ClassificationMetrics.from_counts(tp=tp, fp=fp, fn=fn, tn=tn)
    getter = getattr(metrics, f"get_{name}")
    value = getter(1.0) if name == "f_score" else getter()
    formula = formulas.MEASURES[name](tp=tp, fp=fp, fn=fn, tn=tn)
    reference = as_float(REFERENCE[name](tp, fp, fn, tn))
    assert (math.isnan(value) and math.isnan(formula)) or value == formula
    assert (math.isnan(value) and math.isnan(reference)) or value == pytest.approx(reference, rel=1e-12)


def test_every_registered_measure_has_a_getter():
    missing = [name for name in formulas.measure_names() if not hasattr(ClassificationMetrics, f"get_{name}")]
    assert not missing


def test_metric_names_are_the_getters_without_get():
    names = ClassificationMetrics.metric_names()
    assert names[0] == "accuracy"
    assert {name for name in formulas.measure_names() if not formulas.MEASURES[name].parameters} == set(names)  # F-beta and post-test probability take parameters
    assert "class_label" not in names and "true_positive" not in names and "f_score" not in names


def test_undefined_getters_are_nan():
    metrics = ClassificationMetrics.from_counts(tp=0, fp=0, fn=0, tn=10)
    assert math.isnan(metrics.get_precision()) and math.isnan(metrics.get_recall())
    assert math.isnan(metrics.get_f1_score())  # Deep Netts returns 0 here
    assert math.isnan(metrics.get_balanced_accuracy())  # Deep Netts falls back to specificity
    assert metrics.get_specificity() == 1.0


# --------------------------------------------------------------------------------------------
# EvaluationMetrics: get and set


def test_visrec_constants():
    assert (EvaluationMetrics.ACCURACY, EvaluationMetrics.PRECISION, EvaluationMetrics.RECALL, EvaluationMetrics.F1SCORE) == (
        "Accuracy", "Precision", "Recall", "F1Score"
    )  # fmt: skip
    assert ClassificationMetrics.MEAN_SQUARED_ERROR == "MeanSquaredError"
    assert EvaluationMetrics.R_SQUARED == "RSquared" and EvaluationMetrics.F_STAT == "FStatistics"


def test_get_by_visrec_key_returns_the_metric():
    m = ClassificationMetrics(BINARY)
    assert m.get(ClassificationMetrics.ACCURACY) == m.get_accuracy()
    assert m.get(ClassificationMetrics.F1SCORE) == m.get_f1_score()
    assert m.get("FalsePositiveRate") == m.get_false_positive_rate()
    assert m.get("matthews_correlation_coefficient") == m.get_matthews_correlation_coefficient()
    assert m.get("sensitivity") == m.get_recall()
    assert m.get("TruePositive") == 35


def test_get_of_an_unknown_name_lists_the_known_names():
    with pytest.raises(UnknownMetricError) as caught:
        ClassificationMetrics(BINARY).get("Accuracyy")
    assert isinstance(caught.value, KeyError)
    message = str(caught.value)
    assert "'Accuracyy'" in message and "accuracy" in message and "f1_score" in message


def test_set_stores_extra_values_but_not_computed_metrics():
    m = ClassificationMetrics(BINARY)
    m.set("TrainingSeconds", 12.5)
    assert m.get("TrainingSeconds") == 12.5 and m.to_dict()["TrainingSeconds"] == 12.5
    with pytest.raises(InvalidArgumentError, match="computed from the counts"):
        m.set(ClassificationMetrics.ACCURACY, 0.1)


def test_base_evaluation_metrics_is_a_plain_map():
    metrics = EvaluationMetrics()
    metrics.set(EvaluationMetrics.MEAN_ABSOLUTE_ERROR, 2)
    assert metrics.get("MeanAbsoluteError") == 2.0 and metrics.names() == ["MeanAbsoluteError"]
    with pytest.raises(UnknownMetricError, match="known metrics: MeanAbsoluteError"):
        metrics.get(EvaluationMetrics.R_SQUARED)
    with pytest.raises(InvalidTypeError):
        metrics.set("x", "1.0")
    assert str(metrics) == "MeanAbsoluteError: 2"


def test_set_class_label_relabels():
    m = ClassificationMetrics(BINARY)
    m.set_class_label("spam")
    assert m.get_class_label() == "spam"


# --------------------------------------------------------------------------------------------
# dict and text


def test_to_dict_holds_identity_counts_and_every_metric():
    d = ClassificationMetrics(BINARY).to_dict()
    assert d["class_label"] == "positive" and d["class_idx"] == 1
    assert (d["true_positive"], d["false_positive"], d["false_negative"], d["true_negative"], d["total"]) == (35, 10, 5, 50, 100)
    assert d["precision"] == pytest.approx(35 / 45)
    assert set(ClassificationMetrics.metric_names()) <= set(d)


def test_str_is_the_java_layout():
    lines = str(ClassificationMetrics(BINARY)).splitlines()
    assert lines[0] == "Class: positive"
    assert lines[1] == "Total items: 100"
    assert lines[2].startswith("True positive: 35")
    assert lines[3].startswith("True negative: 50")
    assert lines[4].startswith("False positive: 10")
    assert lines[5].startswith("False negative: 5")
    assert lines[6].startswith("Accuracy (ACC): 0.85 ")
    assert any(line.startswith("Precision (PPV): 0.777778 ") for line in lines)
    assert len(lines) == 6 + len(ClassificationMetrics.metric_names())


def test_str_spells_out_undefined_values():
    assert "Precision (PPV): NaN (undefined)" in str(ClassificationMetrics.from_counts(tp=0, fp=0, fn=1, tn=1))


def test_repr():
    assert repr(ClassificationMetrics(BINARY)) == "ClassificationMetrics(class_label='positive', tp=35, fp=10, fn=5, tn=50)"


# --------------------------------------------------------------------------------------------
# subclassing adds a metric


class WithYouden(ClassificationMetrics):
    def get_youden_index(self):
        """Youden's J: recall + specificity - 1."""
        return self.get_recall() + self.get_specificity() - 1


def test_a_subclass_getter_appears_everywhere_without_more_code():
    metrics = WithYouden(BINARY)
    assert "youden_index" in WithYouden.metric_names()
    assert metrics.to_dict()["youden_index"] == pytest.approx(0.875 + 50 / 60 - 1)
    assert "Youden index: 0.708333 (Youden's J: recall + specificity - 1.)" in str(metrics)
    assert metrics.get("YoudenIndex") == metrics.get_youden_index()
    stats = WithYouden.average(WithYouden.create_from(PAPER))
    expected = np.mean([m.get_youden_index() for m in WithYouden.create_from(PAPER)])
    assert stats.get("youden_index") == pytest.approx(expected)


def test_metric_names_are_found_once_per_class_and_every_subclass_sees_its_own():
    assert ClassificationMetrics.metric_names() is not None  # the base class's names are cached first

    class Later(WithYouden):
        def get_double_recall(self):
            """Twice the recall."""
            return 2 * self.get_recall()

    class Latest(Later):
        def get_half_precision(self):
            """Half the precision."""
            return self.get_precision() / 2

    assert "double_recall" in Later.metric_names() and "youden_index" in Later.metric_names()
    assert "half_precision" not in Later.metric_names() and "half_precision" in Latest.metric_names()
    assert "double_recall" not in ClassificationMetrics.metric_names() and "double_recall" not in WithYouden.metric_names()
    assert "_metric_lines" in vars(Later) and "_metric_lines" in vars(Latest)  # each class keeps its own table
    metrics = Latest.from_counts(tp=3, fp=1, fn=1, tn=5)
    assert metrics.to_dict()["half_precision"] == 0.375 and "Half precision: 0.375 (Half the precision.)" in str(metrics)


@given(st.tuples(*[st.integers(0, 2**61) | st.floats(0, 1e6)] * 4))
def test_str_and_to_dict_read_what_every_getter_returns(counts):
    """str and to_dict read a base-class getter's measure directly: the same value as the getter."""
    tp, fp, fn, tn = counts
    metrics = ClassificationMetrics.from_counts(tp=tp, fp=fp, fn=fn, tn=tn)
    read = metrics.to_dict()
    for name in ClassificationMetrics.metric_names():
        value = getattr(metrics, f"get_{name}")()
        assert read[name] == value or (math.isnan(read[name]) and math.isnan(value)), name
    text = str(metrics)
    for line in ClassificationMetrics._metric_table().values():
        value = getattr(metrics, line.getter)()
        shown = f"{value:.6g}" if not math.isnan(value) else "NaN (undefined)"
        assert f"{line.title}: {shown}{line.description}" in text


def test_an_overridden_getter_or_value_path_is_what_str_and_to_dict_show():
    class Rounded(ClassificationMetrics):
        def get_precision(self):
            """Precision, two decimals."""
            return round(super().get_precision(), 2)

    class Doubled(ClassificationMetrics):
        def _value(self, measure, **parameters):
            return 2 * super()._value(measure, **parameters)

    rounded, doubled = Rounded.from_counts(tp=2, fp=1, fn=0, tn=0), Doubled.from_counts(tp=2, fp=1, fn=0, tn=0)
    assert rounded.to_dict()["precision"] == 0.67 and "Precision (PPV): 0.67 (" in str(rounded)
    assert doubled.to_dict()["recall"] == 2.0 and "Recall (TPR): 2 " in str(doubled)
    assert ClassificationMetrics._metric_table()["precision"].direct is not None and Rounded._metric_table()["precision"].direct is None


def test_str_spells_undefined_values_and_infinities_out():
    class Odd(ClassificationMetrics):
        def get_odds(self):
            """Odds of a positive."""
            return self._tp / self._fn if self._fn else math.inf

    assert "Odds: inf (Odds of a positive.)" in str(Odd.from_counts(tp=1, fp=0, fn=0, tn=1))
    assert "Precision (PPV): NaN (undefined)" in str(ClassificationMetrics.from_counts(tp=0, fp=0, fn=1, tn=1))


def test_stats_read_lazily_equal_stats_computed_at_once():
    objects = ClassificationMetrics.create_from(PAPER) + [ClassificationMetrics.from_counts(tp=0, fp=0, fn=0, tn=3)]
    names = ClassificationMetrics.metric_names()
    for undefined in ("exclude", "zero", "one", "nan"):
        lazy = ClassificationMetrics.average(objects, undefined=undefined)
        first = lazy.summary("precision")  # one metric read alone, then all
        eager = Stats.from_values({name: [getattr(o, f"get_{name}")() for o in objects] for name in names}, undefined=undefined)
        assert lazy == eager and str(lazy) == str(eager)
        assert first.n_defined == eager.summary("precision").n_defined and lazy.names == eager.names


def test_a_subclass_getter_takes_part_in_confusion_matrix_averages():
    macro = PAPER.average("youden_index", "macro", metrics_class=WithYouden)
    micro = PAPER.average("youden_index", "micro", metrics_class=WithYouden)
    assert macro == pytest.approx(PAPER.average("informedness", "macro"), rel=1e-12)
    assert micro == pytest.approx(PAPER.average("informedness", "micro"), rel=1e-12)
    with pytest.raises(UnknownMetricError, match="unknown measure 'nope'; known measures: .*youden_index"):
        PAPER.average("nope", metrics_class=WithYouden)
    with pytest.raises(UnknownMetricError, match=r"unknown measure 'youden_idx' \(did you mean 'youden_index'\?\)"):
        PAPER.average("youden_idx", metrics_class=WithYouden)
    assert PAPER.average("YoudenIndex", metrics_class=WithYouden) == macro  # any spelling of a subclass getter


# --------------------------------------------------------------------------------------------
# Stats


def test_average_of_per_class_objects_is_the_macro_average():
    stats = ClassificationMetrics.average(ClassificationMetrics.create_from(PAPER))
    for name in ("precision", "recall", "f1_score", "matthews_correlation_coefficient", "specificity"):
        assert stats.get(name) == pytest.approx(PAPER.average(name, "macro"), rel=1e-12)


def test_average_over_folds_divides_by_the_number_of_objects():
    """Deep Netts divides by the number of distinct labels: three folds of one class tripled."""
    folds = [
        ClassificationMetrics.from_counts(tp=8, fp=2, fn=2, tn=8, class_label="yes"),
        ClassificationMetrics.from_counts(tp=6, fp=4, fn=0, tn=10, class_label="yes"),
        ClassificationMetrics.from_counts(tp=9, fp=0, fn=1, tn=10, class_label="yes"),
    ]
    stats = ClassificationMetrics.average(folds)
    accuracies = [0.8, 0.8, 19 / 20]
    assert stats.accuracy == pytest.approx(np.mean(accuracies))
    summary = stats.summary("Accuracy")
    assert summary.std == pytest.approx(np.std(accuracies))
    assert (summary.min, summary.max, summary.n, summary.n_defined) == (0.8, 0.95, 3, 3)
    assert stats.precision == pytest.approx(np.mean([0.8, 0.6, 1.0]))
    assert stats.recall == pytest.approx(np.mean([0.8, 1.0, 0.9]))
    assert stats.f_score == pytest.approx(np.mean([f.get_f1_score() for f in folds]))


def test_stats_excludes_undefined_values_and_reports_the_count():
    results = [ClassificationMetrics.from_counts(tp=0, fp=0, fn=2, tn=2), ClassificationMetrics.from_counts(tp=1, fp=1, fn=0, tn=2)]
    stats = ClassificationMetrics.average(results)
    assert stats.get("precision") == 0.5 and stats.summary("precision").n_defined == 1
    assert ClassificationMetrics.average(results, undefined="zero").get("precision") == 0.25
    assert math.isnan(ClassificationMetrics.average(results, undefined="nan").get("precision"))


def test_stats_to_dict_and_str():
    stats = ClassificationMetrics.average(ClassificationMetrics.create_from(PAPER))
    d = stats.to_dict()
    assert set(d["accuracy"]) == {"mean", "std", "min", "max", "n_defined", "n"}
    assert str(stats).startswith("Stats{accuracy=") and "f1_score=" in str(stats)
    assert ClassificationMetrics.Stats is Stats
    with pytest.raises(UnknownMetricError):
        stats.get("nope")


def test_stats_of_values_keeps_the_names_given_and_reads_them_in_any_spelling():
    stats = Stats.from_values({"f1": [0.5, 0.7], "MCC": [0.1, 0.3], "my metric": [1.0, 3.0]})
    assert stats.names == ("f1", "MCC", "my metric")  # stored as given
    assert stats.get("f1") == stats.get("f1_score") == stats.get("F1Score") == stats.f1_score == pytest.approx(0.6)
    assert stats.get("matthews_correlation_coefficient") == stats.mcc == stats.summary("mcc").mean == pytest.approx(0.2)
    assert stats.get("my metric") == stats.get("MyMetric") == stats.my_metric == 2.0
    both = Stats.from_values({"f1": [0.5], "f1_score": [0.1]})  # two spellings stored: the one given wins
    assert (both.get("f1"), both.get("f1_score"), both.get("F1")) == (0.5, 0.1, 0.1)
    with pytest.raises(UnknownMetricError, match="unknown metric 'precision'; known metrics: f1, MCC, my metric"):
        stats.get("precision")


@pytest.mark.parametrize("made", ["average", "regression average", "from_values", "from_json", "pickle"])
def test_stats_repr_shows_the_summaries_as_a_plain_mapping(made):
    import pickle

    from evalkit import RegressionMetrics

    objects = ClassificationMetrics.create_from(PAPER)
    stats = {
        "average": lambda: ClassificationMetrics.average(objects),
        "regression average": lambda: RegressionMetrics.average([RegressionMetrics.from_predictions([1, 2, 3], [1, 2, 2])]),
        "from_values": lambda: Stats.from_values({"precision": [o.get_precision() for o in objects]}),
        "from_json": lambda: Stats.from_json(ClassificationMetrics.average(objects).to_json()),
        "pickle": lambda: pickle.loads(pickle.dumps(ClassificationMetrics.average(objects))),
    }[made]()
    text = repr(stats)
    assert text.startswith("Stats(summaries={") and "Lazy" not in text and "object at 0x" not in text
    summaries = {name: stats.summary(name) for name in stats.names}
    assert text == f"Stats(summaries={summaries!r}, undefined={stats.undefined!r}, aliases={dict(stats.aliases)!r})"


def test_average_rejects_empty_and_foreign_input():
    with pytest.raises(EmptyInputError):
        ClassificationMetrics.average([])
    with pytest.raises(InvalidTypeError, match=r"'results\[1\]'"):
        ClassificationMetrics.average([ClassificationMetrics(BINARY), 3])


def test_average_of_mixed_subclasses_uses_the_common_metrics():
    stats = ClassificationMetrics.average([WithYouden(BINARY), ClassificationMetrics(BINARY)])
    assert "youden_index" not in stats.names and "accuracy" in stats.names


def test_create_from_gives_both_classes_on_request_and_stats_read_every_measure():
    cm = ConfusionMatrix.from_array([[50, 10], [5, 35]], ["negative", "positive"])
    assert [m.get_class_label() for m in ClassificationMetrics.create_from(cm)] == ["positive"]  # Deep Netts' one object
    both = ClassificationMetrics.create_from(cm, all_classes=True)
    assert [m.get_class_label() for m in both] == ["negative", "positive"]
    stats = ClassificationMetrics.average(both)
    assert stats.f1_score == stats.get("F1Score") == stats.get("f1-score") == stats.summary("f1").mean
    assert stats.mcc == stats.matthews_correlation_coefficient
    with pytest.raises(AttributeError, match="did you mean 'specificity'"):
        _ = stats.specifcity


def test_a_result_read_before_is_read_again_only_if_it_has_labels():
    class Cells:  # a duck-typed result: per-class cells, and labels only when given
        def __init__(self, labelled):
            if labelled:
                self.labels = PAPER.labels

        class_cells = property(lambda self: PAPER.class_cells)

    assert ClassificationMetrics(Cells(True), "b").get_recall() == ClassificationMetrics(PAPER, "b").get_recall()
    with pytest.raises(InvalidTypeError, match="'confusion_matrix' must be a ConfusionMatrix"):
        ClassificationMetrics(Cells(False), "b")
    created = ClassificationMetrics.create_from(Cells(True))
    assert [metrics.to_dict() for metrics in created] == [metrics.to_dict() for metrics in ClassificationMetrics.create_from(PAPER)]
