"""A prefork worker keeps its database pool between tasks (Celery's Django fix-up would close it, and
open a new one and a new PostgreSQL connection, around every task) and gives its connection back to
the pool after each task, as a web request does."""

from types import SimpleNamespace
from unittest import mock

import pytest
from celery.fixups.django import DjangoWorkerFixup

from config import celery


def test_the_fix_up_no_longer_closes_the_pool_around_every_task():
    fixup = DjangoWorkerFixup(celery.app)
    assert fixup.db_reuse_max >= 1000
    with mock.patch.object(fixup, "_close_database") as closed:
        for _task in range(100):
            fixup.close_database()
    closed.assert_not_called()


def test_after_a_task_its_connection_goes_back_and_a_broken_one_is_dropped():
    task = SimpleNamespace(request=SimpleNamespace(is_eager=False))
    with mock.patch("config.celery.close_old_connections") as back:
        celery._connections_back_to_pool(sender=task)
    back.assert_called_once_with()


def test_an_eager_task_leaves_its_callers_connection_alone():
    """It runs inside the caller's transaction, which closing would break."""
    task = SimpleNamespace(request=SimpleNamespace(is_eager=True))
    with mock.patch("config.celery.close_old_connections") as back:
        celery._connections_back_to_pool(sender=task)
    back.assert_not_called()


@pytest.mark.django_db(transaction=True)
def test_the_embedded_workers_sqlite_connection_is_kept_between_tasks_unless_a_call_failed():
    from django.db import connection

    if connection.vendor != "sqlite":
        pytest.skip("the embedded worker's SQLite (PostgreSQL's connections go back to the pool)")
    task = SimpleNamespace(request=SimpleNamespace(is_eager=False))
    connection.ensure_connection()
    kept = connection.connection
    celery._connections_back_to_pool(sender=task)
    assert connection.connection is kept
    connection.errors_occurred = True
    with mock.patch.object(connection, "is_usable", return_value=False):
        celery._connections_back_to_pool(sender=task)
    assert connection.connection is None
