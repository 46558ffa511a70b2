"""Exports: one row per student per skill, one per answer (streamed), one per session and one per
question (item analysis), as CSV files and together as one spreadsheet (.xlsx, a sheet per view). Times
are in the school's time zone, to the second; durations in seconds, to a tenth."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from django.db.models import Count, QuerySet, Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy
from openpyxl import Workbook

from . import catalog
from .build.read import BOTH
from .models import ClassSessionStat, LearningFact, SkillSummary, StudentSessionStat
from .selectors import in_mode

#: How a moment is written: the school's local time, to the second.
WHEN_FORMAT = "%Y-%m-%d %H:%M:%S"

# Column names in the reader's language (a translator keeps them short, one word or joined_by_underscores).
SKILL_HEADER = [
    pgettext_lazy("CSV column", "student_id"),
    pgettext_lazy("CSV column", "roster_id"),
    pgettext_lazy("CSV column", "student"),
    pgettext_lazy("CSV column", "class"),
    pgettext_lazy("CSV column", "skill"),
    pgettext_lazy("CSV column", "answered"),
    pgettext_lazy("CSV column", "correct"),
    pgettext_lazy("CSV column", "accuracy"),
    pgettext_lazy("CSV column", "mean_seconds"),
    pgettext_lazy("CSV column", "sessions"),
    pgettext_lazy("CSV column", "current_level"),
    pgettext_lazy("CSV column", "recommended_level"),
    pgettext_lazy("CSV column", "confidence"),
    pgettext_lazy("CSV column", "evidence_answers"),
]
ANSWER_HEADER = [
    pgettext_lazy("CSV column", "when"),
    pgettext_lazy("CSV column", "student_id"),
    pgettext_lazy("CSV column", "roster_id"),
    pgettext_lazy("CSV column", "student"),
    pgettext_lazy("CSV column", "class"),
    pgettext_lazy("CSV column", "session_id"),
    pgettext_lazy("CSV column", "game"),
    pgettext_lazy("CSV column", "skill"),
    pgettext_lazy("CSV column", "category"),
    pgettext_lazy("CSV column", "level"),
    pgettext_lazy("CSV column", "item_id"),
    pgettext_lazy("CSV column", "answer"),
    pgettext_lazy("CSV column", "correct"),
    pgettext_lazy("CSV column", "score"),
    pgettext_lazy("CSV column", "seconds"),
    pgettext_lazy("CSV column", "teacher_marked"),
    pgettext_lazy("CSV column", "homework"),
]
SESSION_HEADER = [
    "session_id",
    "started",
    "game",
    "skill",
    "title",
    "students",
    "answered",
    "correct",
    "accuracy",
    "mean_seconds",
    "homework",
]
ITEM_HEADER = [
    "game",
    "skill",
    "item_id",
    "question",
    "sessions",
    "students",
    "answered",
    "correct",
    "share_right",
    "discrimination",
]


@dataclass(frozen=True)
class Sheet:
    """One view of an export: its title (a sheet's name), header and rows."""

    title: str
    header: list[str]
    rows: Iterable[list]


def when(moment: datetime | None, zone: ZoneInfo) -> str:
    return moment.astimezone(zone).strftime(WHEN_FORMAT) if moment else ""


def tenths(value: float | None) -> float | str:
    return "" if value is None else round(value, 1)


class _Echo:
    def write(self, value: str) -> str:
        return value


def safe_cell(value) -> str | int | float:
    """Text a spreadsheet would run as a formula (=, +, -, @, tab, CR at the start) is quoted with '."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return int(value)  # "5", as a spreadsheet shows 5.0 (so the CSV and the .xlsx agree)
    if isinstance(value, (int, float)):
        return value
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def csv_lines(header: list[str], rows: Iterable[list]) -> Iterator[str]:
    writer = csv.writer(_Echo())
    yield "\ufeff" + writer.writerow(header)  # a BOM, so spreadsheet programs read UTF-8
    for row in rows:
        yield writer.writerow([safe_cell(value) for value in row])


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
                round(correct / answered, 4) if answered else "",
                tenths(mean_time),
                sessions,
                summary.current_level if summary else "",
                summary.recommended_level if summary else "",
                summary.confidence if summary else "",
                summary.evidence_answers if summary else (0 if skill in catalog.LEVELLED_SKILLS else ""),
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
        facts.filter(catalog.answers_q() | catalog.quality_q() | catalog.share_q())
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
        row[0] = when(row[0], zone)
        row[11] = catalog.answer_text(row[6], row[11]) if row[11] is not None else ""
        row[13] = "" if row[13] is None else round(row[13], 4)
        row[14] = tenths(row[14])
        yield row


def session_rows(stats: list[ClassSessionStat], zone: ZoneInfo) -> Iterator[list]:
    for stat in stats:
        session = stat.session
        yield [
            stat.session_id,
            when(session.started_at or session.scheduled_for, zone),
            stat.game,
            stat.skill,
            session.title,
            stat.participants,
            stat.answered,
            stat.correct,
            round(stat.correct / stat.answered, 4) if stat.answered else "",
            tenths(stat.time_total / stat.time_count) if stat.time_count else "",
            session.assignment_id is not None,
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
            "" if row["share"] is None else round(row["share"], 4),
            "" if row["discrimination"] is None else row["discrimination"],
        ]


def about_sheet(classroom, shows: str, zone: ZoneInfo) -> Sheet:
    """The spreadsheet's last sheet: which class, what it counts (live games, homework or both), when."""
    return Sheet(
        _("About"),
        [_("Class"), classroom.name],
        [[_("Shows"), shows], [_("Exported"), when(timezone.now(), zone)]],
    )


def workbook(sheets: list[Sheet]) -> bytes:
    """The sheets as one .xlsx file, each cell as the CSV export writes it (so the two agree)."""
    book = Workbook(write_only=True)
    for sheet in sheets:
        page = book.create_sheet(title=sheet.title[:31])
        page.append([str(name) for name in sheet.header])  # lazily translated names
        for row in sheet.rows:
            page.append([safe_cell(value) for value in row])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()
