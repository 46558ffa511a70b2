"""Per-process fan-out: one channel-layer message per server process, then a local loop of sends.

A naive ``group_send`` to 2000 consumers costs one channel-layer delivery and one database read per
consumer (measured ~1.5 s on uvicorn). Instead each process keeps a registry of its own
connections per session and subscribes ONE process channel to the session's group. When a change
arrives, the hub reads the table (or the session) once, then sends every local connection its own view.
A table this process's own writer just committed is not even read: the writer hands it over
(``keep_committed``).

Large sessions (bench/live_load.py, docs/performance.md) shaped the rest:

* a table's changes are coalesced: while one fan-out of a table runs, further changes of that table
  only mark it dirty, and ONE more fan-out with the latest state follows. Views are whole snapshots
  (the client keeps the newest sequence number), so a burst of n answers never costs n fan-outs;
* a connection is never sent the same view twice: the hub remembers the (sequence number, status,
  viewer) it last sent each connection for each table, so a session update that also carries the
  tables sends only what changed;
* each distinct message is serialised once (msgspec), and only ``server_time`` is added per send;
* views are computed on the hub's own thread, not the database thread, so a fan-out never holds up
  the actions being submitted meanwhile; all of a table's views together (``Engine.views`` builds
  what they share once), staff screens first;
* a session change (a pause, a start) and the tables it moved on reach each device as one message;
* a send runs at once up to its first real wait: only a send that must wait becomes a task.

All database reads go through ``database_sync_to_async``, so the event loop never blocks on the ORM.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from collections.abc import Hashable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import msgspec
from channels.layers import get_channel_layer
from django.db import InterfaceError, OperationalError

from .. import metrics, selectors
from ..broadcast import session_group
from .db import database_sync_to_async
from .trips import trips

if TYPE_CHECKING:
    from .consumers import GameConsumer

logger = logging.getLogger(__name__)
THROTTLE_SECONDS = 0.25
#: The longest a table's next fan-out waits after one that took long (see SessionHub._table_loop).
TABLE_GAP_MAX = 0.25
#: A fan-out to this many devices or more is always followed by its gap (see SessionHub._table_loop).
BIG_FANOUT = 100
#: At most this many committed tables wait in the hub for their fan-out (see SessionHub.keep_committed).
COMMITTED_KEPT = 256
#: After a failed read of the channel layer the hub waits this long, doubling up to the maximum: an outage
#: must not become a loop that burns the server's CPU and floods its log.
READ_RETRY_SECONDS = 0.5
READ_RETRY_MAX_SECONDS = 10.0
#: A table read that fails because the database is out (restarting) is tried again this often, so the
#: devices get the table as soon as the database is back instead of never.
TABLE_READ_RETRY_SECONDS = 1.0
#: How often the hub asks Redis whether it restarted (and so lost the groups the hub had joined).
GROUP_CHECK_SECONDS = 1.0
ENCODER = msgspec.json.Encoder()
#: Views are pure and need no database: they are computed here, off the thread the ORM calls share.
_VIEW_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="classplay-views")


class SessionHub:
    """Every local connection of every session this process serves, and one channel-layer subscription."""

    def __init__(self):
        self.layer = get_channel_layer()
        self.channel: str | None = None
        self.sessions: dict[int, set[GameConsumer]] = defaultdict(set)
        self.reader: asyncio.Task | None = None
        #: With Redis: notices a Redis restart (which loses every group) while connections wait it out
        self.keeper: asyncio.Task | None = None
        self.layer_failed = False
        self.lock = asyncio.Lock()
        self.pending: dict[int, dict] = {}
        #: table id -> True when it changed again while its fan-out was running
        self.table_jobs: dict[int, bool] = {}
        #: per connection: table id -> (seq, status, viewer key) of the last view the hub sent it
        self.sent: dict[GameConsumer, dict[int, tuple]] = {}
        #: per session: the seats of the last snapshot read with every seat (a pause or resume reuses them)
        self.seated: dict[int, selectors.SessionSnapshot] = {}
        #: table id -> the table as a writer of this process just committed it (see keep_committed)
        self.committed: dict[int, Any] = {}
        #: table id -> the highest sequence number announced while its fan-out runs
        self.announced: dict[int, int] = {}
        #: table id -> when the oldest change not yet sent was committed (wall clock: it may be another
        #: process's), for the fan-out lag (games.metrics.FANOUT_LAG)
        self.changed_at: dict[int, float] = {}

    def keep_committed(self, tables) -> None:
        """Tables as the writer on this process's database thread just committed them (state, seq and
        session loaded, never changed again): their fan-out uses them instead of reading them back. Kept
        only for sessions with connections here, until their announcement arrives, and at most
        COMMITTED_KEPT at once: a state is held for every table waiting, and when the fan-out falls behind
        a thousand homework tables wait (the rest are read when their turn comes, as before)."""
        for table in tables:
            if self.sessions.get(table.session_id):
                kept = self.committed.get(table.pk)
                if kept is not None and kept.seq >= table.seq:
                    continue
                if kept is None and len(self.committed) >= COMMITTED_KEPT:
                    continue
                self.committed[table.pk] = table

    def committed_here(self, collection) -> dict[Hashable, str]:
        """A trip of this process's writer committed: its tables go to the fan-out at once, as they were
        committed, instead of after the round trip of their announcement through the channel layer
        (with Redis a send, then this hub's read of its channel). Returns the announcements it took,
        each with this hub's channel: they are still sent, for the other processes' connections, but
        not to this hub (``broadcast.send_collected``), which would only drop them."""
        self.keep_committed(collection.tables.values())
        taken = {}
        for key, (_group, message) in collection.messages.items():
            if message.get("type") == "table.changed" and self.sessions.get(message.get("session")):
                self._table_announced(message)
                taken[key] = self.channel
        return taken

    async def join(self, consumer: GameConsumer) -> None:
        async with self.lock:
            if self.channel is None:
                # The default prefix matters: channels_redis polls one Redis list per process for every
                # "specific." channel; a channel of another prefix would never be read.
                self.channel = await self.layer.new_channel()
                self.reader = asyncio.get_running_loop().create_task(self._read())
                if hasattr(self.layer, "server_run_id"):  # Redis (config.channel_layers.RedisLayer)
                    self.keeper = asyncio.get_running_loop().create_task(self._keep_groups())
            session_id = consumer.session_id
            if not self.sessions[session_id]:
                await self.layer.group_add(session_group(session_id), self.channel)
            self.sessions[session_id].add(consumer)
            if consumer not in self.sent:
                metrics.connection_opened(consumer.role)
            self.sent[consumer] = {}

    async def leave(self, consumer: GameConsumer) -> None:
        async with self.lock:
            if self.sent.pop(consumer, None) is not None:
                metrics.connection_closed(consumer.role)
            local = self.sessions.get(consumer.session_id)
            if local is None:
                return
            local.discard(consumer)
            if not local:
                del self.sessions[consumer.session_id]
                self.seated.pop(consumer.session_id, None)
                for table_id in [
                    t for t, table in self.committed.items() if table.session_id == consumer.session_id
                ]:
                    del self.committed[table_id]
                try:
                    await self.layer.group_discard(session_group(consumer.session_id), self.channel)
                except Exception:  # the layer is out (Redis down): its groups are gone or expire anyway
                    logger.warning("session hub could not leave a session's group", exc_info=True)
            if not self.sessions and self.reader is not None:
                # Nobody left in this process: stop listening, so no receive (and channels_redis's
                # receive lock) outlives the connections; the next connection starts a fresh one.
                self.reader.cancel()
                self.reader, self.channel = None, None
                if self.keeper is not None:
                    self.keeper.cancel()
                    self.keeper = None

    async def _read(self) -> None:
        failures = 0
        while True:
            try:
                # (Redis's layer retries a connection's receive through an outage; the hub wants to know.)
                message = await getattr(self.layer, "receive_once", self.layer.receive)(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception:  # the channel layer is unreachable (Redis down): wait, and try again
                failures += 1
                self.layer_failed = True  # (with Redis, _keep_groups rejoins once it answers)
                wait = min(READ_RETRY_MAX_SECONDS, READ_RETRY_SECONDS * 2 ** (failures - 1))
                logger.exception("session hub cannot read its channel; retrying in %.1f s", wait)
                await asyncio.sleep(wait)
                continue
            if failures:
                failures = 0
                if self.keeper is None:  # with Redis, _keep_groups rejoins once Redis answers
                    await self._resubscribe()
            try:
                await self.dispatch(message)
            except Exception:  # one bad message must not stop every session's updates
                logger.exception("session hub failed to deliver a message")

    async def _keep_groups(self) -> None:
        """Redis was out (this hub or its check could not reach it) or restarted (a new run id, without
        the groups): the connections waited it out, and would hear nothing more of a group Redis lost,
        nor what was broadcast meanwhile. Once Redis answers again, join the groups again and send every
        session afresh."""
        known = None
        while True:
            try:
                run_id = await self.layer.server_run_id()
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis is out: look again at the next check
                self.layer_failed = True
            else:
                restarted = known is not None and run_id != known
                if restarted or self.layer_failed:
                    logger.warning("Redis is back: the session hub joins its sessions' groups again")
                    self.layer_failed = False
                    await self._resubscribe()
                known = run_id
            await asyncio.sleep(GROUP_CHECK_SECONDS)

    async def _resubscribe(self) -> None:
        """After the layer was out: join every local session's group again (a Redis that restarted
        without its data has none), and send every session afresh, since what was broadcast meanwhile
        never arrived (only what a connection has not got yet goes out)."""
        for session_id in list(self.sessions):
            try:
                await self.layer.group_add(session_group(session_id), self.channel)
            except Exception:
                logger.warning("session hub could not join a session's group again", exc_info=True)
            self._throttle(session_id, staff_only=False)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Never waits for a fan-out: the reader must keep draining the channel (a full channel drops
        messages), and changes that arrive during a fan-out are coalesced into the next one."""
        session_id = message.get("session")
        if not self.sessions.get(session_id):
            return
        kind = message.get("type")
        if kind == "table.changed":
            self._table_announced(message)
        elif kind in ("session.changed", "presence.changed"):
            clocks_only = bool(message.get("clocks_only"))
            self._throttle(session_id, staff_only=kind == "presence.changed", clocks_only=clocks_only)

    def _table_announced(self, message: dict[str, Any]) -> None:
        session_id, table_id = message["session"], message["table"]
        self.announced[table_id] = max(self.announced.get(table_id, 0), message.get("seq") or 0)
        changed_at = message.get("at")
        if changed_at is not None:
            self.changed_at[table_id] = min(self.changed_at.get(table_id, changed_at), changed_at)
        self._table_dirty(session_id, table_id)

    def _table_dirty(self, session_id: int, table_id: int) -> None:
        if table_id in self.table_jobs:
            self.table_jobs[table_id] = True  # one more fan-out after the running one, with the latest state
            return
        self.table_jobs[table_id] = False
        asyncio.get_running_loop().create_task(self._table_loop(session_id, table_id))

    async def _table_loop(self, session_id: int, table_id: int) -> None:
        try:
            while True:
                self.table_jobs[table_id] = False
                changed_at = self.changed_at.pop(table_id, None)
                consumers = list(self.sessions.get(session_id, ()))
                started = time.perf_counter()
                sent = 0
                if consumers:
                    sent = await self._table_changed(session_id, table_id, consumers)
                    if sent and changed_at is not None:
                        metrics.FANOUT_LAG.observe(max(0.0, time.time() - changed_at))
                # A table that changed during its fan-out is sent again after a gap as long as the
                # fan-out took (at most TABLE_GAP_MAX), with the latest state: so a burst of moves at a
                # big table (2000 answers in a second) leaves the event loop at least half its time for
                # the moves and their acknowledgements, instead of sending every device the table after
                # every trip. A big fan-out is always followed by its gap: it sends without a pause, so
                # the trips that commit meanwhile are announced just after it. A small table's changes
                # are not held back (its fan-out's wall time, on a busy server, is mostly other work's).
                if sent >= BIG_FANOUT or self.table_jobs.get(table_id):
                    await asyncio.sleep(min(time.perf_counter() - started, TABLE_GAP_MAX))
                if not self.table_jobs.get(table_id):
                    break
        except Exception:
            logger.exception("session hub failed to send a table update")
        finally:
            self.table_jobs.pop(table_id, None)
            self.announced.pop(table_id, None)
            self.changed_at.pop(table_id, None)

    def _throttle(self, session_id: int, *, staff_only: bool, clocks_only: bool = False) -> None:
        """Session and presence changes come in bursts (a class joining at once): send the first at once,
        then at most one more per THROTTLE_SECONDS with the latest state, so a burst of n joins never
        costs n full snapshots for every connection."""
        pending = self.pending.get(session_id)
        if pending is not None:
            pending["staff_only"] = pending["staff_only"] and staff_only
            pending["clocks_only"] = pending["clocks_only"] and clocks_only
            pending["quiet"] = False
            return
        self.pending[session_id] = {"staff_only": staff_only, "clocks_only": clocks_only}
        asyncio.get_running_loop().create_task(self._flush(session_id))

    async def _flush(self, session_id: int) -> None:
        try:
            while session_id in self.pending:
                staff_only = self.pending[session_id]["staff_only"]
                clocks_only = self.pending[session_id]["clocks_only"]
                self.pending[session_id] = {"staff_only": True, "clocks_only": True, "quiet": True}
                consumers = list(self.sessions.get(session_id, ()))
                if consumers:
                    if staff_only:
                        await self._presence_changed(session_id, consumers)
                    else:
                        await self._session_changed(session_id, consumers, clocks_only=clocks_only)
                await asyncio.sleep(THROTTLE_SECONDS)
                if self.pending.get(session_id, {}).get("quiet"):
                    del self.pending[session_id]
        except Exception:
            self.pending.pop(session_id, None)
            logger.exception("session hub failed to send a session update")

    # --- table views ------------------------------------------------------------------------------

    async def _table_changed(self, session_id: int, table_id: int, consumers: list[GameConsumer]) -> int:
        """How many connections were sent the table (each may already have it, from a session update)."""
        # The table as this process's writer committed it, unless a later change was announced (made by
        # another process, or the clock's): then it is read.
        table = self.committed.pop(table_id, None)
        if table is None or table.seq < self.announced.get(table_id, 0):
            table = await self._read_table(session_id, table_id)
        if table is None:
            return 0
        wanted = self._claim(table, consumers)
        await self._deliver(table, wanted)
        return len(wanted)

    async def _read_table(self, session_id: int, table_id: int):
        """The table as it stands; while the database is out, tried again every TABLE_READ_RETRY_SECONDS
        for as long as the session has connections here (None once it has none, or the table is gone)."""
        while True:
            try:
                return await trips(selectors.tables_for_fanout).call(table_id)
            except (OperationalError, InterfaceError):
                logger.warning("session hub cannot read table %s; retrying", table_id, exc_info=True)
            await asyncio.sleep(TABLE_READ_RETRY_SECONDS)
            if not self.sessions.get(session_id):
                return None

    def _claim(self, table, consumers: list[GameConsumer]) -> list[tuple[GameConsumer, tuple]]:
        """The connections still missing this table as it stands (the hub remembers the seq, status and
        viewer it last sent each one), marked as sent at once (no await in between), so a table update
        and a session update racing each other compute each view once."""
        wanted = []
        table_id, seq, status = table.pk, table.seq, table.status
        for consumer in consumers:
            if consumer.may_watch(table_id):
                key = consumer.viewer_key
                sent = self.sent.get(consumer)
                if sent is None:
                    wanted.append((consumer, key))
                    continue
                before = sent.get(table_id)
                if before != (seq, status, key) and (before is None or before[0] <= seq):
                    # (never an older state than the one it has: reads and commits may cross)
                    sent[table_id] = (seq, status, key)
                    wanted.append((consumer, key))
        return wanted

    async def _deliver(self, table, wanted: list[tuple[GameConsumer, tuple]]) -> None:
        """Staff screens first (the teacher's console should never be the last to know), then every
        device; each group's views are built together on the view thread (what they share, once)."""
        staff = [(consumer, key) for consumer, key in wanted if consumer.role != "player"]
        players = [(consumer, key) for consumer, key in wanted if consumer.role == "player"]
        for group in (staff, players):
            if group:
                bodies = await _bodies_for(table, group)
                await _send_all([(consumer, bodies[key]) for consumer, key in group])

    # --- session updates --------------------------------------------------------------------------

    async def _session_changed(
        self, session_id: int, consumers: list[GameConsumer], *, clocks_only: bool = False
    ) -> None:
        seated = self.seated.get(session_id) if clocks_only else None
        snapshot = await read_session(session_id, consumers, seated)
        if snapshot is None:
            return
        if seated is None:
            self.seated[session_id] = snapshot.seats_only()
        for consumer in consumers:
            consumer.adopt_seat(snapshot.seats)
        # The tables this change moved on (a pause, a start) travel with the session in one message per
        # device: half the sends of a session message followed by a table message.
        tables: dict[GameConsumer, list[str]] = defaultdict(list)
        for table in snapshot.tables.values():
            wanted = self._claim(table, consumers)
            if wanted:
                bodies = await _bodies_for(table, wanted)
                for consumer, key in wanted:
                    tables[consumer].append(bodies[key])
        # Each message is put together with one join (a class's worth of copies of a 2 KB string adds up).
        # One head per kind of screen and language: each device reads the session in its own language.
        heads: dict[tuple[str, str], str] = {}
        sends: list[tuple[GameConsumer, str]] = []
        for consumer in sorted(consumers, key=lambda c: c.role == "player"):  # staff screens first
            role = (
                consumer.role if consumer.role in ("teacher", "projector") else "player",
                consumer.language,
            )
            if role not in heads:
                summary = ENCODER.encode(snapshot.summary_for(consumer.role, consumer.language)).decode()
                heads[role] = '{"type":"session","session":' + summary + ","
            me = consumer.me_members()
            opened = tables.get(consumer)
            if opened:
                parts = ['{"type":"bundle","messages":[', heads[role], me, "}"]
                for body in opened:
                    parts += [",", body, "}"]
                parts.append("]")
                sends.append((consumer, "".join(parts)))
            else:
                sends.append((consumer, heads[role] + me))
        await _send_all(sends)

    async def _presence_changed(self, session_id: int, consumers: list[GameConsumer]) -> None:
        staff = [c for c in consumers if c.role in ("teacher", "projector")]
        if not staff:
            return
        snapshot = await read_session(session_id, staff)
        if snapshot is not None:
            self.seated[session_id] = snapshot.seats_only()
            # One body per role and language: the projector's leaves out who has accommodations.
            bodies: dict[tuple[str, str], str] = {}
            for consumer in staff:
                key = (consumer.role, consumer.language)
                if key not in bodies:
                    summary = snapshot.summary_for(consumer.role, consumer.language)
                    bodies[key] = _open(ENCODER.encode({"type": "session", "session": summary}).decode())
            await _send_all([(c, bodies[(c.role, c.language)]) for c in staff])


