"""JSON round trips are exact, and malformed or hostile files end in a clear FormatError."""

import json
import math

import numpy as np
import pytest
from harness import peak_mib
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from evalkit import (
    ClassificationMetrics,
    ConfusionMatrix,
    Covering,
    Evaluation,
    Faded,
    NeighborhoodAccuracy,
    NeighborhoodSystem,
    SetCoverage,
    Stats,
    ThresholdCurve,
)
from evalkit._engine import serialization as ser
from evalkit.comparisons import ModelComparison
from evalkit.exceptions import (
    EvalkitError,
    FormatError,
    InvalidArgumentError,
)

labels = st.one_of(
    st.lists(st.text(min_size=1, max_size=5), min_size=1, max_size=5, unique=True),
    st.lists(st.integers(-100, 100), min_size=1, max_size=5, unique=True),
)


@given(labels.flatmap(lambda names: st.tuples(st.just(names), hnp.arrays(np.int64, (len(names), len(names)), elements=st.integers(0, 2**62 // 25)))))
def test_confusion_matrix_round_trip(data):  # 25 cells of up to 2**62 / 25: totals near 2**62, still exact
    names, counts = data
    cm = ConfusionMatrix.from_array(counts, names)
    again = ConfusionMatrix.from_json(cm.to_json())
    assert again == cm and again.labels == cm.labels and [type(x) for x in again.labels] == [type(x) for x in cm.labels]


@given(hnp.arrays(bool, st.tuples(st.integers(1, 20), st.integers(1, 4))), st.data())
def test_evaluation_round_trip_in_every_setting(actual, data):
    predicted = data.draw(hnp.arrays(bool, actual.shape))
    soft = data.draw(hnp.arrays(np.float64, actual.shape, elements=st.floats(0, 1)))
    evaluations = [
        Evaluation.from_indicators(actual, predicted),
        Evaluation.from_indicators(actual, predicted).compact(),
        Evaluation.from_soft(actual.astype(float), soft),
        Evaluation.from_labels(actual.argmax(1), predicted.argmax(1), labels=list(range(actual.shape[1]))),
        Evaluation.from_labels(["a", "?", "b"], ["?", "a", "b"], none="?", rejection="selective"),
        Evaluation.from_ordinal(actual.sum(1), predicted.sum(1), list(range(actual.shape[1] + 1))),
    ]
    for ev in evaluations:
        assert Evaluation.from_json(ev.to_json()) == ev


def test_metrics_stats_and_accuracy_round_trip():
    cm = ConfusionMatrix.from_array([[50, 10], [5, 35]], ["negative", "positive"])
    metrics = ClassificationMetrics(cm)
    metrics.set("TrainingSeconds", 12.5)
    assert ClassificationMetrics.from_json(metrics.to_json()) == metrics
    soft = ClassificationMetrics.from_counts(tp=0.42, fp=0.18, fn=0.28, tn=0.12)
    assert ClassificationMetrics.from_json(soft.to_json()) == soft
    stats = ClassificationMetrics.average([ClassificationMetrics.from_counts(tp=0, fp=0, fn=1, tn=1), metrics])  # NaN inside
    assert Stats.from_json(stats.to_json()) == stats
    ideal = Covering("abcdefg", [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "g"}])
    accuracy = NeighborhoodSystem(ideal).evaluate(Covering("abcdefg", [{"b", "c"}, {"e", "c", "f"}, {"a", "d", "g"}]))
    again = NeighborhoodAccuracy.from_json(accuracy.to_json())
    assert again == accuracy and again.get_relative_accuracy_rate(exact=True) == 2
    assert Covering.from_json(ideal.to_json()) == ideal



def test_values_are_equal_exactly_when_their_documents_are():
    """A value (metrics, summaries, a comparison, a family, an accuracy) is equal to another of its
    type exactly when their documents are: a change the document shows makes them differ, and a
    label True is not the label 1 (Python's ``True == 1``)."""
    a = ClassificationMetrics.from_counts(tp=3, fp=1, fn=0, tn=4, class_label=1)
    assert a == ClassificationMetrics.from_counts(tp=3, fp=1, fn=0, tn=4, class_label=1)
    assert a != ClassificationMetrics.from_counts(tp=3, fp=1, fn=0, tn=4, class_label=True)
    assert a != ClassificationMetrics.from_counts(tp=3, fp=1, fn=1, tn=3, class_label=1)
    stored = ClassificationMetrics.from_counts(tp=3, fp=1, fn=0, tn=4, class_label=1)
    stored.set("TrainingSeconds", float("nan"))
    assert stored != a and stored == ClassificationMetrics.from_json(stored.to_json())  # NaN equals NaN
    comparison = ModelComparison([[0.9, 0.8], [0.7, 0.75], [0.6, 0.65]], models=["a", "b"], datasets=["x", "y", "z"])
    assert comparison == ModelComparison.from_json(comparison.to_json())
    assert comparison != ModelComparison([[0.9, 0.8], [0.7, 0.75], [0.6, 0.66]], models=["a", "b"], datasets=["x", "y", "z"])
    assert ser.same_json([True, 1], [True, 1.0]) and not ser.same_json([True], [1]) and not ser.same_json({"label": 0}, {"label": False})


def test_a_universe_of_the_positions_is_written_as_the_implied_one():
    """A family over the elements (0, 1, 2) is the family over range(3): both write no universe,
    read back equal, and so does their accuracy."""
    blocks = [{0, 1}, {2}]
    listed, implied = Covering((0, 1, 2), blocks), Covering(range(3), blocks)
    assert listed == implied and json.loads(listed.to_json())["universe"] is None
    assert Covering.from_json(listed.to_json()) == implied
    assert Covering((0, 2, 1), blocks) != implied and Covering((False, True, 2), [{False, True}, {2}]) != implied
    accuracy = NeighborhoodSystem(listed).evaluate(Covering((0, 1, 2), [{0}, {1, 2}]))
    assert accuracy == NeighborhoodSystem(implied).evaluate(Covering(range(3), [{0}, {1, 2}]))
    assert NeighborhoodAccuracy.from_json(accuracy.to_json()) == accuracy
    floats = Covering((0.0, 1.0, 2.0), blocks)  # (0.0 is the element 0, as a label 0.0 is the label 0)
    assert floats == implied and json.loads(floats.to_json())["universe"] is None


def test_values_equal_by_document_keep_what_their_comparisons_let_be_equal():
    """Weights of 1 are no weights, a numpy boolean is a boolean, and large values compare at C
    speed where nothing but numbers differ in kind."""
    system = NeighborhoodSystem(Covering("abc", [{"a", "b"}, {"c"}]))
    result = Covering("abc", [{"a"}, {"b", "c"}])
    assert system.evaluate(result) == system.evaluate(result, sample_weight=[1, 1, 1]) == system.evaluate(result, sample_weight=[1.0, 1.0, 1.0])
    assert system.evaluate(result) != system.evaluate(result, sample_weight=[1, 2, 1])
    assert "weight" not in json.loads(system.evaluate(result, sample_weight=[1, 1, 1]).to_json())["cells"]
    assert ser.same_json([np.True_, [np.False_]], [True, [False]]) and not ser.same_json([np.True_], [1]) and not ser.same_json([[1, 2]], [[True, 2]])
    values = [[0.9, 0.8], [0.7, 0.75], [0.6, 0.65]]
    assert ModelComparison(values, models=np.array([True, False]), datasets=["x", "y", "z"]) == ModelComparison(values, models=[True, False], datasets=["x", "y", "z"])

def test_a_subclass_reads_itself():
    class Mine(ClassificationMetrics):
        pass

    assert type(Mine.from_json(ClassificationMetrics.from_counts(tp=1, fp=0, fn=0, tn=1).to_json())) is Mine


def corrupt(text, **changes):
    document = json.loads(text)
    document.update(changes)
    return json.dumps(document)


CM = ConfusionMatrix.from_array([[5, 1], [2, 7]], ["cat", "dog"]).to_json()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "not valid JSON"),
        ("[1, 2]", "is a JSON object"),
        (corrupt(CM, evalkit="Stats"), "expected an evalkit ConfusionMatrix file"),
        (corrupt(CM, version=2), "format version 2 was written by a newer evalkit"),
        (corrupt(CM, version="1"), "unsupported format version"),
        (corrupt(CM, counts=[[5, -1], [2, 7]]), "finite values >= 0"),
        (corrupt(CM, counts=[[5, "1"], [2, 7]]), "must hold numbers"),
        (corrupt(CM, counts=[[2**62, 2**62], [2**62, 2**62]]), "beyond the 9223372036854775807"),
        (corrupt(CM, counts=[[5, 1e308], [1e308, 7]]), "beyond what a float64 holds"),
        (corrupt(CM, counts=[[5, True], [2, 7]]), "must hold integers"),
        (corrupt(CM, counts=[[5, 1], [2, 7], [1, 1]]), "must be a list of 2 rows"),
        (corrupt(CM, counts=[[5, 1, 0], [2, 7, 0]]), "has 3 entries but 2 were declared"),
        (corrupt(CM, counts=[[5, 10**30], [2, 7]]), "too large for int64"),
        (corrupt(CM, labels=["cat", "cat"]), "twice"),
        (corrupt(CM, labels=["cat", None]), "strings, numbers or booleans"),
        (corrupt(CM, labels=["cat", 1]), "mix types"),
        (corrupt(CM, labels="cat"), "must be a list of labels"),
        (corrupt(CM, labels=[]), "'labels' is empty"),
        (corrupt(CM, labels=list(range(70000))), "more than the"),
        ('{"evalkit": "ConfusionMatrix", "version": 1, "labels": ["a"], "counts": [[NaN]]}', "non-standard JSON number NaN"),
        ("[" * 100000 + "]" * 100000, "not valid JSON"),
    ],
)
def test_hostile_confusion_matrix_files(text, message):
    with pytest.raises(FormatError, match=message) as caught:
        ConfusionMatrix.from_json(text)
    assert isinstance(caught.value, ValueError)


EV = Evaluation.from_labels(["a", "b", "b"], ["a", "a", "b"]).to_json()
SAMPLE_CELLS = json.loads(EV)["sample_cells"]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"sample_cells": {**SAMPLE_CELLS, "index": [0, 1, 9]}}, "points past"),
        ({"sample_cells": {**SAMPLE_CELLS, "tn": [1, 0, 1]}}, "has 3 entries but 5 were declared"),
        ({"sample_cells": {**SAMPLE_CELLS, "weight": [1, 1]}}, "has 2 entries but 3 were declared"),
        ({"sample_cells": {**SAMPLE_CELLS, "weight": [1, -1, 1]}}, "finite values >= 0"),
        ({"sample_cells": {**SAMPLE_CELLS, "extra": []}}, "unknown entries"),
        ({"ordered": "yes"}, "must be true or false"),
        ({"setting": "fuzzy"}, "'setting' must be one of .* got 'fuzzy'"),
        ({"class_cells": {"tp": [1, 1], "fp": [1, 0], "fn": [0, 1]}}, "missing field 'tn'"),
        ({"confusion": None}, "go together"),
        ({"n_rejected": -1}, "must be in 0"),
    ],
)
def test_hostile_evaluation_files(changes, message):
    with pytest.raises(FormatError, match=message):
        Evaluation.from_json(corrupt(EV, **changes))


