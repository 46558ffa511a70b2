"""The fan-out's messages: the views of one state are built together (``Engine.views`` shares what they
have in common), and every device still gets exactly its own view, byte for byte what building and
encoding its view alone gives."""

import itertools
from types import SimpleNamespace

import msgspec
import pytest

from games import selectors
from games.engine import core
from games.management.commands.simulate import build
from games.realtime import fanout

GAMES = ["lineup", "wordup", "faces", "lineit", "mindlines"]


def bot_game_states(game: str, players: int, seed: int, steps: int = 400):
    """The first ``steps`` states of a bot game (as ``manage.py simulate`` plays it), with its players."""
    engine, config, seed_text = build(game, seed=seed, players=players)
    ids = [player["id"] for player in config["players"]]
    for state, _entry, _events in itertools.islice(core.bot_moves(engine, config, seed_text), steps):
        yield state, ids


def alone(table, viewer) -> bytes:
    return msgspec.json.encode({"type": "table", **selectors.table_view(table, viewer)})


@pytest.mark.parametrize("game", GAMES)
def test_every_viewer_gets_exactly_its_own_view(game):
    players = 6 if game in ("lineup", "mindlines", "wordup") else 2
    checked = 0
    for index, (state, ids) in enumerate(bot_game_states(game, players, seed=3)):
        if index % 3:  # every third state: every phase, and a quick test
            continue
        table = SimpleNamespace(pk=7, number=1, seq=index, status="playing", state=state)
        table.session = SimpleNamespace(game=game)
        viewers = {("teacher",): {"role": "teacher"}, ("projector",): {"role": "projector"}}
        viewers |= {(p,): {"role": "player", "player": p} for p in ids}
        bodies = fanout._table_bodies(table, viewers)
        for key, viewer in viewers.items():
            assert (bodies[key] + "}").encode() == alone(table, viewer), (game, index, key)
        checked += 1
    assert checked >= 5, checked
