"""Homework: a teacher assigns a game that students play at their own pace, alone with computer players.

An attempt is a one-student session of the assignment's game (``GameSession.assignment``): the same
tables, log, clock, computer players, screens and facts as a live game. Its clocks run only while the
student's device is connected (it pauses when the device leaves and resumes when one comes back), so a
game left half-way waits where it stopped, on any device."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TypeGuard

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Count, Exists, OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from classrooms.models import Classroom, Enrolment, Student, StudentLevel, User

from .. import broadcast
from ..definitions import definition, is_game
from ..models import (
    Assignment,
    AssignmentExtension,
    GameSession,
    GameTable,
    Participant,
    TableLogEntry,
    attempt_participant,
)
from .base import _control, _playing_tables, now_ts, student_player_id
from .controls import table_end
from .lobby import PreparedTable, SeatChange, _table_create, _table_prepare, seats_update
from .log import _clock_entry
from .rows import CompiledRead
from .scheduling import PLAN_AHEAD, _check_word_list
from .wrapup import session_finish_if_done

#: How much longer each of the rules' move timers is, per the assignment's timer setting.
TIMER_FACTORS: dict[str, int] = {Assignment.Timers.GENEROUS: 3, Assignment.Timers.RELAXED: 2}
#: "Off": an hour for each move, the longest every game's rules take. The attempt's clocks stop whenever
#: the student's device leaves, so it is no limit a student meets; the play screen draws no countdown.
UNTIMED_SECONDS = 60 * 60
#: The most attempts a teacher may allow (0 is "as many as they like").
MAX_ATTEMPTS = 10
UNFINISHED = (GameSession.Status.RUNNING, GameSession.Status.PAUSED)


def homework_settings(game: str, raw: dict | None) -> dict:
    """The game's settings for homework: checked as for a live game, with the homework defaults."""
    if not is_game(game):
        raise ValidationError({"game": _("Unknown game.")})
    form = definition(game).homework
    if form.unavailable:
        raise ValidationError({"game": str(form.unavailable)})
    try:
        return definition(game).spec.clean_settings({**form.defaults, **(raw or {})})
    except ValueError as error:
        raise ValidationError({"settings": str(error)}) from None


def _check_fields(assignment: Assignment) -> None:
    errors = {}
    if assignment.due_at <= assignment.opens_at:
        errors["due_at"] = _("The due date must come after the opening time.")
    if assignment.due_at > timezone.now() + PLAN_AHEAD:
        errors["due_at"] = _("Choose a due date within a year from now.")
    if not 0 <= assignment.attempts_allowed <= MAX_ATTEMPTS:
        errors["attempts_allowed"] = _("Allow from 1 to %(n)s attempts, or any number.") % {"n": MAX_ATTEMPTS}
    low, high = definition(assignment.game).homework.computer_players
    if not low <= assignment.computer_players <= high:
        errors["computer_players"] = _("This game takes %(low)s to %(high)s computer players.") % {
            "low": low,
            "high": high,
        }
    if errors:
        raise ValidationError(errors)


def _check_students(classroom: Classroom, students: list[Student]) -> None:
    enrolled = set(
        Enrolment.objects.filter(classroom=classroom, student__in=students).values_list(
            "student_id", flat=True
        )
    )
    if any(student.pk not in enrolled for student in students):
        raise ValidationError({"students": _("Choose students of this class.")})


@transaction.atomic
def assignment_create(
    *,
    classroom: Classroom,
    by: User,
    game: str,
    opens_at: datetime,
    due_at: datetime,
    settings: dict | None = None,
    title: str = "",
    timers: str = Assignment.Timers.GENEROUS,
    attempts_allowed: int = 1,
    computer_players: int | None = None,
    students: list[Student] | None = None,
) -> Assignment:
    cleaned = homework_settings(game, settings)
    _check_word_list(cleaned, classroom)
    assignment = Assignment(
        classroom=classroom,
        created_by=by,
        game=game,
        title=title.strip()[:80],
        settings=cleaned,
        timers=timers,
        attempts_allowed=attempts_allowed,
        computer_players=computer_players or definition(game).homework.computer_players[0],
        opens_at=opens_at,
        due_at=due_at,
    )
    _check_fields(assignment)
    if due_at <= timezone.now():
        raise ValidationError({"due_at": _("Choose a due date that has not passed.")})
    _check_students(classroom, students or [])
    assignment.save()
    assignment.students.set(students or [])
    return assignment


