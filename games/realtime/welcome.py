"""The snapshot a device gets when it connects or says hello, for many devices of a session at once.

Each connecting device used to read the session and its table on the database thread and compute its
own view there: when a class (re)connects at once, thousands of reads and views, one after another.
Here the devices of one session that connect (or say hello) while a snapshot is being read wait for
the next one, which reads the session once for all of them (``selectors.players_snapshot``), builds
their views together on the hub's view thread (what they share, once: ``Engine.views``) and sends each
message through the fan-out's path (serialised once per distinct view).

The fan-out hub remembers what it sent each connection (``SessionHub.sent``); a snapshot marks what it
sends there too, so a table update racing a connection's first snapshot never sends one view twice,
and a snapshot never sends a view older than one the fan-out has already sent.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import TYPE_CHECKING

from .. import selectors
from . import fanout
from .db import database_sync_to_async

if TYPE_CHECKING:
    from .consumers import GameConsumer

ENCODER = fanout.ENCODER

#: (consumer, the tables' sequence numbers the client holds or None for a first snapshot, its future)
Waiting = tuple["GameConsumer", "dict[str, int] | None", asyncio.Future]


class Welcomer:
    def __init__(self) -> None:
        self.waiting: dict[int, list[Waiting]] = {}
        self.running: dict[int, asyncio.Task] = {}

    async def snapshot(self, consumer: GameConsumer, last_seq: dict[str, int] | None) -> None:
        """Send ``consumer`` the session and every table it may see (after a hello: those whose sequence
        number differs from ``last_seq``); a session that is gone closes the connection (4404)."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        session_id = consumer.session_id
        self.waiting.setdefault(session_id, []).append((consumer, last_seq, future))
        if session_id not in self.running:
            self.running[session_id] = loop.create_task(self._drain(session_id))
        await future

    async def _drain(self, session_id: int) -> None:
        try:
            while self.waiting.get(session_id):
                batch = self.waiting.pop(session_id)
                try:
                    await self._send(session_id, batch)
                except Exception as error:
                    for _consumer, _last_seq, future in batch:
                        if not future.done():
                            future.set_exception(error)
                else:
                    for _consumer, _last_seq, future in batch:
                        if not future.done():
                            future.set_result(None)
        finally:
            self.running.pop(session_id, None)

    async def _send(self, session_id: int, batch: list[Waiting]) -> None:
        players = [consumer for consumer, _last, _future in batch if consumer.role == "player"]
        staff = [consumer for consumer, _last, _future in batch if consumer.role != "player"]
        last_seqs = {consumer: last_seq for consumer, last_seq, _future in batch}
        if players:
            ids = [consumer.participant_id for consumer in players]
            snapshot = await database_sync_to_async(selectors.players_snapshot)(session_id, ids)
            await self._send_snapshot(snapshot, players, last_seqs)
        if staff:
            snapshot = await fanout.read_session(session_id, staff)
            await self._send_snapshot(snapshot, staff, last_seqs)

    async def _send_snapshot(
        self, snapshot, consumers: list[GameConsumer], last_seqs: dict[GameConsumer, dict | None]
    ) -> None:
        if snapshot is None:
            for consumer in consumers:
                await consumer.close(code=4404)
            return
        heads: dict[tuple[str | None, str], str] = {}
        sends = []
        for consumer in consumers:
            consumer.adopt_seat(snapshot.seats)
            head = (consumer.role, consumer.language)
            if head not in heads:
                summary = ENCODER.encode(snapshot.summary_for(consumer.role, consumer.language)).decode()
                heads[head] = '{"type":"session","session":' + summary + ","
            sends.append((consumer, heads[head] + consumer.me_members()))
        await fanout._send_all(sends)
        hub = fanout.hub()
        for table in snapshot.tables.values():
            wanted = _wanted(hub, table, consumers, last_seqs)
            if wanted:
                bodies = await fanout._bodies_for(table, wanted)
                await fanout._send_all([(consumer, bodies[key]) for consumer, key in wanted])


def _wanted(hub, table, consumers: list[GameConsumer], last_seqs: dict) -> list[tuple[GameConsumer, tuple]]:
    """The connections this table's view goes to, marked as sent in the hub (no await in between)."""
    wanted = []
    table_id, seq, status = table.pk, table.seq, table.status
    for consumer in consumers:
        sent = hub.sent.get(consumer)
        if sent is None or not consumer.may_watch(table_id):  # gone meanwhile, or not its table
            continue
        key = consumer.viewer_key
        before = sent.get(table_id)
        if before is not None and before[0] > seq:  # the fan-out has already sent a newer one
            continue
        last_seq = last_seqs.get(consumer)
        # after a hello, what the client says it holds; on connecting, what the hub has sent it
        skip = last_seq.get(str(table_id)) == seq if last_seq is not None else before == (seq, status, key)
        sent[table_id] = (seq, status, key)
        if not skip:
            wanted.append((consumer, key))
    return wanted


_WELCOMERS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Welcomer] = weakref.WeakKeyDictionary()


def welcomer() -> Welcomer:
    """The running event loop's (one per server process; tests run several loops)."""
    loop = asyncio.get_running_loop()
    if loop not in _WELCOMERS:
        _WELCOMERS[loop] = Welcomer()
    return _WELCOMERS[loop]
