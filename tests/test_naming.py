"""The naming rule (docs: How evalkit is built): ``get_*`` getters are measures read from one
table of counts, as Deep Netts reads them, and live only on the objects the rule names; a Java
spelling of a Python name says it is an alias."""

import importlib
import inspect
import pkgutil

import evalkit

GETTER_CLASSES = {"ClassificationMetrics", "ConfusionMatrix", "CellsResult", "Evaluation", "NeighborhoodAccuracy", "Agreement",
                  "MatrixGetters", "EvaluationMetrics", "RegressionMetrics"}  # fmt: skip
"""The classes that define ``get_*`` methods: the Java-style face and the results with one table of counts."""

JAVA_ALIASES = {("ConfusionMatrix", "get_class_labels"): "labels", ("ConfusionMatrix", "get_class_count"): "len(labels)",
                ("ConfusionMatrix", "get_total_items"): "n_samples"}  # fmt: skip
"""Java spellings of a Python name: (class, getter) -> the Python name its docstring gives."""


def evalkit_classes():
    for info in pkgutil.walk_packages(evalkit.__path__, "evalkit."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if inspect.isclass(value) and value.__module__ == module.__name__:
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
