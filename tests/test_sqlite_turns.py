"""The embedded server's SQLite backend (``config.sqlite``): the threads of one process take turns on a
lock of their own for their transactions, woken as the previous one ends, instead of sleeping in
SQLite's busy handler. Every way a transaction ends gives the turn back."""

import threading
from unittest import mock

import pytest
from django.db import OperationalError, connection, connections, transaction
from django.db.backends.sqlite3 import base as django_sqlite

from config.sqlite import base as turns

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def writers_lock():
    if connection.vendor != "sqlite":
        pytest.skip("the embedded server's SQLite backend")
    assert not connection.in_atomic_block
    return turns._writers_lock(connection.settings_dict["NAME"])


def _in_thread(work) -> threading.Thread:
    def run():
        try:
            work()
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_a_second_writer_waits_for_the_first_to_commit_then_goes_at_once(writers_lock):
    first_in, first_may_end, second_in = threading.Event(), threading.Event(), threading.Event()

    def first():
        with transaction.atomic():
            first_in.set()
            first_may_end.wait(10)

    def second():
        first_in.wait(10)
        with transaction.atomic():
            second_in.set()

    threads = [_in_thread(first), _in_thread(second)]
    assert first_in.wait(10)
    assert writers_lock.locked()
    assert not second_in.wait(0.3)  # waiting for its turn (SQLite's own lock is never asked)
    first_may_end.set()
    assert second_in.wait(10)
    for thread in threads:
        thread.join(10)
    assert not writers_lock.locked()


def test_reads_outside_a_transaction_do_not_wait(writers_lock):
    with transaction.atomic():
        done = threading.Event()

        def read():
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
            done.set()

        _in_thread(read).join(10)
        assert done.is_set()


def test_a_rollback_gives_the_turn_back(writers_lock):
    with pytest.raises(ValueError), transaction.atomic():
        assert writers_lock.locked()
        raise ValueError("anything that rolls the transaction back")
    assert not writers_lock.locked()


def test_a_connection_closed_in_a_transaction_gives_the_turn_back(writers_lock):
    transaction.set_autocommit(False)
    try:
        connection.ensure_connection()
        connection._start_transaction_under_autocommit()
        assert writers_lock.locked()
        connection.close()
        assert not writers_lock.locked()
    finally:
        connection.connect()


def test_a_begin_that_fails_gives_the_turn_back(writers_lock):
    busy = OperationalError("database is locked")
    with (
        mock.patch.object(
            django_sqlite.DatabaseWrapper, "_start_transaction_under_autocommit", side_effect=busy
        ),
        pytest.raises(OperationalError),
        transaction.atomic(),
    ):
        pass
    assert not writers_lock.locked()
    with transaction.atomic():  # and the next transaction goes as usual
        assert writers_lock.locked()


def test_turns_go_in_the_order_they_were_asked_for():
    turns_ = turns.Turns()
    assert turns_.acquire(timeout=1)
    order = []

    def writer(name):
        assert turns_.acquire(timeout=10)
        order.append(name)
        turns_.release()

    threads = []
    for name in ("moves", "connect", "clock"):
        threads.append(threading.Thread(target=writer, args=(name,)))
        threads[-1].start()
        while len(turns_._waiting) < len(threads):  # each in line before the next asks
            threading.Event().wait(0.001)
    turns_.release()
    for thread in threads:
        thread.join(10)
    assert order == ["moves", "connect", "clock"] and not turns_.locked()


def test_a_turn_not_given_in_time_is_not_taken():
    turns_ = turns.Turns()
    assert turns_.acquire(timeout=1)
    assert not turns_.acquire(timeout=0.01)
    turns_.release()
    assert not turns_.locked() and turns_.acquire(timeout=0.01)
