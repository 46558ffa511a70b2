"""What each viewer may see of a Line-it table. Deny by default: every view is built from scratch.

Everyone sees the market, every player's line (faces, direction, Bet card), bet tokens, scoring-pile *count*
and hand *count*, the four jackpot piles (face up), the deck and discard *counts*, whose turn it is and the
clock. A player additionally sees their own hand. Nobody ever sees another player's hand, the deck's order
or contents, the discard pile's contents, the seed or the generator state; a card's exact value is shown only
once it has been scored (in the log of that scoring) and for every visible card when the game is over.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.engine import core
from games.engine.core import State, Viewer

from .cards import COLOURS
from .rules import (
    GAME,
    HAND_LIMIT,
    card_of,
    is_number,
    line_bet,
    market_size,
    outcome_of,
    rotation,
    score_of,
)

_CARD_LIST_KEYS = ("cards", "market", "discarded")


def card_view(state: State, card_id: str, *, reveal: bool = False) -> dict[str, Any]:
    card = card_of(state, card_id)
    view = {
        "id": card_id,
        "kind": card["kind"],
        "colour": card["colour"],
        "symbol": COLOURS.get(str(card["colour"])),
        "face": card["face"],
    }
    if reveal or card["kind"] == "bet" or state["phase"] == "over":
        view["value"] = card["value"]
    return view


def _line_view(state: State, player: str) -> dict[str, Any]:
    cards = state["lines"][player]["cards"]
    bet = line_bet(state, player)
    bet_view = None
    if bet is not None:
        after = sum(1 for c in cards[cards.index(bet) + 1 :] if is_number(state, c))
        bet_view = {"card": bet, "bet": int(str(card_of(state, bet)["value"])), "cards_after": after}
    colours = {colour: 0 for colour in COLOURS}
    for card_id in cards:
        if is_number(state, card_id):
            colours[str(card_of(state, card_id)["colour"])] += 1
    return {
        "cards": [card_view(state, c) for c in cards],
        "direction": state["lines"][player]["direction"],
        "bet": bet_view,
        "colour_counts": colours,
    }


def _player_view(state: State, player: str) -> dict[str, Any]:
    return {
        "id": player,
        "name": state["names"][player],
        "bot": state["bots"][player] is not None,
        "line": _line_view(state, player),
        "hand_count": len(state["hands"][player]),
        "pile_count": len(state["piles"][player]),
        "tokens": list(state["tokens"][player]),
        "score": score_of(state, player),
    }


def _render_entry(state: State, entry: dict[str, Any], me: str | None) -> dict[str, Any]:
    """A log entry for this viewer: card ids become card views; a card taken into a hand is shown only to
    the hand's owner."""
    reveal = entry["type"] == "score"
    rendered: dict[str, Any] = {}
    for key, value in entry.items():
        if key == "hidden_from_others":
            continue
        if key == "card":
            if entry.get("hidden_from_others") and entry.get("player") != me:
                continue
            rendered[key] = card_view(state, value, reveal=reveal)
        elif key in _CARD_LIST_KEYS:
            rendered[key] = [card_view(state, c, reveal=reveal) for c in value]
        elif key == "moved":
            rendered[key] = {place: [card_view(state, c) for c in ids] for place, ids in value.items()}
        else:
            rendered[key] = value
    return rendered


def _turn_view(state: State) -> dict[str, Any] | None:
    turn = state["turn"]
    if turn is None:
        return None
    return {"player": turn["player"], "step": turn["step"], "played_from_hand": turn["played"]}


def build_view(state: State, viewer: Viewer) -> dict[str, Any]:
    return {**public_part(state), **own_part(state, viewer)}


def parts_of(state: State, viewers: list[Viewer]) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """``build_view`` for each viewer in two parts (``Engine.view_parts``): what everyone sees (the
    market, the lines, the jackpots) built once for all; each viewer's own part holds the log as they
    may read it and a player's hand. A log entry that reads the same to everyone is built once too."""
    public = public_part(state)
    entries: dict[tuple[int, bool], dict[str, Any]] = {}
    return (("all", public, own_part(state, viewer, entries)) for viewer in viewers)


def public_part(state: State) -> dict[str, Any]:
    """What every viewer sees alike."""
    return {
        "game": GAME,
        "phase": state["phase"],
        "level": state["level"],
        "round": state["round"],
        "rounds_left": len(state["deck"]) // market_size(state),
        "deck_count": len(state["deck"]),
        "discard_count": len(state["discard"]),
        "market_size": market_size(state),
        "hand_limit": HAND_LIMIT,
        "market": [card_view(state, c) for c in state["market"]],
        "turn": _turn_view(state),
        "whose_turn": state["turn"]["player"] if state["turn"] else None,
        "first_player": rotation(state)[0],
        "players": [_player_view(state, p) for p in state["order"]],
        "jackpots": [
            {
                "colour": colour,
                "symbol": symbol,
                "count": len(state["jackpots"][colour]),
                "cards": [card_view(state, c) for c in state["jackpots"][colour]],
            }
            for colour, symbol in COLOURS.items()
        ],
        "clock": core.clock_view(state),
        "outcome": outcome_of(state) if state["phase"] == "over" else None,
    }


def own_part(
    state: State, viewer: Viewer, entries: dict[tuple[int, bool], dict[str, Any]] | None = None
) -> dict[str, Any]:
    """Who the viewer is, the log as they may read it (a card taken into a hand shows to its owner only)
    and a player's own hand. ``entries``: the log entries already rendered for other viewers of this
    state, by (position, whether its hidden card shows)."""
    role = viewer.get("role") if isinstance(viewer, dict) else None
    if role not in ("player", "teacher", "projector"):
        role = "spectator"
    me = viewer.get("player") if role == "player" else None
    if me not in state["order"]:
        me = None
    entries = {} if entries is None else entries
    log = []
    for position, entry in enumerate(state["log"]):
        # an entry reads one of two ways: with its hidden card (to its owner) or without
        shown = not entry.get("hidden_from_others") or entry.get("player") == me
        if (position, shown) not in entries:
            entries[position, shown] = _render_entry(state, entry, me)
        log.append(entries[position, shown])
    own: dict[str, Any] = {"role": role, "log": log}
    if me is not None:
        own["you"] = {"player": me, "hand": [card_view(state, c) for c in state["hands"][me]]}
    if role == "teacher":
        own["settings"] = {"turn_seconds": state["settings"]["turn_seconds"]}
    return own
