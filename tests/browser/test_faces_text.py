"""Every message Line-Up's screens produce, checked for slips: each phase and each way a round or a match
ends, on both players' devices, the console (compact and full) and the projector, with names that end in
an initial's dot ("Aisha K."), the announcements included."""

from __future__ import annotations

import json

import pytest

from games.engine.faces import Faces
from tests.browser.harness import in_time
from tests.browser.text_slips import COLLECT, module_pages, repeated_lines, slips_in

pytestmark = [pytest.mark.browser]
GAME = Faces()
A, B = "s1", "s2"
VIEWERS = {
    "a": ("player", A, False),
    "b": ("player", B, False),
    "console": ("teacher", None, True),
    "replay": ("teacher", None, False),
    "projector": ("projector", None, False),
}


def pages_for(new_page):
    return module_pages(new_page, VIEWERS, "faces")


def show(pages, state, seq, status="playing"):
    """Draws ``state`` on every page and returns what each says."""
    said = {}
    for name, page in pages.items():
        role, player, _compact = VIEWERS[name]
        viewer = {"role": "player", "player": player} if role == "player" else {"role": role}
        view = json.loads(json.dumps(GAME.view(state, viewer)))
        page.evaluate(
            "t => window.draw(t)", {"table": 7, "number": 3, "seq": seq, "status": status, "view": view}
        )
        said[name] = page.evaluate(COLLECT)
    return said


def check(said, where):
    problems = []
    for name, items in said.items():
        problems += [f"{where}, {name}: {problem}" for problem in slips_in(items)]
        # On a player's own device, a sentence about them says "You" (not "Aisha K. named the right face.").
        own = {"a": "Aisha K.", "b": "Ben O."}.get(name)
        problems += [
            f"{where}, {name}: their own name where “you” belongs: {item['text']!r}"
            for item in items
            if own and item["sentence"] and item["kind"] != "announced" and item["text"].startswith(own + " ")
        ]
        # No sentence or heading shown twice on a device or the projector (the console's history lists every
        # round, and two rounds may end the same way; the announcements may repeat a heading).
        if name not in ("console", "replay"):
            shown = "\n".join(
                item["text"]
                for item in items
                if item["sentence"] and not item.get("item") and item["kind"] != "announced"
            )
            problems += [f"{where}, {name}: said twice: {line!r}" for line in repeated_lines(shown)]
    return problems


def play(new_page, config_extra, moves, status_at_end="playing"):
    """Plays ``moves`` (functions of the state returning it moved on) and checks every screen after each."""
    config = {"players": [{"id": A, "name": "Aisha K."}, {"id": B, "name": "Ben O."}], **config_extra}
    state = GAME.setup(config, "faces-text", now=0.0)
    pages = pages_for(new_page)
    problems = check(show(pages, state, 1), "the start")
    for seq, move in enumerate(moves, start=2):
        state = move(state, in_time(state, float(seq * 10)))
        status = (
            status_at_end if seq == len(moves) + 1 else ("finished" if GAME.is_over(state) else "playing")
        )
        problems += check(show(pages, state, seq, status), f"after {move.__name__}")
    return problems


def ask(state, now):
    from games.engine.faces.features import question_splits

    player = state["turn"]
    splits = question_splits(state, player)
    question = max(splits, key=lambda key: min(splits[key], len(state["left"][player]) - splits[key]))
    return GAME.apply(state, player, {"type": "ask", "question": question}, now)[0]


def ask_lopsided(state, now):
    """A question that keeps one face (when the pad has one): the other side is down to one."""
    from games.engine.faces.features import question_splits

    player = state["turn"]
    splits = question_splits(state, player)
    left = len(state["left"][player])
    target = state["rounds"][state["round"]]["secret"][next(p for p in state["players"] if p != player)]
    from games.engine.faces.features import faces_left, split

    for key in splits:
        yes, no = split(faces_left(state, player), key)
        kept = yes if target in yes else no
        if len(kept) < left:
            return GAME.apply(state, player, {"type": "ask", "question": key}, now)[0]
    return ask(state, now)


def name_right(state, now):
    player = state["turn"]
    other = next(p for p in state["players"] if p != player)
    return GAME.apply(
        state, player, {"type": "name", "face": state["rounds"][state["round"]]["secret"][other]}, now
    )[0]


def name_wrong(state, now):
    player = state["turn"]
    other = next(p for p in state["players"] if p != player)
    secret = state["rounds"][state["round"]]["secret"][other]
    wrong = next(f for f in state["left"][player] if f != secret)
    return GAME.apply(state, player, {"type": "name", "face": wrong}, now)[0]


def ready_a(state, now):
    return GAME.apply(state, A, {"type": "ready"}, now)[0]


def ready_b(state, now):
    return GAME.apply(state, B, {"type": "ready"}, now)[0]


def time_runs_out(state, now):
    return GAME.on_deadline(state, now)[0]


def resign_a(state, now):
    return GAME.apply(state, A, {"type": "resign"}, now)[0]


def resign_b(state, now):
    return GAME.apply(state, B, {"type": "resign"}, now)[0]


def test_a_match_won_on_rounds_says_everything_right(new_page):
    moves = [ask, ask, ask_lopsided, ask, name_right, ready_a, ready_b, ask, name_wrong, ready_b, ready_a]
    moves += [ask, ask, name_right]
    assert play(new_page, {}, moves) == []


def test_missed_turns_resignations_and_forfeits_say_everything_right(new_page):
    assert play(new_page, {}, [ask, time_runs_out, time_runs_out, ask, resign_a]) == []
    assert play(new_page, {}, [name_right, ready_a, resign_b]) == []
    assert (
        play(new_page, {"timeout": "lose_round"}, [time_runs_out, ready_a, ready_b, ask, time_runs_out]) == []
    )
    assert play(new_page, {"timeout": "lose_match"}, [ask, time_runs_out]) == []


def test_a_match_the_teacher_ended_says_so_once(new_page):
    assert play(new_page, {}, [ask, name_right, ready_a, ready_b, ask], status_at_end="ended") == []
