"""Public paths: only the faces, and every path that moved still imports the same module, with a
warning naming the face of its names (for one release).
"""

import importlib
import pickle
import sys
import types

import pytest
from test_source_structure import MODULES, PACKAGE

import evalkit
from evalkit._moved import FACES, FOLDER_PATHS, MOVED


@pytest.mark.parametrize("old", sorted(MOVED))
def test_a_moved_module_path_imports_the_same_module_with_a_warning_naming_the_new_one(old):
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=MOVED[old].replace(".", r"\.")) as caught:
        module = importlib.import_module(old)
    assert module is importlib.import_module(MOVED[old])
    assert module.__name__ == MOVED[old] and module.__spec__.name == MOVED[old]
    if MOVED[old] in FACES:
        assert f"is deprecated: import from {MOVED[old]}" in str(caught[-1].message)
        return
    for name in getattr(module, "__all__", ()):
        found = getattr(module, name)
        if isinstance(found, (type, types.FunctionType)) and found.__module__ in FACES:  # its public place is named in the warning
            assert any(f"from {found.__module__}" in str(w.message) and name in str(w.message) for w in caught), (name, [str(w.message) for w in caught])


def test_a_module_inside_a_moved_folder_is_found_once():
    """``evalkit.results.base`` is ``evalkit._results.base``: the same module, never a second copy."""
    for old, new in FOLDER_PATHS.items():
        if old.count(".") != 1:
            continue
        for path in sorted(MODULES):
            if path.startswith(new + ".") and path.rpartition(".")[2] != "__main__":
                sys.modules.pop(old + path[len(new):], None)
                with pytest.warns(DeprecationWarning):
                    assert importlib.import_module(old + path[len(new):]) is importlib.import_module(path)


def test_a_class_pickled_under_an_old_path_loads():
    text = pickle.dumps(evalkit.ConfusionMatrix.from_array([[1, 2], [3, 4]], ["a", "b"]), protocol=2)  # names as text lines
    old = text.replace(b"cevalkit\nConfusionMatrix\n", b"cevalkit.confusion_matrix\nConfusionMatrix\n")
    assert old != text
    sys.modules.pop("evalkit.confusion_matrix", None)
    with pytest.warns(DeprecationWarning, match="import ConfusionMatrix from evalkit"):
        assert pickle.loads(old) == pickle.loads(text)


def test_import_evalkit_alone_registers_every_rendering_and_the_default_metrics_class():
    """Results find their renderings and metrics class at run time: ``import evalkit`` by itself
    (a fresh interpreter, none of the test suite's imports) must register them all."""
    import subprocess
    import sys

    from evalkit._results import rendering

    code = (
        "import evalkit\n"
        "from evalkit._results import rendering\n"
        "from evalkit.measures._metrics_class import default_metrics_class\n"
        "cm = evalkit.ConfusionMatrix.from_predictions(['a', 'b'], ['a', 'a'])\n"
        "assert str(cm).startswith('Confusion Matrix') and cm._repr_html_() and cm.report().to_text()\n"
        "assert default_metrics_class() is evalkit.ClassificationMetrics\n"
        "print(' '.join(sorted(rendering._RENDERINGS)))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=PACKAGE.parent)
    assert result.returncode == 0, result.stderr
    assert set(result.stdout.split()) == set(rendering._RENDERINGS)


def test_every_public_class_and_function_names_its_face_as_its_module():
    """``ConfusionMatrix.__module__ == "evalkit"``: pickles, ``help()`` and the API reference show
    the path users import from, the names a face imports on first use too."""
    wrong = []
    for face in FACES:
        module = importlib.import_module(face)
        for name in module.__all__:
            found = getattr(module, name)
            home = getattr(found, "__module__", None)
            if isinstance(found, (type, types.FunctionType)) and home.startswith("evalkit") and home not in FACES:
                wrong.append(f"{face}.{name} names {home}")
    assert not wrong, wrong
    assert pickle.dumps(evalkit.ConfusionMatrix.from_array([[1]], ["a"]), protocol=0).count(b"evalkit._") == 0


def test_import_evalkit_leaves_the_readers_and_the_streams_for_their_first_use():
    import subprocess

    code = ("import sys, evalkit\n"
            "print(sorted(m for m in ('evalkit._scale.streaming', 'evalkit.io._readers', 'evalkit._scores.gains', 'pathlib') if m in sys.modules))\n"
            "print(evalkit.LabelSetCounts.__module__, evalkit.io.read_batches.__module__)")  # fmt: skip
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=PACKAGE.parent)
    assert result.stdout.split("\n")[:2] == ["[]", "evalkit evalkit.io"]


def test_a_public_class_keeps_its_type_hints_under_its_face():
    """``__module__`` names the face, where the names of a class's annotations are not: they
    are evaluated where the class is defined, so ``typing.get_type_hints`` and
    ``attrs.resolve_types`` still work."""
    import typing

    import attrs

    for cls in (evalkit.ThresholdCurve, evalkit.Stats, evalkit.SummedState, evalkit.IntervalCoverage, evalkit.Calibration, evalkit.ByGroup,
                evalkit.Agreement, evalkit.RegressionMetrics, evalkit.LabelSetCounts, evalkit.Evaluation, evalkit.io.CoverageReport):  # fmt: skip
        assert cls.__module__ in FACES
        typing.get_type_hints(cls)
        if attrs.has(cls):
            attrs.resolve_types(cls)


def test_a_moved_path_read_as_an_attribute_warns_at_the_line_that_reads_it():
    import warnings

    sys.modules.pop("evalkit.curves", None)
    vars(evalkit).pop("curves", None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        evalkit.curves  # noqa: B018
    assert [w.filename for w in caught if w.category is DeprecationWarning] == [__file__]


def test_a_moved_path_imports_without_the_optional_packages():
    """Finding the faces of a moved module's names imports nothing optional (matplotlib)."""
    import subprocess

    code = ("import sys, warnings\nsys.modules['matplotlib'] = None\nwarnings.simplefilter('ignore')\n"
            "import evalkit.curves, evalkit.results.base, evalkit.streaming\nprint(evalkit.curves.ThresholdCurve.__name__)")  # fmt: skip
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=PACKAGE.parent)
    assert result.returncode == 0 and result.stdout.strip() == "ThresholdCurve", result.stderr


def test_with_warnings_as_errors_every_read_of_a_moved_attribute_raises():
    import subprocess

    code = ("import evalkit\nfor _ in range(2):\n    try:\n        evalkit.curves\n    except DeprecationWarning:\n        print('raised')")  # fmt: skip
    result = subprocess.run([sys.executable, "-W", "error::DeprecationWarning", "-c", code], capture_output=True, text=True, check=False, cwd=PACKAGE.parent)
    assert result.stdout.split() == ["raised", "raised"], result.stderr
