"""Structured logs: with LOG_FORMAT=json every line is one JSON object naming the request and the game
session it was written for; the plain format (make run) stays as it was, with the same names available."""

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client, RequestFactory

from config.logs import ContextFilter, JsonFormatter, RequestContextMiddleware, request_id
from games.logcontext import game_session_id

ROOT = Path(__file__).resolve().parent.parent


def _record(message="a move could not be saved: %s", args=("database",), exc_info=None):
    record = logging.LogRecord("games.realtime", logging.WARNING, __file__, 1, message, args, exc_info)
    ContextFilter().filter(record)
    return record


def test_a_line_is_one_json_object_with_the_request_and_session():
    request_token, session_token = request_id.set("req-1"), game_session_id.set(42)
    try:
        line = JsonFormatter().format(_record())
    finally:
        request_id.reset(request_token)
        game_session_id.reset(session_token)
    assert "\n" not in line
    entry = json.loads(line)
    assert entry["message"] == "a move could not be saved: database"
    assert (entry["level"], entry["logger"]) == ("WARNING", "games.realtime")
    assert (entry["request_id"], entry["session_id"]) == ("req-1", 42)
    assert entry["time"].endswith("+00:00")


def test_outside_a_request_the_names_are_left_out_and_an_error_keeps_its_traceback():
    try:
        raise ValueError("broken")
    except ValueError:
        line = JsonFormatter().format(_record("failed", (), exc_info=sys.exc_info()))
    entry = json.loads(line)
    assert "request_id" not in entry and "session_id" not in entry
    assert "ValueError: broken" in entry["exception"]
    assert "\n" not in line  # the traceback's lines are escaped inside the one line


def _seen_by_the_view():
    seen = {}

    def view(request):
        from django.http import HttpResponse

        seen.update(request_id=request_id.get(), session_id=game_session_id.get())
        return HttpResponse()

    return seen, view


def test_each_request_gets_an_id_returned_in_its_response():
    seen, view = _seen_by_the_view()
    response = RequestContextMiddleware(view)(RequestFactory().get("/"))
    assert response["X-Request-ID"] == seen["request_id"] and len(seen["request_id"]) == 32
    assert request_id.get() is None  # not left behind for the thread's next request


def test_the_proxys_request_id_is_kept_and_a_malformed_one_replaced():
    _seen, view = _seen_by_the_view()
    middleware = RequestContextMiddleware(view)
    assert middleware(RequestFactory().get("/", HTTP_X_REQUEST_ID="0f3a9c"))["X-Request-ID"] == "0f3a9c"
    forged = middleware(RequestFactory().get("/", HTTP_X_REQUEST_ID='x"\n{"level": "CRITICAL"}'))
    assert forged["X-Request-ID"] != 'x"\n{"level": "CRITICAL"}' and len(forged["X-Request-ID"]) == 32


@pytest.mark.django_db
def test_a_game_sessions_page_names_the_session_in_its_log_lines(class_7b, ms_rivera, mr_okafor, ava, ben):
    from tests.games.test_consumer import _running_table

    table = _running_table(class_7b, ms_rivera, [ava, ben])
    seen = []
    handler = logging.Handler()
    handler.addFilter(ContextFilter())
    handler.emit = lambda record: seen.append((record.request_id, record.session_id))
    logging.getLogger("django.request").addHandler(handler)
    try:
        client = Client()
        client.force_login(mr_okafor)  # another school's teacher: refused, and the refusal is logged
        response = client.get(f"/sessions/{table.session_id}/")
    finally:
        logging.getLogger("django.request").removeHandler(handler)
    assert response.status_code in (403, 404)
    assert seen == [(response["X-Request-ID"], table.session_id)]
    assert game_session_id.get() is None


def test_json_logs_are_chosen_by_the_environment_and_plain_stays_the_default():
    probe = (
        "import logging, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings');"
        "import django; django.setup(); logging.getLogger('classplay.test').warning('hello %s', 'there')"
    )

    def run(**env):
        clean = {key: value for key, value in os.environ.items() if key != "LOG_FORMAT"}
        done = subprocess.run(
            [sys.executable, "-c", probe],
            cwd=ROOT,
            env={**clean, **env},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        return done.stderr.strip().splitlines()[-1]

    assert json.loads(run(LOG_FORMAT="json"))["message"] == "hello there"
    assert run().endswith("WARNING classplay.test: hello there")
