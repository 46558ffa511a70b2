"""Building the reports from the learning facts (run by the Celery tasks in ``reports.tasks``).

One function, :func:`classrooms_build`, does every scope: a chunk of classes (a school build,
:func:`school_build`, walks its classes in chunks), optionally one session's statistics (after a session)
or some students only. Every build recomputes all of its rows from the facts, in three stages:

1. **read** (:func:`facts_read`): the scope's facts are read once: the columns the reports use go into a
   temporary table, and each figure (per student and session, per question, per wrong answer, per
   category and level, each game's insight) is a grouped query of that small table. Never a query per
   student. The few other rows a build needs (participants, levels, stored rows it keeps) come with it.
2. **compute** (:func:`chunk_plan`): plain Python over those rows, no query but the questions' labels.
3. **write** (:meth:`Plan.write`): in one transaction, each table's rows of the scope are deleted and the
   new rows inserted (``COPY`` on PostgreSQL), so a rerun writes the same rows and a failure half-way
   leaves the previous rows in place. The commit does not wait for the WAL flush (the rows are derived:
   a crash can only lose a build, which is then run again).

A school build on PostgreSQL runs the three stages of consecutive chunks at the same time, each on its
own connection: the next chunk is read and the previous one written while this one is computed.
"""

from __future__ import annotations

import datetime as dt
import heapq
import json
import operator
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, NamedTuple

from django.db import connection, transaction
from django.db.models import Count, F, JSONField, Q
from django.db.models.expressions import Window
from django.db.models.fields.json import KT
from django.db.models.functions import RowNumber
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
#: Classes built together in a school build (bounded memory, a progress step per chunk).
SCHOOL_CHUNK = 8
#: The temporary table a build reads the facts into (one per connection, dropped at the end).
FACTS_TABLE = "report_build_facts"
#: Memory for the grouped queries of one chunk (PostgreSQL; only inside the build's transactions): the
#: per-student-and-session groups of 8 classes (~50 000) hash in memory instead of sorting on disk.
WORK_MEM = "64MB"

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

    def add(self, other: BuildResult) -> None:
        self.students += other.students
        self.session_rows += other.session_rows
        self.class_session_rows += other.class_session_rows
        self.skipped_frozen += other.skipped_frozen


# --- the whole build ----------------------------------------------------------------------------------


def classrooms_build(
    classroom_ids: Iterable[int],
    *,
    session_ids: Iterable[int] | None = None,
    student_ids: Iterable[int] | None = None,
    progress: Progress | None = None,
    now: dt.datetime | None = None,
) -> BuildResult:
    """Rebuild the reports of these classes: read, compute and write in one transaction.

    ``session_ids``: recompute the per-session statistics of these sessions only (after a session);
    ``student_ids``: only these students' rows (the class-wide statistics are left as they are).
    Student reports and the class report are always recomputed for the classes' (chosen) students.
    """
    classroom_ids = sorted(set(classroom_ids))
    session_ids = None if session_ids is None else sorted(set(session_ids))
    student_ids = None if student_ids is None else sorted(set(student_ids))
    now = now or timezone.now()
    report = progress or (lambda done, total, step: None)
    if not classroom_ids:
        return BuildResult()
    report(0, 3, "reading the answers")
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost:  # inside a caller's transaction (an erasure), its settings stay its own
            _tune_transaction()
        figures = facts_read(classroom_ids, session_ids=session_ids, student_ids=student_ids)
        report(1, 3, "computing")
        plan = chunk_plan(figures, now)
        report(2, 3, "writing")
        plan.write()
    report(3, 3, "done")
    return plan.result


def school_build(
    classroom_ids: list[int], *, progress: Progress | None = None, chunk: int = SCHOOL_CHUNK
) -> BuildResult:
    """Every class of a school, ``chunk`` classes at a time, each chunk written in its own transaction.

    On PostgreSQL, outside a transaction, three threads share the work: one reads chunk k+1 and one
    writes chunk k-1 (each on its own connection) while this one computes chunk k, so the database and
    the worker are busy at the same time. (Inside a transaction, as in tests, another connection could
    not see its rows: there the chunks are built one after the other.)"""
    report = progress or (lambda done, total, step: None)
    chunks = [classroom_ids[i : i + chunk] for i in range(0, len(classroom_ids), chunk)]
    total = BuildResult(classrooms=len(classroom_ids))
    now = timezone.now()
    if connection.vendor != "postgresql" or connection.in_atomic_block or len(chunks) < 2:
        for index, classes in enumerate(chunks):
            total.add(
                classrooms_build(
                    classes,
                    now=now,
                    progress=lambda done, _total, step, index=index: report(
                        3 * index + done, 3 * len(chunks), f"classes {index + 1}/{len(chunks)}: {step}"
                    ),
                )
            )
        return total
    with (
        ThreadPoolExecutor(max_workers=1, thread_name_prefix="report-read") as reader,
        ThreadPoolExecutor(max_workers=1, thread_name_prefix="report-write") as writer,
    ):
        report(0, 3 * len(chunks), f"classes 1/{len(chunks)}: reading the answers")
        reading: Future | None = reader.submit(_read_in_thread, chunks[0])
        writing: Future | None = None
        try:
            for index in range(len(chunks)):
                figures = reading.result()
                reading = (
                    reader.submit(_read_in_thread, chunks[index + 1]) if index + 1 < len(chunks) else None
                )
                plan = chunk_plan(figures, now)
                if writing is not None:
                    writing.result()  # the previous chunk is written (or its error raised here)
                    report(3 * index, 3 * len(chunks), f"classes {index}/{len(chunks)}: written")
                writing = writer.submit(_write_in_thread, plan)
                total.add(plan.result)
            writing.result()
        finally:
            for pending in (reading, writing):
                if pending is not None:
                    pending.cancel()
            for pool in (reader, writer):
                pool.submit(_close_connection)
    return total


