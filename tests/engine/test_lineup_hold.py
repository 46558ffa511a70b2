"""Line Up!'s reveal: on show long enough for a class (the default), and the teacher may hold it.

The teacher's actions come from ``core.TEACHER`` (the runtime lets only the teacher's console send them):
``hold`` takes the reveal's deadline away until ``continue``, which starts the next question at once."""

from __future__ import annotations

import pytest

from games.engine import core
from games.engine.core import IllegalAction
from games.engine.lineup import LineUp
from tests.loading import engine_module

h = engine_module("test_lineup_helpers")
GAME = h.GAME


def revealed(now=5.0):
    state = h.new_game()
    answer = h.answer_of(state)
    state = h.lock(state, "blue", h.order_with(answer, 2), now=now)
    state = h.lock(state, "yellow", h.order_with(answer, 0), now=now)
    assert state["phase"] == "reveal"
    return state


def test_the_answer_stays_on_show_long_enough_for_a_class_by_default():
    assert LineUp.default_config["reveal_seconds"] >= 20
    state = revealed(now=5.0)
    assert state["clock"]["deadline"] == 5.0 + LineUp.default_config["reveal_seconds"]
    assert GAME.deadline(state) == 5.0 + LineUp.default_config["reveal_seconds"]


def test_the_reveal_time_is_still_a_setting():
    state = h.new_game(reveal_seconds=60)
    answer = h.answer_of(state)
    state = h.lock(state, "blue", answer, now=10.0)
    state = h.lock(state, "yellow", answer, now=10.0)
    assert state["clock"]["deadline"] == 70.0


def test_a_held_reveal_has_no_deadline_until_the_teacher_continues():
    state = revealed()
    assert [a["type"] for a in GAME.legal_actions(state, core.TEACHER)] == ["hold", "continue"]
    state, events = GAME.apply(state, core.TEACHER, {"type": "hold"}, 12.0)
    assert state["phase"] == "reveal" and state["reveal"]["held"] is True
    assert GAME.deadline(state) is None
    assert [e["type"] for e in events] == ["reveal_held"]
    assert GAME.legal_actions(state, core.TEACHER) == [{"type": "continue"}]
    # Every screen may say so: it is in the public views.
    for viewer in ({"role": "projector"}, {"role": "player", "player": "ava"}, {"role": "teacher"}):
        assert GAME.view(state, viewer)["reveal"]["held"] is True
    assert GAME.view(state, {"role": "teacher"})["teacher_can"] == ["continue"]
    # A pause and a resume do not release it; the teacher's continue starts round 2 now.
    core.clock_pause(state, 20.0)
    core.clock_resume(state, 500.0)
    assert GAME.deadline(state) is None
    state, events = GAME.apply(state, core.TEACHER, {"type": "continue"}, 600.0)
    assert state["phase"] == "answer" and state["round"] == 2
    assert state["clock"]["deadline"] == 600.0 + LineUp.default_config["answer_seconds"]
    assert "reveal_continued" in [e["type"] for e in events]
    assert GAME.legal_actions(state, core.TEACHER) == []


def test_the_teachers_move_on_still_ends_a_held_reveal():
    state, _events = GAME.apply(revealed(), core.TEACHER, {"type": "hold"}, 12.0)
    state = h.deadline(state, 30.0)[0]
    assert state["phase"] == "answer" and state["round"] == 2


@pytest.mark.parametrize(
    "player, action, code",
    [
        ("ava", {"type": "hold"}, "teacher_only"),
        ("ava", {"type": "continue"}, "teacher_only"),
        (core.TEACHER, {"type": "confirm"}, "teacher_only"),
        (core.TEACHER, {"type": "rack", "order": [1, 2, 3, 4, 5]}, "teacher_only"),
        (core.TEACHER, {"type": "hold", "extra": 1}, "bad_action"),
    ],
)
def test_only_the_teacher_holds_and_the_teacher_only_holds(player, action, code):
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(revealed(), player, action, 12.0)
    assert refused.value.code == code


def test_hold_and_continue_only_while_the_answer_is_on_show():
    state = h.new_game()
    for kind in ("hold", "continue"):
        with pytest.raises(IllegalAction) as refused:
            GAME.apply(state, core.TEACHER, {"type": kind}, 3.0)
        assert refused.value.code == "wrong_phase"
    held = GAME.apply(revealed(), core.TEACHER, {"type": "hold"}, 12.0)[0]
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(held, core.TEACHER, {"type": "hold"}, 13.0)
    assert refused.value.code == "held"


def test_a_held_game_replays_bit_for_bit():
    config = {"players": h.TWO_V_TWO, "questions": h.QUESTIONS}
    state = GAME.setup(config, h.SEED, now=0.0)
    log = []
    for team, right in (("blue", 3), ("yellow", 1)):
        captain = h.captain(state, team)
        order = h.order_with(h.answer_of(state), right)
        for action in ({"type": "rack", "order": order}, {"type": "confirm"}):
            state = GAME.apply(state, captain, action, 4.0)[0]
            log.append({"kind": "action", "player": captain, "action": action, "at": 4.0})
    for kind, at in (("hold", 8.0), ("continue", 90.0)):
        state = GAME.apply(state, core.TEACHER, {"type": kind}, at)[0]
        log.append({"kind": "action", "player": core.TEACHER, "action": {"type": kind}, "at": at})
    assert core.state_hash(core.replay(GAME, config, h.SEED, log)) == core.state_hash(state)
