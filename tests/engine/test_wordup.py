"""Word Up scenario tests: one (or more) per rule of the issue, named after the rule they prove."""

from __future__ import annotations

import json

import pytest

from games.engine import core
from games.engine.core import TEACHER, IllegalAction
from games.engine.wordup import WordUp
from games.engine.wordup.board import BOARD, CARD_IDS, CARDS, CATEGORIES
from tests.loading import engine_module

S = engine_module("test_wordup_support")
GAME = S.GAME
MW, CW, MC, SP = CATEGORIES


def fresh(players: int = 3, **extra) -> dict:
    return S.new_game(players, **extra)


# ------------------------------------------------------------------------------------------------
# The protocol basics
# ------------------------------------------------------------------------------------------------


def test_registry_finds_word_up():
    from games.definitions import get_engine

    engine = get_engine("wordup")
    assert isinstance(engine, WordUp)
    assert (engine.name, engine.min_players, engine.max_players) == ("wordup", 2, 6)


def test_state_survives_a_json_round_trip():
    state = fresh()
    assert json.loads(json.dumps(state)) == state


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_board_size_from_two_to_six_plays_to_the_end(players):
    cfg = S.config(players, bots=[0.4 + 0.1 * i for i in range(players)])
    state, log, _events = core.play_with_bots(GAME, cfg, f"size{players}")
    assert GAME.is_over(state)
    assert core.state_hash(core.replay(GAME, cfg, f"size{players}", log)) == core.state_hash(state)


@pytest.mark.parametrize("players", [1, 7])
def test_a_board_needs_two_to_six_players(players):
    with pytest.raises(ValueError):
        GAME.setup(S.config(players) if players else {}, "s")


@pytest.mark.parametrize(
    "change",
    [
        {"target": 4},
        {"target": True},
        {"time_limit": -5},
        {"answer_seconds": 0},
        {"questions": "nope"},
    ],
)
def test_bad_settings_are_refused_at_setup(change):
    with pytest.raises(ValueError):
        GAME.setup({**S.config(3), **change}, "s")


@pytest.mark.parametrize(
    "seat_change",
    [{"level": 6}, {"level": "2"}, {"bot": 1.5}, {"bot": "yes"}, {"id": ""}, {"id": TEACHER}],
)
def test_bad_player_entries_are_refused_at_setup(seat_change):
    cfg = S.config(3)
    cfg["players"][0].update(seat_change)
    with pytest.raises(ValueError):
        GAME.setup(cfg, "s")


def test_duplicate_player_ids_are_refused():
    cfg = S.config(3)
    cfg["players"][1]["id"] = cfg["players"][0]["id"]
    with pytest.raises(ValueError):
        GAME.setup(cfg, "s")


def test_a_multiple_choice_question_without_its_answer_among_the_choices_is_refused():
    bad = S.question(1, MC, 99, choices=["a", "b", "c"])
    with pytest.raises(ValueError):
        GAME.setup(S.config(2, questions=S.bank(special={(1, MC): [bad]})), "s")


# ------------------------------------------------------------------------------------------------
# The board and the start
# ------------------------------------------------------------------------------------------------


def test_board_is_a_loop_of_forty_with_every_square_type():
    kinds = [square["kind"] for square in BOARD]
    assert len(BOARD) == 40 and [s["index"] for s in BOARD] == list(range(40))
    assert kinds.count("word_up") == 8
    assert kinds.count("option") == 4
    assert {kinds[0], kinds[10], kinds[20], kinds[30]} == {"bonus", "lose_two", "free_two", "stop"}
    for category in CATEGORIES:
        assert sum(1 for s in BOARD if s.get("category") == category) == 6


def test_option_squares_sit_mid_side_bordered_by_the_two_colours_they_offer():
    options = [square for square in BOARD if square["kind"] == "option"]
    assert [square["index"] for square in options] == [5, 15, 25, 35]
    for square in options:
        neighbours = [BOARD[square["index"] - 1]["category"], BOARD[square["index"] + 1]["category"]]
        assert neighbours == square["categories"]
    offered = [c for square in options for c in square["categories"]]
    assert all(offered.count(c) == 2 for c in CATEGORIES)


def test_every_pawn_starts_on_the_bonus_square():
    state = fresh(5)
    assert set(state["positions"].values()) == {0}
    assert BOARD[0]["kind"] == "bonus"


def test_the_highest_roll_of_the_dice_plays_first():
    for seed in range(20):
        state = fresh(4, seed=str(seed))
        rolls = [e for e in state["log"] if e["type"] == "start_roll" and e["attempt"] == 1]
        assert len(rolls) == 4 and all(len(e["dice"]) == 2 and e["total"] == sum(e["dice"]) for e in rolls)
        last = max(e["attempt"] for e in state["log"] if e["type"] == "start_roll")
        final = [e for e in state["log"] if e["type"] == "start_roll" and e["attempt"] == last]
        best = max(e["total"] for e in final)
        assert [e["player"] for e in final if e["total"] == best] == [state["first_player"]]
        assert state["turn"] == state["first_player"] and state["phase"] == "roll"


def test_a_tie_for_the_highest_roll_rolls_again_between_the_tied_players_only():
    for seed in range(300):
        state = fresh(3, seed=f"tie{seed}")
        first = [e for e in state["log"] if e["type"] == "start_roll" and e["attempt"] == 1]
        second = [e for e in state["log"] if e["type"] == "start_roll" and e["attempt"] == 2]
        if second:
            best = max(e["total"] for e in first)
            assert {e["player"] for e in second} == {e["player"] for e in first if e["total"] == best}
            assert len(second) >= 2
            return
    pytest.fail("no seed gave a tie")


def test_pawns_move_clockwise_by_the_total_of_two_dice():
    state = fresh()
    player, total = state["turn"], S.peek_dice(state)
    state["positions"][player] = 7
    after, events = GAME.apply(state, player, {"type": "roll"}, 1.0)
    roll = next(e for e in events if e["type"] == "roll")
    assert 2 <= roll["total"] <= 12 and roll["total"] == total == sum(roll["dice"])
    assert after["positions"][player] == (7 + total) % 40


def test_play_passes_to_the_left_which_is_the_next_seat():
    state = fresh(4)
    first = state["turn"]
    state, _ = S.roll_onto(state, S.square_of("stop"))
    assert state["turn"] == S.left_of(state, first)
    assert state["seating"].index(state["turn"]) == (state["seating"].index(first) + 1) % 4


# ------------------------------------------------------------------------------------------------
# Question squares
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("category", CATEGORIES)
def test_a_right_answer_earns_a_token_of_that_colour_and_another_roll(category):
    state = fresh()
    player = state["turn"]
    state, events = S.roll_onto(state, S.square_of("question", category))
    assert state["phase"] == "answer" and state["question"]["category"] == category
    state, events = S.answer_right(state)
    assert state["tokens"][player][category] == 1 and sum(state["tokens"][player].values()) == 1
    assert state["phase"] == "roll" and state["turn"] == player
    assert "roll_again" in S.types(events)


