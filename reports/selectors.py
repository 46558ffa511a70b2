"""Reads for the report pages, in a fixed number of queries whatever the class or school size, and the
permission rules:

* a class report, its students' reports and its exports: the class's teachers and the school's admins;
* the school review and a student's data export or erasure: the school's admins only;
* a student sees their own simple progress page, nothing else.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import Case, Count, Prefetch, Q, Sum, Value, When
from django.db.models.functions import TruncWeek
from django.utils import timezone

from classrooms.models import Classroom, Enrolment, Membership, School, Student, StudentLevel, User
from classrooms.selectors import admin_school_ids, can_manage_classroom, classrooms_for_user

from . import catalog
from .models import (
    ClassReport,
    ClassSessionStat,
    ReportBuild,
    SkillSummary,
    StudentReport,
    StudentSessionStat,
)

TERM_DAYS = 91
ATTENTION_SHOWN = 60


# --- permissions ---------------------------------------------------------------------------------------


def can_see_class_reports(user: User, classroom: Classroom) -> bool:
    return can_manage_classroom(user, classroom)


def class_report_access(user: User, classroom: Classroom) -> str | None:
    """As :func:`can_see_class_reports`, saying how: "admin" (the school's admin), "teacher" (one of
    the class's teachers) or None (no access), so a page need not ask again whether they are an admin."""
    if not user.is_authenticated:
        return None
    if classroom.school_id in admin_school_ids(user):
        return "admin"
    return "teacher" if classroom.teachers.filter(pk=user.pk).exists() else None


def can_review_school(user: User, school_id: int) -> bool:
    return user.is_authenticated and school_id in admin_school_ids(user)


def can_see_build(user: User, build: ReportBuild) -> bool:
    if can_review_school(user, build.school_id):
        return True
    return build.classroom is not None and can_manage_classroom(user, build.classroom)


# --- pages ---------------------------------------------------------------------------------------------


def active_build(
    *, classroom: Classroom | None = None, school: School | None = None, student: Student | None = None
) -> ReportBuild | None:
    """The newest waiting or running build of the class (that student's own first, if one is given), or
    of the whole school."""
    builds = ReportBuild.objects.filter(status__in=(ReportBuild.Status.QUEUED, ReportBuild.Status.RUNNING))
    if classroom is not None:
        builds = builds.filter(classroom=classroom)
    else:
        builds = builds.filter(school=school, scope=ReportBuild.Scope.SCHOOL)
    if student is not None:
        mine = Case(When(student=student, then=Value(0)), default=Value(1))
        return builds.order_by(mine, "-created_at").first()
    return builds.order_by("-created_at").first()


def report_index(user: User) -> list[dict[str, Any]]:
    classrooms = (
        classrooms_for_user(user)
        .filter(archived=False)
        .annotate(student_count=Count("enrolments", distinct=True))
        .order_by("school__name", "name")
    )
    built = dict(
        ClassReport.objects.filter(classroom__in=classrooms.values("pk")).values_list(
            "classroom_id", "built_at"
        )
    )
    return [{"classroom": classroom, "built_at": built.get(classroom.pk)} for classroom in classrooms]


@dataclass
class ClassRow:
    student: Student
    levels: dict[str, int | None]
    report: StudentReport | None
    recommended: dict[str, int | None]


def class_report(classroom: Classroom) -> dict[str, Any]:
    """The class page: its report, and every enrolled student with their report and levels (5 queries)."""
    report = ClassReport.objects.filter(classroom=classroom).first()
    students = list(
        Student.objects.filter(enrolments__classroom=classroom)
        .prefetch_related(Prefetch("levels", queryset=StudentLevel.objects.order_by("skill")))
        .order_by("display_name", "id")
    )
    reports = {row.student_id: row for row in StudentReport.objects.filter(classroom=classroom)}
    recommended: dict[int, dict[str, int | None]] = defaultdict(dict)
    for student_id, skill, level in SkillSummary.objects.filter(
        student__enrolments__classroom=classroom
    ).values_list("student_id", "skill", "recommended_level"):
        recommended[student_id][skill] = level
    rows = [
        ClassRow(
            student=student,
            levels={
                skill: next((lv.level for lv in student.levels.all() if lv.skill == skill), None)
                for skill in catalog.LEVELLED_SKILLS
            },
            report=reports.get(student.pk),
            recommended=recommended.get(student.pk, {}),
        )
        for student in students
    ]
    return {"report": report, "rows": rows, "build": active_build(classroom=classroom)}


def student_in_class(classroom: Classroom, student_id: int) -> Student | None:
    return Student.objects.filter(pk=student_id, enrolments__classroom=classroom).first()


def student_report(student: Student, classroom: Classroom) -> dict[str, Any]:
    return {
        "report": StudentReport.objects.filter(student=student, classroom=classroom).first(),
        "summaries": list(SkillSummary.objects.filter(student=student).order_by("skill")),
    }


def own_progress(student: Student) -> dict[str, Any]:
    """The student's own page: their reports in their classes and their skills (2 queries)."""
    reports = list(
        StudentReport.objects.filter(student=student, classroom__archived=False)
        .select_related("classroom")
        .order_by("classroom__name")
    )
    return {
        "reports": reports,
        "summaries": list(SkillSummary.objects.filter(student=student).order_by("skill")),
    }


# --- the school review ---------------------------------------------------------------------------------


@dataclass
class ReviewFilters:
    classroom: int | None = None
    teacher: int | None = None
    game: str | None = None
    start: dt.date | None = None
    end: dt.date | None = None

    def resolved(self) -> tuple[dt.date, dt.date]:
        end = self.end or timezone.localdate()
        return self.start or end - dt.timedelta(days=TERM_DAYS), end


def school_review(school: School, filters: ReviewFilters) -> dict[str, Any]:
    """The admin's review: classes and teachers, weekly progress, and students who need attention.
    A fixed number of queries whatever the school's size."""
    start, end = filters.resolved()
    classrooms = Classroom.objects.filter(school=school)
    if filters.classroom:
        classrooms = classrooms.filter(pk=filters.classroom)
    if filters.teacher:
        classrooms = classrooms.filter(teachers=filters.teacher)
    classes = list(
        classrooms.annotate(student_count=Count("enrolments", distinct=True))
        .prefetch_related("teachers")
        .order_by("archived", "name")
    )
    class_ids = [classroom.pk for classroom in classes]
    stats = ClassSessionStat.objects.filter(classroom_id__in=class_ids, day__gte=start, day__lte=end)
    student_stats = StudentSessionStat.objects.filter(
        classroom_id__in=class_ids, day__gte=start, day__lte=end
    )
    if filters.game:
        stats = stats.filter(game=filters.game)
        student_stats = student_stats.filter(game=filters.game)
    per_class = {
        row["classroom_id"]: row
        for row in stats.values("classroom_id")
        .annotate(
            sessions=Count("id"), answered=Sum("answered"), right=Sum("correct"), seats=Sum("participants")
        )
        .order_by()
    }
    weekly = defaultdict(lambda: [0, 0])
    class_weekly: dict[int, dict[dt.date, float | None]] = defaultdict(dict)
    for row in (
        stats.annotate(week=TruncWeek("day"))
        .values("classroom_id", "week")
        .annotate(answered=Sum("answered"), right=Sum("correct"))
        .order_by("week")
    ):
        week = row["week"].date() if isinstance(row["week"], dt.datetime) else row["week"]
        weekly[week][0] += row["right"] or 0
        weekly[week][1] += row["answered"] or 0
        class_weekly[row["classroom_id"]][week] = (
            (row["right"] / row["answered"]) if row["answered"] else None
        )
    weeks = sorted(weekly)
    class_rows = []
    for classroom in classes:
        row = per_class.get(classroom.pk, {})
        answered = row.get("answered") or 0
        sessions = row.get("sessions") or 0
        class_rows.append(
            {
                "classroom": classroom,
                "teachers": list(classroom.teachers.all()),
                "sessions": sessions,
                "answered": answered,
                "accuracy": (row["right"] / answered) if answered else None,
                "participation": (row["seats"] / (sessions * classroom.student_count))
                if sessions and classroom.student_count
                else None,
                "spark": [class_weekly[classroom.pk].get(week) for week in weeks],
            }
        )
    progress = [(week, weekly[week][0] / weekly[week][1] if weekly[week][1] else None) for week in weeks]
    return {
        "start": start,
        "end": end,
        "classes": class_rows,
        "progress": progress,
        "attention": _attention(class_ids, student_stats, per_class, start, end),
        "teachers": list(
            User.objects.filter(memberships__school=school).order_by("display_name", "email").distinct()
        ),
        "games": list(catalog.GAME_LABELS.items()),
        "all_classes": list(
            Classroom.objects.filter(school=school).order_by("name").values_list("pk", "name")
        ),
        "build": active_build(school=school),
        "totals": {
            "sessions": sum(row["sessions"] for row in class_rows),
            "answered": sum(row["answered"] for row in class_rows),
            "right": sum((per_class.get(c.pk, {}).get("right") or 0) for c in classes),
        },
    }


def _attention(class_ids, student_stats, per_class, start, end) -> list[dict[str, Any]]:
    """Students whose accuracy fell from the first half of the period to the second, and students who took
    part in no (or under half) of their class's sessions in the period."""
    middle = start + (end - start) / 2
    figures = {
        (row["student_id"], row["classroom_id"]): row
        for row in student_stats.values("student_id", "classroom_id")
        .annotate(
            played=Count("id"),
            before_n=Sum("answered", filter=Q(day__lt=middle)),
            before_r=Sum("correct", filter=Q(day__lt=middle)),
            after_n=Sum("answered", filter=Q(day__gte=middle)),
            after_r=Sum("correct", filter=Q(day__gte=middle)),
        )
        .order_by()
    }
    found = []
    enrolments = (
        Enrolment.objects.filter(classroom_id__in=class_ids)
        .select_related("student", "classroom")
        .order_by("classroom__name", "student__display_name")
    )
    for enrolment in enrolments:
        held = (per_class.get(enrolment.classroom_id) or {}).get("sessions") or 0
        row = figures.get((enrolment.student_id, enrolment.classroom_id))
        played = row["played"] if row else 0
        reasons, drop = [], None
        if held >= 2 and played == 0:
            reasons.append("absent")
        elif held >= 4 and played / held < 0.5:
            reasons.append("rarely")
        if row and (row["before_n"] or 0) >= 10 and (row["after_n"] or 0) >= 10:
            before, after = row["before_r"] / row["before_n"], row["after_r"] / row["after_n"]
            if before - after >= 0.15:
                reasons.append("falling")
                drop = (before, after)
        if reasons:
            found.append(
                {
                    "student": enrolment.student,
                    "classroom": enrolment.classroom,
                    "reasons": reasons,
                    "played": played,
                    "held": held,
                    "drop": drop,
                }
            )
    found.sort(key=lambda item: ("falling" not in item["reasons"], item["played"] / (item["held"] or 1)))
    return found[:ATTENTION_SHOWN]


def school_for_admin(user: User) -> School | None:
    ids = sorted(admin_school_ids(user))
    return School.objects.filter(pk=ids[0]).first() if ids else None


def membership_role(user: User, school: School) -> str | None:
    return Membership.objects.filter(user=user, school=school).values_list("role", flat=True).first()
