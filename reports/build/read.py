"""Stage 1 of a build, reading: the scope's facts are read once into a temporary table, and each figure a
build needs is a grouped query of that small table (never a query per student); the few other rows a
build needs (participants, levels, stored rows it keeps) come with them."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple

from django.db import connection
from django.db.models import F, Q
from django.db.models.expressions import Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from classrooms.models import Enrolment, StudentLevel
from games.definitions import all_measures
from games.definitions.reporting import Counted, InsightQuery, Summed
from games.models import GameSession, Participant

from .. import catalog, levels
from ..models import (
    ClassItemStat,
    ClassSessionStat,
    ClassWrongAnswer,
    DataErasure,
    LearningFact,
    SkillSummary,
    StudentSessionStat,
)

STARTED = (GameSession.Status.RUNNING, GameSession.Status.PAUSED, GameSession.Status.FINISHED)
#: What a report can show: live games only, homework only, or both (``reports.selectors.in_mode``). A
#: build computes every student's and every class's report in each (the "both" one is the row's own
#: columns and data; the others go in ``data["modes"]``).
LIVE, HOMEWORK, BOTH = "live", "homework", "both"
MODES = (BOTH, LIVE, HOMEWORK)
#: The temporary table a build reads the facts into (one per connection, dropped at the end).
FACTS_TABLE = "report_build_facts"
#: Sums of seconds and scores are added up exactly, as whole millionths (see :func:`_sum`).
MICRO = 1_000_000


# --- the rows a build reads and writes ---------------------------------------------------------------


class CategoryFigures(NamedTuple):
    """A student's facts (answers and results) of one category at one level, in one class."""

    student_id: int
    classroom_id: int
    game: str
    category: str
    skill: str
    level: int | None
    facts: int
    answered: int
    right: int
    time_micros: int | None
    timed: int
    score_micros: int | None
    scored: int
    marked: int
    #: Facts of homework attempts (the rows of one key are split into live and homework).
    homework: bool


class SessionRow(NamedTuple):
    """A student's figures in one session (``StudentSessionStat``'s columns)."""

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
    #: Questions left to run out of time, and the game's own marks (``share_categories``) and right.
    no_answer: int = 0
    measured: int = 0
    measured_right: int = 0


#: The columns of the per-question rows (``ClassItemStat``) and the wrong answers (``ClassWrongAnswer``),
#: in the order of their tuples. Plain tuples, not named ones: a chunk has tens of thousands of them, and
#: the garbage collector stops looking at a tuple of plain values but not at a named tuple (a fifth more
#: CPU for reading and computing a chunk, measured).
ITEM_FIELDS = (
    "classroom_id",
    "game",
    "category",
    "level",
    "item_id",
    "answered",
    "correct",
    "archived",
    "homework",
)
WRONG_FIELDS = ("classroom_id", "game", "category", "item_id", "answer", "count", "archived", "homework")


class SessionLine(NamedTuple):
    """One session in a class report."""

    day: dt.date
    session_id: int
    title: str
    game: str
    participants: int
    answered: int
    correct: int
    time_total: float
    time_count: int
    #: A homework attempt's assignment and student (None for a live game).
    assignment: int | None = None
    student: int | None = None
    no_answer: int = 0
    measured: int = 0
    measured_right: int = 0

    @property
    def homework(self) -> bool:
        return self.assignment is not None


class Scope(NamedTuple):
    """What a build rebuilds."""

    classroom_ids: list[int]
    #: The sessions whose statistics are rebuilt (``None``: all of them).
    session_ids: list[int] | None
    #: The students whose rows are rebuilt (``None``: the classes' enrolled students).
    student_ids: list[int] | None
    #: ``False``: no student's rows, only the classes' own (their statistics and report, after homework).
    students: bool = True


