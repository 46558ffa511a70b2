"""Line Up! rules as state transitions: setup, latecomers, who may act, the moves, deadlines and the result.

The functions that change a state change the one they are given: the engine (the package) copies first
where its caller needs the original kept.
"""

from __future__ import annotations

import json
from itertools import chain
from typing import Any, TypeGuard

from games.engine import core
from games.engine.core import Event, IllegalAction, State, _

GAME = "lineup"
TITLE = "Line Up!"
TEAMS = ("blue", "yellow")
ZONE_COLOURS = ("purple", "orange", "pink")
DIE_VALUES = (1, 2, 3, 5)
CARDS = (1, 2, 3, 4, 5)
BOT_LEVELS = ("easy", "medium", "hard")

# Zone sizes (purple, orange, pink) and star spaces; the 5-space comes right after the pink zone.
BOARDS: dict[str, dict[str, tuple[int, ...]]] = {
    "short": {"zones": (5, 5, 5), "stars": (3, 8, 13)},
    "standard": {"zones": (8, 8, 8), "stars": (4, 7, 11, 14, 19, 22)},
    "long": {"zones": (10, 10, 10), "stars": (4, 8, 13, 17, 23, 27)},
}

PREDICT, BID, ANSWER, STAR, FINAL, REVEAL, OVER = (
    "predict",
    "bid",
    "answer",
    "star",
    "final",
    "reveal",
    "over",
)
CHOICE_PHASES = (PREDICT, BID)
RACK_PHASES = (ANSWER, FINAL)
FACE_UP_MINIS = ("pink", "tiebreak")
LOG_KEEP = 20
LOG_SHOWN = 15
#: A student's screen lists who suggested what up to this many suggestions, then only the tally.
PROPOSALS_LISTED = 8

TIMER_KEYS = (
    "answer_seconds",
    "predict_seconds",
    "bid_seconds",
    "star_seconds",
    "final_seconds",
    "rearrange_seconds",
    "reveal_seconds",
)
ACTION_FIELDS: dict[str, frozenset[str]] = {
    "rack": frozenset({"order"}),
    "confirm": frozenset(),
    "predict": frozenset({"value"}),
    "bid": frozenset({"value"}),
    "lay": frozenset({"card", "position"}),
    "stop": frozenset(),
    # The teacher's (core.TEACHER): keep the answer on show until they continue, or go on now.
    "hold": frozenset(),
    "continue": frozenset(),
}
TEACHER_ACTIONS = ("hold", "continue")

DEFAULT_CONFIG: dict[str, Any] = {
    "board": "standard",
    "answer_seconds": 75,
    "predict_seconds": 20,
    "bid_seconds": 20,
    "star_seconds": 30,
    "final_seconds": 75,
    "rearrange_seconds": 45,
    # Long enough for a class of 28 to read the answer and the explanation and talk about it; the
    # teacher can also hold the answer on show (the "hold" action) and continue when the room is ready.
    "reveal_seconds": 25,
    # A lesson has an end: after this many rounds (or game_minutes) the team in front goes to the 5-space.
    "max_rounds": 30,
    "game_minutes": None,
    # Equal bids bid again, at most this many times; then a die roll picks the team that answers.
    "max_equal_bids": 3,
}


# ====================================================================================================
# The game: setup, latecomers, who may act, moves, deadlines, the result
# ====================================================================================================


def new_state(config: dict[str, Any], seed: str, now: float = 0.0) -> State:
    settings = _settings(DEFAULT_CONFIG, config)
    players = _players(config.get("players"))
    state: State = {
        "game": GAME,
        "settings": settings,
        "players": players,
        "teams": {
            team: {
                "members": [p for p, info in players.items() if info["team"] == team],
                "pos": 0,
                "asked": 0,
            }
            for team in TEAMS
        },
        "board": _board(settings["board"]),
        # One JSON string per question: cloning the state on every action stays cheap.
        "questions": [core.canonical_json(q) for q in _questions(config.get("questions"))],
        "next_question": 0,
        "question_serial": 0,
        "round": 0,
        "phase": None,
        "q": None,
        "stars_pending": [],
        "reveal": None,
        "winner": None,
        "time_up": False,
        "log": [],
        "log_n": 0,
        "step": 0,
        "rng": core.new_rng_state(seed),
    }
    core.clock_stop(state)
    core.allowances_store(state, config)
    if settings["game_minutes"]:
        core.game_clock_start(state, now, settings["game_minutes"] * 60.0)
    _advance(state, now, [])
    return state


def join_player(state: State, info: dict[str, Any], now: float) -> tuple[State, list[Event]]:
    """Seat a latecomer (``{"id", "name"}``) in the team with fewer students (then fewer members, then
    blue). They play from the next question on: captains already chosen stay, and the rotation counts
    them from then. A public log entry says who joined which team. Seating someone twice does nothing."""
    player = info.get("id") if isinstance(info, dict) else None
    if not isinstance(player, str) or not player or player == core.TEACHER:
        raise IllegalAction(_("A player needs an id."), code="bad_player")
    if player in state["players"]:
        return state, []
    if state["phase"] == OVER:
        raise IllegalAction(_("The game is over."), code="game_over")
    new = copy_state(state)
    new["step"] += 1

    def humans(team: str) -> int:
        return sum(1 for p in new["teams"][team]["members"] if not new["players"][p]["bot"])

    team = min(TEAMS, key=lambda t: (humans(t), len(new["teams"][t]["members"]), TEAMS.index(t)))
    name = str(info.get("name") or player)
    new["players"][player] = {"name": name, "team": team, "bot": None}
    new["teams"][team]["members"].append(player)
    if "time_allowance" in info:
        core.allowance_add(new, player, info.get("time_allowance"))
    events: list[Event] = []
    _log(new, events, float(now), {"type": "joined", "player": player, "name": name, "team": team})
    return new, events


