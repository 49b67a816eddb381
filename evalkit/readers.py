"""Reading prediction files in batches: CSV/TSV, JSON Lines, or two one-column files.

Every problem ends in an ``InputFileError`` whose message names the
file and the line: a missing column, a column named twice in the header, a ragged row, an
empty file, text that is not UTF-8, JSON that does not parse, a key twice in one JSON object,
a column whose JSON values are numbers in one row and strings in another (``1`` is not
``"1"``). Lines end in ``\n`` or ``\r\n``: a carriage return anywhere else (old Mac line
ends, a stray ``\r``) is an error, and so is a quoted CSV field that spans lines (a label
cannot hold a line break) or that never ends (the message names the line where it started).
Files are read row by row and handed on in batches, so memory is bounded by the batch, not
by the file.

Columns are chosen by name. Unless told otherwise the actual values come from the first of
the columns ``actual, y_true, true, label, target, truth, ideal`` that exists, and the
predicted ones from ``predicted, y_pred, pred, prediction, output, result``.
"""

from __future__ import annotations

import csv
import functools
import itertools
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from evalkit.exceptions import InputFileError

__all__ = ["DEFAULT_COLUMNS", "MAX_LINE_BYTES", "header", "read_batches"]

MAX_LINE_BYTES = 1 << 20
"""The longest line a prediction file may have (1 MiB): memory stays bounded by the batch,
whatever the file holds."""

DEFAULT_COLUMNS = {
    "actual": ("actual", "y_true", "true", "label", "target", "truth", "ideal"),
    "predicted": ("predicted", "y_pred", "pred", "prediction", "output", "result"),
}
"""The column names tried, in order, for each role when none is given."""

Batch = tuple[dict[str, list[Any]], list[int]]


def _check_header(header: list[str], path: str) -> None:
    """No column named twice: which one would be meant?"""
    seen: dict[str, int] = {}
    for position, name in enumerate(header, 1):
        if name in seen:
            raise InputFileError(f"{path}:1: the column {name!r} appears twice in the header (columns {seen[name]} and {position})")
        seen[name] = position


def _choose(header: list[str], role: str, wanted: str | None, path: str) -> int:
    candidates = (wanted,) if wanted else DEFAULT_COLUMNS.get(role, ())
    for name in candidates:
        if name in header:
            return header.index(name)
    asked = repr(wanted) if wanted else "any of " + ", ".join(candidates)
    raise InputFileError(f"{path}:1: no column {asked} for the {role} values (columns: {', '.join(header) or 'none'})")


def _lines(path: str) -> Iterator[tuple[int, str]]:
    """Numbered lines of a UTF-8 text file, without their line ends (a byte-order mark is dropped)."""
    try:
        handle = open(path, "rb")  # noqa: SIM115 (opened apart, so that only opening errors become this message)
    except OSError as error:
        raise InputFileError(f"{path}: cannot read the file: {error.strerror or error}") from None
    with handle:
        for number in itertools.count(1):
            raw = handle.readline(MAX_LINE_BYTES + 1)
            if not raw:
                return
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                raise InputFileError(f"{path}:{number}: the line is longer than {MAX_LINE_BYTES:,} bytes; a prediction file holds short lines")
            try:
                line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError:
                raise InputFileError(f"{path}:{number}: the text is not UTF-8") from None
            line = line[:-2] if line.endswith("\r\n") else line.rstrip("\n")
            if "\r" in line:
                raise InputFileError(
                    f"{path}:{number}: a carriage return (\\r) inside the line: lines must end in \\n or \\r\\n "
                    "(a file with old Mac line ends needs converting)"
                )
            yield number, line


