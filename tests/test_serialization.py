"""JSON round trips are exact, and malformed or hostile files end in a clear FormatError."""

import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from evalkit import (
    ClassificationMetrics,
    ConfusionMatrix,
    Covering,
    Evaluation,
    NeighborhoodAccuracy,
    NeighborhoodSystem,
    Stats,
)
from evalkit.exceptions import FormatError

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
        ({"setting": "fuzzy"}, "field 'setting'"),
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