def current_players(state: State) -> list[str]:
    # (chained in C: a big class's two teams are 2000 ids, and the runtime asks after every move)
    teams = state["teams"]
    return list(chain.from_iterable(teams[team]["members"] for team in acting_teams(state)))


def legal_moves(state: State, player: str) -> list[dict[str, Any]]:
    if player == core.TEACHER:
        return teacher_actions(state)
    team = state["players"].get(player, {}).get("team") if isinstance(player, str) else None
    if team is None or team not in acting_teams(state):
        return []
    q, phase = state["q"], state["phase"]
    captain = q["captain"].get(team) == player
    actions: list[dict[str, Any]] = []
    if phase in RACK_PHASES:
        rack = q["rack"][team]
        actions += [
            {"type": "rack", "order": _swapped(rack, i, j)} for i in range(5) for j in range(i + 1, 5)
        ]
        if captain:
            actions.append({"type": "confirm"})
    elif phase in CHOICE_PHASES:
        actions += [{"type": phase, "value": v} for v in DIE_VALUES]
        if captain and team in q["proposal"]:
            actions.append({"type": "confirm"})
    elif phase == STAR:
        star = q["star"]
        laid_cards = {c["card"] for c in star["laid"]}
        free = [p for p in CARDS if p not in {c["position"] for c in star["laid"]}]
        actions += [
            {"type": "lay", "card": c, "position": p} for c in CARDS if c not in laid_cards for p in free
        ]
        if star["laid"]:
            actions.append({"type": "stop"})
        if captain and star["proposal"] is not None:
            actions.append({"type": "confirm"})
    return actions


def apply_in_place(state: State, player: str, action: dict[str, Any], now: float) -> list[Event]:
    """Apply a move to ``state`` itself. Every handler checks everything before it changes anything (a
    property test holds this to a copying ``apply`` for legal and junk actions), and the step is put back
    on a refusal."""
    kind = _parse_action(action)
    if state["phase"] == OVER:
        raise IllegalAction(_("The game is over."), code="game_over")
    if player == core.TEACHER:
        if kind not in TEACHER_ACTIONS:
            raise IllegalAction(_("The teacher can only hold the answer or move on."), code="teacher_only")
    elif kind in TEACHER_ACTIONS:
        raise IllegalAction(_("Only the teacher can do that."), code="teacher_only")
    elif not isinstance(player, str) or player not in state["players"]:
        raise IllegalAction(_("You are not playing in this game."), code="not_player")
    state["step"] += 1
    events: list[Event] = []
    try:
        _HANDLERS[kind](state, player, action, float(now), events)
    except IllegalAction:
        state["step"] -= 1
        raise
    return events


def copy_state(state: State) -> State:
    """A deep copy that shares the question list, which nothing writes after set-up (it is a few hundred
    KB: copying it made a deadline cost more than the rest of the state many times over)."""
    questions = state["questions"]
    copied = core.clone({key: value for key, value in state.items() if key != "questions"})
    return {key: questions if key == "questions" else copied[key] for key in state}


def deadline_move(state: State, now: float) -> tuple[State, list[Event]]:
    new = copy_state(state)
    events: list[Event] = []
    if new["phase"] == OVER:
        return new, events
    new["step"] += 1
    if core.game_clock_expired(new, now):
        # The lesson's time is up: finish the current question, then sudden death (see _advance).
        new["time_up"] = True
        core.game_clock_start(new, now, None)
        _log(new, events, now, {"type": "time_up"})
        deadline = new["clock"].get("deadline")
        if deadline is None or deadline > now:
            return new, events
    _DEADLINE_HANDLERS[new["phase"]](new, float(now), events)
    return new, events


def outcome_of(state: State) -> dict[str, Any] | None:
    if state["phase"] != OVER:
        return None
    winner = state["winner"]
    return {
        "winning_team": winner,
        "winners": list(state["teams"][winner]["members"]),
        "positions": {team: state["teams"][team]["pos"] for team in TEAMS},
        "scores": {p: (1 if info["team"] == winner else 0) for p, info in state["players"].items()},
        "rounds": state["round"],
    }


# ====================================================================================================
# Config
# ====================================================================================================


