"""Files written by an earlier release still load, equal to the same objects built today.

The files under ``tests/fixtures/release-<version>/`` were written by that release with
``tests/fixtures/make_release_fixtures.py``; module paths inside its pickles are the paths of
that release, so a module that moves must keep its old path importable.
"""

import math
import pathlib
import pickle
import sys
import warnings

import pytest

from evalkit import Stats
from evalkit._moved import MOVED

FIXTURES = pathlib.Path(__file__).parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
from make_release_fixtures import group_objects, release_objects

sys.path.remove(str(FIXTURES))

TODAY = release_objects()
FILES = sorted(path for path in FIXTURES.glob("release-*/*") if path.suffix in (".json", ".pickle") and path.stem not in ("public_names", "module_names"))
BEFORE_PRIVATE = FIXTURES / "before-private-modules"
"""Pickles written, and the public names of every public module path, just before only the
faces kept public paths (commit a0d157d)."""


def moved_loaded(load):
    """``load()``, where the only warnings allowed are ``DeprecationWarning`` of moved paths."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        found = load()
    moved = (" is deprecated", " is no longer a name of ")
    assert all(w.category is DeprecationWarning and any(text in str(w.message) for text in moved) for w in caught), [str(w.message) for w in caught]
    return found


def test_every_release_has_files_of_every_kind():
    releases = sorted({path.parent.name for path in FILES})
    assert releases, "no release files found"
    for release in releases:
        assert {path.stem for path in FILES if path.parent.name == release and path.suffix == ".pickle"} == set(TODAY)


@pytest.mark.parametrize("path", FILES, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_a_release_file_loads_equal_to_todays_object(path):
    expected = TODAY[path.stem]
    if path.suffix == ".pickle":
        loaded = moved_loaded(lambda: pickle.loads(path.read_bytes()))
    else:
        loaded = type(expected).from_json(path.read_text())
    assert type(loaded) is type(expected)
    _same_as_today(loaded, expected)


def _same_as_today(loaded, expected):
    """Equal; a ``Stats`` (summaries of values, not counts) to the last bit of its means: 0.1.0
    summed them in numpy's order, today every mean of values sums correctly rounded (``math.fsum``),
    and a document keeps the means it was written with."""
    if not isinstance(expected, Stats):
        assert loaded == expected
        return
    mine, theirs = loaded.to_dict(), expected.to_dict()
    assert mine.keys() == theirs.keys()
    for name, summary in mine.items():
        for key, value in summary.items():
            assert value == theirs[name][key] or math.isclose(value, theirs[name][key], rel_tol=4e-16, abs_tol=1e-300) or (value != value and theirs[name][key] != theirs[name][key]), (name, key)  # noqa: PLR0124


@pytest.mark.parametrize("path", sorted(BEFORE_PRIVATE.glob("*.pickle")), ids=lambda path: path.name)
def test_a_pickle_of_the_layer_folders_loads_equal_to_todays_object(path):
    expected = TODAY[path.stem]
    loaded = moved_loaded(lambda: pickle.loads(path.read_bytes()))
    assert type(loaded) is type(expected)
    _same_as_today(loaded, expected)


PUBLIC_NAMES = sorted((release, module, name) for release in sorted([*FIXTURES.glob("release-*/public_names.json"), BEFORE_PRIVATE / "public_names.json"])
                      for module, names in __import__("json").loads(release.read_text()).items() for name in names)  # fmt: skip


def test_every_public_name_of_a_release_keeps_its_path():
    """Every public name each module of a release defined or listed in ``__all__``
    (``public_names.json``, read from that release's source) is still there, under the same
    module path."""
    import importlib

    lost = [f"{module}.{name}" for _, module, name in PUBLIC_NAMES if not moved_loaded(lambda module=module, name=name: hasattr(importlib.import_module(module), name))]
    assert PUBLIC_NAMES and not lost, f"public names lost: {lost}"
    assert len(__import__("json").loads((BEFORE_PRIVATE / "public_names.json").read_text())) == 85  # every public path there was


MODULE_NAMES = sorted((release.parent.name, module, name) for release in sorted(FIXTURES.glob("release-*/module_names.json"))
                      for module, names in __import__("json").loads(release.read_text()).items() for name in names)  # fmt: skip
PUBLIC = {(release, module, name) for release, module, name in PUBLIC_NAMES}


def test_every_name_a_module_of_a_release_gave_is_still_found():
    """Every attribute each module of a release gave (``module_names.json``: what it defined and
    the evalkit objects it imported, as ``evalkit.metrics.UndefinedMetricWarning`` and
    ``evalkit.curves``) is still there: its public names silently, a name it only imported and
    no longer has with a ``DeprecationWarning`` that names its home, and each is what the name
    said (a class or function of that name, a module)."""
    import importlib
    import types
    import warnings

    import evalkit

    assert MODULE_NAMES and {module for _, module, _ in MODULE_NAMES} >= {"evalkit", "evalkit.metrics", "evalkit.curves"}
    problems = []
    for release, module, name in MODULE_NAMES:
        imported = moved_loaded(lambda module=module: importlib.import_module(module))  # a moved module warns as it is imported
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            found = getattr(imported, name, None)
        public = ((release, module, name) in PUBLIC or module == "evalkit") and f"{module}.{name}" not in MOVED
        if found is None:
            problems.append(f"{module}.{name} is lost")
        elif public and caught:
            problems.append(f"{module}.{name} is public in {release} but warns: {caught[0].message}")
        elif [w.category for w in caught] not in ([], [DeprecationWarning]):
            problems.append(f"{module}.{name} gives {[str(w.message) for w in caught]}, not one DeprecationWarning")
        elif not isinstance(found, types.ModuleType) and getattr(found, "__name__", name) != name and module != "evalkit":
            problems.append(f"{module}.{name} is {found!r}")
    assert not problems, "\n".join(problems)
    assert evalkit.metrics.UndefinedMetricWarning is evalkit.exceptions.UndefinedMetricWarning


def test_import_evalkit_alone_gives_every_module_of_a_release_as_an_attribute():
    """``import evalkit; evalkit.curves.ThresholdCurve`` (a fresh interpreter): every module the
    release's ``evalkit`` had as an attribute is found, imported on first use (the scikit-learn
    face, the command line and Dask are not loaded by ``import evalkit``): a face silently, a
    moved path with a ``DeprecationWarning``."""
    import json
    import subprocess

    from evalkit._moved import FACES, MOVED

    release_names = sorted({name for _, module, name in MODULE_NAMES if module == "evalkit"})
    faces = [face.partition(".")[2] for face in FACES if "." in face]
    code = (
        "import sys, types, warnings\n"
        "warnings.simplefilter('error')\n"
        "import evalkit\n"
        "lazy = [name for name in ('evalkit.metrics', 'evalkit.cli', 'evalkit.dask', 'evalkit.spark') if name in sys.modules]\n"
        f"faces = {{name: isinstance(getattr(evalkit, name, None), types.ModuleType) for name in {faces!r} if name not in ('dask', 'spark')}}\n"
        "ranking_listed = 'ranking' in dir(evalkit)\n"
        "warnings.simplefilter('ignore', DeprecationWarning)\n"
        f"found = {{name: hasattr(evalkit, name) for name in {release_names!r}}}\n"
        "print(__import__('json').dumps([lazy, faces, found, evalkit.curves.ThresholdCurve.__name__, 'dask' in dir(evalkit), ranking_listed]))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=pathlib.Path(__file__).parent)
    assert result.returncode == 0, result.stderr
    lazy, faces, found, curve, listed, moved_listed = json.loads(result.stdout)
    assert lazy == [], f"imported by `import evalkit` alone: {lazy}"
    assert faces and all(faces.values()), faces
    assert found and all(found.values()), found
    assert "curves" in found and "evalkit.curves" in MOVED and curve == "ThresholdCurve" and listed and not moved_listed
    sys.modules.pop("evalkit.curves", None)
    with pytest.warns(DeprecationWarning, match="ThresholdCurve from evalkit"):
        __import__("importlib").import_module("evalkit.curves")


def test_an_unknown_attribute_of_evalkit_is_an_attribute_error():
    import evalkit

    with pytest.raises(AttributeError, match="no attribute 'curve'"):
        evalkit.curve  # noqa: B018
    assert not hasattr(evalkit, "__wrapped__")


@pytest.mark.parametrize("name", sorted(group_objects()))
def test_a_by_group_pickled_before_its_counts_were_sparse_loads_equal(name):
    """A ``ByGroup`` pickled when it held a dense ``groups x labels x labels`` table loads as
    today's sparse one: equal, and every read and merge works on it."""
    expected = group_objects()[name]
    loaded = pickle.loads((FIXTURES / "before-sparse-groups" / f"{name}.pickle").read_bytes())
    assert loaded == expected and pickle.loads(pickle.dumps(loaded)) == expected
    assert loaded.values("accuracy" if name != "by_group_scores" else "roc_auc") == expected.values("accuracy" if name != "by_group_scores" else "roc_auc")
    assert loaded.merge(expected) == expected.merge(expected)


