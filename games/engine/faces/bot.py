"""Computer players. Each takes the bot's own generator (never the game's), so replay never re-asks them.

* easy: a random allowed question; names a face when one is left, or by chance (probability 1/n).
* medium: the question nearest to halving the board; names a face when one is left, or gambles when
  the other player is down to one face (they would win on their next turn).
* hard: the optimal-play table (``strategy.choose``).
"""

from __future__ import annotations

from ..core import Action, IllegalAction, Rng, State, _
from . import strategy
from .features import question_splits


def choose_action(state: State, player: str, rng: Rng) -> Action:
    if state["phase"] == "reveal" and player in state["players"] and player not in state["ready"]:
        return {"type": "ready"}
    if state["phase"] != "ask" or state["turn"] != player:
        raise IllegalAction(_("It is not your turn yet."), code="not_your_turn")
    level = state["bots"].get(player) or "medium"
    left = state["left"][player]
    other_left = len(state["left"][_other(state, player)])
    splits = question_splits(state, player)
    if level == "easy":
        return _easy(left, splits, rng)
    if level == "hard":
        kind, question, _value = strategy.choose(len(left), other_left, splits)
        if kind == "name":
            return _name(left, rng)
        return {"type": "ask", "question": question}
    return _medium(left, other_left, splits, rng)


def _easy(left: list[str], splits: dict[str, int], rng: Rng) -> Action:
    if len(left) == 1 or not splits or rng.below(len(left)) == 0:
        return _name(left, rng)
    return {"type": "ask", "question": rng.choice(list(splits))}


def _medium(left: list[str], other_left: int, splits: dict[str, int], rng: Rng) -> Action:
    n = len(left)
    if n == 1 or other_left == 1 or not splits:
        return _name(left, rng)
    nearest = min(abs(2 * yes - n) for yes in splits.values())
    return {
        "type": "ask",
        "question": rng.choice([key for key, yes in splits.items() if abs(2 * yes - n) == nearest]),
    }


def _name(left: list[str], rng: Rng) -> Action:
    return {"type": "name", "face": rng.choice(left)}


def _other(state: State, player: str) -> str:
    return next(pid for pid in state["players"] if pid != player)
