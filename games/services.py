"""The only writers of game sessions: scheduling, the lobby, starting, actions, deadlines, teacher controls.

``action_submit`` is the heart: it locks the table row, checks the seat, the clock and the client's
idempotency key, applies the pure rule, appends to the log, bumps the sequence number and, after the
commit, tells every connected viewer that the table changed (each then gets its own view).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from classrooms.models import Classroom, Enrolment, Student, StudentLevel, User

from . import broadcast, catalog
from .engine import core, joining
from .engine.registry import get_engine
from .models import GameSession, GameTable, Participant, SessionControl, TableLogEntry

#: The lobby opens by itself this many minutes before the planned start.
LOBBY_OPENS_MINUTES = 10
BOT_PREFIX = "bot"
#: A computer player "thinks" this long before each move, so people can follow what it does.
BOT_THINK_SECONDS = 1.5


def now_ts() -> float:
    """Server time in epoch seconds: the one clock every deadline is measured against."""
    return time.time()


def student_player_id(student_id: int) -> str:
    return f"s{student_id}"


# --- scheduling -------------------------------------------------------------------------------------


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
    if game not in catalog.GAMES:
        raise ValidationError({"game": _("Unknown game.")})
    try:
        cleaned = catalog.spec_for(game).clean_settings(settings or {})
    except ValueError as error:
        raise ValidationError({"settings": str(error)}) from None
    if not 5 <= planned_minutes <= 90:
        raise ValidationError({"planned_minutes": _("A session lasts between 5 and 90 minutes.")})
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


def session_update(*, session: GameSession, by: User, **fields) -> GameSession:
    if session.status != GameSession.Status.SCHEDULED:
        raise ValidationError(_("Only a session that has not opened yet can be changed."))
    if "settings" in fields:
        try:
            fields["settings"] = catalog.spec_for(fields.get("game", session.game)).clean_settings(
                fields["settings"]
            )
        except ValueError as error:
            raise ValidationError({"settings": str(error)}) from None
        _check_word_list(fields["settings"], fields.get("classroom", session.classroom))
    for name, value in fields.items():
        setattr(session, name, value)
    session.save()
    _control(session, by, "edit", {"fields": sorted(fields)})
    return session


def _check_word_list(settings: dict, classroom: Classroom) -> None:
    """A session may play only with a word list of its own class's school."""
    from questions.models import WordList

    chosen = settings.get("word_list")
    if chosen and not WordList.objects.filter(pk=chosen, school_id=classroom.school_id).exists():
        raise ValidationError({"settings": _("Word list: choose one of your school's word lists.")})


def session_cancel(*, session: GameSession, by: User) -> None:
    if session.status not in (GameSession.Status.SCHEDULED, GameSession.Status.LOBBY):
        raise ValidationError(_("A session that has started cannot be cancelled; end it instead."))
    session.status = GameSession.Status.CANCELLED
    session.save(update_fields=["status"])
    _control(session, by, "cancel")
    broadcast.session_changed(session.pk)


def session_duplicate(
    *, session: GameSession, by: User, scheduled_for: datetime | None = None
) -> GameSession:
    return session_schedule(
        classroom=session.classroom,
        by=by,
        game=session.game,
        scheduled_for=scheduled_for or session.scheduled_for + timedelta(days=7),
        planned_minutes=session.planned_minutes,
        settings=session.settings,
        title=session.title,
        arrangement=session.arrangement,
    )


def _control(session: GameSession, actor: User | None, kind: str, detail: dict | None = None) -> None:
    SessionControl.objects.create(session=session, actor=actor, kind=kind, detail=detail or {})


# --- lobby --------------------------------------------------------------------------------------------


def session_open_lobby(*, session: GameSession, by: User | None) -> GameSession:
    if session.status != GameSession.Status.SCHEDULED:
        return session
    session.status = GameSession.Status.LOBBY
    session.opened_at = timezone.now()
    session.save(update_fields=["status", "opened_at"])
    _control(session, by, "open_lobby")
    broadcast.session_changed(session.pk)
    return session


