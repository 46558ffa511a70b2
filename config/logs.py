"""Structured logs: one JSON object a line with ``LOG_FORMAT=json`` (for a log shipper), the plain lines
otherwise (``make run``). Every line says which request (``request_id``) and which game session
(``session_id``) it was written for, where there is one: :class:`RequestContextMiddleware` sets them for a
page, the game consumer for its websocket (games/logcontext.py).

The request id is the proxy's ``X-Request-ID`` when it sends a well-formed one (nginx's ``$request_id``),
else a new one; the response carries it back, so a teacher's report of a failed page can be found.
"""

from __future__ import annotations

import json
import logging
import re
import uuid
from contextvars import ContextVar
from datetime import UTC, datetime

from games.logcontext import game_session_id

request_id: ContextVar[str | None] = ContextVar("classplay_request_id", default=None)
#: An id a proxy may pass on: short, and nothing that could break a log line.
REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


class ContextFilter(logging.Filter):
    """Puts the request and game session (or None) on every record, for either format. Django writes
    its line about a refused or failed request (``django.request``) after the middleware is done, with
    the request on the record: the names are then read from the request."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        record.request_id = request_id.get() or getattr(request, "request_id", None)
        record.session_id = game_session_id.get() or getattr(request, "game_session_id", None)
        return True


class JsonFormatter(logging.Formatter):
    """``{"time", "level", "logger", "message", "request_id"?, "session_id"?, "exception"?}``, one line."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for field in ("request_id", "session_id"):
            value = getattr(record, field, None)
            if value is not None:
                entry[field] = value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


class RequestContextMiddleware:
    """The request's id (and its game session, for a session's pages) for the log lines written while
    it is served; ``X-Request-ID`` on the response."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        sent = request.META.get("HTTP_X_REQUEST_ID", "")
        current = sent if REQUEST_ID.fullmatch(sent) else uuid.uuid4().hex
        request.request_id = current
        tokens = [(request_id, request_id.set(current)), (game_session_id, game_session_id.set(None))]
        try:
            response = self.get_response(request)
        finally:
            for variable, token in reversed(tokens):
                variable.reset(token)
        response["X-Request-ID"] = current
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        """A game session's pages (``sessions/<pk>/...``) and its websocket name the session."""
        match = request.resolver_match
        session = view_kwargs.get("session_id")
        if session is None and match is not None and match.route.startswith("sessions/<int:pk>"):
            session = view_kwargs.get("pk")
        if session is not None:
            request.game_session_id = session
            game_session_id.set(session)
        return None
