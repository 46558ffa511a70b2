"""Line Up! rules, one scenario per rule of the rulebook, plus views, validation and facts.

Standard board: purple 1-8, orange 9-16, pink 17-24, the 5-space at 25; stars on 4, 7, 11, 14, 19, 22.
The first fixture question is the rulebook's example (answer 2, 5, 3, 1, 4).
"""

from __future__ import annotations

import json

import pytest

from games.engine import core
from games.engine.core import IllegalAction
from games.engine.lineup import BOARDS, right_count
from tests.loading import engine_module

h = engine_module("test_lineup_helpers")
GAME, PERMS, QUESTIONS, RULEBOOK_ANSWER, TWO_V_TWO = (
    h.GAME,
    h.PERMS,
    h.QUESTIONS,
    h.RULEBOOK_ANSWER,
    h.TWO_V_TWO,
)
new_game, act, act_events, deadline, captain = h.new_game, h.act, h.act_events, h.deadline, h.captain
answer_of, order_with, lock, choose, lay, stop = h.answer_of, h.order_with, h.lock, h.choose, h.lay, h.stop
end_reveal, pos, place, fresh, log_types = h.end_reveal, h.pos, h.place, h.fresh, h.log_types

VIEWERS = {
    "ava": {"role": "player", "player": "ava"},
    "ben": {"role": "player", "player": "ben"},
    "cai": {"role": "player", "player": "cai"},
    "dee": {"role": "player", "player": "dee"},
    "teacher": {"role": "teacher"},
    "projector": {"role": "projector"},
    "spectator": {"role": "spectator"},
}


def view(state, who):
    return GAME.view(state, VIEWERS[who])


def other_member(state, team):
    return next(p for p in state["teams"][team]["members"] if p != captain(state, team))


def wrong_card_for(state, position):
    answer = answer_of(state)
    return next(c for c in (1, 2, 3, 4, 5) if c != answer[position - 1])


# ==================================================================================================
# Scoring
# ==================================================================================================


def test_rulebook_example_answer_25314_against_team_25134_has_three_right():
    assert right_count([2, 5, 1, 3, 4], [2, 5, 3, 1, 4]) == 3
    state = new_game()
    assert answer_of(state) == RULEBOOK_ANSWER
    state = lock(state, "blue", [2, 5, 1, 3, 4])
    state = lock(state, "yellow", [2, 5, 3, 1, 4])
    assert state["reveal"]["results"]["blue"]["right"] == 3
    assert state["reveal"]["results"]["yellow"]["right"] == 5
    assert (pos(state, "blue"), pos(state, "yellow")) == (3, 5)


def test_a_correct_answer_is_a_card_in_the_right_place_so_4_right_is_impossible():
    assert {right_count(p, RULEBOOK_ANSWER) for p in PERMS} == {0, 1, 2, 3, 5}


# ==================================================================================================
# Setup and board
# ==================================================================================================


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_board_is_three_colour_zones_then_the_5_space_with_stars_in_every_zone(name):
    board = new_game(board=name)["board"]
    assert [z["colour"] for z in board["zones"]] == ["purple", "orange", "pink"]
    assert board["zones"][0]["first"] == 1
    for before, after in zip(board["zones"], board["zones"][1:], strict=False):
        assert after["first"] == before["last"] + 1
    assert board["final"] == board["zones"][-1]["last"] + 1
    for zone in board["zones"]:
        assert any(zone["first"] <= star <= zone["last"] for star in board["stars"])


def test_default_board_is_standard_with_the_documented_layout():
    board = new_game()["board"]
    assert board["name"] == "standard"
    assert [(z["first"], z["last"]) for z in board["zones"]] == [(1, 8), (9, 16), (17, 24)]
    assert board["stars"] == [4, 7, 11, 14, 19, 22]
    assert board["final"] == 25
    assert new_game(board="short")["board"]["final"] == 16
    assert new_game(board="long")["board"]["final"] == 31


@pytest.mark.parametrize(
    "players",
    [
        [{"id": "a", "team": "blue"}],
        [{"id": "a", "team": "blue"}, {"id": "b", "team": "green"}],
        [{"id": "a", "team": "blue"}, {"id": "b", "team": "yellow", "bot": "genius"}],
        [{"id": "a", "team": "blue"}, {"id": "a", "team": "yellow"}],
        [{"id": 7, "team": "blue"}, {"id": "b", "team": "yellow"}],
    ],
)
def test_both_teams_need_at_least_one_valid_player(players):
    with pytest.raises(ValueError):
        new_game(players=players)


@pytest.mark.parametrize(
    "settings",
    [
        {"board": "huge"},
        {"answer_seconds": -1},
        {"reveal_seconds": None},
        {"max_rounds": 0},
        {"game_minutes": "x"},
    ],
)
def test_bad_settings_are_refused(settings):
    with pytest.raises(ValueError):
        new_game(**settings)


def test_questions_must_have_five_items_and_an_answer_ordering_cards_1_to_5():
    bad = dict(QUESTIONS[0], answer=[1, 2, 3, 4, 4])
    with pytest.raises(ValueError):
        new_game(questions=[bad])
    with pytest.raises(ValueError):
        new_game(questions=[dict(QUESTIONS[0], items=QUESTIONS[0]["items"][:4])])


def test_timers_come_from_config():
    state = new_game(answer_seconds=33, now=100.0)
    assert state["clock"]["deadline"] == 133.0
    state = fresh(blue=9, predict_seconds=12)
    assert state["phase"] == "predict"
    assert state["clock"]["deadline"] == 1012.0


# ==================================================================================================
# Which mini-game
# ==================================================================================================


def test_the_game_starts_with_purple_for_both_teams():
    state = new_game()
    assert (state["phase"], state["q"]["mini"]) == ("answer", "purple")
    assert sorted(GAME.current_players(state)) == ["ava", "ben", "cai", "dee"]


def test_as_soon_as_one_team_lands_on_orange_both_teams_play_orange():
    state = place(new_game(), blue=6)
    answer = answer_of(state)
    state = lock(state, "blue", order_with(answer, 3))  # 6 -> 9, the first orange space
    state = lock(state, "yellow", order_with(answer, 0))
    state = end_reveal(state)
    assert state["q"]["mini"] == "orange"
    assert state["phase"] == "predict"
    assert state["q"]["playing"] == ["blue", "yellow"]
    assert pos(state, "yellow") == 0


def test_the_team_in_front_decides_pink_even_when_the_other_is_still_on_purple():
    state = fresh(blue=2, yellow=17)
    assert (state["q"]["mini"], state["phase"]) == ("pink", "bid")


# ==================================================================================================
# Purple
# ==================================================================================================


