"""Prediction files streamed into results, batch by batch: single-label rows into a compacted
``Evaluation`` (with the curve and the calibration of a score column), label sets into
``LabelSetCounts``, per-class score columns into an evaluation, curves and a calibration, and
rows with group columns into ``ByGroup`` results. Memory is bounded by the counts, never by
the file.

The options are those of ``evalkit report`` (``FileOptions``: an ``argparse`` namespace
has them).
"""

from __future__ import annotations

import argparse
import math
from collections import Counter
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import Any, Protocol, TypeVar

import attrs
import numpy as np

from evalkit._engine._exact import ExactSums, limbs_to_floats
from evalkit._groups._by_group import ByGroup
from evalkit._java.regression_metrics import RegressionMetrics
from evalkit._results.evaluation import Evaluation
from evalkit._scale.monitor import Monitor
from evalkit._scale.over_time import OverTimeCounter
from evalkit._scale.streaming import CalibrationCounts, CurveCounts, LabelSetCounts
from evalkit._scores.calibration import DEFAULT_BINS
from evalkit._scores.conformal import IntervalCoverage, SetCoverage, crossed_bound
from evalkit._scores.curves import ThresholdCurve
from evalkit._scores.scoring import class_log_losses
from evalkit._scores.selective import RiskCoverage
from evalkit.exceptions import EvalkitError, InputFileError, InvalidArgumentError, UnknownLabelError
from evalkit.io._fields import spelled_float
from evalkit.io._label_codes import (
    batch_weights,
    check_not_scores,
    code_texts,
    codes_within,
    column_codes,
    group_keys,
    label_coder,
    label_order,
    label_set,
    named_evaluation,
    option_list,
    refuse_outside,
    texts_by_value,
)
from evalkit.io._over_time import OverTime
from evalkit.io._readers import (
    DEFAULT_COLUMNS,
    Batch,
    Labels,
    header,
    read_batches,
    scores,
)
from evalkit.measures._plugins import find_metrics_class


class FileOptions(Protocol):
    """The options of ``evalkit report`` that reading a file takes (an ``argparse`` namespace of
    the command line has them; ``None`` where not given)."""

    actual: str | None
    predicted: str | None
    weight: str | None
    delimiter: str | None
    batch_size: int
    labels: str | None
    ci: bool
    score: str | None
    scores: str | None
    positive: str | None
    negative: str | None
    threshold: float
    thresholds: Any
    calibration: str | None
    bins: int | None
    group: str | None
    min_size: float | None
    metrics_class: str | None
    progress: Callable[[int], None] | None



def file_batches(arguments: FileOptions, files: list[str], **columns: Any) -> Iterator[Batch]:
    """The files' rows in batches (``arguments.progress``, when set, is told the rows read so far)."""
    options = {"actual": arguments.actual, "predicted": arguments.predicted, "weight": arguments.weight} | columns
    yield from read_batches(files, delimiter=arguments.delimiter, batch_size=arguments.batch_size, progress=arguments.progress, **options)


Counted = TypeVar("Counted", RegressionMetrics, RiskCoverage, SetCoverage, IntervalCoverage)
"""A result the files' batches are counted into in place."""


def fold_files(result: Counted, arguments: FileOptions, files: list[str], read: Callable[[Batch], tuple[tuple, dict[str, Any]]], **columns: object) -> Counted:
    """Every batch of the files counted into ``result``: ``read(batch)`` gives the batch's
    positional and keyword columns (``columns``: what ``read_batches`` reads), weighted by
    ``--weight``; the one loop over a file's batches of the counted kinds."""
    for batch in file_batches(arguments, files, **columns):
        given, named = read(batch)
        result.update(*given, sample_weight=batch_weights(arguments.weight, batch), **named)
    return result


