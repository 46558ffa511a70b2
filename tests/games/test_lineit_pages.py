"""Line-it's pages: how to play, the teacher guide and the one-screen rules (rendered from their templates),
and the cards page (every card of every level). What they say is checked against the engine, the
catalog's settings and the screen's keys, so the help cannot drift from the game."""

from __future__ import annotations

import pathlib
import re
from fractions import Fraction

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.test import RequestFactory

from games.definitions import definition
from games.definitions.lineit.pages import exact_decimal, value_note
from games.engine import core
from games.engine.lineit import LineIt, rules
from games.engine.lineit.cards import LEVELS, cards_for
from tests.loading import engine_module

pytestmark = pytest.mark.django_db

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAGES = {
    "how_to_play": "/games/lineit/how-to-play/",
    "guide": "/games/lineit/guide/",
    "rules": "/games/lineit/rules/",
}


def render(name: str) -> str:
    request = RequestFactory().get(PAGES[name])
    request.user = AnonymousUser()
    return render_to_string(f"games/lineit/{name}.html", request=request)


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#x27;", "'")


@pytest.mark.parametrize("name", PAGES)
def test_each_page_extends_the_site_and_loads_the_game_styles(name):
    html = render(name)
    assert "<main" in html and 'class="lineit lineit-doc' in html
    assert "/static/css/games/lineit.css" in html
    assert html.count("<h1") == 1


@pytest.mark.parametrize("name", ["how_to_play", "rules"])
def test_every_card_picture_has_a_text_alternative(name):
    html = render(name)
    cards = re.findall(r'<li class="lineit-card[^"]*" role="img" aria-label="([^"]+)"', html)
    assert len(cards) >= 5 and all(label.strip() for label in cards)
    assert '<symbol id="lineit-heart"' in html and "#lineit-star" in html


def test_how_to_play_covers_every_rule_of_the_issue():
    text = text_of(render("how_to_play"))
    for words in (
        "25 of each",
        "+3, +3, +4, +4, +5 and +5",
        "two more cards than there are players",
        "must take one card from the market",
        "at most two cards",
        "score your line",
        "one Bet card",
        "second number card",
        "three cards",
        "under the jackpot of their colour",
        "third card of one colour",
        "must score it",
        "equal scores share the win",
        "0.7 is less than 3/4: this line goes up",
    ):
        assert words in text, words


def test_the_scoring_example_scores_what_the_page_says():
    """5, Bet +3, 9, 14, 20, 31, 47: the bet is won, the Bet, 5 and 9 are thrown away, 4 + 3 = 7 points."""
    S = engine_module("test_lineit_support")
    state = S.arrange(S.table(), lines={"p1": [S.n(5), S.BET3, S.n(9), S.n(14), S.n(20), S.n(31), S.n(47)]})
    state["turn"]["step"] = "after"
    state, _events = S.act(state, "p1", {"type": "score"})
    assert state["tokens"]["p1"] == [3]
    assert sorted(state["piles"]["p1"]) == [S.n(14), S.n(20), S.n(31), S.n(47)]
    assert rules.score_of(state, "p1") == 7
    text = text_of(render("how_to_play"))
    assert "first two number cards (5 and 9); 14, 20, 31 and 47 go to the scoring pile" in text
    assert "4 + 3 = 7 points" in text


def test_the_default_move_described_is_the_engines():
    text = text_of(render("how_to_play"))
    for words in ("smallest step", "nearest the middle", "first market card goes into your hand", "Bet card"):
        assert words in text
    assert "never plays a card from your hand" in text
    assert "30 seconds unless they change it" in text
    assert definition("lineit").spec.settings["turn_seconds"].default == 30


def test_the_keys_on_the_help_page_are_the_keys_of_the_screen():
    html = render("how_to_play")
    module = (ROOT / "static" / "js" / "games" / "lineit" / "input.js").read_text()
    for key in ("L", "H", "N", "S", "E"):
        assert f"<kbd>{key}</kbd>" in html
        assert f'key === "{key.lower()}"' in module
    assert "<kbd>1</kbd>" in html and "<kbd>9</kbd>" in html and "<kbd>Esc</kbd>" in html
    assert 'key === "escape"' in module and "/^[1-9]$/" in module


def test_the_guide_quotes_the_real_settings_and_game_lengths(monkeypatch):
    text = text_of(render("guide"))
    setting = definition("lineit").spec.settings["turn_seconds"]
    assert f"{setting.minimum} to {setting.maximum}, {setting.default} by default" in text
    assert "54 turns at a table of 2, 66 at 3, 72 at 4 and 80 at 5" in text
    guide = re.sub(r"\s+", "", render("guide"))
    turns_ended = []
    end_turn = rules.end_turn
    monkeypatch.setattr(
        rules, "end_turn", lambda state, *args: turns_ended.append(1) or end_turn(state, *args)
    )
    for players, turns in ((2, 54), (3, 66), (4, 72), (5, 80)):
        turns_ended.clear()
        config = engine_module("test_lineit_support").config(players, 3, bots=("medium",) * players)
        final, _log, _events = core.play_with_bots(LineIt(), config, f"turns-{players}")
        assert final["phase"] == "over" and len(turns_ended) == turns
        longest_20, longest_30 = round(turns * 20 / 60), round(turns * 30 / 60)
        assert (
            f"<td>{players}</td><td>{turns}</td><td>{longest_20}minutes</td><td>{longest_30}minutes</td>"
            in guide
        )


def test_the_guide_table_of_levels_matches_the_decks():
    text = text_of(render("guide"))
    ranges = {1: ("1", "30"), 2: ("1", "60"), 3: ("1", "100"), 4: ("−25", "25")}
    for level, (low, high) in ranges.items():
        values = sorted(Fraction(c["value"]) for c in cards_for(level).values() if c["kind"] == "number")
        assert Fraction(low.replace("−", "-")) <= values[0] and values[-1] <= Fraction(high)
        assert f"{low} to {high}" in text
    assert "2³" in text and "3/4" in text


def test_the_cards_page_lists_every_card_of_a_level_in_order(client):
    response = client.get("/games/lineit/cards/?level=5")
    assert response.status_code == 200
    html = response.content.decode()
    faces = re.findall(r'<span class="lineit-card__face" aria-hidden="true">([^<]+)</span>', html)
    assert len(faces) == 106
    assert faces[0] == "(−3)³" and faces[-1] == "+5"
    assert 'aria-current="page">Level 5<' in html
    assert "= 8" in html  # 2³ shows its value


@pytest.mark.parametrize("raw", ["", "0", "6", "x", "3.5"])
def test_the_cards_page_falls_back_to_level_3(client, raw):
    response = client.get(f"/games/lineit/cards/?level={raw}")
    assert response.status_code == 200
    assert 'aria-current="page">Level 3<' in response.content.decode()


@pytest.mark.parametrize("level", LEVELS)
def test_the_cards_page_works_at_every_level(client, level):
    response = client.get(f"/games/lineit/cards/?level={level}")
    assert response.status_code == 200 and response.content.decode().count('class="lineit-card ') == 106


def test_values_are_printed_only_where_the_face_does_not_say_them():
    assert exact_decimal(Fraction(15, 2)) == "7.5" and exact_decimal(Fraction(-1, 8)) == "-0.125"
    assert exact_decimal(Fraction(1, 3)) is None
    assert value_note("2³", "8") == "8"
    assert value_note("12", "12") is None
    assert value_note("5/3", "5/3") is None
    assert value_note("3/4", "3/4") == "0.75"
    assert value_note("-2.25", "-9/4") is None
    assert value_note("(-2)³", "-8") == "−8"
