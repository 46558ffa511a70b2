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

from django.apps import apps
from django.db.models import Case, Count, F, Prefetch, Q, QuerySet, Sum, Value, When
from django.db.models.functions import TruncWeek
from django.utils import timezone

from classrooms.models import Classroom, Enrolment, School, Student, StudentLevel, User
from classrooms.selectors import admin_school_ids, can_manage_classroom, classrooms_for_user
from games.definitions import DEFINITIONS, all_measures
from games.definitions.base import BankUse
from questions.kinds import kind as bank_kind
from questions.models import QuestionUse
from questions.selectors import playable_items

from . import catalog, items
from .build.classes import item_labels
from .build.read import BOTH, HOMEWORK, LIVE, MODES
from .models import (
    ClassItemStat,
    ClassReport,
    ClassSessionStat,
    LearningFact,
    ReportBuild,
    SkillSummary,
    StudentReport,
    StudentSessionStat,
)

TERM_DAYS = 91
ATTENTION_SHOWN = 60

__all__ = ["BOTH", "HOMEWORK", "LIVE", "MODES"]  # re-exported: "which games a report counts"


# --- permissions ---------------------------------------------------------------------------------------


def class_report_access(user: User, classroom: Classroom) -> str | None:
    """Who may see a class's reports, and how: "admin" (the school's admin), "teacher" (one of the class's
    teachers) or None (no access), so a page need not ask again whether they are an admin."""
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


# --- live games, homework or both ----------------------------------------------------------------------


def in_mode(rows: QuerySet, mode: str, session_field: str = "session") -> QuerySet:
    """Rows of live games only, homework only (a session that is a homework attempt), or both."""
    if mode == BOTH:
        return rows
    if mode not in (LIVE, HOMEWORK):
        raise ValueError(f"mode must be {LIVE}, {HOMEWORK} or {BOTH}")
    return rows.filter(**{f"{session_field}__assignment__isnull": mode == LIVE})


def report_in_mode(report: StudentReport | None, mode: str) -> StudentReport | None:
    """A student's report as one mode shows it: the row itself for both, else an unsaved copy holding
    that mode's built columns and data. None if there is no report, or it was built before the reports
    split live games from homework (:func:`built_before_modes`)."""
    if report is None or mode == BOTH:
        return report
    part = report.data.get("modes", {}).get(mode)
    if part is None:
        return None
    row = dict(part["row"])
    last = row.pop("last_played")
    shown = StudentReport(
        pk=report.pk,
        student_id=report.student_id,
        classroom_id=report.classroom_id,
        built_at=report.built_at,
        last_played=dt.date.fromisoformat(last) if last else None,
        data={key: value for key, value in part.items() if key != "row"},
        **row,
    )
    if StudentReport.classroom.is_cached(report):
        shown.classroom = report.classroom
    return shown


def class_data_in_mode(report: ClassReport | None, mode: str) -> dict[str, Any] | None:
    """A class report's data as one mode shows it (the students' levels are the same in every mode);
    None if there is none, or it was built before the split."""
    if report is None:
        return None
    if mode == BOTH:
        return _per_skill_totals(report.data)
    part = report.data.get("modes", {}).get(mode)
    if part is None:
        return None
    data = report.data
    return _per_skill_totals(
        {**part, "levels": data.get("levels", {}), "recommended": data.get("recommended", {})}
    )


def _per_skill_totals(data: dict[str, Any]) -> dict[str, Any]:
    """A class's figures without a share right across its skills (a report built before its totals were
    kept per skill has one: it is left out, and its per-skill totals come with the next build)."""
    totals = data.get("totals")
    if not totals or "accuracy" not in totals:
        return data
    return {**data, "totals": {key: value for key, value in totals.items() if key != "accuracy"}}


def built_before_modes(report: StudentReport | ClassReport | None) -> bool:
    """A report built before live games and homework were built apart: shown as both only, until it is
    rebuilt (the next session's or night's build, or "Rebuild now")."""
    return report is not None and "modes" not in report.data