@dataclass
class FactFigures:
    """Everything a build reads: the scope's facts in a few grouped queries, and the other rows it needs.
    The many rows are plain tuples in the column order given (see ``ITEM_FIELDS`` for why)."""

    scope: Scope
    sessions: dict[int, dict[str, Any]]
    #: The sessions whose per-session statistics are rebuilt.
    wanted: set[int]
    #: Over answers, per student and session: (student, session, answered, right, time in millionths,
    #: answers timed, no answers (timed out), the game's own marks, and right of those)
    per_session: list[tuple]
    #: (student, session) of the students who took part (not only waited)
    joined: list[tuple[int, int]]
    erased: dict[int, dt.datetime]
    #: Sessions whose class statistics are frozen (some of their facts were erased or purged).
    frozen: set[int]
    #: Over answers with an item (whole class; not in a students' build): (classroom, game, category,
    #: level, item, answered, right)
    items: list[tuple] | None
    #: Over listable wrong answers (whole class): (classroom, game, category, item, response as JSON text,
    #: times, homework)
    wrong: list[tuple] | None
    #: Over every fact, answer or result, in key order.
    grouped: list[CategoryFigures]
    #: Per mode, each game's own insight rows, ``(classroom, student, *group_by, *figures)`` (see
    #: ``InsightQuery``).
    insights: dict[str, dict[str, list[tuple]]]
    #: (classroom, student) the reports are for: the classes' enrolled students (or the chosen ones)
    targets: list[tuple[int, int]]
    enrolled_on: dict[tuple[int, int], dt.date]
    #: Each target student's latest levelled answers per skill: (student, skill, level, correct)
    evidence: list[tuple]
    #: Stored rows this build keeps (it does not replace them): the target students' session statistics
    #: in other classes (their skill totals) and, after a session, in the class's other sessions (their
    #: trend).
    kept_sessions: list[SessionRow]
    #: Stored class rows this build keeps: class statistics of sessions it does not rebuild, archived
    #: (or, when it does not rebuild them, all) question and wrong-answer rows (``ITEM_FIELDS`` and
    #: ``WRONG_FIELDS`` tuples).
    kept_class_sessions: list[tuple[int, SessionLine]]
    kept_items: list[tuple]
    kept_wrong: list[tuple]
    #: (classroom, student) enrolments of the classes, and (student, skill, level) of those students
    enrolled: list[tuple[int, int]]
    levels_now: list[tuple[int, str, int]]
    #: (student, skill, level) recommended to enrolled students this build does not rebuild
    kept_recommended: list[tuple[int, str, int]]

    @property
    def target_students(self) -> list[int]:
        return sorted({student for _classroom, student in self.targets})

    @cached_property
    def classes_with_homework(self) -> set[int]:
        """The classes with a homework attempt (in the others, a live-games report is the whole one)."""
        return {s["classroom_id"] for s in self.sessions.values() if s.get("assignment_id") is not None}

    def is_homework(self, session_id: int) -> bool:
        """Whether the session is a homework attempt (one student's, against computer players)."""
        session = self.sessions.get(session_id)
        return session is not None and session.get("assignment_id") is not None


def session_day(session: dict[str, Any]) -> dt.date:
    moment = session["ended_at"] or session["started_at"] or session["scheduled_for"]
    return timezone.localdate(moment)


def seconds(micros: int | None) -> float | None:
    return None if micros is None else micros / MICRO


# --- SQL ---------------------------------------------------------------------------------------------------


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


def _sum(expression: str, condition: str = "") -> str:
    """An exact sum, in whole millionths (an integer; divide by ``MICRO``). A float sum depends, in its
    last digit, on the order the rows come in, and a mean of x.xx5 then rounds either way: a rerun must
    write the same rows. (Cheaper than a ``numeric`` sum, and exact for any real time or score.)"""
    where = f" FILTER (WHERE {condition})" if condition else ""
    integer = "bigint" if connection.vendor == "postgresql" else "INTEGER"
    return f"CAST(SUM(CAST(ROUND({expression} * {MICRO}) AS {integer})){where} AS {integer})"


def _in(values) -> tuple[str, list]:
    values = list(values)
    return (f"IN ({', '.join(['%s'] * len(values))})" if values else "IN (NULL)"), values