@pytest.mark.parametrize("category", CATEGORIES)
def test_a_wrong_answer_shows_the_right_answer_and_ends_the_turn(category):
    state = fresh()
    player = state["turn"]
    state, _ = S.roll_onto(state, S.square_of("question", category))
    answers = state["question"]["data"]["answers"]
    state, _events = S.answer_wrong(state)
    assert state["phase"] == "reveal" and GAME.current_players(state) == []
    projector = GAME.view(state, {"role": "projector"})
    assert projector["last_result"]["answers"] == answers and projector["last_result"]["correct"] is False
    assert core.clock_view(state)["deadline"] == 2.0 + GAME.default_config["reveal_seconds"]
    state, _events = S.end_reveal(state)
    assert state["turn"] == S.left_of(state, player) and state["phase"] == "roll"
    assert sum(state["tokens"][player].values()) == 0


# ------------------------------------------------------------------------------------------------
# Option, Bonus, lose-two, free-two and Stop squares
# ------------------------------------------------------------------------------------------------


def test_option_square_offers_either_of_its_two_colours():
    state = fresh()
    player = state["turn"]
    state, _ = S.roll_onto(state, 5)
    assert state["phase"] == "choose_category"
    assert GAME.legal_actions(state, player) == [
        {"type": "choose", "category": MC},
        {"type": "choose", "category": SP},
    ]
    with pytest.raises(IllegalAction):
        GAME.apply(state, player, {"type": "choose", "category": CW}, 2.0)
    state, _ = GAME.apply(state, player, {"type": "choose", "category": SP}, 2.0)
    assert state["question"]["category"] == SP and state["question"]["reward"] == 1
    state, _ = S.answer_right(state)
    assert state["tokens"][player][SP] == 1 and state["turn"] == player


def test_bonus_square_any_category_and_a_right_answer_earns_two_tokens_and_continues():
    state = fresh()
    player = state["turn"]
    state, _ = S.roll_onto(state, 0)
    assert state["phase"] == "choose_category"
    assert [a["category"] for a in GAME.legal_actions(state, player)] == list(CATEGORIES)
    state, _ = GAME.apply(state, player, {"type": "choose", "category": CW}, 2.0)
    state, _ = S.answer_right(state, 3.0)
    assert state["tokens"][player][CW] == 2 and state["turn"] == player and state["phase"] == "roll"


def test_bonus_square_wrong_answer_earns_nothing_and_ends_the_turn():
    state = fresh()
    player = state["turn"]
    state, _ = S.roll_onto(state, 0)
    state, _ = GAME.apply(state, player, {"type": "choose", "category": MC}, 2.0)
    state, _ = S.answer_wrong(state, 3.0)
    state, _ = S.end_reveal(state)
    assert sum(state["tokens"][player].values()) == 0 and state["turn"] != player


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ({}, {}),
        ({CW: 1}, {}),
        ({MW: 1, SP: 1}, {}),
        ({MC: 2}, {}),
    ],
)
def test_lose_two_square_with_two_or_fewer_tokens_loses_them_all_and_stops(before, after):
    state = fresh()
    player = state["turn"]
    state = S.set_tokens(state, player, **before)
    state, _ = S.roll_onto(state, 10)
    assert {c: n for c, n in state["tokens"][player].items() if n} == after
    assert state["turn"] == S.left_of(state, player)


def test_lose_two_square_with_more_than_two_tokens_lets_the_player_choose_which():
    state = fresh()
    player = state["turn"]
    state = S.set_tokens(state, player, missing_word=2, crossword=1)
    state, _ = S.roll_onto(state, 10)
    assert state["phase"] == "discard"
    assert GAME.legal_actions(state, player) == [
        {"type": "discard", "categories": [MW, MW]},
        {"type": "discard", "categories": [MW, CW]},
    ]
    for bad in ([CW, CW], [SP, MW], [MW], [MW, MW, CW], "mw"):
        with pytest.raises(IllegalAction):
            GAME.apply(state, player, {"type": "discard", "categories": bad}, 2.0)
    state, _events = GAME.apply(state, player, {"type": "discard", "categories": [CW, MW]}, 2.0)
    assert state["tokens"][player] == {MW: 1, CW: 0, MC: 0, SP: 0}
    assert state["turn"] == S.left_of(state, player)


def test_free_two_square_takes_two_tokens_of_different_colours_and_continues():
    state = fresh()
    player = state["turn"]
    state, _ = S.roll_onto(state, 20)
    assert state["phase"] == "free_tokens" and len(GAME.legal_actions(state, player)) == 6
    with pytest.raises(IllegalAction):
        GAME.apply(state, player, {"type": "take", "categories": [MW, MW]}, 2.0)
    state, _ = GAME.apply(state, player, {"type": "take", "categories": [SP, MW]}, 2.0)
    assert state["tokens"][player] == {MW: 1, CW: 0, MC: 0, SP: 1}
    assert state["turn"] == player and state["phase"] == "roll"


def test_stop_square_ends_the_turn():
    state = fresh()
    player = state["turn"]
    state, _events = S.roll_onto(state, 30)
    assert state["turn"] == S.left_of(state, player) and sum(state["tokens"][player].values()) == 0


# ------------------------------------------------------------------------------------------------
# Word Up squares and cards
# ------------------------------------------------------------------------------------------------


def test_the_deck_holds_twenty_cards_of_every_type_in_the_rulebook():
    kinds = {card["kind"] for card in CARDS.values()}
    assert len(CARD_IDS) == 20
    assert kinds == {
        "any_category",
        "free_or_answer",
        "lose_colour",
        "move_to_colour",
        "exchange",
        "ask_left",
        "stop_or_lose",
    }
    for kind in ("free_or_answer", "lose_colour", "move_to_colour"):
        assert {c["category"] for c in CARDS.values() if c["kind"] == kind} == set(CATEGORIES)
    assert sorted(fresh()["deck"]) == sorted(CARD_IDS)


def test_a_card_is_drawn_from_the_top_and_returned_to_the_bottom():
    state = fresh()
    top = state["deck"][0]
    rest = state["deck"][1:]
    state, events = S.roll_onto(state, S.square_of("word_up"))
    assert state["deck"] == [*rest, top]
    assert next(e for e in events if e["type"] == "card")["card"]["id"] == top


def test_card_answer_any_category_for_one_token_and_continue():
    state = fresh()
    player = state["turn"]
    state, _ = S.draw_card(state, "any-1")
    assert state["phase"] == "choose_category" and len(state["pending"]["options"]) == 4
    state, _ = GAME.apply(state, player, {"type": "choose", "category": MW}, 2.0)
    state, _ = S.answer_right(state, 3.0)
    assert state["tokens"][player][MW] == 1 and state["turn"] == player