def read_session(session_id: int, consumers: list[GameConsumer], seated=None) -> asyncio.Future:
    """``selectors.session_snapshot`` for these connections: its sentences in their languages only."""
    languages = {consumer.language for consumer in consumers}
    return database_sync_to_async(selectors.session_snapshot)(session_id, seated, languages)


def _open(body: str) -> str:
    """A serialised message without its closing brace: ``_send_all`` adds the server's time."""
    return body[:-1]


def _table_bodies(table, viewers: dict[tuple, dict]) -> dict[tuple, str]:
    """Each distinct viewer's table message, computed once (a projector wall, the teacher's second tab
    and the console share one). The part of a view that many viewers share (the board every student
    of a Line Up! class sees) is serialised once, and each viewer's own part joined to it."""
    envelope, parts = selectors.table_view_parts(table, list(viewers.values()))
    head = ENCODER.encode({"type": "table", **envelope}).decode()[:-1] + ',"view":{'
    commons: dict = {}
    bodies = {}
    for key, (common_key, common, own) in zip(viewers, parts, strict=True):
        if common_key is None:
            inner = _members(common)
        elif common_key in commons:
            inner = commons[common_key]
        else:
            inner = commons[common_key] = _members(common)
        mine = _members(own)
        bodies[key] = head + (f"{inner},{mine}" if inner and mine else inner or mine) + "}"
    return bodies