def _detail_columns() -> tuple[str, list]:
    """The games' values read out of their facts' ``detail`` (see ``DetailColumn``), as select columns."""
    real = "double precision" if connection.vendor == "postgresql" else "REAL"
    columns, params = [], []
    for game, measures in all_measures().items():
        for column in measures.detail_columns:
            value = _json_text("detail", column.key)
            if column.number:
                value = f"CAST({value} AS {real})"
            columns.append(f", CASE WHEN game = %s AND ({column.when}) THEN {value} END AS {column.name}")
            params.append(game)
    return "".join(columns), params


def _facts_table_sql(scope: Scope) -> tuple[str, list]:
    """The statement that copies the scope's facts into the temporary table: the columns the reports use
    and a few derived ones (is it an answer, the wrong answer given, the games' detail columns)."""
    facts_table = connection.ops.quote_name(LearningFact._meta.db_table)
    answers, answer_params = _games_sql(catalog.games_spec("answer_categories"))
    timed_out, timed_out_params = _games_sql(catalog.games_spec("no_answer_categories"))
    shares, share_params = _games_sql(_share_spec())
    listable, listable_params = _games_sql(catalog.games_spec("wrong_answer_categories"))
    details, detail_params = _detail_columns()
    classes_in, where_params = _in(scope.classroom_ids)
    where = f"classroom_id {classes_in}"
    if scope.student_ids is not None:
        students_in, student_params = _in(scope.student_ids)
        where += f" AND student_id {students_in}"
        where_params += student_params
    temporary = "ON COMMIT DROP" if connection.vendor == "postgresql" else ""
    # A fact is homework when its session is an attempt: one hashed look-up of the classes' attempts.
    sessions_table = connection.ops.quote_name(GameSession._meta.db_table)
    attempts_in, attempt_params = _in(scope.classroom_ids)
    homework = f"""COALESCE(session_id IN (
        SELECT id FROM {sessions_table} WHERE classroom_id {attempts_in} AND assignment_id IS NOT NULL
    ), FALSE)"""
    # A question the student let run out of time is "no answer": not an answer (nor wrong).
    no_answer = f"(response IS NULL AND COALESCE(correct, FALSE) = FALSE AND {timed_out})"
    create = f"""
        CREATE TEMPORARY TABLE {FACTS_TABLE} {temporary} AS
        SELECT student_id, session_id, classroom_id, game, category, skill, level, item_id, correct,
               time_taken, score, teacher_marked,
               (correct IS NOT NULL AND {answers} AND NOT {no_answer}) AS answer,
               {no_answer} AS no_answer,
               (correct IS NOT NULL AND {shares}) AS measured,
               CASE WHEN correct = FALSE AND response IS NOT NULL AND {listable} THEN response END AS wrong,
               {homework} AS homework
               {details}
        FROM {facts_table} WHERE {where}
    """
    params = [*answer_params, *timed_out_params, *timed_out_params, *share_params, *listable_params]
    return create, [*params, *attempt_params, *detail_params, *where_params]


def _share_spec() -> dict[str, tuple[str, ...]]:
    """The games' own share measures (``share_categories``: Mind the Lines' drawings and decoy hunts)."""
    return {
        game: measures.share_categories
        for game, measures in all_measures().items()
        if measures.share_categories
    }


def _figure_sql(figure: Counted | Summed) -> str:
    if isinstance(figure, Summed):
        return _sum(figure.column)
    return f"COUNT(*) FILTER (WHERE {figure.where})" if figure.where else "COUNT(*)"


#: The facts of each mode, as a condition on the temporary table.
MODE_WHERE = {BOTH: "TRUE", LIVE: "NOT homework", HOMEWORK: "homework"}


def _insight_sql(query: InsightQuery, table: str, mode: str = BOTH) -> str:
    grouping = ", ".join(("classroom_id", "student_id", *query.group_by))
    figures = ", ".join(_figure_sql(figure) for figure in query.figures)
    return f"""
        SELECT {grouping}, {figures}
        FROM {table} WHERE game = %s AND ({query.where}) AND student_id IS NOT NULL AND {MODE_WHERE[mode]}
        GROUP BY {grouping}"""


