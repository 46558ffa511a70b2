"""Mind the Lines: a cooperative drawing game. Players draw secret concepts using only the dotted lines
of their scribble board, then take turns excluding the concepts they think nobody drew.

Phases of each of the four rounds:

* ``looking``: everyone reads their oracle concept(s) and presses ``ready`` (or a short timer runs out);
* ``scribbling``: the drawing timer runs; whoever is ``done`` shows their drawing; at the deadline every
  drawing is shown as it is;
* ``prophesying``: the drawn concepts and as many decoys lie face up; in turn each player excludes one
  (with 2 or 3 players, each draws two concepts and excludes two, alternately);
* ``reveal``: the remaining concepts are turned over; each remaining decoy is one error point. Then the
  boards pass clockwise and the next round starts.

The group wins if after four rounds it has at most as many error points as players. As soon as the
error points exceed the number of players the game is lost (it could not be won any more).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import core
from ..core import TEACHER, Action, Event, IllegalAction, Rng, State, _
from . import boards

GAME = "mindlines"
ROUNDS = 4
BOARD_COUNT = 8
MAX_STROKES = 40
MAX_PIECES_PER_STROKE = 64
MAX_HALVES_PER_DRAWING = 600
UNDO_DEPTH = 10
ROTATIONS = (0, 90, 180, 270)
DIFFICULTIES = ("easy", "hard")
LEVEL_OF_DIFFICULTY = {"easy": 2, "hard": 4}
DEFAULT_BOT_ACCURACY = 0.75
LOG_LENGTH = 30
MAX_ID_LENGTH = 100
MAX_TEXT_LENGTH = 200
MAX_NAME_LENGTH = 60
# (smallest, largest) seconds a teacher may set; None in the allowed-none set means "no timer".
TIMER_LIMITS = {
    "draw_seconds": (30, 1800),
    "look_seconds": (5, 600),
    "exclude_seconds": (10, 600),
    "reveal_seconds": (5, 600),
}
TIMERS_THAT_MAY_BE_OFF = {"look_seconds", "exclude_seconds", "reveal_seconds"}


def concepts_per_player(player_count: int) -> int:
    """With 2 or 3 players everyone draws two concepts on their board."""
    return 2 if player_count <= 3 else 1


def drawn_per_round(player_count: int) -> int:
    """Drawn concepts in a round; there are as many decoys, and as many exclusions."""
    return player_count * concepts_per_player(player_count)


def concepts_needed(player_count: int, rounds: int = ROUNDS) -> int:
    """Concepts for a whole game without repeats (drawn + decoys, every round)."""
    return 2 * drawn_per_round(player_count) * rounds


# --------------------------------------------------------------------------------------------------
# Config
# --------------------------------------------------------------------------------------------------


def _check_players(raw: Any) -> tuple[list[str], dict[str, float], dict[str, str]]:
    if not isinstance(raw, list) or not 2 <= len(raw) <= 8:
        raise ValueError("mindlines: config['players'] must list 2 to 8 players")
    ids: list[str] = []
    bots: dict[str, float] = {}
    names: dict[str, str] = {}
    for entry in raw:
        pid = entry.get("id") if isinstance(entry, dict) else None
        if not isinstance(pid, str) or not pid or len(pid) > MAX_ID_LENGTH or pid == TEACHER or pid in ids:
            raise ValueError(f"mindlines: bad or repeated player id {pid!r}")
        ids.append(pid)
        # the name the group's screens show (public: everyone at the table sees who is who)
        name = entry.get("name")
        names[pid] = name.strip()[:MAX_NAME_LENGTH] if isinstance(name, str) and name.strip() else pid
        bot = entry.get("bot")
        if bot is True:
            bots[pid] = DEFAULT_BOT_ACCURACY
        elif isinstance(bot, (int, float)) and not isinstance(bot, bool):
            if not 0 <= bot <= 1:
                raise ValueError(f"mindlines: bot accuracy of {pid!r} must be between 0 and 1")
            bots[pid] = float(bot)
    return ids, bots, names


def _check_concept(raw: Any) -> dict[str, str | None]:
    if not isinstance(raw, dict):
        raise ValueError("mindlines: every concept must be a dict")
    cid, text = raw.get("id"), raw.get("text")
    difficulty, theme = raw.get("difficulty"), raw.get("theme", "")
    if not isinstance(cid, str) or not cid or len(cid) > MAX_ID_LENGTH:
        raise ValueError(f"mindlines: bad concept id {cid!r}")
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT_LENGTH:
        raise ValueError(f"mindlines: bad text for concept {cid!r}")
    if difficulty is not None and difficulty not in DIFFICULTIES:
        raise ValueError(f"mindlines: concept {cid!r} has difficulty {difficulty!r}")
    if theme is None:
        theme = ""
    if not isinstance(theme, str) or len(theme) > MAX_TEXT_LENGTH:
        raise ValueError(f"mindlines: bad theme for concept {cid!r}")
    return {"id": cid, "text": text, "difficulty": difficulty, "theme": theme}


def _concept_pool(
    raw: Any, difficulty: str, per_round: int, per_game: int, rng: Rng
) -> list[dict[str, str | None]]:
    """The concepts a game draws from: those of the session's difficulty (untagged ones fit any). If they
    cannot fill a whole game without repeats, concepts of the other difficulty join (as many as the game
    still needs, chosen at random), so a teacher's short list is played in full before anything repeats.
    Concepts repeat across rounds only when even that is too few (see ``_plan_concepts``)."""
    if not isinstance(raw, list):
        raise ValueError("mindlines: config['concepts'] must be a list")
    concepts = [_check_concept(entry) for entry in raw]
    if len({concept["id"] for concept in concepts}) != len(concepts):
        raise ValueError("mindlines: concept ids must be unique")
    pool = [concept for concept in concepts if concept["difficulty"] in (None, difficulty)]
    if len(pool) < per_game:
        others = [concept for concept in concepts if concept["difficulty"] not in (None, difficulty)]
        pool += rng.sample(others, min(len(others), per_game - len(pool)))
    if len(pool) < per_round:
        raise ValueError(f"mindlines: at least {per_round} concepts are needed for this group")
    return pool


def _check_timers(config: dict[str, Any]) -> dict[str, float | None]:
    timers: dict[str, float | None] = {}
    for key, (low, high) in TIMER_LIMITS.items():
        value = config.get(key, DEFAULT_CONFIG[key])
        if value is None and key in TIMERS_THAT_MAY_BE_OFF:
            timers[key] = None
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
            raise ValueError(f"mindlines: {key} must be a number of seconds from {low} to {high}")
        timers[key] = value
    return timers


# --------------------------------------------------------------------------------------------------
# Action validation helpers
# --------------------------------------------------------------------------------------------------


def _refuse(message: str, code: str, **params: Any) -> IllegalAction:
    return IllegalAction(message, code=code, **params)


def _expect_keys(action: Action, *keys: str) -> None:
    if set(action) != {"type", *keys}:
        raise _refuse(_("That move is not filled in correctly."), "bad_action")


def _whole_number(value: Any, allowed: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
        raise _refuse(_("That choice is not possible."), "bad_value")
    return value


def _in_phase(state: State, *phases: str) -> None:
    if state["phase"] not in phases:
        raise _refuse(_("You can't do that right now."), "wrong_phase")


DEFAULT_CONFIG: dict[str, Any] = {
    "difficulty": "easy",
    "draw_seconds": 120,
    "look_seconds": 30,
    "exclude_seconds": 60,
    "reveal_seconds": 30,
}


# --------------------------------------------------------------------------------------------------
# The game: setup, who may act, moves, deadlines, the result
# --------------------------------------------------------------------------------------------------


def new_state(config: dict[str, Any], seed: str, now: float = 0.0) -> State:
    players, bots, names = _check_players(config.get("players"))
    difficulty = config.get("difficulty", DEFAULT_CONFIG["difficulty"])
    if difficulty not in DIFFICULTIES:
        raise ValueError("mindlines: difficulty must be 'easy' or 'hard'")
    per_round = 2 * drawn_per_round(len(players))
    rng = Rng(seed)
    pool = _concept_pool(config.get("concepts"), difficulty, per_round, per_round * ROUNDS, rng)
    plan = _plan_concepts(pool, rng, per_round)
    used = {cid for round_ids in plan for cid in round_ids}
    state: State = {
        "rng": None,
        "clock": None,
        "players": players,
        "bots": bots,
        "names": names,
        "difficulty": difficulty,
        "timers": _check_timers(config),
        # only the concepts this game will use: drawn and decoys of every round, decided now
        "concepts": {concept["id"]: concept for concept in pool if concept["id"] in used},
        "plan": plan,
        # boards are public and regenerated from this value (see boards.board_sides)
        "board_seed": f"{rng.below(1 << 62):016x}",
        "round": 0,
        "phase": "looking",
        "errors": 0,
        "history": [],
        "log": [],
        "result": None,
        "first_prophesier": None,
    }
    core.clock_stop(state)
    core.allowances_store(state, config)
    _start_round(state, rng, now)
    core.rng_store(state, rng)
    return state


def legal_moves(state: State, player: str) -> list[Action]:
    if player == TEACHER:
        return _teacher_actions(state)
    if player not in state["players"]:
        return []
    phase = state["phase"]
    if phase == "looking":
        actions = _setup_drawing_actions(state, player)
        return actions + ([{"type": "ready"}] if player not in state["ready"] else [])
    if phase == "scribbling":
        return _drawing_actions(state, player)
    if phase == "prophesying" and player == prophesier(state):
        mine = set(state["hands"][player])
        return [
            {"type": "exclude", "card": card}
            for card in open_cards(state)
            if state["cards"][card] not in mine
        ]
    if phase == "reveal" and player not in state["continued"]:
        return [{"type": "continue"}]
    return []


def apply_move(state: State, player: str, action: Action, now: float) -> tuple[State, list[Event]]:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise _refuse(_("That move is not filled in correctly."), "bad_action")
    if player == TEACHER:
        handler = TEACHER_MOVES.get(action["type"])
    elif isinstance(player, str) and player in state["players"]:
        handler = PLAYER_MOVES.get(action["type"])
    else:
        raise _refuse(_("You are not playing in this group."), "not_a_player")
    if handler is None:
        raise _refuse(_("That is not a move in this game."), "unknown_action")
    if state["phase"] == "over":
        raise _refuse(_("The game is over."), "game_over")
    new_state = core.clone(state)
    events = handler(new_state, player, action, float(now))
    _remember(new_state, events)
    return new_state, events


def deadline_move(state: State, now: float) -> tuple[State, list[Event]]:
    phase = state["phase"]
    if phase == "over":
        return state, []
    new_state = core.clone(state)
    now = float(now)
    if phase == "looking":
        events = _start_scribbling(new_state, now)
    elif phase == "scribbling":
        events = _show_all(new_state, now)
    elif phase == "prophesying":
        events = _exclude_for_latecomer(new_state, now)
    else:
        events = _next_round(new_state, now)
    _remember(new_state, events)
    return new_state, events


def outcome_of(state: State) -> dict[str, Any] | None:
    return core.clone(state["result"]) if state["phase"] == "over" else None


def outcome_when_ended(state: State) -> dict[str, Any]:
    """The outcome so far, for a game the teacher ends before it is over (the results page's scores
    at that moment): each player's concepts recognised in the rounds revealed, the group's error
    points, no winners (a game stopped half-way is neither won nor lost)."""
    if state["phase"] == "over":
        return core.clone(state["result"])
    return {**_standing(state), "winners": [], "ended_by_teacher": True}


# --------------------------------------------------------------------------------------------------
# Rounds and phases
# --------------------------------------------------------------------------------------------------


def current_players(state: State) -> list[str]:
    phase, players = state["phase"], state["players"]
    if phase == "looking":
        return [p for p in players if p not in state["ready"]]
    if phase == "scribbling":
        return [p for p in players if not state["drawings"][p]["shown"]]
    if phase == "prophesying":
        return [prophesier(state)]
    if phase == "reveal":
        return [p for p in players if p not in state["continued"]]
    return []


def _remember(state: State, events: list[Event]) -> None:
    """Keep the last few public happenings for the screens (every event is public when emitted; the
    reveal's details live in ``history``, so the log keeps only its headline)."""
    headlines = [
        {key: event[key] for key in ("type", "round", "errors", "total_errors", "at")}
        if event["type"] == "reveal"
        else event
        for event in events
    ]
    state["log"] = (state["log"] + headlines)[-LOG_LENGTH:]


def _plan_concepts(pool: list[dict[str, Any]], rng: Rng, per_round: int) -> list[list[str]]:
    """The concepts of every round (``per_round`` different ones each: drawn first, then decoys).
    No concept comes twice in a game unless the pool is too small; then used ones refill it."""
    ids = [concept["id"] for concept in pool]
    used: set[str] = set()
    plan = []
    for _round in range(ROUNDS):
        fresh = [cid for cid in ids if cid not in used]
        chosen = rng.sample(fresh, min(per_round, len(fresh)))
        if len(chosen) < per_round:
            spare = [cid for cid in ids if cid not in chosen]
            chosen += rng.sample(spare, per_round - len(chosen))
        used.update(chosen)
        # shuffled again so that a recycled concept is as likely to be drawn as to be a decoy
        plan.append(rng.shuffled(chosen))
    return plan


def _start_round(state: State, rng: Rng, now: float) -> None:
    players = state["players"]
    count = len(players)
    each = concepts_per_player(count)
    drawn = drawn_per_round(count)
    chosen = state["plan"][state["round"]]
    state["hands"] = {player: chosen[seat * each : (seat + 1) * each] for seat, player in enumerate(players)}
    state["decoys"] = chosen[drawn:]
    state["cards"] = rng.shuffled(chosen)
    state["drawings"] = {
        player: _blank_drawing((seat - state["round"]) % count) for seat, player in enumerate(players)
    }
    state.update(
        phase="looking",
        ready=[],
        shown_order=[],
        continued=[],
        excluded=[],
        turn_order=[],
        turn=0,
        phase_started_at=now,
        scribble_started_at=None,
    )
    core.clock_start_for(state, now, state["timers"]["look_seconds"], state["players"])


def _blank_drawing(board: int) -> dict[str, Any]:
    """Boards travel clockwise: in round r the player in seat s holds the board seat s - r started with."""
    return {
        "board": board,
        "side": 0,
        "rotation": 0,
        "strokes": [],
        "undo": [],
        "shown": False,
        "shown_at": None,
        "timed_out": False,
        "hidden": False,
    }


def _start_scribbling(state: State, now: float) -> list[Event]:
    state["phase"] = "scribbling"
    state["phase_started_at"] = state["scribble_started_at"] = now
    # The drawing timer cannot be off: an untimed drawer gets the longest allowance.
    core.clock_start_for(state, now, state["timers"]["draw_seconds"], state["players"], may_be_untimed=False)
    return [{"type": "scribbling_started", "round": state["round"] + 1, "at": now}]


def _show_all(state: State, now: float) -> list[Event]:
    """The drawing timer ran out: every drawing still on the table is shown as it is."""
    late = [player for player in state["players"] if not state["drawings"][player]["shown"]]
    for player in late:
        drawing = state["drawings"][player]
        drawing.update(shown=True, shown_at=now, timed_out=True, undo=[])
    events: list[Event] = [{"type": "time_up", "round": state["round"] + 1, "shown": late, "at": now}]
    return events + _start_prophesying(state, now, late)


def _choose_first_prophesier(state: State, late: list[str]) -> str:
    """Round 1: the player who finished drawing last (the last to look at a drawing: their own). If
    several were still drawing at the deadline, the first of them in seat order. Later rounds: the
    next player clockwise from the previous round's first prophesier."""
    players = state["players"]
    if state["first_prophesier"] is not None:
        return players[(players.index(state["first_prophesier"]) + 1) % len(players)]
    if late:
        return late[0]
    return state["shown_order"][-1]


def _start_prophesying(state: State, now: float, late: list[str]) -> list[Event]:
    players = state["players"]
    first = _choose_first_prophesier(state, late)
    start = players.index(first)
    order = players[start:] + players[:start]
    state["first_prophesier"] = first
    state["turn_order"] = order * concepts_per_player(len(players))
    state["turn"] = 0
    state["phase"] = "prophesying"
    state["phase_started_at"] = now
    core.clock_start_for(state, now, state["timers"]["exclude_seconds"], [prophesier(state)])
    return [{"type": "prophesying_started", "round": state["round"] + 1, "first": first, "at": now}]


def prophesier(state: State) -> str:
    return state["turn_order"][state["turn"]]


def open_cards(state: State) -> list[int]:
    excluded = {entry["card"] for entry in state["excluded"]}
    return [card for card in range(len(state["cards"])) if card not in excluded]


def _exclude(state: State, player: str, card: int, now: float, timed_out: bool) -> list[Event]:
    entry = {"player": player, "card": card, "at": now, "since": state["phase_started_at"]}
    state["excluded"].append({**entry, "timed_out": timed_out})
    events: list[Event] = [
        {
            "type": "excluded",
            "round": state["round"] + 1,
            "player": player,
            "card": card,
            "text": state["concepts"][state["cards"][card]]["text"],
            "timed_out": timed_out,
            "at": now,
        }
    ]
    state["turn"] += 1
    if state["turn"] == len(state["turn_order"]):
        return events + _reveal(state, now)
    state["phase_started_at"] = now
    core.clock_start_for(state, now, state["timers"]["exclude_seconds"], [prophesier(state)])
    return events


def _exclude_for_latecomer(state: State, now: float) -> list[Event]:
    """The turn timer ran out: the game excludes a random card for the player (never their own)."""
    player = prophesier(state)
    mine = set(state["hands"][player])
    options = [card for card in open_cards(state) if state["cards"][card] not in mine]
    rng = core.rng_of(state)
    card = rng.choice(options)
    core.rng_store(state, rng)
    return _exclude(state, player, card, now, timed_out=True)


def _reveal(state: State, now: float) -> list[Event]:
    players = state["players"]
    owner = {cid: player for player in players for cid in state["hands"][player]}
    excluded_by = {entry["card"]: entry["player"] for entry in state["excluded"]}
    decoys = set(state["decoys"])
    cards = []
    for card, cid in enumerate(state["cards"]):
        concept = state["concepts"][cid]
        cards.append(
            {
                "card": card,
                "id": cid,
                "text": concept["text"],
                "theme": concept["theme"],
                "difficulty": concept["difficulty"],
                "decoy": cid in decoys,
                "drawn_by": owner.get(cid),
                "excluded_by": excluded_by.get(card),
            }
        )
    round_errors = sum(1 for card in cards if card["decoy"] and card["excluded_by"] is None)
    state["errors"] += round_errors
    summary = {
        "round": state["round"] + 1,
        "errors": round_errors,
        "total_errors": state["errors"],
        "first_prophesier": state["first_prophesier"],
        "cards": cards,
        "hands": {player: list(state["hands"][player]) for player in players},
        "drawings": {player: _drawing_summary(state, player) for player in players},
        "exclusions": [
            {
                "player": entry["player"],
                "card": entry["card"],
                "concept": state["cards"][entry["card"]],
                "decoy": state["cards"][entry["card"]] in decoys,
                "time_taken": entry["at"] - entry["since"],
                "timed_out": entry["timed_out"],
            }
            for entry in state["excluded"]
        ],
    }
    state["history"].append(summary)
    event = {"type": "reveal", "at": now, **core.clone(summary)}
    if state["errors"] > len(players) or state["round"] == ROUNDS - 1:
        return [event, _finish(state, now)]
    state["phase"] = "reveal"
    state["continued"] = []
    state["phase_started_at"] = now
    core.clock_start_for(state, now, state["timers"]["reveal_seconds"], state["players"])
    return [event]


def _drawing_summary(state: State, player: str) -> dict[str, Any]:
    drawing = state["drawings"][player]
    halves = sum(len(boards.halves_of_stored(stroke)) for stroke in drawing["strokes"])
    return {
        "board": drawing["board"],
        "side": drawing["side"],
        "rotation": drawing["rotation"],
        "strokes": len(drawing["strokes"]),
        "halves": halves,  # ink used, in half-segments
        "hidden": drawing["hidden"],
        "timed_out": drawing["timed_out"],
        "time_taken": drawing["shown_at"] - state["scribble_started_at"],
    }


def _standing(state: State) -> dict[str, Any]:
    """Error points and each player's recognised concepts over the rounds revealed so far."""
    players = state["players"]
    recognised = {player: 0 for player in players}
    for summary in state["history"]:
        for card in summary["cards"]:
            if card["drawn_by"] and card["excluded_by"] is None:
                recognised[card["drawn_by"]] += 1
    return {
        "errors": state["errors"],
        "error_limit": len(players),
        "rounds_played": len(state["history"]),
        "scores": recognised,
    }


def _finish(state: State, now: float) -> Event:
    players = state["players"]
    won = state["errors"] <= len(players)
    state["result"] = {
        "won": won,
        **_standing(state),
        "rounds_played": state["round"] + 1,
        "ended_early": state["round"] < ROUNDS - 1,
        "winners": list(players) if won else [],
    }
    state["phase"] = "over"
    core.clock_stop(state)
    return {"type": "game_over", "at": now, **core.clone(state["result"])}


def _next_round(state: State, now: float) -> list[Event]:
    state["round"] += 1
    rng = core.rng_of(state)
    _start_round(state, rng, now)
    core.rng_store(state, rng)
    return [{"type": "round_started", "round": state["round"] + 1, "at": now}]


# --------------------------------------------------------------------------------------------------
# Player moves
# --------------------------------------------------------------------------------------------------


def _move_ready(state: State, player: str, action: Action, now: float) -> list[Event]:
    _expect_keys(action)
    _in_phase(state, "looking")
    if player in state["ready"]:
        raise _refuse(_("You already said you know your concept."), "already_ready")
    state["ready"].append(player)
    events: list[Event] = [{"type": "ready", "player": player, "at": now}]
    if len(state["ready"]) == len(state["players"]):
        events += _start_scribbling(state, now)
    return events


def _open_drawing(state: State, player: str, *phases: str) -> dict[str, Any]:
    _in_phase(state, *phases)
    drawing = state["drawings"][player]
    if drawing["shown"]:
        raise _refuse(_("Your drawing is already shown: it can't change now."), "already_shown")
    return drawing


def lines_of(state: State, drawing: dict[str, Any]) -> list[list[int]]:
    return boards.side_lines(state["board_seed"], BOARD_COUNT, drawing["board"], drawing["side"])


def _line_set(state: State, drawing: dict[str, Any]) -> frozenset[boards.Segment]:
    return boards.side_set(state["board_seed"], BOARD_COUNT, drawing["board"], drawing["side"])


def _move_side(state: State, player: str, action: Action, now: float) -> list[Event]:
    _expect_keys(action, "side")
    side = _whole_number(action["side"], (0, 1))
    drawing = _open_drawing(state, player, "looking", "scribbling")
    if drawing["strokes"]:
        raise _refuse(_("Choose the side before you draw (clear the board first)."), "already_drawing")
    if side == drawing["side"]:
        raise _refuse(_("You are already on that side."), "same_side")
    drawing["side"] = side
    drawing["undo"] = []  # an undo could bring back strokes from the other side's lines
    return []


def _move_rotate(state: State, player: str, action: Action, now: float) -> list[Event]:
    _expect_keys(action, "rotation")
    rotation = _whole_number(action["rotation"], ROTATIONS)
    drawing = _open_drawing(state, player, "looking", "scribbling")
    if rotation == drawing["rotation"]:
        raise _refuse(_("That edge is already the bottom."), "same_rotation")
    drawing["rotation"] = rotation
    return []


def _push_undo(drawing: dict[str, Any], step: dict[str, Any]) -> None:
    drawing["undo"] = (drawing["undo"] + [step])[-UNDO_DEPTH:]


def _drawn_halves(drawing: dict[str, Any]) -> int:
    return sum(len(boards.halves_of_stored(stroke)) for stroke in drawing["strokes"])


def _move_stroke(state: State, player: str, action: Action, now: float) -> list[Event]:
    _expect_keys(action, "segments")
    drawing = _open_drawing(state, player, "scribbling")
    halves = boards.parse_pieces(action["segments"], MAX_PIECES_PER_STROKE)
    boards.check_on_lines(halves, _line_set(state, drawing))
    if len(drawing["strokes"]) >= MAX_STROKES:
        raise _refuse(_("Your board is full of strokes: erase some first."), "too_many_strokes")
    if _drawn_halves(drawing) + len(halves) > MAX_HALVES_PER_DRAWING:
        raise _refuse(_("Your board has all the ink it can take: erase some lines first."), "too_much_ink")
    drawing["strokes"].append(boards.pieces_of(halves))
    _push_undo(drawing, {"op": "add"})
    return []


def _move_erase(state: State, player: str, action: Action, now: float) -> list[Event]:
    drawing = _open_drawing(state, player, "scribbling")
    if "stroke" in action:
        _expect_keys(action, "stroke")
        index = _whole_number(action["stroke"], range(len(drawing["strokes"])))
        before = core.clone(drawing["strokes"])
        del drawing["strokes"][index]
    else:
        _expect_keys(action, "segments")
        rubbed = boards.parse_pieces(action["segments"], MAX_PIECES_PER_STROKE)
        before = core.clone(drawing["strokes"])
        remaining = [boards.halves_of_stored(stroke) - rubbed for stroke in drawing["strokes"]]
        drawing["strokes"] = [boards.pieces_of(halves) for halves in remaining if halves]
        if drawing["strokes"] == before:
            raise _refuse(_("There is nothing to erase there."), "nothing_to_erase")
    _push_undo(drawing, {"op": "restore", "strokes": before})
    return []


def _move_undo(state: State, player: str, action: Action, now: float) -> list[Event]:
    _expect_keys(action)
    drawing = _open_drawing(state, player, "scribbling")
    if not drawing["undo"]:
        raise _refuse(_("There is nothing to undo."), "nothing_to_undo")
    step = drawing["undo"].pop()
    if step["op"] == "add":
        drawing["strokes"].pop()
    else:
        drawing["strokes"] = step["strokes"]
    return []


def _move_clear(state: State, player: str, action: Action, now: float) -> list[Event]:
    _expect_keys(action)
    drawing = _open_drawing(state, player, "scribbling")
    if not drawing["strokes"]:
        raise _refuse(_("Your board is already empty."), "already_empty")
    _push_undo(drawing, {"op": "restore", "strokes": drawing["strokes"]})
    drawing["strokes"] = []
    return []


def _move_done(state: State, player: str, action: Action, now: float) -> list[Event]:
    _expect_keys(action)
    drawing = _open_drawing(state, player, "scribbling")
    drawing.update(shown=True, shown_at=now, undo=[])
    state["shown_order"].append(player)
    events: list[Event] = [{"type": "shown", "player": player, "at": now}]
    if all(state["drawings"][p]["shown"] for p in state["players"]):
        events += _start_prophesying(state, now, [])
    return events


def _move_exclude(state: State, player: str, action: Action, now: float) -> list[Event]:
    _expect_keys(action, "card")
    _in_phase(state, "prophesying")
    if player != prophesier(state):
        raise _refuse(_("Wait for your turn to exclude a concept."), "not_your_turn")
    card = _whole_number(action["card"], range(len(state["cards"])))
    if card not in open_cards(state):
        raise _refuse(_("That concept is already excluded."), "already_excluded")
    if state["cards"][card] in state["hands"][player]:
        raise _refuse(_("That is your own concept: somebody drew it, so keep it!"), "own_concept")
    return _exclude(state, player, card, now, timed_out=False)


def _move_continue(state: State, player: str, action: Action, now: float) -> list[Event]:
    _expect_keys(action)
    _in_phase(state, "reveal")
    if player in state["continued"]:
        raise _refuse(_("You are already waiting for the next round."), "already_continued")
    state["continued"].append(player)
    if len(state["continued"]) == len(state["players"]):
        return _next_round(state, now)
    return []


def _teacher_hide(state: State, player: str, action: Action, now: float, hidden: bool = True) -> list[Event]:
    """The teacher hides a drawing that breaks the no-letters-no-numbers rule (or shows it again)."""
    _expect_keys(action, "player")
    _in_phase(state, "scribbling", "prophesying")
    target = action["player"]
    if not isinstance(target, str) or target not in state["players"]:
        raise _refuse(_("That player is not in this group."), "unknown_player")
    drawing = state["drawings"][target]
    if drawing["hidden"] == hidden:
        raise _refuse(_("That drawing is already like that."), "no_change")
    drawing["hidden"] = hidden
    return [{"type": "hidden" if hidden else "unhidden", "player": target, "at": now}]


def _teacher_unhide(state: State, player: str, action: Action, now: float) -> list[Event]:
    return _teacher_hide(state, player, action, now, hidden=False)


#: A move's handler changes the (already copied) state and returns the events.
Move = Callable[[State, str, Action, float], list[Event]]
PLAYER_MOVES: dict[str, Move] = {
    "ready": _move_ready,
    "side": _move_side,
    "rotate": _move_rotate,
    "stroke": _move_stroke,
    "erase": _move_erase,
    "undo": _move_undo,
    "clear": _move_clear,
    "done": _move_done,
    "exclude": _move_exclude,
    "continue": _move_continue,
}
TEACHER_MOVES: dict[str, Move] = {"hide": _teacher_hide, "unhide": _teacher_unhide}


# --------------------------------------------------------------------------------------------------
# Samples of legal actions
# --------------------------------------------------------------------------------------------------


def _setup_drawing_actions(state: State, player: str) -> list[Action]:
    drawing = state["drawings"][player]
    if drawing["shown"]:
        return []
    actions: list[Action] = [
        {"type": "rotate", "rotation": rotation} for rotation in ROTATIONS if rotation != drawing["rotation"]
    ]
    if not drawing["strokes"]:
        actions.append({"type": "side", "side": 1 - drawing["side"]})
    return actions


def _drawing_actions(state: State, player: str) -> list[Action]:
    drawing = state["drawings"][player]
    if drawing["shown"]:
        return []
    actions = _setup_drawing_actions(state, player)
    # A handful of sample strokes, from a generator seeded with public facts only.
    sampler = Rng(f"sample:{state['round']}:{player}:{len(drawing['strokes'])}:{len(drawing['undo'])}")
    if len(drawing["strokes"]) < MAX_STROKES:
        for length in (1, 3):
            stroke = boards.walk_stroke(lines_of(state, drawing), sampler, length)
            if (
                _drawn_halves(drawing) + len(boards.parse_pieces(stroke, MAX_PIECES_PER_STROKE))
                <= MAX_HALVES_PER_DRAWING
            ):
                actions.append({"type": "stroke", "segments": stroke})
    count = len(drawing["strokes"])
    for index in range(max(0, count - 2), count):
        actions.append({"type": "erase", "stroke": index})
        actions.append({"type": "erase", "segments": [drawing["strokes"][index][0]]})
    if drawing["undo"]:
        actions.append({"type": "undo"})
    if drawing["strokes"]:
        actions.append({"type": "clear"})
    actions.append({"type": "done"})
    return actions


def _teacher_actions(state: State) -> list[Action]:
    if state["phase"] not in ("scribbling", "prophesying"):
        return []
    return [
        {"type": "unhide" if state["drawings"][player]["hidden"] else "hide", "player": player}
        for player in state["players"]
    ]
