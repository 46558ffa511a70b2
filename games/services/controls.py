"""The teacher's controls during a game: pause, resume, more time, move on, end a table or the session."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from classrooms.models import User

from .. import broadcast
from ..definitions import get_engine
from ..models import GameSession, GameTable, TableLogEntry
from .base import _control, _locked_tables, _playing_tables, now_ts
from .log import TableWrite, _clock_entry, _fire_deadline
from .wrapup import _finish, session_finish_if_done


@transaction.atomic
def session_pause(*, session: GameSession, by: User, now: float | None = None) -> GameSession:
    """Every clock freezes with its remaining time; actions are refused until resume."""
    now = now_ts() if now is None else now
    session = GameSession.objects.select_for_update().get(pk=session.pk)
    if session.status != GameSession.Status.RUNNING:
        raise ValidationError(_("Only a running game can be paused."))
    for table in _playing_tables(session):
        _clock_entry(table, TableLogEntry.Kind.PAUSE, now, announce=False)
    session.status, session.paused_at = GameSession.Status.PAUSED, timezone.now()
    session.save(update_fields=["status", "paused_at"])
    _control(session, by, "pause")
    broadcast.session_changed(session.pk, clocks_only=True)
    return session


@transaction.atomic
def session_resume(*, session: GameSession, by: User, now: float | None = None) -> GameSession:
    now = now_ts() if now is None else now
    session = GameSession.objects.select_for_update().get(pk=session.pk)
    if session.status != GameSession.Status.PAUSED:
        raise ValidationError(_("The game is not paused."))
    session.status, session.paused_at = GameSession.Status.RUNNING, None
    session.save(update_fields=["status", "paused_at"])
    for table in _playing_tables(session):
        _clock_entry(table, TableLogEntry.Kind.RESUME, now, announce=False)
    _control(session, by, "resume")
    broadcast.session_changed(session.pk, clocks_only=True)
    return session


@transaction.atomic
def table_extend(*, table: GameTable, by: User, seconds: int, now: float | None = None) -> None:
    if not 5 <= seconds <= 600:
        raise ValidationError(_("Extend by 5 to 600 seconds."))
    table = _locked_tables().select_related("session").get(pk=table.pk)
    if table.status != GameTable.Status.PLAYING:
        raise ValidationError(_("This table has ended."))
    _clock_entry(table, TableLogEntry.Kind.EXTEND, now_ts() if now is None else now, float(seconds))
    _control(table.session, by, "extend", {"table": table.number, "seconds": seconds})
    broadcast.presence_changed(table.session_id)  # the staff screens' control log


@transaction.atomic
def table_advance(*, table: GameTable, by: User, now: float | None = None) -> None:
    """Move a stuck phase on: the rules' deadline action, now."""
    table = _locked_tables().select_related("session").get(pk=table.pk)
    if table.status != GameTable.Status.PLAYING or table.session.status != GameSession.Status.RUNNING:
        raise ValidationError(_("Only a running table can be moved on."))
    entry = _fire_deadline(TableWrite(table), at=now_ts() if now is None else now)
    _control(table.session, by, "advance", {"table": table.number})
    broadcast.presence_changed(table.session_id)  # the staff screens' control log
    broadcast.table_changed(table.session_id, table.pk, entry.seq)


@transaction.atomic
def table_end(*, table: GameTable, by: User | None) -> None:
    table = _locked_tables().select_related("session").get(pk=table.pk)
    if table.status != GameTable.Status.PLAYING:
        return
    table.status, table.deadline, table.bot_due = GameTable.Status.ENDED, None, None
    # The results of a table ended early: what the game makes of it (its scores at this moment, say).
    table.outcome = get_engine(table.session.game).outcome_when_ended(table.state)
    table.save(update_fields=["status", "deadline", "bot_due", "outcome", "updated_at"])
    if by is not None:
        _control(table.session, by, "end_table", {"table": table.number})
        broadcast.presence_changed(table.session_id)  # the staff screens' control log
    broadcast.table_changed(table.session_id, table.pk, table.seq)
    transaction.on_commit(lambda: session_finish_if_done(session_id=table.session_id))


@transaction.atomic
def session_end(*, session: GameSession, by: User) -> GameSession:
    session = GameSession.objects.select_for_update().get(pk=session.pk)
    if session.status in (GameSession.Status.FINISHED, GameSession.Status.CANCELLED):
        # (a second click, or a session whose tables all finished): its end time and results stand
        raise ValidationError(_("This session has already ended."))
    for table in session.tables.filter(status=GameTable.Status.PLAYING):
        table_end(table=table, by=None)
    _control(session, by, "end")
    _finish(session)
    return session
