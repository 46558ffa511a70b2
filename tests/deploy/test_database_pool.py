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


def end_the_pools_idle_connections() -> int:
    """What a restart does to the pool's connections: ended by the server while the pool holds them
    (only this pool's: the other tests' connections stay)."""
    pids = [pooled.info.backend_pid for pooled in connection.pool._pool]
    params = connection.get_connection_params()
    for option in ("cursor_factory", "prepare_threshold", "context"):
        params.pop(option, None)
    with psycopg.connect(**params, autocommit=True) as admin:
        for pid in pids:
            admin.execute("SELECT pg_terminate_backend(%s)", [pid])
    return len(pids)


def test_after_the_database_ended_the_pools_connections_the_next_query_works(postgresql):
    # A pool of this test's own, made from this connection's settings: the process's pool may have been
    # made by a thread that started before the test database was named (its new connections would go to
    # the real database's name, which CI does not have).
    connection.close()
    connection.close_pool()
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    assert connection.pool.kwargs["dbname"] == connection.settings_dict["NAME"]
    connection.close()  # back to the pool, still open
    assert end_the_pools_idle_connections() >= 1
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def test_a_request_waits_at_most_a_few_seconds_for_a_free_connection(postgresql):
    assert settings.DATABASES["default"]["OPTIONS"]["pool"]["timeout"] <= 10
    assert connection.pool._check is not None  # Django's health checks, made by the pool
