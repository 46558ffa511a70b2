"""The session hub's reader (games/realtime/fanout.py) when the channel layer fails: it waits before it
tries again, longer each time, and once the layer is back it sends its sessions afresh and goes on."""

import asyncio
from types import SimpleNamespace

import pytest
from django.db import InterfaceError, OperationalError

from games.realtime import fanout
from games.realtime import trips as trips_module


class FlakyLayer:
    """A channel layer that fails ``failures`` reads (Redis down), then has one message, then waits."""

    def __init__(self, failures: int):
        self.failures, self.reads, self.groups = failures, 0, []

    async def group_add(self, group, channel):
        self.groups.append((group, channel))

    async def receive(self, channel):
        self.reads += 1
        if self.reads <= self.failures:
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        if self.reads == self.failures + 1:
            return {"type": "table.changed", "session": 7, "table": 3, "seq": 9}
        await asyncio.Event().wait()


@pytest.mark.asyncio
async def test_a_failing_channel_layer_is_retried_with_growing_waits_then_read_again(monkeypatch):
    waits, delivered = [], []
    real_sleep = asyncio.sleep

    async def sleep(seconds):
        waits.append(seconds)
        await real_sleep(0)

    monkeypatch.setattr(fanout.asyncio, "sleep", sleep)
    hub = fanout.SessionHub()
    hub.layer, hub.channel = FlakyLayer(failures=6), "specific.test"

    async def dispatch(message):
        delivered.append(message)

    hub.dispatch = dispatch
    resent = []
    hub.sessions[7], hub.sessions[8] = {object()}, {object()}
    hub._throttle = lambda session_id, staff_only, clocks_only=False: resent.append((session_id, staff_only))
    reader = asyncio.get_running_loop().create_task(hub._read())
    for _ in range(100):
        if delivered:
            break
        await real_sleep(0)
    reader.cancel()
    assert delivered == [{"type": "table.changed", "session": 7, "table": 3, "seq": 9}]
    assert waits == [0.5, 1.0, 2.0, 4.0, 8.0, 10.0], "each failure waits longer, up to 10 s"
    # Back: the hub joins its sessions' groups again (a Redis restarted empty has none), and sends every
    # local session afresh, since what was broadcast meanwhile never arrived.
    assert hub.layer.groups == [
        ("classplay.session.7", "specific.test"),
        ("classplay.session.8", "specific.test"),
    ]
    assert resent == [(7, False), (8, False)]


class Watcher:
    """A connection as the hub sees it: a player seated at table 3."""

    role, session_id = "player", 7
    viewer_key = (("player", "p1"),)

    def may_watch(self, table_id):
        return table_id == 3


def _table(seq):
    from types import SimpleNamespace

    return SimpleNamespace(pk=3, session_id=7, seq=seq, status="playing")


async def _fan_out(hub, monkeypatch, announced_seq):
    """Announce table 3 at ``announced_seq``; what the hub delivered and what it read from the database."""
    delivered, read = [], []

    def tables_for_fanout(table_ids):
        read.extend(table_ids)
        return [_table(announced_seq) for _ in table_ids]

    async def deliver(table, wanted):
        delivered.append((table.seq, [consumer for consumer, _key in wanted]))

    monkeypatch.setattr(fanout.selectors, "tables_for_fanout", tables_for_fanout)
    hub._deliver = deliver
    await hub.dispatch({"type": "table.changed", "session": 7, "table": 3, "seq": announced_seq})
    for _ in range(100):
        if 3 not in hub.table_jobs:
            break
        await asyncio.sleep(0.01)
    return delivered, read


@pytest.mark.django_db
@pytest.mark.asyncio
async def test_the_hub_sends_the_table_its_writer_committed_without_reading_it_back(monkeypatch):
    hub, watcher = fanout.SessionHub(), Watcher()
    hub.sessions[7], hub.sent[watcher] = {watcher}, {}
    hub.keep_committed([_table(9)])
    delivered, read = await _fan_out(hub, monkeypatch, announced_seq=9)
    assert delivered == [(9, [watcher])] and read == []
    assert hub.committed == {}  # used once, then forgotten


@pytest.mark.django_db
@pytest.mark.asyncio
async def test_the_hub_reads_the_table_when_a_later_change_was_announced(monkeypatch):
    """Another writer (another process, the clock) moved the table on: the kept table is out of date."""
    hub, watcher = fanout.SessionHub(), Watcher()
    hub.sessions[7], hub.sent[watcher] = {watcher}, {}
    hub.keep_committed([_table(9)])
    delivered, read = await _fan_out(hub, monkeypatch, announced_seq=10)
    assert delivered == [(10, [watcher])] and read == [3]


@pytest.mark.django_db
@pytest.mark.asyncio
async def test_the_hub_never_sends_a_connection_an_older_table_than_it_has(monkeypatch):
    hub, watcher = fanout.SessionHub(), Watcher()
    hub.sessions[7], hub.sent[watcher] = {watcher}, {3: (12, "playing", Watcher.viewer_key)}
    delivered, _read = await _fan_out(hub, monkeypatch, announced_seq=11)
    assert delivered == [(11, [])]


