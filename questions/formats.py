"""Reading and writing bank files (CSV and JSON) for each kind, before anything touches the database.

JSON files are a list of items shaped exactly like the shipped files in ``questions/data`` (so a shipped
file imports as it is). CSV files have one item per row with the columns of :data:`CSV_COLUMNS`
(matched case-insensitively; ``,``, ``;`` or tab separated); a cell holding a list separates its entries
with ``;`` (Line Up! answers may also be written ``2 5 4 3 1``).

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

from .validation import parse_number

KINDS = ("lineup", "wordup", "concepts")
LIST_SEPARATOR = ";"
ITEM_FIELDS = ("text", "value", "display")

CSV_COLUMNS: dict[str, tuple[str, ...]] = {
    "lineup": (
        "id",
        "heading",
        "order_label",
        "direction",
        *(f"item{n}_{part}" for n in range(1, 6) for part in ITEM_FIELDS),
        "answer",
        "explanation",
        "source",
        "level",
        "subject",
        "tags",
    ),
    "wordup": (
        "id",
        "level",
        "category",
        "prompt",
        "answers",
        "alternatives",
        "letters",
        "first_letter",
        "choices",
        "sentence",
    ),
    "concepts": ("id", "text", "alt", "difficulty", "theme"),
}
OPTIONAL_CSV_COLUMNS: dict[str, set[str]] = {
    "lineup": {"tags"},
    "wordup": {"alternatives", "letters", "first_letter", "choices", "sentence"},
    "concepts": {"alt", "theme"},
}


class BankFileError(Exception):
    """The whole file is refused (encoding, size, syntax, missing columns)."""


@dataclass
class ParsedRow:
    line: int  # CSV line number, or position (1-based) in a JSON list
    raw: Any
    problems: list[str] = field(default_factory=list)


def required_columns(kind: str) -> tuple[str, ...]:
    return tuple(name for name in CSV_COLUMNS[kind] if name not in OPTIONAL_CSV_COLUMNS[kind])


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
    missing = [name for name in required_columns(kind) if name not in by_lower]
    if missing:
        raise BankFileError(
            _("Missing column(s): %(missing)s. The first row must name the columns: %(columns)s.")
            % {"missing": ", ".join(missing), "columns": ",".join(CSV_COLUMNS[kind])}
        )
    columns = {name: by_lower[name] for name in CSV_COLUMNS[kind] if name in by_lower}
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
            rows.append(ParsedRow(line=reader.line_num, raw=CSV_READERS[kind](cells)))
    except csv.Error as error:
        raise BankFileError(_("The file is not valid CSV: %(error)s") % {"error": error}) from None
    return rows


def to_csv(kind: str, items: list[dict]) -> str:
    """CSV text for engine dicts of ``kind``; cells a spreadsheet would run as formulas are defused."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS[kind])
    for item in items:
        cells = CSV_WRITERS[kind](item)
        writer.writerow([_defuse(cells.get(column, "")) for column in CSV_COLUMNS[kind]])
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


def _split(cell: str) -> list[str]:
    return [part.strip() for part in cell.split(LIST_SEPARATOR) if part.strip()]


def _join(values: list[str]) -> str:
    return f"{LIST_SEPARATOR} ".join(values)


# Line Up! rows


def _lineup_from_cells(cells: dict[str, str]) -> dict:
    items = []
    for n in range(1, 6):
        value = cells.get(f"item{n}_value", "")
        items.append(
            {
                "text": cells.get(f"item{n}_text", ""),
                "value": parse_number(value) if value.strip() else None,
                "display": cells.get(f"item{n}_display", ""),
            }
        )
    answer_cell = cells.get("answer", "").replace(",", " ").replace(";", " ").replace("-", " ")
    answer: Any = [int(token) if token.isdigit() else token for token in answer_cell.split()]
    level = cells.get("level", "").strip()
    return {
        "id": cells.get("id", ""),
        "heading": cells.get("heading", ""),
        "order_label": cells.get("order_label", ""),
        "direction": cells.get("direction", "").strip().lower(),
        "items": items,
        "answer": answer,
        "explanation": cells.get("explanation", ""),
        "source": cells.get("source", ""),
        "level": int(level) if level.isdigit() else level,
        "subject": cells.get("subject", ""),
        "tags": _split(cells.get("tags", "")),
    }


def _lineup_to_cells(item: dict) -> dict[str, str]:
    cells = {
        "id": item["id"],
        "heading": item["heading"],
        "order_label": item["order_label"],
        "direction": item["direction"],
        "answer": " ".join(str(n) for n in item["answer"]),
        "explanation": item["explanation"],
        "source": item["source"],
        "level": str(item["level"]),
        "subject": item["subject"],
        "tags": _join(item["tags"]),
    }
    for n, entry in enumerate(item["items"], start=1):
        cells[f"item{n}_text"] = entry["text"]
        # repr keeps a float a float (8.0 stays 8.0) so the round trip gives the same JSON.
        cells[f"item{n}_value"] = repr(entry["value"])
        cells[f"item{n}_display"] = entry["display"]
    return cells


# Word Up rows


def _wordup_from_cells(cells: dict[str, str]) -> dict:
    level = cells.get("level", "").strip()
    letters = cells.get("letters", "").strip()
    raw: dict[str, Any] = {
        "id": cells.get("id", ""),
        "level": int(level) if level.isdigit() else level,
        "category": cells.get("category", "").strip().lower().replace(" ", "_"),
        "prompt": cells.get("prompt", ""),
        "answers": _split(cells.get("answers", "")),
        "alternatives": _split(cells.get("alternatives", "")),
        "letters": int(letters) if letters.isdigit() else (letters or None),
    }
    for name in ("first_letter", "sentence"):
        if cells.get(name, "").strip():
            raw[name] = cells[name]
    if cells.get("choices", "").strip():
        raw["choices"] = _split(cells["choices"])
    return raw


def _wordup_to_cells(item: dict) -> dict[str, str]:
    return {
        "id": item["id"],
        "level": str(item["level"]),
        "category": item["category"],
        "prompt": item["prompt"],
        "answers": _join(item["answers"]),
        "alternatives": _join(item["alternatives"]),
        "letters": str(item["letters"]),
        "first_letter": item.get("first_letter", ""),
        "choices": _join(item.get("choices", [])),
        "sentence": item.get("sentence", ""),
    }


# Concept rows


def _concept_from_cells(cells: dict[str, str]) -> dict:
    raw = {
        "id": cells.get("id", ""),
        "text": cells.get("text", ""),
        "difficulty": cells.get("difficulty", ""),
        "theme": cells.get("theme", ""),
    }
    if cells.get("alt", "").strip():
        raw["alt"] = cells["alt"]
    return raw


def _concept_to_cells(item: dict) -> dict[str, str]:
    return {
        "id": item["id"],
        "text": item["text"],
        "alt": item.get("alt", ""),
        "difficulty": item["difficulty"],
        "theme": item["theme"],
    }


CSV_READERS = {"lineup": _lineup_from_cells, "wordup": _wordup_from_cells, "concepts": _concept_from_cells}
CSV_WRITERS = {"lineup": _lineup_to_cells, "wordup": _wordup_to_cells, "concepts": _concept_to_cells}

__all__ = [
    "CSV_COLUMNS",
    "KINDS",
    "BankFileError",
    "ParsedRow",
    "parse_upload",
    "to_csv",
    "to_json",
]