def _close_connection() -> None:
    """Close the calling thread's own connection (``connection.close`` looked up on another thread
    would be that thread's)."""
    connection.close()


def _read_in_thread(classroom_ids: list[int]) -> FactFigures:
    with transaction.atomic():
        _tune_transaction()
        return facts_read(sorted(set(classroom_ids)))


def _write_in_thread(plan: Plan) -> None:
    with transaction.atomic():
        _tune_transaction()
        plan.write()


def _tune_transaction() -> None:
    """PostgreSQL settings for this transaction only: hash the grouped queries in memory, no JIT
    compilation (it costs more than these one-off queries), and a commit that does not wait for the WAL
    flush (every row written is derived from the facts, and a lost build is simply run again)."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            f"SET LOCAL work_mem = '{WORK_MEM}'; SET LOCAL jit = off; SET LOCAL synchronous_commit = off"
        )


# --- 1. reading ------------------------------------------------------------------------------------------


@dataclass
class FactFigures:
    """Everything a build reads: the scope's facts in a few grouped queries, and the other rows it needs.
    Tuples, in the column order given."""

    scope: tuple[list[int], list[int] | None, list[int] | None]
    sessions: dict[int, dict[str, Any]]
    #: The sessions whose per-session statistics are rebuilt.
    wanted: set[int]
    #: (student, session, answered, right, time_total, time_count) over answers, per student and session
    per_session: list[tuple]
    #: (student, session) of the students who took part (not only waited)
    joined: list[tuple[int, int]]
    erased: dict[int, dt.datetime]
    #: Sessions whose class statistics are frozen (some of their facts were erased or purged).
    frozen: set[int]
    #: (classroom, game, category, level, item_id, answered, right) over answers with an item (whole class)
    items: list[tuple] | None
    #: (classroom, game, category, item_id, response, count) over listable wrong answers (whole class)
    wrong: list[tuple] | None
    #: (student, classroom, game, category, skill, level, n, answered, right, time_total, time_count,
    #: score_total, score_count, marked) over every fact, answer or result, in key order
    grouped: list[tuple]
    #: (classroom, student, questions, own_total, team_total, better, worse): Line Up!'s own ordering
    lineup: list[tuple]
    #: (classroom, student, card, end, relation, times): Line-it's comparisons got wrong
    lineit: list[tuple]
    #: (classroom, student) the reports are for: the classes' enrolled students (or the chosen ones)
    targets: list[tuple[int, int]]
    enrolled_on: dict[tuple[int, int], dt.date]
    #: (student, skill, level, correct): each target student's latest levelled answers per skill
    evidence: list[tuple]
    #: Stored rows this build keeps (it does not replace them), as ``SESSION_FIELDS`` tuples: the target
    #: students' session statistics in other classes (their skill totals) and, after a session, in the
    #: class's other sessions (their trend).
    kept_sessions: list[tuple]
    #: Stored class rows this build keeps: class statistics of sessions it does not rebuild
    #: (``CLASS_SESSION_FIELDS`` plus the session's title), archived (or, when it does not rebuild them,
    #: all) question and wrong-answer rows.
    kept_class_sessions: list[tuple]
    kept_items: list[tuple]
    kept_wrong: list[tuple]
    #: (classroom, student) enrolments of the classes, and (student, skill, level) of those students
    enrolled: list[tuple[int, int]]
    levels_now: list[tuple[int, str, int]]
    #: (student, skill, level) recommended to enrolled students this build does not rebuild
    kept_recommended: list[tuple[int, str, int]]


SESSION_FIELDS = (
    "student_id",
    "classroom_id",
    "session_id",
    "game",
    "skill",
    "day",
    "answered",
    "correct",
    "time_total",
    "time_count",
)
CLASS_SESSION_FIELDS = (
    "classroom_id",
    "session_id",
    "game",
    "skill",
    "day",
    "participants",
    "answered",
    "correct",
    "time_total",
    "time_count",
    "frozen",
)
ITEM_FIELDS = ("classroom_id", "game", "category", "level", "item_id", "answered", "correct", "archived")
WRONG_FIELDS = ("classroom_id", "game", "category", "item_id", "answer", "count", "archived")


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


def _games_sql(spec: dict[str, tuple[str, ...] | None]) -> tuple[str, list]:
    """``catalog``'s game/category lists as SQL (what ``catalog._games_q`` says to the ORM)."""
    parts, params = [], []
    for game, categories in spec.items():
        if categories is None:
            parts.append("game = %s")
            params.append(game)
        else:
            parts.append(f"(game = %s AND category IN ({', '.join(['%s'] * len(categories))}))")
            params += [game, *categories]
    return ("(" + " OR ".join(parts) + ")" if parts else "1 = 0"), params


def _json_text(column: str, key: str) -> str:
    if connection.vendor == "postgresql":
        return f"({column} ->> '{key}')"
    return f"json_extract({column}, '$.{key}')"


#: Sums of seconds and scores are added up exactly, as whole millionths (see :func:`_sum`).
MICRO = 1_000_000


def _sum(expression: str, condition: str = "") -> str:
    """An exact sum, in whole millionths (an integer; divide by ``MICRO``). A float sum depends, in its
    last digit, on the order the rows come in, and a mean of x.xx5 then rounds either way: a rerun must
    write the same rows. (Cheaper than a ``numeric`` sum, and exact for any real time or score.)"""
    where = f" FILTER (WHERE {condition})" if condition else ""
    integer = "bigint" if connection.vendor == "postgresql" else "INTEGER"
    return f"CAST(SUM(CAST(ROUND({expression} * {MICRO}) AS {integer})){where} AS {integer})"