def sessions_open_due_lobbies(*, now: datetime | None = None) -> int:
    """Open the lobby of every session starting within the next few minutes (run by the clock)."""
    now = now or timezone.now()
    due = GameSession.objects.filter(
        status=GameSession.Status.SCHEDULED, scheduled_for__lte=now + timedelta(minutes=LOBBY_OPENS_MINUTES)
    )
    count = 0
    for session in due:
        session_open_lobby(session=session, by=None)
        count += 1
    return count


def session_join(*, session: GameSession, student: Student) -> Participant:
    """A signed-in student joins with one tap. Only the class's students; a locked lobby makes them wait."""
    if not Enrolment.objects.filter(student=student, classroom=session.classroom_id).exists():
        raise PermissionDenied(_("This game is for another class."))
    if not session.is_live:
        raise ValidationError(_("This game is not open."))
    participant = Participant.objects.filter(session=session, student=student).first()
    if participant is not None:
        if participant.status == Participant.Status.REMOVED:
            raise PermissionDenied(_("Your teacher has taken you out of this game."))
        return participant
    late = session.lobby_locked or session.status != GameSession.Status.LOBBY
    status = Participant.Status.WAITING if late else Participant.Status.PRESENT
    try:
        participant = Participant.objects.create(session=session, student=student, status=status)
    except IntegrityError:  # a double tap from two tabs
        return Participant.objects.get(session=session, student=student)
    broadcast.session_changed(session.pk)
    return participant


def _participant_set_status(participant: Participant, status: str, by: User, kind: str) -> Participant:
    participant.status = status
    participant.save(update_fields=["status"])
    _control(participant.session, by, kind, {"student": participant.student_id})
    broadcast.session_changed(participant.session_id)
    return participant


@transaction.atomic
def participant_admit(*, participant: Participant, by: User, now: float | None = None) -> Participant:
    """Let a waiting student in; once the game is under way, a latecomer is seated at once."""
    participant = _participant_set_status(participant, Participant.Status.PRESENT, by, "admit")
    if participant.session.status in (GameSession.Status.RUNNING, GameSession.Status.PAUSED):
        seat_latecomers(session=participant.session, now=now)
    return participant


def participant_remove(*, participant: Participant, by: User) -> Participant:
    """Take a student out: they can no longer act; their seat plays on by the rules' deadline defaults."""
    return _participant_set_status(participant, Participant.Status.REMOVED, by, "remove")


@transaction.atomic
def participant_readmit(*, participant: Participant, by: User, now: float | None = None) -> Participant:
    participant = _participant_set_status(participant, Participant.Status.PRESENT, by, "readmit")
    if participant.table_id is None and participant.session.status in (
        GameSession.Status.RUNNING,
        GameSession.Status.PAUSED,
    ):
        seat_latecomers(session=participant.session, now=now)
    return participant


def seat_claim(*, participant_id: int, connection: str) -> str:
    """This device now holds the student's seat; returns the connection that held it before (if any),
    which the caller tells to close: one device per seat, and the newest wins."""
    with transaction.atomic():
        participant = Participant.objects.select_for_update().get(pk=participant_id)
        previous = participant.connection
        participant.connection, participant.last_seen_at = connection, timezone.now()
        participant.save(update_fields=["connection", "last_seen_at"])
        broadcast.presence_changed(participant.session_id)
    return previous


def seat_release(*, participant_id: int, connection: str) -> None:
    """The device left; only clears the seat if no newer device has taken it meanwhile."""
    released = Participant.objects.filter(pk=participant_id, connection=connection).update(
        connection="", last_seen_at=timezone.now()
    )
    if released:
        participant = Participant.objects.only("session_id").get(pk=participant_id)
        broadcast.presence_changed(participant.session_id)


def session_lock_lobby(*, session: GameSession, by: User, locked: bool = True) -> GameSession:
    session.lobby_locked = locked
    session.save(update_fields=["lobby_locked"])
    _control(session, by, "lock_lobby" if locked else "unlock_lobby")
    broadcast.session_changed(session.pk)
    return session


# --- arranging tables before the start ----------------------------------------------------------------


