"""``Engine.apply_in_place``, which the runtime uses on the state it has just read (a burst of answers at
a big table then copies no state): the same new state and events as ``apply``, and a refusal changes
nothing. Line Up! overrides it without a copy; the other engines use the copying default."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import core
from games.engine.core import IllegalAction
from games.management.commands.simulate import build
from tests.loading import engine_module

GAMES = ["lineup", "wordup", "faces", "lineit", "mindlines"]


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
def test_every_move_of_a_bot_game_in_place_is_the_same_as_apply(game):
    players = 2 if game in ("faces", "lineit") else 4
    engine, config, seed = build(game, seed=11, players=players)
    previous, moves = None, 0
    for state, entry, _events in core.bot_moves(engine, config, seed):
        if entry["kind"] == "action":
            assert _same_as_apply(engine, previous, entry["player"], entry["action"], entry["at"]) == state
            moves += 1
        for player in [*engine.current_players(state)[:2], "nobody"]:
            assert _same_as_apply(engine, state, player, {"type": "no such move"}, entry["at"] + 1) is None
        previous = state
    assert moves > 10


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