def test_a_by_group_pickle_of_an_unknown_layout_says_which_format_is_stable():
    import evalkit
    from evalkit.exceptions import FormatError

    state = group_objects()["by_group_labels"].__getstate__()
    del state["overall"]
    with pytest.raises(FormatError, match="pickles load within a minor release; JSON documents"):
        evalkit.ByGroup.__new__(evalkit.ByGroup).__setstate__(state)


def _label_set_counts_before_declared() -> dict:
    """The label-set counts whose JSON documents and pickles in ``before-declared/`` were written
    by the code before ``LabelSetCounts`` became a declared kind (commit 657bdb5): the same
    updates, counted today."""
    from evalkit import LabelSetCounts

    grown = LabelSetCounts()
    grown.update([{"a"}, {"a", "b"}, set(), {"c"}], [{"a"}, {"b"}, {"c"}, {"c", "a"}])
    weighted = LabelSetCounts(["x", "y", "z"], keep_pairs=True)
    weighted.update([{"x"}, {"x", "y"}, {"z"}], [{"x"}, {"y"}, set()], sample_weight=[0.1, 2.5, 1e-20])
    events = LabelSetCounts(["x", "y"], keep_pairs=True)
    events.update([{"x"}, {"x"}, {"x"}, {"x"}], [{"y"}, {"x"}, {"x", "y"}, {"x", "y"}])
    return {"grown": grown, "fixed_weighted": weighted, "events": events}


