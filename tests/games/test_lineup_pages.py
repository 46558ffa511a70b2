"""Line Up!'s own pages: how to play (in a student's words, with the rulebook's example), the teacher guide
and the one-screen rules, rendered from their templates; the example and the settings they quote hold."""

import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.test import RequestFactory

from games.catalog import spec_for
from games.engine.lineup import BOARDS, LineUp, right_count

pytestmark = pytest.mark.django_db

PAGES = {
    "how_to_play": "/games/lineup/how-to-play/",
    "guide": "/games/lineup/guide/",
    "rules": "/games/lineup/rules/",
}


def render(name: str) -> str:
    request = RequestFactory().get(PAGES[name])
    request.user = AnonymousUser()
    return render_to_string(f"games/lineup/{name}.html", request=request)


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize("name", PAGES)
def test_each_page_extends_the_site_and_loads_the_game_styles(name):
    html = render(name)
    assert "<main" in html and 'class="lu-doc' in html
    assert "/static/css/games/lineup.css" in html
    assert html.count("<h1") == 1


def test_how_to_play_shows_the_rulebooks_example_and_it_scores_three():
    text = text_of(render("how_to_play"))
    assert "2, 5, 3, 1, 4" in text and "2, 5, 1, 3, 4" in text and "3 right" in text
    assert right_count([2, 5, 1, 3, 4], [2, 5, 3, 1, 4]) == 3
    # The planets really sort that way (NASA equatorial diameters, km): Jupiter, Saturn, Neptune, Earth, Mars.
    cards = {1: 12_756, 2: 142_984, 3: 49_528, 4: 6_792, 5: 120_536}
    assert sorted(cards, key=cards.get, reverse=True) == [2, 5, 3, 1, 4]


def test_how_to_play_explains_every_space_the_team_rack_and_the_keys():
    text = text_of(render("how_to_play"))
    for words in ("Purple", "Orange", "Pink", "Star spaces", "The 5-space", "tie-break", "captain"):
        assert words in text, words
    for key in ("Tab", "Home", "End", "Enter", "Space", "Esc"):
        assert f"<kbd>{key}</kbd>" in render("how_to_play")
    assert "split" not in text  # Line-Up's tip, not ours
    assert "stop while you're ahead" in text and "Lock in" in text


def test_the_guide_quotes_the_real_settings_and_board_sizes():
    html = render("guide")
    text = text_of(html)
    spec = spec_for("lineup")
    for key in ("board", "answer_seconds"):
        assert str(spec.settings[key].label) in text
    assert "Easiest and hardest questions (level)" in text
    assert f"the default {spec.settings['answer_seconds'].default} seconds" in text
    defaults = LineUp.default_config
    assert f"Predictions and bids get {int(defaults['predict_seconds'])} seconds" in text
    assert f"each star step {int(defaults['star_seconds'])}" in text
    assert f"after {defaults['max_rounds']} rounds" in text
    for name, layout in BOARDS.items():
        assert f"{sum(layout['zones'])} spaces + the 5-space" in text, name
    assert 'href="/questions/' in html


def test_the_rules_fit_one_screen_and_name_every_space():
    text = text_of(render("rules"))
    for words in ("Purple", "Orange", "Pink", "Star", "5-space", "tie-break", "captain", "never 4"):
        assert words in text, words
