"""Reads for the live runtime: who may watch a session, and what each viewer may see of a table."""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.dateformat import format as date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from classrooms import device_cache
from classrooms.models import Classroom, Enrolment, Student, StudentLevel, User
from classrooms.selectors import accommodations_by_student, can_manage_classroom, classrooms_for_user
from classrooms.text import tidy_sentence
from questions.models import VocabularyList, WordList

from . import speech
from .catalog import LIST_KINDS
from .definitions import definition, get_engine
from .engine import core
from .models import GameSession, GameTable, Participant, SessionControl, TableLogEntry, attempt_participant
from .services.base import student_player_id

#: One sentence per teacher control, for the console's log.
CONTROL_SENTENCES = {
    "open_lobby": gettext_lazy("%(who)s opened the lobby."),
    "pause": gettext_lazy("%(who)s paused the game."),
    "resume": gettext_lazy("%(who)s resumed the game."),
    "end": gettext_lazy("%(who)s ended the game."),
    "cancel": gettext_lazy("%(who)s cancelled the game."),
    "edit": gettext_lazy("%(who)s changed the game's settings."),
    "lock_lobby": gettext_lazy("%(who)s locked the lobby."),
    "unlock_lobby": gettext_lazy("%(who)s unlocked the lobby."),
    "plan": gettext_lazy("%(who)s moved %(student)s to table %(table)s."),
    "admit": gettext_lazy("%(who)s let %(student)s in."),
    "remove": gettext_lazy("%(who)s removed %(student)s."),
    "readmit": gettext_lazy("%(who)s brought %(student)s back."),
    "extend": gettext_lazy("%(who)s gave table %(table)s %(seconds)s more seconds."),
    "advance": gettext_lazy("%(who)s moved table %(table)s on."),
    "end_table": gettext_lazy("%(who)s ended table %(table)s."),
}


def sessions_now() -> dict[str, int]:
    """How many games are on across the site (the staff's status page): live games by state (lobby open,
    running, paused) and homework attempts being played."""
    live = ("lobby", "running", "paused")
    counts = dict.fromkeys(live, 0)
    rows = GameSession.objects.filter(status__in=live, assignment__isnull=True).values("status")
    for row in rows.annotate(count=models.Count("pk")).order_by():
        counts[row["status"]] = row["count"]
    playing = GameSession.objects.filter(status=GameSession.Status.RUNNING, assignment__isnull=False)
    counts["homework"] = playing.count()
    return counts


def session_for_staff(user: User, session_id: int) -> GameSession | None:
    session = GameSession.objects.select_related("classroom__school").filter(pk=session_id).first()
    if session is None or not can_manage_classroom(user, session.classroom):
        return None
    return session


def participant_for_student(student: Student, session_id: int) -> Participant | None:
    """The student's seat in the session, while they are still in its class (a student moved to another
    class no longer opens its games)."""
    return (
        Participant.objects.select_related("session", "table")
        .filter(
            session_id=session_id,
            student=student,
            session__classroom__enrolments__student=student,
        )
        .exclude(status=Participant.Status.REMOVED)
        .first()
    )


@dataclass(frozen=True)
class Player:
    """A student's device that may play in a session: who, its seat, and the session."""

    device: device_cache.Device
    participant: Participant


def players_for_devices(requests: list[tuple[str | None, int]]) -> list[Player | None]:
    """For each (session key, session id) of a connecting device, the student it is signed in as and
    their seat in that session, as ``participant_for_student`` finds it (None: refused). One query for
    all of them (a class reconnecting at once), after the device cache."""
    devices = device_cache.devices([key for key, _session_id in requests])
    wanted = {
        (device.student.pk, session_id)
        for device, (_key, session_id) in zip(devices, requests, strict=True)
        if device is not None
    }
    seats: dict[tuple[int, int], Participant] = {}
    if wanted:
        rows = (
            # not the table: each row would carry its own copy of the table's (large) state
            Participant.objects.select_related("session")
            .filter(
                student_id__in={student for student, _session in wanted},
                session_id__in={session for _student, session in wanted},
                # still in the session's class (a student moved to another class no longer opens its games)
                session__classroom__enrolments__student=models.F("student"),
            )
            # a homework attempt opens to its own student only (not to a classmate's row in it)
            .filter(
                models.Q(session__assignment__isnull=True)
                | models.Q(pk=attempt_participant(models.OuterRef("session")))
            )
            .exclude(status=Participant.Status.REMOVED)
        )
        seats = {(row.student_id, row.session_id): row for row in rows}
    players: list[Player | None] = []
    for device, (_key, session_id) in zip(devices, requests, strict=True):
        participant = seats.get((device.student.pk, session_id)) if device is not None else None
        players.append(
            Player(device, participant) if device is not None and participant is not None else None
        )
    return players


