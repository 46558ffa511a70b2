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
from games.realtime import batching
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
    # (on PostgreSQL the update is the statement's own, after its log entries' insert in a WITH)
    updates = [q["sql"] for q in queries.captured_queries if 'UPDATE "games_gametable"' in q["sql"]]
    assert len(updates) == 1


@pytest.mark.django_db
def test_a_big_batchs_log_entries_are_inserted_a_hundred_at_a_time_each_as_one_by_one(table, monkeypatch):
    from games.services import rows

    monkeypatch.setattr(rows, "ENTRIES_PER_INSERT", 4)
    players = list(table.state["players"])
    start_seq = table.seq
    batch = [_rack(players[i % 2], [5, 4, 3, 2, 1] if i % 3 else [1, 2, 3, 4, 5], f"k{i}") for i in range(10)]
    with CaptureQueriesContext(connection) as queries:
        outcomes = services.actions_submit(table_id=table.pk, submissions=batch, now=T0 + 5)
    assert [outcome.seq for outcome in outcomes] == list(range(start_seq + 1, start_seq + 11))
    inserts = [
        q["sql"] for q in queries.captured_queries if q["sql"].startswith('INSERT INTO "games_tablelogentry"')
    ]
    assert len(inserts) == 3  # 4 + 4 + 2
    logged = TableLogEntry.objects.filter(table=table, seq__gt=start_seq).order_by("seq")
    assert [(e.seq, e.player, e.idempotency_key, e.action, e.kind, e.at) for e in logged] == [
        (start_seq + 1 + i, s.player, s.key, s.action, TableLogEntry.Kind.ACTION, T0 + 5)
        for i, s in enumerate(batch)
    ]
    assert all(entry.created_at is not None for entry in logged)
    # the log replays to the stored state, as one-by-one entries do
    table.refresh_from_db()
    entries = [entry.as_log_entry() for entry in table.log.order_by("seq")]
    assert core.replay(get_engine("lineup"), table.config, table.seed, entries) == table.state


@pytest.mark.django_db
def test_a_batch_is_announced_once_with_its_last_sequence_number(table, monkeypatch):
    from games import broadcast

    announced = []
    monkeypatch.setattr(broadcast, "table_changed", lambda *args, **_kwargs: announced.append(args))
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

    def fake_submit(batches):
        ((_table_id, submissions),) = batches.items()
        sizes.append(len(submissions))
        if len(sizes) == 1:
            release.wait(5)  # the first batch is slow: the others queue up meanwhile
        return {_table_id: [services.ActionResult(seq=i) for i, _ in enumerate(submissions)]}

    monkeypatch.setattr(services, "tables_actions_submit", fake_submit)
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
async def test_moves_do_not_queue_behind_the_other_database_calls(monkeypatch):
    """The moves have a thread of their own: while Channels' database thread is busy (a class
    connecting: seats, resumed attempts, snapshots), a move is still applied and answered."""
    from games.realtime.db import database_sync_to_async

    def fake_submit(batches):
        return {
            table_id: [services.ActionResult(seq=1) for _ in batch] for table_id, batch in batches.items()
        }

    monkeypatch.setattr(services, "tables_actions_submit", fake_submit)
    busy, release = threading.Event(), threading.Event()

    def a_long_connect():
        busy.set()
        release.wait(10)

    connecting = asyncio.create_task(database_sync_to_async(a_long_connect)())
    try:
        await asyncio.to_thread(busy.wait, 10)
        outcome = await asyncio.wait_for(TableBatcher().submit(7, _rack("p", [1, 2, 3, 4, 5], "a")), 5)
        assert outcome.seq == 1 and not connecting.done()
    finally:
        release.set()
        await connecting


@pytest.mark.django_db
@pytest.mark.asyncio
async def test_a_batch_that_fails_fails_every_action_in_it(monkeypatch):
    def broken(batches):
        raise GameTable.DoesNotExist

    monkeypatch.setattr(services, "tables_actions_submit", broken)
    batcher = TableBatcher()
    with pytest.raises(GameTable.DoesNotExist):
        await batcher.submit(7, _rack("p", [1, 2, 3, 4, 5], "a"))
    started = time.monotonic()
    with pytest.raises(GameTable.DoesNotExist):  # the batcher is not stuck after a failure
        await batcher.submit(7, _rack("p", [1, 2, 3, 4, 5], "b"))
    assert time.monotonic() - started < 5


@pytest.fixture
def two_tables(class_7b, ms_rivera, ava, ben):
    """Two games of the class, each its own table (homework attempts are one table each)."""
    from tests.factories import enrolled_student

    first = started_session(class_7b, ms_rivera, [ava, ben], "lineup", now=T0)
    others = [enrolled_student(class_7b) for _n in range(2)]
    second = started_session(class_7b, ms_rivera, others, "lineup", now=T0)
    return GameTable.objects.get(session=first), GameTable.objects.get(session=second)