def test_hostile_metrics_stats_and_covering_files():
    metrics = ClassificationMetrics.from_counts(tp=1, fp=2, fn=3, tn=4).to_json()
    with pytest.raises(FormatError, match="exactly tp, fp, fn, tn"):
        ClassificationMetrics.from_json(corrupt(metrics, counts={"tp": 1}))
    with pytest.raises(FormatError, match="must be >= 0"):
        ClassificationMetrics.from_json(corrupt(metrics, counts={"tp": 1, "fp": -2, "fn": 3, "tn": 4}))
    stats = ClassificationMetrics.average([ClassificationMetrics.from_counts(tp=1, fp=2, fn=3, tn=4)]).to_json()
    document = json.loads(stats)
    document["summaries"]["accuracy"]["n_defined"] = 5
    with pytest.raises(FormatError, match="must be in 0..1"):
        Stats.from_json(json.dumps(document))
    covering = Covering("abc", [{"a"}, {"b", "c"}]).to_json()
    with pytest.raises(FormatError, match="points past"):
        Covering.from_json(corrupt(covering, blocks=[[0], [1, 7]]))
    with pytest.raises(FormatError, match="one list per label"):
        Covering.from_json(corrupt(covering, blocks=[[0]]))


def test_labels_that_json_cannot_hold_are_refused_when_writing():
    with pytest.raises(FormatError, match="labels must be strings, numbers or booleans"):
        ConfusionMatrix([1 + 2j, 3j]).to_json()