def stream_label_sets(arguments: FileOptions, files: list[str], separator: str) -> tuple[Evaluation, LabelSetCounts, Counter[tuple[int, int, int]]]:
    """Label sets, batch by batch, into a ``LabelSetCounts``: its (compacted) evaluation, the
    counts, and how many samples of each kind ``(|Y∩Z|, |Y|, |Z|)`` were read (the
    evaluation holds a row per kind, of their weight: the report counts samples in these)."""
    labels = option_list(arguments.labels)
    known = None if labels is None else frozenset(labels)
    counts = LabelSetCounts(labels, keep_pairs=bool(getattr(arguments, "ci", False)))  # --ci: the pairs of sets its macro averages resample
    samples: Counter[tuple[int, int, int]] = Counter()
    for batch in file_batches(arguments, files):
        sets = {}
        for role in ("actual", "predicted"):
            where = batch.where(role)
            sets[role] = [label_set(value, separator, where(position)) for position, value in enumerate(batch.fields[role])]
            if known is not None:
                for position, value in enumerate(sets[role]):
                    unknown = sorted(value - known)
                    if unknown:
                        raise InputFileError(f"{where(position)}: label {unknown[0]!r} is not in --labels ({', '.join(sorted(known))})")
        counts.update(sets["actual"], sets["predicted"], sample_weight=batch_weights(arguments.weight, batch))
        samples.update((len(truth & guess), len(truth), len(guess)) for truth, guess in zip(sets["actual"], sets["predicted"]))
    evaluation = counts.to_evaluation()
    return evaluation if labels else evaluation.with_labels(label_order(evaluation.labels)), counts, samples


def calibration_counts(arguments: FileOptions, **options: Any) -> CalibrationCounts | None:
    """The calibration counts of --calibration (in --bins equal-width bins), or None."""
    if arguments.calibration is None:
        return None
    return CalibrationCounts(bins=arguments.bins or DEFAULT_BINS, **options)


def curve_counts(arguments: FileOptions, wanted: bool, labels: Sequence[Hashable] | None = None, *, positive: int = 1, negative: int = 0) -> CurveCounts | None:
    """The threshold curve of the scores, over label codes (no text to hash: ``_NamedCurve``
    names them), when the report takes areas from it or draws it: at every distinct score, or
    at --thresholds N; of the ``labels`` columns, or of a binary score of the class ``positive``
    against ``negative``. Binary scores at N thresholds are counted as two columns, the negative
    class's being ``1 - score`` (as ``ThresholdCurve.one_vs_rest`` scores it), since a binned
    binary curve keeps the positive class's counts only."""
    if not wanted:
        return None
    if labels is not None:
        return CurveCounts(labels=labels, thresholds=arguments.thresholds)
    if arguments.thresholds is None:
        return CurveCounts(pos_label=positive)
    return CurveCounts(labels=[negative, positive], thresholds=arguments.thresholds)


SCORE_CHUNK = 1 << 20
"""Scores counted into a curve or a calibration at once (several batches of the file joined),
at the least: an exact curve is built per chunk and merged with the rest, and a merge costs the
points of both, so a chunk holds as many scores as the curve so far has points. Every merge is
then paid for by as many new scores (reading stays linear when the distinct scores stop growing),
and memory stays within a few times the curve's own (8 MiB of scores at the least)."""


class _Chunks:
    """Batches of (actual labels, scores, weights) joined into chunks of ``SCORE_CHUNK`` scores
    for score counters (``CurveCounts``, ``CalibrationCounts``); ``flush`` counts the rest."""

    def __init__(self, *counters: CurveCounts | CalibrationCounts | None) -> None:
        self.counters = [counter for counter in counters if counter is not None]
        self.parts: list[tuple[np.ndarray, np.ndarray, np.ndarray | list | None]] = []
        self.rows = 0  # scores held (rows times columns)

    def add(self, texts: np.ndarray, values: np.ndarray, weight: np.ndarray | list | None) -> None:
        if not self.counters:
            return
        self.parts.append((texts, values, weight))
        self.rows += values.size
        if self.rows >= SCORE_CHUNK and self.rows >= max(counter.n_points for counter in self.counters):
            self.flush()

    def flush(self) -> None:
        if not self.parts:
            return
        texts, values = (np.concatenate([part[k] for part in self.parts]) for k in (0, 1))
        weights = [part[2] for part in self.parts]
        weight = None if weights[0] is None else np.concatenate([np.asarray(w) for w in weights]) if len(weights) > 1 else weights[0]
        self.parts, self.rows = [], 0
        merges = [counter._counted_batch(texts, values, sample_weight=weight) for counter in self.counters]
        del texts, values, weight  # (the chunk's scores: not held while the counters merge their batches)
        for merge in merges:
            merge()


