"""Calls of many connections that arrive together share one trip to the database thread.

Channels runs every ORM call on one thread. When a class's devices (re)connect at once, each used to make
its own trips there (who is this device, which seat, the seat's claim), one after another: 2000 devices
queued some 10,000 trips. A :class:`Trips` queues the calls that arrive while its trip is running, and the
next trip takes all of them to one function that answers the whole list (one query for many). A lone call
goes at once, as before.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from .db import database_sync_to_async

Item = TypeVar("Item")
Result = TypeVar("Result")
#: At most this many calls in one trip (a bound on how long one trip holds the database thread).
MAX_TRIP = 500


class Trips(Generic[Item, Result]):
    """``await trips.call(item)``: the result ``answer([..., item, ...])`` gave for ``item``.

    ``answer`` runs on the database thread and returns one result per item, in order. If it raises,
    every call of that trip raises the same error."""

    def __init__(self, answer: Callable[[list[Item]], list[Result]]) -> None:
        self.answer = answer
        self.waiting: list[tuple[Item, asyncio.Future]] = []
        self.running: asyncio.Task | None = None

    async def call(self, item: Item) -> Result:
        future = asyncio.get_running_loop().create_future()
        self.waiting.append((item, future))
        if self.running is None:
            self.running = asyncio.get_running_loop().create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        try:
            while self.waiting:
                trip, self.waiting = self.waiting[:MAX_TRIP], self.waiting[MAX_TRIP:]
                await self._go(trip)
        finally:
            self.running = None

    async def _go(self, trip: list[tuple[Item, asyncio.Future]]) -> None:
        try:
            results = await database_sync_to_async(self.answer)([item for item, _future in trip])
        except Exception as error:  # every caller of this trip hears it
            for _item, future in trip:
                if not future.done():
                    future.set_exception(error)
            return
        for (_item, future), result in zip(trip, results, strict=True):
            if not future.done():  # the connection may have gone meanwhile
                future.set_result(result)


_TRIPS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[Callable, Trips]] = (
    weakref.WeakKeyDictionary()
)


def trips(answer: Callable[[list[Any]], list[Any]]) -> Trips:
    """The running event loop's queue for ``answer`` (one per server process; tests run several loops)."""
    per_loop = _TRIPS.setdefault(asyncio.get_running_loop(), {})
    if answer not in per_loop:
        per_loop[answer] = Trips(answer)
    return per_loop[answer]