def table_view(table: GameTable, viewer: dict) -> dict:
    """The engine's deny-by-default view of this table for one viewer, plus the runtime's envelope."""
    return next(table_views(table, [viewer]))


def strings_on_student_screen(student, session_id: int) -> dict | None:
    """What a student's device shows of a session, as strings (for read aloud): their own table's view for
    their seat, the session's and game's names and their own name. None when they are not seated in it."""
    participant = (
        Participant.objects.filter(session_id=session_id, student=student, table__isnull=False)
        .exclude(status=Participant.Status.REMOVED)
        .select_related("table__session")
        .first()
    )
    if participant is None:
        return None
    table = participant.table
    view = table_view(table, {"role": "player", "player": participant.player_id})["view"]
    strings = [*speech.view_strings(view), str(table.session), table.session.get_game_display()]
    return {"game": table.session.game, "strings": [*strings, student.display_name]}


def next_clock_due() -> float | None:
    """The earliest deadline or computer player's move of any running table (epoch seconds), or None:
    the clock sleeps until then (at most one sweep interval), so deadlines fire on time.

    Asked several times a second: each time is the first row of an index (``deadline``, ``bot_due``),
    not an aggregate over every running table (1.5 ms on SQLite with 1000 homework games). Only a
    running table has either time set (a pause clears both), so the sessions are not joined."""
    running = GameTable.objects.filter(status=GameTable.Status.PLAYING)
    times = [
        running.filter(**{f"{field}__isnull": False}).order_by(field).values_list(field, flat=True).first()
        for field in ("deadline", "bot_due")
    ]
    times = [value for value in times if value is not None]
    return min(times) if times else None


def table_views(table: GameTable, viewers: list[dict]) -> Iterator[dict]:
    """``table_view`` for many viewers of the same state, one at a time (the engine shares what they
    share)."""
    engine = get_engine(table.session.game)
    envelope = {"table": table.pk, "number": table.number, "seq": table.seq, "status": table.status}
    return ({**envelope, "view": view} for view in engine.views(table.state, viewers))


def table_view_parts(table: GameTable, viewers: list[dict]) -> tuple[dict, Iterator[tuple]]:
    """The envelope ``table_views`` puts around a view, and each viewer's view in the engine's parts
    (``Engine.view_parts``): for a fan-out that serialises a part many devices share once."""
    engine = get_engine(table.session.game)
    envelope = {"table": table.pk, "number": table.number, "seq": table.seq, "status": table.status}
    return envelope, engine.view_parts(table.state, viewers)


def session_when(session: GameSession) -> dict:
    """When the session happened, as a teacher reads it: the time it finished, started or opened, and the
    planned time only while it has not opened. ``{"at": iso, "text": "Finished 14:05"}`` (with the date
    when it is not today)."""
    status = GameSession.Status
    if session.status == status.FINISHED and session.ended_at:
        label, moment = _("Finished %(time)s"), session.ended_at
    elif session.status == status.CANCELLED:
        label, moment = _("Cancelled (was planned for %(time)s)"), session.scheduled_for
    elif session.status in (status.RUNNING, status.PAUSED) and session.started_at:
        label, moment = _("Started %(time)s"), session.started_at
    elif session.status == status.LOBBY and session.opened_at:
        label, moment = _("Lobby opened %(time)s"), session.opened_at
    else:
        label, moment = _("Starts %(time)s"), session.scheduled_for
    zone = session.classroom.school.zone  # the fan-out runs outside any request: the school's own clock
    local = timezone.localtime(moment, zone)
    shown = date_format(local, "H:i" if local.date() == timezone.localdate(timezone=zone) else "D j M, H:i")
    return {"at": local.isoformat(), "text": label % {"time": shown}}


