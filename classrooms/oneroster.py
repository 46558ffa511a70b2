"""Reading a OneRoster 1.1 CSV export (a zip from the school's SIS) into checked records, before
anything is written. Pure Python: no database.

The zip must hold ``manifest.csv`` (``propertyName,value``; ``oneroster.version`` 1.1) and the files the
manifest marks ``bulk``: ``orgs.csv``, ``users.csv``, ``classes.csv`` and ``enrollments.csv`` are
needed; ``academicSessions.csv`` and ``courses.csv`` are read when present (courses give a class its
subject). Every problem is reported with its file and line; one problem refuses the whole sync.

The zip is never extracted to disk. Entry names are checked (no folders climbing out, no absolute
paths), sizes are checked before and while reading (a zip bomb stops at the limit, whatever its header
claims), and every file must be UTF-8.
"""

from __future__ import annotations

import csv
import io
import zipfile
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext as _

from .csv_quotes import unclosed_quote_line
from .roster import ROSTER_ID_PATTERN, clean_name

MANIFEST = "manifest.csv"
REQUIRED_FILES = ("orgs.csv", "users.csv", "classes.csv", "enrollments.csv")
OPTIONAL_FILES = ("academicSessions.csv", "courses.csv")
#: Each file's columns in the OneRoster 1.1 CSV binding (in the spec's order, as exports write them).
COLUMNS = {
    "orgs.csv": ("sourcedId", "status", "dateLastModified", "name", "type", "identifier", "parentSourcedId"),
    "academicSessions.csv": (
        "sourcedId",
        "status",
        "dateLastModified",
        "title",
        "type",
        "startDate",
        "endDate",
        "parentSourcedId",
        "schoolYear",
    ),
    "users.csv": (
        "sourcedId",
        "status",
        "dateLastModified",
        "enabledUser",
        "orgSourcedIds",
        "role",
        "username",
        "userIds",
        "givenName",
        "familyName",
        "middleName",
        "identifier",
        "email",
        "sms",
        "phone",
        "agentSourcedIds",
        "grades",
        "password",
    ),
    "courses.csv": (
        "sourcedId",
        "status",
        "dateLastModified",
        "schoolYearSourcedId",
        "title",
        "courseCode",
        "grades",
        "orgSourcedId",
        "subjects",
        "subjectCodes",
    ),
    "classes.csv": (
        "sourcedId",
        "status",
        "dateLastModified",
        "title",
        "grades",
        "courseSourcedId",
        "classCode",
        "classType",
        "location",
        "schoolSourcedId",
        "termSourcedIds",
        "subjects",
        "subjectCodes",
        "periods",
    ),
    "enrollments.csv": (
        "sourcedId",
        "status",
        "dateLastModified",
        "classSourcedId",
        "schoolSourcedId",
        "userSourcedId",
        "role",
        "primary",
        "beginDate",
        "endDate",
    ),
}
#: The columns Classplay reads: a file lacking one of them is refused (names are case-sensitive).
READ_COLUMNS = {
    "orgs.csv": ("sourcedId", "status", "name", "type"),
    "academicSessions.csv": ("sourcedId", "status"),
    "users.csv": (
        "sourcedId",
        "status",
        "orgSourcedIds",
        "role",
        "givenName",
        "familyName",
        "email",
        "grades",
    ),
    "courses.csv": ("sourcedId", "status", "title", "subjects"),
    "classes.csv": (
        "sourcedId",
        "status",
        "title",
        "grades",
        "courseSourcedId",
        "classCode",
        "schoolSourcedId",
        "subjects",
    ),
    "enrollments.csv": ("sourcedId", "status", "classSourcedId", "schoolSourcedId", "userSourcedId", "role"),
    "manifest.csv": ("propertyName", "value"),
}
STATUSES = {"", "active", "tobedeleted"}
USER_ROLES = {"administrator", "aide", "guardian", "parent", "proctor", "relative", "student", "teacher"}
ENROLLMENT_ROLES = {"administrator", "aide", "proctor", "student", "teacher"}
#: A cell a spreadsheet would run as a formula when the data is opened again.
FORMULA_STARTS = ("=", "+", "@", "\t", "\r")
#: Compressed entries expanding more than this many times are refused (text compresses ~10x at most).
MAX_RATIO = 200


