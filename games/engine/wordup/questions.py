"""The question bank and the question sheets.

As in the boxed game, each level has a pile of sheets; a sheet holds seven questions of each category,
taken from the bank in order (sheet 0 = questions 1-7 of each category, sheet 1 = questions 8-14 ...,
wrapping round when the bank runs out). Every player holds their own sheet of their own level; when the
column a player needs is used up, they take the next sheet from the pile of their level. Two players of
the same level therefore never share a sheet (until the bank wraps round).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from ..core import _
from .board import CATEGORIES, CROSSWORD, MISSING_WORD, MULTIPLE_CHOICE, SPELLING
from .checking import accepted_keys, match_key, right_choices

SHEET_SIZE = 7
LEVELS = (1, 2, 3, 4, 5)
LEVEL_NAMES = {
    1: "Elementary",
    2: "Lower Intermediate",
    3: "Intermediate",
    4: "Upper Intermediate",
    5: "Advanced",
}


def _strings(value: Any, where: str, *, allow_empty: bool = False) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError(f"{where}: expected a list of strings")
    if not allow_empty and not accepted_keys(value):
        raise ValueError(f"{where}: needs at least one non-blank entry")
    return list(value)


def clean_question(raw: Any, level: int, category: str) -> dict[str, Any]:
    """A validated copy holding only the fields the game uses."""
    if not isinstance(raw, dict):
        raise ValueError(f"level {level} {category}: a question must be a dict")
    qid = raw.get("id")
    if not isinstance(qid, str) or not qid:
        raise ValueError(f"level {level} {category}: every question needs a string id")
    where = f"question {qid!r}"
    prompt = raw.get("prompt", "")
    if not isinstance(prompt, str):
        raise ValueError(f"{where}: prompt must be a string")
    question = {
        "id": qid,
        "level": level,
        "category": category,
        "prompt": prompt,
        "answers": _strings(raw.get("answers"), f"{where} answers"),
        "alternatives": _strings(raw.get("alternatives", []), f"{where} alternatives", allow_empty=True),
    }
    question.update(_category_fields(raw, question, where))
    return question


def _category_fields(raw: dict[str, Any], question: dict[str, Any], where: str) -> dict[str, Any]:
    category = question["category"]
    first = question["answers"][0].strip()
    if category == MISSING_WORD:
        letters = raw.get("letters", len(first))
        if type(letters) is not int or letters < 1:
            raise ValueError(f"{where}: letters must be a positive whole number")
        return {"letters": letters}
    if category == CROSSWORD:
        letter = raw.get("first_letter", first[:1])
        if not isinstance(letter, str) or not letter.strip():
            raise ValueError(f"{where}: first_letter must be a letter")
        return {"first_letter": letter.strip()}
    if category == MULTIPLE_CHOICE:
        choices = _strings(raw.get("choices"), f"{where} choices")
        if len(choices) != 3 or not right_choices(question, choices):
            raise ValueError(f"{where}: needs three choices, one of them an accepted answer")
        return {"choices": choices}
    sentence = raw.get("sentence")
    if not isinstance(sentence, str) or not sentence.strip():
        raise ValueError(f"{where}: a spelling question needs the sentence that is spoken")
    return {"sentence": sentence}


Bank = dict[str, dict[str, list]]
Sources = dict[str, dict[str, int]]

#: Banks built lately, by the identity of the questions they were built from and the players' levels.
#: Every homework attempt at a school starts from the same (shared) questions, and checking them was
#: most of an attempt's start; the same bank object also lets the server store it without hashing it
#: again. Each entry holds its questions, so their identity cannot be reused while it is kept.
BANKS_KEPT = 16
_banks: OrderedDict[tuple[int, frozenset[int]], tuple[Any, tuple, Bank, Sources]] = OrderedDict()
_banks_lock = threading.Lock()


def build_bank(questions: Any, levels: set[int]) -> tuple[Bank, Sources]:
    """The questions the players' levels need, and for each level and category the level they come from.

    A level with no questions in a category borrows that category from a level next to it (the lower one
    first), never from further away: a level-1 student is not asked a level-3 question. Without one, the
    game cannot start, and the reason names the category and the level that lack questions.

    The bank is shared with every other game built from the same questions (a state never changes its
    bank). Questions given to a game must not be changed in place afterwards: a list replaced, added to
    or shortened is noticed, a question edited inside its list is not.
    """
    key = (id(questions), frozenset(levels))
    shape = _shape(questions)
    with _banks_lock:
        kept = _banks.get(key)
        if kept is not None and kept[0] is questions and kept[1] == shape:
            _banks.move_to_end(key)
            return kept[2], _copied(kept[3])
    bank, sources = _built_bank(questions, levels)
    with _banks_lock:
        _banks[key] = (questions, shape, bank, sources)
        while len(_banks) > BANKS_KEPT:
            _banks.popitem(last=False)
    return bank, _copied(sources)


def _shape(questions: Any) -> tuple:
    """What tells a changed question set from the one kept: each level's and category's list and length."""
    if not isinstance(questions, dict):
        return ()
    return tuple(
        (key, id(categories), *((name, id(items), _length(items)) for name, items in categories.items()))
        if isinstance(categories, dict)
        else (key, id(categories))
        for key, categories in questions.items()
    )


def _length(items: Any) -> int:
    return len(items) if isinstance(items, list) else -1


def _copied(sources: Sources) -> Sources:
    return {level: dict(categories) for level, categories in sources.items()}


def _built_bank(questions: Any, levels: set[int]) -> tuple[Bank, Sources]:
    if not isinstance(questions, dict):
        raise ValueError("config['questions'] must map levels to categories")
    # Only the levels a player's questions can come from are read (and checked): a homework attempt
    # starts with the whole school's bank, five levels of it, for one student's level.
    reachable = {level + step for level in levels for step in range(-BORROW_LEVELS, BORROW_LEVELS + 1)}
    available: dict[int, dict[str, list]] = {}
    for key, categories in questions.items():
        level = int(key)
        if level not in LEVELS or not isinstance(categories, dict):
            raise ValueError(f"questions: bad level {key!r}")
        if level not in reachable:
            continue
        available[level] = {
            category: [clean_question(raw, level, category) for raw in categories.get(category) or []]
            for category in CATEGORIES
        }
    sources: Sources = {}
    bank: Bank = {}
    for level in sorted(levels):
        sources[str(level)] = {}
        for category in CATEGORIES:
            source = _nearest_level_with(available, level, category)
            sources[str(level)][category] = source
            bank.setdefault(str(source), {})[category] = available[source][category]
    return bank, sources


#: How far a level may borrow a category's questions from (a level next to it).
BORROW_LEVELS = 1


def _nearest_level_with(available: dict[int, dict[str, list]], level: int, category: str) -> int:
    candidates = [
        other for other in available if available[other][category] and abs(other - level) <= BORROW_LEVELS
    ]
    if not candidates:
        name = category.replace("_", " ")
        raise ValueError(
            f"there are no {name} questions at level {level}, nor at a level next to it: add some to the "
            f"question bank, or choose another level for these students"
        )
    return min(candidates, key=lambda other: (abs(other - level), other))


# ------------------------------------------------------------------------------------------------
# Sheets (state helpers)
# ------------------------------------------------------------------------------------------------


def new_sheet(state: dict[str, Any], player: str) -> None:
    """Give ``player`` the next sheet from their level's pile."""
    sheet = state["sheets"][player]
    pile = state["sheet_pile"]
    level = str(sheet["level"])
    sheet["sheet"] = pile[level]
    pile[level] += 1
    sheet["used"] = {category: 0 for category in CATEGORIES}


