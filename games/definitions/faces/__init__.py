"""Line-Up: Guess Who between two players, 24 faces, seeded and verifiable, best of three rounds."""

from __future__ import annotations

import secrets

from django.utils.translation import gettext_lazy as _

from games.catalog import GameSpec, Setting
from games.engine.core import Rng
from games.engine.faces import Faces
from games.engine.faces.features import DEFAULT_BOARD

from ..base import GameDefinition, HomeworkForm, build_config, with_bots
from .reports import MEASURES

SPEC = GameSpec(
    name="faces",
    table_min=2,
    table_max=2,
    table_target=2,
    skill=None,
    fill="bot",
    advance_warning=_(
        "Between rounds this starts the next round. During a turn the student to move runs out of time"
        " (by default the turn passes to the other player; to give more time, use +30 s). Move on?"
    ),
    settings={
        "board": Setting(
            _("Board"),
            "choice",
            DEFAULT_BOARD,
            choices=(
                ("people", _("People (hair, glasses, hats ...)")),
                ("monsters", _("Friendly monsters (horns, wings, eyes ...)")),
            ),
        ),
        "turn_seconds": Setting(_("Seconds per turn"), "int", 60, 15, 300),
        "timeout": Setting(
            _("Running out of time on a turn"),
            "choice",
            "pass",
            choices=(
                ("pass", _("Passes the turn (a student who drops out only loses turns)")),
                ("lose_round", _("Loses the round")),
                ("lose_match", _("Loses the match")),
            ),
        ),
        "bot": Setting(
            _("Computer opponent"),
            "choice",
            "medium",
            choices=(("easy", _("Easy")), ("medium", _("Medium")), ("hard", _("Hard"))),
        ),
    },
)


def table_config(session, players: list[dict], rng: Rng) -> dict:
    settings = session.settings
    return build_config(
        DEFINITION,
        players=with_bots(DEFINITION, players, 2, settings["bot"]),
        seed_rng=rng,
        turn_seconds=settings["turn_seconds"],
        timeout=settings.get("timeout", "pass"),  # sessions scheduled before the setting: the default
        board=settings.get("board", DEFAULT_BOARD),
        salt=secrets.token_hex(32),  # server-chosen, published with the seed at the end
    )


DEFINITION = GameDefinition(
    name="faces",
    title=_("Line-Up"),
    kind=_("Guess Who"),
    engine=Faces,
    spec=SPEC,
    table_config=table_config,
    reports=MEASURES,
    # The salt of the match's commitment, published with the seed when the match ends.
    # The board (people or monsters): in the config so replays and verification draw the same faces.
    extra_config=frozenset({"salt", "board"}),
    pages="games.definitions.faces.pages",
    scripts=tuple(f"js/games/faces/{part}.js" for part in ("words", "art", "board", "view", "input")),
    homework=HomeworkForm(
        timers=("turn_seconds",),
        computer_players=(1, 1),
        defaults={"bot": "hard"},
        strength_setting="bot",
    ),
)