def test_card_free_token_of_the_stated_colour_and_stop():
    state = fresh()
    player = state["turn"]
    state, _ = S.draw_card(state, "free-orange")
    assert GAME.legal_actions(state, player) == [
        {"type": "card", "choice": "take"},
        {"type": "card", "choice": "answer"},
    ]
    state, _ = GAME.apply(state, player, {"type": "card", "choice": "take"}, 2.0)
    assert state["tokens"][player][MW] == 1 and state["turn"] == S.left_of(state, player)


def test_card_or_answer_that_colour_for_one_token_and_continue():
    state = fresh()
    player = state["turn"]
    state, _ = S.draw_card(state, "free-yellow")
    state, _ = GAME.apply(state, player, {"type": "card", "choice": "answer"}, 2.0)
    assert state["question"]["category"] == SP and state["question"]["reward"] == 1
    state, _ = S.answer_right(state, 3.0)
    assert state["tokens"][player][SP] == 1 and state["turn"] == player


def test_card_answer_that_colour_wrong_ends_the_turn_without_the_token():
    state = fresh()
    player = state["turn"]
    state, _ = S.draw_card(state, "free-green")
    state, _ = GAME.apply(state, player, {"type": "card", "choice": "answer"}, 2.0)
    state, _ = S.answer_wrong(state, 3.0)
    state, _ = S.end_reveal(state)
    assert state["tokens"][player][CW] == 0 and state["turn"] != player


def test_card_lose_a_token_of_the_stated_colour_and_stop():
    state = fresh()
    player = state["turn"]
    state = S.set_tokens(state, player, crossword=2, spelling=1)
    state, _ = S.draw_card(state, "lose-green")
    assert state["tokens"][player] == {MW: 0, CW: 1, MC: 0, SP: 1}
    assert state["turn"] == S.left_of(state, player)


def test_card_lose_a_colour_you_do_not_have_just_stops():
    state = fresh()
    player = state["turn"]
    state = S.set_tokens(state, player, crossword=2)
    state, _ = S.draw_card(state, "lose-blue")
    assert state["tokens"][player][CW] == 2 and all(n >= 0 for n in state["tokens"][player].values())
    assert state["turn"] == S.left_of(state, player)


def test_card_move_to_the_next_square_of_the_stated_colour_and_answer_for_two_tokens():
    state = fresh()
    player = state["turn"]
    state, _events = S.draw_card(state, "move-blue")  # from square 2, the next blue square is 4
    assert state["positions"][player] == 4 and BOARD[4]["category"] == MC
    assert state["question"]["category"] == MC and state["question"]["reward"] == 2
    state, _ = S.answer_right(state, 3.0)
    assert state["tokens"][player][MC] == 2 and state["turn"] == player and state["phase"] == "roll"


def test_card_move_to_colour_wraps_round_the_board_clockwise():
    state = S.with_card_on_top(fresh(), "move-orange")
    player = state["turn"]
    state, _ = S.roll_onto(state, 38)
    assert state["positions"][player] == 1 and BOARD[1]["category"] == MW


def test_card_move_to_colour_wrong_answer_ends_the_turn():
    state = fresh()
    player = state["turn"]
    state, _ = S.draw_card(state, "move-yellow")
    state, _ = S.answer_wrong(state, 3.0)
    state, _ = S.end_reveal(state)
    assert state["tokens"][player][SP] == 0 and state["turn"] != player


def test_card_exchange_one_of_your_tokens_for_another_players_and_continue():
    state = fresh()
    player = state["turn"]
    other = S.left_of(state, player)
    state = S.set_tokens(S.set_tokens(state, player, missing_word=1), other, spelling=1, missing_word=1)
    state, _ = S.draw_card(state, "exchange-1")
    actions = GAME.legal_actions(state, player)
    assert {"type": "card", "choice": "roll"} in actions
    assert {"type": "card", "choice": "exchange", "with": other, "give": MW, "take": SP} in actions
    for bad in (
        {"with": other, "give": SP, "take": MW},  # you have no yellow token to give
        {"with": other, "give": MW, "take": MW},  # a swap of one colour for the same colour
        {"with": other, "give": MW, "take": CW},  # they have no green token
        {"with": player, "give": MW, "take": SP},  # not with yourself
        {"with": "nobody", "give": MW, "take": SP},
    ):
        with pytest.raises(IllegalAction):
            GAME.apply(state, player, {"type": "card", "choice": "exchange", **bad}, 2.0)
    state, _events = GAME.apply(
        state, player, {"type": "card", "choice": "exchange", "with": other, "give": MW, "take": SP}, 2.0
    )
    assert state["tokens"][player] == {MW: 0, CW: 0, MC: 0, SP: 1}
    assert state["tokens"][other] == {MW: 2, CW: 0, MC: 0, SP: 0}
    assert state["turn"] == player and state["phase"] == "roll"


def test_card_exchange_or_roll_again():
    state = fresh()
    player = state["turn"]
    other = S.left_of(state, player)
    state = S.set_tokens(S.set_tokens(state, player, missing_word=1), other, spelling=1)
    state, _ = S.draw_card(state, "exchange-2")
    before = state["tokens"]
    state, _ = GAME.apply(state, player, {"type": "card", "choice": "roll"}, 2.0)
    assert state["tokens"] == before and state["turn"] == player and state["phase"] == "roll"


def test_card_exchange_with_nothing_to_swap_just_rolls_again():
    state = fresh()
    player = state["turn"]
    state, events = S.draw_card(state, "exchange-1")
    assert "card_no_choice" in S.types(events)
    assert state["turn"] == player and state["phase"] == "roll"


def test_card_ask_the_player_on_your_left_right_answer_they_take_the_token_and_roll():
    state = fresh(3, levels=[1, 2, 3])
    asker = state["turn"]
    left = S.left_of(state, asker)
    state, _ = S.draw_card(state, "ask-left-1")
    assert GAME.current_players(state) == [asker] and state["pending"]["answerer"] == left
    state, _ = GAME.apply(state, asker, {"type": "choose", "category": CW}, 2.0)
    assert GAME.current_players(state) == [left]
    assert state["question"]["data"]["level"] == state["players"][left]["level"]  # their own level
    with pytest.raises(IllegalAction):
        GAME.apply(state, asker, S.right_answer(state), 3.0)
    state, _ = S.answer_right(state, 3.0)
    assert state["tokens"][left][CW] == 1 and state["tokens"][asker][CW] == 0
    assert state["turn"] == left and state["phase"] == "roll"