def test_a_checkpoint_of_a_scripts_metrics_class_says_how_to_read_it(tmp_path):
    import subprocess
    import sys

    from evalkit import ClassificationMetrics, ConfusionMatrix
    from evalkit.exceptions import FormatError

    script = tmp_path / "train.py"
    script.write_text(
        "from evalkit import ClassificationMetrics, ConfusionMatrix\n"
        "class Mine(ClassificationMetrics):\n"
        "    def get_twice(self):\n"
        "        return 2 * self.get_recall()\n"
        f"open({str(tmp_path / 'checkpoint.json')!r}, 'w').write(ConfusionMatrix.from_predictions([0, 1], [0, 1], metrics_class=Mine).to_json())\n",
        encoding="utf-8",
    )
    subprocess.run([sys.executable, str(script)], check=True)
    text = (tmp_path / "checkpoint.json").read_text(encoding="utf-8")
    with pytest.raises(FormatError, match=r"defined in a script \(__main__\).*from_json\(\.\.\., metrics_class=Mine\)"):
        ConfusionMatrix.from_json(text)

    class Mine(ClassificationMetrics):
        def get_twice(self):
            return 2 * self.get_recall()

    assert ConfusionMatrix.from_json(text, metrics_class=Mine).average("twice") == 2.0


@pytest.mark.parametrize("remainder", [[[0, [-5.0]]], [[0, [0.75]]], [[1, [1e-300]]], [[9, [1e-20]]], "not a list"])
def test_a_document_whose_exact_rest_does_not_round_to_its_counts_is_refused(remainder):
    """The exact rest of float counts must be at least 0 and round to the count it belongs to."""
    import json

    from evalkit import RiskCoverage

    cm = ConfusionMatrix(["a", "b"])
    cm.update(["a"], ["a"], sample_weight=[1.0])
    cm.update(["a"], ["a"], sample_weight=[2.0**-60])
    document = json.loads(cm.to_json())
    assert ConfusionMatrix.from_json(json.dumps(document)) == cm and "exact" in document
    document["exact"] = remainder
    with pytest.raises(FormatError):
        ConfusionMatrix.from_json(json.dumps(document))
    curve = RiskCoverage.from_predictions(["a", "a"], ["a", "a"], [0.5, 0.5], sample_weight=[1.0, 2.0**-70])
    document = json.loads(curve.to_json())
    assert RiskCoverage.from_json(json.dumps(document)) == curve
    document["exact"] = remainder
    with pytest.raises(FormatError):
        RiskCoverage.from_json(json.dumps(document))


