"""Prediction files streamed into results, batch by batch: single-label rows into a compacted
``Evaluation`` (with the curve and the calibration of a score column), label sets into
``LabelSetCounts``, per-class score columns into an evaluation, curves and a calibration, and
rows with group columns into ``ByGroup`` results. Memory is bounded by the counts, never by
the file.

The options are those of ``evalkit report`` (``FileOptions``: an ``argparse`` namespace
has them).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import Any, Protocol

import attrs
import numpy as np

from evalkit.engine._exact import ExactSums, limbs_to_floats
from evalkit.exceptions import InputFileError, InvalidArgumentError, UnknownLabelError
from evalkit.groups._by_group import ByGroup
from evalkit.io.label_codes import (
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
from evalkit.io.over_time import OverTime
from evalkit.io.readers import (
    DEFAULT_COLUMNS,
    Batch,
    Labels,
    header,
    read_batches,
    scores,
)
from evalkit.java.regression_metrics import RegressionMetrics
from evalkit.results.evaluation import Evaluation
from evalkit.scale.over_time import OverTimeCounter
from evalkit.scale.streaming import CalibrationCounts, CurveCounts, LabelSetCounts
from evalkit.scores.calibration import DEFAULT_BINS
from evalkit.scores.conformal import IntervalCoverage, SetCoverage, crossed_bound
from evalkit.scores.curves import ThresholdCurve
from evalkit.scores.scoring import class_log_losses
from evalkit.scores.selective import RiskCoverage


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
    positive: str
    negative: str
    threshold: float
    thresholds: Any
    calibration: str | None
    bins: int | None
    group: str | None
    min_size: float | None
    progress: Callable[[int], None] | None



def file_batches(arguments: FileOptions, files: list[str], **columns: Any) -> Iterator[Batch]:
    """The files' rows in batches (``arguments.progress``, when set, is told the rows read so far)."""
    options = {"actual": arguments.actual, "predicted": arguments.predicted, "weight": arguments.weight} | columns
    yield from read_batches(files, delimiter=arguments.delimiter, batch_size=arguments.batch_size, progress=arguments.progress, **options)


def stream_label_sets(arguments: FileOptions, files: list[str], separator: str) -> Any:
    labels = option_list(arguments.labels)
    known = None if labels is None else frozenset(labels)
    counts = LabelSetCounts(labels, keep_pairs=bool(getattr(arguments, "ci", False)))  # --ci: the pairs of sets its macro averages resample
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
    evaluation = counts.to_evaluation()
    return evaluation if labels else evaluation.with_labels(label_order(evaluation.labels)), counts


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
        merges = [counter._counted_batch(texts, values, weight) for counter in self.counters]
        del texts, values, weight  # (the chunk's scores: not held while the counters merge their batches)
        for merge in merges:
            merge()


def stream_labels(arguments: FileOptions, files: list[str], curve_wanted: bool,
                   ) -> tuple[Evaluation, CurveSource | None, CalibrationCounts | None]:  # fmt: skip
    """Single-label rows, batch by batch, into a compacted Evaluation: memory grows with the
    classes and the distinct (actual, predicted) pairs, never with a dense m x m table. With
    ``--score`` and ``curve_wanted`` also the threshold curve of the scores (exact: its size
    grows with the distinct scores; or at --thresholds)."""
    labels = option_list(arguments.labels)
    coder, fixed = label_coder(labels), None if labels is None else len(labels)
    numbers: dict[int, Any] = {}
    evaluation: Evaluation | None = None
    curve = curve_counts(arguments, curve_wanted and arguments.score is not None, positive=coder.code(arguments.positive),
                         negative=coder.code(arguments.negative))  # fmt: skip
    calibration = calibration_counts(arguments, pos_label=arguments.positive)
    curve_chunks, calibration_chunks = _Chunks(curve), _Chunks(calibration)
    for batch in file_batches(arguments, files, predicted=arguments.predicted if arguments.score is None else arguments.score,
                              numeric=() if arguments.score is None else ("predicted",)):  # fmt: skip
        actual = column_codes(coder, batch, "actual", fixed)
        check_not_scores(coder, actual, batch, "actual", numbers)
        if arguments.score is not None:
            values = scores(batch.fields["predicted"], batch.where("predicted"))
            chosen = [coder.code(arguments.positive), coder.code(arguments.negative)]
            actual = coder.matched(actual, chosen)  # a label written 1.0 is --positive 1
            predicted = codes_within(coder, np.where(values >= arguments.threshold, chosen[0], chosen[1]), batch, "predicted", fixed)
            if curve is not None:  # the areas are those of the two classes the score decides between
                refuse_outside(coder, actual, (actual != chosen[0]) & (actual != chosen[1]), batch, "actual",
                                f"is neither --positive {arguments.positive!r} nor --negative {arguments.negative!r}: the areas of --score are those of two classes")  # fmt: skip
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
    return named_evaluation(evaluation, coder, fixed is not None), None if curve is None else _NamedCurve(curve, coder.texts), calibration


