"""A computer player for Line-it. It reasons in *ranks* (a card's place 0-99 in the sorted deck), so the same
strategy plays every level. Each legal move gets a heuristic value; ``hard`` takes the best, ``medium`` adds
a little noise, ``easy`` adds more noise and sometimes plays any legal move.

What it values: small steps along the line (keep room to grow), the third card of a colour when that
jackpot pile is full, a Bet card early in a roomy line while enough rounds remain, playing a good card from
the hand, and scoring a line only when it is stuck (little room left) and would pay.
"""

from __future__ import annotations

from games.engine import core
from games.engine.core import Action, Rng, State

from .rules import (
    HAND_LIMIT,
    apply_action,
    card_of,
    fits_line,
    is_number,
    legal_moves,
    line_bet,
    line_end,
    line_numbers,
    market_size,
    numbers_discarded,
    value_of,
)

TOP_RANK = 99
NOISE = {"easy": 0.8, "medium": 0.25, "hard": 0.0}
RANDOM_MOVE_CHANCE = {"easy": 0.3, "medium": 0.0, "hard": 0.0}
STUCK_ROOM = {"easy": 3, "medium": 6}


def _rank(state: State, card_id: str) -> int:
    return int(str(card_of(state, card_id)["rank"]))


def room(state: State, player: str) -> int:
    """How many ranks are left beyond the line's end in its direction (the whole deck for a new line)."""
    end = line_end(state, player)
    if end is None:
        return TOP_RANK
    end_rank = _rank(state, end)
    direction = state["lines"][player]["direction"]
    if direction == "up":
        return TOP_RANK - end_rank
    if direction == "down":
        return end_rank
    return max(end_rank, TOP_RANK - end_rank)


def fit_quality(state: State, player: str, card_id: str) -> float:
    """0 (kills the line) .. 1 (a tiny step) for a number card that fits the line."""
    end = line_end(state, player)
    rank = _rank(state, card_id)
    if end is None:
        return 0.6 + 0.4 * (1 - abs(rank - 49.5) / 50)
    end_rank = _rank(state, end)
    if state["lines"][player]["direction"] is None:
        room_after = TOP_RANK - rank if rank > end_rank else rank
        return 0.3 + 0.7 * room_after / TOP_RANK
    return max(0.0, 1 - abs(rank - end_rank) / (room(state, player) + 1))


def _jackpot_bonus(state: State, player: str, card_id: str) -> float:
    colour = card_of(state, card_id)["colour"]
    same = sum(1 for c in line_numbers(state, player) if card_of(state, c)["colour"] == colour)
    return 0.5 * len(state["jackpots"][str(colour)]) if same == 2 else 0.0


def _bet_pressure(state: State, player: str) -> float:
    bet = line_bet(state, player)
    if bet is None:
        return 0.0
    cards = state["lines"][player]["cards"]
    after = sum(1 for c in cards[cards.index(bet) + 1 :] if is_number(state, c))
    return 0.3 if after < int(value_of(state, bet)) else 0.0


def _rounds_left(state: State) -> int:
    return len(state["deck"]) // market_size(state) + 1


def line_points(state: State, player: str) -> int:
    """What scoring the line now would earn (cards banked plus the bet token)."""
    numbers = line_numbers(state, player)
    points = max(0, len(numbers) - numbers_discarded(state, player))
    bet = line_bet(state, player)
    if bet is not None:
        cards = state["lines"][player]["cards"]
        after = sum(1 for c in cards[cards.index(bet) + 1 :] if is_number(state, c))
        amount = int(value_of(state, bet))
        points += amount if after >= amount else -amount
    return points


def _line_add_value(state: State, player: str, card_id: str) -> float:
    if not is_number(state, card_id):
        amount = int(value_of(state, card_id))
        roomy = room(state, player) >= 45 and len(line_numbers(state, player)) <= 2
        return 1.4 if roomy and _rounds_left(state) > amount + 1 else 0.2
    quality = fit_quality(state, player, card_id)
    return 1 + quality + _jackpot_bonus(state, player, card_id) + _bet_pressure(state, player)


