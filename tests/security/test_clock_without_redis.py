"""While Redis is down the clock keeps firing deadlines from the database. Queueing the learning facts
(Celery's broker) and telling the screens (the channel layer) used to wait on Redis's retries after each
deadline, and deadlines stopped for seconds at a time; now a failure is noticed once and skipped while
it lasts, and what was skipped is made good (facts at the session's wrap-up, screens on reconnect)."""

import asyncio
from datetime import timedelta
from unittest import mock

import pytest
from channels.layers import get_channel_layer
from kombu.exceptions import OperationalError as BrokerError

from games import clock, outbox, services
from games.models import GameTable, TableLogEntry
from tests.factories import enrolled_student, started_session

pytestmark = pytest.mark.django_db
T0 = 2_000_000.0
SLOW_FAILURE = 0.4


def _redis_down(monkeypatch):
    """Every call to Redis fails: the broker (both tasks) and the channel layer."""
    calls = {"broker": 0, "channel layer": 0}

    def broker(*_args, **_kwargs):
        calls["broker"] += 1
        raise BrokerError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    async def layer(*_args, **_kwargs):
        calls["channel layer"] += 1
        await asyncio.sleep(SLOW_FAILURE)  # as a client retrying a lost connection does, before it gives up
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr("games.tasks.tables_facts.delay", broker)
    monkeypatch.setattr("games.tasks.session_wrap_up.delay", broker)
    monkeypatch.setattr(get_channel_layer(), "group_send", layer)
    monkeypatch.setattr(get_channel_layer(), "group_send_many", layer)
    return calls


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run what waits for the commit (the queueing, the broadcasts) as a real commit would."""

    def run():
        return django_capture_on_commit_callbacks(execute=True)

    return run


def test_deadlines_keep_firing_while_redis_is_down(monkeypatch, committed, class_7b, ms_rivera):
    students = [enrolled_student(class_7b) for _n in range(6)]
    session = started_session(class_7b, ms_rivera, students, "faces", now=T0)
    tables = list(GameTable.objects.filter(session=session))
    assert len(tables) == 3
    calls = _redis_down(monkeypatch)
    now = max(table.deadline for table in tables) + 1
    for _round in range(3):  # three rounds of every table's deadline, each fired at once
        with committed():
            assert clock.tick(now=now, check_lobbies=False) >= len(tables)
        now = max(GameTable.objects.get(pk=table.pk).deadline or now for table in tables) + 1
    assert TableLogEntry.objects.filter(table__session=session, kind="deadline").count() >= 3 * len(tables)
    # Noticed once, then not waited on: one slow failure, not nine. (Counted, not timed: a wall-clock
    # bound fails on a loaded machine.)
    assert calls["channel layer"] == 1
    assert outbox.is_down("channel layer")


def test_the_screens_are_told_again_once_redis_answers(monkeypatch, committed, class_7b, ms_rivera):
    students = [enrolled_student(class_7b) for _n in range(2)]
    session = started_session(class_7b, ms_rivera, students, "faces", now=T0)
    table = GameTable.objects.get(session=session)
    _redis_down(monkeypatch)
    with committed():
        assert clock.tick(now=table.deadline + 1, check_lobbies=False) == 1
    monkeypatch.undo()
    outbox.reset()  # the retry window is over
    table.refresh_from_db()
    with mock.patch("games.broadcast.async_to_sync") as sent, committed():
        assert clock.tick(now=table.deadline + 1, check_lobbies=False) == 1
    assert sent.called


def test_a_wrap_up_lost_while_the_broker_was_down_is_queued_again(
    monkeypatch, committed, class_7b, ms_rivera
):
    students = [enrolled_student(class_7b) for _n in range(2)]
    session = started_session(class_7b, ms_rivera, students, "faces", now=T0, timeout="lose_match")
    calls = _redis_down(monkeypatch)
    table = GameTable.objects.get(session=session)
    with committed():
        assert clock.tick(now=table.deadline + 1, check_lobbies=False) == 1
    session.refresh_from_db()
    assert session.status == "finished" and session.wrapped_up_at is None
    assert calls["broker"] >= 1  # its wrap-up was tried, and lost
    monkeypatch.undo()
    outbox.reset()
    with mock.patch("games.tasks.session_wrap_up.delay") as queued:
        services.sessions_wrap_up_missed(now=session.ended_at + timedelta(minutes=10))
    queued.assert_called_once_with(session.pk)


def test_a_call_that_fails_for_its_own_reason_does_not_silence_the_next_ones():
    """A bug in one broadcast (here: async code called from an event loop's thread) is not Redis being
    down: the next broadcast, a session's end say, must still reach the screens."""
    from games import outbox

    outbox.reset()

    def broken():
        raise RuntimeError("You cannot use AsyncToSync in the same thread as an async event loop")

    calls = []
    assert outbox.attempt("channel layer", broken) is False
    assert outbox.attempt("channel layer", lambda: calls.append("sent")) is True
    assert calls == ["sent"]

    def refused():
        raise ConnectionRefusedError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    assert outbox.attempt("channel layer", refused) is False
    assert outbox.attempt("channel layer", lambda: calls.append("skipped")) is False
    assert calls == ["sent"]
    outbox.reset()


def test_a_broadcast_skipped_while_redis_was_down_is_sent_once_it_may_be_asked_again(monkeypatch):
    """A move made in the seconds after a failure must still reach the screens, without waiting for a
    later change to carry it."""
    import threading

    from games import outbox

    outbox.reset()
    monkeypatch.setitem(outbox.RETRY_AFTER, "channel layer", 0.2)
    sent = threading.Event()

    def refused():
        raise ConnectionRefusedError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    assert outbox.attempt("channel layer", refused, resend_key="table 1") is False
    assert outbox.attempt("channel layer", sent.set, resend_key="table 1") is False  # skipped: down
    assert sent.wait(timeout=5), "the skipped broadcast was never sent"
    outbox.reset()
