"""Writes of learning facts (the rows every report is built from)."""

from __future__ import annotations

from typing import Any

from .models import LearningFact

FACT_FIELDS = ("category", "level", "correct", "score", "time_taken", "response", "detail", "teacher_marked")


def _student_id(player: str) -> int | None:
    """Engine player ids of students are "s<student id>"; bots and the teacher have none."""
    if player and player.startswith("s") and player[1:].isdigit():
        return int(player[1:])
    return None


def _fact_row(*, table, key: str, fact: dict[str, Any]) -> LearningFact | None:
    student_id = _student_id(str(fact.get("player", "")))
    if student_id is None:
        return None
    session = table.session
    row = LearningFact(
        key=key,
        student_id=student_id,
        classroom_id=session.classroom_id,
        session_id=session.pk,
        table_id=table.pk,
        game=fact.get("game") or session.game,
        skill=fact.get("skill") or "",
        item_id=str(fact.get("item_id") or "")[:64],
    )
    for name in FACT_FIELDS:
        value = fact.get(name)
        if value is not None:
            setattr(row, name, value)
    row.category = (row.category or "")[:40]
    return row


def facts_record(*, table, entry, facts: list[dict[str, Any]]) -> int:
    """Store the facts a log entry produced; keyed by table, entry and position, so never twice."""
    rows = [
        row
        for index, fact in enumerate(facts)
        if (row := _fact_row(table=table, key=f"{table.pk}:{entry.seq}:{index}", fact=fact)) is not None
    ]
    LearningFact.objects.bulk_create(rows, ignore_conflicts=True)
    return len(rows)


def facts_record_refusal(*, table, fact: dict[str, Any]) -> None:
    """A refused move that is itself a learning fact (e.g. a Line-it card that breaks the line)."""
    key = f"{table.pk}:r{table.seq}:{LearningFact.objects.filter(table=table, key__contains=':r').count()}"
    row = _fact_row(table=table, key=key, fact=fact)
    if row is not None:
        row.save()
