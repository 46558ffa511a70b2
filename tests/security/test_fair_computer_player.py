"""Line Up!'s computer players call their orange predictions and pink bids from their own belief, never by
checking their ordering against the hidden answer (a homework opponent that could not be wrong)."""

from __future__ import annotations

import json

import pytest

from games.engine import core
from games.engine.lineup import right_count
from tests.loading import engine_module

h = engine_module("test_lineup_helpers")
GAME = h.GAME
LEVELS = ("easy", "medium", "hard")
ORANGE, PINK = 9, 17  # the first space of each zone on the standard board


def bots(level):
    return [dict(p, bot=level) for p in h.TWO_V_TWO]


def with_answer(state, answer):
    """The same state but for the current question's hidden answer (its hidden values follow it)."""
    changed = core.clone(state)
    index = changed["q"]["index"]
    question = json.loads(changed["questions"][index])
    ranked = [question["items"][card - 1] for card in question["answer"]]
    hidden = [(item["value"], item["display"]) for item in ranked]
    for (value, display), card in zip(hidden, answer, strict=True):
        question["items"][card - 1].update(value=value, display=display)
    question["answer"] = list(answer)
    changed["questions"][index] = json.dumps(question)
    return changed


def bot_calls(state):
    """What each player's bot does now, with the same generator each time."""
    return {p: GAME.bot_action(state, p, core.Rng(f"calls-{p}")) for p in GAME.current_players(state)}


VIEWERS = [{"role": "player", "player": p["id"]} for p in h.TWO_V_TWO] + [{"role": "projector"}]


@pytest.mark.parametrize(("zone", "phase"), [(ORANGE, "predict"), (PINK, "bid")])
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed", ["one", "two", "three"])
def test_changing_only_the_hidden_answer_never_changes_a_bots_prediction_or_bid(zone, phase, level, seed):
    state = h.fresh(blue=zone, yellow=zone, players=bots(level), seed=seed)
    assert state["phase"] == phase
    calls = bot_calls(state)
    assert {action["type"] for action in calls.values()} == {phase}
    for answer in h.PERMS:
        other = with_answer(state, answer)
        assert h.answer_of(other) == answer
        assert [GAME.view(other, v) for v in VIEWERS] == [GAME.view(state, v) for v in VIEWERS]
        assert bot_calls(other) == calls, answer


def predictions_and_rights(level, games=60):
    """(prediction, cards right) for the blue bot team over many orange questions."""
    out = []
    for n in range(games):
        state = h.fresh(blue=ORANGE, yellow=ORANGE, players=bots(level), seed=f"sanity-{n}")
        captain = h.captain(state, "blue")
        prediction = GAME.bot_action(state, captain, core.Rng(f"sanity-{n}"))["value"]
        state = h.choose(h.choose(state, "blue", prediction), "yellow", 1)
        assert state["phase"] == "answer"
        order = GAME.bot_action(state, h.captain(state, "blue"), core.Rng("answer"))["order"]
        out.append((prediction, right_count(order, h.answer_of(state))))
    return out


def test_hard_bots_miss_some_predictions_yet_make_more_of_them_and_earn_more_than_weaker_bots():
    made, earned = {}, {}
    for level in LEVELS:
        calls = predictions_and_rights(level)
        made[level] = sum(right >= prediction for prediction, right in calls) / len(calls)
        earned[level] = sum(prediction for prediction, right in calls if right >= prediction) / len(calls)
    # Reading the answer, hard bots made every one of these 60 predictions (46 of 48 in the review).
    assert made["easy"] < made["hard"] < 0.9
    assert earned["easy"] < earned["medium"] < earned["hard"]
