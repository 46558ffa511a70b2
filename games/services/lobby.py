"""The lobby and the start: opening it, students joining and the teacher admitting them, arranging tables,
starting, and seating latecomers."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import cast

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, models, router, transaction
from django.db import connections as database_connections
from django.utils import timezone
from django.utils.translation import gettext as _

from classrooms.models import Enrolment, Student, StudentLevel, User
from classrooms.selectors import accommodations_by_student

from .. import broadcast, catalog
from ..definitions import definition, get_engine
from ..engine import core, joining
from ..fields import StateField
from ..models import GameSession, GameTable, Participant, TableLogEntry, attempt_participant
from ..setup import engine_config
from .base import LOBBY_OPENS_MINUTES, _control, _playing_tables, now_ts, student_player_id
from .log import TableWrite, _append, _bot_due


def session_open_lobby(*, session: GameSession, by: User | None) -> GameSession:
    if session.status != GameSession.Status.SCHEDULED:
        return session
    session.status = GameSession.Status.LOBBY
    session.opened_at = timezone.now()
    session.save(update_fields=["status", "opened_at"])
    _control(session, by, "open_lobby")
    broadcast.session_changed(session.pk)
    broadcast.class_games_changed(session.classroom_id)
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
    if session.assignment_id is not None and not _attempt_is_theirs(session, student):
        # An attempt is joined only by its Start; a classmate's join would let their device pause it.
        raise PermissionDenied(_("This game is another student's homework: only they can play it."))
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


def _attempt_is_theirs(session: GameSession, student: Student) -> bool:
    return Participant.objects.filter(pk=attempt_participant(session.pk), student=student).exists()


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


@dataclass(frozen=True)
class SeatChange:
    """A device taking a student's seat (``claim``) or leaving it."""

    participant_id: int
    connection: str
    claim: bool


def seats_update(changes: list[SeatChange]) -> list[str]:
    """Many devices taking or leaving seats in one transaction (a class reconnecting at once), applied in
    order exactly as one by one: a claim takes the seat and returns the connection that held it before
    (the caller tells it to close: one device per seat, and the newest wins; "" for none); a release
    clears the seat only if no newer device has taken it meanwhile (and returns ""). One presence
    message per session, after the commit."""
    if not changes:
        return []
    now = timezone.now()
    with transaction.atomic():
        ids = sorted({change.participant_id for change in changes})
        rows = Participant.objects.select_for_update().filter(pk__in=ids).order_by("pk")
        holders = {
            pk: (connection, session_id)
            for pk, connection, session_id in rows.values_list("pk", "connection", "session_id")
        }
        current = {pk: connection for pk, (connection, _session) in holders.items()}
        touched: set[int] = set()
        previous = []
        for change in changes:
            if change.participant_id not in current:  # gone meanwhile (the session was deleted)
                previous.append("")
                continue
            held = current[change.participant_id]
            if change.claim:
                previous.append(held)
                current[change.participant_id] = change.connection
                touched.add(change.participant_id)
            else:
                previous.append("")
                if held == change.connection:
                    current[change.participant_id] = ""
                    touched.add(change.participant_id)
        _seats_write({pk: current[pk] for pk in sorted(touched)}, now)
        for session_id in {holders[pk][1] for pk in touched}:
            broadcast.presence_changed(session_id)
    return previous


def _seats_write(connections: dict[int, str], now: datetime) -> None:
    """Each seat's connection and last sight, in one statement run for every row. ``bulk_update``
    builds a CASE of every row in Python: a third of the database thread's time when 2000 devices
    reconnected at once."""
    if not connections:
        return
    db = database_connections[router.db_for_write(Participant)]
    meta, quote = Participant._meta, db.ops.quote_name
    held, seen_at = (cast(models.Field, meta.get_field(name)) for name in ("connection", "last_seen_at"))
    held_column, seen_column = quote(held.column), quote(seen_at.column)
    seen = seen_at.get_db_prep_value(now, db)
    sql = (
        f"UPDATE {quote(meta.db_table)} SET {held_column} = %s, {seen_column} = %s "
        f"WHERE {quote(meta.pk.column)} = %s"
    )
    with db.cursor() as cursor:
        cursor.executemany(sql, [(held, seen, pk) for pk, held in connections.items()])


def seat_claim(*, participant_id: int, connection: str) -> str:
    """This device now holds the student's seat; returns the connection that held it before (if any),
    which the caller tells to close: one device per seat, and the newest wins."""
    return seats_update([SeatChange(participant_id, connection, claim=True)])[0]


def seat_release(*, participant_id: int, connection: str) -> None:
    """The device left; only clears the seat if no newer device has taken it meanwhile."""
    seats_update([SeatChange(participant_id, connection, claim=False)])


def session_lock_lobby(*, session: GameSession, by: User, locked: bool = True) -> GameSession:
    session.lobby_locked = locked
    session.save(update_fields=["lobby_locked"])
    _control(session, by, "lock_lobby" if locked else "unlock_lobby")
    broadcast.session_changed(session.pk)
    return session


