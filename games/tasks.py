"""Celery tasks of the live runtime. They take ids, are queued after the commit that asks for them
(``games.services``), and are safe to run twice: facts are derived from the append-only log and keyed
by table, entry and position.

* ``games.tables_facts`` records the learning facts of log entries of one or more tables (queued by
  every transaction whose moves, deadlines or computer moves hold facts: a trip of moves, a clock
  sweep of up to 100 tables); ``games.table_facts``, its one-table form, is what earlier versions
  queued and is kept for their messages;
* ``games.session_wrap_up`` runs when a session ends: it records whatever facts are still missing, then
  queues the session's report build (so the build never starts before the last facts are in).
"""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from . import services
from .models import Heartbeat

#: A database hiccup is retried, with backoff. (Late acknowledgement, and a message given back when its worker
#: dies, are every task's settings: config/settings.py.)
RETRY_ON_DATABASE_ERRORS = {
    "autoretry_for": (OperationalError, InterfaceError),
    "max_retries": 4,
    "retry_backoff": 2,
    "retry_jitter": True,
}


# No results kept: nobody reads them, and queueing a task that keeps one first subscribes to the result
# store, which with Redis down retries for about 19 s before it fails.
@shared_task(
    name="games.table_facts",
    soft_time_limit=110,
    time_limit=120,
    ignore_result=True,
    **RETRY_ON_DATABASE_ERRORS,
)
def table_facts(table_id: int, seqs: list[int]) -> int:
    return services.table_facts_record(table_id=table_id, seqs=seqs)


@shared_task(
    name="games.tables_facts",
    soft_time_limit=110,
    time_limit=120,
    ignore_result=True,
    **RETRY_ON_DATABASE_ERRORS,
)
def tables_facts(items: list[list]) -> int:
    """``items``: ``[table id, [seq, ...]]`` pairs."""
    return services.tables_facts_record(items=[(table_id, seqs) for table_id, seqs in items])


@shared_task(
    name="games.session_wrap_up",
    soft_time_limit=840,
    time_limit=900,
    ignore_result=True,
    **RETRY_ON_DATABASE_ERRORS,
)
def session_wrap_up(session_id: int) -> None:
    services.session_wrap_up(session_id=session_id)


@shared_task(name="games.worker_heartbeat", soft_time_limit=20, time_limit=30, ignore_result=True)
def worker_heartbeat() -> None:
    """Queued by beat every minute: run, it proves that beat, the broker and a worker all work."""
    Heartbeat.beat("worker")