def _accommodations(student_ids: list[int]) -> dict[int, list[str]]:
    """Each student's accommodations by name, for the teacher's console (never a student's device, never
    the projector: see :meth:`SessionSnapshot.summary_for`)."""
    return {sid: record.labels() for sid, record in accommodations_by_student(student_ids).items()}


def _summary(session: GameSession, participants: list[Participant], tables: dict[int, GameTable]) -> dict:
    levels = _lobby_levels(session, [p.student_id for p in participants])
    accommodations = _accommodations([p.student_id for p in participants])
    return {
        "seating": definition(session.game).spec.seating,
        "id": session.pk,
        "game": session.game,
        "title": str(session),
        "status": session.status,
        "when": session_when(session),
        "lobby_locked": session.lobby_locked,
        "tables": [
            {"id": t.pk, "number": t.number, "status": t.status, "seq": t.seq} for t in tables.values()
        ],
        "participants": [
            {
                "id": p.pk,
                "name": p.name,
                "status": p.status,
                "table": p.table_id,
                "planned_table": p.planned_table,
                "level": levels.get(p.student_id),
                "connected": bool(p.connection),
                "accommodations": accommodations.get(p.student_id, []),
            }
            for p in participants
        ],
    }


#: Decoded states by table: (seq, updated_at) -> state. A state never changes without a new sequence
#: number (the log is append-only), so a large table's state (a 2000-student Line Up! board is ~250 KB
#: of JSON) is decoded once per change in this process, not once per connecting device.
_STATES: OrderedDict[int, tuple[tuple, dict]] = OrderedDict()
_STATES_KEPT = 256


def _with_state(tables: list[GameTable]) -> list[GameTable]:
    """Tables loaded with ``state`` and ``config`` deferred, given their state from the cache or the
    database, those not cached in one query (a table that moved on meanwhile is read again whole, so seq
    and state always agree)."""
    out: dict[int, GameTable] = {}
    missing = []
    for table in tables:
        cached = _STATES.get(table.pk)
        if cached is None or cached[0] != (table.seq, table.updated_at):
            missing.append(table.pk)
            continue
        table.state = cached[1]
        _STATES.move_to_end(table.pk)
        out[table.pk] = table
    if missing:
        for table in GameTable.objects.select_related("session").defer("config").filter(pk__in=missing):
            _STATES[table.pk] = ((table.seq, table.updated_at), table.state)
            out[table.pk] = table
        while len(_STATES) > _STATES_KEPT:
            _STATES.popitem(last=False)
    return [out[table.pk] for table in tables if table.pk in out]


def tables_for_fanout(table_ids: list[int]) -> list[GameTable | None]:
    """The tables as they stand, for the fan-out (None for one that is gone), in one or two queries."""
    tables = GameTable.objects.select_related("session").defer("state", "config").filter(pk__in=table_ids)
    by_id = {table.pk: table for table in _with_state(list(tables))}
    return [by_id.get(table_id) for table_id in table_ids]


#: What a student's device never receives of the session summary.
STAFF_ONLY = ("participants", "log", "missing")