def test_purple_both_answer_hidden_from_each_other_then_each_moves_its_right_count():
    state = new_game()
    answer = answer_of(state)
    state = lock(state, "blue", order_with(answer, 3))
    yellow_view = view(state, "cai")
    assert yellow_view["teams"]["blue"]["locked"] is True
    assert "rack" not in yellow_view["teams"]["blue"]
    assert yellow_view["my_team"]["team"] == "yellow"
    assert "reveal" not in yellow_view
    state = lock(state, "yellow", order_with(answer, 1))
    assert state["phase"] == "reveal"
    assert (pos(state, "blue"), pos(state, "yellow")) == (3, 1)


def test_purple_at_the_deadline_each_teams_current_rack_counts():
    state = new_game()
    answer = answer_of(state)
    state = act(state, other_member(state, "blue"), {"type": "rack", "order": answer})
    state, _events = deadline(state)
    assert state["reveal"]["results"]["blue"] == {"order": answer, "right": 5}
    assert state["reveal"]["results"]["yellow"]["order"] == [1, 2, 3, 4, 5]  # untouched rack
    assert pos(state, "blue") == 5
    assert pos(state, "yellow") == right_count([1, 2, 3, 4, 5], answer)


# ==================================================================================================
# Team play
# ==================================================================================================


def test_every_member_moves_the_shared_rack_and_only_the_captain_locks_it():
    state = new_game()
    cap, mate = captain(state, "blue"), other_member(state, "blue")
    state = act(state, mate, {"type": "rack", "order": [5, 4, 3, 2, 1]})
    seen = GAME.view(state, {"role": "player", "player": cap})["my_team"]
    assert seen["rack"] == [5, 4, 3, 2, 1]
    assert seen["rack_by"] == mate
    with pytest.raises(IllegalAction) as refused:
        act(state, mate, {"type": "confirm"})
    assert refused.value.code == "not_captain"
    state = act(state, cap, {"type": "confirm"})
    assert state["q"]["answers"]["blue"]["order"] == [5, 4, 3, 2, 1]
    with pytest.raises(IllegalAction):
        act(state, mate, {"type": "rack", "order": [1, 2, 3, 4, 5]})


def test_the_captain_rotates_through_the_team_each_question():
    state = new_game()
    captains = []
    for _ in range(4):
        captains.append((captain(state, "blue"), captain(state, "yellow")))
        answer = answer_of(state)
        state = lock(state, "blue", order_with(answer, 0))
        state = lock(state, "yellow", order_with(answer, 0))
        state = end_reveal(state)
    assert [c[0] for c in captains] == ["ava", "ben", "ava", "ben"]
    assert [c[1] for c in captains] == ["cai", "dee", "cai", "dee"]


def test_each_students_last_ordering_before_the_lock_is_recorded():
    state = new_game()
    cap, mate = captain(state, "blue"), other_member(state, "blue")
    state = act(state, mate, {"type": "rack", "order": [5, 4, 3, 2, 1]}, now=2.0)
    state = act(state, mate, {"type": "rack", "order": [2, 5, 3, 4, 1]}, now=4.0)
    state = act(state, cap, {"type": "rack", "order": [2, 5, 1, 3, 4]}, now=6.0)
    state = act(state, cap, {"type": "confirm"}, now=7.0)
    own = state["q"]["answers"]["blue"]["own"]
    assert own[mate] == {"order": [2, 5, 3, 4, 1], "at": 4.0}
    assert own[cap] == {"order": [2, 5, 1, 3, 4], "at": 6.0}
    mates_view = GAME.view(state, {"role": "player", "player": mate})["my_team"]
    assert "orders" not in mates_view  # the console shows everyone's; a device only its own
    assert mates_view["my_order"] == [2, 5, 3, 4, 1]
    details = GAME.view(state, {"role": "teacher"})["team_details"]["blue"]
    assert details["orders"] == {mate: [2, 5, 3, 4, 1], cap: [2, 5, 1, 3, 4]}


def test_a_team_that_has_locked_in_waits_for_the_other():
    state = lock(new_game(), "yellow", [1, 2, 3, 4, 5])
    with pytest.raises(IllegalAction) as refused:
        act(state, "dee", {"type": "rack", "order": [1, 2, 3, 4, 5]})
    assert refused.value.code == "locked"
    assert GAME.current_players(state) == ["ava", "ben"]


# ==================================================================================================
# Orange
# ==================================================================================================


def test_orange_predictions_stay_hidden_until_both_teams_lock_then_both_are_shown():
    state = fresh(blue=9)
    assert state["phase"] == "predict"
    assert view(state, "ava")["question"]["heading"]  # teams predict with the question in front of them
    state = act(state, "ava", {"type": "predict", "value": 5})
    state = choose(state, "blue", 3)
    for who in ("cai", "dee", "projector", "spectator"):
        seen = view(state, who)
        assert "prediction" not in seen["teams"]["blue"]
        assert seen.get("my_team", {}).get("proposal") is None
        assert seen.get("my_team", {}).get("proposals", {}) == {}
    assert view(state, "teacher")["team_details"]["blue"]["locked_value"] == 3
    state = choose(state, "yellow", 2)
    assert state["phase"] == "answer"
    for who in VIEWERS:
        seen = view(state, who)
        assert (seen["teams"]["blue"]["prediction"], seen["teams"]["yellow"]["prediction"]) == (3, 2)
    assert "predictions_revealed" in log_types(state)


def test_orange_a_team_with_at_least_its_prediction_moves_the_prediction_otherwise_nothing():
    state = fresh(blue=9, yellow=1)
    state = choose(state, "blue", 2)
    state = choose(state, "yellow", 3)
    answer = answer_of(state)
    state = lock(state, "blue", order_with(answer, 3))
    state = lock(state, "yellow", order_with(answer, 2))
    assert (pos(state, "blue"), pos(state, "yellow")) == (11, 1)  # 9 + its prediction 2; yellow stays
    results = state["reveal"]["results"]
    assert results["blue"]["made"] is True and results["yellow"]["made"] is False


def test_orange_prediction_of_five_needs_all_five():
    state = fresh(blue=9, yellow=9)
    state = choose(state, "blue", 5)
    state = choose(state, "yellow", 5)
    answer = answer_of(state)
    state = lock(state, "blue", answer)
    state = lock(state, "yellow", order_with(answer, 3))
    assert (pos(state, "blue"), pos(state, "yellow")) == (14, 9)


def test_orange_a_team_without_a_prediction_at_the_deadline_predicts_one():
    state = fresh(blue=9)
    state = choose(state, "blue", 3)
    state, _events = deadline(state)
    assert state["q"]["predictions"] == {"blue": 3, "yellow": 1}
    assert state["phase"] == "answer"