async def _jobs_done(hub, table_id=3):
    for _ in range(100):
        if table_id not in hub.table_jobs:
            return
        await asyncio.sleep(0.01)


def _committed(*tables):
    from games import broadcast

    collection = broadcast.Collected()
    for table in tables:
        message = {"type": "table.changed", "session": 7, "table": table.pk, "seq": table.seq, "at": 1.0}
        collection.add(
            "classplay.session.7", message, ("classplay.session.7", "table.changed", table.pk), table
        )
    return collection


@pytest.mark.django_db
@pytest.mark.asyncio
async def test_a_table_its_writer_committed_goes_out_at_once_and_its_announcement_skips_this_hub(
    monkeypatch,
):
    """The fan-out does not wait for the announcement's round trip through the channel layer, and the
    announcement is marked as this hub's own: it goes to the other processes only."""
    hub, watcher = fanout.SessionHub(), Watcher()
    hub.channel = "specific.here"
    hub.sessions[7], hub.sent[watcher] = {watcher}, {}
    delivered, read = [], []
    monkeypatch.setattr(fanout.selectors, "tables_for_fanout", lambda ids: read.extend(ids) or [])

    async def deliver(table, wanted):
        delivered.append((table.seq, [consumer for consumer, _key in wanted]))

    hub._deliver = deliver
    told = hub.committed_here(_committed(_table(9)))
    await _jobs_done(hub)
    assert delivered == [(9, [watcher])] and read == []
    assert told == {("classplay.session.7", "table.changed", 3): "specific.here"}


@pytest.mark.django_db
@pytest.mark.asyncio
async def test_an_announcement_of_a_table_already_sent_sends_nothing_again(monkeypatch):
    """Should this hub's own announcement reach it after all (sent again after a Redis outage), the
    connections already have the table: it is read, and nobody is sent it twice."""
    hub, watcher = fanout.SessionHub(), Watcher()
    hub.sessions[7], hub.sent[watcher] = {watcher}, {}
    sent = []

    async def deliver(table, wanted):
        sent.append((table.seq, [consumer for consumer, _key in wanted]))

    hub._deliver = deliver
    hub.committed_here(_committed(_table(9)))
    await _jobs_done(hub)
    delivered, _read = await _fan_out(hub, monkeypatch, announced_seq=9)
    assert sent == [(9, [watcher])] and delivered == [(9, [])]


@pytest.mark.django_db
@pytest.mark.asyncio
async def test_a_later_change_by_another_writer_is_sent_after_this_writers_own(monkeypatch):
    hub, watcher = fanout.SessionHub(), Watcher()
    hub.sessions[7], hub.sent[watcher] = {watcher}, {}
    hub.committed_here(_committed(_table(9)))
    await _jobs_done(hub)
    delivered, read = await _fan_out(hub, monkeypatch, announced_seq=10)  # the clock's, say
    assert delivered == [(10, [watcher])] and read == [3]


def test_a_session_nobody_here_watches_is_not_fanned_out_here():
    hub = fanout.SessionHub()
    assert hub.committed_here(_committed(_table(9))) == {}  # its announcement goes to every process
    assert hub.table_jobs == {}


def test_the_hub_keeps_no_table_of_a_session_nobody_here_watches():
    hub = fanout.SessionHub()
    hub.keep_committed([_table(9)])
    assert hub.committed == {}


def test_the_hub_keeps_a_bounded_number_of_committed_tables(monkeypatch):
    """When the fan-out falls behind, the tables beyond the bound are read when their turn comes."""
    from types import SimpleNamespace

    monkeypatch.setattr(fanout, "COMMITTED_KEPT", 2)
    hub = fanout.SessionHub()
    hub.sessions[7] = {object()}
    hub.keep_committed([SimpleNamespace(pk=pk, session_id=7, seq=1) for pk in (1, 2, 3)])
    assert sorted(hub.committed) == [1, 2]
    hub.keep_committed([SimpleNamespace(pk=2, session_id=7, seq=2)])  # a newer state of a kept table
    assert hub.committed[2].seq == 2


