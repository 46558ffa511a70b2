"""Reading and writing bank files (CSV and JSON) for each kind, before anything touches the database.

JSON files are a list of items shaped exactly like the shipped files in ``questions/data`` (so a shipped
file imports as it is). CSV files have one item per row with the columns
of its kind's ``csv_columns`` (matched case-insensitively; ``,``, ``;`` or tab separated); a cell holding a
list separates its entries with ``;``. Each kind reads and writes its own rows
(:meth:`~questions.kinds.base.BankKind.from_cells`, :meth:`~questions.kinds.base.BankKind.to_cells`).

:func:`parse_upload` turns a file into :class:`ParsedRow`\\ s (each with its line or position, the raw
item dict and any problems reading it) or raises :class:`BankFileError` when the file as a whole is
unusable (encoding, size, JSON syntax, missing columns, no rows).
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from classrooms.csv_quotes import unclosed_quote_line

from .kinds import kind as bank_kind
from .kinds.base import LIST_SEPARATOR
from .validation import parse_number


class BankFileError(Exception):
    """The whole file is refused (encoding, size, syntax, missing columns)."""


@dataclass
class ParsedRow:
    line: int  # CSV line number, or position (1-based) in a JSON list
    raw: Any
    problems: list[str] = field(default_factory=list)


def detect_format(filename: str, text: str) -> str:
    name = (filename or "").lower()
    if name.endswith(".json"):
        return "json"
    if name.endswith(".csv") or name.endswith(".txt"):
        return "csv"
    return "json" if text.lstrip()[:1] in ("[", "{") else "csv"


def decode(data: bytes, *, max_bytes: int) -> str:
    if len(data) > max_bytes:
        raise BankFileError(_("The file is too large (the limit is %(kb)d KB).") % {"kb": max_bytes // 1000})
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise BankFileError(
            _("The file is not UTF-8 text (a problem at byte %(pos)d). Save it as UTF-8 and try again.")
            % {"pos": error.start}
        ) from None
    if "\x00" in text:
        raise BankFileError(_("The file is not a text file."))
    if not text.strip():
        raise BankFileError(_("The file is empty."))
    return text


def parse_upload(
    kind: str, data: bytes, *, filename: str = "", max_bytes: int, max_rows: int
) -> tuple[str, list[ParsedRow]]:
    """``(format, rows)`` of an uploaded file. Raises :class:`BankFileError`."""
    text = decode(data, max_bytes=max_bytes)
    fmt = detect_format(filename, text)
    rows = parse_json(text, max_rows=max_rows) if fmt == "json" else parse_csv(kind, text, max_rows=max_rows)
    if not rows:
        raise BankFileError(_("The file holds no items."))
    return fmt, rows


# --- JSON ---------------------------------------------------------------------------------------------


def parse_json(text: str, *, max_rows: int) -> list[ParsedRow]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise BankFileError(
            _("The file is not valid JSON (line %(line)d, column %(col)d: %(msg)s).")
            % {"line": error.lineno, "col": error.colno, "msg": error.msg}
        ) from None
    except RecursionError:
        raise BankFileError(_("The file is not valid JSON (nested too deeply).")) from None
    if not isinstance(data, list):
        raise BankFileError(_("The file must hold a JSON list of items, like the shipped files."))
    if len(data) > max_rows:
        raise BankFileError(_("The file has more than %(max)d items.") % {"max": max_rows})
    return [ParsedRow(line=index, raw=item) for index, item in enumerate(data, start=1)]


def to_json(items: list[dict]) -> str:
    return json.dumps(items, ensure_ascii=False, indent=2) + "\n"


# --- CSV ----------------------------------------------------------------------------------------------


def _delimiter(header_line: str) -> str:
    counts = {sep: header_line.count(sep) for sep in (",", ";", "\t")}
    best = max(counts, key=lambda sep: counts[sep])
    return best if counts[best] else ","


def refuse_unclosed_quote(text: str, delimiter: str) -> None:
    """Raises :class:`BankFileError` naming the line of a quote the file never closes (the csv reader
    would read every line after it as one cell)."""
    opened = unclosed_quote_line(text, delimiter=delimiter)
    if opened is not None:
        raise BankFileError(
            _(
                'Line %(line)d opens a quote (") that is never closed, so every line after it would be '
                "read as part of one value. Close the quote or remove it, and try again."
            )
            % {"line": opened}
        )


def parse_csv(kind: str, text: str, *, max_rows: int) -> list[ParsedRow]:
    bank = bank_kind(kind)
    first_line = text.lstrip("\ufeff").splitlines()[0] if text.strip() else ""
    delimiter = _delimiter(first_line)
    refuse_unclosed_quote(text, delimiter)
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    try:
        header = next(reader)
    except (StopIteration, csv.Error):
        raise BankFileError(_("The file has no header row.")) from None
    by_lower: dict[str, int] = {}
    for index, name in enumerate(header):
        by_lower.setdefault(name.strip().lower(), index)
    missing = [name for name in bank.required_columns() if name not in by_lower]
    if missing:
        raise BankFileError(
            _("Missing column(s): %(missing)s. The first row must name the columns: %(columns)s.")
            % {"missing": ", ".join(missing), "columns": ",".join(bank.csv_columns)}
        )
    columns = {name: by_lower[name] for name in bank.csv_columns if name in by_lower}
    rows: list[ParsedRow] = []
    try:
        for values in reader:
            if not any(value.strip() for value in values):
                continue
            if len(rows) >= max_rows:
                raise BankFileError(_("The file has more than %(max)d items.") % {"max": max_rows})
            cells = {
                name: _undefuse(values[index]) if index < len(values) else ""
                for name, index in columns.items()
            }
            rows.append(ParsedRow(line=reader.line_num, raw=bank.from_cells(cells)))
    except csv.Error as error:
        raise BankFileError(_("The file is not valid CSV: %(error)s") % {"error": error}) from None
    return rows


def to_csv(kind: str, items: list[dict]) -> str:
    """CSV text for engine dicts of ``kind``; cells a spreadsheet would run as formulas are defused."""
    bank = bank_kind(kind)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(bank.csv_columns)
    for item in items:
        cells = bank.to_cells(item)
        writer.writerow([_defuse(cells.get(column, "")) for column in bank.csv_columns])
    return buffer.getvalue()


_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _defuse(value: str) -> str:
    """A leading apostrophe stops a spreadsheet running the cell; plain numbers are left alone."""
    if value[:1] in _FORMULA_STARTS and isinstance(parse_number(value), str):
        return "'" + value
    return value


def _undefuse(value: str) -> str:
    if value[:1] == "'" and value[1:2] in _FORMULA_STARTS:
        return value[1:]
    return value


__all__ = [
    "LIST_SEPARATOR",
    "BankFileError",
    "ParsedRow",
    "parse_upload",
    "to_csv",
    "to_json",
]