def planned_table_count(session: GameSession, students: int) -> int:
    spec = catalog.spec_for(session.game)
    if spec.seating == "teams":
        return 2
    return max(1, len(catalog.table_sizes(students, spec)))


@transaction.atomic
def session_arrange(*, session: GameSession, by: User) -> int:
    """Propose tables (balanced by level, or random, as the session says) that the teacher can then
    change student by student. Returns the number of tables (teams, in a team game)."""
    participants = list(
        session.participants.filter(status=Participant.Status.PRESENT).select_related("student")
    )
    if not participants:
        raise ValidationError(_("Nobody has joined yet."))
    spec = catalog.spec_for(session.game)
    seats = _seat_info(participants, spec.skill)
    groups = _groups(session, seats, spec)
    for number, group in enumerate(groups, start=1):
        for seat in group:
            seat["participant"].planned_table = number
            seat["participant"].save(update_fields=["planned_table"])
    _control(session, by, "arrange", {"tables": len(groups)})
    broadcast.session_changed(session.pk)
    return len(groups)


def _groups(session: GameSession, seats: list[dict], spec: catalog.GameSpec) -> list[list[dict]]:
    """Automatic seating; in a team game the two groups are the two teams."""
    rng = core.Rng(secrets.token_hex(16))
    balanced = session.arrangement == GameSession.Arrangement.BALANCED
    if spec.seating == "teams":
        ordered = catalog.seat_students(seats, spec, balanced=balanced, shuffle=rng.shuffled)[0]
        return [ordered[0::2], ordered[1::2]] if len(ordered) > 1 else [ordered]
    return catalog.seat_students(seats, spec, balanced=balanced, shuffle=rng.shuffled)


def participant_plan(*, participant: Participant, by: User, table: int | None) -> Participant:
    """The teacher moves one student to another table (or team) before the start."""
    session = participant.session
    if session.status != GameSession.Status.LOBBY:
        raise ValidationError(_("Tables can be changed only in the lobby, before the start."))
    present = session.participants.filter(status=Participant.Status.PRESENT).count()
    limit = max(planned_table_count(session, present) + 1, _planned_max(session))
    if table is not None and not 1 <= table <= limit:
        raise ValidationError(_("There is no table %(n)s.") % {"n": table})
    participant.planned_table = table
    participant.save(update_fields=["planned_table"])
    _control(session, by, "plan", {"student": participant.student_id, "table": table})
    broadcast.session_changed(session.pk)
    return participant


def _planned_max(session: GameSession) -> int:
    return session.participants.aggregate(models.Max("planned_table"))["planned_table__max"] or 0


def _as_teams(groups: list[list[dict]]) -> list[list[dict]]:
    """Two groups become the two teams of one table: each seat is told its team."""
    for team, group in zip(("blue", "yellow"), groups, strict=False):
        for seat in group:
            seat["team"] = team
    return [[seat for group in groups for seat in group]]


def _planned_groups(
    session: GameSession, seats: list[dict], spec: catalog.GameSpec
) -> list[list[dict]] | None:
    """The teacher's tables, if they arranged any: students they did not place join the smallest
    tables. Raises a clear error for a table the game cannot play with."""
    if not any(seat["participant"].planned_table for seat in seats):
        return None
    numbers = sorted({s["participant"].planned_table for s in seats if s["participant"].planned_table})
    groups = {number: [] for number in numbers}
    for seat in seats:
        if seat["participant"].planned_table:
            groups[seat["participant"].planned_table].append(seat)
    for seat in seats:
        if not seat["participant"].planned_table:
            min(groups.values(), key=len).append(seat)
    ordered = [groups[number] for number in numbers if groups[number]]
    if spec.seating == "teams":
        if len(ordered) != 2 and len(seats) > 1:
            raise ValidationError(_("Put at least one student in each team."))
        return _as_teams(ordered)
    smallest = 1 if spec.fill == "bot" else spec.table_min
    for number, group in enumerate(ordered, start=1):
        if not smallest <= len(group) <= spec.table_max:
            raise ValidationError(
                _("Table %(n)s has %(count)s players; this game needs %(min)s to %(max)s.")
                % {"n": number, "count": len(group), "min": smallest, "max": spec.table_max}
            )
    return ordered


