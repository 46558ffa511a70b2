"""Building a table's engine config for a live session: each game's definition knows what its tables
need (the teacher's settings, the class's content, computer players filling a table that is too small);
the engine-level work (defaults, content, validation) is :func:`games.definitions.base.build_config`."""

from __future__ import annotations

import secrets

from .definitions import definition
from .engine import core


def engine_config(session, players: list[dict]) -> dict:
    """The config ``setup`` gets for one table. Players are ``{"id", "name", "level"}`` dicts. The
    randomness of the content (Line Up!'s question order) is fresh for every table."""
    rng = core.Rng(secrets.token_hex(16))
    return definition(session.game).table_config(session, players, rng)