@dataclass
class SessionSnapshot:
    """One read of a session for the fan-out: its summary, every seat and every table."""

    summary: dict
    seats: dict[int, tuple[str, int | None, str]]
    tables: dict[int, GameTable]
    #: A student's snapshot carries the lobby's counts instead of the participant list.
    counts: dict | None = None
    #: By language: the summary's sentences in it ("when", "log").
    localized: dict[str, dict] = field(default_factory=dict)

    @property
    def table_ids(self) -> list[int]:
        return list(self.tables)

    def seats_only(self) -> SessionSnapshot:
        """What a later ``session_snapshot(..., seats_from=)`` reuses (the seats and the participants),
        without the tables: a server keeps one per session with a device connected, and each table
        holds its whole state (with 1000 homework attempts, several megabytes kept for nothing)."""
        return replace(self, tables={})

    def summary_for(self, role: str, language: str | None = None) -> dict:
        """Staff see every participant and who is connected; a student's device needs only counts. The
        projector, which the class sees, is not told who has accommodations. With a ``language``, the
        sentences are in it."""
        sentences = self.localized.get(language or "")
        if sentences is not None:
            return replace(self, summary={**self.summary, **sentences}, localized={}).summary_for(role)
        if role == "teacher":
            return self.summary
        if role == "projector":
            return {
                **self.summary,
                "participants": [
                    {key: value for key, value in p.items() if key != "accommodations"}
                    for p in self.summary["participants"]
                ],
            }
        participants = self.summary["participants"]
        counts = self.counts or {
            "present": sum(p["status"] == Participant.Status.PRESENT for p in participants),
            "waiting": sum(p["status"] == Participant.Status.WAITING for p in participants),
        }
        return {
            **{key: value for key, value in self.summary.items() if key not in STAFF_ONLY},
            "participants": [],
            "counts": counts,
        }


def session_snapshot(
    session_id: int, seats_from: SessionSnapshot | None = None, languages: Collection[str] | None = None
) -> SessionSnapshot | None:
    """The session, every seat and every table. ``seats_from``: only the session's status and its tables'
    clocks have moved since that snapshot (a pause, a resume), so its seats and participants still hold
    and are not read again (2000 rows, the slowest part of a big session's pause). ``languages``: the
    only ones its sentences are wanted in (those of the devices it goes to; by default every one)."""
    session = GameSession.objects.select_related("classroom__school").filter(pk=session_id).first()
    if session is None:
        return None
    tables = {
        table.pk: table
        for table in _with_state(list(session.tables.select_related("session").defer("state", "config")))
    }
    summary = _summary(session, [], tables)
    controls = _controls(session.pk)
    summary["log"] = _control_sentences(*controls)
    summary["missing"] = _missing(session)
    localized = _localized(session, controls, languages)
    if seats_from is not None:
        summary["participants"] = seats_from.summary["participants"]
        return SessionSnapshot(summary=summary, seats=seats_from.seats, tables=tables, localized=localized)
    # Plain rows, not model instances: every connecting device reads this, and a session may seat 2000.
    rows = list(
        session.participants.order_by("student__display_name").values_list(
            "pk",
            "student__display_name",
            "status",
            "table_id",
            "connection",
            "player_id",
            "planned_table",
            "student_id",
            "pseudonym",
        )
    )
    levels = _lobby_levels(session, [row[7] for row in rows])
    accommodations = _accommodations([row[7] for row in rows])
    summary["participants"] = [
        {
            "id": pk,
            "name": pseudonym or name,  # an erased student by the name their tables give them
            "status": status,
            "table": table_id,
            "planned_table": planned,
            "level": levels.get(student_id),
            "connected": bool(connection),
            "accommodations": accommodations.get(student_id, []),
        }
        for pk, name, status, table_id, connection, _player, planned, student_id, pseudonym in rows
    ]
    return SessionSnapshot(
        summary=summary,
        seats={pk: (status, table_id, player) for pk, _name, status, table_id, _c, player, *_rest in rows},
        tables=tables,
        localized=localized,
    )


def _localized(
    session: GameSession,
    controls: tuple[list[SessionControl], dict[int, str]],
    languages: Collection[str] | None = None,
) -> dict:
    """The summary's sentences in each language wanted (by default every one the site speaks): the
    devices of one session may each read a different one (a Spanish projector, an Arabic student's
    tablet). Up to 30 log sentences each: every language of them was a third of a big class's pause."""
    localized = {}
    for code, _name in settings.LANGUAGES:
        if languages is not None and code not in languages:
            continue
        with translation.override(code):
            localized[code] = {"when": session_when(session), "log": _control_sentences(*controls)}
    return localized


