"""The Word Up board (a loop of 40 squares, moved round clockwise) and the deck of 20 Word Up cards."""

from __future__ import annotations

from typing import Any

from ..core import _

MISSING_WORD = "missing_word"
CROSSWORD = "crossword"
MULTIPLE_CHOICE = "multiple_choice"
SPELLING = "spelling"
CATEGORIES: tuple[str, ...] = (MISSING_WORD, CROSSWORD, MULTIPLE_CHOICE, SPELLING)

#: Colours carry a name and an icon too, so the board also works for colour-blind players.
CATEGORY_INFO: dict[str, dict[str, str]] = {
    MISSING_WORD: {"colour": "orange", "label": _("Missing Word"), "icon": "gap"},
    CROSSWORD: {"colour": "green", "label": _("Crossword Clues"), "icon": "grid"},
    MULTIPLE_CHOICE: {"colour": "blue", "label": _("Multiple Choice"), "icon": "list"},
    SPELLING: {"colour": "yellow", "label": _("Spelling"), "icon": "ear"},
}

BONUS = "bonus"
QUESTION = "question"
OPTION = "option"
LOSE_TWO = "lose_two"
FREE_TWO = "free_two"
STOP = "stop"
WORD_UP = "word_up"

SQUARE_LABELS = {
    BONUS: _("Bonus: choose any category, a right answer wins two tokens"),
    QUESTION: _("Question"),
    OPTION: _("Option: choose either colour"),
    LOSE_TWO: _("Lose two tokens and stop"),
    FREE_TWO: _("Take two free tokens of different colours"),
    STOP: _("Stop"),
    WORD_UP: _("Word Up! Take a card"),
}

_MW, _CW, _MC, _SP, _WU = MISSING_WORD, CROSSWORD, MULTIPLE_CHOICE, SPELLING, WORD_UP

# Four sides of ten squares: a corner, then nine squares. Each side has six question squares, two Word Up
# squares and, in the middle, an Option square bordered by the two colours it offers.
_SIDES: tuple[tuple[str, tuple[Any, ...]], ...] = (
    (BONUS, (_MW, _WU, _CW, _MC, (_MC, _SP), _SP, _MW, _WU, _CW)),
    (LOSE_TWO, (_MC, _WU, _SP, _MW, (_MW, _CW), _CW, _MC, _WU, _SP)),
    (FREE_TWO, (_MW, _WU, _CW, _SP, (_SP, _MC), _MC, _MW, _WU, _CW)),
    (STOP, (_MC, _WU, _SP, _CW, (_CW, _MW), _MW, _MC, _WU, _SP)),
)


def _build_board() -> list[dict[str, Any]]:
    board: list[dict[str, Any]] = []
    for side, (corner, squares) in enumerate(_SIDES):
        board.append({"index": len(board), "side": side, "kind": corner})
        for square in squares:
            entry: dict[str, Any] = {"index": len(board), "side": side}
            if isinstance(square, tuple):
                entry.update(kind=OPTION, categories=list(square))
            elif square == WORD_UP:
                entry.update(kind=WORD_UP)
            else:
                entry.update(kind=QUESTION, category=square)
            board.append(entry)
    return board


BOARD: list[dict[str, Any]] = _build_board()
BOARD_SIZE = len(BOARD)
START_SQUARE = 0


def next_square_of(position: int, category: str) -> int:
    """The next question square of ``category`` strictly after ``position``, going clockwise."""
    for step in range(1, BOARD_SIZE + 1):
        square = BOARD[(position + step) % BOARD_SIZE]
        if square["kind"] == QUESTION and square["category"] == category:
            return square["index"]
    raise ValueError(f"no square of {category}")


# ------------------------------------------------------------------------------------------------
# Word Up cards
# ------------------------------------------------------------------------------------------------

ANY_CATEGORY = "any_category"
FREE_OR_ANSWER = "free_or_answer"
LOSE_COLOUR = "lose_colour"
MOVE_TO_COLOUR = "move_to_colour"
EXCHANGE = "exchange"
ASK_LEFT = "ask_left"
STOP_OR_LOSE = "stop_or_lose"

CARD_TEXT = {
    ANY_CATEGORY: _("Answer a question from any category. Right: win a token and roll again."),
    FREE_OR_ANSWER: _(
        "Take one free %(colour)s token and stop, or answer a %(category)s question: right wins the token "
        "and you roll again."
    ),
    LOSE_COLOUR: _("Lose one %(colour)s token and stop."),
    MOVE_TO_COLOUR: _("Move to the next %(colour)s square and answer for two tokens. Right: roll again."),
    EXCHANGE: _(
        "Swap one of your tokens for a token of another colour from another player, then roll again; "
        "or just roll again."
    ),
    ASK_LEFT: _(
        "Ask the player on your left a question from any category. Right: they take the token and roll. "
        "Wrong: you take the token and roll again."
    ),
    STOP_OR_LOSE: _("Stop, or lose one token of any colour and roll again."),
}


def _build_cards() -> dict[str, dict[str, Any]]:
    cards: list[dict[str, Any]] = [
        {"id": "any-1", "kind": ANY_CATEGORY},
        {"id": "any-2", "kind": ANY_CATEGORY},
    ]
    for kind, prefix in ((FREE_OR_ANSWER, "free"), (LOSE_COLOUR, "lose"), (MOVE_TO_COLOUR, "move")):
        cards += [
            {"id": f"{prefix}-{CATEGORY_INFO[c]['colour']}", "kind": kind, "category": c} for c in CATEGORIES
        ]
    for kind, prefix in ((EXCHANGE, "exchange"), (ASK_LEFT, "ask-left"), (STOP_OR_LOSE, "stop-or-lose")):
        cards += [{"id": f"{prefix}-{n}", "kind": kind} for n in (1, 2)]
    return {card["id"]: card for card in cards}


CARDS: dict[str, dict[str, Any]] = _build_cards()
CARD_IDS: list[str] = list(CARDS)


def public_card(card_id: str) -> dict[str, Any]:
    card = CARDS[card_id]
    result = dict(card)
    colour = CATEGORY_INFO[card["category"]]["colour"] if "category" in card else ""
    category = CATEGORY_INFO[card["category"]]["label"] if "category" in card else ""
    result["text"] = CARD_TEXT[card["kind"]] % {"colour": colour, "category": category}
    if colour:
        result["colour"] = colour
    return result
