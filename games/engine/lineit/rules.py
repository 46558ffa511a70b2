"""Line-it rules as state transitions. Every function here works on a state the caller has already cloned.

Where the rulebook is silent, these are the decisions (also in docs/games/lineit.md, "Rule decisions"):

* **Which three cards are discarded when a line is scored**: the rulebook discards three cards of the line
  and scores the rest. A Bet card in the line is one of the three (it becomes the +bet or -bet token);
  the others are the *first number cards of the line*, the ones it started with. Every number card in a
  scoring pile is worth exactly one point, so *which* number cards never changes a score. Fixing them to the
  oldest keeps scoring automatic, needs no extra decision from a student and keeps the newest (most recently
  compared) cards visible in the reveal. A line of three or fewer cards scores nothing.
* **Jackpots**: a card completes a colour when it is the *third* number card of that colour *in the current
  line* (after the placement the line holds exactly three of that colour). The claim happens at once, from a
  placement out of the market or the hand. The 4th, 5th ... card of that colour claims nothing more; a new
  line counts again from zero. An empty jackpot pile gives nothing. Jackpot piles are face up: every card in
  them was seen in the market (or, at the very end, is the last of the deck, when nothing is hidden any more).
* **Turn order**: the first seat in ``config["players"]`` drafts first in round 1; the first-player token
  then passes to the next seat every round, so everyone gets first pick as often as possible. The final
  phase starts with the player who holds the token for the round that could not be laid out.
* **Forced scoring** is an explicit move (``take ... to "new_line"``) and it is the only time a line may be
  scored before the drafted card is placed; it is allowed only when the card fits neither the line (a number
  against the direction, or a second Bet) nor the hand (two cards already).
* **A turn**: take (compulsory), then optionally play one card from the hand, then either score the line
  (which ends the turn) or end the turn. A line that is empty cannot be scored during the draft.
* **Final phase**: each player in turn may play one card from the hand (it must fit), then scores the line.
  Cards still in hand are discarded and worth nothing.
* **Card ids are per table** (``card_ids``, default ``"shuffled"``): the deck's fixed ids (``c001`` ...
  ``c106``) follow the sorted values, so a student who read ids (in the page or the websocket traffic) would
  know which of two cards is bigger without comparing them. Each table therefore gets its own random ids
  (``k001`` ... ``k106`` dealt by a generator derived from the secret seed); the state, the views, the log and
  the actions all use them, and :func:`canonical_id` maps them back to the deck. ``"plain"`` keeps the fixed
  ids (the rule tests name cards by number that way).
* **Timed turns** (``turn_seconds``, default 45; ``None`` for untimed tables): when the deadline passes the
  server plays for the player: it takes the market number card that fits the line with the smallest gap
  (for an empty line, the one nearest the middle of the deck); if none fits, the leftmost market card goes to
  the hand; if the hand is full, a Bet card goes to the line if it can; otherwise the line is scored and a new
  one started with the number card nearest the middle. It never plays from the hand and never scores by
  choice. In the final phase the default is to score the line. The turn then ends.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from games.engine import core
from games.engine.core import Event, IllegalAction, State, _

from .cards import COLOURS, LEVELS, cards_for, exact_values

GAME = "lineit"
HAND_LIMIT = 2
LINE_DISCARD = 3
LOG_LIMIT = 30
MAX_ID_LENGTH = 16
DEFAULT_TURN_SECONDS = 45.0
CARD_ID_MODES = ("shuffled", "plain")
TAKE_DESTINATIONS = ("line", "hand", "new_line")
ACTION_KEYS: dict[str, frozenset[str]] = {
    "take": frozenset({"type", "card", "to"}),
    "play": frozenset({"type", "card"}),
    "score": frozenset({"type"}),
    "end": frozenset({"type"}),
}


# --------------------------------------------------------------------------------------------------
# Setup
# --------------------------------------------------------------------------------------------------


def _check_players(players: Any) -> list[dict[str, Any]]:
    if not isinstance(players, list) or not 2 <= len(players) <= 5:
        raise ValueError("Line-it needs 2 to 5 players in config['players']")
    ids = []
    for seat in players:
        if not isinstance(seat, dict) or not isinstance(seat.get("id"), str) or not seat["id"]:
            raise ValueError("every player needs a non-empty string 'id'")
        if seat.get("bot") not in (None, "easy", "medium", "hard"):
            raise ValueError("a player's 'bot' must be 'easy', 'medium' or 'hard'")
        ids.append(seat["id"])
    if len(set(ids)) != len(ids) or core.TEACHER in ids:
        raise ValueError("player ids must be unique")
    return players


def _check_level(level: Any) -> int:
    if isinstance(level, bool) or level not in LEVELS:
        raise ValueError(f"config['level'] must be one of {LEVELS}")
    return int(level)


def _check_seconds(seconds: Any) -> float | None:
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 1 <= seconds <= 3600:
        raise ValueError("config['turn_seconds'] must be between 1 and 3600 seconds, or None")
    return float(seconds)


def _check_card_ids(mode: Any) -> str:
    if mode not in CARD_ID_MODES:
        raise ValueError(f"config['card_ids'] must be one of {CARD_ID_MODES}")
    return str(mode)


def card_ids(level: int, seed: str, mode: str) -> dict[str, str] | None:
    """``{table id: deck id}`` for a table (None: the deck's own ids). The ids are dealt by a generator of
    their own, derived from the secret seed, so the game's generator (and so the deal) does not change."""
    if mode == "plain":
        return None
    deck_ids = sorted(cards_for(level))
    labels = core.Rng(f"{seed}:card-ids").shuffled([f"k{i:03d}" for i in range(1, len(deck_ids) + 1)])
    return dict(sorted(zip(labels, deck_ids, strict=True)))


def new_state(config: dict[str, Any], seed: str, now: float) -> State:
    players = _check_players(config.get("players"))
    level = _check_level(config.get("level", 3))
    ids = card_ids(level, seed, _check_card_ids(config.get("card_ids", "shuffled")))
    order = [seat["id"] for seat in players]
    rng = core.Rng(seed)
    deck = rng.shuffled(sorted(ids) if ids else sorted(cards_for(level)))
    state: State = {
        "game": GAME,
        "level": level,
        "ids": ids,
        "settings": {"turn_seconds": _check_seconds(config.get("turn_seconds", DEFAULT_TURN_SECONDS))},
        "order": order,
        "names": {seat["id"]: str(seat.get("name") or seat["id"]) for seat in players},
        "bots": {seat["id"]: seat.get("bot") for seat in players},
        "phase": "draft",
        "round": 0,
        "first": 0,
        "acted": [],
        "turn": None,
        "deck": deck,
        "market": [],
        "hands": {p: [] for p in order},
        "lines": {p: blank_line() for p in order},
        "piles": {p: [] for p in order},
        "tokens": {p: [] for p in order},
        "jackpots": {colour: [] for colour in COLOURS},
        "discard": [],
        "log": [],
        "seq": 0,
        "clock": {"deadline": None, "remaining": None, "paused": False},
        "rng": rng.to_state(),
    }
    core.allowances_store(state, config)
    start_round(state, now, [])
    return state


def blank_line() -> dict[str, Any]:
    return {"cards": [], "direction": None}


def market_size(state: State) -> int:
    return len(state["order"]) + 2


# --------------------------------------------------------------------------------------------------
# Card facts
# --------------------------------------------------------------------------------------------------


def canonical_id(state: State, card_id: str) -> str:
    """The deck's own id of a card of this table (see "Card ids are per table" above)."""
    ids = state.get("ids")
    return ids[card_id] if ids else card_id


def card_ids_of(state: State) -> list[str]:
    """Every card id of this table (106)."""
    ids = state.get("ids")
    return sorted(ids) if ids else sorted(cards_for(state["level"]))


def card_of(state: State, card_id: str) -> dict[str, Any]:
    return cards_for(state["level"])[canonical_id(state, card_id)]


def value_of(state: State, card_id: str) -> Fraction:
    return exact_values(state["level"])[canonical_id(state, card_id)]


def is_number(state: State, card_id: str) -> bool:
    return card_of(state, card_id)["kind"] == "number"


def face_of(state: State, card_id: str) -> str:
    return str(card_of(state, card_id)["face"])


def line_numbers(state: State, player: str) -> list[str]:
    return [c for c in state["lines"][player]["cards"] if is_number(state, c)]


def line_bet(state: State, player: str) -> str | None:
    return next((c for c in state["lines"][player]["cards"] if not is_number(state, c)), None)


def line_end(state: State, player: str) -> str | None:
    numbers = line_numbers(state, player)
    return numbers[-1] if numbers else None


def all_locations(state: State) -> list[list[str]]:
    """Every place a card can be: used by the invariant "each card is in exactly one place"."""
    places = [state["deck"], state["market"], state["discard"]]
    for player in state["order"]:
        places += [state["hands"][player], state["lines"][player]["cards"], state["piles"][player]]
    return places + [state["jackpots"][colour] for colour in COLOURS]


def score_of(state: State, player: str) -> int:
    return len(state["piles"][player]) + sum(state["tokens"][player])


def fit_problem(state: State, player: str, card_id: str) -> IllegalAction | None:
    """Why ``card_id`` cannot join ``player``'s line, or None if it fits."""
    if not is_number(state, card_id):
        if line_bet(state, player) is not None:
            return IllegalAction(
                _("Your line already has a Bet card: only one Bet per line."), code="one_bet"
            )
        return None
    end = line_end(state, player)
    direction = state["lines"][player]["direction"]
    if end is None or direction is None:
        return None
    card_value, end_value = value_of(state, card_id), value_of(state, end)
    faces = {"card": face_of(state, card_id), "end": face_of(state, end)}
    if direction == "up" and card_value < end_value:
        return IllegalAction(
            _("%(card)s is less than %(end)s: this line goes up"), code="breaks_line", direction="up", **faces
        )
    if direction == "down" and card_value > end_value:
        return IllegalAction(
            _("%(card)s is greater than %(end)s: this line goes down"),
            code="breaks_line",
            direction="down",
            **faces,
        )
    return None


def fits_line(state: State, player: str, card_id: str) -> bool:
    return fit_problem(state, player, card_id) is None


# --------------------------------------------------------------------------------------------------
# Log and events
# --------------------------------------------------------------------------------------------------


def log_public(state: State, entry: dict[str, Any]) -> None:
    """Keep the last happenings for the views. ``hidden_from_others`` marks a card only its owner may see."""
    state["seq"] += 1
    state["log"].append({"n": state["seq"], **entry})
    del state["log"][:-LOG_LIMIT]


def event(state: State, kind: str, now: float, **data: Any) -> Event:
    """An event for the runtime's log and for :func:`facts`; carries the table level and whether the
    player is a computer player (facts are written for students only)."""
    player = data.get("player")
    bot = state["bots"].get(player) is not None if player else False
    return {"type": kind, "game": GAME, "level": state["level"], "at": now, "bot": bot, **data}


def card_record(state: State, card_id: str) -> dict[str, Any]:
    card = card_of(state, card_id)
    return {
        "id": card_id,
        "kind": card["kind"],
        "colour": card["colour"],
        "face": card["face"],
        "value": card["value"],
    }


def time_taken(state: State, now: float) -> float | None:
    turn = state.get("turn") or {}
    started = turn.get("started")
    return None if started is None else max(0.0, now - started)


# --------------------------------------------------------------------------------------------------
# Rounds and turns
# --------------------------------------------------------------------------------------------------


def rotation(state: State) -> list[str]:
    order = state["order"]
    first = state["first"] % len(order)
    return order[first:] + order[:first]


def start_turn(state: State, player: str, now: float) -> None:
    step = "take" if state["phase"] == "draft" else "final"
    state["turn"] = {"player": player, "step": step, "played": False, "started": now}
    core.clock_start_for(state, now, state["settings"]["turn_seconds"], [player])


def start_round(state: State, now: float, events: list[Event]) -> None:
    size = market_size(state)
    state["acted"] = []
    if len(state["deck"]) < size:
        start_final(state, now, events)
        return
    state["round"] += 1
    state["market"], state["deck"] = state["deck"][:size], state["deck"][size:]
    # No card list here: a market card may later go into a hand, and a hand is never shown to others.
    log_public(state, {"type": "round", "round": state["round"], "first": rotation(state)[0]})
    events.append(
        event(
            state,
            "round",
            now,
            round=state["round"],
            first=rotation(state)[0],
            market=[card_record(state, c) for c in state["market"]],
        )
    )
    start_turn(state, rotation(state)[0], now)


def _bury(state: State, card_ids: list[str]) -> dict[str, list[str]]:
    """Unchosen cards: Bet cards are discarded, number cards go under the jackpot of their colour."""
    moved: dict[str, list[str]] = {"discard": []}
    for card_id in card_ids:
        if is_number(state, card_id):
            colour = str(card_of(state, card_id)["colour"])
            state["jackpots"][colour].append(card_id)
            moved.setdefault(colour, []).append(card_id)
        else:
            state["discard"].append(card_id)
            moved["discard"].append(card_id)
    return moved


def end_round(state: State, now: float, events: list[Event]) -> None:
    leftovers, state["market"] = state["market"], []
    moved = _bury(state, leftovers)
    log_public(state, {"type": "leftovers", "round": state["round"], "moved": moved})
    events.append(event(state, "leftovers", now, round=state["round"], moved=moved))
    state["first"] = (state["first"] + 1) % len(state["order"])
    start_round(state, now, events)


def start_final(state: State, now: float, events: list[Event]) -> None:
    """The market cannot be laid out: the rest of the deck goes under the jackpots, then the last plays."""
    rest, state["deck"] = state["deck"], []
    moved = _bury(state, rest)
    state["phase"] = "final"
    log_public(state, {"type": "final", "moved": moved, "first": rotation(state)[0]})
    events.append(event(state, "final", now, moved=moved))
    start_turn(state, rotation(state)[0], now)


def end_turn(state: State, now: float, events: list[Event]) -> None:
    player = state["turn"]["player"]
    state["acted"].append(player)
    if state["phase"] == "final" and state["hands"][player]:
        dropped, state["hands"][player] = state["hands"][player], []
        state["discard"].extend(dropped)
        log_public(state, {"type": "hand_discarded", "player": player, "count": len(dropped)})
    waiting = [p for p in rotation(state) if p not in state["acted"]]
    if waiting:
        start_turn(state, waiting[0], now)
    elif state["phase"] == "draft":
        end_round(state, now, events)
    else:
        finish(state, now, events)


def outcome_of(state: State) -> dict[str, Any]:
    scores = {p: score_of(state, p) for p in state["order"]}
    best = max(scores.values())
    return {
        "winners": [p for p in state["order"] if scores[p] == best],
        "scores": scores,
        "piles": {p: len(state["piles"][p]) for p in state["order"]},
        "tokens": {p: list(state["tokens"][p]) for p in state["order"]},
    }


def finish(state: State, now: float, events: list[Event]) -> None:
    state["phase"] = "over"
    state["turn"] = None
    core.clock_stop(state)
    result = outcome_of(state)
    log_public(state, {"type": "game_over", **result})
    for rank_player in state["order"]:
        events.append(
            event(
                state,
                "final_score",
                now,
                player=rank_player,
                score=result["scores"][rank_player],
                pile=result["piles"][rank_player],
                tokens=result["tokens"][rank_player],
                won=rank_player in result["winners"],
                shared=len(result["winners"]) > 1,
            )
        )


# --------------------------------------------------------------------------------------------------
# Moves
# --------------------------------------------------------------------------------------------------


def add_to_line(
    state: State, player: str, card_id: str, source: str, now: float, events: list[Event]
) -> None:
    line = state["lines"][player]
    end = line_end(state, player)
    sets_direction = False
    if is_number(state, card_id) and end is not None and line["direction"] is None:
        line["direction"] = "up" if value_of(state, card_id) > value_of(state, end) else "down"
        sets_direction = True
    line["cards"].append(card_id)
    log_public(
        state,
        {
            "type": "place",
            "player": player,
            "card": card_id,
            "source": source,
            "direction": line["direction"],
            "sets_direction": sets_direction,
        },
    )
    events.append(
        event(
            state,
            "place",
            now,
            player=player,
            card=card_record(state, card_id),
            source=source,
            end=card_record(state, end) if end is not None and is_number(state, card_id) else None,
            direction=line["direction"],
            sets_direction=sets_direction,
            time_taken=time_taken(state, now),
        )
    )
    if is_number(state, card_id):
        claim_jackpot(state, player, str(card_of(state, card_id)["colour"]), now, events)


def claim_jackpot(state: State, player: str, colour: str, now: float, events: list[Event]) -> None:
    same_colour = [c for c in line_numbers(state, player) if card_of(state, c)["colour"] == colour]
    if len(same_colour) != 3 or not state["jackpots"][colour]:
        return
    claimed, state["jackpots"][colour] = state["jackpots"][colour], []
    state["piles"][player].extend(claimed)
    log_public(state, {"type": "jackpot", "player": player, "colour": colour, "count": len(claimed)})
    events.append(
        event(
            state,
            "jackpot",
            now,
            player=player,
            colour=colour,
            count=len(claimed),
            cards=[card_record(state, c) for c in claimed],
        )
    )


def numbers_discarded(state: State, player: str) -> int:
    """How many number cards scoring the line discards: three cards of the line go, and its Bet card, if it
    has one, is one of them."""
    return LINE_DISCARD - (1 if line_bet(state, player) is not None else 0)


def score_line(state: State, player: str, now: float, events: list[Event], *, forced: bool) -> None:
    line = state["lines"][player]
    cards = list(line["cards"])
    numbers = [c for c in cards if is_number(state, c)]
    bet = line_bet(state, player)
    bet_result = None
    if bet is not None:
        amount = int(value_of(state, bet))
        after = sum(1 for c in cards[cards.index(bet) + 1 :] if is_number(state, c))
        won = after >= amount
        state["tokens"][player].append(amount if won else -amount)
        state["discard"].append(bet)
        bet_result = {"bet": amount, "after": after, "won": won, "token": amount if won else -amount}
    kept_back = numbers_discarded(state, player)
    discarded, banked = numbers[:kept_back], numbers[kept_back:]
    state["discard"].extend(discarded)
    state["piles"][player].extend(banked)
    state["lines"][player] = blank_line()
    log_public(
        state,
        {
            "type": "score",
            "player": player,
            "forced": forced,
            "cards": cards,
            "discarded": discarded,
            "banked": len(banked),
            "bet": bet_result,
        },
    )
    events.append(
        event(
            state,
            "score",
            now,
            player=player,
            forced=forced,
            cards=[card_record(state, c) for c in cards],
            discarded=discarded,
            banked=len(banked),
            bet=bet_result,
        )
    )


# --------------------------------------------------------------------------------------------------
# Validation and dispatch
# --------------------------------------------------------------------------------------------------


def parse_action(action: Any) -> tuple[str, str | None, str | None]:
    """``(type, card, to)`` of a well-formed action; IllegalAction for anything else."""
    if not isinstance(action, dict):
        raise IllegalAction(_("That is not a move this game understands."), code="malformed")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in ACTION_KEYS:
        raise IllegalAction(_("That is not a move this game understands."), code="unknown_action")
    if set(action) != ACTION_KEYS[kind]:
        raise IllegalAction(_("That move is missing something or has something extra."), code="malformed")
    card = action.get("card")
    if "card" in action and (not isinstance(card, str) or not 0 < len(card) <= MAX_ID_LENGTH):
        raise IllegalAction(_("Pick a card."), code="bad_card")
    to = action.get("to")
    if "to" in action and (not isinstance(to, str) or to not in TAKE_DESTINATIONS):
        raise IllegalAction(_("Put the card in your line or in your hand."), code="bad_destination")
    return kind, card, to


def check_turn(state: State, player: Any) -> None:
    if state["phase"] == "over":
        raise IllegalAction(_("The game is over."), code="game_over")
    if not isinstance(player, str) or player not in state["order"]:
        raise IllegalAction(_("You are not playing at this table."), code="not_a_player")
    current = state["turn"]["player"]
    if player != current:
        raise IllegalAction(_("It is %(name)s's turn."), code="not_your_turn", name=state["names"][current])


def do_take(state: State, player: str, card: str, to: str, now: float, events: list[Event]) -> None:
    step = state["turn"]["step"]
    if step == "final":
        raise IllegalAction(
            _("The market is closed: play a card from your hand or score your line."), code="wrong_phase"
        )
    if step != "take":
        raise IllegalAction(_("You have already taken a card this turn."), code="already_taken")
    if card not in state["market"]:
        raise IllegalAction(_("That card is not in the market."), code="not_in_market")
    hand_full = len(state["hands"][player]) >= HAND_LIMIT
    problem = fit_problem(state, player, card)
    if to == "line" and problem is not None:
        raise problem
    if to == "hand" and hand_full:
        raise IllegalAction(_("Your hand is full: you can hold at most two cards."), code="hand_full")
    if to == "new_line" and problem is None:
        raise IllegalAction(
            _(
                "This card fits your line: you may only start a new line with a card that "
                "fits neither your line nor your hand."
            ),
            code="fits_line",
        )
    if to == "new_line" and not hand_full:
        raise IllegalAction(
            _(
                "Your hand still has room: you may only start a new line with a card that "
                "fits neither your line nor your hand."
            ),
            code="hand_has_room",
        )
    state["market"].remove(card)
    if to == "hand":
        state["hands"][player].append(card)
        log_public(
            state, {"type": "take", "player": player, "to": "hand", "card": card, "hidden_from_others": True}
        )
        events.append(event(state, "take", now, player=player, to="hand", card=card_record(state, card)))
    else:
        log_public(state, {"type": "take", "player": player, "to": to, "card": card})
        events.append(event(state, "take", now, player=player, to=to, card=card_record(state, card)))
        if to == "new_line":
            score_line(state, player, now, events, forced=True)
        add_to_line(state, player, card, "market", now, events)
    state["turn"]["step"] = "after"


def do_play(state: State, player: str, card: str, now: float, events: list[Event]) -> None:
    turn = state["turn"]
    if turn["step"] == "take":
        raise IllegalAction(_("Take a card from the market first."), code="take_first")
    if turn["played"]:
        raise IllegalAction(
            _("You have already played a card from your hand this turn."), code="already_played"
        )
    if card not in state["hands"][player]:
        raise IllegalAction(_("That card is not in your hand."), code="not_in_hand")
    problem = fit_problem(state, player, card)
    if problem is not None:
        raise problem
    state["hands"][player].remove(card)
    add_to_line(state, player, card, "hand", now, events)
    turn["played"] = True


def do_score(state: State, player: str, now: float, events: list[Event]) -> None:
    step = state["turn"]["step"]
    if step == "take":
        raise IllegalAction(_("Take a card from the market first."), code="take_first")
    if step == "after" and not state["lines"][player]["cards"]:
        raise IllegalAction(_("Your line is empty: there is nothing to score."), code="empty_line")
    score_line(state, player, now, events, forced=False)
    end_turn(state, now, events)


def do_end(state: State, player: str, now: float, events: list[Event]) -> None:
    step = state["turn"]["step"]
    if step == "take":
        raise IllegalAction(_("Take a card from the market first."), code="take_first")
    if step == "final":
        raise IllegalAction(_("The game is ending: score your line to finish."), code="must_score")
    log_public(state, {"type": "end_turn", "player": player})
    end_turn(state, now, events)


def apply_action(state: State, player: Any, action: Any, now: float) -> list[Event]:
    """Validate and perform ``action`` on ``state`` (already a private copy). Raises IllegalAction before
    changing anything."""
    kind, card, to = parse_action(action)
    check_turn(state, player)
    events: list[Event] = []
    if kind == "take":
        do_take(state, player, str(card), str(to), now, events)
    elif kind == "play":
        do_play(state, player, str(card), now, events)
    elif kind == "score":
        do_score(state, player, now, events)
    else:
        do_end(state, player, now, events)
    return events


# --------------------------------------------------------------------------------------------------
# Legal moves and the deadline's default move
# --------------------------------------------------------------------------------------------------


def legal_moves(state: State, player: str) -> list[dict[str, Any]]:
    if state["phase"] == "over" or state["turn"]["player"] != player:
        return []
    turn = state["turn"]
    if turn["step"] == "take":
        return take_moves(state, player)
    moves: list[dict[str, Any]] = []
    if not turn["played"]:
        moves += [{"type": "play", "card": c} for c in state["hands"][player] if fits_line(state, player, c)]
    if turn["step"] == "final" or state["lines"][player]["cards"]:
        moves.append({"type": "score"})
    if turn["step"] == "after":
        moves.append({"type": "end"})
    return moves


def take_moves(state: State, player: str) -> list[dict[str, Any]]:
    hand_full = len(state["hands"][player]) >= HAND_LIMIT
    moves = []
    for card in state["market"]:
        fits = fits_line(state, player, card)
        if fits:
            moves.append({"type": "take", "card": card, "to": "line"})
        if not hand_full:
            moves.append({"type": "take", "card": card, "to": "hand"})
        if not fits and hand_full:
            moves.append({"type": "take", "card": card, "to": "new_line"})
    return moves


def _middle_distance(state: State, card_id: str) -> float:
    return abs(float(card_of(state, card_id)["rank"]) - 49.5)


def default_take(state: State, player: str) -> dict[str, Any]:
    """The deadline's draft move (see the module docstring)."""
    market = state["market"]
    numbers = [c for c in market if is_number(state, c)]
    fitting = [c for c in numbers if fits_line(state, player, c)]
    end = line_end(state, player)
    if fitting and end is None:
        return {"type": "take", "card": min(fitting, key=lambda c: _middle_distance(state, c)), "to": "line"}
    if fitting and end is not None:
        end_value = value_of(state, end)
        gap = lambda c: abs(value_of(state, c) - end_value)  # noqa: E731
        return {"type": "take", "card": min(fitting, key=gap), "to": "line"}
    if len(state["hands"][player]) < HAND_LIMIT:
        return {"type": "take", "card": market[0], "to": "hand"}
    bets = [c for c in market if not is_number(state, c) and fits_line(state, player, c)]
    if bets:
        return {"type": "take", "card": bets[0], "to": "line"}
    pool = numbers or market
    return {
        "type": "take",
        "card": min(pool, key=lambda c: _middle_distance(state, c) if is_number(state, c) else 100.0),
        "to": "new_line",
    }


def deadline_move(state: State, now: float) -> list[Event]:
    """Play the current player's default move and end their turn."""
    turn = state["turn"]
    player = turn["player"]
    events = [event(state, "timeout", now, player=player, step=turn["step"])]
    log_public(state, {"type": "timeout", "player": player})
    if turn["step"] == "take":
        move = default_take(state, player)
        do_take(state, player, move["card"], move["to"], now, events)
        for happened in events:
            if happened["type"] == "place":
                happened["by_clock"] = True  # the server's choice: not the student's comparison
    if turn["step"] == "final":
        score_line(state, player, now, events, forced=False)
    end_turn(state, now, events)
    return events