def _missing(session: GameSession) -> list[str]:
    """While the lobby waits, the class's students who have not joined (the projector lists them)."""
    if session.status not in (GameSession.Status.SCHEDULED, GameSession.Status.LOBBY):
        return []
    joined = session.participants.values("student_id")
    return list(
        Student.objects.filter(enrolments__classroom=session.classroom_id)
        .exclude(pk__in=joined)
        .order_by("display_name")
        .values_list("display_name", flat=True)
    )


def student_snapshot(session_id: int, participant_id: int) -> SessionSnapshot | None:
    """What a student's connecting device needs: the session, the lobby's counts, its own seat and only
    its own table's state. Reading every participant for each of 2000 connecting devices made the
    connects of a big session quadratic."""
    return players_snapshot(session_id, [participant_id])


def players_snapshot(session_id: int, participant_ids: list[int]) -> SessionSnapshot | None:
    """``student_snapshot`` for many devices of one session at once (a class connecting together): their
    seats, the lobby's counts, and the state of only the tables they sit at; the session's sentences in
    every language (the devices may each read a different one)."""
    session = GameSession.objects.select_related("classroom__school").filter(pk=session_id).first()
    if session is None:
        return None
    rows = session.participants.filter(pk__in=participant_ids).values_list(
        "pk", "status", "table_id", "player_id"
    )
    seats: dict[int, tuple[str, int | None, str]] = {
        pk: (status, table_id, player) for pk, status, table_id, player in rows
    }
    statuses = dict(
        session.participants.filter(status__in=[Participant.Status.PRESENT, Participant.Status.WAITING])
        .order_by()
        .values_list("status")
        .annotate(n=models.Count("pk"))
    )
    tables = list(session.tables.select_related("session").defer("state", "config"))
    seated = {
        table_id for status, table_id, _player in seats.values() if status != Participant.Status.REMOVED
    }
    with_state = {table.pk: table for table in _with_state([t for t in tables if t.pk in seated])}
    summary = _summary(session, [], {table.pk: with_state.get(table.pk, table) for table in tables})
    localized = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            localized[code] = {"when": session_when(session)}
    return SessionSnapshot(
        summary=summary,
        seats=seats,
        tables=with_state,
        counts={
            "present": statuses.get(Participant.Status.PRESENT, 0),
            "waiting": statuses.get(Participant.Status.WAITING, 0),
        },
        localized=localized,
    )


def _lobby_levels(session: GameSession, student_ids: list[int]) -> dict[int, int]:
    """Levels help the teacher arrange tables, so they are read only while the lobby is open."""
    skill = definition(session.game).spec.skill
    if not skill or session.status != GameSession.Status.LOBBY:
        return {}
    rows = StudentLevel.objects.filter(student__in=student_ids, skill=skill)
    return dict(rows.values_list("student_id", "level"))


# --- pages -----------------------------------------------------------------------------------------


def class_language_choice(
    *, classroom: Classroom | None, teacher: User | None, choices: Iterable[str]
) -> str | None:
    """The language a setting of ``choices`` (a game's decks) defaults to for a class: the one most of its
    students read (a student's own language, else the school's default), else the school's default, else
    the teacher's own; the first of these among the choices (``"pt-br"`` takes ``"pt"``), else None."""
    offered = set(choices)
    candidates = []
    if classroom is not None:
        school_default = classroom.school.default_language
        read = Student.objects.filter(enrolments__classroom=classroom).values_list("language", flat=True)
        counts = Counter(language or school_default for language in read)
        counts.pop("", None)
        candidates += [language for language, _count in counts.most_common()[:1]]
        candidates.append(school_default)
    if teacher is not None:
        candidates.append(teacher.language)
    for language in candidates:
        for form in (language or "", (language or "").split("-")[0]):
            if form in offered:
                return form
    return None


def settings_display(session: GameSession) -> list[tuple[str, str]]:
    """The session's settings as the teacher chose them: labels and the chosen value's name."""
    rows = []
    for key, setting in definition(session.game).spec.settings.items():
        value = session.settings.get(key, setting.default)
        if setting.kind == "choice":
            shown = dict(setting.choices).get(value, value)
        elif setting.kind in LIST_KINDS:
            shown = _list_name(setting.kind, value, session.classroom.school_id)
        else:
            shown = value
        rows.append((str(setting.label), str(shown)))
    return rows


