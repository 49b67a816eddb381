"""ADWIN, the adaptive window of Bifet & Gavaldà ("Learning from time-changing data with
adaptive windowing", SDM 2007), as MOA computes it, and ``Adaptive``: a window of a confusion
matrix over the samples ADWIN keeps of their correctness (MOA's
``AdwinClassificationPerformanceEvaluator`` beside ``Windowed`` and ``Faded``).

ADWIN keeps the recent values of a stream in buckets of ``2^i`` values (at most five of each
size; a sixth merges the two oldest) and, every ``clock`` values, drops its oldest bucket while
some split of the window into an older and a newer part has means further apart than

    ε = sqrt(2 m v ln(2 ln(W) / δ)) + (2/3) m ln(2 ln(W) / δ),   m = 1/(n₀ − 4) + 1/(n₁ − 4),

``v`` the variance of the whole window of ``W`` values and ``n₀, n₁ > 6`` the parts' lengths:
the window shrinks to what came after a change and grows while nothing changes. Every
operation follows MOA's order of floating-point steps, so widths and means are MOA's to the bit.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from evalkit._engine import serialization
from evalkit._engine._labels import same_labels
from evalkit._engine._types import LabelsLike
from evalkit._engine._validation import show
from evalkit._results.confusion_matrix import ConfusionMatrix
from evalkit._scale.windows import Windowed
from evalkit.exceptions import InvalidArgumentError, InvalidTypeError, InvalidValueError

__all__ = ["Adaptive", "Adwin"]

_MOST_BUCKETS = 5
"""Buckets of one size a row keeps; a sixth merges the two oldest into one of the next size."""

_LEAST_CHECKED = 10
"""The smallest window whose splits are tested."""

_LEAST_PART = 7
"""The fewest values each part of a split holds to be tested."""


class Adwin:
    """ADWIN over a stream of numbers: ``update(x)`` adds one (``True`` when the window shrank);
    ``width``, ``estimation`` (the window's mean) and ``variance`` read it.

    Args:
        delta: the confidence of the cut test (smaller: fewer false changes, later detection).
        clock: how many values pass between tests (MOA: 32).

    Examples:
        >>> detector = Adwin()
        >>> changed = [detector.update(x) for x in [1.0] * 100 + [0.0] * 100]
        >>> changed.index(True) + 1, detector.width, round(detector.estimation, 4)
        (128, 112, 0.1071)
    """

    def __init__(self, delta: float = 0.002, clock: int = 32) -> None:
        if isinstance(delta, bool) or not isinstance(delta, (int, float, np.integer, np.floating)) or not 0 < delta < 1:
            raise InvalidArgumentError(f"'delta' must be a number in (0, 1), e.g. 0.002; got {show(delta)}")
        if isinstance(clock, bool) or not isinstance(clock, (int, np.integer)) or clock < 1:
            raise InvalidArgumentError(f"'clock' must be a whole number >= 1, got {show(clock)}")
        self.delta, self.clock = float(delta), int(clock)
        self.time = 0  # values seen
        self.width = 0  # values in the window
        self.total = 0.0  # their sum
        self._spread = 0.0  # their sum of squared deviations from their mean
        self._rows: list[list[list[float]]] = [[]]  # row i: buckets [sum, spread] of 2**i values, oldest first; row 0 the newest

    @property
    def estimation(self) -> float:
        """The mean of the window (NaN before any value)."""
        return self.total / self.width if self.width else math.nan

    @property
    def variance(self) -> float:
        """The variance of the window (NaN before any value)."""
        return self._spread / self.width if self.width else math.nan

    def update(self, x: float) -> bool:
        """Add ``x``; every ``clock`` values, drop the oldest buckets while a split of the window
        tells a change. True when the window shrank."""
        if isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating)):
            raise InvalidArgumentError(f"'x' must be a number, got {show(x)}")
        if not math.isfinite(x):
            raise InvalidValueError(f"'x' must be a finite number, got {show(x)}: a NaN or an infinity would hold the mean for ever (MOA takes it so)")
        self.time += 1
        self._insert(float(x))
        shrank = False
        if self.time % self.clock == 0 and self.width > _LEAST_CHECKED:
            while self._split_differs():
                self._drop_oldest()
                shrank = True
        return shrank

    def _insert(self, x: float) -> None:
        self.width += 1
        self._rows[0].append([x, 0.0])
        if self.width > 1:
            d = x - self.total / (self.width - 1)
            self._spread += (self.width - 1) * d * d / self.width
        self.total += x
        i = 0
        while len(self._rows[i]) == _MOST_BUCKETS + 1:  # a sixth bucket: the two oldest become one of twice the size
            if i + 1 == len(self._rows):
                self._rows.append([])
            n = 2**i
            (first, first_spread), (second, second_spread) = self._rows[i][:2]
            gap = first / n - second / n
            self._rows[i + 1].append([first + second, first_spread + second_spread + (n * n) * gap * gap / (n + n)])
            del self._rows[i][:2]
            i += 1

    def _split_differs(self) -> bool:
        """Whether some split into the older and the newer values has means further apart than ε."""
        older, newer, older_sum, newer_sum = 0, self.width, 0.0, self.total
        for i in range(len(self._rows) - 1, -1, -1):
            for k, (bucket_sum, _) in enumerate(self._rows[i]):
                older, newer = older + 2**i, newer - 2**i
                older_sum, newer_sum = older_sum + bucket_sum, newer_sum - bucket_sum
                if i == 0 and k == len(self._rows[0]) - 1:  # the newest bucket: no split left
                    return False
                if older >= _LEAST_PART and newer >= _LEAST_PART and abs(older_sum / older - newer_sum / newer) > self._epsilon(older, newer):
                    return True
        return False

    def _epsilon(self, older: int, newer: int) -> float:
        dd = math.log(2 * math.log(self.width) / self.delta)
        m = 1.0 / (older - 4) + 1.0 / (newer - 4)
        spread = 2 * m * (self._spread / self.width) * dd
        return (math.sqrt(spread) if spread >= 0 else math.nan) + 0.6666666666666666 * dd * m

    def _drop_oldest(self) -> None:
        size = 2 ** (len(self._rows) - 1)
        bucket_sum, bucket_spread = self._rows[-1].pop(0)
        self.width -= size
        self.total -= bucket_sum
        gap = bucket_sum / size - self.total / self.width
        self._spread -= bucket_spread + (size * self.width) * gap * gap / (size + self.width)
        if not self._rows[-1]:
            self._rows.pop()

    def state(self) -> dict[str, Any]:
        """What a document keeps of the detector (its settings and buckets)."""
        return {"delta": self.delta, "clock": self.clock, "time": self.time, "width": self.width, "total": self.total, "spread": self._spread,
                "rows": [[list(bucket) for bucket in row] for row in self._rows]}  # fmt: skip

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> Adwin:
        """The detector of a ``state()``."""
        try:
            detector = cls(state["delta"], state["clock"])
            detector.time, detector.width, detector.total, detector._spread = int(state["time"]), int(state["width"]), float(state["total"]), float(state["spread"])
            detector._rows = [[[float(total), float(spread)] for total, spread in row] for row in state["rows"]]
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidTypeError(f"not the state of an ADWIN: {error}") from None
        held = sum(bucket_sum for row in detector._rows for bucket_sum, _ in row)
        if not detector._rows or sum(2**i * len(row) for i, row in enumerate(detector._rows)) != detector.width or not math.isclose(
                held, detector.total, rel_tol=1e-9, abs_tol=1e-9 * max(1, detector.width)):  # fmt: skip
            raise InvalidTypeError(f"not the state of an ADWIN: its buckets do not hold its {detector.width} values summing to {detector.total}")
        return detector

    def __repr__(self) -> str:
        return f"Adwin(delta={self.delta}, width={self.width}, estimation={self.estimation})"


class Adaptive(Windowed[ConfusionMatrix]):
    """A confusion matrix of the samples an ADWIN of their correctness keeps (``1`` right, ``0`` wrong): the window grows while the accuracy holds and
    drops what came before a change. Its accuracy is the accuracy MOA's
    ``AdwinClassificationPerformanceEvaluator`` prints (one ADWIN there too); every other measure
    is read from the same window (MOA keeps one ADWIN for each of its other counts, each of its
    own width, so its kappas and per-class values mix windows).

    Args:
        template: an empty ``ConfusionMatrix`` (its labels, or none yet).
        delta: ADWIN's confidence (MOA: 0.002).
        clock: the samples between two tests of the window (MOA: 32).

    Weights count in the matrix, not in what ADWIN watches (whether each prediction is right):
    MOA's evaluator feeds its ADWIN ``w`` for a right prediction (a windowed mean of ``w · [right]``,
    not a weighted accuracy) and skips samples of weight 0, so its accuracy is this window's for
    unweighted samples only.

    Examples:
        >>> from evalkit import ConfusionMatrix
        >>> window = Adaptive(ConfusionMatrix([0, 1]))
        >>> for k in range(300):
        ...     window.update([k % 2], [k % 2 if k < 150 or k % 10 < 3 else 1 - k % 2])
        >>> len(window), round(window.get_accuracy(), 3)
        (156, 0.327)
    """

    DOCUMENT = "Adaptive"

    def __init__(self, template: ConfusionMatrix, delta: float = 0.002, clock: int = 32) -> None:
        if not isinstance(template, ConfusionMatrix):
            raise InvalidTypeError(f"'template' must be a ConfusionMatrix: an adaptive window watches whether each predicted label is right, got {show(template)}")
        super(Windowed, self).__init__(template)  # (the template and the result, without Windowed's choice of size or period)
        self._begin(None, None)  # (no size, no period: ADWIN decides what stays)
        self.adwin = Adwin(delta, clock)

    def _update(self, batch: tuple[LabelsLike, ...], sample_weight: ArrayLike | None, time: ArrayLike | None, columns: dict[str, object]) -> None:
        if len(batch) != 2 or columns or time is not None:
            raise InvalidArgumentError("an adaptive window counts batches of (y_true, y_pred): its ADWIN watches whether each prediction is right")
        super()._update(batch, sample_weight, None, columns)

    def _excess(self, batch: Sequence[Any]) -> int:
        """Whether each prediction of the batch (counted) is right, to ADWIN; what it no longer keeps leaves."""
        for actual, predicted in zip(*map(_values, batch)):
            self.adwin.update(1.0 if same_labels((actual,), (predicted,)) else 0.0)  # (True is not 1; 1 is 1.0)
        return self._count - self.adwin.width

    def _settings_document(self) -> dict[str, Any]:
        return {"delta": self.adwin.delta, "clock": self.adwin.clock}

    @classmethod
    def _read_settings(cls, document: dict[str, Any]) -> dict[str, Any]:
        return {"delta": document.get("delta"), "clock": document.get("clock")}

    def _state_document(self) -> dict[str, Any]:
        return {**super()._state_document(), "adwin": self.adwin.state()}

    def _read_state(self, document: dict[str, Any], options: dict[str, Any]) -> None:
        super()._read_state(document, options)
        try:
            self.adwin = Adwin.from_state(serialization.field(document, "adwin"))
        except InvalidTypeError as error:
            raise serialization.FormatError(f"field 'adwin': {error}") from None
        if self.adwin.width != self._count:
            raise serialization.FormatError(f"field 'adwin' keeps {self.adwin.width} samples, but the window's batches hold {self._count}")


def _values(column: LabelsLike) -> list[Hashable]:
    """A column's labels as Python values."""
    return np.asarray(column, dtype=object).ravel().tolist() if not isinstance(column, list) else column
