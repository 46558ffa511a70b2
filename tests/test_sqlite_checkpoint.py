"""The embedded server copies SQLite's write-ahead log back into the database on a thread of its own: a
writer's commit no longer does it (9-16 ms, three times a second with 1000 homework games, while every
other writer of the process waited for its turn)."""

import asyncio
import sqlite3
import threading

import pytest
from django.db import connection, connections

import config.asgi
from config.sqlite import base as sqlite_backend
from games.models import Heartbeat

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def database_file():
    if connection.vendor != "sqlite":
        pytest.skip("the embedded server's SQLite backend")
    return str(connection.settings_dict["NAME"])


def _autocheckpoint_of_a_new_connection() -> int:
    """``PRAGMA wal_autocheckpoint`` as a connection opened now sees it (a thread's own connection)."""
    found = []

    def look():
        try:
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA wal_autocheckpoint")
                found.append(cursor.fetchone()[0])
        finally:
            connections.close_all()

    thread = threading.Thread(target=look)
    thread.start()
    thread.join()
    return found[0]


def test_while_the_checkpointer_runs_the_process_commits_make_no_checkpoint(database_file):
    assert _autocheckpoint_of_a_new_connection() == 1000  # SQLite's own
    checkpointer = sqlite_backend.Checkpointer(database_file, every=3600).start()
    try:
        assert _autocheckpoint_of_a_new_connection() == 0
    finally:
        checkpointer.stop()
    assert _autocheckpoint_of_a_new_connection() == 1000


def test_the_checkpointer_copies_the_log_back_into_the_database(database_file, monkeypatch):
    done = []
    real = sqlite_backend.Checkpointer.checkpoint
    monkeypatch.setattr(
        sqlite_backend.Checkpointer, "checkpoint", staticmethod(lambda database: done.append(real(database)))
    )
    checkpointer = sqlite_backend.Checkpointer(database_file, every=0.01).start()
    try:
        Heartbeat.beat("clock")  # pages in the log
        for _tick in range(200):
            if any(busy == 0 and logged > 0 and copied == logged for busy, logged, copied in done):
                break
            threading.Event().wait(0.01)
    finally:
        checkpointer.stop()
    assert any(busy == 0 and logged > 0 and copied == logged for busy, logged, copied in done), done


def test_a_checkpointer_never_makes_a_database_that_is_not_there(tmp_path):
    missing = tmp_path / "gone.sqlite3"
    checkpointer = sqlite_backend.Checkpointer(str(missing), every=0.01).start()
    checkpointer.thread.join(5)
    assert not missing.exists() and str(missing) not in sqlite_backend._checkpointed


def test_a_failed_checkpoint_is_tried_again_at_the_next_tick(tmp_path):
    broken = sqlite3.connect(tmp_path / "x.sqlite3")
    broken.close()
    assert sqlite_backend.Checkpointer.checkpoint(broken) == (1, -1, -1)


def test_the_server_runs_the_checkpointer_from_its_start_to_its_stop(database_file, monkeypatch, settings):
    settings.REDIS_URL, settings.CLASSPLAY_CLOCK_IN_PROCESS, settings.CLASSPLAY_GC_FULL_SECONDS = "", False, 0
    monkeypatch.setattr(config.asgi, "free_seats_of_the_last_run", lambda: 0)
    monkeypatch.setattr(config.asgi.gc, "freeze", lambda: None)
    monkeypatch.setattr(config.asgi.gc, "set_threshold", lambda *thresholds: None)
    seen_while_serving = []

    async def serve():
        messages = iter([{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}])

        async def receive():
            message = next(messages)
            if message["type"] == "lifespan.shutdown":
                seen_while_serving.append(database_file in sqlite_backend._checkpointed)
            return message

        async def send(message):
            pass

        await config.asgi.application({"type": "lifespan"}, receive, send)

    asyncio.run(serve())
    assert seen_while_serving == [True]
    assert database_file not in sqlite_backend._checkpointed
