"""Records Word Up view messages for the JavaScript unit tests (tests/js/wordup.test.js): a seeded game of
three computer players through the engine alone, and at a few moments the message each viewer's screen
gets. Run it again after the engine's view changes (docs/frontend.md, "Recorded view messages"):

    .venv/bin/python -m tests.js.record_wordup
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

from games.engine import core
from games.engine.wordup import WordUp
from games.shipped import wordup_questions
from tests.js import recording

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).with_name("fixtures") / "wordup"
SEED = "record-wordup-0"
GAME = WordUp()
PLAYERS: list[dict] = [{"id": "p1", "name": "Ava M.", "level": 1}, {"id": "p2", "name": "Ben K.", "level": 3}]

#: write(name, state, seq, role, player=None, compact=False): one fixture of this game's.
write = functools.partial(recording.write_fixture, FIXTURES, GAME)


def asked(category: str) -> Callable[[dict], bool]:
    return lambda s: s["phase"] == "answer" and s["question"]["category"] == category


# The moments recorded: the first state in the game where each holds, seen by the player to move.
MOMENTS: dict[str, Callable[[dict], bool]] = {
    "roll": lambda s: s["phase"] == "roll",
    "missing-word": asked("missing_word"),
    "multiple-choice": asked("multiple_choice"),
    "spelling": asked("spelling"),
    "reveal": lambda s: s["phase"] == "reveal",
}


def mover(state: dict) -> str:
    if state["phase"] in ("answer", "reveal") and state["question"]:
        return state["question"]["player"]
    return state["turn"]


def record() -> list[Path]:
    config = {**GAME.default_config, "players": PLAYERS, "questions": wordup_questions()}
    state = GAME.setup(config, SEED, now=0.0)
    rng = core.Rng(f"bots:{SEED}")
    written: list[Path] = []
    for name, moment, seq in recording.first_moments(GAME, state, MOMENTS, rng):
        if name == "over":
            break
        written.append(write(f"{name}.player", moment, seq, "player", mover(moment)))
        if name in ("missing-word", "reveal"):
            other = next(p["id"] for p in PLAYERS if p["id"] != mover(moment))
            written.append(write(f"{name}.waiting", moment, seq, "player", other))
            written.append(write(f"{name}.console", moment, seq, "teacher", compact=True))
            written.append(write(f"{name}.projector", moment, seq, "projector"))
    written.append(write("over.player", moment, seq, "player", "p1"))
    written.append(write("over.projector", moment, seq, "projector"))
    return written


if __name__ == "__main__":
    for path in record():
        print(path.relative_to(ROOT))