def test_card_ask_the_player_on_your_left_wrong_answer_you_take_the_token_and_roll():
    state = fresh(3)
    asker = state["turn"]
    left = S.left_of(state, asker)
    state, _ = S.draw_card(state, "ask-left-2")
    state, _ = GAME.apply(state, asker, {"type": "choose", "category": SP}, 2.0)
    state, _ = S.answer_wrong(state, 3.0)
    state, events = S.end_reveal(state)
    assert state["tokens"][asker][SP] == 1 and state["tokens"][left][SP] == 0
    assert state["turn"] == asker and state["phase"] == "roll"
    fact = GAME.facts(events)[0]
    assert fact["player"] == left and fact["correct"] is False and fact["detail"]["asked_by"] == asker


def test_card_ask_left_teacher_accept_gives_the_token_and_the_roll_to_the_left_player():
    state = fresh(3)
    asker = state["turn"]
    left = S.left_of(state, asker)
    state, _ = S.draw_card(state, "ask-left-1")
    state, _ = GAME.apply(state, asker, {"type": "choose", "category": MW}, 2.0)
    state, _ = S.answer_wrong(state, 3.0)
    state, _ = GAME.apply(state, TEACHER, {"type": "accept"}, 4.0)
    assert state["tokens"][left][MW] == 1 and state["tokens"][asker][MW] == 0 and state["turn"] == left


def test_card_stop():
    state = fresh()
    player = state["turn"]
    state = S.set_tokens(state, player, missing_word=1)
    state, _ = S.draw_card(state, "stop-or-lose-1")
    assert GAME.legal_actions(state, player) == [
        {"type": "card", "choice": "stop"},
        {"type": "card", "choice": "lose", "category": MW},
    ]
    state, _ = GAME.apply(state, player, {"type": "card", "choice": "stop"}, 2.0)
    assert state["tokens"][player][MW] == 1 and state["turn"] == S.left_of(state, player)


def test_card_or_lose_one_token_of_any_colour_and_continue():
    state = fresh()
    player = state["turn"]
    state = S.set_tokens(state, player, missing_word=1, spelling=2)
    state, _ = S.draw_card(state, "stop-or-lose-2")
    with pytest.raises(IllegalAction):
        GAME.apply(state, player, {"type": "card", "choice": "lose", "category": CW}, 2.0)
    with pytest.raises(IllegalAction):
        GAME.apply(state, player, {"type": "card", "choice": "lose"}, 2.0)
    state, _ = GAME.apply(state, player, {"type": "card", "choice": "lose", "category": SP}, 2.0)
    assert state["tokens"][player] == {MW: 1, CW: 0, MC: 0, SP: 1}
    assert state["turn"] == player and state["phase"] == "roll"


def test_card_stop_or_lose_with_no_tokens_simply_stops():
    state = fresh()
    player = state["turn"]
    state, events = S.draw_card(state, "stop-or-lose-1")
    assert "card_no_choice" in S.types(events) and state["turn"] == S.left_of(state, player)


# ------------------------------------------------------------------------------------------------
# Winning and the variants
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("target", [1, 2, 3])
def test_first_to_collect_the_target_of_each_colour_wins(target):
    state = fresh(3, target=target)
    player = state["turn"]
    full = {c: target for c in CATEGORIES}
    state = S.set_tokens(state, player, **{**full, CW: target - 1})
    state, _ = S.roll_onto(state, S.square_of("question", CW))
    state, events = S.answer_right(state)
    assert GAME.is_over(state) and state["phase"] == "over" and GAME.current_players(state) == []
    outcome = GAME.outcome(state)
    assert outcome["winners"] == [player] and outcome["reason"] == "target"
    assert all(n >= target for n in outcome["tokens"][player].values())
    assert "game_over" in S.types(events)


def test_the_default_target_is_two_of_each_colour():
    state = fresh()
    player = state["turn"]
    state = S.set_tokens(state, player, missing_word=1, crossword=1, multiple_choice=1, spelling=0)
    state, _ = S.roll_onto(state, S.square_of("question", SP))
    state, _ = S.answer_right(state)
    assert not GAME.is_over(state) and GAME.outcome(state) is None


def test_winning_by_free_tokens_ends_the_game_at_once():
    state = fresh(target=1)
    player = state["turn"]
    state = S.set_tokens(state, player, missing_word=1, crossword=1)
    state, _ = S.roll_onto(state, 20)
    state, _ = GAME.apply(state, player, {"type": "take", "categories": [MC, SP]}, 2.0)
    assert GAME.outcome(state)["winners"] == [player]


def test_no_action_is_accepted_after_the_game_ends():
    state = fresh(target=1)
    player = state["turn"]
    state = S.set_tokens(state, player, missing_word=1, crossword=1, multiple_choice=1)
    state, _ = S.roll_onto(state, S.square_of("question", SP))
    state, _ = S.answer_right(state)
    for who in state["seating"]:
        assert GAME.legal_actions(state, who) == []
        with pytest.raises(IllegalAction):
            GAME.apply(state, who, {"type": "roll"}, 9.0)
    assert GAME.on_deadline(state, 99.0)[0] == state


def test_fixed_time_variant_most_tokens_wins_when_time_runs_out():
    state = fresh(3, time_limit=600)
    assert core.clock_view(state)["game_deadline"] == 600
    a, b, c = state["seating"]
    state = S.set_tokens(S.set_tokens(state, a, missing_word=3), b, crossword=1, spelling=1)
    state, _events = GAME.on_deadline(state, 600.0)
    assert GAME.outcome(state) == {
        "winners": [a],
        "reason": "time",
        "scores": {a: 3, b: 2, c: 0},
        "tokens": state["tokens"],
    }
    assert core.deadline_of(state) is None


def test_fixed_time_variant_equal_counts_are_joint_winners():
    state = fresh(3, time_limit=300)
    a, _b, c = state["seating"]
    state = S.set_tokens(S.set_tokens(state, a, missing_word=2), c, crossword=1, spelling=1)
    state, _ = GAME.on_deadline(state, 300.0)
    assert GAME.outcome(state)["winners"] == [a, c]


def test_fixed_time_variant_an_action_after_the_time_ends_the_game_instead():
    state = fresh(2, time_limit=60, roll_seconds=100)  # the game's time runs out before the turn's
    player = state["turn"]
    state, events = GAME.apply(state, player, {"type": "roll"}, 61.0)
    assert GAME.is_over(state) and GAME.outcome(state)["reason"] == "time"
    assert S.types(events) == ["time_up", "game_over"]


def test_fixed_time_variant_a_refused_answer_on_show_when_time_runs_out_still_gives_its_fact():
    state = fresh(2, time_limit=60, answer_seconds=60)  # the answer at 50 is in time
    state, _ = S.roll_onto(state, S.square_of("question", MW))
    state, _ = S.answer_wrong(state, 50.0)
    state, events = GAME.on_deadline(state, 60.0)
    assert GAME.is_over(state)
    facts = GAME.facts(events)
    assert len(facts) == 1 and facts[0]["correct"] is False