# --- pages ---------------------------------------------------------------------------------------------


def active_build(
    *, classroom: Classroom | None = None, school: School | None = None, student: Student | None = None
) -> ReportBuild | None:
    """The newest waiting or running build of the class (that student's own first, if one is given), or
    of the whole school."""
    builds = ReportBuild.objects.filter(ReportBuild.live())
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


def class_report(classroom: Classroom, mode: str = BOTH) -> dict[str, Any]:
    """The class page: its report, and every enrolled student with their report and levels (5 queries),
    in ``mode`` (``data``: the class's figures in it; ``rebuild_needed``: built before the split)."""
    report = ClassReport.objects.filter(classroom=classroom).first()
    students = list(
        Student.objects.filter(enrolments__classroom=classroom)
        .prefetch_related(Prefetch("levels", queryset=StudentLevel.objects.order_by("skill")))
        .order_by("display_name", "id")
    )
    stored = list(StudentReport.objects.filter(classroom=classroom))
    reports = {row.student_id: report_in_mode(row, mode) for row in stored}
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
    rebuild_needed = mode != BOTH and (
        built_before_modes(report) or any(built_before_modes(row) for row in stored)
    )
    return {
        "report": report,
        "data": None if rebuild_needed else class_data_in_mode(report, mode),
        "rows": rows,
        "build": active_build(classroom=classroom),
        "rebuild_needed": rebuild_needed,
    }


def student_in_class(classroom: Classroom, student_id: int) -> Student | None:
    return Student.objects.filter(pk=student_id, enrolments__classroom=classroom).first()


def student_report(student: Student, classroom: Classroom, mode: str = BOTH) -> dict[str, Any]:
    stored = StudentReport.objects.filter(student=student, classroom=classroom).first()
    return {
        "report": report_in_mode(stored, mode),
        "rebuild_needed": mode != BOTH and built_before_modes(stored),
        "summaries": list(SkillSummary.objects.filter(student=student).order_by("skill")),
    }


def own_progress(student: Student, mode: str = BOTH) -> dict[str, Any]:
    """The student's own page: their reports in their classes and their skills (2 queries). A report
    built before the split shows in both only (``waiting``: the classes whose report will come)."""
    stored = list(
        StudentReport.objects.filter(student=student, classroom__archived=False)
        .select_related("classroom")
        .order_by("classroom__name")
    )
    return {
        "reports": [shown for shown in (report_in_mode(row, mode) for row in stored) if shown is not None],
        "waiting": [row.classroom for row in stored if mode != BOTH and built_before_modes(row)],
        "summaries": list(SkillSummary.objects.filter(student=student).order_by("skill")),
    }


# --- the school review ---------------------------------------------------------------------------------


