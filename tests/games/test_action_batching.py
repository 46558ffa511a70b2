"""A burst of answers at one table is applied in batches: one transaction and one stored state per batch,
yet each action keeps its own log entry, sequence number, idempotency and refusal."""

import asyncio
import threading
import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.definitions import get_engine
from games.engine import core
from games.models import GameTable, TableLogEntry
from games.realtime.batching import TableBatcher
from tests.factories import started_session

T0 = 1_000_000.0


@pytest.fixture
def table(class_7b, ms_rivera, ava, ben):
    session = started_session(class_7b, ms_rivera, [ava, ben], "lineup", now=T0)
    return GameTable.objects.get(session=session)


def _rack(player, order, key):
    return services.Submission(player=player, action={"type": "rack", "order": order}, key=key)


@pytest.mark.django_db
def test_a_batch_gives_each_action_its_own_outcome_and_the_same_state_as_one_by_one(table):
    blue, yellow = sorted(table.state["players"], key=lambda p: table.state["players"][p]["team"])
    start_seq, start_state = table.seq, table.state
    batch = [
        _rack(blue, [5, 4, 3, 2, 1], "k1"),
        _rack(yellow, [1, 2, 3, 4, 5], "k2"),
        _rack(blue, [5, 4, 3, 2, 1], "k1"),  # a double tap: the same key again
        _rack(blue, [1, 1, 1, 1, 1], "k3"),  # not an order: refused by the rules
        services.Submission(player=core.TEACHER, action={"type": "rack", "order": [1, 2, 3, 4, 5]}, key="k4"),
    ]
    first, second, again, bad, impostor = services.actions_submit(
        table_id=table.pk, submissions=batch, now=T0 + 5
    )
    assert (first.seq, second.seq) == (start_seq + 1, start_seq + 2)
    assert again.seq == first.seq and again.duplicate
    assert isinstance(bad, services.ActionRefused) and bad.code
    assert isinstance(impostor, services.ActionRefused) and impostor.code == "not_allowed"
    table.refresh_from_db()
    assert table.seq == start_seq + 2
    assert list(
        TableLogEntry.objects.filter(table=table, seq__gt=start_seq).values_list("idempotency_key", flat=True)
    ) == ["k1", "k2"]
    engine = get_engine("lineup")
    expected, _events = engine.apply(start_state, blue, {"type": "rack", "order": [5, 4, 3, 2, 1]}, T0 + 5)
    expected, _events = engine.apply(expected, yellow, {"type": "rack", "order": [1, 2, 3, 4, 5]}, T0 + 5)
    assert table.state == expected


@pytest.mark.django_db
def test_a_batch_stores_the_tables_state_once(table):
    players = list(table.state["players"])
    batch = [_rack(players[i % 2], [5, 4, 3, 2, 1] if i % 3 else [1, 2, 3, 4, 5], f"k{i}") for i in range(6)]
    with CaptureQueriesContext(connection) as queries:
        outcomes = services.actions_submit(table_id=table.pk, submissions=batch, now=T0 + 5)
    assert all(isinstance(outcome, services.ActionResult) for outcome in outcomes)
    updates = [q["sql"] for q in queries.captured_queries if q["sql"].startswith('UPDATE "games_gametable"')]
    assert len(updates) == 1


@pytest.mark.django_db
def test_a_batch_is_announced_once_with_its_last_sequence_number(table, monkeypatch):
    from games import broadcast

    announced = []
    monkeypatch.setattr(broadcast, "table_changed", lambda *args: announced.append(args))
    players = list(table.state["players"])
    batch = [_rack(players[i % 2], [5, 4, 3, 2, 1], f"k{i}") for i in range(4)]
    services.actions_submit(table_id=table.pk, submissions=batch, now=T0 + 5)
    table.refresh_from_db()
    assert announced == [(table.session_id, table.pk, table.seq)]
    services.actions_submit(
        table_id=table.pk, submissions=[_rack("nobody", [1, 2, 3, 4, 5], "x")], now=T0 + 6
    )
    assert len(announced) == 1  # nothing changed: nothing to announce


@pytest.mark.django_db
def test_a_deadline_that_passed_fires_first_and_the_late_answer_is_refused(table):
    player = next(iter(table.state["players"]))
    late = table.deadline + 1
    outcome, second = services.actions_submit(
        table_id=table.pk,
        submissions=[_rack(player, [5, 4, 3, 2, 1], "late"), _rack(player, [1, 2, 3, 4, 5], "x")],
        now=late,
    )
    assert isinstance(outcome, services.ActionRefused) and outcome.code == "too_late"
    assert isinstance(second, services.ActionRefused)  # the question is being revealed now
    kinds = list(TableLogEntry.objects.filter(table=table).values_list("kind", flat=True))
    assert kinds.count(TableLogEntry.Kind.DEADLINE) == 1


@pytest.mark.django_db
def test_action_submit_still_raises_a_refusal(table):
    with pytest.raises(services.ActionRefused):
        services.action_submit(table_id=table.pk, player="nobody", action={"type": "rack"}, key="k")


@pytest.mark.django_db  # database_sync_to_async tidies the thread's connections
@pytest.mark.asyncio
async def test_actions_arriving_while_a_batch_is_applied_go_together_into_the_next(monkeypatch):
    sizes, release = [], threading.Event()

    def fake_submit(*, table_id, submissions):
        sizes.append(len(submissions))
        if len(sizes) == 1:
            release.wait(5)  # the first batch is slow: the others queue up meanwhile
        return [services.ActionResult(seq=i) for i, _ in enumerate(submissions)]

    monkeypatch.setattr(services, "actions_submit", fake_submit)
    batcher = TableBatcher()
    first = asyncio.create_task(batcher.submit(7, _rack("p", [1, 2, 3, 4, 5], "a")))
    await asyncio.sleep(0.05)
    rest = [asyncio.create_task(batcher.submit(7, _rack("p", [1, 2, 3, 4, 5], f"k{i}"))) for i in range(5)]
    await asyncio.sleep(0.05)
    release.set()
    outcomes = await asyncio.gather(first, *rest)
    assert sizes == [1, 5]
    assert [o.seq for o in outcomes] == [0, 0, 1, 2, 3, 4]


@pytest.mark.django_db
@pytest.mark.asyncio
async def test_a_batch_that_fails_fails_every_action_in_it(monkeypatch):
    def broken(*, table_id, submissions):
        raise GameTable.DoesNotExist

    monkeypatch.setattr(services, "actions_submit", broken)
    batcher = TableBatcher()
    with pytest.raises(GameTable.DoesNotExist):
        await batcher.submit(7, _rack("p", [1, 2, 3, 4, 5], "a"))
    started = time.monotonic()
    with pytest.raises(GameTable.DoesNotExist):  # the batcher is not stuck after a failure
        await batcher.submit(7, _rack("p", [1, 2, 3, 4, 5], "b"))
    assert time.monotonic() - started < 5
