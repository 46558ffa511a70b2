"""Building a table's engine config from the session's settings, its students and the content banks."""

from __future__ import annotations

import json
import secrets
from functools import cache
from pathlib import Path
from typing import Any

from .engine import core

DATA_DIR = Path(__file__).resolve().parent.parent / "questions" / "data"
WORDUP_CATEGORIES = ("missing_word", "crossword", "multiple_choice", "spelling")


@cache
def _json(relative: str) -> Any:
    return json.loads((DATA_DIR / relative).read_text(encoding="utf-8"))


def shipped_lineup_questions() -> list[dict]:
    return [q for path in sorted((DATA_DIR / "lineup").glob("*.json")) for q in _json(f"lineup/{path.name}")]


def shipped_wordup_questions() -> dict[str, dict[str, list[dict]]]:
    bank: dict[str, dict[str, list[dict]]] = {}
    for level in range(1, 6):
        questions = _json(f"wordup/level{level}.json")
        bank[str(level)] = {cat: [q for q in questions if q["category"] == cat] for cat in WORDUP_CATEGORIES}
    return bank


def shipped_concepts(difficulty: str) -> list[dict]:
    return list(_json(f"mindlines/{difficulty}.json"))


def _lineup_config(settings: dict, players: list[dict], rng: core.Rng) -> dict:
    low, high = sorted((settings["min_level"], settings["max_level"]))
    questions = [q for q in shipped_lineup_questions() if low <= q["level"] <= high]
    teams = ("blue", "yellow")
    seated = [{**player, "team": teams[index % 2]} for index, player in enumerate(players)]
    if len(seated) == 1:  # a class of one practises against the computer
        seated.append({"id": "bot1", "name": "Computer", "team": "yellow", "bot": "medium"})
    return {
        "players": seated,
        "questions": rng.shuffled(questions),
        "board": settings["board"],
        "answer_seconds": settings["answer_seconds"],
        "final_seconds": settings["answer_seconds"],
    }


def _with_bots(players: list[dict], minimum: int, bot: Any) -> list[dict]:
    seated = list(players)
    for number in range(1, minimum - len(seated) + 1):
        seated.append({"id": f"bot{number}", "name": f"Computer {number}", "bot": bot})
    return seated


def _level_of(settings: dict, players: list[dict]) -> int:
    """A table's level: the teacher's choice, else the median of its students' levels (3 if unknown)."""
    if settings.get("level", "auto") != "auto":
        return int(settings["level"])
    levels = sorted(player.get("level") or 3 for player in players)
    return levels[len(levels) // 2] if levels else 3


def engine_config(session, players: list[dict]) -> dict:
    """The config ``setup`` gets for one table. Players are ``{"id", "name", "level"}`` dicts."""
    settings = session.settings
    rng = core.Rng(secrets.token_hex(16))
    if session.game == "lineup":
        return _lineup_config(settings, players, rng)
    if session.game == "wordup":
        override = settings.get("level", "auto")
        seated = [
            {**player, "level": int(override) if override != "auto" else (player.get("level") or 3)}
            for player in players
        ]
        return {
            "players": _with_bots(seated, 2, 0.6),
            "questions": shipped_wordup_questions(),
            "target": settings["target"],
            "answer_seconds": settings["answer_seconds"],
        }
    if session.game == "faces":
        return {"players": _with_bots(players, 2, settings["bot"]), "turn_seconds": settings["turn_seconds"]}
    if session.game == "lineit":
        return {
            "players": _with_bots(players, 2, "medium"),
            "level": _level_of(settings, players),
            "turn_seconds": settings["turn_seconds"],
        }
    if session.game == "mindlines":
        return {
            "players": _with_bots(players, 2, 0.7),
            "concepts": shipped_concepts(settings["difficulty"]),
            "difficulty": settings["difficulty"],
            "draw_seconds": settings["draw_seconds"],
        }
    raise ValueError(f"unknown game {session.game!r}")