def _seconds(micros: int | None) -> float | None:
    return None if micros is None else micros / MICRO


def _in(values) -> tuple[str, list]:
    values = list(values)
    return (f"IN ({', '.join(['%s'] * len(values))})" if values else "IN (NULL)"), values


def _replaced_sessions(classroom_ids, session_ids, wanted, student_ids) -> Q:
    """The per-session rows a build replaces: every row of its classes (a full build: also a row that
    a deletion left behind, see models.DERIVED_FOREIGN_KEY), or those of the rebuilt sessions; of its
    students only, if it has chosen some."""
    scope = Q(classroom_id__in=classroom_ids)
    if session_ids is not None:
        scope &= Q(session_id__in=wanted)
    if student_ids is not None:
        scope &= Q(student_id__in=student_ids)
    return scope


def facts_read(
    classroom_ids: list[int], *, session_ids: list[int] | None = None, student_ids: list[int] | None = None
) -> FactFigures:
    """Read what a build of this scope needs. The facts are read once: the columns the reports use (and
    a few derived ones: is it an answer, the wrong answer given, Line-it's comparison, Line Up!'s team
    score) go into a temporary table, and each figure is a grouped query of that table. Call inside a
    transaction (the temporary table lives until its end)."""
    sessions = _sessions(classroom_ids)
    wanted = set(sessions) if session_ids is None else set(session_ids) & set(sessions)
    facts_table = connection.ops.quote_name(LearningFact._meta.db_table)
    answers, answer_params = _games_sql(catalog.ANSWER_CATEGORIES)
    listable, listable_params = _games_sql(catalog.WRONG_ANSWER_CATEGORIES)
    lineit_wrong = "game = 'lineit' AND category = 'comparison' AND correct = FALSE"
    real = "double precision" if connection.vendor == "postgresql" else "REAL"
    classes_in, class_params = _in(classroom_ids)
    where, where_params = f"classroom_id {classes_in}", list(class_params)
    if student_ids is not None:
        students_in, student_params = _in(student_ids)
        where += f" AND student_id {students_in}"
        where_params += student_params
    temporary = "ON COMMIT DROP" if connection.vendor == "postgresql" else ""
    create = f"""
        CREATE TEMPORARY TABLE {FACTS_TABLE} {temporary} AS
        SELECT student_id, session_id, classroom_id, game, category, skill, level, item_id, correct,
               time_taken, score, teacher_marked,
               (correct IS NOT NULL AND {answers}) AS answer,
               CASE WHEN correct = FALSE AND response IS NOT NULL AND {listable} THEN response END AS wrong,
               CASE WHEN {lineit_wrong} THEN {_json_text("detail", "card_face")} END AS card,
               CASE WHEN {lineit_wrong} THEN {_json_text("detail", "end_face")} END AS end_face,
               CASE WHEN {lineit_wrong} THEN {_json_text("detail", "relation")} END AS relation,
               CASE WHEN game = 'lineup' AND score IS NOT NULL
                    THEN CAST({_json_text("detail", "team_right")} AS {real}) END AS team
        FROM {facts_table} WHERE {where}
    """
    # Qualified, so that a DROP can only ever find the temporary table.
    table = f"{'pg_temp' if connection.vendor == 'postgresql' else 'temp'}.{FACTS_TABLE}"

    def rows(sql: str) -> list[tuple]:
        cursor.execute(sql)
        return cursor.fetchall()

    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {table}")
        cursor.execute(create, [*answer_params, *listable_params, *where_params])
        try:
            per_session = rows(f"""
                SELECT student_id, session_id, COUNT(*) FILTER (WHERE answer),
                       COUNT(*) FILTER (WHERE answer AND correct), {_sum("time_taken", "answer")},
                       COUNT(time_taken) FILTER (WHERE answer)
                FROM {table} WHERE student_id IS NOT NULL AND session_id IS NOT NULL
                GROUP BY student_id, session_id""")
            items = wrong = None
            if student_ids is None:
                items = rows(f"""
                    SELECT classroom_id, game, category, level, item_id, COUNT(*),
                           COUNT(*) FILTER (WHERE correct)
                    FROM {table} WHERE answer AND item_id <> ''
                    GROUP BY classroom_id, game, category, level, item_id""")
                wrong = rows(f"""
                    SELECT classroom_id, game, category, item_id, wrong, COUNT(*)
                    FROM {table} WHERE wrong IS NOT NULL
                    GROUP BY classroom_id, game, category, item_id, wrong""")
            grouped = rows(f"""
                SELECT student_id, classroom_id, game, category, skill, level, COUNT(*), COUNT(correct),
                       COUNT(*) FILTER (WHERE correct), {_sum("time_taken", "correct IS NOT NULL")},
                       COUNT(time_taken) FILTER (WHERE correct IS NOT NULL), {_sum("score")}, COUNT(score),
                       COUNT(*) FILTER (WHERE teacher_marked)
                FROM {table} WHERE student_id IS NOT NULL
                GROUP BY student_id, classroom_id, game, category, skill, level""")
            lineup = rows(f"""
                SELECT classroom_id, student_id, COUNT(*), {_sum("score")}, {_sum("team")},
                       COUNT(*) FILTER (WHERE score > team), COUNT(*) FILTER (WHERE score < team)
                FROM {table} WHERE game = 'lineup' AND score IS NOT NULL AND student_id IS NOT NULL
                GROUP BY classroom_id, student_id""")
            lineit = rows(f"""
                SELECT classroom_id, student_id, card, end_face, relation, COUNT(*)
                FROM {table} WHERE {lineit_wrong} AND student_id IS NOT NULL
                GROUP BY classroom_id, student_id, card, end_face, relation""")
        finally:
            cursor.execute(f"DROP TABLE IF EXISTS {table}")

    joined = Participant.objects.filter(session_id__in=wanted).exclude(status=Participant.Status.WAITING)
    if student_ids is not None:
        joined = joined.filter(student_id__in=student_ids)
    erased: dict[int, dt.datetime] = {}
    for student_id, erased_at in DataErasure.objects.filter(
        student__enrolments__classroom_id__in=classroom_ids
    ).values_list("student_id", "erased_at"):
        erased[student_id] = max(erased_at, erased.get(student_id, erased_at))
    frozen = set(
        ClassSessionStat.objects.filter(session_id__in=wanted, frozen=True).values_list(
            "session_id", flat=True
        )
    )
    targets = _target_students(classroom_ids, student_ids)
    target_students = sorted({student for _classroom, student in targets})
    enrolled = sorted(
        Enrolment.objects.filter(classroom_id__in=classroom_ids).values_list("classroom_id", "student_id")
    )
    enrolled_students = sorted({student for _classroom, student in enrolled})
    # Rows this build does not replace. In a school build these come from the database as it is when
    # the chunk is read: a student in two classes gets the other class's rows as last written (as
    # before, when the chunks were built one after the other, a later chunk's rows were not yet new).
    kept_sessions = StudentSessionStat.objects.filter(student_id__in=target_students).exclude(
        _replaced_sessions(classroom_ids, session_ids, wanted, student_ids)
    )
    replaced_class_sessions = wanted - frozen if student_ids is None else set()
    kept_items = ClassItemStat.objects.filter(classroom_id__in=classroom_ids)
    kept_wrong = ClassWrongAnswer.objects.filter(classroom_id__in=classroom_ids)
    if student_ids is None:
        kept_items, kept_wrong = kept_items.filter(archived=True), kept_wrong.filter(archived=True)
    return FactFigures(
        scope=(classroom_ids, session_ids, student_ids),
        sessions=sessions,
        wanted=wanted,
        per_session=per_session,
        joined=list(joined.values_list("student_id", "session_id")),
        erased=erased,
        frozen=frozen,
        items=items,
        wrong=wrong,
        # Sorted: the per-level rows of a category are added up in the same order on every run.
        grouped=sorted(grouped, key=lambda row: (*row[:5], -1 if row[5] is None else row[5])),
        lineup=lineup,
        lineit=lineit,
        targets=targets,
        enrolled_on={
            (classroom, student): timezone.localdate(created)
            for classroom, student, created in Enrolment.objects.filter(
                classroom_id__in=classroom_ids, student_id__in=target_students
            ).values_list("classroom_id", "student_id", "created_at")
        },
        evidence=list(_latest_evidence(target_students)) if target_students else [],
        kept_sessions=list(kept_sessions.values_list(*SESSION_FIELDS)),
        kept_class_sessions=list(
            ClassSessionStat.objects.filter(classroom_id__in=classroom_ids)
            .exclude(session_id__in=replaced_class_sessions)
            .values_list(*CLASS_SESSION_FIELDS, "session__title")
        ),
        kept_items=list(kept_items.values_list(*ITEM_FIELDS)),
        kept_wrong=list(kept_wrong.values_list(*WRONG_FIELDS)),
        enrolled=enrolled,
        levels_now=list(
            StudentLevel.objects.filter(student_id__in=enrolled_students).values_list(
                "student_id", "skill", "level"
            )
        ),
        kept_recommended=list(
            SkillSummary.objects.filter(student_id__in=enrolled_students, recommended_level__isnull=False)
            .exclude(student_id__in=target_students)
            .values_list("student_id", "skill", "recommended_level")
        ),
    )


