"""Moves and deadlines: a student's actions (locked, checked, applied, logged), the deadline sweep and the
computer players."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from django.db import IntegrityError, transaction
from django.utils.translation import gettext, gettext_noop

from .. import broadcast, signals
from ..definitions import get_engine
from ..engine import core
from ..models import GameSession, GameTable, TableLogEntry
from . import rows
from .base import _locked_tables, is_bot, now_ts
from .log import FactsBatch, TableWrite, _append, _fire_deadline
from .rows import logged_keys

logger = logging.getLogger(__name__)
_T = TypeVar("_T")
#: At most this many tables in one transaction of the clock (a bound on how long it holds their locks).
SWEEP_TABLES = 100


@dataclass
class ActionResult:
    seq: int
    duplicate: bool = False


class ActionRefused(Exception):
    """A refusal; nothing changed. It keeps the English sentence and its values, and ``message`` puts
    them into the language active where it is read: a batch holds several devices' moves, and each
    device reads its refusal in its own language (the consumer reads it under the device's)."""

    def __init__(self, message: str, code: str = "refused", params: dict | None = None):
        super().__init__(message % params if params else message)
        self.msgid = message
        self.params = params or {}
        self.code = code

    @property
    def message(self) -> str:
        text = gettext(self.msgid)
        return text % self.params if self.params else text


def action_submit(
    *, table_id: int, player: str, action: dict, key: str, now: float | None = None, teacher: bool = False
) -> ActionResult:
    """Apply one player's action. Raises :class:`ActionRefused` with a readable reason when the rules,
    the clock or the seat say no; the state is then unchanged (a due deadline may have fired first)."""
    submission = Submission(player=player, action=action, key=key, teacher=teacher)
    (outcome,) = actions_submit(table_id=table_id, submissions=[submission], now=now)
    if isinstance(outcome, ActionRefused):
        raise outcome
    return outcome


@dataclass(frozen=True)
class Submission:
    player: str
    action: dict
    key: str
    teacher: bool = False


def actions_submit(
    *, table_id: int, submissions: list[Submission], now: float | None = None
) -> list[ActionResult | ActionRefused]:
    """Apply several actions at one table in arrival order, in one transaction under one row lock, and
    store the table's state once at the end: the same result as submitting them one by one (each its own
    log entry and sequence number, each refused or accepted on its own), without re-reading and
    re-writing a large state for every answer of a burst. Each outcome is a result or a refusal."""
    with transaction.atomic():
        table = _locked_tables().select_related("session").get(pk=table_id)
        logged = _logged_keys({table_id: submissions})
        return _submit_to(TableWrite(table, batched=True), submissions, logged.get(table_id, {}), now)


def tables_actions_submit(
    batches: dict[int, list[Submission]], *, now: float | None = None
) -> dict[int, list[ActionResult | ActionRefused] | Exception]:
    """:func:`actions_submit` for several tables in one transaction (one commit, one trip to the
    database thread for the moves of many homework games arriving together): the tables read and locked
    in one query (in id order, so two processes' trips never wait on each other in a cycle), the keys
    already logged found in another, each table then in a savepoint of its own: a table whose batch
    raises (any error of its own) is rolled back to where it was, broadcasts nothing and gets the
    exception as its outcome, and the other tables go on. A table that is gone gets DoesNotExist.

    The savepoints are two statements more per table, a third of a homework move's, and a table's batch
    raises only through a bug: so the tables first go without them, and only if one raises is the whole
    transaction rolled back and made again with a savepoint for each (:func:`_each_table`).

    Likewise the look-up of keys already logged: a move is sent again only after a lost connection, and
    the log's unique index on (table, player, key) refuses a second entry anyway. So a trip first goes
    without the look-up (one statement fewer while it holds its tables' locks); only if an insert hits
    that index is the whole transaction rolled back and made again with it, and the resent move is
    then acknowledged as the duplicate it is."""
    try:
        return _savepoints_only_if_one_fails(
            lambda savepoints: _tables_submit(batches, now, savepoints=savepoints, look_up=False)
        )
    except _AlreadyLogged:
        return _savepoints_only_if_one_fails(
            lambda savepoints: _tables_submit(batches, now, savepoints=savepoints, look_up=True)
        )


class _AlreadyLogged(Exception):
    """A move's key was already in its table's log (a resend), found by the log's unique index in a
    transaction that did not look the keys up: the whole transaction is rolled back, to be made again
    with the look-up."""


class _OneTableFailed(Exception):
    """A table's step raised in a transaction without a savepoint per table: the whole transaction is
    rolled back, to be made again with them."""


def _savepoints_only_if_one_fails(run: Callable[[bool], _T]) -> _T:
    """``run(savepoints=False)``; if a table raised in it (rolled back whole), ``run(savepoints=True)``."""
    try:
        return run(False)
    except _OneTableFailed:
        return run(True)


def _each_table(savepoints: bool):
    return transaction.atomic() if savepoints else contextlib.nullcontext()


def _tables_submit(
    batches: dict[int, list[Submission]], now: float | None, *, savepoints: bool, look_up: bool
) -> dict[int, list[ActionResult | ActionRefused] | Exception]:
    outcomes: dict[int, list[ActionResult | ActionRefused] | Exception] = {}
    with transaction.atomic():
        facts = FactsBatch.after_commit()
        tables = {table.pk: table for table in rows.locked_tables(batches)}
        logged = _logged_keys(batches) if look_up else {}
        for table_id in sorted(batches):
            table = tables.get(table_id)
            if table is None:
                outcomes[table_id] = GameTable.DoesNotExist(f"GameTable {table_id} does not exist.")
                continue
            try:
                with _each_table(savepoints):
                    write = TableWrite(table, batched=True, facts=facts)
                    outcomes[table_id] = _submit_to(write, batches[table_id], logged.get(table_id, {}), now)
            except Exception as error:  # with savepoints, only this table was rolled back
                if not look_up and isinstance(error, IntegrityError):
                    raise _AlreadyLogged from error
                if not savepoints:
                    raise _OneTableFailed from error
                facts.discard(table_id)
                outcomes[table_id] = error
    return outcomes


def _logged_keys(batches: dict[int, list[Submission]]) -> dict[int, dict[tuple[str, str], int]]:
    """Keys of these submissions already in their tables' logs (a resend after a reconnect), by table:
    (player, key) -> seq, in one query."""
    wanted = {
        (table_id, submission.player, submission.key)
        for table_id, batch in batches.items()
        for submission in batch
        if submission.key
    }
    logged: dict[int, dict[tuple[str, str], int]] = {}
    for table_id, player, key, seq in logged_keys(wanted):
        logged.setdefault(table_id, {})[player, key] = seq
    return logged


def _submit_to(
    write: TableWrite, submissions: list[Submission], logged: dict[tuple[str, str], int], now: float | None
) -> list[ActionResult | ActionRefused]:
    table = write.table
    outcomes = []
    for submission in submissions:
        at = now_ts() if now is None else now
        # ``logged`` gains the batch's own entries as they are made (a double tap inside one batch).
        outcomes.append(_submit_one(write, submission, at, logged))
    if write.unsaved:
        write.save()
        # Once for the whole batch.
        broadcast.table_changed(table.session_id, table.pk, table.seq, table=table)
    return outcomes


def _submit_one(
    write: TableWrite, submission: Submission, now: float, logged: dict[tuple[str, str], int]
) -> ActionResult | ActionRefused:
    table = write.table
    player, key = submission.player, submission.key
    if key and (player, key) in logged:
        return ActionResult(seq=logged[player, key], duplicate=True)
    try:
        _check_table_open(table)
    except ActionRefused as refused:
        return refused
    if player == core.TEACHER and not submission.teacher:
        return ActionRefused(gettext_noop("Only the teacher can do that."), code="not_allowed")
    if table.deadline is not None and now >= table.deadline:
        # The sweeper has not got there yet: the deadline fires first, and the late move is refused.
        _fire_deadline(write, at=table.deadline)
        return ActionRefused(gettext_noop("Time is up for that move."), code="too_late")
    engine = get_engine(table.session.game)
    try:
        entry = _move_logged(write, engine, player, submission.action, now, key=key)
    except core.IllegalAction as illegal:
        _record_refusal(table, engine, player, submission.action, illegal, now)
        return ActionRefused(illegal.message, code=illegal.code, params=illegal.params)
    if key:
        logged[player, key] = entry.seq
    return ActionResult(seq=entry.seq)


def illegal_message(illegal: core.IllegalAction) -> str:
    """The engine's English sentence, translated, with its values filled in."""
    message = gettext(illegal.message)
    return message % illegal.params if illegal.params else message


def _check_table_open(table: GameTable) -> None:
    if table.status != GameTable.Status.PLAYING:
        raise ActionRefused(gettext_noop("This game has ended."), code="ended")
    if table.session.status == GameSession.Status.PAUSED:
        raise ActionRefused(gettext_noop("The game is paused. Wait for your teacher."), code="paused")
    if table.session.status != GameSession.Status.RUNNING:
        raise ActionRefused(gettext_noop("This game is not running."), code="not_running")


def _record_refusal(table, engine, player, action, illegal, now) -> None:
    """Some refusals are learning moments (Line-it: a card that breaks the line); the engine says which."""
    fact = engine.refusal_fact(table.state, player, action, illegal, now)
    if fact:
        signals.refusal_fact.send(sender=GameTable, table=table, fact=fact)


def table_sweep(*, table_id: int, now: float | None = None) -> bool:
    """Fire the table's deadline if it is due. The row lock plus the re-check make it safe for two
    sweepers, or a sweeper and a late action, to race: the deadline fires exactly once."""
    now = now_ts() if now is None else now
    with transaction.atomic():
        table = _locked_tables().select_related("session").get(pk=table_id)
        return _moved_on(table, now, _deadline_if_due) > 0


def deadline_sweep(*, now: float | None = None) -> int:
    """Fire every due deadline, one transaction per table (the clock uses :func:`clock_sweep`)."""
    now = now_ts() if now is None else now
    due = rows.due_table_ids(now, bots=False)
    return sum(table_sweep(table_id=table_id, now=now) for table_id in due)


def table_bot_move(*, table_id: int, now: float | None = None) -> bool:
    """One computer player's move at this table, if one is due. Logged like anyone's move (so replay
    never asks the bot again); the row lock and re-check make two clocks safe."""
    now = now_ts() if now is None else now
    with transaction.atomic():
        table = _locked_tables().select_related("session").get(pk=table_id)
        return _moved_on(table, now, _bot_move_if_due) > 0


def bots_sweep(*, now: float | None = None) -> int:
    """Every computer player whose move is due makes it, one transaction per table (the clock uses
    :func:`clock_sweep`)."""
    now = now_ts() if now is None else now
    due = rows.due_table_ids(now, deadlines=False)
    return sum(table_bot_move(table_id=table_id, now=now) for table_id in due)


def clock_sweep(*, now: float | None = None, limit: int = SWEEP_TABLES) -> int:
    """What the clock does at each tick: every due deadline fires, then every due computer player moves,
    ``limit`` tables to a transaction (locked in id order, each table's state stored once). With a
    transaction, a commit and a broadcast per table, a thousand homework games against the computer
    kept the clock's thread busy. A table whose step raises is rolled back alone and logged; the
    others go on, and the next sweep tries it again. Returns the steps taken."""
    now = now_ts() if now is None else now
    due = rows.due_table_ids(now)
    return sum(_sweep_tables(due[start : start + limit], now) for start in range(0, len(due), limit))


def _sweep_tables(table_ids: list[int], now: float) -> int:
    """First without a savepoint per table, as :func:`tables_actions_submit`."""
    return _savepoints_only_if_one_fails(
        lambda savepoints: _sweep_tables_once(table_ids, now, savepoints=savepoints)
    )


def _sweep_tables_once(table_ids: list[int], now: float, *, savepoints: bool) -> int:
    steps = 0
    with transaction.atomic():
        facts = FactsBatch.after_commit()
        for table in rows.locked_tables(table_ids):
            try:
                with _each_table(savepoints):
                    steps += _moved_on(table, now, _deadline_if_due, _bot_move_if_due, facts=facts)
            except Exception as error:  # with savepoints, only this table was rolled back
                if not savepoints:
                    raise _OneTableFailed from error
                facts.discard(table.pk)
                logger.exception("the clock could not move table %s on; the next sweep tries again", table.pk)
    return steps


def _moved_on(table: GameTable, now: float, *steps, facts: FactsBatch | None = None) -> int:
    """Clock steps on a locked table, in order (each sees what the one before did), the table stored
    once and announced once if any moved the game on. Returns how many did."""
    write = TableWrite(table, batched=True, facts=facts)
    if not _running(table):
        _forget_due_times(write)
        return 0
    moved = sum(step(write, now) for step in steps)
    if write.unsaved:
        write.save()
    if moved:
        broadcast.table_changed(table.session_id, table.pk, table.seq, table=table)
    return moved


def _forget_due_times(write: TableWrite) -> None:
    """A table that is not running keeps no due time (the clock reads them without the sessions); one
    that kept one anyway would be found due at every sweep, and the clock would never sleep."""
    table = write.table
    if table.deadline is not None or table.bot_due is not None:
        table.deadline = table.bot_due = None
        write.save()


def _running(table: GameTable) -> bool:
    return table.status == GameTable.Status.PLAYING and table.session.status == GameSession.Status.RUNNING


def _deadline_if_due(write: TableWrite, now: float) -> bool:
    table = write.table
    if table.deadline is None or table.deadline > now or not _running(table):
        return False
    _fire_deadline(write, at=table.deadline)
    return True


def _bot_move_if_due(write: TableWrite, now: float) -> bool:
    table = write.table
    if table.bot_due is None or table.bot_due > now or not _running(table):
        return False
    if table.deadline is not None and now >= table.deadline:
        # The phase ran out before the computer moved: the rules refuse a late move, so the deadline
        # fires first (as for a student's late move) and the computer plays on in the next phase.
        _fire_deadline(write, at=table.deadline)
        return True
    engine = get_engine(table.session.game)
    bots = [p for p in engine.current_players(table.state) if is_bot(p)]
    if not bots:
        table.bot_due = None
        write.unsaved = True
        return False
    player = bots[0]
    # The action is logged after the move: a copy, in case a bot's action holds a part of the state.
    action = core.clone(engine.bot_action(table.state, player, core.Rng(f"{table.seed}:bot:{table.seq}")))
    _move_logged(write, engine, player, action, now)
    return True


def _move_logged(
    write: TableWrite, engine, player: str, action: dict, now: float, key: str = ""
) -> TableLogEntry:
    """The move made on the state read from the row this transaction locked (it is ours to change:
    copying the whole state for each move was 6% of the clock's time, and a batch of answers at a table
    of 2000 copied it for each one), then logged. Raises ``IllegalAction`` having changed nothing."""
    events = engine.apply_in_place(write.table.state, player, action, now)
    return _append(
        write,
        engine,
        write.table.state,
        events,
        kind=TableLogEntry.Kind.ACTION,
        at=now,
        player=player,
        action=action,
        key=key,
    )
