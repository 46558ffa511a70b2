"""One websocket consumer for every game. No rules here: it authenticates, validates, calls the services
and sends each viewer the engine's view for that viewer.

Client -> server messages (JSON, at most MAX_MESSAGE_BYTES, at most RATE_PER_SECOND a second: the rest
  are dropped, with one "rate_limited" error per RATE_NOTICE_EVERY seconds):
  {"type": "hello", "last_seq": {"<table id>": seq}}   -> a fresh snapshot of the session and tables
  {"type": "action", "table": id, "key": "<idempotency key>", "action": {...}}
  {"type": "ping"}
Server -> client: {"type": "session", ...}, {"type": "table", "seq": n, "view": {...}},
  {"type": "ack", "key", "seq"}, {"type": "error", "code", "message", "key"?}, {"type": "pong"};
  an action the database could not take (it is restarting) gets the error code "unavailable": nothing
  was saved, the connection stays open, and the same key may be sent again;
  {"type": "error", "code": "replaced"} then close 4409 when the seat is opened on another device;
  every message carries "server_time". Updates reach connections through games.realtime.fanout.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import msgspec
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.utils import translation
from django.utils.translation import gettext as _

from classrooms import languages

from .. import logcontext, metrics, selectors, services
from ..engine.core import TEACHER
from ..models import GameTable, Participant
from . import batching, fanout, seats, welcome
from .db import database_sync_to_async
from .trips import trips

logger = logging.getLogger(__name__)
MAX_MESSAGE_BYTES = 16_384
#: The server's own frame limit (uvicorn --ws-max-size in the Procfiles): a bigger message closes the
#: connection (1009) before it is read whole, so a flood of 10 MB messages cannot fill the memory.
#: Above MAX_MESSAGE_BYTES so a message a little too large still gets a readable error.
SERVER_MAX_MESSAGE_BYTES = 65_536
RATE_PER_SECOND = 10
RATE_BURST = 20
#: A device over the limit is told so once in this many seconds (the time the bucket takes to fill again);
#: the messages it drops meanwhile are dropped silently (one notice each let a flood be answered frame for
#: frame).
RATE_NOTICE_EVERY = RATE_BURST / RATE_PER_SECOND
#: A fresh snapshot at most this often per connection (seconds).
HELLO_EVERY = 2.0


class Hello(msgspec.Struct, tag="hello", forbid_unknown_fields=True):
    last_seq: dict[str, int] = {}


class Ping(msgspec.Struct, tag="ping", forbid_unknown_fields=True):
    pass


class ActionMessage(msgspec.Struct, tag="action", forbid_unknown_fields=True):
    table: int
    key: str
    action: dict[str, Any]


ClientMessage = Hello | Ping | ActionMessage
#: No game's action nests deeper than this (a drawing's strokes of points is 4).
MAX_DEPTH = 8


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether ``value`` nests lists or objects more than ``limit`` deep (checked without recursion)."""
    level = [value]
    for _depth in range(limit + 1):
        level = [
            child
            for item in level
            if isinstance(item, dict | list)
            for child in (item.values() if isinstance(item, dict) else item)
        ]
        if not level:
            return False
    return True


DECODER = msgspec.json.Decoder(ClientMessage)
#: msgspec encodes the views about 20 times faster than json.dumps (see bench/README.md).
ENCODER = msgspec.json.Encoder()


def clock() -> float:
    """The limits' clock (a test sets its own)."""
    return time.monotonic()


class TokenBucket:
    """Per-connection rate limit: RATE_PER_SECOND sustained, RATE_BURST at once."""

    def __init__(self, rate: float = RATE_PER_SECOND, burst: int = RATE_BURST):
        self.rate, self.burst, self.tokens, self.at = rate, burst, float(burst), clock()
        self.told_at = -RATE_NOTICE_EVERY

    def take(self) -> bool:
        now = clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def notice_due(self) -> bool:
        """Whether to tell the device of a dropped message: once per RATE_NOTICE_EVERY seconds."""
        now = clock()
        if now - self.told_at < RATE_NOTICE_EVERY:
            return False
        self.told_at = now
        return True


