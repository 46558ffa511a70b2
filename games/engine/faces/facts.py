"""Per-student learning facts from the events (bots' moves produce none)."""

from __future__ import annotations

import hashlib
from typing import Any

from ..core import Event

SKILL = "reasoning"


def facts_of(events: list[Event]) -> list[dict[str, Any]]:
    facts: list[dict[str, Any]] = []
    for event in events:
        builder = _BUILDERS.get(event.get("type", ""))
        if builder is not None:
            facts += [fact for fact in builder(event) if fact["player"] not in event.get("bots", [])]
    return facts


def _fact(event: Event, player: str, category: str, **fields: Any) -> dict[str, Any]:
    fact: dict[str, Any] = {
        "player": player,
        "game": "faces",
        "skill": SKILL,
        "category": category,
        "level": None,
        "correct": None,
        "score": None,
        "time_taken": None,
        "item_id": None,
        "response": None,
        "detail": {},
        "at": event.get("at"),
    }
    fact.update(fields)
    return fact


def _question(event: Event) -> list[dict[str, Any]]:
    # A question is neither right nor wrong: its measure is its score, the share of the best split any
    # question on the pad could make at that moment (1: as good as any).
    return [
        _fact(
            event,
            event["player"],
            "question",
            correct=None,
            score=event["quality"],
            time_taken=event["time_taken"],
            item_id=event["question"],
            response={"question": event["question"], "answer": event["answer"]},
            detail={
                key: event[key]
                for key in ("round", "yes", "no", "kept", "removed", "best", "left_before", "opponent_left")
            },
        )
    ]


def _name(event: Event) -> list[dict[str, Any]]:
    return [
        _fact(
            event,
            event["player"],
            "name",
            correct=event["correct"],
            score=1 if event["correct"] else 0,
            time_taken=event["time_taken"],
            item_id=_face_item(event),
            response={"face": event["face"]},
            detail={
                "round": event["round"],
                "faces_left": event["left"],
                "face_name": event.get("face_name", event["face"]),
                "description": event.get("description", ""),
            },
        )
    ]


def _face_item(event: Event) -> str:
    """The face named, as one question: its letter and a digest of its description (a letter alone is
    a different face on every board; a description is too long for an item's id). Events logged before
    faces carried their description give the letter."""
    description = event.get("description")
    if not description:
        return str(event["face"])
    return f"{event['face']}:{hashlib.sha1(description.encode(), usedforsecurity=False).hexdigest()[:12]}"


def _round(event: Event) -> list[dict[str, Any]]:
    return [
        _fact(
            event,
            player,
            "round",
            correct=player == event["winner"],
            score=1 if player == event["winner"] else 0,
            time_taken=event["duration"],
            item_id=f"round-{event['round']}",
            response=None,
            detail={
                "round": event["round"],
                "reason": event["reason"],
                "questions": event["questions"][player],
            },
        )
        for player in (event["winner"], event["loser"])
    ]


def _match(event: Event) -> list[dict[str, Any]]:
    return [
        _fact(
            event,
            player,
            "match",
            correct=player == event["winner"],
            score=event["wins"][player],
            time_taken=event["duration"],
            item_id="match",
            detail={
                "reason": event["reason"],
                "wins": dict(event["wins"]),
                "against_bot": other in event.get("bots", []),
            },
        )
        for player, other in ((event["winner"], event["loser"]), (event["loser"], event["winner"]))
    ]


_BUILDERS = {"asked": _question, "named": _name, "round_over": _round, "match_over": _match}