def doc(kind, **fields):
    return json.dumps({"evalkit": kind, "version": 1, **fields})


def altered(text, **changes):
    document = json.loads(text)
    document.update(changes)
    return json.dumps(document)


EVALUATION = Evaluation.from_labels(["a", "b", "b", "c", "a"], ["a", "b", "c", "c", "b"])
MATRIX = ConfusionMatrix.from_predictions(["a", "b", "b"], ["a", "b", "a"])


METRICS = ClassificationMetrics.from_counts(tp=3, fp=1, fn=2, tn=4, class_label="a")


STATS = ClassificationMetrics.average([METRICS, ClassificationMetrics.from_counts(tp=1, fp=2, fn=0, tn=5)])


READERS = [ConfusionMatrix, ClassificationMetrics, Evaluation, Stats, Covering, NeighborhoodAccuracy]


VALID = {
    ConfusionMatrix: MATRIX.to_json(),
    ClassificationMetrics: METRICS.to_json(),
    Evaluation: EVALUATION.to_json(),
    Stats: STATS.to_json(),
    Covering: Covering("abc", [{"a"}, {"b", "c"}]).to_json(),
    NeighborhoodAccuracy: NeighborhoodSystem(Covering("abc", [{"a"}, {"b", "c"}])).evaluate(Covering("abc", [{"a", "b"}, {"c"}])).to_json(),
}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=6) | st.dictionaries(st.text(max_size=8), children, max_size=6),
    max_leaves=30,
)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _paths(child, (*prefix, index))


def _replace(document, path, value):
    if not path:
        return value
    target = document
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return document


def _read(reader, text):
    try:
        reader.from_json(text)
    except EvalkitError:
        pass


