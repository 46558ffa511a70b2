"""Parsing roster CSV files (OneRoster-style columns) into checked rows, before anything is written.

Required columns: ``sourcedId``, ``givenName``. Optional: ``familyName``, ``grades``, ``class``,
``englishLevel``, ``numeracyLevel`` (1-5). Column names are matched case-insensitively.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from .csv_quotes import unclosed_quote_line
from .models import NAME_MAX_LENGTH

REQUIRED_COLUMNS = ("sourcedId", "givenName")
OPTIONAL_COLUMNS = ("familyName", "grades", "class", "englishLevel", "numeracyLevel")
EXPORT_COLUMNS = (*REQUIRED_COLUMNS, *OPTIONAL_COLUMNS)
LEVEL_COLUMNS = {"englishLevel": "english_vocabulary", "numeracyLevel": "numeracy"}
ROSTER_ID_PATTERN = re.compile(r"^[A-Za-z0-9._:@-]{1,64}$")
#: Control characters, and the invisible ones that reorder or hide text (bidi overrides and isolates,
#: zero-width spaces, the byte-order mark): a name must look like what it is.
CONTROL_CHARS = re.compile(
    r"[\x00-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]"
)
JOINERS = "\u200c\u200d"


class RosterFileError(Exception):
    """The whole file is refused (encoding, size, missing columns)."""


@dataclass
class RosterRow:
    line: int
    external_id: str
    given_name: str
    family_name: str = ""
    grade: str = ""
    class_name: str = ""
    levels: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {
            "line": self.line,
            "external_id": self.external_id,
            "given_name": self.given_name,
            "family_name": self.family_name,
            "grade": self.grade,
            "class_name": self.class_name,
            "levels": self.levels,
            "errors": self.errors,
        }

    @classmethod
    def from_dict(cls, data: dict) -> RosterRow:
        return cls(**data)


def clean_name(value: str, *, max_length: int = NAME_MAX_LENGTH) -> str:
    """Trim, fold inner whitespace and drop control characters. Raises ValueError when too long."""
    value = _joiners_between_letters(CONTROL_CHARS.sub("", value or ""))
    value = " ".join(value.split())
    if len(value) > max_length:
        raise ValueError(_("is longer than %(max)d characters") % {"max": max_length})
    return value


def clean_grade(value: str, *, max_length: int = 20) -> str:
    """A grade (``07``, ``Year 7``) as ``clean_name`` cleans a name, cut to the field's length."""
    return " ".join(_joiners_between_letters(CONTROL_CHARS.sub("", value or "")).split())[:max_length]


def _joiners_between_letters(value: str) -> str:
    """Zero-width (non-)joiners shape Persian or Indic letters; anywhere else they only hide a difference."""
    if not any(char in JOINERS for char in value):
        return value
    kept = []
    for index, char in enumerate(value):
        if char in JOINERS:
            before = value[index - 1] if index else ""
            after = value[index + 1] if index + 1 < len(value) else ""
            if not all(c.isalpha() and not c.isascii() for c in (before, after) if c) or not (
                before and after
            ):
                continue
        kept.append(char)
    return "".join(kept)


def _script_letter(char: str) -> bool:
    return bool(char) and char.isalpha() and not char.isascii()


