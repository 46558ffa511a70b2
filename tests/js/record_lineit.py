"""Records Line-it view messages for the JavaScript unit tests (tests/js/lineit.test.js): a seeded game of
three computer players through the engine alone, and at a few moments the message each viewer's screen
gets. Run it again after the engine's view changes (docs/frontend.md, "Recorded view messages"):

    .venv/bin/python -m tests.js.record_lineit
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

from games.engine import core
from games.engine.lineit import LineIt
from games.engine.lineit.rules import HAND_LIMIT
from tests.js import recording

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).with_name("fixtures") / "lineit"
SEED = "record-lineit-0"
GAME = LineIt()
PLAYERS = [{"id": "p1", "name": "Ava M."}, {"id": "p2", "name": "Ben K."}, {"id": "p3", "name": "Cleo D."}]

#: write(name, state, seq, role, player=None, compact=False): one fixture of this game's.
write = functools.partial(recording.write_fixture, FIXTURES, GAME)


def turn(state: dict) -> dict:
    return state["turn"] or {}


def hand_of(state: dict) -> list:
    return state["hands"][turn(state)["player"]] if state["turn"] else []


def has_hand_to_play(state: dict) -> bool:
    return turn(state).get("step") == "after" and bool(hand_of(state)) and not turn(state)["played"]


# The moments recorded: the first state in the game where each holds, seen by the player to move.
MOMENTS: dict[str, Callable[[dict], bool]] = {
    "take": lambda s: turn(s).get("step") == "take" and s["round"] == 1,
    "take-full-hand": lambda s: turn(s).get("step") == "take" and len(hand_of(s)) >= HAND_LIMIT,
    "after-with-hand": has_hand_to_play,
    "final": lambda s: turn(s).get("step") == "final",
}


def record() -> list[Path]:
    config = {**GAME.default_config, "players": PLAYERS, "card_ids": "plain"}
    state = GAME.setup(config, SEED, now=0.0)
    rng = core.Rng(f"bots:{SEED}")
    written: list[Path] = []
    for name, moment, seq in recording.first_moments(GAME, state, MOMENTS, rng):
        if name == "over":
            break
        mover = turn(moment)["player"]
        written.append(write(f"{name}.player", moment, seq, "player", mover))
        if name == "take":
            waiting = next(p["id"] for p in PLAYERS if p["id"] != mover)
            written.append(write("take.waiting", moment, seq, "player", waiting))
            written.append(write("take.console", moment, seq, "teacher", compact=True))
            written.append(write("take.projector", moment, seq, "projector"))
    written.append(write("over.player", moment, seq, "player", "p1"))
    written.append(write("over.projector", moment, seq, "projector"))
    return written


if __name__ == "__main__":
    for path in record():
        print(path.relative_to(ROOT))
