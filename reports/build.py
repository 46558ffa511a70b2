"""Building the reports from the learning facts (run by the Celery tasks in ``reports.tasks``).

One function, :func:`classrooms_build`, does every scope: a chunk of classes (a school build walks its
classes in chunks), optionally one session's statistics (after a session) or some students only. It reads
with a handful of grouped queries per chunk (never one query per student), computes in Python and
writes each table by deleting the rows of its keys and inserting the new ones inside one transaction,
so a rerun writes the same rows and a failure half-way leaves the previous rows in place.
"""

from __future__ import annotations

import datetime as dt
import json
import operator
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, F, FloatField, JSONField, Q, Sum
from django.db.models.expressions import Window
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, RowNumber
from django.utils import timezone

from classrooms.models import Enrolment, StudentLevel
from games.models import GameSession, Participant

from . import catalog, levels
from .models import (
    ClassItemStat,
    ClassReport,
    ClassSessionStat,
    ClassWrongAnswer,
    DataErasure,
    LearningFact,
    SkillSummary,
    StudentReport,
    StudentSessionStat,
)

#: Sessions shown in a student's trend chart and sparkline.
TREND_SESSIONS = 30
SPARK_SESSIONS = 12
#: "Recent" form: the last few sessions with answers, against the few before them.
RECENT_SESSIONS = 5
#: A fall in accuracy of this much (recent against previous) puts a student on the attention list.
FALLING_BY = 0.15
#: Answers in a category before it can be called a strength or a weakness.
MIN_CATEGORY_ANSWERS = 5
STRENGTH_AT = 0.75
WEAKNESS_BELOW = 0.5
HARDEST_SHOWN = 10
MIN_ITEM_ANSWERS = 3
WRONG_SHOWN = 10
BATCH = 2000
STARTED = (GameSession.Status.RUNNING, GameSession.Status.PAUSED, GameSession.Status.FINISHED)

Progress = Callable[[int, int, str], None]


def _ratio(right: int, total: int) -> float | None:
    return round(right / total, 4) if total else None


def _mean(total: float | None, count: int) -> float | None:
    return round(total / count, 2) if count and total is not None else None


def session_day(session: dict[str, Any]) -> dt.date:
    moment = session["ended_at"] or session["started_at"] or session["scheduled_for"]
    return timezone.localdate(moment)


@dataclass
class BuildResult:
    classrooms: int = 0
    students: int = 0
    session_rows: int = 0
    class_session_rows: int = 0
    skipped_frozen: int = 0
    steps: list[str] = field(default_factory=list)


# --- the whole build ----------------------------------------------------------------------------------


def classrooms_build(
    classroom_ids: Iterable[int],
    *,
    session_ids: Iterable[int] | None = None,
    student_ids: Iterable[int] | None = None,
    progress: Progress | None = None,
    now: dt.datetime | None = None,
) -> BuildResult:
    """Rebuild the reports of these classes.

    ``session_ids``: recompute the per-session statistics of these sessions only (after a session);
    ``student_ids``: only these students' rows (the class-wide statistics are left as they are).
    Student reports and the class report are always recomputed for the classes' (chosen) students.
    """
    classroom_ids = sorted(set(classroom_ids))
    session_ids = None if session_ids is None else sorted(set(session_ids))
    student_ids = None if student_ids is None else sorted(set(student_ids))
    now = now or timezone.now()
    report = progress or (lambda done, total, step: None)
    result = BuildResult(classrooms=len(classroom_ids))
    if not classroom_ids:
        return result

    sessions = _sessions(classroom_ids)
    report(0, 3, "sessions")
    _build_session_stats(classroom_ids, sessions, session_ids, student_ids, result)
    if student_ids is None:
        _build_class_items(classroom_ids)
    report(1, 3, "students")
    students = _target_students(classroom_ids, student_ids)
    _build_student_reports(classroom_ids, students, sessions, now, result)
    result.students = len({student for _classroom, student in students})
    report(2, 3, "classes")
    for classroom_id in classroom_ids:  # cheap, and the level distribution may have changed
        _build_class_report(classroom_id, now)
    report(3, 3, "done")
    return result


def _sessions(classroom_ids: list[int]) -> dict[int, dict[str, Any]]:
    rows = GameSession.objects.filter(classroom_id__in=classroom_ids, status__in=STARTED).values(
        "pk", "classroom_id", "game", "title", "ended_at", "started_at", "scheduled_for"
    )
    sessions = {}
    for row in rows:
        row["day"] = session_day(row)
        sessions[row["pk"]] = row
    return sessions


def _target_students(classroom_ids: list[int], student_ids: list[int] | None) -> list[tuple[int, int]]:
    """``(classroom, student)`` pairs: the classes' enrolled students (or the chosen ones)."""
    enrolments = Enrolment.objects.filter(classroom_id__in=classroom_ids)
    if student_ids is not None:
        enrolments = enrolments.filter(student_id__in=student_ids)
    return sorted(enrolments.values_list("classroom_id", "student_id"))


