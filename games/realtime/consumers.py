"""One websocket consumer for every game. No rules here: it authenticates, validates, calls the services
and sends each viewer the engine's view for that viewer.

Client -> server messages (JSON, at most MAX_MESSAGE_BYTES, at most RATE_PER_SECOND a second):
  {"type": "hello", "last_seq": {"<table id>": seq}}   -> a fresh snapshot of the session and tables
  {"type": "action", "table": id, "key": "<idempotency key>", "action": {...}}
  {"type": "ping"}
Server -> client: {"type": "session", ...}, {"type": "table", "seq": n, "view": {...}},
  {"type": "ack", "key", "seq"}, {"type": "error", "code", "message", "key"?}, {"type": "pong"};
  every message carries "server_time".
"""

from __future__ import annotations

import json
import time
from typing import Any

import msgspec
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils.translation import gettext as _

from classrooms.middleware import STUDENT_SESSION_KEY
from classrooms.models import Student

from .. import selectors, services
from ..broadcast import session_group
from ..engine.core import TEACHER
from ..models import GameTable, Participant

MAX_MESSAGE_BYTES = 16_384
RATE_PER_SECOND = 10
RATE_BURST = 20


class Hello(msgspec.Struct, tag="hello", forbid_unknown_fields=True):
    last_seq: dict[str, int] = {}


class Ping(msgspec.Struct, tag="ping", forbid_unknown_fields=True):
    pass


class ActionMessage(msgspec.Struct, tag="action", forbid_unknown_fields=True):
    table: int
    key: str
    action: dict[str, Any]


ClientMessage = Hello | Ping | ActionMessage
DECODER = msgspec.json.Decoder(ClientMessage)


class TokenBucket:
    """Per-connection rate limit: RATE_PER_SECOND sustained, RATE_BURST at once."""

    def __init__(self, rate: float = RATE_PER_SECOND, burst: int = RATE_BURST):
        self.rate, self.burst, self.tokens, self.at = rate, burst, float(burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class GameConsumer(AsyncWebsocketConsumer):
    """``/ws/sessions/<id>/?as=student|teacher|projector``."""

    async def connect(self):
        self.session_id = int(self.scope["url_route"]["kwargs"]["session_id"])
        self.bucket = TokenBucket()
        self.viewer = await self._authorise()
        if self.viewer is None:
            await self.close(code=4403)  # refused before accept(): nothing is sent
            return
        await self.channel_layer.group_add(session_group(self.session_id), self.channel_name)
        await self.accept()
        await self._send_snapshot()

    async def disconnect(self, code):
        if getattr(self, "viewer", None):
            await self.channel_layer.group_discard(session_group(self.session_id), self.channel_name)

    # --- who is this ----------------------------------------------------------------------------

    @database_sync_to_async
    def _authorise(self) -> dict | None:
        query = dict(
            part.split("=", 1)
            for part in self.scope.get("query_string", b"").decode().split("&")
            if "=" in part
        )
        wanted = query.get("as", "student")
        user = self.scope.get("user")
        if wanted in ("teacher", "projector"):
            if user is None or not user.is_authenticated:
                return None
            session = selectors.session_for_staff(user, self.session_id)
            return None if session is None else {"role": wanted, "user_id": user.pk}
        student_id = (self.scope.get("session") or {}).get(STUDENT_SESSION_KEY)
        student = Student.objects.filter(pk=student_id).first() if student_id else None
        if student is None:
            return None
        participant = selectors.participant_for_student(student, self.session_id)
        if participant is None:
            return None
        return {"role": "player", "participant_id": participant.pk}

    @database_sync_to_async
    def _viewer_now(self) -> tuple[dict, list[GameTable], Any]:
        """The engine viewer and the tables this connection may see, read fresh (seats change at start)."""
        from ..models import GameSession

        session = GameSession.objects.get(pk=self.session_id)
        if self.viewer["role"] == "player":
            participant = Participant.objects.select_related("table__session").get(
                pk=self.viewer["participant_id"]
            )
            if participant.status == Participant.Status.REMOVED:
                return {"role": "removed"}, [], session
            tables = [participant.table] if participant.table_id else []
            return {"role": "player", "player": participant.player_id}, tables, session
        tables = list(session.tables.select_related("session"))
        return {"role": self.viewer["role"]}, tables, session

    # --- sending --------------------------------------------------------------------------------

    async def _send(self, message: dict) -> None:
        message["server_time"] = time.time()
        await self.send(text_data=json.dumps(message, separators=(",", ":")))

    async def _send_snapshot(self) -> None:
        viewer, tables, session = await self._viewer_now()
        summary = await database_sync_to_async(selectors.session_summary)(session)
        await self._send({"type": "session", "session": summary})
        for table in tables:
            await self._send(
                {"type": "table", **await database_sync_to_async(selectors.table_view)(table, viewer)}
            )

    async def table_changed(self, event):
        viewer, tables, _session = await self._viewer_now()
        for table in tables:
            if table.pk == event["table"]:
                await self._send(
                    {"type": "table", **await database_sync_to_async(selectors.table_view)(table, viewer)}
                )

    async def session_changed(self, event):
        await self._send_snapshot()

    # --- receiving ------------------------------------------------------------------------------

    async def receive(self, text_data=None, bytes_data=None):
        raw = text_data if text_data is not None else bytes_data
        if raw is None or len(raw) > MAX_MESSAGE_BYTES:
            await self._error("too_large", _("That message is too large."))
            return
        if not self.bucket.take():
            await self._error("rate_limited", _("Too many messages. Slow down a little."))
            return
        try:
            message = DECODER.decode(raw)
        except (msgspec.ValidationError, msgspec.DecodeError) as error:
            await self._error("invalid", _("That message was not understood: %(error)s") % {"error": error})
            return
        if isinstance(message, Ping):
            await self._send({"type": "pong"})
        elif isinstance(message, Hello):
            await self._send_snapshot()
        else:
            await self._act(message)

    async def _act(self, message: ActionMessage) -> None:
        if not 1 <= len(message.key) <= 64:
            await self._error("invalid", _("Every action needs a key of 1 to 64 characters."))
            return
        viewer, tables, _session = await self._viewer_now()
        if self.viewer["role"] == "projector" or message.table not in {table.pk for table in tables}:
            await self._error("not_allowed", _("You cannot act at that table."), key=message.key)
            return
        player = viewer["player"] if viewer["role"] == "player" else TEACHER
        try:
            result = await database_sync_to_async(services.action_submit)(
                table_id=message.table,
                player=player,
                action=message.action,
                key=message.key,
                teacher=viewer["role"] == "teacher",
            )
        except services.ActionRefused as refused:
            await self._error(refused.code, refused.message, key=message.key)
            return
        await self._send(
            {"type": "ack", "key": message.key, "seq": result.seq, "duplicate": result.duplicate}
        )

    async def _error(self, code: str, message: str, key: str | None = None) -> None:
        payload = {"type": "error", "code": code, "message": message}
        if key is not None:
            payload["key"] = key
        await self._send(payload)
