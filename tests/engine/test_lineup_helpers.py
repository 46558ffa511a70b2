"""Shared fixture content and helpers for the Line Up! engine tests (no Django; holds no tests itself)."""

from __future__ import annotations

import itertools
import json
from typing import Any

from games.engine.lineup import CARDS, LineUp

GAME = LineUp()
SEED = "SEED-lineup-zebra-4417"
PERMS = [list(p) for p in itertools.permutations(CARDS)]
RULEBOOK_ANSWER = [2, 5, 3, 1, 4]


def make_question(i: int, answer: list[int] | None = None, level: int | None = None) -> dict[str, Any]:
    """A question whose secrets are easy to find in a view: odd float values and tagged strings."""
    answer = list(answer or PERMS[(i * 37 + 11) % 120])  # 37 is prime to 120: distinct answers for i < 120
    items: list[dict[str, Any]] = [{} for _ in CARDS]
    for rank, card in enumerate(answer):
        value = 7000.125 + i * 10 + rank * 1.5
        items[card - 1] = {
            "text": f"thing {i}.{card}",
            "value": value,
            "display": f"{value} zorks q{i}c{card}",
        }
    return {
        "id": f"q{i}",
        "heading": f"Heading {i}",
        "order_label": "Smallest first",
        "direction": "asc",
        "items": items,
        "answer": answer,
        "explanation": f"Because-q{i}-EXPLAIN",
        "source": f"https://example.org/source-q{i}",
        "level": level or 1 + i % 5,
        "subject": ("science", "geography", "history", "language", "maths")[i % 5],
        "tags": [f"tag{i % 3}"],
    }


QUESTIONS = [make_question(0, RULEBOOK_ANSWER)] + [make_question(i) for i in range(1, 80)]

TWO_V_TWO = [
    {"id": "ava", "name": "Ava", "team": "blue"},
    {"id": "ben", "name": "Ben", "team": "blue"},
    {"id": "cai", "name": "Cai", "team": "yellow"},
    {"id": "dee", "name": "Dee", "team": "yellow"},
]


def new_game(
    players: list[dict[str, Any]] | None = None,
    questions: list[dict[str, Any]] | None = None,
    seed: str = SEED,
    now: float = 0.0,
    **settings: Any,
) -> dict[str, Any]:
    config = {"players": players or TWO_V_TWO, "questions": questions or QUESTIONS, **settings}
    return GAME.setup(config, seed, now=now)


def act(state, player, action, now=1.0):
    return GAME.apply(state, player, action, now)[0]


def act_events(state, player, action, now=1.0):
    return GAME.apply(state, player, action, now)


def deadline(state, now=1000.0):
    return GAME.on_deadline(state, now)


def captain(state, team):
    return state["q"]["captain"][team]


def current_question(state) -> dict[str, Any]:
    return json.loads(state["questions"][state["q"]["index"]])


def answer_of(state) -> list[int]:
    return current_question(state)["answer"]


def order_with(answer: list[int], right: int) -> list[int]:
    """An ordering with exactly `right` cards in place (0, 1, 2, 3 or 5): keep a prefix, rotate the rest."""
    assert right in (0, 1, 2, 3, 5)
    head, tail = answer[:right], answer[right:]
    return head + tail[1:] + tail[:1]


def lock(state, team, order, now=5.0, events=None):
    """The team's captain puts `order` on the rack and locks it in."""
    state, ev1 = act_events(state, captain(state, team), {"type": "rack", "order": list(order)}, now)
    state, ev2 = act_events(state, captain(state, team), {"type": "confirm"}, now)
    if events is not None:
        events.extend(ev1 + ev2)
    return state


def choose(state, team, value, now=3.0):
    """The team's captain proposes a prediction or bid and locks it in."""
    state = act(state, captain(state, team), {"type": state["phase"], "value": value}, now)
    return act(state, captain(state, team), {"type": "confirm"}, now)


def lay(state, team, card, position, now=5.0):
    state = act(state, captain(state, team), {"type": "lay", "card": card, "position": position}, now)
    return act_events(state, captain(state, team), {"type": "confirm"}, now)


def stop(state, team, now=5.0):
    state = act(state, captain(state, team), {"type": "stop"}, now)
    return act_events(state, captain(state, team), {"type": "confirm"}, now)


def end_reveal(state, now=1000.0):
    assert state["phase"] == "reveal", state["phase"]
    return deadline(state, now)[0]


def pos(state, team):
    return state["teams"][team]["pos"]


def place(state, blue=None, yellow=None):
    if blue is not None:
        state["teams"]["blue"]["pos"] = blue
    if yellow is not None:
        state["teams"]["yellow"]["pos"] = yellow
    return state


def fresh(blue=0, yellow=0, **kw):
    """A game whose pawns stand at `blue` and `yellow` when round 2 starts (round 1 scores nothing)."""
    state = place(new_game(**kw), blue, yellow)
    answer = answer_of(state)
    state = lock(state, "blue", order_with(answer, 0))
    state = lock(state, "yellow", order_with(answer, 0))
    return end_reveal(state)


def log_types(state):
    return [entry["type"] for entry in state["log"]]