def test_fixed_time_variant_still_ends_early_when_someone_collects_the_set():
    state = fresh(2, time_limit=900, target=1)
    player = state["turn"]
    state = S.set_tokens(state, player, missing_word=1, crossword=1, multiple_choice=1)
    state, _ = S.roll_onto(state, S.square_of("question", SP))
    state, _ = S.answer_right(state)
    assert GAME.outcome(state)["reason"] == "target"


def test_the_time_limit_pauses_with_the_session():
    state = fresh(2, time_limit=100)
    core.clock_pause(state, 40.0)
    assert state["game_clock"]["remaining"] == 60.0
    core.clock_resume(state, 1000.0)
    assert core.deadline_of(state) == min(1060.0, state["clock"]["deadline"])


# ------------------------------------------------------------------------------------------------
# Every student at their own level: the sheets
# ------------------------------------------------------------------------------------------------


def ask_again_and_again(state: dict, category: str, times: int) -> tuple[dict, list[str]]:
    asked = []
    for i in range(times):
        state, _ = S.roll_onto(state, S.square_of("question", category), now=10.0 * i + 1)
        asked.append(state["question"]["data"]["id"])
        state, _ = S.answer_right(state, now=10.0 * i + 2)
    return state, asked


def test_each_student_is_asked_at_their_own_level():
    for levels in ([1, 4], [5, 2], [3, 3]):
        state = fresh(2, levels=levels)
        player = state["turn"]
        state, _ = S.roll_onto(state, S.square_of("question", MC))
        assert state["question"]["data"]["level"] == state["players"][player]["level"]


def test_questions_come_in_bank_order_seven_per_sheet_then_a_new_sheet_of_the_same_level():
    state = fresh(3, levels=[2, 2, 2], questions=S.bank(levels=(2,), size=30))
    player = state["turn"]
    holders = state["seating"]
    state, asked = ask_again_and_again(state, MW, 9)
    indexes = [int(qid.rsplit("-", 1)[1]) for qid in asked]
    own_sheet = holders.index(player)  # each player took a sheet from the level's pile in seating order
    first = list(range(7 * own_sheet, 7 * own_sheet + 7))
    assert indexes[:7] == first
    # The column is used up: the next sheet comes from the top of the pile (sheet 3 after 0, 1, 2).
    assert indexes[7:] == [21, 22]
    assert state["sheets"][player]["sheet"] == 3 and state["sheet_pile"]["2"] == 4


def test_two_players_of_the_same_level_never_share_a_sheet():
    state = fresh(2, levels=[3, 3])
    a, b = state["seating"]
    assert state["sheets"][a]["sheet"] != state["sheets"][b]["sheet"]


def test_a_used_up_bank_wraps_round_to_its_first_question():
    state = fresh(2, levels=[1, 2], questions=S.bank(levels=(1, 2), size=10))
    state, asked = ask_again_and_again(state, CW, 14)
    assert [int(qid.rsplit("-", 1)[1]) for qid in asked] == [*range(7), 7, 8, 9, 0, 1, 2, 3]


def test_categories_are_separate_columns_of_one_sheet():
    state = fresh(2, levels=[1, 1])
    player = state["turn"]
    state, _mw = ask_again_and_again(state, MW, 2)
    state, cw = ask_again_and_again(state, CW, 1)
    sheet = state["sheets"][player]["sheet"]
    assert cw == [f"wu-1-crossword-{7 * sheet:02d}"] and state["sheets"][player]["used"][MW] == 2


def test_a_level_without_questions_in_a_category_borrows_from_the_nearest_level():
    questions = S.bank(levels=(2, 4, 5))
    questions["3"] = {c: [S.question(3, c, i) for i in range(7)] for c in (MW, CW, MC)}
    state = fresh(2, levels=[3, 3], questions=questions)
    state, _ = S.roll_onto(state, S.square_of("question", SP))
    assert state["question"]["data"]["level"] == 2  # 2 and 4 are as near: the easier one


def test_a_level_never_borrows_from_two_levels_away_and_the_reason_names_what_is_missing():
    questions = S.bank(levels=(3, 4, 5))  # level 1 has no questions at all; level 2 none either
    with pytest.raises(ValueError, match="no missing word questions at level 1, nor at a level next to it"):
        GAME.setup(S.config(2, questions=questions, levels=[1, 1]), "s")


def test_only_the_levels_the_players_questions_can_come_from_are_read():
    """A homework attempt starts with the whole school's bank for one student's level: the levels out
    of reach (more than one away) are not read, so not checked; a bad question within reach still is."""
    questions = S.bank()
    questions["5"][MW][0] = {"id": "broken"}  # no answers
    state = GAME.setup(S.config(2, questions=questions, levels=[1, 2]), "s")
    assert set(state["bank"]) == {"1", "2"}
    with pytest.raises(ValueError, match="broken"):
        GAME.setup(S.config(2, questions=questions, levels=[4, 4]), "s")


def test_games_made_from_the_same_questions_share_one_bank_until_a_list_changes():
    """A homework evening starts every attempt from the school's one bank: it is checked once."""
    questions = S.bank()
    first = GAME.setup(S.config(2, questions=questions), "a")
    second = GAME.setup(S.config(2, questions=questions), "b")
    assert second["bank"] is first["bank"]
    assert second["sources"] == first["sources"] and second["sources"] is not first["sources"]
    level = str(first["players"][first["seating"][0]]["level"])
    questions[level][CW] = questions[level][CW][:3]  # a list replaced
    shorter = GAME.setup(S.config(2, questions=questions), "c")
    assert shorter["bank"] is not first["bank"] and len(shorter["bank"][level][CW]) == 3
    questions[level][CW].append(S.question(int(level), CW, 99))  # a list added to
    longer = GAME.setup(S.config(2, questions=questions), "d")
    assert [q["id"] for q in longer["bank"][level][CW]][-1] == S.question(int(level), CW, 99)["id"]


def test_a_bank_without_any_question_of_a_category_cannot_start():
    questions = S.bank()
    for level in questions.values():
        level[SP] = []
    with pytest.raises(ValueError):
        GAME.setup(S.config(2, questions=questions), "s")


# ------------------------------------------------------------------------------------------------
# Asking and checking (the marking rules)
# ------------------------------------------------------------------------------------------------

SPECIAL = {
    (1, MW): [
        S.question(1, MW, 90, prompt="An elephant is a ____ animal.", answers=["big", "large"], letters=3)
    ],
    (1, CW): [
        S.question(1, CW, 91, prompt="A place to watch plays", answers=["theatre"], alternatives=["theater"])
    ],
    (1, SP): [S.question(1, SP, 92, answers=["well-known"], sentence="She is a well-known singer.")],
    (1, MC): [
        S.question(
            1, MC, 93, prompt="The capital of France?", answers=["Paris"], choices=["Paris", "Rome", "Oslo"]
        )
    ],
}