def _settings(defaults: dict[str, Any], config: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(config, dict):
        raise ValueError("config must be a dict")
    settings = {key: config.get(key, default) for key, default in defaults.items()}
    if settings["board"] not in BOARDS:
        raise ValueError(f"board must be one of {', '.join(BOARDS)}")
    for key in TIMER_KEYS:
        value = settings[key]
        if value is None and key != "reveal_seconds":
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 3600:
            raise ValueError(f"{key} must be a number of seconds between 0 and 3600")
        settings[key] = float(value)
    for key in ("max_rounds", "max_equal_bids"):
        if type(settings[key]) is not int or settings[key] < 1:
            raise ValueError(f"{key} must be a positive whole number")
    minutes = settings["game_minutes"]
    if minutes is not None and (
        isinstance(minutes, bool) or not isinstance(minutes, (int, float)) or minutes <= 0
    ):
        raise ValueError("game_minutes must be a positive number or None")
    return settings


def _players(raw: Any) -> dict[str, dict[str, Any]]:
    if not isinstance(raw, list):
        raise ValueError("config['players'] must be a list")
    players: dict[str, dict[str, Any]] = {}
    for item in raw:
        if not isinstance(item, dict) or not isinstance(item.get("id"), str) or not item["id"]:
            raise ValueError("each player needs a string id")
        if item["id"] in players:
            raise ValueError(f"duplicate player id {item['id']!r}")
        if item["id"] == core.TEACHER:
            raise ValueError(f"{core.TEACHER!r} is the teacher's id, not a player's")
        if item.get("team") not in TEAMS:
            raise ValueError(f"player {item['id']!r}: team must be 'blue' or 'yellow'")
        bot = item.get("bot")
        if bot is not None and bot not in BOT_LEVELS:
            raise ValueError(f"player {item['id']!r}: bot must be one of {', '.join(BOT_LEVELS)}")
        players[item["id"]] = {"name": str(item.get("name") or item["id"]), "team": item["team"], "bot": bot}
    for team in TEAMS:
        if not any(info["team"] == team for info in players.values()):
            raise ValueError(f"team {team} needs at least one player")
    return players


def _questions(raw: Any) -> list[dict[str, Any]]:
    if not isinstance(raw, list) or not raw:
        raise ValueError("config['questions'] must be a non-empty list")
    questions = []
    for question in raw:
        if not isinstance(question, dict):
            raise ValueError("each question must be a dict")
        items = question.get("items")
        if not isinstance(items, list) or len(items) != 5 or not all(isinstance(i, dict) for i in items):
            raise ValueError(f"question {question.get('id')!r} needs five items")
        answer = question.get("answer")
        if not _is_order(answer):
            raise ValueError(f"question {question.get('id')!r}: answer must order the cards 1-5")
        if question.get("direction") not in ("asc", "desc"):
            raise ValueError(f"question {question.get('id')!r}: direction must be 'asc' or 'desc'")
        questions.append(
            {
                "id": str(question.get("id")),
                "heading": str(question.get("heading", "")),
                "order_label": str(question.get("order_label", "")),
                "direction": question["direction"],
                "items": [
                    {
                        "text": str(i.get("text", "")),
                        "value": i.get("value"),
                        "display": str(i.get("display", "")),
                    }
                    for i in items
                ],
                "answer": list(answer),
                "explanation": str(question.get("explanation", "")),
                "source": str(question.get("source", "")),
                "level": question.get("level") if question.get("level") in (1, 2, 3, 4, 5) else None,
                "subject": str(question.get("subject", "")),
                "tags": [str(t) for t in question.get("tags") or []],
            }
        )
    return questions


def _board(name: str) -> dict[str, Any]:
    spec = BOARDS[name]
    zones, first = [], 1
    for colour, size in zip(ZONE_COLOURS, spec["zones"], strict=True):
        zones.append({"colour": colour, "first": first, "last": first + size - 1})
        first += size
    return {"name": name, "zones": zones, "stars": list(spec["stars"]), "final": first}


# ====================================================================================================
# Small helpers
# ====================================================================================================


def _is_order(order: Any) -> TypeGuard[list[int]]:
    return (
        isinstance(order, list)
        and len(order) == 5
        and all(type(card) is int for card in order)
        and sorted(order) == list(CARDS)
    )


def right_count(order: list[int], answer: list[int]) -> int:
    """How many cards are in the right place: 0, 1, 2, 3 or 5."""
    return sum(1 for mine, correct in zip(order, answer, strict=True) if mine == correct)


def _swapped(order: list[int], i: int, j: int) -> list[int]:
    result = list(order)
    result[i], result[j] = result[j], result[i]
    return result


def other_team(team: str) -> str:
    return TEAMS[1 - TEAMS.index(team)]


def question_of(state: State) -> dict[str, Any]:
    return json.loads(state["questions"][state["q"]["index"]])


def answer_of(state: State) -> list[int]:
    return question_of(state)["answer"]


def _final(state: State) -> int:
    return state["board"]["final"]


def zone_of(state: State, pos: int) -> str:
    if pos >= _final(state):
        return "final"
    for zone in state["board"]["zones"]:
        if zone["first"] <= pos <= zone["last"]:
            return zone["colour"]
    return ZONE_COLOURS[0]  # the start space belongs to the first colour


def _log(state: State, events: list[Event], now: float, entry: dict[str, Any]) -> None:
    """A public happening: returned as an event and kept in the state's log that every viewer sees."""
    entry = dict(entry, at=now)
    events.append(entry)
    state["log_n"] += 1
    state["log"].append(dict(entry, n=state["log_n"], step=state["step"]))
    del state["log"][:-LOG_KEEP]


def _settle_clock(state: State, now: float, key: str) -> None:
    """Start the phase's clock with the allowance of the slowest student acting in it (a team's rack is
    shared, so its slowest member's; the answer on show is everyone's). One clock times the whole class,
    so an untimed student gets the longest allowance rather than stopping it for everyone."""
    players = current_players(state) or list(state["players"])
    core.clock_start_for(state, now, state["settings"][key], players, may_be_untimed=False)


def _roll_off(state: State) -> tuple[str, dict[str, int]]:
    """Both teams roll a die until the rolls differ; the higher roll goes first."""
    rng = core.rng_of(state)
    while True:
        rolls = {team: rng.randint(1, 6) for team in TEAMS}
        if rolls["blue"] != rolls["yellow"]:
            break
    core.rng_store(state, rng)
    return max(TEAMS, key=lambda t: rolls[t]), rolls


# ====================================================================================================
# Action parsing and checks
# ====================================================================================================


def _parse_action(action: Any) -> str:
    if not isinstance(action, dict):
        raise IllegalAction(_("Line Up! has no such move."), code="bad_action")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in ACTION_FIELDS:
        raise IllegalAction(_("Line Up! has no such move."), code="bad_action")
    if set(action) != ACTION_FIELDS[kind] | {"type"}:
        raise IllegalAction(_("That move is missing something or has something extra."), code="bad_action")
    return kind


def team_of(state: State, player: str) -> str:
    return state["players"][player]["team"]


def _wrong_phase() -> IllegalAction:
    return IllegalAction(_("Wait: this is not the moment for that."), code="wrong_phase")


def _not_your_turn() -> IllegalAction:
    return IllegalAction(_("It is not your team's turn."), code="not_your_turn")


def _require_captain(state: State, team: str, player: str) -> None:
    captain = state["q"]["captain"].get(team)
    if captain != player:
        raise IllegalAction(
            _("Only your captain, %(name)s, can lock in your team's choice."),
            code="not_captain",
            name=state["players"][captain]["name"] if captain else "",
        )


def _require_rack(state: State, team: str) -> None:
    q = state["q"]
    if state["phase"] not in RACK_PHASES:
        raise _wrong_phase()
    if team not in q["answering"]:
        raise _not_your_turn()
    if team in q["answers"]:
        raise IllegalAction(_("Your team has already locked in its answer."), code="locked")


def _require_choosing(state: State, team: str, phase: str) -> None:
    if state["phase"] != phase:
        raise _wrong_phase()
    if team not in state["q"]["playing"]:
        raise _not_your_turn()
    if team in state["q"]["locked"]:
        raise IllegalAction(_("Your team has already locked in its choice."), code="locked")


def _require_star_team(state: State, team: str) -> dict[str, Any]:
    if state["phase"] != STAR:
        raise _wrong_phase()
    star = state["q"]["star"]
    if star["team"] != team:
        raise _not_your_turn()
    return star


def acting_teams(state: State) -> list[str]:
    q, phase = state["q"], state["phase"]
    if phase in RACK_PHASES:
        return [t for t in q["answering"] if t not in q["answers"]]
    if phase in CHOICE_PHASES:
        return [t for t in q["playing"] if t not in q["locked"]]
    if phase == STAR:
        return [q["star"]["team"]]
    return []


# ====================================================================================================
# Action handlers
# ====================================================================================================


def _act_rack(state: State, player: str, action: dict[str, Any], now: float, events: list[Event]) -> None:
    team = team_of(state, player)
    _require_rack(state, team)
    order = action["order"]
    if not _is_order(order):
        raise IllegalAction(_("Put each card from 1 to 5 on the rack exactly once."), code="bad_order")
    q = state["q"]
    q["rack"][team] = list(order)
    q["rack_by"][team] = player
    q["own"][player] = {"order": list(order), "at": now}
    events.append({"type": "rack", "player": player, "team": team, "order": list(order), "at": now})


def _act_choice(state: State, player: str, action: dict[str, Any], now: float, events: list[Event]) -> None:
    phase = action["type"]  # "predict" or "bid", the same name as its phase
    team = team_of(state, player)
    _require_choosing(state, team, phase)
    value = action["value"]
    if type(value) is not int or value not in DIE_VALUES:
        raise IllegalAction(_("Choose 1, 2, 3 or 5 (4 right is impossible)."), code="bad_value")
    q = state["q"]
    q["proposal"][team] = {"value": value, "by": player}
    q["proposed"].setdefault(team, {})[player] = value
    events.append(
        {"type": "proposed", "what": phase, "player": player, "team": team, "value": value, "at": now}
    )


def _act_lay(state: State, player: str, action: dict[str, Any], now: float, events: list[Event]) -> None:
    team = team_of(state, player)
    star = _require_star_team(state, team)
    card, position = action["card"], action["position"]
    if type(card) is not int or card not in CARDS or type(position) is not int or position not in CARDS:
        raise IllegalAction(_("Choose a card from 1 to 5 and a place from 1 to 5."), code="bad_card")
    if any(laid["card"] == card for laid in star["laid"]):
        raise IllegalAction(_("Card %(card)s is already on the table."), code="card_laid", card=card)
    if any(laid["position"] == position for laid in star["laid"]):
        raise IllegalAction(_("Place %(position)s is already taken."), code="place_taken", position=position)
    star["proposal"] = {"kind": "lay", "card": card, "position": position, "by": player}
    star["proposed"].setdefault(player, []).append({"card": card, "position": position})
    events.append(
        {
            "type": "proposed",
            "what": "lay",
            "player": player,
            "team": team,
            "card": card,
            "position": position,
            "at": now,
        }
    )


def _act_stop(state: State, player: str, action: dict[str, Any], now: float, events: list[Event]) -> None:
    team = team_of(state, player)
    star = _require_star_team(state, team)
    if not star["laid"]:
        raise IllegalAction(_("Lay at least one card before you stop."), code="lay_first")
    star["proposal"] = {"kind": "stop", "by": player}
    events.append({"type": "proposed", "what": "stop", "player": player, "team": team, "at": now})


def _act_confirm(state: State, player: str, action: dict[str, Any], now: float, events: list[Event]) -> None:
    team = team_of(state, player)
    phase = state["phase"]
    if phase in RACK_PHASES:
        _require_rack(state, team)
        _require_captain(state, team, player)
        if phase == ANSWER:
            _lock_answer(state, team, player, now, events)
        else:
            _check_final(state, team, player, now, events)
    elif phase in CHOICE_PHASES:
        _require_choosing(state, team, phase)
        _require_captain(state, team, player)
        if team not in state["q"]["proposal"]:
            raise IllegalAction(_("Choose a number first."), code="nothing_to_confirm")
        _lock_choice(state, team, player, now, events)
    elif phase == STAR:
        star = _require_star_team(state, team)
        _require_captain(state, team, player)
        if star["proposal"] is None:
            raise IllegalAction(_("Choose a card and a place, or stop, first."), code="nothing_to_confirm")
        _play_star_step(state, now, events)
    else:
        raise _wrong_phase()


def teacher_actions(state: State) -> list[dict[str, Any]]:
    if state["phase"] != REVEAL:
        return []
    held = bool(state["reveal"] and state["reveal"].get("held"))
    return [{"type": "continue"}] if held else [{"type": "hold"}, {"type": "continue"}]


def _act_hold(state: State, player: str, action: dict[str, Any], now: float, events: list[Event]) -> None:
    """The teacher keeps the answer on show: the reveal has no deadline until they continue."""
    if state["phase"] != REVEAL:
        raise IllegalAction(_("The answer can be held only while it is on show."), code="wrong_phase")
    if state["reveal"].get("held"):
        raise IllegalAction(_("The answer is already held."), code="held")
    state["reveal"]["held"] = True
    core.clock_start(state, now, None)  # keeps a pause's "paused" flag; resume leaves it without a deadline
    _log(state, events, now, {"type": "reveal_held"})


def _act_continue(state: State, player: str, action: dict[str, Any], now: float, events: list[Event]) -> None:
    """The teacher moves on from the answer now (held or not): the next question starts."""
    if state["phase"] != REVEAL:
        raise IllegalAction(_("The answer is not on show."), code="wrong_phase")
    _log(state, events, now, {"type": "reveal_continued"})
    _advance(state, now, events)


_HANDLERS = {
    "hold": _act_hold,
    "continue": _act_continue,
    "rack": _act_rack,
    "confirm": _act_confirm,
    "predict": _act_choice,
    "bid": _act_choice,
    "lay": _act_lay,
    "stop": _act_stop,
}


# ====================================================================================================
# Deadlines
# ====================================================================================================


def _deadline_rack(state: State, now: float, events: list[Event]) -> None:
    q = state["q"]
    if state["phase"] == FINAL:
        _check_final(state, q["answering"][0], None, now, events)
        return
    for team in list(q["answering"]):
        if team not in q["answers"]:
            _lock_answer(state, team, None, now, events)


def _deadline_choice(state: State, now: float, events: list[Event]) -> None:
    for team in state["q"]["playing"]:
        if team not in state["q"]["locked"]:
            _lock_choice(state, team, None, now, events)


def _deadline_star(state: State, now: float, events: list[Event]) -> None:
    star = state["q"]["star"]
    if star["proposal"] is None:
        if star["laid"]:
            star["proposal"] = {"kind": "stop", "by": None}
        else:
            _end_star(state, "forfeit", now, events)
            return
    _play_star_step(state, now, events)


def _deadline_reveal(state: State, now: float, events: list[Event]) -> None:
    _advance(state, now, events)


_DEADLINE_HANDLERS = {
    ANSWER: _deadline_rack,
    FINAL: _deadline_rack,
    PREDICT: _deadline_choice,
    BID: _deadline_choice,
    STAR: _deadline_star,
    REVEAL: _deadline_reveal,
}


# ====================================================================================================
# The flow of the game
# ====================================================================================================


def _advance(state: State, now: float, events: list[Event]) -> None:
    """Start whatever comes next: pending star turns, the 5-space, sudden death or a new round."""
    while True:
        if state["stars_pending"]:
            _start_star(state, state["stars_pending"].pop(0), now, events)
            return
        on_final = [team for team in TEAMS if state["teams"][team]["pos"] >= _final(state)]
        if len(on_final) == 2:
            _start_question(state, now, "tiebreak", TEAMS, events)
            _begin_choice(state, BID, now)
            _log(state, events, now, {"type": "tiebreak_started"})
            return
        if on_final:
            _start_final(state, on_final[0], now, events)
            return
        if state["round"] >= state["settings"]["max_rounds"] or state["time_up"]:
            _sudden_death(state, now, events)
            continue
        _start_round(state, now, events)
        return


def _sudden_death(state: State, now: float, events: list[Event]) -> None:
    positions = {team: state["teams"][team]["pos"] for team in TEAMS}
    leaders = [team for team in TEAMS if positions[team] == max(positions.values())]
    _log(state, events, now, {"type": "sudden_death", "teams": leaders})
    for team in leaders:
        _move(state, team, _final(state) - positions[team], "sudden_death", now, events)


def _start_round(state: State, now: float, events: list[Event]) -> None:
    state["round"] += 1
    leader_pos = max(state["teams"][team]["pos"] for team in TEAMS)
    mini = zone_of(state, leader_pos)
    _start_question(state, now, mini, TEAMS, events)
    _log(state, events, now, {"type": "round_started", "round": state["round"], "mini": mini})
    if mini == "purple":
        _begin_answer(state, list(TEAMS), now)
    elif mini == "orange":
        _begin_choice(state, PREDICT, now)
    else:
        _begin_choice(state, BID, now)


def _start_question(state: State, now: float, mini: str, playing: Any, events: list[Event]) -> None:
    index = state["next_question"]
    if index >= len(state["questions"]):
        index = 0
        _log(state, events, now, {"type": "questions_restarted"})
    state["next_question"] = index + 1
    state["question_serial"] += 1
    captains = {}
    for team in playing:
        info = state["teams"][team]
        captains[team] = info["members"][info["asked"] % len(info["members"])]
        info["asked"] += 1
    state["reveal"] = None
    state["q"] = {
        "index": index,
        "serial": state["question_serial"],
        "mini": mini,
        "asked_at": now,
        "playing": list(playing),
        "answering": [],
        "captain": captains,
        "rack": {team: list(CARDS) for team in playing},
        "rack_by": {team: None for team in playing},
        "own": {},
        "answers": {},
        "proposal": {},
        "proposed": {},
        "locked": {},
        "predictions": None,
        "bid_history": [],
        "bidder": None,
        "moves": [],
    }


def _begin_answer(state: State, teams: list[str], now: float) -> None:
    state["q"]["answering"] = teams
    state["phase"] = ANSWER
    _settle_clock(state, now, "answer_seconds")


def _begin_choice(state: State, phase: str, now: float) -> None:
    q = state["q"]
    q["proposal"], q["proposed"], q["locked"] = {}, {}, {}
    state["phase"] = phase
    _settle_clock(state, now, f"{phase}_seconds")


def _own_snapshot(state: State, team: str) -> dict[str, Any]:
    """Each member's last ordering before the lock (None for a member who never moved a card)."""
    own = state["q"]["own"]
    return {p: own.get(p) for p in state["teams"][team]["members"]}


def _lock_answer(state: State, team: str, by: str | None, now: float, events: list[Event]) -> None:
    q = state["q"]
    q["answers"][team] = {
        "order": list(q["rack"][team]),
        "at": now,
        "by": by,
        "own": _own_snapshot(state, team),
    }
    _log(state, events, now, {"type": "locked", "team": team, "what": "answer", "by": by})
    if all(t in q["answers"] for t in q["answering"]):
        _resolve_answers(state, now, events)


def _lock_choice(state: State, team: str, by: str | None, now: float, events: list[Event]) -> None:
    q = state["q"]
    proposal = q["proposal"].get(team)
    value = proposal["value"] if proposal else DIE_VALUES[0]  # nothing chosen in time: the safest value
    q["locked"][team] = value
    _log(state, events, now, {"type": "locked", "team": team, "what": state["phase"], "by": by})
    if all(t in q["locked"] for t in q["playing"]):
        if state["phase"] == PREDICT:
            q["predictions"] = dict(q["locked"])
            _log(state, events, now, {"type": "predictions_revealed", "predictions": dict(q["locked"])})
            _begin_answer(state, list(TEAMS), now)
        else:
            _resolve_bids(state, now, events)


def _resolve_bids(state: State, now: float, events: list[Event]) -> None:
    q = state["q"]
    bids = dict(q["locked"])
    q["bid_history"].append(bids)
    if bids["blue"] != bids["yellow"]:
        bidder = max(TEAMS, key=lambda t: bids[t])
        _log(state, events, now, {"type": "bids_revealed", "bids": bids, "bidder": bidder})
    elif len(q["bid_history"]) < state["settings"]["max_equal_bids"]:
        _log(state, events, now, {"type": "bids_revealed", "bids": bids, "bidder": None})
        _begin_choice(state, BID, now)
        return
    else:
        bidder, rolls = _roll_off(state)
        _log(state, events, now, {"type": "bids_revealed", "bids": bids, "bidder": None})
        _log(state, events, now, {"type": "die_roll", "why": "equal_bids", "rolls": rolls, "first": bidder})
    q["bidder"] = bidder
    q["bid"] = bids[bidder]
    _begin_answer(state, [bidder], now)


def _resolve_answers(state: State, now: float, events: list[Event]) -> None:
    q = state["q"]
    answer = answer_of(state)
    for team in q["answering"]:
        q["answers"][team]["right"] = right_count(q["answers"][team]["order"], answer)
    mini, landed = q["mini"], []
    if mini == "purple":
        for team in TEAMS:
            landed += _move(state, team, q["answers"][team]["right"], "purple", now, events)
    elif mini == "orange":
        for team in TEAMS:
            made = q["answers"][team]["right"] >= q["predictions"][team]
            q["answers"][team]["made"] = made
            landed += _move(state, team, q["predictions"][team] if made else 0, "orange", now, events)
    else:
        bidder = q["bidder"]
        made = q["answers"][bidder]["right"] >= q["bid"]
        q["answers"][bidder]["made"] = made
        if mini == "tiebreak":
            state["winner"] = bidder if made else other_team(bidder)
        else:
            mover = bidder if made else other_team(bidder)
            landed += _move(state, mover, q["bid"], "pink_made" if made else "pink_missed", now, events)
    _queue_star_turns(state, landed, now, events)
    _reveal(state, now, events)


# ----------------------------------------------------------------------------------------------------
# Moving pawns and star turns
# ----------------------------------------------------------------------------------------------------


def _move(state: State, team: str, spaces: int, why: str, now: float, events: list[Event]) -> list[str]:
    """Move a pawn forward (never past the 5-space); return [team] if it landed on a star space."""
    info = state["teams"][team]
    start = info["pos"]
    end = min(start + max(spaces, 0), _final(state))
    if end == start:
        return []
    info["pos"] = end
    move = {"team": team, "from": start, "to": end, "why": why}
    if state["q"] is not None:
        state["q"]["moves"].append(move)
    _log(state, events, now, dict(move, type="moved"))
    lost = [entry for entry in state["stars_pending"] if entry["team"] == team]
    if lost:
        state["stars_pending"] = [entry for entry in state["stars_pending"] if entry["team"] != team]
        _log(state, events, now, {"type": "star_turn_lost", "team": team, "space": start})
    return [team] if end in state["board"]["stars"] else []


def _queue_star_turns(state: State, landed: list[str], now: float, events: list[Event]) -> None:
    """New star turns are played before anything else; of two, the team further ahead goes first."""
    if not landed:
        return
    pos = {team: state["teams"][team]["pos"] for team in landed}
    order = sorted(landed, key=lambda team: -pos[team])
    if len(order) == 2 and pos[order[0]] == pos[order[1]]:
        first, rolls = _roll_off(state)
        order = [first, other_team(first)]
        _log(
            state, events, now, {"type": "die_roll", "why": "same_star_space", "rolls": rolls, "first": first}
        )
    state["stars_pending"] = [{"team": t, "pos": pos[t]} for t in order] + state["stars_pending"]


def _start_star(state: State, entry: dict[str, Any], now: float, events: list[Event]) -> None:
    team = entry["team"]
    _start_question(state, now, "star", [team], events)
    state["q"]["star"] = {
        "team": team,
        "space": entry["pos"],
        "laid": [],
        "proposal": None,
        "proposed": {},
        "ended": None,
    }
    state["phase"] = STAR
    _settle_clock(state, now, "star_seconds")
    _log(state, events, now, {"type": "star_turn_started", "team": team, "space": entry["pos"]})


def _play_star_step(state: State, now: float, events: list[Event]) -> None:
    star = state["q"]["star"]
    proposal, star["proposal"] = star["proposal"], None
    if proposal["kind"] == "stop":
        _log(state, events, now, {"type": "star_stopped", "team": star["team"], "by": proposal["by"]})
        _end_star(state, "stopped", now, events)
        return
    card, position = proposal["card"], proposal["position"]
    right = answer_of(state)[position - 1] == card
    star["laid"].append({"card": card, "position": position, "right": right, "by": proposal["by"], "at": now})
    _log(
        state,
        events,
        now,
        {"type": "star_card", "team": star["team"], "card": card, "position": position, "right": right},
    )
    if not right:
        _end_star(state, "mistake", now, events)
    elif len(star["laid"]) == 5:
        _end_star(state, "all_right", now, events)
    else:
        _settle_clock(state, now, "star_seconds")


def _end_star(state: State, how: str, now: float, events: list[Event]) -> None:
    star = state["q"]["star"]
    star["ended"] = how
    team, laid = star["team"], len(star["laid"])
    landed: list[str] = []
    if how in ("stopped", "all_right"):
        landed = _move(state, team, laid, "star", now, events)
    elif how == "mistake":
        # The other team moves as many spaces as cards the team had laid, the wrong one included.
        landed = _move(state, other_team(team), laid, "star_mistake", now, events)
    else:
        _log(state, events, now, {"type": "star_forfeit", "team": team})
    _queue_star_turns(state, landed, now, events)
    _reveal(state, now, events)


# ----------------------------------------------------------------------------------------------------
# The 5-space
# ----------------------------------------------------------------------------------------------------


def _start_final(state: State, team: str, now: float, events: list[Event]) -> None:
    _start_question(state, now, "final", [team], events)
    state["q"]["answering"] = [team]
    state["q"]["attempts"] = []
    state["phase"] = FINAL
    _settle_clock(state, now, "final_seconds")
    _log(state, events, now, {"type": "final_started", "team": team})


def _check_final(state: State, team: str, by: str | None, now: float, events: list[Event]) -> None:
    q = state["q"]
    order = list(q["rack"][team])
    right = right_count(order, answer_of(state))
    q["attempts"].append(
        {
            "order": order,
            "right": right,
            "wrong": 5 - right,
            "at": now,
            "by": by,
            "own": _own_snapshot(state, team),
        }
    )
    q["own"] = {}
    _log(
        state,
        events,
        now,
        {"type": "final_checked", "team": team, "attempt": len(q["attempts"]), "wrong": 5 - right},
    )
    if right == 5:
        state["winner"] = team
        _reveal(state, now, events)
    elif len(q["attempts"]) == 1:
        _settle_clock(state, now, "rearrange_seconds")
    else:
        landed = _move(state, other_team(team), 5, "final_missed", now, events)
        _queue_star_turns(state, landed, now, events)
        _reveal(state, now, events)


# ----------------------------------------------------------------------------------------------------
# The reveal
# ----------------------------------------------------------------------------------------------------


def _reveal(state: State, now: float, events: list[Event]) -> None:
    q = state["q"]
    question = question_of(state)
    results = _results(state)
    state["reveal"] = {
        "question": public_question(question, revealed=True),
        "answer": list(question["answer"]),
        "explanation": question["explanation"],
        "source": question["source"],
        "mini": q["mini"],
        "results": results,
        "moves": list(q["moves"]),
    }
    events.append(
        {
            "type": "question_revealed",
            "at": now,
            "asked_at": q["asked_at"],
            "mini": q["mini"],
            "question": {
                "id": question["id"],
                "level": question["level"],
                "subject": question["subject"],
                "answer": list(question["answer"]),
                "cards": [item["text"] for item in question["items"]],
            },
            "teams": _member_results(state, results),
        }
    )
    _log(
        state,
        events,
        now,
        {
            "type": "revealed",
            "question_id": question["id"],
            "mini": q["mini"],
            "answer": list(question["answer"]),
            "right": {team: result["right"] for team, result in results.items()},
        },
    )
    if state["winner"]:
        state["phase"] = OVER
        core.clock_stop(state)
        _log(state, events, now, {"type": "won", "team": state["winner"]})
    else:
        state["phase"] = REVEAL
        _settle_clock(state, now, "reveal_seconds")


def _results(state: State) -> dict[str, dict[str, Any]]:
    """What each team did with the question, public once it is revealed."""
    q = state["q"]
    results: dict[str, dict[str, Any]] = {}
    if q["mini"] == "star":
        star = q["star"]
        laid = [{k: c[k] for k in ("card", "position", "right")} for c in star["laid"]]
        results[star["team"]] = {"laid": laid, "right": sum(c["right"] for c in laid), "ended": star["ended"]}
    elif q["mini"] == "final":
        team = q["answering"][0]
        attempts = [{k: a[k] for k in ("order", "right", "wrong")} for a in q["attempts"]]
        results[team] = {"attempts": attempts, "order": attempts[-1]["order"], "right": attempts[-1]["right"]}
    else:
        for team, answer in q["answers"].items():
            result = {"order": answer["order"], "right": answer["right"]}
            if "made" in answer:
                result["made"] = answer["made"]
            if q["predictions"]:
                result["prediction"] = q["predictions"][team]
            if q["bidder"] == team:
                result["bid"] = q["bid"]
            results[team] = result
    return results


def _member_results(state: State, results: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The results plus each member's own ordering and time, for the learning facts."""
    q = state["q"]
    out: dict[str, dict[str, Any]] = {}
    for team, result in results.items():
        entry = dict(result)
        if q["mini"] == "star":
            proposed = q["star"]["proposed"]
            entry["members"] = {p: {"proposed": proposed.get(p, [])} for p in state["teams"][team]["members"]}
        elif q["mini"] == "final":
            first = q["attempts"][0]
            entry["locked_at"] = q["attempts"][-1]["at"]
            entry["members"] = {p: {"own": first["own"].get(p)} for p in first["own"]}
            if len(q["attempts"]) > 1:
                for p, own in q["attempts"][1]["own"].items():
                    entry["members"][p]["rearranged"] = own
        else:
            answer = q["answers"][team]
            entry["locked_at"] = answer["at"]
            entry["members"] = {p: {"own": own} for p, own in answer["own"].items()}
        out[team] = entry
    return out


def public_question(question: dict[str, Any], revealed: bool = False) -> dict[str, Any]:
    cards = []
    for number, item in enumerate(question["items"], start=1):
        card = {"card": number, "text": item["text"]}
        if revealed:
            card.update(value=item["value"], display=item["display"])
        cards.append(card)
    return {
        "id": question["id"],
        "heading": question["heading"],
        "order_label": question["order_label"],
        "direction": question["direction"],
        "level": question["level"],
        "subject": question["subject"],
        "tags": list(question["tags"]),
        "cards": cards,
    }