# --- starting -----------------------------------------------------------------------------------------


def _student_levels(students: list[Student], skill: str | None) -> dict[int, int]:
    if skill is None:
        return {}
    rows = StudentLevel.objects.filter(student__in=students, skill=skill).values_list("student_id", "level")
    return dict(rows)


@transaction.atomic
def session_start(*, session: GameSession, by: User | None, now: float | None = None) -> GameSession:
    """Seat every present student at tables, set each table's game up from a fresh seed, and go."""
    session = GameSession.objects.select_for_update().get(pk=session.pk)
    if session.status != GameSession.Status.LOBBY:
        raise ValidationError(_("Open the lobby before starting."))
    participants = list(
        session.participants.filter(status=Participant.Status.PRESENT).select_related("student")
    )
    if not participants:
        raise ValidationError(_("Nobody has joined yet."))
    now = now_ts() if now is None else now
    spec = catalog.spec_for(session.game)
    seats = _seat_info(participants, spec.skill)
    groups = _planned_groups(session, seats, spec)
    if groups is None:
        groups = _groups(session, seats, spec)
        if spec.seating == "teams":
            groups = _as_teams(groups)
    for number, group in enumerate(groups, start=1):
        _table_create(session, number, group, now)
    session.status = GameSession.Status.RUNNING
    session.started_at = timezone.now()
    session.save(update_fields=["status", "started_at"])
    _control(session, by, "start", {"tables": len(groups)})
    broadcast.session_changed(session.pk)
    return session


def _seat_info(participants: list[Participant], skill: str | None) -> list[dict]:
    levels = _student_levels([p.student for p in participants], skill)
    return [
        {
            "participant": p,
            "id": student_player_id(p.student_id),
            "name": p.student.display_name,
            "level": levels.get(p.student_id),
        }
        for p in participants
    ]


def seat_latecomers(*, session: GameSession, now: float | None = None) -> int:
    """Seat every admitted student without a seat in a game under way, the way the game allows: a team
    game takes them into the smaller team; a game of tables gives them a table of their own with a
    computer player. A game of groups (Mind the Lines) does too: a lone latecomer gets a new table with a
    computer partner (``setup.engine_config`` fills a table below the game's minimum with computer
    players), and students seated in one go share new tables sized as at the start. A table is never
    changed once set up (its config, seed and log are what replays it), so a second latecomer gets a new
    table even if the first's has not begun drawing."""
    now = now_ts() if now is None else now
    unseated = list(
        session.participants.filter(status=Participant.Status.PRESENT, table__isnull=True).select_related(
            "student"
        )
    )
    if not unseated:
        return 0
    spec = catalog.spec_for(session.game)
    engine = get_engine(session.game)
    seats = _seat_info(unseated, spec.skill)
    if spec.seating == "teams" and joining.can_join(engine):
        table = _playing_tables(session).order_by("number").first()
        if table is None:
            return 0
        for seat in seats:
            info = {k: v for k, v in seat.items() if k != "participant"}
            state, events = joining.join(engine, table.state, info, now)
            entry = _append(table, engine, state, events, kind=TableLogEntry.Kind.JOIN, at=now, action=info)
            _seat(seat, table)
            broadcast.table_changed(session.pk, table.pk, entry.seq)
    else:
        number = (session.tables.aggregate(models.Max("number"))["number__max"] or 0) + 1
        if spec.fill == "bot":
            groups = [[seat] for seat in seats]
        else:  # table sizes as at the start (at most table_max); a lone one plays with the computer
            groups = catalog.seat_students(seats, spec, balanced=False, shuffle=list)
        for offset, group in enumerate(groups):
            _table_create(session, number + offset, group, now)
    _control(session, None, "seat_latecomers", {"students": [p.student_id for p in unseated]})
    broadcast.session_changed(session.pk)
    return len(seats)


