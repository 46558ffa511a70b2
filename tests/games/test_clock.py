"""The clock fires due deadlines from the database, so a restart loses none and fires none twice."""

import threading
from datetime import timedelta

import pytest
from django.db import OperationalError
from django.utils import timezone

from games import clock, services
from games.models import GameTable, TableLogEntry
from games.services import rows
from tests.factories import enrolled_student, started_session

pytestmark = pytest.mark.django_db
T0 = 2_000_000.0


def test_a_restarted_clock_fires_what_became_due_exactly_once(class_7b, ms_rivera, ava, ben):
    # A missed turn that ends the match, so that firing it leaves no later deadline to fire.
    session = started_session(class_7b, ms_rivera, [ava, ben], "faces", now=T0, timeout="lose_match")
    table = GameTable.objects.get(session=session)
    due = table.deadline
    # The server was down while the deadline passed; the first tick after the restart fires it...
    assert clock.tick(now=due + 300, check_lobbies=False) == 1
    # ... and a second clock (or a second tick) finds nothing left to fire.
    assert clock.tick(now=due + 300, check_lobbies=False) == 0
    assert TableLogEntry.objects.filter(table=table, kind="deadline").count() == 1


def test_the_clock_opens_lobbies_that_are_due(class_7b, ms_rivera):
    session = services.session_schedule(
        classroom=class_7b, by=ms_rivera, game="lineit", scheduled_for=timezone.now() + timedelta(minutes=2)
    )
    clock.tick()
    session.refresh_from_db()
    assert session.status == "lobby"


def test_the_clock_wakes_for_the_next_deadline_of_a_running_table(class_7b, ms_rivera, ava, ben):
    from games import selectors

    assert selectors.next_clock_due() is None  # nothing running: sleep a whole interval
    session = started_session(class_7b, ms_rivera, [ava, ben], "faces", now=T0)
    table = GameTable.objects.get(session=session)
    assert selectors.next_clock_due() == min(t for t in (table.deadline, table.bot_due) if t is not None)
    services.session_pause(session=session, by=ms_rivera, now=T0 + 1)
    assert selectors.next_clock_due() is None  # a paused game's clocks are frozen


def test_the_next_due_time_is_the_earliest_of_running_tables_only(class_7b, ms_rivera, ava, ben):
    from games import selectors

    first = started_session(class_7b, ms_rivera, [ava, ben], "faces", now=T0)
    second = started_session(class_7b, ms_rivera, [ava, ben], "faces", now=T0)
    GameTable.objects.filter(session=first).update(deadline=T0 + 50, bot_due=None)
    GameTable.objects.filter(session=second).update(deadline=T0 + 90, bot_due=T0 + 30)
    assert selectors.next_clock_due() == T0 + 30  # a computer's move before any deadline
    GameTable.objects.filter(session=second).update(status=GameTable.Status.FINISHED)
    assert selectors.next_clock_due() == T0 + 50  # a finished table's times are not the clock's
    GameTable.objects.filter(session=first).update(deadline=None)
    assert selectors.next_clock_due() is None


def test_on_sqlite_the_clock_finds_due_tables_through_their_time_indexes(class_7b, ms_rivera, ava, ben):
    """Joined to the sessions' status, SQLite planned these through it: every running table, several
    times a second (1.5 ms a query with 1000 homework games)."""
    from django.db import connection

    from games import selectors

    if connection.vendor != "sqlite":
        pytest.skip("the plans of SQLite's query planner")
    started_session(class_7b, ms_rivera, [ava, ben], "faces", now=T0)
    queries = []
    with connection.execute_wrapper(lambda execute, sql, *rest: queries.append(sql) or execute(sql, *rest)):
        rows.due_table_ids(T0)  # what clock_sweep sweeps
        rows.due_table_ids(T0, bots=False)  # deadline_sweep
        rows.due_table_ids(T0, deadlines=False)  # bots_sweep
        selectors.next_clock_due()
    assert len(queries) == 5  # the due tables (three ways), the next deadline, the next computer's move
    with connection.cursor() as cursor:
        for sql in queries:
            assert "games_gamesession" not in sql
            cursor.execute("EXPLAIN QUERY PLAN " + sql, [T0] * sql.count("%s"))
            plan = " ".join(str(row[-1]) for row in cursor.fetchall())
            assert "INDEX" in plan and "SCAN games_gametable" not in plan, plan


