"""Line-Up (game name ``faces``): the seeded Guess Who game for two players, first to two rounds.

Everything random is drawn at setup from the seed: the salt, every round's board of 24 faces and both
secret faces of every round, and who asks first in round one. So the faces of a round exist before
its first question, and anyone holding the seed can recompute them (see :mod:`.verify`).

Vocabulary: ``state["rounds"][r]["secret"][p]`` is the face player ``p`` was given (the other player
tries to find it); ``state["left"][p]`` are the faces still up on ``p``'s board, i.e. ``p``'s
candidates for the other player's face.
"""

from __future__ import annotations

import hashlib
import marshal
from typing import Any

from .. import core
from ..core import TEACHER, Action, Event, IllegalAction, Rng, State, _
from .features import (
    BOARD_SIZE,
    DEFAULT_BOARD,
    PADS,
    allowed_questions,
    best_min_split,
    current_round,
    faces_left,
    generate_board,
    pad_of,
    refusal_of,
    split,
)

GAME = "faces"
BOT_LEVELS = ("easy", "medium", "hard")
TIMEOUT_RULES = ("lose_match", "lose_round", "pass")
ACTION_FIELDS: dict[str, frozenset[str]] = {
    "ask": frozenset({"type", "question"}),
    "name": frozenset({"type", "face"}),
    "resign": frozenset({"type"}),
    "ready": frozenset({"type"}),
}


def clone(state: State) -> State:
    """A deep copy, like ``core.clone`` but about six times faster: a state is plain dicts, lists, strings
    and numbers, which ``marshal`` copies exactly. deepcopy of the three boards was 80 % of a bot match.
    The rounds (the boards and the faces given, 27 of a state's 30 KB) are set up once and never written
    again: the copy shares them, as the runtime stores them once (``Faces.shared_keys``)."""
    rest = {key: value for key, value in state.items() if key != "rounds"}
    try:
        copied = marshal.loads(marshal.dumps(rest))
    except ValueError:  # something marshal cannot copy: never in a well-formed state, but stay safe
        copied = core.clone(rest)
    return {key: state[key] if key == "rounds" else copied[key] for key in state}


def commitment_of(seed: str, salt: str) -> str:
    """What both players see at the start: SHA-256 (hex) of the UTF-8 text ``salt + ":" + seed``.

    A student can recompute it, e.g. ``printf '%s:%s' "$SALT" "$SEED" | sha256sum``."""
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()


def draw_salt(rng: Rng) -> str:
    """64 hex digits: the first four draws of the game's generator."""
    return "".join(f"{rng.below(1 << 64):016x}" for _draw in range(4))


DEFAULT_CONFIG: dict[str, Any] = {
    "turn_seconds": 60,  # per-turn limit; None = no limit
    # What running out of time on a turn costs: pass (the turn goes to the other player; the default, so
    # a student whose tablet slept or whose connection dropped only loses turns), lose_round or
    # lose_match (the stricter rules a teacher may choose).
    "timeout": "pass",
    "review_seconds": 15,  # both faces stay on screen this long between rounds (None = until both tap)
    "rounds_to_win": 2,
}


# ----------------------------------------------------------------------------------------------
# The game: setup, who may act, moves, deadlines, results
# ----------------------------------------------------------------------------------------------


def new_state(config: dict[str, Any], seed: str, now: float = 0.0) -> State:
    settings = _settings(config)
    players = _players(config)
    ids = [player["id"] for player in players]
    rng = Rng(str(seed))
    given_salt = config.get("salt")
    salt = given_salt if isinstance(given_salt, str) else draw_salt(rng)
    rounds = []
    for _round in range(2 * settings["rounds_to_win"] - 1):
        board = generate_board(rng, settings.get("board", DEFAULT_BOARD))
        secret = {pid: board[rng.below(BOARD_SIZE)]["id"] for pid in ids}
        rounds.append({"board": board, "secret": secret})
    first = ids[rng.below(2)]
    state: State = {
        "game": GAME,
        "players": ids,
        "names": {player["id"]: str(player.get("name") or player["id"]) for player in players},
        "bots": {player["id"]: player.get("bot") for player in players},
        "settings": settings,
        "rng": rng.to_state(),
        "salt": salt,
        "commitment": commitment_of(str(seed), salt),
        "rounds": rounds,
        "first": first,
        "round": 0,
        "phase": "ask",
        "turn": first,
        "left": {},
        "asked": {},
        "wins": {pid: 0 for pid in ids},
        "history": [],
        "ready": [],
        "next_first": None,
        "log": [],
        "result": None,
        "match_started": now,
        "round_started": now,
        "turn_started": now,
        "clock": {"deadline": None, "remaining": None, "paused": False},
    }
    core.allowances_store(state, config)
    _start_round(state, 0, first, now)
    return state


