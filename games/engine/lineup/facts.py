"""Line Up!'s learning facts: one per member of each team that answered a question, built when the answer
is revealed (before then nothing is known to be right), and the questions the class has now seen."""

from __future__ import annotations

from typing import Any

from games.engine.core import Event

from .rules import GAME, right_count


def facts_from(events: list[Event]) -> list[dict[str, Any]]:
    facts: list[dict[str, Any]] = []
    for event in events:
        if isinstance(event, dict) and event.get("type") == "question_revealed":
            facts.extend(_facts_of_reveal(GAME, event))
    return facts


def records_facts(events: list[Event]) -> bool:
    return any(isinstance(event, dict) and event.get("type") == "question_revealed" for event in events)


def fact_players(events: list[Event]) -> set[str]:
    """Every member of every team at a reveal (each gets a fact), without building the facts."""
    return {
        player
        for event in events
        if isinstance(event, dict) and event.get("type") == "question_revealed"
        for result in event["teams"].values()
        for player in result.get("members", {})
    }


def questions_shown(events: list[Event]) -> list[str]:
    """Bank ids of the questions these events finished (revealed), in order: for the runtime to record
    which questions a class has seen (``questions.services.questions_mark_used``)."""
    return [
        event["question"]["id"]
        for event in events
        if isinstance(event, dict) and event.get("type") == "question_revealed"
    ]


def _facts_of_reveal(game: str, event: dict[str, Any]) -> list[dict[str, Any]]:
    question = event["question"]
    answer = question["answer"]
    facts = []
    for team, result in event["teams"].items():
        for player, member in result.get("members", {}).items():
            own = member.get("own")
            own_right = right_count(own["order"], answer) if own else None
            detail = {
                "team": team,
                "mini": event["mini"],
                "team_order": result.get("order"),
                "team_right": result.get("right"),
                "own_right": own_right,
            }
            for key in ("prediction", "bid", "made", "laid", "ended", "attempts"):
                if key in result:
                    detail[key] = result[key]
            if "proposed" in member:
                detail["proposed"] = member["proposed"]
            if "rearranged" in member:
                detail["rearranged"] = member["rearranged"]["order"] if member["rearranged"] else None
            facts.append(
                {
                    "player": player,
                    "game": game,
                    "skill": "general_knowledge",
                    "category": question["subject"],
                    "level": question["level"],
                    "correct": (own_right == 5) if own else None,
                    "score": own_right,
                    "time_taken": (own["at"] - event["asked_at"]) if own else None,
                    "item_id": question["id"],
                    # The order given, and the cards as the student saw them (the report shows these).
                    "response": {"order": own["order"], "cards": _card_texts(question, own["order"])}
                    if own
                    else None,
                    "detail": detail,
                }
            )
    return facts


def _card_texts(question: dict[str, Any], order: list[int]) -> list[str]:
    """The cards' texts in the order a student gave (a reveal logged before the texts were: the numbers)."""
    texts = question.get("cards") or []
    return [texts[number - 1] if 0 < number <= len(texts) else str(number) for number in order]