@dataclass
class ReviewFilters:
    classroom: int | None = None
    teacher: int | None = None
    game: str | None = None
    mode: str = BOTH
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
    stats, student_stats = in_mode(stats, filters.mode), in_mode(student_stats, filters.mode)
    per_class = {
        row["classroom_id"]: row
        for row in stats.values("classroom_id")
        .annotate(sessions=Count("id"), answered=Sum("answered"), right=Sum("correct"), **_LIVE_SEATS)
        .order_by()
    }
    #: Each class's (right, answers) per skill: a share right is only ever taken within one skill.
    class_skills: dict[int, dict[str, tuple[int, int]]] = defaultdict(dict)
    for row in (
        stats.values("classroom_id", "skill")
        .annotate(answered=Sum("answered"), right=Sum("correct"))
        .order_by()
    ):
        if row["answered"]:
            class_skills[row["classroom_id"]][row["skill"]] = (row["right"], row["answered"])
    #: week: [students who took part, students who could have] (each session counts its class's roster)
    seats_weekly: dict[dt.date, list[int]] = defaultdict(lambda: [0, 0])
    class_size = {classroom.pk: classroom.student_count for classroom in classes}
    class_weekly: dict[int, dict[dt.date, float | None]] = defaultdict(dict)
    for row in (
        stats.annotate(week=TruncWeek("day"))
        .values("classroom_id", "week")
        .annotate(**_LIVE_SEATS)
        .order_by("week")
    ):
        week = _week_of(row["week"])
        could = row["live_sessions"] * class_size.get(row["classroom_id"], 0)
        seats_weekly[week][0] += row["seats"] or 0
        seats_weekly[week][1] += could
        class_weekly[row["classroom_id"]][week] = (row["seats"] or 0) / could if could else None
    weeks = sorted(seats_weekly)
    skill_weekly: dict[str, dict[dt.date, float | None]] = defaultdict(dict)
    for row in (
        stats.annotate(week=TruncWeek("day"))
        .values("skill", "week")
        .annotate(answered=Sum("answered"), right=Sum("correct"))
        .order_by("week")
    ):
        if row["answered"]:
            skill_weekly[row["skill"] or ""][_week_of(row["week"])] = row["right"] / row["answered"]
    class_rows = []
    for classroom in classes:
        row = per_class.get(classroom.pk, {})
        sessions = row.get("sessions") or 0
        live = row.get("live_sessions") or 0
        class_rows.append(
            {
                "classroom": classroom,
                "teachers": list(classroom.teachers.all()),
                "sessions": sessions,
                "answered": row.get("answered") or 0,
                "skills": class_skills.get(classroom.pk, {}),
                "participation": (row["seats"] / (live * classroom.student_count))
                if live and classroom.student_count
                else None,
                # Weekly participation (a share right across skills is never drawn).
                "spark": [class_weekly[classroom.pk].get(week) for week in weeks],
            }
        )
    attention = _attention(class_ids, student_stats, per_class, start, end)
    for item in attention:
        item["mode"] = filters.mode
    return {
        "progress_by_skill": {
            skill: [(week, by_week.get(week)) for week in weeks]
            for skill, by_week in sorted(skill_weekly.items())
            if skill
        },
        "participation": [
            (week, seats_weekly[week][0] / seats_weekly[week][1] if seats_weekly[week][1] else None)
            for week in weeks
        ],
        "classes_attention": _classes_needing_attention(attention, classes),
        "start": start,
        "end": end,
        "classes": class_rows,
        "skills": _skills_answered(class_rows),
        "attention": attention[:ATTENTION_SHOWN],
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
        },
    }


def _skills_answered(class_rows: list[dict]) -> list[str]:
    """The skills any of the classes answered in, in the pages' order."""
    found = {skill for row in class_rows for skill in row["skills"]}
    order = {skill: index for index, skill in enumerate(catalog.reported_skills())}
    return sorted(found, key=lambda skill: (order.get(skill, len(order)), skill))


#: Answers a student needs in a skill in each half of the period before a fall in it is called.
FALLING_MIN_ANSWERS = 10
#: A fall of this much in a skill's share right, from the first half of the period to the second.
FALLING_BY = 0.15


