"""The layers of evalkit, written once: a module imports only its own layer and those below.

Every import counts, at the top of a module, inside a function (lazy) or under
``TYPE_CHECKING``, and so does a module named in a string to ``import_module`` or
``sys.modules``. The design notes (docs/pages/design.md) draw these layers.
"""

import ast
import importlib
import pathlib
import pickle
import sys

import pytest

import evalkit
from evalkit._moved import DEPRECATED_PATHS, OLD_PATHS

PACKAGE = pathlib.Path(evalkit.__file__).parent

LAYERS = (
    ("engine", ("evalkit.exceptions", "evalkit.engine")),
    ("measures", ("evalkit.measures",)),
    ("results", ("evalkit.results",)),
    ("scores", ("evalkit.scores",)),
    ("groups", ("evalkit.groups",)),
    ("comparisons", ("evalkit.comparisons",)),
    ("Java-style face", ("evalkit.java",)),
    ("scikit-learn face", ("evalkit.metrics",)),
    ("io", ("evalkit.io",)),
    ("scale", ("evalkit.scale",)),
    ("command line", ("evalkit.cli", "evalkit.__main__", "evalkit._moved", "evalkit")),
)
"""From the ground up: (name, module prefixes). A module belongs to the layer of its longest prefix."""


def module_name(path: pathlib.Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def layer_of(module: str) -> int:
    matches = [(len(prefix), floor) for floor, (_, prefixes) in enumerate(LAYERS) for prefix in prefixes
               if module == prefix or module.startswith(prefix + ".")]  # fmt: skip
    assert matches, f"{module} is on no layer: add it to LAYERS"
    return max(matches)[1]


def imported(module: str, path: pathlib.Path) -> set[str]:
    """The evalkit modules that ``module`` imports, lazily or not, or names for ``import_module``."""
    found = set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                found.add(candidate if candidate in MODULES else base)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("evalkit.") and node.value.replace(".", "").replace("_", "").isalnum():
            found.add(node.value)
    return {OLD_PATHS.get(name, name) for name in found if name == "evalkit" or name.startswith("evalkit.")} & set(MODULES)


def test_every_module_is_on_a_layer():
    for module in MODULES:
        layer_of(module)


def test_no_module_imports_a_higher_layer():
    upward = []
    for module, path in MODULES.items():
        if module == "evalkit":
            continue
        for target in sorted(imported(module, path) - {"evalkit"}):
            if layer_of(target) > layer_of(module):
                upward.append(f"{module} ({LAYERS[layer_of(module)][0]}) imports {target} ({LAYERS[layer_of(target)][0]})")
    assert not upward, "imports that run up:\n" + "\n".join(upward)


def test_the_engine_and_the_measures_know_nothing_above():
    """The contract itself can fail: a module of the engine importing a result is caught."""
    fake = PACKAGE / "engine" / "counting.py"
    assert "evalkit.results.base" not in imported("evalkit.engine.counting", fake)
    tree_text = "from evalkit.results.base import CellsResult\n"
    path = pathlib.Path(__file__).parent / "_layer_probe.py"
    try:
        path.write_text(tree_text)
        assert imported("evalkit.engine.probe", path) == {"evalkit.results.base"}
    finally:
        path.unlink()


@pytest.mark.parametrize("old", sorted(OLD_PATHS))
def test_an_old_module_path_imports_the_same_module(old):
    module = importlib.import_module(old)
    assert module is importlib.import_module(OLD_PATHS[old])
    assert module.__name__ == OLD_PATHS[old] and module.__spec__.name == OLD_PATHS[old]
    for name in getattr(module, "__all__", ()):
        assert getattr(module, name) is getattr(importlib.import_module(OLD_PATHS[old]), name)


@pytest.mark.parametrize("old", sorted(DEPRECATED_PATHS))
def test_a_moved_module_path_imports_the_same_module_with_a_warning_naming_the_new_one(old):
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=DEPRECATED_PATHS[old].replace(".", r"\.")):
        module = importlib.import_module(old)
    assert module is importlib.import_module(DEPRECATED_PATHS[old])


def test_a_class_pickled_under_an_old_path_loads():
    text = pickle.dumps(evalkit.ConfusionMatrix.from_array([[1, 2], [3, 4]], ["a", "b"]), protocol=2)  # names as text lines
    old = text.replace(b"evalkit.results.confusion_matrix", b"evalkit.confusion_matrix")
    assert old != text and pickle.loads(old) == pickle.loads(text)


def test_import_evalkit_alone_registers_every_rendering_and_the_default_metrics_class():
    """Results find their renderings and metrics class at run time: ``import evalkit`` by itself
    (a fresh interpreter, none of the test suite's imports) must register them all."""
    import subprocess
    import sys

    from evalkit.results import rendering

    code = (
        "import evalkit\n"
        "from evalkit.results import rendering\n"
        "from evalkit.measures.metrics_class import default_metrics_class\n"
        "cm = evalkit.ConfusionMatrix.from_predictions(['a', 'b'], ['a', 'a'])\n"
        "assert str(cm).startswith('Confusion Matrix') and cm._repr_html_() and cm.report().to_text()\n"
        "assert default_metrics_class() is evalkit.ClassificationMetrics\n"
        "print(' '.join(sorted(rendering._RENDERINGS)))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=PACKAGE.parent)
    assert result.returncode == 0, result.stderr
    assert set(result.stdout.split()) == set(rendering._RENDERINGS)
