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
