"""Settings come from the environment: production is checked by Django's deploy checks, single sign-on
turns on by variables alone, and a missing production secret is a clear error."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PRODUCTION = {
    "DEBUG": "false",
    "WEB_CONCURRENCY": "1",
    "EMAIL_HOST": "smtp.school.example",
    "SECRET_KEY": "x" * 20 + "a-long-random-production-secret-1234567890",
    "ALLOWED_HOSTS": "classplay.school.example",
    "CSRF_TRUSTED_ORIGINS": "https://classplay.school.example",
}


def manage(*args, **env):
    # DJANGO_ALLOW_ASYNC_UNSAFE may be set by the browser tests in this worker; production never has it.
    dropped = ("DATABASE_URL", "REDIS_URL", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE")
    clean = {k: v for k, v in os.environ.items() if k not in dropped}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, "CLASSPLAY_TESTING": "0", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_production_settings():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_without_a_secret_key_fails_clearly():
    env = {**PRODUCTION, "SECRET_KEY": ""}
    result = manage("check", **env)
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


@pytest.mark.parametrize(
    ("key", "why"),
    [
        ("x", "too short"),
        ("ab" * 40, "fewer than 5 different characters"),
        (
            "django-insecure-" + "k3y-made-by-startproject-and-never-changed-0123456789",
            "Django's placeholder",
        ),
    ],
    ids=["short", "few-characters", "django-insecure"],
)
def test_production_refuses_a_weak_secret_key(key, why):
    result = manage("check", **{**PRODUCTION, "SECRET_KEY": key})
    assert result.returncode != 0, why
    assert "SECRET_KEY is too weak for production" in result.stderr, result.stderr[-2000:]
    assert "at least 50 characters" in result.stderr


def test_production_refuses_any_host():
    result = manage("check", **{**PRODUCTION, "ALLOWED_HOSTS": "classplay.school.example, *"})
    assert result.returncode != 0
    assert (
        "ALLOWED_HOSTS must name the site's host names in production (DEBUG=false), not '*'" in result.stderr
    )


def test_production_without_a_mail_server_refuses_to_start_unless_told_the_log_is_private():
    env = {**PRODUCTION, "EMAIL_HOST": ""}
    result = manage("check", **env)
    assert result.returncode != 0
    assert "EMAIL_HOST must be set" in result.stderr and "password-reset" in result.stderr
    allowed = manage("check", **env, EMAIL_CONSOLE_ALLOWED="true")
    assert allowed.returncode == 0, allowed.stderr


def test_production_refuses_several_web_processes_without_redis():
    env = {**PRODUCTION, "WEB_CONCURRENCY": "4"}
    result = manage("check", **env)
    assert result.returncode != 0 and "REDIS_URL must be set when WEB_CONCURRENCY" in result.stderr
    assert manage("check", **env, REDIS_URL="redis://127.0.0.1:6379/0").returncode == 0


def test_google_and_microsoft_sign_in_turn_on_by_settings_alone():
    code = "from django.conf import settings; print(sorted(settings.SOCIALACCOUNT_PROVIDERS))"
    result = manage(
        "shell", "-c", code, GOOGLE_CLIENT_ID="g-id", GOOGLE_CLIENT_SECRET="g", MICROSOFT_CLIENT_ID="m-id"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "['google', 'microsoft']"
    plain = manage("shell", "-c", code)
    assert plain.stdout.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize(
    ("setting", "threshold"), [({}, "5"), ({"DATABASE_PREPARED_STATEMENTS": "false"}, "None")]
)
def test_prepared_statements_are_on_with_postgresql_unless_turned_off_for_a_pooling_proxy(setting, threshold):
    """A transaction-pooling proxy (PgBouncer) cannot keep a connection's prepared statements."""
    options = "settings.DATABASES['default']['OPTIONS']"
    code = f"from django.conf import settings; print({options}.get('prepare_threshold'))"
    result = manage("shell", "-c", code, DATABASE_URL="postgres://postgres@127.0.0.1:5432/unused", **setting)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == threshold