def _attention(class_ids, student_stats, per_class, start, end) -> list[dict[str, Any]]:
    """Students whose share right in a skill fell from the first half of the period to the second, and
    students who took part in no (or under half) of their class's sessions in the period."""
    middle = start + (end - start) / 2
    figures: dict[tuple[int, int], dict[str, Any]] = {}
    for row in (
        student_stats.values("student_id", "classroom_id", "skill")
        .annotate(
            played=Count("id"),
            live_played=Count("id", filter=Q(session__assignment__isnull=True)),
            before_n=Sum("answered", filter=Q(day__lt=middle)),
            before_r=Sum("correct", filter=Q(day__lt=middle)),
            after_n=Sum("answered", filter=Q(day__gte=middle)),
            after_r=Sum("correct", filter=Q(day__gte=middle)),
        )
        .order_by("skill")
    ):
        totals = figures.setdefault(
            (row["student_id"], row["classroom_id"]), {"played": 0, "live_played": 0, "drops": []}
        )
        totals["played"] += row["played"]
        totals["live_played"] += row["live_played"]
        drop = _skill_drop(row)
        if drop is not None:
            totals["drops"].append(drop)
    found = []
    enrolments = (
        Enrolment.objects.filter(classroom_id__in=class_ids)
        .select_related("student", "classroom")
        .order_by("classroom__name", "student__display_name")
    )
    for enrolment in enrolments:
        # The class's live games: a classmate's homework is not a game the others missed (and with
        # homework only there are none, so nobody is "not taking part").
        held = (per_class.get(enrolment.classroom_id) or {}).get("live_sessions") or 0
        row = figures.get((enrolment.student_id, enrolment.classroom_id))
        played = row["played"] if row else 0
        live_played = row["live_played"] if row else 0
        drops = row["drops"] if row else []
        reasons = []
        if held >= 2 and played == 0:
            reasons.append("absent")
        elif held >= 4 and live_played / held < 0.5:
            reasons.append("rarely")
        if drops:
            reasons.append("falling")
        if reasons:
            found.append(
                {
                    "student": enrolment.student,
                    "classroom": enrolment.classroom,
                    "reasons": reasons,
                    "played": played,
                    "live_played": live_played,
                    "homework_played": played - live_played,
                    "held": held,
                    "drops": drops,
                }
            )
    found.sort(key=lambda item: ("falling" not in item["reasons"], item["played"] / (item["held"] or 1)))
    return found


def _skill_drop(row: dict[str, Any]) -> dict[str, Any] | None:
    """A skill's fall in share right between the period's halves, if it is one to call."""
    if (row["before_n"] or 0) < FALLING_MIN_ANSWERS or (row["after_n"] or 0) < FALLING_MIN_ANSWERS:
        return None
    before, after = row["before_r"] / row["before_n"], row["after_r"] / row["after_n"]
    if before - after < FALLING_BY:
        return None
    return {
        "skill": row["skill"],
        "label": catalog.skill_label(row["skill"]),
        "before": before,
        "after": after,
    }


#: A class's live games and the places taken in them, in a grouped query of session statistics
#: (participation counts live games only).
_LIVE_SEATS = {
    "live_sessions": Count("id", filter=Q(session__assignment__isnull=True)),
    "seats": Sum("participants", filter=Q(session__assignment__isnull=True)),
}

#: Classes listed as needing attention most.
CLASSES_NEEDING_ATTENTION = 8


def _classes_needing_attention(attention: list[dict], classes: list[Classroom]) -> list[dict[str, Any]]:
    """The classes with the largest share of their students on the attention list (at least one)."""
    flagged: dict[int, int] = defaultdict(int)
    for item in attention:
        flagged[item["classroom"].pk] += 1
    rows = [
        {
            "classroom": classroom,
            "flagged": flagged[classroom.pk],
            "students": classroom.student_count,
            "share": flagged[classroom.pk] / classroom.student_count,
        }
        for classroom in classes
        if flagged.get(classroom.pk) and classroom.student_count
    ]
    rows.sort(key=lambda row: (-row["share"], -row["flagged"], row["classroom"].name))
    return rows[:CLASSES_NEEDING_ATTENTION]


def _week_of(value) -> dt.date:
    return value.date() if isinstance(value, dt.datetime) else value


def school_for_admin(user: User) -> School | None:
    ids = sorted(admin_school_ids(user))
    return School.objects.filter(pk=ids[0]).first() if ids else None


# --- what each class has left to play ---------------------------------------------------------------------