@pytest.mark.django_db
def test_a_trip_of_many_tables_gives_each_its_own_outcomes_and_one_broadcast(
    two_tables, django_capture_on_commit_callbacks
):
    from games import broadcast

    first, second = two_tables
    move = {t.pk: _rack(next(iter(t.state["players"])), [5, 4, 3, 2, 1], f"k{t.pk}") for t in two_tables}
    with broadcast.collected() as collection, django_capture_on_commit_callbacks(execute=True):
        outcomes = services.tables_actions_submit(
            {first.pk: [move[first.pk]], second.pk: [move[second.pk], _rack("nobody", [1, 2, 3, 4, 5], "x")]},
            now=T0 + 5,
        )
    assert outcomes[first.pk][0].seq == first.seq + 1
    assert outcomes[second.pk][0].seq == second.seq + 1
    assert isinstance(outcomes[second.pk][1], services.ActionRefused)
    # Each table's news once, with the table as committed for this process's fan-out (no state sent).
    assert [message["table"] for _group, message in collection.messages.values()] == [first.pk, second.pk]
    assert all("state" not in message for _group, message in collection.messages.values())
    assert {pk: table.seq for pk, table in collection.tables.items()} == {
        first.pk: first.seq + 1,
        second.pk: second.seq + 1,
    }


@pytest.mark.django_db
def test_a_table_that_fails_in_a_trip_is_rolled_back_alone(
    two_tables, monkeypatch, django_capture_on_commit_callbacks
):
    """Any error of one table's batch (not only a table that is gone) rolls back that table alone: the
    other tables' moves are committed and announced; the failed table's log, state and news are untouched."""
    from games import broadcast
    from games.services import play

    first, second = two_tables
    real_submit_one = play._submit_one

    def fails_at_second(write, submission, now, logged):
        outcome = real_submit_one(write, submission, now, logged)  # written, then the table fails
        if write.table.pk == second.pk:
            raise RuntimeError("this table's own fault")
        return outcome

    monkeypatch.setattr(play, "_submit_one", fails_at_second)
    move = {t.pk: _rack(next(iter(t.state["players"])), [5, 4, 3, 2, 1], f"k{t.pk}") for t in two_tables}
    with broadcast.collected() as collection, django_capture_on_commit_callbacks(execute=True):
        outcomes = services.tables_actions_submit(
            {second.pk: [move[second.pk]], first.pk: [move[first.pk]], 987654: [move[first.pk]]}, now=T0 + 5
        )
    assert isinstance(outcomes[second.pk], RuntimeError)
    assert isinstance(outcomes[987654], GameTable.DoesNotExist)
    assert outcomes[first.pk][0].seq == first.seq + 1
    seq_before, state_before = second.seq, second.state
    second.refresh_from_db()
    assert (second.seq, second.state) == (seq_before, state_before)
    assert not TableLogEntry.objects.filter(table=second, idempotency_key=f"k{second.pk}").exists()
    assert TableLogEntry.objects.filter(table=first, idempotency_key=f"k{first.pk}").exists()
    assert [message["table"] for _group, message in collection.messages.values()] == [first.pk]
    assert list(collection.tables) == [first.pk]


@pytest.mark.django_db
@pytest.mark.asyncio
async def test_moves_of_many_tables_share_one_trip_and_one_tables_error_stays_its_own(monkeypatch):
    trips, release = [], threading.Event()

    def fake_submit(batches):
        trips.append({table_id: len(submissions) for table_id, submissions in batches.items()})
        if len(trips) == 1:
            release.wait(5)  # the first trip is slow: moves of other tables queue up meanwhile
        return {
            table_id: RuntimeError("broken table")
            if table_id == 9
            else [services.ActionResult(seq=i) for i, _ in enumerate(submissions)]
            for table_id, submissions in batches.items()
        }

    monkeypatch.setattr(services, "tables_actions_submit", fake_submit)
    batcher = TableBatcher()
    first = asyncio.create_task(batcher.submit(7, _rack("p", [1, 2, 3, 4, 5], "a")))
    await asyncio.sleep(0.05)
    rest = [
        asyncio.create_task(batcher.submit(table_id, _rack("p", [1, 2, 3, 4, 5], f"k{n}")))
        for n, table_id in enumerate([8, 9, 10, 8])
    ]
    await asyncio.sleep(0.05)
    release.set()
    outcomes = await asyncio.gather(first, *rest, return_exceptions=True)
    assert trips == [{7: 1}, {8: 2, 9: 1, 10: 1}]  # one trip for every table waiting
    assert [o.seq for o in outcomes if isinstance(o, services.ActionResult)] == [0, 0, 0, 1]
    assert isinstance(outcomes[2], RuntimeError)  # table 9's move alone hears its table's error


