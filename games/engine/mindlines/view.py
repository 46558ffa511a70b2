"""What each Mind the Lines viewer sees. Deny by default: each part picks only what that viewer may see
now, and ``build_view`` returns a copy that shares nothing changeable with the state (the boards' dotted
lines are the cached tuples of ``boards.side_segments``, which nobody can change)."""

from __future__ import annotations

from typing import Any

from games.engine import core
from games.engine.core import State, Viewer

from . import boards
from .rules import BOARD_COUNT, ROUNDS, concepts_per_player, current_players, prophesier


def build_view(state: State, viewer: Viewer, public: dict[str, Any] | None = None) -> dict[str, Any]:
    """``viewer``'s view. ``public`` is what every viewer sees now (``public_part``), when the caller builds
    it once for many viewers; the view shares it, so nobody may change a view."""
    view = dict(public if public is not None else public_part(state))
    view.update(own_part(state, viewer))
    return view


def own_part(state: State, viewer: Viewer) -> dict[str, Any]:
    """What only this viewer sees, beside the public part: who they are to the screen, and a player's own
    concepts and board or the teacher's watch of every drawing (no key of the public part)."""
    role = viewer.get("role") if isinstance(viewer, dict) else None
    own: dict[str, Any] = {"viewer": role if role in ("teacher", "projector") else "spectator"}
    seat = viewer.get("player") if role == "player" else None
    if isinstance(seat, str) and seat in state["players"]:
        own["viewer"] = "player"
        own["me"] = _own_view(state, seat)
    elif role == "teacher":
        own["teacher"] = core.clone(_teacher_view(state))
    return own


def public_part(state: State) -> dict[str, Any]:
    """What every viewer sees now, as a fresh copy: the parts share lists with the state, and one copy of
    the whole is much cheaper than copying each part (the views of a table's devices share this one)."""
    return core.clone(_public_view(state))


def _revealed(state: State) -> bool:
    """Is the current round's reveal public (reveal phase, or the game ended at a reveal)?"""
    return state["phase"] in ("reveal", "over")


def _shown_drawing(state: State, player: str, with_hidden_strokes: bool) -> dict[str, Any]:
    drawing = state["drawings"][player]
    entry: dict[str, Any] = {
        "player": player,
        "board": drawing["board"],
        "side": drawing["side"],
        "shown": drawing["shown"],
        "hidden": drawing["hidden"],
    }
    if drawing["shown"]:
        entry["rotation"] = drawing["rotation"]
        entry["lines"] = _lines(state, drawing)
        visible = with_hidden_strokes or not drawing["hidden"]
        entry["strokes"] = drawing["strokes"] if visible else None
    return entry


def _cards_view(state: State) -> list[dict[str, Any]]:
    if _revealed(state):
        return state["history"][-1]["cards"]
    excluded_by = {entry["card"]: entry["player"] for entry in state["excluded"]}
    return [
        {"card": card, "text": state["concepts"][cid]["text"], "excluded_by": excluded_by.get(card)}
        for card, cid in enumerate(state["cards"])
    ]


def _public_view(state: State) -> dict[str, Any]:
    phase = state["phase"]
    players = state["players"]
    view: dict[str, Any] = {
        "game": "mindlines",
        "phase": phase,
        "round": state["round"] + 1,
        "rounds": ROUNDS,
        "difficulty": state["difficulty"],
        "players": [
            {
                "id": player,
                "seat": seat,
                "name": state.get("names", {}).get(player, player),
                "bot": player in state["bots"],
            }
            for seat, player in enumerate(players)
        ],
        "concepts_each": concepts_per_player(len(players)),
        "timers": dict(state["timers"]),
        "errors": state["errors"],
        "error_limit": len(players),
        "clock": core.clock_view(state),
        "turn": prophesier(state) if phase == "prophesying" else None,
        "waiting_for": current_players(state),
        "ready": list(state["ready"]),
        "gallery": [_shown_drawing(state, player, with_hidden_strokes=False) for player in players],
        # every finished round, the current one included once revealed (the reveal screen shows [-1])
        "history": state["history"],
        "log": state["log"],
        "result": state["result"],
    }
    if phase in ("prophesying", "reveal", "over"):
        view["prophecy"] = {
            "first_prophesier": state["first_prophesier"],
            "turn_order": list(state["turn_order"]),
            "turns_taken": state["turn"],
            "cards": _cards_view(state),
            "exclusions": [{"player": entry["player"], "card": entry["card"]} for entry in state["excluded"]],
        }
    return view


def _lines(state: State, drawing: dict[str, Any], side: int | None = None) -> tuple:
    side = drawing["side"] if side is None else side
    return boards.side_segments(state["board_seed"], BOARD_COUNT, drawing["board"], side)


def _own_view(state: State, player: str) -> dict[str, Any]:
    """The player's own part, a copy: only what it takes from the state is copied (its concepts and
    strokes), not the dotted lines of its board's two sides, the bulk of it (see ``_lines``)."""
    drawing = state["drawings"][player]
    concepts = [state["concepts"][cid] for cid in state["hands"][player]]
    taken = core.clone({"concepts": concepts, "strokes": drawing["strokes"]})
    own = {
        "player": player,
        "seat": state["players"].index(player),
        "concepts": taken["concepts"],
        "drawing": {
            "board": drawing["board"],
            "side": drawing["side"],
            "rotation": drawing["rotation"],
            "strokes": taken["strokes"],
            "shown": drawing["shown"],
            "hidden": drawing["hidden"],
            "can_undo": bool(drawing["undo"]),
            "sides": [_lines(state, drawing, side) for side in (0, 1)],
        },
        "ready": player in state["ready"],
        "continued": player in state["continued"],
        "my_turn": state["phase"] == "prophesying" and prophesier(state) == player,
    }
    if state["phase"] in ("prophesying", "reveal", "over"):
        own["cards"] = [card for card, cid in enumerate(state["cards"]) if cid in state["hands"][player]]
    return own


def _teacher_view(state: State) -> dict[str, Any]:
    """The teacher watches drawings as they grow (to catch letters and numbers) and sees hidden ones,
    but never a concept before the reveal: not the players' own, not which cards are decoys."""
    drawings = {}
    for player in state["players"]:
        drawing = state["drawings"][player]
        drawings[player] = {
            **_shown_drawing(state, player, with_hidden_strokes=True),
            "rotation": drawing["rotation"],
            "lines": _lines(state, drawing),
            "strokes": drawing["strokes"],
        }
    return {"drawings": drawings, "bots": sorted(state["bots"])}