def _seat(seat: dict, table: GameTable) -> None:
    participant = seat["participant"]
    participant.table = table
    participant.player_id = seat["id"]
    participant.save(update_fields=["table", "player_id"])


def _table_create(session: GameSession, number: int, group: list[dict], now: float) -> GameTable:
    from .setup import engine_config

    seed = secrets.token_hex(16)  # never the clock: the seed must not be guessable
    config = engine_config(session, [{k: v for k, v in seat.items() if k != "participant"} for seat in group])
    engine = get_engine(session.game)
    state = engine.setup(config, seed, now=now)
    table = GameTable.objects.create(
        session=session,
        number=number,
        seed=seed,
        config=config,
        state=state,
        seq=1,
        deadline=engine.deadline(state),
        bot_due=_bot_due(engine, state, now),
    )
    TableLogEntry.objects.create(table=table, seq=1, kind=TableLogEntry.Kind.SETUP, at=now)
    for seat in group:
        _seat(seat, table)
    return table


# --- actions and deadlines ----------------------------------------------------------------------------


@dataclass
class ActionResult:
    seq: int
    duplicate: bool = False


class ActionRefused(Exception):
    """A clear, translated message for the client; nothing changed."""

    def __init__(self, message: str, code: str = "refused"):
        super().__init__(message)
        self.message = message
        self.code = code


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
        table.defer_save = True
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
            outcomes.append(_submit_one(table, submission, at, logged))
        table.defer_save = False
        if table.unsaved:
            _save_table(table)
            broadcast.table_changed(table.session_id, table.pk, table.seq)  # once for the whole batch
    return outcomes


