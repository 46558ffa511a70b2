"""Line-Up (faces): the two boards a teacher chooses between (people, monsters). Both follow the same
generation rules, the board is a setting recorded in the config (so replay and verification draw the same
faces), the pad, the views, the bots and the drawing follow the board in play."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import core
from games.engine.core import IllegalAction
from games.engine.faces import verify
from games.engine.faces.art import face_svg
from games.engine.faces.features import (
    DEFAULT_BOARD,
    PADS,
    PEOPLE,
    board_problems,
    describe,
    generate_board,
    split,
)
from games.engine.faces.monsters import MONSTERS
from games.engine.faces.pad import BOARD_SIZE, MAX_ON_BOARD, MIN_ON_BOARD
from tests.loading import engine_module

h = engine_module("test_faces_helpers")
GAME, P1, P2 = h.GAME, h.P1, h.P2
KINDS = tuple(PADS)


def test_a_teacher_chooses_between_people_and_monsters_people_first():
    assert KINDS == ("people", "monsters") and DEFAULT_BOARD == "people"


@pytest.mark.parametrize("kind", KINDS)
def test_each_pad_has_twenty_distinct_yes_no_questions(kind):
    pad = PADS[kind]
    assert len(pad.features) == 20 and len(set(pad.keys)) == 20
    for feature in pad.features:
        assert feature.question.endswith("?") and feature.label and feature.phrase
    # Describing faces in class is never about skin tone or gender
    for word in ("skin", "boy", "girl", "man", "woman", "gender"):
        assert not any(word in key.split("_") for key in pad.keys)


def test_the_two_pads_share_no_question():
    assert not set(PEOPLE.keys) & set(MONSTERS.keys)


@settings(max_examples=150, deadline=None)
@given(seed=st.text(max_size=20), kind=st.sampled_from(KINDS))
def test_every_board_of_either_kind_follows_the_generation_rules(seed, kind):
    board = generate_board(core.Rng(seed), kind)
    assert board_problems(board, kind) == []
    assert [face["id"] for face in board] == sorted(face["id"] for face in board)
    for key in PADS[kind].keys:  # useful sizes: every question rules somebody out
        assert MIN_ON_BOARD <= len(split(board, key)[0]) <= MAX_ON_BOARD
    for face in board:  # at most one of each category (one colour, one number of eyes, one pattern)
        for category in PADS[kind].categories:
            assert len(set(face["features"]) & set(category.keys)) <= 1


@pytest.mark.parametrize("kind", KINDS)
def test_over_a_thousand_boards_every_question_stays_within_5_to_19_faces(kind):
    """The pad review (bench/faces_pad.py prints the same measurement as a table for the docs)."""
    lowest = dict.fromkeys(PADS[kind].keys, BOARD_SIZE)
    highest = dict.fromkeys(PADS[kind].keys, 0)
    for number in range(1000):
        board = generate_board(core.Rng(f"pad:{number}"), kind)
        for key in lowest:
            count = len(split(board, key)[0])
            lowest[key], highest[key] = min(lowest[key], count), max(highest[key], count)
    assert min(lowest.values()) >= 5 and max(highest.values()) <= 19, (lowest, highest)


def test_board_problems_notices_a_monster_board_broken_or_mixed():
    board = generate_board(core.Rng("broken"), "monsters")
    assert board_problems(board) == []
    two_colours = [dict(face) for face in board]
    two_colours[0] = {**two_colours[0], "features": ["green_body", "blue_body"]}
    assert any("two of" in problem for problem in board_problems(two_colours))
    people_question = [{**board[0], "features": ["glasses"]}, *board[1:]]
    assert "a face has a feature that is not on the pad" in board_problems(people_question)
    assert board_problems(board, "people")  # monsters are not a people board


def test_a_monster_is_described_in_pad_order_with_its_defaults():
    monster = {"id": "B", "name": "Blip", "kind": "monster", "features": ["spots", "horns", "wings"]}
    assert describe(monster) == "Blip: yellow body, two eyes, spots, horns, wings"
    coloured = {**monster, "features": ["purple_body", "one_eye", "flower"]}
    assert describe(coloured) == "Blip: purple body, one eye, a flower"
    person = {"id": "A", "name": "Ava", "features": ["glasses"], "look": {}}
    assert describe(person) == "Ava: brown hair, glasses"


def test_names_start_with_the_face_letter_so_the_keyboard_names_monsters_too():
    for face in generate_board(core.Rng("letters"), "monsters"):
        assert face["name"][0] == face["id"] and face["kind"] == "monster"


# ----------------------------------------------------------------------------------------------
# The setting, the state and replay
# ----------------------------------------------------------------------------------------------


def test_the_board_setting_draws_every_round_from_its_kind():
    state = h.new_game(board="monsters")
    assert state["settings"]["board"] == "monsters"
    for round_ in state["rounds"]:
        assert all(face.get("kind") == "monster" for face in round_["board"])
        assert board_problems(round_["board"], "monsters") == []


def test_a_config_without_a_board_is_the_people_board_exactly_as_before():
    """Matches recorded before the setting replay to the same state: no board key is added."""
    state = h.new_game()
    assert "board" not in state["settings"]
    assert all("kind" not in face for face in state["rounds"][0]["board"])
    assert core.state_hash(h.new_game(board="people")["rounds"]) == core.state_hash(state["rounds"])


def test_an_unknown_board_is_refused():
    with pytest.raises(ValueError, match="board must be one of people, monsters"):
        h.new_game(board="robots")
    with pytest.raises(ValueError):
        h.new_game(board=None)


def test_the_same_seed_gives_different_faces_on_the_two_boards():
    people = h.new_game()["rounds"][0]["board"]
    monsters = h.new_game(board="monsters")["rounds"][0]["board"]
    assert {face["name"] for face in people}.isdisjoint({face["name"] for face in monsters})


def test_a_people_question_is_not_on_the_monster_pad():
    state = h.new_game(board="monsters")
    with pytest.raises(IllegalAction) as refusal:
        h.ask(state, state["turn"], "glasses")
    assert refusal.value.code == "unknown_question"
    asker = state["turn"]
    key = next(k for k in MONSTERS.keys if 0 < len(split(state["rounds"][0]["board"], k)[0]) < BOARD_SIZE)
    new, events = h.ask(state, asker, key)
    assert events[0]["question"] == key and len(new["left"][asker]) < BOARD_SIZE


def test_the_player_view_shows_the_monster_pad_and_board():
    state = h.new_game(board="monsters")
    view = GAME.view(state, {"role": "player", "player": P1})
    assert view["board_kind"] == "monsters"
    assert [item["id"] for item in view["pad"]] == list(MONSTERS.keys)
    assert all(face["kind"] == "monster" for face in view["board"]) and view["your_face"]["kind"] == "monster"
    assert GAME.view(h.new_game(), {"role": "player", "player": P1})["board_kind"] == "people"


@pytest.mark.parametrize("bots", [("easy", "hard"), ("medium", "medium"), ("hard", "easy")])
def test_bots_play_whole_matches_on_the_monster_board(bots):
    cfg = h.config(*bots, board="monsters")
    state, log = h.play_logged(cfg, f"monster-bots-{bots}")
    asked = [e["question"] for entry in log for e in entry.get("events", []) if e["type"] == "asked"]
    assert asked and set(asked) <= set(MONSTERS.keys)
    assert GAME.outcome(state)["winners"]
    replayed = core.replay(
        GAME, cfg, f"monster-bots-{bots}", [{k: v for k, v in e.items() if k != "events"} for e in log]
    )
    assert core.state_hash(replayed) == core.state_hash(state)


def test_a_monster_match_verifies_and_a_changed_answer_is_caught():
    cfg = h.config("hard", "medium", board="monsters")
    seed = "monster-verify"
    state, log = h.play_logged(cfg, seed)
    report = verify(cfg, seed, state["salt"], state["commitment"], log)
    assert report["ok"] and report["winner"] == GAME.outcome(state)["winners"][0]
    tampered = copy.deepcopy(log)
    index = next(
        i for i, entry in enumerate(tampered) if any(e["type"] == "asked" for e in entry.get("events", []))
    )
    event = next(e for e in tampered[index]["events"] if e["type"] == "asked")
    event["answer"] = not event["answer"]
    assert not verify(cfg, seed, state["salt"], state["commitment"], tampered)["ok"]
    # the same log checked as a people match does not verify: the board is part of what is checked
    people = {key: value for key, value in cfg.items() if key != "board"}
    assert not verify(people, seed, state["salt"], state["commitment"], log)["ok"]


# ----------------------------------------------------------------------------------------------
# Drawing
# ----------------------------------------------------------------------------------------------


def test_every_monster_question_changes_the_drawing():
    base = {"id": "A", "name": "Abbo", "kind": "monster", "features": [], "look": {}, "description": "Abbo"}
    plain = face_svg(base)
    drawings = {key: face_svg({**base, "features": [key]}) for key in MONSTERS.keys}
    for key, svg in drawings.items():
        assert svg != plain, key
    assert len(set(drawings.values())) == len(drawings)


def test_a_monster_drawing_is_an_accessible_svg_with_its_description():
    board = generate_board(core.Rng("monster-art"), "monsters")
    for face in board:
        svg = face_svg(face)
        assert svg.startswith("<svg") and 'role="img"' in svg and f">{face['description']}</title>" in svg
    assert "&lt;b&gt;" in face_svg({**board[0], "description": "<b>"})