@pytest.mark.asyncio
@pytest.mark.parametrize("failure", [OperationalError, InterfaceError])
async def test_a_table_read_that_fails_while_the_database_restarts_is_tried_again(monkeypatch, failure):
    """The fan-out of a table change waits for the database (every TABLE_READ_RETRY_SECONDS) instead of
    dropping the update, and delivers the table once it can read it."""
    waits, reads, delivered = [], [], []
    real_sleep = asyncio.sleep

    async def sleep(seconds):
        waits.append(seconds)
        await real_sleep(0)

    def tables_for_fanout(table_ids):
        reads.extend(table_ids)
        if len(reads) <= 3:
            raise failure("the database system is shutting down")
        return [SimpleNamespace(pk=table_id, seq=5, status="running") for table_id in table_ids]

    monkeypatch.setattr(fanout.asyncio, "sleep", sleep)
    monkeypatch.setattr(fanout.selectors, "tables_for_fanout", tables_for_fanout)
    monkeypatch.setattr(trips_module, "database_sync_to_async", _in_thread)
    hub = fanout.SessionHub()
    device = object()
    hub.sessions[7] = {device}
    hub._claim = lambda table, consumers: [(consumer, "viewer") for consumer in consumers]

    async def deliver(table, wanted):
        delivered.append((table.seq, wanted))

    hub._deliver = deliver
    hub._table_dirty(7, 3)
    for _ in range(100):
        if delivered:
            break
        await real_sleep(0.01)
    assert reads == [3, 3, 3, 3]
    assert waits == [fanout.TABLE_READ_RETRY_SECONDS] * 3 == [1.0] * 3
    assert delivered == [(5, [(device, "viewer")])]
    assert 3 not in hub.table_jobs  # the table's fan-out finished


@pytest.mark.asyncio
async def test_a_table_read_stops_retrying_once_its_session_has_no_connection_here(monkeypatch):
    reads = []

    async def sleep(_seconds):
        hub.sessions.pop(7, None)  # the last device of the session left during the outage

    def tables_for_fanout(table_ids):
        reads.extend(table_ids)
        raise OperationalError("connection refused")

    monkeypatch.setattr(fanout.asyncio, "sleep", sleep)
    monkeypatch.setattr(fanout.selectors, "tables_for_fanout", tables_for_fanout)
    monkeypatch.setattr(trips_module, "database_sync_to_async", _in_thread)
    hub = fanout.SessionHub()
    hub.sessions[7] = {object()}
    assert await hub._read_table(7, 3) is None
    assert reads == [3]


def _in_thread(function):
    async def call(*args, **kwargs):
        return function(*args, **kwargs)

    return call


async def _run_table_job(monkeypatch, hub, clock: dict, table_changed, on_sleep=lambda: None) -> list[float]:
    """Table 3's fan-out job, with ``table_changed`` as its fan-out, on a fake clock (``clock["now"]``) and
    a sleep that only records how long it was asked for (and calls ``on_sleep``): those waits."""
    waits = []
    real_sleep = asyncio.sleep

    async def sleep(seconds):
        waits.append(round(seconds, 3))
        on_sleep()
        await real_sleep(0)

    monkeypatch.setattr(fanout.time, "perf_counter", lambda: clock["now"])
    monkeypatch.setattr(fanout.asyncio, "sleep", sleep)
    hub._table_changed = table_changed
    hub._table_dirty(7, 3)
    for _ in range(100):
        if 3 not in hub.table_jobs:
            break
        await real_sleep(0)
    return waits


@pytest.mark.asyncio
async def test_a_table_that_changes_during_its_fan_out_is_sent_again_after_a_gap_as_long_as_the_fan_out(
    monkeypatch,
):
    """A burst of moves at a big table: the next fan-out (with the latest state) waits as long as the last
    one took, so the moves and their acknowledgements get half the event loop."""
    clock = {"now": 100.0}
    fanouts = []
    hub = fanout.SessionHub()
    hub.sessions[7] = {object()}

    async def table_changed(session_id, table_id, consumers):
        fanouts.append(table_id)
        clock["now"] += {1: 0.06, 2: 0.9, 3: 0.001}[len(fanouts)]  # 60 ms, then far longer, then 1 ms
        if len(fanouts) < 3:
            hub.table_jobs[table_id] = True  # a trip committed meanwhile
        return 30  # a class's devices

    waits = await _run_table_job(monkeypatch, hub, clock, table_changed)
    assert fanouts == [3, 3, 3]
    assert waits == [0.06, fanout.TABLE_GAP_MAX]  # none after the last: nothing changed during it


@pytest.mark.asyncio
@pytest.mark.parametrize(("devices", "expected_waits"), [(fanout.BIG_FANOUT, [0.1, 0.1]), (30, [0.1])])
async def test_a_change_announced_just_after_a_big_fan_out_waits_out_the_gap_with_the_next_ones(
    monkeypatch, devices, expected_waits
):
    """A big fan-out sends without a pause, so the trips that commit meanwhile are announced just after
    it ends: they go out together after the gap, not in a fan-out at once (a 2000-student burst spent
    three quarters of its time fanning out). A small table's next change is not held back."""
    clock = {"now": 100.0}
    fanouts = []
    hub = fanout.SessionHub()
    hub.sessions[7] = {object()}

    def during_the_gap():
        if len(fanouts) == 1:  # two trips announced during the first gap
            hub._table_dirty(7, 3)
            hub._table_dirty(7, 3)

    async def table_changed(session_id, table_id, consumers):
        fanouts.append(table_id)
        clock["now"] += 0.1
        if devices < fanout.BIG_FANOUT and len(fanouts) == 1:  # announced just after it, with no gap
            hub._table_dirty(7, 3)
        return devices

    waits = await _run_table_job(monkeypatch, hub, clock, table_changed, during_the_gap)
    assert fanouts == [3, 3] and waits == expected_waits