class ScoreClasses:
    """The two classes of ``--score``: ``--positive`` (default ``1``) at or above the threshold,
    ``--negative`` below it. Without ``--negative`` the negative class is the other label of
    ``--labels``, else of the actual column, found as it is read (without ``--positive``, ``0``
    or ``-1``: 0/1 and -1/1 labels only, ``ThresholdCurve.from_scores``'s rule); a label that is
    neither class is refused at its line. Until the file shows its negative label, predictions
    below the threshold are counted as ``0`` (the default), named as found once read (``own``,
    ``texts``)."""

    def __init__(self, arguments: FileOptions, coder: Labels, labels: Sequence[str] | None) -> None:
        self.given = arguments.positive, arguments.negative
        self.positive = coder.code(arguments.positive or "1")
        negative = arguments.negative
        if negative is None and labels is not None:  # --labels names the classes: the one besides the positive
            others = [label for label in labels if label != coder.texts[self.positive]]
            negative = others[0] if len(others) == 1 else None
        self.coder, self.negative = coder, coder.code(negative or "0")
        self.found: int | None = None  # the file's own negative label (counted as ``negative``), when it is not ``0``
        self.settled = negative is not None  # whether the negative class can no longer be another label

    def actual(self, codes: np.ndarray, batch: Batch) -> np.ndarray:
        """The codes of a batch's actual labels as ``positive`` or ``negative`` (``"1.0"`` is
        ``1``); the first label besides the positive is the negative class unless it is settled."""
        coder, spelled = self.coder, self.negative if self.found is None else self.found
        codes = coder.matched(codes, [self.positive, spelled])
        self.settled = self.settled or bool((codes == spelled).any())
        outside = (codes != self.positive) & (codes != spelled)
        if outside.any() and not self.settled:
            first = int(codes[np.argmax(outside)])
            if self.given[0] is not None or coder.value(first) == -1:
                self.found, self.settled, spelled = first, True, first
                codes = coder.matched(codes, [self.positive, spelled])
                outside = (codes != self.positive) & (codes != spelled)
        if outside.any():
            refuse_outside(coder, codes, outside, batch, "actual", self._why())
        return np.where(codes == spelled, self.negative, codes) if spelled != self.negative else codes

    def _why(self) -> str:
        """Why a label is not one of the two classes of --score."""
        positive, negative = (self.coder.texts[code] for code in (self.positive, self.found if self.found is not None else self.negative))
        if not self.settled:
            return (f"is not a class of 0/1 or -1/1 labels, which the default --positive {positive!r} fits: give --positive (the class a score "
                    "at or above --threshold predicts) and --negative (the class below it)")  # fmt: skip
        named = f"--negative {negative!r}" if self.given[1] is not None else f"{negative!r}, the other class read"
        return f"is neither --positive {positive!r} nor {named}: --score predicts one of two classes (give --positive and --negative)"

    def predicted(self, values: np.ndarray, threshold: float) -> np.ndarray:
        """The class codes a batch's scores predict."""
        return np.where(values >= threshold, self.positive, self.negative)

    def own(self, code: int) -> int:
        """A class's code as the file spells it: the negative as found."""
        return self.found if code == self.negative and self.found is not None else code

    def texts(self) -> list[str]:
        """The label texts of the codes, the negative's as the file spells it."""
        texts = list(self.coder.texts)
        texts[self.negative] = texts[self.own(self.negative)]
        return texts


def stream_labels(arguments: FileOptions, files: list[str], curve_wanted: bool,
                   ) -> tuple[Evaluation, CurveSource | None, CalibrationCounts | None]:  # fmt: skip
    """Single-label rows, batch by batch, into a compacted Evaluation: memory grows with the
    classes and the distinct (actual, predicted) pairs, never with a dense m x m table. With
    ``--score`` (its two classes: ``ScoreClasses``) and ``curve_wanted`` also the threshold
    curve of the scores (exact: its size grows with the distinct scores; or at --thresholds)."""
    labels = option_list(arguments.labels)
    coder, fixed = label_coder(labels), None if labels is None else len(labels)
    numbers: dict[int, Any] = {}
    evaluation: Evaluation | None = None
    classes = None if arguments.score is None else ScoreClasses(arguments, coder, labels)
    curve = None if classes is None else curve_counts(arguments, curve_wanted, positive=classes.positive, negative=classes.negative)
    calibration = None if classes is None else calibration_counts(arguments, pos_label=coder.texts[classes.positive])
    curve_chunks, calibration_chunks = _Chunks(curve), _Chunks(calibration)
    for batch in file_batches(arguments, files, predicted=arguments.predicted if arguments.score is None else arguments.score,
                              numeric=() if arguments.score is None else ("predicted",)):  # fmt: skip
        actual = column_codes(coder, batch, "actual", fixed)
        check_not_scores(coder, actual, batch, "actual", numbers)
        if classes is not None:
            values = scores(batch.fields["predicted"], batch.where("predicted"))
            actual = classes.actual(actual, batch)
            predicted = codes_within(coder, classes.predicted(values, arguments.threshold), batch, "predicted", fixed)
        else:
            predicted = column_codes(coder, batch, "predicted", fixed)
            check_not_scores(coder, predicted, batch, "predicted", numbers)
        weight = batch_weights(arguments.weight, batch)
        part = Evaluation.from_labels(actual, predicted, None if fixed is None else range(fixed), sample_weight=weight).compact()
        evaluation = part if evaluation is None else evaluation.merge(part, grow=fixed is None)
        if curve is not None:
            curve_chunks.add(actual, values if arguments.thresholds is None else np.column_stack((1.0 - values, values)), weight)
        if calibration is not None:
            calibration_chunks.add(code_texts(coder, actual), values, weight)
    assert evaluation is not None  # read_batches raises on a file without rows
    curve_chunks.flush()
    calibration_chunks.flush()
    if classes is not None:  # the negative class as the file spells it
        evaluation = evaluation.renamed([classes.own(code) for code in evaluation.labels])
    named = None if curve is None or classes is None else _NamedCurve(curve, classes.texts(), classes.texts()[classes.negative])
    return named_evaluation(evaluation, coder, fixed is not None), named, calibration


