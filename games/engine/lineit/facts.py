"""Per-student learning facts from Line-it events, and the fact for a refused placement.

Facts (skill ``numeracy``, level = the table's level; computer players get none):

* ``comparison`` correct=True: a number card the student put into a line whose direction was already
  set, with the two cards compared (the card placed and the line's end card). The card that *sets* the
  direction is not a comparison (any card is accepted there), and neither is the card the turn clock
  placed for a student who ran out of time (``by_clock``): the server chose it, not the student.
* ``comparison`` correct=False: a refused placement (the card breaks the line), built by
  :func:`refusal_fact` when ``apply`` raised, since ``apply`` itself leaves no trace.
* ``line`` (cards banked, whether it was forced), ``bet`` (correct = won, score = the token),
  ``jackpot`` (score = cards claimed), ``final_score`` (correct = won or shared the win).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from games.engine.core import Event, IllegalAction, State

from .rules import (
    GAME,
    card_record,
    event,
    line_end,
    parse_action,
    time_taken,
)

SKILL = "numeracy"


def _fact(e: Event, category: str, **fields: Any) -> dict[str, Any]:
    fact = {
        "player": e["player"],
        "game": GAME,
        "skill": SKILL,
        "category": category,
        "level": e.get("level"),
        "correct": None,
        "score": None,
        "time_taken": None,
        "item_id": None,
        "response": None,
        "detail": {},
        "at": e.get("at"),
    }
    fact.update(fields)
    return fact


def _comparison(e: Event, correct: bool) -> dict[str, Any]:
    card, end = e["card"], e["end"]
    card_value, end_value = Fraction(card["value"]), Fraction(end["value"])
    # The item is the pair as the student saw it (the cards' faces, the smaller first): "-18.2|-13.5",
    # never the exact values behind them ("-91/5").
    low, high = sorted((card, end), key=lambda c: Fraction(c["value"]))
    return _fact(
        e,
        "comparison",
        correct=correct,
        time_taken=e.get("time_taken"),
        item_id=f"compare:{low['face']}|{high['face']}",
        response={"card": card["face"], "after": end["face"], "direction": e["direction"]},
        detail={
            "card_face": card["face"],
            "card_value": card["value"],
            "end_face": end["face"],
            "end_value": end["value"],
            "direction": e["direction"],
            "relation": "greater" if card_value > end_value else "less",
            "source": e.get("source"),
        },
    )


def _score_facts(e: Event) -> list[dict[str, Any]]:
    numbers = sum(1 for c in e["cards"] if c["kind"] == "number")
    facts = [
        _fact(
            e,
            "line",
            score=e["banked"],
            response={"forced": e["forced"]},
            detail={"number_cards": numbers, "banked": e["banked"], "forced": e["forced"]},
        )
    ]
    bet = e.get("bet")
    if bet:
        facts.append(
            _fact(
                e,
                "bet",
                correct=bet["won"],
                score=bet["token"],
                item_id=f"bet:{bet['bet']}",
                response={"cards_after": bet["after"]},
                detail=dict(bet),
            )
        )
    return facts


def facts_from(events: list[Event]) -> list[dict[str, Any]]:
    facts: list[dict[str, Any]] = []
    for e in events:
        if not isinstance(e, dict) or e.get("game") != GAME or e.get("bot") or not e.get("player"):
            continue
        kind = e.get("type")
        if kind == "place" and e.get("end") and not e.get("sets_direction") and not e.get("by_clock"):
            facts.append(_comparison(e, True))
        elif kind == "refused":
            facts.append(_comparison(e, False))
        elif kind == "score":
            facts += _score_facts(e)
        elif kind == "jackpot":
            facts.append(
                _fact(
                    e,
                    "jackpot",
                    score=e["count"],
                    item_id=f"jackpot:{e['colour']}",
                    detail={"colour": e["colour"], "count": e["count"]},
                )
            )
        elif kind == "final_score":
            facts.append(
                _fact(
                    e,
                    "final_score",
                    correct=e["won"],
                    score=e["score"],
                    detail={"pile": e["pile"], "tokens": e["tokens"], "won": e["won"], "shared": e["shared"]},
                )
            )
    return facts


def refusal_event(
    state: State, player: Any, action: Any, error: Any, now: float | None = None
) -> Event | None:
    """The ``refused`` event for a placement ``apply`` refused because the card breaks the line, or None
    (any other refusal, or junk input). Pure; never raises."""
    if not isinstance(error, IllegalAction) or error.code != "breaks_line":
        return None
    try:
        kind, card, _to = parse_action(action)
        if state["phase"] == "over" or state["turn"]["player"] != player:
            return None
        source = "market" if kind == "take" else "hand"
        place = state["market"] if source == "market" else state["hands"][player]
        end = line_end(state, player)
        if card is None or card not in place or end is None:
            return None
        at = now if now is not None else state["turn"].get("started")
        return event(
            state,
            "refused",
            at,
            player=player,
            card=card_record(state, card),
            end=card_record(state, end),
            direction=state["lines"][player]["direction"],
            source=source,
            time_taken=time_taken(state, now) if now is not None else None,
        )
    except (IllegalAction, KeyError, TypeError, ValueError):
        return None


def refusal_fact(state: State, player: Any, action: Any, error: Any, now: float | None = None) -> dict | None:
    """The learning fact (category ``comparison``, correct False, both values) for a refused placement."""
    refused = refusal_event(state, player, action, error, now)
    if refused is None:
        return None
    found = facts_from([refused])
    return found[0] if found else None
