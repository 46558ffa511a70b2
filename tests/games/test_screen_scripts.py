"""Each game's screen scripts (its definition's ``screen_scripts``, docs/frontend.md): the files exist, a
game split onto the screen contract lists its pieces in load order, and the morph library they use is
served from node_modules/ by the static files."""

from __future__ import annotations

from django.contrib.staticfiles import finders
from django.template import Context, Template

from games.definitions import DEFINITIONS, definition


def test_every_screen_script_a_definition_lists_is_a_static_file():
    for game in DEFINITIONS.values():
        assert game.screen_scripts, game.name
        for script in game.screen_scripts:
            assert finders.find(script), f"{game.name}: {script}"


def test_a_split_game_loads_its_pieces_in_order_and_the_others_their_one_module():
    pieces = ("words", "board", "view", "input")
    assert definition("lineit").screen_scripts == tuple(f"js/games/lineit/{piece}.js" for piece in pieces)
    assert definition("wordup").screen_scripts == tuple(
        f"js/games/wordup/{piece}.js" for piece in ("words", "board", "view", "fit", "input")
    )


def test_the_pages_list_a_games_scripts_from_its_definition():
    template = Template("{% load game_screens %}{% for s in game|screen_scripts %}{{ s }} {% endfor %}")
    assert template.render(Context({"game": "lineit"})).split() == list(definition("lineit").screen_scripts)


def test_the_morph_library_is_a_static_file_from_node_modules():
    found = finders.find("vendor/idiomorph/idiomorph.js")
    assert found and "node_modules" in found