def _take_value(state: State, player: str, move: Action) -> float:
    card_id = move["card"]
    if move["to"] == "line":
        return _line_add_value(state, player, card_id)
    if move["to"] == "hand":
        crowd = 0.25 * len(state["hands"][player])
        if not is_number(state, card_id):
            return 0.3 - crowd
        fits = fits_line(state, player, card_id)
        return 0.5 + 0.5 * (fit_quality(state, player, card_id) if fits else 0.2) - crowd
    # new_line: the line is scored now, then restarts with this card.
    return (
        0.2
        + 0.1 * line_points(state, player)
        + 0.2 * (1 - abs(_rank(state, card_id) - 49.5) / 50 if is_number(state, card_id) else 0)
    )


def _after_value(state: State, player: str, move: Action, strength: str) -> float:
    final = state["turn"]["step"] == "final"
    if move["type"] == "play":
        if final:
            return 2.0
        card_id = move["card"]
        base = 0.3 + (0.6 * fit_quality(state, player, card_id) if is_number(state, card_id) else 0.3)
        return base + _jackpot_bonus(state, player, card_id)
    if move["type"] == "score":
        if final:
            return 1.0
        stuck = room(state, player) <= STUCK_ROOM[strength]
        hand_full = len(state["hands"][player]) >= HAND_LIMIT
        return 1.2 if stuck and (line_points(state, player) > 0 or hand_full) else 0.1
    return 0.5  # end the turn


def evaluate(state: State, player: str, move: Action, strength: str) -> float:
    if move["type"] == "take":
        return _take_value(state, player, move)
    return _after_value(state, player, move, strength)


def choose(state: State, player: str, rng: Rng) -> Action:
    moves = legal_moves(state, player)
    if not moves:
        raise ValueError(f"{player} cannot move now")
    strength = state["bots"].get(player) or "medium"
    if strength not in NOISE:
        strength = "medium"
    if rng.random() < RANDOM_MOVE_CHANCE[strength]:
        return dict(rng.choice(moves))
    if strength == "hard":
        best = max(moves, key=lambda m: lookahead_value(state, player, m))
        return dict(best)
    noise = NOISE[strength]
    best = max(moves, key=lambda m: evaluate(state, player, m, strength) + noise * rng.random())
    return dict(best)


# The hard bot: play each legal move on a copy and estimate the position it leads to. -------------------


def future_turns(state: State, player: str) -> int:
    """Draft turns this player still gets after the current one."""
    if state["phase"] != "draft":
        return 0
    turns = len(state["deck"]) // market_size(state)
    turn = state["turn"]
    waiting = player not in state["acted"] and not (turn["player"] == player and turn["step"] != "take")
    return turns + (1 if waiting else 0)


def _expected_growth(state: State, player: str) -> float:
    """Cards the line may still take: limited by turns left and by its room (a market of k cards offers,
    on average, a step of about 100 / (k + 1) ranks)."""
    step = 100 / (market_size(state) + 1)
    return min(float(future_turns(state, player)), room(state, player) / step)


def _line_estimate(state: State, player: str) -> float:
    if state["phase"] != "draft":
        return float(line_points(state, player))
    growth = _expected_growth(state, player)
    numbers = line_numbers(state, player)
    value = max(0.0, len(numbers) + growth - numbers_discarded(state, player))
    bet = line_bet(state, player)
    if bet is not None:
        cards = state["lines"][player]["cards"]
        after = sum(1 for c in cards[cards.index(bet) + 1 :] if is_number(state, c))
        amount = int(value_of(state, bet))
        chance = min(1.0, max(0.0, 0.5 + (growth - (amount - after)) / 2))
        value += amount * (2 * chance - 1)
    for colour, pile in state["jackpots"].items():
        same = sum(1 for c in numbers if card_of(state, c)["colour"] == colour)
        if same == 2 and growth >= 1:
            value += 0.35 * len(pile)
    return value


def _hand_estimate(state: State, player: str) -> float:
    hand = state["hands"][player]
    if state["phase"] != "draft":
        return 0.0
    value = -0.4 if len(hand) >= HAND_LIMIT else 0.0
    for card_id in hand:
        if not is_number(state, card_id):
            value += 0.3 if line_bet(state, player) is None else 0.05
        elif fits_line(state, player, card_id):
            value += 0.6 * fit_quality(state, player, card_id)
        else:
            value += 0.15
    return value


def position_value(state: State, player: str) -> float:
    banked = len(state["piles"][player]) + sum(state["tokens"][player])
    return banked + _line_estimate(state, player) + _hand_estimate(state, player)


def lookahead_value(state: State, player: str, move: Action) -> float:
    trial = core.clone(state)
    apply_action(trial, player, move, 0.0)
    return position_value(trial, player)
