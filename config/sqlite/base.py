"""The embedded server's SQLite: the process's writers take turns on a lock of its own.

SQLite has one write lock for the whole database, taken here at the start of every transaction
(``BEGIN IMMEDIATE``). A transaction that finds it taken waits in SQLite's busy handler, which sleeps
1, 2, 5, 10, ... then 100 ms between tries and so wakes well after the lock is free: at 1000 homework
games a move's transaction waited a third of a second behind the clock's, mostly asleep. The embedded
server's writers (the moves' thread, the clock's, the pages') are threads of one process, so each
takes a process-wide turn before ``BEGIN`` and gives it back as its transaction ends: the next one in
line is woken the moment the previous one commits. Other processes (the Celery worker, ``manage.py``)
still meet SQLite's own lock and wait as before.
"""

from __future__ import annotations

import collections
import threading

from django.db.backends.sqlite3 import base


class Turns:
    """A lock taken in the order it was asked for. ``threading.Lock`` is not: a thread that gives it
    back and asks again at once (the clock, sweeping 100 tables a transaction) gets it again ahead of
    the threads already waiting (the moves, a class connecting)."""

    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._waiting: collections.deque[threading.Lock] = collections.deque()
        self._held = False

    def acquire(self, timeout: float) -> bool:
        with self._mutex:
            if not self._held:
                self._held = True
                return True
            waiter = threading.Lock()
            waiter.acquire()
            self._waiting.append(waiter)
        if waiter.acquire(timeout=timeout):
            return True  # handed over by release()
        with self._mutex:
            if waiter in self._waiting:
                self._waiting.remove(waiter)
                return False
            return True  # handed over just as the wait ran out

    def release(self) -> None:
        with self._mutex:
            if self._waiting:
                self._waiting.popleft().release()  # the turn goes straight to the next in line
            else:
                self._held = False

    def locked(self) -> bool:
        return self._held


_locks: dict[str, Turns] = {}
_locks_guard = threading.Lock()


def _writers_lock(name) -> Turns:
    """One per database file (tests have one file per test process)."""
    with _locks_guard:
        return _locks.setdefault(str(name), Turns())


class DatabaseWrapper(base.DatabaseWrapper):
    _writer_turn: Turns | None = None

    def _start_transaction_under_autocommit(self):
        lock = _writers_lock(self.settings_dict["NAME"])
        # Bounded by the busy timeout: a turn never given back (a bug) costs that long, after which
        # SQLite's own lock decides, as without this class.
        taken = lock.acquire(timeout=float(self.settings_dict.get("OPTIONS", {}).get("timeout", 5)))
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            if taken:
                lock.release()
            raise
        if taken:
            self._writer_turn = lock

    def _commit(self):
        return self._ending_turn(super()._commit)

    def _rollback(self):
        return self._ending_turn(super()._rollback)

    def _close(self):
        return self._ending_turn(super()._close)

    def _ending_turn(self, end):
        """``end()`` (a commit, a rollback or a close), then the next writer's turn."""
        try:
            return end()
        finally:
            lock, self._writer_turn = self._writer_turn, None
            if lock is not None:
                lock.release()