def test_label_set_counts_written_before_weightless_samples_kept_their_labels_read_as_counted_today():
    """Documents written before the counts kept the samples of weight 0 holding a label (by the
    commit before 'idle', 8b21987): a window's reads, its batches counted again (a review found
    its document refused: the batches, counted again, held labels its result did not), and
    counts alone read equal to the same samples counted today but for those labels' samples."""
    from evalkit import Windowed
    from evalkit._scale.streaming import LabelSetCounts

    window = Windowed.from_json((FIXTURES / "before-idle" / "label_set_window_zero_weight.json").read_text())
    today = Windowed(LabelSetCounts(), size=3)
    today.update([["a"], ["b"]], [["a"], ["c"]], sample_weight=[1, 0])
    today.update([["b"]], [["b"]])
    assert window.result == today.result and window.result.labels == ("a", "b", "c")
    window.update([["c"]], [["c"]])  # the weighted "a" leaves; "b" and "c" stay with their samples
    today.update([["c"]], [["c"]])
    assert window.result == today.result
    counts = LabelSetCounts.from_json((FIXTURES / "before-idle" / "label_set_counts_zero_weight.json").read_text())
    assert counts.labels == ("a", "b", "c") and counts.average("f1_score", "macro") == LabelSetCounts().counted([["a"]], [["a"]]).average("f1_score", "macro")


@pytest.mark.parametrize("path", sorted((FIXTURES / "before-declared").glob("label_set_counts_*")), ids=lambda path: path.name)
def test_label_set_counts_written_before_they_were_declared_read_as_counted_today(path):
    """Whole counts read back equal; the weighted counts, whose float sums then rounded at each
    addition (today they are exact), give the same numbers to the rounding of those sums."""
    expected = _label_set_counts_before_declared()[path.stem.removeprefix("label_set_counts_")]
    loaded = pickle.loads(path.read_bytes()) if path.suffix == ".pickle" else type(expected).from_json(path.read_text())
    assert loaded.labels == expected.labels and loaded.keep_pairs == expected.keep_pairs and loaded._fixed == expected._fixed
    if path.stem.endswith("weighted"):
        assert math.isclose(loaded.n_samples, expected.n_samples, rel_tol=1e-15)
    else:
        assert loaded == expected and type(loaded).from_json(loaded.to_json()) == loaded
    for average in ("micro", "macro", "samples"):
        assert math.isclose(loaded.average("f1_score", average), expected.average("f1_score", average), rel_tol=1e-15)
    if loaded.keep_pairs:
        assert loaded._pairs.equals(expected._pairs) or path.stem.endswith("weighted")