# --- per-session statistics -----------------------------------------------------------------------------


def _build_session_stats(classroom_ids, sessions, session_ids, student_ids, result: BuildResult) -> None:
    wanted = set(sessions) if session_ids is None else set(session_ids) & set(sessions)
    facts = LearningFact.objects.filter(classroom_id__in=classroom_ids, session_id__in=wanted)
    joined = Participant.objects.filter(session_id__in=wanted).exclude(status=Participant.Status.WAITING)
    if student_ids is not None:
        facts = facts.filter(student_id__in=student_ids)
        joined = joined.filter(student_id__in=student_ids)
    answers = catalog.answers_q()
    per_student = (
        facts.filter(student__isnull=False)
        .values("student_id", "session_id")
        .annotate(
            answered=Count("id", filter=answers),
            right=Count("id", filter=answers & Q(correct=True)),
            time_total=Sum("time_taken", filter=answers),
            time_count=Count("time_taken", filter=answers),
        )
        .order_by()
    )
    erased: dict[int, dt.datetime] = {}
    for student_id, erased_at in DataErasure.objects.filter(
        student__enrolments__classroom_id__in=classroom_ids
    ).values_list("student_id", "erased_at"):
        erased[student_id] = max(erased_at, erased.get(student_id, erased_at))
    stats: dict[tuple[int, int], StudentSessionStat] = {}
    for row in per_student:
        session = sessions[row["session_id"]]
        stats[(row["student_id"], row["session_id"])] = Row(
            student_id=row["student_id"],
            classroom_id=session["classroom_id"],
            session_id=row["session_id"],
            game=session["game"],
            skill=catalog.GAME_SKILLS.get(session["game"], ""),
            day=session["day"],
            answered=row["answered"],
            correct=row["right"],
            time_total=round(row["time_total"] or 0.0, 3),
            time_count=row["time_count"],
        )
    for student_id, session_id in joined.values_list("student_id", "session_id"):
        session = sessions[session_id]
        when = session["ended_at"] or session["started_at"] or session["scheduled_for"]
        if (student_id, session_id) in stats or (student_id in erased and when <= erased[student_id]):
            continue
        stats[(student_id, session_id)] = Row(
            student_id=student_id,
            classroom_id=session["classroom_id"],
            session_id=session_id,
            game=session["game"],
            skill=catalog.GAME_SKILLS.get(session["game"], ""),
            day=session["day"],
            answered=0,
            correct=0,
            time_total=0.0,
            time_count=0,
        )
    rows = sorted(stats.values(), key=lambda stat: (stat.session_id, stat.student_id))
    with transaction.atomic():
        old = StudentSessionStat.objects.filter(classroom_id__in=classroom_ids, session_id__in=wanted)
        if student_ids is not None:
            old = old.filter(student_id__in=student_ids)
        old.delete()
        bulk_insert(StudentSessionStat, rows)
    result.session_rows = len(rows)
    if student_ids is None:
        _build_class_session_stats(sessions, wanted, rows, result)


def _build_class_session_stats(sessions, wanted, rows, result: BuildResult) -> None:
    frozen = set(
        ClassSessionStat.objects.filter(session_id__in=wanted, frozen=True).values_list(
            "session_id", flat=True
        )
    )
    result.skipped_frozen = len(frozen)
    live = wanted - frozen
    totals: dict[int, list[float]] = defaultdict(lambda: [0, 0, 0, 0.0, 0])
    for stat in rows:
        total = totals[stat.session_id]
        total[0] += 1
        total[1] += stat.answered
        total[2] += stat.correct
        total[3] += stat.time_total
        total[4] += stat.time_count
    class_rows = [
        ClassSessionStat(
            classroom_id=sessions[session_id]["classroom_id"],
            session_id=session_id,
            game=sessions[session_id]["game"],
            skill=catalog.GAME_SKILLS.get(sessions[session_id]["game"], ""),
            day=sessions[session_id]["day"],
            participants=int(total[0]),
            answered=int(total[1]),
            correct=int(total[2]),
            time_total=round(total[3], 3),
            time_count=int(total[4]),
        )
        for session_id, total in sorted(totals.items())
        if session_id in live
    ]
    with transaction.atomic():
        ClassSessionStat.objects.filter(session_id__in=live).delete()
        bulk_insert(ClassSessionStat, class_rows)
    result.class_session_rows = len(class_rows)