def current_players(state: State) -> list[str]:
    if state["phase"] == "ask":
        return [state["turn"]]
    if state["phase"] == "reveal":
        return [pid for pid in state["players"] if pid not in state["ready"]]
    return []


def legal_moves(state: State, player: str) -> list[Action]:
    if state["phase"] == "over" or player not in state["players"]:
        return []
    actions: list[Action] = []
    if state["phase"] == "ask" and player == state["turn"]:
        actions += [{"type": "ask", "question": key} for key in allowed_questions(state, player)]
        actions += [{"type": "name", "face": face_id} for face_id in state["left"][player]]
    if state["phase"] == "reveal" and player not in state["ready"]:
        actions.append({"type": "ready"})
    actions.append({"type": "resign"})
    return actions


def apply_move(state: State, player: str, action: Action, now: float) -> tuple[State, list[Event]]:
    kind = _validate_shape(action)
    if not isinstance(player, str) or player not in state["players"]:
        raise IllegalAction(_("You are not playing at this table."), code="not_a_player")
    if state["phase"] == "over":
        raise IllegalAction(_("This match is over."), code="game_over")
    if kind == "resign":
        new = clone(state)
        events = [_event(new, "resigned", now, player=player)]
        _public(new, {"type": "resigned", "player": player})
        events += _end_match(new, _other(new, player), "resigned", now)
        return new, events
    if kind == "ready":
        return _ready(state, player, now)
    _check_turn(state, player, now)
    if kind == "ask":
        return _ask(state, player, action["question"], now)
    return _name(state, player, action["face"], now)


def _check_turn(state: State, player: str, now: float) -> None:
    if state["phase"] != "ask":
        raise IllegalAction(_("The round is over: wait for the next one."), code="wrong_phase")
    if player != state["turn"]:
        raise IllegalAction(_("It is not your turn yet."), code="not_your_turn")


def _ask(state: State, player: str, question: Any, now: float) -> tuple[State, list[Event]]:
    if not isinstance(question, str) or question not in pad_of(state).by_key:
        raise IllegalAction(_("That question is not on the pad."), code="unknown_question")
    refusal = refusal_of(state, player, question)
    if refusal is not None:
        raise refusal
    new = clone(state)
    left = faces_left(new, player)
    yes, no = split(left, question)
    best = best_min_split(new, player)
    secret = current_round(new)["secret"][_other(new, player)]
    answer = question in _face(new, secret)["features"]
    kept, removed = (yes, no) if answer else (no, yes)
    quality = round(min(len(yes), len(no)) / best, 4)
    entry = {
        "question": question,
        "answer": answer,
        "kept": len(kept),
        "removed": len(removed),
        "yes": len(yes),
        "no": len(no),
        "best": best,
        "quality": quality,
    }
    new["asked"][player].append(entry)
    new["left"][player] = kept
    event = _event(
        new,
        "asked",
        now,
        player=player,
        question=question,
        answer=answer,
        kept=len(kept),
        removed=len(removed),
        yes=len(yes),
        no=len(no),
        best=best,
        quality=quality,
        left_before=len(left),
        opponent_left=len(new["left"][_other(new, player)]),
        time_taken=now - new["turn_started"],
    )
    _public(
        new,
        {
            "type": "asked",
            "player": player,
            "question": question,
            "answer": answer,
            "kept": len(kept),
            "removed": len(removed),
        },
    )
    _pass_turn(new, now)
    return new, [event]


def _name(state: State, player: str, face_id: Any, now: float) -> tuple[State, list[Event]]:
    if not isinstance(face_id, str) or face_id not in state["left"][player]:
        raise IllegalAction(
            _("You can only name a face that is still up on your board."), code="not_on_board"
        )
    new = clone(state)
    correct = face_id == current_round(new)["secret"][_other(new, player)]
    face = _face(new, face_id)
    event = _event(
        new,
        "named",
        now,
        player=player,
        face=face_id,
        # The face as the student saw it, for the reports (a letter names a different face each board).
        face_name=face.get("name", face_id),
        description=face.get("description", ""),
        correct=correct,
        left=len(new["left"][player]),
        time_taken=now - new["turn_started"],
    )
    _public(new, {"type": "named", "player": player, "face": face_id, "correct": correct})
    winner = player if correct else _other(new, player)
    return new, [event, *_end_round(new, winner, "named_right" if correct else "named_wrong", now)]


