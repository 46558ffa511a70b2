"""The live runtime's database calls: Channels' ``database_sync_to_async`` (every ORM call of a server
process on one thread), except that with SQLite, the embedded server's database, that thread keeps its
connection open between calls.

Channels closes the connection around every call, and with ``CONN_MAX_AGE`` at 0 each call opened a
new one (a file handle and the WAL pragma): a quarter of that thread's time in a benchmark of 200 students
playing homework. The thread lives as long as the server, so its one connection is never a leak; one
on which a call failed is replaced, as before. PostgreSQL's connections come from
the process's pool and go back to it after each call (other threads borrow them too).

The students' moves (``batching``) have a database thread of their own (:func:`moves_sync_to_async`):
on Channels' one thread they queued behind whatever else the process's devices asked for, and when a
whole class connects at once (each connection: a seat, a resumed attempt, a snapshot) a move waited
there for a second.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from channels.db import DatabaseSyncToAsync
from channels.db import database_sync_to_async as _channels_database_sync_to_async
from django.db import connections


def database_sync_to_async(function: Callable[..., Any]):
    return _channels_database_sync_to_async(_keeping_connection(function))


def moves_sync_to_async(function: Callable[..., Any]):
    """:func:`database_sync_to_async` on the process's moves thread: one thread, so the moves' trips
    still run one at a time and in order, with its own connection, as every other database call."""
    return DatabaseSyncToAsync(
        _keeping_connection(function), thread_sensitive=False, executor=_moves_thread()
    )


_moves_executor: ThreadPoolExecutor | None = None
_moves_lock = threading.Lock()


def _moves_thread() -> ThreadPoolExecutor:
    global _moves_executor
    with _moves_lock:
        if _moves_executor is None:
            _moves_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="classplay-moves")
        return _moves_executor


def _keeping_connection(function: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(function)
    def keeping_connection(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        finally:
            keep_sqlite_connections()

    return keeping_connection


def keep_sqlite_connections() -> None:
    """After a call: this thread's SQLite connections stay open for the next (the Celery worker's too,
    ``config.celery``); PostgreSQL's go back to the pool as Django decides."""
    for connection in connections.all(initialized_only=True):
        if connection.vendor != "sqlite" or connection.connection is None:
            continue
        # Kept (never obsolete to close_old_connections), unless a call on it failed: then it is closed
        # after this call and the next opens a new one, as Django does with CONN_MAX_AGE at 0.
        connection.close_at = 0.0 if connection.errors_occurred else None
