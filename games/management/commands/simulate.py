"""``manage.py simulate GAME --seed N --players K``: a whole game between computer players, engine only."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import content
from games.definitions import get_engine, is_game, names
from games.engine import core


def seed_string(number: int) -> str:
    """The engine seed for ``--seed N``: it depends on N alone, so a run can be repeated anywhere."""
    return f"simulate:{number}"


def build(
    game: str, *, seed: int, players: int, level: int | None = None, bot: str = "medium"
) -> tuple[core.Game, dict[str, Any], str]:
    """The engine, config and seed string of a bot game. Raises CommandError with a readable reason."""
    if not is_game(game):
        raise CommandError(f"Unknown game {game!r}. Games: {', '.join(names())}.")
    engine = get_engine(game)
    low, high = engine.min_players, engine.max_players
    if not low <= players <= high:
        allowed = f"exactly {low}" if low == high else f"{low} to {high}"
        raise CommandError(f"{game} is played by {allowed} players, not {players}.")
    seed_text = seed_string(seed)
    try:
        config = content.default_config(
            game,
            players=content.bot_players(game, players, bot),
            # Content drawn at random (Line Up!'s question order) comes from its own stream of the seed.
            seed_rng=core.Rng(f"content:{seed_text}"),
            level=level,
        )
    except ValueError as error:
        raise CommandError(f"{game}: {error}.") from None
    return engine, config, seed_text


# play_with_bots fires a deadline only when no bot can act, and Line Up!'s team members can always act
# (they rearrange the rack until their captain locks it), so a 60-player game takes some 30,000 moves.
MAX_STEPS = 200_000


def play(engine: core.Game, config: dict[str, Any], seed_text: str):
    """``core.play_with_bots``, with an engine's refusal turned into a CommandError."""
    try:
        return core.play_with_bots(engine, config, seed_text, max_steps=MAX_STEPS)
    except (ValueError, RuntimeError) as error:
        raise CommandError(f"{engine.name}: {error}") from None


class Command(BaseCommand):
    help = (
        "Play a whole game between computer players through the engine alone (no server, no database) "
        "and print one line of JSON: game, seed, players, level, bot, outcome (as the engine reports it), "
        "actions (moves played), deadlines (timed phases that ran out) and state_hash (SHA-256 of the final "
        "state's canonical JSON). The same arguments always print the same line. "
        "Games: lineup (Line Up!; players split into blue and yellow), wordup (Word Up), faces (Line-Up, "
        "exactly 2 players), lineit (Line-it), mindlines (Mind the Lines; --level 1-3 plays the easy deck, "
        "4-5 the hard one)."
    )
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", help=f"one of {', '.join(names())}")
        parser.add_argument("--seed", type=int, default=1, help="any whole number (default 1)")
        parser.add_argument("--players", type=int, default=2, help="how many computer players (default 2)")
        parser.add_argument(
            "--level",
            type=int,
            default=None,
            help="1-5: lineup questions of that level (default all), wordup players' level (default 3), "
            "lineit number level (default 3), mindlines deck (1-3 easy, 4-5 hard; default easy)",
        )
        parser.add_argument(
            "--bot",
            default="medium",
            help="easy, medium or hard (default medium); wordup and mindlines also take an accuracy 0-1",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        game = options["game"]
        engine, config, seed_text = build(
            game, seed=options["seed"], players=options["players"], level=options["level"], bot=options["bot"]
        )
        state, log, _events = play(engine, config, seed_text)
        summary = {
            "game": game,
            "seed": options["seed"],
            "players": options["players"],
            "level": options["level"],
            "bot": options["bot"],
            "outcome": engine.outcome(state),
            "actions": sum(1 for entry in log if entry["kind"] == "action"),
            "deadlines": sum(1 for entry in log if entry["kind"] == "deadline"),
            "state_hash": core.state_hash(state),
        }
        self.stdout.write(json.dumps(summary, ensure_ascii=False))
