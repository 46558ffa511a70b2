"""Seating a latecomer at a game that has already begun (a pure rule, replayed from the log).

A team game takes the latecomer into the team with fewer students; an engine may define its own
``join(state, info, now)``. Games where a newcomer cannot sit down mid-game (a Guess Who pair, a card
table) get a new table from the runtime instead, so they need nothing here.
"""

from __future__ import annotations

from typing import Any

from .core import Game, IllegalAction, State, clone


def can_join(game: Game) -> bool:
    return hasattr(game, "join") or game.name == "lineup"


def join(game: Game, state: State, info: dict[str, Any], now: float) -> tuple[State, list[dict]]:
    if hasattr(game, "join"):
        return game.join(state, info, now)
    if game.name == "lineup":
        return _join_team(state, info, now)
    raise IllegalAction("This game cannot seat a latecomer.", code="no_join")


def _join_team(state: State, info: dict[str, Any], now: float) -> tuple[State, list[dict]]:
    player = info["id"]
    if player in state["players"]:
        return state, []
    new = clone(state)

    def humans(team: str) -> int:
        return sum(1 for p in new["teams"][team]["members"] if not new["players"][p].get("bot"))

    team = min(new["teams"], key=lambda t: (humans(t), len(new["teams"][t]["members"]), t))
    new["players"][player] = {"name": str(info.get("name") or player), "team": team, "bot": None}
    new["teams"][team]["members"].append(player)
    return new, [{"type": "joined", "player": player, "team": team, "at": now}]
