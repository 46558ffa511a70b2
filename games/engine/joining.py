"""Seating a latecomer at a game that has already begun (a pure rule, replayed from the log).

Each engine says whether it seats latecomers (``Game.seats_latecomers``) and how (``Game.join``): a team
game takes the latecomer into a team. Games where a newcomer cannot sit down mid-game (a Guess Who pair, a
card table) keep the defaults and get a new table from the runtime instead.
"""

from __future__ import annotations

from typing import Any

from .core import Event, Game, State


def can_join(game: Game) -> bool:
    return game.seats_latecomers


def join(game: Game, state: State, info: dict[str, Any], now: float) -> tuple[State, list[Event]]:
    return game.join(state, info, now)
