"""Line Up!: two teams (blue and yellow) race their pawns along a track by putting five items in order.

A question shows a heading, the order asked for and five numbered cards; a team answers by arranging its
cards 1-5. A correct answer is a card in the right place, so a team scores 0, 1, 2, 3 or 5 (never 4).
The track has three colour zones (purple, orange, pink), then the final 5-space; star spaces are scattered
over it. The colour of the zone of the team in front decides the mini-game both teams play:

* purple: both answer, hidden from each other; each moves as many spaces as it has right;
* orange: both predict how many they will get right (1, 2, 3 or 5), the predictions are shown together,
  then both answer; a team with at least its prediction moves the prediction, otherwise nothing;
* pink: both bid (1, 2, 3 or 5) in secret; equal bids bid again; the higher bidder answers face up and
  moves its bid if it gets at least that many right, otherwise the other team moves the bid.

Landing on a star space earns an extra question alone (lay cards one at a time, stop or go on; the first
mistake moves the other team). A team on the 5-space answers a last question with one rearrangement
allowed; all five right wins, otherwise the other team moves 5. Both on the 5-space: a pink-bid tie-break.

Team play: every member moves cards on the team's shared rack and proposes predictions, bids and star
moves; the question's captain (rotating through the members) locks the team's choice, or the deadline
does. Each member's last ordering before the lock is kept for their learning facts.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

from . import core
from .core import Event, IllegalAction, State, _

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
#: Viewers that see rosters and who may act now: one screen each, so their views may grow with the class.
STAFF_ROLES = ("teacher", "projector")

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
}


class LineUp(core.Game):
    name = "lineup"
    title = "Line Up!"
    min_players = 2
    max_players = 60
    default_config: dict[str, Any] = {
        "board": "standard",
        "answer_seconds": 75,
        "predict_seconds": 20,
        "bid_seconds": 20,
        "star_seconds": 30,
        "final_seconds": 75,
        "rearrange_seconds": 45,
        "reveal_seconds": 8,
        # A lesson has an end: after this many rounds (or game_minutes) the team in front goes to the 5-space.
        "max_rounds": 30,
        "game_minutes": None,
        # Equal bids bid again, at most this many times; then a die roll picks the team that answers.
        "max_equal_bids": 3,
    }

    # ------------------------------------------------------------------------------------------------
    # Setup
    # ------------------------------------------------------------------------------------------------

    def setup(self, config: dict[str, Any], seed: str, now: float = 0.0) -> State:
        settings = _settings(self.default_config, config)
        players = _players(config.get("players"))
        state: State = {
            "game": self.name,
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
        if settings["game_minutes"]:
            core.game_clock_start(state, now, settings["game_minutes"] * 60.0)
        _advance(state, now, [])
        return state

    def join(self, state: State, info: dict[str, Any], now: float) -> tuple[State, list[Event]]:
        """Seat a latecomer (``{"id", "name"}``) in the team with fewer students (then fewer members, then
        blue). They play from the next question on: captains already chosen stay, and the rotation counts
        them from then. A public log entry says who joined which team. Seating someone twice does nothing."""
        player = info.get("id") if isinstance(info, dict) else None
        if not isinstance(player, str) or not player:
            raise IllegalAction(_("A player needs an id."), code="bad_player")
        if player in state["players"]:
            return state, []
        if state["phase"] == OVER:
            raise IllegalAction(_("The game is over."), code="game_over")
        new = core.clone(state)
        new["step"] += 1

        def humans(team: str) -> int:
            return sum(1 for p in new["teams"][team]["members"] if not new["players"][p]["bot"])

        team = min(TEAMS, key=lambda t: (humans(t), len(new["teams"][t]["members"]), TEAMS.index(t)))
        name = str(info.get("name") or player)
        new["players"][player] = {"name": name, "team": team, "bot": None}
        new["teams"][team]["members"].append(player)
        events: list[Event] = []
        _log(new, events, float(now), {"type": "joined", "player": player, "name": name, "team": team})
        return new, events

    # ------------------------------------------------------------------------------------------------
    # Who may act, and how
    # ------------------------------------------------------------------------------------------------

    def current_players(self, state: State) -> list[str]:
        return [p for team in _acting_teams(state) for p in state["teams"][team]["members"]]

    def legal_actions(self, state: State, player: str) -> list[dict[str, Any]]:
        team = state["players"].get(player, {}).get("team") if isinstance(player, str) else None
        if team is None or team not in _acting_teams(state):
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

    def apply(
        self, state: State, player: str, action: dict[str, Any], now: float
    ) -> tuple[State, list[Event]]:
        new = core.clone(state)
        return new, self.apply_in_place(new, player, action, now)

    def apply_in_place(self, state: State, player: str, action: dict[str, Any], now: float) -> list[Event]:
        """Without a copy: every handler checks everything before it changes anything (a property test
        holds it to ``apply`` for legal and junk actions), and the step is put back on a refusal."""
        kind = _parse_action(action)
        if state["phase"] == OVER:
            raise IllegalAction(_("The game is over."), code="game_over")
        if not isinstance(player, str) or player not in state["players"]:
            raise IllegalAction(_("You are not playing in this game."), code="not_player")
        state["step"] += 1
        events: list[Event] = []
        try:
            _HANDLERS[kind](state, player, action, float(now), events)
        except IllegalAction:
            state["step"] -= 1
            raise
        return events

    def on_deadline(self, state: State, now: float) -> tuple[State, list[Event]]:
        new = core.clone(state)
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

    # ------------------------------------------------------------------------------------------------
    # What each viewer sees
    # ------------------------------------------------------------------------------------------------

    def view(self, state: State, viewer: dict[str, Any]) -> dict[str, Any]:
        return self._view(state, viewer, {})

    def views(self, state: State, viewers: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        """The part every student's device shares, and each team's part, are built once per call."""
        shared: dict[Any, Any] = {}
        return (self._view(state, viewer, shared) for viewer in viewers)

    def _view(self, state: State, viewer: dict[str, Any], shared: dict[Any, Any]) -> dict[str, Any]:
        role = viewer.get("role") if isinstance(viewer, dict) else None
        player = viewer.get("player") if role == "player" else None
        if role == "player" and not (isinstance(player, str) and player in state["players"]):
            role = "spectator"
        if role not in ("player", "teacher", "projector"):
            role = "spectator"
        staff = role in STAFF_ROLES
        if staff:
            # Rosters and who may act now list a whole class: only for the staff screens that show them.
            if "staff" not in shared:
                shared["staff"] = _public_view(state, self.current_players(state), staff=True)
            out = dict(shared["staff"])
        else:
            if "public" not in shared:
                shared["public"] = _public_view(state, [], staff=False)
            out = dict(shared["public"])
        out["viewer"] = role
        if role == "player":
            team = state["players"][player]["team"]
            q = state["q"]
            captain = bool(q) and q["captain"].get(team) == player
            if ("can", team, captain) not in shared:  # what a member may do depends on team and captaincy
                shared["can", team, captain] = sorted({a["type"] for a in self.legal_actions(state, player)})
            out["you"] = {
                "id": player,
                "name": state["players"][player]["name"],
                "team": team,
                "captain": captain,
                "can": shared["can", team, captain],
            }
            if ("team", team) not in shared:
                shared["team", team] = _private_team(state, team, staff=False)
            out["my_team"] = dict(shared["team", team])
            if q is not None and team in q["playing"]:
                mine = q["own"].get(player)
                out["my_team"]["my_order"] = list(mine["order"]) if mine else None
            # Everything a member's view mentions is their team's, but for their own name.
            if ("names", team) not in shared:
                shared["names", team] = _names(state, {**out, "you": None})
            out["names"] = {**shared["names", team], player: out["you"]["name"]}
            return out
        if role == "teacher":
            out["team_details"] = {team: _private_team(state, team, staff=True) for team in TEAMS}
        out["names"] = _names(state, out)
        return out

    # ------------------------------------------------------------------------------------------------
    # Results
    # ------------------------------------------------------------------------------------------------

    def is_over(self, state: State) -> bool:
        return state["phase"] == OVER

    def outcome(self, state: State) -> dict[str, Any] | None:
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

    def facts(self, events: list[Event]) -> list[dict[str, Any]]:
        facts: list[dict[str, Any]] = []
        for event in events:
            if isinstance(event, dict) and event.get("type") == "question_revealed":
                facts.extend(_facts_of_reveal(self.name, event))
        return facts

    def records_facts(self, events: list[Event]) -> bool:
        return any(isinstance(event, dict) and event.get("type") == "question_revealed" for event in events)

    def questions_shown(self, events: list[Event]) -> list[str]:
        """Bank ids of the questions these events finished (revealed), in order: for the runtime to record
        which questions a class has seen (``questions.services.questions_mark_used``)."""
        return [
            event["question"]["id"]
            for event in events
            if isinstance(event, dict) and event.get("type") == "question_revealed"
        ]

    # ------------------------------------------------------------------------------------------------
    # Computer players
    # ------------------------------------------------------------------------------------------------

    def bot_action(self, state: State, player: str, rng: core.Rng) -> dict[str, Any]:
        if player not in self.current_players(state):
            raise IllegalAction(_("There is nothing for you to do right now."), code="not_your_turn")
        return _bot_action(state, player, rng)


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


def _is_order(order: Any) -> bool:
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


def _other(team: str) -> str:
    return TEAMS[1 - TEAMS.index(team)]


def _question(state: State) -> dict[str, Any]:
    return json.loads(state["questions"][state["q"]["index"]])


def _answer(state: State) -> list[int]:
    return _question(state)["answer"]


def _final(state: State) -> int:
    return state["board"]["final"]


def _zone(state: State, pos: int) -> str:
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
    core.clock_start(state, now, state["settings"][key])


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
        raise IllegalAction(_("That is not a move in Line Up!."), code="bad_action")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in ACTION_FIELDS:
        raise IllegalAction(_("That is not a move in Line Up!."), code="bad_action")
    if set(action) != ACTION_FIELDS[kind] | {"type"}:
        raise IllegalAction(_("That move is missing something or has something extra."), code="bad_action")
    return kind


def _team_of(state: State, player: str) -> str:
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


def _acting_teams(state: State) -> list[str]:
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
    team = _team_of(state, player)
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
    team = _team_of(state, player)
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
    team = _team_of(state, player)
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
    team = _team_of(state, player)
    star = _require_star_team(state, team)
    if not star["laid"]:
        raise IllegalAction(_("Lay at least one card before you stop."), code="lay_first")
    star["proposal"] = {"kind": "stop", "by": player}
    events.append({"type": "proposed", "what": "stop", "player": player, "team": team, "at": now})


def _act_confirm(state: State, player: str, action: dict[str, Any], now: float, events: list[Event]) -> None:
    team = _team_of(state, player)
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


_HANDLERS = {
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
    mini = _zone(state, leader_pos)
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
    answer = _answer(state)
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
            state["winner"] = bidder if made else _other(bidder)
        else:
            mover = bidder if made else _other(bidder)
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
        order = [first, _other(first)]
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
    right = _answer(state)[position - 1] == card
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
        landed = _move(state, _other(team), laid, "star_mistake", now, events)
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
    right = right_count(order, _answer(state))
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
        landed = _move(state, _other(team), 5, "final_missed", now, events)
        _queue_star_turns(state, landed, now, events)
        _reveal(state, now, events)


# ----------------------------------------------------------------------------------------------------
# The reveal
# ----------------------------------------------------------------------------------------------------


def _reveal(state: State, now: float, events: list[Event]) -> None:
    q = state["q"]
    question = _question(state)
    results = _results(state)
    state["reveal"] = {
        "question": _public_question(question, revealed=True),
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


# ====================================================================================================
# Views
# ====================================================================================================


def _public_question(question: dict[str, Any], revealed: bool = False) -> dict[str, Any]:
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


def _team_done(state: State, team: str) -> bool:
    q, phase = state["q"], state["phase"]
    if phase in CHOICE_PHASES:
        return team in q["locked"]
    if phase in RACK_PHASES:
        return team in q["answers"]
    return False


def _public_team(state: State, team: str, staff: bool) -> dict[str, Any]:
    info = state["teams"][team]
    out: dict[str, Any] = {
        "size": len(info["members"]),
        "position": info["pos"],
        "zone": _zone(state, info["pos"]),
        "on_star": info["pos"] in state["board"]["stars"],
    }
    q = state["q"]
    if q is None:
        return out
    out["playing"] = team in q["playing"]
    out["captain"] = q["captain"].get(team)
    out["locked"] = _team_done(state, team)
    if q["predictions"]:
        out["prediction"] = q["predictions"][team]  # shown to the other team once both are in
    if q["bidder"] == team:
        out["bid"] = q["bid"]
    if q["mini"] in FACE_UP_MINIS and q["bidder"] == team and state["phase"] == ANSWER:
        out["rack"] = list(q["rack"][team])  # the bidder answers with its cards face up
    return out


def _roster(state: State, team: str) -> list[dict[str, Any]]:
    return [
        {"id": p, "name": state["players"][p]["name"], "bot": state["players"][p]["bot"]}
        for p in state["teams"][team]["members"]
    ]


def _names(state: State, view: dict[str, Any]) -> dict[str, str]:
    """The names of the players this view mentions (captains, whoever moved or suggested something, the
    log's people), so a student's view stays the same small size whether the class has 20 or 2000."""
    players = state["players"]
    mentioned: list[Any] = [info.get("captain") for info in view["teams"].values()]
    mentioned += [entry.get(key) for entry in view["log"] for key in ("by", "player")]
    for section in [view.get("my_team") or {}, *(view.get("team_details") or {}).values()]:
        mentioned += [section.get("captain"), section.get("rack_by")]
        mentioned += [*section.get("proposals", {}), *section.get("orders", {})]
        mentioned += [
            proposal.get("by")
            for proposal in (section.get("proposal"), section.get("star_proposal"))
            if proposal
        ]
    if view.get("you"):
        mentioned.append(view["you"]["id"])
    return {p: players[p]["name"] for p in mentioned if isinstance(p, str) and p in players}


def _public_view(state: State, players_now: list[str], staff: bool) -> dict[str, Any]:
    """What every viewer may see. Rosters and who may act now are for the staff screens only: a student's
    view must not grow with the class (one update goes to every device of a 2000-student session)."""
    q, phase = state["q"], state["phase"]
    out: dict[str, Any] = {
        "game": "lineup",
        "title": LineUp.title,
        "phase": phase,
        "mini": q["mini"] if q else None,
        "round": state["round"],
        "max_rounds": state["settings"]["max_rounds"],
        "time_up": state["time_up"],
        "board": {
            "name": state["board"]["name"],
            "zones": [dict(z) for z in state["board"]["zones"]],
            "stars": list(state["board"]["stars"]),
            "final": state["board"]["final"],
        },
        "teams": {team: _public_team(state, team, staff) for team in TEAMS},
        "turn": {"teams": _acting_teams(state)},
        "question": _public_question(_question(state)) if q else None,
        # Counts the questions asked so far: a stable key for a client's work in progress on this one.
        "question_serial": q["serial"] if q else None,
        "stars_pending": [dict(entry) for entry in state["stars_pending"]],
        "winner": state["winner"],
        "over": phase == OVER,
        "log": [dict(entry) for entry in state["log"][-LOG_SHOWN:]],
        "last_events": [dict(entry) for entry in state["log"] if entry["step"] == state["step"]],
        "clock": core.clock_view(state),
    }
    if q and q["mini"] in FACE_UP_MINIS:
        out["bids"] = {
            "rounds": [dict(b) for b in q["bid_history"]],
            "bidder": q["bidder"],
            "bid": q.get("bid"),
        }
    if q and q["mini"] == "star":
        star = q["star"]
        out["star"] = {
            "team": star["team"],
            "space": star["space"],
            "laid": [{k: c[k] for k in ("card", "position", "right")} for c in star["laid"]],
            "can_stop": bool(star["laid"]) and star["ended"] is None,
        }
    if q and q["mini"] == "final":
        out["final"] = {
            "team": q["answering"][0],
            "attempt": min(len(q["attempts"]) + 1, 2),
            "wrong": q["attempts"][0]["wrong"] if q["attempts"] else None,
        }
    if phase in (REVEAL, OVER) and state["reveal"]:
        out["reveal"] = core.clone(state["reveal"])
    if staff:
        out["turn"]["players"] = list(players_now)
        for team in TEAMS:
            out["teams"][team]["members"] = _roster(state, team)
    return out


def _private_team(state: State, team: str, staff: bool) -> dict[str, Any]:
    """What the team's own members (and the teacher) see: its rack, who proposed what, its locked choices;
    the same for every member (each device adds its own ``my_order``)."""
    q, phase = state["q"], state["phase"]
    out: dict[str, Any] = {"team": team}
    if q is None or team not in q["playing"]:
        return out
    out["captain"] = q["captain"].get(team)
    if team in q["answering"] and phase in RACK_PHASES:
        out["rack"] = list(q["rack"][team])
        out["rack_by"] = q["rack_by"][team]
    if staff:
        members = state["teams"][team]["members"]
        out["orders"] = {p: list(q["own"][p]["order"]) for p in members if p in q["own"]}
    if team in q["answers"]:
        out["locked_answer"] = list(q["answers"][team]["order"])
    if phase in CHOICE_PHASES:
        proposal = q["proposal"].get(team)
        out["proposal"] = dict(proposal) if proposal else None
        proposed = q["proposed"].get(team, {})
        # A student's screen lists who suggested what in a small team; in a big one it shows the tally
        # (nobody reads 40 names, and the view must not grow with the class).
        listed = staff or len(proposed) <= PROPOSALS_LISTED
        out["proposals"] = dict(proposed) if listed else {}
        out["proposal_counts"] = {str(v): n for v, n in sorted(Counter(proposed.values()).items())}
        out["locked_value"] = q["locked"].get(team)
    if q["mini"] == "star":
        star = q["star"]
        out["star_proposal"] = dict(star["proposal"]) if star["proposal"] else None
        if staff:
            out["star_proposed"] = {p: [dict(x) for x in v] for p, v in star["proposed"].items()}
    if q["mini"] == "final":
        out["attempts"] = [{"order": list(a["order"]), "wrong": a["wrong"]} for a in q["attempts"]]
    return out


# ====================================================================================================
# Learning facts
# ====================================================================================================


def _facts_of_reveal(game: str, event: dict[str, Any]) -> list[dict[str, Any]]:
    question = event["question"]
    answer = question["answer"]
    facts = []
    for team, result in event["teams"].items():
        for player, member in result.get("members", {}).items():
            own = member.get("own")
            own_right = right_count(own["order"], answer) if own else None
            detail = {
                "team": team,
                "mini": event["mini"],
                "team_order": result.get("order"),
                "team_right": result.get("right"),
                "own_right": own_right,
            }
            for key in ("prediction", "bid", "made", "laid", "ended", "attempts"):
                if key in result:
                    detail[key] = result[key]
            if "proposed" in member:
                detail["proposed"] = member["proposed"]
            if "rearranged" in member:
                detail["rearranged"] = member["rearranged"]["order"] if member["rearranged"] else None
            facts.append(
                {
                    "player": player,
                    "game": game,
                    "skill": "general_knowledge",
                    "category": question["subject"],
                    "level": question["level"],
                    "correct": (own_right == 5) if own else None,
                    "score": own_right,
                    "time_taken": (own["at"] - event["asked_at"]) if own else None,
                    "item_id": question["id"],
                    "response": own["order"] if own else None,
                    "detail": detail,
                }
            )
    return facts


# ====================================================================================================
# Computer players
# ====================================================================================================

# How far a bot's sense of each card's place wanders from the truth, and how bold it plays.
BOT_NOISE = {"easy": 4.0, "medium": 2.2, "hard": 1.0}
BOT_CONFIDENCE = {"easy": 0.4, "medium": 0.65, "hard": 0.85}
BOT_STAR_CARDS = {"easy": 1, "medium": 2, "hard": 3}


def _bot_level(state: State, player: str) -> str:
    return state["players"][player]["bot"] or "medium"


def _belief(state: State, player: str, salt: str = "") -> list[int]:
    """The bot's ordering for the current question: the true places plus noise, stable within a question.

    Bots of one team and level share it, so a bot team's bid, prediction and answer agree."""
    q = state["q"]
    level = _bot_level(state, player)
    rng = core.Rng(
        f"lineup-bot:{state['rng']['seed']}:{q['serial']}:{_team_of(state, player)}:{level}:{salt}"
    )
    noise = BOT_NOISE[level]
    answer = _answer(state)
    guess = {
        card: answer.index(card) + noise * (rng.random() + rng.random() + rng.random() - 1.5)
        for card in CARDS
    }
    return sorted(CARDS, key=lambda card: guess[card])


def _bot_value(state: State, player: str, rng: core.Rng) -> int:
    """A prediction or bid: what the bot expects to get right, sometimes bolder when its team is behind."""
    team = _team_of(state, player)
    level = _bot_level(state, player)
    expected = right_count(_belief(state, player), _answer(state))
    value = max([v for v in DIE_VALUES if v <= expected], default=DIE_VALUES[0])
    if rng.random() > BOT_CONFIDENCE[level]:
        value = rng.choice(DIE_VALUES)
    behind = state["teams"][_other(team)]["pos"] - state["teams"][team]["pos"]
    if state["phase"] == BID and state["q"]["mini"] == "pink" and behind >= 3 and rng.random() < 0.5:
        value = DIE_VALUES[min(DIE_VALUES.index(value) + 1, len(DIE_VALUES) - 1)]  # gamble when behind
    return value


def _bot_final_retry(state: State, player: str) -> list[int]:
    """Rethink, keeping to what the team was told: as many cards wrong as last time."""
    first = state["q"]["attempts"][0]
    for attempt in range(40):
        order = _belief(state, player, salt=f"retry{attempt}")
        if order != first["order"] and right_count(order, first["order"]) == 5 - first["wrong"]:
            return order
    return _belief(state, player, salt="retry")


def _bot_action(state: State, player: str, rng: core.Rng) -> dict[str, Any]:
    q, phase = state["q"], state["phase"]
    team = _team_of(state, player)
    captain = q["captain"].get(team) == player
    if phase in RACK_PHASES:
        if phase == FINAL and q["attempts"]:
            wanted = _bot_final_retry(state, player)
        else:
            wanted = _belief(state, player)
        mine = q["own"].get(player)
        if captain and mine is not None:
            return {"type": "confirm"}
        return {"type": "rack", "order": wanted}
    if phase in CHOICE_PHASES:
        if captain and q["proposal"].get(team, {}).get("by") == player:
            return {"type": "confirm"}
        return {"type": phase, "value": _bot_value(state, player, rng)}
    star = q["star"]
    if captain and star["proposal"] is not None and star["proposal"]["by"] == player:
        return {"type": "confirm"}
    if len(star["laid"]) >= BOT_STAR_CARDS[_bot_level(state, player)]:
        return {"type": "stop"}
    belief = _belief(state, player)
    taken_cards = {c["card"] for c in star["laid"]}
    taken_places = {c["position"] for c in star["laid"]}
    for position, card in enumerate(belief, start=1):
        if position not in taken_places and card not in taken_cards:
            return {"type": "lay", "card": card, "position": position}
    free_card = next(c for c in CARDS if c not in taken_cards)
    free_place = next(p for p in CARDS if p not in taken_places)
    return {"type": "lay", "card": free_card, "position": free_place}
