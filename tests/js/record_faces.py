"""Records Line-Up view messages for the JavaScript unit tests (tests/js/faces.test.js): a seeded match of
two students, each move the one a medium computer player would make, through the engine alone, and at a
few moments the message each viewer's screen gets. Run it again after the engine's view changes
(docs/frontend.md, "Recorded view messages"):

    .venv/bin/python -m tests.js.record_faces
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from games.engine import core
from games.engine.faces import Faces

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).with_name("fixtures") / "faces"
SEED = "record-faces-0"
GAME = Faces()
PLAYERS = [{"id": "p1", "name": "Ava M."}, {"id": "p2", "name": "Ben K."}]


def viewer_of(role: str, player: str | None) -> dict:
    return {"role": role, "player": player} if role == "player" else {"role": role}


def write(
    name: str, state: dict, seq: int, role: str, player: str | None = None, compact: bool = False
) -> Path:
    """One fixture: the page controller's message for one viewer (the engine's view, as JSON sends it)
    and that viewer's ctx."""
    status = "finished" if state["phase"] == "over" else "playing"
    view = json.loads(json.dumps(GAME.view(state, viewer_of(role, player))))
    table = {"table": 7, "number": 1, "seq": seq, "status": status, "view": view}
    fixture = {"ctx": {"role": role, "player": player, "compact": compact}, "table": table}
    path = FIXTURES / f"{name}.json"
    path.write_text(json.dumps(fixture, indent=1, ensure_ascii=False) + "\n", "utf-8")
    return path


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
    FIXTURES.mkdir(parents=True, exist_ok=True)
    config = {**GAME.default_config, "players": PLAYERS}
    state = GAME.setup(config, SEED, now=0.0)
    rng = core.Rng(f"bots:{SEED}")
    written: list[Path] = []
    seq, now = 1, 0.0
    found: set[str] = set()
    while state["phase"] != "over":
        for name, holds in MOMENTS.items():
            if name not in found and holds(state):
                found.add(name)
                written += record_moment(name, state, seq)
        player = GAME.current_players(state)[0]
        now += 1.0
        state, _events = GAME.apply(state, player, GAME.bot_action(state, player, rng), now)
        seq += 1
    missing = set(MOMENTS) - found
    if missing:
        raise SystemExit(f"the seeded match never reached {', '.join(sorted(missing))}: try another SEED")
    written.append(write("over.player", state, seq, "player", "p1"))
    written.append(write("over.other", state, seq, "player", "p2"))
    written.append(write("over.console", state, seq, "teacher", compact=True))
    written.append(write("over.projector", state, seq, "projector"))
    return written


if __name__ == "__main__":
    for path in record():
        print(path.relative_to(ROOT))
