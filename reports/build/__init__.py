"""Building the reports from the learning facts (run by the Celery tasks in ``reports.tasks``).

One function, :func:`classrooms_build`, does every scope: a chunk of classes (a school build,
:func:`school_build`, walks its classes in chunks), optionally one session's statistics (after a session)
or some students only. Every build recomputes all of its rows from the facts, in three stages:

1. **read** (:func:`~reports.build.read.facts_read`): the scope's facts are read once: the columns the
   reports use go into a temporary table, and each figure (per student and session, per question, per
   wrong answer, per category and level, each game's insight) is a grouped query of that small table.
   Never a query per student. The few other rows a build needs (participants, levels, stored rows it
   keeps) come with it.
2. **compute** (:func:`chunk_plan`): plain Python over those rows, no query but the questions' labels:
   the statistics tables (``statistics``), the students' reports (``students``) and the classes'
   (``classes``).
3. **write** (:meth:`~reports.build.write.Plan.write`): in one transaction (on SQLite, after reading
   and computing in a read-only snapshot: see :func:`_built_apart`), each table's rows of the scope
   are deleted and the new rows inserted (``COPY`` on PostgreSQL), so a rerun writes the same rows and a
   failure half-way leaves the previous rows in place. The commit does not wait for the WAL flush (the
   rows are derived: a crash can only lose a build, which is then run again).

A school build on PostgreSQL runs the three stages of consecutive chunks at the same time, each on its
own connection: the next chunk is read and the previous one written while this one is computed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.db import connection, transaction
from django.utils import timezone

from ..models import ClassItemStat, ClassReport, ClassSessionStat, ClassWrongAnswer, StudentSessionStat
from .classes import class_reports
from .read import ITEM_FIELDS, WRONG_FIELDS, FactFigures, facts_read, replaced_sessions
from .statistics import class_session_rows, homework_fact, item_rows, session_rows, wrong_answer_rows
from .students import student_reports
from .write import Plan, Row, bulk_insert

__all__ = [
    "SCHOOL_CHUNK",
    "WRONG_FIELDS",
    "BuildResult",
    "FactFigures",
    "Plan",
    "Row",
    "bulk_insert",
    "chunk_plan",
    "classrooms_build",
    "facts_read",
    "homework_fact",
    "school_build",
    "wrong_answer_rows",
]

#: Classes built together in a school build (bounded memory, a progress step per chunk).
SCHOOL_CHUNK = 8
#: Memory for the grouped queries of one chunk (PostgreSQL; only inside the build's transactions): the
#: per-student-and-session groups of 8 classes (~50 000) hash in memory instead of sorting on disk.
WORK_MEM = "64MB"

Progress = Callable[[int, int, str], None]


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


def _no_progress(done: int, total: int, step: str) -> None:
    pass


# --- the whole build ----------------------------------------------------------------------------------


def classrooms_build(
    classroom_ids: Iterable[int],
    *,
    session_ids: Iterable[int] | None = None,
    student_ids: Iterable[int] | None = None,
    students: bool = True,
    progress: Progress | None = None,
    now: dt.datetime | None = None,
) -> BuildResult:
    """Rebuild the reports of these classes: read, compute and write in one transaction.

    ``session_ids``: recompute the per-session statistics of these sessions only (after a session);
    ``student_ids``: only these students' rows (the class-wide statistics are left as they are);
    ``students=False``: none of the students' rows, only the classes' statistics and reports (after
    homework: each attempt's student has a build of their own).
    Otherwise the student reports and the class report are always recomputed for the classes' (chosen)
    students.
    """
    classroom_ids = sorted(set(classroom_ids))
    session_ids = None if session_ids is None else sorted(set(session_ids))
    student_ids = None if student_ids is None else sorted(set(student_ids))
    now = now or timezone.now()
    report = progress or _no_progress
    if not classroom_ids:
        return BuildResult()
    report(0, 3, "reading the answers")
    scope = {"session_ids": session_ids, "student_ids": student_ids, "students": students}
    if connection.vendor == "sqlite" and not connection.in_atomic_block:
        plan = _built_apart(classroom_ids, scope, now, report)
    else:
        outermost = not connection.in_atomic_block
        with transaction.atomic():
            if outermost:  # inside a caller's transaction (an erasure), its settings stay its own
                _tune_transaction()
            figures = facts_read(classroom_ids, **scope)
            report(1, 3, "computing")
            plan = chunk_plan(figures, now)
            report(2, 3, "writing")
            plan.write()
    report(3, 3, "done")
    return plan.result


def _built_apart(classroom_ids, scope: dict, now, report: Progress) -> Plan:
    """SQLite (the embedded server): read and compute in a read-only snapshot, then write in a short
    transaction of its own. Every SQLite transaction Django opens takes the database's one write lock at
    its start (``BEGIN IMMEDIATE``), and the students' moves need that lock: a homework attempt's report
    build read and computed for a third of a second while every move waited. A deferred transaction
    reads one snapshot (WAL) without the lock. Builds of a scope run one at a time (one solo worker), so
    a write from an older snapshot never follows a newer one."""
    with _read_snapshot():
        figures = facts_read(classroom_ids, **scope)
        report(1, 3, "computing")
        plan = chunk_plan(figures, now)
    report(2, 3, "writing")
    with transaction.atomic():
        plan.write()
    return plan


@contextmanager
def _read_snapshot():
    """A deferred SQLite transaction: one snapshot for every read inside, no write lock. Opened by hand
    (Django's own transactions are ``BEGIN IMMEDIATE`` here), so nothing inside may open one of Django's."""
    with connection.cursor() as cursor:
        cursor.execute("BEGIN DEFERRED")
        try:
            yield
        finally:
            cursor.execute("ROLLBACK")  # nothing was written: ending it is all that is left


def school_build(
    classroom_ids: list[int], *, progress: Progress | None = None, chunk: int = SCHOOL_CHUNK
) -> BuildResult:
    """Every class of a school, ``chunk`` classes at a time, each chunk written in its own transaction.

    On PostgreSQL, outside a transaction, three threads share the work: one reads chunk k+1 and one
    writes chunk k-1 (each on its own connection) while this one computes chunk k, so the database and
    the worker are busy at the same time. (Inside a transaction, as in tests, another connection could
    not see its rows: there the chunks are built one after the other.)"""
    report = progress or _no_progress
    chunks = [classroom_ids[i : i + chunk] for i in range(0, len(classroom_ids), chunk)]
    total = BuildResult(classrooms=len(classroom_ids))
    now = timezone.now()
    if connection.vendor != "postgresql" or connection.in_atomic_block or len(chunks) < 2:
        _chunks_one_by_one(chunks, now, report, total)
    else:
        _chunks_overlapped(chunks, now, report, total)
    return total


def _chunks_one_by_one(chunks: list[list[int]], now, report: Progress, total: BuildResult) -> None:
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


def _chunks_overlapped(chunks: list[list[int]], now, report: Progress, total: BuildResult) -> None:
    """Read the next chunk and write the previous one, each on its own thread, while computing this one."""
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


# --- 2. computing ----------------------------------------------------------------------------------------


def chunk_plan(figures: FactFigures, now: dt.datetime) -> Plan:
    """Every row of the build, computed from what :func:`facts_read` read (no query but the questions'
    labels for the class reports)."""
    classroom_ids, _session_ids, student_ids, students = figures.scope
    plan = Plan(BuildResult(classrooms=len(classroom_ids)))
    sessions = session_rows(figures)
    if students:
        plan.replace(
            StudentSessionStat.objects.filter(replaced_sessions(figures.scope, figures.wanted)),
            StudentSessionStat,
            sessions,
        )
        plan.result.session_rows = len(sessions)
    class_sessions = items = wrong = None
    if student_ids is None:
        class_sessions, items, wrong = _class_statistics(figures, sessions, plan)
    summaries = student_reports(figures, sessions, now, plan) if students else {}
    plan.result.students = len(figures.target_students)
    reports = class_reports(figures, class_sessions, items, wrong, summaries, now)
    plan.replace(ClassReport.objects.filter(classroom_id__in=classroom_ids), ClassReport, reports)
    return plan


def _class_statistics(figures: FactFigures, sessions: list, plan: Plan):
    """The class-wide statistics (a build of every student): per session, per question, wrong answers."""
    classroom_ids = figures.scope.classroom_ids
    class_sessions = class_session_rows(figures, sessions)
    plan.replace(
        ClassSessionStat.objects.filter(session_id__in=figures.wanted - figures.frozen),
        ClassSessionStat,
        class_sessions,
    )
    plan.result.class_session_rows = len(class_sessions)
    plan.result.skipped_frozen = len(figures.frozen)
    items, wrong = item_rows(figures)
    plan.replace(
        ClassItemStat.objects.filter(classroom_id__in=classroom_ids, archived=False),
        ClassItemStat,
        items,
        ITEM_FIELDS,
    )
    plan.replace(
        ClassWrongAnswer.objects.filter(classroom_id__in=classroom_ids, archived=False),
        ClassWrongAnswer,
        wrong,
        WRONG_FIELDS,
    )
    return class_sessions, items, wrong