def test_prediction_must_be_1_2_3_or_5():
    state = fresh(blue=9)
    for value in (0, 4, 6, -1, 2.0, True, "3", None):
        with pytest.raises(IllegalAction):
            act(state, "ava", {"type": "predict", "value": value})


# ==================================================================================================
# Pink
# ==================================================================================================


def test_pink_bids_are_secret_until_both_are_in_and_shown_at_once():
    state = fresh(blue=17)
    state = choose(state, "blue", 5)
    for who in ("cai", "dee", "projector", "spectator"):
        seen = view(state, who)
        assert "bid" not in seen["teams"]["blue"]
        assert seen["bids"]["rounds"] == []
    state = choose(state, "yellow", 2)
    assert state["q"]["bidder"] == "blue"
    assert view(state, "cai")["bids"]["rounds"] == [{"blue": 5, "yellow": 2}]
    assert view(state, "cai")["teams"]["blue"]["bid"] == 5


def test_pink_equal_bids_bid_again():
    state = fresh(blue=17)
    state = choose(state, "blue", 2)
    state = choose(state, "yellow", 2)
    assert state["phase"] == "bid"
    assert state["q"]["locked"] == {}
    state = choose(state, "blue", 3)
    state = choose(state, "yellow", 1)
    assert state["q"]["bidder"] == "blue"
    assert state["q"]["bid_history"] == [{"blue": 2, "yellow": 2}, {"blue": 3, "yellow": 1}]


def test_pink_equal_bids_too_often_a_die_roll_picks_who_answers():
    state = fresh(blue=17, max_equal_bids=2)
    for _ in range(2):
        state = choose(state, "blue", 3)
        state = choose(state, "yellow", 3)
    assert state["phase"] == "answer"
    roll = next(e for e in state["log"] if e["type"] == "die_roll")
    assert roll["rolls"]["blue"] != roll["rolls"]["yellow"]
    assert state["q"]["bidder"] == roll["first"] == max(roll["rolls"], key=roll["rolls"].get)
    assert state["q"]["bid"] == 3


def test_pink_the_higher_bidder_answers_alone_with_its_cards_face_up():
    state = fresh(blue=17)
    state = choose(state, "blue", 3)
    state = choose(state, "yellow", 2)
    assert state["q"]["answering"] == ["blue"]
    assert set(GAME.current_players(state)) == {"ava", "ben"}
    with pytest.raises(IllegalAction):
        act(state, "cai", {"type": "rack", "order": [1, 2, 3, 4, 5]})
    state = act(state, "ava", {"type": "rack", "order": [3, 1, 2, 5, 4]})
    for who in ("cai", "projector", "spectator"):
        assert view(state, who)["teams"]["blue"]["rack"] == [3, 1, 2, 5, 4]


def test_pink_a_bidder_that_makes_its_bid_moves_the_bid():
    state = fresh(blue=17, yellow=2)
    state = choose(state, "blue", 2)
    state = choose(state, "yellow", 1)
    state = lock(state, "blue", order_with(answer_of(state), 3))
    assert (pos(state, "blue"), pos(state, "yellow")) == (19, 2)  # 17 + its bid 2
    assert state["reveal"]["results"]["blue"]["made"] is True


def test_pink_a_bidder_that_misses_moves_the_other_team_the_bid():
    state = fresh(blue=17, yellow=2)
    state = choose(state, "blue", 3)
    state = choose(state, "yellow", 2)
    state = lock(state, "blue", order_with(answer_of(state), 2))
    assert (pos(state, "blue"), pos(state, "yellow")) == (17, 5)
    assert "yellow" not in state["reveal"]["results"]  # the other team did not answer


# ==================================================================================================
# Star spaces
# ==================================================================================================


def star_turn_for_blue(blue_from=2, yellow_from=0, yellow_right=0):
    """Blue lands on the star at 4 in a purple round; returns the state at the start of its star turn."""
    state = place(new_game(), blue=blue_from, yellow=yellow_from)
    answer = answer_of(state)
    state = lock(state, "blue", order_with(answer, 4 - blue_from))
    state = lock(state, "yellow", order_with(answer, yellow_right))
    assert pos(state, "blue") == 4
    return end_reveal(state)


def test_landing_on_a_star_space_gives_that_team_an_extra_question_alone():
    state = star_turn_for_blue()
    assert state["phase"] == "star"
    assert state["q"]["star"]["team"] == "blue"
    assert state["q"]["mini"] == "star"
    assert set(GAME.current_players(state)) == {"ava", "ben"}
    assert state["round"] == 1  # not a new round
    with pytest.raises(IllegalAction):
        act(state, "cai", {"type": "lay", "card": 1, "position": 1})


def test_star_the_team_must_lay_at_least_one_card_before_it_may_stop():
    state = star_turn_for_blue()
    with pytest.raises(IllegalAction) as refused:
        act(state, "ava", {"type": "stop"})
    assert refused.value.code == "lay_first"
    assert {"type": "stop"} not in GAME.legal_actions(state, "ava")


def test_star_any_card_in_any_place_and_the_server_says_right_or_wrong_to_everyone():
    state = star_turn_for_blue()
    answer = answer_of(state)
    state, events = lay(state, "blue", answer[3], 4)  # the team chooses card and place
    assert state["phase"] == "star"
    assert any(e["type"] == "star_card" and e["right"] is True for e in events)
    for who in VIEWERS:
        assert view(state, who)["star"]["laid"] == [{"card": answer[3], "position": 4, "right": True}]


def test_star_right_cards_then_stop_moves_as_many_spaces_as_cards_laid():
    state = star_turn_for_blue()
    answer = answer_of(state)
    state, _ = lay(state, "blue", answer[0], 1)
    state, _ = lay(state, "blue", answer[4], 5)
    state, _ = stop(state, "blue")
    assert state["phase"] == "reveal"
    assert (pos(state, "blue"), pos(state, "yellow")) == (6, 0)
    assert state["reveal"]["results"]["blue"]["ended"] == "stopped"


def test_star_continuing_card_by_card_to_all_five_right_moves_five():
    state = star_turn_for_blue()
    answer = answer_of(state)
    for place_ in (3, 1, 5, 2, 4):
        state, _ = lay(state, "blue", answer[place_ - 1], place_)
    assert state["phase"] == "reveal"
    assert pos(state, "blue") == 9
    assert state["reveal"]["results"]["blue"]["ended"] == "all_right"