# --- 2. computing ----------------------------------------------------------------------------------------


class Row(SimpleNamespace):
    """A row to insert: plain attributes (building hundreds of thousands of model instances is slow)."""


@dataclass
class Plan:
    """What a build writes: for each table, the rows it replaces (a queryset) and the new rows."""

    result: BuildResult
    steps: list[tuple[Any, Any, list]] = field(default_factory=list)

    def replace(self, old, model, rows: list) -> None:
        self.steps.append((old, model, rows))

    def delete(self, old) -> None:
        self.steps.append((old, None, []))

    def write(self) -> None:
        """Delete and insert, table by table (call inside a transaction)."""
        for old, model, rows in self.steps:
            if old is not None:
                old.delete()  # one DELETE: nothing refers to these tables
            if rows:
                bulk_insert(model, rows)


def chunk_plan(figures: FactFigures, now: dt.datetime) -> Plan:
    """Every row of the build, computed from what :func:`facts_read` read (no query but the questions'
    labels for the class reports)."""
    classroom_ids, session_ids, student_ids = figures.scope
    plan = Plan(BuildResult(classrooms=len(classroom_ids)))
    session_rows = _session_rows(figures)
    plan.replace(
        StudentSessionStat.objects.filter(
            _replaced_sessions(classroom_ids, session_ids, figures.wanted, student_ids)
        ),
        StudentSessionStat,
        session_rows,
    )
    plan.result.session_rows = len(session_rows)
    class_sessions = items = wrong = None
    if student_ids is None:
        class_sessions = _class_session_rows(figures, session_rows)
        plan.replace(
            ClassSessionStat.objects.filter(session_id__in=figures.wanted - figures.frozen),
            ClassSessionStat,
            class_sessions,
        )
        plan.result.class_session_rows = len(class_sessions)
        plan.result.skipped_frozen = len(figures.frozen)
        items, wrong = _item_rows(figures)
        plan.replace(
            ClassItemStat.objects.filter(classroom_id__in=classroom_ids, archived=False), ClassItemStat, items
        )
        plan.replace(
            ClassWrongAnswer.objects.filter(classroom_id__in=classroom_ids, archived=False),
            ClassWrongAnswer,
            wrong,
        )
    summaries = _student_reports(figures, session_rows, now, plan)
    plan.result.students = len({student for _classroom, student in figures.targets})
    class_reports = _class_reports(figures, class_sessions, items, wrong, summaries, now)
    plan.replace(ClassReport.objects.filter(classroom_id__in=classroom_ids), ClassReport, class_reports)
    return plan


