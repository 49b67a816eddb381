"""The running margins of a matrix counted one sample at a time: reads in O(1) per event.

A stream counts one sample, reads accuracy and a macro F1, counts the next: recomputing every
class's cells from the table for each read costs ``O(m²)`` and about a hundred microseconds of
numpy calls on a small matrix. A ``Tally`` keeps what the reads need as Python integers, kept
current by every one-sample change (``add``, ``+1`` or ``-1`` of one cell):

* the diagonal, row and column sums and the total (so ``tp, fp, fn, tn`` of any class are a
  few additions away: ``fp = col - tp``, ``fn = row - tp``, ``tn = n - row - col + tp``);
* per measure, the value of every class, recomputed only for the classes a change touched:
  one sample of actual ``a`` predicted ``p`` changes the ``tp``, ``fp`` and ``fn`` of ``a`` and
  ``p`` alone (and every class's ``tn``, which matters only to a measure that reads ``tn``:
  those recompute every class, and above ``SMALL`` classes take the vectorised path).

The values are those of the measure's own definition on Python integers (the path the getters
take, exact to one rounding), and the macro average is ``mean_of_numbers`` under the one
undefined-value policy. A change of a few cells (a small batch, ``+=`` of a small part) is
followed cell by cell; a table of changes (a batch counted as a table) drops the tally, made
anew from the table at the next read; a new label builds it anew; a change of more than
``few_cells(m)`` cells followed cell by cell, or weighted counts, drop it, and the next small
change builds it again.

Examples:
    >>> import numpy as np
    >>> tally = Tally(np.array([[3, 1], [0, 2]]))
    >>> tally.add(1, 1, 1)
    >>> tally.accuracy(), tally.cells(0)
    (0.8571428571428571, (3, 0, 1, 3))
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from evalkit._engine._exact import table_margins
from evalkit.measures._averaging import Averaged, class_average, mean_of_numbers
from evalkit.measures._metrics_class import metrics_class_for
from evalkit.measures._registry import Measure, MeasureLike, check_measure_parameters, registry_version, resolve_measure

__all__ = ["SMALL", "TALLIED", "SetTally", "Tally", "few_cells", "tallied"]

SMALL = 64
"""Up to this many classes a measure that reads ``tn`` is recomputed for every class from the
tally's Python integers; above, numpy's vectorised path is the faster one."""


TALLIED = ("micro", "macro", "weighted")
"""The averages a tally reads."""


def tallied(tally: Tally | None, measure: MeasureLike, average: str, undefined: Any, parameters: dict[str, Any], metrics_class: Any,
            own_class: Any) -> Averaged | None:  # fmt: skip
    """The ``average`` of ``measure`` read from a stream's tally, or None where the caller's
    general path reads it (no tally, another average, a measure without a definition on four
    integers). A read by name keeps its resolved measure with the tally, and its value until
    the next change (the caller holds the lock). Names are looked up in ``metrics_class``, or
    in ``own_class``, the result's own."""
    if tally is None or type(average) is not str or average not in TALLIED:  # (anything else: the general path says what is wrong)
        return None
    plain = not parameters and metrics_class is None and type(measure) is str and type(undefined) is str  # a read by name: its measure kept with the tally
    key: tuple[Any, ...] | None = None
    read = None
    if plain:
        key = (measure, average, undefined, own_class, registry_version())
        read = tally.reads.get(key)
        if read is not None and read[0] == tally.changes:
            return read[2]  # nothing counted since the same read
    resolved = read[1] if read is not None else resolve_measure(measure, metrics_class_for(metrics_class, own_class))
    if read is None:
        check_measure_parameters(resolved, parameters)
    found = tally.average(resolved, average, undefined, parameters)
    if found is not None and plain:
        tally.reads[key] = (tally.changes, resolved, found)
    return found


def few_cells(m: int) -> int:
    """The most cells a change of an ``m``-class matrix may touch for its tally to follow it
    cell by cell (and the length of the log of touched classes after which every class is
    recomputed): more, and building the tally again from the table is as cheap."""
    return 4 * m + 64