class OneRosterFileError(Exception):
    """The zip as a whole is refused (not a zip, too big, unsafe, missing files, wrong version)."""


@dataclass
class Problem:
    file: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.reason}"


@dataclass
class OrgRecord:
    sourced_id: str
    name: str
    type: str


@dataclass
class UserRecord:
    line: int
    sourced_id: str
    role: str
    given_name: str
    family_name: str
    email: str
    grade: str
    org_ids: list[str]
    deleted: bool


@dataclass
class ClassRecord:
    line: int
    sourced_id: str
    title: str
    class_code: str
    grade: str
    subject: str
    school_id: str
    deleted: bool


@dataclass
class EnrollmentRecord:
    line: int
    sourced_id: str
    class_id: str
    user_id: str
    school_id: str
    role: str
    deleted: bool


@dataclass
class OneRosterExport:
    system: str = ""
    orgs: dict[str, OrgRecord] = field(default_factory=dict)
    users: dict[str, UserRecord] = field(default_factory=dict)
    classes: dict[str, ClassRecord] = field(default_factory=dict)
    enrollments: list[EnrollmentRecord] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def school_orgs(self) -> list[OrgRecord]:
        return [org for org in self.orgs.values() if org.type == "school"]


def read_export(data: bytes, *, max_bytes: int, max_rows: int) -> OneRosterExport:
    """The checked export. Raises :class:`OneRosterFileError` when the zip as a whole is unusable; row
    problems are collected in ``problems``."""
    files = _unzip(data, max_bytes=max_bytes)
    export = OneRosterExport()
    modes = _read_manifest(files, export)
    tables = {}
    for name in (*REQUIRED_FILES, *OPTIONAL_FILES):
        if modes.get(name, "absent") == "absent":
            if name in REQUIRED_FILES:
                raise OneRosterFileError(
                    _("The manifest marks %(file)s absent: Classplay needs it (file.%(key)s=bulk).")
                    % {"file": name, "key": name.removesuffix(".csv")}
                )
            continue
        if name not in files:
            raise OneRosterFileError(
                _("The manifest lists %(file)s but the zip does not hold it.") % {"file": name}
            )
        tables[name] = _table(name, files[name], max_rows=max_rows)
    _read_orgs(tables["orgs.csv"], export)
    courses = _read_courses(tables.get("courses.csv"), export)
    _read_users(tables["users.csv"], export)
    _read_classes(tables["classes.csv"], courses, export)
    _read_enrollments(tables["enrollments.csv"], export)
    return export


# --- the zip ---------------------------------------------------------------------------------------


def _unzip(data: bytes, *, max_bytes: int) -> dict[str, bytes]:
    if len(data) > max_bytes:
        raise OneRosterFileError(_("The zip is too large (the limit is %(mb)s MB).") % {"mb": _mb(max_bytes)})
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        entries = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError):
        raise OneRosterFileError(
            _("This is not a zip file. Upload the OneRoster export as it came.")
        ) from None
    wanted = {MANIFEST, *REQUIRED_FILES, *OPTIONAL_FILES}
    files: dict[str, bytes] = {}
    total = 0
    for entry in entries:
        name = entry.filename
        if name.startswith(("/", "\\")) or ".." in name.replace("\\", "/").split("/") or ":" in name:
            raise OneRosterFileError(
                _("The zip holds a file with an unsafe path (%(name)s): it was refused.")
                % {"name": name[:80]}
            )
        if entry.is_dir() or name not in wanted:
            continue  # other files (OneRoster's optional ones, or folders) are not read
        if entry.flag_bits & 0x1:
            raise OneRosterFileError(
                _("%(file)s is encrypted: export the zip without a password.") % {"file": name}
            )
        if entry.file_size > max_bytes or (
            entry.compress_size and entry.file_size / entry.compress_size > MAX_RATIO
        ):
            raise OneRosterFileError(
                _("%(file)s unpacks to more than the limit of %(mb)s MB: it was refused.")
                % {"file": name, "mb": _mb(max_bytes)}
            )
        content = _read_limited(archive, entry, max_bytes - total)
        if content is None:
            raise OneRosterFileError(
                _("The zip's files unpack to more than the limit of %(mb)s MB: it was refused.")
                % {"mb": _mb(max_bytes)}
            )
        total += len(content)
        files[name] = content
    if MANIFEST not in files:
        raise OneRosterFileError(
            _("The zip has no manifest.csv at its top level: was it exported as OneRoster 1.1 CSV?")
        )
    return files