def _csv_rows(path: str, columns: dict[str, str | None], delimiter: str) -> Iterator[tuple[int, dict[str, str]]]:
    reader = csv.reader((line + "\n" for _, line in _lines(path)), delimiter=delimiter, strict=True)
    start = 1  # the line the current row starts on

    def rows() -> Iterator[list[str]]:
        nonlocal start
        while True:
            start = reader.line_num + 1
            try:
                row = next(reader)
            except StopIteration:
                return
            except csv.Error as error:
                if reader.line_num > start or "unexpected end of data" in str(error):
                    raise InputFileError(f"{path}:{start}: a quoted field that starts on this line never ends (unterminated quote)") from None
                raise InputFileError(f"{path}:{start}: {error}") from None
            if reader.line_num > start:
                raise InputFileError(f"{path}:{start}: a quoted field spans lines {start} to {reader.line_num}: a label cannot hold a line break")
            yield row

    lines = rows()
    header = next(lines, None)
    if header is None:
        raise InputFileError(f"{path}: the file is empty (no header row)")
    header = [name.strip() for name in header]
    if len(header) == 1:
        _check_delimiter(header[0], delimiter, path)
    _check_header(header, path)
    positions = {role: _choose(header, role, wanted, path) for role, wanted in columns.items()}
    empty = True
    for row in lines:
        if not row:
            continue  # a blank line
        if len(row) != len(header):
            raise InputFileError(f"{path}:{start}: expected {len(header)} fields, got {len(row)}")
        empty = False
        yield start, {role: row[position] for role, position in positions.items()}
    if empty:
        raise InputFileError(f"{path}: no data rows after the header")


_DELIMITER_NAMES = {"\t": "tab", ",": "comma", ";": "semicolon", "|": "vertical bar"}


def _check_delimiter(line: str, delimiter: str, path: str) -> None:
    """A header of one column that another delimiter would split: say so, with the option to use."""
    for candidate, name in _DELIMITER_NAMES.items():
        if candidate != delimiter and candidate in line:
            option = "$'\\t'" if candidate == "\t" else repr(candidate)
            raise InputFileError(
                f"{path}:1: the header {line!r} is one column with the delimiter {delimiter!r}, "
                f"but it holds {name}s: pass --delimiter {option}"
            )


def _jsonl_rows(path: str, columns: dict[str, str | None]) -> Iterator[tuple[int, dict[str, Any]]]:
    names: dict[str, str] | None = None
    kinds: dict[str, tuple[str, int]] = {}  # role -> (JSON type of its values, first line)
    empty = True
    for number, line in _lines(path):
        if not line.strip():
            continue
        try:
            record = json.loads(line, object_pairs_hook=functools.partial(_unique_fields, path=path, number=number))
        except InputFileError:
            raise
        except ValueError as error:
            raise InputFileError(f"{path}:{number}: not valid JSON ({getattr(error, 'msg', error)})") from None
        if not isinstance(record, dict):
            raise InputFileError(f"{path}:{number}: expected a JSON object, got {type(record).__name__}")
        if names is None:
            names = {role: list(record)[_choose(list(record), role, wanted, path)] for role, wanted in columns.items()}
        missing = [name for name in names.values() if name not in record]
        if missing:
            raise InputFileError(f"{path}:{number}: no field {missing[0]!r}")
        empty = False
        row = {role: record[name] for role, name in names.items()}
        for role, value in row.items():  # 1 and "1" in one field would silently become one label
            kind = "number" if isinstance(value, (int, float)) and not isinstance(value, bool) else "string" if isinstance(value, str) else None
            if kind is not None and kinds.setdefault(role, (kind, number))[0] != kind:
                other, first = kinds[role]
                raise InputFileError(
                    f"{path}:{number}: the field {names[role]!r} is a {kind} here but a {other} on line {first}; "
                    "evalkit never merges 1 and \"1\": write one type"
                )
        yield number, row
    if empty:
        raise InputFileError(f"{path}: the file is empty")


def _unique_fields(pairs: list[tuple[str, Any]], path: str, number: int) -> dict[str, Any]:
    record = dict(pairs)
    if len(record) != len(pairs):
        names = [name for name, _ in pairs]
        twice = next(name for name in names if names.count(name) > 1)
        raise InputFileError(f"{path}:{number}: the key {twice!r} appears twice in one object")
    return record


def _paired_rows(paths: tuple[str, str]) -> Iterator[tuple[int, dict[str, str]]]:
    first, second = (_lines(path) for path in paths)
    empty = True
    while True:
        a, b = next(first, None), next(second, None)
        if a is None and b is None:
            break
        if a is None:
            assert b is not None
            raise InputFileError(f"{paths[0]}:{b[0]}: the file ends here, but the other one goes on")
        if b is None:
            raise InputFileError(f"{paths[1]}:{a[0]}: the file ends here, but the other one goes on")
        empty = False
        yield a[0], {"actual": a[1], "predicted": b[1]}
    if empty:
        raise InputFileError(f"{paths[0]}: the file is empty")