def _build_class_items(classroom_ids: list[int]) -> None:
    """Per question: answers and right answers, and the wrong answers given (anonymous, whole class)."""
    facts = LearningFact.objects.filter(classroom_id__in=classroom_ids)
    items = (
        facts.filter(catalog.answers_q())
        .exclude(item_id="")
        .values("classroom_id", "game", "category", "level", "item_id")
        .annotate(answered=Count("id"), right=Count("id", filter=Q(correct=True)))
        .order_by()
    )
    item_rows = [
        Row(
            classroom_id=row["classroom_id"],
            game=row["game"],
            category=row["category"],
            level=row["level"],
            item_id=row["item_id"],
            answered=row["answered"],
            correct=row["right"],
            archived=False,
        )
        for row in items
    ]
    item_rows.sort(key=lambda r: (r.classroom_id, r.game, r.category, r.level or 0, r.item_id))
    wrong_rows = wrong_answer_rows(facts)
    with transaction.atomic():
        ClassItemStat.objects.filter(classroom_id__in=classroom_ids, archived=False).delete()
        ClassWrongAnswer.objects.filter(classroom_id__in=classroom_ids, archived=False).delete()
        bulk_insert(ClassItemStat, item_rows)
        bulk_insert(ClassWrongAnswer, wrong_rows)


def wrong_answer_rows(facts, *, archived: bool = False) -> list[ClassWrongAnswer]:
    wrong = (
        facts.filter(catalog.wrong_answers_q())
        .values("classroom_id", "game", "category", "item_id", "response")
        .annotate(count=Count("id"))
        .order_by()
    )
    merged: dict[tuple, Counter] = {}
    for row in wrong:
        text = catalog.answer_text(row["game"], row["response"])
        if not text:
            continue
        key = (row["classroom_id"], row["game"], row["category"], row["item_id"], text.casefold())
        merged.setdefault(key, Counter())[text] += row["count"]
    return [
        Row(
            classroom_id=classroom_id,
            game=game,
            category=category,
            item_id=item_id,
            # Spellings that differ only in case are one answer, shown as most often written.
            answer=min(texts, key=lambda text, texts=texts: (-texts[text], text)),
            count=sum(texts.values()),
            archived=archived,
        )
        for (classroom_id, game, category, item_id, _key), texts in sorted(merged.items())
    ]


class Row(SimpleNamespace):
    """A row to insert: plain attributes (building hundreds of thousands of model instances is slow)."""


