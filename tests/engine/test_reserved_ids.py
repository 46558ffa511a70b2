"""The teacher acts at every table under a reserved id (core.TEACHER): no engine seats a player under it,
at setup or as a latecomer, or a student could act with the teacher's powers (hold a reveal, accept an
answer, hide a drawing)."""

import pytest

from games.content import default_config
from games.definitions import DEFINITIONS, get_engine
from games.engine import core

SEATS = {"lineup": 4, "wordup": 2, "faces": 2, "lineit": 2, "mindlines": 3}


@pytest.mark.parametrize("game", sorted(DEFINITIONS))
def test_no_engine_seats_a_player_under_the_teachers_id(game):
    players = [{"id": f"s{n}", "name": f"Student {n}"} for n in range(1, SEATS[game] + 1)]
    players[0]["id"] = core.TEACHER
    config = default_config(game, players=players, seed_rng=core.Rng("a-seed-for-the-deck"))
    with pytest.raises(ValueError):
        get_engine(game).setup(config, "a-seed")


def test_line_up_seats_no_latecomer_under_the_teachers_id():
    engine = get_engine("lineup")
    players = [{"id": f"s{n}", "name": f"Student {n}"} for n in range(1, 5)]
    state = engine.setup(default_config("lineup", players=players, seed_rng=core.Rng("deck")), "a-seed")
    with pytest.raises(core.IllegalAction):
        engine.join(state, {"id": core.TEACHER, "name": "Sneaky"}, 5.0)