def take_question(state: dict[str, Any], player: str, category: str) -> dict[str, Any]:
    """The next question of ``category`` on ``player``'s sheet (a new sheet if that column is used up)."""
    sheet = state["sheets"][player]
    if sheet["used"][category] >= SHEET_SIZE:
        new_sheet(state, player)
    source = state["sources"][str(sheet["level"])][category]
    items = state["bank"][str(source)][category]
    position = SHEET_SIZE * sheet["sheet"] + sheet["used"][category]
    sheet["used"][category] += 1
    return items[position % len(items)]


# Standard instructions for when the bank's own gives the word away (one of them must not contain it either).
SPELLING_INSTRUCTIONS = (
    _("Listen to the sentence and the word, then type the word."),
    _("Spell what you hear."),
    _("Type what you hear."),
)


def spelling_prompt(question: dict[str, Any]) -> str:
    """The bank's instruction, unless it gives the word away: then the first standard one that does not,
    or no text at all (for a word hidden inside every one of them, such as "he" or "hear")."""
    keys = accepted_keys(question["answers"] + question["alternatives"]) | {match_key(question["sentence"])}
    for candidate in (question["prompt"].strip(), *SPELLING_INSTRUCTIONS):
        squashed = match_key(candidate)
        if squashed and not any(key in squashed for key in keys):
            return candidate
    return ""


__all__ = [
    "CATEGORIES",
    "CROSSWORD",
    "LEVELS",
    "LEVEL_NAMES",
    "MISSING_WORD",
    "MULTIPLE_CHOICE",
    "SHEET_SIZE",
    "SPELLING",
    "SPELLING_INSTRUCTIONS",
    "build_bank",
    "new_sheet",
    "spelling_prompt",
    "take_question",
]