def bulk_insert(model, rows: list) -> None:
    """Insert many rows: COPY on PostgreSQL (a school build writes hundreds of thousands of rows, and
    bulk_create spends most of its time building the statement), bulk_create elsewhere."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        instances = [model(**vars(row)) if isinstance(row, Row) else row for row in rows]
        model.objects.bulk_create(instances, batch_size=BATCH)
        return
    fields = [field for field in model._meta.concrete_fields if not field.primary_key]
    columns = ", ".join(connection.ops.quote_name(field.column) for field in fields)
    statement = f"COPY {connection.ops.quote_name(model._meta.db_table)} ({columns}) FROM STDIN"
    values = operator.attrgetter(*(field.attname for field in fields))
    json_at = [index for index, field in enumerate(fields) if isinstance(field, JSONField)]
    with connection.cursor() as cursor, cursor.cursor.copy(statement) as copy:
        for row in rows:
            record = values(row)
            if json_at:
                record = list(record)
                for index in json_at:
                    record[index] = json.dumps(record[index])
            copy.write_row(record)


# --- student reports ------------------------------------------------------------------------------------


def _build_student_reports(classroom_ids, targets, sessions, now, result: BuildResult) -> None:
    if not targets:
        with transaction.atomic():
            StudentReport.objects.filter(classroom_id__in=classroom_ids).exclude(
                student__enrolments__classroom_id=F("classroom_id")
            ).delete()
        return
    student_ids = sorted({student for _classroom, student in targets})
    facts = LearningFact.objects.filter(classroom_id__in=classroom_ids, student_id__in=student_ids)
    # One scan for both: by game and category, and (answers only) by skill and level.
    grouped = (
        facts.values("student_id", "classroom_id", "game", "category", "skill", "level")
        .annotate(
            n=Count("id"),
            answered=Count("id", filter=Q(correct__isnull=False)),
            right=Count("id", filter=Q(correct=True)),
            time_total=Sum("time_taken", filter=Q(correct__isnull=False)),
            time_count=Count("time_taken", filter=Q(correct__isnull=False)),
            score_total=Sum("score"),
            score_count=Count("score"),
            marked=Count("id", filter=Q(teacher_marked=True)),
        )
        .order_by()
    )
    merged_categories: dict[tuple, dict] = {}
    merged_levels: dict[tuple, dict] = {}
    for row in grouped:
        key = (row["classroom_id"], row["student_id"], row["game"], row["category"])
        entry = merged_categories.get(key)
        if entry is None:
            merged_categories[key] = entry = {
                "student_id": row["student_id"],
                "classroom_id": row["classroom_id"],
                "game": row["game"],
                "category": row["category"],
                **dict.fromkeys(("n", "answered", "right", "time_count", "score_count", "marked"), 0),
                "time_total": None,
                "score_total": None,
            }
        for name in ("n", "answered", "right", "time_count", "score_count", "marked"):
            entry[name] += row[name]
        for name in ("time_total", "score_total"):
            if row[name] is not None:
                entry[name] = (entry[name] or 0.0) + row[name]
        if row["level"] is not None and row["answered"] and catalog.is_answer(row["game"], row["category"]):
            level_key = (row["classroom_id"], row["student_id"], row["skill"], row["level"])
            level = merged_levels.setdefault(
                level_key, {"skill": row["skill"], "level": row["level"], "answered": 0, "right": 0}
            )
            level["answered"] += row["answered"]
            level["right"] += row["right"]
    categories: dict[tuple[int, int], list[dict]] = defaultdict(list)
    class_categories: dict[tuple[int, str, str], list[int]] = defaultdict(lambda: [0, 0])
    for (classroom_id, student_id, game, category), row in merged_categories.items():
        categories[(classroom_id, student_id)].append(row)
        if catalog.is_answer(game, category):
            entry = class_categories[(classroom_id, game, category)]
            entry[0] += row["right"]
            entry[1] += row["answered"]
    level_rows: dict[tuple[int, int], list[dict]] = defaultdict(list)
    for (classroom_id, student_id, _skill, _level), row in merged_levels.items():
        level_rows[(classroom_id, student_id)].append(row)
    series: dict[tuple[int, int], list[StudentSessionStat]] = defaultdict(list)
    for stat in (
        StudentSessionStat.objects.filter(classroom_id__in=classroom_ids, student_id__in=student_ids)
        .order_by("day", "session_id")
        .values_list(
            "classroom_id",
            "student_id",
            "session_id",
            "game",
            "day",
            "answered",
            "correct",
            "time_total",
            "time_count",
            named=True,
        )
        .iterator(chunk_size=5000)
    ):
        series[(stat.classroom_id, stat.student_id)].append(stat)
    enrolled_on = {
        (classroom, student): timezone.localdate(created)
        for classroom, student, created in Enrolment.objects.filter(
            classroom_id__in=classroom_ids, student_id__in=student_ids
        ).values_list("classroom_id", "student_id", "created_at")
    }
    class_days: dict[int, list[dt.date]] = defaultdict(list)
    for session in sessions.values():
        class_days[session["classroom_id"]].append(session["day"])
    insights = _game_insights(facts)
    summaries = _build_skill_summaries(student_ids, now)

    reports = []
    for classroom_id, student_id in targets:
        key = (classroom_id, student_id)
        # Sessions held since the student joined the class (or since they first played, if earlier).
        since = enrolled_on.get(key)
        if since is not None and series[key]:
            since = min(since, series[key][0].day)
        held = sum(1 for day in class_days[classroom_id] if since is None or day >= since)
        reports.append(
            _student_report(
                classroom_id,
                student_id,
                categories[key],
                level_rows[key],
                series[key],
                held,
                class_categories,
                insights.get(key, {}),
                summaries.get(student_id, {}),
                now,
            )
        )
    with transaction.atomic():
        StudentReport.objects.filter(classroom_id__in=classroom_ids, student_id__in=student_ids).delete()
        # Students who left a class lose their report in it (their facts stay until erased or purged).
        StudentReport.objects.filter(classroom_id__in=classroom_ids).exclude(
            student__enrolments__classroom_id=F("classroom_id")
        ).delete()
        bulk_insert(StudentReport, reports)


def _game_insights(facts) -> dict[tuple[int, int], dict[str, Any]]:
    """What each game's own facts tell beyond right and wrong (see docs/reports.md)."""
    found: dict[tuple[int, int], dict[str, Any]] = defaultdict(dict)
    lineup = (
        facts.filter(game="lineup", score__isnull=False)
        .annotate(team_right=Cast(KT("detail__team_right"), FloatField()))
        .values_list("classroom_id", "student_id", "score", "team_right")
    )
    for classroom_id, student_id, own, team in lineup:
        entry = found[(classroom_id, student_id)].setdefault(
            "lineup", {"questions": 0, "own_total": 0.0, "team_total": 0.0, "better": 0, "worse": 0}
        )
        entry["questions"] += 1
        entry["own_total"] += own
        if team is not None:
            entry["team_total"] += team
            entry["better"] += own > team
            entry["worse"] += own < team
    comparisons = (
        facts.filter(game="lineit", category="comparison", correct=False)
        .annotate(card=KT("detail__card_face"), end=KT("detail__end_face"), relation=KT("detail__relation"))
        .values("classroom_id", "student_id", "card", "end", "relation")
        .annotate(times=Count("id"))
        .order_by()
    )
    for row in comparisons:
        entry = found[(row["classroom_id"], row["student_id"])].setdefault("lineit", {"wrong": []})
        entry["wrong"].append([row["card"], row["end"], row["relation"], row["times"]])
    for entry in found.values():
        if "lineit" in entry:
            entry["lineit"]["wrong"].sort(key=lambda wrong: (-wrong[3], str(wrong[0]), str(wrong[1])))
            entry["lineit"]["wrong"] = entry["lineit"]["wrong"][:8]
    return found


