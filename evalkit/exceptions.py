"""The exceptions evalkit raises for bad input.

Every exception derives from ``EvalkitError`` and from the built-in
exception a Python user would expect (``ValueError``, ``TypeError``,
``KeyError`` or ``AttributeError``), so ``except ValueError`` keeps working while
``except evalkit.exceptions.EvalkitError`` catches everything evalkit raises on
purpose. Messages name the argument and show the offending value.

Examples:
    >>> from evalkit import ConfusionMatrix
    >>> from evalkit.exceptions import InputLengthError
    >>> try:
    ...     ConfusionMatrix.from_predictions([0, 1, 1], [0, 1])
    ... except ValueError as error:
    ...     print(type(error).__name__, "-", error)
    InputLengthError - 'y_true' has 3 samples but 'y_pred' has 2
"""

from __future__ import annotations

__all__ = [
    "ClassIndexError",
    "CountOverflowError",
    "DuplicateLabelError",
    "EmptyInputError",
    "EvalkitError",
    "EvalkitWarning",
    "FormatError",
    "InputFileError",
    "InputLengthError",
    "InputShapeError",
    "InvalidArgumentError",
    "InvalidCountsError",
    "InvalidLabelError",
    "InvalidTypeError",
    "InvalidValueError",
    "LabelMismatchError",
    "MatrixSizeError",
    "MixedLabelTypesError",
    "NoClosedFormError",
    "NotBinaryError",
    "PluginError",
    "UndefinedMetricWarning",
    "UnknownAttributeError",
    "UnknownElementError",
    "UnknownLabelError",
    "UnknownMetricError",
    "UnsupportedSettingError",
]


class EvalkitError(Exception):
    """Base class of every error evalkit raises on purpose."""


class InputLengthError(EvalkitError, ValueError):
    """Two inputs that must describe the same samples have different lengths."""


class InputShapeError(EvalkitError, ValueError):
    """An input has the wrong number of dimensions or the wrong shape."""


class EmptyInputError(EvalkitError, ValueError):
    """There is nothing to count: no samples and no labels to build on."""


class InvalidLabelError(EvalkitError, ValueError):
    """A label value cannot be a class label (``None`` or NaN)."""


class MixedLabelTypesError(EvalkitError, TypeError, ValueError):
    """Labels mix strings with non-strings (``1`` and ``"1"``), which evalkit never merges (a
    ``TypeError``, and a ``ValueError`` as scikit-learn raises for labels of two types)."""


class UnknownLabelError(EvalkitError, ValueError):
    """A label is not among the labels fixed for the matrix or given in ``labels``."""


class DuplicateLabelError(EvalkitError, ValueError):
    """The same label appears twice in a label list."""


class UnknownElementError(EvalkitError, ValueError):
    """An element is not in the universe of a covering."""


class LabelMismatchError(EvalkitError, ValueError):
    """Two objects that must share their labels (in the same order) do not."""


class InvalidValueError(EvalkitError, ValueError):
    """A value outside its allowed range: an indicator that is not 0/1, a degree outside [0, 1]."""


class NoClosedFormError(EvalkitError, ValueError):
    """A quantity has no closed form for this measure (a Bayes-optimal threshold for precision)."""


class UnsupportedSettingError(EvalkitError, ValueError):
    """An operation does not exist for this kind of data (multi-class kappa of multi-label data)."""


class InvalidCountsError(EvalkitError, ValueError):
    """Counts are negative, fractional, non-finite, or of the wrong shape."""


class CountOverflowError(InvalidCountsError):
    """Counts would pass 2**63 - 1, beyond what evalkit counts exactly: refused, never wrapped."""


class ClassIndexError(EvalkitError, IndexError, ValueError):
    """A class index is outside ``0 .. class_count - 1`` (negative indexes never wrap)."""


class MatrixSizeError(EvalkitError, ValueError):
    """A dense table would exceed a documented size limit (the message names the size and the limit)."""


class NotBinaryError(EvalkitError, ValueError):
    """A two-class operation was asked of a matrix with another number of classes."""


class InvalidArgumentError(EvalkitError, ValueError):
    """An option has a value outside its documented range (an unknown average, beta <= 0, ...)."""


class InvalidTypeError(EvalkitError, TypeError):
    """An argument has a type evalkit cannot use (an unhashable label, a string as counts, ...)."""


class FormatError(EvalkitError, ValueError):
    """A file is not a valid evalkit JSON document (malformed, of another type or version, or hostile)."""


class InputFileError(EvalkitError, ValueError):
    """A prediction file cannot be read: the message names the file, the line and the problem."""


class PluginError(EvalkitError, ValueError):
    """A metrics class named by a plugin (the ``evalkit.measures`` entry points) or by
    ``package.module:Class`` cannot be loaded, or is not a ``ClassificationMetrics`` subclass;
    the message names it and says why."""


class UnknownMetricError(EvalkitError, KeyError):
    """A metric or measure name is not known; the message lists the known names."""

    def __str__(self) -> str:  # KeyError would show the message in quotes
        return str(self.args[0]) if self.args else ""


class UnknownAttributeError(EvalkitError, AttributeError):
    """An object has no such attribute, most often a getter named by an abbreviation or
    misspelt (``get_mcc``); the message suggests the one meant. An ``AttributeError``, so
    ``hasattr`` and ``getattr(obj, name, default)`` keep working."""


class EvalkitWarning(UserWarning):
    """Base class of the warnings evalkit gives (each a ``UserWarning``)."""


class UndefinedMetricWarning(EvalkitWarning):
    """A value was undefined (a 0/0 ratio) and was replaced, as ``zero_division="warn"`` does in
    ``evalkit.metrics`` (scikit-learn's convention); ``zero_division`` or ``undefined`` silence it."""
