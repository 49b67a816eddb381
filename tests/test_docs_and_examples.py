"""Docs are part of the product: every code block and example runs, and the site builds strictly."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # the fast inner loop, -m 'not slow', leaves this module out

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted((ROOT / "docs" / "pages").rglob("*.md")) + [ROOT / "README.md"]
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
CODE_BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)
SHELL_BLOCK = re.compile(r"^```bash\n(.*?)^```", re.DOTALL | re.MULTILINE)


def run_env():
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_MKDOCS_2_WARNING="1")
    return env


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_python_block_of_the_page_runs(page, capsys):
    blocks = CODE_BLOCK.findall(page.read_text(encoding="utf-8"))
    namespace: dict = {"__name__": f"docs_{page.stem}"}
    for number, block in enumerate(blocks, 1):
        exec(compile(block, f"{page.name}:block{number}", "exec"), namespace)  # noqa: S102
    capsys.readouterr()


@pytest.mark.parametrize("page", [p for p in PAGES if SHELL_BLOCK.search(p.read_text(encoding="utf-8"))], ids=lambda p: str(p.relative_to(ROOT)))
def test_every_shell_block_of_the_page_runs(page, tmp_path):
    """Shell blocks (```bash) run in one shell per page, in a scratch folder, with the installed
    evalkit command on the PATH. (The README's install commands are in a ```sh block: CI runs them.)"""
    script = "set -euo pipefail\n" + "\n".join(SHELL_BLOCK.findall(page.read_text(encoding="utf-8")))
    env = dict(run_env(), PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    result = subprocess.run(["bash", "-c", script], capture_output=True, check=False, text=True, cwd=tmp_path, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip()


def test_the_readme_starts_with_the_two_commands_and_ci_runs_the_second():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = re.search(r"```sh\n(.*?)```", readme, re.DOTALL).group(1).splitlines()
    install_and_run, install_and_test = (line.split("#")[0].strip() for line in first_block[:2])
    assert install_and_run == 'python -m pip install . && evalkit'
    assert install_and_test == 'python -m pip install ".[test]" && python -m pip install --no-build-isolation confseq && ruff check && mypy evalkit && python -m pytest'
    assert readme.index("```sh") < readme.index("evalkit evaluates")  # they open the README
    assert (ROOT / ".ci" / "run").read_text(encoding="utf-8").rstrip().endswith(install_and_test)


def test_the_docs_index_shows_the_readme_commands():
    readme_block = re.search(r"```sh\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.DOTALL).group(1)
    index_block = re.search(r"```sh\n(.*?)```", (ROOT / "docs" / "pages" / "index.md").read_text(encoding="utf-8"), re.DOTALL).group(1)
    commands = [[line.split("#")[0].strip() for line in block.splitlines()[:2]] for block in (readme_block, index_block)]
    assert commands[0] == commands[1]


def test_the_package_promises_its_annotations():
    """PEP 561: a ``py.typed`` marker in the package (hatch ships every file of the package folder)."""
    assert (ROOT / "evalkit" / "py.typed").is_file()


def test_the_pages_hold_code_to_run():
    assert sum(len(CODE_BLOCK.findall(page.read_text(encoding="utf-8"))) for page in PAGES) >= 10


@pytest.mark.parametrize("script", EXAMPLES, ids=lambda p: p.name)
def test_every_example_runs(script):
    result = subprocess.run([sys.executable, str(script)], capture_output=True, check=False, text=True, env=run_env(), cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip()


def test_the_documentation_site_builds_without_warnings(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "docs" / "mkdocs.yml"), "--site-dir", str(tmp_path)],
        capture_output=True, check=False,
        text=True,
        env=run_env(),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / "porting-from-java" / "index.html").exists()


def test_the_measures_page_lists_every_registered_measure():
    from evalkit import formulas

    text = (ROOT / "docs" / "pages" / "reference" / "measures.md").read_text(encoding="utf-8")
    assert [name for name in formulas.measure_names() if f"`{name}`" not in text] == []


def test_the_porting_guide_names_every_deep_netts_method():
    text = (ROOT / "docs" / "pages" / "porting-from-java.md").read_text(encoding="utf-8")
    java = [
        "getAccuracy", "getBalancedAccuracy", "getErrorRate", "getPrecision", "getRecall", "getSpecificity",
        "getF1Score", "getFScore", "getFalsePositiveRate", "getFalseNegativeRate", "getFalseDiscoveryRate",
        "getMatthewsCorrelationCoefficient", "positiveFreqency", "negativeFreqency", "getTotal", "getClassLabel",
        "setClassLabel", "getClassIdx", "getConfusionMatrix", "createFrom", "average", "getClassCount",
        "getClassLabels", "getTotalItems", "getTruePositive", "getFalsePositive", "getFalseNegative",
        "getTrueNegative", "inc",
    ]  # fmt: skip
    assert [name for name in java if f"`{name}" not in text and f"{name}(" not in text] == []
