"""Fixture content and helpers shared by the Word Up tests (no tests here).

Loaded by path from the other test_wordup files, so it works whatever pytest's import mode is.
"""

from __future__ import annotations

from typing import Any

from games.engine import core
from games.engine.wordup import WordUp
from games.engine.wordup.board import BOARD, CARD_IDS, CATEGORIES

GAME = WordUp()
CODES = {"missing_word": "gapw", "crossword": "clue", "multiple_choice": "pick", "spelling": "spel"}


def word(level: int, category: str, index: int) -> str:
    """A made-up answer that occurs nowhere else, so a secret scan cannot be fooled by a coincidence."""
    return f"{CODES[category]}{level}q{index:02d}zx"


def question(level: int, category: str, index: int, **override: Any) -> dict[str, Any]:
    answer = word(level, category, index)
    base: dict[str, Any] = {
        "id": f"wu-{level}-{category}-{index:02d}",
        "level": level,
        "category": category,
        "answers": [answer],
        "alternatives": [],
    }
    if category == "missing_word":
        base.update(prompt=f"Sentence number {index} has a ____ in it.", letters=len(answer))
    elif category == "crossword":
        base.update(prompt=f"Clue number {index}", first_letter=answer[0])
    elif category == "multiple_choice":
        base.update(
            prompt=f"Which one, number {index}?", choices=[answer, f"decoy{index}a", f"decoy{index}b"]
        )
    else:
        base.update(prompt="Listen and spell the word.", sentence=f"Today the {answer} was late.")
    base.update(override)
    return base


def bank(levels=(1, 2, 3, 4, 5), size: int = 21, special: dict | None = None) -> dict[str, Any]:
    """``size`` generated questions per level and category; ``special[(level, category)]`` goes first."""
    special = special or {}
    result = {}
    for level in levels:
        result[str(level)] = {}
        for category in CATEGORIES:
            items = list(special.get((level, category), []))
            items += [question(level, category, i) for i in range(size)]
            result[str(level)][category] = items
    return result


def config(players: int = 3, levels: list[int] | None = None, bots: list | None = None, **extra) -> dict:
    levels = levels or [1 + i % 5 for i in range(players)]
    seats = []
    for i in range(players):
        seat: dict[str, Any] = {"id": f"p{i}", "name": f"Player {i}", "level": levels[i]}
        if bots is not None and bots[i] is not None:
            seat["bot"] = bots[i]
        seats.append(seat)
    return {"players": seats, "questions": extra.pop("questions", None) or bank(), **extra}


def new_game(players: int = 3, seed: str = "seed", **extra) -> dict:
    return GAME.setup(config(players, **extra), seed, now=0.0)


def peek_dice(state: dict) -> int:
    """The total the next roll will show (the rng is part of the state, so this is exact)."""
    rng = core.Rng.from_state(state["rng"])
    return rng.randint(1, 6) + rng.randint(1, 6)


def roll_onto(state: dict, square: int, now: float = 1.0) -> tuple[dict, list]:
    """Put the current player where the next roll lands them on ``square``, and roll."""
    assert state["phase"] == "roll"
    state = core.clone(state)
    state["positions"][state["turn"]] = (square - peek_dice(state)) % len(BOARD)
    return GAME.apply(state, state["turn"], {"type": "roll"}, now)


def square_of(kind: str, category: str | None = None) -> int:
    for square in BOARD:
        if square["kind"] == kind and (category is None or square.get("category") == category):
            return square["index"]
    raise AssertionError(kind)


def with_card_on_top(state: dict, card_id: str) -> dict:
    state = core.clone(state)
    state["deck"].remove(card_id)
    state["deck"].insert(0, card_id)
    assert sorted(state["deck"]) == sorted(CARD_IDS)
    return state


def draw_card(state: dict, card_id: str, now: float = 1.0) -> tuple[dict, list]:
    return roll_onto(with_card_on_top(state, card_id), square_of("word_up"), now)


def set_tokens(state: dict, player: str, **counts: int) -> dict:
    state = core.clone(state)
    for category in CATEGORIES:
        state["tokens"][player][category] = counts.get(category, 0)
    return state


def right_answer(state: dict) -> dict:
    question = state["question"]
    if question["category"] == "multiple_choice":
        return {"type": "answer", "choice": question["right"][0]}
    return {"type": "answer", "answer": question["data"]["answers"][0]}


def answer(state: dict, text_or_choice, now: float = 2.0) -> tuple[dict, list]:
    key = "choice" if isinstance(text_or_choice, int) else "answer"
    return GAME.apply(state, state["question"]["player"], {"type": "answer", key: text_or_choice}, now)


def answer_right(state: dict, now: float = 2.0) -> tuple[dict, list]:
    return GAME.apply(state, state["question"]["player"], right_answer(state), now)


def answer_wrong(state: dict, now: float = 2.0) -> tuple[dict, list]:
    question = state["question"]
    if question["category"] == "multiple_choice":
        wrong = next(i for i in range(3) if i not in question["right"])
        return answer(state, wrong, now)
    return answer(state, "definitely not it", now)


def end_reveal(state: dict, now: float = 20.0) -> tuple[dict, list]:
    assert state["phase"] == "reveal"
    return GAME.on_deadline(state, now)


def left_of(state: dict, player: str) -> str:
    seating = state["seating"]
    return seating[(seating.index(player) + 1) % len(seating)]


def types(events: list) -> list[str]:
    return [event["type"] for event in events]