# --- per-session statistics -----------------------------------------------------------------------------


class SessionRow(NamedTuple):
    """A student's figures in one session (``StudentSessionStat``'s columns, ``SESSION_FIELDS``)."""

    student_id: int
    classroom_id: int
    session_id: int
    game: str
    skill: str
    day: dt.date
    answered: int
    correct: int
    time_total: float
    time_count: int


def _session_rows(figures: FactFigures) -> list[SessionRow]:
    sessions, wanted, erased = figures.sessions, figures.wanted, figures.erased
    about = {  # what every row of a session says about it
        pk: (
            session["classroom_id"],
            session["game"],
            catalog.GAME_SKILLS.get(session["game"], ""),
            session["day"],
        )
        for pk, session in sessions.items()
    }
    stats: dict[tuple[int, int], SessionRow] = {}
    for student_id, session_id, answered, right, time_total, time_count in figures.per_session:
        if session_id in wanted:
            classroom_id, game, skill, day = about[session_id]
            stats[(student_id, session_id)] = SessionRow(
                student_id,
                classroom_id,
                session_id,
                game,
                skill,
                day,
                answered,
                right,
                round((time_total or 0) / MICRO, 3),
                time_count,
            )
    for student_id, session_id in figures.joined:
        session = sessions[session_id]
        when = session["ended_at"] or session["started_at"] or session["scheduled_for"]
        if (student_id, session_id) in stats or (student_id in erased and when <= erased[student_id]):
            continue
        classroom_id, game, skill, day = about[session_id]
        stats[(student_id, session_id)] = SessionRow(
            student_id, classroom_id, session_id, game, skill, day, 0, 0, 0.0, 0
        )
    return sorted(stats.values(), key=operator.itemgetter(2, 0))  # by session, then student


def _class_session_rows(figures: FactFigures, rows: list[SessionRow]) -> list[Row]:
    sessions, live = figures.sessions, figures.wanted - figures.frozen
    totals: dict[int, list[float]] = defaultdict(lambda: [0, 0, 0, 0.0, 0])
    for stat in rows:
        total = totals[stat.session_id]
        total[0] += 1
        total[1] += stat.answered
        total[2] += stat.correct
        total[3] += stat.time_total
        total[4] += stat.time_count
    return [
        Row(
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
            frozen=False,
        )
        for session_id, total in sorted(totals.items())
        if session_id in live
    ]


def _item_rows(figures: FactFigures) -> tuple[list[tuple], list[tuple]]:
    """Per question: answers and right answers, and the wrong answers given (anonymous, whole class), as
    ``ITEM_FIELDS`` and ``WRONG_FIELDS`` tuples."""
    items = [
        (classroom_id, game, category, level, item_id, answered, right, False)
        for classroom_id, game, category, level, item_id, answered, right in figures.items
    ]
    items.sort(key=lambda r: (r[0], r[1], r[2], r[3] or 0, r[4]))
    # The wrong answers as raw SQL reads them: JSON text (Django's loader on PostgreSQL, and SQLite).
    return items, _merged_wrong_answers(figures.wrong, encoded=True)


def wrong_answer_rows(facts, *, archived: bool = False) -> list[tuple]:
    """The wrong answers of some facts (a queryset), merged as a class report lists them
    (``WRONG_FIELDS`` tuples)."""
    wrong = (
        facts.filter(catalog.wrong_answers_q())
        .values_list("classroom_id", "game", "category", "item_id", "response")
        .annotate(count=Count("id"))
        .order_by()
    )
    return _merged_wrong_answers(wrong, archived=archived)


def _merged_wrong_answers(
    rows: Iterable[tuple], *, archived: bool = False, encoded: bool = False
) -> list[tuple]:
    """Wrong answers merged per question, case-insensitively. ``encoded``: the responses are JSON text
    (as raw SQL reads them), each distinct one decoded and worded once."""
    texts_of: dict[tuple, Any] = {}
    worded: dict[tuple[str, str], tuple[str, str]] = {}  # (game, JSON text) -> (text, its folded case)
    for classroom_id, game, category, item_id, response, count in rows:
        key = (game, response) if encoded and isinstance(response, str) else None
        if key is not None and key in worded:
            text, folded = worded[key]
        else:
            text = catalog.answer_text(game, json.loads(response) if key is not None else response)
            folded = text.casefold()
            if key is not None:
                worded[key] = (text, folded)
        if not text:
            continue
        texts = texts_of.setdefault((classroom_id, game, category, item_id, folded), {})
        texts[text] = texts.get(text, 0) + count
    # Spellings that differ only in case are one answer, shown as most often written.
    return [
        (classroom_id, game, category, item_id, _most_written(texts), sum(texts.values()), archived)
        for (classroom_id, game, category, item_id, _key), texts in sorted(texts_of.items())
    ]


def _most_written(texts: dict[str, int]) -> str:
    """The spelling given most often (the first in alphabetical order among equals)."""
    if len(texts) == 1:
        return next(iter(texts))
    return min(texts, key=lambda text: (-texts[text], text))


# --- 3. writing -------------------------------------------------------------------------------------------


