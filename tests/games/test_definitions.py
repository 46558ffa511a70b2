"""One game, one place: every game is listed once, in games.definitions, and the generic modules ask there."""

from __future__ import annotations

import re
from importlib import import_module
from pathlib import Path

import pytest
from django.urls import reverse

from games import content
from games.definitions import DEFINITIONS, definition, game_menu, get_engine, names
from games.engine.core import Game, Rng

ROOT = Path(__file__).resolve().parents[2]
GAME_NAME = re.compile(r"""["'](lineup|wordup|faces|lineit|mindlines)["']""")


def test_the_registry_lists_the_five_games_in_menu_order():
    assert names() == ("lineup", "wordup", "faces", "lineit", "mindlines")
    assert [label for _name, label in game_menu()] == [
        "Line Up! — ordering quiz",
        "Word Up — English board game",
        "Line-Up — Guess Who",
        "Line-it — number lines",
        "Mind the Lines — draw and guess",
    ]


@pytest.mark.parametrize("name", list(DEFINITIONS))
def test_each_definition_holds_its_engine_spec_and_pages(name, client):
    game = definition(name)
    engine = get_engine(name)
    assert isinstance(engine, Game) and engine.name == name == game.spec.name
    assert client.get(reverse("games:game_how_to_play", args=[name])).status_code == 200
    if game.pages:
        assert import_module(game.pages).urlpatterns  # mounted at /games/<name>/ by games.urls
    players = content.bot_players(name, engine.min_players)
    config = content.default_config(name, players=players, seed_rng=Rng("x"))
    engine.setup(config, "seed")  # the definition's content step gives a config its engine accepts


def test_an_unknown_game_names_the_known_ones():
    with pytest.raises(KeyError, match="known: lineup, wordup, faces, lineit, mindlines"):
        definition("chess")


def _generic_modules() -> list[Path]:
    games = ROOT / "games"
    modules = [
        *games.glob("*.py"),
        *(games / "management" / "commands").glob("*.py"),
        *(games / "realtime").glob("*.py"),
    ]
    # The shipped content lives in folders named after the games; the Guess Who checker is that game's own.
    own = {"shipped.py", "verify_faces.py"}
    return [path for path in modules if path.name not in own]


def test_no_generic_module_names_a_game():
    named = {
        str(path.relative_to(ROOT)): GAME_NAME.findall(path.read_text(encoding="utf-8"))
        for path in _generic_modules()
    }
    assert {path: found for path, found in named.items() if found} == {}