def test_star_first_mistake_moves_the_other_team_as_many_spaces_as_cards_laid():
    state = star_turn_for_blue(yellow_from=1)
    answer = answer_of(state)
    state, _ = lay(state, "blue", answer[0], 1)
    state, _ = lay(state, "blue", answer[1], 2)
    state, _ = lay(state, "blue", answer[3], 3)  # wrong: card answer[3] belongs in place 4
    assert state["phase"] == "reveal"
    assert (pos(state, "blue"), pos(state, "yellow")) == (4, 1 + 3)  # three cards laid, the wrong one too
    assert state["reveal"]["results"]["blue"]["ended"] == "mistake"


def test_star_a_wrong_first_card_moves_the_other_team_one_space():
    state = star_turn_for_blue(yellow_from=5)
    state, _ = lay(state, "blue", wrong_card_for(state, 1), 1)
    assert (pos(state, "blue"), pos(state, "yellow")) == (4, 6)


def test_star_a_card_or_a_place_cannot_be_used_twice():
    state = star_turn_for_blue()
    answer = answer_of(state)
    state, _ = lay(state, "blue", answer[0], 1)
    with pytest.raises(IllegalAction):
        act(state, "ava", {"type": "lay", "card": answer[0], "position": 2})
    with pytest.raises(IllegalAction):
        act(state, "ava", {"type": "lay", "card": answer[1], "position": 1})


def test_both_teams_on_star_spaces_the_one_further_ahead_plays_first():
    state = place(new_game(), blue=2, yellow=5)
    answer = answer_of(state)
    state = lock(state, "blue", order_with(answer, 2))  # -> 4
    state = lock(state, "yellow", order_with(answer, 2))  # -> 7
    assert state["stars_pending"] == [{"team": "yellow", "pos": 7}, {"team": "blue", "pos": 4}]
    state = end_reveal(state)
    assert state["q"]["star"]["team"] == "yellow"
    state, _ = lay(state, "yellow", answer_of(state)[0], 1)
    state, _ = stop(state, "yellow")
    state = end_reveal(state)
    assert state["q"]["star"]["team"] == "blue"


@pytest.mark.parametrize("seed", ["s1", "s2", "s3", "s4", "s5", "s6"])
def test_both_teams_on_the_same_star_space_a_die_roll_decides(seed):
    state = place(new_game(seed=seed), blue=1, yellow=1)
    answer = answer_of(state)
    state = lock(state, "blue", order_with(answer, 3))
    state = lock(state, "yellow", order_with(answer, 3))
    roll = next(e for e in state["log"] if e["type"] == "die_roll")
    assert roll["why"] == "same_star_space"
    assert roll["first"] == max(roll["rolls"], key=roll["rolls"].get)
    assert end_reveal(state)["q"]["star"]["team"] == roll["first"]


def test_the_same_star_space_die_roll_can_go_either_way():
    firsts = set()
    for seed in range(12):
        state = place(new_game(seed=f"roll{seed}"), blue=1, yellow=1)
        answer = answer_of(state)
        state = lock(lock(state, "blue", order_with(answer, 3)), "yellow", order_with(answer, 3))
        firsts.add(state["stars_pending"][0]["team"])
    assert firsts == {"blue", "yellow"}


def test_a_team_moved_off_its_star_space_by_the_others_mistake_loses_its_star_turn():
    state = place(new_game(), blue=2, yellow=5)
    answer = answer_of(state)
    state = lock(lock(state, "blue", order_with(answer, 2)), "yellow", order_with(answer, 2))
    state = end_reveal(state)  # yellow (on 7) plays first; blue waits on 4
    state, events = lay(state, "yellow", wrong_card_for(state, 1), 1)
    assert pos(state, "blue") == 5
    assert any(e["type"] == "star_turn_lost" and e["team"] == "blue" for e in events)
    assert state["stars_pending"] == []
    state = end_reveal(state)
    assert state["q"]["mini"] != "star"
    assert state["round"] == 2


def test_a_mistake_that_moves_the_other_team_onto_a_star_space_plays_that_star_turn_first():
    state = place(new_game(), blue=2, yellow=5)
    answer = answer_of(state)
    state = lock(lock(state, "yellow", order_with(answer, 2)), "blue", order_with(answer, 0))
    state = end_reveal(state)  # yellow's star turn on 7; blue on 2
    answer = answer_of(state)
    state, _ = lay(state, "yellow", answer[0], 1)
    state, _ = lay(state, "yellow", answer[2], 2)  # wrong
    assert pos(state, "blue") == 4  # two cards laid: blue 2 -> 4, a star space
    state = end_reveal(state)
    assert state["phase"] == "star" and state["q"]["star"]["team"] == "blue"
    assert state["round"] == 1


def test_a_mistake_moving_a_waiting_team_onto_another_star_gives_it_the_new_star_turn_next():
    state = place(new_game(), blue=2, yellow=5)
    answer = answer_of(state)
    state = lock(lock(state, "blue", order_with(answer, 2)), "yellow", order_with(answer, 2))
    state = end_reveal(state)  # yellow on 7 first, blue waits on 4
    answer = answer_of(state)
    state, _ = lay(state, "yellow", answer[0], 1)
    state, _ = lay(state, "yellow", answer[1], 2)
    state, events = lay(state, "yellow", answer[3], 3)  # wrong
    assert pos(state, "blue") == 7  # 4 + 3 cards: off its star, onto the star at 7
    assert any(e["type"] == "star_turn_lost" for e in events)
    assert state["stars_pending"] == [{"team": "blue", "pos": 7}]
    state = end_reveal(state)
    assert (state["q"]["star"]["team"], state["q"]["star"]["space"]) == ("blue", 7)


def test_a_team_that_stays_on_a_star_space_does_not_play_it_again():
    state = place(new_game(), blue=4)
    answer = answer_of(state)
    state = lock(lock(state, "blue", order_with(answer, 0)), "yellow", order_with(answer, 0))
    assert state["stars_pending"] == []
    assert end_reveal(state)["q"]["mini"] == "purple"


def test_a_star_turn_that_ends_on_another_star_space_earns_another_star_turn():
    state = star_turn_for_blue()
    answer = answer_of(state)
    for place_ in (1, 2, 3):
        state, _ = lay(state, "blue", answer[place_ - 1], place_)
    state, _ = stop(state, "blue")
    assert pos(state, "blue") == 7
    state = end_reveal(state)
    assert state["q"]["star"]["team"] == "blue" and state["q"]["star"]["space"] == 7


def test_a_new_star_turn_is_played_before_one_that_was_already_waiting():
    state = place(new_game(), blue=2, yellow=5)
    answer = answer_of(state)
    state = lock(lock(state, "blue", order_with(answer, 2)), "yellow", order_with(answer, 2))
    state = end_reveal(state)  # yellow on 7 first, blue waits on 4
    answer = answer_of(state)
    for place_ in (1, 2, 3, 4):
        state, _ = lay(state, "yellow", answer[place_ - 1], place_)
    state, _ = stop(state, "yellow")
    assert pos(state, "yellow") == 11  # another star space
    assert state["stars_pending"] == [{"team": "yellow", "pos": 11}, {"team": "blue", "pos": 4}]
    assert end_reveal(state)["q"]["star"]["team"] == "yellow"


