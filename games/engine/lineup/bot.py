"""Line Up!'s computer players. A bot reads the whole state (it is the server's own player), but sees the
answer only through a noisy belief, so it plays like a student of its level."""

from __future__ import annotations

from typing import Any

from games.engine import core
from games.engine.core import IllegalAction, State, _

from .rules import (
    BID,
    CARDS,
    CHOICE_PHASES,
    DIE_VALUES,
    FINAL,
    RACK_PHASES,
    answer_of,
    current_players,
    other_team,
    right_count,
    team_of,
)

# ====================================================================================================

# How far a bot's sense of each card's place wanders from the truth, and how bold it plays.
BOT_NOISE = {"easy": 4.0, "medium": 2.2, "hard": 1.0}
BOT_CONFIDENCE = {"easy": 0.4, "medium": 0.65, "hard": 0.85}
BOT_STAR_CARDS = {"easy": 1, "medium": 2, "hard": 3}


def _bot_level(state: State, player: str) -> str:
    return state["players"][player]["bot"] or "medium"


def _belief(state: State, player: str, salt: str = "") -> list[int]:
    """The bot's ordering for the current question: the true places plus noise, stable within a question.

    Bots of one team and level share it, so a bot team's bid, prediction and answer agree."""
    q = state["q"]
    level = _bot_level(state, player)
    rng = core.Rng(f"lineup-bot:{state['rng']['seed']}:{q['serial']}:{team_of(state, player)}:{level}:{salt}")
    noise = BOT_NOISE[level]
    answer = answer_of(state)
    guess = {
        card: answer.index(card) + noise * (rng.random() + rng.random() + rng.random() - 1.5)
        for card in CARDS
    }
    return sorted(CARDS, key=lambda card: guess[card])


def _bot_value(state: State, player: str, rng: core.Rng) -> int:
    """A prediction or bid: what the bot expects to get right, sometimes bolder when its team is behind."""
    team = team_of(state, player)
    level = _bot_level(state, player)
    expected = right_count(_belief(state, player), answer_of(state))
    value = max([v for v in DIE_VALUES if v <= expected], default=DIE_VALUES[0])
    if rng.random() > BOT_CONFIDENCE[level]:
        value = rng.choice(DIE_VALUES)
    behind = state["teams"][other_team(team)]["pos"] - state["teams"][team]["pos"]
    if state["phase"] == BID and state["q"]["mini"] == "pink" and behind >= 3 and rng.random() < 0.5:
        value = DIE_VALUES[min(DIE_VALUES.index(value) + 1, len(DIE_VALUES) - 1)]  # gamble when behind
    return value


def _bot_final_retry(state: State, player: str) -> list[int]:
    """Rethink, keeping to what the team was told: as many cards wrong as last time."""
    first = state["q"]["attempts"][0]
    for attempt in range(40):
        order = _belief(state, player, salt=f"retry{attempt}")
        if order != first["order"] and right_count(order, first["order"]) == 5 - first["wrong"]:
            return order
    return _belief(state, player, salt="retry")


def _bot_action(state: State, player: str, rng: core.Rng) -> dict[str, Any]:
    q, phase = state["q"], state["phase"]
    team = team_of(state, player)
    captain = q["captain"].get(team) == player
    if phase in RACK_PHASES:
        if phase == FINAL and q["attempts"]:
            wanted = _bot_final_retry(state, player)
        else:
            wanted = _belief(state, player)
        mine = q["own"].get(player)
        if captain and mine is not None:
            return {"type": "confirm"}
        return {"type": "rack", "order": wanted}
    if phase in CHOICE_PHASES:
        if captain and q["proposal"].get(team, {}).get("by") == player:
            return {"type": "confirm"}
        return {"type": phase, "value": _bot_value(state, player, rng)}
    star = q["star"]
    if captain and star["proposal"] is not None and star["proposal"]["by"] == player:
        return {"type": "confirm"}
    if len(star["laid"]) >= BOT_STAR_CARDS[_bot_level(state, player)]:
        return {"type": "stop"}
    belief = _belief(state, player)
    taken_cards = {c["card"] for c in star["laid"]}
    taken_places = {c["position"] for c in star["laid"]}
    for position, card in enumerate(belief, start=1):
        if position not in taken_places and card not in taken_cards:
            return {"type": "lay", "card": card, "position": position}
    free_card = next(c for c in CARDS if c not in taken_cards)
    free_place = next(p for p in CARDS if p not in taken_places)
    return {"type": "lay", "card": free_card, "position": free_place}


def choose(state: State, player: str, rng: core.Rng) -> dict[str, Any]:
    if player not in current_players(state):
        raise IllegalAction(_("There is nothing for you to do right now."), code="not_your_turn")
    return _bot_action(state, player, rng)
