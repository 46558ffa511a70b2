"""The clock: fires due deadlines, opens lobbies that are due, frees the seats of a web process that was
killed, and re-queues a lost session wrap-up.

Every deadline lives in the database, so the clock keeps no state of its own: after a restart it simply
finds what became due meanwhile and fires it once (``services.table_sweep`` re-checks under a row lock,
so two clocks never fire one deadline twice). In embedded mode it runs as a thread inside the server
process (see config.asgi); with real services it runs as its own process (``manage.py run_clock``).

Each tick's sweep (the due deadlines and computer moves) broadcasts once, after it: its commits'
broadcasts are collected and handed over together, not one hand-over per table. (Handing the whole sweep
to the server's event loop, to run on the database thread the moves use, was measured and dropped: with
1000 homework games that thread has a queue, and the computer's moves waited in it, see
docs/performance.md.)
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable

from django.db import OperationalError, close_old_connections, connection

from . import broadcast, selectors, services
from .models import Heartbeat
from .realtime import balance, fanout
from .services.log import HeldFacts, facts_held

logger = logging.getLogger(__name__)
SWEEP_SECONDS = 0.25
#: Sweeps start at least this far apart, even when something is already due (a table that stays due
#: never makes the clock spin). Measured from one sweep's start to the next, not as a sleep after each:
#: with 1000 homework games a sweep took ~20 ms, and a 50 ms sleep after it left the computer's moves
#: 43 ms late at the median (95 ms at p95) before the sweep even began.
MIN_GAP_SECONDS = 0.025
#: The learning facts of the sweeps go to the worker as one task at most this often (``facts_held``).
FACTS_HELD_SECONDS = 0.5
LOBBY_CHECK_SECONDS = 15.0
WRAP_UP_CHECK_SECONDS = 120.0
ERROR_BACKOFF_SECONDS = 5.0
#: How long a sweep waits for the server's event loop to take its broadcasts (embedded mode).
HAND_OVER_SECONDS = 30.0


Sweep = Callable[[float | None], int]


def sweep_collected(now: float | None = None) -> tuple[int, broadcast.Collected]:
    """Fire the due deadlines and make the due computer moves, keeping their broadcasts to be sent."""
    with broadcast.collected() as collection:
        fired = services.clock_sweep(now=now)
    return fired, collection


def sweep_due(now: float | None = None) -> int:
    """:func:`sweep_collected`, then the screens are told, in one go, from this thread's event loop."""
    fired, collection = sweep_collected(now)
    if collection.messages:
        _broadcast_runner().run(broadcast.send_collected(collection))
    return fired


_runners = threading.local()


def _broadcast_runner() -> asyncio.Runner:
    """One event loop per clock thread, kept between sweeps: the Redis layer's connections belong to the
    loop that made them, and ``async_to_sync`` made a new loop, so a new connection (and redis-py's
    look-up of its own version) for every sweep, a tenth of the clock process's CPU."""
    runner = getattr(_runners, "runner", None)
    if runner is None:
        runner = _runners.runner = asyncio.Runner()
    return runner


def _close_broadcast_runner() -> None:
    runner = getattr(_runners, "runner", None)
    if runner is not None:
        _runners.runner = None
        runner.close()


def sweep_into(loop: asyncio.AbstractEventLoop) -> Sweep:
    """The sweep of a clock inside the server process (embedded mode): the tables it moved on go to this
    process's fan-out as committed, which then need not read each back on the database thread the moves
    use, and their broadcasts are sent from the server's event loop."""

    def sweep(now: float | None = None) -> int:
        fired, collection = sweep_collected(now)
        if collection.messages:
            asyncio.run_coroutine_threadsafe(_hand_over(collection), loop).result(HAND_OVER_SECONDS)
        return fired

    return sweep


async def _hand_over(collection: broadcast.Collected) -> None:
    told = fanout.hub().committed_here(collection)
    await broadcast.send_collected(collection, told)


def tick(
    *,
    now: float | None = None,
    check_lobbies: bool = True,
    check_wrap_ups: bool = False,
    sweep: Sweep = sweep_due,
) -> int:
    fired = sweep(now)
    if check_lobbies:
        services.sessions_open_due_lobbies()
        free_seats_of_gone_processes()
        Heartbeat.beat("clock")  # every LOBBY_CHECK_SECONDS: the health endpoint knows the clock is alive
    if check_wrap_ups:
        services.sessions_wrap_up_missed()
    return fired


