"""The naming rule (docs: How evalkit is built): ``get_*`` getters are measures read from one
table of counts, as Deep Netts reads them, and live only on the objects the rule names; a Java
spelling of a Python name says it is an alias."""

import importlib
import inspect
import pkgutil

import numpy as np
import pytest

import evalkit
from evalkit import ClassificationMetrics, ConfusionMatrix
from evalkit.cli import main
from evalkit.exceptions import UnknownMetricError
from evalkit.io._report import build_report

GETTER_CLASSES = {"ClassificationMetrics", "ConfusionMatrix", "CellsResult", "Evaluation", "NeighborhoodAccuracy", "Agreement",
                  "MatrixGetters", "EvaluationMetrics", "RegressionMetrics"}  # fmt: skip
"""The classes that define ``get_*`` methods: the Java-style face and the results with one table of counts."""

JAVA_ALIASES = {("ConfusionMatrix", "get_class_labels"): "labels", ("ConfusionMatrix", "get_class_count"): "len(labels)",
                ("ConfusionMatrix", "get_total_items"): "n_samples"}  # fmt: skip
"""Java spellings of a Python name: (class, getter) -> the Python name its docstring gives."""


def evalkit_classes():
    """Every class evalkit defines, once (a face's class names the face as its module)."""
    seen = set()
    for info in pkgutil.walk_packages(evalkit.__path__, "evalkit."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if inspect.isclass(value) and value.__module__.startswith("evalkit") and value not in seen:
                seen.add(value)
                yield value


def test_only_the_classes_of_the_rule_define_getters():
    defining = {cls.__name__ for cls in evalkit_classes() if any(name.startswith("get_") and inspect.isfunction(member)
                                                                   for name, member in vars(cls).items())}  # fmt: skip
    assert defining <= GETTER_CLASSES, f"get_* getters outside the naming rule: {sorted(defining - GETTER_CLASSES)}"


def test_a_java_alias_names_its_python_name():
    for (owner, getter), python_name in JAVA_ALIASES.items():
        cls = next(cls for cls in evalkit_classes() if cls.__name__ == owner)
        doc = inspect.getdoc(getattr(cls, getter)) or ""
        assert "Java's" in doc and python_name in doc and ("alias" in doc or "Python name" in doc), (owner, getter, doc)


@pytest.mark.parametrize("spelling", ["f1", "f1_score", "f1-score", "F1Score", "F1", "F1 score", "dice"])
def test_every_spelling_of_a_measure_is_the_same_measure_everywhere(spelling, tmp_path, capsys):
    cm = ConfusionMatrix.from_predictions(list("aabbc"), list("abbbc"))
    metrics = ClassificationMetrics(cm, class_label="b")
    stats = ClassificationMetrics.average(ClassificationMetrics.create_from(cm))
    assert metrics.get(spelling) == metrics.get_f1_score()
    assert stats.get(spelling) == stats.get("f1_score")
    assert cm.average(spelling) == cm.average("f1_score") and np.array_equal(cm.per_class(spelling), cm.per_class("f1_score"))
    assert build_report(cm, measures=[spelling]).measures == ("f1_score",)
    path = tmp_path / "p.csv"
    path.write_text("actual,predicted\na,a\nb,a\n", encoding="utf-8")
    assert main(["report", str(path), "--measures", spelling, "--format", "csv"]) == 0
    assert capsys.readouterr().out.startswith("name,kind,f1_score,support")


def test_an_unknown_name_suggests_the_closest_everywhere():
    cm = ConfusionMatrix.from_predictions(list("ab"), list("ab"))
    for attempt in (
        lambda: cm.average("precison"),
        lambda: cm.per_class("precison"),
        lambda: ClassificationMetrics(cm).get("precison"),
        lambda: ClassificationMetrics.average([ClassificationMetrics(cm)]).get("precison"),
        lambda: build_report(cm, measures=["precison"]),
    ):
        with pytest.raises(UnknownMetricError, match=r"'precison' \(did you mean 'precision'\?\); known"):
            attempt()
