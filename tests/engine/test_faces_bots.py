"""Line-Up (faces): the optimal-play table against hand-computed cases, the bots' choices against the
table, and the hard bot's strength against the easy one."""

from __future__ import annotations

from fractions import Fraction

import pytest

from games.engine import core
from games.engine.faces import strategy
from games.engine.faces.features import question_splits
from tests.loading import engine_module

h = engine_module("test_faces_helpers")
GAME, P1, P2 = h.GAME, h.P1, h.P2
P = strategy.win_chance


# ==================================================================================================
# The table
# ==================================================================================================


@pytest.mark.parametrize("m", range(1, 25))
def test_one_face_left_always_wins(m):
    assert P(1, m) == 1


def test_small_cases_by_hand():
    # 2 v 1: naming wins half the time; any question hands the other player a sure win
    assert P(2, 1) == Fraction(1, 2)
    # 2 v 2: naming = 1/2; asking leaves 1 v the other's 2, who then names with 1/2 -> also 1/2
    assert P(2, 2) == Fraction(1, 2)
    # n v 1: the other player will name their face next turn, so you must name now
    assert all(P(n, 1) == Fraction(1, n) for n in range(1, 25))
    # 3 v 2: naming 1/3; a 1|2 question: 1/3 (1 - P(2,1)) + 2/3 (1 - P(2,2)) = 1/2
    assert P(3, 2) == Fraction(1, 2)
    # 4 v 4: 9/16, asking about 1 of the 4 (a bold play); the published Riddler answer is 56.25 %
    assert P(4, 4) == Fraction(9, 16)
    assert strategy.best_sizes(4, 4) == [1]
    assert P(24, 24) == Fraction(5, 9)  # 55.6 % for the first asker, as published for 24 characters


def test_table_satisfies_its_recurrence_everywhere():
    for n in range(2, 25):
        for m in range(1, 25):
            options = [strategy.name_value(n)] + [strategy.question_value(n, m, b) for b in range(1, n)]
            assert P(n, m) == max(options)
            assert 0 <= P(n, m) <= 1


def test_the_player_behind_asks_bold_questions():
    # Line-Up's rules: e.g. 10 faces against 7 -> ask about 4, not 5
    assert strategy.best_sizes(10, 7) == [4]
    assert strategy.question_value(10, 7, 4) > strategy.question_value(10, 7, 5)
    # Nica's original model (first to narrow to one wins): 4 of 24 against an opponent down to 6
    assert strategy.nica_best_sizes(24, 6) == [4]
    assert strategy.nica_best_sizes(24, 24)[-1] == 12


def test_naming_is_best_only_when_the_other_player_is_about_to_win():
    assert strategy.best_sizes(5, 1) == []
    assert 12 in strategy.best_sizes(24, 24)


def test_table_rejects_impossible_counts():
    for n, m in ((0, 3), (3, 0), (25, 1)):
        with pytest.raises(ValueError):
            P(n, m)
    with pytest.raises(ValueError):
        strategy.question_value(5, 5, 5)


def test_choose_picks_the_best_available_question_by_table_value():
    # 10 v 7 with only 5|5 and 4|6 available: the table prefers 4
    assert strategy.choose(10, 7, {"hat": 5, "glasses": 6})[:2] == ("ask", "glasses")
    # ties go to the split nearest a half, then to pad order
    kind, question, _value = strategy.choose(24, 24, {"hat": 8, "glasses": 12, "beard": 12})
    assert (kind, question) == ("ask", "glasses")
    assert strategy.choose(3, 1, {"hat": 1})[:2] == ("name", None)
    assert strategy.choose(1, 5, {})[:2] == ("name", None)


# ==================================================================================================
# The bots, checked on states from simulated matches
# ==================================================================================================


def _ask_states(levels, seeds):
    for seed in seeds:
        _state, log = h.play_logged(h.config(*levels), seed)
        state = GAME.setup(h.config(*levels), seed, now=0.0)
        for entry in log[1:]:
            if state["phase"] == "ask":
                yield state
            state, _events = core.apply_log_entry(
                GAME, state, {k: v for k, v in entry.items() if k != "events"}
            )


def test_hard_bot_choices_match_the_table():
    checked = 0
    for state in _ask_states(("hard", "medium"), [f"hard-{i}" for i in range(6)]):
        player = state["turn"]
        if state["bots"][player] != "hard":
            continue
        n, m = len(state["left"][player]), len(state["left"][h.other(player)])
        splits = question_splits(state, player)
        action = GAME.bot_action(state, player, core.Rng("x"))
        assert action in GAME.legal_actions(state, player)
        best_question = max((strategy.question_value(n, m, yes) for yes in splits.values()), default=-1)
        if action["type"] == "name":
            assert n == 1 or strategy.name_value(n) > best_question
        else:
            assert strategy.question_value(n, m, splits[action["question"]]) == best_question
            assert best_question >= strategy.name_value(n)
        checked += 1
    assert checked > 20


def test_medium_bot_halves_the_board():
    for state in _ask_states(("medium", "easy"), ["medium-1", "medium-2"]):
        player = state["turn"]
        if state["bots"][player] != "medium":
            continue
        n, m = len(state["left"][player]), len(state["left"][h.other(player)])
        action = GAME.bot_action(state, player, core.Rng("y"))
        assert action in GAME.legal_actions(state, player)
        if action["type"] == "ask":
            splits = question_splits(state, player)
            assert abs(2 * splits[action["question"]] - n) == min(abs(2 * yes - n) for yes in splits.values())
        else:
            assert n == 1 or m == 1


def test_easy_bot_makes_random_legal_moves_and_names_its_last_face():
    seen = set()
    for state in _ask_states(("easy", "easy"), ["easy-1", "easy-2", "easy-3"]):
        player = state["turn"]
        for i in range(3):
            action = GAME.bot_action(state, player, core.Rng(f"e{i}"))
            assert action in GAME.legal_actions(state, player)
            seen.add(action.get("question"))
            if len(state["left"][player]) == 1:
                assert action == {"type": "name", "face": state["left"][player][0]}
    assert len(seen) > 8


def test_bots_get_ready_between_rounds():
    state = h.new_game("x", bot1="hard", bot2="easy")
    state, _ = h.win_round(state, P1)
    assert GAME.bot_action(state, P2, core.Rng("z")) == {"type": "ready"}


def _hard_wins(matches):
    wins = 0
    for i in range(matches):
        hard_seat = P1 if i % 2 == 0 else P2
        levels = ("hard", "easy") if hard_seat == P1 else ("easy", "hard")
        state, _log, _events = core.play_with_bots(GAME, h.config(*levels), f"strength-{i}")
        wins += GAME.outcome(state)["winners"] == [hard_seat]
    return wins


def test_hard_bot_beats_easy_bot_in_most_of_60_matches():
    assert _hard_wins(60) >= 40


@pytest.mark.slow
def test_hard_bot_beats_easy_bot_in_most_of_500_matches():
    assert _hard_wins(500) > 350