def _ready(state: State, player: str, now: float) -> tuple[State, list[Event]]:
    if state["phase"] != "reveal":
        raise IllegalAction(_("There is nothing to be ready for yet."), code="wrong_phase")
    if player in state["ready"]:
        raise IllegalAction(_("You are already ready: waiting for the other player."), code="already_ready")
    new = clone(state)
    new["ready"].append(player)
    events = [_event(new, "ready", now, player=player)]
    if len(new["ready"]) == len(new["players"]):
        events += _next_round(new, now)
    return new, events


def deadline_move(state: State, now: float) -> tuple[State, list[Event]]:
    new = clone(state)
    if new["phase"] == "reveal":
        return new, _next_round(new, now)
    if new["phase"] != "ask":
        core.clock_stop(new)
        return new, []
    player = new["turn"]
    rule = new["settings"]["timeout"]
    events = [_event(new, "timeout", now, player=player, rule=rule)]
    _public(new, {"type": "timeout", "player": player, "rule": rule})
    if rule == "lose_match":
        events += _end_match(new, _other(new, player), "timeout", now)
    elif rule == "lose_round":
        events += _end_round(new, _other(new, player), "timeout", now)
    else:
        _pass_turn(new, now)
    return new, events


def outcome_of(state: State) -> dict[str, Any] | None:
    if state["result"] is None:
        return None
    return {
        "winners": [state["result"]["winner"]],
        "scores": match_scores(state),
        "reason": state["result"]["reason"],
    }


def outcome_when_ended(state: State) -> dict[str, Any] | None:
    """The result of a match the teacher ended early: the rounds won so far, and no winner (a finished
    match has its ``outcome``)."""
    if state["result"] is not None:
        return outcome_of(state)
    return {"winners": [], "scores": dict(state["wins"]), "reason": "ended"}


# ----------------------------------------------------------------------------------------------
# Settings and validation
# ----------------------------------------------------------------------------------------------


def _settings(config: dict[str, Any]) -> dict[str, Any]:
    settings = {key: config.get(key, default) for key, default in DEFAULT_CONFIG.items()}
    for key in ("turn_seconds", "review_seconds"):
        value = settings[key]
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0
        ):
            raise ValueError(f"{key} must be a positive number of seconds or None")
    if settings["timeout"] not in TIMEOUT_RULES:
        raise ValueError(f"timeout must be one of {', '.join(TIMEOUT_RULES)}")
    if settings["rounds_to_win"] not in (1, 2, 3) or isinstance(settings["rounds_to_win"], bool):
        raise ValueError("rounds_to_win must be 1, 2 or 3")
    # The board is kept only when the config names one, so a match set up before boards could be chosen
    # replays to exactly the state it had (no new key); such a match, like a config without one, is people.
    if "board" in config:
        if not isinstance(config["board"], str) or config["board"] not in PADS:
            raise ValueError(f"board must be one of {', '.join(PADS)}")
        settings["board"] = config["board"]
    return settings


def _players(config: dict[str, Any]) -> list[dict[str, Any]]:
    players = config.get("players")
    if not isinstance(players, list) or len(players) != 2:
        raise ValueError("Line-Up is played by exactly two players")
    for player in players:
        if not isinstance(player, dict) or not isinstance(player.get("id"), str) or not player["id"]:
            raise ValueError("every player needs a non-empty string id")
        if player["id"] == TEACHER:
            raise ValueError(f"{TEACHER!r} is the teacher's id, not a player's")
        if player.get("bot") not in (None, *BOT_LEVELS):
            raise ValueError(f"a bot level is one of {', '.join(BOT_LEVELS)}")
    if players[0]["id"] == players[1]["id"]:
        raise ValueError("the two players need different ids")
    return players


def _validate_shape(action: Any) -> str:
    if not isinstance(action, dict):
        raise IllegalAction(_("That move is not understood."), code="malformed")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in ACTION_FIELDS:
        raise IllegalAction(_("That move is not understood."), code="malformed")
    if set(action) != ACTION_FIELDS[kind]:
        raise IllegalAction(_("That move has missing or unexpected parts."), code="malformed")
    return kind


# ----------------------------------------------------------------------------------------------
# Flow
# ----------------------------------------------------------------------------------------------