def bulk_insert(model, rows: list, fields: Iterable[str] | None = None) -> None:
    """Insert many rows: COPY on PostgreSQL (a school build writes hundreds of thousands of rows, and
    bulk_create spends most of its time building the statement), bulk_create elsewhere. Rows are model
    instances or :class:`Row` objects, or tuples in the order of ``fields`` (their attribute names)."""
    if not rows:
        return
    concrete = {field.attname: field for field in model._meta.concrete_fields if not field.primary_key}
    if isinstance(rows[0], tuple) and fields is None:
        fields = _TUPLE_FIELDS[model]
    if connection.vendor != "postgresql":
        if fields is not None:
            rows = [model(**dict(zip(fields, row, strict=True))) for row in rows]
        instances = [model(**vars(row)) if isinstance(row, Row) else row for row in rows]
        model.objects.bulk_create(instances, batch_size=BATCH)
        return
    names = list(fields) if fields is not None else list(concrete)
    columns = ", ".join(connection.ops.quote_name(concrete[name].column) for name in names)
    statement = f"COPY {connection.ops.quote_name(model._meta.db_table)} ({columns}) FROM STDIN"
    values = None if fields is not None else operator.attrgetter(*names)
    json_at = [index for index, name in enumerate(names) if isinstance(concrete[name], JSONField)]
    with connection.cursor() as cursor, cursor.cursor.copy(statement) as copy:
        for row in rows:
            record = row if values is None else values(row)
            if json_at:
                record = list(record)
                for index in json_at:
                    record[index] = json.dumps(record[index])
            copy.write_row(record)


_TUPLE_FIELDS = {
    StudentSessionStat: SESSION_FIELDS,
    ClassItemStat: ITEM_FIELDS,
    ClassWrongAnswer: WRONG_FIELDS,
}


# --- student reports ------------------------------------------------------------------------------------


def _student_reports(
    figures: FactFigures, rows: list[SessionRow], now, plan: Plan
) -> dict[int, dict[str, dict]]:
    """The student reports and skill summaries of the build's students (into ``plan``); returns the
    summaries (``{student: {skill: {recommended, confidence, current}}}``)."""
    classroom_ids = figures.scope[0]
    targets = figures.targets
    # Students who left a class lose their report in it (their facts stay until erased or purged).
    unenrolled = StudentReport.objects.filter(classroom_id__in=classroom_ids).exclude(
        student__enrolments__classroom_id=F("classroom_id")
    )
    if not targets:
        plan.delete(unenrolled)
        return {}
    student_ids = sorted({student for _classroom, student in targets})
    wanted_students = set(student_ids)
    # By game and category, and (answers only) by skill and level: from one grouped query.
    merged_categories: dict[tuple, dict] = {}
    merged_levels: dict[tuple, dict] = {}
    for (
        student_id,
        classroom_id,
        game,
        category,
        skill,
        level,
        n,
        answered,
        right,
        time_total,
        time_count,
        score_total,
        score_count,
        marked,
    ) in figures.grouped:
        if student_id not in wanted_students:
            continue
        key = (classroom_id, student_id, game, category)
        entry = merged_categories.get(key)
        if entry is None:
            merged_categories[key] = entry = {
                "student_id": student_id,
                "classroom_id": classroom_id,
                "game": game,
                "category": category,
                **dict.fromkeys(("n", "answered", "right", "time_count", "score_count", "marked"), 0),
                "time_total": None,
                "score_total": None,
            }
        entry["n"] += n
        entry["answered"] += answered
        entry["right"] += right
        entry["time_count"] += time_count
        entry["score_count"] += score_count
        entry["marked"] += marked
        if time_total is not None:  # whole millionths until all the levels are in
            entry["time_total"] = (entry["time_total"] or 0) + time_total
        if score_total is not None:
            entry["score_total"] = (entry["score_total"] or 0) + score_total
        if level is not None and answered and catalog.is_answer(game, category):
            level_key = (classroom_id, student_id, skill, level)
            level_entry = merged_levels.setdefault(
                level_key, {"skill": skill, "level": level, "answered": 0, "right": 0}
            )
            level_entry["answered"] += answered
            level_entry["right"] += right
    categories: dict[tuple[int, int], list[dict]] = defaultdict(list)
    class_categories: dict[tuple[int, str, str], list[int]] = defaultdict(lambda: [0, 0])
    for (classroom_id, student_id, game, category), row in merged_categories.items():
        row["time_total"], row["score_total"] = _seconds(row["time_total"]), _seconds(row["score_total"])
        categories[(classroom_id, student_id)].append(row)
        if catalog.is_answer(game, category):
            entry = class_categories[(classroom_id, game, category)]
            entry[0] += row["right"]
            entry[1] += row["answered"]
    level_rows: dict[tuple[int, int], list[dict]] = defaultdict(list)
    for (classroom_id, student_id, _skill, _level), row in merged_levels.items():
        level_rows[(classroom_id, student_id)].append(row)
    # Every session row of these students once the build is written: its own and the ones it keeps.
    kept = [SessionRow(*row) for row in figures.kept_sessions]
    all_rows = [row for row in rows if row.student_id in wanted_students] + kept
    series: dict[tuple[int, int], list] = defaultdict(list)
    chunk_classes = set(classroom_ids)
    for stat in sorted(all_rows, key=operator.itemgetter(5, 2)):  # by day, then session
        if stat.classroom_id in chunk_classes:
            series[(stat.classroom_id, stat.student_id)].append(stat)
    class_days: dict[int, list[dt.date]] = defaultdict(list)
    for session in figures.sessions.values():
        class_days[session["classroom_id"]].append(session["day"])
    insights = _game_insights(figures, wanted_students)
    summaries = _skill_summaries(student_ids, figures, all_rows, now, plan)

    reports = []
    for classroom_id, student_id in targets:
        key = (classroom_id, student_id)
        # Sessions held since the student joined the class (or since they first played, if earlier).
        since = figures.enrolled_on.get(key)
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
    plan.delete(StudentReport.objects.filter(classroom_id__in=classroom_ids, student_id__in=student_ids))
    plan.replace(unenrolled, StudentReport, reports)
    return summaries