def _build_skill_summaries(student_ids: list[int], now) -> dict[int, dict[str, dict]]:
    """Each student's totals per levelled skill and the recommended level (all their classes: a level
    belongs to the student, not to one class)."""
    # Totals from the per-session statistics (already rebuilt for this build's sessions): a scan of a
    # few hundred rows per student instead of all their facts.
    totals = (
        StudentSessionStat.objects.filter(
            student_id__in=student_ids, skill__in=catalog.LEVELLED_SKILLS, answered__gt=0
        )
        .values("student_id", "skill")
        .annotate(
            answered=Sum("answered"),
            right=Sum("correct"),
            time_total=Sum("time_total"),
            time_count=Sum("time_count"),
            sessions=Count("id"),
        )
        .order_by()
    )
    by_key = {(row["student_id"], row["skill"]): row for row in totals}
    evidence: dict[tuple[int, str], list[tuple[int, bool]]] = defaultdict(list)
    for student_id, skill, level, correct in _latest_evidence(student_ids):
        evidence[(student_id, skill)].append((level, correct))
    current = {
        (student_id, skill): level
        for student_id, skill, level in StudentLevel.objects.filter(student_id__in=student_ids).values_list(
            "student_id", "skill", "level"
        )
    }
    rows, found = [], defaultdict(dict)
    for student_id in student_ids:
        for skill in catalog.LEVELLED_SKILLS:
            total = by_key.get((student_id, skill), {})
            recommendation = levels.recommend(levels.evidence_of(evidence.get((student_id, skill), [])))
            summary = SkillSummary(
                student_id=student_id,
                skill=skill,
                answered=total.get("answered", 0),
                correct=total.get("right", 0),
                mean_time=_mean(total.get("time_total"), total.get("time_count", 0)),
                sessions=total.get("sessions", 0),
                current_level=current.get((student_id, skill)),
                recommended_level=recommendation.level,
                confidence=recommendation.confidence,
                ability=recommendation.ability,
                evidence={str(level): list(pair) for level, pair in recommendation.evidence.items()},
                evidence_answers=recommendation.answers,
                built_at=now,
            )
            rows.append(summary)
            found[student_id][skill] = {
                "recommended": recommendation.level,
                "confidence": recommendation.confidence,
                "current": summary.current_level,
            }
    with transaction.atomic():
        SkillSummary.objects.filter(student_id__in=student_ids).delete()
        bulk_insert(SkillSummary, rows)
    return found


def _latest_evidence(student_ids: list[int]):
    """``(student, skill, level, correct)`` of each student's latest ``levels.WINDOW`` levelled answers per
    skill. On PostgreSQL one index walk per student and skill (LATERAL ... LIMIT); elsewhere a window."""
    if connection.vendor == "postgresql":
        games = [game for game, categories in catalog.LEVEL_EVIDENCE.items() if categories is None]
        limited = [
            (game, list(categories)) for game, categories in catalog.LEVEL_EVIDENCE.items() if categories
        ]
        conditions = ["f.game = ANY(%s)"] + ["(f.game = %s AND f.category = ANY(%s))" for _limited in limited]
        params: list = [games] + [value for game, categories in limited for value in (game, categories)]
        pairs = [(student, skill) for student in student_ids for skill in catalog.LEVELLED_SKILLS]
        sql = f"""
            SELECT p.student_id, p.skill, f.level, f.correct
            FROM unnest(%s::bigint[], %s::text[]) AS p(student_id, skill)
            CROSS JOIN LATERAL (
                SELECT f.level, f.correct FROM {LearningFact._meta.db_table} f
                WHERE f.student_id = p.student_id AND f.skill = p.skill
                  AND f.correct IS NOT NULL AND f.level IS NOT NULL AND ({" OR ".join(conditions)})
                ORDER BY f.created_at DESC, f.id DESC
                LIMIT %s
            ) f
        """
        with connection.cursor() as cursor:
            cursor.execute(sql, [[p[0] for p in pairs], [p[1] for p in pairs], *params, levels.WINDOW])
            return cursor.fetchall()
    return (
        LearningFact.objects.filter(catalog.level_evidence_q(), student_id__in=student_ids)
        .annotate(
            rank=Window(
                RowNumber(),
                partition_by=[F("student_id"), F("skill")],
                order_by=[F("created_at").desc(), F("id").desc()],
            )
        )
        .filter(rank__lte=levels.WINDOW)
        .values_list("student_id", "skill", "level", "correct")
    )