@transaction.atomic
def assignment_update(*, assignment: Assignment, by: User, students: list[Student] | None = None, **fields):
    """Change an assignment (its game only before anyone has started it). Attempts already begun keep
    the settings they started with; the dates, timers' choice for new attempts and the students change."""
    assignment = Assignment.objects.select_for_update().get(pk=assignment.pk)
    if assignment.closed_at is not None:
        raise ValidationError(_("This homework is closed."))
    game = fields.get("game", assignment.game)
    if game != assignment.game and assignment.attempts.exists():
        raise ValidationError({"game": _("Students have started this homework: its game cannot change.")})
    if "settings" in fields or game != assignment.game:
        fields["settings"] = homework_settings(game, fields.get("settings", assignment.settings))
        _check_word_list(fields["settings"], assignment.classroom)
    if "title" in fields:
        fields["title"] = fields["title"].strip()[:80]
    for name, value in fields.items():
        setattr(assignment, name, value)
    _check_fields(assignment)
    if students is not None:
        _check_students(assignment.classroom, students)
    assignment.save()
    if students is not None:
        assignment.students.set(students)
    return assignment


def assignment_extend(*, assignment: Assignment, student: Student, due_at: datetime, by: User):
    """One student's own due date (say, after an absence)."""
    if not _assigned_to(assignment, student):
        raise ValidationError(_("This homework is not set for that student."))
    if due_at <= assignment.opens_at:
        raise ValidationError({"due_at": _("The due date must come after the opening time.")})
    if due_at > timezone.now() + PLAN_AHEAD:
        raise ValidationError({"due_at": _("Choose a due date within a year from now.")})
    extension, _created = AssignmentExtension.objects.update_or_create(
        assignment=assignment, student=student, defaults={"due_at": due_at}
    )
    return extension


@transaction.atomic
def assignment_close(*, assignment: Assignment, by: User, now: datetime | None = None) -> Assignment:
    """Close early: no new attempts, and the attempts under way end where they stand."""
    assignment = Assignment.objects.select_for_update().get(pk=assignment.pk)
    if assignment.closed_at is not None:
        raise ValidationError(_("This homework is already closed."))
    assignment.closed_at = now or timezone.now()
    assignment.save(update_fields=["closed_at"])
    for session in assignment.attempts.filter(status__in=UNFINISHED):
        for table in session.tables.filter(status=GameTable.Status.PLAYING):
            table_end(table=table, by=None)
        _control(session, by, "end")
        session_finish_if_done(session_id=session.pk)
    return assignment


def _assigned_to(assignment: Assignment, student: Student) -> bool:
    return _set_for(_standing(assignment, student))


def _set_for(standing: dict | None) -> TypeGuard[dict]:
    """Whether the homework is set for the student whose ``_standing`` this is: they are in its class,
    and it is for the whole class or chose them."""
    return (
        standing is not None
        and bool(standing["enrolled"])
        and (not standing["some_chosen"] or bool(standing["chosen"]))
    )


def attempt_settings(assignment: Assignment) -> dict:
    """The game's settings for one attempt: the rules' move timers stretched, or a day long (off)."""
    settings = dict(assignment.settings)
    for key in definition(assignment.game).homework.timers:
        if assignment.timers == Assignment.Timers.OFF:
            settings[key] = UNTIMED_SECONDS
        else:
            settings[key] = settings[key] * TIMER_FACTORS[assignment.timers]
    return settings


def computer_opponents(assignment: Assignment, level: int | None) -> tuple[dict, ...]:
    """The computer players of an attempt, of the strength the teacher chose and at the student's level."""
    game = definition(assignment.game)
    form = game.homework
    strength = assignment.settings.get(form.strength_setting, "medium") if form.strength_setting else "medium"
    value = game.bot_value(strength)
    return tuple(
        {"id": f"bot{n}", "name": f"Computer {n}", "bot": value, "level": level}
        for n in range(1, assignment.computer_players + 1)
    )


