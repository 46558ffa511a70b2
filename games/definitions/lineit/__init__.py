"""Line-it: a card-drafting game of ascending and descending number lines, bets and jackpots."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.catalog import LEVEL_CHOICES, GameSpec, Setting
from games.engine.core import Rng
from games.engine.lineit import LineIt

from ..base import GameDefinition, HomeworkForm, TableContent, build_config, table_level, with_bots
from .reports import MEASURES

SPEC = GameSpec(
    name="lineit",
    table_min=2,
    table_max=5,
    table_target=4,
    skill="numeracy",
    fill="bot",
    settings={
        "turn_seconds": Setting(_("Seconds per turn"), "int", 30, 10, 120),
        "level": Setting(_("Number level"), "choice", "auto", choices=LEVEL_CHOICES),
    },
)


def add_content(config: dict, players: list[dict], table: TableContent) -> None:
    """Line-it's cards come from its engine; the table's level picks which numbers are on them."""
    if table.level is not None:
        config["level"] = table.level


def table_config(session, players: list[dict], rng: Rng) -> dict:
    settings = session.settings
    return build_config(
        DEFINITION,
        players=with_bots(DEFINITION, players, 2, "medium"),
        seed_rng=rng,
        level=table_level(settings, players),
        turn_seconds=float(settings["turn_seconds"]),
    )


DEFINITION = GameDefinition(
    name="lineit",
    title=_("Line-it"),
    kind=_("number lines"),
    engine=LineIt,
    spec=SPEC,
    table_config=table_config,
    reports=MEASURES,
    add_content=add_content,
    pages="games.definitions.lineit.pages",
    homework=HomeworkForm(timers=("turn_seconds",), computer_players=(1, 4)),
    scripts=tuple(f"js/games/lineit/{part}.js" for part in ("words", "board", "view", "input")),
)
