"""The embedded server's SQLite: the process's writers take turns on a lock of its own.

SQLite has one write lock for the whole database, taken here at the start of every transaction
(``BEGIN IMMEDIATE``). A transaction that finds it taken waits in SQLite's busy handler, which sleeps
1, 2, 5, 10, ... then 100 ms between tries and so wakes well after the lock is free: at 1000 homework
games a move's transaction waited a third of a second behind the clock's, mostly asleep. The embedded
server's writers (the moves' thread, the clock's, the pages') are threads of one process, so each
takes a process-wide turn before ``BEGIN`` and gives it back as its transaction ends: the next one in
line is woken the moment the previous one commits. Other processes (the Celery worker, ``manage.py``)
still meet SQLite's own lock and wait as before.

The server also copies its write-ahead log back into the database on a thread of its own
(:class:`Checkpointer`), not in whichever writer's commit crossed SQLite's threshold: that commit took
9-16 ms, three times a second with 1000 homework games, and every other writer waited for its turn.
"""

from __future__ import annotations

import collections
import logging
import sqlite3
import threading

from django.db import connections
from django.db.backends.sqlite3 import base

logger = logging.getLogger(__name__)
#: How often the server's checkpointer copies the write-ahead log back (SQLite's own threshold, 1000
#: pages, took about a third of a second to fill with 1000 homework games).
CHECKPOINT_SECONDS = 0.25


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


#: Database files whose connections in this process leave checkpoints to a :class:`Checkpointer`.
_checkpointed: set[str] = set()


class Checkpointer:
    """Copies the write-ahead log of one database file back into it every ``every`` seconds, on a thread
    and a connection of its own. A passive checkpoint waits for no reader or writer, and no writer waits
    for it; while one runs, this process's connections to the file make none in their commits
    (``wal_autocheckpoint=0``). Other processes (the Celery worker, ``manage.py``) keep SQLite's own."""

    def __init__(self, name: str, every: float = CHECKPOINT_SECONDS) -> None:
        self.name, self.every = str(name), every
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="classplay-checkpoint", daemon=True)

    def start(self) -> Checkpointer:
        _checkpointed.add(self.name)
        self.thread.start()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        self.stopping.set()
        self.thread.join(timeout)
        _checkpointed.discard(self.name)

    def _run(self) -> None:
        try:  # the file must be there: a checkpointer never makes an empty database
            database = sqlite3.connect(f"file:{self.name}?mode=rw", uri=True, timeout=30)
        except sqlite3.Error:
            logger.exception("no checkpointer for %s: SQLite's own checkpoints go on", self.name)
            _checkpointed.discard(self.name)
            return
        try:
            while not self.stopping.wait(self.every):
                self.checkpoint(database)
        finally:
            database.close()

    @staticmethod
    def checkpoint(database: sqlite3.Connection) -> tuple[int, int, int]:
        """One passive checkpoint: (busy, frames in the log, frames copied back)."""
        try:
            return database.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        except sqlite3.Error:  # the next one tries again; SQLite keeps the log meanwhile
            logger.exception("the write-ahead log could not be copied back; trying again")
            return (1, -1, -1)


def start_checkpointer(alias: str = "default") -> Checkpointer | None:
    """The server's checkpointer for ``alias``, if it is this backend's SQLite database in a file."""
    settings_dict = connections[alias].settings_dict
    name = str(settings_dict["NAME"])
    if settings_dict["ENGINE"] != __package__ or name == ":memory:" or name.startswith("file:"):
        return None
    return Checkpointer(name).start()


class DatabaseWrapper(base.DatabaseWrapper):
    _writer_turn: Turns | None = None

    def get_new_connection(self, conn_params):
        database = super().get_new_connection(conn_params)
        if str(self.settings_dict["NAME"]) in _checkpointed:
            database.execute("PRAGMA wal_autocheckpoint=0")
        return database

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
