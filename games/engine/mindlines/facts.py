"""Mind the Lines' learning facts, built from reveal events only: before the reveal nothing is known to be
right."""

from __future__ import annotations

from typing import Any

from games.engine.core import Event

from .rules import LEVEL_OF_DIFFICULTY


def facts_from(events: list[Event]) -> list[dict[str, Any]]:
    facts: list[dict[str, Any]] = []
    for event in events:
        if isinstance(event, dict) and event.get("type") == "reveal":
            facts.extend(_drawing_facts(event))
            facts.extend(_exclusion_facts(event))
    return facts


def _fact(player: str, category: str, card: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {
        "player": player,
        "game": "mindlines",
        "skill": "english_vocabulary",
        "category": category,
        "level": LEVEL_OF_DIFFICULTY.get(card["difficulty"]),
        "item_id": card["id"],
        **fields,
    }


def _drawing_facts(event: Event) -> list[dict[str, Any]]:
    facts = []
    for card in event["cards"]:
        player = card["drawn_by"]
        if player is None:
            continue
        drawing = event["drawings"][player]
        recognised = card["excluded_by"] is None
        facts.append(
            _fact(
                player,
                "drawing",
                card,
                correct=recognised,
                score=1 if recognised else 0,
                time_taken=drawing["time_taken"],
                response={"strokes": drawing["strokes"], "halves": drawing["halves"]},
                detail={
                    "round": event["round"],
                    "text": card["text"],
                    "theme": card["theme"],
                    "difficulty": card["difficulty"],
                    "recognised": recognised,
                    "excluded_by": card["excluded_by"],
                    "hidden": drawing["hidden"],
                    "timed_out": drawing["timed_out"],
                },
            )
        )
    return facts


def _exclusion_facts(event: Event) -> list[dict[str, Any]]:
    facts = []
    cards = {card["card"]: card for card in event["cards"]}
    for turn, exclusion in enumerate(event["exclusions"]):
        card = cards[exclusion["card"]]
        # A turn the timer decided is no answer of the student's: keep the row, but not right or wrong.
        correct = None if exclusion["timed_out"] else exclusion["decoy"]
        facts.append(
            _fact(
                exclusion["player"],
                "exclusion",
                card,
                correct=correct,
                score=None if correct is None else int(correct),
                time_taken=exclusion["time_taken"],
                response=None if exclusion["timed_out"] else card["text"],
                detail={
                    "round": event["round"],
                    "turn": turn + 1,
                    "text": card["text"],
                    "theme": card["theme"],
                    "difficulty": card["difficulty"],
                    "decoy": exclusion["decoy"],
                    "drawn_by": card["drawn_by"],
                    "timed_out": exclusion["timed_out"],
                },
            )
        )
    return facts