class GameConsumer(AsyncWebsocketConsumer):
    """``/ws/sessions/<id>/?as=student|teacher|projector``."""

    role: str | None = None
    participant_id: int | None = None
    player_id: str = ""
    table_id: int | None = None
    removed: bool = False
    #: The connection that held this student's seat before this one (told to stop), if any.
    previous_device: str = ""
    homework: bool = False
    _viewer_key: tuple | None = None
    _me: tuple | None = None
    #: The signed-in student of a player's device (None for staff screens).
    student = None
    #: The language this device reads the game in (set when it connects).
    language: str = settings.LANGUAGE_CODE

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        except Exception:
            # The connection ended without its disconnect: Channels reads each connection's channel from
            # the layer, and with Redis down that read fails. It still leaves the hub, so that the hub
            # subscribes afresh when the devices come back. (Not on a cancellation: nothing may be
            # awaited then, and the hub goes with its event loop.)
            if self.role is not None:
                await fanout.hub().leave(self)
            raise

    async def dispatch(self, message):
        """Channels' dispatch without its trip to the database thread before every message (to close
        stale database connections): every database call here goes through ``database_sync_to_async``,
        which closes them around each call anyway, and that extra trip per connect, message and
        disconnect queued behind a whole class reconnecting at once."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self):
        self.connected_at = time.monotonic()  # (the balancer leaves a device that has just arrived)
        self.session_id = int(self.scope["url_route"]["kwargs"]["session_id"])
        logcontext.game_session_id.set(self.session_id)  # (this connection's task: its log lines name it)
        self.bucket = TokenBucket()
        self.last_hello = -HELLO_EVERY
        wanted = self._query().get("as", "student")
        if wanted in ("teacher", "projector"):
            allowed = await self._authorise_staff(wanted)
        else:
            allowed = await self._authorise_player()
        if not allowed:
            await self.close(code=4403)  # refused before accept(): nothing is sent
            return
        if self.role == "player" and self.previous_device not in ("", self.channel_name):
            await self.channel_layer.send(self.previous_device, {"type": "seat.replaced"})
        await fanout.hub().join(self)
        await self.accept()
        await self._send_snapshot(None)

    async def disconnect(self, code):
        if self.role is None:
            return
        await fanout.hub().leave(self)
        if self.role == "player":
            await seats.release(self.participant_id, self.channel_name)
            if self.homework:  # and stop when it leaves: the game waits where it stopped
                await database_sync_to_async(services.attempt_device_left)(participant_id=self.participant_id)

    # --- who is this ----------------------------------------------------------------------------

    def _query(self) -> dict[str, str]:
        return dict(
            part.split("=", 1)
            for part in self.scope.get("query_string", b"").decode().split("&")
            if "=" in part
        )

    @database_sync_to_async
    def _authorise_staff(self, wanted: str) -> bool:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            return False
        if selectors.session_for_staff(user, self.session_id) is None:
            return False
        self.role = wanted
        self.language = self._language(chosen=self.scope["session"].get(languages.LANGUAGE_CHOICE_KEY))
        return True

    async def _authorise_player(self) -> bool:
        """The device's student and seat (looked up together with the other devices connecting now, see
        ``trips``), then the seat's claim (batched likewise, see ``seats``). The Django session is never
        read: ``classrooms.device_cache`` knows the device by its session key."""
        request = (self.scope.get("session_key"), self.session_id)
        player = await trips(selectors.players_for_devices).call(request)
        if player is None:
            return False
        participant = player.participant
        self.role, self.student, self.participant_id = "player", player.device.student, participant.pk
        self.adopt_seat({participant.pk: (participant.status, participant.table_id, participant.player_id)})
        self.language = self._language(chosen=player.device.chosen_language)
        # This device now holds the seat; the device that held it before is told and closed once this
        # one is in (one device per seat, and the newest wins).
        self.previous_device = await seats.claim(participant.pk, self.channel_name)
        self.homework = participant.session.assignment_id is not None
        if self.homework:  # a homework attempt's clocks run while its student's device is here
            await database_sync_to_async(services.attempt_device_arrived)(participant_id=participant.pk)
        return True

    def _language(self, chosen: str | None) -> str:
        """This device's language, chosen as for its pages (classrooms.languages): each device of a
        session (the projector, the console, every student's) reads the game in its own. Reads the
        staff's user (the database) only for a staff screen."""
        headers = dict(self.scope.get("headers") or [])
        return languages.resolve(
            chosen=chosen,
            student=self.student,
            cookie=(self.scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME),
            user=self.scope.get("user") if self.student is None else None,
            accept_language=headers.get(b"accept-language", b"").decode("latin-1"),
        )

    def adopt_seat(self, seats: dict[int, tuple[str, int | None, str]]) -> None:
        """Seats change when the game starts, a latecomer is seated or the teacher removes a student."""
        if self.role != "player" or self.participant_id not in seats:
            return
        status, table_id, player_id = seats[self.participant_id]
        self.removed = status == Participant.Status.REMOVED
        self.table_id, self.player_id = table_id, player_id

    @property
    def viewer_key(self) -> tuple:
        """Who this connection is to the engine, hashable: the fan-out compares it on every update of
        every connection, so it is computed again only when the seat changes."""
        who = (self.role, self.player_id)
        if self._viewer_key is None or self._viewer_key[0] != who:
            self._viewer_key = (who, tuple(sorted(self.engine_viewer().items())))
        return self._viewer_key[1]

    def may_watch(self, table_id: int) -> bool:
        if self.role in ("teacher", "projector"):
            return True
        return not self.removed and self.table_id == table_id

    def engine_viewer(self) -> dict:
        if self.role == "player":
            return {"role": "player", "player": self.player_id}
        return {"role": self.role}

    # --- sending --------------------------------------------------------------------------------

    async def push(self, message: dict) -> None:
        message["server_time"] = time.time()
        await self.send(text_data=ENCODER.encode(message).decode())

    async def _send_snapshot(self, last_seq: dict[str, int] | None) -> None:
        """The session and every table this viewer may see; after a hello (``last_seq``), a table the client
        already holds at its current sequence number is skipped (a reconnect after a short drop costs
        almost nothing). Read and built together with the other devices of the session asking now."""
        await welcome.welcomer().snapshot(self, last_seq)

    def me(self) -> dict:
        if self.role != "player":
            return {"role": self.role}
        return {"role": "player", "player": self.player_id, "table": self.table_id, "removed": self.removed}

    def me_members(self) -> str:
        """``me()`` serialised without its braces, to be joined into a session message: kept until the
        seat changes, since every session update of a big class sends it to every device."""
        seat = (self.role, self.player_id, self.table_id, self.removed)
        if self._me is None or self._me[0] != seat:
            self._me = (seat, ENCODER.encode(self.me()).decode()[1:-1])
        return self._me[1]

    async def seat_replaced(self, event):
        with translation.override(self.language):
            message = _("You opened this game on another device, so this one has stopped.")
        await self._error("replaced", message)
        await self.close(code=4409)

    # --- receiving ------------------------------------------------------------------------------

    async def receive(self, text_data=None, bytes_data=None):
        """Every answer to this device (its refusals, its snapshots) in the device's own language."""
        with translation.override(self.language):
            await self._receive(text_data, bytes_data)

    async def _receive(self, text_data=None, bytes_data=None):
        received = time.perf_counter()
        raw = text_data if text_data is not None else bytes_data
        if raw is None or len(raw) > MAX_MESSAGE_BYTES:
            await self._error("too_large", _("That message is too large."))
            return
        if not self.bucket.take():
            if self.bucket.notice_due():
                await self._error("rate_limited", _("Too many messages. Slow down a little."))
            return
        try:
            message = DECODER.decode(raw)
        except (msgspec.ValidationError, msgspec.DecodeError) as error:
            await self._error("invalid", _("That message was not understood: %(error)s") % {"error": error})
            return
        except RecursionError:  # nested deeper than the decoder goes: refused like any bad message
            message = None
        if message is None or (
            isinstance(message, ActionMessage) and _deeper_than(message.action, MAX_DEPTH)
        ):
            await self._error("invalid", _("That message is nested too deeply."))
            return
        if isinstance(message, Ping):
            await self.push({"type": "pong"})
        elif isinstance(message, Hello):
            # A client says hello when it (re)connects; one asking again and again only costs the server
            # snapshots (ten such devices once took most of a core).
            now = clock()
            if now - self.last_hello < HELLO_EVERY:
                await self._error("rate_limited", _("Already up to date. Wait a moment before asking again."))
                return
            self.last_hello = now
            await self._send_snapshot(message.last_seq)
        else:
            await self._act(message, received)

    async def _act(self, message: ActionMessage, received: float) -> None:
        """``received``: when the move arrived (``perf_counter``), for the acknowledgement time."""
        if not 1 <= len(message.key) <= 64:
            await self._error("invalid", _("Every action needs a key of 1 to 64 characters."))
            return
        if self.role == "projector" or not self.may_watch(message.table):
            await self._error("not_allowed", _("You cannot act at that table."), key=message.key)
            return
        player = self.player_id if self.role == "player" else TEACHER
        submission = services.Submission(
            player=player, action=message.action, key=message.key, teacher=self.role == "teacher"
        )
        try:
            outcome = await batching.batcher().submit(message.table, submission)
        except GameTable.DoesNotExist:
            await self._error("not_allowed", _("You cannot act at that table."), key=message.key)
            return
        except (OperationalError, InterfaceError):
            # The database is out (restarting): the move's transaction never committed, so nothing
            # changed. The device keeps its connection and may send the same key again.
            logger.warning("a move could not be saved: the database is unavailable", exc_info=True)
            message_text = _("The server is catching up. Your move was not saved yet: send it again.")
            await self._error("unavailable", message_text, key=message.key)
            return
        if isinstance(outcome, services.ActionRefused):
            await self._error(outcome.code, outcome.message, key=message.key)
            return
        ack = {"type": "ack", "key": message.key, "seq": outcome.seq, "duplicate": outcome.duplicate}
        await self.push(ack)
        metrics.MOVE_ACK.observe(time.perf_counter() - received)

    async def _error(self, code: str, message: str, key: str | None = None) -> None:
        payload = {"type": "error", "code": code, "message": message}
        if key is not None:
            payload["key"] = key
        await self.push(payload)
