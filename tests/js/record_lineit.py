"""Records Line-it view messages for the JavaScript unit tests (tests/js/lineit.test.js): a seeded game of
three computer players through the engine alone, and at a few moments the message each viewer's screen
gets. Run it again after the engine's view changes (docs/frontend.md, "Recorded view messages"):

    .venv/bin/python -m tests.js.record_lineit
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from games.engine import core
from games.engine.lineit import LineIt
from games.engine.lineit.rules import HAND_LIMIT

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).with_name("fixtures") / "lineit"
SEED = "record-lineit-0"
GAME = LineIt()
PLAYERS = [{"id": "p1", "name": "Ava M."}, {"id": "p2", "name": "Ben K."}, {"id": "p3", "name": "Cleo D."}]


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
    seq, now = 1, 0.0
    found: set[str] = set()
    while state["phase"] != "over":
        for name, holds in MOMENTS.items():
            if name not in found and holds(state):
                found.add(name)
                mover = turn(state)["player"]
                written.append(write(f"{name}.player", state, seq, "player", mover))
                if name == "take":
                    waiting = next(p["id"] for p in PLAYERS if p["id"] != mover)
                    written.append(write("take.waiting", state, seq, "player", waiting))
                    written.append(write("take.console", state, seq, "teacher", compact=True))
                    written.append(write("take.projector", state, seq, "projector"))
        player = GAME.current_players(state)[0]
        now += 1.0
        state, _events = GAME.apply(state, player, GAME.bot_action(state, player, rng), now)
        seq += 1
    missing = set(MOMENTS) - found
    if missing:
        raise SystemExit(f"the seeded game never reached {', '.join(sorted(missing))}: try another SEED")
    written.append(write("over.player", state, seq, "player", "p1"))
    written.append(write("over.projector", state, seq, "projector"))
    return written


if __name__ == "__main__":
    for path in record():
        print(path.relative_to(ROOT))
