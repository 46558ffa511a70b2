"""What a game is beyond its engine's rules. Each game's package builds one :class:`GameDefinition`; the
runtime, the forms, the pages, the ``simulate`` command and the reports ask the registry
(:mod:`games.definitions`) for it, so no generic module needs to know a game by name."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.catalog import GameSpec
from games.engine import core
from games.shipped import LEVELS

from .reporting import ReportMeasures

BOT_STRENGTHS = ("easy", "medium", "hard")
#: The accuracy of a computer player of each strength, in games whose bots take one.
BOT_ACCURACY = {"easy": 0.4, "medium": 0.65, "hard": 0.9}


@dataclass(frozen=True)
class TableContent:
    """What a game's content step gets: the settings asked for, the table's level, the teacher's own
    content (or None for the shipped one) and the generator that draws anything random."""

    settings: dict[str, Any]
    level: int | None
    content: Any
    seed_rng: core.Rng


#: ``(config, players, table)``: puts the table's content (and level) into an engine config, in place.
ContentStep = Callable[[dict[str, Any], list[dict[str, Any]], TableContent], None]
#: ``(session, players, rng)``: the engine config of one table of a live session.
TableConfig = Callable[[Any, list[dict[str, Any]], core.Rng], dict[str, Any]]


@dataclass(frozen=True)
class BankUse:
    """The question bank a game's sessions draw from (a ``questions`` kind), how the content report
    groups it, and whether a school may flag or retire its questions from the item analysis."""

    kind: str
    #: The bank field the content report groups by ("subject", "level", "difficulty").
    group_by: str
    group_label: Callable[[Any], str]
    #: Only the shipped decks (a school's own items are played as written lists, not from the bank).
    shipped_only: bool = False
    reviewable: bool = True
    #: How the bank's filters name a value of the kind's own choice (a theme, a subject) in the reader's
    #: language; without it the value itself is shown.
    filter_label: Callable[[str], str] | None = None


@dataclass(frozen=True)
class HomeworkForm:
    """How the game is played alone, as homework: one student's table with computer players in the other
    seats, on the same rules. ``unavailable`` says why a game cannot be played so (it is then not offered)."""

    #: The settings that are the rules' timers for a student's move: stretched, or switched off.
    timers: tuple[str, ...] = ()
    #: How many computer players may sit with the student: (fewest, most).
    computer_players: tuple[int, int] = (1, 1)
    #: Settings whose homework default differs from the live one (Line-Up's strong computer, say).
    defaults: dict[str, Any] = field(default_factory=dict)
    #: The setting that names the computer players' strength (None: they play at medium strength).
    strength_setting: str | None = None
    unavailable: Any = None


@dataclass(frozen=True)
class GameDefinition:
    #: The id stored on sessions and in URLs ("lineit").
    name: str
    #: The rulebook's name ("Line-Up") and what kind of game it is ("Guess Who"); both translatable.
    title: Any
    kind: Any
    #: The pure rules (games/engine/<name>/).
    engine: type[core.Game]
    #: Table sizes, seating and the settings a teacher may choose.
    spec: GameSpec
    #: A live session's table config (the teacher's settings, the class's content, computer players).
    table_config: TableConfig
    #: What the progress reports measure of the game and say about it.
    reports: ReportMeasures
    #: Adds the shipped or given content and the level to a config; None: the game has neither.
    add_content: ContentStep | None = None
    #: Config keys the game takes besides its engine's ``default_config``.
    extra_config: frozenset[str] = frozenset()
    #: Computer players take an accuracy from 0 to 1 (the chance of a right answer) instead of a strength.
    bots_take_accuracy: bool = False
    #: The module of the game's own pages (a urlconf mounted at /games/<name>/), if it has any.
    pages: str | None = None
    #: The question bank its sessions draw from, if any.
    bank: BankUse | None = None
    #: How the game is played as homework (see :class:`HomeworkForm`).
    homework: HomeworkForm = HomeworkForm()
    #: The game screen's scripts under static/, loaded in this order after js/games/common.js (the last
    #: registers the screen: docs/frontend.md); empty: the one module js/games/<name>.js.
    scripts: tuple[str, ...] = ()

    @property
    def full_name(self) -> str:
        """ "Line-Up — Guess Who": the rulebook name and what the game is."""
        return f"{self.title} — {self.kind}"

    @property
    def screen_scripts(self) -> tuple[str, ...]:
        return self.scripts or (f"js/games/{self.name}.js",)

    def new_engine(self) -> core.Game:
        return self.engine()

    def bot_value(self, strength: str | float = "medium") -> str | float:
        """The ``bot`` value this engine accepts for a computer player: a strength by name (easy, medium,
        hard) or, for games whose bots take an accuracy, that accuracy (a name maps to one)."""
        if isinstance(strength, str) and strength in BOT_STRENGTHS:
            return BOT_ACCURACY[strength] if self.bots_take_accuracy else strength
        if not self.bots_take_accuracy:
            raise ValueError(f"bot strength must be one of {', '.join(BOT_STRENGTHS)}")
        try:
            accuracy = float(strength)
        except (TypeError, ValueError):
            accuracy = -1.0
        if 0.0 <= accuracy <= 1.0:
            return accuracy
        raise ValueError(f"bot strength must be one of {', '.join(BOT_STRENGTHS)} or an accuracy from 0 to 1")


def with_bots(game: GameDefinition, players: list[dict], minimum: int, strength: str) -> list[dict]:
    """The table's players, topped up to ``minimum`` with computer players of one strength."""
    value = game.bot_value(strength)
    bots = [
        {"id": f"bot{n}", "name": f"Computer {n}", "bot": value} for n in range(1, minimum - len(players) + 1)
    ]
    return [*players, *bots]


def table_level(settings: dict, players: list[dict]) -> int:
    """A table's level: the teacher's choice, else the median of its students' levels (3 if unknown)."""
    if settings.get("level", "auto") != "auto":
        return int(settings["level"])
    levels = sorted(player.get("level") or 3 for player in players)
    return levels[len(levels) // 2] if levels else 3


def build_config(
    game: GameDefinition,
    *,
    players: list[dict[str, Any]],
    seed_rng: core.Rng,
    level: int | None = None,
    content: Any = None,
    **settings: Any,
) -> dict[str, Any]:
    """The engine config for one table of ``game`` (see :func:`games.content.default_config`)."""
    engine = game.new_engine()
    if level is not None and (isinstance(level, bool) or level not in LEVELS):
        raise ValueError(f"level must be one of {', '.join(map(str, LEVELS))}")
    allowed = set(engine.default_config) | game.extra_config
    unknown = set(settings) - allowed
    if unknown:
        raise ValueError(
            f"{game.name} has no setting {', '.join(sorted(unknown))}; it takes {', '.join(sorted(allowed))}"
        )
    config: dict[str, Any] = {**engine.default_config, **settings}
    players = [dict(player) for player in players]
    if game.add_content is not None:
        game.add_content(config, players, TableContent(settings, level, content, seed_rng))
    elif level is not None:
        raise ValueError("this game has no levels")
    config["players"] = players
    return config
