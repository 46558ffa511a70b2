"""The pure rule behind extra time: a phase's clock takes the allowance of whoever acts in it."""

import pytest

from games.engine import core
from tests.loading import engine_module

lineup = engine_module("test_lineup_helpers")


def test_the_slowest_player_of_a_shared_phase_decides():
    state = {"time_allowance": core.time_allowances({"time_allowance": {"a": 1.5, "b": 2, "c": 1}})}
    assert state["time_allowance"] == {"a": 1.5, "b": 2.0}  # standard time is not stored
    assert core.allowed_seconds(state, 30, ["c"]) == 30
    assert core.allowed_seconds(state, 30, ["a", "c"]) == 45
    assert core.allowed_seconds(state, 30, ["a", "b"]) == 60
    assert core.allowed_seconds(state, None, ["b"]) is None  # a phase without a timer stays without


def test_untimed_is_no_deadline_only_where_the_rules_allow_it():
    state = {"time_allowance": core.time_allowances({"time_allowance": {"a": None}})}
    assert core.allowed_seconds(state, 30, ["a", "b"]) is None
    assert core.allowed_seconds(state, 30, ["a"], may_be_untimed=False) == 30 * core.LONGEST_ALLOWANCE
    assert core.allowed_seconds(state, 30, ["b"]) == 30


@pytest.mark.parametrize("factor", [0.5, 4, True, "2", [2]])
def test_a_bad_allowance_is_refused(factor):
    with pytest.raises(ValueError):
        core.time_allowances({"time_allowance": {"a": factor}})


def test_a_latecomer_brings_their_allowance_into_a_team_game():
    game = lineup.GAME
    state = lineup.new_game(
        players=[{"id": "a", "name": "A", "team": "blue"}, {"id": "b", "name": "B", "team": "yellow"}]
    )
    assert "time_allowance" not in state
    state, _events = game.join(state, {"id": "c", "name": "C", "time_allowance": 2.0}, 1.0)
    assert state["time_allowance"] == {"c": 2.0}
    for viewer in ({"role": "player", "player": "a"}, {"role": "projector"}, {"role": "teacher"}):
        assert not core.contains_value(game.view(state, viewer), "time_allowance")