class CurveSource(Protocol):
    """What a report reads a threshold curve from: a ``CurveCounts``, or one counted over codes."""

    def curve(self) -> ThresholdCurve: ...


class _NamedCurve:
    """The curve of a score counted over label codes (``CurveCounts``), read with the labels'
    texts: what ``curve()`` gives is the curve of the texts (a binary one's negative class
    named ``negative``, even when no row showed it)."""

    def __init__(self, counts: CurveCounts, texts: list[str], negative: str | None = None) -> None:
        self.counts, self.texts, self.negative = counts, texts, negative

    def curve(self) -> ThresholdCurve:
        found = self.counts.curve()
        texts, negative = self.texts, found.negative_label
        if self.negative is not None and len(found.labels) == 1:
            negative = self.negative
        elif type(negative) is int and 0 <= negative < len(texts):
            negative = texts[negative]
        return attrs.evolve(found, labels=tuple(texts[code] for code in found.labels), negative_label=negative)


def score_column_names(arguments: FileOptions, files: list[str]) -> tuple[list[str], list[str]]:
    """The score columns of --scores and the class of each: the column's name, or the rest of
    it after the prefix of ``PREFIX*``."""
    asked = [name.strip() for name in (arguments.scores or "").split(",") if name.strip()]
    if len(asked) == 1 and asked[0].endswith("*"):
        prefix = asked[0][:-1]
        columns = [name for name in header(files[0], arguments.delimiter) if name.startswith(prefix) and len(name) > len(prefix)]
        if len(columns) < 2:
            raise InputFileError(f"{files[0]}:1: --scores {asked[0]!r} needs at least two columns starting with {prefix!r}, found {columns}")
        return columns, [name[len(prefix) :] for name in columns]
    if len(asked) < 2 or len(set(asked)) != len(asked):
        raise InvalidArgumentError(f"--scores needs two or more different columns (one per class), got {arguments.scores!r}")
    return asked, asked


def stream_scores(arguments: FileOptions, files: list[str], curve_wanted: bool,
                   ) -> tuple[Evaluation, CurveSource | None, CalibrationCounts | None, float | None, str]:  # fmt: skip
    """Per-class score columns, batch by batch: the predicted class (the highest score, the
    first of tied ones, or --predicted) into an Evaluation, (``curve_wanted``) the scores
    into the curve of every class, and with --calibration the calibration and scikit-learn's
    log loss of the probability table (its terms summed exactly)."""
    columns, classes = score_column_names(arguments, files)
    coder, fixed = label_coder(classes), len(classes)
    predicted_column = own_predictions(arguments, files, columns)
    evaluation: Evaluation | None = None
    curve = curve_counts(arguments, curve_wanted, range(fixed))
    calibration = calibration_counts(arguments, labels=classes, setting=arguments.calibration)
    log_loss = ExactSums(1)  # the terms summed exactly: the same however the file is cut
    curve_chunks, calibration_chunks = _Chunks(curve), _Chunks(calibration)
    for batch in file_batches(arguments, files, scores=columns, predicted=predicted_column):
        actual = column_codes(coder, batch, "actual", fixed, "--scores")
        table = np.column_stack([scores(batch.fields[f"score:{column}"], batch.where("score")) for column in columns])
        if predicted_column is not None:
            predicted = column_codes(coder, batch, "predicted", fixed, "--scores")
        else:
            predicted = table.argmax(axis=1)
        weight = batch_weights(arguments.weight, batch)
        part = Evaluation.from_labels(actual, predicted, range(fixed), sample_weight=weight).compact()
        evaluation = part if evaluation is None else evaluation.merge(part)
        curve_chunks.add(actual, table, weight)
        if calibration is not None:
            calibration_chunks.add(code_texts(coder, actual), table, weight)
            losses = class_log_losses(actual, table) * (1.0 if weight is None else weight)
            log_loss.add(np.zeros(len(losses), dtype=np.intp), losses)
    assert evaluation is not None  # read_batches raises on a file without rows
    curve_chunks.flush()
    calibration_chunks.flush()
    total = evaluation.n_samples
    loss = None if calibration is None else float(limbs_to_floats(log_loss.limbs())[0]) / total if total else math.nan
    note = (f"the label measures use the file's own predictions (column {predicted_column!r})" if predicted_column is not None else
            "the label measures use the class of the highest score (the file has no predicted column; --predicted names one)")  # fmt: skip
    return named_evaluation(evaluation, coder, True), None if curve is None else _NamedCurve(curve, coder.texts), calibration, loss, note


