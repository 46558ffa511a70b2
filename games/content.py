"""The shipped content, and engine configs built from simple parameters. Pure: no database, no Django.

``default_config(game, players=..., seed_rng=..., level=..., **settings)`` gives the dict an engine's
``setup`` takes. The content comes from ``questions/data`` unless the caller passes its own
(``content=``: e.g. the runtime's questions from the database), so the same builders serve both.

What each game gets besides its players and settings:

* ``lineup``: the ordering questions (those of ``level`` if given, else all), shuffled with ``seed_rng``;
  players without a ``team`` are dealt alternately to blue and yellow.
* ``wordup``: the question bank ``{level: {category: [question, ...]}}`` in bank order (the engine deals
  sheets of seven from it in that order); ``level`` sets every player's level (else each keeps their own).
* ``mindlines``: the concept deck of the difficulty (``difficulty=`` setting, else from ``level``:
  1-3 easy, 4-5 hard) in the ``language=`` setting's language (default English; the config keeps it).
* ``lineit``: the number level (``level``, default 3).
* ``faces``: nothing extra (the faces are drawn from the seed).

Computer players' ``bot`` values differ per engine (see :func:`bot_value`).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from .engine.core import Rng
from .engine.registry import get_engine

DATA_DIR = Path(__file__).resolve().parent.parent / "questions" / "data"

GAMES = ("lineup", "wordup", "faces", "lineit", "mindlines")
LEVELS = (1, 2, 3, 4, 5)
TEAMS = ("blue", "yellow")
# Word Up's categories, in the engine's order (games/engine/wordup/board.py).
WORDUP_CATEGORIES = ("missing_word", "crossword", "multiple_choice", "spelling")
MINDLINES_DIFFICULTIES = ("easy", "hard")
#: The languages Mind the Lines' decks come in. Every language has both decks with the same ids and themes:
#: English in ``questions/data/mindlines/{easy,hard}.json`` (the files the question bank loads), the
#: translations in ``questions/data/mindlines/<language>/{easy,hard}.json``.
MINDLINES_LANGUAGES = ("en", "es", "fr")
#: The fields of a concept a game uses; the decks' other fields are provenance (a translation's source).
MINDLINES_CONCEPT_FIELDS = ("id", "text", "difficulty", "theme", "alt")

BOT_STRENGTHS = ("easy", "medium", "hard")
#: Word Up and Mind the Lines bots take an accuracy (the chance of a right answer / of excluding a decoy);
#: the other engines take the strength by name.
ACCURACY_GAMES = ("wordup", "mindlines")
BOT_ACCURACY = {"easy": 0.4, "medium": 0.65, "hard": 0.9}

#: Config keys a game takes besides its engine's ``default_config`` (Line-Up's salt for the commitment;
#: the language of Mind the Lines' concepts, which the config records and the engine does not read).
EXTRA_SETTINGS = {"faces": {"salt"}, "mindlines": {"language"}}


# --------------------------------------------------------------------------------------------------
# Shipped content (a fresh copy on every call, so a caller may change what it gets)
# --------------------------------------------------------------------------------------------------


@cache
def _text(relative: str) -> str:
    return (DATA_DIR / relative).read_text(encoding="utf-8")


def _load(relative: str) -> Any:
    return json.loads(_text(relative))


def lineup_questions(level: int | None = None) -> list[dict[str, Any]]:
    """Every shipped Line Up! question (by file name, then file order); only ``level``'s if given."""
    questions = [
        q for path in sorted((DATA_DIR / "lineup").glob("*.json")) for q in _load(f"lineup/{path.name}")
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


# --------------------------------------------------------------------------------------------------
# Computer players
# --------------------------------------------------------------------------------------------------


def bot_value(game: str, strength: str | float = "medium") -> str | float:
    """The ``bot`` value ``game``'s engine accepts for a computer player of this strength.

    ``strength`` is easy, medium or hard; Word Up and Mind the Lines also take an accuracy from 0 to 1."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; known: {', '.join(GAMES)}")
    if strength in BOT_STRENGTHS:
        return BOT_ACCURACY[strength] if game in ACCURACY_GAMES else strength
    if game in ACCURACY_GAMES:
        try:
            accuracy = float(strength)
        except (TypeError, ValueError):
            accuracy = -1.0
        if 0.0 <= accuracy <= 1.0:
            return accuracy
        raise ValueError(f"bot strength must be one of {', '.join(BOT_STRENGTHS)} or an accuracy from 0 to 1")
    raise ValueError(f"bot strength must be one of {', '.join(BOT_STRENGTHS)}")


def bot_players(game: str, count: int, strength: str | float = "medium") -> list[dict[str, Any]]:
    """``count`` computer players ``p1``, ``p2`` ... of one strength."""
    value = bot_value(game, strength)
    return [{"id": f"p{n}", "name": f"Computer {n}", "bot": value} for n in range(1, count + 1)]


# --------------------------------------------------------------------------------------------------
# Configs
# --------------------------------------------------------------------------------------------------


def default_config(
    game: str,
    *,
    players: list[dict[str, Any]],
    seed_rng: Rng,
    level: int | None = None,
    content: Any = None,
    **settings: Any,
) -> dict[str, Any]:
    """The engine config for one table of ``game``.

    ``players`` are ``{"id", "name", ...}`` dicts (``team``, ``level``, ``bot`` are kept when given).
    ``seed_rng`` draws whatever the content needs at random (Line Up!'s question order), so the same
    generator state gives the same config. ``content`` replaces the shipped content (same shape as the
    loaders above return). ``settings`` are engine settings (timers, board ...): every key must be one the
    engine knows, and the config lists all of them, so a stored config means the same thing later.
    Raises ``ValueError`` with a readable reason.
    """
    engine = get_engine(game)  # KeyError naming the known games
    if level is not None and (isinstance(level, bool) or level not in LEVELS):
        raise ValueError(f"level must be one of {', '.join(map(str, LEVELS))}")
    allowed = set(engine.default_config) | EXTRA_SETTINGS.get(game, set())
    unknown = set(settings) - allowed
    if unknown:
        raise ValueError(
            f"{game} has no setting {', '.join(sorted(unknown))}; it takes {', '.join(sorted(allowed))}"
        )
    config: dict[str, Any] = {**engine.default_config, **settings}
    players = [dict(player) for player in players]
    if game == "lineup":
        for index, player in enumerate(players):
            player.setdefault("team", TEAMS[index % 2])
        questions = content if content is not None else lineup_questions(level)
        if content is not None and level is not None:
            questions = [q for q in questions if q.get("level") == level]
        if not questions:
            raise ValueError(f"there are no Line Up! questions at level {level}")
        config["questions"] = seed_rng.shuffled(questions)
    elif game == "wordup":
        if level is not None:
            for player in players:
                player["level"] = level
        config["questions"] = content if content is not None else wordup_questions()
    elif game == "mindlines":
        if "difficulty" not in settings and level is not None:
            config["difficulty"] = difficulty_of_level(level)
        difficulty = config["difficulty"]
        # The language of the deck the concepts come from (a teacher's own words are as written).
        config["language"] = config.get("language", "en")
        if content is None:
            content = mindlines_concepts(difficulty, config["language"])
        elif config["language"] not in MINDLINES_LANGUAGES:
            raise ValueError(f"language must be one of {', '.join(MINDLINES_LANGUAGES)}")
        config["concepts"] = content
    elif game == "lineit":
        if level is not None:
            config["level"] = level
    elif level is not None:
        raise ValueError("this game has no levels")
    config["players"] = players
    return config
