"""Word Up's computer players: each answers right with its accuracy (the player's ``bot`` setting) and
otherwise plays for the colours it still needs."""

from __future__ import annotations

from typing import Any

from games.engine.core import Action, Rng, State, _

from . import board as B
from .checking import check_typed
from .rules import (
    ANSWER,
    CARD,
    CATEGORIES,
    CHOOSE,
    DEFAULT_BOT_ACCURACY,
    DISCARD,
    MAX_ANSWER_CHARS,
    ROLL,
    current_players,
    deficit,
    exchanges,
    illegal,
    least_needed_tokens,
    neediest,
)


def choose(state: State, player: str, rng: Rng) -> Action:
    if player not in current_players(state):
        raise illegal(_("It is not your turn."), "not_your_turn")
    accuracy = state["players"][player]["bot"]
    accuracy = DEFAULT_BOT_ACCURACY if accuracy is None else accuracy
    phase = state["phase"]
    if phase == ROLL:
        return {"type": "roll"}
    if phase == CHOOSE:
        return {
            "type": "choose",
            "category": _bot_pick(state, player, state["pending"]["options"], rng),
        }
    if phase == ANSWER:
        return _bot_answer(state["question"], rng.random() < accuracy)
    if phase == CARD:
        return _bot_card(state, player, accuracy)
    if phase == DISCARD:
        return {"type": "discard", "categories": least_needed_tokens(state, player, 2)}
    return {"type": "take", "categories": neediest(state, player, CATEGORIES)[:2]}


def _bot_pick(state: State, player: str, options: list[str], rng: Rng) -> str:
    ranked = neediest(state, player, options)
    best = [c for c in ranked if deficit(state, player, c) == deficit(state, player, ranked[0])]
    return rng.choice(best)


def _bot_answer(question: dict[str, Any], right: bool) -> Action:
    if question["category"] == B.MULTIPLE_CHOICE:
        wrong = [i for i in range(len(question["choices"])) if i not in question["right"]]
        return {"type": "answer", "choice": question["right"][0] if right or not wrong else wrong[0]}
    word = question["data"]["answers"][0].strip()[:MAX_ANSWER_CHARS]
    if right:
        return {"type": "answer", "answer": word}
    for guess in (word[:-1], word + "e", ""):  # a near miss, as a learner would make
        if not check_typed(question["data"], guess):
            return {"type": "answer", "answer": guess}
    return {"type": "answer", "answer": ""}


def _bot_card(state: State, player: str, accuracy: float) -> Action:
    card = B.CARDS[state["pending"]["card"]]
    if card["kind"] == B.FREE_OR_ANSWER:
        needed = deficit(state, player, card["category"]) > 0
        return {"type": "card", "choice": "answer" if accuracy >= 0.5 or not needed else "take"}
    if card["kind"] == B.EXCHANGE:
        deals = [
            (other, give, take)
            for other, give, take in exchanges(state, player)
            if deficit(state, player, take) > 0
            and state["tokens"][player][give] > state["settings"]["target"]
        ]
        if not deals:
            return {"type": "card", "choice": "roll"}
        other, give, take = max(deals, key=lambda deal: sum(state["tokens"][deal[0]].values()))
        return {"type": "card", "choice": "exchange", "with": other, "give": give, "take": take}
    spare = [c for c in CATEGORIES if state["tokens"][player][c] > state["settings"]["target"]]
    if spare:
        return {"type": "card", "choice": "lose", "category": spare[0]}
    return {"type": "card", "choice": "stop"}