def attempt_start(*, assignment: Assignment, student: Student, now: float | None = None) -> GameSession:
    """The student taps Start: their unfinished attempt if they have one (it resumes where it stopped),
    else a new one while the homework is open and attempts remain. The new table waits, paused, until
    the student's device connects.

    A new attempt's game is made first, outside the transaction (building a Word Up bank is most of an
    attempt's start, and on SQLite a transaction holds the one write lock that every move waits for);
    the transaction then checks everything again under the assignment's lock and writes the rows. If
    the checks or the game's inputs changed meanwhile, what was made is dropped or made again."""
    now = now_ts() if now is None else now
    prepared = None
    in_the_way, level = _in_the_way(assignment, student)
    if in_the_way is None:
        prepared = _attempt_prepared(assignment, student, level, now)
    with transaction.atomic():
        return _attempt_opened(assignment, student, now, prepared)


@dataclass(frozen=True)
class _PreparedAttempt:
    inputs: tuple  # what the game was made from: the homework's settings, the student's level
    table: PreparedTable


def _in_the_way(
    assignment: Assignment, student: Student
) -> tuple[GameSession | Exception | None, int | None]:
    """What stands in the way of a new attempt: the student's unfinished one (to resume), the refusal to
    raise, or None (a new one may open); with the student's level at the game's skill. Read first without
    locks, to know whether to make a game; what it says under the assignment's lock decides."""
    standing = _standing(assignment, student)
    if not _set_for(standing):
        return PermissionDenied(_("This homework is not set for you.")), None
    if assignment.closed_at is not None:
        return ValidationError(_("Your teacher has closed this homework.")), None
    if assignment.opens_at > timezone.now():
        return ValidationError(_("This homework has not opened yet.")), None
    if standing["unfinished"] is not None:
        return GameSession.objects.get(pk=standing["unfinished"]), None
    if assignment.attempts_allowed and (standing["attempts"] or 0) >= assignment.attempts_allowed:
        return ValidationError(_("You have used every attempt at this homework.")), None
    return None, standing["level"]


def _standing(assignment: Assignment, student: Student) -> dict | None:
    """Everything the checks of a Start need, in one query (each of an evening's thousands of Starts
    makes them twice): the enrolment, whether the homework is set for some students only and for this
    one, the unfinished attempt, the attempts made and the level."""
    return _STANDING.one(
        Student,
        assignment=assignment.pk,
        classroom=assignment.classroom_id,
        student=student.pk,
        skill=definition(assignment.game).spec.skill or "",  # "": no level (no skill is called that)
    )


def _standing_query(assignment: int, classroom: int, student: int, skill: str):
    chosen = Assignment.students.through.objects.filter(assignment=assignment)
    mine = GameSession.objects.filter(assignment=assignment, participants__student=OuterRef("pk"))
    return (
        Student.objects.filter(pk=student)
        .annotate(
            enrolled=Exists(Enrolment.objects.filter(classroom=classroom, student=OuterRef("pk"))),
            some_chosen=Exists(chosen),
            chosen=Exists(chosen.filter(student=OuterRef("pk"))),
            unfinished=Subquery(
                mine.filter(status__in=UNFINISHED).order_by("scheduled_for", "id").values("pk")[:1]
            ),
            attempts=Subquery(mine.order_by().values("assignment").annotate(n=Count("pk")).values("n")[:1]),
            level=Subquery(
                StudentLevel.objects.filter(student=OuterRef("pk"), skill=skill).values("level")[:1]
            ),
        )
        .values("enrolled", "some_chosen", "chosen", "unfinished", "attempts", "level")
    )


#: Built by the ORM once per process: building it was most of a Start's checks.
_STANDING = CompiledRead(
    _standing_query, assignment=-900_001, classroom=-900_002, student=-900_003, skill="(a stand-in skill)"
)


def _attempt_prepared(
    assignment: Assignment, student: Student, level: int | None, now: float
) -> _PreparedAttempt:
    settings = attempt_settings(assignment)
    inputs = (settings, level)
    session = GameSession(classroom=assignment.classroom, game=assignment.game, settings=settings)
    table = _table_prepare(
        session, 1, [_attempt_seat(student, level)], now, bots=computer_opponents(assignment, level)
    )
    return _PreparedAttempt(inputs=inputs, table=table)


def _attempt_seat(student: Student, level: int | None) -> dict:
    return {"id": student_player_id(student.pk), "name": student.display_name, "level": level}


