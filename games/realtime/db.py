"""The live runtime's database calls: Channels' ``database_sync_to_async`` (every ORM call of a server
process on one thread), except that with SQLite, the embedded server's database, that thread keeps its
connection open between calls.

Channels closes the connection around every call, and with ``CONN_MAX_AGE`` at 0 each call opened a
new one (a file handle and the WAL pragma): a quarter of that thread's time in a benchmark of 200 students
playing homework. The thread lives as long as the server, so its one connection is never a leak; one
on which a call failed is replaced, as before. PostgreSQL's connections come from
the process's pool and go back to it after each call (other threads borrow them too).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from channels.db import database_sync_to_async as _channels_database_sync_to_async
from django.db import connections


def database_sync_to_async(function: Callable[..., Any]):
    @functools.wraps(function)
    def keeping_connection(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        finally:
            _keep_open()

    return _channels_database_sync_to_async(keeping_connection)


def _keep_open() -> None:
    for connection in connections.all(initialized_only=True):
        if connection.vendor != "sqlite" or connection.connection is None:
            continue
        # Kept (never obsolete to close_old_connections), unless a call on it failed: then it is closed
        # after this call and the next opens a new one, as Django does with CONN_MAX_AGE at 0.
        connection.close_at = 0.0 if connection.errors_occurred else None