def _members(part: dict) -> str:
    """A dict serialised without its braces: its members, to be joined with another's."""
    return ENCODER.encode(part).decode()[1:-1] if part else ""


def _bodies_for(table, wanted: list[tuple[GameConsumer, tuple]]) -> asyncio.Future:
    """The table messages for these connections, by viewer key, built on the view thread."""
    viewers = {}
    for consumer, key in wanted:
        if key not in viewers:
            viewers[key] = consumer.engine_viewer()
    return _in_view_thread(_table_bodies, table, viewers)


def _in_view_thread(function, *args) -> asyncio.Future:
    return asyncio.get_running_loop().run_in_executor(_VIEW_THREAD, function, *args)


def views_of(snapshot, table_ids: list[int], viewer: dict) -> list[dict]:
    return [selectors.table_view(snapshot.tables[table_id], viewer) for table_id in table_ids]


async def _send_all(sends: list[tuple[GameConsumer, str]]) -> None:
    """Every message carries the server's time, as ``GameConsumer.push`` adds it. Each send runs at
    once up to its first real wait (see ``_start_eagerly``); the sends that had to wait are awaited
    together, so one slow device never holds up the rest of the class."""
    waiting = []
    for consumer, body in sends:
        message = {"type": "websocket.send", "text": f'{body},"server_time":{time.time()!r}}}'}
        task = _start_eagerly(consumer.base_send(message))
        if task is not None:
            waiting.append(task)
    if waiting:
        await asyncio.gather(*waiting, return_exceptions=True)