@pytest.mark.parametrize("suffix", [".json", ".pickle"])
def test_a_window_of_weighted_label_sets_saved_before_counts_its_batches_again(suffix):
    """A window saved by the code before ``LabelSetCounts`` summed weights exactly holds sums
    that rounded (0.1 + 0.2 + 0.7 - 0.1 ...): restored, it counts its result again from the
    batches it holds, so that the samples leaving it later leave nothing behind."""
    from evalkit import LabelSetCounts, Windowed

    path = FIXTURES / "before-declared" / f"label_set_window_weighted{suffix}"
    loaded = pickle.loads(path.read_bytes()) if suffix == ".pickle" else Windowed.from_json(path.read_text())
    today = Windowed(LabelSetCounts(["a", "b"]), size=4)
    today.update([{"a"}, {"a", "b"}], [{"a"}, {"b"}], sample_weight=[0.1, 0.2])
    today.update([{"b"}], [{"b"}], sample_weight=[0.7])
    assert loaded.result == today.result
    for _ in range(5):
        for window in (loaded, today):
            window.update([{"a"}], [{"a"}])
    assert loaded.result == today.result and len(loaded) == 4 and loaded.result.n_samples == 4


def test_label_set_documents_written_before_with_a_residue_of_rounded_sums_read():
    """Float sums the code before left after taking parts away (2.8e-17 of a sample no kind
    holds any more) read, as that code read them; a window of them counts its batches again."""
    from evalkit import LabelSetCounts, Windowed

    folder = FIXTURES / "before-declared"
    residue = LabelSetCounts.from_json((folder / "label_set_residue.json").read_text())
    assert residue.labels == ("a", "b") and residue.n_samples == 0
    window = Windowed.from_json((folder / "label_set_window_residue.json").read_text())
    assert window.result == LabelSetCounts().counted([{"b", "c"}, {"b"}, {"a", "b"}], [set(), set(), set()], sample_weight=[0.5, 1.0, 0.1])


@pytest.mark.parametrize("suffix", [".json", ".pickle"])
def test_set_coverage_of_dense_tables_saved_before_keeps_its_fixed_classes(suffix):
    """Counts an earlier build saved as dense groups x classes tables (commit 3ddeeb6, whose
    classes were always fixed) read as counted today, still refusing a class outside them."""
    from evalkit import SetCoverage
    from evalkit.exceptions import UnknownLabelError

    path = FIXTURES / "before-declared" / f"set_coverage_dense_fixed{suffix}"
    if suffix == ".pickle":
        with warnings.catch_warnings():  # (that build's module paths are deprecated: said once a process)
            warnings.simplefilter("ignore", DeprecationWarning)
            loaded = pickle.loads(path.read_bytes())
    else:
        loaded = SetCoverage.from_json(path.read_text())
    assert loaded == SetCoverage.from_sets(["a", "b", "a"], [["a"], ["a", "b"], ["b"]], labels=["a", "b"], groups=["x", "y", "x"])
    with pytest.raises(UnknownLabelError):
        loaded.update(["zz"], [["zz"]], groups=["x"])


def test_set_coverage_saved_empty_with_its_groups_counts_only_the_groups_it_gets():
    """The empty state of grouped counts kept its groups' names before SetCoverage was declared
    (commit fec67f9); read today, it holds none of them, and neither does a window saved of it."""
    from evalkit import SetCoverage

    folder = FIXTURES / "before-declared"
    empty = pickle.loads((folder / "set_coverage_grouped_empty.pickle").read_bytes())
    assert empty.groups == () and empty.n_samples == 0
    empty.update(["a"], [["a"]], groups=["x"])
    assert empty.groups == ("x",) and empty.group_coverage() == {"x": 1.0} and SetCoverage.from_json(empty.to_json()) == empty
    window = pickle.loads((folder / "set_coverage_grouped_window.pickle").read_bytes())
    window.update(["b"], [["a"]], groups=["z"])
    assert window.result.groups == ("y", "z") and window.result == SetCoverage.from_sets(["a", "b"], [["a"], ["a"]], labels=["a", "b"], groups=["y", "z"])
