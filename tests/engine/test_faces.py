"""Line-Up (faces): a scenario test for every rule of the rulebook, plus setup, boards, views and facts."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from games.engine import core
from games.engine.core import IllegalAction
from games.engine.faces import Faces, commitment_of
from games.engine.faces.art import face_svg
from games.engine.faces.features import (
    BOARD_SIZE,
    FEATURE_KEYS,
    FEATURES,
    HAIR_COLOURS,
    board_problems,
    current_round,
    describe,
    generate_board,
)
from tests.loading import engine_module

h = engine_module("test_faces_helpers")
GAME, P1, P2 = h.GAME, h.P1, h.P2


def seed_where(predicate, prefix="s", **kwargs):
    """The first seed whose fresh game satisfies ``predicate`` (tests need particular situations)."""
    for i in range(500):
        state = h.new_game(seed=f"{prefix}-{i}", **kwargs)
        if predicate(state):
            return state
    raise AssertionError("no seed found")


def colour_of(face):
    return next((key for key in face["features"] if key in HAIR_COLOURS), None)


# ==================================================================================================
# Setup and configuration
# ==================================================================================================


def test_a_move_shares_the_rounds_set_up_once_and_copies_the_rest():
    """The runtime stores the rounds once per match (``Faces.shared_keys``): a move never writes them."""
    state = h.new_game()
    question = GAME.legal_actions(state, state["turn"])[0]
    after, _events = GAME.apply(state, state["turn"], question, 1.0)
    assert after["rounds"] is state["rounds"]
    assert after["log"] is not state["log"] and after["left"] is not state["left"]
    assert after["log"] != state["log"]  # the move changed the copy, not the state it was made on
    assert Faces.shared_keys == ("rounds",)


def test_registry_finds_the_engine():
    from games.definitions import get_engine

    assert isinstance(get_engine("faces"), Faces)
    assert Faces.min_players == Faces.max_players == 2


@pytest.mark.parametrize(
    "players",
    [
        [{"id": "p1"}],
        [{"id": "p1"}, {"id": "p2"}, {"id": "p3"}],
        [{"id": "p1"}, {"id": "p1"}],
        [{"id": "p1"}, {"id": 2}],
        [{"id": "p1"}, {"id": "p2", "bot": "genius"}],
        "p1,p2",
    ],
)
def test_exactly_two_valid_players_per_table(players):
    with pytest.raises(ValueError):
        GAME.setup({"players": players}, h.SEED)


@pytest.mark.parametrize(
    "setting",
    [
        {"timeout": "explode"},
        {"turn_seconds": 0},
        {"turn_seconds": "60"},
        {"rounds_to_win": 4},
        {"review_seconds": -1},
        {"rounds_to_win": True},
    ],
)
def test_bad_settings_are_refused(setting):
    with pytest.raises(ValueError):
        GAME.setup(h.config(**setting), h.SEED)


def test_a_student_without_partner_plays_a_bot():
    state = h.new_game(bot2="hard")
    assert state["bots"] == {P1: None, P2: "hard"}
    assert GAME.view(state, {"role": "player", "player": P1})["players"][1]["bot"] == "hard"


def test_state_survives_a_json_round_trip():
    state = h.new_game()
    assert json.loads(json.dumps(state)) == state


def test_same_seed_same_match_and_other_seed_other_faces():
    assert core.state_hash(h.new_game()) == core.state_hash(h.new_game())
    assert h.new_game()["rounds"] != h.new_game(seed="another-seed")["rounds"]


def test_all_faces_of_every_round_are_drawn_from_the_seed_at_setup():
    state = h.new_game()
    assert len(state["rounds"]) == 3  # first to two: at most three rounds
    for round_ in state["rounds"]:
        ids = {face["id"] for face in round_["board"]}
        assert set(round_["secret"]) == {P1, P2}
        assert set(round_["secret"].values()) <= ids
    assert len(h.new_game(rounds_to_win=3)["rounds"]) == 5


def test_commitment_is_sha256_of_salt_colon_seed():
    import hashlib

    state = h.new_game()
    assert state["commitment"] == hashlib.sha256(f"{state['salt']}:{h.SEED}".encode()).hexdigest()
    assert state["commitment"] == commitment_of(h.SEED, state["salt"])
    assert len(state["salt"]) == 64


def test_salt_may_come_from_the_runtime():
    state = GAME.setup({**h.config(), "salt": "runtime-salt"}, h.SEED)
    assert state["salt"] == "runtime-salt"
    assert state["commitment"] == commitment_of(h.SEED, "runtime-salt")


def test_first_asker_of_round_one_is_drawn_from_the_seed():
    firsts = {h.new_game(seed=f"first-{i}")["turn"] for i in range(20)}
    assert firsts == {P1, P2}
    state = h.new_game()
    assert state["turn"] == state["first"] == h.new_game()["turn"]


# ==================================================================================================
# Boards and faces
# ==================================================================================================


def test_every_board_has_24_distinct_faces_with_24_initials_and_useful_splits():
    for i in range(40):
        state = h.new_game(seed=f"board-{i}")
        for round_ in state["rounds"]:
            assert board_problems(round_["board"]) == []


def test_board_problems_notices_a_broken_board():
    board = generate_board(core.Rng("x"))
    broken = [dict(face) for face in board]
    broken[1] = {**broken[0], "id": broken[1]["id"]}
    assert board_problems(broken)
    assert board_problems(board[:23])


def test_twenty_questions_on_the_pad_with_translatable_texts():
    assert len(FEATURES) == 20 and len(set(FEATURE_KEYS)) == 20
    for feature in FEATURES:
        assert feature.question.endswith("?") and feature.label and feature.phrase


def test_face_has_id_name_features_and_a_description_for_screen_readers():
    board = generate_board(core.Rng("describe"))
    for face in board:
        assert face["id"] == face["name"][0]
        assert face["description"].startswith(face["name"] + ": ")
        assert face["description"] == describe(face)
    sample = {"id": "A", "name": "Ava", "features": ["red_hair", "glasses", "hat"], "look": {}}
    assert describe(sample) == "Ava: red hair, glasses, a hat"
    assert describe({**sample, "features": ["glasses"]}) == "Ava: brown hair, glasses"
    assert describe(sample, translate=str.upper) == "Ava: RED HAIR, GLASSES, A HAT"


def test_svg_face_is_accessible_well_formed_and_pure():
    board = generate_board(core.Rng("art"))
    svgs = [face_svg(face) for face in board]
    assert len(set(svgs)) == BOARD_SIZE
    for face, svg in zip(board, svgs, strict=True):
        root = ET.fromstring(svg)
        assert root.get("role") == "img"
        title = root.find("{http://www.w3.org/2000/svg}title")
        assert title is not None and title.text == face["description"]
        assert face_svg(face) == svg
    tricky = {**board[0], "description": "Zoë <b> & co"}
    assert "Zoë &lt;b&gt; &amp; co" in face_svg(tricky)


def test_each_feature_changes_the_drawing():
    base = {"id": "A", "name": "Ava", "features": [], "look": {}, "description": "Ava"}
    plain = face_svg(base)
    for key in FEATURE_KEYS:
        assert face_svg({**base, "features": [key]}) != plain, key


# ==================================================================================================
# Turns and questions
# ==================================================================================================


def test_turns_alternate():
    state = h.new_game()
    first = state["turn"]
    state, _ = h.ask(state, first, "glasses")
    assert state["turn"] == h.other(first)
    state, _ = h.ask(state, h.other(first), "hat")
    assert state["turn"] == first


def test_only_the_player_on_turn_may_ask_or_name():
    state = h.new_game()
    waiting = h.other(state["turn"])
    with pytest.raises(IllegalAction) as refused:
        h.ask(state, waiting, "glasses")
    assert refused.value.code == "not_your_turn"
    with pytest.raises(IllegalAction):
        h.name(state, waiting, state["left"][waiting][0])


def test_answer_comes_from_the_other_players_face_and_greys_the_ruled_out_faces():
    state = h.new_game()
    asker = state["turn"]
    wanted = h.face(state, h.target(state, asker))
    after, events = h.ask(state, asker, "glasses")
    answer = "glasses" in wanted["features"]
    assert events[0]["answer"] is answer
    kept = {f["id"] for f in state["rounds"][0]["board"] if ("glasses" in f["features"]) == answer}
    assert set(after["left"][asker]) == kept
    assert wanted["id"] in after["left"][asker]
    view = GAME.view(after, {"role": "player", "player": asker})
    assert set(view["your_board"]["greyed"]) == {f["id"] for f in state["rounds"][0]["board"]} - kept
    assert after["left"][h.other(asker)] == state["left"][h.other(asker)]


def test_both_players_see_the_answer():
    state = h.new_game()
    asker = state["turn"]
    after, events = h.ask(state, asker, "hat")
    theirs = GAME.view(after, {"role": "player", "player": h.other(asker)})
    mine = GAME.view(after, {"role": "player", "player": asker})
    assert theirs["asked"]["them"][-1]["answer"] is events[0]["answer"]
    assert mine["asked"]["you"][-1]["answer"] is events[0]["answer"]
    assert theirs["log"][-1] == mine["log"][-1]


def test_question_already_asked_this_round_is_refused_before_the_turn_is_spent():
    state = h.new_game()
    asker = state["turn"]
    state, _ = h.ask(state, asker, "glasses")
    state, _ = h.ask(state, h.other(asker), "hat")
    before = core.state_hash(state)
    with pytest.raises(IllegalAction) as refused:
        h.ask(state, asker, "glasses")
    assert refused.value.code == "already_asked"
    assert "already asked" in refused.value.message
    assert core.state_hash(state) == before and state["turn"] == asker
    # the other player may still ask it: the rule is per player
    state, _ = h.ask(state, asker, "beard")
    state, _ = h.ask(state, h.other(asker), "glasses")


def test_question_every_face_left_answers_alike_is_refused_with_the_reason():
    def target_has_colour(state):
        return colour_of(h.face(state, h.target(state, state["turn"]))) is not None

    state = seed_where(target_has_colour)
    asker = state["turn"]
    colour = colour_of(h.face(state, h.target(state, asker)))
    state, events = h.ask(state, asker, colour)
    assert events[0]["answer"] is True
    state, _ = h.ask(state, h.other(asker), "glasses")
    another = next(key for key in HAIR_COLOURS if key != colour)
    before = core.state_hash(state)
    with pytest.raises(IllegalAction) as refused:
        h.ask(state, asker, another)
    assert refused.value.code == "no_split"
    assert "same answer" in refused.value.message
    assert refused.value.params["question"] == another
    assert core.state_hash(state) == before and state["turn"] == asker
    pad = {row["id"]: row for row in GAME.view(state, {"role": "player", "player": asker})["pad"]}
    assert pad[another]["allowed"] is False and pad[another]["refusal"] == "no_split"
    assert pad[colour]["refusal"] == "already_asked"
    assert another not in [a.get("question") for a in GAME.legal_actions(state, asker)]


def test_unknown_question_is_refused():
    state = h.new_game()
    with pytest.raises(IllegalAction) as refused:
        h.ask(state, state["turn"], "is it Ava")
    assert refused.value.code == "unknown_question"


def test_each_player_sees_the_other_players_board():
    state = h.new_game()
    asker = state["turn"]
    state, _ = h.ask(state, asker, "long_hair")
    view = GAME.view(state, {"role": "player", "player": h.other(asker)})
    assert view["their_board"]["left"] == sorted(state["left"][asker])
    assert view["their_board"]["left_count"] == len(state["left"][asker])
    assert view["your_board"]["left_count"] == BOARD_SIZE


def test_feedback_after_a_question_shows_kept_removed_and_how_close_to_the_best_split():
    state = h.new_game()
    asker = state["turn"]
    board = state["rounds"][0]["board"]
    counts = {key: sum(key in f["features"] for f in board) for key in FEATURE_KEYS}
    best = max(min(c, BOARD_SIZE - c) for c in counts.values())
    boldest = min(FEATURE_KEYS, key=lambda key: min(counts[key], BOARD_SIZE - counts[key]))
    state, events = h.ask(state, asker, boldest)
    feedback = GAME.view(state, {"role": "player", "player": asker})["feedback"]
    assert feedback["kept"] + feedback["removed"] == BOARD_SIZE
    assert feedback["best"] == best
    assert feedback["quality"] == round(min(counts[boldest], BOARD_SIZE - counts[boldest]) / best, 4)
    assert events[0]["quality"] == feedback["quality"] < 1
    # the other player does not get the asker's coaching
    other_view = GAME.view(state, {"role": "player", "player": h.other(asker)})
    assert other_view["feedback"] is None and "quality" not in other_view["asked"]["them"][0]


# ==================================================================================================
# Naming, rounds and the match
# ==================================================================================================


def test_naming_the_right_face_wins_the_round():
    state = h.new_game()
    asker = state["turn"]
    state, events = h.name(state, asker, h.target(state, asker))
    assert events[0]["type"] == "named" and events[0]["correct"] is True
    assert state["wins"][asker] == 1 and state["phase"] == "reveal"
    assert state["history"][0]["reason"] == "named_right"


def test_naming_a_wrong_face_loses_the_round_there_and_then():
    state = h.new_game()
    asker = state["turn"]
    state, events = h.name(state, asker, h.wrong_face(state, asker))
    assert events[0]["correct"] is False
    assert state["wins"] == {asker: 0, h.other(asker): 1}
    assert state["history"][0]["reason"] == "named_wrong"


def test_only_a_face_still_on_your_board_can_be_named():
    state = h.new_game()
    asker = state["turn"]
    state, _ = h.ask(state, asker, "glasses")
    state, _ = h.ask(state, h.other(asker), "glasses")
    greyed = next(f["id"] for f in state["rounds"][0]["board"] if f["id"] not in state["left"][asker])
    for face_id in (greyed, "?", "AB", 3):
        with pytest.raises(IllegalAction) as refused:
            h.name(state, asker, face_id)
        assert refused.value.code == "not_on_board"


def test_both_faces_are_shown_at_the_end_of_every_round():
    state = h.new_game()
    secrets = dict(state["rounds"][0]["secret"])
    state, events = h.win_round(state, P1)
    round_over = next(e for e in events if e["type"] == "round_over")
    assert round_over["faces"] == secrets
    for pid in (P1, P2):
        record = GAME.view(state, {"role": "player", "player": pid})["rounds"][0]
        assert {p: f["id"] for p, f in record["faces"].items()} == secrets
        assert record["faces"][P1]["description"]
    assert GAME.view(state, {"role": "teacher"})["rounds"][0]["faces"][P2]["id"] == secrets[P2]


def test_loser_of_a_round_asks_first_in_the_next():
    for winner in (P1, P2):
        state = h.new_game()
        state, _ = h.win_round(state, winner)
        state = h.skip_review(state)
        assert state["round"] == 1 and state["phase"] == "ask"
        assert state["turn"] == h.other(winner)


def test_new_faces_and_a_new_board_each_round_same_board_for_both_players():
    state = h.new_game()
    first_board = state["rounds"][0]["board"]
    state, _ = h.win_round(state, P1)
    state = h.skip_review(state)
    views = [GAME.view(state, {"role": "player", "player": pid}) for pid in (P1, P2)]
    assert views[0]["board"] == views[1]["board"]
    assert [f["id"] for f in views[0]["board"]] == [f["id"] for f in state["rounds"][1]["board"]]
    assert state["rounds"][1]["board"] != first_board
    assert views[0]["your_board"]["left_count"] == BOARD_SIZE
    assert all(not entries for entries in state["asked"].values())


def test_first_to_two_rounds_wins_the_match_and_the_seed_is_published():
    state = h.new_game()
    state, _ = h.win_round(state, P1)
    view = GAME.view(state, {"role": "player", "player": P1})
    assert "seed" not in view["verification"] and "salt" not in view["verification"]
    state = h.skip_review(state)
    state, _ = h.win_round(state, P2)
    state = h.skip_review(state)
    state, events = h.win_round(state, P1)
    assert GAME.is_over(state)
    assert GAME.outcome(state) == {"winners": [P1], "scores": {P1: 2, P2: 1}, "reason": "rounds"}
    assert GAME.current_players(state) == [] and state["clock"]["deadline"] is None
    match_over = events[-1]
    assert match_over["type"] == "match_over" and match_over["seed"] == h.SEED
    for viewer in ({"role": "player", "player": P2}, {"role": "teacher"}):
        verification = GAME.view(state, viewer)["verification"]
        assert verification == {"commitment": state["commitment"], "seed": h.SEED, "salt": state["salt"]}
    with pytest.raises(IllegalAction) as refused:
        h.ask(state, P1, "hat")
    assert refused.value.code == "game_over"


def test_a_match_can_be_won_two_nil():
    state = h.new_game()
    state, _ = h.win_round(state, P2)
    state = h.skip_review(state)
    state, _ = h.win_round(state, P2)
    assert GAME.outcome(state)["winners"] == [P2] and len(state["history"]) == 2


def test_review_between_rounds_ends_when_both_are_ready():
    state = h.new_game()
    state, _ = h.win_round(state, P1)
    assert set(GAME.current_players(state)) == {P1, P2}
    assert state["clock"]["deadline"] == 1.0 + GAME.default_config["review_seconds"]
    state, _ = GAME.apply(state, P1, {"type": "ready"}, 2.0)
    assert GAME.current_players(state) == [P2] and state["phase"] == "reveal"
    with pytest.raises(IllegalAction):
        GAME.apply(state, P1, {"type": "ready"}, 2.0)
    state, events = GAME.apply(state, P2, {"type": "ready"}, 3.0)
    assert state["phase"] == "ask" and state["round"] == 1
    assert events[-1]["type"] == "round_started"
    with pytest.raises(IllegalAction):
        GAME.apply(state, P1, {"type": "ready"}, 4.0)


def test_no_moves_during_the_review():
    state = h.new_game()
    state, _ = h.win_round(state, P1)
    with pytest.raises(IllegalAction) as refused:
        h.ask(state, P2, "hat", now=2.0)
    assert refused.value.code == "wrong_phase"


@pytest.mark.parametrize("when", ["own_turn", "other_turn", "review"])
def test_resigning_loses_the_match(when):
    state = h.new_game()
    resigner = state["turn"] if when == "own_turn" else h.other(state["turn"])
    if when == "review":
        state, _ = h.win_round(state, h.other(resigner))
    secrets = dict(state["rounds"][state["round"]]["secret"])
    state, events = GAME.apply(state, resigner, {"type": "resign"}, 5.0)
    assert GAME.outcome(state)["winners"] == [h.other(resigner)]
    assert GAME.outcome(state)["reason"] == "resigned"
    assert [e["type"] for e in events] == ["resigned", "match_over"]
    unfinished = GAME.view(state, {"role": "player", "player": resigner})["unfinished_round_faces"]
    if when == "review":
        assert unfinished is None
    else:
        assert {p: f["id"] for p, f in unfinished.items()} == secrets


# ==================================================================================================
# The time limit
# ==================================================================================================


def test_turn_clock_starts_with_each_turn():
    state = h.new_game(now=100.0, turn_seconds=30)
    assert state["clock"]["deadline"] == 130.0
    state, _ = h.ask(state, state["turn"], "hat", now=110.0)
    assert state["clock"]["deadline"] == 140.0


def test_running_out_of_time_passes_the_turn_by_default():
    """One missed turn (a slow student, a tablet that slept, a dropped connection) is a lost turn, not a
    lost match: the turn goes to the other player with a fresh clock, and the match goes on."""
    state = h.new_game()
    assert state["settings"]["timeout"] == "pass"
    slow = state["turn"]
    state, events = GAME.on_deadline(state, 60.0)
    assert events[0] == {**events[0], "type": "timeout", "player": slow, "rule": "pass"}
    assert state["turn"] == h.other(slow) and state["phase"] == "ask" and not GAME.is_over(state)
    # Missing every turn for a long time (a student who went away) never ends the match by itself.
    for n in range(2, 40):
        state, _ = GAME.on_deadline(state, 60.0 * n)
    assert not GAME.is_over(state) and state["wins"] == {P1: 0, P2: 0}


def test_the_stricter_rule_loses_the_match_and_the_score_says_who_won():
    state = h.new_game(timeout="lose_match")
    slow = state["turn"]
    state, events = GAME.on_deadline(state, 60.0)
    winner = h.other(slow)
    # The winner gets the rounds they still needed (a walkover): never "won by Ava" beside 0-0.
    assert GAME.outcome(state) == {"winners": [winner], "scores": {winner: 2, slow: 0}, "reason": "timeout"}
    assert state["wins"] == {P1: 0, P2: 0}  # rounds actually played and won stay as they were
    assert events[0] == {**events[0], "type": "timeout", "player": slow, "rule": "lose_match"}
    over = events[-1]
    assert over["type"] == "match_over" and over["scores"] == {winner: 2, slow: 0} and over["conceded"] == 2


def test_a_resignation_gives_the_winner_the_rounds_still_needed():
    state = h.new_game()
    first = state["turn"]
    state, _ = h.name(
        state, first, state["rounds"][0]["secret"][h.other(first)], now=5.0
    )  # first wins round 1
    state = h.skip_review(state, now=30.0)
    state, _ = GAME.apply(state, first, {"type": "resign"}, 31.0)
    winner = h.other(first)
    outcome = GAME.outcome(state)
    assert outcome["winners"] == [winner] and outcome["reason"] == "resigned"
    assert outcome["scores"] == {winner: 2, first: 1}
    assert max(outcome["scores"], key=outcome["scores"].get) == winner
    for role in ({"role": "projector"}, {"role": "teacher"}, {"role": "player", "player": first}):
        assert GAME.view(state, role)["result"]["scores"] == {winner: 2, first: 1}


def test_a_match_won_on_rounds_keeps_its_score():
    state = h.new_game()
    for at in (5.0, 50.0):
        state, _ = h.win_round(state, P1, now=at)
        if state["phase"] == "reveal":
            state = h.skip_review(state, now=at + 20)
    outcome = GAME.outcome(state)
    assert outcome["reason"] == "rounds"
    assert outcome["scores"][outcome["winners"][0]] == 2
    assert sorted(outcome["scores"].values()) == sorted(state["wins"].values())


def test_a_match_ended_early_by_the_teacher_stands_at_its_rounds_won():
    state = h.new_game()
    first = state["turn"]
    state, _ = h.name(state, first, state["rounds"][0]["secret"][h.other(first)], now=5.0)
    assert GAME.outcome(state) is None
    ended = {"winners": [], "scores": {first: 1, h.other(first): 0}, "reason": "ended"}
    assert GAME.outcome_when_ended(state) == ended


def test_running_out_of_time_can_lose_only_the_round():
    state = h.new_game(timeout="lose_round")
    slow = state["turn"]
    state, _ = GAME.on_deadline(state, 60.0)
    assert state["wins"][h.other(slow)] == 1 and state["phase"] == "reveal"
    assert state["history"][0]["reason"] == "timeout"
    state = h.skip_review(state, now=80.0)
    assert state["turn"] == slow  # the loser of the round asks first


def test_running_out_of_time_can_just_pass_the_turn():
    state = h.new_game(timeout="pass")
    slow = state["turn"]
    state, _ = GAME.on_deadline(state, 60.0)
    assert state["turn"] == h.other(slow) and state["clock"]["deadline"] == 120.0
    assert not GAME.is_over(state)


def test_a_move_after_the_deadline_is_refused():
    state = h.new_game()
    with pytest.raises(IllegalAction) as refused:
        h.ask(state, state["turn"], "hat", now=61.0)
    assert refused.value.code == "too_late"


def test_no_time_limit_when_turn_seconds_is_none():
    state = h.new_game(turn_seconds=None)
    assert state["clock"]["deadline"] is None
    state, _ = h.ask(state, state["turn"], "hat", now=10_000.0)


def test_paused_clock_is_respected():
    state = h.new_game()
    core.clock_pause(state, 30.0)
    state, _ = h.ask(state, state["turn"], "hat", now=500.0)  # paused: no deadline to miss
    assert state["clock"]["paused"] and state["clock"]["remaining"] == 60.0


# ==================================================================================================
# Malformed actions
# ==================================================================================================


@pytest.mark.parametrize(
    "action",
    [
        None,
        5,
        "ask",
        [],
        {},
        {"type": 5},
        {"type": None},
        {"type": "fly"},
        {"type": "ask"},
        {"type": "ask", "question": None},
        {"type": "ask", "question": ["hat"]},
        {"type": "ask", "question": "x" * 10**5},
        {"type": "ask", "question": "hat", "extra": 1},
        {"type": "name", "face": {"id": "A"}},
        {"type": "resign", "why": "bored"},
        {"type": "ready"},
    ],
)
def test_malformed_actions_are_refused_and_change_nothing(action):
    state = h.new_game()
    before = core.state_hash(state)
    with pytest.raises(IllegalAction):
        GAME.apply(state, state["turn"], action, 1.0)
    assert core.state_hash(state) == before


@pytest.mark.parametrize("player", ["p3", "", None, 7, "@teacher"])
def test_strangers_cannot_act(player):
    state = h.new_game()
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, player, {"type": "resign"}, 1.0)
    assert refused.value.code == "not_a_player"
    assert GAME.legal_actions(state, player) == []


# ==================================================================================================
# Views
# ==================================================================================================


def test_player_sees_own_face_board_and_pad_but_not_the_other_face():
    state = h.new_game()
    view = GAME.view(state, {"role": "player", "player": P1})
    assert view["your_face"]["id"] == h.given_face(state, P1)
    assert len(view["board"]) == BOARD_SIZE and len(view["pad"]) == 20
    assert view["verification"] == {"commitment": state["commitment"]}
    assert "secret" not in json.dumps(view)
    assert json.loads(json.dumps(view)) == view


def test_projector_shows_a_class_table_line_never_a_face():
    state = h.new_game()
    state, _ = h.win_round(state, P1)
    view = GAME.view(state, {"role": "projector"})
    assert view["wins"] == {P1: 1, P2: 0}
    assert view["rounds"] == [{"round": 1, "winner": P1, "reason": state["history"][0]["reason"]}]
    text = json.dumps(view)
    for face in state["rounds"][0]["board"]:
        assert face["description"] not in text
    assert '"faces":' not in text and '"board"' not in text and '"your_face"' not in text
    assert GAME.view(state, {"role": "spectator"}) == view == GAME.view(state, {"role": "nobody"})


def test_teacher_sees_faces_left_and_rounds_won():
    state = h.new_game()
    asker = state["turn"]
    state, _ = h.ask(state, asker, "glasses")
    view = GAME.view(state, {"role": "teacher"})
    assert view["faces_left"] == {asker: len(state["left"][asker]), h.other(asker): BOARD_SIZE}
    assert view["wins"] == {P1: 0, P2: 0}
    assert view["asked"][asker][0]["question"] == "glasses"
    assert "board" not in view and "your_face" not in view


def test_every_view_has_clock_phase_turn_and_log():
    state = h.new_game()
    for viewer in h.viewers(state).values():
        view = GAME.view(state, viewer)
        assert {"clock", "phase", "turn", "log"} <= set(view)


# ==================================================================================================
# Learning facts
# ==================================================================================================


def test_facts_for_questions_names_rounds_and_matches():
    state = h.new_game(now=0.0)
    asker = state["turn"]
    events = []
    state, new = h.ask(state, asker, "glasses", now=7.0)
    events += new
    state, new = h.name(state, h.other(asker), h.target(state, h.other(asker)), now=10.0)
    events += new
    facts = GAME.facts(events)
    by_category = {}
    for fact in facts:
        by_category.setdefault(fact["category"], []).append(fact)
        assert fact["game"] == "faces" and fact["skill"] == "reasoning"
        for key in ("player", "level", "correct", "score", "time_taken", "item_id", "response", "detail"):
            assert key in fact
    question = by_category["question"][0]
    assert question["player"] == asker and question["item_id"] == "glasses"
    assert question["time_taken"] == 7.0 and question["score"] == events[0]["quality"]
    assert question["correct"] is None and question["score"] == events[0]["quality"]
    name_fact = by_category["name"][0]
    assert name_fact["correct"] is True and name_fact["time_taken"] == 3.0
    # The face named is told by its name and description, not only its letter (a different face on
    # every board).
    face = next(f for f in current_round(state)["board"] if f["id"] == name_fact["response"]["face"])
    assert name_fact["detail"]["face_name"] == face["name"]
    assert name_fact["detail"]["description"] == face["description"]
    assert name_fact["item_id"].startswith(face["id"] + ":") and len(name_fact["item_id"]) <= 64
    rounds = {f["player"]: f["correct"] for f in by_category["round"]}
    assert rounds == {h.other(asker): True, asker: False}
    assert "match" not in by_category


def test_match_facts_and_no_facts_for_bots():
    state = h.new_game(bot2="easy")
    events = []
    for _ in range(2):
        state, new = h.win_round(state, P1)
        events += new
        if not GAME.is_over(state):
            state = h.skip_review(state)
    facts = GAME.facts(events)
    assert facts and all(f["player"] == P1 for f in facts)
    match = [f for f in facts if f["category"] == "match"]
    assert match[0]["correct"] is True and match[0]["score"] == 2 and match[0]["detail"]["against_bot"]