def _attempt_opened(
    assignment: Assignment, student: Student, now: float, prepared: _PreparedAttempt | None
) -> GameSession:
    assignment = (
        Assignment.objects.select_for_update(of=("self",)).select_related("classroom").get(pk=assignment.pk)
    )
    in_the_way, level = _in_the_way(assignment, student)
    if isinstance(in_the_way, GameSession):
        return in_the_way
    if in_the_way is not None:
        raise in_the_way
    settings = attempt_settings(assignment)
    inputs = (settings, level)
    session = GameSession.objects.create(
        classroom=assignment.classroom,
        created_by_id=assignment.created_by_id,
        game=assignment.game,
        title=assignment.title,
        settings=settings,
        scheduled_for=timezone.now(),
        status=GameSession.Status.RUNNING,
        opened_at=timezone.now(),
        started_at=timezone.now(),
        assignment=assignment,
    )
    participant = Participant.objects.create(session=session, student=student)
    seat = {"participant": participant, **_attempt_seat(student, level)}
    made = prepared.table if prepared is not None and prepared.inputs == inputs else None
    table = _table_create(session, 1, [seat], now, bots=computer_opponents(assignment, level), prepared=made)
    _clock_entry(table, TableLogEntry.Kind.PAUSE, now, announce=False)
    session.status, session.paused_at = GameSession.Status.PAUSED, timezone.now()
    session.save(update_fields=["status", "paused_at"])
    return session


def attempt_device_arrived(*, participant_id: int, now: float | None = None) -> bool:
    """The student's device connected to a homework attempt: its clocks run again. True if it resumed."""
    with transaction.atomic():
        session = _attempt_locked(participant_id)
        if session is None or session.status != GameSession.Status.PAUSED:
            return False
        if session.assignment is None or session.assignment.closed_at is not None:
            return False
        now = now_ts() if now is None else now
        session.status, session.paused_at = GameSession.Status.RUNNING, None
        session.save(update_fields=["status", "paused_at"])
        for table in _playing_tables(session):
            _clock_entry(table, TableLogEntry.Kind.RESUME, now, announce=False)
        broadcast.session_changed(session.pk, clocks_only=True)
    return True


def attempt_device_left(*, participant_id: int, now: float | None = None) -> bool:
    """The student's last device left a homework attempt: every clock stops where it is (and the computer
    players wait) until a device comes back. True if it paused."""
    with transaction.atomic():
        session = _attempt_locked(participant_id)
        if session is None or session.status != GameSession.Status.RUNNING:
            return False
        if Participant.objects.filter(pk=participant_id).exclude(connection="").exists():
            return False  # another device holds the seat now
        now = now_ts() if now is None else now
        for table in _playing_tables(session):
            _clock_entry(table, TableLogEntry.Kind.PAUSE, now, announce=False)
        session.status, session.paused_at = GameSession.Status.PAUSED, timezone.now()
        session.save(update_fields=["status", "paused_at"])
        broadcast.session_changed(session.pk, clocks_only=True)
    return True


def seats_release_gone(is_gone: Callable[[str], bool]) -> int:
    """Seats still held by connections of a web process that stopped without releasing them (killed, or
    the one embedded process restarting): each is freed, so the teacher's console no longer shows the
    student there, and a homework attempt it held pauses until the student is back, as when a device
    leaves (its clocks and the computer players must not play on alone). Returns how many were freed."""
    held = Participant.objects.exclude(connection="").exclude(
        session__status__in=(GameSession.Status.FINISHED, GameSession.Status.CANCELLED)
    )
    gone = [
        SeatChange(pk, connection, claim=False)
        for pk, connection in held.values_list("pk", "connection")
        if is_gone(connection)
    ]
    seats_update(gone)  # a seat a device took again meanwhile stays with it
    for change in gone:
        attempt_device_left(participant_id=change.participant_id)
    return len(gone)


def _attempt_locked(participant_id: int) -> GameSession | None:
    """The homework attempt this seat is the student's own seat of, locked (None: gone, a live game's
    seat, or anyone else's row in an attempt: only its own student's devices start and stop its clocks)."""
    return (
        GameSession.objects.select_for_update(of=("self",))
        .select_related("assignment")
        .alias(own=attempt_participant(OuterRef("pk")))
        .filter(participants=participant_id, own=participant_id, assignment__isnull=False)
        .first()
    )