def content_left(classrooms: list[Classroom]) -> list[dict[str, Any]]:
    """For each game that draws from a bank, per class: how many questions (concepts) of each group (as the
    game's definition groups its bank: subjects, levels, difficulties) the class has not been shown yet, of
    how many. A bank with a rotation (``QuestionUse``) is read from it; the others from the questions the
    class's learning facts name."""
    by_school: dict[int, list[Classroom]] = defaultdict(list)
    for classroom in classrooms:
        by_school[classroom.school_id].append(classroom)
    reports = []
    for game in DEFINITIONS.values():
        if game.bank is None:
            continue
        groups: set[Any] = set()
        rows = []
        for school_id, school_classes in by_school.items():
            bank = _bank_groups(game.bank, school_id)
            seen = _seen_keys(game.name, game.bank.kind, [c.pk for c in school_classes])
            totals: dict[Any, int] = defaultdict(int)
            for group in bank.values():
                totals[group] += 1
            groups |= set(totals)
            for classroom in school_classes:
                shown: dict[Any, int] = defaultdict(int)
                for key in seen.get(classroom.pk, ()):
                    if key in bank:
                        shown[bank[key]] += 1
                rows.append({"classroom": classroom, "totals": totals, "shown": shown})
        ordered = sorted(groups)
        for row in rows:
            row["cells"] = [_content_cell(row["totals"].get(g, 0), row["shown"].get(g, 0)) for g in ordered]
        reports.append(
            {
                "game": game.name,
                "title": game.title,
                "groups": ordered,
                "group_names": [game.bank.group_label(group) for group in ordered],
                "rows": rows,
            }
        )
    return reports


