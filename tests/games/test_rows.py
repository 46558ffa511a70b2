"""A move's two statements, built once (games.services.rows), store exactly what the ORM would."""

import pytest
from django.db import connection, transaction

from games.models import GameTable, TableLogEntry
from games.services import rows
from tests.factories import started_session

pytestmark = pytest.mark.django_db
T0 = 1_000_000.0


@pytest.fixture
def table(class_7b, ms_rivera, ava, ben):
    return started_session(class_7b, ms_rivera, [ava, ben], "wordup", now=T0).tables.get()


def test_a_table_update_stores_the_moves_fields_and_touches_updated_at(table):
    before = table.updated_at
    table.seq += 1
    table.state = {**table.state, "turn": 99}
    table.deadline, table.bot_due, table.outcome = T0 + 30, None, {"winner": "s1"}
    rows.table_update(table)
    stored = GameTable.objects.get(pk=table.pk)
    assert (stored.seq, stored.state, stored.deadline, stored.bot_due, stored.outcome) == (
        table.seq,
        table.state,
        T0 + 30,
        None,
        {"winner": "s1"},
    )
    assert stored.updated_at == table.updated_at > before
    assert stored.state["bank"] == table.state["bank"]  # the shared part, stored apart as before


def test_an_entry_insert_sets_its_id_and_time_and_stores_no_action_as_null(table):
    entry = rows.entry_insert(
        TableLogEntry(
            table=table, seq=table.seq + 1, kind="deadline", at=T0 + 5, action=None, events=[{"a": 1}]
        )
    )
    assert entry.pk and entry.created_at and not entry._state.adding
    stored = TableLogEntry.objects.get(pk=entry.pk)
    assert (stored.seq, stored.kind, stored.at, stored.events, stored.action) == (
        table.seq + 1,
        "deadline",
        T0 + 5,
        [{"a": 1}],
        None,
    )
    with connection.cursor() as cursor:  # SQL NULL, as the ORM stores a None, not JSON null
        cursor.execute("SELECT action IS NULL FROM games_tablelogentry WHERE id = %s", [entry.pk])
        assert cursor.fetchone()[0] in (True, 1)


def test_a_table_that_is_gone_is_an_error(table):
    GameTable.objects.filter(pk=table.pk).delete()
    with pytest.raises(Exception, match="was not there"):
        rows.table_update(table)


def _fields(instance, skip=()):
    return {
        field.attname: getattr(instance, field.attname)
        for field in instance._meta.concrete_fields
        if field.attname not in skip
    }


def test_locked_tables_read_what_the_orm_reads(
    table, class_7b, ms_rivera, ava, ben, django_assert_num_queries
):
    other = started_session(class_7b, ms_rivera, [ava, ben], "lineit", now=T0).tables.get()
    GameTable.objects.filter(pk=table.pk).update(deadline=T0 + 9.5, outcome={"winner": "s1"})
    with transaction.atomic():
        with django_assert_num_queries(1):
            read = rows.locked_tables({other.pk, table.pk, 10**9})  # a table that is not there: left out
            assert [each.session.game for each in read] == ["wordup", "lineit"]  # no query for the sessions
        orm = list(
            GameTable.objects.select_for_update()
            .defer("config")
            .select_related("session")
            .filter(pk__in=[table.pk, other.pk])
            .order_by("pk")
        )
    assert [_fields(each, skip={"config"}) for each in read] == [
        _fields(each, skip={"config"}) for each in orm
    ]
    assert [_fields(each.session) for each in read] == [_fields(each.session) for each in orm]
    assert read[0].state is not None and read[0].state["bank"] is orm[0].state["bank"]  # the kept part
    assert read[0].get_deferred_fields() == {"config"} and not read[0]._state.adding
    assert read[0].config == GameTable.objects.get(pk=table.pk).config  # read when asked for, as the ORM


def test_locked_tables_of_none_reads_nothing(django_assert_num_queries):
    with django_assert_num_queries(0):
        assert rows.locked_tables([]) == []


