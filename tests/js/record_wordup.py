"""Records Word Up view messages for the JavaScript unit tests (tests/js/wordup.test.js): a seeded game of
three computer players through the engine alone, and at a few moments the message each viewer's screen
gets. Run it again after the engine's view changes (docs/frontend.md, "Recorded view messages"):

    .venv/bin/python -m tests.js.record_wordup
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from games.engine import core
from games.engine.core import TEACHER
from games.engine.wordup import WordUp
from games.shipped import wordup_questions

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).with_name("fixtures") / "wordup"
SEED = "record-wordup-0"
GAME = WordUp()
PLAYERS: list[dict] = [{"id": "p1", "name": "Ava M.", "level": 1}, {"id": "p2", "name": "Ben K.", "level": 3}]


def write(
    name: str, state: dict, seq: int, role: str, player: str | None = None, compact: bool = False
) -> Path:
    """One fixture: the page controller's message for one viewer and that viewer's ctx."""
    status = "finished" if state["phase"] == "over" else "playing"
    viewer = {"role": role, "player": player} if role == "player" else {"role": role}
    view = json.loads(json.dumps(GAME.view(state, viewer)))
    table = {"table": 7, "number": 1, "seq": seq, "status": status, "view": view}
    fixture = {"ctx": {"role": role, "player": player, "compact": compact}, "table": table}
    path = FIXTURES / f"{name}.json"
    path.write_text(json.dumps(fixture, indent=1, ensure_ascii=False) + "\n", "utf-8")
    return path


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
    FIXTURES.mkdir(parents=True, exist_ok=True)
    config = {**GAME.default_config, "players": PLAYERS, "questions": wordup_questions()}
    state = GAME.setup(config, SEED, now=0.0)
    rng = core.Rng(f"bots:{SEED}")
    written: list[Path] = []
    seq, now = 1, 1.0
    found: set[str] = set()
    while state["phase"] != "over":
        for name, holds in MOMENTS.items():
            if name not in found and holds(state):
                found.add(name)
                written.append(write(f"{name}.player", state, seq, "player", mover(state)))
                if name in ("missing-word", "reveal"):
                    other = next(p["id"] for p in PLAYERS if p["id"] != mover(state))
                    written.append(write(f"{name}.waiting", state, seq, "player", other))
                    written.append(write(f"{name}.console", state, seq, "teacher", compact=True))
                    written.append(write(f"{name}.projector", state, seq, "projector"))
        players = [p for p in GAME.current_players(state) if p != TEACHER]
        if players:
            state, _events = GAME.apply(state, players[0], GAME.bot_action(state, players[0], rng), now)
        else:
            state, _events = GAME.on_deadline(state, now)
        seq += 1
        now += 1.0
    missing = set(MOMENTS) - found
    if missing:
        raise SystemExit(f"the seeded game never reached {', '.join(sorted(missing))}: try another SEED")
    written.append(write("over.player", state, seq, "player", "p1"))
    written.append(write("over.projector", state, seq, "projector"))
    return written


if __name__ == "__main__":
    for path in record():
        print(path.relative_to(ROOT))