class CurveSource(Protocol):
    """What a report reads a threshold curve from: a ``CurveCounts``, or one counted over codes."""

    def curve(self) -> ThresholdCurve: ...


class _NamedCurve:
    """The curve of a score counted over label codes (``CurveCounts``), read with the labels'
    texts: what ``curve()`` gives is the curve of the texts."""

    def __init__(self, counts: CurveCounts, texts: list[str]) -> None:
        self.counts, self.texts = counts, texts

    def curve(self) -> ThresholdCurve:
        found = self.counts.curve()
        texts, negative = self.texts, found.negative_label
        if type(negative) is int and 0 <= negative < len(texts):
            negative = texts[negative]  # (a negative class no row showed keeps its default: the report names it --negative)
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
    names = {name: Labels() for name in columns}
    found: dict[str, ByGroup | None] = {"labels": None, "curves": None, "calibrations": None}
    extra = {"scores": score_columns} if score_columns else {}
    predicted_column = arguments.score if arguments.score is not None else own_predictions(arguments, files, score_columns) if classes else arguments.predicted
    numeric = ("predicted",) if arguments.score is not None else ()
    for batch in file_batches(arguments, files, groups=columns, predicted=predicted_column, numeric=numeric, **extra):
        actual = column_codes(coder, batch, "actual", fixed, "--scores" if classes else "--labels")
        values: Any = None
        if arguments.score is not None:
            values = scores(batch.fields["predicted"], batch.where("predicted"))
            chosen = [coder.code(arguments.positive), coder.code(arguments.negative)]
            actual = coder.matched(actual, chosen)
            predicted = np.where(values >= arguments.threshold, chosen[0], chosen[1])
        elif classes is not None:
            values = np.column_stack([scores(batch.fields[f"score:{column}"], batch.where("score")) for column in score_columns])
            predicted = column_codes(coder, batch, "predicted", fixed, "--scores") if "predicted" in batch.fields else values.argmax(axis=1)
        else:
            predicted = column_codes(coder, batch, "predicted", fixed)
        groups = {name: code_texts(names[name], names[name].codes(batch.fields[f"group:{name}"], batch.where(f"group:{name}"))) for name in columns}
        texts, weight = code_texts(coder, actual), batch_weights(arguments.weight, batch)
        parts = {"labels": ByGroup.from_labels(texts, code_texts(coder, predicted), groups, labels or classes, sample_weight=weight,
                                               min_size=arguments.min_size)}  # fmt: skip
        options = {"labels": classes} if classes is not None else {"pos_label": arguments.positive}
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
    valued = None
    if arguments.score is None and classes is None and fixed is None:  # labels of the file's own: by value when all are numbers
        code_of = {text: code for code, text in enumerate(coder.texts)}
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


def batch_times(batch: Batch) -> tuple[np.ndarray, bool]:
    """The times of a batch's rows as seconds (numbers as they are; ISO 8601 dates and times,
    naive ones as UTC), and whether they were dates."""
    import datetime

    values = batch.fields["time"]
    texts = [value.decode() if isinstance(value, bytes) else str(value) for value in values]
    where = batch.where("time")
    try:
        return np.array([float(text) for text in texts]), False
    except ValueError:
        pass
    times = []
    for position, text in enumerate(texts):
        try:
            moment = datetime.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
        except ValueError:
            raise InputFileError(f"{where(position)}: time {text!r} is neither a number nor an ISO 8601 date and time") from None
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=datetime.timezone.utc)
        times.append(moment.timestamp())
    return np.array(times), True


def stream_over_time(arguments: Any, files: list[str], measures: list[Any]) -> OverTime:
    """Single-label rows into one row of measures per window (``--window N`` with ``--step``,
    ``--tumbling N``, or ``--period P`` with ``--time-column``). Two passes over the files: the
    labels first, then the windows; memory holds one window's samples."""
    first, _, _ = stream_labels(arguments, files, False)
    coder, fixed = label_coder([str(label) for label in first.labels]), len(first.labels)
    options: dict[str, Any] = {"measures": measures, "undefined": arguments.undefined, "level": arguments.ci_level if arguments.ci else 0.95,
                               "intervals": arguments.ci}  # fmt: skip
    if arguments.period is not None:
        period = duration(arguments.period, "--period")
        options |= {"period": period, "step": duration(arguments.step, "--step") if arguments.step is not None else None,
                    "kind": f"windows of {arguments.period} by {arguments.time_column}, every {arguments.step or arguments.period}"}  # fmt: skip
    elif arguments.window is not None:
        options |= {"window": arguments.window, "step": None if arguments.step is None else int(arguments.step)}
    else:
        options["tumbling"] = arguments.tumbling
    counter: OverTimeCounter | None = None
    for batch in file_batches(arguments, files, time=arguments.time_column):
        times, dates = batch_times(batch) if arguments.period is not None else (None, False)
        if counter is None:
            counter = OverTimeCounter(range(fixed), dates=dates, **options)
        actual, predicted = (column_codes(coder, batch, role, fixed) for role in ("actual", "predicted"))
        counter.update(actual, predicted, sample_weight=batch_weights(arguments.weight, batch), time=times)
    assert counter is not None  # read_batches raises on a file without rows
    return counter.table()


