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


@pytest.mark.parametrize("game", GAMES)
def test_a_views_parts_make_up_the_view_and_share_only_what_every_viewer_of_a_key_sees(game):
    players = 6 if game in ("lineup", "mindlines", "wordup") else 2
    engine = build(game, seed=5, players=players)[0]
    for index, (state, ids) in enumerate(bot_game_states(game, players, seed=5, steps=300)):
        if index % 5:
            continue
        viewers = [{"role": "teacher"}, {"role": "projector"}, {"role": "spectator"}]
        viewers += [{"role": "player", "player": p} for p in ids]
        commons = {}
        for viewer, (key, common, own) in zip(viewers, engine.view_parts(state, viewers), strict=True):
            assert not common.keys() & own.keys(), (game, index, viewer)
            assert {**common, **own} == engine.view(state, viewer), (game, index, viewer)
            if key is None:
                assert common == {}
            else:  # one object for every viewer of the key: serialised once
                assert commons.setdefault(key, common) is common


def test_a_line_up_class_shares_one_common_part_and_staff_screens_have_their_own():
    engine, _config, _seed = build("lineup", seed=2, players=8)
    state, ids = next(bot_game_states("lineup", 8, seed=2, steps=1))
    viewers = [{"role": "player", "player": p} for p in ids] + [{"role": "teacher"}, {"role": "projector"}]
    parts = list(engine.view_parts(state, viewers))
    assert {key for key, _common, _own in parts[: len(ids)]} == {"player"}
    assert len({id(common) for _key, common, _own in parts[: len(ids)]}) == 1
    assert all(key is None for key, _common, _own in parts[len(ids) :])
    # each student's own part: who they are, their team's rack with their own ordering, the names
    assert {frozenset(own) for _key, _common, own in parts[: len(ids)]} == {
        frozenset({"you", "my_team", "names"})
    }


@pytest.mark.parametrize(("game", "players"), [("mindlines", 6), ("faces", 2), ("lineit", 4), ("wordup", 4)])
def test_the_players_of_a_table_share_one_common_part_serialised_once(game, players):
    """Most of a Mind the Lines view (the drawings shown, the history) is everyone's, most of a Line-Up
    player's (the board's faces) both players', a Line-it table's market, lines and jackpots and a Word
    Up table's board, tokens and log everyone's: built and serialised once a table."""
    engine, _config, _seed = build(game, seed=4, players=players)
    for index, (state, ids) in enumerate(bot_game_states(game, players, seed=4, steps=120)):
        if index % 10:
            continue
        viewers = [{"role": "player", "player": p} for p in ids]
        parts = list(engine.view_parts(state, viewers))
        assert len({id(common) for _key, common, _own in parts}) == 1, (game, index)
        own_keys = {frozenset(own) for _key, _common, own in parts}
        if game == "mindlines":
            assert own_keys == {frozenset({"viewer", "me"})}
        elif game == "lineit":
            assert own_keys == {frozenset({"role", "log", "you"})}
        elif game == "wordup":
            assert own_keys == {frozenset({"viewer", "you", "actions"})}
        else:
            assert own_keys == {
                frozenset({"you", "opponent", "your_turn", "your_face", "your_board", "their_board"})
                | {"pad", "asked", "feedback"}
            }
