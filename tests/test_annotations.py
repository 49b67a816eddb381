"""Annotations say what a function takes and gives: ``Any`` only where no narrower type is true.

evalkit 0.1.0 had 1,496 annotations that were exactly ``Any``; the data shapes are now named
once (``evalkit.engine._types``: ``LabelsLike``, ``ScoresLike``, ``Count``), the counted-state
protocol gives ``Self``, the faces name the results they take, and the count may not grow back
above 360 (half of the 715 left after the first round). Where ``Any`` stays it is true: keywords
passed on to another function, results a registry or a window holds of any kind, matplotlib's and
Dask's objects. Constructors give their class.
"""

import ast
import pathlib

import evalkit

PACKAGE = pathlib.Path(evalkit.__file__).parent
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