def free_seats_of_gone_processes() -> int:
    """Seats held by devices of a web process that was killed (with Redis: several processes)."""
    gone = balance.gone_processes()
    if not gone:
        return 0
    return services.seats_release_gone(lambda channel: balance.process_of(channel) in gone)


def free_seats_of_the_last_run() -> int:
    """Embedded mode, at the server's start: no device can be connected yet, so every seat still held is
    from before a crash or a restart; each is freed (a homework attempt pauses until its student is back)."""
    try:
        return services.seats_release_gone(lambda channel: True)
    finally:
        connection.close()  # this runs on a thread of its own


def run(stop: threading.Event, *, interval: float = SWEEP_SECONDS, sweep: Sweep = sweep_due) -> None:
    """Sweep until ``stop`` is set. Errors are logged and the loop goes on: a clock must not die."""
    with facts_held() as facts:
        _run_held(stop, interval, sweep, facts)
    close_old_connections()
    _close_broadcast_runner()


def _run_held(stop: threading.Event, interval: float, sweep: Sweep, facts: HeldFacts) -> None:
    last_lobby_check = last_wrap_up_check = 0.0
    while not stop.is_set():
        started = time.monotonic()
        try:
            check = started - last_lobby_check >= LOBBY_CHECK_SECONDS
            check_wrap_ups = started - last_wrap_up_check >= WRAP_UP_CHECK_SECONDS
            moved = tick(check_lobbies=check, check_wrap_ups=check_wrap_ups, sweep=sweep)
            if check:
                last_lobby_check = started
            if check_wrap_ups:
                last_wrap_up_check = started
            wait = _until_next_sweep(started, interval, moved)
            if facts.held_for() >= FACTS_HELD_SECONDS:
                facts.flush()
        except Exception as error:  # keep ticking: the next sweep retries what failed
            if isinstance(error, OperationalError) and "locked" in str(error):
                # Another connection was writing (SQLite): retry at the next sweep, not seconds late.
                logger.info("clock tick found the database locked; retrying")
                wait = interval
            else:
                logger.exception("clock tick failed; retrying in %s s", ERROR_BACKOFF_SECONDS)
                wait = ERROR_BACKOFF_SECONDS
                close_old_connections()  # a broken connection is not used again
        # Otherwise the connection stays open between sweeps: four sweeps a second each opening and
        # closing one (CONN_MAX_AGE is 0) cost the server process as much CPU as the sweeps themselves.
        stop.wait(max(0.0, wait))


def _until_next_sweep(started: float, interval: float, moved: int) -> float:
    """How long to wait before the next sweep. After a sweep that moved games on, the next starts a
    gap after it (with 1000 homework games something is nearly always due by then, and asking when,
    two queries each time, was an eighth of the clock's work); otherwise it wakes for the next due
    time, not up to an interval late (never spinning, though)."""
    elapsed = time.monotonic() - started
    if moved:
        return MIN_GAP_SECONDS - elapsed
    wait = interval - elapsed
    due = selectors.next_clock_due()
    if due is not None:
        wait = min(wait, max(MIN_GAP_SECONDS - elapsed, due - time.time()))
    return wait


class InProcessClock:
    """The clock as a thread of the server process (embedded mode)."""

    def __init__(self, interval: float = SWEEP_SECONDS, sweep: Sweep = sweep_due):
        self.stopping = threading.Event()
        self.thread = threading.Thread(
            target=run,
            args=(self.stopping,),
            kwargs={"interval": interval, "sweep": sweep},
            name="classplay-clock",
            daemon=True,
        )

    def stop(self, timeout: float = 10.0) -> None:
        """Stop sweeping and wait until the thread has closed its database connection."""
        self.stopping.set()
        self.thread.join(timeout)


def start_in_thread(
    sweep: Sweep = sweep_due, *, loop: asyncio.AbstractEventLoop | None = None
) -> InProcessClock:
    """``loop``: the server's event loop, when the clock runs in its process (see :func:`sweep_into`)."""
    clock = InProcessClock(sweep=sweep_into(loop) if loop is not None else sweep)
    clock.thread.start()
    logger.info("clock running inside the server process")
    return clock