def _submit_one(
    table: GameTable, submission: Submission, now: float, logged: dict[tuple[str, str], int]
) -> ActionResult | ActionRefused:
    player, key = submission.player, submission.key
    if key and (player, key) in logged:
        return ActionResult(seq=logged[player, key], duplicate=True)
    try:
        _check_table_open(table)
    except ActionRefused as refused:
        return refused
    if player == core.TEACHER and not submission.teacher:
        return ActionRefused(_("Only the teacher can do that."), code="not_allowed")
    if table.deadline is not None and now >= table.deadline:
        # The sweeper has not got there yet: the deadline fires first, and the late move is refused.
        _fire_deadline(table, at=table.deadline)
        return ActionRefused(_("Time is up for that move."), code="too_late")
    engine = get_engine(table.session.game)
    try:
        # The state was read from the row this transaction locked: it is ours to change (a batch of
        # answers at a table of 2000 no longer copies the whole state for each one).
        events = engine.apply_in_place(table.state, player, submission.action, now)
    except core.IllegalAction as illegal:
        _record_refusal(table, engine, player, submission.action, illegal, now)
        return ActionRefused(illegal_message(illegal), code=illegal.code)
    entry = _append(
        table,
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
    message = _(illegal.message)
    return message % illegal.params if illegal.params else message


def _check_table_open(table: GameTable) -> None:
    if table.status != GameTable.Status.PLAYING:
        raise ActionRefused(_("This game has ended."), code="ended")
    if table.session.status == GameSession.Status.PAUSED:
        raise ActionRefused(_("The game is paused. Wait for your teacher."), code="paused")
    if table.session.status != GameSession.Status.RUNNING:
        raise ActionRefused(_("This game is not running."), code="not_running")


def _append(table, engine, state, events, *, kind, at, player="", action=None, key="", seconds=None):
    """Store the new state and its log entry, bump the sequence number, record learning facts."""
    table.seq += 1
    entry = TableLogEntry.objects.create(
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
    table.state = state
    table.deadline = engine.deadline(state)
    table.bot_due = _bot_due(engine, state, at)
    if engine.is_over(state):
        table.status = GameTable.Status.FINISHED
        table.outcome = engine.outcome(state)
        table.deadline = table.bot_due = None
    if getattr(table, "defer_save", False):
        table.unsaved = True  # a batch of actions stores the state once, at its end
    else:
        _save_table(table)
    if events:
        if engine.records_facts(events):
            _facts_after_commit(table, entry.seq)
        _questions_shown(table, engine, events)
    if table.status == GameTable.Status.FINISHED:
        transaction.on_commit(lambda: session_finish_if_done(session_id=table.session_id))
    return entry


def _facts_after_commit(table: GameTable, seq: int) -> None:
    """Queue the recording of this entry's learning facts for after the commit, one task for all the
    entries of a transaction. A reveal in a class of 2000 makes 2000 facts: written by a worker, they
    no longer hold up the move reaching the devices. A task lost (a broker down, a crash between the
    commit and the queueing) is made good when the session ends (``session_wrap_up``)."""
    pending = table.__dict__.get("facts_pending")
    if pending is None:
        pending = table.__dict__["facts_pending"] = []
        transaction.on_commit(lambda: _queue_table_facts(table), robust=True)
    pending.append(seq)


def _queue_table_facts(table: GameTable) -> None:
    from .tasks import table_facts

    table_facts.delay(table.pk, table.__dict__.pop("facts_pending"))  # a later transaction starts afresh


def table_facts_record(*, table_id: int, seqs: list[int] | None = None) -> int:
    """Record the learning facts of the table's log entries (these, or all of them), derived from each
    entry's events by the game's engine. Idempotent: a fact is keyed by table, entry and position, so
    recording an entry again writes nothing. A student's facts from before their data was erased are
    not brought back. Returns how many facts it offered (those already there are left as they are)."""
    from reports.services import facts_erased_since, facts_record

    table = GameTable.objects.select_related("session").defer("state", "config").filter(pk=table_id).first()
    if table is None:
        return 0
    engine = get_engine(table.session.game)
    entries = TableLogEntry.objects.filter(table=table).only("seq", "at", "events").order_by("seq")
    if seqs is not None:
        entries = entries.filter(seq__in=seqs)
    recorded, erased = 0, None
    for entry in entries.iterator(chunk_size=200):
        facts = engine.facts(entry.events) if entry.events else []
        if not facts:
            continue
        if erased is None:
            erased = facts_erased_since(entry.at)
        recorded += facts_record(table=table, entry=entry, facts=facts, erased=erased)
    return recorded


def session_wrap_up(*, session_id: int) -> None:
    """After a session ends: make sure every table's facts are recorded (the per-move tasks may have
    been lost or may still be running), then queue the session's report build. Once per session: a
    redelivered or re-queued wrap-up finds it done."""
    session = GameSession.objects.filter(pk=session_id, status=GameSession.Status.FINISHED).first()
    if session is None or session.wrapped_up_at is not None:
        return  # not a session that ended (nothing to wrap up yet), or done already
    for table_id in GameTable.objects.filter(session_id=session_id).values_list("pk", flat=True):
        table_facts_record(table_id=table_id)
    _reports_session_finished(session_id)
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
    for session_id in missed:
        _queue_wrap_up(session_id)
    return len(missed)


def _questions_shown(table: GameTable, engine, events: list) -> None:
    """A question the class has now seen goes to the back of its rotation (no repeats until the
    filtered bank is used up)."""
    shown = getattr(engine, "questions_shown", None)
    ids = shown(events) if shown else []
    if ids:
        from questions.services import questions_mark_used

        questions_mark_used(table.session.classroom, ids)


def _save_table(table: GameTable) -> None:
    table.save(update_fields=["state", "seq", "deadline", "bot_due", "status", "outcome", "updated_at"])
    table.unsaved = False


def _fire_deadline(table: GameTable, *, at: float) -> TableLogEntry:
    engine = get_engine(table.session.game)
    state, events = engine.on_deadline(table.state, at)
    return _append(table, engine, state, events, kind=TableLogEntry.Kind.DEADLINE, at=at)


def _record_refusal(table, engine, player, action, illegal, now) -> None:
    """Some refusals are learning moments (Line-it: a card that breaks the line); the engine says which."""
    hook = getattr(engine, "refusal_fact", None)
    if hook is None:
        return
    fact = hook(table.state, player, action, illegal, now)
    if fact:
        from reports.services import facts_record_refusal

        facts_record_refusal(table=table, fact=fact)


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
        entry = _fire_deadline(table, at=table.deadline)
        broadcast.table_changed(table.session_id, table.pk, entry.seq)
    return True


def deadline_sweep(*, now: float | None = None) -> int:
    """Fire every due deadline (the clock process calls this about twice a second)."""
    now = now_ts() if now is None else now
    due = GameTable.objects.filter(
        deadline__lte=now, status=GameTable.Status.PLAYING, session__status=GameSession.Status.RUNNING
    ).values_list("pk", flat=True)
    return sum(table_sweep(table_id=table_id, now=now) for table_id in list(due))


# --- computer players ---------------------------------------------------------------------------------


def is_bot(player: str) -> bool:
    return player.startswith(BOT_PREFIX)


def _bot_due(engine, state, now: float) -> float | None:
    if engine.is_over(state) or not any(is_bot(p) for p in engine.current_players(state)):
        return None
    return now + BOT_THINK_SECONDS


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
            table, engine, state, events, kind=TableLogEntry.Kind.ACTION, at=now, player=player, action=action
        )
        broadcast.table_changed(table.session_id, table.pk, entry.seq)
    return True


def bots_sweep(*, now: float | None = None) -> int:
    """Every computer player whose move is due makes it (the clock calls this with the deadlines)."""
    now = now_ts() if now is None else now
    due = GameTable.objects.filter(
        bot_due__lte=now, status=GameTable.Status.PLAYING, session__status=GameSession.Status.RUNNING
    ).values_list("pk", flat=True)
    return sum(table_bot_move(table_id=table_id, now=now) for table_id in list(due))


# --- teacher controls ---------------------------------------------------------------------------------


def _clock_entry(
    table: GameTable, kind: str, now: float, seconds: float | None = None, announce: bool = True
) -> None:
    """``announce=False`` when a session change follows: its fan-out sends the tables that moved on
    together with the session, one message per device instead of two."""
    engine = get_engine(table.session.game)
    entry = {"kind": kind, "at": now, "seconds": seconds}
    state, _events = core.apply_log_entry(engine, table.state, entry)
    _append(table, engine, state, [], kind=kind, at=now, seconds=seconds)
    if announce:
        broadcast.table_changed(table.session_id, table.pk, table.seq)


def _locked_tables():
    """Tables under a row lock, for a move. Their configuration (players and questions, ~200 KB in a
    2000-student session) is only read when a table is set up, so a move never decodes it."""
    return GameTable.objects.select_for_update().defer("config")


def _playing_tables(session: GameSession):
    return _locked_tables().select_related("session").filter(session=session, status=GameTable.Status.PLAYING)


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


@transaction.atomic
def table_advance(*, table: GameTable, by: User, now: float | None = None) -> None:
    """Move a stuck phase on: the rules' deadline action, now."""
    table = _locked_tables().select_related("session").get(pk=table.pk)
    if table.status != GameTable.Status.PLAYING or table.session.status != GameSession.Status.RUNNING:
        raise ValidationError(_("Only a running table can be moved on."))
    entry = _fire_deadline(table, at=now_ts() if now is None else now)
    _control(table.session, by, "advance", {"table": table.number})
    broadcast.table_changed(table.session_id, table.pk, entry.seq)


@transaction.atomic
def table_end(*, table: GameTable, by: User | None) -> None:
    table = _locked_tables().get(pk=table.pk)
    if table.status != GameTable.Status.PLAYING:
        return
    table.status, table.deadline = GameTable.Status.ENDED, None
    table.save(update_fields=["status", "deadline", "updated_at"])
    if by is not None:
        _control(table.session, by, "end_table", {"table": table.number})
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
    transaction.on_commit(lambda: _queue_wrap_up(session.pk), robust=True)


def _queue_wrap_up(session_id: int) -> None:
    from .tasks import session_wrap_up as wrap_up

    wrap_up.delay(session_id)


def _reports_session_finished(session_id: int) -> None:
    """The progress reports rebuild from this session's facts (queued, never run in the request)."""
    from reports.tasks import session_finished

    session_finished(session_id)