def _log(table, player, key, seq):
    return TableLogEntry.objects.create(
        table=table,
        seq=seq,
        kind=TableLogEntry.Kind.ACTION,
        player=player,
        action={},
        at=T0,
        idempotency_key=key,
    )


@pytest.mark.django_db
@pytest.mark.parametrize("per_lookup", [300, 1], ids=["one statement", "a statement per key"])
def test_a_key_is_found_logged_only_for_its_own_table_and_player(two_tables, monkeypatch, per_lookup):
    from games.services import rows

    monkeypatch.setattr(rows, "KEYS_PER_LOOKUP", per_lookup)
    first, second = two_tables
    _log(first, "ava", "k1", 900)
    _log(second, "ben", "k2", 901)
    _log(first, "ben", "", 902)  # a move without a key is never "already logged"
    wanted = {
        (first.pk, "ava", "k1"),
        (first.pk, "ben", "k1"),
        (second.pk, "ava", "k1"),
        (second.pk, "ben", "k2"),
    }
    found = rows.logged_keys(wanted | {(first.pk, "ben", "")})
    assert sorted(found) == sorted([(first.pk, "ava", "k1", 900), (second.pk, "ben", "k2", 901)])


@pytest.mark.django_db
def test_a_resent_move_is_a_duplicate_at_its_table_and_a_new_move_at_another(two_tables):
    first, second = two_tables
    player = {t.pk: next(iter(t.state["players"])) for t in two_tables}
    (done,) = services.actions_submit(
        table_id=first.pk, submissions=[_rack(player[first.pk], [5, 4, 3, 2, 1], "same")], now=T0 + 5
    )
    outcomes = services.tables_actions_submit(
        {
            first.pk: [_rack(player[first.pk], [5, 4, 3, 2, 1], "same")],
            second.pk: [_rack(player[second.pk], [5, 4, 3, 2, 1], "same")],
        },
        now=T0 + 6,
    )
    assert outcomes[first.pk][0].duplicate and outcomes[first.pk][0].seq == done.seq
    assert not outcomes[second.pk][0].duplicate and outcomes[second.pk][0].seq == second.seq + 1
    # The trip was made again with the look-up: the other table's move is logged once, not twice.
    assert TableLogEntry.objects.filter(table=second, idempotency_key="same").count() == 1
    assert TableLogEntry.objects.filter(table=first, idempotency_key="same").count() == 1
    second.refresh_from_db()
    assert second.seq == outcomes[second.pk][0].seq


def _key_look_ups(queries):
    """The look-ups of keys already logged (``rows.logged_keys``: the wanted keys joined with the log)."""
    return [q["sql"] for q in queries.captured_queries if q["sql"].startswith("WITH wanted")]


@pytest.mark.django_db
def test_a_trip_without_a_resent_move_does_not_look_its_keys_up(two_tables):
    """The log's unique index refuses a second entry with a key anyway: a trip looks the keys up only
    when an insert hits it."""
    move = {t.pk: _rack(next(iter(t.state["players"])), [5, 4, 3, 2, 1], f"k{t.pk}") for t in two_tables}
    with CaptureQueriesContext(connection) as queries:
        outcomes = services.tables_actions_submit({pk: [m] for pk, m in move.items()}, now=T0 + 5)
    assert all(isinstance(outcomes[pk][0], services.ActionResult) for pk in move)
    assert _key_look_ups(queries) == []


@pytest.mark.django_db
def test_a_resent_move_in_a_trip_is_broadcast_and_its_facts_batch_queued_once(
    two_tables, django_capture_on_commit_callbacks, monkeypatch
):
    """The trip that hit the unique index is rolled back whole: what it would have sent after its commit
    goes nowhere, and the trip made again sends each table's news once."""
    from games import broadcast
    from games.services import log

    first, second = two_tables
    player = {t.pk: next(iter(t.state["players"])) for t in two_tables}
    services.actions_submit(
        table_id=first.pk, submissions=[_rack(player[first.pk], [5, 4, 3, 2, 1], "same")], now=T0 + 5
    )
    queued = []
    monkeypatch.setattr(log.FactsBatch, "queue", lambda batch: queued.append(dict(batch.seqs)))
    trip = {
        first.pk: [
            _rack(player[first.pk], [5, 4, 3, 2, 1], "same"),  # resent
            _rack(player[first.pk], [1, 2, 3, 4, 5], "new"),
            _rack(player[first.pk], [1, 2, 3, 4, 5], "new"),  # and a double tap
        ],
        second.pk: [_rack(player[second.pk], [5, 4, 3, 2, 1], "other")],
    }
    with (
        CaptureQueriesContext(connection) as queries,
        broadcast.collected() as collection,
        django_capture_on_commit_callbacks(execute=True),
    ):
        outcomes = services.tables_actions_submit(trip, now=T0 + 6)
    resent, new, tapped = outcomes[first.pk]
    assert resent.duplicate and tapped.duplicate and tapped.seq == new.seq and not new.duplicate
    assert len(_key_look_ups(queries)) == 1  # only in the trip made again
    assert sorted(message["table"] for _group, message in collection.messages.values()) == sorted(trip)
    assert len(queued) == 1  # the rolled-back trip's batch never went
    assert list(
        TableLogEntry.objects.filter(table=first, seq__gt=resent.seq).values_list(
            "idempotency_key", flat=True
        )
    ) == ["new"]