PLOTTED_POINTS = 2_000
"""The samples a regression report keeps for its plots: a uniform sample of the file (seeded, so
the same file draws the same points), whatever its length."""


def stream_regression(arguments: FileOptions, files: list[str]) -> tuple[RegressionMetrics, np.ndarray, np.ndarray]:
    """Numeric targets, batch by batch, into a ``RegressionMetrics`` (exact sums: memory does not
    grow with the rows), and a uniform sample of at most ``PLOTTED_POINTS`` (true, predicted)
    pairs for the plots (each row gets a random key; the smallest keys are kept)."""
    metrics = RegressionMetrics()
    rng = np.random.default_rng(0)
    keys, kept_y, kept_p = np.empty(0), np.empty(0), np.empty(0)
    for batch in file_batches(arguments, files, numeric=("actual", "predicted")):
        y = scores(batch.fields["actual"], batch.where("actual"))
        p = scores(batch.fields["predicted"], batch.where("predicted"))
        metrics.update(y, p, sample_weight=batch_weights(arguments.weight, batch))
        keys, kept_y, kept_p = np.concatenate((keys, rng.random(len(y)))), np.concatenate((kept_y, y)), np.concatenate((kept_p, p))
        if len(keys) > PLOTTED_POINTS:
            chosen = np.argpartition(keys, PLOTTED_POINTS)[:PLOTTED_POINTS]
            keys, kept_y, kept_p = keys[chosen], kept_y[chosen], kept_p[chosen]
    order = np.argsort(keys, kind="stable")
    return metrics, kept_y[order], kept_p[order]


def stream_risk_coverage(arguments: FileOptions, files: list[str], confidence: str) -> RiskCoverage:
    """Actual and predicted labels with a ``confidence`` column, batch by batch, into a
    ``RiskCoverage`` (its size grows with the distinct (confidence, actual, predicted)
    triples), the classes named by their text in the report's order."""
    labels = option_list(arguments.labels)
    coder, fixed = label_coder(labels), None if labels is None else len(labels)
    curve = RiskCoverage(None if fixed is None else range(fixed))
    role = f"score:{confidence}"
    for batch in file_batches(arguments, files, number_columns=[confidence]):
        actual, predicted = column_codes(coder, batch, "actual", fixed), column_codes(coder, batch, "predicted", fixed)
        curve.update(actual, predicted, scores(batch.fields[role], batch.where(role)), sample_weight=batch_weights(arguments.weight, batch))
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
    for batch in file_batches(arguments, files, predicted=sets, groups=None if group is None else [group]):
        truth = code_texts(coder, column_codes(coder, batch, "actual", None)).tolist()
        where = batch.where("predicted")
        found = [label_set(value, separator, where(position)) for position, value in enumerate(batch.fields["predicted"])]
        groups = None
        if group is not None:
            role = f"group:{group}"
            groups = code_texts(group_coder, group_coder.codes(batch.fields[role], batch.where(role))).tolist()
        try:
            result.update(truth, found, groups=groups, sample_weight=batch_weights(arguments.weight, batch))
        except UnknownLabelError as error:
            raise InputFileError(f"{files[0]}: {error} (--labels)") from None
    return result


def stream_interval_coverage(arguments: FileOptions, files: list[str], bounds: tuple[str, str], edges: list[float] | None) -> IntervalCoverage:
    """True values and two columns of interval bounds (and, with ``edges``, the predictions
    ``--predicted`` that place each row in a bin, or the intervals' midpoints), batch by batch,
    into an ``IntervalCoverage`` (a few sums a bin: memory does not grow with the rows)."""
    result = IntervalCoverage(edges)
    roles = [f"score:{bounds[0]}", f"score:{bounds[1]}"]
    numeric = ("actual", "predicted") if arguments.predicted else ("actual",)
    for batch in file_batches(arguments, files, scores=list(bounds), predicted=arguments.predicted, numeric=numeric):
        y = scores(batch.fields["actual"], batch.where("actual"))
        low, high = (scores(batch.fields[role], batch.where(role)) for role in roles)
        prediction = scores(batch.fields["predicted"], batch.where("predicted")) if arguments.predicted else None
        crossed = crossed_bound(low, high)  # (every value is a finite number: scores() read them so)
        if crossed is not None:
            raise InputFileError(f"{batch.where(roles[0])(crossed[0])}: {crossed[1]}")
        result.update(y, low, high, y_pred=prediction, sample_weight=batch_weights(arguments.weight, batch))
    return result
