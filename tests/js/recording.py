"""What every recorder of view messages shares (tests/js/record_<game>.py): one fixture file per viewer,
holding the page controller's message for that viewer (the engine's view, as JSON sends it) and the
viewer's ctx."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

from games.engine.core import TEACHER, Game, Rng


def viewer_of(role: str, player: str | None) -> dict:
    return {"role": role, "player": player} if role == "player" else {"role": role}


def write_fixture(
    folder: Path,
    game: Game,
    name: str,
    state: dict,
    seq: int,
    role: str,
    player: str | None = None,
    compact: bool = False,
) -> Path:
    """One fixture, ``folder/name.json``."""
    status = "finished" if game.is_over(state) else "playing"
    view = json.loads(json.dumps(game.view(state, viewer_of(role, player))))
    table = {"table": 7, "number": 1, "seq": seq, "status": status, "view": view}
    fixture = {"ctx": {"role": role, "player": player, "compact": compact}, "table": table}
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    path.write_text(json.dumps(fixture, indent=1, ensure_ascii=False) + "\n", "utf-8")
    return path


def first_moments(
    game: Game, state: dict, moments: dict[str, Callable[[dict], bool]], rng: Rng
) -> Iterator[tuple[str, dict, int]]:
    """Plays the game to its end, each move the computer's (a deadline when nobody but the teacher may
    move), and yields (moment, state, seq) the first time each of ``moments`` holds, then ("over", the
    last state, its seq). Stops the recording if a moment never held: the seed must be changed."""
    seq, now = 1, 0.0
    found: set[str] = set()
    while not game.is_over(state):
        for name, holds in moments.items():
            if name not in found and holds(state):
                found.add(name)
                yield name, state, seq
        now += 1.0
        players = [player for player in game.current_players(state) if player != TEACHER]
        if players:
            state, _events = game.apply(state, players[0], game.bot_action(state, players[0], rng), now)
        else:
            state, _events = game.on_deadline(state, now)
        seq += 1
    missing = set(moments) - found
    if missing:
        raise SystemExit(f"the seeded game never reached {', '.join(sorted(missing))}: try another SEED")
    yield "over", state, seq