def asked(category: str) -> tuple[dict, str]:
    """A game where the first player (level 1) is asked the special question of ``category``."""
    state = fresh(2, levels=[1, 1], questions=S.bank(levels=(1,), special=SPECIAL))
    player = state["turn"]
    state["sheets"][player]["sheet"] = 0  # the special question is the first of sheet 0
    state, _ = S.roll_onto(state, S.square_of("question", category))
    return state, player


def marked(category: str, response) -> tuple[bool, dict]:
    state, player = asked(category)
    state, events = S.answer(state, response)
    if state["phase"] == "reveal":
        state, more = S.end_reveal(state)
        events += more
    (fact,) = GAME.facts(events)
    return fact["correct"], state["tokens"][player]


@pytest.mark.parametrize("response", ["big", "BIG", "Large", "  big  ", "big.", "Big!"])
def test_marking_ignores_case_and_surrounding_spaces(response):
    assert marked(MW, response)[0] is True


@pytest.mark.parametrize(
    "response", ["well-known", "wellknown", "Well Known", "WELL-KNOWN", "well\u2013known"]
)
def test_marking_ignores_hyphens(response):
    assert marked(SP, response)[0] is True


@pytest.mark.parametrize(("response", "right"), [("theater", True), ("Theatre", True), ("theatr", False)])
def test_marking_accepts_alternative_spellings(response, right):
    assert marked(CW, response)[0] is right


@pytest.mark.parametrize(
    "response", ["big large", "big, large", "big / large", "large or big", "big and large"]
)
def test_missing_word_two_right_words_earn_only_one_token(response):
    correct, tokens = marked(MW, response)
    assert correct is True and tokens[MW] == 1


@pytest.mark.parametrize("response", ["big small", "small, big", "big or tiny", "elephant"])
def test_missing_word_a_right_word_hedged_with_a_wrong_one_is_wrong(response):
    correct, tokens = marked(MW, response)
    assert correct is False and tokens[MW] == 0


def test_crossword_any_accepted_word_of_several_typed_counts_once():
    assert marked(CW, "theatre theater") == (True, {MW: 0, CW: 1, MC: 0, SP: 0})


@pytest.mark.parametrize(("response", "right"), [("wel-known", False), ("well-known well-known", False)])
def test_spelling_is_one_attempt_at_the_whole_word(response, right):
    assert marked(SP, response)[0] is right


def test_spelling_allows_only_one_attempt():
    state, _player = asked(SP)
    state, _ = S.answer(state, "wellnown")
    with pytest.raises(IllegalAction):
        S.answer(state, "well-known", now=3.0)


def test_multiple_choice_by_index_of_the_options_as_shown():
    state, player = asked(MC)
    shown = state["question"]["choices"]
    assert sorted(shown) == ["Oslo", "Paris", "Rome"]
    state, _ = S.answer(state, shown.index("Paris"))
    assert state["tokens"][player][MC] == 1


@pytest.mark.parametrize(("text", "right"), [("paris", True), (" Paris ", True), ("Rome", False)])
def test_multiple_choice_by_the_text_of_an_option(text, right):
    assert marked(MC, text)[0] is right


@pytest.mark.parametrize(
    "bad",
    [
        {"answer": "London"},
        {"choice": 3},
        {"choice": -1},
        {"choice": True},
        {"choice": "0"},
        {"choice": 0, "answer": "Paris"},
        {},
    ],
)
def test_multiple_choice_refuses_anything_but_one_of_the_three_options(bad):
    state, player = asked(MC)
    with pytest.raises(IllegalAction):
        GAME.apply(state, player, {"type": "answer", **bad}, 2.0)


def test_an_answer_that_is_too_long_is_refused():
    state, _player = asked(MW)
    with pytest.raises(IllegalAction):
        S.answer(state, "x" * 101)


def test_an_empty_answer_is_a_wrong_answer():
    assert marked(MW, "")[0] is False


def test_the_teacher_can_accept_an_answer_the_checker_refused():
    state, player = asked(SP)
    state, events = S.answer(state, "wel known")
    assert state["phase"] == "reveal"
    assert GAME.legal_actions(state, TEACHER) == [{"type": "accept", "question": state["question"]["serial"]}]
    assert GAME.view(state, {"role": "teacher"})["actions"] == GAME.legal_actions(state, TEACHER)
    assert GAME.facts(events) == []  # the mark is not final while the teacher may still accept
    state, events = GAME.apply(state, TEACHER, {"type": "accept"}, 4.0)
    assert state["tokens"][player][SP] == 1
    # As if it were right: the token, and the player rolls again.
    assert state["turn"] == player and state["phase"] == "roll"
    assert "teacher_accept" in S.types(events)
    (fact,) = GAME.facts(events)
    assert (
        fact["correct"] is True
        and fact["teacher_marked"] is True
        and fact["detail"]["checker_correct"] is False
    )
    assert fact["response"] == "wel known"
    result = GAME.view(state, {"role": "projector"})["last_result"]
    assert result["teacher_marked"] is True and result["correct"] is True and result["open"] is False


def test_the_teacher_accept_names_the_answer_on_show():
    state, player = asked(MW)
    state, _ = S.answer(state, "huge")
    with pytest.raises(IllegalAction):
        GAME.apply(state, TEACHER, {"type": "accept", "question": "some-other-question"}, 4.0)
    with pytest.raises(IllegalAction):  # an earlier question's serial: a late click
        GAME.apply(state, TEACHER, {"type": "accept", "question": state["question"]["serial"] - 1}, 4.0)
    with pytest.raises(IllegalAction):  # True is not the serial 1
        GAME.apply(state, TEACHER, {"type": "accept", "question": True}, 4.0)
    state, _ = GAME.apply(
        state, TEACHER, {"type": "accept", "question": state["question"]["data"]["id"]}, 4.0
    )
    assert state["tokens"][player][MW] == 1


def test_the_teacher_accept_may_name_the_question_by_its_serial():
    state, player = asked(MW)
    state, _ = S.answer(state, "huge")
    serial = GAME.view(state, {"role": "teacher"})["last_result"]["question"]["serial"]
    state, _ = GAME.apply(state, TEACHER, {"type": "accept", "question": serial}, 4.0)
    assert state["tokens"][player][MW] == 1


def test_questions_are_named_by_serial_never_by_a_bank_id_that_could_give_the_answer_away():
    special = {key: [dict(q, id=f"my-{q['answers'][0]}-question") for q in qs] for key, qs in SPECIAL.items()}
    for category in CATEGORIES:
        state = fresh(2, levels=[1, 1], questions=S.bank(levels=(1,), special=special))
        state["sheets"][state["turn"]]["sheet"] = 0
        state, _ = S.roll_onto(state, S.square_of("question", category))
        answer = state["question"]["data"]["answers"][0]
        for viewer in VIEWERS:
            view = GAME.view(state, viewer)
            assert view["question"]["serial"] == state["asked"] >= 1
            assert "id" not in view["question"]
            assert not core.contains_value(view, state["question"]["data"]["id"]), (category, viewer)
            if category != MC:
                assert answer not in core.canonical_json(view), (category, viewer)


