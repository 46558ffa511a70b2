"""Reads for the live runtime: who may watch a session, and what each viewer may see of a table."""

from __future__ import annotations

from dataclasses import dataclass

from classrooms.models import Student, User
from classrooms.selectors import can_manage_classroom

from .engine.registry import get_engine
from .models import GameSession, GameTable, Participant


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
    engine = get_engine(table.session.game)
    return {
        "table": table.pk,
        "number": table.number,
        "seq": table.seq,
        "status": table.status,
        "view": engine.view(table.state, viewer),
    }


def session_summary(session: GameSession) -> dict:
    """What staff may know about the session itself (never any table's state)."""
    participants = list(session.participants.select_related("student").order_by("student__display_name"))
    return _summary(session, participants, {t.pk: t for t in session.tables.all()})


def _summary(session: GameSession, participants: list[Participant], tables: dict[int, GameTable]) -> dict:
    return {
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
                "connected": bool(p.connection),
            }
            for p in participants
        ],
    }


def table_for_fanout(table_id: int) -> GameTable | None:
    return GameTable.objects.select_related("session").filter(pk=table_id).first()


@dataclass
class SessionSnapshot:
    """One read of a session for the fan-out: its summary, every seat and every table."""

    summary: dict
    seats: dict[int, tuple[str, int | None, str]]
    tables: dict[int, GameTable]

    @property
    def table_ids(self) -> list[int]:
        return list(self.tables)

    def summary_for(self, role: str) -> dict:
        """Staff see every participant and who is connected; a student's device needs only counts."""
        if role in ("teacher", "projector"):
            return self.summary
        participants = self.summary["participants"]
        return {
            **{key: value for key, value in self.summary.items() if key != "participants"},
            "participants": [],
            "counts": {
                "present": sum(p["status"] == Participant.Status.PRESENT for p in participants),
                "waiting": sum(p["status"] == Participant.Status.WAITING for p in participants),
            },
        }


def session_snapshot(session_id: int) -> SessionSnapshot | None:
    session = GameSession.objects.select_related("classroom").filter(pk=session_id).first()
    if session is None:
        return None
    participants = list(session.participants.select_related("student").order_by("student__display_name"))
    tables = {table.pk: table for table in session.tables.select_related("session")}
    return SessionSnapshot(
        summary=_summary(session, participants, tables),
        seats={p.pk: (p.status, p.table_id, p.player_id) for p in participants},
        tables=tables,
    )