def own_predictions(arguments: FileOptions, files: list[str], score_columns: list[str]) -> str | None:
    """The predicted column of --scores: --predicted, else the file's own (the first column of a
    predicted name, ``y_pred`` say, that is not a score column), else None (the highest score)."""
    if arguments.predicted is not None:
        return arguments.predicted
    names = header(files[0], arguments.delimiter)
    return next((name for name in DEFAULT_COLUMNS["predicted"] if name in names and name not in score_columns), None)


def stream_groups(arguments: FileOptions, files: list[str], curve_wanted: bool) -> tuple[ByGroup, list[ByGroup]]:
    """Single-label rows with their group columns, batch by batch, into one ``ByGroup`` of the
    label measures; with --score or --scores also the groups' curves (``curve_wanted``: for
    area columns) and with --calibration their calibrations."""
    columns = option_list(arguments.group, "--group") or []
    labels = option_list(arguments.labels)
    coder, fixed = label_coder(labels), None if labels is None else len(labels)
    score_columns, classes = score_column_names(arguments, files) if arguments.scores is not None else ([], None)
    if classes is not None:
        coder, fixed = label_coder(classes), len(classes)
    two = None if arguments.score is None else ScoreClasses(arguments, coder, labels)
    metrics_class = None if arguments.metrics_class is None else find_metrics_class(arguments.metrics_class)
    names = {name: Labels() for name in columns}
    found: dict[str, ByGroup | None] = {"labels": None, "curves": None, "calibrations": None}
    extra = {"scores": score_columns} if score_columns else {}
    predicted_column = arguments.score if arguments.score is not None else own_predictions(arguments, files, score_columns) if classes else arguments.predicted
    numeric = ("predicted",) if arguments.score is not None else ()
    for batch in file_batches(arguments, files, groups=columns, predicted=predicted_column, numeric=numeric, **extra):
        actual = column_codes(coder, batch, "actual", fixed, "--scores" if classes else "--labels")
        values: Any = None
        if two is not None:
            values = scores(batch.fields["predicted"], batch.where("predicted"))
            actual = two.actual(actual, batch)
            predicted = two.predicted(values, arguments.threshold)
        elif classes is not None:
            values = np.column_stack([scores(batch.fields[f"score:{column}"], batch.where("score")) for column in score_columns])
            predicted = column_codes(coder, batch, "predicted", fixed, "--scores") if "predicted" in batch.fields else values.argmax(axis=1)
        else:
            predicted = column_codes(coder, batch, "predicted", fixed)
        groups = {name: code_texts(names[name], names[name].codes(batch.fields[f"group:{name}"], batch.where(f"group:{name}"))) for name in columns}
        texts, weight = code_texts(coder, actual), batch_weights(arguments.weight, batch)
        parts = {"labels": ByGroup.from_labels(texts, code_texts(coder, predicted), groups, labels or classes, sample_weight=weight,
                                               min_size=arguments.min_size, metrics_class=metrics_class)}  # fmt: skip
        options = {"labels": classes} if two is None else {"pos_label": coder.texts[two.positive]}
        if values is not None and curve_wanted:
            parts["curves"] = ByGroup.from_scores(texts, values, groups, **options, sample_weight=weight, min_size=arguments.min_size,
                                                  thresholds=arguments.thresholds)  # fmt: skip
        if values is not None and arguments.calibration is not None:
            parts["calibrations"] = ByGroup.from_probabilities(texts, values, groups, **options, sample_weight=weight, min_size=arguments.min_size,
                                                               setting=None if classes is None else arguments.calibration,
                                                               bins=arguments.bins or DEFAULT_BINS)  # fmt: skip
        for kind, part in parts.items():
            earlier = found[kind]
            found[kind] = part if earlier is None else earlier.merge(part)
    labelled = found["labels"]
    assert labelled is not None  # read_batches raises on a file without rows
    code_of = {text: code for code, text in enumerate(coder.texts)}
    valued = None
    if two is not None:  # the negative class as the file spells it
        valued = [two.texts()[code_of[text]] for text in labelled.overall.labels]
    elif classes is None and fixed is None:  # labels of the file's own: by value when all are numbers
        valued = texts_by_value(coder, [code_of[text] for text in labelled.overall.labels])

    def by_value(result: ByGroup, labels: list[str] | None = None) -> ByGroup:  # a group column of numbers: groups by value, as labels
        return result.renamed(group_keys(result.keys, columns, names), labels)

    return by_value(labelled, valued), [by_value(result) for result in (found["curves"], found["calibrations"]) if result is not None]


