"""The append-only log: every accepted move, deadline and clock control stores the new state and one entry,
and queues what follows (facts, computer moves, the session's end)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.db import transaction

from questions.services import questions_mark_used

from .. import broadcast
from ..definitions import get_engine
from ..engine import core
from ..models import GameTable, TableLogEntry
from .base import BOT_THINK_SECONDS, any_bot, is_bot
from .rows import entry_insert, table_update_with_entries
from .wrapup import queue_tables_facts, session_finish_if_done

logger = logging.getLogger(__name__)


@dataclass(eq=False)
class FactsBatch:
    """The log entries with learning facts that one transaction writes, at one table or many, queued as
    one task after its commit (see :func:`~games.services.wrapup.queue_tables_facts`): a clock sweep of
    100 tables or a trip of moves is one task for the worker, not one per table."""

    seqs: dict[int, list[int]] = field(default_factory=dict)

    @classmethod
    def after_commit(cls) -> FactsBatch:
        """A batch queued when the current transaction commits. Made outside any per-table savepoint
        (a savepoint rolled back forgets the callbacks made inside it): a table rolled back leaves
        with :meth:`discard`."""
        batch = cls()
        transaction.on_commit(batch.queue, robust=True)
        return batch

    def add(self, table_id: int, seq: int) -> None:
        self.seqs.setdefault(table_id, []).append(seq)

    def discard(self, table_id: int) -> None:
        self.seqs.pop(table_id, None)

    def queue(self) -> None:
        if not self.seqs:
            return
        held = getattr(_holding, "facts", None)
        if held is not None:
            held.add(self.seqs)
        else:
            queue_tables_facts(sorted(self.seqs.items()))


_holding = threading.local()


@dataclass(eq=False)
class HeldFacts:
    """The committed entries with learning facts of one thread's transactions, queued as one task when
    :meth:`flush` is called (see :func:`facts_held`)."""

    seqs: dict[int, list[int]] = field(default_factory=dict)
    since: float | None = None

    def add(self, seqs: dict[int, list[int]]) -> None:
        for table_id, table_seqs in seqs.items():
            self.seqs.setdefault(table_id, []).extend(table_seqs)
        if self.since is None:
            self.since = time.monotonic()

    def held_for(self) -> float:
        return 0.0 if self.since is None else time.monotonic() - self.since

    def flush(self) -> None:
        seqs, self.seqs, self.since = self.seqs, {}, None
        if seqs:
            queue_tables_facts(sorted(seqs.items()))


@contextmanager
def facts_held(*, flush: bool = True) -> Iterator[HeldFacts]:
    """While inside, this thread's commits hold their facts' tasks in one :class:`HeldFacts` for the
    caller to flush (and flush them when it leaves, unless ``flush`` is False). The clock sweeps many
    times a second, each sweep queueing a task of its own: their publishing was a seventh of its work
    with 1000 homework games. A task held and then lost with the process is made good by the session's
    wrap-up, as any lost task."""
    held = _holding.facts = HeldFacts()
    try:
        yield held
    finally:
        _holding.facts = None
        if flush:
            held.flush()


#: How long a publishing waits for more trips' facts before queueing all that waits as one task. A task
#: costs the worker its queries and bookkeeping whatever it holds (at some 110 Line-Up moves a second,
#: one task a trip was 2.8 ms of worker CPU a move); the reports are built from the facts after the
#: session, so a fifth of a second changes nothing a teacher sees.
FACTS_GATHER_SECONDS = 0.2


class FactsPublisher:
    """Queues held facts from a thread of its own, all that waits as one task. The moves' trips hand
    theirs here: published in the trip's commit hook, they held the trip's acknowledgements and its
    fan-out back by a round trip to the broker (7% of the moves thread's time at a school's load).
    A publishing first waits ``gather`` seconds, so that the trips meanwhile go in the same task."""

    def __init__(
        self, queue: Callable[[list[tuple[int, list[int]]]], None] | None = None, gather: float | None = None
    ) -> None:
        #: how the facts are queued: ``queue_tables_facts`` (as it is when called), unless told otherwise
        self._queue = queue or (lambda items: queue_tables_facts(items))
        self.gather = FACTS_GATHER_SECONDS if gather is None else gather
        self._lock = threading.Lock()
        self._waiting = HeldFacts()
        self._busy = False
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="classplay-facts")

    def hand_over(self, held: HeldFacts) -> Future | None:
        """Queue these facts soon; the future of the publishing that will include them, if one had to
        start (None: one already under way takes them, or there were none)."""
        if not held.seqs:
            return None
        with self._lock:
            self._waiting.add(held.seqs)
            if self._busy:
                return None
            self._busy = True
        return self._thread.submit(self._publish)

    def _publish(self) -> None:
        while True:
            if self.gather:
                time.sleep(self.gather)
            with self._lock:
                waiting, self._waiting = self._waiting, HeldFacts()
                if not waiting.seqs:
                    self._busy = False
                    return
            try:
                # (games.outbox already keeps a broker that is down from raising here)
                self._queue(sorted(waiting.seqs.items()))
            except Exception:
                logger.exception("learning facts could not be queued; the session's wrap-up records them")


facts_publisher = FactsPublisher()


@dataclass(eq=False)
class TableWrite:
    """One transaction's changes to one locked table row, handed to every step that changes it.

    A batch of actions (``batched``) stores the table's state once, at its end, instead of after every
    entry; and the learning facts of all the entries written are queued after the commit, in ``facts``
    (shared by the transaction's tables when its caller gives one)."""

    table: GameTable
    batched: bool = False
    unsaved: bool = False
    facts: FactsBatch | None = None
    #: A batch's log entries, inserted together when it stores the table
    entries: list[TableLogEntry] = field(default_factory=list)

    def save(self) -> None:
        table_update_with_entries(self.table, self.entries)
        self.entries.clear()
        self.unsaved = False

    def facts_after_commit(self, seq: int) -> None:
        """Queue the recording of this entry's learning facts for after the commit, one task for all of
        the transaction's entries (:class:`FactsBatch`)."""
        if self.facts is None:
            self.facts = FactsBatch.after_commit()
        self.facts.add(self.table.pk, seq)


def _append(
    write: TableWrite, engine, state, events, *, kind, at, player="", action=None, key="", seconds=None
):
    """Store the new state and its log entry, bump the sequence number, record learning facts."""
    table = write.table
    table.seq += 1
    entry = TableLogEntry(
        table=table,
        seq=table.seq,
        kind=kind,
        player=player,
        action=action,
        at=at,
        idempotency_key=key,
        seconds=seconds,
        events=events,
    )
    if write.batched:
        write.entries.append(entry)  # inserted with the batch's others when it stores the table
    else:
        entry_insert(entry)
    table.state = state
    table.deadline = engine.deadline(state)
    table.bot_due = _bot_due(engine, state, at)
    if engine.is_over(state):
        table.status = GameTable.Status.FINISHED
        table.outcome = engine.outcome(state)
        table.deadline = table.bot_due = None
    if write.batched:
        write.unsaved = True  # stored once, at the batch's end
    else:
        write.save()
    if events:
        if engine.records_facts(events) and _a_student_among(engine.fact_players(events)):
            write.facts_after_commit(entry.seq)
        _questions_shown(table, engine, events)
    if table.status == GameTable.Status.FINISHED:
        transaction.on_commit(lambda: session_finish_if_done(session_id=table.session_id))
    return entry


def _fire_deadline(write: TableWrite, *, at: float) -> TableLogEntry:
    """On the state read from the locked row: the transaction's own, changed in place as a move's is."""
    engine = get_engine(write.table.session.game)
    events = engine.on_deadline_in_place(write.table.state, at)
    return _append(write, engine, write.table.state, events, kind=TableLogEntry.Kind.DEADLINE, at=at)


def _clock_entry(
    table: GameTable, kind: str, now: float, seconds: float | None = None, announce: bool = True
) -> None:
    """``announce=False`` when a session change follows: its fan-out sends the tables that moved on
    together with the session, one message per device instead of two."""
    engine = get_engine(table.session.game)
    entry = {"kind": kind, "at": now, "seconds": seconds}
    state, _events = core.apply_log_entry(engine, table.state, entry)
    _append(TableWrite(table), engine, state, [], kind=kind, at=now, seconds=seconds)
    if announce:
        broadcast.table_changed(table.session_id, table.pk, table.seq)


def _a_student_among(players: set[str]) -> bool:
    """Only students' facts are kept: a task for a computer player's answers would record nothing (with
    1000 homework games, most of the clock's sweeps queued one, each a turn of SQLite's write lock)."""
    return any(not is_bot(player) and player != core.TEACHER for player in players)


def _bot_due(engine, state, now: float) -> float | None:
    """When the computer player whose turn it is moves. None while the game is paused (its resume sets
    it again), as its deadline is: only a running table has either, so the clock finds what is due
    through their indexes alone (see ``play.clock_sweep``)."""
    if engine.is_over(state) or (state.get("clock") or {}).get("paused"):
        return None
    if not any_bot(engine.current_players(state)):
        return None
    return now + BOT_THINK_SECONDS


def _questions_shown(table: GameTable, engine, events: list) -> None:
    """A question the class has now seen goes to the back of its rotation (no repeats until the
    filtered bank is used up)."""
    ids = engine.questions_shown(events)
    if ids:
        questions_mark_used(table.session.classroom, ids)
