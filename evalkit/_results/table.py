"""One table model for every report: columns, rows of cells, a title and notes, written as
aligned text, Markdown, CSV, LaTeX or an HTML fragment by the writers here, once.

A cell is text (written as it is; ``Strong`` text is the best of its row, marked in each
format), a whole number (written as it is), a float (``digits`` decimals, in scientific
notation from 1e16 in size; undefined, NaN, as ``undef``; full precision in CSV) or ``None`` (empty). A row shorter than the columns leaves
the rest empty; a row of one cell is a heading (in text it may run past the first column); an
empty row (or one of empty cells) is a blank line between groups of rows in text, a rule in
LaTeX, and is left out elsewhere. A report
is ``Tabular``: it gives its tables (``as_tables(digits)``) and the table its CSV holds at full
precision (``csv_table()``), and the writers do the rest.

Examples:
    >>> table = Table(("", "recall", "support"), (("cat", 0.75, 4), ("dog", 0.5, 2), (), ("macro avg", 0.625, 6)), notes=("one note",))
    >>> print(table.to_text(digits=2))
                recall  support
    cat           0.75        4
    dog           0.50        2
    <BLANKLINE>
    macro avg     0.62        6
    <BLANKLINE>
    one note
    >>> print(table.to_csv(), end="")
    ,recall,support
    cat,0.75,4
    dog,0.5,2
    macro avg,0.625,6
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

import attrs
import numpy as np

from evalkit._engine._validation import decimal_text, show
from evalkit._results.rendering import render
from evalkit.exceptions import InvalidArgumentError, InvalidTypeError

__all__ = ["UNDEFINED", "Strong", "Table", "Tabular", "check_digits", "shown"]


class Strong(str):
    """Text that stands out (the best of its row): ``*`` after it in text and HTML, bold in
    Markdown and LaTeX."""

    __slots__ = ()


UNDEFINED = "undef"
"""What a cell of an undefined value (NaN) shows."""
_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
                  "~": r"\textasciitilde{}", "^": r"\^{}", "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}"}  # fmt: skip


def shown(cell: Any, digits: int) -> str:
    """A cell as text: whole numbers as they are, floats with ``digits`` decimals (no ``-0.00``;
    scientific from 1e16 in size, ``decimal_text``), undefined as ``undef``.

    Examples:
        >>> shown(-0.0001, 3), shown(float("nan"), 2), shown(7, 2), shown(None, 2), shown(1e300, 2)
        ('0.000', 'undef', '7', '', '1.00e+300')
    """
    if cell is None:
        return ""
    if isinstance(cell, str):
        return cell if "\n" not in cell and "\r" not in cell else type(cell)(" ".join(cell.splitlines()))  # one line: a row stays a row
    if isinstance(cell, (bool, np.bool_, int, np.integer)):
        return str(cell)
    number = float(cell)
    if math.isnan(number):
        return UNDEFINED
    if math.isinf(number):
        return "inf" if number > 0 else "-inf"
    text = decimal_text(number, digits)
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def _exact(cell: Any) -> str:
    """A cell in CSV: floats at full precision (undefined empty), the rest as text."""
    if cell is None or (isinstance(cell, (float, np.floating)) and math.isnan(cell)):
        return ""
    if isinstance(cell, (float, np.floating)):
        return repr(float(cell))
    return str(cell)


def _blank(row: Sequence[Any]) -> bool:
    """A row that only separates groups of rows."""
    return all(cell is None or (isinstance(cell, str) and not cell) for cell in row)


def _markdown(text: str) -> str:
    escaped = str(text).replace("|", "\\|")
    return f"**{escaped}**" if isinstance(text, Strong) else escaped


def _latex(text: str) -> str:
    escaped = "".join(_LATEX_SPECIAL.get(character, character) for character in text)
    return rf"\textbf{{{escaped}}}" if isinstance(text, Strong) else escaped


def _texts(values: Iterable[Any]) -> tuple[str, ...]:
    if isinstance(values, str):
        raise InvalidTypeError(f"'columns' and 'notes' must be lists of texts, not one text, got {show(values)}")
    return tuple(shown(str(value), 0) for value in values)


def _rows(rows: Iterable[Iterable[Any]]) -> tuple[tuple[Any, ...], ...]:
    found = tuple(rows)
    if any(isinstance(row, str) for row in found):
        raise InvalidTypeError(f"'rows' must be lists of cells, not texts, got {show(next(row for row in found if isinstance(row, str)))}")
    return tuple(tuple(row) for row in found)


def _line(text: str) -> str:
    return shown(text, 0)


def check_digits(digits: object) -> int:
    """``digits``, the decimals a writer shows: a whole number in 0..17.

    Raises:
        InvalidArgumentError: anything else.
    """
    if isinstance(digits, bool) or not isinstance(digits, (int, np.integer)) or not 0 <= digits <= 17:
        raise InvalidArgumentError(f"'digits' must be a whole number of decimals in 0..17, got {show(digits)}")
    return int(digits)


def _check_rows(table: Table, attribute: Any, rows: tuple[tuple[Any, ...], ...]) -> None:
    if not table.columns:
        raise InvalidArgumentError("a table needs at least one column, got 'columns' []")
    wide = [row for row in rows if len(row) > len(table.columns)]
    if wide:
        raise InvalidArgumentError(f"'rows' must have at most the {len(table.columns)} columns' cells, got {show(list(wide[0]))}")


@attrs.frozen
class Table:
    """Columns (the first heads the rows' names; ``""`` for none), rows of cells, a title above
    and notes below (see the module)."""

    columns: tuple[str, ...] = attrs.field(converter=_texts)
    rows: tuple[tuple[Any, ...], ...] = attrs.field(converter=_rows, validator=_check_rows)
    title: str = attrs.field(default="", converter=_line)
    notes: tuple[str, ...] = attrs.field(default=(), converter=_texts)

    def _cells(self, digits: int) -> list[list[str]]:
        """The cells as text: ``*`` after the best, the others of its column kept aligned."""
        marked = {k for row in self.rows for k, cell in enumerate(row) if isinstance(cell, Strong)}
        return [[f"{cell} *" if isinstance(cell, Strong) else shown(cell, digits) + ("  " if k in marked else "") for k, cell in enumerate(row)]
                for row in self.rows]  # fmt: skip

    def to_text(self, digits: int = 3) -> str:
        """Aligned text: names to the left, the other columns to the right (at least ``digits``
        + 3 wide), two spaces between."""
        cells = self._cells(check_digits(digits))
        rows = [row for row in cells if len(row) > 1]
        first = max([len(self.columns[0]), *(len(row[0]) for row in rows)])
        widths = [max(len(header), digits + 3, *(len(row[k]) for row in rows if len(row) > k)) for k, header in enumerate(self.columns) if k]
        lines = [self.title] if self.title else []
        for row in [list(self.columns), *cells]:
            if not row:
                lines.append("")
                continue
            lines.append((f"{row[0]:<{first}}" + "".join(f"  {cell:>{width}}" for cell, width in zip(row[1:], widths))).rstrip())
        return "\n".join([*lines, *(["", *self.notes] if self.notes else [])])

    def to_markdown(self, digits: int = 3) -> str:
        """A Markdown table (the title in bold above it, the notes below)."""
        digits, width = check_digits(digits), len(self.columns)
        lines = [f"**{_markdown(self.title)}**", ""] if self.title else []
        lines += ["| " + " | ".join(map(_markdown, self.columns)) + " |", "|---|" + "---:|" * (width - 1)]
        for row in self.rows:
            if not _blank(row):
                cells = [_markdown(shown(cell, digits)) for cell in row]  # (a Strong cell stays Strong: shown gives text as it is)
                lines.append("| " + " | ".join([*cells, *[""] * (width - len(row))]) + " |")
        return "\n".join([*lines, *(["", *(f"{_markdown(note)}  " for note in self.notes)] if self.notes else [])])

    def to_csv(self) -> str:
        """CSV: the columns, then each row at full precision (undefined values empty)."""
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(self.columns)
        writer.writerows([_exact(cell) for cell in row] for row in self.rows if not _blank(row))
        return buffer.getvalue()

    def to_latex(self, digits: int = 3) -> str:
        """A LaTeX ``tabular`` (the title as a comment before it, the notes as comments after it)."""
        digits = check_digits(digits)
        lines = [f"% {self.title}"] if self.title else []
        lines += [r"\begin{tabular}{l" + "r" * (len(self.columns) - 1) + "}", r"\hline", " & ".join(map(_latex, self.columns)) + r" \\", r"\hline"]
        for row in self.rows:
            if not _blank(row):
                lines.append(" & ".join(_latex(shown(cell, digits)) for cell in row) + r" \\")
            else:
                lines.append(r"\hline")
        return "\n".join([*lines, r"\hline", r"\end{tabular}", *(f"% {note}" for note in self.notes)])

    def to_html(self, digits: int = 3) -> str:
        """An HTML ``<table>`` (every text escaped), its title and notes as the caption, cells as
        the text shows them."""
        rows = [[cell.strip() for cell in cell_row] for row, cell_row in zip(self.rows, self._cells(check_digits(digits))) if not _blank(row)]
        return str(render("html_table", " ".join([self.title, *self.notes]).strip(), self.columns, rows, digits))


class Tabular:
    """A report written by the table model: it gives ``as_tables(digits)``, the tables its text
    and Markdown show, and ``csv_table()``, the one table its CSV holds at full precision."""

    __slots__ = ()

    DIGITS: ClassVar[int] = 3
    """The decimals of the text and Markdown when none are asked for."""

    def as_tables(self, digits: int = 3) -> Sequence[Table]:
        raise NotImplementedError

    def csv_table(self) -> Table:
        raise NotImplementedError

    def to_text(self, digits: int | None = None) -> str:
        """The tables as aligned text, a blank line between them."""
        shown = self.DIGITS if digits is None else check_digits(digits)
        return "\n\n".join(table.to_text(shown) for table in self.as_tables(shown))

    def to_markdown(self, digits: int | None = None) -> str:
        """The tables in Markdown."""
        shown = self.DIGITS if digits is None else check_digits(digits)
        return "\n\n".join(table.to_markdown(shown) for table in self.as_tables(shown))

    def to_csv(self) -> str:
        """The CSV table at full precision."""
        return self.csv_table().to_csv()

    def __str__(self) -> str:
        return self.to_text()
