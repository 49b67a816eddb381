"""The ``evalkit`` command (also ``python -m evalkit``).

``evalkit`` alone prints a report on the example data bundled with evalkit.

``evalkit report FILE`` evaluates a prediction file: a CSV/TSV table, a JSON Lines file, or two
one-column files (actual, then predicted). Single-label by default; ``--multi-label`` reads
label sets (separated by ``--separator``); ``--score COLUMN`` turns a score into a binary
prediction with ``--threshold``. Output as text, Markdown, JSON or CSV, to the terminal or
``--output``; ``--plot FILE.png`` draws the confusion matrix (or per-class bars); ``--html FILE``
writes one self-contained page with the table, the confusion matrix as a heat map and, with
``--score``, the ROC and precision-recall curves of the scores.

``evalkit aa-rar FILE`` prints the absolute accuracy and relative accuracy rate (the neighborhood-system criterion) of a
result against the ideal label sets (``--exact`` shows the fractions).

Files are read in batches (``evalkit.cli._files``, the command's own file loops): memory is
bounded by the counts, not by the file. Every bad input ends with a one-line message naming the
file and the line, and exit status 2.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import math
import os
import sys
import time
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from io import StringIO
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from evalkit import __version__
from evalkit._engine import moved_names
from evalkit._engine.serialization import json_safe
from evalkit._groups.neighborhood import NeighborhoodAccuracy
from evalkit._results.multiplicity import PAIRWISE_CORRECTIONS
from evalkit._scores.calibration import MAX_STORED_BINS
from evalkit._scores.curves import ThresholdCurve  # noqa: F401  (a name this module gave in a release)
from evalkit.cli._files import (
    stream_groups,
    stream_interval_coverage,
    stream_label_sets,
    stream_labels,
    stream_over_time,
    stream_regression,
    stream_risk_coverage,
    stream_scores,
    stream_set_coverage,
)
from evalkit.comparisons._comparison import MISSING, PAIRWISE_TESTS, ModelComparison, PairwiseTests
from evalkit.exceptions import EvalkitError, InputFileError, InvalidArgumentError
from evalkit.io._coverage_report import CoverageReport
from evalkit.io._datasets import EXAMPLE_NAME, NEIGHBORHOOD_EXAMPLE_NAME, example_path
from evalkit.io._html import regression_page
from evalkit.io._label_codes import option_list
from evalkit.io._readers import DEFAULT_COLUMNS, EMPTY_LABEL, header, read_labels
from evalkit.io._report import AREAS, COUNTS, DEFAULT_MEASURES, build_report, column_key
from evalkit.measures._averaging import UNDEFINED_POLICIES
from evalkit.measures._plugins import find_measure, find_metrics_class
from evalkit.measures._registry import Measure, get_measure

__all__ = ["main"]

OUTPUT_FORMATS = ("text", "markdown", "json", "csv")


def _input_options(command: argparse.ArgumentParser, actual: str, predicted: str) -> None:
    command.add_argument("files", nargs="*", metavar="FILE", help="one table (CSV, TSV, JSON Lines) or two one-column files")
    command.add_argument(f"--{actual}", dest="actual", metavar="COLUMN", help=f"column of the {actual} values")
    command.add_argument(f"--{predicted}", dest="predicted", metavar="COLUMN", help=f"column of the {predicted} values")
    command.add_argument("--weight", metavar="COLUMN", help="column of sample weights (finite numbers >= 0); every count is then weighted")
    command.add_argument("--delimiter", help="CSV delimiter (default: tab for .tsv, else comma)")
    command.add_argument("--labels", help="comma-separated labels: fixes their order; any other label is an error")
    command.add_argument("--batch-size", type=int, default=100_000, help="rows read per batch (default 100000)")
    command.add_argument("--output", metavar="FILE", help="write the result to FILE instead of the terminal")
    command.add_argument("--format", choices=OUTPUT_FORMATS, default="text", help="output format (default text)")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="evalkit",
        description="Evaluate classifiers. With no command: a report on the bundled example data.",
        epilog="Columns default to the first of actual/y_true/true/label/target/truth/ideal and "
        "predicted/y_pred/pred/prediction/output/result. Labels are read as text.",
    )
    parser.add_argument("--version", action="version", version=f"evalkit {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    report = commands.add_parser("report", help="per-class report with averages, accuracy, kappa and MCC (default)",
                                 description="Per-class report of a prediction file; no file: the bundled example.")  # fmt: skip
    _input_options(report, "actual", "predicted")
    report.add_argument("--regression", action="store_true",
                        help="the columns are numbers (a regressor's true values and predictions): MAE, MSE, RMSE, R², ... in exact sums")  # fmt: skip
    report.add_argument("--multi-label", action="store_true", help="values are label sets split by --separator")
    report.add_argument("--separator", help="label-set separator of --multi-label (default '|')")
    report.add_argument("--score", metavar="COLUMN", help="a score column (instead of --predicted): predict --positive when score >= --threshold")
    report.add_argument("--threshold", type=float, help="score threshold of --score, in [0, 1] (default 0.5)")
    report.add_argument("--positive", help="label --score predicts at or above the threshold (default '1')")
    report.add_argument("--negative", help="label --score predicts below the threshold (default '0')")
    report.add_argument("--scores", metavar="COLUMNS",
                        help="one score column per class (the class is the column's name), comma-separated, or PREFIX* for the columns "
                             "starting with PREFIX (the class is the rest of the name): per-class roc_auc and average_precision columns; "
                             "the predicted class is the highest score unless --predicted is given")  # fmt: skip
    report.add_argument("--calibration", nargs="?", const="top_label", choices=("top_label", "classwise"),
                        help="with --score or --scores: the calibration of the scores (ECE, MCE, RMSCE, the debiased RMSCE, the Brier score "
                             "and its parts, log loss, Spiegelhalter's p) and, with --html, the reliability diagram; multi-class scores: "
                             "top_label (default) or classwise")  # fmt: skip
    report.add_argument("--bins", type=int, metavar="N", help="equal-width bins of --calibration (default 15); memory grows with the bins only")
    report.add_argument("--thresholds", type=int, metavar="N",
                        help="with --score or --scores: count the ROC and precision-recall curves at N evenly spaced thresholds in [0, 1] "
                             "(memory grows with N only) instead of at every distinct score (exact areas; memory grows with the distinct scores)")  # fmt: skip
    report.add_argument("--confidence", metavar="COLUMN",
                        help="selective prediction: a confidence column beside --actual and --predicted; the risk-coverage report "
                             "(AURC, excess AURC, the risk at each coverage and the coverage at each risk) and, with --html, its curve")  # fmt: skip
    report.add_argument("--sets", metavar="COLUMN",
                        help="prediction sets: a column of label sets (split by --separator) beside --actual; their coverage (per class, "
                             "per size, per --group column), mean size, singletons and empty sets")  # fmt: skip
    report.add_argument("--interval", metavar="LOW,HIGH",
                        help="prediction intervals: the lower and upper bound columns beside --actual (numbers); their coverage, mean "
                             "width and interval (Winkler) score at --interval-level, and coverage per bin of --edges")  # fmt: skip
    report.add_argument("--interval-level", type=float, metavar="LEVEL", help="with --interval: the level the intervals are meant to cover (default 0.9)")
    report.add_argument("--edges", metavar="E1,E2,...",
                        help="with --interval: bin edges of the prediction (--predicted, or each interval's midpoint): coverage per bin")
    report.add_argument("--group", metavar="COLUMNS",
                        help="evaluate by group: one or more group columns, comma-separated (several: their intersections); "
                             "a row per group with each measure's macro average, the support, small groups (--min-size) marked")  # fmt: skip
    report.add_argument("--min-size", type=float, metavar="N", help="with --group: mark groups with fewer samples as small")
    report.add_argument("--measures", default=",".join(DEFAULT_MEASURES), help="comma-separated measure names (columns)")
    report.add_argument("--metrics-class", metavar="CLASS",
                        help="package.module:Class (a ClassificationMetrics subclass) or an installed plugin's name: its getters are measures")
    report.add_argument("--sort-by", metavar="MEASURE", help="order the classes from best to worst by a measure (its direction)")
    report.add_argument("--digits", type=int, default=3, help="digits after the decimal point (default 3)")
    report.add_argument("--undefined", choices=UNDEFINED_POLICIES, default="exclude",
                        help="undefined (0/0) values in averages: left out (exclude, the default), counted as 0 or 1, or nan")  # fmt: skip
    report.add_argument("--ci", action="store_true", help="add bootstrap (BCa) confidence intervals of the averages and the summary")
    report.add_argument("--ci-level", type=float, metavar="LEVEL", help="the confidence level of --ci (default 0.95)")
    report.add_argument("--plot", metavar="FILE.png", help="also draw the confusion matrix (or per-class bars) to FILE.png")
    report.add_argument("--html", metavar="FILE", help="also write a self-contained HTML page (with --score: ROC and precision-recall curves)")
    report.add_argument("--window", type=int, metavar="N", help="the measures over time: of the last N samples, every --step samples (default N)")
    report.add_argument("--tumbling", type=int, metavar="N", help="the measures over time: of every N samples in turn")
    report.add_argument("--period", metavar="DURATION", help="the measures over time: of the last DURATION (1h, 30m, 7d; or a number in the unit of --time-column) every --step")
    report.add_argument("--time-column", metavar="COLUMN", help="with --period: the time of each row (numbers, or ISO 8601 dates and times; rows in time order)")
    report.add_argument("--step", metavar="N", help="with --window: samples between rows (default N); with --period: a duration (default the period)")
    report.add_argument("--monitor", type=float, metavar="LEVEL",
                        help="with --window, --tumbling or --period: watch the accuracy (or --monitor-measure) for a fall below LEVEL, "
                             "with false alarms controlled (an e-detector, or confidence sequences of segments); the alarms in the report and on its charts")  # fmt: skip
    report.add_argument("--monitor-measure", default="accuracy", metavar="NAME",
                        help="with --monitor: the measure to watch (default accuracy; recall, precision, F1, ... of --monitor-label or "
                             "averaged by --monitor-average; cohen_kappa, matthews_correlation_coefficient)")  # fmt: skip
    report.add_argument("--monitor-label", metavar="LABEL", help="with --monitor: the class of --monitor-measure")
    report.add_argument("--monitor-average", choices=("micro", "macro", "weighted"),
                        help="with --monitor: watch this average of --monitor-measure (an F1, ...) by confidence sequences of segments")  # fmt: skip
    report.add_argument("--monitor-every", type=int, metavar="N",
                        help="with --monitor-average (or a measure other than a proportion): the samples between the checkpoints where segments start and "
                             "are read (default 1000)")  # fmt: skip
    report.add_argument("--monitor-alpha", type=float, metavar="A", help="with --monitor: the chance of any false alarm over the whole stream (default 0.01)")
    report.add_argument("--monitor-arl", type=float, metavar="N", help="with --monitor: instead, the average number of samples to a false alarm")

    aa_rar = commands.add_parser("aa-rar", help="absolute accuracy and relative accuracy rate (neighborhood systems)",
                                 description="AA and RAR of a result against the ideal label sets; no file: Table 1 of the neighborhood-system paper.")  # fmt: skip
    _input_options(aa_rar, "ideal", "result")
    aa_rar.add_argument("--separator", default="|", help="label-set separator (default '|')")
    aa_rar.add_argument("--exact", action="store_true", help="also show AA and RAR as exact fractions")
    compare = commands.add_parser("compare", help="many models: over data sets (one table) or on one test set (prediction files)",
                                  description="One CSV table (a row per data set, a column per model, the first column naming the data "
                                              "sets): average ranks, Friedman's and Iman-Davenport's tests, critical differences and "
                                              "pairwise tests. Several prediction files of one test set: every pair of models compared "
                                              "(McNemar by default) with adjusted p-values.")  # fmt: skip
    compare.add_argument("files", nargs="+", metavar="FILE", help="a table of results, or two prediction files or more")
    compare.add_argument("--measure", help="the table's measure (its direction: lower is better for losses); files: the measure compared")
    compare.add_argument("--lower", action="store_true", help="lower values of the table are better (default: the measure's direction)")
    compare.add_argument("--test", choices=PAIRWISE_TESTS, default="nemenyi", help="pairwise test over data sets (default nemenyi)")
    compare.add_argument("--method", choices=("mcnemar", "mcnemar-midp", "bca", "percentile"), default="mcnemar",
                         help="paired test of prediction files (default mcnemar; bca or percentile: a paired bootstrap of --measure)")  # fmt: skip
    compare.add_argument("--correction", choices=PAIRWISE_CORRECTIONS, help="the correction of the p-values for their number (default holm; nemenyi needs none)")
    compare.add_argument("--alpha", type=float, default=0.05, help="significance level of the critical difference (default 0.05)")
    compare.add_argument("--missing", choices=MISSING, default="refuse", help="a missing cell: refused (default) or its data set dropped")
    compare.add_argument("--actual", metavar="COLUMN", help="prediction files: column of the actual values")
    compare.add_argument("--predicted", metavar="COLUMN", help="prediction files: column of the predicted values")
    compare.add_argument("--delimiter", help="CSV delimiter (default: tab for .tsv, else comma)")
    compare.add_argument("--batch-size", type=int, default=100_000, help="rows of a prediction file read per batch (default 100000)")
    compare.add_argument("--format", choices=("text", "markdown", "latex", "json", "csv", "document"), default="text",
                         help="output format (default text); json and csv: the results a script reads; document: a table's "
                              "stored document (ModelComparison.from_json reads it)")  # fmt: skip
    compare.add_argument("--digits", type=int, default=3, help="digits after the decimal point (default 3)")
    compare.add_argument("--plot", metavar="FILE.png", help="also draw the critical-difference diagram (files: the p-values) to FILE.png")
    compare.add_argument("--html", metavar="FILE", help="a table: also write a self-contained HTML page with the critical-difference diagram")
    compare.add_argument("--output", metavar="FILE", help="write the result to FILE instead of the terminal")
    return parser


# --------------------------------------------------------------------------------------------
# values of a batch


PROGRESS_AFTER = 1.0
"""Seconds of reading after which a terminal shows the rows read so far and the rate."""


class _Progress:
    """Rows read and the rate, on a terminal's stderr, once reading takes longer than
    ``PROGRESS_AFTER`` seconds."""

    def __init__(self) -> None:
        self.start, self.shown = time.perf_counter(), False

    def __call__(self, rows: int) -> None:
        elapsed = time.perf_counter() - self.start
        if elapsed >= PROGRESS_AFTER:
            rate = f", {rows / elapsed:,.0f} rows/s" if elapsed > 0 else ""
            print(f"\rread {rows:,} rows{rate}", end="", file=sys.stderr, flush=True)
            self.shown = True

    def done(self) -> None:
        if self.shown:
            print(file=sys.stderr)


def _progress() -> _Progress | None:
    return _Progress() if sys.stderr.isatty() else None


# --------------------------------------------------------------------------------------------
# commands


def _measures(arguments: argparse.Namespace) -> tuple[list[Measure | str], Measure | str | None]:
    """The columns and the sort measure, found before any file is read (an unknown name is an
    error at once): counts and score areas by name, measures in --metrics-class, else among
    evalkit's measures and the plugins'."""
    metrics_class = None if arguments.metrics_class is None else find_metrics_class(arguments.metrics_class)
    names = [name.strip() for name in arguments.measures.split(",") if name.strip()]
    if not names:
        raise InvalidArgumentError("--measures names no measure")

    def column(name: str) -> Measure | str:
        key = column_key(name)
        if key in AREAS and arguments.score is None and arguments.scores is None:
            raise InvalidArgumentError(f"the column {name!r} is an area of scores: give --score COLUMN or --scores COLUMNS")
        if key in AREAS or key in COUNTS:
            return key
        found = find_measure(name, metrics_class)
        try:  # evalkit's own measure: passed by the name asked, which heads its column (tpr, not recall)
            return name if metrics_class is None and get_measure(name) is found else found
        except EvalkitError:
            return found

    return [column(name) for name in names], None if arguments.sort_by is None else column(arguments.sort_by)


def _check_ci_weights(arguments: argparse.Namespace, total: Any) -> None:
    """--ci resamples samples: weights that are not whole numbers are not repeated samples."""
    if arguments.ci and isinstance(total, float):
        raise InvalidArgumentError(f"--ci resamples samples, but the --weight column {arguments.weight!r} holds weights that are not whole "
                                   "numbers (repeated samples): drop --ci, or give integer weights")  # fmt: skip


def _group_report(arguments: argparse.Namespace, files: list[str], measures: list[Any], sort_by: Any) -> str:
    curve_wanted = any(column in AREAS for column in (*measures, sort_by) if isinstance(column, str))
    result, scored = _hinted(arguments, files, lambda: stream_groups(arguments, files, curve_wanted))
    _check_ci_weights(arguments, result.overall.n_samples)
    asked = ["accuracy", *measures, *(["expected_calibration_error", "brier_score"] if arguments.calibration is not None else [])]
    report = result.report(asked, "macro", confidence=arguments.ci_level if arguments.ci else None, scored=scored, sort_by=sort_by,
                           label=_positive_class(arguments, list(result.overall.labels)), undefined=arguments.undefined)  # fmt: skip
    title = f"evalkit report by {arguments.group}: {' and '.join(files)}"
    return _rendered(arguments, report, title, f"{title} ({report.basis()})", lambda: _plots().by_group(report, title=title))


def _positive_class(arguments: argparse.Namespace, labels: list[Hashable]) -> Hashable | None:
    """The class whose measures a report by group shows: --positive, else the positive class of
    binary data (1 of 0/1 or -1/1 labels, --score's positive class), else None (the macro
    average over the classes)."""
    asked = arguments.positive or ("1" if arguments.score is not None else None)
    spelled = {str(label): label for label in labels}
    if arguments.positive is not None and asked not in spelled:
        raise InvalidArgumentError(f"--positive {asked!r} is not a class of the file, whose classes are {', '.join(spelled)}")
    if asked is None and len(labels) == 2 and {str(label) for label in labels} in ({"0", "1"}, {"-1", "1"}):
        asked = "1"
    return spelled.get(asked) if asked is not None else None


def _rendered(arguments: argparse.Namespace, table: Any, title: str, heading: str, figure: Any) -> str:
    """A table of rows (groups, windows) in the asked format, with its --plot (``figure()``) and --html page written."""
    if arguments.plot:
        _save_figure(figure(), arguments.plot)
    if arguments.html:
        _emit(table.to_html(arguments.digits, title=title), arguments.html, "--html")
    if arguments.format == "json":
        return str(table.to_json())
    if arguments.format == "csv":
        return str(table.to_csv()).rstrip("\n")
    if arguments.format == "markdown":
        return f"# {title}\n\n{table.to_markdown(arguments.digits)}"
    return f"{heading}\n\n{table.to_text(arguments.digits)}"


def _regression_report(arguments: argparse.Namespace) -> str:
    """``evalkit report FILE --regression``: the measures of a regressor's predictions, read in
    batches into exact sums (memory does not grow with the file), and with ``--html`` or
    ``--plot`` the residuals of a uniform sample of its rows."""
    files = list(arguments.files)
    if not files:
        raise InvalidArgumentError("--regression needs a file of true values and predictions (numbers): evalkit report FILE --regression")
    metrics, y_sample, p_sample = stream_regression(arguments, files)
    name, samples = " and ".join(files), metrics.get_samples()
    if arguments.plot:
        plots = _plots()
        figure = plots.residuals(y_sample, p_sample).figure
        _save_figure(figure, arguments.plot)
    if arguments.html:
        page = regression_page(metrics, y_sample, p_sample, digits=arguments.digits, title=f"evalkit regression report: {name}",
                               subtitle=f"{samples} samples")  # fmt: skip
        _emit(page, arguments.html, "--html")
    values = metrics.to_dict()
    if arguments.format == "json":
        return json.dumps({"source": name, **metrics.to_dict(strict=True)}, indent=2)
    if arguments.format == "csv":  # (full precision, empty where undefined: as a classification report's CSV)
        return "measure,value\n" + "\n".join(f"{key},{'' if isinstance(value, float) and math.isnan(value) else value}" for key, value in values.items())
    rows = [(key, value if isinstance(value, int) else f"{value:.{arguments.digits}f}") for key, value in values.items()]
    if arguments.format == "markdown":
        table = "| measure | value |\n|---|---|\n" + "\n".join(f"| {key} | {value} |" for key, value in rows)
        return f"# evalkit regression report: {name}\n\n{samples} samples\n\n{table}"
    width = max(len(key) for key, _ in rows) + 2
    lines = "\n".join(f"{key:<{width}}{value}" for key, value in rows)
    return f"evalkit regression report: {name} ({samples} samples)\n\n{lines}"


_NOT_WITH_REGRESSION = ("multi_label", "score", "scores", "calibration", "group", "ci", "window", "tumbling", "period", "labels", "metrics_class",
                        "sort_by", "thresholds")  # fmt: skip
"""Report options of labels and scores, which a regression report does not take."""


def _coverage_report(arguments: argparse.Namespace) -> str:
    """``evalkit report FILE --confidence C`` (selective prediction), ``--sets S`` (prediction
    sets) or ``--interval LOW,HIGH`` (prediction intervals): a table of readings, the tables
    per class, size or bin, and with ``--html`` a page (with the risk-coverage curve)."""
    files = list(arguments.files)
    if not files:
        raise InvalidArgumentError("--confidence, --sets and --interval read a file of predictions: evalkit report FILE ...")
    level = arguments.ci_level or 0.95
    if arguments.confidence is not None:
        report = CoverageReport.of_risk_coverage(stream_risk_coverage(arguments, files, arguments.confidence), level=level)
        kind = "risk-coverage report"
    elif arguments.sets is not None:
        report = CoverageReport.of_sets(stream_set_coverage(arguments, files, arguments.sets, arguments.separator or "|"), level=level)
        kind = "prediction-set report"
    else:
        bounds = option_list(arguments.interval, "--interval") or []
        if len(bounds) != 2:
            raise InvalidArgumentError(f"--interval names the lower and the upper bound columns, LOW,HIGH; got {arguments.interval!r}")
        result = stream_interval_coverage(arguments, files, (bounds[0], bounds[1]), _edges(arguments.edges))
        report = CoverageReport.of_intervals(result, confidence_level=arguments.interval_level or 0.9, level=level)
        kind = "prediction-interval report"
    name = " and ".join(files)
    if arguments.html:
        _emit(report.to_html(arguments.digits, title=f"evalkit {kind}: {name}"), arguments.html, "--html")
    if arguments.plot:
        if report.curve is None:
            raise InvalidArgumentError("--plot draws the risk-coverage curve of --confidence; --sets and --interval draw none (use --html)")
        _save_figure(_plots().risk_coverage(report.curve).figure, arguments.plot)
    if arguments.format == "json":
        return json.dumps({"source": name, **report.to_dict()}, indent=2)
    if arguments.format == "csv":
        return report.to_csv().rstrip("\n")
    if arguments.format == "markdown":
        return f"# evalkit {kind}: {name}\n\n{report.to_markdown(arguments.digits)}"
    return f"evalkit {kind}: {name}\n\n{report.to_text(arguments.digits)}"


def _numbers(text: str, option: str) -> list[float]:
    try:
        return [float(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise InvalidArgumentError(f"{option} takes numbers separated by commas, got {text!r}") from None


def _edges(text: str | None) -> list[float] | None:
    """The bin edges of --edges with a bin of its own below the first and one at and above the
    last (the end bins of ``IntervalCoverage`` take the predictions beyond its edges)."""
    if text is None:
        return None
    edges = _numbers(text, "--edges")
    if not edges or not all(map(math.isfinite, edges)) or any(low >= high for low, high in itertools.pairwise(edges)):
        raise InvalidArgumentError(f"--edges takes increasing finite numbers separated by commas, got {text!r}")
    return [math.nextafter(edges[0], -math.inf), *edges, math.nextafter(edges[-1], math.inf)]


_COVERAGE_OPTIONS = ("confidence", "sets", "interval")
"""Report options of predictions that abstain or give sets or intervals: one at a time."""

_NOT_WITH_COVERAGE = ("regression", "multi_label", "score", "scores", "calibration", "ci", "window", "tumbling", "period", "metrics_class", "sort_by",
                      "thresholds", "min_size")  # fmt: skip
"""Options of the label report that a coverage report does not take."""


def _report(arguments: argparse.Namespace) -> str:
    if any(getattr(arguments, name) is not None for name in _COVERAGE_OPTIONS):
        return _coverage_report(arguments)
    if arguments.regression:
        return _regression_report(arguments)
    measures, sort_by = _measures(arguments)
    if arguments.window is not None or arguments.tumbling is not None or arguments.period is not None:
        return _report_over_time(arguments, list(arguments.files) or [str(example_path())], measures)
    if arguments.group is not None:
        return _group_report(arguments, list(arguments.files) or [str(example_path())], measures, sort_by)
    files = list(arguments.files)
    curve = calibration = log_loss = kinds = read = None
    notes: list[str] = []
    curve_wanted = bool(arguments.html) or any(column in AREAS for column in (*measures, sort_by) if isinstance(column, str))
    if not files:
        source, curve, calibration = stream_labels(arguments, [str(example_path())], curve_wanted)
        name = f"bundled example {EXAMPLE_NAME}"
    else:
        if arguments.multi_label:
            source, kinds, read = stream_label_sets(arguments, files, arguments.separator)
        elif arguments.scores is not None:
            source, curve, calibration, log_loss, prediction = stream_scores(arguments, files, curve_wanted)
            notes.append(prediction)
        else:
            source, curve, calibration = _hinted(arguments, files, lambda: stream_labels(arguments, files, curve_wanted))
        name = " and ".join(files)
    _check_ci_weights(arguments, source.n_samples)
    scored = None if curve is None else curve.curve()
    report = build_report(source, measures=measures, undefined=arguments.undefined, confidence=arguments.ci_level if arguments.ci else None,
                          sort_by=sort_by, curve=scored, kinds=kinds, samples=read,
                          calibration=None if calibration is None else calibration.calibration())  # fmt: skip
    if log_loss is not None:  # the log loss of the probability table beside the calibration's own numbers
        report = attrs.evolve(report, calibration={**report.calibration, "log_loss": log_loss})
    if notes:
        report = attrs.evolve(report, notes=(*report.notes, *notes))
    samples = source.n_samples
    if arguments.plot:
        _plot(source, arguments.plot, report.confusion is not None)
    if arguments.html:
        page = report.to_html(arguments.digits, title=f"evalkit report: {name}", subtitle=f"{samples} samples, {len(report.labels)} classes",
                              curve=scored)  # fmt: skip
        _emit(page, arguments.html, "--html")
    if arguments.format == "json":
        document = json.loads(report.to_json())
        document["source"], document["samples"] = name, samples
        if report.confusion is not None:
            matrix = report.confusion
            document["confusion_matrix"] = {"labels": [str(label) for label in matrix.labels], "counts": matrix.to_array().tolist()}
        return json.dumps(document, indent=2)
    if arguments.format == "csv":
        return report.to_csv().rstrip("\n")
    if arguments.format == "markdown":
        return f"# evalkit report: {name}\n\n{samples} samples, {len(report.labels)} classes\n\n{report.to_markdown(arguments.digits)}"
    title = f"evalkit report: {name} ({samples} samples, {len(report.labels)} classes)"
    return f"{title}\n\n{report.to_text(arguments.digits)}"  # (the text holds the confusion matrix of up to 30 classes)


_SCORE_NAMES = ("score", "prob", "confidence", "likelihood", "logit")
"""Parts of a column name that say the column holds scores (a hint names it for --score)."""

_T = TypeVar("_T")


def _hinted(arguments: argparse.Namespace, files: list[str], read: Callable[[], _T]) -> _T:
    """``read()`` of single-label rows, its errors told the option the file suggests: --score
    for a table without a predicted column (naming a column of scores), --multi-label for an
    empty label in a file of label sets (labels holding --separator)."""
    try:
        return read()
    except InputFileError as error:
        try:
            names = header(files[0], arguments.delimiter) if len(files) == 1 else []
        except EvalkitError:
            names = []
        hint = ""
        if names and arguments.predicted is None and arguments.score is None and not set(DEFAULT_COLUMNS["predicted"]) & set(names):
            scored = next((name for name in names if any(part in name.lower() for part in _SCORE_NAMES)), None)
            hint = (f"; if {scored!r} holds scores, give --score {scored} (--positive at or above --threshold, else --negative)" if scored else
                    "; give --predicted COLUMN, or --score COLUMN for a column of scores")  # fmt: skip
        elif str(error).endswith(EMPTY_LABEL) and _holds_separator(files, arguments):
            hint = f"; the labels hold {arguments.separator!r}: label sets (an empty cell: the empty set) are read with --multi-label"
        if not hint:
            raise
        raise InputFileError(f"{error}{hint}") from None


def _holds_separator(files: list[str], arguments: argparse.Namespace, lines: int = 1000) -> bool:
    """Whether the first ``lines`` of the files (past a header) hold the label-set separator
    (never when it is the table's delimiter)."""
    delimiter = arguments.delimiter or ("\t" if Path(files[0]).suffix.lower() in (".tsv", ".tab") else ",")
    if arguments.separator == delimiter:
        return False
    for path in files:
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                if any(arguments.separator in line for _, line in zip(range(lines), handle)):
                    return True
        except OSError:
            continue
    return False


def _report_over_time(arguments: argparse.Namespace, files: list[str], measures: list[Any]) -> str:
    """``evalkit report FILE --window N`` (``--tumbling N``, ``--period P --time-column T``): one row of measures per window."""
    whole = [measure for measure in measures if isinstance(measure, str) and measure in (*AREAS, *COUNTS)]
    if whole:
        raise InvalidArgumentError(f"over time a report shows the macro averages of measures of the labels; {', '.join(whole)} is none: "
                                   "leave it out of --measures")  # fmt: skip
    table = stream_over_time(arguments, files, measures)
    title = f"evalkit report over time: {' and '.join(arguments.files) if arguments.files else f'bundled example {EXAMPLE_NAME}'}"
    return _rendered(arguments, table, title, title, lambda: _plots().over_time(table).figure)


def _plots() -> Any:
    try:
        from evalkit.io import _plots as plots
    except ImportError as error:  # pragma: no cover - the test extra installs matplotlib
        raise InvalidArgumentError(f"--plot needs matplotlib: pip install 'evalkit[plot]' ({error})") from None
    return plots


def _plot(source: Any, path: str, matrix: bool) -> None:
    plots = _plots()
    _save_figure(plots.confusion_matrix(source).figure if matrix else plots.per_class(source).figure, path)


def _save_figure(figure: Any, path: str) -> None:
    try:
        figure.savefig(path, dpi=120)
    except (OSError, ValueError) as error:
        raise InvalidArgumentError(f"--plot {path}: cannot write the image: {error}") from None


def _aa_rar(arguments: argparse.Namespace) -> str:
    files = list(arguments.files)
    if not files:
        files = [str(example_path(NEIGHBORHOOD_EXAMPLE_NAME))]
        arguments.actual = arguments.actual or "ideal"
        arguments.predicted = arguments.predicted or "method_1"
    accuracy = NeighborhoodAccuracy.from_evaluation(stream_label_sets(arguments, files, arguments.separator)[0])
    aa, rar = accuracy.get_absolute_accuracy(exact=True), accuracy.get_relative_accuracy_rate(exact=True)

    def shown(value: Fraction | float) -> str:
        if not isinstance(value, Fraction):
            return str(value)
        if arguments.exact and value.denominator != 1:
            return f"{value} = {float(value):.6g}"
        return f"{value}" if value.denominator == 1 else f"{float(value):.6g}"

    rows = [
        ("absolute accuracy (AA)", shown(aa)),
        ("relative accuracy rate (RAR)", shown(rar)),
        ("T_pos", str(accuracy.get_t_pos())),
        ("T_neg", str(accuracy.get_t_neg())),
        ("sum |P_i|", str(accuracy.get_ideal_total())),
        ("case", accuracy.get_case() or "none (a family is not a covering)"),
        ("example-based accuracy", f"{accuracy.get_example_based_accuracy():.6g}"),
        ("example-based precision", f"{accuracy.get_example_based_precision():.6g}"),
        ("example-based recall", f"{accuracy.get_example_based_recall():.6g}"),
    ]
    if arguments.format == "json":
        document = accuracy.to_dict()
        document = {key: None if isinstance(value, float) and not math.isfinite(value) else value for key, value in document.items()}
        if arguments.exact:
            document["absolute_accuracy_exact"], document["relative_accuracy_rate_exact"] = str(aa), str(rar)
        return json.dumps(document, indent=2)
    if arguments.format == "csv":
        return "measure,value\n" + "\n".join(f'"{name}","{value}"' for name, value in rows)
    if arguments.format == "markdown":
        return "| measure | value |\n|---|---|\n" + "\n".join(f"| {name} | {value} |" for name, value in rows)
    width = max(len(name) for name, _ in rows) + 2
    return "\n".join(f"{name:<{width}}{value}" for name, value in rows)


def _emit(text: str, output: str | None, option: str = "--output") -> None:
    if output is None:
        try:
            print(text)
            sys.stdout.flush()
        except BrokenPipeError:  # the reader (``| head``) left early: not an error
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return
    try:
        with open(output, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
    except OSError as error:
        raise InvalidArgumentError(f"{option} {output}: cannot write the file: {error.strerror or error}") from None


_REPORT_DEFAULTS = {"separator": "|", "threshold": 0.5, "positive": None, "negative": None, "ci_level": 0.95}
"""Defaults of the report options that only apply with another option (given: checked first); --score's
--positive and --negative are found from the labels when not given (``ScoreClasses``)."""


def _check_combinations(arguments: argparse.Namespace) -> None:
    """Options that contradict each other, or that would be silently ignored, refused; then the
    defaults of those left out."""
    coverage = [name for name in _COVERAGE_OPTIONS if arguments.command == "report" and getattr(arguments, name) is not None]
    if len(coverage) > 1:
        raise InvalidArgumentError(f"--{coverage[0]} and --{coverage[1]} are two reports: give one of --confidence, --sets, --interval")
    if coverage:
        refused = [name for name in _NOT_WITH_COVERAGE if getattr(arguments, name) not in (None, False)]
        if arguments.measures != ",".join(DEFAULT_MEASURES):
            refused.append("measures")
        if coverage[0] != "interval":
            refused += [name for name in ("interval_level", "edges") if getattr(arguments, name) is not None]
        if coverage[0] != "sets" and arguments.group is not None:
            refused.append("group")
        if refused:
            raise InvalidArgumentError(f"--{coverage[0]} reports its own readings; --{refused[0].replace('_', '-')} is an option of another report")
        if arguments.interval_level is not None and not 0 < arguments.interval_level < 1:
            raise InvalidArgumentError(f"--interval-level must be a level in (0, 1), e.g. 0.9; got {arguments.interval_level:g}")
        for name, default in _REPORT_DEFAULTS.items():
            if getattr(arguments, name) is None:
                setattr(arguments, name, default)
        return
    if arguments.command == "report" and (arguments.interval_level is not None or arguments.edges is not None):
        raise InvalidArgumentError("--interval-level and --edges are options of --interval LOW,HIGH")
    if arguments.command == "report" and arguments.regression:
        refused = [name for name in _NOT_WITH_REGRESSION if getattr(arguments, name) not in (None, False)]
        refused += [name for name in _REPORT_DEFAULTS if getattr(arguments, name) is not None]
        if arguments.measures != ",".join(DEFAULT_MEASURES):
            refused.append("measures")
        if refused:
            raise InvalidArgumentError(f"--regression reports every measure of numeric targets; --{refused[0].replace('_', '-')} is an option of labels or scores")
        for name, default in _REPORT_DEFAULTS.items():
            setattr(arguments, name, default)
    elif arguments.command == "report":
        given = {name for name in _REPORT_DEFAULTS if getattr(arguments, name) is not None}
        if arguments.score is not None and arguments.multi_label:
            raise InvalidArgumentError("--score makes a binary prediction from one score per sample; it cannot go with --multi-label")
        if arguments.scores is not None and (arguments.score is not None or arguments.multi_label):
            raise InvalidArgumentError("--scores (one score column per class) goes with neither --score (one binary score) nor --multi-label")
        if arguments.score is not None and arguments.predicted is not None:
            raise InvalidArgumentError("--score COLUMN takes the place of the predicted column: give --score or --predicted, not both")
        if arguments.calibration is not None and arguments.score is None and arguments.scores is None:
            raise InvalidArgumentError("--calibration measures scores: give --score COLUMN (binary) or --scores COLUMNS (one per class)")
        if arguments.calibration == "classwise" and arguments.scores is None:
            raise InvalidArgumentError("--calibration classwise is for --scores (one column per class); binary scores have one column")
        if arguments.group is not None and arguments.multi_label:
            raise InvalidArgumentError("--group evaluates one label (or score) per sample by group: it does not go with --multi-label")
        _check_over_time(arguments)
        if arguments.min_size is not None and arguments.group is None:
            raise InvalidArgumentError("--min-size applies with --group only, which is not given")
        if arguments.bins is not None and arguments.calibration is None:
            raise InvalidArgumentError("--bins applies with --calibration only, which is not given")
        if arguments.thresholds is not None and arguments.score is None and arguments.scores is None:
            raise InvalidArgumentError("--thresholds applies with --score or --scores only, which is not given")
        if arguments.thresholds is not None and not 2 <= arguments.thresholds <= 1_000_000:
            raise InvalidArgumentError(f"--thresholds must be a number of thresholds in 2..1000000, got {arguments.thresholds}")
        if arguments.bins is not None and not 1 <= arguments.bins <= MAX_STORED_BINS:
            raise InvalidArgumentError(f"--bins must be a number of bins in 1..{MAX_STORED_BINS}, got {arguments.bins}")
        needs = {"threshold": ("--score", arguments.score), "positive": ("--score or --group", arguments.score or arguments.group),
                 "negative": ("--score", arguments.score),
                 "separator": ("--multi-label", arguments.multi_label or None), "ci_level": ("--ci", arguments.ci or None)}  # fmt: skip
        for name in sorted(given):
            option, present = needs[name]
            if present is None:
                raise InvalidArgumentError(f"--{name.replace('_', '-')} applies with {option} only, which is not given")
        for name, default in _REPORT_DEFAULTS.items():
            if getattr(arguments, name) is None:
                setattr(arguments, name, default)
        if arguments.score is not None and arguments.positive is not None and arguments.positive == arguments.negative:
            raise InvalidArgumentError(f"--positive and --negative must differ, both are {arguments.positive!r}")
    files = list(arguments.files)
    if arguments.delimiter is not None and (len(files) == 2 or any(Path(f).suffix.lower() in (".jsonl", ".ndjson") for f in files)):
        raise InvalidArgumentError("--delimiter applies to CSV and TSV tables only, not to JSON Lines or one-column files")
    written = [(option, path) for option, path in (("--output", arguments.output), ("--html", getattr(arguments, "html", None)),
                                                   ("--plot", getattr(arguments, "plot", None))) if path]  # fmt: skip
    for k, (option, path) in enumerate(written):
        for other, other_path in written[k + 1 :]:
            if _same_file(path, other_path):
                raise InvalidArgumentError(f"{option} and {other} name the same file {path!r}: one would overwrite the other")
    for option, path in written:
        if any(_same_file(path, f) for f in files):
            raise InvalidArgumentError(f"{option} {path!r} is an input file: writing it would destroy the data")


def _same_file(first: str, second: str) -> bool:
    """Whether two paths name one file: the same path once links are followed, or one file
    under two names (a hard link)."""
    if os.path.realpath(first) == os.path.realpath(second):
        return True
    try:
        return os.path.samefile(first, second)
    except OSError:  # (one does not exist yet: a new file is no other)
        return False


def _check_over_time(arguments: argparse.Namespace) -> None:
    """The options of the measures over time: one kind of window, and what goes with it."""
    kinds = [option for option, value in (("--window", arguments.window), ("--tumbling", arguments.tumbling), ("--period", arguments.period)) if value is not None]
    if len(kinds) > 1:
        raise InvalidArgumentError(f"give one kind of window: {' and '.join(kinds)} were both given")
    if arguments.time_column is not None and arguments.period is None:
        raise InvalidArgumentError("--time-column applies with --period only, which is not given")
    if arguments.step is not None and arguments.window is None and arguments.period is None:
        raise InvalidArgumentError("--step applies with --window or --period only, neither of which is given")
    watching = [option for option, given in (("--monitor-measure", arguments.monitor_measure != "accuracy"), ("--monitor-label", arguments.monitor_label is not None),
                                             ("--monitor-average", arguments.monitor_average is not None), ("--monitor-every", arguments.monitor_every is not None),
                                             ("--monitor-alpha", arguments.monitor_alpha is not None), ("--monitor-arl", arguments.monitor_arl is not None)) if given]  # fmt: skip
    if watching and arguments.monitor is None:
        raise InvalidArgumentError(f"{', '.join(watching)} applies with --monitor LEVEL only, which is not given")
    if arguments.monitor is not None and not kinds:
        raise InvalidArgumentError("--monitor watches a stream in a report over time: give --window N, --tumbling N or --period P too")
    if not kinds:
        return
    if arguments.period is not None and arguments.time_column is None:
        raise InvalidArgumentError("--period needs --time-column COLUMN: the time of each row")
    for option, value in (("--window", arguments.window), ("--tumbling", arguments.tumbling)):
        if value is not None and value < 1:
            raise InvalidArgumentError(f"{option} must be a positive number of samples, got {value}")
    if arguments.window is not None and arguments.step is not None and not (arguments.step.isdigit() and int(arguments.step) >= 1):
        raise InvalidArgumentError(f"--step with --window must be a positive number of samples, got {arguments.step!r}")
    clashing = [option for option, value in (("--multi-label", arguments.multi_label), ("--score", arguments.score), ("--scores", arguments.scores),
                                               ("--group", arguments.group), ("--calibration", arguments.calibration),
                                               ("--sort-by", arguments.sort_by)) if value]  # fmt: skip
    if clashing:
        raise InvalidArgumentError(f"{kinds[0]} reports single-label measures per window; it does not go with {', '.join(clashing)} (yet): "
                                   "evaluate the windows' files one by one for those")  # fmt: skip


def _check_options(arguments: argparse.Namespace) -> None:
    """Option values argparse cannot check, refused in one line before anything is read."""
    _check_combinations(arguments)
    if getattr(arguments, "digits", 0) < 0 or getattr(arguments, "digits", 0) > 15:
        raise InvalidArgumentError(f"--digits must be in 0..15, got {arguments.digits}")
    if arguments.batch_size < 1:
        raise InvalidArgumentError(f"--batch-size must be a positive number of rows, got {arguments.batch_size}")
    if arguments.delimiter is not None and (len(arguments.delimiter) != 1 or arguments.delimiter in "\r\n\"'"):
        raise InvalidArgumentError(f"--delimiter must be one character (not a quote or a line end), got {arguments.delimiter!r}")
    if getattr(arguments, "separator", "|") == "":
        raise InvalidArgumentError("--separator must not be empty: it splits a cell into labels")
    level = getattr(arguments, "ci_level", 0.95)
    if not 0 < level < 1:
        raise InvalidArgumentError(f"--ci-level must be a confidence level in (0, 1), e.g. 0.95; got {level:g}")
    threshold = getattr(arguments, "threshold", 0.5)
    if not 0.0 <= threshold <= 1.0:
        raise InvalidArgumentError(f"--threshold must be in [0, 1], got {threshold:g}")


def _compare(arguments: argparse.Namespace) -> str:
    """``evalkit compare``: a table of results over data sets, or prediction files of one test set.

    Raises:
        InvalidArgumentError: an option of the other kind of input (it was ignored).
    """
    table = len(arguments.files) == 1
    given = ({"--method": arguments.method != "mcnemar", "--actual": arguments.actual is not None, "--predicted": arguments.predicted is not None} if table
             else {"--html": arguments.html is not None, "--lower": arguments.lower, "--test": arguments.test != "nemenyi", "--missing": arguments.missing != "refuse"})  # fmt: skip
    wrong = [option for option, present in given.items() if present]
    if wrong:
        raise InvalidArgumentError(f"{wrong[0]} applies to {'prediction files (two or more)' if table else 'a table of results (one file)'} only")
    if table:
        return _compare_table(arguments)
    predictions: dict[Hashable, Any] = {}
    truth: Any = None
    for path in arguments.files:
        values, guesses = read_labels(path, actual=arguments.actual, predicted=arguments.predicted, delimiter=arguments.delimiter)
        if truth is None:
            truth, first = values, path
        elif len(values) != len(truth) or list(values) != list(truth):
            raise InputFileError(f"{path}: its actual values differ from those of {first}: the models must be compared on one test set")
        name = Path(path).stem
        predictions[name if name not in predictions else path] = guesses
    tests = PairwiseTests.from_predictions(truth, predictions, arguments.measure or "accuracy", method=arguments.method,
                                           correction=arguments.correction or "holm")  # fmt: skip
    if arguments.plot:
        _save_figure(_plots().p_values(tests, alpha=arguments.alpha).figure, arguments.plot)
    if arguments.format == "document":
        raise InvalidArgumentError("--format document is the stored document of a table of results; prediction files give json or csv")
    if arguments.format in ("json", "csv"):
        return _summary(dict(tests.summary(arguments.alpha), measure=arguments.measure or "accuracy"), arguments.format)
    ranked = "\n".join(f"{k + 1}. {model}  {value:.{arguments.digits}f}" for k, (model, value) in enumerate(tests.ranked()))
    matrix = tests.to_markdown(arguments.digits + 1) if arguments.format in ("markdown", "latex") else tests.to_text(arguments.digits + 1)
    return f"{tests.test} on one test set, {arguments.measure or 'accuracy'} from best to worst:\n{ranked}\n\n{matrix}"


def _summary(summary: dict[str, Any], format: str) -> str:
    """The results of ``evalkit compare`` as JSON, or as CSV in long form: one row per number,
    ``quantity,model,other,value`` (a model's average rank or estimate names the model; a
    pair's statistic and p-values both models; a test's statistic neither)."""
    if format == "json":
        return json.dumps(json_safe(summary), indent=2, allow_nan=False)
    rows: list[tuple[str, object, object, object]] = []
    for quantity in ("average_ranks", "estimates"):
        rows += [(quantity.rstrip("s"), model, "", value) for model, value in summary.get(quantity, {}).items()]
    for test in ("friedman", "iman_davenport"):
        if test in summary:
            rows += [(f"{test}_statistic", "", "", summary[test]["statistic"]), (f"{test}_p_value", "", "", summary[test]["p_value"])]
    rows += [(f"critical_difference_{test}", "", "", value) for test, value in summary.get("critical_difference", {}).items()]
    for pair in summary.get("pairwise", summary)["pairs"]:
        rows += [(quantity, pair["first"], pair["second"], pair[quantity]) for quantity in ("statistic", "raw_p_value", "p_value", "significant")]
    buffer = StringIO()
    csv.writer(buffer, lineterminator="\n").writerows([("quantity", "model", "other", "value"), *rows])
    return buffer.getvalue().rstrip("\n")


def _compare_table(arguments: argparse.Namespace) -> str:
    path = arguments.files[0]
    delimiter = arguments.delimiter or ("\t" if Path(path).suffix.lower() in (".tsv", ".tab") else ",")
    comparison = ModelComparison.from_csv(path, direction="lower" if arguments.lower else None, measure=arguments.measure,
                                          missing=arguments.missing, delimiter=delimiter)  # fmt: skip
    if arguments.plot:
        _save_figure(_plots().critical_difference(comparison, arguments.alpha).figure, arguments.plot)
    if arguments.html:
        _emit(comparison.to_html(arguments.digits, title=f"evalkit comparison: {Path(path).name}", alpha=arguments.alpha), arguments.html, "--html")
    if arguments.format == "document":
        return comparison.to_json()
    if arguments.format in ("json", "csv"):
        return _summary(comparison.summary(arguments.alpha, arguments.test, arguments.correction), arguments.format)
    tests = comparison.pairwise(arguments.test, arguments.correction)
    table = comparison.table(arguments.format, arguments.digits)
    cliques = "; ".join(" = ".join(str(model) for model in clique) for clique in comparison.cliques(arguments.alpha)) or "none"
    same = f"not significantly different (Nemenyi, alpha {arguments.alpha:g}): {cliques}"
    matrix = tests.to_markdown(arguments.digits + 1) if arguments.format == "markdown" else tests.to_text(arguments.digits + 1)
    if arguments.format == "latex":  # below a tabular, the rest as LaTeX comments
        return "\n".join([table, "", *(f"% {line}" for line in [same, *matrix.splitlines()])])
    return f"{table}\n\n{same}\n\n{matrix}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0, or 2 for bad input)."""
    parser = _parser()
    arguments = parser.parse_args(argv)
    if arguments.command is None:
        arguments = parser.parse_args(["report"])
    try:
        _check_options(arguments)
        arguments.progress = _progress()  # the rows read so far, on a terminal, while files are streamed
        text = {"aa-rar": _aa_rar, "compare": _compare}.get(arguments.command, _report)(arguments)
        if arguments.progress:
            arguments.progress.done()
        _emit(text, arguments.output)
    except EvalkitError as error:
        print(f"evalkit: error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())


if not TYPE_CHECKING:  # the names this module gave in evalkit 0.1.0 and lost, found with a warning
    __getattr__ = moved_names.finder(__name__)