def test_only_the_teacher_accepts_and_only_during_the_reveal():
    state, _player = asked(MW)
    with pytest.raises(IllegalAction):  # not before an answer is given
        GAME.apply(state, TEACHER, {"type": "accept"}, 2.0)
    state, _ = S.answer(state, "huge")
    for somebody in state["seating"]:
        with pytest.raises(IllegalAction):
            GAME.apply(state, somebody, {"type": "accept"}, 3.0)
    with pytest.raises(IllegalAction):
        GAME.apply(state, TEACHER, {"type": "roll"}, 3.0)
    state, _ = S.end_reveal(state)
    with pytest.raises(IllegalAction):  # the reveal is over
        GAME.apply(state, TEACHER, {"type": "accept"}, 30.0)


# ------------------------------------------------------------------------------------------------
# Facts
# ------------------------------------------------------------------------------------------------


def test_one_fact_per_answer_with_everything_the_reports_need():
    state, player = asked(CW)
    state, events = S.answer(state, "Theater", now=12.5)
    (fact,) = GAME.facts(events)
    assert fact == {
        "player": player,
        "game": "wordup",
        "skill": "english_vocabulary",
        "category": CW,
        "level": 1,
        "correct": True,
        "teacher_marked": False,
        "score": 1,
        "time_taken": 11.5,  # asked at 1.0 (the roll), answered at 12.5
        "item_id": "wu-1-crossword-91",
        "response": "Theater",
        "at": 12.5,
        "detail": {
            "teacher_marked": False,
            "checker_correct": True,
            "choice": None,
            "player_level": 1,
            "asked_by": player,
            "mode": "normal",
            "reward": 1,
        },
    }


def test_facts_of_a_whole_game_are_one_per_answer_given():
    cfg = S.config(3, bots=[0.9, 0.5, 0.1])
    state, _log, events = core.play_with_bots(GAME, cfg, "facts")
    facts = GAME.facts(events)
    assert len(facts) == state["answers_given"] > 0
    for fact in facts:
        assert fact["skill"] == "english_vocabulary" and fact["game"] == "wordup"
        assert fact["level"] in (1, 2, 3) and fact["category"] in CATEGORIES
        assert isinstance(fact["correct"], bool) and fact["time_taken"] >= 0
    json.dumps(facts)


def test_an_unanswered_question_counts_as_wrong_and_is_reported():
    state, player = asked(MW)
    state, events = GAME.on_deadline(state, 1.0 + GAME.default_config["answer_seconds"])
    assert state["phase"] == "reveal"
    state, events = S.end_reveal(state, 100.0)
    (fact,) = GAME.facts(events)
    assert fact["response"] is None and fact["correct"] is False
    assert fact["time_taken"] == GAME.default_config["answer_seconds"]
    assert state["turn"] != player


# ------------------------------------------------------------------------------------------------
# Timed turns: every phase has a deadline and a default, so a board never stalls
# ------------------------------------------------------------------------------------------------


def test_every_phase_has_a_deadline():
    state = fresh()
    assert core.clock_view(state)["deadline"] == GAME.default_config["roll_seconds"]
    state, _ = S.roll_onto(state, 5)
    assert state["clock"]["deadline"] == 1.0 + GAME.default_config["choose_seconds"]


def test_deadline_roll_rolls_for_the_player():
    state = fresh()
    player = state["turn"]
    total = S.peek_dice(state)
    state, events = GAME.on_deadline(state, 20.0)
    assert S.types(events)[:2] == ["timeout", "roll"] and state["positions"][player] == total % 40


def test_deadline_choose_picks_the_colour_the_player_needs_most():
    state = fresh()
    player = state["turn"]
    state = S.set_tokens(state, player, multiple_choice=1)
    state, _ = S.roll_onto(state, 5)
    state, _ = GAME.on_deadline(state, 30.0)
    assert state["question"]["category"] == SP


def test_deadline_answer_counts_as_wrong():
    state, _player = asked(CW)
    state, _events = GAME.on_deadline(state, 50.0)
    assert state["phase"] == "reveal" and state["last_result"]["correct"] is False


@pytest.mark.parametrize(
    ("card", "tokens", "expect_turn_passes"),
    [("free-blue", {}, True), ("exchange-1", {MW: 1}, False), ("stop-or-lose-1", {SP: 1}, True)],
)
def test_deadline_card_choice_plays_the_safe_default(card, tokens, expect_turn_passes):
    state = fresh()
    player = state["turn"]
    other = S.left_of(state, player)
    state = S.set_tokens(S.set_tokens(state, player, **tokens), other, crossword=1)
    state, _ = S.draw_card(state, card)
    assert state["phase"] == "card_choice"
    before = sum(state["tokens"][player].values())
    state, _ = GAME.on_deadline(state, 30.0)
    assert (state["turn"] != player) is expect_turn_passes
    gained = sum(state["tokens"][player].values()) - before
    assert gained == (1 if card.startswith("free") else 0)


def test_deadline_discard_gives_back_the_tokens_missed_least():
    state = fresh()
    player = state["turn"]
    state = S.set_tokens(state, player, missing_word=3, crossword=1, spelling=2)
    state, _ = S.roll_onto(state, 10)
    state, _ = GAME.on_deadline(state, 30.0)
    assert state["tokens"][player] == {MW: 1, CW: 1, MC: 0, SP: 2}


def test_deadline_free_tokens_takes_the_two_colours_needed_most():
    state = fresh()
    player = state["turn"]
    state = S.set_tokens(state, player, missing_word=2, crossword=1)
    state, _ = S.roll_onto(state, 20)
    state, _ = GAME.on_deadline(state, 30.0)
    assert state["tokens"][player] == {MW: 2, CW: 1, MC: 1, SP: 1}


# ------------------------------------------------------------------------------------------------
# Views
# ------------------------------------------------------------------------------------------------

VIEWERS = [
    {"role": "projector"},
    {"role": "teacher"},
    {"role": "spectator"},
    {"role": "player", "player": "p0"},
    {"role": "player", "player": "p1"},
    {},
]


def test_spelling_views_give_an_audio_reference_never_the_word_or_the_sentence():
    state, _player = asked(SP)
    for viewer in VIEWERS:
        view = GAME.view(state, viewer)
        serial = view["question"]["serial"]
        assert view["question"]["audio"] == {"serial": serial, "parts": ["sentence", "word"]}
        for secret in ("well-known", "wellknown", "well known", "She is a", "singer"):
            assert not core.contains_value(view, secret), (viewer, secret)
    state, _ = S.answer(state, "well-known")
    result = GAME.view(state, {"role": "projector"})["last_result"]
    assert result["word"] == "well-known" and result["sentence"] == "She is a well-known singer."