def test_star_timeout_without_any_card_loses_the_turn_and_nobody_moves():
    state = star_turn_for_blue(yellow_from=1)
    state, events = deadline(state)
    assert any(e["type"] == "star_forfeit" for e in events)
    assert (pos(state, "blue"), pos(state, "yellow")) == (4, 1)
    assert state["phase"] == "reveal"


def test_star_timeout_after_right_cards_stops_and_moves_them():
    state = star_turn_for_blue()
    state, _ = lay(state, "blue", answer_of(state)[2], 3)
    state, _ = deadline(state)
    assert pos(state, "blue") == 5
    assert state["reveal"]["results"]["blue"]["ended"] == "stopped"


def test_star_timeout_plays_the_teams_last_proposal():
    state = star_turn_for_blue()
    state = act(
        state, other_member(state, "blue"), {"type": "lay", "card": answer_of(state)[0], "position": 1}
    )
    state, _ = deadline(state)
    assert state["q"]["star"]["laid"][0]["card"] == answer_of(state)[0]
    assert state["phase"] == "star"  # still going: the team may continue or stop


# ==================================================================================================
# The 5-space
# ==================================================================================================


def test_a_pawn_stops_on_the_5_space_and_never_passes_it():
    state = place(new_game(), blue=23)
    answer = answer_of(state)
    state = lock(lock(state, "blue", answer), "yellow", order_with(answer, 0))
    assert pos(state, "blue") == 25
    state = end_reveal(state)
    assert (state["phase"], state["q"]["mini"]) == ("final", "final")


def test_on_the_5_space_the_team_answers_alone_and_all_five_right_wins():
    state = fresh(blue=25, yellow=10)
    assert state["phase"] == "final"
    assert set(GAME.current_players(state)) == {"ava", "ben"}
    state = lock(state, "blue", answer_of(state))
    assert GAME.is_over(state)
    assert GAME.outcome(state)["winning_team"] == "blue"
    assert sorted(GAME.outcome(state)["winners"]) == ["ava", "ben"]
    assert view(state, "projector")["reveal"]["answer"] == answer_of(state)


def test_the_5_space_tells_how_many_are_wrong_not_which_and_allows_one_rearrangement():
    state = fresh(blue=25)
    answer = answer_of(state)
    state = lock(state, "blue", order_with(answer, 2))
    assert state["phase"] == "final"
    for who in VIEWERS:
        seen = view(state, who)
        assert seen["final"] == {"team": "blue", "attempt": 2, "wrong": 3}
        assert "reveal" not in seen
        assert not core.contains_value(seen, h.current_question(state)["explanation"])
        assert not core.contains_value(seen, answer)
    assert view(state, "ava")["my_team"]["rack"] == order_with(answer, 2)  # the rack stays as it was
    state = lock(state, "blue", answer)
    assert GAME.outcome(state)["winning_team"] == "blue"


def test_missing_the_5_space_twice_moves_the_other_team_5_and_the_team_tries_a_new_question():
    state = fresh(blue=25, yellow=3)
    first_question = state["q"]["index"]
    answer = answer_of(state)
    state = lock(state, "blue", order_with(answer, 0))
    state = lock(state, "blue", order_with(answer, 3))
    assert state["phase"] == "reveal"
    assert pos(state, "yellow") == 8
    state = end_reveal(state)
    assert state["phase"] == "final" and state["q"]["index"] != first_question


def test_a_5_space_miss_that_moves_the_other_team_onto_a_star_plays_that_star_turn_first():
    state = fresh(blue=25, yellow=2)
    answer = answer_of(state)
    state = lock(lock(state, "blue", order_with(answer, 0)), "blue", order_with(answer, 0))
    assert pos(state, "yellow") == 7
    state = end_reveal(state)
    assert state["phase"] == "star" and state["q"]["star"]["team"] == "yellow"
    state, _ = deadline(state)
    state = end_reveal(state)
    assert state["phase"] == "final" and state["q"]["answering"] == ["blue"]


def test_the_5_space_deadline_counts_the_current_rack():
    state = fresh(blue=25)
    state = act(state, other_member(state, "blue"), {"type": "rack", "order": answer_of(state)})
    state, _ = deadline(state)
    assert GAME.outcome(state)["winning_team"] == "blue"


def tiebreak():
    state = fresh(blue=25, yellow=25)
    assert (state["phase"], state["q"]["mini"]) == ("bid", "tiebreak")
    return state


def test_both_on_the_5_space_a_pink_bid_tiebreak_the_bidder_that_makes_it_wins():
    state = tiebreak()
    state = choose(choose(state, "blue", 2), "yellow", 3)
    assert state["q"]["answering"] == ["yellow"]
    assert view(state, "ava")["teams"]["yellow"]["rack"] == [1, 2, 3, 4, 5]  # face up
    state = lock(state, "yellow", order_with(answer_of(state), 3))
    assert GAME.outcome(state)["winning_team"] == "yellow"


def test_tiebreak_the_bidder_that_misses_loses():
    state = tiebreak()
    state = choose(choose(state, "blue", 5), "yellow", 3)
    state = lock(state, "blue", order_with(answer_of(state), 3))
    assert GAME.outcome(state)["winning_team"] == "yellow"


def test_tiebreak_equal_bids_bid_again():
    state = tiebreak()
    state = choose(choose(state, "blue", 3), "yellow", 3)
    assert state["phase"] == "bid" and state["q"]["mini"] == "tiebreak"


def test_a_team_wins_only_on_the_5_space():
    state = fresh(blue=25, yellow=0)
    state = lock(state, "blue", answer_of(state))
    assert pos(state, GAME.outcome(state)["winning_team"]) == state["board"]["final"]


# ==================================================================================================
# The end of the lesson
# ==================================================================================================


def test_after_the_last_round_the_team_in_front_goes_to_the_5_space():
    state = place(new_game(max_rounds=1), blue=5, yellow=3)
    answer = answer_of(state)
    state = lock(lock(state, "blue", order_with(answer, 0)), "yellow", order_with(answer, 0))
    state, events = deadline(state)
    assert any(e["type"] == "sudden_death" for e in events)
    assert (pos(state, "blue"), pos(state, "yellow")) == (25, 3)
    assert state["phase"] == "final" and state["q"]["answering"] == ["blue"]