def test_the_clock_sweeps_the_tables_still_playing_with_a_deadline_or_a_computer_due(class_7b, ms_rivera):
    tables = []
    for n in range(4):
        students = [enrolled_student(class_7b, display_name=f"Due {n}{i}") for i in range(2)]
        tables.append(started_session(class_7b, ms_rivera, students, "wordup", now=T0).tables.get())
    times = [(T0 - 1, None), (T0 + 60, T0), (T0 + 60, T0 + 1), (T0 - 5, T0 - 5)]
    for table, (deadline, bot_due) in zip(tables, times, strict=True):
        GameTable.objects.filter(pk=table.pk).update(deadline=deadline, bot_due=bot_due)
    GameTable.objects.filter(pk=tables[3].pk).update(status=GameTable.Status.FINISHED)
    assert rows.due_table_ids(T0) == [tables[0].pk, tables[1].pk]
    assert rows.due_table_ids(T0, bots=False) == [tables[0].pk]
    assert rows.due_table_ids(T0, deadlines=False) == [tables[1].pk]


def test_the_clock_sleeps_until_the_next_due_time_not_a_whole_interval(monkeypatch):
    now = [100.0]
    wait = _first_wait(monkeypatch, now, lambda **kwargs: 0, next_clock_due=lambda: now[0] + 0.1)
    assert 0.05 <= wait <= 0.1


def _first_wait(monkeypatch, now: list[float], tick, next_clock_due) -> float:
    """Run the clock's loop on a fake clock (``now[0]``, which ``tick`` moves on) until its first wait;
    how long that wait is."""
    from types import SimpleNamespace

    from games import selectors

    stop, waits = threading.Event(), []
    monkeypatch.setattr(clock, "tick", tick)
    monkeypatch.setattr(clock, "time", SimpleNamespace(monotonic=lambda: now[0], time=lambda: now[0]))
    monkeypatch.setattr(selectors, "next_clock_due", next_clock_due)
    monkeypatch.setattr(clock, "close_old_connections", lambda: None)

    def wait(seconds):
        waits.append(seconds)
        stop.set()

    monkeypatch.setattr(stop, "wait", wait)
    clock.run(stop, interval=5.0)
    return waits[0]


@pytest.mark.parametrize(
    ("sweep_seconds", "expected_wait"),
    [(0.015, clock.MIN_GAP_SECONDS - 0.015), (0.040, 0.0)],
    ids=["a quick sweep waits out the gap", "a long sweep is followed at once"],
)
def test_sweeps_start_a_gap_apart_not_a_gap_after_each(monkeypatch, sweep_seconds, expected_wait):
    """With a computer's move always due (1000 homework games), a fixed pause after every sweep made
    each move wait for it too."""
    now = [100.0]

    def tick(**kwargs):
        now[0] += sweep_seconds
        return 1

    wait = _first_wait(monkeypatch, now, tick, next_clock_due=lambda: now[0] - 1)  # already due
    assert wait == pytest.approx(expected_wait)


def test_after_a_sweep_that_moved_games_on_the_next_starts_a_gap_later_without_asking_when(monkeypatch):
    """With 1000 homework games something is nearly always due a gap later: asking the database when
    (two queries) after every such sweep was an eighth of the clock's work."""
    now = [100.0]

    def tick(**kwargs):
        now[0] += 0.010
        return 3

    def next_clock_due():
        raise AssertionError("not asked after a sweep that moved games on")

    wait = _first_wait(monkeypatch, now, tick, next_clock_due)
    assert wait == pytest.approx(clock.MIN_GAP_SECONDS - 0.010)


def test_the_clock_sends_its_sweeps_facts_together_at_most_half_a_second_apart_and_when_it_stops(monkeypatch):
    from types import SimpleNamespace

    from games.services import log

    stop, now, sent, sweeps = threading.Event(), [100.0], [], []

    def tick(**kwargs):
        sweeps.append(now[0])
        log._holding.facts.add({7: [len(sweeps)]})  # what a sweep's commit hands the holder
        now[0] += 0.2
        if len(sweeps) == 5:
            stop.set()
        return 1

    monkeypatch.setattr(clock, "tick", tick)
    monkeypatch.setattr(clock, "time", SimpleNamespace(monotonic=lambda: now[0], time=lambda: now[0]))
    monkeypatch.setattr(log.time, "monotonic", lambda: now[0])
    monkeypatch.setattr(log, "queue_tables_facts", sent.append)
    monkeypatch.setattr(clock, "close_old_connections", lambda: None)
    monkeypatch.setattr(stop, "wait", lambda seconds: None)
    clock.run(stop, interval=5.0)
    # Held from the first sweep: sent once 0.5 s had passed (after the third), the rest at the stop.
    assert sent == [[(7, [1, 2, 3])], [(7, [4, 5])]]