# --------------------------------------------------------------------------------------------
# measures over time

PERIOD_UNITS = {"s": 1.0, "m": 60.0, "h": 3600.0, "d": 86_400.0, "w": 604_800.0}
"""The units of ``--period`` and ``--step``: seconds, minutes, hours, days, weeks."""


def duration(text: str, option: str) -> float:
    """A duration of the command line in seconds (``"90s"``, ``"30m"``, ``"1h"``, ``"7d"``,
    ``"2w"``), or a bare number in the time column's own unit.

    Examples:
        >>> duration("1h", "--period"), duration("2.5", "--period")
        (3600.0, 2.5)
    """
    spelled = text.strip().lower()
    scale = PERIOD_UNITS.get(spelled[-1:], None)
    number = spelled[:-1] if scale is not None else spelled
    try:
        value = float(number) * (scale or 1.0)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise InvalidArgumentError(f"{option} must be a duration above 0: a number (the time column's unit) or one with s, m, h, d or w, got {text!r}")
    return value


def batch_times(batch: Batch, dates: bool | None = None) -> tuple[np.ndarray, bool]:
    """The times of a batch's rows as seconds (numbers as they are; ISO 8601 dates and times,
    naive ones as UTC), and whether they were dates; ``dates``: what the earlier batches' were
    (a column holds one kind of time, whatever the batches it is read in).

    Raises:
        InputFileError: a time that is no finite number nor a date, or of the other kind than
            the column's other times (named at its line).
    """
    import datetime

    values = batch.fields["time"]
    texts = [value.decode() if isinstance(value, bytes) else str(value) for value in values]
    where = batch.where("time")
    spelled = [math.inf if text.strip().lower().lstrip("+-") in ("inf", "infinity", "nan") else spelled_float(text) for text in texts]
    if dates is None and texts:  # the column's kind: its first time's
        dates = spelled[0] is None
    if not dates and all(number is not None for number in spelled):
        numbers = np.array(spelled, dtype=np.float64)
        if np.isfinite(numbers).all():
            return numbers, False
    times = []
    for position, (text, number) in enumerate(zip(texts, spelled)):
        if number is not None and not math.isfinite(number):  # (nan, inf, 1e999)
            raise InputFileError(f"{where(position)}: time {text!r} is not a finite number")
        if dates and number is None:
            try:
                moment = datetime.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
            except ValueError:
                moment = None
            if moment is not None:
                times.append((moment if moment.tzinfo is not None else moment.replace(tzinfo=datetime.timezone.utc)).timestamp())
                continue
        elif not dates and number is not None:
            times.append(float(number))
            continue
        kind = ("a number among dates" if number is not None else "a date among numbers" if _is_date(text) else "neither a number nor an ISO 8601 date and time")
        raise InputFileError(f"{where(position)}: time {text!r} is {kind}{': a column holds one kind of time' if 'among' in kind else ''}")
    return np.array(times, dtype=np.float64), bool(dates)


def _is_date(text: str) -> bool:
    import datetime

    try:
        datetime.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