def test_evaluation_cells_that_disagree_with_its_confusion_table_are_refused():
    document = json.loads(EVALUATION.to_json())
    pairs = document["confusion"]
    assert (pairs["actual"][0], pairs["predicted"][0]) == (0, 0)
    pairs["predicted"][0] = 1  # an "a" read as "b": the cells (and their sums) no longer follow from the table
    with pytest.raises(FormatError, match="'confusion' and 'class_cells' disagree: tp"):
        Evaluation.from_json(json.dumps(document))


def test_evaluation_sample_cells_that_disagree_with_its_class_cells_are_refused():
    ev = Evaluation.from_label_sets([{1, 2}, {2}], [{1}, {1, 2}])
    document = json.loads(ev.to_json())
    document["sample_cells"]["fp"][1] += 1
    with pytest.raises(FormatError, match="'class_cells' and 'sample_cells' disagree: fp"):
        Evaluation.from_json(json.dumps(document))


def test_soft_cells_beside_a_confusion_table_are_refused():
    soft = json.loads(Evaluation.from_soft([[0.2, 0.9]], [[0.6, 0.4]]).to_json())
    table = json.loads(EVALUATION.to_json())
    soft["confusion"], soft["confusion_labels"] = table["confusion"], table["confusion_labels"]
    with pytest.raises(FormatError, match="'confusion' cannot go with soft cells"):
        Evaluation.from_json(json.dumps(soft))


def test_every_setting_round_trips_through_the_agreement_checks():
    evaluations = [
        EVALUATION,
        Evaluation.from_labels([1, 2, 3, 1], [1, 9, 3, 9], none=9, rejection="selective"),
        Evaluation.from_labels([1, 2, 1], [1, 1, 2], sample_weight=[0.5, 2.0, 1.25]),
        Evaluation.from_ordinal(["lo", "hi", "mid"], ["mid", "hi", "lo"], ["lo", "mid", "hi"]),
        Evaluation.from_soft(np.random.default_rng(1).random((6, 3)), np.random.default_rng(2).random((6, 3)), tnorm="minimum"),
        Evaluation.from_hierarchy(["cat", "trout"], ["dog", "trout"], {"cat": "mammal", "dog": "mammal", "mammal": "animal", "trout": "animal"}),
        EVALUATION.compact(),
    ]
    for ev in evaluations:
        assert Evaluation.from_json(ev.to_json()) == ev


def test_stored_metric_values_cannot_shadow_the_counts():
    text = altered(METRICS.to_json(), values={"f1_score": 0.99})
    with pytest.raises(FormatError, match=r"'values.f1_score' is 0.99, but 'f1_score' is computed from the counts \(they give 0.666667\)"):
        ClassificationMetrics.from_json(text)
    extra = ClassificationMetrics.from_json(altered(METRICS.to_json(), values={"training_seconds": 12.5}))
    assert extra.get("training_seconds") == 12.5 and extra.get_f1_score() == pytest.approx(2 / 3)


def test_neighborhood_accuracy_kinds_that_the_cells_contradict_are_refused():
    accuracy = NeighborhoodSystem(Covering("abc", [{"a"}, {"b", "c"}])).evaluate(Covering("abc", [{"a", "b"}, {"b", "c"}]))
    assert (accuracy.ideal_kind, accuracy.result_kind) == ("partition", "covering")
    with pytest.raises(FormatError, match=r"'result_kind' says partition, but the cells put elements in \[1, 2\] blocks"):
        NeighborhoodAccuracy.from_json(altered(accuracy.to_json(), result_kind="partition"))
    with pytest.raises(FormatError, match=r"'ideal_kind' says covering, but the cells put elements in \[1\] blocks"):
        NeighborhoodAccuracy.from_json(altered(accuracy.to_json(), ideal_kind="covering"))
    assert NeighborhoodAccuracy.from_json(altered(accuracy.to_json(), result_kind="family")).result_kind == "family"  # an empty block


