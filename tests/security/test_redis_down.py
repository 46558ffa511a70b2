"""While Redis is down, students and staff still sign in: the cache falls back to the database's
cache table (rate limits keep counting, across processes), and goes back to Redis when it answers. The
table is made by the migrations, as production makes it: the test runner's own set-up makes every cache
table, which once hid that the migrations made the wrong one."""

import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import psycopg
import pytest
from django.core.cache import caches
from django.db import connection
from django.test import override_settings
from django.urls import reverse

from classrooms.middleware import STUDENT_SESSION_KEY
from config.cache import FailSoftRedisCache
from tests.classrooms.test_student_signin import signin
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]

DEAD_REDIS = "redis://127.0.0.1:1/0"  # nothing listens on port 1
CACHES_WITH_REDIS_DOWN = {
    "default": {"BACKEND": "config.cache.FailSoftRedisCache", "LOCATION": DEAD_REDIS},
    "fallback": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "classplay_cache"},
}


def test_the_cache_serves_from_the_database_while_redis_is_down():
    cache = FailSoftRedisCache(DEAD_REDIS, {"OPTIONS": {"FALLBACK": "fallback"}})
    cache.set("limit:device", 3, 60)
    assert cache.incr("limit:device") == 4
    assert caches["fallback"].get("limit:device") == 4


@override_settings(CACHES=CACHES_WITH_REDIS_DOWN)
def test_a_student_and_a_teacher_sign_in_while_redis_is_down(client, class_7b, ava, ms_rivera):
    caches._settings = None
    try:
        assert client.post(reverse("join"), {"code": class_7b.join_code}).status_code == 302
        assert signin(client, class_7b, ava, "4821").status_code == 302
        assert client.session[STUDENT_SESSION_KEY] == ava.pk
        client.post(reverse("student_signout"))
        response = client.post(reverse("account_login"), {"login": ms_rivera.email, "password": PASSWORD})
        assert response.status_code == 302
    finally:
        caches._settings = None


@pytest.fixture
def fresh_database(tmp_path):
    """A process environment with an empty database of this run's kind (SQLite in an empty folder, or a
    PostgreSQL database of its own) and Redis unreachable."""
    dropped = ("DATABASE_URL", "REDIS_URL", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE")
    env = {key: value for key, value in os.environ.items() if key not in dropped}
    env |= {"CLASSPLAY_TESTING": "0", "CLASSPLAY_VAR_DIR": str(tmp_path), "REDIS_URL": DEAD_REDIS}
    if connection.vendor != "postgresql":
        yield env
        return
    db = connection.settings_dict
    name = f"{db['NAME']}_migrated"
    server = {"host": db["HOST"], "port": db["PORT"], "user": db["USER"], "password": db["PASSWORD"]}
    with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
    login = quote(db["USER"]) + (f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else "")
    try:
        yield env | {"DATABASE_URL": f"postgres://{login}@{db['HOST']}:{db['PORT']}/{name}"}
    finally:
        with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _migrated_site(env, *args) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "tests.security.migrated_site", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


SIGNED_IN = {"class code": 302, "student": 302, "staff": 302}


def test_a_migrated_database_has_the_fallback_cache_table_and_sign_in_works_with_redis_down(fresh_database):
    report = _migrated_site(fresh_database)
    assert report == {"cache tables": ["classplay_cache"], "sign-ins": SIGNED_IN}


def test_a_database_migrated_with_the_first_0004_gets_the_right_table_when_upgraded(fresh_database):
    report = _migrated_site(fresh_database, "--from-0004")
    assert report == {"cache tables": ["classplay_cache"], "sign-ins": SIGNED_IN}