def _content_cell(total: int, shown: int) -> dict[str, Any]:
    left = max(total - shown, 0)
    return {"left": left, "total": total, "running_out": total > 0 and left < max(5, total // 10)}


def _bank_groups(bank: BankUse, school_id: int) -> dict[str, Any]:
    """Bank key -> group, for the questions the school's classes can be given."""
    items = playable_items(bank.kind, school_id)
    if bank.shipped_only:
        items = items.filter(school__isnull=True)
    return dict(items.values_list("key", bank.group_by))


def _seen_keys(game: str, kind: str, classroom_ids: list[int]) -> dict[int, set[str]]:
    seen: dict[int, set[str]] = defaultdict(set)
    if bank_kind(kind).rotated:
        rows = QuestionUse.objects.filter(classroom_id__in=classroom_ids).values_list(
            "classroom_id", "question__key"
        )
    else:
        rows = (
            LearningFact.objects.filter(classroom_id__in=classroom_ids, game=game)
            .exclude(item_id="")
            .values_list("classroom_id", "item_id")
            .distinct()
        )
    for classroom_id, key in rows:
        seen[classroom_id].add(key)
    return seen


# --- item analysis and exports ----------------------------------------------------------------------------


def item_analysis(classroom: Classroom, mode: str = BOTH) -> list[dict[str, Any]]:
    """Every question the class answered (answers that are right or wrong; quality scores are not) in
    live games, homework or both: share right, how often asked, and the discrimination index
    (``reports.items``), hardest first. One grouped query of the class's answers (per student, question
    and session: a question is rarely asked in more than a session or two), and one or two for the
    questions' names, whatever the number of questions."""
    answers_of = in_mode(
        LearningFact.objects.filter(catalog.answers_q(), classroom=classroom, student__isnull=False),
        mode,
    ).exclude(item_id="")
    counts: dict[tuple, list[int]] = {}
    sessions: dict[tuple[str, str], set[int]] = defaultdict(set)
    for student_id, game, skill, item_id, session_id, answered, correct in (
        answers_of.values("student_id", "game", "skill", "item_id", "session_id")
        .annotate(answered=Count("id"), correct=Count("id", filter=Q(correct=True)))
        .values_list("student_id", "game", "skill", "item_id", "session_id", "answered", "correct")
        .order_by()
    ):
        total = counts.setdefault((student_id, game, skill, item_id), [0, 0])
        total[0] += answered
        total[1] += correct
        if session_id is not None:
            sessions[(game, item_id)].add(session_id)
    answers = [items.Answers(*key, answered, correct) for key, (answered, correct) in counts.items()]
    rows = items.item_rows(answers, {key: len(found) for key, found in sessions.items()})
    labels = item_labels({classroom.pk: [(row.game, row.item_id) for row in rows]})
    named = {
        (row.game, row.item_id): catalog.item_text(
            row.game, labels.get((classroom.pk, row.game, row.item_id), row.item_id)
        )
        for row in rows
    }
    options = option_breakdown(answers_of, classroom.school_id)
    return [
        {
            "options": options.get((row.game, row.item_id), []),
            "game": row.game,
            "skill": row.skill,
            "item_id": row.item_id,
            "label": named[(row.game, row.item_id)],
            "sessions": row.sessions,
            "students": row.students,
            "answered": row.answered,
            "correct": row.correct,
            "share": row.share,
            "discrimination": row.discrimination,
            "too_few": row.too_few,
            "weak": row.discrimination is not None and row.discrimination < items.WEAK_DISCRIMINATION,
        }
        for row in rows
    ]


def class_sessions(classroom: Classroom, mode: str = BOTH) -> list[ClassSessionStat]:
    """The class's sessions (live games, homework attempts or both) with their figures, oldest first."""
    return list(
        in_mode(ClassSessionStat.objects.filter(classroom=classroom), mode)
        .select_related("session")
        .order_by("day", "session__started_at", "session_id")
    )


#: Sessions in the class page's participation chart and table.
PARTICIPATION_SESSIONS = 12
#: Answers a category or level needs before the class's share right in it is charted.
MIN_WEAK_SPOT_ANSWERS = 5
WEAK_SPOTS_SHOWN = 8


def class_participation(classroom: Classroom) -> list[dict[str, Any]]:
    """The class's last live games, each with who played and who was absent (students enrolled by the
    session's day who have no record of it): a homework attempt is one student's, not a game the others
    missed. Three queries."""
    stats = list(
        in_mode(ClassSessionStat.objects.filter(classroom=classroom), LIVE)
        .select_related("session")
        .order_by("-day", "-session__started_at", "-session_id")[:PARTICIPATION_SESSIONS]
    )
    stats.reverse()
    enrolled = list(
        Enrolment.objects.filter(classroom=classroom)
        .select_related("student")
        .order_by("student__display_name", "student_id")
    )
    played: dict[int, set[int]] = defaultdict(set)
    for session_id, student_id in StudentSessionStat.objects.filter(
        classroom=classroom, session_id__in=[stat.session_id for stat in stats]
    ).values_list("session_id", "student_id"):
        played[session_id].add(student_id)
    sessions = []
    for stat in stats:
        there = played[stat.session_id]
        expected = [
            e.student
            for e in enrolled
            if timezone.localdate(e.created_at) <= stat.day or e.student_id in there
        ]
        sessions.append(
            {
                "session": stat.session,
                "game": stat.game,
                "day": stat.day,
                "present": [student for student in expected if student.pk in there],
                "absent": [student for student in expected if student.pk not in there],
                "share": len(there & {s.pk for s in expected}) / len(expected) if expected else None,
            }
        )
    return sessions


def class_weak_spots(classroom: Classroom, mode: str = BOTH) -> dict[str, list[dict[str, Any]]]:
    """The class's weakest categories and question levels (share right, lowest first, answered at
    least a few times) in ``mode``, from its per-question counts. Two queries."""
    items = ClassItemStat.objects.filter(classroom=classroom)
    if mode != BOTH:
        items = items.filter(homework=mode == HOMEWORK)
    categories = [
        {
            "game": row["game"],
            "category": row["category"],
            "answered": row["answered"],
            "correct": row["correct"],
            "share": row["correct"] / row["answered"],
        }
        for row in items.values("game", "category")
        .annotate(answered=Sum("answered"), correct=Sum("correct"))
        .order_by()
        if (row["answered"] or 0) >= MIN_WEAK_SPOT_ANSWERS
    ]
    levels: dict[tuple[str, int], list[int]] = defaultdict(lambda: [0, 0])
    for row in (
        items.filter(level__isnull=False)
        .values("game", "level")
        .annotate(answered=Sum("answered"), correct=Sum("correct"))
        .order_by()
    ):
        entry = levels[(catalog.game_skill(row["game"]), row["level"])]
        entry[0] += row["answered"] or 0
        entry[1] += row["correct"] or 0
    level_rows = [
        {
            "skill": skill,
            "level": level,
            "answered": answered,
            "correct": correct,
            "share": correct / answered,
        }
        for (skill, level), (answered, correct) in levels.items()
        if answered >= MIN_WEAK_SPOT_ANSWERS
    ]
    categories.sort(key=lambda row: (row["share"], row["game"], row["category"]))
    level_rows.sort(key=lambda row: (row["share"], row["skill"], row["level"]))
    return {"categories": categories[:WEAK_SPOTS_SHOWN], "levels": level_rows[:WEAK_SPOTS_SHOWN]}


# --- right after a session: who needs help, and the answers per option --------------------------------------

#: A student needs help after a session when they gave at least ``HELP_MIN_ANSWERS`` answers in it and
#: got under ``HELP_BELOW`` of them right, or ``HELP_DROP`` or more below their usual share right in the
#: session's skill (their other sessions' share, from at least ``HELP_USUAL_ANSWERS`` answers).
HELP_MIN_ANSWERS = 3
HELP_BELOW = 0.5
HELP_DROP = 0.25
HELP_USUAL_ANSWERS = 10


def session_help(session) -> dict[str, Any] | None:
    """Who needs help after a session (``HELP_*``), lowest share first, each with the categories they
    got under half right in it; ``None`` for a game with no answers to mark (Mind the Lines' marks are
    its own measure). ``waiting``: the session's answers are still being recorded. Three queries."""
    skill = catalog.game_skill(session.game)
    if not catalog.games_spec("answer_categories").keys() & {session.game}:
        return None
    per_category = list(
        LearningFact.objects.filter(catalog.answers_q(), session=session, student__isnull=False)
        .values("student_id", "game", "category")
        .annotate(answered=Count("id"), right=Count("id", filter=Q(correct=True)))
        .order_by()
    )
    totals: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    weak: dict[int, list[str]] = defaultdict(list)
    for row in per_category:
        totals[row["student_id"]][0] += row["answered"]
        totals[row["student_id"]][1] += row["right"]
        if row["right"] / row["answered"] < HELP_BELOW:
            weak[row["student_id"]].append(catalog.category_label(row["category"]))
    usual = {
        row["student_id"]: (row["right"], row["answered"])
        for row in StudentSessionStat.objects.filter(student_id__in=list(totals), skill=skill, answered__gt=0)
        .exclude(session=session)
        .values("student_id")
        .annotate(answered=Sum("answered"), right=Sum("correct"))
        .order_by()
        if row["answered"] >= HELP_USUAL_ANSWERS
    }
    flagged = []
    for student_id, (answered, right) in totals.items():
        share = right / answered
        usual_share = usual[student_id][0] / usual[student_id][1] if student_id in usual else None
        below = share < HELP_BELOW
        dropped = usual_share is not None and usual_share - share >= HELP_DROP
        if answered >= HELP_MIN_ANSWERS and (below or dropped):
            flagged.append(
                {
                    "student_id": student_id,
                    "right": right,
                    "answered": answered,
                    "share": share,
                    "usual": usual_share,
                    "below_usual": dropped,
                    "categories": sorted(weak[student_id]),
                }
            )
    names = dict(
        Student.objects.filter(pk__in=[row["student_id"] for row in flagged]).values_list(
            "pk", "display_name"
        )
    )
    for row in flagged:
        row["name"] = names.get(row["student_id"], "")
    flagged.sort(key=lambda row: (row["share"], row["name"]))
    return {
        "session": session,
        "skill": catalog.skill_label(skill),
        "students": flagged,
        "answered_by": len(totals),
        "waiting": not totals and session.wrapped_up_at is None,
        "rule": {"min": HELP_MIN_ANSWERS, "below": HELP_BELOW, "drop": round(100 * HELP_DROP)},
    }


def option_breakdown(facts: QuerySet, school_id: int) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """``{(game, question): [{"text", "count", "right"}]}``: how many answers picked each option of the
    games' multiple-choice questions (``ReportMeasures.option_categories``) among ``facts``, in the
    bank's order of the options (those nobody picked too, with 0), then any other option picked. Two
    queries."""
    spec = {game: measures for game, measures in all_measures().items() if measures.option_categories}
    if not spec:
        return {}
    which = Q(pk__in=[])
    for game, measures in spec.items():
        which |= Q(game=game, category__in=measures.option_categories)
    counts: dict[tuple[str, str], dict[str, list]] = defaultdict(dict)
    for game, item_id, response, correct, count in (
        facts.filter(which, student__isnull=False, correct__isnull=False, response__isnull=False)
        .exclude(item_id="")
        .values("game", "item_id", "response", "correct")
        .annotate(count=Count("id"))
        .values_list("game", "item_id", "response", "correct", "count")
        .order_by()
    ):
        entry = counts[(game, item_id)].setdefault(str(response), [0, False])
        entry[0] += count
        entry[1] = entry[1] or bool(correct)
    bank = _bank_options(spec, counts, school_id)
    found = {}
    for key, picked in counts.items():
        options, accepted = bank.get(key, ([], set()))
        texts = [*options, *sorted(text for text in picked if text not in options)]
        found[key] = [
            {
                "text": text,
                "count": picked.get(text, [0])[0],
                "right": (picked[text][1] if text in picked else False) or text.casefold() in accepted,
            }
            for text in texts
        ]
    return found


def _bank_options(spec, counts, school_id: int) -> dict[tuple[str, str], tuple[list[str], set[str]]]:
    """Each question's options and accepted answers in its bank (the school's own before a shipped one)."""
    found: dict[tuple[str, str], tuple[list[str], set[str]]] = {}
    for game, measures in spec.items():
        source = measures.item_labels
        keys = [item_id for found_game, item_id in counts if found_game == game]
        if not (source.bank and measures.options_field and keys):
            continue
        model = apps.get_model(source.bank)
        fields = ["key", measures.options_field, *([source.answer_field] if source.answer_field else [])]
        rows = (
            model.objects.filter(Q(school__isnull=True) | Q(school_id=school_id), key__in=keys)
            .order_by(F("school_id").asc(nulls_first=True))
            .values_list(*fields)
        )
        for key, options, *accepted in rows:  # the school's own question last: it wins
            right = {str(answer).casefold() for answer in (accepted[0] if accepted else None) or []}
            found[(game, key)] = ([str(option) for option in options or []], right)
    return found


def session_options(session) -> dict[str, Any] | None:
    """How the session's answers to each multiple-choice question spread over its options (``None``:
    none asked)."""
    breakdown = option_breakdown(LearningFact.objects.filter(session=session), session.classroom.school_id)
    if not breakdown:
        return None
    labels = item_labels({session.classroom_id: sorted(breakdown)})
    return {
        "questions": [
            {
                "label": labels.get((session.classroom_id, game, item_id), item_id),
                "options": options,
                "answered": sum(option["count"] for option in options),
            }
            for (game, item_id), options in sorted(breakdown.items())
        ]
    }


def last_finished_build() -> ReportBuild | None:
    """The report build that finished (or failed) last, site-wide (the staff's status page)."""
    finished = ReportBuild.objects.filter(finished_at__isnull=False)
    return finished.order_by("-finished_at").only("scope", "status", "started_at", "finished_at").first()


def builds_waiting() -> dict[str, int]:
    """Report builds not finished yet, site-wide: waiting for a worker, and being built."""
    rows = ReportBuild.objects.filter(status__in=[ReportBuild.Status.QUEUED, ReportBuild.Status.RUNNING])
    counts = {ReportBuild.Status.QUEUED.value: 0, ReportBuild.Status.RUNNING.value: 0}
    for row in rows.values("status").annotate(count=Count("pk")).order_by():
        counts[row["status"]] = row["count"]
    return counts
