"""Records Mind the Lines view messages for the JavaScript unit tests (tests/js/mindlines.test.js): a seeded
round of three players through the engine alone (each draws one line of their board and shows it, each
excludes a decoy), and at a few moments the message each viewer's screen gets. Run it again after the
engine's view changes (docs/frontend.md, "Recorded view messages"):

    .venv/bin/python -m tests.js.record_mindlines
"""

from __future__ import annotations

import functools
from pathlib import Path

from games.engine.mindlines import MindTheLines, boards, rules
from games.shipped import mindlines_concepts
from tests.js import recording

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).with_name("fixtures") / "mindlines"
SEED = "record-mindlines-0"
GAME = MindTheLines()
PLAYERS = [{"id": "p1", "name": "Ava M."}, {"id": "p2", "name": "Ben K."}, {"id": "p3", "name": "Cleo D."}]

#: write(name, state, seq, role, player=None, compact=False): one fixture of this game's.
write = functools.partial(recording.write_fixture, FIXTURES, GAME)


def first_line(state: dict, player: str) -> list[int]:
    drawing = state["drawings"][player]
    return boards.side_lines(state["board_seed"], rules.BOARD_COUNT, drawing["board"], drawing["side"])[0]


def record() -> list[Path]:
    config = {**GAME.default_config, "players": PLAYERS, "concepts": mindlines_concepts("easy", "en")}
    state = GAME.setup(config, SEED, now=0.0)
    written: list[Path] = []
    seq, now = 1, 0.0

    def act(player: str, action: dict) -> None:
        nonlocal state, seq, now
        now += 1.0
        state, _events = GAME.apply(state, player, action, now)
        seq += 1

    written.append(write("looking.player", state, seq, "player", "p1"))
    for seat in PLAYERS:
        act(seat["id"], {"type": "ready"})
    written.append(write("scribbling.player", state, seq, "player", "p1"))
    act("p2", {"type": "stroke", "segments": [first_line(state, "p2")]})
    act("p2", {"type": "done"})
    act("p1", {"type": "stroke", "segments": [first_line(state, "p1")]})
    written.append(write("drawing.player", state, seq, "player", "p1"))
    written.append(write("scribbling.console", state, seq, "teacher", compact=True))
    act("p1", {"type": "done"})
    act("p3", {"type": "stroke", "segments": [first_line(state, "p3")]})
    act("p3", {"type": "done"})
    turn = rules.prophesier(state)
    written.append(write("prophesying.player", state, seq, "player", turn))
    waiting = next(p["id"] for p in PLAYERS if p["id"] != turn)
    written.append(write("prophesying.waiting", state, seq, "player", waiting))
    written.append(write("prophesying.projector", state, seq, "projector"))
    while state["phase"] == "prophesying":
        turn = rules.prophesier(state)
        decoys = set(state["decoys"])
        excluded = {entry["card"] for entry in state["excluded"]}
        card = next(c for c, cid in enumerate(state["cards"]) if cid in decoys and c not in excluded)
        act(turn, {"type": "exclude", "card": card})
    written.append(write("reveal.player", state, seq, "player", "p1"))
    written.append(write("reveal.projector", state, seq, "projector"))
    return written


if __name__ == "__main__":
    for path in record():
        print(path.relative_to(ROOT))
