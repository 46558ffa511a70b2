"""Exports: one row per student per skill, one per answer (streamed), one per session and one per
question (item analysis), as CSV files and together as one spreadsheet (.xlsx, a sheet per view).

The rows hold typed values (moments in the school's time zone, shares from 0 to 1, seconds, yes or no),
and each :class:`Column` says how its values are written: a CSV file writes them as plain data (times
to the second, shares to four places, codes such as ``english_vocabulary``); the spreadsheet writes a
workbook a teacher reads (real dates, percentages, the skills', games' and categories' names and
headers in the reader's language, a frozen header row with filters)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from django.db.models import Count, QuerySet, Sum
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter

from . import catalog
from .build.read import BOTH
from .models import ClassSessionStat, LearningFact, SkillSummary, StudentSessionStat
from .selectors import in_mode

#: How a moment is written in a CSV file: the school's local time, to the second.
WHEN_FORMAT = "%Y-%m-%d %H:%M:%S"

# What a column holds, and so how each file writes it.
TEXT = "text"
INTEGER = "integer"
SHARE = "share"  # 0 to 1: a share right, a confidence (a percentage in the spreadsheet)
SCORE = "score"  # a game's score (a quality 0 to 1, cards in place 0 to 5)
INDEX = "index"  # a discrimination index, -1 to 1
SECONDS = "seconds"
WHEN = "when"
YES_NO = "yes_no"
SKILL = "skill"  # a code: its name in the spreadsheet
GAME = "game"
CATEGORY = "category"

#: The spreadsheet's number formats, by kind.
NUMBER_FORMATS = {
    INTEGER: "0",
    SHARE: "0%",
    SCORE: "0.00",
    INDEX: "0.00",
    SECONDS: "0.0",
    WHEN: "yyyy-mm-dd hh:mm",
}
#: A column's width in the spreadsheet (characters), by kind, unless its header is wider.
WIDTHS = {TEXT: 14, INTEGER: 8, SHARE: 8, SCORE: 8, INDEX: 8, SECONDS: 8, WHEN: 17, YES_NO: 8}
WIDEST = 50


@dataclass(frozen=True)
class Column:
    """A column of an export: its CSV header (short, joined_by_underscores), its spreadsheet header (in
    the reader's language), what it holds and, for a long text, its width in the spreadsheet."""

    key: str | Promise
    label: Promise
    kind: str = TEXT
    width: int | None = None

    @property
    def spreadsheet_width(self) -> int:
        width = self.width or WIDTHS.get(self.kind, 22)
        return min(max(width, len(str(self.label)) + 3), WIDEST)


def _csv_name(name: str) -> Promise:
    return pgettext_lazy("CSV column", name)


def _header(name: str) -> Promise:
    return pgettext_lazy("spreadsheet column", name)


SKILL_COLUMNS = [
    Column(_csv_name("student_id"), _header("Student ID"), INTEGER),
    Column(_csv_name("roster_id"), _header("Roster ID")),
    Column(_csv_name("student"), _header("Student"), width=22),
    Column(_csv_name("class"), _header("Class"), width=18),
    Column(_csv_name("skill"), _header("Skill"), SKILL, width=20),
    Column(_csv_name("answered"), _header("Answers"), INTEGER),
    Column(_csv_name("correct"), _header("Right answers"), INTEGER),
    Column(_csv_name("accuracy"), _header("Share right"), SHARE),
    Column(_csv_name("mean_seconds"), _header("Mean time (seconds)"), SECONDS),
    Column(_csv_name("sessions"), _header("Sessions"), INTEGER),
    Column(_csv_name("current_level"), _header("Level"), INTEGER),
    Column(_csv_name("recommended_level"), _header("Recommended level"), INTEGER),
    Column(_csv_name("confidence"), _header("Confidence"), SHARE),
    Column(_csv_name("evidence_answers"), _header("Answers behind the recommendation"), INTEGER),
]
ANSWER_COLUMNS = [
    Column(_csv_name("when"), _header("When"), WHEN),
    Column(_csv_name("student_id"), _header("Student ID"), INTEGER),
    Column(_csv_name("roster_id"), _header("Roster ID")),
    Column(_csv_name("student"), _header("Student"), width=22),
    Column(_csv_name("class"), _header("Class"), width=18),
    Column(_csv_name("session_id"), _header("Session ID"), INTEGER),
    Column(_csv_name("game"), _header("Game"), GAME, width=24),
    Column(_csv_name("skill"), _header("Skill"), SKILL, width=20),
    Column(_csv_name("category"), _header("Category"), CATEGORY, width=20),
    Column(_csv_name("level"), _header("Level"), INTEGER),
    Column(_csv_name("item_id"), _header("Question ID")),
    Column(_csv_name("answer"), _header("Answer"), width=30),
    Column(_csv_name("correct"), _header("Right"), YES_NO),
    Column(_csv_name("score"), _header("Score"), SCORE),
    Column(_csv_name("seconds"), _header("Time (seconds)"), SECONDS),
    Column(_csv_name("teacher_marked"), _header("Accepted by the teacher"), YES_NO),
    Column(_csv_name("homework"), _header("Homework"), YES_NO),
    Column(_csv_name("no_answer"), _header("No answer (time ran out)"), YES_NO),
]
SESSION_COLUMNS = [
    Column(_csv_name("session_id"), _header("Session ID"), INTEGER),
    Column(_csv_name("started"), _header("Started"), WHEN),
    Column(_csv_name("game"), _header("Game"), GAME, width=24),
    Column(_csv_name("skill"), _header("Skill"), SKILL, width=20),
    Column(_csv_name("title"), _header("Title"), width=30),
    Column(_csv_name("students"), _header("Students"), INTEGER),
    Column(_csv_name("answered"), _header("Answers"), INTEGER),
    Column(_csv_name("correct"), _header("Right answers"), INTEGER),
    Column(_csv_name("accuracy"), _header("Share right"), SHARE),
    Column(_csv_name("mean_seconds"), _header("Mean time (seconds)"), SECONDS),
    Column(_csv_name("homework"), _header("Homework"), YES_NO),
    Column(_csv_name("no_answer"), _header("No answer (time ran out)"), INTEGER),
    Column(_csv_name("game_marks"), _header("The game's own marks"), INTEGER),
    Column(_csv_name("game_marks_right"), _header("The game's own marks right"), INTEGER),
]
ITEM_COLUMNS = [
    Column(_csv_name("game"), _header("Game"), GAME, width=24),
    Column(_csv_name("skill"), _header("Skill"), SKILL, width=20),
    Column(_csv_name("item_id"), _header("Question ID")),
    Column(_csv_name("question"), _header("Question"), width=40),
    Column(_csv_name("sessions"), _header("Sessions"), INTEGER),
    Column(_csv_name("students"), _header("Students"), INTEGER),
    Column(_csv_name("answered"), _header("Answers"), INTEGER),
    Column(_csv_name("correct"), _header("Right answers"), INTEGER),
    Column(_csv_name("share_right"), _header("Share right"), SHARE),
    Column(_csv_name("discrimination"), _header("Discrimination index"), INDEX),
]
#: The CSV files' headers.
SKILL_HEADER = [column.key for column in SKILL_COLUMNS]
ANSWER_HEADER = [column.key for column in ANSWER_COLUMNS]
SESSION_HEADER = [column.key for column in SESSION_COLUMNS]
ITEM_HEADER = [column.key for column in ITEM_COLUMNS]


@dataclass(frozen=True)
class Sheet:
    """One view of an export: its title (a sheet's name), columns and rows."""

    title: str
    columns: list[Column]
    rows: Iterable[list]


def local(moment: datetime | None, zone: ZoneInfo) -> datetime | None:
    return moment.astimezone(zone) if moment else None


def tenths(value: float | None) -> float | str:
    return "" if value is None else round(value, 1)


class _Echo:
    def write(self, value: str) -> str:
        return value


def yes_no() -> tuple[str, str]:
    """How a yes/no cell of a CSV file reads in the active language (the reader's)."""
    return pgettext("CSV cell", "yes"), pgettext("CSV cell", "no")


def safe_cell(value, words: tuple[str, str] = ("yes", "no")) -> str | int | float:
    """A CSV cell: ``True``/``False`` as ``words`` (:func:`yes_no`, the reader's). Text a spreadsheet would
    run as a formula (=, +, -, @, tab, CR at the start) is quoted with ' (a CSV file has no types to say it
    is text; the .xlsx says so instead: :func:`text_cell`)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return words[0] if value else words[1]
    if isinstance(value, float) and value.is_integer():
        return int(value)  # "5", as a spreadsheet shows 5.0
    if isinstance(value, (int, float)):
        return value
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def csv_value(column: Column, value, words: tuple[str, str] = ("yes", "no")):
    """A value as a CSV file writes it."""
    if value is None or value == "":
        return ""
    if column.kind == WHEN:
        return value.strftime(WHEN_FORMAT)
    if column.kind in (SHARE, SCORE):
        return safe_cell(round(value, 4))
    if column.kind == SECONDS:
        return safe_cell(tenths(value))
    return safe_cell(value, words)


def csv_lines(columns: list[Column], rows: Iterable[list]) -> Iterator[str]:
    """The CSV file's lines. The column names and yes/no words are put into the reader's language here,
    in the view: the rows are written while the response streams, after the view has returned."""
    return _csv_lines(columns, [str(column.key) for column in columns], rows, yes_no())


def _csv_lines(
    columns: list[Column], header: list[str], rows: Iterable[list], words: tuple[str, str]
) -> Iterator[str]:
    writer = csv.writer(_Echo())
    yield "\ufeff" + writer.writerow(header)  # a BOM: read as UTF-8
    for row in rows:
        yield writer.writerow(
            [csv_value(column, value, words) for column, value in zip(columns, row, strict=True)]
        )


def skill_rows(students: QuerySet, class_names: dict[int, str], mode: str = BOTH) -> Iterator[list]:
    """One row per student per skill a report shows (students without answers get zeros): the levelled
    skills and the games' others (General knowledge, Reasoning: no levels). The totals of a levelled
    skill under both modes are its summary's; every other total is added up from the built per-session
    rows of the mode's sessions. The levels and the recommendation stay the student's own, from all their
    answers."""
    summaries = {
        (summary.student_id, summary.skill): summary
        for summary in SkillSummary.objects.filter(student__in=students.values("pk"))
    }
    totals = _skill_totals_in_mode(students, mode)
    skills = catalog.reported_skills()
    for student in students:
        for skill in skills:
            summary = summaries.get((student.pk, skill))
            if mode == BOTH and summary is not None:
                answered, correct = summary.answered, summary.correct
                mean_time, sessions = summary.mean_time, summary.sessions
            else:
                answered, correct, mean_time, sessions = totals.get((student.pk, skill), (0, 0, None, 0))
            yield [
                student.pk,
                student.external_id,
                student.display_name,
                class_names.get(student.pk, ""),
                skill,
                answered,
                correct,
                correct / answered if answered else None,
                mean_time,
                sessions,
                summary.current_level if summary else None,
                summary.recommended_level if summary else None,
                summary.confidence if summary else None,
                summary.evidence_answers if summary else (0 if skill in catalog.LEVELLED_SKILLS else None),
            ]


def _skill_totals_in_mode(students: QuerySet, mode: str) -> dict[tuple[int, str], tuple]:
    """(answers, right, mean seconds, sessions) per student and skill, of one mode's sessions."""
    rows = (
        in_mode(StudentSessionStat.objects.filter(student__in=students.values("pk"), answered__gt=0), mode)
        .values("student_id", "skill")
        .annotate(
            answers=Sum("answered"),
            right=Sum("correct"),
            time=Sum("time_total"),
            timed=Sum("time_count"),
            sessions=Count("id"),
        )
        .order_by()
    )
    return {
        (row["student_id"], row["skill"]): (
            row["answers"],
            row["right"],
            round(row["time"] / row["timed"], 2) if row["timed"] else None,
            row["sessions"],
        )
        for row in rows
    }


def answer_rows(facts: QuerySet[LearningFact], zone: ZoneInfo) -> Iterator[list]:
    """Every answer: right or wrong (the skills' and the games' own shares), or with a quality score
    (Line-Up's questions: ``correct`` empty)."""
    rows = (
        facts.filter(catalog.answers_q() | catalog.quality_q() | catalog.share_q() | catalog.no_answer_q())
        .order_by("created_at", "id")
        .values_list(
            "created_at",
            "student_id",
            "student__external_id",
            "student__display_name",
            "classroom__name",
            "session_id",
            "game",
            "skill",
            "category",
            "level",
            "item_id",
            "response",
            "correct",
            "score",
            "time_taken",
            "teacher_marked",
            "session__assignment_id",
        )
    )
    for row in rows.iterator(chunk_size=2000):
        row = list(row)
        row[16] = row[16] is not None  # homework: the answer's session is an attempt
        row[0] = local(row[0], zone)
        # A question left to run out of time: no answer, neither right nor wrong.
        no_answer = row[11] is None and row[12] is not True and catalog.is_no_answer(row[6], row[8])
        row[11] = catalog.answer_text(row[6], row[11]) if row[11] is not None else ""
        if no_answer:
            row[12] = None
        yield [*row, no_answer]


def session_rows(stats: list[ClassSessionStat], zone: ZoneInfo) -> Iterator[list]:
    for stat in stats:
        session = stat.session
        yield [
            stat.session_id,
            local(session.started_at or session.scheduled_for, zone),
            stat.game,
            stat.skill,
            session.title,
            stat.participants,
            stat.answered,
            stat.correct,
            stat.correct / stat.answered if stat.answered else None,
            stat.time_total / stat.time_count if stat.time_count else None,
            session.assignment_id is not None,
            stat.no_answer,
            stat.measured,
            stat.measured_right,
        ]


def item_rows(analysis: list[dict]) -> Iterator[list]:
    for row in analysis:
        yield [
            row["game"],
            row["skill"],
            row["item_id"],
            row["label"],
            row["sessions"],
            row["students"],
            row["answered"],
            row["correct"],
            row["share"],
            row["discrimination"],
        ]


def about_rows(classroom, shows: str, zone: ZoneInfo) -> list[tuple[str, object]]:
    """The spreadsheet's last sheet: which class, what it counts (live games, homework or both), when."""
    return [(_("Class"), classroom.name), (_("Shows"), shows), (_("Exported"), local(timezone.now(), zone))]


def text_cell(page, value: str) -> WriteOnlyCell:
    """A text cell that is text whatever it starts with: written as a string (``data_type`` "s"), "=1+1"
    is shown as typed and never run as a formula, with no "'" in front."""
    cell = WriteOnlyCell(page, value=value)
    cell.data_type = "s"
    return cell


def spreadsheet_cell(page, column: Column, value) -> WriteOnlyCell | None:
    """A value as the spreadsheet shows it: a number with its format, a date, or text."""
    if value is None or value == "":
        return None
    kind = column.kind
    if kind == YES_NO:
        return text_cell(
            page, pgettext("spreadsheet cell", "Yes") if value else pgettext("spreadsheet cell", "No")
        )
    if kind in (SKILL, GAME, CATEGORY):
        label = {SKILL: catalog.skill_label, GAME: catalog.game_label, CATEGORY: catalog.category_label}[kind]
        return text_cell(page, str(label(value)))
    if kind == TEXT:
        return text_cell(page, str(value))
    if kind == WHEN:
        value = value.replace(tzinfo=None)  # already the school's local time
    elif kind == SECONDS:
        value = round(value, 1)
    cell = WriteOnlyCell(page, value=value)
    cell.number_format = NUMBER_FORMATS[kind]
    return cell


def _data_sheet(book: Workbook, sheet: Sheet, right_to_left: bool) -> None:
    """A sheet a teacher reads: headers in their language, bold and frozen, with filters, columns wide
    enough for what they hold."""
    page = book.create_sheet(title=sheet.title[:31])
    page.sheet_view.rightToLeft = right_to_left
    for index, column in enumerate(sheet.columns, start=1):
        page.column_dimensions[get_column_letter(index)].width = column.spreadsheet_width
    page.freeze_panes = "A2"
    bold, wrap = Font(bold=True), Alignment(wrap_text=True, vertical="top")
    header = []
    for column in sheet.columns:
        cell = text_cell(page, str(column.label))
        cell.font, cell.alignment = bold, wrap
        header.append(cell)
    page.append(header)
    count = 1
    for row in sheet.rows:
        page.append(
            [spreadsheet_cell(page, column, value) for column, value in zip(sheet.columns, row, strict=True)]
        )
        count += 1
    page.auto_filter.ref = f"A1:{get_column_letter(len(sheet.columns))}{count}"


def workbook(sheets: list[Sheet], about: list[tuple[str, object]], *, right_to_left: bool = False) -> bytes:
    """The sheets as one .xlsx file, and a last sheet (*About*) of what it shows; in a right-to-left
    language (Arabic) every sheet reads from the right, column A at the right edge."""
    book = Workbook(write_only=True)
    for sheet in sheets:
        _data_sheet(book, sheet, right_to_left)
    page = book.create_sheet(title=_("About")[:31])
    page.sheet_view.rightToLeft = right_to_left
    page.column_dimensions["A"].width, page.column_dimensions["B"].width = 16, 40
    for name, value in about:
        cell = text_cell(page, str(value)) if not isinstance(value, datetime) else None
        if cell is None:
            cell = WriteOnlyCell(page, value=value.replace(tzinfo=None))
            cell.number_format = NUMBER_FORMATS[WHEN]
        page.append([text_cell(page, name), cell])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()