def _exact_sums_in_seconds(query: InsightQuery, rows: list[tuple]) -> list[tuple]:
    """An insight's exact sums (whole millionths) as plain numbers."""
    first = 2 + len(query.group_by)
    summed = {first + index for index, figure in enumerate(query.figures) if isinstance(figure, Summed)}
    if not summed:
        return rows
    return [
        tuple(seconds(value) if index in summed else value for index, value in enumerate(row)) for row in rows
    ]


@dataclass
class _FactsTableFigures:
    per_session: list[tuple]
    items: list[tuple] | None
    wrong: list[tuple] | None
    grouped: list[CategoryFigures]
    insights: dict[str, dict[str, list[tuple]]]


def _facts_table_read(scope: Scope) -> _FactsTableFigures:
    """The grouped figures of the scope's facts. Call inside a transaction (the temporary table lives
    until its end)."""
    create, params = _facts_table_sql(scope)
    # Qualified, so that a DROP can only ever find the temporary table.
    table = f"{'pg_temp' if connection.vendor == 'postgresql' else 'temp'}.{FACTS_TABLE}"
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {table}")
        cursor.execute(create, params)
        try:
            return _FactsTableFigures(
                per_session=_fetch(_per_session_sql(table)),
                items=None if scope.student_ids is not None else _items(table),
                wrong=None if scope.student_ids is not None else _wrong(table),
                # The students' own figures (none when only the classes' are rebuilt).
                grouped=[CategoryFigures._make(row) for row in _fetch(_grouped_sql(table))]
                if scope.students
                else [],
                insights={
                    mode: {
                        game: _exact_sums_in_seconds(query, _fetch(_insight_sql(query, table, mode), [game]))
                        for game, query in _insight_queries()
                    }
                    for mode in MODES
                }
                if scope.students
                else {},
            )
        finally:
            cursor.execute(f"DROP TABLE IF EXISTS {table}")


def _fetch(sql: str, params: Iterable = ()) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, list(params))
        return cursor.fetchall()


def _insight_queries() -> list[tuple[str, InsightQuery]]:
    return [
        (game, measures.insight_query)
        for game, measures in all_measures().items()
        if measures.insight_query is not None
    ]


def _per_session_sql(table: str) -> str:
    return f"""
        SELECT student_id, session_id, COUNT(*) FILTER (WHERE answer),
               COUNT(*) FILTER (WHERE answer AND correct), {_sum("time_taken", "answer")},
               COUNT(time_taken) FILTER (WHERE answer), COUNT(*) FILTER (WHERE no_answer),
               COUNT(*) FILTER (WHERE measured), COUNT(*) FILTER (WHERE measured AND correct)
        FROM {table} WHERE student_id IS NOT NULL AND session_id IS NOT NULL
        GROUP BY student_id, session_id"""


def _grouped_sql(table: str) -> str:
    return f"""
        SELECT student_id, classroom_id, game, category, skill, level, COUNT(*),
               COUNT(*) FILTER (WHERE correct IS NOT NULL AND NOT no_answer),
               COUNT(*) FILTER (WHERE correct), {_sum("time_taken", "correct IS NOT NULL AND NOT no_answer")},
               COUNT(time_taken) FILTER (WHERE correct IS NOT NULL AND NOT no_answer), {_sum("score")},
               COUNT(score),
               COUNT(*) FILTER (WHERE teacher_marked), homework
        FROM {table} WHERE student_id IS NOT NULL
        GROUP BY student_id, classroom_id, game, category, skill, level, homework"""


def _items(table: str) -> list[tuple]:
    sql = f"""
        SELECT classroom_id, game, category, level, item_id, COUNT(*), COUNT(*) FILTER (WHERE correct),
               homework
        FROM {table} WHERE answer AND item_id <> ''
        GROUP BY classroom_id, game, category, level, item_id, homework"""
    return _fetch(sql)


def _wrong(table: str) -> list[tuple]:
    sql = f"""
        SELECT classroom_id, game, category, item_id, wrong, COUNT(*), homework
        FROM {table} WHERE wrong IS NOT NULL
        GROUP BY classroom_id, game, category, item_id, wrong, homework"""
    return _fetch(sql)


