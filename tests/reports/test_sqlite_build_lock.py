"""On SQLite (the embedded server) every transaction Django opens takes the database's one write lock at
its start, and the students' moves need that lock. A report build (one after every finished homework
attempt) therefore reads and computes in a read-only snapshot and takes the lock only to write.
The builds here commit (``transaction=True``): the second connection must see their rows."""

import sqlite3

import pytest
from django.db import connection

from reports import build
from reports.build import read
from reports.models import LearningFact, StudentReport, StudentSessionStat

from .conftest import fact, finished_session

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def sqlite_only():
    if connection.vendor != "sqlite":
        pytest.skip("the write lock of the whole database is SQLite's")


def _another_writer_can_start() -> bool:
    """What a student's move does first on SQLite, from a connection of its own: ``BEGIN IMMEDIATE``,
    not waiting at all for a lock held elsewhere."""
    other = sqlite3.connect(connection.settings_dict["NAME"], timeout=0, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("ROLLBACK")
        return True
    except sqlite3.OperationalError:  # "database is locked"
        return False
    finally:
        other.close()


def test_a_student_build_reads_and_computes_without_the_write_lock(
    sqlite_only, monkeypatch, class_7b, ms_rivera, ava, ben
):
    session = finished_session(class_7b, by=ms_rivera, students=[ava, ben])
    fact(ava, session, category="spelling", correct=True, item="q1", response="friend")
    fact(ava, session, category="crossword", correct=False, item="q2", response="lake")
    seen = {}
    real_read, real_plan = read.facts_read, build.chunk_plan

    def reading(*args, **kwargs):
        seen["while reading"] = _another_writer_can_start()
        return real_read(*args, **kwargs)

    def computing(*args, **kwargs):
        seen["while computing"] = _another_writer_can_start()
        return real_plan(*args, **kwargs)

    monkeypatch.setattr(build, "facts_read", reading)
    monkeypatch.setattr(build, "chunk_plan", computing)

    result = build.classrooms_build([class_7b.pk], student_ids=[ava.pk])

    assert seen == {"while reading": True, "while computing": True}
    assert result.students == 1
    assert StudentSessionStat.objects.get(student=ava, session=session).answered == 2
    assert StudentReport.objects.filter(student=ava, classroom=class_7b).exists()
    assert not connection.in_atomic_block and connection.get_autocommit()


def test_what_the_build_reads_is_one_snapshot(sqlite_only, monkeypatch, class_7b, ms_rivera, ava):
    """A fact another connection commits while the build reads (the student's next attempt going on)
    is not half in it: the build reads the database as it was when its snapshot began."""
    session = finished_session(class_7b, by=ms_rivera, students=[ava])
    fact(ava, session, category="spelling", correct=True, item="q1")
    real_sessions = read._sessions

    def sessions_then_another_fact(classroom_ids):
        sessions = real_sessions(classroom_ids)
        _commit_a_copy_of_the_fact(session.pk)
        return sessions

    monkeypatch.setattr(read, "_sessions", sessions_then_another_fact)
    build.classrooms_build([class_7b.pk], student_ids=[ava.pk])
    assert StudentSessionStat.objects.get(student=ava, session=session).answered == 1

    monkeypatch.setattr(read, "_sessions", real_sessions)
    build.classrooms_build([class_7b.pk], student_ids=[ava.pk])
    assert StudentSessionStat.objects.get(student=ava, session=session).answered == 2


def _commit_a_copy_of_the_fact(session_id: int) -> None:
    """Another fact of the session (a copy of its one fact under another key), committed by a connection
    of its own."""
    table = LearningFact._meta.db_table
    other = sqlite3.connect(connection.settings_dict["NAME"], timeout=5, isolation_level=None)
    try:
        cursor = other.execute(f"SELECT * FROM {table} WHERE session_id = ?", [session_id])
        names = [column[0] for column in cursor.description]
        copy = dict(zip(names, cursor.fetchone(), strict=True))
        del copy["id"]
        copy["key"] += ":later"
        columns, marks = ", ".join(copy), ", ".join("?" for _ in copy)
        other.execute(f"INSERT INTO {table} ({columns}) VALUES ({marks})", list(copy.values()))
    finally:
        other.close()
