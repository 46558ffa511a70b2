"""Shared helpers for the Line-it tests (no tests here): tables, arranging cards for a scenario, the
invariants every state must satisfy, and loading this module from the other test files."""

from __future__ import annotations

import itertools
from collections import Counter

from games.engine import core
from games.engine.lineit import LineIt, rules
from games.engine.lineit.cards import COLOUR_ORDER, cards_for

GAME = LineIt()
SEED = "lineit-seed-Qx7v2Rk9"
NAMES = ["Ava", "Ben", "Cleo", "Dev", "Eli"]
# Level-3 Bet cards: c101/c102 are worth 3, c103/c104 are worth 4, c105/c106 are worth 5.
BET3, BET3B, BET4, BET4B, BET5, BET5B = (f"c{n}" for n in range(101, 107))


def config(players: int = 2, level: int = 3, bots: tuple = (), card_ids: str = "plain", **settings) -> dict:
    """A table config. The scenario tests name cards by the deck's fixed ids (``card_ids="plain"``); a live
    table (the engine's default) uses random ids per table, which the property tests also play."""
    seats = [{"id": f"p{i + 1}", "name": NAMES[i]} for i in range(players)]
    for seat, bot in zip(seats, bots, strict=False):
        if bot:
            seat["bot"] = bot
    return {"players": seats, "level": level, "card_ids": card_ids, **settings}


def table(players: int = 2, level: int = 3, seed: str = SEED, now: float = 0.0, **settings) -> dict:
    return GAME.setup(config(players, level, **settings), seed, now=now)


def n(number: int) -> str:
    """The id of level-3 number card ``number`` (1-100)."""
    return f"c{number:03d}"


def colour_of(card_id: str, level: int = 3, state: dict | None = None) -> str:
    """A card's colour: a deck id at ``level``, or any card id of ``state``'s table."""
    if state is not None:
        return str(rules.card_of(state, card_id)["colour"])
    return str(cards_for(level)[card_id]["colour"])


def same_colour(colour: str, count: int, start: int = 1, level: int = 3) -> list[int]:
    """``count`` level-3 numbers of ``colour``, ascending from ``start``."""
    found = [v for v in range(start, 101) if colour_of(n(v), level) == colour]
    return found[:count]


def other_colour_numbers(exclude: str, start: int, count: int) -> list[int]:
    """Ascending level-3 numbers from ``start`` none of which has colour ``exclude``."""
    return [v for v in range(start, 101) if colour_of(n(v)) != exclude][:count]


def by_face(level: int, face: str) -> str:
    return next(cid for cid, card in cards_for(level).items() if card["face"] == face)


def _direction(state: dict, cards: list[str]) -> str | None:
    numbers = [c for c in cards if rules.is_number(state, c)]
    if len(numbers) < 2:
        return None
    return "up" if rules.value_of(state, numbers[1]) > rules.value_of(state, numbers[0]) else "down"


def arrange(
    state: dict, *, market=None, hands=None, lines=None, jackpots=None, piles=None, deck=None, tokens=None
) -> dict:
    """A copy of ``state`` with the named cards moved into place (lines get their direction from their
    first two number cards). Cards displaced from a replaced place go back under the deck; with ``deck``
    given, the deck is exactly that list and every other unplaced card goes to the discard pile."""
    state = core.clone(state)
    state["log"] = []  # the setup's log talks about cards that are now elsewhere
    groups = [market or [], deck or []]
    for mapping in (hands, lines, jackpots, piles):
        groups += list((mapping or {}).values())
    named = [card for group in groups for card in group]
    assert len(named) == len(set(named)), "a card named twice"
    for place in rules.all_locations(state):
        place[:] = [card for card in place if card not in named]
    if market is not None:
        state["deck"] += state["market"]
        state["market"] = list(market)
    for player, cards in (hands or {}).items():
        state["deck"] += state["hands"][player]
        state["hands"][player] = list(cards)
    for player, cards in (lines or {}).items():
        state["deck"] += state["lines"][player]["cards"]
        state["lines"][player] = {"cards": list(cards), "direction": _direction(state, list(cards))}
    for colour, cards in (jackpots or {}).items():
        state["deck"] += state["jackpots"][colour]
        state["jackpots"][colour] = list(cards)
    for player, cards in (piles or {}).items():
        state["deck"] += state["piles"][player]
        state["piles"][player] = list(cards)
    for player, values in (tokens or {}).items():
        state["tokens"][player] = list(values)
    if deck is not None:
        state["discard"] += state["deck"]
        state["deck"] = list(deck)
    check_invariants(state)
    return state


def act(state: dict, player: str, action: dict, now: float = 1.0):
    return GAME.apply(state, player, action, now)


def take(card: str, to: str = "line") -> dict:
    return {"type": "take", "card": card, "to": to}


def check_invariants(state: dict) -> None:
    """What must hold after every step of every game."""
    level = state["level"]
    everywhere = Counter(card for place in rules.all_locations(state) for card in place)
    assert set(everywhere) == set(rules.card_ids_of(state)), "a card is missing or unknown"
    assert len(everywhere) == len(cards_for(level))
    assert max(everywhere.values()) == 1, "a card is in two places"
    assert len(state["market"]) <= rules.market_size(state)
    for player in state["order"]:
        assert len(state["hands"][player]) <= rules.HAND_LIMIT
        line = state["lines"][player]
        numbers = [c for c in line["cards"] if rules.is_number(state, c)]
        bets = [c for c in line["cards"] if not rules.is_number(state, c)]
        assert len(bets) <= 1, "two Bet cards in a line"
        values = [rules.value_of(state, c) for c in numbers]
        if len(values) >= 2:
            expected = "up" if values[1] > values[0] else "down"
            assert line["direction"] == expected
            steps = list(itertools.pairwise(values))
            assert all((b > a) if expected == "up" else (b < a) for a, b in steps), "a line breaks"
        else:
            assert line["direction"] is None
        assert all(rules.is_number(state, c) for c in state["piles"][player]), "a Bet card in a pile"
        assert all(isinstance(t, int) and abs(t) in (3, 4, 5) for t in state["tokens"][player])
    for colour in COLOUR_ORDER:
        assert all(colour_of(c, state=state) == colour for c in state["jackpots"][colour])
    if state["phase"] == "over":
        outcome = GAME.outcome(state)
        for player in state["order"]:
            assert outcome["scores"][player] == len(state["piles"][player]) + sum(state["tokens"][player])
            assert not state["hands"][player] and not state["lines"][player]["cards"]
        best = max(outcome["scores"].values())
        assert outcome["winners"] == [p for p in state["order"] if outcome["scores"][p] == best]
        assert not state["deck"] and not state["market"]
        assert state["clock"]["deadline"] is None
    else:
        assert GAME.current_players(state) == [state["turn"]["player"]]