def _in_key_order(grouped: list[CategoryFigures]) -> list[CategoryFigures]:
    """Sorted: the per-level rows of a category are added up in the same order on every run."""
    return sorted(grouped, key=lambda row: (*row[:5], -1 if row.level is None else row.level, row.homework))


# --- the other rows a build needs ------------------------------------------------------------------------


def _sessions(classroom_ids: list[int]) -> dict[int, dict[str, Any]]:
    rows = GameSession.objects.filter(classroom_id__in=classroom_ids, status__in=STARTED).values(
        "pk", "classroom_id", "game", "title", "ended_at", "started_at", "scheduled_for", "assignment_id"
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


def replaced_sessions(scope: Scope, wanted: set[int]) -> Q:
    """The per-session rows a build replaces: every row of its classes (a full build: also a row that
    a deletion left behind, see models.DERIVED_FOREIGN_KEY), or those of the rebuilt sessions; of its
    students only, if it has chosen some."""
    replaced = Q(classroom_id__in=scope.classroom_ids)
    if scope.session_ids is not None:
        replaced &= Q(session_id__in=wanted)
    if scope.student_ids is not None:
        replaced &= Q(student_id__in=scope.student_ids)
    return replaced


def _joined(wanted: set[int], student_ids: list[int] | None) -> list[tuple[int, int]]:
    joined = Participant.objects.filter(session_id__in=wanted).exclude(status=Participant.Status.WAITING)
    if student_ids is not None:
        joined = joined.filter(student_id__in=student_ids)
    return list(joined.values_list("student_id", "session_id"))


def _erased(classroom_ids: list[int]) -> dict[int, dt.datetime]:
    """When each of the classes' students last had their data erased."""
    erased: dict[int, dt.datetime] = {}
    for student_id, erased_at in DataErasure.objects.filter(
        student__enrolments__classroom_id__in=classroom_ids
    ).values_list("student_id", "erased_at"):
        erased[student_id] = max(erased_at, erased.get(student_id, erased_at))
    return erased


def _frozen(wanted: set[int]) -> set[int]:
    return set(
        ClassSessionStat.objects.filter(session_id__in=wanted, frozen=True).values_list(
            "session_id", flat=True
        )
    )


def _enrolled_on(classroom_ids: list[int], students: list[int]) -> dict[tuple[int, int], dt.date]:
    return {
        (classroom, student): timezone.localdate(created)
        for classroom, student, created in Enrolment.objects.filter(
            classroom_id__in=classroom_ids, student_id__in=students
        ).values_list("classroom_id", "student_id", "created_at")
    }


def _kept_class_sessions(classroom_ids: list[int], replaced: set[int]) -> list[tuple[int, SessionLine]]:
    """``(classroom, line)`` of the class statistics of the sessions a build does not rebuild."""
    rows = (
        ClassSessionStat.objects.filter(classroom_id__in=classroom_ids)
        .exclude(session_id__in=replaced)
        .values_list(
            "classroom_id",
            "day",
            "session_id",
            "session__title",
            "game",
            "participants",
            "answered",
            "correct",
            "time_total",
            "time_count",
            "no_answer",
            "measured",
            "measured_right",
            "session__assignment_id",
        )
    )
    rows = list(rows)
    students = attempt_students([row[2] for row in rows if row[-1] is not None])
    return [
        (
            classroom_id,
            SessionLine(
                *line[:9],
                assignment=assignment_id,
                student=students.get(line[1]),
                no_answer=line[9],
                measured=line[10],
                measured_right=line[11],
            ),
        )
        for classroom_id, *line, assignment_id in rows
    ]


def attempt_students(session_ids: list[int]) -> dict[int, int]:
    """Each homework attempt's student (an attempt is one student's session)."""
    return dict(
        Participant.objects.filter(session_id__in=session_ids).values_list("session_id", "student_id")
    )


def facts_read(
    classroom_ids: list[int],
    *,
    session_ids: list[int] | None = None,
    student_ids: list[int] | None = None,
    students: bool = True,
) -> FactFigures:
    """Read what a build of this scope needs (``students=False``: the classes' own figures only). Call
    inside a transaction (the temporary table of the facts lives until its end)."""
    scope = Scope(classroom_ids, session_ids, student_ids, students)
    sessions = _sessions(classroom_ids)
    wanted = set(sessions) if session_ids is None else set(session_ids) & set(sessions)
    read = _facts_table_read(scope)
    frozen = _frozen(wanted)
    targets = _target_students(classroom_ids, student_ids) if students else []
    target_students = sorted({student for _classroom, student in targets})
    enrolled = sorted(
        Enrolment.objects.filter(classroom_id__in=classroom_ids).values_list("classroom_id", "student_id")
    )
    enrolled_students = sorted({student for _classroom, student in enrolled})
    # Rows this build does not replace. In a school build these come from the database as it is when
    # the chunk is read: a student in two classes gets the other class's rows as last written (as
    # before, when the chunks were built one after the other, a later chunk's rows were not yet new).
    kept_sessions = StudentSessionStat.objects.filter(student_id__in=target_students).exclude(
        replaced_sessions(scope, wanted)
    )
    kept_items = ClassItemStat.objects.filter(classroom_id__in=classroom_ids)
    kept_wrong = ClassWrongAnswer.objects.filter(classroom_id__in=classroom_ids)
    if student_ids is None:
        kept_items, kept_wrong = kept_items.filter(archived=True), kept_wrong.filter(archived=True)
    return FactFigures(
        scope=scope,
        sessions=sessions,
        wanted=wanted,
        per_session=read.per_session,
        joined=_joined(wanted, student_ids),
        erased=_erased(classroom_ids),
        frozen=frozen,
        items=read.items,
        wrong=read.wrong,
        grouped=_in_key_order(read.grouped),
        insights=read.insights,
        targets=targets,
        enrolled_on=_enrolled_on(classroom_ids, target_students),
        evidence=_latest_evidence(target_students) if target_students else [],
        kept_sessions=[SessionRow._make(row) for row in kept_sessions.values_list(*SessionRow._fields)],
        kept_class_sessions=_kept_class_sessions(
            classroom_ids, wanted - frozen if student_ids is None else set()
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


def _latest_evidence(student_ids: list[int]) -> list[tuple]:
    """Each student's latest ``levels.WINDOW`` levelled answers per skill."""
    if connection.vendor == "postgresql":
        return _latest_evidence_lateral(student_ids)
    rows = (
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
    return list(rows)


def _latest_evidence_lateral(student_ids: list[int]) -> list[tuple]:
    """On PostgreSQL: one index walk per student and skill (LATERAL ... LIMIT)."""
    spec = catalog.games_spec("level_evidence")
    games = [game for game, categories in spec.items() if categories is None]
    limited = [(game, list(categories)) for game, categories in spec.items() if categories]
    conditions = ["f.game = ANY(%s)"] + ["(f.game = %s AND f.category = ANY(%s))" for _limited in limited]
    params: list = [games] + [value for game, categories in limited for value in (game, categories)]
    no_answer, no_answer_params = _games_sql(catalog.games_spec("no_answer_categories"))
    no_answer = no_answer.replace("game", "f.game").replace("category", "f.category")
    params += no_answer_params
    pairs = [(student, skill) for student in student_ids for skill in catalog.LEVELLED_SKILLS]
    sql = f"""
        SELECT p.student_id, p.skill, f.level, f.correct
        FROM unnest(%s::bigint[], %s::text[]) AS p(student_id, skill)
        CROSS JOIN LATERAL (
            SELECT f.level, f.correct FROM {LearningFact._meta.db_table} f
            WHERE f.student_id = p.student_id AND f.skill = p.skill
              AND f.correct IS NOT NULL AND f.level IS NOT NULL AND ({" OR ".join(conditions)})
              AND NOT (f.response IS NULL AND NOT f.correct AND {no_answer})
            ORDER BY f.created_at DESC, f.id DESC
            LIMIT %s
        ) f
    """
    params = [[p[0] for p in pairs], [p[1] for p in pairs], *params, levels.WINDOW]
    return _fetch(sql, params)
