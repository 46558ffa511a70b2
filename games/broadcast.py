"""Telling connected screens that something changed, after the database commit.

One channel-layer message per change goes to the session's group; each server process receives it
once (see games.realtime.fanout) and sends every local connection its own view. Messages carry only
ids, the sequence number and a table change's commit time: no state, so no secret, travels through Redis.

Work done for the event loop (a trip of moves to the database thread, a clock sweep) runs inside
:func:`collected`: its commits' broadcasts are kept, with the tables as committed, and the loop sends
them all at once afterwards (:func:`send_collected`) instead of each commit hook handing its own over to
the loop and waiting for it. A transaction rolled back broadcasts nothing either way (Django drops its
commit hooks).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from . import outbox

SERVICE = "channel layer"


@dataclass
class Collected:
    """The broadcasts of the commits made inside :func:`collected`, the latest per key, in order; and
    the tables those commits wrote, as committed (for this process's own fan-out: never sent anywhere)."""

    messages: dict[Hashable, tuple[str, dict]] = field(default_factory=dict)
    tables: dict[int, Any] = field(default_factory=dict)

    def add(self, group: str, message: dict, key: Hashable, table: Any = None) -> None:
        earlier = self.messages.pop(key, None)  # the same news again: only the latest, at the end
        if earlier is not None and "at" in message and "at" in earlier[1]:
            # (stamped with the first of the commits it stands for: the fan-out lag runs from there)
            message = {**message, "at": min(message["at"], earlier[1]["at"])}
        self.messages[key] = (group, message)
        if table is not None:
            self.tables[table.pk] = table


_collecting = threading.local()


@contextmanager
def collected() -> Iterator[Collected]:
    """Keep the broadcasts of what commits inside (in this thread) instead of sending them; nested, the
    outermost collects."""
    outer = getattr(_collecting, "current", None)
    collection = outer if outer is not None else Collected()
    _collecting.current = collection
    try:
        yield collection
    finally:
        _collecting.current = outer


async def send_collected(collection: Collected, told: dict[Hashable, str] | None = None) -> None:
    """Send what :func:`collected` kept, from the event loop, all together (each as ``_send`` would: a
    channel layer that failed moments ago is not waited on, and the news is sent again later).
    ``told``: news (by key) that a channel of its group already has (this process's session hub, handed
    the trip's tables directly), so is not sent to that channel."""
    layer = get_channel_layer()
    if layer is None or not collection.messages:
        return
    told = told or {}

    def resend(send: tuple[str, dict, str | None]):
        return lambda: async_to_sync(layer.group_send_many)([send])

    # One call for them all: a trip's tables are of many sessions, each news to its own group. Should it
    # fail, each news is kept to be sent again on its own (the latest of its key), as one sent alone is.
    may = [
        (key, send)
        for key, (group, message) in collection.messages.items()
        if outbox.may_try(SERVICE, resend(send := (group, message, told.get(key))), resend_key=key)
    ]
    if not may:
        return
    try:
        await layer.group_send_many([send for _key, send in may])
    except Exception as error:
        (key, send), *rest = may
        outbox.failed(SERVICE, error, resend(send), resend_key=key)
        for key, send in rest:  # kept to be sent again if that marked the layer down
            outbox.may_try(SERVICE, resend(send), resend_key=key)
        return
    outbox.succeeded(SERVICE)


def session_group(session_id: int) -> str:
    return f"classplay.session.{session_id}"


def class_group(classroom_id: int) -> str:
    """The devices of a class's signed-in students (their home page), told when a game opens or ends."""
    return f"classplay.class.{classroom_id}"


def _send(group: str, message: dict, table: Any = None) -> None:
    """Never waits on a channel layer that failed moments ago (see games.outbox)."""
    # The same news again replaces what is waiting (a table's later seq, the session's state).
    key = (group, message.get("type"), message.get("table"))
    collection = getattr(_collecting, "current", None)
    if collection is not None:
        collection.add(group, message, key, table)
        return
    layer = get_channel_layer()
    if layer is not None:
        outbox.attempt(SERVICE, lambda: async_to_sync(layer.group_send)(group, message), resend_key=key)


def _after_commit(session_id: int, message: dict, table: Any = None, *, stamped: bool = False) -> None:
    """Robust: the change is committed whatever happens to its broadcast (Redis down a moment), so the
    move is still acknowledged; screens that missed it catch up on their next update or reconnect.
    ``stamped``: the message says when the commit was (``at``, for the fan-out lag the hubs report)."""

    def send() -> None:
        _send(session_group(session_id), {**message, "at": time.time()} if stamped else message, table)

    transaction.on_commit(send, robust=True)


def class_games_changed(classroom_id: int) -> None:
    """A game of the class opened, ended or was cancelled: the students' devices fetch their list again."""
    message = {"type": "class.games", "classroom": classroom_id}
    transaction.on_commit(lambda: _send(class_group(classroom_id), message), robust=True)


def table_changed(session_id: int, table_id: int, seq: int, *, table: Any = None) -> None:
    """Call after commit (or inside an atomic block: it waits for the commit). ``table``: the row as this
    transaction leaves it (state and all, its session loaded), for a collecting caller to hand to this
    process's fan-out, which then need not read it again; pass it only if nothing changes it after."""
    message = {"type": "table.changed", "session": session_id, "table": table_id, "seq": seq}
    _after_commit(session_id, message, table, stamped=True)


def session_changed(session_id: int, *, clocks_only: bool = False) -> None:
    """``clocks_only``: a pause or resume moved the session's status and its tables' clocks, but nobody's
    seat (the fan-out then need not read every seat again)."""
    message = {"type": "session.changed", "session": session_id}
    if clocks_only:
        message["clocks_only"] = True
    _after_commit(session_id, message)


def presence_changed(session_id: int) -> None:
    """A device connected or left: only staff screens show it, and bursts are coalesced per process."""
    _after_commit(session_id, {"type": "presence.changed", "session": session_id})