def stream_over_time(arguments: Any, files: list[str], measures: list[Any]) -> OverTime:
    """Single-label rows into one row of measures per window (``--window N`` with ``--step``,
    ``--tumbling N``, or ``--period P`` with ``--time-column``). Two passes over the files: the
    labels first, then the windows; memory holds one window's samples."""
    first, _, _ = stream_labels(arguments, files, False)
    coder, fixed = label_coder([str(label) for label in first.labels]), len(first.labels)
    monitors = file_monitor(arguments, [str(label) for label in first.labels])
    options: dict[str, Any] = {"measures": measures, "undefined": arguments.undefined, "level": arguments.ci_level if arguments.ci else 0.95,
                               "intervals": arguments.ci, "monitor": monitors[0] if monitors else None}  # fmt: skip
    if arguments.period is not None:
        period = duration(arguments.period, "--period")
        options |= {"period": period, "step": duration(arguments.step, "--step") if arguments.step is not None else None,
                    "kind": f"windows of {arguments.period} by {arguments.time_column}, every {arguments.step or arguments.period}"}  # fmt: skip
    elif arguments.window is not None:
        options |= {"window": arguments.window, "step": None if arguments.step is None else int(arguments.step)}
    else:
        options["tumbling"] = arguments.tumbling
    counter: OverTimeCounter | None = None
    dates: bool | None = None  # (the kind of time the first batch set: every later one the same)
    for batch in file_batches(arguments, files, time=arguments.time_column):
        times, dates = batch_times(batch, dates) if arguments.period is not None else (None, False)
        if counter is None:
            counter = OverTimeCounter(range(fixed), dates=dates, **options)
        actual, predicted = (column_codes(coder, batch, role, fixed) for role in ("actual", "predicted"))
        counter.update(actual, predicted, sample_weight=batch_weights(arguments.weight, batch), time=times)
    assert counter is not None  # read_batches raises on a file without rows
    table = counter.table()
    if monitors:  # (the monitor counts the labels' codes: its words name the label itself)
        table = attrs.evolve(table, monitor=monitors[1].description)
    return table if arguments.period is None else attrs.evolve(table, axis=arguments.time_column)


FILE_CHECKPOINT = 1000
"""The samples between a file's monitor's checkpoints (segments) unless ``--monitor-every`` says."""


def file_monitor(arguments: argparse.Namespace, labels: list[str]) -> tuple[Monitor, Monitor] | None:
    """The ``--monitor LEVEL`` of a report over time (``--monitor-measure``, ``--monitor-label``,
    ``--monitor-average``, ``--monitor-every``, ``--monitor-alpha`` or ``--monitor-arl``): the
    ``Monitor`` of the labels' codes, and one of the label as written (its description); None
    without ``--monitor``. A monitor by segments checks every ``FILE_CHECKPOINT`` rows unless
    ``--monitor-every`` says.

    Raises:
        InvalidArgumentError: what ``Monitor`` refuses, named by the options; a label that is
            none of the file's.
    """
    if arguments.monitor is None:
        return None
    label = arguments.monitor_label
    if label is not None and label not in labels:
        raise InvalidArgumentError(f"--monitor-label {label!r} is not a label of the file; its labels are {labels}")
    options = {"average": arguments.monitor_average, "alpha": arguments.monitor_alpha, "arl": arguments.monitor_arl}
    try:
        by_segments = bool(Monitor(arguments.monitor, arguments.monitor_measure, label=label, **options).segments)
        if arguments.monitor_every is not None or by_segments:
            options["every"] = FILE_CHECKPOINT if arguments.monitor_every is None else arguments.monitor_every
        return (Monitor(arguments.monitor, arguments.monitor_measure, label=None if label is None else labels.index(label), **options),
                Monitor(arguments.monitor, arguments.monitor_measure, label=label, **options))  # fmt: skip
    except EvalkitError as error:
        named = str(error)
        for word, option in (("'reference'", "--monitor"), ("'measure'", "--monitor-measure"), ("'label'", "--monitor-label"),
                             ("'average'", "--monitor-average"), ("'every'", "--monitor-every"), ("'alpha'", "--monitor-alpha"), ("'arl'", "--monitor-arl")):  # fmt: skip
            named = named.replace(word, option)
        raise InvalidArgumentError(named) from None


PLOTTED_POINTS = 2_000
"""The samples a regression report keeps for its plots: a uniform sample of the file (seeded, so
the same file draws the same points), whatever its length."""