def _student_report(
    classroom_id, student_id, categories, level_rows, stats, held, class_categories, insights, skills, now
) -> StudentReport:
    answered = right = 0
    time_total, time_count = 0.0, 0
    games: dict[str, dict[str, Any]] = {}
    category_list, results = [], []
    for row in sorted(categories, key=lambda r: (r["game"], r["category"])):
        game, category = row["game"], row["category"]
        if catalog.is_answer(game, category) and row["answered"]:
            answered += row["answered"]
            right += row["right"]
            time_total += row["time_total"] or 0.0
            time_count += row["time_count"]
            entry = games.setdefault(game, {"game": game, "answered": 0, "correct": 0, "tt": 0.0, "tn": 0})
            entry["answered"] += row["answered"]
            entry["correct"] += row["right"]
            entry["tt"] += row["time_total"] or 0.0
            entry["tn"] += row["time_count"]
            class_right, class_total = class_categories[(classroom_id, game, category)]
            category_list.append(
                {
                    "game": game,
                    "category": category,
                    "answered": row["answered"],
                    "correct": row["right"],
                    "accuracy": _ratio(row["right"], row["answered"]),
                    "mean_time": _mean(row["time_total"], row["time_count"]),
                    "mean_score": _mean(row["score_total"], row["score_count"]),
                    "marked": row["marked"],
                    "class_accuracy": _ratio(class_right, class_total),
                }
            )
        elif not catalog.is_answer(game, category):
            results.append(
                {
                    "game": game,
                    "category": category,
                    "count": row["n"],
                    "wins": row["right"],
                    "mean_score": _mean(row["score_total"], row["score_count"]),
                }
            )
    played = [stat for stat in stats]
    with_answers = [stat for stat in stats if stat.answered]
    sessions_by_game = Counter(stat.game for stat in played)
    game_list = [
        {
            "game": game,
            "answered": entry["answered"],
            "correct": entry["correct"],
            "accuracy": _ratio(entry["correct"], entry["answered"]),
            "mean_time": _mean(entry["tt"], entry["tn"]),
            "sessions": sessions_by_game.get(game, 0),
        }
        for game, entry in sorted(games.items())
    ]
    trend = [
        {
            "session": stat.session_id,
            "day": stat.day.isoformat(),
            "game": stat.game,
            "answered": stat.answered,
            "correct": stat.correct,
            "accuracy": _ratio(stat.correct, stat.answered),
            "mean_time": _mean(stat.time_total, stat.time_count),
        }
        for stat in with_answers[-TREND_SESSIONS:]
    ]
    recent = with_answers[-RECENT_SESSIONS:]
    previous = with_answers[-2 * RECENT_SESSIONS : -RECENT_SESSIONS]
    recent_accuracy = _ratio(sum(s.correct for s in recent), sum(s.answered for s in recent))
    previous_accuracy = _ratio(sum(s.correct for s in previous), sum(s.answered for s in previous))
    falling = (
        recent_accuracy is not None
        and previous_accuracy is not None
        and len(previous) == RECENT_SESSIONS
        and previous_accuracy - recent_accuracy >= FALLING_BY
    )
    level_list = [
        {
            "skill": row["skill"],
            "level": row["level"],
            "answered": row["answered"],
            "correct": row["right"],
            "accuracy": _ratio(row["right"], row["answered"]),
        }
        for row in sorted(level_rows, key=lambda r: (r["skill"], r["level"]))
    ]
    absent = held >= 2 and not played
    participation = _ratio(len(played), held) if held else None
    low_participation = held >= 4 and participation is not None and participation < 0.5
    notes = _notes(category_list, recent_accuracy, previous_accuracy, len(previous), participation)
    attention = [
        reason
        for reason, flag in (
            ("falling", falling),
            ("absent", absent),
            ("rarely", low_participation and not absent),
        )
        if flag
    ]
    data = {
        "totals": {
            "answered": answered,
            "correct": right,
            "accuracy": _ratio(right, answered),
            "mean_time": _mean(time_total, time_count),
            "sessions_played": len(played),
            "sessions_with_answers": len(with_answers),
            "sessions_held": held,
            "participation": participation,
            "first_played": played[0].day.isoformat() if played else None,
        },
        "games": game_list,
        "categories": category_list,
        "levels": level_list,
        "results": results,
        "trend": trend,
        "spark": [point["accuracy"] for point in trend[-SPARK_SESSIONS:]],
        "insights": _insight_data(insights, category_list),
        "notes": notes,
        "attention": attention,
        "skills": skills,
    }
    return StudentReport(
        student_id=student_id,
        classroom_id=classroom_id,
        answered=answered,
        correct=right,
        accuracy=_ratio(right, answered),
        sessions_played=len(played),
        sessions_held=held,
        last_played=played[-1].day if played else None,
        recent_accuracy=recent_accuracy,
        previous_accuracy=previous_accuracy,
        needs_attention=bool(attention),
        data=data,
        built_at=now,
    )