def _list_name(kind: str, pk: int | None, school_id: int) -> str:
    """A chosen word or vocabulary list by name (not its id); no list: the game's own content."""
    if kind == "word_list":
        model, own = WordList, _("The game's own concepts")
    else:
        model, own = VocabularyList, _("The question bank")
    if not pk:
        return str(own)
    chosen = model.objects.filter(pk=pk, school_id=school_id).first()
    return chosen.name if chosen else _("a deleted list")


def _actor_name(actor: User | None) -> str:
    """How the log names a member of staff: their family name, as a class would ("Rivera")."""
    if actor is None:
        return ""
    return actor.last_name or actor.name.split()[-1]


def _control_sentence(control: SessionControl, students: dict[int, str]) -> str:
    detail = control.detail or {}
    values = {
        "who": _actor_name(control.actor) or _("The teacher"),
        "student": students.get(detail.get("student"), _("a student who has left")),
        "table": detail.get("table"),
        "seconds": detail.get("seconds"),
        "n": detail.get("tables"),
    }
    kind = control.kind
    if kind == "open_lobby" and control.actor is None:
        return _("The lobby opened by itself before the start time.")
    if kind == "seat_latecomers":
        names = [students.get(pk, "?") for pk in detail.get("students", [])]
        return _("Seated the latecomers: %(names)s.") % {"names": ", ".join(names)}
    if kind == "plan" and detail.get("table") is None:
        return _("%(who)s took %(student)s off the table plan.") % values
    if kind in ("start", "arrange") and values["n"] is not None:
        if kind == "start":
            sentence = ngettext(
                "%(who)s started the game at %(n)s table.",
                "%(who)s started the game at %(n)s tables.",
                values["n"],
            )
        else:
            sentence = ngettext(
                "%(who)s proposed %(n)s table.", "%(who)s proposed %(n)s tables.", values["n"]
            )
        return sentence % values
    template = CONTROL_SENTENCES.get(kind)
    return (template or _("%(who)s: %(kind)s.")) % {**values, "kind": kind}


def control_log(session_id: int, limit: int = 30) -> list[dict]:
    """The console's control log, newest first, as sentences with names ("Rivera removed Bruno G.")."""
    return _control_sentences(*_controls(session_id, limit))


def _controls(session_id: int, limit: int = 30) -> tuple[list[SessionControl], dict[int, str]]:
    """The session's latest controls, and the names of the students they mention."""
    controls = list(
        SessionControl.objects.filter(session_id=session_id)
        .select_related("actor")
        .order_by("-created_at", "-id")[:limit]
    )
    wanted = set()
    for control in controls:
        detail = control.detail or {}
        wanted.update(detail.get("students", []))
        if detail.get("student"):
            wanted.add(detail["student"])
    # a student whose data was erased by the name the session's records give them
    pseudonym = Participant.objects.filter(session_id=session_id, student=models.OuterRef("pk")).exclude(
        pseudonym=""
    )
    rows = (
        Student.objects.filter(pk__in=wanted)
        .annotate(pseudonym=models.Subquery(pseudonym.values("pseudonym")[:1]))
        .values_list("pk", "display_name", "pseudonym")
    )
    students = {pk: pseudonym or name for pk, name, pseudonym in rows}
    return controls, students


def _control_sentences(controls: list[SessionControl], students: dict[int, str]) -> list[dict]:
    return [
        {
            "id": control.pk,
            "at": control.created_at.isoformat(),
            "time": timezone.localtime(control.created_at).strftime("%H:%M:%S"),
            "text": tidy_sentence(_control_sentence(control, students)),
        }
        for control in controls
    ]


def session_participants(session: GameSession) -> list[Participant]:
    return list(session.participants.select_related("student", "table").order_by("student__display_name"))


