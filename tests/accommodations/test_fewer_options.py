"""Fewer options: Word Up's multiple choice offers that student one wrong choice fewer, drawn from the
game's seeded generator; the choice left out is simply not there, in any view."""

from games.engine import core
from games.engine.wordup.board import MULTIPLE_CHOICE
from tests.loading import engine_module

S = engine_module("test_wordup_support")


def multiple_choice_questions(config: dict, seed: str) -> list[tuple[dict, dict]]:
    """Each multiple-choice question asked in a bot game, with the state it was asked in."""
    asked = []
    for state, _entry, events in core.bot_moves(S.GAME, config, seed):
        for event in events:
            if event.get("type") == "question" and event["category"] == MULTIPLE_CHOICE:
                asked.append((state, dict(state["question"])))
    return asked


def test_the_student_gets_two_choices_one_right_and_the_others_three():
    config = S.config(3, bots=[0.5, 0.5, 0.5], fewer_options=["p0"])
    asked = multiple_choice_questions(config, "fewer")
    counts = {(question["player"], len(question["choices"])) for _state, question in asked}
    assert ("p0", 2) in counts and ("p0", 3) not in counts
    assert {count for player, count in counts if player != "p0"} == {3}
    for state, question in asked:
        assert len(question["right"]) >= 1
        if question["player"] == "p0":
            dropped = set(question["data"]["choices"]) - set(question["choices"])
            for viewer in ({"role": "player", "player": "p0"}, {"role": "player", "player": "p1"}):
                view = S.GAME.view(state, viewer)
                assert not any(core.contains_value(view, choice) for choice in dropped)


def test_the_choice_left_out_replays_the_same():
    config = S.config(2, bots=[0.5, 0.5], fewer_options=["p1"])
    first = [q["choices"] for _s, q in multiple_choice_questions(config, "again")]
    second = [q["choices"] for _s, q in multiple_choice_questions(config, "again")]
    assert first == second and first
