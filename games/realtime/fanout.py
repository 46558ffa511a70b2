"""Per-process fan-out: one channel-layer message per server process, then a local loop of sends.

A naive ``group_send`` to 2000 consumers costs one channel-layer delivery and one database read per
consumer (measured ~1.5 s on uvicorn; see DESIGN.md). Instead each process keeps a registry of its own
connections per session and subscribes ONE process channel to the session's group. When a change
arrives, the hub reads the table (or the session) once, then sends every local connection its own view.

The hub lives on the event loop that serves the websockets; all database reads go through
``database_sync_to_async`` so the loop never blocks on the ORM.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from typing import TYPE_CHECKING, Any

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from .. import selectors
from ..broadcast import session_group

if TYPE_CHECKING:
    from .consumers import GameConsumer

logger = logging.getLogger(__name__)
#: Sends run concurrently in batches, so one slow device never holds up the rest of the class.
SEND_BATCH = 500
THROTTLE_SECONDS = 0.25


class SessionHub:
    """Every local connection of every session this process serves, and one channel-layer subscription."""

    def __init__(self):
        self.layer = get_channel_layer()
        self.channel: str | None = None
        self.sessions: dict[int, set[GameConsumer]] = defaultdict(set)
        self.reader: asyncio.Task | None = None
        self.lock = asyncio.Lock()
        self.pending: dict[int, dict] = {}

    async def join(self, consumer: GameConsumer) -> None:
        async with self.lock:
            if self.channel is None:
                self.channel = await self.layer.new_channel("classplay.hub.")
                self.reader = asyncio.get_running_loop().create_task(self._read())
            session_id = consumer.session_id
            if not self.sessions[session_id]:
                await self.layer.group_add(session_group(session_id), self.channel)
            self.sessions[session_id].add(consumer)

    async def leave(self, consumer: GameConsumer) -> None:
        async with self.lock:
            local = self.sessions.get(consumer.session_id)
            if local is None:
                return
            local.discard(consumer)
            if not local:
                del self.sessions[consumer.session_id]
                await self.layer.group_discard(session_group(consumer.session_id), self.channel)

    async def _read(self) -> None:
        while True:
            try:
                message = await self.layer.receive(self.channel)
                await self.dispatch(message)
            except asyncio.CancelledError:
                raise
            except Exception:  # one bad message must not stop every session's updates
                logger.exception("session hub failed to deliver a message")

    async def dispatch(self, message: dict[str, Any]) -> None:
        consumers = list(self.sessions.get(message.get("session"), ()))
        if not consumers:
            return
        kind = message.get("type")
        if kind == "table.changed":
            await self._table_changed(message, consumers)
        elif kind in ("session.changed", "presence.changed"):
            self._throttle(message["session"], staff_only=kind == "presence.changed")

    def _throttle(self, session_id: int, *, staff_only: bool) -> None:
        """Session and presence changes come in bursts (a class joining at once): send the first at once,
        then at most one more per THROTTLE_SECONDS with the latest state, so a burst of n joins never
        costs n full snapshots for every connection."""
        pending = self.pending.get(session_id)
        if pending is not None:
            pending["staff_only"] = pending["staff_only"] and staff_only
            pending["quiet"] = False
            return
        self.pending[session_id] = {"staff_only": staff_only}
        asyncio.get_running_loop().create_task(self._flush(session_id))

    async def _flush(self, session_id: int) -> None:
        try:
            while session_id in self.pending:
                staff_only = self.pending[session_id]["staff_only"]
                self.pending[session_id] = {"staff_only": True, "quiet": True}
                consumers = list(self.sessions.get(session_id, ()))
                if consumers:
                    if staff_only:
                        await self._presence_changed(session_id, consumers)
                    else:
                        await self._session_changed(session_id, consumers)
                await asyncio.sleep(THROTTLE_SECONDS)
                if self.pending.get(session_id, {}).get("quiet"):
                    del self.pending[session_id]
        except Exception:
            self.pending.pop(session_id, None)
            logger.exception("session hub failed to send a session update")

    async def _table_changed(self, message: dict, consumers: list[GameConsumer]) -> None:
        table = await database_sync_to_async(selectors.table_for_fanout)(message["table"])
        if table is None:
            return
        watchers = [c for c in consumers if c.may_watch(table.pk)]
        payloads = await database_sync_to_async(_views_for)(table, [c.engine_viewer() for c in watchers])
        pairs = zip(watchers, payloads, strict=True)
        await _send_all([(consumer, {"type": "table", **payload}) for consumer, payload in pairs])

    async def _session_changed(self, session_id: int, consumers: list[GameConsumer]) -> None:
        snapshot = await database_sync_to_async(selectors.session_snapshot)(session_id)
        if snapshot is None:
            return
        for consumer in consumers:
            consumer.adopt_seat(snapshot.seats)
        sends = []
        views = await database_sync_to_async(_snapshot_views)(snapshot, consumers)
        for consumer, tables in zip(consumers, views, strict=True):
            summary = {"type": "session", "session": snapshot.summary_for(consumer.role), **consumer.me()}
            sends.append((consumer, summary))
            sends += [(consumer, {"type": "table", **payload}) for payload in tables]
        await _send_all(sends)

    async def _presence_changed(self, session_id: int, consumers: list[GameConsumer]) -> None:
        staff = [c for c in consumers if c.role in ("teacher", "projector")]
        if not staff:
            return
        snapshot = await database_sync_to_async(selectors.session_snapshot)(session_id)
        if snapshot is not None:
            await _send_all([(c, {"type": "session", "session": snapshot.summary}) for c in staff])


def _views_for(table, viewers: list[dict]) -> list[dict]:
    """Each viewer's view, computed once per distinct viewer (a whole projector wall shares one)."""
    cache: dict[tuple, dict] = {}
    out = []
    for viewer in viewers:
        key = tuple(sorted(viewer.items()))
        if key not in cache:
            cache[key] = selectors.table_view(table, viewer)
        out.append(cache[key])
    return out


def views_of(snapshot, table_ids: list[int], viewer: dict) -> list[dict]:
    return [selectors.table_view(snapshot.tables[table_id], viewer) for table_id in table_ids]


def _snapshot_views(snapshot, consumers: list[GameConsumer]) -> list[list[dict]]:
    by_table: dict[int, list[tuple[int, dict]]] = defaultdict(list)
    for index, consumer in enumerate(consumers):
        for table_id in snapshot.table_ids:
            if consumer.may_watch(table_id):
                by_table[table_id].append((index, consumer.engine_viewer()))
    out: list[list[dict]] = [[] for _consumer in consumers]
    for table_id, wanted in by_table.items():
        views = _views_for(snapshot.tables[table_id], [viewer for _index, viewer in wanted])
        for (index, _viewer), view in zip(wanted, views, strict=True):
            out[index].append(view)
    return out


async def _send_all(sends: list[tuple[GameConsumer, dict]]) -> None:
    for start in range(0, len(sends), SEND_BATCH):
        batch = sends[start : start + SEND_BATCH]
        await asyncio.gather(*(consumer.push(payload) for consumer, payload in batch), return_exceptions=True)


_hubs: dict[int, SessionHub] = {}


def hub() -> SessionHub:
    """The hub of the running event loop (tests run several loops; a server has one)."""
    loop = asyncio.get_running_loop()
    key = id(loop)
    current = _hubs.get(key)
    if current is None or current.loop_ref is not loop:
        current = SessionHub()
        current.loop_ref = loop
        _hubs[key] = current
    return current
