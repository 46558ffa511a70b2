"""The end of a session: recording its learning facts (by a worker, after each commit), finishing it once
every table is done, and the wrap-up that hands it to the reports."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from .. import broadcast, outbox, signals, tasks
from ..definitions import get_engine
from ..models import GameSession, GameTable, TableLogEntry


def queue_tables_facts(items: list[tuple[int, list[int]]]) -> None:
    """Have a worker record these log entries' learning facts (``(table id, seqs)`` pairs; queued after
    the commit that wrote them, one task for all of a transaction's tables). A reveal in a class of 2000
    makes 2000 facts: written by a worker, they no longer hold up the move reaching the devices. A task
    lost (a broker down, a crash between the commit and the queueing) is made good when the session ends
    (``session_wrap_up``), so while the broker is down none is queued and the clock fires the next
    deadline at once (``games.outbox``)."""
    outbox.attempt("broker", lambda: tasks.tables_facts.delay([[table_id, seqs] for table_id, seqs in items]))


def table_facts_record(*, table_id: int, seqs: list[int] | None = None) -> int:
    """Derive the learning facts of the table's log entries (these, or all of them) with the game's engine
    and hand them to whoever stores them (:data:`games.signals.facts_derived`). Idempotent: a fact is keyed
    by table, entry and position, so recording an entry again writes nothing. Returns how many facts were
    offered (those already stored are left as they are)."""
    entries = TableLogEntry.objects.filter(table_id=table_id)
    return _facts_record([table_id], entries if seqs is None else entries.filter(seq__in=seqs))


def tables_facts_record(*, items: list[tuple[int, list[int]]]) -> int:
    """:func:`table_facts_record` for these entries of several tables, in one read of the tables, one
    of the entries and one store."""
    wanted: dict[int, set[int]] = {}
    for table_id, seqs in items:
        wanted.setdefault(int(table_id), set()).update(int(seq) for seq in seqs)
    if not wanted:
        return 0
    entries = Q()
    for table_id, table_seqs in wanted.items():
        entries |= Q(table_id=table_id, seq__in=sorted(table_seqs))
    return _facts_record(list(wanted), TableLogEntry.objects.filter(entries))


def _facts_record(table_ids: list[int], entries) -> int:
    tables = {
        table.pk: table
        for table in GameTable.objects.select_related("session")
        .defer("state", "config")
        .filter(pk__in=table_ids)
    }
    derived: dict[int, list] = {}
    rows = entries.filter(table_id__in=tables).only("table_id", "seq", "at", "events")
    for entry in rows.order_by("table_id", "seq").iterator(chunk_size=200):
        facts = get_engine(tables[entry.table_id].session.game).facts(entry.events) if entry.events else []
        if facts:
            derived.setdefault(entry.table_id, []).append((entry, facts))
    if not derived:
        return 0
    batch = [(tables[table_id], table_entries) for table_id, table_entries in derived.items()]
    responses = signals.facts_derived.send(sender=GameTable, tables=batch)
    return sum(int(count or 0) for _receiver, count in responses)


def session_wrap_up(*, session_id: int) -> None:
    """After a session ends: make sure every table's facts are recorded (the per-move tasks may have
    been lost or may still be running), then queue the session's report build. Once per session: a
    redelivered or re-queued wrap-up finds it done."""
    session = GameSession.objects.filter(pk=session_id, status=GameSession.Status.FINISHED).first()
    if session is None or session.wrapped_up_at is not None:
        return  # not a session that ended (nothing to wrap up yet), or done already
    for table_id in GameTable.objects.filter(session_id=session_id).values_list("pk", flat=True):
        table_facts_record(table_id=table_id)
    signals.session_wrapped_up.send(sender=GameSession, session_id=session_id)
    GameSession.objects.filter(pk=session_id).update(wrapped_up_at=timezone.now())


#: A session whose wrap-up has not happened this long after it ended gets it queued again.
WRAP_UP_GRACE = timedelta(minutes=5)


def sessions_wrap_up_missed(*, now: datetime | None = None) -> int:
    """Queue the wrap-up of every session that ended a while ago and was never wrapped up (its task lost:
    a broker down, a crash between the commit and the queueing). The clock calls this now and then."""
    ended_before = (now or timezone.now()) - WRAP_UP_GRACE
    missed = list(
        GameSession.objects.filter(
            status=GameSession.Status.FINISHED, wrapped_up_at__isnull=True, ended_at__lt=ended_before
        ).values_list("pk", flat=True)
    )
    queued = 0
    for session_id in missed:
        if not _queue_wrap_up(session_id):
            break  # the broker is down: the next check tries again (the clock must not wait on each)
        queued += 1
    return queued


def session_finish_if_done(*, session_id: int) -> None:
    with transaction.atomic():
        session = GameSession.objects.select_for_update().get(pk=session_id)
        if session.status in (GameSession.Status.FINISHED, GameSession.Status.CANCELLED):
            return
        if session.tables.exists() and not session.tables.filter(status=GameTable.Status.PLAYING).exists():
            _finish(session)


def _finish(session: GameSession) -> None:
    session.status, session.ended_at = GameSession.Status.FINISHED, timezone.now()
    session.save(update_fields=["status", "ended_at"])
    broadcast.session_changed(session.pk)
    broadcast.class_games_changed(session.classroom_id)
    transaction.on_commit(lambda: _queue_wrap_up(session.pk), robust=True)


def _queue_wrap_up(session_id: int) -> bool:
    """Once per session, so tried even while the broker seems down; if it fails,
    ``sessions_wrap_up_missed`` queues it again later."""
    return outbox.attempt("broker", lambda: tasks.session_wrap_up.delay(session_id), even_if_down=True)
