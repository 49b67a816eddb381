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
import html
import io
import math
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

import attrs
import numpy as np

from evalkit._engine._labels import label_text
from evalkit._engine._validation import count_number, decimal_text, show
from evalkit._results.rendering import render
from evalkit.exceptions import InvalidArgumentError, InvalidTypeError

__all__ = ["UNDEFINED", "Strong", "Table", "Tabular", "check_digits", "counts_table", "shown"]


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
    role: str = attrs.field(default="", kw_only=True, converter=_line)
    """The table's part in its report, its class in HTML (``"metrics"``, ``"summary"``,
    ``"intervals"``); a ``"heatmap"`` shades each number by its share of the row."""

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
        """An HTML ``<table>`` of class ``role`` (every text escaped): the title as its caption,
        each row's name its header, the cells as the text shows them (an undefined one marked,
        the best of a row bold), the rows after a blank row (averages, overall values) shaded,
        and the notes after it."""
        digits = check_digits(digits)
        heatmap = self.role == "heatmap"
        head = "".join(f'<th scope="col">{html.escape(column)}</th>' for column in self.columns)
        body, below = [], False
        for row in self.rows:
            if _blank(row):
                below = True
                continue
            shares = _shares(row) if heatmap else None
            name = f'<th scope="row">{html.escape(shown(row[0], digits))}</th>' if row else ""
            cells = name + "".join(_html_cell(cell, digits, None if shares is None else shares[k]) for k, cell in enumerate(row[1:]))
            body.append(f"<tr{_AVERAGE if below else ''}>{cells}</tr>")
        caption = f"<caption>{html.escape(self.title)}</caption>" if self.title else ""
        notes = "".join(f'<p class="note">{html.escape(note)}</p>' for note in self.notes)
        role = f' class="{html.escape(self.role)}"' if self.role else ""
        return f"<table{role}>{caption}<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>{notes}"

    def _repr_html_(self) -> str:
        return str(render("html_fragment", self.to_html()))


_AVERAGE = ' class="average"'
"""The class of an HTML row below a table's blank row (an average, an overall value)."""


def _html_cell(cell: object, digits: int, share: float | None = None) -> str:
    """One cell of an HTML table: undefined marked, the best bold, a heat map's shaded by its
    share of the row (``share``)."""
    text = html.escape(shown(cell, digits))
    if isinstance(cell, Strong):
        return f"<td><b>{text}</b></td>"
    if text == UNDEFINED:
        return f'<td class="undefined">{text}</td>'
    if share is None:
        return f"<td>{text}</td>"
    level = 0.0 if math.isnan(share) else min(max(share, 0.0), 1.0)
    red, green, blue = (round(255 + (high - 255) * level) for high in (9, 105, 218))  # white to blue
    title = "" if math.isnan(share) else f' title="{share:.1%} of the row"'
    return f'<td style="background: rgb({red}, {green}, {blue}); color: {"#ffffff" if level > 0.55 else "#1b1f24"}"{title}>{text}</td>'


def _shares(row: Sequence[Any]) -> list[float]:
    """Each number of a row (after its name) as its share of the row's sum (NaN for a row of none)."""
    values = [float(cell) if isinstance(cell, (int, float, np.integer, np.floating)) else math.nan for cell in row[1:]]
    largest = max((abs(value) for value in values if math.isfinite(value)), default=0.0)
    scaled = [value / largest if largest else math.nan for value in values]  # (sums of counts near float64's largest would overflow)
    total = math.fsum(value for value in scaled if not math.isnan(value))
    return [value / total if total else math.nan for value in scaled]


def counts_table(labels: Sequence[Any], counts: np.ndarray) -> Table:
    """A confusion matrix as a table (a heat map in HTML): rows actual, columns predicted,
    whole counts as integers.

    Examples:
        >>> print(counts_table(["a", "b"], np.array([[2.0, 0.5], [0.0, 1.0]])).to_text(1))
        Confusion matrix (rows actual, columns predicted)
        actual \\ predicted     a     b
        a                     2   0.5
        b                     0     1
    """
    rows = [[label_text(label), *map(count_number, row)] for label, row in zip(labels, np.asarray(counts).tolist())]
    return Table(["actual \\ predicted", *map(label_text, labels)], rows, title="Confusion matrix (rows actual, columns predicted)", role="heatmap")


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

    HTML_TITLE: ClassVar[str] = "evalkit report"
    """The heading of the HTML page when none is asked for."""

    def to_html(self, digits: int = 3, *, title: str | None = None, subtitle: str = "", **figures: object) -> str:
        """One self-contained HTML page (no script, no network): the title, the tables and the
        figures (``figures``: what the report's charts take, such as a ``curve``)."""
        heading = self.HTML_TITLE if title is None else title
        sections = [f"<h1>{html.escape(heading)}</h1>", *([f'<p class="note">{html.escape(subtitle)}</p>'] if subtitle else [])]
        return str(render("page", heading, [*sections, self._html_body(check_digits(digits), **figures)]))

    def _repr_html_(self) -> str:
        """The tables and figures in a notebook (escaped, no script)."""
        return str(render("html_fragment", self._html_body(self.DIGITS)))

    def _html_body(self, digits: int, **figures: object) -> str:
        """The tables, then the figures, as HTML."""
        return "".join([*(table.to_html(digits) for table in self._page_tables(digits)), *self._figures(digits, **figures)])

    def _page_tables(self, digits: int) -> Sequence[Table]:
        """The tables of the HTML page: ``as_tables``, unless a report shows more there."""
        return self.as_tables(digits)

    def _figures(self, digits: int) -> list[str]:
        """The charts of the HTML page, after the tables (HTML fragments): none unless a report draws some."""
        return []

    def __str__(self) -> str:
        return self.to_text()