class Tally:
    """Diagonal, row and column sums of an integer matrix as Python integers, and the per-class
    values of the measures read from it (see the module)."""

    __slots__ = ("changes", "col", "columns", "correct", "diag", "limit", "log", "reads", "row", "total")

    def __init__(self, counts: np.ndarray) -> None:
        diag, rows, columns = table_margins(counts)
        self._begin(diag, rows, columns, sum(rows))

    def _begin(self, diag: list[int], row: list[int], col: list[int], total: int) -> None:
        self.diag, self.row, self.col, self.total = diag, row, col, total
        self.correct: int = sum(self.diag)
        self.log: list[int] = []  # the classes each change touched, in order
        self.limit = few_cells(len(self.row))  # a log this long touches as many classes as there are: recomputing them all is as cheap
        self.columns: dict[Any, list[Any]] = {}  # measure (and parameters) -> [values, log position read up to]
        self.changes = 0  # changes counted so far: a read of as many changes is still current
        self.reads: dict[Any, tuple[int, Measure, Averaged]] = {}  # a read by name -> (changes, its measure, its value), kept by the matrix

    def add(self, row: int, col: int, amount: int) -> None:
        """Count ``amount`` (+1, or -1 to take a sample away) more samples of actual class ``row``
        predicted as ``col``."""
        self.row[row] += amount
        self.col[col] += amount
        self.total += amount
        self.changes += 1
        log = self.log
        if row == col:
            self.diag[row] += amount
            self.correct += amount
            log.append(row)
        else:
            log += (row, col)
        if len(log) > self.limit:
            log.clear()
            self.columns.clear()

    def cells(self, k: int) -> tuple[int, int, int, int]:
        """``(tp, fp, fn, tn)`` of class ``k`` against the rest."""
        tp, row, col = self.diag[k], self.row[k], self.col[k]
        return tp, col - tp, row - tp, self.total - row - col + tp

    def micro_cells(self) -> tuple[int, int, int, int]:
        """``(tp, fp, fn, tn)`` summed over the classes: each wrong sample of a single-label
        matrix is one class's false positive and another's false negative."""
        wrong = self.total - self.correct
        return self.correct, wrong, wrong, len(self.row) * self.total - 2 * self.total + self.correct

    def accuracy(self) -> float:
        """The share of samples on the diagonal (NaN when empty)."""
        return self.correct / self.total if self.total else float("nan")

    def values(self, measure: Measure, parameters: dict[str, Any]) -> list[float] | None:
        """The value of ``measure`` for every class (NaN where undefined), or None where the
        vectorised path is the faster one (a measure without a definition on four integers, or
        one reading ``tn`` on more than ``SMALL`` classes)."""
        key = (measure, *sorted(parameters.items())) if parameters else measure
        column = self.columns.get(key)
        if column is None:
            scalar = getattr(measure.function, "integer_scalar", None)
            reads_tn = getattr(measure.function, "reads_tn", True)
            if scalar is None or (reads_tn and len(self.row) > SMALL):
                return None
            column = self.columns[key] = [[math.nan] * len(self.row), -1, scalar, reads_tn]  # -1: every class to compute
        values, position, scalar, reads_tn = column
        log = self.log
        end = len(log)
        if position == end:
            return values  # nothing changed since the last read
        diag, row, col, total = self.diag, self.row, self.col, self.total
        if position < 0 or reads_tn:  # a new column, or a measure of tn, which changes for every class
            touched: range | list[int] | set[int] = range(len(values))
        else:
            touched = log[position:]  # one event: one or two classes, each once
            if len(touched) > 2:
                touched = set(touched)
        if parameters:
            scalar = functools.partial(scalar, **parameters)  # (bound once: a read by name, the stream's, unpacks no empty dict)
        for k in touched:
            tp = diag[k]
            values[k] = float(scalar(tp, col[k] - tp, row[k] - tp, total - row[k] - col[k] + tp))  # cells(k), inline: the hot loop
        column[1] = end
        return values

    def average(self, measure: Measure, average: str, undefined: Any, parameters: dict[str, Any]) -> Averaged | None:
        """The ``"micro"``, ``"macro"`` or ``"weighted"`` average of ``measure``, as
        ``evalkit.measures._averaging.average_cells`` gives it, or None where the vectorised path is the
        faster one."""
        if average == "micro":
            scalar = getattr(measure.function, "integer_scalar", None)
            if scalar is None:
                return None
            return mean_of_numbers([float(scalar(*self.micro_cells(), **parameters))], undefined=undefined)
        values = self.values(measure, parameters)
        if values is None:
            return None
        return class_average(values, self.row, average, undefined) if average == "weighted" else mean_of_numbers(values, undefined=undefined)


class SetTally(Tally):
    """The running sums of label sets counted one sample at a time (``LabelSetCounts``): per
    label the samples holding it in both sets (``diag``), in the actual (``row``) and in the
    predicted set (``col``), so that a label's ``(tp, fp, fn, tn)`` are a matrix class's
    (``tn = n - row - col + tp``), and the micro sums are the labels' summed.

    Examples:
        >>> tally = SetTally(np.array([[1, 0], [2, 1], [1, 1]]), 3)   # in both, actual, predicted
        >>> tally.change((), (1,), (0,), 1)                         # a sample {1} predicted {0}
        >>> tally.cells(1), tally.micro_cells()                      # (tp, fp, fn, tn)
        ((0, 1, 2, 1), (1, 2, 3, 2))
    """

    __slots__ = ("actual_sum", "predicted_sum")

    def __init__(self, sums: np.ndarray, total: int) -> None:  # (the sums of label sets, not a matrix's counts)
        diag, row, col = (sums[k].tolist() for k in range(3))
        self._begin(diag, row, col, total)
        self.actual_sum, self.predicted_sum = sum(row), sum(col)

    def change(self, both: tuple[int, ...], actual: tuple[int, ...], predicted: tuple[int, ...], amount: int) -> None:
        """Count ``amount`` (+1, or -1 to take it away) of one sample: the codes of its labels in
        both sets, in the actual and in the predicted one."""
        diag, row, col = self.diag, self.row, self.col
        for k in both:
            diag[k] += amount
        for k in actual:
            row[k] += amount
        for k in predicted:
            col[k] += amount
        self.total += amount
        self.correct += amount * len(both)
        self.actual_sum += amount * len(actual)
        self.predicted_sum += amount * len(predicted)
        self.changes += 1
        log = self.log
        log += actual
        log += predicted
        if not (actual or predicted) and row:  # two empty sets: only the true negatives change (every class's), and a read must see it
            log.append(0)
        if len(log) > self.limit:
            log.clear()
            self.columns.clear()

    def micro_cells(self) -> tuple[int, int, int, int]:
        tp = self.correct
        return tp, self.predicted_sum - tp, self.actual_sum - tp, len(self.row) * self.total - self.actual_sum - self.predicted_sum + tp
