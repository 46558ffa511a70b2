"""Calling the services from a browser test: Playwright's sync API runs an event loop in the test's
thread, where Channels' ``async_to_sync`` (the broadcast after each commit) refuses to run, so the
screens would never hear of the change. ``call`` runs it in a thread of its own, as a request would."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

from django.db import OperationalError, connection

ATTEMPTS = 100


def call(function, /, *args, **kwargs):
    """``call(services.session_end, session=..., by=...)``: the function's result (or its exception)."""

    def run():
        # The test database may be SQLite's shared memory: a write meeting the server's read of the same
        # table is refused at once ("table is locked"), and tried again, as the game clock does.
        try:
            for attempt in range(ATTEMPTS):
                try:
                    return function(*args, **kwargs)
                except OperationalError as error:
                    if "locked" not in str(error) or attempt == ATTEMPTS - 1:
                        raise
                    time.sleep(0.05)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()