def planned_table_count(session: GameSession, students: int) -> int:
    spec = definition(session.game).spec
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
    spec = definition(session.game).spec
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
    groups: dict[int, list[dict]] = {number: [] for number in numbers}
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
        raise ValidationError(
            _("Nobody has joined yet: wait for your students to join, then start the game.")
        )
    now = now_ts() if now is None else now
    spec = definition(session.game).spec
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
    accommodations = accommodations_by_student(p.student_id for p in participants)
    seats = []
    for p in participants:
        seat = {
            "participant": p,
            "id": student_player_id(p.student_id),
            "name": p.student.display_name,
            "level": levels.get(p.student_id),
        }
        seat.update(_seat_accommodations(accommodations.get(p.student_id)))
        seats.append(seat)
    return seats


#: What of a student's accommodations the rules take, by seat: their time factor and fewer options.
SEAT_ACCOMMODATIONS = ("time_allowance", "fewer_options")


def _seat_accommodations(record) -> dict:
    if record is None:
        return {}
    extras: dict = {}
    if record.time_factor != 1:
        extras["time_allowance"] = record.time_factor
    if record.fewer_options:
        extras["fewer_options"] = True
    return extras


def _players_and_accommodations(group: list[dict]) -> tuple[list[dict], dict]:
    """The table's players as the game's config takes them, and the config keys of their accommodations
    (``time_allowance: {player: factor}``, ``fewer_options: [player, ...]``): the engines keep these
    apart from the players, whom every view names, so no classmate's screen shows them."""
    hidden = {"participant", *SEAT_ACCOMMODATIONS}
    players = [{k: v for k, v in seat.items() if k not in hidden} for seat in group]
    allowances = {seat["id"]: seat["time_allowance"] for seat in group if "time_allowance" in seat}
    fewer = [seat["id"] for seat in group if seat.get("fewer_options")]
    extras: dict = {}
    if allowances:
        extras["time_allowance"] = allowances
    if fewer:
        extras["fewer_options"] = fewer
    return players, extras


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
    spec = definition(session.game).spec
    engine = get_engine(session.game)
    seats = _seat_info(unseated, spec.skill)
    if spec.seating == "teams" and joining.can_join(engine):
        table = _playing_tables(session).order_by("number").first()
        if table is None:
            return 0
        write = TableWrite(table)
        for seat in seats:
            info = {k: v for k, v in seat.items() if k not in ("participant", "fewer_options")}
            state, events = joining.join(engine, table.state, info, now)
            entry = _append(write, engine, state, events, kind=TableLogEntry.Kind.JOIN, at=now, action=info)
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


@dataclass(frozen=True)
class PreparedTable:
    """A table's game made before its rows are written (its seed, configuration and first state)."""

    seed: str
    config: dict
    state: dict


def _table_prepare(
    session: GameSession, number: int, group: list[dict], now: float, bots: tuple[dict, ...] = ()
) -> PreparedTable:
    """The table's game, made without writing anything: a homework attempt makes it before it takes the
    write lock (building a Word Up bank is most of an attempt's start). The group's seats need no
    ``participant`` here. Their shared parts are the process's kept copies from here on (see
    ``StateField.share_parts``)."""
    seed = secrets.token_hex(16)  # never the clock: the seed must not be guessable
    players, accommodations = _players_and_accommodations(group)
    config = {**engine_config(session, [*players, *bots]), **accommodations}
    engine = get_engine(session.game)
    try:
        state = engine.setup(config, seed, now=now)
    except ValueError as error:  # the content cannot make this table's game (a thin question bank)
        raise ValidationError(
            _("Table %(n)s cannot start: %(reason)s.") % {"n": number, "reason": str(error).rstrip(".")}
        ) from None
    for name, value in (("config", config), ("state", state)):
        cast(StateField, GameTable._meta.get_field(name)).share_parts(value)
    return PreparedTable(seed=seed, config=config, state=state)


def _table_create(
    session: GameSession,
    number: int,
    group: list[dict],
    now: float,
    bots: tuple[dict, ...] = (),
    prepared: PreparedTable | None = None,
) -> GameTable:
    """``bots``: computer players seated with the group (a homework attempt's chosen opponents).
    ``prepared``: the table's game made beforehand by :func:`_table_prepare` for this group."""
    if prepared is None:
        prepared = _table_prepare(session, number, group, now, bots)
    engine = get_engine(session.game)
    table = GameTable.objects.create(
        session=session,
        number=number,
        seed=prepared.seed,
        config=prepared.config,
        state=prepared.state,
        seq=1,
        deadline=engine.deadline(prepared.state),
        bot_due=_bot_due(engine, prepared.state, now),
    )
    TableLogEntry.objects.create(table=table, seq=1, kind=TableLogEntry.Kind.SETUP, at=now)
    for seat in group:
        _seat(seat, table)
    return table
