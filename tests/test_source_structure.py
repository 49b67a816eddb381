"""The structure of evalkit's source, read with ``ast`` (nothing of it is run): run once, not in the fast loop.

The layers, written once: a module imports only its own layer and those below.

Every import counts, at the top of a module, inside a function (lazy) or under
``TYPE_CHECKING``, and so does a module named in a string to ``import_module`` or
``sys.modules``. The design notes (docs/pages/design.md) draw these layers.
"""

import ast
import pathlib
import re

import pytest

import evalkit
from evalkit._moved import FACES, moved_to

PACKAGE = pathlib.Path(evalkit.__file__).parent
pytestmark = pytest.mark.slow  # static checks of the source: the full run, not the fast loop

LAYERS = (
    ("engine", ("evalkit.exceptions", "evalkit._engine", "evalkit.tnorms")),
    ("measures", ("evalkit.measures", "evalkit.formulas")),
    ("results", ("evalkit._results", "evalkit.theory")),
    ("scores", ("evalkit._scores",)),
    ("groups", ("evalkit._groups",)),
    ("comparisons", ("evalkit.comparisons",)),
    ("Java-style face", ("evalkit._java",)),
    ("scikit-learn face", ("evalkit.metrics",)),
    ("io", ("evalkit.io", "evalkit.plots", "evalkit.displays", "evalkit.datasets")),
    ("scale", ("evalkit._scale", "evalkit.dask", "evalkit.spark")),
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
    return {moved_to(name) or name for name in found if name == "evalkit" or name.startswith("evalkit.")} & set(MODULES)


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
    fake = PACKAGE / "_engine" / "counting.py"
    assert "evalkit._results.base" not in imported("evalkit._engine.counting", fake)
    tree_text = "from evalkit._results.base import CellsResult\n"
    path = pathlib.Path(__file__).parent / "_layer_probe.py"
    try:
        path.write_text(tree_text)
        assert imported("evalkit._engine.probe", path) == {"evalkit._results.base"}
    finally:
        path.unlink()


def test_only_the_faces_have_public_paths():
    public = {module for module in MODULES if not any(part.startswith("_") for part in module.split("."))}
    assert public == set(FACES)



# --------------------------------------------------------------------------------------------
# annotations say what a function takes and gives: ``Any`` only where no narrower type is true.
#
# evalkit 0.1.0 had 1,496 annotations that were exactly ``Any``; the data shapes are now named
# once (``evalkit._engine._types``: ``LabelsLike``, ``ScoresLike``, ``Count``), the counted-state
# protocol gives ``Self``, the faces name the results they take, and the count may not grow back
# above 360 (half of the 715 left after the first round). Where ``Any`` stays it is true: keywords
# passed on to another function, results a registry or a window holds of any kind, matplotlib's
# and Dask's objects. Constructors give their class.


ANY_IN_0_1_0 = 1496
ANY_AT_MOST = 360


def _annotations(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            arguments = node.args
            for argument in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg):
                if argument is not None and argument.annotation is not None:
                    yield argument.annotation
            if node.returns is not None:
                yield node.returns
        elif isinstance(node, ast.AnnAssign):
            yield node.annotation


def _is_any(annotation: ast.expr) -> bool:
    return (isinstance(annotation, ast.Name) and annotation.id == "Any") or (
        isinstance(annotation, ast.Constant) and annotation.value == "Any"
    )


def count_any(source: str) -> int:
    """How many annotations of ``source`` are exactly ``Any``."""
    return sum(_is_any(annotation) for annotation in _annotations(ast.parse(source)))


def test_the_count_sees_parameters_returns_and_fields():
    source = "def f(a: Any, *b: Any, c: int = 1, **d: Any) -> Any: ...\nclass C:\n    x: Any\n    y: list[Any]\n"
    assert count_any(source) == 5  # list[Any] is narrower than Any


def test_at_most_360_annotations_are_any():
    total = sum(count_any(path.read_text(encoding="utf-8")) for path in PACKAGE.rglob("*.py"))
    assert total <= ANY_AT_MOST < ANY_IN_0_1_0 // 4, f"{total} annotations are exactly Any (at most {ANY_AT_MOST})"


def test_constructors_give_their_class():
    untyped = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef):
                continue
            is_classmethod = any(isinstance(d, ast.Name) and d.id == "classmethod" for d in node.decorator_list)
            constructor = node.name == "__init__" or (is_classmethod and node.name.startswith(("from_", "create")))
            if constructor and (node.returns is None or _is_any(node.returns)):
                untyped.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name}")
    assert not untyped, untyped


def test_no_text_of_evalkit_sends_users_to_a_moved_path():
    """Errors, docstrings and comments name the faces (``evalkit.CurveCounts``) or, for evalkit's
    own developers, the private modules, never a deprecated path (``evalkit.streaming``): only
    the table of moved paths and the lines that speak of them as such may."""
    from evalkit._moved import FACES, moved_to

    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "_moved.py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if "0.1.0" in line or "moved path" in line:
                continue
            for dotted in re.findall(r"(?<![\w.])evalkit(?:\.[A-Za-z_]\w*)+", line):
                parts = dotted.split(".")
                prefixes = [".".join(parts[:k]) for k in range(len(parts), 1, -1)]
                moved = next((prefix for prefix in prefixes if prefix in FACES or moved_to(prefix)), None)
                if moved is not None and moved not in FACES:
                    found.append(f"{path.relative_to(PACKAGE)}:{number} {dotted}")
    assert not found, found