@pytest.mark.django_db(transaction=True)
def test_the_clock_thread_keeps_its_connection_between_sweeps_and_closes_it_when_stopped(monkeypatch):
    """Opening and closing a connection four times a second cost the server as much as the sweeps."""
    import threading

    from django.db import connections

    from games import selectors

    used, swept = [], threading.Event()

    def tick(**kwargs):
        wrapper = connections["default"]  # this thread's own
        wrapper.ensure_connection()
        used.append((wrapper, wrapper.connection))
        if len(used) == 3:
            swept.set()
        return 0

    monkeypatch.setattr(clock, "tick", tick)
    monkeypatch.setattr(selectors, "next_clock_due", lambda: None)
    running = clock.InProcessClock(interval=0.01)
    running.thread.start()
    assert swept.wait(10)
    running.stop()
    assert not running.thread.is_alive()
    wrapper, first = used[0]
    assert all(raw is first for _wrapper, raw in used)  # the same connection every sweep
    if wrapper.vendor != "sqlite" or not wrapper.is_in_memory_db():  # Django never closes those
        assert wrapper.connection is None  # closed once the clock stopped


@pytest.mark.parametrize(
    ("error", "expected_wait"),
    [
        (OperationalError("database table is locked: games_gametable"), 0.25),
        (OperationalError("database is locked"), 0.25),
        (OperationalError("server closed the connection unexpectedly"), clock.ERROR_BACKOFF_SECONDS),
        (RuntimeError("a bug"), clock.ERROR_BACKOFF_SECONDS),
    ],
)
def test_a_locked_database_is_retried_at_the_next_sweep_other_errors_after_a_pause(
    monkeypatch, error, expected_wait
):
    """SQLite refuses a read while another connection writes ("locked"): that is not a failure to wait
    five seconds for (a deadline would fire late); anything else is, and the connection is dropped."""
    import threading

    stop, waits, closed = threading.Event(), [], []

    def tick(**kwargs):
        raise error

    def wait(seconds):
        waits.append(seconds)
        stop.set()

    monkeypatch.setattr(clock, "tick", tick)
    monkeypatch.setattr(clock, "close_old_connections", lambda: closed.append(True))
    monkeypatch.setattr(stop, "wait", wait)
    clock.run(stop, interval=0.25)
    assert waits == [expected_wait]
    dropped = expected_wait == clock.ERROR_BACKOFF_SECONDS
    assert len(closed) == (2 if dropped else 1)  # (and once more as the clock stops)


@pytest.mark.django_db(transaction=True)
def test_a_sweep_tells_the_screens_in_one_hand_over_after_it(monkeypatch, class_7b, ms_rivera):
    """Each fired deadline's news is kept until the sweep is done, then all of it is sent together
    (one hand-over to the channel layer, not one per table)."""
    from tests.factories import enrolled_student

    students = [enrolled_student(class_7b) for _n in range(6)]
    session = started_session(class_7b, ms_rivera, students, "faces", now=T0)
    tables = list(GameTable.objects.filter(session=session))
    handed_over = []

    async def send_collected(collection):
        handed_over.append(sorted(message["table"] for _group, message in collection.messages.values()))

    monkeypatch.setattr(clock.broadcast, "send_collected", send_collected)
    assert clock.tick(now=max(t.deadline for t in tables) + 1, check_lobbies=False) >= len(tables)
    assert handed_over == [sorted(t.pk for t in tables)]


def test_the_clock_sends_every_sweeps_broadcasts_from_one_event_loop(monkeypatch):
    """The Redis layer's connections belong to the loop that made them: a loop per sweep was a new
    connection per sweep."""
    import asyncio as aio

    from games import broadcast

    loops = []

    async def send(collection):
        loops.append(aio.get_running_loop())

    collection = broadcast.Collected()
    collection.add("session-1", {"type": "table.changed"}, key="t1")
    monkeypatch.setattr(broadcast, "send_collected", send)
    monkeypatch.setattr(clock, "sweep_collected", lambda now=None: (1, collection))

    def sweeps():
        try:
            clock.sweep_due()
            clock.sweep_due()
        finally:
            clock._close_broadcast_runner()

    thread = threading.Thread(target=sweeps)
    thread.start()
    thread.join(10)
    assert len(loops) == 2 and loops[0] is loops[1]
    assert loops[0].is_closed()


def test_a_table_found_due_that_is_not_running_is_given_no_due_time_and_left_alone(
    class_7b, ms_rivera, ava, ben
):
    """Only running tables have due times; one that kept them anyway would be swept, and wake the clock,
    again and again."""
    from games import selectors

    session = started_session(class_7b, ms_rivera, [ava, ben], "faces", now=T0)
    services.session_pause(session=session, by=ms_rivera, now=T0 + 1)
    GameTable.objects.filter(session=session).update(deadline=T0 + 2, bot_due=T0 + 2)  # kept by mistake
    seq = GameTable.objects.get(session=session).seq
    assert services.clock_sweep(now=T0 + 5) == 0
    table = GameTable.objects.get(session=session)
    assert (table.deadline, table.bot_due, table.seq) == (None, None, seq)
    assert selectors.next_clock_due() is None
