"""What every part of the live runtime's writers shares: the server clock, player ids, the control log and
row locks."""

from __future__ import annotations

import time

from classrooms.models import User

from ..models import GameSession, GameTable, SessionControl

#: The lobby opens by itself this many minutes before the planned start.
LOBBY_OPENS_MINUTES = 10

BOT_PREFIX = "bot"

#: A computer player "thinks" this long before each move, so people can follow what it does.
BOT_THINK_SECONDS = 1.5


def now_ts() -> float:
    """Server time in epoch seconds: the one clock every deadline is measured against."""
    return time.time()


def student_player_id(student_id: int) -> str:
    return f"s{student_id}"


def is_bot(player: str) -> bool:
    return player.startswith(BOT_PREFIX)


def any_bot(players: list[str]) -> bool:
    """Whether any of ``players`` is a computer player: one scan, in C, of their ids joined (ids hold no
    NUL), as a table of 2000 students asks it after every move of a burst."""
    return ("\0" + "\0".join(players)).find("\0" + BOT_PREFIX) != -1


def _control(session: GameSession, actor: User | None, kind: str, detail: dict | None = None) -> None:
    SessionControl.objects.create(session=session, actor=actor, kind=kind, detail=detail or {})


def _locked_tables():
    """Tables under a row lock, for a move. Their configuration (players and questions, ~200 KB in a
    2000-student session) is only read when a table is set up, so a move never decodes it. ``no_key``: a
    learning fact's foreign key to the table (or its session) is not held up by the lock (see
    ``rows._lock_clause``)."""
    return GameTable.objects.select_for_update(no_key=True).defer("config")


def _playing_tables(session: GameSession):
    return _locked_tables().select_related("session").filter(session=session, status=GameTable.Status.PLAYING)
