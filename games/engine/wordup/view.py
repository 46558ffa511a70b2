"""What each Word Up viewer sees: the board, tokens and the question being answered (never its answer),
plus the viewer's own level and moves; the teacher also sees levels, bots and question sheets."""

from __future__ import annotations

from typing import Any

from games.engine.core import TEACHER, State, Viewer, clock_view

from . import board as B
from .questions import LEVEL_NAMES
from .rules import (
    CARD,
    CATEGORIES,
    CHOOSE,
    DISCARD,
    FREE,
    GAME,
    REVEAL,
    copy_data,
    current_players,
    legal_moves,
    outcome_of,
    public_question,
)


def build_view(state: State, viewer: Viewer, public: dict[str, Any] | None = None) -> dict[str, Any]:
    """``viewer``'s view; ``public``: the state's :func:`public_view`, if made already (``WordUp.views``)."""
    view = dict(public) if public is not None else public_view(state)
    view.update(own_part(state, viewer))
    return view


def own_part(state: State, viewer: Viewer) -> dict[str, Any]:
    """What only this viewer sees beside the public view: who they are to the screen and the moves open
    to them; a player's level; the teacher's levels, computer players and question sheets."""
    role = viewer.get("role") if isinstance(viewer, dict) else None
    player = viewer.get("player") if isinstance(viewer, dict) else None
    if role == "teacher":
        return {
            "viewer": "teacher",
            "levels": {pid: state["players"][pid]["level"] for pid in state["seating"]},
            "bots": {pid: state["players"][pid]["bot"] for pid in state["seating"]},
            "sheets": {
                pid: {"sheet": s["sheet"], "used": dict(s["used"])} for pid, s in state["sheets"].items()
            },
            "actions": legal_moves(state, TEACHER),
        }
    if role == "player" and isinstance(player, str) and player in state["players"]:
        level = state["players"][player]["level"]
        return {
            "viewer": "player",
            "you": {"id": player, "level": level, "level_name": LEVEL_NAMES[level]},
            "actions": legal_moves(state, player),
        }
    return {"viewer": "projector" if role == "projector" else "spectator"}


def public_view(state: State, *, shared: bool = False) -> dict[str, Any]:
    """What every viewer sees. ``shared``: made once for many viewers and serialised at once, it holds
    the state's own objects and the board itself rather than copies (copying them was a third of the
    cost of every view sent)."""
    copy = _same if shared else copy_data
    question = state["question"]
    target = state["settings"]["target"]
    return {
        "game": GAME,
        "phase": state["phase"],
        "turn": state["turn"],
        "current_players": current_players(state),
        "clock": clock_view(state),
        "board": copy(B.BOARD),
        "categories": [dict(B.CATEGORY_INFO[c], id=c) for c in CATEGORIES],
        "players": [
            {
                "id": pid,
                "name": state["players"][pid]["name"],
                "position": state["positions"][pid],
                "tokens": dict(state["tokens"][pid]),
                "total": sum(state["tokens"][pid].values()),
                "complete": [c for c in CATEGORIES if state["tokens"][pid][c] >= target],
                "is_bot": state["players"][pid]["bot"] is not None,
            }
            for pid in state["seating"]
        ],
        "target": target,
        "time_limit": state["settings"]["time_limit"],
        "first_player": state["first_player"],
        "deck_size": len(state["deck"]),
        "pending": _public_pending(state),
        "question": public_question(question) if question else None,
        "last_roll": copy(state["last_roll"]),
        "last_card": copy(state["last_card"]),
        "last_result": copy(state["last_result"]),
        "log": copy(state["log"]),
        "last_events": copy(state["log"][-5:]),
        "outcome": outcome_of(state),
    }


def _same(value: Any) -> Any:
    return value


def _public_pending(state: State) -> dict[str, Any]:
    phase, pending = state["phase"], state["pending"]
    if phase == CHOOSE:
        return {
            "chooser": state["turn"],
            "answerer": pending["answerer"],
            "options": list(pending["options"]),
            "reward": pending["reward"],
            "mode": pending["mode"],
            "source": pending["source"],
        }
    if phase == CARD:
        return {"card": B.public_card(pending["card"]), "choices": list(pending["choices"])}
    if phase == DISCARD:
        return {"lose": 2}
    if phase == FREE:
        return {"take": 2, "different_colours": True}
    if phase == REVEAL:
        return {"player": state["question"]["player"], "teacher_may_accept": True}
    return {}
