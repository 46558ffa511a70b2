"""Records Line Up! view messages for the JavaScript unit tests (tests/js/lineup.test.js): a two-against-two
game through the engine alone (the engine tests' seeded helpers), and at a few moments the message each
viewer's screen gets. Run it again after the engine's view changes (docs/frontend.md, "Recorded view
messages"):

    .venv/bin/python -m tests.js.record_lineup
"""

from __future__ import annotations

import functools
from pathlib import Path

from tests.js import recording
from tests.loading import engine_module

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).with_name("fixtures") / "lineup"
h = engine_module("test_lineup_helpers")

#: write(name, state, seq, role, player=None, compact=False): one fixture of this game's.
write = functools.partial(recording.write_fixture, FIXTURES, h.GAME)


def record() -> list[Path]:
    written: list[Path] = []
    # Purple, round 1: blue answers on its rack (Ava or Ben is its captain).
    state = h.new_game()
    captain = h.captain(state, "blue")
    mate = "ben" if captain == "ava" else "ava"
    written.append(write("answer.captain", state, 1, "player", captain))
    written.append(write("answer.mate", state, 1, "player", mate))
    written.append(write("answer.projector", state, 1, "projector"))
    written.append(write("answer.console", state, 1, "teacher", compact=True))
    # The reveal: blue got the rulebook's three right.
    answer = h.answer_of(state)
    revealed = h.lock(h.lock(state, "blue", h.order_with(answer, 3)), "yellow", h.order_with(answer, 1))
    written.append(write("reveal.captain", revealed, 5, "player", captain))
    # Orange: the teams predict.
    predict = h.fresh(blue=9, yellow=2)
    written.append(write("predict.captain", predict, 9, "player", h.captain(predict, "blue")))
    # A star turn: blue lands on the star at 4.
    star = h.fresh(blue=3, yellow=0)
    answer = h.answer_of(star)
    star = h.end_reveal(
        h.lock(h.lock(star, "blue", h.order_with(answer, 1)), "yellow", h.order_with(answer, 0))
    )
    written.append(write("star.captain", star, 13, "player", h.captain(star, "blue")))
    return written


if __name__ == "__main__":
    for path in record():
        print(path.relative_to(ROOT))