@pytest.mark.parametrize(
    ("prompt", "word", "shown"),
    [
        ("Spell 'Necessary'", "necessary", "Listen to the sentence and the word, then type the word."),
        ("Listen and spell the word.", "listen", "Spell what you hear."),
        ("Listen and spell the word.", "spell", "Listen to the sentence and the word, then type the word."),
        ("Listen, then spell it.", "listen", "Spell what you hear."),
        ("Spell the word.", "spell", "Listen to the sentence and the word, then type the word."),
        ("Hear it and spell it.", "what", "Hear it and spell it."),
        ("Listen and spell the word.", "he", ""),
        ("Listen and spell the word.", "cat", "Listen and spell the word."),
    ],
)
def test_a_spelling_prompt_that_gives_the_word_away_is_replaced(prompt, word, shown):
    special = {(1, SP): [S.question(1, SP, 80, prompt=prompt, answers=[word], sentence=f"A {word} here.")]}
    state = fresh(2, levels=[1, 1], questions=S.bank(levels=(1,), special=special))
    state["sheets"][state["turn"]]["sheet"] = 0
    state, _ = S.roll_onto(state, S.square_of("question", SP))
    for viewer in VIEWERS:
        question = GAME.view(state, viewer)["question"]
        assert question["prompt"] == shown and word not in question["prompt"].lower()


@pytest.mark.parametrize("category", [MW, CW])
def test_no_view_shows_an_answer_before_its_reveal(category):
    state, _player = asked(category)
    answers = state["question"]["data"]["answers"] + state["question"]["data"]["alternatives"]
    for viewer in VIEWERS:
        view = GAME.view(state, viewer)
        assert not any(core.contains_value(view, a) for a in answers), viewer


def test_multiple_choice_views_do_not_say_which_option_is_right():
    state, _player = asked(MC)
    other = core.clone(state)
    other["question"]["data"] = dict(other["question"]["data"], answers=["Rome"])
    other["question"]["right"] = [other["question"]["choices"].index("Rome")]
    for viewer in VIEWERS:
        assert GAME.view(state, viewer) == GAME.view(other, viewer)


def test_levels_are_private_to_the_student_and_the_teacher():
    state = fresh(3, levels=[1, 4, 5])
    projector = GAME.view(state, {"role": "projector"})
    assert "levels" not in projector and "you" not in projector
    assert all("level" not in player for player in projector["players"])
    assert GAME.view(state, {"role": "player", "player": "p1"})["you"]["level"] == 4
    assert GAME.view(state, {"role": "teacher"})["levels"] == {"p0": 1, "p1": 4, "p2": 5}


def test_views_never_show_the_deck_order_the_seed_or_the_rng():
    state = fresh(3, seed="sekrit-seed-42")
    for viewer in VIEWERS:
        view = GAME.view(state, viewer)
        json.dumps(view)
        assert view["deck_size"] == 20 and "deck" not in view and "rng" not in view
        assert not core.contains_value(view, "sekrit-seed-42")
        assert not core.contains_value(view, state["deck"][:3])


def test_views_explain_what_happened_and_whose_turn_it_is():
    state = fresh(3)
    view = GAME.view(state, {"role": "player", "player": state["turn"]})
    assert view["turn"] == state["turn"] and view["phase"] == "roll"
    assert view["actions"] == [{"type": "roll"}] and "clock" in view
    assert any(e["type"] == "start_roll" for e in view["log"]) and view["last_events"]
    other = S.left_of(state, state["turn"])
    assert GAME.view(state, {"role": "player", "player": other})["actions"] == []


def test_an_unknown_viewer_is_a_spectator_and_sees_no_private_parts():
    state = fresh(3)
    for viewer in (
        {"role": "player", "player": "stranger"},
        {"role": "admin"},
        {"role": ["x"]},
        None,
        "teacher",
    ):
        view = GAME.view(state, viewer)
        assert view["viewer"] == "spectator" and "levels" not in view and "you" not in view


# ------------------------------------------------------------------------------------------------
# Refusals
# ------------------------------------------------------------------------------------------------


def test_only_the_player_whose_turn_it_is_may_roll():
    state = fresh(3)
    other = S.left_of(state, state["turn"])
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, other, {"type": "roll"}, 1.0)
    assert refused.value.code == "not_your_turn"
    with pytest.raises(IllegalAction):
        GAME.apply(state, "stranger", {"type": "roll"}, 1.0)


@pytest.mark.parametrize(
    "action",
    [
        None,
        5,
        [],
        {},
        {"type": 5},
        {"type": "dance"},
        {"type": "roll", "extra": 1},
        {"type": "answer", "answer": "x"},
    ],
)
def test_malformed_or_out_of_phase_actions_are_refused_and_change_nothing(action):
    state = fresh(3)
    before = core.clone(state)
    with pytest.raises(IllegalAction):
        GAME.apply(state, state["turn"], action, 1.0)
    assert state == before


def test_bots_need_a_turn_to_act():
    state = fresh(3)
    with pytest.raises(IllegalAction):
        GAME.bot_action(state, S.left_of(state, state["turn"]), core.Rng("b"))


@pytest.mark.parametrize("accuracy", [0.0, 1.0])
def test_bots_answer_right_with_their_accuracy(accuracy):
    _state, _log, events = core.play_with_bots(
        GAME, S.config(2, bots=[accuracy, accuracy], time_limit=900), "acc"
    )
    facts = GAME.facts(events)
    assert facts and all(fact["correct"] is bool(accuracy) for fact in facts)


def test_views_built_together_equal_views_built_one_by_one_and_leave_the_state_alone():
    """The fan-out builds a table's views together: they share the state's objects, never change them."""
    state = GAME.setup(S.config(3, bots=[None, 0.5, 0.9]), "views")
    rng = core.Rng("views")
    viewers = [{"role": r} for r in ("teacher", "projector", "spectator")]
    viewers += [{"role": "player", "player": f"p{i}"} for i in range(3)]
    for step in range(200):
        before = core.state_hash(state)
        together = [json.loads(json.dumps(view)) for view in GAME.views(state, viewers)]
        assert together == [GAME.view(state, viewer) for viewer in viewers], step
        assert core.state_hash(state) == before
        if GAME.is_over(state):
            break
        movers = GAME.current_players(state)
        due = state["clock"].get("deadline")
        if not movers or (due is not None and 1.0 + step >= due):
            state = GAME.on_deadline(state, due or 1000.0 + step)[0]
            continue
        player = rng.choice(movers)
        state, _events = GAME.apply(state, player, GAME.bot_action(state, player, rng), 1.0 + step)
