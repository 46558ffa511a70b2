"""Actions for one table arriving together are applied together.

When a whole class answers in the same second, each answer used to be its own transaction on the one
thread Channels runs every ORM call on, and each re-read and re-wrote the table's whole state. Here the
consumers of one server process queue their actions per table: while one batch is being applied, the
actions that arrive wait, and the next batch takes all of them (``services.actions_submit``: one row lock,
each action still its own log entry, sequence number and ack, the state stored once). A lone action is
applied at once, as before.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

from channels.db import database_sync_to_async

from .. import services

#: At most this many actions in one transaction (a bound on how long the row lock is held).
MAX_BATCH = 200


class TableBatcher:
    def __init__(self) -> None:
        self._waiting: dict[int, list[tuple[services.Submission, asyncio.Future]]] = {}
        self._draining: dict[int, asyncio.Task] = {}

    async def submit(self, table_id: int, submission: services.Submission) -> Any:
        """The action's outcome: a :class:`services.ActionResult` or a :class:`services.ActionRefused`.
        Raises whatever the batch raised (e.g. ``GameTable.DoesNotExist``)."""
        future = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(table_id, []).append((submission, future))
        if table_id not in self._draining:
            self._draining[table_id] = asyncio.create_task(self._drain(table_id))
        return await future

    async def _drain(self, table_id: int) -> None:
        try:
            while self._waiting.get(table_id):
                queue = self._waiting[table_id]
                batch, self._waiting[table_id] = queue[:MAX_BATCH], queue[MAX_BATCH:]
                await self._apply(table_id, batch)
        finally:
            self._waiting.pop(table_id, None)
            self._draining.pop(table_id, None)

    async def _apply(self, table_id: int, batch: list[tuple[services.Submission, asyncio.Future]]) -> None:
        try:
            outcomes = await database_sync_to_async(services.actions_submit)(
                table_id=table_id, submissions=[submission for submission, _future in batch]
            )
        except Exception as error:  # handed to every waiting consumer, whose connection reports it
            for _submission, future in batch:
                if not future.done():
                    future.set_exception(error)
            return
        for (_submission, future), outcome in zip(batch, outcomes, strict=True):
            if not future.done():  # the connection may have gone meanwhile
                future.set_result(outcome)


_BATCHERS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, TableBatcher] = weakref.WeakKeyDictionary()


def batcher() -> TableBatcher:
    """The batcher of the running event loop (one per server process; tests run several loops)."""
    loop = asyncio.get_running_loop()
    if loop not in _BATCHERS:
        _BATCHERS[loop] = TableBatcher()
    return _BATCHERS[loop]
