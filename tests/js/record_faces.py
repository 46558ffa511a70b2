"""Records Line-Up view messages for the JavaScript unit tests (tests/js/faces.test.js): a seeded match of
two students, each move the one a medium computer player would make, through the engine alone, and at a
few moments the message each viewer's screen gets. Run it again after the engine's view changes
(docs/frontend.md, "Recorded view messages"):

    .venv/bin/python -m tests.js.record_faces
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

from games.engine import core
from games.engine.faces import Faces
from tests.js import recording

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).with_name("fixtures") / "faces"
SEED = "record-faces-0"
GAME = Faces()
PLAYERS = [{"id": "p1", "name": "Ava M."}, {"id": "p2", "name": "Ben K."}]

#: write(name, state, seq, role, player=None, compact=False): one fixture of this game's.
write = functools.partial(recording.write_fixture, FIXTURES, GAME)


def other(player: str) -> str:
    return "p2" if player == "p1" else "p1"


def asked_count(state: dict) -> int:
    return sum(len(entries) for entries in state["asked"].values())


# The moments recorded: the first state in the match where each holds.
MOMENTS: dict[str, Callable[[dict], bool]] = {
    "ask": lambda s: s["phase"] == "ask" and s["round"] == 0 and asked_count(s) == 0,
    "answered": lambda s: s["phase"] == "ask" and s["round"] == 0 and asked_count(s) == 1,
    "reveal": lambda s: s["phase"] == "reveal",
}


def record_moment(name: str, state: dict, seq: int) -> list[Path]:
    """Every screen of one moment: the student to move (and the other one), the console, the projector."""
    mover = state["turn"] or "p1"
    if name == "answered":  # the student who just asked, and the one whose turn it is now
        return [
            write("answered.asker", state, seq, "player", other(mover)),
            write("answered.player", state, seq, "player", mover),
        ]
    written = [
        write(f"{name}.player", state, seq, "player", mover),
        write(f"{name}.console", state, seq, "teacher", compact=True),
        write(f"{name}.projector", state, seq, "projector"),
    ]
    if name == "ask":
        written.append(write("ask.waiting", state, seq, "player", other(mover)))
        written.append(write("ask.teacher", state, seq, "teacher"))
    return written


def record() -> list[Path]:
    config = {**GAME.default_config, "players": PLAYERS}
    state = GAME.setup(config, SEED, now=0.0)
    rng = core.Rng(f"bots:{SEED}")
    written: list[Path] = []
    for name, moment, seq in recording.first_moments(GAME, state, MOMENTS, rng):
        if name != "over":
            written += record_moment(name, moment, seq)
    written.append(write("over.player", moment, seq, "player", "p1"))
    written.append(write("over.other", moment, seq, "player", "p2"))
    written.append(write("over.console", moment, seq, "teacher", compact=True))
    written.append(write("over.projector", moment, seq, "projector"))
    return written


if __name__ == "__main__":
    for path in record():
        print(path.relative_to(ROOT))