@pytest.mark.parametrize(
    ("summary", "message"),
    [
        ({"mean": 0.9, "std": 0.1, "min": 0.2, "max": 0.5, "n_defined": 2, "n": 2}, "min <= mean <= max"),
        ({"mean": 0.3, "std": -0.1, "min": 0.2, "max": 0.5, "n_defined": 2, "n": 2}, "0 <= std"),
        ({"mean": 0.3, "std": 0.4, "min": 0.2, "max": 0.5, "n_defined": 2, "n": 2}, r"std <= \(max - min\) / 2"),
        ({"mean": 0.3, "std": 0.1, "min": 0.2, "max": 0.5, "n_defined": 3, "n": 2}, "'n_defined' must be in 0..2"),
        ({"mean": None, "std": 0.1, "min": 0.2, "max": 0.5, "n_defined": 0, "n": 2}, "undefined \\(null\\) together"),
    ],
)
def test_stats_that_cannot_summarize_any_values_are_refused(summary, message):
    with pytest.raises(FormatError, match=message):
        Stats.from_json(doc("Stats", undefined="exclude", summaries={"accuracy": summary}))


def test_an_undefined_summary_reads_back():
    stats = ClassificationMetrics.average([ClassificationMetrics.from_counts(tp=0, fp=0, fn=0, tn=3)])
    assert Stats.from_json(stats.to_json()) == stats and math.isnan(stats.precision)


@pytest.mark.parametrize("version", [2, 99])
def test_a_newer_format_version_says_so(version):
    with pytest.raises(FormatError, match=f"format version {version} was written by a newer evalkit"):
        ConfusionMatrix.from_json(altered(MATRIX.to_json(), version=version))


@pytest.mark.parametrize("version", [0, "1", True, None, 1.0])
def test_an_unknown_format_version_is_refused(version):
    with pytest.raises(FormatError, match="unsupported format version"):
        ConfusionMatrix.from_json(altered(MATRIX.to_json(), version=version))


def test_duplicate_keys_are_refused_at_any_depth():
    with pytest.raises(FormatError, match="the key 'counts' appears twice"):
        ConfusionMatrix.from_json('{"evalkit": "ConfusionMatrix", "version": 1, "labels": [0], "counts": [[1]], "counts": [[2]]}')
    nested = METRICS.to_json().replace('"tp": 3', '"tp": 3, "tp": 30')
    with pytest.raises(FormatError, match="the key 'tp' appears twice"):
        ClassificationMetrics.from_json(nested)


def test_a_huge_declared_covering_is_refused_before_allocating():
    text = doc("Covering", n_elements=2**28, universe=None, labels=["a"], blocks=[[0]])
    with pytest.raises(FormatError, match=r"'n_elements' must be in 1..16777216, got 268435456"):
        Covering.from_json(text)
    assert peak_mib(lambda: Covering.from_json(text)) < 1


def test_a_confusion_matrix_of_65536_labels_is_refused_before_allocating():
    text = doc("ConfusionMatrix", labels=list(range(65536)), counts=[])
    with pytest.raises(FormatError, match="'counts' would need 4,294,967,296 cells, more than the 16,777,216 allowed"):
        ConfusionMatrix.from_json(text)
    assert peak_mib(lambda: ConfusionMatrix.from_json(text)) < 20  # the label list itself


def test_a_document_longer_than_the_limit_is_refused_before_parsing():
    text = MATRIX.to_json()
    with ser.limits(max_bytes=len(text) - 1), pytest.raises(FormatError, match=f"the document has {len(text)} characters, more than the {len(text) - 1} allowed"):
        ConfusionMatrix.from_json(text)
    assert ConfusionMatrix.from_json(text) == MATRIX  # the limit is back outside the block


def test_the_default_byte_limit_bounds_the_memory_of_parsing():
    text = " " * (ser.Limits().max_bytes + 1)
    assert peak_mib(lambda: ConfusionMatrix.from_json(text)) < 1


def test_limits_can_be_raised_for_a_block():
    big = ConfusionMatrix.from_array(np.ones((100, 100), dtype=np.int64))
    with ser.limits(max_entries=100), pytest.raises(FormatError, match="more than the 100 allowed"):
        ConfusionMatrix.from_json(big.to_json())
    with ser.limits(max_entries=100), ser.limits(max_entries=10_000):
        assert ConfusionMatrix.from_json(big.to_json()) == big
    with ser.limits(max_labels=3), pytest.raises(FormatError, match="has 100 labels, more than the 3 allowed"):
        ConfusionMatrix.from_json(big.to_json())


@pytest.mark.parametrize(("changes", "message"), [({"max_files": 3}, "unknown limits"), ({"max_bytes": 0}, "'max_bytes' must be a positive integer"),
                                                  ({"max_labels": 2.5}, "'max_labels' must be a positive integer")])  # fmt: skip
