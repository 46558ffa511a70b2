"""The live runtime's database thread keeps its SQLite connection between calls (opening one per call
was a quarter of that thread's work); PostgreSQL's goes back to the pool after each call."""

import pytest
from django.db import connection

from games.realtime.db import database_sync_to_async


def _raw_connection():
    connection.ensure_connection()
    return connection.connection


def _still_open() -> bool:
    return connection.connection is not None


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_database_thread_keeps_its_sqlite_connection_between_calls():
    first = await database_sync_to_async(_raw_connection)()
    second = await database_sync_to_async(_raw_connection)()
    kept = await database_sync_to_async(_still_open)()
    if connection.vendor == "sqlite":
        assert second is first and kept
    else:
        assert not kept  # back in the pool


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_after_a_database_error_the_next_call_has_a_new_connection():
    from django.db import DatabaseError

    first = await database_sync_to_async(_raw_connection)()

    def fails():
        with connection.cursor() as cursor:
            cursor.execute("SELECT * FROM no_such_table")

    with pytest.raises(DatabaseError):
        await database_sync_to_async(fails)()
    fresh = await database_sync_to_async(_raw_connection)()
    assert fresh is not first