def header(path: str, delimiter: str | None = None) -> list[str]:
    """The column names of a table: a CSV/TSV header, or the keys of a JSON Lines file's first object.

    Raises:
        InputFileError: the file cannot be read, or has no header.
    """
    suffix = Path(path).suffix.lower()
    for number, line in _lines(path):
        if not line.strip():
            continue
        if suffix in (".jsonl", ".ndjson"):
            try:
                record = json.loads(line)
            except ValueError as error:
                raise InputFileError(f"{path}:{number}: not valid JSON ({getattr(error, 'msg', error)})") from None
            if not isinstance(record, dict):
                raise InputFileError(f"{path}:{number}: expected a JSON object, got {type(record).__name__}")
            return list(record)
        row = next(csv.reader([line], delimiter=delimiter or ("\t" if suffix in (".tsv", ".tab") else ",")), [])
        return [name.strip() for name in row]
    raise InputFileError(f"{path}: the file is empty (no header row)")


def read_batches(
    paths: list[str],
    *,
    actual: str | None = None,
    predicted: str | None = None,
    weight: str | None = None,
    scores: list[str] | None = None,
    groups: list[str] | None = None,
    delimiter: str | None = None,
    batch_size: int = 100_000,
    progress: Callable[[int], None] | None = None,
) -> Iterator[Batch]:
    """Batches of ``({"actual": [...], "predicted": [...]}, [line numbers])``.

    Args:
        paths: one table (``.csv``, ``.tsv``/``.tab``, ``.jsonl``/``.ndjson``, anything else
            read as CSV) or two one-column files of the same length (one value per line, no
            header).
        actual: the column of the actual values (see ``DEFAULT_COLUMNS`` for the default).
        predicted: the column of the predicted values.
        weight: a column of sample weights (no default: unweighted without it); the
            batches then hold a ``"weight"`` list too.
        scores: score columns (one per class); the batches then hold a list per column,
            under the role ``"score:<column>"``, and ``predicted`` is optional.
        groups: group columns; the batches hold a list per column under ``"group:<column>"``.
        delimiter: the CSV delimiter (default: tab for ``.tsv``/``.tab``, else comma).
        batch_size: rows per batch.
        progress: called with the number of rows read after every batch.
    """
    columns: dict[str, str | None] = {"actual": actual}
    if scores is None or predicted is not None:
        columns["predicted"] = predicted
    if weight is not None:
        columns["weight"] = weight
    for name in scores or ():
        columns[f"score:{name}"] = name
    for name in groups or ():
        columns[f"group:{name}"] = name
    if len(paths) == 2:
        if weight is not None or scores is not None or groups is not None:
            raise InputFileError(f"weight and score columns need one table, not two one-column files ({paths[0]}, {paths[1]})")
        rows: Iterator[tuple[int, dict[str, Any]]] = _paired_rows((paths[0], paths[1]))
    elif len(paths) == 1:
        path = paths[0]
        if os.path.isdir(path):
            raise InputFileError(f"{path}: is a directory, not a file")
        suffix = Path(path).suffix.lower()
        if suffix in (".jsonl", ".ndjson"):
            rows = _jsonl_rows(path, columns)
        else:
            rows = _csv_rows(path, columns, delimiter or ("\t" if suffix in (".tsv", ".tab") else ","))
    else:
        raise InputFileError(f"give one table or two one-column files, got {len(paths)} files")
    values: dict[str, list[Any]] = {role: [] for role in columns}
    lines: list[int] = []
    total = 0
    for number, row in rows:
        for role, column in values.items():
            column.append(row[role])
        lines.append(number)
        if len(lines) >= batch_size:
            total += len(lines)
            yield values, lines
            if progress:
                progress(total)
            values, lines = {role: [] for role in columns}, []
    if lines:
        total += len(lines)
        yield values, lines
        if progress:
            progress(total)
