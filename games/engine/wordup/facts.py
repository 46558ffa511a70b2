"""Word Up's learning facts: one per answer, written when its mark is final."""

from __future__ import annotations

from typing import Any

from games.engine.core import Event

from .rules import GAME, SKILL


def facts_from(events: list[Event]) -> list[dict[str, Any]]:
    """One fact per answer, written when its mark is final (at once if right; after the reveal,
    where the teacher may accept it, if refused)."""
    facts = []
    for event in events:
        if not isinstance(event, dict) or event.get("type") != "marked":
            continue
        facts.append(
            {
                "player": event["player"],
                "game": GAME,
                "skill": SKILL,
                "category": event["category"],
                "level": event["level"],
                "correct": event["correct"],
                "teacher_marked": event["teacher_marked"],
                "score": event["reward"] if event["correct"] else 0,
                "time_taken": event["time_taken"],
                "item_id": event["question"],
                "response": event["response"],
                "at": event["at"],
                "detail": {
                    "teacher_marked": event["teacher_marked"],
                    "checker_correct": event["checker_correct"],
                    "choice": event["choice"],
                    "player_level": event["player_level"],
                    "asked_by": event["asker"],
                    "mode": event["mode"],
                    "reward": event["reward"],
                },
            }
        )
    return facts
