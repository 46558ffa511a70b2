"""What each viewer may see. Deny by default: every view is built fresh from named fields.

Before a round ends nobody's view depends on a player's secret face except that player's own (the
tests check this by swapping the secret and comparing views). The seed and salt appear only once the
match is over; the projector and spectators never see a face at all.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .. import core
from ..core import State, Viewer
from .features import DEFAULT_BOARD, pad_of, refusal_of
from .rules import match_scores

PUBLIC_LOG_TYPES = ("round_started", "round_over", "match_over", "resigned", "timeout")
LOG_SHOWN = 20


def view_of(state: State, viewer: Viewer) -> dict[str, Any]:
    player = _seat(state, viewer)
    if player is not None:
        return {**_players_part(state), **_own_part(state, player)}
    if isinstance(viewer, dict) and viewer.get("role") == "teacher":
        return _teacher_view(state)
    return _public_view(state)


def _seat(state: State, viewer: Viewer) -> str | None:
    """The match's player this viewer is, or None (staff, spectators, anyone not seated here)."""
    if (
        isinstance(viewer, dict)
        and viewer.get("role") == "player"
        and viewer.get("player") in state["players"]
    ):
        return viewer["player"]
    return None


def parts_of(
    state: State, viewers: list[Viewer]
) -> Iterator[tuple[str | None, dict[str, Any], dict[str, Any]]]:
    """``view_of`` for each viewer in two parts (``Engine.view_parts``): both players share what a
    player sees of the match (the board's 24 faces, most of a view's bytes, the rounds, the log), built
    once; each player's own part holds their face, their pad and their questions."""
    shared: dict[str, Any] | None = None
    for viewer in viewers:
        player = _seat(state, viewer)
        if player is None:
            yield None, {}, view_of(state, viewer)
            continue
        if shared is None:
            shared = _players_part(state)
        yield "player", shared, _own_part(state, player)


def _base(state: State) -> dict[str, Any]:
    result = state["result"]
    return {
        "game": "faces",
        "title": "Line-Up",
        "phase": state["phase"],
        "round": state["round"] + 1,
        "rounds_to_win": state["settings"]["rounds_to_win"],
        "board_kind": state["settings"].get("board", DEFAULT_BOARD),  # people or monsters
        # The rules of this match everyone may know (the screens say what running out of time costs).
        "turn_seconds": state["settings"]["turn_seconds"],
        "timeout": state["settings"]["timeout"],
        "review_seconds": state["settings"]["review_seconds"],
        "turn": state["turn"],
        "players": [
            {"id": pid, "name": state["names"][pid], "bot": state["bots"][pid]} for pid in state["players"]
        ],
        "wins": dict(state["wins"]),
        "ready": list(state["ready"]),
        "result": None
        if result is None
        else {
            "winner": result["winner"],
            "reason": result["reason"],
            "scores": match_scores(state),
            "conceded": result.get("conceded", 0),
        },
        "clock": core.clock_view(state),
    }


def _public_view(state: State) -> dict[str, Any]:
    """Projector and spectators: the class-table line of this match, never a face."""
    view = _base(state)
    view["rounds"] = [
        {"round": record["round"], "winner": record["winner"], "reason": record["reason"]}
        for record in state["history"]
    ]
    view["log"] = [
        {key: value for key, value in entry.items() if key != "faces"}
        for entry in state["log"]
        if entry["type"] in PUBLIC_LOG_TYPES
    ][-LOG_SHOWN:]
    return view


def _teacher_view(state: State) -> dict[str, Any]:
    view = _base(state)
    view["faces_left"] = {pid: len(state["left"][pid]) for pid in state["players"]}
    view["asked"] = {pid: [dict(entry) for entry in state["asked"][pid]] for pid in state["players"]}
    view["rounds"] = _history(state)
    view["log"] = _log(state)
    view["verification"] = _verification(state)
    view["unfinished_round_faces"] = _unfinished(state)
    return view


def _players_part(state: State) -> dict[str, Any]:
    """What both players see alike: the match, this round's board, the finished rounds and the log."""
    board = state["rounds"][state["round"]]["board"]
    view = _base(state)
    view.update(
        board=[_public_face(face) for face in board],
        rounds=_history(state),
        log=_log(state),
        verification=_verification(state),
        unfinished_round_faces=_unfinished(state),
    )
    return view


def _own_part(state: State, player: str) -> dict[str, Any]:
    """What only this player sees: their own face, both boards as they stand, their pad and questions."""
    other = next(pid for pid in state["players"] if pid != player)
    board = state["rounds"][state["round"]]["board"]
    own_secret = state["rounds"][state["round"]]["secret"][player]
    return {
        "you": player,
        "opponent": other,
        "your_turn": state["phase"] == "ask" and state["turn"] == player,
        "your_face": _public_face(next(face for face in board if face["id"] == own_secret)),
        "your_board": _board_state(board, state["left"][player]),
        "their_board": _board_state(board, state["left"][other]),
        "pad": _pad(state, player),
        "asked": {
            "you": [dict(entry) for entry in state["asked"][player]],
            "them": [
                {key: entry[key] for key in ("question", "answer", "kept", "removed")}
                for entry in state["asked"][other]
            ],
        },
        "feedback": dict(state["asked"][player][-1]) if state["asked"][player] else None,
    }


def _public_face(face: dict[str, Any]) -> dict[str, Any]:
    public = {
        "id": face["id"],
        "name": face["name"],
        "features": list(face["features"]),
        "look": dict(face["look"]),
        "description": face["description"],
    }
    if "kind" in face:  # which artist draws it (people faces have none)
        public["kind"] = face["kind"]
    return public


def _board_state(board: list[dict[str, Any]], left: list[str]) -> dict[str, Any]:
    up = set(left)
    return {
        "left": [face["id"] for face in board if face["id"] in up],
        "greyed": [face["id"] for face in board if face["id"] not in up],
        "left_count": len(up),
    }


def _pad(state: State, player: str) -> list[dict[str, Any]]:
    asking = state["phase"] == "ask"
    pad = []
    for feature in pad_of(state).features:
        refusal = refusal_of(state, player, feature.key) if asking else None
        pad.append(
            {
                "id": feature.key,
                "label": feature.label,
                "question": feature.question,
                "allowed": asking and refusal is None,
                "refusal": None if refusal is None else refusal.code,
            }
        )
    return pad


def _history(state: State) -> list[dict[str, Any]]:
    """Finished rounds, with both faces (shown at the end of every round)."""
    records = []
    for record in state["history"]:
        board = state["rounds"][record["round"] - 1]["board"]
        faces = {
            pid: _public_face(next(face for face in board if face["id"] == face_id))
            for pid, face_id in record["faces"].items()
        }
        records.append({**record, "faces": faces, "questions": dict(record["questions"])})
    return records


def _unfinished(state: State) -> dict[str, Any] | None:
    result = state["result"]
    if result is None or not result["unfinished_round_faces"]:
        return None
    board = state["rounds"][state["round"]]["board"]
    return {
        pid: _public_face(next(face for face in board if face["id"] == face_id))
        for pid, face_id in result["unfinished_round_faces"].items()
    }


def _log(state: State) -> list[dict[str, Any]]:
    return core.clone(state["log"][-LOG_SHOWN:])


def _verification(state: State) -> dict[str, Any]:
    """The commitment from the start; the seed and salt only once the match is over."""
    verification: dict[str, Any] = {"commitment": state["commitment"]}
    if state["phase"] == "over":
        verification.update(seed=state["rng"]["seed"], salt=state["salt"])
    return verification
