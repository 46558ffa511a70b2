"""Reads for the live runtime: who may watch a session, and what each viewer may see of a table."""

from __future__ import annotations

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
    """What every viewer may know about the session itself (never any table's state)."""
    participants = session.participants.select_related("student").order_by("student__display_name")
    return {
        "id": session.pk,
        "game": session.game,
        "title": str(session),
        "status": session.status,
        "lobby_locked": session.lobby_locked,
        "participants": [
            {"name": p.student.display_name, "status": p.status, "table": p.table_id} for p in participants
        ],
    }