def _start_eagerly(coroutine) -> asyncio.Task | None:
    """Run ``coroutine`` now, up to its first real wait, and only then make it a task (what Python 3.12's
    eager tasks do). Nearly every send finishes without waiting (the socket takes the bytes), and
    creating and scheduling a task for each of 2000 sends was a fifth of a big fan-out's cost. A send
    that must wait (a slow device's full buffer) goes on as a task. Errors (a device that has just
    gone) are dropped, as ``gather(return_exceptions=True)`` did."""
    try:
        awaited = coroutine.send(None)
    except StopIteration:
        return None
    except Exception:  # a failed send to one device must not stop the others
        return None
    task = asyncio.ensure_future(_resume(coroutine, awaited))
    task.add_done_callback(lambda _task: coroutine.close())  # cancelled before its first step too
    return task


async def _resume(coroutine, awaited) -> None:
    """Drive a started coroutine as a task would: wait for what it awaits, then resume it."""
    while True:
        try:
            if awaited is None:  # a bare yield: give the loop one turn
                await asyncio.sleep(0)
            else:
                awaited._asyncio_future_blocking = False
                await asyncio.wait([awaited])
        except BaseException as error:  # this task was cancelled: the coroutine is told, as a task's is
            try:
                awaited = coroutine.throw(error)
            except StopIteration:
                return
            continue
        try:
            awaited = coroutine.send(None)
        except StopIteration:
            return


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
