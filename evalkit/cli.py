"""The ``evalkit`` command (also ``python -m evalkit``).

With no arguments it prints a report on the example data bundled with evalkit, so a
newcomer sees a real report at once.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from evalkit import __version__
from evalkit.confusion_matrix import ConfusionMatrix
from evalkit.datasets import EXAMPLE_NAME, load_example
from evalkit.report import classification_report

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="evalkit",
        description="Evaluate a classifier. With no arguments: a report on the bundled example data.",
    )
    parser.add_argument("--version", action="version", version=f"evalkit {__version__}")
    commands = parser.add_subparsers(dest="command")
    report = commands.add_parser("report", help="print the confusion matrix and per-class metrics (default)")
    report.add_argument("--digits", type=int, default=3, help="digits after the decimal point (default 3)")
    return parser


def _example_report(digits: int) -> str:
    actual, predicted = load_example()
    matrix = ConfusionMatrix.from_predictions(actual, predicted)
    title = (
        f"evalkit report: bundled example {EXAMPLE_NAME} "
        f"({matrix.get_total_items()} samples, {matrix.get_class_count()} classes)"
    )
    return f"{title}\n\n{matrix}\n\n{classification_report(matrix, digits=digits)}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    arguments = _parser().parse_args(argv)
    text = _example_report(getattr(arguments, "digits", 3))
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:  # the reader (``| head``) left early: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
