"""The content shipped with Classplay, read from ``questions/data`` (our own writing, with its sources).
Pure: no database, no Django. The question banks load the same files into the database
(``manage.py load_question_banks``); a game falls back to these when the database holds none.

* Line Up!: the ordering questions, by subject file, in English and in the translated editions.
* Word Up: the question bank of each level, by category.
* Mind the Lines: the concept decks (easy and hard) in each language.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parent.parent / "questions" / "data"

LEVELS = (1, 2, 3, 4, 5)
TEAMS = ("blue", "yellow")
# Word Up's categories, in the engine's order (games/engine/wordup/board.py).
WORDUP_CATEGORIES = ("missing_word", "crossword", "multiple_choice", "spelling")
MINDLINES_DIFFICULTIES = ("easy", "hard")
#: The languages Mind the Lines' decks come in. Every language has both decks with the same ids and themes:
#: English in ``questions/data/mindlines/{easy,hard}.json`` (the files the question bank loads), the
#: translations in ``questions/data/mindlines/<language>/{easy,hard}.json``.
MINDLINES_LANGUAGES = ("en", "es", "fr", "pt", "ar")
#: The languages of Line Up!'s editions (settings.LANGUAGES codes). English is the bank
#: (``questions/data/lineup/*.json``); each translation (``questions/data/lineup/<language>/``) holds
#: some of its subject files, every question with its English question's id, values, answer, level,
#: subject and tags (tests/questions/test_lineup_editions.py holds them to it).
LINEUP_LANGUAGES = ("en", "es", "pt-br", "ar")
#: The fields of a concept a game uses; the decks' other fields are provenance (a translation's source).
MINDLINES_CONCEPT_FIELDS = ("id", "text", "difficulty", "theme", "alt")


# --------------------------------------------------------------------------------------------------
# Shipped content (a fresh copy on every call, so a caller may change what it gets)
# --------------------------------------------------------------------------------------------------


@cache
def _text(relative: str) -> str:
    return (DATA_DIR / relative).read_text(encoding="utf-8")


def _load(relative: str) -> Any:
    return json.loads(_text(relative))


def lineup_questions(level: int | None = None, language: str = "en") -> list[dict[str, Any]]:
    """Every shipped Line Up! question of ``language``'s edition (by file name, then file order); only
    ``level``'s if given. An edition may lack some subjects."""
    if language not in LINEUP_LANGUAGES:
        raise ValueError(
            f"Line Up! has no questions in {language!r}; languages: {', '.join(LINEUP_LANGUAGES)}"
        )
    folder = "lineup" if language == "en" else f"lineup/{language}"
    questions = [
        q for path in sorted((DATA_DIR / folder).glob("*.json")) for q in _load(f"{folder}/{path.name}")
    ]
    return [q for q in questions if level is None or q.get("level") == level]


def wordup_questions() -> dict[str, dict[str, list[dict[str, Any]]]]:
    """``{"1": {"missing_word": [...], "crossword": [...], ...}, ...}`` for levels 1-5, in bank order."""
    bank: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for level in LEVELS:
        questions = _load(f"wordup/level{level}.json")
        bank[str(level)] = {cat: [q for q in questions if q["category"] == cat] for cat in WORDUP_CATEGORIES}
    return bank


def mindlines_concepts(difficulty: str, language: str = "en") -> list[dict[str, Any]]:
    """The shipped deck of ``difficulty`` in ``language`` (one of :data:`MINDLINES_LANGUAGES`), in deck
    order: ``{"id", "text", "difficulty", "theme"}`` dicts (and ``"alt"``, another name, where there is
    one). The same id is the same concept in every language."""
    if difficulty not in MINDLINES_DIFFICULTIES:
        raise ValueError(f"difficulty must be one of {', '.join(MINDLINES_DIFFICULTIES)}")
    if language not in MINDLINES_LANGUAGES:
        raise ValueError(
            f"Mind the Lines has no concepts in {language!r}; languages: {', '.join(MINDLINES_LANGUAGES)}"
        )
    folder = "mindlines" if language == "en" else f"mindlines/{language}"
    return [
        {key: concept[key] for key in MINDLINES_CONCEPT_FIELDS if key in concept}
        for concept in _load(f"{folder}/{difficulty}.json")
    ]


def difficulty_of_level(level: int) -> str:
    """Mind the Lines has two decks: levels 1-3 play the easy one, 4-5 the hard one."""
    return "easy" if level <= 3 else "hard"
