"""The live runtime's database thread keeps its SQLite connection between calls (opening one per call
was a quarter of that thread's work); PostgreSQL's goes back to the pool after each call."""

import pytest
from django.db import DatabaseError, connection

from games.realtime.db import database_sync_to_async


def _connection_and_whether_kept():
    """This call's connection, and whether it was kept from the call before (never obsolete)."""
    connection.ensure_connection()
    return connection.connection, connection.close_at is None


def _fails():
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM no_such_table")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_database_thread_keeps_its_sqlite_connection_between_calls():
    first, _ = await database_sync_to_async(_connection_and_whether_kept)()
    second, kept = await database_sync_to_async(_connection_and_whether_kept)()
    if connection.vendor == "sqlite":
        assert kept and second is first
    else:
        assert not kept  # borrowed from the pool for each call, and given back


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_after_a_database_error_the_next_call_has_a_new_connection():
    first, _ = await database_sync_to_async(_connection_and_whether_kept)()
    with pytest.raises(DatabaseError):
        await database_sync_to_async(_fails)()
    fresh, kept = await database_sync_to_async(_connection_and_whether_kept)()
    assert not kept
    if connection.vendor == "sqlite":
        assert fresh is not first
