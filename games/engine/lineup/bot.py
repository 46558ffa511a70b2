"""Line Up!'s computer players, which play like a student of their level without reading the answer to
judge themselves.

**What a bot knows.** A student who knows the items well puts them nearly in order; one who does not
guesses. A bot simulates that skill: for each card of the question it has a *vagueness* (how far its sense
of that card's place may wander), drawn from a generator seeded by the game's seed, the question's serial,
its team and its level, so it never depends on the answer. Its ordering puts each card at its true place
plus noise of that card's size: the true place stands for what a student who knows the item knows, and it
is the only way the answer reaches a bot. Like a student, it gets a card it is vague about wrong more often.

**What a bot believes.** A prediction (orange) or a bid (pink, tie-break) comes from the bot's own doubt,
never from checking its ordering against the answer: it imagines a few answers it cannot tell apart, places
the cards with its vagueness on each, and counts how often it would reach 1, 2, 3 or 5 right. It calls the
value worth most by that belief, sometimes another (an easy bot is less sure of itself), and bids one higher
when its team is well behind. So a hard bot, which knows most items, calls high and usually makes it, but it
misses when the question holds an item it only thought it knew; an easy bot calls low and still misses
more. Changing only the hidden answer never changes what a bot calls (tested).
"""

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

# How far, on average, a bot's sense of a card's place wanders from the truth, and how sure it is of itself.
BOT_NOISE = {"easy": 4.0, "medium": 2.2, "hard": 1.0}
BOT_CONFIDENCE = {"easy": 0.4, "medium": 0.65, "hard": 0.85}
BOT_STAR_CARDS = {"easy": 1, "medium": 2, "hard": 3}
#: How many answers a bot imagines to judge how many it will get right.
IMAGINED_ANSWERS = 24


def _bot_level(state: State, player: str) -> str:
    return state["players"][player]["bot"] or "medium"


def _bot_rng(state: State, player: str, purpose: str) -> core.Rng:
    """A generator for this question, the bot's team and level: bots of one team and level share it, so a
    bot team's bid, prediction and answer agree."""
    team, level = team_of(state, player), _bot_level(state, player)
    return core.Rng(f"lineup-bot:{state['rng']['seed']}:{state['q']['serial']}:{team}:{level}:{purpose}")


def _vagueness(state: State, player: str) -> dict[int, float]:
    """How vague the bot is about each card's place in this question (half to one and a half
    times its level's noise), whatever the answer."""
    rng = _bot_rng(state, player, "knows")
    noise = BOT_NOISE[_bot_level(state, player)]
    return {card: noise * (0.5 + rng.random()) for card in CARDS}


def _placed(truth: list[int], vagueness: dict[int, float], rng: core.Rng) -> list[int]:
    """The cards ordered by where the bot thinks each goes: its place in ``truth``, give or take."""
    guess = {
        card: truth.index(card) + vagueness[card] * (rng.random() + rng.random() + rng.random() - 1.5)
        for card in CARDS
    }
    return sorted(CARDS, key=lambda card: guess[card])


def _belief(state: State, player: str, salt: str = "") -> list[int]:
    """The bot's ordering for the current question, stable within a question (see the module's note)."""
    return _placed(answer_of(state), _vagueness(state, player), _bot_rng(state, player, f"order{salt}"))


def _chances(state: State, player: str) -> dict[int, float]:
    """How likely the bot believes it is to get at least each die value right, from its vagueness alone:
    it imagines answers it cannot tell apart and how its ordering would fare against each."""
    rng = _bot_rng(state, player, "doubt")
    vagueness = _vagueness(state, player)
    rights = []
    for _imagining in range(IMAGINED_ANSWERS):
        imagined = rng.shuffled(CARDS)
        rights.append(right_count(_placed(imagined, vagueness, rng), imagined))
    return {v: sum(1 for r in rights if r >= v) / IMAGINED_ANSWERS for v in DIE_VALUES}


def _believed_best(state: State, player: str) -> int:
    """The value worth most by the bot's belief: a prediction earns it if made; a bid earns it if made and
    gives it to the other team if missed."""
    chances = _chances(state, player)
    missed_costs = state["phase"] == BID

    def worth(value: int) -> float:
        made = chances[value]
        return value * (made - (1 - made) * missed_costs)

    return max(DIE_VALUES, key=worth)


def _bot_value(state: State, player: str, rng: core.Rng) -> int:
    """A prediction or bid: what the bot believes it will get right, sometimes bolder when its team is
    behind. Nothing here reads the answer."""
    team = team_of(state, player)
    level = _bot_level(state, player)
    value = _believed_best(state, player)
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
