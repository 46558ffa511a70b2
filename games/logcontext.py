"""What a log line is about, for the structured logs (config/logs.py): the game session a websocket or a
page serves. A context variable, so each connection's task (and the threads its database calls run on,
which copy the context) has its own. No Django here: the logging set-up imports it with the settings."""

from __future__ import annotations

from contextvars import ContextVar

#: The game session (``GameSession`` id) being served, or None.
game_session_id: ContextVar[int | None] = ContextVar("classplay_game_session_id", default=None)
