"""Error reports go to Sentry only where SENTRY_DSN is set, and carry no student's data: no user, no
cookies, no request body, no local variables, and what looks like data in the texts kept is masked."""

import json
import os
import subprocess
import sys
from pathlib import Path

from config.sentry import FILTERED, scrub_breadcrumb, scrub_event, scrub_text

ROOT = Path(__file__).resolve().parent.parent
# The settings loaded with sentry_sdk.init replaced: whether it was called, and with what.
PROBE = """
import json, os
from unittest import mock
import sentry_sdk
with mock.patch.object(sentry_sdk, "init") as init:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.conf import settings
    settings.LOGGING
called = init.call_args.kwargs if init.called else None
print(json.dumps(called and {key: value if isinstance(value, str | bool | int | float) or value is None
                             else getattr(value, "__name__", repr(value)) for key, value in called.items()}))
"""


def _settings_with(**env) -> dict | None:
    clean = {key: value for key, value in os.environ.items() if not key.startswith("SENTRY_")}
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_without_a_dsn_sentry_is_not_started():
    assert _settings_with() is None


def test_with_a_dsn_sentry_starts_with_no_personal_data():
    dsn = "https://public@sentry.school.example/7"
    called = _settings_with(SENTRY_DSN=dsn, SENTRY_ENVIRONMENT="riverside")
    assert called["dsn"] == dsn and called["environment"] == "riverside"
    assert called["send_default_pii"] is False
    assert called["include_local_variables"] is False
    assert called["max_request_body_size"] == "never"
    assert called["traces_sample_rate"] == 0
    assert (called["before_send"], called["before_breadcrumb"]) == ("scrub_event", "scrub_breadcrumb")
    assert called["before_send_transaction"] == "scrub_transaction"


def test_an_event_keeps_the_code_and_loses_the_data():
    event = {
        "user": {"id": 5, "email": "ava@school.example"},
        "server_name": "web-1",
        "extra": {"student": "Ava Brown"},
        "request": {
            "method": "POST",
            "url": "https://classplay.school.example/join/?code=ABCD",
            "data": {"name": "Ava Brown"},
            "cookies": {"sessionid": "secret"},
            "headers": {"Cookie": "sessionid=secret"},
            "query_string": "code=ABCD",
        },
        "exception": {
            "values": [
                {
                    "type": "IntegrityError",
                    "value": 'duplicate key value violates unique constraint "email"\n'
                    "DETAIL:  Key (email)=(ava@school.example) already exists.",
                    "stacktrace": {"frames": [{"function": "join", "vars": {"name": "'Ava Brown'"}}]},
                },
                {"type": "ValueError", "value": "invalid literal for int() with base 10: 'Ava Brown'"},
            ]
        },
        "logentry": {"message": "could not seat %s", "params": ["Ava Brown"], "formatted": "Ava Brown"},
        "breadcrumbs": {
            "values": [
                {"category": "query", "message": "SELECT 1 WHERE name = 'Ava Brown'", "data": {"p": "Ava"}}
            ]
        },
    }
    scrubbed = json.dumps(scrub_event(event))
    assert "Ava" not in scrubbed and "ava@" not in scrubbed and "secret" not in scrubbed
    assert "ABCD" not in scrubbed and "web-1" not in scrubbed
    assert event["request"] == {"method": "POST", "url": "https://classplay.school.example/join/"}
    assert event["exception"]["values"][1]["value"] == f"invalid literal for int() with base 10: {FILTERED}"
    assert event["logentry"] == {"message": "could not seat %s"}
    assert "vars" not in event["exception"]["values"][0]["stacktrace"]["frames"][0]


def test_database_rows_in_an_error_are_masked():
    text = (
        'null value in column "level" violates not-null constraint\n'
        "DETAIL:  Failing row contains (7, Ava Brown, null)."
    )
    assert "Ava" not in scrub_text(text)
    assert scrub_text("nothing to hide here") == "nothing to hide here"


def test_a_breadcrumb_keeps_its_kind_and_drops_its_values():
    crumb = scrub_breadcrumb(
        {"category": "django.request", "level": "warning", "message": "Not Found: /x", "data": {"a": 1}}
    )
    assert crumb == {"category": "django.request", "level": "warning", "message": "Not Found: /x"}
