"""The moves' row locks on PostgreSQL (games.services.rows): two writers of one table wait for each other,
but the moves of a session's other tables, and the foreign keys of the facts the worker inserts, do not
wait for a move; a pause still does."""

import os
import threading

import pytest
from django.db import OperationalError, connection, connections, transaction

from games.services import rows
from tests.factories import enrolled_student, started_session

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
T0 = 1_000_000.0


@pytest.fixture
def tables(class_7b, ms_rivera, ava, ben):
    if connection.vendor != "postgresql":
        if os.environ.get("CLASSPLAY_REQUIRE_SERVICES") == "1":
            pytest.fail("the row-lock tests need a PostgreSQL DATABASE_URL in CI")
        pytest.skip("set DATABASE_URL (PostgreSQL) to run the row-lock tests")
    others = [enrolled_student(class_7b, given_name=name) for name in ("Cara", "Dev")]
    session = started_session(class_7b, ms_rivera, [ava, ben, *others], "faces", now=T0)
    found = list(session.tables.order_by("pk"))
    assert len(found) == 2  # two pairs: two tables of one session
    return found


def _in_other_connection(sql: str, params: list) -> str:
    """Runs ``sql`` in a transaction of another connection that waits at most 0.5 s for a lock: "ran",
    or "waited" when the lock was not granted."""
    outcome = {}

    def run():
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '500ms'")
                cursor.execute(sql, params)
            outcome["result"] = "ran"
        except OperationalError as error:
            outcome["result"] = "waited" if "lock timeout" in str(error) else repr(error)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(10)
    return outcome.get("result", "hung")


def _while_a_move_holds(table, sql: str, params: list) -> str:
    with transaction.atomic():
        assert [each.pk for each in rows.locked_tables([table.pk])] == [table.pk]
        return _in_other_connection(sql, params)


def test_another_table_of_the_session_is_not_held_up(tables):
    first, second = tables
    locked = rows._locked_tables_sql("default", 1)
    assert _while_a_move_holds(first, locked, [second.pk]) == "ran"


def test_a_second_writer_of_the_same_table_waits(tables):
    first, _second = tables
    locked = rows._locked_tables_sql("default", 1)
    assert _while_a_move_holds(first, locked, [first.pk]) == "waited"


def test_a_learning_facts_foreign_keys_are_not_held_up(tables):
    """What PostgreSQL's foreign-key check takes on the rows a new fact refers to."""
    first, _second = tables
    keys = "SELECT 1 FROM games_gametable WHERE id = %s FOR KEY SHARE"
    assert _while_a_move_holds(first, keys, [first.pk]) == "ran"
    session_keys = "SELECT 1 FROM games_gamesession WHERE id = %s FOR KEY SHARE"
    assert _while_a_move_holds(first, session_keys, [first.session_id]) == "ran"


def test_a_pause_still_waits_for_a_move(tables):
    first, _second = tables
    pause = "SELECT 1 FROM games_gamesession WHERE id = %s FOR UPDATE"
    assert _while_a_move_holds(first, pause, [first.session_id]) == "waited"
