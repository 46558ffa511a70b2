"""Line Up!'s own pages through their real URLs: how to play (in a student's words, with the rulebook's
example and a practice rack), the teacher guide (quoting the settings a teacher can choose) and the
one-screen rules; the example and the figures they quote hold."""

import re

import pytest
from django.test import Client

from games.definitions import definition
from games.engine.lineup import BOARDS, LineUp, right_count

pytestmark = pytest.mark.django_db

PAGES = {
    "how_to_play": "/games/lineup/how-to-play/",
    "guide": "/games/lineup/guide/",
    "rules": "/games/lineup/rules/",
}


def get(name: str) -> str:
    response = Client().get(PAGES[name])
    assert response.status_code == 200
    return response.content.decode()


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize("name", PAGES)
def test_each_page_extends_the_site_and_loads_the_game_styles(name):
    html = get(name)
    assert "<main" in html and 'class="lu-doc' in html
    assert "/static/css/games/lineup.css" in html
    assert html.count("<h1") == 1


def test_how_to_play_shows_the_rulebooks_example_and_it_scores_three():
    text = text_of(get("how_to_play"))
    assert "2, 5, 3, 1, 4" in text and "2, 5, 1, 3, 4" in text and "3 right" in text
    assert right_count([2, 5, 1, 3, 4], [2, 5, 3, 1, 4]) == 3
    # The planets really sort that way (NASA equatorial diameters, km): Jupiter, Saturn, Neptune, Earth, Mars.
    cards = {1: 12_756, 2: 142_984, 3: 49_528, 4: 6_792, 5: 120_536}
    assert sorted(cards, key=cards.get, reverse=True) == [2, 5, 3, 1, 4]


def test_how_to_play_has_a_practice_rack_with_the_same_planets():
    html = get("how_to_play")
    assert 'data-lineup-try data-answer="2,5,3,1,4"' in html
    for card, km in ((1, "12,756"), (2, "142,984"), (3, "49,528"), (4, "6,792"), (5, "120,536")):
        assert f'data-try-card="{card}" data-display="{km} km"' in html
    assert "/static/vendor/idiomorph/idiomorph.js" in html and "/jsi18n/" in html
    for script in definition("lineup").screen_scripts:
        assert f'<script src="/static/{script}" defer>' in html


def test_how_to_play_explains_every_space_the_team_rack_and_the_keys():
    html = get("how_to_play")
    text = text_of(html)
    for words in ("Purple", "Orange", "Pink", "Star spaces", "The 5-space", "tie-break", "captain"):
        assert words in text, words
    for key in ("Tab", "Home", "End", "Enter", "Space", "Esc"):
        assert f"<kbd>{key}</kbd>" in html
    assert "stop while you're ahead" in text and "Lock in" in text


def test_the_guide_quotes_the_settings_a_teacher_can_choose():
    html = get("guide")
    text = text_of(html)
    settings = definition("lineup").spec.settings
    for setting in settings.values():
        assert str(setting.label) in text, setting.label
    answer = settings["answer_seconds"]
    assert f"<td>{answer.default}</td>" in html
    assert f"({answer.minimum}–{answer.maximum} seconds)" in text
    assert f"the default {answer.default} seconds" in text
    for _key, name in settings["subject"].choices:
        assert str(name) in text
    defaults = LineUp.default_config
    assert f"Predictions and bids get {int(defaults['predict_seconds'])} seconds" in text
    assert f"each star step {int(defaults['star_seconds'])}" in text
    assert f"after {defaults['max_rounds']} rounds" in text
    for name, layout in BOARDS.items():
        assert f"{sum(layout['zones'])} spaces + the 5-space" in text, name
    assert "Move on" in text and "+30 s" in text
    assert 'href="/questions/' in html


def test_the_rules_fit_one_screen_and_name_every_space():
    text = text_of(get("rules"))
    for words in ("Purple", "Orange", "Pink", "Star", "5-space", "tie-break", "captain", "never 4"):
        assert words in text, words
