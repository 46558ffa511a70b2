"""Building a table's engine config from the session's settings and its students.

The engine-level work (defaults, content, validation) is :func:`games.content.default_config`; this
module adds what only a live session knows: the teacher's settings, levels, and computer players
filling a table that is too small."""

from __future__ import annotations

import secrets

from . import content
from .engine import core


def _with_bots(game: str, players: list[dict], minimum: int, strength: str) -> list[dict]:
    value = content.bot_value(game, strength)
    bots = [
        {"id": f"bot{n}", "name": f"Computer {n}", "bot": value} for n in range(1, minimum - len(players) + 1)
    ]
    return [*players, *bots]


def _table_level(settings: dict, players: list[dict]) -> int:
    """A table's level: the teacher's choice, else the median of its students' levels (3 if unknown)."""
    if settings.get("level", "auto") != "auto":
        return int(settings["level"])
    levels = sorted(player.get("level") or 3 for player in players)
    return levels[len(levels) // 2] if levels else 3


#: How many questions a Line Up! table takes from the class's rotation (a long board asks about 25).
LINEUP_QUESTIONS_PER_TABLE = 40


def lineup_questions(session) -> list[dict]:
    """The class's questions for this session: its subjects and levels, the ones the class has not seen
    (or saw longest ago) first; the bank in the database (shipped plus the school's own), falling back
    to the shipped files only when the database holds none at all (a fresh install before loading)."""
    from questions.selectors import lineup_questions_for

    settings = session.settings
    low, high = sorted((settings["min_level"], settings["max_level"]))
    subject = settings.get("subject", "all")
    subjects = [] if subject == "all" else [subject]
    rows = lineup_questions_for(
        session.classroom, subjects, list(range(low, high + 1)), limit=LINEUP_QUESTIONS_PER_TABLE
    )
    if rows:
        return [row.to_engine_dict() for row in rows]
    shipped = [q for q in content.lineup_questions() if low <= q["level"] <= high]
    return [q for q in shipped if not subjects or q.get("subject") in subjects] or shipped


def wordup_bank(session) -> dict | None:
    """The school's Word Up bank (shipped questions plus its own) from the database, or None to let the
    engine take the shipped files (a fresh install before the banks are loaded)."""
    from questions.selectors import wordup_bank_for

    bank = wordup_bank_for(session.classroom.school_id)
    complete = all(bank[level][category] for level in bank for category in bank[level])
    return bank if complete else None


def mindlines_language(session) -> str:
    """The language of the game's own concepts (a session scheduled before the setting plays English)."""
    return session.settings.get("language", "en")


def mindlines_concepts(session, player_count: int, rng: core.Rng) -> list[dict] | None:
    """The teacher's word list if the session has one, as written (never translated), topped up from the
    game's own deck in the session's language when it is too short for even one round; else None: the
    game's own concepts of the chosen difficulty and language (``default_config`` loads them)."""
    word_list = session.settings.get("word_list")
    if not word_list:
        return None
    from questions.selectors import concepts_for

    from .engine.mindlines import rules

    concepts = concepts_for(session.classroom.school_id, word_list=word_list)
    needed = rules.concepts_needed(player_count, rounds=1)
    if len(concepts) < needed:
        known = {concept["text"].casefold() for concept in concepts}
        taken = {concept["id"] for concept in concepts}
        deck = content.mindlines_concepts(session.settings["difficulty"], mindlines_language(session))
        spare = [c for c in deck if c["text"].casefold() not in known and c["id"] not in taken]
        concepts += rng.sample(spare, needed - len(concepts))
    return concepts


def engine_config(session, players: list[dict]) -> dict:
    """The config ``setup`` gets for one table. Players are ``{"id", "name", "level"}`` dicts."""
    settings, game = session.settings, session.game
    rng = core.Rng(secrets.token_hex(16))
    if game == "lineup":
        questions = lineup_questions(session)
        seated = [{**p, "team": p.get("team") or content.TEAMS[i % 2]} for i, p in enumerate(players)]
        if len(seated) == 1:  # a class of one practises against the computer
            seated.append({"id": "bot1", "name": "Computer", "team": "yellow", "bot": "medium"})
        return content.default_config(
            game,
            players=seated,
            seed_rng=rng,
            content=questions,
            board=settings["board"],
            answer_seconds=settings["answer_seconds"],
            final_seconds=settings["answer_seconds"],
        )
    if game == "wordup":
        override = settings.get("level", "auto")
        seated = [
            {**p, "level": int(override) if override != "auto" else (p.get("level") or 3)} for p in players
        ]
        return content.default_config(
            game,
            players=_with_bots(game, seated, 2, "medium"),
            seed_rng=rng,
            content=wordup_bank(session),
            target=settings["target"],
            answer_seconds=settings["answer_seconds"],
            reveal_seconds=settings.get("reveal_seconds", 8),
            time_limit=(settings.get("time_limit") or 0) * 60 or None,
        )
    if game == "faces":
        return content.default_config(
            game,
            players=_with_bots(game, players, 2, settings["bot"]),
            seed_rng=rng,
            turn_seconds=settings["turn_seconds"],
            salt=secrets.token_hex(32),  # server-chosen, published with the seed at the end
        )
    if game == "lineit":
        return content.default_config(
            game,
            players=_with_bots(game, players, 2, "medium"),
            seed_rng=rng,
            level=_table_level(settings, players),
            turn_seconds=float(settings["turn_seconds"]),
        )
    if game == "mindlines":
        seated = _with_bots(game, players, 2, "medium")
        return content.default_config(
            game,
            players=seated,
            seed_rng=rng,
            content=mindlines_concepts(session, len(seated), rng),
            language=mindlines_language(session),
            difficulty=settings["difficulty"],
            draw_seconds=settings["draw_seconds"],
            exclude_seconds=settings.get("exclude_seconds", 60),
        )
    raise ValueError(f"unknown game {game!r}")
