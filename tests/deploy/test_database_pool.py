"""The PostgreSQL connection pool after the database restarted (or an admin ended its sessions): the next
request gets a fresh connection instead of a dead one from the pool, and a request never waits long for a
free connection before it is told the server is busy."""

import psycopg
import pytest
from django.conf import settings
from django.db import connection

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("the pool is PostgreSQL's (embedded mode runs on SQLite)")


def end_every_other_session():
    """What a restart does to the pool's connections: ended by the server while the pool holds them."""
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("prepare_threshold", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as admin:
        ended = admin.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchone()[0]
    return ended


def test_after_the_database_ended_the_pools_connections_the_next_query_works(postgresql):
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    connection.close()  # back to the pool, still open
    assert end_every_other_session() >= 1
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def test_a_request_waits_at_most_a_few_seconds_for_a_free_connection(postgresql):
    assert settings.DATABASES["default"]["OPTIONS"]["pool"]["timeout"] <= 10
    assert connection.pool._check is not None  # Django's health checks, made by the pool