def student_may_see(student: Student, session: GameSession) -> bool:
    """A live game is the class's; a homework attempt is its own student's alone."""
    if session.assignment_id is not None:
        return Participant.objects.filter(pk=attempt_participant(session.pk), student=student).exists()
    return Enrolment.objects.filter(student=student, classroom=session.classroom_id).exists()


def open_sessions_for_student(student: Student) -> list[GameSession]:
    classrooms = Enrolment.objects.filter(student=student).values("classroom")
    return list(
        GameSession.objects.filter(
            classroom__in=classrooms,
            assignment__isnull=True,  # homework attempts are listed with the homework
            status__in=[GameSession.Status.LOBBY, GameSession.Status.RUNNING, GameSession.Status.PAUSED],
        )
        .select_related("classroom__school")
        .order_by("scheduled_for")
    )


def open_game_cards(student: Student) -> list[dict]:
    """What a student's device lists between games: each open game of their classes, whether this student
    has joined it, and where to tap (the home page draws these, and fetches them again on every change)."""
    sessions = open_sessions_for_student(student)
    joined = set(
        Participant.objects.filter(student=student, session__in=sessions)
        .exclude(status=Participant.Status.REMOVED)
        .values_list("session_id", flat=True)
    )
    status_text = {
        GameSession.Status.LOBBY: _("Open now: join and wait for the start"),
        GameSession.Status.RUNNING: _("Playing now: join in"),
        GameSession.Status.PAUSED: _("Paused: join in"),
    }
    return [
        {
            "id": session.pk,
            "title": str(session),
            "game": session.game_full_name,
            "classroom": session.classroom.name,
            "status": session.status,
            "status_text": str(status_text[session.status]),
            "joined": session.pk in joined,
            "url": reverse("games:play", args=[session.pk]),
            "join_url": reverse("games:play_join", args=[session.pk]),
        }
        for session in sessions
    ]


def sessions_for_staff(user: User, *, classroom: Classroom | None = None) -> dict[str, list[GameSession]]:
    """Upcoming (and live) sessions soonest first, and the last past ones, for the dashboard."""
    classrooms = [classroom] if classroom is not None else classrooms_for_user(user)
    sessions = GameSession.objects.filter(classroom__in=classrooms, assignment__isnull=True).select_related(
        "classroom__school"
    )
    upcoming = sessions.filter(
        status__in=[
            GameSession.Status.SCHEDULED,
            GameSession.Status.LOBBY,
            GameSession.Status.RUNNING,
            GameSession.Status.PAUSED,
        ]
    ).order_by("scheduled_for")
    past = sessions.filter(status__in=[GameSession.Status.FINISHED, GameSession.Status.CANCELLED]).order_by(
        "-scheduled_for"
    )
    return {"upcoming": list(upcoming[:20]), "past": list(past[:20])}


def session_results(session: GameSession) -> dict:
    """Each table's outcome with its players' names, for the results screen."""
    names = {p.player_id: p.name for p in session.participants.select_related("student") if p.player_id}
    tables = []
    for table in session.tables.all():
        players = {p["id"]: p.get("name") or p["id"] for p in table.config.get("players", [])}
        players.update({pid: name for pid, name in names.items() if pid in players})
        outcome = table.outcome or {}
        winners = [players.get(pid, pid) for pid in outcome.get("winners", [])]
        scores = sorted(
            ((players.get(pid, pid), score) for pid, score in (outcome.get("scores") or {}).items()),
            key=lambda item: (-(item[1] or 0), item[0]),
        )
        tables.append(
            {
                "table": table,
                "players": sorted(players.values()),
                "winners": winners,
                "scores": scores,
                "accommodations": table_accommodations(table.config, players),
            }
        )
    return {"tables": tables, "fact_count": session.facts.count()}


def table_accommodations(config: dict, names: dict[str, str]) -> list[str]:
    """What the rules gave each player of a table (from its config, so it says what applied then):
    "Ava M.: double time (×2), fewer options"."""
    allowances = config.get("time_allowance") or {}
    fewer = set(config.get("fewer_options") or [])
    notes = []
    for player in [*allowances, *(p for p in fewer if p not in allowances)]:
        parts = []
        if player in allowances:
            factor = allowances[player]
            parts.append(
                _("untimed where the game allows")
                if factor is None
                else _("time ×%(factor)s") % {"factor": f"{factor:g}"}
            )
        if player in fewer:
            parts.append(_("fewer options"))
        notes.append(f"{names.get(player, player)}: {', '.join(parts)}")
    return sorted(notes)