def _game_insights(figures: FactFigures, students: set[int]) -> dict[tuple[int, int], dict[str, Any]]:
    """What each game's own facts tell beyond right and wrong (see docs/reports.md)."""
    found: dict[tuple[int, int], dict[str, Any]] = defaultdict(dict)
    for classroom_id, student_id, questions, own_total, team_total, better, worse in figures.lineup:
        if student_id in students:
            found[(classroom_id, student_id)]["lineup"] = {
                "questions": questions,
                "own_total": (own_total or 0) / MICRO,
                "team_total": (team_total or 0) / MICRO,
                "better": better,
                "worse": worse,
            }
    for classroom_id, student_id, card, end, relation, times in figures.lineit:
        if student_id in students:
            entry = found[(classroom_id, student_id)].setdefault("lineit", {"wrong": []})
            entry["wrong"].append([card, end, relation, times])
    for entry in found.values():
        if "lineit" in entry:
            entry["lineit"]["wrong"].sort(key=lambda wrong: (-wrong[3], str(wrong[0]), str(wrong[1])))
            entry["lineit"]["wrong"] = entry["lineit"]["wrong"][:8]
    return found


def _skill_summaries(student_ids: list[int], figures: FactFigures, stats: list, now, plan: Plan) -> dict:
    """Each student's totals per levelled skill and the recommended level (all their classes: a level
    belongs to the student, not to one class), from their session rows (``stats``)."""
    # Totals of the sessions with answers. Times are added up exactly, in thousandths of a second (each
    # session's total is rounded to them), so a total never depends on the order of the rows.
    totals: dict[tuple[int, str], list[int]] = {}
    for stat in stats:
        if stat.answered > 0 and stat.skill in catalog.LEVELLED_SKILLS:
            total = totals.setdefault((stat.student_id, stat.skill), [0, 0, 0, 0, 0])
            total[0] += stat.answered
            total[1] += stat.correct
            total[2] += round(stat.time_total * 1000)
            total[3] += stat.time_count
            total[4] += 1
    evidence: dict[tuple[int, str], list[tuple[int, bool]]] = defaultdict(list)
    for student_id, skill, level, correct in figures.evidence:
        evidence[(student_id, skill)].append((level, correct))
    current = {(student_id, skill): level for student_id, skill, level in figures.levels_now}
    rows, found = [], defaultdict(dict)
    for student_id in student_ids:
        for skill in catalog.LEVELLED_SKILLS:
            answered, right, thousandths, timed, sessions = totals.get((student_id, skill), (0, 0, 0, 0, 0))
            recommendation = levels.recommend(levels.evidence_of(evidence.get((student_id, skill), [])))
            summary = Row(
                student_id=student_id,
                skill=skill,
                answered=answered,
                correct=right,
                mean_time=_mean(thousandths / 1000, timed) if sessions else None,
                sessions=sessions,
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
    plan.replace(SkillSummary.objects.filter(student_id__in=student_ids), SkillSummary, rows)
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


def _class_reports(figures: FactFigures, class_sessions, items, wrong, summaries, now) -> list[Row]:
    """Each class's report, from this build's rows and the stored rows it keeps (as they will be once the
    build is written)."""
    classroom_ids = figures.scope[0]
    sessions_of: dict[int, list[tuple]] = defaultdict(list)
    titles = {pk: session["title"] for pk, session in figures.sessions.items()}
    for row in class_sessions or ():
        sessions_of[row.classroom_id].append(
            (
                row.day,
                row.session_id,
                titles.get(row.session_id, ""),
                row.game,
                row.participants,
                row.answered,
                row.correct,
                row.time_total,
                row.time_count,
            )
        )
    for (
        classroom_id,
        session_id,
        game,
        _skill,
        day,
        participants,
        answered,
        right,
        tt,
        tn,
        _f,
        title,
    ) in figures.kept_class_sessions:
        sessions_of[classroom_id].append(
            (day, session_id, title, game, participants, answered, right, tt, tn)
        )
    item_totals: dict[int, dict[tuple, list[int]]] = defaultdict(dict)
    for classroom_id, game, category, level, item_id, answered, right, _archived in [
        *(items or ()),
        *figures.kept_items,
    ]:
        total = item_totals[classroom_id].setdefault((game, category, level, item_id), [0, 0])
        total[0] += answered
        total[1] += right
    wrong_totals: dict[int, dict[tuple, dict[str, int]]] = defaultdict(dict)
    for classroom_id, game, category, item_id, answer, count, _archived in [
        *(wrong or ()),
        *figures.kept_wrong,
    ]:
        texts = wrong_totals[classroom_id].setdefault((game, category, item_id, answer.casefold()), {})
        texts[answer] = texts.get(answer, 0) + count
    enrolled: dict[int, set[int]] = defaultdict(set)
    for classroom_id, student_id in figures.enrolled:
        enrolled[classroom_id].add(student_id)
    levels_of: dict[int, list[tuple[str, int]]] = defaultdict(list)
    for student_id, skill, level in figures.levels_now:
        levels_of[student_id].append((skill, level))
    recommended_of: dict[int, list[tuple[str, int]]] = defaultdict(list)
    for student_id, skill, level in figures.kept_recommended:
        recommended_of[student_id].append((skill, level))
    for student_id, skills in summaries.items():
        for skill, summary in skills.items():
            if summary["recommended"] is not None:
                recommended_of[student_id].append((skill, summary["recommended"]))

    lists = {}
    for classroom_id in classroom_ids:
        # The ten lowest shares (answered at least three times), then the most common wrong answers.
        hardest = [
            {
                "game": game,
                "category": category,
                "level": level,
                "item_id": item_id,
                "answered": answered,
                "correct": right,
                "share": share,
            }
            for share, _fewer, game, item_id, category, _level, level, answered, right in heapq.nsmallest(
                HARDEST_SHOWN,
                (
                    (
                        _ratio(right, answered),
                        -answered,
                        game,
                        item_id,
                        category,
                        -1 if level is None else level,
                        level,
                        answered,
                        right,
                    )
                    for (game, category, level, item_id), (answered, right) in item_totals[
                        classroom_id
                    ].items()
                    if answered >= MIN_ITEM_ANSWERS
                ),
            )
        ]
        wrong_list = [
            {"game": game, "category": category, "item_id": item_id, "answer": answer, "times": times}
            for _fewer, game, item_id, answer, category, times in heapq.nsmallest(
                WRONG_SHOWN,
                (
                    (-sum(texts.values()), game, item_id, _most_written(texts), category, sum(texts.values()))
                    for (game, category, item_id, _key), texts in wrong_totals[classroom_id].items()
                ),
            )
        ]
        lists[classroom_id] = (hardest, wrong_list)
    labels = _item_labels(
        {
            classroom_id: [(row["game"], row["item_id"]) for row in hardest + wrong_list]
            for classroom_id, (hardest, wrong_list) in lists.items()
        }
    )
    reports = []
    for classroom_id in classroom_ids:
        hardest, wrong_list = lists[classroom_id]
        for row in hardest + wrong_list:
            row["label"] = labels.get((classroom_id, row["game"], row["item_id"]), row["item_id"])
        rows = sorted(sessions_of[classroom_id], key=lambda row: (row[0], row[1]))
        per_session = [
            {
                "session": session_id,
                "title": title,
                "day": day.isoformat(),
                "game": game,
                "participants": participants,
                "answered": answered,
                "correct": right,
                "accuracy": _ratio(right, answered),
                "mean_time": _mean(time_total, time_count),
            }
            for day, session_id, title, game, participants, answered, right, time_total, time_count in rows
        ]
        distribution: dict[str, dict[str, int]] = {skill: {} for skill in catalog.LEVELLED_SKILLS}
        recommended: dict[str, dict[str, int]] = {skill: {} for skill in catalog.LEVELLED_SKILLS}
        for student_id in enrolled[classroom_id]:
            for skill, level in levels_of[student_id]:
                distribution.setdefault(skill, {})
                distribution[skill][str(level)] = distribution[skill].get(str(level), 0) + 1
            for skill, level in recommended_of[student_id]:
                recommended[skill][str(level)] = recommended[skill].get(str(level), 0) + 1
        answered = sum(row[5] for row in rows)
        right = sum(row[6] for row in rows)
        data = {
            "totals": {
                "sessions": len(rows),
                "answered": answered,
                "correct": right,
                "accuracy": _ratio(right, answered),
            },
            "sessions": per_session[-40:],
            "hardest": hardest,
            "wrong": wrong_list,
            "levels": distribution,
            "recommended": recommended,
        }
        reports.append(Row(classroom_id=classroom_id, data=data, built_at=now))
    return reports


def _item_labels(keys: dict[int, list[tuple[str, str]]]) -> dict[tuple[int, str, str], str]:
    """Readable names for questions, per class: the bank's heading or prompt (the school's own question
    before a shipped one with the same key), a concept's text, a comparison."""
    from classrooms.models import Classroom
    from questions.models import LineupQuestion, WordUpQuestion

    labels: dict[tuple[int, str, str], str] = {}
    wanted: dict[str, set[str]] = defaultdict(set)
    for pairs in keys.values():
        for game, item_id in pairs:
            wanted[game].add(item_id)
    if not wanted:
        return labels
    school_of = dict(Classroom.objects.filter(pk__in=list(keys)).values_list("pk", "school_id"))
    schools = set(school_of.values())
    visible = Q(school__isnull=True) | Q(school_id__in=schools)
    bank: dict[tuple[str, int | None, str], str] = {}
    if wanted.get("wordup"):
        for key, text, school_id in WordUpQuestion.objects.filter(
            visible, key__in=wanted["wordup"]
        ).values_list("key", "prompt", "school_id"):
            bank[("wordup", school_id, key)] = text
    if wanted.get("lineup"):
        for key, text, school_id in LineupQuestion.objects.filter(
            visible, key__in=wanted["lineup"]
        ).values_list("key", "heading", "school_id"):
            bank[("lineup", school_id, key)] = text
    concepts: dict[tuple[int, str], str] = {}
    if wanted.get("mindlines"):
        for classroom_id, item_id, text in (
            LearningFact.objects.filter(
                classroom_id__in=list(keys), game="mindlines", item_id__in=wanted["mindlines"]
            )
            .annotate(text=KT("detail__text"))
            .values_list("classroom_id", "item_id", "text")
            .order_by()
            .distinct()
        ):
            if text:
                concepts[(classroom_id, item_id)] = text
    for classroom_id, pairs in keys.items():
        for game, item_id in pairs:
            if game in ("wordup", "lineup"):
                text = bank.get((game, school_of.get(classroom_id), item_id)) or bank.get(
                    (game, None, item_id)
                )
                if text:
                    labels[(classroom_id, game, item_id)] = text
            elif game == "mindlines" and (classroom_id, item_id) in concepts:
                labels[(classroom_id, game, item_id)] = concepts[(classroom_id, item_id)]
            elif game == "lineit" and item_id.startswith("compare:"):
                low, _bar, high = item_id.removeprefix("compare:").partition("|")
                labels[(classroom_id, game, item_id)] = f"{low} vs {high}"
    return labels