def test_bad_limits_are_refused(changes, message):
    with pytest.raises(InvalidArgumentError, match=message), ser.limits(**changes):
        pass


@settings(max_examples=150)
@given(st.sampled_from(READERS), st.data(), json_values)
def test_fuzzed_documents_raise_only_evalkit_errors(reader, data, value):
    document = json.loads(VALID[reader])
    path = data.draw(st.sampled_from(list(_paths(document))))
    text = json.dumps(_replace(document, path, value))
    with ser.limits(max_entries=1 << 16):
        assert peak_mib(lambda: _read(reader, text)) < 64


@given(st.sampled_from(READERS), json_values)
def test_random_json_raises_only_evalkit_errors(reader, value):
    _read(reader, json.dumps(value))
    _read(reader, json.dumps({"evalkit": reader.__name__, "version": 1, "payload": value}))


@given(st.sampled_from(READERS), st.binary(max_size=200))
def test_random_bytes_raise_only_evalkit_errors(reader, raw):
    _read(reader, raw)


def test_copies_equal_their_originals_and_nothing_else():
    import pickle

    from evalkit import CostMatrix, Hierarchy
    from evalkit._scale.streaming import CalibrationCounts, CurveCounts, LabelSetCounts

    curve = ThresholdCurve.from_scores([0, 1, 1], [0.2, 0.8, 0.6])
    assert curve == pickle.loads(pickle.dumps(curve)) == ThresholdCurve.from_scores([0, 1, 1], [0.2, 0.8, 0.6])
    assert curve != ThresholdCurve.from_scores([0, 1, 1], [0.2, 0.8, 0.5])
    costs = CostMatrix.from_array([[0, 1], [2, 0]], ["a", "b"])
    assert costs == pickle.loads(pickle.dumps(costs)) and costs != CostMatrix.from_array([[0, 1], [3, 0]], ["a", "b"])
    assert CostMatrix.from_array([[0, 1], [2, 0]], [True, False]) != CostMatrix.from_array([[0, 1], [2, 0]], [1, 0])
    tree = Hierarchy({"a": None, "b": "a", "c": "a"})
    assert tree == pickle.loads(pickle.dumps(tree)) and tree != Hierarchy({"a": None, "b": "a", "c": "b"})
    for counts, batches in ((CurveCounts(), [([0, 1], [0.2, 0.8]), ([1], [0.5])]), (CalibrationCounts(bins=5), [([0, 1], [0.2, 0.8]), ([1], [0.5])])):
        whole = type(counts)(**({"bins": 5} if isinstance(counts, CalibrationCounts) else {}))
        for y, s in batches:
            counts.update(y, s)
        whole.update([0, 1, 1], [0.2, 0.8, 0.5])
        assert counts == whole == pickle.loads(pickle.dumps(counts))
    first, second = LabelSetCounts(), LabelSetCounts()
    first.update([{"a"}], [{"a"}])
    second.update([{"a"}], [{"a"}])
    assert first == second and first != LabelSetCounts()


def test_a_weighted_evaluation_of_one_large_and_several_small_weights_reads_back():
    for weights in ([1e17, 1e-3, 0.5, 2, 3e-5], [1e-300, 1e-303, 5e-301, 2e-300, 3e-305]):
        evaluation = Evaluation.from_labels([0, 1, 1, 0, 0], [0, 1, 0, 0, 1], sample_weight=weights)
        assert Evaluation.from_json(evaluation.to_json()) == evaluation


def test_float_counts_stay_floats_through_json():
    metrics = ClassificationMetrics.from_counts(tp=2.0, fp=3.0, fn=1.0, tn=4.0)
    back = ClassificationMetrics.from_json(metrics.to_json())
    assert type(back.get_true_positive()) is float and back == metrics
    big = ClassificationMetrics.from_counts(tp=2.0**64, fp=3.0, fn=1.0, tn=4.0)
    assert ClassificationMetrics.from_json(big.to_json()) == big
    ones = Evaluation.from_labels([0, 1, 1], [0, 1, 0], sample_weight=[1.0, 1.0, 1.0])  # float weights that are each 1: a weighted result still
    assert repr(Evaluation.from_json(ones.to_json()).n_samples) == repr(ones.n_samples) == "3.0"