def stream_regression(arguments: FileOptions, files: list[str]) -> tuple[RegressionMetrics, np.ndarray, np.ndarray]:
    """Numeric targets, batch by batch, into a ``RegressionMetrics`` (exact sums: memory does not
    grow with the rows), and a uniform sample of at most ``PLOTTED_POINTS`` (true, predicted)
    pairs for the plots (each row gets a random key; the smallest keys are kept)."""
    rng = np.random.default_rng(0)
    kept = [np.empty(0)] * 3  # the sample's random keys, true values and predictions

    def read(batch: Batch) -> tuple[tuple, dict[str, Any]]:
        y, p = (scores(batch.fields[role], batch.where(role)) for role in ("actual", "predicted"))
        keys, kept_y, kept_p = (np.concatenate(pair) for pair in zip(kept, (rng.random(len(y)), y, p)))
        chosen = np.argpartition(keys, PLOTTED_POINTS)[:PLOTTED_POINTS] if len(keys) > PLOTTED_POINTS else slice(None)
        kept[:] = keys[chosen], kept_y[chosen], kept_p[chosen]
        return (y, p), {}

    metrics = fold_files(RegressionMetrics(), arguments, files, read, numeric=("actual", "predicted"))
    keys, kept_y, kept_p = kept
    order = np.argsort(keys, kind="stable")
    return metrics, kept_y[order], kept_p[order]


def stream_risk_coverage(arguments: FileOptions, files: list[str], confidence: str) -> RiskCoverage:
    """Actual and predicted labels with a ``confidence`` column, batch by batch, into a
    ``RiskCoverage`` (its size grows with the distinct (confidence, actual, predicted)
    triples), the classes named by their text in the report's order."""
    labels = option_list(arguments.labels)
    coder, fixed = label_coder(labels), None if labels is None else len(labels)
    role = f"score:{confidence}"

    def read(batch: Batch) -> tuple[tuple, dict[str, Any]]:
        return (column_codes(coder, batch, "actual", fixed), column_codes(coder, batch, "predicted", fixed), scores(batch.fields[role], batch.where(role))), {}

    curve = fold_files(RiskCoverage(None if fixed is None else range(fixed)), arguments, files, read, number_columns=[confidence])
    named = curve.renamed([coder.texts[code] for code in curve.labels])
    return named if fixed is not None else named.with_labels(label_order(list(named.labels)))


def stream_set_coverage(arguments: FileOptions, files: list[str], sets: str, separator: str) -> SetCoverage:
    """Actual labels and a column of prediction sets (labels split at ``separator``), batch by
    batch, into a ``SetCoverage`` (``--group`` columns, if given, count per group)."""
    labels = option_list(arguments.labels)
    result = SetCoverage(labels)
    group = None
    if arguments.group:
        named = option_list(arguments.group, "--group") or []
        if len(named) != 1:
            raise InvalidArgumentError(f"--sets counts per group of one --group column, got {arguments.group!r}")
        group = named[0]
    coder, group_coder = label_coder(labels), label_coder(None)

    def read(batch: Batch) -> tuple[tuple, dict[str, Any]]:
        truth = code_texts(coder, column_codes(coder, batch, "actual", None)).tolist()
        where = batch.where("predicted")
        found = [label_set(value, separator, where(position)) for position, value in enumerate(batch.fields["predicted"])]
        role = f"group:{group}"
        groups = None if group is None else code_texts(group_coder, group_coder.codes(batch.fields[role], batch.where(role))).tolist()
        return (truth, found), {"groups": groups}

    try:
        return fold_files(result, arguments, files, read, predicted=sets, groups=None if group is None else [group])
    except UnknownLabelError as error:
        raise InputFileError(f"{files[0]}: {error} (--labels)") from None


def stream_interval_coverage(arguments: FileOptions, files: list[str], bounds: tuple[str, str], edges: list[float] | None) -> IntervalCoverage:
    """True values and two columns of interval bounds (and, with ``edges``, the predictions
    ``--predicted`` that place each row in a bin, or the intervals' midpoints), batch by batch,
    into an ``IntervalCoverage`` (a few sums a bin: memory does not grow with the rows)."""
    roles = [f"score:{bounds[0]}", f"score:{bounds[1]}"]
    numeric = ("actual", "predicted") if arguments.predicted else ("actual",)

    def read(batch: Batch) -> tuple[tuple, dict[str, Any]]:
        y = scores(batch.fields["actual"], batch.where("actual"))
        low, high = (scores(batch.fields[role], batch.where(role)) for role in roles)
        prediction = scores(batch.fields["predicted"], batch.where("predicted")) if arguments.predicted else None
        crossed = crossed_bound(low, high)  # (every value is a finite number: scores() read them so)
        if crossed is not None:
            raise InputFileError(f"{batch.where(roles[0])(crossed[0])}: {crossed[1]}")
        return (y, low, high), {"y_pred": prediction}

    return fold_files(IntervalCoverage(edges), arguments, files, read, scores=list(bounds), predicted=arguments.predicted, numeric=numeric)
