"""``Engine.apply_in_place``, which the runtime uses on the state it has just read (a burst of answers at
a big table then copies no state): the same new state and events as ``apply``, and a refusal changes
nothing. Line Up! and Word Up override it without a copy; the other engines use the copying default."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import core
from games.engine.core import IllegalAction
from games.management.commands.simulate import build
from tests.loading import engine_module

GAMES = ["lineup", "wordup", "faces", "lineit", "mindlines"]
#: Whose all-bot games reach a deadline (a reveal that times out); in the others every bot acts in time.
GAMES_WITH_BOT_DEADLINES = {"lineup", "wordup"}


def _same_as_apply(engine, state, player, action, now):
    own = core.clone(state)
    try:
        expected = engine.apply(state, player, action, now)
    except IllegalAction as refused:
        with pytest.raises(IllegalAction) as again:
            engine.apply_in_place(own, player, action, now)
        assert again.value.code == refused.code
        assert own == state, "a refusal changes nothing"
        return None
    events = engine.apply_in_place(own, player, action, now)
    assert own == expected[0] and events == expected[1]
    return expected[0]


@pytest.mark.parametrize("game", GAMES)
def test_every_move_and_deadline_of_a_bot_game_in_place_is_the_same_as_apply(game):
    players = 2 if game in ("faces", "lineit") else 4
    engine, config, seed = build(game, seed=11, players=players)
    previous, moves, deadlines = None, 0, 0
    for state, entry, _events in core.bot_moves(engine, config, seed):
        if entry["kind"] == "action":
            assert _same_as_apply(engine, previous, entry["player"], entry["action"], entry["at"]) == state
            moves += 1
        elif entry["kind"] == "deadline":
            assert _deadline_same_in_place(engine, previous, entry["at"]) == state
            deadlines += 1
        for player in [*engine.current_players(state)[:2], "nobody"]:
            assert _same_as_apply(engine, state, player, {"type": "no such move"}, entry["at"] + 1) is None
        previous = state
    assert moves > 10 and (deadlines > 0 or game not in GAMES_WITH_BOT_DEADLINES)


def _deadline_same_in_place(engine, state, now):
    own = core.clone(state)
    expected = engine.on_deadline(state, now)
    events = engine.on_deadline_in_place(own, now)
    assert own == expected[0] and events == expected[1]
    return expected[0]


props = engine_module("test_lineup_props")


def test_line_up_every_legal_action_in_every_phase_in_place_is_the_same_as_apply():
    for state in props.SNAPSHOTS:
        for player in state["players"]:
            for action in props.GAME.legal_actions(state, player):
                assert _same_as_apply(props.GAME, state, player, action, 5.0) is not None


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    which=st.integers(0, 10**6),
    player=st.one_of(st.sampled_from(["b0", "b1", "y0", "y1", "nobody", core.TEACHER]), props.json_junk),
    action=st.one_of(props.near_misses, props.json_junk),
)
def test_line_up_any_action_in_place_is_the_same_as_apply(which, player, action):
    state = props.SNAPSHOTS[which % len(props.SNAPSHOTS)]
    _same_as_apply(props.GAME, state, player, action, 5.0)


wordup = engine_module("test_wordup_properties")


def test_word_up_every_legal_action_in_every_phase_in_place_is_the_same_as_apply():
    for state in wordup.PHASE_STATES:
        for player in [*state["seating"], core.TEACHER]:
            for action in wordup.GAME.legal_actions(state, player):
                assert _same_as_apply(wordup.GAME, state, player, action, 3.0) is not None


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    which=st.integers(0, 10**6),
    player=wordup.WHO,
    action=wordup.ACTIONS,
    late=st.booleans(),
)
def test_word_up_any_action_in_place_is_the_same_as_apply(which, player, action, late):
    """Junk and near misses, also once the game's time limit has run out (a legal move then ends the
    game instead, and an illegal one is still refused)."""
    state = wordup.PHASE_STATES[which % len(wordup.PHASE_STATES)]
    if late:
        state = {**state, "game_clock": {"deadline": 2.0}}
    _same_as_apply(wordup.GAME, state, player, action, 3.0)


def test_word_up_a_legal_move_after_the_time_limit_ends_the_game_in_place_as_apply():
    state = {**wordup.PHASE_STATES[0], "game_clock": {"deadline": 2.0}}
    player = state["turn"]
    ended = _same_as_apply(wordup.GAME, state, player, {"type": "roll"}, 3.0)
    assert ended["phase"] == "over" and ended["end_reason"] == "time"


@pytest.mark.parametrize("late", [False, True])
def test_word_up_the_deadline_in_every_phase_in_place_is_the_same_as_on_deadline(late):
    for state in wordup.PHASE_STATES:
        if late:
            state = {**state, "game_clock": {"deadline": 2.0}}
        _deadline_same_in_place(wordup.GAME, state, 3.0)