def test_a_covering_of_tuples_reads_back_and_its_result_pickles():
    import pickle

    from evalkit import Covering, NeighborhoodSystem

    covering = Covering([(1, 2), (3, 4), (5, 6)], [{(1, 2), (3, 4)}, {(5, 6)}])
    assert Covering.from_json(covering.to_json()) == covering
    assert covering.to_sets() == (frozenset({(1, 2), (3, 4)}), frozenset({(5, 6)})) and covering.neighborhood((5, 6)) == frozenset({(5, 6)})
    result = NeighborhoodSystem(covering).evaluate(Covering([(5, 6), (1, 2), (3, 4)], [{(1, 2)}, {(3, 4), (5, 6)}]))
    copy = pickle.loads(pickle.dumps(result))
    assert copy.get_absolute_accuracy() == result.get_absolute_accuracy() and copy.ideal_kind == result.ideal_kind


def test_sums_scaled_below_the_least_float_are_written_whole_and_read_back_exact():
    """Exact sums scaled far down keep rests below the least float (2**-1074): a document writes
    them as whole units ({"units": "0x..."}) and reads them back to the last unit; it hung
    before, halving an ever smaller rest."""
    tiny = SetCoverage.from_sets([0, 1, 0, 0], np.array([[1, 0], [0, 1], [1, 0], [1, 0]]), groups=["a", "a", "b", "c"],
                                 sample_weight=[5e-324, 5e-324, 1.0, 1.0]).scaled(0.5)  # fmt: skip
    text = tiny.to_json()
    assert '"units"' in text and SetCoverage.from_json(text) == tiny
    faded = Faded(ConfusionMatrix([0, 1]), factor=1e-10)
    for k in range(40):
        faded.update([k % 2], [1], sample_weight=[0.3])
    assert Faded.from_json(faded.to_json()).result == faded.result
    document = json.loads(text)
    position, parts = document["exact_by_class"][0]
    for bad in ({"units": "zz"}, {"units": 5}, {"units": "0x1", "more": 1}):
        document["exact_by_class"][0] = [position, [*parts[:-1], bad]]
        with pytest.raises(FormatError, match="units below the least float"):
            SetCoverage.from_json(json.dumps(document))


def test_an_evaluations_document_keeps_its_labels_as_they_are_and_reads_them_as_labels():
    """Its labels were written through numpy: 2**63 + 1 and 2**63 + 2 became one float (a
    document from_json refused), 1 beside 2.5 came back 1.0, and "x\\x00" came back "x". A
    document's labels are read as labels are: a list, within the limit of labels."""
    for y_true, y_pred in (([2**63 + 1, 2**63 + 2, 3], [2**63 + 1, 3, 2**63 + 2]), ([1, 2.5], [2.5, 1]), (["x\x00", "y"], ["y", "y"])):
        evaluation = Evaluation.from_labels(y_true, y_pred)
        read = Evaluation.from_json(evaluation.to_json())
        assert read == evaluation and [type(label) for label in read.labels] == [type(label) for label in evaluation.labels]
    document = json.loads(Evaluation.from_labels(["a", "b", "c"], ["a", "b", "b"]).to_json())
    with pytest.raises(FormatError, match="field 'labels' must be a list of labels"):
        Evaluation.from_json(json.dumps({**document, "labels": {"a": 1, "b": 2, "c": 3}}))
    with ser.limits(max_labels=2), pytest.raises(FormatError, match="field 'labels' has 3 labels, more than the 2 allowed"):
        Evaluation.from_json(json.dumps(document))
    with pytest.raises(FormatError, match=r"field 'confusion.exact' gives the rests of float counts, but 'confusion.counts' holds whole numbers"):
        Evaluation.from_json(json.dumps({**document, "confusion": {**document["confusion"], "exact": "zz"}}))


def test_an_evaluation_document_of_cells_beyond_float64_is_a_format_error():
    """Per-sample cells whose sums pass float64's largest raised CountOverflowError from the
    check of the document's parts; a document's fault is a FormatError."""
    document = json.loads(Evaluation.from_labels(["a", "b"], ["a", "a"]).compact().to_json())
    document["sample_cells"] = {"tp": [1e308, 1e308], "fp": [0, 1], "fn": [0, 1], "tn": [1, 0], "weight": [1, 1]}
    with pytest.raises(FormatError, match="the counts sum to inf"):
        Evaluation.from_json(json.dumps(document))