def test_on_postgresql_a_moves_statements_are_prepared_once_run_often(table):
    """Their values travel apart from the statement, so PostgreSQL plans each once per connection."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's prepared statements")
    for _move in range(6):
        with transaction.atomic():
            (locked,) = rows.locked_tables([table.pk])
            locked.seq += 1
            rows.table_update(locked)
            rows.entries_insert([TableLogEntry(table=locked, seq=locked.seq, kind="deadline", at=T0)])
            rows.logged_keys({(table.pk, "p", "k")})
        rows.due_table_ids(T0)  # (the clock's, several times a second)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [statement for (statement,) in cursor.fetchall()]
    assert any(statement.startswith('UPDATE "games_gametable"') for statement in prepared)
    assert any(statement.startswith('INSERT INTO "games_tablelogentry"') for statement in prepared)
    assert any(statement.startswith("SELECT") and "FOR NO KEY UPDATE" in statement for statement in prepared)
    assert any(statement.startswith("WITH wanted") for statement in prepared)
    assert any('WHERE ("deadline" <= $1' in statement for statement in prepared)
    assert GameTable.objects.get(pk=table.pk).seq == locked.seq


def test_a_log_entry_twice_is_the_orms_integrity_error(table):
    """The moves' own cursor reports a database error as Django's, as the ORM's cursor does."""
    from django.db import IntegrityError

    entry = {
        "table": table,
        "seq": table.seq + 1,
        "kind": "action",
        "at": T0,
        "player": "p",
        "idempotency_key": "k",
    }
    rows.entries_insert([TableLogEntry(**entry)])
    with pytest.raises(IntegrityError), transaction.atomic():
        rows.entries_insert([TableLogEntry(**entry)])


def _entry(table, seq, key="k"):
    return TableLogEntry(
        table=table, seq=seq, kind="action", at=T0 + seq, player="p", action={"n": seq}, idempotency_key=key
    )


@pytest.mark.parametrize("count", [1, 3, 5], ids=["one entry", "three", "more than one insert holds"])
def test_a_tables_update_with_its_entries_stores_both(table, monkeypatch, count):
    monkeypatch.setattr(rows, "ENTRIES_PER_INSERT", 4)
    entries = [_entry(table, table.seq + n, key=f"k{n}") for n in range(1, count + 1)]
    table.seq += count
    table.state = {**table.state, "turn": 7}
    rows.table_update_with_entries(table, entries)
    stored = GameTable.objects.get(pk=table.pk)
    assert (stored.seq, stored.state["turn"]) == (table.seq, 7)
    logged = TableLogEntry.objects.filter(table=table, seq__gt=table.seq - count).order_by("seq")
    assert [(e.seq, e.action, e.idempotency_key) for e in logged] == [
        (e.seq, e.action, e.idempotency_key) for e in entries
    ]
    assert all(not entry._state.adding for entry in entries)


def test_on_postgresql_a_tables_update_and_its_entries_are_one_statement(table):
    """A trip of moves writes each table with one round trip, not two."""
    from django.test.utils import CaptureQueriesContext

    if connection.vendor != "postgresql":
        pytest.skip("a data-modifying WITH is PostgreSQL's")
    table.seq += 1
    with CaptureQueriesContext(connection) as queries:
        rows.table_update_with_entries(table, [_entry(table, table.seq)])
    # (a part of the state shared by many tables, seen for the first time, is stored apart)
    written = [q["sql"] for q in queries.captured_queries if "games_sharedstatepart" not in q["sql"]]
    assert len(written) == 1 and written[0].startswith("WITH logged AS (INSERT")
    assert GameTable.objects.get(pk=table.pk).seq == table.seq


def test_a_tables_update_whose_entry_is_logged_already_is_an_integrity_error_and_changes_nothing(table):
    from django.db import IntegrityError

    rows.entries_insert([_entry(table, table.seq + 1, key="same")])
    before = GameTable.objects.get(pk=table.pk).seq
    table.seq += 2
    with pytest.raises(IntegrityError), transaction.atomic():
        rows.table_update_with_entries(table, [_entry(table, table.seq, key="same")])
    assert GameTable.objects.get(pk=table.pk).seq == before


def test_a_tables_update_with_its_entries_of_a_table_that_is_gone_is_an_error(table):
    GameTable.objects.filter(pk=table.pk).delete()
    with pytest.raises(Exception, match="was not there"), transaction.atomic():
        rows.table_update_with_entries(table, [])
