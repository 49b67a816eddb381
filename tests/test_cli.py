"""The evalkit command: with no arguments a report on the bundled example."""

import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from evalkit import ConfusionMatrix, __version__
from evalkit.cli import main
from evalkit.datasets import example_path, load_example

ROOT = Path(__file__).resolve().parent.parent


def test_main_prints_the_example_report(capsys):
    assert main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("evalkit report: bundled example iris_predictions.csv (150 samples, 3 classes)")
    assert "Confusion Matrix [actual, predicted]" in out
    assert "  versicolor |           0 |          47 |           3 |" in out
    for line in ("micro avg", "macro avg", "weighted avg", "accuracy", "cohen kappa", "mcc"):
        assert line in out


def test_report_subcommand_takes_digits(capsys):
    assert main(["report", "--digits", "2"]) == 0
    assert "accuracy           0.97" in capsys.readouterr().out


def test_python_dash_m_and_the_console_script_run():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    result = subprocess.run([sys.executable, "-m", "evalkit"], capture_output=True, text=True, env=env)
    assert result.returncode == 0 and "macro avg" in result.stdout
    scripts = {entry.name: entry.value for entry in metadata.entry_points(group="console_scripts")}
    assert scripts.get("evalkit") == "evalkit.cli:main"
    script = Path(sys.executable).parent / "evalkit"
    result = subprocess.run([str(script)], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.startswith("evalkit report")


def test_version():
    result = subprocess.run([sys.executable, "-m", "evalkit", "--version"], capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert result.stdout.strip() == f"evalkit {__version__}"


def test_the_bundled_example():
    actual, predicted = load_example()
    assert example_path().name == "iris_predictions.csv"
    cm = ConfusionMatrix.from_predictions(actual, predicted)
    assert cm.to_array().tolist() == [[50, 0, 0], [0, 47, 3], [0, 2, 48]]
