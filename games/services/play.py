"""Moves and deadlines: a student's actions (locked, checked, applied, logged), the deadline sweep and the
computer players."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext, gettext_noop

from .. import broadcast, signals
from ..definitions import get_engine
from ..engine import core
from ..models import GameSession, GameTable, TableLogEntry
from .base import _locked_tables, is_bot, now_ts
from .log import TableWrite, _append, _fire_deadline


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
        write = TableWrite(table, batched=True)
        # Keys already in the log (a resend after a reconnect), found in one query for the whole batch;
        # the batch's own entries are added as they are made (a double tap inside one batch).
        logged = dict(
            ((player, key), seq)
            for player, key, seq in TableLogEntry.objects.filter(
                table=table, idempotency_key__in={s.key for s in submissions if s.key}
            ).values_list("player", "idempotency_key", "seq")
        )
        outcomes = []
        for submission in submissions:
            at = now_ts() if now is None else now
            outcomes.append(_submit_one(write, submission, at, logged))
        if write.unsaved:
            write.save()
            # Once for the whole batch.
            broadcast.table_changed(table.session_id, table.pk, table.seq, table=table)
    return outcomes


def tables_actions_submit(
    batches: dict[int, list[Submission]], *, now: float | None = None
) -> dict[int, list[ActionResult | ActionRefused] | Exception]:
    """:func:`actions_submit` for several tables in one transaction (one commit, one trip to the
    database thread for the moves of many homework games arriving together), each table in a savepoint
    of its own: a table whose batch raises (gone, or any error of its own) is rolled back to where it
    was, broadcasts nothing and gets the exception as its outcome, and the other tables go on. Tables
    are locked in id order, so two processes' trips never wait on each other in a cycle."""
    outcomes: dict[int, list[ActionResult | ActionRefused] | Exception] = {}
    with transaction.atomic():
        for table_id in sorted(batches):
            try:
                outcomes[table_id] = actions_submit(table_id=table_id, submissions=batches[table_id], now=now)
            except Exception as error:  # only this table's savepoint was rolled back
                outcomes[table_id] = error
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
        # The state was read from the row this transaction locked: it is ours to change (a batch of
        # answers at a table of 2000 no longer copies the whole state for each one).
        events = engine.apply_in_place(table.state, player, submission.action, now)
    except core.IllegalAction as illegal:
        _record_refusal(table, engine, player, submission.action, illegal, now)
        return ActionRefused(illegal.message, code=illegal.code, params=illegal.params)
    entry = _append(
        write,
        engine,
        table.state,
        events,
        kind=TableLogEntry.Kind.ACTION,
        at=now,
        player=player,
        action=submission.action,
        key=key,
    )
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
        if (
            table.deadline is None
            or table.deadline > now
            or table.status != GameTable.Status.PLAYING
            or table.session.status != GameSession.Status.RUNNING
        ):
            return False
        entry = _fire_deadline(TableWrite(table), at=table.deadline)
        broadcast.table_changed(table.session_id, table.pk, entry.seq, table=table)
    return True


def deadline_sweep(*, now: float | None = None) -> int:
    """Fire every due deadline (the clock process calls this about twice a second)."""
    now = now_ts() if now is None else now
    due = GameTable.objects.filter(
        deadline__lte=now, status=GameTable.Status.PLAYING, session__status=GameSession.Status.RUNNING
    ).values_list("pk", flat=True)
    return sum(table_sweep(table_id=table_id, now=now) for table_id in list(due))


def table_bot_move(*, table_id: int, now: float | None = None) -> bool:
    """One computer player's move at this table, if one is due. Logged like anyone's move (so replay
    never asks the bot again); the row lock and re-check make two clocks safe."""
    now = now_ts() if now is None else now
    with transaction.atomic():
        table = _locked_tables().select_related("session").get(pk=table_id)
        if (
            table.bot_due is None
            or table.bot_due > now
            or table.status != GameTable.Status.PLAYING
            or table.session.status != GameSession.Status.RUNNING
        ):
            return False
        if table.deadline is not None and now >= table.deadline:
            # The phase ran out before the computer moved: the rules refuse a late move, so the deadline
            # fires first (as for a student's late move) and the computer plays on in the next phase.
            entry = _fire_deadline(TableWrite(table), at=table.deadline)
            broadcast.table_changed(table.session_id, table.pk, entry.seq, table=table)
            return True
        engine = get_engine(table.session.game)
        bots = [p for p in engine.current_players(table.state) if is_bot(p)]
        if not bots:
            table.bot_due = None
            table.save(update_fields=["bot_due"])
            return False
        player = bots[0]
        action = engine.bot_action(table.state, player, core.Rng(f"{table.seed}:bot:{table.seq}"))
        state, events = engine.apply(table.state, player, action, now)
        entry = _append(
            TableWrite(table),
            engine,
            state,
            events,
            kind=TableLogEntry.Kind.ACTION,
            at=now,
            player=player,
            action=action,
        )
        broadcast.table_changed(table.session_id, table.pk, entry.seq, table=table)
    return True


def bots_sweep(*, now: float | None = None) -> int:
    """Every computer player whose move is due makes it (the clock calls this with the deadlines)."""
    now = now_ts() if now is None else now
    due = GameTable.objects.filter(
        bot_due__lte=now, status=GameTable.Status.PLAYING, session__status=GameSession.Status.RUNNING
    ).values_list("pk", flat=True)
    return sum(table_bot_move(table_id=table_id, now=now) for table_id in list(due))