def test_after_the_last_round_level_pawns_both_go_to_a_tiebreak():
    state = place(new_game(max_rounds=1), blue=5, yellow=5)
    answer = answer_of(state)
    state = lock(lock(state, "blue", order_with(answer, 0)), "yellow", order_with(answer, 0))
    state, _ = deadline(state)
    assert state["q"]["mini"] == "tiebreak"


def test_game_minutes_finish_the_current_question_then_sudden_death():
    state = new_game(game_minutes=1, now=0.0)
    assert GAME.deadline(state) == 60.0
    state, events = GAME.on_deadline(state, 60.0)
    assert state["time_up"] and [e["type"] for e in events] == ["time_up"]
    assert state["phase"] == "answer" and GAME.deadline(state) == 75.0
    state, _ = GAME.on_deadline(state, 75.0)
    state = end_reveal(state, 90.0)
    assert "sudden_death" in log_types(state)
    assert state["phase"] in ("final", "bid")


# ==================================================================================================
# Questions
# ==================================================================================================


def test_questions_are_used_in_the_given_order_and_start_again_when_used_up():
    state = new_game(questions=QUESTIONS[:2])
    seen = []
    for _ in range(3):
        seen.append(state["q"]["index"])
        answer = answer_of(state)
        state = lock(lock(state, "blue", order_with(answer, 0)), "yellow", order_with(answer, 0))
        state = end_reveal(state)
    assert seen == [0, 1, 0]
    assert "questions_restarted" in log_types(state)


# ==================================================================================================
# Views
# ==================================================================================================


def test_every_view_has_the_phase_the_turn_the_clock_and_a_log():
    state = new_game()
    for who in VIEWERS:
        seen = view(state, who)
        assert seen["phase"] == "answer" and seen["mini"] == "purple"
        assert seen["turn"]["teams"] == ["blue", "yellow"]
        assert seen["clock"]["deadline"] == 75.0
        assert seen["log"][-1]["type"] == "round_started"
        assert json.loads(json.dumps(seen)) == seen


def test_no_view_shows_the_answer_data_or_explanation_before_the_reveal():
    state = new_game()
    state = act(state, "ava", {"type": "rack", "order": [3, 4, 5, 1, 2]})
    question = QUESTIONS[0]
    for who in VIEWERS:
        seen = view(state, who)
        assert not core.contains_value(seen, question["explanation"])
        assert not core.contains_value(seen, question["source"])
        for item in question["items"]:
            assert not core.contains_value(seen, item["value"])
            assert not core.contains_value(seen, item["display"])
        assert not core.contains_value(seen, RULEBOOK_ANSWER)
        assert "reveal" not in seen


def test_after_the_reveal_everyone_sees_the_correct_order_the_explanation_and_the_data():
    state = new_game()
    state = lock(lock(state, "blue", [1, 2, 3, 4, 5]), "yellow", [5, 4, 3, 2, 1])
    for who in VIEWERS:
        reveal = view(state, who)["reveal"]
        assert reveal["answer"] == RULEBOOK_ANSWER
        assert reveal["explanation"] == QUESTIONS[0]["explanation"]
        assert reveal["source"] == QUESTIONS[0]["source"]
        assert [c["display"] for c in reveal["question"]["cards"]] == [
            i["display"] for i in QUESTIONS[0]["items"]
        ]
        assert reveal["results"]["yellow"]["order"] == [5, 4, 3, 2, 1]


def test_the_teacher_sees_both_racks_and_who_proposed_what_but_never_the_answer():
    state = new_game()
    state = act(state, "ben", {"type": "rack", "order": [3, 4, 5, 1, 2]})
    state = act(state, "dee", {"type": "rack", "order": [4, 3, 5, 1, 2]})
    details = view(state, "teacher")["team_details"]
    assert details["blue"]["rack"] == [3, 4, 5, 1, 2] and details["blue"]["orders"] == {
        "ben": [3, 4, 5, 1, 2]
    }
    assert details["yellow"]["rack"] == [4, 3, 5, 1, 2] and details["yellow"]["rack_by"] == "dee"
    assert not core.contains_value(view(state, "teacher"), RULEBOOK_ANSWER)


def test_neither_team_nor_the_projector_sees_the_other_teams_rack():
    state = new_game()
    state = act(state, "ben", {"type": "rack", "order": [3, 4, 5, 1, 2]})
    for who in ("cai", "dee", "projector", "spectator"):
        assert not core.contains_value(view(state, who), [3, 4, 5, 1, 2])
    for who in ("projector", "spectator"):
        seen = view(state, who)
        assert "my_team" not in seen and "team_details" not in seen and "you" not in seen


@pytest.mark.parametrize(
    "viewer",
    [
        None,
        "x",
        {},
        {"role": "player", "player": "nobody"},
        {"role": "player"},
        {"role": "admin"},
        {"role": "player", "player": ["ava"]},
    ],
)
def test_an_unknown_viewer_sees_only_public_information(viewer):
    seen = GAME.view(new_game(), viewer)
    assert seen["viewer"] == "spectator"
    assert "my_team" not in seen and "team_details" not in seen


def test_views_never_show_the_seed_or_the_rng_state():
    state = new_game()
    for who in VIEWERS:
        seen = view(state, who)
        assert not core.contains_value(seen, h.SEED)
        assert "rng" not in json.dumps(seen)


def test_a_players_view_says_whether_they_are_captain_and_what_they_can_do():
    state = new_game()
    cap, mate = captain(state, "blue"), other_member(state, "blue")
    assert GAME.view(state, {"role": "player", "player": cap})["you"]["can"] == ["confirm", "rack"]
    assert GAME.view(state, {"role": "player", "player": mate})["you"] == {
        "id": mate,
        "name": mate.capitalize(),
        "team": "blue",
        "captain": False,
        "can": ["rack"],
    }


# ==================================================================================================
# Bad actions
# ==================================================================================================

JUNK = [
    None,
    5,
    "rack",
    [],
    {},
    {"type": 5},
    {"type": None},
    {"type": "dance"},
    {"type": "x" * 100_000},
    {"type": "rack"},
    {"type": "rack", "order": None},
    {"type": "rack", "order": [1, 2, 3, 4]},
    {"type": "rack", "order": [1, 2, 3, 4, 4]},
    {"type": "rack", "order": [1, 2, 3, 4, 6]},
    {"type": "rack", "order": [True, 2, 3, 4, 5]},
    {"type": "rack", "order": ["1", "2", "3", "4", "5"]},
    {"type": "rack", "order": [1.0, 2, 3, 4, 5]},
    {"type": "rack", "order": "12345"},
    {"type": "rack", "order": [1, 2, 3, 4, 5], "extra": 1},
    {"type": "rack", "order": [[1], 2, 3, 4, 5]},
    {"type": "rack", "order": {"a": 1}},
    {"type": "confirm", "x": 1},
    {"type": "predict", "value": 2},
    {"type": "bid", "value": 3},
    {"type": "lay", "card": 1, "position": 1},
    {"type": "stop"},
    {"type": ["rack"]},
    {1: 2},
    {"type": "rack", "order": [10**100, 2, 3, 4, 5]},
]