def decode_upload(data: bytes, *, max_bytes: int) -> str:
    if len(data) > max_bytes:
        raise RosterFileError(
            _("The file is too large (the limit is %(kb)d KB).") % {"kb": max_bytes // 1000}
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise RosterFileError(
            _("The file is not UTF-8 text (a problem at byte %(pos)d). Save it as “CSV UTF-8” and try again.")
            % {"pos": error.start}
        ) from None


def parse_roster(data: bytes, *, classroom_name: str, max_bytes: int, max_rows: int) -> list[RosterRow]:
    """Every row with its errors. Raises :class:`RosterFileError` when the file as a whole is unusable."""
    text = decode_upload(data, max_bytes=max_bytes)
    if not text.strip():
        raise RosterFileError(_("The file is empty."))
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    opened = unclosed_quote_line(text, dialect)
    if opened is not None:
        raise RosterFileError(
            _(
                'Line %(line)d opens a quote (") that is never closed, so every line after it would be '
                "read as part of one name. Close the quote or remove it, and upload the file again."
            )
            % {"line": opened}
        )
    reader = csv.reader(io.StringIO(text), dialect)
    try:
        header = next(reader)
    except (StopIteration, csv.Error):
        raise RosterFileError(_("The file has no header row.")) from None
    columns = _map_columns(header)
    rows: list[RosterRow] = []
    try:
        for line_number, values in enumerate(reader, start=2):
            if not any(value.strip() for value in values):
                continue
            if len(rows) >= max_rows:
                raise RosterFileError(_("The file has more than %(max)d students.") % {"max": max_rows})
            rows.append(_parse_row(line_number, values, columns, classroom_name))
    except csv.Error as error:
        raise RosterFileError(_("The file is not valid CSV: %(error)s") % {"error": error}) from None
    if not rows:
        raise RosterFileError(_("The file has a header but no students."))
    _flag_duplicates(rows)
    return rows


def _map_columns(header: list[str]) -> dict[str, int]:
    by_lower = {name.strip().lower(): index for index, name in enumerate(header)}
    missing = [name for name in REQUIRED_COLUMNS if name.lower() not in by_lower]
    if missing:
        raise RosterFileError(
            _("Missing column(s): %(missing)s. The first row must name the columns, e.g. %(example)s.")
            % {"missing": ", ".join(missing), "example": ",".join(EXPORT_COLUMNS)}
        )
    return {
        name: by_lower[name.lower()]
        for name in (*REQUIRED_COLUMNS, *OPTIONAL_COLUMNS)
        if name.lower() in by_lower
    }


def _cell(values: list[str], columns: dict[str, int], name: str) -> str:
    index = columns.get(name)
    if index is None or index >= len(values):
        return ""
    return values[index]


def _parse_row(line: int, values: list[str], columns: dict[str, int], classroom_name: str) -> RosterRow:
    errors: list[str] = []

    def name_field(column: str, label: str, required: bool) -> str:
        try:
            value = clean_name(_cell(values, columns, column))
        except ValueError as error:
            errors.append(f"{label} {error}")
            return ""
        if required and not value:
            errors.append(_("%(label)s is empty") % {"label": label})
        return value

    external_id = _cell(values, columns, "sourcedId").strip()
    if not external_id:
        errors.append(_("sourcedId is empty"))
    elif not ROSTER_ID_PATTERN.match(external_id):
        errors.append(_("sourcedId may only hold letters, digits and . _ : @ - (at most 64)"))
    given = name_field("givenName", "givenName", required=True)
    family = name_field("familyName", "familyName", required=False)
    grade = clean_grade(_cell(values, columns, "grades"))
    class_name = " ".join(_cell(values, columns, "class").split())
    if class_name and class_name.lower() != classroom_name.lower():
        errors.append(_("belongs to class “%(other)s”, not this class") % {"other": class_name[:60]})
    levels: dict[str, int] = {}
    for column, skill in LEVEL_COLUMNS.items():
        raw = _cell(values, columns, column).strip()
        if not raw:
            continue
        if raw in {"1", "2", "3", "4", "5"}:
            levels[skill] = int(raw)
        else:
            errors.append(_("%(column)s must be a level from 1 to 5") % {"column": column})
    return RosterRow(line, external_id, given, family, grade, class_name, levels, errors)


def _flag_duplicates(rows: list[RosterRow]) -> None:
    first_line: dict[str, int] = {}
    for row in rows:
        if not row.external_id:
            continue
        key = row.external_id.lower()
        if key in first_line:
            row.errors.append(
                _("sourcedId %(id)s is also on line %(line)d")
                % {"id": row.external_id, "line": first_line[key]}
            )
        else:
            first_line[key] = row.line


def roster_csv(rows: list[dict]) -> str:
    """CSV text with :data:`EXPORT_COLUMNS`; cells that a spreadsheet would run as formulas are defused."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(EXPORT_COLUMNS)
    for row in rows:
        writer.writerow([_defuse(str(row.get(column, ""))) for column in EXPORT_COLUMNS])
    return buffer.getvalue()


def _defuse(value: str) -> str:
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value
