"""Every game's definition in one registry: the runtime, forms, pages, the ``simulate`` command and the
reports ask here about a game, so none of them names one.

Adding a game is a package beside these (its :class:`~games.definitions.base.GameDefinition`) and one
line below; docs/adding-a-game.md walks through it."""

from __future__ import annotations

from games.engine.core import Game

from . import faces, lineit, lineup, mindlines, wordup
from .base import GameDefinition
from .reporting import ReportMeasures

#: In the order the game menu lists them.
DEFINITIONS: dict[str, GameDefinition] = {
    game.name: game
    for game in (
        lineup.DEFINITION,
        wordup.DEFINITION,
        faces.DEFINITION,
        lineit.DEFINITION,
        mindlines.DEFINITION,
    )
}


def definition(name: str) -> GameDefinition:
    try:
        return DEFINITIONS[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(DEFINITIONS)}") from None


def names() -> tuple[str, ...]:
    return tuple(DEFINITIONS)


def is_game(name: object) -> bool:
    return isinstance(name, str) and name in DEFINITIONS


def get_engine(name: str) -> Game:
    """A fresh engine of the game (engines keep no state between calls, but tests may patch one)."""
    return definition(name).new_engine()


def game_choices() -> list[tuple[str, str]]:
    """The games by their rulebook names (the session model's choices)."""
    return [(game.name, game.title) for game in DEFINITIONS.values()]


def game_menu() -> list[tuple[str, str]]:
    """The games as the scheduling form offers them: "Line-Up — Guess Who"."""
    return [(game.name, game.full_name) for game in DEFINITIONS.values()]


def game_full_name(name: str) -> str:
    """``Line-Up — Guess Who``: the rulebook name and what the game is (an unknown name as it is)."""
    return DEFINITIONS[name].full_name if name in DEFINITIONS else name


def all_measures() -> dict[str, ReportMeasures]:
    """Every game's report measures, in the registry's order (the order a report shows the games)."""
    return {name: game.reports for name, game in DEFINITIONS.items()}


def measures_for(name: str) -> ReportMeasures:
    return definition(name).reports
