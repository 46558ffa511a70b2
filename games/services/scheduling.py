"""Planning games: scheduling, Play now, changing, cancelling and copying a session."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from classrooms.models import Classroom, User
from questions.models import VocabularyList, WordList

from .. import broadcast
from ..definitions import definition, is_game
from ..models import GameSession
from .base import _control
from .lobby import session_open_lobby


def session_schedule(
    *,
    classroom: Classroom,
    by: User,
    game: str,
    scheduled_for: datetime,
    planned_minutes: int = 25,
    settings: dict[str, Any] | None = None,
    title: str = "",
    arrangement: str = GameSession.Arrangement.BALANCED,
) -> GameSession:
    if not is_game(game):
        raise ValidationError({"game": _("Unknown game.")})
    try:
        cleaned = definition(game).spec.clean_settings(settings or {})
    except ValueError as error:
        raise ValidationError({"settings": str(error)}) from None
    if not 5 <= planned_minutes <= 90:
        raise ValidationError({"planned_minutes": _("A session lasts between 5 and 90 minutes.")})
    _check_start(scheduled_for)
    _check_word_list(cleaned, classroom)
    return GameSession.objects.create(
        classroom=classroom,
        created_by=by,
        game=game,
        title=title.strip()[:80],
        settings=cleaned,
        scheduled_for=scheduled_for,
        planned_minutes=planned_minutes,
        arrangement=arrangement,
    )


@transaction.atomic
def session_play_now(*, classroom: Classroom, by: User, game: str, **fields) -> GameSession:
    """Schedules the game for this moment and opens its lobby in one step: the class's devices show it
    at once."""
    session = session_schedule(classroom=classroom, by=by, game=game, scheduled_for=timezone.now(), **fields)
    return session_open_lobby(session=session, by=by)


#: How far ahead a game can be planned: a school year (a date in 9999 broke "Schedule a copy").
PLAN_AHEAD = timedelta(days=400)


def _check_start(scheduled_for: datetime) -> None:
    now = timezone.now()
    if not now - timedelta(days=1) <= scheduled_for <= now + PLAN_AHEAD:
        raise ValidationError({"scheduled_for": _("Choose a start time between today and a year from now.")})


def session_update(*, session: GameSession, by: User, **fields) -> GameSession:
    if session.status != GameSession.Status.SCHEDULED:
        raise ValidationError(_("Only a session that has not opened yet can be changed."))
    if "settings" in fields:
        try:
            fields["settings"] = definition(fields.get("game", session.game)).spec.clean_settings(
                fields["settings"]
            )
        except ValueError as error:
            raise ValidationError({"settings": str(error)}) from None
        _check_word_list(fields["settings"], fields.get("classroom", session.classroom))
    if "scheduled_for" in fields:
        _check_start(fields["scheduled_for"])
    for name, value in fields.items():
        setattr(session, name, value)
    session.save()
    _control(session, by, "edit", {"fields": sorted(fields)})
    return session


def _check_word_list(settings: dict, classroom: Classroom) -> None:
    """A session may play only with a word list or vocabulary list of its own class's school."""

    chosen = settings.get("word_list")
    if chosen and not WordList.objects.filter(pk=chosen, school_id=classroom.school_id).exists():
        raise ValidationError({"settings": _("Word list: choose one of your school's word lists.")})
    chosen = settings.get("vocabulary")
    if chosen and not VocabularyList.objects.filter(pk=chosen, school_id=classroom.school_id).exists():
        raise ValidationError(
            {"settings": _("Vocabulary list: choose one of your school's vocabulary lists.")}
        )


def session_cancel(*, session: GameSession, by: User) -> None:
    if session.status not in (GameSession.Status.SCHEDULED, GameSession.Status.LOBBY):
        raise ValidationError(_("A session that has started cannot be cancelled; end it instead."))
    session.status = GameSession.Status.CANCELLED
    session.save(update_fields=["status"])
    _control(session, by, "cancel")
    broadcast.session_changed(session.pk)
    broadcast.class_games_changed(session.classroom_id)


def session_duplicate(
    *, session: GameSession, by: User, scheduled_for: datetime | None = None
) -> GameSession:
    return session_schedule(
        classroom=session.classroom,
        by=by,
        game=session.game,
        scheduled_for=scheduled_for or _a_week_later(session.scheduled_for),
        planned_minutes=session.planned_minutes,
        settings=session.settings,
        title=session.title,
        arrangement=session.arrangement,
    )


def _a_week_later(start: datetime) -> datetime:
    """The same time a week on, or the first week after today for a game of long ago (a start beyond the
    planning horizon, stored before it existed, becomes a week from now)."""
    now = timezone.now()
    if start > now + PLAN_AHEAD:
        return now + timedelta(days=7)
    weeks = max(1, -(-(now - start) // timedelta(days=7)))
    return start + weeks * timedelta(days=7)