def _face(state: State, face_id: str) -> dict[str, Any]:
    return next(face for face in current_round(state)["board"] if face["id"] == face_id)


def _other(state: State, player: str) -> str:
    return next(pid for pid in state["players"] if pid != player)


def _event(state: State, kind: str, now: float, **fields: Any) -> Event:
    return {
        "type": kind,
        "game": "faces",
        "round": state["round"] + 1,
        "at": now,
        "bots": sorted(pid for pid, level in state["bots"].items() if level),
        **fields,
    }


def _public(state: State, entry: dict[str, Any]) -> None:
    state["log"].append({"round": state["round"] + 1, **entry})


def _start_round(state: State, index: int, first: str, now: float) -> None:
    board_ids = [face["id"] for face in state["rounds"][index]["board"]]
    state.update(
        round=index,
        phase="ask",
        turn=first,
        left={pid: list(board_ids) for pid in state["players"]},
        asked={pid: [] for pid in state["players"]},
        ready=[],
        next_first=None,
        round_started=now,
        turn_started=now,
    )
    core.clock_start_for(state, now, state["settings"]["turn_seconds"], [first])
    _public(state, {"type": "round_started", "first": first})


def _pass_turn(state: State, now: float) -> None:
    state["turn"] = _other(state, state["turn"])
    state["turn_started"] = now
    core.clock_start_for(state, now, state["settings"]["turn_seconds"], [state["turn"]])


def _end_round(state: State, winner: str, reason: str, now: float) -> list[Event]:
    loser = _other(state, winner)
    state["wins"][winner] += 1
    faces = dict(current_round(state)["secret"])
    record = {
        "round": state["round"] + 1,
        "winner": winner,
        "reason": reason,
        "faces": faces,
        "questions": {pid: len(state["asked"][pid]) for pid in state["players"]},
    }
    state["history"].append(record)
    _public(state, {"type": "round_over", "winner": winner, "reason": reason, "faces": faces})
    events = [
        _event(
            state,
            "round_over",
            now,
            winner=winner,
            loser=loser,
            reason=reason,
            faces=faces,
            duration=now - state["round_started"],
            questions=record["questions"],
        )
    ]
    if state["wins"][winner] >= state["settings"]["rounds_to_win"]:
        return events + _end_match(state, winner, "rounds", now, round_finished=True)
    state.update(phase="reveal", turn=None, ready=[], next_first=loser)
    core.clock_start_for(state, now, state["settings"]["review_seconds"], state["players"])
    return events


def _next_round(state: State, now: float) -> list[Event]:
    first = state["next_first"]
    _start_round(state, state["round"] + 1, first, now)
    return [_event(state, "round_started", now, first=first)]


def match_scores(state: State) -> dict[str, int]:
    """The match's score line: rounds won, except that a player who resigns or runs out of time under the
    ``lose_match`` rule concedes the rounds the winner still needed (a walkover), so the winner always
    has the higher score ("won by Ava" never stands beside 0-0)."""
    result = state["result"]
    scores = dict(state["wins"])
    if result is not None:
        scores[result["winner"]] += result.get("conceded", 0)
    return scores


def _end_match(
    state: State, winner: str, reason: str, now: float, round_finished: bool = False
) -> list[Event]:
    """The match ends; the seed and salt become public. A round cut short by a resignation or a
    timeout is not scored, but its two faces are shown too. A match ended so gives the winner the rounds
    they still needed (``conceded``): rounds actually won stay in ``wins``."""
    unfinished = None
    if state["phase"] == "ask" and not round_finished:
        unfinished = dict(current_round(state)["secret"])
    conceded = max(0, state["settings"]["rounds_to_win"] - state["wins"][winner]) if not round_finished else 0
    state.update(phase="over", turn=None, ready=[])
    state["result"] = {
        "winner": winner,
        "loser": _other(state, winner),
        "reason": reason,
        "unfinished_round_faces": unfinished,
        "conceded": conceded,
    }
    core.clock_stop(state)
    _public(state, {"type": "match_over", "winner": winner, "reason": reason})
    return [
        _event(
            state,
            "match_over",
            now,
            winner=winner,
            loser=_other(state, winner),
            reason=reason,
            wins=dict(state["wins"]),
            scores=match_scores(state),
            conceded=conceded,
            duration=now - state["match_started"],
            seed=state["rng"]["seed"],
            salt=state["salt"],
            commitment=state["commitment"],
            unfinished_round_faces=unfinished,
        )
    ]