def _read_limited(archive: zipfile.ZipFile, entry: zipfile.ZipInfo, budget: int) -> bytes | None:
    """The entry's bytes, or None past ``budget`` (the header's size may lie: count what comes out)."""
    chunks, size = [], 0
    try:
        with archive.open(entry) as stream:
            while chunk := stream.read(64 * 1024):
                size += len(chunk)
                if size > budget:
                    return None
                chunks.append(chunk)
    except (zipfile.BadZipFile, NotImplementedError, RuntimeError, OSError, EOFError):
        raise OneRosterFileError(_("%(file)s in the zip is damaged.") % {"file": entry.filename}) from None
    return b"".join(chunks)


def _mb(size: int) -> str:
    return f"{size / 1_000_000:g}"


# --- CSV -----------------------------------------------------------------------------------------


def _decode(name: str, data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise OneRosterFileError(
            _("%(file)s is not UTF-8 text (a problem at byte %(pos)d). Export it as UTF-8.")
            % {"file": name, "pos": error.start}
        ) from None


def _table(name: str, data: bytes, *, max_rows: int) -> list[tuple[int, dict[str, str]]]:
    """(line, row) pairs, with the columns the spec names checked."""
    text = _decode(name, data)
    opened = unclosed_quote_line(text)
    if opened is not None:
        raise OneRosterFileError(
            _(
                '%(file)s: line %(line)d opens a quote (") that is never closed, so every line after it '
                "would be read as part of one value. Export the file again."
            )
            % {"file": name, "line": opened}
        )
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = [column.strip() for column in next(reader)]
    except StopIteration:
        raise OneRosterFileError(_("%(file)s is empty (it needs its header row).") % {"file": name}) from None
    except csv.Error as error:
        raise OneRosterFileError(
            _("%(file)s is not valid CSV: %(error)s") % {"file": name, "error": error}
        ) from None
    missing = [column for column in READ_COLUMNS[name] if column not in header]
    if missing:
        raise OneRosterFileError(
            _("%(file)s lacks the OneRoster 1.1 column(s) %(missing)s (column names are case-sensitive).")
            % {"file": name, "missing": ", ".join(missing)}
        )
    rows: list[tuple[int, dict[str, str]]] = []
    try:
        for values in reader:
            if not any(value.strip() for value in values):
                continue
            if len(rows) >= max_rows:
                raise OneRosterFileError(
                    _("%(file)s has more than %(max)d rows: split the export or ask for a higher limit.")
                    % {"file": name, "max": max_rows}
                )
            rows.append((reader.line_num, dict(zip(header, values, strict=False))))
    except csv.Error as error:
        raise OneRosterFileError(
            _("%(file)s is not valid CSV at line %(line)d: %(error)s")
            % {"file": name, "line": reader.line_num, "error": error}
        ) from None
    return rows


def _read_manifest(files: dict[str, bytes], export: OneRosterExport) -> dict[str, str]:
    rows = _table(MANIFEST, files[MANIFEST], max_rows=200)
    properties = {row.get("propertyName", "").strip(): row.get("value", "").strip() for _line, row in rows}
    version = properties.get("oneroster.version", "")
    if version != "1.1":
        raise OneRosterFileError(
            _("The manifest says OneRoster version “%(version)s”: Classplay reads OneRoster 1.1 CSV exports.")
            % {"version": version[:20]}
        )
    modes = {}
    for name in (*REQUIRED_FILES, *OPTIONAL_FILES):
        mode = properties.get(f"file.{name.removesuffix('.csv')}", "absent").lower()
        if mode == "delta":
            raise OneRosterFileError(
                _("%(file)s is a delta file: Classplay syncs bulk exports (the whole school each time).")
                % {"file": name}
            )
        modes[name] = mode
    export.system = clean_name(properties.get("source.systemName", ""), max_length=120)
    return modes


# --- records -------------------------------------------------------------------------------------


class _Row:
    """One row being checked: its cells, and every problem found, with the file and line."""

    def __init__(self, export: OneRosterExport, name: str, line: int, cells: dict[str, str]):
        self.export, self.name, self.line, self.cells = export, name, line, cells
        self.ok = True

    def problem(self, reason: str) -> None:
        self.ok = False
        self.export.problems.append(Problem(self.name, self.line, reason))

    def raw(self, column: str) -> str:
        return (self.cells.get(column) or "").strip()

    def sourced_id(self, column: str = "sourcedId", *, required: bool = True) -> str:
        value = self.raw(column)
        if not value:
            if required:
                self.problem(_("%(column)s is empty") % {"column": column})
        elif not ROSTER_ID_PATTERN.match(value):
            self.problem(
                _("%(column)s may only hold letters, digits and . _ : @ - (at most 64)") % {"column": column}
            )
        return value

    def status(self) -> bool:
        """Whether the row is marked ``tobedeleted``."""
        value = self.raw("status").lower()
        if value not in STATUSES:
            self.problem(_("status must be active or tobedeleted, not “%(value)s”") % {"value": value[:20]})
        return value == "tobedeleted"

    def text(self, column: str, *, max_length: int = 60, required: bool = False) -> str:
        value = self.cells.get(column) or ""
        if value.lstrip().startswith(FORMULA_STARTS):
            self.problem(_("%(column)s starts like a spreadsheet formula") % {"column": column})
            return ""
        try:
            value = clean_name(value, max_length=max_length)
        except ValueError as error:
            self.problem(f"{column} {error}")
            return ""
        if required and not value:
            self.problem(_("%(column)s is empty") % {"column": column})
        return value

    def choice(self, column: str, choices: set[str]) -> str:
        value = self.raw(column)
        if value not in choices:
            self.problem(
                _("%(column)s “%(value)s” is not one of %(choices)s")
                % {"column": column, "value": value[:20], "choices": ", ".join(sorted(choices))}
            )
        return value


def _unique(row: _Row, seen: dict[str, int], sourced_id: str) -> bool:
    if sourced_id in seen:
        row.problem(
            _("sourcedId %(id)s is also on line %(line)d") % {"id": sourced_id, "line": seen[sourced_id]}
        )
        return False
    seen[sourced_id] = row.line
    return True


def _read_orgs(rows, export: OneRosterExport) -> None:
    seen: dict[str, int] = {}
    for line, cells in rows:
        row = _Row(export, "orgs.csv", line, cells)
        sourced_id = row.sourced_id()
        row.status()
        name = row.text("name", max_length=120, required=True)
        org_type = row.raw("type")
        if row.ok and _unique(row, seen, sourced_id):
            export.orgs[sourced_id] = OrgRecord(sourced_id, name, org_type)


def _read_courses(rows, export: OneRosterExport) -> dict[str, str]:
    """Course sourcedId → its subject (the first of ``subjects``, else the course's title)."""
    subjects: dict[str, str] = {}
    for line, cells in rows or []:
        row = _Row(export, "courses.csv", line, cells)
        sourced_id = row.sourced_id()
        row.status()
        title = row.text("title", max_length=200)
        subject = row.text("subjects", max_length=200).split(",")[0].strip()
        if row.ok:
            subjects[sourced_id] = (subject or title)[:60]
    return subjects


def _read_users(rows, export: OneRosterExport) -> None:
    seen: dict[str, int] = {}
    for line, cells in rows:
        row = _Row(export, "users.csv", line, cells)
        sourced_id = row.sourced_id()
        deleted = row.status()
        role = row.choice("role", USER_ROLES)
        given = row.text("givenName", required=role in {"student", "teacher"} and not deleted)
        family = row.text("familyName")
        email = row.raw("email").lower()
        if role == "teacher" and not deleted and not _is_email(email):
            row.problem(_("a teacher needs an email address (Classplay invites teachers by email)"))
        org_ids = [value.strip() for value in row.raw("orgSourcedIds").split(",") if value.strip()]
        grade = row.raw("grades").split(",")[0].strip()[:20]
        if row.ok and _unique(row, seen, sourced_id):
            export.users[sourced_id] = UserRecord(
                line, sourced_id, role, given, family, email, grade, org_ids, deleted
            )


def _is_email(value: str) -> bool:
    try:
        validate_email(value)
    except ValidationError:
        return False
    return True


def _read_classes(rows, subjects: dict[str, str], export: OneRosterExport) -> None:
    seen: dict[str, int] = {}
    for line, cells in rows:
        row = _Row(export, "classes.csv", line, cells)
        sourced_id = row.sourced_id()
        deleted = row.status()
        title = row.text("title", required=True)
        class_code = row.text("classCode", max_length=20)
        grade = row.raw("grades").split(",")[0].strip()[:20]
        subject = row.text("subjects", max_length=200).split(",")[0].strip()[:60]
        course_id = row.raw("courseSourcedId")
        school_id = row.sourced_id("schoolSourcedId")
        if school_id and row.ok and school_id not in export.orgs:
            row.problem(_("schoolSourcedId %(id)s is not in orgs.csv") % {"id": school_id})
        if row.ok and _unique(row, seen, sourced_id):
            export.classes[sourced_id] = ClassRecord(
                line,
                sourced_id,
                title,
                class_code,
                grade,
                subject or subjects.get(course_id, ""),
                school_id,
                deleted,
            )


def _read_enrollments(rows, export: OneRosterExport) -> None:
    seen: dict[str, int] = {}
    pairs: dict[tuple[str, str], int] = {}
    for line, cells in rows:
        row = _Row(export, "enrollments.csv", line, cells)
        sourced_id = row.sourced_id()
        deleted = row.status()
        role = row.choice("role", ENROLLMENT_ROLES)
        class_id = row.sourced_id("classSourcedId")
        user_id = row.sourced_id("userSourcedId")
        school_id = row.sourced_id("schoolSourcedId")
        if row.ok and class_id not in export.classes:
            row.problem(_("classSourcedId %(id)s is not in classes.csv") % {"id": class_id})
        if row.ok and user_id not in export.users:
            row.problem(_("userSourcedId %(id)s is not in users.csv") % {"id": user_id})
        if row.ok and role in {"student", "teacher"} and export.users[user_id].role != role:
            row.problem(
                _("user %(id)s is enrolled as %(role)s but users.csv makes them %(user_role)s")
                % {"id": user_id, "role": role, "user_role": export.users[user_id].role}
            )
        if row.ok and not deleted and (class_id, user_id) in pairs:
            row.problem(
                _("user %(user)s is already enrolled in class %(class)s on line %(line)d")
                % {"user": user_id, "class": class_id, "line": pairs[(class_id, user_id)]}
            )
        if row.ok and _unique(row, seen, sourced_id):
            if not deleted:
                pairs[(class_id, user_id)] = line
            export.enrollments.append(
                EnrollmentRecord(line, sourced_id, class_id, user_id, school_id, role, deleted)
            )
