"""Engine configs built from simple parameters, and computer players. No database.

``default_config(game, players=..., seed_rng=..., level=..., **settings)`` gives the dict an engine's
``setup`` takes. The content comes from the shipped files (:mod:`games.shipped`) unless the caller passes
its own (``content=``: e.g. the runtime's questions from the database), so the same builders serve both.
What each game adds (its content, its level) is its definition's ``add_content`` step:

* Line Up!: the ordering questions (those of ``level`` if given, else all), shuffled with ``seed_rng``;
  players without a ``team`` are dealt alternately to blue and yellow.
* Word Up: the question bank ``{level: {category: [question, ...]}}`` in bank order (the engine deals
  sheets of seven from it in that order); ``level`` sets every player's level (else each keeps their own).
* Mind the Lines: the concept deck of the difficulty (``difficulty=`` setting, else from ``level``:
  1-3 easy, 4-5 hard) in the ``language=`` setting's language (default English; the config keys it).
* Line-it: the number level (``level``, default 3).
* Line-Up: nothing extra (the faces are drawn from the seed).

Computer players' ``bot`` values differ per engine (see :func:`bot_value`).
"""

from __future__ import annotations

from typing import Any

from .definitions import definition
from .definitions.base import build_config
from .engine.core import Rng


def bot_value(game: str, strength: str | float = "medium") -> str | float:
    """The ``bot`` value ``game``'s engine accepts for a computer player of this strength.

    ``strength`` is easy, medium or hard; Word Up and Mind the Lines also take an accuracy from 0 to 1."""
    try:
        return definition(game).bot_value(strength)
    except KeyError as error:
        raise ValueError(error.args[0]) from None


def bot_players(game: str, count: int, strength: str | float = "medium") -> list[dict[str, Any]]:
    """``count`` computer players ``p1``, ``p2`` ... of one strength."""
    value = bot_value(game, strength)
    return [{"id": f"p{n}", "name": f"Computer {n}", "bot": value} for n in range(1, count + 1)]


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
    loaders of :mod:`games.shipped` return). ``settings`` are engine settings (timers, board ...): every
    key must be one the engine knows, and the config lists all of them, so a stored config means the same
    thing later. Raises ``ValueError`` with a readable reason (``KeyError`` for an unknown game).
    """
    return build_config(
        definition(game), players=players, seed_rng=seed_rng, level=level, content=content, **settings
    )