def _insight_data(insights: dict[str, Any], category_list: list[dict]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    cats = {(row["game"], row["category"]): row for row in category_list}
    if "lineup" in insights:
        raw = insights["lineup"]
        count = raw["questions"]
        data["lineup"] = {
            "questions": count,
            "own_mean": round(raw["own_total"] / count, 2) if count else None,
            "team_mean": round(raw["team_total"] / count, 2) if count else None,
            "better": raw["better"],
            "worse": raw["worse"],
        }
    question = cats.get(("faces", "question"))
    if question:
        name = cats.get(("faces", "name"))
        data["faces"] = {
            "questions": question["answered"],
            "best": question["correct"],
            "quality": question["mean_score"],
            "named": name["correct"] if name else 0,
            "names": name["answered"] if name else 0,
        }
    if "lineit" in insights or ("lineit", "comparison") in cats:
        comparison = cats.get(("lineit", "comparison"))
        data["lineit"] = {
            "comparisons": comparison["answered"] if comparison else 0,
            "right": comparison["correct"] if comparison else 0,
            "wrong": insights.get("lineit", {}).get("wrong", []),
        }
    drawing, exclusion = cats.get(("mindlines", "drawing")), cats.get(("mindlines", "exclusion"))
    if drawing or exclusion:
        data["mindlines"] = {
            "drawings": drawing["answered"] if drawing else 0,
            "recognised": drawing["correct"] if drawing else 0,
            "exclusions": exclusion["answered"] if exclusion else 0,
            "exclusions_right": exclusion["correct"] if exclusion else 0,
        }
    wordup = [row for row in category_list if row["game"] == "wordup"]
    if wordup:
        data["wordup"] = {
            "categories": [[row["category"], row["correct"], row["answered"]] for row in wordup],
            "marked": sum(row["marked"] for row in wordup),
        }
    return data


def _notes(categories, recent, previous, previous_sessions, participation) -> list[dict[str, Any]]:
    """Strengths and weaknesses as data (``reports.present`` turns them into sentences)."""
    notes = []
    enough = [row for row in categories if row["answered"] >= MIN_CATEGORY_ANSWERS]
    for row in sorted(enough, key=lambda r: (-(r["accuracy"] or 0), r["game"], r["category"])):
        if row["accuracy"] >= STRENGTH_AT:
            notes.append({"kind": "strength", **_note_fields(row)})
    for row in sorted(enough, key=lambda r: (r["accuracy"] or 0, r["game"], r["category"])):
        if row["accuracy"] < WEAKNESS_BELOW:
            notes.append({"kind": "weakness", **_note_fields(row)})
    if recent is not None and previous is not None and previous_sessions == RECENT_SESSIONS:
        if recent - previous >= 0.1:
            notes.append({"kind": "rising", "recent": recent, "previous": previous})
        elif previous - recent >= 0.1:
            notes.append({"kind": "falling", "recent": recent, "previous": previous})
    timed = [row for row in enough if row["mean_time"] is not None]
    if len(timed) >= 2:
        fastest = min(timed, key=lambda r: (r["mean_time"], r["game"], r["category"]))
        slowest = max(timed, key=lambda r: (r["mean_time"], r["game"], r["category"]))
        if slowest["mean_time"] >= 1.5 * fastest["mean_time"]:
            notes.append({"kind": "slow", **_note_fields(slowest)})
    if participation is not None and participation < 0.5:
        notes.append({"kind": "participation", "participation": participation})
    return notes


def _note_fields(row: dict) -> dict[str, Any]:
    return {
        "game": row["game"],
        "category": row["category"],
        "correct": row["correct"],
        "answered": row["answered"],
        "accuracy": row["accuracy"],
        "class_accuracy": row["class_accuracy"],
        "mean_time": row["mean_time"],
    }


# --- the class report -----------------------------------------------------------------------------------


def _build_class_report(classroom_id: int, now) -> ClassReport:
    session_rows = list(
        ClassSessionStat.objects.filter(classroom_id=classroom_id)
        .select_related("session")
        .order_by("day", "session_id")
    )
    per_session = [
        {
            "session": row.session_id,
            "title": row.session.title,
            "day": row.day.isoformat(),
            "game": row.game,
            "participants": row.participants,
            "answered": row.answered,
            "correct": row.correct,
            "accuracy": _ratio(row.correct, row.answered),
            "mean_time": _mean(row.time_total, row.time_count),
        }
        for row in session_rows
    ]
    items = (
        ClassItemStat.objects.filter(classroom_id=classroom_id)
        .values("game", "category", "level", "item_id")
        .annotate(answered=Sum("answered"), right=Sum("correct"))
        .filter(answered__gte=MIN_ITEM_ANSWERS)
        .order_by()
    )
    hardest = sorted(
        (
            {
                "game": row["game"],
                "category": row["category"],
                "level": row["level"],
                "item_id": row["item_id"],
                "answered": row["answered"],
                "correct": row["right"],
                "share": _ratio(row["right"], row["answered"]),
            }
            for row in items
        ),
        key=lambda row: (row["share"], -row["answered"], row["game"], row["item_id"]),
    )[:HARDEST_SHOWN]
    merged: dict[tuple, Counter] = {}
    for row in (
        ClassWrongAnswer.objects.filter(classroom_id=classroom_id)
        .values("game", "category", "item_id", "answer")
        .annotate(times=Sum("count"))
        .order_by()
    ):
        key = (row["game"], row["category"], row["item_id"], row["answer"].casefold())
        merged.setdefault(key, Counter())[row["answer"]] += row["times"]
    wrong = sorted(
        (
            {
                "game": game,
                "category": category,
                "item_id": item_id,
                "answer": min(texts, key=lambda text, texts=texts: (-texts[text], text)),
                "times": sum(texts.values()),
            }
            for (game, category, item_id, _key), texts in merged.items()
        ),
        key=lambda row: (-row["times"], row["game"], row["item_id"], row["answer"]),
    )[:WRONG_SHOWN]
    labels = item_labels(classroom_id, [(row["game"], row["item_id"]) for row in hardest + wrong])
    for row in hardest + wrong:
        row["label"] = labels.get((row["game"], row["item_id"]), row["item_id"])
    enrolled = Enrolment.objects.filter(classroom_id=classroom_id).values_list("student_id", flat=True)
    distribution: dict[str, dict[str, int]] = {skill: {} for skill in catalog.LEVELLED_SKILLS}
    for skill, level in StudentLevel.objects.filter(student_id__in=enrolled).values_list("skill", "level"):
        distribution.setdefault(skill, {})
        distribution[skill][str(level)] = distribution[skill].get(str(level), 0) + 1
    recommended: dict[str, dict[str, int]] = {skill: {} for skill in catalog.LEVELLED_SKILLS}
    for skill, level in SkillSummary.objects.filter(
        student_id__in=enrolled, recommended_level__isnull=False
    ).values_list("skill", "recommended_level"):
        recommended[skill][str(level)] = recommended[skill].get(str(level), 0) + 1
    answered = sum(row.answered for row in session_rows)
    right = sum(row.correct for row in session_rows)
    data = {
        "totals": {
            "sessions": len(session_rows),
            "answered": answered,
            "correct": right,
            "accuracy": _ratio(right, answered),
        },
        "sessions": per_session[-40:],
        "hardest": hardest,
        "wrong": wrong,
        "levels": distribution,
        "recommended": recommended,
    }
    report, _created = ClassReport.objects.update_or_create(
        classroom_id=classroom_id, defaults={"data": data, "built_at": now}
    )
    return report


def item_labels(classroom_id: int, keys: list[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """Readable names for questions: the bank's heading or prompt, a concept's text, a comparison."""
    from classrooms.models import Classroom
    from questions.models import LineupQuestion, WordUpQuestion

    labels: dict[tuple[str, str], str] = {}
    wanted: dict[str, set[str]] = defaultdict(set)
    for game, item_id in keys:
        wanted[game].add(item_id)
    school_id = Classroom.objects.filter(pk=classroom_id).values_list("school_id", flat=True).first()
    visible = Q(school__isnull=True) | Q(school_id=school_id)
    if wanted.get("wordup"):
        for key, prompt in WordUpQuestion.objects.filter(visible, key__in=wanted["wordup"]).values_list(
            "key", "prompt"
        ):
            labels[("wordup", key)] = prompt
    if wanted.get("lineup"):
        for key, heading in LineupQuestion.objects.filter(visible, key__in=wanted["lineup"]).values_list(
            "key", "heading"
        ):
            labels[("lineup", key)] = heading
    if wanted.get("mindlines"):
        for item_id, text in (
            LearningFact.objects.filter(
                classroom_id=classroom_id, game="mindlines", item_id__in=wanted["mindlines"]
            )
            .annotate(text=KT("detail__text"))
            .values_list("item_id", "text")
            .order_by()
            .distinct()
        ):
            if text:
                labels[("mindlines", item_id)] = text
    for item_id in wanted.get("lineit", ()):
        if item_id.startswith("compare:"):
            low, _bar, high = item_id.removeprefix("compare:").partition("|")
            labels[("lineit", item_id)] = f"{low} vs {high}"
    return labels
