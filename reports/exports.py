"""CSV exports: one row per student per skill, and one row per answer (streamed)."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator

from django.db.models import QuerySet

from . import catalog
from .models import LearningFact, SkillSummary

SKILL_HEADER = [
    "student_id",
    "roster_id",
    "student",
    "class",
    "skill",
    "answered",
    "correct",
    "accuracy",
    "mean_seconds",
    "sessions",
    "current_level",
    "recommended_level",
    "confidence",
    "evidence_answers",
]
ANSWER_HEADER = [
    "when",
    "student_id",
    "roster_id",
    "student",
    "class",
    "session_id",
    "game",
    "skill",
    "category",
    "level",
    "item_id",
    "answer",
    "correct",
    "score",
    "seconds",
    "teacher_marked",
]


class _Echo:
    def write(self, value: str) -> str:
        return value


def safe_cell(value) -> str | int | float:
    """Text a spreadsheet would run as a formula (=, +, -, @, tab, CR at the start) is quoted with '."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)):
        return value
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def csv_lines(header: list[str], rows: Iterable[list]) -> Iterator[str]:
    writer = csv.writer(_Echo())
    yield "\ufeff" + writer.writerow(header)  # a BOM, so spreadsheet programs read UTF-8
    for row in rows:
        yield writer.writerow([safe_cell(value) for value in row])


def skill_rows(students: QuerySet, class_names: dict[int, str]) -> Iterator[list]:
    """One row per student per levelled skill (students without answers get zeros)."""
    summaries = {
        (summary.student_id, summary.skill): summary
        for summary in SkillSummary.objects.filter(student__in=students.values("pk"))
    }
    for student in students:
        for skill in catalog.LEVELLED_SKILLS:
            summary = summaries.get((student.pk, skill))
            answered = summary.answered if summary else 0
            correct = summary.correct if summary else 0
            yield [
                student.pk,
                student.external_id,
                student.display_name,
                class_names.get(student.pk, ""),
                skill,
                answered,
                correct,
                round(correct / answered, 4) if answered else "",
                summary.mean_time if summary else "",
                summary.sessions if summary else 0,
                summary.current_level if summary else "",
                summary.recommended_level if summary else "",
                summary.confidence if summary else "",
                summary.evidence_answers if summary else 0,
            ]


def answer_rows(facts: QuerySet[LearningFact]) -> Iterator[list]:
    rows = (
        facts.filter(correct__isnull=False)
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
        )
    )
    for row in rows.iterator(chunk_size=2000):
        row = list(row)
        row[0] = row[0].isoformat()
        row[11] = catalog.answer_text(row[6], row[11]) if row[11] is not None else ""
        yield row