@pytest.mark.django_db
def test_on_sqlite_the_keys_are_looked_up_through_the_logs_unique_index(two_tables):
    """Filtered by tables and keys, SQLite read every entry of each table's log; the look-up must probe
    the partial unique index on (table, player, key)."""
    from games.services import rows

    if connection.vendor != "sqlite":
        pytest.skip("SQLite's query plan")
    head, tail = rows._logged_keys_sql(connection.alias)
    with connection.cursor() as cursor:
        cursor.execute(
            "EXPLAIN QUERY PLAN " + head + "(%s, %s, %s), (%s, %s, %s)" + tail, [1, "a", "k", 2, "b", "k"]
        )
        plan = " ".join(str(row[-1]) for row in cursor.fetchall())
    assert "USING INDEX log_idempotency_unique" in plan, plan


@pytest.mark.django_db
@pytest.mark.asyncio
async def test_a_trips_learning_facts_are_queued_from_a_thread_of_their_own_after_the_acknowledgement(
    monkeypatch,
):
    """A broker slow to answer holds back neither the move's acknowledgement nor the next trip."""
    from games.services import log

    queued, release = [], threading.Event()

    def slow_queue(items):
        release.wait(5)
        queued.append((items, threading.current_thread().name))

    def fake_submit(batches):
        facts = log.FactsBatch()
        for table_id in batches:
            facts.add(table_id, 1)
        facts.queue()  # as the trip's commit hook does
        return {
            table_id: [services.ActionResult(seq=1) for _ in batch] for table_id, batch in batches.items()
        }

    monkeypatch.setattr(batching, "facts_publisher", log.FactsPublisher(queue=slow_queue, gather=0))
    monkeypatch.setattr(services, "tables_actions_submit", fake_submit)
    batcher = TableBatcher()
    try:
        first = await asyncio.wait_for(batcher.submit(7, _rack("p", [1, 2, 3, 4, 5], "a")), 5)
        second = await asyncio.wait_for(batcher.submit(8, _rack("p", [1, 2, 3, 4, 5], "b")), 5)
        assert first.seq == second.seq == 1 and queued == []
    finally:
        release.set()
    for _ in range(500):
        if sum(len(items) for items, _thread in queued) == 2:
            break
        await asyncio.sleep(0.01)
    # Both trips' facts, once each (the second's in the same task if it came before the first was taken).
    assert sorted(item for items, _thread in queued for item in items) == [(7, [1]), (8, [1])]
    assert all(thread.startswith("classplay-facts") for _items, thread in queued)


def test_facts_handed_over_while_a_publishing_runs_go_together_in_the_next():
    from games.services import log

    queued, started, release = [], threading.Event(), threading.Event()

    def slow_queue(items):
        started.set()
        release.wait(5)
        queued.append(items)

    publisher = log.FactsPublisher(queue=slow_queue, gather=0)
    held = [log.HeldFacts() for _ in range(3)]
    for table_id, facts in enumerate(held, start=1):
        facts.add({table_id: [table_id * 10]})
    first = publisher.hand_over(held[0])
    assert started.wait(5)
    assert publisher.hand_over(held[1]) is None and publisher.hand_over(held[2]) is None
    assert publisher.hand_over(log.HeldFacts()) is None  # nothing to queue
    release.set()
    first.result(5)
    assert queued == [[(1, [10])], [(2, [20]), (3, [30])]]


def test_facts_handed_over_within_the_gathering_wait_go_in_one_task():
    """A publishing waits a moment for the next trips' facts: one task for them all, not one a trip."""
    from games.services import log

    queued = []
    publisher = log.FactsPublisher(queue=queued.append, gather=0.2)
    first = publisher.hand_over(_held({1: [10]}))
    assert publisher.hand_over(_held({2: [20]})) is None
    assert publisher.hand_over(_held({1: [11]})) is None
    first.result(5)
    assert queued == [[(1, [10, 11]), (2, [20])]]
    assert log.FactsPublisher().gather == log.FACTS_GATHER_SECONDS > 0


def _held(seqs):
    from games.services import log

    held = log.HeldFacts()
    held.add(seqs)
    return held