@pytest.mark.parametrize("action", JUNK, ids=range(len(JUNK)))
def test_malformed_or_out_of_phase_actions_are_refused_and_change_nothing(action):
    state = new_game()
    before = core.canonical_json(state)
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, "ava", action, 1.0)
    assert refused.value.message and refused.value.code
    assert core.canonical_json(state) == before


@pytest.mark.parametrize("player", ["nobody", core.TEACHER, None, 5, ""])
def test_only_seated_players_may_act(player):
    with pytest.raises(IllegalAction):
        GAME.apply(new_game(), player, {"type": "rack", "order": [1, 2, 3, 4, 5]}, 1.0)


def test_wrong_phase_actions_are_refused():
    state = fresh(blue=9)  # orange: predicting
    for action in ({"type": "bid", "value": 2}, {"type": "rack", "order": [1, 2, 3, 4, 5]}, {"type": "stop"}):
        with pytest.raises(IllegalAction) as refused:
            act(state, "ava", action)
        assert refused.value.code == "wrong_phase"
    with pytest.raises(IllegalAction) as refused:
        act(state, captain(state, "blue"), {"type": "confirm"})
    assert refused.value.code == "nothing_to_confirm"


def test_nothing_is_allowed_once_the_game_is_over():
    state = fresh(blue=25)
    state = lock(state, "blue", answer_of(state))
    with pytest.raises(IllegalAction):
        act(state, "ava", {"type": "rack", "order": [1, 2, 3, 4, 5]})
    assert GAME.current_players(state) == []
    assert GAME.on_deadline(state, 5000.0)[0] == state


def test_apply_never_changes_its_input():
    state = new_game()
    before = core.canonical_json(state)
    act(state, "ava", {"type": "rack", "order": [5, 4, 3, 2, 1]})
    deadline(state)
    assert core.canonical_json(state) == before


# ==================================================================================================
# Learning facts
# ==================================================================================================


def test_facts_per_student_and_question_hold_own_ordering_team_result_and_time():
    state = new_game()
    events = []
    for player, order, at in (("ava", [2, 5, 3, 1, 4], 4.0), ("ben", [2, 5, 1, 3, 4], 9.0)):
        state, new = act_events(state, player, {"type": "rack", "order": order}, at)
        events += new
    state, new = act_events(state, captain(state, "blue"), {"type": "confirm"}, 10.0)
    events += new
    state, new = deadline(state, 75.0)
    events += new
    facts = {f["player"]: f for f in GAME.facts(events)}
    assert set(facts) == {"ava", "ben", "cai", "dee"}
    ben = facts["ben"]
    assert ben["game"] == "lineup" and ben["skill"] == "general_knowledge"
    assert ben["category"] == QUESTIONS[0]["subject"] and ben["level"] == QUESTIONS[0]["level"]
    assert ben["item_id"] == "q0" and ben["response"]["order"] == [2, 5, 1, 3, 4]
    # The cards as Ben saw them, in his order (the report shows a wrong answer so).
    assert ben["response"]["cards"] == [QUESTIONS[0]["items"][n - 1]["text"] for n in (2, 5, 1, 3, 4)]
    assert ben["score"] == 3 and ben["correct"] is False and ben["time_taken"] == 9.0
    assert ben["detail"]["team_order"] == [2, 5, 1, 3, 4] and ben["detail"]["team_right"] == 3
    assert ben["detail"]["mini"] == "purple"
    assert facts["ava"]["correct"] is True and facts["ava"]["score"] == 5
    assert facts["cai"]["response"] is None and facts["cai"]["correct"] is None
    assert facts["cai"]["detail"]["team_order"] == [1, 2, 3, 4, 5]
    assert json.loads(json.dumps(GAME.facts(events))) == GAME.facts(events)


def test_star_and_5_space_questions_give_facts_too():
    state = fresh(blue=25)
    answer = answer_of(state)
    events = []
    state = lock(state, "blue", order_with(answer, 1), events=events)
    state = lock(state, "blue", answer, events=events)
    facts = GAME.facts(events)
    assert {f["player"] for f in facts} == {"ava", "ben"}
    assert all(f["detail"]["mini"] == "final" and f["detail"]["team_right"] == 5 for f in facts)
    cap_fact = next(f for f in facts if f["response"] is not None)
    assert cap_fact["score"] == 1 and cap_fact["detail"]["rearranged"] == answer

    state = star_turn_for_blue()
    state, events = lay(state, "blue", answer_of(state)[0], 1)
    state, more = stop(state, "blue")
    facts = GAME.facts(events + more)
    assert {f["player"] for f in facts} == {"ava", "ben"}
    assert all(f["detail"]["mini"] == "star" and f["detail"]["team_right"] == 1 for f in facts)


def test_pink_facts_only_for_the_team_that_answered():
    state = fresh(blue=17)
    state = choose(choose(state, "blue", 3), "yellow", 1)
    events = []
    lock(state, "blue", answer_of(state), events=events)
    facts = GAME.facts(events)
    assert {f["player"] for f in facts} == {"ava", "ben"}
    assert all(f["detail"]["bid"] == 3 and f["detail"]["made"] for f in facts)


def test_a_latecomer_joins_the_team_with_fewer_students_and_plays_from_the_next_question():
    players = [*TWO_V_TWO, {"id": "eve", "name": "Eve", "team": "yellow"}]
    state = new_game(players=players)
    joined, events = GAME.join(state, {"id": "fay", "name": "Fay"}, 3.0)
    assert joined["players"]["fay"] == {"name": "Fay", "team": "blue", "bot": None}
    assert joined["teams"]["blue"]["members"] == ["ava", "ben", "fay"]
    assert events[0]["type"] == "joined" and events[0]["team"] == "blue"
    assert GAME.view(joined, {"role": "projector"})["log"][-1]["name"] == "Fay"
    assert "fay" in GAME.view(joined, {"role": "player", "player": "fay"})["you"]["id"]
    assert state["players"].keys() == {"ava", "ben", "cai", "dee", "eve"}  # the input is untouched
    assert GAME.join(joined, {"id": "fay", "name": "Fay"}, 4.0) == (joined, [])
    # Fay can move the blue rack at once; her team's captain stays until the next question.
    joined = act(joined, "fay", {"type": "rack", "order": [2, 1, 3, 4, 5]})
    assert joined["q"]["captain"]["blue"] == "ava"
    # Humans count first: a student joins the computer's team rather than the other student's.
    computer = {"id": "bot1", "name": "Computer", "team": "yellow", "bot": "easy"}
    solo = new_game(players=[TWO_V_TWO[0], computer])
    assert GAME.join(solo, {"id": "gus", "name": "Gus"}, 1.0)[0]["players"]["gus"]["team"] == "yellow"
    with pytest.raises(IllegalAction):
        GAME.join(solo, {"name": "nobody"}, 1.0)


