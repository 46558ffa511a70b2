"""Reads for the live runtime: who may watch a session, and what each viewer may see of a table."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass

from django.db import models

from classrooms.models import Classroom, Enrolment, Student, StudentLevel, User
from classrooms.selectors import can_manage_classroom, classrooms_for_user

from .engine import core
from .engine.registry import get_engine
from .models import GameSession, GameTable, Participant, SessionControl, TableLogEntry


def session_for_staff(user: User, session_id: int) -> GameSession | None:
    session = GameSession.objects.select_related("classroom").filter(pk=session_id).first()
    if session is None or not can_manage_classroom(user, session.classroom):
        return None
    return session


def participant_for_student(student: Student, session_id: int) -> Participant | None:
    return (
        Participant.objects.select_related("session", "table")
        .filter(session_id=session_id, student=student)
        .exclude(status=Participant.Status.REMOVED)
        .first()
    )


def table_view(table: GameTable, viewer: dict) -> dict:
    """The engine's deny-by-default view of this table for one viewer, plus the runtime's envelope."""
    return next(table_views(table, [viewer]))


def next_clock_due() -> float | None:
    """The earliest deadline or computer player's move of any running table (epoch seconds), or None:
    the clock sleeps until then (at most one sweep interval), so deadlines fire on time."""
    due = GameTable.objects.filter(
        status=GameTable.Status.PLAYING, session__status=GameSession.Status.RUNNING
    ).aggregate(deadline=models.Min("deadline"), bot=models.Min("bot_due"))
    times = [value for value in due.values() if value is not None]
    return min(times) if times else None


def table_views(table: GameTable, viewers: list[dict]) -> Iterator[dict]:
    """``table_view`` for many viewers of the same state, one at a time (the engine shares what they
    share)."""
    engine = get_engine(table.session.game)
    envelope = {"table": table.pk, "number": table.number, "seq": table.seq, "status": table.status}
    return ({**envelope, "view": view} for view in engine.views(table.state, viewers))


def session_summary(session: GameSession) -> dict:
    """What staff may know about the session itself (never any table's state)."""
    participants = list(session.participants.select_related("student").order_by("student__display_name"))
    return _summary(session, participants, {t.pk: t for t in session.tables.all()})


def _summary(session: GameSession, participants: list[Participant], tables: dict[int, GameTable]) -> dict:
    from . import catalog

    levels = _lobby_levels(session, [p.student_id for p in participants])
    return {
        "seating": catalog.spec_for(session.game).seating,
        "id": session.pk,
        "game": session.game,
        "title": str(session),
        "status": session.status,
        "lobby_locked": session.lobby_locked,
        "tables": [
            {"id": t.pk, "number": t.number, "status": t.status, "seq": t.seq} for t in tables.values()
        ],
        "participants": [
            {
                "id": p.pk,
                "name": p.student.display_name,
                "status": p.status,
                "table": p.table_id,
                "planned_table": p.planned_table,
                "level": levels.get(p.student_id),
                "connected": bool(p.connection),
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
    database (a table that moved on meanwhile is read again whole, so seq and state always agree)."""
    out = []
    for table in tables:
        version = (table.seq, table.updated_at)
        cached = _STATES.get(table.pk)
        if cached is None or cached[0] != version:
            table = GameTable.objects.select_related("session").defer("config").get(pk=table.pk)
            version = (table.seq, table.updated_at)
            _STATES[table.pk] = (version, table.state)
            if len(_STATES) > _STATES_KEPT:
                _STATES.popitem(last=False)
        else:
            table.state = cached[1]
            _STATES.move_to_end(table.pk)
        out.append(table)
    return out


def table_for_fanout(table_id: int) -> GameTable | None:
    table = GameTable.objects.select_related("session").defer("state", "config").filter(pk=table_id).first()
    return None if table is None else _with_state([table])[0]


@dataclass
class SessionSnapshot:
    """One read of a session for the fan-out: its summary, every seat and every table."""

    summary: dict
    seats: dict[int, tuple[str, int | None, str]]
    tables: dict[int, GameTable]
    #: A student's snapshot carries the lobby's counts instead of the participant list.
    counts: dict | None = None

    @property
    def table_ids(self) -> list[int]:
        return list(self.tables)

    def summary_for(self, role: str) -> dict:
        """Staff see every participant and who is connected; a student's device needs only counts."""
        if role in ("teacher", "projector"):
            return self.summary
        participants = self.summary["participants"]
        counts = self.counts or {
            "present": sum(p["status"] == Participant.Status.PRESENT for p in participants),
            "waiting": sum(p["status"] == Participant.Status.WAITING for p in participants),
        }
        return {
            **{key: value for key, value in self.summary.items() if key != "participants"},
            "participants": [],
            "counts": counts,
        }


def session_snapshot(session_id: int, seats_from: SessionSnapshot | None = None) -> SessionSnapshot | None:
    """The session, every seat and every table. ``seats_from``: only the session's status and its tables'
    clocks have moved since that snapshot (a pause, a resume), so its seats and participants still hold
    and are not read again (2000 rows, the slowest part of a big session's pause)."""
    session = GameSession.objects.select_related("classroom").filter(pk=session_id).first()
    if session is None:
        return None
    tables = {
        table.pk: table
        for table in _with_state(list(session.tables.select_related("session").defer("state", "config")))
    }
    summary = _summary(session, [], tables)
    if seats_from is not None:
        summary["participants"] = seats_from.summary["participants"]
        return SessionSnapshot(summary=summary, seats=seats_from.seats, tables=tables)
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
        )
    )
    levels = _lobby_levels(session, [row[7] for row in rows])
    summary["participants"] = [
        {
            "id": pk,
            "name": name,
            "status": status,
            "table": table_id,
            "planned_table": planned,
            "level": levels.get(student_id),
            "connected": bool(connection),
        }
        for pk, name, status, table_id, connection, _player, planned, student_id in rows
    ]
    return SessionSnapshot(
        summary=summary,
        seats={pk: (status, table_id, player) for pk, _name, status, table_id, _c, player, _p, _s in rows},
        tables=tables,
    )


def student_snapshot(session_id: int, participant_id: int) -> SessionSnapshot | None:
    """What a student's connecting device needs: the session, the lobby's counts, its own seat and only
    its own table's state. Reading every participant for each of 2000 connecting devices made the
    connects of a big session quadratic."""
    session = GameSession.objects.select_related("classroom").filter(pk=session_id).first()
    if session is None:
        return None
    seat = (
        session.participants.filter(pk=participant_id).values_list("status", "table_id", "player_id").first()
    )
    seats = {participant_id: seat} if seat else {}
    statuses = dict(
        session.participants.filter(status__in=[Participant.Status.PRESENT, Participant.Status.WAITING])
        .order_by()
        .values_list("status")
        .annotate(n=models.Count("pk"))
    )
    tables = list(session.tables.select_related("session").defer("state", "config"))
    own_table = seat[1] if seat and seat[0] != Participant.Status.REMOVED else None
    with_state = {table.pk: table for table in _with_state([t for t in tables if t.pk == own_table])}
    summary = _summary(session, [], {table.pk: with_state.get(table.pk, table) for table in tables})
    return SessionSnapshot(
        summary=summary,
        seats=seats,
        tables=with_state,
        counts={
            "present": statuses.get(Participant.Status.PRESENT, 0),
            "waiting": statuses.get(Participant.Status.WAITING, 0),
        },
    )


def _lobby_levels(session: GameSession, student_ids: list[int]) -> dict[int, int]:
    """Levels help the teacher arrange tables, so they are read only while the lobby is open."""
    from . import catalog

    skill = catalog.spec_for(session.game).skill
    if not skill or session.status != GameSession.Status.LOBBY:
        return {}
    rows = StudentLevel.objects.filter(student__in=student_ids, skill=skill)
    return dict(rows.values_list("student_id", "level"))


# --- pages -----------------------------------------------------------------------------------------


def settings_display(session: GameSession) -> list[tuple[str, str]]:
    """The session's settings as the teacher chose them: labels and the chosen value's name."""
    from . import catalog

    rows = []
    for key, setting in catalog.spec_for(session.game).settings.items():
        value = session.settings.get(key, setting.default)
        shown = dict(setting.choices).get(value, value) if setting.kind == "choice" else value
        rows.append((str(setting.label), str(shown)))
    return rows


def session_controls(session: GameSession, limit: int = 30) -> list[SessionControl]:
    return list(session.controls.select_related("actor")[:limit])


def session_participants(session: GameSession) -> list[Participant]:
    return list(session.participants.select_related("student", "table").order_by("student__display_name"))


def student_may_see(student: Student, session: GameSession) -> bool:
    return Enrolment.objects.filter(student=student, classroom=session.classroom_id).exists()


def open_sessions_for_student(student: Student) -> list[GameSession]:
    classrooms = Enrolment.objects.filter(student=student).values("classroom")
    return list(
        GameSession.objects.filter(
            classroom__in=classrooms,
            status__in=[GameSession.Status.LOBBY, GameSession.Status.RUNNING, GameSession.Status.PAUSED],
        )
        .select_related("classroom")
        .order_by("scheduled_for")
    )


def sessions_for_staff(user: User, *, classroom: Classroom | None = None) -> dict[str, list[GameSession]]:
    """Upcoming (and live) sessions soonest first, and the last past ones, for the dashboard."""
    classrooms = [classroom] if classroom is not None else classrooms_for_user(user)
    sessions = GameSession.objects.filter(classroom__in=classrooms).select_related("classroom")
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
    names = {
        p.player_id: p.student.display_name
        for p in session.participants.select_related("student")
        if p.player_id
    }
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
            {"table": table, "players": sorted(players.values()), "winners": winners, "scores": scores}
        )
    return {"tables": tables, "fact_count": session.facts.count()}


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
