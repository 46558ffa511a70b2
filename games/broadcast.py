"""Telling connected screens that something changed, after the database commit.

One channel-layer message per change goes to the session's group; each server process receives it
once (see games.realtime.fanout) and sends every local connection its own view. Messages carry only
ids and the sequence number: no state, so no secret, travels through Redis.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from . import outbox


def session_group(session_id: int) -> str:
    return f"classplay.session.{session_id}"


def class_group(classroom_id: int) -> str:
    """The devices of a class's signed-in students (their home page), told when a game opens or ends."""
    return f"classplay.class.{classroom_id}"


def _send(group: str, message: dict) -> None:
    """Never waits on a channel layer that failed moments ago (see games.outbox)."""
    layer = get_channel_layer()
    if layer is not None:
        outbox.attempt(
            "channel layer",
            lambda: async_to_sync(layer.group_send)(group, message),
            # The same news again replaces what is waiting (a table's later seq, the session's state).
            resend_key=(group, message.get("type"), message.get("table")),
        )


def _after_commit(session_id: int, message: dict) -> None:
    """Robust: the change is committed whatever happens to its broadcast (Redis down a moment), so the
    move is still acknowledged; screens that missed it catch up on their next update or reconnect."""
    transaction.on_commit(lambda: _send(session_group(session_id), message), robust=True)


def class_games_changed(classroom_id: int) -> None:
    """A game of the class opened, ended or was cancelled: the students' devices fetch their list again."""
    message = {"type": "class.games", "classroom": classroom_id}
    transaction.on_commit(lambda: _send(class_group(classroom_id), message), robust=True)


def table_changed(session_id: int, table_id: int, seq: int) -> None:
    """Call after commit (or inside an atomic block: it waits for the commit)."""
    _after_commit(session_id, {"type": "table.changed", "session": session_id, "table": table_id, "seq": seq})


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
