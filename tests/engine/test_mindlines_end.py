"""Mind the Lines when the teacher ends the game before it is over: the standing at that moment.

Run: python3 -m pytest tests/engine/test_mindlines_end.py -q -p no:django
"""

from __future__ import annotations

from games.engine import core
from games.engine.mindlines import MindTheLines

GAME = MindTheLines()


def start(players: int) -> dict:
    deck = [
        {"id": f"mtl-{i:03d}", "text": f"Idea {i:03d}", "difficulty": "easy", "theme": "home"}
        for i in range(80)
    ]
    config = {
        "players": [{"id": f"kid{seat}", "name": f"Kid {seat}"} for seat in range(players)],
        "concepts": deck,
    }
    return GAME.setup(config, "seed-end", now=0.0)


def play_until(state, until, seed="end"):
    rng = core.Rng(seed)
    now = 1.0
    while not until(state):
        player = GAME.current_players(state)[0]
        state, _events = GAME.apply(state, player, GAME.bot_action(state, player, rng), now)
        now += 1
    return state


def test_before_any_reveal_nobody_has_recognised_anything_and_nobody_has_won():
    state = start(4)
    standing = GAME.outcome_when_ended(state)
    assert standing == {
        "errors": 0,
        "error_limit": 4,
        "rounds_played": 0,
        "scores": {f"kid{seat}": 0 for seat in range(4)},
        "winners": [],
        "ended_by_teacher": True,
    }
    assert GAME.outcome(state) is None  # the game itself is not over


def test_after_a_reveal_the_standing_counts_each_players_recognised_concepts():
    state = play_until(start(4), lambda s: s["phase"] == "reveal")
    state = play_until(state, lambda s: s["phase"] == "scribbling" and s["round"] == 1)
    (summary,) = state["history"]
    recognised = {f"kid{seat}": 0 for seat in range(4)}
    for card in summary["cards"]:
        if card["drawn_by"] and card["excluded_by"] is None:
            recognised[card["drawn_by"]] += 1
    standing = GAME.outcome_when_ended(state)
    assert standing["scores"] == recognised
    assert standing["errors"] == summary["total_errors"] == state["errors"]
    assert standing["rounds_played"] == 1 and standing["winners"] == []


def test_a_game_that_is_over_stands_as_its_result():
    state = play_until(start(2), lambda s: s["phase"] == "over")
    assert GAME.outcome_when_ended(state) == GAME.outcome(state) == state["result"]
    assert set(state["result"]) >= {"won", "errors", "error_limit", "rounds_played", "ended_early", "scores"}
