"""Files written by an earlier release still load, equal to the same objects built today.

The files under ``tests/fixtures/release-<version>/`` were written by that release with
``tests/fixtures/make_release_fixtures.py``; module paths inside its pickles are the paths of
that release, so a module that moves must keep its old path importable.
"""

import pathlib
import pickle
import sys

import pytest

FIXTURES = pathlib.Path(__file__).parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
from make_release_fixtures import release_objects

sys.path.remove(str(FIXTURES))

TODAY = release_objects()
FILES = sorted(path for path in FIXTURES.glob("release-*/*") if path.suffix in (".json", ".pickle") and path.stem != "public_names")


def test_every_release_has_files_of_every_kind():
    releases = sorted({path.parent.name for path in FILES})
    assert releases, "no release files found"
    for release in releases:
        assert {path.stem for path in FILES if path.parent.name == release and path.suffix == ".pickle"} == set(TODAY)


@pytest.mark.parametrize("path", FILES, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_a_release_file_loads_equal_to_todays_object(path):
    expected = TODAY[path.stem]
    if path.suffix == ".pickle":
        loaded = pickle.loads(path.read_bytes())
    else:
        loaded = type(expected).from_json(path.read_text())
    assert type(loaded) is type(expected)
    assert loaded == expected


PUBLIC_NAMES = sorted((release, module, name) for release in sorted(FIXTURES.glob("release-*/public_names.json"))
                      for module, names in __import__("json").loads(release.read_text()).items() for name in names)  # fmt: skip


def test_every_public_name_of_a_release_keeps_its_path():
    """Every public name each module of a release defined or listed in ``__all__``
    (``public_names.json``, read from that release's source) is still there, under the same
    module path."""
    import importlib

    lost = [f"{module}.{name}" for _, module, name in PUBLIC_NAMES if not hasattr(importlib.import_module(module), name)]
    assert PUBLIC_NAMES and not lost, f"public names lost: {lost}"