def replay_steps(table: GameTable) -> list[TableLogEntry]:
    return list(table.log.order_by("seq"))


def replay_step(table: GameTable, step: int) -> dict:
    """The table as it stood after log entry ``step`` (1 = the set-up), seen as the teacher sees it:
    rebuilt from the seed and the log, so the step-through shows exactly what happened."""
    engine = get_engine(table.session.game)
    entries = list(table.log.order_by("seq"))
    if not 1 <= step <= len(entries):
        raise IndexError(step)
    state = core.replay(engine, table.config, table.seed, [e.as_log_entry() for e in entries[:step]])
    entry = entries[step - 1]
    return {
        "step": step,
        "steps": len(entries),
        # The raw events are not sent: some name what only one player saw (a card taken into a hand).
        "entry": {"kind": entry.kind, "player": entry.player, "action": entry.action, "at": entry.at},
        "table": {
            "table": table.pk,
            "number": table.number,
            "seq": entry.seq,
            "status": "finished" if engine.is_over(state) else "playing",
            "view": engine.view(state, {"role": "teacher"}),
        },
    }


def student_game_records(student: Student) -> list[dict]:
    """Everything the game records hold of one student, for their data export: each game they joined
    (when, which class, where they sat) with every move they made, as logged (their answers included).
    Other players' moves and names are theirs, not this student's, and are left out."""
    player = student_player_id(student.pk)
    participations = Participant.objects.filter(student=student).select_related("session__classroom", "table")
    records = []
    for participation in participations.order_by("session__scheduled_for", "session_id"):
        session = participation.session
        moves = []
        if participation.table_id is not None:
            entries = TableLogEntry.objects.filter(table_id=participation.table_id).filter(
                models.Q(player=player) | models.Q(kind=TableLogEntry.Kind.JOIN, action__id=player)
            )
            moves = [
                {"seq": entry.seq, "kind": entry.kind, "at": _iso(entry.at), "action": entry.action}
                for entry in entries.order_by("seq")
            ]
        records.append(
            {
                "session": session.pk,
                "game": session.game,
                "title": str(session),
                "class": session.classroom.name,
                "started_at": session.started_at.isoformat() if session.started_at else None,
                "ended_at": session.ended_at.isoformat() if session.ended_at else None,
                "status": participation.status,
                "table": participation.table.number if participation.table_id else None,
                "player_id": participation.player_id,
                "joined_at": participation.joined_at.isoformat(),
                "last_seen_at": participation.last_seen_at.isoformat(),
                "moves": moves,
            }
        )
    return records


def _iso(epoch_seconds: float) -> str:
    return datetime.fromtimestamp(epoch_seconds, tz=UTC).isoformat()


@dataclass(frozen=True)
class UnderWay:
    """The games an upgrade must wait for, and those it need not (``manage.py running_games``)."""

    #: A class is at the devices: a lobby is open, or a live game's or a homework attempt's clocks run.
    blocking: list[GameSession]
    #: Clocks stopped, state in the database: a paused live game, a homework attempt whose student left.
    paused: list[GameSession]


def sessions_under_way() -> UnderWay:
    """Live games and homework attempts not yet over, split by whether a stop of the site would cost
    their players time (a running clock keeps counting while the site is down; a paused one does not)."""
    sessions = list(
        GameSession.objects.filter(
            status__in=[GameSession.Status.LOBBY, GameSession.Status.RUNNING, GameSession.Status.PAUSED]
        )
        .select_related("classroom__school", "assignment")
        .order_by("classroom__school__name", "scheduled_for", "id")
    )
    paused = [session for session in sessions if session.status == GameSession.Status.PAUSED]
    return UnderWay(blocking=[session for session in sessions if session not in paused], paused=paused)
