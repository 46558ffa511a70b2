"""Actions arriving together are applied together, many tables in one trip to the database thread.

The moves have a database thread of their own (``db.moves_sync_to_async``; Channels runs every other ORM
call of a server process on one thread), and handing it work costs the event loop far more than the
work itself when it is small (one homework move: a row lock, a log entry, a save). So
the consumers of a process queue their actions here: while one trip is on the database thread, what
arrives waits, and the next trip takes all of it, for every table at once (``services.tables_actions_submit``:
one transaction, a savepoint per table; per table one row lock, each action still its own log entry,
sequence number and ack or refusal, the state stored once). A lone action goes at once, as before.

A table whose batch fails (it is gone, or any error of its own) is rolled back alone: its consumers get
the error, the other tables' actions are committed and acknowledged. The trip's broadcasts are collected
(``broadcast.collected``) and sent from here after the commit, all together, and the tables as committed
go to this process's fan-out at once (which then need not read them again, nor wait for their
announcement to come back through the channel layer). The trip's learning facts are queued for the
worker from a thread of their own, after the acknowledgements (``facts_publisher``).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any

from .. import broadcast, services
from ..services.log import HeldFacts, facts_held, facts_publisher
from . import fanout
from .db import moves_sync_to_async

logger = logging.getLogger(__name__)

#: At most this many actions of one table in one trip (a bound on how long its row lock is held).
MAX_BATCH = 200
#: At most this many tables in one trip (a bound on how long the trip's transaction lasts).
MAX_TABLES = 100

Waiting = list[tuple[services.Submission, asyncio.Future]]


class TableBatcher:
    def __init__(self) -> None:
        self._waiting: dict[int, Waiting] = {}
        self._draining: asyncio.Task | None = None

    async def submit(self, table_id: int, submission: services.Submission) -> Any:
        """The action's outcome: a :class:`services.ActionResult` or a :class:`services.ActionRefused`.
        Raises whatever its table's batch raised (e.g. ``GameTable.DoesNotExist``)."""
        future = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(table_id, []).append((submission, future))
        if self._draining is None:
            self._draining = asyncio.create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        try:
            while self._waiting:
                await self._trip(self._take())
        finally:
            self._draining = None

    def _take(self) -> dict[int, Waiting]:
        """The next trip's work: up to MAX_BATCH actions of each of up to MAX_TABLES tables, in the order
        the tables first had something waiting (what is left goes on the next trip)."""
        trip: dict[int, Waiting] = {}
        for table_id in list(self._waiting)[:MAX_TABLES]:
            queue = self._waiting.pop(table_id)
            trip[table_id] = queue[:MAX_BATCH]
            if len(queue) > MAX_BATCH:
                self._waiting[table_id] = queue[MAX_BATCH:]  # to the back of the line
        return trip

    async def _trip(self, trip: dict[int, Waiting]) -> None:
        batches = {
            table_id: [submission for submission, _future in batch] for table_id, batch in trip.items()
        }
        try:
            outcomes, collection, facts = await moves_sync_to_async(_apply)(batches)
        except Exception as error:  # the whole trip failed (nothing was committed): every action hears it
            outcomes, collection, facts = dict.fromkeys(trip, error), None, None
        try:
            for table_id, batch in trip.items():
                _settle(batch, outcomes[table_id])
            if facts is not None:  # (queued on its own thread: the broadcasts' round trips are not awaited)
                facts_publisher.hand_over(facts)
            if collection is not None:
                told = fanout.hub().committed_here(collection)
                await broadcast.send_collected(collection, told)
        except Exception as error:  # a fault here must leave no consumer waiting, nor stop the batcher
            logger.exception("a trip's outcomes could not all be handed out")
            for batch in trip.values():
                _settle(batch, error)


def _apply(batches: dict[int, list[services.Submission]]) -> tuple[dict, broadcast.Collected, HeldFacts]:
    """On the database thread: the trip's transaction, its broadcasts kept for the loop to send and
    its learning facts for the publisher's thread to queue (after the acknowledgements are out)."""
    with broadcast.collected() as collection, facts_held(flush=False) as facts:
        outcomes = services.tables_actions_submit(batches)
    return outcomes, collection, facts


def _settle(batch: Waiting, outcome: list | Exception) -> None:
    """Each waiting consumer gets its action's outcome, or its table's error (the connection reports
    it); a connection that has gone meanwhile no longer waits."""
    if isinstance(outcome, Exception):
        for _submission, future in batch:
            if not future.done():
                future.set_exception(outcome)
        return
    for (_submission, future), result in zip(batch, outcome, strict=True):
        if not future.done():
            future.set_result(result)


_BATCHERS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, TableBatcher] = weakref.WeakKeyDictionary()


def batcher() -> TableBatcher:
    """The batcher of the running event loop (one per server process; tests run several loops)."""
    loop = asyncio.get_running_loop()
    if loop not in _BATCHERS:
        _BATCHERS[loop] = TableBatcher()
    return _BATCHERS[loop]