def test_questions_shown_names_each_revealed_question_once_for_the_class_rotation():
    state = new_game()
    events = []
    state = lock(state, "blue", [1, 2, 3, 4, 5], events=events)
    assert GAME.questions_shown(events) == []  # not revealed yet: yellow has not answered
    state = lock(state, "yellow", [1, 2, 3, 4, 5], events=events)
    assert GAME.questions_shown(events) == ["q0"]
    state, more = deadline(state)  # the next round starts: nothing new is revealed
    assert GAME.questions_shown(more) == []
    assert GAME.questions_shown([None, {"type": "rack"}]) == []


# ==================================================================================================
# Bots
# ==================================================================================================


@pytest.mark.parametrize("board", sorted(BOARDS))
@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_bots_play_every_board_and_level_to_a_win_on_the_5_space(board, level):
    players = [dict(p, bot=level) for p in TWO_V_TWO]
    state, _log, _events = core.play_with_bots(
        GAME, {"players": players, "questions": QUESTIONS, "board": board}, f"bots-{board}-{level}"
    )
    outcome = GAME.outcome(state)
    assert pos(state, outcome["winning_team"]) == state["board"]["final"]


def test_a_bot_team_plays_against_a_class_team():
    players = [{"id": f"s{i}", "team": "blue"} for i in range(12)] + [
        {"id": "robot", "team": "yellow", "bot": "hard"}
    ]
    state, _log, _events = core.play_with_bots(GAME, {"players": players, "questions": QUESTIONS}, "class")
    assert GAME.is_over(state)


def test_stronger_bots_get_more_right():
    averages = {}
    for level in ("easy", "medium", "hard"):
        players = [dict(p, bot=level) for p in TWO_V_TWO]
        rights = []
        for seed in range(6):
            _state, _log, events = core.play_with_bots(
                GAME, {"players": players, "questions": QUESTIONS}, f"{seed}"
            )
            rights += [
                t["right"]
                for e in events
                if e["type"] == "question_revealed" and e["mini"] == "purple"
                for t in e["teams"].values()
            ]
        averages[level] = sum(rights) / len(rights)
    assert averages["easy"] < averages["medium"] < averages["hard"]


def test_bot_action_is_legal_and_refused_for_a_player_who_cannot_act():
    state = fresh(blue=25)
    action = GAME.bot_action(state, "ava", core.Rng("b"))
    GAME.apply(state, "ava", action, 1.0)
    with pytest.raises(IllegalAction):
        GAME.bot_action(state, "cai", core.Rng("b"))


# ==================================================================================================
# A student's view does not grow with the class
# ==================================================================================================


def _class_of(size):
    return [{"id": f"p{i}", "name": f"Student {i}", "team": ("blue", "yellow")[i % 2]} for i in range(size)]


def test_a_students_view_is_the_same_size_in_a_class_of_2000_as_in_a_class_of_20():
    sizes = {}
    for size in (20, 2000):
        state = new_game(players=_class_of(size))
        for i in range(0, size, 2):  # every blue student moves the cards once
            state = act(state, f"p{i}", {"type": "rack", "order": [5, 4, 3, 2, 1]}, now=1.0 + i / 10_000)
        seen = GAME.view(state, {"role": "player", "player": "p2"})
        assert "members" not in seen["teams"]["blue"] and "players" not in seen["turn"]
        assert seen["teams"]["blue"]["size"] == size // 2
        assert seen["names"]["p2"] == "Student 2"  # every name the screen mentions comes with the view
        assert seen["names"][seen["my_team"]["rack_by"]].startswith("Student")
        sizes[size] = len(core.canonical_json(seen))
    assert sizes[2000] < sizes[20] + 200, sizes  # only longer numbers (ids, the team's size)
    staff = GAME.view(state, {"role": "teacher"})
    assert (
        len(staff["teams"]["blue"]["members"]) == 1000
        and len(staff["team_details"]["blue"]["orders"]) == 1000
    )
    assert len(GAME.view(state, {"role": "projector"})["teams"]["yellow"]["members"]) == 1000


def test_a_big_teams_suggestions_show_as_a_tally_and_a_small_teams_by_name():
    state = fresh(blue=9)  # orange: both teams predict
    assert state["phase"] == "predict"
    state = act(state, "ava", {"type": "predict", "value": 3})
    mine = view(state, "ava")["my_team"]
    assert mine["proposals"] == {"ava": 3} and mine["proposal_counts"] == {"3": 1}
    assert view(state, "ava")["names"]["ava"]
    state = fresh(blue=9, players=_class_of(40))
    assert state["phase"] == "predict"
    for i, value in zip(range(0, 40, 2), [1, 2, 3, 5] * 5, strict=True):
        state = act(state, f"p{i}", {"type": "predict", "value": value})
    mine = GAME.view(state, {"role": "player", "player": "p0"})["my_team"]
    assert mine["proposals"] == {} and mine["proposal_counts"] == {"1": 5, "2": 5, "3": 5, "5": 5}
    assert len(GAME.view(state, {"role": "teacher"})["team_details"]["blue"]["proposals"]) == 20


def test_views_built_together_equal_views_built_one_by_one():
    state = new_game(players=_class_of(12))
    rng = core.Rng("views")
    viewers = [{"role": r} for r in ("teacher", "projector", "spectator")]
    viewers += [{"role": "player", "player": f"p{i}"} for i in range(12)]
    viewers.append({"role": "player", "player": "x"})  # not seated: a spectator
    for step in range(300):
        together = list(GAME.views(state, viewers))
        assert together == [GAME.view(state, viewer) for viewer in viewers], step
        assert [{**common, **own} for _key, common, own in GAME.view_parts(state, viewers)] == together
        if GAME.is_over(state):
            break
        movers = GAME.current_players(state)
        due = state["clock"].get("deadline")
        if not movers or (due is not None and 1.0 + step >= due):  # a move at the deadline is too late
            state = deadline(state, now=due or 1000.0 + step)[0]
            continue
        player = rng.choice(movers)
        state, _events = GAME.apply(state, player, GAME.bot_action(state, player, rng), 1.0 + step)
